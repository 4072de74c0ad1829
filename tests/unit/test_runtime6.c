/* The DragonBones 6.0 runtime's pieces on small rigs whose answers are worked out here from the
 * official 6.0.2 formulas (docs/dragonbones-6.0.md; the conformance against the official runtime
 * itself is cli.v6_conformance): physics stepping from the clock's floating-point sum (ties at
 * 30 Hz with a 60 fps constraint), sleep before any force, the random source and its options, no
 * physics off the clock, transform constraints in world and local mode, snip against chain, and
 * timelineConfig loop, hold, scale and offset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/data.h"
#include "sinew/instance.h"
#include "testlib.h"

#define PI 3.14159265358979323846

static sinew_data *load(const char *json) {
    sinew_data *data = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    if (sinew_data_load_buffer(json, strlen(json), "t6.json", NULL, &data, &err) != SINEW_OK)
        fprintf(stderr, "load: %s\n", err.message);
    return data;
}

static sinew_instance *start(const sinew_data *data, const sinew_instance_options *opt, const char *anim) {
    sinew_instance *inst = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    if (sinew_instance_create(data, opt, &inst, &err) != SINEW_OK) {
        fprintf(stderr, "create: %s\n", err.message);
        return NULL;
    }
    if (anim)
        CHECK(sinew_instance_play(inst, anim, 0, &err) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    return inst;
}

/* The physics constraint named `name` now. */
static sinew_constraint_state physics(const sinew_instance *inst, const char *name) {
    sinew_constraint_state c;
    memset(&c, 0, sizeof c);
    for (uint32_t i = 0; i < sinew_instance_constraint_count(inst, 0); ++i)
        if (sinew_instance_constraint(inst, 0, i, &c) && c.type == SINEW_CONSTRAINT_PHYSICS && strcmp(c.name, name) == 0)
            return c;
    CHECK(!"no such physics constraint");
    return c;
}

static sinew_affine bone(const sinew_instance *inst, const char *name) {
    sinew_affine m;
    memset(&m, 0, sizeof m);
    for (uint32_t b = 0; b < sinew_instance_bone_count(inst, 0); ++b) {
        const char *n = NULL;
        if (sinew_instance_bone(inst, 0, b, &n, NULL, &m) && strcmp(n, name) == 0)
            return m;
    }
    CHECK(!"no such bone");
    return m;
}

#define HEAD "{\"version\":\"6.0\",\"name\":\"t\",\"frameRate\":30,\"armature\":[{\"name\":\"a\",\"type\":\"Armature\","
#define TAIL "\"slot\":[],\"skin\":[{\"name\":\"\",\"slot\":[]}]"

/* A physics bone under a rotated parent (its stale global never settles: it never sleeps) at
 * 60 fps, sampled at 30 Hz: each update's `remaining` is the official sum, operation for
 * operation: time += 1/30 (the clock), delta = time - lastTime, remaining += delta, then steps of
 * 1/60 while remaining >= 1/60. Some updates end a whole step short (a tie decided by the last bit
 * of the sum): they must be there, and match. */
static void test_physics_clock_ties(void) {
    static const char json[] = HEAD "\"bone\":[{\"name\":\"p\",\"transform\":{\"skX\":30,\"skY\":30}},"
                                    "{\"name\":\"b\",\"parent\":\"p\",\"length\":40}],"
                                    "\"physics\":[{\"name\":\"ph\",\"bone\":\"b\",\"rotate\":1,\"limit\":5000,\"fps\":60,"
                                    "\"inertia\":1,\"strength\":100,\"damping\":0.1,\"mass\":1,\"weight\":1,\"gravity\":1}],"
                                    TAIL ",\"animation\":[{\"name\":\"idle\",\"duration\":30}]}]}";
    sinew_data *data = load(json);
    if (!data)
        return;
    sinew_instance *inst = start(data, NULL, "idle");
    sinew_constraint_state c = physics(inst, "ph");
    CHECK(!c.reset && c.remaining == 0.0 && c.last_time == 0.0); /* the first update resets */
    double time = 0.0, last = 0.0, remaining = 0.0, dt = 1.0 / 30.0, step = 1.0 / 60.0;
    int short_updates = 0, bad = 0;
    for (int k = 1; k <= 300; ++k) {
        sinew_instance_update(inst, dt);
        time += dt;
        remaining += fmax(time - last, 0.0);
        last = time;
        int steps = 0;
        if (k > 1) /* the second update only records the bone's place */
            while (remaining >= step) {
                remaining -= step;
                steps++;
            }
        if (k > 1 && steps < 2)
            short_updates++;
        c = physics(inst, "ph");
        if (c.remaining != remaining || c.last_time != time || c.sleeping)
            bad++;
    }
    CHECK(bad == 0);
    CHECK(short_updates > 0); /* the ties happen */
    sinew_instance_destroy(inst);
    sinew_data_destroy(data);
}

