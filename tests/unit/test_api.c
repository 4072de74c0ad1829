/* The public API as a program written from the headers uses it: each function that no other test
 * calls directly is called here, on the project's own fixtures (tests/fixtures/own), and its
 * result checked against what the header promises and what the fixture holds (names, counts and
 * values read off the fixture files). cli.public_api checks that every declared function is
 * called by some test or example. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sinew/convert.h"
#include "sinew/export.h"
#include "sinew/render.h"
#include "sinew/sinew.h"
#include "testlib.h"

#define PIP45 "fixtures/own/Pip_4.5/pip_ske.json"
#define PIP50 "fixtures/own/Pip_5.0/pip_ske.json"
#define PIP50_TEX "fixtures/own/Pip_5.0/pip_tex.json"
#define PIP_XML "fixtures/own/Pip_xml/pip.xml"
#define WAVE10 "fixtures/own/mrtk/wave_1.0.bin"
#define WAVE11 "fixtures/own/mrtk/wave_1.1.bin"

static char tmp_root[64];

static const char *tmp_path(const char *name) {
    static char buf[4][256];
    static int next;
    char *p = buf[next++ & 3];
    snprintf(p, 256, "%s/%s", tmp_root, name);
    return p;
}

static sinew_data *load(const char *path) {
    sinew_data *d = NULL;
    sinew_error err = {0};
    if (sinew_data_load_file(path, NULL, &d, &err) != SINEW_OK)
        fprintf(stderr, "%s:%u:%u: error: %s\n", path, err.line, err.column, err.message);
    return d;
}

static size_t file_bytes(const char *path, uint8_t *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static bool file_exists(const char *path) { return access(path, F_OK) == 0; }

/* ---- data queries ----------------------------------------------------------------------------- */

static void test_data_queries(void) {
    sinew_data *d = load(PIP50);
    CHECK(d);
    if (!d) return;
    sinew_data_info di;
    sinew_data_get_info(d, &di);
    CHECK_STR(di.format, "dragonbones");
    CHECK_STR(di.name, "pip");
    CHECK_STR(di.version, "5.0");
    CHECK_NEAR(di.frame_rate, 24, 0);
    CHECK(di.armature_count == 2);

    uint32_t shin = sinew_data_find_bone(d, 0, "shin"), thigh = sinew_data_find_bone(d, 0, "thigh");
    CHECK(shin != SINEW_INVALID_INDEX && thigh != SINEW_INVALID_INDEX);
    CHECK(sinew_data_find_bone(d, 0, "nope") == SINEW_INVALID_INDEX);
    sinew_bone_info bi;
    CHECK(sinew_data_get_bone_info(d, 0, shin, &bi) == SINEW_OK);
    CHECK_STR(bi.name, "shin");
    CHECK(bi.parent == thigh);
    CHECK(sinew_data_get_bone_info(d, 0, 13, &bi) == SINEW_E_ARG); /* 13 bones */

    uint32_t eye = sinew_data_find_slot(d, 0, "eye");
    CHECK(eye == 9); /* the tenth slot of the file */
    sinew_slot_info si;
    CHECK(sinew_data_get_slot_info(d, 0, eye, &si) == SINEW_OK);
    CHECK_STR(si.name, "eye");
    CHECK(si.parent == sinew_data_find_bone(d, 0, "head"));
    CHECK(sinew_data_get_slot_info(d, 0, 15, &si) == SINEW_E_ARG);
    CHECK(sinew_data_find_slot(d, 1, "hub") == 2);

    uint32_t skin = sinew_data_find_skin(d, 0, "");
    CHECK(skin == 0);
    CHECK(sinew_data_find_skin(d, 0, "dusk") == SINEW_INVALID_INDEX);
    sinew_skin_info ski;
    CHECK(sinew_data_get_skin_info(d, 0, 0, &ski) == SINEW_OK);
    CHECK_STR(ski.name, "");
    CHECK(ski.slot_count == 15);
    CHECK(sinew_data_get_skin_info(d, 0, 1, &ski) == SINEW_E_ARG);

    /* leg_ik: bone shin, target foot, two bones (root thigh), bendPositive false; the order of
     * the constraints is the runtime's, not necessarily the file's */
    sinew_ik_info ik;
    uint32_t leg = sinew_data_get_ik_info(d, 0, 0, &ik) == SINEW_OK && strcmp(ik.name, "leg_ik") == 0 ? 0 : 1;
    CHECK(sinew_data_get_ik_info(d, 0, leg, &ik) == SINEW_OK);
    CHECK_STR(ik.name, "leg_ik");
    CHECK(ik.bone == shin && ik.target == sinew_data_find_bone(d, 0, "foot") && ik.root == thigh);
    CHECK(ik.chain == 1 && !ik.bend_positive);
    CHECK_NEAR(ik.weight, 1, 0);
    CHECK(sinew_data_get_ik_info(d, 0, 1 - leg, &ik) == SINEW_OK);
    CHECK_STR(ik.name, "antenna_ik");
    CHECK(ik.chain == 0 && ik.root == ik.bone);
    CHECK(sinew_data_get_ik_info(d, 0, 2, &ik) == SINEW_E_ARG);
    sinew_data_destroy(d);
}

/* tests/fixtures/oracle/slot_actions_ske.json: armature hero says defaultActions gotoAndPlay swing */
static void test_default_actions(void) {
    sinew_data *d = load("fixtures/oracle/slot_actions_ske.json");
    if (!d) { CHECK(d); return; }
    CHECK(sinew_data_default_action_count(d, 0) == 1);
    CHECK(sinew_data_default_action_count(d, 7) == 0);
    sinew_action_info a;
    CHECK(sinew_data_default_action(d, 0, 0, &a) == SINEW_OK);
    CHECK_STR(a.type, "play");
    CHECK_STR(a.name, "swing");
    CHECK(sinew_data_default_action(d, 0, 1, &a) == SINEW_E_ARG);
    /* off by default, as the official factory: nothing plays; on: swing plays from creation */
    sinew_instance *quiet = NULL, *acting = NULL;
    sinew_instance_options o = {0};
    sinew_error err = {0};
    CHECK(sinew_instance_create(d, &o, &quiet, &err) == SINEW_OK);
    o.run_default_actions = true;
    CHECK(sinew_instance_create(d, &o, &acting, &err) == SINEW_OK);
    if (quiet && acting) {
        CHECK(sinew_instance_state_count(quiet, 0) == 0);
        sinew_state_info si;
        CHECK(sinew_instance_state_count(acting, 0) == 1 && sinew_instance_state(acting, 0, 0, &si));
        CHECK_STR(si.name, "swing");
    }
    sinew_instance_destroy(quiet);
    sinew_instance_destroy(acting);
    sinew_data_destroy(d);
}

/* The main armature (sinew_data_default_armature): the 5.x stage, else the largest armature no
 * other one uses as a child, else the largest; what a NULL armature means to the instance. */
