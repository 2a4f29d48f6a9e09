/* Elementwise ops: unary, binary (compare too), select, clamp and the
 * conversions, as XLA's ShapeInference infers them and its ShapeVerifier
 * compares the result. */
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_types.h"

#include <string.h>

enum unary_rule {
  U_SAME,          /* copy: any shape, passed through */
  U_FLOAT,         /* floor, ceil, rounding */
  U_FLOAT_COMPLEX, /* transcendental functions */
  U_COMPONENT,     /* real, imag */
  U_ABS,
  U_CLZ,
  U_NEGATE,
  U_POPCNT,
  U_SIGN,
  U_NOT,
  U_IS_FINITE,
};

static const struct {
  const char *opcode;
  enum unary_rule rule;
} unary_ops[] = {
    {"copy", U_SAME},
    {"floor", U_FLOAT},
    {"ceil", U_FLOAT},
    {"round-nearest-afz", U_FLOAT},
    {"round-nearest-even", U_FLOAT},
    {"cosine", U_FLOAT_COMPLEX},
    {"sine", U_FLOAT_COMPLEX},
    {"tan", U_FLOAT_COMPLEX},
    {"exponential", U_FLOAT_COMPLEX},
    {"exponential-minus-one", U_FLOAT_COMPLEX},
    {"log", U_FLOAT_COMPLEX},
    {"log-plus-one", U_FLOAT_COMPLEX},
    {"logistic", U_FLOAT_COMPLEX},
    {"rsqrt", U_FLOAT_COMPLEX},
    {"sqrt", U_FLOAT_COMPLEX},
    {"cbrt", U_FLOAT_COMPLEX},
    {"tanh", U_FLOAT_COMPLEX},
    {"erf", U_FLOAT_COMPLEX},
    {"acos", U_FLOAT_COMPLEX},
    {"acosh", U_FLOAT_COMPLEX},
    {"asin", U_FLOAT_COMPLEX},
    {"asinh", U_FLOAT_COMPLEX},
    {"atanh", U_FLOAT_COMPLEX},
    {"cosh", U_FLOAT_COMPLEX},
    {"sinh", U_FLOAT_COMPLEX},
    {"real", U_COMPONENT},
    {"imag", U_COMPONENT},
    {"abs", U_ABS},
    {"count-leading-zeros", U_CLZ},
    {"clz", U_CLZ},
    {"negate", U_NEGATE},
    {"popcnt", U_POPCNT},
    {"sign", U_SIGN},
    {"not", U_NOT},
    {"is-finite", U_IS_FINITE},
};

/* The real type of a complex one. */
static int component_type(int t) { return t == WP_C128 ? WP_F64 : WP_F32; }

static int with_type(wp_hv *v, const Xla__ShapeProto *s, int type, const Xla__ShapeProto **out) {
  *out = wp_hv_make(v, type, s->dimensions, s->n_dimensions);
  return 0;
}

/* ShapeInference::InferUnaryOpShape. */
static int infer_unary(wp_hv *v, const char *op, enum unary_rule rule,
                       const Xla__ShapeProto *s, const Xla__ShapeProto **out) {
  *out = s;
  if (rule == U_SAME)
    return 0;
  if (!wp_hv_is_array(s))
    return wp_hv_fail(v, "Expected array argument for operand of unary operation, but got %s.",
                      wp_hv_str(v, s, false));
  int t = s->element_type;
  const char *tn = wp_hv_type_name(t);
  bool fl = wp_hv_is_float(t), cx = wp_hv_is_complex(t), in = wp_hv_is_integral(t);
  switch (rule) {
  case U_FLOAT:
    if (!fl)
      return wp_hv_fail(v, "Expected element type in shape to be floating for %s operation; "
                        "got %s.", op, tn);
    return 0;
  case U_FLOAT_COMPLEX:
    if (!fl && !cx)
      return wp_hv_fail(v, "Expected element type in shape to be floating or complex for %s "
                        "operation; got %s.", op, tn);
    return 0;
  case U_COMPONENT:
  case U_ABS:
    if (cx)
      return with_type(v, s, component_type(t), out);
    if (fl || (rule == U_ABS && wp_hv_is_signed_int(t)))
      return 0;
    return wp_hv_fail(v, "Expected element type in shape to be floating or complex for %s "
                      "operation; got %s.", op, tn);
  case U_CLZ:
  case U_POPCNT:
    if (!in)
      return wp_hv_fail(v, "Expected an integral element type in argument to %s operation; "
                        "got %s.", rule == U_CLZ ? "Clz" : "PopulationCount", tn);
    return 0;
  case U_NEGATE:
    if (!in && !fl && !cx)
      return wp_hv_fail(v, "Expected element type in shape to be integral, floating or complex "
                        "for %s operation; got %s.", op, tn);
    return 0;
  case U_SIGN:
    if (!wp_hv_is_signed_int(t) && !fl && !cx)
      return wp_hv_fail(v, "Expected element type in shape to be signed or complex for %s "
                        "operation; got %s.", op, tn);
    return 0;
  case U_NOT:
    if (t != WP_PRED && !in)
      return wp_hv_fail(v, "Expected pred or an integral element type in argument to Not "
                        "operation; got %s.", tn);
    return 0;
  case U_IS_FINITE:
    if (!fl)
      return wp_hv_fail(v, "Expected element type in shape to be floating point for IsFinite "
                        "operation; got %s.", tn);
    return with_type(v, s, WP_PRED, out);
  default:
    return 0;
  }
}

