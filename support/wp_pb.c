#include "wp_pb.h"

void *wp_pb_unpack(wp_arena *arena, const ProtobufCMessageDescriptor *desc,
                   const void *data, size_t len) {
  return protobuf_c_message_unpack(desc, wp_arena_protobuf_allocator(arena), len,
                                   data);
}

ProtobufCBinaryData wp_pb_pack(wp_arena *arena, const ProtobufCMessage *msg) {
  ProtobufCBinaryData out;
  out.len = protobuf_c_message_get_packed_size(msg);
  out.data = wp_arena_alloc(arena, out.len ? out.len : 1);
  protobuf_c_message_pack(msg, out.data);
  return out;
}

void *wp_pb_convert(wp_arena *arena, const ProtobufCMessage *msg,
                    const ProtobufCMessageDescriptor *desc) {
  ProtobufCBinaryData bytes = wp_pb_pack(arena, msg);
  return wp_pb_unpack(arena, desc, bytes.data, bytes.len);
}

void *wp_pb_new(wp_arena *arena, const ProtobufCMessageDescriptor *desc) {
  ProtobufCMessage *m = wp_arena_alloc(arena, desc->sizeof_message);
  desc->message_init(m);
  return m;
}
