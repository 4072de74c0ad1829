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
 * frees it). Errors go to c->err. On success *out is prepared (sinew__model_prepare).
 *
 * `finish` (NULL for JSON) runs after the document is built and before the prepare pass, with
 * the model in its own arena: the DBBin reader (format/dbbin_read.c) hands over a header whose
 * animations have no timelines and adds them there, straight from the binary's arrays. Its
 * failure (with its own error in c->err or elsewhere) fails the build, and nothing leaks.
 */
typedef struct sinew_build_finish {
    sinew_status (*fn)(void *ctx, struct sinew_data *data);
    void *ctx;
} sinew_build_finish;
struct sinew_jctx;
sinew_status sinew__dragonbones_build(struct sinew_jctx *c, const cJSON *root, const sinew_build_finish *finish,
                                      struct sinew_data **out);

/* A key's tween from a DragonBones tweenEasing value `e` (NaN: none): tween, tween_easing and the
 * quad strength as the official parser rounds it. */
void sinew__tween_from_easing(double e, sinew_model_keyframe *k);

/* Loads a DragonBones texture atlas JSON. `dir` is the folder image paths are relative to. */
sinew_status sinew__atlas_json_load(const char *text, size_t len, const char *file, const char *dir,
                                    const sinew_load_options *opts, struct sinew_atlas **out, sinew_error *err);

#endif
