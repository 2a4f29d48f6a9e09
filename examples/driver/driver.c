/* A compiler driver in plain C on weightpack's C API and MLIR's: open a
 * model directory, run weightpack's passes, write the NEFF.
 *   driver MODEL_DIR ARTIFACT_DIR OUT.neff   the five passes on a run object
 *                                            that holds the two paths
 *   driver MODEL_DIR PIPELINE                a textual pipeline naming its own
 *                                            paths, weightpack's passes and
 *                                            MLIR's Transforms passes
 *   e.g. driver examples/mlp 'builtin.module(inline-weights{model-dir=examples/mlp},
 *          bir-lower,copy-const-artifacts{artifact-dir=art},dedup-consts,
 *          neff-pack{output=mlp.neff})'
 * Exit 0, 1 when the model or the pipeline is bad (diagnostics on stderr),
 * 2 on bad usage. It links weightpack::weightpack, weightpack::shared,
 * weightpack::static or `pkg-config weightpack` alike. */
#include <weightpack/weightpack.h>

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>
#include <mlir-c/Transforms.h>
#include <stdio.h>

static void print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *user) {
  static const char *const kinds[] = {"error", "warning", "note", "remark"};
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  fprintf(stderr, "%s: ", sev <= MlirDiagnosticRemark ? kinds[sev] : "error");
  mlirDiagnosticPrint(d, print_cb, stderr);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

/* The five passes, made for RUN, which holds the artifact directory and
 * the NEFF's path; PM owns them. */
static int add_run_passes(MlirPassManager pm, wp_run *run, wp_error *err) {
  static const char *const passes[] = {"inline-weights", "bir-lower", "copy-const-artifacts",
                                        "dedup-consts", "neff-pack"};
  for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
    MlirPass p = wpRunCreatePass(run, passes[i], "", err);
    if (p.ptr == NULL)
      return -1;
    mlirPassManagerAddOwnedPass(pm, p);
  }
  return 0;
}

/* Collects what MLIR's pipeline parser says, to print it on failure. */
typedef struct {
  char text[2048];
  size_t len;
} message;

static void append_cb(MlirStringRef s, void *user) {
  message *m = user;
  size_t n = s.length < sizeof m->text - 1 - m->len ? s.length : sizeof m->text - 1 - m->len;
  for (size_t i = 0; i < n; i++)
    m->text[m->len++] = s.data[i];
  m->text[m->len] = 0;
}

/* TEXT into PM, as mlir-opt's --pass-pipeline: weightpack's passes and
 * MLIR's Transforms passes (canonicalize, cse, ...) by name. MLIR's C
 * parser replaces PM's passes and anchor with the text's (TEXT names its
 * anchor: builtin.module(...)). */
static int parse_pipeline(MlirPassManager pm, const char *text) {
  wpRegisterPasses();
  mlirRegisterTransformsPasses();
  message msg = {.len = 0};
  if (mlirLogicalResultIsSuccess(mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                       mlirStringRefCreateFromCString(text),
                                                       append_cb, &msg)))
    return 0;
  fprintf(stderr, "error: %s\n", msg.text);
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s MODEL_DIR ARTIFACT_DIR OUT.neff\n"
                    "       %s MODEL_DIR PIPELINE\n", argv[0], argv[0]);
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, NULL, NULL);
  wp_run *run = argc == 4 ? wpRunCreate() : NULL;
  MlirModule module = {NULL};
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  wp_error err;
  int rc = 1;
  if (wpLoadDialects(ctx, &err) || wpOpenModelDir(ctx, argv[1], run, &module, &err) ||
      (run && (wpRunSetArtifactDir(run, argv[2], &err) ||
               wpRunSetNeffOutput(run, argv[3], &err) || add_run_passes(pm, run, &err)))) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  if (!run && parse_pipeline(pm, argv[2]))
    goto out;
  if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    rc = 0;
out:
  mlirPassManagerDestroy(pm); /* the passes release their hold on the run */
  wpRunDestroy(run);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return rc;
}
