/* Instruction attributes whose values have a syntax of their own and
 * come from newer XLA: statistics={visualizing_index=1,stat=0.5},
 * origin={({"x"}, {"y" {1}})}, domain={kind="sharding", entry={...},
 * exit={...}}, result_accuracy={mode=highest} or {tolerance={...}}, and a
 * custom call's literal=s32[2]{0} {1, 2}. */
#include "wp_hlo_text_internal.h"

#include "wp_pb.h"

#include <stdlib.h>
#include <strings.h>
#include <string.h>

/* A number (integer or decimal) as a double. */
static int number(htp *p, double *out) {
  char buf[128], *end;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_number(p, buf, sizeof buf))
    return -1;
  *out = strtod(buf, &end);
  return *end ? wp_htp_fail(p, at, "expected a number, found '%s'", buf) : 0;
}

/* name= (an identifier followed by '='). */
static int attr_name(htp *p, char **out) {
  wp_htp_skip(p);
  const char *w;
  size_t at = p->pos, n = wp_htp_ident(p, &w);
  if (!n)
    return wp_htp_fail(p, at, "expected an attribute name");
  *out = wp_arena_strndup(p->arena, w, n);
  return wp_htp_expect(p, "=");
}

/* ---- statistics ---- */

static int statistic_item(htp *p, void *ctx) {
  Xla__StatisticView *s = wp_pb_new(p->arena, &xla__statistic_view__descriptor);
  if (attr_name(p, &s->stat_name) || number(p, &s->stat_val))
    return -1;
  wp_htp_vec_push(p, ctx, &s);
  return 0;
}

/* {} or {visualizing_index=N, name=value, ...} (XLA's parser takes any
 * name for the index; its printer writes visualizing_index) */
int wp_htp_statistics(htp *p, Xla__Opaque **out) {
  Xla__StatisticsVizView v = XLA__STATISTICS_VIZ_VIEW__INIT;
  char *index_name;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (!wp_htp_accept(p, "}")) {
    if (attr_name(p, &index_name) || wp_htp_int(p, &v.stat_index_to_visualize))
      return -1;
    wp_htp_vec vec = {(void **)&v.statistics, &v.n_statistics, 0, sizeof *v.statistics};
    if (wp_htp_accept(p, ",") && wp_htp_list(p, NULL, "}", ",", WP_HTP_NONEMPTY,
                                             statistic_item, &vec))
      return -1;
    if (!v.n_statistics && wp_htp_expect(p, "}"))
      return -1;
  }
  *out = wp_htp_opaque(p, &v.base);
  return 0;
}

/* ---- original values ---- */

typedef struct origin_ctx {
  Xla__OriginalValueView *v;
  wp_htp_vec elements;
  int64_t index[WP_HTP_MAX_DEPTH];
  size_t depth;
} origin_ctx;

/* {"name" {1,0}} or {} at the current tuple index */
static int original_array(htp *p, origin_ctx *c) {
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0; /* a leaf without an original array: XLA keeps nothing */
  Xla__OriginalValueElementView *e =
      wp_pb_new(p->arena, &xla__original_value_element_view__descriptor);
  e->original_array = wp_pb_new(p->arena, &xla__original_array_view__descriptor);
  if (wp_htp_string(p, &e->original_array->instruction_name, NULL, false))
    return -1;
  if (wp_htp_peek(p) == '{' &&
      wp_htp_shape_index(p, &e->original_array->shape_index, &e->original_array->n_shape_index))
    return -1;
  e->n_shape_index = c->depth;
  e->shape_index = wp_arena_alloc(p->arena, (c->depth + 1) * sizeof(int64_t));
  memcpy(e->shape_index, c->index, c->depth * sizeof(int64_t));
  wp_htp_vec_push(p, &c->elements, &e);
  return wp_htp_expect(p, "}");
}

/* {[synthetic_call]} or {TREE}: a tuple tree of original arrays, as XLA
 * prints it for SHAPE (the instruction's) */
int wp_htp_original_value(htp *p, const Xla__ShapeProto *shape, Xla__Opaque **out) {
  origin_ctx c;
  memset(&c, 0, sizeof c);
  Xla__OriginalValueView v = XLA__ORIGINAL_VALUE_VIEW__INIT;
  c.v = &v;
  c.elements = (wp_htp_vec){(void **)&v.elements, &v.n_elements, 0, sizeof *v.elements};
  (void)shape;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "[")) {
    if (!wp_htp_accept_word(p, "synthetic_call"))
      return wp_htp_fail(p, p->pos, "expected 'synthetic_call' after '['");
    if (wp_htp_expect(p, "]") || wp_htp_expect(p, "}"))
      return -1;
    v.is_synthetic_call = true;
    *out = wp_htp_opaque(p, &v.base);
    return 0;
  }
  for (;;) {
    int ch = wp_htp_peek(p);
    size_t at = p->pos;
    if (ch == '}' && c.depth == 0)
      break;
    if (ch == '(') {
      if (c.depth == WP_HTP_MAX_DEPTH)
        return wp_htp_fail(p, at, "original value nests more than %d deep", WP_HTP_MAX_DEPTH);
      c.index[c.depth++] = 0;
      p->pos++;
    } else if (ch == ')' && c.depth) {
      c.depth--;
      p->pos++;
    } else if (ch == ',' && c.depth) {
      c.index[c.depth - 1]++;
      p->pos++;
    } else if (ch == '{') {
      if (original_array(p, &c))
        return -1;
    } else {
      return p->failed ? -1 : wp_htp_fail(p, at, "expected '[synthetic_call]' or a tuple tree "
                                                 "of original arrays in origin=");
    }
  }
  p->pos++; /* the '}' */
  *out = wp_htp_opaque(p, &v.base);
  return 0;
}

