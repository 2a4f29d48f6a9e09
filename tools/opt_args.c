/* opt's command line: the help and the options parsed into an
 * opt_config. */
#include "opt_args.h"

#include "weightpack/weightpack.h"
#include "wp_format.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [options] INPUT\n"
          "\n"
          "INPUT is an HloModuleProto or HloProto (.pb), XLA's HLO text (.hlo), MLIR\n"
          "text or bytecode, a BIR module (weightpack's protobuf or JSON form), or a\n"
          "model directory holding metadata.json (see README, \"Model directory\"); -\n"
          "(or a pipe) is read to its end. Without INPUT, standard input is read when\n"
          "it is a pipe or a file.\n"
          "\n"
          "Options:\n"
          "  -o FILE                    write the result to FILE (default: stdout)\n"
          "  --emit=KIND                mlir (default) | hlo-proto | hlo-text | bir-proto | bir-json\n"
          "  --emit-bytecode            write MLIR as bytecode (with --emit=mlir)\n"
          "  --verify-roundtrip         after parsing and after every pass, write the IR to\n"
          "                             its protobuf form, read it back and require the\n"
          "                             same printed IR\n"
          "  --verify-each              verify the IR after every pass (mlir-opt's default;\n"
          "                             here the IR is verified after parsing and before\n"
          "                             it is written)\n"
          "  --mlir-print-ir-after-all  print the IR to stderr after every pass\n"
          "  --mlir-print-ir-before-all print it before every pass\n"
          "  --mlir-print-ir-after=PASS, --mlir-print-ir-before=PASS\n"
          "                             only after (before) these passes (comma-separated)\n"
          "  --mlir-print-op-generic    print ops in their generic form\n"
          "  --dump-pass-pipeline       print the pipeline, options and all, to stderr\n"
          "  --mlir-print-debuginfo     print locations\n"
          "  --mlir-elide-resource-strings-if-larger=N\n"
          "                             leave the resource blobs (weights' bytes) out of\n"
          "                             MLIR text; N is taken for mlir-opt's flag, but\n"
          "                             every blob is left out (see README)\n"
          "  --mlir-timing              report the time each stage took (and the peak RSS\n"
          "                             so far), on stderr\n"
          "  --stats-json=FILE          write a JSON report of the run to FILE (- for\n"
          "                             stdout): each pass's time and peak RSS, tensors,\n"
          "                             bytes, blobs and compression (see docs/opt.md)\n"
          "  --depfile=FILE             after a run that succeeded, write FILE: -o's file\n"
          "                             and every file the run read, as a Make/Ninja\n"
          "                             rule (see docs/build-systems.md)\n"
          "  --digest-cache=DIR         remember weight files' MD5s in DIR across runs\n"
          "                             (default: $WEIGHTPACK_DIGEST_CACHE; see\n"
          "                             docs/build-systems.md)\n"
          "  --progress, --no-progress  show (or not) a progress line on stderr; default:\n"
          "                             when stderr is a terminal, for runs over a second\n"
          "  --split-input-file         cut a text input at its '// -----' lines and run each\n"
          "                             chunk on its own; outputs joined by '// -----'\n"
          "  --verify-diagnostics       check the diagnostics against the input's\n"
          "                             expected-error/warning/remark/note comments\n"
          "  --artifact-dir=DIR         the module's artifact directory (default: a private\n"
          "                             temporary directory, removed at exit, where constant\n"
          "                             files are recorded in place instead of copied)\n"
          "  --debug                    log what the file passes do, per file\n"
          "  --list-passes              list the passes and their options\n"
          "  --print-irdl=DIALECT       print the IRDL definition of a dialect (hlo, bir, or\n"
          "                             all: both, for mlir-opt's --irdl-file=)\n"
          "  --pass-pipeline=PIPELINE   the passes as mlir-opt's textual pipeline,\n"
          "                             'builtin.module(NAME{opt=value ...},...)'\n"
          "  -h, --help, --version\n"
          "\n"
          "An option's value may follow it as --OPTION=VALUE or as --OPTION VALUE.\n"
          "Passes run in the order given, each as --NAME or --NAME=\"opt=value ...\",\n"
          "or as mlir-opt's --pass-pipeline='builtin.module(NAME{opt=value ...},...)'.\n"
          "With --neff-pack, -o names the NEFF, and copy-const-artifacts and\n"
          "dedup-consts run before it when not named (copy-const-artifacts before\n"
          "a dedup-consts that is named):\n", opt_prog);
  size_t n;
  const wp_pass_info *const *passes = wp_pass_registry(&n);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "  --%-25s %s\n", passes[i]->name, passes[i]->description);
  fprintf(f, "\nExit status: 0 fine, 1 bad input (or a failed write), 2 bad usage.\n");
}

