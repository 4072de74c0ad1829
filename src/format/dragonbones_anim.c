/* DragonBones JSON: animations (timelines, keys, curves, action frames), 4.x and 5.x.
 * Part of the DragonBones JSON loader (format/dragonbones_json_internal.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/num.h"
#include "format/dragonbones_json_internal.h"

/* ---- animations ------------------------------------------------------------------------------ */

enum {
    F_DURATION, F_TWEEN, F_CURVE, F_TWEENROTATE, F_CLOCKWISE, F_TRANSFORM, F_X, F_Y, F_ROTATE, F_SKEW,
    F_VALUE, F_DISPLAYINDEX, F_COLOR, F_OFFSET, F_VERTICES, F_WEIGHT, F_BENDPOSITIVE, F_ZORDER, F_Z,
    F_HIDE, F_VISIBLE, F_EVENT, F_SOUND, F_ACTION, F_ACTIONS, F_EVENTS, F_COUNT
};
static const char *const frame_keys[F_COUNT] = {
    "duration", "tweenEasing", "curve", "tweenRotate", "clockwise", "transform", "x", "y", "rotate", "skew",
    "value", "displayIndex", "color", "offset", "vertices", "weight", "bendPositive", "zOrder", "z",
    "hide", "visible", "event", "sound", "action", "actions", "events"};
static const sinew_jkeys frame_table = SINEW_JKEYS(frame_keys, "frame");

#define FB(x) (1u << (x))
#define F_COMMON (FB(F_DURATION) | FB(F_TWEEN) | FB(F_CURVE))
#define F_ACTS (FB(F_EVENT) | FB(F_SOUND) | FB(F_ACTION) | FB(F_ACTIONS) | FB(F_EVENTS))

typedef enum frame_kind {
    FK_ANIM, FK_BONE_ALL, FK_TRANSLATE, FK_ROTATE, FK_SCALE, FK_SLOT_DISPLAY, FK_SLOT_COLOR, FK_DISPLAY,
    FK_COLOR, FK_FFD, FK_IK, FK_ZORDER, FK_SURFACE, FK_PATH_VALUE, FK_PATH_WEIGHT,
    FK_GEN_X_Y, FK_GEN_VALUE, FK_GEN_DEFORM /* 6.0: the generic `timeline` entries' frames */
} frame_kind;

static const uint32_t frame_allowed[] = {
    [FK_ANIM] = F_COMMON | F_ACTS,
    [FK_BONE_ALL] = F_COMMON | FB(F_TWEENROTATE) | FB(F_TRANSFORM) | F_ACTS | FB(F_DISPLAYINDEX) | FB(F_Z),
    [FK_TRANSLATE] = F_COMMON | FB(F_X) | FB(F_Y),
    [FK_ROTATE] = F_COMMON | FB(F_ROTATE) | FB(F_SKEW) | FB(F_CLOCKWISE) | FB(F_TWEENROTATE),
    [FK_SCALE] = F_COMMON | FB(F_X) | FB(F_Y),
    [FK_SLOT_DISPLAY] = F_COMMON | FB(F_DISPLAYINDEX) | FB(F_COLOR) | FB(F_ZORDER) | FB(F_Z) | FB(F_HIDE) |
                        FB(F_VISIBLE) | F_ACTS,
    [FK_SLOT_COLOR] = F_COMMON | FB(F_DISPLAYINDEX) | FB(F_COLOR) | FB(F_ZORDER) | FB(F_Z) | FB(F_HIDE) |
                      FB(F_VISIBLE) | F_ACTS,
    [FK_DISPLAY] = F_COMMON | FB(F_VALUE) | FB(F_DISPLAYINDEX) | F_ACTS,
    [FK_COLOR] = F_COMMON | FB(F_VALUE) | FB(F_COLOR),
    [FK_FFD] = F_COMMON | FB(F_OFFSET) | FB(F_VERTICES),
    [FK_IK] = F_COMMON | FB(F_WEIGHT) | FB(F_BENDPOSITIVE),
    [FK_ZORDER] = F_COMMON | FB(F_ZORDER),
    [FK_SURFACE] = F_COMMON | FB(F_OFFSET) | FB(F_VERTICES),
    [FK_PATH_VALUE] = F_COMMON | FB(F_VALUE),
    [FK_PATH_WEIGHT] = F_COMMON | FB(F_VALUE),
    [FK_GEN_X_Y] = F_COMMON | FB(F_X) | FB(F_Y),
    [FK_GEN_VALUE] = F_COMMON | FB(F_VALUE),
    [FK_GEN_DEFORM] = F_COMMON | FB(F_OFFSET) | FB(F_VERTICES) | FB(F_VALUE),
};

static sinew_status frame_fields(db *d, const cJSON *v, frame_kind kind, bool quiet, const cJSON **f) {
    sinew_log_fn saved = d->c->log;
    d->c->log = NULL; /* unknown-key warnings are produced below, per kind */
    sinew_status st = sinew__jfields(d->c, v, &frame_table, f);
    d->c->log = saved;
    TRY(st);
    for (uint32_t i = 0; i < F_COUNT; i++)
        if (f[i] && !(frame_allowed[kind] & FB(i)))
            f[i] = NULL;
    if (saved && !quiet) {
        for (const cJSON *m = v->child; m; m = m->next) {
            uint32_t i = 0;
            while (i < F_COUNT && (!m->string || strcmp(m->string, frame_keys[i]) != 0))
                i++;
            if (i == F_COUNT || !(frame_allowed[kind] & FB(i)))
                sinew__jwarn(d->c, m->string ? m->string : "", SINEW_OK, "unknown key '%s' in frame (ignored)",
                             m->string ? m->string : "");
        }
    }
    return SINEW_OK;
}

void sinew__tween_from_easing(double e, sinew_model_keyframe *k) {
    k->tween = SINEW_TWEEN_NONE;
    k->tween_easing = NAN;
    k->strength = 0.0f;
    if (isnan(e))
        return;
    k->tween_easing = (float)e;
    if (e == 0.0) {
        k->tween = SINEW_TWEEN_LINEAR;
    } else if (e < 0.0) {
        k->tween = SINEW_TWEEN_QUAD_IN;
        k->strength = (float)(round(-e * 100.0) / 100.0);
    } else if (e <= 1.0) {
        k->tween = SINEW_TWEEN_QUAD_OUT;
        k->strength = (float)(round(e * 100.0) / 100.0);
    } else {
        k->tween = SINEW_TWEEN_QUAD_IN_OUT;
        k->strength = (float)(round(e * 100.0 - 100.0) / 100.0);
    }
}

static sinew_status parse_tween(db *d, const cJSON *te, const cJSON *curve, sinew_model_keyframe *k) {
    sinew_model_animation *N = d->anim;
    double e;
    TRY(sinew__jnum(d->c, te, "tweenEasing", NAN, &e));
    sinew__tween_from_easing(cJSON_IsNumber(te) ? e : NAN, k);
    const cJSON *cf;
    uint32_t cn;
    TRY(sinew__jarray(d->c, curve, "curve", &cf, &cn));
    if (cn) {
        if (cn < 4u || (cn - 4u) % 6u != 0)
            return sinew__jfail_key(d->c, "curve", SINEW_E_LAYOUT,
                                    "'curve' must have 4 + 6k numbers ([x1, y1, x2, y2, ...]); it has %u", cn);
        if (d->curves_used + cn > N->curve_count)
            return sinew__jfail_key(d->c, "curve", SINEW_E_LAYOUT, "internal: curve pool overflow");
        TRY(sinew__jfloats(d->c, cf, "curve", N->curves + d->curves_used, cn));
        if (N->curves_d)
            TRY(sinew__jdoubles(d->c, cf, "curve", N->curves_d + d->curves_used, cn, DBL_MAX));
        k->tween = SINEW_TWEEN_CURVE;
        k->curve_first = d->curves_used;
        k->curve_count = cn;
        d->curves_used += cn;
    }
    return SINEW_OK;
}

static uint64_t count_curves(const cJSON *frames) {
    uint64_t n = 0;
    for (const cJSON *f = frames->child; f; f = f->next) {
        const cJSON *c = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "curve") : NULL;
        if (cJSON_IsArray(c))
            n += (uint32_t)cJSON_GetArraySize(c);
    }
    return n;
}

typedef struct tl_spec {
    sinew_timeline_type type;
    frame_kind kind;
    uint32_t target, skin, display, mesh;
    uint32_t vpk;
    bool quiet;
} tl_spec;

/* How the official parser stores a generic timeline's numbers (by the timeline's type): their
 * default and scale, and as a float (GEN_FLOAT), a rounded integer (GEN_INT) or 16 bits of the
 * integer part (GEN_INT16). */
enum { GEN_FLOAT = 0, GEN_INT, GEN_INT16 };
typedef struct gen_params {
    double dflt, scale;
    int gen;
} gen_params;

