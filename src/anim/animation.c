/*
 * Animation states and timelines, following the official runtime's AnimationState/TimelineState
 * semantics: time and loops, keyframe arrival, easing, the last key tweening to the first while
 * looping, fades, blending by layer and weight, pose timelines while fading in, events and actions.
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/alloc.h"

enum { FADE_NONE = 0, FADE_SAME_LAYER, FADE_SAME_GROUP, FADE_SAME_LAYER_AND_GROUP, FADE_ALL, FADE_SINGLE };

uint32_t sinew__find_animation(const sinew_model_armature *arm, const char *name) {
    if (!name)
        return SINEW_INVALID_INDEX;
    for (uint32_t i = 0; i < arm->animation_count; ++i)
        if (arm->animations[i].name && strcmp(arm->animations[i].name, name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

static double anim_seconds(const arm_inst *arm, const sinew_model_animation *anim) {
    return (double)anim->frame_count / (double)arm->data->frame_rate;
}

/* ---- events -------------------------------------------------------------------------------- */

void sinew__emit(sinew_instance *inst, uint32_t ai, sinew_event_type type, const anim_state *st,
                 const sinew_model_action *action, double time) {
    if (inst->event_count == inst->event_cap) {
        inst->event_head = (inst->event_head + 1) % inst->event_cap;
        inst->event_count--;
        inst->events_dropped++;
        if (inst->ev_unsealed > inst->event_count)
            inst->ev_unsealed = inst->event_count;
    }
    event_rec *e = &inst->events[(inst->event_head + inst->event_count) % inst->event_cap];
    e->action = action;
    e->animation = st && st->anim ? st->anim->name : "";
    e->time = time;
    e->serial = st ? st->serial : 0;
    e->arm = (uint16_t)ai;
    e->state_arm = (uint16_t)ai;
    e->type = (uint8_t)type;
    e->state_ended = 0;
    inst->event_count++;
    inst->ev_unsealed++;
}

/* ---- easing -------------------------------------------------------------------------------- */

static double easing_value(int type, double p, double e) {
    double v = p;
    switch (type) {
    case SINEW_TWEEN_QUAD_IN:
        v = p * p;
        break;
    case SINEW_TWEEN_QUAD_OUT:
        v = 1.0 - (1.0 - p) * (1.0 - p);
        break;
    case SINEW_TWEEN_QUAD_IN_OUT:
        v = 0.5 * (1.0 - cos(p * SINEW_PI));
        break;
    default:
        break;
    }
    return (v - p) * e + p;
}

static double curve_value(double p, const float *samples, uint32_t count) {
    if (!(p > 0.0)) /* a NaN progress too (no sample index from it) */
        return 0.0;
    if (p >= 1.0)
        return 1.0;
    uint32_t segs = count + 1;
    uint32_t vi = (uint32_t)floor(p * segs);
    if (vi >= segs)
        vi = segs - 1;
    double from = vi == 0 ? 0.0 : samples[vi - 1];
    double to = vi == segs - 1 ? 10000.0 : samples[vi];
    return (from + (to - from) * (p * segs - vi)) * 0.0001;
}

/* ---- timeline helpers ----------------------------------------------------------------------- */

typedef struct tl_ctx {
    sinew_instance *inst;
    uint32_t ai;
    arm_inst *arm;
    anim_state *st;
    const sinew_model_animation *anim;
    const sinew_model_timeline *tls_base; /* the animation's timelines (tl_state.tl indexes them) */
    double frame_rate;
    double anim_duration;
    uint32_t follow_frame;     /* frame-grid index of the action timeline's time (follow timelines) */
} tl_ctx;

/* The timeline a record plays (NULL: the action timeline, a pose timeline). */
static inline const sinew_model_timeline *tl_T(const tl_ctx *c, const tl_state *t) {
    return t->tl != TL_NONE ? c->tls_base + t->tl : NULL;
}

static inline uint32_t tl_tween(const tl_state *t) { return t->bits & TLB_TWEEN; }

/* The official timeline scale and offset: stored as round(x * 100), used as 100/s and o/100. */
static void tl_scale_offset(const sinew_model_timeline *T, double *scale, double *offset) {
    *scale = 1.0;
    *offset = 0.0;
    if (!T)
        return;
    double s100 = sinew__js_round((double)T->scale * 100.0);
    *scale = s100 != 0.0 ? 100.0 / s100 : 1.0;
    *offset = sinew__js_round((double)T->offset * 100.0) * 0.01;
}

static void tl_reset(tl_state *t, uint32_t tl) {
    memset(t, 0, sizeof *t);
    t->tl = (uint16_t)tl;
    t->play_state = -1;
    t->current_play_times = -1;
    t->current_time = -1.0;
    t->frame_index = -1;
}

/* A DragonBones 6.0 armature plays as upstream DragonBonesJS 5.7 / 6.0.2 where the 5.x reference
 * (the Cocos fork) differs (docs/runtime.md "Upstream 5.7 semantics"). */
static inline bool arm_v6(const arm_inst *arm) { return arm->data->v6; }

/* The play count a timeline starts with: -1 in the 5.x reference (so a zero-time first update
 * changes it: `start` and the frame-0 events), 0 upstream (a zero-time first update changes
 * nothing: no `start`, frame-0 events with the first update that moves the time). */
static inline int32_t initial_play_times(const arm_inst *arm) { return arm_v6(arm) ? 0 : -1; }

/* Upstream: the state's blend is dirty (fading, or steady after its fade-in completed). */
static inline bool state_blend_dirty(const anim_state *st) {
    return st->fade_state != 0 || st->sub_fade_state == 0;
}

/* tl_reset with the armature's initial play count. */
static void tl_start(const arm_inst *arm, tl_state *t, uint32_t tl) {
    tl_reset(t, tl);
    t->current_play_times = initial_play_times(arm);
}

/* fmod(p, d) for p >= 0, d > 0, given q = floor(p / d): when q is the true quotient, p - q d is
 * exactly fmod's (representable) result, which one fma yields; otherwise (p / d rounded across
 * an integer) the value falls outside [0, d) and fmod itself is used. */
static inline double fmod_q(double p, double d, double q) {
    double r = fma(-q, d, p);
    return r >= 0.0 && r < d ? r : fmod(p, d);
}

/* The time a timeline holds once its last play is over: just past the end in the 5.x reference;
 * upstream only when its play state is 1 (the playhead ran into the end), else the end itself. */
static inline double finished_time(const tl_ctx *c, const tl_state *t, double duration) {
    return arm_v6(c->arm) && t->play_state != 1 ? duration : duration + 0.000001;
}

/* A 6.0 timeline of several keys (the official 6.0 _setCurrentTime): the action timeline's time
 * through the timeline's timelineConfig (docs/dragonbones-6.0.md section 10), when it is not the
 * default: scaled and offset, then wrapped into the timeline's own duration if it loops, else held
 * just past its end (D + 1e-6) or at 0. */
static void timeline_time6(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T) {
    const anim_state *st = c->st;
    t->play_state = st->action_tl.play_state;
    t->current_play_times = st->action_tl.current_play_times;
    double main = st->action_tl.current_time, fr = c->frame_rate;
    double scale = sinew__tl_scale6(T), offset = sinew__tl_offset6(T, fr), d = sinew__tl_duration6(T, fr);
    if (!(scale == 1.0 && offset == 0.0 && !T->cfg_loop && d == st->duration)) {
        if (scale != 1.0 || offset != 0.0) {
            main *= scale;
            main += offset;
        }
        if (T->cfg_loop) { /* (a looping timeline of no length: the official time is NaN; 0 here) */
            main = d > 0.0 ? fmod(main, d) : 0.0;
            if (main < 0.0)
                main += d;
        } else if (main > d) {
            main = d + 0.000001;
        } else if (main < 0.0) {
            main = 0.0;
        }
    }
    t->current_time = main + st->position;
}

/* The official TimelineState._setCurrentTime. T is the timeline (NULL for the action timeline and
 * the pose timelines). Returns false when neither the time nor the play count moved. */
static bool set_current_time(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, double passed) {
    anim_state *st = c->st;
    const bool action = t == &st->action_tl;
    int8_t prev_state = t->play_state;
    int32_t prev_times = t->current_play_times;
    double prev_time = t->current_time;
    if (T && T->run_follow) {
        t->play_state = st->action_tl.play_state;
        t->current_play_times = st->action_tl.current_play_times;
        t->current_time = st->action_tl.current_time;
    } else if (!action && (!T || T->grid_key_count <= 1)) {
        t->play_state = st->action_tl.play_state >= 0 ? 1 : -1;
        t->current_play_times = 1;
        t->current_time = st->action_tl.current_time;
    } else if (!action && c->arm->data->v6) {
        timeline_time6(c, t, T);
    } else {
        int32_t play_times = st->play_times;
        double duration = st->duration > 0.0 ? st->duration : 1e-9;
        /* upstream, an animation of duration 0 (played once) ends at once */
        double end = arm_v6(c->arm) ? st->duration : duration;
        double total = play_times * end;
        double tscale, toffset;
        tl_scale_offset(action ? NULL : T, &tscale, &toffset);
        if (tscale != 1.0)
            passed *= tscale;
        if (toffset != 0.0)
            passed += toffset * c->anim_duration;
        if (play_times > 0 && (passed >= total || passed <= -total)) {
            if (t->play_state <= 0 && st->playhead_state == 3)
                t->play_state = 1;
            t->current_play_times = play_times;
            t->current_time = passed < 0.0 ? 0.0 : finished_time(c, t, end);
        } else {
            if (t->play_state != 0 && st->playhead_state == 3)
                t->play_state = 0;
            double times;
            if (passed < 0.0) {
                passed = -passed;
                times = floor(passed / duration);
                t->current_time = duration - fmod_q(passed, duration, times);
            } else {
                times = floor(passed / duration);
                t->current_time = fmod_q(passed, duration, times);
            }
            t->current_play_times = times < 2147483647.0 ? (int32_t)times : INT32_MAX;
        }
        t->current_time += st->position;
    }
    if (t->current_play_times == prev_times && t->current_time == prev_time)
        return false;
    if ((prev_state < 0 && t->play_state != prev_state) ||
        (t->play_state <= 0 && t->current_play_times != prev_times))
        t->frame_index = -1;
    return true;
}

static inline uint32_t frame_key(const tl_ctx *c, const uint32_t *table, double time) {
    double f = floor(time * c->frame_rate);
    uint32_t fi = f > 0.0 ? (f < (double)c->anim->frame_count ? (uint32_t)f : c->anim->frame_count) : 0;
    return table[fi];
}

/* Moves the timeline (not the action timeline) to the key at its current time. Returns true on
 * arrival at a key. */
static inline bool tl_seek(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T) {
    if (T && T->grid_key_count > 1) {
        uint32_t k = T->run_follow ? T->frame_keys[c->follow_frame] : frame_key(c, T->frame_keys, t->current_time);
        if (t->frame_index != (int32_t)k) {
            t->frame_index = (int32_t)k;
            return true;
        }
        return false;
    }
    if (t->frame_index < 0) {
        t->frame_index = 0;
        return true;
    }
    return false;
}

/* ---- keyframe arrival and frame update (tween timelines) ---------------------------------- */

/* The official TweenTimelineState._onArriveAtFrame: the key's tween (run_keys), unless it is the
 * last key of the last play. */
static inline void tween_arrive(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T) {
    const anim_state *st = c->st;
    uint32_t tw = 1;
    if (T && T->grid_key_count > 1) {
        uint32_t fi = (uint32_t)t->frame_index;
        if (fi != T->grid_key_count - 1 || st->play_times == 0 ||
            st->action_tl.current_play_times < st->play_times - 1)
            tw = T->run_keys[fi].tween == SINEW_TWEEN_NONE ? 1u : 2u;
    }
    t->bits = (uint8_t)((t->bits & ~(TLB_TWEEN | TLB_DELTA)) | tw | (tw == 2 ? TLB_DELTA : 0u));
}

