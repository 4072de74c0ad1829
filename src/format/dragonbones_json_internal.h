/* The DragonBones JSON loader's shared parts (internal to src/format/dragonbones_*.c): the build
 * context, and the helpers the sections share. The loader is split along the document:
 *   dragonbones_json.c    helpers, values, actions; armatures and the file (the entry points)
 *   dragonbones_setup.c   bones, slots, skins and displays, IK, path constraints
 *   dragonbones_mesh.c    meshes and path geometry
 *   dragonbones_anim.c    animations: timelines, keys, curves, action frames
 *   dragonbones_global.c  isGlobal data made local
 *   dragonbones_v6.c      6.0: transform and physics constraints, constraint names, coerced numbers */
#ifndef SINEW_FORMAT_DRAGONBONES_JSON_INTERNAL_H
#define SINEW_FORMAT_DRAGONBONES_JSON_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/namemap.h"
#include "format/dragonbones_json.h"
#include "format/json_read.h"
#include "model/model.h"

#define PI_F 3.14159265358979323846
#define DEG2RAD (PI_F / 180.0)

typedef struct pending_action {
    float pos;
    uint32_t seq;
    sinew_model_action action;
} pending_action;

/* One official action merge (see sinew_model_merge_unit) while an animation is built: `first`
 * and `count` index the pending actions (animation and bone frames) or d->actions (slot frames). */
typedef struct merge_rec {
    uint8_t source;
    float pos;
    uint32_t timeline, key;
    uint32_t first, count;
} merge_rec;

typedef struct db {
    sinew_jctx *c;
    sinew_arena *arena;
    sinew_arena scratch;
    struct sinew_data *data;
    sinew_namemap armature_names;
    /* the armature being built */
    sinew_model_armature *arm;
    sinew_namemap bones, slots, skins, iks;
    uint32_t *bone_of_file;        /* file index -> model index */
    uint32_t *slot_display_max;    /* per slot: most displays any skin gives it */
    uint32_t *pose_of_bone;        /* per mesh scratch: model bone -> bonePose entry */
    sinew_model_action *actions;   /* growable (scratch), copied to the arena at the end */
    uint32_t action_count, action_cap;
    pending_action *pending;       /* the animation's merged action frames, before sorting */
    uint32_t pending_count, pending_cap;
    merge_rec *merges;             /* the animation's action merges, in the order they happen */
    uint32_t merge_count, merge_cap;
    /* the animation being built */
    sinew_model_animation *anim;
    uint32_t keys_used, curves_used;
    /* what the official parser writes first into its int array (offset 0, which a shared mesh
     * reads, see SHARE below): nothing yet, the first armature's first mesh, or something else */
    enum { FIRST_NONE, FIRST_MESH, FIRST_OTHER } first_int;
    const cJSON *first_node;       /* the display that will be it, in file order (skins may be
                                      built in another order: the default one first) */
    const sinew_model_mesh *first_mesh;
    sinew_model_mesh **share_wait; /* shared meshes built before that display, filled after */
    uint32_t share_wait_count;
    bool warned_generic;           /* the 5.6 `timeline` arrays were reported */
    bool warned_legacy_surface;    /* a 6.0 file's `surface` timelines (not played) were reported */
    bool warned_v6_path_layout;    /* a 6.0 file's weighted path without bonePose was reported */
    bool warned_v6_keys;           /* 6.0 keys in a 5.x file were reported */
    bool warned_timeline_keys;     /* timeline keys the file's runtime does not read were reported */
} db;

#define ALLOC(ptr, count)                                             \
    do {                                                              \
        bool ok_;                                                     \
        (ptr) = sinew__dbj_alloc_array(d, (size_t)(count), sizeof *(ptr), &ok_); \
        if (!ok_)                                                     \
            return d->c->err.code;                                    \
    } while (0)

/* dragonbones_json.c */
void *sinew__dbj_scratch_array(db *d, size_t count, size_t size);
sinew_status sinew__dbj_limited_array(db *d, const cJSON *v, const char *key, uint32_t limit, const cJSON **first,
                                      uint32_t *n);
sinew_status sinew__dbj_nm_init(db *d, sinew_namemap *m, uint32_t n);
void *sinew__dbj_alloc_array(db *d, size_t count, size_t size, bool *ok);
sinew_status sinew__dbj_dup_str(db *d, const char *s, const char **out);
sinew_status sinew__dbj_user_data(db *d, const cJSON *v, const char **out);
sinew_status sinew__dbj_push_action(db *d, const sinew_model_action *a);
double sinew__dbj_normalize_rad(double r);
sinew_status sinew__dbj_parse_transform(db *d, const cJSON *v, sinew_transform *t, bool setup);
sinew_status sinew__dbj_parse_transform_d(db *d, const cJSON *v, sinew_transform *t, bool setup, double *exact);
sinew_status sinew__dbj_parse_color(db *d, const cJSON *v, const char *key, sinew_color_transform *col);
sinew_blend_mode sinew__dbj_blend_from_string(const char *s, bool *known);
sinew_status sinew__dbj_parse_actions(db *d, const cJSON *v, const char *key, sinew_action_type def, uint32_t bone,
                                  uint32_t slot);
sinew_status sinew__dbj_frame_actions(db *d, float pos, const cJSON *ev, const cJSON *snd, const cJSON *act,
                                  const cJSON *evs, const cJSON *acts, uint32_t bone, uint32_t slot,
                                  sinew_model_keyframe *keep, uint32_t tl, uint32_t key);

/* dragonbones_setup.c */
sinew_status sinew__dbj_build_bones(db *d, const cJSON *arr);
sinew_status sinew__dbj_build_slots(db *d, const cJSON *arr);
extern const sinew_jkeys sinew__dbj_skin_table;
extern const sinew_jkeys sinew__dbj_skin_slot_table;
extern const sinew_jkeys sinew__dbj_pivot_table;
void sinew__dbj_share_geometry(db *d, sinew_model_mesh *M);
void sinew__dbj_find_first_int(db *d, const cJSON *first);
sinew_status sinew__dbj_build_iks(db *d, const cJSON *arr);
sinew_status sinew__dbj_build_path_constraints(db *d, const cJSON *arr);

/* dragonbones_mesh.c */
bool sinew__dbj_affine_invert(sinew_affine m, sinew_affine *out);
sinew_status sinew__dbj_build_skins(db *d, const cJSON *arr);
bool sinew__dbj_display_index_ok(db *d, uint32_t slot, double di);

/* dragonbones_anim.c */
const cJSON *sinew__dbj_obj_get(const cJSON *o, const char *k);
sinew_status sinew__dbj_build_animations(db *d, const cJSON *arr);

/* dragonbones_v6.c */
bool sinew__dbj_constraint_name_taken(const sinew_model_armature *A, const char *name);
sinew_status sinew__dbj_build_v6_constraints(db *d, const cJSON *transform, const cJSON *physics);
sinew_status sinew__dbj_v6_mode(db *d, const cJSON *v, const char *key, double def, double *out);

/* dragonbones_global.c */
sinew_status sinew__dbj_convert_global(db *d);

#endif
