/* Internal structures of the animation runtime (src/anim). */
#ifndef SINEW_ANIM_RUNTIME_INTERNAL_H
#define SINEW_ANIM_RUNTIME_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/model.h"
#include "sinew/instance.h"

#define SINEW_PI 3.14159265358979323846
#define SINEW_STATE_DEFAULT 16 /* animation states per armature (fading ones included), default */
#define SINEW_STATE_MAX 1024   /* ... and the most an instance option may ask for */
#define SINEW_STATE_RESERVE 2  /* states whose timeline storage comes with the instance, default */
#define SINEW_ACTION_CAP 16    /* queued play actions per armature per update */
#define SINEW_EVENT_CAP 64     /* queued events per instance by default (sinew_instance_options.max_events), */
#define SINEW_EVENT_CAP_CHILD 16 /* and this many more per child armature in it (a rig with 26
                                    child armatures starts them with 75 events in one update) */
#define SINEW_EVENT_MAX 65536  /* at most */
#define SINEW_RECYCLE_CAP 32   /* recycled states tracked for their undelivered events */
#define SINEW_MAX_DEPTH 8      /* child armature nesting */

/* Forced inlining of a hot helper with several call sites (a 5.x hot path and a 6.0 one). */
#if defined(__GNUC__)
#define SW_INLINE __attribute__((always_inline)) inline
#else
#define SW_INLINE inline
#endif

/* JavaScript's Math.round: halves round up. */
static inline double sinew__js_round(double v) { return floor(v + 0.5); }

/* sin and cos of one angle together, for the angles of bone transforms (a few turns at most).
 * The angle is reduced to r in [-pi/4, pi/4] around the nearest multiple k of pi/2, with pi/2
 * in three parts (33 + 33 + 53 bits: k times the first two parts is exact, so r keeps its bits
 * even next to a multiple of pi/2); sin r and cos r are the minimax polynomials of degree 13 and
 * 14 whose coefficients fdlibm publishes (the library behind JavaScript's Math.sin and Math.cos).
 * k is rounded by adding and taking away 1.5 * 2^52 (nearbyint is a libm call on baseline
 * x86-64). Within an ulp or two of the exact value, as libm's are, at a third of glibc's
 * instructions (pose.c's bone matrices and IK, physics6.c, path6.c).
 * Angles beyond 2^19 (or NaN, infinities) go to libm. */
static inline void sinew__angle_sincos(double x, double *s, double *c) {
    if (x == 0.0) {
        *s = x;
        *c = 1.0;
        return;
    }
    if (!(fabs(x) < 524288.0)) {
        *s = sin(x);
        *c = cos(x);
        return;
    }
    static const double two_over_pi = 6.36619772367581382433e-01;
    static const double p1 = 1.57079632673412561417e+00;  /* pi/2, first 33 bits */
    static const double p2 = 6.07710050630396597660e-11;  /* the next 33 bits */
    static const double p3 = 2.02226624879595063154e-21;  /* the rest */
    static const double round_shift = 6755399441055744.0; /* 1.5 * 2^52: adding it rounds to an integer */
    double k = (x * two_over_pi + round_shift) - round_shift;
    double r = ((x - k * p1) - k * p2) - k * p3;
    double z = r * r;
    double sr = r + r * z * (-1.66666666666666324348e-01 + z * (8.33333333332248946124e-03 +
                z * (-1.98412698298579493134e-04 + z * (2.75573137070700676789e-06 +
                z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))));
    double cr = 1.0 - 0.5 * z + z * z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 +
                z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07 +
                z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
    switch ((int)((int64_t)k & 3)) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
}
double sinew__normalize_radian(double v);

/* Timeline kinds of a state. */
enum {
    TLK_BONE = 0,
    TLK_SLOT_DISPLAY,
    TLK_SLOT_COLOR,
    TLK_DEFORM,
    TLK_IK,
    TLK_ZORDER,
    TLK_ACTION,
    TLK_SURFACE,
    TLK_PATH_DEFORM,           /* 6.0: a path display's deform */
    TLK_PATH,                  /* 6.0: a path constraint's position, spacing or weights */
    TLK_SLOT_ZINDEX,           /* 6.0: a slot's zIndex (a generic `timeline` of type 23) */
    TLK_KIND_COUNT
};

/* The official 6.0 timeline's own time scale, offset (seconds) and duration (seconds) from its
 * timelineConfig (BaseTimelineState.init): scale x100 and offset in frames as stored, the duration
 * in frames over the frame rate (the official frameRateR = 1 / frameRate). */
static inline double sinew__tl_scale6(const sinew_model_timeline *T) { return T->cfg_scale * 0.01; }
static inline double sinew__tl_offset6(const sinew_model_timeline *T, double frame_rate) {
    return (double)T->cfg_offset * (1.0 / frame_rate);
}
static inline double sinew__tl_duration6(const sinew_model_timeline *T, double frame_rate) {
    return (double)T->cfg_duration * (1.0 / frame_rate);
}
/* Whether a timeline plays on its animation's clock as it is: always in a 5.x armature; in a 6.0 one
 * when its timelineConfig is the default and its own duration equals the animation's (as doubles). */