static gen_params generic_params(sinew_timeline_type type) {
    gen_params p = {0.0, 1.0, GEN_FLOAT};
    if (type == SINEW_TL_BONE_ROTATE)
        p.scale = DEG2RAD;
    else if (type == SINEW_TL_BONE_SCALE)
        p.dflt = 1.0;
    else if (type == SINEW_TL_IK)
        p = (gen_params){1.0, 100.0, GEN_INT};
    else if (type == SINEW_TL_SLOT_DISPLAY)
        p.gen = GEN_INT16;
    else if (type == SINEW_TL_SLOT_ZINDEX)
        p.gen = GEN_INT;
    return p;
}

/* zOrder frame -> draw order (slot indices back to front); `out` has slot_count entries. */
static sinew_status zorder_values(db *d, const cJSON *zo, float *out) {
    uint32_t n = d->arm->slot_count;
    const cJSON *first;
    uint32_t zn;
    TRY(sinew__jarray(d->c, zo, "zOrder", &first, &zn));
    for (uint32_t i = 0; i < n; i++)
        out[i] = (float)i;
    if (zn == 0)
        return SINEW_OK;
    if (zn % 2u)
        return sinew__jfail_key(d->c, "zOrder", SINEW_E_LAYOUT, "'zOrder' must hold [slot, offset] pairs (has %u numbers)", zn);
    int64_t *pairs = sinew__dbj_scratch_array(d, zn, sizeof *pairs);
    uint32_t *order = sinew__dbj_scratch_array(d, n ? n : 1u, sizeof *order);
    uint32_t *unchanged = sinew__dbj_scratch_array(d, n ? n : 1u, sizeof *unchanged);
    if (!pairs || !order || !unchanged)
        return SINEW_E_NOMEM;
    uint32_t i = 0;
    sinew__jpush_key(d->c, "zOrder");
    for (const cJSON *e = first; e; e = e->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(sinew__jint(d->c, e, NULL, 0, -2147483648.0, 2147483647.0, &pairs[i]));
        sinew__jpop(d->c);
    }
    for (i = 0; i < n; i++)
        order[i] = SINEW_INVALID_INDEX;
    uint32_t orig = 0, un = 0;
    for (i = 0; i < zn; i += 2u) {
        int64_t s = pairs[i], off = pairs[i + 1u];
        sinew__jpush_index(d->c, i);
        if (s < (int64_t)orig || s >= (int64_t)n)
            return sinew__jfail(d->c, SINEW_E_RANGE,
                                "zOrder slot index %lld is out of order or out of range (%u slots)", (long long)s, n);
        while (orig != (uint32_t)s)
            unchanged[un++] = orig++;
        int64_t pos = (int64_t)orig + off;
        /* Real exports (a 4.0 one among them) move slots past either end, or two slots onto one
         * place. The official parser then drops that move (or lets the later one win) and fills
         * the free places from the back with the unchanged slots, then with slot 0; do the same,
         * with a warning. */
        if (pos < 0 || pos >= (int64_t)n || order[pos] != SINEW_INVALID_INDEX)
            sinew__jwarn(d->c, NULL, SINEW_E_RANGE,
                         "zOrder moves slot %lld to position %lld, which is %s (handled as the official runtime does)",
                         (long long)s, (long long)pos, (pos < 0 || pos >= (int64_t)n) ? "out of range" : "already taken");
        if (pos >= 0 && pos < (int64_t)n)
            order[pos] = orig;
        orig++;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    while (orig < n)
        unchanged[un++] = orig++;
    for (i = n; i-- > 0;)
        out[i] = (float)(order[i] != SINEW_INVALID_INDEX ? order[i] : un > 0 ? unchanged[--un] : 0u);
    return SINEW_OK;
}

/* A frame's `duration` v (1 when absent), from position pos: not negative, and ending within the
 * frames limit (`what` names the frames in that error: "keyframes", "frames"). */
static sinew_status frame_duration(db *d, const cJSON *v, float pos, const char *what, double *dur) {
    TRY(sinew__jnum(d->c, v, "duration", 1.0, dur));
    if (*dur < 0.0)
        return sinew__jfail_key(d->c, "duration", SINEW_E_RANGE, "'duration' must not be negative (%g)", *dur);
    if ((double)pos + *dur > (double)d->c->limits.max_animation_frames)
        return sinew__jfail_key(d->c, "duration", SINEW_E_LIMIT, "%s run past %u frames (limits.max_animation_frames)",
                                what, d->c->limits.max_animation_frames);
    return SINEW_OK;
}

/* JavaScript's conversion of a number to an element of a Uint16Array (the official parser's
 * timeline array): truncated towards zero, modulo 2^16; NaN and infinities are 0. */
static uint16_t js_uint16(double v) {
    if (!isfinite(v))
        return 0;
    double t = fmod(trunc(v), 65536.0);
    return (uint16_t)(t < 0.0 ? t + 65536.0 : t);
}

/* One key's position, duration and tween (display, zOrder: stepped, with the easing kept). */
static sinew_status key_timing(db *d, const tl_spec *sp, const cJSON *const *f, float pos, uint32_t i,
                               sinew_model_keyframe *k, double *dur) {
    TRY(frame_duration(d, f[F_DURATION], pos, "keyframes", dur));
    k->position = pos;
    k->duration = (float)*dur;
    k->value = i * sp->vpk;
    k->hide = -1;
    k->first_action = 0;
    k->action_count = 0;
    if (sp->kind == FK_SLOT_DISPLAY || sp->kind == FK_DISPLAY || sp->kind == FK_ZORDER ||
        (sp->kind == FK_GEN_VALUE && sp->type == SINEW_TL_SLOT_DISPLAY)) {
        k->tween = SINEW_TWEEN_NONE;
        k->tween_easing = NAN;
        double te;
        TRY(sinew__jnum(d->c, f[F_TWEEN], "tweenEasing", NAN, &te));
        if (cJSON_IsNumber(f[F_TWEEN]))
            k->tween_easing = (float)te;
        return SINEW_OK;
    }
    return parse_tween(d, f[F_TWEEN], f[F_CURVE], k);
}

/* A 4.x bone frame: the whole transform, tweenRotate, and the frame's actions (bone frames). */
static sinew_status bone_all_values(db *d, const tl_spec *sp, const cJSON *const *f, float pos, uint32_t tl, uint32_t i,
                                    sinew_model_keyframe *k, float *val, double *rot_exact) {
    sinew_transform t;
    double exact[6];
    TRY(sinew__dbj_parse_transform_d(d, f[F_TRANSFORM], &t, false, exact));
    rot_exact[i] = exact[2];
    val[0] = t.x;
    val[1] = t.y;
    val[2] = t.rotation;
    val[3] = t.skew;
    val[4] = t.scale_x;
    val[5] = t.scale_y;
    int64_t tr;
    TRY(sinew__jint(d->c, f[F_TWEENROTATE], "tweenRotate", 0, -1e6, 1e6, &tr));
    k->tween_rotate = (int32_t)tr;
    uint32_t first_pending = d->pending_count;
    TRY(sinew__dbj_frame_actions(d, pos, f[F_EVENT], f[F_SOUND], f[F_ACTION], f[F_EVENTS], f[F_ACTIONS], sp->target,
                                 SINEW_INVALID_INDEX, NULL, tl, i));
    for (uint32_t q = first_pending; q < d->pending_count; q++)
        d->pending[q].action.from_bone_frame = 1;
    return SINEW_OK;
}

/* A 5.x rotateFrame: rotation and skew in degrees, turns in `clockwise`. */
static sinew_status rotate_values(db *d, const cJSON *const *f, uint32_t i, sinew_model_keyframe *k, float *val,
                                  double *rot_exact) {
    double r, s;
    int64_t cw;
    TRY(sinew__jnum(d->c, f[F_ROTATE], "rotate", 0, &r));
    TRY(sinew__jnum(d->c, f[F_SKEW], "skew", 0, &s));
    rot_exact[i] = r * DEG2RAD; /* not normalised: the official rotateFrame parser takes it as is */
    val[0] = (float)rot_exact[i];
    val[1] = (float)(s * DEG2RAD);
    /* a rotateFrame's turns are `clockwise`; the official parser reads no `tweenRotate` here */
    TRY(sinew__jint(d->c, f[F_CLOCKWISE], "clockwise", 0, -1e6, 1e6, &cw));
    k->tween_rotate = (int32_t)cw;
    return SINEW_OK;
}

/* A display key (5.x displayFrame or 4.x slot frame with its hide and z): the display index,
 * and the frame's actions (slot frames). */
static sinew_status display_values(db *d, const tl_spec *sp, const cJSON *const *f, float pos, uint32_t tl, uint32_t i,
                                   sinew_model_keyframe *k, float *val) {
    sinew_model_armature *A = d->arm;
    int64_t di;
    const cJSON *dv = f[F_VALUE] ? f[F_VALUE] : f[F_DISPLAYINDEX];
    const char *dk = f[F_VALUE] ? "value" : "displayIndex";
    TRY(sinew__jint(d->c, dv, dk, 0, -1, 2147483647.0, &di));
    /* a 6.0 file's index past the list shows the last display (upstream clamps it) */
    if (!A->v6 && !sinew__dbj_display_index_ok(d, sp->target, (double)di))
        return sinew__jfail_key(d->c, dk, SINEW_E_RANGE, "display index %lld is out of range for slot '%s' (%u displays)",
                                (long long)di, A->slots[sp->target].name, d->slot_display_max[sp->target]);
    val[0] = (float)di;
    if (sp->kind == FK_SLOT_DISPLAY) {
        bool hide;
        if (f[F_HIDE]) {
            TRY(sinew__jbool(d->c, f[F_HIDE], "hide", false, &hide));
            k->hide = hide ? 1 : 0;
        }
        const cJSON *zv = f[F_ZORDER] ? f[F_ZORDER] : f[F_Z];
        if (zv) {
            int64_t z;
            TRY(sinew__jint(d->c, zv, f[F_ZORDER] ? "zOrder" : "z", 0, -2147483648.0, 2147483647.0, &z));
            k->has_z_order = true;
            k->z_order = (int32_t)z;
        }
    }
    return sinew__dbj_frame_actions(d, pos, f[F_EVENT], f[F_SOUND], f[F_ACTION], f[F_EVENTS], f[F_ACTIONS],
                                    A->slots[sp->target].parent, sp->target, k, tl, i);
}

/* A colour key: the colour transform's eight values. */
static sinew_status color_values(db *d, const cJSON *const *f, float *val) {
    sinew_color_transform col;
    const cJSON *cv = f[F_VALUE] ? f[F_VALUE] : f[F_COLOR];
    TRY(sinew__dbj_parse_color(d, cv, f[F_VALUE] ? "value" : "color", &col));
    val[0] = col.a_mul;
    val[1] = col.r_mul;
    val[2] = col.g_mul;
    val[3] = col.b_mul;
    val[4] = col.a_add;
    val[5] = col.r_add;
    val[6] = col.g_add;
    val[7] = col.b_add;
    return SINEW_OK;
}

/* A deform (ffd) key: `vertices` at `offset`, which must fit the mesh. */
static sinew_status ffd_values(db *d, const tl_spec *sp, const cJSON *const *f, float *val) {
    int64_t off;
    const cJSON *vf;
    uint32_t vn;
    TRY(sinew__jint(d->c, f[F_OFFSET], "offset", 0, 0, 2147483647.0, &off));
    TRY(sinew__jarray(d->c, f[F_VERTICES], "vertices", &vf, &vn));
    if ((uint64_t)off + vn > sp->vpk)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT,
                                "ffd offset %lld + %u values does not fit the mesh (%u values)", (long long)off, vn,
                                sp->vpk);
    if (vn == 0) /* nothing to place (a geometry without vertices has no value buffer: val is NULL) */
        return SINEW_OK;
    return sinew__jfloats(d->c, vf, "vertices", val + off, vn);
}

