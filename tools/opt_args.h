/* opt's command line: parsed into an opt_config; and the options that
 * answer at once (--help and the like). */
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

/* Parses ARGV into CFG (zeroed but for elide_resources = -1); the pass
 * flags become CFG's pipeline text, which MLIR parses. 0, or EXIT_USAGE
 * after an error line. */
int opt_parse_args(int argc, char **argv, opt_config *cfg);

/* "error: " FMT (with ARG), the pointer to --help, on stderr; EXIT_USAGE. */
int opt_usage_error(const char *fmt, const char *arg);

/* The value of ARG when it is FLAG=VALUE, else NULL. */
const char *opt_flag_value(const char *arg, const char *flag);

#endif
