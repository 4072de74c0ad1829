/*
 * DragonBones JSON -> DragonBones binary (DBBin), see dbbin.h and docs/convert.md.
 *
 * The binary carries the official JSON parser's own arrays. This file walks a DragonBones JSON
 * document the way that parser does (skins, then animations, armature by armature) and appends
 * the same entries to the same six arrays, with the parser's number semantics: JSON values read
 * as JS numbers (`+value || 0`, null and "NaN" take the default), Math.round, and the typed-array
 * conversions (int16 / uint16 wrap, float32 rounding) applied only when the arrays are written.
 *
 * The document that goes into the header is the same JSON with the array data taken out: a mesh
 * display gets `offset` (its entry in intArray), an animation gets `offset` (its three frame
 * array starts) and per target a list of timeline type + timelineArray offset pairs; the actions
 * fired by frames become the armature's `actions`, in the order the parser collects them, so the
 * action frames' indices refer to the same actions.
 *
 * Where the binary cannot say what the JSON says (keys the parser drops beyond the frame grid,
 * 16-bit offsets that overflow, path displays, shared meshes), the writer refuses with
 * SINEW_E_UNSUPPORTED naming the construct.
 */
#include "format/dbbin.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/json_dom.h"
#include "base/json_print.h"
#include "base/num.h"

static const double PI_D = 3.141592653589793;

enum { A_INT = 0, A_FLOAT, A_FRAME_INT, A_FRAME_FLOAT, A_FRAME, A_TIMELINE, A_COUNT };

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

/* One display the parser met in a skin, for the deform timelines' look-ups. */
typedef struct disp_ref {
    uint32_t skin;          /* skin ordinal in the armature */
    const char *slot, *name;
    bool is_mesh;
    size_t offset;          /* intArray entry of the mesh */
    double vertex_count;
    bool weighted;
    size_t weight_offset;   /* intArray entry of the weight block */
    size_t bone_count;
    const cJSON *slot_pose, *bone_poses;
} disp_ref;

typedef struct act_frame {
    double start;
    size_t *idx;
    size_t n, cap;
} act_frame;

typedef struct wctx {
    const sinew_allocator *alloc; /* every buffer of the writer (NULL = libc) */
    const char *file;
    sinew_error *err;
    sinew_status st;
    sinew_log_fn log;           /* warnings (what the binary leaves out, as the parser does) */
    void *log_user;
    uint32_t warnings;
    const char *arm_name, *anim_name; /* for warnings */
    dvec a[A_COUNT];
    double default_color;
    /* armature */
    const cJSON *bones, *slots, *iks;
    size_t slot_count;          /* distinct slot names */
    cJSON *actions_out;
    size_t action_count;
    const char **skin_names;
    uint32_t skin_count;
    size_t skin_names_cap;      /* entries allocated */
    disp_ref *disps;
    size_t disp_n, disp_cap;
    /* animation */
    double frame_count;
    size_t off_fi, off_ff, off_f;
    act_frame *af;
    size_t af_n, af_cap;
    size_t tl;
    double prev_rot, prev_cw;
    const char *ctx_bone, *ctx_slot;
    const disp_ref *mesh;
    double surface_values;
} wctx;

static bool fail(wctx *w, sinew_status code, const char *fmt, ...) {
    if (w->st != SINEW_OK)
        return false;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    sinew__vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    w->st = sinew__fail_at(w->err, code, w->file, 0, 0, NULL, "%s", msg);
    return false;
}

static bool nomem(wctx *w) { return fail(w, SINEW_E_NOMEM, "out of memory"); }

/* A warning naming the armature and animation being written. */
SINEW_PRINTF(2, 3)
static void warn(wctx *w, const char *fmt, ...) {
    w->warnings++;
    va_list ap;
    va_start(ap, fmt);
    sinew__writer_warning(w->log, w->log_user, w->file, w->arm_name ? w->arm_name : "", w->anim_name, fmt, ap);
    va_end(ap);
}

/* ---- growing arrays with JS array semantics (holes read as 0 once typed) ---------------------- */

static bool dv_reserve(wctx *w, dvec *d, size_t n) {
    if (n <= d->cap)
        return true;
    size_t cap = d->cap ? d->cap : 256;
    while (cap < n) {
        if (cap > SIZE_MAX / 4)
            return nomem(w);
        cap *= 2;
    }
    double *v = sinew__realloc(w->alloc, d->v, d->cap * sizeof *v, cap * sizeof *v);
    if (!v)
        return nomem(w);
    memset(v + d->cap, 0, (cap - d->cap) * sizeof *v);
    d->v = v;
    d->cap = cap;
    return true;
}

/* `length += add`: the new entries are holes (0). */
static bool grow(wctx *w, int which, size_t add) {
    dvec *d = &w->a[which];
    if (add > (size_t)1 << 28 || !dv_reserve(w, d, d->n + add))
        return add > (size_t)1 << 28 ? fail(w, SINEW_E_LIMIT, "an array grows past 2^28 entries") : false;
    d->n += add;
    return true;
}

/* `array[i] = v`, extending the array past its end like a JS array. */
static bool put(wctx *w, int which, size_t i, double v) {
    dvec *d = &w->a[which];
    if (i >= d->n) {
        if (i > (size_t)1 << 28)
            return fail(w, SINEW_E_LIMIT, "an array grows past 2^28 entries");
        if (!dv_reserve(w, d, i + 1))
            return false;
        d->n = i + 1;
    }
    d->v[i] = v;
    return true;
}

static double at(const wctx *w, int which, size_t i) {
    const dvec *d = &w->a[which];
    return i < d->n ? d->v[i] : NAN;
}

/* ---- JSON values read as the parser reads them ------------------------------------------------ */

static const cJSON *get(const cJSON *o, const char *key) {
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static bool js_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static double js_string_number(const char *s) {
    while (js_space(*s))
        s++;
    if (!*s)
        return 0.0;
    char *end = NULL;
    double v = sinew__strtod(s, &end);
    if (end == s)
        return NAN;
    while (js_space(*end))
        end++;
    return *end ? NAN : v;
}

/* A JSON value in arithmetic (ToNumber). */
static double to_number(const cJSON *v) {
    if (!v)
        return NAN;
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsTrue(v))
        return 1.0;
    if (cJSON_IsFalse(v) || cJSON_IsNull(v))
        return 0.0;
    if (cJSON_IsString(v))
        return js_string_number(v->valuestring);
    if (cJSON_IsArray(v)) {
        int n = cJSON_GetArraySize(v);
        return n == 0 ? 0.0 : n == 1 ? to_number(cJSON_GetArrayItem(v, 0)) : NAN;
    }
    return NAN;
}

/* _getNumber: absent, null or "NaN" -> def, else +value || 0. */
static double num(const cJSON *o, const char *key, double def) {
    const cJSON *v = get(o, key);
    if (!v || cJSON_IsNull(v) || (cJSON_IsString(v) && strcmp(v->valuestring, "NaN") == 0))
        return def;
    double d = to_number(v);
    return isnan(d) || d == 0.0 ? 0.0 : d;
}

static bool jbool(const cJSON *o, const char *key, bool def) {
    const cJSON *v = get(o, key);
    if (!v)
        return def;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    if (cJSON_IsString(v)) {
        static const char *const no[] = {"0", "NaN", "", "false", "null", "undefined"};
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
            if (strcmp(v->valuestring, no[i]) == 0)
                return false;
        return true;
    }
    if (cJSON_IsNumber(v))
        return v->valuedouble != 0.0 && !isnan(v->valuedouble);
    return !cJSON_IsNull(v);
}

/* _getString for names; a non-string name is refused rather than guessed. */
static bool jstr(wctx *w, const cJSON *o, const char *key, const char *def, const char **out) {
    const cJSON *v = get(o, key);
    if (!v) {
        *out = def;
        return true;
    }
    if (!cJSON_IsString(v))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a non-string \"%s\" value", key);
    *out = v->valuestring;
    return true;
}

static double elem(const cJSON *a, double i) {
    if (!cJSON_IsArray(a) || i < 0 || i != floor(i) || i > 1e9)
        return NAN;
    return to_number(cJSON_GetArrayItem(a, (int)i));
}

