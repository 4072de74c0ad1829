/* Runtime control (sinew/instance.h, "control") on a hand-written rig whose answers are worked out
 * by hand: bounds, hit tests, boundingBox polygons and containsPoint, bone offsets and following.
 *
 * The rig (5.0, no atlas: meshes are drawn from their vertices):
 *   bone root at (0, 0); bone arm, child of root, at (100, 0) rotated 90 degrees;
 *   slot body (root): a mesh square (-50,-50)..(50,50);
 *   slot hand (arm): a mesh square (-10,-10)..(10,10), drawn after (above) body;
 *   slot hit (root): a boundingBox triangle (0,0) (40,0) (0,40), shown at (10, 10) by its bone:
 *     the bone "hb" at (10, 10), child of root.
 * An animation "nudge" moves arm by +20 in y at the end of its 10 frames (24 fps). */
#include <math.h>

#include "sinew/sinew.h"
#include "testlib.h"

static const char rig[] =
    "{\"name\":\"ctl\",\"version\":\"5.0\",\"frameRate\":24,\"armature\":[{\"name\":\"a\",\"frameRate\":24,"
    "\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":30,"
    "\"transform\":{\"x\":100,\"skX\":90,\"skY\":90}},"
    "{\"name\":\"hb\",\"parent\":\"root\",\"transform\":{\"x\":10,\"y\":10}}],"
    "\"slot\":[{\"name\":\"body\",\"parent\":\"root\"},{\"name\":\"hand\",\"parent\":\"arm\"},"
    "{\"name\":\"hit\",\"parent\":\"hb\"}],"
    "\"skin\":[{\"name\":\"\",\"slot\":["
    "{\"name\":\"body\",\"display\":[{\"name\":\"sq\",\"type\":\"mesh\",\"width\":100,\"height\":100,"
    "\"vertices\":[-50,-50,50,-50,50,50,-50,50],\"uvs\":[0,0,1,0,1,1,0,1],\"triangles\":[0,1,2,0,2,3],"
    "\"edges\":[],\"userEdges\":[]}]},"
    "{\"name\":\"hand\",\"display\":[{\"name\":\"small\",\"type\":\"mesh\",\"width\":20,\"height\":20,"
    "\"vertices\":[-10,-10,10,-10,10,10,-10,10],\"uvs\":[0,0,1,0,1,1,0,1],\"triangles\":[0,1,2,0,2,3],"
    "\"edges\":[],\"userEdges\":[]}]},"
    "{\"name\":\"hit\",\"display\":[{\"name\":\"tri\",\"type\":\"boundingBox\",\"subType\":\"polygon\","
    "\"vertices\":[0,0,40,0,0,40]}]}]}],"
    "\"animation\":[{\"name\":\"nudge\",\"duration\":10,\"playTimes\":1,\"bone\":[{\"name\":\"arm\",\"frame\":["
    "{\"duration\":10,\"tweenEasing\":0,\"transform\":{}},{\"duration\":0,\"transform\":{\"y\":20}}]}]}]}]}";

static sinew_data *data;
static sinew_instance *inst;

static void setup(void) {
    sinew_error err = {0};
    CHECK(sinew_data_load_buffer(rig, sizeof rig - 1, "control.json", NULL, &data, &err) == SINEW_OK);
    if (!data) fprintf(stderr, "%u:%u: %s [%s]\n", err.line, err.column, err.message, err.path);
    CHECK(data && sinew_instance_create(data, NULL, &inst, &err) == SINEW_OK);
    if (inst) sinew_instance_update(inst, 0.0);
}

static void test_bounds(void) {
    sinew_rect r;
    CHECK(sinew_instance_bounds(inst, &r));
    /* the body square and the hand square at (100, 0): x from -50 to 110, y from -50 to 50 */
    CHECK_NEAR(r.x0, -50, 1e-3);
    CHECK_NEAR(r.y0, -50, 1e-3);
    CHECK_NEAR(r.x1, 110, 1e-3);
    CHECK_NEAR(r.y1, 50, 1e-3);
}

