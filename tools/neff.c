/* neff: inspect and check NEFF packages.
 *
 *   neff info F          header fields, members, IR signature, de-dup counters
 *   neff ls F            member names and sizes (--tensors: the tensors)
 *   neff cat F NAME      a member's bytes, else a tensor as .npy (-o OUT)
 *   neff diff A B        what differs between two packages
 *   neff unpack F DIR    members into DIR (names that would leave it refused)
 *   neff verify F        header MD5, every BOM entry, the IR signature
 *
 * Options (before the command): --max-size=BYTES bounds the uncompressed
 * payload; after it, the command's own (--json, --tensors, -o).
 * Exit status: 0 fine, 1 a bad or corrupt package, 2 bad usage. */
#include "weightpack/weightpack.h"
#include "wp_format.h"
#include "wp_md5.h"
#include "wp_npy.h"
#include "wp_neff.h"
#include "wp_neff_read.h"
#include "neff_diff.h"
#include "neff_members.h"
#include "neff_replace.h"
#include "neff_tensors.h"
#include "wp_jsonw.h"
#include "neff_unpack.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage_to(FILE *f) {
  fprintf(f, "usage: neff [--max-size[=]BYTES] [--] info|verify [--json] FILE\n"
             "       neff [--max-size[=]BYTES] [--] ls [--tensors] [--json] FILE\n"
             "       neff [--max-size[=]BYTES] [--] cat FILE MEMBER|TENSOR [-o OUT]\n"
             "       neff [--max-size[=]BYTES] [--] unpack FILE DIR\n"
             "       neff [--max-size[=]BYTES] [--] diff [--json] FILE1 FILE2\n"
             "       neff replace-weights IN.neff MODEL_DIR -o OUT.neff [--compressor=isal|zlib]\n"
             "                            [--depfile=FILE]\n"
             "       neff -h | --help | --version\n");
}

