#include "wp_bir_lowering.h"

#include "wp_mlir_util.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const k_counts[] = {"small_const_threshold", "small_weight_threshold",
                                       "alignment"};
static const char *const k_lists[] = {"weight_operands", "planted"};

static uint64_t *count_field(Wp__Bir__Lowering *m, int i) {
  uint64_t *f[] = {&m->small_const_threshold, &m->small_weight_threshold, &m->alignment};
  return f[i];
}

static char ***list_field(Wp__Bir__Lowering *m, int i, size_t **n) {
  *n = i ? &m->n_planted : &m->n_weight_operands;
  return i ? &m->planted : &m->weight_operands;
}

Wp__Bir__Lowering *wp_bir_lowering_to_proto(MlirAttribute attr, wp_arena *arena) {
  Wp__Bir__Lowering *m = wp_pb_new(arena, &wp__bir__lowering__descriptor);
  for (int i = 0; i < 3; i++) {
    MlirAttribute v = wp_dict_get(attr, k_counts[i]);
    *count_field(m, i) = mlirAttributeIsNull(v) ? 0 : (uint64_t)mlirIntegerAttrGetValueInt(v);
  }
  MlirAttribute mem = wp_dict_get(attr, "const_memory");
  MlirStringRef s = mlirAttributeIsNull(mem) ? (MlirStringRef){"", 0} : wp_str_value(mem);
  m->const_memory = wp_arena_strndup(arena, s.data, s.length);
  for (int i = 0; i < 2; i++) {
    MlirAttribute v = wp_dict_get(attr, k_lists[i]);
    size_t *n;
    char ***items = list_field(m, i, &n);
    intptr_t k = mlirAttributeIsNull(v) ? 0 : mlirArrayAttrGetNumElements(v);
    *items = wp_arena_alloc(arena, ((size_t)k + 1) * sizeof **items);
    for (intptr_t j = 0; j < k; j++) {
      MlirStringRef e = wp_str_value(mlirArrayAttrGetElement(v, j));
      (*items)[j] = wp_arena_strndup(arena, e.data, e.length);
    }
    *n = (size_t)k;
  }
  return m;
}

static MlirAttribute u64(MlirContext ctx, uint64_t v) {
  if (v <= (uint64_t)INT64_MAX)
    return wp_i64_attr(ctx, (int64_t)v);
  return mlirIntegerAttrGet(mlirIntegerTypeUnsignedGet(ctx, 64), (int64_t)v);
}

MlirAttribute wp_bir_lowering_from_proto(MlirContext ctx, const Wp__Bir__Lowering *m) {
  MlirNamedAttribute a[6];
  int n = 0;
  for (int i = 0; i < 3; i++)
    a[n++] = wp_named(ctx, k_counts[i], u64(ctx, *count_field((Wp__Bir__Lowering *)m, i)));
  a[n++] = wp_named(ctx, "const_memory", wp_str_attr(ctx, m->const_memory, strlen(m->const_memory)));
  for (int i = 0; i < 2; i++) {
    size_t *k;
    char **items = *list_field((Wp__Bir__Lowering *)m, i, &k);
    if (!*k)
      continue;
    MlirAttribute *e = wp_xmalloc(*k * sizeof *e);
    for (size_t j = 0; j < *k; j++)
      e[j] = wp_str_attr(ctx, items[j], strlen(items[j]));
    a[n++] = wp_named(ctx, k_lists[i], mlirArrayAttrGet(ctx, (intptr_t)*k, e));
    free(e);
  }
  return mlirDictionaryAttrGet(ctx, n, a);
}

json_t *wp_bir_lowering_to_json(const Wp__Bir__Lowering *m) {
  json_t *j = json_object();
  for (int i = 0; i < 3; i++)
    json_object_set_new(j, k_counts[i],
                        json_integer((json_int_t)*count_field((Wp__Bir__Lowering *)m, i)));
  json_object_set_new(j, "const_memory", json_string(m->const_memory));
  for (int i = 0; i < 2; i++) {
    size_t *k;
    char **items = *list_field((Wp__Bir__Lowering *)m, i, &k);
    if (!*k)
      continue;
    json_t *a = json_array();
    for (size_t e = 0; e < *k; e++)
      json_array_append_new(a, json_string(items[e]));
    json_object_set_new(j, k_lists[i], a);
  }
  return j;
}

