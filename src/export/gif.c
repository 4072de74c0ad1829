/*
 * Animated GIF: one global palette from every frame (libimagequant), optional dithering, 1-bit
 * transparency, delays from the frame rate, a NETSCAPE loop block, and only the changed rectangle
 * per frame (unchanged pixels inside it become transparent).
 *
 * Speed: rendered frames repeat most of their colours from frame to frame, so the writer first
 * collects the distinct colours of all frames (with their pixel counts) in a hash table. The
 * palette is built from that histogram (liq_histogram_add_colors), and without dithering only the
 * distinct colours are remapped (one small image through liq_write_remapped_image); every pixel
 * then takes its colour's index from the table. That gives the same indices as remapping every
 * frame, several times faster. With dithering each frame is remapped as a whole.
 *
 * libimagequant runs its loops on OpenMP threads. libgomp's default wait policy spins, and with
 * two threads on two cores that are busy (the renderer, other processes) the spinning threads
 * wait for descheduled partners: quantization became 2-4x slower. libgomp reads OMP_WAIT_POLICY
 * only when it is loaded, so setting it from here has no effect; instead the calling thread's
 * OpenMP team size is set to 1 around the libimagequant calls and restored afterwards (the
 * OpenMP API is looked up with dlsym, so nothing changes when libimagequant is built without
 * OpenMP).
 *
 * Memory: the palette needs every frame before the first can be written, but the frames are not
 * kept as they came. Each frame is made 1-bit transparent and counted into the colour table as it
 * arrives, then kept deflated (zlib, level 1: rendered frames are mostly flat transparent areas
 * and runs of one colour, a tenth of their size or less). At the end each frame is inflated in
 * turn and its index image made on the spot, so the writer holds a few frames, not all of them
 * (71 frames of 1343x1633 peaked at 800 MB before, docs/render-cli.md has the figures now).
 */
#define _GNU_SOURCE  /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <gif_lib.h>
#ifdef SINEW_HAVE_IMAGEQUANT
#include <libimagequant.h>
#endif
#include <limits.h>
#include <math.h>
#include <string.h>
#include <zlib.h>

#include "base/alloc.h"
#include "base/error.h"
#include "export/export_internal.h"
#include "export/quant.h"

#ifdef SINEW_HAVE_IMAGEQUANT
/* libimagequant speed 1 (slow, best) .. 10 (fast, rough) */
#define GIF_LIQ_SPEED 6
#endif

static int gif_write_cb(GifFileType *gif, const GifByteType *data, int n) {
    FILE *f = (FILE *)gif->UserData;
    return (int)fwrite(data, 1, (size_t)n, f);
}


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

/* ---- distinct colours ------------------------------------------------------------------------ */

/* Open addressing on packed straight RGBA. Opaque pixels (alpha 255 after the 1-bit threshold)
 * never pack to 0, so 0 marks an empty slot; transparent pixels are counted apart. */
typedef struct color_table {
    uint32_t *keys;
    uint32_t *vals;    /* pixel count (saturating); later the entry number, then the palette index */
    size_t cap, count; /* cap is a power of two, count <= cap / 2 */
    const sinew_allocator *allocator;
} color_table;

static size_t ct_hash(uint32_t k, size_t mask) {
    k ^= k >> 16;
    k *= 0x45d9f3bu;
    k ^= k >> 16;
    k *= 0x45d9f3bu;
    k ^= k >> 16;
    return (size_t)k & mask;
}

static void ct_free(color_table *t) {
    if (t->keys) sinew__free(t->allocator, t->keys, t->cap * sizeof *t->keys);
    if (t->vals) sinew__free(t->allocator, t->vals, t->cap * sizeof *t->vals);
    t->keys = t->vals = NULL;
    t->cap = t->count = 0;
}

static bool ct_init(color_table *t, const sinew_allocator *a, size_t cap) {
    memset(t, 0, sizeof *t);
    t->allocator = a;
    t->keys = sinew__calloc(a, cap, sizeof *t->keys);
    t->vals = sinew__calloc(a, cap, sizeof *t->vals);
    t->cap = cap;
    if (!t->keys || !t->vals) {
        ct_free(t);
        return false;
    }
    return true;
}

