/* What XLA's parser does once an instruction's attributes are read: the
 * attributes an opcode requires, the called computations in the order XLA
 * stores them, and the fields XLA's parser and ToProto fill in where the
 * text leaves them out (feature_group_count=1, a dot's precision_config
 * ...). */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <string.h>

static bool is(const wp_htp_instr *ins, const char *opcode) {
  return !strcmp(ins->msg->opcode, opcode);
}

/* What XLA's parser requires per opcode ("attribute X is expected but not
 * seen"); several names in one string are alternatives (any one will do).
 * async-start's calls= is checked where the sugared form is known. */
static const struct {
  const char *opcode, *attrs[6];
} k_required[] = {
    {"all-gather", {"dimensions"}},
    {"all-gather-start", {"dimensions"}},
    {"all-reduce", {"to_apply"}},
    {"all-reduce-start", {"to_apply"}},
    {"batch-norm-grad", {"epsilon", "feature_index"}},
    {"batch-norm-inference", {"epsilon", "feature_index"}},
    {"batch-norm-training", {"epsilon", "feature_index"}},
    {"call", {"to_apply"}},
    {"collective-permute", {"source_target_pairs"}},
    {"collective-permute-start", {"source_target_pairs"}},
    {"compare", {"direction"}},
    {"concatenate", {"dimensions"}},
    {"convolution", {"dim_labels"}},
    {"custom-call", {"custom_call_target"}},
    {"domain", {"domain"}},
    {"dynamic-slice", {"dynamic_slice_sizes"}},
    {"fft", {"fft_type", "fft_length"}},
    {"fusion", {"kind", "calls"}},
    {"gather", {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
                "slice_sizes"}},
    {"get-dimension-size", {"dimensions"}},
    {"get-tuple-element", {"index"}},
    {"iota", {"iota_dimension"}},
    {"map", {"to_apply"}},
    {"pad", {"padding"}},
    {"reduce", {"to_apply", "dimensions"}},
    {"reduce-precision", {"exponent_bits", "mantissa_bits"}},
    {"reduce-scatter", {"to_apply", "dimensions"}},
    {"reduce-window", {"to_apply"}},
    {"reverse", {"dimensions"}},
    {"rng", {"distribution"}},
    {"rng-bit-generator", {"algorithm"}},
    {"rng-get-and-update-state", {"delta"}},
    {"scan", {"to_apply", "dimensions", "num_carries"}},
    {"scatter", {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                 "index_vector_dim", "to_apply"}},
    {"select-and-scatter", {"select", "scatter"}},
    {"set-dimension-size", {"dimensions"}},
    {"slice", {"slice"}},
    {"sort", {"dimensions", "to_apply"}},
    {"topk", {"k"}},
    {"transpose", {"dimensions"}},
    {"while", {"condition", "body"}},
};

static int required(htp *p, const wp_htp_instr *ins) {
  for (size_t i = 0; i < sizeof k_required / sizeof k_required[0]; i++) {
    if (!is(ins, k_required[i].opcode))
      continue;
    for (size_t k = 0; k < 6 && k_required[i].attrs[k]; k++)
      if (!wp_htp_given(ins, k_required[i].attrs[k]))
        return wp_htp_fail(p, ins->at, "%s: attribute %s is expected but not seen",
                           ins->msg->opcode, k_required[i].attrs[k]);
  }
  return 0;
}

