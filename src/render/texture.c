/* Texture pages: PNG loading through libspng, in-memory pages, premultiplication. */
#include "render/texture_internal.h"

#include <errno.h>
#include <spng.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"

static inline uint8_t mul255(uint32_t a, uint32_t b) {
    uint32_t t = a * b + 128u;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

void sinew__premultiply(uint8_t *rgba, size_t count) {
    for (size_t i = 0; i < count; i++, rgba += 4) {
        uint32_t a = rgba[3];
        if (a == 255) continue;
        rgba[0] = mul255(rgba[0], a);
        rgba[1] = mul255(rgba[1], a);
        rgba[2] = mul255(rgba[2], a);
    }
}

static sinew_status set_alloc(const sinew_allocator *allocator, uint32_t count,
                              sinew_texture_set **out, sinew_error *err) {
    const sinew_allocator *a = sinew__allocator_or_default(allocator);
    sinew_texture_set *set = sinew__calloc(a, 1, sizeof *set);
    if (!set) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (texture set)");
    set->allocator = a;
    if (count) {
        set->pages = sinew__calloc(a, count, sizeof *set->pages);
        if (!set->pages) {
            sinew__free(a, set, sizeof *set);
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (texture set)");
        }
    }
    set->count = count;
    *out = set;
    return SINEW_OK;
}

void sinew_texture_set_destroy(sinew_texture_set *set) {
    if (!set) return;
    const sinew_allocator *a = set->allocator;
    for (uint32_t i = 0; i < set->count; i++) {
        sinew__page *p = &set->pages[i];
        if (p->texels) sinew__free(a, p->texels, (size_t)p->width * p->height * 4u);
    }
    if (set->pages) sinew__free(a, set->pages, set->count * sizeof *set->pages);
    sinew__free(a, set, sizeof *set);
}

uint32_t sinew_texture_set_page_count(const sinew_texture_set *set) { return set ? set->count : 0; }

bool sinew_texture_set_page(const sinew_texture_set *set, uint32_t page, uint32_t *width,
                            uint32_t *height, const uint8_t **pixels) {
    if (!set || page >= set->count) return false;
    if (width) *width = set->pages[page].width;
    if (height) *height = set->pages[page].height;
    if (pixels) *pixels = (const uint8_t *)set->pages[page].texels;
    return true;
}

static sinew_status page_alloc(sinew_texture_set *set, sinew__page *p, uint32_t w, uint32_t h,
                               const char *what, sinew_error *err) {
    if (w == 0 || h == 0 || w > SINEW_MAX_IMAGE_SIDE || h > SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "%s: image size %ux%u is out of range (1..%u)",
                           what, w, h, SINEW_MAX_IMAGE_SIDE);
    p->texels = sinew__alloc(set->allocator, (size_t)w * h * 4u);
    if (!p->texels) return sinew__fail(err, SINEW_E_NOMEM, NULL, "%s: out of memory", what);
    p->width = w;
    p->height = h;
    return SINEW_OK;
}

sinew_status sinew_texture_set_from_rgba(const sinew_image_desc *pages, uint32_t count,
                                         const sinew_allocator *allocator,
                                         sinew_texture_set **out, sinew_error *err) {
    if (!out || (count && !pages)) return sinew__fail(err, SINEW_E_ARG, NULL, "texture set: NULL argument");
    *out = NULL;
    sinew_texture_set *set;
    sinew_status st = set_alloc(allocator, count, &set, err);
    if (st) return st;
    for (uint32_t i = 0; i < count; i++) {
        const sinew_image_desc *d = &pages[i];
        if (!d->pixels) {
            sinew_texture_set_destroy(set);
            return sinew__fail(err, SINEW_E_ARG, NULL, "texture page %u: no pixels", i);
        }
        st = page_alloc(set, &set->pages[i], d->width, d->height, "texture page", err);
        if (st) {
            sinew_texture_set_destroy(set);
            return st;
        }
        size_t row = (size_t)d->width * 4u, stride = d->stride ? d->stride : row;
        uint8_t *dst = (uint8_t *)set->pages[i].texels;
        for (uint32_t y = 0; y < d->height; y++) memcpy(dst + y * row, d->pixels + y * stride, row);
        if (!d->premultiplied) sinew__premultiply(dst, (size_t)d->width * d->height);
    }
    *out = set;
    return SINEW_OK;
}

static sinew_status load_png(sinew_texture_set *set, sinew__page *p, const char *path, sinew_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot open texture page '%s': %s",
                              path, strerror(errno));
    sinew_status st = SINEW_OK;
    spng_ctx *ctx = spng_ctx_new(0);
    struct spng_ihdr ihdr;
    size_t size = 0;
    int rc;
    if (!ctx) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (PNG decoder)");
        goto done;
    }
    spng_set_image_limits(ctx, SINEW_MAX_IMAGE_SIDE, SINEW_MAX_IMAGE_SIDE);
    spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_ERROR);
    if ((rc = spng_set_png_file(ctx, f)) != 0 || (rc = spng_get_ihdr(ctx, &ihdr)) != 0 ||
        (rc = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size)) != 0) {
        st = sinew__fail_at(err, SINEW_E_PARSE, path, 0, 0, NULL, "texture page '%s' is not a valid PNG: %s",
                            path, spng_strerror(rc));
        goto done;
    }
    if ((st = page_alloc(set, p, ihdr.width, ihdr.height, path, err)) != SINEW_OK) goto done;
    if (size != (size_t)ihdr.width * ihdr.height * 4u) {
        st = sinew__fail_at(err, SINEW_E_PARSE, path, 0, 0, NULL, "texture page '%s': unexpected size", path);
        goto done;
    }
    rc = spng_decode_image(ctx, p->texels, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    if (rc) {
        st = sinew__fail_at(err, SINEW_E_PARSE, path, 0, 0, NULL, "texture page '%s' could not be decoded: %s",
                            path, spng_strerror(rc));
        goto done;
    }
    sinew__premultiply((uint8_t *)p->texels, size / 4u);
done:
    if (ctx) spng_ctx_free(ctx);
    fclose(f);
    return st;
}

sinew_status sinew_texture_set_load(const char *const *paths, uint32_t count,
                                    const sinew_allocator *allocator, sinew_texture_set **out,
                                    sinew_error *err) {
    if (!out || (count && !paths)) return sinew__fail(err, SINEW_E_ARG, NULL, "texture set: NULL argument");
    *out = NULL;
    sinew_texture_set *set;
    sinew_status st = set_alloc(allocator, count, &set, err);
    if (st) return st;
    for (uint32_t i = 0; i < count; i++) {
        if (!paths[i]) { /* a page without an image: one transparent texel, so it draws nothing */
            st = page_alloc(set, &set->pages[i], 1, 1, "texture page", err);
            if (!st) memset(set->pages[i].texels, 0, 4);
        } else {
            st = load_png(set, &set->pages[i], paths[i], err);
        }
        if (st) {
            sinew_texture_set_destroy(set);
            return st;
        }
    }
    *out = set;
    return SINEW_OK;
}
