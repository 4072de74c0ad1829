/* Pixel-exact tests of the rasterizer on synthetic scenes. Expected values come from geometry
 * (areas, placement formulas of docs/dragonbones-semantics.md §1/§5) and from the compositing
 * formulas computed here in floating point, never from the rasterizer's own output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/render.h"
#include "testlib.h"

/* A hand-built draw list. */
typedef struct scene {
    float pos[512], uv[512];
    uint32_t idx[768];
    sinew_draw_cmd cmd[16];
    uint32_t nv, ni, nc;
} scene;

static const sinew_color_transform IDENTITY = {1, 1, 1, 1, 0, 0, 0, 0};

static sinew_color_transform solid(float r, float g, float b, float a) {
    sinew_color_transform c = {0, 0, 0, 0, a * 255.0f, r * 255.0f, g * 255.0f, b * 255.0f};
    return c;
}

static uint32_t add_vertex(scene *s, float x, float y, float u, float v) {
    s->pos[2 * s->nv] = x;
    s->pos[2 * s->nv + 1] = y;
    s->uv[2 * s->nv] = u;
    s->uv[2 * s->nv + 1] = v;
    return s->nv++;
}

static sinew_draw_cmd *begin_cmd(scene *s, uint32_t page, sinew_color_transform c, sinew_blend_mode blend) {
    sinew_draw_cmd *cmd = &s->cmd[s->nc++];
    memset(cmd, 0, sizeof *cmd);
    cmd->page = page;
    cmd->color = c;
    cmd->blend = blend;
    cmd->region[2] = cmd->region[3] = 1.0f;
    cmd->first_vertex = s->nv;
    cmd->first_index = s->ni;
    return cmd;
}

static void tri(scene *s, sinew_draw_cmd *cmd, uint32_t a, uint32_t b, uint32_t c) {
    s->idx[s->ni++] = a;
    s->idx[s->ni++] = b;
    s->idx[s->ni++] = c;
    cmd->index_count += 3;
    cmd->vertex_count = s->nv - cmd->first_vertex;
}

/* A quad p0..p3 (clockwise on screen) with uvs t0..t3 as two triangles. */
static void quad(scene *s, sinew_draw_cmd *cmd, const float p[8], const float t[8]) {
    uint32_t v[4];
    for (int i = 0; i < 4; i++) v[i] = add_vertex(s, p[2 * i], p[2 * i + 1], t ? t[2 * i] : 0, t ? t[2 * i + 1] : 0);
    tri(s, cmd, v[0], v[1], v[2]);
    tri(s, cmd, v[0], v[2], v[3]);
}

static sinew_drawlist as_list(const scene *s) {
    sinew_drawlist l = {s->pos, s->uv, s->idx, s->cmd, s->nv, s->ni, s->nc};
    return l;
}

static sinew_status render(const scene *s, const sinew_texture_set *tex, sinew_framebuffer *fb) {
    sinew_renderer *r = NULL;
    sinew_error err = {0};
    sinew_status st = sinew_renderer_create(NULL, &r, &err);
    if (st) return st;
    sinew_drawlist l = as_list(s);
    st = sinew_renderer_draw(r, &l, tex, NULL, fb, &err);
    if (st) fprintf(stderr, "render: %s\n", err.message);
    sinew_renderer_destroy(r);
    return st;
}

static const uint8_t *px(const sinew_framebuffer *fb, uint32_t x, uint32_t y) {
    return fb->pixels + y * fb->stride + x * 4u;
}

/* ---------------------------------------------------------------------------------------------- */

