/**
 * sinew/input.h - MRTK input animations (head, hand and eye-gaze recordings), versions 1.0/1.1.
 *
 * An animation is a fixed set of 395 curves in file order (camera pose, hand tracked/pinch flags,
 * 2 x 27 joint poses, eye-gaze ray), three section flags, and a marker list. Curves keep every
 * key and both raw wrap modes exactly as read, so reading then writing gives the same bytes.
 *
 *     sinew_input_animation *anim;
 *     sinew_error err = {0};
 *     if (sinew_input_load_file("rec.bin", NULL, &anim, &err) != SINEW_OK) { ...report err... }
 *     sinew_input_frame f;
 *     sinew_input_eval(anim, 1.5, &f);            // f.camera.position, f.hands[0].joints[...]
 *     sinew_input_write_options wo = sinew_input_write_defaults();
 *     wo.version_minor = 0;                       // write 1.0
 *     sinew_input_save_file(anim, "rec-1.0.bin", &wo, &err);
 *     sinew_input_destroy(anim);
 *
 * Byte layout, MRTK quirks and evaluation rules: docs/input.md.
 */
#ifndef SINEW_INPUT_H
#define SINEW_INPUT_H

#include <stdio.h>

#include "sinew/base.h"
#include "sinew/curve.h"
#include "sinew/drawlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The 8-byte magic number at offset 0 (little-endian on disk: c6 42 9e 0f 6e af 8f 6a). */
#define SINEW_INPUT_MAGIC 0x6a8faf6e0f9e42c6ULL
/** MRTK 2.x TrackedHandJoint count, "None" included. */
#define SINEW_INPUT_JOINT_COUNT 27
#define SINEW_INPUT_POSE_CHANNELS 7
#define SINEW_INPUT_RAY_CHANNELS 6

/** Curve indices, in file order. hand: 0 left, 1 right. */
#define SINEW_INPUT_CURVE_CAMERA 0
#define SINEW_INPUT_CURVE_TRACKED(hand) (7u + (uint32_t)(hand))
#define SINEW_INPUT_CURVE_PINCH(hand) (9u + (uint32_t)(hand))
#define SINEW_INPUT_CURVE_JOINTS 11u
#define SINEW_INPUT_CURVE_JOINT(hand, joint, channel)                                               \
    (SINEW_INPUT_CURVE_JOINTS + (uint32_t)(hand) * 189u + (uint32_t)(joint) * 7u + (uint32_t)(channel))
#define SINEW_INPUT_CURVE_GAZE 389u
/** Curves in a 1.0 file (no gaze) */
#define SINEW_INPUT_CURVE_COUNT_V10 389u
#define SINEW_INPUT_CURVE_COUNT 395u

/** Pose channels (7 curves per pose) in file order. */
typedef enum sinew_input_pose_channel {
    SINEW_INPUT_PX = 0, SINEW_INPUT_PY, SINEW_INPUT_PZ,
    SINEW_INPUT_RX, SINEW_INPUT_RY, SINEW_INPUT_RZ, SINEW_INPUT_RW
} sinew_input_pose_channel;

/** Ray channels (6 curves) in file order. */
typedef enum sinew_input_ray_channel {
    SINEW_INPUT_OX = 0, SINEW_INPUT_OY, SINEW_INPUT_OZ,
    SINEW_INPUT_DX, SINEW_INPUT_DY, SINEW_INPUT_DZ
} sinew_input_ray_channel;

/** Where 1.1 float curves keep their keys: MRTK's 8-byte (time, value) keys or the spec's 28 bytes. */
typedef enum sinew_input_layout {
    SINEW_INPUT_LAYOUT_MRTK = 0,
    SINEW_INPUT_LAYOUT_SPEC = 1
} sinew_input_layout;

/** A marker: time in seconds and a UTF-8 name (not NUL-checked; `name` is NUL-terminated). */
typedef struct sinew_input_marker {
    float time;
    uint32_t name_length;
    char *name;
} sinew_input_marker;

/** A loaded or built animation. Fields may be read freely; change curves through the API. */
typedef struct sinew_input_animation {
    int32_t version_major;     /**< 1 */
    int32_t version_minor;     /**< 0 or 1 */
    sinew_input_layout layout; /**< for 1.1; 1.0 files report MRTK (both layouts are the same there) */
    bool has_camera;
    bool has_hands;
    bool has_eye_gaze;
    sinew_curve curves[SINEW_INPUT_CURVE_COUNT]; /**< see SINEW_INPUT_CURVE_*; absent sections empty */
    sinew_input_marker *markers;
    uint32_t marker_count;
    bool markers_missing;      /**< the file ended where the marker list should start */
    uint64_t trailing_bytes;   /**< bytes after the marker list (ignored) */
    uint64_t file_size;        /**< size of the input read, 0 if built in memory */
    const sinew_allocator *allocator;
} sinew_input_animation;

