/* Spine: bones Spine would move otherwise (IK chains its solver places differently, inherit modes
 * it does not reproduce), baked: sinew plays the animation and writes their local transforms as
 * keys. Part of the Spine writer (export/spine_internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/spine_internal.h"
#include "sinew/instance.h"

/* ---- IK chains Spine's solver cannot reproduce: baked ---------------------------------------- */

#define BAKE_PER_FRAME 32 /* samples per frame of a baked bone, thinned where straight within: */
#define BAKE_TOL_UNITS 0.002
#define BAKE_TOL_DEG 0.0005
#define BAKE_TOL_SCALE 0.00002
#define BAKE_MAX_RATE 8   /* samples per animation frame: at most BAKE_MAX_RATE * BAKE_PER_FRAME */
#define BAKE_JUMP 1e-6    /* frames: a bend is also read this much before it */

/* Whether Spine's IK solver places constraint k as DragonBones' does: not for a two-bone chain on
 * bones that do not inherit rotation and scale (spine-core's apply2 skips them), nor under a
 * non-uniform scale or skew of the chain's root or any bone above it (Spine solves from the local
 * scales, DragonBones from world positions), in the setup pose or in an animation. */
static bool ik_exact(const sp_ctx *c, const sinew_model_ik *k) {
    const sinew_model_armature *a = c->arm;
    if (k->root != k->bone && (strcmp(sinew__sp_inherit_name(&a->bones[k->root]), "normal") != 0 ||
                               strcmp(sinew__sp_inherit_name(&a->bones[k->bone]), "normal") != 0))
        return false;
    uint32_t first = k->root != k->bone ? k->root : a->bones[k->root].parent;
    for (uint32_t p = first; p != SINEW_INVALID_INDEX; p = a->bones[p].parent) {
        if (sinew__sp_nonuniform_scale(a, p, NULL))
            return false;
        for (uint32_t n = 0; n < a->animation_count; ++n)
            if (sinew__sp_nonuniform_scale(a, p, &a->animations[n]))
                return false;
    }
    return true;
}

/* Spine's local transform (x y rotation scaleX scaleY shearY, y up, degrees) of a bone whose
 * DragonBones world matrix is w under a parent world pw (NULL: a root): pw^-1 w seen through the
 * mirror, with rotation and shearY unwrapped towards prev (NULL: none). */
static void spine_local(const sinew_affine *pw, const sinew_affine *w, const double *prev, double out[6]) {
    double l[6] = {w->a, w->b, w->c, w->d, w->tx, w->ty};
    if (pw) {
        double det = (double)pw->a * pw->d - (double)pw->b * pw->c;
        if (det == 0.0)
            det = 1e-12;
        double ia = pw->d / det, ib = -pw->b / det, ic = -pw->c / det, id = pw->a / det;
        double itx = -(ia * pw->tx + ic * pw->ty), ity = -(ib * pw->tx + id * pw->ty);
        l[0] = ia * w->a + ic * w->b;
        l[1] = ib * w->a + id * w->b;
        l[2] = ia * w->c + ic * w->d;
        l[3] = ib * w->c + id * w->d;
        l[4] = ia * w->tx + ic * w->ty + itx;
        l[5] = ib * w->tx + id * w->ty + ity;
    }
    /* mirrored: x axis (a, -b), y axis (-c, d) */
    double rot = atan2(-l[1], l[0]) * RAD2DEG;
    double ya = atan2(l[3], -l[2]) * RAD2DEG;
    out[0] = l[4];
    out[1] = -l[5];
    out[3] = hypot(l[0], l[1]);
    out[4] = hypot(l[2], l[3]);
    double shear = ya - 90.0 - rot;
    shear -= 360.0 * floor((shear + 180.0) / 360.0);
    if (prev) {
        rot += 360.0 * floor((prev[2] - rot) / 360.0 + 0.5);
        shear += 360.0 * floor((prev[5] - shear) / 360.0 + 0.5);
    }
    out[2] = rot;
    out[5] = shear;
}

