/*
 * The DragonBones 4.5 writer's animations (see dragonbones_write.h and docs/xml.md, "Converting").
 *
 * Timelines. DragonBones 4.x keeps one combined frame list per bone (x, y, rotation, skew, scale,
 * one easing) and one per slot (display index + colour, one easing). A model may instead hold
 * separate channels (5.x translate / rotate / scale, display / colour; XML rigs use those too).
 * Each channel is evaluated exactly at the union of all key times of its bone (slot); a combined
 * span takes the easing of the channels that actually move in it. When channels that move in the
 * same span need different easings, or a span has to be cut inside a non-linear tween, the 4.5
 * form can only approximate, and a warning says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "format/dragonbones_write_internal.h"

static const double DB_PI = DBW_PI;

/* ---- channel merging ---------------------------------------------------------------------------- */

typedef struct chan {
    const sinew_model_timeline *tl;
    const sinew_model_keyframe *keys;
    uint32_t src, nv, dst;  /* values [src, src+nv) of each key go to combined values [dst, dst+nv) */
    bool rot;               /* value `src` is an angle to unwrap */
    bool wrap_norm;         /* the wrap from the last key to the first takes the short way (5.x) */
    bool step_only;         /* display index: never tweens, never constrains the easing */
    double *u;              /* unwrapped angle per key (rot) */
} chan;

static double key_end(const sinew_model_animation *an, const chan *c, uint32_t k) {
    return k + 1 < c->tl->key_count ? (double)c->keys[k + 1].position : (double)an->duration;
}

static double val(const chan *c, uint32_t k, uint32_t i) {
    if (c->rot && i == 0)
        return c->u[k];
    return (double)c->tl->values[(size_t)c->keys[k].value + c->src + i];
}

static bool loops(const sinew_model_animation *an) {
    return an->play_times != 1;
}

static double ease(const sinew_model_keyframe *k, double p) {
    double e = round((double)k->strength * 100.0) / 100.0;
    switch (k->tween) {
    case SINEW_TWEEN_LINEAR: return p;
    case SINEW_TWEEN_QUAD_IN: return p + (p * p - p) * e;
    case SINEW_TWEEN_QUAD_OUT: return p + ((1 - (1 - p) * (1 - p)) - p) * e;
    case SINEW_TWEEN_QUAD_IN_OUT: return p + ((1 - cos(DB_PI * p)) / 2 - p) * e;
    case SINEW_TWEEN_CURVE: return p; /* only reached for cut spans, which are warned about */
    default: return 0;
    }
}

/* Key index of channel c governing time t (the last key whose position <= t). */
static uint32_t key_at(const chan *c, double t) {
    uint32_t k = 0;
    while (k + 1 < c->tl->key_count && (double)c->keys[k + 1].position <= t)
        k++;
    return k;
}

/* How far a loop's wrap from key k back to key 0 turns channel c's angle at run time. A 5.x
 * rotate timeline normalises the step between the played values, which are floats: at half a
 * turn their last bits decide the way, not those of the exact angles. */
static double wrap_delta(const chan *c, uint32_t k) {
    if (!c->wrap_norm)
        return c->u[0] - c->u[k];
    return sinew__db_normalize_radian((double)(float)c->u[0] - (double)(float)c->u[k]);
}

/* The value channel c moves towards from key k (the next key, or the wrap target). */
static double target_val(const sinew_model_animation *an, const chan *c, uint32_t k, uint32_t i) {
    if (k + 1 < c->tl->key_count)
        return val(c, k + 1, i);
    if (!loops(an))
        return val(c, k, i);
    if (c->rot && i == 0)
        return c->u[k] + wrap_delta(c, k);
    return val(c, 0, i);
}

static bool key_tweens(const chan *c, uint32_t k) {
    return !c->step_only && c->keys[k].tween != SINEW_TWEEN_NONE;
}

/* Value i of channel c at time t (while another loop follows). */
static double eval_at(const sinew_model_animation *an, const chan *c, double t, uint32_t i) {
    uint32_t k = key_at(c, t);
    double a = (double)c->keys[k].position, b = key_end(an, c, k);
    if (t <= a || !key_tweens(c, k) || b <= a)
        return val(c, k, i);
    double v0 = val(c, k, i), v1 = target_val(an, c, k, i);
    return v0 + (v1 - v0) * ease(&c->keys[k], (t - a) / (b - a));
}

/* Whether value i of channel c changes from a to b. An angle's played value is a float: a step
 * within its rounding (a wrap from 2pi back to 0 is 1.7e-7 off) is no move. */
static bool differs(const chan *c, uint32_t i, double a, double b) {
    double tol = c->rot && i == 0 ? 1e-7 * fmax(1.0, fabs(a)) : 1e-7;
    return fabs(a - b) > tol;
}

static bool chan_moves(const sinew_model_animation *an, const chan *c, uint32_t k) {
    for (uint32_t i = 0; i < c->nv; i++)
        if (differs(c, i, val(c, k, i), target_val(an, c, k, i)))
            return true;
    return false;
}

