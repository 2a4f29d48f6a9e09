#include "wp_pb.h"

#include "wp_jsonw.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void *wp_pb_unpack(wp_arena *arena, const ProtobufCMessageDescriptor *desc,
                   const void *data, size_t len) {
  return protobuf_c_message_unpack(desc, wp_arena_protobuf_allocator(arena), len,
                                   data);
}

ProtobufCBinaryData wp_pb_pack(wp_arena *arena, const ProtobufCMessage *msg) {
  ProtobufCBinaryData out;
  out.len = protobuf_c_message_get_packed_size(msg);
  out.data = wp_arena_alloc(arena, out.len ? out.len : 1);
  if (out.len) /* nothing to write: packing would walk every field again */
    protobuf_c_message_pack(msg, out.data);
  return out;
}

void *wp_pb_convert(wp_arena *arena, const ProtobufCMessage *msg,
                    const ProtobufCMessageDescriptor *desc) {
  ProtobufCBinaryData bytes = wp_pb_pack(arena, msg);
  return wp_pb_unpack(arena, desc, bytes.data, bytes.len);
}

/* Steps over one field as protobuf-c reads it, field number 0 included:
 * protobuf-c takes a key written long (0x80 0x00) as an unknown field 0
 * and reads on. */
static int step_field(const uint8_t **p, const uint8_t *end, uint64_t *tag,
                      const uint8_t **payload, size_t *plen) {
  /* Most fields of an HLO program are a one-byte key and a one-byte varint
   * or length: read those without the loops (a third of the parse's
   * stepping). */
  const uint8_t *q = *p;
  if (end - q >= 2 && q[0] < 0x80 && q[1] < 0x80) {
    switch (q[0] & 7) {
    case 0:
      *tag = q[0];
      *payload = NULL;
      *p = q + 2;
      return 0;
    case 2:
      if ((size_t)(end - q - 2) < q[1])
        return -1;
      *tag = q[0];
      *payload = q + 2;
      *plen = q[1];
      *p = q + 2 + q[1];
      return 0;
    }
  }
  uint64_t v = 0;
  int shift = 0;
  /* a key is at most 5 bytes, as protobuf-c reads them */
  for (;;) {
    if (*p >= end || shift > 28)
      return -1;
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80))
      break;
  }
  *tag = v;
  *payload = NULL;
  switch (v & 7) {
  case 0:
    for (int i = 0;; i++) {
      if (*p >= end || i > 9)
        return -1;
      if (!(*(*p)++ & 0x80))
        return 0;
    }
  case 1:
    if (end - *p < 8) return -1;
    *p += 8;
    return 0;
  case 5:
    if (end - *p < 4) return -1;
    *p += 4;
    return 0;
  case 2: {
    uint64_t n = 0;
    shift = 0;
    for (;;) {
      if (*p >= end || shift > 63)
        return -1;
      uint8_t b = *(*p)++;
      n |= (uint64_t)(b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80))
        break;
    }
    if (n > (uint64_t)(end - *p))
      return -1;
    *payload = *p;
    *plen = (size_t)n;
    *p += n;
    return 0;
  }
  default:
    return -1;
  }
}

int wp_pb_next_field(const uint8_t **p, const uint8_t *end, uint64_t *tag, const uint8_t **payload,
                     size_t *plen) {
  if (step_field(p, end, tag, payload, plen))
    return -1;
  return (*tag >> 3) ? 0 : -1;
}

/* Does [p, end) scan as a message (every field well formed)? FIELD_ZERO:
 * as protobuf-c reads one, a field numbered 0 among them. */
static bool scans(const uint8_t *p, const uint8_t *end, bool field_zero) {
  while (p < end) {
    uint64_t tag;
    const uint8_t *pl;
    size_t n;
    if (field_zero ? step_field(&p, end, &tag, &pl, &n) : wp_pb_next_field(&p, end, &tag, &pl, &n))
      return false;
  }
  return true;
}

bool wp_pb_scans(const void *data, size_t len) {
  return scans(data, (const uint8_t *)data + len, false);
}

/* One pass: each length-delimited payload is entered as a message on
 * trust and counts once it has scanned to its end (as protobuf-c parses
 * it, field 0 included); one that stops short is a leaf, and what was
 * found inside it is dropped with it. Every byte is stepped over once, by
 * the innermost payload holding it: checking each payload with a scan
 * before entering it stepped over the fields of level k 2k times. The
 * outermost level needs no such trust: its payloads count up to where it
 * stops, as before. */
