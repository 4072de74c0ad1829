/* Runtime control a game needs beside the animation (sinew/instance.h, "control"): bounds and hit
 * testing of the current pose, boundingBox displays, bone offsets, and a slot's displays swapped
 * from code. */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "sinew/data.h"

static const arm_inst *arm_of(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? &inst->arms[ai] : NULL;
}

bool sinew_instance_bounds(sinew_instance *inst, sinew_rect *out) {
    if (!inst || !out)
        return false;
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    bool any = false;
    sinew_rect r = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (uint32_t c = 0; c < dl.cmd_count; ++c)
        for (uint32_t i = 0; !(dl.cmds[c].flags & SINEW_DRAW_MASK) && i < dl.cmds[c].index_count; ++i) {
            const float *p = &dl.positions[2 * (size_t)dl.indices[dl.cmds[c].first_index + i]];
            r.x0 = fminf(r.x0, p[0]), r.y0 = fminf(r.y0, p[1]);
            r.x1 = fmaxf(r.x1, p[0]), r.y1 = fmaxf(r.y1, p[1]);
            any = true;
        }
    if (any)
        *out = r;
    return any;
}

/* Whether p lies in triangle abc (either winding; edges count). */
static bool in_triangle(const float *a, const float *b, const float *c, float x, float y) {
    float d1 = (x - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (y - b[1]);
    float d2 = (x - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (y - c[1]);
    float d3 = (x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1]);
    bool neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
    return !(neg && pos);
}

/* Whether (x, y) lies in one of command c's triangles. */
static bool in_command(const sinew_drawlist *dl, uint32_t c, float x, float y) {
    const sinew_draw_cmd *cmd = &dl->cmds[c];
    for (uint32_t i = 0; i + 2 < cmd->index_count; i += 3) {
        const uint32_t *t = &dl->indices[cmd->first_index + i];
        if (in_triangle(&dl->positions[2 * (size_t)t[0]], &dl->positions[2 * (size_t)t[1]],
                        &dl->positions[2 * (size_t)t[2]], x, y))
            return true;
    }
    return false;
}

bool sinew_instance_hit(sinew_instance *inst, float x, float y, uint32_t *armature_index, uint32_t *slot) {
    if (!inst)
        return false;
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    for (uint32_t c = dl.cmd_count; c-- > 0;) { /* front to back */
        const sinew_draw_cmd *cmd = &dl.cmds[c];
        if (cmd->color.a_mul <= 0.0f || (cmd->flags & SINEW_DRAW_MASK) || !in_command(&dl, c, x, y))
            continue;
        bool clipped = false; /* 6.0: outside its mask (or a mask of that) it is not seen (mask 0, none,
                                 gives UINT32_MAX, past every command) */
        for (uint32_t m = cmd->mask - 1u, lim = c; !clipped && m < lim; lim = m, m = dl.cmds[m].mask - 1u)
            clipped = !in_command(&dl, m, x, y);
        if (clipped)
            continue;
        if (armature_index)
            *armature_index = cmd->armature;
        if (slot)
            *slot = cmd->slot;
        return true;
    }
    return false;
}

/* The points sinew_instance_slot_bounding_box gives for an ellipse. */
#define ELLIPSE_POINTS 32u

/* The boundingBox display slot `s` shows, or NULL. */
static const sinew_model_display *bbox_of(const arm_inst *a, uint32_t s) {
    if (!a || s >= a->slot_count || a->display_index[s] < 0)
        return NULL;
    uint32_t d = a->cur_display[s];
    if (d == SINEW_INVALID_INDEX || sinew__arm_display(a, d)->type != SINEW_DISPLAY_BOUNDING_BOX)
        return NULL;
    return sinew__arm_display(a, d);
}

uint32_t sinew_instance_slot_bounding_box(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                          float *xy, uint32_t cap) {
    const arm_inst *a = arm_of(inst, armature_index);
    const sinew_model_display *d = bbox_of(a, slot);
    if (!d)
        return 0;
    const float *m = a->slot_world + (size_t)slot * 6;
    if (d->bbox_shape == SINEW_BBOX_ELLIPSE) { /* ELLIPSE_POINTS points around it */
        double rx = d->bbox_width * 0.5, ry = d->bbox_height * 0.5;
        for (uint32_t i = 0; i < ELLIPSE_POINTS && i < cap && xy; ++i) {
            double t = 2.0 * SINEW_PI * i / ELLIPSE_POINTS, vx = rx * cos(t), vy = ry * sin(t);
            xy[2 * i] = (float)(m[0] * vx + m[2] * vy + m[4]);
            xy[2 * i + 1] = (float)(m[1] * vx + m[3] * vy + m[5]);
        }
        return ELLIPSE_POINTS;
    }
    for (uint32_t i = 0; i < d->bbox_vertex_count && i < cap && xy; ++i) {
        float vx = d->bbox_vertices[2 * i], vy = d->bbox_vertices[2 * i + 1];
        xy[2 * i] = m[0] * vx + m[2] * vy + m[4];
        xy[2 * i + 1] = m[1] * vx + m[3] * vy + m[5];
    }
    return d->bbox_vertex_count;
}

/* Crossing-number test over the polygon's edges (the official polygon containsPoint). */
static bool polygon_contains(const float *v, uint32_t n, float x, float y) {
    bool inside = false;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        float xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
        if ((yi < y && yj >= y) || (yj < y && yi >= y))
            if (xi + (y - yi) / (yj - yi) * (xj - xi) < x)
                inside = !inside;
    }
    return inside;
}

