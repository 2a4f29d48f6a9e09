/* Where a BIR tensor's bytes may start: our getAlignmentSize.
 *
 * The reference compiler derives a tensor's alignment per memory location
 * from its dtype and its physical access pattern, with one branch that
 * forces an 8-element alignment and one that uses 0xc0 (192) bytes; the
 * rest of its table is not known. Ours, a pure function of the query:
 *
 *   alignment = max(element size,
 *                   64 if the tensor has 64 bytes or more,
 *                   8 elements if the access pattern is a valid tile,
 *                   the bir-lower option alignment=)
 *   step      = lcm(alignment, 192) if the tensor lives in DRAM as a valid
 *               tile whose partition row has 192 bytes or more, else
 *               alignment
 *
 * A valid tile has rank 2 or more, a partition dimension (the outermost)
 * of 1 to 128 and a free size (the product of the other dimensions) that
 * is a whole number of 8-element groups. `alignment` is a power of two
 * (what the memory location and def.json record); the tensor starts at a
 * multiple of `step` (const_ap_offset, placement), which is a multiple of
 * `alignment`. The two branches' conditions are our choice where the spec
 * names only the values; everything else is as before them. */
#ifndef WP_BIR_ALIGN_H
#define WP_BIR_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#define WP_BIR_LARGE_TENSOR_ALIGN 64
#define WP_BIR_TILE_ELEMENTS 8      /* the 8-element branch */
#define WP_BIR_PARTITION_STEP 192   /* the 0xc0 branch */
#define WP_BIR_MAX_PARTITIONS 128

typedef struct wp_bir_align_query {
  int memory_type;        /* WP_MT_* of the memory location */
  uint64_t element_bytes; /* the dtype's element size (0 counts as 1) */
  const int64_t *shape;   /* the access pattern's dimensions, partition first */
  size_t rank;
  uint64_t min_align; /* bir-lower's alignment= (a power of two; 0 or 1: none) */
} wp_bir_align_query;

typedef struct wp_bir_align_size {
  uint64_t alignment; /* a power of two */
  uint64_t step;      /* the tensor starts at a multiple of this */
} wp_bir_align_size;

wp_bir_align_size wp_bir_alignment_size(const wp_bir_align_query *q);

/* True when SHAPE of RANK is a valid tile (see above). */
int wp_bir_is_valid_tile(const int64_t *shape, size_t rank);

/* The smallest multiple of STEP (any value >= 1) at or after OFFSET, or 0
 * when that passes 2^64-1 (callers check for a result below OFFSET). */
uint64_t wp_bir_align_up(uint64_t offset, uint64_t step);

#endif