/* The official _onUpdateFrame's progress at time `now` (the timeline's own, or its clock's). */
static inline void tween_update_frame(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, double now) {
    if (tl_tween(t) == 2) {
        const sinew_model_run_key *k = &T->run_keys[t->frame_index];
        double p = (now - k->frame_pos) * k->dur_r;
        if (k->tween == SINEW_TWEEN_CURVE)
            p = curve_value(p, c->anim->samples + k->sample_first, k->sample_count);
        else if (k->tween != SINEW_TWEEN_LINEAR)
            p = easing_value(k->tween, p, k->easing);
        t->progress = (float)p;
    } else {
        t->progress = 0.0f;
        t->bits &= (uint8_t)~TLB_TWEEN;
    }
    t->bits |= TLB_DIRTY;
}

static inline const float *key_values(const sinew_model_timeline *T, uint32_t k) {
    return T->run_values + (size_t)k * T->values_per_key;
}

static inline uint32_t next_key(const tl_state *t, const sinew_model_timeline *T) {
    uint32_t fi = (uint32_t)t->frame_index;
    return fi == T->grid_key_count - 1 ? 0 : fi + 1;
}

/* ---- IK, display, colour, deform, z-order --------------------------------------------------- */

static void ik_apply(const tl_ctx *c, const tl_state *t, const sinew_model_timeline *T, uint32_t ik, bool arrived) {
    arm_inst *arm = c->arm;
    double cur, delta = 0.0;
    if (T) {
        const float *v = key_values(T, (uint32_t)t->frame_index);
        cur = v[0] * 0.01;
        if (t->bits & TLB_DELTA)
            delta = key_values(T, next_key(t, T))[0] * 0.01 - cur;
        if (arrived)
            arm->ik_bend[ik] = v[1] != 0.0f;
    } else {
        cur = arm->data->iks[ik].weight;
        if (arrived)
            arm->ik_bend[ik] = arm->data->iks[ik].bend_positive;
    }
    float w = (float)(cur + delta * t->progress);
    arm->ik_weight[ik] = w;
    /* the official constraint invalidUpdate(): the root and the chain bone recompute from
     * their pose (instead of keeping the last solution) */
    const sinew_model_ik *K = &arm->data->iks[ik];
    if (K->root < arm->bone_count)
        arm->bone_dirty[K->root] = 1;
    if (K->chain > 0 && K->bone < arm->bone_count)
        arm->bone_dirty[K->bone] = 1;
}

static void color_result(const tl_ctx *c, const tl_state *t, const sinew_model_timeline *T, uint32_t slot,
                         float res[8]) {
    double cur[8], nxt[8];
    if (T) {
        const float *v = key_values(T, (uint32_t)t->frame_index);
        const float *w = (t->bits & TLB_DELTA) ? key_values(T, next_key(t, T)) : v;
        for (int i = 0; i < 8; ++i) {
            cur[i] = v[i];
            nxt[i] = w[i];
        }
    } else {
        const sinew_color_transform *s = &c->arm->data->slots[slot].color;
        cur[0] = s->a_mul * 100.0;
        cur[1] = s->r_mul * 100.0;
        cur[2] = s->g_mul * 100.0;
        cur[3] = s->b_mul * 100.0;
        cur[4] = s->a_add;
        cur[5] = s->r_add;
        cur[6] = s->g_add;
        cur[7] = s->b_add;
        for (int i = 0; i < 8; ++i)
            nxt[i] = cur[i];
    }
    double p = t->progress;
    for (int i = 0; i < 4; ++i)
        res[i] = (float)((cur[i] + (nxt[i] - cur[i]) * p) * 0.01);
    for (int i = 4; i < 8; ++i)
        res[i] = (float)(cur[i] + (nxt[i] - cur[i]) * p);
}

/* The deform values (2 per vertex) of mesh m that a pose deform timeline reaches when it drives
 * `len` official values (2 per vertex, or per influence of a weighted mesh, in their order): a
 * weighted mesh's vertex whose influences straddle the end is left out (the official runtime
 * fades some of its influences' offsets and not the others, which a per-vertex offset cannot
 * say). */
static uint32_t pose_deform_values(const sinew_model_mesh *m, uint32_t len) {
    if (!m->weighted || !m->vertex_first_influence)
        return len < 2 * m->vertex_count ? len : 2 * m->vertex_count;
    uint32_t v = 0;
    while (v < m->vertex_count && m->vertex_first_influence[v + 1] <= len / 2)
        ++v;
    return 2 * v;
}

/* A path deform timeline wrote the slot's path deform (the official slot._verticesDirty): the path
 * constraints of the slot compute their points again. */
static void path_deformed6(arm_inst *arm, uint32_t slot) {
    for (uint32_t c = 0; c < arm->data->path_constraint_count; ++c)
        if (arm->data->path_constraints[c].slot == slot)
            arm->paths[c].verts_dirty = 1;
}

/* Applies a colour / deform timeline's value to one slot (the official update tail). `kind` is
 * TLK_SLOT_COLOR or TLK_DEFORM; T NULL for the pose timelines. */
static void slot_tl_apply(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, uint8_t kind, uint32_t slot,
                          uint32_t mesh, bool last_target) {
    arm_inst *arm = c->arm;
    const bool dirty = (t->bits & TLB_DIRTY) != 0;
    if (tl_tween(t) == 0 && !dirty)
        return;
    bool fading = c->st->fade_state != 0 || c->st->sub_fade_state != 0;
    if (kind == TLK_SLOT_COLOR) {
        float res[8];
        color_result(c, t, T, slot, res);
        float *cv = &arm->color[slot].a_mul;
        if (fading) {
            double fp = pow(c->st->fade_progress, 4.0);
            for (int i = 0; i < 8; ++i)
                cv[i] += (float)((res[i] - cv[i]) * fp);
        } else if (dirty) {
            for (int i = 0; i < 8; ++i)
                cv[i] = res[i];
            if (last_target)
                t->bits &= (uint8_t)~TLB_DIRTY;
        }
    } else if (kind == TLK_DEFORM || kind == TLK_PATH_DEFORM) {
        /* a mesh's or vector shape's deform, or (6.0) a path display's: 2 values per point */
        const sinew_model_mesh *m = kind == TLK_DEFORM ? &arm->data->meshes[mesh] : NULL;
        uint32_t pd = T ? T->display : arm->cur_display[slot];
        uint32_t n = m ? 2 * m->vertex_count : 2 * arm->data->paths[arm->data->displays[pd].path_data].vertex_count;
        if (n > sinew__deform_cap(arm, slot))
            n = sinew__deform_cap(arm, slot);
        if (kind == TLK_PATH_DEFORM)
            path_deformed6(arm, slot);
        if (!T && m) { /* a pose timeline: the values its count reaches; writing, it grows the array */
            uint32_t len = sinew__state_pose_deform(arm, c->st)[slot];
            uint32_t k = pose_deform_values(m, len);
            n = k < n ? k : n;
            if ((fading || dirty) && len > arm->deform_len[slot])
                arm->deform_len[slot] = len;
        }
        float *dv = arm->deform + sinew__deform_first(arm, slot);
        const float *v0 = NULL, *v1 = NULL;
        if (T && t->frame_index >= 0 && T->values_per_key >= n) {
            v0 = key_values(T, (uint32_t)t->frame_index);
            if (t->bits & TLB_DELTA)
                v1 = key_values(T, next_key(t, T));
        }
        double p = t->progress;
        if (v0)
            arm->deform_nz[slot] = 1;
        if (fading) {
            double fp = pow(c->st->fade_progress, 2.0);
            for (uint32_t i = 0; i < n; ++i) {
                double r = v0 ? v0[i] + (v1 ? (v1[i] - v0[i]) * p : 0.0) : 0.0;
                dv[i] += (float)((r - dv[i]) * fp);
            }
            arm->deform_dirty[slot] = 1;
        } else if (dirty) {
            /* the same values as v0 + (v1 - v0) * p per element, with the cases hoisted */
            if (v0 && v1) {
                uint32_t i = 0;
#if defined(__GNUC__)
                /* two elements per step in 2-lane double vectors (the same operations) */
                typedef float f2 __attribute__((vector_size(8)));
                typedef double d2 __attribute__((vector_size(16)));
                d2 pv = {p, p};
                for (; i + 2 <= n; i += 2) {
                    f2 a, b;
                    memcpy(&a, v0 + i, sizeof a);
                    memcpy(&b, v1 + i, sizeof b);
                    d2 da = __builtin_convertvector(a, d2), db = __builtin_convertvector(b, d2);
                    f2 r = __builtin_convertvector(da + (db - da) * pv, f2);
                    memcpy(dv + i, &r, sizeof r);
                }
#endif
                for (; i < n; ++i)
                    dv[i] = (float)(v0[i] + ((double)v1[i] - v0[i]) * p);
            } else if (v0) {
                memcpy(dv, v0, n * sizeof(float));
            } else {
                memset(dv, 0, n * sizeof(float));
            }
            arm->deform_dirty[slot] = 1;
            if (last_target)
                t->bits &= (uint8_t)~TLB_DIRTY;
        }
    }
}

static void display_arrive(const tl_ctx *c, const tl_state *t, const sinew_model_timeline *T, uint32_t slot) {
    arm_inst *arm = c->arm;
    if (t->play_state < 0)
        return;
    int32_t idx = T ? (int32_t)key_values(T, (uint32_t)t->frame_index)[0] : arm->data->slots[slot].display_index;
    /* a value equal to the animation's last one is skipped, as officially */
    if (arm->display_index[slot] != idx && arm->anim_display_index[slot] != idx) {
        arm->anim_display_index[slot] = idx;
        sinew__slot_set_display_index(c->inst, c->ai, slot, idx);
    }
}

static SW_INLINE void slot_tl_update(const tl_ctx *c, tl_state *t, double time) {
    arm_inst *arm = c->arm;
    const sinew_model_timeline *T = tl_T(c, t);
    const uint32_t slot = T->target;
    const uint8_t kind = T->run_kind;
    if (kind == TLK_DEFORM && arm->cur_mesh[slot] != T->mesh)
        return;
    if (kind == TLK_PATH_DEFORM && arm->cur_display[slot] != T->display)
        return;
    if (set_current_time(c, t, T, time)) {
        if (tl_seek(c, t, T)) {
            if (kind == TLK_SLOT_DISPLAY) {
                display_arrive(c, t, T, slot);
                return;
            }
            tween_arrive(c, t, T);
        }
        if (kind == TLK_SLOT_DISPLAY)
            return;
        if (tl_tween(t) != 0)
            tween_update_frame(c, t, T, t->current_time);
    }
    if (kind != TLK_SLOT_DISPLAY)
        slot_tl_apply(c, t, T, kind, slot, T->mesh, true);
}

/* A 6.0 IK timeline (the official 6.0 IKConstraintTimelineState): the weight is the tween's value
 * (x100 integers scaled by 0.01), bendPositive the one of the last key the timeline arrived at with a
 * tween (TLB_BEND6; false until one), applied on arriving without a tween and while tweening. */
static void ik_tl_update6(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T) {
    arm_inst *arm = c->arm;
    if (tl_seek(c, t, T)) {
        tween_arrive(c, t, T);
        if (tl_tween(t) == 2)
            t->bits = (uint8_t)((t->bits & ~TLB_BEND6) | (key_values(T, (uint32_t)t->frame_index)[1] != 0.0f ? TLB_BEND6 : 0u));
    }
    if (tl_tween(t) == 0)
        return;
    tween_update_frame(c, t, T, t->current_time);
    const float *v = key_values(T, (uint32_t)t->frame_index);
    double cur = v[0] * 0.01, w = cur;
    if (t->bits & TLB_DELTA)
        w = cur + (key_values(T, next_key(t, T))[0] * 0.01 - cur) * (double)t->progress;
    uint32_t ik = T->target;
    arm->ik_weight[ik] = (float)w;
    arm->ik_bend[ik] = (t->bits & TLB_BEND6) != 0;
    const sinew_model_ik *K = &arm->data->iks[ik]; /* invalidUpdate() */
    if (K->root < arm->bone_count)
        arm->bone_dirty[K->root] = 1;
    if (K->chain > 0 && K->bone < arm->bone_count)
        arm->bone_dirty[K->bone] = 1;
}

/* A 6.0 path constraint's position, spacing or weights timeline (the official
 * PathConstraint*TimelineState): the tween's values written into the constraint's own. */
