/* Spine: animations. Each DragonBones timeline is resampled into Spine keys (linear or stepped),
 * on the animation's clock. Part of the Spine writer (export/spine_internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/spine_internal.h"

/* ---- timelines -------------------------------------------------------------------------------- */

#define SAMPLE_TOL_UNITS 0.005 /* positions (px) and deform offsets */
#define SAMPLE_TOL_DEG 0.001  /* angles */
#define SAMPLE_TOL_SCALE 0.00005
#define SAMPLE_MAX 2048        /* sub-keys per tween at most */


static void map_translate(const channel *ch, const float *raw, double *out) {
    out[0] = raw[ch->idx[0]];
    out[1] = -(double)raw[ch->idx[1]];
}
static void map_rotate(const channel *ch, const float *raw, double *out) {
    out[0] = -(double)raw[ch->idx[0]] * RAD2DEG;
}
static void map_shear(const channel *ch, const float *raw, double *out) {
    out[0] = 0.0;
    out[1] = -(double)raw[ch->idx[0]] * RAD2DEG;
}
static void map_scale(const channel *ch, const float *raw, double *out) {
    out[0] = raw[ch->idx[0]];
    out[1] = raw[ch->idx[1]];
}
static void map_ik(const channel *ch, const float *raw, double *out) {
    (void)ch;
    out[0] = raw[0] * 0.01;
    out[1] = raw[1];
}
static void map_color(const channel *ch, const float *raw, double *out) {
    (void)ch;
    for (int i = 0; i < 4; ++i)
        out[i] = raw[i] * 0.01; /* a r g b multipliers */
}
/* FFD: slot-space offsets per vertex -> Spine offsets (bone space per vertex, or per influence
 * for a weighted mesh). */
static void map_deform(const channel *ch, const float *raw, double *out) {
    const sinew_model_mesh *me = ch->mesh;
    if (!me->weighted) {
        const double *m = ch->dm;
        for (uint32_t i = 0; i < me->vertex_count; ++i) {
            double dx = raw[2 * i], dy = raw[2 * i + 1];
            out[2 * i] = m[0] * dx + m[2] * dy;
            out[2 * i + 1] = -(m[1] * dx + m[3] * dy);
        }
        return;
    }
    for (uint32_t v = 0; v < me->vertex_count; ++v) {
        double dx = raw[2 * v], dy = raw[2 * v + 1];
        for (uint32_t k = me->vertex_first_influence[v]; k < me->vertex_first_influence[v + 1]; ++k) {
            const float *d = me->influence_deform ? me->influence_deform + 4 * (size_t)k : NULL;
            double bx = d ? d[0] * dx + d[2] * dy : dx, by = d ? d[1] * dx + d[3] * dy : dy;
            out[2 * k] = bx;
            out[2 * k + 1] = -by;
        }
    }
}


/* Frees the three arrays of `cap` keys of n values each. */
static void kl_free_arrays(sp_ctx *c, double *t, bool *stepped, double *vals, uint32_t cap, uint32_t n) {
    sinew__free(c->a, t, cap * sizeof *t);
    sinew__free(c->a, stepped, cap * sizeof *stepped);
    sinew__free(c->a, vals, (size_t)cap * n * sizeof *vals);
}

bool sinew__sp_kl_push(sp_ctx *c, keylist *kl, double t, bool stepped, const double *v) {
    if (kl->count == kl->cap) { /* all three arrays grow, or none */
        uint32_t nc = kl->cap ? kl->cap * 2 : 16;
        double *nt = sinew__realloc(c->a, NULL, 0, nc * sizeof *nt);
        bool *ns = sinew__realloc(c->a, NULL, 0, nc * sizeof *ns);
        double *nv = sinew__realloc(c->a, NULL, 0, (size_t)nc * kl->n * sizeof *nv);
        if (!nt || !ns || !nv) {
            kl_free_arrays(c, nt, ns, nv, nc, kl->n);
            return false;
        }
        if (kl->count) {
            memcpy(nt, kl->t, kl->count * sizeof *nt);
            memcpy(ns, kl->stepped, kl->count * sizeof *ns);
            memcpy(nv, kl->vals, (size_t)kl->count * kl->n * sizeof *nv);
        }
        kl_free_arrays(c, kl->t, kl->stepped, kl->vals, kl->cap, kl->n);
        kl->t = nt;
        kl->stepped = ns;
        kl->vals = nv;
        kl->cap = nc;
    }
    kl->t[kl->count] = t;
    kl->stepped[kl->count] = stepped;
    memcpy(kl->vals + (size_t)kl->count * kl->n, v, kl->n * sizeof *v);
    kl->count++;
    return true;
}

void sinew__sp_kl_free(sp_ctx *c, keylist *kl) {
    kl_free_arrays(c, kl->t, kl->stepped, kl->vals, kl->cap, kl->n);
    memset(kl, 0, sizeof *kl);
}