static void free_unwrapped(wctx *w, chan *c) {
    uint32_t n = c->tl->key_count;
    sinew__free(w->a, c->u, sizeof *c->u * (n ? n : 1));
    c->u = NULL;
}

/* Unwraps channel c's angles the way the source means them. */
static bool unwrap_chan(wctx *w, chan *c) {
    uint32_t n = c->tl->key_count;
    c->u = sinew__alloc(w->a, sizeof *c->u * (n ? n : 1));
    if (!c->u) {
        w->nomem = true;
        return false;
    }
    for (uint32_t k = 0; k < n; k++) {
        const sinew_model_timeline *tl = c->tl;
        double raw = tl->rotation_exact ? tl->rotation_exact[k] /* the last bit decides a half turn (model.h) */
                                        : (double)tl->values[(size_t)c->keys[k].value + c->src];
        if (k == 0 || c->tl->rotation_plain) {
            c->u[k] = raw;
            continue;
        }
        double prev = c->u[k - 1];
        int32_t cw = c->keys[k - 1].tween_rotate;
        if (cw == 0) {
            c->u[k] = prev + sinew__db_normalize_radian(raw - prev);
        } else {
            if (cw > 0 ? raw >= prev : raw <= prev)
                cw = cw > 0 ? cw - 1 : cw + 1;
            c->u[k] = prev + raw - prev + DB_PI * 2.0 * cw; /* as the official parser rounds it */
        }
    }
    return true;
}

typedef struct merged_key {
    double pos, dur;
    const sinew_model_keyframe *ease; /* the keyframe whose easing this span uses (NULL = step) */
    double quad_k;                    /* cut quadratic span: p^2 coefficient (NAN = none) */
    int32_t tween_rotate;
    const sinew_model_keyframe *src0; /* the first channel's key at this time (actions) */
} merged_key;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Merges channels into combined keys. `vals` receives key_count * total_nv values; `defaults` fills
 * values no channel gives. Returns the key count (0 on failure). */