static void list_passes(void) {
  size_t n;
  const wp_pass_info *const *passes = wp_pass_registry(&n);
  for (size_t i = 0; i < n; i++) {
    printf("%s\n  %s\n", passes[i]->name, passes[i]->description);
    for (int k = 0; k < WP_PASS_MAX_OPTIONS && passes[i]->options[k].name; k++)
      printf("    %s=...  %s\n", passes[i]->options[k].name, passes[i]->options[k].help);
  }
}

/* The options that take a value, which may come as FLAG=VALUE or, as in
 * LLVM's tools, as FLAG VALUE; what the value is, for the error when it
 * is missing. */
static const struct {
  const char *flag, *value;
} value_flags[] = {
    {"-o", "a file name"},
    {"--output", "a file name"},
    {"--emit", "a kind (mlir, hlo-proto, hlo-text, bir-proto, bir-json)"},
    {"--artifact-dir", "a directory"},
    {"--mlir-elide-resource-strings-if-larger", "a byte count"},
    {"--print-irdl", "a dialect (hlo, bir, all)"},
    {"--pass-pipeline", "a pipeline (builtin.module(PASS{OPTIONS},...))"},
    {"--stats-json", "a file name (or - for standard output)"},
    {"--mlir-print-ir-after", "a pass name (or several, comma-separated)"},
    {"--mlir-print-ir-before", "a pass name (or several, comma-separated)"},
};

/* The options without a value: the opt_config flag each sets (NO_FIELD:
 * opt_early_exit acts on it). One table for the parse and for
 * opt_early_exit's check that every option is known. */
#define NO_FIELD ((size_t)-1)
static const struct plain_flag {
  const char *flag;
  size_t field;
  bool value;
} plain_flags[] = {
    {"--debug", offsetof(opt_config, debug), true},
    {"--verify-roundtrip", offsetof(opt_config, verify_roundtrip), true},
    {"--verify-each", offsetof(opt_config, verify_each), true},
    {"--verify-each=true", offsetof(opt_config, verify_each), true},
    {"--verify-each=false", offsetof(opt_config, verify_each), false},
    {"--mlir-print-ir-after-all", offsetof(opt_config, print_ir_after_all), true},
    {"--mlir-print-ir-before-all", offsetof(opt_config, print_ir_before_all), true},
    {"--mlir-print-op-generic", offsetof(opt_config, print_generic), true},
    {"--emit-bytecode", offsetof(opt_config, emit_bytecode), true},
    {"--dump-pass-pipeline", offsetof(opt_config, dump_pipeline), true},
    {"--mlir-print-debuginfo", offsetof(opt_config, debuginfo), true},
    {"--mlir-timing", offsetof(opt_config, timing), true},
    {"--split-input-file", offsetof(opt_config, split_input_file), true},
    {"--verify-diagnostics", offsetof(opt_config, verify_diagnostics), true},
    {"--help", NO_FIELD, false},
    {"-h", NO_FIELD, false},
    {"--version", NO_FIELD, false},
    {"--list-passes", NO_FIELD, false},
    {"--progress", NO_FIELD, true}, /* opt_parse_args: the last of the two counts */
    {"--no-progress", NO_FIELD, false},
};

static const struct plain_flag *plain_flag(const char *arg) {
  for (size_t k = 0; k < sizeof plain_flags / sizeof plain_flags[0]; k++)
    if (!strcmp(arg, plain_flags[k].flag))
      return &plain_flags[k];
  return NULL;
}

/* What the value of ARG is, when ARG is a value option given without
 * "=VALUE"; NULL otherwise. */
static const char *separate_value_of(const char *arg) {
  for (size_t k = 0; k < sizeof value_flags / sizeof value_flags[0]; k++)
    if (strcmp(arg, value_flags[k].flag) == 0)
      return value_flags[k].value;
  return NULL;
}

/* The value of FLAG at argv[*i] in either form, stepping *i past a
 * separate value (the caller has checked there is one); NULL when
 * argv[*i] is another option. */