static double quad_strength(const sinew_model_keyframe *k) {
    double te = k->tween_easing;
    if (!isfinite(te))
        return k->strength;
    /* the official parser: strength = round(+-tweenEasing * 100) / 100 per tween kind */
    switch (k->tween) {
    case SINEW_TWEEN_QUAD_IN:
        return floor(-te * 100.0 + 0.5) * 0.01;
    case SINEW_TWEEN_QUAD_OUT:
        return floor(te * 100.0 + 0.5) * 0.01;
    case SINEW_TWEEN_QUAD_IN_OUT:
        return floor(te * 100.0 - 100.0 + 0.5) * 0.01;
    default:
        return 0.0;
    }
}

static double quad_ease(int type, double p, double e) {
    double v = p;
    if (type == SINEW_TWEEN_QUAD_IN)
        v = p * p;
    else if (type == SINEW_TWEEN_QUAD_OUT)
        v = 1.0 - (1.0 - p) * (1.0 - p);
    else if (type == SINEW_TWEEN_QUAD_IN_OUT)
        v = 0.5 * (1.0 - cos(p * SP_PI));
    return (v - p) * e + p;
}

bool sinew__sp_loops(const sinew_model_animation *an) { return an->play_times != 1; }

/* Builds the Spine keys of DragonBones timeline T through channel ch, on the timeline's own clock. */
bool sinew__sp_build_local_keys(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl) {
    const sinew_model_animation *an = c->anim;
    double fr = c->arm->frame_rate;
    uint32_t G = T->grid_key_count;
    kl->n = ch->n;
    if (G == 0 || !T->run_values)
        return true;
    const sinew_model_keyframe *keys = an->keys + T->first_key;
    uint32_t vpk = T->values_per_key;
    size_t v0_count = (size_t)ch->n * 3 + 1;
    double *v0 = sinew__calloc(c->a, v0_count, sizeof *v0);
    if (!v0)
        return false;
    double *v1 = v0 + ch->n, *vv = v1 + ch->n;
    double end_t = an->frame_count / fr;
    bool ok = true;
    for (uint32_t k = 0; k < G && ok; ++k) {
        const sinew_model_keyframe *kf = &keys[k];
        double t0 = kf->frame_start / fr;
        bool last = k == G - 1;
        double t1 = last ? end_t : keys[k + 1].frame_start / fr;
        ch->map(ch, T->run_values + (size_t)k * vpk, v0);
        uint8_t type = kf->frame_span > 0 && !ch->step ? kf->tween : SINEW_TWEEN_NONE;
        if (type == SINEW_TWEEN_CURVE && kf->sample_count == 0)
            type = SINEW_TWEEN_LINEAR;
        if (last && (G == 1 || !sinew__sp_loops(an)))
            type = SINEW_TWEEN_NONE;
        if (type != SINEW_TWEEN_NONE) {
            ch->map(ch, T->run_values + (size_t)(last ? 0 : k + 1) * vpk, v1);
            if (last && ch->wrap_normalize) {
                double d = (v1[0] - v0[0]) / RAD2DEG;
                d = fmod(d + SP_PI, SP_PI * 2.0);
                d += d > 0.0 ? -SP_PI : SP_PI;
                v1[0] = v0[0] + d * RAD2DEG;
            }
        }
        if (type == SINEW_TWEEN_NONE || type == SINEW_TWEEN_LINEAR) {
            ok = sinew__sp_kl_push(c, kl, t0, type == SINEW_TWEEN_NONE, v0);
        } else if (type == SINEW_TWEEN_CURVE) {
            const float *smp = an->samples + kf->sample_first;
            uint32_t segs = kf->sample_count + 1;
            for (uint32_t i = 0; i < segs && ok; ++i) {
                double e = i == 0 ? 0.0 : smp[i - 1] * 0.0001;
                for (uint32_t j = 0; j < ch->n; ++j)
                    vv[j] = v0[j] + (v1[j] - v0[j]) * e;
                ok = sinew__sp_kl_push(c, kl, t0 + (t1 - t0) * i / segs, false, vv);
            }
        } else {
            /* linear pieces over [0, 1]: the error of a piece of width h is at most
               |f''| h^2 / 8 times the value change */
            double e = quad_strength(kf), dmax = 0.0;
            for (uint32_t j = 0; j < ch->n; ++j)
                dmax = fmax(dmax, fabs(v1[j] - v0[j]));
            double curv = (type == SINEW_TWEEN_QUAD_IN_OUT ? SP_PI * SP_PI * 0.5 : 2.0) * fabs(e);
            double need = sqrt(curv * dmax / (8.0 * ch->tol));
            uint32_t span = kf->frame_span ? kf->frame_span : 1;
            uint32_t steps = span;
            while (steps < need && steps < SAMPLE_MAX)
                steps += span;
            for (uint32_t i = 0; i < steps && ok; ++i) {
                double p = (double)i / steps, q = quad_ease(type, p, e);
                for (uint32_t j = 0; j < ch->n; ++j)
                    vv[j] = v0[j] + (v1[j] - v0[j]) * q;
                ok = sinew__sp_kl_push(c, kl, t0 + (t1 - t0) * p, false, vv);
            }
        }
        if (ok && last && t1 > t0) /* close at the animation's end so Spine's duration matches */
            ok = sinew__sp_kl_push(c, kl, t1, true, type == SINEW_TWEEN_NONE ? v0 : v1);
    }
    sinew__free(c->a, v0, v0_count * sizeof *v0);
    return ok;
}

