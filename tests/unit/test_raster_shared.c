/* sinew's rasterizer against the independent cairo reference (cli/cairo_ref.c through raster_ref.h)
 * on the project's own characters (tests/fixtures/own: trimmed and rotated atlas regions, meshes,
 * blend modes, a child armature) and, when ../shared is there, on every shared character that has
 * an atlas (every set in $SHARED/data/dragonbones but Robot_4.5): two animations each, four
 * frames per animation, each frame fitted into at most 256 px. The draw
 * list comes from the runtime once and is drawn both ways; every frame's PSNR over the whole image,
 * and over the pixels either image draws (so big transparent margins cannot hide a bad character),
 * must reach the character's floors (the table `floors`: each within 3 dB of the worst frame sinew
 * measured when it was set). The frames must actually show something, and a deliberately shifted
 * cairo frame must fail the same floors (the comparison can tell a wrong image).
 *
 * Set SINEW_DUMP_DIR to a folder to get every compared pair as PNGs (NAME_sinew.png, NAME_cairo.png). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster_ref.h"
#include "sinew/data.h"
#include "sinew/instance.h"
#include "test_characters.h"
#include "testlib.h"

typedef test_character shared_set;

enum { NSETS = SHARED_CHARACTERS, FRAMES_PER_ANIM = 4, MAX_SIDE = 256 };

/* the project's own characters, relative to tests/ (the folder the test runs in) */
static const shared_set own_sets[] = {
    {"fixtures/own/Pip_4.0", "pip.json", "texture.json", "pip", {"hop", "idle"}},
    {"fixtures/own/Pip_5.0", "pip_ske.json", "pip_tex.json", "pip", {"hop", "idle"}},
    {"fixtures/own/Pip_5.5", "pip_ske.json", "pip_tex.json", "pip", {"idle", "hop"}},
};
enum { NOWN = sizeof own_sets / sizeof own_sets[0] };

/* Per character: the PSNR floors (whole frame, drawn pixels) and the worst frame's values sinew
 * measured when they were set (RelWithDebInfo and the ASan build agree). */
typedef struct psnr_floor {
    const char *dir;
    double full, full_measured, drawn, drawn_measured;
} psnr_floor;
static const psnr_floor floors[] = {
    {"fixtures/own/Pip_4.0", 54.5, 56.85, 48.5, 50.93},
    {"fixtures/own/Pip_5.0", 53.0, 55.35, 47.5, 49.91},
    {"fixtures/own/Pip_5.5", 53.0, 55.37, 47.5, 49.93},
    {"CoreElement_4.5", 53.5, 55.68, 50.0, 52.11},
    {"Knight_4.5", 52.0, 54.22, 48.5, 50.52},
    {"ReplaceSkinMan_4.0", 56.5, 58.91, 53.0, 55.42},
    {"Ubbie_4.5", 55.0, 57.32, 51.0, 53.00},
    {"ZOrder16_4.5", 53.5, 55.61, 53.0, 55.23},
    {"dragon_boy_5.0", 55.5, 57.73, 50.5, 52.88},
    {"mecha_1502b_5.5", 55.0, 57.06, 50.0, 52.08},
    {"you_xin_body_5.5", 52.0, 54.03, 43.5, 45.87},
};

static const psnr_floor *floor_of(const char *dir) {
    for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
        if (strcmp(floors[i].dir, dir) == 0) return &floors[i];
    return NULL;
}

/* every character drawn has floors, each within 3 dB under its measured value */
static void test_floor_table(void) {
    for (size_t i = 0; i < NOWN; i++) CHECK(floor_of(own_sets[i].dir) != NULL);
    for (size_t i = 0; i < NSETS; i++) CHECK(floor_of(shared_characters[i].dir) != NULL);
    for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++) {
        const psnr_floor *f = &floors[i];
        CHECK(f->full <= f->full_measured && f->full_measured - f->full <= 3.0);
        CHECK(f->drawn <= f->drawn_measured && f->drawn_measured - f->drawn <= 3.0);
    }
}

