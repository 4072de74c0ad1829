/**
 * sinew/data.h - loading immutable skeleton data and texture atlases, and read-only queries.
 *
 * A `sinew_data` holds everything one DragonBones file describes (every armature, bone, slot,
 * skin, display, mesh, IK constraint and animation). It lives in one arena, is immutable after a
 * successful load, may be shared by any number of instances (and threads, read-only), and is freed
 * with one call to sinew_data_destroy. It must outlive everything created from it.
 *
 *     sinew_error err = {0};
 *     sinew_data *data = NULL;
 *     if (sinew_data_load_file("hero_ske.json", NULL, &data, &err) != SINEW_OK) {
 *         fprintf(stderr, "%s:%u:%u: error: %s [%s]\n", err.file, err.line, err.column,
 *                 err.message, err.path);
 *         return 1;
 *     }
 *     sinew_armature_info a;
 *     sinew_data_get_armature_info(data, 0, &a);
 *     sinew_data_destroy(data);
 *
 * Sub-objects are addressed by `uint32_t` index (armature, then bone/slot/skin/animation/IK
 * within it). Info structs are returned by value; their strings point into the data and live as
 * long as it does.
 */
#ifndef SINEW_DATA_H
#define SINEW_DATA_H

#include "sinew/base.h"
#include "sinew/drawlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Loaded skeleton data (opaque, immutable after load). */
typedef struct sinew_data sinew_data;
/** A loaded texture atlas (opaque, immutable after load). */
typedef struct sinew_atlas sinew_atlas;

/**
 * Limits for untrusted input. A zero field means "use the default" (given in brackets).
 * A file exceeding a limit fails with SINEW_E_LIMIT naming the limit; it never runs out of memory.
 */
typedef struct sinew_load_limits {
    uint64_t max_input_bytes;     /**< size of the file or buffer [256 MiB] */
    uint64_t max_memory_bytes;    /**< bytes the loaded model may occupy, and the JSON tree while loading [1 GiB] */
    uint32_t max_depth;           /**< JSON nesting depth [64] */
    uint32_t max_array_length;    /**< elements in any one JSON array [4,000,000] */
    uint32_t max_armatures;       /**< armatures per file [4,096] */
    uint32_t max_bones;           /**< bones per armature [65,536] */
    uint32_t max_slots;           /**< slots per armature [65,536] */
    uint32_t max_vertices;        /**< vertices per mesh [1,000,000] */
    uint32_t max_animation_frames;/**< animation duration / keyframe position in frames [1,000,000] */
} sinew_load_limits;

/** Options for every load function. Zero-initialise and set what you need; NULL = all defaults. */
typedef struct sinew_load_options {
    const sinew_allocator *allocator; /**< NULL = libc. Every sinew allocation goes through it */
    sinew_log_fn log;                 /**< warnings (unknown keys, ignored values); NULL = silent */
    void *log_user;                   /**< passed to `log` */
    sinew_load_limits limits;
} sinew_load_options;

/** The limits actually applied: `in` (may be NULL) with zero fields replaced by the defaults. */
SINEW_API void sinew_load_limits_resolve(const sinew_load_limits *in, sinew_load_limits *out);

/**
 * Loads a skeleton file (DragonBones JSON 4.0, 4.5, 5.0-5.6, or DragonBones binary `.dbbin`, told by
 * its DBDT tag; docs/convert.md). On success `*out` owns the data;
 * on failure `*out` is NULL, nothing is leaked and `err` (optional) says what and where.
 * `err->file` borrows `path`.
 */
SINEW_API sinew_status sinew_data_load_file(const char *path, const sinew_load_options *opts, sinew_data **out,
                                  sinew_error *err);

/**
 * Loads skeleton data from memory (`len` bytes, no terminator needed). `name` (may be NULL) is
 * used as the file name in errors and is borrowed by `err->file`.
 */
SINEW_API sinew_status sinew_data_load_buffer(const void *buf, size_t len, const char *name,
                                    const sinew_load_options *opts, sinew_data **out, sinew_error *err);

