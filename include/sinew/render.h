/**
 * sinew/render.h - textures, framebuffers, framing and the software rasterizer.
 *
 * The rasterizer turns a sinew_drawlist (textured triangles in armature space) into pixels:
 *
 *     sinew_texture_set *tex;  sinew_renderer *r;  sinew_framebuffer fb;
 *     sinew_texture_set_load(paths, page_count, NULL, &tex, &err);
 *     sinew_renderer_create(NULL, &r, &err);
 *     sinew_framebuffer_init(&fb, 256, 256, NULL, &err);
 *     sinew_affine view = {1, 0, 0, 1, 128, 200};          // armature origin at pixel (128, 200)
 *     sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
 *     sinew_renderer_draw(r, &drawlist, tex, &view, &fb, &err);
 *
 * Pixels are RGBA8, premultiplied alpha, rows top to bottom. Exporters convert to straight alpha.
 * After the first frames have grown its scratch buffers, drawing allocates nothing.
 * See docs/rendering.md for the quality rules.
 */
#ifndef SINEW_RENDER_H
#define SINEW_RENDER_H

#include "sinew/base.h"
#include "sinew/drawlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest texture page or framebuffer side sinew accepts, in pixels. */
#define SINEW_MAX_IMAGE_SIDE 16384u

/** An 8-bit colour, straight (not premultiplied) alpha. */
typedef struct sinew_rgba8 {
    uint8_t r, g, b, a;
} sinew_rgba8;

/** An axis-aligned rectangle, x0 <= x1 and y0 <= y1 when not empty. */

/* ---------------------------------------------------------------------------------------------- */
/* Textures                                                                                        */

/** A set of texture pages (atlas pages), premultiplied RGBA8. Opaque; immutable once built. */
typedef struct sinew_texture_set sinew_texture_set;

/** One in-memory page for sinew_texture_set_from_rgba. */
typedef struct sinew_image_desc {
    const uint8_t *pixels;   /**< RGBA8 rows, top to bottom */
    uint32_t width, height;
    size_t stride;           /**< bytes per row; 0 means width * 4 */
    bool premultiplied;      /**< false: straight alpha (converted on load) */
} sinew_image_desc;

/**
 * Loads `count` PNG files (any PNG colour type) as pages 0..count-1, with libspng.
 * A missing or unreadable file fails with SINEW_E_IO and an error whose `file` is that path and
 * whose message names it; a corrupt PNG fails with SINEW_E_PARSE. Nothing is left allocated on failure.
 * A NULL path makes a page of one transparent texel (for an atlas page whose image is not there:
 * what it maps draws nothing).
 * @param allocator NULL for libc.
 */
SINEW_API sinew_status sinew_texture_set_load(const char *const *paths, uint32_t count,
                                    const sinew_allocator *allocator, sinew_texture_set **out,
                                    sinew_error *err);

/** Builds a texture set from in-memory RGBA8 images (copied). */
SINEW_API sinew_status sinew_texture_set_from_rgba(const sinew_image_desc *pages, uint32_t count,
                                         const sinew_allocator *allocator,
                                         sinew_texture_set **out, sinew_error *err);

/** Frees the set. NULL is allowed. */
SINEW_API void sinew_texture_set_destroy(sinew_texture_set *set);

/** Number of pages. */
SINEW_API uint32_t sinew_texture_set_page_count(const sinew_texture_set *set);

/**
 * Size and pixels (premultiplied RGBA8, stride = width * 4) of a page. Returns false if `page`
 * is out of range. Any out-pointer may be NULL.
 */
SINEW_API bool sinew_texture_set_page(const sinew_texture_set *set, uint32_t page, uint32_t *width,
                            uint32_t *height, const uint8_t **pixels);

/* ---------------------------------------------------------------------------------------------- */
/* Framebuffer                                                                                     */

/** A caller-visible RGBA8 image, premultiplied alpha. Fields are read-only for callers. */
typedef struct sinew_framebuffer {
    uint32_t width, height;
    size_t stride;                 /**< bytes per row (width * 4) */
    uint8_t *pixels;               /**< premultiplied RGBA8 */
    const sinew_allocator *allocator_;  /**< private */
} sinew_framebuffer;

/** Allocates a width x height framebuffer cleared to transparent. 1..SINEW_MAX_IMAGE_SIDE per side. */
SINEW_API sinew_status sinew_framebuffer_init(sinew_framebuffer *fb, uint32_t width, uint32_t height,
                                    const sinew_allocator *allocator, sinew_error *err);

/** Frees the pixels (the struct is the caller's). Safe on a zeroed struct. */
SINEW_API void sinew_framebuffer_free(sinew_framebuffer *fb);

/** Fills the framebuffer with a straight-alpha colour ({0,0,0,0} = transparent). */
SINEW_API void sinew_framebuffer_clear(sinew_framebuffer *fb, sinew_rgba8 color);

/**
 * Copies the framebuffer as straight-alpha RGBA8 into `out` (rows of `out_stride` bytes, 0 means
 * width * 4). Fully transparent pixels become 0,0,0,0.
 */