static double len(const cJSON *a) { return cJSON_IsArray(a) ? (double)cJSON_GetArraySize(a) : 0.0; }

static double js_round(double x) {
    if (!isfinite(x))
        return x;
    double r = floor(x);
    return x - r >= 0.5 ? r + 1.0 : r;
}

static double normalize_radian(double v) {
    v = fmod(v + PI_D, PI_D * 2.0);
    v += v > 0.0 ? -PI_D : PI_D;
    return v;
}

/* ---- the parser's matrix helpers ---------------------------------------------------------------- */

typedef struct mat {
    double a, b, c, d, tx, ty;
} mat;

static mat mat_from(const cJSON *arr, double off) {
    mat m = {elem(arr, off), elem(arr, off + 1), elem(arr, off + 2), elem(arr, off + 3), elem(arr, off + 4),
             elem(arr, off + 5)};
    return m;
}

static void mat_invert(mat *m) {
    double a = m->a, b = m->b, c = m->c, d = m->d, tx = m->tx, ty = m->ty;
    if (b == 0.0 && c == 0.0) {
        m->b = m->c = 0.0;
        if (a == 0.0 || d == 0.0) {
            m->a = m->b = m->tx = m->ty = 0.0; /* d is left as it was, as the runtime does */
        } else {
            a = m->a = 1.0 / a;
            d = m->d = 1.0 / d;
            m->tx = -a * tx;
            m->ty = -d * ty;
        }
        return;
    }
    double det = a * d - b * c;
    if (det == 0.0) {
        m->a = m->d = 1.0;
        m->b = m->c = m->tx = m->ty = 0.0;
        return;
    }
    det = 1.0 / det;
    double k = m->a = d * det;
    b = m->b = -b * det;
    c = m->c = -c * det;
    d = m->d = a * det;
    m->tx = -(k * tx + c * ty);
    m->ty = -(b * tx + d * ty);
}

static void mat_apply(const mat *m, double x, double y, bool delta, double *ox, double *oy) {
    *ox = m->a * x + m->c * y;
    *oy = m->b * x + m->d * y;
    if (!delta) {
        *ox += m->tx;
        *oy += m->ty;
    }
}

/* ---- easing curve sampling (the parser's bisection on the Bezier x) ------------------------------ */

static void curve_point(double x1, double y1, double x2, double y2, double x3, double y3, double x4, double y4,
                        double t, double *x, double *y) {
    double lt = 1.0 - t, pa = lt * lt, pb = t * t;
    double ka = lt * pa, kb = 3.0 * t * pa, kc = 3.0 * lt * pb, kd = t * pb;
    *x = ka * x1 + kb * x2 + kc * x3 + kd * x4;
    *y = ka * y1 + kb * y2 + kc * y3 + kd * y4;
}

static void sample_curve(const cJSON *curve, double *samples, size_t n) {
    double count = len(curve);
    double step = -2;
    double px = 0.0, py = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)(i + 1) / (double)(n + 1);
        while ((step + 6 < count ? elem(curve, step + 6) : 1.0) < t)
            step += 6;
        bool in = step >= 0 && step + 6 < count;
        double x1 = in ? elem(curve, step) : 0.0, y1 = in ? elem(curve, step + 1) : 0.0;
        double x2 = elem(curve, step + 2), y2 = elem(curve, step + 3);
        double x3 = elem(curve, step + 4), y3 = elem(curve, step + 5);
        double x4 = in ? elem(curve, step + 6) : 1.0, y4 = in ? elem(curve, step + 7) : 1.0;
        double lo = 0.0, hi = 1.0;
        while (hi - lo > 0.0001) {
            double p = (hi + lo) * 0.5;
            curve_point(x1, y1, x2, y2, x3, y3, x4, y4, p, &px, &py);
            if (t - px > 0.0)
                lo = p;
            else
                hi = p;
        }
        samples[i] = py;
    }
}

/* ---- actions ----------------------------------------------------------------------------------- */

static int action_type_of(const char *s) {
    char low[16];
    size_t i = 0;
    for (; s[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
    low[i] = '\0';
    if (s[i])
        return 0;
    if (strcmp(low, "frame") == 0)
        return 10;
    if (strcmp(low, "sound") == 0)
        return 11;
    return 0;
}

/* Adds one action of a frame to the armature's action list (header), as the parser builds it. */
static bool add_action(wctx *w, const cJSON *raw, int type) {
    cJSON *o;
    if (cJSON_IsString(raw)) {
        o = cJSON_CreateObject();
        if (!o || !cJSON_AddNumberToObject(o, "type", type) || !cJSON_AddStringToObject(o, "name", raw->valuestring)) {
            cJSON_Delete(o);
            return nomem(w);
        }
    } else if (cJSON_IsObject(raw)) {
        o = cJSON_Duplicate(raw, 1);
        if (!o)
            return nomem(w);
        if (!get(o, "gotoAndPlay")) {
            const cJSON *t = get(o, "type");
            double v = t && cJSON_IsString(t) ? action_type_of(t->valuestring) : num(o, "type", type);
            cJSON_DeleteItemFromObjectCaseSensitive(o, "type");
            if (!cJSON_AddNumberToObject(o, "type", v)) {
                cJSON_Delete(o);
                return nomem(w);
            }
        }
    } else {
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: an action that is not an object or a name");
    }
    if (!get(o, "bone") && w->ctx_bone && !cJSON_AddStringToObject(o, "bone", w->ctx_bone)) {
        cJSON_Delete(o);
        return nomem(w);
    }
    if (!get(o, "slot") && w->ctx_slot && !cJSON_AddStringToObject(o, "slot", w->ctx_slot)) {
        cJSON_Delete(o);
        return nomem(w);
    }
    cJSON_AddItemToArray(w->actions_out, o);
    w->action_count++;
    return true;
}

static bool af_push(wctx *w, act_frame *f, size_t idx) {
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4;
        size_t *p = sinew__realloc(w->alloc, f->idx, f->cap * sizeof *p, cap * sizeof *p);
        if (!p)
            return nomem(w);
        f->idx = p;
        f->cap = cap;
    }
    f->idx[f->n++] = idx;
    return true;
}

static bool af_insert(wctx *w, size_t at_index, double start) {
    if (w->af_n == w->af_cap) {
        size_t cap = w->af_cap ? w->af_cap * 2 : 8;
        act_frame *p = sinew__realloc(w->alloc, w->af, w->af_cap * sizeof *p, cap * sizeof *p);
        if (!p)
            return nomem(w);
        w->af = p;
        w->af_cap = cap;
    }
    memmove(w->af + at_index + 1, w->af + at_index, (w->af_n - at_index) * sizeof *w->af);
    w->af[at_index] = (act_frame){start, NULL, 0, 0};
    w->af_n++;
    return true;
}

/* The parser's merge of one action key of a frame into the animation's action frames. */
static bool merge_actions(wctx *w, const cJSON *raw, double start, int type) {
    size_t first = w->action_count;
    if (cJSON_IsString(raw)) {
        if (!add_action(w, raw, type))
            return false;
    } else if (cJSON_IsArray(raw)) {
        for (const cJSON *a = raw->child; a; a = a->next)
            if (!add_action(w, a, type))
                return false;
    }
    if (w->af_n == 0 && !af_insert(w, 0, 0.0))
        return false;
    size_t index = 0;
    act_frame *frame = NULL;
    for (size_t i = 0; i < w->af_n; i++) {
        if (w->af[i].start == start) {
            frame = &w->af[i];
            break;
        }
        if (w->af[i].start > start)
            break;
        index++;
    }
    if (!frame) {
        /* The parser splices after the scanned position (its frame list starts with frame 0). */
        size_t pos = index + 1 > w->af_n ? w->af_n : index + 1;
        if (!af_insert(w, pos, start))
            return false;
        frame = &w->af[pos];
    }
    for (size_t i = first; i < w->action_count; i++)
        if (!af_push(w, frame, i))
            return false;
    return true;
}

static bool frame_actions(wctx *w, const cJSON *raw, double start) {
    static const struct {
        const char *key;
        int type;
    } keys[] = {{"event", 10}, {"sound", 11}, {"action", 0}, {"events", 10}, {"actions", 0}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = get(raw, keys[i].key);
        if (v && !merge_actions(w, v, start, keys[i].type))
            return false;
    }
    return true;
}

/* ---- frames ------------------------------------------------------------------------------------- */

typedef bool (*frame_fn)(wctx *w, const cJSON *raw, double start, double count, size_t *frame_offset);

static bool plain_frame(wctx *w, double start, size_t *off) {
    *off = w->a[A_FRAME].n;
    return grow(w, A_FRAME, 1) && put(w, A_FRAME, *off, start);
}

static bool tween_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    if (!plain_frame(w, start, off))
        return false;
    size_t o = *off;
    if (!(count > 0))
        return grow(w, A_FRAME, 1) && put(w, A_FRAME, o + 1, 0);
    const cJSON *curve = get(raw, "curve");
    if (curve) {
        double sc = count + 1;
        if (!cJSON_IsArray(curve))
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a `curve` that is not an array");
        if (sc != floor(sc) || sc > 1e6)
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a curve on a key of fractional length %g", count);
        size_t n = (size_t)sc;
        double *s = sinew__alloc(w->alloc, n * sizeof *s);
        if (!s)
            return nomem(w);
        sample_curve(curve, s, n);
        bool ok = grow(w, A_FRAME, 2 + n) && put(w, A_FRAME, o + 1, 2) && put(w, A_FRAME, o + 2, sc);
        for (size_t i = 0; ok && i < n; i++)
            ok = put(w, A_FRAME, o + 3 + i, js_round(s[i] * 10000.0));
        sinew__free(w->alloc, s, n * sizeof *s);
        return ok;
    }
    double e = -2.0;
    if (get(raw, "tweenEasing"))
        e = num(raw, "tweenEasing", -2.0);
    if (e == -2.0)
        return grow(w, A_FRAME, 1) && put(w, A_FRAME, o + 1, 0);
    if (e == 0.0)
        return grow(w, A_FRAME, 1) && put(w, A_FRAME, o + 1, 1);
    if (e < 0.0)
        return grow(w, A_FRAME, 2) && put(w, A_FRAME, o + 1, 3) && put(w, A_FRAME, o + 2, js_round(-e * 100.0));
    if (e <= 1.0)
        return grow(w, A_FRAME, 2) && put(w, A_FRAME, o + 1, 4) && put(w, A_FRAME, o + 2, js_round(e * 100.0));
    return grow(w, A_FRAME, 2) && put(w, A_FRAME, o + 1, 5) && put(w, A_FRAME, o + 2, js_round(e * 100.0 - 100.0));
}

