/* DragonBones 6.0 masks and vector shapes in the draw list and the rasterizer.
 *
 *   - the rasterizer's masks on synthetic lists, pixel by pixel: a mask's coverage clips its
 *     clients (half-covered pixels half drawn), a textured mask by its texels' alpha only (its
 *     colour transform does not count), chains multiply, a mask is not drawn, a mask naming a
 *     later or plain command is refused, drawing allocates nothing after the first frame;
 *   - the draw list of the own rigs tests/fixtures/render6 (masks6, shapes6): which commands a
 *     shape makes (a stroke then a fill per styled path, a path without a style lending its outline
 *     to the next, invisible strokes left out), their colours, the mask commands and the masks of
 *     the commands they clip (ranges, the later mask winning, a mask clipped by another, a zOrder
 *     change), hit tests and bounds past masks, sinew_instance_shape, no allocation per frame, and a
 *     4.0-5.6 rig's list without any of it;
 *   - sinew's rasterizer against the cairo reference (cli/cairo_ref.c: masks as alpha groups,
 *     shapes drawn from their outlines as cairo paths) on frames of both rigs, with PSNR floors
 *     within 3 dB under what sinew measured when they were set (the table says both), over the
 *     whole frame and over the pixels either image draws; a frame drawn 1.5 px off must fail.
 *
 * Until the runtime fills arm_inst.masked_by (the official adapters' rule), mask_rule.h computes
 * that rule from the draw order: each slot showing a mask display clips the next ceil(maskRange)
 * slots, a later mask taking over. SINEW_DUMP_DIR=DIR writes the compared pairs. */
#include <stdlib.h>

#include "anim/runtime_internal.h"
#include "counting_alloc.h"
#include "mask_rule.h"
#include "raster_ref.h"
#include "sinew/data.h"
#include "sinew/instance.h"
#include "testlib.h"

#define DIR "fixtures/render6/"
enum { MAX_SIDE = 256 };

/* ---------------------------------------------------------------------------------------------- */
/* Synthetic lists                                                                                  */

/* A 4-vertex quad (x0 y0)-(x1 y1) into the arrays at vertex v and index i. */
static void quad(float *pos, float *uv, uint32_t *idx, uint32_t v, uint32_t i, float x0, float y0, float x1, float y1) {
    const float p[8] = {x0, y0, x1, y0, x1, y1, x0, y1}, t[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    memcpy(pos + 2 * v, p, sizeof p);
    memcpy(uv + 2 * v, t, sizeof t);
    const uint32_t q[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
    memcpy(idx + i, q, sizeof q);
}

static sinew_draw_cmd solid(uint32_t v, uint32_t i, float r, float g, float b, float a) {
    sinew_draw_cmd c;
    memset(&c, 0, sizeof c);
    c.page = SINEW_INVALID_INDEX;
    c.color = (sinew_color_transform){a, 0, 0, 0, 0, r * 255, g * 255, b * 255};
    c.color.a_mul = a;
    c.color.r_mul = c.color.g_mul = c.color.b_mul = 0;
    c.first_vertex = v;
    c.vertex_count = 4;
    c.first_index = i;
    c.index_count = 6;
    return c;
}

static const uint8_t *px_at(const sinew_framebuffer *fb, uint32_t x, uint32_t y) {
    return fb->pixels + (size_t)y * fb->stride + (size_t)x * 4;
}

static void test_mask_coverage(void) {
    float pos[32], uv[32];
    uint32_t idx[24];
    /* mask: x 2..5.5 (half a pixel column at 5), all rows; client: the whole 8x4 frame, red */
    quad(pos, uv, idx, 0, 0, 2, 0, 5.5f, 4);
    quad(pos, uv, idx, 4, 6, 0, 0, 8, 4);
    sinew_draw_cmd cmds[2] = {solid(0, 0, 0, 1, 0, 1), solid(4, 6, 1, 0, 0, 1)};
    cmds[0].flags = SINEW_DRAW_MASK;
    cmds[1].mask = 1;
    sinew_drawlist l = {pos, uv, idx, cmds, 8, 12, 2};
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 8, 4, NULL, NULL) == SINEW_OK);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    sinew_error err = {0};
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_OK);
    for (uint32_t y = 0; y < 4; y++) {
        CHECK(px_at(&fb, 1, y)[3] == 0);                                 /* outside the mask */
        CHECK(px_at(&fb, 3, y)[0] == 255 && px_at(&fb, 3, y)[3] == 255); /* inside: red, not green */
        CHECK(px_at(&fb, 3, y)[1] == 0);
        CHECK(px_at(&fb, 5, y)[3] >= 126 && px_at(&fb, 5, y)[3] <= 129); /* half covered */
        CHECK(px_at(&fb, 6, y)[3] == 0);
    }
    size_t scratch = sinew_renderer_scratch_bytes(r);
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_OK);
    CHECK(sinew_renderer_scratch_bytes(r) == scratch);
    /* a mask naming itself, a later command or a plain one is refused */
    cmds[1].mask = 2;
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_E_RANGE);
    CHECK(strstr(err.message, "not an earlier mask command") != NULL);
    cmds[1].mask = 1;
    cmds[0].flags = 0;
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_E_RANGE);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
}