/* A surface key: the official parser places `vertices` at `offset` and drops what falls past the
 * lattice (warned here). */
static sinew_status surface_values(db *d, const tl_spec *sp, const cJSON *const *f, float *val) {
    int64_t off;
    const cJSON *vf;
    uint32_t vn;
    TRY(sinew__jint(d->c, f[F_OFFSET], "offset", 0, 0, 2147483647.0, &off));
    TRY(sinew__jarray(d->c, f[F_VERTICES], "vertices", &vf, &vn));
    uint32_t fit = (uint64_t)off >= sp->vpk ? 0u : (uint32_t)((uint64_t)off + vn > sp->vpk ? sp->vpk - off : vn);
    if (fit < vn)
        sinew__jwarn(d->c, "vertices", SINEW_E_LAYOUT,
                     "surface offset %lld + %u values runs past the lattice (%u values); the rest is ignored",
                     (long long)off, vn, sp->vpk);
    if (fit)
        TRY(sinew__jfloats(d->c, vf, "vertices", val + off, fit));
    return SINEW_OK;
}

/* A path-constraint weight key: `value` = [rotateWeight, xWeight, yWeight] ([1, 1, 1] when absent). */
static sinew_status path_weight_values(db *d, const cJSON *v, float *val) {
    const cJSON *first;
    uint32_t n;
    val[0] = val[1] = val[2] = 1.0f;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    TRY(sinew__jarray(d->c, v, "value", &first, &n));
    if (n < 3u) /* the official parser reads three entries: the missing ones would be NaN */
        return sinew__jfail_key(d->c, "value", SINEW_E_LAYOUT,
                                "a path weight frame's 'value' must hold three numbers: rotateWeight, xWeight, "
                                "yWeight (has %u)", n);
    return sinew__jfloats(d->c, first, "value", val, 3);
}

/* JavaScript's conversion of a number to int16 (a value stored in the official Int16Array). */
static double js_int16(double v) {
    if (!isfinite(v))
        return 0.0;
    double m = fmod(trunc(v), 65536.0);
    if (m < 0.0)
        m += 65536.0;
    return m >= 32768.0 ? m - 65536.0 : m;
}

/* A generic timeline's number as the official parser stores it: scaled, then a float, a rounded
 * integer, or (display frames) 16 bits of its integer part. */
static sinew_status generic_value(db *d, const tl_spec *sp, const cJSON *v, const char *key, float *out) {
    gen_params g = generic_params(sp->type);
    double x;
    TRY(sinew__jnum(d->c, v, key, g.dflt, &x));
    if (g.gen == GEN_INT16)
        *out = (float)js_int16(x);
    else if (g.gen == GEN_INT)
        *out = (float)floor(x * g.scale + 0.5); /* JavaScript's Math.round */
    else
        *out = (float)(x * g.scale);
    return SINEW_OK;
}

/* A generic two-value frame (`x`, `y`): bone translate, rotate (degrees, not unwrapped) and scale,
 * and IK (x the bend, y the weight, both x100 integers), stored as sinew's timelines keep them. */
static sinew_status generic_x_y(db *d, const tl_spec *sp, const cJSON *const *f, float *val) {
    TRY(generic_value(d, sp, f[F_X], "x", &val[0]));
    TRY(generic_value(d, sp, f[F_Y], "y", &val[1]));
    if (sp->type == SINEW_TL_IK) { /* sinew's IK keys: weight (x100 rounded when played), bend 0/1 */
        float bend = val[0];
        val[0] = (float)(val[1] / 100.0);
        val[1] = bend > 0.0f ? 1.0f : 0.0f;
    }
    return SINEW_OK;
}

/* A generic deform or surface frame: `vertices` (else `value`) placed from `offset` into the
 * geometry's values, what falls outside it dropped (the official parser); none for a weighted
 * geometry (the parser writes no values for it). */
static sinew_status generic_deform(db *d, const tl_spec *sp, const cJSON *const *f, float *val) {
    double off;
    TRY(sinew__jnum(d->c, f[F_OFFSET], "offset", 0.0, &off));
    const cJSON *arr = f[F_VERTICES] ? f[F_VERTICES] : f[F_VALUE], *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, f[F_VERTICES] ? "vertices" : "value", &first, &n));
    for (uint32_t i = 0; i < sp->vpk; ++i)
        val[i] = 0.0f;
    uint32_t k = 0;
    for (const cJSON *v = first; v; v = v->next, ++k) {
        double x;
        TRY(sinew__jnum(d->c, v, "vertices", 0.0, &x));
        double i = (double)k + off; /* the official value index i takes raw[i - offset] */
        if (i >= 0.0 && i < (double)sp->vpk && i == floor(i))
            val[(uint32_t)i] = (float)x;
    }
    return SINEW_OK;
}