static inline bool sinew__tl_plain6(const sinew_model_armature *arm, const sinew_model_animation *anim,
                                    const sinew_model_timeline *T) {
    if (!arm->v6)
        return true;
    double fr = (double)arm->frame_rate;
    return T->cfg_scale == 100 && T->cfg_offset == 0 && !T->cfg_loop &&
           sinew__tl_duration6(T, fr) == (double)anim->frame_count / fr;
}

/* What an animation has timelines for, per bone / slot / IK constraint
 * (sinew_model_animation.run_covered). */
enum { COV_BONE = 1, COV_DISPLAY = 2, COV_COLOR = 4, COV_IK = 8, COV_SURFACE = 16 };

#define SINEW_ANIM_TIMELINE_MAX 65535u /* timelines in one animation (tl_state.tl is 16 bits) */
#define TL_NONE 0xffffu            /* tl_state.tl of the action, pose and missing timelines */

#define DISPLAY_DATA_DIRTY 2       /* arm_inst.display_dirty: a 6.0 slot's new display index waits for
                                      the slot update to make its display data (the official
                                      _displayDataDirty) */
#define SLOT_UNREAD 3              /* arm_inst.slot_changed: a 6.0 slot without a display object whose
                                      matrix follows its bone until the slot is read (pose.c) */

/* tl_state.bits */
#define TLB_TWEEN 3u               /* tween state: 0 none, 1 once, 2 always */
#define TLB_DELTA 4u               /* arrived with a tween towards the next key */
#define TLB_DIRTY 8u               /* a slot timeline's value waits to be applied */
#define TLB_FOLLOW 16u             /* a bone timeline following the animation's clock (key, bone) */
#define TLB_BEND6 32u              /* 6.0 IK timeline: bendPositive of the last key arrived at tweening */
#define TLB_BLEND_DIRTY 64u        /* a 6.0 bone timeline (the first of its bone): its value changed
                                      since the bone was last blended (the official timeline `dirty`) */

/* The playback state of one timeline inside one animation state: what changes while it plays.
 * What the timeline is (its keys, their spans, easing and deltas, its kind and target) is in the
 * model (sinew_model_timeline and its run_keys), shared by every instance. Pose timelines (what
 * a state applies to targets it has no timeline for while it fades in) share one record per
 * kind. A bone timeline that follows the animation's clock (run_follow) takes its time from the
 * state's bone_clock and keeps its current key and bone where the others keep their clock. */
typedef struct tl_state {
    union {
        double current_time;   /* a timeline with its own clock */
        const sinew_model_run_key *key; /* a following bone timeline: the key it is on
                                           (sinew__no_key: none yet) */
    };
    union {
        int32_t current_play_times; /* own clock */
        uint32_t bone;         /* a following bone timeline: its bone */
    };
    int32_t frame_index;       /* key index, -1 = not arrived */
    float progress;            /* eased tween progress of the last frame update */
    uint16_t tl;               /* index among the animation's timelines, or TL_NONE */
    int8_t play_state;         /* -1 not started, 0 playing, 1 complete (own clock) */
    uint8_t bits;              /* TLB_* */
} tl_state;

/* The key of a following bone timeline that has not arrived anywhere (no frame is in its range). */
extern const sinew_model_run_key sinew__no_key;

/* The clock the bone timelines following the animation share (the action timeline's time, play
 * count and state when they last moved). */
typedef struct tl_clock {
    double time;
    int32_t play_times;
    int8_t play_state;
} tl_clock;

typedef struct anim_state {
    const sinew_model_animation *anim;
    tl_state *tls;             /* room for tl_cap timelines (the armature's largest animation):
                                  bone timelines (grouped per bone, bone order), then slot
                                  timelines (draw order), then IK, then surfaces (bone order) */
    const uint8_t *covered;    /* anim->run_covered */
    double time_scale, weight, auto_fade_out_time;
    double fade_total_time;
    double position, duration, fade_time, time, fade_progress, weight_result;
    double applied_weight;     /* weight_result of the last advance that applied the bones */
    tl_state action_tl;
    tl_state zorder_tl;
    tl_state pose_tl[TLK_IK + 1]; /* shared pose timeline per kind */
    tl_state pose_surface_tl;  /* ... and of surfaces */
    tl_clock bone_clock;
    uint32_t serial;           /* unique per instance, for events */
    uint32_t anim_index;
    int32_t play_times;
    int32_t layer;
    uint16_t bone_tl_count, slot_tl_count, ik_tl_count, surface_tl_count;
    int8_t fade_state, sub_fade_state;
    uint8_t playhead_state;
    uint8_t timeline_dirty;
    bool action_enabled, display_control, reset_to_pose;
    bool pose_active;          /* pose timelines still in place (until the fade-in completes) */
    bool pose_bones_started;   /* the bone pose timelines had their first update */
    bool bones_applied;        /* the last advance applied every bone timeline as the only state */
    bool bones_direct;         /* every bone timeline has 2 channels and no two of a bone share one:
                                  a lone state at weight 1 writes them straight into the pose */
    bool has_zorder;
    bool bones_follow;         /* every bone timeline follows the animation's clock */
    char group[32];
} anim_state;

