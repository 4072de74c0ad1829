/*
 * The DragonBones 5.5 writer's animations (see dragonbones_write.h; docs/convert.md "DragonBones
 * 5.5"). Every timeline of the model is written as it is, in 5.5's layout, so that the official
 * 5.x runtime plays the file as it plays the source:
 *
 * - bones: 5.x translate / rotate / scale channels as they are; a 4.x combined frame list as the
 *   three channels with the same keys, durations and easing (the runtime tweens each with the
 *   key's progress, which is the combined frame's). One difference: a 4.x frame list's loop wrap
 *   turns the raw difference between the last key's angle and the first, a rotate channel's the
 *   short way; a bone whose wrap turns more than half a circle keeps its 4.x `frame` list (which
 *   the 5.x parser reads as the source's);
 * - slots: display and colour channels (`displayFrame` / `colorFrame` with `value`); a 4.x slot
 *   frame list gives both, as the runtime reads it;
 * - ffd, surface, IK and zOrder timelines with their keys; timeline `scale` and `offset`;
 * - every action of the animation (frame events, sounds, plays, with their bone, slot and user
 *   data) in the animation's `frame` list, in the order and at the frames where the official
 *   parser's merge puts them (the model's run_action_frames), since 5.5 bone channels hold none.
 *
 * Keys keep their written `duration` (the official parser lays keys on the frame grid from those),
 * their tween (a quad key's tweenEasing as the source wrote it, else one the official parser rounds
 * to the key's strength; a curve's control points, or, for a
 * DBBin source whose curves are samples, a curve whose official sampling gives those samples) and
 * their values written so that they read back to the model's (dragonbones_write.c "Numbers").
 * Rotations read by the official parser from raw degrees (JSON sources) are written as those
 * degrees with the source's `clockwise` / `tweenRotate`; unwrapped angles (XML rigs, DBBin, baked
 * keys) as the angle itself, with `clockwise` where the turn from the previous key is half a
 * circle or more (the parser then adds no turn of its own).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "format/dragonbones_write_internal.h"

/* ---- tweens -------------------------------------------------------------------------------------- */

void sinew__dbw55_tween_of(const sinew_model_animation *an, const sinew_model_keyframe *k, dbw55_tween *t) {
    memset(t, 0, sizeof *t);
    t->type = k->tween;
    if (k->tween == SINEW_TWEEN_CURVE) {
        t->curve = an->curves + k->curve_first;
        t->curve_count = k->curve_count;
        t->sampled = k->curve_sampled != 0;
        return;
    }
    if (k->tween < SINEW_TWEEN_QUAD_IN)
        return;
    /* the tweenEasing the source most likely wrote, which the official parser reads as the source's */
    double te = k->tween_easing;
    if (isfinite(te)) {
        double c = te;
        t->easing = sinew__dbw_shortest(te, sinew__dbw_same_float, &c);
        t->has_easing = true;
    }
    if (k->tween == SINEW_TWEEN_QUAD_IN && t->has_easing && t->easing == -2.0) /* the parser's "no tween" */
        t->type = SINEW_TWEEN_NONE;
    double s = round((double)k->strength * 100.0);
    t->strength = s > 1e6 ? 1000000 : s < -1e6 ? -1000000 : (int32_t)s;
}

/* A key's tween as 5.5 keys: none (nothing), linear (tweenEasing 0), quad (the source's
 * tweenEasing, or one the official parser rounds to the strength; a strength of 0 plays as
 * linear), curve. */
