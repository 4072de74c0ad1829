/* sinew_crowd_update and sinew_crowd_update_part give, bit for bit, what one sinew_instance_update
 * and sinew_instance_drawlist per instance on one thread give: bone world matrices, slot states,
 * events and whole draw lists (positions, UVs, indices, commands), through cross-fades started
 * between ticks, for a crowd of an odd size (uneven blocks and parts), on several thread counts.
 * Rigs: the repository's own fixtures (surfaces, slot actions on child armatures, 6.0 physics,
 * masks, shapes and paths), and with
 * ../shared the real characters with their atlases (meshes, child armatures, frame events). Also:
 * a NULL entry gets an empty draw list, and a draw list that cannot be allocated is reported. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting_alloc.h"
#include "sinew/sinew.h"
#include "testlib.h"

enum { CROWD = 37, TICKS = 150 };

typedef struct rig_case {
    const char *skeleton, *atlas, *armature; /* atlas, armature: NULL = none, the first */
} rig_case;

static sinew_instance *make(const sinew_data *data, const sinew_atlas *atlas, const char *armature) {
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.armature = armature;
    o.atlas = atlas;
    o.random = SINEW_RANDOM_SEED; /* 6.0 physics: each instance its own generator, the same seed */
    o.random_seed = 7;
    sinew_instance *inst = NULL;
    CHECK(sinew_instance_create(data, &o, &inst, NULL) == SINEW_OK);
    return inst;
}

/* the animation names of the instance's top armature */
static uint32_t anim_names(const sinew_data *data, const char *armature, const char **names, uint32_t cap) {
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    for (uint32_t a = 0; a < di.armature_count; ++a) {
        sinew_armature_info ai;
        if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
            continue;
        if (armature && strcmp(ai.name, armature) != 0)
            continue;
        uint32_t n = 0;
        for (uint32_t k = 0; k < ai.animation_count && n < cap; ++k) {
            sinew_animation_info ni;
            if (sinew_data_get_animation_info(data, a, k, &ni) == SINEW_OK)
                names[n++] = ni.name;
        }
        return n;
    }
    return 0;
}

/* What the two crowds must agree on after a tick: every bone, slot, event and the draw list. */
static int same_instance(sinew_instance *a, sinew_instance *b, const sinew_drawlist *da, const sinew_drawlist *db) {
    int bad = 0;
    uint32_t arms = sinew_instance_armature_count(a);
    if (arms != sinew_instance_armature_count(b))
        return 1;
    for (uint32_t ai = 0; ai < arms; ++ai) {
        for (uint32_t k = 0; k < sinew_instance_bone_count(a, ai); ++k) {
            sinew_affine wa, wb;
            sinew_instance_bone(a, ai, k, NULL, NULL, &wa);
            sinew_instance_bone(b, ai, k, NULL, NULL, &wb);
            bad |= memcmp(&wa, &wb, sizeof wa) != 0;
        }
        for (uint32_t k = 0; k < sinew_instance_slot_count(a, ai); ++k) {
            sinew_slot_state sa, sb;
            bool va = sinew_instance_slot(a, ai, k, &sa), vb = sinew_instance_slot(b, ai, k, &sb);
            bad |= va != vb;
            if (va && vb)
                bad |= sa.display_index != sb.display_index || memcmp(&sa.world, &sb.world, sizeof sa.world) != 0 ||
                       memcmp(&sa.color, &sb.color, sizeof sa.color) != 0;
        }
    }
    sinew_event ea, eb;
    for (;;) {
        bool ga = sinew_instance_poll_event(a, &ea), gb = sinew_instance_poll_event(b, &eb);
        bad |= ga != gb;
        if (!ga || !gb)
            break;
        bad |= ea.type != eb.type || strcmp(ea.name, eb.name) != 0 || strcmp(ea.animation, eb.animation) != 0 ||
               ea.time != eb.time || ea.armature_index != eb.armature_index;
    }
    bad |= da->vertex_count != db->vertex_count || da->index_count != db->index_count || da->cmd_count != db->cmd_count;
    if (!bad) {
        bad |= memcmp(da->positions, db->positions, da->vertex_count * 2 * sizeof(float)) != 0;
        bad |= memcmp(da->uvs, db->uvs, da->vertex_count * 2 * sizeof(float)) != 0;
        bad |= memcmp(da->indices, db->indices, da->index_count * sizeof(uint32_t)) != 0;
        bad |= memcmp(da->cmds, db->cmds, da->cmd_count * sizeof(sinew_draw_cmd)) != 0;
    }
    return bad;
}

