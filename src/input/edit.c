/* MRTK input animation editing: trim, shift, resample, simplify (RDP) and RotationW repair. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/input_internal.h"

#define DEG2RAD (3.14159265358979323846 / 180.0)

/* A growable key list with the animation's allocator. */
typedef struct keybuf {
    sinew_curve_key *k;
    uint32_t n, cap;
    const sinew_allocator *al;
} keybuf;

static bool kb_push(keybuf *b, sinew_curve_key key) {
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 16;
        if (cap < b->cap)
            return false;
        sinew_curve_key *k = sinew__realloc(b->al, b->k, (size_t)b->cap * sizeof *k, (size_t)cap * sizeof *k);
        if (!k)
            return false;
        b->k = k;
        b->cap = cap;
    }
    b->k[b->n++] = key;
    return true;
}

static void kb_free(keybuf *b) {
    sinew__free(b->al, b->k, (size_t)b->cap * sizeof *b->k);
    b->k = NULL;
    b->n = b->cap = 0;
}

/* Hands the buffer's keys to curve `index` (shrunk to the exact size). */
static sinew_status kb_commit(sinew_input_animation *a, uint32_t index, keybuf *b, sinew_error *err) {
    sinew_curve_key *exact = NULL;
    if (b->n) {
        exact = sinew__alloc(a->allocator, (size_t)b->n * sizeof *exact);
        if (!exact) {
            kb_free(b);
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        }
        memcpy(exact, b->k, (size_t)b->n * sizeof *exact);
    }
    uint32_t n = b->n;
    kb_free(b);
    return sinew__input_take_keys(a, index, exact, n, err);
}

/* ---- splitting a segment exactly ---------------------------------------------------------- */

/* Splits segment (L, R) at time t (L.time < t < R.time). Produces the new key K, and L', R' whose
 * out/in sides describe the two halves. Both halves evaluate exactly like the original segment. */
