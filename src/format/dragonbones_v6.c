/* DragonBones JSON: what 6.0 adds to an armature (transform and physics constraints), the names
 * constraints share, and the 6.0 reading of numbers the official parser coerces.
 * Part of the DragonBones JSON loader (format/dragonbones_json_internal.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "format/dragonbones_json_internal.h"

/* ---- constraint names ---------------------------------------------------------------------- */

/* The official armature keeps its constraints in one map by name: IK, transform, physics and path
 * constraints are added in that order, and one whose name is taken is dropped. */
bool sinew__dbj_constraint_name_taken(const sinew_model_armature *A, const char *name) {
    for (uint32_t i = 0; i < A->ik_count; i++)
        if (strcmp(A->iks[i].name, name) == 0)
            return true;
    for (uint32_t i = 0; i < A->transform_constraint_count; i++)
        if (strcmp(A->transform_constraints[i].name, name) == 0)
            return true;
    for (uint32_t i = 0; i < A->physics_count; i++)
        if (strcmp(A->physics[i].name, name) == 0)
            return true;
    for (uint32_t i = 0; i < A->path_constraint_count; i++)
        if (strcmp(A->path_constraints[i].name, name) == 0)
            return true;
    return false;
}

/* Orders `n` records of `size` bytes, whose name is the first member, as the official runtime
 * enumerates its constraint map: index names first by value, then the rest as added. */
static sinew_status key_order(db *d, void *base, uint32_t n, size_t size) {
    if (n < 2)
        return SINEW_OK;
    unsigned char *tmp = sinew__dbj_scratch_array(d, (size_t)n, size);
    uint32_t *val = sinew__dbj_scratch_array(d, n, sizeof *val);
    uint8_t *is_index = sinew__dbj_scratch_array(d, n, 1);
    if (!tmp || !val || !is_index)
        return SINEW_E_NOMEM;
    unsigned char *b = base;
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *name;
        memcpy(&name, b + (size_t)i * size, sizeof name);
        is_index[i] = sinew__js_index_key(name, &val[i]);
    }
    for (;;) { /* index names, smallest first (each is unique: names are) */
        uint32_t best = SINEW_INVALID_INDEX;
        for (uint32_t i = 0; i < n; i++)
            if (is_index[i] == 1 && (best == SINEW_INVALID_INDEX || val[i] < val[best]))
                best = i;
        if (best == SINEW_INVALID_INDEX)
            break;
        memcpy(tmp + (size_t)out++ * size, b + (size_t)best * size, size);
        is_index[best] = 2;
    }
    for (uint32_t i = 0; i < n; i++)
        if (is_index[i] == 0)
            memcpy(tmp + (size_t)out++ * size, b + (size_t)i * size, size);
    memcpy(base, tmp, (size_t)n * size);
    return SINEW_OK;
}

/* ---- transform constraints ------------------------------------------------------------------- */

static const char *const tc_keys[] = {"name",           "target",       "bones",           "offset",
                                      "translateWeight", "rotateWeight", "scaleWeight",     "local",
                                      "relative"};
static const sinew_jkeys tc_table = SINEW_JKEYS(tc_keys, "transform constraint");
static const char *const tc_offset_keys[] = {"x", "y", "skX", "skY", "scX", "scY"};
static const sinew_jkeys tc_offset_table = SINEW_JKEYS(tc_offset_keys, "transform constraint offset");

/* A warning that an entry is dropped, as the official parser drops it (it says nothing). */
static void dropped(db *d, const char *key, const char *what, const char *name, const char *why) {
    sinew__jwarn(d->c, key, SINEW_E_REFERENCE, "%s '%s': %s (ignored, as the official runtime does)", what, name, why);
}

