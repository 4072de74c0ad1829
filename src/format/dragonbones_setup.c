/* DragonBones JSON: the setup pose (bones, slots, skins and displays, IK, path constraints).
 * Part of the DragonBones JSON loader (format/dragonbones_json_internal.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "format/dragonbones_json_internal.h"

/* ---- bones ----------------------------------------------------------------------------------- */

enum { BONE_KEY_COUNT = 14 };
static const char *const bone_keys[BONE_KEY_COUNT] = {
    "name",   "parent",   "transform", "length", "inheritTranslation", "inheritRotation", "inheritScale",
    "inheritReflection", "userData", "type", "segmentX", "segmentY", "vertices", "alpha"};
static const sinew_jkeys bone_table = SINEW_JKEYS(bone_keys, "bone");

/* A bone's `type`: "bone" (or 0) and "surface" (or 1), as the official parser names them. */
static sinew_status bone_type(db *d, const cJSON *v, bool *surface) {
    *surface = false;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    if (cJSON_IsNumber(v)) {
        int64_t t;
        TRY(sinew__jint(d->c, v, "type", 0, 0, 1, &t));
        *surface = t == 1;
        return SINEW_OK;
    }
    const char *t;
    TRY(sinew__jstr(d->c, v, "type", "bone", &t));
    if (strcmp(t, "surface") == 0)
        *surface = true;
    else if (strcmp(t, "bone") != 0)
        return sinew__jfail_key(d->c, "type", SINEW_E_UNSUPPORTED, "unknown bone type '%s' (bone or surface)", t);
    return SINEW_OK;
}

/* A surface's lattice: segmentX x segmentY cells, (segmentX + 1) (segmentY + 1) points. The
 * official parser ignores a surface's transform, length and inherit flags (its setup is the
 * identity) and pads a short `vertices` with zeros; sinew does the same and warns. */
static sinew_status build_surface(db *d, const cJSON *const *f, sinew_model_bone *B) {
    int64_t sx, sy;
    if (!f[10] || !f[11])
        return sinew__jfail_key(d->c, "type", SINEW_E_MISSING, "surface '%s' has no '%s'", B->name,
                                f[10] ? "segmentY" : "segmentX");
    TRY(sinew__jint(d->c, f[10], "segmentX", 1, 1, 256, &sx));
    TRY(sinew__jint(d->c, f[11], "segmentY", 1, 1, 256, &sy));
    B->segment_x = (uint32_t)sx;
    B->segment_y = (uint32_t)sy;
    B->surface_value_count = 2u * (uint32_t)(sx + 1) * (uint32_t)(sy + 1);
    ALLOC(B->surface_vertices, B->surface_value_count);
    memset(B->surface_vertices, 0, B->surface_value_count * sizeof(double));
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, f[12], "vertices", &first, &n));
    /* every value checked (the error at its index, within float range as other vertices), read
       in double; the lattice takes as many as it has points for */
    double *all = sinew__dbj_scratch_array(d, n ? n : 1u, sizeof *all);
    if (!all)
        return SINEW_E_NOMEM;
    TRY(sinew__jdoubles(d->c, first, "vertices", all, n, (double)FLT_MAX));
    memcpy(B->surface_vertices, all, (n < B->surface_value_count ? n : B->surface_value_count) * sizeof(double));
    if (n != B->surface_value_count)
        sinew__jwarn(d->c, "vertices", SINEW_E_LAYOUT,
                     "surface '%s' has %u vertex values for %u lattice points (%u values); %s, as the official runtime does",
                     B->name, n, B->surface_value_count / 2u, B->surface_value_count,
                     n < B->surface_value_count ? "the rest are 0" : "the extra ones are ignored");
    B->setup.scale_x = B->setup.scale_y = 1.0f;
    B->setup_d[4] = B->setup_d[5] = 1.0;
    return SINEW_OK;
}

