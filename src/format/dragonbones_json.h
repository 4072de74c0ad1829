/* The DragonBones JSON skeleton loader (4.0, 4.5, 5.0-5.6) -> struct sinew_data (model/model.h). */
#ifndef SINEW_FORMAT_DRAGONBONES_JSON_H
#define SINEW_FORMAT_DRAGONBONES_JSON_H

#include <cjson/cJSON.h>

#include "model/model.h"
#include "sinew/data.h"

/*
 * Builds a model from DragonBones JSON text[0..len) (need not be NUL-terminated). `file` names the
 * input in errors and warnings. On success *out owns everything (already passed through
 * sinew__model_prepare); on failure *out is NULL, nothing leaks and `err` is filled.
 */
sinew_status sinew__dragonbones_load(const char *text, size_t len, const char *file,
                                     const sinew_load_options *opts, struct sinew_data **out, sinew_error *err);

/*
 * Builds a model from an already parsed DragonBones document (`root`, in c's DOM; the caller
 * frees it). With `bin_vals` (format/dbbin_read.c), timeline frames hold no JSON values but the
 * member SINEW_DBBIN_VALUES: the index in bin_vals[0..bin_val_count) of the key's values as the
 * model keeps them; a Bezier key's `curve` is the number of the binary's easing samples, which
 * are at index SINEW_DBBIN_SAMPLES in bin_vals; rotations are unwrapped already.
 * Errors go to c->err. On success *out is prepared (sinew__model_prepare).
 */
#define SINEW_DBBIN_VALUES "\x01v"
#define SINEW_DBBIN_SAMPLES "\x01s"
struct sinew_jctx;
sinew_status sinew__dragonbones_build(struct sinew_jctx *c, const cJSON *root, const float *bin_vals,
                                      size_t bin_val_count, struct sinew_data **out);

/* Loads a DragonBones texture atlas JSON. `dir` is the folder image paths are relative to. */
sinew_status sinew__atlas_json_load(const char *text, size_t len, const char *file, const char *dir,
                                    const sinew_load_options *opts, struct sinew_atlas **out, sinew_error *err);

#endif