static void path_tl_update6(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T) {
    if (tl_seek(c, t, T))
        tween_arrive(c, t, T);
    if (tl_tween(t) == 0)
        return;
    tween_update_frame(c, t, T, t->current_time);
    const float *v = key_values(T, (uint32_t)t->frame_index);
    const float *w = (t->bits & TLB_DELTA) ? key_values(T, next_key(t, T)) : NULL;
    double r[3];
    for (uint32_t i = 0; i < T->values_per_key && i < 3; ++i)
        r[i] = w ? v[i] + ((double)w[i] - v[i]) * (double)t->progress : v[i];
    path_values6 *pv = &c->arm->path6[T->target];
    if (T->type == SINEW_TL_PATH_POSITION) {
        pv->position = r[0];
    } else if (T->type == SINEW_TL_PATH_SPACING) {
        pv->spacing = r[0];
    } else {
        pv->rotate_weight = r[0];
        pv->x_weight = r[1];
        pv->y_weight = r[2];
    }
}

static void ik_tl_update(const tl_ctx *c, tl_state *t, double time) {
    const sinew_model_timeline *T = tl_T(c, t);
    if (!set_current_time(c, t, T, time))
        return;
    if (c->arm->data->v6) {
        if (T->run_kind == TLK_PATH)
            path_tl_update6(c, t, T);
        else
            ik_tl_update6(c, t, T);
        return;
    }
    if (tl_seek(c, t, T)) {
        tween_arrive(c, t, T);
        t->progress = 0.0f;
        ik_apply(c, t, T, T->target, true);
    }
    if (tl_tween(t) != 0) {
        tween_update_frame(c, t, T, t->current_time);
        ik_apply(c, t, T, T->target, false);
    }
}

/* One step of the clock the bone timelines following the animation share (the official
 * _setCurrentTime of each, which all give the same answer): whether they moved, and whether they
 * start over (frame_index reset). */
typedef struct follow_step {
    bool step, reset;
    double time;
} follow_step;

static inline follow_step bone_clock_step(anim_state *st) {
    follow_step f = {false, false, 0.0};
    tl_clock *g = &st->bone_clock;
    const tl_state *a = &st->action_tl;
    if (g->play_state > 0 || (a->current_play_times == g->play_times && a->current_time == g->time))
        return f;
    f.reset = (g->play_state < 0 && a->play_state != g->play_state) ||
              (a->play_state <= 0 && a->current_play_times != g->play_times);
    g->play_state = a->play_state;
    g->play_times = a->current_play_times;
    g->time = a->current_time;
    f.step = true;
    f.time = a->current_time;
    return f;
}

const sinew_model_run_key sinew__no_key = {0};

/* The official _onArriveAtFrame of a following bone timeline at key k (t->key). */
static inline void follow_arrive(const anim_state *st, tl_state *t, const sinew_model_run_key *k) {
    uint32_t tw = 1;
    if (!k->last || st->play_times == 0 || st->action_tl.current_play_times < st->play_times - 1)
        tw = k->tween == SINEW_TWEEN_NONE ? 1u : 2u;
    t->bits = (uint8_t)((t->bits & ~(TLB_TWEEN | TLB_DELTA)) | tw | (tw == 2 ? TLB_DELTA : 0u));
}

/* The eased progress of a tween at time `now` in key k (tween_update_frame's, for a timeline
 * known to tween). */
static inline float tween_progress(const tl_ctx *c, const sinew_model_run_key *k, double now) {
    double p = (now - k->frame_pos) * k->dur_r;
    if (k->tween == SINEW_TWEEN_CURVE)
        p = curve_value(p, c->anim->samples + k->sample_first, k->sample_count);
    else if (k->tween != SINEW_TWEEN_LINEAR)
        p = easing_value(k->tween, p, k->easing);
    return (float)p;
}

/* One step of a bone timeline that follows the animation's clock: the key at the clock's frame
 * (arriving when the frame left the current key's range), the tween's progress. Returns true if
 * its value may have changed. */
static inline bool follow_bone_step(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, double now) {
    const sinew_model_run_key *k = t->key;
    const uint32_t ff = c->follow_frame;
    bool arrived = ff - k->frame_first >= k->frame_end - k->frame_first;
    if (arrived) {
        uint32_t fi = T->frame_keys[ff]; /* follow: more than one key */
        t->frame_index = (int32_t)fi;
        t->key = k = T->run_keys + fi;
        follow_arrive(c->st, t, k);
    }
    uint32_t tw = tl_tween(t);
    if (tw == 2) {
        t->progress = tween_progress(c, k, now);
    } else if (tw == 1) {
        t->progress = 0.0f;
        t->bits &= (uint8_t)~TLB_TWEEN;
    } else {
        return arrived;
    }
    return true;
}

/* Returns true if the bone timeline's value may have changed. */
static inline bool bone_tl_update(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, double time,
                                  const follow_step *fs) {
    if (T->run_follow) {
        if (!fs->step)
            return false;
        if (fs->reset) {
            t->frame_index = -1;
            t->key = &sinew__no_key;
        }
        return follow_bone_step(c, t, T, fs->time);
    }
    if (!set_current_time(c, t, T, time))
        return false;
    bool arrived = tl_seek(c, t, T);
    if (arrived)
        tween_arrive(c, t, T);
    if (tl_tween(t) != 0) {
        tween_update_frame(c, t, T, t->current_time);
        return true;
    }
    return arrived;
}

/* Writes a 2-channel bone timeline's values (key k) straight into the pose of bone b (a lone
 * state at weight 1: the same float as the blend would store). The timeline updated its frame,
 * so the bone is dirty (the official _transformDirty); a changed value also invalidates its local
 * matrix. */
static inline void bone_tl_write(double *pose, uint8_t *bone_dirty, uint8_t *local_ok, const tl_state *t,
                                 const sinew_model_run_key *k, uint32_t b) {
    double *p = pose + (size_t)b * 6 + k->chan;
    double v[2];
    if (t->bits & TLB_DELTA) {
        double pr = t->progress;
        v[0] = k->value[0] + k->delta[0] * pr;
        v[1] = k->value[1] + k->delta[1] * pr;
    } else { /* the key's values (as v0 + 0 * 0: a zero comes out positive) */
        v[0] = k->value[0] + 0.0;
        v[1] = k->value[1] + 0.0;
    }
    bone_dirty[b] = 1;
    if (memcmp(p, v, sizeof v) != 0) {
        memcpy(p, v, sizeof v);
        local_ok[b] = 0;
    }
}

/* The bone timelines of a lone state at weight 1 with direct writes (bones_direct). The pose
 * arrays are held in locals (the stores through t and the byte flags would otherwise make the
 * compiler reload them). */
static SW_INLINE void bones_direct_advance(const tl_ctx *c, double time, const follow_step *fs) {
    anim_state *st = c->st;
    double *pose = c->arm->pose;
    uint8_t *bone_dirty = c->arm->bone_dirty, *local_ok = c->arm->local_ok;
    const sinew_model_timeline *base = c->tls_base;
    tl_state *t = st->tls, *end = st->tls + st->bone_tl_count;
    const bool step = fs->step;
    const double now = fs->time;
    if (step && fs->reset)
        for (tl_state *r = t; r < end; ++r)
            if (r->bits & TLB_FOLLOW) {
                r->frame_index = -1;
                r->key = &sinew__no_key;
            }
    if (st->bones_follow) { /* they move together or not at all */
        if (!step)
            return;
        for (; t < end; ++t)
            if (follow_bone_step(c, t, base + t->tl, now))
                bone_tl_write(pose, bone_dirty, local_ok, t, t->key, t->bone);
        return;
    }
    for (; t < end; ++t) {
        if (t->bits & TLB_FOLLOW) {
            if (step && follow_bone_step(c, t, base + t->tl, now))
                bone_tl_write(pose, bone_dirty, local_ok, t, t->key, t->bone);
        } else if (t->play_state <= 0) {
            const sinew_model_timeline *T = base + t->tl;
            if (bone_tl_update(c, t, T, time, fs))
                bone_tl_write(pose, bone_dirty, local_ok, t, T->run_keys + t->frame_index, T->target);
        }
    }
}

/* Adds one bone timeline's channels to res (identity-initialised by the caller). */
static inline void bone_tl_result(const tl_state *t, const sinew_model_timeline *T, double res[6]) {
    if (t->frame_index < 0)
        return;
    uint32_t fi = (uint32_t)t->frame_index;
    const bool delta = (t->bits & TLB_DELTA) != 0;
    const float *v0 = key_values(T, fi);
    const float *v1 = delta ? key_values(T, next_key(t, T)) : v0;
    double p = t->progress;
    switch (T->type) {
    case SINEW_TL_BONE_ALL:
        for (int i = 0; i < 6; ++i)
            res[i] = v0[i] + ((double)v1[i] - v0[i]) * p;
        break;
    case SINEW_TL_BONE_TRANSLATE:
        res[0] = v0[0] + ((double)v1[0] - v0[0]) * p;
        res[1] = v0[1] + ((double)v1[1] - v0[1]) * p;
        break;
    case SINEW_TL_BONE_ROTATE: {
        /* the deltas as prepared (run_keys): the wrap tween's rotation normalised (not in XML rigs,
         * plain numbers), and in a 6.0 file its skew too */
        const sinew_model_run_key *k = &T->run_keys[fi];
        res[2] = v0[0] + (delta ? k->delta[0] : 0.0) * p;
        res[3] = v0[1] + (delta ? k->delta[1] : 0.0) * p;
        break;
    }
    case SINEW_TL_BONE_SCALE:
        res[4] = v0[0] + ((double)v1[0] - v0[0]) * p;
        res[5] = v0[1] + ((double)v1[1] - v0[1]) * p;
        break;
    default:
        break;
    }
}

static int blend_update(blend_state *b, double weight, int32_t layer) {
    if (b->dirty) {
        if (b->left_weight > 0.0) {
            if (b->layer != layer) {
                if (b->layer_weight >= b->left_weight) {
                    b->left_weight = 0.0;
                    return 0;
                }
                b->layer = layer;
                b->left_weight -= b->layer_weight;
                b->layer_weight = 0.0;
            }
        } else {
            return 0;
        }
        weight *= b->left_weight;
        b->layer_weight += weight;
        b->blend_weight = weight;
        return 2;
    }
    b->dirty = true;
    b->layer = layer;
    b->layer_weight = weight;
    b->left_weight = 1.0;
    b->blend_weight = weight;
    return 1;
}

static inline void bone_blend(arm_inst *arm, uint32_t bone, int state, const double r[6]) {
    double *p = arm->pose + (size_t)bone * 6;
    double w = arm->blend[bone].blend_weight;
    double v[6];
    if (state == 2) {
        v[0] = p[0] + r[0] * w;
        v[1] = p[1] + r[1] * w;
        v[2] = p[2] + r[2] * w;
        v[3] = p[3] + r[3] * w;
        v[4] = p[4] + (r[4] - 1.0) * w;
        v[5] = p[5] + (r[5] - 1.0) * w;
    } else if (w != 1.0) {
        v[0] = r[0] * w;
        v[1] = r[1] * w;
        v[2] = r[2] * w;
        v[3] = r[3] * w;
        v[4] = (r[4] - 1.0) * w + 1.0;
        v[5] = (r[5] - 1.0) * w + 1.0;
    } else {
        for (int i = 0; i < 6; ++i)
            v[i] = r[i];
    }
    if (memcmp(p, v, sizeof v) != 0) {
        memcpy(p, v, sizeof v);
        arm->local_ok[bone] = 0;
    }
}

/* ---- the action timeline -------------------------------------------------------------------- */

/* Queues a play action for the end of the armature's update. Every crossing of an action frame
 * queues its actions again (the official runtime makes a new event object each time, so its
 * queue never merges two), in crossing order. */
static void buffer_action(arm_inst *arm, uint32_t action, uint32_t slot, uint32_t bone, bool append) {
    if (arm->action_count >= SINEW_ACTION_CAP)
        return;
    pending_action pa = {action, slot, bone};
    if (append) {
        arm->actions[arm->action_count++] = pa;
    } else {
        memmove(arm->actions + 1, arm->actions, arm->action_count * sizeof pa);
        arm->actions[0] = pa;
        arm->action_count++;
    }
}

