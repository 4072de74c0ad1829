/**
 * sinew/export.h - writing rendered frames: PNG (single or sequence), sprite sheet + JSON,
 * animated GIF, animated WebP, and MP4/WebM through the `ffmpeg` program.
 *
 * Streaming use, one frame at a time:
 *
 *     sinew_export_options o = {0};
 *     o.path = "walk.gif"; o.width = fb.width; o.height = fb.height; o.fps = 24;
 *     o.inputs = input_paths; o.input_count = n;      // never overwritten
 *     sinew_exporter *ex;
 *     if (sinew_export_begin(&o, &ex, &err)) ...;
 *     for (each frame) { render into fb; if (sinew_export_frame(ex, &fb, &err)) { sinew_export_abort(ex); ... } }
 *     if (sinew_export_end(ex, &err)) ...;           // frees ex in every case
 *
 * Every writer is atomic: output goes to a temporary file in the target folder and is renamed
 * into place by sinew_export_end; a failure or sinew_export_abort leaves nothing behind.
 * See docs/rendering.md for each format's behaviour.
 */
#ifndef SINEW_EXPORT_H
#define SINEW_EXPORT_H

#include "sinew/base.h"
#include "sinew/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Output kinds. */
typedef enum sinew_export_format {
    SINEW_EXPORT_AUTO = 0,      /**< decide from the path (sinew_export_format_for_path) */
    SINEW_EXPORT_PNG,           /**< one frame, one PNG */
    SINEW_EXPORT_PNG_SEQUENCE,  /**< the path is a pattern with one %d / %0Nd: one PNG per frame */
    SINEW_EXPORT_SHEET,         /**< one PNG holding every distinct frame + a JSON atlas */
    SINEW_EXPORT_GIF,
    SINEW_EXPORT_WEBP,
    SINEW_EXPORT_MP4,           /**< H.264, yuv420p, through ffmpeg */
    SINEW_EXPORT_WEBM           /**< VP9 with alpha (yuva420p), through ffmpeg */
} sinew_export_format;

/**
 * The format a path asks for: a `%d`-style pattern is a sequence, then by extension .png, .gif,
 * .webp, .mp4, .webm (case-insensitive). With `sheet`, a .png path means a sprite sheet.
 * Returns SINEW_EXPORT_AUTO if the path names no known format.
 */
SINEW_API sinew_export_format sinew_export_format_for_path(const char *path, bool sheet);

/** The atlas a sprite sheet comes with (docs/render-cli.md, "Sprite sheets"). */
typedef enum sinew_sheet_format {
    SINEW_SHEET_DRAGONBONES = 0, /**< DragonBones texture atlas JSON (SubTexture + frameX/Y) */
    SINEW_SHEET_JSON_HASH,       /**< TexturePacker "JSON (Hash)"; several pages: Phaser multiatlas */
    SINEW_SHEET_JSON_ARRAY,      /**< TexturePacker "JSON (Array)" (Pixi, Cocos); one file per page */
    SINEW_SHEET_GODOT            /**< a Godot 4 SpriteFrames resource (.tres) with AtlasTextures */
} sinew_sheet_format;

/** Sprite sheet packing. Zero-initialised: trimmed frames, no gap, one page up to the image limit. */
typedef struct sinew_sheet_options {
    sinew_sheet_format format;
    bool no_trim;                /**< keep every frame at its full size (default: trim to the visible pixels) */
    uint32_t padding;            /**< transparent pixels between frames and around the page edge */
    uint32_t extrude;            /**< pixels of each frame's edge repeated around it (against bleeding) */
    bool pow2;                   /**< page sides rounded up to powers of two */
    uint32_t max_width, max_height; /**< page size limit (0 = SINEW_MAX_IMAGE_SIDE); more pages when one is not enough */
    bool premultiplied;          /**< page pixels with colour premultiplied by alpha */
} sinew_sheet_options;

