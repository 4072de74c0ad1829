/*
 * The DragonBones JSON writers' shared parts (internal to src/format/dragonbones_write*.c):
 * dragonbones_write.c writes the setup (armatures, bones, slots, skins, displays, constraints) and
 * the document for both formats, dragonbones_write45.c the 4.5 animations (4.x combined frames),
 * dragonbones_write55.c the 5.5 animations (the model's channels as they are).
 */
#ifndef SINEW_FORMAT_DRAGONBONES_WRITE_INTERNAL_H
#define SINEW_FORMAT_DRAGONBONES_WRITE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "base/error.h"
#include "format/dragonbones_write.h"

#define DBW_PI 3.141592653589793
#define DBW_DEG2RAD (DBW_PI / 180.0) /* the official Transform.DEG_RAD, as the loader's */

/* A weighted mesh without bonePose (5.5 per-influence weights, DBBin exporters' meshes) written
 * with the bind pose rebuilt from the setup pose (5.5 only; dragonbones_write.c). */
typedef struct dbw_rebind {
    bool ok;                   /* every influence and every deform key fits the setup bind pose */
} dbw_rebind;

typedef struct wctx {
    const sinew_db_write_options *o;
    const sinew_allocator *a;   /* o->allocator: every buffer but cJSON's tree (NULL = libc) */
    const struct sinew_data *data;
    const sinew_model_armature *arm;
    const sinew_model_animation *anim;
    sinew_error *err;
    bool nomem;
    bool exact;                 /* 5.5: numbers written so that they read back to the model's */
    uint32_t warnings;
    /* 5.5, per armature: the bones' setup world matrices (6 per bone) and each mesh's rebind */
    double *world;
    size_t world_size;
    dbw_rebind *rebind;
    size_t rebind_size;
} wctx;

/* dragonbones_write.c: JSON helpers (a failed allocation sets w->nomem) */
SINEW_PRINTF(2, 3) void sinew__dbw_warn(wctx *w, const char *fmt, ...);
double sinew__dbw_sig(double v, int digits);
double sinew__dbw_fnum(const wctx *w, float v);
cJSON *sinew__dbw_obj(wctx *w, cJSON *parent, const char *key);
cJSON *sinew__dbw_arr(wctx *w, cJSON *parent, const char *key);
void sinew__dbw_num(wctx *w, cJSON *o, const char *key, double v);
void sinew__dbw_str(wctx *w, cJSON *o, const char *key, const char *v);
void sinew__dbw_push_num(wctx *w, cJSON *a, double v);
void sinew__dbw_user_data(wctx *w, cJSON *o, const char *text);
double sinew__dbw_rad2deg(double r);
void sinew__dbw_transform_json(wctx *w, cJSON *parent, const sinew_transform *t, bool always);
void sinew__dbw_color_json(wctx *w, cJSON *parent, const char *key, const sinew_color_transform *c);
bool sinew__dbw_color_identity(const sinew_color_transform *c);
void sinew__dbw_actions_json(wctx *w, cJSON *parent, const char *key, uint32_t first, uint32_t count);
/* An ffd timeline's object (its display's name, slot and skin: the default skin's name written
 * only with `default_skin`), or NULL for a timeline naming no display. */
cJSON *sinew__dbw_ffd_object(wctx *w, cJSON *out, const sinew_model_timeline *tl, bool default_skin);
/* One action as an object of an action list (5.5 frames, defaultActions, slot and display actions). */
void sinew__dbw_action_json(wctx *w, cJSON *list, const sinew_model_action *ac, bool tagged);

/* The number with the fewest significant digits (1 to 17) rounded from `approx` for which ok()
 * holds (`ctx` is ok's), else `approx`: a value read back as the model holds it, written as the
 * source file most likely wrote it. */
double sinew__dbw_shortest(double approx, bool (*ok)(double candidate, const double *ctx), const double *ctx);
/* Degrees d for which d * DEG2RAD is `rad` exactly (normalised into (-pi, pi] when `normalize`),
 * the official parsers' reading of an angle, or the closest one. */
