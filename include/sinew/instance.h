/**
 * sinew/instance.h - the animation runtime: play a loaded armature.
 *
 * An instance is one armature of a loaded `struct sinew_data`, with its own animation states,
 * pose and draw list. Many instances share one const data (which must outlive them). An instance
 * is ONE allocation, sized at creation; nothing it does afterwards allocates (update, play,
 * fade, skin swaps, draw lists). Child armatures (armature displays) are nested instances inside
 * the same allocation: they are addressed by an armature index, 0 being the top armature, and
 * play their own animations on the parent's clock.
 *
 * Update order per `sinew_instance_update(inst, dt)` (the official runtime's): for the top
 * armature, then each displayed child armature: advance the animation states (fades, timelines,
 * blending by layer and weight), re-sort the draw order if it changed, update bones parent-first
 * (IK solved when its root bone updates), update slots (display, colour, deform/skinning, world
 * matrix), then run queued actions (frame `action`s: play on the armature or a child armature).
 * Events are queued during the update and delivered at its end (callback) or left for polling.
 *
 * Use it from C (see also drawlist.h for rendering):
 *
 *     sinew_instance *hero = NULL;
 *     sinew_instance_options opt = {0};
 *     opt.armature = "hero";              // NULL: the first armature
 *     if (sinew_instance_create(data, &opt, &hero, &err) != SINEW_OK) { ...report err... }
 *     sinew_instance_play(hero, "walk", -1, &err);   // -1: the data's playTimes
 *     for (;;) {
 *         sinew_instance_update(hero, 1.0 / 60.0);
 *         sinew_event ev;
 *         while (sinew_instance_poll_event(hero, &ev))
 *             if (ev.type == SINEW_EVENT_SOUND) play_sound(ev.name);
 *         sinew_drawlist dl;
 *         sinew_instance_drawlist(hero, &dl);
 *         render(&dl);
 *     }
 *     sinew_instance_destroy(hero);
 */
#ifndef SINEW_INSTANCE_H
#define SINEW_INSTANCE_H

#include "sinew/base.h"
#include "sinew/data.h"
#include "sinew/drawlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A playing armature (opaque). */
typedef struct sinew_instance sinew_instance;

/** Options for sinew_instance_create. Zero-initialise, then set what you need. */
/**
 * A frame cache: the official runtime's `cacheFrameRate`. With one, an armature that plays a
 * single animation, fully faded in, samples it only at multiples of half a cache frame, updates
 * its bones and slots only when the cache frame changes, and takes the bones of a cache frame from
 * the cache when an instance computed that frame before (docs/runtime.md, "Frame cache"). Poses
 * then match the official runtime run with the same cacheFrameRate, not the uncached one.
 *
 * The cache belongs to one sinew_data and is shared by every instance created with it (of any of
 * its armatures); it holds every cache frame of every animation, allocated here once, so that
 * updates still never allocate. It is written during updates: instances sharing a cache must be
 * updated from one thread at a time.
 */
typedef struct sinew_frame_cache sinew_frame_cache;

/** Creates an empty cache for `data` at `fps` cache frames per second (0 < fps <= 1000). The
 *  data must outlive it; destroy it after the instances that use it. */
SINEW_API sinew_status sinew_frame_cache_create(const struct sinew_data *data, double fps, const sinew_allocator *allocator,
                                      sinew_frame_cache **out, sinew_error *err);
SINEW_API void sinew_frame_cache_destroy(sinew_frame_cache *cache);
/** Bytes the cache holds. */
SINEW_API size_t sinew_frame_cache_memory(const sinew_frame_cache *cache);
/** Cache frames filled so far, over all armatures and animations. */
SINEW_API uint32_t sinew_frame_cache_filled(const sinew_frame_cache *cache);

/**
 * The random source of DragonBones 6.0 physics: each physics constraint draws one number in [0, 1)
 * per update it runs (awake, on a clock), in bone order, to scale its `windDisturbance`
 * ((2 r - 1) x windDisturbance). The official runtime calls Math.random(); sinew asks this source,
 * one per instance (child armatures share their instance's), so that poses can be reproduced.
 */
typedef enum sinew_random_kind {
    SINEW_RANDOM_DEFAULT = 0,  /**< the constant 0.5: no disturbance (tools/oracle6's default) */
    SINEW_RANDOM_CONSTANT,     /**< every draw is random_constant */
    SINEW_RANDOM_SEED,         /**< mulberry32 seeded with random_seed when the instance is created (the
                                    generator tools/oracle6's `--random seed:N` uses) */
    SINEW_RANDOM_CALLBACK      /**< random_fn(random_user); values outside [0, 1) are clamped */
} sinew_random_kind;