typedef struct blend_state {
    bool dirty;
    int32_t layer;
    double left_weight, layer_weight, blend_weight;
} blend_state;

typedef struct pending_action {
    uint32_t action;           /* index into the armature's actions */
    uint32_t slot;             /* child target slot, INVALID = none */
    uint32_t bone;             /* bone target, INVALID = none */
} pending_action;

/* the frame cache (frame_cache.c): per bone and cache frame, the world matrix (6), the decomposed
 * global transform (6) and whether that decomposition is current (1) */
#define SINEW_CACHE_BONE_VALUES 13

typedef struct sinew_cache_animation {
    uint32_t rate;             /* cache frames per second of this animation */
    uint32_t frames;           /* cache frames it holds */
    uint8_t *filled;           /* per frame: its bones are stored */
    double *values;            /* frames x bones x SINEW_CACHE_BONE_VALUES */
    /* 6.0 armatures (NULL otherwise; bones6.c): the official per-bone and per-slot cache indices.
     * Per frame, per bone then per slot: the frame whose stored values it shares (a bone or slot that
     * did not move shares the previous frame's), or INVALID when not stored yet; and per frame and
     * slot its world matrix */
    uint32_t *src;             /* frames x (bones + slots) */
    double *slot_values;       /* frames x slots x 6 */
} sinew_cache_animation;

typedef struct sinew_cache_armature {
    sinew_cache_animation *animations; /* one per animation of the armature */
} sinew_cache_armature;

struct sinew_frame_cache {
    const struct sinew_data *data;
    double fps;
    const sinew_allocator *allocator;
    size_t size;
    sinew_cache_armature *armatures;
};

enum { CACHE_NONE = 0, CACHE_READ, CACHE_WRITE };

/* The running state of one path constraint (path.c): scratch sized at instance creation. */
typedef struct path_inst {
    double *world;             /* 2 per path point, armature space (NaN until written) */
    double *positions;         /* 3 per space + 2: the samples x, y, direction */
    double *spaces;            /* bone_count + 1 */
    double *bone_lengths;      /* bone_count: world lengths (chainScale) */
    double *curves;            /* cumulative curve lengths (constantSpeed) */
    double *cv;                /* the curve points being sampled */
    uint32_t last_display;     /* the slot's display at the last check */
    uint8_t verts_dirty;       /* the official DeformVertices.verticesDirty */
} path_inst;
/* A 6.0 physics constraint's running state (physics6.c): the official PhysicsConstraint's fields. */
typedef struct physics_rt {
    double remaining, last_time;
    double x_offset, x_velocity, y_offset, y_velocity;
    double rotate_offset, rotate_velocity, scale_offset, scale_velocity;
    double bx, by;             /* the bone's position at the last update (translation inertia) */
    double cx, cy;             /* ... after the last update's physics (rotation and stretch inertia) */
    double tx, ty;             /* the bone's length along the matrix's first row, last update */
    uint8_t sleeping, reset, last_reset;
} physics_rt;

/* A 6.0 path constraint's animated values (the official PathConstraint's position, spacing,
 * rotateWeight, xWeight, yWeight: set from the data at creation, then by path timelines, which also
 * set `dirty`: compute again even if nothing moved). */
typedef struct path_values6 {
    double position, spacing, rotate_weight, x_weight, y_weight;
    uint8_t dirty;
} path_values6;

/* The display container of a 6.0 armature with masks (mask6.c): the official Pixi adapters' child
 * list and each display object's mask. Display objects: slot * 4 + (0 raw, 1 mesh, 2 shape), or
 * 0x80000000 | the armature index of a child armature shown. */
typedef struct mask6_rt {
    uint32_t *children;        /* the container, in order (count entries) */
    uint32_t count;
    uint32_t *object;          /* per slot: its display object */
    uint32_t *object_mask;     /* 3 per slot (raw, mesh, shape): the display object masking it, or INVALID */
    uint8_t *mask_on;          /* per slot: the official _mask (kept while the slot shows nothing) */
    double *mask_range;        /* ... and _maskRange */
    uint8_t *zorder_dirty, *mask_dirty; /* per slot: the official _zOrderDirty, _maskDirty */
    uint8_t sorted;            /* the armature re-sorted its slots (its _maskDirty) */
} mask6_rt;

/* A 5.5 surface of an armature instance (pose.c): the official Surface's state. */
typedef struct surface_rt {
    uint32_t bone;
    uint32_t n;                /* lattice values: 2 (segment_x + 1) (segment_y + 1) */
    double *deform;            /* n: the animation's offsets of the lattice points */
    double *verts;             /* n: the lattice points placed in armature space */
    double *cells;             /* cell_count x 7: the official matrix cache, a flag (> 0: set) and
                                  the cell's a b c d tx ty; cleared when the surface moves */
    uint32_t cell_count;
    double dx, dy;             /* cell size in the surface's own space (400 / segments) */
    double k, kx, ky;          /* slopes of the cells' diagonals (centre, left/right, up/down) */
    double hull[12];           /* points and steps along the hull outside the lattice */
} surface_rt;