/** Frees data loaded by sinew_data_load_*. NULL is allowed. */
SINEW_API void sinew_data_destroy(sinew_data *data);

/**
 * Loads a DragonBones texture atlas JSON (`imagePath`, `SubTexture` regions). The page image path
 * is resolved against the atlas file's folder (it is not loaded here).
 */
SINEW_API sinew_status sinew_atlas_load_file(const char *path, const sinew_load_options *opts, sinew_atlas **out,
                                   sinew_error *err);
/** Loads an atlas from memory; `dir` (may be NULL) is the folder image paths are relative to. */
SINEW_API sinew_status sinew_atlas_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                     const sinew_load_options *opts, sinew_atlas **out, sinew_error *err);
/** Frees an atlas. NULL is allowed. */
SINEW_API void sinew_atlas_destroy(sinew_atlas *atlas);

/**
 * An atlas for a rig without an atlas JSON whose displays name whole images (the Live2D-converted
 * DragonBones demos: `shizuku.1024/texture_00`): each image or mesh display's texture name, with
 * ".png" added, is looked up under `dir`; every image found becomes a page of its own with one
 * region over all of it (UVs over the whole image). Displays whose image is not there are not
 * drawn. Fails with SINEW_E_NOT_FOUND when no image is found. Free with sinew_atlas_destroy.
 */
SINEW_API sinew_status sinew_atlas_from_images(const sinew_data *data, const char *dir, const sinew_allocator *allocator,
                                     sinew_atlas **out, sinew_error *err);

/**
 * Finds the atlas JSON that belongs to a skeleton file, in the skeleton's folder:
 * `X_ske.json` (or `X_ske.dbbin`) -> `X_tex.json`; otherwise `texture.json`; otherwise the first (by name)
 * `*_texture_*.json`. Writes the path (NUL-terminated) to `out_path`.
 * Returns SINEW_OK, SINEW_E_NOT_FOUND when there is none, SINEW_E_ARG when `size` is too small.
 */
SINEW_API sinew_status sinew_atlas_find_for(const char *skeleton_path, char *out_path, size_t size);

/* ---- queries --------------------------------------------------------------------------------- */

/** Whole-file facts. */
typedef struct sinew_data_info {
    const char *format;             /**< "dragonbones" or "xml" */
    const char *name;               /**< the data name ("" if none) */
    const char *version;            /**< as written, e.g. "4.5" */
    const char *compatible_version; /**< NULL if absent */
    float frame_rate;               /**< the top-level frameRate (default 24) */
    bool is_global;                 /**< the file said isGlobal: 1 (converted to local at load) */
    uint32_t armature_count;
    bool v6;                        /**< a DragonBones 6.0 file (`version` or `compatibleVersion`
                                         6.0): it plays as the official 6.0 runtime plays it
                                         (docs/runtime.md "DragonBones 6.0") */
} sinew_data_info;

typedef struct sinew_armature_info {
    const char *name;
    const char *type;               /**< "Armature", "MovieClip" or "Stage" */
    float frame_rate;               /**< resolved frames per second */
    uint32_t bone_count, slot_count, skin_count, display_count, mesh_count, ik_count,
        animation_count;
    uint32_t ignored_ik_count;      /**< IK entries in the file that were dropped at load (no bone
                                         or target key, as the official parser drops them); they
                                         are not among the ik_count constraints */
    uint32_t default_animation;     /**< SINEW_INVALID_INDEX if there is no animation */
    const char *user_data;          /**< the armature's `userData` as JSON text, or NULL */
    bool has_canvas;                /**< 5.x `canvas`: the editor's stage, kept for tools (not drawn) */
    bool canvas_background;         /**< the canvas gives a background colour */
    uint32_t canvas_color;          /**< 0xRRGGBB */
    float canvas_x, canvas_y, canvas_width, canvas_height;
    uint32_t surface_count;         /**< bones that are 5.5 surfaces (counted in bone_count) */
    uint32_t path_constraint_count; /**< path constraints (docs/runtime.md) */
    /* DragonBones 6.0 (all 0 in other files): */
    uint32_t transform_constraint_count; /**< transform constraints */
    uint32_t physics_count;         /**< physics constraints */
    uint32_t ignored_constraint_count; /**< transform and physics entries dropped at load, as the
                                         official parser drops them (no target or bone, a name
                                         another constraint has) */
    uint32_t shape_count;           /**< vector shape displays (not counted in mesh_count) */
    uint32_t mask_count;            /**< image and shape displays that are masks */
} sinew_armature_info;