sinew_status sinew__dbj_build_bones(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__dbj_limited_array(d, arr, "bone", d->c->limits.max_bones, &first, &n));
    TRY(sinew__dbj_nm_init(d, &d->bones, n));
    const cJSON **nodes = sinew__dbj_scratch_array(d, n, sizeof *nodes);
    const cJSON *(*fields)[BONE_KEY_COUNT] = sinew__dbj_scratch_array(d, n, sizeof *fields);
    const char **names = sinew__dbj_scratch_array(d, n, sizeof *names);
    uint32_t *parent = sinew__dbj_scratch_array(d, n, sizeof *parent);
    uint32_t *model = sinew__dbj_scratch_array(d, n, sizeof *model);
    uint32_t *stack = sinew__dbj_scratch_array(d, n, sizeof *stack);
    uint8_t *state = sinew__dbj_scratch_array(d, n, 1);
    if (!nodes || !fields || !names || !parent || !model || !stack || !state)
        return SINEW_E_NOMEM;
    sinew_namemap byname;
    TRY(sinew__dbj_nm_init(d, &byname, n));
    sinew__jpush_key(d->c, "bone");
    uint32_t i = 0;
    for (const cJSON *b = first; b; b = b->next, i++) {
        nodes[i] = b;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, b, &bone_table, fields[i]));
        if (!fields[i][0])
            return sinew__jfail_key(d->c, "name", SINEW_E_MISSING, "bone has no name");
        TRY(sinew__jstr(d->c, fields[i][0], "name", "", &names[i]));
        if (sinew__namemap_put(&byname, names[i], i) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "bone '%s' is defined twice", names[i]);
        sinew__jpop(d->c);
    }
    for (i = 0; i < n; i++) {
        const char *pn;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jstr(d->c, fields[i][1], "parent", "", &pn));
        parent[i] = SINEW_INVALID_INDEX;
        if (pn[0]) {
            parent[i] = sinew__namemap_get(&byname, pn);
            if (parent[i] == SINEW_INVALID_INDEX)
                return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "bone '%s': parent bone '%s' does not exist",
                                        names[i], pn);
        }
        sinew__jpop(d->c);
    }
    /* parent-first order, stable: a bone is placed right after its ancestors are */
    uint32_t placed = 0;
    for (i = 0; i < n; i++) {
        uint32_t top = 0, b = i;
        while (b != SINEW_INVALID_INDEX && state[b] != 2) {
            if (state[b] == 1) {
                sinew__jpush_index(d->c, b);
                return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "bone '%s' is its own ancestor (parent cycle)",
                                        names[b]);
            }
            state[b] = 1;
            stack[top++] = b;
            b = parent[b];
        }
        while (top) {
            uint32_t x = stack[--top];
            state[x] = 2;
            model[x] = placed++;
        }
    }
    A->bone_count = n;
    ALLOC(A->bones, n);
    d->bone_of_file = model;
    for (i = 0; i < n; i++) {
        sinew_model_bone *B = &A->bones[model[i]];
        const cJSON *const *f = fields[i];
        sinew__jpush_index(d->c, i);
        TRY(sinew__dbj_dup_str(d, names[i], &B->name));
        sinew__namemap_put(&d->bones, B->name, model[i]);
        B->parent = parent[i] == SINEW_INVALID_INDEX ? SINEW_INVALID_INDEX : model[parent[i]];
        B->file_index = i;
        TRY(bone_type(d, f[9], &B->is_surface));
        if (B->is_surface) {
            TRY(build_surface(d, f, B));
        } else {
            TRY(sinew__dbj_parse_transform_d(d, f[2], &B->setup, true, B->setup_d));
            TRY(sinew__jfloat(d->c, f[3], "length", 0.0f, &B->length));
            TRY(sinew__jbool(d->c, f[4], "inheritTranslation", true, &B->inherit_translation));
            TRY(sinew__jbool(d->c, f[5], "inheritRotation", true, &B->inherit_rotation));
            TRY(sinew__jbool(d->c, f[6], "inheritScale", true, &B->inherit_scale));
            TRY(sinew__jbool(d->c, f[7], "inheritReflection", true, &B->inherit_reflection));
        }
        B->has_setup_d = true;
        if (f[13]) /* 5.6 bone `alpha`: the official 5.7 runtime does not read it */
            TRY(sinew__jnum(d->c, f[13], "alpha", 1.0, &(double){0}));
        TRY(sinew__dbj_user_data(d, f[8], &B->user_data));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* ---- slots ----------------------------------------------------------------------------------- */

static const char *const slot_keys[] = {"name", "parent",   "displayIndex", "blendMode", "color", "z",
                                        "actions", "userData", "zOrder", "zIndex", "alpha"};
static const sinew_jkeys slot_table = SINEW_JKEYS(slot_keys, "slot");

sinew_status sinew__dbj_build_slots(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__dbj_limited_array(d, arr, "slot", d->c->limits.max_slots, &first, &n));
    A->slot_count = n;
    ALLOC(A->slots, n);
    TRY(sinew__dbj_nm_init(d, &d->slots, n));
    /* slots are stored sorted by `z` (stable; default the array index) */
    int64_t *z = sinew__dbj_scratch_array(d, n, sizeof *z);
    uint32_t *order = sinew__dbj_scratch_array(d, n, sizeof *order);
    const cJSON **nodes = sinew__dbj_scratch_array(d, n, sizeof *nodes);
    if (!z || !order || !nodes)
        return SINEW_E_NOMEM;
    sinew__jpush_key(d->c, "slot");
    uint32_t i = 0;
    bool sorted = true;
    for (const cJSON *s = first; s; s = s->next, i++) {
        nodes[i] = s;
        order[i] = i;
        const cJSON *zv = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "z") : NULL;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jint(d->c, zv, "z", (double)i, -2147483648.0, 2147483647.0, &z[i]));
        sinew__jpop(d->c);
        if (i && z[i] < z[i - 1])
            sorted = false;
    }
    if (!sorted) { /* insertion sort keeps it stable; slot counts are small */
        for (i = 1; i < n; i++) {
            uint32_t o = order[i], j = i;
            while (j > 0 && z[order[j - 1]] > z[o]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = o;
        }
    }
    for (uint32_t m = 0; m < n; m++) {
        uint32_t fi = order[m];
        sinew_model_slot *S = &A->slots[m];
        const cJSON *f[11];
        sinew__jpush_index(d->c, fi);
        TRY(sinew__jfields(d->c, nodes[fi], &slot_table, f));
        /* 5.6 slot `zIndex` and `alpha`: numbers the official 5.x runtime does not read; the 6.0
         * runtime (upstream 5.7) sorts by zIndex (docs/runtime.md "Upstream 5.7 semantics") */
        double zi;
        TRY(sinew__jnum(d->c, f[9], "zIndex", 0.0, &zi));
        S->z_index = A->v6 && isfinite(zi) ? zi : 0.0;
        TRY(sinew__jnum(d->c, f[10], "alpha", 1.0, &(double){0}));
        const char *name, *pn;
        if (!f[0])
            return sinew__jfail_key(d->c, "name", SINEW_E_MISSING, "slot has no name");
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        TRY(sinew__dbj_dup_str(d, name, &S->name));
        if (sinew__namemap_put(&d->slots, S->name, m) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "slot '%s' is defined twice", name);
        if (!f[1])
            return sinew__jfail_key(d->c, "parent", SINEW_E_MISSING, "slot '%s' has no parent bone", name);
        TRY(sinew__jstr(d->c, f[1], "parent", "", &pn));
        S->parent = sinew__namemap_get(&d->bones, pn);
        if (S->parent == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "slot '%s': parent bone '%s' does not exist", name, pn);
        int64_t di;
        TRY(sinew__jint(d->c, f[2], "displayIndex", 0, -1, 2147483647.0, &di));
        S->display_index = (int32_t)di;
        S->blend = SINEW_BLEND_NORMAL;
        if (cJSON_IsString(f[3])) {
            bool known;
            S->blend = sinew__dbj_blend_from_string(f[3]->valuestring, &known);
            if (!known)
                sinew__jwarn(d->c, "blendMode", SINEW_E_UNSUPPORTED, "unknown blend mode '%s' (using normal)",
                             f[3]->valuestring);
        } else if (f[3] && !cJSON_IsNull(f[3])) {
            int64_t bm;
            TRY(sinew__jint(d->c, f[3], "blendMode", 0, 0, SINEW_BLEND_COUNT - 1, &bm));
            S->blend = (sinew_blend_mode)bm;
        }
        TRY(sinew__dbj_parse_color(d, f[4], "color", &S->color));
        S->z = (int32_t)z[fi];
        uint32_t a0 = d->action_count;
        TRY(sinew__dbj_parse_actions(d, f[6], "actions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, m));
        S->first_action = a0;
        S->action_count = d->action_count - a0;
        TRY(sinew__dbj_user_data(d, f[7], &S->user_data));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* ---- skins and displays ------------------------------------------------------------------ */

static const char *const skin_keys[] = {"name", "slot", "userData"};
const sinew_jkeys sinew__dbj_skin_table = SINEW_JKEYS(skin_keys, "skin");
static const char *const skin_slot_keys[] = {"name", "display", "blendMode", "color", "displayIndex"};
const sinew_jkeys sinew__dbj_skin_slot_table = SINEW_JKEYS(skin_slot_keys, "skin slot");
static const char *const pivot_keys[] = {"x", "y"};
const sinew_jkeys sinew__dbj_pivot_table = SINEW_JKEYS(pivot_keys, "pivot");

/* A shared mesh's geometry: the mesh the official parser wrote first (see SHARE), unweighted. */
void sinew__dbj_share_geometry(db *d, sinew_model_mesh *M) {
    M->vertex_count = d->first_mesh->vertex_count;
    M->vertices = d->first_mesh->vertices;
    M->uvs = d->first_mesh->uvs;
    M->triangle_count = d->first_mesh->triangle_count;
    M->triangles = d->first_mesh->triangles;
}

/* The display the official parser's first int array write comes from, among this armature's
 * skins in file order: the first mesh that is not shared, or a path (NULL and FIRST_OTHER), or
 * none (NULL). */
void sinew__dbj_find_first_int(db *d, const cJSON *first) {
    for (const cJSON *s = first; s; s = s->next) {
        const cJSON *slots = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "slot") : NULL;
        for (const cJSON *ss = cJSON_IsArray(slots) ? slots->child : NULL; ss; ss = ss->next) {
            const cJSON *ds = cJSON_IsObject(ss) ? cJSON_GetObjectItemCaseSensitive(ss, "display") : NULL;
            for (const cJSON *dd = cJSON_IsArray(ds) ? ds->child : NULL; dd; dd = dd->next) {
                const cJSON *t = cJSON_IsObject(dd) ? cJSON_GetObjectItemCaseSensitive(dd, "type") : NULL;
                bool mesh = (cJSON_IsString(t) && strcmp(t->valuestring, "mesh") == 0) ||
                            (cJSON_IsNumber(t) && t->valuedouble == 2.0);
                bool path = (cJSON_IsString(t) && strcmp(t->valuestring, "path") == 0) ||
                            (cJSON_IsNumber(t) && t->valuedouble == 4.0);
                if (mesh && !cJSON_GetObjectItemCaseSensitive(dd, "share")) {
                    d->first_node = dd;
                    return;
                }
                if (path) {
                    d->first_int = FIRST_OTHER;
                    return;
                }
            }
        }
    }
}

/* ---- IK ---------------------------------------------------------------------------------------- */

static const char *const ik_keys[] = {"name", "bone", "target", "bendPositive", "chain", "weight", "scale"};
static const sinew_jkeys ik_table = SINEW_JKEYS(ik_keys, "ik");

sinew_status sinew__dbj_build_iks(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "ik", &first, &n));
    A->ik_count = n;
    ALLOC(A->iks, n);
    TRY(sinew__dbj_nm_init(d, &d->iks, n));
    sinew__jpush_key(d->c, "ik");
    uint32_t i = 0, kept = 0;
    for (const cJSON *v = first; v; v = v->next, i++) {
        const cJSON *f[7];
        sinew_model_ik *K = &A->iks[kept];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, v, &ik_table, f));
        const char *name, *bone, *target;
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        if (!f[1] || !f[2]) {
            /* Real 4.5 exports contain constraints without a bone or target key; the official
             * parser drops them (it builds no constraint when either bone is missing). */
            sinew__jwarn(d->c, NULL, SINEW_E_MISSING, "IK constraint '%s' has no %s (ignored, as the official runtime does)",
                         name, f[1] ? "target" : "bone");
            sinew__jpop(d->c);
            continue;
        }
        TRY(sinew__dbj_dup_str(d, name, &K->name));
        TRY(sinew__jstr(d->c, f[1], "bone", "", &bone));
        TRY(sinew__jstr(d->c, f[2], "target", "", &target));
        K->bone = sinew__namemap_get(&d->bones, bone);
        if (K->bone == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "bone", SINEW_E_REFERENCE, "IK constraint '%s': bone '%s' does not exist", name, bone);
        K->target = sinew__namemap_get(&d->bones, target);
        if (K->target == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "target", SINEW_E_REFERENCE, "IK constraint '%s': target bone '%s' does not exist",
                                    name, target);
        TRY(sinew__jbool(d->c, f[3], "bendPositive", true, &K->bend_positive));
        int64_t chain;
        TRY(sinew__jint(d->c, f[4], "chain", 0, 0, 1000000, &chain));
        uint32_t parent = A->bones[K->bone].parent;
        if (chain > 0 && parent != SINEW_INVALID_INDEX) {
            K->chain = 1;
            K->root = parent;
        } else {
            K->chain = 0;
            K->root = K->bone;
        }
        TRY(sinew__jfloat(d->c, f[5], "weight", 1.0f, &K->weight));
        TRY(sinew__jbool(d->c, f[6], "scale", false, &K->scale));
        sinew__jpop(d->c);
        kept++;
    }
    sinew__jpop(d->c);
    A->ignored_ik_count = n - kept;
    A->ik_count = n = kept;
    /* IK names for timelines (first wins), then sort stably by root: the order they are solved */
    for (i = 1; i < n; i++) {
        sinew_model_ik k = A->iks[i];
        uint32_t j = i;
        while (j > 0 && A->iks[j - 1].root > k.root) {
            A->iks[j] = A->iks[j - 1];
            j--;
        }
        A->iks[j] = k;
    }
    for (i = 0; i < n; i++)
        sinew__namemap_put(&d->iks, A->iks[i].name, i);
    return SINEW_OK;
}

