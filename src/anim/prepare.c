/*
 * The runtime's pass over a freshly loaded model (see sinew__model_prepare in model/model.h).
 *
 * It derives, into the data's arena, everything the player needs that the official DragonBones
 * parser computes at load time:
 *   - keyframes re-timed on the integer frame grid (each key starts on the first whole frame not
 *     yet taken; the last key spans to the animation end; keys past the end are dropped) and a
 *     frame -> key lookup table per timeline;
 *   - Bezier easing samples: frame_span + 1 samples per key at t = (i+1)/(n+1), each found by
 *     bisection to an interval of 1e-4 and stored as round(y * 10000) (a DBBin key brings the
 *     binary's own samples, taken as they are);
 *   - played values: rotations unwrapped along tweenRotate/clockwise or the shortest path (a
 *     DBBin timeline's are unwrapped already),
 *     colour multipliers as round(m * 100), offsets rounded, IK weights as round(w * 100);
 *   - the action timeline on the frame grid, with the empty frame at 0;
 *   - the bone update order (parents first, IK targets before the IK root).
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "anim/shape_tess.h"
#include "base/error.h"


double sinew__normalize_radian(double v) {
    /* fmod(x, y) is x itself when |x| < |y|: the usual case, without the libm call */
    double x = v + SINEW_PI;
    v = fabs(x) < SINEW_PI * 2.0 ? x : fmod(x, SINEW_PI * 2.0);
    v += v > 0.0 ? -SINEW_PI : SINEW_PI;
    return v;
}

static void curve_point(const double *p, double t, double *x, double *y) {
    /* p = x1 y1 x2 y2 x3 y3 x4 y4 */
    double l = 1.0 - t, pa = l * l, pb = t * t;
    double ka = l * pa, kb = 3.0 * t * pa, kc = 3.0 * l * pb, kd = t * pb;
    *x = ka * p[0] + kb * p[2] + kc * p[4] + kd * p[6];
    *y = ka * p[1] + kb * p[3] + kc * p[5] + kd * p[7];
}

/* A curve's point i: in double when the loader kept them so (6.0 files), else the float. */
static inline double curve_at(const float *curve_f, const double *curve_d, long i) {
    return curve_d ? curve_d[i] : (double)curve_f[i];
}

/* Samples `count` easing values of a (possibly chained) Bezier curve, as the official parser. */
static void sample_curve(const float *curve, const double *curve_d, uint32_t curve_count, float *out, uint32_t count) {
    long step = -2;
    for (uint32_t i = 0; i < count; ++i) {
        double t = (double)(i + 1) / (double)(count + 1);
        while ((step + 6 < (long)curve_count ? curve_at(curve, curve_d, step + 6) : 1.0) < t)
            step += 6;
        bool in_curve = step >= 0 && step + 6 < (long)curve_count;
        double p[8];
        p[0] = in_curve ? curve_at(curve, curve_d, step) : 0.0;
        p[1] = in_curve ? curve_at(curve, curve_d, step + 1) : 0.0;
        for (int k = 2; k < 6; ++k) {
            long at = step + k;
            p[k] = at >= 0 && at < (long)curve_count ? curve_at(curve, curve_d, at) : 0.0;
        }
        p[6] = in_curve ? curve_at(curve, curve_d, step + 6) : 1.0;
        p[7] = in_curve ? curve_at(curve, curve_d, step + 7) : 1.0;
        double lo = 0.0, hi = 1.0, x = 0.0, y = 0.0;
        while (hi - lo > 0.0001) {
            double mid = (hi + lo) * 0.5;
            curve_point(p, mid, &x, &y);
            if (t - x > 0.0)
                lo = mid;
            else
                hi = mid;
        }
        out[i] = (float)sinew__js_round(y * 10000.0);
    }
}

/* Re-times the `count` keys on the grid of frame_count frames from their raw durations: each key's
 * frame_start and frame_span, and the frame table (frame_count + 1 entries: the key in force at
 * each whole frame) when table != NULL. Returns how many keys fit; the rest start at frame_count
 * with no span. A key is reached at the first frame after the previous one that its predecessor's
 * span has passed: one key per frame at most, as the official parser walks them. */
static uint32_t grid_keys(sinew_model_keyframe *keys, uint32_t count, uint32_t frame_count, uint32_t *table) {
    if (count == 0)
        return 0;
    if (count == 1) {
        keys[0].frame_start = 0;
        keys[0].frame_span = 0;
        return 1;
    }
    uint32_t ik = 0;
    uint64_t i = 0;
    while (ik < count && i <= frame_count) {
        uint64_t span;
        if (ik == count - 1) {
            span = frame_count - i;
        } else {
            float d = keys[ik].duration;
            span = d > 0.0f && isfinite(d) ? (uint64_t)d : 0;
            if (span > frame_count)
                span = frame_count;
        }
        keys[ik].frame_start = (uint32_t)i;
        keys[ik].frame_span = (uint32_t)span;
        uint64_t next = i + span > i ? i + span : i + 1;
        if (next > (uint64_t)frame_count + 1)
            next = (uint64_t)frame_count + 1;
        if (table)
            for (uint32_t j = (uint32_t)i, end = (uint32_t)next; j < end; ++j)
                table[j] = ik;
        i = next;
        ik++;
    }
    if (table)
        for (; i <= frame_count; ++i)
            table[i] = ik - 1;
    /* The official parser keeps the raw span for a key that is not last; a key followed by a
     * dropped key behaves as the last one reached. */
    for (uint32_t k = ik; k < count; ++k) {
        keys[k].frame_start = frame_count;
        keys[k].frame_span = 0;
    }
    return ik;
}

