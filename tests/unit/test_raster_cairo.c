/* sinew's rasterizer against an independent cairo reference (cli/cairo_ref.c through raster_ref.h)
 * on synthetic scenes, each with its own PSNR floor set within 3 dB of what sinew measures (the
 * table below says the measured value beside each floor), so that a broken rasterizer fails:
 *
 *   - the soft scenes of raster_ref.h (regions with transparent margins: the texture's own edges,
 *     bilinear filtering, colour transforms, blend modes, a wavy mesh);
 *   - regions opaque to their edges, where the geometry's anti-aliasing is all there is between
 *     a shape and its surroundings: rotated quads at several sub-pixel offsets and scales, with
 *     fine checkers so that a texel mapping off by half a texel shows;
 *   - slivers thinner than a pixel (textured and solid), where coverage is all of the image;
 *   - meshes and fans with jittered vertices and mixed triangle windings over an opaque
 *     background, where every shared edge must sum to full coverage (a seam lets the background
 *     through);
 *   - every blend mode cairo has, over an opaque and a translucent backdrop.
 *
 * How each floor was seen to fail on a deliberately broken rasterizer: docs/rendering.md, "Tests"
 * (the table of breakages). SINEW_DUMP_DIR=DIR writes every compared pair as PNGs
 * (CASE_sinew.png, CASE_cairo.png). */
#include <stdlib.h>

#include "raster_ref.h"
#include "testlib.h"

/* ---------------------------------------------------------------------------------------------- */
/* Comparison */

static void dump(const char *name, const char *what, cairo_surface_t *s) {
    const char *dir = getenv("SINEW_DUMP_DIR");
    if (!dir || !*dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%s.png", dir, name, what);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == ' ' || *p == '/' || *p == ',') *p = '_';
    cairo_surface_write_to_png(s, path);
}

/* Draws `l` with sinew and with cairo (seamless) over a transparent w x h frame; returns the PSNR. */
static double compare(const char *name, const uint8_t *page, uint32_t page_w, uint32_t page_h,
                      const sinew_drawlist *l, uint32_t w, uint32_t h, const sinew_affine *view) {
    sinew_image_desc d = {page, page_w, page_h, 0, false};
    sinew_texture_set *tex = NULL;
    CHECK(sinew_texture_set_from_rgba(&d, 1, NULL, &tex, NULL) == SINEW_OK);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, w, h, NULL, NULL) == SINEW_OK);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    CHECK(sinew_renderer_draw(r, l, tex, view, &fb, NULL) == SINEW_OK);

    ref_cairo rc;
    CHECK(ref_cairo_init(&rc, tex) == 0);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    cairo_t *cr = cairo_create(surf);
    ref_cairo_draw(&rc, cr, l, view, true);
    cairo_destroy(cr);
    uint8_t *ref = malloc((size_t)w * h * 4);
    ref_surface_to_rgba(surf, ref);
    double psnr = ref_psnr(fb.pixels, ref, (size_t)w * h * 4);
    /* the scene shows something: 2 % of the frame drawn in both images */
    size_t drawn_s = 0, drawn_c = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        drawn_s += fb.pixels[4 * i + 3] > 0;
        drawn_c += ref[4 * i + 3] > 0;
    }
    CHECK(drawn_s * 50 >= (size_t)w * h && drawn_c * 50 >= (size_t)w * h);
    if (getenv("SINEW_DUMP_DIR")) {
        dump(name, "cairo", surf);
        cairo_surface_t *mine = ref_surface_from_rgba(fb.pixels, w, h);
        dump(name, "sinew", mine);
        cairo_surface_destroy(mine);
    }
    free(ref);
    cairo_surface_destroy(surf);
    ref_cairo_free(&rc);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
    sinew_texture_set_destroy(tex);
    return psnr;
}

/* One case's verdict: the floor sits within 3 dB under what sinew measured when it was set. */
static void verdict(const char *name, double psnr, double floor_db, double measured_db) {
    bool ok = psnr >= floor_db;
    printf("%-36s PSNR %6.2f dB  (floor %5.1f, measured %5.2f when set)%s\n", name, psnr, floor_db, measured_db,
           ok ? "" : "  FAIL");
    CHECK(ok);
    CHECK(measured_db - floor_db <= 3.0 && measured_db >= floor_db); /* the table keeps the rule */
}

