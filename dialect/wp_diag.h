/* MLIR diagnostics from C, at every severity (the MLIR 19 C API emits
 * only errors). Used by the code that holds the location at fault: the
 * passes, lowering, and the module-level entries (wp_bir_check_module,
 * wp_neff_pack_module); the dialect's byte readers and writers and the
 * packaging helpers return a status plus wp_error naming the place, which
 * their caller emits here, once (docs/layout.md, "Errors"). Warnings and
 * remarks always come this way. Messages are printf-formatted, whole
 * however long, and made one line (control characters escaped, whatever
 * names they quote). */
#ifndef WP_DIAG_H
#define WP_DIAG_H

#include <mlir-c/IR.h>

#ifdef __cplusplus
extern "C" {
#endif

void wp_emit_error(MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wp_emit_warning(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Remarks carry what a pass says that is no fault: the spec's "Const File
 * de-dup saved N KB" line and --debug's per-file logs. */
void wp_emit_remark(MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 0 error, 1 warning, 2 remark: TEXT as is (wp_diag_emit.cpp). */
void wp_diag_emit_text(MlirLocation loc, int severity, const char *text);

/* Where a diagnostic about VALUE goes: its own location, a block
 * argument's too (the MLIR 19 C API has no getter for it; the location
 * belongs to VALUE's context). A function's parameter is at its place in
 * the text it was read from: the parameter instruction of HLO text, the
 * argument in the signature of MLIR text. */
MlirLocation wp_diag_value_loc(MlirValue value);

#ifdef __cplusplus
}
#endif

#endif
