/* weightpack's public C API, for compiler drivers that embed its dialects
 * and passes in their own MLIR PassManager.
 *
 *   MlirContext ctx = mlirContextCreate();
 *   wp_error err;
 *   if (wpLoadDialects(ctx, &err)) ...            // func + hlo (+ bir)
 *   MlirModule m;
 *   if (wpImportHloProto(ctx, bytes, n, "model.pb", &m, &err)) ...
 *   MlirPassManager pm = mlirPassManagerCreate(ctx);
 *   MlirPass p = wpCreatePass("inline-weights", "model-dir=/models/mlp", &err);
 *   mlirPassManagerAddOwnedPass(pm, p);
 *   mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m));
 *
 * Errors: functions returning int give 0 on success and -1 on failure with
 * a message in the caller's wp_error (see wp_error.h). A null context,
 * module, name or output pointer is an error, never a crash. */
#ifndef WEIGHTPACK_WEIGHTPACK_H
#define WEIGHTPACK_WEIGHTPACK_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version string, e.g. "0.1.0". Static storage. */
const char *wpVersion(void);

/* Loads the func dialect and weightpack's IRDL dialects into CTX. */
int wpLoadDialects(MlirContext ctx, wp_error *err);

/* The IRDL text of a weightpack dialect ("hlo", "bir"), or NULL (also for
 * a NULL name). Static storage. */
const char *wpDialectIRDL(const char *dialect);

/* HloModuleProto or HloProto bytes -> module (caller destroys). FILENAME is
 * used for locations and as the prefix of error messages, and may be any
 * label (NULL: "<memory>"). DATA is not kept (the caller may free it once
 * this returns); *OUT is null on failure. */
int wpImportHloProto(MlirContext ctx, const void *data, size_t len, const char *filename,
                     MlirModule *out, wp_error *err);

/* Module -> bare HloModuleProto bytes; *data is malloc'd, caller frees.
 * A null module is an error. */
int wpExportHloProto(MlirModule module, void **data, size_t *len, wp_error *err);

/* Creates weightpack pass NAME with mlir-opt style OPTIONS ("k=v k2=a,b");
 * the PassManager that receives it takes ownership. Null on error (an
 * unknown pass, option, bad value or an option given twice). MLIR's C API
 * cannot free a pass that no pass manager took: create each pass only to
 * add it. Every pass runs on a builtin.module (the HLO or BIR module): add
 * it to the top-level pass manager, not to one nested on func.func, where
 * MLIR itself stops the program ("Can't add pass ... restricted to
 * 'builtin.module'").
 *
 * Threads: separate contexts may run pipelines in separate threads, but
 * two pipelines that share an artifact directory must not run at once:
 * hold an exclusive flock(2) on the directory for the whole pipeline, as
 * opt does. A weight's bytes stay mapped as long as its context: use a
 * context per model. */
MlirPass wpCreatePass(const char *name, const char *options, wp_error *err);

/* Registers every weightpack pass in MLIR's global pass registry (once;
 * later calls do nothing), so that textual pipelines name them with their
 * options, as in mlir-opt:
 *   mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
 *       "builtin.module(inline-weights{model-dir='/models/mlp'},bir-lower,"
 *       "copy-const-artifacts{artifact-dir='/tmp/art'},dedup-consts,"
 *       "neff-pack{output='/tmp/mlp.neff'})", ...);
 * (quote values that may hold spaces: 'v' or "v").
 * A bad option name or value fails the parse with the message wpCreatePass
 * would give. Printing such a pipeline back shows the passes without their
 * options. */
void wpRegisterPasses(void);

/* weightpack counts a process as one run. What its passes placed and
 * hashed in the process is trusted by its later passes: dedup-consts
 * removes a duplicate constant file only when this run placed it (an
 * earlier run's may be named by IR written then), and an MD5 taken in
 * this run is not taken again. A driver that compiles job after job in
 * one process, where a later job reads IR an earlier one wrote (say one
 * job stops after copy-const-artifacts and others pack its IR), calls
 * wpStartNewRun() between the jobs, never while a pipeline runs;
 * otherwise the second job removes files the first one's IR names.
 * It also forgets those files (the tables otherwise grow with every
 * job). Not thread-safe with running pipelines. */
void wpStartNewRun(void);

/* Pass names and one-line descriptions, for --help style listings. */
size_t wpPassCount(void);
const char *wpPassName(size_t i);
const char *wpPassDescription(size_t i);

#ifdef __cplusplus
}
#endif

#endif