static bool bake_world(sinew_instance *inst, uint32_t b, const sinew_model_armature *a, const double *prev,
                       double out[6]) {
    sinew_affine w, pw;
    const char *nm;
    uint32_t parent;
    if (!sinew_instance_bone(inst, 0, b, &nm, &parent, &w))
        return false;
    bool root = a->bones[b].parent == SINEW_INVALID_INDEX;
    if (!root && !sinew_instance_bone(inst, 0, a->bones[b].parent, &nm, &parent, &pw))
        return false;
    spine_local(root ? NULL : &pw, &w, prev, out);
    return true;
}

/* The bone above b (or NULL) under whose non-uniform scale or skew Spine's inherit mode of b turns
 * b otherwise than DragonBones' (see sinew__sp_warn_inherit), in the setup pose or any animation. */
static const sinew_model_bone *inherit_inexact(const sinew_model_armature *a, uint32_t b) {
    const char *mode = sinew__sp_inherit_name(&a->bones[b]);
    if (strcmp(mode, "normal") == 0 || strcmp(mode, "onlyTranslation") == 0)
        return NULL;
    for (uint32_t p = a->bones[b].parent; p != SINEW_INVALID_INDEX; p = a->bones[p].parent) {
        if (sinew__sp_nonuniform_scale(a, p, NULL))
            return &a->bones[p];
        for (uint32_t n = 0; n < a->animation_count; ++n)
            if (sinew__sp_nonuniform_scale(a, p, &a->animations[n]))
                return &a->bones[p];
    }
    return NULL;
}

/* A new instance of the armature being written, on the writer's allocator (*inst and e are
 * cleared first; e says why when it cannot be made). */
static sinew_status bake_instance(sp_ctx *c, sinew_instance **inst, sinew_error *e) {
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = c->arm->name;
    io.allocator = c->a;
    *inst = NULL;
    memset(e, 0, sizeof *e);
    return sinew_instance_create(c->data, &io, inst, e);
}

/* Advances inst by dt seconds; the events it raises are dropped (the writer writes the actions
 * from the data). */
static void bake_step(sinew_instance *inst, double dt) {
    sinew_instance_update(inst, dt);
    while (sinew_instance_poll_event(inst, NULL)) {
    }
}

/* A new instance of the armature being written playing the animation being written from its
 * start (its own playTimes), or NULL with e saying why. */
static sinew_instance *played(sp_ctx *c, sinew_error *e) {
    sinew_instance *inst;
    if (bake_instance(c, &inst, e) != SINEW_OK || sinew_instance_play(inst, c->anim->name, -1, e) != SINEW_OK) {
        sinew_instance_destroy(inst);
        return NULL;
    }
    return inst;
}

/* Decides which bones are baked and computes their setup: the bones of IK chains Spine's solver
 * would place otherwise, bones whose inherit flags Spine cannot reproduce (inheritTranslation
 * false; inheritScale or inheritRotation false under a non-uniform scale or skew), and the chains
 * of IK constraints on baked bones. Their setup is the pose sinew computes as the official
 * runtime does (IK solved). */
