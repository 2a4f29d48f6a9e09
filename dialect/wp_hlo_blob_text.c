#include "wp_hlo_blob_text.h"

#include "wp_hex.h"
#include "wp_mlir_util.h"

#include <mlir-c/Support.h>
#include <stdbool.h>

/* Where the printed text is. MLIR prints a top-level operation, then its
 * file metadata: {-# dialect_resources: { builtin: { KEY: "0x<hex>" } } #-}.
 * The blob's hex is 8 digits of alignment, then the bytes. */
enum scan_state {
  IN_OP,         /* the operation itself (its strings may hold anything) */
  IN_METADATA,   /* after {-# */
  IN_KEY_STRING, /* a quoted resource key */
  IN_VALUE_0,    /* the value string: expecting '0' */
  IN_VALUE_X,    /* expecting 'x' */
  IN_ALIGNMENT,  /* 8 hex digits */
  IN_BYTES,      /* hex pairs up to the closing quote */
  IN_OTHER,      /* a value that is not hex (elided): skipped */
  DONE,
};

typedef struct blob_scan {
  enum scan_state state;
  bool in_string, escaped;
  char last, before_last; /* the op's last two characters outside strings */
  char significant;       /* metadata's last non-blank character */
  int digits;             /* alignment digits seen */
  int high;               /* pending high nibble, or -1 */
  unsigned char *out;
  uint64_t expect, got;
  bool hex, bad;
} blob_scan;

/* MLIR escapes '"' and '\' inside strings (as \22 and \\), so a string ends
 * at the first '"' that does not follow a lone backslash. */
static bool string_ends(blob_scan *s, char c) {
  if (s->escaped) {
    s->escaped = false;
    return false;
  }
  if (c == '\\') {
    s->escaped = true;
    return false;
  }
  return c == '"';
}

static void scan_char(blob_scan *s, char c) {
  switch (s->state) {
  case IN_OP:
    if (s->in_string) {
      s->in_string = !string_ends(s, c);
      return;
    }
    if (c == '"') {
      s->in_string = true;
      return;
    }
    if (s->before_last == '{' && s->last == '-' && c == '#') {
      s->state = IN_METADATA;
      s->significant = '#';
    }
    s->before_last = s->last;
    s->last = c;
    return;
  case IN_METADATA:
    if (c == '"') {
      s->state = s->significant == ':' ? IN_VALUE_0 : IN_KEY_STRING;
      return;
    }
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
      s->significant = c;
    return;
  case IN_KEY_STRING:
    if (string_ends(s, c)) {
      s->state = IN_METADATA;
      s->significant = '"';
    }
    return;
  case IN_VALUE_0:
    s->state = c == '0' ? IN_VALUE_X : c == '"' ? DONE : IN_OTHER;
    return;
  case IN_VALUE_X:
    s->state = c == 'x' ? IN_ALIGNMENT : c == '"' ? DONE : IN_OTHER;
    return;
  case IN_ALIGNMENT:
    if (wp_hex_digit(c) < 0) {
      s->bad = true;
      s->state = DONE;
    } else if (++s->digits == 8) {
      s->hex = true;
      s->state = IN_BYTES;
    }
    return;
  case IN_BYTES: {
    if (c == '"') {
      s->bad = s->high >= 0;
      s->state = DONE;
      return;
    }
    int v = wp_hex_digit(c);
    if (v < 0) {
      s->bad = true;
      s->state = DONE;
    } else if (s->high < 0) {
      s->high = v;
    } else {
      if (s->got < s->expect)
        s->out[s->got] = (unsigned char)(s->high << 4 | v);
      s->got++;
      s->high = -1;
    }
    return;
  }
  case IN_OTHER:
    if (string_ends(s, c))
      s->state = DONE;
    return;
  case DONE:
    return;
  }
}

static void scan_chunk(MlirStringRef text, void *user) {
  blob_scan *s = user;
  for (size_t i = 0; i < text.length && s->state != DONE; i++)
    scan_char(s, text.data[i]);
}

int wp_hlo_blob_from_print(MlirOperation op, uint64_t expect, wp_arena *arena,
                           const void **bytes, wp_error *err) {
  if (expect > SIZE_MAX / 2)
    return wp_error_set(err, "a blob of %llu bytes is too large to hold in memory",
                        (unsigned long long)expect);
  blob_scan s = {.state = IN_OP, .high = -1, .expect = expect};
  s.out = wp_arena_alloc_big(arena, (size_t)expect);
  if (!s.out)
    return wp_error_set(err, "out of memory reading a blob of %llu bytes",
                        (unsigned long long)expect);
  /* A detached clone is a top-level operation: MLIR prints the resources it
   * uses after it. */
  MlirOperation clone = mlirOperationClone(op);
  /* Only the value may name a resource: another attribute's would print
   * in the same section. */
  for (intptr_t i = mlirOperationGetNumAttributes(clone) - 1; i >= 0; i--) {
    MlirNamedAttribute a = mlirOperationGetAttribute(clone, i);
    MlirStringRef name = wp_ident_str(a.name);
    if (!mlirStringRefEqual(name, wp_sref("value")))
      mlirOperationRemoveAttributeByName(clone, name);
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOperationPrintWithFlags(clone, flags, scan_chunk, &s);
  mlirOpPrintingFlagsDestroy(flags);
  mlirOperationDestroy(clone);
  if (s.bad)
    return wp_error_set(err, "the printed blob of its dense_resource is not hex");
  if (!s.hex)
    return 1;
  if (s.got != expect)
    return wp_error_set(err, "its dense_resource blob holds %llu bytes but its type needs %llu",
                        (unsigned long long)s.got, (unsigned long long)expect);
  *bytes = s.out;
  return 0;
}
