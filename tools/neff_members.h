/* neff: the members of a package, collected as they stream: names,
 * sizes, MD5s, the JSON members the commands read, and (verify) the MD5
 * each constant member's name gives. */
#ifndef NEFF_MEMBERS_H
#define NEFF_MEMBERS_H

#include "wp_md5.h"
#include "wp_neff_read.h"
#include "wp_npy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest neff.json, bom.json or kelf-N.json kept (the graphs are
 * small); a def.json may be far larger (100,000 tensors) and is kept up
 * to NEFF_MAX_DEF bytes. */
#define NEFF_MAX_JSON (64u << 20)
#define NEFF_MAX_DEF (1ull << 31)

typedef struct neff_member {
  char *name;
  uint64_t size, seen;
  char md5[WP_MD5_HEX];
  char *text; /* the JSON members read (keep_json, keep_defs), NUL-ended */
  bool too_big; /* a JSON member that would have been kept, past its bound */
  bool listed; /* in bom.json */
  /* A constant member is named by its de-dup key, "MD5.dtype.memtype.npy"
   * (or .bin): the MD5 of its bytes, past the .npy header of an .npy
   * member. KEY: that name's last component (verify only), else NULL;
   * KEY_MD5: what the bytes give ("" for an .npy member whose header does
   * not parse). */
  const char *key;
  char key_md5[WP_MD5_HEX];
} neff_member;

/* The first bytes of a keyed .npy member, held until its header parses:
 * as many as the longest header wp_npy_parse takes. */
#define KEY_HEAD_MAX (WP_NPY_MAX_HEADER + 12)

typedef struct neff_collect {
  neff_member *m;
  size_t n, cap;
  wp_md5 *h;
  bool keep_json;       /* neff.json, bom.json, kelf-N.json */
  bool keep_defs;       /* and every def.json (any folder) */
  bool skip_md5;        /* leave md5 empty (cat: only bom.json's check hashes) */
  bool check_keys;      /* verify: check the MD5 constant member names give */
  wp_md5 *key_h;        /* the current .npy member's bytes past SKIP */
  uint64_t skip;        /* its header's length; UINT64_MAX while unparsed */
  bool key_bad;         /* its header does not parse */
  unsigned char *head;  /* its first bytes, KEY_HEAD_MAX at most */
  size_t head_n;
  neff_member **by_name; /* sorted, for lookups: a package may hold 100,000 */
  const char *twice; /* a member name held twice (which copy would a reader take?) */
} neff_collect;

bool neff_has_suffix(const char *s, const char *suffix);
/* A wp_neff_member_fn collecting into C (a neff_collect). */
int neff_collect_fn(const char *name, uint64_t size, const void *data, size_t len, void *user);
void neff_free_members(neff_collect *c);
/* Sorts the members by name and notes the first name held twice. -1 when
 * out of memory. */
int neff_index_members(neff_collect *c);
/* The member NAME (the first of that name), or NULL. Needs the index. */
neff_member *neff_find(neff_collect *c, const char *name);
/* Reads every member of R into C (zeroed, with its flags set) and indexes
 * them: 0, or 1 after an error line naming PATH (C is then empty), its
 * message also in *WHY unless WHY is NULL. */
int neff_read_all(wp_neff_reader *r, neff_collect *c, const char *path, wp_error *why);
/* Two names for one path, which no unpack can lay out: see neff.c's
 * verify. NULL when there is none. */
const char *neff_path_clash(neff_collect *c, const char **inside, bool *oom);

#endif
