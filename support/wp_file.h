/* Files: read-only mappings of inputs and all-or-nothing output files. */
#ifndef WP_FILE_H
#define WP_FILE_H

#include "wp_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* A read-only view of a whole file. Empty files have data == NULL. */
typedef struct wp_mapped_file {
  const unsigned char *data;
  size_t size;
  int heap; /* read into malloc'd memory rather than mapped */
  struct wp_slab *slab; /* or read into a slab (WP_FILE_SLAB) */
} wp_mapped_file;

/* Everything FD yields until end of file (a pipe, a FIFO, stdin), into
 * memory released by wp_file_unmap. LABEL names it in errors; more than
 * wp_input_limit() bytes is refused. */
int wp_file_read_stream(int fd, const char *label, wp_mapped_file *out, wp_error *err);

/* Files up to this size are read rather than mapped: a mapping costs a
 * page and one of the kernel's ~65530 mappings per process, and a model
 * with 100,000 small weights would run out of them. */
#define WP_FILE_READ_LIMIT 4096

/* Maps PATH (or reads it, when small or when the process is out of
 * mappings); release with wp_file_unmap. Errors name the path. */
int wp_file_map(const char *path, wp_mapped_file *out, wp_error *err);

/* Do paths A and B name one existing file (the same device and inode,
 * through links and any spelling)? */
bool wp_same_path_file(const char *a, const char *b);

/* wp_file_map with FLAGS: WP_FILE_NO_LINK fails (ELOOP) when PATH itself is
 * a symbolic link; WP_FILE_SLAB reads a small file into a slab shared with
 * the thread's other small files (for views kept long: 100,000 small
 * weights would otherwise be 100,000 heap blocks, each first touch of
 * their pages a fault, which this VM makes slow; the slabs ask for huge
 * pages). */
#define WP_FILE_NO_LINK 1
#define WP_FILE_SLAB 2
int wp_file_map_flags(const char *path, int flags, wp_mapped_file *out, wp_error *err);
void wp_file_unmap(wp_mapped_file *file);
/* What wp_file_unmap does for a view read into SLAB (its .slab), for an
 * owner that kept only that pointer. */
void wp_file_slab_release(struct wp_slab *slab);

/* A view holding a copy of BYTES[0, SIZE), in a slab with WP_FILE_SLAB, as
 * if wp_file_map_flags had read it; -1 when out of memory. */
int wp_file_view_copy(const void *bytes, size_t size, int flags, wp_mapped_file *out);

/* An output file that appears at its path only when committed: data goes to
 * a temporary file in the same directory, renamed over the path on commit.
 * Path "-" writes to stdout directly. */
typedef struct wp_output wp_output;

wp_output *wp_output_open(const char *path, wp_error *err); /* NULL on error */
/* Where the file an output to PATH replaces or creates lies: through a
 * symlink its target (a dangling one's too), else PATH. Malloc'd; NULL
 * when out of memory. (A device or FIFO is written in place.) */
char *wp_output_path(const char *path);

/* The file name an output to PATH takes in directory DIR (however either
 * is spelled), when it lands there as a file of its own (malloc'd); NULL
 * when it lands elsewhere, or is a device or FIFO, written in place. */
char *wp_output_name_in(const char *path, const char *dir);
FILE *wp_output_stream(wp_output *out);
/* Flushes, fsyncs and renames into place; frees OUT either way. */
int wp_output_commit(wp_output *out, wp_error *err);
/* Removes the temporary file; frees OUT. NULL is fine. */
void wp_output_abort(wp_output *out);

/* Puts another temporary file (TMP_PATH, which must stay valid) on the
 * list the signal cleanup removes; returns a slot for wp_output_untrack
 * (-1 when the list is full: then it is not removed on a signal). */
int wp_output_track(const char *tmp_path);
void wp_output_untrack(int slot);

/* Removes every temporary output still open; safe from a signal handler.
 * opt installs it for SIGINT/SIGTERM/SIGHUP so a killed run leaves no files. */
void wp_output_abort_all_from_signal(void);

int wp_is_directory(const char *path);

/* DIR as an artifact directory: 0 when it is a directory; created (one
 * level, mode 0755) when missing, with *MADE set; -1 with ERR naming DIR
 * and why it cannot be one (a file, a symbolic link to nothing, a loop,
 * no permission). */
int wp_dir_ensure(const char *dir, bool *made, wp_error *err);

/* The directory part of PATH: "." without a slash, "/" for "/name".
 * Caller frees; NULL when out of memory. */
char *wp_path_dir(const char *path);

/* DIR/REL with one slash between (none added after a DIR ending in '/').
 * Caller frees; out of memory aborts. */
char *wp_path_join(const char *dir, const char *rel);

/* Creates a new file beside PATH (".NAME.XXXXXX"), mode 0666 less the
 * umask, open for writing; its name in *TMP (caller frees). The fd, or -1
 * with errno (and *TMP NULL). */
int wp_temp_beside(const char *path, char **tmp);

#endif
