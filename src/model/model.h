/*
 * The loaded data model (internal). This is the contract between the loaders (DragonBones JSON,
 * XML rigs), the runtime, the converter and the CLI. `struct sinew_data` is opaque in the public
 * API (include/sinew/data.h); everything in here is immutable once a load returns.
 *
 * Memory: one arena (`arena`) owns every array and string below. sinew_data_destroy frees it.
 * References: sub-objects refer to each other by uint32_t index into the owning array
 * (SINEW_INVALID_INDEX = none). Names are NUL-terminated UTF-8 in the arena.
 *
 * Units (converted at load): positions in data units (pixels at scale 1), angles in RADIANS,
 * time positions/durations of keyframes in FRAMES (of the armature's frameRate), animation
 * durations in frames too (seconds = frames / frame_rate). Colours: multipliers 0..1, offsets
 * -255..255.
 */
#ifndef SINEW_MODEL_H
#define SINEW_MODEL_H

#include "base/alloc.h"
#include "sinew/base.h"
#include "sinew/drawlist.h"

/* ---- transforms --------------------------------------------------------------------------- */

/* A decomposed 2D transform as DragonBones keeps it: rotation = skY, skew = skX - skY (both
 * normalised to (-pi, pi] at load), scales as factors. Matrix: a = cos(r)*sx, b = sin(r)*sx,
 * c = -sin(r+skew)*sy, d = cos(r+skew)*sy, tx = x, ty = y. */
typedef struct sinew_transform {
    float x, y, rotation, skew, scale_x, scale_y;
} sinew_transform;

/* ---- armature structure ------------------------------------------------------------------- */

typedef struct sinew_model_bone {
    const char *name;
    uint32_t parent;           /* index into the armature's bones; always < this bone's index;
                                  SINEW_INVALID_INDEX for a root */
    uint32_t file_index;       /* position in the file's `bone` array (weights refer to it; the
                                  loader already remapped weights to model indices) */
    sinew_transform setup;     /* local setup transform (relative to the parent) */
    double setup_d[6];         /* the same (x y rotation skew scale_x scale_y) in double, as the
                                  official parser computes them (the runtime uses these) */
    bool has_setup_d;          /* false: the runtime takes `setup` widened */
    float length;
    bool inherit_translation, inherit_rotation, inherit_scale, inherit_reflection;
    const char *user_data;     /* JSON text or NULL */
    /* A 5.5 surface (`type: "surface"`): no transform of its own, a lattice of
     * (segment_x + 1) x (segment_y + 1) points in its parent's space (armature space for a root),
     * row by row. Its children (bones, slots, meshes) are placed by the lattice cell they fall in
     * (pose.c). Plain bones: is_surface false, the rest empty. */
    bool is_surface;
    uint32_t segment_x, segment_y;
    uint32_t surface_value_count; /* 2 (segment_x + 1) (segment_y + 1) */
    double *surface_vertices;  /* as written (the official runtime keeps them in double) */
} sinew_model_bone;

typedef enum sinew_display_type {
    SINEW_DISPLAY_IMAGE = 0,
    SINEW_DISPLAY_ARMATURE,
    SINEW_DISPLAY_MESH,
    SINEW_DISPLAY_BOUNDING_BOX,
    SINEW_DISPLAY_PATH,
    SINEW_DISPLAY_SHAPE        /* 6.0 vector shape (the official DisplayType 5) */
} sinew_display_type;

/* An action as DragonBones attaches them to armatures (defaultActions), slots, displays and
 * frames, plus frame events and sounds. */
typedef enum sinew_action_type {
    SINEW_ACTION_PLAY = 0,          /* gotoAndPlay / play: `name` is the animation */
    SINEW_ACTION_STOP,              /* gotoAndStop / stop */
    SINEW_ACTION_FADE_IN,
    SINEW_ACTION_FRAME_EVENT,       /* `event`: `name` is the event name */
    SINEW_ACTION_SOUND              /* `sound`: `name` is the sound name */
} sinew_action_type;

typedef struct sinew_model_action {
    sinew_action_type type;
    const char *name;          /* animation / event / sound name ("" if none) */
    uint32_t bone;             /* bone it is tagged with, or SINEW_INVALID_INDEX */
    uint32_t slot;             /* slot it is tagged with (child-armature target), or INVALID */
    int32_t play_times;        /* for PLAY: -1 = the data's playTimes */
    float time;                /* for goto*: a time in seconds, progress or frame, see `goto_kind` */
    uint8_t goto_kind;         /* 0 none, 1 time (s), 2 frame, 3 progress */
    int32_t *ints;       /* 5.x event user data */
    float *floats;
    const char *const *strings;
    uint32_t int_count, float_count, string_count;
    uint8_t from_bone_frame;   /* 1: written in a 4.x bone frame (not an animation frame that
                                  merely names a bone); the runtime merges it per bone timeline */
} sinew_model_action;

