/* bench_gif: sinew's GIF export against the "blog's way" (PNG sequence, then ffmpeg palettegen +
 * paletteuse) on the same rendered frames, in one run.
 *   bench_gif [frames=48] [size=320] [background=white|transparent]
 * Prints the time of each path, the GIF sizes and the PSNR of each decoded GIF against the
 * rendered frames (RGB of pixels opaque in both; for a transparent background the alpha masks are
 * compared separately). Needs ffmpeg on PATH. */
#define _POSIX_C_SOURCE 200809L
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "raster_ref.h"
#include "sinew/export.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Decodes a GIF into n full straight-RGBA frames (alpha 0 or 255). Returns the frame count. */
static int decode_gif(const char *path, uint8_t *out, uint32_t w, uint32_t h, int max) {
    int e = 0;
    GifFileType *g = DGifOpenFileName(path, &e);
    if (!g || DGifSlurp(g) != GIF_OK) return -1;
    size_t fb = (size_t)w * h * 4;
    uint8_t *canvas = calloc(1, fb), *saved = malloc(fb);
    int n = 0;
    for (int i = 0; i < g->ImageCount && n < max; i++) {
        SavedImage *si = &g->SavedImages[i];
        GraphicsControlBlock gcb = {0, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(g, i, &gcb);
        ColorMapObject *map = si->ImageDesc.ColorMap ? si->ImageDesc.ColorMap : g->SColorMap;
        GifImageDesc *d = &si->ImageDesc;
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) memcpy(saved, canvas, fb);
        for (int y = 0; y < d->Height; y++)
            for (int x = 0; x < d->Width; x++) {
                int v = si->RasterBits[y * d->Width + x];
                if (v == gcb.TransparentColor) continue;
                uint8_t *p = canvas + 4 * ((size_t)(d->Top + y) * w + (size_t)(d->Left + x));
                p[0] = map->Colors[v].Red;
                p[1] = map->Colors[v].Green;
                p[2] = map->Colors[v].Blue;
                p[3] = 255;
            }
        memcpy(out + (size_t)n * fb, canvas, fb);
        n++;
        if (gcb.DisposalMode == DISPOSE_BACKGROUND)
            for (int y = 0; y < d->Height; y++)
                memset(canvas + 4 * ((size_t)(d->Top + y) * w + (size_t)d->Left), 0, (size_t)d->Width * 4);
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) memcpy(canvas, saved, fb);
    }
    DGifCloseFile(g, &e);
    free(canvas);
    free(saved);
    return n;
}

static void score(const uint8_t *a, const uint8_t *b, size_t px, double *se, size_t *cnt, size_t *mask_bad) {
    for (size_t i = 0; i < px; i++) {
        bool oa = a[4 * i + 3] >= 128, ob = b[4 * i + 3] >= 128;
        if (oa != ob) (*mask_bad)++;
        if (!oa || !ob) continue;
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - b[4 * i + (size_t)c];
            *se += d * d;
        }
        *cnt += 3;
    }
}

