/*
 * The bone loop of a DragonBones 6.0 armature, as the official 6.0.2 Bone.update runs it
 * (docs/dragonbones-6.0.md sections 4 and 6): per bone in update order, its own world transform if
 * dirty (a dirty transform constraint and an awake physics constraint make it dirty), then its
 * transform constraint, then the IK and path constraints it is the root of, then its physics. Every
 * recompute of a bone's world transform dirties the transform constraint attached to it, the one it
 * drives as a target, and wakes its physics. 5.x armatures use pose.c's loops.
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"

/* What a recompute of bone b notifies (the end of the official _updateGlobalTransformMatrix). */
static inline void notify(arm_inst *arm, uint32_t b) {
    const sinew_model_armature *d = arm->data;
    if (d->run_tc_of[b] != SINEW_INVALID_INDEX)
        arm->tc_dirty[b] = 1;
    uint32_t t = d->run_tc_notify[b];
    if (t != SINEW_INVALID_INDEX)
        arm->tc_dirty[t] = 1;
    uint32_t p = d->run_physics_of[b];
    if (p != SINEW_INVALID_INDEX)
        arm->physics[p].sleeping = 0;
}

void sinew__bone_compute6(arm_inst *arm, uint32_t b, bool is_cache) {
    sinew__bone_compute(arm, b, is_cache);
    notify(arm, b);
}

void sinew__bone_by_constraint6(arm_inst *arm, uint32_t b) {
    uint32_t n = arm->bone_count;
    if (b >= n || arm->computed[b])
        return;
    arm->computed[b] = 1;
    uint32_t parent = arm->data->bones[b].parent;
    if (arm->bone_dirty[b] || (parent < n && arm->bone_changed[parent]))
        sinew__bone_compute6(arm, b, true);
    else
        (void)sinew__bone_global(arm, b); /* 6.0: the global made from the matrix when stale */
    arm->bone_dirty[b] = 1;
}

/* The official Matrix.invert, in place. */
static void mat_invert(double *m) {
    double a = m[0], b = m[1], c = m[2], d = m[3], tx = m[4], ty = m[5];
    if (b == 0.0 && c == 0.0) {
        m[1] = m[2] = 0.0;
        if (a == 0.0 || d == 0.0) {
            m[0] = m[1] = m[4] = m[5] = 0.0;
        } else {
            a = m[0] = 1.0 / a;
            d = m[3] = 1.0 / d;
            m[4] = -a * tx;
            m[5] = -d * ty;
        }
        return;
    }
    double det = a * d - b * c;
    if (det == 0.0) {
        m[0] = m[3] = 1.0;
        m[1] = m[2] = m[4] = m[5] = 0.0;
        return;
    }
    det = 1.0 / det;
    double k = m[0] = d * det;
    b = m[1] = -b * det;
    c = m[2] = -c * det;
    d = m[3] = a * det;
    m[4] = -(k * tx + c * ty);
    m[5] = -(b * tx + d * ty);
}

/* The official TransformConstraint.update on bone b (constraint c), when dirty: the bone's world
 * transform decomposed and blended towards the target's (its world transform, or its transform in
 * its parent's space when `local`) plus the offsets, each by its weight; the matrix rebuilt. */
static void transform_constraint(arm_inst *arm, uint32_t b, uint32_t c) {
    if (!arm->tc_dirty[b])
        return;
    arm->tc_dirty[b] = 0;
    const sinew_model_transform_constraint *T = &arm->data->transform_constraints[c];
    double tw = T->translate_weight, rw = T->rotate_weight, sw = T->scale_weight;
    if (sw == 0.0 && rw == 0.0 && tw == 0.0)
        return;
    double *m = arm->world + (size_t)b * 6, *g = arm->global + (size_t)b * 6;
    sinew__from_matrix(m, g);
    arm->global_valid[b] = 1;
    double src[6], s[6] = {0.0, 0.0, 0.0, 0.0, 1.0, 1.0}; /* the official helper transform: scales >= 0 */
    memcpy(src, arm->world + (size_t)T->target * 6, sizeof src);
    uint32_t tp = arm->data->bones[T->target].parent;
    if (T->local && tp < arm->bone_count) {
        double inv[6];
        memcpy(inv, arm->world + (size_t)tp * 6, sizeof inv);
        mat_invert(inv);
        sinew__mat_concat(src, inv, src);
    }
    sinew__from_matrix(src, s);
    if (tw != 0.0) {
        g[0] = g[0] * (1.0 - tw) + (s[0] + T->offset_x) * tw;
        g[1] = g[1] * (1.0 - tw) + (s[1] + T->offset_y) * tw;
    }
    if (rw != 0.0)
        g[2] = g[2] * (1.0 - rw) + (s[2] + T->offset_rotation) * rw;
    if (sw != 0.0) {
        g[4] = g[4] * (1.0 - sw) + (s[4] + T->offset_scale_x) * sw;
        g[5] = g[5] * (1.0 - sw) + (s[5] + T->offset_scale_y) * sw;
    }
    sinew__bone_set_from_global(arm, b);
}