SINEW_API void sinew_framebuffer_to_straight(const sinew_framebuffer *fb, uint8_t *out, size_t out_stride);

/**
 * Parses a colour: "#rgb", "#rrggbb", "#rrggbbaa" (the '#' is optional), or the names
 * "transparent", "black", "white". Returns false if the text is not a colour.
 */
SINEW_API bool sinew_rgba8_parse(const char *text, sinew_rgba8 *out);

/* ---------------------------------------------------------------------------------------------- */
/* Framing                                                                                         */

/**
 * The bounds of every vertex the draw list's commands reference, in armature space, united into
 * `*bounds` if `accumulate` is true (start with accumulate = false, or with an empty rect from
 * sinew_rect_empty); 6.0 mask commands are not drawn and do not count. Returns false if the list
 * draws nothing (bounds left unchanged).
 */
SINEW_API bool sinew_drawlist_bounds(const sinew_drawlist *list, sinew_rect *bounds, bool accumulate);

/** An empty rectangle (x0 > x1) to start accumulating bounds with sinew_rect_union. */
SINEW_API sinew_rect sinew_rect_empty(void);
/** The union of two rectangles (an empty one is ignored). */
SINEW_API sinew_rect sinew_rect_union(sinew_rect a, sinew_rect b);
/** True if x0 > x1 or y0 > y1. */
SINEW_API bool sinew_rect_is_empty(sinew_rect r);

/** An output size plus the view transform from armature space to pixels. */
typedef struct sinew_framing {
    uint32_t width, height;
    sinew_affine view;
} sinew_framing;

/**
 * Fits armature-space `bounds` at `scale` (pixels per armature unit), with `padding` pixels on
 * every side: width = ceil(bounds width * scale) + 2 * padding (at least 1), and the bounds'
 * top-left lands on pixel (padding, padding), rounded down to a whole pixel so a sequence of frames
 * framed with the same bounds never shifts. Fails with SINEW_E_RANGE for a non-finite or
 * non-positive scale, an empty rect, or a size beyond SINEW_MAX_IMAGE_SIDE.
 */
SINEW_API sinew_status sinew_framing_fit(sinew_rect bounds, float scale, float padding, sinew_framing *out,
                               sinew_error *err);

/**
 * A fixed output: `width` x `height` pixels, the armature origin (0, 0) at pixel (origin_x,
 * origin_y), `scale` pixels per armature unit (y down, as in the data).
 */
SINEW_API sinew_status sinew_framing_fixed(uint32_t width, uint32_t height, float origin_x, float origin_y,
                                 float scale, sinew_framing *out, sinew_error *err);

/* ---------------------------------------------------------------------------------------------- */
/* Rasterizer                                                                                      */

/** A reusable rasterizer holding scratch buffers. Not thread-safe; use one per thread. */
typedef struct sinew_renderer sinew_renderer;

/** Creates a renderer. @param allocator NULL for libc. */
SINEW_API sinew_status sinew_renderer_create(const sinew_allocator *allocator, sinew_renderer **out,
                                   sinew_error *err);

/** Frees the renderer. NULL is allowed. */
SINEW_API void sinew_renderer_destroy(sinew_renderer *r);

/**
 * Sets the warning callback. The rasterizer draws every DragonBones blend mode, thirteen
 * compositing rules (layer is composited as normal; docs/rendering.md); a value outside
 * sinew_blend_mode is drawn as normal and reported once per value per renderer (code
 * SINEW_E_UNSUPPORTED).
 */
SINEW_API void sinew_renderer_set_log(sinew_renderer *r, sinew_log_fn log, void *user);

/**
 * Draws `list` over the framebuffer's current contents, back to front.
 * `view` maps armature space to pixels (NULL = identity). `textures` may be NULL if every command
 * is untextured. Untextured commands (page == SINEW_INVALID_INDEX) draw an opaque white texel
 * through the colour transform: with mul = 0 and add = rgba * 255 that is a solid fill.
 * 6.0 masks (drawlist.h): a mask command is not drawn; a command it clips has its coverage
 * multiplied by the mask's (its coverage times its texel's alpha, times its own mask's).
 * Fails (drawing nothing) with SINEW_E_RANGE if an index, vertex range or page is out of range, or
 * a command's mask is not an earlier mask command.
 * A triangle with a vertex that is not finite, or lies more than 2^24 pixels from the
 * framebuffer's origin once `view` applies, is not drawn (the rest of the list is).
 */
SINEW_API sinew_status sinew_renderer_draw(sinew_renderer *r, const sinew_drawlist *list,
                                 const sinew_texture_set *textures, const sinew_affine *view,
                                 sinew_framebuffer *fb, sinew_error *err);

/** Bytes of scratch memory the renderer holds (for the allocation-free check). */
SINEW_API size_t sinew_renderer_scratch_bytes(const sinew_renderer *r);

#ifdef __cplusplus
}
#endif
#endif
