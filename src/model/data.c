#define _POSIX_C_SOURCE 200809L
/* The public data API (include/sinew/data.h): destroy, read-only queries and region lookup. The
 * load entry points and atlas discovery are in format/load.c (model knows no file format). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "model/model.h"
#include "sinew/data.h"
#include "sinew/drawlist.h"

/* ---- names ------------------------------------------------------------------------------ */

const char *sinew_blend_mode_name(sinew_blend_mode mode) {
    static const char *const names[SINEW_BLEND_COUNT] = {
        "normal", "add", "alpha", "darken", "difference", "erase", "hardlight", "invert", "layer", "lighten",
        "multiply", "overlay", "screen", "subtract"};
    return (unsigned)mode < SINEW_BLEND_COUNT ? names[mode] : NULL;
}

/* ---- freeing ---------------------------------------------------------------------------- */

void sinew_data_destroy(sinew_data *data) {
    if (!data)
        return;
    sinew_arena arena = data->arena; /* the struct itself lives in the arena */
    sinew__arena_destroy(&arena);
}

void sinew_atlas_destroy(sinew_atlas *atlas) {
    if (!atlas)
        return;
    sinew_arena arena = atlas->arena;
    sinew__arena_destroy(&arena);
}

uint32_t sinew__atlas_find_region(const struct sinew_atlas *atlas, const char *name) {
    if (!atlas || !name)
        return SINEW_INVALID_INDEX;
    uint32_t lo = 0, hi = atlas->region_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        int c = strcmp(atlas->regions[mid].name, name);
        if (c == 0) {
            /* the first of equal names */
            while (mid > 0 && strcmp(atlas->regions[mid - 1].name, name) == 0)
                mid--;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SINEW_INVALID_INDEX;
}

uint32_t sinew_atlas_find_region(const sinew_atlas *atlas, const char *name) {
    return sinew__atlas_find_region(atlas, name);
}

/* ---- queries ----------------------------------------------------------------------------------- */

void sinew_data_get_info(const sinew_data *data, sinew_data_info *out) {
    memset(out, 0, sizeof *out);
    if (!data)
        return;
    out->format = data->source_format ? data->source_format : "dragonbones";
    out->name = data->name ? data->name : "";
    out->version = data->version ? data->version : "";
    out->compatible_version = data->compatible_version;
    out->frame_rate = data->frame_rate;
    out->is_global = data->is_global;
    out->v6 = data->v6;
    out->armature_count = data->armature_count;
}

static const sinew_model_armature *arm_at(const sinew_data *data, uint32_t a) {
    return (data && a < data->armature_count) ? &data->armatures[a] : NULL;
}

uint32_t sinew_data_default_armature(const sinew_data *data) {
    if (!data || data->armature_count == 0)
        return SINEW_INVALID_INDEX;
    if (data->stage) {
        uint32_t s = sinew_data_find_armature(data, data->stage);
        if (s != SINEW_INVALID_INDEX)
            return s;
    }
    /* the armatures some armature display uses as a child (a child of itself does not count) */
    uint32_t best = SINEW_INVALID_INDEX, best_any = 0;
    for (uint32_t i = 0; i < data->armature_count; i++) {
        bool child = false;
        for (uint32_t a = 0; a < data->armature_count && !child; a++) {
            const sinew_model_armature *A = &data->armatures[a];
            for (uint32_t k = 0; a != i && k < A->display_count; k++)
                if (A->displays[k].type == SINEW_DISPLAY_ARMATURE && A->displays[k].armature == i) {
                    child = true;
                    break;
                }
        }
        uint32_t bones = data->armatures[i].bone_count;
        if (bones > data->armatures[best_any].bone_count)
            best_any = i;
        if (!child && (best == SINEW_INVALID_INDEX || bones > data->armatures[best].bone_count))
            best = i;
    }
    return best != SINEW_INVALID_INDEX ? best : best_any;
}

uint32_t sinew_data_find_armature(const sinew_data *data, const char *name) {
    for (uint32_t i = 0; data && name && i < data->armature_count; i++)
        if (strcmp(data->armatures[i].name, name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

#define FIND_IN(arr, count)                                  \
    const sinew_model_armature *A = arm_at(data, armature);  \
    for (uint32_t i = 0; A && name && i < A->count; i++)     \
        if (strcmp(A->arr[i].name, name) == 0)               \
            return i;                                        \
    return SINEW_INVALID_INDEX

uint32_t sinew_data_find_bone(const sinew_data *data, uint32_t armature, const char *name) {
    FIND_IN(bones, bone_count);
}
uint32_t sinew_data_find_slot(const sinew_data *data, uint32_t armature, const char *name) {
    FIND_IN(slots, slot_count);
}
uint32_t sinew_data_find_skin(const sinew_data *data, uint32_t armature, const char *name) {
    FIND_IN(skins, skin_count);
}
uint32_t sinew_data_find_animation(const sinew_data *data, uint32_t armature, const char *name) {
    FIND_IN(animations, animation_count);
}

sinew_status sinew_data_get_armature_info(const sinew_data *data, uint32_t armature, sinew_armature_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out)
        return SINEW_E_ARG;
    memset(out, 0, sizeof *out);
    out->name = A->name;
    out->type = A->type;
    out->frame_rate = A->frame_rate;
    out->user_data = A->user_data;
    out->has_canvas = A->has_canvas;
    out->canvas_background = A->canvas_background;
    out->canvas_color = A->canvas_color;
    out->canvas_x = A->canvas_x;
    out->canvas_y = A->canvas_y;
    out->canvas_width = A->canvas_width;
    out->canvas_height = A->canvas_height;
    out->bone_count = A->bone_count;
    out->slot_count = A->slot_count;
    out->skin_count = A->skin_count;
    out->display_count = A->display_count;
    out->mesh_count = A->mesh_count;
    out->ik_count = A->ik_count;
    out->ignored_ik_count = A->ignored_ik_count;
    out->animation_count = A->animation_count;
    out->default_animation = A->default_animation;
    for (uint32_t b = 0; b < A->bone_count; ++b)
        out->surface_count += A->bones[b].is_surface;
    out->path_constraint_count = A->path_constraint_count;
    out->mesh_count = A->mesh_count - A->shape_count; /* a shape's geometry is a mesh of the model */
    out->shape_count = A->shape_count;
    out->transform_constraint_count = A->transform_constraint_count;
    out->physics_count = A->physics_count;
    out->ignored_constraint_count = A->ignored_constraint_count;
    for (uint32_t d = 0; d < A->display_count; ++d)
        out->mask_count += A->displays[d].mask;
    return SINEW_OK;
}

sinew_status sinew_data_get_bone_info(const sinew_data *data, uint32_t armature, uint32_t bone, sinew_bone_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || bone >= A->bone_count)
        return SINEW_E_ARG;
    const sinew_model_bone *B = &A->bones[bone];
    memset(out, 0, sizeof *out);
    out->name = B->name;
    out->parent = B->parent;
    out->x = B->setup.x;
    out->y = B->setup.y;
    out->rotation_rad = B->setup.rotation;
    out->skew_rad = B->setup.skew;
    out->scale_x = B->setup.scale_x;
    out->scale_y = B->setup.scale_y;
    out->length = B->length;
    out->inherit_translation = B->inherit_translation;
    out->inherit_rotation = B->inherit_rotation;
    out->inherit_scale = B->inherit_scale;
    out->inherit_reflection = B->inherit_reflection;
    out->is_surface = B->is_surface;
    out->segment_x = B->segment_x;
    out->segment_y = B->segment_y;
    return SINEW_OK;
}

sinew_status sinew_data_get_slot_info(const sinew_data *data, uint32_t armature, uint32_t slot, sinew_slot_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || slot >= A->slot_count)
        return SINEW_E_ARG;
    const sinew_model_slot *S = &A->slots[slot];
    memset(out, 0, sizeof *out);
    out->name = S->name;
    out->parent = S->parent;
    out->display_index = S->display_index;
    out->blend = S->blend;
    out->color = S->color;
    return SINEW_OK;
}

sinew_status sinew_data_get_skin_info(const sinew_data *data, uint32_t armature, uint32_t skin, sinew_skin_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || skin >= A->skin_count)
        return SINEW_E_ARG;
    out->name = A->skins[skin].name;
    out->slot_count = A->skins[skin].slot_count;
    return SINEW_OK;
}