static void test_axis_aligned_quad(void) {
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 12, 12, NULL, NULL) == SINEW_OK);
    scene s = {0};
    sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX, solid(1, 0, 0, 1), SINEW_BLEND_NORMAL);
    float p[8] = {2, 3, 7, 3, 7, 9, 2, 9};
    quad(&s, c, p, NULL);
    CHECK(render(&s, NULL, &fb) == SINEW_OK);
    int bad = 0;
    for (uint32_t y = 0; y < 12; y++)
        for (uint32_t x = 0; x < 12; x++) {
            bool in = x >= 2 && x < 7 && y >= 3 && y < 9;
            const uint8_t *q = px(&fb, x, y);
            uint8_t e[4] = {in ? 255 : 0, 0, 0, in ? 255 : 0};
            if (memcmp(q, e, 4) != 0) bad++;
        }
    CHECK(bad == 0);

    /* half-pixel offset: edges get exactly half coverage, corners a quarter */
    sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
    scene h = {0};
    c = begin_cmd(&h, SINEW_INVALID_INDEX, solid(1, 1, 1, 1), SINEW_BLEND_NORMAL);
    float q[8] = {2.5f, 2.5f, 6.5f, 2.5f, 6.5f, 6.5f, 2.5f, 6.5f};
    quad(&h, c, q, NULL);
    CHECK(render(&h, NULL, &fb) == SINEW_OK);
    CHECK_NEAR(px(&fb, 4, 4)[3], 255, 0);
    CHECK_NEAR(px(&fb, 2, 4)[3], 127.5, 1);
    CHECK_NEAR(px(&fb, 6, 4)[3], 127.5, 1);
    CHECK_NEAR(px(&fb, 4, 2)[3], 127.5, 1);
    CHECK_NEAR(px(&fb, 2, 2)[3], 63.75, 1);
    CHECK_NEAR(px(&fb, 6, 6)[3], 63.75, 1);
    CHECK(px(&fb, 1, 4)[3] == 0 && px(&fb, 7, 4)[3] == 0);
    sinew_framebuffer_free(&fb);
}

static double alpha_sum(const sinew_framebuffer *fb) {
    double sum = 0;
    for (uint32_t y = 0; y < fb->height; y++)
        for (uint32_t x = 0; x < fb->width; x++) sum += px(fb, x, y)[3] / 255.0;
    return sum;
}

static void test_rotated_quad_area(void) {
    const double angles[] = {0.3, 0.5235987756, 1.1, 2.0};
    for (int k = 0; k < 4; k++) {
        sinew_framebuffer fb;
        CHECK(sinew_framebuffer_init(&fb, 64, 64, NULL, NULL) == SINEW_OK);
        scene s = {0};
        sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX, solid(1, 1, 1, 1), SINEW_BLEND_NORMAL);
        double w = 23.7, h = 13.3, cx = 31.3, cy = 30.8, ca = cos(angles[k]), sa = sin(angles[k]);
        double lx[4] = {-w / 2, w / 2, w / 2, -w / 2}, ly[4] = {-h / 2, -h / 2, h / 2, h / 2};
        float p[8];
        for (int i = 0; i < 4; i++) {
            p[2 * i] = (float)(cx + ca * lx[i] - sa * ly[i]);
            p[2 * i + 1] = (float)(cy + sa * lx[i] + ca * ly[i]);
        }
        quad(&s, c, p, NULL);
        CHECK(render(&s, NULL, &fb) == SINEW_OK);
        double sum = alpha_sum(&fb);
        CHECK_NEAR(sum, w * h, w * h * 0.005);
        sinew_framebuffer_free(&fb);
    }
}

