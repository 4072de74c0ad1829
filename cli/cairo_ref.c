/* cairo_ref.c - the cairo reference renderer (see cairo_ref.h). */
#include "cairo_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Converts premultiplied RGBA8 bytes into a cairo ARGB32 (native-endian, premultiplied) surface. */
cairo_surface_t *ref_surface_from_rgba(const uint8_t *rgba, uint32_t w, uint32_t h) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) return s;
    cairo_surface_flush(s);
    unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(void *)(d + (size_t)y * (size_t)stride);
        const uint8_t *src = rgba + (size_t)y * w * 4u;
        for (uint32_t x = 0; x < w; x++, src += 4)
            row[x] = ((uint32_t)src[3] << 24) | ((uint32_t)src[0] << 16) | ((uint32_t)src[1] << 8) | src[2];
    }
    cairo_surface_mark_dirty(s);
    return s;
}

/* Copies a cairo ARGB32 surface out as premultiplied RGBA8 bytes (stride w * 4). */
void ref_surface_to_rgba(cairo_surface_t *s, uint8_t *out) {
    cairo_surface_flush(s);
    const unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(d + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++, out += 4) {
            uint32_t p = row[x];
            out[0] = (uint8_t)(p >> 16);
            out[1] = (uint8_t)(p >> 8);
            out[2] = (uint8_t)p;
            out[3] = (uint8_t)(p >> 24);
        }
    }
}

int ref_cairo_init(ref_cairo *rc, const sinew_texture_set *tex) {
    memset(rc, 0, sizeof *rc);
    rc->count = sinew_texture_set_page_count(tex);
    if (!rc->count) return 0;
    rc->pages = (cairo_surface_t **)calloc(rc->count, sizeof *rc->pages);
    rc->page_w = (uint32_t *)calloc(rc->count, sizeof(uint32_t));
    rc->page_h = (uint32_t *)calloc(rc->count, sizeof(uint32_t));
    if (!rc->pages || !rc->page_w || !rc->page_h) return -1;
    for (uint32_t i = 0; i < rc->count; i++) {
        const uint8_t *px;
        sinew_texture_set_page(tex, i, &rc->page_w[i], &rc->page_h[i], &px);
        rc->pages[i] = ref_surface_from_rgba(px, rc->page_w[i], rc->page_h[i]);
        if (cairo_surface_status(rc->pages[i]) != CAIRO_STATUS_SUCCESS) return -1;
    }
    return 0;
}

void ref_cairo_free(ref_cairo *rc) {
    for (uint32_t i = 0; rc->pages && i < rc->count; i++)
        if (rc->pages[i]) cairo_surface_destroy(rc->pages[i]);
    free(rc->pages);
    free(rc->page_w);
    free(rc->page_h);
    memset(rc, 0, sizeof *rc);
}

static cairo_operator_t ref_operator(sinew_blend_mode m) {
    switch (m) {
    case SINEW_BLEND_ADD: return CAIRO_OPERATOR_ADD;
    case SINEW_BLEND_MULTIPLY: return CAIRO_OPERATOR_MULTIPLY;
    case SINEW_BLEND_SCREEN: return CAIRO_OPERATOR_SCREEN;
    case SINEW_BLEND_DARKEN: return CAIRO_OPERATOR_DARKEN;
    case SINEW_BLEND_LIGHTEN: return CAIRO_OPERATOR_LIGHTEN;
    case SINEW_BLEND_DIFFERENCE: return CAIRO_OPERATOR_DIFFERENCE;
    case SINEW_BLEND_OVERLAY: return CAIRO_OPERATOR_OVERLAY;
    case SINEW_BLEND_HARDLIGHT: return CAIRO_OPERATOR_HARD_LIGHT;
    case SINEW_BLEND_ERASE: return CAIRO_OPERATOR_DEST_OUT;
    case SINEW_BLEND_ALPHA: return CAIRO_OPERATOR_DEST_IN;
    default: return CAIRO_OPERATOR_OVER; /* normal, layer; subtract and invert have no cairo operator */
    }
}

static double ref_clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static bool ref_is_identity(const sinew_color_transform *c) {
    return c->a_mul == 1 && c->r_mul == 1 && c->g_mul == 1 && c->b_mul == 1 && c->a_add == 0 &&
           c->r_add == 0 && c->g_add == 0 && c->b_add == 0;
}