typedef struct arm_inst {
    const sinew_model_armature *data;
    uint32_t data_index;
    uint32_t parent_arm, parent_slot, depth;
    bool active;               /* on the clock (the top armature, or a displayed child) */
    bool lock_update;
    bool zorder_dirty, slots_dirty;
    double time_scale, inherit_time_scale;
    /* frame cache (NULL = none): the official armature _cacheFrameIndex, and what this update
     * does with the cache frame it is on (CACHE_READ / CACHE_WRITE, at cache_values) */
    uint32_t *display_region;  /* per display of the data: its atlas region (or INVALID) */
    const sinew_cache_armature *cache;
    int32_t cache_frame_index;
    uint8_t cache_mode;
    double *cache_values;
    const sinew_cache_animation *cache_anim; /* the animation being cached this update (6.0) */
    uint32_t *bone_cfi, *slot_cfi; /* 6.0: per bone, then per slot, the cache frame whose values it
                                  holds (the official _cachedFrameIndex), or INVALID */
    uint32_t skin;             /* overlay skin index or INVALID */
    uint32_t default_skin;     /* index of the "" skin or INVALID */

    /* bones (SoA, 6 values each; double as in the official runtime) */
    uint32_t bone_count;
    double *pose;              /* animation pose: x y rot skew sx sy */
    double *world;             /* a b c d tx ty */
    float *world_f;            /* the same in single precision, for skinning */
    double *local;             /* cached local matrix (normal inheritance), valid if local_ok */
    uint8_t *local_ok;
    double *global;            /* decomposed: x y rot skew sx sy */
    uint8_t *global_valid;
    uint8_t *computed;
    uint8_t *bone_dirty;       /* animation pose changed since the last bone update */
    uint8_t *bone_changed;     /* world matrix recomputed in the last bone update */
    double *offset;            /* the user's bone offsets (control.c): x y rot skew sx sy; allocated
                                  by the first sinew_instance_set_bone_offset (NULL until then) */
    uint8_t *offset_on;        /* per bone: an offset is set (in the same allocation) */
    bool any_offset;
    blend_state *blend;
    bool blend_touched;        /* some blend[].dirty may be set (cleared by the bone update) */
    /* surfaces (NULL without): one per surface of the data, numbered by data->run_surface */
    surface_rt *surfaces;
    double help[6];            /* a cell matrix the cache has no room for */
    double *slot_gxy;          /* armatures with surfaces (NULL otherwise): 4 per slot, the point by
                                  which a surface chooses
                                  the slot's cell (the official Slot.global x and y: the display's
                                  local position, or where the slot was when last read), then where
                                  it was last placed, taken over when it is read */
    uint8_t *slot_gxy_new;     /* per slot: placed since it was last read */
    /* IK */
    float *ik_weight;
    uint8_t *ik_bend;
    path_inst *paths;          /* one per path constraint */
    /* 6.0 armatures (data->v6; NULL otherwise): */
    uint8_t *tc_dirty;         /* per bone: its attached transform constraint is dirty */
    physics_rt *physics;       /* per physics constraint */
    path_values6 *path6;       /* per path constraint */
    /* slots */
    uint32_t slot_count;
    int32_t *display_index, *anim_display_index;
    int32_t *zorder;
    double *z_index;           /* 6.0 armatures (NULL otherwise): per slot its zIndex (the data's, blended by
                                  zIndex timelines); the draw order sorts by zIndex * 1000 + z order */
    double *sort_key;          /* 6.0: per slot, that key while sorting */
    bool zindex_dirty;         /* 6.0: a zIndex timeline changed a zIndex (the official _zIndexDirty) */
    uint32_t *draw_order;
    sinew_color_transform *color;
    uint32_t *list_first, *list_count; /* current display list (into data->displays) */
    struct slot_rep *rep;      /* per slot, allocated by the first replacement (NULL until then):
                                  sinew_instance_replace_display* */
    uint32_t *cur_display;     /* data display index, REPLACED(a, s), or INVALID */
    uint32_t *masked_by;       /* 6.0 armatures (NULL otherwise): per slot, the slot whose mask display
                                  clips it (the official Pixi adapters' rule, mask6.c), or INVALID.
                                  Written at the end of each armature update. The drawing reads it with
                                  the mask slot's own display data (mask, mask_range) and geometry */
    mask6_rt *mask6;           /* 6.0 armatures with a mask display (NULL otherwise) */
    uint32_t proxy_mask;       /* a child armature: the display object masking it in its parent's
                                  container (mask6.c), or INVALID */
    uint32_t *slot_origin;     /* the display whose transform places the slot: a data display
                                  (data->run_display_matrix), REPLACED(a, s) (rep[s].matrix), or
                                  INVALID (identity) */
    uint32_t *cur_mesh;        /* mesh index or INVALID */
    /* 6.0 armatures (NULL otherwise): deforms per display frame, blended as upstream (deform6.c).
     * The pool holds every display's deform but the shown frames' (those are in `deform`); per
     * display whether its official deform array exists; per slot the display of the frame whose
     * values its `deform` area holds; the slot blend states (deform, shape, path deform and zIndex
     * namespaces: SLOT_BLEND_SPACES x run_blend_keys, by name key), reset at each animation update. */
    float *frame_deform;
    float *deform_drawn;       /* per slot as `deform`: what an unweighted mesh is drawn with (pose.c) */
    uint8_t *frame_deform_on;
    uint32_t *frame_shown;
    blend_state *deform_blend;
    bool deform_blend_touched;
    uint32_t *cur_child;       /* armature index of the displayed child or INVALID */
    uint8_t *display_dirty;
    uint8_t *deform_dirty;     /* deform written since the last mesh update */
    uint8_t *deform_nz;        /* deform may be non-zero (0: all zero, the skinning fast path) */
    uint32_t *deform_len;      /* per slot, the length of the official deform vertices array (2 per
                                  vertex, or per influence of a weighted mesh): the shown mesh's
                                  when it was shown (0 without one), grown by a pose deform
                                  timeline that writes more (sinew__state_pose_deform) */
    uint8_t *slot_changed;     /* display switched: the local matrix changed (2: a placement on a surface
                                  waits for the slot pass's end; SLOT_UNREAD: see pose.c) */
    float *slot_world;         /* 6 per slot */
    const uint32_t *slot_deform; /* data->run_slot_deform: per slot, its first float in deform and
                                    mesh_out, and how many it may use */
    float *deform;
    float *mesh_out;           /* world vertices, same offsets as deform. A 6.0 slot showing a vector
                                  shape holds its current control points here (armature space, 3
                                  vertices per Bezier point in the order of the shape's geometry mesh),
                                  skinned and deformed as a mesh's; the drawing reads them there */
    uint32_t *display_child;   /* per data display: armature index or INVALID */
    /* animation */
    anim_state *states;        /* state_cap records; the first state_held have timeline storage
                                  (tls): state_reserve of them inside the instance, the others
                                  allocated one by one when a call outside an update needed them */
    uint32_t state_count, state_cap, state_held;
    uint32_t tl_cap;           /* timelines each state's storage holds */
    int32_t last_state;        /* index into states or -1 */
    pending_action actions[SINEW_ACTION_CAP];
    uint32_t action_count;
} arm_inst;