/* The official IKConstraint.update: root and chain bone updated by constraint, then solved. */
static void ik6(arm_inst *arm, uint32_t c) {
    const sinew_model_ik *K = &arm->data->iks[c];
    uint32_t n = arm->bone_count;
    if (K->target >= n || K->root >= n)
        return;
    sinew__bone_by_constraint6(arm, K->root);
    if (K->chain > 0 && K->bone != K->root && K->bone < n) {
        sinew__bone_by_constraint6(arm, K->bone);
        sinew__ik_two(arm, K->root, K->bone, K->target, arm->ik_bend[c] != 0, arm->ik_weight[c]);
    } else {
        sinew__ik_one(arm, K->root, K->target, arm->ik_weight[c]);
    }
}

/* The IK and path constraints rooted at bone b, in the armature's constraint order. */
static void root_constraints(arm_inst *arm, uint32_t b) {
    const sinew_model_armature *d = arm->data;
    uint32_t nc = d->ik_count + d->path_constraint_count;
    for (uint32_t i = 0; i < nc; ++i) {
        uint32_t e = d->run_constraint_order[i];
        if (e & 0x80000000u) {
            e &= 0x7fffffffu;
            if (d->path_constraints[e].root == b)
                sinew__path6_run(arm, e);
        } else if (d->iks[e].root == b) {
            ik6(arm, e);
        }
    }
}

/* The official Bone.update's frame cache (a 6.0 armature on cache frame cf): per bone, the cache
 * frame whose values it holds; a bone stored there is read back (its constraints then run on top, as
 * they run after the store), one that did not move shares the values it has, one that moved is
 * computed and stored. On a frame not stored yet its IK and path constraints also run before its
 * update (the official keeps that older call in this branch). Returns the bone's dirty flag. */
static bool bone_cache6(arm_inst *arm, const sinew_model_bone_step *sp, uint32_t cf) {
    uint32_t b = sp->bone, parent = sp->parent, n = arm->bone_count;
    const sinew_cache_animation *ca = arm->cache_anim;
    uint32_t *src = ca->src + (size_t)cf * (n + arm->slot_count) + b;
    uint8_t *dirty = arm->bone_dirty;
    if (*src != SINEW_INVALID_INDEX && arm->bone_cfi[b] == *src)
        return false;
    if (*src != SINEW_INVALID_INDEX) {
        arm->bone_cfi[b] = *src;
        return true;
    }
    if (sp->ik_root)
        root_constraints(arm, b);
    if (dirty[b] || (parent < n && arm->bone_changed[parent])) {
        arm->bone_cfi[b] = SINEW_INVALID_INDEX;
        return true;
    }
    if (arm->bone_cfi[b] != SINEW_INVALID_INDEX) {
        *src = arm->bone_cfi[b];
        return false;
    }
    return true;
}

/* A dirty bone on cache frame cf: computed and stored, or read back from the frame it shares. */
static void bone_cached_pose(arm_inst *arm, uint32_t b, uint32_t cf) {
    const sinew_cache_animation *ca = arm->cache_anim;
    uint32_t n = arm->bone_count;
    double *v;
    if (arm->bone_cfi[b] == SINEW_INVALID_INDEX) {
        if (!arm->computed[b])
            sinew__bone_compute6(arm, b, true);
        v = ca->values + ((size_t)cf * n + b) * SINEW_CACHE_BONE_VALUES;
        memcpy(v, arm->world + (size_t)b * 6, 6 * sizeof(double));
        memcpy(v + 6, arm->global + (size_t)b * 6, 6 * sizeof(double));
        v[12] = arm->global_valid[b] ? 1.0 : 0.0;
        ca->src[(size_t)cf * (n + arm->slot_count) + b] = cf;
        arm->bone_cfi[b] = cf;
        return;
    }
    v = ca->values + ((size_t)arm->bone_cfi[b] * n + b) * SINEW_CACHE_BONE_VALUES;
    memcpy(arm->world + (size_t)b * 6, v, 6 * sizeof(double));
    memcpy(arm->global + (size_t)b * 6, v + 6, 6 * sizeof(double));
    arm->global_valid[b] = v[12] != 0.0;
    sinew__mat_to_float(v, arm->world_f + (size_t)b * 6);
}