static void split_segment(const sinew_curve_key *L, const sinew_curve_key *R, double t, bool is_bool,
                          sinew_curve_key *Lo, sinew_curve_key *K, sinew_curve_key *Ro) {
    *Lo = *L;
    *Ro = *R;
    double v = sinew_curve_eval_keys(L, 2, SINEW_WRAP_CLAMP_FOREVER, SINEW_WRAP_CLAMP_FOREVER, t);
    if (is_bool) {
        *K = sinew__input_bool_key((float)t, L->value);
        return;
    }
    if (isinf(L->out_tangent) || isinf(R->in_tangent)) {
        sinew_curve_key k = {(float)t, L->value, INFINITY, INFINITY, 0.0f, 0.0f, SINEW_WEIGHTED_NONE};
        *K = k;
        return;
    }
    double dt = (double)R->time - (double)L->time;
    double s = (t - L->time) / dt;
    bool wl = (L->weighted_mode & SINEW_WEIGHTED_OUT) != 0, wr = (R->weighted_mode & SINEW_WEIGHTED_IN) != 0;
    double a = wl ? (double)L->out_weight : 1.0 / 3.0, b = wr ? (double)R->in_weight : 1.0 / 3.0;
    if (wl && wr && a == 0 && b == 0) { /* linear */
        *K = sinew__input_simple_key((float)t, (float)v);
        return;
    }
    double m0 = L->out_tangent, m1 = R->in_tangent, v0 = L->value, v1 = R->value;
    if (!wl && !wr) { /* Hermite: the new key carries the slope */
        double s2 = s * s;
        double dh = (6 * s2 - 6 * s) * v0 + (3 * s2 - 4 * s + 1) * m0 * dt + (3 * s2 - 2 * s) * m1 * dt +
                    (-6 * s2 + 6 * s) * v1;
        float slope = (float)(dh / dt);
        sinew_curve_key k = {(float)t, (float)v, slope, slope, 1.0f / 3.0f, 1.0f / 3.0f, SINEW_WEIGHTED_NONE};
        *K = k;
        return;
    }
    /* General weighted segment: de Casteljau split of the (time, value) Bezier at the parameter u
     * that reaches time t. Normalised time controls (0, a, 1-b, 1), value controls (v0, p1, p2, v1). */
    double p1 = v0 + a * m0 * dt, p2 = v1 - b * m1 * dt;
    double T[4] = {0, a, 1 - b, 1}, P[4] = {v0, p1, p2, v1};
    /* bisection on the time polynomial (monotonic for weights in [0, 1]; good enough otherwise) */
    double lo = 0, hi = 1, u = s;
    for (int it = 0; it < 60; it++) {
        u = 0.5 * (lo + hi);
        double iu = 1 - u;
        double x = 3 * a * u * iu * iu + 3 * (1 - b) * u * u * iu + u * u * u;
        if (x < s)
            lo = u;
        else
            hi = u;
    }
    double T01 = T[0] + (T[1] - T[0]) * u, T12 = T[1] + (T[2] - T[1]) * u, T23 = T[2] + (T[3] - T[2]) * u;
    double T012 = T01 + (T12 - T01) * u, T123 = T12 + (T23 - T12) * u;
    double T0123 = T012 + (T123 - T012) * u;
    double P01 = P[0] + (P[1] - P[0]) * u, P12 = P[1] + (P[2] - P[1]) * u, P23 = P[2] + (P[3] - P[2]) * u;
    double P012 = P01 + (P12 - P01) * u, P123 = P12 + (P23 - P12) * u;
    double P0123 = P012 + (P123 - P012) * u;
    double sl = T0123, sr = 1 - T0123;           /* the halves' lengths, normalised */
    double dl = sl * dt, dr = sr * dt;
    double aL = sl > 0 ? T01 / sl : 0, bK = sl > 0 ? (T0123 - T012) / sl : 0;
    double aK = sr > 0 ? (T123 - T0123) / sr : 0, bR = sr > 0 ? (1 - T23) / sr : 0;
    Lo->weighted_mode |= SINEW_WEIGHTED_OUT;
    Lo->out_weight = (float)aL;
    Lo->out_tangent = aL * dl != 0 ? (float)((P01 - v0) / (aL * dl)) : 0.0f;
    Ro->weighted_mode |= SINEW_WEIGHTED_IN;
    Ro->in_weight = (float)bR;
    Ro->in_tangent = bR * dr != 0 ? (float)((v1 - P23) / (bR * dr)) : 0.0f;
    sinew_curve_key k = {(float)t, (float)P0123,
                         bK * dl != 0 ? (float)((P0123 - P012) / (bK * dl)) : 0.0f,
                         aK * dr != 0 ? (float)((P123 - P0123) / (aK * dr)) : 0.0f,
                         (float)bK, (float)aK, SINEW_WEIGHTED_BOTH};
    *K = k;
}