static bool ct_grow(color_table *t) {
    color_table g;
    if (t->cap > SIZE_MAX / 2 / sizeof(uint32_t) || !ct_init(&g, t->allocator, t->cap * 2)) return false;
    size_t mask = g.cap - 1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->keys[i]) continue;
        size_t h = ct_hash(t->keys[i], mask);
        while (g.keys[h]) h = (h + 1) & mask;
        g.keys[h] = t->keys[i];
        g.vals[h] = t->vals[i];
    }
    g.count = t->count;
    ct_free(t);
    *t = g;
    return true;
}

/* The slot of `key` (key != 0), added with value 0 if new; SIZE_MAX when out of memory. */
static size_t ct_add(color_table *t, uint32_t key) {
    size_t mask = t->cap - 1, h = ct_hash(key, mask);
    while (t->keys[h] && t->keys[h] != key) h = (h + 1) & mask;
    if (t->keys[h]) return h;
    if ((t->count + 1) * 2 > t->cap) {
        if (!ct_grow(t)) return SIZE_MAX;
        mask = t->cap - 1;
        h = ct_hash(key, mask);
        while (t->keys[h]) h = (h + 1) & mask;
    }
    t->keys[h] = key;
    t->vals[h] = 0;
    t->count++;
    return h;
}

/* The slot of a key known to be in the table. */
static size_t ct_find(const color_table *t, uint32_t key) {
    size_t mask = t->cap - 1, h = ct_hash(key, mask);
    while (t->keys[h] != key) h = (h + 1) & mask;
    return h;
}

static uint32_t pack_rgba(const uint8_t *p) {
    uint32_t k;
    memcpy(&k, p, 4);
    return k;
}

/* ---- the frames, as they come ------------------------------------------------------------------ */

typedef struct packed_frame {
    uint8_t *z;   /* the deflated 1-bit-transparent frame */
    size_t len;
} packed_frame;

typedef struct gif_state {
    color_table ct;           /* every opaque colour with its pixel count */
    uint64_t transparent_px;
    packed_frame *frames;
    uint32_t count, cap;
    uint8_t *work;            /* one straight frame (frame_bytes) */
    uint8_t *zbuf;            /* deflate output (zcap bytes) */
    size_t zcap;
} gif_state;

static gif_state *gif_get(sinew_exporter *ex, sinew_error *err) {
    if (ex->state) return ex->state;
    gif_state *g = sinew__calloc(ex->allocator, 1, sizeof *g);
    if (!g) {
        sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF)");
        return NULL;
    }
    ex->state = g;
    uLong bound = compressBound((uLong)ex->frame_bytes);
    g->zcap = (size_t)bound;
    if (!ct_init(&g->ct, ex->allocator, 4096) || !(g->work = sinew__alloc(ex->allocator, ex->frame_bytes)) ||
        !(g->zbuf = sinew__alloc(ex->allocator, g->zcap))) {
        sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF)");
        return NULL;
    }
    return g;
}

static void gif_free_state(sinew_exporter *ex) {
    gif_state *g = ex->state;
    if (!g) return;
    ct_free(&g->ct);
    for (uint32_t i = 0; i < g->count; i++) sinew__free(ex->allocator, g->frames[i].z, g->frames[i].len);
    if (g->frames) sinew__free(ex->allocator, g->frames, g->cap * sizeof *g->frames);
    if (g->work) sinew__free(ex->allocator, g->work, ex->frame_bytes);
    if (g->zbuf) sinew__free(ex->allocator, g->zbuf, g->zcap);
    sinew__free(ex->allocator, g, sizeof *g);
    ex->state = NULL;
}

/* GIF transparency is 1 bit: alpha < 128 is transparent (stored as 0), the rest opaque (straight
 * colour kept, alpha 255). The colours are counted as the frame comes, then it is kept deflated. */