/* ---- domain ---- */

typedef struct domain_ctx {
  Xla__Opaque **entry, **exit;
  size_t kind_at;
  char *kind;
} domain_ctx;

static int domain_part(htp *p, void *ctx, size_t k, size_t at) {
  domain_ctx *c = ctx;
  (void)at;
  if (k == 0) {
    wp_htp_skip(p);
    c->kind_at = p->pos;
    return wp_htp_string(p, &c->kind, NULL, false);
  }
  return wp_htp_sharding(p, k == 1 ? c->entry : c->exit);
}

/* XLA's entry= is the sharding on the user side (HloInstructionProto's
 * domain_exit_sharding), exit= the operand side's (domain_entry_sharding);
 * the caller passes the fields in that order. */
int wp_htp_domain(htp *p, Xla__Opaque **entry, Xla__Opaque **exit) {
  static const char *const keys[] = {"kind", "entry", "exit", NULL};
  domain_ctx c = {entry, exit, 0, NULL};
  uint64_t seen = 0;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_sub_attributes(p, "domain", keys, domain_part, &c, &seen))
    return -1;
  for (size_t k = 0; k < 3; k++)
    if (!(seen & (UINT64_C(1) << k)))
      return wp_htp_fail(p, at, "domain: sub-attribute %s is expected but not seen", keys[k]);
  if (strcmp(c.kind, "sharding") != 0)
    return wp_htp_fail(p, c.kind_at, "unsupported domain kind: %s", c.kind);
  return 0;
}

/* ---- result accuracy ---- */

typedef struct tolerance_ctx {
  Xla__ResultAccuracyToleranceView *t;
} tolerance_ctx;

static int tolerance_item(htp *p, void *ctx) {
  tolerance_ctx *c = ctx;
  char *name = NULL;
  double v;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (attr_name(p, &name) || number(p, &v))
    return -1;
  if (!strcmp(name, "atol"))
    c->t->atol = v;
  else if (!strcmp(name, "rtol"))
    c->t->rtol = v;
  else if (!strcmp(name, "ulps") && v >= -9.2e18 && v <= 9.2e18)
    c->t->ulps = (int64_t)v;
  else
    return wp_htp_fail(p, at, "invalid result_accuracy tolerance '%s' (atol, rtol, ulps)", name);
  return 0;
}

int wp_htp_result_accuracy(htp *p, Xla__Opaque **out) {
  Xla__ResultAccuracyView v = XLA__RESULT_ACCURACY_VIEW__INIT;
  char *name = NULL;
  if (wp_htp_expect(p, "{"))
    return -1;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (attr_name(p, &name))
    return -1;
  if (!strcmp(name, "mode")) {
    const char *w;
    wp_htp_skip(p);
    size_t mat = p->pos, n = wp_htp_ident(p, &w);
    if (n == 7 && !strncasecmp(w, "default", 7))
      v.mode = 0;
    else if (n == 7 && !strncasecmp(w, "highest", 7))
      v.mode = 1;
    else
      return wp_htp_fail(p, mat, "expected a result accuracy mode (default, highest)");
    v.specs_case = XLA__RESULT_ACCURACY_VIEW__SPECS_MODE;
  } else if (!strcmp(name, "tolerance")) {
    v.tolerance = wp_pb_new(p->arena, &xla__result_accuracy_tolerance_view__descriptor);
    v.specs_case = XLA__RESULT_ACCURACY_VIEW__SPECS_TOLERANCE;
    tolerance_ctx c = {v.tolerance};
    if (wp_htp_list(p, "{", "}", ",", 0, tolerance_item, &c))
      return -1;
  } else {
    return wp_htp_fail(p, at, "invalid result_accuracy part '%s' (mode, tolerance)", name);
  }
  if (wp_htp_expect(p, "}"))
    return -1;
  *out = wp_htp_opaque(p, &v.base);
  return 0;
}

/* ---- a custom call's literal ---- */

int wp_htp_attr_literal(htp *p, Xla__LiteralProto **out) {
  Xla__ShapeProto *shape;
  if (wp_htp_shape(p, &shape))
    return -1;
  return wp_htp_literal(p, shape, out);
}