/* Gravity on a bone nothing moves, under an unrotated parent: the constraint falls asleep in its
 * second update (the one that only records the bone's place), before any force acted, and stays
 * asleep: its clock time stops, the bone never moves. Off the clock (no_clock) it never runs. */
static void test_physics_sleep_and_no_clock(void) {
    static const char json[] = HEAD "\"bone\":[{\"name\":\"p\"},{\"name\":\"b\",\"parent\":\"p\",\"length\":40,"
                                    "\"transform\":{\"x\":10}}],"
                                    "\"physics\":[{\"name\":\"ph\",\"bone\":\"b\",\"x\":1,\"y\":1,\"limit\":500,\"fps\":60,"
                                    "\"inertia\":1,\"strength\":10,\"damping\":0.1,\"mass\":1,\"weight\":1,\"gravity\":3}],"
                                    TAIL ",\"animation\":[{\"name\":\"idle\",\"duration\":30}]}]}";
    sinew_data *data = load(json);
    if (!data)
        return;
    sinew_instance *inst = start(data, NULL, "idle");
    sinew_instance_update(inst, 1.0 / 30.0);
    sinew_constraint_state c = physics(inst, "ph");
    CHECK(c.sleeping && c.last_time == 1.0 / 30.0);
    for (int k = 0; k < 20; ++k)
        sinew_instance_update(inst, 1.0 / 30.0);
    c = physics(inst, "ph");
    CHECK(c.sleeping && c.last_time == 1.0 / 30.0 && c.y_offset == 0.0);
    sinew_affine m = bone(inst, "b");
    CHECK(m.tx == 10.0f && m.ty == 0.0f);
    sinew_instance_destroy(inst);

    sinew_instance_options opt;
    memset(&opt, 0, sizeof opt);
    opt.no_clock = true;
    inst = start(data, &opt, "idle");
    for (int k = 0; k < 5; ++k)
        sinew_instance_update(inst, 1.0 / 30.0);
    c = physics(inst, "ph");
    CHECK(c.reset && !c.sleeping && c.last_time == 0.0); /* never ran: still waiting for its reset */
    sinew_instance_destroy(inst);
    sinew_data_destroy(data);
}

typedef struct draws {
    int n;
    double value;
} draws;

static double counted(void *user) {
    draws *d = user;
    d->n++;
    return d->value;
}

/* One draw per awake physics update with a clock (the reset update too), in bone order; the
 * disturbance is (2r - 1) windDisturbance: r = 0.75 makes a wind of 1 with a disturbance of 1 act
 * as a wind of 1.5. Bad options are refused. */
static void test_random_source(void) {
    static const char json[] = HEAD "\"bone\":[{\"name\":\"p\",\"transform\":{\"skX\":20,\"skY\":20}},"
                                    "{\"name\":\"b\",\"parent\":\"p\",\"length\":40},{\"name\":\"c\",\"parent\":\"p\",\"length\":40}],"
                                    "\"physics\":[{\"name\":\"d\",\"bone\":\"b\",\"x\":1,\"limit\":500,\"fps\":60,\"strength\":10,"
                                    "\"mass\":1,\"weight\":1,\"wind\":1,\"windDisturbance\":1},"
                                    "{\"name\":\"w\",\"bone\":\"c\",\"x\":1,\"limit\":500,\"fps\":60,\"strength\":10,"
                                    "\"mass\":1,\"weight\":1,\"wind\":1.5}],"
                                    TAIL ",\"animation\":[{\"name\":\"idle\",\"duration\":30}]}]}";
    sinew_data *data = load(json);
    if (!data)
        return;
    draws d = {0, 0.75};
    sinew_instance_options opt;
    memset(&opt, 0, sizeof opt);
    opt.random = SINEW_RANDOM_CALLBACK;
    opt.random_fn = counted;
    opt.random_user = &d;
    sinew_instance *inst = start(data, &opt, "idle");
    CHECK(d.n == 2); /* the reset update: both constraints draw (one of them without disturbance) */
    for (int k = 0; k < 10; ++k)
        sinew_instance_update(inst, 1.0 / 30.0);
    CHECK(d.n == 22);
    sinew_constraint_state a = physics(inst, "d"), b = physics(inst, "w");
    CHECK(a.x_offset == b.x_offset && a.x_offset != 0.0);
    sinew_instance_destroy(inst);
    sinew_error err;
    memset(&err, 0, sizeof err);
    opt.random = SINEW_RANDOM_CONSTANT;
    opt.random_constant = 1.0;
    CHECK(sinew_instance_create(data, &opt, &inst, &err) == SINEW_E_ARG);
    opt.random = SINEW_RANDOM_CALLBACK;
    opt.random_fn = NULL;
    CHECK(sinew_instance_create(data, &opt, &inst, &err) == SINEW_E_ARG);
    sinew_data_destroy(data);
}

