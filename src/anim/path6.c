/*
 * Path constraints of DragonBones 6.0 armatures, as the official 6.0.2 runtime computes them
 * (docs/dragonbones-6.0.md section 9): numeric modes with snip, x/y/rotate weights animated by path
 * timelines, bound (weighted) and deformed paths, positions extrapolated before and past the ends
 * of an open path, the whole point array mapped (5.x mapped half of it), each bone recomputed from
 * its local pose before the constraint applies. 5.x armatures use path.c.
 *
 * Deliberate differences (said at load and in docs/runtime.md): fixed spacing (the official
 * runtime leaves the spaces unset: NaN) uses `spacing` for every space as 5.x did; a closed
 * constant-speed path (NaN officially: an unset control point) is sampled with its closing curve.
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"

/* The path's deform values (2 per point, slot space), or NULL when the slot has no room for them. */
static const float *path_deform(const arm_inst *arm, uint32_t slot, const sinew_model_path *P) {
    return sinew__deform_cap(arm, slot) >= 2 * P->vertex_count ? arm->deform + sinew__deform_first(arm, slot) : NULL;
}

/* Point v of the path in armature space (the official _updatePathVertices, and the oracle's path
 * vertices): unbound, (v + deform) through the slot bone's matrix m; bound, each influence's bind
 * position (plus the deform taken into the bone's space) through its bone, weighted. */
static void point6(const arm_inst *arm, const sinew_model_path *P, const double *m, const float *dv, uint32_t v,
                   double *ox, double *oy) {
    if (!P->weighted) {
        double vx = P->vertices[2 * v], vy = P->vertices[2 * v + 1];
        if (dv) {
            vx += dv[2 * v];
            vy += dv[2 * v + 1];
        }
        *ox = m[0] * vx + m[2] * vy + m[4];
        *oy = m[1] * vx + m[3] * vy + m[5];
        return;
    }
    double x = 0.0, y = 0.0;
    for (uint32_t k = P->vertex_first_influence[v]; k < P->vertex_first_influence[v + 1]; ++k) {
        uint32_t bone = P->bones[P->influence_bone[k]];
        if (bone >= arm->bone_count)
            continue;
        const double *bm = arm->world + (size_t)bone * 6;
        double w = P->influence_weight[k];
        double vx = P->vertices[2 * k], vy = P->vertices[2 * k + 1];
        if (dv && P->influence_deform) { /* the slot-space deform in the bone's bind space */
            const float *q = P->influence_deform + 4 * (size_t)k;
            double dx = dv[2 * v], dy = dv[2 * v + 1];
            vx += (double)q[0] * dx + (double)q[2] * dy;
            vy += (double)q[1] * dx + (double)q[3] * dy;
        }
        x += (bm[0] * vx + bm[2] * vy + bm[4]) * w;
        y += (bm[1] * vx + bm[3] * vy + bm[5]) * w;
    }
    *ox = x;
    *oy = y;
}

/* The constraint's path points (an unbound path's slot bone updated by constraint first). */
static void path_points6(arm_inst *arm, const sinew_model_path_constraint *C, path_inst *pi) {
    const sinew_model_path *P = &arm->data->paths[C->path];
    uint32_t bone = arm->data->slots[C->slot].parent;
    if (!P->weighted)
        sinew__bone_by_constraint6(arm, bone);
    const float *dv = path_deform(arm, C->slot, P);
    for (uint32_t v = 0; v < P->vertex_count; ++v)
        point6(arm, P, arm->world + (size_t)bone * 6, dv, v, &pi->world[2 * v], &pi->world[2 * v + 1]);
}