static int check_unary(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  for (size_t i = 0; i < sizeof unary_ops / sizeof unary_ops[0]; i++) {
    if (!wp_hv_opcode_is(in->ins->opcode, unary_ops[i].opcode))
      continue;
    *handled = true;
    const Xla__ShapeProto *inferred = NULL;
    if (wp_hv_operand_count(v, in, 1) ||
        infer_unary(v, in->ins->opcode, unary_ops[i].rule, in->ops[0]->shape, &inferred))
      return -1;
    return wp_hv_check_shape(v, in, inferred, false);
  }
  return 0;
}

/* Degenerate-dimension broadcasting of two arrays of one rank. */
static int broadcast_degenerate(wp_hv *v, const char *op, const Xla__ShapeProto *a,
                                const Xla__ShapeProto *b, const Xla__ShapeProto **out) {
  Xla__ShapeProto *r = wp_hv_make(v, a->element_type, a->dimensions, a->n_dimensions);
  for (size_t i = 0; i < a->n_dimensions; i++) {
    int64_t x = a->dimensions[i], y = b->dimensions[i];
    if (x == y || y == 1)
      r->dimensions[i] = x;
    else if (x == 1)
      r->dimensions[i] = y;
    else
      return wp_hv_fail(v, "Binary op %s with incompatible shapes: %s and %s.", op,
                        wp_hv_str(v, a, false), wp_hv_str(v, b, false));
  }
  *out = r;
  return 0;
}

/* ShapeInference::InferElementwiseBinaryOpShape without broadcast
 * dimensions (HLO has none): equal shapes, degenerate dimensions, or a
 * scalar against an array. */
static int infer_binary_elementwise(wp_hv *v, const char *op, const Xla__ShapeProto *a,
                                    const Xla__ShapeProto *b, const Xla__ShapeProto **out) {
  if (!wp_hv_same_type(a->element_type, b->element_type, true))
    return wp_hv_fail(v, "Binary op %s with different element types: %s and %s.", op,
                      wp_hv_str(v, a, false), wp_hv_str(v, b, false));
  if (wp_hv_compatible(a, b, true)) {
    *out = a;
    return 0;
  }
  if (a->n_dimensions == b->n_dimensions)
    return broadcast_degenerate(v, op, a, b, out);
  const Xla__ShapeProto *large = a->n_dimensions > b->n_dimensions ? a : b;
  const Xla__ShapeProto *small = large == a ? b : a;
  if (small->n_dimensions != 0)
    return wp_hv_fail(v, "Shapes must be equal rank, but are %s and %s",
                      wp_hv_str(v, small, false), wp_hv_str(v, large, false));
  *out = large;
  return 0;
}

enum binary_rule { B_ANY, B_NO_PRED, B_COMPLEX, B_LOGICAL, B_COMPARE };

static const struct {
  const char *opcode;
  enum binary_rule rule;
} binary_ops[] = {
    {"add", B_ANY},           {"maximum", B_ANY},
    {"minimum", B_ANY},       {"multiply", B_ANY},
    {"subtract", B_NO_PRED},  {"atan2", B_NO_PRED},
    {"power", B_NO_PRED},     {"divide", B_NO_PRED},
    {"remainder", B_NO_PRED}, {"shift-left", B_NO_PRED},
    {"shift-right-arithmetic", B_NO_PRED},
    {"shift-right-logical", B_NO_PRED},
    {"complex", B_COMPLEX},   {"and", B_LOGICAL},
    {"or", B_LOGICAL},        {"xor", B_LOGICAL},
    {"compare", B_COMPARE},
};

