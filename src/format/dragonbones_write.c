/*
 * DragonBones 4.5 JSON writer (see dragonbones_write.h and docs/xml.md, "Converting").
 *
 * Timelines. DragonBones 4.x keeps one combined frame list per bone (x, y, rotation, skew, scale,
 * one easing) and one per slot (display index + colour, one easing). A model may instead hold
 * separate channels (5.x translate / rotate / scale, display / colour; XML rigs use those too).
 * Each channel is evaluated exactly at the union of all key times of its bone (slot); a combined
 * span takes the easing of the channels that actually move in it. When channels that move in the
 * same span need different easings, or a span has to be cut inside a non-linear tween, the 4.5
 * form can only approximate, and a warning says so.
 *
 * Rotations. The runtime unwraps keyframe angles while parsing (shortest path, or `tweenRotate`
 * extra turns). The writer first works out the path the source means (its own unwrapping, or
 * plain numbers for XML rigs), then picks each key's tweenRotate by replaying the runtime's
 * unwrapping on the exact numbers it writes, so that the runtime follows the same path.
 */
#include "base/atomic.h"
#include "format/dragonbones_write.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/json_dom.h"
#include "base/json_print.h"
#include "base/num.h"

static const double DB_PI = 3.141592653589793;

/* ---- the runtime's rotation unwrapping ------------------------------------------------------- */

double sinew__db_normalize_radian(double v) {
    v = fmod(v + DB_PI, DB_PI * 2.0);
    v += v > 0.0 ? -DB_PI : DB_PI;
    return v;
}

double sinew__db_unwrap_first(double deg) {
    return sinew__db_normalize_radian(deg * (DB_PI / 180.0));
}

/* One step of the official parser's unwrapping (ObjectDataParser._parseBoneAllFrame). */
static double unwrap_step(double prev, double deg, int32_t clockwise) {
    double rotation = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
    if (clockwise == 0)
        return prev + sinew__db_normalize_radian(rotation - prev);
    if (clockwise > 0 ? rotation >= prev : rotation <= prev)
        clockwise = clockwise > 0 ? clockwise - 1 : clockwise + 1;
    return prev + rotation - prev + DB_PI * 2.0 * clockwise;
}

int32_t sinew__db_tween_rotate_for(double *prev_unwrapped, double deg, double delta) {
    double prev = *prev_unwrapped, want = prev + delta;
    double best_u = unwrap_step(prev, deg, 0);
    int32_t best = 0;
    double best_err = fabs(best_u - want);
    /* Half a turn is where the shortest way flips with the last bit; take the explicit way. */
    double rotation0 = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
    if (fabs(sinew__db_normalize_radian(rotation0 - prev)) > DB_PI - 1e-4)
        best_err = INFINITY;
    if (best_err > 1e-6) {
        double rotation = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
        double m = round((want - rotation) / (DB_PI * 2.0));
        for (int k = -1; k <= 2; k++) {
            double n = m + k;
            if (n == 0 || fabs(n) > 1e6)
                continue;
            double u = unwrap_step(prev, deg, (int32_t)n);
            if (fabs(u - want) < best_err) {
                best_err = fabs(u - want);
                best = (int32_t)n;
                best_u = u;
            }
        }
    }
    *prev_unwrapped = best_u;
    return best;
}

/* ---- JSON helpers ------------------------------------------------------------------------------ */

typedef struct wctx {
    const sinew_db_write_options *o;
    const sinew_allocator *a;   /* o->allocator: every buffer but cJSON's tree (NULL = libc) */
    const struct sinew_data *data;
    const sinew_model_armature *arm;
    const sinew_model_animation *anim;
    sinew_error *err;
    bool nomem;
    uint32_t warnings;
} wctx;

SINEW_PRINTF(2, 3)
static void warn(wctx *w, const char *fmt, ...) {
    w->warnings++;
    if (!w->o)
        return;
    va_list ap;
    va_start(ap, fmt);
    sinew__writer_warning(w->o->log, w->o->log_user, w->o->source_name, w->arm ? w->arm->name : NULL,
                          w->anim ? w->anim->name : NULL, fmt, ap);
    va_end(ap);
}

/* Rounds to `digits` significant digits (so 0.1f is written as 0.1). */
static double sig(double v, int digits) {
    if (v == 0 || !isfinite(v))
        return v == 0 ? 0 : v;
    return sinew__num_round(v, digits);
}

static double fnum(float v) {
    return sig((double)v, 9);
}

static cJSON *obj(wctx *w, cJSON *parent, const char *key) {
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        w->nomem = true;
        return NULL;
    }
    if (parent) {
        if (key)
            cJSON_AddItemToObject(parent, key, o);
        else
            cJSON_AddItemToArray(parent, o);
    }
    return o;
}

static cJSON *arr(wctx *w, cJSON *parent, const char *key) {
    cJSON *a = cJSON_CreateArray();
    if (!a) {
        w->nomem = true;
        return NULL;
    }
    if (parent)
        cJSON_AddItemToObject(parent, key, a);
    return a;
}