static void test_mask_texture_alpha_and_chain(void) {
    /* a 2x1 page: left texel opaque red, right texel white at alpha 64 (straight) */
    const uint8_t page[8] = {255, 0, 0, 255, 255, 255, 255, 64};
    sinew_image_desc d = {page, 2, 1, 0, false};
    sinew_texture_set *tex = NULL;
    CHECK(sinew_texture_set_from_rgba(&d, 1, NULL, &tex, NULL) == SINEW_OK);
    float pos[48], uv[48];
    uint32_t idx[36];
    /* mask 0: the page over x 0..8 (texels 4 px wide: x 0..4 alpha 1, 4..8 alpha 1/4 but bilinear
       between); its colour transform would make it invisible, which must not matter */
    quad(pos, uv, idx, 0, 0, 0, 0, 8, 2);
    sinew_draw_cmd m0 = solid(0, 0, 1, 1, 1, 1);
    m0.page = 0;
    m0.region[0] = 0, m0.region[1] = 0, m0.region[2] = 1, m0.region[3] = 1;
    m0.color = (sinew_color_transform){0, 0, 0, 0, 0, 0, 0, 0};
    m0.flags = SINEW_DRAW_MASK;
    /* mask 1: x 0..6, clipped by mask 0; client: white over everything, clipped by mask 1 */
    quad(pos, uv, idx, 4, 6, 0, 0, 6, 2);
    sinew_draw_cmd m1 = solid(4, 6, 1, 1, 1, 1);
    m1.flags = SINEW_DRAW_MASK | SINEW_DRAW_FILL;
    m1.mask = 1;
    quad(pos, uv, idx, 8, 12, 0, 0, 8, 2);
    sinew_draw_cmd c = solid(8, 12, 1, 1, 1, 1);
    c.mask = 2;
    sinew_draw_cmd cmds[3] = {m0, m1, c};
    sinew_drawlist l = {pos, uv, idx, cmds, 12, 18, 3};
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 8, 2, NULL, NULL) == SINEW_OK);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    CHECK(sinew_renderer_draw(r, &l, tex, NULL, &fb, NULL) == SINEW_OK);
    CHECK(px_at(&fb, 0, 0)[3] == 255);                                /* texel alpha 1, inside both */
    CHECK(px_at(&fb, 0, 0)[0] == 255 && px_at(&fb, 0, 0)[1] == 255); /* the client's white, not red */
    CHECK(px_at(&fb, 5, 1)[3] >= 60 && px_at(&fb, 5, 1)[3] <= 100);   /* alpha ~1/4 .. ~1/3 there */
    CHECK(px_at(&fb, 6, 0)[3] == 0 && px_at(&fb, 7, 1)[3] == 0);      /* outside mask 1 */
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
    sinew_texture_set_destroy(tex);
}

/* ---------------------------------------------------------------------------------------------- */
/* The rigs                                                                                          */

