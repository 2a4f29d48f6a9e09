#include "wp_hlo_resource.h"

#include "wp_i64map.h"

#include <mlir-c/BuiltinAttributes.h>
#include <pthread.h>
#include <stdlib.h>

typedef struct blob {
  const void *data;
  size_t size;
  wp_blob_release_fn release;
  void *user;
  MlirAttribute attr;
} blob;

/* attribute storage pointer -> blob. Attributes are uniqued per context, so
 * the pointer identifies the resource for as long as the blob is alive. */
static wp_i64map g_blobs;
static size_t g_live; /* blobs alive: at 0 the map is emptied (no entry per
                         weight per compile left behind in a long-running driver) */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static void blob_deleter(void *user, const void *data, size_t size, size_t align) {
  blob *b = user;
  pthread_mutex_lock(&g_lock);
  int64_t v;
  if (!mlirAttributeIsNull(b->attr) &&
      wp_i64map_get(&g_blobs, (int64_t)(intptr_t)b->attr.ptr, &v) && v == (int64_t)(intptr_t)b)
    wp_i64map_put(&g_blobs, (int64_t)(intptr_t)b->attr.ptr, 0);
  if (--g_live == 0) {
    wp_i64map_free(&g_blobs);
    wp_i64map_init(&g_blobs);
  }
  pthread_mutex_unlock(&g_lock);
  if (b->release)
    b->release(b->user);
  free(b);
}

MlirAttribute wp_hlo_resource_create(MlirType type, const char *key, const void *data,
                                     size_t size, wp_blob_release_fn release, void *user) {
  blob *b = calloc(1, sizeof *b);
  if (!b)
    return mlirAttributeGetNull();
  b->data = data;
  b->size = size;
  b->release = release;
  b->user = user;
  static const char empty[8];
  MlirAttribute a = mlirUnmanagedDenseResourceElementsAttrGet(
      type, mlirStringRefCreateFromCString(key), size ? (void *)data : (void *)empty, size,
      1, /*dataIsMutable=*/false, blob_deleter, b);
  b->attr = a;
  pthread_mutex_lock(&g_lock);
  wp_i64map_put(&g_blobs, (int64_t)(intptr_t)a.ptr, (int64_t)(intptr_t)b);
  g_live++;
  pthread_mutex_unlock(&g_lock);
  return a;
}

int wp_hlo_resource_is(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && mlirAttributeIsADenseResourceElements(attr);
}

int wp_hlo_resource_bytes(MlirAttribute attr, const void **data, uint64_t *size,
                          wp_error *err) {
  int64_t v = 0;
  pthread_mutex_lock(&g_lock);
  int found = wp_i64map_get(&g_blobs, (int64_t)(intptr_t)attr.ptr, &v) && v;
  pthread_mutex_unlock(&g_lock);
  if (!found)
    return wp_error_set(err, "the bytes of this dense_resource constant are not "
                             "available (it was not created by weightpack in this process)");
  blob *b = (blob *)(intptr_t)v;
  *data = b->data;
  *size = b->size;
  return 0;
}

bool wp_hlo_resource_released_by(MlirAttribute attr, wp_blob_release_fn release) {
  int64_t v = 0;
  pthread_mutex_lock(&g_lock);
  int found = wp_i64map_get(&g_blobs, (int64_t)(intptr_t)attr.ptr, &v) && v;
  bool same = found && ((blob *)(intptr_t)v)->release == release;
  pthread_mutex_unlock(&g_lock);
  return same;
}
