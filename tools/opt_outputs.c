#include "opt_outputs.h"

#include "opt_args.h"
#include "wp_bir.h"
#include "wp_bir_ops.h"
#include "wp_diag.h"
#include "wp_file.h"
#include "wp_hlo.h"
#include "wp_hlo_text.h"
#include "wp_ir_files.h"
#include "wp_mlir_util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>

/* Does PATH resolve to somewhere under directory DIR? */
static bool inside_dir(const char *path, const char *dir) {
  char *real_path = realpath(path, NULL), *real_dir = realpath(dir, NULL);
  size_t dl = real_dir ? strlen(real_dir) : 0;
  /* "/" is the one directory whose real path ends in a slash */
  bool inside = real_path && real_dir && !strncmp(real_path, real_dir, dl) &&
                (real_path[dl] == '/' || (dl == 1 && real_path[1]));
  free(real_path);
  free(real_dir);
  return inside;
}

/* The file of model directory MD that is the file ST describes (written
 * into BUF when it is a built path), or NULL. */
static const char *model_file(const wp_model_dir *md, const struct stat *st, char *buf, size_t n) {
  snprintf(buf, n, "%s/metadata.json", md->dir);
  if (wp_same_file(buf, st))
    return buf;
  if (md->model_path && wp_same_file(md->model_path, st)) {
    snprintf(buf, n, "%s", md->model_path);
    return buf;
  }
  for (size_t i = 0; i < md->n_weights; i++) {
    snprintf(buf, n, "%s/%s", md->dir, md->weights[i].rel_path);
    if (wp_same_file(buf, st))
      return buf;
  }
  return NULL;
}

/* The input of this run that OUT (an existing file, ST) is, or NULL. */
static const char *clashing_input(const opt_config *cfg, const wp_model_dir *md,
                                  const char *const *dirs, size_t n_dirs, MlirModule module,
                                  const char *out, const struct stat *st, char *buf, size_t n) {
  if (wp_same_file(cfg->input, st))
    return cfg->input;
  if (md->dir && inside_dir(out, md->dir)) {
    const char *clash = model_file(md, st, buf, n);
    if (clash)
      return clash;
  }
  /* metadata.json is read only when the output lies inside its folder
   * (model files may not lead out of it) */
  for (size_t d = 0; d < n_dirs; d++) {
    if (!inside_dir(out, dirs[d]))
      continue;
    wp_model_dir other = {0};
    wp_error err;
    const char *clash = NULL;
    if (wp_model_dir_load(dirs[d], &other, &err) == 0)
      clash = model_file(&other, st, buf, n);
    wp_model_dir_free(&other);
    if (clash)
      return clash;
  }
  /* the constant files of the directory this run works in, and of the one
   * the IR records (copied from there when that is another) */
  const char *clash = wp_ir_input_file(module, cfg->artifact_dir, st, buf, n);
  return clash || !cfg->artifact_dir ? clash : wp_ir_input_file(module, NULL, st, buf, n);
}

/* Does BIR MODULE have a constant file named NAME (its symbol or its
 * artifact)? */
static bool ir_names_const_file(MlirModule module, const char *name) {
  if (!wp_bir_module_is_bir(module))
    return false;
  MlirOperation m = mlirModuleGetOperation(module);
  size_t len = strlen(name);
  for (MlirOperation f = wp_bir_next_function(m, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(m, f)) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockIsNull(b) ? (MlirOperation){NULL}
                                               : mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (!wp_op_is(op, "bir.const_file"))
        continue;
      MlirStringRef v;
      if ((wp_attr_str(op, "sym_name", &v) && v.length == len && !memcmp(v.data, name, len)) ||
          (wp_attr_str(op, "artifact", &v) && v.length == len && !memcmp(v.data, name, len)))
        return true;
    }
  }
  return false;
}

/* 0, or EXIT_USAGE after an error line when output OUT lies in an
 * artifact directory of ADIRS and could take a constant file's name: one
 * ending in .bin (every name bir-lower and dedup-consts give), or one of
 * the input IR's. Either the output would replace a constant file placed
 * before it, or the other way round. A name only known once the passes
 * ran (hand-written BIR's, prefixed with its function's name for another
 * function's file of the same name) is refused by copy-const-artifacts. */
