/* The animation runtime on small hand-built models: prepare pass (curve samples, rotation
 * unwrapping, frame grid), bone transforms, tweening and looping, events, IK, draw list, no
 * allocation in update, bad input. Expected values are computed independently here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "sinew/data.h"
#include "sinew/drawlist.h"
#include "sinew/instance.h"
#include "testlib.h"

#define PI 3.14159265358979323846

/* ---- a counting allocator ----------------------------------------------------------------- */

typedef struct counter {
    long allocs, frees;
} counter;

static void *c_alloc(void *ctx, size_t size) {
    ((counter *)ctx)->allocs++;
    return aligned_alloc(16, (size + 15) & ~(size_t)15);
}
static void c_free(void *ctx, void *p, size_t size) {
    (void)size;
    if (p)
        ((counter *)ctx)->frees++;
    free(p);
}

/* ---- a small rig -------------------------------------------------------------------------- */

typedef struct rig {
    struct sinew_data data;
    sinew_model_armature *arm;
} rig;

static void *arr(struct sinew_data *d, size_t n, size_t size) { return sinew__arena_array(&d->arena, n, size); }

static sinew_transform tf(float x, float y, float rot) {
    sinew_transform t = {x, y, rot, 0.0f, 1.0f, 1.0f};
    return t;
}

/* An animation that plays at its data's frame rate with the default fade. */
static void animation(sinew_model_animation *an, const char *name, float duration, int32_t play_times) {
    an->name = name;
    an->duration = duration;
    an->play_times = play_times;
    an->fade_in_time = -1;
    an->scale = 1;
}

/* A rotation timeline of the root bone with two keys, 0 then 1 rad. */
static void root_rotation(struct sinew_data *d, sinew_model_timeline *T) {
    T->type = SINEW_TL_BONE_ROTATE;
    T->target = 0;
    T->scale = 1;
    T->key_count = 2;
    T->values_per_key = 2;
    T->values = arr(d, 4, sizeof(float));
    T->values[2] = 1.0f;
}

/* Bones: root (10,0), child of root (20,0) length 10, target (root level, at (30,40)).
 * Slot s0 on child with one image display "img" (pivot 0.5, 0.5).
 * Animations: "spin" 10 frames loop: root rotate key 0 -> 0 rad (linear), key 5 -> 1 rad (linear);
 *             "twice" 4 frames, playTimes 2, frame event "hit" at frame 2;
 *             "curve" 10 frames, root rotate 0 -> 1 rad with a Bezier curve. */