/** A caller's random source: returns a number in [0, 1). Called during sinew_instance_update. */
typedef double (*sinew_random_fn)(void *user);

typedef struct sinew_instance_options {
    const char *armature;              /**< armature name; NULL = the first armature */
    const char *skin;                  /**< skin overlaid on the default skin; NULL/"" = none */
    const struct sinew_atlas *atlas;   /**< optional: texture regions for the draw list */
    const sinew_allocator *allocator;  /**< NULL = libc */
    uint32_t max_states;               /**< animation states each armature may hold at once,
                                            fading ones included; 0 = 16 (at most 1024). A
                                            new state past it takes the place of the one with
                                            the least weight left (counted:
                                            sinew_instance_states_dropped). Each state needs
                                            storage for the largest animation's timelines
                                            (24 bytes a timeline and 4 a slot): see
                                            reserved_states */
    sinew_frame_cache *frame_cache;    /**< optional: a cache made for the same data (NULL = none) */
    uint32_t max_events;               /**< events the queue holds between polls; 0 = 64 and 16
                                            more per child armature (at most 65536). Past it the
                                            oldest is dropped and counted
                                            (sinew_instance_events_dropped) */
    bool run_default_actions;          /**< run the armature's `defaultActions` (play, stop, fadeIn)
                                            at creation. Off by default: the official factory runs
                                            them only for child armatures it builds, never for the
                                            armature a game asks for */
    uint32_t reserved_states;          /**< states per armature whose storage comes with the
                                            instance; 0 = 2 (at most max_states). A call that
                                            starts a state past them (play, fade_in) allocates
                                            its storage through the allocator, kept until the
                                            instance is destroyed, up to max_states; updates
                                            never allocate: a state started inside an update
                                            (a frame action) past the storage held, or one
                                            whose allocation failed, is handled as past
                                            max_states (and counted). A crowd that cross-fades
                                            often can reserve more */
    sinew_random_kind random;          /**< 6.0 physics' random source (default: the constant 0.5) */
    double random_constant;            /**< SINEW_RANDOM_CONSTANT: in [0, 1) */
    uint32_t random_seed;              /**< SINEW_RANDOM_SEED: the seed */
    sinew_random_fn random_fn;         /**< SINEW_RANDOM_CALLBACK: the source (required) */
    void *random_user;                 /**< ... and its argument */
    bool no_clock;                     /**< play off the clock, as an official armature that no
                                            WorldClock advances (seeking with goto_and_stop and
                                            update(0)): 6.0 physics never runs */
} sinew_instance_options;

/**
 * Creates an instance in its setup pose (no animation playing). Fails with SINEW_E_NOT_FOUND
 * (message listing the names that exist) for an unknown armature or skin.
 */
SINEW_API sinew_status sinew_instance_create(const struct sinew_data *data, const sinew_instance_options *opt,
                                   sinew_instance **out, sinew_error *err);
/** Frees the instance (NULL is fine). */
SINEW_API void sinew_instance_destroy(sinew_instance *inst);
/** Bytes of the instance's single allocation. */
SINEW_API size_t sinew_instance_memory(const sinew_instance *inst);

/**
 * Resolves a skin choice (the CLI's `--skin`) to what sinew_instance_create needs, the same way
 * for every front end:
 * - data loaded from an XML rig (sinew_data_info.format "xml") holds one armature per skin,
 *   `NAME` and `NAME@SKIN` (docs/xml.md): `skin` selects the armature `NAME@skin` and
 *   `*skin_overlay` is NULL;
 * - DragonBones data: `skin` is overlaid on the default skin of the armature itself, so
 *   `*armature_index` is that armature and `*skin_overlay` is the skin's name (owned by `data`).
 * `armature` NULL means the first armature; for an XML rig `NAME@OTHER` counts as `NAME`.
 * `skin` NULL or "" means no skin: the armature itself, `*skin_overlay` NULL.
 * Fails with SINEW_E_NOT_FOUND, the message listing the names that exist, for an unknown
 * armature or skin.
 */
SINEW_API sinew_status sinew_data_resolve_skin(const struct sinew_data *data, const char *armature, const char *skin,
                                     uint32_t *armature_index, const char **skin_overlay, sinew_error *err);

/** Replaces the skin overlay (NULL/"" = default skin only). */
SINEW_API sinew_status sinew_instance_set_skin(sinew_instance *inst, const char *skin, sinew_error *err);

