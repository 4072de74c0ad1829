/*
 * Path constraints: bones laid along the cubic Bezier spline of a slot's path display, as the
 * official DragonBones runtime (5.6/5.7, the Cocos fork) computes them.
 *
 * A constraint runs at its root's turn of the bone loop (pose.c), after the IK constraints of that
 * root. It samples the path (in armature space) at one point per bone (plus the tip for the chain
 * modes), moves each bone's world matrix towards its point by `translateMix` and turns it towards
 * the next point (or along the tangent) by `rotateMix`.
 *
 * Official behaviour matched here, quirks included (see docs/runtime.md):
 * - An unweighted path maps only its first `vertexCount` floats (half its points) through the
 *   slot's bone; the rest of the official point array is never written and reads as NaN.
 * - The last curve of a closed path without `constantSpeed` keeps the end points of the curve
 *   sampled before it in the same update (NaN if none); a closed path with `constantSpeed` reads
 *   an unwritten control point, so its length is NaN.
 * - A point before the start or past the end of an open path leaves that bone's sample as it was
 *   (NaN before the first one): the official runtime skips it.
 * - The constraint is skipped while the slot does not show its path display; it computes when
 *   its root moved in the previous update, a weight bone moved, or the display came back. Once
 *   it ran it marks its bones moved, so it runs again on every later update.
 * - `rotateOffset` is in degrees, mirrored when the slot's bone is mirrored.
 * Every value is a double, like the official JS numbers; path vertices and weights are floats
 * as the official parser stores them.
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"

/* Scratch doubles of one constraint: the path in armature space (2 per point), the samples
 * (3 per space, +2), the spaces, the bone lengths, the cumulative curve lengths (constant speed)
 * and the curve points being sampled (2 per point, +2, and at least 8). */
static size_t scratch_of(const sinew_model_armature *d, const sinew_model_path_constraint *C) {
    const sinew_model_path *P = &d->paths[C->path];
    size_t vc = P->vertex_count, nb = C->bone_count;
    size_t least = d->v6 ? 10 : 8; /* the 6.0 curve window is 10 numbers */
    size_t cv = 2 * vc + 2 < least ? least : 2 * vc + 2;
    return 2 * vc + (3 * (nb + 1) + 2) + (nb + 1) + nb + (vc / 3 + 1) + cv;
}

size_t sinew__path_scratch_size(const sinew_model_armature *d) {
    size_t n = 0;
    for (uint32_t c = 0; c < d->path_constraint_count; ++c)
        n += scratch_of(d, &d->path_constraints[c]);
    return n;
}

void sinew__path_bind(arm_inst *a, double *scratch) {
    const sinew_model_armature *d = a->data;
    for (uint32_t c = 0; c < d->path_constraint_count; ++c) {
        const sinew_model_path_constraint *C = &d->path_constraints[c];
        const sinew_model_path *P = &d->paths[C->path];
        path_inst *pi = &a->paths[c];
        size_t vc = P->vertex_count, nb = C->bone_count;
        pi->world = scratch;
        pi->positions = pi->world + 2 * vc;
        pi->spaces = pi->positions + 3 * (nb + 1) + 2;
        pi->bone_lengths = pi->spaces + nb + 1;
        pi->curves = pi->bone_lengths + nb;
        pi->cv = pi->curves + vc / 3 + 1;
        scratch += scratch_of(d, C);
    }
}

void sinew__path_reset(arm_inst *a) {
    const sinew_model_armature *d = a->data;
    for (uint32_t c = 0; c < d->path_constraint_count; ++c) {
        const sinew_model_path_constraint *C = &d->path_constraints[c];
        path_inst *pi = &a->paths[c];
        size_t n = scratch_of(d, C);
        for (size_t i = 0; i < n; ++i) /* the official arrays start empty: reads give NaN */
            pi->world[i] = NAN;
        pi->verts_dirty = 1;
        pi->last_display = SINEW_INVALID_INDEX;
    }
}

/* The path's points in armature space. Unweighted: the slot bone's matrix over the first
 * `vertex_count` floats only (the official loop steps by 2 up to the point count). Weighted: the
 * weighted sum of each influence's bind position through its bone. */
