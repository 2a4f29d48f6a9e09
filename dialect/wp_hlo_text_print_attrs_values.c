/* The printer's attributes with a syntax of their own that newer XLA
 * writes: a ragged dot's numbers, a custom call's literal=, cholesky and
 * triangular-solve options, domain=, statistics=, result_accuracy=,
 * origin=. Each prints as XLA's HloInstruction printers do and clears
 * its field in the instruction's REST copy. */
#include "wp_hlo_text_print_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest %g text that reads back to V (XLA prints six digits; a
 * value with more keeps them, so that text -> proto -> text holds). */
static void shortest(double v, char *buf, size_t cap) {
  for (int digits = 6; digits <= 17; digits++) {
    snprintf(buf, cap, "%.*g", digits, v);
    if (strtod(buf, NULL) == v)
      return;
  }
}

int wp_hpr_ragged_dot(hpr *w, Xla__HloInstructionProto *r) {
  Xla__RaggedDotDimensionNumbersView *v =
      wp_hpr_view(w, r->ragged_dot_dimension_numbers,
                  &xla__ragged_dot_dimension_numbers_view__descriptor, "ragged dot dims");
  if (!v)
    return -1;
  Xla__DotDimensionNumbersView empty = XLA__DOT_DIMENSION_NUMBERS_VIEW__INIT;
  if (wp_hpr_dot_numbers(w, r, v->dot_dimension_numbers ? v->dot_dimension_numbers : &empty))
    return -1;
  if (v->n_lhs_ragged_dimensions) {
    wp_hpr_puts(w, ", lhs_ragged_dims=");
    wp_hpr_int_list(w, v->lhs_ragged_dimensions, v->n_lhs_ragged_dimensions);
  }
  if (v->n_rhs_group_dimensions) {
    wp_hpr_puts(w, ", rhs_group_dims=");
    wp_hpr_int_list(w, v->rhs_group_dimensions, v->n_rhs_group_dimensions);
  }
  r->ragged_dot_dimension_numbers = NULL;
  return 0;
}

int wp_hpr_attr_literal(hpr *w, Xla__HloInstructionProto *r) {
  const Xla__ShapeProto *shape = r->literal->shape;
  if (!shape)
    return wp_hpr_fail(w, "instruction '%s': literal without a shape", r->name);
  wp_hpr_puts(w, ", literal=");
  if (wp_hpr_shape(w, shape, true))
    return -1;
  wp_hpr_puts(w, " ");
  if (wp_hpr_literal(w, r->literal, shape))
    return -1;
  r->literal = NULL;
  return 0;
}

/* XLA prints the options' fields that are set, in field order. */
int wp_hpr_solver_options(hpr *w, Xla__HloInstructionProto *r) {
  static const wp_hlo_text_enum transposes[] = {
      {"NO_TRANSPOSE", 1}, {"TRANSPOSE", 2}, {"ADJOINT", 3}, {NULL, 0}};
  if (r->triangular_solve_options) {
    Xla__TriangularSolveOptionsView *t =
        wp_hpr_view(w, r->triangular_solve_options,
                    &xla__triangular_solve_options_view__descriptor, "triangular_solve_options");
    if (!t)
      return -1;
    if (t->left_side)
      wp_hpr_puts(w, ", left_side=true");
    if (t->lower)
      wp_hpr_puts(w, ", lower=true");
    if (t->unit_diagonal)
      wp_hpr_puts(w, ", unit_diagonal=true");
    if (t->transpose_a) {
      const char *n = wp_hlo_text_enum_name(transposes, t->transpose_a);
      if (!n)
        return wp_hpr_fail(w, "transpose_a %d has no name", (int)t->transpose_a);
      wp_hpr_printf(w, ", transpose_a=%s", n);
    }
    r->triangular_solve_options = NULL;
  }
  if (r->cholesky_options) {
    Xla__CholeskyOptionsView *o = wp_hpr_view(w, r->cholesky_options,
                                              &xla__cholesky_options_view__descriptor,
                                              "cholesky_options");
    if (!o)
      return -1;
    if (o->lower)
      wp_hpr_puts(w, ", lower=true");
    r->cholesky_options = NULL;
  }
  return 0;
}

static int one_sharding(hpr *w, const Xla__Opaque *o) {
  if (!o) {
    wp_hpr_puts(w, "{}");
    return 0;
  }
  Xla__OpShardingView *s = wp_hpr_view(w, o, &xla__op_sharding_view__descriptor, "domain");
  return s ? wp_hpr_sharding(w, s, 0) : -1;
}