/* The parser's unwrapping of keyed rotations (shortest way, or `clockwise` extra turns). */
static double unwrap(wctx *w, double rotation, double start) {
    if (start != 0) {
        if (w->prev_cw == 0) {
            rotation = w->prev_rot + normalize_radian(rotation - w->prev_rot);
        } else {
            if (w->prev_cw > 0 ? rotation >= w->prev_rot : rotation <= w->prev_rot)
                w->prev_cw = w->prev_cw > 0 ? w->prev_cw - 1 : w->prev_cw + 1;
            rotation = w->prev_rot + rotation - w->prev_rot + PI_D * 2.0 * w->prev_cw;
        }
    }
    return rotation;
}

static bool floats(wctx *w, const double *v, size_t n) {
    size_t o = w->a[A_FRAME_FLOAT].n;
    if (!grow(w, A_FRAME_FLOAT, n))
        return false;
    for (size_t i = 0; i < n; i++)
        w->a[A_FRAME_FLOAT].v[o + i] = v[i];
    return true;
}

static bool bone_all_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    double x = 0, y = 0, rot = 0, skew = 0, sx = 1, sy = 1;
    const cJSON *t = get(raw, "transform");
    if (t) {
        x = num(t, "x", 0.0);
        y = num(t, "y", 0.0);
        if (get(t, "rotate") || get(t, "skew")) {
            rot = normalize_radian(num(t, "rotate", 0.0) * (PI_D / 180.0));
            skew = normalize_radian(num(t, "skew", 0.0) * (PI_D / 180.0));
        } else if (get(t, "skX") || get(t, "skY")) {
            rot = normalize_radian(num(t, "skY", 0.0) * (PI_D / 180.0));
            skew = normalize_radian(num(t, "skX", 0.0) * (PI_D / 180.0)) - rot;
        }
        sx = num(t, "scX", 1.0);
        sy = num(t, "scY", 1.0);
    }
    double r = unwrap(w, rot, start);
    w->prev_cw = num(raw, "tweenRotate", 0.0);
    w->prev_rot = r;
    if (!tween_frame(w, raw, start, count, off))
        return false;
    double v[6] = {x, y, r, skew, sx, sy};
    return floats(w, v, 6) && frame_actions(w, raw, start);
}

static bool translate_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    double v[2] = {num(raw, "x", 0.0), num(raw, "y", 0.0)};
    return tween_frame(w, raw, start, count, off) && floats(w, v, 2);
}

static bool rotate_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    double r = unwrap(w, num(raw, "rotate", 0.0) * (PI_D / 180.0), start);
    w->prev_cw = num(raw, "clockwise", 0.0);
    w->prev_rot = r;
    if (!tween_frame(w, raw, start, count, off))
        return false;
    double v[2] = {r, num(raw, "skew", 0.0) * (PI_D / 180.0)};
    return floats(w, v, 2);
}

static bool scale_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    double v[2] = {num(raw, "x", 1.0), num(raw, "y", 1.0)};
    return tween_frame(w, raw, start, count, off) && floats(w, v, 2);
}

/* The deform header of a vertex timeline, written with its first frame. */
static bool deform_header(wctx *w, double vertex_offset, size_t float_offset) {
    size_t fi = w->a[A_FRAME_INT].n;
    double count = (double)(w->a[A_FRAME_FLOAT].n - float_offset);
    if (!grow(w, A_FRAME_INT, 5))
        return false;
    double *v = w->a[A_FRAME_INT].v + fi;
    v[0] = vertex_offset;
    v[1] = count;
    v[2] = count;
    v[3] = 0;
    v[4] = (double)(float_offset - w->off_ff);
    return put(w, A_TIMELINE, w->tl + 3, (double)(fi - w->off_fi));
}

static double vertex_at(const cJSON *verts, double offset, double i) {
    if (!verts)
        return 0.0;
    if (i < offset || i - offset >= len(verts))
        return 0.0;
    return elem(verts, i - offset);
}

static bool surface_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    size_t ffo = w->a[A_FRAME_FLOAT].n;
    if (!tween_frame(w, raw, start, count, off))
        return false;
    const cJSON *verts = get(raw, "vertices");
    if (!cJSON_IsArray(verts))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a surface frame without `vertices`");
    double offset = num(raw, "offset", 0.0);
    double n = w->surface_values;
    if (!grow(w, A_FRAME_FLOAT, (size_t)n))
        return false;
    for (double i = 0; i < n; i += 2) {
        w->a[A_FRAME_FLOAT].v[ffo + (size_t)i] = vertex_at(verts, offset, i);
        w->a[A_FRAME_FLOAT].v[ffo + (size_t)i + 1] = vertex_at(verts, offset, i + 1);
    }
    return start == 0 ? deform_header(w, 0, ffo) : true;
}

static bool display_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    (void)count;
    if (!plain_frame(w, start, off) || !grow(w, A_FRAME, 1))
        return false;
    double v = get(raw, "value") ? num(raw, "value", 0.0) : num(raw, "displayIndex", 0.0);
    return put(w, A_FRAME, *off + 1, v) && frame_actions(w, raw, start);
}

