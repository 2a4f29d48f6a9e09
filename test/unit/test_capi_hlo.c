/* The public C API as a compiler driver uses it (in the style of MLIR's
 * test/CAPI): load dialects, import a real module, export it, create passes. */
#include "weightpack/weightpack.h"
#include "wp_file.h"
#include "wp_test.h"

#include <stdlib.h>

static void test_real_module_round_trip(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/test/data/hlo-real/%s", WP_SOURCE_DIR, name);
  wp_mapped_file f;
  wp_error err;
  CHECK(wp_file_map(path, &f, &err) == 0);
  MlirContext ctx = mlirContextCreate();
  CHECK(wpLoadDialects(ctx, &err) == 0);
  CHECK(wpLoadDialects(ctx, &err) == 0); /* loading twice is harmless */
  MlirModule m;
  CHECK(wpImportHloProto(ctx, f.data, f.size, name, &m, &err) == 0);
  void *out = NULL;
  size_t len = 0;
  CHECK(wpExportHloProto(m, &out, &len, &err) == 0);
  CHECK(len == f.size && memcmp(out, f.data, len) == 0);
  free(out);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  wp_file_unmap(&f);
}

/* A real module as HLO text and back through the C API: the text it
 * prints reads back to the same text; errors name FILE:LINE:COL. */
static void test_text_round_trip(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/test/data/hlo-real/test_tuple_hlo.pb", WP_SOURCE_DIR);
  wp_mapped_file f;
  wp_error err;
  CHECK(wp_file_map(path, &f, &err) == 0);
  MlirContext ctx = mlirContextCreate();
  CHECK(wpLoadDialects(ctx, &err) == 0);
  MlirModule m, again;
  char *text = NULL, *text2 = NULL;
  size_t len = 0, len2 = 0;
  CHECK(wpImportHloProto(ctx, f.data, f.size, "tuple", &m, &err) == 0);
  CHECK(wpExportHloText(m, &text, &len, &err) == 0);
  /* a name XLA's lexer cannot read is quoted */
  CHECK_CONTAINS(text, "ENTRY %\"x*x, sqrt(x).5\" (x.1: f32[]) -> (f32[], f32[]) {");
  CHECK(wpImportHloText(ctx, text, len, "tuple.hlo", &again, &err) == 0);
  CHECK(wpExportHloText(again, &text2, &len2, &err) == 0);
  CHECK(len == len2 && text2 && !strcmp(text, text2));
  free(text);
  free(text2);
  mlirModuleDestroy(again);
  mlirModuleDestroy(m);
  static const char bad[] = "ENTRY e {\n  ROOT p = f32[] paramter(0)\n}\n";
  CHECK(wpImportHloText(ctx, bad, sizeof bad - 1, "bad.hlo", &m, &err) == -1);
  CHECK_STR(err.msg, "bad.hlo:2:18: unknown opcode 'paramter'");
  CHECK(mlirModuleIsNull(m));
  CHECK(wpImportHloText(ctx, NULL, 3, "x", &m, &err) == -1);
  CHECK(wpExportHloText((MlirModule){NULL}, &text, &len, &err) == -1 && text == NULL);
  mlirContextDestroy(ctx);
  wp_file_unmap(&f);
}

/* A context without weightpack's dialects: an error, not a crash. */
static void test_without_dialects(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/test/data/hlo-real/test_hlo.pb", WP_SOURCE_DIR);
  wp_mapped_file f;
  wp_error err;
  CHECK(wp_file_map(path, &f, &err) == 0);
  MlirContext ctx = mlirContextCreate();
  MlirModule m;
  int rc = wpImportHloProto(ctx, f.data, f.size, "bare", &m, &err);
  CHECK(rc == -1 && mlirModuleIsNull(m));
  CHECK_CONTAINS(err.msg, "wpLoadDialects");
  mlirContextDestroy(ctx);
  wp_file_unmap(&f);
}

static void test_bad_bytes(void) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  MlirModule m;
  static const unsigned char junk[] = {0x0a, 0x7f, 0x01};
  CHECK(wpImportHloProto(ctx, junk, sizeof junk, "junk", &m, &err) == -1);
  CHECK(!strncmp(err.msg, "junk: ", 6)); /* the label names the input */
  CHECK(mlirModuleIsNull(m));
  /* null arguments are errors, not crashes */
  CHECK(wpImportHloProto(ctx, junk, sizeof junk, NULL, &m, &err) == -1);
  CHECK(!strncmp(err.msg, "<memory>: ", 10));
  CHECK(wpImportHloProto(ctx, NULL, 5, "x", &m, &err) == -1);
  CHECK(wpImportHloProto(ctx, junk, sizeof junk, "x", NULL, &err) == -1);
  CHECK(wpImportHloProto((MlirContext){NULL}, junk, sizeof junk, "x", &m, &err) == -1);
  void *data = NULL;
  size_t len = 0;
  CHECK(wpExportHloProto((MlirModule){NULL}, &data, &len, &err) == -1 && data == NULL);
  CHECK_CONTAINS(err.msg, "null module");
  CHECK(wpLoadDialects((MlirContext){NULL}, &err) == -1);
  CHECK(wpCreatePass(NULL, "", &err).ptr == NULL);
  CHECK(wpDialectIRDL(NULL) == NULL);
  mlirContextDestroy(ctx);
}

static void test_pass_creation(void) {
  wp_error err;
  MlirPass p = wpCreatePass("no-such-pass", "", &err);
  CHECK(p.ptr == NULL);
  CHECK_CONTAINS(err.msg, "unknown pass 'no-such-pass'");
  p = wpCreatePass("bir-lower", "alignment=64 alignment=128", &err);
  CHECK(p.ptr == NULL);
  CHECK_CONTAINS(err.msg, "option 'alignment' is given twice");
  for (size_t i = 0; i < wpPassCount(); i++) {
    CHECK(wpPassName(i) != NULL && wpPassDescription(i) != NULL);
    MlirPass q = wpCreatePass(wpPassName(i), "", &err);
    CHECK(q.ptr != NULL);
    /* An unowned pass is destroyed through a pass manager. */
    MlirContext ctx = mlirContextCreate();
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    mlirPassManagerAddOwnedPass(pm, q);
    mlirPassManagerDestroy(pm);
    mlirContextDestroy(ctx);
  }
  CHECK(wpDialectIRDL("nope") == NULL);
  CHECK(wpDialectIRDL("hlo") != NULL);
}

int main(void) {
  const char *files[] = {"test_hlo.pb", "test_tuple_hlo.pb", "test_xp1_hlo.pb",
                         "test_x2p1_hlo.pb", "test_jax_hlo.pb"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    test_real_module_round_trip(files[i]);
  test_text_round_trip();
  test_bad_bytes();
  test_without_dialects();
  test_pass_creation();
  return wp_test_result("test_capi_hlo");
}