static sinew_status prepare_timeline(sinew_arena *arena, const sinew_model_armature *arm,
                                     sinew_model_animation *anim, sinew_model_timeline *tl,
                                     sinew_error *err) {
    uint32_t n = tl->key_count;
    sinew_model_keyframe *keys = anim->keys ? anim->keys + tl->first_key : NULL;
    uint32_t *table = NULL;
    if (n > 1) {
        table = sinew__arena_array_uninit(arena, (size_t)anim->frame_count + 1, sizeof(uint32_t));
        if (!table)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    uint32_t fit = grid_keys(keys, n, anim->frame_count, table);
    tl->grid_key_count = fit;
    tl->frame_keys = table;

    /* Played values: the values themselves where nothing changes them. */
    size_t vcount = (size_t)n * tl->values_per_key;
    int rot_index = tl->type == SINEW_TL_BONE_ALL ? 2 : tl->type == SINEW_TL_BONE_ROTATE ? 0 : -1;
    bool unwrap = rot_index >= 0 && !tl->rotation_plain && !tl->rotation_unwrapped;
    if (vcount && tl->values && !unwrap && tl->type != SINEW_TL_SLOT_COLOR && tl->type != SINEW_TL_IK) {
        tl->run_values = tl->values;
        (void)arm;
        return SINEW_OK;
    }
    float *rv = sinew__arena_array(arena, vcount ? vcount : 1, sizeof(float));
    if (!rv)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    if (vcount && tl->values)
        memcpy(rv, tl->values, vcount * sizeof(float));
    if (unwrap) {
        double prev = 0.0;
        double prev_cw = 0.0;
        for (uint32_t k = 0; k < fit; ++k) {
            float *v = rv + (size_t)k * tl->values_per_key;
            double r = tl->rotation_exact ? tl->rotation_exact[k] : v[rot_index];
            if (keys[k].frame_start != 0) {
                if (prev_cw == 0.0) {
                    r = prev + sinew__normalize_radian(r - prev);
                } else {
                    if (prev_cw > 0.0 ? r >= prev : r <= prev)
                        prev_cw = prev_cw > 0.0 ? prev_cw - 1.0 : prev_cw + 1.0;
                    r = prev + r - prev + SINEW_PI * 2.0 * prev_cw;
                }
            }
            prev_cw = (double)keys[k].tween_rotate;
            prev = r;
            v[rot_index] = (float)r;
        }
    } else if (tl->type == SINEW_TL_SLOT_COLOR) {
        for (uint32_t k = 0; k < n; ++k) {
            float *v = rv + (size_t)k * 8;
            for (int c = 0; c < 4; ++c)
                v[c] = (float)sinew__js_round((double)v[c] * 100.0);
            for (int c = 4; c < 8; ++c)
                v[c] = (float)sinew__js_round((double)v[c]);
        }
    } else if (tl->type == SINEW_TL_IK) {
        for (uint32_t k = 0; k < n; ++k) {
            float *v = rv + (size_t)k * 2;
            v[0] = (float)sinew__js_round((double)v[0] * 100.0);
        }
    }
    tl->run_values = rv;
    (void)arm;
    return SINEW_OK;
}

static sinew_status prepare_curves(sinew_arena *arena, sinew_model_animation *anim, sinew_error *err) {
    size_t total = 0;
    for (uint32_t k = 0; k < anim->key_count; ++k) {
        sinew_model_keyframe *key = &anim->keys[k];
        if (key->tween == SINEW_TWEEN_CURVE && key->frame_span > 0)
            total += (size_t)key->frame_span + 1;
    }
    anim->sample_count = 0;
    anim->samples = NULL;
    if (total == 0)
        return SINEW_OK;
    if (total > UINT32_MAX)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "too many curve samples");
    float *samples = sinew__arena_array(arena, total, sizeof(float));
    if (!samples)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    uint32_t at = 0;
    for (uint32_t k = 0; k < anim->key_count; ++k) {
        sinew_model_keyframe *key = &anim->keys[k];
        key->sample_first = 0;
        key->sample_count = 0;
        if (key->tween != SINEW_TWEEN_CURVE || key->frame_span == 0)
            continue;
        uint32_t count = key->frame_span + 1;
        const float *curve = anim->curves && key->curve_count ? anim->curves + key->curve_first : NULL;
        if (key->curve_sampled) {
            /* samples given by the loader (DBBin), which checked they fit the key's span */
            if (!curve || key->curve_count != count)
                return sinew__fail(err, SINEW_E_LAYOUT, NULL,
                                   "animation '%s': a key with %u curve samples spans %u frames", anim->name,
                                   key->curve_count, key->frame_span);
            memcpy(samples + at, curve, count * sizeof(float));
        } else if (curve)
            sample_curve(curve, anim->curves_d ? anim->curves_d + key->curve_first : NULL, key->curve_count,
                         samples + at, count);
        else
            for (uint32_t i = 0; i < count; ++i)
                samples[at + i] = (float)sinew__js_round(10000.0 * (i + 1) / (count + 1));
        key->sample_first = at;
        key->sample_count = count;
        at += count;
    }
    anim->samples = samples;
    anim->sample_count = at;
    return SINEW_OK;
}

/*
 * The official parser merges action frames one source at a time (animation frames, then bone
 * frames per bone timeline, then slot display frames per slot timeline), inserting a frame whose
 * start is new one place AFTER the first later frame (so the list can end up out of order), and
 * then lays the list on the frame grid like any timeline (a span may be negative). Bone and slot
 * frames use their keys' grid starts. This reproduces that list.
 */
typedef struct merge_frame {
    int64_t start;
    uint32_t first;            /* into the op index list, chained via next */
    uint32_t count;
} merge_frame;

typedef struct merge_ctx {
    merge_frame *frames;
    uint32_t frame_count, frame_cap;
    uint32_t *idx;             /* action indices grouped per frame at the end */
    uint32_t *owner;           /* per merged action: its frame (before grouping) */
    uint32_t *act;             /* per merged action: the action index */
    uint32_t n, cap;
    bool sorted;               /* a new frame goes where it belongs (upstream, a 6.0 file); else one place
                                  after it, as the 5.x reference inserts */
} merge_ctx;

static void merge(merge_ctx *m, int64_t start, const uint32_t *acts, uint32_t count) {
    if (m->frame_count == 0) {
        m->frames[0].start = 0;
        m->frames[0].count = 0;
        m->frame_count = 1;
    }
    uint32_t at = 0;
    int32_t found = -1;
    for (uint32_t i = 0; i < m->frame_count; ++i) {
        if (m->frames[i].start == start) {
            found = (int32_t)i;
            break;
        } else if (m->frames[i].start > start) {
            break;
        }
        at++;
    }
    if (found < 0) {
        if (m->frame_count >= m->frame_cap)
            return;
        uint32_t pos = m->sorted ? at : at + 1 < m->frame_count ? at + 1 : m->frame_count;
        memmove(m->frames + pos + 1, m->frames + pos, (m->frame_count - pos) * sizeof(merge_frame));
        for (uint32_t k = 0; k < m->n; ++k)
            if (m->owner[k] >= pos)
                m->owner[k]++;
        m->frames[pos].start = start;
        m->frames[pos].count = 0;
        m->frame_count++;
        found = (int32_t)pos;
    }
    for (uint32_t i = 0; i < count && m->n < m->cap; ++i) {
        m->owner[m->n] = (uint32_t)found;
        m->act[m->n] = acts[i];
        m->n++;
    }
}