void sinew__sp_bake_setup(sp_ctx *c) {
    const sinew_model_armature *a = c->arm;
    c->ik_baked = sinew__calloc(c->a, a->ik_count + 1, sizeof *c->ik_baked);
    c->bone_baked = sinew__calloc(c->a, a->bone_count + 1, sizeof *c->bone_baked);
    c->bone_setup = sinew__calloc(c->a, 6 * (size_t)a->bone_count + 1, sizeof *c->bone_setup);
    if (!c->ik_baked || !c->bone_baked || !c->bone_setup) {
        c->nomem = true;
        return;
    }
    bool any = false;
    size_t by_inherit_size = ((size_t)a->bone_count + 1) * sizeof(bool);
    bool *by_inherit = sinew__calloc(c->a, 1, by_inherit_size);
    if (!by_inherit) {
        c->nomem = true;
        return;
    }
    for (uint32_t b = 0; b < a->bone_count; ++b)
        if (!a->bones[b].is_surface && (!a->bones[b].inherit_translation || inherit_inexact(a, b)))
            c->bone_baked[b] = by_inherit[b] = any = true;
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (!ik_exact(c, k) || c->bone_baked[k->bone] || c->bone_baked[k->root]) {
            c->ik_baked[i] = any = true;
            c->bone_baked[k->bone] = c->bone_baked[k->root] = true;
        }
    }
    if (!any) {
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    sinew_instance *inst;
    sinew_error e;
    bool ok = bake_instance(c, &inst, &e) == SINEW_OK;
    if (ok) {
        bake_step(inst, 0.0);
        for (uint32_t b = 0; b < a->bone_count && ok; ++b)
            if (c->bone_baked[b])
                ok = bake_world(inst, b, a, NULL, c->bone_setup + 6 * (size_t)b);
    }
    sinew_instance_destroy(inst);
    if (!ok && e.code == SINEW_E_NOMEM) { /* out of memory is an error, not a pose to keep */
        c->nomem = true;
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    if (!ok) { /* keep the bones as they are; sinew__sp_warn_ik_scale and sinew__sp_warn_inherit name them */
        memset(c->ik_baked, 0, (a->ik_count + 1) * sizeof *c->ik_baked);
        memset(c->bone_baked, 0, (a->bone_count + 1) * sizeof *c->bone_baked);
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    for (uint32_t b = 0; b < a->bone_count; ++b) {
        if (!by_inherit[b])
            continue;
        const sinew_model_bone *p = inherit_inexact(a, b);
        if (!a->bones[b].inherit_translation)
            sinew__sp_warn(c, "bone '%s': inheritTranslation false has no Spine equivalent: baked into keys (%d per frame, "
                    "written with inherit normal)",
                 a->bones[b].name, BAKE_PER_FRAME);
        else
            sinew__sp_warn(c, "bone '%s': its inherit mode (%s) under the non-uniform scale or skew of bone '%s' turns it "
                    "otherwise in Spine: baked into keys (%d per frame, written with inherit normal)",
                 a->bones[b].name, sinew__sp_inherit_name(&a->bones[b]), p ? p->name : "", BAKE_PER_FRAME);
    }
    sinew__free(c->a, by_inherit, by_inherit_size);
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        if (!c->ik_baked[i])
            continue;
        const sinew_model_ik *k = &a->iks[i];
        if (k->root != k->bone)
            sinew__sp_warn(c, "IK '%s': Spine's solver would place this chain differently (non-uniform scale or skew above "
                    "it, or bones that do not inherit rotation and scale): baked into keys of bones '%s' and '%s' "
                    "(%d per frame, the constraint is not written)",
                 k->name, a->bones[k->root].name, a->bones[k->bone].name, BAKE_PER_FRAME);
        else
            sinew__sp_warn(c, "IK '%s': Spine's solver would place this bone differently (non-uniform scale or skew above "
                    "it): baked into keys of bone '%s' (%d per frame, the constraint is not written)",
                 k->name, a->bones[k->bone].name, BAKE_PER_FRAME);
    }
}

/* Whether timeline T moves bones (transforms, IK, surfaces): where its motion bends, a baked
 * bone's may. */
static bool moves_bones(const sinew_model_timeline *T) {
    switch (T->type) {
    case SINEW_TL_BONE_ALL:
    case SINEW_TL_BONE_TRANSLATE:
    case SINEW_TL_BONE_ROTATE:
    case SINEW_TL_BONE_SCALE:
    case SINEW_TL_IK:
    case SINEW_TL_SURFACE:
        return true;
    default:
        return false;
    }
}

/* Appends to tau the times on timeline T's own clock where its motion bends: each key's start and,
 * for a Bezier key, each of its easing samples (the official runtime joins them with straight
 * lines). */
static bool bend_times(sp_ctx *c, const sinew_model_timeline *T, sp_times *tau) {
    const sinew_model_animation *an = c->anim;
    double fr = c->arm->frame_rate, D = an->frame_count / fr;
    const sinew_model_keyframe *keys = an->keys + T->first_key;
    bool ok = true;
    for (uint32_t k = 0; ok && k < T->grid_key_count; ++k) {
        double t0 = keys[k].frame_start / fr, t1 = k + 1 < T->grid_key_count ? keys[k + 1].frame_start / fr : D;
        ok = sinew__sp_times_push(c, tau, t0);
        if (keys[k].tween != SINEW_TWEEN_CURVE || keys[k].frame_span == 0)
            continue;
        uint32_t segs = keys[k].sample_count + 1;
        for (uint32_t i = 1; ok && i < segs; ++i)
            ok = sinew__sp_times_push(c, tau, t0 + (t1 - t0) * i / segs);
    }
    return ok;
}

/*
 * The times (the animation's clock, seconds, increasing) at which the baked bones are read: a grid
 * of BAKE_PER_FRAME samples per frame of the fastest clock a timeline that moves bones runs on
 * (a timeline scale of 1/2 plays its frames twice as fast; at most BAKE_MAX_RATE times the
 * animation's frames), and every time such a timeline passes a key, a Bezier easing sample or a
 * wrap of its clock (its scale and offset applied as in sinew__sp_clock_of) and the animation's
 * end, each also
 * BAKE_JUMP frames before: the corners of the motion are read where they are, not cut across
 * between samples, and a held key's jump is read on both sides (sinew__sp_bake_animation writes
 * both at the key's time).
 */
static bool bake_times(sp_ctx *c, sp_times *l) {
    const sinew_model_armature *a = c->arm;
    const sinew_model_animation *an = c->anim;
    double rate = 1.0, jump = BAKE_JUMP / a->frame_rate;
    sp_times tau = {NULL, 0, 0};
    bool ok = true;
    for (uint32_t t = 0; ok && t < an->timeline_count; ++t) {
        const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
        if (!moves_bones(T) || T->grid_key_count < 2)
            continue;
        sp_clock ck;
        sinew__sp_clock_of(c, T, &ck);
        rate = fmax(rate, fmin(ceil(fabs(ck.ts)), BAKE_MAX_RATE));
        tau.n = 0;
        ok = bend_times(c, T, &tau) && sinew__sp_clock_times(c, &ck, tau.t, (uint32_t)tau.n, l);
    }
    sinew__sp_times_free(c, &tau);
    if (ok && an->frame_count) /* the animation's own wrap (or its end) */
        ok = sinew__sp_times_push(c, l, an->frame_count / (double)a->frame_rate);
    sinew__sp_times_sort(l);
    double per_s = a->frame_rate * BAKE_PER_FRAME * rate;
    size_t bends = l->n, w = 0;
    for (size_t i = 0; i < bends; ++i) /* one bend per 2 BAKE_JUMP */
        if (w == 0 || l->t[i] - l->t[w - 1] > 2.0 * jump)
            l->t[w++] = l->t[i];
    l->n = bends = w;
    for (size_t i = 0; ok && i < bends; ++i)
        if (l->t[i] > jump)
            ok = sinew__sp_times_push(c, l, l->t[i] - jump);
    w = 0;
    for (size_t i = 0; i < l->n; ++i) /* the times on the grid are in it */
        if (fabs(l->t[i] * per_s - floor(l->t[i] * per_s + 0.5)) > 1e-6)
            l->t[w++] = l->t[i];
    l->n = w;
    size_t steps = (size_t)an->frame_count * BAKE_PER_FRAME * (size_t)rate;
    for (size_t k = 0; ok && k <= steps; ++k)
        ok = sinew__sp_times_push(c, l, (double)k / per_s);
    sinew__sp_times_sort(l);
    w = 0;
    for (size_t i = 0; i < l->n; ++i)
        if (w == 0 || l->t[i] > l->t[w - 1])
            l->t[w++] = l->t[i];
    l->n = w;
    return ok;
}

/* Writes the baked bones' keys of animation an: sinew plays it as `sinew poses` does (the
 * official runtime's way) and each baked bone's local transform is read at the times bake_times
 * gives, as linear keys relative to the baked setup, thinned where they are straight. */
void sinew__sp_bake_animation(sp_ctx *c, cJSON *anim_obj) {
    const sinew_model_armature *a = c->arm;
    uint32_t nb = 0;
    for (uint32_t b = 0; b < a->bone_count; ++b)
        nb += c->bone_baked[b];
    if (!nb)
        return;
    sinew_error e;
    sinew_instance *inst = played(c, &e);
    if (!inst) {
        if (e.code == SINEW_E_NOMEM) {
            c->nomem = true;
            return;
        }
        sinew__sp_warn(c, "IK chains could not be baked (%s); their bones keep the setup pose", e.message);
        return;
    }
    sp_times times = {NULL, 0, 0};
    size_t kls_count = (size_t)a->bone_count * 4 + 1, prev_count = 6 * (size_t)a->bone_count + 1;
    keylist *kls = sinew__calloc(c->a, kls_count, sizeof *kls);
    double *prev = sinew__calloc(c->a, prev_count, sizeof *prev);
    bool ok = kls && prev && bake_times(c, &times);
    for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
        kls[4 * b].n = 2;
        kls[4 * b + 1].n = 1;
        kls[4 * b + 2].n = 2;
        kls[4 * b + 3].n = 2;
        memcpy(prev + 6 * (size_t)b, c->bone_setup + 6 * (size_t)b, 6 * sizeof *prev);
    }
    double jump = BAKE_JUMP / a->frame_rate;
    for (size_t k = 0; ok && k < times.n; ++k) {
        bake_step(inst, k ? (times.t[k] - times.t[k - 1]) * c->time_scale : 0.0);
        /* a read just before a bend is written at the bend: a held key's jump stays a jump */
        double t = k + 1 < times.n && times.t[k + 1] - times.t[k] <= 1.5 * jump ? times.t[k + 1] : times.t[k];
        for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
            if (!c->bone_baked[b])
                continue;
            double l[6];
            const double *su = c->bone_setup + 6 * (size_t)b;
            ok = bake_world(inst, b, a, prev + 6 * (size_t)b, l);
            memcpy(prev + 6 * (size_t)b, l, sizeof l);
            double tr[2] = {l[0] - su[0], l[1] - su[1]}, ro[1] = {l[2] - su[2]};
            double sc[2] = {su[3] != 0.0 ? l[3] / su[3] : 1.0, su[4] != 0.0 ? l[4] / su[4] : 1.0};
            double sh[2] = {0.0, l[5] - su[5]};
            ok = ok && sinew__sp_kl_push(c, &kls[4 * b], t, false, tr) && sinew__sp_kl_push(c, &kls[4 * b + 1], t, false, ro) &&
                 sinew__sp_kl_push(c, &kls[4 * b + 2], t, false, sc) && sinew__sp_kl_push(c, &kls[4 * b + 3], t, false, sh);
        }
    }
    sinew_instance_destroy(inst);
    cJSON *bones = NULL;
    static const char *const xy[2] = {"x", "y"}, *const val[1] = {"value"};
    static const char *const tl[4] = {"translate", "rotate", "scale", "shear"};
    for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
        if (!c->bone_baked[b])
            continue;
        if (!bones && !(bones = cJSON_GetObjectItemCaseSensitive(anim_obj, "bones")) &&
            !(bones = sinew__sp_add_obj(c, anim_obj, "bones")))
            break;
        cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones, a->bones[b].name);
        if (!bo && !(bo = sinew__sp_add_obj(c, bones, a->bones[b].name)))
            break;
        static const double tol[4] = {BAKE_TOL_UNITS, BAKE_TOL_DEG, BAKE_TOL_SCALE, BAKE_TOL_DEG};
        for (int i = 0; i < 4; ++i) {
            sinew__sp_kl_thin(&kls[4 * b + (uint32_t)i], tol[i]);
            sinew__sp_write_kl(c, bo, tl[i], &kls[4 * b + (uint32_t)i], i == 1 ? val : xy);
        }
    }
    if (!ok)
        c->nomem = true;
    for (uint32_t i = 0; kls && i < 4 * a->bone_count; ++i)
        sinew__sp_kl_free(c, &kls[i]);
    sinew__free(c->a, kls, kls_count * sizeof *kls);
    sinew__free(c->a, prev, prev_count * sizeof *prev);
    sinew__sp_times_free(c, &times);
}

