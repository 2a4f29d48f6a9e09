#include "wp_metadata.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

/* The lists by their top-level key. */
enum { NO_LIST, MODEL_FILES, WEIGHT_FILES, N_LISTS };
enum { MAX_TOP_KEYS = 32 };
/* jansson refuses nesting past 2048 levels: deeper is left to it */
enum { MAX_DEPTH = 1024 };

/* An entry while streaming: offsets into the text plus one (0: none). */
typedef struct entry_at {
  size_t key, str;
  int kind;
} entry_at;

/* The streaming reader's state. A callback returning 0 declines the file
 * (jansson reads it instead). */
typedef struct stream {
  char *text; /* every string kept, each NUL-ended */
  size_t used, cap;
  int depth; /* containers open */
  int list;  /* the list the last top-level key names, or NO_LIST */
  int kinds[N_LISTS];
  entry_at *entries[N_LISTS];
  size_t n[N_LISTS], cap_entries[N_LISTS];
  size_t top_keys[MAX_TOP_KEYS];
  int n_top;
  yajl_handle parser;
  size_t end; /* bytes up to the top-level object's end */
} stream;

/* P (N bytes) kept in the text; its offset plus one. */
static size_t keep(stream *s, const unsigned char *p, size_t n) {
  if (s->cap - s->used < n + 1) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap - s->used < n + 1)
      cap *= 2;
    s->text = wp_xrealloc(s->text, cap);
    s->cap = cap;
  }
  memcpy(s->text + s->used, p, n);
  s->text[s->used + n] = 0;
  s->used += n + 1;
  return s->used - n;
}

static entry_at *add_entry(stream *s, int list) {
  if (s->n[list] == s->cap_entries[list]) {
    s->cap_entries[list] = s->cap_entries[list] ? 2 * s->cap_entries[list] : 64;
    s->entries[list] =
        wp_xrealloc(s->entries[list], s->cap_entries[list] * sizeof *s->entries[list]);
  }
  entry_at *e = &s->entries[list][s->n[list]++];
  *e = (entry_at){0, 0, WP_MD_OTHER};
  return e;
}

/* A value of KIND (a STRING's bytes P, N of them) where the reader is. */
static int value(stream *s, int kind, const unsigned char *p, size_t n) {
  if (kind == WP_MD_STRING && memchr(p, 0, n))
    return 0; /* jansson refuses a NUL, in its words */
  if (s->depth == 0)
    return 0; /* the top level is no object */
  if (s->depth == 1 && s->list != NO_LIST) {
    s->kinds[s->list] = kind;
    if (kind == WP_MD_STRING)
      *add_entry(s, s->list) = (entry_at){0, keep(s, p, n), WP_MD_STRING};
    return 1;
  }
  if (s->depth == 2 && s->list != NO_LIST) {
    entry_at *e = s->kinds[s->list] == WP_MD_OBJECT ? &s->entries[s->list][s->n[s->list] - 1]
                                                    : add_entry(s, s->list);
    e->kind = kind;
    e->str = kind == WP_MD_STRING ? keep(s, p, n) : 0;
  }
  return 1;
}

static int on_null(void *user) { return value(user, WP_MD_NULL, NULL, 0); }
static int on_boolean(void *user, int b) {
  (void)b;
  return value(user, WP_MD_OTHER, NULL, 0);
}
/* jansson reads every number, and refuses one too large: left to it */
static int on_number(void *user, const char *p, size_t n) {
  (void)user, (void)p, (void)n;
  return 0;
}
static int on_string(void *user, const unsigned char *p, size_t n) {
  return value(user, WP_MD_STRING, p, n);
}

/* Only the top level and "weight_files" may be objects here: a repeated
 * key in any other is left to jansson to find. */
static int on_start_map(void *user) {
  stream *s = user;
  if (s->depth == 1 && s->list == WEIGHT_FILES) {
    s->kinds[WEIGHT_FILES] = WP_MD_OBJECT;
    s->depth = 2;
    return 1;
  }
  if (s->depth != 0)
    return 0;
  s->depth = 1;
  return 1;
}

