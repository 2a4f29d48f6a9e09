/* neff's commands that write files: a signal (INT, TERM, HUP, QUIT, PIPE)
 * takes back the temporary outputs, runs CLEANUP (async-signal-safe; may
 * be NULL) and dies of the signal. Signals ignored when it is called stay
 * ignored. */
#ifndef NEFF_SIGNALS_H
#define NEFF_SIGNALS_H

void neff_catch_signals(void (*cleanup)(void));

#endif
