#include "wp_bir_enums.h"

#include "wp_hlo_types.h"

#include <string.h>

const char *const wp_bir_byte_sources[WP_BIR_N_BYTE_SOURCES] = {"source", "constant", "data",
                                                                 "assembled"};

static const char *const k_tensor_classes[WP_TC_COUNT] = {
    [WP_TC_UNKNOWN] = "UnknownTensor",
    [WP_TC_INPUT] = "InputTensor",
    [WP_TC_OUTPUT] = "OutputTensor",
    [WP_TC_NEURON_WEIGHT] = "NeuronWeightTensor",
    [WP_TC_IDENTITY_WEIGHT] = "IdentityWeightTensor",
    [WP_TC_STATE] = "StateTensor",
    [WP_TC_INTERNAL] = "InternalTensor",
    [WP_TC_POINTER] = "PointerTensor",
    [WP_TC_RNG_STATE] = "RngStateTensor",
    [WP_TC_SCRATCH] = "ScratchTensor",
    [WP_TC_DEBUG] = "DebugTensor",
    [WP_TC_CONSTANT] = "ConstantTensor",
    [WP_TC_IMMUTABLE_PARAMETER] = "ImmutableParameter",
};

static const char *const k_memory_types[WP_MT_COUNT] = {
    [WP_MT_REG] = "REG",
    [WP_MT_UNALLOCATED] = "Unallocated",
    [WP_MT_DRAM] = "DRAM",
    [WP_MT_RNGSTATE] = "RNGSTATE",
    [WP_MT_EXTERNAL_INPUT] = "ExternalInput",
    [WP_MT_EXTERNAL_INPUT_PARAMETER] = "ExternalInputParameter",
    [WP_MT_EXTERNAL_OUTPUT] = "ExternalOutput",
    [WP_MT_EXTERNAL_OUTPUT_PARAMETER] = "ExternalOutputParameter",
    [WP_MT_CONST] = "Const",
    [WP_MT_INTERNAL] = "Internal",
    [WP_MT_POINTER] = "Pointer",
    [WP_MT_INTERNAL_INTERFACE] = "InternalInterface",
};

static const struct {
  int prim;
  const char *name;
} k_dtypes[] = {
    {WP_PRED, "bool"},        {WP_S1, "int1"},         {WP_S2, "int2"},
    {WP_S4, "int4"},          {WP_S8, "int8"},         {WP_S16, "int16"},
    {WP_S32, "int32"},        {WP_S64, "int64"},       {WP_U1, "uint1"},
    {WP_U2, "uint2"},         {WP_U4, "uint4"},        {WP_U8, "uint8"},
    {WP_U16, "uint16"},       {WP_U32, "uint32"},      {WP_U64, "uint64"},
    {WP_F16, "float16"},      {WP_BF16, "bfloat16"},   {WP_F32, "float32"},
    {WP_F64, "float64"},      {WP_C64, "complex64"},   {WP_C128, "complex128"},
    {WP_F8E5M2, "float8_e5m2"},         {WP_F8E4M3FN, "float8_e4m3fn"},
    {WP_F8E4M3B11FNUZ, "float8_e4m3b11fnuz"}, {WP_F8E5M2FNUZ, "float8_e5m2fnuz"},
    {WP_F8E4M3FNUZ, "float8_e4m3fnuz"}, {WP_F8E4M3, "float8_e4m3"},
    {WP_F8E3M4, "float8_e3m4"},         {WP_F4E2M1FN, "float4_e2m1fn"},
    {WP_F8E8M0FNU, "float8_e8m0fnu"},
};

const char *wp_tensor_class_name(int tc) {
  return tc >= 0 && tc < WP_TC_COUNT ? k_tensor_classes[tc] : NULL;
}

const char *wp_memory_type_name(int mt) {
  return mt >= 0 && mt < WP_MT_COUNT ? k_memory_types[mt] : NULL;
}

static int lookup(const char *const *names, int count, const char *name, size_t len) {
  for (int i = 0; i < count; i++)
    if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
      return i;
  return -1;
}

int wp_tensor_class_parse(const char *name, size_t len, int *out, wp_error *err) {
  int i = lookup(k_tensor_classes, WP_TC_COUNT, name, len);
  if (i < 0)
    return wp_error_set(err, "Unknown tensor class type: %.*s", (int)len, name);
  *out = i;
  return 0;
}

int wp_memory_type_parse(const char *name, size_t len, int *out, wp_error *err) {
  int i = lookup(k_memory_types, WP_MT_COUNT, name, len);
  if (i < 0)
    return wp_error_set(err, "Unknown memory type: %.*s", (int)len, name);
  *out = i;
  return 0;
}

const char *wp_dtype_name(int prim) {
  for (size_t i = 0; i < sizeof k_dtypes / sizeof k_dtypes[0]; i++)
    if (k_dtypes[i].prim == prim)
      return k_dtypes[i].name;
  return NULL;
}

int wp_dtype_parse(const char *name, size_t len, int *prim, wp_error *err) {
  for (size_t i = 0; i < sizeof k_dtypes / sizeof k_dtypes[0]; i++)
    if (strlen(k_dtypes[i].name) == len && memcmp(k_dtypes[i].name, name, len) == 0) {
      *prim = k_dtypes[i].prim;
      return 0;
    }
  return wp_error_set(err, "Unknown dtype: %.*s", (int)len, name);
}