bool sinew__path6_points(const arm_inst *arm, uint32_t slot, const sinew_model_display *dd, float *out, uint32_t cap) {
    const sinew_model_path *P = &arm->data->paths[dd->path_data];
    uint32_t bone = arm->data->slots[slot].parent;
    if (2 * P->vertex_count > cap || bone >= arm->bone_count)
        return false;
    const float *dv = path_deform(arm, slot, P);
    for (uint32_t v = 0; v < P->vertex_count; ++v) {
        double x, y;
        point6(arm, P, arm->world + (size_t)bone * 6, dv, v, &x, &y);
        out[2 * v] = (float)x;
        out[2 * v + 1] = (float)y;
    }
    return true;
}

/* A point and direction at t of the curve window w (anchor, out-control, in-control, anchor,
 * out-control: 10 numbers; the official addCurvePosition2): before the start the line from the
 * first anchor towards its out-control, `total * t` long; past the end the cubic itself (the
 * official line extrapolation there is overwritten); at the ends the anchor and the direction of
 * its out-control; inside the cubic and, for tangents, its derivative's direction. */
static void curve_point6(double t, const double *w, double *out, bool tangents, double total) {
    const double x1 = w[0], y1 = w[1], cx1 = w[2], cy1 = w[3], cx2 = w[4], cy2 = w[5], x2 = w[6], y2 = w[7];
    const double cx3 = w[8], cy3 = w[9];
    if (t < 0.0) {
        double angle = atan2(cy1 - y1, cx1 - x1);
        double length = total * t;
        double sn, cs;
        sinew__angle_sincos(angle, &sn, &cs);
        out[0] = x1 + length * cs;
        out[1] = y1 + length * sn;
        out[2] = angle;
        return;
    }
    if (t == 0.0) {
        out[0] = x1;
        out[1] = y1;
        out[2] = atan2(cy1 - y1, cx1 - x1);
        return;
    }
    if (t == 1.0) {
        out[0] = x2;
        out[1] = y2;
        out[2] = atan2(cy3 - y2, cx3 - x2);
        return;
    }
    double t1 = 1.0 - t, t1sq = t1 * t1, t1cu = t1sq * t1, tsq = t * t, tcu = tsq * t;
    double x = t1cu * x1 + 3.0 * t1sq * t * cx1 + 3.0 * t1 * tsq * cx2 + tcu * x2;
    double y = t1cu * y1 + 3.0 * t1sq * t * cy1 + 3.0 * t1 * tsq * cy2 + tcu * y2;
    out[0] = x;
    out[1] = y;
    if (tangents) {
        double dxdt = 3.0 * ((cx1 - x1) * t1sq + 2.0 * (cx2 - cx1) * t1 * t + (x2 - cx2) * tsq);
        double dydt = 3.0 * ((cy1 - y1) * t1sq + 2.0 * (cy2 - cy1) * t1 * t + (y2 - cy2) * tsq);
        out[2] = atan2(dydt, dxdt);
    } else {
        out[2] = 0.0;
    }
}

/* Samples along a path without constantSpeed (the official 6.0 _computeBezierCurve): the editor's
 * `lengths` pick the curve and t is the plain fraction of its length; positions before the start
 * and past the end of an open path are extrapolated (t outside [0, 1], from the whole length). */