static bool has_bone_all(const sinew_model_armature *arm, const sinew_model_animation *anim, uint32_t bone,
                         uint32_t *tl) {
    for (uint32_t t = anim->first_timeline; t < anim->first_timeline + anim->timeline_count; ++t)
        if (arm->timelines[t].type == SINEW_TL_BONE_ALL && arm->timelines[t].target == bone) {
            if (tl)
                *tl = t;
            return true;
        }
    return false;
}

/* How many actions the merge can hold: every action of the animation's frames, a frame for each
 * recorded unit (a unit without action still adds one) and the slot display keys' actions. */
static size_t count_actions(const sinew_model_armature *arm, const sinew_model_animation *anim) {
    size_t total = 0;
    for (uint32_t i = 0; i < anim->action_frame_count; ++i)
        total += anim->action_frames[i].action_count;
    for (uint32_t i = 0; i < anim->merge_unit_count; ++i)
        total += anim->merge_units[i].count + 1;
    uint32_t t0 = anim->first_timeline, tn = anim->timeline_count;
    for (uint32_t t = t0; t < t0 + tn; ++t) {
        const sinew_model_timeline *T = &arm->timelines[t];
        if (T->type != SINEW_TL_SLOT_DISPLAY)
            continue;
        for (uint32_t k = 0; k < T->key_count; ++k)
            total += anim->keys[T->first_key + k].action_count;
    }
    return total;
}

/* A frame position as the merge's start: whole frames, 0 for a negative, huge or NaN one. */
static int64_t frame_start_of(float p) {
    return p > 0.0f && p < 9.0e18f ? (int64_t)p : 0; /* (a NaN fails both) */
}

/* The loader recorded the official merges: animation frames, then bone frames, then slot display
 * frames, each in file order; bone and slot frames at their keys' grid starts (a key past the
 * animation end is never laid, so never merged). */
static void merge_recorded_units(merge_ctx *m, const sinew_model_armature *arm,
                                 const sinew_model_animation *anim) {
    for (uint8_t source = 0; source < 3; ++source)
        for (uint32_t i = 0; i < anim->merge_unit_count; ++i) {
            const sinew_model_merge_unit *u = &anim->merge_units[i];
            if (u->source != source)
                continue;
            int64_t start;
            if (source == 0) {
                start = frame_start_of(u->position);
            } else {
                if (u->timeline >= arm->timeline_count || u->key >= arm->timelines[u->timeline].grid_key_count)
                    continue;
                const sinew_model_timeline *T = &arm->timelines[u->timeline];
                start = anim->keys[T->first_key + u->key].frame_start;
            }
            /* (no merge index at all when every unit is empty: no offset from NULL) */
            merge(m, start, u->count ? anim->merge_index + u->first : NULL, u->count);
        }
}

/* 1. animation frames (and actions of no bone timeline) */
static void merge_animation_frames(merge_ctx *m, const sinew_model_armature *arm,
                                   const sinew_model_animation *anim, uint32_t *tmp) {
    for (uint32_t i = 0; i < anim->action_frame_count; ++i) {
        const sinew_model_action_frame *f = &anim->action_frames[i];
        uint32_t n = 0;
        for (uint32_t a = f->first_action; a < f->first_action + f->action_count && a < arm->action_count; ++a) {
            const sinew_model_action *A = &arm->actions[a];
            if (A->slot != SINEW_INVALID_INDEX)
                continue;
            /* a bone frame's actions are merged with their bone timeline below; an animation
               frame's action that merely names a bone stays here (official parser) */
            if (A->from_bone_frame && A->bone != SINEW_INVALID_INDEX && has_bone_all(arm, anim, A->bone, NULL))
                continue;
            tmp[n++] = a;
        }
        if (n > 0 || f->action_count == 0)
            merge(m, frame_start_of(f->position), tmp, n);
    }
}

/* 2. bone frames, per bone timeline, at their keys' grid starts */
static void merge_bone_frames(merge_ctx *m, const sinew_model_armature *arm, const sinew_model_animation *anim,
                              uint32_t *tmp) {
    uint32_t t0 = anim->first_timeline, tn = anim->timeline_count;
    for (uint32_t t = t0; t < t0 + tn; ++t) {
        const sinew_model_timeline *T = &arm->timelines[t];
        if (T->type != SINEW_TL_BONE_ALL)
            continue;
        uint32_t first_tl = 0;
        if (!has_bone_all(arm, anim, T->target, &first_tl) || first_tl != t)
            continue;
        for (uint32_t k = 0; k < T->grid_key_count; ++k) {
            const sinew_model_keyframe *key = &anim->keys[T->first_key + k];
            uint32_t n = 0;
            for (uint32_t i = 0; i < anim->action_frame_count; ++i) {
                const sinew_model_action_frame *f = &anim->action_frames[i];
                if (f->position != key->position)
                    continue;
                for (uint32_t a = f->first_action; a < f->first_action + f->action_count && a < arm->action_count; ++a)
                    if (arm->actions[a].from_bone_frame && arm->actions[a].bone == T->target &&
                        arm->actions[a].slot == SINEW_INVALID_INDEX)
                        tmp[n++] = a;
            }
            /* a zero-length key at the same raw position as the next one takes them first */
            if (n > 0 && k > 0 && anim->keys[T->first_key + k - 1].position == key->position)
                continue;
            if (n > 0)
                merge(m, key->frame_start, tmp, n);
        }
    }
}

/* 3. slot display frames, per slot timeline */
static void merge_slot_frames(merge_ctx *m, const sinew_model_armature *arm, const sinew_model_animation *anim,
                              uint32_t *tmp) {
    uint32_t t0 = anim->first_timeline, tn = anim->timeline_count;
    for (uint32_t t = t0; t < t0 + tn; ++t) {
        const sinew_model_timeline *T = &arm->timelines[t];
        if (T->type != SINEW_TL_SLOT_DISPLAY)
            continue;
        for (uint32_t k = 0; k < T->grid_key_count; ++k) {
            const sinew_model_keyframe *key = &anim->keys[T->first_key + k];
            if (key->action_count == 0)
                continue;
            uint32_t n = 0;
            for (uint32_t a = key->first_action; a < key->first_action + key->action_count && a < arm->action_count; ++a)
                tmp[n++] = a;
            merge(m, key->frame_start, tmp, n);
        }
    }
}

