/* HLO text in and out of the hlo dialect: through the protobuf importer
 * and exporter, so text and proto inputs take one path from there on. */
#include "wp_hlo_text.h"

#include "wp_diag.h"
#include "wp_hlo.h"
#include "wp_hlo_verify.h"
#include "wp_mlir_util.h"
#include "wp_pb.h"

#include <ctype.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The first byte past blanks and `//` comment lines. */
static size_t skip_comments(const char *s, size_t len) {
  size_t i = 0;
  for (;;) {
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      i++;
    if (len - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
      while (i < len && s[i] != '\n')
        i++;
      continue;
    }
    return i;
  }
}

static bool word_at(const char *s, size_t len, size_t i, const char *w) {
  size_t n = strlen(w);
  return len - i >= n && !memcmp(s + i, w, n) &&
         (len - i == n || !(isalnum((unsigned char)s[i + n]) || s[i + n] == '_'));
}

/* MLIR's first words (as opt's own sniffing knows them). */
static bool mlir_start(const char *s, size_t len, size_t i) {
  static const char *const starts[] = {"module", "func.func", "#", "!", "\"builtin.module\"",
                                       "builtin.module", "{-#"};
  for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
    if (len - i >= strlen(starts[k]) && !memcmp(s + i, starts[k], strlen(starts[k])))
      return true;
  return false;
}

/* HloModule, ENTRY, or a computation: [%]name then '(' or '{'. */
static bool hlo_start(const char *s, size_t len, size_t i) {
  if (word_at(s, len, i, "HloModule") || word_at(s, len, i, "ENTRY"))
    return true;
  if (mlir_start(s, len, i))
    return false;
  bool percent = i < len && s[i] == '%';
  size_t k = i + percent;
  if (k >= len ||
      !(isalpha((unsigned char)s[k]) || s[k] == '_' || (percent && isdigit((unsigned char)s[k]))))
    return false;
  while (k < len && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '.' || s[k] == '-'))
    k++;
  while (k < len && (s[k] == ' ' || s[k] == '\t'))
    k++;
  return k < len && (s[k] == '{' || s[k] == '(');
}

/* Text has no control characters; a protobuf soon does (its first bytes
 * may still spell a word: a name's length, then the name). */
static bool binary(const char *s, size_t len, size_t i) {
  for (size_t k = i; k < len && k < i + 256; k++) {
    unsigned char c = (unsigned char)s[k];
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f)
      return true;
  }
  return false;
}

bool wp_hlo_text_sniff(const char *path, const void *data, size_t len) {
  const char *s = data;
  if (path && ends_with(path, ".mlir"))
    return false;
  size_t i = skip_comments(s, len);
  /* a .hlo file is text, unless it is a proto named so: then its bytes
   * say what it is */
  if (path && ends_with(path, ".hlo") && !binary(s, len, 0))
    return true;
  if (i >= len || binary(s, len, i))
    return false;
  if (path && ends_with(path, ".txt"))
    return !mlir_start(s, len, i);
  return hlo_start(s, len, i);
}

static void warn_mlir(void *user, const char *msg) {
  MlirContext *ctx = user;
  wp_emit_warning(mlirLocationUnknownGet(*ctx), "%s", msg);
}

int wp_hlo_text_import(MlirContext ctx, const void *text, size_t len, const char *filename,
                       MlirModule *out, wp_error *err) {
  wp_arena *arena = wp_arena_create();
  Xla__HloModuleProto *mod;
  Xla__HloModuleConfigView *config;
  wp_hlo_locs locs;
  int rc = wp_hlo_text_parse_config(arena, text, len, filename, warn_mlir, &ctx, &mod, &config,
                                    &locs, err);
  if (rc == 0) /* XLA's shape checks, at the instruction's line and column */
    rc = wp_hlo_verify_located(mod, &locs, filename, err);
  if (rc == 0) {
    size_t size = protobuf_c_message_get_packed_size(&mod->base);
    if (size >= (size_t)INT32_MAX) {
      rc = wp_error_set(err, "%s: the module is %zu bytes as an HloModuleProto, past "
                        "protobuf's 2 GiB", filename, size);
    } else {
      /* settings go along as XLA writes a module with its config */
      ProtobufCBinaryData b = wp_pb_pack(arena, &mod->base);
      if (config) {
        ProtobufCBinaryData c = wp_pb_pack(arena, &config->base);
        b = wp_hlo_wrap_config(arena, b.data, b.len, c.data, c.len);
      }
      rc = wp_hlo_import_located(ctx, b.data, b.len, filename, &locs, out, err);
      if (rc)
        wp_error_prefix(err, "%s", filename);
    }
  }
  wp_arena_destroy(arena);
  return rc;
}

/* The printer's warnings have no place in the IR: they name the field. */
static void warn_module(void *user, const char *msg) {
  MlirContext *ctx = user;
  wp_emit_warning(mlirLocationUnknownGet(*ctx), "--emit=hlo-text: %s", msg);
}

/* The module as wp_hlo_text_emit_to prints it, with its settings (NULL
 * when it has none); *WHERE the module's op after a success, for a
 * failure in printing. */
static int export_for_text(MlirModule module, wp_arena *arena, Xla__HloModuleProto **mod,
                           Xla__HloModuleConfigView **config, MlirLocation *where,
                           wp_error *err) {
  /* no pack and unpack: the weights' bytes stay where the IR holds them */
  if (wp_hlo_export_proto(module, arena, true, mod, where, err))
    return -1;
  *config = NULL;
  const void *bytes;
  size_t n;
  if (wp_hlo_module_config(module, &bytes, &n) &&
      !(*config = wp_pb_unpack(arena, &xla__hlo_module_config_view__descriptor, bytes, n)))
    return wp_error_set(err, "module: hlo.config does not read as an HloModuleConfigProto");
  if (where)
    *where = mlirOperationGetLocation(mlirModuleGetOperation(module));
  return 0;
}

int wp_hlo_text_emit_to(MlirModule module, wp_arena *arena, wp_hlo_text_sink_fn sink,
                        void *sink_user, MlirLocation *where, wp_error *err) {
  Xla__HloModuleProto *mod;
  Xla__HloModuleConfigView *config;
  if (export_for_text(module, arena, &mod, &config, where, err))
    return -1;
  MlirContext ctx = mlirModuleGetContext(module);
  return wp_hlo_text_print_config_to(arena, mod, config, warn_module, &ctx, sink, sink_user,
                                     err);
}

int wp_hlo_text_emit(MlirModule module, wp_arena *arena, char **text, size_t *len,
                     MlirLocation *where, wp_error *err) {
  Xla__HloModuleProto *mod;
  Xla__HloModuleConfigView *config;
  if (export_for_text(module, arena, &mod, &config, where, err))
    return -1;
  MlirContext ctx = mlirModuleGetContext(module);
  return wp_hlo_text_print_config(arena, mod, config, warn_module, &ctx, text, len, err);
}