static sinew_status trim_curve(sinew_input_animation *a, uint32_t index, double t0, double t1, double base,
                               sinew_error *err) {
    sinew_curve *c = &a->curves[index];
    const sinew_curve_key *k = c->eval_keys;
    uint32_t n = c->eval_count;
    if (c->key_count == 0)
        return SINEW_OK;
    keybuf b = {NULL, 0, 0, a->allocator};
    bool is_bool = sinew_input_curve_is_bool(index);
    bool ok = true;
    if (n == 1) {
        sinew_curve_key key = k[0];
        double t = key.time < t0 ? t0 : key.time > t1 ? t1 : key.time;
        key.time = (float)(t - base);
        ok = kb_push(&b, key);
    } else if (n > 1) {
        /* copy, then cut: keys strictly inside, plus exact boundary keys */
        sinew_curve_key *tmp = sinew__alloc(a->allocator, (size_t)n * sizeof *tmp);
        if (!tmp)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        memcpy(tmp, k, (size_t)n * sizeof *tmp);
        sinew_curve_key start, end;
        bool has_start = false, has_end = false;
        /* end boundary first: the segment containing t1 */
        if (tmp[n - 1].time > t1 && tmp[0].time < t1) {
            uint32_t i = 0;
            while (i + 1 < n && tmp[i + 1].time <= t1)
                i++;
            if (tmp[i].time < t1) {
                sinew_curve_key Lo, Ro;
                split_segment(&tmp[i], &tmp[i + 1], t1, is_bool, &Lo, &end, &Ro);
                tmp[i] = Lo;
                has_end = true;
            }
        }
        if (tmp[0].time < t0 && tmp[n - 1].time > t0) {
            uint32_t i = 0;
            while (i + 1 < n && tmp[i + 1].time <= t0)
                i++;
            if (tmp[i].time < t0) {
                const sinew_curve_key *R = (i + 1 < n && (!has_end || tmp[i + 1].time <= t1)) ? &tmp[i + 1] : &end;
                sinew_curve_key Lo, Ro;
                split_segment(&tmp[i], R, t0, is_bool, &Lo, &start, &Ro);
                if (R == &end)
                    end = Ro;
                else
                    tmp[i + 1] = Ro;
                has_start = true;
            }
        }
        if (has_start) {
            start.time = (float)(t0 - base);
            ok = kb_push(&b, start);
        }
        for (uint32_t i = 0; ok && i < n; i++) {
            if (tmp[i].time >= t0 && tmp[i].time <= t1) {
                sinew_curve_key key = tmp[i];
                key.time = (float)(key.time - base);
                ok = kb_push(&b, key);
            }
        }
        if (ok && has_end) {
            end.time = (float)(t1 - base);
            ok = kb_push(&b, end);
        }
        if (ok && b.n == 0) { /* everything outside on one side: keep the clamped value */
            sinew_curve_key key = tmp[0].time > t1 ? tmp[0] : tmp[n - 1];
            key.time = (float)((tmp[0].time > t1 ? t1 : t0) - base);
            ok = kb_push(&b, key);
        }
        sinew__free(a->allocator, tmp, (size_t)n * sizeof *tmp);
    }
    if (!ok) {
        kb_free(&b);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    return kb_commit(a, index, &b, err);
}

sinew_status sinew_input_trim(sinew_input_animation *anim, double t0, double t1, bool rebase,
                              sinew_error *err) {
    if (!anim || !isfinite(t0) || !isfinite(t1) || t1 < t0)
        return sinew__fail(err, SINEW_E_ARG, NULL, "trim needs finite times with t0 <= t1");
    double base = rebase ? t0 : 0.0;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (!sinew_input_curve_present(anim, i))
            continue;
        sinew_status st = trim_curve(anim, i, t0, t1, base, err);
        if (st)
            return st;
    }
    uint32_t w = 0;
    for (uint32_t i = 0; i < anim->marker_count; i++) {
        sinew_input_marker m = anim->markers[i];
        if (m.time >= t0 && m.time <= t1) {
            m.time = (float)(m.time - base);
            anim->markers[w++] = m;
        } else {
            sinew__free(anim->allocator, m.name, (size_t)m.name_length + 1);
        }
    }
    if (w != anim->marker_count) {
        size_t old = (size_t)anim->marker_count * sizeof *anim->markers;
        if (w == 0) {
            sinew__free(anim->allocator, anim->markers, old);
            anim->markers = NULL;
        } else {
            sinew_input_marker *m = sinew__realloc(anim->allocator, anim->markers, old, (size_t)w * sizeof *m);
            if (!m) { /* keep the larger block: record its real size by not shrinking */
                anim->marker_count = w;
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            }
            anim->markers = m;
        }
        anim->marker_count = w;
    }
    return SINEW_OK;
}

sinew_status sinew_input_shift(sinew_input_animation *anim, double dt, sinew_error *err) {
    if (!anim || !isfinite(dt))
        return sinew__fail(err, SINEW_E_ARG, NULL, "shift needs a finite time");
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        sinew_curve *c = &anim->curves[i];
        for (uint32_t k = 0; k < c->key_count; k++)
            c->keys[k].time = (float)(c->keys[k].time + dt);
        sinew_status st = sinew_curve_prepare(c, anim->allocator, err);
        if (st)
            return st;
    }
    for (uint32_t i = 0; i < anim->marker_count; i++)
        anim->markers[i].time = (float)(anim->markers[i].time + dt);
    return SINEW_OK;
}

