/*
 * Pose: bone world transforms (with the inherit flags), IK, slots (display switching, child
 * armatures, world matrices), meshes (deform and skinning) and draw order.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "anim/runtime_internal.h"

#if defined(__GNUC__)
/* GCC/clang vector extensions (plain SSE2 on x86-64, NEON on arm64) for the skinning loop */
typedef float sw_v2 __attribute__((vector_size(8)));
typedef float sw_v4 __attribute__((vector_size(16)));
#endif

/* ---- transforms ---------------------------------------------------------------------------- */

/* Bone transforms are computed in double with the official runtime's formulas in its order of
 * operations (its numbers are doubles), so that degenerate cases decide alike: a scale passing
 * through 0 gives a determinant of exactly 0 there and here, and the IK bend and the reflection
 * rules see the same sign. Build with -ffp-contract=off (CMakeLists.txt). */

/* The official Transform.toMatrix: a = cos(r) sx, b = sin(r) sx, c = -sin(r+k) sy,
 * d = cos(r+k) sy, with its zero-rotation and zero-skew shortcuts. */
static inline void tf_matrix(double rot, double skew, double sx, double sy, double x, double y, double *m) {
    double a, b, c, d;
    if (rot == 0.0) {
        a = 1.0;
        b = 0.0;
    } else {
        sinew__angle_sincos(rot, &b, &a);
    }
    if (skew == 0.0) {
        c = -b;
        d = a;
    } else {
        sinew__angle_sincos(skew + rot, &c, &d);
        c = -c;
    }
    if (sx != 1.0) {
        a *= sx;
        b *= sx;
    }
    if (sy != 1.0) {
        c *= sy;
        d *= sy;
    }
    m[0] = a;
    m[1] = b;
    m[2] = c;
    m[3] = d;
    m[4] = x;
    m[5] = y;
}

void sinew__transform_matrix(const sinew_transform *t, double *m) {
    tf_matrix(t->rotation, t->skew, t->scale_x, t->scale_y, t->x, t->y, m);
}

/* out = l followed by p: the official `l.concat(p)`, term by term in its order. out may alias l. */
static inline void mat_concat(const double *l, const double *p, double *out) {
    double a = l[0] * p[0], b = 0.0, c = 0.0, d = l[3] * p[3];
    double tx = l[4] * p[0] + p[4], ty = l[5] * p[3] + p[5];
    if (l[1] != 0.0 || l[2] != 0.0) {
        a += l[1] * p[2];
        b += l[1] * p[3];
        c += l[2] * p[0];
        d += l[2] * p[1];
    }
    if (p[1] != 0.0 || p[2] != 0.0) {
        b += l[0] * p[1];
        c += l[3] * p[2];
        tx += l[5] * p[2];
        ty += l[4] * p[1];
    }
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = d;
    out[4] = tx;
    out[5] = ty;
}

/* The single-precision copy of a bone's world matrix that skinning reads. */
static inline void store_world_f(arm_inst *arm, uint32_t b) {
    const double *m = arm->world + (size_t)b * 6;
    sinew__mat_to_float(m, arm->world_f + (size_t)b * 6);
}

/* The official Transform.fromMatrix; g holds the previous values (their scale signs are kept).
 * Its scales, a / cos(atan(b / a)) (or b / sin(...)) and d / cos(atan(-c / d)) (or -c / sin),
 * are the column lengths with the sign of a and d (positive when a or d is 0): taken so, without
 * the trigonometry (the same values but for the last bits; the same signs always). A matrix with
 * a zero column (scale 0) gives rotation 0 and scale 0 where the official one gives NaN. */
static void from_matrix(const double *m, double *g) {
    double backup_sx = g[4], backup_sy = g[5];
    double a = m[0], b = m[1], c = m[2], d = m[3];
    g[0] = m[4];
    g[1] = m[5];
    double rot = a == 0.0 && b == 0.0 ? 0.0 : atan(b / a);
    double skew_x = c == 0.0 && d == 0.0 ? 0.0 : atan(-c / d);
    double sx = sqrt(a * a + b * b), sy = sqrt(c * c + d * d);
    if (a < 0.0)
        sx = -sx;
    if (d < 0.0)
        sy = -sy;
    if (backup_sx >= 0.0 && sx < 0.0) {
        sx = -sx;
        rot = rot - SINEW_PI;
    }
    if (backup_sy >= 0.0 && sy < 0.0) {
        sy = -sy;
        skew_x = skew_x - SINEW_PI;
    }
    g[2] = rot;
    g[3] = skew_x - rot;
    g[4] = sx;
    g[5] = sy;
}

/* The official updateGlobalTransform(): the decomposed global, made from the matrix when stale. */
static const double *bone_global(arm_inst *arm, uint32_t b) {
    double *g = arm->global + (size_t)b * 6;
    if (!arm->global_valid[b]) {
        from_matrix(arm->world + (size_t)b * 6, g);
        arm->global_valid[b] = 1;
    }
    return g;
}

/* global = origin + pose (the official additive offset mode with an identity offset) */
static inline void bone_origin_pose(const double *su, const double *p, double *g) {
    g[0] = su[0] + p[0];
    g[1] = su[1] + p[1];
    g[2] = su[2] + p[2];
    g[3] = su[3] + p[3];
    g[4] = su[4] * p[4];
    g[5] = su[5] * p[5];
}

/* ---- surfaces (5.5) --------------------------------------------------------------------------- */

/* A surface's own space is the square [-200, 200]^2 mapped onto its lattice, cell by cell, each
 * cell split along a diagonal into two triangles with an affine map each. Outside the square, up
 * to 1000 away, the hull cells stretch the border outwards; beyond that the surface's global
 * matrix applies. The numbers, the triangle choice and the cache (whose indices overlap between
 * regions, and key the cells below the lattice by row: the first cell computed in a row serves
 * the whole row until the surface moves) are the official Surface's, kept as they are. */
#define SURF_IN 200.0
#define SURF_OUT 1000.0

/* The official Surface._getAffineTransform: the map taking (x, y) to a, (x + lx, y) to b and
 * (x, y + ly) to c; is_down turns it half a turn (the lower triangle). g (optional) receives it
 * decomposed. */
static void surface_affine(double x, double y, double lx, double ly, double ax, double ay, double bx, double by,
                           double cx, double cy, bool is_down, double *g, double *m) {
    double dabx = bx - ax, daby = by - ay, dacx = cx - ax, dacy = cy - ay;
    double rot = atan2(daby, dabx);
    double skew = atan2(dacy, dacx) - SINEW_PI * 0.5 - rot;
    if (is_down)
        rot += SINEW_PI;
    double sx = sqrt(dabx * dabx + daby * daby) / lx;
    double sy = sqrt(dacx * dacx + dacy * dacy) / ly;
    tf_matrix(rot, skew, sx, sy, 0.0, 0.0, m);
    m[4] = ax - (m[0] * x + m[2] * y);
    m[5] = ay - (m[1] * x + m[3] * y);
    if (g) {
        g[0] = m[4];
        g[1] = m[5];
        g[2] = rot;
        g[3] = skew;
        g[4] = sx;
        g[5] = sy;
    }
}

/* A cell's map, the matrix surface_affine makes, without its angles: the official decomposes
 * the edges into rotation, skew and scales and builds the matrix back from them, which is the
 * linear map taking (lx, 0) to b - a and (0, ly) to c - a (negated for the lower triangle, its
 * half turn). The same matrix up to rounding (last bits), for a fraction of the cost: lookups
 * are most of a surface rig's update. */
static inline void surface_cell(double x, double y, double lx, double ly, double ax, double ay, double bx, double by,
                                double cx, double cy, bool is_down, double *m) {
    double s = is_down ? -1.0 : 1.0;
    m[0] = s * (bx - ax) / lx;
    m[1] = s * (by - ay) / lx;
    m[2] = s * (cx - ax) / ly;
    m[3] = s * (cy - ay) / ly;
    m[4] = ax - (m[0] * x + m[2] * y);
    m[5] = ay - (m[1] * x + m[3] * y);
}

enum { HULL_LEFT, HULL_RIGHT, HULL_UP, HULL_DOWN };

/* The cache place (in cells) of a hull cell outside the lattice: the 5.x reference's indices
 * (after sx (sy + 1) cells; the cells below keyed by row), or upstream's (a 6.0 file: after
 * sx sy, below keyed by column). */