/* entry= is the user side (domain_exit_sharding), exit= the operand side */
int wp_hpr_domain(hpr *w, Xla__HloInstructionProto *r) {
  if (!r->domain_entry_sharding && !r->domain_exit_sharding)
    return 0;
  wp_hpr_puts(w, ", domain={kind=\"sharding\", entry=");
  if (one_sharding(w, r->domain_exit_sharding))
    return -1;
  wp_hpr_puts(w, ", exit=");
  if (one_sharding(w, r->domain_entry_sharding))
    return -1;
  wp_hpr_puts(w, "}");
  r->domain_entry_sharding = r->domain_exit_sharding = NULL;
  return 0;
}

int wp_hpr_statistics(hpr *w, Xla__HloInstructionProto *r) {
  if (!r->statistics_viz)
    return 0;
  Xla__StatisticsVizView *v = wp_hpr_view(w, r->statistics_viz,
                                          &xla__statistics_viz_view__descriptor, "statistics");
  if (!v)
    return -1;
  if (v->n_statistics) {
    wp_hpr_printf(w, ", statistics={visualizing_index=%lld", (long long)v->stat_index_to_visualize);
    for (size_t i = 0; i < v->n_statistics; i++) {
      char buf[48];
      shortest(v->statistics[i]->stat_val, buf, sizeof buf);
      wp_hpr_printf(w, ",%s=%s", v->statistics[i]->stat_name, buf);
    }
    wp_hpr_puts(w, "}");
  } else if (v->stat_index_to_visualize) {
    return 0; /* XLA prints no index without statistics: left for the warning */
  }
  r->statistics_viz = NULL; /* XLA writes an empty one; reading does too */
  return 0;
}

int wp_hpr_result_accuracy(hpr *w, Xla__HloInstructionProto *r) {
  if (!r->result_accuracy)
    return 0;
  Xla__ResultAccuracyView *v = wp_hpr_view(w, r->result_accuracy,
                                           &xla__result_accuracy_view__descriptor,
                                           "result_accuracy");
  if (!v)
    return -1;
  if (v->specs_case == XLA__RESULT_ACCURACY_VIEW__SPECS_MODE && v->mode) {
    if (v->mode != 1)
      return wp_hpr_fail(w, "result_accuracy mode %d has no name", (int)v->mode);
    wp_hpr_puts(w, ", result_accuracy={mode=highest}");
  } else if (v->specs_case == XLA__RESULT_ACCURACY_VIEW__SPECS_TOLERANCE && v->tolerance) {
    char atol[48], rtol[48];
    shortest(v->tolerance->atol, atol, sizeof atol);
    shortest(v->tolerance->rtol, rtol, sizeof rtol);
    wp_hpr_printf(w, ", result_accuracy={tolerance={atol=%s,rtol=%s,ulps=%lld}}", atol, rtol,
                  (long long)v->tolerance->ulps);
  }
  r->result_accuracy = NULL;
  return 0;
}

/* The original array at shape index INDEX, or {} */
static void origin_leaf(hpr *w, const Xla__OriginalValueView *v, const int64_t *index,
                        size_t depth) {
  for (size_t i = 0; i < v->n_elements; i++) {
    const Xla__OriginalValueElementView *e = v->elements[i];
    if (e->n_shape_index != depth || !e->original_array ||
        (depth && memcmp(e->shape_index, index, depth * sizeof *index)))
      continue;
    const Xla__OriginalArrayView *a = e->original_array;
    wp_hpr_puts(w, "{");
    wp_hpr_string(w, a->instruction_name, strlen(a->instruction_name));
    if (a->n_shape_index) {
      wp_hpr_puts(w, " ");
      wp_hpr_int_list(w, a->shape_index, a->n_shape_index);
    }
    wp_hpr_puts(w, "}");
    return;
  }
  wp_hpr_puts(w, "{}");
}

static int origin_tree(hpr *w, const Xla__OriginalValueView *v, const Xla__ShapeProto *s,
                       int64_t *index, size_t depth) {
  if (depth >= 64)
    return wp_hpr_fail(w, "origin nested too deep");
  if (s->element_type != 13 /* TUPLE */) {
    origin_leaf(w, v, index, depth);
    return 0;
  }
  wp_hpr_puts(w, "(");
  for (size_t i = 0; i < s->n_tuple_shapes; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    index[depth] = (int64_t)i;
    if (origin_tree(w, v, s->tuple_shapes[i], index, depth + 1))
      return -1;
  }
  wp_hpr_puts(w, ")");
  return 0;
}

int wp_hpr_origin(hpr *w, Xla__HloInstructionProto *r) {
  if (!r->original_value)
    return 0;
  Xla__OriginalValueView *v = wp_hpr_view(w, r->original_value,
                                          &xla__original_value_view__descriptor, "origin");
  if (!v)
    return -1;
  int64_t index[64];
  wp_hpr_puts(w, ", origin={");
  if (v->is_synthetic_call)
    wp_hpr_puts(w, "[synthetic_call]");
  else if (origin_tree(w, v, r->shape, index, 0))
    return -1;
  wp_hpr_puts(w, "}");
  r->original_value = NULL;
  return 0;
}