static void test_psnr_helper(void) {
    uint8_t a[400], b[400];
    for (int i = 0; i < 400; i++) a[i] = b[i] = (uint8_t)i;
    CHECK_NEAR(ref_psnr(a, b, 400), 99.0, 0);
    b[0] ^= 16;  /* one error of 16 over 400 samples: MSE = 256/400 */
    CHECK_NEAR(ref_psnr(a, b, 400), 10 * log10(255.0 * 255.0 / (256.0 / 400.0)), 1e-9);
}

/* ---------------------------------------------------------------------------------------------- */
/* The soft scenes of raster_ref.h (transparent margins around every region) */

static void test_soft_scenes(void) {
    const struct {
        uint32_t quads, grid, seed;
        bool blends, colors;
        float scale;
        double floor_db, measured_db;
    } cases[] = {
        {40, 0, 7, false, false, 1.0f, 54.0, 56.04},
        {120, 8, 11, false, false, 1.0f, 51.5, 53.81},
        {120, 12, 23, true, false, 1.0f, 51.5, 53.82},
        {80, 6, 5, false, true, 1.0f, 50.0, 52.06},
        {60, 10, 99, true, true, 1.7f, 52.0, 54.01},
        {200, 16, 3, false, false, 0.45f, 57.0, 59.47},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ref_scene s;
        CHECK(ref_scene_make(&s, cases[k].quads, cases[k].grid, 256, 256, cases[k].seed, cases[k].blends,
                             cases[k].colors) == 0);
        float sc = cases[k].scale;
        sinew_affine view = {sc, 0, 0, sc, 128.0f * (1 - sc) + 0.3f, 128.0f * (1 - sc) + 0.7f};
        char name[64];
        snprintf(name, sizeof name, "soft scene %zu", k);
        sinew_drawlist l = ref_scene_list(&s);
        verdict(name, compare(name, s.page, s.page_w, s.page_h, &l, 256, 256, &view), cases[k].floor_db,
                cases[k].measured_db);
        ref_scene_free(&s);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Scenes of regions opaque to their edges */

enum { PAGE_W = 256, PAGE_H = 128, CELL = 64, MAXV = 16384, MAXI = 49152, MAXC = 1024 };

typedef struct edge_scene {
    float pos[2 * MAXV], uv[2 * MAXV];
    uint32_t idx[MAXI];
    sinew_draw_cmd cmds[MAXC];
    uint32_t nv, ni, nc;
    uint32_t rng;
} edge_scene;

static uint8_t edge_page[PAGE_W * PAGE_H * 4];
static edge_scene es;

/* 8 cells of 64 x 64 texels, every texel of cells 0..5 opaque, cells 6 and 7 translucent to their
 * edges; fine patterns (checkers of 2, 3 and 4 texels, 5-texel stripes, 6-texel rings) so that a
 * mapping off by half a texel or half a pixel changes the image. Straight RGBA. */
static void make_edge_page(void) {
    for (uint32_t y = 0; y < PAGE_H; y++)
        for (uint32_t x = 0; x < PAGE_W; x++) {
            uint32_t cell = (y / CELL) * 4 + x / CELL, cx = x % CELL, cy = y % CELL;
            float fx = (float)cx + 0.5f - 32.0f, fy = (float)cy + 0.5f - 32.0f;
            float r = sqrtf(fx * fx + fy * fy);
            uint8_t *p = edge_page + 4 * (y * PAGE_W + x);
            float v; /* 0..1 pattern value */
            switch (cell) {
            case 0: v = ((cx / 2 + cy / 2) % 2) ? 1.0f : 0.0f; break;
            case 1: v = ((cx / 3 + cy / 3) % 2) ? 0.9f : 0.1f; break;
            case 2: v = ((cx + cy) % 5) < 2 ? 1.0f : 0.2f; break;
            case 3: v = 0.5f + 0.5f * sinf((float)cx * 0.35f) * cosf((float)cy * 0.27f); break;
            case 4: v = fmodf(r, 6.0f) < 3.0f ? 0.95f : 0.15f; break;
            case 5: v = ((cx / 4 + cy / 4) % 2) ? 1.0f : 0.0f; break;
            case 6: v = ((cx / 3 + cy / 2) % 2) ? 0.8f : 0.3f; break;
            default: v = 0.5f + 0.5f * sinf((float)(cx + 2 * cy) * 0.5f); break;
            }
            float g = (float)cx / 63.0f, h = (float)cy / 63.0f;
            p[0] = (uint8_t)(30.0f + 200.0f * v * (0.6f + 0.4f * g) + (float)(cell * 3));
            p[1] = (uint8_t)(20.0f + 180.0f * (1.0f - v) * (0.5f + 0.5f * h) + (float)(cell * 5));
            p[2] = (uint8_t)(40.0f + 150.0f * (0.5f * v + 0.5f * g * h) + (float)((cell * 37) % 60));
            p[3] = (uint8_t)(cell < 6 ? 255 : cell == 6 ? 110 : (int)(40.0f + 190.0f * g));
        }
}

static float erandf(void) { return ref_randf(&es.rng); }

static void es_reset(uint32_t seed) {
    es.nv = es.ni = es.nc = 0;
    es.rng = seed;
}

static sinew_draw_cmd *es_cmd(uint32_t cell, sinew_blend_mode blend, sinew_color_transform color) {
    CHECK(es.nc < MAXC);
    sinew_draw_cmd *c = &es.cmds[es.nc++];
    memset(c, 0, sizeof *c);
    if (cell == SINEW_INVALID_INDEX) {
        c->page = SINEW_INVALID_INDEX;
    } else {
        c->page = 0;
        c->region[0] = (float)((cell % 4) * CELL) / PAGE_W;
        c->region[1] = (float)((cell / 4) * CELL) / PAGE_H;
        c->region[2] = c->region[0] + (float)CELL / PAGE_W;
        c->region[3] = c->region[1] + (float)CELL / PAGE_H;
    }
    c->color = color;
    c->blend = blend;
    c->first_vertex = es.nv;
    c->first_index = es.ni;
    c->slot = es.nc - 1;
    return c;
}

/* a vertex at (x, y) showing the cell's texel at (s, t) in 0..1 of the cell */
static uint32_t es_vertex(sinew_draw_cmd *c, float x, float y, float s, float t) {
    CHECK(es.nv < MAXV);
    es.pos[2 * es.nv] = x;
    es.pos[2 * es.nv + 1] = y;
    es.uv[2 * es.nv] = c->region[0] + s * (c->region[2] - c->region[0]);
    es.uv[2 * es.nv + 1] = c->region[1] + t * (c->region[3] - c->region[1]);
    c->vertex_count = es.nv + 1 - c->first_vertex;
    return es.nv++;
}

static void es_tri(sinew_draw_cmd *c, uint32_t a, uint32_t b, uint32_t d) {
    CHECK(es.ni + 3 <= MAXI);
    es.idx[es.ni++] = a;
    es.idx[es.ni++] = b;
    es.idx[es.ni++] = d;
    c->index_count += 3;
}

static const sinew_color_transform NO_TINT = {1, 1, 1, 1, 0, 0, 0, 0};

/* A w x h rectangle centred at (cx, cy), turned by `ang`, showing the whole cell. */
static void es_quad(uint32_t cell, float cx, float cy, float w, float h, float ang, sinew_blend_mode blend,
                    sinew_color_transform color) {
    sinew_draw_cmd *c = es_cmd(cell, blend, color);
    float ca = cosf(ang), sa = sinf(ang);
    const float lx[4] = {-0.5f, 0.5f, 0.5f, -0.5f}, ly[4] = {-0.5f, -0.5f, 0.5f, 0.5f};
    uint32_t v[4];
    for (int k = 0; k < 4; k++) {
        float x = lx[k] * w, y = ly[k] * h;
        v[k] = es_vertex(c, cx + ca * x - sa * y, cy + sa * x + ca * y, lx[k] + 0.5f, ly[k] + 0.5f);
    }
    es_tri(c, v[0], v[1], v[2]);
    es_tri(c, v[0], v[2], v[3]);
}

/* a solid colour (an untextured command) */
static sinew_color_transform solid(float r, float g, float b, float a) {
    return (sinew_color_transform){0, 0, 0, 0, a * 255.0f, r * 255.0f, g * 255.0f, b * 255.0f};
}

/* `n` opaque rectangles of 12..70 px at random angles and sub-pixel places in a w x h frame */
static void es_opaque_quads(uint32_t n, uint32_t w, uint32_t h) {
    for (uint32_t q = 0; q < n; q++) {
        uint32_t cell = ref_rand(&es.rng) % 6;
        float sw = 12.0f + 58.0f * erandf(), sh = 12.0f + 58.0f * erandf();
        float cx = 8.0f + ((float)w - 16.0f) * erandf(), cy = 8.0f + ((float)h - 16.0f) * erandf();
        es_quad(cell, cx, cy, sw, sh, 6.2831853f * erandf(), SINEW_BLEND_NORMAL, NO_TINT);
    }
}

/* `n` slivers 0.15..1.2 px wide and 20..120 px long, half textured (opaque cells), half solid */
static void es_slivers(uint32_t n, uint32_t w, uint32_t h) {
    for (uint32_t q = 0; q < n; q++) {
        float len = 20.0f + 100.0f * erandf(), wid = 0.15f + 1.05f * erandf();
        float cx = 20.0f + ((float)w - 40.0f) * erandf(), cy = 20.0f + ((float)h - 40.0f) * erandf();
        float ang = 6.2831853f * erandf();
        if (q % 2) {
            es_quad(ref_rand(&es.rng) % 6, cx, cy, len, wid, ang, SINEW_BLEND_NORMAL, NO_TINT);
        } else {
            sinew_color_transform c = solid(0.2f + 0.8f * erandf(), 0.2f + 0.8f * erandf(), 0.2f + 0.8f * erandf(), 1);
            es_quad(SINEW_INVALID_INDEX, cx, cy, len, wid, ang, SINEW_BLEND_NORMAL, c);
        }
    }
    /* thin triangles too: a long needle and a fan of needles meeting at one point */
    for (uint32_t q = 0; q < 12; q++) {
        sinew_draw_cmd *c = es_cmd(q % 6, SINEW_BLEND_NORMAL, NO_TINT);
        float x0 = 20.0f + ((float)w - 40.0f) * erandf(), y0 = 20.0f + ((float)h - 40.0f) * erandf();
        float ang = 6.2831853f * erandf(), len = 40.0f + 60.0f * erandf(), spread = 0.004f + 0.02f * erandf();
        uint32_t a = es_vertex(c, x0, y0, 0.5f, 0.5f);
        uint32_t b = es_vertex(c, x0 + len * cosf(ang - spread), y0 + len * sinf(ang - spread), 0.0f, 1.0f);
        uint32_t d = es_vertex(c, x0 + len * cosf(ang + spread), y0 + len * sinf(ang + spread), 1.0f, 1.0f);
        es_tri(c, a, b, d);
    }
}

/* A jittered n x n mesh over an opaque cell: each grid square split along a random diagonal, each
 * triangle listed in a random winding (real meshes have both). */
static void es_mesh(uint32_t cell, float x0, float y0, float side, uint32_t n, float jitter, float ang) {
    sinew_draw_cmd *c = es_cmd(cell, SINEW_BLEND_NORMAL, NO_TINT);
    uint32_t base = es.nv;
    float ca = cosf(ang), sa = sinf(ang);
    for (uint32_t j = 0; j <= n; j++)
        for (uint32_t i = 0; i <= n; i++) {
            float s = (float)i / (float)n, t = (float)j / (float)n;
            bool inner = i > 0 && j > 0 && i < n && j < n;
            float jx = inner ? jitter * (erandf() - 0.5f) * side / (float)n : 0.0f;
            float jy = inner ? jitter * (erandf() - 0.5f) * side / (float)n : 0.0f;
            /* the texture follows the jittered vertex, so the image bends */
            float lx = (s - 0.5f) * side + jx, ly = (t - 0.5f) * side + jy;
            es_vertex(c, x0 + ca * lx - sa * ly, y0 + sa * lx + ca * ly, s, t);
        }
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = base + j * (n + 1) + i, b = a + 1, d = a + n + 1, e = d + 1;
            uint32_t t1[3], t2[3];
            if (ref_rand(&es.rng) % 2) {
                uint32_t u1[3] = {a, b, e}, u2[3] = {a, e, d};
                memcpy(t1, u1, sizeof t1);
                memcpy(t2, u2, sizeof t2);
            } else {
                uint32_t u1[3] = {a, b, d}, u2[3] = {b, e, d};
                memcpy(t1, u1, sizeof t1);
                memcpy(t2, u2, sizeof t2);
            }
            if (ref_rand(&es.rng) % 2) { uint32_t x = t1[1]; t1[1] = t1[2]; t1[2] = x; }
            if (ref_rand(&es.rng) % 2) { uint32_t x = t2[1]; t2[1] = t2[2]; t2[2] = x; }
            es_tri(c, t1[0], t1[1], t1[2]);
            es_tri(c, t2[0], t2[1], t2[2]);
        }
}

/* A fan of `n` triangles around (cx, cy), every edge but the rim shared; alternate windings. */
static void es_fan(uint32_t cell, float cx, float cy, float r, uint32_t n) {
    sinew_draw_cmd *c = es_cmd(cell, SINEW_BLEND_NORMAL, NO_TINT);
    uint32_t mid = es_vertex(c, cx, cy, 0.5f, 0.5f), first = es.nv;
    float phase = 6.2831853f * erandf();
    for (uint32_t k = 0; k < n; k++) {
        float a = phase + 6.2831853f * ((float)k + 0.3f * erandf()) / (float)n;
        float rr = r * (0.7f + 0.3f * erandf());
        es_vertex(c, cx + rr * cosf(a), cy + rr * sinf(a), 0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a));
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = first + k, q = first + (k + 1) % n;
        if (k % 2) es_tri(c, mid, p, q);
        else es_tri(c, mid, q, p);
    }
}