static const char *flag_arg(char **argv, int *i, const char *flag) {
  const char *v = opt_flag_value(argv[*i], flag);
  if (v || strcmp(argv[*i], flag) != 0)
    return v;
  return argv[++*i];
}

int opt_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run '%s --help' for usage)\n", opt_prog);
  return EXIT_USAGE;
}

const char *opt_flag_value(const char *arg, const char *flag) {
  size_t n = strlen(flag);
  if (strncmp(arg, flag, n) == 0 && arg[n] == '=')
    return arg + n + 1;
  return NULL;
}

/* Appends pass flag NAME with OPTIONS ("" for none) to CFG's pipeline
 * text, as mlir-opt's pass flags build theirs. */
static int add_pass_flag(opt_config *cfg, const char *name, const char *options) {
  if (cfg->pipeline_given)
    return opt_usage_error("--pass-pipeline cannot go with pass flags such as --%s; name every "
                           "pass in the pipeline", name);
  char *item = options[0] ? wp_format("%s{%s}", name, options) : wp_xstrdup(name);
  char *text = cfg->pipeline ? wp_format("%.*s,%s)", (int)strlen(cfg->pipeline) - 1,
                                         cfg->pipeline, item)
                             : wp_format("builtin.module(%s)", item);
  free(item);
  free(cfg->pipeline);
  cfg->pipeline = text;
  cfg->n_pass_flags++;
  return 0;
}

/* The pass whose option ARG names (ARG is "name=value"), when ARG is no
 * file: a pass option given as an argument of its own, which would be
 * taken for the input. */
static const char *stray_pass_option(const opt_config *cfg, const char *arg) {
  const char *eq = strchr(arg, '=');
  struct stat st;
  if (!eq || eq == arg || strchr(arg, '/') || stat(arg, &st) == 0)
    return NULL;
  (void)cfg;
  size_t n_all;
  const wp_pass_info *const *all = wp_pass_registry(&n_all);
  for (size_t i = 0; i < n_all; i++) {
    const wp_pass_info *p = all[i];
    for (int k = 0; k < WP_PASS_MAX_OPTIONS && p->options[k].name; k++)
      if (strlen(p->options[k].name) == (size_t)(eq - arg) &&
          !strncmp(p->options[k].name, arg, (size_t)(eq - arg)))
        return p->name;
  }
  return NULL;
}

