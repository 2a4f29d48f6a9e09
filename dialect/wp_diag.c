#include "wp_diag.h"

#include "wp_error.h"
#include "wp_format.h"

#include <stdarg.h>
#include <stdlib.h>

static void emit(MlirLocation loc, int severity, const char *fmt, va_list ap) {
  char *msg = wp_vformat(fmt, ap);
  if (!msg)
    wp_out_of_memory();
  char *line = wp_escape_controls(msg);
  if (!line)
    wp_out_of_memory();
  wp_diag_emit_text(loc, severity, line);
  free(line);
  free(msg);
}

void wp_emit_error(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(loc, 0, fmt, ap);
  va_end(ap);
}

void wp_emit_warning(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(loc, 1, fmt, ap);
  va_end(ap);
}

void wp_emit_remark(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(loc, 2, fmt, ap);
  va_end(ap);
}