uint32_t sinew_data_default_action_count(const sinew_data *data, uint32_t armature) {
    const sinew_model_armature *A = arm_at(data, armature);
    return A ? A->default_action_count : 0;
}

sinew_status sinew_data_default_action(const sinew_data *data, uint32_t armature, uint32_t i, sinew_action_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || i >= A->default_action_count)
        return SINEW_E_ARG;
    const sinew_model_action *a = &A->actions[A->first_default_action + i];
    static const char *const types[] = {"play", "stop", "fadeIn", "frameEvent", "sound"};
    out->type = (unsigned)a->type < sizeof types / sizeof types[0] ? types[a->type] : "play";
    out->name = a->name ? a->name : "";
    out->play_times = a->play_times;
    return SINEW_OK;
}

sinew_status sinew_data_get_ik_info(const sinew_data *data, uint32_t armature, uint32_t ik, sinew_ik_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || ik >= A->ik_count)
        return SINEW_E_ARG;
    const sinew_model_ik *K = &A->iks[ik];
    out->name = K->name;
    out->bone = K->bone;
    out->target = K->target;
    out->root = K->root;
    out->chain = K->chain;
    out->bend_positive = K->bend_positive;
    out->weight = K->weight;
    return SINEW_OK;
}

sinew_status sinew_data_get_animation_info(const sinew_data *data, uint32_t armature, uint32_t animation,
                                       sinew_animation_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || animation >= A->animation_count)
        return SINEW_E_ARG;
    const sinew_model_animation *N = &A->animations[animation];
    out->name = N->name;
    out->frames = N->duration;
    out->duration_s = A->frame_rate > 0.0f ? (double)N->duration / (double)A->frame_rate : 0.0;
    out->play_times = N->play_times;
    out->fade_in_time_s = N->fade_in_time;
    out->timeline_count = N->timeline_count;
    return SINEW_OK;
}

