/* Tessellation of 6.0 vector shapes (see shape_tess.h). */
#include "anim/shape_tess.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* ---- sizes --------------------------------------------------------------------------------------- */

static uint32_t path_points(const sinew_model_shape_path *p) {
    return p->index_count ? (p->index_count - 1) * SINEW_SHAPE_SEGMENTS + 1 : 0;
}

/* Per flattened point: a stroke needs at most 6 vertices and 12 indices (a join: the inner point
 * or the inner ends and the apex, two outer points, the miter tip; a quad and two join triangles);
 * a fill at most 3 trapezoids (4 vertices, 6 indices each) plus 4 per contour group. */
void sinew__shape_bounds(const sinew_model_shape *sh, uint32_t *points, uint32_t *contours, uint64_t *vertices,
                         uint64_t *indices) {
    uint64_t p = 0;
    for (uint32_t i = 0; i < sh->path_count; ++i)
        p += path_points(&sh->paths[i]);
    if (p > UINT32_MAX / 64)
        p = UINT32_MAX / 64; /* the loader's limits keep shapes far below this */
    *points = (uint32_t)p;
    *contours = sh->path_count;
    uint64_t groups = sh->path_count;
    *vertices = 6 * p + 4 * (3 * p + 4 * groups);
    *indices = 12 * p + 6 * (3 * p + 4 * groups);
}

/* ---- scratch ------------------------------------------------------------------------------------- */

enum { S_LOCAL, S_OUT, S_LINE, S_CTRL, S_CONTOUR, S_EDGES, S_YS, S_AX, S_ORDER, S_ACTIVE, S_LEFT, S_OPEN, S_NEXT, S_COUNT };

static void scratch_sizes(uint32_t pc, uint32_t cc, uint32_t kc, size_t sz[S_COUNT]) {
    size_t p = (size_t)pc + 2;
    sz[S_LOCAL] = 2 * p * sizeof(float);
    sz[S_OUT] = 2 * p * sizeof(float);
    sz[S_LINE] = 2 * p * sizeof(double);
    sz[S_CTRL] = 6 * (size_t)kc * sizeof(float);
    sz[S_CONTOUR] = ((size_t)cc + 2) * sizeof(uint32_t);
    sz[S_EDGES] = p * sizeof(tess_edge);
    sz[S_YS] = 2 * p * sizeof(double);
    sz[S_AX] = p * sizeof(double);
    sz[S_ORDER] = p * sizeof(uint32_t);
    sz[S_ACTIVE] = p * sizeof(uint32_t);
    sz[S_LEFT] = p * sizeof(uint32_t);
    sz[S_OPEN] = p * sizeof(tess_trap);
    sz[S_NEXT] = p * sizeof(tess_trap);
}

size_t sinew__tess_scratch_bytes(uint32_t point_cap, uint32_t contour_cap, uint32_t ctrl_cap) {
    if (!point_cap)
        return 0;
    size_t sz[S_COUNT], total = 0;
    scratch_sizes(point_cap, contour_cap, ctrl_cap, sz);
    for (int i = 0; i < S_COUNT; ++i)
        total += (sz[i] + 15u) & ~(size_t)15u;
    return total;
}

void sinew__tess_scratch_bind(tess_scratch *t, void *mem, uint32_t point_cap, uint32_t contour_cap, uint32_t ctrl_cap) {
    memset(t, 0, sizeof *t);
    if (!mem || !point_cap)
        return;
    size_t sz[S_COUNT];
    scratch_sizes(point_cap, contour_cap, ctrl_cap, sz);
    /* each part's pointer written into its field (all are data pointers of one representation) */
    void *to[S_COUNT] = {&t->local, &t->out, &t->line, &t->ctrl, &t->contour, &t->edges, &t->ys,
                         &t->ax, &t->order, &t->active, &t->by_left, &t->open, &t->next};
    char *c = mem;
    for (int i = 0; i < S_COUNT; ++i) {
        void *part = c;
        memcpy(to[i], &part, sizeof part);
        c += (sz[i] + 15u) & ~(size_t)15u;
    }
    t->point_cap = point_cap;
    t->contour_cap = contour_cap;
    t->ctrl_cap = ctrl_cap;
}

