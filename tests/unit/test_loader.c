/* Loader unit tests: every DragonBones file of the project's own fixtures (tests/fixtures/own) and,
 * when ../shared is there, of the shared corpus loads completely, with structural invariants of the
 * model; spot checks against values read independently from the raw files (by hand from the JSON
 * text, or from the fixture generator's tables). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "sinew/data.h"
#include "testlib.h"

static sinew_data *load_path(const char *path) {
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *d = NULL;
    sinew_status st = sinew_data_load_file(path, NULL, &d, &err);
    if (st != SINEW_OK)
        fprintf(stderr, "%s:%u:%u: %s [%s]\n", path, err.line, err.column, err.message, err.path);
    CHECK(st == SINEW_OK);
    return d;
}

static sinew_data *load(const char *shared, const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared, rel);
    return load_path(path);
}

/* Structural invariants of a loaded model. */
static void check_model(const sinew_data *d) {
    for (uint32_t a = 0; a < d->armature_count; a++) {
        const sinew_model_armature *A = &d->armatures[a];
        for (uint32_t b = 0; b < A->bone_count; b++)
            CHECK(A->bones[b].parent == SINEW_INVALID_INDEX || A->bones[b].parent < b);
        for (uint32_t m = 0; m < A->mesh_count; m++) {
            const sinew_model_mesh *M = &A->meshes[m];
            for (uint32_t t = 0; t < 3 * M->triangle_count; t++)
                CHECK(M->triangles[t] < M->vertex_count);
            if (M->weighted)
                CHECK(M->vertex_first_influence[M->vertex_count] == M->influence_count);
        }
        for (uint32_t n = 0; n < A->animation_count; n++) {
            const sinew_model_animation *N = &A->animations[n];
            for (uint32_t t = 0; t < N->timeline_count; t++) {
                const sinew_model_timeline *T = &A->timelines[N->first_timeline + t];
                CHECK(T->first_key + T->key_count <= N->key_count);
                float pos = 0;
                for (uint32_t k = 0; k < T->key_count; k++) {
                    CHECK_NEAR(N->keys[T->first_key + k].position, pos, 1e-3);
                    pos += N->keys[T->first_key + k].duration;
                }
            }
            for (uint32_t f = 1; f < N->action_frame_count; f++)
                CHECK(N->action_frames[f - 1].position < N->action_frames[f].position);
        }
    }
}

static void check_atlas(const char *path) {
    sinew_atlas *at = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_atlas_load_file(path, NULL, &at, &err) == SINEW_OK);
    if (err.code)
        fprintf(stderr, "%s: %s [%s]\n", path, err.message, err.path);
    sinew_atlas_destroy(at);
}

/* The project's own fixtures (tests/fixtures/own/manifest.json; run from tests/). */
static const char *const own_files[][2] = {
    {"fixtures/own/Pip_4.0/pip.json", "fixtures/own/Pip_4.0/texture.json"},
    {"fixtures/own/Pip_4.5/pip_ske.json", "fixtures/own/Pip_4.5/pip_tex.json"},
    {"fixtures/own/Pip_4.5_triples/pip_ske.json", "fixtures/own/Pip_4.5_triples/pip_tex.json"},
    {"fixtures/own/Pip_5.0/pip_ske.json", "fixtures/own/Pip_5.0/pip_tex.json"},
    {"fixtures/own/Pip_5.5/pip_ske.json", "fixtures/own/Pip_5.5/pip_tex.json"},
};
enum { OWN_COUNT = sizeof own_files / sizeof own_files[0] };

static void test_own_files_load(void) {
    for (size_t i = 0; i < OWN_COUNT; i++) {
        sinew_data *d = load_path(own_files[i][0]);
        if (d)
            check_model(d);
        sinew_data_destroy(d);
        check_atlas(own_files[i][1]);
    }
}

/* The two 4.5 weight layouts: the per-vertex file (matrices) and its triples twin (decomposed
 * poses, influences listed bone by bone) give the same skinning inputs. The cape's influences come
 * from make_fixtures.py (cape_mesh): 9 vertices, 16 influences over body, cape_a, cape_b. */
