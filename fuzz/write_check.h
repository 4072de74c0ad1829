/* Shared by the loader fuzz targets: a model the loader accepted is written back as DragonBones
 * JSON (in memory). The writer may refuse only with a message and nothing allocated; with `reload`
 * (the load options of the first load), the written text must load again with the same armatures,
 * bones, slots and animations. Any other outcome aborts, so libFuzzer reports it. */
#ifndef SINEW_FUZZ_WRITE_CHECK_H
#define SINEW_FUZZ_WRITE_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "format/dragonbones_write.h"
#include "sinew/data.h"

static void fuzz_same_shape(const sinew_data *a, const sinew_data *b) {
    sinew_data_info ia, ib;
    sinew_data_get_info(a, &ia);
    sinew_data_get_info(b, &ib);
    if (ia.armature_count != ib.armature_count)
        abort();
    for (uint32_t i = 0; i < ia.armature_count; i++) {
        sinew_armature_info x, y;
        if (sinew_data_get_armature_info(a, i, &x) != SINEW_OK || sinew_data_get_armature_info(b, i, &y) != SINEW_OK)
            abort();
        if (x.bone_count != y.bone_count || x.slot_count != y.slot_count || x.animation_count != y.animation_count)
            abort();
    }
}

static void fuzz_write_db(const sinew_data *d, unsigned format, const sinew_load_options *reload) {
    sinew_db_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format = format;
    char *text = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    if (sinew__db_write_json(d, &wo, &text, NULL, &err) != SINEW_OK) {
        if (!err.message[0] || text)
            abort(); /* a failed write says why and leaves nothing */
        return;
    }
    if (reload) {
        sinew_data *back = NULL;
        memset(&err, 0, sizeof err);
        if (sinew_data_load_buffer(text, strlen(text), "fuzz_written.json", reload, &back, &err) != SINEW_OK)
            abort(); /* what the writer wrote must load */
        fuzz_same_shape(d, back);
        sinew_data_destroy(back);
    }
    free(text);
}

#endif