static bool color_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    if (!tween_frame(w, raw, start, count, off))
        return false;
    double color_offset = -1;
    const cJSON *c = get(raw, "value") ? get(raw, "value") : get(raw, "color");
    if (c && !cJSON_IsObject(c) && !cJSON_IsNull(c) && !(cJSON_IsString(c) && !c->valuestring[0]) &&
        !cJSON_IsNumber(c) && !cJSON_IsBool(c))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a frame colour that is not an object");
    if (cJSON_IsObject(c) && c->child) {
        size_t o = w->a[A_INT].n;
        if (!grow(w, A_INT, 8))
            return false;
        double *v = w->a[A_INT].v + o;
        v[0] = js_round(num(c, "aM", 100) * 0.01 * 100);
        v[1] = js_round(num(c, "rM", 100) * 0.01 * 100);
        v[2] = js_round(num(c, "gM", 100) * 0.01 * 100);
        v[3] = js_round(num(c, "bM", 100) * 0.01 * 100);
        v[4] = js_round(num(c, "aO", 0));
        v[5] = js_round(num(c, "rO", 0));
        v[6] = js_round(num(c, "gO", 0));
        v[7] = js_round(num(c, "bO", 0));
        color_offset = (double)o;
    }
    if (color_offset < 0) {
        if (w->default_color < 0) {
            size_t o = w->a[A_INT].n;
            if (!grow(w, A_INT, 8))
                return false;
            double *v = w->a[A_INT].v + o;
            v[0] = v[1] = v[2] = v[3] = 100;
            w->default_color = (double)o;
        }
        color_offset = w->default_color;
    }
    size_t fi = w->a[A_FRAME_INT].n;
    return grow(w, A_FRAME_INT, 1) && put(w, A_FRAME_INT, fi, color_offset);
}

static bool ffd_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    size_t ffo = w->a[A_FRAME_FLOAT].n;
    if (!tween_frame(w, raw, start, count, off))
        return false;
    const cJSON *verts = get(raw, "vertices");
    double offset = num(raw, "offset", 0.0);
    const disp_ref *m = w->mesh;
    double vc = at(w, A_INT, m->offset);
    size_t ib = 0, iv = 0;
    mat slot_pose = {1, 0, 0, 1, 0, 0};
    if (verts && !cJSON_IsArray(verts))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: deform `vertices` that are not an array");
    size_t add = (size_t)(vc * 2);
    if (m->weighted) {
        slot_pose = mat_from(m->slot_pose, 0);
        /* The parser grows by the mesh's influence count * 2. */
        double influences = 0;
        size_t b = m->weight_offset + 2 + m->bone_count;
        for (double i = 0; i < vc; i++) {
            double k = at(w, A_INT, b);
            influences += k;
            b += 1 + (size_t)k;
        }
        add = (size_t)(influences * 2);
        ib = m->weight_offset + 2 + m->bone_count;
    }
    if (!grow(w, A_FRAME_FLOAT, add))
        return false;
    for (double i = 0; i < vc * 2; i += 2) {
        double x = verts ? vertex_at(verts, offset, i) : 0.0;
        double y = verts ? vertex_at(verts, offset, i + 1) : 0.0;
        if (m->weighted) {
            double k = at(w, A_INT, ib++);
            double px, py;
            mat_apply(&slot_pose, x, y, true, &px, &py);
            for (double j = 0; j < k; j++) {
                double bi = at(w, A_INT, ib++);
                mat bp = mat_from(m->bone_poses, bi * 7 + 1);
                mat_invert(&bp);
                double qx, qy;
                mat_apply(&bp, px, py, true, &qx, &qy);
                if (!put(w, A_FRAME_FLOAT, ffo + iv++, qx) || !put(w, A_FRAME_FLOAT, ffo + iv++, qy))
                    return false;
            }
        } else {
            w->a[A_FRAME_FLOAT].v[ffo + (size_t)i] = x;
            w->a[A_FRAME_FLOAT].v[ffo + (size_t)i + 1] = y;
        }
    }
    return start == 0 ? deform_header(w, (double)m->offset, ffo) : true;
}

static bool ik_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    if (!tween_frame(w, raw, start, count, off))
        return false;
    size_t fi = w->a[A_FRAME_INT].n;
    return grow(w, A_FRAME_INT, 2) && put(w, A_FRAME_INT, fi, jbool(raw, "bendPositive", true) ? 1 : 0) &&
           put(w, A_FRAME_INT, fi + 1, js_round(num(raw, "weight", 1.0) * 100.0));
}

static bool anim_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    if (!tween_frame(w, raw, start, count, off))
        return false;
    size_t fi = w->a[A_FRAME_INT].n;
    return grow(w, A_FRAME_INT, 2) && put(w, A_FRAME_INT, fi, num(raw, "value", 0.0)) &&
           put(w, A_FRAME_INT, fi + 1, js_round(num(raw, "weight", 1.0) * 100.0));
}

static bool zorder_frame(wctx *w, const cJSON *raw, double start, double count, size_t *off) {
    (void)count;
    if (!plain_frame(w, start, off))
        return false;
    const cJSON *z = get(raw, "zOrder");
    double zl = len(z);
    size_t o = *off;
    if (!cJSON_IsArray(z) || zl == 0)
        return grow(w, A_FRAME, 1) && put(w, A_FRAME, o + 1, 0);
    size_t n = w->slot_count;
    if ((size_t)zl % 2 || zl / 2 > (double)n)
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: a zOrder frame with %g entries for %zu slots", zl, n);
    double *unchanged = sinew__calloc(w->alloc, n + 1, sizeof *unchanged);
    double *orders = unchanged ? sinew__calloc(w->alloc, n + 1, sizeof *orders) : NULL;
    if (!orders) {
        sinew__free(w->alloc, unchanged, (n + 1) * sizeof *unchanged);
        return nomem(w);
    }
    for (size_t i = 0; i < n; i++)
        orders[i] = -1;
    double original = 0;
    size_t u = 0;
    bool ok = true;
    for (double i = 0; i < zl && ok; i += 2) {
        double slot = elem(z, i), shift = elem(z, i + 1);
        if (!(slot >= original && slot < (double)n && slot == floor(slot))) {
            ok = fail(w, SINEW_E_UNSUPPORTED, "DBBin: a zOrder frame whose slot indices are not increasing");
            break;
        }
        while (original != slot)
            unchanged[u++] = original++;
        double index = original + shift;
        if (index >= 0 && index < (double)n && index == floor(index))
            orders[(size_t)index] = original;
        original++;
    }
    while (ok && original < (double)n)
        unchanged[u++] = original++;
    if (ok)
        ok = grow(w, A_FRAME, 1 + n) && put(w, A_FRAME, o + 1, (double)n);
    for (size_t i = n; ok && i-- > 0;) {
        double v;
        if (orders[i] == -1)
            v = u > 0 ? unchanged[--u] : 0; /* below the start: undefined -> 0 */
        else
            v = orders[i];
        w->a[A_FRAME].v[o + 2 + i] = isnan(v) ? 0 : v;
    }
    sinew__free(w->alloc, unchanged, (n + 1) * sizeof *unchanged);
    sinew__free(w->alloc, orders, (n + 1) * sizeof *orders);
    return ok;
}

/* ---- timelines ------------------------------------------------------------------------------------ */

static bool check_frame_ref(wctx *w, size_t frame_offset, double *out) {
    double rel = (double)frame_offset - (double)w->off_f;
    if (rel > 65535)
        return fail(w, SINEW_E_UNSUPPORTED,
                    "DBBin: an animation's frames take more than 65535 entries (16-bit timeline offsets)");
    *out = rel;
    return true;
}

/* The parser's timeline: header, then each key parsed at its start on the integer frame grid.
 * *out is the timelineArray offset, or SIZE_MAX when the parser makes no timeline. */