static void path_points(arm_inst *arm, const sinew_model_path_constraint *C, path_inst *pi) {
    const sinew_model_path *P = &arm->data->paths[C->path];
    double *out = pi->world;
    if (!P->weighted) {
        uint32_t bone = arm->data->slots[C->slot].parent;
        sinew__bone_by_constraint(arm, bone);
        const double *m = arm->world + (size_t)bone * 6;
        for (uint32_t i = 0; i < P->vertex_count; i += 2) {
            double vx = P->vertices[i], vy = P->vertices[i + 1];
            out[i] = m[0] * vx + m[2] * vy + m[4];
            out[i + 1] = m[1] * vx + m[3] * vy + m[5];
        }
        return;
    }
    for (uint32_t v = 0; v < P->vertex_count; ++v) {
        double x = 0.0, y = 0.0;
        for (uint32_t k = P->vertex_first_influence[v]; k < P->vertex_first_influence[v + 1]; ++k) {
            uint32_t bone = P->bones[P->influence_bone[k]];
            sinew__bone_by_constraint(arm, bone);
            const double *m = arm->world + (size_t)bone * 6;
            double w = P->influence_weight[k];
            double vx = P->vertices[2 * k], vy = P->vertices[2 * k + 1];
            x += (m[0] * vx + m[2] * vy + m[4]) * w;
            y += (m[1] * vx + m[3] * vy + m[5]) * w;
        }
        out[2 * v] = x;
        out[2 * v + 1] = y;
    }
}

/* Copies path floats [from, from + n) to cv[at...]: the official helper, whose loop bound is the
 * count and not at + count, so nothing is copied when at >= n. */
void sinew__path_copy_points(const path_inst *pi, uint32_t world_n, uint64_t from, uint32_t n, uint32_t at, double *cv) {
    for (uint64_t i = at, j = from; i < n; i += 2, j += 2) {
        cv[i] = j < world_n ? pi->world[j] : NAN; /* past the end: an unwritten entry */
        cv[i + 1] = j + 1 < world_n ? pi->world[j + 1] : NAN;
    }
}

/* The point at t of the cubic (x1 y1) (cx1 cy1) (cx2 cy2) (x2 y2) into out[0..1] and, for the
 * tangent mode, the direction there into out[2] (else 0). t == 0 and t == 1 give the end points
 * with direction 0. */
static void curve_point(double t, const double *p, double *out, bool tangents) {
    if (t == 0.0) {
        out[0] = p[0];
        out[1] = p[1];
        out[2] = 0.0;
        return;
    }
    if (t == 1.0) {
        out[0] = p[6];
        out[1] = p[7];
        out[2] = 0.0;
        return;
    }
    double mt = 1.0 - t, mt2 = mt * mt, t2 = t * t;
    double a = mt2 * mt, b = mt2 * t * 3.0, c = mt * t2 * 3.0, d = t * t2;
    double x = a * p[0] + b * p[2] + c * p[4] + d * p[6];
    double y = a * p[1] + b * p[3] + c * p[5] + d * p[7];
    out[0] = x;
    out[1] = y;
    /* the direction from the first three terms' point to the whole point */
    out[2] = tangents ? atan2(y - (a * p[1] + b * p[3] + c * p[5]), x - (a * p[0] + b * p[2] + c * p[4])) : 0.0;
}


/* Samples along a path without constantSpeed: the editor's `lengths` pick the curve, and t
 * along it is the plain fraction of that curve's length. */
