#include "wp_mapreg.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* Slots are claimed with a compare-and-swap on BASE (0 free, 1 being
 * filled), so adding and removing take no lock and the handler, which may
 * interrupt either, reads only slots whose BASE is a real address. A slot
 * being reused while the handler reads it can at worst name the wrong
 * file of a process that is ending anyway. */
#define SLOTS 4096
#define PATH_CAP 240 /* a longer path keeps its end: the file's own name */
#define FILLING ((uintptr_t)1)

typedef struct slot {
  _Atomic uintptr_t base;
  size_t size;
  size_t len;
  char path[PATH_CAP];
} slot;

static slot g_slots[SLOTS];
/* slots ever claimed: scans stop there, and a full table costs one look */
static _Atomic size_t g_high;
static _Atomic size_t g_used;

void wp_mapreg_add(const void *base, size_t size, const char *path) {
  if (!base || !size || atomic_load(&g_used) >= SLOTS)
    return;
  for (size_t i = 0; i < SLOTS; i++) {
    uintptr_t expect = 0;
    if (atomic_load(&g_slots[i].base) != 0 ||
        !atomic_compare_exchange_strong(&g_slots[i].base, &expect, FILLING))
      continue;
    atomic_fetch_add(&g_used, 1);
    size_t high = atomic_load(&g_high);
    while (high < i + 1 && !atomic_compare_exchange_weak(&g_high, &high, i + 1))
      ;
    size_t len = strlen(path);
    const char *from = len > PATH_CAP ? path + len - PATH_CAP : path;
    g_slots[i].len = len > PATH_CAP ? PATH_CAP : len;
    memcpy(g_slots[i].path, from, g_slots[i].len);
    g_slots[i].size = size;
    atomic_store(&g_slots[i].base, (uintptr_t)base);
    return;
  }
}

void wp_mapreg_remove(const void *base) {
  if (!base)
    return;
  size_t high = atomic_load(&g_high);
  for (size_t i = 0; i < high; i++) {
    uintptr_t expect = (uintptr_t)base;
    if (atomic_load(&g_slots[i].base) == expect &&
        atomic_compare_exchange_strong(&g_slots[i].base, &expect, 0)) {
      atomic_fetch_sub(&g_used, 1);
      return;
    }
  }
}

size_t wp_mapreg_path_at(const void *addr, char *out, size_t cap) {
  uintptr_t a = (uintptr_t)addr;
  size_t high = atomic_load(&g_high);
  for (size_t i = 0; i < high; i++) {
    uintptr_t b = atomic_load(&g_slots[i].base);
    if (b <= FILLING || a < b || a - b >= g_slots[i].size)
      continue;
    size_t n = g_slots[i].len < cap ? g_slots[i].len : cap;
    memcpy(out, g_slots[i].path, n);
    return n;
  }
  return 0;
}