/**
 * Advances the whole instance by dt seconds and recomputes the pose. dt = 0 refreshes the pose
 * (and fires what a zero step fires). NaN/infinite dt is treated as 0 and |dt| is clamped to
 * one hour, so bad input never corrupts the instance. Never allocates.
 */
SINEW_API void sinew_instance_update(sinew_instance *inst, double dt);

/** How a fade-in ends the states already playing (the official fadeOutMode). */
typedef enum sinew_fade_out_mode {
    SINEW_FADE_OUT_NONE = 0,
    SINEW_FADE_OUT_SAME_LAYER,
    SINEW_FADE_OUT_SAME_GROUP,
    SINEW_FADE_OUT_SAME_LAYER_AND_GROUP,
    SINEW_FADE_OUT_ALL,
    SINEW_FADE_OUT_SINGLE
} sinew_fade_out_mode;

/** Parameters of sinew_instance_fade_in. Use sinew_fade_defaults() to initialise. */
typedef struct sinew_fade_options {
    double fade_in_time;       /**< seconds; < 0 = the animation's fadeInTime */
    int32_t play_times;        /**< -1 = the data's; 0 = loop forever */
    int32_t layer;             /**< higher layers take weight first */
    const char *group;         /**< group name (NULL = none) for the fade-out modes */
    sinew_fade_out_mode fade_out_mode;
    double weight;             /**< state weight, default 1 (finite) */
    double time_scale;         /**< state time scale (finite); <= -100 = 1/animation scale (default) */
    bool pause_fade_in;        /**< hold the playhead until the fade-in completes (default true) */
} sinew_fade_options;

/** Default fade options (fade_in_time -1, play_times -1, layer 0, SAME_LAYER_AND_GROUP). */
SINEW_API sinew_fade_options sinew_fade_defaults(void);

/**
 * Plays an animation of armature `armature_index` (0 = the top armature) from its start, on
 * layer 0, ending every other state at once. play_times -1 = the data's, 0 = loop forever.
 * `anim` NULL (or "") is the official play() without a name: resume the last state if it is
 * paused, else replay it, else play the default animation.
 */
SINEW_API sinew_status sinew_instance_play_on(sinew_instance *inst, uint32_t armature_index, const char *anim,
                                    int32_t play_times, sinew_error *err);
/**
 * sinew_instance_play_on by index: `animation` numbers the animations of the armature data that
 * instance armature `armature_index` plays, as sinew_data_find_animation returns them and
 * sinew_data_get_animation_info takes them (for armature 0, the armature the instance was created
 * with). An index out of range is SINEW_E_NOT_FOUND.
 */
SINEW_API sinew_status sinew_instance_play_index(sinew_instance *inst, uint32_t armature_index, uint32_t animation,
                                                 int32_t play_times, sinew_error *err);
/** sinew_instance_play_on for the top armature. */
SINEW_API sinew_status sinew_instance_play(sinew_instance *inst, const char *anim, int32_t play_times,
                                 sinew_error *err);
/** Fades an animation in (cross-fading the others per opt->fade_out_mode). A NaN or +infinite
 * time_scale, or a weight that is not finite, is SINEW_E_ARG and changes nothing (a non-finite
 * fade_in_time means the animation's own). */
SINEW_API sinew_status sinew_instance_fade_in(sinew_instance *inst, uint32_t armature_index, const char *anim,
                                    const sinew_fade_options *opt, sinew_error *err);

/** Units for the goto calls. */
typedef enum sinew_goto_unit {
    SINEW_GOTO_TIME = 0,      /**< seconds */
    SINEW_GOTO_FRAME,         /**< frames of the armature's frame rate */
    SINEW_GOTO_PROGRESS       /**< 0..1 of the duration */
} sinew_goto_unit;

/** Plays `anim` from a position (official gotoAndPlayByTime/Frame/Progress). */
SINEW_API sinew_status sinew_instance_goto_and_play(sinew_instance *inst, uint32_t armature_index,
                                          const char *anim, sinew_goto_unit unit, double value,
                                          int32_t play_times, sinew_error *err);
/** Shows `anim` held at a position (official gotoAndStopByTime/Frame/Progress). */
SINEW_API sinew_status sinew_instance_goto_and_stop(sinew_instance *inst, uint32_t armature_index,
                                          const char *anim, sinew_goto_unit unit, double value,
                                          sinew_error *err);
/** Pauses the newest state playing `anim` (NULL = every state), as the official stop(name). */
SINEW_API void sinew_instance_stop(sinew_instance *inst, uint32_t armature_index, const char *anim);
/** Sets the armature-level time scale (multiplies every state's; children inherit it). */
SINEW_API void sinew_instance_set_time_scale(sinew_instance *inst, uint32_t armature_index, double scale);

