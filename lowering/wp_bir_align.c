#include "wp_bir_align.h"

uint64_t wp_bir_alignment(uint64_t element_bytes, uint64_t tensor_bytes, uint64_t min_align) {
  uint64_t a = element_bytes ? element_bytes : 1;
  if (tensor_bytes >= WP_BIR_LARGE_TENSOR_ALIGN && a < WP_BIR_LARGE_TENSOR_ALIGN)
    a = WP_BIR_LARGE_TENSOR_ALIGN;
  if (min_align > a)
    a = min_align;
  return a;
}

uint64_t wp_bir_align_up(uint64_t offset, uint64_t align) {
  return (offset + align - 1) & ~(align - 1);
}
