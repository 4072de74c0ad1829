/* Input animation drawing: projection of known points to hand-computed pixels in the three views,
 * and the draw list's structure. */
#include <math.h>
#include <string.h>

#include "sinew/input.h"
#include "testlib.h"

static void identity_frame(sinew_input_frame *f) {
    memset(f, 0, sizeof *f);
    f->camera.rotation[3] = 1;
    for (int h = 0; h < 2; h++)
        for (int j = 0; j < SINEW_INPUT_JOINT_COUNT; j++)
            f->hands[h].joints[j].rotation[3] = 1;
    f->gaze_direction[2] = 1;
}

static sinew_input_view view(sinew_input_view_kind kind) {
    sinew_input_view v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    v.width = 200;
    v.height = 100;
    v.center[0] = 0;
    v.center[1] = 1.5f;
    v.center[2] = 0.5f;
    v.pixels_per_metre = 100;
    v.vertical_fov_deg = 90;
    v.near_plane = 0.1f;
    return v;
}

static void test_front_and_top(void) {
    sinew_input_frame f;
    identity_frame(&f);
    const float p[3] = {0.1f, 1.6f, 0.7f};
    float px[2];
    sinew_input_view v = view(SINEW_INPUT_VIEW_FRONT);
    CHECK(sinew_input_project(&v, &f, p, px));
    CHECK_NEAR(px[0], 110, 1e-4); /* 100 + 0.1 m * 100 px/m */
    CHECK_NEAR(px[1], 40, 1e-4);  /* 50 - (1.6 - 1.5) * 100: up is up */
    v = view(SINEW_INPUT_VIEW_TOP);
    CHECK(sinew_input_project(&v, &f, p, px));
    CHECK_NEAR(px[0], 110, 1e-4);
    CHECK_NEAR(px[1], 30, 1e-4);  /* 50 - (0.7 - 0.5) * 100: forward is up */
}

static void test_camera(void) {
    sinew_input_frame f;
    identity_frame(&f);
    f.camera.position[1] = 1.6f;
    sinew_input_view v = view(SINEW_INPUT_VIEW_CAMERA);
    /* 90 degree vertical FOV, 100 px high: focal length 50 px */
    const float p[3] = {0.5f, 1.85f, 1.0f};
    float px[2];
    CHECK(sinew_input_project(&v, &f, p, px));
    CHECK_NEAR(px[0], 125, 1e-3);
    CHECK_NEAR(px[1], 37.5, 1e-3);
    const float behind[3] = {0, 1.6f, -1};
    CHECK(!sinew_input_project(&v, &f, behind, px));
    /* turned 90 degrees about +Y (Unity: +Z turns towards +X): +X is straight ahead */
    f.camera.rotation[1] = (float)sin(3.14159265358979 / 4);
    f.camera.rotation[3] = (float)cos(3.14159265358979 / 4);
    const float ahead[3] = {2, 1.6f, 0};
    CHECK(sinew_input_project(&v, &f, ahead, px));
    CHECK_NEAR(px[0], 100, 1e-3);
    CHECK_NEAR(px[1], 50, 1e-3);
    /* the camera's right is now world -Z: 1 m ahead, 0.5 m right */
    const float right[3] = {1, 1.6f, -0.5f};
    CHECK(sinew_input_project(&v, &f, right, px));
    CHECK_NEAR(px[0], 125, 1e-3); /* x_cam = 0.5, z_cam = 1 */
}

static void test_drawlist(void) {
    sinew_input_frame f;
    identity_frame(&f);
    /* left hand: wrist and index tip only have data; tracked and pinching */
    f.hands[0].tracked = true;
    f.hands[0].pinch = true;
    f.hands[0].joints[1].position[0] = 0.1f;
    f.hands[0].joints[1].position[1] = 1.5f;
    f.hands[0].joints[1].position[2] = 0.5f;
    f.hands[0].joints[11].position[0] = 0.2f;
    f.hands[0].joints[11].position[1] = 1.5f;
    f.hands[0].joints[11].position[2] = 0.5f;
    sinew_input_scene *s;
    CHECK(sinew_input_scene_create(NULL, &s, NULL) == SINEW_OK);
    sinew_input_view v = view(SINEW_INPUT_VIEW_FRONT);
    sinew_drawlist dl;
    CHECK(sinew_input_build_drawlist(s, &f, &v, &dl, NULL) == SINEW_OK);
    /* camera line + dot, gaze line, 27 bones (the zero-length ones are skipped), 26 joint dots */
    CHECK(dl.cmd_count > 26);
    CHECK(dl.index_count == dl.cmd_count * 6 && dl.vertex_count == dl.cmd_count * 4);
    bool found_wrist = false, found_tip = false;
    for (uint32_t i = 0; i < dl.cmd_count; i++) {
        const sinew_draw_cmd *c = &dl.cmds[i];
        CHECK(c->page == SINEW_INVALID_INDEX);
        CHECK(c->first_index + c->index_count <= dl.index_count);
        for (uint32_t k = 0; k < c->index_count; k++)
            CHECK(dl.indices[c->first_index + k] >= c->first_vertex &&
                  dl.indices[c->first_index + k] < c->first_vertex + c->vertex_count);
        /* the dot's centre is the projected joint: wrist at (110, 50), index tip at (120, 50) */
        float cx = 0, cy = 0;
        for (uint32_t k = 0; k < 4; k++) {
            cx += dl.positions[(c->first_vertex + k) * 2] / 4;
            cy += dl.positions[(c->first_vertex + k) * 2 + 1] / 4;
        }
        if (c->slot == 3001) {
            found_wrist = found_wrist || (fabsf(cx - 110) < 1e-3f && fabsf(cy - 50) < 1e-3f);
        }
        if (c->slot == 3011 && c->vertex_count == 4) {
            float wdt = dl.positions[(c->first_vertex + 1) * 2] - dl.positions[c->first_vertex * 2];
            if (fabsf(cx - 120) < 1e-3f && fabsf(cy - 50) < 1e-3f && wdt > 4.0f) {
                found_tip = true; /* the bigger pinch dot, yellow */
                CHECK(c->color.r_mul == 1.0f && c->color.b_mul < 0.5f);
            }
        }
    }
    CHECK(found_wrist);
    CHECK(found_tip);
    /* a hand without data draws nothing */
    uint32_t with_hand = dl.cmd_count;
    f.hands[0].joints[1].position[0] = f.hands[0].joints[1].position[1] = f.hands[0].joints[1].position[2] = 0;
    f.hands[0].joints[11].position[0] = f.hands[0].joints[11].position[1] = f.hands[0].joints[11].position[2] = 0;
    CHECK(sinew_input_build_drawlist(s, &f, &v, &dl, NULL) == SINEW_OK);
    CHECK(dl.cmd_count == 1 && with_hand > 1); /* the camera dot; its forward line and the gaze ray point
                                                   straight into the picture, so they have no length */
    sinew_input_scene_destroy(s);
}

int main(void) {
    RUN(test_front_and_top);
    RUN(test_camera);
    RUN(test_drawlist);
    return test_summary();
}