void sinew__dbw55_tween_json(wctx *w, cJSON *f, const dbw55_tween *t) {
    int32_t s = t->strength;
    bool quad = t->type >= SINEW_TWEEN_QUAD_IN && t->type <= SINEW_TWEEN_QUAD_IN_OUT;
    if (quad && t->has_easing) {
        dbw_num(w, f, "tweenEasing", t->easing);
        return;
    }
    switch (t->type) {
    case SINEW_TWEEN_LINEAR: dbw_num(w, f, "tweenEasing", 0); break;
    case SINEW_TWEEN_QUAD_IN: /* -2 itself is the parser's "no tween" */
        dbw_num(w, f, "tweenEasing", s == 0 ? 0 : s == 200 ? -2.0025 : -s / 100.0);
        break;
    case SINEW_TWEEN_QUAD_OUT:
        dbw_num(w, f, "tweenEasing", s / 100.0);
        break;
    case SINEW_TWEEN_QUAD_IN_OUT:
        dbw_num(w, f, "tweenEasing", s == 0 ? 0 : 1 + s / 100.0);
        break;
    case SINEW_TWEEN_CURVE: {
        cJSON *a = dbw_arr(w, f, "curve");
        if (t->sampled) {
            sinew__dbw_sampled_curve_json(w, a, t->curve, t->curve_count);
            break;
        }
        for (uint32_t i = 0; i < t->curve_count; i++)
            dbw_push_num(w, a, dbw_fnum(w, t->curve[i]));
        break;
    }
    default: break;
    }
}

/* ---- keys ------------------------------------------------------------------------------------- */

static bool loops(const sinew_model_animation *an) {
    return an->play_times != 1;
}

/* A new frame of a model timeline's key k: its written duration and tween. */
static cJSON *model_frame(wctx *w, cJSON *frames, const sinew_model_animation *an, const sinew_model_timeline *tl,
                          uint32_t k, bool tween) {
    const sinew_model_keyframe *key = &an->keys[tl->first_key + k];
    cJSON *f = dbw_obj(w, frames, NULL);
    dbw_num(w, f, "duration", dbw_fnum(w, key->duration));
    if (tween) {
        dbw55_tween t;
        sinew__dbw55_tween_of(an, key, &t);
        sinew__dbw55_tween_json(w, f, &t);
    }
    return f;
}

/* A timeline's own clock (scale unless 1, offset unless 0). */
static void clock_json(wctx *w, cJSON *o, float scale, float offset) {
    if (scale != 1)
        dbw_num(w, o, "scale", dbw_fnum(w, scale));
    if (offset != 0)
        dbw_num(w, o, "offset", dbw_fnum(w, offset));
}

static bool same_float_radians(double c, const double *ctx) {
    return (float)(c * DBW_DEG2RAD) == (float)ctx[0];
}

/* Degrees for an angle played as the float `rad` (a skew, an unwrapped angle). */
static double float_degrees(double rad) {
    return sinew__dbw_shortest(dbw_rad2deg(rad), same_float_radians, &rad);
}

void sinew__dbw55_channel_json(wctx *w, cJSON *entry, dbw55_channel kind, const dbw55_key *keys, uint32_t n) {
    static const char *const names[3] = {"translateFrame", "rotateFrame", "scaleFrame"};
    cJSON *frames = dbw_arr(w, entry, names[kind]);
    for (uint32_t k = 0; k < n && frames; k++) {
        const dbw55_key *key = &keys[k];
        cJSON *f = dbw_obj(w, frames, NULL);
        dbw_num(w, f, "duration", dbw_fnum(w, (float)key->duration));
        sinew__dbw55_tween_json(w, f, &key->tween);
        if (kind != DBW55_ROTATE) {
            double dflt = kind == DBW55_SCALE ? 1 : 0;
            if (key->v[0] != dflt)
                dbw_num(w, f, "x", dbw_fnum(w, (float)key->v[0]));
            if (key->v[1] != dflt)
                dbw_num(w, f, "y", dbw_fnum(w, (float)key->v[1]));
            continue;
        }
        /* `clockwise` on a key turns the way to the next one (the parser applies it there) */
        int32_t cw = key->clockwise;
        if (!key->exact) { /* the turn to the next key, whole: none of the parser's own */
            double d = k + 1 < n ? keys[k + 1].v[0] - key->v[0] : 0;
            cw = fabs(d) < DBW_PI - 1e-6 ? 0 : d > 0 ? 1 : -1;
        }
        double deg = key->exact ? key->degrees : float_degrees(key->v[0]);
        if (deg != 0)
            dbw_num(w, f, "rotate", deg);
        if (key->v[1] != 0)
            dbw_num(w, f, "skew", float_degrees(key->v[1]));
        if (cw != 0)
            dbw_num(w, f, "clockwise", cw);
    }
}

/* ---- bones ---------------------------------------------------------------------------------------- */

