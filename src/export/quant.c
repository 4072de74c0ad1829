/* sinew's own colour quantizer (quant.h). */
#include "export/quant.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- weighted median cut -------------------------------------------------------------------- */

typedef struct box {
    size_t first, count;       /* entries [first, first + count) of the working array */
    double score;              /* the squared error it holds: the box to split next is the worst */
    int axis;                  /* the channel of widest weighted spread */
} box;

static int cmp_r(const void *a, const void *b) {
    return (int)((const sinew_quant_color *)a)->r - (int)((const sinew_quant_color *)b)->r;
}
static int cmp_g(const void *a, const void *b) {
    return (int)((const sinew_quant_color *)a)->g - (int)((const sinew_quant_color *)b)->g;
}
static int cmp_b(const void *a, const void *b) {
    return (int)((const sinew_quant_color *)a)->b - (int)((const sinew_quant_color *)b)->b;
}

static void box_measure(const sinew_quant_color *e, box *bx) {
    double w = 0, s[3] = {0, 0, 0}, q[3] = {0, 0, 0};
    for (size_t i = bx->first; i < bx->first + bx->count; ++i) {
        double c = e[i].count ? (double)e[i].count : 1.0;
        const double v[3] = {e[i].r, e[i].g, e[i].b};
        w += c;
        for (int k = 0; k < 3; ++k) {
            s[k] += c * v[k];
            q[k] += c * v[k] * v[k];
        }
    }
    double best = -1.0;
    bx->score = 0.0;
    for (int k = 0; k < 3; ++k) {
        double var = w > 0 ? q[k] - s[k] * s[k] / w : 0.0; /* weighted sum of squared deviations */
        bx->score += var;
        if (var > best) {
            best = var;
            bx->axis = k;
        }
    }
    if (bx->count < 2)
        bx->score = 0.0;
}

/* Splits `bx` at the weighted median of its widest channel into bx and *out. */
static void box_split(sinew_quant_color *e, box *bx, box *out) {
    qsort(e + bx->first, bx->count, sizeof *e, bx->axis == 0 ? cmp_r : bx->axis == 1 ? cmp_g : cmp_b);
    double total = 0, acc = 0;
    for (size_t i = bx->first; i < bx->first + bx->count; ++i)
        total += e[i].count ? (double)e[i].count : 1.0;
    size_t cut = bx->first + 1;
    for (size_t i = bx->first; i < bx->first + bx->count - 1; ++i) {
        acc += e[i].count ? (double)e[i].count : 1.0;
        cut = i + 1;
        if (acc >= total / 2)
            break;
    }
    out->first = cut;
    out->count = bx->first + bx->count - cut;
    bx->count = cut - bx->first;
    box_measure(e, bx);
    box_measure(e, out);
}