static void test_default_armature(void) {
    static const char prop_first[] =
        "{\"version\": \"5.5\", \"name\": \"t\", \"armature\": ["
        "{\"name\": \"prop\", \"bone\": [{\"name\": \"r\"}]},"
        "{\"name\": \"big_prop\", \"bone\": [{\"name\": \"r\"}, {\"name\": \"a\", \"parent\": \"r\"},"
        " {\"name\": \"b\", \"parent\": \"r\"}, {\"name\": \"c\", \"parent\": \"r\"}]},"
        "{\"name\": \"hero\", \"bone\": [{\"name\": \"r\"}, {\"name\": \"arm\", \"parent\": \"r\"}],"
        " \"slot\": [{\"name\": \"s\", \"parent\": \"arm\"}],"
        " \"skin\": [{\"slot\": [{\"name\": \"s\", \"display\": [{\"type\": \"armature\", \"name\": \"big_prop\"}]}]}]}"
        "]%s}";
    char text[2048];
    snprintf(text, sizeof text, prop_first, "");
    sinew_data *d = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_buffer(text, strlen(text), "t_ske.json", NULL, &d, &err) == SINEW_OK);
    if (!d) return;
    /* big_prop has the most bones but is hero's child: hero */
    CHECK(sinew_data_default_armature(d) == 2);
    sinew_instance *inst = NULL;
    sinew_instance_options o = {0};
    CHECK(sinew_instance_create(d, &o, &inst, &err) == SINEW_OK);
    if (inst) CHECK_STR(sinew_instance_armature_name(inst, 0), "hero");
    sinew_instance_destroy(inst);
    uint32_t ai = 99;
    const char *overlay = NULL;
    CHECK(sinew_data_resolve_skin(d, NULL, NULL, &ai, &overlay, &err) == SINEW_OK && ai == 2);
    sinew_data_destroy(d);
    /* the file's stage wins */
    snprintf(text, sizeof text, prop_first, ", \"stage\": \"prop\"");
    d = NULL;
    CHECK(sinew_data_load_buffer(text, strlen(text), "t_ske.json", NULL, &d, &err) == SINEW_OK);
    if (d) CHECK(sinew_data_default_armature(d) == 0);
    sinew_data_destroy(d);
    CHECK(sinew_data_default_armature(NULL) == SINEW_INVALID_INDEX);
}

static void test_load_limits(void) {
    sinew_load_limits l;
    sinew_load_limits_resolve(NULL, &l);
    CHECK(l.max_input_bytes == 256ull << 20 && l.max_memory_bytes == 1ull << 30);
    CHECK(l.max_depth == 64 && l.max_array_length == 4000000 && l.max_armatures == 4096);
    CHECK(l.max_bones == 65536 && l.max_slots == 65536 && l.max_vertices == 1000000);
    CHECK(l.max_animation_frames == 1000000);
    sinew_load_limits in = {0};
    in.max_depth = 5;
    sinew_load_limits_resolve(&in, &l);
    CHECK(l.max_depth == 5 && l.max_bones == 65536);

    /* the resolved limits are the ones applied: a depth of 5 rejects the fixture */
    sinew_load_options o = {0};
    o.limits = in;
    sinew_data *d = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_file(PIP50, &o, &d, &err) == SINEW_E_LIMIT && d == NULL);
}

/* ---- atlas -------------------------------------------------------------------------------------- */

static void test_atlas(void) {
    char path[512];
    CHECK(sinew_atlas_find_for(PIP50, path, sizeof path) == SINEW_OK);
    CHECK_STR(path, PIP50_TEX);
    CHECK(sinew_atlas_find_for("fixtures/own/Pip_4.0/pip.json", path, sizeof path) == SINEW_OK);
    CHECK_STR(path, "fixtures/own/Pip_4.0/texture.json");
    CHECK(sinew_atlas_find_for(PIP50, path, 8) == SINEW_E_ARG);
    CHECK(sinew_atlas_find_for("fixtures/own/mrtk/x_ske.json", path, sizeof path) == SINEW_E_NOT_FOUND);

    static uint8_t buf[1 << 16];
    size_t n = file_bytes(PIP50_TEX, buf, sizeof buf);
    CHECK(n > 0 && n < sizeof buf);
    sinew_atlas *a = NULL;
    sinew_error err = {0};
    CHECK(sinew_atlas_load_buffer(buf, n, "pip_tex.json", "fixtures/own/Pip_5.0", NULL, &a, &err) == SINEW_OK);
    if (!a) return;
    sinew_atlas_info ai;
    sinew_atlas_get_info(a, &ai);
    CHECK(ai.page_count == 1 && ai.region_count == 17);
    sinew_atlas_page_info pi;
    CHECK(sinew_atlas_get_page_info(a, 0, &pi) == SINEW_OK);
    CHECK_STR(pi.resolved_path, "fixtures/own/Pip_5.0/pip_tex.png");

    /* "thigh" is stored rotated and trimmed, "tail" rotated and untrimmed, "cape" neither */
    uint32_t thigh = sinew_atlas_find_region(a, "thigh");
    CHECK(thigh != SINEW_INVALID_INDEX);
    sinew_atlas_region_info ri;
    CHECK(sinew_atlas_get_region_info(a, thigh, &ri) == SINEW_OK);
    CHECK_STR(ri.name, "thigh");
    CHECK(ri.rotated && ri.has_frame && ri.page == 0);
    CHECK(sinew_atlas_get_region_info(a, sinew_atlas_find_region(a, "tail"), &ri) == SINEW_OK);
    CHECK(ri.rotated && !ri.has_frame);
    CHECK(sinew_atlas_get_region_info(a, sinew_atlas_find_region(a, "cape"), &ri) == SINEW_OK);
    CHECK(!ri.rotated && !ri.has_frame);
    CHECK(sinew_atlas_find_region(a, "nope") == SINEW_INVALID_INDEX);
    CHECK(sinew_atlas_get_region_info(a, 17, &ri) == SINEW_E_ARG);
    sinew_atlas_destroy(a);

    /* a buffer that is not an atlas fails with a location and leaves *out NULL */
    a = NULL;
    CHECK(sinew_atlas_load_buffer("{\"SubTexture\": 3}", 17, "bad.json", NULL, NULL, &a, &err) != SINEW_OK);
    CHECK(a == NULL && err.line == 1);
}

typedef struct log_count {
    int warnings, located;
} log_count;

static void count_log(void *user, sinew_log_level level, const sinew_error *e) {
    log_count *c = user;
    c->warnings += level == SINEW_LOG_WARNING;
    c->located += e->line > 0 && strncmp(e->path, "armature[0].skin[0].slot[", 25) == 0;
}

static void test_check_atlas(void) {
    sinew_data *d = load(PIP50);
    sinew_atlas *full = NULL, *one = NULL;
    sinew_error err = {0};
    CHECK(sinew_atlas_load_file(PIP50_TEX, NULL, &full, &err) == SINEW_OK);
    /* an atlas with only the body's region: every other image and mesh display misses its region */
    static const char one_region[] =
        "{\"imagePath\": \"pip_tex.png\", \"SubTexture\": [{\"name\": \"body\", \"x\": 0, \"y\": 0, "
        "\"width\": 8, \"height\": 8}]}";
    CHECK(sinew_atlas_load_buffer(one_region, sizeof one_region - 1, "one.json", NULL, NULL, &one, &err) == SINEW_OK);
    if (d && full && one) {
        log_count c = {0, 0};
        CHECK(sinew_data_check_atlas(d, full, PIP50, count_log, &c) == 0 && c.warnings == 0);
        uint32_t n = sinew_data_check_atlas(d, one, PIP50, count_log, &c);
        CHECK(n > 10 && c.warnings == (int)n);
        CHECK(c.located > 10); /* the pip armature's displays, each at its line and column */
        CHECK(sinew_data_check_atlas(d, one, NULL, NULL, NULL) == n);
    }
    sinew_atlas_destroy(full);
    sinew_atlas_destroy(one);
    sinew_data_destroy(d);
}

