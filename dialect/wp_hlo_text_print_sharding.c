/* The printer's shardings (OpSharding as XLA writes it), replica groups
 * (the collective device list, or the old replica_groups field), source
 * and target pairs, output_to_operand_aliasing. */
#include "wp_hlo_text_print_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_pb.h"

#include <string.h>

int wp_hpr_sharding(hpr *w, const Xla__OpShardingView *s, int depth) {
  if (depth > 64)
    return wp_hpr_fail(w, "sharding nested too deep");
  if (s->base.n_unknown_fields)
    wp_hpr_warn(w, "a sharding holds fields unknown to weightpack; they are not printed");
  wp_hpr_puts(w, "{");
  if (s->type == 2) {
    for (size_t i = 0; i < s->n_tuple_shardings; i++) {
      if (i)
        wp_hpr_puts(w, ", ");
      if (wp_hpr_sharding(w, s->tuple_shardings[i], depth + 1))
        return -1;
    }
    wp_hpr_puts(w, "}");
    return 0;
  }
  switch (s->type) {
  case 0: wp_hpr_puts(w, "replicated"); break;
  case 4: wp_hpr_puts(w, "manual"); break;
  case 5: wp_hpr_puts(w, "unknown"); break;
  case 1:
    if (s->n_tile_assignment_devices != 1)
      return wp_hpr_fail(w, "a maximal sharding without one device");
    wp_hpr_printf(w, "maximal device=%lld", (long long)s->tile_assignment_devices[0]);
    break;
  case 3:
    wp_hpr_puts(w, "devices=[");
    for (size_t i = 0; i < s->n_tile_assignment_dimensions; i++)
      wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)s->tile_assignment_dimensions[i]);
    wp_hpr_puts(w, "]");
    if (s->n_iota_reshape_dims) {
      wp_hpr_puts(w, "<=[");
      for (size_t i = 0; i < s->n_iota_reshape_dims; i++)
        wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)s->iota_reshape_dims[i]);
      wp_hpr_puts(w, "]");
      bool identity = s->n_iota_transpose_perm == s->n_iota_reshape_dims;
      for (size_t i = 0; identity && i < s->n_iota_transpose_perm; i++)
        identity = s->iota_transpose_perm[i] == (int32_t)i;
      if (!identity) {
        wp_hpr_puts(w, "T(");
        for (size_t i = 0; i < s->n_iota_transpose_perm; i++)
          wp_hpr_printf(w, "%s%d", i ? "," : "", (int)s->iota_transpose_perm[i]);
        wp_hpr_puts(w, ")");
      }
    } else {
      for (size_t i = 0; i < s->n_tile_assignment_devices; i++)
        wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)s->tile_assignment_devices[i]);
    }
    if (s->replicate_on_last_tile_dim)
      wp_hpr_puts(w, " last_tile_dim_replicate");
    if (s->n_last_tile_dims) {
      wp_hpr_puts(w, " last_tile_dims={");
      for (size_t i = 0; i < s->n_last_tile_dims; i++) {
        const char *t = wp_hlo_text_enum_name(wp_hlo_text_sharding_types, s->last_tile_dims[i]);
        if (!t)
          return wp_hpr_fail(w, "last_tile_dims type %d has no name", (int)s->last_tile_dims[i]);
        wp_hpr_printf(w, "%s%s", i ? ", " : "", t);
      }
      wp_hpr_puts(w, "}");
    }
    break;
  default:
    return wp_hpr_fail(w, "sharding type %d has no text form", (int)s->type);
  }
  if (s->tile_shape)
    wp_hpr_warn(w, "a sharding's tile_shape is not printed");
  if (s->is_shard_group)
    wp_hpr_printf(w, " %s %lld", s->shard_group_type ? "shard_like" : "shard_as",
               (long long)s->shard_group_id);
  if (s->n_metadata) {
    /* one entry prints bare; one empty entry too would print as
     * `metadata={}`, which reads back as none, so it goes in a list */
    bool listed = s->n_metadata > 1 || !wp_pb_pack(w->arena, &s->metadata[0]->base).len;
    wp_hpr_puts(w, " metadata=");
    if (listed)
      wp_hpr_puts(w, "{");
    for (size_t i = 0; i < s->n_metadata; i++) {
      if (i)
        wp_hpr_puts(w, ", ");
      wp_hpr_metadata(w, s->metadata[i], "a sharding");
    }
    if (listed)
      wp_hpr_puts(w, "}");
  }
  wp_hpr_puts(w, "}");
  return 0;
}