static bool timeline(wctx *w, const cJSON *raw, const char *frames_key, double value_count, int value_kind,
                     frame_fn fn, const char *what, size_t *out) {
    *out = SIZE_MAX;
    const cJSON *frames = get(raw, frames_key);
    if (!frames)
        return true;
    if (!cJSON_IsArray(frames))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: %s `%s` is not an array", what, frames_key);
    size_t n = (size_t)cJSON_GetArraySize(frames);
    if (n == 0)
        return true;
    if (n > 65535)
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: %s has more than 65535 keys", what);
    size_t fi0 = w->a[A_FRAME_INT].n, ff0 = w->a[A_FRAME_FLOAT].n;
    size_t tl = w->a[A_TIMELINE].n;
    if (!grow(w, A_TIMELINE, 5 + n))
        return false;
    double *t = w->a[A_TIMELINE].v + tl;
    t[0] = js_round(num(raw, "scale", 1.0) * 100);
    t[1] = js_round(num(raw, "offset", 0.0) * 100);
    t[2] = (double)n;
    t[3] = value_count;
    t[4] = value_kind == 1 ? (double)(fi0 - w->off_fi) : value_kind == 2 ? (double)(ff0 - w->off_ff) : 0;
    w->tl = tl;
    const cJSON *f = frames->child;
    size_t fo;
    double rel = 0;
    if (n == 1) {
        if (!fn(w, f, 0, 0, &fo) || !check_frame_ref(w, fo, &rel))
            return false;
        w->a[A_TIMELINE].v[tl + 5] = rel;
    } else {
        double total = w->frame_count + 1, start = 0, count = 0;
        size_t k = 0;
        for (double i = 0; i < total; i++) {
            if (start + count <= i && k < n) {
                start = i;
                count = k == n - 1 ? w->frame_count - start : num(f, "duration", 1.0);
                if (!fn(w, f, start, count, &fo) || !check_frame_ref(w, fo, &rel))
                    return false;
                w->a[A_TIMELINE].v[tl + 5 + k] = rel;
                k++;
                f = f->next;
            }
        }
        if (k < n)
            return fail(w, SINEW_E_UNSUPPORTED,
                        "DBBin: %s has %zu keys past the end of its animation (the parser drops them; the "
                        "binary cannot say so)",
                        what, n - k);
    }
    *out = tl;
    return true;
}

/* The action timeline, built from the merged action frames. */
static bool action_timeline(wctx *w, size_t *out) {
    size_t n = w->af_n;
    size_t tl = w->a[A_TIMELINE].n;
    if (n > 65535)
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: an animation has more than 65535 action frames");
    if (!grow(w, A_TIMELINE, 5 + n))
        return false;
    double *t = w->a[A_TIMELINE].v + tl;
    t[0] = 100;
    t[1] = 0;
    t[2] = (double)n;
    t[3] = 0;
    t[4] = 0;
    double total = w->frame_count + 1, start = 0, count = 0;
    size_t k = 0;
    for (double i = 0; i < total && k < n; i++) {
        if (!(start + count <= i) && n > 1)
            continue;
        start = n == 1 ? 0 : i;
        count = n == 1 ? 0 : k == n - 1 ? w->frame_count - start : w->af[k + 1].start - start;
        act_frame *f = &w->af[k];
        size_t fo = w->a[A_FRAME].n;
        double rel = 0;
        if (!grow(w, A_FRAME, 2 + f->n) || !put(w, A_FRAME, fo, start) || !put(w, A_FRAME, fo + 1, (double)f->n))
            return false;
        for (size_t j = 0; j < f->n; j++)
            w->a[A_FRAME].v[fo + 2 + j] = (double)f->idx[j];
        if (!check_frame_ref(w, fo, &rel))
            return false;
        w->a[A_TIMELINE].v[tl + 5 + k] = rel;
        k++;
        if (n == 1)
            break;
    }
    if (k < n) {
        /* the official parser never reaches them either (its loop ends with the animation): the
           binary holds the frames it keeps, and plays as the JSON does */
        warn(w, "%zu action frame%s past the end of the animation left out, as the official parser drops them",
             n - k, n - k == 1 ? "" : "s");
        w->a[A_TIMELINE].v[tl + 2] = (double)k;
        w->a[A_TIMELINE].n = tl + 5 + k;
    }
    *out = tl;
    return true;
}

/* Appends [type, offset] to header[group][name]. */
static bool list_timeline(wctx *w, cJSON *anim, const char *group, const char *name, int type, size_t offset) {
    if (offset == SIZE_MAX)
        return true;
    cJSON *g = cJSON_GetObjectItemCaseSensitive(anim, group);
    if (!g && !(g = cJSON_AddObjectToObject(anim, group)))
        return nomem(w);
    cJSON *l = cJSON_GetObjectItemCaseSensitive(g, name);
    if (!l && !(l = cJSON_AddArrayToObject(g, name)))
        return nomem(w);
    cJSON *a = cJSON_CreateNumber(type), *b = cJSON_CreateNumber((double)offset);
    if (!a || !b) {
        cJSON_Delete(a);
        cJSON_Delete(b);
        return nomem(w);
    }
    cJSON_AddItemToArray(l, a);
    cJSON_AddItemToArray(l, b);
    return true;
}

/* ---- armature look-ups ----------------------------------------------------------------------------- */

static const cJSON *find_named(const cJSON *list, const char *name) {
    if (!cJSON_IsArray(list))
        return NULL;
    for (const cJSON *e = list->child; e; e = e->next) {
        const cJSON *n = get(e, "name");
        const char *s = n && cJSON_IsString(n) ? n->valuestring : "";
        if (strcmp(s, name) == 0)
            return e;
    }
    return NULL;
}

/* An IK constraint the parser keeps: named, with an existing bone and target. */
static bool find_ik(const wctx *w, const char *name) {
    for (const cJSON *e = cJSON_IsArray(w->iks) ? w->iks->child : NULL; e; e = e->next) {
        const cJSON *n = get(e, "name"), *b = get(e, "bone"), *t = get(e, "target");
        if (strcmp(n && cJSON_IsString(n) ? n->valuestring : "", name) != 0)
            continue;
        if (b && cJSON_IsString(b) && t && cJSON_IsString(t) && find_named(w->bones, b->valuestring) &&
            find_named(w->bones, t->valuestring))
            return true;
    }
    return false;
}

static const disp_ref *find_display(const wctx *w, const char *skin, const char *slot, const char *name) {
    uint32_t s = UINT32_MAX;
    for (uint32_t i = 0; i < w->skin_count; i++)
        if (strcmp(w->skin_names[i], skin) == 0) {
            s = i;
            break;
        }
    if (s == UINT32_MAX)
        return NULL;
    for (size_t i = 0; i < w->disp_n; i++)
        if (w->disps[i].skin == s && strcmp(w->disps[i].slot, slot) == 0 && strcmp(w->disps[i].name, name) == 0)
            return &w->disps[i];
    return NULL;
}

/* 0 when equal ignoring ASCII case (strcasecmp without POSIX). */
static int ieq0(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 1;
    return *a != *b;
}

static int display_type(const cJSON *d) {
    const cJSON *t = get(d, "type");
    if (t && cJSON_IsString(t)) {
        const char *s = t->valuestring;
        if (ieq0(s, "mesh") == 0)
            return 2;
        if (ieq0(s, "armature") == 0)
            return 1;
        if (ieq0(s, "boundingbox") == 0)
            return 3;
        if (ieq0(s, "path") == 0)
            return 4;
        return 0;
    }
    return (int)num(d, "type", 0);
}

/* ---- meshes ---------------------------------------------------------------------------------------- */