static void test_hit(void) {
    uint32_t arm = 99, slot = 99;
    CHECK(sinew_instance_hit(inst, 0, 0, &arm, &slot) && arm == 0 && slot == 0);   /* body */
    CHECK(sinew_instance_hit(inst, 105, 5, &arm, &slot) && slot == 1);             /* hand, on top */
    CHECK(sinew_instance_hit(inst, 45, -45, &arm, &slot) && slot == 0);
    CHECK(!sinew_instance_hit(inst, 80, 40, &arm, &slot));                         /* between them */
    CHECK(!sinew_instance_hit(inst, -51, 0, NULL, NULL));
}

static void test_bounding_box(void) {
    float xy[8];
    /* the triangle shown at the bone hb (10, 10) */
    CHECK(sinew_instance_slot_bounding_box(inst, 0, 2, xy, 4) == 3);
    CHECK_NEAR(xy[0], 10, 1e-4);
    CHECK_NEAR(xy[1], 10, 1e-4);
    CHECK_NEAR(xy[2], 50, 1e-4);
    CHECK_NEAR(xy[3], 10, 1e-4);
    CHECK_NEAR(xy[4], 10, 1e-4);
    CHECK_NEAR(xy[5], 50, 1e-4);
    CHECK(sinew_instance_slot_bounding_box(inst, 0, 0, xy, 4) == 0); /* body shows a mesh */
    CHECK(sinew_instance_slot_contains_point(inst, 0, 2, 20, 20));
    CHECK(sinew_instance_slot_contains_point(inst, 0, 2, 11, 45));
    CHECK(!sinew_instance_slot_contains_point(inst, 0, 2, 40, 40)); /* past the hypotenuse */
    CHECK(!sinew_instance_slot_contains_point(inst, 0, 2, 5, 20));
    CHECK(!sinew_instance_slot_contains_point(inst, 0, 0, 0, 0));   /* no boundingBox */
    CHECK(!sinew_instance_slot_contains_point(inst, 0, 9, 0, 0));   /* no such slot */
}

/* The triangle (10,10) (50,10) (10,50) crossed by the line y = 20 from x = 0 to 100: at (10, 20)
 * on the edge x = 10 (its outward normal points to -x: pi) and at (40, 20) on the hypotenuse
 * x + y = 60 (normal pi/4). */
static void test_segment(void) {
    sinew_segment_hit h;
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 2, 0, 20, 100, 20, &h) == 2);
    CHECK(h.slot_a == 2 && h.slot_b == 2);
    CHECK_NEAR(h.ax, 10, 1e-4);
    CHECK_NEAR(h.ay, 20, 1e-4);
    CHECK_NEAR(h.bx, 40, 1e-4);
    CHECK_NEAR(h.by, 20, 1e-4);
    CHECK_NEAR(fabs(h.normal_a), 3.14159265, 1e-4);
    CHECK_NEAR(h.normal_b, 0.78539816, 1e-4);
    /* backwards: the hypotenuse comes first */
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 2, 100, 20, 0, 20, &h) == 2);
    CHECK_NEAR(h.ax, 40, 1e-4);
    CHECK_NEAR(h.bx, 10, 1e-4);
    /* one crossing: starting inside */
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 2, 20, 20, 20, -30, &h) == 1);
    CHECK_NEAR(h.ax, 20, 1e-4);
    CHECK_NEAR(h.ay, 10, 1e-4);
    CHECK_NEAR(h.by, 10, 1e-4);
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 2, 15, 15, 20, 20, NULL) == 0); /* inside */
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 2, 0, 100, 100, 100, NULL) == 0); /* past it */
    CHECK(sinew_instance_slot_intersects_segment(inst, 0, 0, 0, 20, 100, 20, NULL) == 0);   /* a mesh */
    /* the armature: the one box */
    CHECK(sinew_instance_intersects_segment(inst, 0, 0, 20, 100, 20, &h) && h.slot_a == 2 && h.slot_b == 2);
    CHECK_NEAR(h.ax, 10, 1e-4);
    CHECK(!sinew_instance_intersects_segment(inst, 0, 0, 100, 100, 100, &h));
    CHECK(!sinew_instance_intersects_segment(inst, 5, 0, 20, 100, 20, &h));
}