static void kl_simplify(keylist *kl);

/* The value of a key list at time x (keys are linear or hold). */
static void kl_eval(const keylist *kl, double x, double *out, bool *stepped) {
    uint32_t i = 0;
    while (i + 1 < kl->count && kl->t[i + 1] <= x)
        i++;
    const double *a = kl->vals + (size_t)i * kl->n;
    *stepped = kl->stepped[i];
    if (i + 1 >= kl->count || kl->stepped[i] || kl->t[i + 1] <= kl->t[i] || x <= kl->t[i]) {
        memcpy(out, a, kl->n * sizeof *out);
        return;
    }
    const double *b = a + kl->n;
    double p = (x - kl->t[i]) / (kl->t[i + 1] - kl->t[i]);
    for (uint32_t j = 0; j < kl->n; ++j)
        out[j] = a[j] + (b[j] - a[j]) * p;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bool sinew__sp_times_push(sp_ctx *c, sp_times *l, double t) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        double *nt = sinew__realloc(c->a, l->t, l->cap * sizeof *nt, nc * sizeof *nt);
        if (!nt)
            return false;
        l->t = nt;
        l->cap = nc;
    }
    l->t[l->n++] = t;
    return true;
}

void sinew__sp_times_sort(sp_times *l) {
    if (l->n)
        qsort(l->t, l->n, sizeof *l->t, cmp_double);
}

void sinew__sp_times_free(sp_ctx *c, sp_times *l) {
    sinew__free(c->a, l->t, l->cap * sizeof *l->t);
    memset(l, 0, sizeof *l);
}

/* The clock timeline T runs on in the animation being written: its scale s and offset o as the
 * official runtime keeps them (round(100 s), round(100 o)), the animation's duration, and the
 * animation time at which a finite playTimes is over for it (infinity for a loop). */
void sinew__sp_clock_of(const sp_ctx *c, const sinew_model_timeline *T, sp_clock *k) {
    const sinew_model_animation *an = c->anim;
    double s100 = floor((double)T->scale * 100.0 + 0.5);
    k->ts = s100 != 0.0 ? 100.0 / s100 : 1.0;
    k->off = floor((double)T->offset * 100.0 + 0.5) * 0.01;
    k->D = an->frame_count / (double)c->arm->frame_rate;
    k->clamp = an->play_times > 0 ? (an->play_times * k->D - k->off * k->D) / k->ts : INFINITY;
}

/* Appends to l the animation times in (0, D), before clock k's plays are over, at which the
 * timeline passes each of the times tau[0..count) of its own clock (in [0, D]) and each wrap. */
bool sinew__sp_clock_times(sp_ctx *c, const sp_clock *k, const double *tau, uint32_t count, sp_times *l) {
    double D = k->D;
    double first_cycle = floor(k->off), last_cycle = floor((D * k->ts + k->off * D) / D) + 1;
    for (double m = first_cycle; m <= last_cycle; m += 1.0) {
        for (uint32_t i = 0; i <= count; ++i) {
            double x = i < count ? tau[i] : D; /* i == count: the wrap */
            double t = (x + m * D - k->off * D) / k->ts;
            if (t > 0.0 && t < D && t < k->clamp && !sinew__sp_times_push(c, l, t))
                return false;
        }
    }
    return true;
}

/* The time on a timeline's own clock (its keys loc) at raw, its unwrapped time: raw wrapped into
 * [0, D); -1 at a wrap. Within 1e-9 D of a key's time or of a wrap it is that key's time or the
 * wrap: raw comes from the animation's time through the timeline's scale and offset, whose
 * rounding must not take a held key's value from the key before it. */
static double local_time(const keylist *loc, double raw, double D) {
    double eps = 1e-9 * D, tau = raw - floor(raw / D) * D;
    if (tau < eps || D - tau < eps)
        return -1.0;
    uint32_t lo = 0, hi = loc->count; /* the first key at or after tau - eps */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (loc->t[mid] < tau - eps)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < loc->count && loc->t[lo] - tau < eps ? loc->t[lo] : tau;
}

/*
 * Builds the Spine keys of DragonBones timeline T through channel ch, on the animation's clock. A
 * timeline with a scale s or an offset o runs on its own clock: at animation time t it is at
 * (t * 100 / round(100 s) + round(100 o) / 100 * D) wrapped into the animation's duration D (held
 * at the end once a finite playTimes is over), as the official runtime computes it. The keys on
 * that clock are mapped back: each key at every time the timeline passes it, plus a key at every
 * wrap (its last value, then its first at the same time).
 */