static int on_map_key(void *user, const unsigned char *p, size_t n) {
  stream *s = user;
  if (memchr(p, 0, n))
    return 0;
  if (s->depth == 2) { /* weight_files' */
    add_entry(s, WEIGHT_FILES)->key = keep(s, p, n);
    return 1;
  }
  for (int i = 0; i < s->n_top; i++) {
    const char *seen = s->text + s->top_keys[i] - 1;
    if (strlen(seen) == n && !memcmp(seen, p, n))
      return 0; /* repeated */
  }
  if (s->n_top == MAX_TOP_KEYS)
    return 0;
  s->top_keys[s->n_top++] = keep(s, p, n);
  s->list = n == 11 && !memcmp(p, "model_files", 11)    ? MODEL_FILES
            : n == 12 && !memcmp(p, "weight_files", 12) ? WEIGHT_FILES
                                                        : NO_LIST;
  return 1;
}

static int on_start_array(void *user) {
  stream *s = user;
  if (s->depth == 0 || s->depth >= MAX_DEPTH)
    return 0;
  if (s->depth == 1 && s->list != NO_LIST)
    s->kinds[s->list] = WP_MD_ARRAY;
  else if (s->depth == 2 && s->list != NO_LIST && !value(s, WP_MD_OTHER, NULL, 0))
    return 0;
  s->depth++;
  return 1;
}

static int on_end(void *user) {
  stream *s = user;
  if (--s->depth == 0)
    s->end = yajl_get_bytes_consumed(s->parser);
  return 1;
}

/* yajl takes a string cut short after the value as the end: only white
 * space may follow the object. */
static bool only_space_after(const unsigned char *data, size_t len, size_t end) {
  for (size_t i = end; i < len; i++)
    if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
      return false;
  return true;
}

static const yajl_callbacks callbacks = {
    on_null, on_boolean, NULL, NULL, on_number, on_string,
    on_start_map, on_map_key, on_end, on_start_array, on_end};

static int cmp_entries(const void *a, const void *b) {
  return strcmp(((const wp_md_entry *)a)->key, ((const wp_md_entry *)b)->key);
}

/* LIST of S as a wp_md_list (an object's entries sorted); false for a
 * repeated key. */
static bool finish_list(const stream *s, int list, wp_md_list *out) {
  out->kind = s->kinds[list];
  out->n = s->n[list];
  out->entries = wp_xcalloc(out->n + 1, sizeof *out->entries);
  for (size_t i = 0; i < out->n; i++) {
    const entry_at *e = &s->entries[list][i];
    out->entries[i] = (wp_md_entry){e->key ? s->text + e->key - 1 : NULL,
                                    e->str ? s->text + e->str - 1 : NULL, e->kind};
  }
  if (out->kind != WP_MD_OBJECT)
    return true;
  qsort(out->entries, out->n, sizeof *out->entries, cmp_entries);
  for (size_t i = 1; i < out->n; i++)
    if (!strcmp(out->entries[i - 1].key, out->entries[i].key))
      return false;
  return true;
}

/* Does DATA hold a \\u escape or a byte past ASCII? jansson and yajl
 * differ on lone surrogates and overlong forms, so such a file is left
 * to jansson. */
static bool beyond_ascii(const unsigned char *data, size_t len) {
  unsigned char any = 0;
  for (size_t i = 0; i < len; i++)
    any |= data[i];
  return (any & 0x80) || memmem(data, len, "\\u", 2) != NULL;
}

/* 1: declined (jansson reads it). */
static int read_streaming(const unsigned char *data, size_t len, wp_metadata *out) {
  if (beyond_ascii(data, len))
    return 1;
  stream s = {0};
  yajl_handle h = yajl_alloc(&callbacks, NULL, &s);
  if (!h)
    wp_out_of_memory();
  s.parser = h;
  int declined = yajl_parse(h, data, len) != yajl_status_ok ||
                 yajl_complete_parse(h) != yajl_status_ok || s.depth != 0 || !s.end ||
                 !only_space_after(data, len, s.end);
  yajl_free(h);
  if (!declined) {
    *out = (wp_metadata){.streamed = true};
    declined = !finish_list(&s, MODEL_FILES, &out->model_files) ||
               !finish_list(&s, WEIGHT_FILES, &out->weight_files);
    out->owner = s.text;
    s.text = NULL;
    if (declined)
      wp_metadata_free(out);
  }
  for (int i = 0; i < N_LISTS; i++)
    free(s.entries[i]);
  free(s.text);
  return declined;
}

