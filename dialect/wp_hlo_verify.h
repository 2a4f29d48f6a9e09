/* A shape verifier for HLO modules: what XLA's shape inference
 * (xla/service/shape_inference.cc) and HloVerifier's ShapeVerifier check,
 * and the checks XLA's parser makes on async wrappers, a conditional's
 * branch index and a custom call's operand layout constraints; its
 * messages are XLA's.
 *
 * It checks, per instruction, the families XLA infers a shape for
 * (elementwise ops, broadcast, reshape, transpose, concatenate, slice,
 * dynamic-slice and dynamic-update-slice, dot, convolution, reduce, tuple,
 * get-tuple-element, call, while, conditional, async ops, custom-call
 * layout constraints), per computation its parameter numbers, and the
 * entry computation against the module's host program shape. Shapes are
 * compared as XLA's ShapeUtil::Compatible does (element types and
 * dimensions; layouts and dynamic flags not compared), floating-point
 * precision ignored where XLA allows mixed precision. An opcode it does
 * not know passes: a module XLA accepts must pass it.
 *
 * It stops at the first error, as XLA's verifier and MLIR's op verifiers
 * do: later errors often follow from the first. The error names the
 * instruction (by id) or the computation (by index); the caller places it
 * (docs/hlo-text.md, "Checks"). */
#ifndef WP_HLO_VERIFY_H
#define WP_HLO_VERIFY_H

#include "hlo.pb-c.h"
#include "wp_error.h"
#include "wp_hlo.h"
#include "wp_hlo_lazy.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the first error is, and what it says. */
typedef struct wp_hlo_verify_error {
  size_t comp;      /* the computation's index in the module; SIZE_MAX: the module */
  int64_t instr_id; /* the instruction's id; -1: the computation itself */
  char instr_name[256];   /* its name, cut to fit ("" when not an instruction) */
  char msg[1024];
} wp_hlo_verify_error;

/* Verifies MOD. 0, or -1 with *E filled. */
int wp_hlo_verify_module(const Xla__HloModuleProto *mod, wp_hlo_verify_error *e);

/* The same over a module read lazily (the protobuf importer's form), one
 * computation unpacked at a time. */
int wp_hlo_verify_lazy(const wp_hlo_lazy_module *mod, wp_hlo_verify_error *e);

/* wp_hlo_verify_lazy for the protobuf importer: the error in ERR names
 * the computation and instruction as the importer's own errors do
 * ("computation 'main', instruction 'add.3' (id 3): ..."; a protobuf has
 * no lines), without a file prefix. */
int wp_hlo_verify_import(const wp_hlo_lazy_module *mod, wp_error *err);

/* wp_hlo_verify_module for a module read from HLO text: the error in ERR
 * as "FILENAME:LINE:COL: message", at the instruction's (or computation's)
 * place in LOCS (wp_hlo_text_parse_located); LOCS may be NULL. */
int wp_hlo_verify_located(const Xla__HloModuleProto *mod, const wp_hlo_locs *locs,
                          const char *filename, wp_error *err);

/* Verifies the HLO program in MODULE (the IR after a pass), without its
 * weights' bytes. On an error, emits it as an MLIR error at the op at
 * fault, its text starting with AFTER ("inline-weights: ..."; may be NULL),
 * and returns -1. A module holding no HLO passes. */
int wp_hlo_verify_ir(MlirModule module, const char *after);

/* Where error E of MOD (MODULE exported) is in MODULE: the instruction's
 * op (or parameter), else its computation's func.func, else the module. */
MlirLocation wp_hlo_verify_error_loc(MlirModule module, const Xla__HloModuleProto *mod,
                                     const wp_hlo_verify_error *e);

#ifdef __cplusplus
}
#endif

#endif
