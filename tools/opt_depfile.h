/* opt --depfile=FILE: the run's outputs and the files it read as a
 * Make/Ninja rule (support/wp_depfile.h), written after the outputs,
 * only when the run succeeded. */
#ifndef OPT_DEPFILE_H
#define OPT_DEPFILE_H

#include "opt_config.h"
#include "wp_model_dir.h"
#include "wp_run.h"

/* Notes the input opt read itself on RUN: a model directory's
 * metadata.json and module (MD, when one was opened), else the input file
 * (not standard input or a pipe). */
void opt_depfile_note_input(wp_run *run, const opt_config *cfg, const wp_model_dir *md);

/* Writes --depfile's file when given: -o's file (and a NEFF neff-pack
 * wrote elsewhere) made from RUN's reads. 0, or EXIT_BAD_INPUT after an
 * error line. */
int opt_depfile_write(const opt_config *cfg, const wp_run *run);

#endif