/** A read-only view of one animation state. */
typedef struct sinew_state_info {
    const char *name;
    const char *group;
    int32_t layer;
    int32_t play_times;         /**< 0 = forever */
    int32_t current_play_times; /**< completed loops */
    double current_time;        /**< seconds within the current loop */
    double duration;            /**< seconds */
    double weight;              /**< the state's own weight */
    double fade_progress;       /**< 0..1 */
    double time_scale;
    bool playing, completed, fading_in, fading_out;
} sinew_state_info;

/** Number of animation states of an armature (fading ones included). */
SINEW_API uint32_t sinew_instance_state_count(const sinew_instance *inst, uint32_t armature_index);
/** Fills *out for state i (in layer order). Returns false if out of range. */
SINEW_API bool sinew_instance_state(const sinew_instance *inst, uint32_t armature_index, uint32_t i,
                          sinew_state_info *out);
/** Sets a state's time scale / weight (by animation name; false if none plays it). */
SINEW_API bool sinew_instance_state_set_time_scale(sinew_instance *inst, uint32_t armature_index,
                                         const char *anim, double scale);
SINEW_API bool sinew_instance_state_set_weight(sinew_instance *inst, uint32_t armature_index,
                                     const char *anim, double weight);

/* ---- events -------------------------------------------------------------------------------- */

typedef enum sinew_event_type {
    SINEW_EVENT_START = 0,
    SINEW_EVENT_LOOP_COMPLETE,
    SINEW_EVENT_COMPLETE,
    SINEW_EVENT_FADE_IN,
    SINEW_EVENT_FADE_IN_COMPLETE,
    SINEW_EVENT_FADE_OUT,
    SINEW_EVENT_FADE_OUT_COMPLETE,
    SINEW_EVENT_FRAME,          /**< a frame `event` */
    SINEW_EVENT_SOUND           /**< a frame `sound` */
} sinew_event_type;

/** The official event type string ("start", "loopComplete", "frameEvent", ...). */
SINEW_API const char *sinew_event_type_name(sinew_event_type type);

/** One event. Strings point into the data (valid while it lives). */
typedef struct sinew_event {
    sinew_event_type type;
    const char *name;           /**< event/sound name ("" for state events) */
    const char *armature;       /**< armature that fired it */
    const char *animation;      /**< animation state name */
    const char *bone;           /**< or NULL */
    const char *slot;           /**< or NULL */
    uint32_t armature_index;    /**< 0 = top, else a child armature */
    double time;                /**< frame events: the frame's time in seconds */
    const int32_t *ints;        /**< 5.x user data (may be NULL) */
    const float *floats;
    const char *const *strings;
    uint32_t int_count, float_count, string_count;
    bool state_ended;           /**< the animation state had ended (been removed) before the event
                                     was delivered; the official runtime then reports an empty
                                     animation name, because it recycles the state object */
} sinew_event;

typedef void (*sinew_event_fn)(void *user, const sinew_instance *inst, const sinew_event *ev);

/** Events go to `fn` at the end of each update (NULL = queue them for polling instead). */
SINEW_API void sinew_instance_set_event_callback(sinew_instance *inst, sinew_event_fn fn, void *user);
/** Pops the oldest queued event. The queue holds sinew_instance_options.max_events (by default 64,
 * and 16 more per child armature of the instance); older ones are dropped (counted). */
SINEW_API bool sinew_instance_poll_event(sinew_instance *inst, sinew_event *out);
/** Events dropped because the queue was full. */
SINEW_API uint64_t sinew_instance_events_dropped(const sinew_instance *inst);

/**
 * Animation states ended early because an armature already held max_states of them, or had no
 * storage for one more inside an update or after a failed allocation (see
 * sinew_instance_options.reserved_states). A new state then takes the place of the faded-out-most
 * one, which changes the pose: raise max_states or reserved_states if this is ever non-zero.
 */
SINEW_API uint64_t sinew_instance_states_dropped(const sinew_instance *inst);
/** The max_states the instance was created with. */
SINEW_API uint32_t sinew_instance_max_states(const sinew_instance *inst);

/* ---- pose ---------------------------------------------------------------------------------- */

/** Number of armatures in the instance (1 + nested child armatures). */
SINEW_API uint32_t sinew_instance_armature_count(const sinew_instance *inst);
/** Name of armature i; NULL if out of range. */
SINEW_API const char *sinew_instance_armature_name(const sinew_instance *inst, uint32_t armature_index);