static void build_rig(rig *r, bool with_ik) {
    struct sinew_data *d = &r->data;
    memset(r, 0, sizeof *r);
    sinew__arena_init(&d->arena, NULL, 0);
    d->name = "test";
    d->version = "5.5";
    d->frame_rate = 8;
    d->armature_count = 1;
    d->armatures = arr(d, 1, sizeof(sinew_model_armature));
    d->source_format = "dragonbones";
    sinew_model_armature *A = r->arm = &d->armatures[0];
    A->name = "arm";
    A->type = "Armature";
    A->frame_rate = 8;
    A->bone_count = 3;
    A->bones = arr(d, 3, sizeof(sinew_model_bone));
    const char *bn[3] = {"root", "child", "target"};
    sinew_transform bt[3] = {tf(10, 0, 0), tf(20, 0, 0), tf(30, 40, 0)};
    uint32_t bp[3] = {SINEW_INVALID_INDEX, 0, SINEW_INVALID_INDEX};
    for (uint32_t i = 0; i < 3; ++i) {
        A->bones[i].name = bn[i];
        A->bones[i].parent = bp[i];
        A->bones[i].file_index = i;
        A->bones[i].setup = bt[i];
        A->bones[i].length = 10;
        A->bones[i].inherit_translation = A->bones[i].inherit_rotation = true;
        A->bones[i].inherit_scale = A->bones[i].inherit_reflection = true;
    }
    A->slot_count = 1;
    A->slots = arr(d, 1, sizeof(sinew_model_slot));
    A->slots[0].name = "s0";
    A->slots[0].parent = 1;
    A->slots[0].display_index = 0;
    A->slots[0].color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
    A->display_count = 1;
    A->displays = arr(d, 1, sizeof(sinew_model_display));
    A->displays[0].type = SINEW_DISPLAY_IMAGE;
    A->displays[0].name = A->displays[0].path = "img";
    A->displays[0].transform = tf(0, 0, 0);
    A->displays[0].pivot_x = A->displays[0].pivot_y = 0.5f;
    A->displays[0].armature = A->displays[0].mesh = SINEW_INVALID_INDEX;
    A->skin_count = 1;
    A->skins = arr(d, 1, sizeof(sinew_model_skin));
    A->skins[0].name = "";
    A->skins[0].slot_count = 1;
    A->skin_slot_count = 1;
    A->skin_slots = arr(d, 1, sizeof(sinew_model_skin_slot));
    A->skin_slots[0].display_count = 1;
    if (with_ik) {
        A->ik_count = 1;
        A->iks = arr(d, 1, sizeof(sinew_model_ik));
        A->iks[0] = (sinew_model_ik){"aim", 1, 2, 1, 0, true, false, 1.0f};
    }
    /* actions: one frame event */
    A->action_count = 1;
    A->actions = arr(d, 1, sizeof(sinew_model_action));
    A->actions[0].type = SINEW_ACTION_FRAME_EVENT;
    A->actions[0].name = "hit";
    A->actions[0].bone = A->actions[0].slot = SINEW_INVALID_INDEX;
    /* animations */
    A->animation_count = 3;
    A->animations = arr(d, 3, sizeof(sinew_model_animation));
    A->timeline_count = 2;
    A->timelines = arr(d, 2, sizeof(sinew_model_timeline));
    sinew_model_animation *spin = &A->animations[0];
    animation(spin, "spin", 10, 0);
    spin->timeline_count = 1;
    spin->key_count = 2;
    spin->keys = arr(d, 2, sizeof(sinew_model_keyframe));
    for (int k = 0; k < 2; ++k) {
        spin->keys[k].position = (float)(5 * k);
        spin->keys[k].duration = 5;
        spin->keys[k].tween = SINEW_TWEEN_LINEAR;
        spin->keys[k].tween_easing = 0;
        spin->keys[k].value = (uint32_t)(2 * k);
    }
    root_rotation(d, &A->timelines[0]);
    sinew_model_animation *tw = &A->animations[1];
    animation(tw, "twice", 4, 2);
    tw->action_frame_count = 1;
    tw->action_frames = arr(d, 1, sizeof(sinew_model_action_frame));
    tw->action_frames[0].position = 2;
    tw->action_frames[0].first_action = 0;
    tw->action_frames[0].action_count = 1;
    sinew_model_animation *cv = &A->animations[2];
    animation(cv, "curve", 10, 1);
    cv->first_timeline = 1;
    cv->timeline_count = 1;
    cv->key_count = 2;
    cv->keys = arr(d, 2, sizeof(sinew_model_keyframe));
    cv->curve_count = 4;
    cv->curves = arr(d, 4, sizeof(float));
    cv->curves[0] = 0.42f;
    cv->curves[1] = 0.0f;
    cv->curves[2] = 0.58f;
    cv->curves[3] = 1.0f;
    cv->keys[0].duration = 10;
    cv->keys[0].tween = SINEW_TWEEN_CURVE;
    cv->keys[0].tween_easing = NAN;
    cv->keys[0].curve_count = 4;
    cv->keys[1].position = 10;
    cv->keys[1].tween = SINEW_TWEEN_NONE;
    cv->keys[1].tween_easing = NAN;
    root_rotation(d, &A->timelines[1]);
    A->default_animation = 0;
}

/* build_rig, prepared for playing. */
static void prepared_rig(rig *r, bool with_ik) {
    build_rig(r, with_ik);
    CHECK(sinew__model_prepare(&r->data, NULL) == SINEW_OK);
}

static void free_rig(rig *r) { sinew__arena_destroy(&r->data.arena); }

static sinew_instance *make(rig *r, const sinew_allocator *al) {
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.allocator = al;
    sinew_instance *inst = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_instance_create(&r->data, &o, &inst, &err) == SINEW_OK);
    return inst;
}

/* prepared_rig and an instance of it (default options). */
static sinew_instance *rig_instance(rig *r, bool with_ik) {
    prepared_rig(r, with_ik);
    return make(r, NULL);
}

static void end_rig(rig *r, sinew_instance *inst) {
    sinew_instance_destroy(inst);
    free_rig(r);
}