/* Whether a rotation channel's source plays its angles from raw degrees the 5.x parser unwraps (a
 * JSON file): then the degrees and turns are written back as they are. */
static bool exact_rotation(const sinew_model_timeline *tl) {
    return tl->rotation_exact && !tl->rotation_plain && !tl->rotation_unwrapped;
}

/* Channel `src` (value index: 0 translate, 2 rotate, 4 scale of a 4.x frame list; 0 of a 5.x
 * channel) of timeline tl as 5.5 keys, into keys[0 .. key_count). */
static void channel_keys(const sinew_model_animation *an, const sinew_model_timeline *tl, uint32_t src, bool rotate,
                         dbw55_key *keys) {
    const float *played = tl->run_values ? tl->run_values : tl->values;
    bool exact = rotate && exact_rotation(tl);
    for (uint32_t k = 0; k < tl->key_count; k++) {
        const sinew_model_keyframe *key = &an->keys[tl->first_key + k];
        dbw55_key *o = &keys[k];
        memset(o, 0, sizeof *o);
        o->duration = key->duration;
        sinew__dbw55_tween_of(an, key, &o->tween);
        const float *v = tl->values + (size_t)key->value + src;
        o->v[0] = v[0];
        o->v[1] = v[1];
        if (!rotate)
            continue;
        o->exact = exact;
        if (exact) {
            o->degrees = sinew__dbw_degrees(tl->rotation_exact[k], false);
            o->clockwise = key->tween_rotate;
        } else if (!tl->rotation_plain) { /* the angle the runtime unwrapped (DBBin: as stored) */
            o->v[0] = played[(size_t)key->value + src];
        }
    }
}

/* Whether a looping 4.x frame list's wrap from its last key to its first turns otherwise than a
 * rotate channel's would: a frame list turns the raw difference, a rotate channel the short way. */
static bool wrap_differs(const sinew_model_animation *an, const sinew_model_timeline *tl, uint32_t src,
                         bool normalized) {
    uint32_t n = tl->key_count;
    if (normalized || n < 2 || !loops(an) || tl->grid_key_count != n)
        return false;
    const sinew_model_keyframe *last = &an->keys[tl->first_key + n - 1];
    if (last->tween == SINEW_TWEEN_NONE)
        return false;
    const float *played = tl->run_values ? tl->run_values : tl->values;
    double d = (double)played[src] - (double)played[(size_t)last->value + src];
    return fabs(sinew__db_normalize_radian(d) - d) > 1e-9;
}

/* A 4.x frame list written as it is (a bone whose loop wrap a rotate channel cannot turn):
 * `transform` with the degrees the parser normalises back to the model's angle, `tweenRotate`. */
static void bone_all_frames(wctx *w, cJSON *entry, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *frames = dbw_arr(w, entry, "frame");
    double prev_u = 0;
    bool exact = exact_rotation(tl);
    const float *played = tl->run_values ? tl->run_values : tl->values;
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        const sinew_model_keyframe *key = &an->keys[tl->first_key + k];
        const float *v = tl->values + key->value;
        cJSON *f = model_frame(w, frames, an, tl, k, true);
        double sky;
        if (exact) {
            sky = sinew__dbw_degrees(tl->rotation_exact[k], true);
            if (key->tween_rotate)
                dbw_num(w, f, "tweenRotate", key->tween_rotate);
        } else {
            double u = played[key->value + 2];
            sky = dbw_sig(dbw_rad2deg(sinew__db_normalize_radian(u)), 15);
            if (k == 0)
                prev_u = sinew__db_unwrap_first(sky);
            else if (k > 0) {
                int32_t tr = sinew__db_tween_rotate_for(&prev_u, sky, u - played[an->keys[tl->first_key + k - 1].value + 2]);
                cJSON *pf = cJSON_GetArrayItem(frames, (int)k - 1);
                if (tr != 0 && pf)
                    dbw_num(w, pf, "tweenRotate", tr);
            }
        }
        cJSON *t = dbw_obj(w, f, "transform");
        if (v[0] != 0)
            dbw_num(w, t, "x", dbw_fnum(w, v[0]));
        if (v[1] != 0)
            dbw_num(w, t, "y", dbw_fnum(w, v[1]));
        if (sky != 0 || v[3] != 0) {
            double ctx[3] = {v[3], sinew__db_normalize_radian(sky * DBW_DEG2RAD), 1};
            double skx = dbw_rad2deg(ctx[1] + v[3]);
            dbw_num(w, t, "skX", sinew__dbw_shortest(skx, sinew__dbw_same_skew, ctx));
            dbw_num(w, t, "skY", sky);
        }
        if (v[4] != 1)
            dbw_num(w, t, "scX", dbw_fnum(w, v[4]));
        if (v[5] != 1)
            dbw_num(w, t, "scY", dbw_fnum(w, v[5]));
    }
}