int wp_hpr_replica_groups(hpr *w, const Xla__Opaque *o) {
  Xla__CollectiveDeviceListView *l =
      wp_hpr_view(w, o, &xla__collective_device_list_view__descriptor, "replica groups");
  if (!l)
    return -1;
  wp_hpr_puts(w, ", replica_groups=");
  if (l->iota_replica_group_list) {
    const Xla__IotaReplicaGroupListView *io = l->iota_replica_group_list;
    wp_hpr_printf(w, "[%lld,%lld]<=[", (long long)io->num_replica_groups,
               (long long)io->num_devices_per_group);
    for (size_t i = 0; i < io->n_iota_reshape_dims; i++)
      wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)io->iota_reshape_dims[i]);
    wp_hpr_puts(w, "]");
    bool identity = io->n_iota_transpose_perm == io->n_iota_reshape_dims;
    for (size_t i = 0; identity && i < io->n_iota_transpose_perm; i++)
      identity = io->iota_transpose_perm[i] == (int32_t)i;
    if (!identity) {
      wp_hpr_puts(w, "T(");
      for (size_t i = 0; i < io->n_iota_transpose_perm; i++)
        wp_hpr_printf(w, "%s%d", i ? "," : "", (int)io->iota_transpose_perm[i]);
      wp_hpr_puts(w, ")");
    }
    if (l->n_replica_groups)
      wp_hpr_warn(w, "replica groups given both as a list and as iota; the list is not printed");
    return 0;
  }
  wp_hpr_puts(w, "{");
  for (size_t i = 0; i < l->n_replica_groups; i++) {
    if (i)
      wp_hpr_puts(w, ",");
    wp_hpr_int_list(w, l->replica_groups[i]->replica_ids, l->replica_groups[i]->n_replica_ids);
  }
  wp_hpr_puts(w, "}");
  return 0;
}

/* XLA marks these fields deprecated; old writers still fill them, and the
 * printer reads them on purpose. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

size_t wp_hpr_n_legacy_groups(const Xla__HloInstructionProto *r) { return r->n_replica_groups; }

/* Old writers' HloInstructionProto.replica_groups (field 49): printed the
 * same; read back they land in collective_device_list, as XLA keeps them. */
int wp_hpr_legacy_replica_groups(hpr *w, Xla__HloInstructionProto *r) {
  wp_hpr_puts(w, ", replica_groups={");
  for (size_t i = 0; i < r->n_replica_groups; i++) {
    Xla__ReplicaGroupView *g =
        wp_hpr_view(w, r->replica_groups[i], &xla__replica_group_view__descriptor, "replica group");
    if (!g)
      return -1;
    if (i)
      wp_hpr_puts(w, ",");
    wp_hpr_int_list(w, g->replica_ids, g->n_replica_ids);
  }
  wp_hpr_puts(w, "}");
  r->n_replica_groups = 0;
  return 0;
}

#pragma GCC diagnostic pop

int wp_hpr_source_target_pairs(hpr *w, Xla__HloInstructionProto *r) {
  wp_hpr_puts(w, ", source_target_pairs={");
  for (size_t i = 0; i < r->n_source_target_pairs; i++) {
    Xla__SourceTargetView *st = wp_hpr_view(w, r->source_target_pairs[i],
                                     &xla__source_target_view__descriptor, "source-target pair");
    if (!st)
      return -1;
    wp_hpr_printf(w, "%s{%lld,%lld}", i ? "," : "", (long long)st->source, (long long)st->target);
  }
  wp_hpr_puts(w, "}");
  r->n_source_target_pairs = 0;
  return 0;
}

static void shape_index(hpr *w, const int64_t *v, size_t n) { wp_hpr_int_list(w, v, n); }

int wp_hpr_operand_aliasing(hpr *w, Xla__HloInstructionProto *r) {
  wp_hpr_puts(w, ", output_to_operand_aliasing={");
  for (size_t i = 0; i < r->n_output_operand_aliasing; i++) {
    Xla__OutputOperandAliasingView *a =
        wp_hpr_view(w, r->output_operand_aliasing[i],
                    &xla__output_operand_aliasing_view__descriptor, "output_to_operand_aliasing");
    if (!a)
      return -1;
    if (i)
      wp_hpr_puts(w, ", ");
    shape_index(w, a->output_shape_index, a->n_output_shape_index);
    wp_hpr_printf(w, ": (%lld, ", (long long)a->operand_index);
    shape_index(w, a->operand_shape_index, a->n_operand_shape_index);
    wp_hpr_puts(w, ")");
  }
  wp_hpr_puts(w, "}");
  r->n_output_operand_aliasing = 0;
  return 0;
}
