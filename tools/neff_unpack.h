/* neff unpack: a package's members into a directory, all or nothing. */
#ifndef NEFF_UNPACK_H
#define NEFF_UNPACK_H

#include "wp_neff_read.h"

/* Writes every member of R under DIR (made as needed). On any failure, or
 * on SIGINT, SIGTERM or SIGHUP, what it made is taken back (a signal is
 * then re-raised). 0, or 1 after an error line. */
int neff_unpack(wp_neff_reader *r, const char *dir);

#endif
