/*
 * Animated GIF: one global palette from every frame (libimagequant histogram), optional
 * dithering, 1-bit transparency, delays from the frame rate, a NETSCAPE loop block, and only the
 * changed rectangle per frame (unchanged pixels inside it become transparent).
 */
#include <gif_lib.h>
#include <libimagequant.h>
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "export/export_internal.h"

static int gif_write_cb(GifFileType *gif, const GifByteType *data, int n) {
    FILE *f = (FILE *)gif->UserData;
    return (int)fwrite(data, 1, (size_t)n, f);
}

static sinew_status gif_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    return sinew__frames_push(ex, rgba, err);
}

static void gif_abort(sinew_exporter *ex) { sinew__tmp_discard(&ex->tmp); }

typedef struct rect {
    uint32_t x0, y0, x1, y1;  /* half-open; empty when x1 <= x0 */
} rect;

static void rect_add(rect *r, uint32_t x, uint32_t y) {
    if (r->x1 <= r->x0) {
        *r = (rect){x, y, x + 1, y + 1};
        return;
    }
    if (x < r->x0) r->x0 = x;
    if (y < r->y0) r->y0 = y;
    if (x + 1 > r->x1) r->x1 = x + 1;
    if (y + 1 > r->y1) r->y1 = y + 1;
}

static rect rect_union(rect a, rect b) {
    if (a.x1 <= a.x0) return b;
    if (b.x1 <= b.x0) return a;
    return (rect){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0, a.x1 > b.x1 ? a.x1 : b.x1,
                  a.y1 > b.y1 ? a.y1 : b.y1};
}

typedef struct gif_ctx {
    GifFileType *gif;
    int gif_err;
} gif_ctx;

static sinew_status gif_fail(sinew_exporter *ex, int code, sinew_error *err) {
    return sinew__fail_at(err, SINEW_E_IO, ex->o.path, 0, 0, NULL, "cannot write GIF '%s': %s", ex->o.path,
                          GifErrorString(code) ? GifErrorString(code) : "giflib error");
}

static sinew_status put_frame(sinew_exporter *ex, GifFileType *gif, const uint8_t *idx, const uint8_t *canvas,
                              rect r, int delay, int disposal, int transparent, sinew_error *err) {
    GraphicsControlBlock gcb = {disposal, false, delay, transparent};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR) return gif_fail(ex, gif->Error, err);
    uint32_t w = r.x1 - r.x0, h = r.y1 - r.y0;
    if (EGifPutImageDesc(gif, (int)r.x0, (int)r.y0, (int)w, (int)h, false, NULL) == GIF_ERROR)
        return gif_fail(ex, gif->Error, err);
    GifPixelType *line = (GifPixelType *)ex->scratch;  /* width bytes are enough */
    for (uint32_t y = r.y0; y < r.y1; y++) {
        const uint8_t *row = idx + (size_t)y * ex->o.width, *crow = canvas + (size_t)y * ex->o.width;
        for (uint32_t x = r.x0; x < r.x1; x++) {
            /* a pixel that already shows the right colour is left as it is (transparent) */
            uint8_t v = row[x];
            line[x - r.x0] = transparent >= 0 && v == crow[x] ? (GifPixelType)transparent : v;
        }
        if (EGifPutLine(gif, line, (int)w) == GIF_ERROR) return gif_fail(ex, gif->Error, err);
    }
    return SINEW_OK;
}

