/* The GL backend (sinew/gl.h) against sinew's own rasterizer on the same draw lists: the project's
 * own characters and, when ../shared is there, every shared character with an atlas; four frames
 * of two animations each, fitted into at most 256 px, drawn over an opaque grey in an OpenGL 3.3
 * core context and in an OpenGL ES 3.0 context - Mesa's llvmpipe on SDL's offscreen video driver,
 * no display needed - and compared in RGB: PSNR >= 30 dB per frame; the same frame two pixels off
 * must fail that. Also: batching (one draw call for a run of commands sharing page and blend
 * mode), the warning for blend modes the GPU cannot do, bad input, and that the backend frees what
 * it allocates. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "sinew/data.h"
#include "sinew/gl.h"
#include "sinew/instance.h"
#include "sinew/render.h"
#include "testlib.h"

#define GL_COLOR_BUFFER_BIT 0x00004000
#define GL_RGBA 0x1908
#define GL_UNSIGNED_BYTE 0x1401

typedef struct set {
    const char *dir, *skeleton, *atlas, *armature, *anims[2];
} set;

static const set own_sets[] = {
    {"fixtures/own/Pip_4.0", "pip.json", "texture.json", "pip", {"hop", "idle"}},
    {"fixtures/own/Pip_5.0", "pip_ske.json", "pip_tex.json", "pip", {"hop", "idle"}},
    {"../examples/demo", "demo_ske.json", "demo_tex.json", "Bolt", {"walk", "wave"}},
};
static const set shared_sets[] = {
    {"CoreElement_4.5", "CoreElement.json", "CoreElement_texture_1.json", "mecha_1502b", {"walk", "idle"}},
    {"Knight_4.5", "Knight.json", "Knight_texture_1.json", "knight", {"run", "stand"}},
    {"ReplaceSkinMan_4.0", "man.json", "texture.json", "man", {"runFront", "standBack"}},
    {"Ubbie_4.5", "Ubbie.json", "texture.json", "ubbie", {"walk", "turn face"}},
    {"ZOrder16_4.5", "16_ske.json", "16_tex.json", "armatureName", {"z动画-猫", "Z国王-定帧"}},
    {"dragon_boy_5.0", "dragon_boy_ske.json", "dragon_boy_tex.json", "DragonBoy", {"walk", "jump"}},
    {"mecha_1502b_5.5", "mecha_1502b_ske.json", "mecha_1502b_tex.json", "mecha_1502b", {"walk", "aim"}},
    {"you_xin_body_5.5", "body_ske.json", "body_tex.json", "body", {"idle", "laugh"}},
};
enum { MAX_SIDE = 256, FRAMES = 4 };
static const sinew_rgba8 GREY = {128, 128, 128, 255};
static const double MIN_DB = 30.0;

/* the context: one window, GL 3.3 core or GLES 3.0 */
static SDL_Window *window;
static SDL_GLContext context;
static bool gles;
static void (*glViewport_)(int, int, int, int);
static void (*glClearColor_)(float, float, float, float);
static void (*glClear_)(unsigned);
static void (*glReadPixels_)(int, int, int, int, unsigned, unsigned, void *);
static void (*glFinish_)(void);
static double worst = 99.0;
static int frames_compared;

static long long live_bytes = 0;
static void *count_alloc(void *ctx, size_t n) {
    (void)ctx;
    void *p = malloc(n);
    if (p) live_bytes += (long long)n;
    return p;
}
static void *count_realloc(void *ctx, void *p, size_t old, size_t n) {
    (void)ctx;
    void *q = realloc(p, n);
    if (q) live_bytes += (long long)n - (long long)(p ? old : 0);
    return q;
}
static void count_free(void *ctx, void *p, size_t n) {
    (void)ctx;
    if (p) live_bytes -= (long long)n;
    free(p);
}
static const sinew_allocator counting = {count_alloc, count_realloc, count_free, NULL};

static void *loader(const char *name) { return SDL_GL_GetProcAddress(name); }

#define LOAD(var, name) memcpy(&var, &(void *){SDL_GL_GetProcAddress(name)}, sizeof(void *))

