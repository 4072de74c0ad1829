/* raster_ref.h - an independent reference renderer through cairo, image comparison (PSNR), and a
 * synthetic scene generator. Header-only (static inline) so that tests and bench programs can use
 * it; whoever includes it links cairo (a test/bench-only dependency, never linked into libsinew).
 *
 * The reference draws each triangle as a clipped, affine-mapped image:
 *   - the atlas region is a cairo sub-surface with EXTEND_PAD (clamp to edge inside the region)
 *     and a bilinear filter; the pattern matrix maps pixels to region texels;
 *   - a non-identity colour transform is applied to a copy of the region's texels first
 *     (DragonBones formula on straight colour, then premultiplied);
 *   - in `seamless` mode the triangles of one command are added (CAIRO_OPERATOR_ADD) into a group
 *     so that anti-aliased shared edges sum to full coverage, and the group is then composited with
 *     the command's blend operator; otherwise every triangle is drawn straight onto the target
 *     (what a naive cairo user would do: faster, but shared edges show faint seams).
 */
#ifndef SINEW_RASTER_REF_H
#define SINEW_RASTER_REF_H

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/render.h"

typedef struct ref_cairo {
    cairo_surface_t **pages;
    uint32_t count;
    uint32_t width, height;       /* page sizes, per page */
    uint32_t *page_w, *page_h;
} ref_cairo;