static sinew_status gif_end(sinew_exporter *ex, sinew_error *err) {
    uint32_t n = ex->frames.count, W = ex->o.width, H = ex->o.height;
    size_t npx = (size_t)W * H;
    if (n == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    if (W > 65535 || H > 65535) return sinew__fail(err, SINEW_E_RANGE, NULL, "GIF frames are limited to 65535 pixels");

    /* GIF transparency is 1 bit: alpha < 128 is transparent, the rest opaque (straight colour kept) */
    bool any_transparent = false;
    for (uint32_t k = 0; k < n; k++) {
        uint8_t *p = ex->frames.data[k];
        for (size_t i = 0; i < npx; i++, p += 4) {
            if (p[3] < 128) {
                memset(p, 0, 4);
                any_transparent = true;
            } else {
                p[3] = 255;
            }
        }
    }

    sinew_status st = SINEW_OK;
    liq_attr *attr = liq_attr_create();
    liq_histogram *hist = NULL;
    liq_result *res = NULL;
    uint8_t *indices = NULL, *canvas = NULL;
    GifFileType *gif = NULL;
    ColorMapObject *map = NULL;
    size_t idx_bytes = 0;
    if (!attr) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (quantizer)");
        goto done;
    }
    /* one slot stays free for the "unchanged" transparent index when the frames have no transparency */
    liq_set_max_colors(attr, any_transparent ? 256 : 255);
    int q = ex->o.quality > 0 ? (int)ex->o.quality : 100;
    liq_set_quality(attr, 0, q);
    liq_set_speed(attr, 6);
    hist = liq_histogram_create(attr);
    if (!hist) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (quantizer)");
        goto done;
    }
    for (uint32_t k = 0; k < n && !st; k++) {
        liq_image *img = liq_image_create_rgba(attr, ex->frames.data[k], (int)W, (int)H, 0);
        if (!img || liq_histogram_add_image(hist, attr, img) != LIQ_OK)
            st = sinew__fail(err, SINEW_E_RENDER, NULL, "colour quantization failed on frame %u", k);
        if (img) liq_image_destroy(img);
    }
    if (st) goto done;
    if (liq_histogram_quantize(hist, attr, &res) != LIQ_OK) {
        st = sinew__fail(err, SINEW_E_RENDER, NULL, "colour quantization failed");
        goto done;
    }
    liq_set_dithering_level(res, ex->o.dither < 0 ? 0.0f : 1.0f);
    const liq_palette *pal = liq_get_palette(res);
    int colors = (int)pal->count, transparent = -1;
    for (int i = 0; i < colors; i++)
        if (pal->entries[i].a < 128) transparent = i;
    if (transparent < 0 && colors < 256) transparent = colors++;
    int bits = 1;
    while ((1 << bits) < colors) bits++;
    map = GifMakeMapObject(1 << bits, NULL);
    if (!map) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF palette)");
        goto done;
    }
    for (int i = 0; i < (1 << bits); i++) {
        GifColorType c = {0, 0, 0};
        if (i < (int)pal->count) c = (GifColorType){pal->entries[i].r, pal->entries[i].g, pal->entries[i].b};
        map->Colors[i] = c;
    }

    /* remap every frame: indices[k] is the full-size index image */
    if (!sinew__mul_size(npx, n, &idx_bytes) || !(indices = sinew__alloc(ex->allocator, idx_bytes)) ||
        !(canvas = sinew__alloc(ex->allocator, npx))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF frames)");
        goto done;
    }
    for (uint32_t k = 0; k < n && !st; k++) {
        liq_image *img = liq_image_create_rgba(attr, ex->frames.data[k], (int)W, (int)H, 0);
        if (!img || liq_write_remapped_image(res, img, indices + (size_t)k * npx, npx) != LIQ_OK)
            st = sinew__fail(err, SINEW_E_RENDER, NULL, "palette mapping failed on frame %u", k);
        if (img) liq_image_destroy(img);
        /* make every transparent pixel use the one transparent index */
        uint8_t *ik = indices + (size_t)k * npx;
        const uint8_t *px = ex->frames.data[k];
        if (transparent >= 0)
            for (size_t i = 0; i < npx; i++)
                if (px[4 * i + 3] == 0) ik[i] = (uint8_t)transparent;
    }
    if (st) goto done;

    if ((st = sinew__tmp_open(ex->o.path, &ex->tmp, err)) != SINEW_OK) goto done;
    int gerr = 0;
    gif = EGifOpen(ex->tmp.f, gif_write_cb, &gerr);
    if (!gif) {
        st = gif_fail(ex, gerr, err);
        goto done;
    }
    EGifSetGifVersion(gif, true);
    if (EGifPutScreenDesc(gif, (int)W, (int)H, bits, 0, map) == GIF_ERROR) {
        st = gif_fail(ex, gif->Error, err);
        goto done;
    }
    if (ex->o.plays != 1) {
        /* NETSCAPE2.0: repeat count after the first play; 0 = forever */
        uint32_t rep = ex->o.plays == 0 ? 0 : ex->o.plays - 1;
        if (rep > 65535) rep = 65535;
        GifByteType app[11], sub[3] = {1, (GifByteType)(rep & 255), (GifByteType)(rep >> 8)};
        memcpy(app, "NETSCAPE2.0", 11);
        if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(gif, 11, app) == GIF_ERROR || EGifPutExtensionBlock(gif, 3, sub) == GIF_ERROR ||
            EGifPutExtensionTrailer(gif) == GIF_ERROR) {
            st = gif_fail(ex, gif->Error, err);
            goto done;
        }
    }

    /* frames: the canvas is what a viewer shows before the frame is drawn */
    memset(canvas, transparent >= 0 ? transparent : 0, npx);
    double fps = ex->o.fps;
    bool have_pending = false;
    rect pend_r = {0, 0, 0, 0};
    int pend_disp = DISPOSAL_UNSPECIFIED;
    uint32_t pend_k = 0, pend_start = 0;
    /* the canvas before the pending frame (needed to write its unchanged pixels as transparent) */
    uint8_t *before = ex->scratch + W;  /* scratch holds W*H*4 bytes: line buffer + one index image */
    for (uint32_t k = 0; k <= n && !st; k++) {
        const uint8_t *ik = k < n ? indices + (size_t)k * npx : NULL;
        rect changed = {0, 0, 0, 0}, clear = {0, 0, 0, 0};
        if (ik) {
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++) {
                    size_t i = (size_t)y * W + x;
                    if (ik[i] != canvas[i]) rect_add(&changed, x, y);
                }
        }
        if (k == 0) changed = (rect){0, 0, W, H};
        /* frame k - 1 is pending: its disposal depends on frame k (pixels turning transparent) */
        if (have_pending && ik && transparent >= 0) {
            const uint8_t *ip = indices + (size_t)pend_k * npx;
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++) {
                    size_t i = (size_t)y * W + x;
                    if (ik[i] == transparent && ip[i] != transparent) rect_add(&clear, x, y);
                }
        }
        if (ik && changed.x1 <= changed.x0 && clear.x1 <= clear.x0) continue;  /* identical: longer delay */
        if (have_pending) {
            rect r = pend_r;
            if (clear.x1 > clear.x0) {
                r = rect_union(r, clear);
                pend_disp = DISPOSE_BACKGROUND;
            }
            int t0 = (int)lround(100.0 * pend_start / fps), t1 = (int)lround(100.0 * k / fps);
            st = put_frame(ex, gif, indices + (size_t)pend_k * npx, before, r, t1 - t0, pend_disp, transparent, err);
            if (st) break;
            if (pend_disp == DISPOSE_BACKGROUND) {
                for (uint32_t y = r.y0; y < r.y1; y++) memset(canvas + (size_t)y * W + r.x0, transparent, r.x1 - r.x0);
                /* the frame after the clear must redraw what the clear removed */
                if (ik) {
                    changed = (rect){0, 0, 0, 0};
                    for (uint32_t y = 0; y < H; y++)
                        for (uint32_t x = 0; x < W; x++) {
                            size_t i = (size_t)y * W + x;
                            if (ik[i] != canvas[i]) rect_add(&changed, x, y);
                        }
                }
            }
        }
        if (!ik) break;
        if (changed.x1 <= changed.x0) changed = (rect){0, 0, 1, 1};
        memcpy(before, canvas, npx);
        for (uint32_t y = changed.y0; y < changed.y1; y++)
            memcpy(canvas + (size_t)y * W + changed.x0, ik + (size_t)y * W + changed.x0, changed.x1 - changed.x0);
        have_pending = true;
        pend_r = changed;
        pend_disp = DISPOSE_DO_NOT;
        pend_k = k;
        pend_start = k;
    }
    if (st) goto done;
    {
        int ce = 0;
        if (EGifCloseFile(gif, &ce) == GIF_ERROR) {
            gif = NULL;
            st = gif_fail(ex, ce, err);
            goto done;
        }
        gif = NULL;
    }
    st = sinew__tmp_commit(&ex->tmp, err);
done:
    if (gif) {
        int ce;
        EGifCloseFile(gif, &ce);
    }
    if (map) GifFreeMapObject(map);
    if (indices) sinew__free(ex->allocator, indices, idx_bytes);
    if (canvas) sinew__free(ex->allocator, canvas, npx);
    if (res) liq_result_destroy(res);
    if (hist) liq_histogram_destroy(hist);
    if (attr) liq_attr_destroy(attr);
    return st;
}

const sinew__backend sinew__gif_backend = {gif_frame, gif_end, gif_abort};
