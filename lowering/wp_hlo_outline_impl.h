/* Inside outline-weights: the plan (which constants, in what order) and
 * the rewrite of the IR (wp_hlo_outline.c), shared with the writer of the
 * model directory (wp_hlo_outline_files.c). Not public. */
#ifndef WP_HLO_OUTLINE_IMPL_H
#define WP_HLO_OUTLINE_IMPL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"

#include <mlir-c/IR.h>
#include <stddef.h>
#include <stdint.h>

/* One constant that becomes a parameter. */
typedef struct wp_outline_const {
  MlirOperation op;       /* null once the rewrite removed it */
  MlirStringRef name;     /* its name (context memory: outlives the op) */
  int64_t id;
  MlirType type;          /* a static ranked tensor */
  int prim;               /* its XLA element type */
  const void *bytes;      /* little-endian C-order elements (arena or IR memory) */
  uint64_t size;
  MlirAttribute arg_extra; /* the parameter's hlo.extra (shape, metadata), or null */
  Xla__ShapeProto *shape;  /* the parameter's shape as export writes it */
  MlirLocation loc;
  int64_t number;          /* its parameter number */
  size_t file;             /* which written file holds its bytes */
} wp_outline_const;

typedef struct wp_outline_plan {
  MlirOperation module, entry;
  MlirBlock body;
  intptr_t n_before;      /* the entry's parameters before */
  wp_outline_const *c;    /* in the entry's op order (wp_xmalloc'd) */
  size_t n;
  int64_t *order;         /* instruction ids in the order export writes them now */
  size_t n_order;
  size_t kept, kept_elsewhere;
} wp_outline_plan;

/* Chooses the constants of at least MIN_BYTES bytes, reads their bytes and
 * the export order; warns of those that stay. -1 after an error
 * diagnostic (MODULE unchanged). Free with wp_outline_plan_free. */
int wp_outline_plan_make(MlirOperation module, uint64_t min_bytes, wp_arena *arena,
                         wp_outline_plan *plan);
void wp_outline_plan_free(wp_outline_plan *plan);

/* Turns the planned constants into parameters n_before, n_before + 1, ...
 * and keeps the signature, arg attributes, stored instruction order,
 * program shapes and per-parameter module fields in step, as
 * inline-weights undoes them. */
void wp_outline_apply(wp_outline_plan *plan, wp_arena *arena);

#endif
