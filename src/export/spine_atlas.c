#define _POSIX_C_SOURCE 200809L
/* Spine: the .atlas text over the DragonBones atlas pages, and the pages copied beside it.
 * Part of the Spine writer (export/spine_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/atomic.h"
#include "base/num.h"
#include "export/spine_internal.h"
#include "format/png_header.h"

/* ---- the atlas file ----------------------------------------------------------------------------- */

const char *sinew__sp_base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The page's image file (NULL: none named), and whether it is missing (no file at that path). */
const char *sinew__sp_page_image(const sinew_model_page *pg) {
    return pg->resolved_path ? pg->resolved_path : pg->image_path;
}

bool sinew__sp_page_missing(const sinew_model_page *pg) {
    struct stat st;
    const char *path = sinew__sp_page_image(pg);
    return !path || (stat(path, &st) != 0 && errno == ENOENT);
}

/* The page size the Spine atlas states (its region UVs are bounds over it): the atlas JSON's, else
 * the image's. A page whose image is missing and whose atlas gives no size gets the extent of its
 * regions, with a warning (the export goes on without the image: see sinew__sp_write_atlas_text). */
static sinew_status page_size(sp_ctx *c, uint32_t p, uint32_t *w, uint32_t *h, sinew_error *err) {
    const sinew_model_page *pg = &c->atlas->pages[p];
    if (pg->width && pg->height) {
        *w = pg->width;
        *h = pg->height;
        return SINEW_OK;
    }
    const char *path = sinew__sp_page_image(pg);
    if (sinew__sp_page_missing(pg)) {
        double ew = 1.0, eh = 1.0;
        for (uint32_t i = 0; i < c->atlas->region_count; ++i) {
            const sinew_model_region *r = &c->atlas->regions[i];
            if (r->page == p) {
                ew = fmax(ew, ceil((double)r->x + r->width));
                eh = fmax(eh, ceil((double)r->y + r->height));
            }
        }
        *w = ew < 1e9 ? (uint32_t)ew : 1000000000u;
        *h = eh < 1e9 ? (uint32_t)eh : 1000000000u;
        sinew__sp_warn(c, "atlas page '%s': no size in the atlas and no image to read it from: written as %u x %u, the extent "
                "of its regions (its UVs are right only if that is the image's size)",
             pg->name, *w, *h);
        return SINEW_OK;
    }
    if (sinew__png_file_size(path, w, h) != SINEW_OK)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL,
                              "cannot read the page image's size (the Spine atlas needs it)");
    return SINEW_OK;
}


SINEW_PRINTF(2, 3)
static void sb_printf(sbuf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = sinew__vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = true;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 4096) + (size_t)k;
        char *np = sinew__realloc(b->a, b->p, b->cap, nc);
        if (!np) {
            b->bad = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

/* Spine's atlas reader takes integers only. Region names with a line break cannot be written. */
static bool atlas_int(float v) { return v == floorf(v) && fabsf(v) < 1e9f; }

sinew_status sinew__sp_write_atlas_text(sp_ctx *c, const bool *page_used, sbuf *b, sinew_error *err) {
    const struct sinew_atlas *at = c->atlas;
    for (uint32_t p = 0; p < at->page_count; ++p) {
        if (!page_used[p])
            continue;
        const sinew_model_page *pg = &at->pages[p];
        uint32_t w = 0, h = 0;
        sinew_status st = page_size(c, p, &w, &h, err);
        if (st != SINEW_OK)
            return st;
        sb_printf(b, "%s%s\nsize: %u, %u\nfilter: Linear, Linear\n", b->n ? "\n" : "",
                  sinew__sp_base_name(pg->image_path ? pg->image_path : pg->name), w, h);
        for (uint32_t i = 0; i < at->region_count; ++i) {
            const sinew_model_region *r = &at->regions[i];
            if (r->page != p)
                continue;
            if (strpbrk(r->name, "\r\n") || r->name[0] == ' ') {
                sinew__sp_warn(c, "region '%s': its name cannot be written in a Spine atlas; dropped", r->name);
                continue;
            }
            if (!atlas_int(r->x) || !atlas_int(r->y) || !atlas_int(r->width) || !atlas_int(r->height))
                sinew__sp_warn(c, "region '%s': fractional bounds rounded (Spine atlases hold integers)", r->name);
            /* bounds: the size as displayed (Spine's convention for rotated regions) */
            float dw = r->rotated ? r->height : r->width, dh = r->rotated ? r->width : r->height;
            sb_printf(b, "%s\nbounds: %.0f, %.0f, %.0f, %.0f\n", r->name, (double)r->x, (double)r->y, (double)dw,
                      (double)dh);
            if (r->rotated)
                sb_printf(b, "rotate: 90\n");
        }
    }
    if (b->bad)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    return SINEW_OK;
}

sinew_status sinew__sp_copy_file(const sinew_allocator *a, const char *from, const char *to, const char *const *inputs,
                              uint32_t n, sinew_error *err) {
    FILE *f = fopen(from, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, from, 0, 0, NULL, "cannot open: %s", strerror(errno));
    sbuf b = {a, NULL, 0, 0, false};
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.n + r > b.cap) {
            size_t nc = (b.cap ? b.cap * 2 : 65536) + r;
            char *np = sinew__realloc(a, b.p, b.cap, nc);
            if (!np) {
                sinew__free(a, b.p, b.cap);
                fclose(f);
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            }
            b.p = np;
            b.cap = nc;
        }
        memcpy(b.p + b.n, chunk, r);
        b.n += r;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        sinew__free(a, b.p, b.cap);
        return sinew__fail_at(err, SINEW_E_IO, from, 0, 0, NULL, "read error");
    }
    sinew_status st = sinew__write_file_atomic(to, b.p ? b.p : "", b.n, inputs, n, a, err);
    sinew__free(a, b.p, b.cap);
    return st;
}

bool sinew__sp_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
