#define _POSIX_C_SOURCE 200809L
/* The load entry points of the public data API (include/sinew/data.h): format dispatch
 * (DragonBones JSON, DragonBones binary or an XML rig), files and buffers, and finding the atlas beside a skeleton.
 * The read-only queries are in model/data.c, which knows no file format. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/dbbin.h"
#include "format/dragonbones_json.h"
#include "format/json_read.h"
#include "format/xml_rig.h"
#include "model/model.h"
#include "sinew/data.h"

/* ---- loading ------------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char a = s[n - k + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a + 32);
        if (a != b)
            return false;
    }
    return true;
}

static const char *dir_of(const char *path, char *buf, size_t size);

/* Reads a whole file under the load options' size limit and allocator. On success the caller
 * frees *text (*len + 1 bytes) with *alloc; on failure the error is in err (when unset). */
static sinew_status read_text(const char *path, const sinew_load_options *opts, char **text, size_t *len,
                              const sinew_allocator **alloc, sinew_error *err) {
    sinew_jctx c;
    sinew__jctx_init(&c, NULL, 0, path, opts);
    *alloc = c.allocator;
    sinew_status st = sinew__read_file(&c, path, text, len);
    if (st != SINEW_OK && err && err->code == SINEW_OK)
        *err = c.err;
    return st;
}

sinew_status sinew_data_load_buffer(const void *buf, size_t len, const char *name,
                                    const sinew_load_options *opts, sinew_data **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_buffer: out is NULL");
    *out = NULL;
    if (!buf && len)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_buffer: buf is NULL");
    /* ---- format dispatch: XML rigs (xml_rig.c) when the first non-blank byte is '<' (image paths
     *      relative to the current folder). Everything else is DragonBones JSON. ---- */
    if (sinew__xml_sniff(NULL, buf, len))
        return sinew__xml_load_buffer(buf, len, name, NULL, opts, out, err);
    if (len >= 4 && memcmp(buf, SINEW_DBBIN_TAG, 4) == 0) /* DragonBones binary (dbbin_read.c) */
        return sinew__dbbin_load(buf, len, name, opts, out, err);
    return sinew__dragonbones_load(buf ? (const char *)buf : "", len, name, opts, out, err);
}

sinew_status sinew_data_load_file(const char *path, const sinew_load_options *opts, sinew_data **out,
                                  sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_data_load_file: path is NULL");
    char *text;
    size_t len;
    const sinew_allocator *alloc;
    sinew_status st = read_text(path, opts, &text, &len, &alloc, err);
    if (st != SINEW_OK)
        return st;
    /* ---- format dispatch: `.xml` files (or text starting with '<') go to the XML rig loader. ---- */
    if (ends_with(path, ".xml") || sinew__xml_sniff(NULL, text, len)) {
        char dbuf[4096];
        st = sinew__xml_load_buffer(text, len, path, dir_of(path, dbuf, sizeof dbuf), opts, out, err);
    } else if (ends_with(path, ".dbbin") || (len >= 4 && memcmp(text, SINEW_DBBIN_TAG, 4) == 0)) {
        st = sinew__dbbin_load(text, len, path, opts, out, err);
    } else {
        st = sinew__dragonbones_load(text, len, path, opts, out, err);
    }
    sinew__free(alloc, text, len + 1);
    return st;
}


static const char *dir_of(const char *path, char *buf, size_t size) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return "";
    size_t n = (size_t)(slash - path);
    if (n == 0)
        return "/";
    if (n >= size)
        return "";
    memcpy(buf, path, n);
    buf[n] = '\0';
    return buf;
}

sinew_status sinew_atlas_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                     const sinew_load_options *opts, sinew_atlas **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_buffer: out is NULL");
    *out = NULL;
    if (!buf && len)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_buffer: buf is NULL");
    return sinew__atlas_json_load(buf ? (const char *)buf : "", len, name, dir, opts, out, err);
}

sinew_status sinew_atlas_load_file(const char *path, const sinew_load_options *opts, sinew_atlas **out,
                                   sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_atlas_load_file: path is NULL");
    /* XML rigs: their images, one page each (xml_rig.c). */
    if (ends_with(path, ".xml"))
        return sinew__xml_load_atlas_file(path, opts, out, err);
    char *text;
    size_t len;
    const sinew_allocator *alloc;
    sinew_status st = read_text(path, opts, &text, &len, &alloc, err);
    if (st != SINEW_OK)
        return st;
    char dbuf[4096];
    st = sinew__atlas_json_load(text, len, path, dir_of(path, dbuf, sizeof dbuf), opts, out, err);
    sinew__free(alloc, text, len + 1);
    return st;
}


/* ---- atlas discovery ------------------------------------------------------------------------ */

static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static sinew_status put_path(char *out, size_t size, const char *dir, const char *name) {
    int n = dir[0] ? snprintf(out, size, "%s/%s", dir, name) : snprintf(out, size, "%s", name);
    return (n < 0 || (size_t)n >= size) ? SINEW_E_ARG : SINEW_OK;
}

sinew_status sinew_atlas_find_for(const char *skeleton_path, char *out_path, size_t size) {
    if (!skeleton_path || !out_path || size == 0)
        return SINEW_E_ARG;
    if (ends_with(skeleton_path, ".xml")) { /* an XML rig is its own atlas (xml_rig.c) */
        if (strlen(skeleton_path) >= size)
            return SINEW_E_ARG;
        memcpy(out_path, skeleton_path, strlen(skeleton_path) + 1);
        return SINEW_OK;
    }
    char dbuf[4096], cand[4096];
    const char *dir = dir_of(skeleton_path, dbuf, sizeof dbuf);
    const char *base = strrchr(skeleton_path, '/');
    base = base ? base + 1 : skeleton_path;
    /* X_ske.json (or the binary X_ske.dbbin) -> X_tex.json */
    size_t bl = strlen(base);
    size_t sl = bl > 9 && strcmp(base + bl - 9, "_ske.json") == 0    ? 9
                : bl > 10 && strcmp(base + bl - 10, "_ske.dbbin") == 0 ? 10
                                                                       : 0;
    if (sl) {
        char name[1024];
        if (bl - sl + 10 < sizeof name) {
            memcpy(name, base, bl - sl);
            memcpy(name + bl - sl, "_tex.json", 10);
            if (put_path(cand, sizeof cand, dir, name) == SINEW_OK && is_file(cand))
                return put_path(out_path, size, dir, name);
        }
    }
    if (put_path(cand, sizeof cand, dir, "texture.json") == SINEW_OK && is_file(cand))
        return put_path(out_path, size, dir, "texture.json");
    /* *_texture_*.json: the first by name */
    DIR *dh = opendir(dir[0] ? dir : ".");
    if (!dh)
        return SINEW_E_NOT_FOUND;
    char best[1024] = "";
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        const char *n = e->d_name;
        size_t nl = strlen(n);
        if (nl < 5 || strcmp(n + nl - 5, ".json") != 0 || !strstr(n, "_texture_") || nl >= sizeof best)
            continue;
        if (best[0] == '\0' || strcmp(n, best) < 0)
            memcpy(best, n, nl + 1);
    }
    closedir(dh);
    if (best[0] && put_path(cand, sizeof cand, dir, best) == SINEW_OK && is_file(cand))
        return put_path(out_path, size, dir, best);
    return SINEW_E_NOT_FOUND;
}

