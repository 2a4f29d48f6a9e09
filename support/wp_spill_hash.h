/* The MD5 of a text while it is being written to a spill file, taken on
 * another thread from the file as its pieces land (wp_jsonw's on_spill),
 * so the thread writing the text does not hash it. A writer makes pieces
 * and calls wp_spill_hash_end; one other thread runs wp_spill_hash_run,
 * which returns once it has hashed every piece noted before the end. */
#ifndef WP_SPILL_HASH_H
#define WP_SPILL_HASH_H

#include "wp_md5.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct wp_spill_hash wp_spill_hash;

/* Caller frees with wp_spill_hash_destroy (after run has returned); NULL
 * when out of memory or MD5 is refused. */
wp_spill_hash *wp_spill_hash_create(void);
/* wp_jsonw's on_spill: the text's first LEN bytes are in FD at AT. */
void wp_spill_hash_note(void *h, int fd, uint64_t at, uint64_t len);
/* The writer is done (the text is complete, or abandoned). */
void wp_spill_hash_end(wp_spill_hash *h);
/* The hashing thread's loop: hashes pieces as they are noted, until the
 * end. */
void wp_spill_hash_run(wp_spill_hash *h);
/* After run returned: the digest of the text's first SIZE bytes, when
 * exactly those were hashed (false after a failed read, or when the text
 * did not end in the file). */
bool wp_spill_hash_result(wp_spill_hash *h, uint64_t size, char out[WP_MD5_HEX]);
void wp_spill_hash_destroy(wp_spill_hash *h);

#endif