bool sinew_instance_slot_contains_point(const sinew_instance *inst, uint32_t armature_index, uint32_t slot, float x,
                                        float y) {
    const arm_inst *a = arm_of(inst, armature_index);
    const sinew_model_display *d = bbox_of(a, slot);
    if (!d || (d->bbox_shape != SINEW_BBOX_ELLIPSE && d->bbox_vertex_count < 3))
        return false;
    /* the point into the slot's space (the inverse of its world matrix) */
    const float *m = a->slot_world + (size_t)slot * 6;
    float det = m[0] * m[3] - m[1] * m[2];
    if (det == 0.0f)
        return false;
    float dx = x - m[4], dy = y - m[5];
    float lx = (m[3] * dx - m[2] * dy) / det, ly = (-m[1] * dx + m[0] * dy) / det;
    if (d->bbox_shape == SINEW_BBOX_ELLIPSE) { /* the official ellipse test */
        double wh = d->bbox_width * 0.5, hh = d->bbox_height * 0.5, px = lx, py = ly;
        if (px < -wh || px > wh || py < -hh || py > hh || hh == 0.0)
            return false;
        py *= wh / hh;
        return sqrt(px * px + py * py) <= wh;
    }
    return polygon_contains(d->bbox_vertices, d->bbox_vertex_count, lx, ly);
}

/* Crossings of segment A-B with the polygon's edges, in the polygon's space: their count, and the
 * nearest to A and to B as parameters along A-B (0..1) with their points and edge normals. */
typedef struct crossing {
    uint32_t count;
    double t_min, t_max;
    double p_min[2], p_max[2], n_min, n_max;
} crossing;

static void polygon_crossings(const float *v, uint32_t n, double ax, double ay, double bx, double by, crossing *c) {
    c->count = 0;
    double dx = bx - ax, dy = by - ay;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        double cx = v[2 * j], cy = v[2 * j + 1], ex = v[2 * i] - cx, ey = v[2 * i + 1] - cy;
        double den = dx * ey - dy * ex;
        if (den == 0.0)
            continue; /* parallel: touching along an edge is not a crossing */
        double t = ((cx - ax) * ey - (cy - ay) * ex) / den, u = ((cx - ax) * dy - (cy - ay) * dx) / den;
        if (t < 0.0 || t > 1.0 || u < 0.0 || u >= 1.0)
            continue; /* u < 1: a vertex belongs to one of its two edges */
        double px = ax + t * dx, py = ay + t * dy, nrm = atan2(ey, ex) - 1.5707963267948966; /* pi / 2 */
        if (c->count == 0 || t < c->t_min)
            c->t_min = t, c->p_min[0] = px, c->p_min[1] = py, c->n_min = nrm;
        if (c->count == 0 || t > c->t_max)
            c->t_max = t, c->p_max[0] = px, c->p_max[1] = py, c->n_max = nrm;
        c->count++;
    }
}

/* Crossings of segment A-B with an ellipse of half axes rx, ry centred on the origin (the roots of
 * the quadratic along the segment), with the outward normals. */
