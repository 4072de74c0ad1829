/* The SDL2 backend (sinew/sdl2.h) against sinew's own rasterizer on the same draw lists: the
 * project's own characters and, when ../shared is there, every shared character with an atlas; four
 * frames of two animations each, fitted into at most 256 px, drawn over an opaque grey through two
 * SDL renderers and compared in RGB with sinew's frame:
 * - SDL's OpenGL renderer (what games get from SDL_CreateRenderer), on a hidden window of SDL's
 *   offscreen video driver with Mesa's llvmpipe through EGL - no display needed: per character a
 *   PSNR floor within 3 dB of its worst measured frame (32.5-46.8 dB), and the same frame two pixels
 *   off must fail it;
 * - SDL's software renderer (SDL_CreateSoftwareRenderer on a surface), which samples textures
 *   nearest and does not anti-alias edges: it must draw the same things (floors within 3 dB of the
 *   19.1-25.3 dB measured).
 * The frames must show something and make one draw call per visible command. Also: the warnings
 * for what SDL lacks (colour offsets, blend modes) and errors for bad input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_frames.h"
#include "sinew/export.h"
#include "sinew/sdl2.h"

/* the renderers the backend is tried on, and what each must reach against sinew's rasterizer (RGB
 * PSNR per frame): SDL's OpenGL renderer filters textures linearly and samples pixel centres; the
 * software renderer samples textures nearest (docs/engines.md) */
static const char *const kinds[] = {"opengl", "software"};
/* floors: {opengl, software} (measured when set, worst frame of the character) */
static const backend_floor floors[] = {
    {"fixtures/own/Pip_4.0", {30.5, 20.0}, {32.49, 22.41}},
    {"fixtures/own/Pip_5.0", {31.0, 21.0}, {33.02, 23.29}},
    {"fixtures/render6", {29.0, 13.5}, {31.50, 16.22}},
    {"../examples/demo", {43.5, 19.0}, {45.70, 21.18}},
    {"CoreElement_4.5", {40.5, 21.0}, {42.51, 23.46}},
    {"Knight_4.5", {32.0, 17.0}, {34.39, 19.09}},
    {"ReplaceSkinMan_4.0", {37.0, 19.5}, {39.32, 21.97}},
    {"Ubbie_4.5", {44.0, 19.5}, {46.24, 21.70}},
    {"ZOrder16_4.5", {33.5, 21.0}, {35.70, 23.45}},
    {"dragon_boy_5.0", {38.0, 20.5}, {40.12, 22.73}},
    {"mecha_1502b_5.5", {41.0, 23.0}, {43.10, 25.27}},
    {"you_xin_body_5.5", {44.5, 22.5}, {46.83, 24.81}},
};
enum { NFLOORS = sizeof floors / sizeof floors[0] };
static double worst[2] = {99.0, 99.0};
static int frames_compared[2];
static const sinew_sdl2_options counted = {&backend_counting, NULL, NULL};

/* One SDL renderer to draw with: SDL's OpenGL renderer on a hidden window of the offscreen video
 * driver (Mesa's llvmpipe through EGL: no display needed), drawing into a target texture, or the
 * software renderer on a surface. */
typedef struct target {
    const char *kind;          /* "opengl" or "software" */
    SDL_Window *window;
    SDL_Renderer *ren;
    SDL_Surface *surf;         /* software */
    sinew_sdl2 *sb;
    double worst;
    int frames;
} target;

static bool target_open(target *t, const char *kind, const sinew_texture_set *tex) {
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->worst = 99.0;
    if (strcmp(kind, "software") == 0) {
        t->surf = SDL_CreateRGBSurfaceWithFormat(0, BACKEND_MAX_SIDE, BACKEND_MAX_SIDE, 32, SDL_PIXELFORMAT_ABGR8888);
        t->ren = t->surf ? SDL_CreateSoftwareRenderer(t->surf) : NULL;
    } else {
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, kind);
        t->window = SDL_CreateWindow("sinew test", 0, 0, BACKEND_MAX_SIDE, BACKEND_MAX_SIDE, SDL_WINDOW_HIDDEN | SDL_WINDOW_OPENGL);
        t->ren = t->window ? SDL_CreateRenderer(t->window, -1, SDL_RENDERER_TARGETTEXTURE) : NULL;
    }
    if (!t->ren) {
        printf("  %s renderer: %s\n", kind, SDL_GetError());
        return false;
    }
    sinew_error err = {0};
    if (sinew_sdl2_create(t->ren, tex, &counted, &t->sb, &err) != SINEW_OK) {
        printf("  sinew_sdl2_create (%s): %s\n", kind, err.message);
        return false;
    }
    return true;
}