static bool mesh(wctx *w, cJSON *d, disp_ref *ref) {
    const cJSON *verts = get(d, "vertices"), *uvs = get(d, "uvs"), *tris = get(d, "triangles");
    if (get(d, "share") || get(d, "glueWeights") || get(d, "glueMeshes"))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: shared or glued mesh \"%s\" (not written)", ref->name);
    if (!cJSON_IsArray(verts) || !cJSON_IsArray(uvs) || !cJSON_IsArray(tris))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: mesh \"%s\" without vertices, uvs and triangles", ref->name);
    double vc = floor(len(verts) / 2), tc = floor(len(tris) / 3);
    size_t vo = w->a[A_FLOAT].n, uo = vo + (size_t)vc * 2, mo = w->a[A_INT].n;
    if (!grow(w, A_INT, 4 + (size_t)tc * 3))
        return false;
    double *iv = w->a[A_INT].v + mo;
    iv[0] = vc;
    iv[1] = tc;
    iv[2] = (double)vo;
    iv[3] = -1; /* no weights (the binary reader's MeshWeightOffset) */
    for (size_t i = 0; i < (size_t)tc * 3; i++)
        iv[4 + i] = elem(tris, (double)i);
    if (!grow(w, A_FLOAT, (size_t)vc * 4))
        return false;
    for (size_t i = 0; i < (size_t)vc * 2; i++) {
        w->a[A_FLOAT].v[vo + i] = elem(verts, (double)i);
        w->a[A_FLOAT].v[uo + i] = elem(uvs, (double)i);
    }
    ref->is_mesh = true;
    ref->offset = mo;
    ref->vertex_count = vc;
    const cJSON *weights = get(d, "weights");
    if (weights) {
        const cJSON *sp = get(d, "slotPose"), *bp = get(d, "bonePose");
        if (!cJSON_IsArray(weights) || !cJSON_IsArray(sp) || !cJSON_IsArray(bp))
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: weighted mesh \"%s\" without slotPose and bonePose",
                        ref->name);
        double nb = floor(len(bp) / 7);
        double wcount = floor(len(weights) - vc) / 2;
        if (wcount < 0 || wcount != floor(wcount))
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: mesh \"%s\": weights do not fit its vertices", ref->name);
        size_t fo = w->a[A_FLOAT].n, wo = w->a[A_INT].n;
        size_t raw_bones = (size_t)len(w->bones);
        if (!grow(w, A_INT, 2 + (size_t)nb + (size_t)vc + (size_t)wcount))
            return false;
        w->a[A_INT].v[wo] = nb;
        w->a[A_INT].v[wo + 1] = (double)fo;
        for (size_t i = 0; i < (size_t)nb; i++) {
            double rb = elem(bp, (double)i * 7);
            if (!(rb >= 0 && rb < (double)raw_bones && rb == floor(rb)))
                return fail(w, SINEW_E_UNSUPPORTED, "DBBin: mesh \"%s\": bonePose names bone %g, not in the armature",
                            ref->name, rb);
            w->a[A_INT].v[wo + 2 + i] = rb; /* the binary reader's index into the file's bone list */
        }
        if (!grow(w, A_FLOAT, (size_t)wcount * 3))
            return false;
        mat slot_pose = mat_from(sp, 0);
        double iw = 0;
        size_t ib = wo + 2 + (size_t)nb, ivx = fo;
        for (size_t i = 0; i < (size_t)vc; i++) {
            double k = elem(weights, iw++);
            if (!(k >= 0 && k <= nb && k == floor(k)) || iw + k * 2 > len(weights))
                return fail(w, SINEW_E_UNSUPPORTED, "DBBin: mesh \"%s\": weights do not fit its vertices", ref->name);
            if (!put(w, A_INT, ib++, k))
                return false;
            double x, y;
            mat_apply(&slot_pose, w->a[A_FLOAT].v[vo + i * 2], w->a[A_FLOAT].v[vo + i * 2 + 1], false, &x, &y);
            for (double j = 0; j < k; j++) {
                double rb = elem(weights, iw++);
                double bi = -1;
                for (size_t q = 0; q < (size_t)nb; q++)
                    if (elem(bp, (double)q * 7) == rb) {
                        bi = (double)q;
                        break;
                    }
                if (bi < 0)
                    return fail(w, SINEW_E_UNSUPPORTED, "DBBin: mesh \"%s\": a weight on bone %g without a bonePose",
                                ref->name, rb);
                mat m = mat_from(bp, bi * 7 + 1);
                mat_invert(&m);
                double px, py;
                mat_apply(&m, x, y, false, &px, &py);
                if (!put(w, A_INT, ib++, bi) || !put(w, A_FLOAT, ivx++, elem(weights, iw++)) ||
                    !put(w, A_FLOAT, ivx++, px) || !put(w, A_FLOAT, ivx++, py))
                    return false;
            }
        }
        w->a[A_INT].v[mo + 3] = (double)wo;
        ref->weighted = true;
        ref->weight_offset = wo;
        ref->bone_count = (size_t)nb;
        ref->slot_pose = sp;
        ref->bone_poses = bp;
    }
    /* slotPose and bonePose stay in the header: the official reader ignores them, and sinew's
       reader needs them to turn the per-influence deform offsets back into per-vertex ones. */
    static const char *const drop[] = {"vertices", "uvs", "triangles", "weights"};
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
        cJSON_DeleteItemFromObjectCaseSensitive(d, drop[i]);
    if (!cJSON_AddNumberToObject(d, "offset", (double)mo))
        return nomem(w);
    return true;
}

static bool add_disp(wctx *w, const disp_ref *r) {
    if (w->disp_n == w->disp_cap) {
        size_t cap = w->disp_cap ? w->disp_cap * 2 : 32;
        disp_ref *p = sinew__realloc(w->alloc, w->disps, w->disp_cap * sizeof *p, cap * sizeof *p);
        if (!p)
            return nomem(w);
        w->disps = p;
        w->disp_cap = cap;
    }
    w->disps[w->disp_n++] = *r;
    return true;
}

static bool skins(wctx *w, cJSON *arm) {
    cJSON *list = cJSON_GetObjectItemCaseSensitive(arm, "skin");
    if (!cJSON_IsArray(list))
        return true;
    uint32_t n = (uint32_t)cJSON_GetArraySize(list);
    w->skin_names = sinew__calloc(w->alloc, n ? n : 1, sizeof *w->skin_names);
    if (!w->skin_names)
        return nomem(w);
    w->skin_names_cap = n ? n : 1;
    for (cJSON *skin = list->child; skin; skin = skin->next) {
        const char *name;
        if (!jstr(w, skin, "name", "default", &name))
            return false;
        if (!name[0])
            name = "default";
        uint32_t ordinal = w->skin_count;
        bool dup = false;
        for (uint32_t i = 0; i < w->skin_count; i++)
            dup = dup || strcmp(w->skin_names[i], name) == 0;
        w->skin_names[w->skin_count++] = dup ? "\x01(duplicate)" : name;
        cJSON *slots = cJSON_GetObjectItemCaseSensitive(skin, "slot");
        if (!cJSON_IsArray(slots))
            continue;
        for (cJSON *s = slots->child; s; s = s->next) {
            const char *slot_name;
            if (!jstr(w, s, "name", "", &slot_name))
                return false;
            if (!find_named(w->slots, slot_name))
                continue;
            cJSON *displays = cJSON_GetObjectItemCaseSensitive(s, "display");
            if (!cJSON_IsArray(displays))
                continue;
            for (cJSON *d = displays->child; d; d = d->next) {
                if (!cJSON_IsObject(d))
                    continue;
                disp_ref r;
                memset(&r, 0, sizeof r);
                r.skin = ordinal;
                r.slot = slot_name;
                if (!jstr(w, d, "name", "", &r.name))
                    return false;
                int type = display_type(d);
                if (type == 4)
                    return fail(w, SINEW_E_UNSUPPORTED, "DBBin: path display \"%s\" (not written)", r.name);
                if (type == 2 && !mesh(w, d, &r))
                    return false;
                if (!add_disp(w, &r))
                    return false;
            }
        }
    }
    return true;
}

/* ---- animations ------------------------------------------------------------------------------------ */

