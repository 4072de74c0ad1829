/* MRTK input animation: the model, names and evaluation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "input/input_internal.h"

static const char *const joint_names[SINEW_INPUT_JOINT_COUNT] = {
    "None", "Wrist", "Palm",
    "ThumbMetacarpalJoint", "ThumbProximalJoint", "ThumbDistalJoint", "ThumbTip",
    "IndexMetacarpal", "IndexKnuckle", "IndexMiddleJoint", "IndexDistalJoint", "IndexTip",
    "MiddleMetacarpal", "MiddleKnuckle", "MiddleMiddleJoint", "MiddleDistalJoint", "MiddleTip",
    "RingMetacarpal", "RingKnuckle", "RingMiddleJoint", "RingDistalJoint", "RingTip",
    "PinkyMetacarpal", "PinkyKnuckle", "PinkyMiddleJoint", "PinkyDistalJoint", "PinkyTip"};

static const char *const pose_channels[7] = {"px", "py", "pz", "rx", "ry", "rz", "rw"};
static const char *const ray_channels[6] = {"ox", "oy", "oz", "dx", "dy", "dz"};

const char *sinew_input_joint_name(uint32_t joint) {
    return joint < SINEW_INPUT_JOINT_COUNT ? joint_names[joint] : NULL;
}

uint32_t sinew_input_joint_index(const char *name) {
    for (uint32_t i = 0; i < SINEW_INPUT_JOINT_COUNT; i++)
        if (strcmp(joint_names[i], name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

bool sinew_input_curve_is_bool(uint32_t index) {
    return index >= 7 && index < SINEW_INPUT_CURVE_JOINTS;
}

char *sinew_input_curve_path(uint32_t index, char *buf, size_t size) {
    if (!buf || !size)
        return buf;
    if (index < 7) {
        snprintf(buf, size, "camera.%s", pose_channels[index]);
    } else if (index < SINEW_INPUT_CURVE_JOINTS) {
        uint32_t k = index - 7;
        snprintf(buf, size, "hands.%s.%s", (k & 1) ? "right" : "left", k < 2 ? "tracked" : "pinch");
    } else if (index < SINEW_INPUT_CURVE_GAZE) {
        uint32_t k = index - SINEW_INPUT_CURVE_JOINTS;
        snprintf(buf, size, "hands.%s.joints.%s.%s", k >= 189 ? "right" : "left",
                 joint_names[(k % 189) / 7], pose_channels[k % 7]);
    } else if (index < SINEW_INPUT_CURVE_COUNT) {
        snprintf(buf, size, "eyeGaze.%s", ray_channels[index - SINEW_INPUT_CURVE_GAZE]);
    } else {
        snprintf(buf, size, "curve[%u]", index);
    }
    return buf;
}

bool sinew__input_curve_in_file(int32_t minor, bool cam, bool hands, bool eye, uint32_t index) {
    if (minor == 0)
        return index < SINEW_INPUT_CURVE_COUNT_V10;
    if (index < 7)
        return cam;
    if (index < SINEW_INPUT_CURVE_GAZE)
        return hands;
    return eye && index < SINEW_INPUT_CURVE_COUNT;
}

bool sinew_input_curve_present(const sinew_input_animation *anim, uint32_t index) {
    if (index < 7)
        return anim->has_camera;
    if (index < SINEW_INPUT_CURVE_GAZE)
        return anim->has_hands;
    return anim->has_eye_gaze && index < SINEW_INPUT_CURVE_COUNT;
}

sinew_curve_key sinew__input_bool_key(float time, float value) {
    sinew_curve_key k = {time, value, 0.0f, 0.0f, 0.0f, 1e6f, SINEW_WEIGHTED_BOTH};
    return k;
}

sinew_curve_key sinew__input_simple_key(float time, float value) {
    sinew_curve_key k = {time, value, 0.0f, 0.0f, 0.0f, 0.0f, SINEW_WEIGHTED_BOTH};
    return k;
}

sinew_status sinew_input_create(const sinew_allocator *allocator, sinew_input_animation **out,
                                sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "out is NULL");
    *out = NULL;
    sinew_input_animation *a = sinew__calloc(allocator, 1, sizeof *a);
    if (!a)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    a->allocator = allocator;
    a->version_major = 1;
    a->version_minor = 1;
    a->layout = SINEW_INPUT_LAYOUT_MRTK;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++)
        sinew_curve_init(&a->curves[i]);
    *out = a;
    return SINEW_OK;
}

void sinew__input_clear(sinew_input_animation *a) {
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++)
        sinew_curve_free(&a->curves[i], a->allocator);
    for (uint32_t i = 0; i < a->marker_count; i++)
        sinew__free(a->allocator, a->markers[i].name, (size_t)a->markers[i].name_length + 1);
    sinew__free(a->allocator, a->markers, (size_t)a->marker_count * sizeof *a->markers);
    a->markers = NULL;
    a->marker_count = 0;
}

void sinew_input_destroy(sinew_input_animation *anim) {
    if (!anim)
        return;
    sinew__input_clear(anim);
    sinew__free(anim->allocator, anim, sizeof *anim);
}

sinew_status sinew__input_take_keys(sinew_input_animation *anim, uint32_t index, sinew_curve_key *keys,
                                    uint32_t count, sinew_error *err) {
    sinew_curve *c = &anim->curves[index];
    sinew_curve_free(c, anim->allocator);
    c->keys = keys;
    c->key_count = count;
    return sinew_curve_prepare(c, anim->allocator, err);
}

sinew_status sinew_input_set_curve(sinew_input_animation *anim, uint32_t index,
                                   const sinew_curve_key *keys, uint32_t count, sinew_error *err) {
    if (!anim || index >= SINEW_INPUT_CURVE_COUNT || (count && !keys))
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad curve index %u or keys", index);
    return sinew_curve_set_keys(&anim->curves[index], keys, count, anim->allocator, err);
}

sinew_status sinew_input_add_marker(sinew_input_animation *anim, float time, const char *name,
                                    uint32_t length, sinew_error *err) {
    if (!anim || (length && !name) || anim->marker_count == UINT32_MAX)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad marker");
    char *copy = sinew__alloc(anim->allocator, (size_t)length + 1);
    if (!copy)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for a marker name");
    size_t old = (size_t)anim->marker_count * sizeof *anim->markers;
    sinew_input_marker *m = sinew__realloc(anim->allocator, anim->markers, old, old + sizeof *m);
    if (!m) {
        sinew__free(anim->allocator, copy, (size_t)length + 1);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for a marker");
    }
    anim->markers = m;
    if (length)
        memcpy(copy, name, length);
    copy[length] = 0;
    m[anim->marker_count].time = time;
    m[anim->marker_count].name = copy;
    m[anim->marker_count].name_length = length;
    anim->marker_count++;
    return SINEW_OK;
}

uint64_t sinew_input_key_count(const sinew_input_animation *anim) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++)
        if (sinew_input_curve_present(anim, i))
            n += anim->curves[i].key_count;
    return n;
}

/* The latest end (last = true) or the earliest start of the present curves with keys; 0 when none. */
static double time_extreme(const sinew_input_animation *anim, bool last) {
    double d = 0;
    bool any = false;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        const sinew_curve *c = &anim->curves[i];
        if (!sinew_input_curve_present(anim, i) || !c->eval_count)
            continue;
        double t = last ? sinew_curve_end_time(c) : c->eval_keys[0].time;
        if (!any || (last ? t > d : t < d))
            d = t;
        any = true;
    }
    return d;
}

