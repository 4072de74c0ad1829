/* Loader unit tests: every shared DragonBones file loads completely, with spot checks of the model
 * against values read independently from the raw files (hand-computed from the JSON text). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "sinew/data.h"
#include "testlib.h"

static const char *shared(void) {
    const char *s = getenv("SHARED");
    return s ? s : "../../shared";
}

static sinew_data *load(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared(), rel);
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *d = NULL;
    sinew_status st = sinew_data_load_file(path, NULL, &d, &err);
    if (st != SINEW_OK)
        fprintf(stderr, "%s:%u:%u: %s [%s]\n", path, err.line, err.column, err.message, err.path);
    CHECK(st == SINEW_OK);
    return d;
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

static void test_all_files_load(void) {
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sinew_data *d = load(files[i]);
        if (!d)
            continue;
        /* structural invariants of the model */
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
        sinew_data_destroy(d);
        if (atlases[i]) {
            char path[1024];
            snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared(), atlases[i]);
            sinew_atlas *at = NULL;
            sinew_error err;
            memset(&err, 0, sizeof err);
            CHECK(sinew_atlas_load_file(path, NULL, &at, &err) == SINEW_OK);
            if (err.code)
                fprintf(stderr, "%s: %s [%s]\n", path, err.message, err.path);
            sinew_atlas_destroy(at);
        }
    }
}

/* Robot_4.5: values read by hand from robot_ske.json. */
static void test_robot(void) {
    sinew_data *d = load("Robot_4.5/robot_ske.json");
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

int main(void) {
    RUN(test_all_files_load);
    RUN(test_robot);
    return test_summary();
}
