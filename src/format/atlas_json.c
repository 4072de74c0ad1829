/* DragonBones texture atlas JSON (`imagePath`, `width`/`height`, `scale`, `SubTexture[]`) ->
 * struct sinew_atlas. One atlas object is one page (a list of them, or a skeleton's own
 * `textureAtlas`, makes several). Regions are sorted by name for binary search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/dragonbones_json.h"
#include "format/json_read.h"
#include "format/png_header.h"

static const char *const atlas_keys[] = {"name", "imagePath", "width", "height", "scale", "SubTexture", "format"};
static const sinew_jkeys atlas_table = SINEW_JKEYS(atlas_keys, "atlas");
static const char *const region_keys[] = {"name",       "x",           "y",       "width", "height", "frameX",
                                          "frameY",     "frameWidth",  "frameHeight", "rotated"};
static const sinew_jkeys region_table = SINEW_JKEYS(region_keys, "SubTexture");

typedef struct abuild {
    sinew_jctx *c;
    sinew_arena *arena;
    struct sinew_atlas *atlas;
} abuild;

static sinew_status astr(abuild *b, const char *s, const char **out) {
    char *p = sinew__arena_strdup(b->arena, s);
    if (!p)
        return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
    *out = p;
    return SINEW_OK;
}

static int cmp_region(const void *a, const void *b) {
    return strcmp(((const sinew_model_region *)a)->name, ((const sinew_model_region *)b)->name);
}

static sinew_status dimension(abuild *b, const cJSON *v, const char *key, uint32_t *out) {
    int64_t x;
    TRY(sinew__jint(b->c, v, key, 0, 0, 1048576.0, &x));
    *out = (uint32_t)x;
    return SINEW_OK;
}

/* One atlas object: page `page`, its regions appended at A->regions + *used. */
static sinew_status build_page(abuild *b, const cJSON *root, const char *dir, uint32_t page, uint32_t *used) {
    struct sinew_atlas *A = b->atlas;
    const cJSON *f[7];
    TRY(sinew__jfields(b->c, root, &atlas_table, f));
    if (!f[5])
        return sinew__jfail(b->c, SINEW_E_MISSING, "no 'SubTexture' list: not a DragonBones texture atlas");
    sinew_model_page *P = &A->pages[page];
    const char *name, *image;
    TRY(sinew__jstr(b->c, f[0], "name", "", &name));
    TRY(astr(b, name, &P->name));
    if (!f[1])
        return sinew__jfail_key(b->c, "imagePath", SINEW_E_MISSING, "the atlas has no 'imagePath'");
    TRY(sinew__jstr(b->c, f[1], "imagePath", "", &image));
    TRY(astr(b, image, &P->image_path));
    if (dir && dir[0] && image[0] != '/') {
        size_t dl = strlen(dir), il = strlen(image);
        char *r = sinew__arena_alloc(b->arena, dl + il + 2);
        if (!r)
            return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
        memcpy(r, dir, dl);
        size_t k = dl;
        if (dir[dl - 1] != '/')
            r[k++] = '/';
        memcpy(r + k, image, il + 1);
        P->resolved_path = r;
    } else {
        P->resolved_path = P->image_path;
    }
    TRY(dimension(b, f[2], "width", &P->width));
    TRY(dimension(b, f[3], "height", &P->height));
    TRY(sinew__jfloat(b->c, f[4], "scale", 1.0f, &P->scale));
    if (!(P->scale > 0.0f))
        return sinew__jfail_key(b->c, "scale", SINEW_E_RANGE, "atlas 'scale' must be positive");
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(b->c, f[5], "SubTexture", &first, &n));
    if (n > A->region_count - *used)
        return sinew__jfail(b->c, SINEW_E_LAYOUT, "internal: region count changed");
    sinew__jpush_key(b->c, "SubTexture");
    uint32_t i = 0;
    for (const cJSON *r = first; r; r = r->next, i++) {
        sinew_model_region *R = &A->regions[*used + i];
        const cJSON *g[10];
        sinew__jpush_index(b->c, i);
        TRY(sinew__jfields(b->c, r, &region_table, g));
        const char *rn;
        if (!g[0])
            return sinew__jfail_key(b->c, "name", SINEW_E_MISSING, "SubTexture has no name");
        TRY(sinew__jstr(b->c, g[0], "name", "", &rn));
        TRY(astr(b, rn, &R->name));
        R->page = page;
        /* `x` and `y` default to 0 (as officially: a whole-image region in the Live2D-converted
         * demos gives only its size); the size is required */
        static const char *const req[] = {"x", "y", "width", "height"};
        float *dst[] = {&R->x, &R->y, &R->width, &R->height};
        for (int k = 0; k < 4; k++) {
            if (!g[1 + k] && k >= 2)
                return sinew__jfail_key(b->c, req[k], SINEW_E_MISSING, "SubTexture '%s' has no '%s'", rn, req[k]);
            TRY(sinew__jfloat(b->c, g[1 + k], req[k], 0.0f, dst[k]));
        }
        if (R->x < 0 || R->y < 0 || R->width < 0 || R->height < 0)
            return sinew__jfail_key(b->c, R->x < 0 ? "x" : R->y < 0 ? "y" : R->width < 0 ? "width" : "height",
                                    SINEW_E_RANGE, "SubTexture '%s' has a negative position or size", rn);
        TRY(sinew__jfloat(b->c, g[5], "frameX", 0.0f, &R->frame_x));
        TRY(sinew__jfloat(b->c, g[6], "frameY", 0.0f, &R->frame_y));
        TRY(sinew__jfloat(b->c, g[7], "frameWidth", 0.0f, &R->frame_width));
        TRY(sinew__jfloat(b->c, g[8], "frameHeight", 0.0f, &R->frame_height));
        R->has_frame = R->frame_width > 0.0f && R->frame_height > 0.0f;
        TRY(sinew__jbool(b->c, g[9], "rotated", false, &R->rotated));
        if (P->width && P->height &&
            ((double)R->x + R->width > (double)P->width || (double)R->y + R->height > (double)P->height))
            return sinew__jfail(b->c, SINEW_E_RANGE, "SubTexture '%s' (%g,%g %gx%g) lies outside the %ux%u page", rn,
                                (double)R->x, (double)R->y, (double)R->width, (double)R->height, P->width, P->height);
        sinew__jpop(b->c);
    }
    sinew__jpop(b->c);
    *used += n;
    /* No page size in the JSON (most 4.x atlases): draw-list UVs are normalised to the real page,
     * so take the size from the PNG header. Left 0 when the image cannot be read. */
    if (!P->width || !P->height) {
        uint32_t w, h;
        if (sinew__png_file_size(P->resolved_path, &w, &h) == SINEW_OK) {
            P->width = w;
            P->height = h;
        }
    }
    return SINEW_OK;
}

