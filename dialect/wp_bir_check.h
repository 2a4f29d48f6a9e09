/* What IRDL cannot say about a BIR module (MLIR 19's IRDL has no optional
 * attributes): the types and ranges of the optional attributes, kernel
 * const_files as plain symbol references, unique function names. */
#ifndef WP_BIR_CHECK_H
#define WP_BIR_CHECK_H

#include <mlir-c/IR.h>
#include <stdbool.h>

/* Emits one error diagnostic at the first offending op (naming it and the
 * attribute) and returns -1; 0 when the module is well-formed. PASS names
 * the caller in the message ("" for none). SET_NAMES: also refuse two sets of
 * one name in a function (a hash lookup per set: skipped for BIR that
 * bir-lower built in the same run). */
int wp_bir_check_module(MlirOperation module, const char *pass, bool set_names);

#endif