/* A copy of the region with the colour transform applied (straight colour, then premultiplied). */
static cairo_surface_t *ref_transformed_region(cairo_surface_t *page, int rx, int ry, int rw, int rh,
                                                      const sinew_color_transform *c) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, rw, rh);
    cairo_surface_flush(page);
    const unsigned char *sd = cairo_image_surface_get_data(page);
    int ss = cairo_image_surface_get_stride(page);
    unsigned char *dd = cairo_image_surface_get_data(s);
    int ds = cairo_image_surface_get_stride(s);
    for (int y = 0; y < rh; y++) {
        const uint32_t *srow = (const uint32_t *)(const void *)(sd + (size_t)(y + ry) * (size_t)ss) + rx;
        uint32_t *drow = (uint32_t *)(void *)(dd + (size_t)y * (size_t)ds);
        for (int x = 0; x < rw; x++) {
            uint32_t p = srow[x];
            double a = (p >> 24) / 255.0;
            double ch[3] = {((p >> 16) & 255) / 255.0, ((p >> 8) & 255) / 255.0, (p & 255) / 255.0};
            double mul[3] = {c->r_mul, c->g_mul, c->b_mul}, add[3] = {c->r_add, c->g_add, c->b_add};
            double oa = ref_clamp01(a * c->a_mul + c->a_add / 255.0);
            uint32_t o = (uint32_t)lround(oa * 255.0) << 24;
            for (int i = 0; i < 3; i++) {
                double straight = a > 0 ? ch[i] / a : 0;
                double v = ref_clamp01(straight * mul[i] + add[i] / 255.0) * oa;
                o |= (uint32_t)lround(v * 255.0) << (16 - 8 * i);
            }
            drow[x] = o;
        }
    }
    cairo_surface_mark_dirty(s);
    return s;
}

/* The source of a command: its atlas region (with its colour transform; for a mask the texels as
 * they are, only their alpha counts) or, untextured, the colour the transform gives white (opaque
 * for a mask). *region is set when there is one (the caller destroys it). */
typedef struct ref_src {
    cairo_surface_t *region;
    int rx, ry;
    double pw, ph;
    bool textured;
} ref_src;

static void ref_source(const ref_cairo *rc, const sinew_draw_cmd *cmd, bool alpha_only, ref_src *src) {
    memset(src, 0, sizeof *src);
    src->pw = src->ph = 1;
    src->textured = cmd->page != SINEW_INVALID_INDEX && cmd->page < rc->count;
    if (!src->textured) return;
    src->pw = rc->page_w[cmd->page];
    src->ph = rc->page_h[cmd->page];
    src->rx = (int)lround(cmd->region[0] * src->pw);
    src->ry = (int)lround(cmd->region[1] * src->ph);
    int rw = (int)lround(cmd->region[2] * src->pw) - src->rx, rh = (int)lround(cmd->region[3] * src->ph) - src->ry;
    if (rw <= 0 || rh <= 0) { src->rx = src->ry = 0; rw = (int)src->pw; rh = (int)src->ph; }
    if (alpha_only || ref_is_identity(&cmd->color))
        src->region = cairo_surface_create_for_rectangle(rc->pages[cmd->page], src->rx, src->ry, rw, rh);
    else
        src->region = ref_transformed_region(rc->pages[cmd->page], src->rx, src->ry, rw, rh, &cmd->color);
}

static void ref_solid(cairo_t *cr, const sinew_color_transform *c, bool alpha_only) {
    if (alpha_only) {
        cairo_set_source_rgba(cr, 1, 1, 1, 1);
        return;
    }
    cairo_set_source_rgba(cr, ref_clamp01(c->r_mul + c->r_add / 255.0), ref_clamp01(c->g_mul + c->g_add / 255.0),
                          ref_clamp01(c->b_mul + c->b_add / 255.0), ref_clamp01(c->a_mul + c->a_add / 255.0));
}

