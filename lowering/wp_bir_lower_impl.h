/* bir-lower's own state, shared by its two files: wp_bir_lower.c walks
 * the HLO program, wp_bir_lower_tensors.c writes the tensors it lowered
 * (as pairs of ops, or one bir.const_table). Not an API. */
#ifndef WP_BIR_LOWER_IMPL_H
#define WP_BIR_LOWER_IMPL_H

#include "wp_arena.h"
#include "wp_bir_lower.h"
#include "wp_bir_align.h"
#include "wp_diag.h"
#include "wp_bir_enums.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_strmap.h"

#include <mlir-c/IR.h>
#include <stdint.h>
#include <string.h>

#define WP_BIR_FUNCTION_NAME "sg00"
/* Small constants of one dtype share a file, "consts.<dtype>.bin": one
 * file for all dtypes would be one unique file per dtype after
 * dedup-consts (its key holds the dtype), each with every byte of it. */
#define WP_BIR_SHARED_PREFIX "consts."
#define WP_MAX_PRIM 64 /* above every XLA PrimitiveType number BIR has a dtype for */

typedef struct lower_opts {
  int const_memory;       /* WP_MT_CONST or WP_MT_DRAM */
  uint64_t small_threshold;        /* literal constants below it share one file */
  uint64_t small_weight_threshold; /* weights below it share that file too */
  uint64_t min_align;
  uint64_t table_min; /* this many constants are one bir.const_table; 0: never */
  bool (*is_mapped)(void *user, MlirAttribute value);
  void *is_mapped_user;
} lower_opts;

/* A region of a shared file, for reuse by identical small constants.
 * BYTES are the first constant's, which the IR keeps. */
typedef struct shared_entry {
  uint64_t at, size;
  int64_t sub_id;
  const char *dtype;
  const void *bytes;
  const char *file;
} shared_entry;

/* The shared file of one dtype: only laid out here; its bytes stay in the
 * constants (the file is "assembled" from them when read). */
typedef struct shared_file {
  const char *dtype;
  char *name;
  uint64_t size;
  int64_t count;
} shared_file;

/* A tensor lowered but not yet written: all are written at the end, when
 * it is known whether the constants are enough for a table. */
typedef struct pending_tensor {
  const char *name, *hlo_value, *dtype, *const_file; /* arena or static */
  MlirType type;
  int tensor_class, memtype;
  uint64_t bytes, align, at, const_offset;
  int64_t sub_id;
} pending_tensor;

typedef struct lowering {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock body;       /* of the BIR function, before its return */
  MlirOperation ret;
  wp_arena *arena;
  lower_opts opts;
  uint64_t placement[WP_MT_COUNT]; /* next free byte per memory type */
  shared_file shared[WP_MAX_PRIM]; /* in the order first used */
  size_t n_shared;
  wp_i64map shared_index; /* hash(bytes, dtype) -> index into shared_entries */
  shared_entry *shared_entries;
  size_t n_shared_entries, cap_shared_entries;
  MlirAttribute *files; /* const file names, for the kernel */
  size_t n_files, cap_files;
  MlirOperation last_file_op; /* const files lead the function body, in order */
  /* Looked up once, not per tensor: with 100,000 tensors, finding the
   * same identifiers and enum strings again in MLIR's uniquing tables was
   * a third of the lowering. */
  struct {
    MlirIdentifier sym_name, tensor_class, dtype, shape, hlo_value, set, memory_type, size,
        alignment, placement, const_file, const_ap_offset, const_sub_tensor_id,
        is_regloc_offset;
  } key;
  MlirAttribute no; /* false */
  struct {
    const char *s;
    MlirAttribute attr;
  } memo[16]; /* static strings (enum names) -> their attributes */
  const char *last_file;
  MlirAttribute last_file_ref;
  wp_strmap tensor_names; /* of parameters and constants: each names one set */
  wp_strmap file_names;   /* of const files, each a plain file name */
  pending_tensor *pending;
  size_t n_pending, cap_pending;
  /* bir.lowering's lists (see wp_bir_lowering.h): names, arena strings */
  const char **record[2];
  size_t n_record[2], cap_record[2];
} lowering;

static inline MlirAttribute str(MlirContext c, const char *s) {
  return wp_str_attr(c, s, strlen(s));
}

/* Appends the op NAME with attributes A[0..N) before the function's return. */
void wp_lower_emit(lowering *l, const char *name, MlirNamedAttribute *a, int n);

/* Records a const file's name for the kernel's list; always 0 (out of
 * memory aborts). */
