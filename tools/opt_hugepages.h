/* opt's memory: transparent huge pages for glibc's malloc. */
#ifndef OPT_HUGEPAGES_H
#define OPT_HUGEPAGES_H

/* Restarts the process (same pid, same ARGV) with glibc's malloc set to
 * ask for transparent huge pages, unless that is off or already set up.
 * Returns only when it does not restart. */
void opt_exec_with_huge_pages(char **argv);

#endif