static uint32_t merge(wctx *w, const sinew_model_animation *an, chan *ch, uint32_t nch, uint32_t total_nv,
                      const double *defaults, const char *what, merged_key **out_keys, double **out_vals) {
    size_t cap = 0;
    for (uint32_t c = 0; c < nch; c++)
        cap += ch[c].tl->key_count;
    size_t times_size = sizeof(double) * (cap ? cap : 1);
    double *times = sinew__alloc(w->a, times_size);
    if (!times) {
        w->nomem = true;
        return 0;
    }
    size_t nt = 0;
    for (uint32_t c = 0; c < nch; c++)
        for (uint32_t k = 0; k < ch[c].tl->key_count; k++)
            times[nt++] = (double)ch[c].keys[k].position;
    qsort(times, nt, sizeof *times, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < nt; i++)
        if (u == 0 || times[i] != times[u - 1])
            times[u++] = times[i];
    nt = u;
    merged_key *keys = sinew__calloc(w->a, nt ? nt : 1, sizeof *keys);
    double *vals = sinew__calloc(w->a, (nt ? nt : 1) * total_nv, sizeof *vals);
    if (!keys || !vals) {
        sinew__free(w->a, times, times_size);
        sinew__free(w->a, keys, (nt ? nt : 1) * sizeof *keys);
        sinew__free(w->a, vals, (nt ? nt : 1) * total_nv * sizeof *vals);
        w->nomem = true;
        return 0;
    }
    bool warned_ease = false, warned_cut = false, warned_wrap = false;
    for (size_t j = 0; j < nt; j++) {
        double t0 = times[j], t1 = j + 1 < nt ? times[j + 1] : (double)an->duration;
        merged_key *mk = &keys[j];
        bool step_moves = false;
        mk->pos = t0;
        mk->dur = t1 > t0 ? t1 - t0 : 0;
        mk->quad_k = NAN;
        for (uint32_t i = 0; i < total_nv; i++)
            vals[j * total_nv + i] = defaults[i];
        for (uint32_t c = 0; c < nch; c++) {
            const chan *cc = &ch[c];
            uint32_t k = key_at(cc, t0);
            for (uint32_t i = 0; i < cc->nv; i++)
                vals[j * total_nv + cc->dst + i] = eval_at(an, cc, t0, i);
            if (!mk->src0 && (double)cc->keys[k].position == t0)
                mk->src0 = &cc->keys[k];
            if (cc->step_only)
                continue;
            /* Does this channel move between t0 and t1? */
            double a = (double)cc->keys[k].position, b = key_end(an, cc, k);
            bool moves = false;
            for (uint32_t i = 0; i < cc->nv && !moves; i++) {
                double v0 = vals[j * total_nv + cc->dst + i];
                double v1 = (j + 1 < nt) ? eval_at(an, cc, t1, i) : target_val(an, cc, k, i);
                if (j + 1 == nt && k + 1 < cc->tl->key_count)
                    v1 = eval_at(an, cc, t1, i);
                moves = differs(cc, i, v0, v1);
            }
            if (!moves)
                continue;
            if (!key_tweens(cc, k)) {
                /* A step change at t1 inside a combined span: checked once every channel is seen */
                step_moves = true;
                continue;
            }
            const sinew_model_keyframe *ek = &cc->keys[k];
            bool cut = a < t0 || b > t1;
            if (cut && ek->tween != SINEW_TWEEN_LINEAR) {
                if (!warned_cut) {
                    dbw_warn(w, "%s: a %s tween is cut by another channel's key; the pieces are approximated",
                         what, ek->tween == SINEW_TWEEN_CURVE ? "curve" : "quadratic");
                    warned_cut = true;
                }
                if (ek->tween == SINEW_TWEEN_QUAD_IN || ek->tween == SINEW_TWEEN_QUAD_OUT) {
                    /* A piece of a quadratic is a quadratic: p^2 coefficient of the piece. */
                    double p0 = (t0 - a) / (b - a), p1 = (t1 - a) / (b - a);
                    double e0 = ease(ek, p0), e1 = ease(ek, p1), mid = ease(ek, (p0 + p1) / 2);
                    if (e1 != e0)
                        mk->quad_k = 2 * (e0 + e1 - 2 * mid) / (e1 - e0);
                }
            }
            if (!mk->ease) {
                mk->ease = ek;
            } else if ((mk->ease->tween != ek->tween || mk->ease->strength != ek->strength ||
                        mk->ease->curve_count != ek->curve_count) && !warned_ease) {
                dbw_warn(w, "%s: channels with different easings move in the same span; the 4.5 frame uses one "
                        "(approximation)", what);
                warned_ease = true;
            }
            if (j + 1 == nt && loops(an) && cc->rot && cc->wrap_norm && !warned_wrap) {
                uint32_t last = cc->tl->key_count - 1;
                if (fabs(wrap_delta(cc, last) - (cc->u[0] - cc->u[last])) > 1e-6) {
                    dbw_warn(w, "%s: the loop wrap turns more than half a circle back; 4.5 turns the long way "
                            "(approximation)", what);
                    warned_wrap = true;
                }
            }
        }
        if (step_moves && mk->ease && !warned_ease) {
            /* A stepped channel changes at the end of a span that another channel tweens: the
             * combined 4.5 frame has one easing, so the stepped values tween too. */
            dbw_warn(w, "%s: a stepped channel changes where another one tweens; the 4.5 frame tweens both "
                    "(approximation)", what);
            warned_ease = true;
        }
        /* The last combined span of a looping animation: channels whose last key lies before it
         * would hold on the final loop in the source, but tween from the cut value here. */
        if (j + 1 == nt && an->play_times > 1) {
            for (uint32_t c = 0; c < nch; c++) {
                uint32_t k = key_at(&ch[c], t0);
                if ((double)ch[c].keys[k].position < t0 && key_tweens(&ch[c], k) && chan_moves(an, &ch[c], k) &&
                    !warned_wrap) {
                    dbw_warn(w, "%s: a channel's last tween is cut; its final-loop hold differs (approximation)", what);
                    warned_wrap = true;
                }
            }
        }
    }
    sinew__free(w->a, times, times_size);
    *out_keys = keys;
    *out_vals = vals;
    return (uint32_t)nt;
}

static void easing_json(wctx *w, cJSON *f, const merged_key *mk) {
    const sinew_model_keyframe *k = mk->ease;
    if (!k || mk->dur <= 0)
        return;
    if (!isnan(mk->quad_k)) {
        dbw_num(w, f, "tweenEasing", dbw_sig(-mk->quad_k, 6));
        return;
    }
    switch (k->tween) {
    case SINEW_TWEEN_LINEAR: dbw_num(w, f, "tweenEasing", 0); break;
    case SINEW_TWEEN_QUAD_IN: dbw_num(w, f, "tweenEasing", -dbw_fnum(w, k->strength)); break;
    case SINEW_TWEEN_QUAD_OUT: dbw_num(w, f, "tweenEasing", dbw_fnum(w, k->strength)); break;
    case SINEW_TWEEN_QUAD_IN_OUT: dbw_num(w, f, "tweenEasing", 1 + dbw_fnum(w, k->strength)); break;
    case SINEW_TWEEN_CURVE: {
        if (k->curve_sampled && (double)k->curve_count != mk->dur + 1) { /* cut (warned): its line */
            dbw_num(w, f, "tweenEasing", 0);
            break;
        }
        cJSON *a = dbw_arr(w, f, "curve");
        if (k->curve_sampled) { /* a DBBin source's curve: its samples */
            sinew__dbw_sampled_curve_json(w, a, w->anim->curves + k->curve_first, k->curve_count);
            break;
        }
        for (uint32_t i = 0; i < k->curve_count; i++)
            dbw_push_num(w, a, dbw_fnum(w, w->anim->curves[k->curve_first + i]));
        break;
    }
    default: break;
    }
}

/* For step keys, a source keyframe's raw tweenEasing still matters for nothing; nothing written. */

