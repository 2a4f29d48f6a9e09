/* sharding={...} (xla.OpSharding), replica_groups= (a
 * CollectiveDeviceListProto), source_target_pairs= and shape indices. */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_pb.h"

#include <string.h>

enum { SH_REPLICATED = 0, SH_MAXIMAL = 1, SH_TUPLE = 2, SH_OTHER = 3, SH_MANUAL = 4,
       SH_UNKNOWN = 5 };

int wp_htp_shape_index(htp *p, int64_t **v, size_t *n) { return wp_htp_int_list(p, v, n); }

/* [2,2]<=[4]T(0) after the dimensions: the iota form's reshape and
 * transpose (identity when T is not written). */
static int iota(htp *p, int64_t **reshape, size_t *n_reshape, int32_t **perm, size_t *n_perm) {
  size_t cap = 0, cap_p = 0;
  *reshape = NULL;
  *n_reshape = 0;
  if (wp_htp_expect(p, "["))
    return -1;
  do {
    int64_t d;
    if (wp_htp_int(p, &d))
      return -1;
    WP_HTP_PUSH(p, *reshape, *n_reshape, cap, d);
  } while (wp_htp_accept(p, ","));
  if (wp_htp_expect(p, "]"))
    return -1;
  *perm = NULL;
  *n_perm = 0;
  if (p->pos < p->len && p->src[p->pos] == 'T') {
    p->pos++;
    if (wp_htp_expect(p, "("))
      return -1;
    do {
      int64_t d;
      size_t at = p->pos;
      if (wp_htp_int(p, &d))
        return -1;
      if (d < 0 || (size_t)d >= *n_reshape)
        return wp_htp_fail(p, at, "transpose dimension %lld out of range", (long long)d);
      WP_HTP_PUSH(p, *perm, *n_perm, cap_p, (int32_t)d);
    } while (wp_htp_accept(p, ","));
    if (wp_htp_expect(p, ")"))
      return -1;
    if (*n_perm != *n_reshape)
      return wp_htp_fail(p, p->pos, "transpose has %zu dimensions, the reshape %zu", *n_perm,
                      *n_reshape);
  } else {
    *perm = wp_arena_alloc(p->arena, (*n_reshape + 1) * sizeof **perm);
    for (size_t i = 0; i < *n_reshape; i++)
      (*perm)[i] = (int32_t)i;
    *n_perm = *n_reshape;
  }
  return 0;
}

static int bracket_dims(htp *p, int64_t **v, size_t *n) {
  size_t cap = 0;
  *v = NULL;
  *n = 0;
  if (wp_htp_expect(p, "["))
    return -1;
  do {
    int64_t d;
    if (wp_htp_int(p, &d))
      return -1;
    WP_HTP_PUSH(p, *v, *n, cap, d);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "]");
}

/* metadata={...} or metadata={{...}, {...}} inside a sharding. */
static int sharding_metadata(htp *p, Xla__OpShardingView *s) {
  size_t cap = 0;
  size_t save = p->pos;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_peek(p) != '{') {
    p->pos = save;
    Xla__Opaque *m;
    if (wp_htp_metadata(p, &m))
      return -1;
    WP_HTP_PUSH(p, s->metadata, s->n_metadata, cap, m);
    return 0;
  }
  do {
    Xla__Opaque *m;
    if (wp_htp_metadata(p, &m))
      return -1;
    WP_HTP_PUSH(p, s->metadata, s->n_metadata, cap, m);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}

static int single(htp *p, Xla__OpShardingView *s, size_t open_at) {
  bool kind = false, tiled = false, maximal = false, device = false;
  for (;;) {
    wp_htp_skip(p);
    size_t at = p->pos;
    const char *w;
    size_t n = wp_htp_ident(p, &w);
    if (!n) {
      if (wp_htp_peek(p) == '}')
        break;
      return wp_htp_fail(p, at, "expected a sharding part");
    }
#define IS(lit) (n == strlen(lit) && !memcmp(w, lit, n))
    if (IS("replicated") || IS("manual") || IS("unknown") || IS("maximal")) {
      if (kind || tiled)
        return wp_htp_fail(p, at, "sharding has two kinds");
      kind = true;
      s->type = IS("replicated") ? SH_REPLICATED : IS("manual") ? SH_MANUAL
              : IS("unknown")    ? SH_UNKNOWN    : SH_MAXIMAL;
      maximal = s->type == SH_MAXIMAL;
    } else if (IS("device")) {
      int64_t d;
      if (!maximal || device)
        return wp_htp_fail(p, at, "device= belongs to a maximal sharding, once");
      if (wp_htp_expect(p, "=") || wp_htp_int(p, &d))
        return -1;
      device = true;
      s->n_tile_assignment_dimensions = 1;
      s->tile_assignment_dimensions = wp_arena_alloc(p->arena, sizeof(int64_t));
      s->tile_assignment_dimensions[0] = 1;
      s->n_tile_assignment_devices = 1;
      s->tile_assignment_devices = wp_arena_alloc(p->arena, sizeof(int64_t));
      s->tile_assignment_devices[0] = d;
    } else if (IS("devices")) {
      if (kind || tiled)
        return wp_htp_fail(p, at, "sharding has two kinds");
      tiled = true;
      s->type = SH_OTHER;
      if (wp_htp_expect(p, "=") ||
          bracket_dims(p, &s->tile_assignment_dimensions, &s->n_tile_assignment_dimensions))
        return -1;
      if (wp_htp_accept(p, "<=")) {
        if (iota(p, &s->iota_reshape_dims, &s->n_iota_reshape_dims, &s->iota_transpose_perm,
                 &s->n_iota_transpose_perm))
          return -1;
      } else {
        size_t cap = 0;
        do {
          int64_t d;
          if (wp_htp_int(p, &d))
            return -1;
          WP_HTP_PUSH(p, s->tile_assignment_devices, s->n_tile_assignment_devices, cap, d);
        } while (wp_htp_accept(p, ","));
      }
    } else if (IS("last_tile_dim_replicate")) {
      s->replicate_on_last_tile_dim = true;
    } else if (IS("last_tile_dims")) {
      size_t cap = 0;
      if (wp_htp_expect(p, "=") || wp_htp_expect(p, "{"))
        return -1;
      do {
        const char *t;
        wp_htp_skip(p);
        size_t tat = p->pos, tn = wp_htp_ident(p, &t);
        int v;
        if (wp_hlo_text_enum_value(wp_hlo_text_sharding_types, t, tn, &v))
          return wp_htp_fail(p, tat, "expected a sharding type (manual, replicated ...)");
        WP_HTP_PUSH(p, s->last_tile_dims, s->n_last_tile_dims, cap, v);
      } while (wp_htp_accept(p, ","));
      if (wp_htp_expect(p, "}"))
        return -1;
    } else if (IS("shard_as") || IS("shard_like")) {
      s->is_shard_group = true;
      s->shard_group_type = IS("shard_like");
      if (wp_htp_int(p, &s->shard_group_id))
        return -1;
    } else if (IS("metadata")) {
      if (wp_htp_expect(p, "=") || sharding_metadata(p, s))
        return -1;
    } else {
      return wp_htp_fail(p, at, "unknown sharding part '%.*s'", (int)n, w);
    }
#undef IS
  }
  if (!kind && !tiled)
    return wp_htp_fail(p, open_at, "sharding names no kind (replicated, maximal, manual, unknown, "
                                "devices=)");
  if (maximal && !device)
    return wp_htp_fail(p, open_at, "maximal sharding needs device=");
  return 0;
}