static sinew_drawlist es_list(void) {
    sinew_drawlist l = {es.pos, es.uv, es.idx, es.cmds, es.nv, es.ni, es.nc};
    return l;
}

static double es_compare(const char *name, uint32_t w, uint32_t h, const sinew_affine *view) {
    sinew_drawlist l = es_list();
    return compare(name, edge_page, PAGE_W, PAGE_H, &l, w, h, view);
}

/* Opaque rectangles at four sub-pixel offsets and three scales. */
static void test_opaque_edges(void) {
    const struct {
        float dx, dy, scale;
        double floor_db, measured_db;
    } cases[] = {
        {0.0f, 0.0f, 1.0f, 48.5, 50.85},
        {0.5f, 0.5f, 1.0f, 49.0, 51.05},
        {0.25f, 0.75f, 1.0f, 48.5, 50.87},
        {0.125f, 0.375f, 1.0f, 49.0, 51.05},
        {0.3f, 0.7f, 0.45f, 53.0, 55.04},
        {0.3f, 0.7f, 1.7f, 49.5, 51.59},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        es_reset(4242);
        es_opaque_quads(60, 256, 256);
        float sc = cases[k].scale;
        sinew_affine view = {sc, 0, 0, sc, 128.0f * (1 - sc) + cases[k].dx, 128.0f * (1 - sc) + cases[k].dy};
        char name[64];
        snprintf(name, sizeof name, "opaque quads +%.3g,%.3g x%.2g", cases[k].dx, cases[k].dy, sc);
        verdict(name, es_compare(name, 256, 256, &view), cases[k].floor_db, cases[k].measured_db);
    }
}