uint8_t sinew__quant_nearest(const uint8_t pal[256][4], uint32_t count, int r, int g, int b) {
    uint32_t best = 0;
    int bd = 1 << 30;
    for (uint32_t i = 0; i < count; ++i) {
        int dr = r - pal[i][0], dg = g - pal[i][1], db = b - pal[i][2];
        int d = dr * dr + dg * dg + db * db;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return (uint8_t)best;
}

uint32_t sinew__quant_palette(const sinew_quant_color *hist, size_t n, uint32_t max_colors,
                              const sinew_allocator *al, uint8_t pal[256][4]) {
    if (max_colors < 1)
        max_colors = 1;
    if (max_colors > 256)
        max_colors = 256;
    if (n == 0) {
        memset(pal[0], 0, 3);
        pal[0][3] = 255;
        return 1;
    }
    if (n <= max_colors) { /* every colour fits */
        for (size_t i = 0; i < n; ++i) {
            pal[i][0] = hist[i].r;
            pal[i][1] = hist[i].g;
            pal[i][2] = hist[i].b;
            pal[i][3] = 255;
        }
        return (uint32_t)n;
    }
    size_t bytes = n * sizeof(sinew_quant_color);
    sinew_quant_color *e = sinew__alloc(al, bytes);
    if (!e)
        return 0;
    memcpy(e, hist, bytes);
    /* median cut: split the box holding the most squared error until there are max_colors */
    box boxes[256];
    uint32_t nb = 1;
    boxes[0].first = 0;
    boxes[0].count = n;
    box_measure(e, &boxes[0]);
    while (nb < max_colors) {
        uint32_t worst = 0;
        for (uint32_t i = 1; i < nb; ++i)
            if (boxes[i].score > boxes[worst].score)
                worst = i;
        if (boxes[worst].score <= 0.0)
            break;
        box_split(e, &boxes[worst], &boxes[nb]);
        nb++;
    }
    double sums[256][4];
    for (uint32_t i = 0; i < nb; ++i) {
        double w = 0, s[3] = {0, 0, 0};
        for (size_t k = boxes[i].first; k < boxes[i].first + boxes[i].count; ++k) {
            double c = e[k].count ? (double)e[k].count : 1.0;
            w += c;
            s[0] += c * e[k].r;
            s[1] += c * e[k].g;
            s[2] += c * e[k].b;
        }
        for (int k = 0; k < 3; ++k)
            pal[i][k] = (uint8_t)(w > 0 ? s[k] / w + 0.5 : 0);
        pal[i][3] = 255;
    }
    /* k-means refinement over the histogram (weighted): each colour to its nearest entry, each
     * entry to the mean of its colours; an entry left with none keeps its colour */
    for (int iter = 0; iter < 6; ++iter) {
        memset(sums, 0, sizeof(double) * 4 * nb);
        for (size_t k = 0; k < n; ++k) {
            uint8_t j = sinew__quant_nearest((const uint8_t(*)[4])pal, nb, e[k].r, e[k].g, e[k].b);
            double c = e[k].count ? (double)e[k].count : 1.0;
            sums[j][0] += c * e[k].r;
            sums[j][1] += c * e[k].g;
            sums[j][2] += c * e[k].b;
            sums[j][3] += c;
        }
        int moved = 0;
        for (uint32_t i = 0; i < nb; ++i) {
            if (sums[i][3] <= 0)
                continue;
            for (int k = 0; k < 3; ++k) {
                uint8_t v = (uint8_t)(sums[i][k] / sums[i][3] + 0.5);
                moved += v != pal[i][k];
                pal[i][k] = v;
            }
        }
        if (!moved)
            break;
    }
    sinew__free(al, e, bytes);
    return nb;
}

/* ---- Floyd-Steinberg ------------------------------------------------------------------------ */

static inline int clamp255(float v) { return v < 0.0f ? 0 : v > 255.0f ? 255 : (int)(v + 0.5f); }

bool sinew__quant_remap_dither(const uint8_t *rgba, uint32_t w, uint32_t h, const uint8_t pal[256][4], uint32_t count,
                               uint8_t transparent, uint8_t *out, const sinew_allocator *al) {
    /* two rows of diffused error (3 floats per pixel, one pixel of margin each side) and a
     * direct-mapped cache of nearest-colour answers keyed by the exact colour */
    size_t row = ((size_t)w + 2) * 3, bytes = 2 * row * sizeof(float);
    enum { CACHE = 1 << 16 };
    size_t cbytes = CACHE * sizeof(uint32_t);
    float *err = sinew__alloc(al, bytes);
    uint32_t *cache = sinew__alloc(al, cbytes);
    if (!err || !cache) {
        sinew__free(al, err, bytes);
        sinew__free(al, cache, cbytes);
        return false;
    }
    memset(err, 0, bytes);
    for (size_t i = 0; i < CACHE; ++i)
        cache[i] = UINT32_MAX;
    for (uint32_t y = 0; y < h; ++y) {
        float *cur = err + (y & 1) * row, *nxt = err + ((y + 1) & 1) * row;
        memset(nxt, 0, row * sizeof(float));
        for (uint32_t x = 0; x < w; ++x) {
            const uint8_t *p = rgba + ((size_t)y * w + x) * 4;
            uint8_t *o = out + (size_t)y * w + x;
            if (p[3] == 0) {
                *o = transparent;
                continue;
            }
            float *ce = cur + ((size_t)x + 1) * 3;
            int r = clamp255(p[0] + ce[0]), g = clamp255(p[1] + ce[1]), b = clamp255(p[2] + ce[2]);
            uint32_t key = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
            uint32_t slot = (key * 2654435761u) >> 16;
            uint8_t idx;
            if (cache[slot] != UINT32_MAX && (cache[slot] >> 8) == key) {
                idx = (uint8_t)(cache[slot] & 0xffu);
            } else {
                idx = sinew__quant_nearest(pal, count, r, g, b);
                cache[slot] = key << 8 | idx;
            }
            *o = idx;
            const float d[3] = {(float)(r - pal[idx][0]), (float)(g - pal[idx][1]), (float)(b - pal[idx][2])};
            float *ne = nxt + ((size_t)x + 1) * 3;
            for (int k = 0; k < 3; ++k) {
                ce[3 + k] += d[k] * (7.0f / 16.0f);
                ne[k - 3] += d[k] * (3.0f / 16.0f);
                ne[k] += d[k] * (5.0f / 16.0f);
                ne[3 + k] += d[k] * (1.0f / 16.0f);
            }
        }
    }
    sinew__free(al, err, bytes);
    sinew__free(al, cache, cbytes);
    return true;
}