static bool is_timeline_key(const char *k) {
    static const char *const keys[] = {"frame", "zOrder", "bone", "surface", "slot", "ffd", "ik", "animation",
                                       "offset", "action", "constraint"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

/* The animation's own fields (all but its timelines), and where its frames start in the arrays. */
static bool animation_header(wctx *w, const cJSON *raw, cJSON *a) {
    for (const cJSON *k = raw->child; k; k = k->next) {
        if (is_timeline_key(k->string))
            continue;
        cJSON *c = cJSON_Duplicate(k, 1);
        if (!c)
            return nomem(w);
        cJSON_AddItemToObject(a, k->string, c);
    }
    double fc = num(raw, "duration", 1);
    w->frame_count = fc > 1 ? fc : 1;
    if (!(w->frame_count < 32767))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: an animation of %g frames (16-bit frame positions)", fc);
    w->off_fi = w->a[A_FRAME_INT].n;
    w->off_ff = w->a[A_FRAME_FLOAT].n;
    w->off_f = w->a[A_FRAME].n;
    for (size_t i = 0; i < w->af_n; i++)
        sinew__free(w->alloc, w->af[i].idx, w->af[i].cap * sizeof *w->af[i].idx);
    w->af_n = 0;
    cJSON *offs = cJSON_AddArrayToObject(a, "offset");
    if (!offs)
        return nomem(w);
    double o3[3] = {(double)w->off_fi, (double)w->off_ff, (double)w->off_f};
    for (int i = 0; i < 3; i++) {
        cJSON *n = cJSON_CreateNumber(o3[i]);
        if (!n)
            return nomem(w);
        cJSON_AddItemToArray(offs, n);
    }
    w->ctx_bone = w->ctx_slot = NULL;
    return true;
}

/* The animation frames' actions (events, sounds, actions). */
static bool animation_frame_actions(wctx *w, const cJSON *raw) {
    const cJSON *frames = get(raw, "frame");
    if (cJSON_IsArray(frames)) {
        double start = 0;
        for (const cJSON *f = frames->child; f; f = f->next) {
            if (!frame_actions(w, f, start))
                return false;
            start += num(f, "duration", 1);
        }
    }
    return true;
}

/* The zOrder timeline. */
static bool zorder_timeline(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *z = get(raw, "zOrder");
    if (z) {
        if (!timeline(w, z, "frame", 0, 0, zorder_frame, "the zOrder timeline", &tl))
            return false;
        if (tl != SIZE_MAX && !cJSON_AddNumberToObject(a, "zOrder", (double)tl))
            return nomem(w);
    }
    return true;
}

/* Bone timelines: translate, rotate, scale (5.x) and the combined 4.x frames. */
static bool bone_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "bone");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *name = NULL;
        if (!jstr(w, t, "name", "", &name))
            return false;
        if (!find_named(w->bones, name))
            continue;
        w->ctx_bone = name;
        w->ctx_slot = find_named(w->slots, name) ? name : NULL;
        static const struct {
            const char *key;
            int type;
            double values;
            frame_fn fn;
        } kinds[] = {{"translateFrame", 11, 2, translate_frame},
                     {"rotateFrame", 12, 2, rotate_frame},
                     {"scaleFrame", 13, 2, scale_frame},
                     {"frame", 10, 6, bone_all_frame}};
        for (size_t i = 0; i < 4; i++) {
            char what[300];
            snprintf(what, sizeof what, "bone timeline \"%.200s\"", name);
            if (!timeline(w, t, kinds[i].key, kinds[i].values, 2, kinds[i].fn, what, &tl) ||
                !list_timeline(w, a, "bone", name, kinds[i].type, tl))
                return false;
        }
        w->ctx_bone = w->ctx_slot = NULL;
    }
    return true;
}

/* Surface timelines (5.5). */
static bool surface_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "surface");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *name = NULL;
        if (!jstr(w, t, "name", "", &name))
            return false;
        const cJSON *bone = find_named(w->bones, name);
        if (!bone)
            continue;
        const cJSON *bt = get(bone, "type");
        bool surface = bt && cJSON_IsString(bt) ? ieq0(bt->valuestring, "surface") == 0 : num(bone, "type", 0) == 1;
        if (!surface)
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: surface timeline on bone \"%s\", which is not a surface", name);
        w->surface_values = (num(bone, "segmentX", 0) + 1) * (num(bone, "segmentY", 0) + 1) * 2;
        if (!(w->surface_values >= 0 && w->surface_values < 1e6 && w->surface_values == floor(w->surface_values)))
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: surface \"%s\" has a bad lattice size", name);
        char what[300];
        snprintf(what, sizeof what, "surface timeline \"%.200s\"", name);
        if (!timeline(w, t, "frame", 0, 2, surface_frame, what, &tl) || !list_timeline(w, a, "surface", name, 50, tl))
            return false;
    }
    return true;
}

/* Slot timelines: display and colour. */
static bool slot_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "slot");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *name = NULL;
        if (!jstr(w, t, "name", "", &name))
            return false;
        const cJSON *slot = find_named(w->slots, name);
        if (!slot)
            continue;
        const char *parent = NULL;
        if (!jstr(w, slot, "parent", "", &parent))
            return false;
        w->ctx_bone = find_named(w->bones, parent) ? parent : NULL;
        w->ctx_slot = name;
        char what[300];
        snprintf(what, sizeof what, "slot timeline \"%.200s\"", name);
        if (!timeline(w, t, get(t, "displayFrame") ? "displayFrame" : "frame", 0, 0, display_frame, what, &tl) ||
            !list_timeline(w, a, "slot", name, 20, tl))
            return false;
        if (!timeline(w, t, get(t, "colorFrame") ? "colorFrame" : "frame", 1, 1, color_frame, what, &tl) ||
            !list_timeline(w, a, "slot", name, 21, tl))
            return false;
        w->ctx_bone = w->ctx_slot = NULL;
    }
    return true;
}

/* Deform (ffd) timelines, on mesh displays. */
static bool deform_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "ffd");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *skin = NULL, *slot = NULL, *name = NULL;
        if (!jstr(w, t, "skin", "default", &skin) || !jstr(w, t, "slot", "", &slot) || !jstr(w, t, "name", "", &name))
            return false;
        if (!skin[0])
            skin = "default";
        if (!find_named(w->slots, slot))
            continue;
        const disp_ref *m = find_display(w, skin, slot, name);
        if (!m)
            continue;
        if (!m->is_mesh)
            return fail(w, SINEW_E_UNSUPPORTED, "DBBin: deform timeline on display \"%s\", which is not a mesh", name);
        w->mesh = m;
        char what[300];
        snprintf(what, sizeof what, "deform timeline \"%.200s\"", name);
        if (!timeline(w, t, "frame", 0, 2, ffd_frame, what, &tl) || !list_timeline(w, a, "slot", slot, 22, tl))
            return false;
        w->mesh = NULL;
    }
    return true;
}

/* IK timelines. */
static bool ik_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "ik");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *name = NULL;
        if (!jstr(w, t, "name", "", &name))
            return false;
        if (!find_ik(w, name))
            continue;
        char what[300];
        snprintf(what, sizeof what, "IK timeline \"%.200s\"", name);
        if (!timeline(w, t, "frame", 2, 1, ik_frame, what, &tl) || !list_timeline(w, a, "constraint", name, 30, tl))
            return false;
    }
    return true;
}

/* Child armature animation timelines. */
static bool child_animation_timelines(wctx *w, const cJSON *raw, cJSON *a) {
    size_t tl = SIZE_MAX;
    const cJSON *list = get(raw, "animation");
    for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
        const char *name = NULL;
        if (!jstr(w, t, "name", "", &name))
            return false;
        char what[300];
        snprintf(what, sizeof what, "animation timeline \"%.200s\"", name);
        if (!timeline(w, t, "frame", 2, 1, anim_frame, what, &tl) || !list_timeline(w, a, "animation", name, 40, tl))
            return false;
    }
    return true;
}

static bool animation(wctx *w, const cJSON *raw, cJSON **out) {
    const cJSON *nm = get(raw, "name");
    w->anim_name = cJSON_IsString(nm) ? nm->valuestring : "";
    cJSON *a = cJSON_CreateObject();
    if (!a)
        return nomem(w);
    *out = a;
    if (!animation_header(w, raw, a) || !animation_frame_actions(w, raw) || !zorder_timeline(w, raw, a) ||
        !bone_timelines(w, raw, a) || !surface_timelines(w, raw, a) || !slot_timelines(w, raw, a) ||
        !deform_timelines(w, raw, a) || !ik_timelines(w, raw, a) || !child_animation_timelines(w, raw, a))
        return false;
    size_t tl = SIZE_MAX;
    if (w->af_n > 0) {
        if (!action_timeline(w, &tl))
            return false;
        if (!cJSON_AddNumberToObject(a, "action", (double)tl))
            return nomem(w);
    }
    return true;
}