/**
 * Whether armature `armature_index` is drawn now (the top one always; a child while its parent
 * slot shows it, up the chain) and, in `to_top` (may be NULL), the matrix from its space to the top
 * armature's: for drawing a child's bones or boundingBox polygons beside the draw list.
 */
SINEW_API bool sinew_instance_armature_placement(const sinew_instance *inst, uint32_t armature_index, sinew_affine *to_top);

SINEW_API uint32_t sinew_instance_bone_count(const sinew_instance *inst, uint32_t armature_index);
/** Bone name, parent index (SINEW_INVALID_INDEX for a root) and world matrix (armature space). */
SINEW_API bool sinew_instance_bone(const sinew_instance *inst, uint32_t armature_index, uint32_t bone,
                         const char **name, uint32_t *parent, sinew_affine *world);

SINEW_API uint32_t sinew_instance_slot_count(const sinew_instance *inst, uint32_t armature_index);

/** One slot as it is now. */
typedef struct sinew_slot_state {
    const char *name;
    uint32_t index;             /**< slot index in the armature data */
    uint32_t parent;            /**< bone index */
    int32_t display_index;      /**< -1 hidden */
    const char *display_name;   /**< NULL when nothing is displayed */
    const char *display_path;   /**< texture key / child armature name, NULL when none */
    int display_type;           /**< 0 image, 1 armature, 2 mesh, 3 boundingBox, 4 path, 5 shape
                                     (6.0 vector shape); -1 none */
    bool visible;
    uint32_t draw_index;        /**< position in the draw order */
    sinew_color_transform color;
    sinew_blend_mode blend;
    sinew_affine world;         /**< slot world matrix (armature space) */
    const float *mesh_vertices; /**< MESH: world (armature space) x,y pairs; SHAPE: its control points
                                     so (three per Bezier point: in-control, anchor, out-control); PATH
                                     of a 6.0 file: its points as its path constraint places them (three
                                     per anchor); else NULL */
    uint32_t mesh_vertex_count;
    bool mesh_weighted;         /**< skinned to bones */
    uint32_t child_armature;    /**< ARMATURE: armature index of the child, else INVALID */
    bool has_pivot;             /**< IMAGE, and the instance has an atlas (or the image is a user
                                     region): pivot is set ((0, 0) for a texture the atlas lacks,
                                     as officially) */
    float pivot_x, pivot_y;     /**< the image point on the slot's origin, in slot space (pixels from
                                     its top-left corner; the official Slot._pivotX/Y) */
    /* DragonBones 6.0 masks (5.x files: false, 0, SINEW_INVALID_INDEX): */
    bool mask;                  /**< a mask slot: the display data it shows (or showed last, while it
                                     shows nothing) has `mask` and a maskRange above 0 */
    double mask_range;          /**< ... that maskRange */
    uint32_t masked_by;         /**< the slot (index in the armature data) whose mask display clips this
                                     one (the official Pixi adapters' rule), or SINEW_INVALID_INDEX */
} sinew_slot_state;

/**
 * Slot by draw order position (0 = back). Not a pure read, so the instance is not const: reading a
 * slot takes its newly computed place over, as the official runtime's Slot.updateGlobalTransform
 * does when a slot's global transform is read, and a surface (mesh) parent then chooses the
 * slot's cell by that place (docs/runtime.md).
 */
SINEW_API bool sinew_instance_slot(sinew_instance *inst, uint32_t armature_index, uint32_t draw_index,
                                   sinew_slot_state *out);

/** A constraint's kind (sinew_constraint_state). */
typedef enum sinew_constraint_type {
    SINEW_CONSTRAINT_IK = 0,
    SINEW_CONSTRAINT_PATH,
    SINEW_CONSTRAINT_TRANSFORM,  /**< 6.0: one per constrained bone */
    SINEW_CONSTRAINT_PHYSICS     /**< 6.0 */
} sinew_constraint_type;

/** A constraint's running state now (what tools/oracle6's `--constraints` dumps). */
typedef struct sinew_constraint_state {
    sinew_constraint_type type;
    const char *name;
    uint32_t bone;               /**< TRANSFORM: the constrained bone; PHYSICS: its bone; else INVALID */
    uint32_t target;             /**< TRANSFORM: the driving bone; else INVALID */
    double weight;               /**< IK */
    bool bend_positive;          /**< IK */
    double position, spacing, rotate_weight, x_weight, y_weight; /**< PATH (5.x: x and y weight are the
                                                                      translateMix, rotate_weight the rotateMix) */
    bool sleeping, reset;        /**< PHYSICS: asleep; resets at its next update */
    double remaining, last_time; /**< PHYSICS: time not yet stepped; the clock time of its last update */
    double x_offset, x_velocity, y_offset, y_velocity, rotate_offset, rotate_velocity, scale_offset,
        scale_velocity;          /**< PHYSICS */
} sinew_constraint_state;