static bool build_keys_for(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl) {
    keylist loc;
    memset(&loc, 0, sizeof loc);
    if (!sinew__sp_build_local_keys(c, T, ch, &loc)) {
        sinew__sp_kl_free(c, &loc);
        return false;
    }
    const sinew_model_animation *an = c->anim;
    sp_clock ck;
    sinew__sp_clock_of(c, T, &ck);
    double ts = ck.ts, off = ck.off, D = ck.D, t_end = D;
    if (T->grid_key_count <= 1 || loc.count == 0 || (ts == 1.0 && off == 0.0)) {
        *kl = loc;
        kl_simplify(kl);
        return true;
    }
    kl->n = ch->n;
    if (sinew__sp_loops(an) && ts != floor(ts))
        sinew__sp_warn(c, "a timeline's scale %g does not repeat with the animation: Spine repeats its first play",
             (double)T->scale);
    /* the animation times where something happens on the timeline's clock */
    sp_times bp = {NULL, 0, 0};
    size_t v_count = (size_t)kl->n * 2 + 1;
    double *v = sinew__calloc(c->a, v_count, sizeof *v);
    bool ok = v && sinew__sp_clock_times(c, &ck, loc.t, loc.count, &bp);
    sinew__sp_times_sort(&bp);
    bool st;
    /* t = 0 */
    if (ok) {
        kl_eval(&loc, fmax(local_time(&loc, off * D, D), 0.0), v, &st);
        ok = sinew__sp_kl_push(c, kl, 0.0, st, v);
    }
    for (size_t i = 0; ok && i < bp.n; ++i) {
        if (i > 0 && bp.t[i] == bp.t[i - 1])
            continue;
        double tau = local_time(&loc, bp.t[i] * ts + off * D, D);
        if (tau < 0.0) { /* a wrap: the end value, then the start */
            kl_eval(&loc, D, v, &st);
            ok = sinew__sp_kl_push(c, kl, bp.t[i], true, v);
            kl_eval(&loc, 0.0, v, &st);
            if (ok)
                ok = sinew__sp_kl_push(c, kl, bp.t[i], st, v);
        } else {
            kl_eval(&loc, tau, v, &st);
            ok = sinew__sp_kl_push(c, kl, bp.t[i], st, v);
        }
    }
    if (ok && ck.clamp < t_end) { /* the plays are over: held at the end */
        kl_eval(&loc, D, v, &st);
        ok = sinew__sp_kl_push(c, kl, ck.clamp, true, v) && sinew__sp_kl_push(c, kl, t_end, true, v);
    } else if (ok) {
        kl_eval(&loc, fmax(local_time(&loc, t_end * ts + off * D, D), 0.0), v, &st);
        ok = sinew__sp_kl_push(c, kl, t_end, true, v);
    }
    sinew__sp_times_free(c, &bp);
    sinew__free(c->a, v, v_count * sizeof *v);
    sinew__sp_kl_free(c, &loc);
    if (ok)
        kl_simplify(kl);
    return ok;
}

/* Drops keys that lie on the straight line between their neighbours (a linear tween sampled
 * into linear keys, a held value): the motion is the same, the file smaller. */
static void kl_simplify(keylist *kl) {
    if (kl->count < 3)
        return;
    uint32_t w = 1, n = kl->n;
    for (uint32_t i = 1; i + 1 < kl->count; ++i) {
        uint32_t p = w - 1; /* the last key kept */
        bool drop = !kl->stepped[p] && !kl->stepped[i] && kl->t[p] < kl->t[i] && kl->t[i] < kl->t[i + 1];
        for (uint32_t j = 0; drop && j < n; ++j) {
            double a = kl->vals[(size_t)p * n + j], b = kl->vals[(size_t)(i + 1) * n + j];
            double v = a + (b - a) * (kl->t[i] - kl->t[p]) / (kl->t[i + 1] - kl->t[p]);
            drop = fabs(v - kl->vals[(size_t)i * n + j]) <= 1e-9 * (1.0 + fabs(v));
        }
        if (drop)
            continue;
        kl->t[w] = kl->t[i];
        kl->stepped[w] = kl->stepped[i];
        memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)i * n, n * sizeof *kl->vals);
        w++;
    }
    kl->t[w] = kl->t[kl->count - 1];
    kl->stepped[w] = kl->stepped[kl->count - 1];
    memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)(kl->count - 1) * n, n * sizeof *kl->vals);
    kl->count = w + 1;
}

/* Keeps the fewest keys of a linear key list such that every dropped key lies within tol of the
 * straight line between the keys kept around it (a sampled curve thinned where it is straight). */