/* A timeline's own clock in o, where it has one: "scale" unless 1, "offset" unless 0. */
static void timeline_clock(wctx *w, cJSON *o, const sinew_model_timeline *tl) {
    if (tl->scale != 1)
        dbw_num(w, o, "scale", dbw_fnum(w, tl->scale));
    if (tl->offset != 0)
        dbw_num(w, o, "offset", dbw_fnum(w, tl->offset));
}

static void frame_actions_json(wctx *w, cJSON *f, const sinew_model_animation *an, const sinew_model_action_frame *af,
                               uint32_t bone);

static void bone_timelines(wctx *w, cJSON *out, const sinew_model_animation *an, uint32_t bone) {
    const sinew_model_armature *arm = w->arm;
    chan ch[6];
    uint32_t nch = 0;
    for (uint32_t t = 0; t < an->timeline_count && nch < 6; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        if (tl->target != bone || tl->key_count == 0)
            continue;
        const sinew_model_keyframe *keys = &an->keys[tl->first_key];
        chan base;
        memset(&base, 0, sizeof base);
        base.tl = tl;
        base.keys = keys;
        switch (tl->type) {
        case SINEW_TL_BONE_ALL:
            if (nch + 3 > 6)
                continue;
            base.nv = 2;
            ch[nch] = base, ch[nch].src = 0, ch[nch].dst = 0, nch++;
            ch[nch] = base, ch[nch].src = 2, ch[nch].dst = 2, ch[nch].rot = true, nch++;
            ch[nch] = base, ch[nch].src = 4, ch[nch].dst = 4, nch++;
            break;
        case SINEW_TL_BONE_TRANSLATE: base.nv = 2, base.dst = 0; ch[nch++] = base; break;
        case SINEW_TL_BONE_ROTATE:
            base.nv = 2, base.dst = 2, base.rot = true, base.wrap_norm = !tl->rotation_plain;
            ch[nch++] = base;
            break;
        case SINEW_TL_BONE_SCALE: base.nv = 2, base.dst = 4; ch[nch++] = base; break;
        default: break;
        }
    }
    if (!nch)
        return;
    const sinew_model_timeline *first = ch[0].tl;
    for (uint32_t c = 1; c < nch; c++)
        if (ch[c].tl->scale != first->scale || ch[c].tl->offset != first->offset) {
            dbw_warn(w, "bone '%s': its channels have different timeline scale/offset; the first one is used",
                 arm->bones[bone].name);
            break;
        }
    for (uint32_t c = 0; c < nch; c++)
        if (ch[c].rot && !unwrap_chan(w, &ch[c])) {
            for (uint32_t d = 0; d < c; d++)
                if (ch[d].rot)
                    free_unwrapped(w, &ch[d]);
            return;
        }
    static const double defaults[6] = {0, 0, 0, 0, 1, 1};
    char what[160];
    snprintf(what, sizeof what, "bone '%s'", arm->bones[bone].name);
    merged_key *keys = NULL;
    double *vals = NULL;
    uint32_t nk = merge(w, an, ch, nch, 6, defaults, what, &keys, &vals);
    if (nk) {
        cJSON *tl = dbw_obj(w, out, NULL);
        dbw_str(w, tl, "name", arm->bones[bone].name);
        timeline_clock(w, tl, first);
        if (first->pivot_x != 0)
            dbw_num(w, tl, "pX", dbw_fnum(w, first->pivot_x));
        if (first->pivot_y != 0)
            dbw_num(w, tl, "pY", dbw_fnum(w, first->pivot_y));
        cJSON *frames = dbw_arr(w, tl, "frame");
        double prev_u = 0, prev_r = 0, prev_deg = 0;
        cJSON **fobjs = sinew__calloc(w->a, nk, sizeof *fobjs);
        if (!fobjs)
            w->nomem = true;
        for (uint32_t j = 0; fobjs && j < nk; j++) {
            const double *v = &vals[(size_t)j * 6];
            cJSON *f = dbw_obj(w, frames, NULL);
            fobjs[j] = f;
            dbw_num(w, f, "duration", dbw_sig(keys[j].dur, 9));
            easing_json(w, f, &keys[j]);
            /* Each angle is written as the previous one plus the short-way step, so that a step of
             * whole turns repeats the previous number exactly: the runtime's "same angle" test
             * (rotation >= previous) then does not depend on the last bit. */
            double deg;
            if (j == 0) {
                deg = dbw_sig(dbw_rad2deg(v[2]), 7);
            } else {
                double step = sinew__db_normalize_radian(v[2] - prev_r);
                deg = fabs(step) < 1e-9 ? prev_deg : dbw_sig(prev_deg + dbw_rad2deg(step), 7);
            }
            prev_deg = deg;
            if (j == 0) {
                prev_u = sinew__db_unwrap_first(deg);
            } else {
                int32_t tr = sinew__db_tween_rotate_for(&prev_u, deg, v[2] - prev_r);
                if (tr != 0)
                    dbw_num(w, fobjs[j - 1], "tweenRotate", tr);
            }
            prev_r = v[2];
            double skx_rad = v[3] + sinew__db_normalize_radian(deg * (DB_PI / 180.0));
            if (fabs(skx_rad) > DB_PI + 1e-9)
                dbw_warn(w, "%s: a skew that the 4.5 transform cannot hold exactly", what);
            cJSON *t = dbw_obj(w, f, "transform");
            if (v[0] != 0)
                dbw_num(w, t, "x", dbw_sig(v[0], 9));
            if (v[1] != 0)
                dbw_num(w, t, "y", dbw_sig(v[1], 9));
            if (deg != 0 || v[3] != 0) {
                dbw_num(w, t, "skX", v[3] != 0 ? dbw_sig(dbw_rad2deg(skx_rad), 7) : deg);
                dbw_num(w, t, "skY", deg);
            }
            if (v[4] != 1)
                dbw_num(w, t, "scX", dbw_sig(v[4], 9));
            if (v[5] != 1)
                dbw_num(w, t, "scY", dbw_sig(v[5], 9));
            for (uint32_t q = 0; q < an->action_frame_count; q++)
                if ((double)an->action_frames[q].position == keys[j].pos)
                    frame_actions_json(w, f, an, &an->action_frames[q], bone);
        }
        sinew__free(w->a, fobjs, nk * sizeof *fobjs);
    }
    sinew__free(w->a, keys, nk * sizeof *keys);
    sinew__free(w->a, vals, (size_t)nk * 6 * sizeof *vals);
    for (uint32_t c = 0; c < nch; c++)
        if (ch[c].u)
            free_unwrapped(w, &ch[c]);
}

