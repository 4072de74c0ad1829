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

/* One sheet being written: the frames' trims and places, the pages, and the files. */
typedef struct sheet {
    sinew_exporter *ex;
    const sinew_sheet_options *so;
    const sinew_allocator *a;
    uint32_t n, W, H;               /* frames and their size */
    uint32_t pad, ext, maxw, maxh;  /* padding, extrude, page limits */
    trim *t;                        /* per frame */
    order_item *order;              /* the distinct frames, tallest first */
    uint32_t unique;
    page pages[MAX_PAGES];
    uint32_t np;
    sinew__tmpfile files[2 * MAX_PAGES]; /* the pages' [0, np), then the atlases' [np, np + nj): one set */
    char *jpaths[MAX_PAGES];
    uint32_t nj;                    /* atlas files */
} sheet;

/* The page limits: --max-size, rounded down to powers of two with --pow2. */
static void page_limits(sheet *sh) {
    const sinew_sheet_options *so = sh->so;
    sh->maxw = so->max_width ? so->max_width : SINEW_MAX_IMAGE_SIDE;
    sh->maxh = so->max_height ? so->max_height : SINEW_MAX_IMAGE_SIDE;
    if (so->pow2) { /* pages are powers of two: the largest that fits the limit */
        uint32_t p = 1;
        while (p * 2 <= sh->maxw) p *= 2;
        sh->maxw = p;
        for (p = 1; p * 2 <= sh->maxh;) p *= 2;
        sh->maxh = p;
    }
}

