#include "neff_signals.h"

#include "wp_file.h"

#include <signal.h>
#include <stddef.h>

/* what the handler runs besides the outputs' cleanup (a handler reaches
 * nothing else) */
static void (*volatile g_cleanup)(void);

static void on_signal(int sig) {
  wp_output_abort_all_from_signal();
  if (g_cleanup)
    g_cleanup();
  signal(sig, SIG_DFL);
  raise(sig);
}

void neff_catch_signals(void (*cleanup)(void)) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
  g_cleanup = cleanup;
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      signal(sigs[i], on_signal);
  }
}