static void test_shared_edge_no_seam(void) {
    /* two triangles share a diagonal that crosses pixels at every fraction; a half-transparent
       colour makes any seam (coverage < 1) or double blending (coverage > 1) visible */
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 32, 32, NULL, NULL) == SINEW_OK);
    scene s = {0};
    sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX, solid(0.2f, 0.4f, 1.0f, 0.5f), SINEW_BLEND_NORMAL);
    uint32_t a = add_vertex(&s, 3.0f, 2.0f, 0, 0), b = add_vertex(&s, 29.0f, 2.0f, 0, 0);
    uint32_t d = add_vertex(&s, 3.0f, 30.0f, 0, 0), e = add_vertex(&s, 29.0f, 30.0f, 0, 0);
    uint32_t m = add_vertex(&s, 17.37f, 13.71f, 0, 0);  /* an interior vertex: a fan of 4 triangles */
    tri(&s, c, a, b, m);
    tri(&s, c, b, e, m);
    tri(&s, c, e, d, m);
    tri(&s, c, d, a, m);
    CHECK(render(&s, NULL, &fb) == SINEW_OK);
    int bad = 0;
    for (uint32_t y = 2; y < 30; y++)
        for (uint32_t x = 3; x < 29; x++)
            if (px(&fb, x, y)[3] != px(&fb, 10, 20)[3]) bad++;
    CHECK(bad == 0);
    CHECK_NEAR(px(&fb, 10, 20)[3], 127.5, 1);
    CHECK(px(&fb, 2, 10)[3] == 0 && px(&fb, 29, 10)[3] == 0);
    CHECK_NEAR(alpha_sum(&fb), 26.0 * 28.0 * 0.5, 26.0 * 28.0 * 0.5 / 255.0); /* 8-bit rounding */

    /* the same with mixed winding and a second, separate triangle pair on a sub-pixel diagonal */
    sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
    scene t = {0};
    c = begin_cmd(&t, SINEW_INVALID_INDEX, solid(1, 1, 1, 1), SINEW_BLEND_NORMAL);
    a = add_vertex(&t, 1.3f, 1.7f, 0, 0);
    b = add_vertex(&t, 30.6f, 4.2f, 0, 0);
    d = add_vertex(&t, 2.1f, 29.9f, 0, 0);
    e = add_vertex(&t, 28.8f, 27.4f, 0, 0);
    tri(&t, c, a, b, d);  /* one clockwise, */
    tri(&t, c, b, d, e);  /* one counter-clockwise */
    CHECK(render(&t, NULL, &fb) == SINEW_OK);
    bad = 0;
    for (uint32_t y = 6; y < 26; y++)
        for (uint32_t x = 6; x < 26; x++)
            if (px(&fb, x, y)[3] != 255) bad++;
    CHECK(bad == 0);
    /* quadrilateral area by the shoelace formula */
    double X[4] = {1.3, 30.6, 28.8, 2.1}, Y[4] = {1.7, 4.2, 27.4, 29.9}, area = 0;
    for (int i = 0; i < 4; i++) area += X[i] * Y[(i + 1) % 4] - X[(i + 1) % 4] * Y[i];
    CHECK_NEAR(alpha_sum(&fb), fabs(area) / 2, fabs(area) / 2 * 0.002);
    sinew_framebuffer_free(&fb);
}

/* The compositing sinew documents (docs/rendering.md), on premultiplied floats; s and d are
 * premultiplied rgba in 0..1. The separable modes are the W3C formulas: s(1 - da) + d(1 - sa) +
 * sa da B(s / sa, d / da), alpha sa + da - sa da. */
static double ref_mode(int mode, double cs, double cb) { /* B(source, backdrop), straight colours */
    switch (mode) {
    case SINEW_BLEND_MULTIPLY: return cs * cb;
    case SINEW_BLEND_DARKEN: return fmin(cs, cb);
    case SINEW_BLEND_LIGHTEN: return fmax(cs, cb);
    case SINEW_BLEND_DIFFERENCE: return fabs(cs - cb);
    case SINEW_BLEND_HARDLIGHT: return cs <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb);
    case SINEW_BLEND_OVERLAY: return cb <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb);
    default: return cs;
    }
}

static void ref_blend(int mode, const double s[4], double d[4]) {
    double o[4], sa = s[3], da = d[3];
    for (int i = 0; i < 4; i++) {
        switch (mode) {
        case SINEW_BLEND_ADD: o[i] = fmin(1, s[i] + d[i]); break;
        case SINEW_BLEND_SCREEN: o[i] = s[i] + d[i] - s[i] * d[i]; break;
        case SINEW_BLEND_MULTIPLY:
        case SINEW_BLEND_DARKEN:
        case SINEW_BLEND_LIGHTEN:
        case SINEW_BLEND_DIFFERENCE:
        case SINEW_BLEND_OVERLAY:
        case SINEW_BLEND_HARDLIGHT:
            if (i == 3) {
                o[i] = sa + da - sa * da;
            } else {
                double cs = sa > 0 ? s[i] / sa : 0, cb = da > 0 ? d[i] / da : 0;
                o[i] = s[i] * (1 - da) + d[i] * (1 - sa) + sa * da * ref_mode(mode, cs, cb);
            }
            break;
        case SINEW_BLEND_SUBTRACT: o[i] = i == 3 ? da : fmax(0, d[i] - s[i]); break;
        case SINEW_BLEND_ERASE: o[i] = d[i] * (1 - sa); break;
        case SINEW_BLEND_ALPHA: o[i] = d[i] * sa; break;
        case SINEW_BLEND_INVERT: o[i] = i == 3 ? da : (da - d[i]) * sa + d[i] * (1 - sa); break;
        default: o[i] = s[i] + d[i] * (1 - sa); break; /* normal, layer */
        }
    }
    memcpy(d, o, sizeof o);
}

