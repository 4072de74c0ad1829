/*
 * Sprite sheet: every frame trimmed to its visible pixels (unless no_trim), identical frames stored
 * once, shelf packed (tallest first) into pages of at most max_width x max_height with `padding`
 * pixels between frames and around the edge and `extrude` pixels of each frame's edge repeated
 * around it, plus an atlas (sinew_sheet_format):
 * - dragonbones: {"name", "imagePath", "width", "height", "SubTexture": [{"name", "x", "y", "width",
 *   "height", "frameX", "frameY", "frameWidth", "frameHeight"}]}, frameX/Y the negated offset of
 *   the trimmed rectangle inside the full frame; one file per page;
 * - json-hash / json-array: TexturePacker's "frame", "spriteSourceSize", "sourceSize", "trimmed",
 *   "rotated" (always false), "meta"; json-array one file per page, json-hash one file (several
 *   pages: Phaser 3's multiatlas "textures" list);
 * - godot: a Godot 4 SpriteFrames .tres, one AtlasTexture per distinct frame (region, and the
 *   trimmed-away border as margin), animation "default" at the export's fps.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/num.h"
#include "export/export_internal.h"
#include "sinew/render.h" /* SINEW_MAX_IMAGE_SIDE */

static sinew_status sheet_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    return sinew__frames_push(ex, rgba, err);
}

static void sheet_abort(sinew_exporter *ex) {
    sinew__tmp_discard(&ex->tmp);
    sinew__tmp_discard(&ex->tmp2);
}

typedef struct trim {
    uint32_t x, y, w, h;     /* visible rectangle inside the frame (1x1 at 0,0 if empty) */
    uint64_t hash;
    uint32_t same_as;        /* index of the first identical frame, or itself */
    uint32_t px, py;         /* position in the sheet */
} trim;

static uint64_t hash_rect(const uint8_t *rgba, uint32_t W, const trim *t) {
    uint64_t h = 1469598103934665603ull;
    for (uint32_t y = 0; y < t->h; y++) {
        const uint8_t *row = rgba + ((size_t)(t->y + y) * W + t->x) * 4u;
        for (size_t i = 0; i < (size_t)t->w * 4u; i++) h = (h ^ row[i]) * 1099511628211ull;
    }
    return h ^ ((uint64_t)t->w << 32) ^ t->h;
}

static bool same_rect(const uint8_t *a, const trim *ta, const uint8_t *b, const trim *tb, uint32_t W) {
    if (ta->w != tb->w || ta->h != tb->h || ta->hash != tb->hash) return false;
    for (uint32_t y = 0; y < ta->h; y++)
        if (memcmp(a + ((size_t)(ta->y + y) * W + ta->x) * 4u, b + ((size_t)(tb->y + y) * W + tb->x) * 4u,
                   (size_t)ta->w * 4u) != 0)
            return false;
    return true;
}

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') sinew__fprintf(f, "\\%c", c);
        else if (c < 0x20) sinew__fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}


typedef struct order_item {
    uint32_t index, h;
} order_item;