/* One key's values (at `val`), by the kind of frame. */
static sinew_status key_values(db *d, const tl_spec *sp, const cJSON *const *f, float pos, uint32_t tl, uint32_t i,
                               sinew_model_keyframe *k, float *val, double *rot_exact) {
    switch (sp->kind) {
    case FK_BONE_ALL:
        return bone_all_values(d, sp, f, pos, tl, i, k, val, rot_exact);
    case FK_TRANSLATE:
        TRY(sinew__jfloat(d->c, f[F_X], "x", 0.0f, &val[0]));
        return sinew__jfloat(d->c, f[F_Y], "y", 0.0f, &val[1]);
    case FK_SCALE:
        TRY(sinew__jfloat(d->c, f[F_X], "x", 1.0f, &val[0]));
        return sinew__jfloat(d->c, f[F_Y], "y", 1.0f, &val[1]);
    case FK_ROTATE:
        return rotate_values(d, f, i, k, val, rot_exact);
    case FK_SLOT_DISPLAY:
    case FK_DISPLAY:
        return display_values(d, sp, f, pos, tl, i, k, val);
    case FK_SLOT_COLOR:
    case FK_COLOR:
        return color_values(d, f, val);
    case FK_FFD:
        return ffd_values(d, sp, f, val);
    case FK_SURFACE:
        return surface_values(d, sp, f, val);
    case FK_IK: {
        bool bp;
        TRY(sinew__jfloat(d->c, f[F_WEIGHT], "weight", 1.0f, &val[0]));
        TRY(sinew__jbool(d->c, f[F_BENDPOSITIVE], "bendPositive", true, &bp));
        val[1] = bp ? 1.0f : 0.0f;
        return SINEW_OK;
    }
    case FK_ZORDER:
        return zorder_values(d, f[F_ZORDER], val);
    case FK_PATH_VALUE:
        return sinew__jfloat(d->c, f[F_VALUE], "value", 0.0f, &val[0]);
    case FK_PATH_WEIGHT:
        return path_weight_values(d, f[F_VALUE], val);
    case FK_GEN_X_Y:
        return generic_x_y(d, sp, f, val);
    case FK_GEN_VALUE:
        return generic_value(d, sp, f[F_VALUE], "value", val);
    case FK_GEN_DEFORM:
        return generic_deform(d, sp, f, val);
    case FK_ANIM:
        break;
    }
    return SINEW_OK;
}

static sinew_status build_timeline(db *d, const cJSON *frames, const char *key, const tl_spec *sp,
                                   sinew_model_timeline *T) {
    sinew_model_animation *N = d->anim;
    uint32_t n = (uint32_t)cJSON_GetArraySize(frames);
    T->type = sp->type;
    T->target = sp->target;
    T->skin = sp->skin;
    T->display = sp->display;
    T->mesh = sp->mesh;
    T->values_per_key = sp->vpk;
    T->first_key = d->keys_used;
    T->key_count = n;
    if (d->keys_used + n > N->key_count)
        return sinew__jfail_key(d->c, key, SINEW_E_LAYOUT, "internal: key pool overflow");
    d->keys_used += n;
    size_t nvals;
    if (!sinew__mul_size(n, sp->vpk, &nvals))
        return sinew__jfail_key(d->c, key, SINEW_E_LIMIT, "timeline too large");
    ALLOC(T->values, nvals);
    double *rot_exact = NULL;
    if (sp->kind == FK_BONE_ALL || sp->kind == FK_ROTATE) {
        ALLOC(rot_exact, n);
        T->rotation_exact = rot_exact;
    }
    uint32_t tl = (uint32_t)(T - d->arm->timelines);
    float pos = 0.0f;
    double total = 0.0; /* the frames' durations: a 6.0 timeline's own length */
    sinew__jpush_key(d->c, key);
    uint32_t i = 0;
    for (const cJSON *fr = frames->child; fr; fr = fr->next, i++) {
        sinew_model_keyframe *k = &N->keys[T->first_key + i];
        float *val = sp->vpk ? T->values + (size_t)i * sp->vpk : NULL; /* none: zOrder without slots */
        const cJSON *f[F_COUNT];
        sinew__jpush_index(d->c, i);
        TRY(frame_fields(d, fr, sp->kind, sp->quiet, f));
        double dur;
        TRY(key_timing(d, sp, f, pos, i, k, &dur));
        TRY(key_values(d, sp, f, pos, tl, i, k, val, rot_exact));
        pos += (float)dur;
        total += dur;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    T->cfg_duration = js_uint16(total);
    return SINEW_OK;
}

enum { ANIM_KEY_COUNT = 20 };
static const char *const anim_keys[ANIM_KEY_COUNT] = {
    "name",   "duration", "playTimes", "fadeInTime", "scale",   "frame",    "bone", "slot",     "ffd",
    "ik",     "zOrder",   "userData",  "autoTween",  "tweenEasing", "surface", "timeline", "type", "blendType",
    "shape",  "path"};
static const sinew_jkeys anim_table = SINEW_JKEYS(anim_keys, "animation");
static const char *const bone_tl_keys[] = {"name", "scale", "offset", "frame", "translateFrame",
                                           "rotateFrame", "scaleFrame", "pX", "pY", "timelineConfig"};
static const sinew_jkeys bone_tl_table = SINEW_JKEYS(bone_tl_keys, "bone timeline");
static const char *const slot_tl_keys[] = {"name", "scale", "offset", "frame", "displayFrame", "colorFrame",
                                           "timelineConfig"};
static const sinew_jkeys slot_tl_table = SINEW_JKEYS(slot_tl_keys, "slot timeline");
static const char *const ffd_tl_keys[] = {"name", "skin", "slot", "displayIndex", "scale", "offset", "frame",
                                          "timelineConfig"};
static const sinew_jkeys ffd_tl_table = SINEW_JKEYS(ffd_tl_keys, "ffd timeline");
static const char *const surface_tl_keys[] = {"name", "scale", "offset", "frame", "timelineConfig"};
static const sinew_jkeys surface_tl_table = SINEW_JKEYS(surface_tl_keys, "surface timeline");
static const char *const ik_tl_keys[] = {"name", "scale", "offset", "frame", "timelineConfig"};
static const sinew_jkeys ik_tl_table = SINEW_JKEYS(ik_tl_keys, "ik timeline");
static const char *const zorder_keys[] = {"frame", "timelineConfig"};
static const sinew_jkeys zorder_table = SINEW_JKEYS(zorder_keys, "zOrder timeline");
static const char *const shape_tl_keys[] = {"name", "slot", "skin", "frame", "timelineConfig"};
static const sinew_jkeys shape_tl_table = SINEW_JKEYS(shape_tl_keys, "shape timeline");
static const char *const path_tl_keys[] = {"name", "position", "spacing", "weight", "timelineConfig"};
static const sinew_jkeys path_tl_table = SINEW_JKEYS(path_tl_keys, "path timeline");
static const char *const generic_tl_keys[] = {"type", "name", "frame", "x", "y", "timelineConfig"};
static const sinew_jkeys generic_tl_table = SINEW_JKEYS(generic_tl_keys, "timeline");
static const char *const config_keys[] = {"scale", "offset", "loop"};
static const sinew_jkeys config_table = SINEW_JKEYS(config_keys, "timelineConfig");

static bool nonempty_array(const cJSON *v) {
    return cJSON_IsArray(v) && v->child;
}

const cJSON *sinew__dbj_obj_get(const cJSON *o, const char *k) {
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* Counts the timelines, keys and curve numbers one animation will need. */
static void count_animation(const cJSON *an, uint32_t *tl, uint64_t *keys, uint64_t *curves) {
    *tl = 0;
    *keys = 0;
    *curves = 0;
    const cJSON *v;
#define COUNT_FRAMES(arr, with_curves)                        \
    do {                                                      \
        const cJSON *a_ = (arr);                              \
        if (nonempty_array(a_)) {                             \
            (*tl)++;                                          \
            *keys += (uint64_t)cJSON_GetArraySize(a_);        \
            if (with_curves)                                  \
                *curves += count_curves(a_);                       \
        }                                                     \
    } while (0)
    COUNT_FRAMES(sinew__dbj_obj_get(sinew__dbj_obj_get(an, "zOrder"), "frame"), 0);
    v = sinew__dbj_obj_get(an, "bone");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next) {
            COUNT_FRAMES(sinew__dbj_obj_get(t, "translateFrame"), 1);
            COUNT_FRAMES(sinew__dbj_obj_get(t, "rotateFrame"), 1);
            COUNT_FRAMES(sinew__dbj_obj_get(t, "scaleFrame"), 1);
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
        }
    v = sinew__dbj_obj_get(an, "slot");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next) {
            const cJSON *df = sinew__dbj_obj_get(t, "displayFrame"), *cf = sinew__dbj_obj_get(t, "colorFrame"), *fr = sinew__dbj_obj_get(t, "frame");
            COUNT_FRAMES(df ? df : fr, 0);
            COUNT_FRAMES(cf ? cf : fr, 1);
        }
    v = sinew__dbj_obj_get(an, "ffd");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
    v = sinew__dbj_obj_get(an, "surface");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
    v = sinew__dbj_obj_get(an, "ik");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
    v = sinew__dbj_obj_get(an, "shape");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
    v = sinew__dbj_obj_get(an, "timeline"); /* 6.0 files play them (generic_timelines) */
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(sinew__dbj_obj_get(t, "frame"), 1);
    v = sinew__dbj_obj_get(an, "path");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next) {
            COUNT_FRAMES(sinew__dbj_obj_get(t, "position"), 1);
            COUNT_FRAMES(sinew__dbj_obj_get(t, "spacing"), 1);
            COUNT_FRAMES(sinew__dbj_obj_get(t, "weight"), 1);
        }