static inline int64_t hull_cell(bool v6, int region, int64_t sx, int64_t sy, int64_t ix, int64_t iy, bool down) {
    int64_t d = down ? 1 : 0, base = sx * (sy + 1), inner = sx * sy;
    switch (region) {
    case HULL_LEFT:
        return ((v6 ? inner + sx + 2 * sy : base + 2 * sx + sy) + iy) * 2 + d;
    case HULL_RIGHT:
        return ((v6 ? inner : base) + sx + iy) * 2 + d;
    case HULL_UP:
        return v6 ? (inner + ix) * 2 + d : base + ix * 2 + d;
    default:
        return v6 ? (inner + sx + sy + ix) * 2 + d : (base + sx + sy + iy) * 2 + d;
    }
}

/* The matrix surface bone b applies at (x, y) of its own space (the official
 * Surface._getGlobalTransformMatrix). The pointer is valid until the next call. */
static const double *surface_matrix(arm_inst *arm, uint32_t b, double x, double y) {
    const double *global = arm->world + (size_t)b * 6;
    if (x < -SURF_OUT || SURF_OUT < x || y < -SURF_OUT || SURF_OUT < y)
        return global;
    surface_rt *sf = &arm->surfaces[arm->data->run_surface[b]];
    const sinew_model_bone *bd = &arm->data->bones[b];
    const double lA = SURF_IN, lB = SURF_OUT;
    const int64_t segx = bd->segment_x, segy = bd->segment_y, sxd = 2 * segx;
    const double dX = sf->dx, dY = sf->dy;
    const double *v = sf->verts, *h = sf->hull;
    double fx = floor((x + lA) / dX), fy = floor((y + lA) / dY);
    if (!(fabs(fx) < 1e15 && fabs(fy) < 1e15)) {
        /* x or y NaN, or a lattice of zero or NaN size: the official lookup indexes its caches
           and vertices with NaN or an infinity, reads undefined, and its matrix is all NaN */
        static const double nan_matrix[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
        return nan_matrix;
    }
    int64_t ix = (int64_t)fx, iy = (int64_t)fy;
    double pX = (double)ix * dX - lA, pY = (double)iy * dY - lA;
    const bool v6 = arm->data->v6;
    int64_t cell, vi;
    bool down;
    /* the corner points of the triangle (a, b, c), its origin (ox, oy) and size (lx, ly) */
    double ox, oy, lx, ly, ax, ay, bx, by, cx, cy;
    if (x < -lA) { /* left */
        if (y < -lA || y >= lA)
            return global;
        down = y > sf->kx * (x + lA) + pY;
        cell = hull_cell(v6, HULL_LEFT, segx, segy, ix, iy, down);
        vi = iy * (sxd + 2);
        if (iy < 0 || iy >= segy)
            return global;
        double ddx = h[4], ddy = h[5];
        double sX = h[2] - (double)(segy - iy) * ddx, sY = h[3] - (double)(segy - iy) * ddy;
        if (down) {
            ox = -lA, oy = pY + dY, lx = lB - lA, ly = dY;
            ax = v[vi + sxd + 2], ay = v[vi + sxd + 3], bx = sX + ddx, by = sY + ddy, cx = v[vi], cy = v[vi + 1];
        } else {
            ox = -lB, oy = pY, lx = lB - lA, ly = dY;
            ax = sX, ay = sY, bx = v[vi], by = v[vi + 1], cx = sX + ddx, cy = sY + ddy;
        }
    } else if (x >= lA) { /* right */
        if (y < -lA || y >= lA)
            return global;
        down = y > sf->kx * (x - lB) + pY;
        cell = hull_cell(v6, HULL_RIGHT, segx, segy, ix, iy, down);
        vi = (iy + 1) * (sxd + 2) - 2;
        if (iy < 0 || iy >= segy)
            return global;
        double ddx = h[4], ddy = h[5];
        double sX = h[0] + (double)iy * ddx, sY = h[1] + (double)iy * ddy;
        if (down) {
            ox = lB, oy = pY + dY, lx = lB - lA, ly = dY;
            ax = sX + ddx, ay = sY + ddy, bx = v[vi + sxd + 2], by = v[vi + sxd + 3], cx = sX, cy = sY;
        } else {
            ox = lA, oy = pY, lx = lB - lA, ly = dY;
            ax = v[vi], ay = v[vi + 1], bx = sX, by = sY, cx = v[vi + sxd + 2], cy = v[vi + sxd + 3];
        }
    } else if (y < -lA) { /* up */
        if (x < -lA || x >= lA)
            return global;
        down = y > sf->ky * (x - pX - dX) - lB;
        cell = hull_cell(v6, HULL_UP, segx, segy, ix, iy, down);
        vi = ix * 2;
        if (ix < 0 || ix >= segx)
            return global;
        double ddx = h[10], ddy = h[11];
        double sX = h[8] + (double)ix * ddx, sY = h[9] + (double)ix * ddy;
        if (down) {
            ox = pX + dX, oy = -lA, lx = dX, ly = lB - lA;
            ax = v[vi + 2], ay = v[vi + 3], bx = v[vi], by = v[vi + 1], cx = sX + ddx, cy = sY + ddy;
        } else {
            ox = pX, oy = -lB, lx = dX, ly = lB - lA;
            ax = sX, ay = sY, bx = sX + ddx, by = sY + ddy, cx = v[vi], cy = v[vi + 1];
        }
    } else if (y >= lA) { /* down (its cache key is the row, not the column) */
        if (x < -lA || x >= lA)
            return global;
        down = y > sf->ky * (x - pX - dX) + lA;
        cell = hull_cell(v6, HULL_DOWN, segx, segy, ix, iy, down);
        vi = segy * (sxd + 2) + ix * 2;
        if (ix < 0 || ix >= segx)
            return global;
        double ddx = h[10], ddy = h[11];
        double sX = h[6] - (double)(segx - ix) * ddx, sY = h[7] - (double)(segx - ix) * ddy;
        if (down) {
            ox = pX + dX, oy = lB, lx = dX, ly = lB - lA;
            ax = sX + ddx, ay = sY + ddy, bx = sX, by = sY, cx = v[vi + 2], cy = v[vi + 3];
        } else {
            ox = pX, oy = lA, lx = dX, ly = lB - lA;
            ax = v[vi], ay = v[vi + 1], bx = v[vi + 2], by = v[vi + 3], cx = sX, cy = sY;
        }
    } else { /* inside the lattice */
        down = y > sf->k * (x - pX - dX) + pY;
        cell = (segx * iy + ix) * 2 + (down ? 1 : 0);
        vi = ix * 2 + iy * (sxd + 2);
        if (ix < 0 || ix >= segx || iy < 0 || iy >= segy)
            return global;
        if (down) {
            ox = pX + dX, oy = pY + dY, lx = dX, ly = dY;
            ax = v[vi + sxd + 4], ay = v[vi + sxd + 5], bx = v[vi + sxd + 2], by = v[vi + sxd + 3];
            cx = v[vi + 2], cy = v[vi + 3];
        } else {
            ox = pX, oy = pY, lx = dX, ly = dY;
            ax = v[vi], ay = v[vi + 1], bx = v[vi + 2], by = v[vi + 3], cx = v[vi + sxd + 2], cy = v[vi + sxd + 3];
        }
    }
    double *slot = cell >= 0 && cell < (int64_t)sf->cell_count ? sf->cells + 7 * cell : NULL;
    if (slot && slot[0] > 0.0)
        return slot + 1;
    double *m = slot ? slot + 1 : arm->help;
    surface_cell(ox, oy, lx, ly, ax, ay, bx, by, cx, cy, down, m);
    if (slot)
        slot[0] = 1.0;
    return m;
}

/* The official Surface.update when the surface moved: its lattice placed (by its parent, or the
 * parent surface's cells), its global transform from the lattice's corners and middles, the hull
 * for the cells outside, the cell cache cleared. global_from_cache: the matrix and global were
 * read from a frame cache; only the lattice and the hull are redone. */
static void surface_update(arm_inst *arm, uint32_t b, bool global_from_cache) {
    const sinew_model_armature *d = arm->data;
    const sinew_model_bone *bd = &d->bones[b];
    surface_rt *sf = &arm->surfaces[d->run_surface[b]];
    const double *o = bd->surface_vertices, *dv = sf->deform;
    double *v = sf->verts;
    uint32_t n = sf->n;
    for (uint32_t c = 0; c < sf->cell_count; ++c)
        sf->cells[7 * (size_t)c] = -1.0;
    uint32_t parent = bd->parent;
    if (parent == SINEW_INVALID_INDEX) {
        for (uint32_t i = 0; i < n; ++i)
            v[i] = o[i] + dv[i];
    } else if (d->bones[parent].is_surface) {
        for (uint32_t i = 0; i + 1 < n; i += 2) {
            /* the 5.x reference's lattice on a lattice offsets y by the x offset (its index slip) */
            double x = o[i] + dv[i], y = o[i + 1] + dv[d->v6 ? i + 1 : i];
            const double *m = surface_matrix(arm, parent, x, y);
            v[i] = m[0] * x + m[2] * y + m[4];
            v[i + 1] = m[1] * x + m[3] * y + m[5];
        }
    } else {
        const double *m = arm->world + (size_t)parent * 6;
        for (uint32_t i = 0; i + 1 < n; i += 2) {
            double x = o[i] + dv[i], y = o[i + 1] + dv[i + 1];
            v[i] = m[0] * x + m[2] * y + m[4];
            v[i + 1] = m[1] * x + m[3] * y + m[5];
        }
    }
    double *g = arm->global + (size_t)b * 6;
    double *m = arm->world + (size_t)b * 6;
    if (!global_from_cache) {
        uint32_t sxd = 2 * bd->segment_x, last = n - 2;
        double raX = v[0], raY = v[1], rbX = v[sxd], rbY = v[sxd + 1];
        double rcX = v[last], rcY = v[last + 1], rdX = v[last - sxd], rdY = v[last - sxd + 1];
        double dacX = raX + (rcX - raX) * 0.5, dacY = raY + (rcY - raY) * 0.5;
        double dbdX = rbX + (rdX - rbX) * 0.5, dbdY = rbY + (rdY - rbY) * 0.5;
        double aX = dacX + (dbdX - dacX) * 0.5, aY = dacY + (dbdY - dacY) * 0.5;
        double bX = rbX + (rcX - rbX) * 0.5, bY = rbY + (rcY - rbY) * 0.5;
        double cX = rdX + (rcX - rdX) * 0.5, cY = rdY + (rcY - rdY) * 0.5;
        surface_affine(0.0, 0.0, SURF_IN, SURF_IN, aX, aY, bX, bY, cX, cY, false, g, m);
        arm->global_valid[b] = 1;
        store_world_f(arm, b);
    }
    double ddX = 2.0 * g[0], ddY = 2.0 * g[1];
    double *h = sf->hull;
    double px = m[0] * SURF_OUT + m[2] * -SURF_IN + m[4], py = m[1] * SURF_OUT + m[3] * -SURF_IN + m[5];
    h[0] = px;
    h[1] = py;
    h[2] = ddX - px;
    h[3] = ddY - py;
    h[4] = m[0] * 0.0 + m[2] * sf->dy;
    h[5] = m[1] * 0.0 + m[3] * sf->dy;
    px = m[0] * SURF_IN + m[2] * SURF_OUT + m[4];
    py = m[1] * SURF_IN + m[3] * SURF_OUT + m[5];
    h[6] = px;
    h[7] = py;
    h[8] = ddX - px;
    h[9] = ddY - py;
    h[10] = m[0] * sf->dx + m[2] * 0.0;
    h[11] = m[1] * sf->dx + m[3] * 0.0;
}

/* The bone a surface hangs from: its nearest ancestor that is not a surface (the official
 * Surface._bone), or INVALID for a surface chain at the root. */
static uint32_t surface_owner(const sinew_model_armature *d, uint32_t surface) {
    uint32_t p = d->bones[surface].parent;
    while (p != SINEW_INVALID_INDEX && d->bones[p].is_surface)
        p = d->bones[p].parent;
    return p;
}

/* Upstream (6.0): a bone inheriting scale on a surface that hangs from a bone takes the surface's
 * rotation (if it inherits rotation) and that bone's scale, and its position through the cell
 * matrix; the cell's own scale and shear do not enter it (inheriting translation or not). */
static void bone_on_surface6(arm_inst *arm, uint32_t b, uint32_t surface, uint32_t owner, const double *cell) {
    double *g = arm->global + (size_t)b * 6;
    if (arm->data->bones[b].inherit_rotation)
        g[2] += bone_global(arm, surface)[2];
    const double *og = bone_global(arm, owner);
    g[4] *= og[4];
    g[5] *= og[5];
    double x = g[0], y = g[1];
    g[0] = cell[0] * x + cell[2] * y + cell[4];
    g[1] = cell[1] * x + cell[3] * y + cell[5];
    tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], arm->world + (size_t)b * 6);
    arm->global_valid[b] = 1;
    arm->local_ok[b] = 0;
}

