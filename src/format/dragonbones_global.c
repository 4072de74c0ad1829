/* DragonBones JSON: isGlobal data (absolute transforms) made local.
 * Part of the DragonBones JSON loader (format/dragonbones_json_internal.h). */
#include <math.h>
#include <string.h>

#include "format/dragonbones_json_internal.h"

/* ---- isGlobal: absolute -> local ----------------------------------------------------------- */

static sinew_affine transform_matrix(const sinew_transform *t) {
    sinew_affine m;
    double r = t->rotation, s = (double)t->rotation + t->skew;
    m.a = (float)(cos(r) * t->scale_x);
    m.b = (float)(sin(r) * t->scale_x);
    m.c = (float)(-sin(s) * t->scale_y);
    m.d = (float)(cos(s) * t->scale_y);
    m.tx = t->x;
    m.ty = t->y;
    return m;
}

/* Global transform of bone `b` in animation `N` at frame `t` as the file writes it (absolute
 * keyframes; the setup transform where the bone has no BONE_ALL timeline). Linear between keys. */
static sinew_transform global_at(const sinew_model_armature *A, const sinew_model_animation *N,
                                 const sinew_transform *setup_global, uint32_t b, float t) {
    sinew_transform g = setup_global[b];
    for (uint32_t i = 0; N && i < N->timeline_count; i++) {
        const sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
        if (T->type != SINEW_TL_BONE_ALL || T->target != b || T->key_count == 0)
            continue;
        const sinew_model_keyframe *K = &N->keys[T->first_key];
        uint32_t k = 0;
        while (k + 1 < T->key_count && K[k + 1].position <= t)
            k++;
        const float *v0 = T->values + (size_t)k * 6u;
        float p = 0.0f;
        const float *v1 = v0;
        if (k + 1 < T->key_count && K[k].tween != SINEW_TWEEN_NONE && K[k + 1].position > K[k].position) {
            v1 = T->values + (size_t)(k + 1) * 6u;
            p = (t - K[k].position) / (K[k + 1].position - K[k].position);
        }
        g.x = v0[0] + (v1[0] - v0[0]) * p;
        g.y = v0[1] + (v1[1] - v0[1]) * p;
        g.rotation = v0[2] + (float)sinew__dbj_normalize_rad(v1[2] - v0[2]) * p;
        g.skew = v0[3] + (v1[3] - v0[3]) * p;
        g.scale_x = v0[4] + (v1[4] - v0[4]) * p;
        g.scale_y = v0[5] + (v1[5] - v0[5]) * p;
        break;
    }
    return g;
}

/* Global transform -> local relative to a parent global transform (position through the inverse
 * parent matrix, rotation minus the parent rotation; skew and scale are kept). */
static void to_local(sinew_transform *t, const sinew_transform *parent) {
    sinew_affine inv;
    if (!sinew__dbj_affine_invert(transform_matrix(parent), &inv))
        return;
    float x = t->x, y = t->y;
    t->x = inv.a * x + inv.c * y + inv.tx;
    t->y = inv.b * x + inv.d * y + inv.ty;
    t->rotation = (float)sinew__dbj_normalize_rad((double)t->rotation - parent->rotation);
}

sinew_status sinew__dbj_convert_global(db *d) {
    sinew_model_armature *A = d->arm;
    uint32_t nb = A->bone_count;
    sinew_transform *g = sinew__dbj_scratch_array(d, nb ? nb : 1u, sizeof *g);
    if (!g)
        return SINEW_E_NOMEM;
    for (uint32_t b = 0; b < nb; b++)
        g[b] = A->bones[b].setup;
    /* setup pose: every bone against its parent's (global) setup */
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t p = A->bones[b].parent;
        if (p != SINEW_INVALID_INDEX)
            to_local(&A->bones[b].setup, &g[p]);
        A->bones[b].has_setup_d = false; /* converted: the runtime widens `setup` */
    }
    /* keyframes: against the parent's global pose at that time, then relative to the local setup.
     * Work on copies so every parent is still global while its children are converted. */
    for (uint32_t ai = 0; ai < A->animation_count; ai++) {
        sinew_model_animation *N = &A->animations[ai];
        float **orig = sinew__dbj_scratch_array(d, N->timeline_count ? N->timeline_count : 1u, sizeof *orig);
        if (!orig)
            return SINEW_E_NOMEM;
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            orig[i] = sinew__dbj_scratch_array(d, (size_t)T->key_count * 6u, sizeof(float));
            if (!orig[i])
                return SINEW_E_NOMEM;
            memcpy(orig[i], T->values, (size_t)T->key_count * 6u * sizeof(float));
        }
        /* global_at reads T->values: point them at the originals while converting */
        float **conv = sinew__dbj_scratch_array(d, N->timeline_count ? N->timeline_count : 1u, sizeof *conv);
        if (!conv)
            return SINEW_E_NOMEM;
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            conv[i] = T->values;
            T->values = orig[i];
        }
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            const sinew_model_bone *B = &A->bones[T->target];
            for (uint32_t k = 0; k < T->key_count; k++) {
                const float *v = orig[i] + (size_t)k * 6u;
                sinew_transform t = {v[0], v[1], v[2], v[3], v[4], v[5]};
                if (B->parent != SINEW_INVALID_INDEX) {
                    sinew_transform pg = global_at(A, N, g, B->parent, N->keys[T->first_key + k].position);
                    to_local(&t, &pg);
                }
                float *o = conv[i] + (size_t)k * 6u;
                o[0] = t.x - B->setup.x;
                o[1] = t.y - B->setup.y;
                o[2] = (float)sinew__dbj_normalize_rad((double)t.rotation - B->setup.rotation);
                o[3] = t.skew - B->setup.skew;
                o[4] = B->setup.scale_x != 0.0f ? t.scale_x / B->setup.scale_x : 1.0f;
                o[5] = B->setup.scale_y != 0.0f ? t.scale_y / B->setup.scale_y : 1.0f;
            }
        }
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type == SINEW_TL_BONE_ALL)
                T->values = conv[i];
        }
    }
    return SINEW_OK;
}