#undef COUNT_FRAMES
}

/* A 6.0 timeline's `timelineConfig` entry for the frame array `key`, stored as the official parser
 * stores it (docs/dragonbones-6.0.md section 2.7): scale x100 and offset in frames, rounded, and
 * loop, each in 16 bits. */
static sinew_status timeline_config(db *d, const cJSON *config, const char *key, sinew_model_timeline *T) {
    T->cfg_scale = 100;
    T->cfg_offset = 0;
    T->cfg_loop = 0;
    const cJSON *entry = sinew__dbj_obj_get(config, key);
    if (!entry || cJSON_IsNull(entry) || cJSON_IsFalse(entry))
        return SINEW_OK;
    const cJSON *g[3];
    sinew__jpush_key(d->c, "timelineConfig");
    sinew__jpush_key(d->c, key);
    TRY(sinew__jfields(d->c, entry, &config_table, g));
    double scale, offset;
    bool loop;
    TRY(sinew__jnum(d->c, g[0], "scale", 1.0, &scale));
    TRY(sinew__jnum(d->c, g[1], "offset", 0.0, &offset));
    TRY(sinew__jbool(d->c, g[2], "loop", false, &loop));
    T->cfg_scale = js_uint16(floor(scale * 100.0 + 0.5));
    T->cfg_offset = (int16_t)(int32_t)js_uint16(floor(offset + 0.5)); /* read back as int16 */
    T->cfg_loop = loop;
    sinew__jpop(d->c);
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* What a file of the other version carries and its runtime does not read: said once per file. */
static void unread_timeline_keys(db *d, const cJSON *scale, const cJSON *offset, const cJSON *config) {
    if (d->warned_timeline_keys)
        return;
    if (d->arm->v6 && (scale || offset)) {
        sinew__jwarn(d->c, scale ? "scale" : "offset", SINEW_OK,
                     "a 6.0 file's timelines take their scale and offset from 'timelineConfig': the 5.x timeline "
                     "'scale' and 'offset' are ignored, as the 6.0 runtime ignores them (reported once per file)");
        d->warned_timeline_keys = true;
    } else if (!d->arm->v6 && config && !cJSON_IsNull(config)) {
        sinew__jwarn(d->c, "timelineConfig", SINEW_E_UNSUPPORTED,
                     "'timelineConfig' is DragonBones 6.0 data: a %s file plays as 5.x, without it (reported once "
                     "per file)", d->data->version);
        d->warned_timeline_keys = true;
    }
}

static sinew_status tl_scale_offset(db *d, const cJSON *s, const cJSON *o, sinew_model_timeline *T) {
    T->cfg_scale = 100;
    if (d->arm->v6) { /* not read by the 6.0 runtime */
        T->scale = 1.0f;
        T->offset = 0.0f;
        return SINEW_OK;
    }
    TRY(sinew__jfloat(d->c, s, "scale", 1.0f, &T->scale));
    if (!(T->scale > 0.0f))
        return sinew__jfail_key(d->c, "scale", SINEW_E_RANGE, "timeline 'scale' must be positive (%g)", (double)T->scale);
    return sinew__jfloat(d->c, o, "offset", 0.0f, &T->offset);
}

/* Appends a timeline to the current animation: its scale and offset (sco: the timeline's `scale`,
 * `offset` and `timelineConfig` values, any may be NULL), then its keyframes (the array `frames`
 * under `key`). *out (optional) is the new timeline. */
static sinew_status add_timeline(db *d, const cJSON *const *sco, const cJSON *frames, const char *key,
                                 const tl_spec *sp, sinew_model_timeline **out) {
    sinew_model_armature *A = d->arm;
    sinew_model_timeline *T = &A->timelines[A->timeline_count++];
    unread_timeline_keys(d, sco[0], sco[1], sco[2]);
    TRY(tl_scale_offset(d, sco[0], sco[1], T));
    if (A->v6)
        TRY(timeline_config(d, sco[2], key, T));
    TRY(build_timeline(d, frames, key, sp, T));
    if (out)
        *out = T;
    return SINEW_OK;
}

/* The bone, slot or IK constraint (`what`, from map `m`) that an animation's timeline names in its
 * "name" value `v`. */
static sinew_status timeline_target(db *d, const sinew_namemap *m, const cJSON *v, const char *anim, const char *what,
                                    uint32_t *out) {
    const char *n;
    TRY(sinew__jstr(d->c, v, "name", "", &n));
    *out = sinew__namemap_get(m, n);
    if (*out == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "animation '%s': %s '%s' does not exist", anim, what, n);
    return SINEW_OK;
}

/* Finds the mesh display an ffd timeline animates. */
static sinew_status ffd_target(db *d, const cJSON *const *f, tl_spec *sp) {
    sinew_model_armature *A = d->arm;
    const char *skin, *slot, *name;
    TRY(sinew__jstr(d->c, f[1], "skin", "", &skin));
    TRY(sinew__jstr(d->c, f[2], "slot", "", &slot));
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    bool by_index = !f[2];
    if (by_index) { /* DOC45 variant: name = slot, displayIndex selects the display */
        slot = name;
    }
    uint32_t k = sinew__namemap_get(&d->skins, skin);
    if (k == SINEW_INVALID_INDEX && strcmp(skin, "default") == 0)
        k = sinew__namemap_get(&d->skins, "");
    if (k == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, "skin", SINEW_E_REFERENCE, "ffd timeline: skin '%s' does not exist", skin);
    uint32_t s = sinew__namemap_get(&d->slots, slot);
    if (s == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, by_index ? "name" : "slot", SINEW_E_REFERENCE, "ffd timeline: slot '%s' does not exist",
                                slot);
    const sinew_model_skin *K = &A->skins[k];
    const sinew_model_skin_slot *KS = NULL;
    for (uint32_t i = 0; i < K->slot_count; i++)
        if (A->skin_slots[K->first_slot + i].slot == s)
            KS = &A->skin_slots[K->first_slot + i];
    if (!KS)
        return sinew__jfail_key(d->c, by_index ? "name" : "slot", SINEW_E_REFERENCE,
                                "ffd timeline: skin '%s' has no displays for slot '%s'", skin, slot);
    uint32_t di = SINEW_INVALID_INDEX;
    if (by_index) {
        int64_t x;
        TRY(sinew__jint(d->c, f[3], "displayIndex", 0, 0, 2147483647.0, &x));
        if ((uint64_t)x >= KS->display_count)
            return sinew__jfail_key(d->c, "displayIndex", SINEW_E_RANGE,
                                    "ffd timeline: display index %lld is out of range (slot '%s' has %u displays)",
                                    (long long)x, slot, KS->display_count);
        di = KS->first_display + (uint32_t)x;
    } else {
        for (uint32_t i = 0; i < KS->display_count && di == SINEW_INVALID_INDEX; i++)
            if (strcmp(A->displays[KS->first_display + i].name, name) == 0)
                di = KS->first_display + i;
        if (di == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "ffd timeline: slot '%s' has no display '%s'", slot,
                                    name);
    }
    if (A->displays[di].type != SINEW_DISPLAY_MESH)
        return sinew__jfail_key(d->c, by_index ? "displayIndex" : "name", SINEW_E_REFERENCE,
                                "ffd timeline: display '%s' of slot '%s' is not a mesh", A->displays[di].name, slot);
    sp->target = s;
    sp->skin = k;
    sp->display = di;
    sp->mesh = A->displays[di].mesh;
    sp->vpk = 2u * A->meshes[sp->mesh].vertex_count;
    return SINEW_OK;
}

static int cmp_pending(const pending_action *a, const pending_action *b) {
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The animation's merge units (sinew_model_merge_unit) from d->merges; `final_of_seq` maps a
 * pending action's sequence number to its index in the armature's actions. */
static sinew_status finish_merges(db *d, const uint32_t *final_of_seq) {
    sinew_model_animation *N = d->anim;
    uint32_t n = d->merge_count, total = 0;
    d->merge_count = 0;
    if (n == 0)
        return SINEW_OK;
    for (uint32_t i = 0; i < n; ++i)
        total += d->merges[i].count;
    ALLOC(N->merge_units, n);
    if (total)
        ALLOC(N->merge_index, total);
    N->merge_unit_count = n;
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const merge_rec *m = &d->merges[i];
        sinew_model_merge_unit *u = &N->merge_units[i];
        u->source = m->source;
        u->position = m->pos;
        u->timeline = m->timeline;
        u->key = m->key;
        u->first = w;
        u->count = m->count;
        for (uint32_t k = 0; k < m->count; ++k)
            N->merge_index[w++] = m->source == 2 ? m->first + k : final_of_seq[m->first + k];
    }
    return SINEW_OK;
}

/* Sorts the pending actions by position (stable) and turns them into action frames. */
static sinew_status finish_action_frames(db *d) {
    sinew_model_animation *N = d->anim;
    uint32_t n = d->pending_count;
    if (n == 0)
        return finish_merges(d, NULL);
    pending_action *p = d->pending;
    /* insertion sort: nearly sorted in practice (frames come in time order per source) */
    for (uint32_t i = 1; i < n; i++) {
        pending_action x = p[i];
        uint32_t j = i;
        while (j > 0 && cmp_pending(&p[j - 1], &x) > 0) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
    uint32_t frames = 1;
    for (uint32_t i = 1; i < n; i++)
        if (p[i].pos != p[i - 1].pos)
            frames++;
    ALLOC(N->action_frames, frames);
    N->action_frame_count = frames;
    uint32_t *final_of_seq = sinew__dbj_scratch_array(d, n, sizeof *final_of_seq);
    if (!final_of_seq)
        return sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    uint32_t fi = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && p[i].pos != p[i - 1].pos)
            fi++;
        sinew_model_action_frame *F = &N->action_frames[fi];
        if (F->action_count == 0) {
            F->position = p[i].pos;
            F->first_action = d->action_count;
        }
        final_of_seq[p[i].seq] = d->action_count;
        TRY(sinew__dbj_push_action(d, &p[i].action));
        F->action_count++;
    }
    d->pending_count = 0;
    return finish_merges(d, final_of_seq);
}

