/* dedup-consts' working state, shared by its collecting, hashing and
 * grouping (wp_dedup.c) and its rewriting of the IR (wp_dedup_rewrite.c).
 * Internal to the pass. */
#ifndef WP_DEDUP_INTERNAL_H
#define WP_DEDUP_INTERNAL_H

#include "wp_arena.h"
#include "wp_error.h"
#include "wp_md5.h"
#include "wp_md5_jobs.h"
#include "wp_pass.h"
#include "wp_place.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cfile {
  MlirOperation op;
  MlirOperation func;
  char *name, *artifact;
  bool in_place; /* no file in the artifact directory: SRC is where the bytes are */
  wp_place_src src;
  uint64_t size;
  char md5[WP_MD5_HEX];
  char recorded_md5[WP_MD5_HEX]; /* the IR's, when taken from a file: checked */
  /* neff-pack's member is an .npy header and these bytes. The header is
   * guessed from this file's tensors (typed when one kind fills it) and
   * the member hashed in the same parallel pass as the key; neff-pack
   * reuses the MD5 when its header turns out the same. */
  bool guess_seen, guess_typed;
  const char *guess_dtype;
  int64_t *guess_shape;
  int guess_rank;
  char *prefix;
  size_t prefix_len;
  char member_md5[WP_MD5_HEX], prefix_md5[WP_MD5_HEX];
  bool key_hashed; /* MD5 taken from the bytes here, not from the IR */
  int failed;
} cfile;

typedef struct ref {
  MlirOperation memloc; /* or a bir.const_table */
  intptr_t row;         /* of the table, or -1 */
  size_t file;
  char *key;     /* md5 + dtype + memory type */
  char *dtype, *memtype;
  int64_t off, size; /* its const_ap_offset and size in FILE */
  size_t unique;     /* index into uniques, once known */
} ref;

typedef struct unique {
  char *name;
  size_t rep; /* the file whose bytes it holds */
} unique;

typedef struct dedup {
  const wp_pass_run *run;
  wp_arena *arena;
  const char *dir;
  cfile *files;
  size_t n_files, cap_files;
  ref *refs;
  size_t n_refs, cap_refs;
  unique *uniques;
  size_t n_uniques;
  bool member_md5; /* neff-pack follows: hash its members too */
  bool raw_members; /* its members are the files' bytes alone: the key MD5 is theirs */
  struct wp_digest_cache *digests; /* digest-cache=, or NULL (wp_dedup_digests.c) */
} dedup;

/* Opens the digest cache the pass option digest-cache=, the driver's
 * setting (opt --digest-cache) or WEIGHTPACK_DIGEST_CACHE names, in that
 * order, into D->digests (NULL when none is named). 0, or -1 after an
 * error at the module (a cache refused). A damaged one is a warning. */
int wp_dedup_digests_open(dedup *d);
/* Saves what the run learned (when SAVE; a failure is a warning: the
 * cache only saves time) and closes it. */
void wp_dedup_digests_close(dedup *d, bool save);
/* wp_md5_jobs_run with the digest cache in front: a job over a file
 * region the cache knows takes its MD5 from there; the others are hashed
 * and remembered. */
void wp_dedup_md5_jobs_run(dedup *d, wp_md5_job *jobs, size_t n, long threads);

/* The IR after grouping: every memory location points at its unique file,
 * one const_file op per unique file replaces the old ones, kernels list
 * the unique files, and artifacts no unique file uses are removed. The
 * bytes saved go to *SAVED. */
int wp_dedup_rewrite(dedup *d, uint64_t *saved);

/* bir.artifacts lists the unique files instead of the old ones. */
void wp_dedup_rewrite_artifact_records(dedup *d);

#endif