/* ---- flattening ---------------------------------------------------------------------------------- */

static void push_point(tess_scratch *t, double x, double y) {
    uint32_t n = t->point_count;
    float fx = (float)x, fy = (float)y;
    if (n > t->contour[t->contour_count - 1] && t->local[2 * n - 2] == fx && t->local[2 * n - 1] == fy)
        return; /* the same point again (a curve of length 0) */
    if (n >= t->point_cap)
        return;
    t->local[2 * n] = fx;
    t->local[2 * n + 1] = fy;
    t->point_count = n + 1;
}

/* Whether a cubic (mapped by m) is a straight line within the tolerance: both controls near the
 * chord and between its ends (the curve stays in their hull, so the chord is within the tolerance
 * too). Editors write straight segments with the controls on the anchors; Wang's bound, which only
 * sees the second differences, would cut them as finely as a curve. */
static bool flat_cubic(const double c[8], const float m[6]) {
    double q[8];
    for (int i = 0; i < 4; ++i) {
        q[2 * i] = m[0] * c[2 * i] + m[2] * c[2 * i + 1];
        q[2 * i + 1] = m[1] * c[2 * i] + m[3] * c[2 * i + 1];
    }
    double cx = q[6] - q[0], cy = q[7] - q[1], len2 = cx * cx + cy * cy, tol = 0.25 * SINEW_SHAPE_TOLERANCE;
    for (int i = 1; i <= 2; ++i) {
        double vx = q[2 * i] - q[0], vy = q[2 * i + 1] - q[1];
        if (len2 <= tol * tol) {
            if (vx * vx + vy * vy > tol * tol)
                return false;
            continue;
        }
        double along = (cx * vx + cy * vy) / len2, across = fabs(cx * vy - cy * vx) / sqrt(len2);
        if (!(across <= tol && along >= 0.0 && along <= 1.0))
            return false;
    }
    return true;
}

/* One cubic from (x0 y0) via (x1 y1), (x2 y2) to (x3 y3), its start already pushed. */
static void flatten_cubic(tess_scratch *t, const double c[8], const float m[6]) {
    double d1x = c[0] - 2 * c[2] + c[4], d1y = c[1] - 2 * c[3] + c[5];
    double d2x = c[2] - 2 * c[4] + c[6], d2y = c[3] - 2 * c[5] + c[7];
    double e1 = hypot(m[0] * d1x + m[2] * d1y, m[1] * d1x + m[3] * d1y);
    double e2 = hypot(m[0] * d2x + m[2] * d2y, m[1] * d2x + m[3] * d2y);
    double n = flat_cubic(c, m) ? 1.0 : ceil(sqrt(0.75 * (e1 > e2 ? e1 : e2) / SINEW_SHAPE_TOLERANCE));
    uint32_t segs = !(n >= 1.0) ? 1u : n > SINEW_SHAPE_SEGMENTS ? SINEW_SHAPE_SEGMENTS : (uint32_t)n;
    for (uint32_t i = 1; i < segs; ++i) {
        double u = (double)i / segs, v = 1.0 - u;
        double b0 = v * v * v, b1 = 3 * v * v * u, b2 = 3 * v * u * u, b3 = u * u * u;
        push_point(t, b0 * c[0] + b1 * c[2] + b2 * c[4] + b3 * c[6], b0 * c[1] + b1 * c[3] + b2 * c[5] + b3 * c[7]);
    }
    push_point(t, c[6], c[7]);
}