/* One model channel (or a 4.x frame list's three) into bone timeline object `entry`. `end_key`: a
 * rotate channel whose plain angles (XML rigs) wrap more than half a circle in an endless loop gets
 * a key at the animation's end holding the first key's angle as that plain number, so that its last
 * key turns there the way the source does (the parser's own wrap, the short way, then never plays:
 * the loop restarts first). */
static void bone_channels_json(wctx *w, cJSON *entry, const sinew_model_animation *an, const sinew_model_timeline *tl,
                               bool end_key) {
    static const dbw55_channel kinds[3] = {DBW55_TRANSLATE, DBW55_ROTATE, DBW55_SCALE};
    uint32_t n = tl->key_count;
    size_t size = sizeof(dbw55_key) * ((size_t)n + 1);
    dbw55_key *keys = sinew__alloc(w->a, size);
    if (!keys) {
        w->nomem = true;
        return;
    }
    for (int c = 0; c < 3; c++) {
        if (tl->type != SINEW_TL_BONE_ALL && tl->type != SINEW_TL_BONE_TRANSLATE + (sinew_timeline_type)c)
            continue;
        channel_keys(an, tl, tl->type == SINEW_TL_BONE_ALL ? 2u * (uint32_t)c : 0u, c == 1, keys);
        uint32_t m = n;
        if (end_key && c == 1 && n > 0) {
            keys[n] = keys[0];
            keys[n].duration = 0;
            keys[n].tween.type = SINEW_TWEEN_NONE;
            keys[n - 1].duration = (double)an->duration - (double)an->keys[tl->first_key + n - 1].position;
            m = n + 1;
        }
        sinew__dbw55_channel_json(w, entry, kinds[c], keys, m);
    }
    sinew__free(w->a, keys, size);
}

/* The channels a timeline fills in a bone timeline object (bits 1 translate, 2 rotate, 4 scale,
 * 8 a 4.x frame list kept as it is). */
static unsigned bone_fills(const sinew_model_timeline *tl, bool keep_frames) {
    switch (tl->type) {
    case SINEW_TL_BONE_ALL: return keep_frames ? 8u : 7u;
    case SINEW_TL_BONE_TRANSLATE: return 1u;
    case SINEW_TL_BONE_ROTATE: return 2u;
    case SINEW_TL_BONE_SCALE: return 4u;
    default: return 0u;
    }
}

/* Every timeline of bone b: one bone timeline object while the channels fit one (a channel once,
 * one clock), more objects of the same name otherwise, which the parser adds in turn. */
static void bone_timelines55(wctx *w, cJSON *out, const sinew_model_animation *an, uint32_t b) {
    const sinew_model_armature *arm = w->arm;
    cJSON *entry = NULL;
    unsigned filled = 0;
    float scale = 1, offset = 0;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        bool rotate_normalizes = tl->type == SINEW_TL_BONE_ROTATE && !tl->rotation_plain;
        if (tl->target != b || tl->key_count == 0 || !bone_fills(tl, false))
            continue;
        bool keep_frames = tl->type == SINEW_TL_BONE_ALL && wrap_differs(an, tl, 2, false);
        bool end_key = tl->type == SINEW_TL_BONE_ROTATE && wrap_differs(an, tl, 0, rotate_normalizes);
        if (end_key && an->play_times != 0) {
            end_key = false;
            dbw_warn(w, "bone '%s': the wrap from the last rotation key to the first turns more than half a circle "
                        "and the animation plays %d times; a 5.5 rotate channel turns the short way there "
                        "(approximation)", arm->bones[b].name, an->play_times);
        }
        unsigned fills = bone_fills(tl, keep_frames);
        if (!entry || (filled & fills) || ((filled & 8u) && fills) || ((fills & 8u) && filled) || tl->scale != scale ||
            tl->offset != offset) {
            entry = dbw_obj(w, out, NULL);
            dbw_str(w, entry, "name", arm->bones[b].name);
            clock_json(w, entry, tl->scale, tl->offset);
            if (tl->pivot_x != 0)
                dbw_num(w, entry, "pX", dbw_fnum(w, tl->pivot_x));
            if (tl->pivot_y != 0)
                dbw_num(w, entry, "pY", dbw_fnum(w, tl->pivot_y));
            filled = 0;
            scale = tl->scale;
            offset = tl->offset;
        }
        filled |= fills;
        if (keep_frames)
            bone_all_frames(w, entry, an, tl);
        else
            bone_channels_json(w, entry, an, tl, end_key);
    }
}

