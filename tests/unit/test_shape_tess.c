/* The 6.0 vector-shape tessellation (src/anim/shape_tess.c), checked against geometry computed here:
 *
 *   - fills: at thousands of random points, the number of triangles holding the point is 1 where
 *     the flattened outline winds around it (non-zero rule, winding counted here by ray crossings)
 *     and 0 elsewhere: no triangle overlaps another, nothing is left out; for convex, concave,
 *     self-crossing (a bow tie, a pentagram with winding 2 inside) and two-contour outlines; the
 *     flattened circle's area is pi r^2 within the flattening tolerance;
 *   - strokes: no two triangles overlap; every point nearer than half the width to a segment's
 *     inside is covered; nothing further than the miter limit allows is; a straight line's area is
 *     length x width; a right-angled corner's is the sum of its arms' (miter join); the width is
 *     measured in the shape's own space (a matrix scaling x by 3 makes a vertical line 3 times
 *     wider);
 *   - every size stays within sinew__shape_bounds, for the worst case (every cubic flattened into
 *     SINEW_SHAPE_SEGMENTS, stroked and filled).
 * Points within 1e-3 of a triangle's edge are left out (shared edges). */
#include <stdint.h>

#include "anim/shape_tess.h"
#include "testlib.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { CAP_V = 40000, CAP_I = 80000, SAMPLES = 6000 };

typedef struct fixture {
    sinew_model_shape shape;
    sinew_model_shape_path paths[4];
    uint32_t indexes[64];
    float pts[6 * 32];
    tess_scratch t;
    void *mem;
    float pos[2 * CAP_V];
    uint32_t idx[CAP_I];
    tess_sink sink;
} fixture;

static fixture F;

static const float identity[6] = {1, 0, 0, 1, 0, 0};

/* A shape of `n` Bezier points; the paths are added with add_path. */
static void begin(uint32_t n) {
    free(F.mem);
    memset(&F.shape, 0, sizeof F.shape);
    memset(F.paths, 0, sizeof F.paths);
    F.shape.point_count = n;
    F.shape.paths = F.paths;
    F.shape.indexes = F.indexes;
}

static void add_path(const uint32_t *ix, uint32_t n, bool fill, bool stroke, float width) {
    sinew_model_shape_path *p = &F.paths[F.shape.path_count++];
    p->first_index = F.shape.index_count;
    p->index_count = n;
    p->has_fill = fill;
    p->has_stroke = stroke;
    p->stroke_width = width;
    memcpy(F.indexes + F.shape.index_count, ix, n * sizeof *ix);
    F.shape.index_count += n;
}

/* Bezier point i: straight (controls on the anchor), or with the given controls. */
static void point(uint32_t i, float x, float y) {
    float *p = F.pts + 6 * i;
    p[0] = p[2] = p[4] = x;
    p[1] = p[3] = p[5] = y;
}

static void curved(uint32_t i, float ix, float iy, float x, float y, float ox, float oy) {
    float *p = F.pts + 6 * i;
    p[0] = ix, p[1] = iy, p[2] = x, p[3] = y, p[4] = ox, p[5] = oy;
}

/* The scratch as the draw list sizes it, and an empty sink; then the contours of paths [a, b]. */
static void flatten(uint32_t a, uint32_t b, const float *m) {
    uint32_t points, contours;
    uint64_t v, i;
    sinew__shape_bounds(&F.shape, &points, &contours, &v, &i);
    F.mem = calloc(1, sinew__tess_scratch_bytes(points, contours, F.shape.point_count) + 16);
    sinew__tess_scratch_bind(&F.t, F.mem, points, contours, F.shape.point_count);
    F.sink = (tess_sink){F.pos, F.idx, 0, 0, CAP_V, CAP_I};
    CHECK(sinew__tess_flatten(&F.t, F.pts, &F.shape, a, b, m));
    CHECK(v <= CAP_V && i <= CAP_I);
}