/* ---- path constraints --------------------------------------------------------------------------- */

static const char *const pc_keys[] = {"name",       "target",  "targetDisplay", "bones",        "positionMode",
                                      "spacingMode", "rotateMode", "position",   "spacing",      "rotateOffset",
                                      "rotateMix",  "translateMix", "rotateWeight", "xWeight", "yWeight"};
static const sinew_jkeys pc_table = SINEW_JKEYS(pc_keys, "path constraint");

/* A mode name, compared case-insensitively as officially; an unknown one (or none) gives the
 * official default, with a warning for an unknown one. */
static sinew_status path_mode(db *d, const cJSON *v, const char *key, const char *const *names, uint32_t count,
                              uint8_t def, uint8_t *out) {
    const char *str;
    TRY(sinew__jstr(d->c, v, key, "", &str));
    *out = def;
    for (uint32_t i = 0; i < count; i++) {
        const char *a = str, *b = names[i];
        while (*a && *b && (*a >= 'A' && *a <= 'Z' ? *a + 32 : *a) == *b)
            a++, b++;
        if (!*a && !*b) {
            *out = (uint8_t)i;
            return SINEW_OK;
        }
    }
    if (str[0])
        sinew__jwarn(d->c, key, SINEW_E_UNSUPPORTED, "unknown %s '%s' (using '%s', as the official runtime does)", key,
                     str, names[def]);
    return SINEW_OK;
}