static void slot_timelines(wctx *w, cJSON *out, const sinew_model_animation *an, uint32_t slot) {
    const sinew_model_armature *arm = w->arm;
    chan ch[2];
    uint32_t nch = 0;
    bool has_display = false, has_color = false;
    for (uint32_t t = 0; t < an->timeline_count && nch < 2; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        if (tl->target != slot || tl->key_count == 0 ||
            (tl->type != SINEW_TL_SLOT_DISPLAY && tl->type != SINEW_TL_SLOT_COLOR))
            continue;
        chan c;
        memset(&c, 0, sizeof c);
        c.tl = tl;
        c.keys = &an->keys[tl->first_key];
        if (tl->type == SINEW_TL_SLOT_DISPLAY) {
            if (has_display)
                continue;
            has_display = true;
            c.nv = 1, c.dst = 0, c.step_only = true;
        } else {
            if (has_color)
                continue;
            has_color = true;
            c.nv = 8, c.dst = 1;
        }
        ch[nch++] = c;
    }
    if (!nch)
        return;
    const sinew_model_slot *sl = &arm->slots[slot];
    const double defaults[9] = {sl->display_index, sl->color.a_mul, sl->color.r_mul, sl->color.g_mul,
                                sl->color.b_mul, sl->color.a_add, sl->color.r_add, sl->color.g_add,
                                sl->color.b_add};
    char what[160];
    snprintf(what, sizeof what, "slot '%s'", sl->name);
    merged_key *keys = NULL;
    double *vals = NULL;
    uint32_t nk = merge(w, an, ch, nch, 9, defaults, what, &keys, &vals);
    if (nk) {
        cJSON *tl = dbw_obj(w, out, NULL);
        dbw_str(w, tl, "name", sl->name);
        timeline_clock(w, tl, ch[0].tl);
        cJSON *frames = dbw_arr(w, tl, "frame");
        for (uint32_t j = 0; j < nk; j++) {
            const double *v = &vals[(size_t)j * 9];
            cJSON *f = dbw_obj(w, frames, NULL);
            dbw_num(w, f, "duration", dbw_sig(keys[j].dur, 9));
            easing_json(w, f, &keys[j]);
            dbw_num(w, f, "displayIndex", round(v[0]));
            sinew_color_transform c = {(float)v[1], (float)v[2], (float)v[3], (float)v[4],
                                       (float)v[5], (float)v[6], (float)v[7], (float)v[8]};
            if (!dbw_color_identity(&c))
                dbw_color_json(w, f, "color", &c);
            const sinew_model_keyframe *src = NULL;
            for (uint32_t q = 0; q < nch; q++)
                if (ch[q].step_only) {
                    uint32_t k = key_at(&ch[q], keys[j].pos);
                    if ((double)ch[q].keys[k].position == keys[j].pos)
                        src = &ch[q].keys[k];
                }
            if (src && src->action_count)
                dbw_actions_json(w, f, "actions", src->first_action, src->action_count);
            if (keys[j].src0 && keys[j].src0->hide >= 0)
                dbw_num(w, f, "hide", keys[j].src0->hide);
        }
    }
    sinew__free(w->a, keys, nk * sizeof *keys);
    sinew__free(w->a, vals, (size_t)nk * 9 * sizeof *vals);
}