/* A queued event, as compact as it goes: the public sinew_event is made from it when it is
 * delivered (sinew_instance_poll_event). */
typedef struct event_rec {
    const sinew_model_action *action; /* frame events and sounds: the action (NULL otherwise) */
    const char *animation;     /* the name the official event would report (see `recycled`) */
    double time;               /* frame events: the frame's time in seconds */
    uint32_t serial;           /* the state that fired it, or took its object since (0: none) */
    uint16_t arm;              /* the armature that fired it */
    uint16_t state_arm;        /* the armature holding that state */
    uint8_t type;              /* sinew_event_type */
    uint8_t state_ended;
} event_rec;

struct sinew_instance {
    const struct sinew_data *data;
    const struct sinew_atlas *atlas;
    const sinew_allocator *allocator;
    size_t size;
    uint32_t arm_count;
    arm_inst *arms;
    uint32_t *clock;           /* armatures on the clock in the official order (arm_count entries;
                                  SINEW_INVALID_INDEX = removed, a hole until the next compaction) */
    uint32_t clock_count;
    uint32_t clock_pos, clock_end; /* during a tick: the next entry to advance, and the end of those
                                      that were on the clock when the tick began (0, 0 otherwise) */
    event_rec *events;         /* ring of event_cap */
    uint32_t event_cap;        /* sinew_instance_options.max_events, or SINEW_EVENT_CAP +
                                  SINEW_EVENT_CAP_CHILD per child armature */
    /* The official runtime recycles an AnimationState object (its pool: last in, first out) and
     * an event still undelivered reads the name of whatever state the object is then: "" in the
     * pool, a new state's name once reused. Removed states wait in `buffered` until the next clock
     * tick returns them to the pool; a hidden child's states go to the pool at once. `recycled`
     * is the top of the pool since the last delivery, newest last (older entries have no
     * undelivered events, so they do not matter). */
    uint32_t buffered[SINEW_RECYCLE_CAP], buffered_count;
    uint32_t recycled[SINEW_RECYCLE_CAP], recycled_count;
    uint32_t ev_unsealed;      /* the newest this many queued events are from the running update;
                                  the older ones were delivered at the end of one: frozen */
    uint32_t next_serial;
    uint32_t event_head, event_count;
    uint64_t events_dropped;
    uint64_t states_dropped;   /* states ended early because an armature had state_cap of them */
    sinew_event_fn event_fn;
    void *event_user;
    bool updating;
    /* The official WorldClock's `time`, which 6.0 physics reads: the sum of the non-zero steps of
     * sinew_instance_update (their magnitudes), in the same double additions; 0 at creation. */
    double clock_time;
    bool no_clock;             /* sinew_instance_options.no_clock: no armature is ever on a clock */
    /* the random source of 6.0 physics (sinew_instance_options.random*) */
    uint8_t random_kind;
    uint32_t random_state;     /* mulberry32's state (SINEW_RANDOM_SEED) */
    double random_constant;
    sinew_random_fn random_fn;
    void *random_user;
    /* the draw list (drawlist.c): its storage, one allocation made by the first draw list (NULL
     * until then), and how many of its commands are as dl_entries says */
    void *dl_block;
    float *dl_positions, *dl_uvs;
    uint32_t *dl_indices;
    sinew_draw_cmd *dl_cmds;
    struct dl_entry *dl_entries;
    uint32_t dl_vertex_cap, dl_index_cap, dl_cmd_cap;
    uint32_t dl_valid;
    /* 6.0 (all 0 / NULL for 4.0-5.6 data): the shapes' tessellation scratch (the largest shape's
     * flattened points, contours and Bezier points), and per slot of each 6.0 armature the mask command it made in
     * the list being built (dl_mask_first: each armature's first entry in dl_mask_cmd) */
    uint32_t dl_shape_points, dl_shape_contours, dl_shape_ctrl, dl_mask_slots;
    void *dl_tess;
    uint32_t *dl_mask_cmd, *dl_mask_first;
};