static void test_texture_pages(void) {
    const char *pages[] = {"fixtures/own/Pip_5.0/pip_tex.png"};
    sinew_texture_set *tex = NULL;
    sinew_error err = {0};
    CHECK(sinew_texture_set_load(pages, 1, NULL, &tex, &err) == SINEW_OK);
    if (!tex) return;
    CHECK(sinew_texture_set_page_count(tex) == 1);
    uint32_t w = 0, h = 0;
    const uint8_t *px = NULL;
    CHECK(sinew_texture_set_page(tex, 0, &w, &h, &px));
    CHECK(w == 256 && h == 128 && px != NULL); /* the atlas JSON says 256 x 128 */
    CHECK(!sinew_texture_set_page(tex, 1, &w, &h, &px));
    CHECK(sinew_texture_set_page(tex, 0, NULL, NULL, NULL));
    sinew_texture_set_destroy(tex);
}

static void test_rects(void) {
    sinew_rect e = sinew_rect_empty();
    CHECK(sinew_rect_is_empty(e));
    sinew_rect a = {0, 0, 10, 5}, b = {-2, 3, 4, 8};
    CHECK(!sinew_rect_is_empty(a));
    sinew_rect u = sinew_rect_union(a, b);
    CHECK(u.x0 == -2 && u.y0 == 0 && u.x1 == 10 && u.y1 == 8);
    u = sinew_rect_union(e, b);
    CHECK(u.x0 == -2 && u.y0 == 3 && u.x1 == 4 && u.y1 == 8);
    u = sinew_rect_union(a, e);
    CHECK(u.x0 == 0 && u.y0 == 0 && u.x1 == 10 && u.y1 == 5);
    CHECK(sinew_rect_is_empty((sinew_rect){0, 2, 1, 1}));
}

/* ---- instance ------------------------------------------------------------------------------------ */

static const sinew_state_info *state_named(const sinew_instance *in, uint32_t arm, const char *name,
                                           sinew_state_info *si) {
    for (uint32_t i = 0; i < sinew_instance_state_count(in, arm); i++)
        if (sinew_instance_state(in, arm, i, si) && strcmp(si->name, name) == 0) return si;
    return NULL;
}

static void test_instance_structure(void) {
    sinew_data *d = load(PIP50);
    if (!d) { CHECK(d); return; }
    sinew_instance *in = NULL;
    sinew_error err = {0};
    CHECK(sinew_instance_create(d, NULL, &in, &err) == SINEW_OK);
    if (!in) { sinew_data_destroy(d); return; }
    CHECK(sinew_instance_memory(in) > 0);
    CHECK(sinew_instance_max_states(in) == 16);
    CHECK(sinew_instance_armature_count(in) == 2); /* pip and the rotor it shows */
    CHECK_STR(sinew_instance_armature_name(in, 0), "pip");
    CHECK_STR(sinew_instance_armature_name(in, 1), "rotor");
    CHECK(sinew_instance_armature_name(in, 2) == NULL);
    CHECK(sinew_instance_bone_count(in, 0) == 13 && sinew_instance_bone_count(in, 1) == 2);
    CHECK(sinew_instance_slot_count(in, 0) == 15 && sinew_instance_slot_count(in, 1) == 3);

    sinew_slot_state ss;
    CHECK(sinew_instance_slot(in, 0, 0, &ss)); /* setup draw order: the file's slot order */
    CHECK_STR(ss.name, "shadow");
    CHECK(ss.draw_index == 0);
    CHECK(sinew_instance_slot(in, 0, 13, &ss));
    CHECK_STR(ss.name, "rotor");
    CHECK(ss.display_type == 1 && ss.child_armature == 1);
    CHECK(!sinew_instance_slot(in, 0, 15, &ss));

    CHECK(sinew_instance_set_skin(in, NULL, &err) == SINEW_OK);
    CHECK(sinew_instance_set_skin(in, "", &err) == SINEW_OK);
    CHECK(sinew_instance_set_skin(in, "dusk", &err) == SINEW_E_NOT_FOUND);

    /* the child armature plays on its own: play_on armature 1 */
    CHECK(sinew_instance_play_on(in, 1, "spin", 0, &err) == SINEW_OK);
    sinew_instance_update(in, 0.1);
    sinew_state_info si;
    CHECK(state_named(in, 1, "spin", &si) && si.playing);
    CHECK(sinew_instance_play_on(in, 1, "hop", 0, &err) == SINEW_E_NOT_FOUND); /* hop is pip's */
    sinew_instance_destroy(in);

    /* DragonBones: the skin overlays the armature itself */
    uint32_t arm = 99;
    const char *overlay = "x";
    CHECK(sinew_data_resolve_skin(d, "rotor", NULL, &arm, &overlay, &err) == SINEW_OK);
    CHECK(arm == 1 && overlay == NULL);
    CHECK(sinew_data_resolve_skin(d, NULL, "", &arm, &overlay, &err) == SINEW_OK);
    CHECK(arm == 0 && overlay == NULL);
    CHECK(sinew_data_resolve_skin(d, NULL, "dusk", &arm, &overlay, &err) == SINEW_E_NOT_FOUND);
    CHECK(sinew_data_resolve_skin(d, "nope", NULL, &arm, &overlay, &err) == SINEW_E_NOT_FOUND);
    sinew_data_destroy(d);

    /* an XML rig holds one armature per skin: NAME and NAME@SKIN */
    d = load(PIP_XML);
    if (!d) { CHECK(d); return; }
    CHECK(sinew_data_resolve_skin(d, NULL, "dusk", &arm, &overlay, &err) == SINEW_OK);
    sinew_armature_info ai;
    CHECK(sinew_data_get_armature_info(d, arm, &ai) == SINEW_OK);
    CHECK_STR(ai.name, "pip@dusk");
    CHECK(overlay == NULL);
    CHECK(sinew_data_resolve_skin(d, NULL, "dawn", &arm, &overlay, &err) == SINEW_E_NOT_FOUND);
    sinew_data_destroy(d);
}