/* Key k of a one-channel timeline as a frame object appended to `frames` with its "duration" (to
 * the next key, or to the animation's end); *mk is the key as a span (its easing for easing_json). */
static cJSON *key_frame(wctx *w, cJSON *frames, const sinew_model_animation *an, const sinew_model_timeline *tl,
                        uint32_t k, merged_key *mk) {
    const sinew_model_keyframe *key = &an->keys[tl->first_key + k];
    double end = k + 1 < tl->key_count ? (double)an->keys[tl->first_key + k + 1].position : (double)an->duration;
    cJSON *f = dbw_obj(w, frames, NULL);
    *mk = (merged_key){key->position, end - key->position, key->tween ? key : NULL, NAN, 0, key};
    dbw_num(w, f, "duration", dbw_sig(mk->dur > 0 ? mk->dur : 0, 9));
    return f;
}

/* The frames of an ffd or surface timeline: each key's values as `offset` + `vertices` (the run
 * between the first and the last non-zero value). `always`: an all-zero key still gets an empty
 * `vertices` (the official parser fails on a surface frame without one). */
static void vertex_frames(wctx *w, cJSON *o, const sinew_model_animation *an, const sinew_model_timeline *tl,
                          bool always) {
    cJSON *frames = dbw_arr(w, o, "frame");
    for (uint32_t k = 0; k < tl->key_count; k++) {
        merged_key mk;
        cJSON *f = key_frame(w, frames, an, tl, k, &mk);
        easing_json(w, f, &mk);
        const float *v = &tl->values[mk.src0->value];
        uint32_t n = tl->values_per_key, lo = 0, hi = n;
        while (lo < n && v[lo] == 0)
            lo++;
        while (hi > lo && v[hi - 1] == 0)
            hi--;
        if (lo < hi) {
            dbw_num(w, f, "offset", lo);
            cJSON *a = dbw_arr(w, f, "vertices");
            for (uint32_t i = lo; i < hi; i++)
                dbw_push_num(w, a, dbw_fnum(w, v[i]));
        } else if (always) {
            dbw_arr(w, f, "vertices");
        }
    }
}

static void ffd_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    cJSON *o = sinew__dbw_ffd_object(w, out, tl, true);
    if (!o)
        return;
    timeline_clock(w, o, tl);
    vertex_frames(w, o, an, tl, false);
}

/* A 5.5 surface timeline: the surface's name and its lattice offsets per key. */
static void surface_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    const sinew_model_armature *arm = w->arm;
    if (tl->target >= arm->bone_count)
        return;
    cJSON *o = dbw_obj(w, out, NULL);
    dbw_str(w, o, "name", arm->bones[tl->target].name);
    timeline_clock(w, o, tl);
    vertex_frames(w, o, an, tl, true);
}

static void simple_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    const sinew_model_armature *arm = w->arm;
    if (tl->type == SINEW_TL_IK && tl->target >= arm->ik_count)
        return;
    cJSON *o = tl->type == SINEW_TL_IK ? dbw_obj(w, out, NULL) : out;
    if (tl->type == SINEW_TL_IK)
        dbw_str(w, o, "name", arm->iks[tl->target].name);
    cJSON *frames = dbw_arr(w, o, "frame");
    bool warned_order = false;
    for (uint32_t k = 0; k < tl->key_count; k++) {
        merged_key mk;
        cJSON *f = key_frame(w, frames, an, tl, k, &mk);
        const float *v = &tl->values[mk.src0->value];
        if (tl->type == SINEW_TL_IK) {
            easing_json(w, f, &mk);
            dbw_num(w, f, "weight", dbw_fnum(w, v[0]));
            if (!(v[1] != 0))
                cJSON_AddFalseToObject(f, "bendPositive");
        } else { /* zOrder: name every slot with its offset, or nothing for the setup order */
            bool identity = true;
            for (uint32_t i = 0; i < tl->values_per_key; i++)
                identity = identity && (uint32_t)v[i] == i;
            if (!identity) {
                cJSON *a = dbw_arr(w, f, "zOrder");
                size_t pos_size = sizeof(int32_t) * (tl->values_per_key ? tl->values_per_key : 1);
                int32_t *pos = sinew__alloc(w->a, pos_size);
                if (!pos) {
                    w->nomem = true;
                    return;
                }
                bool permutation = true;
                for (uint32_t p = 0; p < tl->values_per_key; p++)
                    pos[p] = -1;
                for (uint32_t p = 0; p < tl->values_per_key; p++) {
                    uint32_t s = (uint32_t)v[p];
                    if (s < tl->values_per_key) {
                        permutation = permutation && pos[s] < 0;
                        pos[s] = (int32_t)p;
                    }
                }
                for (uint32_t s = 0; s < tl->values_per_key; s++) {
                    permutation = permutation && pos[s] >= 0;
                    if (pos[s] < 0)
                        pos[s] = (int32_t)s;
                }
                if (!permutation && !warned_order) {
                    dbw_warn(w, "zOrder: a key moves slots past the ends or onto one place; 4.5 pairs can only "
                            "approximate the order it gives (approximation)");
                    warned_order = true;
                }
                for (uint32_t s = 0; s < tl->values_per_key; s++) {
                    dbw_push_num(w, a, s);
                    dbw_push_num(w, a, pos[s] - (int32_t)s);
                }
                sinew__free(w->a, pos, pos_size);
            }
        }
    }
}

