/* A compiler driver in plain C on the installed weightpack: open a model
 * directory, run the five passes on a run object, write the NEFF.
 *   driver MODEL_DIR ARTIFACT_DIR OUT.neff
 * Exit 0, 1 when the model is bad (diagnostics on stderr), 2 on bad usage. */
#include <weightpack/weightpack.h>

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>
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

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODEL_DIR ARTIFACT_DIR OUT.neff\n", argv[0]);
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, NULL, NULL);
  wp_run *run = wpRunCreate();
  MlirModule module = {NULL};
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  wp_error err;
  int rc = 1;
  if (wpLoadDialects(ctx, &err) || wpOpenModelDir(ctx, argv[1], run, &module, &err) ||
      wpRunSetArtifactDir(run, argv[2], &err) || wpRunSetNeffOutput(run, argv[3], &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  static const char *const passes[] = {"inline-weights", "bir-lower", "copy-const-artifacts",
                                        "dedup-consts", "neff-pack"};
  for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
    MlirPass p = wpRunCreatePass(run, passes[i], "", &err);
    if (p.ptr == NULL) {
      fprintf(stderr, "error: %s\n", err.msg);
      goto out;
    }
    mlirPassManagerAddOwnedPass(pm, p);
  }
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