static sinew_affine bone_world(sinew_instance *inst, uint32_t b) {
    sinew_affine m = {0, 0, 0, 0, 0, 0};
    sinew_instance_bone(inst, 0, b, NULL, NULL, &m);
    return m;
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void test_prepare_grid_and_unwrap(void) {
    rig r;
    build_rig(&r, false);
    /* root rotation keys 170 deg -> -170 deg: shortest path goes on to 190 deg */
    r.arm->timelines[0].values[0] = (float)(170 * PI / 180);
    r.arm->timelines[0].values[2] = (float)(-170 * PI / 180);
    CHECK(sinew__model_prepare(&r.data, NULL) == SINEW_OK);
    const sinew_model_timeline *T = &r.arm->timelines[0];
    CHECK_NEAR(T->run_values[2], 190 * PI / 180, 1e-5);
    CHECK(T->grid_key_count == 2);
    CHECK(r.arm->animations[0].keys[1].frame_start == 5);
    CHECK(r.arm->animations[0].keys[1].frame_span == 5); /* the last key spans to the end */
    CHECK(T->frame_keys && T->frame_keys[4] == 0 && T->frame_keys[5] == 1 && T->frame_keys[10] == 1);
    free_rig(&r);

    /* two extra clockwise turns (tweenRotate 2 on the first key) */
    build_rig(&r, false);
    r.arm->timelines[0].values[0] = (float)(170 * PI / 180);
    r.arm->timelines[0].values[2] = (float)(-170 * PI / 180);
    r.arm->animations[0].keys[0].tween_rotate = 2;
    CHECK(sinew__model_prepare(&r.data, NULL) == SINEW_OK);
    CHECK_NEAR(r.arm->timelines[0].run_values[2], (-170 + 720) * PI / 180, 1e-4);
    free_rig(&r);
}

/* y of the Bezier easing (0,0) (x1,y1) (x2,y2) (1,1) at x, solved precisely. */
static double bezier_y(double x1, double y1, double x2, double y2, double x) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 80; ++i) {
        double s = (lo + hi) / 2, l = 1 - s;
        double bx = 3 * l * l * s * x1 + 3 * l * s * s * x2 + s * s * s;
        if (bx < x)
            lo = s;
        else
            hi = s;
    }
    double s = (lo + hi) / 2, l = 1 - s;
    return 3 * l * l * s * y1 + 3 * l * s * s * y2 + s * s * s;
}