void sinew__sp_kl_thin(keylist *kl, double tol) {
    if (kl->count < 3)
        return;
    uint32_t n = kl->n, w = 1, anchor = 0;
    for (uint32_t end = 2; end < kl->count; ++end) {
        bool fits = !kl->stepped[anchor];
        for (uint32_t i = anchor + 1; fits && i < end; ++i) {
            double f = (kl->t[i] - kl->t[anchor]) / (kl->t[end] - kl->t[anchor]);
            for (uint32_t j = 0; fits && j < n; ++j) {
                double a = kl->vals[(size_t)anchor * n + j], b = kl->vals[(size_t)end * n + j];
                fits = fabs(a + (b - a) * f - kl->vals[(size_t)i * n + j]) <= tol;
            }
        }
        if (fits)
            continue;
        /* end - 1 is kept and becomes the anchor; kept keys are packed at the front (w never
           passes the anchor, and only keys from the anchor on are read again) */
        anchor = end - 1;
        kl->t[w] = kl->t[anchor];
        kl->stepped[w] = kl->stepped[anchor];
        memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)anchor * n, n * sizeof *kl->vals);
        w++;
    }
    uint32_t last = kl->count - 1;
    kl->t[w] = kl->t[last];
    kl->stepped[w] = kl->stepped[last];
    memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)last * n, n * sizeof *kl->vals);
    kl->count = w + 1;
}

static bool kl_constant(const keylist *kl, const double *ident) {
    for (uint32_t k = 0; k < kl->count; ++k)
        for (uint32_t j = 0; j < kl->n; ++j)
            if (fabs(kl->vals[(size_t)k * kl->n + j] - ident[j]) > 1e-9)
                return false;
    return true;
}

/* The Spine keys of timeline T through channel ch, into kl; false, with out of memory noted and
 * nothing left to free, when they could not be built. */
static bool channel_keys(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl) {
    memset(kl, 0, sizeof *kl);
    if (build_keys_for(c, T, ch, kl))
        return true;
    c->nomem = true;
    sinew__sp_kl_free(c, kl);
    return false;
}

/* Key k of kl as a new object of the timeline array arr, its time written. */
static cJSON *key_obj(sp_ctx *c, cJSON *arr, const keylist *kl, uint32_t k) {
    cJSON *o = sinew__sp_add_obj(c, arr, NULL);
    sinew__sp_num_time(c, o, kl->t[k]);
    return o;
}

/* Key k's curve after its values: stepped when its tween is (the last key has none). */
static void key_curve(sp_ctx *c, cJSON *o, const keylist *kl, uint32_t k) {
    if (kl->stepped[k] && k + 1 < kl->count)
        sinew__sp_str(c, o, "curve", "stepped");
}

/* Writes keys as a Spine timeline array: names[j] names value j (NULL: "value"). */
void sinew__sp_write_kl(sp_ctx *c, cJSON *parent, const char *tl_name, const keylist *kl, const char *const *names) {
    cJSON *arr = sinew__sp_add_arr(c, parent, tl_name);
    for (uint32_t k = 0; k < kl->count; ++k) {
        cJSON *o = key_obj(c, arr, kl, k);
        for (uint32_t j = 0; j < kl->n; ++j)
            sinew__sp_num(c, o, names[j], kl->vals[(size_t)k * kl->n + j]);
        key_curve(c, o, kl, k);
    }
}

/* Writes bone timeline T's channels; one that stays at its identity is left out, except the first
 * when keep_first is set (see sinew__sp_end_keys). */
void sinew__sp_bone_timeline(sp_ctx *c, cJSON *bones_obj, const sinew_model_timeline *T, bool keep_first) {
    const sinew_model_bone *b = &c->arm->bones[T->target];
    cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones_obj, b->name);
    if (!bo && !(bo = sinew__sp_add_obj(c, bones_obj, b->name)))
        return;
    bool all = T->type == SINEW_TL_BONE_ALL;
    channel chs[4];
    const char *tl_names[4];
    static const char *const xy[2] = {"x", "y"}, *const val[1] = {"value"};
    const char *const *vnames[4];
    double ident[4][2] = {{0, 0}, {0, 0}, {1, 1}, {0, 0}};
    int nch = 0;
    memset(chs, 0, sizeof chs);
    if (all || T->type == SINEW_TL_BONE_TRANSLATE) {
        chs[nch] = (channel){2, map_translate, {0, 1}, false, SAMPLE_TOL_UNITS, NULL, NULL, false};
        tl_names[nch] = "translate";
        vnames[nch++] = xy;
    }
    if (all || T->type == SINEW_TL_BONE_ROTATE) {
        uint32_t r = all ? 2 : 0;
        chs[nch] = (channel){1, map_rotate, {r, 0}, !all && !T->rotation_plain, SAMPLE_TOL_DEG, NULL, NULL, false};
        tl_names[nch] = "rotate";
        vnames[nch++] = val;
        chs[nch] = (channel){2, map_shear, {r + 1, 0}, false, SAMPLE_TOL_DEG, NULL, NULL, false};
        tl_names[nch] = "shear";
        vnames[nch++] = xy;
    }
    if (all || T->type == SINEW_TL_BONE_SCALE) {
        uint32_t s = all ? 4 : 0;
        chs[nch] = (channel){2, map_scale, {s, s + 1}, false, SAMPLE_TOL_SCALE, NULL, NULL, false};
        tl_names[nch] = "scale";
        vnames[nch++] = xy;
    }
    for (int i = 0; i < nch; ++i) {
        keylist kl;
        if (!channel_keys(c, T, &chs[i], &kl))
            return;
        int id = strcmp(tl_names[i], "scale") == 0 ? 2 : strcmp(tl_names[i], "shear") == 0 ? 3 : 0;
        /* a channel that stays at its identity is left out */
        bool keep = kl.count > 0 && ((keep_first && i == 0) || !kl_constant(&kl, ident[id]));
        if (keep && !cJSON_GetObjectItemCaseSensitive(bo, tl_names[i]))
            sinew__sp_write_kl(c, bo, tl_names[i], &kl, vnames[i]);
        sinew__sp_kl_free(c, &kl);
    }
}