/* A 6.0 path constraint's modes (numbers: an unknown one is percent / length / tangent, as
 * officially; absent: fixed / fixed / tangent) and weights (`rotateMix` and `translateMix` are no
 * longer read). What the 6.0 runtime computes as NaN is said here, once (docs/runtime.md). */
static sinew_status v6_path_fields(db *d, const cJSON *const *f, sinew_model_path_constraint *C) {
    double pm, sm, rm;
    TRY(sinew__dbj_v6_mode(d, f[4], "positionMode", 0.0, &pm));
    TRY(sinew__dbj_v6_mode(d, f[5], "spacingMode", 1.0, &sm));
    TRY(sinew__dbj_v6_mode(d, f[6], "rotateMode", 0.0, &rm));
    C->position_mode = pm == 0.0 ? SINEW_PATH_POSITION_FIXED : SINEW_PATH_POSITION_PERCENT;
    C->spacing_mode = sm == 1.0 ? SINEW_PATH_SPACING_FIXED : sm == 2.0 ? SINEW_PATH_SPACING_PERCENT : SINEW_PATH_SPACING_LENGTH;
    C->rotate_mode = rm == 1.0 ? SINEW_PATH_ROTATE_CHAIN : rm == 2.0 ? SINEW_PATH_ROTATE_CHAIN_SCALE
                     : rm == 3.0 ? SINEW_PATH_ROTATE_SNIP : SINEW_PATH_ROTATE_TANGENT;
    TRY(sinew__jnum(d->c, f[12], "rotateWeight", 1.0, &C->rotate_mix));
    TRY(sinew__jnum(d->c, f[13], "xWeight", 1.0, &C->x_weight));
    TRY(sinew__jnum(d->c, f[14], "yWeight", 1.0, &C->y_weight));
    C->translate_mix = 1.0;
    if (f[10] || f[11])
        sinew__jwarn(d->c, f[10] ? "rotateMix" : "translateMix", SINEW_OK,
                     "'rotateMix' and 'translateMix' are 5.x keys: a 6.0 file's path constraint takes "
                     "'rotateWeight', 'xWeight' and 'yWeight' (the 5.x keys are ignored, as officially)");
    if (C->spacing_mode == SINEW_PATH_SPACING_FIXED)
        sinew__jwarn(d->c, f[5] ? "spacingMode" : NULL, SINEW_E_UNSUPPORTED,
                     "path constraint: spacingMode 1 (fixed%s) makes every constrained bone NaN in the official "
                     "6.0 runtime; sinew spaces the bones 'spacing' apart, as 5.x did (docs/runtime.md)",
                     f[5] ? "" : ", the default when 'spacingMode' is absent");
    return SINEW_OK;
}