typedef struct rig {
    sinew_data *data;
    sinew_atlas *atlas;
    sinew_texture_set *tex;
} rig;

static bool load_rig(const char *ske, rig *g) {
    memset(g, 0, sizeof *g);
    sinew_error err = {0};
    CHECK(sinew_data_load_file(ske, NULL, &g->data, &err) == SINEW_OK);
    CHECK(sinew_atlas_load_file(DIR "render6_tex.json", NULL, &g->atlas, &err) == SINEW_OK);
    const char *paths[1] = {DIR "render6_tex.png"};
    CHECK(sinew_texture_set_load(paths, 1, NULL, &g->tex, &err) == SINEW_OK);
    if (!g->data || !g->atlas || !g->tex) printf("%s: %s\n", ske, err.message);
    return g->data && g->atlas && g->tex;
}

static void free_rig(rig *g) {
    sinew_texture_set_destroy(g->tex);
    sinew_atlas_destroy(g->atlas);
    sinew_data_destroy(g->data);
}

static sinew_instance *make(rig *g, const char *anim, const sinew_allocator *al) {
    sinew_instance_options io = {0};
    io.atlas = g->atlas;
    io.allocator = al;
    sinew_instance *inst = NULL;
    sinew_error err = {0};
    CHECK(sinew_instance_create(g->data, &io, &inst, &err) == SINEW_OK);
    if (inst && anim) CHECK(sinew_instance_play(inst, anim, 0, &err) == SINEW_OK);
    return inst;
}

static void step(sinew_instance *inst, uint32_t frames) {
    for (uint32_t i = 0; i < frames; i++) {
        sinew_instance_update(inst, 1.0 / 24.0);
        while (sinew_instance_poll_event(inst, NULL)) {
        }
    }
    test_set_masks(inst);
}

static uint32_t slot_of(const sinew_instance *inst, const char *name) {
    const arm_inst *a = &inst->arms[0];
    for (uint32_t s = 0; s < a->slot_count; s++)
        if (strcmp(a->data->slots[s].name, name) == 0) return s;
    return SINEW_INVALID_INDEX;
}

/* The index of slot `name`'s n-th command in the list, or INVALID. */
static uint32_t cmd_of(const sinew_instance *inst, const sinew_drawlist *dl, const char *name, uint32_t n) {
    uint32_t s = slot_of(inst, name);
    for (uint32_t c = 0; c < dl->cmd_count; c++)
        if (dl->cmds[c].armature == 0 && dl->cmds[c].slot == s && n-- == 0) return c;
    return SINEW_INVALID_INDEX;
}

static uint32_t cmds_of(const sinew_instance *inst, const sinew_drawlist *dl, const char *name) {
    uint32_t s = slot_of(inst, name), n = 0;
    for (uint32_t c = 0; c < dl->cmd_count; c++) n += dl->cmds[c].slot == s;
    return n;
}

/* An instance playing `anim`, `frames` frames in, and its draw list. */
static sinew_instance *drawn(rig *g, const char *anim, uint32_t frames, sinew_drawlist *dl) {
    sinew_instance *inst = make(g, anim, NULL);
    step(inst, frames);
    sinew_instance_drawlist(inst, dl);
    return inst;
}

