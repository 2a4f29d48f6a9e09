/* MD5 per RFC 1321, one stream per SIMD lane. The round constants are
 * floor(|sin(i + 1)| * 2^32); each step is
 *   a = b + rotl(a + f(b, c, d) + M[g] + K[i], s)
 * with f, the message word g and the shift s set by the round. */
#include "wp_md5x.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WP_MD5X_X86 1
#endif

static const uint32_t K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
    0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
    0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
    0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
    0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
    0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
    0xeb86d391};

static const uint32_t IV[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

/* The 64 steps, written once for every kernel: STEP(f, a, b, c, d, i, g, s)
 * is supplied by the kernel. Round 1 takes word i, round 2 (5i + 1) mod
 * 16, round 3 (3i + 5) mod 16, round 4 7i mod 16. */
#define MD5_ROUNDS(STEP)                                                                       \
  STEP(F, a, b, c, d, 0, 0, 7); STEP(F, d, a, b, c, 1, 1, 12);                                 \
  STEP(F, c, d, a, b, 2, 2, 17); STEP(F, b, c, d, a, 3, 3, 22);                                \
  STEP(F, a, b, c, d, 4, 4, 7); STEP(F, d, a, b, c, 5, 5, 12);                                 \
  STEP(F, c, d, a, b, 6, 6, 17); STEP(F, b, c, d, a, 7, 7, 22);                                \
  STEP(F, a, b, c, d, 8, 8, 7); STEP(F, d, a, b, c, 9, 9, 12);                                 \
  STEP(F, c, d, a, b, 10, 10, 17); STEP(F, b, c, d, a, 11, 11, 22);                            \
  STEP(F, a, b, c, d, 12, 12, 7); STEP(F, d, a, b, c, 13, 13, 12);                             \
  STEP(F, c, d, a, b, 14, 14, 17); STEP(F, b, c, d, a, 15, 15, 22);                            \
  STEP(G, a, b, c, d, 16, 1, 5); STEP(G, d, a, b, c, 17, 6, 9);                                \
  STEP(G, c, d, a, b, 18, 11, 14); STEP(G, b, c, d, a, 19, 0, 20);                             \
  STEP(G, a, b, c, d, 20, 5, 5); STEP(G, d, a, b, c, 21, 10, 9);                               \
  STEP(G, c, d, a, b, 22, 15, 14); STEP(G, b, c, d, a, 23, 4, 20);                             \
  STEP(G, a, b, c, d, 24, 9, 5); STEP(G, d, a, b, c, 25, 14, 9);                               \
  STEP(G, c, d, a, b, 26, 3, 14); STEP(G, b, c, d, a, 27, 8, 20);                              \
  STEP(G, a, b, c, d, 28, 13, 5); STEP(G, d, a, b, c, 29, 2, 9);                               \
  STEP(G, c, d, a, b, 30, 7, 14); STEP(G, b, c, d, a, 31, 12, 20);                             \
  STEP(H, a, b, c, d, 32, 5, 4); STEP(H, d, a, b, c, 33, 8, 11);                               \
  STEP(H, c, d, a, b, 34, 11, 16); STEP(H, b, c, d, a, 35, 14, 23);                            \
  STEP(H, a, b, c, d, 36, 1, 4); STEP(H, d, a, b, c, 37, 4, 11);                               \
  STEP(H, c, d, a, b, 38, 7, 16); STEP(H, b, c, d, a, 39, 10, 23);                             \
  STEP(H, a, b, c, d, 40, 13, 4); STEP(H, d, a, b, c, 41, 0, 11);                              \
  STEP(H, c, d, a, b, 42, 3, 16); STEP(H, b, c, d, a, 43, 6, 23);                              \
  STEP(H, a, b, c, d, 44, 9, 4); STEP(H, d, a, b, c, 45, 12, 11);                              \
  STEP(H, c, d, a, b, 46, 15, 16); STEP(H, b, c, d, a, 47, 2, 23);                             \
  STEP(I, a, b, c, d, 48, 0, 6); STEP(I, d, a, b, c, 49, 7, 10);                               \
  STEP(I, c, d, a, b, 50, 14, 15); STEP(I, b, c, d, a, 51, 5, 21);                             \
  STEP(I, a, b, c, d, 52, 12, 6); STEP(I, d, a, b, c, 53, 3, 10);                              \
  STEP(I, c, d, a, b, 54, 10, 15); STEP(I, b, c, d, a, 55, 1, 21);                             \
  STEP(I, a, b, c, d, 56, 8, 6); STEP(I, d, a, b, c, 57, 15, 10);                              \
  STEP(I, c, d, a, b, 58, 6, 15); STEP(I, b, c, d, a, 59, 13, 21);                             \
  STEP(I, a, b, c, d, 60, 4, 6); STEP(I, d, a, b, c, 61, 11, 10);                              \
  STEP(I, c, d, a, b, 62, 2, 15); STEP(I, b, c, d, a, 63, 9, 21)

/* ---- one lane, plain C ---- */

#define S_F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define S_G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define S_H(b, c, d) ((b) ^ (c) ^ (d))
#define S_I(b, c, d) ((c) ^ ((b) | ~(d)))
#define S_ROTL(x, s) (((x) << (s)) | ((x) >> (32 - (s))))
#define S_STEP(f, a, b, c, d, i, g, s) a = b + S_ROTL(a + S_##f(b, c, d) + m[g] + K[i], s)

static uint32_t load_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void wp_md5x_block_lane(wp_md5x_state *s, unsigned lane, const unsigned char block[64]) {
  uint32_t m[16];
  for (int w = 0; w < 16; w++)
    m[w] = load_le32(block + 4 * w);
  uint32_t a = s->st[0][lane], b = s->st[1][lane], c = s->st[2][lane], d = s->st[3][lane];
  MD5_ROUNDS(S_STEP);
  s->st[0][lane] += a;
  s->st[1][lane] += b;
  s->st[2][lane] += c;
  s->st[3][lane] += d;
}

void wp_md5x_init_lane(wp_md5x_state *s, unsigned lane) {
  for (int i = 0; i < 4; i++)
    s->st[i][lane] = IV[i];
}

void wp_md5x_final_lane(wp_md5x_state *s, unsigned lane, const unsigned char *tail,
                        size_t tail_len, uint64_t total, char out[WP_MD5_HEX]) {
  /* 0x80, zeros to 56 mod 64, then the length in bits, little-endian */
  unsigned char pad[128] = {0};
  if (tail_len)
    memcpy(pad, tail, tail_len);
  pad[tail_len] = 0x80;
  size_t n = tail_len < 56 ? 64 : 128;
  uint64_t bits = total * 8;
  for (int i = 0; i < 8; i++)
    pad[n - 8 + i] = (unsigned char)(bits >> (8 * i));
  wp_md5x_block_lane(s, lane, pad);
  if (n == 128)
    wp_md5x_block_lane(s, lane, pad + 64);
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      unsigned char byte = (unsigned char)(s->st[i][lane] >> (8 * j));
      out[8 * i + 2 * j] = hex[byte >> 4];
      out[8 * i + 2 * j + 1] = hex[byte & 15];
    }
  out[32] = 0;
}