/* What the draw list wrote at a command's place: which slot's display, from which first vertex
 * and index (its UVs and indices are still there while this holds), and an image's corners in
 * slot space (x0, x1, y0, y1). */
typedef struct dl_entry {
    uint32_t arm, slot, disp, first_vertex, first_index;
    float corner[4];
} dl_entry;

enum { REP_NONE = 0, REP_ATLAS, REP_USER }; /* slot_rep.textured */

/* A slot's replacement display: a copy of its data and its texture region (an atlas region, or
 * the user's) with that region's page size. */
typedef struct slot_rep {
    sinew_model_display display;
    sinew_model_region region;
    double matrix[6];          /* the display's transform, when the slot is placed by it */
    float page_w, page_h;
    float tscale;              /* armature units per texture pixel */
    float pivot_shift[2];      /* the official "replace pivot" of a replaced image */
    int32_t at;                /* the display index it is shown at */
    bool active;               /* the slot has a replacement (REPLACED(a, s) stands for `display`) */
    uint8_t textured;
} slot_rep;

/* A state's timeline storage that was allocated after the instance (not inside its block). */
static inline bool sinew__state_storage_grown(const sinew_instance *inst, const void *tls) {
    uintptr_t p = (uintptr_t)tls, base = (uintptr_t)inst;
    return tls && (p < base || p >= base + inst->size);
}

/* The bytes of one animation state's storage: room for tl_cap timeline records, then per slot
 * the number of deform values its pose deform timeline covers (see sinew__state_pose_deform). */
static inline size_t sinew__state_bytes(uint32_t tl_cap, uint32_t slot_count) {
    return (size_t)tl_cap * sizeof(tl_state) + (size_t)slot_count * sizeof(uint32_t);
}
static inline size_t sinew__arm_state_bytes(const arm_inst *a) { return sinew__state_bytes(a->tl_cap, a->slot_count); }

/* Per slot, how many official deform values a state's pose deform timeline drives: the official
 * DeformTimelineState without data takes its count from the length of the slot's deform vertices
 * array when the state builds its timelines (arm_inst.deform_len), and keeps it for any mesh the
 * slot shows later. After the state's timeline records. */
static inline uint32_t *sinew__state_pose_deform(const arm_inst *a, const anim_state *st) {
    return (uint32_t *)(void *)(st->tls + a->tl_cap);
}

/* The bytes of an armature's bone offsets (arm_inst.offset and offset_on, one allocation). */
static inline size_t sinew__offset_bytes(const arm_inst *a) { return (size_t)a->bone_count * (6 * sizeof(double) + 1); }

/* The length of the official deform vertices array of a mesh (DeformVertices.init): 2 per vertex,
 * or 2 per influence of a weighted mesh; 0 for none. */
static inline uint32_t sinew__mesh_deform_len(const sinew_model_mesh *m) {
    return !m ? 0 : 2 * (m->weighted && m->vertex_first_influence ? m->influence_count : m->vertex_count);
}

static inline uint32_t sinew__deform_first(const arm_inst *a, uint32_t s) { return a->slot_deform[2 * s]; }
static inline uint32_t sinew__deform_cap(const arm_inst *a, uint32_t s) { return a->slot_deform[2 * s + 1]; }

/* The local matrix of slot s (its display's transform). */
static inline const double *sinew__slot_local(const arm_inst *a, uint32_t s) {
    static const double identity[6] = {1.0, 0.0, 0.0, 1.0, 0.0, 0.0};
    uint32_t o = a->slot_origin[s];
    if (o < a->data->display_count)
        return a->data->run_display_matrix + (size_t)o * 6;
    return o == SINEW_INVALID_INDEX ? identity : a->rep[s].matrix;
}

/* The display index that stands for slot s's replacement (past the data's own displays). */
#define REPLACED(a, s) ((a)->data->display_count + (s))

/* The single-precision copy of a 2x3 matrix (bone world matrices for skinning, slot matrices):
 * each element rounded to float, two at a time where the compiler has vector conversions. */