static void shapes_drawlist(rig *g) {
    sinew_drawlist dl;
    sinew_instance *inst = drawn(g, "wave", 0, &dl);
    /* s_blob: a fill only; its colour 0x5fd3a4 through the slot's (identity) transform */
    uint32_t c = cmd_of(inst, &dl, "s_blob", 0);
    CHECK(c != SINEW_INVALID_INDEX && cmds_of(inst, &dl, "s_blob") == 1);
    if (c != SINEW_INVALID_INDEX) {
        const sinew_draw_cmd *k = &dl.cmds[c];
        CHECK(k->flags == SINEW_DRAW_FILL && k->part == 0 && k->page == SINEW_INVALID_INDEX && k->mask == 0);
        CHECK_NEAR(k->color.r_mul, 0x5f / 255.0, 1e-6);
        CHECK_NEAR(k->color.g_mul, 0xd3 / 255.0, 1e-6);
        CHECK_NEAR(k->color.b_mul, 0xa4 / 255.0, 1e-6);
        CHECK_NEAR(k->color.a_mul, 1.0, 1e-6);
        CHECK(k->index_count > 0 && k->index_count % 3 == 0);
    }
    /* s_star: its stroke first, then its fill over it */
    uint32_t s0 = cmd_of(inst, &dl, "s_star", 0), s1 = cmd_of(inst, &dl, "s_star", 1);
    CHECK(s0 != SINEW_INVALID_INDEX && s1 == s0 + 1);
    if (s1 != SINEW_INVALID_INDEX) CHECK(dl.cmds[s0].flags == SINEW_DRAW_STROKE && dl.cmds[s1].flags == SINEW_DRAW_FILL);
    /* s_wave: a stroke at opacity 0.85 */
    c = cmd_of(inst, &dl, "s_wave", 0);
    CHECK(c != SINEW_INVALID_INDEX && dl.cmds[c].flags == SINEW_DRAW_STROKE);
    if (c != SINEW_INVALID_INDEX) CHECK_NEAR(dl.cmds[c].color.a_mul, 0.85, 1e-6);
    /* s_face: path 0 stroke + fill, path 1 (no style) none, path 2 fill, path 3 stroke */
    CHECK(cmds_of(inst, &dl, "s_face") == 4);
    const uint32_t parts[4] = {0, 0, 2, 3}, flags[4] = {SINEW_DRAW_STROKE, SINEW_DRAW_FILL, SINEW_DRAW_FILL,
                                                        SINEW_DRAW_STROKE};
    for (uint32_t n = 0; n < 4; n++) {
        c = cmd_of(inst, &dl, "s_face", n);
        CHECK(c != SINEW_INVALID_INDEX && dl.cmds[c].part == parts[n] && dl.cmds[c].flags == flags[n]);
    }
    /* the eyes' fill holds both contours (path 1's circle and path 2's) */
    c = cmd_of(inst, &dl, "s_face", 2);
    sinew_rect eye = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; c != SINEW_INVALID_INDEX && i < dl.cmds[c].vertex_count; i++) {
        const float *p = dl.positions + 2 * (dl.cmds[c].first_vertex + i);
        eye.x0 = fminf(eye.x0, p[0]), eye.x1 = fmaxf(eye.x1, p[0]);
    }
    CHECK(eye.x0 < -15 && eye.x1 > 15); /* -11 +- 5 and 11 +- 5 around x = 0 */
    /* the shape API: the weighted bar in armature space (identity), the star placed by its slot */
    sinew_shape_info info;
    float pts[6 * 16];
    CHECK(sinew_instance_shape(inst, 0, slot_of(inst, "s_bar"), &info, pts, 6 * 16));
    CHECK(info.point_count == 10 && info.path_count == 1 && !info.mask);
    CHECK(info.matrix.a == 1 && info.matrix.b == 0 && info.matrix.tx == 0);
    CHECK_NEAR(pts[2], -90, 1e-3); /* the first anchor, at the arm bone (frame 0: unbent) */
    CHECK(sinew_instance_shape(inst, 0, slot_of(inst, "s_star"), &info, NULL, 0));
    CHECK_NEAR(info.matrix.tx, 80, 1e-3);
    CHECK_NEAR(info.matrix.ty, -55, 1e-3);
    sinew_shape_path sp;
    CHECK(sinew_instance_shape_path(inst, 0, slot_of(inst, "s_face"), 3, &sp));
    CHECK(sp.index_count == 2 && sp.stroke && !sp.fill && sp.stroke_width == 2.5f);
    CHECK(!sinew_instance_shape_path(inst, 0, slot_of(inst, "s_face"), 4, &sp));
    CHECK(!sinew_instance_shape(inst, 0, 999, &info, NULL, 0));
    sinew_instance_destroy(inst);

    /* after the first draw list, updates and draw lists allocate nothing */
    counting cnt = {.fail_at = -1};
    sinew_allocator al = counting_allocator(&cnt, false);
    inst = make(g, "wave", &al);
    sinew_instance_drawlist(inst, &dl);
    long allocs = cnt.allocs;
    for (int i = 0; i < 30; i++) {
        step(inst, 1);
        sinew_instance_drawlist(inst, &dl);
    }
    CHECK(cnt.allocs == allocs);
    sinew_instance_destroy(inst);
    CHECK(!counting_leaked(&cnt));
}