bool sinew__tess_flatten(tess_scratch *t, const float *pts, const sinew_model_shape *sh, uint32_t first, uint32_t last,
                         const float m[6]) {
    t->contour_count = 0;
    t->point_count = 0;
    if (!t->point_cap)
        return false;
    for (uint32_t p = first; p <= last && p < sh->path_count; ++p) {
        const sinew_model_shape_path *path = &sh->paths[p];
        const uint32_t *ix = sh->indexes + path->first_index;
        if (!path->index_count || t->contour_count >= t->contour_cap)
            continue;
        for (uint32_t j = 0; j < path->index_count; ++j) {
            const float *q = pts + 6 * (size_t)ix[j];
            for (int k = 0; k < 6; ++k)
                if (!isfinite(q[k]))
                    return false;
        }
        t->contour[t->contour_count++] = t->point_count;
        const float *a = pts + 6 * (size_t)ix[0];
        push_point(t, a[2], a[3]);
        for (uint32_t j = 1; j < path->index_count; ++j) {
            const float *prev = pts + 6 * (size_t)ix[j - 1], *cur = pts + 6 * (size_t)ix[j];
            /* from the previous anchor, via its out-control and this point's in-control */
            const double c[8] = {prev[2], prev[3], prev[4], prev[5], cur[0], cur[1], cur[2], cur[3]};
            flatten_cubic(t, c, m);
        }
    }
    t->contour[t->contour_count] = t->point_count;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        double x = t->local[2 * i], y = t->local[2 * i + 1];
        t->out[2 * i] = (float)(m[0] * x + m[2] * y + m[4]);
        t->out[2 * i + 1] = (float)(m[1] * x + m[3] * y + m[5]);
    }
    return true;
}

/* ---- fill: trapezoids by the non-zero rule ---------------------------------------------------------- */

static inline double edge_x(const tess_edge *e, double y) {
    if (y <= e->y0)
        return e->x0;
    if (y >= e->y1)
        return e->x1;
    return e->x0 + (y - e->y0) * e->slope;
}

static int by_top(const void *a, const void *b) {
    double ya = ((const tess_edge *)a)->y0, yb = ((const tess_edge *)b)->y0;
    return ya < yb ? -1 : ya > yb;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The edges of every contour (closed: the fill closes a path), horizontal ones left out. */
static uint32_t build_edges(tess_scratch *t) {
    uint32_t ne = 0;
    for (uint32_t c = 0; c < t->contour_count; ++c) {
        uint32_t first = t->contour[c], k = t->contour[c + 1] - first;
        if (k < 3)
            continue;
        for (uint32_t i = 0; i < k; ++i) {
            const float *a = t->out + 2 * (size_t)(first + i), *b = t->out + 2 * (size_t)(first + (i + 1) % k);
            if (a[1] == b[1] || ne >= t->point_cap)
                continue;
            tess_edge *e = &t->edges[ne++];
            bool down = a[1] < b[1];
            const float *top = down ? a : b, *bot = down ? b : a;
            e->x0 = top[0];
            e->y0 = top[1];
            e->x1 = bot[0];
            e->y1 = bot[1];
            e->slope = (e->x1 - e->x0) / (e->y1 - e->y0);
            e->dir = down ? 1 : -1;
        }
    }
    return ne;
}

typedef struct fill_state {
    tess_scratch *t;
    tess_sink *s;
    uint32_t nact, nopen, traps, trap_cap;
} fill_state;

static void emit_trap(fill_state *f, const tess_trap *tr, double yb) {
    if (!(yb > tr->y) || f->traps >= f->trap_cap)
        return;
    tess_sink *s = f->s;
    if (s->nv + 4 > s->cap_v || s->ni + 6 > s->cap_i)
        return;
    const tess_edge *l = &f->t->edges[tr->l], *r = &f->t->edges[tr->r];
    float *p = s->pos + 2 * (size_t)s->nv;
    p[0] = (float)edge_x(l, tr->y);
    p[1] = (float)tr->y;
    p[2] = (float)edge_x(r, tr->y);
    p[3] = (float)tr->y;
    p[4] = (float)edge_x(r, yb);
    p[5] = (float)yb;
    p[6] = (float)edge_x(l, yb);
    p[7] = (float)yb;
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; ++k)
        s->idx[s->ni + (uint32_t)k] = s->nv + quad[k];
    s->nv += 4;
    s->ni += 6;
    f->traps++;
}

