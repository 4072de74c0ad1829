/* Unity AnimationCurve evaluation: hand-computed values, and random curves against a plain
 * reference written here from the formulas (Bernstein form, bisection for the weighted parameter,
 * linear segment scan, wrap by repeated stepping). */
#include <math.h>
#include <stdlib.h>

#include "sinew/curve.h"
#include "testlib.h"

static sinew_curve_key K(float t, float v, float in, float out) {
    sinew_curve_key k = {t, v, in, out, 0, 0, SINEW_WEIGHTED_NONE};
    return k;
}

static sinew_curve_key KW(float t, float v, float in, float out, float win, float wout, int mode) {
    sinew_curve_key k = {t, v, in, out, win, wout, mode};
    return k;
}

static double eval_once(const sinew_curve_key *keys, uint32_t n, int32_t pre, int32_t post, double t) {
    sinew_curve c;
    sinew_curve_init(&c);
    c.pre_wrap = pre;
    c.post_wrap = post;
    sinew_curve_set_keys(&c, keys, n, NULL, NULL);
    double v = sinew_curve_eval(&c, t);
    sinew_curve_free(&c, NULL);
    return v;
}

/* ---- reference ---------------------------------------------------------------------------- */

static double bern(double p0, double p1, double p2, double p3, double u) {
    double iu = 1 - u;
    return iu * iu * iu * p0 + 3 * iu * iu * u * p1 + 3 * iu * u * u * p2 + u * u * u * p3;
}

static double ref_segment(const sinew_curve_key *l, const sinew_curve_key *r, double t) {
    if (isinf(l->out_tangent) || isinf(r->in_tangent))
        return l->value;
    double d = (double)r->time - l->time;
    if (d <= 0)
        return l->value;
    double s = (t - l->time) / d;
    int wl = (l->weighted_mode & 2) != 0, wr = (r->weighted_mode & 1) != 0;
    double a = wl ? l->out_weight : 1.0 / 3, b = wr ? r->in_weight : 1.0 / 3;
    double p1 = l->value + a * l->out_tangent * d, p2 = r->value - b * r->in_tangent * d;
    if (!wl && !wr) /* Hermite == Bezier with thirds; then x(u) = u */
        return bern(l->value, p1, p2, r->value, s);
    /* Unity drops the cubic (then the quadratic) term of x(u) when its coefficient is <= 1e-3 */
    double c3 = 3 * a + 3 * b - 2, c2 = 3 - 6 * a - 3 * b, c1 = 3 * a;
    int drop3 = fabs(c3) <= 1e-3, drop2 = drop3 && fabs(c2) <= 1e-3;
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        double m = (lo + hi) / 2;
        double x = drop3 ? (drop2 ? 0 : c2 * m * m) + c1 * m : bern(0, a, 1 - b, 1, m);
        if (x < s)
            lo = m;
        else
            hi = m;
    }
    return bern(l->value, p1, p2, r->value, (lo + hi) / 2);
}

static double ref_eval(const sinew_curve_key *k, int n, int pre, int post, double t) {
    if (n == 0)
        return 0;
    if (n == 1)
        return k[0].value;
    double first = k[0].time, last = k[n - 1].time, len = last - first;
    if (t < first || t > last) {
        int mode = t < first ? pre : post;
        if ((mode != 2 && mode != 4) || len <= 0)
            return t < first ? k[0].value : k[n - 1].value;
        if (mode == 2) {
            while (t > last)
                t -= len;
            while (t < first)
                t += len;
        } else {
            /* reflect at the ends until inside */
            for (int guard = 0; guard < 1000 && (t < first || t > last); guard++) {
                if (t > last)
                    t = last - (t - last);
                else
                    t = first + (first - t);
            }
        }
    }
    int i = -1;
    for (int j = 0; j < n; j++)
        if (k[j].time <= t)
            i = j;
    if (i < 0)
        return k[0].value;
    if (i == n - 1)
        return k[n - 1].value;
    return ref_segment(&k[i], &k[i + 1], t);
}

/* ---- hand-computed ------------------------------------------------------------------------ */

static void test_empty_and_constant(void) {
    CHECK(eval_once(NULL, 0, 8, 8, 3.0) == 0.0);
    sinew_curve_key one = K(2, 7.5f, 100, -100);
    CHECK(eval_once(&one, 1, 2, 4, -50) == 7.5);
    CHECK(eval_once(&one, 1, 2, 4, 50) == 7.5);
}