#ifdef WP_MD5X_X86

/* ---- 16 lanes, AVX-512F: vprold rotates, vpternlogd is f in one step ---- */

#define Z_F(b, c, d) _mm512_ternarylogic_epi32(b, c, d, 0xca) /* b ? c : d */
#define Z_G(b, c, d) _mm512_ternarylogic_epi32(d, b, c, 0xca) /* d ? b : c */
#define Z_H(b, c, d) _mm512_ternarylogic_epi32(b, c, d, 0x96) /* b ^ c ^ d */
#define Z_I(b, c, d) _mm512_ternarylogic_epi32(b, c, d, 0x39) /* c ^ (b | ~d) */
#define Z_STEP(f, a, b, c, d, i, g, s)                                                         \
  a = _mm512_add_epi32(                                                                        \
      b, _mm512_rol_epi32(_mm512_add_epi32(Z_##f(b, c, d),                                     \
                                           _mm512_add_epi32(a, _mm512_add_epi32(                \
                                               m[g], _mm512_set1_epi32((int)K[i])))),           \
                          s))

/* Rows R[0..15] (lane L's block in R[L]) become words: M[w] holds word w
 * of every lane. */
__attribute__((target("avx512f"))) static void transpose16(const __m512i r[16], __m512i m[16]) {
  __m512i t[16], u[16];
  for (int i = 0; i < 8; i++) {
    t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  /* u[4q + j]: element 4k + j of rows 4q..4q+3, in 128-bit lane k */
  for (int q = 0; q < 4; q++) {
    u[4 * q + 0] = _mm512_unpacklo_epi64(t[4 * q], t[4 * q + 2]);
    u[4 * q + 1] = _mm512_unpackhi_epi64(t[4 * q], t[4 * q + 2]);
    u[4 * q + 2] = _mm512_unpacklo_epi64(t[4 * q + 1], t[4 * q + 3]);
    u[4 * q + 3] = _mm512_unpackhi_epi64(t[4 * q + 1], t[4 * q + 3]);
  }
  for (int j = 0; j < 4; j++) {
    __m512i x0 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0x44);
    __m512i x1 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0xee);
    __m512i y0 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0x44);
    __m512i y1 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0xee);
    m[j] = _mm512_shuffle_i32x4(x0, y0, 0x88);
    m[4 + j] = _mm512_shuffle_i32x4(x0, y0, 0xdd);
    m[8 + j] = _mm512_shuffle_i32x4(x1, y1, 0x88);
    m[12 + j] = _mm512_shuffle_i32x4(x1, y1, 0xdd);
  }
}

