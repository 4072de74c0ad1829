/* What the backend tests share: the characters, the frames they are drawn at (four frames of two
 * animations each, fitted into at most 256 px), sinew's own frame of each over an opaque grey as
 * the reference, the RGB PSNR, and an allocator that counts what a backend keeps.
 *
 *   static bool open(void *user, const sinew_texture_set *pages);   // make the backend
 *   static void frame(void *user, const backend_frame *f);          // draw f->dl, compare
 *   static void close(void *user);
 *   backend_run_own(open, frame, close, &ctx);
 *   backend_run_shared(open, frame, close, &ctx);                    // skipped without ../shared
 */
#ifndef SINEW_BACKEND_FRAMES_H
#define SINEW_BACKEND_FRAMES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mask_rule.h"
#include "sinew/data.h"
#include "sinew/export.h"
#include "sinew/instance.h"
#include "sinew/render.h"
#include "test_characters.h"
#include "testlib.h"

typedef test_character backend_set;

/* the project's own characters, relative to tests/ */
static const backend_set backend_own_sets[] = {
    {"fixtures/own/Pip_4.0", "pip.json", "texture.json", "pip", {"hop", "idle"}},
    {"fixtures/own/Pip_5.0", "pip_ske.json", "pip_tex.json", "pip", {"hop", "idle"}},
    {"../examples/demo", "demo_ske.json", "demo_tex.json", "Bolt", {"walk", "wave"}},
    /* 6.0 masks and vector shapes (one floor row for both: their folder) */
    {"fixtures/render6", "masks6_ske.json", "render6_tex.json", "masks", {"move", "zorder"}},
    {"fixtures/render6", "shapes6_ske.json", "render6_tex.json", "shapes", {"wave", "bend"}},
};
enum { BACKEND_MAX_SIDE = 256, BACKEND_FRAMES = 4 };
static const sinew_rgba8 BACKEND_GREY = {128, 128, 128, 255};

/* One frame to draw: its draw list, framing, and sinew's own picture of it over grey. */
typedef struct backend_frame {
    const sinew_drawlist *dl;
    const sinew_framing *fr;
    const sinew_framebuffer *reference;
    const char *name;
} backend_frame;

typedef bool (*backend_open_fn)(void *user, const sinew_texture_set *pages);
typedef void (*backend_frame_fn)(void *user, const backend_frame *f);
typedef void (*backend_close_fn)(void *user);

/* RGB PSNR of two RGBA8 images of px pixels (both opaque here); 99 when equal. */
static inline double backend_psnr(const uint8_t *a, const uint8_t *b, size_t px) {
    double se = 0;
    for (size_t i = 0; i < px; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - (double)b[4 * i + (size_t)c];
            se += d * d;
        }
    return se == 0 ? 99.0 : 10.0 * log10(255.0 * 255.0 / (se / (double)(px * 3)));
}

/* Per character (its folder, as the frame names start), two PSNR floors (one per renderer or
 * context the test draws with), each within 3 dB under the worst frame measured when set. */
typedef struct backend_floor {
    const char *dir;
    double floor[2], measured[2];
} backend_floor;

/* The row of the character frame `name` is of ("DIR ANIMATION #K"), or NULL. */
static inline const backend_floor *backend_floor_of(const backend_floor *rows, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(rows[i].dir);
        if (strncmp(name, rows[i].dir, l) == 0 && name[l] == ' ')
            return &rows[i];
    }
    return NULL;
}

/* Every row keeps the rule: floor <= measured <= floor + 3 dB. */
static inline bool backend_floors_ok(const backend_floor *rows, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (!(rows[i].floor[k] <= rows[i].measured[k] && rows[i].measured[k] - rows[i].floor[k] <= 3.0))
                return false;
    return n > 0;
}

/* Pixels of an RGBA8 image that are not the grey background. */
static inline size_t backend_drawn(const uint8_t *img, size_t px) {
    size_t n = 0;
    for (size_t i = 0; i < px; i++) n += memcmp(img + 4 * i, &BACKEND_GREY, 3) != 0;
    return n;
}

/* With SINEW_DUMP_DIR=DIR, writes an opaque RGBA8 frame as DIR/NAME_WHAT.png (spaces and slashes of
 * the name as '_'): the screenshots of a backend test, beside sinew's own. */
static inline void backend_dump(const char *name, const char *what, const uint8_t *rgba, uint32_t w, uint32_t h) {
    const char *dir = getenv("SINEW_DUMP_DIR");
    if (!dir || !*dir) return;
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/", dir);
    for (const char *c = name; *c && n < (int)sizeof path - 64; c++) path[n++] = *c == ' ' || *c == '/' || *c == '#' ? '_' : *c;
    snprintf(path + n, sizeof path - (size_t)n, "_%s.png", what);
    if (sinew_png_write(path, rgba, w, h, (size_t)w * 4, NULL, 0, NULL) != SINEW_OK) printf("  cannot write %s\n", path);
}

/* A backend allocates through this counter, so a test sees that it frees all it takes (SDL's and
 * Mesa's own allocations are theirs: the drivers they load leak at exit, so LeakSanitizer is off
 * for these tests, tests/CMakeLists.txt). */
static long long backend_live_bytes = 0;
static inline void *backend_count_alloc(void *ctx, size_t n) {
    (void)ctx;
    void *p = malloc(n);
    if (p) backend_live_bytes += (long long)n;
    return p;
}
static inline void *backend_count_realloc(void *ctx, void *p, size_t old, size_t n) {
    (void)ctx;
    void *q = realloc(p, n);
    if (q) backend_live_bytes += (long long)n - (long long)(p ? old : 0);
    return q;
}
static inline void backend_count_free(void *ctx, void *p, size_t n) {
    (void)ctx;
    if (p) backend_live_bytes -= (long long)n;
    free(p);
}
static const sinew_allocator backend_counting = {backend_count_alloc, backend_count_realloc, backend_count_free, NULL};

