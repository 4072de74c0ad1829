/*
 * Physics constraints of DragonBones 6.0 armatures: the official 6.0.2 PhysicsConstraint.update,
 * operation for operation (docs/dragonbones-6.0.md section 5). It runs at its bone's turn of the
 * bone loop, after the bone's own update and its other constraints, while awake and only for an
 * armature on a clock. Time is the instance's clock (sinew_instance.clock_time, the official
 * WorldClock.time): fixed steps of 1/fps from what accumulated since the last update.
 *
 * What the official runtime computes as NaN or never finishes is played as documented in
 * docs/runtime.md "DragonBones 6.0" (and warned at load): `mass` 0 leaves the bone as its
 * animation puts it, an `fps` that is not positive never steps, and one update takes at most
 * SINEW_PHYSICS_STEP_MAX steps (the rest of the time is dropped).
 */
#include <math.h>

#include "anim/runtime_internal.h"

#define PI2 (SINEW_PI * 2.0)

/* the official isNumberEqual: a within acc of b (false for NaN) */
static inline bool near(double a, double b, double acc) { return a + acc >= b && a - acc <= b; }

static inline double clamp_q(double u, double q) { return u > q ? q : u < -q ? -q : u; }

double sinew__random(sinew_instance *inst) {
    switch (inst->random_kind) {
    case SINEW_RANDOM_CONSTANT:
        return inst->random_constant;
    case SINEW_RANDOM_SEED: { /* mulberry32, as tools/oracle6/runtime.mjs */
        uint32_t t = inst->random_state += 0x6D2B79F5u;
        t = (t ^ (t >> 15)) * (t | 1u);
        t ^= t + (t ^ (t >> 7)) * (t | 61u);
        return (double)(t ^ (t >> 14)) / 4294967296.0;
    }
    case SINEW_RANDOM_CALLBACK: {
        double r = inst->random_fn ? inst->random_fn(inst->random_user) : 0.5;
        return r >= 0.0 ? (r < 1.0 ? r : 0x1.fffffffffffffp-1) : 0.0; /* NaN: 0 */
    }
    default:
        return 0.5;
    }
}

/* The fixed steps the update takes from `remaining` (the official loops subtract the step while
 * at least one is left); none for a step that is not positive (the official loops forever on a
 * negative one). */
static inline bool steps_left(double remaining, double step) { return step > 0.0 && remaining >= step; }

/* Translation (x, y): inertia from the bone's own motion, springs, wind and gravity; returns the
 * `remaining` left after the steps. */
static double translate(physics_rt *r, const sinew_model_physics *P, double *g, double q, double wd,
                        double *damping) {
    bool has_x = P->x > 0.0, has_y = P->y > 0.0;
    double step = 1.0 / P->fps, mass_r = 1.0 / P->mass;
    double remaining = r->remaining;
    if (has_x) {
        r->x_offset += clamp_q((r->bx - g[0]) * P->inertia, q);
        r->bx = g[0];
    }
    if (has_y) {
        r->y_offset += clamp_q((r->by - g[1]) * P->inertia, q);
        r->by = g[1];
    }
    if (steps_left(remaining, step)) {
        *damping = 1.0 - P->damping;
        double w = (P->wind + wd) * 100.0 * 1.0, gr = P->gravity * 100.0 * 1.0;
        uint32_t k = 0;
        do {
            if (has_x) {
                r->x_velocity += (w - r->x_offset * P->strength) * mass_r * step;
                r->x_offset += r->x_velocity * step;
                r->x_velocity *= *damping;
            }
            if (has_y) {
                r->y_velocity += (gr - r->y_offset * P->strength) * mass_r * step;
                r->y_offset += r->y_velocity * step;
                r->y_velocity *= *damping;
            }
            remaining -= step;
        } while (remaining >= step && ++k < SINEW_PHYSICS_STEP_MAX);
        if (remaining >= step) /* the cap: the rest is dropped */
            remaining = fmod(remaining, step);
    }
    for (int axis = 0; axis < 2; ++axis) {
        if (!(axis ? has_y : has_x))
            continue;
        double o = (axis ? r->y_offset * P->weight * P->y : r->x_offset * P->weight * P->x);
        if (fabs(o) > P->limit)
            o = o > 0.0 ? P->limit : -P->limit;
        g[axis] += o;
        if (!near(o, 0.0, 0.001))
            r->sleeping = 0;
    }
    return remaining;
}

/* Rotation and stretch: inertia from the bone's motion since the last update, then the steps (the
 * same count as the translation's, from the same `remaining`); returns what is left. */
