/* NumPy .npy files: header parsing and the byte conversions a weight may
 * need (big-endian to little-endian, Fortran order to C order).
 *
 * The parser takes the header for what it is: a restricted Python dict
 * literal with exactly the keys 'descr', 'fortran_order' and 'shape', in
 * any order, with or without a trailing comma. Versions 1.0, 2.0 and 3.0.
 * It never allocates and never reads past LEN, so it can be fuzzed on
 * arbitrary bytes. */
#ifndef WP_NPY_H
#define WP_NPY_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

/* NumPy (2.x) reads and writes arrays of at most this many dimensions. */
#define WP_NPY_MAX_DIMS 64
#define WP_NPY_MAX_HEADER 65536

typedef struct wp_npy_info {
  int major, minor;
  char descr[16];     /* as written, e.g. "<f4", "|V2" */
  char kind;          /* 'b' 'i' 'u' 'f' 'c' 'V' */
  int itemsize;       /* bytes per element */
  int big_endian;     /* multi-byte elements stored big-endian */
  int fortran_order;
  int ndim;
  int64_t shape[WP_NPY_MAX_DIMS];
  uint64_t count;       /* number of elements */
  uint64_t data_offset; /* where the payload starts */
  uint64_t data_size;   /* count * itemsize */
} wp_npy_info;

/* Parses the header of a .npy file of LEN bytes (DATA may be the whole
 * file, or just its first bytes when FILE_SIZE says how long the file is)
 * and checks the payload is exactly count*itemsize bytes. Error messages
 * have no file prefix. */
int wp_npy_parse(const void *data, size_t len, uint64_t file_size, wp_npy_info *out,
                 wp_error *err);

/* Maps PATH and parses its .npy header; the payload's pages stay
 * untouched. 0 with *OUT; 1 when PATH cannot be read or holds no .npy (no
 * magic); -1 when its header is bad, with ERR (no file prefix). */
int wp_npy_file_header(const char *path, wp_npy_info *out, wp_error *err);

/* How many bytes of DATA (LEN of them, a file's first) are a .npy file's
 * header, magic to the end of the header text, as wp_npy_parse reads it;
 * 0 when DATA holds no whole header of a known version. It checks nothing
 * else: wp_npy_parse of those bytes says whether the header is good. */
size_t wp_npy_header_size(const void *data, size_t len);

/* Does the payload need conversion to be little-endian C-order bytes? */
int wp_npy_needs_conversion(const wp_npy_info *info);

/* Writes the payload SRC as little-endian C-order bytes into DST (same
 * size). For big-endian data each element is byte-swapped (complex
 * numbers per component); Fortran-order data is transposed. */
void wp_npy_to_c_order_le(const wp_npy_info *info, const void *src, void *dst);

/* Writes a version 1.0 (or 2.0 when needed) header for a C-order
 * little-endian array into BUF (at least WP_NPY_MAX_HEADER bytes); returns
 * its length, a multiple of 64, or 0 when NDIM is outside 0..WP_NPY_MAX_DIMS
 * (no header NumPy could read). DESCR like "<f4" (at most 64 bytes). */
size_t wp_npy_write_header(char *buf, const char *descr, const int64_t *shape, int ndim);

/* The .npy header a NEFF puts before a constant file's SIZE bytes: typed
 * (DTYPE, a BIR dtype name, and SHAPE of RANK) when exactly one kind of
 * tensor fills the file, else (DTYPE NULL, or a rank over WP_NPY_MAX_DIMS)
 * a flat uint8 array. OUT holds WP_NPY_MAX_HEADER bytes; returns the
 * header's length. neff-pack writes it; dedup-consts hashes the member
 * ahead with it. */
size_t wp_npy_member_prefix(char *out, const char *dtype, const int64_t *shape, int rank,
                            uint64_t size);

#endif
