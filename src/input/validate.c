/* MRTK input animation validation: warnings about things MRTK or Unity would not like. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "input/input_internal.h"

typedef struct vctx {
    const char *name;
    sinew_log_fn log;
    void *user;
    uint32_t count;
} vctx;

static void warn(vctx *v, sinew_status code, const char *path, uint64_t offset, const char *fmt, ...)
    SINEW_PRINTF(5, 6);

static void warn(vctx *v, sinew_status code, const char *path, uint64_t offset, const char *fmt, ...) {
    v->count++;
    if (!v->log)
        return;
    sinew_error e;
    memset(&e, 0, sizeof e);
    e.code = code;
    e.file = v->name;
    e.offset = offset;
    if (path)
        snprintf(e.path, sizeof e.path, "%s", path);
    va_list ap;
    va_start(ap, fmt);
    sinew__vformat(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    v->log(v->user, SINEW_LOG_WARNING, &e);
}

static bool known_wrap(int32_t w) {
    return w == 0 || w == 1 || w == 2 || w == 4 || w == 8;
}

uint32_t sinew_input_validate(const sinew_input_animation *anim, const char *name, sinew_log_fn log,
                              void *user) {
    vctx v = {name, log, user, 0};
    if (!anim)
        return 0;
    char path[96];
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (!sinew_input_curve_present(anim, i))
            continue;
        const sinew_curve *c = &anim->curves[i];
        sinew_input_curve_path(i, path, sizeof path);
        if (!known_wrap(c->pre_wrap))
            warn(&v, SINEW_E_RANGE, path, 0, "unknown pre-wrap mode %d (evaluated as clamp)", c->pre_wrap);
        if (!known_wrap(c->post_wrap))
            warn(&v, SINEW_E_RANGE, path, 0, "unknown post-wrap mode %d (evaluated as clamp)", c->post_wrap);
        bool is_bool = sinew_input_curve_is_bool(i);
        uint32_t unsorted = 0, bad_tv = 0, bad_tw = 0, first_unsorted = 0, first_bad = 0;
        float prev = -INFINITY;
        bool have_prev = false;
        for (uint32_t k = 0; k < c->key_count; k++) {
            const sinew_curve_key *key = &c->keys[k];
            if (!isfinite(key->time) || !isfinite(key->value)) {
                if (!bad_tv++)
                    first_bad = k;
                continue;
            }
            if (have_prev && key->time < prev) {
                if (!unsorted++)
                    first_unsorted = k;
            }
            prev = key->time;
            have_prev = true;
            if (!is_bool && (isnan(key->in_tangent) || isnan(key->out_tangent) || !isfinite(key->in_weight) ||
                             !isfinite(key->out_weight)))
                bad_tw++;
        }
        if (bad_tv)
            warn(&v, SINEW_E_RANGE, path, 0,
                 "%u key(s) with a non-finite time or value (first: key %u); they are skipped when evaluating",
                 bad_tv, first_bad);
        if (bad_tw)
            warn(&v, SINEW_E_RANGE, path, 0, "%u key(s) with NaN tangents or non-finite weights", bad_tw);
        if (unsorted)
            warn(&v, SINEW_E_LAYOUT, path, 0,
                 "%u key(s) out of time order (first: key %u); evaluation sorts them like Unity", unsorted,
                 first_unsorted);
        if (is_bool) {
            for (uint32_t k = 0; k < c->key_count; k++) {
                float val = c->keys[k].value;
                if (val != 0.0f && val != 1.0f && isfinite(val)) {
                    warn(&v, SINEW_E_RANGE, path, 0, "boolean key %u has value %g (read as %s)", k, (double)val,
                         val > 0.5f ? "true" : "false");
                    break;
                }
            }
        }
    }
    if (anim->has_hands) {
        for (int h = 0; h < 2; h++) {
            const sinew_curve *tr = &anim->curves[SINEW_INPUT_CURVE_TRACKED(h)];
            bool ever = false;
            for (uint32_t k = 0; k < tr->eval_count && !ever; k++)
                ever = tr->eval_keys[k].value > 0.5f;
            if (ever)
                continue;
            uint32_t joints = 0;
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++) {
                bool any = false;
                for (uint32_t ch = 0; ch < 7; ch++)
                    any = any || anim->curves[SINEW_INPUT_CURVE_JOINT(h, j, ch)].key_count > 0;
                joints += any;
            }
            if (joints) {
                snprintf(path, sizeof path, "hands.%s", h ? "right" : "left");
                warn(&v, SINEW_E_LAYOUT, path, 0, "%u joint(s) have keys but the %s hand is never tracked", joints,
                     h ? "right" : "left");
            }
        }
    }
    for (uint32_t i = 0; i < anim->marker_count; i++) {
        if (!isfinite(anim->markers[i].time)) {
            snprintf(path, sizeof path, "markers[%u]", i);
            warn(&v, SINEW_E_RANGE, path, 0, "marker time is not finite");
        }
    }
    if (anim->markers_missing) {
        snprintf(path, sizeof path, "byte %llu", (unsigned long long)anim->file_size);
        warn(&v, SINEW_E_MISSING, path, anim->file_size,
             "the marker list is missing at the end of the file (MRTK's reader needs it; sinew writes it)");
    }
    if (anim->trailing_bytes) {
        uint64_t at = anim->file_size - anim->trailing_bytes;
        snprintf(path, sizeof path, "byte %llu", (unsigned long long)at);
        warn(&v, SINEW_E_LAYOUT, path, at, "%llu trailing byte(s) after the marker list (ignored)",
             (unsigned long long)anim->trailing_bytes);
    }
    return v.count;
}
