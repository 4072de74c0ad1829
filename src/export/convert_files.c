#define _POSIX_C_SOURCE 200809L
/*
 * sinew_convert_dragonbones (include/sinew/convert.h): a rig file to DragonBones 4.5 or 5.5 files. The
 * skeleton JSON comes from the core's writer (format/dragonbones_write.c); an XML rig's images
 * are packed here into one atlas page (PNG through libspng), which is why this file lives in
 * libsinew-export and not in the core (docs/architecture.md).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/atomic.h"
#include "base/error.h"
#include "base/json_print.h"
#include "base/file.h"
#include "base/alloc.h"
#include "export/export_internal.h"
#include "format/dragonbones_write.h"
#include "format/xml_rig.h"
#include "model/model.h"
#include "sinew/convert.h"
#include "sinew/data.h"

/* ---- the atlas of an XML rig -------------------------------------------------------------------- */

typedef struct packed {
    uint32_t page, x, y, w, h;
} packed;

static int cmp_by_height(const void *a, const void *b) {
    const packed *p = a, *q = b;
    if (p->h != q->h)
        return p->h < q->h ? 1 : -1;
    return p->page < q->page ? -1 : p->page > q->page;
}

/* Decodes a PNG file to RGBA8 (libspng) into *out, *out_size bytes from `a`. */
static sinew_status decode_png(const char *path, const sinew_allocator *a, uint8_t **out, size_t *out_size, uint32_t *w,
                               uint32_t *h, sinew_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    spng_ctx *ctx = spng_ctx_new(0);
    sinew_status st = SINEW_OK;
    size_t size = 0;
    struct spng_ihdr ihdr;
    uint8_t *buf = NULL;
    if (!ctx) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (libspng)");
    } else if (spng_set_png_file(ctx, f) || spng_get_ihdr(ctx, &ihdr) ||
               spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size) || size != (size_t)ihdr.width * ihdr.height * 4u) {
        st = sinew__fail_at(err, SINEW_E_PARSE, path, 0, 0, NULL, "cannot decode PNG");
    } else if (!(buf = sinew__alloc(a, size))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    } else if (spng_decode_image(ctx, buf, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS)) {
        st = sinew__fail_at(err, SINEW_E_PARSE, path, 0, 0, NULL, "cannot decode PNG");
    }
    spng_ctx_free(ctx);
    fclose(f);
    if (st != SINEW_OK) {
        sinew__free(a, buf, size);
        return st;
    }
    *out = buf;
    *out_size = size;
    *w = ihdr.width;
    *h = ihdr.height;
    return SINEW_OK;
}

/* Encodes RGBA8 pixels as PNG (libspng) into a buffer of libspng's, which allocates with libc and
 * hands it over: free it with free() (docs/architecture.md "Memory"). */