/* A transform constraint with weights 1: the bone's world position is the target's (world mode:
 * its world transform; local mode: its transform in its parent's space) plus the offset, its
 * rotation the target's plus the offset's skX, its scales the target's plus scX / scY. */
static void test_transform_world_local(void) {
    static const char json[] =
        HEAD "\"bone\":[{\"name\":\"r\"},{\"name\":\"par\",\"parent\":\"r\",\"transform\":{\"x\":10,\"y\":20,\"skX\":30,\"skY\":30}},"
        "{\"name\":\"tgt\",\"parent\":\"par\",\"transform\":{\"x\":100,\"skX\":90,\"skY\":90,\"scX\":2}},"
        "{\"name\":\"w\",\"parent\":\"r\",\"transform\":{\"y\":50}},{\"name\":\"l\",\"parent\":\"r\",\"transform\":{\"y\":-50}}],"
        "\"transform\":[{\"name\":\"tw\",\"target\":\"tgt\",\"bones\":[\"w\"],\"offset\":{\"x\":5,\"y\":-3,\"skX\":10,"
        "\"scX\":0.5},\"translateWeight\":1,\"rotateWeight\":1,\"scaleWeight\":1},"
        "{\"name\":\"tl\",\"target\":\"tgt\",\"bones\":[\"l\"],\"offset\":{},\"local\":true,\"translateWeight\":1,"
        "\"rotateWeight\":1,\"scaleWeight\":1}]," TAIL ",\"animation\":[{\"name\":\"idle\",\"duration\":3}]}]}";
    sinew_data *data = load(json);
    if (!data)
        return;
    sinew_instance *inst = start(data, NULL, "idle");
    /* the target in world space: the parent (10, 20) turned 30 degrees, the target 100 along it */
    double c30 = cos(PI / 6.0), s30 = sin(PI / 6.0);
    double tx = 10.0 + 100.0 * c30, ty = 20.0 + 100.0 * s30, rot = PI / 6.0 + PI / 2.0 + 10.0 * PI / 180.0;
    sinew_affine w = bone(inst, "w");
    CHECK_NEAR(w.tx, tx + 5.0, 1e-3);
    CHECK_NEAR(w.ty, ty - 3.0, 1e-3);
    CHECK_NEAR(w.a, 2.5 * cos(rot), 1e-5);
    CHECK_NEAR(w.b, 2.5 * sin(rot), 1e-5);
    CHECK_NEAR(w.c, -sin(rot), 1e-5);
    CHECK_NEAR(w.d, cos(rot), 1e-5);
    sinew_affine l = bone(inst, "l"); /* the target's own (100, 0), 90 degrees, scale 2 */
    CHECK_NEAR(l.tx, 100.0, 1e-3);
    CHECK_NEAR(l.ty, 0.0, 1e-3);
    CHECK_NEAR(l.a, 0.0, 1e-5);
    CHECK_NEAR(l.b, 2.0, 1e-5);
    CHECK_NEAR(l.c, -1.0, 1e-5);
    CHECK_NEAR(l.d, 0.0, 1e-5);
    sinew_instance_destroy(inst);
    sinew_data_destroy(data);
}

/* Two bones of length 50 on a straight 100-long path (controls at thirds: the curve is linear in
 * its parameter), percent spacing 30: the samples are at 0, 30 and 60. Chain mode moves the next
 * sample to the bone's tip (the second bone at 50); snip does not (at 30). */
