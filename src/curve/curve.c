/* Unity AnimationCurve evaluation (see include/sinew/curve.h and docs/input.md). */
#include "sinew/curve.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"

#define PI_D 3.14159265358979323846

#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define HOT_INLINE inline
#define PREFETCH(p) ((void)0)
#endif

void sinew_curve_init(sinew_curve *c) {
    memset(c, 0, sizeof *c);
    c->pre_wrap = SINEW_WRAP_CLAMP_FOREVER;
    c->post_wrap = SINEW_WRAP_CLAMP_FOREVER;
}

void sinew_curve_free(sinew_curve *c, const sinew_allocator *allocator) {
    if (!c)
        return;
    int32_t pre = c->pre_wrap, post = c->post_wrap;
    sinew__free(allocator, c->keys, (size_t)c->key_count * sizeof(sinew_curve_key));
    sinew__free(allocator, c->sorted, (size_t)c->eval_count * sizeof(sinew_curve_key));
    memset(c, 0, sizeof *c);
    c->pre_wrap = pre;
    c->post_wrap = post;
}

static bool key_ok(const sinew_curve_key *k) {
    return isfinite(k->time) && isfinite(k->value);
}

/* Stable bottom-up merge sort by time. */
static void merge_sort(sinew_curve_key *a, sinew_curve_key *tmp, size_t n) {
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = (a[j].time < a[i].time) ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

sinew_status sinew_curve_prepare(sinew_curve *c, const sinew_allocator *allocator, sinew_error *err) {
    if (c->sorted) {
        sinew__free(allocator, c->sorted, (size_t)c->eval_count * sizeof(sinew_curve_key));
        c->sorted = NULL;
    }
    bool clean = true;
    uint32_t valid = 0;
    for (uint32_t i = 0; i < c->key_count; i++) {
        if (key_ok(&c->keys[i])) {
            if (valid && clean && i > 0 && c->keys[i].time < c->keys[i - 1].time)
                clean = false;
            valid++;
        } else {
            clean = false;
        }
    }
    if (clean) {
        c->eval_keys = c->keys;
        c->eval_count = c->key_count;
        return SINEW_OK;
    }
    c->eval_keys = NULL;
    c->eval_count = 0;
    if (valid == 0)
        return SINEW_OK;
    sinew_curve_key *s = sinew__alloc(allocator, (size_t)valid * sizeof *s);
    sinew_curve_key *tmp = sinew__alloc(allocator, (size_t)valid * sizeof *tmp);
    if (!s || !tmp) {
        sinew__free(allocator, s, (size_t)valid * sizeof *s);
        sinew__free(allocator, tmp, (size_t)valid * sizeof *tmp);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory sorting %u curve keys", valid);
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->key_count; i++)
        if (key_ok(&c->keys[i]))
            s[k++] = c->keys[i];
    merge_sort(s, tmp, valid);
    sinew__free(allocator, tmp, (size_t)valid * sizeof *tmp);
    c->sorted = s;
    c->eval_keys = s;
    c->eval_count = valid;
    return SINEW_OK;
}

sinew_status sinew_curve_set_keys(sinew_curve *c, const sinew_curve_key *keys, uint32_t count,
                                  const sinew_allocator *allocator, sinew_error *err) {
    sinew_curve_key *copy = NULL;
    if (count) {
        size_t bytes;
        if (!sinew__mul_size(count, sizeof *copy, &bytes) || !(copy = sinew__alloc(allocator, bytes)))
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for %u curve keys", count);
        memcpy(copy, keys, bytes);
    }
    sinew_curve_free(c, allocator);
    c->keys = copy;
    c->key_count = count;
    return sinew_curve_prepare(c, allocator, err);
}

/* ---- evaluation --------------------------------------------------------------------------- */

static bool wrap_loops(int32_t mode) {
    return mode == SINEW_WRAP_LOOP || mode == SINEW_WRAP_PINGPONG;
}

static double fmod_pos(double x, double len) {
    return x - floor(x / len) * len;
}

/* Wraps t for count >= 2. Returns true and sets *value when the clamp rule decides the value. */
static inline bool wrap(const sinew_curve_key *keys, uint32_t count, int32_t pre, int32_t post, double *t,
                 double *value) {
    double first = keys[0].time, last = keys[count - 1].time;
    if (*t >= first && *t <= last)
        return false;
    bool before = *t < first;
    int32_t mode = before ? pre : post;
    double len = last - first;
    if (!wrap_loops(mode) || !(len > 0) || !isfinite(*t)) {
        *value = before ? keys[0].value : keys[count - 1].value;
        return true;
    }
    if (mode == SINEW_WRAP_LOOP) {
        *t = first + fmod_pos(*t - first, len);
    } else {
        double u = fmod_pos(*t - first, 2 * len);
        *t = first + (len - fabs(u - len));
    }
    if (*t < first)
        *t = first;
    if (*t > last)
        *t = last;
    return false;
}

double sinew_curve_wrap_time(const sinew_curve_key *keys, uint32_t count, int32_t pre_wrap,
                             int32_t post_wrap, double t) {
    if (count < 2)
        return t;
    double v, w = t;
    if (wrap(keys, count, pre_wrap, post_wrap, &w, &v))
        return t < keys[0].time ? keys[0].time : keys[count - 1].time;
    return w;
}

/* Solves X(u) = s for the weighted segment's Bezier parameter, the way Unity does: closed form,
 * first root in [0, 1], degrading to quadratic/linear for small leading coefficients. */
static double solve_u(double s, double a, double b) {
    double c3 = 3 * a + 3 * b - 2;
    double c2 = 3 - 6 * a - 3 * b;
    double c1 = 3 * a;
    double roots[3];
    int nr = 0;
    if (fabs(c3) <= 1e-3) {
        if (fabs(c2) <= 1e-3) {
            if (c1 != 0)
                roots[nr++] = s / c1;
        } else {
            double d = c1 * c1 + 4 * c2 * s;
            if (d >= 0) {
                double sd = sqrt(d);
                roots[nr++] = (-c1 + sd) / (2 * c2);
                roots[nr++] = (-c1 - sd) / (2 * c2);
            }
        }
    } else {
        double A = c2 / c3, B = c1 / c3, C = -s / c3;
        double p = B - A * A / 3;
        double q = 2 * A * A * A / 27 - A * B / 3 + C;
        double shift = -A / 3;
        double disc = q * q / 4 + p * p * p / 27;
        if (disc > 0) {
            double sd = sqrt(disc);
            roots[nr++] = cbrt(-q / 2 + sd) + cbrt(-q / 2 - sd) + shift;
        } else if (disc == 0) {
            if (p == 0) {
                roots[nr++] = shift;
            } else {
                roots[nr++] = 3 * q / p + shift;
                roots[nr++] = -3 * q / (2 * p) + shift;
            }
        } else {
            double r = sqrt(-p / 3);
            double arg = (3 * q / (2 * p)) * sqrt(-3 / p);
            if (arg > 1)
                arg = 1;
            if (arg < -1)
                arg = -1;
            double phi = acos(arg) / 3;
            for (int k = 0; k < 3; k++)
                roots[nr++] = 2 * r * cos(phi - 2.0 * PI_D * k / 3) + shift;
        }
    }
    const double eps = 1e-9;
    for (int i = 0; i < nr; i++) {
        double u = roots[i];
        if (u >= -eps && u <= 1 + eps)
            return u < 0 ? 0 : (u > 1 ? 1 : u);
    }
    return s < 0.5 ? 0 : 1;
}

static HOT_INLINE double eval_segment(const sinew_curve_key *l, const sinew_curve_key *r, double t) {
    double v0 = l->value, v1 = r->value;
    if (isinf(l->out_tangent) || isinf(r->in_tangent))
        return v0;
    double dt = (double)r->time - (double)l->time;
    if (!(dt > 0))
        return v0;
    double s = (t - l->time) / dt;
    bool wl = (l->weighted_mode & SINEW_WEIGHTED_OUT) != 0;
    bool wr = (r->weighted_mode & SINEW_WEIGHTED_IN) != 0;
    if (!wl && !wr) {
        double s2 = s * s, s3 = s2 * s;
        return (2 * s3 - 3 * s2 + 1) * v0 + (s3 - 2 * s2 + s) * (double)l->out_tangent * dt +
               (s3 - s2) * (double)r->in_tangent * dt + (-2 * s3 + 3 * s2) * v1;
    }
    double a = wl ? (double)l->out_weight : 1.0 / 3.0;
    double b = wr ? (double)r->in_weight : 1.0 / 3.0;
    if (a == 0 && b == 0) /* control values (v0, v0, v1, v1) and X(u) = 3u^2 - 2u^3: linear in s */
        return v0 + (v1 - v0) * s;
    double u = solve_u(s, a, b);
    double p1 = v0 + a * (double)l->out_tangent * dt;
    double p2 = v1 - b * (double)r->in_tangent * dt;
    double iu = 1 - u;
    return iu * iu * iu * v0 + 3 * u * iu * iu * p1 + 3 * u * u * iu * p2 + u * u * u * v1;
}

/* Last index with time <= t, for t in [keys[0].time, keys[n-1].time). */
static uint32_t search(const sinew_curve_key *keys, uint32_t n, double t) {
    uint32_t lo = 0, hi = n; /* first index with time > t lies in (lo, hi] */
    /* Recordings are keyed at a steady rate: guess the index from the time, then gallop out from
     * the guess to bracket it. That touches a couple of cache lines instead of log2(n). */
    double span = (double)keys[n - 1].time - keys[0].time;
    if (n > 16 && span > 0) {
        double g = (t - keys[0].time) / span * (n - 1);
        uint32_t i = g <= 0 ? 0 : g >= n - 2 ? n - 2 : (uint32_t)g;
        uint32_t step = 1;
        if (keys[i].time <= t) {
            lo = i;
            while (lo + step < n && keys[lo + step].time <= t) {
                lo += step;
                step *= 2;
            }
            hi = lo + step < n ? lo + step : n;
        } else {
            hi = i;
            while (hi >= step && keys[hi - step].time > t) {
                hi -= step;
                step *= 2;
            }
            lo = hi >= step ? hi - step : 0;
        }
    }
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid].time <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static inline uint32_t find_segment(const sinew_curve_key *keys, uint32_t n, double t, uint32_t hint) {
    /* playback moves forward a key or two per call: look a few segments ahead of the hint */
    if (hint < n - 1 && keys[hint].time <= t) {
        for (uint32_t i = hint; i + 1 < n && i < hint + 4; i++)
            if (t < keys[i + 1].time)
                return i;
    }
    return search(keys, n, t);
}

static HOT_INLINE double eval_at(const sinew_curve_key *keys, uint32_t n, int32_t pre, int32_t post, double t,
                      uint32_t *hint) {
    /* playback fast path: t still inside the cursor's segment (so inside the key range) */
    if (hint && n > 1 && *hint < n - 1 && keys[*hint].time <= t && t < keys[*hint + 1].time)
        return eval_segment(&keys[*hint], &keys[*hint + 1], t);
    if (n == 0)
        return 0;
    if (n == 1)
        return keys[0].value;
    double v;
    if (wrap(keys, n, pre, post, &t, &v))
        return v;
    if (t >= keys[n - 1].time)
        return keys[n - 1].value;
    uint32_t i = find_segment(keys, n, t, hint ? *hint : 0);
    if (hint) {
        *hint = i;
        /* playback streams through many curves at once, more than the hardware prefetcher
         * follows: fetch the keys the next frames will need (a prefetch never faults) */
        if (n - i > 6)
            PREFETCH(&keys[i + 6]);
    }
    return eval_segment(&keys[i], &keys[i + 1], t);
}

double sinew_curve_eval_keys(const sinew_curve_key *keys, uint32_t count, int32_t pre_wrap,
                             int32_t post_wrap, double t) {
    return eval_at(keys, count, pre_wrap, post_wrap, t, NULL);
}

double sinew_curve_eval(const sinew_curve *c, double t) {
    return eval_at(c->eval_keys, c->eval_count, c->pre_wrap, c->post_wrap, t, NULL);
}

double sinew_curve_eval_cursor(const sinew_curve *c, sinew_curve_cursor *cursor, double t) {
    return eval_at(c->eval_keys, c->eval_count, c->pre_wrap, c->post_wrap, t, &cursor->index);
}

static double step_at(const sinew_curve *c, double t, uint32_t *hint) {
    const sinew_curve_key *keys = c->eval_keys;
    uint32_t n = c->eval_count;
    if (hint && n > 1 && *hint < n - 1 && keys[*hint].time <= t && t < keys[*hint + 1].time)
        return keys[*hint].value;
    if (n == 0)
        return 0;
    if (n == 1)
        return keys[0].value;
    double v;
    if (wrap(keys, n, c->pre_wrap, c->post_wrap, &t, &v))
        return v;
    if (t >= keys[n - 1].time)
        return keys[n - 1].value;
    uint32_t i = find_segment(keys, n, t, hint ? *hint : 0);
    if (hint)
        *hint = i;
    return keys[i].value;
}

bool sinew_curve_eval_bool(const sinew_curve *c, double t) {
    return step_at(c, t, NULL) > 0.5;
}

bool sinew_curve_eval_bool_cursor(const sinew_curve *c, sinew_curve_cursor *cursor, double t) {
    return step_at(c, t, &cursor->index) > 0.5;
}

double sinew_curve_end_time(const sinew_curve *c) {
    return c->eval_count ? (double)c->eval_keys[c->eval_count - 1].time : 0.0;
}