/* The official Bone._updateGlobalTransformMatrix(isCache). */
static void compute_bone(arm_inst *arm, uint32_t b, bool is_cache) {
    const sinew_model_bone *bd = &arm->data->bones[b];
    if (bd->is_surface) {
        surface_update(arm, b, false);
        return;
    }
    const double *su = arm->data->run_bone_setup + (size_t)b * 6;
    const double *p = arm->pose + (size_t)b * 6;
    double *g = arm->global + (size_t)b * 6;
    double *m = arm->world + (size_t)b * 6;
    uint32_t parent = bd->parent;
    bone_origin_pose(su, p, g);
    if (arm->any_offset && arm->offset_on[b]) { /* the official Bone.offset: added, scales multiplied */
        const double *o = arm->offset + (size_t)b * 6;
        g[0] += o[0];
        g[1] += o[1];
        g[2] += o[2];
        g[3] += o[3];
        g[4] *= o[4];
        g[5] *= o[5];
    }
    if (parent != SINEW_INVALID_INDEX) {
        const double *pm = arm->world + (size_t)parent * 6;
        double cell[6];
        bool inherit_scale = bd->inherit_scale;
        if (arm->data->bones[parent].is_surface) { /* the surface's cell where the bone's origin lies */
            memcpy(cell, surface_matrix(arm, parent, g[0], g[1]), sizeof cell);
            pm = cell;
            if (arm->data->v6 && inherit_scale) {
                uint32_t owner = surface_owner(arm->data, parent);
                if (owner != SINEW_INVALID_INDEX) {
                    bone_on_surface6(arm, b, parent, owner, cell);
                    store_world_f(arm, b);
                    return;
                }
                inherit_scale = false; /* a surface chain at the root: as without inherited scale */
            }
        }
        if (inherit_scale) {
            double *local = arm->local + (size_t)b * 6;
            if (!bd->inherit_rotation) {
                const double *pg = bone_global(arm, parent);
                g[2] = g[2] - pg[2];
                tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], local);
                arm->local_ok[b] = 0;
            } else if (!arm->local_ok[b]) {
                tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], local);
                arm->local_ok[b] = 1;
            }
            mat_concat(local, pm, m);
            if (bd->inherit_translation) {
                g[0] = m[4];
                g[1] = m[5];
            } else {
                m[4] = g[0];
                m[5] = g[1];
            }
            if (is_cache) {
                from_matrix(m, g);
                arm->global_valid[b] = 1;
            } else {
                arm->global_valid[b] = 0;
            }
        } else {
            if (bd->inherit_translation) {
                double x = g[0], y = g[1];
                g[0] = pm[0] * x + pm[2] * y + pm[4];
                g[1] = pm[1] * x + pm[3] * y + pm[5];
            }
            if (bd->inherit_rotation) {
                const double *pg = bone_global(arm, parent);
                double rot = pg[4] < 0.0 ? g[2] + pg[2] + SINEW_PI : g[2] + pg[2];
                if (pm[0] * pm[3] - pm[1] * pm[2] < 0.0) {
                    rot -= g[2] * 2.0;
                    if (bd->inherit_reflection)
                        g[3] += SINEW_PI;
                }
                g[2] = rot;
            }
            tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], m);
            arm->global_valid[b] = 1;
        }
    } else {
        tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], m);
        arm->global_valid[b] = 1;
    }
    store_world_f(arm, b);
}

static void set_from_global(arm_inst *arm, uint32_t b) {
    const double *g = arm->global + (size_t)b * 6;
    tf_matrix(g[2], g[3], g[4], g[5], g[0], g[1], arm->world + (size_t)b * 6);
    store_world_f(arm, b);
}

/* ---- IK (the official one- and two-bone solvers) ---------------------------------------------- */

static SW_INLINE void ik_one(arm_inst *arm, uint32_t root, uint32_t target, double weight) {
    double *g = arm->global + (size_t)root * 6;
    (void)bone_global(arm, root);
    const double *tm = arm->world + (size_t)target * 6;
    double rad = atan2(tm[5] - g[1], tm[4] - g[0]);
    if (g[4] < 0.0)
        rad += SINEW_PI;
    g[2] += sinew__normalize_radian(rad - g[2]) * weight;
    set_from_global(arm, root);
}