void sinew_atlas_get_info(const sinew_atlas *atlas, sinew_atlas_info *out) {
    memset(out, 0, sizeof *out);
    if (!atlas)
        return;
    out->page_count = atlas->page_count;
    out->region_count = atlas->region_count;
}

sinew_status sinew_atlas_get_page_info(const sinew_atlas *atlas, uint32_t page, sinew_atlas_page_info *out) {
    if (!atlas || !out || page >= atlas->page_count)
        return SINEW_E_ARG;
    const sinew_model_page *P = &atlas->pages[page];
    out->name = P->name;
    out->image_path = P->image_path;
    out->resolved_path = P->resolved_path;
    out->width = P->width;
    out->height = P->height;
    out->scale = P->scale;
    return SINEW_OK;
}

sinew_status sinew_atlas_get_region_info(const sinew_atlas *atlas, uint32_t region, sinew_atlas_region_info *out) {
    if (!atlas || !out || region >= atlas->region_count)
        return SINEW_E_ARG;
    const sinew_model_region *R = &atlas->regions[region];
    out->name = R->name;
    out->page = R->page;
    out->x = R->x;
    out->y = R->y;
    out->width = R->width;
    out->height = R->height;
    out->rotated = R->rotated;
    out->has_frame = R->has_frame;
    out->frame_x = R->frame_x;
    out->frame_y = R->frame_y;
    out->frame_width = R->frame_width;
    out->frame_height = R->frame_height;
    return SINEW_OK;
}

bool sinew__js_index_key(const char *s, uint32_t *out) {
    uint64_t v = 0;
    if (!s[0] || (s[0] == '0' && s[1]))
        return false;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10u + (uint64_t)(*p - '0');
        if (v >= 4294967295u)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}