static int artifact_clash(const opt_config *cfg, MlirModule module, const char *out,
                          char *const *adirs, size_t n_adirs) {
  int rc = 0;
  for (size_t i = 0; i < n_adirs && !rc; i++) {
    char *base = wp_output_name_in(out, adirs[i]);
    if (!base)
      continue;
    size_t n = strlen(base);
    if (n >= 4 && !strcmp(base + n - 4, ".bin")) {
      fprintf(stderr, "error: output %s is in the artifact directory %s, where constant files "
                      "are placed under names ending in .bin: it could replace one, or be "
                      "replaced; give the output another name or directory\n", out, adirs[i]);
      rc = EXIT_USAGE;
    } else if (ir_names_const_file(module, base)) {
      fprintf(stderr, "error: output %s is in the artifact directory %s, where the constant "
                      "file %s of %s is placed; give the output another name or directory\n",
              out, adirs[i], base, cfg->input);
      rc = EXIT_USAGE;
    }
    free(base);
  }
  return rc;
}

/* 0 when the directory an output to OUT lands in (through links: where a
 * dangling one points) takes a new file: the output is written beside its
 * place and renamed there, a file it replaces too. */
static int landing_dir_takes(const char *out) {
  char *path = wp_output_path(out);
  char *dir = path ? wp_path_dir(path) : NULL;
  int rc = 0;
  if (dir && access(dir, W_OK | X_OK) != 0) {
    int e = errno;
    if (strcmp(path, out) != 0)
      fprintf(stderr, "error: %s: cannot create output %s: %s\n", out, path, strerror(e));
    else
      fprintf(stderr, "error: %s: cannot create output: %s\n", out, strerror(e));
    rc = EXIT_BAD_INPUT;
  }
  free(dir);
  free(path);
  return rc;
}

int opt_check_stdout(const opt_config *cfg) {
  bool ir = !cfg->packs_neff && (!cfg->output || !strcmp(cfg->output, "-"));
  bool report = cfg->stats_json && !strcmp(cfg->stats_json, "-");
  int flags = ir || report ? fcntl(STDOUT_FILENO, F_GETFL) : O_WRONLY;
  if (flags != -1 && (flags & O_ACCMODE) != O_RDONLY)
    return 0;
  fprintf(stderr, "error: <stdout>: cannot write the %s: standard output is %s\n",
          ir ? "output" : "run report", flags == -1 ? "closed" : "open for reading only");
  return EXIT_BAD_INPUT;
}