static void test_instance_control(void) {
    sinew_data *d = load(PIP50);
    if (!d) { CHECK(d); return; }
    uint32_t idle_i = sinew_data_find_animation(d, 0, "idle");
    sinew_animation_info idle;
    CHECK(sinew_data_get_animation_info(d, 0, idle_i, &idle) == SINEW_OK); /* 24 frames at 24 fps */
    CHECK_NEAR(idle.duration_s, 1.0, 1e-9);

    sinew_instance_options o = {0};
    o.max_states = 2;
    sinew_instance *in = NULL;
    sinew_error err = {0};
    CHECK(sinew_instance_create(d, &o, &in, &err) == SINEW_OK);
    if (!in) { sinew_data_destroy(d); return; }
    CHECK(sinew_instance_max_states(in) == 2);

    /* goto: the playhead lands where asked, in each unit */
    sinew_state_info si;
    CHECK(sinew_instance_goto_and_play(in, 0, "idle", SINEW_GOTO_PROGRESS, 0.5, 0, &err) == SINEW_OK);
    sinew_instance_update(in, 0);
    CHECK(state_named(in, 0, "idle", &si) && si.playing);
    CHECK_NEAR(si.current_time, 0.5, 1e-6);
    CHECK(sinew_instance_goto_and_play(in, 0, "idle", SINEW_GOTO_FRAME, 6, 0, &err) == SINEW_OK);
    sinew_instance_update(in, 0);
    CHECK(state_named(in, 0, "idle", &si));
    CHECK_NEAR(si.current_time, 0.25, 1e-6);
    CHECK(sinew_instance_goto_and_play(in, 0, "walk", SINEW_GOTO_TIME, 0, 0, &err) == SINEW_E_NOT_FOUND);

    /* the armature time scale multiplies the state's, the state's its own */
    sinew_instance_set_time_scale(in, 0, 2.0);
    sinew_instance_update(in, 0.1);
    CHECK(state_named(in, 0, "idle", &si));
    CHECK_NEAR(si.current_time, 0.45, 1e-6);
    CHECK(sinew_instance_state_set_time_scale(in, 0, "idle", 0.5));
    CHECK(!sinew_instance_state_set_time_scale(in, 0, "hop", 0.5)); /* not playing */
    sinew_instance_update(in, 0.1);
    CHECK(state_named(in, 0, "idle", &si));
    CHECK_NEAR(si.current_time, 0.55, 1e-6);
    CHECK_NEAR(si.time_scale, 0.5, 0);
    sinew_instance_set_time_scale(in, 0, 1.0);

    CHECK(sinew_instance_state_set_weight(in, 0, "idle", 0.25));
    CHECK(!sinew_instance_state_set_weight(in, 0, "hop", 0.25));
    CHECK(state_named(in, 0, "idle", &si));
    CHECK_NEAR(si.weight, 0.25, 0);

    /* stop pauses: time no longer moves */
    sinew_instance_stop(in, 0, "idle");
    sinew_instance_update(in, 0.2);
    CHECK(state_named(in, 0, "idle", &si) && !si.playing);
    CHECK_NEAR(si.current_time, 0.55, 1e-6);

    /* two states fit; a third fading alongside them ends the oldest early, and says so */
    CHECK(sinew_instance_states_dropped(in) == 0);
    sinew_fade_options f = sinew_fade_defaults();
    f.fade_in_time = 0.5;
    f.fade_out_mode = SINEW_FADE_OUT_NONE;
    CHECK(sinew_instance_fade_in(in, 0, "hop", &f, &err) == SINEW_OK);
    sinew_instance_update(in, 0.05);
    CHECK(sinew_instance_state_count(in, 0) == 2);
    f.layer = 1;
    CHECK(sinew_instance_fade_in(in, 0, "idle", &f, &err) == SINEW_OK);
    sinew_instance_update(in, 0.05);
    CHECK(sinew_instance_state_count(in, 0) == 2);
    CHECK(sinew_instance_states_dropped(in) == 1);

    /* a fade-in's scale or weight that is not a finite number is refused and changes nothing (an
       infinite scale made its zero-time update a NaN playhead); -infinity is "the animation's own" */
    sinew_fade_options bad[4];
    for (int i = 0; i < 4; ++i)
        bad[i] = sinew_fade_defaults();
    bad[0].time_scale = INFINITY;
    bad[1].time_scale = NAN;
    bad[2].weight = NAN;
    bad[3].weight = -INFINITY;
    for (int i = 0; i < 4; ++i) {
        memset(&err, 0, sizeof err);
        CHECK(sinew_instance_fade_in(in, 0, "hop", &bad[i], &err) == SINEW_E_ARG);
        CHECK(strstr(err.message, i < 2 ? "time_scale" : "weight") != NULL);
        CHECK(sinew_instance_state_count(in, 0) == 2 && sinew_instance_states_dropped(in) == 1);
    }
    f = sinew_fade_defaults();
    f.time_scale = -INFINITY;
    CHECK(sinew_instance_fade_in(in, 0, "hop", &f, &err) == SINEW_OK);
    CHECK(state_named(in, 0, "hop", &si) && si.time_scale == 1.0 && isfinite(si.current_time));
    sinew_instance_destroy(in);
    sinew_data_destroy(d);
}

/* Plays Pip 4.5's hop for 24 loops without polling; then polls every event queued and gives
 * their number. */
static int hop_unpolled_queued(sinew_instance *in, sinew_error *err) {
    CHECK(sinew_instance_play(in, "hop", 0, err) == SINEW_OK);
    for (int i = 0; i < 24 * 16; i++) sinew_instance_update(in, 1.0 / 24);
    int queued = 0;
    sinew_event ev;
    while (sinew_instance_poll_event(in, &ev)) queued++;
    return queued;
}

static void test_events_dropped(void) {
    /* Pip 4.5's hop (16 frames, 24 fps) fires "jump", the sound "boing" and "land" on each loop */
    sinew_data *d = load(PIP45);
    if (!d) { CHECK(d); return; }
    sinew_instance *in = NULL;
    sinew_error err = {0};
    CHECK(sinew_instance_create(d, NULL, &in, &err) == SINEW_OK);
    if (!in) { sinew_data_destroy(d); return; }
    CHECK(sinew_instance_play(in, "hop", 0, &err) == SINEW_OK);
    int polled = 0, frame_events = 0;
    for (int i = 0; i < 64; i++) { /* four loops, polled as they come: nothing is dropped */
        sinew_instance_update(in, 1.0 / 24);
        sinew_event ev;
        while (sinew_instance_poll_event(in, &ev)) {
            polled++;
            frame_events += ev.type == SINEW_EVENT_FRAME || ev.type == SINEW_EVENT_SOUND;
        }
    }
    CHECK(frame_events == 12);
    CHECK(sinew_instance_events_dropped(in) == 0);
    for (int i = 0; i < 24 * 16; i++) sinew_instance_update(in, 1.0 / 24); /* 24 loops, never polled */
    CHECK(sinew_instance_events_dropped(in) > 0);
    int queued = 0;
    sinew_event ev;
    while (sinew_instance_poll_event(in, &ev)) queued++;
    CHECK(queued == 64 + 16); /* 64, and 16 for Pip's one child armature (its rotor) */
    CHECK(polled > frame_events);
    sinew_instance_destroy(in);

    /* a queue of its own size: the same 24 loops fit in 1000 */
    sinew_instance_options opt = {0};
    opt.max_events = 1000;
    in = NULL;
    CHECK(sinew_instance_create(d, &opt, &in, &err) == SINEW_OK);
    if (in) {
        queued = hop_unpolled_queued(in, &err);
        CHECK(sinew_instance_events_dropped(in) == 0);
        CHECK(queued > 64 && queued <= 1000);
        opt.max_events = 8; /* and a small one drops past 8 */
        sinew_instance_destroy(in);
        in = NULL;
        CHECK(sinew_instance_create(d, &opt, &in, &err) == SINEW_OK);
    }
    if (in) {
        queued = hop_unpolled_queued(in, &err);
        CHECK(queued == 8);
        CHECK(sinew_instance_events_dropped(in) > 0);
    }
    sinew_instance_destroy(in);
    sinew_data_destroy(d);
}