static void test_hermite_spots(void) {
    /* slope-1 tangents on a 0->1 ramp give the straight line */
    sinew_curve_key ramp[2] = {K(0, 0, 1, 1), K(1, 1, 1, 1)};
    CHECK_NEAR(eval_once(ramp, 2, 8, 8, 0.5), 0.5, 1e-12);
    CHECK_NEAR(eval_once(ramp, 2, 8, 8, 0.25), 0.25, 1e-12);
    /* flat tangents: smoothstep 3s^2 - 2s^3 */
    sinew_curve_key flat[2] = {K(0, 0, 0, 0), K(1, 1, 0, 0)};
    CHECK_NEAR(eval_once(flat, 2, 8, 8, 0.25), 0.15625, 1e-12);
    CHECK_NEAR(eval_once(flat, 2, 8, 8, 0.5), 0.5, 1e-12);
    /* tangents are per second: on a 2 s segment with out-tangent 1 and in-tangent 0,
     * h(0.5) = (s^3 - 2s^2 + s) * m0 * 2 = 0.125 * 2 = 0.25 */
    sinew_curve_key longer[2] = {K(0, 0, 0, 1), K(2, 0, 0, 0)};
    CHECK_NEAR(eval_once(longer, 2, 8, 8, 1.0), 0.25, 1e-12);
    /* exactly at a key: the key's value; at the last key: the last value */
    CHECK_NEAR(eval_once(flat, 2, 8, 8, 1.0), 1.0, 0);
    CHECK_NEAR(eval_once(flat, 2, 8, 8, 0.0), 0.0, 0);
}

static void test_weighted_spots(void) {
    /* weights 0 on both sides: linear whatever the tangents (MRTK keys) */
    sinew_curve_key lin[2] = {KW(0, 0, 0, 5, 0, 0, 3), KW(1, 2, -3, 0, 0, 0, 3)};
    CHECK_NEAR(eval_once(lin, 2, 8, 8, 0.3), 0.6, 1e-6);
    /* weights 1/2, flat tangents, 0->1: x(u) = 1.5u(1-u) + u^3, v(u) = 3u^2 - 2u^3.
     * u = 0.2 gives x = 0.248, v = 0.104 */
    sinew_curve_key half[2] = {KW(0, 0, 0, 0, 0.5f, 0.5f, 3), KW(1, 1, 0, 0, 0.5f, 0.5f, 3)};
    CHECK_NEAR(eval_once(half, 2, 8, 8, 0.248), 0.104, 1e-6);
    CHECK_NEAR(eval_once(half, 2, 8, 8, 0.5), 0.5, 1e-9);
    /* only the out side weighted (mode Out on the left key, none on the right): right side 1/3 */
    sinew_curve_key outonly[2] = {KW(0, 0, 0, 1, 0, 1.0f / 3.0f, 2), KW(1, 1, 1, 0, 0.9f, 0, 0)};
    CHECK_NEAR(eval_once(outonly, 2, 8, 8, 0.3), 0.3, 1e-5); /* thirds both sides == Hermite line */
    /* MRTK boolean keys: out weight 1e6 on the left, in weight 0 on the right: a step */
    sinew_curve_key b[2] = {KW(0, 0, 0, 0, 0, 1e6f, 3), KW(1, 1, 0, 0, 0, 1e6f, 3)};
    CHECK_NEAR(eval_once(b, 2, 8, 8, 0.5), 0.0, 1e-6);
    CHECK_NEAR(eval_once(b, 2, 8, 8, 0.999), 0.0, 1e-4);
    CHECK_NEAR(eval_once(b, 2, 8, 8, 1.0), 1.0, 0);
}

static void test_stepped(void) {
    sinew_curve_key s1[2] = {K(0, 1, 0, INFINITY), K(1, 5, 0, 0)};
    CHECK(eval_once(s1, 2, 8, 8, 0.7) == 1.0);
    sinew_curve_key s2[2] = {K(0, 1, 0, 0), K(1, 5, -INFINITY, 0)};
    CHECK(eval_once(s2, 2, 8, 8, 0.7) == 1.0);
    CHECK(eval_once(s2, 2, 8, 8, 1.0) == 5.0);
    sinew_curve_key s3[2] = {KW(0, 1, 0, INFINITY, 0, 0.5f, 3), KW(1, 5, 0, 0, 0.5f, 0, 3)};
    CHECK(eval_once(s3, 2, 8, 8, 0.5) == 1.0);
}