int opt_parse_args(int argc, char **argv, opt_config *cfg) {
  bool options_end = false; /* after "--", everything is the input */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    const struct plain_flag *plain;
    if (options_end || (a[0] != '-' || !a[1])) {
      const char *owner = options_end ? NULL : stray_pass_option(cfg, a);
      if (owner) {
        fprintf(stderr, "error: '%s' is no file; a pass option goes in its pass's flag, as in "
                        "--%s=\"%s\"\n(run '%s --list-passes' for the passes' options)\n",
                a, owner, a, opt_prog);
        return EXIT_USAGE;
      }
      if (cfg->input)
        return opt_usage_error("more than one input ('%s')", a);
      cfg->input = a;
      continue;
    }
    const char *what = separate_value_of(a);
    if (what && i + 1 >= argc) {
      fprintf(stderr, "error: %s needs %s\n(run '%s --help' for usage)\n", a, what, opt_prog);
      return EXIT_USAGE;
    }
    if (strcmp(a, "--") == 0) {
      options_end = true;
    } else if ((v = flag_arg(argv, &i, "--output")) ||
               (v = flag_arg(argv, &i, "-o"))) {
      /* as LLVM's tools: which of two outputs would be meant? */
      if (cfg->output)
        return opt_usage_error("-o given twice ('%s')", v);
      cfg->output = v;
    } else if ((v = flag_arg(argv, &i, "--emit"))) {
      if (cfg->emit)
        return opt_usage_error("--emit given twice ('%s')", v);
      if (strcmp(v, "mlir") != 0 && strcmp(v, "hlo-proto") != 0 && strcmp(v, "hlo-text") != 0 &&
          strcmp(v, "bir-proto") != 0 && strcmp(v, "bir-json") != 0)
        return opt_usage_error("unknown --emit kind '%s' (mlir, hlo-proto, hlo-text, bir-proto, "
                               "bir-json)", v);
      cfg->emit = v;
    } else if ((v = flag_arg(argv, &i, "--artifact-dir"))) {
      if (!*v)
        return opt_usage_error("%s needs a directory", a);
      if (cfg->artifact_dir)
        return opt_usage_error("--artifact-dir given twice ('%s')", v);
      cfg->artifact_dir = v;
    } else if ((v = flag_arg(argv, &i, "--depfile"))) {
      if (!*v || cfg->depfile)
        return opt_usage_error(*v ? "--depfile given twice ('%s')" : "--depfile needs a file%s",
                               v);
      cfg->depfile = v;
    } else if ((v = flag_arg(argv, &i, "--digest-cache"))) {
      if (!*v || cfg->digest_cache)
        return opt_usage_error(*v ? "--digest-cache given twice ('%s')"
                                  : "--digest-cache needs a directory%s", v);
      cfg->digest_cache = v;
    } else if ((v = flag_arg(argv, &i, "--stats-json"))) {
      if (cfg->stats_json)
        return opt_usage_error("--stats-json given twice ('%s')", v);
      cfg->stats_json = v;
    } else if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
      cfg->progress = !strcmp(a, "--progress");
    } else if ((plain = plain_flag(a))) {
      if (plain->field != NO_FIELD)
        *(bool *)((char *)cfg + plain->field) = plain->value;
      if (plain->field == offsetof(opt_config, verify_each))
        cfg->verify_each_off = !plain->value;
    } else if (flag_arg(argv, &i, "--print-irdl")) {
      /* opt_early_exit acts on it; here only another option is wrong */
    } else if ((v = flag_arg(argv, &i, "--mlir-elide-resource-strings-if-larger"))) {
      if (cfg->elide_resources >= 0)
        return opt_usage_error("--mlir-elide-resource-strings-if-larger given twice ('%s')", v);
      char *end;
      errno = 0;
      long n = strtol(v, &end, 10);
      /* digits only: strtol would take " 5" and "+5", and clamp 10^30 */
      if (!*v || strspn(v, "0123456789") != strlen(v) || *end || errno == ERANGE)
        return opt_usage_error("--mlir-elide-resource-strings-if-larger needs a byte count, not "
                           "'%s'", v);
      cfg->elide_resources = n;
    } else if ((v = flag_arg(argv, &i, "--mlir-print-ir-after"))) {
      cfg->print_ir_after = v;
    } else if ((v = flag_arg(argv, &i, "--mlir-print-ir-before"))) {
      cfg->print_ir_before = v;
    } else if ((v = flag_arg(argv, &i, "--pass-pipeline"))) {
      if (cfg->pipeline_given)
        return opt_usage_error("--pass-pipeline given twice ('%s')", v);
      if (cfg->pipeline)
        return opt_usage_error("--pass-pipeline cannot go with pass flags ('%s'); name every "
                               "pass in the pipeline", v);
      cfg->pipeline = wp_xstrdup(v);
      cfg->pipeline_given = true;
    } else if (a[0] == '-' && a[1] == '-' && a[2]) {
      const char *eq = strchr(a + 2, '=');
      size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
      char name[64];
      if (n >= sizeof name)
        return opt_usage_error("unknown option '%s'", a);
      memcpy(name, a + 2, n);
      name[n] = 0;
      const wp_pass_info *info = wp_pass_lookup(name);
      if (!info)
        return opt_usage_error("unknown option '%s'", a);
      int bad = add_pass_flag(cfg, info->name, eq ? eq + 1 : "");
      if (bad)
        return bad;
    } else if (a[1] == 'o' && a[2] && strncmp(a, "-output", 7) != 0) {
      /* cc's -oFILE */
      fprintf(stderr, "error: unknown option '%s'; give the output as '-o %s'\n"
                      "(run '%s --help' for usage)\n", a, a + 2, opt_prog);
      return EXIT_USAGE;
    } else {
      return opt_usage_error("unknown option '%s'", a);
    }
  }
  /* as mlir-opt and LLVM's tools: no INPUT is standard input, when that
   * is a pipe or a file (a terminal, or /dev/null, would give nothing) */
  struct stat in_st;
  if (!cfg->input && fstat(STDIN_FILENO, &in_st) == 0 &&
      (S_ISFIFO(in_st.st_mode) || S_ISREG(in_st.st_mode) || S_ISSOCK(in_st.st_mode)))
    cfg->input = "-";
  if (!cfg->input)
    return opt_usage_error("%s", "no input given");
  if (cfg->stats_json && cfg->split_input_file)
    return opt_usage_error("%s", "--stats-json reports one run, and --split-input-file runs "
                                 "each chunk on its own");
  /* a depfile names -o's file as what the run makes */
  if (cfg->depfile && (cfg->split_input_file || !cfg->output || !strcmp(cfg->output, "-") ||
                       !strcmp(cfg->depfile, cfg->output) ||
                       (cfg->stats_json && !strcmp(cfg->depfile, cfg->stats_json))))
    return opt_usage_error("--depfile=%s needs -o FILE (one run, not --split-input-file) and a "
                           "file of its own", cfg->depfile);
  /* bytecode is a form of MLIR: not of a protobuf or JSON output */
  if (cfg->emit_bytecode && cfg->emit && strcmp(cfg->emit, "mlir") != 0)
    return opt_usage_error("--emit-bytecode writes MLIR; it cannot go with --emit=%s", cfg->emit);
  return 0;
}