/* ---- slots ---------------------------------------------------------------------------------------- */

static void display_frames(wctx *w, cJSON *entry, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *frames = dbw_arr(w, entry, "displayFrame");
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        cJSON *f = model_frame(w, frames, an, tl, k, false);
        int32_t v = (int32_t)tl->values[an->keys[tl->first_key + k].value];
        if (v != 0)
            dbw_num(w, f, "value", v);
    }
}

static void color_frames(wctx *w, cJSON *entry, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *frames = dbw_arr(w, entry, "colorFrame");
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        cJSON *f = model_frame(w, frames, an, tl, k, true);
        const float *v = tl->values + an->keys[tl->first_key + k].value;
        sinew_color_transform c = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
        if (!dbw_color_identity(&c))
            dbw_color_json(w, f, "value", &c);
    }
}

static void slot_timelines55(wctx *w, cJSON *out, const sinew_model_animation *an, uint32_t s) {
    const sinew_model_armature *arm = w->arm;
    cJSON *entry = NULL;
    unsigned filled = 0;
    float scale = 1, offset = 0;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        unsigned fills = tl->type == SINEW_TL_SLOT_DISPLAY ? 1u : tl->type == SINEW_TL_SLOT_COLOR ? 2u : 0u;
        if (tl->target != s || tl->key_count == 0 || !fills)
            continue;
        if (!entry || (filled & fills) || tl->scale != scale || tl->offset != offset) {
            entry = dbw_obj(w, out, NULL);
            dbw_str(w, entry, "name", arm->slots[s].name);
            clock_json(w, entry, tl->scale, tl->offset);
            filled = 0;
            scale = tl->scale;
            offset = tl->offset;
        }
        filled |= fills;
        if (fills == 1u)
            display_frames(w, entry, an, tl);
        else
            color_frames(w, entry, an, tl);
    }
}

/* ---- deforms, surfaces, IK, draw order ------------------------------------------------------------ */

/* The frames of an ffd or surface timeline: each key's values as `offset` + `vertices` (the run
 * between the first and the last non-zero value; a surface frame always has `vertices`, the
 * official parser needs them). An ffd of a mesh whose bind pose was rebuilt gets slot-space deltas. */
static void vertex_frames55(wctx *w, cJSON *o, const sinew_model_animation *an, const sinew_model_timeline *tl,
                            bool surface) {
    cJSON *frames = dbw_arr(w, o, "frame");
    size_t n = tl->values_per_key, size = sizeof(double) * (n ? n : 1);
    double *d = sinew__alloc(w->a, size);
    if (!d) {
        w->nomem = true;
        return;
    }
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        cJSON *f = model_frame(w, frames, an, tl, k, true);
        const float *v = tl->values + an->keys[tl->first_key + k].value;
        for (size_t i = 0; i + 1 < n; i += 2) {
            if (surface)
                d[i] = dbw_fnum(w, v[i]), d[i + 1] = dbw_fnum(w, v[i + 1]);
            else
                sinew__dbw_rebind_delta(w, tl->mesh, (uint32_t)(i / 2), v + i, d + i);
            if (!surface && d[i] == v[i] && d[i + 1] == v[i + 1])
                d[i] = dbw_fnum(w, v[i]), d[i + 1] = dbw_fnum(w, v[i + 1]);
        }
        if (n % 2)
            d[n - 1] = dbw_fnum(w, v[n - 1]);
        size_t lo = 0, hi = n;
        while (lo < n && d[lo] == 0)
            lo++;
        while (hi > lo && d[hi - 1] == 0)
            hi--;
        if (lo < hi) {
            dbw_num(w, f, "offset", (double)lo);
            cJSON *a = dbw_arr(w, f, "vertices");
            for (size_t i = lo; i < hi; i++)
                dbw_push_num(w, a, d[i]);
        } else if (surface) {
            dbw_arr(w, f, "vertices");
        }
    }
    sinew__free(w->a, d, size);
}