static void test_wrap_spots(void) {
    sinew_curve_key k[2] = {K(0, 0, 1, 1), K(2, 2, 1, 1)}; /* the line v = t on [0, 2] */
    CHECK_NEAR(eval_once(k, 2, 2, 2, 5.0), 1.0, 1e-9);   /* loop: 5 -> 1 */
    CHECK_NEAR(eval_once(k, 2, 2, 2, -0.5), 1.5, 1e-9);  /* loop: -0.5 -> 1.5 */
    CHECK_NEAR(eval_once(k, 2, 4, 4, 3.0), 1.0, 1e-9);   /* ping-pong: 3 -> 1 */
    CHECK_NEAR(eval_once(k, 2, 4, 4, 5.0), 1.0, 1e-9);   /* 5 -> 1 */
    CHECK_NEAR(eval_once(k, 2, 4, 4, -0.5), 0.5, 1e-9);  /* -0.5 -> 0.5 */
    CHECK_NEAR(eval_once(k, 2, 8, 8, 5.0), 2.0, 0);      /* clamp forever */
    CHECK_NEAR(eval_once(k, 2, 0, 1, -5.0), 0.0, 0);     /* default: clamp */
    CHECK_NEAR(eval_once(k, 2, 3, 77, 9.0), 2.0, 0);     /* unknown: clamp */
    CHECK_NEAR(eval_once(k, 2, 2, 8, -0.5), 1.5, 1e-9);  /* pre loop, post clamp */
    CHECK_NEAR(eval_once(k, 2, 2, 8, 2.5), 2.0, 0);
}

static void test_sorting_and_invalid(void) {
    sinew_curve_key k[4] = {K(1, 1, 1, 1), K(NAN, 9, 0, 0), K(0, 0, 1, 1), K(0.5f, INFINITY, 0, 0)};
    CHECK_NEAR(eval_once(k, 4, 8, 8, 0.5), 0.5, 1e-9);
    sinew_curve c;
    sinew_curve_init(&c);
    sinew_curve_set_keys(&c, k, 4, NULL, NULL);
    CHECK(c.key_count == 4);
    CHECK(c.eval_count == 2);
    CHECK(c.keys[0].time == 1.0f); /* stored order kept */
    CHECK(c.eval_keys[0].time == 0.0f);
    sinew_curve_free(&c, NULL);
}

static void test_duplicate_times(void) {
    sinew_curve_key k[4] = {K(0, 0, 0, 0), K(1, 1, 0, 0), K(1, 3, 0, 0), K(2, 3, 0, 0)};
    CHECK_NEAR(eval_once(k, 4, 8, 8, 1.0), 3.0, 0);       /* the later key wins at its time */
    CHECK_NEAR(eval_once(k, 4, 8, 8, 0.999), 1.0, 1e-4);  /* approaching from the left: 1 */
    sinew_curve_key e[3] = {K(0, 0, 0, 0), K(1, 1, 0, 0), K(1, 7, 0, 0)};
    CHECK_NEAR(eval_once(e, 3, 8, 8, 1.0), 7.0, 0);
    CHECK_NEAR(eval_once(e, 3, 8, 8, 5.0), 7.0, 0);
}

static void test_bool(void) {
    sinew_curve c;
    sinew_curve_init(&c);
    sinew_curve_key k[3] = {K(0, 0, 0, 0), K(1, 1, 0, 0), K(2, 0, 0, 0)};
    sinew_curve_set_keys(&c, k, 3, NULL, NULL);
    CHECK(!sinew_curve_eval_bool(&c, -1));
    CHECK(!sinew_curve_eval_bool(&c, 0.99));
    CHECK(sinew_curve_eval_bool(&c, 1.0));
    CHECK(sinew_curve_eval_bool(&c, 1.99));
    CHECK(!sinew_curve_eval_bool(&c, 2.0));
    sinew_curve_cursor cur = {0};
    int changes = 0;
    bool prev = false;
    for (int i = 0; i <= 300; i++) {
        bool v = sinew_curve_eval_bool_cursor(&c, &cur, i / 100.0);
        changes += v != prev;
        prev = v;
    }
    CHECK(changes == 2);
    sinew_curve_free(&c, NULL);
}

/* ---- random curves vs the reference ------------------------------------------------------- */

static uint32_t rng_state = 12345;
static double rnd(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) / 16777216.0;
}

static void random_keys(sinew_curve_key *k, int n, int flavour) {
    float t = (float)(rnd() * 2 - 1);
    for (int i = 0; i < n; i++) {
        if (i && !(flavour == 5 && rnd() < 0.2)) /* flavour 5: some duplicate times */
            t += (float)(0.05 + rnd());
        k[i].time = t;
        k[i].value = (float)(rnd() * 10 - 5);
        k[i].in_tangent = (float)(rnd() * 8 - 4);
        k[i].out_tangent = (float)(rnd() * 8 - 4);
        k[i].in_weight = (float)rnd();
        k[i].out_weight = (float)rnd();
        switch (flavour) {
        case 0: k[i].weighted_mode = 0; break;                         /* Hermite */
        case 1: k[i].weighted_mode = 1; break;                         /* In */
        case 2: k[i].weighted_mode = 2; break;                         /* Out */
        case 3: k[i].weighted_mode = 3; break;                         /* Both */
        case 4:                                                        /* stepped mixed in */
            k[i].weighted_mode = (int)(rnd() * 4);
            if (rnd() < 0.3)
                k[i].out_tangent = rnd() < 0.5 ? INFINITY : -INFINITY;
            if (rnd() < 0.2)
                k[i].in_tangent = INFINITY;
            break;
        default: k[i].weighted_mode = (int)(rnd() * 4); break;
        }
    }
}