/* The active edges sorted by x at y (ties: the one going left first below y). */
static void sort_active(fill_state *f, double y) {
    tess_scratch *t = f->t;
    for (uint32_t i = 0; i < f->nact; ++i)
        t->ax[t->active[i]] = edge_x(&t->edges[t->active[i]], y);
    for (uint32_t i = 1; i < f->nact; ++i) {
        uint32_t e = t->active[i], j = i;
        while (j > 0) {
            uint32_t g = t->active[j - 1];
            if (t->ax[g] < t->ax[e] || (t->ax[g] == t->ax[e] && t->edges[g].slope <= t->edges[e].slope))
                break;
            t->active[j] = g;
            --j;
        }
        t->active[j] = e;
    }
}

/* Where the band from y ends: its stop, or the first crossing of two neighbouring edges before it. */
static double band_end(fill_state *f, double y, double stop) {
    tess_scratch *t = f->t;
    double yb = stop;
    for (uint32_t i = 0; i + 1 < f->nact; ++i) {
        const tess_edge *e = &t->edges[t->active[i]], *g = &t->edges[t->active[i + 1]];
        if (edge_x(e, stop) <= edge_x(g, stop))
            continue;
        double ds = e->slope - g->slope; /* > 0: e overtakes g */
        if (!(ds > 0.0))
            continue;
        double yc = y + (t->ax[t->active[i + 1]] - t->ax[t->active[i]]) / ds;
        if (yc > y && yc < yb)
            yb = yc;
    }
    return yb;
}

/* The spans of the band starting at y (non-zero winding between two edges), each continuing the open
 * trapezoid between the same two edges or starting a new one; the others end at y. */
static void band(fill_state *f, double y) {
    tess_scratch *t = f->t;
    uint32_t nn = 0, left = NONE;
    int32_t wind = 0;
    for (uint32_t i = 0; i < f->nact; ++i) {
        uint32_t e = t->active[i];
        int32_t w0 = wind;
        wind += t->edges[e].dir;
        if (w0 == 0 && wind != 0) {
            left = e;
        } else if (w0 != 0 && wind == 0 && left != NONE) {
            tess_trap *tr = &t->next[nn++];
            tr->l = left;
            tr->r = e;
            tr->y = y;
            uint32_t o = t->by_left[left];
            if (o != NONE && o < f->nopen && t->open[o].r == e && t->open[o].l == left) {
                tr->y = t->open[o].y; /* the same trapezoid goes on */
                t->by_left[left] = NONE;
            }
        }
    }
    for (uint32_t o = 0; o < f->nopen; ++o) {
        uint32_t l = t->open[o].l;
        if (t->by_left[l] == o) { /* not continued: it ends here */
            emit_trap(f, &t->open[o], y);
            t->by_left[l] = NONE;
        }
    }
    for (uint32_t j = 0; j < nn; ++j)
        t->by_left[t->next[j].l] = j;
    tess_trap *sw = t->open;
    t->open = t->next;
    t->next = sw;
    f->nopen = nn;
}

