/* opt's command line: parsed into an opt_config, with the passes neff-pack
 * brings along; and the options that answer at once (--help and the
 * like). */
#ifndef OPT_ARGS_H
#define OPT_ARGS_H

#include "opt_config.h"

/* --help, -h, --version, --list-passes or --print-irdl=D anywhere before
 * "--" (not as -o's value): prints it and returns the exit status (0; 1
 * when stdout could not be written; 2 for an unknown dialect). -1 when
 * there is none: the run goes on. */
int opt_early_exit(int argc, char **argv);

/* Rewrites ARGV in place to the forms the parse takes: -p as
 * --pass-pipeline, and a long option with one dash (-emit=mlir,
 * -pass-pipeline=...) as with two, as LLVM's tools accept. Call first. */
void opt_normalize_args(int argc, char **argv);

/* Parses ARGV into CFG (zeroed but for elide_resources = -1) and adds the
 * passes neff-pack implies. 0, or EXIT_USAGE after an error line. */
int opt_parse_args(int argc, char **argv, opt_config *cfg);

/* "error: " FMT (with ARG), the pointer to --help, on stderr; EXIT_USAGE. */
int opt_usage_error(const char *fmt, const char *arg);

/* The value pass request P gives option NAME (malloc'd), or NULL when it
 * gives none (or its options do not parse: the pass reports that). */
char *opt_pass_option_value(const pass_request *p, const char *name);

/* The value of ARG when it is FLAG=VALUE, else NULL. */
const char *opt_flag_value(const char *arg, const char *flag);

/* Does a dedup-consts run before any copy-const-artifacts? It then works
 * in the directory the input IR records. */
bool opt_dedup_before_copy(const opt_config *cfg);

/* The copy-method (stream or copy_file_range) of a copy-const-artifacts
 * that would write files into opt's private directory, which is removed
 * at exit, for IR that names them (no NEFF packed in the same run); NULL
 * when there is none. */
const char *opt_private_copy_method(const opt_config *cfg);

/* Does a pass use --artifact-dir: a copy-const-artifacts without its own
 * artifact-dir=, or a dedup-consts before any copy on IR whose files are
 * placed (it works in their directory, which --artifact-dir must name)?
 * False without --artifact-dir. An unused one is neither made nor
 * locked. */
bool opt_artifact_dir_used(const opt_config *cfg);

/* The artifact directories the run's passes write, as given (malloc'd,
 * into DIRS: room for MAX_PASSES + 1): every copy-const-artifacts'
 * artifact-dir=, and --artifact-dir when used. Its count. (opt's private
 * directory, made later, is not among them.) */
size_t opt_written_artifact_dirs(const opt_config *cfg, char **dirs);

#endif