static void num(wctx *w, cJSON *o, const char *key, double v) {
    if (!o)
        return;
    if (!cJSON_AddNumberToObject(o, key, v))
        w->nomem = true;
}

static void str(wctx *w, cJSON *o, const char *key, const char *v) {
    if (!o)
        return;
    if (!cJSON_AddStringToObject(o, key, v ? v : ""))
        w->nomem = true;
}

static void push_num(wctx *w, cJSON *a, double v) {
    cJSON *n = cJSON_CreateNumber(v);
    if (!n || !a) {
        w->nomem = true;
        cJSON_Delete(n);
        return;
    }
    cJSON_AddItemToArray(a, n);
}

static void user_data(wctx *w, cJSON *o, const char *text) {
    if (!text || !o)
        return;
    cJSON *u = sinew__jdom_parse_heap(text, strlen(text), 1000, NULL);
    if (u)
        cJSON_AddItemToObject(o, "userData", u);
}

static double rad2deg(double r) {
    return r * (180.0 / DB_PI);
}

static void transform_json(wctx *w, cJSON *parent, const sinew_transform *t, bool always) {
    bool identity = t->x == 0 && t->y == 0 && t->rotation == 0 && t->skew == 0 && t->scale_x == 1 && t->scale_y == 1;
    if (identity && !always)
        return;
    cJSON *o = obj(w, parent, "transform");
    if (t->x != 0)
        num(w, o, "x", fnum(t->x));
    if (t->y != 0)
        num(w, o, "y", fnum(t->y));
    if (t->rotation != 0 || t->skew != 0) {
        num(w, o, "skX", sig(rad2deg((double)t->rotation + (double)t->skew), 7));
        num(w, o, "skY", sig(rad2deg((double)t->rotation), 7));
    }
    if (t->scale_x != 1)
        num(w, o, "scX", fnum(t->scale_x));
    if (t->scale_y != 1)
        num(w, o, "scY", fnum(t->scale_y));
}

static void color_json(wctx *w, cJSON *parent, const char *key, const sinew_color_transform *c) {
    cJSON *o = obj(w, parent, key);
    const float mul[4] = {c->a_mul, c->r_mul, c->g_mul, c->b_mul};
    const float add[4] = {c->a_add, c->r_add, c->g_add, c->b_add};
    static const char *const mk[4] = {"aM", "rM", "gM", "bM"}, *const ak[4] = {"aO", "rO", "gO", "bO"};
    for (int i = 0; i < 4; i++)
        if (mul[i] != 1)
            num(w, o, mk[i], sig((double)mul[i] * 100.0, 7));
    for (int i = 0; i < 4; i++)
        if (add[i] != 0)
            num(w, o, ak[i], sig((double)add[i], 7));
}

static bool color_identity(const sinew_color_transform *c) {
    return c->a_mul == 1 && c->r_mul == 1 && c->g_mul == 1 && c->b_mul == 1 && c->a_add == 0 && c->r_add == 0 &&
           c->g_add == 0 && c->b_add == 0;
}

static void actions_json(wctx *w, cJSON *parent, const char *key, uint32_t first, uint32_t count) {
    if (!count)
        return;
    cJSON *a = arr(w, parent, key);
    for (uint32_t i = 0; i < count; i++) {
        const sinew_model_action *ac = &w->arm->actions[first + i];
        cJSON *o = obj(w, a, NULL);
        if (ac->type == SINEW_ACTION_PLAY) {
            str(w, o, "gotoAndPlay", ac->name);
        } else {
            str(w, o, "type", ac->type == SINEW_ACTION_STOP ? "stop" : ac->type == SINEW_ACTION_FADE_IN ? "fadeIn"
                                                                      : ac->type == SINEW_ACTION_SOUND ? "sound" : "frame");
            str(w, o, "name", ac->name);
        }
    }
}

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
                    warn(w, "%s: a %s tween is cut by another channel's key; the pieces are approximated",
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
                warn(w, "%s: channels with different easings move in the same span; the 4.5 frame uses one "
                        "(approximation)", what);
                warned_ease = true;
            }
            if (j + 1 == nt && loops(an) && cc->rot && cc->wrap_norm && !warned_wrap) {
                uint32_t last = cc->tl->key_count - 1;
                if (fabs(wrap_delta(cc, last) - (cc->u[0] - cc->u[last])) > 1e-6) {
                    warn(w, "%s: the loop wrap turns more than half a circle back; 4.5 turns the long way "
                            "(approximation)", what);
                    warned_wrap = true;
                }
            }
        }
        if (step_moves && mk->ease && !warned_ease) {
            /* A stepped channel changes at the end of a span that another channel tweens: the
             * combined 4.5 frame has one easing, so the stepped values tween too. */
            warn(w, "%s: a stepped channel changes where another one tweens; the 4.5 frame tweens both "
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
                    warn(w, "%s: a channel's last tween is cut; its final-loop hold differs (approximation)", what);
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
        num(w, f, "tweenEasing", sig(-mk->quad_k, 6));
        return;
    }
    switch (k->tween) {
    case SINEW_TWEEN_LINEAR: num(w, f, "tweenEasing", 0); break;
    case SINEW_TWEEN_QUAD_IN: num(w, f, "tweenEasing", -fnum(k->strength)); break;
    case SINEW_TWEEN_QUAD_OUT: num(w, f, "tweenEasing", fnum(k->strength)); break;
    case SINEW_TWEEN_QUAD_IN_OUT: num(w, f, "tweenEasing", 1 + fnum(k->strength)); break;
    case SINEW_TWEEN_CURVE: {
        cJSON *a = arr(w, f, "curve");
        for (uint32_t i = 0; i < k->curve_count; i++)
            push_num(w, a, fnum(w->anim->curves[k->curve_first + i]));
        break;
    }
    default: break;
    }
}