/**
 * The constraints of armature `armature_index`, in the official runtime's order: its IK and path
 * constraints (as its bones run them), then for each bone in update order its transform
 * constraint and its physics constraint (6.0 files). `i` < sinew_instance_constraint_count.
 */
SINEW_API uint32_t sinew_instance_constraint_count(const sinew_instance *inst, uint32_t armature_index);
SINEW_API bool sinew_instance_constraint(const sinew_instance *inst, uint32_t armature_index, uint32_t i,
                                         sinew_constraint_state *out);

/* ---- control: bounds, hit tests, bone offsets ------------------------------------------------ */

/**
 * The axis-aligned bounds, in armature space, of everything the current pose draws (the vertices
 * of its draw list, child armatures included). False when it draws nothing. Builds the draw list.
 */
SINEW_API bool sinew_instance_bounds(sinew_instance *inst, sinew_rect *out);

/**
 * The topmost drawn slot whose triangles contain the point (x, y) of armature space: its armature
 * (0 = the top one) and slot index. False when the point hits nothing. Builds the draw list.
 */
SINEW_API bool sinew_instance_hit(sinew_instance *inst, float x, float y, uint32_t *armature_index, uint32_t *slot);

/**
 * The official Slot.containsPoint: whether (x, y), in the armature space of `armature_index`, lies
 * inside the boundingBox display the slot shows (false when it shows none).
 */
SINEW_API bool sinew_instance_slot_contains_point(const sinew_instance *inst, uint32_t armature_index, uint32_t slot, float x,
                                        float y);
/**
 * The outline of the boundingBox display the slot shows, in armature space: writes up to `cap`
 * points (x, y pairs) to `xy` and returns how many it has (0 when the slot shows none): a
 * polygon's points, a rectangle's 4 corners, 32 points around an ellipse.
 */
SINEW_API uint32_t sinew_instance_slot_bounding_box(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                          float *xy, uint32_t cap);

/** Where a segment crosses boundingBox polygons (sinew_instance_*intersects_segment). */
typedef struct sinew_segment_hit {
    uint32_t slot_a, slot_b;      /**< the slots of the two crossings below */
    float ax, ay;                 /**< the crossing nearest the segment's start (armature space) */
    float bx, by;                 /**< the crossing nearest its end (the same point for one crossing) */
    float normal_a, normal_b;     /**< at each: the crossed edge's direction turned by -90 degrees,
                                       radians in armature space (the official normalRadians) */
} sinew_segment_hit;

/**
 * The official Slot.intersectsSegment: how many times the segment (xa, ya)-(xb, yb) crosses the
 * outline of the boundingBox the slot shows (polygon edges, rectangle sides, ellipse; armature
 * space; 0 when none, or when the slot shows no box). With `out`, where (slot_a = slot_b = slot).
 * A segment wholly inside crosses none.
 */
SINEW_API uint32_t sinew_instance_slot_intersects_segment(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                                float xa, float ya, float xb, float yb, sinew_segment_hit *out);
/**
 * The official Armature.intersectsSegment: over the slots of armature `armature_index`, whether the
 * segment crosses any boundingBox polygon, and in `out` the crossing nearest its start and the one
 * nearest its end, with their slots.
 */
SINEW_API bool sinew_instance_intersects_segment(const sinew_instance *inst, uint32_t armature_index, float xa, float ya,
                                       float xb, float yb, sinew_segment_hit *out);

/** A bone's offset on top of its animation, the official Bone.offset (identity: 0 0 0 0 1 1). */
typedef struct sinew_bone_offset {
    float x, y;                  /**< added to the bone's translation (parent space) */
    float rotation_rad, skew_rad;/**< added */
    float scale_x, scale_y;      /**< multiply the bone's scale */
} sinew_bone_offset;

/**
 * Sets (or, with `offset` NULL, removes) a bone's offset: from the next update the bone is its
 * setup pose plus the animation plus the offset, as the official runtime's `bone.offset` with
 * `invalidUpdate()`. Children follow, and IK solves with it. Fails with SINEW_E_NOT_FOUND for an
 * unknown bone and SINEW_E_UNSUPPORTED on an instance with a frame cache (its poses are shared).
 */
SINEW_API sinew_status sinew_instance_set_bone_offset(sinew_instance *inst, uint32_t armature_index, const char *bone,
                                            const sinew_bone_offset *offset, sinew_error *err);
