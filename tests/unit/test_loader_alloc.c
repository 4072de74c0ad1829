/* Allocation failure: for every N, fail the Nth allocation of the sinew allocator while loading;
 * every failing load must report SINEW_E_NOMEM cleanly and give back every byte. Also the isGlobal
 * fixture pair: absolute data converts to the same model as the local file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "sinew/data.h"
#include "counting_alloc.h"
#include "testlib.h"

#define PI_D 3.14159265358979323846

static long total_runs = 0;

/* Fails allocation N = 0, 1, 2, ... until the load succeeds: each failing load must report
 * SINEW_E_NOMEM with a message and give back every byte. Prints one line per file (the number of
 * loads, and how many misbehaved, with the first such case), not one per attempt. */
static void fail_every(const char *path, bool atlas) {
    long leaks = 0, wrong = 0, runs = 0, first_leak = -1, first_wrong = -1;
    char wrong_msg[160] = "";
    bool done = false;
    for (long n = 0; n < 100000 && !done; n++) {
        counting c = {.fail_at = n};
        sinew_allocator a = counting_allocator(&c, false);
        sinew_load_options o;
        memset(&o, 0, sizeof o);
        o.allocator = &a;
        sinew_error err;
        memset(&err, 0, sizeof err);
        sinew_status st;
        bool consistent;
        if (atlas) {
            sinew_atlas *at = NULL;
            st = sinew_atlas_load_file(path, &o, &at, &err);
            consistent = (st == SINEW_OK) == (at != NULL);
            sinew_atlas_destroy(at);
        } else {
            sinew_data *d = NULL;
            st = sinew_data_load_file(path, &o, &d, &err);
            consistent = (st == SINEW_OK) == (d != NULL);
            sinew_data_destroy(d);
        }
        CHECK(consistent);
        runs++;
        if (counting_leaked(&c)) {
            if (leaks++ == 0)
                first_leak = n;
        }
        if (st == SINEW_OK) {
            CHECK(c.allocs <= n); /* it succeeded because there was no allocation number n */
            done = true;
        } else if (st != SINEW_E_NOMEM || err.code != SINEW_E_NOMEM || !err.message[0]) {
            if (wrong++ == 0) {
                first_wrong = n;
                snprintf(wrong_msg, sizeof wrong_msg, "%s '%.120s'", sinew_status_str(st), err.message);
            }
            if (n == 0) /* the file does not load even without a failing allocation */
                break;
        }
    }
    total_runs += runs;
    printf("%s: %ld loads", path, runs);
    if (leaks)
        printf(", %ld leaked (first: failing allocation %ld)", leaks, first_leak);
    if (wrong)
        printf(", %ld did not report out-of-memory (first: failing allocation %ld gave %s)", wrong, first_wrong,
               wrong_msg);
    if (!done)
        printf(", the load never succeeded");
    printf("\n");
    CHECK(leaks == 0);
    CHECK(wrong == 0);
    CHECK(done);
}

/* The project's own fixtures, one per format version and weight layout (run from tests/). */
static void test_alloc_failures_own(void) {
    static const char *const files[] = {
        "fixtures/own/Pip_4.0/pip.json", "fixtures/own/Pip_4.5/pip_ske.json",
        "fixtures/own/Pip_4.5_triples/pip_ske.json", "fixtures/own/Pip_5.0/pip_ske.json",
        "fixtures/own/Pip_5.5/pip_ske.json", "fixtures/loader/global_absolute.json",
        "fixtures/oracle/surface_ske.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        fail_every(files[i], false);
    fail_every("fixtures/own/Pip_5.5/pip_tex.json", true);
}

static void test_alloc_failures_shared(void) {
    static const char *const files[] = {
        "CoreElement_4.5/CoreElement.json", "Knight_4.5/Knight.json", "ReplaceSkinMan_4.0/man.json",
        "Robot_4.5/robot_ske.json", "Ubbie_4.5/Ubbie.json", "ZOrder16_4.5/16_ske.json",
        "dragon_boy_5.0/dragon_boy_ske.json", "mecha_1502b_5.5/mecha_1502b_ske.json",
        "you_xin_body_5.5/body_ske.json"};
    const char *shared = test_need_shared(10, "shared files (9 skeletons and an atlas)");
    if (!shared)
        return;
    char path[1024];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared, files[i]);
        fail_every(path, false);
    }
    snprintf(path, sizeof path, "%s/data/dragonbones/you_xin_body_5.5/body_tex.json", shared);
    fail_every(path, true);
}

static sinew_data *load(const char *path) {
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    if (sinew_data_load_file(path, NULL, &d, &err) != SINEW_OK)
        fprintf(stderr, "%s:%u:%u: %s\n", path, err.line, err.column, err.message);
    CHECK(d != NULL);
    return d;
}

static double angle_diff(double a, double b) {
    double d = fmod(a - b, 2 * PI_D);
    if (d > PI_D)
        d -= 2 * PI_D;
    if (d < -PI_D)
        d += 2 * PI_D;
    return fabs(d);
}

static void test_is_global(void) {
    sinew_data *l = load("fixtures/loader/global_local.json");
    sinew_data *g = load("fixtures/loader/global_absolute.json");
    if (!l || !g) {
        sinew_data_destroy(l);
        sinew_data_destroy(g);
        return;
    }
    CHECK(!l->is_global && g->is_global);
    const sinew_model_armature *L = &l->armatures[0], *G = &g->armatures[0];
    CHECK(L->bone_count == 4 && G->bone_count == 4);
    for (uint32_t b = 0; b < L->bone_count && b < G->bone_count; b++) {
        const sinew_transform *x = &L->bones[b].setup, *y = &G->bones[b].setup;
        CHECK_STR(L->bones[b].name, G->bones[b].name);
        CHECK_NEAR(x->x, y->x, 1e-3);
        CHECK_NEAR(x->y, y->y, 1e-3);
        CHECK_NEAR(angle_diff(x->rotation, y->rotation), 0, 1e-4);
        CHECK_NEAR(angle_diff(x->skew, y->skew), 0, 1e-4);
        CHECK_NEAR(x->scale_x, y->scale_x, 1e-5);
    }
    const sinew_model_animation *NL = &L->animations[0], *NG = &G->animations[0];
    CHECK(NL->timeline_count == 4 && NG->timeline_count == 4);
    int compared = 0;
    for (uint32_t t = 0; t < NL->timeline_count && t < NG->timeline_count; t++) {
        const sinew_model_timeline *a = &L->timelines[NL->first_timeline + t];
        const sinew_model_timeline *b = &G->timelines[NG->first_timeline + t];
        CHECK(a->type == SINEW_TL_BONE_ALL && b->type == SINEW_TL_BONE_ALL && a->target == b->target);
        CHECK(a->key_count == b->key_count);
        for (uint32_t k = 0; k < a->key_count && k < b->key_count; k++) {
            const float *va = a->values + 6 * k, *vb = b->values + 6 * k;
            CHECK_NEAR(va[0], vb[0], 1e-3);
            CHECK_NEAR(va[1], vb[1], 1e-3);
            CHECK_NEAR(angle_diff(va[2], vb[2]), 0, 1e-4);
            CHECK_NEAR(va[4], vb[4], 1e-4);
            CHECK_NEAR(va[5], vb[5], 1e-4);
            compared++;
        }
    }
    CHECK(compared == 12);
    sinew_data_destroy(l);
    sinew_data_destroy(g);
}

int main(void) {
    RUN(test_is_global);
    RUN(test_alloc_failures_own);
    RUN(test_alloc_failures_shared);
    printf("%ld allocation-failure loads\n", total_runs);
    return test_summary();
}
