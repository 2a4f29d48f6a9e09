/* metadata.json's two lists, "model_files" and "weight_files", as the
 * model directory reads them, apart from the JSON parser that found them.
 * A streaming parser (yajl) reads a file of the usual form; anything it
 * does not take on (numbers, objects other than the top level and
 * "weight_files", a repeated key, a NUL in a string, bad JSON) is read
 * again by jansson, whose words the errors keep. */
#ifndef WP_METADATA_H
#define WP_METADATA_H

#include "wp_error.h"

#include <stdbool.h>
#include <stddef.h>

/* What a value is. */
enum { WP_MD_ABSENT, WP_MD_STRING, WP_MD_NULL, WP_MD_ARRAY, WP_MD_OBJECT, WP_MD_OTHER };

typedef struct wp_md_entry {
  const char *key; /* an OBJECT's entry: its key; else NULL */
  const char *str; /* a STRING entry's value; else NULL */
  int kind;        /* WP_MD_STRING, WP_MD_NULL or WP_MD_OTHER */
} wp_md_entry;

typedef struct wp_md_list {
  int kind; /* of the value itself: ABSENT, STRING, ARRAY, OBJECT or OTHER */
  size_t n; /* entries: an ARRAY's in order, an OBJECT's sorted by key, a STRING as one */
  wp_md_entry *entries;
} wp_md_list;

typedef struct wp_metadata {
  wp_md_list model_files, weight_files;
  bool streamed; /* read by the streaming parser (else by jansson) */
  void *owner;   /* what the strings live in */
} wp_metadata;

/* Reads the LEN bytes of DATA (a leading UTF-8 byte order mark skipped)
 * as metadata.json, named JSON_PATH in errors: "PATH:LINE:COL: malformed
 * JSON: ..." or "PATH: the top level must be an object". On success *OUT
 * is the caller's (wp_metadata_free). */
int wp_metadata_read(const char *json_path, const unsigned char *data, size_t len,
                     wp_metadata *out, wp_error *err);
void wp_metadata_free(wp_metadata *m);

/* The same read by jansson alone (what the streaming reader leaves to
 * it), for the test that holds the two to one result. */
int wp_metadata_read_jansson(const char *json_path, const unsigned char *data, size_t len,
                             wp_metadata *out, wp_error *err);

#endif