double sinew__dbw_degrees(double rad, bool normalize);

/* dragonbones_write.c: a curve (into the array `a`) whose official sampling gives the n samples `s`
 * (y x10000) of a DBBin source's curve */
void sinew__dbw_sampled_curve_json(wctx *w, cJSON *a, const float *s, uint32_t n);
/* dragonbones_write.c: whether c reads back as the float ctx[0] */
bool sinew__dbw_same_float(double c, const double *ctx);
/* whether skX c, after skY, reads back as the skew ctx[0] (ctx[1]: the skY read back, normalised;
 * ctx[2]: 1 compare as floats, 0 as doubles) */
bool sinew__dbw_same_skew(double c, const double *ctx);

/* ---- dragonbones_write55.c: 5.5 channels, for the model's keys and for a caller's own (a baker) -- */

typedef enum dbw55_channel { DBW55_TRANSLATE, DBW55_ROTATE, DBW55_SCALE } dbw55_channel;

typedef struct dbw55_tween {
    uint8_t type;              /* sinew_tween_type */
    bool has_easing;           /* quad: write `easing` as tweenEasing (else one from `strength`) */
    double easing;
    int32_t strength;          /* quad: the official x100 easing */
    const float *curve;        /* CURVE: the control points, or the official samples (y x10000) */
    uint32_t curve_count;
    bool sampled;              /* `curve` holds samples (a DBBin source): one per frame of the key + 1 */
} dbw55_tween;

typedef struct dbw55_key {
    double duration;           /* the frame's `duration` (the parser lays keys on the grid from these) */
    dbw55_tween tween;
    double v[2];               /* x, y / rotation, skew (radians) / scale x, y */
    bool exact;                /* rotate: write `degrees` and `clockwise` as they are (a JSON source's);
                                  otherwise v[0] is the angle unwrapped (the parser is made to follow
                                  the difference between keys, whatever it is) */
    double degrees;
    int32_t clockwise;
} dbw55_key;

/* Key k's tween as the official parser reads it from the source. */
void sinew__dbw55_tween_of(const sinew_model_animation *an, const sinew_model_keyframe *k, dbw55_tween *t);
/* A frame's tween keys (`tweenEasing` or `curve`). */
void sinew__dbw55_tween_json(wctx *w, cJSON *f, const dbw55_tween *t);
/* A bone channel (`translateFrame`, `rotateFrame`, `scaleFrame`) of n keys into a bone timeline
 * object: every key (a baker's sampled values too, with linear tweens) plays as given. */
void sinew__dbw55_channel_json(wctx *w, cJSON *entry, dbw55_channel kind, const dbw55_key *keys, uint32_t n);

/* dragonbones_write45.c / dragonbones_write55.c: one animation */
void sinew__dbw45_animation(wctx *w, cJSON *out, const sinew_model_animation *an);
void sinew__dbw55_animation(wctx *w, cJSON *out, const sinew_model_animation *an);
/* dragonbones_write.c: the slot-space deform delta written for vertex v of mesh `mesh` whose bind
 * pose was rebuilt (w->rebind[mesh].ok): its first influence's offset `d`, in that bone's space, turned
 * by the bone's setup matrix; `d` itself for any other mesh */
void sinew__dbw_rebind_delta(const wctx *w, uint32_t mesh, uint32_t v, const float d[2], double out[2]);

#define dbw_warn sinew__dbw_warn
#define dbw_sig sinew__dbw_sig
#define dbw_fnum sinew__dbw_fnum
#define dbw_obj sinew__dbw_obj
#define dbw_arr sinew__dbw_arr
#define dbw_num sinew__dbw_num
#define dbw_str sinew__dbw_str
#define dbw_push_num sinew__dbw_push_num
#define dbw_user_data sinew__dbw_user_data
#define dbw_rad2deg sinew__dbw_rad2deg
#define dbw_transform_json sinew__dbw_transform_json
#define dbw_color_json sinew__dbw_color_json
#define dbw_color_identity sinew__dbw_color_identity
#define dbw_actions_json sinew__dbw_actions_json

#endif
