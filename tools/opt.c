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
#include "opt_depfile.h"
#include "opt_diag.h"
#include "opt_hugepages.h"
#include "opt_input.h"
#include "opt_outputs.h"
#include "opt_instrument.h"
#include "opt_progress.h"
#include "opt_split.h"
#include "opt_stats.h"
#include "opt_verify_diag.h"
#include "wp_pass.h"
#include "wp_placed.h"
#include "wp_run.h"
#include "wp_dir_locks.h"
#include "wp_private_dir.h"
#include "wp_output_check.h"
#include "wp_format.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Transforms.h>
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

/* Does output OUT land at PATH (an wp_output_path result)? */
static bool wp_output_path_same(const char *out, const char *path) {
  char *p = wp_output_path(out);
  bool same = p && !strcmp(p, path);
  free(p);
  return same;
}

static void diag_print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

/* ---- input ---- */

/* What a run reads: the input named (DATA NULL), or bytes main has read
 * (a --split-input-file chunk, or the whole input it keeps for
 * --verify-diagnostics), of KIND. */
typedef struct opt_source {
  const unsigned char *data;
  size_t size;
  opt_input_kind kind;
  bool read; /* DATA holds the input (NULL when it is empty) */
} opt_source;

/* Reads the input; for a model directory, MD receives its metadata.json
 * (caller frees, whatever the result), which inline-weights then reuses. */