static bool open_context(bool es) {
    gles = es;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, es ? SDL_GL_CONTEXT_PROFILE_ES : SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, es ? 0 : 3);
    window = SDL_CreateWindow("sinew gl test", 0, 0, MAX_SIDE, MAX_SIDE, SDL_WINDOW_HIDDEN | SDL_WINDOW_OPENGL);
    context = window ? SDL_GL_CreateContext(window) : NULL;
    if (!context) {
        printf("%s context: %s\n", es ? "GLES 3.0" : "GL 3.3 core", SDL_GetError());
        return false;
    }
    LOAD(glViewport_, "glViewport");
    LOAD(glClearColor_, "glClearColor");
    LOAD(glClear_, "glClear");
    LOAD(glReadPixels_, "glReadPixels");
    LOAD(glFinish_, "glFinish");
    return true;
}

static void close_context(void) {
    if (context) SDL_GL_DeleteContext(context);
    if (window) SDL_DestroyWindow(window);
    context = NULL;
    window = NULL;
}

static double psnr_rgb(const uint8_t *a, const uint8_t *b, size_t px) {
    double se = 0;
    for (size_t i = 0; i < px; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - (double)b[4 * i + (size_t)c];
            se += d * d;
        }
    return se == 0 ? 99.0 : 10.0 * log10(255.0 * 255.0 / (se / (double)(px * 3)));
}

/* Draws into the bottom-left w x h of the window and reads it back top row first. */
static bool gl_draw(sinew_gl *g, const sinew_drawlist *dl, const sinew_affine *view, uint32_t w, uint32_t h,
                    uint8_t *out) {
    glViewport_(0, 0, (int)w, (int)h);
    glClearColor_(GREY.r / 255.0f, GREY.g / 255.0f, GREY.b / 255.0f, 1.0f);
    glClear_(GL_COLOR_BUFFER_BIT);
    sinew_error err = {0};
    if (sinew_gl_draw(g, dl, view, w, h, &err) != SINEW_OK) {
        printf("  sinew_gl_draw: %s\n", err.message);
        return false;
    }
    glFinish_();
    uint8_t *flip = malloc((size_t)w * h * 4);
    if (!flip) return false;
    glReadPixels_(0, 0, (int)w, (int)h, GL_RGBA, GL_UNSIGNED_BYTE, flip);
    for (uint32_t y = 0; y < h; y++) memcpy(out + (size_t)y * w * 4, flip + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4);
    free(flip);
    return true;
}

static void compare(sinew_gl *g, const sinew_drawlist *dl, const sinew_texture_set *tex, sinew_renderer *r,
                    const char *name) {
    sinew_rect b;
    CHECK(sinew_drawlist_bounds(dl, &b, false));
    float side = b.x1 - b.x0 > b.y1 - b.y0 ? b.x1 - b.x0 : b.y1 - b.y0;
    float scale = side > (float)(MAX_SIDE - 10) ? (float)(MAX_SIDE - 10) / side : 1.0f;
    sinew_framing fr;
    CHECK(sinew_framing_fit(b, scale, 4.0f, &fr, NULL) == SINEW_OK);
    sinew_framebuffer fb;
    CHECK(sinew_framebuffer_init(&fb, fr.width, fr.height, NULL, NULL) == SINEW_OK);
    sinew_framebuffer_clear(&fb, GREY);
    CHECK(sinew_renderer_draw(r, dl, tex, &fr.view, &fb, NULL) == SINEW_OK);
    size_t px = (size_t)fr.width * fr.height;
    uint8_t *mine = malloc(px * 4);
    if (mine && gl_draw(g, dl, &fr.view, fr.width, fr.height, mine)) {
        size_t drawn = 0;
        for (size_t i = 0; i < px; i++) drawn += memcmp(mine + 4 * i, &GREY, 3) != 0;
        CHECK(drawn * 50 >= px);
        uint32_t calls = sinew_gl_draw_calls(g);
        CHECK(calls >= 1 && calls <= dl->cmd_count);
        double p = psnr_rgb(fb.pixels, mine, px);
        printf("  %-44s %3ux%-3u %s PSNR %6.2f dB, %u draw calls for %u commands\n", name, fr.width, fr.height,
               gles ? "gles" : "gl", p, calls, dl->cmd_count);
        CHECK(p >= MIN_DB);
        if (p < worst) worst = p;
        frames_compared++;
        sinew_affine v = fr.view;
        v.tx += 2.0f;
        v.ty -= 2.0f;
        if (gl_draw(g, dl, &v, fr.width, fr.height, mine)) CHECK(psnr_rgb(fb.pixels, mine, px) < MIN_DB);
    } else {
        CHECK(false);
    }
    free(mine);
    sinew_framebuffer_free(&fb);
}