/* The visible rectangle of frame k (the whole frame with no_trim; 1x1 at 0,0 when empty). */
static trim trim_frame(const sheet *sh, uint32_t k) {
    const uint8_t *p = sh->ex->frames.data[k];
    uint32_t W = sh->W, H = sh->H;
    uint32_t x0 = 0, y0 = 0, x1 = W, y1 = H;
    if (!sh->so->no_trim) {
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
    return (trim){x0, y0, x1 - x0, y1 - y0, 0, k, 0, 0};
}

/* Trims every frame and finds the identical ones; the distinct ones go to sh->order. *area and
 * *widest: what the distinct frames need, for the page width. */
static sinew_status trim_and_dedup(sheet *sh, uint64_t *area, uint32_t *widest, sinew_error *err) {
    const uint32_t pad = sh->pad, ext = sh->ext;
    trim *t = sh->t;
    *area = 0;
    *widest = 1;
    for (uint32_t k = 0; k < sh->n; k++) {
        const uint8_t *p = sh->ex->frames.data[k];
        t[k] = trim_frame(sh, k);
        t[k].hash = hash_rect(p, sh->W, &t[k]);
        for (uint32_t j = 0; j < k; j++)
            if (t[j].same_as == j && same_rect(sh->ex->frames.data[j], &t[j], p, &t[k], sh->W)) {
                t[k].same_as = j;
                break;
            }
        if (t[k].same_as != k) continue;
        uint64_t cw = (uint64_t)t[k].w + 2u * ext + 2u * pad, ch = (uint64_t)t[k].h + 2u * ext + 2u * pad;
        if (cw > sh->maxw || ch > sh->maxh)
            return sinew__fail(err, SINEW_E_LIMIT, NULL,
                               "frame %u is %ux%u pixels (%llux%llu with extrude %u and padding %u), more than "
                               "the page size %ux%u (--max-size%s)",
                               k, t[k].w, t[k].h, (unsigned long long)cw, (unsigned long long)ch, ext, pad, sh->maxw,
                               sh->maxh, sh->so->pow2 ? ", rounded down to powers of two for --pow2" : "");
        sh->order[sh->unique++] = (order_item){k, t[k].h};
        *area += (cw - pad) * (ch - pad);
        if (cw > *widest) *widest = (uint32_t)cw;
    }
    return SINEW_OK;
}

/* Shelf packing, tallest first, into roughly square pages of at most maxw x maxh. Sets each
 * distinct frame's place, and its page in its `hash` field (deduplication is done). */
static sinew_status pack_shelves(sheet *sh, uint64_t area, uint32_t widest, sinew_error *err) {
    const uint32_t pad = sh->pad, ext = sh->ext;
    qsort(sh->order, sh->unique, sizeof *sh->order, cmp_items);
    uint32_t pw = widest;
    {
        uint64_t side = 1;
        while (side * side < area) side++;
        if (side + pad > pw) pw = (uint32_t)(side + pad < sh->maxw ? side + pad : sh->maxw);
    }
    if (pw > sh->maxw) pw = sh->maxw;
    uint32_t cx = pad, cy = pad, shelf = 0;
    sh->np = 1;
    for (uint32_t i = 0; i < sh->unique; i++) {
        trim *f = &sh->t[sh->order[i].index];
        uint32_t cw = f->w + 2 * ext, ch = f->h + 2 * ext;
        if (cx > pad && cx + cw + pad > pw) { /* next shelf */
            cx = pad;
            cy += shelf + pad;
            shelf = 0;
        }
        if (cy + ch + pad > sh->maxh) { /* next page */
            if (sh->np == MAX_PAGES)
                return sinew__fail(err, SINEW_E_LIMIT, NULL, "the frames need more than %u pages of %ux%u", MAX_PAGES,
                                   sh->maxw, sh->maxh);
            sh->np++;
            cx = cy = pad;
            shelf = 0;
        }
        f->px = cx + ext;
        f->py = cy + ext;
        f->hash = sh->np - 1; /* deduplication is done: the hash field now holds the frame's page */
        cx += cw + pad;
        if (ch > shelf) shelf = ch;
        page *pg = &sh->pages[sh->np - 1];
        if (f->px + f->w + ext + pad > pg->w) pg->w = f->px + f->w + ext + pad;
        if (f->py + f->h + ext + pad > pg->h) pg->h = f->py + f->h + ext + pad;
    }
    return SINEW_OK;
}

/* Each page's final size, pixels and PNG path. */
static sinew_status make_pages(sheet *sh, sinew_error *err) {
    for (uint32_t k = 0; k < sh->np; k++) {
        page *pg = &sh->pages[k];
        if (pg->w == 0) pg->w = 1;
        if (pg->h == 0) pg->h = 1;
        if (sh->so->pow2) {
            pg->w = pow2_up(pg->w, sh->maxw);
            pg->h = pow2_up(pg->h, sh->maxh);
        }
        pg->bytes = (size_t)pg->w * pg->h * 4u;
        pg->px = sinew__calloc(sh->a, pg->bytes, 1);
        pg->png_path = paged_path(sh->a, sh->ex->o.path, ".png", k, sh->np);
        if (!pg->px || !pg->png_path)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet page %ux%u)", pg->w, pg->h);
        pg->png_name = (char *)file_name(pg->png_path);
    }
    return SINEW_OK;
}

/* The pixels: each distinct frame, its edge extruded, optionally premultiplied. */
static void blit_frames(sheet *sh) {
    const int64_t ext = sh->ext;
    for (uint32_t i = 0; i < sh->unique; i++) {
        const trim *f = &sh->t[sh->order[i].index];
        const uint8_t *p = sh->ex->frames.data[sh->order[i].index];
        page *pg = &sh->pages[f->hash];
        for (int64_t y = -ext; y < (int64_t)f->h + ext; y++) {
            int64_t sy = y < 0 ? 0 : (y >= f->h ? f->h - 1 : y);
            for (int64_t x = -ext; x < (int64_t)f->w + ext; x++) {
                int64_t sx = x < 0 ? 0 : (x >= f->w ? f->w - 1 : x);
                const uint8_t *src = p + ((size_t)(f->y + (uint32_t)sy) * sh->W + f->x + (uint32_t)sx) * 4u;
                uint8_t *dst = pg->px + ((size_t)((int64_t)f->py + y) * pg->w + (size_t)((int64_t)f->px + x)) * 4u;
                if (sh->so->premultiplied) {
                    for (int c = 0; c < 3; c++) dst[c] = (uint8_t)((src[c] * src[3] + 127u) / 255u);
                    dst[3] = src[3];
                } else {
                    memcpy(dst, src, 4);
                }
            }
        }
    }
}

