/* A compiler driver's whole pipeline through the public C API, twice: once
 * from passes made with wpCreatePass, once from a textual pipeline parsed
 * by MLIR after wpRegisterPasses. Both must write the same NEFF. */
#include "weightpack/weightpack.h"
#include "wp_file.h"
#include "wp_test.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Dialect/IRDL.h>
#include <mlir-c/Pass.h>
#include <stdlib.h>
#include <unistd.h>

static char tmp[64];

static void append_cb(MlirStringRef s, void *user) {
  char *buf = user;
  size_t have = strlen(buf);
  size_t n = s.length < 1023 - have ? s.length : 1023 - have;
  memcpy(buf + have, s.data, n);
  buf[have + n] = 0;
}

static MlirModule import_mlp(MlirContext ctx) {
  char path[512];
  snprintf(path, sizeof path, "%s/examples/mlp/model.hlo.pb", WP_SOURCE_DIR);
  wp_mapped_file f;
  wp_error err;
  MlirModule m = {NULL};
  CHECK(wp_file_map(path, &f, &err) == 0);
  CHECK(wpImportHloProto(ctx, f.data, f.size, path, &m, &err) == 0);
  wp_file_unmap(&f);
  return m;
}

/* Runs the pipeline (TEXTUAL or not) writing TAG.neff; 0 when it ran. */
static int run_pipeline(bool textual, const char *tag, const char *align, char *msg) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  MlirModule m = import_mlp(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  char model[512], art[128], out[128], opts[5][600];
  snprintf(model, sizeof model, "%s/examples/mlp", WP_SOURCE_DIR);
  snprintf(art, sizeof art, "%s/%s-art", tmp, tag);
  snprintf(out, sizeof out, "%s/%s.neff", tmp, tag);
  snprintf(opts[0], sizeof opts[0], "model-dir=%s", model);
  snprintf(opts[1], sizeof opts[1], "alignment=%s", align);
  snprintf(opts[2], sizeof opts[2], "artifact-dir=%s", art);
  opts[3][0] = 0;
  snprintf(opts[4], sizeof opts[4], "output=%s", out);
  static const char *names[5] = {"inline-weights", "bir-lower", "copy-const-artifacts",
                                 "dedup-consts", "neff-pack"};
  int rc = 0;
  if (textual) {
    char pipeline[4096];
    int w = snprintf(pipeline, sizeof pipeline, "builtin.module(");
    for (int i = 0; i < 5; i++)
      w += snprintf(pipeline + w, sizeof pipeline - (size_t)w, "%s%s{%s}", i ? "," : "",
                    names[i], opts[i]);
    snprintf(pipeline + w, sizeof pipeline - (size_t)w, ")");
    msg[0] = 0;
    if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(pipeline),
            append_cb, msg)))
      rc = -1;
  } else {
    for (int i = 0; i < 5; i++) {
      MlirPass p = wpCreatePass(names[i], opts[i], &err);
      if (!p.ptr) {
        snprintf(msg, 1024, "%s", err.msg);
        rc = -1;
        break;
      }
      mlirPassManagerAddOwnedPass(pm, p);
    }
  }
  if (rc == 0 &&
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))))
    rc = -1;
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return rc;
}

/* TAG_A.neff and TAG_B.neff hold the same bytes. */
static void check_same_neffs(const char *tag_a, const char *tag_b) {
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/%s.neff", tmp, tag_a);
  snprintf(b, sizeof b, "%s/%s.neff", tmp, tag_b);
  wp_mapped_file fa, fb;
  wp_error err;
  CHECK(wp_file_map(a, &fa, &err) == 0);
  CHECK(wp_file_map(b, &fb, &err) == 0);
  CHECK(fa.size > 1024 && fa.size == fb.size && memcmp(fa.data, fb.data, fa.size) == 0);
  wp_file_unmap(&fa);
  wp_file_unmap(&fb);
}

/* Someone else's dialect named "hlo" in the context is refused up front. */
static void test_foreign_dialect(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextSetAllowUnregisteredDialects(ctx, false);
  MlirModule irdl = {NULL};
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx);
  irdl = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString("irdl.dialect @hlo { irdl.operation @other { } }"));
  CHECK(!mlirModuleIsNull(irdl));
  CHECK(mlirLogicalResultIsSuccess(mlirLoadIRDLDialects(irdl)));
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == -1);
  CHECK_CONTAINS(err.msg, "dialect named 'hlo' that is not weightpack's");
  mlirModuleDestroy(irdl);
  mlirContextDestroy(ctx);
}

static MlirLogicalResult collect_diag(MlirDiagnostic d, void *user) {
  mlirDiagnosticPrint(d, append_cb, user);
  return mlirLogicalResultSuccess();
}

static void file_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

/* Runs PIPELINE over M in a pass manager of its own; true when it passed.
 * Its diagnostics go to DIAG (1024 bytes). */
static bool run_on(MlirContext ctx, MlirModule m, const char *pipeline, char *diag) {
  diag[0] = 0;
  MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(ctx, collect_diag, diag, NULL);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  CHECK(mlirLogicalResultIsSuccess(mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(pipeline),
      append_cb, diag)));
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m)));
  mlirPassManagerDestroy(pm);
  mlirContextDetachDiagnosticHandler(ctx, h);
  return ok;
}

