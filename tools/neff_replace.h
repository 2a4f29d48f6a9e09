/* neff replace-weights: IN with the weights of MODEL_DIR's metadata.json
 * (by tensor name) written to OUT, the NEFF a full opt run on the model
 * with those weights would write (COMPRESSOR: neff-pack's compressor=).
 * With DEPFILE (may be NULL), a depfile naming OUT and the files read
 * (IN, metadata.json, the weights), written once OUT is whole.
 * 0, or 1 after error lines. */
#ifndef NEFF_REPLACE_H
#define NEFF_REPLACE_H

int neff_replace_weights(const char *in, const char *model_dir, const char *out,
                         const char *compressor, const char *depfile);

/* `neff replace-weights ...` from ARGV[0] on ("replace-weights"): the
 * exit status (2 on bad usage). */
int neff_replace_main(int argc, char **argv);

#endif
