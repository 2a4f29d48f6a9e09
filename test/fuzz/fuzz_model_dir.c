/* libFuzzer harness: metadata.json and the model directory's path rules.
 *
 * The input is written as metadata.json into a private model directory
 * (made once per process under $TMPDIR/wp-fuzz/parsers, or $WP_FUZZ_DIR) that holds a
 * model file, a weight, a FIFO and hostile links: to a file and a
 * directory outside, to '/', a dangling one and a loop. wp_model_dir_load
 * reads it; every weight path it accepts is then resolved the three ways
 * inline-weights does (unchecked, cached, plain). A crash is one finding;
 * the others are answers that break the directory's contract:
 *   - a model path or weight path accepted that leads outside the
 *     directory (checked with realpath here, independently);
 *   - a model path that is not a regular file, or is metadata.json;
 *   - a load failure without a message, a success with no model path;
 *   - the unchecked and the full resolution disagreeing on the path.
 * The directory is named four ways in turn (absolute, with a trailing
 * slash, relative, "./"-relative) so join() sees each form. */
#include "fuzz_scratch.h"
#include "wp_model_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libFuzzer's entry points (declared for -Wmissing-prototypes) */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char base[PATH_MAX];     /* the private temp dir (real path) */
static char real_dir[PATH_MAX]; /* base/model */
static char start_dir[PATH_MAX]; /* libFuzzer's corpus paths are relative to it */

static void must(int ok, const char *what) {
  if (!ok) {
    perror(what);
    abort();
  }
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  must(f != NULL, path);
  fputs(text, f);
  fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  char root[PATH_MAX / 2];
  if (getenv("WP_FUZZ_DIR"))
    snprintf(root, sizeof root, "%s", getenv("WP_FUZZ_DIR"));
  else
    fuzz_scratch_root("parsers", root, sizeof root);
  char tmpl[PATH_MAX];
  snprintf(tmpl, sizeof tmpl, "%s/md.XXXXXX", root);
  must(mkdtemp(tmpl) != NULL, tmpl);
  must(realpath(tmpl, base) != NULL, tmpl);
  must(getcwd(start_dir, sizeof start_dir) != NULL, "getcwd");
  must(chdir(base) == 0, base);
  must(mkdir("model", 0755) == 0 && mkdir("model/weights", 0755) == 0 &&
           mkdir("model/weights/sub", 0755) == 0 && mkdir("outside_dir", 0755) == 0,
       "mkdir");
  put("model/model.hlo.pb", "not really a proto");
  put("model/weights/w.npy", "\x93NUMPY");
  put("outside.npy", "\x93NUMPY");
  put("outside_dir/model.hlo.pb", "outside");
  char abs_out[PATH_MAX + 16];
  snprintf(abs_out, sizeof abs_out, "%s/outside.npy", base);
  must(symlink("weights/w.npy", "model/link_in") == 0 &&
           symlink("../outside.npy", "model/link_out") == 0 &&
           symlink(abs_out, "model/abs_out") == 0 && symlink("..", "model/dir_out") == 0 &&
           symlink("../outside_dir", "model/dir_out2") == 0 &&
           symlink("weights", "model/dir_in") == 0 && symlink("/", "model/root") == 0 &&
           symlink("loop", "model/loop") == 0 && symlink("nothing", "model/dangling") == 0 &&
           symlink("metadata.json", "model/meta_link") == 0 &&
           symlink("../../model", "model/weights/up2") == 0,
       "symlink");
  must(mkfifo("model/fifo", 0644) == 0, "mkfifo");
  must(realpath("model", real_dir) != NULL, "model");
  must(chdir(start_dir) == 0, start_dir);
  return 0;
}

/* Is PATH, resolved by the kernel, inside the model directory? 1 inside,
 * 0 outside, -1 when it does not resolve. */
static int inside(const char *path) {
  char r[PATH_MAX];
  if (!realpath(path, r))
    return -1;
  size_t n = strlen(real_dir);
  return strncmp(r, real_dir, n) == 0 && (r[n] == '/' || r[n] == 0);
}

static int one_input(const uint8_t *data, size_t size);

static void check_weight(const char *dir, const wp_weight_ref *w, wp_resolve_cache *cache) {
  if (!w->rel_path || (w->param_name != NULL) == (w->param_number >= 0) ||
      (w->number_is_key && w->param_number < 0))
    abort();
  char *unchecked = NULL, *cached = NULL, *plain = NULL;
  wp_error err;
  int urc = wp_model_dir_resolve_unchecked(cache, dir, w->rel_path, &unchecked);
  int crc = wp_model_dir_resolve_cached(cache, dir, w->rel_path, 0, &cached, &err);
  int prc = wp_model_dir_resolve(dir, w->rel_path, 1, &plain, &err);
  if (crc == 0 && inside(cached) != 1)
    abort(); /* accepted a path that leaves the directory or does not exist */
  if (prc == 0 && inside(plain) == 0)
    abort();
  if (urc == 0) {
    /* inline-weights opens it with O_NOFOLLOW: a link fails and is
     * rechecked; anything else it opens must be inside */
    struct stat st;
    if (lstat(unchecked, &st) == 0 && !S_ISLNK(st.st_mode) && inside(unchecked) == 0)
      abort();
    if (crc == 0 && strcmp(unchecked, cached) != 0)
      abort();
  }
  if ((crc != 0 && cached) || (prc != 0 && plain) || (urc != 0 && unchecked))
    abort();
  free(unchecked);
  free(cached);
  free(plain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* in the private directory for the relative forms; back before libFuzzer
   * writes a corpus file */
  must(chdir(base) == 0, base);
  int rc = one_input(data, size);
  must(chdir(start_dir) == 0, start_dir);
  return rc;
}

static int one_input(const uint8_t *data, size_t size) {
  FILE *f = fopen("model/metadata.json", "wb");
  must(f != NULL, "metadata.json");
  must(fwrite(data, 1, size, f) == size && fclose(f) == 0, "write metadata.json");

  char dir[PATH_MAX + 16];
  switch (size % 4) {
  case 0: snprintf(dir, sizeof dir, "%s", real_dir); break;
  case 1: snprintf(dir, sizeof dir, "%s/", real_dir); break;
  case 2: snprintf(dir, sizeof dir, "model"); break;
  default: snprintf(dir, sizeof dir, "./model/"); break;
  }
  wp_model_dir md;
  wp_error err;
  err.msg[0] = 0;
  if (wp_model_dir_load(dir, &md, &err) != 0) {
    if (!err.msg[0] || md.dir || md.model_path || md.weights || md.n_weights)
      abort();
    return 0;
  }
  struct stat st, meta;
  if (!md.dir || !md.model_path || strcmp(md.dir, dir) != 0 ||
      stat(md.model_path, &st) != 0 || !S_ISREG(st.st_mode) || inside(md.model_path) != 1 ||
      stat("model/metadata.json", &meta) != 0 ||
      (st.st_dev == meta.st_dev && st.st_ino == meta.st_ino))
    abort();
  wp_resolve_cache *cache = calloc(1, sizeof *cache);
  must(cache != NULL, "calloc");
  for (size_t i = 0; i < md.n_weights; i++)
    check_weight(dir, &md.weights[i], cache);
  free(cache);
  wp_model_dir_free(&md);
  return 0;
}
