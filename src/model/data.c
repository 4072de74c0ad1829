#define _POSIX_C_SOURCE 200809L
/* The public data API (include/sinew/data.h): load entry points, destroy, read-only queries,
 * atlas discovery and region lookup. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "format/dragonbones_json.h"
#include "format/json_read.h"
#include "format/xml_rig.h" /* XML rig dispatch (issue 5) */
#include "model/model.h"
#include "sinew/data.h"

/* ---- loading ------------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char a = s[n - k + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a + 32);
        if (a != b)
            return false;
    }
    return true;
}

static const char *dir_of(const char *path, char *buf, size_t size);

/* Reads a whole file under the load options' size limit and allocator. On success the caller
 * frees *text (*len + 1 bytes) with *alloc; on failure the error is in err (when unset). */
static sinew_status read_text(const char *path, const sinew_load_options *opts, char **text, size_t *len,
                              const sinew_allocator **alloc, sinew_error *err) {
    sinew_jctx c;
    sinew__jctx_init(&c, NULL, 0, path, opts);
    *alloc = c.allocator;
    sinew_status st = sinew__read_file(&c, path, text, len);
    if (st != SINEW_OK && err && err->code == SINEW_OK)
        *err = c.err;
    return st;
}

sinew_status sinew_data_load_buffer(const void *buf, size_t len, const char *name,
                                    const sinew_load_options *opts, sinew_data **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_buffer: out is NULL");
    *out = NULL;
    if (!buf && len)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_buffer: buf is NULL");
    /* ---- format dispatch: XML rigs (xml_rig.c) when the first non-blank byte is '<' (image paths
     *      relative to the current folder). Everything else is DragonBones JSON. ---- */
    if (sinew__xml_sniff(NULL, buf, len))
        return sinew__xml_load_buffer(buf, len, name, NULL, opts, out, err);
    return sinew__dragonbones_load(buf ? (const char *)buf : "", len, name, opts, out, err);
}

sinew_status sinew_data_load_file(const char *path, const sinew_load_options *opts, sinew_data **out,
                                  sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_file: path is NULL");
    char *text;
    size_t len;
    const sinew_allocator *alloc;
    sinew_status st = read_text(path, opts, &text, &len, &alloc, err);
    if (st != SINEW_OK)
        return st;
    /* ---- format dispatch: `.xml` files (or text starting with '<') go to the XML rig loader. ---- */
    if (ends_with(path, ".xml") || sinew__xml_sniff(NULL, text, len)) {
        char dbuf[4096];
        st = sinew__xml_load_buffer(text, len, path, dir_of(path, dbuf, sizeof dbuf), opts, out, err);
    } else {
        st = sinew__dragonbones_load(text, len, path, opts, out, err);
    }
    sinew__free(alloc, text, len + 1);
    return st;
}

void sinew_data_destroy(sinew_data *data) {
    if (!data)
        return;
    sinew_arena arena = data->arena; /* the struct itself lives in the arena */
    sinew__arena_destroy(&arena);
}

static const char *dir_of(const char *path, char *buf, size_t size) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return "";
    size_t n = (size_t)(slash - path);
    if (n == 0)
        return "/";
    if (n >= size)
        return "";
    memcpy(buf, path, n);
    buf[n] = '\0';
    return buf;
}

sinew_status sinew_atlas_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                     const sinew_load_options *opts, sinew_atlas **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_buffer: out is NULL");
    *out = NULL;
    if (!buf && len)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_buffer: buf is NULL");
    return sinew__atlas_json_load(buf ? (const char *)buf : "", len, name, dir, opts, out, err);
}

sinew_status sinew_atlas_load_file(const char *path, const sinew_load_options *opts, sinew_atlas **out,
                                   sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_file: path is NULL");
    /* XML rigs: their images, one page each (xml_rig.c). */
    if (ends_with(path, ".xml"))
        return sinew__xml_load_atlas_file(path, opts, out, err);
    char *text;
    size_t len;
    const sinew_allocator *alloc;
    sinew_status st = read_text(path, opts, &text, &len, &alloc, err);
    if (st != SINEW_OK)
        return st;
    char dbuf[4096];
    st = sinew__atlas_json_load(text, len, path, dir_of(path, dbuf, sizeof dbuf), opts, out, err);
    sinew__free(alloc, text, len + 1);
    return st;
}

void sinew_atlas_destroy(sinew_atlas *atlas) {
    if (!atlas)
        return;
    sinew_arena arena = atlas->arena;
    sinew__arena_destroy(&arena);
}

/* ---- atlas discovery ------------------------------------------------------------------------ */