static void masks_drawlist(rig *g) {
    sinew_drawlist dl;
    sinew_instance *inst = drawn(g, "move", 0, &dl);
    uint32_t m_img = cmd_of(inst, &dl, "m_img", 0), m_shape = cmd_of(inst, &dl, "m_shape", 0);
    uint32_t m_inner = cmd_of(inst, &dl, "m_inner", 0), m_z = cmd_of(inst, &dl, "m_z", 0);
    CHECK(m_img != SINEW_INVALID_INDEX && m_shape != SINEW_INVALID_INDEX && m_inner != SINEW_INVALID_INDEX &&
          m_z != SINEW_INVALID_INDEX);
    if (m_img == SINEW_INVALID_INDEX || m_shape == SINEW_INVALID_INDEX || m_inner == SINEW_INVALID_INDEX ||
        m_z == SINEW_INVALID_INDEX)
        return;
    CHECK(dl.cmds[m_img].flags == SINEW_DRAW_MASK && dl.cmds[m_img].page == 0 && dl.cmds[m_img].mask == 0);
    CHECK(dl.cmds[m_shape].flags == (SINEW_DRAW_MASK | SINEW_DRAW_FILL | SINEW_DRAW_STROKE));
    CHECK(cmds_of(inst, &dl, "m_shape") == 1 && cmds_of(inst, &dl, "m_z") == 1);
    /* range 2: a and b; c is past it */
    CHECK(dl.cmds[cmd_of(inst, &dl, "a", 0)].mask == m_img + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "b", 0)].mask == m_img + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "c", 0)].mask == 0);
    /* range 3: d, m_inner (a mask clipped by a mask) and f, which the later m_inner takes over */
    CHECK(dl.cmds[cmd_of(inst, &dl, "d", 0)].mask == m_shape + 1);
    CHECK(dl.cmds[m_inner].mask == m_shape + 1 && dl.cmds[m_inner].flags == SINEW_DRAW_MASK);
    CHECK(dl.cmds[cmd_of(inst, &dl, "f", 0)].mask == m_inner + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "g", 0)].mask == 0);
    CHECK(dl.cmds[cmd_of(inst, &dl, "h", 0)].mask == m_z + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "i", 0)].mask == 0);
    /* the masks make no part of the bounds; the bounds still reach the background */
    sinew_rect b;
    CHECK(sinew_drawlist_bounds(&dl, &b, false));
    CHECK(b.x0 > -140 && b.x1 < 140);
    /* a hit test sees a client only inside its mask: j (unmasked, at 80 -60) is hit; a point in c's
       image is c (no mask); b's image outside the glow's alpha is not b */
    uint32_t ai = 9, hs = 999;
    CHECK(sinew_instance_hit(inst, 80, -60, &ai, &hs) && hs == slot_of(inst, "j"));
    CHECK(sinew_instance_hit(inst, -95, -55, &ai, &hs) && hs == slot_of(inst, "c"));
    /* zOrder: m_z two places back clips g instead of h */
    sinew_instance_destroy(inst);
    inst = drawn(g, "zorder", 10, &dl);
    m_z = cmd_of(inst, &dl, "m_z", 0);
    CHECK(m_z != SINEW_INVALID_INDEX && dl.cmds[cmd_of(inst, &dl, "g", 0)].mask == m_z + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "h", 0)].mask == 0);
    /* frame 16: m_img behind m_shape: clipped by it, and clipping d and m_inner (the later mask) */
    step(inst, 8);
    sinew_instance_drawlist(inst, &dl);
    m_img = cmd_of(inst, &dl, "m_img", 0), m_shape = cmd_of(inst, &dl, "m_shape", 0);
    m_inner = cmd_of(inst, &dl, "m_inner", 0);
    CHECK(m_shape < m_img && dl.cmds[m_img].mask == m_shape + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "d", 0)].mask == m_img + 1 && dl.cmds[m_inner].mask == m_img + 1);
    CHECK(dl.cmds[cmd_of(inst, &dl, "f", 0)].mask == m_inner + 1);
    sinew_instance_destroy(inst);
}

