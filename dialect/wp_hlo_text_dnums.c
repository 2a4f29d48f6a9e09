/* The attribute values with a syntax of their own: window={size=3x3
 * pad=1_1x1_1}, dim_labels=b01f_01io->b01f, padding=0_0x1_1_1,
 * slice={[0:2:1]}, output_to_operand_aliasing={{0}: (1, {})}. */
#include "wp_hlo_text_internal.h"

#include "wp_pb.h"

#include <ctype.h>
#include <string.h>

/* 3x3x1: integers joined by 'x'. */
static int dxd(htp *p, int64_t **v, size_t *n) {
  return wp_htp_ints(p, NULL, NULL, "x", 0, v, n);
}

/* One low_high[_interior] group of a padding (no blanks inside). */
typedef struct pad_ctx {
  wp_htp_vec vec;
  int per;               /* 2 or 3 numbers */
  bool interior_optional; /* the third may be left out (0) */
} pad_ctx;

static int pad_group(htp *p, void *ctx) {
  pad_ctx *c = ctx;
  for (int k = 0; k < c->per; k++) {
    int64_t x = 0;
    if (k > 0) {
      if (p->pos >= p->len || p->src[p->pos] != '_') {
        if (k == c->per - 1 && c->interior_optional) {
          wp_htp_vec_push(p, &c->vec, &x);
          continue;
        }
        return wp_htp_fail(p, p->pos, "expected '_' in padding low_high%s",
                           c->per == 3 ? "_interior" : "");
      }
      p->pos++;
    }
    if (wp_htp_int(p, &x))
      return -1;
    wp_htp_vec_push(p, &c->vec, &x);
  }
  return 0;
}

/* 1_1x0_2 (and with INTERIOR, 1_1_0x0_2_1): groups joined by 'x'. */
static int pads(htp *p, int64_t **v, size_t *n, int per, bool interior_optional) {
  *v = NULL;
  *n = 0;
  pad_ctx c = {{(void **)v, n, 0, sizeof **v}, per, interior_optional};
  return wp_htp_list(p, NULL, NULL, "x", 0, pad_group, &c);
}

enum { W_SIZE, W_STRIDE, W_PAD, W_LHS, W_RHS, W_REV, W_N };
static const char *const k_window_keys[] = {"size", "stride", "pad", "lhs_dilate", "rhs_dilate",
                                            "rhs_reversal", NULL};

typedef struct window_ctx {
  int64_t *vals[W_N];
  size_t counts[W_N], at[W_N];
} window_ctx;

static int window_part(htp *p, void *ctx, size_t k, size_t at) {
  window_ctx *w = ctx;
  w->at[k] = at + 1;
  if (k == W_PAD ? pads(p, &w->vals[k], &w->counts[k], 2, false)
                 : dxd(p, &w->vals[k], &w->counts[k]))
    return -1;
  if (k == W_PAD)
    w->counts[k] /= 2;
  return 0;
}

int wp_htp_window(htp *p, Xla__Opaque **out) {
  window_ctx c;
  memset(&c, 0, sizeof c);
  if (wp_htp_sub_attributes(p, "window", k_window_keys, window_part, &c, NULL))
    return -1;
  size_t rank = c.counts[W_SIZE];
  for (size_t k = 1; k < W_N; k++)
    if (c.at[k] && (!c.at[W_SIZE] || c.counts[k] != rank))
      return wp_htp_fail(p, c.at[k] - 1, "window %s has %zu dimensions, size has %zu",
                         k_window_keys[k], c.counts[k], rank);
  Xla__WindowView w = XLA__WINDOW_VIEW__INIT;
  w.n_dimensions = rank;
  w.dimensions = wp_arena_alloc(p->arena, (rank + 1) * sizeof *w.dimensions);
  for (size_t i = 0; i < rank; i++) {
    Xla__WindowDimensionView *d = wp_pb_new(p->arena, &xla__window_dimension_view__descriptor);
    /* what XLA's parser sets where a part is not written */
    d->size = c.vals[W_SIZE][i];
    d->stride = c.at[W_STRIDE] ? c.vals[W_STRIDE][i] : 1;
    d->padding_low = c.at[W_PAD] ? c.vals[W_PAD][2 * i] : 0;
    d->padding_high = c.at[W_PAD] ? c.vals[W_PAD][2 * i + 1] : 0;
    d->base_dilation = c.at[W_LHS] ? c.vals[W_LHS][i] : 1;
    d->window_dilation = c.at[W_RHS] ? c.vals[W_RHS][i] : 1;
    if (c.at[W_REV] && c.vals[W_REV][i] != 0 && c.vals[W_REV][i] != 1)
      return wp_htp_fail(p, c.at[W_REV] - 1, "rhs_reversal takes 0 or 1 per dimension");
    d->window_reversal = c.at[W_REV] && c.vals[W_REV][i];
    w.dimensions[i] = d;
  }
  *out = wp_htp_opaque(p, &w.base);
  return 0;
}

