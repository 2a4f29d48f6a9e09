/* opt: weightpack's driver. Reads an HLO module (HloModuleProto/HloProto,
 * HLO text, .mlir, or a model directory), runs weightpack passes in MLIR's
 * PassManager in the order given, and writes the result.
 *
 * Exit status: 0 success, 1 bad input or a failed pass, 2 bad usage. */
#include "weightpack/weightpack.h"

#include "wp_bir.h"
#include "wp_bir_ops.h"
#include "wp_file.h"
#include "wp_mapreg.h"
#include "wp_hlo.h"
#include "wp_hlo_text.h"
#include "wp_mlir_util.h"
#include "wp_model_dir.h"
#include "wp_stop.h"
#include "opt_args.h"
#include "opt_config.h"
#include "opt_diag.h"
#include "opt_hugepages.h"
#include "opt_lock.h"
#include "opt_outputs.h"
#include "wp_pass.h"
#include "wp_placed.h"
#include "wp_run.h"
#include "wp_format.h"
#include "wp_text_depth.h"

#include <mlir-c/Diagnostics.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#if defined(__SANITIZE_ADDRESS__)
static const bool frees_at_exit = true;
#else
static const bool frees_at_exit = false;
#endif

static void diag_print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

/* ---- input ---- */

/* Deeper MLIR text would overflow the stack in MLIR's recursive parser
 * (5,000 nested modules did); what weightpack writes nests about ten deep,
 * a dense literal one more per dimension. */
#define MAX_MLIR_DEPTH 1000

/* MLIR bytecode (its magic "ML\xefR") is no text: brackets counted in its
 * bytes mean nothing, and its reader does not recurse on them. */
static bool is_mlir_bytecode(const wp_mapped_file *f) {
  return f->size >= 4 && memcmp(f->data, "ML\xefR", 4) == 0;
}

/* The offset of F's first byte that is not blank. */
static size_t skip_blanks(const wp_mapped_file *f) {
  size_t i = 0;
  while (i < f->size && (f->data[i] == ' ' || f->data[i] == '\n' || f->data[i] == '\t' ||
                         f->data[i] == '\r'))
    i++;
  return i;
}

static int looks_like_mlir(const char *path, const wp_mapped_file *f) {
  size_t n = strlen(path);
  if ((n >= 5 && strcmp(path + n - 5, ".mlir") == 0) || is_mlir_bytecode(f))
    return 1;
  size_t i = skip_blanks(f);
  /* A binary HloModuleProto starts with "\n" and its name's length, so a
   * name of 35 or 33 characters begins "\n#" or "\n!": text has no control
   * characters (MLIR escapes them in strings), a protobuf soon does. */
  for (size_t k = i; k < f->size && k < i + 256; k++) {
    unsigned char c = f->data[k];
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f)
      return 0;
  }
  /* "!" and "#" open type and attribute aliases, which MLIR prints first. */
  static const char *const starts[] = {"module", "//", "func.func", "#", "!",
                                       "\"builtin.module\"", "builtin.module", "{-#"};
  for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
    if (f->size - i >= strlen(starts[k]) && memcmp(f->data + i, starts[k], strlen(starts[k])) == 0)
      return 1;
  return 0;
}

static int looks_like_json(const wp_mapped_file *f) {
  size_t i = skip_blanks(f);
  return i < f->size && f->data[i] == '{';
}

static int load_bir_json(MlirContext ctx, const char *path, const wp_mapped_file *f,
                         MlirModule *out) {
  json_error_t jerr;
  json_t *root = json_loadb((const char *)f->data, f->size, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) {
    fprintf(stderr, "error: %s:%d:%d: malformed JSON: %s\n", path, jerr.line, jerr.column,
            jerr.text);
    return -1;
  }
  wp_arena *arena = wp_arena_create();
  Wp__Bir__Module *msg;
  wp_error err;
  int rc = wp_bir_from_json(arena, root, &msg, &err);
  if (rc == 0)
    rc = wp_bir_from_proto(ctx, msg, path, out, &err);
  if (rc)
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
  json_decref(root);
  wp_arena_destroy(arena);
  return rc;
}

