#include "opt_outputs.h"

#include "wp_diag.h"
#include "wp_file.h"
#include "wp_hlo.h"
#include "wp_hlo_text.h"
#include "wp_bir.h"
#include "wp_ir_files.h"
#include "wp_mlir_util.h"
#include "wp_output_check.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The input of this run that OUT (an existing file, ST) is, or NULL. */
static const char *clashing_input(const opt_config *cfg, const wp_model_dir *md,
                                  MlirModule module, const struct stat *st, char *buf,
                                  size_t n) {
  if (wp_same_file(cfg->input, st))
    return cfg->input;
  const char *clash = md->dir ? wp_output_model_file(md->dir, md, st, buf, n) : NULL;
  return clash ? clash : wp_ir_input_file(module, cfg->artifact_dir, st, buf, n);
}

/* 0 when the directory an output to OUT lands in (through links: where a
 * dangling one points) takes a new file: the output is written beside its
 * place and renamed there, a file it replaces too. */
static int landing_dir_takes(const char *out) {
  wp_error err;
  if (!wp_output_landing_takes(out, &err))
    return 0;
  fprintf(stderr, "error: %s\n", err.msg);
  return EXIT_BAD_INPUT;
}

static int check_one(const opt_config *cfg, const wp_model_dir *md, MlirModule module,
                     const char *out) {
  struct stat st;
  if (!out[0]) {
    fprintf(stderr, "error: an empty output file name\n");
    return EXIT_USAGE;
  }
  if (!strcmp(out, "-"))
    return 0;
  if (stat(out, &st) != 0) {
    /* into the artifact directory copy-const-artifacts makes: made then */
    if (errno != ELOOP)
      return wp_output_lands_in_new_dir(out, cfg->artifact_dir) ? 0 : landing_dir_takes(out);
    fprintf(stderr, "error: %s: cannot open output: %s\n", out, strerror(ELOOP));
    return EXIT_BAD_INPUT;
  }
  if (S_ISDIR(st.st_mode)) {
    fprintf(stderr, "error: %s: is a directory; give an output file\n", out);
    return EXIT_USAGE;
  }
  if (!S_ISREG(st.st_mode))
    return 0;
  int rc = landing_dir_takes(out);
  char buf[PATH_MAX + 512];
  const char *clash = rc ? NULL : clashing_input(cfg, md, module, &st, buf, sizeof buf);
  if (clash) {
    fprintf(stderr, "error: output %s would replace %s, an input of this run; give another "
                    "output\n", out, clash);
    rc = EXIT_USAGE;
  }
  return rc;
}

/* 0 when standard output can take what goes there (the IR without -o, a
 * --stats-json=-): it is open, for writing. */
int opt_check_stdout(const opt_config *cfg) {
  bool ir = !cfg->output || !strcmp(cfg->output, "-");
  bool report = cfg->stats_json && !strcmp(cfg->stats_json, "-");
  int flags = ir || report ? fcntl(STDOUT_FILENO, F_GETFL) : O_WRONLY;
  if (flags != -1 && (flags & O_ACCMODE) != O_RDONLY)
    return 0;
  fprintf(stderr, "error: <stdout>: cannot write the %s: standard output is %s\n",
          ir ? "output" : "run report", flags == -1 ? "closed" : "open for reading only");
  return EXIT_BAD_INPUT;
}

/* 0, or EXIT_USAGE after an error line when OUT lies in the artifact
 * directory --artifact-dir names under a name ending in .bin, as every
 * constant file's there (bir-lower's and dedup-consts' names): it could
 * replace one, or be replaced by one. */
static int in_artifact_dir(const opt_config *cfg, const char *out) {
  if (!cfg->artifact_dir || !strcmp(out, "-") || !wp_output_takes_bin_name(out, cfg->artifact_dir))
    return 0;
  fprintf(stderr, "error: output %s is in the artifact directory %s, where constant files are "
                  "placed under names ending in .bin: it could replace one, or be replaced; "
                  "give the output another name or directory\n", out, cfg->artifact_dir);
  return EXIT_USAGE;
}

int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md, MlirModule module) {
  /* an input it would replace is named first: the clearer mistake */
  int rc = cfg->output ? check_one(cfg, md, module, cfg->output) : 0;
  if (!rc && cfg->stats_json && strcmp(cfg->stats_json, "-") != 0)
    rc = check_one(cfg, md, module, cfg->stats_json);
  if (!rc && cfg->output)
    rc = in_artifact_dir(cfg, cfg->output);
  if (!rc && cfg->stats_json)
    rc = in_artifact_dir(cfg, cfg->stats_json);
  if (!rc) /* after the usage errors */
    rc = opt_check_stdout(cfg);
  return rc;
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
  /* a module with settings (hlo.config) is written as XLA writes one with
   * its config, HloModuleProtoWithConfig; else a bare HloModuleProto */
  ProtobufCBinaryData hlo_config = {0, NULL};
  bool with_config = false;
  if (strcmp(cfg->emit, "hlo-proto") == 0) {
    const void *cdata;
    size_t clen;
    if (wp_hlo_export_proto(m, arena, true, &hlo, &where, &err) ||
        ((with_config = wp_hlo_module_config(m, &cdata, &clen)) &&
         wp_hlo_config_for_export(arena, hlo, cdata, clen, &hlo_config, &err))) {
      wp_emit_error(with_config ? mlirOperationGetLocation(mlirModuleGetOperation(m)) : where,
                    "%s", err.msg);
      goto out;
    }
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
    if (with_config) { /* field 1: the module, its length first */
      uint8_t head[16];
      size_t n = 0;
      uint64_t v = protobuf_c_message_get_packed_size(&hlo->base);
      head[n++] = 0x0a;
      do {
        head[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
      } while (v);
      sink_write(&sink, head, n);
    }
    protobuf_c_message_pack_to_buffer(&hlo->base, &packer.base);
    if (with_config) { /* field 2: the config */
      ProtobufCBinaryData tail = wp_hlo_wrap_config(arena, NULL, 0, hlo_config.data,
                                                    hlo_config.len);
      sink_write(&sink, tail.data + 2, tail.len - 2); /* without its empty field 1 */
    }
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