static int cmp_items(const void *a, const void *b) {
    const order_item *x = a, *y = b;
    if (x->h != y->h) return x->h > y->h ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

#define MAX_PAGES 64u

typedef struct page {
    uint32_t w, h;
    uint8_t *px;
    size_t bytes;
    char *png_path, *png_name;   /* path written, and its file name for the atlas */
} page;

static uint32_t pow2_up(uint32_t v, uint32_t cap) {
    uint32_t p = 1;
    while (p < v && p < cap) p <<= 1;
    return p > cap ? cap : p;
}

/* A copy of "PREFIX[-K]SUFFIX" (the -K only when there are several pages), strlen + 1 bytes from `a`. */
static char *page_name(const sinew_allocator *a, const char *prefix, size_t prefix_len, uint32_t k, uint32_t pages,
                       const char *suffix) {
    char num[16] = "";
    if (pages > 1) snprintf(num, sizeof num, "-%u", k);
    size_t n = prefix_len + strlen(num) + strlen(suffix) + 1;
    char *out = sinew__alloc(a, n);
    if (out) snprintf(out, n, "%.*s%s%s", (int)prefix_len, prefix, num, suffix);
    return out;
}

/* "BASE-K.EXT" (or BASE.EXT when there is one page) from a path ending in .EXT (or no extension) */
static char *paged_path(const sinew_allocator *a, const char *path, const char *ext, uint32_t k, uint32_t pages) {
    size_t len = strlen(path), el = strlen(ext);
    size_t base = len >= el && strcmp(path + len - el, ext) == 0 ? len - el : len;
    return page_name(a, path, base, k, pages, ext);
}

static void free_str(const sinew_allocator *a, char *s) {
    if (s) sinew__free(a, s, strlen(s) + 1);
}

static const char *file_name(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* one entry's geometry in the usual TexturePacker terms */
static void tp_frame(FILE *f, const trim *s, const trim *own, uint32_t W, uint32_t H) {
    sinew__fprintf(f,
            "\"frame\": {\"x\": %u, \"y\": %u, \"w\": %u, \"h\": %u}, \"rotated\": false, \"trimmed\": %s, "
            "\"spriteSourceSize\": {\"x\": %u, \"y\": %u, \"w\": %u, \"h\": %u}, \"sourceSize\": {\"w\": %u, \"h\": %u}",
            s->px, s->py, own->w, own->h, (own->w != W || own->h != H) ? "true" : "false", own->x, own->y, own->w,
            own->h, W, H);
}

static void tp_meta(FILE *f, const page *pg, bool premul) {
    fputs("\"meta\": {\"app\": \"sinew\", \"version\": \"" SINEW_VERSION_STRING "\", \"image\": ", f);
    json_string(f, pg->png_name);
    sinew__fprintf(f, ", \"format\": \"RGBA8888\", \"size\": {\"w\": %u, \"h\": %u}, \"scale\": \"1\", \"premultipliedAlpha\": %s}",
            pg->w, pg->h, premul ? "true" : "false");
}

static sinew_status sheet_end(sinew_exporter *ex, sinew_error *err) {
    uint32_t n = ex->frames.count, W = ex->o.width, H = ex->o.height;
    if (n == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    const sinew_sheet_options *so = &ex->o.sheet;
    const uint32_t pad = so->padding, ext = so->extrude;
    uint32_t maxw = so->max_width ? so->max_width : SINEW_MAX_IMAGE_SIDE;
    uint32_t maxh = so->max_height ? so->max_height : SINEW_MAX_IMAGE_SIDE;
    if (so->pow2) { /* pages are powers of two: the largest that fits the limit */
        uint32_t p = 1;
        while (p * 2 <= maxw) p *= 2;
        maxw = p;
        for (p = 1; p * 2 <= maxh;) p *= 2;
        maxh = p;
    }
    const sinew_allocator *a = ex->allocator;
    trim *t = sinew__calloc(a, n, sizeof *t);
    order_item *order = sinew__calloc(a, n, sizeof *order);
    page pages[MAX_PAGES];
    sinew__tmpfile ptmp[MAX_PAGES], jtmp[MAX_PAGES];
    char *jpaths[MAX_PAGES];
    memset(pages, 0, sizeof pages);
    memset(ptmp, 0, sizeof ptmp);
    memset(jtmp, 0, sizeof jtmp);
    memset(jpaths, 0, sizeof jpaths);
    uint32_t np = 0, nj = 0;
    sinew_status st = SINEW_OK;
    if (!t || !order) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet)");
        goto done;
    }
    /* trim and deduplicate */
    uint32_t unique = 0;
    uint64_t area = 0;
    uint32_t widest = 1;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *p = ex->frames.data[k];
        uint32_t x0 = 0, y0 = 0, x1 = W, y1 = H;
        if (!so->no_trim) {
            x0 = W, y0 = H, x1 = 0, y1 = 0;
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++)
                    if (p[((size_t)y * W + x) * 4u + 3]) {
                        if (x < x0) x0 = x;
                        if (x + 1 > x1) x1 = x + 1;
                        if (y < y0) y0 = y;
                        if (y + 1 > y1) y1 = y + 1;
                    }
            if (x1 <= x0) x0 = y0 = 0, x1 = y1 = 1;
        }
        t[k] = (trim){x0, y0, x1 - x0, y1 - y0, 0, k, 0, 0};
        t[k].hash = hash_rect(p, W, &t[k]);
        for (uint32_t j = 0; j < k; j++)
            if (t[j].same_as == j && same_rect(ex->frames.data[j], &t[j], p, &t[k], W)) {
                t[k].same_as = j;
                break;
            }
        if (t[k].same_as != k) continue;
        uint64_t cw = (uint64_t)t[k].w + 2u * ext + 2u * pad, ch = (uint64_t)t[k].h + 2u * ext + 2u * pad;
        if (cw > maxw || ch > maxh) {
            st = sinew__fail(err, SINEW_E_LIMIT, NULL,
                             "frame %u is %ux%u pixels (%llux%llu with extrude %u and padding %u), more than "
                             "the page size %ux%u (--max-size%s)",
                             k, t[k].w, t[k].h, (unsigned long long)cw, (unsigned long long)ch, ext, pad, maxw, maxh,
                             so->pow2 ? ", rounded down to powers of two for --pow2" : "");
            goto done;
        }
        order[unique++] = (order_item){k, t[k].h};
        area += (cw - pad) * (ch - pad);
        if (cw > widest) widest = (uint32_t)cw;
    }
    /* shelf packing, tallest first, into roughly square pages of at most maxw x maxh */
    qsort(order, unique, sizeof *order, cmp_items);
    uint32_t pw = widest;
    {
        uint64_t side = 1;
        while (side * side < area) side++;
        if (side + pad > pw) pw = (uint32_t)(side + pad < maxw ? side + pad : maxw);
    }
    if (pw > maxw) pw = maxw;
    uint32_t cx = pad, cy = pad, shelf = 0;
    np = 1;
    for (uint32_t i = 0; i < unique; i++) {
        trim *f = &t[order[i].index];
        uint32_t cw = f->w + 2 * ext, ch = f->h + 2 * ext;
        if (cx > pad && cx + cw + pad > pw) { /* next shelf */
            cx = pad;
            cy += shelf + pad;
            shelf = 0;
        }
        if (cy + ch + pad > maxh) { /* next page */
            if (np == MAX_PAGES) {
                st = sinew__fail(err, SINEW_E_LIMIT, NULL, "the frames need more than %u pages of %ux%u", MAX_PAGES,
                                 maxw, maxh);
                goto done;
            }
            np++;
            cx = cy = pad;
            shelf = 0;
        }
        f->px = cx + ext;
        f->py = cy + ext;
        f->hash = np - 1; /* deduplication is done: the hash field now holds the frame's page */
        cx += cw + pad;
        if (ch > shelf) shelf = ch;
        page *pg = &pages[np - 1];
        if (f->px + f->w + ext + pad > pg->w) pg->w = f->px + f->w + ext + pad;
        if (f->py + f->h + ext + pad > pg->h) pg->h = f->py + f->h + ext + pad;
    }
    const char *png_ext = ".png";
    for (uint32_t k = 0; k < np; k++) {
        page *pg = &pages[k];
        if (pg->w == 0) pg->w = 1;
        if (pg->h == 0) pg->h = 1;
        if (so->pow2) {
            pg->w = pow2_up(pg->w, maxw);
            pg->h = pow2_up(pg->h, maxh);
        }
        pg->bytes = (size_t)pg->w * pg->h * 4u;
        pg->px = sinew__calloc(a, pg->bytes, 1);
        pg->png_path = paged_path(a, ex->o.path, png_ext, k, np);
        if (!pg->px || !pg->png_path) {
            st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet page %ux%u)", pg->w, pg->h);
            goto done;
        }
        pg->png_name = (char *)file_name(pg->png_path);
    }
    /* the pixels: each frame, its edge extruded, optionally premultiplied */
    for (uint32_t i = 0; i < unique; i++) {
        const trim *f = &t[order[i].index];
        const uint8_t *p = ex->frames.data[order[i].index];
        page *pg = &pages[f->hash];
        for (int64_t y = -(int64_t)ext; y < (int64_t)f->h + ext; y++) {
            int64_t sy = y < 0 ? 0 : (y >= f->h ? f->h - 1 : y);
            for (int64_t x = -(int64_t)ext; x < (int64_t)f->w + ext; x++) {
                int64_t sx = x < 0 ? 0 : (x >= f->w ? f->w - 1 : x);
                const uint8_t *src = p + ((size_t)(f->y + (uint32_t)sy) * W + f->x + (uint32_t)sx) * 4u;
                uint8_t *dst = pg->px + ((size_t)((int64_t)f->py + y) * pg->w + (size_t)((int64_t)f->px + x)) * 4u;
                if (so->premultiplied) {
                    for (int c = 0; c < 3; c++) dst[c] = (uint8_t)((src[c] * src[3] + 127u) / 255u);
                    dst[3] = src[3];
                } else {
                    memcpy(dst, src, 4);
                }
            }
        }
    }
    /* the atlas file(s): dragonbones and json-array one per page, json-hash and godot one */
    bool per_page = so->format == SINEW_SHEET_DRAGONBONES || so->format == SINEW_SHEET_JSON_ARRAY;
    const char *aext = so->format == SINEW_SHEET_GODOT ? ".tres" : ".json";
    const char *jbase = ex->o.sheet_json ? ex->o.sheet_json : ex->o.path;
    nj = per_page ? np : 1;
    for (uint32_t k = 0; k < nj; k++) {
        jpaths[k] = paged_path(a, jbase, ex->o.sheet_json ? (strrchr(jbase, '.') ? strrchr(jbase, '.') : "") : ".png",
                               k, nj);
        if (!jpaths[k]) {
            st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            goto done;
        }
        if (!ex->o.sheet_json) { /* OUT.png -> OUT.json / OUT.tres */
            size_t l = strlen(jpaths[k]);
            char *q = page_name(a, jpaths[k], l >= 4 && strcmp(jpaths[k] + l - 4, ".png") == 0 ? l - 4 : l, 0, 1, aext);
            free_str(a, jpaths[k]);
            jpaths[k] = q;
            if (!q) {
                st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
                goto done;
            }
        }
        if ((st = sinew__check_not_input(jpaths[k], ex->o.inputs, ex->o.input_count, err)) != SINEW_OK) goto done;
    }
    for (uint32_t k = 0; k < np; k++) {
        if ((st = sinew__check_not_input(pages[k].png_path, ex->o.inputs, ex->o.input_count, err)) != SINEW_OK ||
            (st = sinew__tmp_open(pages[k].png_path, ex->allocator, &ptmp[k], err)) != SINEW_OK ||
            (st = sinew__png_encode(ptmp[k].f, pages[k].png_path, pages[k].px, pages[k].w, pages[k].h, 0, err)) != SINEW_OK)
            goto done;
    }
    for (uint32_t k = 0; k < nj; k++) {
        if ((st = sinew__tmp_open(jpaths[k], ex->allocator, &jtmp[k], err)) != SINEW_OK) goto done;
        FILE *f = jtmp[k].f;
        switch (so->format) {
        case SINEW_SHEET_DRAGONBONES: {
            const page *pg = &pages[k];
            size_t bl = strlen(pg->png_name);
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(bl >= 4 ? bl - 4 : bl), pg->png_name);
            fputs("{\n  \"name\": ", f);
            json_string(f, name);
            fputs(",\n  \"imagePath\": ", f);
            json_string(f, pg->png_name);
            sinew__fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n  \"frameRate\": %.9g,%s\n  \"SubTexture\": [\n", pg->w,
                    pg->h, ex->o.fps, so->premultiplied ? "\n  \"premultipliedAlpha\": true," : "");
            bool first = true;
            for (uint32_t i = 0; i < n; i++) {
                const trim *s = &t[t[i].same_as], *own = &t[i];
                if (s->hash != k) continue;
                sinew__fprintf(f,
                        "%s    {\"name\": \"frame_%04u\", \"x\": %u, \"y\": %u, \"width\": %u, \"height\": %u, "
                        "\"frameX\": %d, \"frameY\": %d, \"frameWidth\": %u, \"frameHeight\": %u}",
                        first ? "" : ",\n", i, s->px, s->py, own->w, own->h, -(int)own->x, -(int)own->y, W, H);
                first = false;
            }
            fputs("\n  ]\n}\n", f);
            break;
        }
        case SINEW_SHEET_JSON_ARRAY: {
            fputs("{\"frames\": [\n", f);
            bool first = true;
            for (uint32_t i = 0; i < n; i++) {
                const trim *s = &t[t[i].same_as];
                if (s->hash != k) continue;
                sinew__fprintf(f, "%s  {\"filename\": \"frame_%04u\", ", first ? "" : ",\n", i);
                tp_frame(f, s, &t[i], W, H);
                fputc('}', f);
                first = false;
            }
            fputs("\n],\n", f);
            tp_meta(f, &pages[k], so->premultiplied);
            fputs("\n}\n", f);
            break;
        }
        case SINEW_SHEET_JSON_HASH:
            if (np == 1) {
                fputs("{\"frames\": {\n", f);
                for (uint32_t i = 0; i < n; i++) {
                    sinew__fprintf(f, "  \"frame_%04u\": {", i);
                    tp_frame(f, &t[t[i].same_as], &t[i], W, H);
                    sinew__fprintf(f, "}%s\n", i + 1 < n ? "," : "");
                }
                fputs("},\n", f);
                tp_meta(f, &pages[0], so->premultiplied);
                fputs("\n}\n", f);
            } else { /* Phaser 3 multiatlas */
                fputs("{\"textures\": [\n", f);
                for (uint32_t pk = 0; pk < np; pk++) {
                    fputs("  {\"image\": ", f);
                    json_string(f, pages[pk].png_name);
                    sinew__fprintf(f, ", \"format\": \"RGBA8888\", \"size\": {\"w\": %u, \"h\": %u}, \"scale\": 1, \"frames\": [\n",
                            pages[pk].w, pages[pk].h);
                    bool first = true;
                    for (uint32_t i = 0; i < n; i++) {
                        const trim *s = &t[t[i].same_as];
                        if (s->hash != pk) continue;
                        sinew__fprintf(f, "%s    {\"filename\": \"frame_%04u\", ", first ? "" : ",\n", i);
                        tp_frame(f, s, &t[i], W, H);
                        fputc('}', f);
                        first = false;
                    }
                    sinew__fprintf(f, "\n  ]}%s\n", pk + 1 < np ? "," : "");
                }
                fputs("],\n\"meta\": {\"app\": \"sinew\", \"version\": \"" SINEW_VERSION_STRING "\"}\n}\n", f);
            }
            break;
        case SINEW_SHEET_GODOT: {
            /* Godot 4: one AtlasTexture per distinct frame; margin = the trimmed-away border */
            sinew__fprintf(f, "[gd_resource type=\"SpriteFrames\" load_steps=%u format=3]\n\n", np + unique + 1);
            for (uint32_t pk = 0; pk < np; pk++) {
                fputs("[ext_resource type=\"Texture2D\" path=\"res://", f);
                fputs(pages[pk].png_name, f);
                sinew__fprintf(f, "\" id=\"%u_page\"]\n", pk + 1);
            }
            for (uint32_t i = 0; i < n; i++) {
                if (t[i].same_as != i) continue;
                const trim *s = &t[i];
                sinew__fprintf(f,
                        "\n[sub_resource type=\"AtlasTexture\" id=\"AtlasTexture_%u\"]\natlas = ExtResource(\"%u_page\")\n"
                        "region = Rect2(%u, %u, %u, %u)\nmargin = Rect2(%u, %u, %u, %u)\n",
                        i, (uint32_t)s->hash + 1, s->px, s->py, s->w, s->h, s->x, s->y, W - s->w, H - s->h);
            }
            fputs("\n[resource]\nanimations = [{\n\"frames\": [", f);
            for (uint32_t i = 0; i < n; i++)
                sinew__fprintf(f, "%s{\n\"duration\": 1.0,\n\"texture\": SubResource(\"AtlasTexture_%u\")\n}", i ? ", " : "",
                        t[i].same_as);
            sinew__fprintf(f, "],\n\"loop\": true,\n\"name\": &\"default\",\n\"speed\": %.9g\n}]\n", ex->o.fps);
            break;
        }
        }
    }
    for (uint32_t k = 0; k < np && st == SINEW_OK; k++) st = sinew__tmp_commit(&ptmp[k], err);
    for (uint32_t k = 0; k < nj && st == SINEW_OK; k++) st = sinew__tmp_commit(&jtmp[k], err);
done:
    /* an error names its file by pointer: not one of the names freed below (the message names it) */
    if (st != SINEW_OK && err)
        for (uint32_t k = 0; k < MAX_PAGES; k++)
            if (err->file && (err->file == pages[k].png_path || err->file == jpaths[k])) err->file = ex->o.path;
    for (uint32_t k = 0; k < MAX_PAGES; k++) {
        sinew__tmp_discard(&ptmp[k]);
        sinew__tmp_discard(&jtmp[k]);
        if (pages[k].px) sinew__free(a, pages[k].px, pages[k].bytes);
        free_str(a, pages[k].png_path);
        free_str(a, jpaths[k]);
    }
    if (t) sinew__free(a, t, n * sizeof *t);
    if (order) sinew__free(a, order, n * sizeof *order);
    return st;
}

const sinew__backend sinew__sheet_backend = {sheet_frame, sheet_end, sheet_abort};
