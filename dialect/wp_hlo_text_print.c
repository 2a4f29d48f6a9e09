/* HloModuleProto -> HLO text, in the style of XLA's HloModule::ToString:
 * `%name = shape opcode(shape %operand, ...), attributes`, computations
 * with their signatures, the entry marked ENTRY. What the text cannot
 * carry (ids, empty submessages XLA writes anyway, program shapes it
 * derives) is left out on purpose; any other field left out is reported
 * through the warning callback. */
#include "wp_hlo_text.h"

#include "wp_hlo_text_async.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_text_print_internal.h"
#include "wp_hlo_text_module.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

static void reserve(hpr *w, size_t more) {
  if (w->len + more + 1 <= w->cap)
    return;
  size_t cap = w->cap ? w->cap : 4096;
  while (cap < w->len + more + 1)
    cap *= 2;
  w->buf = wp_xrealloc(w->buf, cap);
  w->cap = cap;
}

void wp_hpr_putn(hpr *w, const char *s, size_t n) {
  reserve(w, n);
  memcpy(w->buf + w->len, s, n);
  w->len += n;
  w->buf[w->len] = 0;
}

void wp_hpr_puts(hpr *w, const char *s) { wp_hpr_putn(w, s, strlen(s)); }

void wp_hpr_printf(hpr *w, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof small) {
    wp_hpr_putn(w, small, (size_t)n);
    return;
  }
  reserve(w, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(w->buf + w->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  w->len += (size_t)n;
}

void wp_hpr_warn(hpr *w, const char *fmt, ...) {
  if (!w->warn)
    return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  w->warn(w->user, msg);
}

int wp_hpr_flush(hpr *w, bool force) {
  if (w->failed)
    return -1;
  if (!w->len || (!force && w->len < WP_HPR_PIECE))
    return 0;
  if (w->sink && w->sink(w->sink_user, w->buf, w->len, w->err)) {
    w->failed = true; /* the sink's error stands */
    return -1;
  }
  w->len = 0;
  w->buf[0] = 0;
  return 0;
}

int wp_hpr_fail(hpr *w, const char *fmt, ...) {
  if (w->failed)
    return -1;
  w->failed = true;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return wp_error_set(w->err, "HLO text: %s", msg);
}

/* ---- what is left out ---- */

void wp_hpr_leftover(hpr *w, const ProtobufCMessage *rest, const char *what) {
  ProtobufCBinaryData b = wp_pb_pack(w->arena, rest);
  const uint8_t *p = b.data, *end = b.data + b.len;
  char fields[256] = "";
  size_t n = 0;
  uint64_t last = 0;
  while (p < end) {
    uint64_t tag;
    const uint8_t *payload;
    size_t plen;
    if (wp_pb_next_field(&p, end, &tag, &payload, &plen))
      break;
    if ((tag >> 3) == last) /* one mention per field */
      continue;
    last = tag >> 3;
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field(rest->descriptor, (unsigned)last);
    n += (size_t)snprintf(fields + n, n < sizeof fields ? sizeof fields - n : 0, "%s%llu%s%s%s",
                          n ? ", " : "", (unsigned long long)last, fd ? " (" : "",
                          fd ? fd->name : "", fd ? ")" : "");
    if (n >= sizeof fields)
      n = sizeof fields - 1;
  }
  if (b.len)
    wp_hpr_warn(w, "%s: field%s %s ha%s no HLO text form; not printed", what,
             strchr(fields, ',') ? "s" : "", fields, strchr(fields, ',') ? "ve" : "s");
}

/* ---- instructions and computations ---- */

/* HIDDEN: the computations of async ops printed sugared. */
static int instruction(hpr *w, const wp_hpr_comp *c, const Xla__HloInstructionProto *m,
                       const wp_i64map *hidden) {
  Xla__HloInstructionProto r = *m;
  const Xla__HloComputationProto *wrapped = wp_hpr_async_sugar(w, hidden, c, m);
  wp_hpr_puts(w, "  ");
  if (m->id == c->msg->root_id)
    wp_hpr_puts(w, "ROOT ");
  wp_hpr_name(w, m->name, true);
  wp_hpr_puts(w, " = ");
  if (!m->shape)
    return wp_hpr_fail(w, "instruction '%s' has no shape", m->name);
  if (wp_hpr_shape(w, m->shape, true))
    return -1;
  if (wrapped) { /* XLA's sugar: the wrapped opcode, -start, -update or -done */
    const char *op = "";
    for (size_t i = 0; i < wrapped->n_instructions; i++)
      if (wrapped->instructions[i]->id == wrapped->root_id)
        op = wrapped->instructions[i]->opcode;
    wp_hpr_printf(w, " %s%s(", op, m->opcode + strlen("async"));
  } else {
    wp_hpr_printf(w, " %s(", m->opcode);
  }
  if (!strcmp(m->opcode, "constant")) { /* without a literal: {...} */
    if (wp_hpr_literal(w, m->literal, m->shape))
      return -1;
    r.literal = NULL;
  } else if (!strcmp(m->opcode, "parameter")) {
    wp_hpr_printf(w, "%lld", (long long)m->parameter_number);
    r.parameter_number = 0;
  }
  if (strcmp(m->opcode, "parameter") != 0) {
    for (size_t i = 0; i < m->n_operand_ids; i++) {
      const Xla__HloInstructionProto *o = wp_hpr_instr(c, m->operand_ids[i]);
      if (!o)
        return wp_hpr_fail(w, "instruction '%s': operand id %lld is not in computation '%s'",
                        m->name, (long long)m->operand_ids[i], c->msg->name);
      if (i)
        wp_hpr_puts(w, ", ");
      if (i && i % 5 == 0) /* XLA marks every fifth operand's position */
        wp_hpr_printf(w, "/*index=%zu*/", i);
      if (wp_hpr_shape(w, o->shape, true))
        return -1;
      wp_hpr_puts(w, " ");
      wp_hpr_name(w, o->name, true);
    }
  }
  wp_hpr_puts(w, ")");
  wp_hpr_async_chain_implied(c, &r);
  /* they read the operands (a compare's type, a conditional's form) */
  if (wrapped && !strcmp(m->opcode, "async-start") ? wp_hpr_async_start_attrs(w, c, &r, wrapped)
                                                   : wp_hpr_attrs(w, c, &r))
    return -1;
  if (strcmp(m->opcode, "parameter") != 0)
    r.n_operand_ids = 0;
  wp_hpr_puts(w, "\n");
  /* what reading the text gives back by itself */
  r.name = r.opcode = "";
  r.shape = NULL;
  r.id = 0;
  r.wp_weight_origin = NULL; /* weightpack's own: the bytes are in the literal */
  char what[300];
  snprintf(what, sizeof what, "instruction '%s'", m->name);
  wp_hpr_leftover(w, &r.base, what);
  return w->failed ? -1 : 0;
}

/* Parameters by number, for the signature; NULL where one is missing. */
static const Xla__HloInstructionProto **parameters(hpr *w, const Xla__HloComputationProto *c,
                                                   size_t *n) {
  size_t count = 0;
  for (size_t i = 0; i < c->n_instructions; i++)
    count += !strcmp(c->instructions[i]->opcode, "parameter");
  const Xla__HloInstructionProto **ps = wp_arena_alloc(w->arena, (count + 1) * sizeof *ps);
  for (size_t i = 0; i < c->n_instructions; i++) {
    const Xla__HloInstructionProto *m = c->instructions[i];
    if (!strcmp(m->opcode, "parameter") && m->parameter_number >= 0 &&
        (uint64_t)m->parameter_number < count)
      ps[m->parameter_number] = m;
  }
  *n = count;
  return ps;
}

static int computation(hpr *w, const Xla__HloComputationProto *c, bool entry,
                       const wp_i64map *hidden) {
  wp_hpr_comp hc = {.msg = c};
  wp_i64map_init(&hc.by_id);
  for (size_t i = 0; i < c->n_instructions; i++)
    wp_i64map_put(&hc.by_id, c->instructions[i]->id, (int64_t)i); /* aborts on OOM */
  const Xla__HloInstructionProto *root = wp_hpr_instr(&hc, c->root_id);
  int rc = -1;
  if (!root) {
    wp_hpr_fail(w, "computation '%s': root id %lld names no instruction", c->name,
             (long long)c->root_id);
    goto out;
  }
  if (entry)
    wp_hpr_puts(w, "ENTRY ");
  wp_hpr_name(w, c->name, true);
  /* the signature XLA prints: parameter names and shapes without layouts */
  size_t n;
  const Xla__HloInstructionProto **ps = parameters(w, c, &n);
  wp_hpr_puts(w, " (");
  for (size_t i = 0; i < n; i++) {
    if (!ps[i]) {
      wp_hpr_fail(w, "computation '%s' has no parameter %zu", c->name, i);
      goto out;
    }
    if (i)
      wp_hpr_puts(w, ", ");
    wp_hpr_name(w, ps[i]->name, false);
    wp_hpr_puts(w, ": ");
    if (wp_hpr_shape(w, ps[i]->shape, false))
      goto out;
  }
  wp_hpr_puts(w, ") -> ");
  if (wp_hpr_shape(w, root->shape, false))
    goto out;
  wp_hpr_puts(w, " {\n");
  for (size_t i = 0; i < c->n_instructions; i++)
    if (instruction(w, &hc, c->instructions[i], hidden) || wp_hpr_flush(w, false))
      goto out;
  wp_hpr_puts(w, "}");
  if (c->execution_thread[0]) {
    wp_hpr_puts(w, ", execution_thread=");
    wp_hpr_string(w, c->execution_thread, strlen(c->execution_thread));
  }
  wp_hpr_puts(w, "\n\n");
  Xla__HloComputationProto r = *c;
  r.name = r.execution_thread = "";
  r.n_instructions = 0;
  r.program_shape = NULL; /* derived from the parameters and the root */
  r.id = r.root_id = 0;
  r.is_fusion_computation = false; /* derived from the fusions that call it */
  char what[300];
  snprintf(what, sizeof what, "computation '%s'", c->name);
  wp_hpr_leftover(w, &r.base, what);
  rc = w->failed ? -1 : 0;
out:
  wp_i64map_free(&hc.by_id);
  return rc;
}

/* The whole module into W. */
static int print_module(hpr *w, const Xla__HloModuleProto *m, const Xla__HloModuleConfigView *cfg) {
  wp_i64map_init(&w->comp_index);
  size_t entry = m->n_computations ? m->n_computations - 1 : 0;
  for (size_t i = 0; i < m->n_computations; i++) {
    const Xla__HloComputationProto *c = m->computations[i];
    wp_i64map_put(&w->comp_index, c->id, (int64_t)i);
    if (m->entry_computation_id ? c->id == m->entry_computation_id
                                : !strcmp(c->name, m->entry_computation_name))
      entry = i;
  }
  int rc = m->n_computations ? wp_hpr_module_header(w, m, cfg) : wp_hpr_fail(w, "the module has no computations");
  wp_i64map hidden; /* the computations of sugared async ops: not printed */
  wp_i64map_init(&hidden);
  wp_hpr_async_hidden(w, m, &hidden);
  /* XLA's HloModule::Print ends every computation with a blank line, the
   * last one too */
  for (size_t i = 0; i < m->n_computations && !rc; i++) {
    int64_t v;
    if (!wp_i64map_get(&hidden, m->computations[i]->id, &v))
      rc = computation(w, m->computations[i], i == entry, &hidden);
  }
  wp_i64map_free(&hidden);
  wp_i64map_free(&w->comp_index);
  if (!rc) {
    Xla__HloModuleProto r = *m;
    r.name = r.entry_computation_name = "";
    r.n_computations = 0;
    r.host_program_shape = NULL;
    r.id = r.entry_computation_id = 0;
    r.schedule = NULL; /* is_scheduled=true: the text's order is the schedule */
    r.input_output_alias = r.buffer_donor = NULL;
    if (m->frontend_attributes && !m->frontend_attributes->base.n_unknown_fields)
      r.frontend_attributes = NULL;
    if (wp_hpr_frames_printed(w, m))
      r.stack_frame_index = NULL;
    wp_hpr_leftover(w, &r.base, "module");
    wp_hpr_config_leftover(w, m, cfg);
  }
  return rc || w->failed || wp_hpr_flush(w, true) ? -1 : 0;
}

int wp_hlo_text_print_config_to(wp_arena *arena, const Xla__HloModuleProto *m,
                                const Xla__HloModuleConfigView *cfg, wp_hlo_text_warn_fn warn,
                                void *user, wp_hlo_text_sink_fn sink, void *sink_user,
                                wp_error *err) {
  /* A dry run first: what cannot be printed fails, and the warnings are
   * given, before the first byte goes out (its literals' elements, the
   * bulk of a module with weights, are skipped) */
  hpr check = {.arena = arena, .warn = warn, .user = user, .checking = true, .err = err, .mod = m};
  int rc = print_module(&check, m, cfg);
  free(check.buf);
  if (rc)
    return -1;
  hpr w = {.arena = arena, .sink = sink, .sink_user = sink_user, .err = err, .mod = m};
  rc = print_module(&w, m, cfg);
  free(w.buf);
  return rc;
}

int wp_hlo_text_print_to(wp_arena *arena, const Xla__HloModuleProto *m, wp_hlo_text_warn_fn warn,
                         void *user, wp_hlo_text_sink_fn sink, void *sink_user, wp_error *err) {
  return wp_hlo_text_print_config_to(arena, m, NULL, warn, user, sink, sink_user, err);
}

/* A sink that keeps the text: malloc'd, grows. */
typedef struct text_buf {
  char *data;
  size_t len, cap;
} text_buf;

static int to_memory(void *user, const char *data, size_t len, wp_error *err) {
  (void)err;
  text_buf *b = user;
  if (b->len + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : WP_HPR_PIECE;
    while (cap < b->len + len + 1)
      cap *= 2;
    b->data = wp_xrealloc(b->data, cap);
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = 0;
  return 0;
}

int wp_hlo_text_print_config(wp_arena *arena, const Xla__HloModuleProto *m,
                             const Xla__HloModuleConfigView *cfg, wp_hlo_text_warn_fn warn,
                             void *user, char **text, size_t *len, wp_error *err) {
  text_buf b = {NULL, 0, 0};
  if (wp_hlo_text_print_config_to(arena, m, cfg, warn, user, to_memory, &b, err)) {
    free(b.data);
    return -1;
  }
  if (!b.data)
    to_memory(&b, "", 0, err);
  *text = b.data;
  *len = b.len;
  return 0;
}

int wp_hlo_text_print(wp_arena *arena, const Xla__HloModuleProto *m, wp_hlo_text_warn_fn warn,
                      void *user, char **text, size_t *len, wp_error *err) {
  return wp_hlo_text_print_config(arena, m, NULL, warn, user, text, len, err);
}