static int json_kind(const json_t *v) {
  return !v                ? WP_MD_ABSENT
         : json_is_string(v) ? WP_MD_STRING
         : json_is_null(v)   ? WP_MD_NULL
         : json_is_array(v)  ? WP_MD_ARRAY
         : json_is_object(v) ? WP_MD_OBJECT
                             : WP_MD_OTHER;
}

static wp_md_entry json_entry(const char *key, const json_t *v) {
  int kind = json_kind(v);
  return (wp_md_entry){key, kind == WP_MD_STRING ? json_string_value(v) : NULL,
                       kind == WP_MD_STRING || kind == WP_MD_NULL ? kind : WP_MD_OTHER};
}

static void list_from_json(json_t *v, wp_md_list *out) {
  out->kind = json_kind(v);
  out->n = out->kind == WP_MD_STRING   ? 1
           : out->kind == WP_MD_ARRAY  ? json_array_size(v)
           : out->kind == WP_MD_OBJECT ? json_object_size(v)
                                       : 0;
  out->entries = wp_xcalloc(out->n + 1, sizeof *out->entries);
  if (out->kind == WP_MD_STRING)
    out->entries[0] = json_entry(NULL, v);
  for (size_t i = 0; out->kind == WP_MD_ARRAY && i < out->n; i++)
    out->entries[i] = json_entry(NULL, json_array_get(v, i));
  const char *key;
  json_t *val;
  size_t k = 0;
  if (out->kind == WP_MD_OBJECT) {
    json_object_foreach(v, key, val) out->entries[k++] = json_entry(key, val);
    qsort(out->entries, out->n, sizeof *out->entries, cmp_entries);
  }
}

/* DATA's JSON text: an empty file maps to no pointer at all (jansson
 * refuses NULL), and a leading UTF-8 byte order mark (Windows editors
 * write one) is skipped, as RFC 8259 allows: jansson refused it as a
 * token. */
static void text_of(const unsigned char **data, size_t *len) {
  if (!*data)
    *data = (const unsigned char *)"", *len = 0;
  if (*len >= 3 && !memcmp(*data, "\xef\xbb\xbf", 3))
    *data += 3, *len -= 3;
}

/* DATA, its text already (text_of), read by jansson. */
static int read_jansson(const char *json_path, const unsigned char *data, size_t len,
                        wp_metadata *out, wp_error *err) {
  memset(out, 0, sizeof *out);
  json_error_t jerr;
  /* Repeated keys are refused (which weight would count?); integers too
   * big for 64 bits are read as reals so that ignored keys stay ignored. */
  json_t *root = json_loadb((const char *)data, len,
                            JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &jerr);
  if (!root)
    return wp_error_set(err, "%s:%d:%d: malformed JSON: %s", json_path, jerr.line, jerr.column,
                        jerr.text);
  if (!json_is_object(root)) {
    json_decref(root);
    return wp_error_set(err, "%s: the top level must be an object", json_path);
  }
  out->owner = root;
  list_from_json(json_object_get(root, "model_files"), &out->model_files);
  list_from_json(json_object_get(root, "weight_files"), &out->weight_files);
  return 0;
}

int wp_metadata_read(const char *json_path, const unsigned char *data, size_t len,
                     wp_metadata *out, wp_error *err) {
  text_of(&data, &len);
  if (!read_streaming(data, len, out))
    return 0;
  return read_jansson(json_path, data, len, out, err);
}

int wp_metadata_read_jansson(const char *json_path, const unsigned char *data, size_t len,
                             wp_metadata *out, wp_error *err) {
  text_of(&data, &len);
  return read_jansson(json_path, data, len, out, err);
}

void wp_metadata_free(wp_metadata *m) {
  free(m->model_files.entries);
  free(m->weight_files.entries);
  if (m->streamed)
    free(m->owner);
  else
    json_decref(m->owner);
  memset(m, 0, sizeof *m);
}