/* How many of the sink's triangles hold (x, y); -1 when it is within `eps` of an edge of one. */
static int holders(double x, double y, double eps) {
    int n = 0;
    for (uint32_t k = 0; k + 2 < F.sink.ni; k += 3) {
        const float *a = F.pos + 2 * F.idx[k], *b = F.pos + 2 * F.idx[k + 1], *c = F.pos + 2 * F.idx[k + 2];
        double area = (b[0] - a[0]) * (double)(c[1] - a[1]) - (b[1] - a[1]) * (double)(c[0] - a[0]);
        if (fabs(area) < 1e-9) continue;
        double s = area > 0 ? 1 : -1, inside = 1;
        const float *v[3] = {a, b, c};
        for (int e = 0; e < 3; e++) {
            const float *p = v[e], *q = v[(e + 1) % 3];
            double len = hypot(q[0] - p[0], q[1] - p[1]);
            double d = s * ((q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])) / len;
            if (fabs(d) < eps) return -1;
            if (d < 0) inside = 0;
        }
        n += inside > 0;
    }
    return n;
}

/* The non-zero winding number of the flattened contours (t.out) around (x, y). */
static int winding(double x, double y) {
    int w = 0;
    for (uint32_t c = 0; c < F.t.contour_count; c++) {
        uint32_t first = F.t.contour[c], k = F.t.contour[c + 1] - first;
        for (uint32_t i = 0; i < k; i++) {
            const float *a = F.t.out + 2 * (first + i), *b = F.t.out + 2 * (first + (i + 1) % k);
            if ((a[1] <= y) != (b[1] <= y)) {
                double xc = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if (xc > x) w += b[1] > a[1] ? 1 : -1;
            }
        }
    }
    return w;
}

static double triangle_area(void) {
    double sum = 0;
    for (uint32_t k = 0; k + 2 < F.sink.ni; k += 3) {
        const float *a = F.pos + 2 * F.idx[k], *b = F.pos + 2 * F.idx[k + 1], *c = F.pos + 2 * F.idx[k + 2];
        sum += 0.5 * fabs((b[0] - a[0]) * (double)(c[1] - a[1]) - (b[1] - a[1]) * (double)(c[0] - a[0]));
    }
    return sum;
}

static uint64_t rng = 88172645463325252ull;
static double uniform(double lo, double hi) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* The fill covers each sample exactly where the outline winds around it, once. */
static void check_fill_samples(double x0, double y0, double x1, double y1) {
    int wrong = 0, overlaps = 0, inside = 0;
    for (int s = 0; s < SAMPLES; s++) {
        double x = uniform(x0, x1), y = uniform(y0, y1);
        int n = holders(x, y, 1e-3);
        if (n < 0) continue;
        int want = winding(x, y) != 0;
        inside += want;
        overlaps += n > 1;
        wrong += (n > 0) != want;
    }
    CHECK(overlaps == 0);
    CHECK(wrong == 0);
    CHECK(inside > SAMPLES / 20); /* the samples do reach inside */
    if (overlaps || wrong) fprintf(stderr, "  %d overlaps, %d wrong of %d samples\n", overlaps, wrong, SAMPLES);
}

static void test_fill_convex_and_concave(void) {
    begin(6);
    point(0, 0, 0), point(1, 40, 0), point(2, 40, 30), point(3, 20, 10), point(4, 0, 30), point(5, -10, 15);
    const uint32_t ix[] = {0, 1, 2, 3, 4, 5, 0};
    add_path(ix, 7, true, false, 0);
    flatten(0, 0, identity);
    sinew__tess_fill(&F.t, &F.sink);
    CHECK(F.sink.ni > 0 && F.sink.ni % 3 == 0);
    check_fill_samples(-15, -5, 45, 35);
    /* the polygon's area (shoelace) */
    double a = 0;
    for (int i = 0; i < 6; i++) {
        const float *p = F.pts + 6 * i + 2, *q = F.pts + 6 * ((i + 1) % 6) + 2;
        a += p[0] * q[1] - q[0] * p[1];
    }
    CHECK_NEAR(triangle_area(), fabs(a) / 2, 1e-3);
}

