/**
 * sinew/convert.h - converting skeletons to DragonBones 4.5 or 5.5, DBBin and Spine 4.2
 * (`sinew convert`).
 *
 * Any input sinew loads (DragonBones JSON 4.0 / 4.5 / 5.x, DBBin, or a sinew XML rig, see
 * docs/xml.md) is written as `NAME_ske.json` in DragonBones 4.5, or 5.5 (`dragonbones_version`;
 * docs/convert.md says which to pick). An XML rig also gets `NAME_tex.json` and `NAME_tex.png`:
 * every image it uses, packed into one atlas. Constructs the version written can only approximate
 * are named in warnings through the log callback. Every file is written atomically and an input
 * is never overwritten.
 *
 *     sinew_convert_options o = {0};
 *     sinew_convert_result r;
 *     if (sinew_convert_dragonbones("cat.xml", "out", &o, &r, &err) == SINEW_OK)
 *         printf("%s\n", r.skeleton_path);
 */
#ifndef SINEW_CONVERT_H
#define SINEW_CONVERT_H

#include "sinew/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Conversion settings. Zero-initialise; NULL / 0 means the default. */
typedef struct sinew_convert_options {
    const sinew_load_options *load;   /**< how the input is read (allocator, limits, load warnings) */
    sinew_log_fn log;                 /**< approximation warnings of the writer; NULL = silent */
    void *log_user;
    const char *name;                 /**< output base name; NULL = the data's name */
    /* sinew_convert_dragonbones only: */
    const char *dragonbones_version;  /**< NULL or "4.5" (DragonBones 4.5), or "5.5"; any other is
                                           SINEW_E_ARG */
    /* sinew_convert_spine only: */
    const char *armature;             /**< the armature written; NULL = the first */
    const char *atlas;                /**< the DragonBones atlas JSON; NULL = found beside the input */
    const char *spine_version;        /**< NULL or "4.2" (the only one written) */
    /* sinew_convert_dbbin only: */
    unsigned dbbin_format;            /**< 1 (12 array offsets, DragonBones 5.0-5.5 exporters) or 2 (14, the
                                           5.6 exporter); 0 = 2 */
} sinew_convert_options;

/** What a conversion wrote (empty strings for files not written). */
typedef struct sinew_convert_result {
    char skeleton_path[1024];
    char atlas_json_path[1024];
    char atlas_png_path[1024];
    uint32_t armature_count;
    uint32_t warning_count;          /**< approximations reported */
} sinew_convert_result;

/**
 * Loads `input` and writes it as DragonBones 4.5 (or `opts->dragonbones_version`) into the folder
 * `out_dir` (which must exist). `result` (optional) says what was written.
 */
SINEW_API sinew_status sinew_convert_dragonbones(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                       sinew_convert_result *result, sinew_error *err);

/**
 * Writes the DragonBones JSON file `input` as DragonBones binary, `out_dir/NAME_ske.dbbin`: the
 * layout the official runtime's BinaryDataParser reads (docs/convert.md), in format
 * `opts->dbbin_format` (default 2; any other than 1 and 2 is SINEW_E_ARG). The input must load in
 * sinew first. Constructs the binary cannot carry fail with SINEW_E_UNSUPPORTED naming them, and
 * nothing is written then. XML rigs are refused (convert them to DragonBones JSON first).
 */
SINEW_API sinew_status sinew_convert_dbbin(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                 sinew_convert_result *result, sinew_error *err);

/**
 * Writes one armature of the DragonBones JSON file `input` as Spine 4.2: `out_dir/NAME.json` (the
 * skeleton) and `out_dir/NAME.atlas` (a Spine atlas over the DragonBones atlas pages, which are
 * copied beside it). Constructs Spine cannot express are named in warnings through the log
 * callback and left out, or baked into keys where Spine would move a bone otherwise
 * (docs/convert.md). `result->atlas_json_path` is the `.atlas` file,
 * `atlas_png_path` the first page copied. XML rigs are refused (convert them to DragonBones
 * first); so is an input without an atlas.
 */
SINEW_API sinew_status sinew_convert_spine(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                 sinew_convert_result *result, sinew_error *err);

#ifdef __cplusplus
}
#endif
#endif