/**
 * Moves a bone so that its origin lands on (x, y) in armature space (for an IK target that follows
 * the mouse): sets its translation offset from the current pose, keeping any rotation, skew or
 * scale offset. Takes effect at the next update; call it again when the animation moves the bone.
 */
SINEW_API sinew_status sinew_instance_bone_follow(sinew_instance *inst, uint32_t armature_index, const char *bone, float x,
                                        float y, sinew_error *err);

/**
 * Shows slot `slot` with the displays skin `skin` gives it, leaving the other slots as they are
 * (a single slot swapped between skins). sinew_instance_set_skin resets every slot to the instance
 * skin again. Fails with SINEW_E_NOT_FOUND for an unknown slot or skin, or a skin that gives the
 * slot no displays.
 */
SINEW_API sinew_status sinew_instance_set_slot_skin(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                          const char *skin, sinew_error *err);

/**
 * Puts the display `display` of the armature's default skin, from slot `source_slot` (NULL = the
 * same slot), into slot `slot` at display index `display_index` (-1 = the one it shows now, 0 when
 * hidden): the official factory.replaceSlotDisplay within one armature. Animations that switch the
 * slot to that index show it. `display` NULL undoes the replacement. Images and bounding boxes
 * move between slots; a mesh only within its own slot (its vertices are bound to it); other kinds
 * fail with SINEW_E_UNSUPPORTED.
 */
SINEW_API sinew_status sinew_instance_replace_display(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                            const char *source_slot, const char *display, int32_t display_index,
                                            sinew_error *err);
/**
 * The same, with the display taken from the default skin of armature `source_armature` of the
 * instance's data (NULL = the slot's own armature): the official replaceSlotDisplay's armatureName,
 * e.g. a weapon drawn in an armature of its own. Its texture comes from the instance's atlas.
 */
SINEW_API sinew_status sinew_instance_replace_display_from(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                                 const char *source_armature, const char *source_slot,
                                                 const char *display, int32_t display_index, sinew_error *err);

/** An image of the caller's own, for sinew_instance_replace_display_region. */
typedef struct sinew_user_region {
    uint32_t page;                    /**< the page draw commands name: give your renderer a texture
                                           there (a number past the atlas's pages; docs/runtime.md) */
    uint32_t page_width, page_height; /**< that page's size in pixels */
    float x, y, width, height;        /**< the image's rectangle in the page, in pixels */
    float pivot_x, pivot_y;           /**< the image point put on the display's origin, as a fraction
                                           of its size (0.5, 0.5 = its centre) */
} sinew_user_region;

/**
 * Shows the caller's image `region` in slot `slot` at display index `display_index` (-1 = the one
 * it shows now, 0 when hidden), as the official Slot.replaceDisplay does with an engine display:
 * the slot keeps its own display's transform at that index, and the image is placed by its own
 * pivot. Undo with sinew_instance_replace_display(..., NULL, ...). Fails with SINEW_E_ARG for a
 * rectangle outside its page.
 */
SINEW_API sinew_status sinew_instance_replace_display_region(sinew_instance *inst, uint32_t armature_index, const char *slot,
                                                   const sinew_user_region *region, int32_t display_index,
                                                   sinew_error *err);

/* ---- draw list ----------------------------------------------------------------------------- */

/**
 * Fills *out with the current frame (see drawlist.h), child armatures flattened in place with
 * their parent's colour multiplied in. The arrays live inside the instance until the next call.
 * Images need the atlas given at creation (without it they are drawn untextured, size 0).
 *
 * The draw list's storage is allocated by the first call (one allocation through the instance's
 * allocator, on the calling thread; an instance never drawn carries none), or beforehand by
 * sinew_instance_reserve_drawlist; if that allocation fails, the list is empty. Later calls never
 * allocate. What does not change from frame to frame (a display's UVs and indices, its texture
 * region) is written again only when the command at its place changes (another display, or an
 * earlier one grew or went): most frames write colours and positions only.
 */
SINEW_API void sinew_instance_drawlist(sinew_instance *inst, sinew_drawlist *out);

/** A 6.0 vector shape as a slot shows it now (sinew_instance_shape). */
typedef struct sinew_shape_info {
    uint32_t point_count;       /**< Bezier points: 6 floats each, in-control x y, anchor x y, out-control x y */
    uint32_t path_count;
    sinew_affine matrix;        /**< from the points' space to the draw list's: slot space placed by the
                                     slot's matrix, or (a weighted shape) the armature's space; stroke
                                     widths are measured in the points' space, as the official adapter
                                     strokes */
    bool mask;                  /**< a mask display (`mask` and `maskRange` > 0): it clips, it is not drawn */
    double mask_range;          /**< `maskRange` as written */
} sinew_shape_info;