static void test_shapes_drawlist(void) {
    rig g;
    if (load_rig(DIR "shapes6_ske.json", &g)) shapes_drawlist(&g);
    free_rig(&g);
}

static void test_masks_drawlist(void) {
    rig g;
    if (load_rig(DIR "masks6_ske.json", &g)) masks_drawlist(&g);
    free_rig(&g);
}

/* A 4.0-5.6 rig's draw list has no masks, flags or parts. */
static void test_5x_list_plain(void) {
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    CHECK(sinew_data_load_file("fixtures/own/Pip_5.5/pip_ske.json", NULL, &data, NULL) == SINEW_OK);
    CHECK(sinew_atlas_load_file("fixtures/own/Pip_5.5/pip_tex.json", NULL, &atlas, NULL) == SINEW_OK);
    sinew_instance_options io = {0};
    io.atlas = atlas;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(data, &io, &inst, NULL) == SINEW_OK);
    CHECK(inst->dl_mask_slots == 0 && inst->dl_shape_points == 0);
    for (int f = 0; f < 12 && inst; f++) {
        sinew_instance_update(inst, 1.0 / 24);
        sinew_drawlist dl;
        sinew_instance_drawlist(inst, &dl);
        CHECK(dl.cmd_count > 0);
        for (uint32_t c = 0; c < dl.cmd_count; c++)
            CHECK(dl.cmds[c].mask == 0 && dl.cmds[c].flags == 0 && dl.cmds[c].part == 0);
    }
    sinew_instance_destroy(inst);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

/* ---------------------------------------------------------------------------------------------- */
/* Against cairo                                                                                    */

typedef struct frame_floor {
    const char *rig, *anim;
    uint32_t frame;
    double full, full_measured, drawn, drawn_measured;
} frame_floor;

/* Each frame's floors (whole frame, drawn pixels) and what sinew measured when they were set. */
static const frame_floor frames[] = {
    {"masks6", "move", 0, 52.0, 54.36, 49.0, 51.16},
    {"masks6", "move", 7, 53.0, 55.01, 49.0, 51.36},
    {"masks6", "move", 15, 53.0, 55.33, 49.5, 51.51},
    {"masks6", "zorder", 10, 52.0, 54.37, 49.0, 51.07},
    {"masks6", "zorder", 19, 55.0, 57.25, 51.5, 53.81},
    {"shapes6", "wave", 0, 47.5, 49.53, 42.5, 44.63},
    {"shapes6", "wave", 7, 48.0, 50.15, 43.0, 45.21},
    {"shapes6", "wave", 13, 48.0, 50.30, 43.0, 45.33},
    {"shapes6", "wave", 19, 47.5, 49.92, 43.0, 45.00},
};
enum { NFRAMES = sizeof frames / sizeof frames[0] };

static void test_floor_table(void) {
    for (size_t i = 0; i < NFRAMES; i++) {
        CHECK(frames[i].full <= frames[i].full_measured && frames[i].full_measured - frames[i].full <= 3.0);
        CHECK(frames[i].drawn <= frames[i].drawn_measured && frames[i].drawn_measured - frames[i].drawn <= 3.0);
    }
}

