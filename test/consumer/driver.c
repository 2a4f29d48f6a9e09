/* The smallest real driver: only the installed header, a textual pipeline
 * of the registered passes, a NEFF out. Usage: driver MODEL_DIR ART_DIR OUT. */
#include <weightpack/weightpack.h>

#include <mlir-c/Pass.h>
#include <stdio.h>
#include <stdlib.h>

static void print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, stderr); }

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  if (wpLoadDialects(ctx, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/model.hlo.pb", argv[1]);
  FILE *f = fopen(path, "rb");
  if (!f)
    return 1;
  static unsigned char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  MlirModule m;
  if (wpImportHloProto(ctx, buf, n, path, &m, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  wpRegisterPasses();
  char pipeline[16384];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(inline-weights{model-dir='%s'},bir-lower,"
           "copy-const-artifacts{artifact-dir='%s'},dedup-consts,neff-pack{output='%s'})",
           argv[1], argv[2], argv[3]);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  int rc = 0;
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                       mlirStringRefCreateFromCString(pipeline),
                                                       print_cb, NULL)) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))))
    rc = 1;
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return rc;
}