static void cross_frame(const tl_ctx *c, uint32_t fi) {
    if (!c->st->action_enabled)
        return;
    const sinew_model_action_frame *f = &c->anim->run_action_frames[fi];
    double time = f->position / c->frame_rate;
    for (uint32_t i = 0; i < f->action_count; ++i) {
        uint32_t ai = c->anim->run_action_index[f->first_action + i];
        if (ai >= c->arm->data->action_count)
            continue;
        const sinew_model_action *a = &c->arm->data->actions[ai];
        if (a->type == SINEW_ACTION_FRAME_EVENT)
            sinew__emit(c->inst, c->ai, SINEW_EVENT_FRAME, c->st, a, time);
        else if (a->type == SINEW_ACTION_SOUND)
            sinew__emit(c->inst, c->ai, SINEW_EVENT_SOUND, c->st, a, time);
        else
            buffer_action(c->arm, ai, a->slot, a->bone, true);
    }
}

static double action_frame_pos(const tl_ctx *c, uint32_t fi) {
    return c->anim->run_action_frames[fi].position / c->frame_rate;
}

/* The playhead passed action frame `k` (either direction): fire it if it lies in the state's
 * play window, and deliver a pending loopComplete just before frame 0 fires again. */
static void pass_action_frame(const tl_ctx *c, uint32_t k, bool *loop_complete) {
    anim_state *st = c->st;
    double fp = action_frame_pos(c, k);
    if (st->position <= fp && fp <= st->position + st->duration)
        cross_frame(c, k);
    if (*loop_complete && k == 0) {
        sinew__emit(c->inst, c->ai, SINEW_EVENT_LOOP_COMPLETE, st, NULL, 0.0);
        *loop_complete = false;
    }
}

static void action_tl_update(const tl_ctx *c, double time) {
    anim_state *st = c->st;
    tl_state *t = &st->action_tl;
    int8_t prev_state = t->play_state;
    int32_t prev_times = t->current_play_times;
    double prev_time = t->current_time;
    if (!set_current_time(c, t, NULL, time))
        return;
    if (prev_state < 0) {
        if (t->play_state != prev_state) {
            if (st->display_control && st->reset_to_pose)
                sinew__sort_zorder(c->arm, NULL);
            if (!arm_v6(c->arm)) /* upstream keeps the count: a loop or the end counts in this update */
                prev_times = t->current_play_times;
            sinew__emit(c->inst, c->ai, SINEW_EVENT_START, st, NULL, 0.0);
        } else {
            return;
        }
    }
    bool reverse = st->time_scale < 0.0;
    bool loop_complete = false, complete = false;
    if (t->current_play_times != prev_times) {
        loop_complete = true;
        if (t->play_state > 0)
            complete = true;
    }
    uint32_t fc = c->anim->run_action_frame_count;
    const uint32_t *table = c->anim->action_frame_keys;
    if (fc > 1 && table) {
        uint32_t k = frame_key(c, table, t->current_time);
        if (t->frame_index != (int32_t)k) {
            int32_t crossed = t->frame_index;
            t->frame_index = (int32_t)k;
            if (reverse) {
                if (crossed < 0) {
                    crossed = (int32_t)frame_key(c, table, prev_time);
                    if (t->current_play_times == prev_times && crossed == (int32_t)k)
                        crossed = -1;
                }
                while (crossed >= 0) {
                    pass_action_frame(c, (uint32_t)crossed, &loop_complete);
                    crossed = crossed > 0 ? crossed - 1 : (int32_t)fc - 1;
                    if (crossed == (int32_t)k)
                        break;
                }
            } else {
                if (crossed < 0) {
                    crossed = (int32_t)frame_key(c, table, prev_time);
                    double fp = action_frame_pos(c, (uint32_t)crossed);
                    if (t->current_play_times == prev_times) {
                        if (prev_time <= fp)
                            crossed = crossed > 0 ? crossed - 1 : (int32_t)fc - 1;
                        else if (crossed == (int32_t)k)
                            crossed = -1;
                    }
                }
                while (crossed >= 0) {
                    crossed = crossed < (int32_t)fc - 1 ? crossed + 1 : 0;
                    pass_action_frame(c, (uint32_t)crossed, &loop_complete);
                    if (crossed == (int32_t)k)
                        break;
                }
            }
        }
    } else if (t->frame_index < 0) {
        t->frame_index = 0;
        if (fc > 0) {
            double fp = action_frame_pos(c, 0);
            if (t->current_play_times == prev_times) {
                if (prev_time <= fp)
                    cross_frame(c, 0);
            } else if (st->position <= fp) {
                if (!reverse && loop_complete) {
                    sinew__emit(c->inst, c->ai, SINEW_EVENT_LOOP_COMPLETE, st, NULL, 0.0);
                    loop_complete = false;
                }
                cross_frame(c, 0);
            }
        }
    }
    if (loop_complete)
        sinew__emit(c->inst, c->ai, SINEW_EVENT_LOOP_COMPLETE, st, NULL, 0.0);
    if (complete)
        sinew__emit(c->inst, c->ai, SINEW_EVENT_COMPLETE, st, NULL, 0.0);
}

static void zorder_tl_update(const tl_ctx *c, double time) {
    tl_state *t = &c->st->zorder_tl;
    const sinew_model_timeline *T = tl_T(c, t);
    if (!T || !set_current_time(c, t, T, time))
        return;
    if (tl_seek(c, t, T) && t->play_state >= 0) {
        if (T->values_per_key >= c->arm->slot_count && T->values_per_key > 0)
            sinew__sort_zorder(c->arm, key_values(T, (uint32_t)t->frame_index));
        else
            sinew__sort_zorder(c->arm, NULL);
    }
}

/* ---- state set-up ---------------------------------------------------------------------------- */

static void push_tl(arm_inst *arm, anim_state *st, const sinew_model_timeline *T) {
    uint32_t n = (uint32_t)st->bone_tl_count + st->slot_tl_count + st->ik_tl_count + st->surface_tl_count;
    if (n >= arm->tl_cap)
        return;
    tl_state *t = &st->tls[n];
    tl_start(arm, t, (uint32_t)(T - (arm->data->timelines + st->anim->first_timeline)));
    if (T->run_kind == TLK_BONE && T->run_follow) {
        t->key = &sinew__no_key;
        t->bone = T->target;
        t->bits = TLB_FOLLOW;
    }
    if (T->run_kind == TLK_BONE)
        st->bone_tl_count++;
    else if (T->run_kind == TLK_IK || T->run_kind == TLK_PATH)
        st->ik_tl_count++;
    else if (T->run_kind == TLK_SURFACE)
        st->surface_tl_count++;
    else
        st->slot_tl_count++;
}

/* A deform timeline: of a mesh or vector shape (TLK_DEFORM), or of a 6.0 path display. */
static inline bool is_deform_kind(uint8_t kind) { return kind == TLK_DEFORM || kind == TLK_PATH_DEFORM; }

/* An animation's timelines in the armature's list; NULL for an armature without timelines (no
 * offset from NULL: undefined behaviour, which fuzz_runtime's regress_empty_action seed reaches). */
static const sinew_model_timeline *state_timelines(const sinew_model_armature *d,
                                                   const sinew_model_animation *anim) {
    return d->timelines ? d->timelines + anim->first_timeline : NULL;
}

/* 6.0 (upstream 5.7 / 6.0.2 deform blending, deform6.c): per slot, the state's first timeline of it
 * (top 16 bits; 0xffff none) and the display frames its pose deform timelines drive (low 16 bits:
 * the frames that have a deform array when the state begins, but for those whose mesh a deform timeline
 * of the state animates); the frames the state's deform timelines bind get their deform arrays first
 * (the official updateDeformVertices). In sinew__state_pose_deform's per-slot word. */
static void build_deforms6(arm_inst *arm, anim_state *st) {
    uint32_t *per = sinew__state_pose_deform(arm, st);
    const sinew_model_timeline *base = state_timelines(arm->data, st->anim);
    uint32_t s0 = st->bone_tl_count, s1 = s0 + st->slot_tl_count;
    for (uint32_t s = 0; s < arm->slot_count; ++s)
        per[s] = 0xffff0000u;
    for (uint32_t k = s0; k < s1; ++k) {
        const sinew_model_timeline *T = base + st->tls[k].tl;
        if ((per[T->target] >> 16) == 0xffffu)
            per[T->target] = (uint32_t)k << 16;
        int32_t fi = is_deform_kind(T->run_kind) ? sinew__deform6_frame(arm, T) : -1;
        if (fi >= 0)
            arm->frame_deform_on[arm->list_first[T->target] + (uint32_t)fi] = 1;
    }
    for (uint32_t s = 0; st->reset_to_pose && s < arm->slot_count; ++s) {
        uint32_t mask = 0, g = per[s] >> 16;
        for (uint32_t i = 0; i < arm->list_count[s] && i < SINEW_POSE_FRAMES; ++i) {
            uint32_t disp = arm->list_first[s] + i, geo = sinew__deform6_geometry(arm->data, disp);
            bool animated = false;
            for (uint32_t k = g; g != 0xffffu && k < s1 && base[st->tls[k].tl].target == s && !animated; ++k)
                animated = base[st->tls[k].tl].type == SINEW_TL_FFD && base[st->tls[k].tl].mesh == geo;
            if (arm->frame_deform_on[disp] && geo != SINEW_INVALID_INDEX && !animated)
                mask |= 1u << i;
        }
        /* the official pose shape timelines compare the shape's unset offset (0) with the geometry
         * offsets the state's shape timelines of the slot bound: none when one of them deforms the
         * file's first geometry */
        for (uint32_t k = g; g != 0xffffu && k < s1 && base[st->tls[k].tl].target == s; ++k)
            if (base[st->tls[k].tl].type == SINEW_TL_SHAPE && base[st->tls[k].tl].mesh == arm->data->run_shape_geom0 &&
                sinew__deform6_frame(arm, base + st->tls[k].tl) >= 0)
                mask |= SINEW_POSE_NO_SHAPES;
        per[s] |= mask;
    }
}