void sinew__tess_fill(tess_scratch *t, tess_sink *s) {
    uint32_t ne = build_edges(t);
    if (ne < 2)
        return;
    qsort(t->edges, ne, sizeof *t->edges, by_top);
    uint32_t ny = 0;
    for (uint32_t i = 0; i < ne; ++i) {
        t->ys[ny++] = t->edges[i].y0;
        t->ys[ny++] = t->edges[i].y1;
        t->by_left[i] = NONE;
    }
    qsort(t->ys, ny, sizeof *t->ys, by_value);
    uint32_t u = 1;
    for (uint32_t i = 1; i < ny; ++i)
        if (t->ys[i] != t->ys[u - 1])
            t->ys[u++] = t->ys[i];
    ny = u;
    fill_state f = {t, s, 0, 0, 0, 3 * ne + 4};
    uint32_t next_edge = 0, guard = 0;
    for (uint32_t k = 0; k + 1 < ny; ++k) {
        double y = t->ys[k], stop = t->ys[k + 1];
        uint32_t keep = 0;
        for (uint32_t i = 0; i < f.nact; ++i)
            if (t->edges[t->active[i]].y1 > y)
                t->active[keep++] = t->active[i];
        f.nact = keep;
        for (; next_edge < ne && t->edges[next_edge].y0 <= y; ++next_edge)
            if (t->edges[next_edge].y1 > y)
                t->active[f.nact++] = next_edge;
        while (y < stop) {
            sort_active(&f, y);
            /* crossings split the band, as long as the trapezoids have room (a pathological
               outline that crosses itself more often is cut there) */
            double yb = ++guard < 2 * ne + 8 && f.traps < f.trap_cap ? band_end(&f, y, stop) : stop;
            band(&f, y);
            y = yb;
        }
    }
    for (uint32_t o = 0; o < f.nopen; ++o)
        emit_trap(&f, &t->open[o], t->ys[ny - 1]);
}

/* ---- stroke ------------------------------------------------------------------------------------------ */

typedef struct stroke_state {
    tess_sink *s;
    const float *m;
    double hw;
} stroke_state;

static uint32_t vtx(stroke_state *st, double x, double y) {
    tess_sink *s = st->s;
    float *p = s->pos + 2 * (size_t)s->nv;
    p[0] = (float)(st->m[0] * x + st->m[2] * y + st->m[4]);
    p[1] = (float)(st->m[1] * x + st->m[3] * y + st->m[5]);
    return s->nv++;
}

static void tri(tess_sink *s, uint32_t a, uint32_t b, uint32_t c) {
    uint32_t *ix = s->idx + s->ni;
    ix[0] = a;
    ix[1] = b;
    ix[2] = c;
    s->ni += 3;
}

/* The four ends of a joint's two segments: the left and right points where the segment before
 * ends, and where the segment after begins. */
typedef struct joint {
    uint32_t lin, rin, lout, rout;
} joint;

/* Joint j of the polyline q (not an end): unit directions da (into it) and db (out of it), the
 * lengths of those segments. */
static joint join(stroke_state *st, const double *q, const double da[2], const double db[2], double la, double lb) {
    joint jt;
    double hw = st->hw, x = q[0], y = q[1];
    double ax = -da[1] * hw, ay = da[0] * hw, bx = -db[1] * hw, by = db[0] * hw;
    double cr = da[0] * db[1] - da[1] * db[0], dt = da[0] * db[0] + da[1] * db[1];
    if (fabs(cr) < 1e-3 * fabs(dt) && dt < 0.0) { /* turning back: two butt ends */
        jt.lin = vtx(st, x + ax, y + ay);
        jt.rin = vtx(st, x - ax, y - ay);
        jt.lout = vtx(st, x + bx, y + by);
        jt.rout = vtx(st, x - bx, y - by);
        return jt;
    }
    /* the miter: where the offset lines cross, (a + b) / (1 + a.b) in unit normals */
    double k = hw / (1.0 + dt);
    double mx = (-da[1] - db[1]) * k, my = (da[0] + db[0]) * k;
    if (fabs(cr) < 1e-3 * fabs(dt)) { /* straight on: one pair of points */
        jt.lin = jt.lout = vtx(st, x + mx, y + my);
        jt.rin = jt.rout = vtx(st, x - mx, y - my);
        return jt;
    }
    double sgn = cr > 0.0 ? 1.0 : -1.0; /* the side the path turns to (+: the left normal) is inside */
    double m2 = mx * mx + my * my, shorter = la < lb ? la : lb;
    uint32_t in_end, in_start, apex;
    if (m2 <= shorter * shorter + hw * hw) {
        apex = in_end = in_start = vtx(st, x + sgn * mx, y + sgn * my);
    } else { /* segments too short for the inner corner: their ends overlap, the joint's centre closes it */
        in_end = vtx(st, x + sgn * ax, y + sgn * ay);
        in_start = vtx(st, x + sgn * bx, y + sgn * by);
        apex = vtx(st, x, y);
    }
    uint32_t oa = vtx(st, x - sgn * ax, y - sgn * ay), ob = vtx(st, x - sgn * bx, y - sgn * by);
    tri(st->s, apex, oa, ob);
    if (m2 <= SINEW_SHAPE_MITER * SINEW_SHAPE_MITER * hw * hw)
        tri(st->s, oa, vtx(st, x - sgn * mx, y - sgn * my), ob);
    if (sgn > 0.0) {
        jt.lin = in_end, jt.lout = in_start, jt.rin = oa, jt.rout = ob;
    } else {
        jt.rin = in_end, jt.rout = in_start, jt.lin = oa, jt.lout = ob;
    }
    return jt;
}