/* The merged actions grouped per frame, and the list laid on the frame grid like any timeline
 * (the official runtime's action timeline): the animation's run_action_* fields. */
static sinew_status lay_action_frames(sinew_arena *arena, const merge_ctx *m, sinew_model_animation *anim,
                                      sinew_error *err) {
    uint32_t nf = m->frame_count;
    sinew_model_action_frame *frames = sinew__arena_array(arena, nf, sizeof(*frames));
    uint32_t *index = sinew__arena_array(arena, m->n ? m->n : 1, sizeof(uint32_t));
    uint32_t *table = NULL;
    if (nf > 1)
        table = sinew__arena_array(arena, (size_t)anim->frame_count + 1, sizeof(uint32_t));
    if (!frames || !index || (nf > 1 && !table))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    uint32_t w = 0;
    for (uint32_t f = 0; f < nf; ++f) {
        frames[f].first_action = w;
        frames[f].action_count = 0;
        for (uint32_t k = 0; k < m->n; ++k)
            if (m->owner[k] == f) {
                index[w++] = m->act[k];
                frames[f].action_count++;
            }
    }
    uint32_t fc = anim->frame_count, ik = 0;
    if (nf == 1) {
        frames[0].position = 0.0f;
        ik = 1;
    } else {
        int64_t start = 0, span = 0;
        for (uint32_t i = 0; i <= fc; ++i) {
            if (start + span <= (int64_t)i && ik < nf) {
                start = i;
                span = ik == nf - 1 ? (int64_t)fc - start : m->frames[ik + 1].start - start;
                frames[ik].position = (float)start;
                ik++;
            }
            table[i] = ik - 1;
        }
    }
    anim->run_action_frames = frames;
    anim->run_action_frame_count = ik;
    anim->run_action_index = index;
    anim->action_frame_keys = table;
    return SINEW_OK;
}

static sinew_status prepare_actions(sinew_arena *arena, const sinew_model_armature *arm,
                                    sinew_model_animation *anim, sinew_error *err) {
    anim->run_action_frame_count = 0;
    anim->run_action_frames = NULL;
    anim->run_action_index = NULL;
    anim->action_frame_keys = NULL;
    size_t total = count_actions(arm, anim);
    if (total == 0)
        return SINEW_OK;
    if (total > UINT32_MAX / 4)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "too many actions");
    merge_ctx m;
    memset(&m, 0, sizeof m);
    m.frame_cap = (uint32_t)total + 1;
    m.cap = (uint32_t)total;
    m.sorted = arm->v6;
    m.frames = sinew__arena_array(arena, m.frame_cap, sizeof(merge_frame));
    m.owner = sinew__arena_array(arena, m.cap, sizeof(uint32_t));
    m.act = sinew__arena_array(arena, m.cap, sizeof(uint32_t));
    uint32_t *tmp = sinew__arena_array(arena, m.cap, sizeof(uint32_t));
    if (!m.frames || !m.owner || !m.act || !tmp)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    if (anim->merge_unit_count > 0) {
        merge_recorded_units(&m, arm, anim);
    } else {
        merge_animation_frames(&m, arm, anim, tmp);
        merge_bone_frames(&m, arm, anim, tmp);
        merge_slot_frames(&m, arm, anim, tmp);
    }
    if (m.frame_count == 0)
        return SINEW_OK;
    return lay_action_frames(arena, &m, anim, err);
}

static sinew_status prepare_bone_order(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    uint32_t n = arm->bone_count;
    arm->bone_order = NULL;
    if (n == 0)
        return SINEW_OK;
    uint32_t *order = sinew__arena_array(arena, n, sizeof(uint32_t));
    uint32_t *helper = sinew__arena_array(arena, n, sizeof(uint32_t));
    uint8_t *placed = sinew__arena_array(arena, n, 1);
    if (!order || !helper || !placed)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    /* The official walk starts from file order. */
    for (uint32_t i = 0; i < n; ++i)
        helper[i] = i;
    for (uint32_t i = 1; i < n; ++i) { /* insertion sort by file_index (bones are few) */
        uint32_t v = helper[i], j = i;
        while (j > 0 && arm->bones[helper[j - 1]].file_index > arm->bones[v].file_index) {
            helper[j] = helper[j - 1];
            j--;
        }
        helper[j] = v;
    }
    uint32_t count = 0, index = 0, since_progress = 0;
    bool strict = true;
    while (count < n) {
        uint32_t b = helper[index++];
        if (index >= n)
            index = 0;
        if (++since_progress > 2 * n + 2) {
            strict = false; /* a cycle through IK targets: fall back to parents first */
            since_progress = 0;
        }
        if (placed[b])
            continue;
        bool wait = false;
        if (strict)
            for (uint32_t c = 0; c < arm->ik_count; ++c)
                if (arm->iks[c].root == b && arm->iks[c].target < n && !placed[arm->iks[c].target]) {
                    wait = true;
                    break;
                }
        if (wait)
            continue;
        uint32_t p = arm->bones[b].parent;
        if (p != SINEW_INVALID_INDEX && p < n && !placed[p])
            continue;
        placed[b] = 1;
        order[count++] = b;
        since_progress = 0;
    }
    arm->bone_order = order;
    return SINEW_OK;
}

static sinew_status mesh_tables(sinew_arena *arena, sinew_model_armature *arm, float *scratch, size_t most,
                                sinew_error *err);

/* Each weighted mesh's skinning tables (run_bones, run_skin, run_skin_deform, run_skin4; see
 * model.h and update_mesh in pose.c). */
static sinew_status prepare_mesh_bones(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    if (arm->bone_count == 0)
        return SINEW_OK;
    /* per influence, packed for the tables below (scratch): w*x, w*y, w (bind position
       premultiplied by the weight) and the bone's world matrix offset (6*bone) as float bits (an
       influence on a missing bone has weight 0); then w * influence_deform */
    size_t most = 0;
    for (uint32_t m = 0; m < arm->mesh_count; ++m)
        if (arm->meshes[m].weighted && arm->meshes[m].influence_count > most)
            most = arm->meshes[m].influence_count;
    if (most == 0)
        return SINEW_OK;
    const sinew_allocator *al = arena->allocator;
    size_t scratch_bytes = most * 8 * sizeof(float) + arm->bone_count * (1 + sizeof(uint32_t));
    float *scratch = sinew__alloc(al, scratch_bytes);
    if (!scratch)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    sinew_status st = mesh_tables(arena, arm, scratch, most, err);
    sinew__free(al, scratch, scratch_bytes);
    return st;
}