/* True when the action is written with a slot display keyframe (slot_timelines) already. */
static bool written_with_slot_frame(const wctx *w, const sinew_model_animation *an, const sinew_model_action *ac,
                                    float position) {
    const sinew_model_armature *arm = w->arm;
    if (ac->slot == SINEW_INVALID_INDEX)
        return false;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        if (tl->type != SINEW_TL_SLOT_DISPLAY || tl->target != ac->slot)
            continue;
        for (uint32_t k = 0; k < tl->key_count; k++) {
            const sinew_model_keyframe *key = &an->keys[tl->first_key + k];
            if (key->position != position)
                continue;
            for (uint32_t i = 0; i < key->action_count; i++) {
                const sinew_model_action *b = &arm->actions[key->first_action + i];
                if (b == ac || (b->type == ac->type && strcmp(b->name ? b->name : "", ac->name ? ac->name : "") == 0))
                    return true;
            }
        }
    }
    return false;
}

/* True when bone `bone` has a timeline key at `position` in animation `an` (4.x bone-frame actions
 * are written back into that frame, where the official parser reads them in its own order). */
static bool bone_has_key_at(const wctx *w, const sinew_model_animation *an, uint32_t bone, float position) {
    const sinew_model_armature *arm = w->arm;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        if (tl->target != bone || (tl->type != SINEW_TL_BONE_ALL && tl->type != SINEW_TL_BONE_TRANSLATE &&
                                   tl->type != SINEW_TL_BONE_ROTATE && tl->type != SINEW_TL_BONE_SCALE))
            continue;
        for (uint32_t k = 0; k < tl->key_count; k++)
            if (an->keys[tl->first_key + k].position == position)
                return true;
    }
    return false;
}

static bool written_with_bone_frame(const wctx *w, const sinew_model_animation *an, const sinew_model_action *ac,
                                    float position) {
    /* 4.x files keep bone-tagged actions in bone frames (the parser reads them after the
     * animation-level frames, which decides their order); 5.x files keep them in animation frames. */
    bool from_bone_frames = w->data->version && w->data->version[0] == '4';
    return from_bone_frames && ac->bone != SINEW_INVALID_INDEX && ac->bone < w->arm->bone_count &&
           bone_has_key_at(w, an, ac->bone, position);
}

/* Writes actions as 4.x frame keys: `event` / `sound` / `action` strings when there is one of a
 * kind without user data, `events` / `actions` arrays otherwise. `bone` (or INVALID) is the bone
 * whose frame holds them; NULL filter = all. */
static void frame_actions_json(wctx *w, cJSON *f, const sinew_model_animation *an, const sinew_model_action_frame *af,
                               uint32_t bone) {
    const sinew_model_armature *arm = w->arm;
    uint32_t events = 0, sounds = 0, plays = 0;
    for (uint32_t pass = 0; pass < 2; pass++) {
        cJSON *evs = NULL, *acts = NULL;
        for (uint32_t k = 0; k < af->action_count; k++) {
            const sinew_model_action *ac = &arm->actions[af->first_action + k];
            if (written_with_slot_frame(w, an, ac, af->position))
                continue;
            bool in_bone = written_with_bone_frame(w, an, ac, af->position);
            if (bone == SINEW_INVALID_INDEX ? in_bone : (!in_bone || ac->bone != bone))
                continue;
            if (pass == 0) {
                events += ac->type == SINEW_ACTION_FRAME_EVENT;
                sounds += ac->type == SINEW_ACTION_SOUND;
                plays += ac->type == SINEW_ACTION_PLAY;
                continue;
            }
            /* In a bone frame the parser tags the bone (and its same-named slot) itself. */
            bool tagged = bone == SINEW_INVALID_INDEX && (ac->bone != SINEW_INVALID_INDEX || ac->slot != SINEW_INVALID_INDEX);
            bool simple = ac->int_count == 0 && ac->float_count == 0 && ac->string_count == 0 && !tagged;
            if (ac->type == SINEW_ACTION_FRAME_EVENT && events == 1 && simple) {
                dbw_str(w, f, "event", ac->name);
            } else if (ac->type == SINEW_ACTION_SOUND && sounds == 1 && simple) {
                dbw_str(w, f, "sound", ac->name);
            } else if (ac->type == SINEW_ACTION_PLAY && plays == 1 && simple) {
                dbw_str(w, f, "action", ac->name);
            } else {
                bool is_event = ac->type == SINEW_ACTION_FRAME_EVENT || ac->type == SINEW_ACTION_SOUND;
                cJSON **list = is_event ? &evs : &acts;
                if (!*list)
                    *list = dbw_arr(w, f, is_event ? "events" : "actions");
                cJSON *e = dbw_obj(w, *list, NULL);
                if (ac->type == SINEW_ACTION_PLAY)
                    dbw_str(w, e, "gotoAndPlay", ac->name);
                else
                    dbw_str(w, e, "name", ac->name);
                if (ac->type == SINEW_ACTION_SOUND)
                    dbw_str(w, e, "type", "sound");
                if (ac->type == SINEW_ACTION_STOP || ac->type == SINEW_ACTION_FADE_IN)
                    dbw_str(w, e, "type", ac->type == SINEW_ACTION_STOP ? "stop" : "fadeIn");
                if (tagged && ac->bone != SINEW_INVALID_INDEX && ac->bone < arm->bone_count)
                    dbw_str(w, e, "bone", arm->bones[ac->bone].name);
                if (tagged && ac->slot != SINEW_INVALID_INDEX && ac->slot < arm->slot_count)
                    dbw_str(w, e, "slot", arm->slots[ac->slot].name);
                if (ac->int_count) {
                    cJSON *a = dbw_arr(w, e, "ints");
                    for (uint32_t q = 0; q < ac->int_count; q++)
                        dbw_push_num(w, a, ac->ints[q]);
                }
                if (ac->float_count) {
                    cJSON *a = dbw_arr(w, e, "floats");
                    for (uint32_t q = 0; q < ac->float_count; q++)
                        dbw_push_num(w, a, dbw_fnum(w, ac->floats[q]));
                }
                if (ac->string_count) {
                    cJSON *a = dbw_arr(w, e, "strings");
                    for (uint32_t q = 0; q < ac->string_count; q++) {
                        cJSON *sj = cJSON_CreateString(ac->strings[q] ? ac->strings[q] : "");
                        if (sj && a)
                            cJSON_AddItemToArray(a, sj);
                        else
                            cJSON_Delete(sj);
                    }
                }
            }
        }
    }
}

