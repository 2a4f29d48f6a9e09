/* The attribute values with a syntax of their own: window={size=3x3
 * pad=1_1x1_1}, dim_labels=b01f_01io->b01f, padding=0_0x1_1_1,
 * slice={[0:2:1]}, output_to_operand_aliasing={{0}: (1, {})}. */
#include "wp_hlo_text_internal.h"

#include "wp_pb.h"

#include <ctype.h>
#include <string.h>

/* 3x3x1: integers joined by 'x' (no blank before an 'x'). */
static int dxd(htp *p, int64_t **v, size_t *n) {
  size_t cap = 0;
  *v = NULL;
  *n = 0;
  for (;;) {
    int64_t x;
    if (wp_htp_int(p, &x))
      return -1;
    WP_HTP_PUSH(p, *v, *n, cap, x);
    if (p->pos >= p->len || p->src[p->pos] != 'x')
      return 0;
    p->pos++;
  }
}

/* 1_1x0_2 (and with INTERIOR, 1_1_0x0_2_1): groups of 2 or 3 integers. */
static int pads(htp *p, int64_t **v, size_t *n, int per, bool interior_optional) {
  size_t cap = 0;
  *v = NULL;
  *n = 0;
  for (;;) {
    for (int k = 0; k < per; k++) {
      int64_t x = 0;
      if (k > 0) {
        if (p->pos >= p->len || p->src[p->pos] != '_') {
          if (k == per - 1 && interior_optional) {
            WP_HTP_PUSH(p, *v, *n, cap, x);
            continue;
          }
          return wp_htp_fail(p, p->pos, "expected '_' in padding low_high%s",
                          per == 3 ? "_interior" : "");
        }
        p->pos++;
      }
      if (wp_htp_int(p, &x))
        return -1;
      WP_HTP_PUSH(p, *v, *n, cap, x);
    }
    if (p->pos >= p->len || p->src[p->pos] != 'x')
      return 0;
    p->pos++;
  }
}

int wp_htp_window(htp *p, Xla__Opaque **out) {
  static const char *const keys[] = {"size", "stride", "pad", "lhs_dilate", "rhs_dilate",
                                     "rhs_reversal"};
  int64_t *vals[6] = {0};
  size_t counts[6] = {0}, at[6] = {0};
  if (wp_htp_expect(p, "{"))
    return -1;
  while (wp_htp_peek(p) != '}') {
    wp_htp_skip(p);
    size_t kat = p->pos;
    const char *s;
    size_t n = wp_htp_ident(p, &s), k;
    for (k = 0; k < 6; k++)
      if (strlen(keys[k]) == n && !memcmp(keys[k], s, n))
        break;
    if (k == 6)
      return wp_htp_fail(p, kat, "unknown window part '%.*s' (size, stride, pad, lhs_dilate, "
                              "rhs_dilate, rhs_reversal)", (int)n, s);
    if (at[k])
      return wp_htp_fail(p, kat, "window part '%s' given twice", keys[k]);
    at[k] = kat + 1;
    if (wp_htp_expect(p, "="))
      return -1;
    if (k == 2 ? pads(p, &vals[k], &counts[k], 2, false) : dxd(p, &vals[k], &counts[k]))
      return -1;
    if (k == 2)
      counts[k] /= 2;
    wp_htp_accept(p, ","); /* XLA separates them with blanks; a comma is harmless */
  }
  wp_htp_expect(p, "}");
  if (p->failed)
    return -1;
  size_t rank = counts[0];
  for (size_t k = 1; k < 6; k++)
    if (at[k] && (!at[0] || counts[k] != rank))
      return wp_htp_fail(p, at[k] - 1, "window %s has %zu dimensions, size has %zu", keys[k],
                      counts[k], rank);
  Xla__WindowView w = XLA__WINDOW_VIEW__INIT;
  w.n_dimensions = rank;
  w.dimensions = wp_arena_alloc(p->arena, (rank + 1) * sizeof *w.dimensions);
  for (size_t i = 0; i < rank; i++) {
    Xla__WindowDimensionView *d = wp_pb_new(p->arena, &xla__window_dimension_view__descriptor);
    /* what XLA's parser sets where a part is not written */
    d->size = vals[0][i];
    d->stride = at[1] ? vals[1][i] : 1;
    d->padding_low = at[2] ? vals[2][2 * i] : 0;
    d->padding_high = at[2] ? vals[2][2 * i + 1] : 0;
    d->base_dilation = at[3] ? vals[3][i] : 1;
    d->window_dilation = at[4] ? vals[4][i] : 1;
    if (at[5] && vals[5][i] != 0 && vals[5][i] != 1)
      return wp_htp_fail(p, at[5] - 1, "rhs_reversal takes 0 or 1 per dimension");
    d->window_reversal = at[5] && vals[5][i];
    w.dimensions[i] = d;
  }
  *out = wp_htp_opaque(p, &w.base);
  return 0;
}

