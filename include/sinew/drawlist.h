/**
 * sinew/drawlist.h - the renderer boundary.
 *
 * The runtime turns an instance's current pose into a draw list: in draw order (back to front),
 * one command per visible display, each a batch of textured triangles with a colour transform and
 * a blend mode. Child armatures are flattened in place. A renderer (sinew's own rasterizer, or
 * an engine) needs nothing else: it never sees bones.
 *
 * Coordinates are armature space, y down (DragonBones' own convention), in data units (pixels at
 * scale 1). UVs are normalised to the texture page (0..1 over the page's width and height).
 * Colours are straight (not premultiplied) transforms to apply to the premultiplied-or-not texel as
 * the renderer prefers: out = texel * mul + add / 255 per channel, clamped to 0..1.
 */
#ifndef SINEW_DRAWLIST_H
#define SINEW_DRAWLIST_H

#include "sinew/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** DragonBones blend modes. Renderers that lack one draw it as NORMAL (and may warn). */
typedef enum sinew_blend_mode {
    SINEW_BLEND_NORMAL = 0,
    SINEW_BLEND_ADD,
    SINEW_BLEND_ALPHA,
    SINEW_BLEND_DARKEN,
    SINEW_BLEND_DIFFERENCE,
    SINEW_BLEND_ERASE,
    SINEW_BLEND_HARDLIGHT,
    SINEW_BLEND_INVERT,
    SINEW_BLEND_LAYER,
    SINEW_BLEND_LIGHTEN,
    SINEW_BLEND_MULTIPLY,
    SINEW_BLEND_OVERLAY,
    SINEW_BLEND_SCREEN,
    SINEW_BLEND_SUBTRACT,
    SINEW_BLEND_COUNT
} sinew_blend_mode;

/** Name of a blend mode as DragonBones writes it ("normal", "add", ...); NULL for a value out of range. */
SINEW_API const char *sinew_blend_mode_name(sinew_blend_mode mode);

/** One draw command: triangles [first_index, first_index + index_count) of the shared arrays. */
typedef struct sinew_draw_cmd {
    uint32_t page;          /**< texture page index (atlas page), SINEW_INVALID_INDEX = untextured */
    sinew_blend_mode blend;
    sinew_color_transform color; /**< multipliers 0..1, offsets -255..255 */
    float region[4];        /**< u0, v0, u1, v1: the atlas region's rectangle in page UVs; sample
                                 inside it only (clamp to edge, no bleeding from neighbours) */
    uint32_t first_vertex;  /**< into positions/uvs (in vertices, i.e. pairs) */
    uint32_t vertex_count;
    uint32_t first_index;   /**< into indices */
    uint32_t index_count;   /**< a multiple of 3; indices are absolute (already include first_vertex) */
    uint32_t slot;          /**< slot index in its armature, for debugging and picking */
    uint32_t depth;         /**< 0 for the top armature, 1 for a child armature, ... */
    uint32_t armature;      /**< the slot's armature in the instance (0 = the top one; see instance.h) */
} sinew_draw_cmd;

/** A whole frame. The arrays belong to whoever built the list (see instance.h). */
typedef struct sinew_drawlist {
    const float *positions;    /**< x, y per vertex, armature space */
    const float *uvs;          /**< u, v per vertex, page-normalised */
    const uint32_t *indices;
    const sinew_draw_cmd *cmds;
    uint32_t vertex_count;
    uint32_t index_count;
    uint32_t cmd_count;
} sinew_drawlist;

#ifdef __cplusplus
}
#endif
#endif
