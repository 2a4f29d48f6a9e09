/* opt --pass-pipeline=builtin.module(PASS{OPTIONS},...), read into CFG's
 * pass requests. */
#ifndef OPT_PIPELINE_H
#define OPT_PIPELINE_H

#include "opt_args.h"

/* Adds the passes of the textual pipeline TEXT to CFG (which must have
 * none yet); the requests point into cfg->pipeline_text, a copy the
 * caller frees when done with CFG (also after an error). 0, or
 * EXIT_USAGE after an error line naming the column (EXIT_BAD_INPUT when
 * out of memory). */
int opt_parse_pipeline(const char *text, opt_config *cfg);

#endif