static SW_INLINE void ik_two(arm_inst *arm, uint32_t parent, uint32_t bone, uint32_t target, bool bend_positive,
                   double weight) {
    double bone_length = arm->data->bones[bone].length;
    (void)bone_global(arm, parent);
    (void)bone_global(arm, bone);
    double *pg = arm->global + (size_t)parent * 6;
    double *g = arm->global + (size_t)bone * 6;
    const double *bm = arm->world + (size_t)bone * 6;
    const double *tm = arm->world + (size_t)target * 6;
    double tx = tm[4], ty = tm[5];
    double x = bm[0] * bone_length, y = bm[1] * bone_length;
    double lll = x * x + y * y;
    double ll = sqrt(lll);
    double dx = g[0] - pg[0], dy = g[1] - pg[1];
    double lpp = dx * dx + dy * dy;
    double lp = sqrt(lpp);
    double raw_radian = g[2];
    double raw_parent_radian = pg[2];
    double raw_radian_a = atan2(dy, dx);
    dx = tx - pg[0];
    dy = ty - pg[1];
    double ltt = dx * dx + dy * dy;
    double lt = sqrt(ltt);
    double radian_a;
    if (ll + lp <= lt || lt + ll <= lp || lt + lp <= ll) {
        radian_a = atan2(ty - pg[1], tx - pg[0]);
        if (!(ll + lp <= lt) && lp < ll)
            radian_a += SINEW_PI;
    } else {
        double h = (lpp - lll + ltt) / (2.0 * ltt);
        double r = sqrt(lpp - h * h * ltt) / lt;
        double hx = pg[0] + (dx * h), hy = pg[1] + (dy * h);
        double rx = -dy * r, ry = dx * r;
        bool ppr = false;
        uint32_t pp = arm->data->bones[parent].parent;
        if (pp != SINEW_INVALID_INDEX) {
            const double *ppm = arm->world + (size_t)pp * 6;
            ppr = ppm[0] * ppm[3] - ppm[1] * ppm[2] < 0.0;
        }
        if (ppr != bend_positive) {
            g[0] = hx - rx;
            g[1] = hy - ry;
        } else {
            g[0] = hx + rx;
            g[1] = hy + ry;
        }
        radian_a = atan2(g[1] - pg[1], g[0] - pg[0]);
    }
    double dr = sinew__normalize_radian(radian_a - raw_radian_a);
    pg[2] = raw_parent_radian + dr * weight;
    set_from_global(arm, parent);
    double cur = raw_radian_a + dr * weight;
    double sc, cc;
    sinew__angle_sincos(cur, &sc, &cc);
    g[0] = pg[0] + cc * lp;
    g[1] = pg[1] + sc * lp;
    double radian_b = atan2(ty - g[1], tx - g[0]);
    if (g[4] < 0.0)
        radian_b += SINEW_PI;
    g[2] = pg[2] + raw_radian - raw_parent_radian + sinew__normalize_radian(radian_b - dr - raw_radian) * weight;
    set_from_global(arm, bone);
}

/* The bone arrays of an armature held in a local: a byte flag store would otherwise make the
 * compiler reload every armature pointer after it. */
typedef struct bone_arrays {
    const double *pose;
    double *world, *local, *global;
    float *world_f;
    uint8_t *local_ok, *gvalid;
} bone_arrays;

static inline bone_arrays get_bone_arrays(const arm_inst *arm) {
    bone_arrays r = {arm->pose, arm->world, arm->local, arm->global, arm->world_f, arm->local_ok, arm->global_valid};
    return r;
}

/* compute_bone for a plain bone (a parent, inheriting translation, rotation and scale), inlined in
 * the bone loops: the local matrix (and its sin/cos) is redone only when the pose changed; the
 * decomposed global is left to be made from the matrix on demand, but for its scale, whose signs
 * the decomposition keeps. */
static SW_INLINE void plain_bone(const bone_arrays *ba, uint32_t b, const double *su, uint32_t parent) {
    const double *p = ba->pose + (size_t)b * 6;
    double *l = ba->local + (size_t)b * 6;
    double *g = ba->global + (size_t)b * 6;
    double *m = ba->world + (size_t)b * 6;
    if (!ba->local_ok[b]) {
        tf_matrix(su[2] + p[2], su[3] + p[3], su[4] * p[4], su[5] * p[5], su[0] + p[0], su[1] + p[1], l);
        ba->local_ok[b] = 1;
    }
    mat_concat(l, ba->world + (size_t)parent * 6, m);
    g[4] = su[4] * p[4];
    g[5] = su[5] * p[5];
    ba->gvalid[b] = 0;
    sinew__mat_to_float(m, ba->world_f + (size_t)b * 6);
}

static void update_bones_no_ik(arm_inst *arm);

/* The bone loop, as the official Bone.update with constraints: `dirty` is a bone's
 * _transformDirty, `changed` its _childrenTransformDirty (it moved in this update; kept from the
 * last update until the bone's turn comes), `computed` the inverse of _localDirty. An IK root
 * runs its constraint every update (updateByConstraint on the root and the chain bone: recompute
 * from the pose only if dirty or the parent moved, else keep the last result, IK included; then
 * mark them dirty), so a weight below 1 applies again on top of the previous solution whenever
 * nothing moved, exactly as officially. */
/* A cache frame an instance computed before: every bone as it stored it (the official
 * getCacheFrame); a bone counts as changed when its matrix differs from the one it had. */
static void read_cache_frame(arm_inst *arm) {
    const double *v = arm->cache_values;
    for (uint32_t b = 0; b < arm->bone_count; ++b, v += SINEW_CACHE_BONE_VALUES) {
        double *m = arm->world + (size_t)b * 6;
        arm->bone_dirty[b] = 0;
        if (memcmp(m, v, 6 * sizeof(double)) == 0) {
            arm->bone_changed[b] = 0;
            continue;
        }
        arm->bone_changed[b] = 1;
        memcpy(m, v, 6 * sizeof(double));
        memcpy(arm->global + (size_t)b * 6, v + 6, 6 * sizeof(double));
        arm->global_valid[b] = v[12] != 0.0;
        sinew__mat_to_float(m, arm->world_f + (size_t)b * 6);
    }
}

/* The bones of a cache frame computed now, for the instances after this one (setCacheFrame). */
static void write_cache_frame(const arm_inst *arm) {
    double *v = arm->cache_values;
    for (uint32_t b = 0; b < arm->bone_count; ++b, v += SINEW_CACHE_BONE_VALUES) {
        memcpy(v, arm->world + (size_t)b * 6, 6 * sizeof(double));
        memcpy(v + 6, arm->global + (size_t)b * 6, 6 * sizeof(double));
        v[12] = arm->global_valid[b] ? 1.0 : 0.0;
    }
}

static void update_bones(sinew_instance *inst, uint32_t ai);

void sinew__arm_update_bones(sinew_instance *inst, uint32_t ai) {
    arm_inst *arm = &inst->arms[ai];
    if (arm->data->v6) { /* 6.0: the bone loop, with the per-bone frame cache of 6.0 (bones6.c) */
        update_bones(inst, ai);
        return;
    }
    if (arm->cache_mode == CACHE_READ) {
        if (arm->blend_touched) {
            for (uint32_t b = 0; b < arm->bone_count; ++b)
                arm->blend[b].dirty = false;
            arm->blend_touched = false;
        }
        read_cache_frame(arm);
        /* the cache holds the surfaces' matrices, not their lattices: those follow the deform
         * the timelines wrote and the parents just read */
        for (uint32_t i = 0; arm->surfaces && i < arm->bone_count; ++i) {
            uint32_t b = arm->data->bone_order ? arm->data->bone_order[i] : i;
            if (arm->data->bones[b].is_surface) {
                surface_update(arm, b, true);
                arm->bone_changed[b] = 1;
            }
        }
        return;
    }
    update_bones(inst, ai);
    if (arm->cache_mode == CACHE_WRITE)
        write_cache_frame(arm);
}

