/* Alignment of a BIR tensor: where its bytes may start, inside a constant
 * file (const_ap_offset) and in its memory (placement).
 *
 * A pure function of the element size and the tensor's byte size:
 *   align = max(element size, 64 if the tensor has 64 bytes or more, MIN)
 * Element sizes are powers of two, so the result is one too. MIN (the
 * bir-lower option `alignment=`) only raises it. */
#ifndef WP_BIR_ALIGN_H
#define WP_BIR_ALIGN_H

#include <stdint.h>

#define WP_BIR_LARGE_TENSOR_ALIGN 64

uint64_t wp_bir_alignment(uint64_t element_bytes, uint64_t tensor_bytes, uint64_t min_align);

/* The smallest multiple of ALIGN (a power of two) at or after OFFSET. */
uint64_t wp_bir_align_up(uint64_t offset, uint64_t align);

#endif