__attribute__((target("avx512f"))) static void
blocks16(wp_md5x_state *s, const unsigned char *const p[WP_MD5X_MAX_LANES], size_t nblocks) {
  __m512i a0 = _mm512_loadu_si512(s->st[0]), b0 = _mm512_loadu_si512(s->st[1]);
  __m512i c0 = _mm512_loadu_si512(s->st[2]), d0 = _mm512_loadu_si512(s->st[3]);
  for (size_t k = 0; k < nblocks; k++) {
    __m512i r[16], m[16];
    for (int l = 0; l < 16; l++)
      r[l] = _mm512_loadu_si512(p[l] + 64 * k);
    transpose16(r, m);
    __m512i a = a0, b = b0, c = c0, d = d0;
    MD5_ROUNDS(Z_STEP);
    a0 = _mm512_add_epi32(a0, a);
    b0 = _mm512_add_epi32(b0, b);
    c0 = _mm512_add_epi32(c0, c);
    d0 = _mm512_add_epi32(d0, d);
  }
  _mm512_storeu_si512(s->st[0], a0);
  _mm512_storeu_si512(s->st[1], b0);
  _mm512_storeu_si512(s->st[2], c0);
  _mm512_storeu_si512(s->st[3], d0);
}

/* Two groups of 16: the same steps on independent registers, so each
 * step of one group runs while the other's waits for its latency. */
