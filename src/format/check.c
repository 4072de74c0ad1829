/* sinew_data_check_atlas: a skeleton against the atlas a renderer will draw it with. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "base/num.h"
#include "format/json_locate.h"
#include "model/model.h"
#include "sinew/data.h"

typedef struct checker {
    const sinew_data *data;
    const char *file;
    sinew_log_fn log;
    void *user;
    char *text; /* the skeleton's JSON, read when the first problem needs a line and column */
    size_t len;
    bool text_tried;
    uint32_t errors, warnings;
} checker;

static void load_text(checker *k) {
    k->text_tried = true;
    if (!k->file || strcmp(k->data->source_format, "dragonbones") != 0)
        return;
    sinew_error ignored = {0};
    if (sinew__read_whole(k->file, NULL, (uint64_t)1 << 31, NULL, &k->text, &k->len, &ignored) != SINEW_OK)
        k->text = NULL;
}

/* Reports one problem at a JSON path (located in the file when it can be). */
static void report(checker *k, sinew_log_level level, sinew_status code, const char *path, const char *fmt, ...)
    SINEW_PRINTF(5, 6);
static void report(checker *k, sinew_log_level level, sinew_status code, const char *path, const char *fmt, ...) {
    if (level == SINEW_LOG_ERROR)
        k->errors++;
    else
        k->warnings++;
    if (!k->log)
        return;
    sinew_error e;
    memset(&e, 0, sizeof e);
    e.code = code;
    e.file = k->file;
    va_list ap;
    va_start(ap, fmt);
    sinew__vformat(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    if (path) {
        snprintf(e.path, sizeof e.path, "%s", path);
        if (!k->text_tried)
            load_text(k);
        char buf[256];
        sinew_json_seg segs[16];
        size_t n = k->text ? sinew__json_path_parse(path, buf, sizeof buf, segs, 16) : 0;
        size_t off = 0;
        if (n && n != (size_t)-1 && sinew__json_locate(k->text, k->len, segs, n, &off) == n) {
            e.offset = off;
            sinew__locate(k->text, k->len, off, &e.line, &e.column);
        }
    }
    k->log(k->user, level, &e);
}

uint32_t sinew_data_check_atlas(const sinew_data *data, const sinew_atlas *atlas, const char *file, sinew_log_fn log,
                                void *user) {
    checker k;
    memset(&k, 0, sizeof k);
    k.data = data;
    k.file = file;
    k.log = log;
    k.user = user;
    if (!data || !atlas)
        return 0;
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        const sinew_model_armature *A = &data->armatures[a];
        for (uint32_t s = 0; s < A->skin_count; ++s) {
            const sinew_model_skin *K = &A->skins[s];
            for (uint32_t j = 0; j < K->slot_count; ++j) {
                const sinew_model_skin_slot *KS = &A->skin_slots[K->first_slot + j];
                for (uint32_t d = 0; d < KS->display_count; ++d) {
                    const sinew_model_display *D = &A->displays[KS->first_display + d];
                    if (D->type != SINEW_DISPLAY_IMAGE && D->type != SINEW_DISPLAY_MESH)
                        continue;
                    char path[128];
                    bool has_path = K->source_index != SINEW_INVALID_INDEX;
                    snprintf(path, sizeof path, "armature[%u].skin[%u].slot[%u].display[%u]", a, K->source_index, j, d);
                    const char *key = D->path ? D->path : D->name;
                    const char *slot = A->slots[KS->slot].name;
                    if (sinew__atlas_find_region(atlas, key) == SINEW_INVALID_INDEX) {
                        report(&k, SINEW_LOG_WARNING, SINEW_E_REFERENCE, has_path ? path : NULL,
                               "armature '%s', slot '%s': display '%s' names the region '%s', which the atlas does "
                               "not have (nothing is drawn for it)",
                               A->name, slot, D->name, key);
                        continue;
                    }
                    if (D->type != SINEW_DISPLAY_MESH || D->mesh >= A->mesh_count)
                        continue;
                    const sinew_model_mesh *M = &A->meshes[D->mesh];
                    uint32_t out = 0, first = 0;
                    for (uint32_t i = 0; i < 2 * M->vertex_count; ++i) {
                        float u = M->uvs[i];
                        if (!(u >= -1e-4f && u <= 1.0001f)) {
                            if (!out)
                                first = i;
                            out++;
                        }
                    }
                    if (out) {
                        char upath[160];
                        snprintf(upath, sizeof upath, "%s.uvs[%u]", path, first);
                        report(&k, SINEW_LOG_WARNING, SINEW_E_RANGE, has_path ? upath : NULL,
                               "armature '%s', slot '%s': mesh '%s' has %u UV coordinate%s outside [0, 1] (the "
                               "first: %g), which reach outside its region '%s'",
                               A->name, slot, D->name, out, out == 1 ? "" : "s", (double)M->uvs[first], key);
                    }
                }
            }
        }
    }
    if (k.text)
        sinew__free(NULL, k.text, k.len + 1);
    return k.errors + k.warnings;
}