/* ---- draw orders the official runtime keeps from key to key: played ----------------------- */

#define ZORDER_READ 1e-4 /* frames after a zOrder key its draw order is read */

/* The draw order inst shows (slot indices, back to front) into row. */
static void read_order(sinew_instance *inst, uint32_t n, uint32_t *row) {
    for (uint32_t i = 0; i < n; ++i) {
        sinew_slot_state st;
        row[i] = sinew_instance_slot(inst, 0, i, &st) ? st.index : i;
    }
}

/*
 * The draw orders zOrder timeline T shows as the official runtime plays the animation:
 * orders[k * slot_count + i] is the slot at place i (back to front) from key k of its first play
 * on. A key that moves a slot out of range leaves that slot where the order before put it, and
 * equal places are sorted from the order before (the official Armature._sortZOrder and its
 * JavaScript sort, which sinew's runtime reproduces, docs/runtime.md), so the orders are read
 * from sinew playing the animation, just after each key. *later is the first key whose order the
 * second play of a loop shows otherwise (UINT32_MAX: none). SINEW_OK, or why sinew could not play
 * the armature (in e).
 */
sinew_status sinew__sp_zorder_played(sp_ctx *c, const sinew_model_timeline *T, uint32_t *orders, uint32_t *later,
                                     sinew_error *e) {
    uint32_t n = c->arm->slot_count, G = T->grid_key_count;
    const sinew_model_keyframe *keys = c->anim->keys + T->first_key;
    double fr = c->arm->frame_rate, D = c->anim->frame_count / fr, now = 0.0;
    *later = UINT32_MAX;
    memset(e, 0, sizeof *e);
    uint32_t *row = sinew__alloc(c->a, ((size_t)n + 1) * sizeof *row);
    sinew_instance *inst = row ? played(c, e) : NULL;
    if (!inst) {
        sinew__free(c->a, row, ((size_t)n + 1) * sizeof *row);
        if (!row)
            e->code = SINEW_E_NOMEM;
        return e->code != SINEW_OK ? e->code : SINEW_E_NOMEM;
    }
    bake_step(inst, 0.0);
    int plays = sinew__sp_loops(c->anim) && D > 0.0 ? 2 : 1;
    for (int p = 0; p < plays; ++p) {
        for (uint32_t k = 0; k < G; ++k) {
            double t = p * D + (keys[k].frame_start + ZORDER_READ) / fr;
            bake_step(inst, (t - now) * c->time_scale);
            now = t;
            read_order(inst, n, p ? row : orders + (size_t)k * n);
            if (p && *later == UINT32_MAX && memcmp(row, orders + (size_t)k * n, n * sizeof *row) != 0)
                *later = k;
        }
    }
    sinew_instance_destroy(inst);
    sinew__free(c->a, row, ((size_t)n + 1) * sizeof *row);
    return SINEW_OK;
}