/* ShapeInference::InferBinaryOpShape. */
static int infer_binary(wp_hv *v, const char *op, enum binary_rule rule,
                        const Xla__ShapeProto *a, const Xla__ShapeProto *b,
                        const Xla__ShapeProto **out) {
  if (!wp_hv_is_array(a))
    return wp_hv_fail(v, "Expected array argument for lhs of binary operation %s, but got %s.",
                      op, wp_hv_str(v, a, false));
  if (!wp_hv_is_array(b))
    return wp_hv_fail(v, "Expected array argument for rhs of binary operation %s, but got %s.",
                      op, wp_hv_str(v, b, false));
  int ta = a->element_type;
  if (rule == B_NO_PRED && (ta == WP_PRED || b->element_type == WP_PRED))
    return wp_hv_fail(v, "Expected element type in shape to be arithmetic type for operation "
                      "%s; got PRED.", op);
  if (rule == B_COMPLEX && !wp_hv_is_float(ta))
    return wp_hv_fail(v, "Expected element type in shape to be floating for complex compose "
                      "operation; got %s.", wp_hv_type_name(ta));
  if (rule == B_LOGICAL && ta != WP_PRED && !wp_hv_is_integral(ta))
    return wp_hv_fail(v, "Expected pred or integral type in argument to and/or operation; "
                      "got %s.", wp_hv_type_name(ta));
  const Xla__ShapeProto *s = a;
  if (infer_binary_elementwise(v, op, a, b, &s))
    return -1;
  *out = s;
  if (rule == B_COMPARE)
    return with_type(v, s, WP_PRED, out);
  if (rule == B_COMPLEX) {
    if (ta == WP_F32 && b->element_type == WP_F32)
      return with_type(v, s, WP_C64, out);
    if (ta == WP_F64 && b->element_type == WP_F64)
      return with_type(v, s, WP_C128, out);
    return wp_hv_fail(v, "Complex component type is not implemented.");
  }
  return 0;
}

static int check_binary(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++) {
    if (!wp_hv_opcode_is(in->ins->opcode, binary_ops[i].opcode))
      continue;
    *handled = true;
    const Xla__ShapeProto *inferred = NULL;
    if (wp_hv_operand_count(v, in, 2) ||
        infer_binary(v, in->ins->opcode, binary_ops[i].rule, in->ops[0]->shape,
                     in->ops[1]->shape, &inferred))
      return -1;
    return wp_hv_check_shape(v, in, inferred, false);
  }
  return 0;
}

static int expect_array(wp_hv *v, const Xla__ShapeProto *s, const char *what) {
  if (wp_hv_is_array(s))
    return 0;
  return wp_hv_fail(v, "Expected array argument for %s, but got %s.", what,
                    wp_hv_str(v, s, false));
}

/* ShapeInference::InferSelectShape. */
static int check_select(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 3))
    return -1;
  const Xla__ShapeProto *p = in->ops[0]->shape, *t = in->ops[1]->shape, *f = in->ops[2]->shape;
  if (expect_array(v, p, "select pred") || expect_array(v, t, "select on-true") ||
      expect_array(v, f, "select on-false"))
    return -1;
  if (!wp_hv_compatible(t, f, true))
    return wp_hv_fail(v, "Operands to select must be the same shape; got %s and %s.",
                      wp_hv_str(v, t, false), wp_hv_str(v, f, false));
  if (p->element_type != WP_PRED)
    return wp_hv_fail(v, "Select's pred operand must have PRED element type; got %s.",
                      wp_hv_str(v, p, false));
  if (!wp_hv_same_dims(p, t))
    return wp_hv_fail(v, "Operands to select and predicate must be the same shape; got %s "
                      "and %s.", wp_hv_str(v, t, false), wp_hv_str(v, p, false));
  return wp_hv_check_shape(v, in, t, false);
}

