/* gif_psnr: how close an animated GIF is to the PNG frames it was made from (a helper of
 * bench/gif_vs_ffmpeg.sh).
 *   gif_psnr GIF PNG_PATTERN FPS     e.g. gif_psnr x.gif seq/%04d.png 24
 * Decodes the GIF with giflib (disposal, transparency, delays) and the frames PNG_PATTERN % k
 * (k = 0, 1, ... until a file is missing) with libspng. Frame k is compared with the GIF image
 * shown at time k / FPS (images are matched one to one when the counts agree, e.g. when no frame
 * was merged into a longer delay). Prints one line:
 *   frames N images M rgb_psnr A mask_mismatch P white_psnr B
 * rgb_psnr: PSNR of R, G, B over the pixels opaque in both (GIF transparency is 1 bit, so a PNG
 * pixel counts as opaque when its alpha is >= 128); mask_mismatch: percent of pixels whose
 * opaque/transparent state differs; white_psnr: PSNR of both composited over white (what a viewer
 * shows on a white page; thresholded edges and mask errors count). */
#include <gif_lib.h>
#include <math.h>
#include <spng.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gif_frames {
    uint32_t w, h, count;
    uint8_t **rgba;        /* full canvases, straight RGBA, alpha 0 or 255 */
    double *start_cs;      /* display start of each image, centiseconds */
} gif_frames;

static int load_gif(const char *path, gif_frames *g) {
    int e = 0;
    GifFileType *f = DGifOpenFileName(path, &e);
    if (!f) return -1;
    if (DGifSlurp(f) != GIF_OK || f->SWidth <= 0 || f->SHeight <= 0 || f->ImageCount <= 0) {
        DGifCloseFile(f, &e);
        return -1;
    }
    g->w = (uint32_t)f->SWidth;
    g->h = (uint32_t)f->SHeight;
    size_t bytes = (size_t)g->w * g->h * 4;
    g->count = (uint32_t)f->ImageCount;
    g->rgba = calloc(g->count, sizeof *g->rgba);
    g->start_cs = calloc(g->count, sizeof *g->start_cs);
    uint8_t *canvas = calloc(1, bytes), *saved = malloc(bytes);
    if (!g->rgba || !g->start_cs || !canvas || !saved) return -1;
    double t = 0;
    for (int i = 0; i < f->ImageCount; i++) {
        SavedImage *si = &f->SavedImages[i];
        GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(f, i, &gcb);
        ColorMapObject *map = si->ImageDesc.ColorMap ? si->ImageDesc.ColorMap : f->SColorMap;
        GifImageDesc *d = &si->ImageDesc;
        if (!map) return -1;
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) memcpy(saved, canvas, bytes);
        for (int y = 0; y < d->Height; y++)
            for (int x = 0; x < d->Width; x++) {
                int v = si->RasterBits[y * d->Width + x];
                int cx = d->Left + x, cy = d->Top + y;
                if (v == gcb.TransparentColor || cx >= (int)g->w || cy >= (int)g->h || v >= map->ColorCount) continue;
                uint8_t *p = canvas + 4 * ((size_t)cy * g->w + (size_t)cx);
                p[0] = map->Colors[v].Red;
                p[1] = map->Colors[v].Green;
                p[2] = map->Colors[v].Blue;
                p[3] = 255;
            }
        g->rgba[i] = malloc(bytes);
        if (!g->rgba[i]) return -1;
        memcpy(g->rgba[i], canvas, bytes);
        g->start_cs[i] = t;
        t += gcb.DelayTime;
        if (gcb.DisposalMode == DISPOSE_BACKGROUND)
            for (int y = d->Top; y < d->Top + d->Height && y < (int)g->h; y++)
                for (int x = d->Left; x < d->Left + d->Width && x < (int)g->w; x++)
                    memset(canvas + 4 * ((size_t)y * g->w + (size_t)x), 0, 4);
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) memcpy(canvas, saved, bytes);
    }
    free(canvas);
    free(saved);
    DGifCloseFile(f, &e);
    return 0;
}