#define Z_STEP2(f, a, b, c, d, i, g, s)                                                        \
  do {                                                                                         \
    __m512i *m = m1;                                                                           \
    Z_STEP(f, a##1, b##1, c##1, d##1, i, g, s);                                                \
    m = m2;                                                                                    \
    Z_STEP(f, a##2, b##2, c##2, d##2, i, g, s);                                                \
  } while (0)

__attribute__((target("avx512f"))) static void
blocks32(wp_md5x_state *s, const unsigned char *const p[WP_MD5X_MAX_LANES], size_t nblocks) {
  __m512i a01 = _mm512_loadu_si512(s->st[0]), b01 = _mm512_loadu_si512(s->st[1]);
  __m512i c01 = _mm512_loadu_si512(s->st[2]), d01 = _mm512_loadu_si512(s->st[3]);
  __m512i a02 = _mm512_loadu_si512(s->st[0] + 16), b02 = _mm512_loadu_si512(s->st[1] + 16);
  __m512i c02 = _mm512_loadu_si512(s->st[2] + 16), d02 = _mm512_loadu_si512(s->st[3] + 16);
  for (size_t k = 0; k < nblocks; k++) {
    __m512i r[16], m1[16], m2[16];
    for (int l = 0; l < 16; l++)
      r[l] = _mm512_loadu_si512(p[l] + 64 * k);
    transpose16(r, m1);
    for (int l = 0; l < 16; l++)
      r[l] = _mm512_loadu_si512(p[16 + l] + 64 * k);
    transpose16(r, m2);
    __m512i a1 = a01, b1 = b01, c1 = c01, d1 = d01, a2 = a02, b2 = b02, c2 = c02, d2 = d02;
    MD5_ROUNDS(Z_STEP2);
    a01 = _mm512_add_epi32(a01, a1);
    b01 = _mm512_add_epi32(b01, b1);
    c01 = _mm512_add_epi32(c01, c1);
    d01 = _mm512_add_epi32(d01, d1);
    a02 = _mm512_add_epi32(a02, a2);
    b02 = _mm512_add_epi32(b02, b2);
    c02 = _mm512_add_epi32(c02, c2);
    d02 = _mm512_add_epi32(d02, d2);
  }
  _mm512_storeu_si512(s->st[0], a01);
  _mm512_storeu_si512(s->st[1], b01);
  _mm512_storeu_si512(s->st[2], c01);
  _mm512_storeu_si512(s->st[3], d01);
  _mm512_storeu_si512(s->st[0] + 16, a02);
  _mm512_storeu_si512(s->st[1] + 16, b02);
  _mm512_storeu_si512(s->st[2] + 16, c02);
  _mm512_storeu_si512(s->st[3] + 16, d02);
}

/* ---- 8 lanes, AVX2: rotates are two shifts, f is two or three ops ---- */

#define Y_F(b, c, d) _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d)))
#define Y_G(b, c, d) _mm256_xor_si256(c, _mm256_and_si256(d, _mm256_xor_si256(b, c)))
#define Y_H(b, c, d) _mm256_xor_si256(_mm256_xor_si256(b, c), d)
#define Y_I(b, c, d) _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, ones)))
#define Y_ROTL(x, s) _mm256_or_si256(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - (s)))
#define Y_STEP(f, a, b, c, d, i, g, s)                                                         \
  a = _mm256_add_epi32(                                                                        \
      b, Y_ROTL(_mm256_add_epi32(_mm256_add_epi32(a, Y_##f(b, c, d)),                          \
                                 _mm256_add_epi32(m[g], _mm256_set1_epi32((int)K[i]))),        \
                s))

/* Rows R[0..7] (8 words of lane L in R[L]) become words M[0..7]. */
__attribute__((target("avx2"))) static void transpose8(const __m256i r[8], __m256i m[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 4; i++) {
    t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  /* u[4q + j]: element 4k + j of rows 4q..4q+3, in 128-bit lane k */
  for (int q = 0; q < 2; q++) {
    u[4 * q + 0] = _mm256_unpacklo_epi64(t[4 * q], t[4 * q + 2]);
    u[4 * q + 1] = _mm256_unpackhi_epi64(t[4 * q], t[4 * q + 2]);
    u[4 * q + 2] = _mm256_unpacklo_epi64(t[4 * q + 1], t[4 * q + 3]);
    u[4 * q + 3] = _mm256_unpackhi_epi64(t[4 * q + 1], t[4 * q + 3]);
  }
  for (int j = 0; j < 4; j++) {
    m[j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x20);
    m[4 + j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x31);
  }
}

__attribute__((target("avx2"))) static void
blocks8(wp_md5x_state *s, const unsigned char *const p[WP_MD5X_MAX_LANES], size_t nblocks) {
  const __m256i ones = _mm256_set1_epi32(-1);
  __m256i a0 = _mm256_loadu_si256((const __m256i *)s->st[0]);
  __m256i b0 = _mm256_loadu_si256((const __m256i *)s->st[1]);
  __m256i c0 = _mm256_loadu_si256((const __m256i *)s->st[2]);
  __m256i d0 = _mm256_loadu_si256((const __m256i *)s->st[3]);
  for (size_t k = 0; k < nblocks; k++) {
    __m256i r[8], m[16];
    for (int half = 0; half < 2; half++) {
      for (int l = 0; l < 8; l++)
        r[l] = _mm256_loadu_si256((const __m256i *)(p[l] + 64 * k + 32 * half));
      transpose8(r, m + 8 * half);
    }
    __m256i a = a0, b = b0, c = c0, d = d0;
    MD5_ROUNDS(Y_STEP);
    a0 = _mm256_add_epi32(a0, a);
    b0 = _mm256_add_epi32(b0, b);
    c0 = _mm256_add_epi32(c0, c);
    d0 = _mm256_add_epi32(d0, d);
  }
  _mm256_storeu_si256((__m256i *)s->st[0], a0);
  _mm256_storeu_si256((__m256i *)s->st[1], b0);
  _mm256_storeu_si256((__m256i *)s->st[2], c0);
  _mm256_storeu_si256((__m256i *)s->st[3], d0);
}

#endif /* WP_MD5X_X86 */

static wp_md5x_kernel detect(void) {
  wp_md5x_kernel k = WP_MD5X_NONE;
#ifdef WP_MD5X_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    k = WP_MD5X_AVX512_X2;
  else if (__builtin_cpu_supports("avx2"))
    k = WP_MD5X_AVX2;
#endif
  const char *cap = getenv("WP_MD5_LANES");
  char *end = NULL;
  long lanes = cap ? strtol(cap, &end, 10) : 0;
  if (cap && *cap && end && !*end) { /* anything else is ignored */
    if (lanes < 32 && k == WP_MD5X_AVX512_X2)
      k = WP_MD5X_AVX512;
    if (lanes < 16 && k == WP_MD5X_AVX512)
      k = WP_MD5X_AVX2;
    if (lanes < 8)
      k = WP_MD5X_NONE;
  }
  return k;
}

wp_md5x_kernel wp_md5x_best(void) {
  static int cached = -1; /* a race writes the same value */
  int k = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (k < 0) {
    k = (int)detect();
    __atomic_store_n(&cached, k, __ATOMIC_RELAXED);
  }
  return (wp_md5x_kernel)k;
}

void wp_md5x_blocks(wp_md5x_kernel kernel, wp_md5x_state *s,
                    const unsigned char *const p[WP_MD5X_MAX_LANES], size_t nblocks) {
#ifdef WP_MD5X_X86
  if (kernel == WP_MD5X_AVX512_X2) {
    blocks32(s, p, nblocks);
    return;
  }
  if (kernel == WP_MD5X_AVX512) {
    blocks16(s, p, nblocks);
    return;
  }
  if (kernel == WP_MD5X_AVX2) {
    blocks8(s, p, nblocks);
    return;
  }
#endif
  for (size_t k = 0; k < nblocks; k++)
    wp_md5x_block_lane(s, 0, p[0] + 64 * k);
}