/* The atlas file names: dragonbones and json-array one per page, json-hash and godot one; none
 * may be an input. */
static sinew_status atlas_paths(sheet *sh, sinew_error *err) {
    const sinew_export_options *o = &sh->ex->o;
    bool per_page = sh->so->format == SINEW_SHEET_DRAGONBONES || sh->so->format == SINEW_SHEET_JSON_ARRAY;
    const char *aext = sh->so->format == SINEW_SHEET_GODOT ? ".tres" : ".json";
    const char *jbase = o->sheet_json ? o->sheet_json : o->path;
    sh->nj = per_page ? sh->np : 1;
    for (uint32_t k = 0; k < sh->nj; k++) {
        sh->jpaths[k] = paged_path(sh->a, jbase, o->sheet_json ? (strrchr(jbase, '.') ? strrchr(jbase, '.') : "") : ".png",
                                   k, sh->nj);
        if (!sh->jpaths[k])
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        if (!o->sheet_json) { /* OUT.png -> OUT.json / OUT.tres */
            char *jp = sh->jpaths[k];
            size_t l = strlen(jp);
            char *q = page_name(sh->a, jp, l >= 4 && strcmp(jp + l - 4, ".png") == 0 ? l - 4 : l, 0, 1, aext);
            free_str(sh->a, jp);
            sh->jpaths[k] = q;
            if (!q)
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        }
        sinew_status st = sinew__check_not_input(sh->jpaths[k], o->inputs, o->input_count, err);
        if (st != SINEW_OK)
            return st;
    }
    return SINEW_OK;
}

/* Every page encoded into its temporary file. */
static sinew_status write_pages(sheet *sh, sinew_error *err) {
    const sinew_export_options *o = &sh->ex->o;
    sinew_status st = SINEW_OK;
    for (uint32_t k = 0; k < sh->np; k++) {
        const page *pg = &sh->pages[k];
        if ((st = sinew__check_not_input(pg->png_path, o->inputs, o->input_count, err)) != SINEW_OK ||
            (st = sinew__tmp_open(pg->png_path, sh->a, &sh->files[k], err)) != SINEW_OK ||
            (st = sinew__png_encode(sh->files[k].f, pg->png_path, pg->px, pg->w, pg->h, 0, err)) != SINEW_OK)
            return st;
    }
    return SINEW_OK;
}

/* DragonBones: one texture atlas per page. */
static void atlas_dragonbones(const sheet *sh, FILE *f, uint32_t k) {
    const trim *t = sh->t;
    const page *pg = &sh->pages[k];
    size_t bl = strlen(pg->png_name);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(bl >= 4 ? bl - 4 : bl), pg->png_name);
    fputs("{\n  \"name\": ", f);
    json_string(f, name);
    fputs(",\n  \"imagePath\": ", f);
    json_string(f, pg->png_name);
    sinew__fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n  \"frameRate\": %.9g,%s\n  \"SubTexture\": [\n", pg->w,
            pg->h, sh->ex->o.fps, sh->so->premultiplied ? "\n  \"premultipliedAlpha\": true," : "");
    bool first = true;
    for (uint32_t i = 0; i < sh->n; i++) {
        const trim *s = &t[t[i].same_as], *own = &t[i];
        if (s->hash != k) continue;
        sinew__fprintf(f,
                "%s    {\"name\": \"frame_%04u\", \"x\": %u, \"y\": %u, \"width\": %u, \"height\": %u, "
                "\"frameX\": %d, \"frameY\": %d, \"frameWidth\": %u, \"frameHeight\": %u}",
                first ? "" : ",\n", i, s->px, s->py, own->w, own->h, -(int)own->x, -(int)own->y, sh->W, sh->H);
        first = false;
    }
    fputs("\n  ]\n}\n", f);
}