sinew_status sinew_input_resample(sinew_input_animation *anim, double hz, sinew_error *err) {
    if (!anim || !isfinite(hz) || hz <= 0 || hz > 1e6)
        return sinew__fail(err, SINEW_E_ARG, NULL, "resample needs a rate in (0, 1e6] Hz");
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        sinew_curve *c = &anim->curves[i];
        if (!sinew_input_curve_present(anim, i) || sinew_input_curve_is_bool(i) || c->eval_count < 2)
            continue;
        double first = c->eval_keys[0].time, last = c->eval_keys[c->eval_count - 1].time;
        double steps = floor((last - first) * hz + 1e-9);
        if (steps > 1e8)
            return sinew__fail(err, SINEW_E_LIMIT, NULL, "resampling would create more than 1e8 keys per curve");
        keybuf b = {NULL, 0, 0, anim->allocator};
        sinew_curve_cursor cur = {0};
        bool ok = true;
        uint32_t ns = (uint32_t)steps;
        for (uint32_t s = 0; ok && s <= ns; s++) {
            double t = first + s / hz;
            ok = kb_push(&b, sinew__input_simple_key((float)t, (float)sinew_curve_eval_cursor(c, &cur, t)));
        }
        if (ok && (double)b.k[b.n - 1].time < last)
            ok = kb_push(&b, sinew__input_simple_key((float)last, (float)sinew_curve_eval(c, last)));
        if (!ok) {
            kb_free(&b);
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        }
        sinew_status st = kb_commit(anim, i, &b, err);
        if (st)
            return st;
    }
    return SINEW_OK;
}

/* ---- key reduction ------------------------------------------------------------------------ */

sinew_input_simplify_options sinew_input_simplify_defaults(void) {
    sinew_input_simplify_options o = {0.001, 0.2, 0.002, 0.2, 0.002, 0.2};
    return o;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Sorted unique union of the key times of curves [base, base+n). NULL with *count 0 if none;
 * NULL with *count 1 on allocation failure. */
static double *union_times(const sinew_input_animation *a, uint32_t base, uint32_t n, uint32_t *count) {
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += a->curves[base + i].eval_count;
    *count = 0;
    if (!total)
        return NULL;
    double *t = sinew__alloc(a->allocator, total * sizeof *t);
    if (!t) {
        *count = 1;
        return NULL;
    }
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < a->curves[base + i].eval_count; k++)
            t[m++] = a->curves[base + i].eval_keys[k].time;
    qsort(t, m, sizeof *t, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || t[i] != t[u - 1])
            t[u++] = t[i];
    *count = (uint32_t)u;
    return t;
}

typedef enum part_kind { PART_POSITION, PART_ROTATION, PART_DIRECTION } part_kind;

static void normalise(double *v, uint32_t n) {
    double l = 0;
    for (uint32_t i = 0; i < n; i++)
        l += v[i] * v[i];
    l = sqrt(l);
    if (l > 0)
        for (uint32_t i = 0; i < n; i++)
            v[i] /= l;
}

/* Error of sample m against the interpolation between samples i and j: returns a measure that
 * grows with the error, and sets *over when it exceeds the threshold. */