int wp_pb_depth(const void *data, size_t len, int limit) {
  typedef struct frame {
    const uint8_t *p, *end;
    int deepest; /* of what has scanned inside, this level at least */
  } frame;
  frame stack[130];
  if (limit > 128)
    limit = 128;
  if (limit < 0) /* counts the same: a first level past it is too deep */
    limit = 0;
  int sp = 0;
  stack[0] = (frame){data, (const uint8_t *)data + len, 0};
  for (;;) {
    frame *f = &stack[sp];
    uint64_t tag;
    const uint8_t *pl;
    size_t n;
    bool done = f->p >= f->end;
    if (!done && step_field(&f->p, f->end, &tag, &pl, &n)) {
      if (sp == 0) /* the input is not a message from here on */
        return f->deepest;
      sp--; /* not a message after all: a leaf */
      continue;
    }
    if (done) {
      if (sp == 0)
        return f->deepest;
      if (f->deepest > stack[sp - 1].deepest)
        stack[sp - 1].deepest = f->deepest;
      sp--;
      continue;
    }
    /* past LIMIT + 1 levels the answer is known once the level scans */
    if (pl && n && sp <= limit) {
      sp++;
      stack[sp] = (frame){pl, pl + n, sp};
    }
  }
}

bool wp_pb_has_field_zero(const ProtobufCMessage *msg) {
  for (unsigned i = 0; i < msg->n_unknown_fields; i++)
    if (msg->unknown_fields[i].tag == 0)
      return true;
  const ProtobufCMessageDescriptor *d = msg->descriptor;
  for (unsigned f = 0; f < d->n_fields; f++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[f];
    if (fd->type != PROTOBUF_C_TYPE_MESSAGE)
      continue;
    const char *base = (const char *)msg;
    if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *(const size_t *)(base + fd->quantifier_offset);
      ProtobufCMessage *const *items = *(ProtobufCMessage *const *const *)(base + fd->offset);
      for (size_t k = 0; k < n; k++)
        if (items[k] && wp_pb_has_field_zero(items[k]))
          return true;
      continue;
    }
    /* a oneof member's pointer is only its own while the case says so */
    if ((fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
        *(const uint32_t *)(base + fd->quantifier_offset) != fd->id)
      continue;
    const ProtobufCMessage *sub = *(ProtobufCMessage *const *)(base + fd->offset);
    if (sub && wp_pb_has_field_zero(sub))
      return true;
  }
  return false;
}

/* Steps over the field at *P as protobuf-c reads it, stricter where
 * unsure: a key of at most 5 bytes and a field number not 0, a varint of
 * at most 10 bytes, a length prefix of at most 5 (protobuf-c refuses a
 * longer one, which step_field would read). */
static bool sure_step(const uint8_t **p, const uint8_t *end, uint32_t *number, int *wire,
                      const uint8_t **payload, size_t *plen) {
  const uint8_t *q = *p;
  uint64_t tag;
  if (step_field(p, end, &tag, payload, plen) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
    return false;
  *number = (uint32_t)(tag >> 3);
  *wire = (int)(tag & 7);
  if (*wire == 2) {
    while (*q++ & 0x80) /* the key: terminated, as step_field saw */
      ;
    if (*payload - q > 5)
      return false;
  }
  return true;
}

/* Is the packed payload [P, P + N) of a field of scalar TYPE one that
 * protobuf-c reads: whole fixed-size elements, terminated varints of at
 * most 10 bytes, booleans 0 or 1? */
static bool packed_sure(ProtobufCType type, const uint8_t *p, size_t n) {
  switch (type) {
  case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_FIXED32:
  case PROTOBUF_C_TYPE_FLOAT:
    return n % 4 == 0;
  case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_FIXED64:
  case PROTOBUF_C_TYPE_DOUBLE:
    return n % 8 == 0;
  case PROTOBUF_C_TYPE_BOOL:
    for (size_t i = 0; i < n; i++)
      if (p[i] > 1)
        return false;
    return true;
  case PROTOBUF_C_TYPE_STRING:
  case PROTOBUF_C_TYPE_BYTES:
  case PROTOBUF_C_TYPE_MESSAGE:
    return false;
  default: /* varints */
    for (size_t i = 0, run = 0; i < n; i++) {
      run = p[i] & 0x80 ? run + 1 : 0;
      if (run >= 10)
        return false;
    }
    return n == 0 || !(p[n - 1] & 0x80);
  }
}

/* The wire type protobuf-c reads a single value of TYPE in. */
static int wire_of(ProtobufCType type) {
  switch (type) {
  case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_FIXED32:
  case PROTOBUF_C_TYPE_FLOAT:
    return 5;
  case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_FIXED64:
  case PROTOBUF_C_TYPE_DOUBLE:
    return 1;
  case PROTOBUF_C_TYPE_STRING:
  case PROTOBUF_C_TYPE_BYTES:
  case PROTOBUF_C_TYPE_MESSAGE:
    return 2;
  default:
    return 0;
  }
}

static bool unpacks_surely(const ProtobufCMessageDescriptor *d, const uint8_t *p,
                           const uint8_t *end, int depth) {
  while (p < end) {
    uint32_t number;
    int wire;
    const uint8_t *pl = NULL;
    size_t n = 0;
    if (!sure_step(&p, end, &number, &wire, &pl, &n))
      return false;
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, number);
    if (!f) /* kept as an unknown field, as an Opaque's are */
      continue;
    if (f->label == PROTOBUF_C_LABEL_REQUIRED)
      return false;
    if (wire == wire_of(f->type)) {
      if (f->type == PROTOBUF_C_TYPE_MESSAGE &&
          (depth >= 100 || !unpacks_surely(f->descriptor, pl, pl + n, depth + 1)))
        return false;
      continue;
    }
    if (wire != 2 || f->label != PROTOBUF_C_LABEL_REPEATED || !packed_sure(f->type, pl, n))
      return false;
  }
  return true;
}

