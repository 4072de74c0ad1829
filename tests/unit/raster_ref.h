/* raster_ref.h - what the raster tests and benchmarks share: the cairo reference renderer and
 * PSNR (cli/cairo_ref.h, built as the static library sinew_cairo_ref, which whoever includes this
 * links: a test/bench-only dependency, never linked into libsinew), and a synthetic scene generator
 * (header-only, static inline).
 */
#ifndef SINEW_RASTER_REF_H
#define SINEW_RASTER_REF_H

#include "cairo_ref.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/render.h"

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

/* PSNR over the pixels that either premultiplied RGBA image draws (alpha > 0), and how many they
 * are (drawn may be NULL); 99 if identical. */
static inline double ref_psnr_drawn(const uint8_t *a, const uint8_t *b, size_t px, size_t *drawn) {
    double se = 0;
    size_t n = 0;
    for (size_t i = 0; i < px; i++) {
        if (a[4 * i + 3] == 0 && b[4 * i + 3] == 0) continue;
        for (int c = 0; c < 4; c++) {
            double d = (double)a[4 * i + (size_t)c] - (double)b[4 * i + (size_t)c];
            se += d * d;
        }
        n += 4;
    }
    if (drawn) *drawn = n / 4;
    if (se == 0 || n == 0) return 99.0;
    return 10.0 * log10(255.0 * 255.0 / (se / (double)n));
}

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
            /* (through int: above 255 wraps, as before, without an out-of-range float conversion) */
            p[0] = (uint8_t)(int)(60.0f + 25.0f * (float)cell + 60.0f * stripe);
            p[1] = (uint8_t)(int)(200.0f - 20.0f * (float)cell + 40.0f * stripe);
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
        /* the other separable modes and erase, now and then (cairo has no subtract or invert) */
        static const sinew_blend_mode more[] = {SINEW_BLEND_DARKEN, SINEW_BLEND_LIGHTEN, SINEW_BLEND_DIFFERENCE,
                                                SINEW_BLEND_OVERLAY, SINEW_BLEND_HARDLIGHT, SINEW_BLEND_ERASE};
        if (blends && q % 13 == 9) c->blend = more[(q / 13) % 6];
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