static sinew_status gif_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    gif_state *g = gif_get(ex, err);
    if (!g) return SINEW_E_NOMEM;
    size_t npx = (size_t)ex->o.width * ex->o.height;
    memcpy(g->work, rgba, ex->frame_bytes);
    uint8_t *p = g->work;
    uint32_t prev = 0;
    size_t prev_slot = 0;
    for (size_t i = 0; i < npx; i++, p += 4) {
        if (p[3] < 128) {
            memset(p, 0, 4);
            g->transparent_px++;
            continue;
        }
        p[3] = 255;
        uint32_t key = pack_rgba(p);
        if (key != prev) {
            prev_slot = ct_add(&g->ct, key);
            if (prev_slot == SIZE_MAX) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF colours)");
            prev = key;
        }
        if (g->ct.vals[prev_slot] != UINT32_MAX) g->ct.vals[prev_slot]++;
    }
    if (g->count == g->cap) {
        uint32_t cap = g->cap ? g->cap * 2u : 32u;
        packed_frame *n = sinew__realloc(ex->allocator, g->frames, g->cap * sizeof *n, cap * sizeof *n);
        if (!n) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF frames)");
        g->frames = n;
        g->cap = cap;
    }
    uLongf zlen = (uLongf)g->zcap;
    if (compress2(g->zbuf, &zlen, g->work, (uLong)ex->frame_bytes, 1) != Z_OK)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (deflating GIF frame %u)", g->count);
    uint8_t *z = sinew__alloc(ex->allocator, (size_t)zlen);
    if (!z) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF frame %u)", g->count);
    memcpy(z, g->zbuf, (size_t)zlen);
    g->frames[g->count++] = (packed_frame){z, (size_t)zlen};
    return SINEW_OK;
}

/* Frame k back into g->work. */
static sinew_status unpack_frame(sinew_exporter *ex, gif_state *g, uint32_t k, sinew_error *err) {
    uLongf len = (uLongf)ex->frame_bytes;
    if (uncompress(g->work, &len, g->frames[k].z, (uLong)g->frames[k].len) != Z_OK || len != ex->frame_bytes)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (inflating GIF frame %u)", k);
    return SINEW_OK;
}

static void gif_abort(sinew_exporter *ex) {
    gif_free_state(ex);
    sinew__tmp_discard(&ex->tmp);
}

/* The palette and how a frame's pixels map to it: built once, used frame by frame. */
typedef struct palette_map {
    int colors, transparent;  /* entries, and the transparent index (-1: none) */
    bool dither;
#ifdef SINEW_HAVE_IMAGEQUANT
    liq_attr *attr;
    liq_result *res;
#else
    uint8_t pal[256][4];
    uint32_t count;
#endif
} palette_map;

#ifdef SINEW_HAVE_IMAGEQUANT
/* ---- libimagequant on one OpenMP thread (see the top of the file) ---------------------------- */

typedef struct omp_limit {
    void (*set_num_threads)(int);
    int saved;
} omp_limit;

static void omp_limit_begin(omp_limit *l) {
    void *set = dlsym(RTLD_DEFAULT, "omp_set_num_threads"), *get = dlsym(RTLD_DEFAULT, "omp_get_max_threads");
    int (*get_max)(void) = NULL;
    l->set_num_threads = NULL;
    l->saved = 1;
    if (!set || !get) return;
    /* POSIX: dlsym results convert to function pointers; memcpy keeps ISO C quiet */
    memcpy(&l->set_num_threads, &set, sizeof set);
    memcpy(&get_max, &get, sizeof get);
    l->saved = get_max();
    l->set_num_threads(1);
}

static void omp_limit_end(const omp_limit *l) {
    if (l->set_num_threads) l->set_num_threads(l->saved > 0 ? l->saved : 1);
}
#endif

/* Without dithering: each pixel takes its colour's index from the table (ct.vals holds the
 * palette index of every distinct colour), transparent ones `tindex`. */
static void map_by_table(const color_table *ct, const uint8_t *px, size_t npx, uint8_t tindex, uint8_t *ik) {
    uint32_t prev = 0;
    uint8_t prev_index = tindex;
    for (size_t i = 0; i < npx; i++, px += 4) {
        uint32_t key = pack_rgba(px);
        if (key != prev) {
            prev = key;
            prev_index = key ? (uint8_t)ct->vals[ct_find(ct, key)] : tindex;
        }
        ik[i] = prev_index;
    }
}