static sinew_status encode_png(const uint8_t *rgba, uint32_t w, uint32_t h, void **out, size_t *out_len,
                               sinew_error *err) {
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (libspng)");
    struct spng_ihdr ihdr;
    memset(&ihdr, 0, sizeof ihdr);
    ihdr.width = w;
    ihdr.height = h;
    ihdr.bit_depth = 8;
    ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    int e = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    if (!e)
        e = spng_set_ihdr(ctx, &ihdr);
    if (!e)
        e = spng_encode_image(ctx, rgba, (size_t)w * h * 4u, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    void *png = NULL;
    size_t len = 0;
    if (!e)
        png = spng_get_png_buffer(ctx, &len, &e);
    spng_ctx_free(ctx);
    if (e || !png) {
        free(png);
        return sinew__fail(err, SINEW_E_RENDER, NULL, "PNG encoding failed: %s", spng_strerror(e));
    }
    *out = png;
    *out_len = len;
    return SINEW_OK;
}

static void join(char *out, size_t size, const char *dir, const char *name, const char *suffix) {
    snprintf(out, size, "%s%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "", name, suffix);
}

static sinew_status write_xml_atlas(const char *input, const char *out_dir, const char *name,
                                    const sinew_load_options *lopts, sinew_convert_result *res, sinew_error *err) {
    const sinew_allocator *a = lopts ? lopts->allocator : NULL;
    struct sinew_atlas *atlas = NULL;
    sinew_status st = sinew__xml_load_atlas_file(input, lopts, &atlas, err);
    if (st != SINEW_OK)
        return st;
    uint32_t n = atlas->page_count;
    const uint32_t pad = 2;
    packed *pk = sinew__calloc(a, n ? n : 1, sizeof *pk);
    const char **inputs = sinew__calloc(a, (size_t)n + 1u, sizeof *inputs);
    uint8_t *pixels = NULL;
    size_t pixels_size = 0, text_size = 0;
    cJSON *root = NULL;
    char *text = NULL;
    void *png = NULL;
    size_t png_len = 0;
    if (!pk || !inputs) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto done;
    }
    inputs[0] = input;
    uint64_t area = 0;
    uint32_t maxw = 1;
    for (uint32_t i = 0; i < n; i++) {
        pk[i].page = i;
        pk[i].w = atlas->pages[i].width;
        pk[i].h = atlas->pages[i].height;
        inputs[i + 1] = atlas->pages[i].resolved_path;
        area += (uint64_t)(pk[i].w + pad) * (pk[i].h + pad);
        if (pk[i].w + pad > maxw)
            maxw = pk[i].w + pad;
    }
    qsort(pk, n, sizeof *pk, cmp_by_height);
    uint32_t width = (uint32_t)ceil(sqrt((double)area * 1.1));
    if (width < maxw)
        width = maxw;
    uint32_t x = 0, y = 0, shelf = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (x + pk[i].w + pad > width) {
            x = 0;
            y += shelf;
            shelf = 0;
        }
        pk[i].x = x;
        pk[i].y = y;
        x += pk[i].w + pad;
        if (pk[i].h + pad > shelf)
            shelf = pk[i].h + pad;
    }
    uint32_t height = y + shelf;
    if (height == 0)
        height = 1;
    if ((uint64_t)width * height > (1u << 28)) {
        st = sinew__fail(err, SINEW_E_LIMIT, NULL, "the atlas would be %u x %u pixels", width, height);
        goto done;
    }
    pixels_size = (size_t)width * height * 4u;
    pixels = sinew__calloc(a, pixels_size, 1);
    if (!pixels) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n && st == SINEW_OK; i++) {
        uint8_t *img = NULL;
        size_t img_size = 0;
        uint32_t w = 0, h = 0;
        st = decode_png(atlas->pages[pk[i].page].resolved_path, a, &img, &img_size, &w, &h, err);
        if (st != SINEW_OK)
            break;
        for (uint32_t r = 0; r < h && r < pk[i].h; r++)
            memcpy(pixels + ((size_t)(pk[i].y + r) * width + pk[i].x) * 4u, img + (size_t)r * w * 4u,
                   (size_t)(w < pk[i].w ? w : pk[i].w) * 4u);
        sinew__free(a, img, img_size);
    }
    if (st != SINEW_OK)
        goto done;
    st = encode_png(pixels, width, height, &png, &png_len, err);
    if (st != SINEW_OK)
        goto done;
    join(res->atlas_png_path, sizeof res->atlas_png_path, out_dir, name, "_tex.png");
    join(res->atlas_json_path, sizeof res->atlas_json_path, out_dir, name, "_tex.json");
    root = cJSON_CreateObject();
    char png_name[1024];
    snprintf(png_name, sizeof png_name, "%s_tex.png", name);
    cJSON *sub = root ? cJSON_AddArrayToObject(root, "SubTexture") : NULL;
    if (!root || !cJSON_AddStringToObject(root, "name", name) || !cJSON_AddStringToObject(root, "imagePath", png_name) ||
        !cJSON_AddNumberToObject(root, "width", width) || !cJSON_AddNumberToObject(root, "height", height) || !sub) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto done;
    }
    /* regions in page order (the rig's order of first use) */
    for (uint32_t p = 0; p < n; p++) {
        for (uint32_t i = 0; i < n; i++) {
            if (pk[i].page != p)
                continue;
            cJSON *o = cJSON_CreateObject();
            if (!o) {
                st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
                goto done;
            }
            cJSON_AddItemToArray(sub, o);
            cJSON_AddStringToObject(o, "name", atlas->pages[p].name);
            cJSON_AddNumberToObject(o, "x", pk[i].x);
            cJSON_AddNumberToObject(o, "y", pk[i].y);
            cJSON_AddNumberToObject(o, "width", pk[i].w);
            cJSON_AddNumberToObject(o, "height", pk[i].h);
        }
    }
    text = sinew__json_print(root, true, a, &text_size);
    if (!text) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto done;
    }
    st = sinew__write_file_atomic(res->atlas_png_path, png, png_len, inputs, (uint32_t)n + 1u, a, err);
    if (st == SINEW_OK)
        st = sinew__write_file_atomic(res->atlas_json_path, text, strlen(text), inputs, (uint32_t)n + 1u, a, err);