/* ShapeInference::InferClampShape: min and max as the operand, or scalars. */
static int check_clamp(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 3))
    return -1;
  const Xla__ShapeProto *lo = in->ops[0]->shape, *x = in->ops[1]->shape, *hi = in->ops[2]->shape;
  if (expect_array(v, lo, "clamp min") || expect_array(v, x, "clamp operand") ||
      expect_array(v, hi, "clamp max"))
    return -1;
  if (!wp_hv_same_type(lo->element_type, x->element_type, true) ||
      !wp_hv_same_type(hi->element_type, x->element_type, true) ||
      lo->element_type != hi->element_type)
    return wp_hv_fail(v, "Clamp op with different element types: %s, %s, %s.",
                      wp_hv_str(v, lo, false), wp_hv_str(v, x, false), wp_hv_str(v, hi, false));
  if (!(wp_hv_compatible(lo, x, true) || lo->n_dimensions == 0) ||
      !(wp_hv_compatible(hi, x, true) || hi->n_dimensions == 0))
    return wp_hv_fail(v, "Clamp with incompatible shapes: %s, %s, %s.", wp_hv_str(v, lo, false),
                      wp_hv_str(v, x, false), wp_hv_str(v, hi, false));
  return wp_hv_check_shape(v, in, x, false);
}

/* ShapeInference::InferBitcastConvertShape. */
static int check_bitcast_convert(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  int from = s->element_type, to = in->shape->element_type;
  if (wp_hv_is_complex(from) != wp_hv_is_complex(to))
    return wp_hv_fail(v, "Conversion between complex and real type %s => %s.",
                      wp_hv_str(v, s, false), wp_hv_type_name(to));
  if (!wp_hv_is_array(s) || !wp_hv_is_array_type(to))
    return wp_hv_fail(v, "Cannot convert from or to tuple type; requested conversion: %s => %s.",
                      wp_hv_str(v, s, false), wp_hv_type_name(to));
  int wi = wp_hv_bit_width(from), wo = wp_hv_bit_width(to);
  int hi = wi > wo ? wi : wo, lo = wi > wo ? wo : wi;
  if (hi % lo)
    return wp_hv_fail(v, "Cannot bitcast types with undivisible bit-widths: %s => %s.",
                      wp_hv_type_name(from), wp_hv_type_name(to));
  int64_t ratio = hi / lo;
  size_t r = s->n_dimensions;
  Xla__ShapeProto *out = wp_hv_make(v, to, s->dimensions, r);
  if (wi > wo) { /* one more, minor dimension */
    out = wp_hv_make(v, to, s->dimensions, r + 1);
    out->dimensions[r] = ratio;
    out->n_dimensions = r + 1;
  } else if (wi < wo) {
    if (r < 1 || s->dimensions[r - 1] != ratio)
      return wp_hv_fail(v, "Last dimension of input shape=%lld is not equal to ratio of "
                        "bit-widths=%lld for bitcast-convert from %s to %s",
                        r ? (long long)s->dimensions[r - 1] : 0LL, (long long)ratio,
                        wp_hv_str(v, s, false), wp_hv_type_name(to));
    out->n_dimensions = r - 1;
  }
  return wp_hv_check_shape(v, in, out, false);
}

/* convert, bitcast-convert, reduce-precision. */
static int check_conversion(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  const char *op = in->ins->opcode;
  if (!strcmp(op, "bitcast-convert")) {
    *handled = true;
    return check_bitcast_convert(v, in);
  }
  bool convert = !strcmp(op, "convert"), precision = !strcmp(op, "reduce-precision");
  if (!convert && !precision)
    return 0;
  *handled = true;
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  if (precision) {
    if (!wp_hv_is_float(s->element_type))
      return wp_hv_fail(v, "Expected element type in shape to be floating point for "
                        "ReducePrecision operation; got %s.", wp_hv_type_name(s->element_type));
    return wp_hv_check_shape(v, in, s, false);
  }
  int to = in->shape->element_type;
  if (!wp_hv_is_array(s) || !wp_hv_is_array_type(to))
    return wp_hv_fail(v, "Convert does not allow non-arrays, so cannot convert from %s to %s.",
                      wp_hv_str(v, s, false), wp_hv_type_name(to));
  return wp_hv_check_shape(v, in, wp_hv_make(v, to, s->dimensions, s->n_dimensions), true);
}

int wp_hv_check_elementwise(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  const char *op = in->ins->opcode;
  if (!strcmp(op, "select")) {
    *handled = true;
    return check_select(v, in);
  }
  if (!strcmp(op, "clamp")) {
    *handled = true;
    return check_clamp(v, in);
  }
  int rc = check_unary(v, in, handled);
  if (rc || *handled)
    return rc;
  rc = check_binary(v, in, handled);
  if (rc || *handled)
    return rc;
  return check_conversion(v, in, handled);
}