static double part_error(part_kind kind, const double *vals, uint32_t n, const double *times, uint32_t i,
                         uint32_t j, uint32_t m, double thr, bool *over) {
    double f = (times[m] - times[i]) / (times[j] - times[i]);
    double p[4], q[4];
    for (uint32_t c = 0; c < n; c++) {
        double vi = vals[(size_t)i * n + c], vj = vals[(size_t)j * n + c];
        if (kind == PART_POSITION) {
            p[c] = vi + (vj - vi) * f;
        } else {
            p[c] = vi;
            q[c] = vj;
        }
    }
    if (kind == PART_POSITION) {
        double d2 = 0;
        for (uint32_t c = 0; c < n; c++) {
            double d = vals[(size_t)m * n + c] - p[c];
            d2 += d * d;
        }
        *over = d2 > thr * thr;
        return d2;
    }
    normalise(p, n);
    normalise(q, n);
    double dotpq = 0;
    for (uint32_t c = 0; c < n; c++)
        dotpq += p[c] * q[c];
    double r[4], s[4];
    for (uint32_t c = 0; c < n; c++) {
        double qc = (kind == PART_ROTATION && dotpq < 0) ? -q[c] : q[c];
        r[c] = p[c] + (qc - p[c]) * f;
        s[c] = vals[(size_t)m * n + c];
    }
    normalise(r, n);
    normalise(s, n);
    double dot = 0;
    for (uint32_t c = 0; c < n; c++)
        dot += r[c] * s[c];
    if (kind == PART_ROTATION) {
        dot = fabs(dot);
        *over = dot < cos(thr * DEG2RAD / 2);
    } else {
        *over = dot < cos(thr * DEG2RAD);
    }
    return 1 - dot;
}

static sinew_status simplify_part(sinew_input_animation *a, uint32_t base, uint32_t n, part_kind kind,
                                  double thr, uint64_t *removed, sinew_error *err) {
    uint32_t m;
    double *times = union_times(a, base, n, &m);
    if (!times)
        return m ? sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory") : SINEW_OK;
    const sinew_allocator *al = a->allocator;
    double *vals = NULL;
    bool *keep = NULL;
    uint32_t *stack = NULL;
    sinew_status st = SINEW_OK;
    if (m <= 2)
        goto done;
    vals = sinew__alloc(al, (size_t)m * n * sizeof *vals);
    keep = sinew__calloc(al, m, sizeof *keep);
    stack = sinew__alloc(al, (size_t)m * 2 * sizeof *stack);
    if (!vals || !keep || !stack) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto done;
    }
    for (uint32_t c = 0; c < n; c++) {
        sinew_curve_cursor cur = {0};
        for (uint32_t i = 0; i < m; i++)
            vals[(size_t)i * n + c] = sinew_curve_eval_cursor(&a->curves[base + c], &cur, times[i]);
    }
    keep[0] = keep[m - 1] = true;
    size_t sp = 0;
    stack[sp++] = 0;
    stack[sp++] = m - 1;
    while (sp) {
        uint32_t j = stack[--sp], i = stack[--sp];
        if (j - i < 2)
            continue;
        double worst = -1;
        uint32_t w = i;
        bool any_over = false;
        for (uint32_t k = i + 1; k < j; k++) {
            bool over;
            double e = part_error(kind, vals, n, times, i, j, k, thr, &over);
            if (over)
                any_over = true;
            if (e > worst) {
                worst = e;
                w = k;
            }
        }
        if (!any_over)
            continue;
        keep[w] = true;
        stack[sp++] = i;
        stack[sp++] = w;
        stack[sp++] = w;
        stack[sp++] = j;
    }
    for (uint32_t c = 0; c < n && !st; c++) {
        sinew_curve *cv = &a->curves[base + c];
        if (cv->eval_count < 2)
            continue; /* constant or empty channels stay as they are */
        keybuf b = {NULL, 0, 0, al};
        bool ok = true;
        for (uint32_t i = 0; ok && i < m; i++)
            if (keep[i])
                ok = kb_push(&b, sinew__input_simple_key((float)times[i], (float)vals[(size_t)i * n + c]));
        if (!ok) {
            kb_free(&b);
            st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            break;
        }
        uint32_t before = cv->key_count;
        st = kb_commit(a, base + c, &b, err);
        if (removed && cv->key_count < before)
            *removed += before - cv->key_count;
    }
done:
    sinew__free(al, times, (size_t)m * sizeof *times);
    sinew__free(al, vals, (size_t)m * n * sizeof *vals);
    sinew__free(al, keep, (size_t)m * sizeof *keep);
    sinew__free(al, stack, (size_t)m * 2 * sizeof *stack);
    return st;
}