#ifdef SINEW_HAVE_IMAGEQUANT
/* The palette (libimagequant, from the histogram of distinct colours). Without dithering every
 * distinct colour's index goes into ct.vals. */
static sinew_status build_palette(sinew_exporter *ex, color_table *ct, bool any_transparent, uint64_t transparent_px,
                                  GifColorType *palette, palette_map *m, sinew_error *err) {
    sinew_status st = SINEW_OK;
    liq_histogram *hist = NULL;
    liq_histogram_entry *entries = NULL;
    liq_color *ucolors = NULL;
    uint8_t *uindex = NULL;
    size_t entries_bytes = 0, ucolors_bytes = 0, uindex_bytes = 0;
    omp_limit omp;
    omp_limit_begin(&omp);
    /* the histogram: every distinct colour with its pixel count */
    size_t n_entries = ct->count + (any_transparent ? 1u : 0u);
    if (n_entries > (size_t)INT_MAX || !sinew__mul_size(n_entries, sizeof *entries, &entries_bytes) ||
        !(entries = sinew__alloc(ex->allocator, entries_bytes))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF histogram of %zu colours)", n_entries);
        goto done;
    }
    size_t e = 0;
    for (size_t i = 0; i < ct->cap; i++) {
        if (!ct->keys[i]) continue;
        uint8_t c[4];
        memcpy(c, &ct->keys[i], 4);
        entries[e].color = (liq_color){c[0], c[1], c[2], c[3]};
        entries[e].count = ct->vals[i];
        ct->vals[i] = (uint32_t)e++;
    }
    if (any_transparent)
        entries[e++] = (liq_histogram_entry){{0, 0, 0, 0}, transparent_px > UINT32_MAX ? UINT32_MAX : (unsigned)transparent_px};

    m->attr = liq_attr_create();
    if (!m->attr || !(hist = liq_histogram_create(m->attr))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (quantizer)");
        goto done;
    }
    /* one slot stays free for the "unchanged" transparent index when the frames have no transparency */
    liq_set_max_colors(m->attr, any_transparent ? 256 : 255);
    int q = ex->o.quality > 0 ? (int)ex->o.quality : 100;
    liq_set_quality(m->attr, 0, q);
    liq_set_speed(m->attr, GIF_LIQ_SPEED);
    if (liq_histogram_add_colors(hist, m->attr, entries, (int)n_entries, 0.0) != LIQ_OK ||
        liq_histogram_quantize(hist, m->attr, &m->res) != LIQ_OK) {
        st = sinew__fail(err, SINEW_E_RENDER, NULL, "colour quantization failed");
        goto done;
    }
    m->dither = ex->o.dither >= 0;
    liq_set_dithering_level(m->res, m->dither ? 1.0f : 0.0f);
    const liq_palette *pal = liq_get_palette(m->res);
    int colors = (int)pal->count, transparent = -1;
    for (int i = 0; i < colors; i++)
        if (pal->entries[i].a < 128) transparent = i;
    if (transparent < 0 && colors < 256) transparent = colors++;
    for (int i = 0; i < 256; i++) {
        GifColorType c = {0, 0, 0};
        if (i < (int)pal->count) c = (GifColorType){pal->entries[i].r, pal->entries[i].g, pal->entries[i].b};
        palette[i] = c;
    }
    m->colors = colors;
    m->transparent = transparent;
    if (!m->dither && ct->count > 0) {
        /* remap the distinct colours once, as rows of up to 4096 pixels (the last row padded) */
        size_t uw = ct->count < 4096 ? ct->count : 4096, uh = (ct->count + uw - 1) / uw;
        if (!sinew__mul_size(uw * uh, sizeof *ucolors, &ucolors_bytes) ||
            !(ucolors = sinew__alloc(ex->allocator, ucolors_bytes)) || !(uindex = sinew__alloc(ex->allocator, uw * uh))) {
            st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF colours)");
            goto done;
        }
        uindex_bytes = uw * uh;
        for (size_t i = 0; i < uw * uh; i++) ucolors[i] = entries[i < ct->count ? i : ct->count - 1].color;
        liq_image *img = liq_image_create_rgba(m->attr, ucolors, (int)uw, (int)uh, 0);
        if (!img || liq_write_remapped_image(m->res, img, uindex, uw * uh) != LIQ_OK)
            st = sinew__fail(err, SINEW_E_RENDER, NULL, "palette mapping failed");
        if (img) liq_image_destroy(img);
        if (st) goto done;
        for (size_t i = 0; i < ct->cap; i++)
            if (ct->keys[i]) ct->vals[i] = uindex[ct->vals[i]];
    }