/* prepare_mesh_bones for each weighted mesh, with scratch for 8 floats per influence of the mesh
 * with the `most`, then bone_count uint32s and bytes. */
static sinew_status mesh_tables(sinew_arena *arena, sinew_model_armature *arm, float *scratch, size_t most,
                                sinew_error *err) {
    uint32_t *group_of = (uint32_t *)(void *)(scratch + most * 8);
    uint8_t *seen = (uint8_t *)(group_of + arm->bone_count);
    for (uint32_t m = 0; m < arm->mesh_count; ++m) {
        sinew_model_mesh *mesh = &arm->meshes[m];
        mesh->run_bone_count = 0;
        mesh->run_bones = NULL;
        mesh->run_skin = NULL;
        mesh->run_skin_group_count = 0;
        mesh->run_skin_groups = NULL;
        mesh->run_skin_deform = NULL;
        mesh->run_skin4 = NULL;
        mesh->run_skin4_groups = NULL;
        if (!mesh->weighted || mesh->influence_count == 0)
            continue;
        memset(seen, 0, arm->bone_count);
        uint32_t n = 0;
        for (uint32_t k = 0; k < mesh->influence_count; ++k) {
            uint32_t b = mesh->influence_bone[k];
            if (b < arm->bone_count && !seen[b]) {
                seen[b] = 1;
                n++;
            }
        }
        uint32_t *list = sinew__arena_array(arena, n ? n : 1, sizeof(uint32_t));
        if (!list)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        n = 0;
        for (uint32_t b = 0; b < arm->bone_count; ++b)
            if (seen[b])
                list[n++] = b;
        mesh->run_bones = list;
        mesh->run_bone_count = n;
        float *inf = scratch, *infd = mesh->influence_deform ? scratch + 4 * (size_t)mesh->influence_count : NULL;
        for (uint32_t k = 0; k < mesh->influence_count; ++k) {
            uint32_t b = mesh->influence_bone[k];
            float w = b < arm->bone_count ? mesh->influence_weight[k] : 0.0f;
            uint32_t off = b < arm->bone_count ? 6u * b : 0u;
            inf[4 * k] = w * mesh->influence_local[2 * k];
            inf[4 * k + 1] = w * mesh->influence_local[2 * k + 1];
            inf[4 * k + 2] = w;
            memcpy(&inf[4 * k + 3], &off, sizeof off);
            if (infd)
                for (int q = 0; q < 4; ++q)
                    infd[4 * k + (uint32_t)q] = w * mesh->influence_deform[4 * k + (uint32_t)q];
        }
        /* bone-major records for the plain skinning loop and vertex-major ones (with the
           deform map) for meshes with a deform; see update_mesh in pose.c */
        float *sk = sinew__arena_array(arena, (size_t)mesh->influence_count, 8 * sizeof(float));
        uint32_t *groups = sinew__arena_array(arena, (size_t)n ? n : 1, 2 * sizeof(uint32_t));
        uint32_t *fill = sinew__arena_array(arena, (size_t)n ? n : 1, sizeof(uint32_t));
        float *skd = infd ? sinew__arena_array_uninit(arena, (size_t)mesh->influence_count, 16 * sizeof(float)) : NULL;
        if (!sk || !groups || !fill || (infd && !skd))
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        /* counting sort of the influences by bone (group order = list order) */
        for (uint32_t g = 0; g < n; ++g) {
            group_of[list[g]] = g;
            groups[2 * g] = 6u * list[g];
            groups[2 * g + 1] = 0;
        }
        for (uint32_t k = 0; k < mesh->influence_count; ++k)
            if (mesh->influence_bone[k] < arm->bone_count)
                groups[2 * group_of[mesh->influence_bone[k]] + 1]++;
        for (uint32_t g = 0, sum = 0; g < n; ++g) {
            fill[g] = sum;
            sum += groups[2 * g + 1];
        }
        for (uint32_t v = 0; v < mesh->vertex_count; ++v)
            for (uint32_t k = mesh->vertex_first_influence[v]; k < mesh->vertex_first_influence[v + 1]; ++k) {
                uint32_t b = mesh->influence_bone[k];
                if (b >= arm->bone_count)
                    continue;
                if (fill[group_of[b]] >= mesh->influence_count)
                    continue;
                float *r = sk + 8 * (size_t)fill[group_of[b]]++;
                const float *q = inf + 4 * (size_t)k;
                uint32_t oi = 2 * v;
                r[0] = r[1] = q[0];
                r[2] = r[3] = q[1];
                r[4] = r[5] = q[2];
                memcpy(&r[6], &oi, sizeof oi);
                r[7] = 0.0f;
            }
        uint32_t ng = n;
        for (uint32_t k = 0; skd && k < mesh->influence_count; ++k) {
            float *r = skd + 16 * (size_t)k;
            const float *q = inf + 4 * (size_t)k;
            r[0] = r[1] = q[0];
            r[2] = r[3] = q[1];
            r[4] = r[5] = q[2];
            r[6] = q[3];
            r[7] = 0.0f;
            for (uint32_t c = 0; c < 4; ++c)
                r[8 + 2 * c] = r[8 + 2 * c + 1] = infd[4 * (size_t)k + c];
        }
        /* the same records in pairs (see run_skin4 in model.h) */
        float *sk4 = sinew__arena_array(arena, (size_t)mesh->influence_count, 16 * sizeof(float));
        uint32_t *groups4 = sinew__arena_array(arena, (size_t)n ? n : 1, 2 * sizeof(uint32_t));
        if (!sk4 || !groups4)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        {
            float *dst = sk4;
            const float *src = sk;
            for (uint32_t g = 0; g < ng; ++g) {
                uint32_t cnt = groups[2 * g + 1], pairs = 0;
                for (uint32_t i = 0; i < cnt; ++pairs) {
                    const float *r0 = src + 8 * (size_t)i, *r1 = NULL;
                    if (i + 1 < cnt && memcmp(&src[8 * (size_t)i + 6], &src[8 * (size_t)(i + 1) + 6], sizeof(float)) != 0)
                        r1 = src + 8 * (size_t)(i + 1);
                    for (uint32_t c = 0; c < 3; ++c) {
                        dst[4 * c] = dst[4 * c + 1] = r0[2 * c];
                        dst[4 * c + 2] = dst[4 * c + 3] = r1 ? r1[2 * c] : 0.0f;
                    }
                    dst[12] = r0[6];
                    dst[13] = r1 ? r1[6] : r0[6];
                    dst[14] = dst[15] = 0.0f;
                    dst += 16;
                    i += r1 ? 2 : 1;
                }
                src += 8 * (size_t)cnt;
                groups4[2 * g] = groups[2 * g];
                groups4[2 * g + 1] = pairs;
            }
        }
        mesh->run_skin4 = sk4;
        mesh->run_skin4_groups = groups4;
        mesh->run_skin = sk;
        mesh->run_skin_group_count = ng;
        mesh->run_skin_groups = groups;
        mesh->run_skin_deform = skd;
    }
    return SINEW_OK;
}