typedef struct sinew_model_slot {
    const char *name;
    uint32_t parent;           /* bone index */
    int32_t display_index;     /* setup display index; -1 = hidden */
    sinew_blend_mode blend;
    sinew_color_transform color;
    int32_t z;                 /* 4.x `z` (defaults to the array index); slots are stored in
                                  setup draw order already */
    double z_index;            /* 6.0 files: `zIndex` (default 0; the draw order sorts by zIndex * 1000 +
                                  z order); 0 in other files (their runtime does not read it) */
    uint32_t first_action, action_count; /* into sinew_model_armature.actions */
    const char *user_data;
} sinew_model_slot;

/* Mesh geometry. Vertices/uvs are pairs; triangles are index triples. */
typedef struct sinew_model_mesh {
    uint32_t vertex_count;
    float *vertices;           /* 2*vertex_count, as written: slot-space setup positions (for
                                  weighted meshes, slot_pose maps them to armature space at bind
                                  time; layout 2 files have no per-vertex positions: zeros) */
    float *uvs;          /* 2*vertex_count, normalised within the atlas region */
    uint32_t triangle_count;
    uint32_t *triangles; /* 3*triangle_count, each < vertex_count */
    uint32_t edge_count;       /* editor-only data, kept for re-export */
    uint32_t *edges;     /* 2*edge_count */
    uint32_t user_edge_count;
    uint32_t *user_edges;
    float width, height;       /* optional display size (0 if absent) */

    /* Skinning. weighted == false: every field below is empty. */
    bool weighted;
    uint8_t weight_layout;     /* 0 = per-vertex [count, bone, w, ...] (real files, seed 003),
                                  1 = triples [vertex, bone, w, ...] (seeds 000/001),
                                  2 = 5.5 per-influence vertices without bonePose */
    uint32_t influence_count;
    uint32_t *vertex_first_influence; /* vertex_count + 1 prefix offsets into influences */
    uint32_t *influence_bone;   /* model bone index per influence */
    float *influence_weight;
    float *influence_local;     /* 2 per influence: bind position in the bone's space,
                                         = inverse(bonePose) * (slotPose * vertex) */
    float *influence_deform;    /* 4 per influence: the 2x2 linear map [a b c d] taking a
                                         slot-space ffd delta to a bone-space delta:
                                         inverse(bonePose.linear) * slotPose.linear */
    sinew_affine slot_pose;            /* as given (identity when absent) */
    uint32_t bone_pose_count;          /* as given, for re-export */
    uint32_t *bone_pose_bone;    /* model bone index */
    sinew_affine *bone_pose;
    /* Derived by sinew__model_prepare (runtime), not by loaders: */
    uint32_t run_bone_count;           /* distinct bones the influences use */
    uint32_t *run_bones;
    float *run_skin;                   /* 8 per influence, grouped by bone (run_skin_groups):
                                          wx wx wy wy w w (bind position premultiplied by the
                                          weight, paired for 2-lane vector maths), the output
                                          float index 2*vertex as float bits, 0 */
    uint32_t run_skin_group_count;
    uint32_t *run_skin_groups;         /* 2 per group: bone world matrix offset (6*bone), number
                                          of run_skin records of that bone */
    float *run_skin_deform;            /* 8 per influence, in influence (vertex) order: wx wx wy
                                          wy w w, offset (6*bone) as float bits, 0; then (next
                                          8) w * influence_deform [a b c d] paired as a a b b c c
                                          d d. NULL when the mesh has no influence_deform */
    float *run_skin4;                  /* run_skin in pairs of the same bone for 4-lane vector maths,
                                          16 per pair: wx0 wx0 wx1 wx1, wy0 wy0 wy1 wy1, w0 w0 w1
                                          w1, output indices 2*vertex0 and 2*vertex1 as float bits,
                                          0, 0. A lone record (odd count, or both of one vertex)
                                          has a zero second half with vertex1 = vertex0 */
    uint32_t *run_skin4_groups;        /* 2 per run_skin group: matrix offset, number of pairs */
} sinew_model_mesh;

/* A boundingBox's shape (the official subType). */
enum { SINEW_BBOX_RECTANGLE = 0, SINEW_BBOX_ELLIPSE = 1, SINEW_BBOX_POLYGON = 2 };

typedef struct sinew_model_display {
    sinew_display_type type;
    const char *name;
    const char *path;          /* texture key (images, meshes) or child armature name; equals
                                  `name` when the file gives no path */
    sinew_transform transform; /* display transform in slot space */
    float pivot_x, pivot_y;    /* fraction of the untrimmed image; default 0.5 */
    uint32_t armature;         /* ARMATURE: child armature index in sinew_data, or INVALID */
    uint32_t mesh;             /* MESH: index into sinew_model_armature.meshes */
    uint32_t first_action, action_count; /* ARMATURE display actions */
    float *bbox_vertices; /* BOUNDING_BOX: polygon pairs (a rectangle's four corners) */
    uint32_t bbox_vertex_count;
    uint32_t path_data;        /* PATH: index into sinew_model_armature.paths, or INVALID */
    uint8_t bbox_shape;        /* BOUNDING_BOX: the official subType, SINEW_BBOX_* */
    float bbox_width, bbox_height; /* rectangle and ellipse: the size, centred on the slot's origin */
    uint32_t bbox_color;       /* the editor's colour (0xRRGGBB), kept for re-export */
    /* 6.0: image and shape displays that mask the display objects drawn after their slot */
    bool mask;                 /* `mask` (default false) */
    double mask_range;         /* `maskRange` as written (default 0): the official adapters make the
                                  slot the mask of its next ceil(mask_range) display objects when
                                  mask_range > 0 */
    uint32_t shape;            /* SHAPE: index into sinew_model_armature.shapes; the shape's control
                                  points are the geometry of `mesh` (a mesh without UVs or
                                  triangles: skinned and deformed as meshes are) */
} sinew_model_display;