/* One side of dim_labels: the position of each letter in LETTERS (two of
 * them) and of each spatial digit. */
static int labels(htp *p, size_t at, const char *s, size_t n, const char *letters,
                  int64_t *first, int64_t *second, int64_t **spatial, size_t *n_spatial) {
  if (n < 2)
    return wp_htp_fail(p, at, "dim_labels part '%.*s' needs '%c', '%c' and spatial digits",
                    (int)n, s, letters[0], letters[1]);
  *first = *second = -1;
  *n_spatial = n - 2;
  *spatial = wp_arena_alloc(p->arena, n * sizeof **spatial);
  for (size_t i = 0; i < n - 2; i++)
    (*spatial)[i] = -1;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int64_t *slot = c == letters[0]                        ? first
                    : c == letters[1]                      ? second
                    : c >= '0' && (size_t)(c - '0') < n - 2 ? &(*spatial)[c - '0']
                                                           : NULL;
    if (!slot || *slot != -1)
      return wp_htp_fail(p, at + i, "dim_labels '%.*s': '%c' is %s", (int)n, s, c,
                      slot ? "given twice" : "not a label here");
    *slot = (int64_t)i;
  }
  return 0;
}

int wp_htp_dim_labels(htp *p, Xla__Opaque **out) {
  wp_htp_skip(p);
  size_t at = p->pos, i = at;
  while (i < p->len && (isalnum((unsigned char)p->src[i]) || p->src[i] == '_' ||
                        p->src[i] == '-' || p->src[i] == '>'))
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

int wp_htp_slice(htp *p, Xla__Opaque ***out, size_t *n) {
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    Xla__SliceDimensionsView s = XLA__SLICE_DIMENSIONS_VIEW__INIT;
    s.stride = 1; /* XLA writes the stride it defaults to */
    if (wp_htp_expect(p, "[") || wp_htp_int(p, &s.start) || wp_htp_expect(p, ":") ||
        wp_htp_int(p, &s.limit))
      return -1;
    if (wp_htp_accept(p, ":") && wp_htp_int(p, &s.stride))
      return -1;
    if (wp_htp_expect(p, "]"))
      return -1;
    WP_HTP_PUSH(p, *out, *n, cap, wp_htp_opaque(p, &s.base));
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}

int wp_htp_operand_aliasing(htp *p, Xla__Opaque ***out, size_t *n) {
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    Xla__OutputOperandAliasingView a = XLA__OUTPUT_OPERAND_ALIASING_VIEW__INIT;
    if (wp_htp_shape_index(p, &a.output_shape_index, &a.n_output_shape_index) ||
        wp_htp_expect(p, ":") || wp_htp_expect(p, "(") || wp_htp_int(p, &a.operand_index) ||
        wp_htp_expect(p, ",") ||
        wp_htp_shape_index(p, &a.operand_shape_index, &a.n_operand_shape_index) ||
        wp_htp_expect(p, ")"))
      return -1;
    WP_HTP_PUSH(p, *out, *n, cap, wp_htp_opaque(p, &a.base));
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}