/* The frames of page k as TexturePacker entries ("filename" first, array style). */
static void tp_frames_of_page(const sheet *sh, FILE *f, uint32_t k, const char *indent) {
    const trim *t = sh->t;
    bool first = true;
    for (uint32_t i = 0; i < sh->n; i++) {
        const trim *s = &t[t[i].same_as];
        if (s->hash != k) continue;
        sinew__fprintf(f, "%s%s{\"filename\": \"frame_%04u\", ", first ? "" : ",\n", indent, i);
        tp_frame(f, s, &t[i], sh->W, sh->H);
        fputc('}', f);
        first = false;
    }
}

/* TexturePacker's JSON (array): one file per page. */
static void atlas_json_array(const sheet *sh, FILE *f, uint32_t k) {
    fputs("{\"frames\": [\n", f);
    tp_frames_of_page(sh, f, k, "  ");
    fputs("\n],\n", f);
    tp_meta(f, &sh->pages[k], sh->so->premultiplied);
    fputs("\n}\n", f);
}

/* TexturePacker's JSON (hash): one file; several pages make Phaser 3's multiatlas. */
static void atlas_json_hash(const sheet *sh, FILE *f) {
    const trim *t = sh->t;
    if (sh->np == 1) {
        fputs("{\"frames\": {\n", f);
        for (uint32_t i = 0; i < sh->n; i++) {
            sinew__fprintf(f, "  \"frame_%04u\": {", i);
            tp_frame(f, &t[t[i].same_as], &t[i], sh->W, sh->H);
            sinew__fprintf(f, "}%s\n", i + 1 < sh->n ? "," : "");
        }
        fputs("},\n", f);
        tp_meta(f, &sh->pages[0], sh->so->premultiplied);
        fputs("\n}\n", f);
        return;
    }
    fputs("{\"textures\": [\n", f); /* Phaser 3 multiatlas */
    for (uint32_t pk = 0; pk < sh->np; pk++) {
        fputs("  {\"image\": ", f);
        json_string(f, sh->pages[pk].png_name);
        sinew__fprintf(f, ", \"format\": \"RGBA8888\", \"size\": {\"w\": %u, \"h\": %u}, \"scale\": 1, \"frames\": [\n",
                sh->pages[pk].w, sh->pages[pk].h);
        tp_frames_of_page(sh, f, pk, "    ");
        sinew__fprintf(f, "\n  ]}%s\n", pk + 1 < sh->np ? "," : "");
    }
    fputs("],\n\"meta\": {\"app\": \"sinew\", \"version\": \"" SINEW_VERSION_STRING "\"}\n}\n", f);
}

/* Godot 4: one AtlasTexture per distinct frame; margin = the trimmed-away border. */
static void atlas_godot(const sheet *sh, FILE *f) {
    const trim *t = sh->t;
    sinew__fprintf(f, "[gd_resource type=\"SpriteFrames\" load_steps=%u format=3]\n\n", sh->np + sh->unique + 1);
    for (uint32_t pk = 0; pk < sh->np; pk++) {
        fputs("[ext_resource type=\"Texture2D\" path=\"res://", f);
        fputs(sh->pages[pk].png_name, f);
        sinew__fprintf(f, "\" id=\"%u_page\"]\n", pk + 1);
    }
    for (uint32_t i = 0; i < sh->n; i++) {
        if (t[i].same_as != i) continue;
        const trim *s = &t[i];
        sinew__fprintf(f,
                "\n[sub_resource type=\"AtlasTexture\" id=\"AtlasTexture_%u\"]\natlas = ExtResource(\"%u_page\")\n"
                "region = Rect2(%u, %u, %u, %u)\nmargin = Rect2(%u, %u, %u, %u)\n",
                i, (uint32_t)s->hash + 1, s->px, s->py, s->w, s->h, s->x, s->y, sh->W - s->w, sh->H - s->h);
    }
    fputs("\n[resource]\nanimations = [{\n\"frames\": [", f);
    for (uint32_t i = 0; i < sh->n; i++)
        sinew__fprintf(f, "%s{\n\"duration\": 1.0,\n\"texture\": SubResource(\"AtlasTexture_%u\")\n}", i ? ", " : "",
                t[i].same_as);
    sinew__fprintf(f, "],\n\"loop\": true,\n\"name\": &\"default\",\n\"speed\": %.9g\n}]\n", sh->ex->o.fps);
}

