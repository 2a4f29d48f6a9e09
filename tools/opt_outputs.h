/* opt's checks on the files it writes itself (-o, --stats-json), made
 * before any pass runs. A pass checks the files it writes (neff-pack's
 * NEFF, copy-const-artifacts' directory) itself, in every driver. */
#ifndef OPT_OUTPUTS_H
#define OPT_OUTPUTS_H

#include "opt_config.h"
#include "wp_model_dir.h"

#include <mlir-c/IR.h>

/* Every file opt writes: not empty, not a directory, in a directory that
 * takes a new file, and not one of the run's inputs: the input file, a
 * file of model directory MD (when the input is one), or a weight or
 * constant file MODULE names by path. 0, or EXIT_USAGE (EXIT_BAD_INPUT for
 * an output that cannot be made) after an error line. */
int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md, MlirModule module);

#endif