done:
    if (st != SINEW_OK) {
        res->atlas_png_path[0] = '\0';
        res->atlas_json_path[0] = '\0';
    }
    sinew__free(a, text, text_size);
    cJSON_Delete(root);
    free(png); /* libspng's (encode_png) */
    sinew__free(a, pixels, pixels_size);
    sinew__free(a, pk, (n ? n : 1) * sizeof *pk);
    sinew__free(a, inputs, ((size_t)n + 1u) * sizeof *inputs);
    sinew_atlas_destroy(atlas);
    return st;
}

static bool input_is_xml(const char *path) {
    if (sinew__xml_sniff(path, NULL, 0))
        return true;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char head[256];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return sinew__xml_sniff(NULL, head, n);
}

void sinew__convert_name(const struct sinew_data *data, const sinew_convert_options *opts, const char *input,
                         char *name, size_t size) {
    /* --name, else the input's file name (so that X_ske.json gives X_ske.dbbin, and the atlas the
     * converted file is rendered with, X_tex.json, is found beside it), else the data's name */
    const char *base = opts && opts->name && opts->name[0] ? opts->name : NULL;
    if (!base && input) {
        const char *slash = strrchr(input, '/');
        base = slash ? slash + 1 : input;
    }
    if (!base || !base[0])
        base = data && data->name && data->name[0] ? data->name : "skeleton";
    snprintf(name, size, "%s", base);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '\\' || (unsigned char)*p < 32)
            *p = '_';
    static const char *const endings[] = {"_ske.json", "_ske.dbbin", ".json", ".dbbin", ".xml"};
    size_t nl = strlen(name);
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        size_t el = strlen(endings[i]);
        if (nl > el && strcmp(name + nl - el, endings[i]) == 0) {
            name[nl - el] = '\0';
            break;
        }
    }
}

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

sinew_status sinew__convert_copy_atlas(const char *input, const char *atlas_arg, const char *out_dir, const char *name,
                                       const sinew_load_options *lopts, sinew_log_fn opts_log, void *opts_user,
                                       sinew_convert_result *res, sinew_error *err) {
    char found[1024];
    const char *atlas_path = atlas_arg;
    if (!atlas_path) {
        if (sinew_atlas_find_for(input, found, sizeof found) != SINEW_OK)
            return SINEW_OK; /* no atlas beside the input: nothing to take along */
        atlas_path = found;
    }
    const sinew_allocator *a = lopts ? lopts->allocator : NULL;
    struct sinew_atlas *atlas = NULL;
    sinew_status st = sinew_atlas_load_file(atlas_path, lopts, &atlas, err);
    if (st != SINEW_OK)
        return st;
    const char *inputs[2] = {input, atlas_path};
    join(res->atlas_json_path, sizeof res->atlas_json_path, out_dir, name, "_tex.json");
    /* the pages first (by the name the atlas gives them), so that the atlas never names a missing page */
    for (uint32_t p = 0; p < atlas->page_count && st == SINEW_OK; p++) {
        const sinew_model_page *pg = &atlas->pages[p];
        const char *from = pg->resolved_path ? pg->resolved_path : pg->image_path;
        const char *rel = pg->image_path ? pg->image_path : pg->name;
        if (!from || !rel || rel[0] == '/' || strstr(rel, "..") || strchr(rel, '/'))
            continue; /* a page outside the atlas's folder stays where it is */
        char to[1024];
        join(to, sizeof to, out_dir, rel, "");
        if (same_file(from, to))
            continue;
        struct stat sb;
        if (stat(from, &sb) != 0) { /* the converted files only name the page: a warning, as for Spine */
            if (opts_log) {
                sinew_error w;
                memset(&w, 0, sizeof w);
                w.code = SINEW_E_MISSING;
                w.file = atlas_arg ? atlas_arg : NULL;
                snprintf(w.message, sizeof w.message, "texture page '%.300s' not found (looked for %.400s); not copied",
                         rel, from);
                snprintf(w.path, sizeof w.path, "imagePath");
                opts_log(opts_user, SINEW_LOG_WARNING, &w);
            }
            continue;
        }
        char *bytes = NULL;
        size_t len = 0;
        st = sinew__read_whole(from, a, UINT64_MAX, NULL, &bytes, &len, err);
        if (st == SINEW_OK)
            st = sinew__write_file_atomic(to, bytes, len, inputs, 2, a, err);
        if (bytes)
            sinew__free(a, bytes, len + 1);
        if (st != SINEW_OK) /* `to` ends with this block */
            sinew__error_detach(err, input, atlas_arg);
        if (st == SINEW_OK && !res->atlas_png_path[0])
            snprintf(res->atlas_png_path, sizeof res->atlas_png_path, "%s", to);
    }
    if (st == SINEW_OK && !same_file(atlas_path, res->atlas_json_path)) {
        char *bytes = NULL;
        size_t len = 0;
        st = sinew__read_whole(atlas_path, a, UINT64_MAX, NULL, &bytes, &len, err);
        if (st == SINEW_OK)
            st = sinew__write_file_atomic(res->atlas_json_path, bytes, len, inputs, 2, a, err);
        if (bytes)
            sinew__free(a, bytes, len + 1);
    }
    if (st != SINEW_OK) {
        /* the error may name a page of the atlas or a path of this function: not kept past here */
        sinew__error_detach(err, input, atlas_arg);
        res->atlas_json_path[0] = res->atlas_png_path[0] = '\0';
    }
    sinew_atlas_destroy(atlas);
    return st;
}