done:
    omp_limit_end(&omp);
    if (entries) sinew__free(ex->allocator, entries, entries_bytes);
    if (ucolors) sinew__free(ex->allocator, ucolors, ucolors_bytes);
    if (uindex) sinew__free(ex->allocator, uindex, uindex_bytes);
    if (hist) liq_histogram_destroy(hist);
    return st;
}

static void palette_map_free(palette_map *m) {
    if (m->res) liq_result_destroy(m->res);
    if (m->attr) liq_attr_destroy(m->attr);
    m->res = NULL;
    m->attr = NULL;
}

/* Frame `px` (1-bit transparent, straight) as palette indices; transparent pixels all use one. */
static sinew_status frame_indices(sinew_exporter *ex, const color_table *ct, const palette_map *m, uint8_t *px,
                                  uint32_t k, uint8_t *ik, sinew_error *err) {
    uint32_t W = ex->o.width, H = ex->o.height;
    size_t npx = (size_t)W * H;
    uint8_t tindex = (uint8_t)(m->transparent >= 0 ? m->transparent : 0);
    if (m->dither) {
        omp_limit omp;
        omp_limit_begin(&omp);
        sinew_status st = SINEW_OK;
        liq_image *img = liq_image_create_rgba(m->attr, px, (int)W, (int)H, 0);
        if (!img || liq_write_remapped_image(m->res, img, ik, npx) != LIQ_OK)
            st = sinew__fail(err, SINEW_E_RENDER, NULL, "palette mapping failed on frame %u", k);
        if (img) liq_image_destroy(img);
        omp_limit_end(&omp);
        for (size_t i = 0; i < npx; i++)
            if (px[4 * i + 3] == 0) ik[i] = tindex;
        return st;
    }
    map_by_table(ct, px, npx, tindex, ik);
    return SINEW_OK;
}
#else
/* The palette (sinew's own quantizer, export/quant.h, from the histogram of distinct opaque
 * colours: 255 of them at most, the last index transparent). Without dithering every distinct
 * colour's index goes into ct.vals. */
static sinew_status build_palette(sinew_exporter *ex, color_table *ct, bool any_transparent, uint64_t transparent_px,
                                  GifColorType *palette, palette_map *m, sinew_error *err) {
    (void)any_transparent;
    (void)transparent_px;
    size_t hbytes = 0;
    sinew_quant_color *hist = NULL;
    if (!sinew__mul_size(ct->count ? ct->count : 1, sizeof *hist, &hbytes) ||
        !(hist = sinew__alloc(ex->allocator, hbytes)))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF histogram of %zu colours)", ct->count);
    size_t e = 0;
    for (size_t i = 0; i < ct->cap; i++) {
        if (!ct->keys[i]) continue;
        uint8_t c[4];
        memcpy(c, &ct->keys[i], 4);
        hist[e] = (sinew_quant_color){c[0], c[1], c[2], 255, ct->vals[i]};
        ct->vals[i] = (uint32_t)e++;
    }
    uint32_t count = sinew__quant_palette(hist, e, 255, ex->allocator, m->pal);
    if (!count) {
        sinew__free(ex->allocator, hist, hbytes);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF palette)");
    }
    m->count = count;
    for (int i = 0; i < 256; i++)
        palette[i] = i < (int)count ? (GifColorType){m->pal[i][0], m->pal[i][1], m->pal[i][2]} : (GifColorType){0, 0, 0};
    m->transparent = (int)count;
    m->colors = (int)count + 1;
    m->dither = ex->o.dither >= 0;
    if (!m->dither) /* each distinct colour's nearest entry, once */
        for (size_t i = 0; i < ct->cap; i++)
            if (ct->keys[i])
                ct->vals[i] = sinew__quant_nearest((const uint8_t(*)[4])m->pal, count, hist[ct->vals[i]].r,
                                                   hist[ct->vals[i]].g, hist[ct->vals[i]].b);
    sinew__free(ex->allocator, hist, hbytes);
    return SINEW_OK;
}

