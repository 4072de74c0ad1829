/*
 * Masks of DragonBones 6.0 armatures: which slot's mask display clips each slot (arm_inst.masked_by),
 * by the rule of the official 6.0.2 Pixi 7/8 adapters, which tools/oracle6 reproduces
 * (docs/dragonbones-6.0.md section 7).
 *
 * The adapters keep one display object per slot in a container, in draw order; a slot's display
 * object is its image (raw), mesh or shape display, or the child armature it shows (an empty,
 * boundingBox or path display leaves the raw one in place). A mask slot (its display data has
 * `mask` and `maskRange` > 0; the flags stay as they were while the slot shows nothing) makes its
 * display object the mask of the next maskRange objects in the container, after clearing itself
 * from every object it masked; later masks win. That happens only when the armature re-sorts its
 * slots (its first update, any draw-order change), and for a mask slot the update after its own
 * z-order was set; the slot update also moves a slot's object to its z-order and swaps it when the
 * slot changes display kind. Nothing else releases a client: switching the mask slot's display or
 * hiding it leaves its clients clipped by the display object they had, until the next re-sort.
 *
 * This is the containers' bookkeeping only (no pose depends on it). Armatures without a mask
 * display never run it: their masked_by stays all SINEW_INVALID_INDEX.
 */
#include <string.h>

#include "anim/runtime_internal.h"

#define CHILD_BIT 0x80000000u

/* A slot's display object (slot * 4 + 0 raw, 1 mesh, 2 shape; a child armature's CHILD_BIT | index)
 * and whether the slot has a display (the official Slot._display is not null). */
static uint32_t display_object(const arm_inst *a, uint32_t s, bool *has) {
    uint32_t disp = a->cur_display[s];
    *has = false;
    if (disp == SINEW_INVALID_INDEX)
        return s * 4;
    switch (sinew__arm_display(a, disp)->type) {
    case SINEW_DISPLAY_IMAGE:
        *has = true;
        return s * 4;
    case SINEW_DISPLAY_MESH:
        *has = true;
        return s * 4 + 1;
    case SINEW_DISPLAY_SHAPE:
        *has = true;
        return s * 4 + 2;
    case SINEW_DISPLAY_ARMATURE:
        if (a->cur_child[s] == SINEW_INVALID_INDEX)
            return s * 4;
        *has = true;
        return CHILD_BIT | a->cur_child[s];
    default:
        return s * 4;
    }
}

/* The mask a display object has (its `mask`), as a display object, or INVALID. */
static uint32_t *mask_of(sinew_instance *inst, arm_inst *a, uint32_t obj) {
    if (obj & CHILD_BIT)
        return &inst->arms[obj & ~CHILD_BIT].proxy_mask;
    return &a->mask6->object_mask[(obj / 4) * 3 + (obj % 4)];
}

static uint32_t index_of(const arm_inst *a, uint32_t obj) {
    for (uint32_t i = 0; i < a->mask6->count; ++i)
        if (a->mask6->children[i] == obj)
            return i;
    return SINEW_INVALID_INDEX;
}

static void remove_at(mask6_rt *m, uint32_t i) {
    memmove(m->children + i, m->children + i + 1, (m->count - i - 1) * sizeof *m->children);
    m->count--;
}

/* the adapter's _replaceDisplay(prev): the new object takes the old one's place */
static void replace_object(arm_inst *a, uint32_t prev, uint32_t cur) {
    mask6_rt *m = a->mask6;
    uint32_t i = index_of(a, cur);
    if (i != SINEW_INVALID_INDEX)
        remove_at(m, i);
    uint32_t j = index_of(a, prev);
    if (j != SINEW_INVALID_INDEX)
        m->children[j] = cur;
    else if (m->count < a->slot_count)
        m->children[m->count++] = cur;
}

