/* libFuzzer harness: the whole pipeline a compiler driver runs through the
 * public C API (weightpack.h), on fuzzed HloModuleProto / HloProto bytes:
 *   wpImportHloProto
 *   inline-weights (model-dir=examples/mlp, on a copy of the module, kept
 *                   when it succeeds: a mutated MLP still has its weights)
 *   bir-lower
 *   the BIR exporters: bir-proto bytes and bir-json, each read back
 *   copy-const-artifacts, dedup-consts, neff-pack (into a scratch dir)
 *   neff info, ls, verify and unpack on the NEFF it wrote.
 * Bad input may stop any step with a message; what would be a bug aborts:
 *   - IR that does not verify after the import or after a pass that
 *     succeeded (the pass manager's own verifier is off, as in opt, so a
 *     pass cannot hide it behind a failure);
 *   - a pass that fails without an error diagnostic, or an import or
 *     export that fails without a message;
 *   - bytes or JSON an exporter wrote that its importer refuses;
 *   - a NEFF neff-pack wrote that neff verify refuses (or any check of
 *     fuzz_neff_check: unpack against bom.json, ...).
 * Pass options (BIR tables, thresholds, memory type, weight format,
 * compressor) are picked from a hash of the input, so one input always
 * takes the same path. The artifact directory and the NEFF are in the
 * process's scratch directory ($TMPDIR/wp-fuzz/neff/run-PID), emptied
 * before each input; examples/mlp is only read. */
#include "fuzz_common.h"
#include "fuzz_neff_common.h"
#include "wp_arena.h"
#include "wp_bir.h"
#include "wp_pass.h"

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <mlir-c/Pass.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char g_art[PATH_MAX / 2], g_neff[PATH_MAX / 2];
static unsigned g_errors; /* error diagnostics seen in this input */

static MlirLogicalResult count_diag(MlirDiagnostic d, void *user) {
  (void)user;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError)
    g_errors++;
  return mlirLogicalResultSuccess();
}

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_pipeline: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

static void must_verify(MlirOperation module, const char *after) {
  if (!mlirOperationVerify(module))
    fail("the IR does not verify after", after);
}

/* The input's run object: its passes share what the run placed and
 * hashed, as one pipeline's do. */
static wp_run *g_run;

/* Runs pass NAME with OPTIONS on MODULE in a pass manager of its own, in
 * the input's run; true when it succeeded (the IR then verifies). */
static bool run_pass(MlirContext ctx, MlirOperation module, const char *name,
                     const char *options) {
  wp_error err;
  MlirPass p = wpRunCreatePass(g_run, name, options, &err);
  if (!p.ptr) /* the options are this file's: never the input's fault */
    fail("wpCreatePass", err.msg);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerEnableVerifier(pm, false);
  mlirPassManagerAddOwnedPass(pm, p);
  unsigned before = g_errors;
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
  if (!ok && g_errors == before)
    fail("a pass failed without an error diagnostic", name);
  if (ok)
    must_verify(module, name);
  return ok;
}

/* inline-weights on a copy: kept when it succeeded, else the module as
 * imported goes on (its parameters stay inputs). */
static MlirModule try_inline_weights(MlirContext ctx, MlirModule m) {
  MlirOperation copy = mlirOperationClone(mlirModuleGetOperation(m));
  if (!run_pass(ctx, copy, "inline-weights", "model-dir=" WP_SOURCE_DIR "/examples/mlp")) {
    mlirOperationDestroy(copy);
    return m;
  }
  mlirModuleDestroy(m);
  return mlirModuleFromOperation(copy);
}

/* --emit=bir-proto and --emit=bir-json, each read back as opt reads its
 * input. The exporters may refuse IR their form cannot hold, with a
 * message; what they write must import. */