static void update_bones(sinew_instance *inst, uint32_t ai) {
    arm_inst *arm = &inst->arms[ai];
    const sinew_model_armature *d = arm->data;
    uint32_t n = arm->bone_count;
    if (arm->blend_touched) {
        for (uint32_t b = 0; b < n; ++b)
            arm->blend[b].dirty = false;
        arm->blend_touched = false;
    }
    if (!d->run_bone_steps) /* not prepared (no bones) */
        return;
    if (d->v6) {
        sinew__arm_update_bones6(inst, arm);
        return;
    }
    const uint8_t *ik_root = d->ik_count > 0 || d->path_constraint_count > 0 ? d->run_ik_root : NULL;
    if (!ik_root) {
        memset(arm->bone_changed, 0, n);
        update_bones_no_ik(arm);
        return;
    }
    /* `computed` (the inverse of the official _localDirty) is not cleared here: each bone clears
     * it after its turn, and a constraint that updates a bone after its turn (a path constraint
     * reading the path slot's bone) leaves it set into the next update, where that bone's own
     * turn then keeps its matrix, as officially */
    const sinew_model_bone_step *steps = d->run_bone_steps;
    uint8_t *dirty = arm->bone_dirty, *changed = arm->bone_changed, *computed = arm->computed;
    bone_arrays ba = get_bone_arrays(arm);
    for (uint32_t i = 0; i < n; ++i) {
        const sinew_model_bone_step *sp = &steps[i];
        uint32_t b = sp->bone;
        uint32_t parent = sp->parent;
        if (sp->ik_root) {
            for (uint32_t c = 0; c < d->ik_count; ++c) {
                const sinew_model_ik *ik = &d->iks[c];
                if (ik->root != b || ik->target >= n)
                    continue;
                /* root.updateByConstraint() */
                if (!computed[b]) {
                    computed[b] = 1;
                    if (dirty[b] || (parent < n && changed[parent]))
                        compute_bone(arm, b, true);
                    dirty[b] = 1;
                }
                bool two = ik->chain > 0 && ik->bone != ik->root && ik->bone < n;
                if (two) {
                    uint32_t bb = ik->bone, bp = d->bones[bb].parent;
                    if (!computed[bb]) { /* bone.updateByConstraint() */
                        computed[bb] = 1;
                        if (dirty[bb] || (bp < n && changed[bp]))
                            compute_bone(arm, bb, true);
                        dirty[bb] = 1;
                    }
                    ik_two(arm, b, bb, ik->target, arm->ik_bend[c] != 0, arm->ik_weight[c]);
                } else {
                    ik_one(arm, b, ik->target, arm->ik_weight[c]);
                }
            }
            if (sp->ik_root & 2)
                sinew__path_constraints_run(arm, b);
        }
        if (dirty[b] || (parent < n && changed[parent])) {
            dirty[b] = 0;
            changed[b] = 1;
            if (!computed[b]) {
                if (sp->plain && !(arm->any_offset && arm->offset_on[b]))
                    plain_bone(&ba, b, sp->setup, parent);
                else
                    compute_bone(arm, b, false);
            }
        } else {
            changed[b] = 0;
        }
        computed[b] = 0; /* the official _localDirty is set again after the bone's update */
    }
}

void sinew__bone_by_constraint(arm_inst *arm, uint32_t b) {
    uint32_t n = arm->bone_count;
    if (b >= n || arm->computed[b])
        return;
    arm->computed[b] = 1;
    uint32_t parent = arm->data->bones[b].parent;
    if (arm->bone_dirty[b] || (parent < n && arm->bone_changed[parent]))
        compute_bone(arm, b, true);
    arm->bone_dirty[b] = 1;
}

void sinew__bone_compute(arm_inst *arm, uint32_t b, bool is_cache) { compute_bone(arm, b, is_cache); }

const double *sinew__bone_global(arm_inst *arm, uint32_t b) { return bone_global(arm, b); }

void sinew__bone_set_from_global(arm_inst *arm, uint32_t b) { set_from_global(arm, b); }

void sinew__from_matrix(const double *m, double *g) { from_matrix(m, g); }

void sinew__mat_concat(const double *l, const double *p, double *out) { mat_concat(l, p, out); }

void sinew__ik_one(arm_inst *arm, uint32_t root, uint32_t target, double weight) { ik_one(arm, root, target, weight); }

void sinew__ik_two(arm_inst *arm, uint32_t parent, uint32_t bone, uint32_t target, bool bend_positive, double weight) {
    ik_two(arm, parent, bone, target, bend_positive, weight);
}

void sinew__bone_matrix_changed(arm_inst *arm, uint32_t b) {
    from_matrix(arm->world + (size_t)b * 6, arm->global + (size_t)b * 6);
    arm->global_valid[b] = 1;
    store_world_f(arm, b);
}

/* The bone loop of an armature without IK. The arrays are held in locals: the byte flag stores
 * would otherwise make the compiler reload every armature pointer after each store. */
static void update_bones_no_ik(arm_inst *arm) {
    uint32_t n = arm->bone_count;
    const sinew_model_bone_step *sp = arm->data->run_bone_steps, *end = sp + n;
    uint8_t *dirty = arm->bone_dirty, *changed = arm->bone_changed;
    bone_arrays ba = get_bone_arrays(arm);
    for (; sp < end; ++sp) {
        uint32_t b = sp->bone, parent = sp->parent;
        uint8_t own = dirty[b];
        if (!own && !(parent < n && changed[parent]))
            continue;
        if (sp->plain && !(arm->any_offset && arm->offset_on[b]))
            plain_bone(&ba, b, sp->setup, parent);
        else
            compute_bone(arm, b, false);
        changed[b] = 1;
    }
    memset(dirty, 0, n);
}

/* ---- draw order ------------------------------------------------------------------------------ */

void sinew__sort_zorder(arm_inst *arm, const float *order) {
    uint32_t n = arm->slot_count;
    if (!order) {
        if (!arm->zorder_dirty)
            return;
        for (uint32_t i = 0; i < n; ++i) {
            arm->zorder[i] = (int32_t)i;
            sinew__mask6_zorder_set(arm, i);
        }
        arm->slots_dirty = true;
        arm->zorder_dirty = false;
        return;
    }
    for (uint32_t i = 0; i < n; ++i) {
        float f = order[i];
        if (!(f >= 0.0f) || f >= (float)n)
            continue;
        arm->zorder[(uint32_t)f] = (int32_t)i;
        sinew__mask6_zorder_set(arm, (uint32_t)f);
    }
    arm->slots_dirty = true;
    arm->zorder_dirty = true;
}

/*
 * The official runtime sorts its slots with JavaScript's Array.prototype.sort and the comparator
 * `a.z > b.z ? 1 : -1`, which calls equal z values "smaller". Equal z values only happen with
 * unusual zOrder data (moves past the ends, two slots moved onto one place), but then the order
 * they come out in is V8's TimSort's: runs found (a "descending" run, equal values included, is
 * reversed), extended by binary insertion to the minimum run length, and merged (a later run's
 * element goes before an equal earlier one). This reproduces that; with distinct z it is simply a
 * sort by z. A 6.0 armature sorts by zIndex * 1000 + z order (its `key`, double), as upstream.
 */
typedef struct sort_keys {
    const int32_t *z;          /* the z orders (5.x) */
    const double *key;         /* or, when not NULL, these keys (6.0) */
} sort_keys;

static bool z_less(const sort_keys *z, uint32_t a, uint32_t b) { /* cmp(a,b) < 0 */
    return z->key ? !(z->key[a] > z->key[b]) : !(z->z[a] > z->z[b]);
}

static uint32_t make_run(const sort_keys *z, uint32_t *o, uint32_t low, uint32_t high) {
    if (high - low < 2)
        return high - low;
    uint32_t len = 2;
    bool descending = z_less(z, o[low + 1], o[low]);
    for (uint32_t i = low + 2; i < high; ++i) {
        bool less = z_less(z, o[i], o[i - 1]);
        if (descending ? !less : less)
            break;
        len++;
    }
    if (descending)
        for (uint32_t i = low, j = low + len - 1; i < j; ++i, --j) {
            uint32_t t = o[i];
            o[i] = o[j];
            o[j] = t;
        }
    return len;
}

static void binary_insertion(const sort_keys *z, uint32_t *o, uint32_t low, uint32_t start, uint32_t high) {
    for (; start < high; ++start) {
        uint32_t pivot = o[start], left = low, right = start;
        while (left < right) {
            uint32_t mid = left + ((right - left) >> 1);
            if (z_less(z, pivot, o[mid]))
                right = mid;
            else
                left = mid + 1;
        }
        memmove(o + left + 1, o + left, (start - left) * sizeof *o);
        o[left] = pivot;
    }
}

/* Merges the adjacent sorted runs [low, mid) and [mid, high) in place: an element of the second
 * run goes before the first-run elements it is "less" than (equal ones included). */
static void merge_runs(const sort_keys *z, uint32_t *o, uint32_t low, uint32_t mid, uint32_t high) {
    uint32_t a = low;
    for (uint32_t b = mid; b < high; ++b) {
        while (a < b && !z_less(z, o[b], o[a]))
            a++;
        if (a == b)
            break; /* the rest of the second run is already in place */
        uint32_t v = o[b];
        memmove(o + a + 1, o + a, (b - a) * sizeof *o);
        o[a++] = v;
    }
}