static void target_close(target *t) {
    sinew_sdl2_destroy(t->sb);
    if (t->ren) SDL_DestroyRenderer(t->ren);
    if (t->window) SDL_DestroyWindow(t->window);
    if (t->surf) SDL_FreeSurface(t->surf);
}

/* Draws a w x h frame over grey through the backend into RGBA bytes (out: w*h*4). */
static bool sdl_draw(target *t, const sinew_drawlist *dl, const sinew_affine *view, uint32_t w, uint32_t h,
                     uint8_t *out) {
    SDL_Texture *rt = NULL;
    if (!t->surf) {
        rt = SDL_CreateTexture(t->ren, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_TARGET, (int)w, (int)h);
        if (!rt || SDL_SetRenderTarget(t->ren, rt) != 0) {
            printf("  target texture: %s\n", SDL_GetError());
            if (rt) SDL_DestroyTexture(rt);
            return false;
        }
    }
    SDL_SetRenderDrawBlendMode(t->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(t->ren, BACKEND_GREY.r, BACKEND_GREY.g, BACKEND_GREY.b, 255);
    SDL_RenderClear(t->ren);
    sinew_error err = {0};
    bool ok = sinew_sdl2_draw(t->sb, dl, view, &err) == SINEW_OK;
    if (!ok) printf("  sinew_sdl2_draw: %s\n", err.message);
    SDL_Rect r = {0, 0, (int)w, (int)h};
    if (ok && SDL_RenderReadPixels(t->ren, &r, SDL_PIXELFORMAT_ABGR8888, out, (int)w * 4) != 0) {
        printf("  SDL_RenderReadPixels: %s\n", SDL_GetError());
        ok = false;
    }
    if (rt) {
        SDL_SetRenderTarget(t->ren, NULL);
        SDL_DestroyTexture(rt);
    }
    return ok;
}

typedef struct sdl_ctx {
    target targets[2];
    int count;
} sdl_ctx;

static bool open_targets(void *user, const sinew_texture_set *tex) {
    sdl_ctx *c = user;
    c->count = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        CHECK(target_open(&c->targets[c->count], kinds[k], tex));
        c->count++;
    }
    return true;
}

static void close_targets(void *user) {
    sdl_ctx *c = user;
    for (int k = 0; k < c->count; k++) {
        if (c->targets[k].worst < worst[k]) worst[k] = c->targets[k].worst;
        frames_compared[k] += c->targets[k].frames;
        target_close(&c->targets[k]);
    }
}

/* One frame through each renderer against sinew's. */
static void compare(void *user, const backend_frame *f) {
    sdl_ctx *c = user;
    const sinew_drawlist *dl = f->dl;
    const sinew_framing *fr = f->fr;
    size_t px = (size_t)fr->width * fr->height;
    uint8_t *mine = malloc(px * 4);
    printf("  %-44s %3ux%-3u", f->name, fr->width, fr->height);
    for (int k = 0; k < c->count && mine; k++) {
        target *t = &c->targets[k];
        if (!t->sb || !sdl_draw(t, dl, &fr->view, fr->width, fr->height, mine)) {
            CHECK(false);
            continue;
        }
        CHECK(backend_drawn(mine, px) * 50 >= px); /* at least 2 % of the frame is drawn */
        uint32_t cmds = 0;
        for (uint32_t i = 0; i < dl->cmd_count; i++)
            cmds += dl->cmds[i].index_count > 0 && dl->cmds[i].color.a_mul > 0.002f &&
                    !(dl->cmds[i].flags & SINEW_DRAW_MASK); /* a mask is drawn into a target only */
        CHECK(sinew_sdl2_draw_calls(t->sb) == cmds);
        double p = backend_psnr(f->reference->pixels, mine, px);
        const backend_floor *fl = backend_floor_of(floors, NFLOORS, f->name);
        double floor_db = fl ? fl->floor[strcmp(t->kind, "software") == 0] : 99.0;
        printf("  %s %6.2f dB%s", t->kind, p, p >= floor_db ? "" : " (under its floor)");
        CHECK(fl != NULL && p >= floor_db);
        if (p < t->worst) t->worst = p;
        t->frames++;
        backend_dump(f->name, t->kind, mine, fr->width, fr->height); /* SINEW_DUMP_DIR: both as PNGs */
        backend_dump(f->name, "sinew", f->reference->pixels, fr->width, fr->height);
        /* two pixels off must not pass (the quality bar: the GL renderer's) */
        sinew_affine v = fr->view;
        v.tx += 2.0f;
        v.ty -= 2.0f;
        if (t->window && sdl_draw(t, dl, &v, fr->width, fr->height, mine))
            CHECK(backend_psnr(f->reference->pixels, mine, px) < (fl ? fl->floor[0] : 0.0));
    }
    printf("\n");
    free(mine);
}