static void dump(const char *name, const char *what, cairo_surface_t *s) {
    const char *dir = getenv("SINEW_DUMP_DIR");
    if (!dir || !*dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%s.png", dir, name, what);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == ' ' || *p == '/') *p = '_';
    cairo_surface_write_to_png(s, path);
}

typedef struct totals {
    uint32_t frames;
    double worst_full, worst_drawn;
} totals;

/* Draws `dl` with sinew and cairo at a framing that fits it into MAX_SIDE px and checks the PSNR. */
static void compare_frame(const sinew_drawlist *dl, const sinew_texture_set *tex, const ref_cairo *rc,
                          sinew_renderer *r, const char *name, const psnr_floor *fl, bool shifted_check,
                          totals *t) {
    sinew_rect bounds;
    CHECK(sinew_drawlist_bounds(dl, &bounds, false));
    float bw = bounds.x1 - bounds.x0, bh = bounds.y1 - bounds.y0, side = bw > bh ? bw : bh;
    float scale = side > (float)(MAX_SIDE - 10) ? (float)(MAX_SIDE - 10) / side : 1.0f;
    sinew_framing fr;
    CHECK(sinew_framing_fit(bounds, scale, 4.0f, &fr, NULL) == SINEW_OK);
    CHECK(fr.width <= MAX_SIDE && fr.height <= MAX_SIDE);
    /* a sub-pixel offset so that edges do not all sit on pixel boundaries */
    fr.view.tx += 0.37f;
    fr.view.ty += 0.21f;

    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, fr.width, fr.height, NULL, NULL) == SINEW_OK);
    sinew_error err = {0};
    CHECK(sinew_renderer_draw(r, dl, tex, &fr.view, &fb, &err) == SINEW_OK);

    size_t px = (size_t)fr.width * fr.height;
    uint8_t *ref = malloc(px * 4);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)fr.width, (int)fr.height);
    cairo_t *cr = cairo_create(surf);
    ref_cairo_draw(rc, cr, dl, &fr.view, true);
    ref_surface_to_rgba(surf, ref);

    /* something is drawn: at least 2 % of the frame has alpha in both images */
    size_t opaque_s = 0, opaque_c = 0;
    for (size_t i = 0; i < px; i++) {
        opaque_s += fb.pixels[4 * i + 3] > 0;
        opaque_c += ref[4 * i + 3] > 0;
    }
    CHECK(opaque_s * 50 >= px);
    CHECK(opaque_c * 50 >= px);

    size_t drawn = 0;
    double full = ref_psnr(fb.pixels, ref, px * 4), part = ref_psnr_drawn(fb.pixels, ref, px, &drawn);
    bool ok = full >= fl->full && part >= fl->drawn;
    printf("  %-40s %3ux%-3u  PSNR %6.2f dB (drawn pixels %6.2f dB, %zu px)%s\n", name, fr.width, fr.height, full,
           part, drawn, ok ? "" : "  FAIL: under the floors");
    CHECK(full >= fl->full);
    CHECK(part >= fl->drawn);
    if (full < t->worst_full) t->worst_full = full;
    if (part < t->worst_drawn) t->worst_drawn = part;
    t->frames++;

    if (getenv("SINEW_DUMP_DIR")) {
        dump(name, "cairo", surf);
        cairo_surface_t *mine = ref_surface_from_rgba(fb.pixels, fr.width, fr.height);
        dump(name, "sinew", mine);
        cairo_surface_destroy(mine);
    }

    if (shifted_check) {
        /* the same frame one and a half pixels off must not pass */
        sinew_affine v = fr.view;
        v.tx += 1.5f;
        v.ty -= 1.5f;
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
        cairo_paint(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        ref_cairo_draw(rc, cr, dl, &v, true);
        ref_surface_to_rgba(surf, ref);
        double f2 = ref_psnr(fb.pixels, ref, px * 4), p2 = ref_psnr_drawn(fb.pixels, ref, px, &drawn);
        CHECK(f2 < fl->full || p2 < fl->drawn);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    free(ref);
    sinew_framebuffer_free(&fb);
}

/* root: the folder that holds s->dir ("" for a path relative to tests/) */
static void run_set(const char *root, const shared_set *s, totals *t) {
    char ske[1024], tex_json[1024];
    snprintf(ske, sizeof ske, "%s%s/%s", root, s->dir, s->skeleton);
    snprintf(tex_json, sizeof tex_json, "%s%s/%s", root, s->dir, s->atlas);
    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_texture_set *tex = NULL;
    CHECK(sinew_data_load_file(ske, NULL, &data, &err) == SINEW_OK);
    CHECK(sinew_atlas_load_file(tex_json, NULL, &atlas, &err) == SINEW_OK);
    if (!data || !atlas) {
        printf("%s: %s\n", s->dir, err.message);
        sinew_data_destroy(data);
        sinew_atlas_destroy(atlas);
        return;
    }
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    CHECK(ai.page_count >= 1 && ai.page_count <= 8);
    const char *paths[8];
    for (uint32_t p = 0; p < ai.page_count && p < 8; p++) {
        sinew_atlas_page_info pi;
        CHECK(sinew_atlas_get_page_info(atlas, p, &pi) == SINEW_OK);
        paths[p] = pi.resolved_path;
    }
    CHECK(sinew_texture_set_load(paths, ai.page_count, NULL, &tex, &err) == SINEW_OK);
    ref_cairo rc;
    CHECK(ref_cairo_init(&rc, tex) == 0);
    const psnr_floor *fl = floor_of(s->dir);
    CHECK(fl != NULL);
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);

    uint32_t arm = sinew_data_find_armature(data, s->armature);
    CHECK(arm != SINEW_INVALID_INDEX);
    sinew_armature_info info;
    CHECK(sinew_data_get_armature_info(data, arm, &info) == SINEW_OK);
    double fps = info.frame_rate > 0 ? (double)info.frame_rate : 24.0;
    for (int a = 0; a < 2 && tex && fl; a++) {
        uint32_t an = sinew_data_find_animation(data, arm, s->anims[a]);
        sinew_animation_info ani;
        CHECK(an != SINEW_INVALID_INDEX && sinew_data_get_animation_info(data, arm, an, &ani) == SINEW_OK);
        if (an == SINEW_INVALID_INDEX) continue;
        sinew_instance_options io = {0};
        io.armature = s->armature;
        io.atlas = atlas;
        sinew_instance *inst = NULL;
        CHECK(sinew_instance_create(data, &io, &inst, &err) == SINEW_OK);
        CHECK(sinew_instance_play(inst, s->anims[a], 0, &err) == SINEW_OK);
        sinew_instance_update(inst, 0.0);
        /* frames 0, n/4, n/2, 3n/4 of one pass */
        uint32_t n = (uint32_t)lround((double)ani.duration_s * fps);
        if (n < FRAMES_PER_ANIM) n = FRAMES_PER_ANIM;
        uint32_t at = 0;
        for (uint32_t f = 0; f < FRAMES_PER_ANIM; f++) {
            uint32_t k = f * n / FRAMES_PER_ANIM;
            for (; at < k; at++) {
                sinew_instance_update(inst, 1.0 / fps);
                while (sinew_instance_poll_event(inst, NULL)) {
                }
            }
            sinew_drawlist dl;
            sinew_instance_drawlist(inst, &dl);
            CHECK(dl.cmd_count > 0);
            char name[256];
            snprintf(name, sizeof name, "%s %s@%u", s->dir, s->anims[a], k);
            compare_frame(&dl, tex, &rc, r, name, fl, a == 0 && f == 1, t);
        }
        sinew_instance_destroy(inst);
    }
    sinew_renderer_destroy(r);
    ref_cairo_free(&rc);
    sinew_texture_set_destroy(tex);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

/* Every folder of the shared data is in the table, except the one without an atlas. */
static void test_table_covers_shared_data(void) {
    const char *shared = test_need_shared(1, "check that the table lists every shared set");
    if (!shared)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/data/dragonbones", shared);
    DIR *d = opendir(root);
    CHECK(d != NULL);
    if (!d) return;
    uint32_t found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0 || strcmp(e->d_name, "Robot_4.5") == 0)
            continue;
        bool listed = false;
        for (size_t i = 0; i < NSETS; i++) listed = listed || strcmp(shared_characters[i].dir, e->d_name) == 0;
        if (!listed) printf("shared set not covered: %s\n", e->d_name);
        CHECK(listed);
        found++;
    }
    closedir(d);
    CHECK(found == NSETS);
}