static int warnings;
static void count_warning(void *user, sinew_log_level level, const sinew_error *w) {
    (void)user;
    if (level == SINEW_LOG_WARNING && w->code == SINEW_E_UNSUPPORTED) warnings++;
}

static void test_blend_modes(void) {
    int modes[SINEW_BLEND_COUNT]; /* every mode */
    for (int m = 0; m < SINEW_BLEND_COUNT; m++) modes[m] = m;
    const sinew_rgba8 bgs[] = {{200, 100, 50, 255}, {40, 160, 220, 128}, {0, 0, 0, 0}};
    const float src[][4] = {{0.8f, 0.3f, 0.1f, 1.0f}, {0.1f, 0.9f, 0.5f, 0.6f}, {1.0f, 1.0f, 1.0f, 0.25f}};
    for (int m = 0; m < SINEW_BLEND_COUNT; m++)
        for (int b = 0; b < 3; b++)
            for (int k = 0; k < 3; k++) {
                sinew_framebuffer fb;
                CHECK(sinew_framebuffer_init(&fb, 4, 4, NULL, NULL) == SINEW_OK);
                sinew_framebuffer_clear(&fb, bgs[b]);
                double d[4];
                for (int i = 0; i < 4; i++) d[i] = px(&fb, 1, 1)[i] / 255.0;
                scene s = {0};
                sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX,
                                              solid(src[k][0], src[k][1], src[k][2], src[k][3]),
                                              (sinew_blend_mode)modes[m]);
                float p[8] = {0, 0, 4, 0, 4, 4, 0, 4};
                quad(&s, c, p, NULL);
                double sp[4] = {src[k][0] * src[k][3], src[k][1] * src[k][3], src[k][2] * src[k][3], src[k][3]};
                ref_blend(modes[m], sp, d);
                sinew_renderer *r;
                CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
                warnings = 0;
                sinew_renderer_set_log(r, count_warning, NULL);
                sinew_drawlist l = as_list(&s);
                CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, NULL) == SINEW_OK);
                CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, NULL) == SINEW_OK);
                CHECK(warnings == 0); /* the rasterizer does every mode */
                sinew_renderer_destroy(r);
                /* drawn twice: apply the reference blend a second time */
                ref_blend(modes[m], sp, d);
                for (int i = 0; i < 4; i++) CHECK_NEAR(px(&fb, 2, 2)[i], d[i] * 255.0, 2.0);
                sinew_framebuffer_free(&fb);
            }
}

/* A texture page from straight RGBA bytes. */
static sinew_texture_set *page_from(const uint8_t *rgba, uint32_t w, uint32_t h) {
    sinew_image_desc d = {rgba, w, h, 0, false};
    sinew_texture_set *t = NULL;
    CHECK(sinew_texture_set_from_rgba(&d, 1, NULL, &t, NULL) == SINEW_OK);
    return t;
}

