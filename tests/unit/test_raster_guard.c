/* The rasterizer against vertices it cannot place (sinew/render.h, sinew_renderer_draw): a
 * triangle with a vertex that is not finite, or further than 2^24 pixels from the framebuffer's
 * origin, is not drawn and the rest of the list is; an edge whose slope overflows a float (its
 * height below 1e-30) still closes its triangle. Before the guard these inputs reached the
 * coverage code as NaN and as float-to-int conversions out of range (undefined behaviour, which
 * the ASan+UBSan build reports: -fsanitize=float-cast-overflow), found by fuzz/fuzz_runtime.c.
 * Expected pixels come from geometry: a triangle's area in pixels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/render.h"
#include "testlib.h"

#define W 32
#define H 32

static const sinew_color_transform WHITE = {0, 0, 0, 0, 255, 255, 255, 255}; /* a solid fill */

typedef struct scene {
    float pos[64], uv[64];
    uint32_t idx[64];
    sinew_draw_cmd cmd[8];
    uint32_t nv, ni, nc;
} scene;

static void triangle(scene *s, uint32_t page, const float xy[6]) {
    sinew_draw_cmd *c = &s->cmd[s->nc++];
    memset(c, 0, sizeof *c);
    c->page = page;
    c->color = page == SINEW_INVALID_INDEX ? WHITE : (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
    c->region[2] = c->region[3] = 1.0f;
    c->first_vertex = s->nv;
    c->vertex_count = 3;
    c->first_index = s->ni;
    c->index_count = 3;
    for (int k = 0; k < 3; ++k) {
        s->pos[2 * s->nv] = xy[2 * k];
        s->pos[2 * s->nv + 1] = xy[2 * k + 1];
        s->uv[2 * s->nv] = (float)(k == 1);
        s->uv[2 * s->nv + 1] = (float)(k == 2);
        s->idx[s->ni++] = s->nv++;
    }
}

static sinew_drawlist list_of(const scene *s) {
    sinew_drawlist dl = {s->pos, s->uv, s->idx, s->cmd, s->nv, s->ni, s->nc};
    return dl;
}

/* the summed alpha of the framebuffer, in pixels */
static double coverage(const sinew_framebuffer *fb) {
    double sum = 0;
    for (uint32_t y = 0; y < fb->height; ++y)
        for (uint32_t x = 0; x < fb->width; ++x)
            sum += fb->pixels[y * fb->stride + 4 * x + 3] / 255.0;
    return sum;
}

static double draw(const scene *s, const sinew_texture_set *tex, sinew_status *st) {
    sinew_renderer *r = NULL;
    sinew_framebuffer fb;
    double cov = -1;
    if (sinew_renderer_create(NULL, &r, NULL) == SINEW_OK && sinew_framebuffer_init(&fb, W, H, NULL, NULL) == SINEW_OK) {
        sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
        sinew_drawlist dl = list_of(s);
        sinew_error err = {0};
        *st = sinew_renderer_draw(r, &dl, tex, NULL, &fb, &err);
        cov = coverage(&fb);
        sinew_framebuffer_free(&fb);
    }
    sinew_renderer_destroy(r);
    return cov;
}

static void test_unplaceable_vertices(void) {
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    sinew_image_desc page = {white, 4, 4, 0, false};
    sinew_texture_set *tex = NULL;
    CHECK(sinew_texture_set_from_rgba(&page, 1, NULL, &tex, NULL) == SINEW_OK);
    static const float good[6] = {2, 2, 18, 2, 2, 18};  /* 128 pixels */
    static const float bad[][6] = {
        {0, 0, NAN, 10, 10, 20},        {0, 0, 16, 0, INFINITY, 16},  {0, 0, 32, 0, 1e30f, 16},
        {0, 0, 16, 0, 8, 1e30f},        {0, 0, 16, 0, 8, -1e30f},     {-1e20f, -1e20f, 40, 8, 8, 40},
        {0, 0, 16, 0, 8, 3.4e7f},
    };
    for (int textured = 0; textured < 2; ++textured) {
        uint32_t pg = textured ? 0 : SINEW_INVALID_INDEX;
        /* each bad triangle alone draws nothing; beside a good one, the good one is drawn */
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            scene s = {0};
            triangle(&s, pg, bad[i]);
            sinew_status st = SINEW_E_ARG;
            double cov = draw(&s, tex, &st);
            CHECK(st == SINEW_OK && cov == 0.0);
            triangle(&s, pg, good);
            cov = draw(&s, tex, &st);
            if (!(st == SINEW_OK && fabs(cov - 128.0) < 0.5)) {
                test_checks_failed_++;
                fprintf(stderr, "bad triangle %zu (textured %d): status %d, coverage %.3f (want 128)\n", i, textured,
                        (int)st, cov);
            }
        }
        /* an edge of height 1e-38: its slope overflows; the triangle still has its area (100) */
        scene s = {0};
        const float flat[6] = {5, 10, 25, 10 + 1e-38f, 15, 20};
        triangle(&s, pg, flat);
        sinew_status st = SINEW_E_ARG;
        double cov = draw(&s, tex, &st);
        CHECK(st == SINEW_OK && fabs(cov - 100.0) < 0.5);
        /* a far vertex inside the limit is drawn: a wedge clipped by the framebuffer */
        scene f = {0};
        const float far[6] = {0, 0, 1.0e7f, 0, 0, 16};
        triangle(&f, pg, far);
        cov = draw(&f, tex, &st);
        CHECK(st == SINEW_OK && fabs(cov - (16.0 * 32.0 - 32.0 * 32.0 * 16.0 / 1.0e7 / 2.0)) < 1.0);
    }
    sinew_texture_set_destroy(tex);
}

int main(void) {
    RUN(test_unplaceable_vertices);
    return test_summary();
}
