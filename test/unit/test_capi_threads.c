/* Two pipelines in two threads of one process, on two models with two
 * artifact directories, each writing the NEFF opt writes for its model,
 * run after run. One thread gives each job a run object of its own
 * (wpRunCreate, wpRunCreatePass); the other names the passes in a textual
 * pipeline, whose passes share the run object of their PassManager run.
 * When runs were one per process (placed and hashed files in file-scope
 * tables, wpStartNewRun between jobs), the threads' jobs mixed. */
#include "weightpack/weightpack.h"
#include "wp_test.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define JOBS 4

static char tmp[64];

typedef struct job {
  const char *model;  /* model directory */
  const char *tag;    /* names its files */
  bool textual;       /* registry passes (implicit run) or wpRunCreatePass */
  int failures;
  char msg[1024];
} job;

static void append_cb(MlirStringRef s, void *user) {
  char *msg = user;
  size_t n = strlen(msg);
  snprintf(msg + n, 1024 - n, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult diag_cb(MlirDiagnostic d, void *user) {
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError)
    mlirDiagnosticPrint(d, append_cb, user);
  return mlirLogicalResultSuccess();
}

static bool read_all(const char *path, unsigned char **data, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  *data = malloc((size_t)size + 1);
  *n = *data ? fread(*data, 1, (size_t)size, f) : 0;
  fclose(f);
  return *data && *n == (size_t)size;
}

static bool same_files(const char *a, const char *b) {
  unsigned char *x = NULL, *y = NULL;
  size_t nx = 0, ny = 0;
  bool same = read_all(a, &x, &nx) && read_all(b, &y, &ny) && nx == ny && !memcmp(x, y, nx);
  free(x);
  free(y);
  return same;
}

/* One job: import, the five passes into ART, the NEFF to OUT. */
static bool run_one(job *j, const char *art, const char *out) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, diag_cb, j->msg, NULL);
  wp_error err;
  bool ok = wpLoadDialects(ctx, &err) == 0;
  char path[512];
  snprintf(path, sizeof path, "%s/model.hlo.pb", j->model);
  unsigned char *bytes = NULL;
  size_t n = 0;
  MlirModule m = {NULL};
  ok = ok && read_all(path, &bytes, &n) && wpImportHloProto(ctx, bytes, n, path, &m, &err) == 0;
  free(bytes);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (ok && j->textual) {
    char pipeline[2048];
    snprintf(pipeline, sizeof pipeline,
             "builtin.module(inline-weights{model-dir=%s},bir-lower,copy-const-artifacts{"
             "artifact-dir=%s},dedup-consts,neff-pack{output=%s})", j->model, art, out);
    ok = mlirLogicalResultIsSuccess(mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(pipeline),
        append_cb, j->msg));
  } else if (ok) {
    wp_run *run = wpRunCreate();
    ok = wpRunSetModelDir(run, j->model, &err) == 0 &&
         wpRunSetArtifactDir(run, art, &err) == 0 && wpRunSetNeffOutput(run, out, &err) == 0;
    static const char *const names[] = {"inline-weights", "bir-lower", "copy-const-artifacts",
                                        "dedup-consts", "neff-pack"};
    for (size_t i = 0; ok && i < 5; i++) {
      MlirPass p = wpRunCreatePass(run, names[i], "", &err);
      ok = p.ptr != NULL;
      if (ok)
        mlirPassManagerAddOwnedPass(pm, p);
    }
    wpRunDestroy(run); /* the passes hold it */
  }
  if (!ok && !j->msg[0])
    snprintf(j->msg, sizeof j->msg, "%s", err.msg);
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m)));
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return ok;
}

static void *thread_main(void *arg) {
  job *j = arg;
  char ref[256], art[256], out[256];
  snprintf(ref, sizeof ref, "%s/%s-opt.neff", tmp, j->tag);
  for (int k = 0; k < JOBS; k++) {
    snprintf(art, sizeof art, "%s/%s-art", tmp, j->tag); /* reused: earlier jobs' files stay */
    snprintf(out, sizeof out, "%s/%s-%d.neff", tmp, j->tag, k);
    if (!run_one(j, art, out)) {
      j->failures++;
      fprintf(stderr, "  %s job %d failed: %s\n", j->tag, k, j->msg);
    } else if (!same_files(out, ref)) {
      j->failures++;
      fprintf(stderr, "  %s job %d: the NEFF differs from opt's\n", j->tag, k);
    }
  }
  return NULL;
}

/* The two jobs at once, on two threads. */
static void run_both(job jobs[2]) {
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    CHECK(pthread_create(&th[i], NULL, thread_main, &jobs[i]) == 0);
  for (int i = 0; i < 2; i++)
    CHECK(pthread_join(th[i], NULL) == 0);
  CHECK(jobs[0].failures == 0);
  CHECK(jobs[1].failures == 0);
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", "wp-threads-XXXXXX");
  CHECK(mkdtemp(tmp) != NULL);
  char cmd[2048], chain[128];
  snprintf(chain, sizeof chain, "%s/chain", tmp);
  snprintf(cmd, sizeof cmd, "%s %s/test/lit/Inputs/chainmodel.py %s 3", WP_PYTHON,
           WP_SOURCE_DIR, chain);
  CHECK(system(cmd) == 0);
  const char *models[2] = {WP_SOURCE_DIR "/examples/mlp", chain};
  const char *tags[2] = {"mlp", "chain"};
  for (int i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd, "%s/bin/opt %s --inline-weights --bir-lower --neff-pack "
             "-o %s/%s-opt.neff 2>/dev/null", WP_BINARY_DIR, models[i], tmp, tags[i]);
    CHECK(system(cmd) == 0);
  }
  wpRegisterPasses();
  job jobs[2] = {{models[0], tags[0], false, 0, ""}, {models[1], tags[1], true, 0, ""}};
  run_both(jobs);
  /* and the other way round: each model through the other kind of run */
  jobs[0].textual = true;
  jobs[1].textual = false;
  run_both(jobs);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (!wp_test_failed)
    CHECK(system(cmd) == 0);
  return wp_test_result("test_capi_threads");
}