static inline void sinew__mat_to_float(const double *m, float *f) {
#if defined(__GNUC__)
    typedef double d2 __attribute__((vector_size(16)));
    typedef float f2 __attribute__((vector_size(8)));
    for (int i = 0; i < 6; i += 2) {
        d2 v;
        memcpy(&v, m + i, sizeof v);
        f2 r = __builtin_convertvector(v, f2);
        memcpy(f + i, &r, sizeof r);
    }
#else
    for (int i = 0; i < 6; ++i)
        f[i] = (float)m[i];
#endif
}

/* A display of the armature: its data's own, or a slot's replacement. */
static inline const sinew_model_display *sinew__arm_display(const arm_inst *a, uint32_t disp) {
    return disp < a->data->display_count ? &a->data->displays[disp] : &a->rep[disp - a->data->display_count].display;
}

/* drawlist.c: the bytes of the draw list's storage (0 before the first draw list), and freeing it */
size_t sinew__drawlist_bytes(const sinew_instance *inst);
void sinew__drawlist_free(sinew_instance *inst);
/* drawlist.c: out = p ∘ c (c applied first; p NULL means identity), single precision as the
 * draw list places child armatures */
void sinew__affine_concat(const float *p, const float *c, float *out);
/* drawlist.c: the size of the atlas page a region is on (the extent of its regions when the atlas
 * does not say) */
void sinew__region_page_size(const struct sinew_atlas *atlas, const sinew_model_region *r, float *pw, float *ph);
/* drawlist.c: the texture region slot s shows (NULL: none) and its page's size */
const sinew_model_region *sinew__slot_region(const sinew_instance *inst, const arm_inst *a, uint32_t s, float *pw,
                                             float *ph, float *tscale);
/* drawlist.c: armature units per texture pixel of a region's page (the official textureAtlas
 * scale: 1 / the atlas JSON's `scale`) */
float sinew__page_texture_scale(const struct sinew_atlas *atlas, const sinew_model_region *r);
/* drawlist.c: where an image display's pivot lies in slot space (the official Slot._pivotX/Y) */
void sinew__image_pivot(const arm_inst *a, uint32_t s, const sinew_model_display *dd, const sinew_model_region *r,
                        float tscale, float *px, float *py);

/* bones6.c: the 6.0 bone loop (constraints after each bone's own update, physics last), the
 * official _updateGlobalTransformMatrix with its notifications (a transform constraint of the bone
 * or driven by it gets dirty, its physics wakes) and the 6.0 updateByConstraint (which also makes the
 * global from the matrix when stale) */
void sinew__arm_update_bones6(sinew_instance *inst, arm_inst *arm);
bool sinew__slot_cache6(arm_inst *arm, uint32_t s, bool own, bool moved, const double *bone_world);
void sinew__bone_compute6(arm_inst *arm, uint32_t b, bool is_cache);
void sinew__bone_by_constraint6(arm_inst *arm, uint32_t b);
/* path6.c: a 6.0 path constraint (at its root's turn); a path display's points in armature space
 * now (2 per point into out, which holds cap floats; false when it cannot) */
void sinew__path6_run(arm_inst *arm, uint32_t c);
bool sinew__path6_points(const arm_inst *arm, uint32_t slot, const sinew_model_display *dd, float *out, uint32_t cap);
/* physics6.c: a physics constraint's update (at its bone's turn, while awake), and one draw of the
 * instance's random source. One update takes at most SINEW_PHYSICS_STEP_MAX fixed steps. */
#define SINEW_PHYSICS_STEP_MAX 1000000u
void sinew__physics_update(sinew_instance *inst, arm_inst *arm, uint32_t c);
double sinew__random(sinew_instance *inst);

/* mask6.c: the masks of a 6.0 armature (masked_by): its container set up, a slot's z-order set (by
 * a zOrder key or the reset to the setup order), and the update after the slots' */
void sinew__mask6_reset(arm_inst *a);
void sinew__mask6_zorder_set(arm_inst *a, uint32_t s);
void sinew__mask6_update(sinew_instance *inst, uint32_t ai);

/* deform6.c: deforms of a 6.0 armature per display frame. The derived tables; a frame's values (the
 * slot's area when shown) and their count; showing slot s's frame `raw` (a display, or INVALID);
 * the list index of the frame a deform, shape or path deform timeline binds to (-1: none); the
 * geometry a display deforms (a mesh's or shape's mesh index, a path's index | 0x80000000, or
 * INVALID: the official geometry offset, by which frames are bound); after a skin change, the frames no
 * slot lists forget their deform; the instance's initial state. */
#define SINEW_POSE_FRAMES 15u
#define SINEW_POSE_NO_SHAPES 0x8000u /* the slot's shape frames get no pose shape timelines (animation.c) */
enum { SLOT_BLEND_DEFORM, SLOT_BLEND_SHAPE, SLOT_BLEND_PATH, SLOT_BLEND_ZINDEX, SLOT_BLEND_SPACES };
sinew_status sinew__prepare_deform6(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err);
float *sinew__deform6_values(arm_inst *arm, uint32_t s, uint32_t disp, uint32_t *n);
void sinew__deform6_show(arm_inst *arm, uint32_t s, uint32_t raw);
int32_t sinew__deform6_frame(const arm_inst *arm, const sinew_model_timeline *T);
uint32_t sinew__deform6_geometry(const sinew_model_armature *arm, uint32_t disp);
void sinew__deform6_forget_unlisted(arm_inst *arm);
void sinew__deform6_reset(arm_inst *arm);
/* deform6.c, for a 6.0 file: each armature's run_shape_geom0 */
void sinew__deform6_first_geometry(struct sinew_data *data);