/* Converts premultiplied RGBA8 bytes into a cairo ARGB32 (native-endian, premultiplied) surface. */
static inline cairo_surface_t *ref_surface_from_rgba(const uint8_t *rgba, uint32_t w, uint32_t h) {
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
static inline void ref_surface_to_rgba(cairo_surface_t *s, uint8_t *out) {
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

static inline int ref_cairo_init(ref_cairo *rc, const sinew_texture_set *tex) {
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
    }
    return 0;
}

static inline void ref_cairo_free(ref_cairo *rc) {
    for (uint32_t i = 0; i < rc->count; i++)
        if (rc->pages[i]) cairo_surface_destroy(rc->pages[i]);
    free(rc->pages);
    free(rc->page_w);
    free(rc->page_h);
    memset(rc, 0, sizeof *rc);
}

static inline cairo_operator_t ref_operator(sinew_blend_mode m) {
    switch (m) {
    case SINEW_BLEND_ADD: return CAIRO_OPERATOR_ADD;
    case SINEW_BLEND_MULTIPLY: return CAIRO_OPERATOR_MULTIPLY;
    case SINEW_BLEND_SCREEN: return CAIRO_OPERATOR_SCREEN;
    default: return CAIRO_OPERATOR_OVER;
    }
}

static inline double ref_clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static inline bool ref_is_identity(const sinew_color_transform *c) {
    return c->a_mul == 1 && c->r_mul == 1 && c->g_mul == 1 && c->b_mul == 1 && c->a_add == 0 &&
           c->r_add == 0 && c->g_add == 0 && c->b_add == 0;
}

/* A copy of the region with the colour transform applied (straight colour, then premultiplied). */
static inline cairo_surface_t *ref_transformed_region(cairo_surface_t *page, int rx, int ry, int rw, int rh,
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

/* Draws `list` onto `cr` (identity CTM expected); `view` maps armature space to pixels (NULL = identity). */
static inline void ref_cairo_draw(const ref_cairo *rc, cairo_t *cr, const sinew_drawlist *list,
                                  const sinew_affine *view, bool seamless) {
    sinew_affine v = view ? *view : (sinew_affine){1, 0, 0, 1, 0, 0};
    for (uint32_t ci = 0; ci < list->cmd_count; ci++) {
        const sinew_draw_cmd *cmd = &list->cmds[ci];
        if (cmd->index_count < 3) continue;
        bool textured = cmd->page != SINEW_INVALID_INDEX && cmd->page < rc->count;
        cairo_surface_t *region = NULL;
        int rx = 0, ry = 0;
        double pw = 1, ph = 1;
        if (textured) {
            pw = rc->page_w[cmd->page];
            ph = rc->page_h[cmd->page];
            rx = (int)lround(cmd->region[0] * pw);
            ry = (int)lround(cmd->region[1] * ph);
            int rw = (int)lround(cmd->region[2] * pw) - rx, rh = (int)lround(cmd->region[3] * ph) - ry;
            if (rw <= 0 || rh <= 0) { rx = ry = 0; rw = (int)pw; rh = (int)ph; }
            if (ref_is_identity(&cmd->color))
                region = cairo_surface_create_for_rectangle(rc->pages[cmd->page], rx, ry, rw, rh);
            else
                region = ref_transformed_region(rc->pages[cmd->page], rx, ry, rw, rh, &cmd->color);
        }
        if (seamless) {
            cairo_push_group(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_ADD);
        } else {
            cairo_set_operator(cr, ref_operator(cmd->blend));
        }
        const uint32_t *idx = list->indices + cmd->first_index;
        for (uint32_t t = 0; t + 2 < cmd->index_count; t += 3) {
            double X[3], Y[3], U[3], V[3];
            for (int k = 0; k < 3; k++) {
                uint32_t i = idx[t + (uint32_t)k];
                double x = list->positions[2 * i], y = list->positions[2 * i + 1];
                X[k] = v.a * x + v.c * y + v.tx;
                Y[k] = v.b * x + v.d * y + v.ty;
                if (textured) {
                    U[k] = list->uvs[2 * i] * pw - rx;
                    V[k] = list->uvs[2 * i + 1] * ph - ry;
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
            if (textured) {
                /* pixel -> texel affine from the three vertex pairs */
                double dx1 = X[1] - X[0], dy1 = Y[1] - Y[0], dx2 = X[2] - X[0], dy2 = Y[2] - Y[0];
                double ua = ((U[1] - U[0]) * dy2 - (U[2] - U[0]) * dy1) / det;
                double ub = ((U[2] - U[0]) * dx1 - (U[1] - U[0]) * dx2) / det;
                double va = ((V[1] - V[0]) * dy2 - (V[2] - V[0]) * dy1) / det;
                double vb = ((V[2] - V[0]) * dx1 - (V[1] - V[0]) * dx2) / det;
                cairo_matrix_t m;
                cairo_matrix_init(&m, ua, va, ub, vb, U[0] - ua * X[0] - ub * Y[0], V[0] - va * X[0] - vb * Y[0]);
                cairo_pattern_t *pat = cairo_pattern_create_for_surface(region);
                cairo_pattern_set_matrix(pat, &m);
                cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
                cairo_pattern_set_filter(pat, CAIRO_FILTER_BILINEAR);
                cairo_set_source(cr, pat);
                cairo_paint(cr);
                cairo_pattern_destroy(pat);
            } else {
                const sinew_color_transform *c = &cmd->color;
                cairo_set_source_rgba(cr, ref_clamp01(c->r_mul + c->r_add / 255.0), ref_clamp01(c->g_mul + c->g_add / 255.0),
                                      ref_clamp01(c->b_mul + c->b_add / 255.0), ref_clamp01(c->a_mul + c->a_add / 255.0));
                cairo_paint(cr);
            }
            cairo_restore(cr);
        }
        if (seamless) {
            cairo_pop_group_to_source(cr);
            cairo_set_operator(cr, ref_operator(cmd->blend));
            cairo_paint(cr);
        }
        if (region) cairo_surface_destroy(region);
    }
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

/* PSNR in dB between two images of `bytes` bytes (8-bit channels); 99 if identical. */
static inline double ref_psnr(const uint8_t *a, const uint8_t *b, size_t bytes) {
    double se = 0;
    for (size_t i = 0; i < bytes; i++) {
        double d = (double)a[i] - (double)b[i];
        se += d * d;
    }
    if (se == 0 || bytes == 0) return 99.0;
    return 10.0 * log10(255.0 * 255.0 / (se / (double)bytes));
}

/* ---------------------------------------------------------------------------------------------- */
/* A deterministic synthetic scene: an atlas page of 8 procedurally drawn regions, `quads` rotated
 * textured quads, and one `grid` x `grid` mesh; draw lists are built for a w x h output. */

typedef struct ref_scene {
    float *pos, *uv;
    uint32_t *idx;
    sinew_draw_cmd *cmds;
    uint32_t nv, ni, nc;
    uint8_t *page;       /* straight RGBA */
    uint32_t page_w, page_h;
} ref_scene;

static inline uint32_t ref_rand(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}
static inline float ref_randf(uint32_t *s) { return (float)(ref_rand(s) & 0xffffff) / 16777216.0f; }

static inline void ref_scene_free(ref_scene *s) {
    free(s->pos);
    free(s->uv);
    free(s->idx);
    free(s->cmds);
    free(s->page);
    memset(s, 0, sizeof *s);
}

/* regions: 4 x 2 grid of 64x64 cells on a 256x128 page, each a different soft shape with a border
   and a transparent margin; neighbours touch (no padding) so bleeding would show */
static inline int ref_scene_make(ref_scene *s, uint32_t quads, uint32_t grid, uint32_t w, uint32_t h,
                                 uint32_t seed, bool blends, bool colors) {
    memset(s, 0, sizeof *s);
    s->page_w = 256;
    s->page_h = 128;
    uint32_t maxv = quads * 4 + (grid + 1) * (grid + 1), maxi = quads * 6 + grid * grid * 6;
    s->pos = (float *)malloc(maxv * 2 * sizeof(float));
    s->uv = (float *)malloc(maxv * 2 * sizeof(float));
    s->idx = (uint32_t *)malloc(maxi * sizeof(uint32_t));
    s->cmds = (sinew_draw_cmd *)calloc(quads + 1, sizeof(sinew_draw_cmd));
    s->page = (uint8_t *)malloc(256 * 128 * 4);
    if (!s->pos || !s->uv || !s->idx || !s->cmds || !s->page) return -1;
    for (uint32_t y = 0; y < 128; y++)
        for (uint32_t x = 0; x < 256; x++) {
            uint32_t cell = (y / 64) * 4 + x / 64;
            float fx = (float)(x % 64) + 0.5f - 32.0f, fy = (float)(y % 64) + 0.5f - 32.0f;
            float r = sqrtf(fx * fx + fy * fy);
            uint8_t *p = s->page + 4 * (y * 256 + x);
            bool inside = cell % 2 ? (fabsf(fx) < 27 && fabsf(fy) < 20) : r < 28.0f;
            float stripe = 0.5f + 0.5f * sinf((fx + fy * (float)(cell + 1) * 0.3f) * 0.4f);
            p[0] = (uint8_t)(60.0f + 25.0f * (float)cell + 60.0f * stripe);
            p[1] = (uint8_t)(200.0f - 20.0f * (float)cell + 40.0f * stripe);
            p[2] = (uint8_t)(90 + (cell * 37) % 120);
            p[3] = inside ? (uint8_t)(r > 24.0f && cell % 2 == 0 ? 160 : 255) : 0;
        }
    uint32_t rng = seed ? seed : 1;
    for (uint32_t q = 0; q < quads; q++) {
        sinew_draw_cmd *c = &s->cmds[s->nc++];
        uint32_t cell = ref_rand(&rng) % 8;
        float u0 = (float)(cell % 4) * 64.0f / 256.0f, v0 = (float)(cell / 4) * 64.0f / 128.0f;
        float u1 = u0 + 64.0f / 256.0f, v1 = v0 + 64.0f / 128.0f;
        c->page = 0;
        c->region[0] = u0; c->region[1] = v0; c->region[2] = u1; c->region[3] = v1;
        c->color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
        if (colors && q % 3 == 1) c->color = (sinew_color_transform){0.8f, 1.0f, 0.6f, 0.9f, 0, 20, 0, -10};
        if (colors && q % 3 == 2) c->color = (sinew_color_transform){0.7f, 1, 1, 1, 0, 0, 0, 0};
        c->blend = SINEW_BLEND_NORMAL;
        if (blends && q % 7 == 3) c->blend = SINEW_BLEND_ADD;
        if (blends && q % 7 == 5) c->blend = SINEW_BLEND_SCREEN;
        if (blends && q % 11 == 6) c->blend = SINEW_BLEND_MULTIPLY;
        float size = 16.0f + 56.0f * ref_randf(&rng), ang = 6.2831853f * ref_randf(&rng);
        float cx = (float)w * ref_randf(&rng), cy = (float)h * ref_randf(&rng);
        float ca = cosf(ang) * size * 0.5f, sa = sinf(ang) * size * 0.5f;
        float lx[4] = {-1, 1, 1, -1}, ly[4] = {-1, -1, 1, 1}, lu[4] = {u0, u1, u1, u0}, lv[4] = {v0, v0, v1, v1};
        c->first_vertex = s->nv;
        c->first_index = s->ni;
        for (int k = 0; k < 4; k++) {
            s->pos[2 * s->nv] = cx + ca * lx[k] - sa * ly[k];
            s->pos[2 * s->nv + 1] = cy + sa * lx[k] + ca * ly[k];
            s->uv[2 * s->nv] = lu[k];
            s->uv[2 * s->nv + 1] = lv[k];
            s->nv++;
        }
        uint32_t b = c->first_vertex;
        uint32_t tri[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(s->idx + s->ni, tri, sizeof tri);
        s->ni += 6;
        c->vertex_count = 4;
        c->index_count = 6;
        c->slot = q;
    }
    if (grid) {
        /* a wavy mesh over cell 0 (a disc), covering the middle of the output */
        sinew_draw_cmd *c = &s->cmds[s->nc++];
        c->page = 0;
        c->region[0] = 0; c->region[1] = 0; c->region[2] = 0.25f; c->region[3] = 0.5f;
        c->color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
        c->first_vertex = s->nv;
        c->first_index = s->ni;
        float side = (float)(w < h ? w : h) * 0.6f;
        for (uint32_t j = 0; j <= grid; j++)
            for (uint32_t i = 0; i <= grid; i++) {
                float fu = (float)i / (float)grid, fv = (float)j / (float)grid;
                s->pos[2 * s->nv] = (float)w * 0.5f + side * (fu - 0.5f) + 6.0f * sinf(fv * 6.0f);
                s->pos[2 * s->nv + 1] = (float)h * 0.5f + side * (fv - 0.5f) + 5.0f * sinf(fu * 5.0f);
                s->uv[2 * s->nv] = fu * 0.25f;
                s->uv[2 * s->nv + 1] = fv * 0.5f;
                s->nv++;
            }
        for (uint32_t j = 0; j < grid; j++)
            for (uint32_t i = 0; i < grid; i++) {
                uint32_t a = c->first_vertex + j * (grid + 1) + i;
                uint32_t tri[6] = {a, a + 1, a + grid + 2, a, a + grid + 2, a + grid + 1};
                memcpy(s->idx + s->ni, tri, sizeof tri);
                s->ni += 6;
            }
        c->vertex_count = s->nv - c->first_vertex;
        c->index_count = s->ni - c->first_index;
    }
    return 0;
}

static inline sinew_drawlist ref_scene_list(const ref_scene *s) {
    sinew_drawlist l = {s->pos, s->uv, s->idx, s->cmds, s->nv, s->ni, s->nc};
    return l;
}

#endif