static void test_frame_cache(void) {
    sinew_data *d = load(PIP50);
    if (!d) { CHECK(d); return; }
    sinew_frame_cache *c = NULL;
    sinew_error err = {0};
    CHECK(sinew_frame_cache_create(d, 0, NULL, &c, &err) == SINEW_E_ARG && c == NULL);
    CHECK(sinew_frame_cache_create(d, 2000, NULL, &c, &err) == SINEW_E_ARG && c == NULL);
    CHECK(sinew_frame_cache_create(d, 24, NULL, &c, &err) == SINEW_OK);
    if (!c) { sinew_data_destroy(d); return; }
    CHECK(sinew_frame_cache_memory(c) > 0);
    CHECK(sinew_frame_cache_filled(c) == 0);

    sinew_instance_options o = {0};
    o.frame_cache = c;
    sinew_instance *a = NULL, *b = NULL, *plain = NULL;
    CHECK(sinew_instance_create(d, &o, &a, &err) == SINEW_OK);
    CHECK(sinew_instance_create(d, &o, &b, &err) == SINEW_OK);
    CHECK(sinew_instance_create(d, NULL, &plain, &err) == SINEW_OK);
    if (a && b && plain) {
        sinew_instance_play(a, "idle", 0, &err);
        for (int i = 0; i < 24; i++) sinew_instance_update(a, 1.0 / 24); /* one loop: 24 cache frames */
        uint32_t filled = sinew_frame_cache_filled(c);
        CHECK(filled >= 24); /* pip's 24, and the frames of the rotor it shows */
        /* a second instance on the same frames reads them and fills nothing new, with the same pose
         * as an uncached instance at those (cache-frame) times */
        sinew_instance_play(b, "idle", 0, &err);
        sinew_instance_play(plain, "idle", 0, &err);
        for (int i = 0; i < 12; i++) {
            sinew_instance_update(b, 1.0 / 24);
            sinew_instance_update(plain, 1.0 / 24);
        }
        CHECK(sinew_frame_cache_filled(c) == filled);
        sinew_affine wb, wp;
        const char *name;
        uint32_t parent;
        CHECK(sinew_instance_bone(b, 0, 2, &name, &parent, &wb));
        CHECK(sinew_instance_bone(plain, 0, 2, &name, &parent, &wp));
        CHECK_NEAR(wb.tx, wp.tx, 1e-3);
        CHECK_NEAR(wb.ty, wp.ty, 1e-3);
        CHECK_NEAR(wb.a, wp.a, 1e-5);
    }
    sinew_instance_destroy(a);
    sinew_instance_destroy(b);
    sinew_instance_destroy(plain);
    sinew_frame_cache_destroy(c);
    sinew_data_destroy(d);
}

/* Playing by index is playing by name: the state plays the animation the index names, and the
 * poses agree bone by bone; an index out of range is SINEW_E_NOT_FOUND and changes nothing. */
static void test_play_index(void) {
    sinew_data *d = load(PIP50);
    if (!d) { CHECK(d); return; }
    sinew_error err = {0};
    sinew_instance *by_name = NULL, *by_index = NULL;
    CHECK(sinew_instance_create(d, NULL, &by_name, &err) == SINEW_OK);
    CHECK(sinew_instance_create(d, NULL, &by_index, &err) == SINEW_OK);
    uint32_t arm = sinew_data_default_armature(d);
    uint32_t idx = sinew_data_find_animation(d, arm, "hop");
    CHECK(idx != SINEW_INVALID_INDEX && idx > 0); /* not the first: an index that is not 0 */
    sinew_animation_info ai;
    CHECK(sinew_data_get_animation_info(d, arm, idx, &ai) == SINEW_OK && strcmp(ai.name, "hop") == 0);
    if (by_name && by_index && idx != SINEW_INVALID_INDEX) {
        CHECK(sinew_instance_play(by_name, "hop", 0, &err) == SINEW_OK);
        CHECK(sinew_instance_play_index(by_index, 0, idx, 0, &err) == SINEW_OK);
        for (int i = 0; i < 7; i++) {
            sinew_instance_update(by_name, 1.0 / 24);
            sinew_instance_update(by_index, 1.0 / 24);
        }
        sinew_state_info s;
        CHECK(sinew_instance_state_count(by_index, 0) == 1);
        CHECK(sinew_instance_state(by_index, 0, 0, &s) && strcmp(s.name, "hop") == 0);
        for (uint32_t b = 0; b < sinew_instance_bone_count(by_name, 0); b++) {
            sinew_affine wn, wi;
            const char *name;
            uint32_t parent;
            CHECK(sinew_instance_bone(by_name, 0, b, &name, &parent, &wn));
            CHECK(sinew_instance_bone(by_index, 0, b, &name, &parent, &wi));
            CHECK(wn.a == wi.a && wn.b == wi.b && wn.tx == wi.tx && wn.ty == wi.ty);
        }
        sinew_armature_info arm_info;
        CHECK(sinew_data_get_armature_info(d, arm, &arm_info) == SINEW_OK);
        err = (sinew_error){0};
        CHECK(sinew_instance_play_index(by_index, 0, arm_info.animation_count, 0, &err) == SINEW_E_NOT_FOUND);
        CHECK(strstr(err.message, "no animation") != NULL);
        CHECK(sinew_instance_state(by_index, 0, 0, &s) && strcmp(s.name, "hop") == 0);
        CHECK(sinew_instance_play_index(by_index, 9, 0, 0, &err) == SINEW_E_ARG);
        CHECK(sinew_instance_play_index(NULL, 0, 0, 0, &err) == SINEW_E_ARG);
    }
    sinew_instance_destroy(by_name);
    sinew_instance_destroy(by_index);
    sinew_data_destroy(d);
}

/* ---- scripts ------------------------------------------------------------------------------------- */

static void test_script(void) {
    sinew_data *d = load(PIP50);
    if (!d) { CHECK(d); return; }
    static const char text[] =
        "{\"scenarios\": [{\"name\": \"s\", \"armature\": \"pip\", \"frames\": 10, \"commands\": [\n"
        "  {\"t\": 0.1, \"op\": \"fadeIn\", \"animation\": \"hop\", \"fadeInTime\": 0.2, \"layer\": 2},\n"
        "  {\"t\": 0, \"op\": \"play\", \"animation\": \"idle\"}]}]}";
    sinew_script *s = NULL;
    sinew_error err = {0};
    CHECK(sinew_script_load_buffer(text, sizeof text - 1, "mem.json", d, NULL, &s, &err) == SINEW_OK);
    if (s) {
        CHECK(sinew_script_count(s) == 1);
        const sinew_scenario *sc = sinew_script_scenario(s, 0);
        CHECK(sinew_script_scenario(s, 1) == NULL);
        CHECK(sc && sc->frames == 10 && sc->command_count == 2);
        if (sc && sc->command_count == 2) {
            CHECK_NEAR(sc->fps, 24, 0); /* omitted: the armature's frame rate */
            CHECK(sc->commands[0].op == SINEW_OP_PLAY && sc->commands[0].index == 1); /* sorted by t */
            CHECK(sc->commands[1].op == SINEW_OP_FADE_IN && sc->commands[1].layer == 2);
            CHECK(sc->commands[1].fade_out_mode == SINEW_FADE_OUT_SAME_LAYER_AND_GROUP);
            sinew_instance *in = NULL;
            CHECK(sinew_instance_create(d, NULL, &in, &err) == SINEW_OK);
            CHECK(sinew_script_issue(in, &sc->commands[0], &err) == SINEW_OK);
            CHECK(sinew_script_issue(in, &sc->commands[1], &err) == SINEW_OK);
            sinew_instance_update(in, 0);
            sinew_state_info si;
            CHECK(state_named(in, 0, "hop", &si) && si.layer == 2 && si.fading_in);
            CHECK(state_named(in, 0, "idle", &si) && si.layer == 0);
            sinew_instance_destroy(in);
        }
        sinew_script_destroy(s);
    }
    /* an unknown animation is an error at its line and column */
    static const char bad[] = "{\"scenarios\": [{\"name\": \"s\", \"frames\": 1, \"commands\": [\n"
                              "  {\"t\": 0, \"op\": \"play\", \"animation\": \"walk\"}]}]}";
    s = NULL;
    CHECK(sinew_script_load_buffer(bad, sizeof bad - 1, "bad.json", d, NULL, &s, &err) == SINEW_E_NOT_FOUND);
    CHECK(s == NULL && err.line == 2);

    CHECK(sinew_script_load_file("fixtures/scenarios/pip.json", d, NULL, &s, &err) == SINEW_OK);
    CHECK(s && sinew_script_count(s) > 3);
    sinew_script_destroy(s);
    sinew_data_destroy(d);
}

