/* Runs the neff tool in process (tools/neff.c built with -Dmain=neff_main)
 * and checks its effects from outside: exit statuses, what unpack leaves
 * on disk, and the unpacked bytes against bom.json. */
#include "fuzz_neff_common.h"
#include "fuzz_scratch.h"

#include "wp_md5.h"
#include "wp_neff.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int neff_main(int argc, char **argv);

/* Reads and unpacking are bounded so that one input cannot take seconds. */
#define MAX_SIZE_OPT "--max-size=33554432"

static char g_dir[PATH_MAX / 4], g_neff[PATH_MAX / 2], g_jail[PATH_MAX / 2], g_out[PATH_MAX / 2];
static char g_jail_real[PATH_MAX];

static void die(const char *what, const char *path) {
  fprintf(stderr, "fuzz_neff: %s: %s\n", what, path);
  abort();
}

const char *fuzz_neff_dir(void) {
  if (g_dir[0])
    return g_dir;
  char root[PATH_MAX / 8];
  fuzz_scratch_root("neff", root, sizeof root);
  snprintf(g_dir, sizeof g_dir, "%s/run-%ld", root, (long)getpid());
  snprintf(g_neff, sizeof g_neff, "%s/in.neff", g_dir);
  snprintf(g_jail, sizeof g_jail, "%s/jail", g_dir);
  snprintf(g_out, sizeof g_out, "%s/out/d", g_jail); /* unpack makes out/d */
  if ((mkdir(g_dir, 0755) && errno != EEXIST) || (mkdir(g_jail, 0755) && errno != EEXIST) ||
      !realpath(g_jail, g_jail_real))
    die("cannot make the scratch directory", g_dir);
  /* info and ls print on stdout for every input: to /dev/null, kept open
   * (closing it would make the tool's final flush fail) */
  int fd = open("/dev/null", O_WRONLY);
  if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
    die("cannot open", "/dev/null");
  close(fd);
  return g_dir;
}

const char *fuzz_neff_write(const void *data, size_t len) {
  fuzz_neff_dir();
  FILE *f = fopen(g_neff, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
    die("cannot write", g_neff);
  return g_neff;
}

/* ---- a header around a payload ---- */

static void md5_bytes(const void *p, size_t n, unsigned char out[16]) {
  char hex[WP_MD5_HEX];
  wp_error err;
  if (wp_md5_buffer(p, n, hex, &err))
    abort();
  for (int i = 0; i < 16; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char)v;
  }
}

/* The header neff-pack writes for PAYLOAD (see README, neff-pack). */
void fuzz_neff_header(const unsigned char *payload, size_t n, unsigned char out[1024]) {
  wp_neff_header h = {.pkg_version = 2, .header_size = 1024, .data_size = n,
                      .version_major = 2, .version_minor = 0, .num_tpb = 1,
                      .requested_tpb_count = 1, .lnc_size = 1};
  strcpy(h.build_version, "weightpack 0.1.0");
  strcpy(h.name, "fuzz");
  md5_bytes(payload, n, h.hash);
  char text[16 + 32 + 1]; /* and snprintf's NUL */
  memcpy(text, "weightpack-uuid:", 16);
  for (int i = 0; i < 16; i++)
    snprintf(text + 16 + 2 * i, 3, "%02x", h.hash[i]);
  md5_bytes(text, 16 + 32, h.uuid);
  wp_neff_header_encode(&h, out);
}

/* ---- the escape check: every path unpack creates (fuzz_unpack_wrap.h) ---- */

static bool is_ancestor_of_jail(const char *path) {
  size_t n = strlen(path);
  return strncmp(g_jail, path, n) == 0 && (g_jail[n] == '/' || g_jail[n] == 0);
}

/* Inside the jail by name (no '..' component) and by the resolved parent
 * (no link on the way out). */
static void check_inside(const char *path) {
  size_t n = strlen(g_jail);
  if (strncmp(path, g_jail, n) != 0 || path[n] != '/')
    die("unpack creates a path outside its directory", path);
  for (const char *p = path + n; *p; p++)
    if (p[0] == '/' && p[1] == '.' && p[2] == '.' && (p[3] == '/' || p[3] == 0))
      die("unpack creates a path through '..'", path);
  char parent[PATH_MAX], real[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", path);
  char *slash = strrchr(parent, '/');
  *slash = 0;
  if (realpath(parent, real) && strncmp(real, g_jail_real, strlen(g_jail_real)) != 0)
    die("unpack creates a path whose directory resolves outside", path);
}

int fuzz_unpack_open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  check_inside(path);
  return open(path, flags, mode);
}