typedef struct part_job {
    sinew_instance **crowd;
    sinew_drawlist *dls;
    double dt;
    uint32_t part, parts;
} part_job;

static void *run_part(void *arg) {
    part_job *j = arg;
    sinew_crowd_update_part(j->crowd, CROWD, j->dt, j->dls, j->part, j->parts);
    return NULL;
}

/* One rig: CROWD instances out of phase, updated singly (reference) and by crowd calls. */
static void crowd_case(const rig_case *rc) {
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_file(rc->skeleton, NULL, &data, &err) == SINEW_OK);
    if (!data) {
        fprintf(stderr, "%s: %s\n", rc->skeleton, err.message);
        return;
    }
    if (rc->atlas)
        CHECK(sinew_atlas_load_file(rc->atlas, NULL, &atlas, &err) == SINEW_OK);
    const char *names[64];
    uint32_t nn = anim_names(data, rc->armature, names, 64);
    CHECK(nn > 0);
    sinew_instance *ref[CROWD] = {0}, *crowd[CROWD] = {0}; /* NULL: what a failed set-up leaves to destroy */
    sinew_drawlist ref_dl[CROWD], crowd_dl[CROWD];
    for (int i = 0; i < CROWD; ++i) {
        ref[i] = make(data, atlas, rc->armature);
        crowd[i] = make(data, atlas, rc->armature);
        if (!ref[i] || !crowd[i] || nn == 0)
            goto out;
        const char *anim = names[(uint32_t)i % nn];
        double start = fmod(i * 0.0371, 1.0);
        CHECK(sinew_instance_goto_and_play(ref[i], 0, anim, SINEW_GOTO_TIME, start, 0, NULL) == SINEW_OK);
        CHECK(sinew_instance_goto_and_play(crowd[i], 0, anim, SINEW_GOTO_TIME, start, 0, NULL) == SINEW_OK);
    }
    /* thread counts per tick: one per core, 1, 2, 3, 4, 64 (more than blocks), and fixed parts */
    static const int threads[] = {0, 1, 2, 3, 4, 64, -3, -5};
    int mismatched_ticks = 0;
    for (int t = 0; t < TICKS; ++t) {
        const double dt = t % 7 == 3 ? 1.0 / 30 : 1.0 / 60;
        if (t % 40 == 20) { /* a cross-fade between ticks, the same on both crowds */
            sinew_fade_options fo = sinew_fade_defaults();
            fo.fade_in_time = 0.2;
            for (int i = 0; i < CROWD; ++i) {
                const char *anim = names[((uint32_t)i + (uint32_t)t / 40) % nn];
                sinew_instance_fade_in(ref[i], 0, anim, &fo, NULL);
                sinew_instance_fade_in(crowd[i], 0, anim, &fo, NULL);
            }
        }
        for (int i = 0; i < CROWD; ++i) {
            sinew_instance_update(ref[i], dt);
            sinew_instance_drawlist(ref[i], &ref_dl[i]);
        }
        int th = threads[t % (int)(sizeof threads / sizeof threads[0])];
        if (th >= 0) {
            CHECK(sinew_crowd_update(crowd, CROWD, dt, (uint32_t)th, crowd_dl, NULL) == SINEW_OK);
        } else { /* parts on threads of the caller's own */
            uint32_t parts = (uint32_t)-th;
            part_job jobs[8];
            pthread_t tid[8];
            for (uint32_t p = 0; p < parts; ++p) {
                jobs[p] = (part_job){crowd, crowd_dl, dt, p, parts};
                CHECK(pthread_create(&tid[p], NULL, run_part, &jobs[p]) == 0);
            }
            for (uint32_t p = 0; p < parts; ++p)
                pthread_join(tid[p], NULL);
        }
        int bad = 0;
        for (int i = 0; i < CROWD; ++i)
            bad |= same_instance(ref[i], crowd[i], &ref_dl[i], &crowd_dl[i]);
        mismatched_ticks += bad;
    }
    CHECK(mismatched_ticks == 0);
    if (mismatched_ticks)
        fprintf(stderr, "%s: %d of %d ticks differ\n", rc->skeleton, mismatched_ticks, TICKS);
