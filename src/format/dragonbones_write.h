/*
 * Writing a loaded model back out as DragonBones JSON (`NAME_ske.json`), 4.5 or 5.5. Used by
 * `sinew convert` (docs/convert.md says which to pick).
 *
 * 4.5: 5.x models (split translate/rotate/scale and display/colour timelines) are merged into 4.x
 * combined frames at the union of their key times, with every channel's exact value at each key.
 * Where a merge cannot reproduce the original motion exactly, the writer names the construct in a
 * warning through the log callback (code SINEW_E_UNSUPPORTED) and writes the closest 4.5 form.
 * 5.5: every timeline as the model holds it (a 4.x combined frame list as translate, rotate and
 * scale channels with the same keys and easing), each number as it reads back to the model's;
 * what 5.5 cannot say is named in a warning the same way.
 */
#ifndef SINEW_FORMAT_DRAGONBONES_WRITE_H
#define SINEW_FORMAT_DRAGONBONES_WRITE_H

#include "model/model.h"

typedef struct sinew_db_write_options {
    const sinew_allocator *allocator;
    sinew_log_fn log;          /* approximation warnings */
    void *log_user;
    const char *source_name;   /* names the input in warnings (may be NULL) */
    uint32_t *warning_count;   /* optional out: approximations reported */
    unsigned format;           /* 45 (DragonBones 4.5; 0 = 45) or 55 (5.5); any other: SINEW_E_ARG */
} sinew_db_write_options;

/* Serialises `data` as DragonBones 4.5 (or opts->format's) JSON. On success *out_text is a NUL-terminated string from
 * opts->allocator (NULL opts or allocator = libc) in a block of *out_size bytes (out_size may be
 * NULL only with libc): the caller frees it with sinew__free(allocator, *out_text, *out_size).
 * Every buffer of the writer comes from that allocator; the JSON tree it builds is cJSON's (libc:
 * docs/architecture.md "Memory"). */
sinew_status sinew__db_write_json(const struct sinew_data *data, const sinew_db_write_options *opts,
                                  char **out_text, size_t *out_size, sinew_error *err);

/* Files are written with sinew__write_file_atomic (base/atomic.h). */

/* ---- the DragonBones parser's rotation unwrapping, replayed exactly ------------------------ */

/* The runtime's angle normalisation into (-pi, pi] (JS Transform.normalizeRadian). */
double sinew__db_normalize_radian(double v);
/* The unwrapped angle (radians) the runtime gives the first keyframe written as `deg`. */
double sinew__db_unwrap_first(double deg);
/* For keyframe k > 0 written as `deg` degrees: returns the tweenRotate (4.x) / clockwise (5.x)
 * value to write on keyframe k-1 so that the runtime's unwrapped angle of key k is
 * *prev_unwrapped + delta (radians). Updates *prev_unwrapped to the angle the runtime will use. */
int32_t sinew__db_tween_rotate_for(double *prev_unwrapped, double deg, double delta);

#endif