/* For step keys, a source keyframe's raw tweenEasing still matters for nothing; nothing written. */

/* A timeline's own clock in o, where it has one: "scale" unless 1, "offset" unless 0. */
static void timeline_clock(wctx *w, cJSON *o, const sinew_model_timeline *tl) {
    if (tl->scale != 1)
        num(w, o, "scale", fnum(tl->scale));
    if (tl->offset != 0)
        num(w, o, "offset", fnum(tl->offset));
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
            warn(w, "bone '%s': its channels have different timeline scale/offset; the first one is used",
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
        cJSON *tl = obj(w, out, NULL);
        str(w, tl, "name", arm->bones[bone].name);
        timeline_clock(w, tl, first);
        if (first->pivot_x != 0)
            num(w, tl, "pX", fnum(first->pivot_x));
        if (first->pivot_y != 0)
            num(w, tl, "pY", fnum(first->pivot_y));
        cJSON *frames = arr(w, tl, "frame");
        double prev_u = 0, prev_r = 0, prev_deg = 0;
        cJSON **fobjs = sinew__calloc(w->a, nk, sizeof *fobjs);
        if (!fobjs)
            w->nomem = true;
        for (uint32_t j = 0; fobjs && j < nk; j++) {
            const double *v = &vals[(size_t)j * 6];
            cJSON *f = obj(w, frames, NULL);
            fobjs[j] = f;
            num(w, f, "duration", sig(keys[j].dur, 9));
            easing_json(w, f, &keys[j]);
            /* Each angle is written as the previous one plus the short-way step, so that a step of
             * whole turns repeats the previous number exactly: the runtime's "same angle" test
             * (rotation >= previous) then does not depend on the last bit. */
            double deg;
            if (j == 0) {
                deg = sig(rad2deg(v[2]), 7);
            } else {
                double step = sinew__db_normalize_radian(v[2] - prev_r);
                deg = fabs(step) < 1e-9 ? prev_deg : sig(prev_deg + rad2deg(step), 7);
            }
            prev_deg = deg;
            if (j == 0) {
                prev_u = sinew__db_unwrap_first(deg);
            } else {
                int32_t tr = sinew__db_tween_rotate_for(&prev_u, deg, v[2] - prev_r);
                if (tr != 0)
                    num(w, fobjs[j - 1], "tweenRotate", tr);
            }
            prev_r = v[2];
            double skx_rad = v[3] + sinew__db_normalize_radian(deg * (DB_PI / 180.0));
            if (fabs(skx_rad) > DB_PI + 1e-9)
                warn(w, "%s: a skew that the 4.5 transform cannot hold exactly", what);
            cJSON *t = obj(w, f, "transform");
            if (v[0] != 0)
                num(w, t, "x", sig(v[0], 9));
            if (v[1] != 0)
                num(w, t, "y", sig(v[1], 9));
            if (deg != 0 || v[3] != 0) {
                num(w, t, "skX", v[3] != 0 ? sig(rad2deg(skx_rad), 7) : deg);
                num(w, t, "skY", deg);
            }
            if (v[4] != 1)
                num(w, t, "scX", sig(v[4], 9));
            if (v[5] != 1)
                num(w, t, "scY", sig(v[5], 9));
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
        cJSON *tl = obj(w, out, NULL);
        str(w, tl, "name", sl->name);
        timeline_clock(w, tl, ch[0].tl);
        cJSON *frames = arr(w, tl, "frame");
        for (uint32_t j = 0; j < nk; j++) {
            const double *v = &vals[(size_t)j * 9];
            cJSON *f = obj(w, frames, NULL);
            num(w, f, "duration", sig(keys[j].dur, 9));
            easing_json(w, f, &keys[j]);
            num(w, f, "displayIndex", round(v[0]));
            sinew_color_transform c = {(float)v[1], (float)v[2], (float)v[3], (float)v[4],
                                       (float)v[5], (float)v[6], (float)v[7], (float)v[8]};
            if (!color_identity(&c))
                color_json(w, f, "color", &c);
            const sinew_model_keyframe *src = NULL;
            for (uint32_t q = 0; q < nch; q++)
                if (ch[q].step_only) {
                    uint32_t k = key_at(&ch[q], keys[j].pos);
                    if ((double)ch[q].keys[k].position == keys[j].pos)
                        src = &ch[q].keys[k];
                }
            if (src && src->action_count)
                actions_json(w, f, "actions", src->first_action, src->action_count);
            if (keys[j].src0 && keys[j].src0->hide >= 0)
                num(w, f, "hide", keys[j].src0->hide);
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
    cJSON *f = obj(w, frames, NULL);
    *mk = (merged_key){key->position, end - key->position, key->tween ? key : NULL, NAN, 0, key};
    num(w, f, "duration", sig(mk->dur > 0 ? mk->dur : 0, 9));
    return f;
}

/* The frames of an ffd or surface timeline: each key's values as `offset` + `vertices` (the run
 * between the first and the last non-zero value). `always`: an all-zero key still gets an empty
 * `vertices` (the official parser fails on a surface frame without one). */
static void vertex_frames(wctx *w, cJSON *o, const sinew_model_animation *an, const sinew_model_timeline *tl,
                          bool always) {
    cJSON *frames = arr(w, o, "frame");
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
            num(w, f, "offset", lo);
            cJSON *a = arr(w, f, "vertices");
            for (uint32_t i = lo; i < hi; i++)
                push_num(w, a, fnum(v[i]));
        } else if (always) {
            arr(w, f, "vertices");
        }
    }
}

static void ffd_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    const sinew_model_armature *arm = w->arm;
    if (tl->display >= arm->display_count || tl->target >= arm->slot_count)
        return;
    cJSON *o = obj(w, out, NULL);
    str(w, o, "name", arm->displays[tl->display].name);
    str(w, o, "slot", arm->slots[tl->target].name);
    str(w, o, "skin", tl->skin < arm->skin_count ? arm->skins[tl->skin].name : "");
    timeline_clock(w, o, tl);
    vertex_frames(w, o, an, tl, false);
}