static double clamp1(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static void test_color_transform(void) {
    const uint8_t texel[4] = {200, 120, 40, 180};  /* straight */
    sinew_texture_set *tex = page_from(texel, 1, 1);
    const sinew_color_transform cts[] = {
        {1, 1, 1, 1, 0, 0, 0, 0},
        {0.5f, 0.25f, 1.0f, 0.75f, 0, 0, 0, 0},
        {1, 1, 1, 1, 0, 100, -50, 30},
        {0.8f, 0.0f, 0.5f, 1.0f, -40, 255, 0, 0},
    };
    for (int k = 0; k < 4; k++) {
        sinew_framebuffer fb;
        CHECK(sinew_framebuffer_init(&fb, 4, 4, NULL, NULL) == SINEW_OK);
        scene s = {0};
        sinew_draw_cmd *c = begin_cmd(&s, 0, cts[k], SINEW_BLEND_NORMAL);
        float p[8] = {0, 0, 4, 0, 4, 4, 0, 4}, t[8] = {0, 0, 1, 0, 1, 1, 0, 1};
        quad(&s, c, p, t);
        CHECK(render(&s, tex, &fb) == SINEW_OK);
        /* DragonBones: out = c * mul + add / 255 on straight colour, clamped; then premultiply */
        const sinew_color_transform *ct = &cts[k];
        double a = clamp1(texel[3] / 255.0 * ct->a_mul + ct->a_add / 255.0);
        double rgb[3] = {clamp1(texel[0] / 255.0 * ct->r_mul + ct->r_add / 255.0),
                         clamp1(texel[1] / 255.0 * ct->g_mul + ct->g_add / 255.0),
                         clamp1(texel[2] / 255.0 * ct->b_mul + ct->b_add / 255.0)};
        for (int i = 0; i < 3; i++) CHECK_NEAR(px(&fb, 1, 2)[i], rgb[i] * a * 255.0, 2.0);
        CHECK_NEAR(px(&fb, 1, 2)[3], a * 255.0, 1.0);
        sinew_framebuffer_free(&fb);
    }
    sinew_texture_set_destroy(tex);
}

/* An atlas page 16x16, filled with pure green (a "neighbour" colour that must never show), holding
 * one trimmed image stored rotated at region (5, 4), stored size rw x rh = 6 x 4. */
static void test_rotated_trimmed_region(void) {
    enum { PW = 16, PH = 16, RX = 5, RY = 4, RW = 6, RH = 4, DW = RH, DH = RW };
    uint8_t page[PW * PH * 4];
    for (int i = 0; i < PW * PH; i++) {
        page[4 * i] = 0;
        page[4 * i + 1] = 255;
        page[4 * i + 2] = 0;
        page[4 * i + 3] = 255;
    }
    /* content: DW x DH display pixels (4 wide, 6 high), each distinct, no green */
    uint8_t content[DH][DW][4];
    for (int y = 0; y < DH; y++)
        for (int x = 0; x < DW; x++) {
            content[y][x][0] = (uint8_t)(40 * x + 10);
            content[y][x][1] = 0;
            content[y][x][2] = (uint8_t)(30 * y + 20);
            content[y][x][3] = 255;
        }
    /* store rotated: atlas pixel = (RX + (1 - v) * RW, RY + u * RH) (semantics §5) */
    for (int y = 0; y < DH; y++)
        for (int x = 0; x < DW; x++) {
            int ax = RX + RW - 1 - y, ay = RY + x;
            memcpy(&page[4 * (ay * PW + ax)], content[y][x], 4);
        }
    sinew_texture_set *tex = page_from(page, PW, PH);
    /* untrimmed image 10 x 8; the content sits at (3, 2) inside it: frameX = -3, frameY = -2 */
    const float W = 10, H = 8, frameX = -3, frameY = -2, pivx = 0.5f, pivy = 0.5f;
    float pivotX = pivx * W + frameX, pivotY = pivy * H + frameY;  /* §1 */
    float x0 = -pivotX, y0 = -pivotY;                              /* region top-left, slot space */
    float ox = 20, oy = 20;                                        /* slot at pixel (20, 20) */
    float p[8] = {ox + x0, oy + y0, ox + x0 + DW, oy + y0, ox + x0 + DW, oy + y0 + DH, ox + x0, oy + y0 + DH};
    /* quad corner uvs for a rotated region: display (u, v) -> atlas (RX + (1 - v) RW, RY + u RH) */
    float du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1}, t[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = (RX + (1 - dv[i]) * RW) / PW;
        t[2 * i + 1] = (RY + du[i] * RH) / PH;
    }
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 40, 40, NULL, NULL) == SINEW_OK);
    scene s = {0};
    sinew_draw_cmd *c = begin_cmd(&s, 0, IDENTITY, SINEW_BLEND_NORMAL);
    c->region[0] = (float)RX / PW;
    c->region[1] = (float)RY / PH;
    c->region[2] = (float)(RX + RW) / PW;
    c->region[3] = (float)(RY + RH) / PH;
    quad(&s, c, p, t);
    CHECK(render(&s, tex, &fb) == SINEW_OK);
    /* the untrimmed image's top-left is at (-W/2, -H/2); the content at (+3, +2) inside it */
    int bad = 0;
    for (int y = 0; y < DH; y++)
        for (int x = 0; x < DW; x++) {
            const uint8_t *q = px(&fb, (uint32_t)(20 - 5 + 3 + x), (uint32_t)(20 - 4 + 2 + y));
            if (memcmp(q, content[y][x], 4) != 0) bad++;
        }
    CHECK(bad == 0);
    CHECK(px(&fb, 20 - 5 + 2, 20)[3] == 0 && px(&fb, 20 - 5 + 3 + DW, 20)[3] == 0);

    /* scaled up 3.3x at a sub-pixel offset: bilinear filtering must never reach the green texels */
    sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
    for (int i = 0; i < 4; i++) {
        s.pos[2 * i] = 2.37f + (p[2 * i] - p[0]) * 3.3f;
        s.pos[2 * i + 1] = 1.61f + (p[2 * i + 1] - p[1]) * 3.3f;
    }
    CHECK(render(&s, tex, &fb) == SINEW_OK);
    int green = 0, covered = 0;
    for (uint32_t y = 0; y < 40; y++)
        for (uint32_t x = 0; x < 40; x++) {
            if (px(&fb, x, y)[1] != 0) green++;
            if (px(&fb, x, y)[3] == 255) covered++;
        }
    CHECK(green == 0);
    CHECK(covered > 150);
    sinew_framebuffer_free(&fb);
    sinew_texture_set_destroy(tex);
}