static sinew_status prepare_ik_roots(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    arm->run_ik_root = NULL;
    if (arm->bone_count == 0)
        return SINEW_OK;
    uint8_t *r = sinew__arena_array(arena, arm->bone_count, 1);
    if (!r)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    memset(r, 0, arm->bone_count);
    for (uint32_t c = 0; c < arm->ik_count; ++c)
        if (arm->iks[c].root < arm->bone_count)
            r[arm->iks[c].root] = 1;
    for (uint32_t c = 0; c < arm->path_constraint_count; ++c) /* path constraints: src/anim/path.c */
        if (arm->path_constraints[c].root < arm->bone_count)
            r[arm->path_constraints[c].root] |= 2;
    arm->run_ik_root = r;
    return SINEW_OK;
}

/* The bone loop's per-bone record in update order (after prepare_bone_order and
 * prepare_ik_roots). */
static sinew_status prepare_bone_steps(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    arm->run_bone_steps = NULL;
    if (arm->bone_count == 0 || !arm->bone_order)
        return SINEW_OK;
    sinew_model_bone_step *steps = sinew__arena_array(arena, arm->bone_count, sizeof *steps);
    double *setup = sinew__arena_array(arena, (size_t)arm->bone_count * 6, sizeof *setup);
    if (!steps || !setup)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    for (uint32_t b = 0; b < arm->bone_count; ++b) {
        const sinew_model_bone *bd = &arm->bones[b];
        double *s = setup + (size_t)b * 6;
        if (bd->has_setup_d) {
            memcpy(s, bd->setup_d, 6 * sizeof *s);
        } else {
            const sinew_transform *t = &bd->setup;
            s[0] = t->x;
            s[1] = t->y;
            s[2] = t->rotation;
            s[3] = t->skew;
            s[4] = t->scale_x;
            s[5] = t->scale_y;
        }
    }
    arm->run_bone_setup = setup;
    for (uint32_t i = 0; i < arm->bone_count; ++i) {
        uint32_t b = arm->bone_order[i];
        const sinew_model_bone *bd = &arm->bones[b];
        sinew_model_bone_step *s = &steps[i];
        memset(s, 0, sizeof *s);
        s->bone = b;
        s->parent = bd->parent;
        s->surface = bd->is_surface;
        s->plain = bd->parent != SINEW_INVALID_INDEX && !bd->is_surface && !arm->bones[bd->parent].is_surface &&
                   bd->inherit_scale && bd->inherit_rotation && bd->inherit_translation;
        s->ik_root = arm->run_ik_root ? arm->run_ik_root[b] : 0;
        memcpy(s->setup, setup + (size_t)b * 6, sizeof s->setup);
    }
    arm->run_bone_steps = steps;
    arm->surface_count = 0;
    arm->run_surface = NULL;
    for (uint32_t b = 0; b < arm->bone_count; ++b)
        arm->surface_count += arm->bones[b].is_surface;
    if (arm->surface_count) {
        uint32_t *rs = sinew__arena_array(arena, arm->bone_count, sizeof *rs);
        if (!rs)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        for (uint32_t b = 0, k = 0; b < arm->bone_count; ++b)
            rs[b] = arm->bones[b].is_surface ? k++ : SINEW_INVALID_INDEX;
        arm->run_surface = rs;
    }
    return SINEW_OK;
}

/* The official tween strength of a key: its tweenEasing as the parser stores it (rounded to 0.01),
 * else the quad strength given. */
static double key_strength(const sinew_model_keyframe *k) {
    double te = k->tween_easing;
    if (!isfinite(te))
        return k->strength;
    switch (k->tween) {
    case SINEW_TWEEN_QUAD_IN:
        return sinew__js_round(-te * 100.0) * 0.01;
    case SINEW_TWEEN_QUAD_OUT:
        return sinew__js_round(te * 100.0) * 0.01;
    case SINEW_TWEEN_QUAD_IN_OUT:
        return sinew__js_round(te * 100.0 - 100.0) * 0.01;
    default:
        return 0.0;
    }
}

/* What the runtime reads of a timeline while it plays (after prepare_timeline and prepare_curves):
 * its kind, channels and clock, and per key the tween's start, rate, easing and (2-channel bone
 * timelines) the change towards the next key, as the official TweenTimelineState computes them
 * on arriving at the key. */
