/* A bump allocator for short-lived trees of small objects (decoded protobuf
 * messages, export scratch). Everything is freed at once by
 * wp_arena_destroy. It also serves as a ProtobufCAllocator. */
#ifndef WP_ARENA_H
#define WP_ARENA_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

typedef struct wp_arena wp_arena;

wp_arena *wp_arena_create(void);           /* caller destroys */
void wp_arena_destroy(wp_arena *arena);    /* NULL is fine */

/* Returns zeroed memory aligned for any type; aborts on out-of-memory, as
 * there is no sensible recovery in the middle of building a message. */
void *wp_arena_alloc(wp_arena *arena, size_t size);
char *wp_arena_strndup(wp_arena *arena, const char *s, size_t n);
void *wp_arena_memdup(wp_arena *arena, const void *p, size_t n);
/* SIZE bytes of its own, not zeroed; NULL when out of memory: for a size an
 * input decides, already checked (wp_input_size_check), that may still not
 * fit (a documented exception, docs/layout.md "Errors"). */
void *wp_arena_alloc_big(wp_arena *arena, size_t size);

/* Scratch use: everything allocated after wp_arena_mark is given back by
 * wp_arena_release(arena, mark); earlier allocations stay. */
typedef struct wp_arena_mark_t {
  void *chunk;
  size_t used;
} wp_arena_mark_t;
wp_arena_mark_t wp_arena_mark(wp_arena *arena);
void wp_arena_release(wp_arena *arena, wp_arena_mark_t mark);

/* A protobuf-c allocator drawing from this arena (free is a no-op). */
ProtobufCAllocator *wp_arena_protobuf_allocator(wp_arena *arena);

#endif
