/* MD5 through OpenSSL's EVP interface, streamed in fixed-size chunks so
 * memory does not grow with the data. */
#ifndef WP_MD5_H
#define WP_MD5_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

#define WP_MD5_HEX 33 /* 32 hex digits and a NUL */
#define WP_MD5_OF_NOTHING "d41d8cd98f00b204e9800998ecf8427e" /* MD5 of zero bytes */

typedef struct wp_md5 wp_md5;

/* NULL (with an error saying so) when OpenSSL refuses MD5, as in FIPS
 * mode. Caller frees with wp_md5_destroy. */
wp_md5 *wp_md5_create(wp_error *err);
void wp_md5_update(wp_md5 *h, const void *data, size_t len);
/* Writes the lowercase hex digest; the context can be reused after. */
void wp_md5_final_hex(wp_md5 *h, char out[WP_MD5_HEX]);
void wp_md5_destroy(wp_md5 *h);

/* MD5 of a memory buffer. */
int wp_md5_buffer(const void *data, uint64_t size, char out[WP_MD5_HEX], wp_error *err);

#endif