void sinew__arm_update_bones6(sinew_instance *inst, arm_inst *arm) {
    const sinew_model_armature *d = arm->data;
    uint32_t n = arm->bone_count;
    const sinew_model_bone_step *steps = d->run_bone_steps;
    uint8_t *dirty = arm->bone_dirty, *changed = arm->bone_changed, *computed = arm->computed;
    const uint32_t *tc_of = d->run_tc_of, *phys_of = d->run_physics_of;
    /* the cache frame the armature is on (the official _cacheFrameIndex), or none */
    int64_t cf = arm->cache_mode != CACHE_NONE && arm->cache_anim && arm->cache_anim->src ? arm->cache_frame_index : -1;
    for (uint32_t i = 0; i < n; ++i) {
        const sinew_model_bone_step *sp = &steps[i];
        uint32_t b = sp->bone, parent = sp->parent;
        uint32_t tc = tc_of[b], ph = phys_of[b];
        if (tc != SINEW_INVALID_INDEX && arm->tc_dirty[b])
            dirty[b] = 1;
        if (ph != SINEW_INVALID_INDEX && !arm->physics[ph].sleeping)
            dirty[b] = 1;
        if (cf >= 0) {
            dirty[b] = bone_cache6(arm, sp, (uint32_t)cf);
        } else if (dirty[b] || (parent < n && changed[parent])) {
            dirty[b] = 1;
            arm->bone_cfi[b] = SINEW_INVALID_INDEX;
        }
        if (dirty[b]) {
            dirty[b] = 0;
            changed[b] = 1;
            if (cf >= 0)
                bone_cached_pose(arm, b, (uint32_t)cf);
            else if (!computed[b])
                sinew__bone_compute6(arm, b, false);
        } else {
            changed[b] = 0;
        }
        if (tc != SINEW_INVALID_INDEX) {
            transform_constraint(arm, b, tc);
            computed[b] = 1; /* the official _localDirty = false: no constraint recomputes it now */
        }
        if (sp->ik_root)
            root_constraints(arm, b);
        if (ph != SINEW_INVALID_INDEX && !arm->physics[ph].sleeping)
            sinew__physics_update(inst, arm, ph);
        computed[b] = 0;
    }
}

/* The official Slot.update's frame cache for slot s of a 6.0 armature (its matrix), when the
 * armature is on a cache frame: read back, shared or computed and stored, as bones are. `moved`:
 * the slot's display changed or its bone moved. Returns false when the cache does not apply. */
bool sinew__slot_cache6(arm_inst *arm, uint32_t s, bool own, bool moved, const double *bone_world) {
    if (!arm->slot_cfi || arm->cache_mode == CACHE_NONE || !arm->cache_anim || !arm->cache_anim->src)
        return false;
    const sinew_cache_animation *ca = arm->cache_anim;
    uint32_t cf = (uint32_t)arm->cache_frame_index, ns = arm->slot_count;
    uint32_t *src = ca->src + (size_t)cf * (arm->bone_count + ns) + arm->bone_count + s;
    uint32_t *cfi = &arm->slot_cfi[s];
    bool dirty;
    if (*src != SINEW_INVALID_INDEX && *cfi == *src) {
        dirty = false;
    } else if (*src != SINEW_INVALID_INDEX) {
        dirty = true;
        *cfi = *src;
    } else if (own || moved) {
        dirty = true;
        *cfi = SINEW_INVALID_INDEX;
    } else if (*cfi != SINEW_INVALID_INDEX) {
        dirty = false;
        *src = *cfi;
    } else {
        dirty = true;
    }
    if (!dirty)
        return true;
    float *w = arm->slot_world + (size_t)s * 6;
    if (*cfi == SINEW_INVALID_INDEX) {
        double m[6];
        sinew__mat_concat(sinew__slot_local(arm, s), bone_world, m);
        sinew__mat_to_float(m, w);
        double *v = ca->slot_values + ((size_t)cf * ns + s) * 6;
        for (int k = 0; k < 6; ++k)
            v[k] = w[k];
        *src = cf;
        *cfi = cf;
    } else {
        const double *v = ca->slot_values + ((size_t)*cfi * ns + s) * 6;
        for (int k = 0; k < 6; ++k)
            w[k] = (float)v[k];
    }
    return true;
}