void sinew__sp_slot_color_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T) {
    const sinew_model_slot *s = &c->arm->slots[T->target];
    channel ch = {4, map_color, {0, 0}, false, 0.001, NULL, NULL, false};
    keylist kl;
    if (!channel_keys(c, T, &ch, &kl))
        return;
    bool offsets = false;
    for (uint32_t k = 0; k < T->grid_key_count && T->run_values; ++k)
        for (int i = 4; i < 8; ++i)
            if (T->run_values[(size_t)k * 8 + (uint32_t)i] != 0.0f)
                offsets = true;
    if (offsets)
        sinew__sp_warn(c, "slot '%s': colour offsets in the colour timeline dropped (Spine colours only multiply)", s->name);
    cJSON *so = cJSON_GetObjectItemCaseSensitive(slots_obj, s->name);
    if (!so && !(so = sinew__sp_add_obj(c, slots_obj, s->name))) {
        sinew__sp_kl_free(c, &kl);
        return;
    }
    cJSON *arr = sinew__sp_add_arr(c, so, "rgba");
    for (uint32_t k = 0; k < kl.count; ++k) {
        cJSON *o = key_obj(c, arr, &kl, k);
        const double *v = kl.vals + (size_t)k * 4;
        char hex[9];
        sinew__sp_color_hex(v[1], v[2], v[3], v[0], hex);
        sinew__sp_str(c, o, "color", hex);
        key_curve(c, o, &kl, k);
    }
    sinew__sp_kl_free(c, &kl);
}

static void map_display(const channel *ch, const float *raw, double *out) {
    (void)ch;
    out[0] = raw[0];
}

void sinew__sp_slot_display_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T) {
    const sinew_model_slot *s = &c->arm->slots[T->target];
    channel ch = {1, map_display, {0, 0}, false, 1.0, NULL, NULL, true};
    keylist kl;
    if (!channel_keys(c, T, &ch, &kl))
        return;
    if (!kl.count) {
        sinew__sp_kl_free(c, &kl);
        return;
    }
    cJSON *so = cJSON_GetObjectItemCaseSensitive(slots_obj, s->name);
    if (!so && !(so = sinew__sp_add_obj(c, slots_obj, s->name))) {
        sinew__sp_kl_free(c, &kl);
        return;
    }
    cJSON *arr = sinew__sp_add_arr(c, so, "attachment");
    for (uint32_t k = 0; k < kl.count; ++k) {
        if (k + 1 < kl.count && kl.t[k + 1] == kl.t[k])
            continue; /* a wrap: the later key of the two wins */
        cJSON *o = key_obj(c, arr, &kl, k);
        int32_t idx = (int32_t)kl.vals[k];
        const sinew_model_display *dd = sinew__sp_skin_display(c, T->target, idx);
        const char *key = sinew__sp_att_key(c, T->target, idx);
        if (dd && key && sinew__sp_drawable(dd->type))
            sinew__sp_str(c, o, "name", key);
        else if (o && !cJSON_AddNullToObject(o, "name"))
            c->nomem = true;
    }
    sinew__sp_kl_free(c, &kl);
}

void sinew__sp_ik_timeline(sp_ctx *c, cJSON *ik_obj, const sinew_model_timeline *T) {
    const sinew_model_ik *k = &c->arm->iks[T->target];
    channel ch = {2, map_ik, {0, 0}, false, 0.0001, NULL, NULL, false};
    keylist kl;
    if (!channel_keys(c, T, &ch, &kl))
        return;
    cJSON *arr = sinew__sp_add_arr(c, ik_obj, k->name);
    for (uint32_t i = 0; i < kl.count; ++i) {
        cJSON *o = key_obj(c, arr, &kl, i);
        sinew__sp_num(c, o, "mix", kl.vals[2 * i]);
        if (kl.vals[2 * i + 1] != 0.0 && o)
            cJSON_AddFalseToObject(o, "bendPositive");
        key_curve(c, o, &kl, i);
    }
    sinew__sp_kl_free(c, &kl);
}