/** One path of a shape: move to the anchor of indexes[0], then a cubic to the anchor of each next
 * index, from the previous point's out-control via this point's in-control; never closed (it
 * ends where it began only by repeating its first index). Then stroke, then fill over it. */
typedef struct sinew_shape_path {
    const uint32_t *indexes;    /**< Bezier point indices */
    uint32_t index_count;
    bool fill, stroke;          /**< which the style has (a path with neither lends its outline to the
                                     next path that has one, as the official adapter's Graphics path) */
    uint32_t fill_color;        /**< 0xRRGGBB */
    float fill_opacity;
    uint32_t stroke_color;      /**< 0xRRGGBB */
    float stroke_opacity;       /**< 0 when the file gives none (the official adapter's default) */
    float stroke_width;         /**< in the points' space */
} sinew_shape_path;

/**
 * The vector shape slot `slot` (its index in the armature data, as sinew_draw_cmd.slot) shows now,
 * for a renderer that draws outlines itself instead of the draw list's triangles: false when the
 * slot shows no shape. `points` (may be NULL) receives 6 * point_count floats when `capacity`
 * (floats) is enough: the current control points (deformed, skinned) in the space `matrix` maps to
 * the draw list's.
 */
SINEW_API bool sinew_instance_shape(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                    sinew_shape_info *info, float *points, uint32_t capacity);
/** Path `path` of the shape slot `slot` shows (see sinew_instance_shape). */
SINEW_API bool sinew_instance_shape_path(const sinew_instance *inst, uint32_t armature_index, uint32_t slot,
                                         uint32_t path, sinew_shape_path *out);

/**
 * Allocates the draw list's storage now (see sinew_instance_drawlist), so that no draw list
 * allocates later: for an allocator that must not be called from the threads that build draw
 * lists (sinew_crowd_update), or to learn of an allocation failure. Nothing happens if it exists.
 */
SINEW_API sinew_status sinew_instance_reserve_drawlist(sinew_instance *inst, sinew_error *err);

/* ---- crowds ------------------------------------------------------------------------------- */

/**
 * Advances `count` instances by dt seconds each (sinew_instance_update) and, when `drawlists` is
 * given, fills drawlists[i] with instance i's draw list after its update (sinew_instance_drawlist),
 * using `threads` threads: the calling thread and threads - 1 started for the call and joined
 * before it returns (0 = one per online core; at most 64; 1 = the calling thread only). Threads
 * take the instances in small blocks from a shared atomic counter: no lock, and no instance is
 * touched by two threads. Every result (poses, events, draw lists) is bit-identical to calling
 * sinew_instance_update and sinew_instance_drawlist on each instance in order on one thread, since
 * instances share nothing an update writes.
 *
 * Conditions: the instances are distinct; event callbacks (sinew_instance_set_event_callback) run
 * on the thread that updated the instance; a draw list's first build allocates through the
 * instance's allocator on that thread (call sinew_instance_reserve_drawlist beforehand for an
 * allocator that must stay on one thread). Instances that use a frame cache are written into a
 * shared cache by their updates: a call with any of them runs on the calling thread alone. A
 * thread that cannot be started leaves its share to the others.
 *
 * NULL entries are skipped; with `drawlists`, a skipped entry's drawlists[i] is set empty (all
 * zero), never left as it was. Fails with SINEW_E_ARG for NULL `instances` with count > 0, and
 * with SINEW_E_NOMEM when a draw list's first allocation fails (on whichever thread): every
 * instance is still advanced and the others drawn, those lists are empty, and the message gives
 * how many there were and the index of the first; the next call tries their allocation again.
 */
SINEW_API sinew_status sinew_crowd_update(sinew_instance *const *instances, size_t count, double dt, uint32_t threads,
                                sinew_drawlist *drawlists, sinew_error *err);

/**
 * The same work for threads a caller already has (a job system): part `part` of `parts` equal,
 * contiguous parts of the instances (part < parts). Calling it once for every part, on any threads
 * at the same time, does what one sinew_crowd_update does (the same conditions apply), except that
 * it reports nothing: a draw list whose allocation fails is empty. Call
 * sinew_instance_reserve_drawlist on each instance beforehand to learn of that.
 */
SINEW_API void sinew_crowd_update_part(sinew_instance *const *instances, size_t count, double dt, sinew_drawlist *drawlists,
                             uint32_t part, uint32_t parts);

#ifdef __cplusplus
}
#endif
#endif