static double rotate(physics_rt *r, const sinew_model_physics *P, const double *m, const double *g, double len,
                     double q, double wd, double damping) {
    bool has_rot = P->rotate > 0.0 || P->shear_x > 0.0, has_sx = P->scale_x > 0.0;
    double step = 1.0 / P->fps, mass_r = 1.0 / P->mass;
    double ca = atan2(m[2], m[0]), c, s, mr = 0.0;
    double dx = clamp_q(r->cx - g[0], q), dy = clamp_q(r->cy - g[1], q);
    if (has_rot) {
        mr = (P->rotate + P->shear_x) * P->weight;
        double a = atan2(dy + r->ty, dx + r->tx) - ca - r->rotate_offset * mr;
        a = a - ceil(a * (1.0 / PI2) - 0.5) * PI2;
        double inertia = a * P->inertia;
        if (!near(inertia, 0.0, 0.0001))
            r->sleeping = 0;
        r->rotate_offset += inertia;
        a = r->rotate_offset * mr + ca;
        sinew__angle_sincos(a, &s, &c);
    } else {
        sinew__angle_sincos(ca, &s, &c);
    }
    if (has_sx) {
        double l = len * g[4];
        if (l > 0.0)
            r->scale_offset += (dx * c + dy * s) * P->inertia / l;
    }
    double remaining = r->remaining;
    if (!steps_left(remaining, step))
        return remaining;
    if (damping == -1.0)
        damping = 1.0 - P->damping;
    double mass = mass_r * step, wind = P->wind + wd, grav = P->gravity, bone_len = len / 100.0;
    for (uint32_t k = 0;; ++k) {
        remaining -= step;
        if (has_sx) {
            r->scale_velocity += (wind * c - grav * s - r->scale_offset * P->strength) * mass;
            r->scale_offset += r->scale_velocity * step;
            r->scale_velocity *= damping;
        }
        if (has_rot) {
            r->rotate_velocity -= ((wind * s + grav * c) * bone_len + r->rotate_offset * P->strength) * mass;
            r->rotate_offset += r->rotate_velocity * step;
            if (fabs(r->rotate_offset) > PI2)
                r->rotate_offset = r->rotate_offset > 0.0 ? PI2 : -PI2;
            if (!near(r->rotate_velocity, 0.0, 0.0001))
                r->sleeping = 0;
            r->rotate_velocity *= damping;
            if (remaining < step)
                break;
            double a = r->rotate_offset * mr + ca;
            sinew__angle_sincos(a, &s, &c);
        } else if (remaining < step) {
            break;
        }
        if (k + 1 >= SINEW_PHYSICS_STEP_MAX) { /* the cap: the rest is dropped */
            remaining = fmod(remaining, step);
            break;
        }
    }
    return remaining;
}

/* The offsets written into the bone's world matrix: rotation (both rows, or the first one further
 * with shearX), the stretch of the first row; then the decomposed global. */
static void apply(arm_inst *arm, physics_rt *r, const sinew_model_physics *P, uint32_t b, double len) {
    double *m = arm->world + (size_t)b * 6, *g = arm->global + (size_t)b * 6;
    if (P->rotate > 0.0 || P->shear_x > 0.0) {
        double o = r->rotate_offset * P->weight, sn, cs, a;
        if (P->shear_x > 0.0) {
            double rr = 0.0;
            if (P->rotate > 0.0) {
                rr = o * P->rotate;
                sinew__angle_sincos(rr, &sn, &cs);
                a = m[1];
                m[1] = cs * a - sn * m[3];
                m[3] = sn * a + cs * m[3];
            }
            rr += o * P->shear_x;
            sinew__angle_sincos(rr, &sn, &cs);
            a = m[0];
            m[0] = cs * a - sn * m[2];
            m[2] = sn * a + cs * m[2];
        } else {
            o *= P->rotate;
            sinew__angle_sincos(o, &sn, &cs);
            a = m[0];
            m[0] = cs * a - sn * m[2];
            m[2] = sn * a + cs * m[2];
            a = m[1];
            m[1] = cs * a - sn * m[3];
            m[3] = sn * a + cs * m[3];
        }
    }
    if (P->scale_x > 0.0) {
        double s = 1.0 + r->scale_offset * P->weight * P->scale_x;
        m[0] *= s;
        m[2] *= s;
    }
    r->tx = len * m[0];
    r->ty = len * m[2];
    m[4] = g[0];
    m[5] = g[1];
    double old_rotation = g[2], old_skew = g[3];
    sinew__bone_matrix_changed(arm, b);
    if (!near(old_rotation, g[2], 0.001) || !near(old_skew, g[3], 0.001))
        r->sleeping = 0;
}

void sinew__physics_update(sinew_instance *inst, arm_inst *arm, uint32_t c) {
    physics_rt *r = &arm->physics[c];
    const sinew_model_physics *P = &arm->data->physics[c];
    if (r->sleeping || inst->no_clock || !arm->active)
        return;
    uint32_t b = P->bone;
    double len = arm->data->bones[b].length;
    double wd = (sinew__random(inst) * 2.0 - 1.0) * P->wind_disturbance;
    if (P->mass == 0.0) /* NaN officially (1 / 0 and 0 x infinity), never asleep: inert, drawing */
        return;
    double *g = arm->global + (size_t)b * 6;
    if (r->reset) {
        r->remaining = 0.0;
        r->last_time = inst->clock_time;
        r->x_offset = r->x_velocity = r->y_offset = r->y_velocity = 0.0;
        r->rotate_offset = r->rotate_velocity = r->scale_offset = r->scale_velocity = 0.0;
        r->reset = 0;
        r->last_reset = 1;
    } else {
        r->sleeping = 1;
        double t = inst->clock_time;
        double delta = fmax(t - r->last_time, 0.0);
        r->remaining += delta;
        r->last_time = t;
        if (r->last_reset) {
            r->last_reset = 0;
            r->bx = g[0];
            r->by = g[1];
        } else {
            double q = P->limit * delta, damping = -1.0;
            double remaining = r->remaining;
            if (P->x > 0.0 || P->y > 0.0)
                remaining = translate(r, P, g, q, wd, &damping);
            if (P->rotate > 0.0 || P->shear_x > 0.0 || P->scale_x > 0.0)
                remaining = rotate(r, P, arm->world + (size_t)b * 6, g, len, q, wd, damping);
            r->remaining = remaining;
        }
        r->cx = g[0];
        r->cy = g[1];
    }
    apply(arm, r, P, b, len);
}