/* A command's triangles onto cr with its current operator, each a clipped, affine-mapped image. */
static void ref_triangles(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_draw_cmd *cmd,
                          const sinew_affine *view, bool alpha_only) {
    const sinew_affine v = *view;
    ref_src src;
    ref_source(rc, cmd, alpha_only, &src);
    const uint32_t *idx = list->indices + cmd->first_index;
    for (uint32_t t = 0; t + 2 < cmd->index_count; t += 3) {
        double X[3], Y[3], U[3] = {0, 0, 0}, V[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) {
            uint32_t i = idx[t + (uint32_t)k];
            double x = list->positions[2 * i], y = list->positions[2 * i + 1];
            X[k] = v.a * x + v.c * y + v.tx;
            Y[k] = v.b * x + v.d * y + v.ty;
            if (src.textured) {
                U[k] = list->uvs[2 * i] * src.pw - src.rx;
                V[k] = list->uvs[2 * i + 1] * src.ph - src.ry;
            }
        }
        double det = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
        if (!(fabs(det) > 1e-9)) continue;
        cairo_save(cr);
        cairo_new_path(cr);
        cairo_move_to(cr, X[0], Y[0]);
        cairo_line_to(cr, X[1], Y[1]);
        cairo_line_to(cr, X[2], Y[2]);
        cairo_close_path(cr);
        cairo_clip(cr);
        if (src.textured) {
            /* pixel -> texel affine from the three vertex pairs */
            double dx1 = X[1] - X[0], dy1 = Y[1] - Y[0], dx2 = X[2] - X[0], dy2 = Y[2] - Y[0];
            double ua = ((U[1] - U[0]) * dy2 - (U[2] - U[0]) * dy1) / det;
            double ub = ((U[2] - U[0]) * dx1 - (U[1] - U[0]) * dx2) / det;
            double va = ((V[1] - V[0]) * dy2 - (V[2] - V[0]) * dy1) / det;
            double vb = ((V[2] - V[0]) * dx1 - (V[1] - V[0]) * dx2) / det;
            cairo_matrix_t m;
            cairo_matrix_init(&m, ua, va, ub, vb, U[0] - ua * X[0] - ub * Y[0], V[0] - va * X[0] - vb * Y[0]);
            cairo_pattern_t *pat = cairo_pattern_create_for_surface(src.region);
            cairo_pattern_set_matrix(pat, &m);
            cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
            cairo_pattern_set_filter(pat, CAIRO_FILTER_BILINEAR);
            cairo_set_source(cr, pat);
            cairo_paint(cr);
            cairo_pattern_destroy(pat);
        } else {
            ref_solid(cr, &cmd->color, alpha_only);
            cairo_paint(cr);
        }
        cairo_restore(cr);
    }
    if (src.region) cairo_surface_destroy(src.region);
}

/* The contours paths [from, to] of a shape add to cr's path (points: 6 per Bezier point). */
static void ref_shape_path(cairo_t *cr, const sinew_instance *inst, const sinew_draw_cmd *cmd, const float *pts,
                           uint32_t from, uint32_t to) {
    for (uint32_t p = from; p <= to; p++) {
        sinew_shape_path sp;
        if (!sinew_instance_shape_path(inst, cmd->armature, cmd->slot, p, &sp) || !sp.index_count) continue;
        const float *a = pts + 6 * (size_t)sp.indexes[0];
        cairo_move_to(cr, a[2], a[3]);
        for (uint32_t j = 1; j < sp.index_count; j++) {
            const float *q = pts + 6 * (size_t)sp.indexes[j - 1], *c = pts + 6 * (size_t)sp.indexes[j];
            cairo_curve_to(cr, q[4], q[5], c[0], c[1], c[2], c[3]);
        }
    }
}

/* A shape command from the outline: its path's fill or stroke (the paths before it back to the last
 * styled one included: they lend their outline), or as a mask every fill and stroke, opaque. */
