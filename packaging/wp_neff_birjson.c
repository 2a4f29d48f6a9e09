/* bir.json, the BIR module as the NEFF shows it: written line by line
 * (one tensor per line), so a module with 100,000 tensors needs no JSON
 * tree in memory. */
#include "wp_neff_birjson.h"

#include "wp_bir_lowering.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A list of function items (depth 3) one per line at depth 4, as
 * text_json_lines lays it out. ITEM writes item I compactly. */
static void item_lines(wp_jsonw *w, size_t n, void (*item)(wp_jsonw *, const void *, size_t),
                       const void *ctx) {
  if (n == 0) {
    wp_jsonw_raw(w, "[]", 2);
    return;
  }
  wp_jsonw_raw(w, "[", 1);
  for (size_t i = 0; i < n; i++) {
    wp_jsonw_lit(w, i ? ",\n" : "\n");
    wp_jsonw_indent(w, 4);
    item(w, ctx, i);
  }
  wp_jsonw_raw(w, "\n", 1);
  wp_jsonw_indent(w, 3);
  wp_jsonw_raw(w, "]", 1);
}

/* A const file as bir.json shows it: no bytes and no bookkeeping of how
 * it was placed or hashed (the member named by artifact holds the bytes). */
static void const_file_item(wp_jsonw *w, const void *ctx, size_t i) {
  const Wp__Bir__ConstFile *cf = ((const Wp__Bir__Function *)ctx)->const_files[i];
  wp_jsonw_raw(w, "{", 1);
  wp_jsonw_key(w, true, "name");
  wp_jsonw_str(w, cf->name);
  wp_jsonw_int_field(w, "size", (long long)cf->size);
  if (cf->artifact[0])
    wp_jsonw_str_field(w, "artifact", cf->artifact);
  if (cf->md5[0])
    wp_jsonw_str_field(w, "md5", cf->md5);
  wp_jsonw_raw(w, "}", 1);
}

static void loc_item(wp_jsonw *w, const Wp__Bir__MemoryLocation *l, bool first) {
  if (!first)
    wp_jsonw_raw(w, ", ", 2);
  wp_jsonw_raw(w, "{", 1);
  wp_jsonw_key(w, true, "name");
  wp_jsonw_str(w, l->name);
  wp_jsonw_str_field(w, "memory_type", l->memory_type);
  wp_jsonw_int_field(w, "size", (long long)l->size);
  wp_jsonw_int_field(w, "alignment", (long long)l->alignment);
  wp_jsonw_int_field(w, "placement", (long long)l->placement);
  if (l->const_file[0]) {
    wp_jsonw_str_field(w, "const_file", l->const_file);
    wp_jsonw_int_field(w, "const_ap_offset", (long long)l->const_ap_offset);
    wp_jsonw_int_field(w, "const_sub_tensor_id", (long long)l->const_sub_tensor_id);
    wp_jsonw_key(w, false, "is_regloc_offset");
    wp_jsonw_bool(w, l->is_regloc_offset);
  }
  wp_jsonw_raw(w, "}", 1);
}

typedef struct sets_ctx {
  const Wp__Bir__Function *f;
  const size_t *first, *next; /* per set, its locations as a linked list */
} sets_ctx;

static void set_item(wp_jsonw *w, const void *ctx, size_t k) {
  const sets_ctx *c = ctx;
  const Wp__Bir__MemoryLocationSet *s = c->f->sets[k];
  wp_jsonw_raw(w, "{", 1);
  wp_jsonw_key(w, true, "name");
  wp_jsonw_str(w, s->name);
  wp_jsonw_str_field(w, "tensor_class", s->tensor_class);
  wp_jsonw_str_field(w, "dtype", s->dtype);
  wp_jsonw_key(w, false, "shape");
  wp_jsonw_int_list(w, s->shape, s->n_shape);
  if (s->hlo_value[0])
    wp_jsonw_str_field(w, "hlo_value", s->hlo_value);
  wp_jsonw_key(w, false, "memory_locations");
  wp_jsonw_raw(w, "[", 1);
  bool first = true;
  for (size_t j = c->first[k]; j != SIZE_MAX; j = c->next[j], first = false)
    loc_item(w, c->f->locations[j], first);
  wp_jsonw_raw(w, "]}", 2);
}

static void kernel_item(wp_jsonw *w, const void *ctx, size_t i) {
  const Wp__Bir__Kernel *kn = ((const Wp__Bir__Function *)ctx)->kernels[i];
  wp_jsonw_raw(w, "{", 1);
  wp_jsonw_key(w, true, "name");
  wp_jsonw_str(w, kn->name);
  wp_jsonw_key(w, false, "const_files");
  wp_jsonw_raw(w, "[", 1);
  for (size_t c = 0; c < kn->n_const_files; c++) {
    if (c)
      wp_jsonw_raw(w, ", ", 2);
    wp_jsonw_str(w, kn->const_files[c]);
  }
  wp_jsonw_raw(w, "]", 1);
  if (kn->program[0])
    wp_jsonw_str_field(w, "program", kn->program);
  wp_jsonw_raw(w, "}", 1);
}