static void test_own(void) {
    sdl_ctx c;
    backend_run_own(open_targets, compare, close_targets, &c);
}

static void test_shared(void) {
    sdl_ctx c;
    backend_run_shared("the SDL2 backend on the shared characters", open_targets, compare, close_targets, &c);
}

typedef struct warn_log {
    int count;
    char last[256];
} warn_log;

static void on_warn(void *user, sinew_log_level level, const sinew_error *e) {
    warn_log *w = user;
    if (level == SINEW_LOG_WARNING) {
        w->count++;
        snprintf(w->last, sizeof w->last, "%.*s", (int)sizeof w->last - 1, e->message);
    }
}

/* A hand-made list: one untextured quad per blend mode, with a colour offset. */
static void test_warnings_and_errors(void) {
    static const float pos[] = {0, 0, 10, 0, 10, 10, 0, 10};
    static const float uv[] = {0, 0, 1, 0, 1, 1, 0, 1};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    sinew_draw_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.page = SINEW_INVALID_INDEX;
    cmd.color = (sinew_color_transform){1, 1, 0, 0, 0, 40, 0, 0};
    cmd.vertex_count = 4;
    cmd.index_count = 6;
    sinew_drawlist dl = {pos, uv, idx, &cmd, 4, 6, 1};
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 16, 16, 32, SDL_PIXELFORMAT_ABGR8888);
    SDL_Renderer *ren = SDL_CreateSoftwareRenderer(surf);
    warn_log w = {0, ""};
    sinew_sdl2_options o = {&backend_counting, on_warn, &w};
    sinew_sdl2 *sb = NULL;
    CHECK(sinew_sdl2_create(ren, NULL, &o, &sb, NULL) == SINEW_OK);
    for (int m = 0; m < SINEW_BLEND_COUNT && sb; m++) {
        cmd.blend = (sinew_blend_mode)m;
        CHECK(sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK);
        CHECK(sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK); /* said once, not per draw */
    }
    /* the offset once, and on the software renderer every mode but normal, layer, add and multiply
     * once (it takes no composed blend modes) */
    CHECK(w.count == 1 + (SINEW_BLEND_COUNT - 4));
    /* the quad is drawn: red multiplied in, on a cleared surface */
    const uint8_t *p = (const uint8_t *)surf->pixels + 5 * surf->pitch + 5 * 4;
    CHECK(p[0] > 200 && p[1] == 0);
    /* an index outside its command's vertices is an error, not a read out of bounds */
    static const uint32_t bad[] = {0, 1, 9, 0, 2, 3};
    dl.indices = bad;
    sinew_error err = {0};
    CHECK(sinew_sdl2_draw(sb, &dl, NULL, &err) == SINEW_E_ARG);
    sinew_sdl2 *none = NULL;
    CHECK(sinew_sdl2_create(NULL, NULL, NULL, &none, &err) == SINEW_E_ARG && none == NULL);
    sinew_sdl2_destroy(NULL);
    sinew_sdl2_destroy(sb);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
}