/* Path geometry (PATH displays): cubic Bezier splines as the editor writes them, three points per
 * anchor (in-control, anchor, out-control). Vertex positions and weights are float as the
 * official runtime stores them; `lengths` stay double (it keeps them as JS numbers). */
typedef struct sinew_model_path {
    bool closed;               /* `closed` (default false) */
    bool constant_speed;       /* `constantSpeed` (default false) */
    uint32_t vertex_count;     /* `vertexCount`: points, a multiple of 3 */
    uint32_t value_count;      /* floats in `vertices`: 2*vertex_count unweighted, 2 per influence
                                  (bone-space bind positions) weighted */
    float *vertices;
    uint32_t length_count;
    double *lengths;           /* `lengths`: the editor's cumulative curve lengths */
    bool weighted;             /* `weights` given; the fields below are empty otherwise */
    uint32_t bone_count;
    uint32_t *bones;           /* `bones`: model bone index per entry */
    uint32_t *vertex_first_influence; /* vertex_count + 1 prefix offsets into the influences */
    uint32_t influence_count;
    uint32_t *influence_bone;  /* index into `bones` (not a model bone index) */
    float *influence_weight;
    float *influence_deform;   /* weighted paths given with `slotPose`/`bonePose` (their `vertices`
                                  are then 2 per point in slot space, bound at load): 4 per
                                  influence, the 2x2 map taking a slot-space deform delta into the
                                  bone's space, as meshes have; NULL for paths given with `bones`
                                  (their `vertices` are already per influence) */
    bool posed;                /* given with `bonePose` (influence_deform set) */
} sinew_model_path;

/* A 6.0 vector shape's drawing (SHAPE displays). Its control points are a mesh geometry
 * (sinew_model_display.mesh): 6 floats per Bezier point, in-control (x, y), anchor (x, y),
 * out-control (x, y), so three mesh vertices per point. Each path starts at the anchor of its first
 * index and draws a cubic to the anchor of each next index (from the previous point's out-control
 * through this point's in-control); it is closed only when it repeats its first index. */
typedef struct sinew_model_shape_path {
    uint32_t first_index, index_count; /* into sinew_model_shape.indexes (Bezier point indices) */
    bool has_fill, has_stroke;
    uint32_t fill_color;       /* 0xRRGGBB (`fill.color`, default 0) */
    float fill_opacity;        /* `fill.opacity` (default 1) */
    uint32_t stroke_color;     /* `stroke.color` (default 0) */
    float stroke_opacity;      /* `stroke.opacity` (default 0, as the official adapters read it) */
    float stroke_width;        /* `stroke.width` (default 1) */
    const char *stroke_type;   /* `stroke.type` as written, or NULL (kept for re-export) */
} sinew_model_shape_path;

typedef struct sinew_model_shape {
    uint32_t point_count;      /* Bezier points: the geometry's vertex_count / 3 */
    uint32_t path_count;
    sinew_model_shape_path *paths;
    uint32_t index_count;
    uint32_t *indexes;         /* every path's point indices, each < point_count */
} sinew_model_shape;

/* A 6.0 transform constraint (`armature.transform`): each listed bone's world transform blended
 * towards its target's (docs/dragonbones-6.0.md section 6). */
typedef struct sinew_model_transform_constraint {
    const char *name;
    uint32_t target;           /* the driving bone */
    uint32_t bone_count;
    uint32_t *bones;           /* the constrained bones that exist, in file order */
    double offset_x, offset_y; /* `offset.x`, `offset.y` (data units) */
    double offset_rotation;    /* `offset.skX` in radians, normalised; 0 when absent */
    double offset_scale_x, offset_scale_y; /* `offset.scX`, `offset.scY` (added, default 0) */
    double translate_weight, rotate_weight, scale_weight; /* default 0 */
    bool local;                /* the target's transform in its parent's space */
    bool relative;             /* parsed, unused by the official runtime */
} sinew_model_transform_constraint;

/* A 6.0 physics constraint (`armature.physics`): a spring simulation on one bone's world
 * transform (docs/dragonbones-6.0.md section 5). Every field as written, with the official
 * defaults (all 0 but fps 1). */
