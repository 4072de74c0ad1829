/* sinew's own colour quantizer (MIT like the rest of sinew): the GIF palette when sinew is built
 * without libimagequant (the default; docs/licensing.md). Weighted median cut over the histogram
 * of distinct colours, refined by k-means, then nearest-colour mapping (optionally with
 * Floyd-Steinberg error diffusion). Colours are compared in plain RGB, the space PSNR is
 * measured in. */
#ifndef SINEW_EXPORT_QUANT_H
#define SINEW_EXPORT_QUANT_H

#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

typedef struct sinew_quant_color {
    uint8_t r, g, b, a;
    uint32_t count;            /* pixels of this colour */
} sinew_quant_color;

/*
 * Builds a palette of at most `max_colors` (1..256) opaque colours for the `n` distinct opaque
 * colours of `hist` (their alpha is ignored). Writes them to pal[i][0..2] (pal[i][3] = 255) and
 * returns how many, or 0 when out of memory.
 */
uint32_t sinew__quant_palette(const sinew_quant_color *hist, size_t n, uint32_t max_colors,
                              const sinew_allocator *al, uint8_t pal[256][4]);

/* The palette index nearest to (r, g, b) among pal[0..count). */
uint8_t sinew__quant_nearest(const uint8_t pal[256][4], uint32_t count, int r, int g, int b);

/*
 * Maps a straight-alpha RGBA image to palette indices with Floyd-Steinberg error diffusion over
 * the opaque pixels; a pixel of alpha 0 gets `transparent`. Returns false when out of memory.
 */
bool sinew__quant_remap_dither(const uint8_t *rgba, uint32_t w, uint32_t h, const uint8_t pal[256][4], uint32_t count,
                               uint8_t transparent, uint8_t *out, const sinew_allocator *al);

#endif
