/* Small conveniences over the MLIR C API shared by the dialects and passes. */
#ifndef WP_MLIR_UTIL_H
#define WP_MLIR_UTIL_H

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline MlirStringRef wp_sref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

MlirAttribute wp_attr(MlirOperation op, const char *name); /* null if absent */
void wp_set_attr(MlirOperation op, const char *name, MlirAttribute value);
MlirAttribute wp_str_attr(MlirContext ctx, const void *data, size_t len);
MlirAttribute wp_i64_attr(MlirContext ctx, int64_t v);
/* KEY = VALUE, for an op's attribute list. */
MlirNamedAttribute wp_named(MlirContext ctx, const char *key, MlirAttribute value);
/* The unknown location of OP's context (module-level diagnostics). */
MlirLocation wp_unknown_loc(MlirOperation op);
/* Names OP's location in *WHERE as where an error lies, unless WHERE is
 * NULL or names one already (the innermost op is blamed first; the outer
 * calls that see the failure keep it). */
void wp_blame(MlirLocation *where, MlirOperation op);

/* String attribute NAME of OP; false when absent or not a string. */
bool wp_attr_str(MlirOperation op, const char *name, MlirStringRef *out);
/* Integer attribute NAME of OP; false when absent or not an integer. */
bool wp_attr_i64(MlirOperation op, const char *name, int64_t *out);
/* Is A an integer attribute of a type wider than 64 bits (whose value the
 * C API reads as its low 64 bits)? */
bool wp_int_attr_too_wide(MlirAttribute a);

/* Looks NAME up in a DictionaryAttr (null when absent). */
MlirAttribute wp_dict_get(MlirAttribute dict, const char *name);

/* Does the op's name equal NAME? */
bool wp_op_is(MlirOperation op, const char *name);

/* Prints OP into a malloc'd NUL-terminated string; caller frees. */
char *wp_print_op(MlirOperation op, MlirOpPrintingFlags flags, size_t *len);

/* A location as "file:line:col" (or its printed form), into buf. */
void wp_loc_str(MlirLocation loc, char *buf, size_t size);

/* The first operation inside OP's region 0 block 0, or null. */
MlirOperation wp_first_op_in(MlirOperation op);

/* The block of FUNC's body, or null (a declaration). */
MlirBlock wp_func_body(MlirOperation func);

/* The func.func named NAME directly inside MODULE, or null. */
MlirOperation wp_find_func(MlirOperation module, MlirStringRef name);

/* FUNC's arg_attrs dictionary of argument I, or null. */
MlirAttribute wp_func_arg_attrs(MlirOperation func, intptr_t i);

/* The C API's string accessors, with DATA never NULL: MLIR gives an
 * empty string as (NULL, 0), which memcmp, strndup and printf's %.*s must
 * not be handed. */
MlirStringRef wp_str_value(MlirAttribute string_attr);
MlirStringRef wp_ident_str(MlirIdentifier id);
MlirStringRef wp_symref_value(MlirAttribute flat_symbol_ref);

#endif
