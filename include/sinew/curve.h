/**
 * sinew/curve.h - Unity AnimationCurve evaluation, usable on its own.
 *
 * A curve is a list of keys (time, value, tangents, weights, weighted mode) plus the pre- and
 * post-wrap modes, kept exactly as given (file order, raw Int32 wrap modes). For evaluation sinew
 * builds a view of the keys once (sinew_curve_prepare): keys whose time or value is not finite are
 * skipped and the rest are sorted by time (stable, so equal times keep their order). When the keys
 * are already sorted and finite, the view is the key array itself and costs nothing.
 *
 * Evaluation follows Unity:
 *  - no key -> 0; one key -> that key's value for every time;
 *  - outside [first, last] the time is wrapped: Loop (2) repeats, PingPong (4) goes back and forth,
 *    every other value (Default 0, Once 1, ClampForever 8, unknown) clamps;
 *  - the segment is the last key with time <= t and the one after it;
 *  - unweighted segments are cubic Hermite with tangents scaled by the segment length;
 *  - weighted segments (left key's mode has Out, or right key's mode has In) are a cubic Bezier in
 *    (time, value); a side without its flag uses the weight 1/3; the curve parameter is solved
 *    from the time like Unity does (closed-form cubic);
 *  - an infinite (either sign) out-tangent on the left key or in-tangent on the right key makes
 *    the segment stepped: it holds the left value;
 *  - a segment of zero length gives its left value.
 *
 *     sinew_curve c;
 *     sinew_curve_init(&c);
 *     sinew_curve_set_keys(&c, keys, n, NULL, NULL);
 *     double v = sinew_curve_eval(&c, 0.25);
 *     sinew_curve_cursor cur = {0};
 *     for (double t = 0; t < 1; t += 1.0 / 60) v = sinew_curve_eval_cursor(&c, &cur, t);
 *     sinew_curve_free(&c, NULL);
 */
#ifndef SINEW_CURVE_H
#define SINEW_CURVE_H

#include "sinew/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Unity WrapMode values as stored in files. Anything but LOOP and PINGPONG clamps. */
typedef enum sinew_wrap_mode {
    SINEW_WRAP_DEFAULT = 0,
    SINEW_WRAP_ONCE = 1,
    SINEW_WRAP_LOOP = 2,
    SINEW_WRAP_PINGPONG = 4,
    SINEW_WRAP_CLAMP_FOREVER = 8
} sinew_wrap_mode;

/** Unity WeightedMode flags. */
typedef enum sinew_weighted_mode {
    SINEW_WEIGHTED_NONE = 0,
    SINEW_WEIGHTED_IN = 1,
    SINEW_WEIGHTED_OUT = 2,
    SINEW_WEIGHTED_BOTH = 3
} sinew_weighted_mode;

/** One key: the seven fields of a Unity Keyframe, in the order of the 28-byte on-disk key. */
typedef struct sinew_curve_key {
    float time;
    float value;
    float in_tangent;   /**< slope (value per second) arriving at the key */
    float out_tangent;  /**< slope leaving the key */
    float in_weight;    /**< used when weighted_mode has SINEW_WEIGHTED_IN */
    float out_weight;   /**< used when weighted_mode has SINEW_WEIGHTED_OUT */
    int32_t weighted_mode; /**< raw, see sinew_weighted_mode */
} sinew_curve_key;

/**
 * A curve. `keys` is owned by the curve (allocated with the allocator given to the functions
 * below). `eval_keys`/`eval_count` is the evaluation view built by sinew_curve_prepare: either
 * `keys` itself or a sorted, filtered copy owned by the curve (`sorted`).
 */
typedef struct sinew_curve {
    sinew_curve_key *keys;   /**< as given (file order) */
    uint32_t key_count;
    int32_t pre_wrap;        /**< raw Int32, see sinew_wrap_mode */
    int32_t post_wrap;       /**< raw Int32 */
    const sinew_curve_key *eval_keys; /**< sorted finite keys (valid after prepare) */
    uint32_t eval_count;
    sinew_curve_key *sorted; /**< owned copy when `keys` needed sorting/filtering, else NULL */
} sinew_curve;

/** Remembers the segment last used, so playback forward in time is O(1) per call. Zero it. */
typedef struct sinew_curve_cursor {
    uint32_t index;
} sinew_curve_cursor;

/** Sets an empty curve with wrap modes ClampForever (8), what a fresh Unity curve reports. */
SINEW_API void sinew_curve_init(sinew_curve *c);

/** Frees the keys and the evaluation view, and re-initialises the curve (wrap modes kept). */
SINEW_API void sinew_curve_free(sinew_curve *c, const sinew_allocator *allocator);

/**
 * Builds the evaluation view after `keys`/`key_count` changed. Allocates only if the keys are
 * unsorted or contain non-finite times/values. Returns SINEW_E_NOMEM on allocation failure.
 */
SINEW_API sinew_status sinew_curve_prepare(sinew_curve *c, const sinew_allocator *allocator, sinew_error *err);

/** Replaces the keys with a copy of keys[0..count) and prepares the curve. */
SINEW_API sinew_status sinew_curve_set_keys(sinew_curve *c, const sinew_curve_key *keys, uint32_t count,
                                  const sinew_allocator *allocator, sinew_error *err);

/**
 * Evaluates sorted finite keys directly (no view needed). `keys` must be sorted by time and
 * finite in time and value; sinew_curve_prepare guarantees that for eval_keys.
 */
SINEW_API double sinew_curve_eval_keys(const sinew_curve_key *keys, uint32_t count, int32_t pre_wrap,
                             int32_t post_wrap, double t);

/** Evaluates a prepared curve at time t (binary search). */
SINEW_API double sinew_curve_eval(const sinew_curve *c, double t);

/** Like sinew_curve_eval, but starts from the cursor's segment: O(1) for small steps. */
SINEW_API double sinew_curve_eval_cursor(const sinew_curve *c, sinew_curve_cursor *cursor, double t);

/**
 * Evaluates as a step curve (the value of the last key with time <= t after wrapping; the first
 * key's value before it) - what Unity gives for MRTK's boolean keys - and returns value > 0.5.
 */
SINEW_API bool sinew_curve_eval_bool(const sinew_curve *c, double t);

/** sinew_curve_eval_bool with a cursor. */
SINEW_API bool sinew_curve_eval_bool_cursor(const sinew_curve *c, sinew_curve_cursor *cursor, double t);

/** Applies the wrap modes to t (returns t unchanged inside [first, last] or with < 2 keys). */
SINEW_API double sinew_curve_wrap_time(const sinew_curve_key *keys, uint32_t count, int32_t pre_wrap,
                             int32_t post_wrap, double t);

/** Time of the last key of the evaluation view, or 0 if the curve is empty. */
SINEW_API double sinew_curve_end_time(const sinew_curve *c);

#ifdef __cplusplus
}
#endif
#endif