double sinew_input_duration(const sinew_input_animation *anim) {
    return time_extreme(anim, true);
}

double sinew_input_start_time(const sinew_input_animation *anim) {
    return time_extreme(anim, false);
}

/* ---- evaluation --------------------------------------------------------------------------- */

static double ev(const sinew_input_animation *a, sinew_input_cursor *cur, uint32_t i, double t) {
    return cur ? sinew_curve_eval_cursor(&a->curves[i], &cur->curves[i], t)
               : sinew_curve_eval(&a->curves[i], t);
}

static bool ev_bool(const sinew_input_animation *a, sinew_input_cursor *cur, uint32_t i, double t) {
    return cur ? sinew_curve_eval_bool_cursor(&a->curves[i], &cur->curves[i], t)
               : sinew_curve_eval_bool(&a->curves[i], t);
}

static void identity_pose(sinew_input_pose *p) {
    memset(p, 0, sizeof *p);
    p->rotation[3] = 1.0f;
}

static void eval_pose(const sinew_input_animation *a, sinew_input_cursor *cur, uint32_t base, double t,
                      sinew_input_pose *p) {
    double q[4];
    for (int k = 0; k < 3; k++)
        p->position[k] = (float)ev(a, cur, base + (uint32_t)k, t);
    for (int k = 0; k < 4; k++)
        q[k] = ev(a, cur, base + 3 + (uint32_t)k, t);
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 1.401298464e-45) || !isfinite(len)) {
        if (isnan(len)) {
            for (int k = 0; k < 4; k++)
                p->rotation[k] = (float)q[k];
            return;
        }
        p->rotation[0] = p->rotation[1] = p->rotation[2] = 0.0f;
        p->rotation[3] = 1.0f;
        return;
    }
    for (int k = 0; k < 4; k++)
        p->rotation[k] = (float)(q[k] / len);
}

static void eval_all(const sinew_input_animation *a, sinew_input_cursor *cur, double t,
                     sinew_input_frame *f) {
    f->time = t;
    if (a->has_camera)
        eval_pose(a, cur, SINEW_INPUT_CURVE_CAMERA, t, &f->camera);
    else
        identity_pose(&f->camera);
    for (int h = 0; h < 2; h++) {
        if (a->has_hands) {
            f->hands[h].tracked = ev_bool(a, cur, SINEW_INPUT_CURVE_TRACKED(h), t);
            f->hands[h].pinch = ev_bool(a, cur, SINEW_INPUT_CURVE_PINCH(h), t);
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++)
                eval_pose(a, cur, SINEW_INPUT_CURVE_JOINT(h, j, 0), t, &f->hands[h].joints[j]);
        } else {
            f->hands[h].tracked = false;
            f->hands[h].pinch = false;
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++)
                identity_pose(&f->hands[h].joints[j]);
        }
    }
    if (a->has_eye_gaze) {
        double d[3];
        for (uint32_t k = 0; k < 3; k++) {
            f->gaze_origin[k] = (float)ev(a, cur, SINEW_INPUT_CURVE_GAZE + k, t);
            d[k] = ev(a, cur, SINEW_INPUT_CURVE_GAZE + 3 + k, t);
        }
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            f->gaze_direction[k] = len > 1e-5 ? (float)(d[k] / len) : 0.0f;
    } else {
        f->gaze_origin[0] = f->gaze_origin[1] = f->gaze_origin[2] = 0.0f;
        f->gaze_direction[0] = f->gaze_direction[1] = 0.0f;
        f->gaze_direction[2] = 1.0f;
    }
}

void sinew_input_eval(const sinew_input_animation *anim, double t, sinew_input_frame *out) {
    eval_all(anim, NULL, t, out);
}

void sinew_input_eval_cursor(const sinew_input_animation *anim, sinew_input_cursor *cursor, double t,
                             sinew_input_frame *out) {
    eval_all(anim, cursor, t, out);
}