static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static sinew_status put_path(char *out, size_t size, const char *dir, const char *name) {
    int n = dir[0] ? snprintf(out, size, "%s/%s", dir, name) : snprintf(out, size, "%s", name);
    return (n < 0 || (size_t)n >= size) ? SINEW_E_ARG : SINEW_OK;
}

sinew_status sinew_atlas_find_for(const char *skeleton_path, char *out_path, size_t size) {
    if (!skeleton_path || !out_path || size == 0)
        return SINEW_E_ARG;
    if (ends_with(skeleton_path, ".xml")) { /* an XML rig is its own atlas (xml_rig.c) */
        if (strlen(skeleton_path) >= size)
            return SINEW_E_ARG;
        memcpy(out_path, skeleton_path, strlen(skeleton_path) + 1);
        return SINEW_OK;
    }
    char dbuf[4096], cand[4096];
    const char *dir = dir_of(skeleton_path, dbuf, sizeof dbuf);
    const char *base = strrchr(skeleton_path, '/');
    base = base ? base + 1 : skeleton_path;
    /* X_ske.json -> X_tex.json */
    size_t bl = strlen(base);
    if (bl > 9 && strcmp(base + bl - 9, "_ske.json") == 0) {
        char name[1024];
        if (bl - 9 + 10 < sizeof name) {
            memcpy(name, base, bl - 9);
            memcpy(name + bl - 9, "_tex.json", 10);
            if (put_path(cand, sizeof cand, dir, name) == SINEW_OK && is_file(cand))
                return put_path(out_path, size, dir, name);
        }
    }
    if (put_path(cand, sizeof cand, dir, "texture.json") == SINEW_OK && is_file(cand))
        return put_path(out_path, size, dir, "texture.json");
    /* *_texture_*.json: the first by name */
    DIR *dh = opendir(dir[0] ? dir : ".");
    if (!dh)
        return SINEW_E_NOT_FOUND;
    char best[1024] = "";
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        const char *n = e->d_name;
        size_t nl = strlen(n);
        if (nl < 5 || strcmp(n + nl - 5, ".json") != 0 || !strstr(n, "_texture_") || nl >= sizeof best)
            continue;
        if (best[0] == '\0' || strcmp(n, best) < 0)
            memcpy(best, n, nl + 1);
    }
    closedir(dh);
    if (best[0] && put_path(cand, sizeof cand, dir, best) == SINEW_OK && is_file(cand))
        return put_path(out_path, size, dir, best);
    return SINEW_E_NOT_FOUND;
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
    out->armature_count = data->armature_count;
}

static const sinew_model_armature *arm_at(const sinew_data *data, uint32_t a) {
    return (data && a < data->armature_count) ? &data->armatures[a] : NULL;
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

sinew_status sinew_data_armature_info(const sinew_data *data, uint32_t armature, sinew_armature_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out)
        return SINEW_E_ARG;
    memset(out, 0, sizeof *out);
    out->name = A->name;
    out->type = A->type;
    out->frame_rate = A->frame_rate;
    out->bone_count = A->bone_count;
    out->slot_count = A->slot_count;
    out->skin_count = A->skin_count;
    out->display_count = A->display_count;
    out->mesh_count = A->mesh_count;
    out->ik_count = A->ik_count;
    out->ignored_ik_count = A->ignored_ik_count;
    out->animation_count = A->animation_count;
    out->default_animation = A->default_animation;
    return SINEW_OK;
}

sinew_status sinew_data_bone_info(const sinew_data *data, uint32_t armature, uint32_t bone, sinew_bone_info *out) {
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
    return SINEW_OK;
}

sinew_status sinew_data_slot_info(const sinew_data *data, uint32_t armature, uint32_t slot, sinew_slot_info *out) {
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

sinew_status sinew_data_skin_info(const sinew_data *data, uint32_t armature, uint32_t skin, sinew_skin_info *out) {
    const sinew_model_armature *A = arm_at(data, armature);
    if (!A || !out || skin >= A->skin_count)
        return SINEW_E_ARG;
    out->name = A->skins[skin].name;
    out->slot_count = A->skins[skin].slot_count;
    return SINEW_OK;
}

sinew_status sinew_data_ik_info(const sinew_data *data, uint32_t armature, uint32_t ik, sinew_ik_info *out) {
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

sinew_status sinew_data_animation_info(const sinew_data *data, uint32_t armature, uint32_t animation,
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

sinew_status sinew_atlas_page_info_get(const sinew_atlas *atlas, uint32_t page, sinew_atlas_page_info *out) {
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

sinew_status sinew_atlas_region_info_get(const sinew_atlas *atlas, uint32_t region, sinew_atlas_region_info *out) {
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