static void build_timelines(arm_inst *arm, anim_state *st) {
    const sinew_model_armature *d = arm->data;
    const sinew_model_animation *anim = st->anim;
    st->bone_tl_count = st->slot_tl_count = st->ik_tl_count = st->surface_tl_count = 0;
    uint32_t nb = arm->bone_count, ns = arm->slot_count, nk = d->ik_count;
    const uint8_t *cov = st->covered;
    uint32_t t0 = anim->first_timeline, tn = anim->timeline_count;
    /* bones, in update order, each bone's timelines together */
    for (uint32_t i = 0; i < nb; ++i) {
        uint32_t b = d->bone_order ? d->bone_order[i] : i;
        if (!(cov[b] & COV_BONE))
            continue;
        for (uint32_t t = t0; t < t0 + tn; ++t) {
            const sinew_model_timeline *T = &d->timelines[t];
            if (T->type <= SINEW_TL_BONE_SCALE && T->target == b && T->key_count > 0)
                push_tl(arm, st, T);
        }
    }
    /* slots, in draw order */
    for (uint32_t i = 0; i < ns; ++i) {
        uint32_t s = arm->draw_order[i];
        if (!(cov[nb + s] & (COV_DISPLAY | COV_COLOR))) {
            bool any = false;
            for (uint32_t t = t0; t < t0 + tn && !any; ++t)
                any = (is_deform_kind(d->timelines[t].run_kind) || d->timelines[t].run_kind == TLK_SLOT_ZINDEX) &&
                      d->timelines[t].target == s;
            if (!any)
                continue;
        }
        for (uint32_t t = t0; t < t0 + tn; ++t) {
            const sinew_model_timeline *T = &d->timelines[t];
            if (T->target != s || T->key_count == 0)
                continue;
            if (T->type == SINEW_TL_SLOT_DISPLAY || T->type == SINEW_TL_SLOT_COLOR ||
                (T->run_kind == TLK_DEFORM && T->mesh < d->mesh_count) || T->run_kind == TLK_PATH_DEFORM ||
                T->run_kind == TLK_SLOT_ZINDEX)
                push_tl(arm, st, T);
        }
    }
    for (uint32_t k = 0; k < nk; ++k)
        for (uint32_t t = t0; t < t0 + tn; ++t) {
            const sinew_model_timeline *T = &d->timelines[t];
            if (T->type == SINEW_TL_IK && T->target == k && T->key_count > 0)
                push_tl(arm, st, T);
        }
    for (uint32_t k = 0; d->v6 && k < d->path_constraint_count; ++k) /* 6.0 path constraint timelines */
        for (uint32_t t = t0; t < t0 + tn; ++t) {
            const sinew_model_timeline *T = &d->timelines[t];
            if (T->run_kind == TLK_PATH && T->target == k && T->key_count > 0)
                push_tl(arm, st, T);
        }
    for (uint32_t i = 0; d->surface_count && i < nb; ++i) {
        uint32_t b = d->bone_order ? d->bone_order[i] : i;
        if (!(cov[b] & COV_SURFACE))
            continue;
        for (uint32_t t = t0; t < t0 + tn; ++t) {
            const sinew_model_timeline *T = &d->timelines[t];
            if (T->type == SINEW_TL_SURFACE && T->target == b && T->key_count > 0)
                push_tl(arm, st, T);
        }
    }
    /* the direct bone path: 2-channel timelines only, no channel of a bone written twice */
    const sinew_model_timeline *base = state_timelines(d, st->anim);
    st->bones_follow = true;
    for (uint32_t i = 0; i < st->bone_tl_count; ++i)
        st->bones_follow &= base[st->tls[i].tl].run_follow != 0;
    st->bones_direct = true;
    for (uint32_t i = 0; i < st->bone_tl_count && st->bones_direct; ++i) {
        const sinew_model_timeline *T = base + st->tls[i].tl;
        if (T->run_chan == 0xff)
            st->bones_direct = false;
        for (uint32_t j = i + 1; j < st->bone_tl_count && base[st->tls[j].tl].target == T->target; ++j)
            if (base[st->tls[j].tl].run_chan == T->run_chan)
                st->bones_direct = false;
    }
    st->bone_clock.time = -1.0;
    st->bone_clock.play_times = initial_play_times(arm);
    st->bone_clock.play_state = -1;
    st->pose_active = st->reset_to_pose;
    if (arm_v6(arm))
        build_deforms6(arm, st);
    else
        memcpy(sinew__state_pose_deform(arm, st), arm->deform_len, ns * sizeof(uint32_t));
    for (uint8_t k = 0; k <= TLK_IK; ++k)
        tl_start(arm, &st->pose_tl[k], TL_NONE);
    tl_start(arm, &st->pose_surface_tl, TL_NONE);
}

/* True if the state has a deform timeline for (slot, mesh). */
static bool deform_covered(const tl_ctx *c, uint32_t slot, uint32_t mesh) {
    const anim_state *st = c->st;
    uint32_t end = (uint32_t)st->bone_tl_count + st->slot_tl_count;
    for (uint32_t i = st->bone_tl_count; i < end; ++i) {
        const sinew_model_timeline *T = tl_T(c, &st->tls[i]);
        /* 6.0: a shape timeline does not count (the official builds a deform pose timeline for every
           display with geometry whose offset no mesh deform timeline names: shapes and paths too) */
        if (T->run_kind == TLK_DEFORM && T->target == slot && T->mesh == mesh && T->type != SINEW_TL_SHAPE)
            return true;
    }
    return false;
}

/* Whether the deform pose timeline drives slot s: a mesh or shape it shows that the state does not
 * deform, or (6.0) a path display it shows; *kind is the deform kind. */
static bool pose_deform_target(const tl_ctx *c, uint32_t s, uint8_t *kind) {
    const arm_inst *arm = c->arm;
    uint32_t m = arm->cur_mesh[s];
    if (m != SINEW_INVALID_INDEX) {
        *kind = TLK_DEFORM;
        return !deform_covered(c, s, m);
    }
    uint32_t disp = arm->cur_display[s];
    *kind = TLK_PATH_DEFORM;
    return arm->data->v6 && disp < arm->data->display_count && arm->data->displays[disp].type == SINEW_DISPLAY_PATH &&
           sinew__deform_cap(arm, s) > 0;
}

/* The pose timelines of a state that resets to the pose: while it fades in, the bones, slots and
 * IK constraints it does not animate are driven back to their setup values. They share one
 * timeline record per kind (their timing is the same). */
/* 6.0: whether the pose bone timelines (sharing pose_tl[TLK_BONE]) arrive at their key now. */
static bool pose_bones_arrive6(const tl_ctx *c) {
    tl_state *t = &c->st->pose_tl[TLK_BONE];
    return t->play_state <= 0 && set_current_time(c, t, NULL, c->st->time) && tl_seek(c, t, NULL);
}

static void pose_bones(const tl_ctx *c) {
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    const sinew_model_armature *d = arm->data;
    static const double identity[6] = {0, 0, 0, 0, 1, 1};
    /* the pose timelines arrive at their one key on their first update (marking their bones
     * dirty whatever the blend gives), and blend only while the state fades in (dirty again) */
    bool first = !st->pose_bones_started;
    st->pose_bones_started = true;
    /* upstream (6.0): marked when blended on arriving at their key (the first update, and again when
     * the state's playhead starts) or when the state's blend is dirty */
    const bool v6 = arm_v6(arm), mark = !v6 || pose_bones_arrive6(c) || state_blend_dirty(st);
    for (uint32_t i = 0; i < arm->bone_count; ++i) {
        uint32_t b = d->bone_order ? d->bone_order[i] : i;
        if ((st->covered[b] & COV_BONE) || d->bones[b].is_surface)
            continue;
        if (first && !v6)
            arm->bone_dirty[b] = 1;
        arm->blend_touched = true;
        int bs = blend_update(&arm->blend[b], st->weight_result, st->layer);
        if (bs != 0) {
            if (mark)
                arm->bone_dirty[b] = 1;
            bone_blend(arm, b, bs, identity);
        }
    }
}

static void pose_tween_step(const tl_ctx *c, tl_state *t, double time) {
    if (set_current_time(c, t, NULL, time)) {
        if (tl_seek(c, t, NULL))
            tween_arrive(c, t, NULL);
        if (tl_tween(t) != 0)
            tween_update_frame(c, t, NULL, t->current_time);
    }
}

static void pose_slots(const tl_ctx *c, double time) {
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    uint32_t nb = arm->bone_count;
    tl_state *t = &st->pose_tl[TLK_SLOT_DISPLAY];
    if (t->play_state <= 0 && set_current_time(c, t, NULL, time) && tl_seek(c, t, NULL))
        for (uint32_t i = 0; i < arm->slot_count; ++i) {
            uint32_t s = arm->draw_order[i];
            if (!(st->covered[nb + s] & COV_DISPLAY))
                display_arrive(c, t, NULL, s);
        }
    t = &st->pose_tl[TLK_SLOT_COLOR];
    if (t->play_state <= 0) {
        pose_tween_step(c, t, time);
        uint32_t last = SINEW_INVALID_INDEX;
        for (uint32_t s = 0; s < arm->slot_count; ++s)
            if (!(st->covered[nb + s] & COV_COLOR))
                last = s;
        for (uint32_t s = 0; s < arm->slot_count; ++s)
            if (!(st->covered[nb + s] & COV_COLOR))
                slot_tl_apply(c, t, NULL, TLK_SLOT_COLOR, s, SINEW_INVALID_INDEX, s == last);
    }
    t = &st->pose_tl[TLK_DEFORM];
    if (t->play_state <= 0 && !arm_v6(arm)) { /* 6.0: deforms_advance6 */
        uint32_t last = SINEW_INVALID_INDEX;
        uint8_t kind;
        for (uint32_t s = 0; s < arm->slot_count; ++s)
            if (pose_deform_target(c, s, &kind))
                last = s;
        if (last == SINEW_INVALID_INDEX)
            return;
        pose_tween_step(c, t, time);
        for (uint32_t s = 0; s <= last; ++s)
            if (pose_deform_target(c, s, &kind))
                slot_tl_apply(c, t, NULL, kind, s, arm->cur_mesh[s], s == last);
    }
}

/* ---- surfaces ------------------------------------------------------------------------------ */

/* One surface timeline's turn (the official SurfaceTimelineState in AnimationState.advanceTime):
 * the surface's blend state first, then the timeline's update (a frame update marks the surface
 * dirty), then its offsets blended into the surface's. t->T NULL: a pose timeline (all zero). */
static bool surface_tl_step(const tl_ctx *c, tl_state *t, uint32_t b, bool update, double time) {
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    arm->blend_touched = true;
    int bs = blend_update(&arm->blend[b], st->weight_result, st->layer);
    bool frame = false;
    const sinew_model_timeline *T = tl_T(c, t);
    if (update && t->play_state <= 0 && set_current_time(c, t, T, time)) {
        if (tl_seek(c, t, T))
            tween_arrive(c, t, T);
        if (tl_tween(t) != 0) {
            tween_update_frame(c, t, T, t->current_time);
            arm->bone_dirty[b] = 1;
            frame = true;
        }
    }
    if (bs == 0 || !arm->surfaces)
        return frame;
    surface_rt *sf = &arm->surfaces[arm->data->run_surface[b]];
    const float *v0 = NULL, *v1 = NULL;
    if (T && t->frame_index >= 0 && T->values_per_key >= sf->n) {
        v0 = key_values(T, (uint32_t)t->frame_index);
        if (t->bits & TLB_DELTA)
            v1 = key_values(T, next_key(t, T));
    }
    double p = t->progress, w = arm->blend[b].blend_weight;
    for (uint32_t i = 0; i < sf->n; ++i) {
        double v = v0 ? (v1 ? v0[i] + ((double)v1[i] - v0[i]) * p : (double)v0[i]) : 0.0;
        if (bs == 2)
            sf->deform[i] += v * w;
        else if (w != 1.0)
            sf->deform[i] = v * w;
        else
            sf->deform[i] = v;
    }
    if (st->fade_state != 0 || st->sub_fade_state != 0)
        arm->bone_dirty[b] = 1;
    return frame;
}

/* The state's surface timelines, then (while it fades in with reset to pose) the pose timelines of
 * the surfaces it does not animate. */
static SW_INLINE void surfaces_advance(const tl_ctx *c, double time) {
    anim_state *st = c->st;
    uint32_t s0 = (uint32_t)st->bone_tl_count + st->slot_tl_count + st->ik_tl_count;
    for (uint32_t i = s0; i < s0 + st->surface_tl_count; ++i)
        surface_tl_step(c, &st->tls[i], tl_T(c, &st->tls[i])->target, true, time);
    if (!st->pose_active || !c->arm->data->surface_count)
        return;
    /* the pose timelines share one record: it is updated with the first surface */
    const sinew_model_armature *d = c->arm->data;
    bool first = true, frame = false;
    for (uint32_t i = 0; i < c->arm->bone_count; ++i) {
        uint32_t b = d->bone_order ? d->bone_order[i] : i;
        if (!d->bones[b].is_surface || (st->covered[b] & COV_SURFACE))
            continue;
        if (first) {
            frame = surface_tl_step(c, &st->pose_surface_tl, b, true, time);
            first = false;
        } else {
            surface_tl_step(c, &st->pose_surface_tl, b, false, time);
            if (frame)
                c->arm->bone_dirty[b] = 1;
        }
    }
}

static void pose_iks(const tl_ctx *c, double time) {
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    tl_state *t = &st->pose_tl[TLK_IK];
    uint32_t base = arm->bone_count + arm->slot_count;
    if (t->play_state > 0 || !set_current_time(c, t, NULL, time))
        return;
    bool arrived = tl_seek(c, t, NULL);
    if (arrived) {
        tween_arrive(c, t, NULL);
        t->progress = 0.0f;
    }
    if (arrived || tl_tween(t) != 0) {
        if (tl_tween(t) != 0)
            tween_update_frame(c, t, NULL, t->current_time);
        for (uint32_t k = 0; k < arm->data->ik_count; ++k)
            if (!(st->covered[base + k] & COV_IK))
                ik_apply(c, t, NULL, k, arrived);
    }
}

/* ---- states ---------------------------------------------------------------------------------- */

