/*
 * Deforms of a DragonBones 6.0 armature, kept as upstream DragonBonesJS 5.7 / 6.0.2 keeps them
 * (docs/runtime.md "Upstream 5.7 semantics"): one deform array per display frame (a slot's display at
 * one index of its list), made by the first deform timeline bound to that frame and kept across
 * display switches, instead of the 5.x reference's one array per slot cleared on every switch.
 *
 * Storage: the slot's own deform area (arm_inst.deform, what the mesh, shape and path updates read)
 * holds the frame the slot shows (frame_shown); every other frame's values wait in the pool
 * (frame_deform, model run_frame_deform). A switch of frame parks the shown values and brings the
 * new frame's in. The blending itself (by layer and weight, per display or slot name) is the
 * animation state's (animation.c).
 */
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/error.h"

/* The number of floats a display's deform holds (2 per point of its geometry), 0 for none. */
static uint32_t display_deform_len(const sinew_model_armature *arm, const sinew_model_display *d) {
    if ((d->type == SINEW_DISPLAY_MESH || d->type == SINEW_DISPLAY_SHAPE) && d->mesh < arm->mesh_count)
        return 2 * arm->meshes[d->mesh].vertex_count;
    if (d->type == SINEW_DISPLAY_PATH && d->path_data < arm->path_count)
        return 2 * arm->paths[d->path_data].vertex_count;
    return 0;
}

/* The id of `name` among names[0, n) (the first equal one's position), as a dense key. */
static uint32_t name_key(const char *const *names, const uint32_t *keys, uint32_t n, const char *name) {
    for (uint32_t i = 0; i < n; ++i)
        if (strcmp(names[i], name) == 0)
            return keys[i];
    return SINEW_INVALID_INDEX;
}

sinew_status sinew__prepare_deform6(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    uint32_t nd = arm->display_count, ns = arm->slot_count, n = nd + ns;
    arm->run_frame_deform = NULL;
    arm->run_blend_key = NULL;
    arm->run_frame_deform_floats = arm->run_blend_keys = 0;
    if (n == 0)
        return SINEW_OK;
    uint32_t *fd = nd ? sinew__arena_array(arena, (size_t)nd * 2, sizeof(uint32_t)) : NULL;
    uint32_t *keys = sinew__arena_array(arena, n, sizeof(uint32_t));
    const char **names = sinew__arena_array(arena, n, sizeof(char *));
    if ((nd && !fd) || !keys || !names)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    uint64_t total = 0;
    for (uint32_t i = 0; i < nd; ++i) {
        uint32_t len = display_deform_len(arm, &arm->displays[i]);
        fd[2 * i] = (uint32_t)total;
        fd[2 * i + 1] = len;
        total += len;
    }
    if (total > UINT32_MAX)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "armature '%s': too many deform values", arm->name);
    /* the displays' names, then the slots': equal names share a key */
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const char *name = i < nd ? arm->displays[i].name : arm->slots[i - nd].name;
        names[i] = name ? name : "";
        uint32_t k = name_key(names, keys, i, names[i]);
        keys[i] = k != SINEW_INVALID_INDEX ? k : distinct++;
    }
    arm->run_frame_deform = fd;
    arm->run_frame_deform_floats = (uint32_t)total;
    arm->run_blend_key = keys;
    arm->run_blend_keys = distinct;
    return SINEW_OK;
}

/* The first geometry of an armature in the official parse order (surface bones in file order, then
 * the mesh, path and shape displays of the skins in file order), as (display or bone index, is_bone);
 * false when it has none. */
static bool first_geometry(const sinew_model_armature *arm, uint32_t *index, bool *is_bone) {
    uint32_t best = SINEW_INVALID_INDEX;
    for (uint32_t b = 0; b < arm->bone_count; ++b)
        if (arm->bones[b].is_surface && (best == SINEW_INVALID_INDEX || arm->bones[b].file_index < arm->bones[best].file_index))
            best = b;
    if (best != SINEW_INVALID_INDEX) {
        *index = best;
        *is_bone = true;
        return true;
    }
    for (uint32_t order = 0; order < arm->skin_count; ++order)
        for (uint32_t k = 0; k < arm->skin_count; ++k) {
            const sinew_model_skin *K = &arm->skins[k];
            if (K->source_index != order)
                continue;
            for (uint32_t i = 0; i < K->slot_count; ++i) {
                const sinew_model_skin_slot *ss = &arm->skin_slots[K->first_slot + i];
                for (uint32_t j = 0; j < ss->display_count; ++j)
                    if (display_deform_len(arm, &arm->displays[ss->first_display + j])) {
                        *index = ss->first_display + j;
                        *is_bone = false;
                        return true;
                    }
            }
        }
    return false;
}

void sinew__deform6_first_geometry(struct sinew_data *data) {
    bool found = false;
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        sinew_model_armature *arm = &data->armatures[a];
        uint32_t index;
        bool is_bone;
        arm->run_shape_geom0 = SINEW_INVALID_INDEX;
        if (found || !first_geometry(arm, &index, &is_bone))
            continue;
        found = true;
        if (!is_bone && arm->displays[index].type == SINEW_DISPLAY_SHAPE)
            arm->run_shape_geom0 = arm->displays[index].mesh;
    }
}

