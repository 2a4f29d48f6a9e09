/* libFuzzer harness: the .npy reader as inline-weights uses it.
 *
 * The input is a whole .npy file. wp_hlo_weight_read parses it with
 * wp_npy_parse(data, size, size), then either keeps the payload as it lies
 * (zero-copy) or, when wp_npy_needs_conversion says so, converts it with
 * wp_npy_to_c_order_le. The harness does the same and checks what a wrong
 * answer would look like rather than only waiting for a crash:
 *   - an accepted header describes the file exactly (offset + size = file);
 *   - a parse of the first bytes only (as wp_npy_file_header's callers may
 *     give) agrees with the parse of the whole file;
 *   - the converted bytes equal a naive index-by-index transpose and byte
 *     swap, and when no conversion is said to be needed, the naive one
 *     leaves the payload unchanged (else the zero-copy path packs wrong
 *     bytes);
 *   - the header wp_npy_write_header writes for the same array parses back
 *     to the same dtype and shape.
 * The payload and the output are copied into buffers of their exact size,
 * so ASan sees a read or write one byte past them. */
#include "wp_npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libFuzzer's entry points (declared for -Wmissing-prototypes) */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keep each run fast: conversions above this are checked for size only. */
#define MAX_CONVERT (1u << 20)

/* The Fortran-order source index of C-order element K, computed from
 * scratch (no odometer), for comparison with wp_npy_to_c_order_le. */
static uint64_t fortran_index(const wp_npy_info *info, uint64_t k) {
  uint64_t idx[WP_NPY_MAX_DIMS];
  for (int i = info->ndim - 1; i >= 0; i--) {
    uint64_t d = (uint64_t)info->shape[i];
    idx[i] = k % d;
    k /= d;
  }
  uint64_t off = 0, stride = 1;
  for (int i = 0; i < info->ndim; i++) {
    off += idx[i] * stride;
    stride *= (uint64_t)info->shape[i];
  }
  return off;
}

static void reference(const wp_npy_info *info, const unsigned char *src, unsigned char *dst) {
  size_t item = (size_t)info->itemsize;
  for (uint64_t k = 0; k < info->count; k++) {
    uint64_t from = info->fortran_order ? fortran_index(info, k) : k;
    memcpy(dst + k * item, src + from * item, item);
  }
  if (!info->big_endian)
    return;
  size_t part = info->kind == 'c' ? item / 2 : item;
  for (uint64_t k = 0; k < info->data_size; k += part)
    for (size_t i = 0; i < part / 2; i++) {
      unsigned char t = dst[k + i];
      dst[k + i] = dst[k + part - 1 - i];
      dst[k + part - 1 - i] = t;
    }
}

static void check_parsed(const uint8_t *data, size_t size, const wp_npy_info *info) {
  if (info->data_offset + info->data_size != size)
    abort();
  uint64_t count = 1;
  for (int i = 0; i < info->ndim; i++) {
    if (info->shape[i] < 0)
      abort();
    count *= (uint64_t)info->shape[i];
  }
  if (count != info->count || info->data_size != count * (uint64_t)info->itemsize)
    abort();
  if (info->itemsize < 1 || info->itemsize > 16 || info->ndim < 0 ||
      info->ndim > WP_NPY_MAX_DIMS)
    abort();

  /* The header wp_npy_write_header writes for this array reads back. */
  static char hdr[WP_NPY_MAX_HEADER + 64];
  char descr[8];
  snprintf(descr, sizeof descr, "%c%c%d", info->kind == 'V' || info->itemsize == 1 ? '|' : '<',
           info->kind, info->itemsize);
  size_t hn = wp_npy_write_header(hdr, descr, info->shape, info->ndim);
  wp_npy_info back;
  wp_error err;
  if (!hn || wp_npy_parse(hdr, hn, hn + info->data_size, &back, &err) != 0 ||
      back.ndim != info->ndim || back.kind != info->kind || back.itemsize != info->itemsize ||
      back.big_endian || back.fortran_order ||
      memcmp(back.shape, info->shape, sizeof(int64_t) * (size_t)info->ndim) != 0)
    abort();

  if (info->data_size > MAX_CONVERT)
    return;
  size_t n = (size_t)info->data_size;
  unsigned char *src = malloc(n ? n : 1), *got = malloc(n ? n : 1), *want = malloc(n ? n : 1);
  if (!src || !got || !want)
    abort();
  memcpy(src, data + info->data_offset, n);
  reference(info, src, want);
  if (wp_npy_needs_conversion(info)) {
    wp_npy_to_c_order_le(info, src, got);
    if (memcmp(got, want, n) != 0)
      abort();
  } else if (memcmp(src, want, n) != 0) {
    abort(); /* the zero-copy path would keep bytes in the wrong order */
  }
  free(src);
  free(got);
  free(want);
}

static int same_info(const wp_npy_info *a, const wp_npy_info *b) {
  return a->major == b->major && a->minor == b->minor && !strcmp(a->descr, b->descr) &&
         a->kind == b->kind && a->itemsize == b->itemsize && a->big_endian == b->big_endian &&
         a->fortran_order == b->fortran_order && a->ndim == b->ndim &&
         !memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->ndim) &&
         a->count == b->count && a->data_offset == b->data_offset &&
         a->data_size == b->data_size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* libFuzzer's buffer is exactly SIZE bytes, as a mapped file would be */
  wp_npy_info info;
  wp_error err;
  int rc = wp_npy_parse(data, size, size, &info, &err);
  if (rc != 0 && rc != -1)
    abort();
  if (rc == 0)
    check_parsed(data, size, &info);
  else if (!err.msg[0])
    abort(); /* a failure must say why */

  /* Only the first bytes in memory, the rest said by FILE_SIZE. */
  size_t cut = size > 200 ? 200 : size;
  if (cut < size) {
    unsigned char *head = malloc(cut);
    if (!head)
      abort();
    memcpy(head, data, cut);
    wp_npy_info part;
    int prc = wp_npy_parse(head, cut, size, &part, &err);
    free(head);
    if (prc == 0 && (rc != 0 || !same_info(&part, &info)))
      abort();
  }
  return 0;
}