static void action_frames(wctx *w, cJSON *anim_json, const sinew_model_animation *an) {
    if (!an->action_frame_count)
        return;
    cJSON *frames = dbw_arr(w, anim_json, "frame");
    double at = 0;
    for (uint32_t i = 0; i < an->action_frame_count; i++) {
        const sinew_model_action_frame *af = &an->action_frames[i];
        double pos = (double)af->position;
        if (pos > at) { /* an empty frame up to this one */
            cJSON *e = dbw_obj(w, frames, NULL);
            dbw_num(w, e, "duration", dbw_sig(pos - at, 9));
            at = pos;
        }
        double next = i + 1 < an->action_frame_count ? (double)an->action_frames[i + 1].position : (double)an->duration;
        cJSON *f = dbw_obj(w, frames, NULL);
        dbw_num(w, f, "duration", dbw_sig(next > pos ? next - pos : 0, 9));
        at = next > pos ? next : pos;
        frame_actions_json(w, f, an, af, SINEW_INVALID_INDEX);
    }
}

void sinew__dbw45_animation(wctx *w, cJSON *out, const sinew_model_animation *an) {
    const sinew_model_armature *arm = w->arm;
    w->anim = an;
    cJSON *a = dbw_obj(w, out, NULL);
    dbw_str(w, a, "name", an->name);
    dbw_num(w, a, "duration", dbw_sig(an->duration, 9));
    dbw_num(w, a, "playTimes", an->play_times);
    if (an->fade_in_time >= 0)
        dbw_num(w, a, "fadeInTime", dbw_sig(an->fade_in_time, 15));
    if (an->scale != 1)
        dbw_num(w, a, "scale", dbw_sig(an->scale, 15));
    if (an->auto_tween >= 0)
        dbw_num(w, a, "autoTween", an->auto_tween);
    dbw_user_data(w, a, an->user_data);
    action_frames(w, a, an);
    cJSON *bones = dbw_arr(w, a, "bone");
    for (uint32_t b = 0; b < arm->bone_count; b++)
        bone_timelines(w, bones, an, b);
    cJSON *slots = dbw_arr(w, a, "slot");
    for (uint32_t s = 0; s < arm->slot_count; s++)
        slot_timelines(w, slots, an, s);
    cJSON *ffd = NULL, *ik = NULL, *surface = NULL;
    bool bone_seen_other = false;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        switch (tl->type) {
        case SINEW_TL_FFD:
            if (!ffd)
                ffd = dbw_arr(w, a, "ffd");
            ffd_timeline(w, ffd, an, tl);
            break;
        case SINEW_TL_IK:
            if (!ik)
                ik = dbw_arr(w, a, "ik");
            simple_timeline(w, ik, an, tl);
            break;
        case SINEW_TL_ZORDER:
            simple_timeline(w, dbw_obj(w, a, "zOrder"), an, tl);
            break;
        case SINEW_TL_SURFACE:
            if (!surface)
                surface = dbw_arr(w, a, "surface");
            surface_timeline(w, surface, an, tl);
            break;
        default: bone_seen_other = true; break;
        }
    }
    (void)bone_seen_other;
    w->anim = NULL;
}