/* Bad usage: one error line naming the problem, then the usage; exit 2. */
static int usage_error(const char *fmt, const char *a, const char *b) {
  fputs("error: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  usage_to(stderr);
  return 2;
}

static int help(void) {
  usage_to(stdout);
  printf("\n"
         "  info     header fields, members, IR signature, de-dup counters\n"
         "  ls       member names and sizes; --tensors: the logical tensors\n"
         "           (name, dtype, shape, member, offset, size, tie)\n"
         "  cat      a member's bytes, else a tensor as a standalone .npy, on\n"
         "           standard output or (all or nothing) into OUT\n"
         "  unpack   every member into DIR, all or nothing\n"
         "  verify   the header, the payload, every BOM entry, the IR signature\n"
         "  diff     header fields, members, variables and tensors that differ\n"
         "           (exit 0 same, 1 different, 2 trouble)\n"
         "  replace-weights  IN with MODEL_DIR's weights (metadata.json, by tensor\n"
         "           name) written to OUT: the NEFF a full opt run would write\n"
         "\n"
         "  --json            one JSON object on standard output (info, ls, verify, diff)\n"
         "  --max-size=BYTES  bound on the uncompressed payload (cat and unpack:\n"
         "                    default max(4 GiB, 64 x the compressed size));\n"
         "                    also --max-size BYTES\n"
         "  --                before the command: ends the options; after it: what\n"
         "                    follows is operands only\n"
         "\n"
         "Exit status: 0 fine, 1 a bad or corrupt package, 2 bad usage.\n");
  return 0;
}

/* The header's text fields are NUL-padded, but a crafted one may hold
 * anything before the NUL. */
static void print_field(const char *label, const char *value) {
  printf("%s", label);
  neff_print_name(value);
  putchar('\n');
}

static void hex(const unsigned char *p, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    sprintf(out + 2 * i, "%02x", p[i]);
}

/* ---- --json ---- */

/* W's text on standard output; W freed. */
static void json_out(wp_jsonw *w) {
  if (w->oom)
    abort(); /* out of memory, as wp_xmalloc would */
  fwrite(w->p, 1, w->len, stdout);
  free(w->p);
}

/* ', "members": [{"name": N, "size": S[, "md5": M]}, ...]' in archive order. */
static void json_members(wp_jsonw *w, const neff_collect *c, bool md5) {
  wp_jsonw_key(w, false, "members");
  wp_jsonw_lit(w, "[");
  for (size_t i = 0; i < c->n; i++) {
    wp_jsonw_lit(w, i ? ", {" : "{");
    wp_jsonw_key(w, true, "name");
    wp_jsonw_str(w, c->m[i].name);
    wp_jsonw_int_field(w, "size", (long long)c->m[i].size);
    if (md5)
      wp_jsonw_str_field(w, "md5", c->m[i].md5);
    wp_jsonw_lit(w, "}");
  }
  wp_jsonw_lit(w, "]");
}

/* A header string field: NUL-padded text a crafted header may fill with
 * anything (bytes that are not UTF-8 become U+FFFD). */
static void info_json(const wp_neff_header *h, const char *path, neff_collect *c) {
  char hash[33], uuid[33], version[48];
  hex(h->hash, 16, hash);
  hex(h->uuid, 16, uuid);
  snprintf(version, sizeof version, "%llu.%llu", (unsigned long long)h->version_major,
           (unsigned long long)h->version_minor);
  uint64_t total = 0;
  for (size_t i = 0; i < c->n; i++)
    total += c->m[i].size;
  wp_jsonw w = {0};
  wp_jsonw_lit(&w, "{");
  wp_jsonw_key(&w, true, "file");
  wp_jsonw_str(&w, path);
  wp_jsonw_int_field(&w, "pkg_version", (long long)h->pkg_version);
  wp_jsonw_int_field(&w, "header_size", (long long)h->header_size);
  wp_jsonw_int_field(&w, "data_size", (long long)h->data_size);
  wp_jsonw_str_field(&w, "neff_version", version);
  wp_jsonw_str_field(&w, "neff_build_version", h->build_version);
  wp_jsonw_str_field(&w, "name", h->name);
  wp_jsonw_str_field(&w, "hash", hash);
  wp_jsonw_str_field(&w, "uuid", uuid);
  wp_jsonw_int_field(&w, "num_tpb", (long long)h->num_tpb);
  wp_jsonw_int_field(&w, "lnc_size", (long long)h->lnc_size);
  wp_jsonw_int_field(&w, "uncompressed_size", (long long)total);
  json_members(&w, c, false);
  neff_member *nj = neff_find(c, "neff.json");
  json_t *j = nj && nj->text ? json_loads(nj->text, 0, NULL) : NULL;
  const char *sig = json_string_value(json_object_get(j, "ir_signature"));
  json_t *d = json_object_get(j, "dedup");
  wp_jsonw_key(&w, false, "ir_signature");
  if (sig)
    wp_jsonw_str(&w, sig);
  else
    wp_jsonw_lit(&w, "null");
  wp_jsonw_key(&w, false, "dedup");
  if (json_is_object(d)) {
    wp_jsonw_lit(&w, "{");
    wp_jsonw_key(&w, true, "unique_files");
    wp_jsonw_int(&w, (long long)json_integer_value(json_object_get(d, "unique_files")));
    wp_jsonw_int_field(&w, "bytes_saved",
                       (long long)json_integer_value(json_object_get(d, "bytes_saved")));
    wp_jsonw_lit(&w, "}");
  } else {
    wp_jsonw_lit(&w, "null");
  }
  json_decref(j);
  wp_jsonw_lit(&w, "}\n");
  json_out(&w);
}

/* verify --json: {"file", "ok", and "members", "payload_md5",
 * "ir_signature"; or "error"}. */
static void verify_json(const char *path, const char *md5, const char *sig, size_t n,
                        const char *error) {
  wp_jsonw w = {0};
  wp_jsonw_lit(&w, "{");
  wp_jsonw_key(&w, true, "file");
  wp_jsonw_str(&w, path);
  wp_jsonw_key(&w, false, "ok");
  wp_jsonw_bool(&w, !error);
  if (error) {
    wp_jsonw_str_field(&w, "error", error);
  } else {
    wp_jsonw_int_field(&w, "members", (long long)n);
    wp_jsonw_str_field(&w, "payload_md5", md5);
    wp_jsonw_str_field(&w, "ir_signature", sig);
  }
  wp_jsonw_lit(&w, "}\n");
  json_out(&w);
}

/* The header is printed only once the payload has been read and checked:
 * a damaged package gives the error line and nothing on standard output,
 * as with ls. */
static int cmd_info(wp_neff_reader *r, const char *path, bool json) {
  const wp_neff_header *h = wp_neff_get_header(r);
  char hash[33], uuid[33];
  hex(h->hash, 16, hash);
  hex(h->uuid, 16, uuid);
  neff_collect c = {0};
  c.keep_json = true;
  if (neff_read_all(r, &c, path, NULL))
    return 1;
  if (json) {
    info_json(h, path, &c);
    neff_free_members(&c);
    return 0;
  }
  printf("file:               %s\n", path);
  printf("pkg_version:        %llu\n", (unsigned long long)h->pkg_version);
  printf("header_size:        %llu\n", (unsigned long long)h->header_size);
  printf("data_size:          %llu\n", (unsigned long long)h->data_size);
  printf("neff_version:       %llu.%llu\n", (unsigned long long)h->version_major,
         (unsigned long long)h->version_minor);
  print_field("neff_build_version: ", h->build_version);
  print_field("name:               ", h->name);
  printf("hash (payload MD5): %s\n", hash);
  printf("uuid:               %s\n", uuid);
  printf("num_tpb:            %u\n", h->num_tpb);
  printf("lnc_size:           %u\n", h->lnc_size);
  uint64_t total = 0;
  for (size_t i = 0; i < c.n; i++)
    total += c.m[i].size;
  printf("members:            %zu (%llu bytes uncompressed)\n", c.n, (unsigned long long)total);
  for (size_t i = 0; i < c.n; i++) {
    printf("  %12llu  ", (unsigned long long)c.m[i].size);
    neff_print_name(c.m[i].name);
    putchar('\n');
  }
  neff_member *nj = neff_find(&c, "neff.json");
  json_t *j = nj && nj->text ? json_loads(nj->text, 0, NULL) : NULL;
  if (j) {
    const char *sig = json_string_value(json_object_get(j, "ir_signature"));
    print_field("ir_signature:       ", sig ? sig : "(none)");
    json_t *d = json_object_get(j, "dedup");
    printf("dedup:              %lld unique files, %lld bytes saved\n",
           (long long)json_integer_value(json_object_get(d, "unique_files")),
           (long long)json_integer_value(json_object_get(d, "bytes_saved")));
    json_decref(j);
  }
  neff_free_members(&c);
  return 0;
}

static int cmd_ls(wp_neff_reader *r, const char *path, bool json) {
  neff_collect c = {0};
  if (neff_read_all(r, &c, path, NULL))
    return 1;
  if (json) {
    wp_jsonw w = {0};
    wp_jsonw_lit(&w, "{");
    wp_jsonw_key(&w, true, "file");
    wp_jsonw_str(&w, path);
    json_members(&w, &c, true);
    wp_jsonw_lit(&w, "}\n");
    json_out(&w);
    neff_free_members(&c);
    return 0;
  }
  for (size_t i = 0; i < c.n; i++) {
    printf("%12llu  ", (unsigned long long)c.m[i].size);
    neff_print_name(c.m[i].name);
    putchar('\n');
  }
  neff_free_members(&c);
  return 0;
}

/* One error line; member names in it come from the package, so control
 * bytes are escaped as in ls. */
static int verify_fail(wp_error *e, const char *path, const char *fmt, const char *a,
                       const char *b) {
  char what[1024];
  snprintf(what, sizeof what, fmt, a, b);
  wp_error_set(e, "%s: %s", path, what);
  fprintf(stderr, "error: %s\n", e->msg);
  return 1;
}

/* What neff.json says of the package against what it holds: its member
 * list (every member once), and each graph, whose definition must be a
 * member. A failure's message, or NULL; NAME gets the member named. */
static const char *package_mismatch(neff_collect *c, json_t *neff, const char **name) {
  json_t *list = json_object_get(neff, "members");
  if (list) {
    if (!json_is_array(list) || json_array_size(list) != c->n)
      return "neff.json's member list is not the package's members";
    for (size_t i = 0; i < c->n; i++)
      c->m[i].listed = false;
    for (size_t i = 0; i < json_array_size(list); i++) {
      *name = json_string_value(json_array_get(list, i));
      neff_member *m = *name ? neff_find(c, *name) : NULL;
      if (!m || m->listed)
        return "neff.json's member list names '%s', which is not one member of the package";
      m->listed = true;
    }
  }
  json_t *graphs = json_object_get(neff, "graphs");
  for (size_t i = 0; i < json_array_size(graphs); i++) {
    *name = json_string_value(json_array_get(graphs, i));
    neff_member *g = *name ? neff_find(c, *name) : NULL;
    if (!g || !g->text)
      return "neff.json's graph '%s' is not a member of the package";
    json_t *kelf = json_loads(g->text, 0, NULL);
    const char *def = json_string_value(json_object_get(kelf, "definition"));
    bool ok = def && neff_find(c, def);
    json_decref(kelf);
    if (!ok)
      return "graph '%s' is not JSON naming its definition, a member of the package";
  }
  return NULL;
}

/* Reading the members checks the payload as it streams (gzip, CRCs, the
 * tar's padding, the header's MD5); then the BOM, the IR signature and,
 * last, the header's other fields (a package rebuilt by hand with only
 * its MD5 redone is named by what it changed). */
static int cmd_verify(wp_neff_reader *r, const char *path, bool json) {
  const wp_neff_header *h = wp_neff_get_header(r);
  char got[33];
  wp_error err;
  hex(h->hash, 16, got);
  neff_collect c = {0};
  c.keep_json = true;
  c.check_keys = true;
  if (neff_read_all(r, &c, path, &err)) {
    if (json)
      verify_json(path, NULL, NULL, 0, err.msg);
    return 1;
  }
  int rc = 1;
  json_t *bom = NULL, *neff = NULL;
  if (c.twice) {
    verify_fail(&err, path, "member '%s' appears twice%s", c.twice, "");
    goto out;
  }
  bool oom = false;
  const char *inside, *clash = neff_path_clash(&c, &inside, &oom);
  if (oom) {
    verify_fail(&err, path, "%s%s", "out of memory", "");
    goto out;
  }
  if (clash) {
    if (inside)
      verify_fail(&err, path, "member '%s' is also the folder of member '%s'", clash, inside);
    else
      verify_fail(&err, path, "member '%s' has a '.' component in its name%s", clash, "");
    goto out;
  }
  neff_member *bm = neff_find(&c, "bom.json"), *nm = neff_find(&c, "neff.json");
  if (!bm || !bm->text || !(bom = json_loads(bm->text, 0, NULL))) {
    verify_fail(&err, path, "%s%s", "bom.json is missing or not JSON", "");
    goto out;
  }
  if (!nm || !nm->text || !(neff = json_loads(nm->text, 0, NULL))) {
    verify_fail(&err, path, "%s%s", "neff.json is missing or not JSON", "");
    goto out;
  }
  json_t *entries = json_object_get(bom, "members");
  for (size_t i = 0; i < json_array_size(entries); i++) {
    json_t *e = json_array_get(entries, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *md5 = json_string_value(json_object_get(e, "md5"));
    json_t *size = json_object_get(e, "size");
    neff_member *m = name ? neff_find(&c, name) : NULL;
    if (!name || !md5 || !json_is_integer(size)) {
      verify_fail(&err, path, "%s%s", "bom.json has a malformed entry", "");
      goto out;
    }
    if (!m) {
      verify_fail(&err, path, "bom.json lists '%s', which the package does not hold%s", name, "");
      goto out;
    }
    if ((uint64_t)json_integer_value(size) != m->size) {
      verify_fail(&err, path, "member '%s' is not the size bom.json gives%s", name, "");
      goto out;
    }
    if (strcmp(md5, m->md5) != 0) {
      verify_fail(&err, path, "member '%s' does not match its MD5 in bom.json (%s)", name, md5);
      goto out;
    }
    if (m->listed) {
      verify_fail(&err, path, "bom.json lists '%s' twice%s", name, "");
      goto out;
    }
    m->listed = true;
  }
  for (size_t i = 0; i < c.n; i++)
    if (!c.m[i].listed && strcmp(c.m[i].name, "bom.json")) {
      verify_fail(&err, path, "member '%s' is not in bom.json%s", c.m[i].name, "");
      goto out;
    }
  for (size_t i = 0; i < c.n; i++) {
    neff_member *m = &c.m[i];
    if (m->key && !m->key_md5[0]) {
      verify_fail(&err, path, "member '%s' is not an .npy file (its name ends in .npy)%s", m->name, "");
      goto out;
    }
    if (m->key && strncmp(m->key, m->key_md5, 32) != 0) {
      verify_fail(&err, path, "member '%s': its bytes' MD5 is %s, not the one its name gives", m->name,
                  m->key_md5);
      goto out;
    }
  }
  /* The IR signature, recomputed from the members themselves, in name
   * order (the writer sorts; a reader must not trust it). */
  wp_neff_member *sorted = calloc(c.n + 1, sizeof *sorted);
  if (!sorted) {
    verify_fail(&err, path, "%s%s", "out of memory", "");
    goto out;
  }
  for (size_t i = 0; i < c.n; i++) {
    sorted[i].name = c.by_name[i]->name;
    memcpy(sorted[i].md5, c.by_name[i]->md5, WP_MD5_HEX);
  }
  char sig[WP_MD5_HEX];
  wp_neff_signature(sorted, c.n, sig);
  free(sorted);
  const char *stored = json_string_value(json_object_get(neff, "ir_signature"));
  if (!stored || strcmp(stored, sig) != 0) {
    verify_fail(&err, path, "the IR signature in neff.json (%s) does not match the members (%s)",
                stored ? stored : "none", sig);
    goto out;
  }
  const char *named = "";
  const char *mismatch = package_mismatch(&c, neff, &named);
  if (mismatch) {
    verify_fail(&err, path, mismatch, named ? named : "?", "");
    goto out;
  }
  const char *unreproducible = wp_neff_unreproducible(r);
  if (unreproducible) {
    verify_fail(&err, path, "%s%s", unreproducible, "");
    goto out;
  }
  if (wp_neff_header_check(r, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  if (json)
    verify_json(path, got, sig, c.n, NULL);
  else
    printf("%s: OK (%zu members, payload MD5 %s, IR signature %s)\n", path, c.n, got, sig);
  rc = 0;
out:
  if (rc && json)
    verify_json(path, NULL, NULL, 0, err.msg);
  json_decref(bom);
  json_decref(neff);
  neff_free_members(&c);
  return rc;
}

/* A command line after the global options: the command, its operands and
 * its own options, which may come anywhere after the command ("--" ends
 * them; anything else, even "-x.neff", is an operand). */
typedef struct cmdline {
  const char *cmd;
  const char *op[2];
  int n_op;
  bool json, tensors;
  const char *out; /* cat -o */
} cmdline;

/* How many operands CMD takes (0: not a command), and their names. */
static int command_operands(const char *cmd, const char **second) {
  *second = NULL;
  if (!strcmp(cmd, "info") || !strcmp(cmd, "ls") || !strcmp(cmd, "verify"))
    return 1;
  if (!strcmp(cmd, "cat"))
    *second = "MEMBER or TENSOR";
  else if (!strcmp(cmd, "unpack"))
    *second = "DIR";
  else if (!strcmp(cmd, "diff"))
    *second = "FILE2";
  return *second ? 2 : 0;
}

/* The command and its operands from argv[i] into L: 0, or 2 after the usage. */
static int check_command(int argc, char **argv, int i, cmdline *l) {
  if (i == argc)
    return usage_error("no command given (info, ls, cat, unpack, verify, diff or replace-weights)%s%s", "", "");
  const char *cmd = l->cmd = argv[i], *second;
  int need = command_operands(cmd, &second);
  if (!need)
    return usage_error("unknown command '%s'%s (info, ls, cat, unpack, verify, diff or replace-weights)", cmd, "");
  bool takes_json = strcmp(cmd, "cat") && strcmp(cmd, "unpack");
  bool options = true;
  for (int k = i + 1; k < argc; k++) {
    const char *a = argv[k];
    if (options && !strcmp(a, "--")) {
      options = false;
    } else if (options && !strcmp(a, "--json") && takes_json) {
      if (l->json)
        return usage_error("%s: --json given twice%s", cmd, "");
      l->json = true;
    } else if (options && !strcmp(a, "--tensors") && !strcmp(cmd, "ls")) {
      if (l->tensors)
        return usage_error("%s: --tensors given twice%s", cmd, "");
      l->tensors = true;
    } else if (options && !strcmp(cmd, "cat") && !strcmp(a, "-o")) {
      if (l->out)
        return usage_error("%s: -o given twice%s", cmd, "");
      if (k + 1 == argc)
        return usage_error("%s: -o needs a file name%s", cmd, "");
      l->out = argv[++k];
      if (!*l->out)
        return usage_error("%s: the -o file name is empty%s", cmd, "");
    } else if (options && (!strncmp(a, "--max-size", 10) || !strcmp(a, "--help") ||
                           !strcmp(a, "-h") || !strcmp(a, "--json") || !strcmp(a, "--tensors") ||
                           !strcmp(a, "-o")) &&
               access(a, F_OK) != 0) {
      /* an option for another place or command, taken for a file name: name it */
      if (!strncmp(a, "--max-size", 10) || !strcmp(a, "--help") || !strcmp(a, "-h"))
        return usage_error("%s: options go before the command ('%s' after it is read as a "
                           "file name)", cmd, a);
      return usage_error("%s: no option '%s' (see --help)", cmd, a);
    } else if (l->n_op == need) {
      return usage_error("%s: unexpected argument '%s'", cmd, a);
    } else {
      l->op[l->n_op++] = a;
    }
  }
  if (l->n_op == 0)
    return usage_error("%s: no FILE given%s", cmd, "");
  if (l->n_op < need)
    return usage_error("%s: no %s given", cmd, second);
  if (!strcmp(cmd, "unpack") && !l->op[1][0])
    return usage_error("unpack: the directory name is empty%s%s", "", "");
  return 0;
}

/* Output lost (a full disk) is a failure, not a success: RC, or 1 after an
 * error line. */
static int flush_stdout(int rc) {
  errno = 0;
  if (fflush(stdout) || ferror(stdout)) {
    if (rc == 0)
      fprintf(stderr, "error: writing to standard output: %s\n",
              errno ? strerror(errno) : "write error");
    rc = 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  /* past a file size limit a write fails with EFBIG, reported and taken
   * back like any other write error, instead of killing the process */
  signal(SIGXFSZ, SIG_IGN);
  uint64_t max_size = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--")) { /* what follows is the command and its operands */
      i++;
      break;
    }
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return flush_stdout(help());
    if (!strcmp(argv[i], "--version")) {
      printf("weightpack neff %s\n", wpVersion());
      return flush_stdout(0);
    }
    /* --max-size=BYTES, or as in LLVM's tools --max-size BYTES */
    bool separate = !strcmp(argv[i], "--max-size");
    if (separate && i + 1 >= argc)
      return usage_error("--max-size needs a byte count%s", "", "");
    if (separate || !strncmp(argv[i], "--max-size=", 11)) {
      if (max_size) /* which bound was meant is a guess */
        return usage_error("--max-size given twice%s", "", "");
      const char *v = separate ? argv[++i] : argv[i] + 11;
      char *end;
      errno = 0;
      max_size = strtoull(v, &end, 10);
      /* strtoull takes "-5" as 2^64-5: only plain digits count */
      if (*v < '0' || *v > '9' || *end || errno == ERANGE || !max_size ||
          max_size > (uint64_t)INT64_MAX) {
        char top[32];
        snprintf(top, sizeof top, "%lld", (long long)INT64_MAX);
        return usage_error("--max-size '%s': give a byte count from 1 to %s", v, top);
      }
    } else {
      return usage_error("unknown option '%s'%s", argv[i], "");
    }
  }
  if (i < argc && !strcmp(argv[i], "replace-weights"))
    return flush_stdout(neff_replace_main(argc - i, argv + i));
  cmdline l = {0};
  int bad = check_command(argc, argv, i, &l);
  if (bad)
    return bad;
  const char *cmd = l.cmd, *path = l.op[0];
  if (!strcmp(cmd, "diff")) {
    /* as diff(1): 0 same, 1 different, 2 trouble (lost output too) */
    int rc = neff_diff(l.op[0], l.op[1], max_size, l.json);
    return flush_stdout(0) ? 2 : rc;
  }
  /* Only what writes the members out needs a bound by default: deflate
   * expands at most about 1032 times, so reading and hashing a payload
   * (info, ls, verify) costs time in proportion to the file anyway, and a
   * NEFF of zero-filled weights legitimately expands far past 64 times. */
  bool writes = !strcmp(cmd, "cat") || !strcmp(cmd, "unpack");
  if (!max_size && !writes)
    max_size = UINT64_MAX;
  wp_error err;
  wp_neff_reader *r = wp_neff_open(path, max_size, &err);
  if (!r) {
    fprintf(stderr, "error: %s\n", err.msg);
    if (l.json && !strcmp(cmd, "verify"))
      verify_json(path, NULL, NULL, 0, err.msg);
    return flush_stdout(1);
  }
  int rc;
  if (!strcmp(cmd, "info"))
    rc = cmd_info(r, path, l.json);
  else if (!strcmp(cmd, "ls"))
    rc = l.tensors ? neff_ls_tensors(r, path, l.json) : cmd_ls(r, path, l.json);
  else if (!strcmp(cmd, "cat"))
    rc = neff_cat(r, path, l.op[1], l.out, max_size);
  else if (!strcmp(cmd, "unpack"))
    rc = neff_unpack(r, l.op[1]);
  else
    rc = cmd_verify(r, path, l.json);
  wp_neff_close(r);
  return flush_stdout(rc);
}