static void test_own_weight_layouts(void) {
    sinew_data *v = load_path("fixtures/own/Pip_4.5/pip_ske.json");
    sinew_data *t = load_path("fixtures/own/Pip_4.5_triples/pip_ske.json");
    if (!v || !t) {
        sinew_data_destroy(v);
        sinew_data_destroy(t);
        return;
    }
    const sinew_model_mesh *mv = NULL, *mt = NULL;
    for (uint32_t m = 0; m < v->armatures[0].mesh_count; m++)
        if (v->armatures[0].meshes[m].weighted)
            mv = &v->armatures[0].meshes[m];
    for (uint32_t m = 0; m < t->armatures[0].mesh_count; m++)
        if (t->armatures[0].meshes[m].weighted)
            mt = &t->armatures[0].meshes[m];
    CHECK(mv && mt);
    if (mv && mt) {
        CHECK(mv->weight_layout == 0 && mt->weight_layout == 1);
        CHECK(mv->vertex_count == 9 && mt->vertex_count == 9);
        CHECK(mv->influence_count == 16 && mt->influence_count == 16);
        for (uint32_t vx = 0; vx < 9 && mv->vertex_count == 9 && mt->vertex_count == 9; vx++) {
            uint32_t a0 = mv->vertex_first_influence[vx], a1 = mv->vertex_first_influence[vx + 1];
            uint32_t b0 = mt->vertex_first_influence[vx], b1 = mt->vertex_first_influence[vx + 1];
            CHECK(a1 - a0 == b1 - b0);
            /* the same (bone, weight, bone-local position) set, in any order */
            for (uint32_t i = a0; i < a1; i++) {
                int found = 0;
                for (uint32_t j = b0; j < b1; j++) {
                    if (mv->influence_bone[i] != mt->influence_bone[j])
                        continue;
                    found = 1;
                    CHECK_NEAR(mv->influence_weight[i], mt->influence_weight[j], 1e-6);
                    CHECK_NEAR(mv->influence_local[2 * i], mt->influence_local[2 * j], 1e-3);
                    CHECK_NEAR(mv->influence_local[2 * i + 1], mt->influence_local[2 * j + 1], 1e-3);
                }
                CHECK(found);
            }
        }
    }
    sinew_data_destroy(v);
    sinew_data_destroy(t);
}

static const char *const files[] = {
    "CoreElement_4.5/CoreElement.json", "Knight_4.5/Knight.json",         "ReplaceSkinMan_4.0/man.json",
    "Robot_4.5/robot_ske.json",         "Ubbie_4.5/Ubbie.json",           "ZOrder16_4.5/16_ske.json",
    "dragon_boy_5.0/dragon_boy_ske.json", "mecha_1502b_5.5/mecha_1502b_ske.json",
    "you_xin_body_5.5/body_ske.json"};
static const char *const atlases[] = {
    "CoreElement_4.5/CoreElement_texture_1.json", "Knight_4.5/Knight_texture_1.json", "ReplaceSkinMan_4.0/texture.json",
    NULL, "Ubbie_4.5/texture.json", "ZOrder16_4.5/16_tex.json", "dragon_boy_5.0/dragon_boy_tex.json",
    "mecha_1502b_5.5/mecha_1502b_tex.json", "you_xin_body_5.5/body_tex.json"};

static void test_shared_files_load(void) {
    const char *shared = test_need_shared(9, "shared DragonBones files (and their 8 atlases)");
    if (!shared)
        return;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sinew_data *d = load(shared, files[i]);
        if (d)
            check_model(d);
        sinew_data_destroy(d);
        if (atlases[i]) {
            char path[1024];
            snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared, atlases[i]);
            check_atlas(path);
        }
    }
}

/* Robot_4.5: values read by hand from robot_ske.json. */
static void test_robot(void) {
    const char *shared = test_need_shared(1, "spot check of the shared Robot_4.5");
    if (!shared)
        return;
    sinew_data *d = load(shared, "Robot_4.5/robot_ske.json");
    if (!d)
        return;
    CHECK_STR(d->version, "4.5");
    CHECK(d->armature_count == 1);
    const sinew_model_armature *A = &d->armatures[0];
    CHECK(A->bone_count == 10);
    CHECK(A->slot_count == 3);
    CHECK(A->ik_count == 2);
    CHECK(A->mesh_count == 2);
    uint32_t weighted = 0;
    for (uint32_t m = 0; m < A->mesh_count; m++)
        weighted += A->meshes[m].weighted && A->meshes[m].weight_layout == 0;
    CHECK(weighted == 2);
    CHECK(A->animation_count == 2);
    CHECK_STR(A->animations[A->default_animation].name, "animation");
    sinew_data_destroy(d);
}

/* 5.x armature `userData` and `canvas`: kept and reported as the file gives them; a canvas colour
 * that is no 0xRRGGBB is an error at its JSON path. */