/* The animation frames: events, sounds and actions on the animation itself. */
static sinew_status animation_frames(db *d, const cJSON *frames) {
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, frames, "frame", &first, &n));
    float pos = 0.0f;
    uint32_t i = 0;
    sinew__jpush_key(d->c, "frame");
    for (const cJSON *fr = first; fr; fr = fr->next, i++) {
        const cJSON *g[F_COUNT];
        sinew__jpush_index(d->c, i);
        TRY(frame_fields(d, fr, FK_ANIM, false, g));
        double fd;
        TRY(frame_duration(d, g[F_DURATION], pos, "frames", &fd));
        TRY(sinew__dbj_frame_actions(d, pos, g[F_EVENT], g[F_SOUND], g[F_ACTION], g[F_EVENTS], g[F_ACTIONS], SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, NULL, SINEW_INVALID_INDEX, 0));
        pos += (float)fd;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* The zOrder timeline (slots moved in the draw order). */
static sinew_status zorder_timeline(db *d, const cJSON *zorder) {
    sinew_model_armature *A = d->arm;
    if (!zorder || cJSON_IsNull(zorder))
        return SINEW_OK;
    const cJSON *g[2];
    sinew__jpush_key(d->c, "zOrder");
    TRY(sinew__jfields(d->c, zorder, &zorder_table, g));
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, g[0], "frame", &first, &n));
    if (n) {
        tl_spec sp = {SINEW_TL_ZORDER, FK_ZORDER, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                      SINEW_INVALID_INDEX, A->slot_count, false};
        const cJSON *sco[3] = {NULL, NULL, g[1]};
        TRY(add_timeline(d, sco, g[0], "frame", &sp, NULL));
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* Bone timelines: translate, rotate and scale (5.x) or the combined frames (4.x), with their pivot. */
static sinew_status bone_timelines(db *d, const cJSON *list, const char *name) {
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "bone", &first, &n));
    sinew__jpush_key(d->c, "bone");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[10];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &bone_tl_table, g));
        const cJSON *sco[3] = {g[1], g[2], g[9]};
        uint32_t b;
        TRY(timeline_target(d, &d->bones, g[0], name, "bone", &b));
        static const char *const keys[] = {"translateFrame", "rotateFrame", "scaleFrame", "frame"};
        static const sinew_timeline_type types[] = {SINEW_TL_BONE_TRANSLATE, SINEW_TL_BONE_ROTATE,
                                                    SINEW_TL_BONE_SCALE, SINEW_TL_BONE_ALL};
        static const frame_kind kinds[] = {FK_TRANSLATE, FK_ROTATE, FK_SCALE, FK_BONE_ALL};
        static const uint32_t vpk[] = {2, 2, 2, 6};
        float px, py;
        TRY(sinew__jfloat(d->c, g[7], "pX", 0.0f, &px));
        TRY(sinew__jfloat(d->c, g[8], "pY", 0.0f, &py));
        for (int j = 0; j < 4; j++) {
            const cJSON *fr = j < 3 ? g[4 + j] : g[3];
            const cJSON *ff;
            uint32_t fn;
            TRY(sinew__jarray(d->c, fr, keys[j], &ff, &fn));
            if (!fn)
                continue;
            tl_spec sp = {types[j], kinds[j], b, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                          vpk[j], false};
            sinew_model_timeline *T;
            TRY(add_timeline(d, sco, fr, keys[j], &sp, &T));
            T->pivot_x = px;
            T->pivot_y = py;
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* Surface timelines (5.5). A 6.0 file's are not read, as the 6.0 runtime (upstream 5.7) reads
 * surface timelines only from the generic `timeline` arrays (type 50). */
static sinew_status surface_timelines(db *d, const cJSON *list, const char *name) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "surface", &first, &n));
    if (A->v6) {
        if (n && !d->warned_legacy_surface) {
            d->warned_legacy_surface = true;
            sinew__jwarn(d->c, "surface", SINEW_OK,
                         "a 6.0 file's animation 'surface' arrays are not played, as the 6.0 runtime reads surface "
                         "timelines only from 'timeline' entries of type 50 (reported once per file)");
        }
        return SINEW_OK;
    }
    sinew__jpush_key(d->c, "surface");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[5];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &surface_tl_table, g));
        const cJSON *sco[3] = {g[1], g[2], g[4]};
        uint32_t b;
        TRY(timeline_target(d, &d->bones, g[0], name, "surface", &b));
        if (!A->bones[b].is_surface)
            return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "animation '%s': bone '%s' is not a surface", name,
                                    A->bones[b].name);
        const cJSON *ff;
        uint32_t fn;
        TRY(sinew__jarray(d->c, g[3], "frame", &ff, &fn));
        if (fn) {
            tl_spec sp = {SINEW_TL_SURFACE, FK_SURFACE, b, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, A->bones[b].surface_value_count, false};
            TRY(add_timeline(d, sco, g[3], "frame", &sp, NULL));
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* The 5.6 generic `timeline` arrays, animation `type` and `blendType`: the official runtime
 * (DragonBonesJS 5.7 as published, the reference) reads none of them, so they are not played
 * (docs/loader.md). */
static sinew_status unplayed_5_6_fields(db *d, const cJSON *generic, const cJSON *type, const cJSON *blend_type) {
    if (generic && !cJSON_IsNull(generic)) {
        const cJSON *tf;
        uint32_t tn;
        TRY(sinew__jarray(d->c, generic, "timeline", &tf, &tn));
        if (tn && !d->warned_generic && !d->arm->v6) { /* a 6.0 file plays them (generic_timelines) */
            d->warned_generic = true;
            sinew__jwarn(d->c, "timeline", SINEW_OK,
                         "5.6 generic 'timeline' arrays are not played, as the official runtime does not read them "
                         "(reported once per file)");
        }
    }
    const char *ignored;
    TRY(sinew__jstr(d->c, type, "type", "", &ignored));
    TRY(sinew__jstr(d->c, blend_type, "blendType", "", &ignored));
    return SINEW_OK;
}

/* Slot timelines: display and colour (5.x), or the combined frames (4.x). */
static sinew_status slot_timelines(db *d, const cJSON *list, const char *name) {
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "slot", &first, &n));
    sinew__jpush_key(d->c, "slot");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[7];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &slot_tl_table, g));
        const cJSON *sco[3] = {g[1], g[2], g[6]};
        uint32_t s;
        TRY(timeline_target(d, &d->slots, g[0], name, "slot", &s));
        const cJSON *ff;
        uint32_t fn;
        /* display */
        const cJSON *dfr = g[4] ? g[4] : g[3];
        const char *dk = g[4] ? "displayFrame" : "frame";
        TRY(sinew__jarray(d->c, dfr, dk, &ff, &fn));
        if (fn) {
            tl_spec sp = {SINEW_TL_SLOT_DISPLAY, g[4] ? FK_DISPLAY : FK_SLOT_DISPLAY, s, SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 1, false};
            TRY(add_timeline(d, sco, dfr, dk, &sp, NULL));
        }
        const cJSON *cfr = g[5] ? g[5] : g[3];
        const char *ck = g[5] ? "colorFrame" : "frame";
        TRY(sinew__jarray(d->c, cfr, ck, &ff, &fn));
        if (fn) {
            tl_spec sp = {SINEW_TL_SLOT_COLOR, g[5] ? FK_COLOR : FK_SLOT_COLOR, s, SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 8, !g[5]};
            TRY(add_timeline(d, sco, cfr, ck, &sp, NULL));
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* Deform (ffd) timelines. */
static sinew_status ffd_timelines(db *d, const cJSON *list) {
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "ffd", &first, &n));
    sinew__jpush_key(d->c, "ffd");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[8];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &ffd_tl_table, g));
        const cJSON *sco[3] = {g[4], g[5], g[7]};
        const cJSON *ff;
        uint32_t fn;
        TRY(sinew__jarray(d->c, g[6], "frame", &ff, &fn));
        tl_spec sp = {SINEW_TL_FFD, FK_FFD, 0, 0, 0, 0, 0, false};
        TRY(ffd_target(d, g, &sp));
        if (fn)
            TRY(add_timeline(d, sco, g[6], "frame", &sp, NULL));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* IK timelines (weight and bend direction). */
