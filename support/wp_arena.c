#include "wp_arena.h"

#include "wp_error.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wp_arena_chunk {
  struct wp_arena_chunk *next;
  size_t used, cap;
  max_align_t data[];
} wp_arena_chunk;

struct wp_arena {
  wp_arena_chunk *head;
  ProtobufCAllocator pb;
};

static void *arena_alloc(wp_arena *a, size_t size, bool zero);

/* protobuf-c initializes whatever it allocates (as it must with malloc),
 * so its memory is not zeroed first. */
static void *arena_pb_alloc(void *data, size_t size) { return arena_alloc(data, size, false); }
static void arena_pb_free(void *data, void *ptr) {}

wp_arena *wp_arena_create(void) {
  wp_arena *a = calloc(1, sizeof *a);
  if (!a)
    wp_out_of_memory();
  a->pb.alloc = arena_pb_alloc;
  a->pb.free = arena_pb_free;
  a->pb.allocator_data = a;
  return a;
}

void wp_arena_destroy(wp_arena *a) {
  if (!a)
    return;
  for (wp_arena_chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

void *wp_arena_alloc(wp_arena *a, size_t size) { return arena_alloc(a, size, true); }

wp_arena_mark_t wp_arena_mark(wp_arena *a) {
  return (wp_arena_mark_t){a->head, a->head ? a->head->used : 0};
}

void wp_arena_release(wp_arena *a, wp_arena_mark_t mark) {
  while (a->head && a->head != mark.chunk) {
    wp_arena_chunk *n = a->head->next;
    free(a->head);
    a->head = n;
  }
  if (a->head)
    a->head->used = mark.used;
}

static void *arena_alloc(wp_arena *a, size_t size, bool zero) {
  const size_t align = _Alignof(max_align_t);
  if (size > SIZE_MAX / 2)
    wp_out_of_memory();
  size = (size + align - 1) / align * align;
  if (size == 0)
    size = align;
  wp_arena_chunk *c = a->head;
  if (!c || c->cap - c->used < size) {
    size_t cap = size > 60000 ? size : 60000;
    c = malloc(sizeof *c + cap);
    if (!c)
      wp_out_of_memory();
    c->used = 0;
    c->cap = cap;
    c->next = a->head;
    a->head = c;
  }
  void *p = (char *)c->data + c->used;
  c->used += size;
  if (zero)
    memset(p, 0, size);
  return p;
}

void *wp_arena_alloc_big(wp_arena *a, size_t size) {
  if (size > SIZE_MAX - sizeof(wp_arena_chunk))
    return NULL;
  wp_arena_chunk *c = malloc(sizeof *c + (size ? size : 1));
  if (!c)
    return NULL;
  /* Full from the start: later small allocations open a chunk of their own. */
  c->used = c->cap = size;
  c->next = a->head;
  a->head = c;
  return c->data;
}

char *wp_arena_strndup(wp_arena *a, const char *s, size_t n) {
  char *p = wp_arena_alloc(a, n + 1);
  if (n)
    memcpy(p, s, n);
  return p;
}

void *wp_arena_memdup(wp_arena *a, const void *p, size_t n) {
  void *q = wp_arena_alloc(a, n);
  if (n)
    memcpy(q, p, n);
  return q;
}

ProtobufCAllocator *wp_arena_protobuf_allocator(wp_arena *a) { return &a->pb; }
