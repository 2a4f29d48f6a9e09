/* opt's memory: transparent huge pages for glibc's malloc. */
#ifndef OPT_HUGEPAGES_H
#define OPT_HUGEPAGES_H

#include <stdbool.h>

/* Restarts the process (same pid, same ARGV) with glibc's malloc set to
 * ask for transparent huge pages, unless that is off or already set up or
 * INPUT (opt's input path) is too small to need a large heap. Returns only
 * when it does not restart: true in the restarted process. */
bool opt_exec_with_huge_pages(char **argv, const char *input);

#endif