bool wp_pb_unpacks_surely(const ProtobufCMessageDescriptor *desc, const void *data, size_t len) {
  if (len >= (size_t)1 << 26) /* protobuf-c refuses some 2^26 fields and more */
    return false;
  return unpacks_surely(desc, data, (const uint8_t *)data + len, 0);
}

/* Puts field F's name before PATH (and a dot, when PATH goes on), with its
 * index when F is repeated: how many fields numbered alike come before
 * FIELD in its message, which starts at START. */
static void prepend(char *path, size_t cap, const ProtobufCFieldDescriptor *f,
                    const uint8_t *start, const uint8_t *field) {
  char seg[160];
  int n;
  if (f->label == PROTOBUF_C_LABEL_REPEATED) {
    size_t k = 0;
    for (const uint8_t *p = start; p < field;) {
      uint64_t tag;
      const uint8_t *pl;
      size_t len;
      if (step_field(&p, field, &tag, &pl, &len))
        break;
      k += (tag >> 3) == f->id;
    }
    n = snprintf(seg, sizeof seg, "%s[%zu]%s", f->name, k, path[0] ? "." : "");
  } else {
    n = snprintf(seg, sizeof seg, "%s%s", f->name, path[0] ? "." : "");
  }
  size_t add = n < 0 ? 0 : (size_t)n < sizeof seg ? (size_t)n : sizeof seg - 1;
  size_t have = strlen(path);
  if (add >= cap)
    add = cap - 1;
  if (have > cap - 1 - add) /* too long: the end goes */
    have = cap - 1 - add;
  memmove(path + add, path, have);
  memcpy(path, seg, add);
  path[add + have] = 0;
}

static const char *bad_string(const ProtobufCMessageDescriptor *d, const uint8_t *start,
                              const uint8_t *end, wp_pb_utf8_rule utf8, char *path, size_t cap,
                              int depth) {
  for (const uint8_t *p = start; p < end;) {
    const uint8_t *field = p, *pl;
    uint64_t tag;
    size_t n;
    if (step_field(&p, end, &tag, &pl, &n))
      return NULL; /* unpacking has judged these bytes */
    const ProtobufCFieldDescriptor *f =
        pl ? protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3)) : NULL;
    const char *why = NULL;
    if (!f)
      continue;
    if (f->type == PROTOBUF_C_TYPE_STRING) {
      if (memchr(pl, 0, n))
        why = "holds a NUL byte";
      else if (utf8 && utf8(d, f) && !wp_utf8_valid((const char *)pl, n))
        why = "not UTF-8";
    } else if (f->type == PROTOBUF_C_TYPE_MESSAGE && depth < 128) {
      why = bad_string(f->descriptor, pl, pl + n, utf8, path, cap, depth + 1);
    }
    if (why) {
      prepend(path, cap, f, start, field);
      return why;
    }
  }
  return NULL;
}

const char *wp_pb_bad_string(const ProtobufCMessageDescriptor *desc, const void *data, size_t len,
                             wp_pb_utf8_rule utf8, char *path, size_t cap) {
  char none[1];
  if (!cap)
    path = none, cap = 1;
  path[0] = 0;
  return bad_string(desc, data, (const uint8_t *)data + len, utf8, path, cap, 0);
}

void *wp_pb_new(wp_arena *arena, const ProtobufCMessageDescriptor *desc) {
  ProtobufCMessage *m = wp_arena_alloc(arena, desc->sizeof_message);
  desc->message_init(m);
  return m;
}