typedef struct sinew_model_physics {
    const char *name;
    uint32_t bone;
    double x, y, rotate, shear_x, scale_x, limit, fps, inertia, strength, damping, mass, wind,
        wind_disturbance, gravity, weight;
} sinew_model_physics;

typedef enum sinew_path_position_mode {
    SINEW_PATH_POSITION_FIXED = 0,
    SINEW_PATH_POSITION_PERCENT
} sinew_path_position_mode;

typedef enum sinew_path_spacing_mode {
    SINEW_PATH_SPACING_LENGTH = 0,
    SINEW_PATH_SPACING_FIXED,
    SINEW_PATH_SPACING_PERCENT
} sinew_path_spacing_mode;

typedef enum sinew_path_rotate_mode {
    SINEW_PATH_ROTATE_TANGENT = 0,
    SINEW_PATH_ROTATE_CHAIN,
    SINEW_PATH_ROTATE_CHAIN_SCALE,
    SINEW_PATH_ROTATE_SNIP     /* 6.0: chain without the tip correction */
} sinew_path_rotate_mode;

/* An armature `path` constraint: bones laid along the path display of a slot. */
typedef struct sinew_model_path_constraint {
    const char *name;
    uint32_t slot;             /* `target`: the slot showing the path */
    uint32_t display;          /* its display (default skin, named `targetDisplay`, default the slot
                                  name), index into sinew_model_armature.displays */
    uint32_t path;             /* that display's path, index into sinew_model_armature.paths */
    const char *target_display; /* `targetDisplay` as written, or NULL (for re-export) */
    uint32_t root;             /* the first bone: the constraint runs at its turn of the bone loop */
    uint32_t bone_count;
    uint32_t *bones;           /* `bones` that exist, in file order */
    uint8_t position_mode;     /* sinew_path_position_mode (official default: percent) */
    uint8_t spacing_mode;      /* sinew_path_spacing_mode (default: length) */
    uint8_t rotate_mode;       /* sinew_path_rotate_mode (default: tangent) */
    double position, spacing;  /* data units, or fractions of the path length in percent modes */
    double rotate_offset;      /* degrees */
    double rotate_mix, translate_mix; /* default 1; a 6.0 file: rotate_mix is `rotateWeight`,
                                  translate_mix stays 1 (its x and y weights below apply) */
    double x_weight, y_weight; /* 6.0 `xWeight`, `yWeight` (default 1); a 5.x file: translate_mix */
} sinew_model_path_constraint;

/* One slot's display list inside one skin. */
typedef struct sinew_model_skin_slot {
    uint32_t slot;             /* slot index */
    uint32_t first_display;    /* into sinew_model_armature.displays */
    uint32_t display_count;
} sinew_model_skin_slot;

typedef struct sinew_model_skin {
    const char *name;          /* "" (stored as "") is the default skin */
    uint32_t source_index;     /* position in the file's skin list (the default skin is stored
                                  first whatever its position there); INVALID for XML rigs */
    uint32_t first_slot;       /* into sinew_model_armature.skin_slots */
    uint32_t slot_count;
} sinew_model_skin;

typedef struct sinew_model_ik {
    const char *name;
    uint32_t bone;             /* end bone */
    uint32_t target;           /* target bone */
    uint32_t root;             /* chain root (the bone itself for chain 0, its parent for 1) */
    uint32_t chain;            /* 0 or 1 */
    bool bend_positive;
    bool scale;
    float weight;
} sinew_model_ik;

/* ---- animations ----------------------------------------------------------------------------- */

typedef enum sinew_tween_type {
    SINEW_TWEEN_NONE = 0,      /* step: hold until the next keyframe */
    SINEW_TWEEN_LINEAR,
    SINEW_TWEEN_QUAD_IN,
    SINEW_TWEEN_QUAD_OUT,
    SINEW_TWEEN_QUAD_IN_OUT,
    SINEW_TWEEN_CURVE          /* Bezier `curve` */
} sinew_tween_type;

typedef struct sinew_model_keyframe {
    float position;            /* start in frames: the sum of the raw durations before it */
    float duration;            /* the raw `duration` as written (default 1). The runtime derives
                                  the effective span itself (the official parser re-times keys
                                  on an integer frame grid and stretches the last one to the
                                  animation end) */
    uint8_t tween;             /* sinew_tween_type */
    float tween_easing;        /* the raw tweenEasing value (NaN when absent), for re-export */
    float strength;            /* quad strength e, rounded to 0.01 */
    uint32_t curve_first;      /* CURVE: raw control points in sinew_model_animation.curves */
    uint32_t curve_count;
    uint8_t curve_sampled;     /* CURVE from DBBin: curves[curve_first..+curve_count) are already
                                  the easing samples (y*10000, frame_span+1 of them, the binary's
                                  own), which sinew__model_prepare takes as they are */
    uint32_t sample_first;     /* CURVE: easing samples, filled by sinew__model_prepare: frame_span+1
                                  values of y*10000 rounded to integers (the official sampling) */
    uint32_t sample_count;
    int32_t tween_rotate;      /* 4.x tweenRotate / 5.x clockwise of THIS keyframe (raw) */
    uint32_t value;            /* first value of this keyframe in the timeline's value pool */
    uint32_t first_action, action_count; /* actions fired at this keyframe (slot display frames) */
    /* 4.0-only slot-frame keys, kept for re-export (filled by the JSON loader): */
    int8_t hide;               /* `hide`: -1 absent, 0 or 1 */
    bool has_z_order;          /* `zOrder` present on a 4.0 slot frame */
    int32_t z_order;
    /* Derived by sinew__model_prepare (runtime), not by loaders: */
    uint32_t frame_start;      /* start on the official parser's integer frame grid */
    uint32_t frame_span;       /* frames until the next key; the last key spans to the animation end */
} sinew_model_keyframe;