static void test_curve_samples(void) {
    rig r;
    prepared_rig(&r, false);
    const sinew_model_animation *cv = &r.arm->animations[2];
    const sinew_model_keyframe *k = &cv->keys[0];
    CHECK(k->sample_count == 11); /* span 10 frames + 1 */
    for (uint32_t i = 0; i < k->sample_count; ++i) {
        double t = (double)(i + 1) / (k->sample_count + 1);
        double y = bezier_y(0.42, 0.0, 0.58, 1.0, t);
        CHECK_NEAR(cv->samples[k->sample_first + i] / 10000.0, y, 3e-4);
    }
    /* played: at half time the ease-in-out curve is at 0.5 */
    sinew_instance *inst = make(&r, NULL);
    CHECK(sinew_instance_play(inst, "curve", -1, NULL) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    for (int i = 0; i < 5; ++i)
        sinew_instance_update(inst, 0.125); /* 5 frames of 10 */
    sinew_affine m = bone_world(inst, 0);
    CHECK_NEAR(atan2(m.b, m.a), 0.5, 2e-3);
    end_rig(&r, inst);
}

static void test_tween_and_loop(void) {
    rig r;
    sinew_instance *inst = rig_instance(&r, false);
    CHECK(sinew_instance_play(inst, "spin", -1, NULL) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    /* 8 fps, 10 frames: rotation rises 0 -> 1 over frames 0..5, then back to 0 (the last key
     * tweens to the first while looping) */
    for (int step = 1; step <= 24; ++step) {
        sinew_instance_update(inst, 0.125 / 2);
        double frame = fmod(step * 0.5, 10.0);
        double rot = frame < 5 ? frame / 5 : 1.0 - (frame - 5) / 5;
        sinew_affine root = bone_world(inst, 0), child = bone_world(inst, 1);
        CHECK_NEAR(root.a, cos(rot), 1e-5);
        CHECK_NEAR(root.b, sin(rot), 1e-5);
        CHECK_NEAR(root.tx, 10, 1e-5);
        CHECK_NEAR(child.tx, 10 + 20 * cos(rot), 1e-4);
        CHECK_NEAR(child.ty, 20 * sin(rot), 1e-4);
    }
    end_rig(&r, inst);
}

typedef struct ev_log {
    int start, loop, complete, hit;
    int order[16];
    int n;
} ev_log;

static void on_event(void *user, const sinew_instance *inst, const sinew_event *ev) {
    (void)inst;
    ev_log *l = user;
    if (ev->type == SINEW_EVENT_START)
        l->start++;
    if (ev->type == SINEW_EVENT_LOOP_COMPLETE)
        l->loop++;
    if (ev->type == SINEW_EVENT_COMPLETE)
        l->complete++;
    if (ev->type == SINEW_EVENT_FRAME && strcmp(ev->name, "hit") == 0)
        l->hit++;
    if (l->n < 16)
        l->order[l->n++] = (int)ev->type;
}

static void test_events(void) {
    rig r;
    sinew_instance *inst = rig_instance(&r, false);
    ev_log log;
    memset(&log, 0, sizeof log);
    sinew_instance_set_event_callback(inst, on_event, &log);
    CHECK(sinew_instance_play(inst, "twice", -1, NULL) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    CHECK(log.start == 1);
    CHECK(log.hit == 0);
    /* 4 frames at 8 fps = 0.5 s per loop, two loops */
    int hits_at[8] = {0};
    for (int i = 1; i <= 8; ++i) {
        int before = log.hit;
        sinew_instance_update(inst, 0.125);
        hits_at[i - 1] = log.hit - before;
    }
    CHECK(hits_at[1] == 1 && hits_at[5] == 1); /* frame 2 of each loop */
    CHECK(log.hit == 2);
    CHECK(log.loop == 2);
    CHECK(log.complete == 1);
    sinew_state_info si;
    CHECK(sinew_instance_state(inst, 0, 0, &si) && si.completed && si.current_play_times == 2);
    end_rig(&r, inst);
}

static void test_ik_one_bone(void) {
    rig r;
    sinew_instance *inst = rig_instance(&r, true);
    sinew_instance_update(inst, 0.0);
    sinew_affine c = bone_world(inst, 1);
    /* child at (30, 0) aims at the target (30, 40): straight down (+90 degrees) */
    CHECK_NEAR(c.tx, 30, 1e-4);
    CHECK_NEAR(atan2(c.b, c.a), atan2(40.0, 0.0), 1e-5);
    end_rig(&r, inst);
}

static void test_inherit_rotation_off(void) {
    rig r;
    build_rig(&r, false);
    r.arm->bones[1].inherit_rotation = false;
    CHECK(sinew__model_prepare(&r.data, NULL) == SINEW_OK);
    sinew_instance *inst = make(&r, NULL);
    sinew_instance_play(inst, "spin", -1, NULL);
    sinew_instance_update(inst, 0.0);
    sinew_instance_update(inst, 0.25); /* frame 2: root at 0.4 rad */
    sinew_affine root = bone_world(inst, 0), child = bone_world(inst, 1);
    CHECK_NEAR(atan2(root.b, root.a), 0.4, 1e-5);
    CHECK_NEAR(atan2(child.b, child.a), 0.0, 1e-5); /* keeps its own (zero) rotation */
    CHECK_NEAR(child.tx, 10 + 20 * cos(0.4), 1e-4);  /* but moves with the parent */
    end_rig(&r, inst);
}

static void test_drawlist_image(void) {
    rig r;
    prepared_rig(&r, false);
    struct sinew_atlas atlas;
    memset(&atlas, 0, sizeof atlas);
    sinew__arena_init(&atlas.arena, NULL, 0);
    atlas.page_count = 1;
    atlas.pages = sinew__arena_array(&atlas.arena, 1, sizeof(sinew_model_page));
    atlas.pages[0].name = "page";
    atlas.pages[0].width = 64;
    atlas.pages[0].height = 32;
    atlas.pages[0].scale = 1;
    atlas.region_count = 1;
    atlas.regions = sinew__arena_array(&atlas.arena, 1, sizeof(sinew_model_region));
    atlas.regions[0] = (sinew_model_region){"img", 0, 4, 8, 20, 10, false, false, 0, 0, 0, 0};
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.atlas = &atlas;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(&r.data, &o, &inst, NULL) == SINEW_OK);
    sinew_instance_play(inst, "spin", -1, NULL);
    sinew_instance_update(inst, 0.0);
    sinew_instance_update(inst, 0.25);
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    CHECK(dl.cmd_count == 1 && dl.vertex_count == 4 && dl.index_count == 6);
    /* slot world = child world; corner (-10, -5) (pivot at the centre of 20 x 10) */
    double rot = 0.4;
    double x = -10, y = -5;
    double wx = 10 + 20 * cos(rot) + cos(rot) * x - sin(rot) * y;
    double wy = 20 * sin(rot) + sin(rot) * x + cos(rot) * y;
    CHECK_NEAR(dl.positions[0], wx, 1e-3);
    CHECK_NEAR(dl.positions[1], wy, 1e-3);
    CHECK_NEAR(dl.uvs[0], 4.0 / 64, 1e-6);
    CHECK_NEAR(dl.uvs[1], 8.0 / 32, 1e-6);
    CHECK_NEAR(dl.uvs[4], 24.0 / 64, 1e-6); /* opposite corner */
    CHECK_NEAR(dl.uvs[5], 18.0 / 32, 1e-6);
    sinew_instance_destroy(inst);
    sinew__arena_destroy(&atlas.arena);
    free_rig(&r);
}

static void test_update_never_allocates(void) {
    rig r;
    prepared_rig(&r, true);
    counter cnt = {0, 0};
    sinew_allocator al = {c_alloc, NULL, c_free, &cnt};
    sinew_instance *inst = make(&r, &al);
    CHECK(cnt.allocs == 1); /* one allocation, sized at creation */
    CHECK(sinew_instance_reserve_drawlist(inst, NULL) == SINEW_OK);
    CHECK(cnt.allocs == 2); /* the draw list's storage */
    long in_updates = 0;
    sinew_fade_options fo = sinew_fade_defaults();
    fo.fade_in_time = 0.3;
    for (int i = 0; i < 500; ++i) {
        if (i % 50 == 0)
            sinew_instance_play(inst, "spin", -1, NULL);
        if (i % 50 == 20)
            sinew_instance_fade_in(inst, 0, "twice", &fo, NULL);
        if (i % 50 == 40)
            sinew_instance_goto_and_stop(inst, 0, "curve", SINEW_GOTO_PROGRESS, 0.5, NULL);
        long before = cnt.allocs;
        sinew_instance_update(inst, 1.0 / 60);
        sinew_drawlist dl;
        sinew_instance_drawlist(inst, &dl);
        while (sinew_instance_poll_event(inst, NULL)) {
        }
        in_updates += cnt.allocs - before;
    }
    CHECK(in_updates == 0);
    CHECK(sinew_instance_states_dropped(inst) == 0);
    sinew_instance_destroy(inst);
    CHECK(cnt.frees == cnt.allocs);
    free_rig(&r);
}

/* A surface rig (tests/fixtures/oracle/surface_ske.json: lattices on a bone, on a surface and at
 * the root, children in every hull region) updates without allocating, through cross-fades (pose
 * timelines of the surfaces) and layers, and its slot reads (which record where a slot on a
 * surface was) allocate nothing either. */
static void test_surface_update_never_allocates(void) {
    sinew_data *data = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_file("fixtures/oracle/surface_ske.json", NULL, &data, &err) == SINEW_OK);
    if (!data)
        return;
    counter cnt = {0, 0};
    sinew_allocator al = {c_alloc, NULL, c_free, &cnt};
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(data, &o, &inst, &err) == SINEW_OK);
    CHECK(cnt.allocs == 1);
    CHECK(sinew_instance_reserve_drawlist(inst, NULL) == SINEW_OK);
    long in_updates = 0;
    sinew_fade_options fo = sinew_fade_defaults();
    fo.fade_in_time = 0.25;
    for (int i = 0; i < 400 && inst; ++i) {
        if (i % 80 == 0)
            sinew_instance_play(inst, "wave", -1, NULL);
        if (i % 80 == 30)
            sinew_instance_fade_in(inst, 0, "sway", &fo, NULL);
        if (i % 80 == 55) {
            sinew_fade_options f2 = fo;
            f2.layer = 1;
            f2.weight = 0.5;
            sinew_instance_fade_in(inst, 0, "idle", &f2, NULL);
        }
        long before = cnt.allocs;
        sinew_instance_update(inst, 1.0 / 60);
        sinew_drawlist dl;
        sinew_instance_drawlist(inst, &dl);
        for (uint32_t k = 0; k < sinew_instance_slot_count(inst, 0); ++k) {
            sinew_slot_state ss;
            sinew_instance_slot(inst, 0, k, &ss);
        }
        while (sinew_instance_poll_event(inst, NULL)) {
        }
        in_updates += cnt.allocs - before;
    }
    CHECK(in_updates == 0);
    CHECK(sinew_instance_states_dropped(inst) == 0);
    sinew_instance_destroy(inst);
    CHECK(cnt.frees == cnt.allocs);
    sinew_data_destroy(data);
}