static void ellipse_crossings(double rx, double ry, double ax, double ay, double bx, double by, crossing *c) {
    c->count = 0;
    if (!(rx > 0.0) || !(ry > 0.0))
        return;
    double dx = bx - ax, dy = by - ay, irx = 1.0 / (rx * rx), iry = 1.0 / (ry * ry);
    double qa = dx * dx * irx + dy * dy * iry, qb = 2.0 * (ax * dx * irx + ay * dy * iry),
           qc = ax * ax * irx + ay * ay * iry - 1.0;
    double disc = qb * qb - 4.0 * qa * qc;
    if (qa == 0.0 || disc < 0.0)
        return;
    double s = sqrt(disc), roots[2] = {(-qb - s) / (2.0 * qa), (-qb + s) / (2.0 * qa)};
    for (int k = 0; k < (s > 0.0 ? 2 : 1); ++k) {
        double t = roots[k];
        if (t < 0.0 || t > 1.0)
            continue;
        double px = ax + t * dx, py = ay + t * dy, nrm = atan2(py * iry, px * irx);
        if (c->count == 0 || t < c->t_min)
            c->t_min = t, c->p_min[0] = px, c->p_min[1] = py, c->n_min = nrm;
        if (c->count == 0 || t > c->t_max)
            c->t_max = t, c->p_max[0] = px, c->p_max[1] = py, c->n_max = nrm;
        c->count++;
    }
}

/* Armature-space crossings of a slot's boundingBox polygon, the parameters along the segment kept. */
static uint32_t slot_crossings(const arm_inst *a, uint32_t slot, float xa, float ya, float xb, float yb,
                               crossing *c, sinew_segment_hit *out) {
    const sinew_model_display *d = bbox_of(a, slot);
    if (!d || (d->bbox_shape != SINEW_BBOX_ELLIPSE && d->bbox_vertex_count < 2))
        return 0;
    const float *m = a->slot_world + (size_t)slot * 6;
    double det = (double)m[0] * m[3] - (double)m[1] * m[2];
    if (det == 0.0)
        return 0;
    /* the segment into the slot's space, crossed there, and the answers back */
    double p[2][2], q[2] = {xa, ya}, r[2] = {xb, yb};
    for (int k = 0; k < 2; ++k) {
        const double *s = k ? r : q;
        double dx = s[0] - m[4], dy = s[1] - m[5];
        p[k][0] = (m[3] * dx - m[2] * dy) / det;
        p[k][1] = (-m[1] * dx + m[0] * dy) / det;
    }
    if (d->bbox_shape == SINEW_BBOX_ELLIPSE)
        ellipse_crossings(d->bbox_width * 0.5, d->bbox_height * 0.5, p[0][0], p[0][1], p[1][0], p[1][1], c);
    else
        polygon_crossings(d->bbox_vertices, d->bbox_vertex_count, p[0][0], p[0][1], p[1][0], p[1][1], c);
    if (c->count && out) {
        out->slot_a = out->slot_b = slot;
        out->ax = (float)(m[0] * c->p_min[0] + m[2] * c->p_min[1] + m[4]);
        out->ay = (float)(m[1] * c->p_min[0] + m[3] * c->p_min[1] + m[5]);
        out->bx = (float)(m[0] * c->p_max[0] + m[2] * c->p_max[1] + m[4]);
        out->by = (float)(m[1] * c->p_max[0] + m[3] * c->p_max[1] + m[5]);
        out->normal_a = (float)atan2(m[1] * cos(c->n_min) + m[3] * sin(c->n_min), m[0] * cos(c->n_min) + m[2] * sin(c->n_min));
        out->normal_b = (float)atan2(m[1] * cos(c->n_max) + m[3] * sin(c->n_max), m[0] * cos(c->n_max) + m[2] * sin(c->n_max));
    }
    return c->count;
}

uint32_t sinew_instance_slot_intersects_segment(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                                float xa, float ya, float xb, float yb, sinew_segment_hit *out) {
    crossing c;
    return slot_crossings(arm_of(inst, armature_index), slot, xa, ya, xb, yb, &c, out);
}

