/* sharding={...} (xla.OpSharding), replica_groups= (a
 * CollectiveDeviceListProto), source_target_pairs= and shape indices. */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_pb.h"

#include <string.h>

enum { SH_REPLICATED = 0, SH_MAXIMAL = 1, SH_TUPLE = 2, SH_OTHER = 3, SH_MANUAL = 4,
       SH_UNKNOWN = 5, SH_UNREDUCED = 6 };

int wp_htp_shape_index(htp *p, int64_t **v, size_t *n) { return wp_htp_int_list(p, v, n); }

typedef struct perm_ctx {
  wp_htp_vec vec;
  size_t rank;
} perm_ctx;

static int perm_item(htp *p, void *ctx) {
  perm_ctx *c = ctx;
  int64_t d;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_int(p, &d))
    return -1;
  if (d < 0 || (size_t)d >= c->rank)
    return wp_htp_fail(p, at, "transpose dimension %lld out of range", (long long)d);
  int32_t d32 = (int32_t)d;
  wp_htp_vec_push(p, &c->vec, &d32);
  return 0;
}

/* [2,2]<=[4]T(0) after the dimensions: the iota form's reshape and
 * transpose (identity when T is not written). */
static int iota(htp *p, int64_t **reshape, size_t *n_reshape, int32_t **perm, size_t *n_perm) {
  if (wp_htp_ints(p, "[", "]", ",", WP_HTP_NONEMPTY, reshape, n_reshape))
    return -1;
  *perm = NULL;
  *n_perm = 0;
  if (p->pos >= p->len || p->src[p->pos] != 'T') {
    *perm = wp_arena_alloc(p->arena, (*n_reshape + 1) * sizeof **perm);
    for (size_t i = 0; i < *n_reshape; i++)
      (*perm)[i] = (int32_t)i;
    *n_perm = *n_reshape;
    return 0;
  }
  p->pos++;
  perm_ctx c = {{(void **)perm, n_perm, 0, sizeof **perm}, *n_reshape};
  if (wp_htp_list(p, "(", ")", ",", WP_HTP_NONEMPTY, perm_item, &c))
    return -1;
  if (*n_perm != *n_reshape)
    return wp_htp_fail(p, p->pos, "transpose has %zu dimensions, the reshape %zu", *n_perm,
                       *n_reshape);
  return 0;
}

static int bracket_dims(htp *p, int64_t **v, size_t *n) {
  return wp_htp_ints(p, "[", "]", ",", WP_HTP_NONEMPTY, v, n);
}

static int metadata_item(htp *p, void *ctx) {
  Xla__Opaque *m;
  if (wp_htp_metadata(p, &m))
    return -1;
  wp_htp_vec_push(p, ctx, &m);
  return 0;
}

/* metadata={...} or metadata={{...}, {...}} inside a sharding. */
static int sharding_metadata(htp *p, Xla__OpShardingView *s) {
  wp_htp_vec v = {(void **)&s->metadata, &s->n_metadata, 0, sizeof *s->metadata};
  size_t save = p->pos;
  if (wp_htp_expect(p, "{"))
    return -1;
  bool list = wp_htp_peek(p) == '{' || wp_htp_peek(p) == '}';
  p->pos = save;
  return list ? wp_htp_list(p, "{", "}", ",", 0, metadata_item, &v) : metadata_item(p, &v);
}

static int sharding_type_item(htp *p, void *ctx) {
  const char *t;
  wp_htp_skip(p);
  size_t at = p->pos, n = wp_htp_ident(p, &t);
  int v;
  if (wp_hlo_text_enum_value(wp_hlo_text_sharding_types, t, n, &v))
    return wp_htp_fail(p, at, "expected a sharding type (manual, replicated ...)");
  int32_t v32 = v;
  wp_htp_vec_push(p, ctx, &v32);
  return 0;
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
    if (IS("replicated") || IS("manual") || IS("unknown") || IS("maximal") || IS("unreduced")) {
      if (kind || tiled)
        return wp_htp_fail(p, at, "sharding has two kinds");
      kind = true;
      s->type = IS("replicated") ? SH_REPLICATED : IS("manual") ? SH_MANUAL
              : IS("unknown")    ? SH_UNKNOWN
              : IS("unreduced")  ? SH_UNREDUCED  : SH_MAXIMAL;
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
      } else if (wp_htp_ints(p, NULL, NULL, ",", 0, &s->tile_assignment_devices,
                             &s->n_tile_assignment_devices)) {
        return -1;
      }
    } else if (IS("last_tile_dim_replicate")) {
      s->replicate_on_last_tile_dim = true;
    } else if (IS("last_tile_dims")) {
      wp_htp_vec v = {(void **)&s->last_tile_dims, &s->n_last_tile_dims, 0,
                      sizeof *s->last_tile_dims};
      if (wp_htp_expect(p, "=") ||
          wp_htp_list(p, "{", "}", ",", 0, sharding_type_item, &v))
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

static int sharding(htp *p, Xla__OpShardingView **out);

static int tuple_item(htp *p, void *ctx) {
  Xla__OpShardingView *e = NULL;
  if (sharding(p, &e))
    return -1;
  wp_htp_vec_push(p, ctx, &e);
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
    s->type = SH_TUPLE; /* {{...}, {...}}, or {} for an empty tuple */
    wp_htp_vec v = {(void **)&s->tuple_shardings, &s->n_tuple_shardings, 0,
                    sizeof *s->tuple_shardings};
    p->pos = at;
    rc = wp_htp_list(p, "{", "}", ",", 0, tuple_item, &v);
  } else if (!rc) {
    rc = single(p, s, at) || wp_htp_expect(p, "}") ? -1 : 0;
  }
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

static int group_item(htp *p, void *ctx) {
  Xla__ReplicaGroupView *g = wp_pb_new(p->arena, &xla__replica_group_view__descriptor);
  if (wp_htp_int_list(p, &g->replica_ids, &g->n_replica_ids))
    return -1;
  wp_htp_vec_push(p, ctx, &g);
  return 0;
}

int wp_htp_replica_groups(htp *p, Xla__Opaque **out) {
  Xla__CollectiveDeviceListView l = XLA__COLLECTIVE_DEVICE_LIST_VIEW__INIT;
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
    wp_htp_vec v = {(void **)&l.replica_groups, &l.n_replica_groups, 0, sizeof *l.replica_groups};
    if (wp_htp_list(p, "{", "}", ",", 0, group_item, &v))
      return -1;
  }
  *out = wp_htp_opaque(p, &l.base);
  return 0;
}

static int pair_item(htp *p, void *ctx) {
  Xla__SourceTargetView st = XLA__SOURCE_TARGET_VIEW__INIT;
  int64_t *v;
  size_t n, at;
  if (wp_htp_int_list_at(p, &v, &n, &at))
    return -1;
  if (n != 2)
    return wp_htp_fail(p, at, "expects 'source_target_pairs=' to be a list of pairs");
  st.source = v[0];
  st.target = v[1];
  Xla__Opaque *o = wp_htp_opaque(p, &st.base);
  wp_htp_vec_push(p, ctx, &o);
  return 0;
}

int wp_htp_source_target_pairs(htp *p, Xla__Opaque ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  wp_htp_vec v = {(void **)out, n, 0, sizeof **out};
  return wp_htp_list(p, "{", "}", ",", 0, pair_item, &v);
}
