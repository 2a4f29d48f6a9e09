#include "wp_bir_relower.h"

#include "wp_bir_class.h"
#include "wp_bir_enums.h"
#include "wp_bir_lower_impl.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

/* bir-lower's class rule (wp_bir_class.h) on the facts it rested on */
static int constant_class(const wp_relower_tensor *t) {
  if (wp_bir_is_identity(t->type, t->bytes, t->size))
    return WP_TC_IDENTITY_WEIGHT;
  return t->planted && t->weight_operand ? WP_TC_NEURON_WEIGHT : WP_TC_IMMUTABLE_PARAMETER;
}

static int add_constant(lowering *l, const wp_relower_tensor *t, int elt, const char *dtype,
                        uint64_t bytes) {
  if (bytes != t->size) {
    wp_emit_error(l->loc, "replace-weights: constant '%s' has %llu bytes where its type holds "
                  "%llu", t->name, (unsigned long long)t->size, (unsigned long long)bytes);
    return -1;
  }
  int tc = constant_class(t);
  wp_lower_note_facts(l, t->name, t->planted,
                      tc == WP_TC_IDENTITY_WEIGHT && t->planted && t->weight_operand, t->size);
  if (wp_lower_is_small(l, t->size, t->planted))
    return wp_lower_add_shared(l, l->loc, t->name, tc, t->type, elt, dtype, t->bytes, t->size);
  char *file_name = wp_lower_const_file_name(l, t->name);
  MlirContext c = l->ctx;
  MlirNamedAttribute src[2] = {
      wp_named(c, "file", wp_str_attr(c, t->file, strlen(t->file))),
      wp_named(c, "offset", wp_i64_attr(c, (int64_t)t->offset))};
  wp_lower_add_const_file(l, file_name, t->size,
                          wp_named(c, "source", mlirDictionaryAttrGet(c, 2, src)));
  return wp_lower_add_tensor(l, t->name, tc, t->type, t->name, l->opts.const_memory, file_name,
                             0, 0);
}

int wp_bir_relower_module(MlirOperation module, const wp_relower_spec *spec) {
  MlirContext c = mlirOperationGetContext(module);
  lowering l;
  MlirOperation bir_func = wp_lower_begin(&l, c, mlirOperationGetLocation(module), &spec->opts);
  int rc = -1;
  for (size_t i = 0; i < spec->n_tensors; i++) {
    const wp_relower_tensor *t = &spec->tensors[i];
    int prim;
    const char *dtype;
    uint64_t bytes = 0;
    int elt = wp_lower_tensor_info(t->type, &prim, &dtype, &bytes);
    if (elt <= 0) {
      wp_lower_tensor_error(l.loc, "tensor", t->name, t->type, elt);
      goto fail;
    }
    if (wp_lower_claim_name(&l, wp_arena_strndup(l.arena, t->name, strlen(t->name)), l.loc,
                            t->kind == WP_RELOWER_OUTPUT ? "result" : "tensor"))
      goto fail;
    int r = t->kind == WP_RELOWER_INPUT
                ? wp_lower_add_tensor(&l, t->name, WP_TC_INPUT, t->type, t->name,
                                      WP_MT_EXTERNAL_INPUT, NULL, 0, 0)
            : t->kind == WP_RELOWER_OUTPUT
                ? wp_lower_add_tensor(&l, t->name, WP_TC_OUTPUT, t->type, NULL,
                                      WP_MT_EXTERNAL_OUTPUT, NULL, 0, 0)
                : add_constant(&l, t, elt, dtype, bytes);
    if (r)
      goto fail;
  }
  if (wp_lower_add_shared_files(&l, spec->shared_dir) || wp_lower_write_tensors(&l))
    goto fail;
  wp_lower_finish(&l, module, bir_func, wp_sref(spec->name), spec->program_entry, spec->name);
  rc = 0;
  goto out;
fail:
  mlirOperationDestroy(bir_func);
out:
  wp_lower_end(&l);
  return rc;
}