void sinew__sp_deform_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T) {
    const sinew_model_armature *a = c->arm;
    if (T->mesh >= a->mesh_count || T->display >= a->display_count || T->skin >= a->skin_count)
        return;
    const sinew_model_mesh *me = &a->meshes[T->mesh];
    const sinew_model_display *dd = &a->displays[T->display];
    /* the key of this display in its slot */
    const sinew_model_skin *sk = &a->skins[T->skin];
    const char *key = NULL;
    for (uint32_t j = 0; j < sk->slot_count && !key; ++j) {
        const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
        if (ss->slot == T->target && T->display >= ss->first_display &&
            T->display < ss->first_display + ss->display_count)
            key = sinew__sp_att_key(c, T->target, (int32_t)(T->display - ss->first_display));
    }
    if (!key)
        return;
    double m[6];
    sinew__sp_display_mat(dd, m);
    channel ch = {me->weighted ? 2 * me->influence_count : 2 * me->vertex_count, map_deform, {0, 0}, false,
                  SAMPLE_TOL_UNITS, me, m, false};
    keylist kl;
    if (!channel_keys(c, T, &ch, &kl))
        return;
    cJSON *atts = cJSON_GetObjectItemCaseSensitive(anim_obj, "attachments");
    if (!atts && !(atts = sinew__sp_add_obj(c, anim_obj, "attachments")))
        goto done;
    const char *skin_name = sk->name[0] ? sk->name : "default";
    cJSON *so = cJSON_GetObjectItemCaseSensitive(atts, skin_name);
    if (!so && !(so = sinew__sp_add_obj(c, atts, skin_name)))
        goto done;
    const char *slot_name = a->slots[T->target].name;
    cJSON *slo = cJSON_GetObjectItemCaseSensitive(so, slot_name);
    if (!slo && !(slo = sinew__sp_add_obj(c, so, slot_name)))
        goto done;
    cJSON *ao = sinew__sp_add_obj(c, slo, key);
    cJSON *arr = sinew__sp_add_arr(c, ao, "deform");
    for (uint32_t k = 0; k < kl.count; ++k) {
        cJSON *o = key_obj(c, arr, &kl, k);
        const double *v = kl.vals + (size_t)k * kl.n;
        uint32_t first = 0, lastp = kl.n;
        while (first < kl.n && v[first] == 0.0)
            first++;
        while (lastp > first && v[lastp - 1] == 0.0)
            lastp--;
        if (lastp > first) {
            if (first)
                sinew__sp_num(c, o, "offset", first);
            cJSON *va = sinew__sp_add_arr(c, o, "vertices");
            for (uint32_t i = first; i < lastp; ++i)
                sinew__sp_push_num(c, va, v[i]);
        }
        key_curve(c, o, &kl, k);
    }
done:
    sinew__sp_kl_free(c, &kl);
}

/* Whether every key of zOrder timeline T (values vals) puts each slot in one place: then the
 * order it gives is the draw order whatever came before. */
static bool zorder_permutations(const sinew_model_timeline *T, const float *vals, uint32_t n, bool *seen) {
    for (uint32_t k = 0; k < T->grid_key_count; ++k) {
        memset(seen, 0, n * sizeof *seen);
        for (uint32_t i = 0; i < n; ++i) {
            float f = vals[(size_t)k * n + i];
            if (!(f >= 0.0f && f < (float)n) || seen[(uint32_t)f])
                return false;
            seen[(uint32_t)f] = true;
        }
    }
    return true;
}

/* The draw order of each key of zOrder timeline T into orders (slot indices, back to front): the
 * keys' own orders when each is a permutation, else as the official runtime plays them
 * (sinew__sp_zorder_played), with a warning when the later plays of a loop differ from the first
 * (Spine's keys are the first play's). false: nothing to write (out of memory noted). */
static bool zorder_orders(sp_ctx *c, const sinew_model_timeline *T, uint32_t *orders) {
    uint32_t n = c->arm->slot_count, G = T->grid_key_count;
    const float *vals = T->run_values ? T->run_values : T->values;
    size_t seen_size = ((size_t)n + 1) * sizeof(bool);
    bool *seen = sinew__alloc(c->a, seen_size);
    if (!seen) {
        c->nomem = true;
        return false;
    }
    bool perm = zorder_permutations(T, vals, n, seen);
    sinew__free(c->a, seen, seen_size);
    sinew_error e;
    uint32_t later;
    sinew_status st = perm ? SINEW_E_ARG : sinew__sp_zorder_played(c, T, orders, &later, &e);
    if (st == SINEW_E_NOMEM) {
        c->nomem = true;
        return false;
    }
    const sinew_model_keyframe *keys = c->anim->keys + T->first_key;
    if (st == SINEW_OK) {
        if (later != UINT32_MAX)
            sinew__sp_warn(c, "zOrder key at frame %u: the official runtime draws the slots in another order on the "
                              "later plays than on the first (a slot it moves out of range, or onto a taken place, is "
                              "placed by the order before it): Spine repeats the first play's",
                           keys[later].frame_start);
        return true;
    }
    if (!perm)
        sinew__sp_warn(c, "zOrder keys move slots out of range or onto one place, and sinew could not play the "
                          "armature to see the order the official runtime keeps (%s): written as parsed, the draw "
                          "order may differ",
                       e.message);
    for (size_t i = 0; i < (size_t)G * n; ++i)
        orders[i] = vals[i] >= 0.0f && vals[i] < (float)n ? (uint32_t)vals[i] : UINT32_MAX;
    return true;
}