static bool armature(wctx *w, cJSON *arm) {
    const cJSON *arm_name = get(arm, "name");
    w->arm_name = cJSON_IsString(arm_name) ? arm_name->valuestring : "";
    w->bones = get(arm, "bone");
    w->slots = get(arm, "slot");
    w->iks = get(arm, "ik");
    w->slot_count = 0;
    for (const cJSON *s = cJSON_IsArray(w->slots) ? w->slots->child : NULL; s; s = s->next) {
        const char *name = "";
        if (!jstr(w, s, "name", "", &name))
            return false;
        bool dup = false;
        for (const cJSON *q = w->slots->child; q != s && !dup; q = q->next) {
            const cJSON *qn = get(q, "name");
            dup = strcmp(qn && cJSON_IsString(qn) ? qn->valuestring : "", name) == 0;
        }
        w->slot_count += !dup;
    }
    if (get(arm, "path"))
        return fail(w, SINEW_E_UNSUPPORTED, "DBBin: path constraints (not written)");
    w->actions_out = cJSON_CreateArray();
    if (!w->actions_out)
        return nomem(w);
    w->action_count = 0;
    w->skin_count = 0;
    w->disp_n = 0;
    bool ok = skins(w, arm);
    cJSON *anims = cJSON_GetObjectItemCaseSensitive(arm, "animation");
    if (ok && cJSON_IsArray(anims)) {
        cJSON *out = cJSON_CreateArray();
        if (!out)
            ok = nomem(w);
        for (cJSON *an = anims->child; ok && an; an = an->next) {
            cJSON *a = NULL;
            if (!cJSON_IsObject(an))
                ok = fail(w, SINEW_E_UNSUPPORTED, "DBBin: an animation that is not an object");
            else
                ok = animation(w, an, &a);
            if (a)
                cJSON_AddItemToArray(out, a);
        }
        if (out)
            cJSON_ReplaceItemInObjectCaseSensitive(arm, "animation", out);
    }
    /* Frame actions first (the action frames refer to them by index), then the armature's own. */
    const cJSON *own = get(arm, "actions");
    for (const cJSON *x = cJSON_IsArray(own) ? own->child : NULL; ok && x; x = x->next) {
        cJSON *c = cJSON_Duplicate(x, 1);
        if (!c)
            ok = nomem(w);
        else
            cJSON_AddItemToArray(w->actions_out, c);
    }
    if (ok && cJSON_GetArraySize(w->actions_out) > 0) {
        cJSON_DeleteItemFromObjectCaseSensitive(arm, "actions");
        cJSON_AddItemToObject(arm, "actions", w->actions_out);
    } else {
        cJSON_Delete(w->actions_out);
    }
    w->actions_out = NULL;
    sinew__free(w->alloc, w->skin_names, w->skin_names_cap * sizeof *w->skin_names);
    w->skin_names = NULL;
    w->skin_names_cap = 0;
    return ok;
}

/* ---- typed arrays and the file ------------------------------------------------------------------ */

static double js_mod(double v, double m) {
    if (!isfinite(v))
        return 0;
    v = fmod(trunc(v), m);
    return v < 0 ? v + m : v;
}

static void put_u16(unsigned char *p, double v) {
    uint32_t u = (uint32_t)js_mod(v, 65536.0);
    p[0] = (unsigned char)(u & 0xFF);
    p[1] = (unsigned char)(u >> 8);
}

static void put_f32(unsigned char *p, double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(u >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t u) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(u >> (8 * i));
}

sinew_status sinew__dbbin_write(const char *text, size_t len_, const char *file, unsigned format,
                                const sinew_allocator *allocator, sinew_log_fn log, void *log_user,
                                uint32_t *warnings, void **out, size_t *out_len, sinew_error *err) {
    *out = NULL;
    *out_len = 0;
    if (warnings)
        *warnings = 0;
    wctx w;
    memset(&w, 0, sizeof w);
    w.alloc = allocator;
    w.file = file;
    w.err = err;
    if (format == 0)
        format = SINEW_DBBIN_FORMAT_DEFAULT;
    if (format != 1 && format != 2) {
        fail(&w, SINEW_E_ARG, "DBBin: format %u is not written (1 or 2)", format);
        return w.st;
    }
    w.log = log;
    w.log_user = log_user;
    w.default_color = -1;
    cJSON *root = sinew__jdom_parse_heap(text, len_, 1000, NULL);
    char *header = NULL;
    size_t header_size = 0, size = 0;
    unsigned char *bytes = NULL;
    if (!root || !cJSON_IsObject(root)) {
        fail(&w, SINEW_E_PARSE, "DBBin: the input is not a DragonBones JSON document");
        goto done;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(root, "offset");
    cJSON *arms = cJSON_GetObjectItemCaseSensitive(root, "armature");
    for (cJSON *arm = cJSON_IsArray(arms) ? arms->child : NULL; arm; arm = arm->next)
        if (!cJSON_IsObject(arm) ? !fail(&w, SINEW_E_UNSUPPORTED, "DBBin: an armature that is not an object")
                                 : !armature(&w, arm))
            goto done;
    /* Int16 arrays padded to an even count, as the parser does: every block stays 4-byte aligned. */
    static const int is16[A_COUNT] = {1, 0, 1, 0, 1, 1};
    size_t bytes_of[A_COUNT], total = 0;
    for (int i = 0; i < A_COUNT; i++) {
        if (is16[i] && (w.a[i].n & 1) && !grow(&w, i, 1))
            goto done;
        bytes_of[i] = w.a[i].n * (is16[i] ? 2u : 4u);
        total += bytes_of[i];
    }
    if (total > UINT32_MAX) {
        fail(&w, SINEW_E_LIMIT, "DBBin: the arrays take more than 4 GiB");
        goto done;
    }
    cJSON *offs = cJSON_AddArrayToObject(root, "offset");
    if (!offs) {
        nomem(&w);
        goto done;
    }
    size_t at_byte = 0;
    for (int i = 0; i < A_COUNT; i++) {
        cJSON *o = cJSON_CreateNumber((double)at_byte), *l = cJSON_CreateNumber((double)bytes_of[i]);
        if (!o || !l) {
            cJSON_Delete(o);
            cJSON_Delete(l);
            nomem(&w);
            goto done;
        }
        cJSON_AddItemToArray(offs, o);
        cJSON_AddItemToArray(offs, l);
        at_byte += bytes_of[i];
    }
    /* format 2: the colour array after them, empty, as the 5.6 exporter writes it (its colours
       are in intArray) */
    for (int k = 0; format == 2 && k < 2; k++) {
        cJSON *o = cJSON_CreateNumber(k ? 0.0 : (double)at_byte);
        if (!o) {
            nomem(&w);
            goto done;
        }
        cJSON_AddItemToArray(offs, o);
    }
    header = sinew__json_print(root, false, w.alloc, &header_size);
    if (!header) {
        nomem(&w);
        goto done;
    }
    size_t hl = strlen(header);
    size_t padded = hl + (4 - (12 + hl) % 4) % 4; /* the arrays start on a 4-byte boundary */
    if (padded > UINT32_MAX || total > SIZE_MAX - 12 - padded) {
        fail(&w, SINEW_E_LIMIT, "DBBin: the header takes more than 4 GiB");
        goto done;
    }
    size = 12 + padded + total;
    bytes = sinew__alloc(w.alloc, size);
    if (!bytes) {
        nomem(&w);
        goto done;
    }
    memcpy(bytes, SINEW_DBBIN_TAG, 4);
    bytes[4] = 0; /* the version word, as the exporters write it: 0 0 0 and the format */
    bytes[5] = 0;
    bytes[6] = 0;
    bytes[7] = (unsigned char)format;
    put_u32(bytes + 8, (uint32_t)padded);
    memcpy(bytes + 12, header, hl);
    memset(bytes + 12 + hl, ' ', padded - hl);
    unsigned char *p = bytes + 12 + padded;
    for (int i = 0; i < A_COUNT; i++) {
        for (size_t k = 0; k < w.a[i].n; k++) {
            if (is16[i]) {
                put_u16(p, w.a[i].v[k]); /* int16 and uint16 share their bits */
                p += 2;
            } else {
                put_f32(p, w.a[i].v[k]);
                p += 4;
            }
        }
    }
    *out = bytes;
    *out_len = size;
    bytes = NULL;
done:
    sinew__free(w.alloc, bytes, size);
    sinew__free(w.alloc, header, header_size);
    cJSON_Delete(root);
    cJSON_Delete(w.actions_out);
    sinew__free(w.alloc, w.skin_names, w.skin_names_cap * sizeof *w.skin_names);
    for (int i = 0; i < A_COUNT; i++)
        sinew__free(w.alloc, w.a[i].v, w.a[i].cap * sizeof *w.a[i].v);
    sinew__free(w.alloc, w.disps, w.disp_cap * sizeof *w.disps);
    for (size_t i = 0; i < w.af_n; i++)
        sinew__free(w.alloc, w.af[i].idx, w.af[i].cap * sizeof *w.af[i].idx);
    sinew__free(w.alloc, w.af, w.af_cap * sizeof *w.af);
    if (warnings)
        *warnings = w.warnings;
    return w.st;
}