/* The values of display `disp`'s frame and how many: the slot's own area when it is the frame slot
 * s shows, else its place in the pool. */
float *sinew__deform6_values(arm_inst *arm, uint32_t s, uint32_t disp, uint32_t *n) {
    const uint32_t *fd = arm->data->run_frame_deform + 2 * (size_t)disp;
    if (disp == arm->frame_shown[s]) {
        uint32_t cap = sinew__deform_cap(arm, s);
        *n = fd[1] < cap ? fd[1] : cap;
        return arm->deform + sinew__deform_first(arm, s);
    }
    *n = fd[1];
    return arm->frame_deform + fd[0];
}

void sinew__deform6_show(arm_inst *arm, uint32_t s, uint32_t raw) {
    uint32_t old = arm->frame_shown[s];
    if (old == raw)
        return;
    const uint32_t *fd = arm->data->run_frame_deform;
    float *area = arm->deform + sinew__deform_first(arm, s);
    uint32_t cap = sinew__deform_cap(arm, s);
    if (old != SINEW_INVALID_INDEX && fd[2 * (size_t)old + 1]) { /* park the shown frame's values */
        uint32_t k = fd[2 * (size_t)old + 1] < cap ? fd[2 * (size_t)old + 1] : cap;
        memcpy(arm->frame_deform + fd[2 * (size_t)old], area, k * sizeof(float));
    }
    arm->frame_shown[s] = raw;
    if (cap)
        memset(area, 0, cap * sizeof(float));
    arm->deform_nz[s] = 0;
    if (raw != SINEW_INVALID_INDEX && arm->frame_deform_on[raw]) { /* and bring the new one's in */
        uint32_t k = fd[2 * (size_t)raw + 1] < cap ? fd[2 * (size_t)raw + 1] : cap;
        memcpy(area, arm->frame_deform + fd[2 * (size_t)raw], k * sizeof(float));
        arm->deform_nz[s] = 1;
    }
    arm->deform_dirty[s] = 1;
}

/* The geometry a display frame deforms, as one id: a mesh's (or shape's) mesh index, a path's index
 * with the top bit set, INVALID for none. Frames are matched to deform timelines by it (the official
 * geometry offset). */
uint32_t sinew__deform6_geometry(const sinew_model_armature *arm, uint32_t disp) {
    const sinew_model_display *d = &arm->displays[disp];
    if ((d->type == SINEW_DISPLAY_MESH || d->type == SINEW_DISPLAY_SHAPE) && d->mesh < arm->mesh_count)
        return d->mesh;
    if (d->type == SINEW_DISPLAY_PATH && d->path_data < arm->path_count)
        return 0x80000000u | d->path_data;
    return SINEW_INVALID_INDEX;
}

int32_t sinew__deform6_frame(const arm_inst *arm, const sinew_model_timeline *T) {
    const sinew_model_armature *d = arm->data;
    uint32_t s = T->target, want;
    if (T->type == SINEW_TL_PATH_DEFORM)
        want = T->display < d->display_count ? sinew__deform6_geometry(d, T->display) : SINEW_INVALID_INDEX;
    else
        want = T->mesh < d->mesh_count ? T->mesh : SINEW_INVALID_INDEX;
    if (want == SINEW_INVALID_INDEX || s >= arm->slot_count)
        return -1;
    for (uint32_t i = 0; i < arm->list_count[s]; ++i)
        if (sinew__deform6_geometry(d, arm->list_first[s] + i) == want)
            return (int32_t)i;
    return -1;
}

void sinew__deform6_forget_unlisted(arm_inst *arm) {
    /* the official replaceRawDisplayData: a frame given another display forgets its deform */
    const sinew_model_armature *d = arm->data;
    const uint32_t *fd = d->run_frame_deform;
    for (uint32_t k = 0; k < d->skin_slot_count; ++k) {
        const sinew_model_skin_slot *ss = &d->skin_slots[k];
        if (ss->slot < arm->slot_count && arm->list_first[ss->slot] == ss->first_display &&
            arm->list_count[ss->slot] == ss->display_count)
            continue;
        for (uint32_t i = 0; i < ss->display_count; ++i) {
            uint32_t disp = ss->first_display + i;
            if (disp >= d->display_count || !arm->frame_deform_on[disp])
                continue;
            arm->frame_deform_on[disp] = 0;
            memset(arm->frame_deform + fd[2 * (size_t)disp], 0, fd[2 * (size_t)disp + 1] * sizeof(float));
        }
    }
}

void sinew__deform6_reset(arm_inst *arm) {
    const sinew_model_armature *d = arm->data;
    if (d->run_frame_deform_floats)
        memset(arm->frame_deform, 0, d->run_frame_deform_floats * sizeof(float));
    if (d->run_deform_floats)
        memset(arm->deform_drawn, 0, d->run_deform_floats * sizeof(float));
    if (d->display_count)
        memset(arm->frame_deform_on, 0, d->display_count);
    for (uint32_t s = 0; s < arm->slot_count; ++s)
        arm->frame_shown[s] = SINEW_INVALID_INDEX;
    if (d->run_blend_keys)
        memset(arm->deform_blend, 0, SLOT_BLEND_SPACES * (size_t)d->run_blend_keys * sizeof(blend_state));
    arm->deform_blend_touched = false;
}