/* States past reserved_states get their storage from the call that starts them (counted by
 * sinew_instance_memory, freed with the instance), up to max_states; past that a new state takes
 * the place of one and is counted, never lost silently. */
static void test_state_storage_grows_on_request(void) {
    rig r;
    prepared_rig(&r, true);
    counter cnt = {0, 0};
    sinew_allocator al = {c_alloc, NULL, c_free, &cnt};
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    o.max_states = 5;
    o.reserved_states = 1;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(&r.data, &o, &inst, NULL) == SINEW_OK);
    if (!inst)
        return;
    size_t base = sinew_instance_memory(inst);
    sinew_fade_options fo = sinew_fade_defaults();
    fo.fade_in_time = 10.0; /* every earlier state is still fading out */
    fo.fade_out_mode = SINEW_FADE_OUT_NONE;
    static const char *const names[] = {"spin", "twice", "curve"};
    size_t last = base;
    for (int i = 0; i < 5; ++i) {
        CHECK(sinew_instance_fade_in(inst, 0, names[i % 3], &fo, NULL) == SINEW_OK);
        sinew_instance_update(inst, 1.0 / 60);
        CHECK(sinew_instance_state_count(inst, 0) == (uint32_t)i + 1);
        size_t now = sinew_instance_memory(inst);
        CHECK(i == 0 ? now == base : now > last); /* the first state is reserved */
        last = now;
    }
    CHECK(cnt.allocs == 5); /* the instance and 4 states' storage */
    CHECK(sinew_instance_states_dropped(inst) == 0);
    CHECK(sinew_instance_fade_in(inst, 0, "spin", &fo, NULL) == SINEW_OK); /* the sixth */
    CHECK(sinew_instance_state_count(inst, 0) == 5);
    CHECK(sinew_instance_states_dropped(inst) == 1);
    CHECK(cnt.allocs == 5 && sinew_instance_memory(inst) == last);
    sinew_instance_destroy(inst);
    CHECK(cnt.frees == cnt.allocs);
    free_rig(&r);
}