typedef enum sinew_timeline_type {
    SINEW_TL_BONE_ALL = 0,     /* 4.x bone frames: x, y, rotation, skew, scale_x, scale_y (deltas
                                  from setup; scales are factors). 6 values per key */
    SINEW_TL_BONE_TRANSLATE,   /* 5.x translateFrame: x, y. 2 values */
    SINEW_TL_BONE_ROTATE,      /* 5.x rotateFrame: rotation, skew (radians). 2 values */
    SINEW_TL_BONE_SCALE,       /* 5.x scaleFrame: x, y factors. 2 values */
    SINEW_TL_SLOT_DISPLAY,     /* display index (-1 hidden). 1 value, always step */
    SINEW_TL_SLOT_COLOR,       /* a_mul r_mul g_mul b_mul a_add r_add g_add b_add. 8 values */
    SINEW_TL_FFD,              /* deform deltas: 2*mesh.vertex_count values per key, the full
                                  array (offset/vertices expanded, zeros elsewhere), slot space */
    SINEW_TL_IK,               /* weight, bend_positive (0/1). 2 values */
    SINEW_TL_ZORDER,           /* draw order per key: slot_count values (slot indices stored as
                                  floats, back to front); a key with no zOrder = setup order */
    SINEW_TL_SURFACE,          /* surface lattice offsets: the surface's surface_value_count values
                                  per key (offset/vertices expanded, zeros elsewhere) */
    /* 6.0 (animation `shape` and `path` arrays): */
    SINEW_TL_SHAPE,            /* a vector shape's deform: as FFD, over the shape's geometry (`mesh`:
                                  2 values per control point, slot space) */
    SINEW_TL_PATH_DEFORM,      /* a path display's deform: 2 values per path point (slot space, as
                                  FFD); target the slot, display the path display */
    SINEW_TL_PATH_POSITION,    /* a path constraint's position (target: the path constraint). 1 value */
    SINEW_TL_PATH_SPACING,     /* its spacing. 1 value */
    SINEW_TL_PATH_WEIGHT,      /* its rotate, x and y weights. 3 values */
    SINEW_TL_SLOT_ZINDEX       /* 6.0 files (a generic `timeline` of type 23): a slot's zIndex. 1 value */
} sinew_timeline_type;

typedef struct sinew_model_timeline {
    sinew_timeline_type type;
    uint32_t target;           /* bone (a surface for SURFACE), slot, or IK index (unused for ZORDER) */
    uint32_t skin;             /* FFD: skin index */
    uint32_t display;          /* FFD: index into sinew_model_armature.displays */
    uint32_t mesh;             /* FFD: mesh index */
    float scale;               /* timeline scale (default 1) */
    float offset;              /* timeline offset, fraction of the animation duration (default 0) */
    uint32_t first_key, key_count;   /* into sinew_model_animation.keys */
    uint32_t values_per_key;
    float *values;       /* key_count * values_per_key, raw as in the file (radians,
                                  not unwrapped: the runtime's prepare pass unwraps rotations) */
    bool rotation_plain;       /* rotations tween as plain numbers (XML rigs), never wrapped */
    bool rotation_unwrapped;   /* rotations are stored unwrapped already (DBBin: the official parser's
                                  values, tweenRotate/clockwise applied): prepare keeps them */
    const double *rotation_exact; /* JSON rotation timelines (NULL elsewhere): each key's rotation in
                                  radians as the official parser holds it before unwrapping, in
                                  double. Unwrapping a half turn from the float in `values` can
                                  turn the other way: its last bit decides (docs/runtime.md) */
    float pivot_x, pivot_y;    /* 4.0 bone timeline `pX`/`pY` (0 when absent), kept for re-export */
    /* 6.0 `timelineConfig` of the timeline's frame array, as the official parser stores it in its
     * 16-bit timeline array (JavaScript rounding, then wrapped to 16 bits). A 5.x file: 100, 0, 0. */
    uint16_t cfg_scale;        /* round(scale * 100); the runtime plays scale cfg_scale * 0.01 */
    int16_t cfg_offset;        /* round(offset): frames */
    uint8_t cfg_loop;          /* loop (0 or 1) */
    uint16_t cfg_duration;     /* the timeline's own length in frames: its frames' durations summed (a
                                  frame without `duration` counts 1), 16 bits; 6.0 files only */
    /* Derived by sinew__model_prepare (runtime), not by loaders: */
    uint32_t grid_key_count;   /* keys that fit the frame grid (the official parser drops the rest) */
    uint32_t *frame_keys;      /* animation frame_count + 1 entries: key index at each whole frame;
                                  NULL when grid_key_count < 2 */
    float *run_values;         /* values_per_key * key_count, as played: rotations unwrapped, colour
                                  multipliers x100 and offsets rounded, IK weight x100 rounded */
    struct sinew_model_run_key *run_keys; /* grid_key_count: each key as the runtime plays it */
    uint8_t run_kind;          /* the runtime's timeline kind (TLK_* in anim/runtime_internal.h) */
    uint8_t run_chan;          /* bone timelines of 2 values: their first pose channel (0 translate,
                                  2 rotate/skew, 4 scale); 0xff otherwise */
    uint8_t run_follow;        /* plays on its animation's clock: more than one grid key, no
                                  timeline scale or offset (as stored, see the runtime) */
} sinew_model_timeline;