static void test_fill_self_crossing(void) {
    /* a bow tie: two lobes of winding +1 and -1 */
    begin(4);
    point(0, -40, -20), point(1, 40, 20), point(2, 40, -20), point(3, -40, 20);
    const uint32_t ix[] = {0, 1, 2, 3, 0};
    add_path(ix, 5, true, false, 0);
    flatten(0, 0, identity);
    sinew__tess_fill(&F.t, &F.sink);
    check_fill_samples(-45, -25, 45, 25);
    CHECK_NEAR(triangle_area(), 2 * 0.5 * 40 * 40, 1e-2); /* two triangles 40 wide at x = 0, 40 tall */
    /* a pentagram: winding 2 in the middle, filled once */
    begin(5);
    for (int i = 0; i < 5; i++) {
        double ang = -M_PI / 2 + 2 * M_PI * i / 5;
        point((uint32_t)i, (float)(50 * cos(ang)), (float)(50 * sin(ang)));
    }
    const uint32_t st[] = {0, 2, 4, 1, 3, 0};
    add_path(st, 6, true, false, 0);
    flatten(0, 0, identity);
    sinew__tess_fill(&F.t, &F.sink);
    check_fill_samples(-55, -55, 55, 55);
    CHECK(winding(1.3, 0.7) == 2 || winding(1.3, 0.7) == -2);
    CHECK(holders(1.3, 0.7, 1e-3) == 1);
}

static void test_fill_two_contours(void) {
    /* a path without a style lends its contour to the next: two overlapping squares, one union */
    begin(8);
    point(0, 0, 0), point(1, 30, 0), point(2, 30, 30), point(3, 0, 30);
    point(4, 20, 20), point(5, 50, 20), point(6, 50, 50), point(7, 20, 50);
    const uint32_t a[] = {0, 1, 2, 3, 0}, b[] = {4, 5, 6, 7, 4};
    add_path(a, 5, false, false, 0);
    add_path(b, 5, true, false, 0);
    flatten(0, 1, identity);
    CHECK(F.t.contour_count == 2);
    sinew__tess_fill(&F.t, &F.sink);
    check_fill_samples(-5, -5, 55, 55);
    CHECK_NEAR(triangle_area(), 900 + 900 - 100, 1e-2);
}

static void test_fill_circle_area(void) {
    /* a circle of four cubics (k = 0.5523: within 0.03 % of the true radius) */
    const double r = 100, k = 0.5523 * r;
    begin(4);
    curved(0, (float)r, (float)-k, (float)r, 0, (float)r, (float)k);
    curved(1, (float)k, (float)r, 0, (float)r, (float)-k, (float)r);
    curved(2, (float)-r, (float)k, (float)-r, 0, (float)-r, (float)-k);
    curved(3, (float)-k, (float)-r, 0, (float)-r, (float)k, (float)-r);
    const uint32_t ix[] = {0, 1, 2, 3, 0};
    add_path(ix, 5, true, false, 0);
    flatten(0, 0, identity);
    CHECK(F.t.point_count > 4 * 8 && F.t.point_count <= 4 * SINEW_SHAPE_SEGMENTS + 1);
    sinew__tess_fill(&F.t, &F.sink);
    check_fill_samples(-105, -105, 105, 105);
    /* the polyline stays within the tolerance: area within 2 pi r tol of the curve's */
    CHECK(fabs(triangle_area() - M_PI * r * r) <= 2 * M_PI * r * (SINEW_SHAPE_TOLERANCE + 0.0003 * r));
    /* each flattened point lies on the curve within the tolerance (+ the k error) */
    for (uint32_t i = 0; i < F.t.point_count; i++)
        CHECK(fabs(hypot(F.t.out[2 * i], F.t.out[2 * i + 1]) - r) <= SINEW_SHAPE_TOLERANCE + 0.0003 * r);
}