static void sample_by_lengths(const sinew_model_path *P, path_inst *pi, uint32_t spaces, bool tangents,
                              bool pct_position, bool pct_spacing, double position) {
    double *cv = pi->cv;
    uint32_t floats = 2 * P->vertex_count;
    int64_t curve_count = (int64_t)(floats / 6u) - (P->closed ? 1 : 2);
    double path_length = sinew__at_or_nan(P->lengths, P->length_count, curve_count);
    if (pct_position)
        position *= path_length;
    if (pct_spacing)
        for (uint32_t i = 0; i < spaces; ++i)
            pi->spaces[i] *= path_length;
    for (int i = 0; i < 8; ++i) /* a fresh 8-entry array per update officially */
        cv[i] = NAN;
    int64_t last = -1, curve = 0;
    for (uint32_t i = 0; i < spaces; ++i) {
        double *out = pi->positions + 3 * i;
        position += pi->spaces[i];
        if (P->closed) {
            position = fmod(position, path_length);
            if (position < 0.0)
                position += path_length;
            curve = 0;
        } else if (position < 0.0 || position > path_length) {
            continue; /* left as it was */
        }
        double t, len;
        for (;; ++curve) {
            len = sinew__at_or_nan(P->lengths, P->length_count, curve);
            if (position > len)
                continue;
            break;
        }
        if (curve == 0)
            t = position / len;
        else
            t = (position - sinew__at_or_nan(P->lengths, P->length_count, curve - 1)) /
                (len - sinew__at_or_nan(P->lengths, P->length_count, curve - 1));
        if (curve != last) {
            last = curve;
            if (P->closed && curve == curve_count) {
                /* the closing curve: its start point and out-control; its other half is not copied */
                sinew__path_copy_points(pi, 2 * P->vertex_count, floats - 4, 4, 0, cv);
                sinew__path_copy_points(pi, 2 * P->vertex_count, 0, 4, 4, cv);
            } else {
                sinew__path_copy_points(pi, 2 * P->vertex_count, (uint64_t)curve * 6 + 2, 8, 0, cv);
            }
        }
        curve_point(t, cv, out, tangents);
    }
}

/* Samples along a path with constantSpeed: curve lengths measured from the points (4 forward
 * differencing steps per curve), then 10 steps within the curve found. */