/* A timeline object named `name` with the timeline's clock. */
static cJSON *timeline_object(wctx *w, cJSON *out, const char *name, const sinew_model_timeline *tl) {
    cJSON *o = dbw_obj(w, out, NULL);
    dbw_str(w, o, "name", name);
    clock_json(w, o, tl->scale, tl->offset);
    return o;
}

static void ffd_timeline55(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *o = sinew__dbw_ffd_object(w, out, tl, false);
    if (!o)
        return;
    clock_json(w, o, tl->scale, tl->offset);
    vertex_frames55(w, o, an, tl, false);
}

static void surface_timeline55(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    if (tl->target < w->arm->bone_count)
        vertex_frames55(w, timeline_object(w, out, w->arm->bones[tl->target].name, tl), an, tl, true);
}

static void ik_timeline55(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    if (tl->target >= w->arm->ik_count)
        return;
    cJSON *frames = dbw_arr(w, timeline_object(w, out, w->arm->iks[tl->target].name, tl), "frame");
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        cJSON *f = model_frame(w, frames, an, tl, k, true);
        const float *v = tl->values + an->keys[tl->first_key + k].value;
        if (v[0] != 1)
            dbw_num(w, f, "weight", dbw_fnum(w, v[0]));
        if (!(v[1] != 0))
            cJSON_AddFalseToObject(f, "bendPositive");
    }
}

/* A draw order as the [slot, offset] pairs from which the official parser rebuilds exactly that
 * order: every slot at its place, and a slot the order leaves out moved off the list (the parser
 * fills the places no pair takes with slot 0, as the order it came from did). */
static void zorder_pairs(wctx *w, cJSON *f, const float *order, uint32_t n) {
    size_t size = sizeof(int64_t) * (n ? n : 1);
    int64_t *place = sinew__alloc(w->a, size);
    if (!place) {
        w->nomem = true;
        return;
    }
    for (uint32_t s = 0; s < n; s++)
        place[s] = -1;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t s = (uint32_t)order[p];
        if (s < n && place[s] < 0)
            place[s] = p;
    }
    cJSON *a = dbw_arr(w, f, "zOrder");
    for (uint32_t s = 0; s < n; s++) {
        dbw_push_num(w, a, s);
        dbw_push_num(w, a, place[s] >= 0 ? (double)(place[s] - (int64_t)s) : -(double)s - 1);
    }
    sinew__free(w->a, place, size);
}

static void zorder_timeline55(wctx *w, cJSON *a, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *o = dbw_obj(w, a, "zOrder");
    cJSON *frames = dbw_arr(w, o, "frame");
    for (uint32_t k = 0; k < tl->key_count && frames; k++) {
        cJSON *f = model_frame(w, frames, an, tl, k, false);
        const float *v = tl->values + an->keys[tl->first_key + k].value;
        bool identity = true;
        for (uint32_t i = 0; i < tl->values_per_key; i++)
            identity = identity && (uint32_t)v[i] == i;
        if (!identity)
            zorder_pairs(w, f, v, tl->values_per_key);
    }
}

/* ---- actions ---------------------------------------------------------------------------------------- */

/* Every action in the animation's `frame` list, at the frames and in the order the official
 * parser's merge gives them (a 5.5 bone channel holds none; a display frame could, but one list
 * keeps the merge's order whatever the source mixed). An action of a 4.x bone frame is tagged, as
 * the parser tags it, with its bone and the slot of the bone's name. */