/** Evaluated pose: position in metres, rotation quaternion x, y, z, w (unit length). */
typedef struct sinew_input_pose {
    float position[3];
    float rotation[4];
} sinew_input_pose;

/** One evaluated instant of the whole recording. */
typedef struct sinew_input_frame {
    double time;
    sinew_input_pose camera;
    struct {
        bool tracked;
        bool pinch;
        sinew_input_pose joints[SINEW_INPUT_JOINT_COUNT];
    } hands[2];
    float gaze_origin[3];
    float gaze_direction[3]; /**< unit length, or zero if the curves give zero */
} sinew_input_frame;

/** Per-curve cursors for sequential playback. Zero-initialise (or sinew_input_cursor_reset). */
typedef struct sinew_input_cursor {
    sinew_curve_cursor curves[SINEW_INPUT_CURVE_COUNT];
} sinew_input_cursor;

/* ---- model ---------------------------------------------------------------------------------- */

/** Creates an empty 1.1 animation (all flags false, layout MRTK, no markers). */
SINEW_API sinew_status sinew_input_create(const sinew_allocator *allocator, sinew_input_animation **out,
                                sinew_error *err);
/** Frees everything. NULL is fine. */
SINEW_API void sinew_input_destroy(sinew_input_animation *anim);

/** MRTK 2.x joint name ("None", "Wrist", ... "PinkyTip"), or NULL if joint >= 27. */
SINEW_API const char *sinew_input_joint_name(uint32_t joint);
/** Joint index for a name, or SINEW_INVALID_INDEX. */
SINEW_API uint32_t sinew_input_joint_index(const char *name);
/** True for the four boolean curves (tracked, pinch). */
SINEW_API bool sinew_input_curve_is_bool(uint32_t index);
/**
 * Writes the dump-schema path of a curve into buf, e.g. "camera.px", "hands.left.tracked",
 * "hands.right.joints.IndexTip.rw", "eyeGaze.dx". Returns buf.
 */
SINEW_API char *sinew_input_curve_path(uint32_t index, char *buf, size_t size);
/** True if the curve's section is present (its flag is set). */
SINEW_API bool sinew_input_curve_present(const sinew_input_animation *anim, uint32_t index);

/** Replaces a curve's keys (copied) and prepares it for evaluation. */
SINEW_API sinew_status sinew_input_set_curve(sinew_input_animation *anim, uint32_t index,
                                   const sinew_curve_key *keys, uint32_t count, sinew_error *err);
/** Adds a marker (the name is copied, `length` bytes). */
SINEW_API sinew_status sinew_input_add_marker(sinew_input_animation *anim, float time, const char *name,
                                    uint32_t length, sinew_error *err);
/** Total key count over the present curves. */
SINEW_API uint64_t sinew_input_key_count(const sinew_input_animation *anim);

/* ---- reading and writing ---------------------------------------------------------------------- */

/**
 * Reads a 1.0 or 1.1 file from memory. For 1.1 the layout (MRTK or spec) is the one that parses to
 * the exact end of the input (MRTK if both do). A missing marker list at the end is accepted.
 * Errors carry the byte offset (err->offset, err->path = "byte N") and what was expected there;
 * err->file is set to `name` (may be NULL).
 */
SINEW_API sinew_status sinew_input_read(const void *data, size_t size, const char *name,
                              const sinew_allocator *allocator, sinew_input_animation **out,
                              sinew_error *err);
/** Reads a whole file and calls sinew_input_read. */
SINEW_API sinew_status sinew_input_load_file(const char *path, const sinew_allocator *allocator,
                                   sinew_input_animation **out, sinew_error *err);

/** Writer options. Negative values keep the animation's own version/layout. */
typedef struct sinew_input_write_options {
    int32_t version_minor; /**< 0 (1.0) or 1 (1.1); negative = the animation's */
    int32_t layout;        /**< sinew_input_layout for 1.1; negative = the animation's */
} sinew_input_write_options;

/** {-1, -1}: keep the animation's version and layout. */
SINEW_API sinew_input_write_options sinew_input_write_defaults(void);

/** Size in bytes the writer will produce. */
SINEW_API sinew_status sinew_input_write_size(const sinew_input_animation *anim,
                                    const sinew_input_write_options *options, size_t *size,
                                    sinew_error *err);