void sinew__sp_zorder_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T) {
    const sinew_model_armature *a = c->arm;
    if (!T->grid_key_count || T->values_per_key != a->slot_count)
        return;
    size_t count = (size_t)T->grid_key_count * a->slot_count + 1;
    uint32_t *orders = sinew__alloc(c->a, count * sizeof *orders);
    if (!orders) {
        c->nomem = true;
        return;
    }
    cJSON *arr = zorder_orders(c, T, orders) ? sinew__sp_add_arr(c, anim_obj, "drawOrder") : NULL;
    const sinew_model_keyframe *keys = c->anim->keys + T->first_key;
    for (uint32_t k = 0; arr && k < T->grid_key_count; ++k) {
        cJSON *o = sinew__sp_add_obj(c, arr, NULL);
        double t = keys[k].frame_start / (double)a->frame_rate;
        sinew__sp_num_time(c, o, t);
        const uint32_t *order = orders + (size_t)k * a->slot_count;
        cJSON *offs = NULL;
        /* Spine reads the offsets in setup order: slot s moves to position pos */
        for (uint32_t s = 0; s < a->slot_count; ++s) {
            uint32_t pos = 0;
            while (pos < a->slot_count && order[pos] != s)
                pos++;
            if (pos == a->slot_count || pos == s)
                continue;
            if (!offs && !(offs = sinew__sp_add_arr(c, o, "offsets")))
                break;
            cJSON *e = sinew__sp_add_obj(c, offs, NULL);
            sinew__sp_str(c, e, "slot", a->slots[s].name);
            sinew__sp_num(c, e, "offset", (double)pos - (double)s);
        }
    }
    sinew__free(c->a, orders, count * sizeof *orders);
}

void sinew__sp_events_of(sp_ctx *c, cJSON *anim_obj, cJSON *events_decl) {
    const sinew_model_animation *an = c->anim;
    const sinew_model_armature *a = c->arm;
    cJSON *arr = NULL;
    /* the action frames as the official parser merges them (it drops some the file holds, such
       as a bone-frame event inside an animation frame); its list may be out of order, Spine's
       must not: visited by position, stably */
    uint32_t nf = an->run_action_frame_count;
    uint32_t *order = sinew__alloc(c->a, ((size_t)nf + 1) * sizeof *order);
    if (!order) {
        c->nomem = true;
        return;
    }
    for (uint32_t f = 0; f < nf; ++f) {
        uint32_t j = f;
        while (j > 0 && an->run_action_frames[order[j - 1]].position > an->run_action_frames[f].position) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = f;
    }
    for (uint32_t fi = 0; fi < nf; ++fi) {
        const sinew_model_action_frame *af = &an->run_action_frames[order[fi]];
        for (uint32_t i = 0; i < af->action_count; ++i) {
            const sinew_model_action *ac = &a->actions[an->run_action_index[af->first_action + i]];
            if (ac->type != SINEW_ACTION_FRAME_EVENT && ac->type != SINEW_ACTION_SOUND) {
                sinew__sp_warn(c, "action '%s' at frame %g dropped (Spine events cannot play animations)", ac->name,
                     af->position);
                continue;
            }
            const char *nm = ac->name && ac->name[0] ? ac->name : "event";
            if (!cJSON_GetObjectItemCaseSensitive(events_decl, nm)) {
                cJSON *d = sinew__sp_add_obj(c, events_decl, nm);
                if (ac->type == SINEW_ACTION_SOUND)
                    sinew__sp_str(c, d, "audio", nm);
            }
            if (!arr && !(arr = sinew__sp_add_arr(c, anim_obj, "events")))
                break;
            cJSON *o = sinew__sp_add_obj(c, arr, NULL);
            double t = af->position / (double)a->frame_rate;
            sinew__sp_num_time(c, o, t);
            sinew__sp_str(c, o, "name", nm);
            if (ac->int_count)
                sinew__sp_num(c, o, "int", ac->ints[0]);
            if (ac->float_count)
                sinew__sp_num(c, o, "float", ac->floats[0]);
            if (ac->string_count)
                sinew__sp_str(c, o, "string", ac->strings[0]);
            if (ac->int_count > 1 || ac->float_count > 1 || ac->string_count > 1)
                sinew__sp_warn(c, "event '%s': only the first int, float and string of its data are carried", nm);
        }
    }
    sinew__free(c->a, order, ((size_t)nf + 1) * sizeof *order);
}