void sinew__sort_draw_order(arm_inst *arm) {
    uint32_t n = arm->slot_count, *o = arm->draw_order;
    sort_keys keys = {arm->zorder, NULL}, *z = &keys;
    if (arm->z_index) { /* 6.0 */
        for (uint32_t s = 0; s < n; ++s)
            arm->sort_key[s] = arm->z_index[s] * 1000.0 + arm->zorder[s];
        keys.key = arm->sort_key;
    }
    if (n < 2) {
        arm->zindex_dirty = false;
        return;
    }
    uint32_t min_run = n, r = 0;
    while (min_run >= 64) {
        r |= min_run & 1u;
        min_run >>= 1;
    }
    min_run += r;
    /* runs are merged into the sorted prefix as they come: with this comparator the result does
     * not depend on the merge order TimSort would choose */
    uint32_t low = 0;
    while (low < n) {
        uint32_t len = make_run(z, o, low, n);
        if (len < min_run) {
            uint32_t forced = n - low < min_run ? n - low : min_run;
            binary_insertion(z, o, low, low + len, low + forced);
            len = forced;
        }
        if (low > 0)
            merge_runs(z, o, 0, low, low + len);
        low += len;
    }
    if (arm->z_index && arm->zindex_dirty) /* a zIndex change: the z orders become the new places */
        for (uint32_t i = 0; i < n; ++i)
            arm->zorder[o[i]] = (int32_t)i;
    arm->zindex_dirty = false;
}

/* ---- slots ----------------------------------------------------------------------------------- */

void sinew__slot_update_display_data(arm_inst *arm, uint32_t s) {
    const sinew_model_armature *d = arm->data;
    int32_t idx = arm->display_index[s];
    uint32_t disp = SINEW_INVALID_INDEX;
    if (idx >= 0 && (uint32_t)idx < arm->list_count[s])
        disp = arm->list_first[s] + (uint32_t)idx;
    /* sinew_instance_replace_display. As officially, the slot keeps the transform of its own display
     * at that index (the raw display) and moves the image's pivot by the difference of the two
     * displays' origins (Slot._updateDisplayData, "replace pivot") */
    uint32_t raw = disp;
    if (idx >= 0 && arm->rep && arm->rep[s].active && idx == arm->rep[s].at)
        disp = REPLACED(arm, s);
    uint32_t mesh = SINEW_INVALID_INDEX;
    const sinew_model_display *dd = disp != SINEW_INVALID_INDEX ? sinew__arm_display(arm, disp) : NULL;
    if (dd && (dd->type == SINEW_DISPLAY_MESH || dd->type == SINEW_DISPLAY_SHAPE) && dd->mesh < d->mesh_count)
        mesh = dd->mesh; /* a shape's control points: its geometry, skinned and deformed as a mesh */
    if (arm->data->v6) /* the frame's own deform (deform6.c) */
        sinew__deform6_show(arm, s, raw);
    if (disp != arm->cur_display[s] || mesh != arm->cur_mesh[s]) {
        /* a different mesh (or none) starts from an empty deform, as the 5.x reference does */
        if (mesh != arm->cur_mesh[s] && !arm->data->v6) {
            arm->deform_len[s] = sinew__mesh_deform_len(mesh != SINEW_INVALID_INDEX ? &d->meshes[mesh] : NULL);
            if (sinew__deform_cap(arm, s)) {
                memset(arm->deform + sinew__deform_first(arm, s), 0, sinew__deform_cap(arm, s) * sizeof(float));
                arm->deform_nz[s] = 0;
            }
        }
        arm->deform_dirty[s] = 1;
        arm->slot_changed[s] = 1;
        arm->cur_display[s] = disp;
        arm->cur_mesh[s] = mesh;
        if (arm->rep)
            arm->rep[s].pivot_shift[0] = arm->rep[s].pivot_shift[1] = 0.0f;
        arm->slot_origin[s] = SINEW_INVALID_INDEX;
        if (disp != SINEW_INVALID_INDEX) {
            uint32_t origin = raw != SINEW_INVALID_INDEX ? raw : disp;
            const sinew_transform *t = &sinew__arm_display(arm, origin)->transform;
            arm->slot_origin[s] = origin; /* its matrix: the data's, or the replacement's */
            /* a user's image region has no display data of its own: it keeps the raw display's
             * transform and its own pivot, as an engine display given to the official
             * Slot.replaceDisplay does */
            bool user = disp == REPLACED(arm, s) && arm->rep[s].textured == REP_USER;
            if (origin != disp && !user) {
                /* pivot -= inverse(raw transform) * (0, 0); pivot += inverse(new transform) * (0, 0) */
                double m[6], p[2][2];
                const sinew_transform *tt[2] = {t, &dd->transform};
                for (int k = 0; k < 2; ++k) {
                    tf_matrix(tt[k]->rotation, tt[k]->skew, tt[k]->scale_x, tt[k]->scale_y, tt[k]->x, tt[k]->y, m);
                    double det = m[0] * m[3] - m[1] * m[2];
                    p[k][0] = det != 0.0 ? (m[2] * m[5] - m[3] * m[4]) / det : 0.0;
                    p[k][1] = det != 0.0 ? (m[1] * m[4] - m[0] * m[5]) / det : 0.0;
                }
                arm->rep[s].pivot_shift[0] = (float)(p[1][0] - p[0][0]);
                arm->rep[s].pivot_shift[1] = (float)(p[1][1] - p[0][1]);
            }
        }
        /* the official slot keeps its new local transform in Slot.global until it is next read:
         * the point by which a surface parent chooses the cell */
        if (arm->slot_gxy) {
            const double *l = sinew__slot_local(arm, s);
            arm->slot_gxy[4 * (size_t)s] = l[4];
            arm->slot_gxy[4 * (size_t)s + 1] = l[5];
        }
    }
    arm->display_dirty[s] = 1;
}

int32_t sinew__slot_display_clamp(const arm_inst *arm, uint32_t slot, int32_t index) {
    int32_t n = (int32_t)arm->list_count[slot];
    return arm->data->v6 && index >= n ? n - 1 : index;
}

void sinew__slot_set_display_index(sinew_instance *inst, uint32_t ai, uint32_t slot, int32_t index) {
    arm_inst *arm = &inst->arms[ai];
    if (arm->display_index[slot] == index)
        return;
    arm->display_index[slot] = sinew__slot_display_clamp(arm, slot, index);
    if (arm->data->v6) { /* upstream: the display data is made in the slot update */
        arm->display_dirty[slot] = DISPLAY_DATA_DIRTY;
        return;
    }
    sinew__slot_update_display_data(arm, slot);
}

/* The official clock: armatures advance in the order they joined it. Adding an armature adds
 * the child armatures its slots show (in draw order) after it, as the official `clock` setter
 * does; removing one removes them too. */
/* Drops the holes removed armatures left, keeping the order; a tick in progress goes on where it
 * was, over the same armatures (what the official loop does with the holes it meets). */
static void clock_compact(sinew_instance *inst) {
    uint32_t w = 0, pos = inst->clock_pos, end = inst->clock_end;
    for (uint32_t i = 0; i < inst->clock_count; ++i) {
        if (inst->clock[i] != SINEW_INVALID_INDEX) {
            inst->clock[w++] = inst->clock[i];
            continue;
        }
        if (i < inst->clock_pos)
            --pos;
        if (i < inst->clock_end)
            --end;
    }
    inst->clock_count = w;
    inst->clock_pos = pos;
    inst->clock_end = end;
}

void sinew__clock_add(sinew_instance *inst, uint32_t ai) {
    arm_inst *a = &inst->arms[ai];
    if (!a->active) {
        /* each armature is on the clock at most once, so after compaction there is room: an
         * armature shown, hidden and shown again between two ticks leaves holes, not a full clock */
        if (inst->clock_count >= inst->arm_count)
            clock_compact(inst);
        a->active = true;
        inst->clock[inst->clock_count++] = ai;
    }
    for (uint32_t i = 0; i < a->slot_count; ++i) {
        uint32_t child = a->cur_child[a->draw_order[i]];
        if (child != SINEW_INVALID_INDEX)
            sinew__clock_add(inst, child);
    }
}

void sinew__clock_remove(sinew_instance *inst, uint32_t ai) {
    arm_inst *a = &inst->arms[ai];
    if (a->active) {
        a->active = false;
        for (uint32_t i = 0; i < inst->clock_count; ++i)
            if (inst->clock[i] == ai)
                inst->clock[i] = SINEW_INVALID_INDEX;
    }
    for (uint32_t i = 0; i < a->slot_count; ++i) {
        uint32_t child = a->cur_child[a->draw_order[i]];
        if (child != SINEW_INVALID_INDEX)
            sinew__clock_remove(inst, child);
    }
}