typedef struct sinew_bone_info {
    const char *name;
    uint32_t parent;                /**< bone index (always smaller), or SINEW_INVALID_INDEX */
    float x, y;                     /**< setup translation relative to the parent */
    float rotation_rad, skew_rad;   /**< setup rotation and skew, radians */
    float scale_x, scale_y;
    float length;
    bool inherit_translation, inherit_rotation, inherit_scale, inherit_reflection;
    bool is_surface;                /**< a 5.5 surface: a lattice of segment_x x segment_y cells
                                         (no transform of its own; docs/runtime.md) */
    uint32_t segment_x, segment_y;
} sinew_bone_info;

typedef struct sinew_slot_info {
    const char *name;
    uint32_t parent;                /**< bone index */
    int32_t display_index;          /**< setup display, -1 = hidden */
    sinew_blend_mode blend;
    sinew_color_transform color;
} sinew_slot_info;

typedef struct sinew_skin_info {
    const char *name;               /**< "" is the default skin */
    uint32_t slot_count;            /**< slots this skin gives displays to */
} sinew_skin_info;

typedef struct sinew_ik_info {
    const char *name;
    uint32_t bone, target, root;    /**< bone indices */
    uint32_t chain;                 /**< 0 (one bone) or 1 (two bones) */
    bool bend_positive;
    float weight;
} sinew_ik_info;

typedef struct sinew_animation_info {
    const char *name;
    float frames;                   /**< duration in frames */
    double duration_s;              /**< duration in seconds (frames / armature frame rate) */
    int32_t play_times;             /**< 0 = loop forever */
    double fade_in_time_s;          /**< < 0 when the file gives none */
    uint32_t timeline_count;
} sinew_animation_info;

/** One action of an armature's `defaultActions` (the official ActionData). */
typedef struct sinew_action_info {
    const char *type;               /**< "play", "stop", "fadeIn", "frameEvent" or "sound" */
    const char *name;               /**< the animation (or event, sound) it names; "" if none */
    int32_t play_times;             /**< play: -1 = the animation's own */
} sinew_action_info;

/** Fills `out` (never fails for a valid `data`). */
SINEW_API void sinew_data_get_info(const sinew_data *data, sinew_data_info *out);

/** The number of `defaultActions` of an armature (0 for an index out of range). */
SINEW_API uint32_t sinew_data_default_action_count(const sinew_data *data, uint32_t armature);
/** Default action `i` of an armature; SINEW_E_ARG when an index is out of range. */
SINEW_API sinew_status sinew_data_default_action(const sinew_data *data, uint32_t armature, uint32_t i, sinew_action_info *out);

/**
 * The armature a front end shows when the user names none (the main character, not a prop):
 * the one the file's top-level `stage` names (DragonBones 5.x, the armature on the editor's
 * stage) when it exists; otherwise, among the armatures no other armature uses as a child
 * armature (an armature display), the one with the most bones, the first in file order on a tie;
 * otherwise (every armature is someone's child) the one with the most bones. SINEW_INVALID_INDEX
 * when the data has no armature. sinew_instance_create and sinew_data_resolve_skin use it for a
 * NULL armature, and so does every command of the CLI (docs/cli.md).
 */
SINEW_API uint32_t sinew_data_default_armature(const sinew_data *data);