/* ---- files ------------------------------------------------------------------------------------------ */

static void test_atomic(void) {
    const char *out = tmp_path("atomic.txt");
    const char *inputs[] = {out};
    sinew_atomic_file *af = NULL;
    FILE *f = NULL;
    sinew_error err = {0};
    CHECK(sinew_atomic_open(out, NULL, 0, &af, &f, &err) == SINEW_OK);
    if (af) {
        fputs("hello\n", f);
        CHECK(!file_exists(out)); /* nothing visible before the commit */
        CHECK(sinew_atomic_commit(af, &err) == SINEW_OK);
    }
    uint8_t buf[16];
    CHECK(file_bytes(out, buf, sizeof buf) == 6 && memcmp(buf, "hello\n", 6) == 0);

    /* a discarded write leaves the old file as it was */
    af = NULL;
    CHECK(sinew_atomic_open(tmp_path("second.txt"), NULL, 0, &af, &f, &err) == SINEW_OK);
    if (af) {
        fputs("partial", f);
        sinew_atomic_discard(af);
    }
    CHECK(!file_exists(tmp_path("second.txt")));
    sinew_atomic_discard(NULL);

    /* an input is never the output; a missing folder is an I/O error */
    af = NULL;
    CHECK(sinew_atomic_open(out, inputs, 1, &af, &f, &err) == SINEW_E_ARG && af == NULL);
    CHECK(sinew_atomic_open(tmp_path("no/such/file.txt"), NULL, 0, &af, &f, &err) == SINEW_E_IO && af == NULL);
}

static mode_t mode_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)07777;
}

/* The permission bits of the temporary files beside `name` (".NAME.tmp-XXXXXX"), OR'ed. */
static mode_t temp_modes(const char *name) {
    char prefix[128];
    snprintf(prefix, sizeof prefix, ".%s.tmp-", name);
    mode_t m = 0;
    DIR *d = opendir(tmp_root);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) m |= mode_of(tmp_path(e->d_name));
    if (d) closedir(d);
    return m;
}

/* Writes `text` to tmp_root/name through sinew_atomic_*; `*open_mode` gets the temporary file's mode. */
static sinew_status write_text(const char *name, const char *text, mode_t *open_mode) {
    sinew_atomic_file *af = NULL;
    FILE *f = NULL;
    sinew_error err = {0};
    sinew_status st = sinew_atomic_open(tmp_path(name), NULL, 0, &af, &f, &err);
    if (st) return st;
    fputs(text, f);
    if (open_mode) *open_mode = temp_modes(name);
    return sinew_atomic_commit(af, &err);
}

/* File modes: a new file gets what open(2) gives with 0666 (0666 minus the umask), a replaced
 * file keeps its permission bits (and its owner and group where the process may set them), and
 * the temporary file of a replaced 0600 file is never readable by others while it is written. */
static void test_atomic_modes(void) {
    mode_t old_umask = umask(077), during = 0;
    CHECK(write_text("new_077.txt", "a", &during) == SINEW_OK);
    CHECK(mode_of(tmp_path("new_077.txt")) == 0600 && during == 0600);
    umask(022);
    CHECK(write_text("new_022.txt", "a", &during) == SINEW_OK);
    CHECK(mode_of(tmp_path("new_022.txt")) == 0644 && during == 0644);
    umask(002);
    CHECK(write_text("new_002.txt", "a", NULL) == SINEW_OK);
    CHECK(mode_of(tmp_path("new_002.txt")) == 0664);

    /* replaced: 0600 stays 0600 under umask 022, 0755 stays 0755 under umask 077 */
    umask(022);
    CHECK(write_text("secret.txt", "old", NULL) == SINEW_OK && chmod(tmp_path("secret.txt"), 0600) == 0);
    CHECK(write_text("secret.txt", "new", &during) == SINEW_OK);
    CHECK(mode_of(tmp_path("secret.txt")) == 0600 && (during & 077) == 0);
    uint8_t buf[8];
    CHECK(file_bytes(tmp_path("secret.txt"), buf, sizeof buf) == 3 && memcmp(buf, "new", 3) == 0);
    umask(077);
    CHECK(chmod(tmp_path("secret.txt"), 0755) == 0);
    CHECK(write_text("secret.txt", "newer", NULL) == SINEW_OK);
    CHECK(mode_of(tmp_path("secret.txt")) == 0755);
    /* an export (sinew_png_write) too */
    uint8_t px[4] = {1, 2, 3, 4};
    CHECK(sinew_png_write(tmp_path("new_077.png"), px, 1, 1, 0, NULL, 0, NULL) == SINEW_OK);
    CHECK(mode_of(tmp_path("new_077.png")) == 0600);
    CHECK(chmod(tmp_path("new_077.png"), 0640) == 0);
    CHECK(sinew_png_write(tmp_path("new_077.png"), px, 1, 1, 0, NULL, 0, NULL) == SINEW_OK);
    CHECK(mode_of(tmp_path("new_077.png")) == 0640);
    /* owner and group: root may set any (the tests run as root in CI; others skip this part) */
    if (geteuid() == 0) {
        CHECK(chown(tmp_path("secret.txt"), 4321, 4322) == 0);
        CHECK(write_text("secret.txt", "newest", NULL) == SINEW_OK);
        struct stat st;
        CHECK(stat(tmp_path("secret.txt"), &st) == 0 && st.st_uid == 4321 && st.st_gid == 4322);
    } else {
        printf("atomic modes: not root, the owner and group part not run\n");
    }
    umask(old_umask);
}

/* sinew_atomic_cleanup (what the CLI's signal handler calls) removes the temporary files of every
 * open writer; their commit then fails and writes nothing. */