static void check_exporters(MlirContext ctx, MlirModule m) {
  wp_arena *arena = wp_arena_create();
  const void *bytes;
  size_t len;
  MlirLocation where;
  MlirModule back;
  wp_error err;
  err.msg[0] = 0;
  if (wp_bir_export(m, arena, &bytes, &len, &where, &err) == 0) {
    if (wp_bir_import(ctx, bytes, len, "fuzz.bir", &back, &err))
      fail("bir-proto written, yet not read back", err.msg);
    mlirModuleDestroy(back);
  } else if (!err.msg[0]) {
    fail("bir-proto export failed without a message", NULL);
  }
  err.msg[0] = 0;
  Wp__Bir__Module *msg = wp_bir_to_proto(m, arena, false, &where, &err);
  if (!msg) {
    if (!err.msg[0])
      fail("bir-json export failed without a message", NULL);
    wp_arena_destroy(arena);
    return;
  }
  json_t *j = wp_bir_to_json(msg);
  char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
  json_decref(j);
  if (!text)
    fail("bir-json: out of memory", NULL);
  json_error_t jerr;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
  if (!root)
    fail("bir-json written is not JSON", jerr.text);
  Wp__Bir__Module *again;
  if (wp_bir_from_json(arena, root, &again, &err) ||
      wp_bir_from_proto(ctx, again, "fuzz.json", &back, &err))
    fail("bir-json written, yet not read back", err.msg);
  mlirModuleDestroy(back);
  json_decref(root);
  free(text);
  wp_arena_destroy(arena);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)type;
  if (ftw->level > 0 && remove(path) != 0)
    fail("cannot remove", path);
  return 0;
}

/* Each input starts as a run of its own, with an empty artifact
 * directory and no NEFF. */
static void fresh_run(void) {
  if (!g_art[0]) {
    const char *dir = fuzz_neff_dir();
    snprintf(g_art, sizeof g_art, "%s/art", dir);
    snprintf(g_neff, sizeof g_neff, "%s/out.neff", dir);
  }
  wpRunDestroy(g_run);
  g_run = wpRunCreate();
  if (access(g_art, F_OK) == 0 && nftw(g_art, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    fail("cannot clean", g_art);
  if (remove(g_neff) != 0 && errno != ENOENT)
    fail("cannot remove", g_neff);
}

static uint32_t fnv1a(const uint8_t *data, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; i++)
    h = (h ^ data[i]) * 16777619u;
  return h;
}

static void pipeline(MlirContext ctx, MlirModule m, uint32_t pick) {
  MlirOperation op = mlirModuleGetOperation(m);
  char opts[PATH_MAX];
  static const char *const lower[4] = {
      "", "const-tables=1 small-const-threshold=0", "const-tables=0 const-memory=DRAM",
      "small-weight-threshold=0 small-const-threshold=1 alignment=256"};
  if (!run_pass(ctx, op, "bir-lower", lower[pick % 4]))
    return;
  check_exporters(ctx, m);
  snprintf(opts, sizeof opts, "artifact-dir=%s threads=1", g_art);
  if (!run_pass(ctx, op, "copy-const-artifacts", opts) ||
      !run_pass(ctx, op, "dedup-consts", "threads=1"))
    return;
  snprintf(opts, sizeof opts, "output=%s threads=1 weights-format=%s compressor=%s", g_neff,
           (pick >> 2) % 2 ? "bin" : "npy", (pick >> 3) % 2 ? "zlib" : "isal");
  if (run_pass(ctx, op, "neff-pack", opts) && fuzz_neff_check(g_neff) != 0)
    fail("neff verify refuses the NEFF neff-pack wrote", g_neff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fresh_run();
  MlirContext ctx = fuzz_context();
  mlirContextAttachDiagnosticHandler(ctx, count_diag, NULL, NULL);
  g_errors = 0;
  MlirModule m;
  wp_error err;
  err.msg[0] = 0;
  if (wpImportHloProto(ctx, size ? (const void *)data : "", size, "fuzz.pb", &m, &err)) {
    if (!err.msg[0])
      fail("the import failed without a message", NULL);
    fuzz_check_backstop(&err);
  } else {
    must_verify(mlirModuleGetOperation(m), "the import");
    m = try_inline_weights(ctx, m);
    pipeline(ctx, m, fnv1a(data, size));
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return 0;
}
