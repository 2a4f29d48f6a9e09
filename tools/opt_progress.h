/* opt's progress line on stderr: the stage running, and within a pass that
 * reports its work (inline-weights, copy-const-artifacts, neff-pack) how
 * much of it is done, the rate and the time left. One line redrawn with
 * '\r' a few times a second at most, only once the run has taken about a
 * second, and cleared before anything else is printed and at the end. */
#ifndef OPT_PROGRESS_H
#define OPT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opt_progress opt_progress;

/* Should a run show progress? FORCED: 1 (--progress), 0 (--no-progress),
 * -1 (neither: only when stderr is a terminal and TERM is not "dumb"). */
bool opt_progress_wanted(int forced);

/* A progress line on stderr, timed from now; caller frees with
 * opt_progress_destroy (which clears the line). */
opt_progress *opt_progress_create(void);
void opt_progress_destroy(opt_progress *p);

/* A new stage (a pass) starts: shown with no counts until it reports. */
void opt_progress_stage(opt_progress *p, const char *stage);

/* A wp_progress_fn (USER is the opt_progress): callable from any thread. */
void opt_progress_report(void *user, const char *stage, uint64_t done, uint64_t total,
                         bool files);

/* Clears the line, if one is shown, before other text goes to stderr;
 * the next report draws it again. P may be NULL. */
void opt_progress_clear(opt_progress *p);

#ifdef __cplusplus
}
#endif

#endif