static void test_atomic_cleanup(void) {
    sinew_atomic_file *a = NULL, *b = NULL;
    FILE *fa = NULL, *fb = NULL;
    sinew_error err = {0};
    CHECK(sinew_atomic_open(tmp_path("cleanup_a.txt"), NULL, 0, &a, &fa, &err) == SINEW_OK);
    CHECK(sinew_atomic_open(tmp_path("cleanup_b.txt"), NULL, 0, &b, &fb, &err) == SINEW_OK);
    if (!a || !b) return;
    fputs("a", fa);
    CHECK(temp_modes("cleanup_a.txt") != 0 && temp_modes("cleanup_b.txt") != 0); /* they exist */
    sinew_atomic_cleanup();
    CHECK(temp_modes("cleanup_a.txt") == 0 && temp_modes("cleanup_b.txt") == 0);
    CHECK(sinew_atomic_commit(a, &err) == SINEW_E_IO);
    CHECK(!file_exists(tmp_path("cleanup_a.txt")));
    sinew_atomic_discard(b);
    sinew_atomic_cleanup(); /* nothing left: harmless */
}

static void test_convert(void) {
    sinew_convert_options o = {0};
    o.name = "pipx";
    sinew_convert_result r;
    sinew_error err = {0};
    CHECK(sinew_convert_dragonbones(PIP_XML, tmp_root, &o, &r, &err) == SINEW_OK);
    CHECK_STR(r.skeleton_path, tmp_path("pipx_ske.json"));
    CHECK(file_exists(r.skeleton_path) && file_exists(r.atlas_json_path) && file_exists(r.atlas_png_path));
    sinew_data *orig = load(PIP_XML), *conv = load(r.skeleton_path);
    if (orig && conv) {
        sinew_data_info a, b;
        sinew_data_get_info(orig, &a);
        sinew_data_get_info(conv, &b);
        CHECK(a.armature_count == b.armature_count && r.armature_count == a.armature_count);
        CHECK_STR(b.version, "4.5");
        sinew_armature_info x, y;
        sinew_data_get_armature_info(orig, 0, &x);
        sinew_data_get_armature_info(conv, 0, &y);
        CHECK(x.bone_count == y.bone_count && x.slot_count == y.slot_count && x.animation_count == y.animation_count);
    }
    sinew_data_destroy(orig);
    sinew_data_destroy(conv);
    /* the output folder must exist */
    CHECK(sinew_convert_dragonbones(PIP_XML, tmp_path("missing"), &o, &r, &err) == SINEW_E_IO);
}

/* sinew_convert_spine: the skeleton and the atlas written under the chosen name, a Spine 4.2
 * skeleton with Pip's bones; an XML rig refused, nothing written. (spine-core plays the output in
 * cli.spine_export.) */
static void test_convert_spine(void) {
    sinew_convert_options o = {0};
    o.name = "pips";
    sinew_convert_result r;
    sinew_error err = {0};
    CHECK(sinew_convert_spine(PIP50, tmp_root, &o, &r, &err) == SINEW_OK);
    CHECK_STR(r.skeleton_path, tmp_path("pips.json"));
    CHECK_STR(r.atlas_json_path, tmp_path("pips.atlas"));
    CHECK(file_exists(r.skeleton_path) && file_exists(r.atlas_json_path) && file_exists(r.atlas_png_path));
    static uint8_t buf[1 << 20];
    size_t n = file_bytes(r.skeleton_path, buf, sizeof buf - 1);
    buf[n] = 0;
    CHECK(n > 0 && strstr((const char *)buf, "\"spine\"") && strstr((const char *)buf, "\"4.2") &&
          strstr((const char *)buf, "\"bones\"") && strstr((const char *)buf, "\"root\""));
    memset(&r, 0, sizeof r);
    CHECK(sinew_convert_spine(PIP_XML, tmp_root, &o, &r, &err) == SINEW_E_UNSUPPORTED);
    CHECK(r.skeleton_path[0] == 0);
}

static void test_export_frames(void) {
    sinew_framebuffer fb = {0};
    sinew_error err = {0};
    CHECK(sinew_framebuffer_init(&fb, 8, 4, NULL, &err) == SINEW_OK);
    sinew_export_options o = {0};
    o.path = tmp_path("seq_%d.png");
    o.width = 8;
    o.height = 4;
    sinew_exporter *ex = NULL;
    CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
    if (ex) {
        CHECK(sinew_export_frame_count(ex) == 0);
        for (int i = 0; i < 3; i++) {
            sinew_framebuffer_clear(&fb, (sinew_rgba8){(uint8_t)(80 * i), 0, 0, 255});
            CHECK(sinew_export_frame(ex, &fb, &err) == SINEW_OK);
        }
        CHECK(sinew_export_frame_count(ex) == 3);
        CHECK(sinew_export_end(ex, &err) == SINEW_OK);
    }
    CHECK(file_exists(tmp_path("seq_0.png")) && file_exists(tmp_path("seq_2.png")));
    CHECK(!file_exists(tmp_path("seq_3.png")));
    sinew_framebuffer_free(&fb);
    /* a frame of another size is refused */
    CHECK(sinew_framebuffer_init(&fb, 4, 4, NULL, &err) == SINEW_OK);
    o.path = tmp_path("one.png");
    ex = NULL;
    CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
    if (ex) {
        CHECK(sinew_export_frame(ex, &fb, &err) == SINEW_E_ARG);
        CHECK(sinew_export_frame_count(ex) == 0);
        sinew_export_abort(ex);
    }
    CHECK(!file_exists(tmp_path("one.png")));
    sinew_framebuffer_free(&fb);
}

/* ---- curves ------------------------------------------------------------------------------------------ */

static void test_curve_helpers(void) {
    /* linear 0 -> 1 over [1, 2] (tangent 1) */
    sinew_curve_key k[2] = {{1, 0, 1, 1, 0, 0, 0}, {2, 1, 1, 1, 0, 0, 0}};
    CHECK_NEAR(sinew_curve_wrap_time(k, 2, SINEW_WRAP_LOOP, SINEW_WRAP_LOOP, 2.25), 1.25, 1e-12);
    CHECK_NEAR(sinew_curve_wrap_time(k, 2, SINEW_WRAP_PINGPONG, SINEW_WRAP_PINGPONG, 2.25), 1.75, 1e-12);
    CHECK_NEAR(sinew_curve_wrap_time(k, 2, SINEW_WRAP_CLAMP_FOREVER, SINEW_WRAP_CLAMP_FOREVER, 5), 2, 1e-12);
    CHECK_NEAR(sinew_curve_wrap_time(k, 2, SINEW_WRAP_LOOP, SINEW_WRAP_LOOP, 1.5), 1.5, 0);
    CHECK_NEAR(sinew_curve_wrap_time(k, 1, SINEW_WRAP_LOOP, SINEW_WRAP_LOOP, 7), 7, 0);
    CHECK_NEAR(sinew_curve_eval_keys(k, 2, 8, 8, 1.5), 0.5, 1e-6);
    CHECK_NEAR(sinew_curve_eval_keys(k, 2, SINEW_WRAP_LOOP, SINEW_WRAP_LOOP, 2.25), 0.25, 1e-6);
    CHECK_NEAR(sinew_curve_eval_keys(k, 2, 8, 8, -3), 0, 0);
    CHECK_NEAR(sinew_curve_eval_keys(k, 0, 8, 8, 1), 0, 0);

    sinew_curve c;
    sinew_curve_init(&c);
    CHECK_NEAR(sinew_curve_end_time(&c), 0, 0);
    /* unsorted keys: the end is the last key of the sorted view, not of the array */
    sinew_curve_key u[3] = {{3, 0, 0, 0, 0, 0, 0}, {0.5f, 1, 0, 0, 0, 0, 0}, {1, 2, 0, 0, 0, 0, 0}};
    CHECK(sinew_curve_set_keys(&c, u, 3, NULL, NULL) == SINEW_OK);
    CHECK_NEAR(sinew_curve_end_time(&c), 3, 0);
    CHECK_NEAR(sinew_curve_eval_keys(c.eval_keys, c.eval_count, 8, 8, 0.5), 1, 0);
    sinew_curve_free(&c, NULL);
}