int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md,
                      const char *default_model_dir, MlirModule module) {
  const char *outs[MAX_PASSES + 2];
  size_t n_outs = 0;
  const char *dirs[MAX_PASSES + 1];
  size_t n_dirs = 0;
  wp_pass_options opts[MAX_PASSES];
  memset(opts, 0, sizeof opts);
  bool stdout_neff = false;
  bool neff[MAX_PASSES + 2] = {false}; /* outs[i] is a NEFF */
  if (cfg->output)
    outs[n_outs++] = cfg->output;
  if (cfg->stats_json && strcmp(cfg->stats_json, "-") != 0)
    outs[n_outs++] = cfg->stats_json; /* the other outputs' checks (opt_stats_check) */
  for (size_t i = 0; i < cfg->n_passes; i++) {
    wp_error err;
    if (wp_pass_parse_options(cfg->passes[i].info, cfg->passes[i].options, &opts[i], &err))
      continue; /* reported when the pass is created */
    wp_pass_run run = {cfg->passes[i].info, {NULL}, &opts[i], NULL};
    const struct wp_pass_traits *t = &cfg->passes[i].info->traits;
    const char *v = t->output_option ? wp_pass_option(&run, t->output_option) : "";
    if (t->writes_neff) {
      if (v[0] && strcmp(v, "-") != 0) {
        neff[n_outs] = true;
        outs[n_outs++] = v;
      } else if (v[0] || !cfg->output || !strcmp(cfg->output, "-")) {
        stdout_neff = true;
      } else {
        neff[0] = true;
      }
    }
    if (t->model_dir_option) {
      /* its model-dir=, else opt's: MD, or the input file's directory */
      v = wp_pass_option(&run, t->model_dir_option);
      const char *dir = v[0] ? v : md->dir ? NULL : default_model_dir;
      if (dir)
        dirs[n_dirs++] = dir;
    }
  }
  int rc = 0;
  if (stdout_neff) {
    fprintf(stderr, "error: neff-pack writes its NEFF to a file (the header is completed "
                    "after the archive), not to standard output; give -o FILE\n");
    rc = EXIT_USAGE;
  }
  for (size_t o = 0; o < n_outs && !rc; o++) {
    const char *out = outs[o];
    struct stat st;
    if (!out[0]) {
      fprintf(stderr, "error: an empty output file name\n");
      rc = EXIT_USAGE;
    } else if (!strcmp(out, "-")) {
      continue;
    } else if (stat(out, &st) != 0 && errno == ELOOP) {
      fprintf(stderr, "error: %s: cannot open output: %s\n", out, strerror(ELOOP));
      rc = EXIT_BAD_INPUT;
    } else if ((stat(out, &st) != 0 || S_ISREG(st.st_mode)) && (rc = landing_dir_takes(out))) {
      /* found out now rather than after the whole pipeline ran */
    } else if (stat(out, &st) != 0) {
      continue; /* a new file */
    } else if (S_ISDIR(st.st_mode)) {
      fprintf(stderr, "error: %s: is a directory; give an output file\n", out);
      rc = EXIT_USAGE;
    } else if (neff[o] && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
      /* found out now, not after the whole pipeline ran (as neff-pack
       * itself would: the same message and status) */
      fprintf(stderr, "error: %s: a NEFF needs an output it can seek in (its header is "
                      "written last): give a file\n", out);
      rc = EXIT_BAD_INPUT;
    } else if (S_ISREG(st.st_mode)) {
      char buf[PATH_MAX + 512];
      const char *clash = clashing_input(cfg, md, dirs, n_dirs, module, out, &st, buf, sizeof buf);
      if (clash) {
        fprintf(stderr, "error: output %s would replace %s, an input of this run; give "
                        "another output\n", out, clash);
        rc = EXIT_USAGE;
      }
    }
  }
  if (!rc && opt_uses_artifact_dir(cfg)) {
    char *adirs[MAX_PASSES + 1];
    size_t n_adirs = opt_written_artifact_dirs(cfg, adirs);
    for (size_t o = 0; o < n_outs && !rc; o++)
      if (strcmp(outs[o], "-") != 0)
        rc = artifact_clash(cfg, module, outs[o], adirs, n_adirs);
    for (size_t i = 0; i < n_adirs; i++)
      free(adirs[i]);
  }
  if (!rc) /* after the usage errors */
    rc = opt_check_stdout(cfg);
  for (size_t i = 0; i < cfg->n_passes; i++)
    wp_pass_options_free(&opts[i]);
  return rc;
}

size_t opt_output_paths(const opt_config *cfg, char **paths) {
  size_t n = 0;
  if (cfg->output && strcmp(cfg->output, "-") != 0 && (paths[n] = wp_output_path(cfg->output)))
    n++;
  for (size_t i = 0; i < cfg->n_passes; i++) {
    const char *option = cfg->passes[i].info->traits.output_option;
    if (!option)
      continue;
    wp_pass_options opts;
    wp_error err;
    memset(&opts, 0, sizeof opts);
    if (wp_pass_parse_options(cfg->passes[i].info, cfg->passes[i].options, &opts, &err) == 0) {
      wp_pass_run run = {cfg->passes[i].info, {NULL}, &opts, NULL};
      const char *v = wp_pass_option(&run, option);
      if (v[0] && strcmp(v, "-") != 0 && (paths[n] = wp_output_path(v)))
        n++;
    }
    wp_pass_options_free(&opts);
  }
  return n;
}

/* ---- writing the output ---- */

/* Where opt_write_output's bytes go (-o's file, standard output, a chunk's
 * buffer), written as they are printed; nothing more is tried after the
 * first write that fails. */
typedef struct out_sink {
  FILE *f;
  const char *label; /* the output, for messages */
  int error;         /* errno of the first failed write, or 0 */
  void (*cleanup)(void); /* before an exit from MLIR's printer */
} out_sink;

static bool sink_write(out_sink *s, const void *data, size_t len) {
  if (!s->error && len && fwrite(data, 1, len, s->f) != len)
    s->error = errno ? errno : EIO;
  return !s->error;
}

/* MLIR's printer has no way to stop: after a failed write it would still
 * hex-encode every weight for nothing (14 s for 800 MiB). So the run ends
 * at the first one (a full disk, /dev/full, a closed pipe with SIGPIPE
 * ignored), cleaned up as for a signal: temporaries, the files placed in
 * artifact directories it made. */