/* Slivers thinner than a pixel, at two sub-pixel offsets. */
static void test_slivers(void) {
    const struct {
        float dx, dy;
        double floor_db, measured_db;
    } cases[] = {
        {0.0f, 0.0f, 41.5, 43.90},
        {0.5f, 0.25f, 41.5, 43.88},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        es_reset(777);
        es_slivers(160, 256, 256);
        sinew_affine view = {1, 0, 0, 1, cases[k].dx, cases[k].dy};
        char name[64];
        snprintf(name, sizeof name, "slivers +%.3g,%.3g", cases[k].dx, cases[k].dy);
        verdict(name, es_compare(name, 256, 256, &view), cases[k].floor_db, cases[k].measured_db);
    }
}

/* Meshes and fans of opaque cells, over a transparent frame and over an opaque background of a
 * contrasting solid colour (where a seam on a shared edge lets it through). */
static void test_shared_edges(void) {
    const struct {
        bool background;
        float dx, dy;
        double floor_db, measured_db;
    } cases[] = {
        {false, 0.3f, 0.7f, 45.0, 47.34},
        {true, 0.3f, 0.7f, 45.5, 47.62},
        {true, 0.5f, 0.0f, 45.5, 47.70},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        es_reset(31337);
        if (cases[k].background) es_quad(SINEW_INVALID_INDEX, 128, 128, 300, 300, 0, SINEW_BLEND_NORMAL, solid(1, 0, 1, 1));
        es_mesh(0, 70, 70, 110, 8, 0.8f, 0.3f);
        es_mesh(5, 185, 75, 100, 12, 0.9f, -0.7f);
        es_mesh(2, 75, 185, 100, 5, 0.6f, 1.1f);
        es_mesh(4, 180, 180, 120, 16, 0.7f, 0.05f);
        es_fan(1, 128, 128, 40, 24);
        es_fan(3, 40, 128, 30, 9);
        es_fan(5, 216, 128, 30, 40);
        sinew_affine view = {1, 0, 0, 1, cases[k].dx, cases[k].dy};
        char name[64];
        snprintf(name, sizeof name, "shared edges%s +%.3g,%.3g", cases[k].background ? " on bg" : "", cases[k].dx,
                 cases[k].dy);
        verdict(name, es_compare(name, 256, 256, &view), cases[k].floor_db, cases[k].measured_db);
    }
}