static void test_errors(void) {
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 8, 8, NULL, NULL) == SINEW_OK);
    scene s = {0};
    sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX, solid(1, 1, 1, 1), SINEW_BLEND_NORMAL);
    float p[8] = {0, 0, 8, 0, 8, 8, 0, 8};
    quad(&s, c, p, NULL);
    scene bad = s;
    bad.idx[4] = 99;
    sinew_renderer *r;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    sinew_drawlist l = as_list(&bad);
    sinew_error err = {0};
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_E_RANGE);
    CHECK(strstr(err.message, "99") != NULL);
    CHECK(px(&fb, 4, 4)[3] == 0);
    bad = s;
    bad.cmd[0].page = 3;
    l = as_list(&bad);
    memset(&err, 0, sizeof err);
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, &err) == SINEW_E_RANGE);
    /* NaN vertices draw nothing and do not crash */
    bad = s;
    bad.pos[0] = NAN;
    bad.pos[3] = INFINITY;
    l = as_list(&bad);
    CHECK(sinew_renderer_draw(r, &l, NULL, NULL, &fb, NULL) == SINEW_OK);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);

    const char *paths[2] = {"fixtures/render/does_not_exist.png", NULL};
    sinew_texture_set *tex = NULL;
    memset(&err, 0, sizeof err);
    CHECK(sinew_texture_set_load(paths, 1, NULL, &tex, &err) == SINEW_E_IO);
    CHECK(tex == NULL);
    CHECK(strstr(err.message, "does_not_exist.png") != NULL);
    CHECK(err.file && strstr(err.file, "does_not_exist.png") != NULL);
}

/* A counting allocator: after a warm-up frame, drawing must not allocate. */
static size_t allocs;
static void *c_alloc(void *ctx, size_t n) { (void)ctx; allocs++; return malloc(n); }
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) { (void)ctx; (void)o; allocs++; return realloc(p, n); }
static void c_free(void *ctx, void *p, size_t n) { (void)ctx; (void)n; free(p); }

static void test_allocation_free(void) {
    sinew_allocator a = {c_alloc, c_realloc, c_free, NULL};
    uint8_t texel[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128};
    sinew_image_desc d = {texel, 2, 2, 0, false};
    sinew_texture_set *tex;
    CHECK(sinew_texture_set_from_rgba(&d, 1, &a, &tex, NULL) == SINEW_OK);
    sinew_renderer *r;
    CHECK(sinew_renderer_create(&a, &r, NULL) == SINEW_OK);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 64, 64, &a, NULL) == SINEW_OK);
    scene s = {0};
    for (int k = 0; k < 6; k++) {
        sinew_draw_cmd *c = begin_cmd(&s, 0, IDENTITY, SINEW_BLEND_NORMAL);
        float o = (float)k * 7.3f;
        float p[8] = {o, o, o + 20, o + 3, o + 17, o + 25, o - 2, o + 21}, t[8] = {0, 0, 1, 0, 1, 1, 0, 1};
        quad(&s, c, p, t);
    }
    sinew_drawlist l = as_list(&s);
    CHECK(sinew_renderer_draw(r, &l, tex, NULL, &fb, NULL) == SINEW_OK);
    size_t before = allocs;
    for (int i = 0; i < 5; i++) {
        sinew_affine v = {1, 0, 0, 1, (float)i * 0.37f, (float)i * 0.21f};
        CHECK(sinew_renderer_draw(r, &l, tex, &v, &fb, NULL) == SINEW_OK);
    }
    CHECK(allocs == before);
    CHECK(sinew_renderer_scratch_bytes(r) > 0);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
    sinew_texture_set_destroy(tex);
}

