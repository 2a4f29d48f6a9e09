/* The BIR verifier: what valid BIR is beyond what IRDL says (MLIR 19's
 * IRDL has no optional attributes). Its rules are the one statement of
 * them: the BIR passes run it through wp_bir_check_module, the protobuf
 * and JSON exporters (wp_bir_to_proto) and the importer (wp_bir_from_proto)
 * through wp_bir_verify, so a fault reads the same on every path.
 *
 * The rules: module attributes (bir.name a UTF-8 string, bir.artifact_path,
 * bir.artifacts, bir.dedup); BIR ops only in a BIR function, which has a
 * body, a unique UTF-8 name and only BIR ops; per op, the kinds and ranges
 * of its attributes (integers of at most 64 bits and not negative),
 * TensorClass, dtype and MemoryType names the enums know, names UTF-8
 * without NUL bytes, a const file's one source of bytes, a memory
 * location's layout (alignment a power of two, placement and offset
 * multiples of it) and const file only on a constant's memory, kernels'
 * const_files, a bir.const_table's columns and rows. With NAMES, also what
 * takes lookups by name: unique names of each kind in a function, one
 * offset per const sub-tensor, and no memory location of its own for a
 * table row's set. */
#ifndef WP_BIR_CHECK_H
#define WP_BIR_CHECK_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>

/* 0 when MODULE (verified by MLIR) is valid BIR. Otherwise -1: ERR says
 * what, naming the op and the attribute ("bir.memloc 'w1.0': size must not
 * be negative"), and *AT (when AT is not NULL) is the op at fault, for a
 * diagnostic at its location. */
int wp_bir_verify(MlirOperation module, bool names, MlirOperation *at, wp_error *err);

/* wp_bir_verify for a pass: emits the one error diagnostic at the op at
 * fault, "PASS: " before the message ("" for none), and returns -1; 0 when
 * the module is valid. SET_NAMES is NAMES (a hash lookup per name: skipped
 * for BIR that bir-lower built in the same run). */
int wp_bir_check_module(MlirOperation module, const char *pass, bool set_names);

#endif