static void test_bad_input(void) {
    rig r;
    sinew_instance *inst = rig_instance(&r, false);
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_instance_play(inst, "nope", -1, &err) == SINEW_E_NOT_FOUND);
    CHECK(strstr(err.message, "nope") && strstr(err.message, "spin") && strstr(err.message, "twice"));
    sinew_instance_play(inst, "spin", -1, NULL);
    sinew_instance_update(inst, 0.3);
    sinew_affine before = bone_world(inst, 1);
    sinew_instance_update(inst, NAN);
    sinew_instance_update(inst, INFINITY);
    sinew_affine after = bone_world(inst, 1);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    sinew_instance_update(inst, 1e300); /* clamped; the pose stays finite */
    after = bone_world(inst, 1);
    CHECK(isfinite(after.a) && isfinite(after.tx) && isfinite(after.ty));
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.armature = "missing";
    sinew_instance *bad = NULL;
    memset(&err, 0, sizeof err);
    CHECK(sinew_instance_create(&r.data, &o, &bad, &err) == SINEW_E_NOT_FOUND && bad == NULL);
    CHECK(strstr(err.message, "'arm'") != NULL);
    o.armature = NULL;
    o.skin = "gold";
    memset(&err, 0, sizeof err);
    CHECK(sinew_instance_create(&r.data, &o, &bad, &err) == SINEW_E_NOT_FOUND && bad == NULL);
    end_rig(&r, inst);
}

/* A 4.5 animation frame whose event names a bone that has a combined bone timeline is still an
 * animation-level event (the official parser merges it with the animation frames); a bone
 * frame's own event fires at its key. */