/* A 5.5 surface timeline: the surface's name and its lattice offsets per key. */
static void surface_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    const sinew_model_armature *arm = w->arm;
    if (tl->target >= arm->bone_count)
        return;
    cJSON *o = obj(w, out, NULL);
    str(w, o, "name", arm->bones[tl->target].name);
    timeline_clock(w, o, tl);
    vertex_frames(w, o, an, tl, true);
}

static void simple_timeline(wctx *w, cJSON *out, const sinew_model_animation *an, const sinew_model_timeline *tl) {
    const sinew_model_armature *arm = w->arm;
    if (tl->type == SINEW_TL_IK && tl->target >= arm->ik_count)
        return;
    cJSON *o = tl->type == SINEW_TL_IK ? obj(w, out, NULL) : out;
    if (tl->type == SINEW_TL_IK)
        str(w, o, "name", arm->iks[tl->target].name);
    cJSON *frames = arr(w, o, "frame");
    bool warned_order = false;
    for (uint32_t k = 0; k < tl->key_count; k++) {
        merged_key mk;
        cJSON *f = key_frame(w, frames, an, tl, k, &mk);
        const float *v = &tl->values[mk.src0->value];
        if (tl->type == SINEW_TL_IK) {
            easing_json(w, f, &mk);
            num(w, f, "weight", fnum(v[0]));
            if (!(v[1] != 0))
                cJSON_AddFalseToObject(f, "bendPositive");
        } else { /* zOrder: name every slot with its offset, or nothing for the setup order */
            bool identity = true;
            for (uint32_t i = 0; i < tl->values_per_key; i++)
                identity = identity && (uint32_t)v[i] == i;
            if (!identity) {
                cJSON *a = arr(w, f, "zOrder");
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
                    warn(w, "zOrder: a key moves slots past the ends or onto one place; 4.5 pairs can only "
                            "approximate the order it gives (approximation)");
                    warned_order = true;
                }
                for (uint32_t s = 0; s < tl->values_per_key; s++) {
                    push_num(w, a, s);
                    push_num(w, a, pos[s] - (int32_t)s);
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
                str(w, f, "event", ac->name);
            } else if (ac->type == SINEW_ACTION_SOUND && sounds == 1 && simple) {
                str(w, f, "sound", ac->name);
            } else if (ac->type == SINEW_ACTION_PLAY && plays == 1 && simple) {
                str(w, f, "action", ac->name);
            } else {
                bool is_event = ac->type == SINEW_ACTION_FRAME_EVENT || ac->type == SINEW_ACTION_SOUND;
                cJSON **list = is_event ? &evs : &acts;
                if (!*list)
                    *list = arr(w, f, is_event ? "events" : "actions");
                cJSON *e = obj(w, *list, NULL);
                if (ac->type == SINEW_ACTION_PLAY)
                    str(w, e, "gotoAndPlay", ac->name);
                else
                    str(w, e, "name", ac->name);
                if (ac->type == SINEW_ACTION_SOUND)
                    str(w, e, "type", "sound");
                if (ac->type == SINEW_ACTION_STOP || ac->type == SINEW_ACTION_FADE_IN)
                    str(w, e, "type", ac->type == SINEW_ACTION_STOP ? "stop" : "fadeIn");
                if (tagged && ac->bone != SINEW_INVALID_INDEX && ac->bone < arm->bone_count)
                    str(w, e, "bone", arm->bones[ac->bone].name);
                if (tagged && ac->slot != SINEW_INVALID_INDEX && ac->slot < arm->slot_count)
                    str(w, e, "slot", arm->slots[ac->slot].name);
                if (ac->int_count) {
                    cJSON *a = arr(w, e, "ints");
                    for (uint32_t q = 0; q < ac->int_count; q++)
                        push_num(w, a, ac->ints[q]);
                }
                if (ac->float_count) {
                    cJSON *a = arr(w, e, "floats");
                    for (uint32_t q = 0; q < ac->float_count; q++)
                        push_num(w, a, fnum(ac->floats[q]));
                }
                if (ac->string_count) {
                    cJSON *a = arr(w, e, "strings");
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
    cJSON *frames = arr(w, anim_json, "frame");
    double at = 0;
    for (uint32_t i = 0; i < an->action_frame_count; i++) {
        const sinew_model_action_frame *af = &an->action_frames[i];
        double pos = (double)af->position;
        if (pos > at) { /* an empty frame up to this one */
            cJSON *e = obj(w, frames, NULL);
            num(w, e, "duration", sig(pos - at, 9));
            at = pos;
        }
        double next = i + 1 < an->action_frame_count ? (double)an->action_frames[i + 1].position : (double)an->duration;
        cJSON *f = obj(w, frames, NULL);
        num(w, f, "duration", sig(next > pos ? next - pos : 0, 9));
        at = next > pos ? next : pos;
        frame_actions_json(w, f, an, af, SINEW_INVALID_INDEX);
    }
}

static void animation_json(wctx *w, cJSON *out, const sinew_model_animation *an) {
    const sinew_model_armature *arm = w->arm;
    w->anim = an;
    cJSON *a = obj(w, out, NULL);
    str(w, a, "name", an->name);
    num(w, a, "duration", sig(an->duration, 9));
    num(w, a, "playTimes", an->play_times);
    if (an->fade_in_time >= 0)
        num(w, a, "fadeInTime", sig(an->fade_in_time, 15));
    if (an->scale != 1)
        num(w, a, "scale", sig(an->scale, 15));
    if (an->auto_tween >= 0)
        num(w, a, "autoTween", an->auto_tween);
    user_data(w, a, an->user_data);
    action_frames(w, a, an);
    cJSON *bones = arr(w, a, "bone");
    for (uint32_t b = 0; b < arm->bone_count; b++)
        bone_timelines(w, bones, an, b);
    cJSON *slots = arr(w, a, "slot");
    for (uint32_t s = 0; s < arm->slot_count; s++)
        slot_timelines(w, slots, an, s);
    cJSON *ffd = NULL, *ik = NULL, *surface = NULL;
    bool bone_seen_other = false;
    for (uint32_t t = 0; t < an->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[an->first_timeline + t];
        switch (tl->type) {
        case SINEW_TL_FFD:
            if (!ffd)
                ffd = arr(w, a, "ffd");
            ffd_timeline(w, ffd, an, tl);
            break;
        case SINEW_TL_IK:
            if (!ik)
                ik = arr(w, a, "ik");
            simple_timeline(w, ik, an, tl);
            break;
        case SINEW_TL_ZORDER:
            simple_timeline(w, obj(w, a, "zOrder"), an, tl);
            break;
        case SINEW_TL_SURFACE:
            if (!surface)
                surface = arr(w, a, "surface");
            surface_timeline(w, surface, an, tl);
            break;
        default: bone_seen_other = true; break;
        }
    }
    (void)bone_seen_other;
    w->anim = NULL;
}

static const char *blend_name(sinew_blend_mode m) {
    const char *name = sinew_blend_mode_name(m);
    return name ? name : "normal";
}

/* A path display's geometry (5.5 keys; the official parser reads them whatever the version).
 * Bones are written in model order, so `bones` and the weights name model indices. */
static void path_json(wctx *w, cJSON *o, const sinew_model_path *p) {
    if (p->closed)
        cJSON_AddTrueToObject(o, "closed");
    if (p->constant_speed)
        cJSON_AddTrueToObject(o, "constantSpeed");
    num(w, o, "vertexCount", p->vertex_count);
    cJSON *l = arr(w, o, "lengths");
    for (uint32_t i = 0; i < p->length_count; i++)
        push_num(w, l, p->lengths[i]);
    cJSON *v = arr(w, o, "vertices");
    for (uint32_t i = 0; i < p->value_count; i++)
        push_num(w, v, fnum(p->vertices[i]));
    if (!p->weighted)
        return;
    cJSON *b = arr(w, o, "bones");
    for (uint32_t i = 0; i < p->bone_count; i++)
        push_num(w, b, p->bones[i]);
    cJSON *wt = arr(w, o, "weights");
    for (uint32_t i = 0; i < p->vertex_count; i++) {
        uint32_t f0 = p->vertex_first_influence[i], f1 = p->vertex_first_influence[i + 1];
        push_num(w, wt, f1 - f0);
        for (uint32_t f = f0; f < f1; f++) {
            push_num(w, wt, p->bones[p->influence_bone[f]]);
            push_num(w, wt, fnum(p->influence_weight[f]));
        }
    }
}

static void path_constraints_json(wctx *w, cJSON *a, const sinew_model_armature *arm) {
    static const char *const position_names[] = {"fixed", "percent"};
    static const char *const spacing_names[] = {"length", "fixed", "percent"};
    static const char *const rotate_names[] = {"tangent", "chain", "chainScale"};
    cJSON *list = arr(w, a, "path");
    for (uint32_t i = 0; i < arm->path_constraint_count; i++) {
        const sinew_model_path_constraint *c = &arm->path_constraints[i];
        cJSON *o = obj(w, list, NULL);
        str(w, o, "name", c->name);
        str(w, o, "target", arm->slots[c->slot].name);
        str(w, o, "targetDisplay", arm->displays[c->display].name);
        cJSON *b = arr(w, o, "bones");
        for (uint32_t k = 0; k < c->bone_count; k++)
            if (b && !cJSON_AddItemToArray(b, cJSON_CreateString(arm->bones[c->bones[k]].name)))
                w->nomem = true;
        str(w, o, "positionMode", position_names[c->position_mode <= 1 ? c->position_mode : 1]);
        str(w, o, "spacingMode", spacing_names[c->spacing_mode <= 2 ? c->spacing_mode : 0]);
        str(w, o, "rotateMode", rotate_names[c->rotate_mode <= 2 ? c->rotate_mode : 0]);
        num(w, o, "position", c->position);
        num(w, o, "spacing", c->spacing);
        num(w, o, "rotateOffset", c->rotate_offset);
        num(w, o, "rotateMix", c->rotate_mix);
        num(w, o, "translateMix", c->translate_mix);
    }
}

static void display_json(wctx *w, cJSON *out, const sinew_model_display *d) {
    const sinew_model_armature *arm = w->arm;
    cJSON *o = obj(w, out, NULL);
    str(w, o, "name", d->name);
    static const char *const types[] = {"image", "armature", "mesh", "boundingBox", "path"};
    str(w, o, "type", types[d->type <= SINEW_DISPLAY_PATH ? d->type : 0]);
    if (d->path && d->name && strcmp(d->path, d->name) != 0)
        str(w, o, "path", d->path);
    transform_json(w, o, &d->transform, d->type == SINEW_DISPLAY_IMAGE);
    if (d->type == SINEW_DISPLAY_IMAGE && (d->pivot_x != 0.5f || d->pivot_y != 0.5f)) {
        cJSON *p = obj(w, o, "pivot");
        num(w, p, "x", fnum(d->pivot_x));
        num(w, p, "y", fnum(d->pivot_y));
    }
    if (d->type == SINEW_DISPLAY_ARMATURE)
        actions_json(w, o, "actions", d->first_action, d->action_count);
    if (d->type == SINEW_DISPLAY_BOUNDING_BOX && d->bbox_color)
        num(w, o, "color", (double)d->bbox_color);
    if (d->type == SINEW_DISPLAY_BOUNDING_BOX && d->bbox_shape != SINEW_BBOX_POLYGON) {
        str(w, o, "subType", d->bbox_shape == SINEW_BBOX_ELLIPSE ? "ellipse" : "rectangle");
        num(w, o, "width", fnum(d->bbox_width));
        num(w, o, "height", fnum(d->bbox_height));
    } else if (d->type == SINEW_DISPLAY_BOUNDING_BOX) {
        str(w, o, "subType", "polygon");
        cJSON *v = arr(w, o, "vertices");
        for (uint32_t i = 0; i < d->bbox_vertex_count * 2u; i++)
            push_num(w, v, fnum(d->bbox_vertices[i]));
    }
    if (d->type == SINEW_DISPLAY_PATH && d->path_data < arm->path_count)
        path_json(w, o, &arm->paths[d->path_data]);
    if (d->type != SINEW_DISPLAY_MESH || d->mesh >= arm->mesh_count)
        return;
    const sinew_model_mesh *m = &arm->meshes[d->mesh];
    cJSON *v = arr(w, o, "vertices"), *uv = arr(w, o, "uvs"), *tr = arr(w, o, "triangles");
    bool layout2 = m->weighted && m->weight_layout == 2;
    if (layout2)
        warn(w, "mesh '%s' has 5.5 per-influence weights without bonePose; its bind pose is rebuilt from the "
                "first influence of each vertex (approximation)", d->name);
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        double x = m->vertices[2 * i], y = m->vertices[2 * i + 1];
        if (layout2 && m->vertex_first_influence[i] < m->vertex_first_influence[i + 1]) {
            uint32_t f = m->vertex_first_influence[i];
            x = m->influence_local[2 * f];
            y = m->influence_local[2 * f + 1];
        }
        push_num(w, v, sig(x, 9));
        push_num(w, v, sig(y, 9));
        push_num(w, uv, fnum(m->uvs[2 * i]));
        push_num(w, uv, fnum(m->uvs[2 * i + 1]));
    }
    for (uint32_t i = 0; i < m->triangle_count * 3u; i++)
        push_num(w, tr, m->triangles[i]);
    if (m->edge_count) {
        cJSON *e = arr(w, o, "edges");
        for (uint32_t i = 0; i < m->edge_count * 2u; i++)
            push_num(w, e, m->edges[i]);
    }
    if (m->user_edge_count) {
        cJSON *e = arr(w, o, "userEdges");
        for (uint32_t i = 0; i < m->user_edge_count * 2u; i++)
            push_num(w, e, m->user_edges[i]);
    }
    if (m->width > 0)
        num(w, o, "width", fnum(m->width));
    if (m->height > 0)
        num(w, o, "height", fnum(m->height));
    if (!m->weighted)
        return;
    cJSON *wt = arr(w, o, "weights");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        uint32_t f0 = m->vertex_first_influence[i], f1 = m->vertex_first_influence[i + 1];
        if (layout2)
            f1 = f0 < f1 ? f0 + 1 : f0;
        push_num(w, wt, f1 - f0);
        for (uint32_t f = f0; f < f1; f++) {
            push_num(w, wt, m->influence_bone[f]);
            push_num(w, wt, layout2 ? 1.0 : fnum(m->influence_weight[f]));
        }
    }
    sinew_affine sp = layout2 ? (sinew_affine){1, 0, 0, 1, 0, 0} : m->slot_pose;
    cJSON *spj = arr(w, o, "slotPose");
    const float spv[6] = {sp.a, sp.b, sp.c, sp.d, sp.tx, sp.ty};
    for (int i = 0; i < 6; i++)
        push_num(w, spj, fnum(spv[i]));
    cJSON *bp = arr(w, o, "bonePose");
    if (layout2) {
        /* identity bone poses: the first influence's local position is the vertex */
        size_t used_count = arm->bone_count ? arm->bone_count : 1;
        uint32_t *used = sinew__calloc(w->a, used_count, sizeof *used);
        if (!used) {
            w->nomem = true;
            return;
        }
        for (uint32_t i = 0; i < m->vertex_count; i++)
            if (m->vertex_first_influence[i] < m->vertex_first_influence[i + 1])
                used[m->influence_bone[m->vertex_first_influence[i]]] = 1;
        for (uint32_t b = 0; b < arm->bone_count; b++)
            if (used[b]) {
                const double id[7] = {b, 1, 0, 0, 1, 0, 0};
                for (int i = 0; i < 7; i++)
                    push_num(w, bp, id[i]);
            }
        sinew__free(w->a, used, used_count * sizeof *used);
        return;
    }
    for (uint32_t i = 0; i < m->bone_pose_count; i++) {
        const sinew_affine *a = &m->bone_pose[i];
        const float bv[6] = {a->a, a->b, a->c, a->d, a->tx, a->ty};
        push_num(w, bp, m->bone_pose_bone[i]);
        for (int k = 0; k < 6; k++)
            push_num(w, bp, fnum(bv[k]));
    }
}

static void armature_json(wctx *w, cJSON *out, const sinew_model_armature *arm) {
    w->arm = arm;
    cJSON *a = obj(w, out, NULL);
    str(w, a, "name", arm->name);
    str(w, a, "type", arm->type ? arm->type : "Armature");
    num(w, a, "frameRate", fnum(arm->frame_rate));
    user_data(w, a, arm->user_data);
    if (arm->has_aabb) {
        cJSON *bb = obj(w, a, "aabb");
        num(w, bb, "x", fnum(arm->aabb.a));
        num(w, bb, "y", fnum(arm->aabb.b));
        num(w, bb, "width", fnum(arm->aabb.c));
        num(w, bb, "height", fnum(arm->aabb.d));
    }
    if (arm->has_canvas) {
        cJSON *cv = obj(w, a, "canvas");
        num(w, cv, "x", fnum(arm->canvas_x));
        num(w, cv, "y", fnum(arm->canvas_y));
        num(w, cv, "width", fnum(arm->canvas_width));
        num(w, cv, "height", fnum(arm->canvas_height));
        if (arm->canvas_background)
            num(w, cv, "color", (double)arm->canvas_color);
    }
    if (arm->default_action_count)
        actions_json(w, a, "defaultActions", arm->first_default_action, arm->default_action_count);
    cJSON *bones = arr(w, a, "bone");
    for (uint32_t b = 0; b < arm->bone_count; b++) {
        const sinew_model_bone *mb = &arm->bones[b];
        cJSON *o = obj(w, bones, NULL);
        str(w, o, "name", mb->name);
        if (mb->parent != SINEW_INVALID_INDEX && mb->parent < arm->bone_count)
            str(w, o, "parent", arm->bones[mb->parent].name);
        if (mb->is_surface) {
            str(w, o, "type", "surface");
            num(w, o, "segmentX", mb->segment_x);
            num(w, o, "segmentY", mb->segment_y);
            cJSON *v = arr(w, o, "vertices");
            for (uint32_t i = 0; i < mb->surface_value_count; i++)
                push_num(w, v, sig(mb->surface_vertices[i], 15));
            user_data(w, o, mb->user_data);
            continue;
        }
        if (mb->length != 0)
            num(w, o, "length", fnum(mb->length));
        transform_json(w, o, &mb->setup, true);
        if (!mb->inherit_translation)
            num(w, o, "inheritTranslation", 0);
        if (!mb->inherit_rotation)
            num(w, o, "inheritRotation", 0);
        if (!mb->inherit_scale)
            num(w, o, "inheritScale", 0);
        if (!mb->inherit_reflection)
            num(w, o, "inheritReflection", 0);
        user_data(w, o, mb->user_data);
    }
    cJSON *slots = arr(w, a, "slot");
    for (uint32_t s = 0; s < arm->slot_count; s++) {
        const sinew_model_slot *sl = &arm->slots[s];
        cJSON *o = obj(w, slots, NULL);
        str(w, o, "name", sl->name);
        str(w, o, "parent", sl->parent < arm->bone_count ? arm->bones[sl->parent].name : "");
        num(w, o, "displayIndex", sl->display_index);
        num(w, o, "z", s);
        if (sl->blend != SINEW_BLEND_NORMAL)
            str(w, o, "blendMode", blend_name(sl->blend));
        if (!color_identity(&sl->color))
            color_json(w, o, "color", &sl->color);
        actions_json(w, o, "actions", sl->first_action, sl->action_count);
        user_data(w, o, sl->user_data);
    }
    cJSON *skins = arr(w, a, "skin");
    for (uint32_t k = 0; k < arm->skin_count; k++) {
        const sinew_model_skin *sk = &arm->skins[k];
        cJSON *o = obj(w, skins, NULL);
        str(w, o, "name", sk->name);
        cJSON *ss = arr(w, o, "slot");
        for (uint32_t i = 0; i < sk->slot_count; i++) {
            const sinew_model_skin_slot *kss = &arm->skin_slots[sk->first_slot + i];
            if (kss->slot >= arm->slot_count)
                continue;
            cJSON *so = obj(w, ss, NULL);
            str(w, so, "name", arm->slots[kss->slot].name);
            cJSON *ds = arr(w, so, "display");
            for (uint32_t d = 0; d < kss->display_count; d++)
                display_json(w, ds, &arm->displays[kss->first_display + d]);
        }
    }
    if (arm->ik_count) {
        cJSON *iks = arr(w, a, "ik");
        for (uint32_t i = 0; i < arm->ik_count; i++) {
            const sinew_model_ik *ik = &arm->iks[i];
            cJSON *o = obj(w, iks, NULL);
            str(w, o, "name", ik->name);
            str(w, o, "bone", arm->bones[ik->bone].name);
            str(w, o, "target", arm->bones[ik->target].name);
            num(w, o, "chain", ik->chain);
            if (!ik->bend_positive)
                cJSON_AddFalseToObject(o, "bendPositive");
            if (ik->weight != 1)
                num(w, o, "weight", fnum(ik->weight));
            if (ik->scale)
                cJSON_AddTrueToObject(o, "scale");
        }
    }
    if (arm->path_constraint_count)
        path_constraints_json(w, a, arm);
    cJSON *anims = arr(w, a, "animation");
    for (uint32_t i = 0; i < arm->animation_count; i++)
        animation_json(w, anims, &arm->animations[i]);
    w->arm = NULL;
}

sinew_status sinew__db_write_json(const struct sinew_data *data, const sinew_db_write_options *opts, char **out_text,
                                  size_t *out_size, sinew_error *err) {
    if (!data || !out_text)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew__db_write_json: NULL argument");
    *out_text = NULL;
    if (out_size)
        *out_size = 0;
    sinew_db_write_options none;
    memset(&none, 0, sizeof none);
    wctx w;
    memset(&w, 0, sizeof w);
    w.o = opts ? opts : &none;
    w.a = w.o->allocator;
    w.data = data;
    w.err = err;
    cJSON *root = obj(&w, NULL, NULL);
    str(&w, root, "name", data->name ? data->name : "");
    str(&w, root, "version", "4.5");
    num(&w, root, "frameRate", fnum(data->frame_rate > 0 ? data->frame_rate : 24));
    num(&w, root, "isGlobal", 0);
    user_data(&w, root, data->user_data);
    cJSON *arms = arr(&w, root, "armature");
    for (uint32_t i = 0; i < data->armature_count && !w.nomem; i++)
        armature_json(&w, arms, &data->armatures[i]);
    if (w.o->warning_count)
        *w.o->warning_count = w.warnings;
    size_t size = 0;
    char *text = w.nomem ? NULL : sinew__json_print(root, true, w.a, &size);
    cJSON_Delete(root);
    if (!text)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory writing DragonBones JSON");
    *out_text = text;
    if (out_size)
        *out_size = size;
    return SINEW_OK;
}