static void deactivate_child(sinew_instance *inst, uint32_t ci) {
    arm_inst *c = &inst->arms[ci];
    sinew__clock_remove(inst, ci);
    /* The official runtime resets the animation of a hidden child: its states go back to the
     * pool at once (the events they queued in this update, not yet delivered, then name no
     * animation, or the state that takes the object next: sinew_instance.recycled). */
    for (uint32_t k = 0; k < c->state_count; ++k)
        sinew__state_recycled(inst, c->states[k].serial);
    c->state_count = 0;
    c->last_state = -1;
}

static void slot_update_display(sinew_instance *inst, uint32_t ai, uint32_t s) {
    arm_inst *arm = &inst->arms[ai];
    uint32_t disp = arm->cur_display[s];
    uint32_t child = SINEW_INVALID_INDEX;
    if (disp != SINEW_INVALID_INDEX && sinew__arm_display(arm, disp)->type == SINEW_DISPLAY_ARMATURE)
        child = arm->display_child[disp]; /* never a replacement: those are images, meshes, boxes */
    uint32_t prev = arm->cur_child[s];
    if (child == prev)
        return;
    arm->cur_child[s] = child;
    if (prev != SINEW_INVALID_INDEX)
        deactivate_child(inst, prev);
    if (child == SINEW_INVALID_INDEX)
        return;
    if (arm->active)
        sinew__clock_add(inst, child);
    const sinew_model_display *dd = &arm->data->displays[disp];
    /* The child's actions: the display's own, else the slot's `actions`, which the official parser
     * gives to the armature display at the slot's setup display index. */
    const sinew_model_slot *sd = &arm->data->slots[s];
    uint32_t first_action = dd->first_action, action_count = dd->action_count;
    if (action_count == 0 && sd->action_count > 0 && arm->display_index[s] == sd->display_index) {
        first_action = sd->first_action;
        action_count = sd->action_count;
    }
    if (action_count > 0) {
        /* buffered in front, run at the end of this armature's update */
        for (uint32_t k = action_count; k-- > 0;) {
            uint32_t act = first_action + k;
            if (arm->action_count >= SINEW_ACTION_CAP)
                continue;
            memmove(arm->actions + 1, arm->actions, arm->action_count * sizeof(pending_action));
            arm->actions[0].action = act;
            arm->actions[0].slot = s;
            arm->actions[0].bone = SINEW_INVALID_INDEX;
            arm->action_count++;
        }
    } else {
        sinew__arm_play_last(inst, child, -1);
    }
}

/* The deform an unweighted 6.0 mesh (or shape) on a bone is drawn with: upstream makes a mesh's
 * slot-space vertices only when its vertices are dirty (a dirty deform blend, a display change) and
 * then only moves them with the slot, so a deform blended without marking them (weights alone, in
 * the update a fade-in completes) shows from the next dirty update on. `fresh`: they are dirty now. */
static const float *drawn_deform6(arm_inst *arm, uint32_t s, uint32_t n, bool fresh) {
    float *drawn = arm->deform_drawn + sinew__deform_first(arm, s);
    if (fresh)
        memcpy(drawn, arm->deform + sinew__deform_first(arm, s), n * sizeof(float));
    return drawn;
}

static void update_mesh(arm_inst *arm, uint32_t s, bool fresh) {
    const sinew_model_mesh *mesh = &arm->data->meshes[arm->cur_mesh[s]];
    const float *deform = arm->deform + sinew__deform_first(arm, s);
    float *out = arm->mesh_out + sinew__deform_first(arm, s);
    uint32_t vc = mesh->vertex_count;
    if (2 * vc > sinew__deform_cap(arm, s))
        return;
    if (!mesh->weighted) {
        uint32_t bone = arm->data->slots[s].parent;
        if (bone < arm->bone_count && arm->data->bones[bone].is_surface) {
            /* on a surface: each vertex placed by the cell it falls in (the slot's own transform
               is not used), as the official mesh update does */
            for (uint32_t i = 0; i < vc; ++i) {
                double x = (double)mesh->vertices[2 * i] + deform[2 * i];
                double y = (double)mesh->vertices[2 * i + 1] + deform[2 * i + 1];
                const double *m = surface_matrix(arm, bone, x, y);
                out[2 * i] = (float)(m[0] * x + m[2] * y + m[4]);
                out[2 * i + 1] = (float)(m[1] * x + m[3] * y + m[5]);
            }
            return;
        }
        const float *m = arm->slot_world + (size_t)s * 6;
        if (arm->deform_drawn)
            deform = drawn_deform6(arm, s, 2 * vc, fresh);
        for (uint32_t i = 0; i < vc; ++i) {
            float x = mesh->vertices[2 * i] + deform[2 * i];
            float y = mesh->vertices[2 * i + 1] + deform[2 * i + 1];
            out[2 * i] = m[0] * x + m[2] * y + m[4];
            out[2 * i + 1] = m[1] * x + m[3] * y + m[5];
        }
        return;
    }
    const float *world = arm->world_f;
    const uint32_t *first = mesh->vertex_first_influence;
    const float *sk = mesh->run_skin;
    if (!sk)
        return;
    const float *skd = arm->deform_nz[s] ? mesh->run_skin_deform : NULL;
#if defined(__GNUC__)
    if (!skd) {
        /* bone-major: out[v] += M_bone * (w * bind), with [a b], [c d], [tx ty] loaded once per
           bone and (x, y) handled as one 2-lane vector */
        memset(out, 0, 2 * (size_t)vc * sizeof(float));
        if (mesh->run_skin4) {
            /* two influences of one bone per step as one 4-lane vector (the same operations per
               lane as the 2-lane loop below); the second vertex is stored first, so a lone
               record (second half zero, same vertex) leaves the first one's sum */
            const uint32_t *g = mesh->run_skin4_groups;
            const float *q = mesh->run_skin4;
            for (uint32_t gi = 0; gi < mesh->run_skin_group_count; ++gi, g += 2) {
                const float *m = world + g[0];
                sw_v4 ab = {m[0], m[1], m[0], m[1]}, cd = {m[2], m[3], m[2], m[3]}, t = {m[4], m[5], m[4], m[5]};
                for (const float *qe = q + 16 * (size_t)g[1]; q < qe; q += 16) {
                    sw_v4 wx, wy, w, o;
                    uint32_t oi[2];
                    float ov[4];
                    memcpy(&wx, q, sizeof wx);
                    memcpy(&wy, q + 4, sizeof wy);
                    memcpy(&w, q + 8, sizeof w);
                    memcpy(oi, q + 12, sizeof oi);
                    memcpy(ov, out + oi[0], 2 * sizeof(float));
                    memcpy(ov + 2, out + oi[1], 2 * sizeof(float));
                    memcpy(&o, ov, sizeof o);
                    o += ab * wx + cd * wy + t * w;
                    memcpy(ov, &o, sizeof o);
                    memcpy(out + oi[1], ov + 2, 2 * sizeof(float));
                    memcpy(out + oi[0], ov, 2 * sizeof(float));
                }
            }
            return;
        }
        const uint32_t *g = mesh->run_skin_groups;
        const float *q = sk;
        for (uint32_t gi = 0; gi < mesh->run_skin_group_count; ++gi, g += 2) {
            const float *m = world + g[0];
            sw_v2 ab, cd, t;
            memcpy(&ab, m, sizeof ab);
            memcpy(&cd, m + 2, sizeof cd);
            memcpy(&t, m + 4, sizeof t);
            for (const float *qe = q + 8 * (size_t)g[1]; q < qe; q += 8) {
                sw_v2 wx, wy, w, o;
                uint32_t oi;
                memcpy(&wx, q, sizeof wx);
                memcpy(&wy, q + 2, sizeof wy);
                memcpy(&w, q + 4, sizeof w);
                memcpy(&oi, q + 6, sizeof oi);
                memcpy(&o, out + oi, sizeof o);
                o += ab * wx + cd * wy + t * w;
                memcpy(out + oi, &o, sizeof o);
            }
        }
        return;
    }
    /* with a deform, vertex-major: the bind position moves by the weight-premultiplied 2x2 map
       of the vertex's (dx, dy) */
    for (uint32_t i = 0; i < vc; ++i) {
        float dx = deform[2 * i], dy = deform[2 * i + 1];
        sw_v4 dx4 = {dx, dx, dx, dx}, dy4 = {dy, dy, dy, dy};
        sw_v2 acc = {0.0f, 0.0f};
        for (const float *q = skd + 16 * (size_t)first[i], *qe = skd + 16 * (size_t)first[i + 1]; q < qe; q += 16) {
            uint32_t off;
            memcpy(&off, q + 6, sizeof off);
            const float *m = world + off;
            /* (xl xl yl yl) = (wx wx wy wy) + (da da db db) dx + (dc dc dd dd) dy in one 4-lane
               vector, times (a b c d); the halves then add up to [a b] xl + [c d] yl */
            sw_v4 abcd, wxy, d1, d2, xy;
            sw_v2 t, w;
            memcpy(&abcd, m, sizeof abcd);
            memcpy(&t, m + 4, sizeof t);
            memcpy(&wxy, q, sizeof wxy);
            memcpy(&w, q + 4, sizeof w);
            memcpy(&d1, q + 8, sizeof d1);
            memcpy(&d2, q + 12, sizeof d2);
            xy = abcd * (wxy + d1 * dx4 + d2 * dy4);
            sw_v2 lo = {xy[0], xy[1]}, hi = {xy[2], xy[3]};
            acc += lo + hi + t * w;
        }
        memcpy(out + 2 * i, &acc, sizeof acc);
    }
#else
    if (!skd) {
        memset(out, 0, 2 * (size_t)vc * sizeof(float));
        const uint32_t *g = mesh->run_skin_groups;
        const float *q = sk;
        for (uint32_t gi = 0; gi < mesh->run_skin_group_count; ++gi, g += 2) {
            const float *m = world + g[0];
            for (const float *qe = q + 8 * (size_t)g[1]; q < qe; q += 8) {
                uint32_t oi;
                memcpy(&oi, q + 6, sizeof oi);
                out[oi] += m[0] * q[0] + m[2] * q[2] + m[4] * q[4];
                out[oi + 1] += m[1] * q[0] + m[3] * q[2] + m[5] * q[4];
            }
        }
        return;
    }
    for (uint32_t i = 0; i < vc; ++i) {
        float dx = deform[2 * i], dy = deform[2 * i + 1], xg = 0.0f, yg = 0.0f;
        for (uint32_t k = first[i]; k < first[i + 1]; ++k) {
            const float *q = skd + 16 * (size_t)k;
            uint32_t off;
            memcpy(&off, q + 6, sizeof off);
            const float *m = world + off;
            float xl = q[0] + q[8] * dx + q[12] * dy;
            float yl = q[2] + q[10] * dx + q[14] * dy;
            xg += m[0] * xl + m[2] * yl + m[4] * q[4];
            yg += m[1] * xl + m[3] * yl + m[5] * q[4];
        }
        out[2 * i] = xg;
        out[2 * i + 1] = yg;
    }
#endif
}

