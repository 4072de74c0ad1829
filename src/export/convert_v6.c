/*
 * What the converters do with a DragonBones 6.0 file (docs/convert.md "DragonBones 6.0"): the
 * DragonBones 4.5 JSON, DBBin and Spine writers carry 4.0-5.6 semantics, and a 6.0 file plays
 * differently even where it has no 6.0-only construct (docs/runtime.md "DragonBones 6.0"), so they
 * refuse it, naming what the file holds that the target cannot carry.
 */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "export/export_internal.h"
#include "model/model.h"

/* Appends `what` (with its count) to the list in buf. */
static void add(char *buf, size_t size, uint32_t count, const char *what) {
    size_t n = strlen(buf);
    if (count && n < size)
        snprintf(buf + n, size - n, "%s%u %s", n ? ", " : "", count, what);
}

/* The 6.0 constructs of `data`, counted over its armatures, as a list ("" for none). */
static void v6_constructs(const struct sinew_data *data, char *buf, size_t size) {
    uint32_t tc = 0, ph = 0, sh = 0, mk = 0, cfg = 0, stl = 0, ptl = 0;
    for (uint32_t a = 0; a < data->armature_count; a++) {
        const sinew_model_armature *A = &data->armatures[a];
        tc += A->transform_constraint_count;
        ph += A->physics_count;
        sh += A->shape_count;
        for (uint32_t d = 0; d < A->display_count; d++)
            mk += A->displays[d].mask;
        for (uint32_t t = 0; t < A->timeline_count; t++) {
            const sinew_model_timeline *T = &A->timelines[t];
            cfg += T->cfg_scale != 100 || T->cfg_offset != 0 || T->cfg_loop;
            stl += T->type == SINEW_TL_SHAPE || T->type == SINEW_TL_PATH_DEFORM;
            ptl += T->type == SINEW_TL_PATH_POSITION || T->type == SINEW_TL_PATH_SPACING || T->type == SINEW_TL_PATH_WEIGHT;
        }
    }
    buf[0] = '\0';
    add(buf, size, tc, "transform constraint(s)");
    add(buf, size, ph, "physics constraint(s)");
    add(buf, size, sh, "vector shape(s)");
    add(buf, size, mk, "mask(s)");
    add(buf, size, cfg, "timelineConfig timeline(s)");
    add(buf, size, stl, "shape/path deform timeline(s)");
    add(buf, size, ptl, "path-constraint timeline(s)");
}

sinew_status sinew__convert_refuse_v6(const struct sinew_data *data, const char *input, const char *target,
                                      sinew_error *err) {
    if (!data->v6)
        return SINEW_OK;
    char what[512];
    v6_constructs(data, what, sizeof what);
    return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, "version",
                          "a DragonBones 6.0 file%s%s%s: sinew does not convert 6.0 to %s yet (a 4.0-5.6 format, "
                          "whose runtimes play it differently; docs/convert.md \"DragonBones 6.0\")",
                          what[0] ? " (" : "", what, what[0] ? ")" : "", target);
}