/* The latest key time in a written animation (spine-core's duration of it). */
static double last_key(const cJSON *o) {
    double t = 0.0;
    for (const cJSON *ch = o ? o->child : NULL; ch; ch = ch->next) {
        if (cJSON_IsNumber(ch) && ch->string && strcmp(ch->string, "time") == 0)
            t = fmax(t, ch->valuedouble);
        else if (cJSON_IsObject(ch) || cJSON_IsArray(ch))
            t = fmax(t, last_key(ch));
    }
    return t;
}

/* Spine's duration of an animation is its last key's time, DragonBones' the animation's own: every
 * timeline written ends with a key at the end (sinew__sp_build_local_keys), but a bone timeline that stays at
 * its identity is left out, and an animation may have nothing else. Then the first such timeline is
 * written after all (DragonBones' timeline holds the bone at its setup pose too); without one the
 * Spine animation ends at its last key, with a warning. */
void sinew__sp_end_keys(sp_ctx *c, cJSON *anim_obj) {
    const sinew_model_armature *a = c->arm;
    const sinew_model_animation *an = c->anim;
    double want = an->frame_count / (double)a->frame_rate * c->time_scale, have = last_key(anim_obj);
    if (have >= want * (1.0 - 1e-9))
        return;
    for (uint32_t t = 0; t < an->timeline_count; ++t) {
        const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
        bool bone = T->type == SINEW_TL_BONE_ALL || T->type == SINEW_TL_BONE_TRANSLATE ||
                    T->type == SINEW_TL_BONE_ROTATE || T->type == SINEW_TL_BONE_SCALE;
        if (!bone || c->bone_baked[T->target] || T->grid_key_count == 0)
            continue;
        cJSON *bones = cJSON_GetObjectItemCaseSensitive(anim_obj, "bones");
        if (!bones && !(bones = sinew__sp_add_obj(c, anim_obj, "bones")))
            return;
        cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones, a->bones[T->target].name);
        const char *first = T->type == SINEW_TL_BONE_ROTATE ? "rotate" : T->type == SINEW_TL_BONE_SCALE ? "scale"
                                                                                                        : "translate";
        if (bo && cJSON_GetObjectItemCaseSensitive(bo, first))
            continue;
        sinew__sp_bone_timeline(c, bones, T, true);
        if (last_key(anim_obj) >= want * (1.0 - 1e-9))
            return;
    }
    sinew__sp_warn(c, "nothing is keyed up to the animation's end: the Spine animation lasts %g s, the DragonBones one %g s",
         have, want);
}