/* The bones a transform constraint lists; false when it must be dropped (then warned). */
static sinew_status tc_bones(db *d, const cJSON *v, const char *name, sinew_model_transform_constraint *C, bool *keep) {
    const cJSON *first;
    uint32_t n;
    *keep = false;
    TRY(sinew__jarray(d->c, v, "bones", &first, &n));
    ALLOC(C->bones, n);
    uint32_t i = 0;
    for (const cJSON *e = first; e; e = e->next, i++) {
        if (!cJSON_IsString(e)) {
            sinew__jpush_key(d->c, "bones");
            sinew__jpush_index(d->c, i);
            return sinew__jfail(d->c, SINEW_E_TYPE, "'bones'[%u] must be a bone name", i);
        }
        uint32_t b = sinew__namemap_get(&d->bones, e->valuestring);
        if (b == SINEW_INVALID_INDEX) {
            sinew__jwarn(d->c, "bones", SINEW_E_REFERENCE,
                         "transform constraint '%s': bone '%s' does not exist (skipped, as the official runtime does)",
                         name, e->valuestring);
            continue;
        }
        C->bones[C->bone_count++] = b;
    }
    if (C->bone_count == 0)
        dropped(d, "bones", "transform constraint", name, n ? "none of its bones exists" : "'bones' is empty");
    else
        *keep = true;
    return SINEW_OK;
}