static void advance_fade_time(sinew_instance *inst, uint32_t ai, anim_state *st, double passed) {
    bool out = st->fade_state > 0;
    if (st->sub_fade_state < 0) {
        st->sub_fade_state = 0;
        sinew__emit(inst, ai, out ? SINEW_EVENT_FADE_OUT : SINEW_EVENT_FADE_IN, st, NULL, 0.0);
    }
    if (passed < 0.0)
        passed = -passed;
    st->fade_time += passed;
    if (st->fade_time >= st->fade_total_time) {
        st->sub_fade_state = 1;
        st->fade_progress = out ? 0.0 : 1.0;
    } else if (st->fade_time > 0.0) {
        st->fade_progress = out ? 1.0 - st->fade_time / st->fade_total_time
                                : st->fade_time / st->fade_total_time;
    } else {
        st->fade_progress = out ? 1.0 : 0.0;
    }
    if (st->sub_fade_state > 0) {
        if (!out) {
            st->playhead_state |= 1;
            st->fade_state = 0;
        }
        sinew__emit(inst, ai, out ? SINEW_EVENT_FADE_OUT_COMPLETE : SINEW_EVENT_FADE_IN_COMPLETE, st,
                    NULL, 0.0);
    }
}

static void state_fade_out(const arm_inst *arm, anim_state *st, double t, bool pause) {
    if (t < 0.0)
        t = 0.0;
    if (pause)
        st->playhead_state &= 2;
    if (st->fade_state > 0) {
        if (t > st->fade_total_time - st->fade_time)
            return;
    } else {
        st->fade_state = 1;
        st->sub_fade_state = -1;
        if (t <= 0.0 || st->fade_progress <= 0.0)
            st->fade_progress = 0.000001;
        const sinew_model_timeline *base = state_timelines(arm->data, st->anim);
        uint32_t total = (uint32_t)st->bone_tl_count + st->slot_tl_count + st->ik_tl_count;
        const bool v6 = arm_v6(arm);
        for (uint32_t i = v6 ? 0u : st->bone_tl_count; i < total; ++i) {
            tl_state *tl = &st->tls[i];
            uint8_t kind = base[tl->tl].run_kind;
            if (v6 && (i < st->bone_tl_count || is_deform_kind(kind))) /* upstream fadeOut: dirty = false */
                tl->bits &= (uint8_t)~TLB_BLEND_DIRTY;
            else if (kind == TLK_SLOT_COLOR || kind == TLK_DEFORM)
                tl->bits &= (uint8_t)~(TLB_TWEEN | TLB_DIRTY);
        }
        for (int k = TLK_SLOT_COLOR; k <= TLK_DEFORM; ++k)
            st->pose_tl[k].bits &= (uint8_t)~(TLB_TWEEN | TLB_DIRTY);
    }
    st->display_control = false;
    st->fade_total_time = st->fade_progress > 0.000001 ? t / st->fade_progress : 0.0;
    st->fade_time = st->fade_total_time * (1.0 - st->fade_progress);
}

/* 6.0: the blend state of a name key in a slot blend namespace (SLOT_BLEND_*). */
static inline blend_state *deform_blend6(arm_inst *arm, uint32_t ns, uint32_t key) {
    arm->deform_blend_touched = true;
    return &arm->deform_blend[ns * (size_t)arm->data->run_blend_keys + key];
}

/* 6.0: values were blended into display frame `disp` of slot s; when it is the frame the slot shows,
 * its vertices are redone if the blend was dirty (the official slot._verticesDirty). */
static void deform_written6(arm_inst *arm, uint32_t s, uint32_t disp, bool dirty) {
    if (disp != arm->frame_shown[s])
        return;
    arm->deform_nz[s] = 1;
    if (!dirty)
        return;
    arm->deform_dirty[s] = 1;
    if (arm->data->displays[disp].type == SINEW_DISPLAY_PATH)
        path_deformed6(arm, s);
}

/* Moves a blended timeline to `time`: its keys when it crossed one, its tween, and marks the blend
 * dirty when either changed. */
static void advance_blended(const tl_ctx *c, tl_state *t, const sinew_model_timeline *T, double time) {
    if (set_current_time(c, t, T, time)) {
        bool changed = tl_seek(c, t, T);
        if (changed)
            tween_arrive(c, t, T);
        if (tl_tween(t) != 0) {
            tween_update_frame(c, t, T, t->current_time);
            changed = true;
        }
        if (changed)
            t->bits |= TLB_BLEND_DIRTY;
    }
}

/* 6.0: one deform timeline (the official DeformTimelineState, or its Shape and Path twins), a slot
 * blend timeline: while its play state is at most 0 it updates and blends into the display frame
 * it is bound to, by the frame display's name: the first blender sets (v * w), later ones add. */
static void deform_tl6(const tl_ctx *c, tl_state *t, double time) {
    const sinew_model_timeline *T = tl_T(c, t);
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    int32_t fi = t->play_state <= 0 && is_deform_kind(T->run_kind) ? sinew__deform6_frame(arm, T) : -1;
    if (fi < 0)
        return;
    uint32_t s = T->target, disp = arm->list_first[s] + (uint32_t)fi;
    advance_blended(c, t, T, time);
    uint32_t ns = T->type == SINEW_TL_SHAPE ? SLOT_BLEND_SHAPE : T->type == SINEW_TL_PATH_DEFORM ? SLOT_BLEND_PATH
                                                                                                 : SLOT_BLEND_DEFORM;
    blend_state *b = deform_blend6(arm, ns, arm->data->run_blend_key[disp]);
    int bs = blend_update(b, st->weight_result, st->layer);
    if (bs == 0)
        return;
    uint32_t n;
    float *dv = sinew__deform6_values(arm, s, disp, &n);
    if (n > T->values_per_key) /* the values it has (none for a generic deform of a weighted mesh) */
        n = T->values_per_key;
    const float *v0 = NULL, *v1 = NULL;
    if (t->frame_index >= 0) {
        v0 = key_values(T, (uint32_t)t->frame_index);
        if (t->bits & TLB_DELTA)
            v1 = key_values(T, next_key(t, T));
    }
    double p = t->progress, w = b->blend_weight;
    for (uint32_t i = 0; i < n; ++i) {
        double r = v0 ? v0[i] + (v1 ? ((double)v1[i] - v0[i]) * p : 0.0) : 0.0;
        dv[i] = (float)(bs == 2 ? dv[i] + r * w : r * w);
    }
    bool dirty = state_blend_dirty(st) || (t->bits & TLB_BLEND_DIRTY);
    t->bits &= (uint8_t)~TLB_BLEND_DIRTY;
    deform_written6(arm, s, disp, dirty);
}

/* 6.0: a zIndex timeline (the official SlotZIndexTimelineState), a slot blend timeline: while its
 * play state is at most 0 it updates and blends its value into the slot's zIndex by the slot's name;
 * when dirty the draw order is sorted again. */
static void zindex_tl6(const tl_ctx *c, tl_state *t, double time) {
    const sinew_model_timeline *T = tl_T(c, t);
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    if (t->play_state > 0)
        return;
    advance_blended(c, t, T, time);
    const sinew_model_armature *d = arm->data;
    blend_state *b = deform_blend6(arm, SLOT_BLEND_ZINDEX, d->run_blend_key[d->display_count + T->target]);
    int bs = blend_update(b, st->weight_result, st->layer);
    if (bs == 0)
        return;
    double v = 0.0;
    if (t->frame_index >= 0) {
        double v0 = key_values(T, (uint32_t)t->frame_index)[0];
        v = (t->bits & TLB_DELTA) ? v0 + (key_values(T, next_key(t, T))[0] - v0) * (double)t->progress : v0;
    }
    double *z = &arm->z_index[T->target];
    *z = bs == 2 ? *z + v * b->blend_weight : v * b->blend_weight;
    if (state_blend_dirty(st) || (t->bits & TLB_BLEND_DIRTY))
        arm->zindex_dirty = true;
    t->bits &= (uint8_t)~TLB_BLEND_DIRTY;
}

/* 6.0: the pose deform timelines of slot s (frames in `mask`): the first blender under the slot's
 * name sets the frame's deform to 0 (a shape's also under the shape namespace); `first`: their
 * arrival (dirty). */
static void pose_deforms6(const tl_ctx *c, uint32_t s, uint32_t mask, bool first) {
    arm_inst *arm = c->arm;
    const sinew_model_armature *d = arm->data;
    uint32_t key = d->run_blend_key[d->display_count + s];
    bool dirty = first || state_blend_dirty(c->st);
    for (uint32_t i = 0; i < SINEW_POSE_FRAMES && (mask & ((1u << SINEW_POSE_FRAMES) - 1)) >> i; ++i) {
        uint32_t disp = arm->list_first[s] + i;
        if (!((mask >> i) & 1u) || disp >= d->display_count)
            continue;
        for (uint32_t ns = SLOT_BLEND_DEFORM; ns <= SLOT_BLEND_SHAPE; ++ns) {
            if (ns == SLOT_BLEND_SHAPE && (d->displays[disp].type != SINEW_DISPLAY_SHAPE || (mask & SINEW_POSE_NO_SHAPES)))
                break;
            int bs = blend_update(deform_blend6(arm, ns, key), c->st->weight_result, c->st->layer);
            if (bs == 1) {
                uint32_t n;
                float *dv = sinew__deform6_values(arm, s, disp, &n);
                memset(dv, 0, n * sizeof(float));
            }
            if (bs != 0)
                deform_written6(arm, s, disp, dirty);
        }
    }
}

/* 6.0: the state's deform timelines and, while it resets to the pose, its pose deform timelines,
 * slot by slot in draw order (each slot's own after its animated ones), as upstream's slot blend
 * timelines run. */
static void deforms_advance6(const tl_ctx *c, double time) {
    arm_inst *arm = c->arm;
    anim_state *st = c->st;
    const uint32_t *per = sinew__state_pose_deform(arm, st);
    tl_state *pose = &st->pose_tl[TLK_DEFORM];
    bool pose_live = st->pose_active && pose->play_state <= 0, first = false;
    if (pose_live && set_current_time(c, pose, NULL, time))
        first = tl_seek(c, pose, NULL);
    const uint32_t s1 = (uint32_t)st->bone_tl_count + st->slot_tl_count;
    for (uint32_t i = 0; i < arm->slot_count; ++i) {
        uint32_t s = arm->draw_order[i], g = per[s] >> 16;
        for (uint32_t k = g; g != 0xffffu && k < s1 && tl_T(c, &st->tls[k])->target == s; ++k) {
            uint8_t kind = tl_T(c, &st->tls[k])->run_kind;
            if (is_deform_kind(kind))
                deform_tl6(c, &st->tls[k], time);
            else if (kind == TLK_SLOT_ZINDEX)
                zindex_tl6(c, &st->tls[k], time);
        }
        if (pose_live && (per[s] & 0xffffu))
            pose_deforms6(c, s, per[s] & 0xffffu, first);
    }
}

/* When a blended bone is recomputed (its _transformDirty). The 5.x reference marks a bone whose
 * timeline changed value at once, and every bone a fading state blends. Upstream (a 6.0 file) a
 * timeline that changed keeps the change (TLB_BLEND_DIRTY, on the bone's first timeline) until it is
 * blended, and a bone is marked when blended by a state whose blend is dirty (fading, or steady:
 * every update but the one in which its fade-in completes) or by a changed timeline. */
static inline void bone_tls_changed(arm_inst *arm, anim_state *st, uint32_t first, uint32_t bone, bool v6) {
    if (v6)
        st->tls[first].bits |= TLB_BLEND_DIRTY;
    else
        arm->bone_dirty[bone] = 1;
}

/* Upstream: whether the bone whose timelines are tls[first, end) and that this state blends now is
 * marked dirty; the timelines' changes are taken. */
static bool bone_blend_dirty(anim_state *st, uint32_t first, uint32_t end) {
    bool changed = false;
    for (uint32_t k = first; k < end; ++k) {
        changed |= (st->tls[k].bits & TLB_BLEND_DIRTY) != 0;
        st->tls[k].bits &= (uint8_t)~TLB_BLEND_DIRTY;
    }
    return state_blend_dirty(st) || changed;
}

/* Upstream: a lone steady state blends every bone it animates, each update, dirty. */
static void state_bones_dirty(const tl_ctx *c) {
    const anim_state *st = c->st;
    for (uint32_t i = 0; i < st->bone_tl_count; ++i)
        c->arm->bone_dirty[c->tls_base[st->tls[i].tl].target] = 1;
}