/* the adapter's _updateZOrder: the slot's object moved to its z-order */
static void move_object(arm_inst *a, uint32_t s) {
    mask6_rt *m = a->mask6;
    uint32_t obj = m->object[s], i = index_of(a, obj);
    uint32_t z = (uint32_t)a->zorder[s];
    if (i == z)
        return;
    if (i != SINEW_INVALID_INDEX)
        remove_at(m, i);
    if (z > m->count)
        z = m->count;
    memmove(m->children + z + 1, m->children + z, (m->count - z) * sizeof *m->children);
    m->children[z] = obj;
    m->count++;
}

/* the adapter's _updateMask: a mask slot clears itself from every object, then masks the next
 * maskRange objects after its own (bounded by the container: the official loop runs maskRange
 * times, which a huge maskRange makes endless) */
static void update_mask(sinew_instance *inst, arm_inst *a, uint32_t s) {
    mask6_rt *m = a->mask6;
    if (!m->mask_on[s] || !(m->mask_range[s] > 0.0))
        return;
    uint32_t obj = m->object[s];
    for (uint32_t i = 0; i < m->count; ++i) {
        uint32_t *mk = mask_of(inst, a, m->children[i]);
        if (*mk == obj)
            *mk = SINEW_INVALID_INDEX;
    }
    uint32_t at = index_of(a, obj);
    if (at == SINEW_INVALID_INDEX)
        return;
    for (uint32_t k = at + 1; k < m->count && (double)(k - at - 1) < m->mask_range[s]; ++k)
        *mask_of(inst, a, m->children[k]) = obj;
}

void sinew__mask6_zorder_set(arm_inst *a, uint32_t s) {
    if (a->mask6)
        a->mask6->zorder_dirty[s] = 1;
}

void sinew__mask6_reset(arm_inst *a) {
    mask6_rt *m = a->mask6;
    if (!m)
        return;
    uint32_t n = a->slot_count;
    for (uint32_t s = 0; s < n; ++s) {
        m->children[s] = s * 4; /* each slot adds its raw display at creation, in setup order */
        m->object[s] = s * 4;
        m->mask_on[s] = 0;
        m->mask_range[s] = 0.0;
        m->zorder_dirty[s] = m->mask_dirty[s] = 0;
        m->object_mask[3 * s] = m->object_mask[3 * s + 1] = m->object_mask[3 * s + 2] = SINEW_INVALID_INDEX;
    }
    m->count = n;
    m->sorted = 1; /* the first update sorts the slots */
}

/* After the slot updates (in draw order, as the official ones) and the armature's re-sort. */
void sinew__mask6_update(sinew_instance *inst, uint32_t ai) {
    arm_inst *a = &inst->arms[ai];
    mask6_rt *m = a->mask6;
    if (!m)
        return;
    const sinew_model_armature *d = a->data;
    for (uint32_t k = 0; k < a->slot_count; ++k) {
        uint32_t s = a->draw_order[k];
        int32_t idx = a->display_index[s];
        if (idx >= 0 && (uint32_t)idx < a->list_count[s]) { /* the raw display data's flags */
            const sinew_model_display *raw = &d->displays[a->list_first[s] + (uint32_t)idx];
            m->mask_on[s] = raw->mask;
            m->mask_range[s] = raw->mask_range;
        }
        bool has;
        uint32_t obj = display_object(a, s, &has);
        if (obj != m->object[s]) {
            replace_object(a, m->object[s], obj);
            m->object[s] = obj;
        }
        if (!has)
            continue;
        if (m->mask_dirty[s]) {
            update_mask(inst, a, s);
            m->mask_dirty[s] = 0;
        }
        if (m->zorder_dirty[s]) {
            move_object(a, s);
            m->zorder_dirty[s] = 0;
            m->mask_dirty[s] = 1;
        }
    }
    if (m->sorted) {
        m->sorted = 0;
        for (uint32_t k = 0; k < a->slot_count; ++k)
            update_mask(inst, a, a->draw_order[k]);
    }
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        uint32_t mk = *mask_of(inst, a, m->object[s]);
        a->masked_by[s] = mk == SINEW_INVALID_INDEX || (mk & CHILD_BIT) ? SINEW_INVALID_INDEX : mk / 4;
    }
}
