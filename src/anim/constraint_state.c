/* sinew_instance_constraint: the constraints' running state (IK weights, path values, the 6.0
 * transform and physics constraints), in the order tools/oracle6's `--constraints` lists them. */
#include <string.h>

#include "anim/runtime_internal.h"

static const arm_inst *arm_of(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? &inst->arms[ai] : NULL;
}

uint32_t sinew_instance_constraint_count(const sinew_instance *inst, uint32_t ai) {
    const arm_inst *a = arm_of(inst, ai);
    if (!a)
        return 0;
    const sinew_model_armature *d = a->data;
    uint32_t n = d->ik_count + d->path_constraint_count;
    for (uint32_t b = 0; d->v6 && d->run_tc_of && b < a->bone_count; ++b)
        n += (uint32_t)(d->run_tc_of[b] != SINEW_INVALID_INDEX) + (uint32_t)(d->run_physics_of[b] != SINEW_INVALID_INDEX);
    return n;
}

/* The i-th IK or path constraint: in the 6.0 constraint order, or IK then path (5.x). */
static void ik_or_path(const arm_inst *a, uint32_t i, sinew_constraint_state *out) {
    const sinew_model_armature *d = a->data;
    uint32_t e = d->v6 ? d->run_constraint_order[i] : (i < d->ik_count ? i : (i - d->ik_count) | 0x80000000u);
    if (!(e & 0x80000000u)) {
        out->type = SINEW_CONSTRAINT_IK;
        out->name = d->iks[e].name;
        out->weight = a->ik_weight[e];
        out->bend_positive = a->ik_bend[e] != 0;
        return;
    }
    e &= 0x7fffffffu;
    const sinew_model_path_constraint *C = &d->path_constraints[e];
    out->type = SINEW_CONSTRAINT_PATH;
    out->name = C->name;
    if (a->path6) {
        const path_values6 *pv = &a->path6[e];
        out->position = pv->position;
        out->spacing = pv->spacing;
        out->rotate_weight = pv->rotate_weight;
        out->x_weight = pv->x_weight;
        out->y_weight = pv->y_weight;
    } else {
        out->position = C->position;
        out->spacing = C->spacing;
        out->rotate_weight = C->rotate_mix;
        out->x_weight = out->y_weight = C->translate_mix;
    }
}

static void physics_state(const arm_inst *a, uint32_t c, sinew_constraint_state *out) {
    const physics_rt *r = &a->physics[c];
    out->type = SINEW_CONSTRAINT_PHYSICS;
    out->name = a->data->physics[c].name;
    out->bone = a->data->physics[c].bone;
    out->sleeping = r->sleeping != 0;
    out->reset = r->reset != 0;
    out->remaining = r->remaining;
    out->last_time = r->last_time;
    out->x_offset = r->x_offset;
    out->x_velocity = r->x_velocity;
    out->y_offset = r->y_offset;
    out->y_velocity = r->y_velocity;
    out->rotate_offset = r->rotate_offset;
    out->rotate_velocity = r->rotate_velocity;
    out->scale_offset = r->scale_offset;
    out->scale_velocity = r->scale_velocity;
}

bool sinew_instance_constraint(const sinew_instance *inst, uint32_t ai, uint32_t i, sinew_constraint_state *out) {
    const arm_inst *a = arm_of(inst, ai);
    if (!a || !out || i >= sinew_instance_constraint_count(inst, ai))
        return false;
    const sinew_model_armature *d = a->data;
    memset(out, 0, sizeof *out);
    out->bone = out->target = SINEW_INVALID_INDEX;
    if (i < d->ik_count + d->path_constraint_count) {
        ik_or_path(a, i, out);
        return true;
    }
    i -= d->ik_count + d->path_constraint_count;
    for (uint32_t k = 0; k < a->bone_count; ++k) {
        uint32_t b = d->bone_order ? d->bone_order[k] : k;
        uint32_t tc = d->run_tc_of[b], ph = d->run_physics_of[b];
        if (tc != SINEW_INVALID_INDEX && i-- == 0) {
            out->type = SINEW_CONSTRAINT_TRANSFORM;
            out->name = d->transform_constraints[tc].name;
            out->bone = b;
            out->target = d->transform_constraints[tc].target;
            return true;
        }
        if (ph != SINEW_INVALID_INDEX && i-- == 0) {
            physics_state(a, ph, out);
            return true;
        }
    }
    return false;
}
