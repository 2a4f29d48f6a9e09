/* Shared by the fuzz harnesses (test/fuzz/fuzz_*.c): a fresh context per
 * input, set up as opt sets up its own (dialects loaded, one thread). */
#ifndef WP_FUZZ_COMMON_H
#define WP_FUZZ_COMMON_H

#include "weightpack/weightpack.h"
#include "wp_error.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Diagnostics are expected on bad input; printing them would only slow
 * the fuzzer down. */
static MlirLogicalResult fuzz_swallow_diag(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

static MlirContext fuzz_context(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextEnableMultithreading(ctx, false);
  mlirContextAttachDiagnosticHandler(ctx, fuzz_swallow_diag, NULL, NULL);
  wp_error err;
  if (wpLoadDialects(ctx, &err)) { /* never input-dependent: a broken build */
    fprintf(stderr, "fuzz: %s\n", err.msg);
    abort();
  }
  return ctx;
}

/* The HLO importer verifies what it built and refuses it when it does not
 * verify: a backstop, so reaching it means the importer accepted input it
 * should have refused with its own message (and MLIR without assertions
 * may already have misbehaved on that IR). The fuzzer counts it as a
 * finding; set WP_FUZZ_ALLOW_UNVERIFIED=1 to go on past a known one. (The
 * BIR importer leaves some rules, such as unique symbol names, to the
 * verifier on purpose, so its harnesses do not call this.) */
static inline void fuzz_check_backstop(const wp_error *err) {
  if (strstr(err->msg, "does not verify") && !getenv("WP_FUZZ_ALLOW_UNVERIFIED")) {
    fprintf(stderr, "fuzz: the importer built IR that does not verify: %s\n", err->msg);
    abort();
  }
}

#endif