/* Stroke checks: no overlaps; points within (w/2 - eps) of a segment's inside covered; points
 * further than the miter allows from every point of the polyline not covered. */
static void check_stroke_samples(const float *line, uint32_t n, double hw, double x0, double y0, double x1, double y1) {
    int overlaps = 0, missing = 0, extra = 0, covered = 0;
    for (int s = 0; s < SAMPLES; s++) {
        double x = uniform(x0, x1), y = uniform(y0, y1);
        int c = holders(x, y, 1e-3);
        if (c < 0) continue;
        double dmin = 1e30;
        bool near_inside = false;
        for (uint32_t i = 0; i + 1 < n; i++) {
            double ax = line[2 * i], ay = line[2 * i + 1], bx = line[2 * i + 2], by = line[2 * i + 3];
            double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
            double t = ((x - ax) * dx + (y - ay) * dy) / l2;
            double tc = t < 0 ? 0 : t > 1 ? 1 : t;
            double d = hypot(x - (ax + tc * dx), y - (ay + tc * dy));
            if (d < dmin) dmin = d;
            if (t > 0 && t < 1 && d < hw - 1e-3) near_inside = true;
        }
        overlaps += c > 1;
        missing += near_inside && c == 0;
        extra += dmin > hw * SINEW_SHAPE_MITER + 1e-3 && c > 0;
        covered += c > 0;
    }
    CHECK(overlaps == 0);
    CHECK(missing == 0);
    CHECK(extra == 0);
    CHECK(covered > SAMPLES / 50);
    if (overlaps || missing || extra)
        fprintf(stderr, "  %d overlaps, %d missing, %d extra of %d\n", overlaps, missing, extra, SAMPLES);
}

static void test_stroke_line_and_corner(void) {
    begin(3);
    point(0, 0, 0), point(1, 60, 0), point(2, 60, 40);
    const uint32_t ix[] = {0, 1};
    add_path(ix, 2, false, true, 8);
    flatten(0, 0, identity);
    sinew__tess_stroke(&F.t, 8, identity, &F.sink);
    CHECK_NEAR(triangle_area(), 60 * 8, 1e-2);
    const float l1[] = {0, 0, 60, 0};
    check_stroke_samples(l1, 2, 4, -10, -10, 70, 10);
    /* a right angle, miter join: the arms' areas exactly (the corner square replaces the overlap) */
    begin(3);
    point(0, 0, 0), point(1, 60, 0), point(2, 60, 40);
    const uint32_t iy[] = {0, 1, 2};
    add_path(iy, 3, false, true, 8);
    flatten(0, 0, identity);
    sinew__tess_stroke(&F.t, 8, identity, &F.sink);
    CHECK_NEAR(triangle_area(), 60 * 8 + 40 * 8, 1e-2);
    const float l2[] = {0, 0, 60, 0, 60, 40};
    check_stroke_samples(l2, 3, 4, -10, -10, 70, 50);
}

static void test_stroke_joins(void) {
    /* a zigzag with a sharp turn (beyond the miter limit: bevel) and a wide one; curves. (A turn
       whose inner corner would lie past the shorter segment makes the two overlap inside the turn,
       as the official adapter's strokes do: the segments here are long enough.) */
    begin(6);
    point(0, -30, 0), point(1, 50, 0), point(2, 0, 6), point(3, 40, 40), point(4, 80, 10);
    curved(5, 90, -30, 120, 20, 150, 70);
    const uint32_t ix[] = {0, 1, 2, 3, 4, 5};
    add_path(ix, 6, false, true, 6);
    flatten(0, 0, identity);
    sinew__tess_stroke(&F.t, 6, identity, &F.sink);
    check_stroke_samples(F.t.local, F.t.point_count, 3, -40, -40, 170, 80);
    /* the sharp tip (turning back by ~173 degrees) is bevelled: nothing reaches 10 half widths past it */
    CHECK(holders(50 + 3 * 9.5, 0, 1e-3) == 0);
}

