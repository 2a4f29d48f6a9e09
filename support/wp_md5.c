#include "wp_md5.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

#define WP_MD5_CHUNK (1u << 20)

struct wp_md5 {
  EVP_MD_CTX *ctx;
  EVP_MD *md;
};

wp_md5 *wp_md5_create(wp_error *err) {
  wp_md5 *h = wp_xcalloc(1, sizeof *h);
  h->md = EVP_MD_fetch(NULL, "MD5", NULL);
  h->ctx = EVP_MD_CTX_new();
  if (!h->md || !h->ctx || EVP_DigestInit_ex(h->ctx, h->md, NULL) != 1) {
    wp_error_set(err, "OpenSSL refuses MD5 (is it in FIPS mode?); the de-dup key needs it");
    wp_md5_destroy(h);
    return NULL;
  }
  return h;
}

void wp_md5_update(wp_md5 *h, const void *data, size_t len) {
  EVP_DigestUpdate(h->ctx, data, len);
}

void wp_md5_final_hex(wp_md5 *h, char out[WP_MD5_HEX]) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(h->ctx, d, &n);
  for (unsigned i = 0; i < n && i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
  out[32] = 0;
  EVP_DigestInit_ex(h->ctx, h->md, NULL);
}

void wp_md5_destroy(wp_md5 *h) {
  if (!h)
    return;
  EVP_MD_CTX_free(h->ctx);
  EVP_MD_free(h->md);
  free(h);
}

int wp_md5_buffer(const void *data, uint64_t size, char out[WP_MD5_HEX], wp_error *err) {
  wp_md5 *h = wp_md5_create(err);
  if (!h)
    return -1;
  const unsigned char *p = data;
  while (size) {
    size_t n = size > WP_MD5_CHUNK ? WP_MD5_CHUNK : (size_t)size;
    wp_md5_update(h, p, n);
    p += n;
    size -= n;
  }
  wp_md5_final_hex(h, out);
  wp_md5_destroy(h);
  return 0;
}