static void test_random_vs_reference(void) {
    static const int wraps[] = {0, 1, 2, 4, 8, 3};
    int checked = 0, bad = 0;
    for (int flavour = 0; flavour < 6; flavour++) {
        for (int trial = 0; trial < 60; trial++) {
            sinew_curve_key k[12];
            int n = 2 + (int)(rnd() * 10);
            random_keys(k, n, flavour);
            int pre = wraps[(int)(rnd() * 6)], post = wraps[(int)(rnd() * 6)];
            sinew_curve c;
            sinew_curve_init(&c);
            c.pre_wrap = pre;
            c.post_wrap = post;
            sinew_curve_set_keys(&c, k, (uint32_t)n, NULL, NULL);
            double first = k[0].time, last = k[n - 1].time, len = last - first;
            sinew_curve_cursor cur = {0};
            for (int s = 0; s < 200; s++) {
                /* sweeps forward (the cursor path), never exactly on a loop boundary */
                double t = first - 2 * len + (5 * len) * (s + 0.37) / 200.0;
                double want = ref_eval(k, n, pre, post, t);
                double got = sinew_curve_eval(&c, t);
                double got_cur = sinew_curve_eval_cursor(&c, &cur, t);
                double tol = 1e-5 * (1 + fabs(want));
                checked++;
                if (!(fabs(got - want) <= tol) || got_cur != got) {
                    if (bad++ < 5)
                        fprintf(stderr, "flavour %d trial %d t=%.9g: got %.9g (cursor %.9g) want %.9g\n", flavour,
                                trial, t, got, got_cur, want);
                }
            }
            /* random jumps with the cursor */
            for (int s = 0; s < 50; s++) {
                double t = first + len * rnd();
                double got = sinew_curve_eval(&c, t), got_cur = sinew_curve_eval_cursor(&c, &cur, t);
                checked++;
                bad += got != got_cur;
            }
            /* exactly at every key time */
            for (int i = 0; i < n; i++) {
                double want = ref_eval(k, n, pre, post, k[i].time);
                double got = sinew_curve_eval(&c, k[i].time);
                checked++;
                bad += !(fabs(got - want) <= 1e-5 * (1 + fabs(want)));
            }
            sinew_curve_free(&c, NULL);
        }
    }
    CHECK(checked > 50000);
    CHECK(bad == 0);
}

static void test_stale_cursor(void) {
    /* a cursor left over from another (longer) curve must not read outside the keys */
    sinew_curve_key k[3] = {K(0, 0, 1, 1), K(1, 1, 1, 1), K(2, 2, 1, 1)};
    sinew_curve c;
    sinew_curve_init(&c);
    sinew_curve_set_keys(&c, k, 3, NULL, NULL);
    static const uint32_t stale[] = {2, 3, 1000, UINT32_MAX - 2, UINT32_MAX};
    for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
        sinew_curve_cursor cur = {stale[i]};
        CHECK_NEAR(sinew_curve_eval_cursor(&c, &cur, 0.5), 0.5, 1e-12);
        cur.index = stale[i];
        CHECK(sinew_curve_eval_bool_cursor(&c, &cur, 1.5));
    }
    sinew_curve_free(&c, NULL);
}

static void test_hermite_equals_thirds(void) {
    /* Unity's weighted path with weights 1/3 reproduces the Hermite segment */
    int bad = 0;
    for (int trial = 0; trial < 200; trial++) {
        sinew_curve_key k[2];
        random_keys(k, 2, 0);
        sinew_curve_key w[2] = {k[0], k[1]};
        w[0].weighted_mode = 3;
        w[1].weighted_mode = 3;
        w[0].out_weight = w[1].in_weight = 1.0f / 3.0f;
        for (int s = 0; s <= 20; s++) {
            double t = k[0].time + ((double)k[1].time - k[0].time) * s / 20.0;
            double a = eval_once(k, 2, 8, 8, t), b = eval_once(w, 2, 8, 8, t);
            bad += !(fabs(a - b) <= 1e-5 * (1 + fabs(a)));
        }
    }
    CHECK(bad == 0);
}

int main(void) {
    RUN(test_empty_and_constant);
    RUN(test_hermite_spots);
    RUN(test_weighted_spots);
    RUN(test_stepped);
    RUN(test_wrap_spots);
    RUN(test_sorting_and_invalid);
    RUN(test_duplicate_times);
    RUN(test_bool);
    RUN(test_random_vs_reference);
    RUN(test_stale_cursor);
    RUN(test_hermite_equals_thirds);
    return test_summary();
}