static void world_of(const char *name, sinew_affine *m) {
    for (uint32_t b = 0; b < sinew_instance_bone_count(inst, 0); b++) {
        const char *n;
        uint32_t parent;
        sinew_affine w;
        if (sinew_instance_bone(inst, 0, b, &n, &parent, &w) && strcmp(n, name) == 0) *m = w;
    }
}

static void test_offsets(void) {
    sinew_error err = {0};
    /* hb moved by (5, -5) and turned by 90 degrees: the triangle's corners follow */
    sinew_bone_offset o = {5, -5, 1.5707963f, 0, 1, 1};
    CHECK(sinew_instance_set_bone_offset(inst, 0, "hb", &o, &err) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    float xy[6];
    CHECK(sinew_instance_slot_bounding_box(inst, 0, 2, xy, 3) == 3);
    CHECK_NEAR(xy[0], 15, 1e-3);
    CHECK_NEAR(xy[1], 5, 1e-3);
    CHECK_NEAR(xy[2], 15, 1e-3); /* (40, 0) turned by 90 degrees is (0, 40) */
    CHECK_NEAR(xy[3], 45, 1e-3);
    /* scale offsets multiply: the body square at twice its size */
    sinew_bone_offset big = {0, 0, 0, 0, 2, 2};
    CHECK(sinew_instance_set_bone_offset(inst, 0, "root", &big, &err) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    sinew_affine arm;
    world_of("arm", &arm);
    CHECK_NEAR(arm.tx, 200, 1e-3); /* the child follows its scaled parent */
    /* removing them brings the setup pose back */
    CHECK(sinew_instance_set_bone_offset(inst, 0, "root", NULL, &err) == SINEW_OK);
    CHECK(sinew_instance_set_bone_offset(inst, 0, "hb", NULL, &err) == SINEW_OK);
    sinew_instance_update(inst, 0.0);
    world_of("arm", &arm);
    CHECK_NEAR(arm.tx, 100, 1e-3);
    CHECK(sinew_instance_slot_bounding_box(inst, 0, 2, xy, 3) == 3);
    CHECK_NEAR(xy[0], 10, 1e-3);
    CHECK(sinew_instance_set_bone_offset(inst, 0, "tail", &o, &err) == SINEW_E_NOT_FOUND);
}

static void test_offsets_on_animation(void) {
    /* an offset adds to the animation: nudge moves arm by +20 y at its end */
    sinew_error err = {0};
    CHECK(sinew_instance_play(inst, "nudge", 1, &err) == SINEW_OK);
    for (int i = 0; i < 12; i++) sinew_instance_update(inst, 1.0 / 24);
    sinew_affine arm;
    world_of("arm", &arm);
    CHECK_NEAR(arm.ty, 20, 1e-3);
    sinew_bone_offset o = {0, 7, 0, 0, 1, 1};
    CHECK(sinew_instance_set_bone_offset(inst, 0, "arm", &o, &err) == SINEW_OK);
    sinew_instance_update(inst, 1.0 / 24);
    world_of("arm", &arm);
    CHECK_NEAR(arm.ty, 27, 1e-3);
    /* follow: arm's origin onto a point, whatever the animation put there */
    CHECK(sinew_instance_bone_follow(inst, 0, "arm", 60, -30, &err) == SINEW_OK);
    sinew_instance_update(inst, 1.0 / 24);
    world_of("arm", &arm);
    CHECK_NEAR(arm.tx, 60, 1e-3);
    CHECK_NEAR(arm.ty, -30, 1e-3);
    CHECK(sinew_instance_set_bone_offset(inst, 0, "arm", NULL, &err) == SINEW_OK);
}

static void test_cache_refuses(void) {
    sinew_frame_cache *c = NULL;
    sinew_error err = {0};
    CHECK(sinew_frame_cache_create(data, 24, NULL, &c, &err) == SINEW_OK);
    sinew_instance_options io = {0};
    io.frame_cache = c;
    sinew_instance *cached = NULL;
    CHECK(sinew_instance_create(data, &io, &cached, &err) == SINEW_OK);
    sinew_bone_offset o = {1, 0, 0, 0, 1, 1};
    CHECK(sinew_instance_set_bone_offset(cached, 0, "arm", &o, &err) == SINEW_E_UNSUPPORTED);
    sinew_instance_destroy(cached);
    sinew_frame_cache_destroy(c);
}

/* The slot `name` as drawn now. */
static bool slot_named(sinew_instance *in, const char *name, sinew_slot_state *out) {
    for (uint32_t k = 0; k < sinew_instance_slot_count(in, 0); k++)
        if (sinew_instance_slot(in, 0, k, out) && strcmp(out->name, name) == 0) return true;
    return false;
}

/* Pip 5.0 with its atlas: the data, the atlas, the options naming it, and an instance after a
 * zero-time update (NULL when something failed, with a failed check). */
static sinew_instance *open_pip(sinew_data **pip, sinew_atlas **atlas, sinew_instance_options *io) {
    sinew_error err = {0};
    CHECK(sinew_data_load_file("fixtures/own/Pip_5.0/pip_ske.json", NULL, pip, &err) == SINEW_OK);
    CHECK(sinew_atlas_load_file("fixtures/own/Pip_5.0/pip_tex.json", NULL, atlas, &err) == SINEW_OK);
    io->atlas = *atlas;
    sinew_instance *in = NULL;
    CHECK(*pip && *atlas && sinew_instance_create(*pip, io, &in, &err) == SINEW_OK);
    if (in)
        sinew_instance_update(in, 0.0);
    return in;
}

/* Pip 5.0: slot eye shows "eye" (index 0) or "eye_shut" (1); antenna shows "antenna"; tail a mesh. */
static void test_replace_display(void) {
    sinew_data *pip = NULL;
    sinew_atlas *atlas = NULL;
    sinew_error err = {0};
    sinew_instance_options io = {0};
    sinew_instance *in = open_pip(&pip, &atlas, &io);
    if (!in) goto done;
    sinew_slot_state ss;
    CHECK(slot_named(in, "eye", &ss) && ss.display_index == 0);
    CHECK_STR(ss.display_name, "eye");
    /* the current display (index 0) becomes eye_shut */
    CHECK(sinew_instance_replace_display(in, 0, "eye", NULL, "eye_shut", -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "eye", &ss) && ss.display_index == 0);
    CHECK_STR(ss.display_name, "eye_shut");
    /* an image from another slot: the antenna shows the eye */
    CHECK(sinew_instance_replace_display(in, 0, "antenna", "eye", "eye", -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "antenna", &ss));
    CHECK_STR(ss.display_name, "eye");
    /* and the draw list draws the eye's region there */
    sinew_drawlist dl;
    sinew_instance_drawlist(in, &dl);
    uint32_t antenna = sinew_data_find_slot(pip, 0, "antenna"), eye = sinew_data_find_slot(pip, 0, "eye");
    const sinew_draw_cmd *ca = NULL, *ce = NULL;
    for (uint32_t c = 0; c < dl.cmd_count; c++) {
        if (dl.cmds[c].armature == 0 && dl.cmds[c].slot == antenna) ca = &dl.cmds[c];
        if (dl.cmds[c].armature == 0 && dl.cmds[c].slot == eye) ce = &dl.cmds[c];
    }
    sinew_atlas_region_info ri;
    CHECK(ca && sinew_atlas_get_region_info(atlas, sinew_atlas_find_region(atlas, "eye"), &ri) == SINEW_OK);
    if (ca) { /* the eye's rectangle of the 256 x 128 page */
        CHECK(ca->vertex_count == 4 && ca->page == 0);
        CHECK_NEAR(ca->region[0], ri.x / 256.0f, 1e-6);
        CHECK_NEAR(ca->region[1], ri.y / 128.0f, 1e-6);
    }
    CHECK(ce != NULL); /* eye_shut is drawn for the eye */
    /* the image's top-left corner where the official runtime puts it: after play("idle") and
     * replaceSlotDisplay(antenna <- eye), its dump gives the antenna slot the matrix
     * [0.116055676, -0.99324271, 0.99324271, 0.116055676, 19.7840127, -93.0348502] and the pivot
     * (9, 18) (the antenna display's transform kept, the pivot moved): corner = M * (-9, -18).
     * cli.replace_display compares the whole pose with the official runtime live. */
    sinew_instance *played = NULL;
    CHECK(sinew_instance_create(pip, &io, &played, &err) == SINEW_OK);
    if (played) {
        CHECK(sinew_instance_play(played, "idle", -1, &err) == SINEW_OK);
        CHECK(sinew_instance_replace_display(played, 0, "antenna", "eye", "eye", -1, &err) == SINEW_OK);
        sinew_instance_update(played, 0.0);
        sinew_drawlist pl;
        sinew_instance_drawlist(played, &pl);
        int found = 0;
        for (uint32_t c = 0; c < pl.cmd_count; c++)
            if (pl.cmds[c].armature == 0 && pl.cmds[c].slot == antenna) {
                const float *v = &pl.positions[2 * (size_t)pl.cmds[c].first_vertex];
                CHECK_NEAR(v[0], 0.8611428, 1e-3);
                CHECK_NEAR(v[1], -86.184668, 1e-3);
                found++;
            }
        CHECK(found == 1);
        sinew_instance_destroy(played);
    }
    /* a mesh does not move to another slot; unknown names are errors */
    CHECK(sinew_instance_replace_display(in, 0, "head", "tail", "tail", -1, &err) == SINEW_E_UNSUPPORTED);
    CHECK(sinew_instance_replace_display(in, 0, "eye", NULL, "nope", -1, &err) == SINEW_E_NOT_FOUND);
    CHECK(sinew_instance_replace_display(in, 0, "nope", NULL, "eye", -1, &err) == SINEW_E_NOT_FOUND);
    /* undone: the skin's own display again */
    CHECK(sinew_instance_replace_display(in, 0, "antenna", NULL, NULL, -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "antenna", &ss));
    CHECK_STR(ss.display_name, "antenna");
done:
    sinew_instance_destroy(in);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(pip);
}

static const sinew_draw_cmd *cmd_of(const sinew_drawlist *dl, uint32_t slot) {
    for (uint32_t c = 0; c < dl->cmd_count; c++)
        if (dl->cmds[c].armature == 0 && dl->cmds[c].slot == slot) return &dl->cmds[c];
    return NULL;
}

/* Pip 5.0 again: a display from the rotor armature, and an image region of the caller's own. */
static void test_replace_from_and_region(void) {
    sinew_data *pip = NULL;
    sinew_atlas *atlas = NULL;
    sinew_error err = {0};
    sinew_instance_options io = {0};
    sinew_instance *in = open_pip(&pip, &atlas, &io);
    if (!in) goto done;
    uint32_t wing = sinew_data_find_slot(pip, 0, "wing"), antenna = sinew_data_find_slot(pip, 0, "antenna");
    /* the rotor's blade in the wing slot: its name, and the blade's rectangle of the atlas */
    CHECK(sinew_instance_replace_display_from(in, 0, "wing", "rotor", "blade_a", "blade", -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    sinew_slot_state ss;
    CHECK(slot_named(in, "wing", &ss));
    CHECK_STR(ss.display_name, "blade");
    sinew_drawlist dl;
    sinew_instance_drawlist(in, &dl);
    const sinew_draw_cmd *c = cmd_of(&dl, wing);
    sinew_atlas_region_info ri;
    CHECK(c && sinew_atlas_get_region_info(atlas, sinew_atlas_find_region(atlas, "blade"), &ri) == SINEW_OK);
    if (c) {
        CHECK_NEAR(c->region[0], ri.x / 256.0f, 1e-6);
        CHECK_NEAR(c->region[3], (ri.y + ri.height) / 128.0f, 1e-6);
    }
    CHECK(sinew_instance_replace_display_from(in, 0, "wing", "rotr", "blade_a", "blade", -1, &err) ==
          SINEW_E_NOT_FOUND);
    CHECK(sinew_instance_replace_display_from(in, 0, "wing", "rotor", "blade_a", "wing", -1, &err) ==
          SINEW_E_NOT_FOUND);
    /* a mesh of the slot's own armature and slot may be named through its armature */
    CHECK(sinew_instance_replace_display_from(in, 0, "tail", "pip", NULL, "tail", -1, &err) == SINEW_OK);
    /* the rotor child armature sits where its slot's matrix puts it; the top one at identity */
    CHECK(slot_named(in, "rotor", &ss) && ss.child_armature != SINEW_INVALID_INDEX);
    sinew_affine place;
    CHECK(sinew_instance_armature_placement(in, ss.child_armature, &place));
    CHECK_NEAR(place.a, ss.world.a, 1e-6);
    CHECK_NEAR(place.c, ss.world.c, 1e-6);
    CHECK_NEAR(place.tx, ss.world.tx, 1e-4);
    CHECK_NEAR(place.ty, ss.world.ty, 1e-4);
    CHECK(sinew_instance_armature_placement(in, 0, &place) && place.a == 1 && place.b == 0 && place.tx == 0);
    CHECK(!sinew_instance_armature_placement(in, 99, &place));
    /* the caller's image: page 7 (64 x 64), the rectangle (16, 8) 20 x 10, pivot (0.25, 0.5): the
     * quad runs from (-5, -5) to (15, 5) in the antenna slot's space, its UVs from (16/64, 8/64)
     * to (36/64, 18/64); the slot keeps its matrix */
    CHECK(slot_named(in, "antenna", &ss));
    sinew_affine m = ss.world;
    sinew_user_region u = {7, 64, 64, 16.0f, 8.0f, 20.0f, 10.0f, 0.25f, 0.5f};
    CHECK(sinew_instance_replace_display_region(in, 0, "antenna", &u, -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "antenna", &ss) && ss.has_pivot && ss.display_type == 0);
    CHECK_NEAR(ss.pivot_x, 5.0, 1e-6);
    CHECK_NEAR(ss.pivot_y, 5.0, 1e-6);
    CHECK_NEAR(ss.world.tx, m.tx, 1e-6);
    CHECK_NEAR(ss.world.a, m.a, 1e-6);
    sinew_instance_drawlist(in, &dl);
    c = cmd_of(&dl, antenna);
    CHECK(c && c->page == 7 && c->vertex_count == 4);
    if (c) {
        const float *v = &dl.positions[2 * (size_t)c->first_vertex], *uv = &dl.uvs[2 * (size_t)c->first_vertex];
        CHECK_NEAR(v[0], m.a * -5 + m.c * -5 + m.tx, 1e-3); /* corner (-5, -5) */
        CHECK_NEAR(v[1], m.b * -5 + m.d * -5 + m.ty, 1e-3);
        CHECK_NEAR(v[4], m.a * 15 + m.c * 5 + m.tx, 1e-3); /* corner (15, 5) */
        CHECK_NEAR(v[5], m.b * 15 + m.d * 5 + m.ty, 1e-3);
        CHECK_NEAR(uv[0], 16.0 / 64, 1e-6);
        CHECK_NEAR(uv[1], 8.0 / 64, 1e-6);
        CHECK_NEAR(uv[4], 36.0 / 64, 1e-6);
        CHECK_NEAR(uv[5], 18.0 / 64, 1e-6);
    }
    /* a rectangle past its page, or no region, is refused; undone like any replacement */
    sinew_user_region bad = u;
    bad.x = 50.0f;
    CHECK(sinew_instance_replace_display_region(in, 0, "antenna", &bad, -1, &err) == SINEW_E_ARG);
    CHECK(sinew_instance_replace_display_region(in, 0, "antenna", NULL, -1, &err) == SINEW_E_ARG);
    CHECK(sinew_instance_replace_display(in, 0, "antenna", NULL, NULL, -1, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "antenna", &ss));
    CHECK_STR(ss.display_name, "antenna");
done:
    sinew_instance_destroy(in);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(pip);
}

/* The demo: skin "copper" gives 7 slots copper displays; one slot swapped alone. */
static void test_slot_skin(void) {
    sinew_data *demo = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_file("../examples/demo/demo_ske.json", NULL, &demo, &err) == SINEW_OK);
    sinew_instance *in = NULL;
    CHECK(demo && sinew_instance_create(demo, NULL, &in, &err) == SINEW_OK);
    if (!in) goto done;
    sinew_instance_update(in, 0.0);
    sinew_slot_state ss;
    CHECK(sinew_instance_set_slot_skin(in, 0, "head", "copper", &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "head", &ss));
    CHECK_STR(ss.display_name, "copper/head");
    CHECK(slot_named(in, "torso", &ss)); /* the others keep the default skin */
    CHECK(ss.display_name && strncmp(ss.display_name, "copper/", 7) != 0);
    CHECK(sinew_instance_set_slot_skin(in, 0, "antenna", "copper", &err) == SINEW_E_NOT_FOUND); /* copper has none */
    CHECK(sinew_instance_set_slot_skin(in, 0, "head", "bronze", &err) == SINEW_E_NOT_FOUND);
    CHECK(sinew_instance_set_slot_skin(in, 0, "helmet", "copper", &err) == SINEW_E_NOT_FOUND);
    /* the whole skin resets the single-slot choice */
    CHECK(sinew_instance_set_skin(in, NULL, &err) == SINEW_OK);
    sinew_instance_update(in, 0.0);
    CHECK(slot_named(in, "head", &ss) && ss.display_name && strncmp(ss.display_name, "copper/", 7) != 0);
done:
    sinew_instance_destroy(in);
    sinew_data_destroy(demo);
}

/* The official boundingBox shapes besides polygons: a rectangle (40 x 20 on a bone at (100, 0)) and
 * an ellipse (40 x 20 on a bone at (0, 100)), centred on their slots; a box without a subType is a
 * rectangle, as officially (its vertices ignored: of size 0 here, it is never hit). */
static void test_box_shapes(void) {
    static const char shapes[] =
        "{\"name\":\"bb\",\"version\":\"5.5\",\"frameRate\":24,\"armature\":[{\"name\":\"a\",\"frameRate\":24,"
        "\"bone\":[{\"name\":\"root\"},{\"name\":\"r\",\"parent\":\"root\",\"transform\":{\"x\":100}},"
        "{\"name\":\"e\",\"parent\":\"root\",\"transform\":{\"y\":100}}],"
        "\"slot\":[{\"name\":\"rect\",\"parent\":\"r\"},{\"name\":\"ell\",\"parent\":\"e\"},"
        "{\"name\":\"old\",\"parent\":\"root\"}],"
        "\"skin\":[{\"name\":\"\",\"slot\":["
        "{\"name\":\"rect\",\"display\":[{\"name\":\"rb\",\"type\":\"boundingBox\",\"subType\":\"rectangle\","
        "\"width\":40,\"height\":20,\"color\":16711680}]},"
        "{\"name\":\"ell\",\"display\":[{\"name\":\"eb\",\"type\":\"boundingBox\",\"subType\":1,"
        "\"width\":40,\"height\":20}]},"
        "{\"name\":\"old\",\"display\":[{\"name\":\"ob\",\"type\":\"boundingBox\","
        "\"vertices\":[0,0,40,0,0,40]}]}]}],"
        "\"animation\":[{\"name\":\"still\",\"duration\":1}]}]}";
    sinew_error err = {0};
    sinew_data *d = NULL;
    sinew_instance *in = NULL;
    CHECK(sinew_data_load_buffer(shapes, sizeof shapes - 1, "shapes.json", NULL, &d, &err) == SINEW_OK);
    CHECK(d && sinew_instance_create(d, NULL, &in, &err) == SINEW_OK);
    if (!in) {
        sinew_data_destroy(d);
        return;
    }
    sinew_instance_update(in, 0.0);
    /* the rectangle's corners, clockwise from the top left (y down) */
    float xy[64];
    CHECK(sinew_instance_slot_bounding_box(in, 0, 0, xy, 32) == 4);
    CHECK_NEAR(xy[0], 80, 1e-4);
    CHECK_NEAR(xy[1], -10, 1e-4);
    CHECK_NEAR(xy[4], 120, 1e-4);
    CHECK_NEAR(xy[5], 10, 1e-4);
    CHECK(sinew_instance_slot_contains_point(in, 0, 0, 110, 5));
    CHECK(!sinew_instance_slot_contains_point(in, 0, 0, 121, 0));
    CHECK(!sinew_instance_slot_contains_point(in, 0, 0, 100, 11));
    sinew_segment_hit h;
    CHECK(sinew_instance_slot_intersects_segment(in, 0, 0, 50, 0, 150, 0, &h) == 2);
    CHECK_NEAR(h.ax, 80, 1e-4);
    CHECK_NEAR(h.bx, 120, 1e-4);
    /* the ellipse: half axes 20 and 10 around (0, 100); its outline as 32 points from (20, 100) */
    CHECK(sinew_instance_slot_bounding_box(in, 0, 1, xy, 32) == 32);
    CHECK_NEAR(xy[0], 20, 1e-4);
    CHECK_NEAR(xy[1], 100, 1e-4);
    CHECK_NEAR(xy[16], 0, 1e-4); /* a quarter turn on: (0, 110) */
    CHECK_NEAR(xy[17], 110, 1e-4);
    CHECK(sinew_instance_slot_contains_point(in, 0, 1, 10, 104));  /* 0.25 + 0.16 <= 1 */
    CHECK(!sinew_instance_slot_contains_point(in, 0, 1, 15, 108)); /* 0.5625 + 0.64 > 1 */
    CHECK(sinew_instance_slot_contains_point(in, 0, 1, -19, 100));
    CHECK(sinew_instance_slot_intersects_segment(in, 0, 1, -50, 100, 50, 100, &h) == 2);
    CHECK_NEAR(h.ax, -20, 1e-4);
    CHECK_NEAR(h.ay, 100, 1e-4);
    CHECK_NEAR(h.bx, 20, 1e-4);
    CHECK_NEAR(fabs(h.normal_a), 3.14159265f, 1e-4); /* outwards: left at A, right at B */
    CHECK_NEAR(h.normal_b, 0, 1e-4);
    /* from inside, one crossing: the top of the ellipse, normal pointing up (y down: -pi/2) */
    CHECK(sinew_instance_slot_intersects_segment(in, 0, 1, 0, 100, 0, 50, &h) == 1);
    CHECK_NEAR(h.ay, 90, 1e-4);
    CHECK_NEAR(h.normal_a, -1.5707963f, 1e-4);
    /* no subType: a rectangle of size 0 */
    CHECK(!sinew_instance_slot_contains_point(in, 0, 2, 5, 5));
    CHECK(sinew_instance_slot_intersects_segment(in, 0, 2, 0, 20, 100, 20, NULL) == 0);
    sinew_instance_destroy(in);
    sinew_data_destroy(d);
}

int main(void) {
    RUN(test_replace_display);
    RUN(test_replace_from_and_region);
    RUN(test_slot_skin);
    setup();
    if (!inst) return test_summary();
    RUN(test_bounds);
    RUN(test_hit);
    RUN(test_bounding_box);
    RUN(test_segment);
    RUN(test_box_shapes);
    RUN(test_offsets);
    RUN(test_offsets_on_animation);
    RUN(test_cache_refuses);
    sinew_instance_destroy(inst);
    sinew_data_destroy(data);
    return test_summary();
}