/* The input's bytes: "-" is standard input, and a pipe or FIFO (a process
 * substitution, mlir-opt piped in) is read to its end; a file is mapped. */
static int read_input(const char *path, wp_mapped_file *f, wp_error *err) {
  if (!strcmp(path, "-"))
    return wp_file_read_stream(STDIN_FILENO, "<stdin>", f, err);
  struct stat st;
  if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return wp_error_errno(err, errno, "%s", path);
    if (S_ISCHR(st.st_mode) && !isatty(fd)) { /* /dev/zero would be read until memory ends */
      close(fd);
      return wp_error_set(err, "%s: a device, not a file, pipe or terminal", path);
    }
    int rc = wp_file_read_stream(fd, path, f, err);
    close(fd);
    return rc;
  }
  return wp_file_map(path, f, err);
}

/* Does BIR MODULE record const files an earlier copy-const-artifacts
 * placed: as files in its artifact directory, or (IN_PLACE_TOO) recorded
 * where their bytes are? */
static bool records_placed(MlirModule module, bool in_place_too) {
  MlirOperation m = mlirModuleGetOperation(module);
  for (MlirOperation f = wp_bir_next_function(m, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(m, f)) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockIsNull(b) ? (MlirOperation){NULL}
                                               : mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (wp_op_is(op, "bir.const_file") && !mlirAttributeIsNull(wp_attr(op, "artifact")) &&
          (in_place_too || mlirAttributeIsNull(wp_attr(op, "artifact_in_place"))))
        return true;
  }
  return false;
}