static bool mesh_bones_changed(const arm_inst *arm, const sinew_model_mesh *mesh) {
    for (uint32_t i = 0; i < mesh->run_bone_count; ++i)
        if (arm->bone_changed[mesh->run_bones[i]])
            return true;
    return mesh->run_bones == NULL;
}

/* A slot on a surface: its transform concatenated with the cell at the slot's point (slot_gxy). */
static void slot_on_surface(arm_inst *arm, uint32_t s, uint32_t bone) {
    double *gxy = arm->slot_gxy + (size_t)s * 4;
    double cell[6], w[6];
    memcpy(cell, surface_matrix(arm, bone, gxy[0], gxy[1]), sizeof cell);
    mat_concat(sinew__slot_local(arm, s), cell, w);
    sinew__mat_to_float(w, arm->slot_world + (size_t)s * 6);
    gxy[2] = w[4];
    gxy[3] = w[5];
    arm->slot_gxy_new[s] = 1;
}

/* Whether slot s follows its bone. In a 6.0 file a slot whose display is a child armature display
 * without its armature (the official display object is null) does not: the upstream slot update
 * stops before the transform when the slot has no display object, so its matrix is made only by the
 * first read after its display changed (Slot.updateTransformAndMatrix). Such a slot keeps
 * slot_changed SLOT_UNREAD (following its bone) until sinew_instance_slot reads it. */
static inline bool slot_follows_bone(const arm_inst *arm, uint32_t s) {
    if (!arm->data->v6 || arm->cur_child[s] != SINEW_INVALID_INDEX)
        return true;
    uint32_t disp = arm->cur_display[s];
    if (disp == SINEW_INVALID_INDEX) /* hidden: nothing reads its matrix before it shows again */
        return true;
    /* no display object either: a child armature display without its armature, a boundingBox or a
       path display (a path slot's matrix stays as it was when its display was set, officially) */
    sinew_display_type t = sinew__arm_display(arm, disp)->type;
    return t != SINEW_DISPLAY_ARMATURE && t != SINEW_DISPLAY_BOUNDING_BOX && t != SINEW_DISPLAY_PATH;
}

/* Whether the official 6.0 slot update reaches its frame cache for slot s: it shows a display (not
 * empty, a boundingBox or a path) that is not skinned. */
static bool slot_cacheable6(const arm_inst *arm, uint32_t s) {
    uint32_t disp = arm->cur_display[s];
    if (disp == SINEW_INVALID_INDEX)
        return false;
    const sinew_model_display *dd = sinew__arm_display(arm, disp);
    if (dd->type == SINEW_DISPLAY_IMAGE || dd->type == SINEW_DISPLAY_ARMATURE)
        return true;
    return (dd->type == SINEW_DISPLAY_MESH || dd->type == SINEW_DISPLAY_SHAPE) && dd->mesh < arm->data->mesh_count &&
           !arm->data->meshes[dd->mesh].weighted;
}

/* The slot loop, made twice by the compiler: for 5.x armatures (v6 false: none of the 6.0 checks)
 * and for 6.0 ones. */
static SW_INLINE void update_slots(sinew_instance *inst, uint32_t ai, const bool v6) {
    arm_inst *arm = &inst->arms[ai];
    uint32_t n = arm->slot_count, nb = arm->bone_count;
    const sinew_model_slot *slots = arm->data->slots;
    /* held in locals (see bone_arrays); reloaded after a display switch, which may touch any */
    uint8_t *display_dirty = arm->display_dirty, *slot_changed = arm->slot_changed;
    uint8_t *deform_dirty = arm->deform_dirty;
    const uint8_t *bone_changed = arm->bone_changed;
    const uint32_t *cur_mesh = arm->cur_mesh;
    const bool cached6 = v6 && arm->slot_cfi && arm->cache_mode != CACHE_NONE;
    for (uint32_t s = 0; s < n; ++s) {
        if (display_dirty[s]) {
            if (display_dirty[s] == DISPLAY_DATA_DIRTY) /* a 6.0 display switch, made now */
                sinew__slot_update_display_data(arm, s);
            display_dirty[s] = 0;
            slot_update_display(inst, ai, s);
            arm = &inst->arms[ai];
        }
        uint32_t bone = slots[s].parent;
        uint8_t own = slot_changed[s];
        bool moved = own || (bone < nb && bone_changed[bone] && (!v6 || slot_follows_bone(arm, s)));
        bool deferred = false;
        if (moved && bone < nb && arm->surfaces && arm->data->bones[bone].is_surface) {
            /* the official slot update places a slot showing a mesh on a surface only when the
               slot is read, after every slot's update: the second pass below */
            if (cur_mesh[s] == SINEW_INVALID_INDEX)
                slot_on_surface(arm, s, bone);
            else
                deferred = true;
        } else if (cached6 && bone < nb && slot_cacheable6(arm, s) &&
                   sinew__slot_cache6(arm, s, own, moved, arm->world + (size_t)bone * 6)) {
            /* 6.0 on a cache frame: the slot's matrix as the official frame cache gives it */
        } else if (moved && bone < nb) {
            double w[6];
            mat_concat(sinew__slot_local(arm, s), arm->world + (size_t)bone * 6, w);
            sinew__mat_to_float(w, arm->slot_world + (size_t)s * 6);
        }
        uint32_t m = cur_mesh[s];
        if (m != SINEW_INVALID_INDEX) {
            const sinew_model_mesh *mesh = &arm->data->meshes[m];
            bool redo = deform_dirty[s] || own || (mesh->weighted ? mesh_bones_changed(arm, mesh) : moved);
            if (redo)
                update_mesh(arm, s, deform_dirty[s] || own);
            deform_dirty[s] = 0;
        }
        if (deferred)
            slot_changed[s] = 2;
        else if (own)
            slot_changed[s] = !v6 || slot_follows_bone(arm, s) ? 0 : SLOT_UNREAD;
    }
    if (!arm->surfaces)
        return;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t s = arm->draw_order[k];
        if (slot_changed[s] == 2) {
            slot_changed[s] = 0;
            slot_on_surface(arm, s, slots[s].parent);
        }
    }
}

void sinew__arm_update_slots(sinew_instance *inst, uint32_t ai) {
    if (inst->arms[ai].data->v6)
        update_slots(inst, ai, true);
    else
        update_slots(inst, ai, false);
}
