/* The files an IR reads by path, matched against an output file. */
#ifndef WP_IR_FILES_H
#define WP_IR_FILES_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "wp_same_file.h"


/* The file MODULE reads by path that is the file ST describes, written
 * into BUF (N bytes) and returned; NULL when there is none. ARTIFACT_DIR
 * is where const files' "artifact" names lie: opt's --artifact-dir, or
 * NULL for the module's recorded bir.artifact_path. */
const char *wp_ir_input_file(MlirModule module, const char *artifact_dir, const struct stat *st,
                             char *buf, size_t n);

#endif
