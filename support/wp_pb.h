/* Small protobuf-c helpers: packing and unpacking through a wp_arena. */
#ifndef WP_PB_H
#define WP_PB_H

#include "wp_arena.h"

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stdint.h>

/* Unpacks DATA as DESC with memory from ARENA; NULL when malformed. */
void *wp_pb_unpack(wp_arena *arena, const ProtobufCMessageDescriptor *desc,
                   const void *data, size_t len);

/* Packs MSG into arena memory. */
ProtobufCBinaryData wp_pb_pack(wp_arena *arena, const ProtobufCMessage *msg);

/* Re-reads MSG's wire form as another message type (e.g. an Opaque as a
 * LayoutView). NULL when the bytes do not parse as DESC. */
void *wp_pb_convert(wp_arena *arena, const ProtobufCMessage *msg,
                    const ProtobufCMessageDescriptor *desc);

/* Nesting depth of DATA read as protobuf, following every length-delimited
 * field that parses as a message (as protobuf-c parses one: a field numbered
 * 0 in it too); stops counting past LIMIT. protobuf-c
 * recurses once per level, so inputs deeper than a sane limit are refused
 * before they are unpacked. */
int wp_pb_depth(const void *data, size_t len, int limit);

/* Does DATA scan as one message (every top-level field well formed)? */
bool wp_pb_scans(const void *data, size_t len);

/* Steps over the field at *P (before END): its TAG, and for a
 * length-delimited field its PAYLOAD (else NULL) and PLEN. -1 when the
 * bytes there are not a field (bad varint, field number 0, a group, a
 * length past END). */
int wp_pb_next_field(const uint8_t **p, const uint8_t *end, uint64_t *tag,
                     const uint8_t **payload, size_t *plen);

/* Does MSG, or any message inside it, hold an unknown field numbered 0?
 * protobuf-c reads a key written long (0x80 0x00) as field 0, which no
 * message has, and packs it back as the byte 0x00, which it then refuses:
 * such a message would not read back once written. The walk recurses once
 * per level of nesting (bounded by wp_pb_depth's check before unpacking). */
bool wp_pb_has_field_zero(const ProtobufCMessage *msg);

/* Must string field F of message type MSG be UTF-8 (wp_pb_bad_string)? */
typedef bool (*wp_pb_utf8_rule)(const ProtobufCMessageDescriptor *msg,
                                const ProtobufCFieldDescriptor *f);

/* The first string field in DATA, read as DESC and into every message
 * field DESC declares, that protobuf-c would not carry as it is: one
 * holding a NUL byte (protobuf-c cuts the string there, without a word),
 * or one that is not UTF-8 where UTF8 (may be NULL) asks for it. Returns
 * why ("holds a NUL byte", "not UTF-8") and writes the field's path
 * ("computations[0].instructions[3].name", its end cut to fit CAP bytes)
 * to PATH; NULL when there is none. DATA has been unpacked (its depth
 * checked) before. */
const char *wp_pb_bad_string(const ProtobufCMessageDescriptor *desc, const void *data, size_t len,
                             wp_pb_utf8_rule utf8, char *path, size_t cap);

/* Would protobuf-c surely unpack DATA as DESC, with no field numbered 0
 * anywhere in it (wp_pb_has_field_zero)? Read from the bytes without
 * unpacking them: true only when every field, in every message field
 * DESC declares, is well formed and either one DESC does not declare
 * (kept as an unknown field) or in the wire form protobuf-c reads it in;
 * false when unsure, for unpacking to judge. DESC and the messages in it
 * declare no required field (proto3). */
bool wp_pb_unpacks_surely(const ProtobufCMessageDescriptor *desc, const void *data, size_t len);

/* A new empty message of DESC in arena memory. */
void *wp_pb_new(wp_arena *arena, const ProtobufCMessageDescriptor *desc);

#endif