int fuzz_unpack_mkdir(const char *path, mode_t mode) {
  if (!is_ancestor_of_jail(path)) /* unpack's mkdir -p walks down from / */
    check_inside(path);
  return mkdir(path, mode);
}

/* ---- after unpack ---- */

typedef struct file_seen {
  char name[PATH_MAX];
  long long size;
  char md5[WP_MD5_HEX];
} file_seen;

static file_seen g_files[4096];
static size_t g_n_files;

static void file_md5(const char *path, char out[WP_MD5_HEX]) {
  wp_error err;
  wp_md5 *h = wp_md5_create(&err);
  FILE *f = fopen(path, "rb");
  if (!h || !f)
    die("cannot hash", path);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    wp_md5_update(h, buf, n);
  fclose(f);
  wp_md5_final_hex(h, out);
  wp_md5_destroy(h);
}

static int note_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)ftw;
  if (type == FTW_D || type == FTW_DP)
    return 0;
  if (type != FTW_F || !S_ISREG(st->st_mode))
    die("unpack left something that is not a file or directory", path);
  size_t n = strlen(g_out);
  if (strncmp(path, g_out, n) != 0 || path[n] != '/')
    die("unpack wrote a file outside its directory", path);
  if (g_n_files == sizeof g_files / sizeof g_files[0])
    return 0; /* more than we check */
  file_seen *f = &g_files[g_n_files++];
  snprintf(f->name, sizeof f->name, "%s", path + n + 1);
  f->size = (long long)st->st_size;
  file_md5(path, f->md5);
  return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)type;
  if (ftw->level > 0 && remove(path) != 0)
    die("cannot remove", path);
  return 0;
}

static bool jail_empty(void) {
  DIR *d = opendir(g_jail);
  if (!d)
    die("cannot read", g_jail);
  struct dirent *e;
  bool empty = true;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      empty = false;
  closedir(d);
  return empty;
}

/* A complete unpack: the files on disk are exactly bom.json's entries
 * (and bom.json), with its sizes and MD5s. */
static void check_unpacked(void) {
  g_n_files = 0;
  if (nftw(g_jail, note_entry, 16, FTW_PHYS) != 0)
    die("cannot walk", g_jail);
  if (g_n_files == sizeof g_files / sizeof g_files[0])
    return;
  char bom_path[PATH_MAX];
  snprintf(bom_path, sizeof bom_path, "%s/bom.json", g_out);
  json_t *bom = json_load_file(bom_path, 0, NULL);
  json_t *members = json_object_get(bom, "members");
  if (!json_is_array(members))
    die("unpack succeeded without a readable bom.json", bom_path);
  size_t listed = json_array_size(members);
  if (listed + 1 != g_n_files)
    die("unpack wrote files that bom.json does not list, or missed some", g_out);
  for (size_t i = 0; i < listed; i++) {
    json_t *e = json_array_get(members, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *md5 = json_string_value(json_object_get(e, "md5"));
    json_int_t size = json_integer_value(json_object_get(e, "size"));
    size_t k = 0;
    while (k < g_n_files && (!name || strcmp(g_files[k].name, name)))
      k++;
    if (k == g_n_files || !md5 || strcmp(md5, g_files[k].md5) || size != g_files[k].size)
      die("an unpacked file does not match its bom.json entry", name ? name : "?");
  }
  json_decref(bom);
}

static int run(const char *cmd, const char *path, const char *operand) {
  char *argv[] = {"neff", MAX_SIZE_OPT, (char *)cmd, (char *)path, (char *)operand, NULL};
  int rc = neff_main(operand ? 5 : 4, argv);
  if (rc != 0 && rc != 1) {
    fprintf(stderr, "fuzz_neff: neff %s exited %d\n", cmd, rc);
    abort();
  }
  return rc;
}

int fuzz_neff_check(const char *path) {
  int info = run("info", path, NULL), ls = run("ls", path, NULL);
  int verify = run("verify", path, NULL), unpack = run("unpack", path, g_out);
  if (info != ls)
    die("info and ls disagree on", path);
  if (verify == 0 && (ls != 0 || unpack != 0))
    die("verify says OK, yet ls or unpack fails on", path);
  if (unpack != 0 && !jail_empty())
    die("a failed unpack left files behind in", g_jail);
  if (unpack == 0)
    check_unpacked();
  if (nftw(g_jail, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    die("cannot clean", g_jail);
  return verify;
}
