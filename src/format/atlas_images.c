/* sinew_atlas_from_images: an atlas for a rig without an atlas JSON, whose displays name whole
 * images (the Live2D-converted DragonBones demos: `shizuku.1024/texture_00`). Each display's
 * texture key, with ".png" added, is looked up in a folder; every image found is a page of its
 * own with one region over all of it, named by the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/png_header.h"
#include "model/model.h"
#include "sinew/data.h"

static int cmp_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_region(const void *a, const void *b) {
    return strcmp(((const sinew_model_region *)a)->name, ((const sinew_model_region *)b)->name);
}

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

sinew_status sinew_atlas_from_images(const sinew_data *data, const char *dir, const sinew_allocator *allocator,
                                     sinew_atlas **out, sinew_error *err) {
    if (!data || !dir || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *out = NULL;
    /* the distinct texture keys of every image and mesh display */
    size_t n = 0;
    for (uint32_t a = 0; a < data->armature_count; ++a)
        n += data->armatures[a].display_count;
    const char **keys = sinew__alloc(allocator, (n ? n : 1) * sizeof *keys);
    if (!keys)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    size_t k = 0;
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        const sinew_model_armature *A = &data->armatures[a];
        for (uint32_t i = 0; i < A->display_count; ++i) {
            const sinew_model_display *d = &A->displays[i];
            if (d->type == SINEW_DISPLAY_IMAGE || d->type == SINEW_DISPLAY_MESH)
                keys[k++] = d->path ? d->path : d->name;
        }
    }
    qsort(keys, k, sizeof *keys, cmp_name);
    sinew_arena arena;
    sinew__arena_init(&arena, allocator, SIZE_MAX);
    struct sinew_atlas *A = sinew__arena_alloc(&arena, sizeof *A);
    sinew_model_page *pages = sinew__arena_alloc(&arena, (k ? k : 1) * sizeof *pages);
    sinew_model_region *regions = sinew__arena_alloc(&arena, (k ? k : 1) * sizeof *regions);
    sinew_status st = A && pages && regions ? SINEW_OK : SINEW_E_NOMEM;
    uint32_t found = 0;
    char path[4096];
    for (size_t i = 0; i < k && st == SINEW_OK; ++i) {
        if (i && strcmp(keys[i], keys[i - 1]) == 0)
            continue;
        const char *ext = ends_with(keys[i], ".png") ? "" : ".png";
        int len = snprintf(path, sizeof path, "%s/%s%s", dir, keys[i], ext);
        uint32_t w, h;
        if (len <= 0 || (size_t)len >= sizeof path || sinew__png_file_size(path, &w, &h) != SINEW_OK)
            continue; /* not there: the display is not drawn, as with a missing atlas region */
        sinew_model_page *P = &pages[found];
        sinew_model_region *R = &regions[found];
        memset(P, 0, sizeof *P);
        memset(R, 0, sizeof *R);
        P->name = sinew__arena_strdup(&arena, keys[i]);
        P->image_path = sinew__arena_strdup(&arena, path + strlen(dir) + 1);
        P->resolved_path = sinew__arena_strdup(&arena, path);
        P->width = w;
        P->height = h;
        P->scale = 1.0f;
        R->name = P->name;
        R->page = found;
        R->width = (float)w;
        R->height = (float)h;
        if (!P->name || !P->image_path || !P->resolved_path)
            st = SINEW_E_NOMEM;
        found++;
    }
    sinew__free(allocator, keys, (n ? n : 1) * sizeof *keys);
    if (st != SINEW_OK) {
        sinew__arena_destroy(&arena);
        return sinew__fail(err, st, NULL, "out of memory");
    }
    if (found == 0) {
        sinew__arena_destroy(&arena);
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "no display's image (its texture name + .png) is in '%s'",
                           dir);
    }
    qsort(regions, found, sizeof *regions, cmp_region); /* pages keep their order; regions name them */
    A->page_count = A->region_count = found;
    A->pages = pages;
    A->regions = regions;
    A->arena = arena;
    *out = A;
    return SINEW_OK;
}