sinew_status sinew_convert_dragonbones(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                       sinew_convert_result *result, sinew_error *err) {
    sinew_convert_result local;
    sinew_convert_result *res = result ? result : &local;
    memset(res, 0, sizeof *res);
    if (!input || !out_dir)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_convert_dragonbones: NULL argument");
    struct stat st_dir;
    if (stat(out_dir, &st_dir) != 0 || !S_ISDIR(st_dir.st_mode))
        return sinew__fail_at(err, SINEW_E_IO, out_dir, 0, 0, NULL, "not a folder");
    const char *version = opts && opts->dragonbones_version ? opts->dragonbones_version : "4.5";
    if (strcmp(version, "4.5") != 0 && strcmp(version, "5.5") != 0)
        return sinew__fail(err, SINEW_E_ARG, NULL, "DragonBones %.40s: 4.5 or 5.5 is written", version);
    bool v55 = strcmp(version, "5.5") == 0;
    const sinew_load_options *lopts = opts ? opts->load : NULL;
    bool xml = input_is_xml(input);
    struct sinew_data *data = NULL;
    sinew_status st = xml ? sinew__xml_load_file(input, lopts, &data, err) : sinew_data_load_file(input, lopts, &data, err);
    if (st != SINEW_OK)
        return st;
    if ((st = sinew__convert_refuse_v6(data, input, v55 ? "DragonBones 5.5" : "DragonBones 4.5", err)) != SINEW_OK) {
        sinew_data_destroy(data);
        return st;
    }
    char name[256];
    sinew__convert_name(data, opts, input, name, sizeof name);
    sinew_db_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.log = opts ? opts->log : NULL;
    wo.log_user = opts ? opts->log_user : NULL;
    wo.source_name = input;
    wo.warning_count = &res->warning_count;
    wo.allocator = lopts ? lopts->allocator : NULL;
    wo.format = v55 ? 55 : 45;
    char *text = NULL;
    size_t text_size = 0;
    st = sinew__db_write_json(data, &wo, &text, &text_size, err);
    res->armature_count = data->armature_count;
    sinew_data_destroy(data);
    if (st != SINEW_OK)
        return st;
    join(res->skeleton_path, sizeof res->skeleton_path, out_dir, name, "_ske.json");
    const char *inputs[1] = {input};
    st = sinew__write_file_atomic(res->skeleton_path, text, strlen(text), inputs, 1, wo.allocator, err);
    sinew__free(wo.allocator, text, text_size);
    if (st != SINEW_OK) {
        if (err && err->file == res->skeleton_path)
            err->file = NULL; /* emptied below; the message names the file */
        res->skeleton_path[0] = '\0';
        return st;
    }
    if (xml)
        st = write_xml_atlas(input, out_dir, name, lopts, res, err);
    else /* the atlas it renders with, beside it */
        st = sinew__convert_copy_atlas(input, opts ? opts->atlas : NULL, out_dir, name, lopts, opts ? opts->log : NULL,
                                       opts ? opts->log_user : NULL, res, err);
    if (st != SINEW_OK)
        sinew__error_detach(err, input, opts ? opts->atlas : NULL);
    return st;
}