out:
    for (int i = 0; i < CROWD; ++i) {
        sinew_instance_destroy(ref[i]);
        sinew_instance_destroy(crowd[i]);
    }
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static void test_crowd_own_fixtures(void) {
    static const rig_case cases[] = {
        {"fixtures/oracle/surface_ske.json", NULL, NULL},
        {"fixtures/oracle/slot_actions_ske.json", NULL, NULL},
        {"fixtures/oracle/path_ske.json", NULL, NULL},
        /* DragonBones 6.0: physics (the clock and the random source per instance), masks, shapes,
           6.0 path constraints */
        {"fixtures/v6/physics_wind_ske.json", "fixtures/v6/v6_tex.json", NULL},
        {"fixtures/v6/physics_sleep_ske.json", "fixtures/v6/v6_tex.json", NULL},
        {"fixtures/v6/masks_ske.json", "fixtures/v6/v6_tex.json", NULL},
        {"fixtures/v6/shapes_ske.json", "fixtures/v6/v6_tex.json", NULL},
        {"fixtures/v6/path_closed_bound_ske.json", "fixtures/v6/v6_tex.json", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        crowd_case(&cases[i]);
}

static void test_crowd_shared_characters(void) {
    static const char *const rigs[][3] = {
        {"you_xin_body_5.5/body_ske.json", "you_xin_body_5.5/body_tex.json", "body"},
        {"mecha_1502b_5.5/mecha_1502b_ske.json", "mecha_1502b_5.5/mecha_1502b_tex.json", "mecha_1502b"},
        {"Knight_4.5/Knight.json", "Knight_4.5/Knight_texture_1.json", "knight"},
        {"dragon_boy_5.0/dragon_boy_ske.json", "dragon_boy_5.0/dragon_boy_tex.json", "DragonBoy"},
    };
    const char *shared = test_need_shared(4, "crowds of shared characters");
    if (!shared)
        return;
    for (size_t i = 0; i < sizeof rigs / sizeof rigs[0]; ++i) {
        char ske[1024], tex[1024];
        snprintf(ske, sizeof ske, "%s/data/dragonbones/%s", shared, rigs[i][0]);
        snprintf(tex, sizeof tex, "%s/data/dragonbones/%s", shared, rigs[i][1]);
        rig_case rc = {ske, tex, rigs[i][2]};
        crowd_case(&rc);
    }
}

static void test_crowd_arguments(void) {
    CHECK(sinew_crowd_update(NULL, 0, 1.0 / 60, 2, NULL, NULL) == SINEW_OK);
    CHECK(sinew_crowd_update(NULL, 3, 1.0 / 60, 2, NULL, NULL) == SINEW_E_ARG);
    sinew_instance *none[3] = {NULL, NULL, NULL};
    CHECK(sinew_crowd_update(none, 3, 1.0 / 60, 2, NULL, NULL) == SINEW_OK); /* NULL entries skipped */
    sinew_crowd_update_part(none, 3, 1.0 / 60, NULL, 5, 2);                  /* part >= parts: nothing */
}

enum { SMALL_CROWD = 20 }; /* three blocks of 8: every thread count below takes more than one */
static const char *const PIP = "fixtures/own/Pip_5.5/pip_ske.json";
static const char *const PIP_TEX = "fixtures/own/Pip_5.5/pip_tex.json";

/* The vertices a renderer would read from a draw list, summed (reads every position and UV). */
static double read_list(const sinew_drawlist *dl) {
    double sum = 0.0;
    for (uint32_t v = 0; v < 2 * dl->vertex_count; ++v)
        sum += (double)dl->positions[v] + (double)dl->uvs[v];
    for (uint32_t k = 0; k < dl->index_count; ++k)
        sum += dl->indices[k];
    return sum;
}

/* Loads Pip with its atlas and runs `body` with crowd calls on 1 thread, then on 3. */
static void on_pip(void (*body)(const sinew_data *data, const sinew_atlas *atlas, uint32_t threads)) {
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    CHECK(sinew_data_load_file(PIP, NULL, &data, NULL) == SINEW_OK);
    CHECK(sinew_atlas_load_file(PIP_TEX, NULL, &atlas, NULL) == SINEW_OK);
    if (data && atlas) {
        body(data, atlas, 1);
        body(data, atlas, 3);
    }
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

/* An entry set to NULL after a call that drew it (its instance destroyed) is skipped: its draw
 * list must be empty, not the one its instance had, whose storage went with the instance. */
static void null_entry_case(const sinew_data *data, const sinew_atlas *atlas, uint32_t threads) {
    sinew_instance *crowd[SMALL_CROWD] = {0};
    sinew_drawlist dls[SMALL_CROWD];
    for (int i = 0; i < SMALL_CROWD; ++i)
        if (!(crowd[i] = make(data, atlas, NULL)))
            goto out;
    CHECK(sinew_crowd_update(crowd, SMALL_CROWD, 1.0 / 60, threads, dls, NULL) == SINEW_OK);
    CHECK(dls[1].vertex_count > 0 && dls[9].vertex_count > 0);
    for (int i = 1; i < SMALL_CROWD; i += 8) { /* one entry in each block */
        sinew_instance_destroy(crowd[i]);
        crowd[i] = NULL;
    }
    CHECK(sinew_crowd_update(crowd, SMALL_CROWD, 1.0 / 60, threads, dls, NULL) == SINEW_OK);
    for (int i = 0; i < SMALL_CROWD; ++i) {
        CHECK(isfinite(read_list(&dls[i]))); /* under ASan: a heap-use-after-free if a stale list is left */
        if (crowd[i])
            CHECK(dls[i].vertex_count > 0 && dls[i].cmd_count > 0);
        else
            CHECK(dls[i].vertex_count == 0 && dls[i].index_count == 0 && dls[i].cmd_count == 0 && !dls[i].positions &&
                  !dls[i].uvs && !dls[i].indices && !dls[i].cmds);
    }
out:
    for (int i = 0; i < SMALL_CROWD; ++i)
        sinew_instance_destroy(crowd[i]);
}

/* A draw list whose first allocation fails (on whichever thread builds it) is empty and reported
 * through err, as sinew_instance_reserve_drawlist reports it; the other instances are still
 * advanced and drawn, and the next call allocates it. Each instance has an allocator of its own
 * (the counting allocator is not thread-safe): two in different blocks fail their next allocation,
 * the first of them named. */
static void allocation_fails_case(const sinew_data *data, const sinew_atlas *atlas, uint32_t threads) {
    counting c[SMALL_CROWD] = {{0}};
    sinew_allocator al[SMALL_CROWD];
    sinew_instance *crowd[SMALL_CROWD] = {0};
    sinew_drawlist dls[SMALL_CROWD];
    for (int i = 0; i < SMALL_CROWD; ++i) {
        c[i] = (counting){.fail_at = -1};
        al[i] = counting_allocator(&c[i], false);
        sinew_instance_options o;
        memset(&o, 0, sizeof o);
        o.atlas = atlas;
        o.allocator = &al[i];
        CHECK(sinew_instance_create(data, &o, &crowd[i], NULL) == SINEW_OK);
        if (!crowd[i])
            goto out;
    }
    c[12].fail_at = c[12].allocs; /* the next allocation: the draw list's */
    c[5].fail_at = c[5].allocs;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_crowd_update(crowd, SMALL_CROWD, 1.0 / 60, threads, dls, &err) == SINEW_E_NOMEM);
    CHECK(err.code == SINEW_E_NOMEM && strstr(err.message, "2 instances, the first instance 5:") != NULL);
    if (err.code)
        printf("threads %u: %s\n", threads, err.message);
    for (int i = 0; i < SMALL_CROWD; ++i) {
        bool failed = i == 5 || i == 12;
        CHECK(failed ? dls[i].vertex_count == 0 && !dls[i].positions : dls[i].vertex_count > 0);
    }
    memset(&err, 0, sizeof err);
    CHECK(sinew_crowd_update(crowd, SMALL_CROWD, 1.0 / 60, threads, dls, &err) == SINEW_OK);
    CHECK(err.code == SINEW_OK && dls[5].vertex_count > 0 && dls[12].vertex_count > 0);
out:
    for (int i = 0; i < SMALL_CROWD; ++i) {
        sinew_instance_destroy(crowd[i]);
        CHECK(!counting_leaked(&c[i]) && c[i].bad_sizes == 0);
    }
}

static void test_crowd_null_entry(void) { on_pip(null_entry_case); }
static void test_crowd_drawlist_allocation_fails(void) { on_pip(allocation_fails_case); }

int main(void) {
    RUN(test_crowd_own_fixtures);
    RUN(test_crowd_shared_characters);
    RUN(test_crowd_arguments);
    RUN(test_crowd_null_entry);
    RUN(test_crowd_drawlist_allocation_fails);
    return test_summary();
}