typedef struct named_log {
    int n;
    char names[8][16];
    char bones[8][16];
    int at[8];
    int tick;
} named_log;

static void on_named(void *user, const sinew_instance *inst, const sinew_event *ev) {
    (void)inst;
    named_log *l = user;
    if (ev->type != SINEW_EVENT_FRAME || l->n >= 8)
        return;
    snprintf(l->names[l->n], sizeof l->names[0], "%s", ev->name);
    snprintf(l->bones[l->n], sizeof l->bones[0], "%s", ev->bone ? ev->bone : "");
    l->at[l->n] = l->tick;
    l->n++;
}

static void test_event_tagged_with_bone_45(void) {
    static const char json[] =
        "{\"version\":\"4.5\",\"name\":\"t\",\"frameRate\":10,\"armature\":[{\"name\":\"arm\",\"type\":\"Armature\","
        "\"bone\":[{\"name\":\"root\",\"transform\":{}}],\"slot\":[],\"skin\":[{\"name\":\"\",\"slot\":[]}],"
        "\"animation\":[{\"name\":\"a\",\"duration\":10,\"playTimes\":1,"
        "\"frame\":[{\"duration\":5},{\"duration\":5,\"events\":[{\"name\":\"step\",\"bone\":\"root\"}]}],"
        "\"bone\":[{\"name\":\"root\",\"frame\":[{\"duration\":3,\"transform\":{}},"
        "{\"duration\":7,\"transform\":{\"x\":1},\"event\":\"hit\"}]}]}]}]}";
    sinew_data *data = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(json, sizeof json - 1, "t.json", NULL, &data, &err) == SINEW_OK);
    if (!data)
        return;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(data, NULL, &inst, &err) == SINEW_OK);
    named_log log;
    memset(&log, 0, sizeof log);
    sinew_instance_set_event_callback(inst, on_named, &log);
    CHECK(sinew_instance_play(inst, "a", -1, NULL) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    for (log.tick = 1; log.tick <= 12; ++log.tick)
        sinew_instance_update(inst, 0.1);
    /* 10 fps. Official merge: the animation frames give [0, 5]; the bone frame at 3 is then
     * inserted one place after the first later frame, giving [0, 5, 3], which the frame grid lays
     * out as 0 -> 0, 5 -> 5 and the last one at the first free frame, 6. So "step" (tagged with
     * the bone, but an animation frame) fires on tick 5 and the bone frame's "hit" on tick 6
     * (the official runtime run on this file agrees). */
    CHECK(log.n == 2);
    CHECK_STR(log.names[0], "step");
    CHECK_STR(log.bones[0], "root");
    CHECK(log.at[0] == 5);
    CHECK_STR(log.names[1], "hit");
    CHECK_STR(log.bones[1], "root");
    CHECK(log.at[1] == 6);
    sinew_instance_destroy(inst);
    sinew_data_destroy(data);
}

/* The DragonBones blendMode strings (the format's own list, in the enum's order), and NULL past it. */
static void test_blend_mode_names(void) {
    static const char *const dragonbones[] = {"normal", "add", "alpha", "darken", "difference", "erase", "hardlight",
                                              "invert", "layer", "lighten", "multiply", "overlay", "screen", "subtract"};
    CHECK(sizeof dragonbones / sizeof dragonbones[0] == SINEW_BLEND_COUNT);
    for (int i = 0; i < SINEW_BLEND_COUNT; i++) {
        const char *n = sinew_blend_mode_name((sinew_blend_mode)i);
        CHECK(n && strcmp(n, dragonbones[i]) == 0);
    }
    CHECK(sinew_blend_mode_name(SINEW_BLEND_COUNT) == NULL);
    CHECK(sinew_blend_mode_name((sinew_blend_mode)-1) == NULL);
}

int main(void) {
    RUN(test_blend_mode_names);
    RUN(test_prepare_grid_and_unwrap);
    RUN(test_curve_samples);
    RUN(test_tween_and_loop);
    RUN(test_events);
    RUN(test_event_tagged_with_bone_45);
    RUN(test_ik_one_bone);
    RUN(test_inherit_rotation_off);
    RUN(test_drawlist_image);
    RUN(test_update_never_allocates);
    RUN(test_surface_update_never_allocates);
    RUN(test_state_storage_grows_on_request);
    RUN(test_bad_input);
    return test_summary();
}