/* On SDL's OpenGL renderer, the composed modes on known colours over the grey background
 * (128, 128, 128, 255): subtract takes the source off (orange: 255, 128, 0), erase clears, alpha
 * keeps the background by the source's alpha (half), screen lightens (d + s (1 - d)). No
 * warnings. */
static void test_composed_blends(void) {
    static const float pos[] = {0, 0, 16, 0, 16, 16, 0, 16};
    static const float uv[] = {0, 0, 1, 0, 1, 1, 0, 1};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    target t;
    if (!target_open(&t, "opengl", NULL)) {
        CHECK(false);
        return;
    }
    warn_log w = {0, ""};
    sinew_sdl2_options o = {&backend_counting, on_warn, &w};
    sinew_sdl2_destroy(t.sb);
    t.sb = NULL;
    CHECK(sinew_sdl2_create(t.ren, NULL, &o, &t.sb, NULL) == SINEW_OK);
    const struct { sinew_blend_mode mode; float a; uint8_t want[4]; } cases[] = {
        {SINEW_BLEND_SUBTRACT, 1.0f, {0, 0, 128, 255}},
        {SINEW_BLEND_ERASE, 1.0f, {0, 0, 0, 0}},
        {SINEW_BLEND_ALPHA, 0.5f, {64, 64, 64, 128}},
        {SINEW_BLEND_SCREEN, 1.0f, {255, 192, 128, 255}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0] && t.sb; k++) {
        sinew_draw_cmd cmd;
        memset(&cmd, 0, sizeof cmd);
        cmd.page = SINEW_INVALID_INDEX;
        cmd.color = (sinew_color_transform){.a_mul = cases[k].a, .r_mul = 1, .g_mul = 0.5f, .b_mul = 0};
        cmd.blend = cases[k].mode;
        cmd.vertex_count = 4;
        cmd.index_count = 6;
        sinew_drawlist dl = {pos, uv, idx, &cmd, 4, 6, 1};
        uint8_t out[16 * 16 * 4];
        CHECK(sdl_draw(&t, &dl, NULL, 16, 16, out));
        const uint8_t *p = out + (8 * 16 + 8) * 4;
        for (int i = 0; i < 4; i++) {
            if (abs((int)p[i] - (int)cases[k].want[i]) > 2)
                printf("  %s: channel %d is %u, want %u\n", sinew_blend_mode_name(cases[k].mode), i, p[i],
                       cases[k].want[i]);
            CHECK(abs((int)p[i] - (int)cases[k].want[i]) <= 2);
        }
    }
    if (w.count)
        printf("  warned: %s\n", w.last);
    CHECK(w.count == 0);
    target_close(&t);
}

/* 6.0 masks on SDL's OpenGL renderer: a white quad clipped by an untextured mask over its left
 * third and a textured mask at half alpha over its middle (the masks themselves not drawn), a red
 * one over the first, a blue one over the middle: each clipped display on its own (the white
 * shows through the half-strength blue); over the grey background. The software renderer cannot:
 * said once, drawn unclipped. */