static void test_own_characters(void) {
    totals t = {0, 99.0, 99.0};
    for (size_t i = 0; i < NOWN; i++) run_set("", &own_sets[i], &t);
    printf("%u frames, worst PSNR %.2f dB (whole frame), %.2f dB (drawn pixels)\n", t.frames, t.worst_full,
           t.worst_drawn);
    CHECK(t.frames == NOWN * 2 * FRAMES_PER_ANIM);
}

static void test_shared_characters(void) {
    const char *shared = test_need_shared(NSETS, "shared characters (2 animations x 4 frames each)");
    if (!shared)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/data/dragonbones/", shared);
    totals t = {0, 99.0, 99.0};
    for (size_t i = 0; i < NSETS; i++) run_set(root, &shared_characters[i], &t);
    printf("%u frames, worst PSNR %.2f dB (whole frame), %.2f dB (drawn pixels)\n", t.frames, t.worst_full,
           t.worst_drawn);
    CHECK(t.frames == NSETS * 2 * FRAMES_PER_ANIM);
}

int main(void) {
    RUN(test_floor_table);
    RUN(test_own_characters);
    RUN(test_table_covers_shared_data);
    RUN(test_shared_characters);
    cairo_debug_reset_static_data();  /* no cairo caches left for the leak checker */
    return test_summary();
}
