/* Multi-lane MD5: up to 32 independent MD5 streams advanced together in
 * SIMD registers. One MD5 stream cannot go faster than its dependency
 * chain (about 0.65 GB/s on one core here), but the chain leaves the
 * vector units idle: 16 streams in AVX-512 registers run at 4.7 GB/s. OpenSSL
 * has no such interface and Debian packages none (isa-l_crypto is not in
 * Debian 12), hence this file; tests compare every kernel with OpenSSL. */
#ifndef WP_MD5X_H
#define WP_MD5X_H

#include "wp_md5.h"

#include <stddef.h>
#include <stdint.h>

#define WP_MD5X_MAX_LANES 32
#define WP_MD5X_BLOCK 64

/* A kernel is named by its lane count. */
typedef enum wp_md5x_kernel {
  WP_MD5X_NONE = 0,       /* no SIMD kernel on this CPU: hash one stream at a time */
  WP_MD5X_AVX2 = 8,       /* 8 lanes in 256-bit registers */
  WP_MD5X_AVX512 = 16,    /* 16 lanes in 512-bit registers, with rotate and ternary logic */
  WP_MD5X_AVX512_X2 = 32  /* two groups of 16 interleaved: one group's steps fill the
                             other's latency (about 1.7x the lanes' throughput) */
} wp_md5x_kernel;

/* Lane L's running state is st[0..3][L] (A, B, C, D). */
typedef struct wp_md5x_state {
  uint32_t st[4][WP_MD5X_MAX_LANES];
} wp_md5x_state;

/* The widest kernel this CPU runs; WP_MD5_LANES in the environment (1,
 * 8, 16 or 32) lowers it, so tests reach every path. */
wp_md5x_kernel wp_md5x_best(void);

/* Starts lane L at MD5's initial state. */
void wp_md5x_init_lane(wp_md5x_state *s, unsigned lane);

/* Advances every lane of KERNEL by NBLOCKS 64-byte blocks, lane L reading
 * from P[L] (no alignment needed); WP_MD5X_NONE advances lane 0 alone, in
 * plain C. A lane nobody uses may repeat another lane's pointer; its state
 * is then meaningless. */
void wp_md5x_blocks(wp_md5x_kernel kernel, wp_md5x_state *s,
                    const unsigned char *const p[WP_MD5X_MAX_LANES], size_t nblocks);

/* Advances lane L by one block, without SIMD (tails and odd pieces). */
void wp_md5x_block_lane(wp_md5x_state *s, unsigned lane, const unsigned char block[64]);

/* Ends lane L's stream: TAIL holds its last TAIL_LEN (< 64) bytes, TOTAL
 * is the stream's length in bytes. Writes the lowercase hex digest. */
void wp_md5x_final_lane(wp_md5x_state *s, unsigned lane, const unsigned char *tail,
                        size_t tail_len, uint64_t total, char out[WP_MD5_HEX]);

#endif
