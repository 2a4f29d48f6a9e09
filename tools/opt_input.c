#include "opt_input.h"

#include "wp_bir.h"
#include "wp_hlo.h"
#include "wp_hlo_text.h"
#include "wp_text_depth.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper MLIR text would overflow the stack in MLIR's recursive parser
 * (5,000 nested modules did); what weightpack writes nests about ten deep,
 * a dense literal one more per dimension. */
#define MAX_MLIR_DEPTH 1000

/* MLIR bytecode (its magic "ML\xefR") is no text: brackets counted in its
 * bytes mean nothing, and its reader does not recurse on them. */
static bool is_mlir_bytecode(const unsigned char *data, size_t size) {
  return size >= 4 && memcmp(data, "ML\xefR", 4) == 0;
}

/* The offset of DATA's first byte that is not blank. */
static size_t skip_blanks(const unsigned char *data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r'))
    i++;
  return i;
}

static int looks_like_mlir(const char *path, const unsigned char *data, size_t size) {
  size_t n = strlen(path);
  if ((n >= 5 && strcmp(path + n - 5, ".mlir") == 0) || is_mlir_bytecode(data, size))
    return 1;
  size_t i = skip_blanks(data, size);
  /* A binary HloModuleProto starts with "\n" and its name's length, so a
   * name of 35 or 33 characters begins "\n#" or "\n!": text has no control
   * characters (MLIR escapes them in strings), a protobuf soon does. */
  for (size_t k = i; k < size && k < i + 256; k++) {
    unsigned char c = data[k];
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f)
      return 0;
  }
  /* "!" and "#" open type and attribute aliases, which MLIR prints first. */
  static const char *const starts[] = {"module", "//", "func.func", "#", "!",
                                       "\"builtin.module\"", "builtin.module", "{-#"};
  for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
    if (size - i >= strlen(starts[k]) && memcmp(data + i, starts[k], strlen(starts[k])) == 0)
      return 1;
  return 0;
}

static int looks_like_json(const unsigned char *data, size_t size) {
  size_t i = skip_blanks(data, size);
  return i < size && data[i] == '{';
}

static int load_bir_json(MlirContext ctx, const char *path, const unsigned char *data,
                         size_t size, MlirModule *out) {
  json_error_t jerr;
  json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) {
    fprintf(stderr, "error: %s:%d:%d: malformed JSON: %s\n", path, jerr.line, jerr.column,
            jerr.text);
    return -1;
  }
  wp_arena *arena = wp_arena_create();
  Wp__Bir__Module *msg;
  wp_error err;
  int rc = wp_bir_from_json(arena, root, &msg, &err);
  if (rc == 0)
    rc = wp_bir_from_proto(ctx, msg, path, out, &err);
  if (rc)
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
  json_decref(root);
  wp_arena_destroy(arena);
  return rc;
}

int opt_read_input(const char *path, wp_mapped_file *f, wp_error *err) {
  if (!strcmp(path, "-"))
    return wp_file_read_stream(STDIN_FILENO, "<stdin>", f, err);
  struct stat st;
  if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return wp_error_errno(err, errno, "%s", path);
    if (S_ISCHR(st.st_mode) && !isatty(fd)) { /* /dev/zero would be read until memory ends */
      close(fd);
      return wp_error_set(err, "%s: a device, not a file, pipe or terminal", path);
    }
    int rc = wp_file_read_stream(fd, path, f, err);
    close(fd);
    return rc;
  }
  return wp_file_map(path, f, err);
}

opt_input_kind opt_input_kind_of(const char *path, const unsigned char *data, size_t size) {
  /* XLA's HLO text first: it may start with `//` comments, as MLIR may */
  if (size && wp_hlo_text_sniff(path, data, size))
    return OPT_IN_HLO_TEXT;
  if (size && looks_like_mlir(path, data, size) && !is_mlir_bytecode(data, size))
    return OPT_IN_MLIR_TEXT;
  return OPT_IN_OTHER;
}

/* MLIR text, or bytecode (BYTECODE: no brackets to count). */
static int parse_mlir(MlirContext ctx, const char *path, const unsigned char *data, size_t size,
                      bool bytecode, diag_state *ds, MlirModule *out) {
  size_t depth_line = 0;
  if (!bytecode && wp_text_depth((const char *)data, size, MAX_MLIR_DEPTH, &depth_line) > MAX_MLIR_DEPTH) {
    fprintf(stderr, "error: %s:%zu: brackets nest more than %d deep; weightpack does not read "
                    "MLIR nested that deep\n", path, depth_line, MAX_MLIR_DEPTH);
    return -1;
  }
  /* MLIR's lexer wants a NUL after the text. */
  char *text = malloc(size + 1);
  if (!text) {
    fprintf(stderr, "error: %s: out of memory\n", path);
    return -1;
  }
  memcpy(text, data, size);
  text[size] = 0;
  long errors_before = ds->errors;
  *out = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  free(text);
  if (mlirModuleIsNull(*out)) {
    if (ds->errors == errors_before) /* else the parser's error said why */
      fprintf(stderr, "error: %s: could not parse MLIR\n", path);
    return -1;
  }
  if (wp_hlo_module_is_hlo(*out))
    wp_hlo_fill_ids(*out);
  return 0;
}

int opt_parse_input(MlirContext ctx, const char *path, const unsigned char *data, size_t size,
                    opt_input_kind kind, diag_state *ds, MlirModule *out) {
  wp_error err;
  if (kind == OPT_IN_SNIFF) {
    if (size == 0) {
      fprintf(stderr, "error: %s: empty file\n", path);
      return -1;
    }
    kind = opt_input_kind_of(path, data, size);
  }
  if (kind == OPT_IN_HLO_TEXT || kind == OPT_IN_MLIR_TEXT)
    /* kept for the whole run: the parsed ops carry that name (or none, for
     * MLIR parsed from memory) in the locations that passes report */
    ds->parse_file = path;
  if (kind == OPT_IN_HLO_TEXT) {
    ds->hlo_text = true;
    if (wp_hlo_text_import(ctx, data, size, path, out, &err)) {
      opt_diag_error(ctx, err.msg); /* "FILE:LINE:COL: ..." is placed there */
      return -1;
    }
    return 0;
  }
  if (kind == OPT_IN_MLIR_TEXT)
    return parse_mlir(ctx, path, data, size, false, ds, out);
  if (is_mlir_bytecode(data, size)) {
    ds->parse_file = path;
    return parse_mlir(ctx, path, data, size, true, ds, out);
  }
  if (wp_bir_sniff(data, size)) {
    if (wp_bir_import(ctx, data, size, path, out, &err)) {
      fprintf(stderr, "error: %s: %s\n", path, err.msg);
      return -1;
    }
    return 0;
  }
  if (looks_like_json(data, size))
    return load_bir_json(ctx, path, data, size, out);
  if (wp_hlo_sniff(data, size) != WP_HLO_NOT_HLO) {
    if (wp_hlo_import(ctx, data, size, path, out, &err)) {
      fprintf(stderr, "error: %s: %s\n", path, err.msg);
      return -1;
    }
    return 0;
  }
  fprintf(stderr, "error: %s: not an HloModuleProto, HloProto, HLO text, BIR module or MLIR file\n",
          path);
  return -1;
}