/* Are A and B one directory (however spelled)? */
static bool same_dir(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* The existing artifact directory BIR MODULE records its placed files in
 * (malloc'd), or NULL when it records none or none that is still there. */
static char *placed_artifact_dir(MlirModule module) {
  MlirStringRef path;
  if (!wp_bir_module_is_bir(module) ||
      !wp_attr_str(mlirModuleGetOperation(module), "bir.artifact_path", &path) || !path.length ||
      !records_placed(module, false))
    return NULL;
  char *dir = strndup(path.data, path.length);
  if (dir && !wp_is_directory(dir)) {
    free(dir);
    dir = NULL;
  }
  return dir;
}

/* Reads the input; for a model directory, MD receives its metadata.json
 * (caller frees, whatever the result), which inline-weights then reuses. */
static int load_input(MlirContext ctx, opt_config *cfg, diag_state *ds, MlirModule *out,
                      char **model_dir, wp_model_dir *md) {
  wp_error err;
  const char *path = cfg->input;
  *model_dir = NULL;
  if (wp_is_directory(path)) {
    if (wp_model_dir_load(path, md, &err)) {
      fprintf(stderr, "error: %s\n", err.msg);
      return -1;
    }
    path = md->model_path;
    *model_dir = strdup(cfg->input);
  } else {
    /* A model file's directory is the default model directory; for input
     * that is no file (-, a pipe such as /dev/stdin or a process
     * substitution's /dev/fd/N, a FIFO, a terminal), the working
     * directory. */
    struct stat st;
    bool piped = !strcmp(path, "-") ||
                 (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
                                           S_ISSOCK(st.st_mode)));
    *model_dir = piped ? strdup(".") : wp_path_dir(path);
  }
  wp_mapped_file f;
  size_t depth_line = 0;
  int rc = -1;
  if (read_input(path, &f, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  /* XLA's HLO text first: it may start with `//` comments, as MLIR may */
  bool hlo_text = f.size && wp_hlo_text_sniff(path, f.data, f.size);
  bool mlir = f.size && !hlo_text && looks_like_mlir(path, &f);
  if (f.size == 0) {
    fprintf(stderr, "error: %s: empty file\n", path);
  } else if (hlo_text) {
    if (wp_hlo_text_import(ctx, f.data, f.size, path, out, &err))
      fprintf(stderr, "error: %s\n", err.msg);
    else
      rc = 0;
  } else if (f.size == 0) {
    fprintf(stderr, "error: %s: empty file\n", path);
  } else if (mlir && !is_mlir_bytecode(&f) &&
             wp_text_depth((const char *)f.data, f.size, MAX_MLIR_DEPTH, &depth_line) > MAX_MLIR_DEPTH) {
    fprintf(stderr, "error: %s:%zu: brackets nest more than %d deep; weightpack does not read "
                    "MLIR nested that deep\n", path, depth_line, MAX_MLIR_DEPTH);
  } else if (mlir) {
    /* MLIR's lexer wants a NUL after the text. */
    char *text = malloc(f.size + 1);
    if (!text) {
      fprintf(stderr, "error: %s: out of memory\n", path);
      wp_file_unmap(&f);
      goto out;
    }
    memcpy(text, f.data, f.size);
    text[f.size] = 0;
    /* kept for the whole run: the parsed ops carry that empty name in the
     * locations that passes report */
    ds->parse_file = path;
    long errors_before = ds->errors;
    *out = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, f.size));
    free(text);
    if (mlirModuleIsNull(*out)) {
      if (ds->errors == errors_before) /* else the parser's error said why */
        fprintf(stderr, "error: %s: could not parse MLIR\n", path);
    } else {
      if (wp_hlo_module_is_hlo(*out))
        wp_hlo_fill_ids(*out);
      rc = 0;
    }
  } else if (wp_bir_sniff(f.data, f.size)) {
    if (wp_bir_import(ctx, f.data, f.size, path, out, &err))
      fprintf(stderr, "error: %s: %s\n", path, err.msg);
    else
      rc = 0;
  } else if (looks_like_json(&f)) {
    rc = load_bir_json(ctx, path, &f, out);
  } else if (wp_hlo_sniff(f.data, f.size) != WP_HLO_NOT_HLO) {
    if (wp_hlo_import(ctx, f.data, f.size, path, out, &err))
      fprintf(stderr, "error: %s: %s\n", path, err.msg);
    else
      rc = 0;
  } else {
    fprintf(stderr, "error: %s: not an HloModuleProto, HloProto, HLO text, BIR module or MLIR file\n", path);
  }
  wp_file_unmap(&f);
out:
  return rc;
}

/* ---- output ---- */

static void file_print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

static int write_output(MlirModule m, const opt_config *cfg, MlirOpPrintingFlags flags) {
  wp_error err;
  const char *path = cfg->output ? cfg->output : "-";
  int rc = -1;
  wp_arena *arena = wp_arena_create();
  const void *bytes = NULL;
  size_t len = 0;
  char *out_text = NULL;
  MlirLocation where; /* IR the form cannot hold is reported at its op */
  if (strcmp(cfg->emit, "hlo-proto") == 0 &&
      wp_hlo_export(m, arena, true, &bytes, &len, &where, &err)) {
    wp_emit_error(where, "%s", err.msg);
    goto out;
  }
  if (strcmp(cfg->emit, "hlo-text") == 0) {
    if (wp_hlo_text_emit(m, arena, &out_text, &len, &where, &err)) {
      wp_emit_error(where, "%s", err.msg);
      goto out;
    }
    bytes = out_text; /* malloc'd, freed below */
  }
  if (strcmp(cfg->emit, "bir-proto") == 0 &&
      wp_bir_export(m, arena, &bytes, &len, &where, &err)) {
    wp_emit_error(where, "%s", err.msg);
    goto out;
  }
  if (strcmp(cfg->emit, "bir-json") == 0) {
    Wp__Bir__Module *msg = wp_bir_to_proto(m, arena, 0, &where, &err);
    if (!msg) {
      wp_emit_error(where, "%s", err.msg);
      goto out;
    }
    json_t *j = wp_bir_to_json(msg);
    out_text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!out_text) {
      fprintf(stderr, "error: %s: out of memory\n", path);
      goto out;
    }
    bytes = out_text;
    len = strlen(out_text);
  }
  wp_output *o = wp_output_open(path, &err);
  if (!o) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  if (bytes) {
    fwrite(bytes, 1, len, wp_output_stream(o));
  } else if (cfg->emit_bytecode) {
    mlirOperationWriteBytecode(mlirModuleGetOperation(m), file_print_cb, wp_output_stream(o));
  } else {
    mlirOperationPrintWithFlags(mlirModuleGetOperation(m), flags, file_print_cb,
                                wp_output_stream(o));
    fputc('\n', wp_output_stream(o));
  }
  if (wp_output_commit(o, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  rc = 0;
out:
  free(out_text);
  wp_arena_destroy(arena);
  return rc;
}

static char g_tmp_artifacts[PATH_MAX];
static wp_run *g_run; /* this process's one pipeline run */

/* What a signal handler may undo: temporary outputs, the files placed in
 * artifact directories this run made (the private one among them) and
 * then those directories, if that empties them (a full cleanup is not
 * signal-safe). */
static void cleanup_from_signal(void) {
  wp_stop_begin_from_signal(); /* no thread makes a file from now on */
  wp_output_abort_all_from_signal();
  opt_lock_remove_made_from_signal();
  if (g_tmp_artifacts[0])
    rmdir(g_tmp_artifacts);
}

static void on_signal(int sig) {
  cleanup_from_signal();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* A read of a mapped weight past the end of a file that shrank (or was
 * truncated) while opt ran: one error line naming the file, then the same
 * cleanup as for any signal, and exit status 1 (bad input, not a crash).
 * An address no recorded mapping holds is a crash like any other. */
static void on_bus_error(int sig, siginfo_t *info, void *ucontext) {
  (void)ucontext;
  char path[600];
  /* a page past the end of a mapped file (BUS_ADRERR), as the kernel
   * reports it; not kill, not a hardware memory error */
  size_t n = info && info->si_code == BUS_ADRERR
                 ? wp_mapreg_path_at(info->si_addr, path, sizeof path)
                 : 0;
  if (!n) {
    on_signal(sig); /* dies of the signal once this handler returns */
    return;
  }
  static const char head[] = "error: ", tail[] = ": the file shrank while it was read (a "
                                                 "mapped page past its new end); the output "
                                                 "was not written\n";
  ssize_t w = write(STDERR_FILENO, head, sizeof head - 1);
  w = write(STDERR_FILENO, path, n);
  w = write(STDERR_FILENO, tail, sizeof tail - 1);
  (void)w;
  cleanup_from_signal();
  _exit(1);
}

/* The private artifact directory when none was given: made on demand,
 * removed with everything in it at exit. */

static void remove_tmp_artifacts(void) {
  if (!g_tmp_artifacts[0])
    return;
  DIR *d = opendir(g_tmp_artifacts);
  if (d) {
    int dfd = dirfd(d);
    for (struct dirent *e; (e = readdir(d));)
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
        unlinkat(dfd, e->d_name, 0);
    closedir(d);
  }
  rmdir(g_tmp_artifacts);
  g_tmp_artifacts[0] = 0;
}

/* Where temporary directories go: TMPDIR, else /tmp. */
static const char *tmp_base(void) {
  const char *base = getenv("TMPDIR");
  return base && *base ? base : "/tmp";
}

static const char *private_artifact_dir(void) {
  if (!g_tmp_artifacts[0]) {
    const char *base = tmp_base();
    if (snprintf(g_tmp_artifacts, sizeof g_tmp_artifacts, "%s/wp-artifacts-XXXXXX", base) >=
        (int)sizeof g_tmp_artifacts) {
      g_tmp_artifacts[0] = 0;
      errno = ENAMETOOLONG;
      return NULL;
    }
    if (!mkdtemp(g_tmp_artifacts)) {
      g_tmp_artifacts[0] = 0;
      return NULL;
    }
    /* what a stream or copy_file_range copy places there goes on a signal */
    wp_placed_watch_dir(g_run->placed, g_tmp_artifacts);
  }
  return g_tmp_artifacts;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_timing(const wp_pass_observer *h, double parse, long parse_peak_kib,
                         double output, double total) {
  fprintf(stderr,
          "===-------------------------------------------------------------------------===\n"
          "                         ... Execution time report ...\n"
          "===-------------------------------------------------------------------------===\n"
          "  Total Execution Time: %.4f seconds\n\n"
          "  ----Wall Time----  ----Name----  (peak RSS so far)\n",
          total);
  double t = total > 0 ? total : 1;
  fprintf(stderr, "    %.4f (%5.1f%%)  Parse  (%.1f MiB)\n", parse, 100 * parse / t,
          parse_peak_kib / 1024.0);
  for (size_t i = 0; i < h->n_timings; i++)
    fprintf(stderr, "    %.4f (%5.1f%%)  %s  (%.1f MiB)\n", h->timing_seconds[i],
            100 * h->timing_seconds[i] / t, h->timing_names[i], h->timing_peak_kib[i] / 1024.0);
  fprintf(stderr, "    %.4f (%5.1f%%)  Output\n", output, 100 * output / t);
  fprintf(stderr, "    %.4f (100.0%%)  Total\n", total);
}

/* A handler for SIG, unless it was ignored when opt started (nohup, a
 * shell's background job): then it stays ignored. */
static void handle_signal(int sig, void (*handler)(int)) {
  struct sigaction old;
  if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
    return;
  signal(sig, handler);
}

/* The form --emit asks for must suit the IR the passes leave (BIR after
 * --bir-lower, else the input's kind): found out before they run, not
 * after. 0, or the exit status. */
static int check_emit_kind(const opt_config *cfg, MlirModule module) {
  if (cfg->packs_neff)
    return 0;
  bool lowers = false;
  for (size_t i = 0; i < cfg->n_passes; i++)
    lowers |= cfg->passes[i].info->traits.lowers_to_bir;
  bool bir_out = lowers || wp_bir_module_is_bir(module);
  bool hlo = !strncmp(cfg->emit, "hlo-", 4);
  if (hlo && lowers) {
    fprintf(stderr, "error: --emit=%s cannot follow --bir-lower (the IR is BIR then); "
                    "give --emit=bir-proto or --emit=bir-json\n(run '%s --help' for usage)\n",
            cfg->emit, opt_prog);
    return EXIT_USAGE;
  }
  if (hlo && bir_out) {
    fprintf(stderr, "error: %s: --emit=%s needs an HLO module, and this one is BIR; give "
                    "--emit=bir-proto or --emit=bir-json\n", cfg->input, cfg->emit);
    return EXIT_BAD_INPUT;
  }
  if (!strncmp(cfg->emit, "bir-", 4) && !bir_out) {
    fprintf(stderr, "error: %s: --emit=%s needs a BIR module (run --bir-lower)\n", cfg->input,
            cfg->emit);
    return EXIT_BAD_INPUT;
  }
  return 0;
}

/* The passes neff-pack brings along run before it: on a module that is not
 * BIR yet, the first of them would fail under its own name, a pass the
 * user never gave. */
static bool implied_pass_before_bir(const opt_config *cfg, MlirModule module) {
  if (wp_bir_module_is_bir(module))
    return false;
  for (size_t i = 0; i < cfg->n_passes; i++) {
    if (cfg->passes[i].info->traits.lowers_to_bir)
      return false;
    if (cfg->passes[i].implied)
      return true;
  }
  return false;
}

int main(int argc, char **argv) {
  opt_normalize_args(argc, argv);
  int early = opt_early_exit(argc, argv);
  if (early >= 0)
    return early;
  opt_config cfg = {.elide_resources = -1};
  int rc = opt_parse_args(argc, argv, &cfg);
  if (rc) {
    free(cfg.pipeline_text);
    return rc;
  }
  if (!cfg.emit)
    cfg.emit = "mlir";
  /* After the arguments: whether it pays depends on the input's size. */
  if (opt_exec_with_huge_pages(argv, cfg.input) && cfg.debug)
    fprintf(stderr, "opt: restarted with huge pages for malloc (a large input)\n");
  handle_signal(SIGINT, on_signal);
  handle_signal(SIGTERM, on_signal);
  handle_signal(SIGHUP, on_signal);
  handle_signal(SIGPIPE, on_signal); /* stderr piped into a reader that went away */
#if !defined(__SANITIZE_ADDRESS__) && !defined(WP_SANITIZE)
  /* A crash (say SIGBUS from a weight file truncated while mapped) must
   * not leave a temporary output behind either; the default action (core
   * dump, status) follows the cleanup. Sanitizer builds keep their own
   * handlers, which report more (except for SIGBUS, below). */
  signal(SIGSEGV, on_signal);
  signal(SIGABRT, on_signal);
  signal(SIGFPE, on_signal);
  signal(SIGILL, on_signal);
#endif
  /* in every build: a weight file that shrank is bad input, not a crash */
  struct sigaction bus = {.sa_sigaction = on_bus_error, .sa_flags = SA_SIGINFO};
  sigemptyset(&bus.sa_mask);
  sigaction(SIGBUS, &bus, NULL);
  /* A write past a file size limit then fails with EFBIG, reported like
   * any other write error, instead of killing the process. */
  signal(SIGXFSZ, SIG_IGN);

  double t_start = now_seconds();
  MlirContext ctx = mlirContextCreate();
  /* The parallel work (hashing, placing, compressing) runs on weightpack's
   * own threads, which never touch MLIR. MLIR's multithreading would only
   * lock every attribute and type lookup: 15% of the time of a model with
   * 100,000 tensors. */
  mlirContextEnableMultithreading(ctx, false);
  diag_state ds = {NULL};
  mlirContextAttachDiagnosticHandler(ctx, opt_diag_handler, &ds, NULL);
  wp_error err;
  if (wpLoadDialects(ctx, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    mlirContextDestroy(ctx);
    free(cfg.pipeline_text);
    return EXIT_BAD_INPUT;
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (cfg.debuginfo)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  if (cfg.print_generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (cfg.elide_resources >= 0) {
    /* MLIR 19 hex-encodes every blob before deciding to elide it, which
     * costs twice the weights' size in memory. Printing in local scope
     * skips the resource section altogether. */
    mlirOpPrintingFlagsElideLargeResourceString(flags, cfg.elide_resources);
    mlirOpPrintingFlagsUseLocalScope(flags);
  }
  wp_pass_observer observer = {.print_ir_after_all = cfg.print_ir_after_all,
                               .print_ir_before_all = cfg.print_ir_before_all,
                               .print_ir_after = cfg.print_ir_after,
                               .print_ir_before = cfg.print_ir_before,
                               .verify_roundtrip = cfg.verify_roundtrip,
                               .timing = cfg.timing,
                               .print_flags = flags};
  wp_run *run = g_run = wp_run_create();
  run->observer = &observer;
  run->debug = cfg.debug;
  /* opt checks where its outputs land before any pass runs */
  run->checks_outputs = true;
  opt_lock_use_placed(run->placed);
  MlirModule module = {NULL};
  MlirPassManager pm = {NULL};
  char *model_dir = NULL;
  char *input_placed = NULL;
  char *out_paths[MAX_PASSES + 1];
  size_t n_out_paths = 0;
  rc = EXIT_BAD_INPUT;
  wp_model_dir md = {0};
  opt_dir_locks locks = {0};
  if (load_input(ctx, &cfg, &ds, &module, &model_dir, &md))
    goto out;
  run->model_dir = model_dir ? wp_xstrdup(model_dir) : NULL;
  run->model = md.dir ? &md : NULL;
  /* IR placed in an artifact directory by an earlier run has its files
   * there: packing it from a new private directory would fail on a missing
   * file, and using the recorded one unasked would let an IR file (perhaps
   * someone else's, its path relative to another directory) rename and
   * remove files wherever it points. So: name it with --artifact-dir. */
  input_placed = opt_uses_artifact_dir(&cfg) ? placed_artifact_dir(module) : NULL;
  cfg.input_artifact_dir = input_placed;
  if (input_placed && !cfg.artifact_dir) {
    fprintf(stderr, "error: %s: its constant files were placed in %s; give --artifact-dir=%s "
                    "to go on from there\n(run '%s --help' for usage)\n",
            cfg.input, input_placed, input_placed, opt_prog);
    rc = EXIT_USAGE;
    goto out;
  }
  /* dedup-consts with no copy-const-artifacts before it renames the files
   * where they are: another --artifact-dir would be made and locked for
   * nothing while that one changes unlocked */
  if (input_placed && opt_dedup_before_copy(&cfg) && !same_dir(cfg.artifact_dir, input_placed)) {
    fprintf(stderr, "error: %s: its constant files are in %s, where --dedup-consts works when "
                    "no --copy-const-artifacts comes before it; give --artifact-dir=%s, or "
                    "--copy-const-artifacts first to copy them to %s\n(run '%s --help' for "
                    "usage)\n",
            cfg.input, input_placed, input_placed, cfg.artifact_dir, opt_prog);
    rc = EXIT_USAGE;
    goto out;
  }
  /* dedup-consts before any copy-const-artifacts works where an earlier
   * run placed the files: with none placed it has nothing to work in,
   * found now rather than after the passes before it */
  if (!input_placed && opt_dedup_before_copy(&cfg) &&
      !(wp_bir_module_is_bir(module) && records_placed(module, true))) {
    fprintf(stderr, "error: %s: --dedup-consts comes before any --copy-const-artifacts, and "
                    "no earlier run placed the input's constant files in an artifact directory; "
                    "run --copy-const-artifacts first\n(run '%s --help' for usage)\n",
            cfg.input, opt_prog);
    rc = EXIT_USAGE;
    goto out;
  }
  const char *method = opt_private_copy_method(&cfg);
  if (method) {
    fprintf(stderr, "error: copy-const-artifacts copy-method=%s would copy the constant files "
                    "into opt's private temporary directory, which is removed at exit, and the "
                    "IR written would name files that are gone; give --artifact-dir=DIR (or "
                    "copy-method=auto, which records them where they are)\n(run '%s --help' "
                    "for usage)\n", method, opt_prog);
    rc = EXIT_USAGE;
    goto out;
  }
  if ((rc = check_emit_kind(&cfg, module)) != 0)
    goto out;
  rc = EXIT_BAD_INPUT;
  if (implied_pass_before_bir(&cfg, module)) {
    wp_emit_error(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                  "neff-pack: the module is not BIR (run --bir-lower first)");
    goto out;
  }
  /* before the output checks: an -o inside an artifact directory this run
   * creates is fine */
  if ((rc = opt_lock_artifact_dirs(&cfg, &locks)) != 0 ||
      (rc = opt_check_outputs(&cfg, &md, model_dir, module)) != 0)
    goto out;
  rc = EXIT_BAD_INPUT;
  double t_parsed = now_seconds();
  long parse_peak_kib = wp_pass_peak_rss_kib();
  MlirLocation where;
  if (cfg.verify_roundtrip && wp_verify_roundtrip(module, "parsing", &where, &err)) {
    wp_emit_error(where, "%s", err.msg);
    goto out;
  }
  n_out_paths = opt_output_paths(&cfg, out_paths);
  run->outputs = wp_xcalloc(n_out_paths + 1, sizeof *run->outputs);
  for (size_t i = 0; i < n_out_paths; i++)
    run->outputs[run->n_outputs++] = wp_xstrdup(out_paths[i]);
  run->artifact_dir = cfg.artifact_dir ? wp_xstrdup(cfg.artifact_dir) : NULL;
  /* -o names the NEFF when neff-pack runs (its own output= otherwise) */
  if (cfg.packs_neff && cfg.output)
    run->neff_output = wp_xstrdup(cfg.output);
  for (size_t i = 0; i < cfg.n_passes && !run->artifact_dir; i++)
    if (cfg.passes[i].info->traits.places_files) {
      run->artifact_dir_private = true;
      const char *tmp = private_artifact_dir();
      if (tmp)
        run->artifact_dir = wp_xstrdup(tmp);
      else {
        fprintf(stderr, "error: cannot create a temporary artifact directory in %s: %s (set "
                "TMPDIR to a writable directory, or give --artifact-dir=DIR)\n",
                tmp_base(), strerror(errno));
        goto out;
      }
    }
  pm = mlirPassManagerCreateOnOperation(ctx, wp_sref("builtin.module"));
  /* Off by default: the passes build their IR through checked builders,
   * and verifying 300,000 ops after each of five passes was 14% of a
   * 100,000-tensor run. The IR that is written is verified below. */
  mlirPassManagerEnableVerifier(pm, cfg.verify_each);
  for (size_t i = 0; i < cfg.n_passes; i++) {
    if (cfg.passes[i].upstream) { /* checked when the pipeline was read */
      char *text = wp_format("%s%s%s%s", cfg.passes[i].upstream,
                             cfg.passes[i].options[0] ? "{" : "", cfg.passes[i].options,
                             cfg.passes[i].options[0] ? "}" : "");
      MlirLogicalResult added = mlirOpPassManagerAddPipeline(
          mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(text),
          diag_print_cb, stderr);
      free(text);
      if (mlirLogicalResultIsFailure(added)) {
        rc = EXIT_USAGE;
        goto out;
      }
      continue;
    }
    MlirPass p = wp_pass_create(cfg.passes[i].info, cfg.passes[i].options, run, &err);
    if (p.ptr == NULL) {
      fprintf(stderr, "error: %s\n", err.msg);
      rc = EXIT_USAGE;
      goto out;
    }
    mlirPassManagerAddOwnedPass(pm, p);
  }
  if (cfg.dump_pipeline) { /* as mlir-opt: what runs, brought-along passes included */
    fprintf(stderr, "Pass Manager with %zu passes:\n", cfg.n_passes);
    mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), diag_print_cb, stderr);
    fputs("\n\n", stderr);
  }
  if (cfg.n_passes &&
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    goto out;
  double t_passes = now_seconds();
  if (!cfg.packs_neff && cfg.n_passes && !cfg.verify_each &&
      !mlirOperationVerify(mlirModuleGetOperation(module))) {
    fprintf(stderr, "error: %s: the IR after the passes does not verify\n", cfg.input);
    goto out;
  }
  if (!cfg.packs_neff && write_output(module, &cfg, flags))
    goto out;
  if (cfg.timing) {
    double t_end = now_seconds();
    print_timing(&observer, t_parsed - t_start, parse_peak_kib, t_end - t_passes, t_end - t_start);
  }
  rc = 0;
out:
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  /* The process ends next, and the kernel takes the memory back at once:
   * taking a 100,000-weight module and its context apart op by op and
   * attribute by attribute is time the user waits for (clang's driver
   * skips it too, -disable-free). The sanitizer build frees everything,
   * so that a leak stays visible. */
  if (frees_at_exit) {
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
    mlirOpPrintingFlagsDestroy(flags);
    mlirContextDestroy(ctx);
  }
  free(model_dir);
  free(input_placed);
  for (size_t i = 0; i < n_out_paths; i++)
    free(out_paths[i]);
  wp_model_dir_free(&md);
  remove_tmp_artifacts();
  opt_unlock_artifact_dirs(&locks, rc != 0);
  opt_lock_use_placed(NULL);
  g_run = NULL;
  if (frees_at_exit)
    wp_run_release(run);
  free(cfg.pipeline_text);
  return rc;
}