static void test_framing(void) {
    scene s = {0};
    sinew_draw_cmd *c = begin_cmd(&s, SINEW_INVALID_INDEX, solid(1, 1, 1, 1), SINEW_BLEND_NORMAL);
    float p[8] = {-10.5f, -20, 30, -20, 30, 5.2f, -10.5f, 5.2f};
    quad(&s, c, p, NULL);
    sinew_drawlist l = as_list(&s);
    sinew_rect b;
    CHECK(sinew_drawlist_bounds(&l, &b, false));
    CHECK_NEAR(b.x0, -10.5, 0);
    CHECK_NEAR(b.y1, 5.2, 1e-6);
    sinew_framing f;
    CHECK(sinew_framing_fit(b, 2.0f, 4.0f, &f, NULL) == SINEW_OK);
    CHECK(f.width == 81 + 8 && f.height == 51 + 8);
    /* the bounds' top-left lands at (padding, padding) */
    CHECK_NEAR(f.view.a * b.x0 + f.view.tx, 4.0, 0.0);
    CHECK_NEAR(f.view.d * b.y0 + f.view.ty, 4.0, 0.0);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, f.width, f.height, NULL, NULL) == SINEW_OK);
    sinew_renderer *r;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    CHECK(sinew_renderer_draw(r, &l, NULL, &f.view, &fb, NULL) == SINEW_OK);
    CHECK(px(&fb, 4, 4)[3] == 255 && px(&fb, 3, 4)[3] == 0 && px(&fb, 4, 3)[3] == 0);
    CHECK(px(&fb, f.width - 5, f.height - 5)[3] > 0 && px(&fb, f.width - 4, f.height - 6)[3] == 0);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
    CHECK(sinew_framing_fit(b, 0.0f, 0, &f, NULL) == SINEW_E_RANGE);
    CHECK(sinew_framing_fit(sinew_rect_empty(), 1.0f, 0, &f, NULL) == SINEW_E_RANGE);
    CHECK(sinew_framing_fixed(100, 50, 50, 40, 0.5f, &f, NULL) == SINEW_OK);
    CHECK(f.view.tx == 50 && f.view.a == 0.5f);
    sinew_rgba8 col;
    CHECK(sinew_rgba8_parse("#ff8000", &col) && col.r == 255 && col.g == 128 && col.b == 0 && col.a == 255);
    CHECK(sinew_rgba8_parse("11223344", &col) && col.a == 0x44);
    CHECK(!sinew_rgba8_parse("#12345", &col));
}

static void test_background_and_straight(void) {
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, 3, 3, NULL, NULL) == SINEW_OK);
    sinew_framebuffer_clear(&fb, (sinew_rgba8){200, 100, 50, 128});
    CHECK_NEAR(px(&fb, 0, 0)[0], 200 * 128 / 255.0, 0.6);
    uint8_t out[36];
    sinew_framebuffer_to_straight(&fb, out, 0);
    CHECK_NEAR(out[0], 200, 1);
    CHECK_NEAR(out[1], 100, 1);
    CHECK(out[3] == 128);
    sinew_framebuffer_free(&fb);
}

int main(void) {
    RUN(test_axis_aligned_quad);
    RUN(test_rotated_quad_area);
    RUN(test_shared_edge_no_seam);
    RUN(test_blend_modes);
    RUN(test_color_transform);
    RUN(test_rotated_trimmed_region);
    RUN(test_errors);
    RUN(test_allocation_free);
    RUN(test_framing);
    RUN(test_background_and_straight);
    return test_summary();
}