/* prepare6.c: the derived tables of a 6.0 armature (bone order, constraints per bone) */
sinew_status sinew__prepare_v6(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err);

/* animation.c */
void sinew__arm_advance(sinew_instance *inst, uint32_t ai, double dt);
void sinew__arm_play_last(sinew_instance *inst, uint32_t ai, int32_t play_times);
int32_t sinew__arm_fade_in(sinew_instance *inst, uint32_t ai, uint32_t anim, double fade_in_time,
                           int32_t play_times, int32_t layer, const char *group, int fade_out_mode,
                           bool reset_to_pose, double time_scale, double position, double weight,
                           bool pause_fade_in);
void sinew__emit(sinew_instance *inst, uint32_t ai, sinew_event_type type, const anim_state *st,
                 const sinew_model_action *action, double time);
uint32_t sinew__find_animation(const sinew_model_armature *arm, const char *name);
void sinew__state_set_weight(arm_inst *arm, anim_state *st, double weight);

/* pose.c */
/* the official Transform.toMatrix of a display's (float) transform, in double */
void sinew__transform_matrix(const sinew_transform *t, double *m);
void sinew__arm_update_bones(sinew_instance *inst, uint32_t ai);
void sinew__arm_update_slots(sinew_instance *inst, uint32_t ai);
void sinew__slot_set_display_index(sinew_instance *inst, uint32_t ai, uint32_t slot, int32_t index);
/* a display index as the slot keeps it: upstream (6.0) one past the list shows the last display */
int32_t sinew__slot_display_clamp(const arm_inst *arm, uint32_t slot, int32_t index);
void sinew__sort_zorder(arm_inst *arm, const float *order);
void sinew__slot_update_display_data(arm_inst *arm, uint32_t slot);
void sinew__clock_add(sinew_instance *inst, uint32_t ai);
/* pose.c, for constraints: the official Bone.updateByConstraint (recompute from the pose if dirty
 * or the parent moved, once per update, then count as moved), and the decomposed global, the
 * float copy and the moved flag after a constraint wrote the world matrix */
void sinew__bone_by_constraint(arm_inst *arm, uint32_t b);
void sinew__bone_matrix_changed(arm_inst *arm, uint32_t b);
/* pose.c, for the 6.0 bone loop (bones6.c): the official _updateGlobalTransformMatrix(isCache), the
 * decomposed global (made from the matrix when stale), the matrix from the global, Transform.fromMatrix
 * (g holds the previous values: their scale signs are kept), Matrix.concat (out = l then p) and the
 * one- and two-bone IK solvers */
void sinew__bone_compute(arm_inst *arm, uint32_t b, bool is_cache);
const double *sinew__bone_global(arm_inst *arm, uint32_t b);
void sinew__bone_set_from_global(arm_inst *arm, uint32_t b);
void sinew__from_matrix(const double *m, double *g);
void sinew__mat_concat(const double *l, const double *p, double *out);
void sinew__ik_one(arm_inst *arm, uint32_t root, uint32_t target, double weight);
void sinew__ik_two(arm_inst *arm, uint32_t parent, uint32_t bone, uint32_t target, bool bend_positive, double weight);
/* path.c: path constraints */
size_t sinew__path_scratch_size(const sinew_model_armature *d);
void sinew__path_bind(arm_inst *a, double *scratch);
void sinew__path_reset(arm_inst *a);
void sinew__path_constraints_run(arm_inst *arm, uint32_t root);
/* path.c, shared with path6.c: the official _computeVertices (path floats [from, from + n) to
 * cv[at...], its loop bound the count, so nothing is copied when at >= n), and the constant-speed
 * sampling (closed_fixed: the closing curve's in-control point is copied, where the official
 * helper leaves it unset and the path NaN) */
void sinew__path_copy_points(const path_inst *pi, uint32_t world_n, uint64_t from, uint32_t n, uint32_t at, double *cv);
void sinew__path_sample_constant_speed(const sinew_model_path *P, path_inst *pi, uint32_t spaces, bool tangents,
                                       bool pct_position, bool pct_spacing, double position, bool closed_fixed);
/* v[i] as the official array read gives it: NaN past its end */
static inline double sinew__at_or_nan(const double *v, uint32_t n, int64_t i) {
    return i >= 0 && (uint64_t)i < n ? v[i] : NAN;
}
/* the state pool of the official runtime, for the names undelivered events report (see
 * sinew_instance.recycled): a state removed (buffered until the next tick), one returned to the
 * pool now, a new state taking the newest object from the pool */
void sinew__state_buffered(sinew_instance *inst, uint32_t serial);
void sinew__state_recycled(sinew_instance *inst, uint32_t serial);
void sinew__state_reused(sinew_instance *inst, uint32_t ai, const anim_state *st);
void sinew__clock_remove(sinew_instance *inst, uint32_t ai);
void sinew__sort_draw_order(arm_inst *arm);

#endif
