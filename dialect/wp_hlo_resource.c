#include "wp_hlo_resource.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>

typedef struct blob_owner {
  wp_blob_release_fn release;
  void *user;
} blob_owner;

static void blob_deleter(void *user, const void *data, size_t size, size_t align) {
  blob_owner *o = user;
  if (o->release)
    o->release(o->user);
  free(o);
}

MlirAttribute wp_hlo_resource_create(MlirType type, const char *key, const void *data,
                                     size_t size, wp_blob_release_fn release, void *user) {
  blob_owner *o = malloc(sizeof *o);
  if (!o)
    return mlirAttributeGetNull();
  o->release = release;
  o->user = user;
  MlirAttribute a = wp_hlo_resource_create_direct(type, key, data, size, blob_deleter, o);
  if (mlirAttributeIsNull(a))
    free(o);
  return a;
}

MlirAttribute wp_hlo_resource_create_direct(MlirType type, const char *key, const void *data,
                                            size_t size, wp_blob_deleter_fn deleter, void *user) {
  static const char empty[8];
  return mlirUnmanagedDenseResourceElementsAttrGet(
      type, mlirStringRefCreateFromCString(key), size ? (void *)data : (void *)empty, size,
      1, /*dataIsMutable=*/false, deleter, user);
}

int wp_hlo_resource_is(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && mlirAttributeIsADenseResourceElements(attr);
}