/* The armature's `path` list. The official parser drops a constraint whose slot, default-skin
 * display (a path) or every bone is missing, and one whose name an earlier constraint (IK or
 * path) already has; sinew drops the same ones with a warning. Bones it does not find are
 * skipped, as officially. */
sinew_status sinew__dbj_build_path_constraints(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "path", &first, &n));
    ALLOC(A->path_constraints, n);
    A->path_constraint_count = 0;
    uint32_t def_skin = SINEW_INVALID_INDEX;
    for (uint32_t k = 0; k < A->skin_count && def_skin == SINEW_INVALID_INDEX; k++)
        if (strcmp(A->skins[k].name, "") == 0 || strcmp(A->skins[k].name, "default") == 0)
            def_skin = k;
    if (def_skin == SINEW_INVALID_INDEX && A->skin_count > 0)
        def_skin = 0;
    static const char *const position_names[] = {"fixed", "percent"};
    static const char *const spacing_names[] = {"length", "fixed", "percent"};
    static const char *const rotate_names[] = {"tangent", "chain", "chainscale"};
    sinew__jpush_key(d->c, "path");
    uint32_t i = 0;
    for (const cJSON *v = first; v; v = v->next, i++) {
        const cJSON *f[15];
        sinew_model_path_constraint *C = &A->path_constraints[A->path_constraint_count];
        memset(C, 0, sizeof *C);
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, v, &pc_table, f));
        const char *name, *target, *tdisp;
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        TRY(sinew__jstr(d->c, f[1], "target", "", &target));
        C->slot = sinew__namemap_get(&d->slots, target);
        if (C->slot == SINEW_INVALID_INDEX || def_skin == SINEW_INVALID_INDEX) {
            sinew__jwarn(d->c, f[1] ? "target" : NULL, SINEW_E_REFERENCE,
                         "path constraint '%s': %s (ignored, as the official runtime does)", name,
                         C->slot == SINEW_INVALID_INDEX ? "no such target slot" : "the armature has no skin");
            sinew__jpop(d->c);
            continue;
        }
        TRY(sinew__jstr(d->c, f[2], "targetDisplay", target, &tdisp));
        C->display = SINEW_INVALID_INDEX;
        const sinew_model_skin *K = &A->skins[def_skin];
        for (uint32_t j = 0; j < K->slot_count && C->display == SINEW_INVALID_INDEX; j++) {
            const sinew_model_skin_slot *ss = &A->skin_slots[K->first_slot + j];
            if (ss->slot != C->slot)
                continue;
            for (uint32_t x = 0; x < ss->display_count; x++)
                if (strcmp(A->displays[ss->first_display + x].name, tdisp) == 0) {
                    C->display = ss->first_display + x;
                    break;
                }
        }
        if (C->display == SINEW_INVALID_INDEX || A->displays[C->display].type != SINEW_DISPLAY_PATH ||
            A->displays[C->display].path_data >= A->path_count) {
            sinew__jwarn(d->c, f[2] ? "targetDisplay" : "target", SINEW_E_REFERENCE,
                         "path constraint '%s': slot '%s' has no path display '%s' in the default skin (ignored, as "
                         "the official runtime does)",
                         name, target, tdisp);
            sinew__jpop(d->c);
            continue;
        }
        C->path = A->displays[C->display].path_data;
        const cJSON *bfirst;
        uint32_t bn;
        TRY(sinew__jarray(d->c, f[3], "bones", &bfirst, &bn));
        ALLOC(C->bones, bn);
        uint32_t b = 0;
        for (const cJSON *e = bfirst; e; e = e->next, b++) {
            const char *bone;
            sinew__jpush_key(d->c, "bones");
            sinew__jpush_index(d->c, b);
            sinew_status st = cJSON_IsString(e) ? SINEW_OK : sinew__jfail(d->c, SINEW_E_TYPE, "'bones'[%u] must be a bone name", b);
            sinew__jpop(d->c);
            sinew__jpop(d->c);
            TRY(st);
            bone = e->valuestring;
            uint32_t mb = sinew__namemap_get(&d->bones, bone);
            if (mb == SINEW_INVALID_INDEX) {
                sinew__jpush_key(d->c, "bones");
                sinew__jwarn(d->c, NULL, SINEW_E_REFERENCE,
                             "path constraint '%s': bone '%s' does not exist (skipped, as the official runtime does)",
                             name, bone);
                sinew__jpop(d->c);
                continue;
            }
            C->bones[C->bone_count++] = mb;
        }
        if (C->bone_count == 0 || sinew__dbj_constraint_name_taken(A, name)) {
            sinew__jwarn(d->c, NULL, SINEW_E_REFERENCE, "path constraint '%s': %s (ignored, as the official runtime does)",
                         name, C->bone_count == 0 ? "no bone to constrain" : "an earlier constraint has this name");
            sinew__jpop(d->c);
            continue;
        }
        C->root = C->bones[0];
        TRY(sinew__dbj_dup_str(d, name, &C->name));
        if (f[2])
            TRY(sinew__dbj_dup_str(d, tdisp, &C->target_display));
        if (A->v6) {
            TRY(v6_path_fields(d, f, C));
            const sinew_model_path *P = &A->paths[C->path];
            if (P->closed && P->constant_speed)
                sinew__jwarn(d->c, "target", SINEW_E_UNSUPPORTED,
                             "path constraint '%s': a closed constant-speed path makes every constrained bone NaN in "
                             "the official 6.0 runtime; sinew samples the closed path (docs/runtime.md)", name);
        } else {
            TRY(path_mode(d, f[4], "positionMode", position_names, 2, SINEW_PATH_POSITION_PERCENT, &C->position_mode));
            TRY(path_mode(d, f[5], "spacingMode", spacing_names, 3, SINEW_PATH_SPACING_LENGTH, &C->spacing_mode));
            TRY(path_mode(d, f[6], "rotateMode", rotate_names, 3, SINEW_PATH_ROTATE_TANGENT, &C->rotate_mode));
            TRY(sinew__jnum(d->c, f[10], "rotateMix", 1.0, &C->rotate_mix));
            TRY(sinew__jnum(d->c, f[11], "translateMix", 1.0, &C->translate_mix));
            C->x_weight = C->y_weight = C->translate_mix;
        }
        TRY(sinew__jnum(d->c, f[7], "position", 0.0, &C->position));
        TRY(sinew__jnum(d->c, f[8], "spacing", 0.0, &C->spacing));
        TRY(sinew__jnum(d->c, f[9], "rotateOffset", 0.0, &C->rotate_offset));
        A->path_constraint_count++;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    A->ignored_path_constraint_count = n - A->path_constraint_count;
    return SINEW_OK;
}
