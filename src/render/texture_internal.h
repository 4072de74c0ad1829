/* Internal layout of a texture set, shared by texture.c and raster.c. */
#ifndef SINEW_RENDER_TEXTURE_INTERNAL_H
#define SINEW_RENDER_TEXTURE_INTERNAL_H

#include "sinew/render.h"

typedef struct sinew__page {
    uint32_t width, height;
    uint32_t *texels;  /* premultiplied RGBA8 as bytes r,g,b,a in memory, width * height */
} sinew__page;

struct sinew_texture_set {
    const sinew_allocator *allocator;
    uint32_t count;
    sinew__page *pages;
};

/* Premultiplies `count` straight RGBA8 pixels in place (rounded: c * a / 255). */
void sinew__premultiply(uint8_t *rgba, size_t count);

#endif