static void test_path_snip(void) {
    char json[2048];
    for (int mode = 1; mode <= 3; mode += 2) {
        snprintf(json, sizeof json,
                 HEAD "\"bone\":[{\"name\":\"r\"},{\"name\":\"b0\",\"parent\":\"r\",\"length\":50},"
                 "{\"name\":\"b1\",\"parent\":\"b0\",\"length\":50,\"transform\":{\"x\":50}}],"
                 "\"slot\":[{\"name\":\"p\",\"parent\":\"r\"}],\"skin\":[{\"name\":\"\",\"slot\":[{\"name\":\"p\",\"display\":"
                 "[{\"type\":\"path\",\"name\":\"p\",\"lengths\":[100],\"vertexCount\":6,\"vertices\":"
                 "[-33.333333333333336,0,0,0,33.333333333333336,0,66.66666666666667,0,100,0,133.33333333333334,0]}]}]}],"
                 "\"path\":[{\"name\":\"pc\",\"target\":\"p\",\"bones\":[\"b0\",\"b1\"],\"positionMode\":1,"
                 "\"spacingMode\":2,\"spacing\":30,\"rotateMode\":%d}],"
                 "\"animation\":[{\"name\":\"idle\",\"duration\":3}]}]}",
                 mode);
        sinew_data *data = load(json);
        if (!data)
            return;
        sinew_instance *inst = start(data, NULL, "idle");
        sinew_affine b1 = bone(inst, "b1");
        CHECK_NEAR(b1.tx, mode == 1 ? 50.0 : 30.0, 1e-3);
        CHECK_NEAR(b1.ty, 0.0, 1e-3);
        sinew_instance_destroy(inst);
        sinew_data_destroy(data);
    }
}

/* A rotate timeline of 12 frames in a 24-frame animation (keys 0, 60, -30 degrees at frames 0, 4,
 * 8, linear), at 24 fps: looping, frame 14 is the timeline's frame 2 (30 degrees); not looping,
 * the time holds at D + 1e-6 s and the last key tweens towards the first over the rest of the
 * animation, frozen at (12 - 8) / (24 - 8) = 1/4 of the way (-22.5 degrees); scale 2 and offset 1
 * frame put frame 3 at the timeline's frame 7 (60 + (-90) 3/4 = -7.5 degrees). */
static void test_timeline_config(void) {
    static const char *const configs[] = {"{\"loop\":true}", "{}", "{\"scale\":2,\"offset\":1}"};
    static const int frames[] = {14, 14, 3};
    static const double expect[] = {30.0, -22.5, -7.5};
    char json[2048];
    for (int i = 0; i < 3; ++i) {
        snprintf(json, sizeof json,
                 "{\"version\":\"6.0\",\"name\":\"t\",\"frameRate\":24,\"armature\":[{\"name\":\"a\",\"type\":\"Armature\","
                 "\"frameRate\":24,\"bone\":[{\"name\":\"b\"}]," TAIL ",\"animation\":[{\"name\":\"c\",\"duration\":24,"
                 "\"playTimes\":0,\"bone\":[{\"name\":\"b\",\"rotateFrame\":[{\"duration\":4,\"tweenEasing\":0,\"rotate\":0},"
                 "{\"duration\":4,\"tweenEasing\":0,\"rotate\":60},{\"duration\":4,\"tweenEasing\":0,\"rotate\":-30}],"
                 "\"timelineConfig\":{\"rotateFrame\":%s}}]}]}]}",
                 configs[i]);
        sinew_data *data = load(json);
        if (!data)
            return;
        sinew_instance *inst = start(data, NULL, "c");
        for (int k = 0; k < frames[i]; ++k)
            sinew_instance_update(inst, 1.0 / 24.0);
        sinew_affine b = bone(inst, "b");
        CHECK_NEAR(atan2(b.b, b.a) * 180.0 / PI, expect[i], 1e-3);
        sinew_instance_destroy(inst);
        sinew_data_destroy(data);
    }
}

int main(void) {
    RUN(test_physics_clock_ties);
    RUN(test_physics_sleep_and_no_clock);
    RUN(test_random_source);
    RUN(test_transform_world_local);
    RUN(test_path_snip);
    RUN(test_timeline_config);
    return test_summary();
}