/** Export settings. Zero-initialise, then set what you need; zero means the default. */
typedef struct sinew_export_options {
    sinew_export_format format;  /**< AUTO (default): from `path` */
    const char *path;            /**< output file, or pattern for a sequence */
    uint32_t width, height;      /**< frame size (must match every frame) */
    double fps;                  /**< frames per second; 0 = 24 */
    uint32_t plays;              /**< GIF/WebP: times the animation plays; 0 = loop forever */
    float quality;               /**< WebP lossy quality 1..100 (0 = 75); GIF: palette quality 1..100 (0 = 100) */
    bool lossy;                  /**< WebP: lossy instead of lossless (the default) */
    int dither;                  /**< GIF: < 0 no dithering, 0 default (on), > 0 on */
    sinew_rgba8 video_background;/**< MP4 has no alpha: frames are composited over this (default black) */
    const char *ffmpeg;          /**< ffmpeg program (name or path); NULL = "ffmpeg" from PATH */
    const char *sheet_json;      /**< sprite sheet atlas path; NULL = the PNG path with .json (.tres for Godot).
                                      With several pages, each page and (dragonbones, json-array) its
                                      atlas get "-N" before the extension */
    sinew_sheet_options sheet;   /**< sprite sheet packing and atlas format */
    const char *const *inputs;   /**< paths that must never be overwritten (rig, atlas, pages) */
    uint32_t input_count;
    const sinew_allocator *allocator;
    sinew_log_fn log;            /**< optional warnings */
    void *log_user;
    size_t frame_memory;         /**< sprite sheets keep every frame until the end: past this
                                      many bytes (0 = 256 MiB) further frames are kept in an
                                      unlinked temporary file (mapped), not in memory (GIF keeps
                                      its frames deflated and needs no such limit) */
} sinew_export_options;

/** An export in progress. */
typedef struct sinew_exporter sinew_exporter;

/**
 * Checks, before anything is rendered, what sinew_export_begin and sinew_export_end would refuse
 * about the output: a path of no known format, a sequence pattern without one %d, a missing
 * folder, an output that is an existing folder or one of `inputs` (for a sequence its first
 * file, for a sprite sheet its page and its atlas). `width`/`height` are not looked at.
 * sinew_export_begin runs the same checks.
 */
SINEW_API sinew_status sinew_export_check(const sinew_export_options *options, sinew_error *err);

/**
 * Starts an export: validates the options and the output path (its folder must exist; it may
 * not be one of `inputs`), and for video starts ffmpeg. Nothing is visible at `path` until
 * sinew_export_end succeeds.
 */
SINEW_API sinew_status sinew_export_begin(const sinew_export_options *options, sinew_exporter **out,
                                sinew_error *err);

/** Adds one frame from a framebuffer (premultiplied; converted to straight alpha). */
SINEW_API sinew_status sinew_export_frame(sinew_exporter *ex, const sinew_framebuffer *fb, sinew_error *err);

/** Adds one frame of straight-alpha RGBA8 (`stride` bytes per row; 0 = width * 4). */
SINEW_API sinew_status sinew_export_frame_rgba(sinew_exporter *ex, const uint8_t *rgba, size_t stride,
                                     sinew_error *err);

/**
 * Finishes: encodes what is buffered, renames the temporary file(s) into place and frees `ex`.
 * On failure every temporary file is removed (and `ex` is freed too).
 */
SINEW_API sinew_status sinew_export_end(sinew_exporter *ex, sinew_error *err);

/** Cancels: removes every temporary file and frees `ex`. NULL is allowed. */
SINEW_API void sinew_export_abort(sinew_exporter *ex);

/** Number of frames added so far. */
SINEW_API uint32_t sinew_export_frame_count(const sinew_exporter *ex);

/**
 * The quantizer this build makes GIF palettes with and its licence: "sinew (MIT)" by default,
 * "libimagequant (GPL-3.0-or-later)" when built with SINEW_IMAGEQUANT=ON (docs/licensing.md).
 */
SINEW_API const char *sinew_gif_quantizer(void);

/**
 * Writes one straight-alpha RGBA8 image (`height` rows of `width` pixels, `stride` bytes apart)
 * as a PNG at `path`, atomically (a temporary file in the same folder, renamed when complete:
 * sinew/atomic.h); refuses with SINEW_E_ARG to overwrite any of the `input_count` paths `inputs`
 * (NULL when 0). API for front ends that write single images (examples/c/snapshot.c);
 * sequences and sheets go through sinew_export_begin.
 */
SINEW_API sinew_status sinew_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                             size_t stride, const char *const *inputs, uint32_t input_count,
                             sinew_error *err);

#ifdef __cplusplus
}
#endif
#endif
