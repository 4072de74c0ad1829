/*
 * The runtime's pass over a DragonBones 6.0 armature (part of sinew__model_prepare): the bone
 * update order with the 6.0 waits, which transform and physics constraint each bone carries, the
 * order in which a root bone runs its IK and path constraints, and whether the armature has masks
 * (docs/dragonbones-6.0.md sections 4, 6, 7; docs/runtime.md "DragonBones 6.0").
 */
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/error.h"

#define PATH_BIT 0x80000000u

static const char *constraint_name(const sinew_model_armature *arm, uint32_t e) {
    return e & PATH_BIT ? arm->path_constraints[e & ~PATH_BIT].name : arm->iks[e].name;
}

/* The IK and path constraints in the order the official armature lists them: it creates them
 * from its constraint map, whose keys (names) enumerate array-index names first (by value), then
 * the rest as added (IK constraints, then path constraints, each in file order). */
static void constraint_order(const sinew_model_armature *arm, uint32_t *out) {
    uint32_t n = arm->ik_count + arm->path_constraint_count, k = 0;
    uint32_t last = 0;
    bool any = true;
    while (any) { /* index names, smallest first (names are unique) */
        any = false;
        uint32_t best = 0, best_v = 0;
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t e = i < arm->ik_count ? i : (i - arm->ik_count) | PATH_BIT, v;
            const char *name = constraint_name(arm, e);
            if (name && sinew__js_index_key(name, &v) && (k == 0 || v > last) && (!any || v < best_v)) {
                any = true;
                best = e;
                best_v = v;
            }
        }
        if (any) {
            out[k++] = best;
            last = best_v;
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t e = i < arm->ik_count ? i : (i - arm->ik_count) | PATH_BIT, v;
        const char *name = constraint_name(arm, e);
        if (!name || !sinew__js_index_key(name, &v))
            out[k++] = e;
    }
}

static bool has_bone(const uint32_t *bones, uint32_t n, uint32_t b) {
    for (uint32_t i = 0; i < n; ++i)
        if (bones[i] == b)
            return true;
    return false;
}

/* Whether bone b waits for another bone before its turn (the official sortBones): an IK root for
 * its target, a transformed bone for its constraint's target, a path bone for the path slot's
 * bone (unbound path) or every bone the path is bound to. The constraints are read in the
 * official map order: transform constraints after the IK ones, and the first path constraint
 * listing the bone ends the search, waiting or not (as the official loop's `break`). */
static bool waits(const sinew_model_armature *arm, const uint32_t *order, const uint8_t *placed, uint32_t b) {
    uint32_t n = arm->bone_count;
    for (uint32_t i = 0; i < arm->ik_count + arm->path_constraint_count; ++i) {
        uint32_t e = order[i];
        if (!(e & PATH_BIT)) {
            const sinew_model_ik *K = &arm->iks[e];
            if (K->root == b && K->target < n && !placed[K->target])
                return true;
            continue;
        }
        const sinew_model_path_constraint *C = &arm->path_constraints[e & ~PATH_BIT];
        if (!has_bone(C->bones, C->bone_count, b))
            continue;
        const sinew_model_path *P = C->path < arm->path_count ? &arm->paths[C->path] : NULL;
        if (P && P->weighted) {
            for (uint32_t k = 0; k < P->bone_count; ++k)
                if (P->bones[k] < n && !placed[P->bones[k]])
                    return true;
        } else if (C->slot < arm->slot_count) {
            uint32_t p = arm->slots[C->slot].parent;
            if (p < n && !placed[p])
                return true;
        }
        return false;
    }
    return false;
}

/* transform constraints come between the IK and the path constraints in the map (their names
 * interleave with the others' only when some are array indices: not modelled) */
static bool waits_transform(const sinew_model_armature *arm, const uint8_t *placed, uint32_t b) {
    for (uint32_t c = 0; c < arm->transform_constraint_count; ++c) {
        const sinew_model_transform_constraint *T = &arm->transform_constraints[c];
        if (T->target < arm->bone_count && !placed[T->target] && has_bone(T->bones, T->bone_count, b))
            return true;
    }
    return false;
}

/* The 6.0 bone order. The official walk has no cycle check (a cycle makes it loop forever); here a
 * walk that makes no progress drops the constraint waits and goes on parents first. */
