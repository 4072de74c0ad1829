/*
 * Sprite sheet: every frame trimmed to its visible pixels, identical frames stored once, shelf
 * packed into one PNG, plus a JSON atlas in the DragonBones / TexturePacker style:
 *   {"name", "imagePath", "width", "height", "SubTexture": [{"name", "x", "y", "width", "height",
 *    "frameX", "frameY", "frameWidth", "frameHeight"}]}
 * where frameX/frameY are the negated offset of the trimmed rectangle inside the full frame.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "export/export_internal.h"

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
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
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

static sinew_status sheet_end(sinew_exporter *ex, sinew_error *err) {
    uint32_t n = ex->frames.count, W = ex->o.width, H = ex->o.height;
    if (n == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    const sinew_allocator *a = ex->allocator;
    trim *t = sinew__calloc(a, n, sizeof *t);
    order_item *order = sinew__calloc(a, n, sizeof *order);
    uint8_t *sheet = NULL;
    size_t sheet_bytes = 0;
    char *json_path = NULL;
    sinew_status st = SINEW_OK;
    if (!t || !order) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet)");
        goto done;
    }
    /* trim and deduplicate */
    uint32_t unique = 0;
    uint64_t area = 0;
    uint32_t maxw = 1;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *p = ex->frames.data[k];
        uint32_t x0 = W, y0 = H, x1 = 0, y1 = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                if (p[((size_t)y * W + x) * 4u + 3]) {
                    if (x < x0) x0 = x;
                    if (x + 1 > x1) x1 = x + 1;
                    if (y < y0) y0 = y;
                    if (y + 1 > y1) y1 = y + 1;
                }
        if (x1 <= x0) x0 = y0 = 0, x1 = y1 = 1;
        t[k] = (trim){x0, y0, x1 - x0, y1 - y0, 0, k, 0, 0};
        t[k].hash = hash_rect(p, W, &t[k]);
        for (uint32_t j = 0; j < k; j++)
            if (t[j].same_as == j && same_rect(ex->frames.data[j], &t[j], p, &t[k], W)) {
                t[k].same_as = j;
                break;
            }
        if (t[k].same_as == k) {
            order[unique++] = (order_item){k, t[k].h};
            area += (uint64_t)(t[k].w + 1) * (t[k].h + 1);
            if (t[k].w > maxw) maxw = t[k].w;
        }
    }
    /* shelf packing, tallest first, into a roughly square sheet */
    qsort(order, unique, sizeof *order, cmp_items);
    uint32_t sw = maxw;
    {
        uint32_t side = 1;
        while ((uint64_t)side * side < area) side++;
        if (side > sw) sw = side;
    }
    if (sw > SINEW_MAX_IMAGE_SIDE) sw = SINEW_MAX_IMAGE_SIDE;
    uint32_t cx = 0, cy = 0, shelf = 0, sh = 0;
    for (uint32_t i = 0; i < unique; i++) {
        trim *f = &t[order[i].index];
        if (cx > 0 && cx + f->w > sw) {
            cx = 0;
            cy += shelf + 1;
            shelf = 0;
        }
        f->px = cx;
        f->py = cy;
        cx += f->w + 1;
        if (f->h > shelf) shelf = f->h;
        if (cy + f->h > sh) sh = cy + f->h;
    }
    uint32_t used_w = 1;
    for (uint32_t i = 0; i < unique; i++) {
        trim *f = &t[order[i].index];
        if (f->px + f->w > used_w) used_w = f->px + f->w;
    }
    sw = used_w;
    if (sh > SINEW_MAX_IMAGE_SIDE) {
        st = sinew__fail(err, SINEW_E_LIMIT, NULL, "sprite sheet would be %ux%u pixels (limit %u)", sw, sh,
                         SINEW_MAX_IMAGE_SIDE);
        goto done;
    }
    sheet_bytes = (size_t)sw * sh * 4u;
    sheet = sinew__calloc(a, sheet_bytes, 1);
    if (!sheet) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (sprite sheet %ux%u)", sw, sh);
        goto done;
    }
    for (uint32_t i = 0; i < unique; i++) {
        const trim *f = &t[order[i].index];
        const uint8_t *p = ex->frames.data[order[i].index];
        for (uint32_t y = 0; y < f->h; y++)
            memcpy(sheet + ((size_t)(f->py + y) * sw + f->px) * 4u, p + ((size_t)(f->y + y) * W + f->x) * 4u,
                   (size_t)f->w * 4u);
    }
    /* JSON path: explicit, or the PNG path with .json */
    const char *jp = ex->o.sheet_json;
    if (!jp) {
        size_t len = strlen(ex->o.path);
        json_path = sinew__alloc(a, len + 6);
        if (!json_path) {
            st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            goto done;
        }
        memcpy(json_path, ex->o.path, len + 1);
        if (len >= 4 && strcmp(json_path + len - 4, ".png") == 0) json_path[len - 4] = '\0';
        strcat(json_path, ".json");
        jp = json_path;
    }
    if ((st = sinew__check_not_input(jp, ex->o.inputs, ex->o.input_count, err)) != SINEW_OK) goto done;
    if ((st = sinew__tmp_open(ex->o.path, &ex->tmp, err)) != SINEW_OK) goto done;
    if ((st = sinew__png_encode(ex->tmp.f, ex->o.path, sheet, sw, sh, 0, err)) != SINEW_OK) goto done;
    if ((st = sinew__tmp_open(jp, &ex->tmp2, err)) != SINEW_OK) goto done;
    {
        FILE *f = ex->tmp2.f;
        const char *base = strrchr(ex->o.path, '/');
        base = base ? base + 1 : ex->o.path;
        size_t blen = strlen(base);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(blen >= 4 && strcmp(base + blen - 4, ".png") == 0 ? blen - 4 : blen),
                 base);
        fputs("{\n  \"name\": ", f);
        json_string(f, name);
        fputs(",\n  \"imagePath\": ", f);
        json_string(f, base);
        fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n  \"frameRate\": %.9g,\n  \"SubTexture\": [\n", sw, sh,
                ex->o.fps);
        for (uint32_t k = 0; k < n; k++) {
            const trim *s = &t[t[k].same_as], *own = &t[k];
            fprintf(f,
                    "    {\"name\": \"frame_%04u\", \"x\": %u, \"y\": %u, \"width\": %u, \"height\": %u, "
                    "\"frameX\": %d, \"frameY\": %d, \"frameWidth\": %u, \"frameHeight\": %u}%s\n",
                    k, s->px, s->py, own->w, own->h, -(int)own->x, -(int)own->y, W, H, k + 1 < n ? "," : "");
        }
        fputs("  ]\n}\n", f);
    }
    if ((st = sinew__tmp_commit(&ex->tmp, err)) != SINEW_OK) goto done;
    st = sinew__tmp_commit(&ex->tmp2, err);
done:
    if (t) sinew__free(a, t, n * sizeof *t);
    if (order) sinew__free(a, order, n * sizeof *order);
    if (sheet) sinew__free(a, sheet, sheet_bytes);
    if (json_path) sinew__free(a, json_path, strlen(ex->o.path) + 6);
    return st;
}

const sinew__backend sinew__sheet_backend = {sheet_frame, sheet_end, sheet_abort};
