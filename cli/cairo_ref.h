/* cairo_ref.h - an independent reference renderer for sinew draw lists, through cairo.
 *
 * Used by `sinew bench-render` (cli/cmd_bench_render.c), by the unit tests that compare sinew's
 * rasterizer with cairo (tests/unit/test_raster_cairo.c, test_raster_shared.c, through
 * tests/unit/raster_ref.h) and by the benchmark programs in bench/. It is built as the small static
 * library `sinew_cairo_ref`; cairo is linked into the CLI, the tests and the benchmarks only, never
 * into libsinew.
 *
 * The reference draws each triangle as a clipped, affine-mapped image:
 *   - the atlas region is a cairo sub-surface with EXTEND_PAD (clamp to edge inside the region)
 *     and a bilinear filter; the pattern matrix maps pixels to region texels;
 *   - a non-identity colour transform is applied to a copy of the region's texels first
 *     (DragonBones formula on straight colour, then premultiplied);
 *   - in `seamless` mode the triangles of one command are added (CAIRO_OPERATOR_ADD) into a group
 *     so that anti-aliased shared edges sum to full coverage, and the group is then composited with
 *     the command's blend operator (the same quality rules as sinew's rasterizer); otherwise every
 *     triangle is drawn straight onto the target (what a naive cairo user would do: faster, but
 *     shared edges show faint seams).
 * 6.0 (ref_cairo_draw_shapes):
 *   - a mask command (SINEW_DRAW_MASK) becomes an alpha-only group: its triangles as above, the
 *     texels' alpha only (or opaque when untextured), masked by its own mask; the commands it clips
 *     are drawn into a group that is composited through it (cairo_mask);
 *   - with an instance given, a vector shape's commands are not drawn from their triangles but from
 *     the shape's outline (sinew_instance_shape): cubic Beziers as cairo paths in the shape's own
 *     space, filled with the non-zero rule, stroked with butt caps, miter joins (limit 10) and the
 *     width in that space; a shape mask is the union of its fills and strokes, opaque.
 */
#ifndef SINEW_CAIRO_REF_H
#define SINEW_CAIRO_REF_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/drawlist.h"
#include "sinew/instance.h"
#include "sinew/render.h"

/* The atlas pages as cairo surfaces (premultiplied ARGB32). */
typedef struct ref_cairo {
    cairo_surface_t **pages;
    uint32_t count;
    uint32_t *page_w, *page_h;   /* page sizes, per page */
} ref_cairo;

/* Converts premultiplied RGBA8 bytes (stride w * 4) into a new cairo ARGB32 surface. */
cairo_surface_t *ref_surface_from_rgba(const uint8_t *rgba, uint32_t w, uint32_t h);

/* Copies a cairo ARGB32 surface out as premultiplied RGBA8 bytes (stride width * 4). */
void ref_surface_to_rgba(cairo_surface_t *s, uint8_t *out);

/* Makes cairo surfaces of every page of `tex`. Returns 0, or -1 when out of memory (then
 * ref_cairo_free still has to be called). */
int ref_cairo_init(ref_cairo *rc, const sinew_texture_set *tex);

/* Frees the surfaces (safe on a zeroed or partly initialised struct). */
void ref_cairo_free(ref_cairo *rc);

/* Draws `list` over `cr`'s target (identity CTM expected); `view` maps armature space to pixels
 * (NULL = identity). Leaves the operator at OVER. */
void ref_cairo_draw(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_affine *view,
                    bool seamless);

/* The same, and shape commands drawn from the outlines `shapes` holds (the instance whose draw list
 * `list` is; NULL: from their triangles, as ref_cairo_draw). */
void ref_cairo_draw_shapes(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_affine *view,
                           bool seamless, const sinew_instance *shapes);

/* PSNR in dB between two images of `bytes` bytes (8-bit channels); 99 if identical. */
double ref_psnr(const uint8_t *a, const uint8_t *b, size_t bytes);

#endif