static void palette_map_free(palette_map *m) { (void)m; }

/* Frame `px` (1-bit transparent, straight) as palette indices; transparent pixels use the last. */
static sinew_status frame_indices(sinew_exporter *ex, const color_table *ct, const palette_map *m, uint8_t *px,
                                  uint32_t k, uint8_t *ik, sinew_error *err) {
    (void)k;
    uint32_t W = ex->o.width, H = ex->o.height;
    size_t npx = (size_t)W * H;
    uint8_t tindex = (uint8_t)m->transparent;
    if (m->dither) {
        if (!sinew__quant_remap_dither(px, W, H, (const uint8_t(*)[4])m->pal, m->count, tindex, ik, ex->allocator))
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF dithering)");
        return SINEW_OK;
    }
    map_by_table(ct, px, npx, tindex, ik);
    return SINEW_OK;
}
#endif

/* The temporary file and the GIF's header: screen, global palette, and the NETSCAPE2.0 loop
 * count unless the GIF plays once. */
static sinew_status gif_open(sinew_exporter *ex, int bits, const ColorMapObject *map, GifFileType **out,
                             sinew_error *err) {
    sinew_status st = sinew__tmp_open(ex->o.path, ex->allocator, &ex->tmp, err);
    if (st != SINEW_OK) return st;
    int gerr = 0;
    GifFileType *gif = EGifOpen(ex->tmp.f, gif_write_cb, &gerr);
    if (!gif) return gif_fail(ex, gerr, err);
    *out = gif;
    EGifSetGifVersion(gif, true);
    if (EGifPutScreenDesc(gif, (int)ex->o.width, (int)ex->o.height, bits, 0, map) == GIF_ERROR)
        return gif_fail(ex, gif->Error, err);
    if (ex->o.plays != 1) {
        /* NETSCAPE2.0: repeat count after the first play; 0 = forever */
        uint32_t rep = ex->o.plays == 0 ? 0 : ex->o.plays - 1;
        if (rep > 65535) rep = 65535;
        GifByteType app[11], sub[3] = {1, (GifByteType)(rep & 255), (GifByteType)(rep >> 8)};
        memcpy(app, "NETSCAPE2.0", 11);
        if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(gif, 11, app) == GIF_ERROR || EGifPutExtensionBlock(gif, 3, sub) == GIF_ERROR ||
            EGifPutExtensionTrailer(gif) == GIF_ERROR)
            return gif_fail(ex, gif->Error, err);
    }
    return SINEW_OK;
}

/* The rectangle around the pixels where index image `a` differs from `b` (empty: none). */
static rect diff_rect(const uint8_t *a, const uint8_t *b, uint32_t W, uint32_t H) {
    rect r = {0, 0, 0, 0};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            if (a[i] != b[i]) rect_add(&r, x, y);
        }
    return r;
}

/* The rectangle around the pixels transparent in `next` but not in `prev`. */
static rect cleared_rect(const uint8_t *next, const uint8_t *prev, uint8_t transparent, uint32_t W, uint32_t H) {
    rect r = {0, 0, 0, 0};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            if (next[i] == transparent && prev[i] != transparent) rect_add(&r, x, y);
        }
    return r;
}