void sinew__sp_write_animations(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *events_decl = sinew__sp_add_obj(c, root, "events");
    cJSON *anims = sinew__sp_add_obj(c, root, "animations");
    for (uint32_t i = 0; i < a->animation_count && !c->nomem; ++i) {
        const sinew_model_animation *an = &a->animations[i];
        c->anim = an;
        cJSON *ao = sinew__sp_add_obj(c, anims, an->name);
        if (!ao)
            break;
        c->time_scale = an->scale > 0.0 ? an->scale : 1.0;
        sinew__sp_warn_ik_scale(c, an);
        sinew__sp_warn_inherit(c, an);
        if (an->play_times > 1)
            sinew__sp_warn(c, "playTimes %d written as a loop (Spine animations loop or play once)", (int)an->play_times);
        cJSON *bones = NULL, *slots = NULL, *ik = NULL;
        for (uint32_t t = 0; t < an->timeline_count; ++t) {
            const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
            if (T->type == SINEW_TL_ZORDER && (T->scale != 1.0f || T->offset != 0.0f))
                sinew__sp_warn(c, "the zOrder timeline's scale %g / offset %g not carried (written on the animation's clock)",
                     (double)T->scale, (double)T->offset);
            switch (T->type) {
            case SINEW_TL_BONE_ALL:
            case SINEW_TL_BONE_TRANSLATE:
            case SINEW_TL_BONE_ROTATE:
            case SINEW_TL_BONE_SCALE:
                if (c->bone_baked[T->target])
                    break; /* baked below */
                if (!bones && !(bones = sinew__sp_add_obj(c, ao, "bones")))
                    break;
                sinew__sp_bone_timeline(c, bones, T, false);
                break;
            case SINEW_TL_SLOT_DISPLAY:
                if (!slots && !(slots = sinew__sp_add_obj(c, ao, "slots")))
                    break;
                sinew__sp_slot_display_timeline(c, slots, T);
                break;
            case SINEW_TL_SLOT_COLOR:
                if (!slots && !(slots = sinew__sp_add_obj(c, ao, "slots")))
                    break;
                sinew__sp_slot_color_timeline(c, slots, T);
                break;
            case SINEW_TL_FFD:
                sinew__sp_deform_timeline(c, ao, T);
                break;
            case SINEW_TL_IK:
                if (c->ik_baked[T->target])
                    break;
                if (!ik && !(ik = sinew__sp_add_obj(c, ao, "ik")))
                    break;
                sinew__sp_ik_timeline(c, ik, T);
                break;
            case SINEW_TL_ZORDER:
                sinew__sp_zorder_timeline(c, ao, T);
                break;
            case SINEW_TL_SURFACE:
                sinew__sp_warn(c, "surface timeline dropped (Spine has no surfaces)");
                break;
            case SINEW_TL_SHAPE:
            case SINEW_TL_PATH_DEFORM:
            case SINEW_TL_PATH_POSITION:
            case SINEW_TL_PATH_SPACING:
            case SINEW_TL_PATH_WEIGHT:
                sinew__sp_warn(c, "DragonBones 6.0 %s timeline dropped (not yet converted to Spine)",
                               T->type == SINEW_TL_SHAPE ? "shape" : T->type == SINEW_TL_PATH_DEFORM ? "path deform" : "path constraint");
                break;
            }
        }
        sinew__sp_bake_animation(c, ao);
        sinew__sp_events_of(c, ao, events_decl);
        sinew__sp_end_keys(c, ao);
    }
    c->anim = NULL;
}