static void test_canvas_and_user_data(void) {
    static const char ok[] =
        "{\"name\":\"cv\",\"version\":\"5.5\",\"frameRate\":24,\"armature\":[{\"name\":\"a\","
        "\"userData\":{\"ints\":[1,2]},\"canvas\":{\"x\":-100,\"y\":-50,\"width\":200,\"height\":100,"
        "\"color\":16711935},\"bone\":[{\"name\":\"root\"}]},"
        "{\"name\":\"b\",\"canvas\":{\"width\":64,\"height\":32},\"bone\":[{\"name\":\"root\"}]}]}";
    sinew_data *d = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_buffer(ok, sizeof ok - 1, "cv.json", NULL, &d, &err) == SINEW_OK);
    sinew_armature_info ai;
    if (d && sinew_data_get_armature_info(d, 0, &ai) == SINEW_OK) {
        CHECK(ai.user_data && strcmp(ai.user_data, "{\"ints\":[1,2]}") == 0);
        CHECK(ai.has_canvas && ai.canvas_background && ai.canvas_color == 0xff00ff);
        CHECK(ai.canvas_x == -100 && ai.canvas_y == -50 && ai.canvas_width == 200 && ai.canvas_height == 100);
    }
    if (d && sinew_data_get_armature_info(d, 1, &ai) == SINEW_OK) /* no colour: no background */
        CHECK(ai.user_data == NULL && ai.has_canvas && !ai.canvas_background && ai.canvas_width == 64);
    sinew_data_destroy(d);
    static const char bad[] = "{\"name\":\"cv\",\"version\":\"5.5\",\"armature\":[{\"name\":\"a\","
                              "\"canvas\":{\"color\":-1},\"bone\":[{\"name\":\"root\"}]}]}";
    memset(&err, 0, sizeof err);
    d = NULL;
    CHECK(sinew_data_load_buffer(bad, sizeof bad - 1, "bad.json", NULL, &d, &err) == SINEW_E_RANGE && !d);
    CHECK(strstr(err.path, "canvas") != NULL && err.line == 1);
}

/* A rig whose displays name whole images: the one found (Pip 5.0's page, 256 x 128) is a page with
 * one region over all of it; the missing one is left out; a folder without any is NOT_FOUND. */
static void test_atlas_from_images(void) {
    static const char rig[] =
        "{\"name\":\"im\",\"version\":\"5.5\",\"armature\":[{\"name\":\"a\",\"bone\":[{\"name\":\"root\"}],"
        "\"slot\":[{\"name\":\"s\",\"parent\":\"root\"},{\"name\":\"t\",\"parent\":\"root\"}],"
        "\"skin\":[{\"slot\":[{\"name\":\"s\",\"display\":[{\"name\":\"pip_tex\"}]},"
        "{\"name\":\"t\",\"display\":[{\"name\":\"missing\"},{\"name\":\"x\",\"path\":\"pip_tex\"}]}]}]}]}";
    sinew_data *d = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_buffer(rig, sizeof rig - 1, "im.json", NULL, &d, &err) == SINEW_OK);
    sinew_atlas *atlas = NULL;
    CHECK(d && sinew_atlas_from_images(d, "fixtures/own/Pip_5.0", NULL, &atlas, &err) == SINEW_OK);
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    CHECK(ai.page_count == 1 && ai.region_count == 1);
    sinew_atlas_region_info ri;
    CHECK(sinew_atlas_get_region_info(atlas, sinew_atlas_find_region(atlas, "pip_tex"), &ri) == SINEW_OK);
    CHECK(ri.x == 0 && ri.y == 0 && ri.width == 256 && ri.height == 128 && !ri.rotated);
    CHECK(sinew_atlas_find_region(atlas, "missing") == SINEW_INVALID_INDEX);
    sinew_atlas_destroy(atlas);
    atlas = NULL;
    memset(&err, 0, sizeof err);
    CHECK(d && sinew_atlas_from_images(d, "fixtures/own", NULL, &atlas, &err) == SINEW_E_NOT_FOUND && !atlas);
    sinew_data_destroy(d);
}

/* A shared mesh whose official geometry would not be a mesh (the first armature has none before
 * it, only a path): refused at its JSON path. (Supported cases: the oracle_share fixture.) */
static void test_share_refused(void) {
    static const char rig[] =
        "{\"name\":\"sh\",\"version\":\"5.5\",\"armature\":[{\"name\":\"a\",\"bone\":[{\"name\":\"root\"}],"
        "\"slot\":[{\"name\":\"p\",\"parent\":\"root\"},{\"name\":\"s\",\"parent\":\"root\"}],"
        "\"skin\":[{\"slot\":[{\"name\":\"p\",\"display\":[{\"name\":\"path\",\"type\":\"path\",\"vertexCount\":6,"
        "\"vertices\":[0,0,0,0,0,0,9,0,9,0,9,0],\"lengths\":[9]}]},"
        "{\"name\":\"s\",\"display\":[{\"name\":\"m\",\"type\":\"mesh\",\"share\":\"x\"}]}]}]}]}";
    sinew_data *d = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_buffer(rig, sizeof rig - 1, "sh.json", NULL, &d, &err) == SINEW_E_UNSUPPORTED && !d);
    CHECK(strstr(err.path, "share") != NULL && err.line == 1 && err.column > 1);
}

int main(void) {
    RUN(test_own_files_load);
    RUN(test_own_weight_layouts);
    RUN(test_shared_files_load);
    RUN(test_robot);
    RUN(test_canvas_and_user_data);
    RUN(test_atlas_from_images);
    RUN(test_share_refused);
    return test_summary();
}