static bool ref_shape(cairo_t *cr, const sinew_instance *inst, const sinew_draw_cmd *cmd, const sinew_affine *view) {
    sinew_shape_info info;
    if (!sinew_instance_shape(inst, cmd->armature, cmd->slot, &info, NULL, 0)) return false;
    float *pts = (float *)malloc(6 * (size_t)info.point_count * sizeof(float) + 1);
    if (!pts || !sinew_instance_shape(inst, cmd->armature, cmd->slot, &info, pts, 6 * info.point_count)) {
        free(pts);
        return false;
    }
    bool is_mask = (cmd->flags & SINEW_DRAW_MASK) != 0;
    cairo_save(cr);
    cairo_matrix_t vm, sm;
    cairo_matrix_init(&vm, view->a, view->b, view->c, view->d, view->tx, view->ty);
    cairo_matrix_init(&sm, info.matrix.a, info.matrix.b, info.matrix.c, info.matrix.d, info.matrix.tx, info.matrix.ty);
    cairo_matrix_multiply(&sm, &sm, &vm); /* the shape's space -> armature -> pixels */
    cairo_set_matrix(cr, &sm);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, 10.0);
    ref_solid(cr, &cmd->color, is_mask);
    uint32_t from = 0;
    for (uint32_t p = 0; p < info.path_count; p++) {
        sinew_shape_path sp;
        if (!sinew_instance_shape_path(inst, cmd->armature, cmd->slot, p, &sp) || !sp.index_count ||
            (!sp.fill && !sp.stroke))
            continue;
        uint32_t start = from;
        from = p + 1;
        if (!is_mask && p != cmd->part) continue;
        bool stroke = is_mask ? sp.stroke : (cmd->flags & SINEW_DRAW_STROKE) != 0;
        bool fill = is_mask ? sp.fill : (cmd->flags & SINEW_DRAW_FILL) != 0;
        if (stroke) {
            cairo_new_path(cr);
            ref_shape_path(cr, inst, cmd, pts, start, p);
            cairo_set_line_width(cr, sp.stroke_width);
            cairo_stroke(cr);
        }
        if (fill) {
            cairo_new_path(cr);
            ref_shape_path(cr, inst, cmd, pts, start, p);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
    free(pts);
    return true;
}

/* A mask command's alpha as a pattern (NULL: it covers nothing), through its own mask. */
static cairo_pattern_t *ref_mask(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_draw_cmd *cmd,
                                 const sinew_affine *view, const sinew_instance *shapes, cairo_pattern_t *outer) {
    cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA);
    cairo_set_operator(cr, CAIRO_OPERATOR_ADD);
    if (!(shapes && (cmd->flags & (SINEW_DRAW_FILL | SINEW_DRAW_STROKE)) && ref_shape(cr, shapes, cmd, view)))
        ref_triangles(rc, cr, list, cmd, view, true);
    cairo_pattern_t *pat = cairo_pop_group(cr);
    if (outer) {
        cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA);
        cairo_set_source(cr, pat);
        cairo_mask(cr, outer);
        cairo_pattern_destroy(pat);
        pat = cairo_pop_group(cr);
    }
    return pat;
}

void ref_cairo_draw_shapes(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_affine *view,
                           bool seamless, const sinew_instance *shapes) {
    sinew_affine v = view ? *view : (sinew_affine){1, 0, 0, 1, 0, 0};
    cairo_pattern_t **masks = list->cmd_count ? (cairo_pattern_t **)calloc(list->cmd_count, sizeof *masks) : NULL;
    for (uint32_t ci = 0; ci < list->cmd_count; ci++) {
        const sinew_draw_cmd *cmd = &list->cmds[ci];
        if (cmd->index_count < 3) continue;
        uint32_t mi = cmd->mask - 1u; /* 0 (none): UINT32_MAX */
        cairo_pattern_t *outer = mi < ci && masks ? masks[mi] : NULL;
        if (mi != SINEW_INVALID_INDEX && !outer) continue; /* its mask covers nothing */
        if (cmd->flags & SINEW_DRAW_MASK) {
            if (masks) masks[ci] = ref_mask(rc, cr, list, cmd, &v, shapes, outer);
            continue;
        }
        bool shape = shapes && (cmd->flags & (SINEW_DRAW_FILL | SINEW_DRAW_STROKE));
        bool group = seamless || outer || shape;
        if (group) {
            cairo_push_group(cr);
            cairo_set_operator(cr, shape ? CAIRO_OPERATOR_OVER : CAIRO_OPERATOR_ADD);
        } else {
            cairo_set_operator(cr, ref_operator(cmd->blend));
        }
        if (!shape || !ref_shape(cr, shapes, cmd, &v)) ref_triangles(rc, cr, list, cmd, &v, false);
        if (group) {
            cairo_pop_group_to_source(cr);
            cairo_set_operator(cr, ref_operator(cmd->blend));
            if (outer)
                cairo_mask(cr, outer);
            else
                cairo_paint(cr);
        }
    }
    for (uint32_t ci = 0; masks && ci < list->cmd_count; ci++)
        if (masks[ci]) cairo_pattern_destroy(masks[ci]);
    free(masks);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

/* Draws `list` onto `cr` (identity CTM expected); `view` maps armature space to pixels (NULL = identity). */
void ref_cairo_draw(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list, const sinew_affine *view,
                    bool seamless) {
    ref_cairo_draw_shapes(rc, cr, list, view, seamless, NULL);
}

/* PSNR in dB between two images of `bytes` bytes (8-bit channels); 99 if identical. */
double ref_psnr(const uint8_t *a, const uint8_t *b, size_t bytes) {
    double se = 0;
    for (size_t i = 0; i < bytes; i++) {
        double d = (double)a[i] - (double)b[i];
        se += d * d;
    }
    if (se == 0 || bytes == 0) return 99.0;
    return 10.0 * log10(255.0 * 255.0 / (se / (double)bytes));
}