static void sample_by_lengths6(const sinew_model_path *P, path_inst *pi, uint32_t spaces, bool tangents,
                               bool pct_position, bool pct_spacing, double position) {
    double *cv = pi->cv;
    uint32_t floats = 2 * P->vertex_count;
    int64_t curve_count = (int64_t)(floats / 6u) - 1;
    double path_length = sinew__at_or_nan(P->lengths, P->length_count, (int64_t)P->length_count - 1);
    if (pct_position)
        position *= path_length;
    if (pct_spacing)
        for (uint32_t i = 0; i < spaces; ++i)
            pi->spaces[i] *= path_length;
    for (int i = 0; i < 10; ++i) /* a fresh 10-entry array per update officially */
        cv[i] = NAN;
    int64_t last = -1, curve = 0;
    for (uint32_t i = 0; i < spaces; ++i) {
        position += pi->spaces[i];
        double percent;
        if (P->closed) {
            position = fmod(position, path_length);
            if (position < 0.0)
                position += path_length;
            curve = 0;
        }
        if (position < 0.0) {
            percent = position / path_length;
            curve = 0;
        } else if (position > path_length) {
            percent = position / path_length;
            curve = curve_count - 1;
        } else {
            for (;; ++curve) {
                double len = sinew__at_or_nan(P->lengths, P->length_count, curve);
                if (position > len)
                    continue;
                if (curve == 0)
                    percent = position / len;
                else {
                    double prev = sinew__at_or_nan(P->lengths, P->length_count, curve - 1);
                    percent = (position - prev) / (len - prev);
                }
                break;
            }
        }
        if (curve != last) {
            last = curve;
            if (P->closed && curve == curve_count) { /* the closing curve: last anchor, first one */
                sinew__path_copy_points(pi, floats, floats - 4, 4, 0, cv);
                sinew__path_copy_points(pi, floats, 0, 10, 4, cv);
            } else {
                sinew__path_copy_points(pi, floats, curve < 0 ? UINT64_MAX / 2 : (uint64_t)curve * 6 + 2, 10, 0, cv);
            }
        }
        curve_point6(percent, cv, pi->positions + 3 * i, tangents, path_length);
    }
}

/* The spaces between the samples (one per bone, and one more but for the tangent mode). */
static void spaces6(arm_inst *arm, const sinew_model_path_constraint *C, path_inst *pi, uint32_t spaces,
                    double spacing) {
    bool chain_scale = C->rotate_mode == SINEW_PATH_ROTATE_CHAIN_SCALE;
    if (chain_scale || C->spacing_mode == SINEW_PATH_SPACING_LENGTH) {
        /* (length + spacing) * world length / length, from each bone updated by constraint */
        pi->spaces[0] = 0.0;
        for (uint32_t i = 0; i + 1 < spaces; ++i) {
            uint32_t b = C->bones[i];
            sinew__bone_by_constraint6(arm, b);
            const double *m = arm->world + (size_t)b * 6;
            double bl = arm->data->bones[b].length;
            double x = bl * m[0], y = bl * m[1];
            double len = sqrt(x * x + y * y);
            if (chain_scale)
                pi->bone_lengths[i] = len;
            pi->spaces[i + 1] = (bl + spacing) * len / bl;
        }
    } else if (C->spacing_mode == SINEW_PATH_SPACING_PERCENT) {
        pi->spaces[0] = 0.0;
        for (uint32_t i = 1; i < spaces; ++i)
            pi->spaces[i] = spacing * 0.01;
    } else { /* fixed: the official 6.0 leaves the spaces unset (NaN); sinew keeps 5.x's */
        for (uint32_t i = 0; i < spaces; ++i)
            pi->spaces[i] = spacing;
    }
}