/* Draws one frame with sinew's rasterizer (the reference) and hands it over. */
static inline void backend_one_frame(const sinew_drawlist *dl, const sinew_texture_set *tex, sinew_renderer *r,
                                     const char *name, backend_frame_fn fn, void *user) {
    sinew_rect b;
    CHECK(sinew_drawlist_bounds(dl, &b, false));
    float side = b.x1 - b.x0 > b.y1 - b.y0 ? b.x1 - b.x0 : b.y1 - b.y0;
    float scale = side > (float)(BACKEND_MAX_SIDE - 10) ? (float)(BACKEND_MAX_SIDE - 10) / side : 1.0f;
    sinew_framing fr;
    CHECK(sinew_framing_fit(b, scale, 4.0f, &fr, NULL) == SINEW_OK);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, fr.width, fr.height, NULL, NULL) == SINEW_OK);
    sinew_framebuffer_clear(&fb, BACKEND_GREY);
    CHECK(sinew_renderer_draw(r, dl, tex, &fr.view, &fb, NULL) == SINEW_OK);
    backend_frame f = {dl, &fr, &fb, name};
    fn(user, &f);
    sinew_framebuffer_free(&fb);
}

/* Loads a set (root: the folder that holds s->dir, "" for tests/) and runs its frames. */
static inline void backend_run_set(const char *root, const backend_set *s, backend_open_fn open, backend_frame_fn fn,
                                   backend_close_fn close, void *user) {
    char ske[1024], tj[1024];
    snprintf(ske, sizeof ske, "%s%s/%s", root, s->dir, s->skeleton);
    snprintf(tj, sizeof tj, "%s%s/%s", root, s->dir, s->atlas);
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_texture_set *tex = NULL;
    sinew_renderer *r = NULL;
    sinew_error err = {0};
    bool opened = false;
    CHECK(sinew_data_load_file(ske, NULL, &data, &err) == SINEW_OK);
    CHECK(sinew_atlas_load_file(tj, NULL, &atlas, &err) == SINEW_OK);
    if (!data || !atlas) goto done;
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    const char *paths[8];
    for (uint32_t p = 0; p < ai.page_count && p < 8; p++) {
        sinew_atlas_page_info pi;
        sinew_atlas_get_page_info(atlas, p, &pi);
        paths[p] = pi.resolved_path;
    }
    CHECK(sinew_texture_set_load(paths, ai.page_count < 8 ? ai.page_count : 8, NULL, &tex, &err) == SINEW_OK);
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    opened = tex && r && open(user, tex);
    CHECK(opened);
    if (!opened) goto done;
    uint32_t arm = sinew_data_find_armature(data, s->armature);
    sinew_armature_info info;
    CHECK(sinew_data_get_armature_info(data, arm, &info) == SINEW_OK);
    for (int a = 0; a < 2; a++) {
        sinew_instance_options io = {0};
        io.armature = s->armature;
        io.atlas = atlas;
        sinew_instance *inst = NULL;
        CHECK(sinew_instance_create(data, &io, &inst, &err) == SINEW_OK);
        CHECK(inst && sinew_instance_play(inst, s->anims[a], 0, &err) == SINEW_OK);
        if (!inst) continue;
        sinew_animation_info an;
        sinew_data_get_animation_info(data, arm, sinew_data_find_animation(data, arm, s->anims[a]), &an);
        double fps = info.frame_rate > 0 ? (double)info.frame_rate : 24.0;
        uint32_t n = (uint32_t)(an.duration_s * fps + 0.5);
        if (n < BACKEND_FRAMES) n = BACKEND_FRAMES;
        sinew_instance_update(inst, 0.0);
        uint32_t at = 0;
        for (uint32_t k = 0; k < BACKEND_FRAMES; k++) { /* frames 0, n/4, n/2, 3n/4 of one pass */
            for (uint32_t want = k * n / BACKEND_FRAMES; at < want; at++) sinew_instance_update(inst, 1.0 / fps);
            test_set_masks(inst); /* until the runtime does (mask_rule.h) */
            sinew_drawlist dl;
            sinew_instance_drawlist(inst, &dl);
            char name[256];
            snprintf(name, sizeof name, "%s %s #%u", s->dir, s->anims[a], at);
            backend_one_frame(&dl, tex, r, name, fn, user);
        }
        sinew_instance_destroy(inst);
    }
done:
    if (opened) close(user);
    sinew_renderer_destroy(r);
    sinew_texture_set_destroy(tex);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static inline void backend_run_own(backend_open_fn open, backend_frame_fn fn, backend_close_fn close, void *user) {
    for (size_t i = 0; i < sizeof backend_own_sets / sizeof backend_own_sets[0]; i++)
        backend_run_set("", &backend_own_sets[i], open, fn, close, user);
}

static inline void backend_run_shared(const char *what, backend_open_fn open, backend_frame_fn fn,
                                      backend_close_fn close, void *user) {
    const char *shared = test_need_shared(8, what);
    if (!shared) return;
    char root[1024];
    snprintf(root, sizeof root, "%s/data/dragonbones/", shared);
    for (size_t i = 0; i < SHARED_CHARACTERS; i++)
        backend_run_set(root, &shared_characters[i], open, fn, close, user);
}

#endif