static sinew_status gif_end(sinew_exporter *ex, sinew_error *err) {
    uint32_t W = ex->o.width, H = ex->o.height;
    size_t npx = (size_t)W * H;
    gif_state *g = ex->state;
    uint32_t n = g ? g->count : 0;
    if (n == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    if (W > 65535 || H > 65535) return sinew__fail(err, SINEW_E_RANGE, NULL, "GIF frames are limited to 65535 pixels");

    sinew_status st = SINEW_OK;
    uint8_t *cur = NULL, *pend = NULL, *canvas = NULL;
    GifFileType *gif = NULL;
    ColorMapObject *map = NULL;
    palette_map pm;
    memset(&pm, 0, sizeof pm);
    bool any_transparent = g->transparent_px > 0;

    /* the palette; then frame by frame: its index image, compared with the previous one */
    if (!(cur = sinew__alloc(ex->allocator, npx)) || !(pend = sinew__alloc(ex->allocator, npx)) ||
        !(canvas = sinew__alloc(ex->allocator, npx))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF frames)");
        goto done;
    }
    GifColorType palette[256];
    st = build_palette(ex, &g->ct, any_transparent, g->transparent_px, palette, &pm, err);
    if (st) goto done;
    int colors = pm.colors, transparent = pm.transparent;
    int bits = 1;
    while ((1 << bits) < colors) bits++;
    map = GifMakeMapObject(1 << bits, NULL);
    if (!map) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (GIF palette)");
        goto done;
    }
    for (int i = 0; i < (1 << bits); i++) map->Colors[i] = palette[i];

    if ((st = gif_open(ex, bits, map, &gif, err)) != SINEW_OK) goto done;

    /* frames: the canvas is what a viewer shows before the frame is drawn */
    memset(canvas, transparent >= 0 ? transparent : 0, npx);
    double fps = ex->o.fps;
    bool have_pending = false;
    rect pend_r = {0, 0, 0, 0};
    int pend_disp = DISPOSAL_UNSPECIFIED;
    uint32_t pend_start = 0;
    /* the canvas before the pending frame (needed to write its unchanged pixels as transparent) */
    uint8_t *before = ex->scratch + W;  /* scratch holds W*H*4 bytes: line buffer + one index image */
    for (uint32_t k = 0; k <= n && !st; k++) {
        const uint8_t *ik = NULL;
        if (k < n) { /* frame k's index image, into cur (pend keeps the pending frame's) */
            if ((st = unpack_frame(ex, g, k, err)) != SINEW_OK ||
                (st = frame_indices(ex, &g->ct, &pm, g->work, k, cur, err)) != SINEW_OK)
                break;
            ik = cur;
        }
        rect changed = {0, 0, 0, 0}, clear = {0, 0, 0, 0};
        if (ik) changed = diff_rect(ik, canvas, W, H);
        if (k == 0) changed = (rect){0, 0, W, H};
        /* the pending frame's disposal depends on frame k (pixels turning transparent) */
        if (have_pending && ik && transparent >= 0) clear = cleared_rect(ik, pend, (uint8_t)transparent, W, H);
        if (ik && changed.x1 <= changed.x0 && clear.x1 <= clear.x0) continue;  /* identical: longer delay */
        if (have_pending) {
            rect r = pend_r;
            if (clear.x1 > clear.x0) {
                r = rect_union(r, clear);
                pend_disp = DISPOSE_BACKGROUND;
            }
            int t0 = (int)lround(100.0 * pend_start / fps), t1 = (int)lround(100.0 * k / fps);
            st = put_frame(ex, gif, pend, before, r, t1 - t0, pend_disp, transparent, err);
            if (st) break;
            if (pend_disp == DISPOSE_BACKGROUND) {
                for (uint32_t y = r.y0; y < r.y1; y++) memset(canvas + (size_t)y * W + r.x0, transparent, r.x1 - r.x0);
                /* the frame after the clear must redraw what the clear removed */
                if (ik) changed = diff_rect(ik, canvas, W, H);
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
        pend_start = k;
        uint8_t *t = pend; /* frame k is the pending one now */
        pend = cur;
        cur = t;
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
    palette_map_free(&pm);
    gif_free_state(ex);
    if (gif) {
        int ce;
        EGifCloseFile(gif, &ce);
    }
    if (map) GifFreeMapObject(map);
    if (cur) sinew__free(ex->allocator, cur, npx);
    if (pend) sinew__free(ex->allocator, pend, npx);
    if (canvas) sinew__free(ex->allocator, canvas, npx);
    return st;
}

const char *sinew_gif_quantizer(void) {
#ifdef SINEW_HAVE_IMAGEQUANT
    return "libimagequant (GPL-3.0-or-later)";
#else
    return "sinew (MIT)";
#endif
}

const sinew__backend sinew__gif_backend = {gif_frame, gif_end, gif_abort};