/* A key as the runtime plays it (derived by sinew__model_prepare): what the official
 * TweenTimelineState computes on arriving at the key, and where it is current. One cache line. */
typedef struct sinew_model_run_key {
    double frame_pos;          /* start in seconds: frame_start / frame rate */
    double dur_r;              /* 1 / its span in seconds (the last key: to the animation end); 0
                                  for a key without span */
    double delta[2];           /* 2-channel bone timelines (run_chan != 0xff): the tween's change
                                  of the two values towards the next key, (double)next - this
                                  (the first key's after the last: the rotation normalised unless
                                  rotation_plain); 0 otherwise */
    float value[2];            /* 2-channel bone timelines: the key's two values (run_values) */
    float easing;              /* the quad strength as the official runtime rounds tweenEasing */
    uint32_t frame_first, frame_end; /* the whole frames at which the key is current: frame_keys
                                  holds it in [frame_first, frame_end) (both 0 when it never is) */
    uint32_t sample_first;     /* CURVE: its easing samples in the animation's samples */
    uint32_t sample_count;
    uint8_t tween;             /* the tween played: NONE for a key without span, LINEAR for a CURVE
                                  without samples */
    uint8_t chan;              /* the timeline's run_chan */
    uint8_t last;              /* the last key on the frame grid */
} sinew_model_run_key;

typedef struct sinew_model_action_frame {
    float position;            /* in frames */
    uint32_t first_action, action_count; /* into sinew_model_armature.actions */
} sinew_model_action_frame;

/* One merge of frame actions as the official parser performs it: one per action key (event,
 * sound, action, events, actions) present on an animation frame, a 4.x bone frame or a slot
 * display frame, in the parser's order (animation frames, then bone timelines, then slot
 * timelines, each in file order), even when the key yields no action: the runtime rebuilds the
 * parser's action-frame list from these (sinew__model_prepare). */
typedef struct sinew_model_merge_unit {
    uint8_t source;            /* 0 animation frame, 1 bone frame, 2 slot display frame */
    float position;            /* animation frames: the frame's position (frames) */
    uint32_t timeline, key;    /* bone / slot frames: the keyframe (its grid start is used) */
    uint32_t first, count;     /* into sinew_model_animation.merge_index */
} sinew_model_merge_unit;

typedef struct sinew_model_animation {
    const char *name;
    float duration;            /* frames; may be 0 */
    int32_t play_times;        /* 0 = loop forever */
    double fade_in_time;       /* seconds; <0 when absent (double: the runtime compares it with
                                  double fade times, where 0.3f != 0.3) */
    double scale;              /* default 1 */
    uint32_t first_timeline, timeline_count; /* into sinew_model_armature.timelines */
    uint32_t key_count;
    sinew_model_keyframe *keys;
    uint32_t curve_count;
    float *curves;       /* raw Bezier control points of all keys */
    double *curves_d;          /* 6.0 files: the same as written, in double (the official parser samples
                                  them as JS numbers; 0.3f is not 0.3); NULL for other files */
    uint32_t sample_count;
    float *samples;      /* precomputed easing samples of all CURVE keys */
    uint32_t action_frame_count;
    sinew_model_action_frame *action_frames; /* sorted by position; merged from animation
                                  frames, bone-frame events/sounds and slot-frame actions */
    uint32_t merge_unit_count;  /* 0: derive the merges from action_frames (XML rigs) */
    sinew_model_merge_unit *merge_units;
    uint32_t *merge_index;      /* action indices (into the armature's actions) of merge_units */
    const char *user_data;
    int8_t auto_tween;         /* 4.0 `autoTween`: -1 absent, 0 or 1 (kept for re-export) */
    /* Derived by sinew__model_prepare (runtime), not by loaders: */
    uint32_t frame_count;      /* max(1, duration) whole frames, as the official runtime counts */
    uint32_t run_action_frame_count;
    sinew_model_action_frame *run_action_frames; /* action frames as the official parser merges
                                  them (empty frame at 0, its insertion order), on the frame grid;
                                  first_action/action_count index run_action_index */
    uint32_t *run_action_index;  /* action indices (into the armature's actions) of run_action_frames */
    uint32_t *action_frame_keys; /* frame_count + 1 entries, NULL if run_action_frame_count < 2 */
    uint8_t *run_covered;       /* bone_count + slot_count + ik_count of the armature: per bone, slot
                                  and IK constraint, the kinds of timeline this animation has for
                                  it (the runtime's COV_* bits) */
} sinew_model_animation;