static void dump(const char *name, const char *what, const uint8_t *rgba, uint32_t w, uint32_t h) {
    const char *dir = getenv("SINEW_DUMP_DIR");
    if (!dir || !*dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%s.png", dir, name, what);
    cairo_surface_t *s = ref_surface_from_rgba(rgba, w, h);
    cairo_surface_write_to_png(s, path);
    cairo_surface_destroy(s);
}

/* The cairo reference of the instance's current list at `view` into `out` (w x h RGBA). */
static void cairo_frame(const ref_cairo *rc, const sinew_instance *inst, const sinew_drawlist *dl,
                        const sinew_affine *view, uint32_t w, uint32_t h, uint8_t *out) {
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    cairo_t *cr = cairo_create(surf);
    ref_cairo_draw_shapes(rc, cr, dl, view, true, inst);
    cairo_destroy(cr);
    ref_surface_to_rgba(surf, out);
    cairo_surface_destroy(surf);
}

static void compare(const frame_floor *ff, rig *g, const ref_cairo *rc, sinew_renderer *r) {
    sinew_drawlist dl;
    sinew_instance *inst = drawn(g, ff->anim, ff->frame, &dl);
    sinew_rect bounds;
    CHECK(sinew_drawlist_bounds(&dl, &bounds, false));
    float side = fmaxf(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
    sinew_framing fr;
    CHECK(sinew_framing_fit(bounds, (float)(MAX_SIDE - 10) / side, 4.0f, &fr, NULL) == SINEW_OK);
    fr.view.tx += 0.37f;
    fr.view.ty += 0.21f;
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, fr.width, fr.height, NULL, NULL) == SINEW_OK);
    CHECK(sinew_renderer_draw(r, &dl, g->tex, &fr.view, &fb, NULL) == SINEW_OK);
    size_t px = (size_t)fr.width * fr.height;
    uint8_t *ref = malloc(px * 4);
    cairo_frame(rc, inst, &dl, &fr.view, fr.width, fr.height, ref);
    size_t drawn_s = 0, drawn_c = 0;
    for (size_t i = 0; i < px; i++) drawn_s += fb.pixels[4 * i + 3] > 0, drawn_c += ref[4 * i + 3] > 0;
    CHECK(drawn_s * 20 >= px && drawn_c * 20 >= px);
    double full = ref_psnr(fb.pixels, ref, px * 4), part = ref_psnr_drawn(fb.pixels, ref, px, NULL);
    char name[128];
    snprintf(name, sizeof name, "%s_%s_%u", ff->rig, ff->anim, ff->frame);
    printf("  %-24s %3ux%-3u PSNR %6.2f dB (floor %5.2f), drawn pixels %6.2f dB (floor %5.2f)\n", name, fr.width,
           fr.height, full, ff->full, part, ff->drawn);
    CHECK(full >= ff->full && part >= ff->drawn);
    dump(name, "sinew", fb.pixels, fr.width, fr.height);
    dump(name, "cairo", ref, fr.width, fr.height);
    /* the same frame 1.5 px off fails the floors */
    sinew_affine v = fr.view;
    v.tx += 1.5f;
    v.ty -= 1.5f;
    cairo_frame(rc, inst, &dl, &v, fr.width, fr.height, ref);
    CHECK(ref_psnr(fb.pixels, ref, px * 4) < ff->full || ref_psnr_drawn(fb.pixels, ref, px, NULL) < ff->drawn);
    free(ref);
    sinew_framebuffer_free(&fb);
    sinew_instance_destroy(inst);
}

static void test_against_cairo(void) {
    rig masks, shapes;
    bool ok = load_rig(DIR "masks6_ske.json", &masks) & load_rig(DIR "shapes6_ske.json", &shapes);
    ref_cairo rc;
    CHECK(ok && ref_cairo_init(&rc, masks.tex) == 0);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    for (size_t i = 0; ok && i < NFRAMES; i++)
        compare(&frames[i], strcmp(frames[i].rig, "masks6") == 0 ? &masks : &shapes, &rc, r);
    sinew_renderer_destroy(r);
    ref_cairo_free(&rc);
    free_rig(&masks);
    free_rig(&shapes);
}

int main(void) {
    RUN(test_mask_coverage);
    RUN(test_mask_texture_alpha_and_chain);
    RUN(test_shapes_drawlist);
    RUN(test_masks_drawlist);
    RUN(test_5x_list_plain);
    RUN(test_floor_table);
    RUN(test_against_cairo);
    return test_summary();
}
