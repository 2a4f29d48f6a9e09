/* A signal's cleanup against threads still making files.
 *
 * opt's handler for SIGINT, SIGTERM, SIGHUP and SIGPIPE removes the
 * temporaries and placed files it can find, and then dies of the signal.
 * Other threads (copy-const-artifacts' placers) kept creating files while
 * it did, and those stayed. Here a thread makes such a file inside a
 * section: from just before the file appears until it is on a list the
 * cleanup reads (wp_output_track, wp_placed_note). The handler
 * (wp_stop_begin_from_signal) first stops new sections and waits for open
 * ones to close; a thread that meets a stop waits for the process to die
 * instead of going on. A section blocks those signals in its thread, so
 * the handler never runs inside one. */
#ifndef WP_STOP_H
#define WP_STOP_H

#include <signal.h>

typedef struct wp_stop_section {
  sigset_t saved; /* the thread's signal mask before the section */
} wp_stop_section;

/* Opens a section (never returns once a stop has begun). */
void wp_stop_enter(wp_stop_section *s);

/* Closes it; the file made in it is on the cleanup's lists, or gone
 * (never returns once a stop has begun). */
void wp_stop_leave(wp_stop_section *s);

/* From a signal handler, before its cleanup: no section opens from now
 * on, and those open are waited for (up to about two seconds).
 * Async-signal-safe. */
void wp_stop_begin_from_signal(void);

#endif