sinew_status sinew_input_simplify(sinew_input_animation *anim,
                                  const sinew_input_simplify_options *options, uint64_t *removed,
                                  sinew_error *err) {
    if (!anim)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    sinew_input_simplify_options o = options ? *options : sinew_input_simplify_defaults();
    if (removed)
        *removed = 0;
    sinew_status st = SINEW_OK;
    if (anim->has_camera) {
        if ((st = simplify_part(anim, 0, 3, PART_POSITION, o.camera_position, removed, err)) ||
            (st = simplify_part(anim, 3, 4, PART_ROTATION, o.camera_rotation_deg, removed, err)))
            return st;
    }
    if (anim->has_hands) {
        for (int h = 0; h < 2; h++) {
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++) {
                uint32_t b = SINEW_INPUT_CURVE_JOINT(h, j, 0);
                if ((st = simplify_part(anim, b, 3, PART_POSITION, o.joint_position, removed, err)) ||
                    (st = simplify_part(anim, b + 3, 4, PART_ROTATION, o.joint_rotation_deg, removed, err)))
                    return st;
            }
        }
    }
    if (anim->has_eye_gaze) {
        if ((st = simplify_part(anim, SINEW_INPUT_CURVE_GAZE, 3, PART_POSITION, o.gaze_origin, removed, err)) ||
            (st = simplify_part(anim, SINEW_INPUT_CURVE_GAZE + 3, 3, PART_DIRECTION, o.gaze_direction_deg, removed,
                                err)))
            return st;
    }
    return SINEW_OK;
}

/* ---- RotationW repair --------------------------------------------------------------------- */

static sinew_status repair_pose(sinew_input_animation *a, uint32_t base, bool *done, sinew_error *err) {
    *done = false;
    sinew_curve *w = &a->curves[base + 6];
    uint32_t most = 0;
    for (uint32_t c = 3; c < 6; c++)
        if (a->curves[base + c].eval_count > most)
            most = a->curves[base + c].eval_count;
    if (most < 2 || w->eval_count >= most)
        return SINEW_OK;
    uint32_t m;
    double *times = union_times(a, base + 3, 3, &m);
    if (!times)
        return m ? sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory") : SINEW_OK;
    double sign = (w->eval_count && w->eval_keys[0].value < 0) ? -1.0 : 1.0;
    keybuf b = {NULL, 0, 0, a->allocator};
    sinew_curve_cursor cx = {0}, cy = {0}, cz = {0};
    bool ok = true;
    for (uint32_t i = 0; ok && i < m; i++) {
        double x = sinew_curve_eval_cursor(&a->curves[base + 3], &cx, times[i]);
        double y = sinew_curve_eval_cursor(&a->curves[base + 4], &cy, times[i]);
        double z = sinew_curve_eval_cursor(&a->curves[base + 5], &cz, times[i]);
        double r = 1 - x * x - y * y - z * z;
        ok = kb_push(&b, sinew__input_simple_key((float)times[i], (float)(sign * sqrt(r > 0 ? r : 0))));
    }
    sinew__free(a->allocator, times, (size_t)m * sizeof *times);
    if (!ok) {
        kb_free(&b);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    *done = true;
    return kb_commit(a, base + 6, &b, err);
}

sinew_status sinew_input_repair_rotation_w(sinew_input_animation *anim, uint32_t *repaired,
                                           sinew_error *err) {
    if (!anim)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    if (repaired)
        *repaired = 0;
    uint32_t bases[1 + 2 * SINEW_INPUT_JOINT_COUNT];
    uint32_t nb = 0;
    if (anim->has_camera)
        bases[nb++] = SINEW_INPUT_CURVE_CAMERA;
    if (anim->has_hands)
        for (int h = 0; h < 2; h++)
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++)
                bases[nb++] = SINEW_INPUT_CURVE_JOINT(h, j, 0);
    for (uint32_t i = 0; i < nb; i++) {
        bool done;
        sinew_status st = repair_pose(anim, bases[i], &done, err);
        if (st)
            return st;
        if (done && repaired)
            (*repaired)++;
    }
    return SINEW_OK;
}