/* Runs PIPELINE over the example model (IR_PATH NULL) or the IR in
 * IR_PATH, in a fresh context; true when it passed, with its diagnostics
 * in DIAG (1024 bytes). With WRITE_IR, the IR after it goes there. */
static bool run_job(const char *ir_path, const char *pipeline, const char *write_ir, char *diag) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  MlirModule m = {NULL};
  if (ir_path) {
    wp_mapped_file f;
    CHECK(wp_file_map(ir_path, &f, &err) == 0);
    m = mlirModuleCreateParse(ctx, mlirStringRefCreate((const char *)f.data, f.size));
    wp_file_unmap(&f);
    CHECK(!mlirModuleIsNull(m));
  } else {
    m = import_mlp(ctx);
  }
  bool ok = run_on(ctx, m, pipeline, diag);
  if (ok && write_ir) {
    FILE *out = fopen(write_ir, "w");
    CHECK(out != NULL);
    mlirOperationPrint(mlirModuleGetOperation(m), file_cb, out);
    CHECK(fclose(out) == 0);
  }
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return ok;
}

/* PIPELINE over the example model must fail, with a diagnostic holding
 * EXPECT. */
static void run_failing(const char *pipeline, const char *expect) {
  char diag[1024];
  CHECK(!run_job(NULL, pipeline, NULL, diag));
  CHECK_CONTAINS(diag, expect);
}

/* A driver's neff-pack with output= one of the model's weight files fails
 * and leaves the file as it was (opt refuses it before running; a driver
 * has only the pass). */
static void test_output_is_input(void) {
  char model[256], cmd[700], weight[300], before[300];
  snprintf(model, sizeof model, "%s/mlp", tmp);
  snprintf(cmd, sizeof cmd, "cp -r '%s/examples/mlp' '%s'", WP_SOURCE_DIR, model);
  CHECK(system(cmd) == 0);
  snprintf(weight, sizeof weight, "%s/weights/w1.npy", model);
  snprintf(before, sizeof before, "%s/w1.before", tmp);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", weight, before);
  CHECK(system(cmd) == 0);
  char pipeline[2048];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(inline-weights{model-dir=%s},bir-lower,"
           "copy-const-artifacts{artifact-dir=%s/oi-art},dedup-consts,neff-pack{output=%s})",
           model, tmp, weight);
  run_failing(pipeline, "would replace");
  run_failing(pipeline, "w1.npy, an input of this run");
  snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", weight, before);
  CHECK(system(cmd) == 0);
}

/* Nor may its NEFF take a constant file's kind of name (.bin) in the
 * artifact directory: it was written there, and the next run into that
 * directory failed on a "constant file" with other bytes. */
static void test_output_in_artifact_dir(void) {
  char pipeline[2048], path[300];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(inline-weights{model-dir=%s/examples/mlp},bir-lower,"
           "copy-const-artifacts{artifact-dir=%s/bin-art},dedup-consts,"
           "neff-pack{output=%s/bin-art/model.bin})",
           WP_SOURCE_DIR, tmp, tmp);
  run_failing(pipeline, "neff-pack: output");
  run_failing(pipeline, "bin-art/model.bin is in the artifact directory");
  snprintf(path, sizeof path, "%s/bin-art/model.bin", tmp);
  CHECK(access(path, F_OK) != 0);
}

/* A compile server's jobs in one process: one places the constant files
 * and writes its IR, two others pack that IR. Each PassManager run is a
 * run of its own, as a process of its own would be (when a process was one
 * run, the second job removed the tied copy the IR names, as this run's
 * file, and the third failed on it). */
static void test_jobs_in_one_process(void) {
  char pipeline[1024], ir[128], diag[1024];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(inline-weights{model-dir=%s/examples/mlp},"
           "bir-lower{small-weight-threshold=0},copy-const-artifacts{artifact-dir=%s/jobs-art})",
           WP_SOURCE_DIR, tmp);
  snprintf(ir, sizeof ir, "%s/jobs.mlir", tmp);
  CHECK(run_job(NULL, pipeline, ir, diag));
  for (int job = 2; job <= 3; job++) {
    snprintf(pipeline, sizeof pipeline,
             "builtin.module(dedup-consts,neff-pack{output=%s/job%d.neff})", tmp, job);
    bool ok = run_job(ir, pipeline, NULL, diag);
    if (!ok)
      fprintf(stderr, "  job %d failed: %s\n", job, diag);
    CHECK(ok);
  }
  check_same_neffs("job2", "job3");
}

/* neff-pack alone (a driver's pipeline; opt always runs dedup-consts
 * before it) on IR that an earlier run de-duplicated, whose constant file
 * was changed since: refused (it packed the new bytes under the old MD5's
 * name, and neff verify refused the NEFF). */