static int sharding(htp *p, Xla__OpShardingView **out) {
  wp_htp_skip(p);
  size_t at = p->pos;
  if (++p->depth > WP_HTP_MAX_DEPTH) {
    p->depth--;
    return wp_htp_fail(p, at, "shardings nest more than %d deep", WP_HTP_MAX_DEPTH);
  }
  Xla__OpShardingView *s = wp_pb_new(p->arena, &xla__op_sharding_view__descriptor);
  *out = s;
  int rc = wp_htp_expect(p, "{");
  if (!rc && (wp_htp_peek(p) == '{' || wp_htp_peek(p) == '}')) {
    size_t cap = 0;
    s->type = SH_TUPLE;
    if (wp_htp_peek(p) == '{') {
      do {
        Xla__OpShardingView *e;
        if ((rc = sharding(p, &e)))
          break;
        WP_HTP_PUSH(p, s->tuple_shardings, s->n_tuple_shardings, cap, e);
      } while (wp_htp_accept(p, ","));
    }
  } else if (!rc) {
    rc = single(p, s, at);
  }
  if (!rc)
    rc = wp_htp_expect(p, "}");
  p->depth--;
  return rc;
}

int wp_htp_sharding(htp *p, Xla__Opaque **out) {
  Xla__OpShardingView *s = NULL; /* set when sharding() succeeds; -O3 cannot see it */
  if (sharding(p, &s))
    return -1;
  *out = wp_htp_opaque(p, &s->base);
  return 0;
}

int wp_htp_replica_groups(htp *p, Xla__Opaque **out) {
  Xla__CollectiveDeviceListView l = XLA__COLLECTIVE_DEVICE_LIST_VIEW__INIT;
  wp_htp_skip(p);
  if (wp_htp_peek(p) == '[') {
    int64_t *dims;
    size_t n;
    size_t at = p->pos;
    Xla__IotaReplicaGroupListView *io =
        wp_pb_new(p->arena, &xla__iota_replica_group_list_view__descriptor);
    if (bracket_dims(p, &dims, &n) || wp_htp_expect(p, "<=") ||
        iota(p, &io->iota_reshape_dims, &io->n_iota_reshape_dims, &io->iota_transpose_perm,
             &io->n_iota_transpose_perm))
      return -1;
    if (n != 2)
      return wp_htp_fail(p, at, "iota replica groups are [groups,devices_per_group]");
    io->num_replica_groups = dims[0];
    io->num_devices_per_group = dims[1];
    l.iota_replica_group_list = io;
  } else {
    size_t cap = 0;
    if (wp_htp_expect(p, "{"))
      return -1;
    if (!wp_htp_accept(p, "}")) {
      do {
        Xla__ReplicaGroupView *g = wp_pb_new(p->arena, &xla__replica_group_view__descriptor);
        if (wp_htp_int_list(p, &g->replica_ids, &g->n_replica_ids))
          return -1;
        WP_HTP_PUSH(p, l.replica_groups, l.n_replica_groups, cap, g);
      } while (wp_htp_accept(p, ","));
      if (wp_htp_expect(p, "}"))
        return -1;
    }
  }
  *out = wp_htp_opaque(p, &l.base);
  return 0;
}

int wp_htp_source_target_pairs(htp *p, Xla__Opaque ***out, size_t *n) {
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    Xla__SourceTargetView st = XLA__SOURCE_TARGET_VIEW__INIT;
    if (wp_htp_expect(p, "{") || wp_htp_int(p, &st.source) || wp_htp_expect(p, ",") ||
        wp_htp_int(p, &st.target) || wp_htp_expect(p, "}"))
      return -1;
    WP_HTP_PUSH(p, *out, *n, cap, wp_htp_opaque(p, &st.base));
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}