static void run_set(const char *root, const set *s) {
    char ske[1024], tj[1024];
    snprintf(ske, sizeof ske, "%s%s/%s", root, s->dir, s->skeleton);
    snprintf(tj, sizeof tj, "%s%s/%s", root, s->dir, s->atlas);
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_texture_set *tex = NULL;
    sinew_renderer *r = NULL;
    sinew_gl *g = NULL;
    sinew_error err = {0};
    CHECK(sinew_data_load_file(ske, NULL, &data, &err) == SINEW_OK);
    CHECK(sinew_atlas_load_file(tj, NULL, &atlas, &err) == SINEW_OK);
    if (!data || !atlas) goto done;
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    const char *paths[8];
    for (uint32_t p = 0; p < ai.page_count && p < 8; p++) {
        sinew_atlas_page_info pi;
        sinew_atlas_page_info_get(atlas, p, &pi);
        paths[p] = pi.resolved_path;
    }
    CHECK(sinew_texture_set_load(paths, ai.page_count < 8 ? ai.page_count : 8, NULL, &tex, &err) == SINEW_OK);
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    sinew_gl_options o = {&counting, NULL, NULL, gles};
    CHECK(sinew_gl_create(loader, tex, &o, &g, &err) == SINEW_OK);
    if (!g) {
        printf("  sinew_gl_create: %s\n", err.message);
        goto done;
    }
    uint32_t arm = sinew_data_find_armature(data, s->armature);
    sinew_armature_info info;
    CHECK(sinew_data_armature_info(data, arm, &info) == SINEW_OK);
    for (int a = 0; a < 2 && tex && r; a++) {
        sinew_instance_options io = {0};
        io.armature = s->armature;
        io.atlas = atlas;
        sinew_instance *inst = NULL;
        CHECK(sinew_instance_create(data, &io, &inst, &err) == SINEW_OK);
        CHECK(inst && sinew_instance_play(inst, s->anims[a], 0, &err) == SINEW_OK);
        if (!inst) continue;
        sinew_animation_info an;
        sinew_data_animation_info(data, arm, sinew_data_find_animation(data, arm, s->anims[a]), &an);
        double fps = info.frame_rate > 0 ? (double)info.frame_rate : 24.0;
        uint32_t n = (uint32_t)(an.duration_s * fps + 0.5);
        if (n < FRAMES) n = FRAMES;
        sinew_instance_update(inst, 0.0);
        uint32_t at = 0;
        for (uint32_t k = 0; k < FRAMES; k++) {
            for (uint32_t want = k * n / FRAMES; at < want; at++) sinew_instance_update(inst, 1.0 / fps);
            sinew_drawlist dl;
            sinew_instance_drawlist(inst, &dl);
            char name[256];
            snprintf(name, sizeof name, "%s %s #%u", s->dir, s->anims[a], at);
            compare(g, &dl, tex, r, name);
        }
        sinew_instance_destroy(inst);
    }
done:
    sinew_gl_destroy(g);
    sinew_renderer_destroy(r);
    sinew_texture_set_destroy(tex);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static void test_own(void) {
    for (size_t i = 0; i < sizeof own_sets / sizeof own_sets[0]; i++) run_set("", &own_sets[i]);
}

static void test_shared(void) {
    const char *shared = test_need_shared(8, "the GL backend on the shared characters");
    if (!shared) return;
    char root[1024];
    snprintf(root, sizeof root, "%s/data/dragonbones/", shared);
    for (size_t i = 0; i < sizeof shared_sets / sizeof shared_sets[0]; i++) run_set(root, &shared_sets[i]);
}

typedef struct warn_log {
    int count;
} warn_log;
static void on_warn(void *user, sinew_log_level level, const sinew_error *e) {
    (void)e;
    if (level == SINEW_LOG_WARNING) ((warn_log *)user)->count++;
}

/* Three quads on one page and blend mode, then one in another mode: two draw calls. */
static void test_batching_and_errors(void) {
    float pos[32], uv[32];
    uint32_t idx[24];
    sinew_draw_cmd cmds[4];
    memset(cmds, 0, sizeof cmds);
    for (uint32_t q = 0; q < 4; q++) {
        float x = 10.0f * (float)q;
        float p[8] = {x, 0, x + 8, 0, x + 8, 8, x, 8};
        memcpy(pos + 8 * q, p, sizeof p);
        memset(uv + 8 * q, 0, 8 * sizeof(float));
        uint32_t b = 4 * q, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(idx + 6 * q, t, sizeof t);
        cmds[q].page = SINEW_INVALID_INDEX;
        cmds[q].color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
        cmds[q].first_vertex = 4 * q;
        cmds[q].vertex_count = 4;
        cmds[q].first_index = 6 * q;
        cmds[q].index_count = 6;
        cmds[q].blend = q == 3 ? SINEW_BLEND_DIFFERENCE : SINEW_BLEND_NORMAL;
    }
    sinew_drawlist dl = {pos, uv, idx, cmds, 16, 24, 4};
    warn_log w = {0};
    sinew_gl_options o = {&counting, on_warn, &w, gles};
    sinew_gl *g = NULL;
    sinew_error err = {0};
    CHECK(sinew_gl_create(loader, NULL, &o, &g, &err) == SINEW_OK);
    if (!g) return;
    uint8_t out[48 * 16 * 4];
    CHECK(gl_draw(g, &dl, NULL, 48, 16, out));
    CHECK(sinew_gl_draw_calls(g) == 2);
    CHECK(gl_draw(g, &dl, NULL, 48, 16, out));
    CHECK(w.count == 1); /* difference: said once */
    CHECK(out[(4 * 48 + 4) * 4] == 255 && out[(4 * 48 + 4) * 4 + 1] == 255); /* a white quad */
    /* a page made at run time: 2x2 opaque blue (premultiplied), drawn by the first quad */
    static const uint8_t blue[16] = {0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255};
    CHECK(sinew_gl_set_page(g, 0, 2, 2, blue, &err) == SINEW_OK);
    CHECK(sinew_gl_set_page(g, 5, 2, 2, blue, &err) == SINEW_E_ARG); /* past the next index */
    cmds[0].page = 0;
    cmds[0].region[2] = cmds[0].region[3] = 1;
    CHECK(gl_draw(g, &dl, NULL, 48, 16, out));
    CHECK(out[(4 * 48 + 4) * 4] == 0 && out[(4 * 48 + 4) * 4 + 2] == 255);
    CHECK(sinew_gl_draw_calls(g) == 3); /* the textured quad is a run of its own */
    cmds[0].page = SINEW_INVALID_INDEX;
    idx[5] = 99; /* past the vertices: an error, not a read out of bounds */
    CHECK(sinew_gl_draw(g, &dl, NULL, 48, 16, &err) == SINEW_E_ARG);
    CHECK(sinew_gl_draw(g, &dl, NULL, 0, 16, &err) == SINEW_E_ARG);
    sinew_gl *none = NULL;
    CHECK(sinew_gl_create(NULL, NULL, NULL, &none, &err) == SINEW_E_ARG && none == NULL);
    sinew_gl_destroy(g);
}

int main(void) {
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    for (int es = 0; es < 2; es++) {
        bool ok = open_context(es == 1);
        CHECK(ok);
        if (ok) {
            RUN(test_batching_and_errors);
            RUN(test_own);
            RUN(test_shared);
        }
        close_context();
    }
    SDL_Quit();
    printf("gl: %d frames (GL 3.3 core and GLES 3.0), worst PSNR %.2f dB against sinew's rasterizer; %lld bytes "
           "the backend allocated are still live\n",
           frames_compared, worst, live_bytes);
    CHECK(live_bytes == 0);
    return test_summary();
}