int wp_bir_lowering_from_json(json_t *j, wp_arena *arena, Wp__Bir__Lowering **out,
                              wp_error *err) {
  if (!json_is_object(j))
    return wp_error_set(err, "BIR JSON: \"lowering\" must be an object");
  Wp__Bir__Lowering *m = wp_pb_new(arena, &wp__bir__lowering__descriptor);
  for (int i = 0; i < 3; i++) {
    json_t *v = json_object_get(j, k_counts[i]);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
      return wp_error_set(err, "BIR JSON: lowering.%s must be a count", k_counts[i]);
    *count_field(m, i) = (uint64_t)json_integer_value(v);
  }
  json_t *mem = json_object_get(j, "const_memory");
  if (!json_is_string(mem))
    return wp_error_set(err, "BIR JSON: lowering.const_memory must be a string");
  m->const_memory = wp_arena_strndup(arena, json_string_value(mem), json_string_length(mem));
  for (int i = 0; i < 2; i++) {
    json_t *v = json_object_get(j, k_lists[i]);
    size_t *n;
    char ***items = list_field(m, i, &n);
    if (v && !json_is_array(v))
      return wp_error_set(err, "BIR JSON: lowering.%s must be a list of names", k_lists[i]);
    size_t k = v ? json_array_size(v) : 0;
    *items = wp_arena_alloc(arena, (k + 1) * sizeof **items);
    for (size_t e = 0; e < k; e++) {
      json_t *s = json_array_get(v, e);
      if (!json_is_string(s))
        return wp_error_set(err, "BIR JSON: lowering.%s[%zu] must be a string", k_lists[i], e);
      (*items)[e] = wp_arena_strndup(arena, json_string_value(s), json_string_length(s));
    }
    *n = k;
  }
  *out = m;
  return 0;
}

const char *wp_bir_lowering_check(MlirAttribute attr) {
  static const char shape[] =
      "must be {small_const_threshold, small_weight_threshold, alignment: "
      "counts; const_memory: \"Const\" or \"DRAM\"; weight_operands, planted: lists of names}";
  if (!mlirAttributeIsADictionary(attr))
    return shape;
  for (int i = 0; i < 3; i++) {
    MlirAttribute v = wp_dict_get(attr, k_counts[i]);
    if (mlirAttributeIsNull(v) || !mlirAttributeIsAInteger(v) ||
        !mlirIntegerTypeIsSignless(mlirAttributeGetType(v)) ||
        mlirIntegerAttrGetValueInt(v) < 0)
      return shape;
  }
  MlirAttribute align = wp_dict_get(attr, "alignment");
  int64_t a = mlirIntegerAttrGetValueInt(align);
  if (a < 1 || (a & (a - 1)))
    return "alignment must be a power of two";
  MlirAttribute mem = wp_dict_get(attr, "const_memory");
  if (mlirAttributeIsNull(mem) || !mlirAttributeIsAString(mem))
    return shape;
  MlirStringRef m = wp_str_value(mem);
  if (!mlirStringRefEqual(m, (MlirStringRef){"Const", 5}) &&
      !mlirStringRefEqual(m, (MlirStringRef){"DRAM", 4}))
    return shape;
  for (int i = 0; i < 2; i++) {
    MlirAttribute v = wp_dict_get(attr, k_lists[i]);
    if (mlirAttributeIsNull(v))
      continue;
    if (!mlirAttributeIsAArray(v))
      return shape;
    for (intptr_t j = 0; j < mlirArrayAttrGetNumElements(v); j++)
      if (!mlirAttributeIsAString(mlirArrayAttrGetElement(v, j)))
        return shape;
  }
  return NULL;
}
