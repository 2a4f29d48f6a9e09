/* The HLO text reader's and printer's module level (not public): the
 * `HloModule` line with its settings, the stack frame sections after it
 * (wp_hlo_text_module.c), and their printing (wp_hlo_text_print_module.c). */
#ifndef WP_HLO_TEXT_MODULE_H
#define WP_HLO_TEXT_MODULE_H

#include "wp_hlo_text_internal.h"

typedef struct wp_htp_comp wp_htp_comp;

/* HloModuleConfig settings as the header writes them. A list left empty
 * (not written, or `={}`) is XLA's default, {false}. */
typedef struct wp_htp_settings {
  bool alias_passthrough;
  int64_t replica_count, num_partitions; /* 1 when not written */
  bool *to_parameters, *to_output;       /* allow_spmd_sharding_propagation_to_* */
  size_t n_to_parameters, n_to_output;
} wp_htp_settings;

typedef struct wp_htp_module {
  Xla__HloModuleProto *msg;
  wp_htp_comp *comps;
  size_t n, cap;
  size_t entry;        /* index, or SIZE_MAX */
  size_t entry_at;
  bool scheduled;
  Xla__ProgramShapeProto *layout; /* entry_computation_layout */
  size_t layout_at;
  size_t at; /* of `HloModule`, or of the first computation without it */
  wp_htp_settings settings;
  Xla__StackFrameIndexView *frames; /* the FileNames ... sections, or NULL */
  /* the names XLA's HloModule would have given, for the computations made
   * for sugared async starts (wp_hlo_text_async.c); NULL until needed */
  struct wp_htp_uniquer *comp_names, *instr_names;
} wp_htp_module;

/* After `HloModule`: the name (XLA's lexer also takes `name:`), the
 * settings, and the FileNames/FunctionNames/FileLocations/StackFrames
 * sections when they follow. */
int wp_htp_module_header(htp *p, wp_htp_module *mod);

/* The HloModuleConfigProto the settings make (with the program's layout,
 * from the finished module), or NULL when every setting is XLA's default:
 * such a module has no config, as XLA's parser leaves it. */
Xla__HloModuleConfigView *wp_htp_module_config(htp *p, const wp_htp_module *mod);

/* ---- printing (wp_hlo_text_print_module.c) ---- */

#include "wp_hlo_text_print_internal.h"

/* The `HloModule` line as XLA's HloModule::Print writes it, CFG's
 * settings in their place (CFG may be NULL), then the stack frame
 * sections, and the blank line before the first computation. */
int wp_hpr_module_header(hpr *w, const Xla__HloModuleProto *m, const Xla__HloModuleConfigView *cfg);
/* Does the header print M's stack_frame_index whole? */
bool wp_hpr_frames_printed(hpr *w, const Xla__HloModuleProto *m);
/* Warns about CFG's fields the text does not carry. */
void wp_hpr_config_leftover(hpr *w, const Xla__HloModuleProto *m,
                            const Xla__HloModuleConfigView *cfg);

#endif