/* Each blend mode cairo has, drawn over a backdrop of opaque and translucent cells; the quads show
 * opaque and translucent cells, some with a colour transform. */
static void test_blend_modes(void) {
    const struct {
        sinew_blend_mode mode;
        double floor_db, measured_db;
    } cases[] = {
        {SINEW_BLEND_NORMAL, 49.5, 51.81},     {SINEW_BLEND_ADD, 48.0, 50.22},
        {SINEW_BLEND_MULTIPLY, 49.0, 51.35},   {SINEW_BLEND_SCREEN, 49.5, 51.77},
        {SINEW_BLEND_DARKEN, 50.0, 52.13},     {SINEW_BLEND_LIGHTEN, 49.5, 51.64},
        {SINEW_BLEND_DIFFERENCE, 48.5, 50.99}, {SINEW_BLEND_OVERLAY, 47.0, 49.47},
        {SINEW_BLEND_HARDLIGHT, 48.0, 50.28},  {SINEW_BLEND_ERASE, 51.0, 53.37},
    };
    const sinew_color_transform tints[3] = {
        {1, 1, 1, 1, 0, 0, 0, 0}, {0.8f, 1.0f, 0.6f, 0.9f, 0, 20, 0, -10}, {0.7f, 1, 1, 0.75f, 0, 0, 0, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        es_reset(99 + (uint32_t)k);
        /* the backdrop: opaque on the left, translucent on the right */
        es_quad(3, 64, 128, 128, 256, 0, SINEW_BLEND_NORMAL, NO_TINT);
        es_quad(7, 192, 128, 128, 256, 0, SINEW_BLEND_NORMAL, NO_TINT);
        es_quad(SINEW_INVALID_INDEX, 128, 40, 256, 40, 0, SINEW_BLEND_NORMAL, solid(0.9f, 0.2f, 0.6f, 0.5f));
        for (uint32_t q = 0; q < 24; q++) {
            uint32_t cell = q % 8;
            float sw = 30.0f + 50.0f * erandf(), sh = 30.0f + 50.0f * erandf();
            float cx = 20.0f + 216.0f * erandf(), cy = 20.0f + 216.0f * erandf();
            es_quad(cell, cx, cy, sw, sh, 6.2831853f * erandf(), cases[k].mode, tints[q % 3]);
        }
        sinew_affine view = {1, 0, 0, 1, 0.3f, 0.6f};
        char name[64];
        snprintf(name, sizeof name, "blend %s", sinew_blend_mode_name(cases[k].mode));
        verdict(name, es_compare(name, 256, 256, &view), cases[k].floor_db, cases[k].measured_db);
    }
}

int main(void) {
    make_edge_page();
    RUN(test_psnr_helper);
    RUN(test_soft_scenes);
    RUN(test_opaque_edges);
    RUN(test_slivers);
    RUN(test_shared_edges);
    RUN(test_blend_modes);
    cairo_debug_reset_static_data();  /* no cairo caches left for the leak checker */
    return test_summary();
}