/* The end of a run whose output is standard output alone (--help and
 * the like): 0, or 1 when it could not be written (a full disk). */
static int stdout_status(void) {
  if (fflush(stdout) == 0 && !ferror(stdout))
    return 0;
  fprintf(stderr, "error: standard output: %s\n", strerror(errno ? errno : EIO));
  return EXIT_BAD_INPUT;
}

/* Is ARG an option opt_parse_args takes (its value aside)? */
static bool known_option(const char *arg) {
  if (plain_flag(arg))
    return true;
  for (size_t k = 0; k < sizeof value_flags / sizeof value_flags[0]; k++)
    if (!strcmp(arg, value_flags[k].flag) || opt_flag_value(arg, value_flags[k].flag))
      return true;
  if (strncmp(arg, "--", 2) != 0)
    return false;
  const char *eq = strchr(arg + 2, '=');
  size_t n = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
  char name[64];
  if (n >= sizeof name)
    return false;
  memcpy(name, arg + 2, n);
  name[n] = 0;
  return wp_pass_lookup(name) != NULL;
}

const char *opt_prog = "opt";

void opt_normalize_args(int argc, char **argv) {
  /* as installed, weightpack-opt: its messages name the command typed */
  const char *slash = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
  if (argc > 0 && argv[0] && argv[0][0])
    opt_prog = slash ? slash + 1 : argv[0];
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *a = argv[i];
    /* mlir-opt's short form of --pass-pipeline */
    if (!strcmp(a, "-p") || !strncmp(a, "-p=", 3)) {
      argv[i] = wp_format("--pass-pipeline%s", a + 2);
    } else if (a[0] == '-' && a[1] != '-' && a[1] && a[2]) {
      /* LLVM's tools take long options with one dash too: -emit=...,
       * -pass-pipeline=..., -mlir-timing (not -oFILE: no -- form of it) */
      char *two = wp_format("-%s", a);
      if (known_option(two))
        argv[i] = two;
      else
        free(two);
    }
    if (separate_value_of(argv[i]))
      i++; /* a value, whatever it looks like */
  }
}

int opt_early_exit(int argc, char **argv) {
  /* an unknown option is bad usage with --help or --version too (as in
   * LLVM's tools): the full parse says which */
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (separate_value_of(argv[i]))
      i++;
    else if (argv[i][0] == '-' && argv[i][1] && !known_option(argv[i]))
      return -1;
  }
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    /* a separate value is a file name or the like, whatever it reads */
    const char *what = separate_value_of(argv[i]);
    if (what && i + 1 >= argc)
      return -1; /* the parse says what is missing */
    if (what && strcmp(argv[i], "--print-irdl") != 0) {
      i++;
      continue;
    }
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return stdout_status();
    }
    if (strcmp(argv[i], "--version") == 0) {
      printf("weightpack %s %s (MLIR 19)\n", opt_prog, wpVersion());
      return stdout_status();
    }
    if (strcmp(argv[i], "--list-passes") == 0) {
      list_passes();
      return stdout_status();
    }
    const char *v = flag_arg(argv, &i, "--print-irdl");
    if (v) {
      /* all: both in one file, for mlir-opt's one --irdl-file= */
      bool all = !strcmp(v, "all");
      const char *text = wpDialectIRDL(all ? "hlo" : v);
      if (!text)
        return opt_usage_error("no dialect '%s' (hlo, bir, all)", v);
      fputs(text, stdout);
      if (all)
        fputs(wpDialectIRDL("bir"), stdout);
      return stdout_status();
    }
  }
  return -1;
}