/* One side of dim_labels: the position of each letter in LETTERS (two of
 * them) and of each spatial digit; '?' marks a dimension without a label
 * (as XLA prints one). */
static int labels(htp *p, size_t at, const char *s, size_t n, const char *letters,
                  int64_t *first, int64_t *second, int64_t **spatial, size_t *n_spatial) {
  size_t unlabelled = 0;
  for (size_t i = 0; i < n; i++)
    unlabelled += s[i] == '?';
  if (n < 2 + unlabelled)
    return wp_htp_fail(p, at, "dim_labels part '%.*s' needs '%c', '%c' and spatial digits",
                    (int)n, s, letters[0], letters[1]);
  size_t n_sp = n - 2 - unlabelled;
  *first = *second = -1;
  *n_spatial = n_sp;
  *spatial = wp_arena_alloc(p->arena, (n + 1) * sizeof **spatial);
  for (size_t i = 0; i < n_sp; i++)
    (*spatial)[i] = -1;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '?')
      continue;
    int64_t *slot = c == letters[0]                     ? first
                    : c == letters[1]                   ? second
                    : c >= '0' && (size_t)(c - '0') < n_sp ? &(*spatial)[c - '0']
                                                        : NULL;
    if (!slot || *slot != -1)
      return wp_htp_fail(p, at + i, "dim_labels '%.*s': '%c' is %s", (int)n, s, c,
                      slot ? "given twice" : "not a label here");
    *slot = (int64_t)i;
  }
  for (size_t i = 0; i < n_sp; i++)
    if ((*spatial)[i] < 0)
      return wp_htp_fail(p, at, "dim_labels '%.*s' lacks spatial dimension %zu", (int)n, s, i);
  if (*first < 0 || *second < 0)
    return wp_htp_fail(p, at, "dim_labels '%.*s' needs '%c' and '%c'", (int)n, s, letters[0],
                       letters[1]);
  return 0;
}

int wp_htp_dim_labels(htp *p, Xla__Opaque **out) {
  wp_htp_skip(p);
  size_t at = p->pos, i = at;
  while (i < p->len && (isalnum((unsigned char)p->src[i]) || p->src[i] == '_' ||
                        p->src[i] == '-' || p->src[i] == '>' || p->src[i] == '?'))
    i++;
  const char *s = p->src + at;
  size_t n = i - at;
  const char *us = memchr(s, '_', n);
  const char *arrow = NULL;
  for (size_t k = 0; k + 1 < n; k++)
    if (s[k] == '-' && s[k + 1] == '>') {
      arrow = s + k;
      break;
    }
  if (!us || !arrow || arrow < us)
    return wp_htp_fail(p, at, "expected dim_labels like b01f_01io->b01f");
  Xla__ConvolutionDimensionNumbersView d = XLA__CONVOLUTION_DIMENSION_NUMBERS_VIEW__INIT;
  size_t n_kernel;
  if (labels(p, at, s, (size_t)(us - s), "bf", &d.input_batch_dimension,
             &d.input_feature_dimension, &d.input_spatial_dimensions,
             &d.n_input_spatial_dimensions) ||
      labels(p, at + (size_t)(us + 1 - s), us + 1, (size_t)(arrow - us - 1), "io",
             &d.kernel_input_feature_dimension, &d.kernel_output_feature_dimension,
             &d.kernel_spatial_dimensions, &n_kernel) ||
      labels(p, at + (size_t)(arrow + 2 - s), arrow + 2, (size_t)(s + n - arrow - 2), "bf",
             &d.output_batch_dimension, &d.output_feature_dimension,
             &d.output_spatial_dimensions, &d.n_output_spatial_dimensions))
    return -1;
  d.n_kernel_spatial_dimensions = n_kernel;
  if (n_kernel != d.n_input_spatial_dimensions || n_kernel != d.n_output_spatial_dimensions)
    return wp_htp_fail(p, at, "dim_labels sides have different numbers of spatial dimensions");
  p->pos = i;
  *out = wp_htp_opaque(p, &d.base);
  return 0;
}