/* A new weight for a state (the official AnimationState.weight setter). Upstream it marks the
 * state's bone timelines changed (dirty when next blended). */
void sinew__state_set_weight(arm_inst *arm, anim_state *st, double weight) {
    if (st->weight == weight)
        return;
    st->weight = weight;
    if (!arm_v6(arm) || st->timeline_dirty)
        return;
    const sinew_model_timeline *base = state_timelines(arm->data, st->anim);
    for (uint32_t i = 0; i < (uint32_t)st->bone_tl_count + st->slot_tl_count; ++i)
        if (i < st->bone_tl_count || is_deform_kind(base[st->tls[i].tl].run_kind) ||
            base[st->tls[i].tl].run_kind == TLK_SLOT_ZINDEX)
            st->tls[i].bits |= TLB_BLEND_DIRTY;
}

/* One state's update; made twice by the compiler (state_advance): for 5.x armatures (v6 false)
 * and for 6.0 ones. */
static SW_INLINE void state_advance_v(sinew_instance *inst, uint32_t ai, anim_state *st, double passed,
                                      const sinew_cache_animation *cache, const bool v6) {
    arm_inst *arm = &inst->arms[ai];
    if (st->fade_state != 0 || st->sub_fade_state != 0)
        advance_fade_time(inst, ai, st, passed);
    if (st->playhead_state == 3) {
        if (st->time_scale != 1.0)
            passed *= st->time_scale;
        st->time += passed;
    }
    if (st->timeline_dirty) {
        build_timelines(arm, st);
        st->timeline_dirty = 0;
    }
    /* a state of weight 0 applies nothing; in the 5.x reference it fires no frame or playhead
     * event either, upstream its action timeline still runs (events, play count, completion) */
    if (st->weight == 0.0 && !v6)
        return;
    tl_ctx c = {inst, ai, arm, st, st->anim, state_timelines(arm->data, st->anim),
                (double)arm->data->frame_rate, anim_seconds(arm, st->anim), 0};
    double time = st->time;
    st->weight_result = st->weight * st->fade_progress;
    if (st->action_tl.play_state <= 0)
        action_tl_update(&c, time);
    if (st->weight == 0.0)
        return;
    /* The frame cache (the official AnimationState.advanceTime with a cacheFrameRate): a lone
     * state, faded in, plays at multiples of half a cache frame; on the cache frame the armature
     * is already on, no timeline runs; on one computed before, the bone timelines do not run and
     * the bones come from the cache. */
    bool update_timelines = true, update_bone_timelines = true;
    if (cache && st->fade_state == 0) {
        double interval = (double)cache->rate * 2.0;
        st->action_tl.current_time = floor(st->action_tl.current_time * interval) / interval;
        double fi = floor(st->action_tl.current_time * (double)cache->rate);
        int32_t idx = fi > 0.0 ? (fi < (double)(cache->frames - 1) ? (int32_t)fi : (int32_t)cache->frames - 1) : 0;
        if (arm->cache_frame_index == idx) {
            update_timelines = update_bone_timelines = false;
        } else {
            arm->cache_frame_index = idx;
            arm->cache_anim = cache;
            arm->cache_values = cache->values + (size_t)idx * arm->bone_count * SINEW_CACHE_BONE_VALUES;
            if (cache->filled[idx]) {
                update_bone_timelines = false;
                arm->cache_mode = CACHE_READ;
            } else {
                cache->filled[idx] = 1;
                arm->cache_mode = CACHE_WRITE;
            }
        }
    }
    {
        double f = floor(st->action_tl.current_time * c.frame_rate);
        c.follow_frame = f > 0.0 ? (f < (double)c.anim->frame_count ? (uint32_t)f : c.anim->frame_count) : 0;
    }
    /* after follow_frame: a zOrder timeline that follows the action timeline reads its key there */
    if (st->has_zorder && st->zorder_tl.play_state <= 0)
        zorder_tl_update(&c, time);
    /* bone timelines, blended per bone. A lone state at a steady weight (no fade, no pose
     * timelines) whose timelines of a bone did not change leaves that bone's pose as it is. */
    uint32_t nb = update_bone_timelines ? st->bone_tl_count : 0;
    bool fading_out = st->fade_state > 0;
    bool fading = st->fade_state != 0 || st->sub_fade_state != 0;
    bool steady = arm->state_count == 1 && st->bones_applied && !st->pose_active && !fading &&
                  st->weight_result == st->applied_weight;
    follow_step fs = {false, false, 0.0};
    if (nb > 0)
        fs = bone_clock_step(st);
    if (steady && st->bones_direct && st->weight_result == 1.0 && nb > 0) {
        /* each changed timeline writes its own two channels into the pose */
        bones_direct_advance(&c, time, &fs);
        if (v6)
            state_bones_dirty(&c);
        nb = 0;
    }
    const sinew_model_timeline *base = c.tls_base;
    for (uint32_t i = 0; i < nb;) {
        uint32_t bone = base[st->tls[i].tl].target;
        uint32_t j = i;
        bool changed = false;
        while (j < nb && base[st->tls[j].tl].target == bone) {
            if (st->tls[j].play_state <= 0)
                changed |= bone_tl_update(&c, &st->tls[j], base + st->tls[j].tl, time, &fs);
            j++;
        }
        /* The official bone update recomputes a bone only when it is dirty: a timeline of it
         * updated its frame (arrived at a key or tweening), or a fading state blended it. A
         * pose changed by weights alone (another state's weight, a paused state) waits. A 6.0
         * file marks it when it is blended (bone_blend_dirty). */
        if (changed)
            bone_tls_changed(arm, st, i, bone, v6);
        if (steady && !changed) {
            if (v6) /* a lone steady state blends every bone it animates: dirty (bone_blend_dirty) */
                arm->bone_dirty[bone] = 1;
            i = j;
            continue;
        }
        arm->blend_touched = true;
        int bs = blend_update(&arm->blend[bone], st->weight_result, st->layer);
        if (bs != 0) {
            if (v6 ? bone_blend_dirty(st, i, j) : fading)
                arm->bone_dirty[bone] = 1;
            double r[6] = {0, 0, 0, 0, 1, 1};
            for (uint32_t k = i; k < j; ++k)
                bone_tl_result(&st->tls[k], base + st->tls[k].tl, r);
            if (fading_out) {
                r[2] = sinew__normalize_radian(r[2]);
                r[3] = sinew__normalize_radian(r[3]);
            }
            bone_blend(arm, bone, bs, r);
        }
        i = j;
    }
    st->bones_applied = arm->state_count == 1;
    st->applied_weight = st->weight_result;
    nb = st->bone_tl_count;
    if (st->pose_active && update_bone_timelines)
        pose_bones(&c);
    if (!update_timelines)
        goto timelines_done;
    if (st->display_control) {
        uint32_t end = nb + st->slot_tl_count;
        for (uint32_t i = nb; i < end; ++i) {
            tl_state *t = &st->tls[i];
            uint8_t kind = c.tls_base[t->tl].run_kind;
            if (t->play_state <= 0 && !(v6 && (is_deform_kind(kind) || kind == TLK_SLOT_ZINDEX)))
                slot_tl_update(&c, t, time);
        }
        if (st->pose_active)
            pose_slots(&c, time);
    }
    if (v6) /* upstream blends deforms whether or not the state controls the displays */
        deforms_advance6(&c, time);
    surfaces_advance(&c, time);
    uint32_t ik0 = nb + st->slot_tl_count, ik1 = ik0 + st->ik_tl_count;
    for (uint32_t i = ik0; i < ik1; ++i)
        if (st->tls[i].play_state <= 0)
            ik_tl_update(&c, &st->tls[i], time);
    if (st->pose_active)
        pose_iks(&c, time);
timelines_done:
    if (st->fade_state == 0) {
        if (st->sub_fade_state > 0) {
            st->sub_fade_state = 0;
            st->pose_active = false;
        }
        if (st->action_tl.play_state > 0 && st->auto_fade_out_time >= 0.0)
            state_fade_out(arm, st, st->auto_fade_out_time, true);
    }
}

static void state_advance(sinew_instance *inst, uint32_t ai, anim_state *st, double passed,
                          const sinew_cache_animation *cache) {
    if (arm_v6(&inst->arms[ai]))
        state_advance_v(inst, ai, st, passed, cache, true);
    else
        state_advance_v(inst, ai, st, passed, cache, false);
}

static void remove_state(sinew_instance *inst, arm_inst *arm, uint32_t i) {
    sinew__state_buffered(inst, arm->states[i].serial);
    /* keep the timeline storage attached to its slot in the array: swap storage pointers */
    tl_state *keep = arm->states[i].tls;
    for (uint32_t k = i; k + 1 < arm->state_count; ++k)
        arm->states[k] = arm->states[k + 1];
    arm->state_count--;
    arm->states[arm->state_count].tls = keep;
    if (arm->last_state == (int32_t)i)
        arm->last_state = -1;
    else if (arm->last_state > (int32_t)i)
        arm->last_state--;
}

static void animation_advance(sinew_instance *inst, uint32_t ai, double passed) {
    arm_inst *arm = &inst->arms[ai];
    if (arm->deform_blend_touched) { /* 6.0: the deform blend states start over each update */
        memset(arm->deform_blend, 0, SLOT_BLEND_SPACES * (size_t)arm->data->run_blend_keys * sizeof(blend_state));
        arm->deform_blend_touched = false;
    }
    if (passed < 0.0)
        passed = -passed;
    if (arm->parent_arm != SINEW_INVALID_INDEX)
        arm->inherit_time_scale = inst->arms[arm->parent_arm].inherit_time_scale * arm->time_scale;
    else
        arm->inherit_time_scale = arm->time_scale;
    if (arm->inherit_time_scale != 1.0)
        passed *= arm->inherit_time_scale;
    uint32_t n = arm->state_count;
    if (n == 1) {
        anim_state *st = &arm->states[0];
        if (st->fade_state > 0 && st->sub_fade_state > 0) {
            remove_state(inst, arm, 0);
            arm->last_state = -1;
        } else {
            state_advance(inst, ai, st, passed, arm->cache ? &arm->cache->animations[st->anim_index] : NULL);
        }
    } else if (n > 1) {
        bool removed = false;
        for (uint32_t i = 0; i < arm->state_count;) {
            anim_state *st = &arm->states[i];
            if (st->fade_state > 0 && st->sub_fade_state > 0) {
                remove_state(inst, arm, i);
                removed = true;
                continue;
            }
            state_advance(inst, ai, st, passed, NULL);
            ++i;
        }
        if (removed && arm->last_state < 0 && arm->state_count > 0)
            arm->last_state = (int32_t)arm->state_count - 1;
        arm->cache_frame_index = -1;
    } else {
        arm->cache_frame_index = -1;
    }
}

/* The queued actions, as the official armature runs them: a play action fades its animation in
 * (the official fadeIn(name): every other parameter the default, the action's playTimes unused)
 * on the slot's child armature, on the child armatures of the bone's slots, or on the armature. */
static void run_actions(sinew_instance *inst, uint32_t ai) {
    arm_inst *arm = &inst->arms[ai];
    arm->lock_update = true;
    for (uint32_t q = 0; q < arm->action_count; ++q) {
        pending_action pa = arm->actions[q];
        const sinew_model_action *a = &arm->data->actions[pa.action];
        if (a->type != SINEW_ACTION_PLAY)
            continue;
        if (pa.slot != SINEW_INVALID_INDEX && pa.slot < arm->slot_count) {
            uint32_t child = arm->cur_child[pa.slot];
            if (child != SINEW_INVALID_INDEX) {
                uint32_t an = sinew__find_animation(inst->arms[child].data, a->name);
                if (an != SINEW_INVALID_INDEX)
                    sinew__arm_fade_in(inst, child, an, -1.0, -1, 0, NULL,
                                       FADE_SAME_LAYER_AND_GROUP, true, -100.0, 0.0, 1.0, true);
            }
        } else if (pa.bone != SINEW_INVALID_INDEX) {
            for (uint32_t s = 0; s < arm->slot_count; ++s) {
                if (arm->data->slots[s].parent != pa.bone || arm->cur_child[s] == SINEW_INVALID_INDEX)
                    continue;
                uint32_t child = arm->cur_child[s];
                uint32_t an = sinew__find_animation(inst->arms[child].data, a->name);
                if (an != SINEW_INVALID_INDEX)
                    sinew__arm_fade_in(inst, child, an, -1.0, -1, 0, NULL,
                                       FADE_SAME_LAYER_AND_GROUP, true, -100.0, 0.0, 1.0, true);
            }
        } else {
            uint32_t an = sinew__find_animation(arm->data, a->name);
            if (an != SINEW_INVALID_INDEX)
                sinew__arm_fade_in(inst, ai, an, -1.0, -1, 0, NULL,
                                   FADE_SAME_LAYER_AND_GROUP, true, -100.0, 0.0, 1.0, true);
        }
    }
    arm->action_count = 0;
    arm->lock_update = false;
}