static int load_input(MlirContext ctx, opt_config *cfg, diag_state *ds, const opt_source *src,
                      MlirModule *out, char **model_dir, wp_model_dir *md, wp_mapped_file *kept) {
  wp_error err;
  const char *path = cfg->input;
  *model_dir = NULL;
  if (!src->data && wp_is_directory(path)) {
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
  if (src->read)
    return opt_parse_input(ctx, path, src->data, src->size, src->kind, ds, out);
  wp_mapped_file f;
  if (opt_read_input(path, &f, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    return -1;
  }
  int rc = opt_parse_input(ctx, path, f.data, f.size, OPT_IN_SNIFF, ds, out);
  if (ds->hlo_text && !ds->text) {
    /* kept for the run: HLO text's diagnostics are shown at their lines */
    *kept = f;
    ds->text = (const char *)f.data;
    ds->text_len = ds->chunk_end = f.size;
    ds->chunk_begin = 0;
  } else {
    wp_file_unmap(&f);
  }
  return rc;
}

/* ---- output ---- */

static void cleanup_from_signal(void);

/* What a write that fails inside MLIR's printer undoes before opt exits
 * (opt_write_output): what a signal's cleanup does, and the private
 * artifact directory. */
static void cleanup_for_exit(void) { cleanup_from_signal(); }

/* Writes M in the form --emit asks for to DEST, or to -o's file when DEST
 * is NULL (opt_write_output). */
static int write_output(MlirModule m, const opt_config *cfg, MlirOpPrintingFlags flags,
                        FILE *dest) {
  return opt_write_output(m, cfg, flags, dest, cleanup_for_exit);
}

/* What a signal handler may undo: temporary outputs, the files placed in
 * artifact directories this run made (the private one among them) and
 * then those directories, if that empties them (a full cleanup is not
 * signal-safe; a private directory left is removed by a later run). */
static void cleanup_from_signal(void) {
  wp_stop_begin_from_signal(); /* no thread makes a file from now on */
  wp_output_abort_all_from_signal();
  wp_dir_locks_remove_made_from_signal();
  wp_private_dirs_remove_from_signal();
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

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A handler for SIG, unless it was ignored when opt started (nohup, a
 * shell's background job): then it stays ignored. */
static void handle_signal(int sig, void (*handler)(int)) {
  struct sigaction old;
  if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
    return;
  signal(sig, handler);
}

/* The form --emit asks for must suit the IR the passes left. 0, or the
 * exit status after an error line. */
static int check_emit_kind(const opt_config *cfg, MlirModule module) {
  bool bir = wp_bir_module_is_bir(module);
  if (!strncmp(cfg->emit, "hlo-", 4) && bir) {
    fprintf(stderr, "error: %s: --emit=%s needs an HLO module, and the IR is BIR%s; give "
                    "--emit=bir-proto or --emit=bir-json\n", cfg->input, cfg->emit,
            cfg->pipeline ? " after the passes" : "");
    return EXIT_BAD_INPUT;
  }
  if (!strncmp(cfg->emit, "bir-", 4) && !bir) {
    fprintf(stderr, "error: %s: --emit=%s needs a BIR module (run --bir-lower)\n", cfg->input,
            cfg->emit);
    return EXIT_BAD_INPUT;
  }
  return 0;
}

static void append_diag(MlirStringRef s, void *user) {
  FILE *f = user;
  fwrite(s.data, 1, s.length, f);
}

/* CFG's pipeline, parsed by MLIR into PM (anchored on builtin.module), its
 * weightpack passes given RUN. 0, or EXIT_BAD_INPUT after MLIR's error
 * (a bad option value among them), as mlir-opt exits. */
static int parse_pipeline(const opt_config *cfg, MlirPassManager pm, wp_run *run) {
  char *msg = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&msg, &len);
  if (!mem)
    wp_out_of_memory();
  MlirLogicalResult parsed =
      mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                            mlirStringRefCreateFromCString(cfg->pipeline), append_diag, mem);
  fclose(mem);
  int rc = 0;
  wp_error err;
  if (mlirLogicalResultIsFailure(parsed)) {
    /* MLIR's message ends in blank lines; it says "error:" itself */
    while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
      msg[--len] = 0;
    fprintf(stderr, "%s%s\n", strstr(msg, "error:") ? "" : "error: ", msg);
    rc = EXIT_BAD_INPUT;
  } else if (wpRunAdoptPasses(run, pm, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    rc = EXIT_BAD_INPUT;
  }
  free(msg);
  return rc;
}

/* One pipeline run on the module SRC holds (a whole input, or a
 * --split-input-file chunk): read, checked, run through the passes and
 * written (to DEST, or -o's file when DEST is NULL). 0, or the exit
 * status. FREE_ALL: take the module and the run apart at the end. */
static int run_one(opt_config *cfg, MlirContext ctx, diag_state *ds, MlirOpPrintingFlags flags,
                   wp_pass_observer *observer, const opt_source *src, FILE *dest,
                   bool free_all, double t_start) {
  observer->n_timings = 0;
  wp_error err;
  wp_run *run = wp_run_create();
  run->observer = observer;
  run->debug = cfg->debug;
  if (ds->progress) {
    run->progress = opt_progress_report;
    run->progress_user = ds->progress;
  }
  MlirModule module = {NULL};
  MlirPassManager pm = {NULL};
  char *model_dir = NULL;
  int rc = EXIT_BAD_INPUT, report_rc = 0;
  wp_model_dir md = {0};
  wp_mapped_file kept = {0};
  /* the pipeline first: a bad pass option is found before a large input
   * is read */
  pm = mlirPassManagerCreateOnOperation(ctx, wp_sref("builtin.module"));
  /* Off by default: the passes build their IR through checked builders,
   * and verifying 300,000 ops after each of five passes was 14% of a
   * 100,000-tensor run. The IR that is written is verified below. */
  mlirPassManagerEnableVerifier(pm, cfg->verify_each);
  /* MLIR's own passes timed too, and every pass named on the progress line */
  if (observer->timing || ds->progress)
    opt_instrument(pm, observer, ds->progress);
  if (cfg->pipeline && (rc = parse_pipeline(cfg, pm, run)) != 0)
    goto out;
  rc = EXIT_BAD_INPUT;
  if (load_input(ctx, cfg, ds, src, &module, &model_dir, &md, &kept))
    goto out;
  opt_depfile_note_input(run, cfg, &md);
  if (cfg->depfile) /* no constant file is placed there */
    wp_run_note_output(run, cfg->depfile);
  /* the driver's settings: defaults for the passes' options */
  run->model_dir = model_dir ? wp_xstrdup(model_dir) : NULL;
  run->model = md.dir ? &md : NULL;
  run->artifact_dir = cfg->artifact_dir ? wp_xstrdup(cfg->artifact_dir) : NULL;
  run->digest_cache = cfg->digest_cache ? wp_xstrdup(cfg->digest_cache) : NULL;
  /* -o names the NEFF of a neff-pack without output= (not when --emit
   * asks for a form of the IR there) */
  if (cfg->output && !strcmp(cfg->emit, "mlir") && !cfg->emit_bytecode && cfg->n_chunks < 2)
    run->neff_output = wp_xstrdup(cfg->output);
  if (cfg->output && strcmp(cfg->output, "-") != 0)
    wp_run_note_output(run, cfg->output);
  if ((rc = opt_check_outputs(cfg, &md, module)) != 0)
    goto out;
  rc = EXIT_BAD_INPUT;
  double t_parsed = now_seconds();
  long parse_peak_kib = wp_pass_peak_rss_kib();
  MlirLocation where;
  if (cfg->verify_roundtrip && wp_verify_roundtrip(module, "parsing", &where, &err)) {
    wp_emit_error(where, "%s", err.msg);
    goto out;
  }
  /* the passes noted their own outputs as MLIR made them (neff-pack's
   * output=): the report may not be one of them (-o was checked) */
  if (cfg->stats_json && strcmp(cfg->stats_json, "-") != 0) {
    char *report = wp_output_path(cfg->stats_json);
    bool clash = false;
    for (size_t i = 0; report && i < run->n_outputs && !clash; i++)
      if (!strcmp(run->outputs[i], report) &&
          !(cfg->output && strcmp(cfg->output, "-") != 0 &&
            wp_output_path_same(cfg->output, report))) {
        fprintf(stderr, "error: --stats-json=%s is also the run's output %s; give the report "
                        "another file\n", cfg->stats_json, run->outputs[i]);
        clash = true;
      }
    free(report);
    if (clash) {
      rc = EXIT_USAGE;
      goto out;
    }
    wp_run_note_output(run, cfg->stats_json);
  }
  rc = EXIT_BAD_INPUT;
  if (cfg->dump_pipeline) { /* as mlir-opt: what runs */
    fprintf(stderr, "Pass Manager with %zu passes:\n", opt_pass_count(pm));
    mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), diag_print_cb, stderr);
    fputs("\n\n", stderr);
  }
  if (cfg->pipeline &&
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    goto out;
  double t_passes = now_seconds();
  opt_progress_clear(ds->progress); /* what follows may print */
  /* A NEFF is the run's output: the IR is written besides only to an -o
   * the NEFF did not take */
  bool packed = run->stats.packed;
  cfg->neff_took_output |= packed && run->neff_to_driver_output;
  bool write_ir = !packed || (cfg->output && !run->neff_to_driver_output);
  if (write_ir && cfg->pipeline && !cfg->verify_each &&
      !mlirOperationVerify(mlirModuleGetOperation(module))) {
    fprintf(stderr, "error: %s: the IR after the passes does not verify\n", cfg->input);
    goto out;
  }
  /* a model directory a pass read (inline-weights' model-dir=, or the
   * one beside a bare module file) is known once the passes ran: -o and
   * --stats-json may not replace one of its files */
  const char *own_outputs[3] = {write_ir ? cfg->output : NULL, cfg->stats_json, cfg->depfile};
  for (size_t i = 0; i < 3; i++) {
    char buf[PATH_MAX + 512];
    const char *clash = own_outputs[i] ? wp_output_input_dir_file(run, own_outputs[i], buf,
                                                                   sizeof buf)
                                       : NULL;
    if (clash) {
      fprintf(stderr, "error: output %s would replace %s, an input of this run; give another "
                      "output\n", own_outputs[i], clash);
      rc = EXIT_USAGE;
      goto out;
    }
  }
  if (write_ir && ((rc = check_emit_kind(cfg, module)) != 0 ||
                   (rc = EXIT_BAD_INPUT, write_output(module, cfg, flags, dest))))
    goto out;
  double t_end = now_seconds();
  opt_stats_times times = {t_parsed - t_start, t_end - t_passes, t_end - t_start,
                           parse_peak_kib, wp_pass_peak_rss_kib()};
  if (cfg->timing)
    opt_stats_print_timing(observer, &times);
  /* A report that cannot be written fails the run, but the outputs are
   * whole by now: the files placed for them stay. */
  if (cfg->stats_json)
    report_rc = opt_stats_write(cfg, observer, &run->stats, &times);
  /* last, after every output is whole: a build system reads it as "made" */
  if (!report_rc)
    report_rc = opt_depfile_write(cfg, run);
  rc = 0;
out:
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  /* The process ends next, and the kernel takes the memory back at once:
   * taking a 100,000-weight module and its context apart op by op and
   * attribute by attribute is time the user waits for (clang's driver
   * skips it too, -disable-free). The sanitizer build frees everything,
   * so that a leak stays visible; so does a run that goes on to another
   * chunk. */
  if (free_all && !mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  free(model_dir);
  /* a run that fails takes back what it placed in directories it made;
   * its private directory goes either way */
  if (rc != 0)
    run->failed = true;
  run->model = NULL; /* freed next */
  wp_model_dir_free(&md);
  wp_run_release(run);
  if (kept.data) {
    ds->text = NULL;
    wp_file_unmap(&kept);
  }
  return rc ? rc : report_rc;
}

/* ---- --split-input-file and --verify-diagnostics ---- */

static void near_miss_cb(void *user, long line, long col) {
  const diag_state *ds = user;
  opt_diag_print(ds, ds->parse_file, line, col, NULL, "warning",
                 "near miss with file split marker", 0);
}

/* Runs every chunk of the input (one, the whole input, without
 * --split-input-file) and joins their outputs with `// -----` lines, as
 * mlir-opt does: a chunk that fails writes nothing and the others still
 * run. With --verify-diagnostics each chunk's diagnostics are checked
 * against its expected-* lines. -o's file is written only when the run
 * succeeds; standard output gets what the chunks that worked wrote. */
static int run_chunks(opt_config *cfg, MlirContext ctx, diag_state *ds,
                      MlirOpPrintingFlags flags, wp_pass_observer *observer, double t_start) {
  wp_mapped_file f = {0};
  wp_error err;
  bool dir = wp_is_directory(cfg->input);
  if (dir && cfg->split_input_file) {
    fprintf(stderr, "error: %s: --split-input-file splits a text file (MLIR or HLO text), not a "
                    "model directory\n(run '%s --help' for usage)\n", cfg->input, opt_prog);
    return EXIT_USAGE;
  }
  if (!dir && opt_read_input(cfg->input, &f, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    return EXIT_BAD_INPUT;
  }
  opt_input_kind kind = dir ? OPT_IN_OTHER : opt_input_kind_of(cfg->input, f.data, f.size);
  bool text = kind == OPT_IN_HLO_TEXT || kind == OPT_IN_MLIR_TEXT;
  if (cfg->split_input_file && !text) {
    fprintf(stderr, "error: %s: --split-input-file splits MLIR or HLO text, and this input is "
                    "%s\n(run '%s --help' for usage)\n", cfg->input,
            f.size ? "neither" : "empty", opt_prog);
    wp_file_unmap(&f);
    return EXIT_USAGE;
  }
  /* kept for the run: source lines, expectations, HLO text's names */
  ds->text = (const char *)f.data;
  ds->text_len = f.size;
  ds->parse_file = cfg->input;
  opt_chunk *chunks = NULL, whole = {0, f.size, 1, 1};
  size_t n = 1;
  if (cfg->split_input_file) {
    n = opt_split(ds->text, f.size, &chunks, near_miss_cb, ds);
  } else {
    for (size_t i = 0; i < f.size; i++)
      whole.last_line += f.data[i] == '\n';
    chunks = &whole;
  }
  cfg->n_chunks = n;
  int rc = opt_split_check_outputs(cfg, n);
  if (!rc) /* once for all chunks, before any runs */
    rc = opt_check_stdout(cfg);
  if (!rc && n == 0) {
    fprintf(stderr, "error: %s: no chunk holds anything but blanks\n", cfg->input);
    rc = EXIT_BAD_INPUT;
  }
  char *joined = NULL;
  size_t joined_len = 0;
  FILE *out = rc ? NULL : open_memstream(&joined, &joined_len);
  bool failed = false, wrote_ir = false;
  for (size_t i = 0; i < n && out; i++) {
    if (i)
      fputs(OPT_SPLIT_MARKER "\n", out); /* as mlir-opt 19 joins them */
    ds->chunk_begin = chunks[i].begin;
    ds->chunk_end = chunks[i].end;
    if (ds->verifier)
      opt_verifier_begin(ds->verifier, ds, chunks[i].first_line, chunks[i].last_line);
    size_t len = f.size;
    char *padded = cfg->split_input_file ? opt_chunk_text(ds->text, &chunks[i], &len) : NULL;
    opt_source src = {padded ? (const unsigned char *)padded : f.data, len,
                      cfg->split_input_file ? kind : OPT_IN_SNIFF, !dir};
    char *one = NULL;
    size_t one_len = 0;
    FILE *mem = open_memstream(&one, &one_len);
    long errors_before = ds->errors;
    int chunk_rc = mem ? run_one(cfg, ctx, ds, flags, observer, &src, mem, true,
                                 i ? now_seconds() : t_start)
                       : EXIT_BAD_INPUT;
    if (mem)
      fclose(mem);
    if (chunk_rc == 0)
      fwrite(one, 1, one_len, out);
    wrote_ir |= chunk_rc == 0;
    free(one);
    free(padded);
    if (ds->verifier)
      opt_verifier_end(ds->verifier, ds);
    if (chunk_rc == EXIT_USAGE) { /* wrong for every chunk */
      rc = EXIT_USAGE;
      break;
    }
    /* with --verify-diagnostics a failure its diagnostics told is
     * checked by the verifier; one told otherwise fails the run */
    if (chunk_rc && (!ds->verifier || ds->errors == errors_before))
      failed = true;
  }
  if (out && fclose(out) == 0 && !rc) {
    rc = failed || (ds->verifier && !opt_verifier_ok(ds->verifier)) ? EXIT_BAD_INPUT : 0;
    const char *path = cfg->output ? cfg->output : "-";
    /* -o's file only for a run that succeeded and wrote IR (not when
     * every chunk failed as --verify-diagnostics expected); stdout shows
     * what worked */
    bool to_file = strcmp(path, "-") != 0;
    if (!cfg->neff_took_output && (!to_file || (!rc && wrote_ir))) {
      wp_output *o = wp_output_open(path, &err);
      if (o)
        fwrite(joined, 1, joined_len, wp_output_stream(o));
      if (!o || wp_output_commit(o, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
        rc = EXIT_BAD_INPUT;
      }
    }
  } else if (!rc) {
    fprintf(stderr, "error: out of memory\n");
    rc = EXIT_BAD_INPUT;
  }
  free(joined);
  if (chunks != &whole)
    free(chunks);
  ds->text = NULL;
  wp_file_unmap(&f);
  return rc;
}
int main(int argc, char **argv) {
  opt_normalize_args(argc, argv);
  int early = opt_early_exit(argc, argv);
  if (early >= 0)
    return early;
  opt_config cfg = {.elide_resources = -1, .progress = -1};
  int rc = opt_parse_args(argc, argv, &cfg);
  if (!rc)
    rc = opt_stats_check(&cfg);
  if (rc) {
    free(cfg.pipeline);
    return rc;
  }
  if (!cfg.emit)
    cfg.emit = "mlir";
  /* the pipeline names passes from MLIR's registry: weightpack's and
   * MLIR's own transformations (canonicalize, cse, symbol-dce ...) */
  wpRegisterPasses();
  mlirRegisterTransformsPasses();
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
    free(cfg.pipeline);
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
                               .no_hlo_verify = cfg.verify_each_off,
                               .timing = cfg.timing || cfg.stats_json,
                               .print_flags = flags};
  /* from here: the first second of the run shows nothing */
  ds.progress = opt_progress_wanted(cfg.progress) ? opt_progress_create() : NULL;
  opt_verifier *verifier = cfg.verify_diagnostics ? opt_verifier_create() : NULL;
  ds.verifier = verifier;
  if (!cfg.split_input_file && !verifier) {
    opt_source whole = {NULL, 0, OPT_IN_SNIFF, false};
    rc = run_one(&cfg, ctx, &ds, flags, &observer, &whole, NULL, frees_at_exit, t_start);
  } else {
    rc = run_chunks(&cfg, ctx, &ds, flags, &observer, t_start);
  }
  opt_verifier_destroy(verifier);
  opt_progress_destroy(ds.progress);
  if (frees_at_exit) {
    mlirOpPrintingFlagsDestroy(flags);
    mlirContextDestroy(ctx);
  }
  free(cfg.pipeline);
  return rc;
}