static void test_pack_changed_after_dedup(void) {
  char pipeline[1024], ir[128], cmd[512], diag[1024], neff[128];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(inline-weights{model-dir=%s/examples/mlp},"
           "bir-lower{small-weight-threshold=0},copy-const-artifacts{artifact-dir=%s/changed-art},"
           "dedup-consts)",
           WP_SOURCE_DIR, tmp);
  snprintf(ir, sizeof ir, "%s/changed.mlir", tmp);
  CHECK(run_job(NULL, pipeline, ir, diag));
  /* one unique file's first bytes, changed in place */
  snprintf(cmd, sizeof cmd,
           "f=$(ls '%s/changed-art'/*.float32.Const.bin | head -1) && "
           "printf 'XXXXXXXX' | dd of=\"$f\" conv=notrunc status=none",
           tmp);
  CHECK(system(cmd) == 0);
  snprintf(neff, sizeof neff, "%s/changed.neff", tmp);
  snprintf(pipeline, sizeof pipeline, "builtin.module(neff-pack{output=%s})", neff);
  CHECK(!run_job(ir, pipeline, NULL, diag));
  CHECK_CONTAINS(diag, "the IR records for them");
  CHECK_CONTAINS(diag, "run dedup-consts again first");
  CHECK(access(neff, F_OK) != 0);
}

/* How many entries DIR holds (not . and ..). */
static int count_files(const char *dir) {
  char cmd[300], out[32] = "";
  snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
  FILE *p = popen(cmd, "r");
  if (!p || !fgets(out, sizeof out, p))
    out[0] = 0;
  if (p)
    pclose(p);
  return atoi(out);
}

/* wpOpenModelDir: the model of a directory, its errors, and a run object
 * kept across two PassManager runs (copy-const-artifacts in the first,
 * dedup-consts in the second: the run still knows what it placed and
 * takes the duplicates back, as one pipeline does). */
static void test_run_across_pass_managers(void) {
  wp_error err;
  MlirModule m;
  MlirContext bare = mlirContextCreate(); /* no dialects loaded */
  CHECK(wpOpenModelDir(bare, WP_SOURCE_DIR "/examples/mlp", NULL, &m, &err) == -1);
  CHECK_CONTAINS(err.msg, "the context has no hlo dialect (call wpLoadDialects first)");
  CHECK(mlirModuleIsNull(m));
  mlirContextDestroy(bare);
  MlirContext ctx = mlirContextCreate();
  CHECK(wpLoadDialects(ctx, &err) == 0);
  CHECK(wpOpenModelDir(ctx, "", NULL, &m, &err) == -1);
  CHECK_CONTAINS(err.msg, "wpOpenModelDir: an empty path");
  wp_run *run = wpRunCreate();
  const char *token = wpRunToken(run);
  CHECK(token && !strncmp(token, "run-", 4));
  wp_run *other = wpRunCreate();
  CHECK(strcmp(wpRunToken(other), token) != 0); /* each run its own */
  wpRunDestroy(other);
  CHECK(wpOpenModelDir(ctx, WP_SOURCE_DIR "/examples/mlp", run, &m, &err) == 0);
  char art[128];
  snprintf(art, sizeof art, "%s/across-art", tmp);
  CHECK(wpRunSetArtifactDir(run, art, &err) == 0);
  static const char *const stages[2][3] = {
      {"inline-weights", "bir-lower", "copy-const-artifacts"}, {"dedup-consts", NULL, NULL}};
  static const char *const options[2][3] = {{"", "small-weight-threshold=0", ""}, {"", "", ""}};
  for (int k = 0; k < 2; k++) {
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    for (int i = 0; i < 3 && stages[k][i]; i++) {
      MlirPass p = wpRunCreatePass(run, stages[k][i], options[k][i], &err);
      CHECK(p.ptr != NULL);
      mlirPassManagerAddOwnedPass(pm, p);
    }
    CHECK(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))));
    mlirPassManagerDestroy(pm);
    if (k == 0)
      CHECK(count_files(art) == 7); /* six weights and the shared file */
  }
  /* w3 is w2's twin: six unique files under their keys' names, the
   * placed ones gone (13 when the second run did not know them) */
  CHECK(count_files(art) == 6);
  wpRunDestroy(run);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", "wp-capi-XXXXXX");
  CHECK(mkdtemp(tmp) != NULL);
  char msg[1024];
  wpRegisterPasses();
  wpRegisterPasses(); /* a second call does nothing */
  CHECK(run_pipeline(false, "created", "64", msg) == 0);
  CHECK(run_pipeline(true, "parsed", "64", msg) == 0);
  check_same_neffs("created", "parsed");
  /* A bad option value fails the parse with the pass's own message. */
  CHECK(run_pipeline(true, "bad", "abc", msg) == -1);
  CHECK_CONTAINS(msg, "bir-lower: alignment=abc is not a number from 1 to 1073741824");
  CHECK(run_pipeline(false, "bad", "48", msg) == -1);
  CHECK_CONTAINS(msg, "bir-lower: alignment=48 is not a power of two");
  test_foreign_dialect();
  test_output_is_input();
  test_output_in_artifact_dir();
  test_jobs_in_one_process();
  test_pack_changed_after_dedup();
  test_run_across_pass_managers();
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  CHECK(system(cmd) == 0);
  return wp_test_result("test_capi_pipeline");
}