typedef struct sinew_model_armature {
    const char *name;
    const char *type;          /* "Armature", "MovieClip", "Stage" */
    float frame_rate;          /* resolved: armature value, else the file's, 0 -> 24 */
    const char *user_data;
    sinew_affine aabb;         /* unused; aabb x,y,width,height kept in a,b,c,d for re-export */
    bool has_aabb;
    bool has_canvas, canvas_background; /* 5.x `canvas`; a background when it gives a colour */
    uint32_t canvas_color;              /* 0xRRGGBB */
    float canvas_x, canvas_y, canvas_width, canvas_height;
    uint32_t bone_count, slot_count, skin_count, display_count, skin_slot_count, mesh_count,
        ik_count, animation_count, timeline_count, action_count;
    uint32_t ignored_ik_count;  /* IK entries of the file dropped at load (no bone or target key) */
    bool v6;                   /* the file's v6 (sinew_data.v6), for the runtime */
    uint32_t shape_count;      /* SHAPE displays' drawings (6.0) */
    sinew_model_shape *shapes;
    uint32_t transform_constraint_count, physics_count; /* 6.0 constraints, in the order the
                                  official runtime creates them (its constraint map's key order) */
    sinew_model_transform_constraint *transform_constraints;
    sinew_model_physics *physics;
    uint32_t ignored_constraint_count; /* 6.0 transform and physics entries dropped at load, as
                                  officially (no target or bone, a name taken) */
    uint32_t path_count, path_constraint_count;
    uint32_t ignored_path_constraint_count; /* `path` entries dropped at load, as officially */
    sinew_model_path *paths;          /* geometry of the PATH displays */
    sinew_model_path_constraint *path_constraints; /* file order: the order they run per root */
    sinew_model_bone *bones;          /* parents first */
    sinew_model_slot *slots;          /* setup draw order */
    sinew_model_skin *skins;          /* the default skin (name "") first when present */
    sinew_model_skin_slot *skin_slots;
    sinew_model_display *displays;
    sinew_model_mesh *meshes;
    sinew_model_ik *iks;              /* in the order the runtime solves them */
    sinew_model_animation *animations;
    sinew_model_timeline *timelines;
    sinew_model_action *actions;      /* every action list of this armature */
    uint32_t first_default_action, default_action_count; /* into actions */
    uint32_t default_animation;             /* resolved default: defaultActions' play, else 0,
                                               INVALID if there is no animation */
    /* Derived by sinew__model_prepare (runtime), not by loaders: */
    uint32_t *bone_order;      /* update order: parents first, IK targets before the IK root
                                  (the official sortBones walk) */
    uint32_t max_anim_timelines; /* most timelines in one animation */
    uint8_t *run_ik_root;      /* per bone: bit 0 (1) the root of an IK constraint, bit 1 (2) the
                                  root of a path constraint */
    struct sinew_model_bone_step *run_bone_steps; /* bone_count, in bone_order: what the bone
                                  loop reads per bone, contiguous */
    double *run_bone_setup;    /* bone_count x 6 (x y rotation skew scale_x scale_y), by bone index */
    uint32_t surface_count;    /* bones that are surfaces */
    uint32_t *run_surface;     /* per bone: its index among the surfaces, or INVALID */
    double *run_display_matrix; /* display_count x 6: each display's transform as a matrix (a b c d
                                  tx ty; the local matrix of a slot showing it) */
    uint32_t *run_slot_deform; /* slot_count x 2: where a slot's deform and mesh vertices start in
                                  an instance's arrays (floats), and how many it may hold (2 per
                                  vertex of the largest mesh any skin gives it) */
    uint32_t run_deform_floats; /* the sum of those capacities */
    uint32_t run_dl_vertices, run_dl_indices; /* the most vertices and indices one draw list of the
                                  armature's slots can hold (4 and 6 per image, its vertices and
                                  3 per triangle per mesh, a 6.0 shape's tessellation bound
                                  (anim/shape_tess.h): the largest display of each slot) */
    uint32_t run_dl_cmds;      /* the most draw commands its slots can make (1 per slot; a 6.0 shape
                                  that is not a mask: a stroke and a fill per path) */
    uint32_t run_shape_points, run_shape_contours, run_shape_ctrl; /* the largest shape: flattened
                                  points, contours and Bezier points (the draw list's scratch) */
    /* Derived by sinew__model_prepare for a 6.0 armature (v6), NULL otherwise (anim/prepare6.c): */
    uint32_t *run_tc_of;       /* per bone: the transform constraint attached to it (the official
                                  bone's _transformConstraint: the last one created for it), or INVALID */
    uint32_t *run_tc_notify;   /* per bone: the bone whose attached transform constraint a recompute of
                                  this bone dirties as its target (the official bone's
                                  _targetTransformConstraint, the last created with it as target, when
                                  that one is some bone's attached constraint), or INVALID */
    uint32_t *run_physics_of;  /* per bone: its physics constraint (the last one created), or INVALID */
    uint32_t *run_constraint_order; /* ik_count + path_constraint_count entries: the IK (index) and path
                                  (index | 0x80000000) constraints in the official armature's constraint
                                  list order, the order a root bone runs them */
    bool run_has_masks;        /* some image or shape display is a mask (mask, mask_range > 0) */
    /* Derived for a 6.0 armature (anim/deform6.c): its deforms kept per display frame and blended as
     * upstream does. Per display, where its deform lives in an instance's display-frame pool (float
     * offset, count: 2 per point of a mesh, shape or path geometry; 0 for other displays); per display
     * and per slot the id of its name among the armature's display and slot names (the official
     * blend states of deforms are keyed by those names). */
    uint32_t *run_frame_deform; /* display_count x 2 */
    uint32_t run_frame_deform_floats;
    uint32_t *run_blend_key;   /* display_count + slot_count */
    uint32_t run_blend_keys;   /* distinct names */
    uint32_t run_shape_geom0;  /* the mesh (geometry) of the shape display whose geometry the official
                                  parser wrote first in the file (offset 0, what its shape pose timelines
                                  compare with), or INVALID */
} sinew_model_armature;

