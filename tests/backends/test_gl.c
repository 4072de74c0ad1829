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

#include "backend_frames.h"
#include "sinew/gl.h"

#define GL_COLOR_BUFFER_BIT 0x00004000
#define GL_RGBA 0x1908
#define GL_UNSIGNED_BYTE 0x1401

/* floors: {GL 3.3 core, GLES 3.0} (measured when set, worst frame of the character) */
static const backend_floor floors[] = {
    {"fixtures/own/Pip_4.0", {37.0, 37.0}, {39.26, 39.04}},
    {"fixtures/own/Pip_5.0", {36.5, 36.5}, {38.86, 38.65}},
    {"fixtures/render6", {29.0, 29.0}, {31.50, 31.43}},
    {"../examples/demo", {51.5, 42.0}, {53.63, 44.14}},
    {"CoreElement_4.5", {47.0, 40.5}, {49.47, 42.89}},
    {"Knight_4.5", {32.5, 32.0}, {34.56, 34.39}},
    {"ReplaceSkinMan_4.0", {46.5, 41.5}, {48.59, 43.87}},
    {"Ubbie_4.5", {48.0, 38.0}, {50.42, 40.29}},
    {"ZOrder16_4.5", {33.5, 31.5}, {35.55, 33.51}},
    {"dragon_boy_5.0", {39.5, 38.5}, {41.99, 40.81}},
    {"mecha_1502b_5.5", {47.5, 42.5}, {49.53, 44.76}},
    {"you_xin_body_5.5", {51.0, 38.0}, {53.05, 40.32}},
};
enum { NFLOORS = sizeof floors / sizeof floors[0] };

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

static void *loader(const char *name) { return SDL_GL_GetProcAddress(name); }

#define LOAD(var, name) memcpy(&var, &(void *){SDL_GL_GetProcAddress(name)}, sizeof(void *))

static bool open_context(bool es) {
    gles = es;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, es ? SDL_GL_CONTEXT_PROFILE_ES : SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, es ? 0 : 3);
    window = SDL_CreateWindow("sinew gl test", 0, 0, BACKEND_MAX_SIDE, BACKEND_MAX_SIDE, SDL_WINDOW_HIDDEN | SDL_WINDOW_OPENGL);
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

