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
 *
 * DragonBones 6.0 adds two things, both only in lists of 6.0 armatures (a 4.0-5.6 file's list has
 * neither: every command's `mask`, `flags` and `part` are 0):
 *
 * - Vector shapes. A shape display becomes, per path of the shape, a stroke command then a fill
 *   command (the official adapter strokes first, then fills the same outline on top), each
 *   untextured (page SINEW_INVALID_INDEX) with the style's colour and opacity folded into its colour
 *   transform: r_mul = colour.r * slot.r_mul, ..., a_mul = opacity * slot.a_mul, offsets the slot's.
 *   An untextured command is an opaque white texel through its transform, so a renderer draws it
 *   as it draws any untextured command. The triangles never overlap one another (a fill is
 *   decomposed into trapezoids by the non-zero rule; a stroke is a strip of quads with miter or
 *   bevel joins), so a renderer that blends every triangle once draws a translucent shape right.
 *   Anti-aliasing is the renderer's: sinew's rasterizer computes exact pixel coverage; a GPU backend
 *   needs multisampling for smooth edges. SINEW_DRAW_FILL / SINEW_DRAW_STROKE say which, and
 *   `part` which path of the shape (sinew_instance_shape gives the outline itself, for a renderer
 *   with a vector API of its own).
 * - Masks. A slot showing a mask display (an image or shape with `mask` and `maskRange` > 0)
 *   becomes one command flagged SINEW_DRAW_MASK, emitted before the commands it clips and never
 *   drawn itself. Its value at a pixel is its coverage times its texel's alpha (an image: the colour
 *   and the colour transform do not count, as the official adapter whitens a mask image) or its
 *   coverage (a shape: the union of its fills and strokes at full strength, whatever their colours,
 *   as the official adapter's stencil mask). A command whose `mask` names such a command (1 + its
 *   index) is drawn with its coverage multiplied by that value; a mask command may itself have a `mask` (a chain:
 *   the values multiply), e.g. a mask inside a child armature that a mask of the parent clips.
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
    /* 6.0 (always 0 for 4.0-5.6 armatures, so a zeroed command is a plain one): */
    uint32_t mask;          /**< 1 + the index of the mask command clipping this one (an earlier
                                 command with SINEW_DRAW_MASK); 0: none */
    uint32_t flags;         /**< SINEW_DRAW_* bits */
    uint32_t part;          /**< SINEW_DRAW_FILL / SINEW_DRAW_STROKE: the index of the path in the
                                 slot's shape (sinew_instance_shape_path); 0 otherwise */
} sinew_draw_cmd;

/** sinew_draw_cmd.flags */
enum {
    SINEW_DRAW_MASK = 1u,   /**< a mask: not drawn; its coverage (times its texel's alpha) clips the
                                 commands whose `mask` names it */
    SINEW_DRAW_FILL = 2u,   /**< a vector shape's fill (of path `part`); with MASK: a shape mask */
    SINEW_DRAW_STROKE = 4u  /**< a vector shape's stroke (of path `part`); with MASK: a shape mask */
};

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