static sinew_status bone_order6(sinew_arena *arena, sinew_model_armature *arm, const uint32_t *cons,
                                sinew_error *err) {
    uint32_t n = arm->bone_count;
    uint32_t *order = sinew__arena_array(arena, n, sizeof(uint32_t));
    uint32_t *helper = sinew__arena_array(arena, n, sizeof(uint32_t));
    uint8_t *placed = sinew__arena_array(arena, n, 1);
    if (!order || !helper || !placed)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    memset(placed, 0, n);
    for (uint32_t i = 0; i < n; ++i)
        helper[i] = i;
    for (uint32_t i = 1; i < n; ++i) { /* file order */
        uint32_t v = helper[i], j = i;
        while (j > 0 && arm->bones[helper[j - 1]].file_index > arm->bones[v].file_index) {
            helper[j] = helper[j - 1];
            j--;
        }
        helper[j] = v;
    }
    uint32_t count = 0, index = 0, since_progress = 0;
    bool strict = true;
    while (count < n) {
        uint32_t b = helper[index++];
        if (index >= n)
            index = 0;
        if (++since_progress > 2 * n + 2) {
            strict = false;
            since_progress = 0;
        }
        if (placed[b])
            continue;
        if (strict && (waits_transform(arm, placed, b) || waits(arm, cons, placed, b)))
            continue;
        uint32_t p = arm->bones[b].parent;
        if (p != SINEW_INVALID_INDEX && p < n && !placed[p])
            continue;
        placed[b] = 1;
        order[count++] = b;
        since_progress = 0;
    }
    arm->bone_order = order;
    return SINEW_OK;
}

/* Per bone: the transform constraint attached to it, the one it dirties as a target, its physics. */
static void bone_constraints(const sinew_model_armature *arm, uint32_t *tc_of, uint32_t *notify, uint32_t *phys_of,
                             uint32_t *scratch) {
    uint32_t n = arm->bone_count;
    uint32_t *inst_of = scratch, *target_inst = scratch + n, *target_bone = scratch + 2 * n;
    for (uint32_t b = 0; b < n; ++b) {
        tc_of[b] = notify[b] = phys_of[b] = SINEW_INVALID_INDEX;
        inst_of[b] = target_inst[b] = target_bone[b] = SINEW_INVALID_INDEX;
    }
    uint32_t k = 0; /* one official constraint object per listed bone, in creation order */
    for (uint32_t c = 0; c < arm->transform_constraint_count; ++c) {
        const sinew_model_transform_constraint *T = &arm->transform_constraints[c];
        for (uint32_t i = 0; i < T->bone_count; ++i, ++k) {
            uint32_t b = T->bones[i];
            if (b >= n || T->target >= n)
                continue;
            tc_of[b] = c;
            inst_of[b] = k;
            target_inst[T->target] = k;
            target_bone[T->target] = b;
        }
    }
    for (uint32_t t = 0; t < n; ++t) {
        uint32_t b = target_bone[t];
        if (b != SINEW_INVALID_INDEX && inst_of[b] == target_inst[t])
            notify[t] = b;
    }
    for (uint32_t c = 0; c < arm->physics_count; ++c)
        if (arm->physics[c].bone < n)
            phys_of[arm->physics[c].bone] = c;
}

sinew_status sinew__prepare_v6(sinew_arena *arena, sinew_model_armature *arm, sinew_error *err) {
    arm->run_tc_of = arm->run_tc_notify = arm->run_physics_of = arm->run_constraint_order = NULL;
    arm->run_has_masks = false;
    if (!arm->v6)
        return SINEW_OK;
    for (uint32_t i = 0; i < arm->display_count; ++i) {
        const sinew_model_display *d = &arm->displays[i];
        if (d->mask && d->mask_range > 0.0 && (d->type == SINEW_DISPLAY_IMAGE || d->type == SINEW_DISPLAY_SHAPE))
            arm->run_has_masks = true;
    }
    uint32_t nc = arm->ik_count + arm->path_constraint_count;
    uint32_t *cons = sinew__arena_array(arena, nc ? nc : 1, sizeof(uint32_t));
    if (!cons)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    constraint_order(arm, cons);
    arm->run_constraint_order = cons;
    uint32_t n = arm->bone_count;
    if (n == 0)
        return SINEW_OK;
    sinew_status st = bone_order6(arena, arm, cons, err);
    if (st != SINEW_OK)
        return st;
    uint32_t *t = sinew__arena_array(arena, (size_t)n * 6, sizeof(uint32_t));
    if (!t)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    bone_constraints(arm, t, t + n, t + 2 * n, t + 3 * n);
    arm->run_tc_of = t;
    arm->run_tc_notify = t + n;
    arm->run_physics_of = t + 2 * n;
    return SINEW_OK;
}
