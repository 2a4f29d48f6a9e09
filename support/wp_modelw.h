/* Writing a new model directory whole or not at all (outline-weights).
 *
 * The files are written into a fresh temporary directory beside DIR
 * (".NAME.outline-XXXXXX", mode 0777 less the umask) and that directory
 * is renamed to DIR at the end: DIR appears complete, or not at all. DIR
 * must be new, or an empty directory (which the rename then replaces,
 * its permission bits kept); a directory that holds anything, or any
 * other file, is refused, so no model directory is ever overwritten. A
 * symbolic link is followed to its target. */
#ifndef WP_MODELW_H
#define WP_MODELW_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

typedef struct wp_modelw wp_modelw;

/* Checks DIR and makes the temporary directory; *OUT is the writer (ended
 * by wp_modelw_commit or wp_modelw_abort). -1 with ERR naming DIR. */
int wp_modelw_begin(const char *dir, wp_modelw **out, wp_error *err);

/* Writes the file REL ("model.hlo.pb", "weights/w.npy": one directory
 * level at most, made as needed) holding HEAD[0, HEAD_LEN) then
 * DATA[0, SIZE). A file of that name written before is an error. -1 with
 * ERR naming the file as it will be in DIR. */
int wp_modelw_write(wp_modelw *w, const char *rel, const void *head, size_t head_len,
                    const void *data, uint64_t size, wp_error *err);

/* Renames the temporary directory to DIR; on failure removes it. Frees W
 * either way. */
int wp_modelw_commit(wp_modelw *w, wp_error *err);

/* Removes the temporary directory and everything in it; frees W (NULL is
 * fine). */
void wp_modelw_abort(wp_modelw *w);

/* A portable file name for NAME[0, LEN) (no extension): NAME itself when
 * it is made of ASCII letters, digits, '_', '-' and '.', does not start
 * with '.' or '-', and has at most 160 bytes; otherwise the other bytes
 * become '_', a leading '.' or '-' too, the name is cut to 160 bytes and
 * "-" and 8 hex digits of a hash of the whole name follow, so it never
 * meets a portable name. An empty NAME is "_". BUF holds at least
 * WP_MODELW_NAME_MAX bytes. */
#define WP_MODELW_NAME_MAX 192
void wp_modelw_file_name(const char *name, size_t len, char *buf);

#endif
