/* sinew's rasterizer against an independent cairo reference (raster_ref.h) on synthetic scenes:
 * PSNR >= 35 dB per frame. The shared characters join once the runtime produces draw lists. */
#include <stdlib.h>

#include "raster_ref.h"
#include "testlib.h"

static double compare(const ref_scene *s, uint32_t w, uint32_t h, const sinew_affine *view, bool seamless) {
    sinew_image_desc d = {s->page, s->page_w, s->page_h, 0, false};
    sinew_texture_set *tex = NULL;
    CHECK(sinew_texture_set_from_rgba(&d, 1, NULL, &tex, NULL) == SINEW_OK);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, w, h, NULL, NULL) == SINEW_OK);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    sinew_drawlist l = ref_scene_list(s);
    CHECK(sinew_renderer_draw(r, &l, tex, view, &fb, NULL) == SINEW_OK);

    ref_cairo rc;
    CHECK(ref_cairo_init(&rc, tex) == 0);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    cairo_t *cr = cairo_create(surf);
    ref_cairo_draw(&rc, cr, &l, view, seamless);
    cairo_destroy(cr);
    uint8_t *ref = malloc((size_t)w * h * 4);
    ref_surface_to_rgba(surf, ref);
    double psnr = ref_psnr(fb.pixels, ref, (size_t)w * h * 4);
    free(ref);
    cairo_surface_destroy(surf);
    ref_cairo_free(&rc);
    sinew_renderer_destroy(r);
    sinew_framebuffer_free(&fb);
    sinew_texture_set_destroy(tex);
    return psnr;
}

static void test_psnr_helper(void) {
    uint8_t a[400], b[400];
    for (int i = 0; i < 400; i++) a[i] = b[i] = (uint8_t)i;
    CHECK_NEAR(ref_psnr(a, b, 400), 99.0, 0);
    b[0] ^= 16;  /* one error of 16 over 400 samples: MSE = 256/400 */
    CHECK_NEAR(ref_psnr(a, b, 400), 10 * log10(255.0 * 255.0 / (256.0 / 400.0)), 1e-9);
}

static void test_scenes(void) {
    const struct { uint32_t quads, grid, seed; bool blends, colors; float scale; } cases[] = {
        {40, 0, 7, false, false, 1.0f},
        {120, 8, 11, false, false, 1.0f},
        {120, 12, 23, true, false, 1.0f},
        {80, 6, 5, false, true, 1.0f},
        {60, 10, 99, true, true, 1.7f},
        {200, 16, 3, false, false, 0.45f},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ref_scene s;
        CHECK(ref_scene_make(&s, cases[k].quads, cases[k].grid, 256, 256, cases[k].seed, cases[k].blends,
                             cases[k].colors) == 0);
        float sc = cases[k].scale;
        sinew_affine view = {sc, 0, 0, sc, 128.0f * (1 - sc) + 0.3f, 128.0f * (1 - sc) + 0.7f};
        double p = compare(&s, 256, 256, &view, true);
        printf("scene %zu: PSNR %.2f dB (seamless cairo)\n", k, p);
        CHECK(p >= 35.0);
        ref_scene_free(&s);
    }
}

int main(void) {
    RUN(test_psnr_helper);
    RUN(test_scenes);
    cairo_debug_reset_static_data();  /* no cairo caches left for the leak checker */
    return test_summary();
}