static void test_stroke_width_in_shape_space(void) {
    /* a vertical line 40 long, width 2, through a matrix scaling x by 3: 6 wide in the output */
    const float m[6] = {3, 0, 0, 1, 10, 5};
    begin(2);
    point(0, 0, 0), point(1, 0, 40);
    const uint32_t ix[] = {0, 1};
    add_path(ix, 2, false, true, 2);
    flatten(0, 0, m);
    sinew__tess_stroke(&F.t, 2, m, &F.sink);
    CHECK_NEAR(triangle_area(), 40 * 6, 1e-2);
    CHECK(holders(10 + 2.9, 25, 1e-3) == 1 && holders(10 + 3.1, 25, 1e-3) == 0);
}

static void test_sizes_within_bounds(void) {
    /* every cubic at its most segments: points far apart with wild controls */
    begin(8);
    for (uint32_t i = 0; i < 8; i++)
        curved(i, (float)(i * 1000 - 3000), 4000, (float)(i * 1000), (float)(i % 2 ? 900 : -900),
               (float)(i * 1000 + 3000), -4000);
    const uint32_t ix[] = {0, 1, 2, 3, 4, 5, 6, 7, 0}, iy[] = {7, 3, 5, 1, 7};
    add_path(ix, 9, true, true, 30);
    add_path(iy, 5, true, true, 30);
    uint32_t points, contours;
    uint64_t v, i;
    sinew__shape_bounds(&F.shape, &points, &contours, &v, &i);
    CHECK(points == 8 * SINEW_SHAPE_SEGMENTS + 1 + 4 * SINEW_SHAPE_SEGMENTS + 1);
    flatten(0, 0, identity);
    CHECK(F.t.point_count == 8 * SINEW_SHAPE_SEGMENTS + 1);
    sinew__tess_stroke(&F.t, 30, identity, &F.sink);
    sinew__tess_fill(&F.t, &F.sink);
    uint32_t nv = F.sink.nv, ni = F.sink.ni;
    CHECK(sinew__tess_flatten(&F.t, F.pts, &F.shape, 1, 1, identity));
    sinew__tess_stroke(&F.t, 30, identity, &F.sink);
    sinew__tess_fill(&F.t, &F.sink);
    CHECK(F.sink.nv > nv && F.sink.ni > ni);
    CHECK(F.sink.nv <= v && F.sink.ni <= i);
    /* a full sink stops the tessellation short, never past its end */
    F.sink = (tess_sink){F.pos, F.idx, 0, 0, 10, 12};
    sinew__tess_fill(&F.t, &F.sink);
    sinew__tess_stroke(&F.t, 30, identity, &F.sink);
    CHECK(F.sink.nv <= 10 && F.sink.ni <= 12);
}

static void test_not_finite(void) {
    begin(3);
    point(0, 0, 0), point(1, NAN, 10), point(2, 10, 0);
    const uint32_t ix[] = {0, 1, 2, 0};
    add_path(ix, 4, true, true, 2);
    uint32_t points, contours;
    uint64_t v, i;
    sinew__shape_bounds(&F.shape, &points, &contours, &v, &i);
    F.mem = calloc(1, sinew__tess_scratch_bytes(points, contours, 3) + 16);
    sinew__tess_scratch_bind(&F.t, F.mem, points, contours, 3);
    CHECK(!sinew__tess_flatten(&F.t, F.pts, &F.shape, 0, 0, identity));
}

int main(void) {
    RUN(test_fill_convex_and_concave);
    RUN(test_fill_self_crossing);
    RUN(test_fill_two_contours);
    RUN(test_fill_circle_area);
    RUN(test_stroke_line_and_corner);
    RUN(test_stroke_joins);
    RUN(test_stroke_width_in_shape_space);
    RUN(test_sizes_within_bounds);
    RUN(test_not_finite);
    free(F.mem);
    return test_summary();
}