static void stroke_polyline(stroke_state *st, const double *q, uint32_t n) {
    tess_sink *s = st->s;
    double hw = st->hw;
    double d0[2], d1[2] = {0.0, 0.0}, l0, l1 = 0.0;
    l0 = hypot(q[2] - q[0], q[3] - q[1]);
    d0[0] = (q[2] - q[0]) / l0;
    d0[1] = (q[3] - q[1]) / l0;
    if (s->nv + 2 > s->cap_v)
        return;
    uint32_t lo = vtx(st, q[0] - d0[1] * hw, q[1] + d0[0] * hw);
    uint32_t ro = vtx(st, q[0] + d0[1] * hw, q[1] - d0[0] * hw);
    for (uint32_t j = 1; j < n; ++j) {
        if (s->nv + 6 > s->cap_v || s->ni + 12 > s->cap_i)
            return;
        joint jt;
        const double *p = q + 2 * (size_t)j;
        if (j + 1 < n) {
            l1 = hypot(p[2] - p[0], p[3] - p[1]);
            d1[0] = (p[2] - p[0]) / l1;
            d1[1] = (p[3] - p[1]) / l1;
            jt = join(st, p, d0, d1, l0, l1);
        } else { /* the butt end */
            jt.lin = jt.lout = vtx(st, p[0] - d0[1] * hw, p[1] + d0[0] * hw);
            jt.rin = jt.rout = vtx(st, p[0] + d0[1] * hw, p[1] - d0[0] * hw);
        }
        tri(s, lo, ro, jt.rin);
        tri(s, lo, jt.rin, jt.lin);
        lo = jt.lout;
        ro = jt.rout;
        d0[0] = d1[0];
        d0[1] = d1[1];
        l0 = l1;
    }
}

void sinew__tess_stroke(const tess_scratch *t, float width, const float m[6], tess_sink *s) {
    double hw = 0.5 * (double)width;
    if (!(hw > 0.0) || !isfinite(hw))
        return;
    stroke_state st = {s, m, hw};
    for (uint32_t c = 0; c < t->contour_count; ++c) {
        uint32_t first = t->contour[c], k = t->contour[c + 1] - first, n = 0;
        double *q = t->line;
        for (uint32_t i = 0; i < k; ++i) { /* points closer than a millionth of the width dropped */
            double x = t->local[2 * (size_t)(first + i)], y = t->local[2 * (size_t)(first + i) + 1];
            if (n && hypot(x - q[2 * n - 2], y - q[2 * n - 1]) <= 1e-6 * hw) {
                if (i + 1 == k && n > 1) { /* keep the true end */
                    q[2 * n - 2] = x;
                    q[2 * n - 1] = y;
                }
                continue;
            }
            q[2 * n] = x;
            q[2 * n + 1] = y;
            ++n;
        }
        if (n >= 2)
            stroke_polyline(&st, q, n);
    }
}