static void action_frames55(wctx *w, cJSON *a, const sinew_model_animation *an) {
    const sinew_model_armature *arm = w->arm;
    if (!an->run_action_frame_count)
        return;
    cJSON *frames = dbw_arr(w, a, "frame");
    double at = 0;
    for (uint32_t i = 0; i < an->run_action_frame_count && frames; i++) {
        const sinew_model_action_frame *af = &an->run_action_frames[i];
        double pos = af->position;
        if (pos > at) { /* frames are laid from 0 */
            cJSON *e = dbw_obj(w, frames, NULL);
            dbw_num(w, e, "duration", pos - at);
        }
        double next = i + 1 < an->run_action_frame_count ? an->run_action_frames[i + 1].position : an->duration;
        cJSON *f = dbw_obj(w, frames, NULL);
        dbw_num(w, f, "duration", dbw_fnum(w, (float)(next > pos ? next - pos : 0)));
        at = next > pos ? next : pos;
        if (af->action_count == 0 && i == 0)
            continue;
        cJSON *list = dbw_arr(w, f, "events");
        for (uint32_t q = 0; q < af->action_count; q++) {
            uint32_t ai = an->run_action_index[af->first_action + q];
            if (ai >= arm->action_count)
                continue;
            sinew_model_action ac = arm->actions[ai];
            if (ac.from_bone_frame && ac.bone < arm->bone_count && ac.slot == SINEW_INVALID_INDEX)
                for (uint32_t s = 0; s < arm->slot_count; s++)
                    if (strcmp(arm->slots[s].name, arm->bones[ac.bone].name) == 0) {
                        ac.slot = s;
                        break;
                    }
            sinew__dbw_action_json(w, list, &ac, true);
        }
    }
}

/* ---- the animation ---------------------------------------------------------------------------------- */

void sinew__dbw55_animation(wctx *w, cJSON *out, const sinew_model_animation *an) {
    const sinew_model_armature *arm = w->arm;
    w->anim = an;
    cJSON *a = dbw_obj(w, out, NULL);
    dbw_str(w, a, "name", an->name);
    dbw_num(w, a, "duration", dbw_fnum(w, an->duration));
    dbw_num(w, a, "playTimes", an->play_times);
    if (an->fade_in_time >= 0)
        dbw_num(w, a, "fadeInTime", an->fade_in_time);
    if (an->scale != 1)
        dbw_num(w, a, "scale", an->scale);
    if (an->auto_tween >= 0)
        dbw_num(w, a, "autoTween", an->auto_tween);
    dbw_user_data(w, a, an->user_data);
    action_frames55(w, a, an);
    cJSON *bones = dbw_arr(w, a, "bone"), *slots = dbw_arr(w, a, "slot");
    for (uint32_t b = 0; b < arm->bone_count; b++)
        bone_timelines55(w, bones, an, b);
    for (uint32_t s = 0; s < arm->slot_count; s++)
        slot_timelines55(w, slots, an, s);
    cJSON *ffd = NULL, *ik = NULL, *surface = NULL;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        if (tl->key_count == 0)
            continue;
        switch (tl->type) {
        case SINEW_TL_FFD:
            ffd_timeline55(w, ffd ? ffd : (ffd = dbw_arr(w, a, "ffd")), an, tl);
            break;
        case SINEW_TL_IK:
            ik_timeline55(w, ik ? ik : (ik = dbw_arr(w, a, "ik")), an, tl);
            break;
        case SINEW_TL_ZORDER:
            zorder_timeline55(w, a, an, tl);
            break;
        case SINEW_TL_SURFACE:
            surface_timeline55(w, surface ? surface : (surface = dbw_arr(w, a, "surface")), an, tl);
            break;
        case SINEW_TL_BONE_ALL:
        case SINEW_TL_BONE_TRANSLATE:
        case SINEW_TL_BONE_ROTATE:
        case SINEW_TL_BONE_SCALE:
        case SINEW_TL_SLOT_DISPLAY:
        case SINEW_TL_SLOT_COLOR:
            break;
        default: /* 6.0 timelines: a 6.0 file is refused before it gets here */
            dbw_warn(w, "a DragonBones 6.0 timeline (type %d) not written", (int)tl->type);
            break;
        }
    }
    w->anim = NULL;
}
