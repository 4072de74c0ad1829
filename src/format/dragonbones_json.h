/* The DragonBones JSON skeleton loader (4.0, 4.5, 5.0-5.6) -> struct sinew_data (model/model.h). */
#ifndef SINEW_FORMAT_DRAGONBONES_JSON_H
#define SINEW_FORMAT_DRAGONBONES_JSON_H

#include "model/model.h"
#include "sinew/data.h"

/*
 * Builds a model from DragonBones JSON text[0..len) (need not be NUL-terminated). `file` names the
 * input in errors and warnings. On success *out owns everything (already passed through
 * sinew__model_prepare); on failure *out is NULL, nothing leaks and `err` is filled.
 */
sinew_status sinew__dragonbones_load(const char *text, size_t len, const char *file,
                                     const sinew_load_options *opts, struct sinew_data **out, sinew_error *err);

/* Loads a DragonBones texture atlas JSON. `dir` is the folder image paths are relative to. */
sinew_status sinew__atlas_json_load(const char *text, size_t len, const char *file, const char *dir,
                                    const sinew_load_options *opts, struct sinew_atlas **out, sinew_error *err);

#endif
