/* wp.bir.Module messages <-> their bytes: telling them from an
 * HloModuleProto, and protobuf's limits. */
#include "wp_bir.h"

#include "wp_pb.h"

#include <stdint.h>
#include <string.h>

bool wp_bir_sniff(const void *data, size_t len) {
  /* The schema marker's field, wherever a writer put it among the
   * top-level fields (ours writes it last; another writer may add fields
   * after it): a walk that steps over each field, large ones included,
   * without reading them. */
  static const char marker[] = WP_BIR_SCHEMA;
  /* ours, last: also when the middle is damaged (then import says so) */
  size_t n = sizeof marker - 1;
  if (len >= n && memcmp((const char *)data + len - n, marker, n) == 0)
    return true;
  const uint64_t schema_tag = (536870001ull << 3) | 2;
  const uint8_t *p = data, *end = p + len;
  while (p < end) {
    uint64_t tag;
    const uint8_t *payload;
    size_t plen;
    if (wp_pb_next_field(&p, end, &tag, &payload, &plen))
      return false;
    if (tag == schema_tag && payload && plen >= 15 && !memcmp(payload, marker, 15))
      return true; /* "weightpack-bir-N": another version is named by import */
  }
  return false;
}

/* Names must be UTF-8 (they become MLIR symbols and NEFF JSON names);
 * paths and the other strings may be any bytes but NUL. */
static bool bir_utf8(const ProtobufCMessageDescriptor *msg, const ProtobufCFieldDescriptor *f) {
  (void)msg;
  return !strcmp(f->name, "name") || !strcmp(f->name, "hlo_value");
}

int wp_bir_import(MlirContext ctx, const void *data, size_t len, const char *filename,
                  MlirModule *out, wp_error *err) {
  wp_arena *arena = wp_arena_create();
  Wp__Bir__Module *msg = wp_pb_depth(data, len, 100) > 100
                             ? NULL
                             : wp_pb_unpack(arena, &wp__bir__module__descriptor, data, len);
  int rc;
  char path[256];
  const char *why;
  if (!msg)
    rc = wp_error_set(err, "malformed BIR module (truncated or not protobuf)");
  else if (strcmp(msg->schema, WP_BIR_SCHEMA) != 0)
    rc = wp_error_set(err, "not a weightpack BIR module (schema '%s')", msg->schema);
  /* where the strings enter: protobuf-c cuts one at a NUL without a word */
  else if ((why = wp_pb_bad_string(&wp__bir__module__descriptor, data, len, bir_utf8, path,
                                   sizeof path)))
    rc = wp_error_set(err, "BIR module: %s: %s", path, why);
  else
    rc = wp_bir_from_proto(ctx, msg, filename, out, err);
  wp_arena_destroy(arena);
  return rc;
}

int wp_bir_export(MlirModule m, wp_arena *arena, const void **data, size_t *len,
                  MlirLocation *where, wp_error *err) {
  Wp__Bir__Module *msg = wp_bir_to_proto(m, arena, WP_BIR_WITH_PROGRAM, where, err);
  if (!msg)
    return -1;
  size_t size = protobuf_c_message_get_packed_size(&msg->base);
  if (where)
    *where = mlirOperationGetLocation(mlirModuleGetOperation(m));
  if (size > (size_t)INT32_MAX)
    return wp_error_set(err, "the BIR module would be %zu bytes, past protobuf's 2 GiB limit",
                        size);
  ProtobufCBinaryData b = wp_pb_pack(arena, &msg->base);
  *data = b.data;
  *len = b.len;
  return 0;
}