int wp_lower_add_file_name(lowering *l, const char *name);

/* Element type and shape of a tensor BIR can hold: its element size; 0
 * when it cannot be one, WP_LOWER_TENSOR_TOO_BIG when its bytes pass a
 * BIR size (a signed 64-bit count). */
#define WP_LOWER_TENSOR_TOO_BIG (-1)
int wp_lower_tensor_info(MlirType t, int *prim, const char **dtype, uint64_t *bytes);

/* The error for a tensor wp_lower_tensor_info refused, at LOC. */
void wp_lower_tensor_error(MlirLocation loc, const char *what, const char *name, MlirType t,
                           int info);

/* getAlignmentSize for a tensor of type T (element size ELT) in memory
 * type MEMTYPE under this lowering's options (see wp_bir_align.h). */
wp_bir_align_size wp_lower_alignment(const lowering *l, int memtype, MlirType t, int elt);

/* One memory location set and its location, written later
 * (wp_lower_write_tensors). CONST_FILE NULL for non-constant tensors. -1
 * after an error when its memory type's placements would pass 2^63-1
 * bytes. */
int wp_lower_add_tensor(lowering *l, const char *name, int tensor_class, MlirType t,
                        const char *hlo_value, int memtype, const char *const_file,
                        uint64_t const_offset, int64_t sub_id);

/* The lowering's start: L set up for OPTS, and the BIR function it builds
 * (added to the module by wp_lower_finish; the caller destroys it when
 * lowering fails). wp_lower_end frees L in any case. */
MlirOperation wp_lower_begin(lowering *l, MlirContext c, MlirLocation loc,
                             const wp_lower_options *opts);
void wp_lower_end(lowering *l);

/* Takes NAME (arena memory) for one input, constant or result tensor: -1
 * after an error at LOC when empty or taken. */
int wp_lower_claim_name(lowering *l, const char *name, MlirLocation loc, const char *what);

/* A const file name for tensor NAME, unique among the lowering's files
 * (arena memory; out of memory aborts), and the const file op of that name
 * whose bytes come FROM (a source, constant or data attribute). */
char *wp_lower_const_file_name(lowering *l, const char *name);
void wp_lower_add_const_file(lowering *l, const char *name, uint64_t size,
                             MlirNamedAttribute from);

/* Does a constant of SIZE bytes (a weight or not) go into a shared file? */
bool wp_lower_is_small(const lowering *l, uint64_t size, bool is_weight);

/* A small constant placed in its dtype's shared file, or on the place of
 * an earlier one with the same bytes (a tie). BYTES must stay readable
 * until the lowering ends. -1 after an error at LOC. */
int wp_lower_add_shared(lowering *l, MlirLocation loc, const char *name, int tc, MlirType t,
                        int elt, const char *dtype, const void *bytes, uint64_t size);

/* Notes what bir.lowering must say of constant NAME: a planted weight
 * (IS_WEIGHT) of SIZE bytes, and whether it is an IdentityWeightTensor
 * that is a planted weight feeding a weight operand. */
void wp_lower_note_facts(lowering *l, const char *name, bool is_weight, bool identity_operand,
                         uint64_t size);

/* The shared files' const file ops, first in the function: assembled
 * from the program's constants (BYTES_DIR NULL), or their bytes written
 * to BYTES_DIR/<name> and read from there. -1 after an error. */
int wp_lower_add_shared_files(lowering *l, const char *bytes_dir);
/* Done with: the shared files' entries (no constant is added to them and
 * their bytes are written after wp_lower_add_shared_files), and the names
 * taken (no tensor is added after). At 100,000 constants they are 17 MiB
 * that need not stand beside the tables wp_lower_write_tensors makes. */
void wp_lower_drop_shared_index(lowering *l);
/* Room for TENSORS pending tensors and CONSTANTS shared entries at once:
 * grown by doubling, 100,000 constants left up to 31,000 rows unused and
 * held the old and new arrays together while copying. */
void wp_lower_reserve(lowering *l, size_t tensors, size_t constants);
void wp_lower_drop_names(lowering *l);

/* The kernel (its program @PROG_MODULE::@ENTRY), the function added to
 * MODULE, and the module's BIR attributes (bir.name MODULE_NAME). */
void wp_lower_finish(lowering *l, MlirOperation module, MlirOperation bir_func,
                     MlirStringRef prog_module, const char *entry, const char *module_name);

/* Writes every pending tensor in the order lowered; the constants as one
 * table when there are at least table_min of them. -1 after an error. */
int wp_lower_write_tensors(lowering *l);

#endif