static void test_masks(void) {
    static const uint8_t half[4] = {255, 255, 255, 128}; /* one texel, straight alpha 1/2 */
    sinew_image_desc d = {half, 1, 1, 0, false};
    sinew_texture_set *tex = NULL;
    CHECK(sinew_texture_set_from_rgba(&d, 1, NULL, &tex, NULL) == SINEW_OK);
    float pos[48], uv[48];
    uint32_t idx[36];
    const float quads[6][4] = {{0, 0, 16, 16}, {0, 0, 48, 16}, {16, 0, 32, 16}, {0, 0, 48, 16}, {0, 0, 48, 16},
                               {0, 0, 48, 16}};
    sinew_draw_cmd cmds[6];
    memset(cmds, 0, sizeof cmds);
    for (uint32_t q = 0; q < 6; q++) {
        const float *b = quads[q];
        float p[8] = {b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]}, t[8] = {0, 0, 1, 0, 1, 1, 0, 1};
        memcpy(pos + 8 * q, p, sizeof p);
        memcpy(uv + 8 * q, t, sizeof t);
        uint32_t v = 4 * q, ix[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
        memcpy(idx + 6 * q, ix, sizeof ix);
        cmds[q].page = SINEW_INVALID_INDEX;
        cmds[q].color = (sinew_color_transform){1, 1, 1, 1, 0, 0, 0, 0};
        cmds[q].first_vertex = 4 * q;
        cmds[q].vertex_count = 4;
        cmds[q].first_index = 6 * q;
        cmds[q].index_count = 6;
    }
    cmds[0].flags = SINEW_DRAW_MASK;  /* x 0..16, opaque */
    cmds[1].mask = 1;                 /* white there */
    cmds[2].flags = SINEW_DRAW_MASK;  /* x 16..32, its texel at alpha 1/2 */
    cmds[2].page = 0;
    cmds[2].region[2] = cmds[2].region[3] = 1;
    cmds[3].mask = 3;                 /* white at half strength there */
    cmds[4].mask = 1;                 /* red over the first third */
    cmds[4].color = (sinew_color_transform){1, 1, 0, 0, 0, 0, 0, 0};
    cmds[5].mask = 3;                 /* blue at half strength over the half-strength white */
    cmds[5].color = (sinew_color_transform){1, 0, 0, 1, 0, 0, 0, 0};
    sinew_drawlist dl = {pos, uv, idx, cmds, 24, 36, 6};
    target t;
    if (!target_open(&t, "opengl", tex)) {
        CHECK(false);
        sinew_texture_set_destroy(tex);
        return;
    }
    uint8_t out[48 * 16 * 4];
    CHECK(sdl_draw(&t, &dl, NULL, 48, 16, out));
    const uint8_t *first = out + (8 * 48 + 8) * 4, *mid = out + (8 * 48 + 24) * 4, *last = out + (8 * 48 + 40) * 4;
    printf("  masked: %u %u %u / %u %u %u / %u %u %u\n", first[0], first[1], first[2], mid[0], mid[1], mid[2], last[0],
           last[1], last[2]);
    CHECK(first[0] == 255 && first[1] == 0 && first[2] == 0);                          /* red over white */
    /* half white over grey (192), then half blue over that: (96, 96, 223); one layer holding both
       would give (64, 64, 192) */
    CHECK(abs(mid[0] - 96) <= 2 && abs(mid[1] - 96) <= 2 && abs(mid[2] - 223) <= 2);
    CHECK(last[0] == BACKEND_GREY.r && last[1] == BACKEND_GREY.g); /* nothing past them */
    CHECK(sinew_sdl2_draw_calls(t.sb) == 4);
    target_close(&t);
    /* the software renderer: one warning, the clipped commands drawn whole */
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 48, 16, 32, SDL_PIXELFORMAT_ABGR8888);
    SDL_Renderer *ren = SDL_CreateSoftwareRenderer(surf);
    warn_log w = {0, ""};
    sinew_sdl2_options o = {&backend_counting, on_warn, &w};
    sinew_sdl2 *sb = NULL;
    CHECK(sinew_sdl2_create(ren, tex, &o, &sb, NULL) == SINEW_OK);
    CHECK(sb && sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK && sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK);
    CHECK(w.count == 1 && strstr(w.last, "cannot draw masks") != NULL);
    const uint8_t *p = (const uint8_t *)surf->pixels + 8 * surf->pitch + 40 * 4;
    CHECK(p[2] == 255 && p[1] == 0); /* the blue quad, unclipped, at the right end */
    sinew_sdl2_destroy(sb);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    sinew_texture_set_destroy(tex);
}

int main(void) {
    /* no display: SDL's offscreen video driver, with EGL on Mesa (llvmpipe) for its GL renderer */
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    CHECK(backend_floors_ok(floors, NFLOORS)); /* every floor within 3 dB under its measured value */
    RUN(test_warnings_and_errors);
    RUN(test_composed_blends);
    RUN(test_masks);
    RUN(test_own);
    RUN(test_shared);
    for (int k = 0; k < 2; k++)
        printf("sdl2 (%s renderer): %d frames, worst PSNR %.2f dB against sinew's rasterizer\n", kinds[k],
               frames_compared[k], worst[k]);
    SDL_Quit();
    printf("sdl2: %lld bytes the backend allocated are still live\n", backend_live_bytes);
    CHECK(backend_live_bytes == 0);
    return test_summary();
}