static sinew_status ik_timelines(db *d, const cJSON *list, const char *name) {
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "ik", &first, &n));
    sinew__jpush_key(d->c, "ik");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[5];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &ik_tl_table, g));
        const cJSON *sco[3] = {g[1], g[2], g[4]};
        uint32_t k;
        TRY(timeline_target(d, &d->iks, g[0], name, "IK constraint", &k));
        const cJSON *ff;
        uint32_t fn;
        TRY(sinew__jarray(d->c, g[3], "frame", &ff, &fn));
        if (fn) {
            tl_spec sp = {SINEW_TL_IK, FK_IK, k, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 2, false};
            TRY(add_timeline(d, sco, g[3], "frame", &sp, NULL));
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* The display a 6.0 `shape` timeline names (skin, slot, display name), or INVALID (the official
 * parser skips the timeline silently; sinew says so). */
static sinew_status shape_target(db *d, const cJSON *const *g, uint32_t *slot, uint32_t *skin, uint32_t *disp) {
    sinew_model_armature *A = d->arm;
    const char *name, *slot_name, *skin_name;
    TRY(sinew__jstr(d->c, g[0], "name", "", &name));
    TRY(sinew__jstr(d->c, g[1], "slot", "", &slot_name));
    TRY(sinew__jstr(d->c, g[2], "skin", "default", &skin_name));
    *disp = SINEW_INVALID_INDEX;
    *slot = sinew__namemap_get(&d->slots, slot_name);
    *skin = sinew__namemap_get(&d->skins, skin_name);
    if (*skin == SINEW_INVALID_INDEX && (strcmp(skin_name, "default") == 0 || !skin_name[0]))
        *skin = sinew__namemap_get(&d->skins, "");
    if (*slot != SINEW_INVALID_INDEX && *skin != SINEW_INVALID_INDEX) {
        const sinew_model_skin *K = &A->skins[*skin];
        for (uint32_t i = 0; i < K->slot_count; i++) {
            const sinew_model_skin_slot *ss = &A->skin_slots[K->first_slot + i];
            for (uint32_t x = 0; ss->slot == *slot && x < ss->display_count && *disp == SINEW_INVALID_INDEX; x++)
                if (strcmp(A->displays[ss->first_display + x].name, name) == 0)
                    *disp = ss->first_display + x;
        }
    }
    if (*disp == SINEW_INVALID_INDEX)
        sinew__jwarn(d->c, "name", SINEW_E_REFERENCE,
                     "shape timeline: skin '%s' has no display '%s' in slot '%s' (skipped, as the official runtime "
                     "does)", skin_name, name, slot_name);
    return SINEW_OK;
}

/* 6.0 `shape` timelines: the deform of a vector shape (as `ffd` of a mesh) or of a path display. */
static sinew_status shape_timelines(db *d, const cJSON *list) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "shape", &first, &n));
    sinew__jpush_key(d->c, "shape");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[5], *ff;
        uint32_t fn, slot, skin, disp;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &shape_tl_table, g));
        TRY(sinew__jarray(d->c, g[3], "frame", &ff, &fn));
        TRY(shape_target(d, g, &slot, &skin, &disp));
        const sinew_model_display *D = disp != SINEW_INVALID_INDEX ? &A->displays[disp] : NULL;
        tl_spec sp = {SINEW_TL_SHAPE, FK_FFD, slot, skin, disp, SINEW_INVALID_INDEX, 0, false};
        if (D && D->type == SINEW_DISPLAY_SHAPE) {
            sp.mesh = D->mesh;
            sp.vpk = 2u * A->meshes[D->mesh].vertex_count;
        } else if (D && D->type == SINEW_DISPLAY_PATH) {
            const sinew_model_path *P = &A->paths[D->path_data];
            if (P->weighted && !P->posed) /* the official parser reads its missing slotPose and throws */
                return sinew__jfail_key(d->c, "name", SINEW_E_UNSUPPORTED,
                                        "shape timeline: path '%s' is weighted without 'bonePose', and the official "
                                        "runtime cannot load a deform of it", D->name);
            sp.type = SINEW_TL_PATH_DEFORM;
            sp.vpk = 2u * P->vertex_count;
        } else {
            D = NULL; /* another display type: not read, as officially */
        }
        const cJSON *sco[3] = {NULL, NULL, g[4]};
        if (D && fn)
            TRY(add_timeline(d, sco, g[3], "frame", &sp, NULL));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* 6.0 `path` timelines: a path constraint's position, spacing and weights. */
