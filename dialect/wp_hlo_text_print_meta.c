/* The printer's metadata={...} (OpMetadata) and frontend_attributes, and
 * the test of whether a string prints bare as JSON. */
#include "wp_hlo_text_print_internal.h"

#include "wp_jsonw.h"
#include "wp_pb.h"

#include <string.h>

/* XLA marks the field deprecated; the printer reads it to warn. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static size_t n_profile_types(const Xla__OpMetadataView *m) { return m->n_profile_type; }
static int profile_type(const Xla__OpMetadataView *m, size_t i) { return m->profile_type[i]; }
#pragma GCC diagnostic pop

void wp_hpr_metadata(hpr *w, const Xla__Opaque *md, const char *owner) {
  Xla__OpMetadataView *m = wp_pb_convert(w->arena, &md->base, &xla__op_metadata_view__descriptor);
  if (!m) {
    wp_hpr_warn(w, "%s: metadata does not read as OpMetadata; not printed", owner);
    wp_hpr_puts(w, "{}");
    return;
  }
  bool sep = false;
  wp_hpr_puts(w, "{");
#define STR(f)                                                                 \
  if (m->f[0]) {                                                               \
    wp_hpr_printf(w, "%s" #f "=", sep ? " " : "");                                \
    wp_hpr_string(w, m->f, strlen(m->f));                                         \
    sep = true;                                                                \
  }
#define INT(f)                                                                 \
  if (m->f) {                                                                  \
    wp_hpr_printf(w, "%s" #f "=%d", sep ? " " : "", (int)m->f);                   \
    sep = true;                                                                \
  }
  STR(op_type)
  STR(op_name)
  STR(source_file)
  INT(source_line)
  INT(source_end_line)
  INT(source_column)
  INT(source_end_column)
  if (n_profile_types(m)) {
    wp_hpr_printf(w, "%sprofile_type={", sep ? " " : "");
    for (size_t i = 0; i < n_profile_types(m); i++)
      wp_hpr_printf(w, "%s%d", i ? "," : "", profile_type(m, i));
    wp_hpr_puts(w, "}");
    sep = true;
  }
  STR(deduplicated_name)
  if (m->preserve_layout) {
    wp_hpr_printf(w, "%spreserve_layout=true", sep ? " " : "");
    sep = true;
  }
  STR(scheduling_name)
  INT(stack_frame_id)
#undef STR
#undef INT
  wp_hpr_puts(w, "}");
  if (m->size_of_generated_code_in_bytes || m->size_of_memory_working_set_in_bytes ||
      m->profile_info || m->base.n_unknown_fields)
    wp_hpr_warn(w, "%s: metadata fields without a text form (sizes, profile_info or unknown "
                "ones) are not printed", owner);
}

/* Is S a JSON object XLA would print bare (backend_config, attribute
 * values)? A quick shape check: braces at both ends, balanced outside
 * strings, no NUL. */
bool wp_hpr_json_object(const char *s, size_t n) {
  if (n < 2 || s[0] != '{' || s[n - 1] != '}' || memchr(s, 0, n) || !wp_utf8_valid(s, n))
    return false;
  long depth = 0;
  bool str = false;
  for (size_t i = 0; i < n; i++) {
    if (str) {
      if (s[i] == '\\')
        i++;
      else if (s[i] == '"')
        str = false;
      continue;
    }
    if (s[i] == '"')
      str = true;
    else if (s[i] == '{' || s[i] == '[')
      depth++;
    else if ((s[i] == '}' || s[i] == ']') && --depth == 0 && i + 1 != n)
      return false;
  }
  return depth == 0 && !str;
}

void wp_hpr_frontend_attributes(hpr *w, const Xla__FrontendAttributes *fa) {
  wp_hpr_puts(w, "{");
  for (size_t i = 0; i < fa->n_map; i++) {
    if (i)
      wp_hpr_puts(w, ",");
    wp_hpr_name(w, fa->map[i]->key, false);
    wp_hpr_puts(w, "=");
    const char *v = fa->map[i]->value;
    if (wp_hpr_json_object(v, strlen(v)))
      wp_hpr_puts(w, v);
    else
      wp_hpr_string(w, v, strlen(v));
  }
  wp_hpr_puts(w, "}");
}
