/* The Spine writer's shared parts (internal to src/export/spine_*.c): the conversion context, the
 * key lists, and the helpers the parts share. sinew_convert_spine is split along its steps:
 *   spine_write.c      the context's helpers, transforms, regions; the conversion (entry point)
 *   spine_setup.c      bones, slots, IK constraints, skins and attachments
 *   spine_timelines.c  animations: DragonBones timelines resampled into Spine keys
 *   spine_bake.c       IK chains and inherit modes Spine cannot reproduce, baked into keys
 *   spine_atlas.c      the .atlas text and copying the pages */
#ifndef SINEW_EXPORT_SPINE_INTERNAL_H
#define SINEW_EXPORT_SPINE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"
#include "model/model.h"
#include "sinew/convert.h"
#include "sinew/data.h"

#define SP_PI 3.141592653589793
#define RAD2DEG (180.0 / SP_PI)

typedef struct sp_ctx {
    const sinew_convert_options *o;
    const sinew_allocator *a;   /* the load options' allocator: every buffer but cJSON's tree */
    const char *input;
    const struct sinew_data *data;
    const sinew_model_armature *arm;
    const struct sinew_atlas *atlas;
    const sinew_model_animation *anim; /* for warnings */
    double time_scale;  /* the animation's `scale`: key times are multiplied by it */
    bool *ik_baked;     /* per IK: solved by sinew and written as keys instead (see bake_*) */
    bool *bone_baked;   /* per bone: in a baked IK chain */
    double *bone_setup; /* per baked bone: its Spine setup (x y rotation scaleX scaleY shearY) */
    uint32_t warnings;
    bool nomem;
    char **keys;        /* attachment key per display index of each slot (slot-major) */
    uint32_t *key_first; /* slot -> first entry in keys */
    uint32_t *key_count;
    uint32_t key_total;  /* entries of keys */
} sp_ctx;

/* A channel: how a Spine timeline's values come from a DragonBones timeline's key values. */
typedef struct channel {
    uint32_t n;                                          /* Spine values per key */
    void (*map)(const struct channel *ch, const float *raw, double *out);
    uint32_t idx[2];                                     /* raw value indices used by map */
    bool wrap_normalize;                                 /* rotation: last -> first takes the short way */
    double tol;
    const sinew_model_mesh *mesh;                        /* deform */
    const double *dm;                                    /* deform: display matrix (unweighted) */
    bool step;                                           /* every key holds (display timelines) */
} channel;

/* One Spine key: its time, whether it holds, and its values (at vals + i * n). */
typedef struct keylist {
    uint32_t count, cap, n;
    double *t;
    bool *stepped;
    double *vals;
} keylist;

/* A growing list of times (seconds). */
typedef struct sp_times {
    double *t;
    size_t n, cap;
} sp_times;

/* The clock a timeline runs on (see sinew__sp_clock_of). */
typedef struct sp_clock {
    double ts, off, D, clamp;
} sp_clock;

typedef struct sbuf {
    const sinew_allocator *a;
    char *p;
    size_t n, cap;
    bool bad;
} sbuf;

/* spine_write.c */
SINEW_PRINTF(2, 3)
void sinew__sp_warn(sp_ctx *c, const char *fmt, ...);
cJSON *sinew__sp_add_obj(sp_ctx *c, cJSON *parent, const char *key);
cJSON *sinew__sp_add_arr(sp_ctx *c, cJSON *parent, const char *key);
void sinew__sp_num(sp_ctx *c, cJSON *o, const char *key, double v);
void sinew__sp_num_time(sp_ctx *c, cJSON *o, double t);
void sinew__sp_str(sp_ctx *c, cJSON *o, const char *key, const char *v);
void sinew__sp_push_num(sp_ctx *c, cJSON *a, double v);
void sinew__sp_mat_apply(const double m[6], double x, double y, double *ox, double *oy);
void sinew__sp_display_mat(const sinew_model_display *dd, double m[6]);
const char *sinew__sp_inherit_name(const sinew_model_bone *b);
const char *sinew__sp_tex_key(const sinew_model_display *dd);
const sinew_model_region *sinew__sp_region_of(const sp_ctx *c, const sinew_model_display *dd);
float sinew__sp_texture_scale(const sp_ctx *c, const sinew_model_region *r);

