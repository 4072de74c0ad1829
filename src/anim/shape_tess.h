/* Tessellation of DragonBones 6.0 vector shapes for the draw list (shape_tess.c).
 *
 * A shape path is a chain of cubic Beziers through its points' anchors (docs/dragonbones-6.0.md
 * section 8). The draw list gets, per styled path, a stroke then a fill, as triangles:
 *   - flattening: each cubic becomes n line segments, n from the second differences of its control
 *     points mapped to the draw list's space (Wang's bound: the polyline stays within
 *     SINEW_SHAPE_TOLERANCE of the curve), at most SINEW_SHAPE_SEGMENTS;
 *   - fill: the non-zero rule, decomposed into trapezoids by a sweep over y (bands between the
 *     points' y and the edges' crossings; a trapezoid continues down while its two bounding edges
 *     stay the span's), so no two triangles overlap and any outline (self-crossing, several
 *     contours) fills right;
 *   - stroke: in the shape's own space (where the width is measured, as the official adapter
 *     strokes a Graphics in slot space), an open polyline (the adapter never closes a path) with
 *     butt ends, miter joins up to a miter length of 10 half widths and bevel joins beyond, the
 *     inner side of a join meeting at the offset lines' crossing: a strip without overlaps.
 * Everything is sized when the instance is made (sinew__shape_bounds) and nothing allocates.
 */
#ifndef SINEW_ANIM_SHAPE_TESS_H
#define SINEW_ANIM_SHAPE_TESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define SINEW_SHAPE_SEGMENTS 32    /* the most segments one cubic is flattened into */
#define SINEW_SHAPE_TOLERANCE 0.05 /* flattening tolerance, draw-list units (pixels at scale 1) */
#define SINEW_SHAPE_MITER 10.0     /* miter limit (miter length over half the width), as Pixi's */

/* The sweep's scratch, sized for a number of flattened points and contours. */
typedef struct tess_edge {
    double x0, y0, x1, y1;     /* y0 < y1 */
    double slope;              /* dx / dy */
    int32_t dir;               /* +1 going down, -1 going up */
} tess_edge;

typedef struct tess_trap {
    uint32_t l, r;             /* the bounding edges */
    double y;                  /* where it began */
} tess_trap;

typedef struct tess_scratch {
    float *local;              /* 2 per flattened point, the shape's own space */
    float *out;                /* the same in the draw list's space */
    double *line;              /* a stroke's polyline without repeated points */
    float *ctrl;               /* 6 per Bezier point: a shape's control points with its deform */
    uint32_t *contour;         /* first point of each contour, then the end */
    uint32_t contour_count, point_count;
    tess_edge *edges;
    double *ys;                /* the sweep's stops */
    uint32_t *order;           /* edges by their top */
    uint32_t *active;          /* edges in the current band, left to right */
    double *ax;                /* per edge: its x at the band's top (sort key) */
    uint32_t *by_left;         /* per edge: the open trapezoid it bounds on the left */
    tess_trap *open, *next;
    uint32_t point_cap, contour_cap, ctrl_cap;
} tess_scratch;

/* Where the triangles go: the draw list's arrays and how much of them is used. */
typedef struct tess_sink {
    float *pos;
    uint32_t *idx;
    uint32_t nv, ni;
    uint32_t cap_v, cap_i;
} tess_sink;

/* What one shape can need: flattened points, contours, and draw-list vertices and indices (every
 * path stroked and filled, or the whole shape as one mask: the same bound). */
void sinew__shape_bounds(const sinew_model_shape *sh, uint32_t *points, uint32_t *contours, uint64_t *vertices,
                         uint64_t *indices);

/* The scratch for shapes of up to `point_cap` flattened points, `contour_cap` contours and
 * `ctrl_cap` Bezier points. */
size_t sinew__tess_scratch_bytes(uint32_t point_cap, uint32_t contour_cap, uint32_t ctrl_cap);
/* Carves the scratch out of `mem` (sinew__tess_scratch_bytes of it, 16-byte aligned). */
void sinew__tess_scratch_bind(tess_scratch *t, void *mem, uint32_t point_cap, uint32_t contour_cap, uint32_t ctrl_cap);

/* Flattens paths [first, last] of a shape (the contours a fill or stroke of path `last` covers)
 * from its control points `pts` (6 per point, the shape's own space) into t->local and, mapped by
 * `m` (a b c d tx ty), t->out. False when a point is not finite (nothing is drawn). */
bool sinew__tess_flatten(tess_scratch *t, const float *pts, const sinew_model_shape *sh, uint32_t first, uint32_t last,
                         const float m[6]);
/* Appends the fill of the flattened contours (non-zero rule) to `s`. */
void sinew__tess_fill(tess_scratch *t, tess_sink *s);
/* Appends the stroke of the flattened contours, `width` wide in the shape's own space, mapped by `m`. */
void sinew__tess_stroke(const tess_scratch *t, float width, const float m[6], tess_sink *s);

#endif