static _Noreturn void output_failed(const out_sink *s) {
  fprintf(stderr, "error: %s: write failed: %s\n", s->label, strerror(s->error));
  s->cleanup();
  _exit(EXIT_BAD_INPUT);
}

static void file_print_cb(MlirStringRef s, void *user) {
  if (!sink_write(user, s.data, s.length))
    output_failed(user);
}

static int text_sink(void *user, const char *data, size_t len, wp_error *err) {
  out_sink *s = user;
  return sink_write(s, data, len) ? 0 : wp_error_errno(err, s->error, "%s: write failed", s->label);
}

static int json_sink(const char *data, size_t len, void *user) {
  return sink_write(user, data, len) ? 0 : -1;
}

/* A protobuf packed straight into the output (a weight's bytes in one
 * append, from where the IR maps them); after a failed write the rest of
 * the packing appends nothing. */
typedef struct pb_sink {
  ProtobufCBuffer base;
  out_sink *out;
} pb_sink;

static void pb_append(ProtobufCBuffer *b, size_t len, const uint8_t *data) {
  sink_write(((pb_sink *)b)->out, data, len);
}

int opt_write_output(MlirModule m, const opt_config *cfg, MlirOpPrintingFlags flags,
                     FILE *dest, void (*cleanup)(void)) {
  wp_error err;
  const char *path = cfg->output ? cfg->output : "-";
  int rc = -1;
  wp_arena *arena = wp_arena_create();
  const void *bytes = NULL;
  size_t len = 0;
  json_t *json = NULL;
  Xla__HloModuleProto *hlo = NULL;
  wp_output *o = NULL;
  MlirLocation where; /* IR the form cannot hold is reported at its op */
  if (strcmp(cfg->emit, "hlo-proto") == 0 &&
      wp_hlo_export_proto(m, arena, true, &hlo, &where, &err)) {
    wp_emit_error(where, "%s", err.msg);
    goto out;
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
    if (!(json = wp_bir_to_json(msg))) {
      fprintf(stderr, "error: %s: out of memory\n", path);
      goto out;
    }
  }
  o = dest ? NULL : wp_output_open(path, &err);
  if (!dest && !o) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  out_sink sink = {dest ? dest : wp_output_stream(o), strcmp(path, "-") ? path : "<stdout>", 0,
                   cleanup};
  if (strcmp(cfg->emit, "hlo-text") == 0) {
    if (wp_hlo_text_emit_to(m, arena, text_sink, &sink, &where, &err)) {
      if (sink.error)
        fprintf(stderr, "error: %s\n", err.msg);
      else
        wp_emit_error(where, "%s", err.msg);
      goto out;
    }
  } else if (json) {
    if (json_dump_callback(json, json_sink, &sink, JSON_INDENT(1) | JSON_PRESERVE_ORDER)) {
      if (sink.error)
        fprintf(stderr, "error: %s: write failed: %s\n", sink.label, strerror(sink.error));
      else
        fprintf(stderr, "error: %s: out of memory\n", path);
      goto out;
    }
  } else if (hlo) {
    pb_sink packer = {{pb_append}, &sink};
    protobuf_c_message_pack_to_buffer(&hlo->base, &packer.base);
  } else if (bytes) {
    sink_write(&sink, bytes, len);
  } else if (cfg->emit_bytecode) {
    mlirOperationWriteBytecode(mlirModuleGetOperation(m), file_print_cb, &sink);
  } else {
    mlirOperationPrintWithFlags(mlirModuleGetOperation(m), flags, file_print_cb, &sink);
    sink_write(&sink, "\n", 1);
  }
  if (!sink.error && fflush(sink.f) != 0) /* what is still buffered: said alike */
    sink.error = errno ? errno : EIO;
  if (sink.error) {
    fprintf(stderr, "error: %s: write failed: %s\n", sink.label, strerror(sink.error));
    goto out;
  }
  rc = o ? wp_output_commit(o, &err) : 0;
  o = NULL; /* freed by the commit either way */
  if (rc)
    fprintf(stderr, "error: %s\n", err.msg);
out:
  wp_output_abort(o);
  json_decref(json);
  wp_arena_destroy(arena);
  return rc;
}