/* ---- MRTK input -------------------------------------------------------------------------------------- */

static void test_input_names(void) {
    CHECK_STR(sinew_input_joint_name(0), "None");
    CHECK_STR(sinew_input_joint_name(1), "Wrist");
    CHECK(sinew_input_joint_name(27) == NULL);
    CHECK(sinew_input_joint_index("IndexTip") == 11);
    CHECK_STR(sinew_input_joint_name(sinew_input_joint_index("PinkyTip")), "PinkyTip");
    CHECK(sinew_input_joint_index("Thumb") == SINEW_INVALID_INDEX);
    char buf[64];
    CHECK_STR(sinew_input_curve_path(SINEW_INPUT_CURVE_CAMERA, buf, sizeof buf), "camera.px");
    CHECK_STR(sinew_input_curve_path(SINEW_INPUT_CURVE_TRACKED(0), buf, sizeof buf), "hands.left.tracked");
    CHECK_STR(sinew_input_curve_path(SINEW_INPUT_CURVE_JOINT(1, 11, SINEW_INPUT_RW), buf, sizeof buf),
              "hands.right.joints.IndexTip.rw");
    CHECK_STR(sinew_input_curve_path(SINEW_INPUT_CURVE_GAZE + SINEW_INPUT_DX, buf, sizeof buf), "eyeGaze.dx");
    sinew_input_format_float(0.1f, buf, sizeof buf);
    CHECK_STR(buf, "0.1");
    sinew_input_format_float(-2.5f, buf, sizeof buf);
    CHECK_STR(buf, "-2.5");
    sinew_input_format_float(1e-7f, buf, sizeof buf);
    CHECK(strtof(buf, NULL) == 1e-7f);
    sinew_input_simplify_options so = sinew_input_simplify_defaults();
    CHECK_NEAR(so.joint_position, 0.001, 0);
    CHECK_NEAR(so.camera_rotation_deg, 0.2, 0);
    sinew_input_write_options wo = sinew_input_write_defaults();
    CHECK(wo.version_minor == -1 && wo.layout == -1);
}

static void test_input_files(void) {
    sinew_input_animation *v10 = NULL, *v11 = NULL, *back = NULL;
    sinew_error err = {0};
    CHECK(sinew_input_load_file(WAVE10, NULL, &v10, &err) == SINEW_OK);
    CHECK(sinew_input_load_file(WAVE11, NULL, &v11, &err) == SINEW_OK);
    CHECK(sinew_input_load_file(tmp_path("none.bin"), NULL, &back, &err) == SINEW_E_IO && back == NULL);
    if (!v10 || !v11) goto done;
    /* 1.0 has no eye gaze section */
    CHECK(sinew_input_curve_present(v10, SINEW_INPUT_CURVE_CAMERA));
    CHECK(!sinew_input_curve_present(v10, SINEW_INPUT_CURVE_GAZE));
    CHECK(sinew_input_curve_present(v11, SINEW_INPUT_CURVE_GAZE));

    /* the writer's size is the file's size, and saving gives the same bytes */
    static uint8_t orig[1 << 20], again[1 << 20];
    size_t n = file_bytes(WAVE11, orig, sizeof orig), size = 0;
    sinew_input_write_options wo = sinew_input_write_defaults();
    CHECK(sinew_input_write_size(v11, &wo, &size, &err) == SINEW_OK);
    CHECK(size == n);
    CHECK(sinew_input_save_file(v11, tmp_path("wave.bin"), &wo, &err) == SINEW_OK);
    CHECK(file_bytes(tmp_path("wave.bin"), again, sizeof again) == n && memcmp(orig, again, n) == 0);
    wo.version_minor = 0; /* 1.0: no gaze section, every key with its tangents */
    CHECK(sinew_input_write_size(v11, &wo, &size, &err) == SINEW_OK);
    CHECK(sinew_input_save_file(v11, tmp_path("wave10.bin"), &wo, &err) == SINEW_OK);
    CHECK(file_bytes(tmp_path("wave10.bin"), again, sizeof again) == size);
    CHECK(sinew_input_load_file(tmp_path("wave10.bin"), NULL, &back, &err) == SINEW_OK);
    CHECK(back && back->version_minor == 0 && !sinew_input_curve_present(back, SINEW_INPUT_CURVE_GAZE));
    sinew_input_destroy(back);
    back = NULL;

    /* JSON out and back keeps every key; the CSV has a row per key plus the header */
    FILE *f = fopen(tmp_path("wave.json"), "w");
    CHECK(f && sinew_input_write_json(v11, f, &err) == SINEW_OK);
    if (f) fclose(f);
    CHECK(sinew_input_load_json_file(tmp_path("wave.json"), NULL, &back, &err) == SINEW_OK);
    uint64_t keys = 0;
    if (back) {
        for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
            CHECK(back->curves[i].key_count == v11->curves[i].key_count);
            keys += v11->curves[i].key_count;
        }
    }
    f = fopen(tmp_path("wave.csv"), "w+");
    CHECK(f && sinew_input_write_csv(v11, f, &err) == SINEW_OK);
    uint64_t lines = 0;
    if (f) {
        rewind(f);
        int ch;
        while ((ch = fgetc(f)) != EOF) lines += ch == '\n';
        fclose(f);
    }
    CHECK(keys > 0 && lines == keys + 1);

    /* a fitted front view holds every point the recording shows */
    sinew_input_view view;
    sinew_input_view_fit(v11, SINEW_INPUT_VIEW_FRONT, 320, 240, &view);
    CHECK(view.kind == SINEW_INPUT_VIEW_FRONT && view.width == 320 && view.height == 240);
    CHECK(view.pixels_per_metre > 0);
    sinew_input_frame fr;
    sinew_input_eval(v11, 1.0, &fr);
    float px[2];
    CHECK(sinew_input_project(&view, &fr, fr.hands[0].joints[1].position, px));
    CHECK(px[0] >= 0 && px[0] <= 320 && px[1] >= 0 && px[1] <= 240);
done:
    sinew_input_destroy(v10);
    sinew_input_destroy(v11);
    sinew_input_destroy(back);
}

int main(void) {
    snprintf(tmp_root, sizeof tmp_root, "/tmp/sinew_api_XXXXXX");
    if (!mkdtemp(tmp_root)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_data_queries);
    RUN(test_default_actions);
    RUN(test_default_armature);
    RUN(test_load_limits);
    RUN(test_atlas);
    RUN(test_check_atlas);
    RUN(test_texture_pages);
    RUN(test_rects);
    RUN(test_instance_structure);
    RUN(test_instance_control);
    RUN(test_events_dropped);
    RUN(test_frame_cache);
    RUN(test_play_index);
    RUN(test_script);
    RUN(test_atomic);
    RUN(test_atomic_modes);
    RUN(test_atomic_cleanup);
    RUN(test_convert);
    RUN(test_convert_spine);
    RUN(test_export_frames);
    RUN(test_curve_helpers);
    RUN(test_input_names);
    RUN(test_input_files);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_root);
    return test_summary();
}