static sinew_status path_timelines(db *d, const cJSON *list) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "path", &first, &n));
    sinew__jpush_key(d->c, "path");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[5];
        const char *name;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &path_tl_table, g));
        TRY(sinew__jstr(d->c, g[0], "name", "", &name));
        uint32_t c = SINEW_INVALID_INDEX;
        for (uint32_t k = 0; k < A->path_constraint_count && c == SINEW_INVALID_INDEX; k++)
            if (strcmp(A->path_constraints[k].name, name) == 0)
                c = k;
        if (c == SINEW_INVALID_INDEX)
            sinew__jwarn(d->c, "name", SINEW_E_REFERENCE,
                         "path timeline: no path constraint '%s' (skipped, as the official runtime does)", name);
        static const char *const keys[] = {"position", "spacing", "weight"};
        static const sinew_timeline_type types[] = {SINEW_TL_PATH_POSITION, SINEW_TL_PATH_SPACING, SINEW_TL_PATH_WEIGHT};
        const cJSON *sco[3] = {NULL, NULL, g[4]};
        for (uint32_t j = 0; j < 3 && c != SINEW_INVALID_INDEX; j++) {
            const cJSON *ff;
            uint32_t fn;
            TRY(sinew__jarray(d->c, g[1 + j], keys[j], &ff, &fn));
            tl_spec sp = {types[j], j < 2 ? FK_PATH_VALUE : FK_PATH_WEIGHT, c, SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, j < 2 ? 1u : 3u, false};
            if (fn)
                TRY(add_timeline(d, sco, g[1 + j], keys[j], &sp, NULL));
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* The mesh a generic deform timeline deforms: the display named `name` as the official parser finds
 * it (every skin in file order, every slot's first display of that name, the last found winning),
 * or INVALID. */
static uint32_t generic_deform_display(const sinew_model_armature *A, const char *name) {
    uint32_t found = SINEW_INVALID_INDEX;
    for (uint32_t order = 0; order < A->skin_count; ++order)
        for (uint32_t k = 0; k < A->skin_count; ++k) {
            const sinew_model_skin *K = &A->skins[k];
            if (K->source_index != order)
                continue;
            for (uint32_t i = 0; i < K->slot_count; ++i) {
                const sinew_model_skin_slot *ss = &A->skin_slots[K->first_slot + i];
                for (uint32_t j = 0; j < ss->display_count; ++j) {
                    const char *dn = A->displays[ss->first_display + j].name;
                    if (dn && strcmp(dn, name) == 0) {
                        found = ss->first_display + j;
                        break;
                    }
                }
            }
        }
    return found;
}

/* A generic deform timeline (type 22): of the slot named like the display it names. */
static bool generic_deform_spec(db *d, const char *nm, tl_spec *sp) {
    const sinew_model_armature *A = d->arm;
    sp->type = SINEW_TL_FFD;
    sp->kind = FK_GEN_DEFORM;
    sp->target = sinew__namemap_get(&d->slots, nm);
    sp->display = generic_deform_display(A, nm);
    const sinew_model_display *D = sp->display != SINEW_INVALID_INDEX ? &A->displays[sp->display] : NULL;
    if (!D || D->type != SINEW_DISPLAY_MESH || D->mesh >= A->mesh_count || sp->target == SINEW_INVALID_INDEX)
        return false;
    sp->mesh = D->mesh;
    sp->vpk = A->meshes[D->mesh].weighted ? 0 : 2 * A->meshes[D->mesh].vertex_count;
    return true;
}

/* The spec of a generic timeline of `type` named `nm`; false when the official runtime plays
 * nothing of it (no such target, another type). */
static bool generic_spec(db *d, int64_t type, const char *nm, tl_spec *sp) {
    memset(sp, 0, sizeof *sp);
    sp->skin = sp->display = sp->mesh = SINEW_INVALID_INDEX;
    sp->kind = FK_GEN_X_Y;
    sp->vpk = 2;
    switch (type) {
    case 11: case 12: case 13: /* bone translate, rotate (degrees), scale */
        sp->type = type == 11 ? SINEW_TL_BONE_TRANSLATE : type == 12 ? SINEW_TL_BONE_ROTATE : SINEW_TL_BONE_SCALE;
        sp->target = sinew__namemap_get(&d->bones, nm);
        return sp->target != SINEW_INVALID_INDEX;
    case 30: /* IK: x the bend, y the weight */
        sp->type = SINEW_TL_IK;
        sp->target = sinew__namemap_get(&d->iks, nm);
        return sp->target != SINEW_INVALID_INDEX;
    case 20: case 21: case 23: /* slot display, colour, zIndex */
        sp->type = type == 20 ? SINEW_TL_SLOT_DISPLAY : type == 21 ? SINEW_TL_SLOT_COLOR : SINEW_TL_SLOT_ZINDEX;
        sp->kind = type == 21 ? FK_COLOR : FK_GEN_VALUE;
        sp->vpk = type == 21 ? 8 : 1;
        sp->target = sinew__namemap_get(&d->slots, nm);
        return sp->target != SINEW_INVALID_INDEX;
    case 22:
        return generic_deform_spec(d, nm, sp);
    case 50: /* a surface's lattice offsets */
        sp->type = SINEW_TL_SURFACE;
        sp->kind = FK_GEN_DEFORM;
        sp->target = sinew__namemap_get(&d->bones, nm);
        if (sp->target == SINEW_INVALID_INDEX)
            return false;
        sp->vpk = d->arm->bones[sp->target].surface_value_count;
        return true;
    default:
        return false;
    }
}

/* 6.0 files: the generic `timeline` entries ({type, name, frame}), after the animation's other
 * timelines, as the 6.0 runtime (upstream 5.7) reads them: bone translate, rotate and scale, slot
 * display, colour, deform and zIndex, IK and surface timelines. Alpha (24, 60) is not drawn by
 * sinew and animation blend trees (40-42) are not played (warned once); action and zOrder entries
 * the official parser leaves unread, as other types. */
static sinew_status generic_timelines(db *d, const cJSON *list) {
    const sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n, i = 0;
    TRY(sinew__jarray(d->c, list, "timeline", &first, &n));
    sinew__jpush_key(d->c, "timeline");
    for (const cJSON *t = first; t; t = t->next, i++) {
        const cJSON *g[6], *ff;
        uint32_t fn;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, t, &generic_tl_table, g));
        int64_t type;
        const char *nm;
        TRY(sinew__jint(d->c, g[0], "type", 0, -2147483648.0, 2147483647.0, &type));
        TRY(sinew__jstr(d->c, g[1], "name", "", &nm));
        TRY(sinew__jarray(d->c, g[2], "frame", &ff, &fn));
        uint32_t bone = sinew__namemap_get(&d->bones, nm);
        if (type == 50 && fn && bone != SINEW_INVALID_INDEX && !A->bones[bone].is_surface)
            return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "a surface timeline names bone '%s', which is not "
                                    "a surface (the official parser fails on it)", nm);
        if ((type == 24 || type == 60 || (type >= 40 && type <= 42)) && fn && !d->warned_generic) {
            d->warned_generic = true;
            sinew__jwarn(d->c, "type", SINEW_E_UNSUPPORTED, "'timeline' entries of type %lld (%s) are not played "
                         "(reported once per file)", (long long)type, type >= 40 && type <= 42 ? "animation blend trees" : "alpha");
        }
        const cJSON *sco[3] = {NULL, NULL, g[5]};
        tl_spec sp;
        if (fn && generic_spec(d, type, nm, &sp)) {
            sinew_model_timeline *T;
            TRY(add_timeline(d, sco, g[2], "frame", &sp, &T));
            T->rotation_unwrapped = sp.type == SINEW_TL_BONE_ROTATE; /* the official parser does not unwrap them */
        }
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

static sinew_status build_animation(db *d, const cJSON *an, sinew_model_animation *N) {
    sinew_model_armature *A = d->arm;
    const cJSON *f[ANIM_KEY_COUNT];
    TRY(sinew__jfields(d->c, an, &anim_table, f));
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(sinew__dbj_dup_str(d, name, &N->name));
    double dur;
    /* an animation without `duration` lasts 1 frame in the 5.x reference, 0 in the 6.0 runtime */
    TRY(sinew__jnum(d->c, f[1], "duration", A->v6 ? 0.0 : 1.0, &dur));
    if (dur < 0.0)
        return sinew__jfail_key(d->c, "duration", SINEW_E_RANGE, "animation 'duration' must not be negative (%g)", dur);
    if (dur > (double)d->c->limits.max_animation_frames)
        return sinew__jfail_key(d->c, "duration", SINEW_E_LIMIT, "animation lasts %g frames, more than the limit of %u "
                                "(limits.max_animation_frames)", dur, d->c->limits.max_animation_frames);
    N->duration = (float)dur;
    int64_t pt;
    TRY(sinew__jint(d->c, f[2], "playTimes", 1, 0, 2147483647.0, &pt));
    N->play_times = (int32_t)pt;
    TRY(sinew__jnum(d->c, f[3], "fadeInTime", -1.0, &N->fade_in_time));
    TRY(sinew__jnum(d->c, f[4], "scale", 1.0, &N->scale));
    TRY(sinew__dbj_user_data(d, f[11], &N->user_data));
    N->auto_tween = -1;
    if (f[12]) {
        bool at;
        TRY(sinew__jbool(d->c, f[12], "autoTween", false, &at));
        N->auto_tween = at ? 1 : 0;
    }
    /* sizes */
    uint32_t ntl;
    uint64_t nkeys, ncurves;
    count_animation(an, &ntl, &nkeys, &ncurves);
    if (nkeys > UINT32_MAX / 4 || ncurves > UINT32_MAX / 4)
        return sinew__jfail(d->c, SINEW_E_LIMIT, "animation '%s' has too many keyframes", name);
    N->key_count = (uint32_t)nkeys;
    N->curve_count = (uint32_t)ncurves;
    ALLOC(N->keys, nkeys);
    ALLOC(N->curves, ncurves);
    N->curves_d = NULL;
    if (A->v6)
        ALLOC(N->curves_d, ncurves);
    N->first_timeline = A->timeline_count;
    d->anim = N;
    d->keys_used = 0;
    d->curves_used = 0;
    d->pending_count = 0;

    TRY(animation_frames(d, f[5]));
    TRY(zorder_timeline(d, f[10]));
    TRY(bone_timelines(d, f[6], name));
    TRY(surface_timelines(d, f[14], name));
    TRY(unplayed_5_6_fields(d, f[15], f[16], f[17]));
    TRY(slot_timelines(d, f[7], name));
    TRY(ffd_timelines(d, f[8]));
    TRY(ik_timelines(d, f[9], name));
    if (A->v6) { /* the official order: after `ffd`, `shape`; after `ik`, `path`; last the generic ones */
        TRY(shape_timelines(d, f[18]));
        TRY(path_timelines(d, f[19]));
        TRY(generic_timelines(d, f[15]));
    } else if ((f[18] || f[19]) && !d->warned_v6_keys) {
        sinew__jwarn(d->c, f[18] ? "shape" : "path", SINEW_E_UNSUPPORTED,
                     "shape and path timelines are DragonBones 6.0 data: a %s file plays as 5.x, without them "
                     "(reported once per file)", d->data->version);
        d->warned_v6_keys = true;
    }
    N->timeline_count = A->timeline_count - N->first_timeline;
    N->key_count = d->keys_used;
    N->curve_count = d->curves_used;
    TRY(finish_action_frames(d));
    d->anim = NULL;
    return SINEW_OK;
}

sinew_status sinew__dbj_build_animations(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "animation", &first, &n));
    A->animation_count = n;
    ALLOC(A->animations, n);
    uint64_t total = 0;
    for (const cJSON *an = first; an; an = an->next) {
        uint32_t t;
        uint64_t k, c;
        count_animation(an, &t, &k, &c);
        total += t;
    }
    if (total > UINT32_MAX / 4)
        return sinew__jfail_key(d->c, "animation", SINEW_E_LIMIT, "too many timelines");
    ALLOC(A->timelines, total);
    A->timeline_count = 0;
    sinew_namemap names;
    TRY(sinew__dbj_nm_init(d, &names, n));
    sinew__jpush_key(d->c, "animation");
    uint32_t i = 0;
    for (const cJSON *an = first; an; an = an->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(build_animation(d, an, &A->animations[i]));
        if (sinew__namemap_put(&names, A->animations[i].name, i) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "animation '%s' is defined twice",
                                    A->animations[i].name);
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}
