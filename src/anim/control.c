/* Runtime control a game needs beside the animation (sinew/instance.h, "control"): bounds and hit
 * testing of the current pose, boundingBox displays, and bone offsets. */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/error.h"

static uint32_t find_bone(const sinew_model_armature *d, const char *name) {
    for (uint32_t i = 0; i < d->bone_count; ++i)
        if (strcmp(d->bones[i].name, name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

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
        for (uint32_t i = 0; i < dl.cmds[c].index_count; ++i) {
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

bool sinew_instance_hit(sinew_instance *inst, float x, float y, uint32_t *armature_index, uint32_t *slot) {
    if (!inst)
        return false;
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    for (uint32_t c = dl.cmd_count; c-- > 0;) { /* front to back */
        const sinew_draw_cmd *cmd = &dl.cmds[c];
        if (cmd->color.a_mul <= 0.0f)
            continue;
        for (uint32_t i = 0; i + 2 < cmd->index_count; i += 3) {
            const uint32_t *t = &dl.indices[cmd->first_index + i];
            if (in_triangle(&dl.positions[2 * (size_t)t[0]], &dl.positions[2 * (size_t)t[1]],
                            &dl.positions[2 * (size_t)t[2]], x, y)) {
                if (armature_index)
                    *armature_index = cmd->armature;
                if (slot)
                    *slot = cmd->slot;
                return true;
            }
        }
    }
    return false;
}

/* The boundingBox display slot `s` shows, or NULL. */
static const sinew_model_display *bbox_of(const arm_inst *a, uint32_t s) {
    if (!a || s >= a->slot_count || a->display_index[s] < 0)
        return NULL;
    uint32_t d = a->cur_display[s];
    if (d == SINEW_INVALID_INDEX || a->data->displays[d].type != SINEW_DISPLAY_BOUNDING_BOX)
        return NULL;
    return &a->data->displays[d];
}

uint32_t sinew_instance_slot_bounding_box(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                          float *xy, uint32_t cap) {
    const arm_inst *a = arm_of(inst, armature_index);
    const sinew_model_display *d = bbox_of(a, slot);
    if (!d)
        return 0;
    const float *m = a->slot_world + (size_t)slot * 6;
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
    if (!d || d->bbox_vertex_count < 3)
        return false;
    /* the point into the slot's space (the inverse of its world matrix) */
    const float *m = a->slot_world + (size_t)slot * 6;
    float det = m[0] * m[3] - m[1] * m[2];
    if (det == 0.0f)
        return false;
    float dx = x - m[4], dy = y - m[5];
    float lx = (m[3] * dx - m[2] * dy) / det, ly = (-m[1] * dx + m[0] * dy) / det;
    return polygon_contains(d->bbox_vertices, d->bbox_vertex_count, lx, ly);
}

sinew_status sinew_instance_set_bone_offset(sinew_instance *inst, uint32_t armature_index, const char *bone,
                                            const sinew_bone_offset *offset, sinew_error *err) {
    if (!inst || armature_index >= inst->arm_count || !bone)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad instance, armature or bone");
    arm_inst *a = &inst->arms[armature_index];
    uint32_t b = find_bone(a->data, bone);
    if (b == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no bone '%s'", a->data->name, bone);
    if (a->cache)
        return sinew__fail(err, SINEW_E_UNSUPPORTED, NULL,
                           "bone offsets need an instance without a frame cache (cached poses are shared)");
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
    if (!inst || armature_index >= inst->arm_count || !bone)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad instance, armature or bone");
    arm_inst *a = &inst->arms[armature_index];
    uint32_t b = find_bone(a->data, bone);
    if (b == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no bone '%s'", a->data->name, bone);
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
    const double *old = a->offset + (size_t)b * 6;
    bool had = a->offset_on[b] != 0;
    sinew_bone_offset o = {(float)(lx - su[0] - p[0]), (float)(ly - su[1] - p[1]), had ? (float)old[2] : 0.0f,
                           had ? (float)old[3] : 0.0f, had ? (float)old[4] : 1.0f, had ? (float)old[5] : 1.0f};
    return sinew_instance_set_bone_offset(inst, armature_index, bone, &o, err);
}

static uint32_t find_slot(const sinew_model_armature *d, const char *name) {
    for (uint32_t i = 0; i < d->slot_count; ++i)
        if (strcmp(d->slots[i].name, name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
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
    if (!inst || armature_index >= inst->arm_count || !slot || !skin)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad instance, armature, slot or skin");
    arm_inst *a = &inst->arms[armature_index];
    const sinew_model_armature *d = a->data;
    uint32_t s = find_slot(d, slot);
    if (s == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no slot '%s'", d->name, slot);
    uint32_t k = SINEW_INVALID_INDEX;
    for (uint32_t i = 0; i < d->skin_count && k == SINEW_INVALID_INDEX; ++i)
        if (strcmp(d->skins[i].name, skin) == 0)
            k = i;
    if (k == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no skin '%s'", d->name, skin);
    const sinew_model_skin_slot *ss = skin_slot(d, k, s);
    if (!ss)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "skin '%s' gives slot '%s' no displays", skin, slot);
    a->list_first[s] = ss->first_display;
    a->list_count[s] = ss->display_count;
    sinew__slot_update_display_data(a, s);
    return SINEW_OK;
}

sinew_status sinew_instance_replace_display(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                            const char *source_slot, const char *display, int32_t display_index,
                                            sinew_error *err) {
    if (!inst || armature_index >= inst->arm_count || !slot)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad instance, armature or slot");
    arm_inst *a = &inst->arms[armature_index];
    const sinew_model_armature *d = a->data;
    uint32_t s = find_slot(d, slot);
    if (s == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has no slot '%s'", d->name, slot);
    if (!display) { /* back to the skin's own display */
        a->replaced[s] = SINEW_INVALID_INDEX;
        sinew__slot_update_display_data(a, s);
        return SINEW_OK;
    }
    uint32_t from = find_slot(d, source_slot ? source_slot : slot);
    const sinew_model_skin_slot *ss = from == SINEW_INVALID_INDEX ? NULL : skin_slot(d, a->default_skin, from);
    uint32_t found = SINEW_INVALID_INDEX;
    for (uint32_t i = 0; ss && i < ss->display_count && found == SINEW_INVALID_INDEX; ++i)
        if (strcmp(d->displays[ss->first_display + i].name, display) == 0)
            found = ss->first_display + i;
    if (found == SINEW_INVALID_INDEX)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "the default skin of '%s' has no display '%s' in slot '%s'",
                           d->name, display, source_slot ? source_slot : slot);
    sinew_display_type t = d->displays[found].type;
    if (t != SINEW_DISPLAY_IMAGE && t != SINEW_DISPLAY_BOUNDING_BOX &&
        !(t == SINEW_DISPLAY_MESH && from == s))
        return sinew__fail(err, SINEW_E_UNSUPPORTED, NULL,
                           "display '%s': only images and bounding boxes move between slots (a mesh is bound to its "
                           "own slot, a child armature to its own instance)",
                           display);
    /* the official Slot.replaceDisplayData: index -1 = the current display (0 when hidden) */
    a->replaced[s] = found;
    a->replaced_at[s] = display_index >= 0 ? display_index : a->display_index[s] < 0 ? 0 : a->display_index[s];
    sinew__slot_update_display_data(a, s);
    return SINEW_OK;
}