/**
 * Writes the binary file into a buffer allocated with the animation's allocator; free it with
 * sinew_input_free_memory. The marker list is always written. Writing 1.0 drops the eye gaze;
 * writing the MRTK 1.1 layout drops float tangents and weights (the caller may warn).
 */
SINEW_API sinew_status sinew_input_write_memory(const sinew_input_animation *anim,
                                      const sinew_input_write_options *options, uint8_t **data,
                                      size_t *size, sinew_error *err);
/** Frees a buffer from sinew_input_write_memory. */
SINEW_API void sinew_input_free_memory(const sinew_input_animation *anim, uint8_t *data, size_t size);
/** Writes atomically (temp file in the target folder, then rename). */
SINEW_API sinew_status sinew_input_save_file(const sinew_input_animation *anim, const char *path,
                                   const sinew_input_write_options *options, sinew_error *err);

/** True if writing with these options loses information (gaze for 1.0, tangents for MRTK 1.1). */
SINEW_API bool sinew_input_write_is_lossy(const sinew_input_animation *anim,
                                const sinew_input_write_options *options);

/* ---- JSON / CSV ------------------------------------------------------------------------------- */

/** Writes the dump JSON (schema in docs/input.md) to `out`. Non-finite numbers are strings. */
SINEW_API sinew_status sinew_input_write_json(const sinew_input_animation *anim, FILE *out, sinew_error *err);
/** One CSV row per key: section,hand,joint,channel,time,value,inTangent,outTangent,inWeight,outWeight,weightedMode */
SINEW_API sinew_status sinew_input_write_csv(const sinew_input_animation *anim, FILE *out, sinew_error *err);
/** Parses the dump JSON. Errors name the JSON path. */
SINEW_API sinew_status sinew_input_read_json(const char *text, size_t length, const char *name,
                                   const sinew_allocator *allocator, sinew_input_animation **out,
                                   sinew_error *err);
/** Reads a JSON file and calls sinew_input_read_json. */
SINEW_API sinew_status sinew_input_load_json_file(const char *path, const sinew_allocator *allocator,
                                        sinew_input_animation **out, sinew_error *err);
/**
 * Formats a float as the JSON dumps hold it (sinew_input_write_json uses it; API for tools that
 * write their own dumps): the shortest "%g" text of 6 to 9 significant digits that reads back to
 * the same float, with a '.' whatever the locale; NaN and the infinities as the JSON strings
 * "NaN", "Infinity", "-Infinity" (quotes included). `buf` of at least 24 bytes holds every value;
 * a smaller one gets the text truncated, NUL-terminated when `size` > 0.
 */
SINEW_API void sinew_input_format_float(float v, char *buf, size_t size);

/* ---- evaluation ------------------------------------------------------------------------------ */

/** Last key time over all present curves (markers excluded); 0 if there is none. */
SINEW_API double sinew_input_duration(const sinew_input_animation *anim);
/** First key time over all present curves; 0 if there is none. */
SINEW_API double sinew_input_start_time(const sinew_input_animation *anim);

/**
 * Evaluates everything at time t. Absent sections give the defaults: camera and joints at the
 * origin with identity rotation, hands untracked and not pinching, gaze from the origin along +Z.
 * Rotations are normalised (identity if all four components are 0); the gaze direction too.
 */
SINEW_API void sinew_input_eval(const sinew_input_animation *anim, double t, sinew_input_frame *out);
/** The same with cursors: O(1) per curve when t moves forward in small steps. */
SINEW_API void sinew_input_eval_cursor(const sinew_input_animation *anim, sinew_input_cursor *cursor, double t,
                             sinew_input_frame *out);

/* ---- editing ---------------------------------------------------------------------------------- */

/**
 * Keeps [t0, t1]: keys inside are kept, boundary keys are inserted where keys lie outside so the
 * curves evaluate the same inside the range. With `rebase` the result starts at time 0 (times and
 * markers minus t0). Markers outside the range are dropped.
 */
SINEW_API sinew_status sinew_input_trim(sinew_input_animation *anim, double t0, double t1, bool rebase,
                              sinew_error *err);
/** Adds dt to every key and marker time. */
SINEW_API sinew_status sinew_input_shift(sinew_input_animation *anim, double dt, sinew_error *err);
/**
 * Re-keys every float curve with 2+ keys at a fixed rate from its first to its last key (the last
 * key kept) as linear keys (tangents 0, weights 0, mode Both), like MRTK records. Boolean curves,
 * empty and one-key curves are unchanged.
 */
SINEW_API sinew_status sinew_input_resample(sinew_input_animation *anim, double hz, sinew_error *err);