/* The atlas: one atlas object (an atlas JSON file), a list of them (one page each), or a
 * skeleton that carries its atlas inside as `textureAtlas` (an object or a list; the 5.6 demos
 * do). */
static sinew_status build_atlas(abuild *b, const cJSON *root, const char *dir) {
    struct sinew_atlas *A = b->atlas;
    const cJSON *list = root;
    bool embedded = cJSON_IsObject(root) && !cJSON_GetObjectItemCaseSensitive(root, "SubTexture") &&
                    cJSON_GetObjectItemCaseSensitive(root, "textureAtlas");
    if (embedded) {
        list = cJSON_GetObjectItemCaseSensitive(root, "textureAtlas");
        sinew__jpush_key(b->c, "textureAtlas");
    }
    uint32_t pages = cJSON_IsArray(list) ? (uint32_t)cJSON_GetArraySize(list) : 1u, regions = 0;
    if (pages == 0)
        return sinew__jfail(b->c, SINEW_E_MISSING, "an empty atlas list");
    if (pages > 4096)
        return sinew__jfail(b->c, SINEW_E_LIMIT, "%u atlas pages, more than 4096", pages);
    for (const cJSON *a = cJSON_IsArray(list) ? list->child : list; a; a = cJSON_IsArray(list) ? a->next : NULL) {
        const cJSON *st = cJSON_IsObject(a) ? cJSON_GetObjectItemCaseSensitive(a, "SubTexture") : NULL;
        if (cJSON_IsArray(st))
            regions += (uint32_t)cJSON_GetArraySize(st);
        if (regions > b->c->limits.max_array_length)
            return sinew__jfail(b->c, SINEW_E_LIMIT, "more than %u regions (limits.max_array_length)",
                                b->c->limits.max_array_length);
    }
    A->page_count = pages;
    A->pages = sinew__arena_array(b->arena, pages, sizeof *A->pages);
    A->region_count = regions;
    A->regions = regions ? sinew__arena_array(b->arena, regions, sizeof *A->regions) : NULL;
    if (!A->pages || (regions && !A->regions))
        return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
    memset(A->pages, 0, pages * sizeof *A->pages);
    uint32_t used = 0, p = 0;
    for (const cJSON *a = cJSON_IsArray(list) ? list->child : list; a; a = cJSON_IsArray(list) ? a->next : NULL, p++) {
        if (cJSON_IsArray(list))
            sinew__jpush_index(b->c, p);
        TRY(build_page(b, a, dir, p, &used));
        if (cJSON_IsArray(list))
            sinew__jpop(b->c);
    }
    A->region_count = used;
    if (embedded)
        sinew__jpop(b->c);
    uint32_t n = A->region_count;
    if (n > 1) {
        qsort(A->regions, n, sizeof *A->regions, cmp_region);
        for (uint32_t i = 1; i < n; i++)
            if (strcmp(A->regions[i - 1].name, A->regions[i].name) == 0)
                sinew__jwarn(b->c, NULL, SINEW_E_DUPLICATE, "SubTexture '%s' is defined more than once (one is used)",
                             A->regions[i].name);
    }
    return SINEW_OK;
}

sinew_status sinew__atlas_json_load(const char *text, size_t len, const char *file, const char *dir,
                                    const sinew_load_options *opts, struct sinew_atlas **out, sinew_error *err) {
    sinew_jctx c;
    sinew__jctx_init(&c, text, len, file, opts);
    *out = NULL;
    sinew_status st;
    sinew_arena arena;
    sinew__arena_init(&arena, c.allocator, (size_t)(c.limits.max_memory_bytes < SIZE_MAX ? c.limits.max_memory_bytes : SIZE_MAX));
    cJSON *root = sinew__json_parse(&c);
    if (!root) {
        st = c.err.code;
    } else {
        abuild b = {&c, &arena, NULL};
        b.atlas = sinew__arena_alloc(&arena, sizeof *b.atlas);
        if (!b.atlas)
            st = sinew__jfail(&c, SINEW_E_NOMEM, "out of memory");
        else
            st = build_atlas(&b, root, dir);
        sinew__json_free(&c, root);
        if (st == SINEW_OK) {
            b.atlas->arena = arena;
            *out = b.atlas;
            return SINEW_OK;
        }
    }
    sinew__arena_destroy(&arena);
    if (err && err->code == SINEW_OK)
        *err = c.err;
    return st;
}