static sinew_status prepare_run_keys(sinew_arena *arena, const sinew_model_armature *arm,
                                     const sinew_model_animation *anim, sinew_model_timeline *T, sinew_error *err) {
    T->run_keys = NULL;
    switch (T->type) {
    case SINEW_TL_BONE_ALL:
    case SINEW_TL_BONE_TRANSLATE:
    case SINEW_TL_BONE_ROTATE:
    case SINEW_TL_BONE_SCALE:
        T->run_kind = TLK_BONE;
        break;
    case SINEW_TL_SLOT_DISPLAY:
        T->run_kind = TLK_SLOT_DISPLAY;
        break;
    case SINEW_TL_SLOT_COLOR:
        T->run_kind = TLK_SLOT_COLOR;
        break;
    case SINEW_TL_FFD:
    case SINEW_TL_SHAPE: /* a vector shape's control points deform as a mesh's vertices */
        T->run_kind = TLK_DEFORM;
        break;
    case SINEW_TL_PATH_DEFORM:
        T->run_kind = TLK_PATH_DEFORM;
        break;
    case SINEW_TL_SLOT_ZINDEX:
        T->run_kind = TLK_SLOT_ZINDEX;
        break;
    case SINEW_TL_IK:
        T->run_kind = TLK_IK;
        break;
    case SINEW_TL_PATH_POSITION:
    case SINEW_TL_PATH_SPACING:
    case SINEW_TL_PATH_WEIGHT:
        T->run_kind = TLK_PATH;
        break;
    case SINEW_TL_ZORDER:
        T->run_kind = TLK_ZORDER;
        break;
    default:
        T->run_kind = TLK_SURFACE;
        break;
    }
    T->run_chan = 0xff;
    if (T->run_kind == TLK_BONE && T->values_per_key >= 2) {
        if (T->type == SINEW_TL_BONE_TRANSLATE)
            T->run_chan = 0;
        else if (T->type == SINEW_TL_BONE_ROTATE)
            T->run_chan = 2;
        else if (T->type == SINEW_TL_BONE_SCALE)
            T->run_chan = 4;
    }
    /* the official timeline scale and offset: stored as round(x * 100), used as 100/s and o/100 */
    double s100 = sinew__js_round((double)T->scale * 100.0);
    double scale = s100 != 0.0 ? 100.0 / s100 : 1.0;
    double offset = sinew__js_round((double)T->offset * 100.0) * 0.01;
    uint32_t fc = T->grid_key_count;
    T->run_follow = fc > 1 && scale == 1.0 && offset == 0.0 && sinew__tl_plain6(arm, anim, T);
    if (fc == 0)
        return SINEW_OK;
    sinew_model_run_key *rk = sinew__arena_array(arena, fc, sizeof *rk);
    if (!rk)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    memset(rk, 0, (size_t)fc * sizeof *rk);
    const sinew_model_keyframe *keys = anim->keys ? anim->keys + T->first_key : NULL;
    const double rate = (double)arm->frame_rate, rate_r = 1.0 / rate;
    const double duration = (double)anim->frame_count / rate;
    for (uint32_t fi = 0; fi < fc; ++fi) {
        const sinew_model_keyframe *k = &keys[fi];
        sinew_model_run_key *r = &rk[fi];
        uint8_t type = k->frame_span > 0 ? k->tween : SINEW_TWEEN_NONE;
        if (type == SINEW_TWEEN_CURVE && k->sample_count == 0)
            type = SINEW_TWEEN_LINEAR;
        r->tween = type;
        r->easing = (float)key_strength(k);
        r->sample_first = k->sample_first;
        r->sample_count = k->sample_count;
        r->frame_pos = k->frame_start * rate_r;
        if (fi == fc - 1) {
            r->dur_r = 1.0 / (duration - r->frame_pos);
        } else {
            double fd = keys[fi + 1].frame_start * rate_r - r->frame_pos;
            r->dur_r = fd > 0.0 ? 1.0 / fd : 0.0;
        }
        r->chan = T->run_chan;
        r->last = fi == fc - 1;
        if (T->run_chan != 0xff && T->run_values) {
            const float *v0 = T->run_values + (size_t)fi * T->values_per_key;
            const float *v1 = T->run_values + (size_t)(fi == fc - 1 ? 0 : fi + 1) * T->values_per_key;
            r->value[0] = v0[0];
            r->value[1] = v0[1];
            r->delta[0] = (double)v1[0] - v0[0];
            r->delta[1] = (double)v1[1] - v0[1];
            if (T->run_chan == 2 && fi == fc - 1 && !T->rotation_plain) {
                r->delta[0] = sinew__normalize_radian(r->delta[0]);
                if (arm->v6) /* upstream normalises the skew's wrap delta too */
                    r->delta[1] = sinew__normalize_radian(r->delta[1]);
            }
        }
    }
    if (T->frame_keys)
        for (uint32_t f = 0; f <= anim->frame_count; ++f) {
            uint32_t k = T->frame_keys[f];
            if (k >= fc)
                continue;
            if (rk[k].frame_end == 0)
                rk[k].frame_first = f;
            rk[k].frame_end = f + 1;
        }
    T->run_keys = rk;
    return SINEW_OK;
}

/* A 6.0 shape display's share of the draw list (the slot's largest display counts): its commands,
 * vertices and indices, and the armature's largest tessellation scratch. */
static void shape_bound(sinew_model_armature *arm, const sinew_model_display *d, uint32_t *cmds, uint64_t *v,
                        uint64_t *ix) {
    const sinew_model_shape *sh = &arm->shapes[d->shape];
    uint32_t points, contours;
    uint64_t sv, si;
    sinew__shape_bounds(sh, &points, &contours, &sv, &si);
    uint32_t c = d->mask && d->mask_range > 0 ? 1 : 2 * sh->path_count;
    if (c > *cmds)
        *cmds = c;
    if (sv > *v)
        *v = sv;
    if (si > *ix)
        *ix = si;
    if (points > arm->run_shape_points)
        arm->run_shape_points = points;
    if (contours > arm->run_shape_contours)
        arm->run_shape_contours = contours;
    if (sh->point_count > arm->run_shape_ctrl)
        arm->run_shape_ctrl = sh->point_count;
}

/* Per display its matrix; per slot where its deform and mesh vertices go in an instance and how
 * many (the largest mesh any skin gives it); the largest draw list the armature can make. */