void sinew__path_sample_constant_speed(const sinew_model_path *P, path_inst *pi, uint32_t spaces, bool tangents,
                                       bool pct_position, bool pct_spacing, double position, bool closed_fixed) {
    double *cv = pi->cv, *curves = pi->curves;
    uint32_t floats = 2 * P->vertex_count;
    uint32_t curve_count = floats / 6u;
    if (P->closed) {
        floats += 2;
        for (uint32_t i = 0; i < floats; ++i) /* a fresh array officially */
            cv[i] = NAN;
        sinew__path_copy_points(pi, 2 * P->vertex_count, 2, floats - 4, 0, cv);
        sinew__path_copy_points(pi, 2 * P->vertex_count, 0, 2, floats - 4, cv); /* copies nothing, as officially */
        if (closed_fixed) { /* sinew's 6.0 behaviour: the closing curve's in-control point (docs/runtime.md) */
            cv[floats - 4] = pi->world[0];
            cv[floats - 3] = pi->world[1];
        }
        cv[floats - 2] = cv[0];
        cv[floats - 1] = cv[1];
    } else {
        curve_count--;
        floats -= 4;
        sinew__path_copy_points(pi, 2 * P->vertex_count, 2, floats, 0, cv);
    }
    double path_length = 0.0;
    double x1 = cv[0], y1 = cv[1];
    for (uint32_t i = 0, w = 2; i < curve_count; ++i, w += 6) {
        double cx1 = cv[w], cy1 = cv[w + 1], cx2 = cv[w + 2], cy2 = cv[w + 3], x2 = cv[w + 4], y2 = cv[w + 5];
        double tx = (x1 - cx1 * 2.0 + cx2) * 0.1875, ty = (y1 - cy1 * 2.0 + cy2) * 0.1875;
        double dddx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.09375, dddy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.09375;
        double ddx = tx * 2.0 + dddx, ddy = ty * 2.0 + dddy;
        double dx = (cx1 - x1) * 0.75 + tx + dddx * 0.16666667, dy = (cy1 - y1) * 0.75 + ty + dddy * 0.16666667;
        path_length += sqrt(dx * dx + dy * dy);
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        path_length += sqrt(dx * dx + dy * dy);
        dx += ddx;
        dy += ddy;
        path_length += sqrt(dx * dx + dy * dy);
        dx += ddx + dddx;
        dy += ddy + dddy;
        path_length += sqrt(dx * dx + dy * dy);
        curves[i] = path_length;
        x1 = x2;
        y1 = y2;
    }
    if (pct_position)
        position *= path_length;
    if (pct_spacing)
        for (uint32_t i = 0; i < spaces; ++i)
            pi->spaces[i] *= path_length;
    double seg[10] = {0};
    double p8[8] = {0};
    double curve_length = 0.0;
    int64_t last = -1, curve = 0;
    uint32_t segment = 0;
    for (uint32_t i = 0; i < spaces; ++i) {
        double *out = pi->positions + 3 * i;
        position += pi->spaces[i];
        double p = position;
        if (P->closed) {
            p = fmod(p, path_length);
            if (p < 0.0)
                p += path_length;
            curve = 0;
        } else if (p < 0.0 || p > path_length) {
            continue;
        }
        for (;; ++curve) {
            double len = sinew__at_or_nan(curves, curve_count, curve);
            if (p > len)
                continue;
            if (curve == 0)
                p /= len;
            else {
                double prev = sinew__at_or_nan(curves, curve_count, curve - 1);
                p = (p - prev) / (len - prev);
            }
            break;
        }
        if (curve != last) {
            last = curve;
            uint64_t k = (uint64_t)curve * 6;
            for (uint32_t j = 0; j < 8; ++j)
                p8[j] = k + j < floats ? cv[k + j] : NAN;
            double tx = (p8[0] - p8[2] * 2.0 + p8[4]) * 0.03, ty = (p8[1] - p8[3] * 2.0 + p8[5]) * 0.03;
            double dddx = ((p8[2] - p8[4]) * 3.0 - p8[0] + p8[6]) * 0.006;
            double dddy = ((p8[3] - p8[5]) * 3.0 - p8[1] + p8[7]) * 0.006;
            double ddx = tx * 2.0 + dddx, ddy = ty * 2.0 + dddy;
            double dx = (p8[2] - p8[0]) * 0.3 + tx + dddx * 0.16666667;
            double dy = (p8[3] - p8[1]) * 0.3 + ty + dddy * 0.16666667;
            curve_length = sqrt(dx * dx + dy * dy);
            seg[0] = curve_length;
            for (int j = 1; j < 8; ++j) {
                dx += ddx;
                dy += ddy;
                ddx += dddx;
                ddy += dddy;
                curve_length += sqrt(dx * dx + dy * dy);
                seg[j] = curve_length;
            }
            dx += ddx;
            dy += ddy;
            curve_length += sqrt(dx * dx + dy * dy);
            seg[8] = curve_length;
            dx += ddx + dddx;
            dy += ddy + dddy;
            curve_length += sqrt(dx * dx + dy * dy);
            seg[9] = curve_length;
            segment = 0;
        }
        /* the step within the curve by arc length */
        p *= curve_length;
        for (;; ++segment) {
            double len = segment < 10 ? seg[segment] : NAN;
            if (p > len)
                continue;
            if (segment == 0)
                p /= len;
            else {
                double prev = seg[segment - 1];
                p = segment + (p - prev) / (len - prev);
            }
            break;
        }
        curve_point(p * 0.1, p8, out, tangents);
    }
}