bool sinew_instance_intersects_segment(const sinew_instance *inst, uint32_t armature_index, float xa, float ya,
                                       float xb, float yb, sinew_segment_hit *out) {
    const arm_inst *a = arm_of(inst, armature_index);
    if (!a)
        return false;
    bool any = false;
    double t_min = 0.0, t_max = 0.0;
    sinew_segment_hit best = {0}, one;
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        crossing c;
        if (!slot_crossings(a, s, xa, ya, xb, yb, &c, &one))
            continue;
        if (!any || c.t_min < t_min) {
            t_min = c.t_min;
            best.slot_a = one.slot_a, best.ax = one.ax, best.ay = one.ay, best.normal_a = one.normal_a;
        }
        if (!any || c.t_max > t_max) {
            t_max = c.t_max;
            best.slot_b = one.slot_b, best.bx = one.bx, best.by = one.by, best.normal_b = one.normal_b;
        }
        any = true;
    }
    if (any && out)
        *out = best;
    return any;
}

/* The armature `ai` of the instance and the index of its bone (or slot) called `name`, or a bad
 * argument or an unknown name reported. */
static sinew_status arm_named(sinew_instance *inst, uint32_t ai, bool slot, const char *name, arm_inst **arm,
                              uint32_t *index, sinew_error *err) {
    const char *what = slot ? "slot" : "bone";
    if (!inst || ai >= inst->arm_count || !name)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad instance, armature or %s", what);
    arm_inst *a = &inst->arms[ai];
    *index = slot ? sinew_data_find_slot(inst->data, a->data_index, name)
                  : sinew_data_find_bone(inst->data, a->data_index, name);
    if (*index == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no %s '%s'", a->data->name, what, name);
    *arm = a;
    return SINEW_OK;
}

sinew_status sinew_instance_set_bone_offset(sinew_instance *inst, uint32_t armature_index, const char *bone,
                                            const sinew_bone_offset *offset, sinew_error *err) {
    arm_inst *a;
    uint32_t b;
    sinew_status st = arm_named(inst, armature_index, false, bone, &a, &b, err);
    if (st != SINEW_OK)
        return st;
    if (a->cache)
        return sinew__fail(err, SINEW_E_UNSUPPORTED, NULL,
                           "bone offsets need an instance without a frame cache (cached poses are shared)");
    if (!a->offset && !offset)
        return SINEW_OK; /* none to remove */
    if (!a->offset) { /* the armature's first offset: its storage (an instance without offsets carries none) */
        a->offset = sinew__calloc(inst->allocator, sinew__offset_bytes(a), 1);
        if (!a->offset)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for bone offsets");
        a->offset_on = (uint8_t *)(a->offset + (size_t)a->bone_count * 6);
    }
    double *o = a->offset + (size_t)b * 6;
    if (offset) {
        o[0] = offset->x, o[1] = offset->y, o[2] = offset->rotation_rad, o[3] = offset->skew_rad;
        o[4] = offset->scale_x, o[5] = offset->scale_y;
        a->offset_on[b] = 1;
        a->any_offset = true;
    } else {
        a->offset_on[b] = 0;
        bool any = false;
        for (uint32_t i = 0; i < a->bone_count && !any; ++i)
            any = a->offset_on[i] != 0;
        a->any_offset = any;
    }
    a->bone_dirty[b] = 1;
    a->local_ok[b] = 0;
    return SINEW_OK;
}

sinew_status sinew_instance_bone_follow(sinew_instance *inst, uint32_t armature_index, const char *bone, float x,
                                        float y, sinew_error *err) {
    arm_inst *a;
    uint32_t b;
    sinew_status st = arm_named(inst, armature_index, false, bone, &a, &b, err);
    if (st != SINEW_OK)
        return st;
    const sinew_model_bone *bd = &a->data->bones[b];
    /* the point in the parent's space (armature space for a root) */
    double lx = x, ly = y;
    if (bd->parent != SINEW_INVALID_INDEX && bd->inherit_translation) {
        const double *m = a->world + (size_t)bd->parent * 6;
        double det = m[0] * m[3] - m[1] * m[2];
        if (det == 0.0)
            return sinew__fail(err, SINEW_E_ARG, NULL, "bone '%s': its parent is scaled to nothing", bone);
        double dx = x - m[4], dy = y - m[5];
        lx = (m[3] * dx - m[2] * dy) / det;
        ly = (-m[1] * dx + m[0] * dy) / det;
    }
    /* offset = wanted - (setup + animation); rotation, skew and scale are left as they are */
    const double *su = a->data->run_bone_setup + (size_t)b * 6, *p = a->pose + (size_t)b * 6;
    const double *old = a->offset ? a->offset + (size_t)b * 6 : NULL;
    bool had = old && a->offset_on[b] != 0;
    sinew_bone_offset o = {(float)(lx - su[0] - p[0]), (float)(ly - su[1] - p[1]), had ? (float)old[2] : 0.0f,
                           had ? (float)old[3] : 0.0f, had ? (float)old[4] : 1.0f, had ? (float)old[5] : 1.0f};
    return sinew_instance_set_bone_offset(inst, armature_index, bone, &o, err);
}

/* The display list skin `skin` gives slot `s`, or NULL. */
static const sinew_model_skin_slot *skin_slot(const sinew_model_armature *d, uint32_t skin, uint32_t s) {
    if (skin >= d->skin_count)
        return NULL;
    const sinew_model_skin *k = &d->skins[skin];
    for (uint32_t i = 0; i < k->slot_count; ++i)
        if (d->skin_slots[k->first_slot + i].slot == s)
            return &d->skin_slots[k->first_slot + i];
    return NULL;
}

sinew_status sinew_instance_set_slot_skin(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                          const char *skin, sinew_error *err) {
    arm_inst *a;
    uint32_t s;
    sinew_status st = arm_named(inst, armature_index, true, slot, &a, &s, err);
    if (st != SINEW_OK)
        return st;
    const sinew_model_armature *d = a->data;
    uint32_t k = skin ? sinew_data_find_skin(inst->data, a->data_index, skin) : SINEW_INVALID_INDEX;
    if (k == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no skin '%s'", d->name, skin ? skin : "");
    const sinew_model_skin_slot *ss = skin_slot(d, k, s);
    if (!ss)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "skin '%s' gives slot '%s' no displays", skin, slot);
    a->list_first[s] = ss->first_display;
    a->list_count[s] = ss->display_count;
    sinew__slot_update_display_data(a, s);
    if (d->v6)
        sinew__deform6_forget_unlisted(a);
    return SINEW_OK;
}

/* The armature's replacement records, made by its first replacement (an instance without
 * replacements carries none). */
static sinew_status rep_storage(sinew_instance *inst, arm_inst *a, sinew_error *err) {
    if (a->rep)
        return SINEW_OK;
    a->rep = sinew__calloc(inst->allocator, a->slot_count ? a->slot_count : 1, sizeof(slot_rep));
    return a->rep ? SINEW_OK : sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for display replacements");
}

/* Shows slot s's replacement from now on: at `index` (-1 = the display index it shows now, 0 when
 * hidden), as the official Slot.replaceDisplayData / replaceDisplay place it. */
static void put_replacement(sinew_instance *inst, arm_inst *a, uint32_t s, int32_t index) {
    slot_rep *rep = &a->rep[s];
    rep->active = true;
    rep->at = index >= 0 ? index : a->display_index[s] < 0 ? 0 : a->display_index[s];
    inst->dl_valid = 0; /* the same display index may now have another texture */
    sinew__transform_matrix(&rep->display.transform, rep->matrix);
    a->cur_display[s] = SINEW_INVALID_INDEX; /* a replacement of a replacement is a change too */
    sinew__slot_update_display_data(a, s);
}

sinew_status sinew_instance_replace_display_from(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                                 const char *source_armature, const char *source_slot,
                                                 const char *display, int32_t display_index, sinew_error *err) {
    arm_inst *a;
    uint32_t s;
    sinew_status st = arm_named(inst, armature_index, true, slot, &a, &s, err);
    if (st != SINEW_OK)
        return st;
    if (!display) { /* back to the skin's own display */
        if (a->rep)
            a->rep[s].active = false;
        inst->dl_valid = 0;
        sinew__slot_update_display_data(a, s);
        return SINEW_OK;
    }
    /* the source: an armature of the same data (the official replaceSlotDisplay's armatureName),
     * its default skin, the slot's display list there */
    uint32_t src_arm = source_armature ? sinew_data_find_armature(inst->data, source_armature) : a->data_index;
    if (src_arm == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "the data has no armature '%s'", source_armature);
    const sinew_model_armature *sd = &inst->data->armatures[src_arm];
    const char *from_name = source_slot ? source_slot : slot;
    uint32_t from = sinew_data_find_slot(inst->data, src_arm, from_name);
    uint32_t skin = sinew_data_find_skin(inst->data, src_arm, "");
    const sinew_model_skin_slot *ss = from == SINEW_INVALID_INDEX ? NULL : skin_slot(sd, skin, from);
    uint32_t found = SINEW_INVALID_INDEX;
    for (uint32_t i = 0; ss && i < ss->display_count && found == SINEW_INVALID_INDEX; ++i)
        if (strcmp(sd->displays[ss->first_display + i].name, display) == 0)
            found = ss->first_display + i;
    if (found == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "the default skin of '%s' has no display '%s' in slot '%s'",
                           sd->name, display, from_name);
    const sinew_model_display *dd = &sd->displays[found];
    bool own_slot = src_arm == a->data_index && from == s;
    if (dd->type != SINEW_DISPLAY_IMAGE && dd->type != SINEW_DISPLAY_BOUNDING_BOX &&
        !(dd->type == SINEW_DISPLAY_MESH && own_slot))
        return sinew__fail(err, SINEW_E_UNSUPPORTED, NULL,
                           "display '%s': only images and bounding boxes move between slots (a mesh is bound to its "
                           "own slot, a child armature to its own instance)",
                           display);
    if ((st = rep_storage(inst, a, err)) != SINEW_OK)
        return st;
    slot_rep *rep = &a->rep[s];
    rep->display = *dd;
    rep->textured = REP_NONE;
    uint32_t r = inst->atlas ? sinew__atlas_find_region(inst->atlas, dd->path ? dd->path : dd->name)
                             : SINEW_INVALID_INDEX;
    if (r != SINEW_INVALID_INDEX) {
        rep->region = inst->atlas->regions[r];
        sinew__region_page_size(inst->atlas, &rep->region, &rep->page_w, &rep->page_h);
        rep->tscale = sinew__page_texture_scale(inst->atlas, &rep->region);
        rep->textured = REP_ATLAS;
    }
    put_replacement(inst, a, s, display_index);
    return SINEW_OK;
}

sinew_status sinew_instance_replace_display(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                            const char *source_slot, const char *display, int32_t display_index,
                                            sinew_error *err) {
    return sinew_instance_replace_display_from(inst, armature_index, slot, NULL, source_slot, display, display_index,
                                               err);
}

sinew_status sinew_instance_replace_display_region(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                                   const sinew_user_region *region, int32_t display_index,
                                                   sinew_error *err) {
    arm_inst *a;
    uint32_t s;
    sinew_status st = arm_named(inst, armature_index, true, slot, &a, &s, err);
    if (st != SINEW_OK)
        return st;
    if (!region)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no region");
    const sinew_user_region *u = region;
    if (u->page_width == 0 || u->page_height == 0 || !(u->width > 0.0f) || !(u->height > 0.0f) || !(u->x >= 0.0f) ||
        !(u->y >= 0.0f) || u->x + u->width > (float)u->page_width || u->y + u->height > (float)u->page_height ||
        !isfinite(u->pivot_x) || !isfinite(u->pivot_y))
        return sinew__fail(err, SINEW_E_ARG, NULL,
                           "region %gx%g at (%g, %g) does not lie in its %ux%u page (or its pivot is not finite)",
                           (double)u->width, (double)u->height, (double)u->x, (double)u->y, u->page_width,
                           u->page_height);
    if ((st = rep_storage(inst, a, err)) != SINEW_OK)
        return st;
    slot_rep *rep = &a->rep[s];
    sinew_model_display *dd = &rep->display;
    memset(dd, 0, sizeof *dd);
    dd->type = SINEW_DISPLAY_IMAGE;
    dd->name = dd->path = "";
    dd->transform.scale_x = dd->transform.scale_y = 1.0f; /* unused: the raw display's transform stays */
    dd->pivot_x = u->pivot_x;
    dd->pivot_y = u->pivot_y;
    dd->armature = dd->mesh = SINEW_INVALID_INDEX;
    sinew_model_region *r = &rep->region;
    memset(r, 0, sizeof *r);
    r->name = "";
    r->page = u->page;
    r->x = u->x, r->y = u->y, r->width = u->width, r->height = u->height;
    rep->page_w = (float)u->page_width;
    rep->page_h = (float)u->page_height;
    rep->tscale = 1.0f;
    rep->textured = REP_USER;
    put_replacement(inst, a, s, display_index);
    return SINEW_OK;
}