/* Draws into the bottom-left w x h of the window and reads it back top row first. */
static bool gl_draw(sinew_gl *g, const sinew_drawlist *dl, const sinew_affine *view, uint32_t w, uint32_t h,
                    uint8_t *out) {
    glViewport_(0, 0, (int)w, (int)h);
    glClearColor_(BACKEND_GREY.r / 255.0f, BACKEND_GREY.g / 255.0f, BACKEND_GREY.b / 255.0f, 1.0f);
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

static bool open_gl(void *user, const sinew_texture_set *tex) {
    sinew_gl **g = user;
    sinew_gl_options o = {&backend_counting, NULL, NULL, gles};
    sinew_error err = {0};
    if (sinew_gl_create(loader, tex, &o, g, &err) != SINEW_OK) {
        printf("  sinew_gl_create: %s\n", err.message);
        return false;
    }
    return true;
}

static void close_gl(void *user) {
    sinew_gl **g = user;
    sinew_gl_destroy(*g);
    *g = NULL;
}

/* One frame through the backend against sinew's. */
static void compare(void *user, const backend_frame *f) {
    sinew_gl *g = *(sinew_gl **)user;
    const sinew_framing *fr = f->fr;
    size_t px = (size_t)fr->width * fr->height;
    uint8_t *mine = malloc(px * 4);
    if (mine && gl_draw(g, f->dl, &fr->view, fr->width, fr->height, mine)) {
        CHECK(backend_drawn(mine, px) * 50 >= px);
        uint32_t calls = sinew_gl_draw_calls(g);
        CHECK(calls >= 1 && calls <= f->dl->cmd_count);
        double p = backend_psnr(f->reference->pixels, mine, px);
        const backend_floor *fl = backend_floor_of(floors, NFLOORS, f->name);
        double floor_db = fl ? fl->floor[gles ? 1 : 0] : 99.0;
        printf("  %-44s %3ux%-3u %s PSNR %6.2f dB, %u draw calls for %u commands%s\n", f->name, fr->width, fr->height,
               gles ? "gles" : "gl", p, calls, f->dl->cmd_count, p >= floor_db ? "" : " (under its floor)");
        CHECK(fl != NULL && p >= floor_db);
        backend_dump(f->name, gles ? "gles" : "gl", mine, fr->width, fr->height);
        backend_dump(f->name, "sinew", f->reference->pixels, fr->width, fr->height);
        if (p < worst) worst = p;
        frames_compared++;
        sinew_affine v = fr->view;
        v.tx += 2.0f;
        v.ty -= 2.0f;
        if (gl_draw(g, f->dl, &v, fr->width, fr->height, mine))
            CHECK(backend_psnr(f->reference->pixels, mine, px) < floor_db);
    } else {
        CHECK(false);
    }
    free(mine);
}

static void test_own(void) {
    sinew_gl *g = NULL;
    backend_run_own(open_gl, compare, close_gl, &g);
}

static void test_shared(void) {
    sinew_gl *g = NULL;
    backend_run_shared("the GL backend on the shared characters", open_gl, compare, close_gl, &g);
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
    sinew_gl_options o = {&backend_counting, on_warn, &w, gles};
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

/* 6.0 masks: a white quad clipped by a mask over its left half (the mask itself is not drawn),
 * a second client through a chain (a mask clipped by that mask), a bad mask index refused. */
static void test_masks(void) {
    float pos[32], uv[32];
    uint32_t idx[24];
    const float quads[4][4] = {{0, 0, 16, 16}, {0, 0, 48, 16}, {8, 0, 48, 16}, {0, 0, 48, 16}};
    sinew_draw_cmd cmds[4];
    memset(cmds, 0, sizeof cmds);
    for (uint32_t q = 0; q < 4; q++) {
        const float *b = quads[q];
        float p[8] = {b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]};
        memcpy(pos + 8 * q, p, sizeof p);
        memset(uv + 8 * q, 0, 8 * sizeof(float));
        uint32_t v = 4 * q, t[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
        memcpy(idx + 6 * q, t, sizeof t);
        cmds[q].page = SINEW_INVALID_INDEX;
        cmds[q].color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
        cmds[q].first_vertex = 4 * q;
        cmds[q].vertex_count = 4;
        cmds[q].first_index = 6 * q;
        cmds[q].index_count = 6;
    }
    cmds[0].flags = SINEW_DRAW_MASK;     /* x 0..16 */
    cmds[1].mask = 1;                    /* white, clipped to x 0..16 */
    cmds[2].flags = SINEW_DRAW_MASK;     /* x 8..48, clipped by mask 0: x 8..16 */
    cmds[2].mask = 1;
    cmds[3].mask = 3;                    /* red, clipped to x 8..16 */
    cmds[3].color = (sinew_color_transform){1, 1, 0, 0, 0, 0, 0, 0};
    sinew_drawlist dl = {pos, uv, idx, cmds, 16, 24, 4};
    sinew_gl_options o = {&backend_counting, NULL, NULL, gles};
    sinew_gl *g = NULL;
    sinew_error err = {0};
    CHECK(sinew_gl_create(loader, NULL, &o, &g, &err) == SINEW_OK);
    if (!g) return;
    uint8_t out[48 * 16 * 4];
    CHECK(gl_draw(g, &dl, NULL, 48, 16, out));
    const uint8_t *white = out + (8 * 48 + 4) * 4, *red = out + (8 * 48 + 12) * 4, *grey = out + (8 * 48 + 30) * 4;
    CHECK(white[0] == 255 && white[1] == 255 && white[2] == 255);
    CHECK(red[0] == 255 && red[1] == 0 && red[2] == 0);
    CHECK(grey[0] == BACKEND_GREY.r && grey[1] == BACKEND_GREY.g); /* nothing drawn past the masks */
    cmds[3].mask = 4; /* itself */
    CHECK(sinew_gl_draw(g, &dl, NULL, 48, 16, &err) == SINEW_E_ARG);
    sinew_gl_destroy(g);
}

int main(void) {
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    CHECK(backend_floors_ok(floors, NFLOORS)); /* every floor within 3 dB under its measured value */
    for (int es = 0; es < 2; es++) {
        bool ok = open_context(es == 1);
        CHECK(ok);
        if (ok) {
            RUN(test_batching_and_errors);
            RUN(test_masks);
            RUN(test_own);
            RUN(test_shared);
        }
        close_context();
    }
    SDL_Quit();
    printf("gl: %d frames (GL 3.3 core and GLES 3.0), worst PSNR %.2f dB against sinew's rasterizer; %lld bytes "
           "the backend allocated are still live\n",
           frames_compared, worst, backend_live_bytes);
    CHECK(backend_live_bytes == 0);
    return test_summary();
}
