/* wpOpenModelDir: a driver's way into a model directory, as opt's. */
#include "weightpack/weightpack.h"

#include "wp_file.h"
#include "wp_hlo_text.h"
#include "wp_model_dir.h"
#include "wp_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wpOpenModelDir(MlirContext ctx, const char *dir, wp_run *run, MlirModule *out,
                   wp_error *err) {
  if (out)
    *out = (MlirModule){NULL};
  if (mlirContextIsNull(ctx) || !dir || !out)
    return wp_error_set(err, "wpOpenModelDir: a null context, directory or output");
  if (!dir[0])
    return wp_error_set(err, "wpOpenModelDir: an empty path");
  wp_model_dir md;
  if (wp_model_dir_load(dir, &md, err))
    return -1;
  wp_mapped_file f;
  int rc = wp_file_map(md.model_path, &f, err);
  if (rc == 0 && run) { /* prerequisites in a depfile */
    size_t n = strlen(dir) + sizeof "/metadata.json";
    char *meta = wp_xmalloc(n);
    snprintf(meta, n, "%s/metadata.json", dir);
    wp_run_note_read(run, meta);
    free(meta);
    wp_run_note_read(run, md.model_path);
  }
  if (rc == 0) {
    /* through the public importers: a context without the dialects is an
     * error there; HLO text errors carry their FILE:LINE:COL already */
    if (wp_hlo_text_sniff(md.model_path, f.data, f.size))
      rc = wpImportHloText(ctx, (const char *)f.data, f.size, md.model_path, out, err);
    else
      rc = wpImportHloProto(ctx, f.data, f.size, md.model_path, out, err);
    wp_file_unmap(&f);
  }
  wp_model_dir_free(&md);
  if (rc == 0 && run && wpRunSetModelDir(run, dir, err)) {
    mlirModuleDestroy(*out);
    *out = (MlirModule){NULL};
    return -1;
  }
  return rc;
}