static bool collective(const wp_htp_instr *ins) {
  static const char *const ops[] = {"all-reduce", "all-gather", "all-to-all", "reduce-scatter",
                                    "collective-broadcast", "all-reduce-start",
                                    "all-gather-start", "ragged-all-to-all",
                                    "collective-reduce"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (is(ins, ops[i]))
      return true;
  return false;
}

/* The called computations in the order XLA stores them. */
static int order_calls(htp *p, wp_htp_instr *ins) {
  const wp_htp_ref *single[] = {&ins->to_apply, &ins->body, &ins->condition, &ins->true_c,
                             &ins->false_c, &ins->select, &ins->scatter_c};
  size_t groups = (ins->to_apply.name != NULL) + (ins->body.name || ins->condition.name) +
                  (ins->true_c.name || ins->false_c.name) +
                  (ins->select.name || ins->scatter_c.name) + (ins->list_at != 0);
  if (groups > 1)
    return wp_htp_fail(p, ins->at, "instruction names its called computations in two ways");
  const struct { const wp_htp_ref *a, *b; const char *what; } pairs[] = {
      {&ins->body, &ins->condition, "body= and condition="},
      {&ins->true_c, &ins->false_c, "true_computation= and false_computation="},
      {&ins->select, &ins->scatter_c, "select= and scatter="}};
  for (size_t i = 0; i < 3; i++)
    if (!pairs[i].a->name != !pairs[i].b->name)
      return wp_htp_fail(p, ins->at, "%s go together", pairs[i].what);
  size_t n = ins->n_list, k = 0;
  for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
    n += single[i]->name != NULL;
  ins->called = wp_arena_alloc(p->arena, (n + 1) * sizeof *ins->called);
  for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
    if (single[i]->name)
      ins->called[k++] = *single[i];
  for (size_t i = 0; i < ins->n_list; i++)
    ins->called[k++] = ins->list[i];
  ins->n_called = n;
  return 0;
}

/* lower= is cholesky's option, or one of triangular-solve's. */
static void options(htp *p, wp_htp_instr *ins) {
  if ((ins->triangular || is(ins, "triangular-solve")) && ins->cholesky) {
    if (!ins->triangular)
      ins->triangular = wp_pb_new(p->arena, &xla__triangular_solve_options_view__descriptor);
    ins->triangular->lower = ins->cholesky->lower;
    ins->cholesky = NULL;
  }
  /* XLA's ToProto writes the options of these two opcodes always */
  if (is(ins, "triangular-solve") && !ins->triangular)
    ins->triangular = wp_pb_new(p->arena, &xla__triangular_solve_options_view__descriptor);
  if (is(ins, "cholesky") && !ins->cholesky)
    ins->cholesky = wp_pb_new(p->arena, &xla__cholesky_options_view__descriptor);
}

/* Defaults of convolutions, dots and custom calls. */
static void defaults(htp *p, wp_htp_instr *ins) {
  Xla__HloInstructionProto *m = ins->msg;
  if (is(ins, "convolution")) {
    if (!wp_htp_given(ins, "feature_group_count"))
      m->feature_group_count = 1;
    if (!wp_htp_given(ins, "batch_group_count"))
      m->batch_group_count = 1;
    if (!m->window)
      m->window = wp_pb_new(p->arena, &xla__opaque__descriptor);
  }
  if ((is(ins, "dot") || is(ins, "scaled-dot")) && !ins->dot)
    ins->dot = wp_pb_new(p->arena, &xla__dot_dimension_numbers_view__descriptor);
  if (is(ins, "ragged-dot") && !ins->ragged)
    ins->ragged = wp_pb_new(p->arena, &xla__ragged_dot_dimension_numbers_view__descriptor);
  if (!ins->precision && (is(ins, "dot") || is(ins, "convolution") || is(ins, "custom-call") ||
                          is(ins, "ragged-dot") || is(ins, "scaled-dot"))) {
    /* DEFAULT for each operand (a ragged dot's lhs and rhs, a scaled dot's two) */
    size_t n = is(ins, "ragged-dot") || is(ins, "scaled-dot") ? 2 : ins->n_operands;
    ins->precision = wp_pb_new(p->arena, &xla__precision_config_view__descriptor);
    ins->precision->n_operand_precision = n;
    ins->precision->operand_precision = wp_arena_alloc(p->arena, (n + 1) * sizeof(int32_t));
  }
  if ((is(ins, "reduce-window") || is(ins, "select-and-scatter")) && !m->window)
    m->window = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (is(ins, "custom-call")) {
    if (!wp_htp_given(ins, "api_version"))
      m->custom_call_api_version = 1; /* API_VERSION_ORIGINAL, XLA's default */
    if (!wp_htp_given(ins, "feature_group_count"))
      m->feature_group_count = 1;
    if (!wp_htp_given(ins, "batch_group_count"))
      m->batch_group_count = 1;
  }
  if (is(ins, "map") && !m->n_dimensions && m->shape) { /* XLA maps every dimension */
    size_t r = m->shape->n_dimensions;
    m->dimensions = wp_arena_alloc(p->arena, (r + 1) * sizeof(int64_t));
    for (size_t i = 0; i < r; i++)
      m->dimensions[i] = (int64_t)i;
    m->n_dimensions = r;
  }
  if (collective(ins) && !m->collective_device_list)
    m->collective_device_list = wp_pb_new(p->arena, &xla__opaque__descriptor);
}

/* The views several attributes filled, packed into their fields. */
static int pack(htp *p, wp_htp_instr *ins) {
  Xla__HloInstructionProto *m = ins->msg;
  if (ins->gather && ins->scatter)
    return wp_htp_fail(p, ins->at, "gather and scatter dimension numbers on one instruction");
  if (ins->has_index_vector_dim) { /* the dimension numbers it belongs to */
    if (ins->scatter || is(ins, "scatter"))
      ((Xla__ScatterDimensionNumbersView *)(ins->scatter ? ins->scatter
           : (ins->scatter = wp_pb_new(p->arena, &xla__scatter_dimension_numbers_view__descriptor))))
          ->index_vector_dim = ins->index_vector_dim;
    else
      ((Xla__GatherDimensionNumbersView *)(ins->gather ? ins->gather
           : (ins->gather = wp_pb_new(p->arena, &xla__gather_dimension_numbers_view__descriptor))))
          ->index_vector_dim = ins->index_vector_dim;
  }
  if (ins->ragged) { /* a ragged dot keeps its dot numbers inside */
    ins->ragged->dot_dimension_numbers =
        ins->dot ? ins->dot : wp_pb_new(p->arena, &xla__dot_dimension_numbers_view__descriptor);
    ins->dot = NULL;
    m->ragged_dot_dimension_numbers = wp_htp_opaque(p, &ins->ragged->base);
  }
  if (ins->dot)
    m->dot_dimension_numbers = wp_htp_opaque(p, &ins->dot->base);
  if (ins->gather)
    m->gather_dimension_numbers = wp_htp_opaque(p, &ins->gather->base);
  if (ins->scatter)
    m->scatter_dimension_numbers = wp_htp_opaque(p, &ins->scatter->base);
  if (ins->precision)
    m->precision_config = wp_htp_opaque(p, &ins->precision->base);
  if (ins->triangular)
    m->triangular_solve_options = wp_htp_opaque(p, &ins->triangular->base);
  if (ins->cholesky)
    m->cholesky_options = wp_htp_opaque(p, &ins->cholesky->base);
  return 0;
}

int wp_htp_instr_finish(htp *p, wp_htp_instr *ins) {
  Xla__HloInstructionProto *m = ins->msg;
  if (required(p, ins) || order_calls(p, ins))
    return -1;
  /* XLA's HloInstruction::ToProto writes these three always */
  if (!m->metadata)
    m->metadata = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (!m->frontend_attributes)
    m->frontend_attributes = wp_pb_new(p->arena, &xla__frontend_attributes__descriptor);
  if (!m->statistics_viz)
    m->statistics_viz = wp_pb_new(p->arena, &xla__opaque__descriptor);
  options(p, ins);
  defaults(p, ins);
  return pack(p, ins);
}
