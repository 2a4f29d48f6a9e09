#include "wp_bir_align.h"

#include "wp_bir_enums.h"

int wp_bir_is_valid_tile(const int64_t *shape, size_t rank) {
  if (rank < 2 || !shape || shape[0] < 1 || shape[0] > WP_BIR_MAX_PARTITIONS)
    return 0;
  uint64_t free_elems = 1;
  for (size_t i = 1; i < rank; i++) {
    if (shape[i] < 1)
      return 0;
    /* only the remainder mod 8 matters: keep it small so it cannot wrap */
    free_elems = free_elems * ((uint64_t)shape[i] % WP_BIR_TILE_ELEMENTS) % WP_BIR_TILE_ELEMENTS;
  }
  return free_elems == 0;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* bytes of one partition row (saturating at 2^64-1) */
static uint64_t row_bytes(const int64_t *shape, size_t rank, uint64_t elt) {
  uint64_t n = elt;
  for (size_t i = 1; i < rank; i++) {
    uint64_t d = (uint64_t)shape[i];
    if (d && n > UINT64_MAX / d)
      return UINT64_MAX;
    n *= d;
  }
  return n;
}

static uint64_t tensor_bytes(const int64_t *shape, size_t rank, uint64_t elt) {
  uint64_t n = elt;
  for (size_t i = 0; i < rank; i++) {
    uint64_t d = shape[i] > 0 ? (uint64_t)shape[i] : 0;
    if (d && n > UINT64_MAX / d)
      return UINT64_MAX;
    n *= d;
  }
  return n;
}

wp_bir_align_size wp_bir_alignment_size(const wp_bir_align_query *q) {
  uint64_t elt = q->element_bytes ? q->element_bytes : 1;
  uint64_t a = elt;
  if (tensor_bytes(q->shape, q->rank, elt) >= WP_BIR_LARGE_TENSOR_ALIGN &&
      a < WP_BIR_LARGE_TENSOR_ALIGN)
    a = WP_BIR_LARGE_TENSOR_ALIGN;
  int tile = wp_bir_is_valid_tile(q->shape, q->rank);
  if (tile && a < WP_BIR_TILE_ELEMENTS * elt)
    a = WP_BIR_TILE_ELEMENTS * elt;
  if (q->min_align > a)
    a = q->min_align;
  uint64_t step = a;
  if (tile && q->memory_type == WP_MT_DRAM &&
      row_bytes(q->shape, q->rank, elt) >= WP_BIR_PARTITION_STEP)
    step = a / gcd(a, WP_BIR_PARTITION_STEP) * WP_BIR_PARTITION_STEP;
  return (wp_bir_align_size){a, step};
}

uint64_t wp_bir_align_up(uint64_t offset, uint64_t step) {
  if (step <= 1)
    return offset;
  uint64_t r = offset % step;
  if (!r)
    return offset;
  if (offset > UINT64_MAX - (step - r))
    return 0;
  return offset + (step - r);
}