static long file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 48;
    uint32_t size = argc > 2 ? (uint32_t)atoi(argv[2]) : 320;
    bool transparent = argc > 3 && strcmp(argv[3], "transparent") == 0;
    if (frames < 1 || frames > 1000 || size < 16 || size > 2048) return 1;
    char dir[] = "/tmp/sinew_bench_gif_XXXXXX";
    if (!mkdtemp(dir)) return 1;

    ref_scene s;
    if (ref_scene_make(&s, 60, 10, size, size, 777, false, false) != 0) return 1;
    sinew_image_desc d = {s.page, s.page_w, s.page_h, 0, false};
    sinew_texture_set *tex;
    sinew_renderer *r;
    sinew_framebuffer fb;
    if (sinew_texture_set_from_rgba(&d, 1, NULL, &tex, NULL) || sinew_renderer_create(NULL, &r, NULL) ||
        sinew_framebuffer_init(&fb, size, size, NULL, NULL))
        return 1;
    float *base = malloc(s.nv * 2 * sizeof(float));
    memcpy(base, s.pos, s.nv * 2 * sizeof(float));
    size_t fbytes = (size_t)size * size * 4;
    uint8_t *src = malloc(fbytes * (size_t)frames);
    sinew_rgba8 bg = transparent ? (sinew_rgba8){0, 0, 0, 0} : (sinew_rgba8){255, 255, 255, 255};

    /* renders frame f into fb: every quad spins about its centre, the mesh drifts */
    #define RENDER(f)                                                                              \
        do {                                                                                       \
            for (uint32_t c = 0; c < s.nc; c++) {                                                  \
                const sinew_draw_cmd *dc = &s.cmds[c];                                              \
                float cx = 0, cy = 0;                                                              \
                for (uint32_t v = 0; v < dc->vertex_count; v++) {                                 \
                    cx += base[2 * (dc->first_vertex + v)];                                       \
                    cy += base[2 * (dc->first_vertex + v) + 1];                                   \
                }                                                                                  \
                cx /= (float)dc->vertex_count;                                                    \
                cy /= (float)dc->vertex_count;                                                    \
                float ang = (float)(f) * 0.06f * (float)(c % 5 + 1) * (c + 1 == s.nc ? 0.2f : 1.0f); \
                float ca = cosf(ang), sa = sinf(ang);                                              \
                for (uint32_t v = 0; v < dc->vertex_count; v++) {                                 \
                    uint32_t i = dc->first_vertex + v;                                            \
                    float x = base[2 * i] - cx, y = base[2 * i + 1] - cy;                          \
                    s.pos[2 * i] = cx + ca * x - sa * y;                                           \
                    s.pos[2 * i + 1] = cy + sa * x + ca * y;                                       \
                }                                                                                  \
            }                                                                                      \
            sinew_framebuffer_clear(&fb, bg);                                                      \
            sinew_drawlist l_ = ref_scene_list(&s);                                                \
            sinew_renderer_draw(r, &l_, tex, NULL, &fb, NULL);                                     \
        } while (0)

    char gif_path[128], seq_path[128], pal_path[128], ff_gif[128], cmd[1024];
    snprintf(gif_path, sizeof gif_path, "%s/sinew.gif", dir);
    snprintf(seq_path, sizeof seq_path, "%s/seq_%%04d.png", dir);
    snprintf(pal_path, sizeof pal_path, "%s/palette.png", dir);
    snprintf(ff_gif, sizeof ff_gif, "%s/ffmpeg.gif", dir);

    /* sinew: render + GIF in one go */
    double t0 = now_ms();
    sinew_export_options o;
    memset(&o, 0, sizeof o);
    o.path = gif_path;
    o.width = o.height = size;
    o.fps = 24;
    sinew_exporter *ex;
    sinew_error err = {0};
    if (sinew_export_begin(&o, &ex, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    for (int f = 0; f < frames; f++) {
        RENDER(f);
        sinew_export_frame(ex, &fb, NULL);
        sinew_framebuffer_to_straight(&fb, src + (size_t)f * fbytes, 0);
    }
    if (sinew_export_end(ex, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double ms_sinew = now_ms() - t0;

    /* the blog's way: PNG sequence, then ffmpeg palettegen + paletteuse */
    t0 = now_ms();
    o.path = seq_path;
    o.format = SINEW_EXPORT_PNG_SEQUENCE;
    sinew_export_begin(&o, &ex, NULL);
    for (int f = 0; f < frames; f++) {
        RENDER(f);
        sinew_export_frame(ex, &fb, NULL);
    }
    sinew_export_end(ex, NULL);
    double ms_seq = now_ms() - t0;
    snprintf(cmd, sizeof cmd,
             "ffmpeg -v error -framerate 24 -start_number 0 -i %s -vf palettegen -y %s && "
             "ffmpeg -v error -framerate 24 -start_number 0 -i %s -i %s -lavfi paletteuse -y %s",
             seq_path, pal_path, seq_path, pal_path, ff_gif);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_gif: ffmpeg failed (is it installed?)\n");
        return 1;
    }
    double ms_blog = now_ms() - t0;

    uint8_t *dec = malloc(fbytes * (size_t)frames);
    const char *names[2] = {"sinew", "ffmpeg"};
    const char *paths[2] = {gif_path, ff_gif};
    double psnr[2] = {0, 0};
    long bytes[2];
    printf("frames: %d at %ux%u, 24 fps, %s background\n", frames, size, size, transparent ? "transparent" : "white");
    for (int k = 0; k < 2; k++) {
        int n = decode_gif(paths[k], dec, size, size, frames);
        double se = 0;
        size_t cnt = 0, mask_bad = 0;
        for (int f = 0; f < n; f++) score(src + (size_t)f * fbytes, dec + (size_t)f * fbytes, (size_t)size * size, &se, &cnt, &mask_bad);
        psnr[k] = se > 0 ? 10 * log10(255.0 * 255.0 / (se / (double)cnt)) : 99;
        bytes[k] = file_size(paths[k]);
        printf("%-6s GIF: %d frames decoded, %8ld bytes, PSNR %.2f dB, alpha-mask mismatches %zu\n", names[k], n,
               bytes[k], psnr[k], mask_bad);
    }
    printf("PSNR difference sinew - ffmpeg: %+.2f dB; size ratio sinew/ffmpeg: %.3f\n", psnr[0] - psnr[1],
           (double)bytes[0] / (double)bytes[1]);
    printf("time: sinew render+GIF %.0f ms; blog way %.0f ms (PNG sequence %.0f ms + ffmpeg %.0f ms); speed-up %.2fx\n",
           ms_sinew, ms_blog, ms_seq, ms_blog - ms_seq, ms_blog / ms_sinew);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    free(dec);
    free(src);
    free(base);
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(r);
    sinew_texture_set_destroy(tex);
    ref_scene_free(&s);
    return 0;
}