/** The index of the armature named `name`, or SINEW_INVALID_INDEX. */
SINEW_API uint32_t sinew_data_find_armature(const sinew_data *data, const char *name);
/** Index lookups by name inside armature `armature`; SINEW_INVALID_INDEX when absent. An animation
 * index plays with sinew_instance_play_index (instance.h). */
SINEW_API uint32_t sinew_data_find_bone(const sinew_data *data, uint32_t armature, const char *name);
SINEW_API uint32_t sinew_data_find_slot(const sinew_data *data, uint32_t armature, const char *name);
SINEW_API uint32_t sinew_data_find_skin(const sinew_data *data, uint32_t armature, const char *name);
SINEW_API uint32_t sinew_data_find_animation(const sinew_data *data, uint32_t armature, const char *name);

/** Info getters. Return SINEW_E_ARG (and leave `out` untouched) when an index is out of range. */
SINEW_API sinew_status sinew_data_get_armature_info(const sinew_data *data, uint32_t armature, sinew_armature_info *out);
SINEW_API sinew_status sinew_data_get_bone_info(const sinew_data *data, uint32_t armature, uint32_t bone,
                                  sinew_bone_info *out);
SINEW_API sinew_status sinew_data_get_slot_info(const sinew_data *data, uint32_t armature, uint32_t slot,
                                  sinew_slot_info *out);
SINEW_API sinew_status sinew_data_get_skin_info(const sinew_data *data, uint32_t armature, uint32_t skin,
                                  sinew_skin_info *out);
SINEW_API sinew_status sinew_data_get_ik_info(const sinew_data *data, uint32_t armature, uint32_t ik, sinew_ik_info *out);
SINEW_API sinew_status sinew_data_get_animation_info(const sinew_data *data, uint32_t armature, uint32_t animation,
                                       sinew_animation_info *out);

/** Atlas facts. */
typedef struct sinew_atlas_info {
    uint32_t page_count, region_count;
} sinew_atlas_info;

typedef struct sinew_atlas_page_info {
    const char *name;
    const char *image_path;         /**< as written */
    const char *resolved_path;      /**< joined to the atlas file's folder */
    uint32_t width, height;         /**< from the JSON, else the PNG's header; 0 if neither says */
    float scale;
} sinew_atlas_page_info;

typedef struct sinew_atlas_region_info {
    const char *name;
    uint32_t page;
    float x, y, width, height;      /**< stored rectangle in page pixels */
    bool rotated;
    bool has_frame;
    float frame_x, frame_y, frame_width, frame_height;
} sinew_atlas_region_info;

SINEW_API void sinew_atlas_get_info(const sinew_atlas *atlas, sinew_atlas_info *out);
SINEW_API sinew_status sinew_atlas_get_page_info(const sinew_atlas *atlas, uint32_t page, sinew_atlas_page_info *out);
SINEW_API sinew_status sinew_atlas_get_region_info(const sinew_atlas *atlas, uint32_t region,
                                         sinew_atlas_region_info *out);
/** The index of the region named `name` (binary search), or SINEW_INVALID_INDEX. */
SINEW_API uint32_t sinew_atlas_find_region(const sinew_atlas *atlas, const char *name);

/**
 * Checks a skeleton against the atlas a renderer will draw it with (what `sinew validate` does),
 * reporting each problem as a warning to `log` (may be NULL): an image or mesh display names a
 * region the atlas does not have (nothing is drawn for it: editors leave such placeholders, real
 * files have them), a mesh's UVs reach outside [0, 1] (outside its region). Each carries the
 * display's JSON path in the skeleton (`armature[0].skin[0].slot[2].display[0]`) and, when `file`
 * (may be NULL) is the DragonBones JSON the data came from, its line and column. Returns the
 * number of problems.
 */
SINEW_API uint32_t sinew_data_check_atlas(const sinew_data *data, const sinew_atlas *atlas, const char *file, sinew_log_fn log,
                                void *user);

#ifdef __cplusplus
}
#endif
#endif