void sinew__arm_advance(sinew_instance *inst, uint32_t ai, double dt) {
    arm_inst *arm = &inst->arms[ai];
    if (arm->lock_update)
        return;
    int32_t prev_cache_frame = arm->cache_frame_index;
    arm->cache_mode = CACHE_NONE;
    animation_advance(inst, ai, dt);
    if (arm->slots_dirty || arm->zindex_dirty) {
        arm->slots_dirty = false;
        sinew__sort_draw_order(arm);
        if (arm->mask6) /* 6.0: a re-sort re-assigns the masks */
            arm->mask6->sorted = 1;
    }
    /* with a frame cache, bones and slots wait while the armature stays on one cache frame */
    if (arm->cache_frame_index < 0 || arm->cache_frame_index != prev_cache_frame) {
        sinew__arm_update_bones(inst, ai);
        sinew__arm_update_slots(inst, ai);
    }
    if (arm->mask6)
        sinew__mask6_update(inst, ai);
    if (arm->action_count > 0)
        run_actions(inst, ai);
}

/* The start position of a fade-in within the animation (wrapped into [0, duration), the end
 * itself just before it) and its play count; a static animation plays once from 0: one of one
 * frame or less in the 5.x reference, upstream one of duration 0. */
static double fade_in_position(const sinew_model_animation *anim, bool v6, double dur, double position,
                               int32_t *play_times) {
    if (anim->frame_count > (v6 ? 0u : 1u)) {
        if (position < 0.0) {
            position = fmod(position, dur);
            position = dur - position;
        } else if (position == dur) {
            position -= 0.000001;
        } else if (position > dur) {
            position = fmod(position, dur);
        }
        if (*play_times < 0)
            *play_times = anim->play_times;
    } else {
        *play_times = 1;
        position = 0.0;
    }
    return isfinite(position) ? position : 0.0;
}

/* The state a fade-in with the fade-out mode SINGLE returns instead of a new one, or -1: in the 5.x
 * reference any state of the animation; upstream one on the same layer that is not fading out. */
static int32_t single_state(const arm_inst *arm, uint32_t anim_index, int32_t layer) {
    for (uint32_t i = 0; i < arm->state_count; ++i) {
        const anim_state *o = &arm->states[i];
        if (o->anim_index == anim_index &&
            (!arm_v6(arm) || (o->fade_state < 1 && o->layer == layer)))
            return (int32_t)i;
    }
    return -1;
}

/* The states a fade-in of `layer`/`group` replaces, by the fade-out mode, fade out. */
static void fade_out_others(arm_inst *arm, int fade_out_mode, int32_t layer, const char *grp,
                            double fade_out_time) {
    for (uint32_t i = 0; i < arm->state_count; ++i) {
        anim_state *o = &arm->states[i];
        bool hit = false;
        switch (fade_out_mode) {
        case FADE_SAME_LAYER:
            hit = o->layer == layer;
            break;
        case FADE_SAME_GROUP:
            hit = strcmp(o->group, grp) == 0;
            break;
        case FADE_SAME_LAYER_AND_GROUP:
            hit = o->layer == layer && strcmp(o->group, grp) == 0;
            break;
        case FADE_ALL:
            hit = true;
            break;
        default:
            break;
        }
        if (hit)
            state_fade_out(arm, o, fade_out_time, true);
    }
}

/* Room for one more state. Storage is allocated by a call (never inside an update), up to
 * max_states; otherwise the state with the least weight left goes, preferring ones fading out
 * (counted: sinew_instance_states_dropped): past max_states, inside an update past the storage
 * held, or when the allocation failed. */
static void make_room(sinew_instance *inst, arm_inst *arm) {
    if (arm->state_count == arm->state_held && arm->state_held < arm->state_cap && !inst->updating) {
        tl_state *more = sinew__alloc(inst->allocator, sinew__arm_state_bytes(arm));
        if (more)
            arm->states[arm->state_held++].tls = more;
    }
    if (arm->state_count == arm->state_held) {
        uint32_t victim = 0;
        double best = INFINITY;
        for (uint32_t i = 0; i < arm->state_count; ++i) {
            const anim_state *o = &arm->states[i];
            double left = o->weight * o->fade_progress + (o->fade_state > 0 ? 0.0 : 2.0);
            if (left < best) {
                best = left;
                victim = i;
            }
        }
        remove_state(inst, arm, victim);
        inst->states_dropped++;
    }
}

/* A cleared state inserted by layer (higher first; equal layers keep call order), keeping the
 * timeline storage of the free place it takes. */
static anim_state *insert_state(arm_inst *arm, int32_t layer) {
    uint32_t at = arm->state_count;
    for (uint32_t i = 0; i < arm->state_count; ++i)
        if (layer > arm->states[i].layer) {
            at = i;
            break;
        }
    tl_state *store = arm->states[arm->state_count].tls;
    for (uint32_t k = arm->state_count; k > at; --k)
        arm->states[k] = arm->states[k - 1];
    arm->state_count++;
    if (arm->last_state >= (int32_t)at)
        arm->last_state++;
    anim_state *st = &arm->states[at];
    memset(st, 0, sizeof *st);
    st->tls = store;
    return st;
}

/* A new state's clocks: its position (negative time scales count from the end), the fade, the
 * action timeline and the zOrder timeline if the animation has one. */
static void start_state(const arm_inst *arm, anim_state *st, double position, double dur, double time_scale,
                        double fade_in_time, bool pause_fade_in) {
    const sinew_model_animation *anim = st->anim;
    st->playhead_state = pause_fade_in ? 2 : 3;
    st->position = 0.0;
    st->duration = dur;
    if (position != 0.0)
        st->time = time_scale >= 0.0 ? position : position - dur;
    else
        st->time = 0.0;
    if (time_scale < 0.0 && st->time == 0.0)
        st->time = -0.000001;
    st->fade_progress = fade_in_time <= 0.0 ? 0.999999 : 0.0;
    st->fade_state = -1;
    st->sub_fade_state = -1;
    st->timeline_dirty = 2;
    tl_start(arm, &st->action_tl, TL_NONE);
    st->action_tl.current_time = st->time;
    if (st->action_tl.current_time < 0.0)
        st->action_tl.current_time = st->duration - st->action_tl.current_time;
    st->has_zorder = false;
    for (uint32_t t = anim->first_timeline; t < anim->first_timeline + anim->timeline_count; ++t)
        if (arm->data->timelines[t].type == SINEW_TL_ZORDER && arm->data->timelines[t].key_count > 0) {
            tl_start(arm, &st->zorder_tl, t - anim->first_timeline);
            st->has_zorder = true;
            break;
        }
}

/* Child armatures shown in the armature's slots that have an animation of that name and do not
 * play it yet fade it in too. */
static void children_follow(sinew_instance *inst, uint32_t ai, const char *name) {
    arm_inst *arm = &inst->arms[ai];
    for (uint32_t i = 0; i < arm->slot_count; ++i) {
        uint32_t s = arm->draw_order[i];
        uint32_t child = arm->cur_child[s];
        if (child == SINEW_INVALID_INDEX)
            continue;
        arm_inst *ch = &inst->arms[child];
        uint32_t can = sinew__find_animation(ch->data, name);
        if (can == SINEW_INVALID_INDEX)
            continue;
        bool has = false;
        for (uint32_t k = 0; k < ch->state_count; ++k)
            has |= ch->states[k].anim_index == can;
        if (!has)
            sinew__arm_fade_in(inst, child, can, -1.0, -1, 0, NULL, FADE_SAME_LAYER_AND_GROUP, true,
                               -100.0, 0.0, 1.0, true);
        arm = &inst->arms[ai];
    }
}

int32_t sinew__arm_fade_in(sinew_instance *inst, uint32_t ai, uint32_t anim_index, double fade_in_time,
                           int32_t play_times, int32_t layer, const char *group, int fade_out_mode,
                           bool reset_to_pose, double time_scale, double position, double weight,
                           bool pause_fade_in) {
    arm_inst *arm = &inst->arms[ai];
    if (anim_index >= arm->data->animation_count)
        return -1;
    const sinew_model_animation *anim = &arm->data->animations[anim_index];
    if (fade_out_mode == FADE_SINGLE) {
        int32_t same = single_state(arm, anim_index, layer);
        if (same >= 0)
            return same;
    }
    if (arm->state_count == 0)
        fade_in_time = 0.0;
    else if (fade_in_time < 0.0)
        fade_in_time = anim->fade_in_time > 0.0 ? anim->fade_in_time : 0.0;
    double fade_out_time = fade_in_time;
    if (time_scale <= -100.0)
        time_scale = anim->scale != 0.0 ? 1.0 / anim->scale : 1.0;
    double dur = anim_seconds(arm, anim);
    position = fade_in_position(anim, arm_v6(arm), dur, position, &play_times);
    const char *grp = group ? group : "";
    fade_out_others(arm, fade_out_mode, layer, grp, fade_out_time);
    make_room(inst, arm);
    anim_state *st = insert_state(arm, layer);
    st->covered = anim->run_covered;
    st->anim = anim;
    st->serial = ++inst->next_serial;
    sinew__state_reused(inst, ai, st);
    arm->cache_frame_index = -1;
    const uint32_t serial = st->serial;
    st->anim_index = anim_index;
    st->reset_to_pose = reset_to_pose;
    st->display_control = true;
    st->action_enabled = true;
    st->layer = layer;
    st->play_times = play_times;
    st->time_scale = time_scale;
    st->fade_total_time = fade_in_time;
    st->auto_fade_out_time = -1.0;
    st->weight = weight;
    size_t gl = strlen(grp);
    if (gl >= sizeof st->group)
        gl = sizeof st->group - 1;
    memcpy(st->group, grp, gl);
    st->group[gl] = 0;
    start_state(arm, st, position, dur, time_scale, fade_in_time, pause_fade_in);
    children_follow(inst, ai, anim->name);
    arm = &inst->arms[ai];
    /* the 5.x runtime (the Cocos fork) updates the armature at once when nothing fades; upstream
     * DragonBonesJS 5.7, and so 6.0.2, does not (its playConfig has that update commented out) */
    if (fade_in_time <= 0.0 && !arm->data->v6)
        sinew__arm_advance(inst, ai, 0.0);
    /* the state may have moved if the zero-time update removed a faded-out state */
    int32_t idx = -1;
    for (uint32_t i = 0; i < arm->state_count; ++i)
        if (arm->states[i].serial == serial)
            idx = (int32_t)i;
    arm->last_state = idx;
    return idx;
}

void sinew__arm_play_last(sinew_instance *inst, uint32_t ai, int32_t play_times) {
    arm_inst *arm = &inst->arms[ai];
    if (arm->last_state < 0) {
        uint32_t def = arm->data->default_animation;
        if (def < arm->data->animation_count)
            sinew__arm_fade_in(inst, ai, def, 0.0, play_times, 0, NULL, FADE_ALL, true, -100.0, 0.0, 1.0, true);
        return;
    }
    anim_state *st = &arm->states[arm->last_state];
    bool playing = (st->playhead_state & 2) != 0 && st->action_tl.play_state <= 0;
    bool completed = st->action_tl.play_state > 0;
    if (!playing && !completed)
        st->playhead_state = 3;
    else
        sinew__arm_fade_in(inst, ai, st->anim_index, 0.0, play_times, 0, NULL, FADE_ALL, true, -100.0, 0.0,
                           1.0, true);
}