static sinew_status tc_offset(db *d, const cJSON *v, sinew_model_transform_constraint *C) {
    const cJSON *g[6];
    sinew__jpush_key(d->c, "offset");
    TRY(sinew__jfields(d->c, v, &tc_offset_table, g));
    TRY(sinew__jnum(d->c, g[0], "x", 0.0, &C->offset_x));
    TRY(sinew__jnum(d->c, g[1], "y", 0.0, &C->offset_y));
    double sk;
    TRY(sinew__jnum(d->c, g[2], "skX", 0.0, &sk));
    C->offset_rotation = g[2] ? sinew__dbj_normalize_rad(sk * DEG2RAD) : 0.0; /* skY is not read */
    TRY(sinew__jnum(d->c, g[4], "scX", 0.0, &C->offset_scale_x));
    TRY(sinew__jnum(d->c, g[5], "scY", 0.0, &C->offset_scale_y));
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* One entry of `transform`: *kept says whether it became a constraint. */
static sinew_status build_transform(db *d, const cJSON *v, void *rec, bool *kept) {
    sinew_model_transform_constraint *C = rec;
    const cJSON *f[9];
    *kept = false;
    memset(C, 0, sizeof *C);
    TRY(sinew__jfields(d->c, v, &tc_table, f));
    const char *name, *target;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(sinew__jstr(d->c, f[1], "target", "", &target));
    /* the official parser throws on these two (the whole file fails to load) */
    if (!f[2] || cJSON_IsNull(f[2]))
        return sinew__jfail(d->c, SINEW_E_MISSING, "transform constraint '%s' has no 'bones' (the official runtime "
                            "cannot load the file)", name);
    C->target = sinew__namemap_get(&d->bones, target);
    if (C->target == SINEW_INVALID_INDEX) {
        dropped(d, f[1] ? "target" : NULL, "transform constraint", name, "no such target bone");
        return SINEW_OK;
    }
    bool keep;
    TRY(tc_bones(d, f[2], name, C, &keep));
    if (!keep)
        return SINEW_OK;
    if (!f[3] || cJSON_IsNull(f[3]))
        return sinew__jfail(d->c, SINEW_E_MISSING, "transform constraint '%s' has no 'offset' (the official runtime "
                            "cannot load the file; write \"offset\": {} for none)", name);
    TRY(tc_offset(d, f[3], C));
    TRY(sinew__jnum(d->c, f[4], "translateWeight", 0.0, &C->translate_weight));
    TRY(sinew__jnum(d->c, f[5], "rotateWeight", 0.0, &C->rotate_weight));
    TRY(sinew__jnum(d->c, f[6], "scaleWeight", 0.0, &C->scale_weight));
    TRY(sinew__jbool(d->c, f[7], "local", false, &C->local));
    TRY(sinew__jbool(d->c, f[8], "relative", false, &C->relative));
    if (sinew__dbj_constraint_name_taken(d->arm, name)) {
        dropped(d, "name", "transform constraint", name, "an earlier constraint has this name");
        return SINEW_OK;
    }
    TRY(sinew__dbj_dup_str(d, name, &C->name));
    *kept = true;
    return SINEW_OK;
}

/* ---- physics constraints --------------------------------------------------------------------- */

/* The stretch factor's key is `scX` (the official parser's SCALE_X); a `scaleX` key is not read by the
 * official runtime (said in a warning). */
enum {
    P_NAME, P_BONE, P_X, P_Y, P_ROTATE, P_SHEARX, P_SCALEX, P_LIMIT, P_FPS, P_INERTIA, P_STRENGTH, P_DAMPING,
    P_MASS, P_WIND, P_WINDDIST, P_GRAVITY, P_WEIGHT, P_SCALEX_UNREAD, P_COUNT
};
static const char *const ph_keys[P_COUNT] = {"name",    "bone",     "x",       "y",       "rotate",  "shearX",
                                             "scX",     "limit",    "fps",     "inertia", "strength", "damping",
                                             "mass",    "wind",     "windDisturbance", "gravity", "weight",
                                             "scaleX"};
static const sinew_jkeys ph_table = SINEW_JKEYS(ph_keys, "physics constraint");

static sinew_status build_physics(db *d, const cJSON *v, void *rec, bool *kept) {
    sinew_model_physics *P = rec;
    const cJSON *f[P_COUNT];
    *kept = false;
    memset(P, 0, sizeof *P);
    TRY(sinew__jfields(d->c, v, &ph_table, f));
    const char *name, *bone;
    TRY(sinew__jstr(d->c, f[P_NAME], "name", "", &name));
    TRY(sinew__jstr(d->c, f[P_BONE], "bone", "", &bone));
    P->bone = bone[0] ? sinew__namemap_get(&d->bones, bone) : SINEW_INVALID_INDEX;
    if (P->bone == SINEW_INVALID_INDEX) {
        dropped(d, f[P_BONE] ? "bone" : NULL, "physics constraint", name, bone[0] ? "no such bone" : "no 'bone'");
        return SINEW_OK;
    }
    double *const dst[] = {&P->x,        &P->y,    &P->rotate,   &P->shear_x, &P->scale_x, &P->limit,
                           &P->fps,      &P->inertia, &P->strength, &P->damping, &P->mass, &P->wind,
                           &P->wind_disturbance, &P->gravity, &P->weight};
    for (uint32_t k = P_X; k < P_SCALEX_UNREAD; k++)
        TRY(sinew__jnum(d->c, f[k], ph_keys[k], k == P_FPS ? 1.0 : 0.0, dst[k - P_X]));
    if (f[P_SCALEX_UNREAD])
        sinew__jwarn(d->c, "scaleX", SINEW_E_UNSUPPORTED,
                     "physics constraint '%s': the official runtime reads the stretch factor from 'scX' and ignores "
                     "'scaleX' (so does sinew)", name);
    if (sinew__dbj_constraint_name_taken(d->arm, name)) {
        dropped(d, "name", "physics constraint", name, "an earlier constraint has this name");
        return SINEW_OK;
    }
    /* what the official runtime computes as NaN or infinity: said once here, played as documented */
    if (P->mass == 0.0)
        sinew__jwarn(d->c, "mass", SINEW_E_RANGE,
                     "physics constraint '%s': 'mass' is 0, which makes the official runtime's bone NaN; sinew "
                     "leaves the bone where its animation puts it (docs/runtime.md)", name);
    if (!(P->fps > 0.0))
        sinew__jwarn(d->c, "fps", SINEW_E_RANGE,
                     "physics constraint '%s': 'fps' %g is not positive: the simulation never steps (the official 6.0 "
                     "runtime never steps at 0 and loops forever below 0; docs/runtime.md)", name, P->fps);
    TRY(sinew__dbj_dup_str(d, name, &P->name));
    *kept = true;
    return SINEW_OK;
}

/* ---- the armature's 6.0 lists ------------------------------------------------------------------ */

/* Builds the entries of the array `key` (from `first`) into records of `size` bytes at `base`,
 * counting in *count those that became constraints. */
static sinew_status build_list(db *d, const cJSON *first, const char *key,
                               sinew_status (*build)(db *, const cJSON *, void *, bool *), void *base, size_t size,
                               uint32_t *count) {
    uint32_t i = 0;
    sinew__jpush_key(d->c, key);
    for (const cJSON *v = first; v; v = v->next, i++) {
        bool kept;
        sinew__jpush_index(d->c, i);
        TRY(build(d, v, (unsigned char *)base + (size_t)*count * size, &kept));
        *count += kept;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* `transform` and `physics` (6.0; parsed after `ik` and before the slots, as officially). */
sinew_status sinew__dbj_build_v6_constraints(db *d, const cJSON *transform, const cJSON *physics) {
    sinew_model_armature *A = d->arm;
    const cJSON *tfirst, *pfirst;
    uint32_t tn, pn;
    TRY(sinew__jarray(d->c, transform, "transform", &tfirst, &tn));
    TRY(sinew__jarray(d->c, physics, "physics", &pfirst, &pn));
    if ((tn || pn) && !A->v6) {
        sinew__jwarn(d->c, tn ? "transform" : "physics", SINEW_E_UNSUPPORTED,
                     "'%s' constraints are DragonBones 6.0 data: a %s file plays as 5.x, without them",
                     tn ? "transform" : "physics", d->data->version);
        return SINEW_OK;
    }
    ALLOC(A->transform_constraints, tn);
    ALLOC(A->physics, pn);
    TRY(build_list(d, tfirst, "transform", build_transform, A->transform_constraints,
                   sizeof *A->transform_constraints, &A->transform_constraint_count));
    TRY(build_list(d, pfirst, "physics", build_physics, A->physics, sizeof *A->physics, &A->physics_count));
    A->ignored_constraint_count = tn + pn - A->transform_constraint_count - A->physics_count;
    TRY(key_order(d, A->transform_constraints, A->transform_constraint_count, sizeof *A->transform_constraints));
    return key_order(d, A->physics, A->physics_count, sizeof *A->physics);
}

/* ---- numbers the 6.0 parser coerces ------------------------------------------------------------ */

/* A path-constraint mode as the 6.0 parser reads it: a number (or a numeric string), and anything
 * else that is not absent or null is 0, as JavaScript's `+value || 0` makes it (the 5.x names
 * "percent", "chainScale", ... all become 0; said in a warning). */
sinew_status sinew__dbj_v6_mode(db *d, const cJSON *v, const char *key, double def, double *out) {
    *out = def;
    if (!v || cJSON_IsNull(v) || (cJSON_IsString(v) && strcmp(v->valuestring, "NaN") == 0))
        return SINEW_OK;
    if (cJSON_IsNumber(v)) {
        *out = isfinite(v->valuedouble) ? v->valuedouble : 0.0;
        return SINEW_OK;
    }
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1.0 : 0.0;
        return SINEW_OK;
    }
    if (cJSON_IsString(v)) {
        char *end;
        double x = sinew__strtod(v->valuestring, &end);
        if (v->valuestring[0] && !*end && isfinite(x)) {
            *out = x;
            return SINEW_OK;
        }
    }
    *out = 0.0;
    sinew__jwarn(d->c, key, SINEW_E_UNSUPPORTED,
                 "'%s' is not a number: a 6.0 file's path modes are numbers, and the 6.0 runtime reads this one "
                 "as 0", key);
    return SINEW_OK;
}
