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

/* XLA's HLO text -> module, as wpImportHloProto (docs/hlo-text.md): the
 * text is read into the HloModuleProto XLA would write for it, which is
 * imported. Errors are "FILENAME:LINE:COL: ..."; warnings (an elided
 * constant read as zeros) go to the context's diagnostic handlers. */
int wpImportHloText(MlirContext ctx, const char *text, size_t len, const char *filename,
                    MlirModule *out, wp_error *err);

/* Module -> XLA's HLO text, NUL-terminated; *text is malloc'd, caller
 * frees. Fields the text cannot carry are reported as warnings through
 * the context's diagnostic handlers. */
int wpExportHloText(MlirModule module, char **text, size_t *len, wp_error *err);

/* Creates weightpack pass NAME with mlir-opt style OPTIONS ("k=v k2=a,b");
 * the PassManager that receives it takes ownership. Null on error (an
 * unknown pass, option, bad value or an option given twice). MLIR's C API
 * cannot free a pass that no pass manager took: create each pass only to
 * add it. Every pass runs on a builtin.module (the HLO or BIR module): add
 * it to the top-level pass manager, not to one nested on func.func, where
 * MLIR itself stops the program ("Can't add pass ... restricted to
 * 'builtin.module'").
 *
 * The pass takes the run object of the PassManager run it runs in (see
 * "runs" below). A weight's bytes stay mapped as long as its context: use
 * a context per model. */
MlirPass wpCreatePass(const char *name, const char *options, wp_error *err);

/* Registers every weightpack pass in MLIR's global pass registry (once;
 * later calls do nothing), so that textual pipelines name them with their
 * options, as in mlir-opt:
 *   mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
 *       "builtin.module(inline-weights{model-dir='/models/mlp'},bir-lower,"
 *       "neff-pack{output='/tmp/mlp.neff'})", ...);
 * (neff-pack runs copy-const-artifacts and dedup-consts itself when they
 * have not run, in a private artifact directory it removes afterwards;
 * name them to choose their options or the directory)
 * (quote values that may hold spaces: 'v' or "v").
 * A bad option name or value fails the parse with the message wpCreatePass
 * would give. Printing a pipeline back shows each pass with the options
 * it was given, so that it replays. */
void wpRegisterPasses(void);

/* ---- runs ----
 * A run object holds what one pipeline run knows and its passes share:
 * the files it placed in the artifact directory and hashed (dedup-consts
 * removes a duplicate only when this run placed it; an MD5 taken in this
 * run is not taken again), a token that tells facts recorded on the IR in
 * this run from an earlier run's, and the driver's settings below. Passes
 * made by wpCreatePass or by name through MLIR's pass registry (textual
 * pipelines, mlir-opt with the plugin) share one run object per
 * PassManager run, made by the first weightpack pass of that run (kept
 * across upstream passes between them). A driver that wants the
 * settings, or one run across several PassManager runs, makes one and
 * creates the passes with wpRunCreatePass.
 *
 * Threads: each run is independent: two pipelines on two threads, each
 * with its own context, run and artifact directory, do not interfere. Two
 * pipelines sharing an artifact directory must not run at once: hold an
 * exclusive flock(2) on the directory for the whole pipeline, as opt does. */
typedef struct wp_run wp_run;

/* A new run; the caller releases it with wpRunDestroy (passes created for
 * it keep their own reference, so it may be released once they are added). */
wp_run *wpRunCreate(void);
void wpRunDestroy(wp_run *run);

/* Settings, each a default for a pass option given nowhere else (copied;
 * NULL clears): inline-weights' model-dir=, copy-const-artifacts'
 * artifact-dir=, neff-pack's output=. Set before the pipeline runs. */
int wpRunSetModelDir(wp_run *run, const char *dir, wp_error *err);
int wpRunSetArtifactDir(wp_run *run, const char *dir, wp_error *err);
int wpRunSetNeffOutput(wp_run *run, const char *path, wp_error *err);

/* The run's token (static for the run's life), as passes record it. */
const char *wpRunToken(const wp_run *run);

/* Opens model directory DIR as opt does: reads its metadata.json, finds
 * the model file it names (HloModuleProto, HloProto or HLO text) and
 * imports it into CTX (*OUT: caller destroys; null on failure). With RUN
 * (may be NULL), DIR becomes the run's model directory, inline-weights'
 * default. The weights are read later, by inline-weights. */
int wpOpenModelDir(MlirContext ctx, const char *dir, wp_run *run, MlirModule *out,
                   wp_error *err);

/* wpCreatePass for RUN (retained by the pass); a NULL RUN is
 * wpCreatePass. */
MlirPass wpRunCreatePass(wp_run *run, const char *name, const char *options, wp_error *err);

/* Gives RUN to every weightpack pass of PM's top level made without one
 * (by name: a textual pipeline parsed into PM by mlirParsePassPipeline or
 * mlirOpPassManagerAddPipeline), as if each had been made by
 * wpRunCreatePass: the run's settings and reports then hold for them.
 * Passes made for another run keep it. Call after the pipeline is parsed
 * and before PM runs. 0, or -1 with ERR for a null RUN or PM. */
int wpRunAdoptPasses(wp_run *run, MlirPassManager pm, wp_error *err);

/* ---- dependencies, for build systems (docs/build-systems.md) ----
 * Every file RUN read, as its passes (and wpOpenModelDir) noted them: a
 * module, metadata.json, each weight, a constant file's source. */

/* The files, each once, absolute, a symbolic link's target after it, in
 * the order first read: *PATHS is one malloc'd block (the array and its
 * strings; the caller frees it with free()), *N their count. 0, or -1
 * with ERR for a null RUN or output pointer. */
int wpRunDependencies(const wp_run *run, char ***paths, size_t *n, wp_error *err);

/* Writes them as a Make/Ninja depfile PATH whose targets are TARGETS
 * (N_TARGETS, at least one: the files the run made), escaped as both
 * read them; whole or not at all. Call after the run succeeded. 0, or -1
 * with ERR. (mlir-opt: neff-pack's depfile= option does this.) */
int wpRunWriteDepfile(const wp_run *run, const char *path, const char *const *targets,
                      size_t n_targets, wp_error *err);

/* Pass names and one-line descriptions, for --help style listings. */
size_t wpPassCount(void);
const char *wpPassName(size_t i);
const char *wpPassDescription(size_t i);

#ifdef __cplusplus
}
#endif

#endif