static sinew_status prepare_slots(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    arm->run_display_matrix = NULL;
    arm->run_slot_deform = NULL;
    arm->run_deform_floats = arm->run_dl_vertices = arm->run_dl_indices = arm->run_dl_cmds = 0;
    arm->run_shape_points = arm->run_shape_contours = arm->run_shape_ctrl = 0;
    if (arm->display_count) {
        double *m = sinew__arena_array(arena, (size_t)arm->display_count * 6, sizeof(double));
        if (!m)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        for (uint32_t i = 0; i < arm->display_count; ++i)
            sinew__transform_matrix(&arm->displays[i].transform, m + (size_t)i * 6);
        arm->run_display_matrix = m;
    }
    if (!arm->slot_count)
        return SINEW_OK;
    uint32_t *sd = sinew__arena_array(arena, (size_t)arm->slot_count * 2, sizeof(uint32_t));
    if (!sd)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    uint64_t total = 0, vertices = 0, indices = 0, cmds = 0;
    for (uint32_t s = 0; s < arm->slot_count; ++s) {
        uint32_t cap = 0, tris = 2, slot_cmds = 1;
        uint64_t shape_v = 0, shape_i = 0;
        for (uint32_t k = 0; k < arm->skin_slot_count; ++k) {
            const sinew_model_skin_slot *ss = &arm->skin_slots[k];
            if (ss->slot != s)
                continue;
            for (uint32_t i = 0; i < ss->display_count; ++i) {
                const sinew_model_display *d = &arm->displays[ss->first_display + i];
                if (arm->v6 && d->type == SINEW_DISPLAY_PATH && d->path_data < arm->path_count) {
                    /* 6.0: a path display's deform (2 per point, slot space) */
                    uint32_t pc = 2 * arm->paths[d->path_data].vertex_count;
                    cap = pc > cap ? pc : cap;
                    continue;
                }
                if (d->type == SINEW_DISPLAY_SHAPE && d->shape < arm->shape_count)
                    shape_bound(arm, d, &slot_cmds, &shape_v, &shape_i);
                if ((d->type != SINEW_DISPLAY_MESH && d->type != SINEW_DISPLAY_SHAPE) || d->mesh >= arm->mesh_count)
                    continue; /* a 6.0 shape's control points are a mesh geometry, deformed as meshes are */
                const sinew_model_mesh *mesh = &arm->meshes[d->mesh];
                if (2 * mesh->vertex_count > cap)
                    cap = 2 * mesh->vertex_count;
                if (mesh->triangle_count > tris)
                    tris = mesh->triangle_count;
            }
        }
        sd[2 * s] = (uint32_t)total;
        sd[2 * s + 1] = cap;
        total += cap;
        uint64_t v = cap / 2 > 4 ? cap / 2 : 4, ix = 3 * (uint64_t)tris;
        vertices += v > shape_v ? v : shape_v;
        indices += ix > shape_i ? ix : shape_i;
        cmds += slot_cmds;
    }
    if (total > UINT32_MAX || vertices > UINT32_MAX || indices > UINT32_MAX || cmds > UINT32_MAX)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "armature '%s': too many mesh vertices", arm->name);
    arm->run_slot_deform = sd;
    arm->run_deform_floats = (uint32_t)total;
    arm->run_dl_vertices = (uint32_t)vertices;
    arm->run_dl_indices = (uint32_t)indices;
    arm->run_dl_cmds = (uint32_t)cmds;
    return SINEW_OK;
}

/* Per bone, slot and IK constraint: which kinds of timeline the animation has for it. */
static sinew_status prepare_covered(sinew_arena *arena, const sinew_model_armature *d, sinew_model_animation *anim,
                                    sinew_error *err) {
    uint32_t nb = d->bone_count, ns = d->slot_count, nk = d->ik_count;
    uint8_t *cov = sinew__arena_array(arena, (size_t)nb + ns + nk + 1, 1);
    if (!cov)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    memset(cov, 0, (size_t)nb + ns + nk + 1);
    uint32_t t0 = anim->first_timeline, tn = anim->timeline_count;
    for (uint32_t t = t0; t < t0 + tn; ++t) {
        const sinew_model_timeline *T = &d->timelines[t];
        if (T->key_count == 0)
            continue;
        if (T->type <= SINEW_TL_BONE_SCALE && T->target < nb)
            cov[T->target] |= COV_BONE;
        else if (T->type == SINEW_TL_SLOT_DISPLAY && T->target < ns)
            cov[nb + T->target] |= COV_DISPLAY;
        else if (T->type == SINEW_TL_SLOT_COLOR && T->target < ns)
            cov[nb + T->target] |= COV_COLOR;
        else if (T->type == SINEW_TL_IK && T->target < nk)
            cov[nb + ns + T->target] |= COV_IK;
        else if (T->type == SINEW_TL_SURFACE && T->target < nb)
            cov[T->target] |= COV_SURFACE;
    }
    anim->run_covered = cov;
    return SINEW_OK;
}

sinew_status sinew__model_prepare(struct sinew_data *data, sinew_error *err) {
    if (!data)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no data");
    sinew_arena *arena = &data->arena;
    if (data->v6)
        sinew__deform6_first_geometry(data);
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        sinew_model_armature *arm = &data->armatures[a];
        sinew_status st = arm->v6 ? sinew__prepare_v6(arena, arm, err) : prepare_bone_order(arena, arm, err);
        if (st != SINEW_OK)
            return st;
        st = prepare_mesh_bones(arena, arm, err);
        if (st != SINEW_OK)
            return st;
        st = prepare_ik_roots(arena, arm, err);
        if (st != SINEW_OK)
            return st;
        st = prepare_bone_steps(arena, arm, err);
        if (st != SINEW_OK)
            return st;
        st = prepare_slots(arena, arm, err);
        if (st == SINEW_OK && arm->v6)
            st = sinew__prepare_deform6(arena, arm, err);
        if (st != SINEW_OK)
            return st;
        arm->max_anim_timelines = 0;
        for (uint32_t an = 0; an < arm->animation_count; ++an) {
            sinew_model_animation *anim = &arm->animations[an];
            if (!anim->name || !anim->name[0])
                anim->name = "default"; /* the official parser's name for an unnamed animation */
            /* whole frames: at least 1 in the 5.x reference, upstream (a 6.0 file) 0 allowed */
            float d = anim->duration;
            uint32_t fc = d >= 1.0f && isfinite(d) ? (uint32_t)(d > 1e7f ? 1e7f : d) : (arm->v6 ? 0u : 1u);
            anim->frame_count = fc;
            if (anim->timeline_count > arm->max_anim_timelines)
                arm->max_anim_timelines = anim->timeline_count;
            for (uint32_t t = 0; t < anim->timeline_count; ++t) {
                uint32_t ti = anim->first_timeline + t;
                if (ti >= arm->timeline_count)
                    return sinew__fail(err, SINEW_E_LAYOUT, NULL, "timeline index out of range");
                st = prepare_timeline(arena, arm, anim, &arm->timelines[ti], err);
                if (st != SINEW_OK)
                    return st;
            }
            st = prepare_curves(arena, anim, err);
            if (st != SINEW_OK)
                return st;
            if (anim->timeline_count > SINEW_ANIM_TIMELINE_MAX)
                return sinew__fail(err, SINEW_E_LIMIT, NULL, "animation '%s' has %u timelines (sinew plays at most %u)",
                                   anim->name, anim->timeline_count, (unsigned)SINEW_ANIM_TIMELINE_MAX);
            for (uint32_t t = 0; t < anim->timeline_count; ++t) {
                st = prepare_run_keys(arena, arm, anim, &arm->timelines[anim->first_timeline + t], err);
                if (st != SINEW_OK)
                    return st;
            }
            st = prepare_covered(arena, arm, anim, err);
            if (st != SINEW_OK)
                return st;
            st = prepare_actions(arena, arm, anim, err);
            if (st != SINEW_OK)
                return st;
        }
    }
    return SINEW_OK;
}