static uint8_t *load_png(const char *path, uint32_t *w, uint32_t *h) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    spng_ctx *c = spng_ctx_new(0);
    struct spng_ihdr ih;
    size_t size = 0;
    uint8_t *px = NULL;
    spng_set_png_file(c, fp);
    if (spng_get_ihdr(c, &ih) == 0 && spng_decoded_image_size(c, SPNG_FMT_RGBA8, &size) == 0 &&
        (px = malloc(size)) != NULL) {
        if (spng_decode_image(c, px, size, SPNG_FMT_RGBA8, 0) != 0) {
            free(px);
            px = NULL;
        } else {
            *w = ih.width;
            *h = ih.height;
        }
    }
    spng_ctx_free(c);
    fclose(fp);
    return px;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: gif_psnr GIF PNG_PATTERN FPS\n");
        return 1;
    }
    double fps = atof(argv[3]);
    gif_frames g = {0};
    if (!(fps > 0) || load_gif(argv[1], &g) != 0) {
        fprintf(stderr, "gif_psnr: cannot decode %s\n", argv[1]);
        return 1;
    }
    uint32_t n = 0;
    for (;; n++) {
        char p[4096];
        snprintf(p, sizeof p, argv[2], (int)n);
        FILE *t = fopen(p, "rb");
        if (!t) break;
        fclose(t);
    }
    if (n == 0) {
        fprintf(stderr, "gif_psnr: no frame matches %s\n", argv[2]);
        return 1;
    }
    double se_rgb = 0, se_white = 0;
    size_t cnt_rgb = 0, cnt_white = 0, mismatch = 0, pixels = 0;
    for (uint32_t k = 0; k < n; k++) {
        char p[4096];
        snprintf(p, sizeof p, argv[2], (int)k);
        uint32_t w = 0, h = 0;
        uint8_t *src = load_png(p, &w, &h);
        if (!src || w != g.w || h != g.h) {
            fprintf(stderr, "gif_psnr: %s: unreadable or not %ux%u\n", p, g.w, g.h);
            return 1;
        }
        uint32_t img = 0;
        if (g.count == n) {
            img = k;
        } else {
            double t = 100.0 * k / fps + 0.5;
            while (img + 1 < g.count && g.start_cs[img + 1] <= t) img++;
        }
        const uint8_t *gp = g.rgba[img];
        for (size_t i = 0; i < (size_t)w * h; i++) {
            const uint8_t *a = src + 4 * i, *b = gp + 4 * i;
            bool oa = a[3] >= 128, ob = b[3] >= 128;
            pixels++;
            if (oa != ob) mismatch++;
            for (int c = 0; c < 3; c++) {
                if (oa && ob) {
                    double d = (double)a[c] - b[c];
                    se_rgb += d * d;
                    cnt_rgb++;
                }
                double va = (a[c] * a[3] + 255.0 * (255 - a[3])) / 255.0;
                double vb = (b[c] * b[3] + 255.0 * (255 - b[3])) / 255.0;
                se_white += (va - vb) * (va - vb);
                cnt_white++;
            }
        }
        free(src);
    }
    double prgb = se_rgb > 0 ? 10 * log10(255.0 * 255.0 / (se_rgb / (double)cnt_rgb)) : 99;
    double pwhite = se_white > 0 ? 10 * log10(255.0 * 255.0 / (se_white / (double)cnt_white)) : 99;
    printf("frames %u images %u rgb_psnr %.2f mask_mismatch %.3f white_psnr %.2f\n", n, g.count, prgb,
           100.0 * (double)mismatch / (double)pixels, pwhite);
    for (uint32_t i = 0; i < g.count; i++) free(g.rgba[i]);
    free(g.rgba);
    free(g.start_cs);
    return 0;
}