/* One constraint (the official PathConstraint.update). */
static void run_one(arm_inst *arm, uint32_t c) {
    const sinew_model_armature *d = arm->data;
    const sinew_model_path_constraint *C = &d->path_constraints[c];
    const sinew_model_path *P = &d->paths[C->path];
    path_inst *pi = &arm->paths[c];
    uint32_t n = arm->bone_count;
    uint32_t shown = arm->cur_display[C->slot];
    if (shown != pi->last_display) { /* a display switch dirties the slot's vertices */
        pi->last_display = shown;
        pi->verts_dirty = 1;
    }
    if (shown != C->display)
        return;
    bool moved = false;
    if (arm->bone_changed[C->root]) {
        moved = true;
    } else {
        bool bones_moved = false;
        for (uint32_t i = 0; P->weighted && i < P->bone_count && !bones_moved; ++i)
            bones_moved = P->bones[i] < n && arm->bone_changed[P->bones[i]];
        if (pi->verts_dirty || bones_moved) {
            moved = true;
            pi->verts_dirty = 0;
        }
    }
    if (!moved) /* the official `dirty` flag is never set */
        return;
    path_points(arm, C, pi);

    bool tangent = C->rotate_mode == SINEW_PATH_ROTATE_TANGENT;
    bool chain_scale = C->rotate_mode == SINEW_PATH_ROTATE_CHAIN_SCALE;
    uint32_t nb = C->bone_count;
    uint32_t spaces = tangent ? nb : nb + 1;
    if (chain_scale || C->spacing_mode == SINEW_PATH_SPACING_LENGTH) {
        /* spaces from the bones' world lengths: (length + spacing) * world length / length */
        pi->spaces[0] = 0.0;
        for (uint32_t i = 0; i + 1 < spaces; ++i) {
            uint32_t b = C->bones[i];
            sinew__bone_by_constraint(arm, b);
            const double *m = arm->world + (size_t)b * 6;
            double bl = d->bones[b].length;
            double x = bl * m[0], y = bl * m[1];
            double len = sqrt(x * x + y * y);
            if (chain_scale)
                pi->bone_lengths[i] = len;
            pi->spaces[i + 1] = (bl + C->spacing) * len / bl;
        }
    } else {
        for (uint32_t i = 0; i < spaces; ++i)
            pi->spaces[i] = C->spacing;
    }
    bool pct_position = C->position_mode == SINEW_PATH_POSITION_PERCENT;
    bool pct_spacing = C->spacing_mode == SINEW_PATH_SPACING_PERCENT;
    if (P->constant_speed)
        sinew__path_sample_constant_speed(P, pi, spaces, tangent, pct_position, pct_spacing, C->position, false);
    else
        sample_by_lengths(P, pi, spaces, tangent, pct_position, pct_spacing, C->position);

    const double *pos = pi->positions;
    double bx = pos[0], by = pos[1];
    double offset = C->rotate_offset;
    bool tip;
    if (offset == 0.0) {
        tip = C->rotate_mode == SINEW_PATH_ROTATE_CHAIN;
    } else {
        tip = false;
        const double *sm = arm->world + (size_t)d->slots[C->slot].parent * 6;
        offset *= sm[0] * sm[3] - sm[1] * sm[2] > 0.0 ? SINEW_PI / 180.0 : -SINEW_PI / 180.0;
    }
    double rmix = C->rotate_mix, tmix = C->translate_mix;
    for (uint32_t i = 0, p = 3; i < nb; ++i, p += 3) {
        uint32_t b = C->bones[i];
        sinew__bone_by_constraint(arm, b);
        double *m = arm->world + (size_t)b * 6;
        m[4] += (bx - m[4]) * tmix;
        m[5] += (by - m[5]) * tmix;
        double x = pos[p], y = pos[p + 1];
        double dx = x - bx, dy = y - by;
        if (chain_scale) {
            double s = (sqrt(dx * dx + dy * dy) / pi->bone_lengths[i] - 1.0) * rmix + 1.0;
            m[0] *= s;
            m[1] *= s;
        }
        bx = x;
        by = y;
        if (rmix > 0.0) {
            double a = m[0], bb = m[1], cc = m[2], dd = m[3];
            double r = tangent ? pos[p - 1] : atan2(dy, dx);
            r -= atan2(bb, a);
            if (tip) {
                double cs = cos(r), sn = sin(r);
                double bl = d->bones[b].length;
                bx += (bl * (cs * a - sn * bb) - dx) * rmix;
                by += (bl * (sn * a + cs * bb) - dy) * rmix;
            } else {
                r += offset;
            }
            if (r > SINEW_PI)
                r -= SINEW_PI * 2.0;
            else if (r < -SINEW_PI)
                r += SINEW_PI * 2.0;
            r *= rmix;
            double cs = cos(r), sn = sin(r);
            m[0] = cs * a - sn * bb;
            m[1] = sn * a + cs * bb;
            m[2] = cs * cc - sn * dd;
            m[3] = sn * cc + cs * dd;
        }
        sinew__bone_matrix_changed(arm, b);
    }
}

void sinew__path_constraints_run(arm_inst *arm, uint32_t root) {
    const sinew_model_armature *d = arm->data;
    for (uint32_t c = 0; c < d->path_constraint_count; ++c)
        if (d->path_constraints[c].root == root)
            run_one(arm, c);
}
