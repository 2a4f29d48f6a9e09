/* An HloModuleProto read without keeping its instructions unpacked.
 *
 * protobuf-c unpacks a message whole: a module of 100,000 instructions
 * becomes about 180 MiB of structs (an HloInstructionProto alone is 776
 * bytes), and writing that memory cost 20 times the decoding. Here the
 * module and its computations are unpacked without their instructions;
 * each instruction stays as its bytes, with the few fields the importer
 * needs to order the graph, and is unpacked again, in scratch memory, when
 * its op is built. Every instruction is unpacked once here, so a module
 * that protobuf-c would reject as a whole is rejected here too. */
#ifndef WP_HLO_LAZY_H
#define WP_HLO_LAZY_H

#include "hlo.pb-c.h"
#include "wp_arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* protobuf-c and the shape converters recurse once per level: deeper
 * inputs are refused before they are unpacked. */
#define WP_HLO_MAX_DEPTH 100

typedef struct wp_hlo_instr_ref {
  const uint8_t *bytes; /* the serialized HloInstructionProto */
  size_t len;
  int64_t id;
  bool is_param; /* opcode "parameter" */
  int64_t parameter_number;
  size_t n_operand_ids;
  int64_t *operand_ids;
  bool sure; /* protobuf-c surely unpacks the bytes (wp_pb_unpacks_surely) */
} wp_hlo_instr_ref;

typedef struct wp_hlo_lazy_comp {
  wp_hlo_instr_ref *ins; /* in stored order */
  size_t n;
} wp_hlo_lazy_comp;

typedef struct wp_hlo_lazy_module {
  Xla__HloModuleProto *msg; /* computations without their instructions */
  wp_hlo_lazy_comp *comps;  /* one per msg->computations[i] */
  const uint8_t *bytes;     /* the module's own (an HloProto's pieces merged) */
  size_t len;
} wp_hlo_lazy_module;

/* Reads the module in DATA (which must outlive OUT) into ARENA. -1 when it
 * is not a well-formed HloModuleProto. */
int wp_hlo_lazy_unpack(wp_arena *arena, const void *data, size_t len, wp_hlo_lazy_module *out);

/* The same for the module inside an HloProto, whose other fields are
 * checked and dropped. Its hlo_module fields are merged, each of which
 * must be a message by itself (protobuf parses them one by one); -2 when
 * the merged module nests deeper than WP_HLO_MAX_DEPTH. */
int wp_hlo_lazy_unpack_hlo_proto(wp_arena *arena, const void *data, size_t len,
                                 wp_hlo_lazy_module *out);

/* Only the module of an HloProto, its other fields unchecked (to tell the
 * wrapper from a bare module); -1 or -2 as above. */
int wp_hlo_lazy_hlo_proto_module(wp_arena *arena, const void *data, size_t len,
                                 wp_hlo_lazy_module *out);

/* Instruction REF unpacked in SCRATCH (the caller marks and releases it);
 * NULL only should the bytes, which were checked, not unpack (out of
 * memory aborts, as the arena does). */
Xla__HloInstructionProto *wp_hlo_lazy_instr(wp_arena *scratch, const wp_hlo_instr_ref *ref);

#endif