/** Key-reduction thresholds (MRTK's defaults from sinew_input_simplify_defaults). */
typedef struct sinew_input_simplify_options {
    double joint_position;      /**< metres, 0.001 */
    double joint_rotation_deg;  /**< degrees, 0.2 */
    double camera_position;     /**< 0.002 */
    double camera_rotation_deg; /**< 0.2 */
    double gaze_origin;         /**< 0.002 */
    double gaze_direction_deg;  /**< 0.2 */
} sinew_input_simplify_options;

SINEW_API sinew_input_simplify_options sinew_input_simplify_defaults(void);

/**
 * Ramer-Douglas-Peucker key reduction per pose/ray part (position xyz together, rotation xyzw
 * together, gaze origin, gaze direction) over the union of the part's key times; the result is
 * linear keys. options NULL = MRTK defaults. `removed` (optional) receives the keys removed.
 */
SINEW_API sinew_status sinew_input_simplify(sinew_input_animation *anim,
                                  const sinew_input_simplify_options *options, uint64_t *removed,
                                  sinew_error *err);

/**
 * Rebuilds RotationW where MRTK 2.5+ lost it (W has fewer keys than the X/Y/Z curves): W is
 * re-keyed at the union of the X/Y/Z key times as sqrt(max(0, 1 - x^2 - y^2 - z^2)) with the sign
 * of the first stored W. `repaired` (optional) receives the number of poses rebuilt.
 */
SINEW_API sinew_status sinew_input_repair_rotation_w(sinew_input_animation *anim, uint32_t *repaired,
                                           sinew_error *err);

/* ---- validation ------------------------------------------------------------------------------- */

/**
 * Reports warnings through `log` (level WARNING, `where->path` = curve path or byte offset):
 * unsorted keys, non-finite times/values/tangents/weights (NaN; infinite tangents are fine),
 * unknown wrap modes, trailing bytes, a missing marker list, joints with keys while the hand is
 * never tracked. Returns the number of warnings.
 */
SINEW_API uint32_t sinew_input_validate(const sinew_input_animation *anim, const char *name, sinew_log_fn log,
                              void *user);

/* ---- drawing ----------------------------------------------------------------------------------- */

typedef enum sinew_input_view_kind {
    SINEW_INPUT_VIEW_FRONT = 0, /**< orthographic, looking along +Z (x right, y up) */
    SINEW_INPUT_VIEW_TOP = 1,   /**< orthographic, looking down -Y (x right, +z up the image) */
    SINEW_INPUT_VIEW_CAMERA = 2 /**< perspective through the recorded camera */
} sinew_input_view_kind;

/** How world space maps to the image (pixels, origin top-left, y down). */
typedef struct sinew_input_view {
    sinew_input_view_kind kind;
    uint32_t width, height;
    float center[3];         /**< ortho: the world point at the image centre */
    float pixels_per_metre;  /**< ortho scale */
    float vertical_fov_deg;  /**< camera view: vertical field of view */
    float near_plane;        /**< camera view: points closer than this are not drawn (metres) */
} sinew_input_view;

/** Fits an orthographic view around everything the animation shows (sampled at `samples` times). */
SINEW_API void sinew_input_view_fit(const sinew_input_animation *anim, sinew_input_view_kind kind,
                          uint32_t width, uint32_t height, sinew_input_view *out);

/** Projects a world point into pixels for this frame. False if behind the camera (camera view). */
SINEW_API bool sinew_input_project(const sinew_input_view *view, const sinew_input_frame *frame,
                         const float world[3], float pixel[2]);

/** Owns the vertex/index/command arrays a draw list points into. */
typedef struct sinew_input_scene sinew_input_scene;

SINEW_API sinew_status sinew_input_scene_create(const sinew_allocator *allocator, sinew_input_scene **out,
                                      sinew_error *err);
SINEW_API void sinew_input_scene_destroy(sinew_input_scene *scene);

/**
 * Builds untextured triangles (page SINEW_INVALID_INDEX, colour in `color` multipliers) for a frame:
 * bone lines and joint dots of both hands (lighter when untracked, highlighted while pinching), the
 * gaze ray and (in the ortho views) the camera. Positions are image pixels. The list stays valid
 * until the next call or sinew_input_scene_destroy.
 */
SINEW_API sinew_status sinew_input_build_drawlist(sinew_input_scene *scene, const sinew_input_frame *frame,
                                        const sinew_input_view *view, sinew_drawlist *out,
                                        sinew_error *err);

#ifdef __cplusplus
}
#endif
#endif