/* One bone of the runtime's bone loop (derived by sinew__model_prepare). */
typedef struct sinew_model_bone_step {
    uint32_t bone, parent;     /* parent SINEW_INVALID_INDEX for a root */
    uint8_t plain;             /* a bone parent, inheriting translation, rotation and scale */
    uint8_t surface;           /* the bone is a surface */
    uint8_t ik_root;           /* run_ik_root of the bone: 1 IK root, 2 path root (bits) */
    double setup[6];           /* x y rotation skew scale_x scale_y */
} sinew_model_bone_step;

/* The whole loaded file. */
struct sinew_data {
    sinew_arena arena;
    const char *name;
    const char *version;        /* as written, e.g. "4.5" */
    const char *compatible_version; /* or NULL */
    float frame_rate;
    bool is_global;             /* the file said isGlobal: 1 (already converted to local) */
    bool v6;                    /* `version` or `compatibleVersion` is 6.0: the file plays as the
                                   official 6.0.2 runtime plays it (docs/dragonbones-6.0.md here:
                                   docs/runtime.md "DragonBones 6.0"); 4.0-5.6 files as 5.x */
    const char *user_data;
    uint32_t armature_count;
    sinew_model_armature *armatures;
    const char *source_format;  /* "dragonbones" or "xml" */
    const char *stage;          /* 5.x top-level `stage`: the armature the editor shows, or NULL */
};

/* ---- texture atlas -------------------------------------------------------------------------- */

typedef struct sinew_model_region {
    const char *name;
    uint32_t page;
    float x, y, width, height; /* stored region in page pixels (width/height as stored) */
    bool rotated;              /* stored rotated by 90 degrees; the display size is swapped */
    bool has_frame;            /* frameWidth > 0 and frameHeight > 0 */
    float frame_x, frame_y, frame_width, frame_height;
} sinew_model_region;

typedef struct sinew_model_page {
    const char *name;
    const char *image_path;     /* as written in the atlas JSON */
    const char *resolved_path;  /* image_path joined to the atlas file's folder */
    uint32_t width, height;     /* 0 when the atlas does not say */
    float scale;                /* default 1 */
} sinew_model_page;

struct sinew_atlas {
    sinew_arena arena;
    uint32_t page_count, region_count;
    sinew_model_page *pages;
    sinew_model_region *regions;   /* sorted by name for binary search */
};

/* Whether a JavaScript object enumerates the key `s` before its other keys: an array index ("0",
 * "17"; no sign or leading zero, below 2^32 - 1), which comes first, in numeric order (*out). The
 * official runtime keeps its constraints in such an object, keyed by name. */
bool sinew__js_index_key(const char *s, uint32_t *out);

/* Finds a region by name (binary search); SINEW_INVALID_INDEX if absent. */
uint32_t sinew__atlas_find_region(const struct sinew_atlas *atlas, const char *name);

/* ---- derived data (the runtime's prepare pass) -------------------------------------------- */

/*
 * Called by every loader as the last step of a successful build, before the model is handed out
 * (after which it is only ever used through const pointers). It computes derived tables into
 * the arena: curve easing samples, effective keyframe spans, unwrapped rotations, ...
 * Owned by the runtime (src/anim/). The loaders fill only what the file says.
 */
sinew_status sinew__model_prepare(struct sinew_data *data, sinew_error *err);

#endif
