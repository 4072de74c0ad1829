/*
 * quantcmp FRAME.png... - the GIF palette of sinew's own quantizer against libimagequant's, on
 * the same frames: both build one palette from the histogram of the frames' distinct colours
 * exactly as src/export/gif.c does (1-bit alpha: alpha < 128 is transparent; libimagequant at
 * speed 6, quality 100, 255 colours plus the transparent one; sinew's at 255 opaque colours), map
 * every opaque pixel to its palette entry without dithering, and print the PSNR (dB, RGB, over the
 * opaque pixels of all frames) of each as JSON: {"pixels":N,"colors":N,"sinew":dB,"imagequant":dB}.
 *
 * A test tool: it links libimagequant (GPL-3.0-or-later) and is never installed or distributed;
 * the library and CLI do not link it unless built with SINEW_IMAGEQUANT=ON.
 */
#include <libimagequant.h>
#include <math.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/quant.h"

typedef struct entry {
    uint32_t key, count;
} entry;

static int cmp_key(const void *a, const void *b) {
    uint32_t x = ((const entry *)a)->key, y = ((const entry *)b)->key;
    return x < y ? -1 : x > y;
}

static uint8_t *read_png(const char *path, uint32_t *w, uint32_t *h) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    spng_ctx *ctx = spng_ctx_new(0);
    spng_set_png_file(ctx, f);
    struct spng_ihdr ih;
    size_t size = 0;
    uint8_t *px = NULL;
    if (spng_get_ihdr(ctx, &ih) == 0 && spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size) == 0 &&
        (px = malloc(size)) && spng_decode_image(ctx, px, size, SPNG_FMT_RGBA8, 0) == 0) {
        *w = ih.width;
        *h = ih.height;
    } else {
        free(px);
        px = NULL;
    }
    spng_ctx_free(ctx);
    fclose(f);
    return px;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: quantcmp FRAME.png...\n");
        return 2;
    }
    int nf = argc - 1;
    uint8_t **frames = calloc((size_t)nf, sizeof *frames);
    size_t *npx = calloc((size_t)nf, sizeof *npx);
    size_t total = 0;
    for (int k = 0; k < nf; ++k) {
        uint32_t w = 0, h = 0;
        if (!(frames[k] = read_png(argv[k + 1], &w, &h))) {
            fprintf(stderr, "quantcmp: cannot read %s\n", argv[k + 1]);
            return 2;
        }
        npx[k] = (size_t)w * h;
        total += npx[k];
    }
    /* the histogram of opaque colours (sorted keys, then counted) */
    uint32_t *keys = malloc(total * sizeof *keys);
    size_t nk = 0, transparent = 0;
    for (int k = 0; k < nf; ++k)
        for (size_t i = 0; i < npx[k]; ++i) {
            const uint8_t *p = frames[k] + 4 * i;
            if (p[3] < 128)
                transparent++;
            else
                keys[nk++] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        }
    entry *e = malloc((nk ? nk : 1) * sizeof *e);
    for (size_t i = 0; i < nk; ++i)
        e[i] = (entry){keys[i], 1};
    qsort(e, nk, sizeof *e, cmp_key);
    size_t ne = 0;
    for (size_t i = 0; i < nk; ++i) {
        if (ne && e[ne - 1].key == e[i].key)
            e[ne - 1].count++;
        else
            e[ne++] = e[i];
    }
    /* sinew */
    sinew_quant_color *hist = malloc((ne ? ne : 1) * sizeof *hist);
    for (size_t i = 0; i < ne; ++i)
        hist[i] = (sinew_quant_color){(uint8_t)(e[i].key >> 16), (uint8_t)(e[i].key >> 8), (uint8_t)e[i].key, 255,
                                      e[i].count};
    uint8_t pal[256][4];
    uint32_t count = sinew__quant_palette(hist, ne, 255, NULL, pal);
    double se_own = 0.0;
    for (size_t i = 0; i < ne; ++i) {
        uint8_t j = sinew__quant_nearest((const uint8_t(*)[4])pal, count, hist[i].r, hist[i].g, hist[i].b);
        double dr = hist[i].r - pal[j][0], dg = hist[i].g - pal[j][1], db = hist[i].b - pal[j][2];
        se_own += (dr * dr + dg * dg + db * db) * e[i].count;
    }
    /* libimagequant, as gif.c calls it */
    liq_attr *attr = liq_attr_create();
    liq_histogram *lh = liq_histogram_create(attr);
    liq_histogram_entry *le = malloc((ne + 1) * sizeof *le);
    for (size_t i = 0; i < ne; ++i)
        le[i] = (liq_histogram_entry){{hist[i].r, hist[i].g, hist[i].b, 255}, e[i].count};
    size_t nle = ne;
    if (transparent)
        le[nle++] = (liq_histogram_entry){{0, 0, 0, 0}, transparent > UINT32_MAX ? UINT32_MAX : (unsigned)transparent};
    liq_set_max_colors(attr, transparent ? 256 : 255);
    liq_set_quality(attr, 0, 100);
    liq_set_speed(attr, 6);
    liq_result *res = NULL;
    if (liq_histogram_add_colors(lh, attr, le, (int)nle, 0.0) != LIQ_OK || liq_histogram_quantize(lh, attr, &res) != LIQ_OK) {
        fprintf(stderr, "quantcmp: libimagequant failed\n");
        return 1; /* a failed run: what it allocated goes with the process */
    }
    liq_set_dithering_level(res, 0.0f);
    size_t uw = ne < 4096 ? (ne ? ne : 1) : 4096, uh = (ne + uw - 1) / uw;
    if (!uh)
        uh = 1;
    liq_color *uc = malloc(uw * uh * sizeof *uc);
    unsigned char *ui = malloc(uw * uh);
    for (size_t i = 0; i < uw * uh; ++i)
        uc[i] = le[ne ? (i < ne ? i : ne - 1) : 0].color;
    liq_image *img = liq_image_create_rgba(attr, uc, (int)uw, (int)uh, 0);
    liq_write_remapped_image(res, img, ui, uw * uh);
    const liq_palette *lp = liq_get_palette(res);
    double se_liq = 0.0;
    for (size_t i = 0; i < ne; ++i) {
        const liq_color c = lp->entries[ui[i]];
        double dr = hist[i].r - c.r, dg = hist[i].g - c.g, db = hist[i].b - c.b;
        se_liq += (dr * dr + dg * dg + db * db) * e[i].count;
    }
    double n3 = 3.0 * (double)(nk ? nk : 1);
    double p_own = se_own > 0 ? 10.0 * log10(255.0 * 255.0 / (se_own / n3)) : 99.0;
    double p_liq = se_liq > 0 ? 10.0 * log10(255.0 * 255.0 / (se_liq / n3)) : 99.0;
    printf("{\"pixels\":%zu,\"colors\":%zu,\"sinew\":%.3f,\"imagequant\":%.3f}\n", nk, ne, p_own, p_liq);
    liq_image_destroy(img);
    liq_result_destroy(res);
    liq_histogram_destroy(lh);
    liq_attr_destroy(attr);
    free(uc);
    free(ui);
    free(le);
    free(hist);
    free(e);
    free(keys);
    for (int k = 0; k < nf; ++k)
        free(frames[k]);
    free(frames);
    free(npx);
    return 0;
}