/* A member of an expanded object at DEPTH: its own line, then "KEY": . */
static void key_line(wp_jsonw *w, bool first, int depth, const char *key) {
  wp_jsonw_lit(w, first ? "\n" : ",\n");
  wp_jsonw_indent(w, depth);
  wp_jsonw_raw(w, "\"", 1);
  wp_jsonw_lit(w, key);
  wp_jsonw_raw(w, "\": ", 3);
}

/* One function at depth 2. */
static void function_lines(wp_jsonw *w, const Wp__Bir__Function *f, const size_t *first,
                           const size_t *next) {
  wp_jsonw_raw(w, "{", 1);
  key_line(w, true, 3, "name");
  wp_jsonw_str(w, f->name);
  key_line(w, false, 3, "const_files");
  item_lines(w, f->n_const_files, const_file_item, f);
  key_line(w, false, 3, "memory_location_sets");
  sets_ctx c = {f, first, next};
  item_lines(w, f->n_sets, set_item, &c);
  key_line(w, false, 3, "kernels");
  item_lines(w, f->n_kernels, kernel_item, f);
  wp_jsonw_raw(w, "\n", 1);
  wp_jsonw_indent(w, 2);
  wp_jsonw_raw(w, "}", 1);
}

static int bir_json_lines(wp_jsonw *w, const Wp__Bir__Module *m, const wp_neff_bir_index *ix);

int wp_neff_bir_index_build(const Wp__Bir__Module *m, wp_neff_bir_index *out) {
  *out = (wp_neff_bir_index){0};
  out->first = wp_xcalloc(m->n_functions + 1, sizeof *out->first);
  out->next = wp_xcalloc(m->n_functions + 1, sizeof *out->next);
  out->n = m->n_functions;
  for (size_t i = 0; i < m->n_functions; i++) {
    const Wp__Bir__Function *f = m->functions[i];
    out->first[i] = wp_xmalloc((f->n_sets + 1) * sizeof **out->first);
    out->next[i] = wp_xmalloc((f->n_locations + 1) * sizeof **out->next);
    if (wp_bir_set_locations(f, out->first[i], out->next[i], NULL)) {
      wp_neff_bir_index_free(out);
      return -1;
    }
  }
  return 0;
}

void wp_neff_bir_index_free(wp_neff_bir_index *ix) {
  for (size_t i = 0; i < ix->n; i++) {
    free(ix->first[i]);
    free(ix->next[i]);
  }
  free(ix->first);
  free(ix->next);
  *ix = (wp_neff_bir_index){0};
}

/* bir.json: the BIR module without anything that names a place on this
 * machine, written straight from the message (a tree of JSON nodes for
 * 100,000 tensors would be most of neff-pack's time and memory). Its
 * outer levels, down to each function's lists, are one item per line;
 * each list item is one line. */
int wp_neff_bir_json_lines(wp_jsonw *w, const Wp__Bir__Module *m, const wp_neff_bir_index *ix) {
  wp_neff_bir_index own = {0};
  if (!ix && wp_neff_bir_index_build(m, &own))
    return -1;
  int rc = bir_json_lines(w, m, ix ? ix : &own);
  wp_neff_bir_index_free(&own);
  return rc;
}

static int bir_json_lines(wp_jsonw *w, const Wp__Bir__Module *m, const wp_neff_bir_index *ix) {
  wp_jsonw_raw(w, "{", 1);
  key_line(w, true, 1, "name");
  wp_jsonw_str(w, m->name);
  key_line(w, false, 1, "artifact_path");
  wp_jsonw_lit(w, "\"\""); /* a path on this machine: not content */
  key_line(w, false, 1, "functions");
  if (m->n_functions == 0)
    wp_jsonw_raw(w, "[]", 2);
  else {
    wp_jsonw_raw(w, "[", 1);
    for (size_t i = 0; i < m->n_functions; i++) {
      wp_jsonw_lit(w, i ? ",\n" : "\n");
      wp_jsonw_indent(w, 2);
      function_lines(w, m->functions[i], ix->first[i], ix->next[i]);
    }
    wp_jsonw_raw(w, "\n", 1);
    wp_jsonw_indent(w, 1);
    wp_jsonw_raw(w, "]", 1);
  }
  /* artifacts and de-dup counters: few, through jansson */
  json_t *arts = json_array();
  for (size_t i = 0; arts && i < m->n_artifacts; i++)
    json_array_append_new(arts, json_pack("{s:s,s:s}", "artifact_path", m->artifacts[i]->path,
                                          "artifact_info", m->artifacts[i]->info));
  key_line(w, false, 1, "artifacts");
  if (!arts)
    return -1;
  wp_jsonw_json_lines(w, arts, 1, 4);
  json_decref(arts);
  if (m->lowering) {
    json_t *lw = wp_bir_lowering_to_json(m->lowering);
    key_line(w, false, 1, "lowering");
    wp_jsonw_json_lines(w, lw, 1, 4);
    json_decref(lw);
  }
  if (m->dedup) {
    json_t *d = json_pack("{s:I,s:I}", "unique_files", (json_int_t)m->dedup->unique_files,
                          "bytes_saved", (json_int_t)m->dedup->bytes_saved);
    if (!d)
      return -1;
    key_line(w, false, 1, "dedup");
    wp_jsonw_json_lines(w, d, 1, 4);
    json_decref(d);
  }
  wp_jsonw_lit(w, "\n}\n");
  return 0;
}