int wp_htp_padding(htp *p, Xla__Opaque **out) {
  Xla__PaddingConfigView pc = XLA__PADDING_CONFIG_VIEW__INIT;
  int64_t *v;
  size_t n;
  wp_htp_skip(p);
  /* a rank-0 pad has nothing after '=' */
  if (p->pos < p->len && (isdigit((unsigned char)p->src[p->pos]) || p->src[p->pos] == '-')) {
    if (pads(p, &v, &n, 3, true))
      return -1;
    pc.n_dimensions = n / 3;
    pc.dimensions = wp_arena_alloc(p->arena, (n / 3 + 1) * sizeof *pc.dimensions);
    for (size_t i = 0; i < n / 3; i++) {
      Xla__PaddingConfigDimensionView *d =
          wp_pb_new(p->arena, &xla__padding_config_dimension_view__descriptor);
      d->edge_padding_low = v[3 * i];
      d->edge_padding_high = v[3 * i + 1];
      d->interior_padding = v[3 * i + 2];
      pc.dimensions[i] = d;
    }
  }
  *out = wp_htp_opaque(p, &pc.base);
  return 0;
}

static int slice_item(htp *p, void *ctx) {
  Xla__SliceDimensionsView s = XLA__SLICE_DIMENSIONS_VIEW__INIT;
  int64_t *v;
  size_t n;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_ints(p, "[", "]", ":", WP_HTP_NONEMPTY, &v, &n))
    return -1;
  if (n != 2 && n != 3)
    return wp_htp_fail(p, at, "expected [start:limit] or [start:limit:stride], found %zu numbers",
                       n);
  s.start = v[0];
  s.limit = v[1];
  s.stride = n == 3 ? v[2] : 1; /* XLA writes the stride it defaults to */
  Xla__Opaque *o = wp_htp_opaque(p, &s.base);
  wp_htp_vec_push(p, ctx, &o);
  return 0;
}

int wp_htp_slice(htp *p, Xla__Opaque ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  wp_htp_vec v = {(void **)out, n, 0, sizeof **out};
  return wp_htp_list(p, "{", "}", ",", 0, slice_item, &v);
}

static int aliasing_item(htp *p, void *ctx) {
  Xla__OutputOperandAliasingView a = XLA__OUTPUT_OPERAND_ALIASING_VIEW__INIT;
  if (wp_htp_shape_index(p, &a.output_shape_index, &a.n_output_shape_index) ||
      wp_htp_expect(p, ":") || wp_htp_expect(p, "(") || wp_htp_int(p, &a.operand_index) ||
      wp_htp_expect(p, ",") ||
      wp_htp_shape_index(p, &a.operand_shape_index, &a.n_operand_shape_index) ||
      wp_htp_expect(p, ")"))
    return -1;
  Xla__Opaque *o = wp_htp_opaque(p, &a.base);
  wp_htp_vec_push(p, ctx, &o);
  return 0;
}

int wp_htp_operand_aliasing(htp *p, Xla__Opaque ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  wp_htp_vec v = {(void **)out, n, 0, sizeof **out};
  return wp_htp_list(p, "{", "}", ",", 0, aliasing_item, &v);
}