/* Moves and turns the constrained bones onto the samples (each first recomputed from its pose). */
static void apply6(arm_inst *arm, const sinew_model_path_constraint *C, const path_inst *pi, const path_values6 *pv,
                   double offset) {
    const sinew_model_armature *d = arm->data;
    bool tangent = C->rotate_mode == SINEW_PATH_ROTATE_TANGENT;
    bool chain_scale = C->rotate_mode == SINEW_PATH_ROTATE_CHAIN_SCALE;
    const double *pos = pi->positions;
    double bx = pos[0], by = pos[1];
    bool tip = offset == 0.0 && C->rotate_mode == SINEW_PATH_ROTATE_CHAIN;
    double rw = pv->rotate_weight, xw = pv->x_weight, yw = pv->y_weight;
    for (uint32_t i = 0, p = 3; i < C->bone_count; ++i, p += 3) {
        uint32_t b = C->bones[i];
        sinew__bone_compute6(arm, b, true); /* forceUpdateTransform */
        sinew__bone_by_constraint6(arm, b);
        double *m = arm->world + (size_t)b * 6;
        m[4] += (bx - m[4]) * xw;
        m[5] += (by - m[5]) * yw;
        double x = pos[p], y = pos[p + 1];
        double dx = x - bx, dy = y - by;
        if (chain_scale) {
            double s = (sqrt(dx * dx + dy * dy) / pi->bone_lengths[i] - 1.0) * rw + 1.0;
            m[0] *= s;
            m[1] *= s;
        }
        bx = x;
        by = y;
        if (rw > 0.0) {
            double a = m[0], bb = m[1], cc = m[2], dd = m[3];
            double r = tangent ? pos[p - 1] : atan2(dy, dx);
            r -= atan2(bb, a);
            if (tip) {
                double cs, sn;
                sinew__angle_sincos(r, &sn, &cs);
                double bl = d->bones[b].length;
                bx += (bl * (cs * a - sn * bb) - dx) * rw;
                by += (bl * (sn * a + cs * bb) - dy) * rw;
            } else {
                r += offset;
            }
            if (r > SINEW_PI)
                r -= SINEW_PI * 2.0;
            else if (r < -SINEW_PI)
                r += SINEW_PI * 2.0;
            r *= rw;
            double cs, sn;
            sinew__angle_sincos(r, &sn, &cs);
            m[0] = cs * a - sn * bb;
            m[1] = sn * a + cs * bb;
            m[2] = cs * cc - sn * dd;
            m[3] = sn * cc + cs * dd;
        }
        sinew__bone_matrix_changed(arm, b);
    }
}

void sinew__path6_run(arm_inst *arm, uint32_t c) {
    const sinew_model_armature *d = arm->data;
    const sinew_model_path_constraint *C = &d->path_constraints[c];
    const sinew_model_path *P = &d->paths[C->path];
    path_inst *pi = &arm->paths[c];
    path_values6 *pv = &arm->path6[c];
    uint32_t shown = arm->cur_display[C->slot];
    if (shown != pi->last_display) { /* a display switch dirties the slot's vertices */
        pi->last_display = shown;
        pi->verts_dirty = 1;
    }
    if (shown != C->display)
        return;
    bool moved = false;
    if (arm->bone_changed[C->root]) {
        path_points6(arm, C, pi);
        moved = true;
    } else {
        bool bones_moved = false;
        for (uint32_t i = 0; P->weighted && i < P->bone_count && !bones_moved; ++i)
            bones_moved = P->bones[i] < arm->bone_count && arm->bone_changed[P->bones[i]];
        if (pi->verts_dirty || bones_moved) {
            path_points6(arm, C, pi);
            pi->verts_dirty = 0;
            moved = true;
        }
    }
    if (!moved && !pv->dirty)
        return;
    bool tangent = C->rotate_mode == SINEW_PATH_ROTATE_TANGENT;
    uint32_t spaces = tangent ? C->bone_count : C->bone_count + 1;
    spaces6(arm, C, pi, spaces, pv->spacing);
    bool pct_position = C->position_mode == SINEW_PATH_POSITION_PERCENT;
    bool pct_spacing = C->spacing_mode == SINEW_PATH_SPACING_PERCENT;
    if (P->constant_speed)
        sinew__path_sample_constant_speed(P, pi, spaces, tangent, pct_position, pct_spacing, pv->position, true);
    else
        sample_by_lengths6(P, pi, spaces, tangent, pct_position, pct_spacing, pv->position);
    /* rotateOffset in degrees, its sign flipped when the path slot's bone is mirrored */
    double offset = C->rotate_offset;
    if (offset != 0.0) {
        const double *sm = arm->world + (size_t)d->slots[C->slot].parent * 6;
        offset *= sm[0] * sm[3] - sm[1] * sm[2] > 0.0 ? SINEW_PI / 180.0 : -SINEW_PI / 180.0;
    }
    apply6(arm, C, pi, pv, offset);
    pv->dirty = 0;
}
