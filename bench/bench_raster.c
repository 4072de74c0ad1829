#define _POSIX_C_SOURCE 200809L
/* bench_raster: sinew's rasterizer against cairo on the same synthetic draw list, in one run.
 *   bench_raster [quads=400] [grid=24] [frames=60] [size=512]
 * Prints ms per frame for sinew, cairo (triangles straight onto the target) and cairo seamless
 * (triangles added into a group per command: the same seam rules as sinew), the ratios, and the
 * PSNR of sinew against the seamless cairo frame. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "raster_ref.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    uint32_t quads = argc > 1 ? (uint32_t)atoi(argv[1]) : 400;
    uint32_t grid = argc > 2 ? (uint32_t)atoi(argv[2]) : 24;
    int frames = argc > 3 ? atoi(argv[3]) : 60;
    uint32_t size = argc > 4 ? (uint32_t)atoi(argv[4]) : 512;
    if (frames < 1 || size < 16 || size > 4096) {
        fprintf(stderr, "usage: bench_raster [quads] [grid] [frames] [size]\n");
        return 1;
    }
    ref_scene s;
    if (ref_scene_make(&s, quads, grid, size, size, 12345, false, false) != 0) return 1;
    sinew_image_desc d = {s.page, s.page_w, s.page_h, 0, false};
    sinew_texture_set *tex = NULL;
    sinew_renderer *r = NULL;
    sinew_framebuffer fb;
    sinew_error err = {0};
    if (sinew_texture_set_from_rgba(&d, 1, NULL, &tex, &err) || sinew_renderer_create(NULL, &r, &err) ||
        sinew_framebuffer_init(&fb, size, size, NULL, &err)) {
        fprintf(stderr, "bench_raster: %s\n", err.message);
        return 1;
    }
    sinew_drawlist l = ref_scene_list(&s);
    uint32_t tris = l.index_count / 3;

    /* each frame moves the view by a sub-pixel amount so nothing can be cached */
    double t0 = now_ms();
    for (int f = -3; f < frames; f++) {
        if (f == 0) t0 = now_ms();
        sinew_affine v = {1, 0, 0, 1, (float)(f % 7) * 0.13f, (float)(f % 5) * 0.11f};
        sinew_framebuffer_clear(&fb, (sinew_rgba8){0, 0, 0, 0});
        sinew_renderer_draw(r, &l, tex, &v, &fb, NULL);
    }
    double ms_sinew = (now_ms() - t0) / frames;

    ref_cairo rc;
    ref_cairo_init(&rc, tex);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)size, (int)size);
    double ms_cairo[2];
    for (int mode = 0; mode < 2; mode++) {
        for (int f = -1; f < frames; f++) {
            if (f == 0) t0 = now_ms();
            sinew_affine v = {1, 0, 0, 1, (float)(f % 7) * 0.13f, (float)(f % 5) * 0.11f};
            cairo_t *cr = cairo_create(surf);
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
            cairo_paint(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
            ref_cairo_draw(&rc, cr, &l, &v, mode == 1);
            cairo_destroy(cr);
            cairo_surface_flush(surf);
        }
        ms_cairo[mode] = (now_ms() - t0) / frames;
    }
    /* quality: the last frames of both use the same view */
    uint8_t *ref = malloc((size_t)size * size * 4);
    ref_surface_to_rgba(surf, ref);
    double psnr = ref_psnr(fb.pixels, ref, (size_t)size * size * 4);

    printf("scene: %ux%u, %u commands, %u triangles, %d frames\n", size, size, l.cmd_count, tris, frames);
    printf("sinew          %8.3f ms/frame\n", ms_sinew);
    printf("cairo          %8.3f ms/frame  (ratio cairo/sinew %.2fx)\n", ms_cairo[0], ms_cairo[0] / ms_sinew);
    printf("cairo seamless %8.3f ms/frame  (ratio cairo/sinew %.2fx)\n", ms_cairo[1], ms_cairo[1] / ms_sinew);
    printf("PSNR sinew vs cairo seamless: %.2f dB\n", psnr);
    free(ref);
    cairo_surface_destroy(surf);
    ref_cairo_free(&rc);
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(r);
    sinew_texture_set_destroy(tex);
    ref_scene_free(&s);
    return 0;
}