/* spine_setup.c */
void sinew__sp_write_bones(sp_ctx *c, cJSON *root);
void sinew__sp_color_hex(double r, double g, double b, double a, char out[9]);
const char *sinew__sp_att_key(const sp_ctx *c, uint32_t s, int32_t idx);
bool sinew__sp_drawable(sinew_display_type t);
const sinew_model_display *sinew__sp_skin_display(const sp_ctx *c, uint32_t s, int32_t idx);
void sinew__sp_write_slots(sp_ctx *c, cJSON *root);
bool sinew__sp_nonuniform_scale(const sinew_model_armature *a, uint32_t b, const sinew_model_animation *an);
void sinew__sp_warn_inherit(sp_ctx *c, const sinew_model_animation *an);
void sinew__sp_warn_ik_scale(sp_ctx *c, const sinew_model_animation *an);
void sinew__sp_write_ik(sp_ctx *c, cJSON *root);
bool sinew__sp_build_keys(sp_ctx *c);
void sinew__sp_write_skins(sp_ctx *c, cJSON *root);

/* spine_timelines.c */
bool sinew__sp_kl_push(sp_ctx *c, keylist *kl, double t, bool stepped, const double *v);
void sinew__sp_kl_free(sp_ctx *c, keylist *kl);
bool sinew__sp_loops(const sinew_model_animation *an);
bool sinew__sp_build_local_keys(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl);
void sinew__sp_kl_thin(keylist *kl, double tol);
bool sinew__sp_times_push(sp_ctx *c, sp_times *l, double t);
void sinew__sp_times_sort(sp_times *l);
void sinew__sp_times_free(sp_ctx *c, sp_times *l);
void sinew__sp_clock_of(const sp_ctx *c, const sinew_model_timeline *T, sp_clock *k);
bool sinew__sp_clock_times(sp_ctx *c, const sp_clock *k, const double *tau, uint32_t count, sp_times *l);
void sinew__sp_write_kl(sp_ctx *c, cJSON *parent, const char *tl_name, const keylist *kl, const char *const *names);
void sinew__sp_bone_timeline(sp_ctx *c, cJSON *bones_obj, const sinew_model_timeline *T, bool keep_first);
void sinew__sp_slot_color_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T);
void sinew__sp_slot_display_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T);
void sinew__sp_ik_timeline(sp_ctx *c, cJSON *ik_obj, const sinew_model_timeline *T);
void sinew__sp_deform_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T);
void sinew__sp_zorder_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T);
void sinew__sp_events_of(sp_ctx *c, cJSON *anim_obj, cJSON *events_decl);

/* spine_bake.c */
void sinew__sp_bake_setup(sp_ctx *c);
void sinew__sp_bake_animation(sp_ctx *c, cJSON *anim_obj);
sinew_status sinew__sp_zorder_played(sp_ctx *c, const sinew_model_timeline *T, uint32_t *orders, uint32_t *later,
                                     sinew_error *e);
void sinew__sp_end_keys(sp_ctx *c, cJSON *anim_obj);
void sinew__sp_write_animations(sp_ctx *c, cJSON *root);

/* spine_atlas.c */
const char *sinew__sp_base_name(const char *p);
const char *sinew__sp_page_image(const sinew_model_page *pg);
bool sinew__sp_page_missing(const sinew_model_page *pg);
sinew_status sinew__sp_write_atlas_text(sp_ctx *c, const bool *page_used, sbuf *b, sinew_error *err);
sinew_status sinew__sp_copy_file(const sinew_allocator *a, const char *from, const char *to, const char *const *inputs,
                              uint32_t n, sinew_error *err);
bool sinew__sp_same_file(const char *a, const char *b);

#endif