/* Every atlas file written into its temporary file, in the chosen format. */
static sinew_status write_atlases(sheet *sh, sinew_error *err) {
    for (uint32_t k = 0; k < sh->nj; k++) {
        sinew_status st = sinew__tmp_open(sh->jpaths[k], sh->a, &sh->files[sh->np + k], err);
        if (st != SINEW_OK)
            return st;
        FILE *f = sh->files[sh->np + k].f;
        switch (sh->so->format) {
        case SINEW_SHEET_DRAGONBONES: atlas_dragonbones(sh, f, k); break;
        case SINEW_SHEET_JSON_ARRAY: atlas_json_array(sh, f, k); break;
        case SINEW_SHEET_JSON_HASH: atlas_json_hash(sh, f); break;
        case SINEW_SHEET_GODOT: atlas_godot(sh, f); break;
        }
    }
    return SINEW_OK;
}

static void sheet_free(sheet *sh, sinew_status st, sinew_error *err) {
    /* an error names its file by pointer: not one of the names freed below (the message names it) */
    if (st != SINEW_OK && err)
        for (uint32_t k = 0; k < MAX_PAGES; k++)
            if (err->file && (err->file == sh->pages[k].png_path || err->file == sh->jpaths[k]))
                err->file = sh->ex->o.path;
    for (uint32_t k = 0; k < 2 * MAX_PAGES; k++) sinew__tmp_discard(&sh->files[k]);
    for (uint32_t k = 0; k < MAX_PAGES; k++) {
        if (sh->pages[k].px) sinew__free(sh->a, sh->pages[k].px, sh->pages[k].bytes);
        free_str(sh->a, sh->pages[k].png_path);
        free_str(sh->a, sh->jpaths[k]);
    }
    if (sh->t) sinew__free(sh->a, sh->t, sh->n * sizeof *sh->t);
    if (sh->order) sinew__free(sh->a, sh->order, sh->n * sizeof *sh->order);
}

static sinew_status sheet_end(sinew_exporter *ex, sinew_error *err) {
    if (ex->frames.count == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    sheet sh;
    memset(&sh, 0, sizeof sh);
    sh.ex = ex;
    sh.so = &ex->o.sheet;
    sh.a = ex->allocator;
    sh.n = ex->frames.count;
    sh.W = ex->o.width;
    sh.H = ex->o.height;
    sh.pad = sh.so->padding;
    sh.ext = sh.so->extrude;
    page_limits(&sh);
    sh.t = sinew__calloc(sh.a, sh.n, sizeof *sh.t);
    sh.order = sinew__calloc(sh.a, sh.n, sizeof *sh.order);
    sinew_status st = SINEW_OK;
    uint64_t area;
    uint32_t widest;
    if (!sh.t || !sh.order)
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet)");
    if (st == SINEW_OK) st = trim_and_dedup(&sh, &area, &widest, err);
    if (st == SINEW_OK) st = pack_shelves(&sh, area, widest, err);
    if (st == SINEW_OK) st = make_pages(&sh, err);
    if (st == SINEW_OK) {
        blit_frames(&sh);
        st = atlas_paths(&sh, err);
    }
    if (st == SINEW_OK) st = write_pages(&sh, err);
    if (st == SINEW_OK) st = write_atlases(&sh, err);
    /* the pages and atlases renamed as one set: a failure leaves the previous sheet whole */
    if (st == SINEW_OK) st = sinew__tmp_commit_set(sh.files, sh.np + sh.nj, err);
    sheet_free(&sh, st, err);
    return st;
}

const sinew__backend sinew__sheet_backend = {sheet_frame, sheet_end, sheet_abort};
