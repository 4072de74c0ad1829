/* The SDL2 backend (sinew/sdl2.h) against sinew's own rasterizer on the same draw lists: the
 * project's own characters and, when ../shared is there, every shared character with an atlas; four
 * frames of two animations each, fitted into at most 256 px, drawn over an opaque grey through two
 * SDL renderers and compared in RGB with sinew's frame:
 * - SDL's OpenGL renderer (what games get from SDL_CreateRenderer), on a hidden window of SDL's
 *   offscreen video driver with Mesa's llvmpipe through EGL - no display needed: PSNR >= 30 dB per
 *   frame, and the same frame two pixels off must fail that;
 * - SDL's software renderer (SDL_CreateSoftwareRenderer on a surface), which samples textures
 *   nearest and does not anti-alias edges: it must draw the same things (PSNR >= 15 dB; it reaches
 *   19-30 dB on these characters).
 * The frames must show something and make one draw call per visible command. Also: the warnings
 * for what SDL lacks (colour offsets, blend modes) and errors for bad input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/data.h"
#include "sinew/export.h"
#include "sinew/export.h"
#include "sinew/instance.h"
#include "sinew/render.h"
#include "sinew/sdl2.h"
#include "testlib.h"

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
/* the renderers the backend is tried on, and what each must reach against sinew's rasterizer (RGB
 * PSNR per frame): SDL's OpenGL renderer filters textures linearly and samples pixel centres; the
 * software renderer samples textures nearest (docs/engines.md) */
static const char *const kinds[] = {"opengl", "software"};
static const double GL_DB = 30.0, SOFTWARE_DB = 15.0;
static double worst[2] = {99.0, 99.0};
static int frames_compared[2];

/* The backend allocates through this counter, so the test sees that it frees all it takes (SDL's
 * and Mesa's own allocations are theirs: the drivers they load leak at exit, so LeakSanitizer is
 * off for this test, tests/CMakeLists.txt). */
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
static const sinew_sdl2_options counted = {&counting, NULL, NULL};

/* RGB PSNR of two RGBA8 images (both opaque here); 99 when equal. */
static double psnr_rgb(const uint8_t *a, const uint8_t *b, size_t px) {
    double se = 0;
    for (size_t i = 0; i < px; i++)
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - (double)b[4 * i + (size_t)c];
            se += d * d;
        }
    return se == 0 ? 99.0 : 10.0 * log10(255.0 * 255.0 / (se / (double)(px * 3)));
}

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
        t->surf = SDL_CreateRGBSurfaceWithFormat(0, MAX_SIDE, MAX_SIDE, 32, SDL_PIXELFORMAT_ABGR8888);
        t->ren = t->surf ? SDL_CreateSoftwareRenderer(t->surf) : NULL;
    } else {
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, kind);
        t->window = SDL_CreateWindow("sinew test", 0, 0, MAX_SIDE, MAX_SIDE, SDL_WINDOW_HIDDEN | SDL_WINDOW_OPENGL);
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
    SDL_SetRenderDrawColor(t->ren, GREY.r, GREY.g, GREY.b, 255);
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

static void compare(const sinew_drawlist *dl, const sinew_texture_set *tex, sinew_renderer *r, const char *name,
                    target *targets, int ntargets) {
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
    printf("  %-44s %3ux%-3u", name, fr.width, fr.height);
    for (int k = 0; k < ntargets && mine; k++) {
        target *t = &targets[k];
        if (!t->sb || !sdl_draw(t, dl, &fr.view, fr.width, fr.height, mine)) {
            CHECK(false);
            continue;
        }
        size_t drawn = 0; /* the frame shows something: at least 2 % of it is not the background */
        for (size_t i = 0; i < px; i++) drawn += memcmp(mine + 4 * i, &GREY, 3) != 0;
        CHECK(drawn * 50 >= px);
        uint32_t cmds = 0;
        for (uint32_t c = 0; c < dl->cmd_count; c++)
            cmds += dl->cmds[c].index_count > 0 && dl->cmds[c].color.a_mul > 0.002f;
        CHECK(sinew_sdl2_draw_calls(t->sb) == cmds);
        double p = psnr_rgb(fb.pixels, mine, px);
        printf("  %s %6.2f dB", t->kind, p);
        CHECK(p >= (strcmp(t->kind, "software") == 0 ? SOFTWARE_DB : GL_DB));
        if (p < t->worst) t->worst = p;
        t->frames++;
        const char *dump = getenv("SINEW_DUMP_DIR");
        if (dump && *dump) { /* both images as PNGs, to look at */
            char path[1024];
            snprintf(path, sizeof path, "%s/%d_%s.png", dump, t->frames, t->kind);
            sinew_png_write(path, mine, fr.width, fr.height, (size_t)fr.width * 4, NULL, 0, NULL);
            snprintf(path, sizeof path, "%s/%d_sinew.png", dump, t->frames);
            sinew_png_write(path, fb.pixels, fr.width, fr.height, fb.stride, NULL, 0, NULL);
        }
        /* two pixels off must not pass (the quality bar: the GL renderer's) */
        sinew_affine v = fr.view;
        v.tx += 2.0f;
        v.ty -= 2.0f;
        if (t->window && sdl_draw(t, dl, &v, fr.width, fr.height, mine))
            CHECK(psnr_rgb(fb.pixels, mine, px) < GL_DB);
    }
    printf("\n");
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
    sinew_renderer *r = NULL;
    CHECK(sinew_renderer_create(NULL, &r, NULL) == SINEW_OK);
    target targets[2];
    int nt = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && tex; k++) {
        CHECK(target_open(&targets[nt], kinds[k], tex));
        nt++;
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
            compare(&dl, tex, r, name, targets, nt);
        }
        sinew_instance_destroy(inst);
    }
    for (int k = 0; k < nt; k++) {
        if (targets[k].worst < worst[k]) worst[k] = targets[k].worst;
        frames_compared[k] += targets[k].frames;
        target_close(&targets[k]);
    }
    sinew_renderer_destroy(r);
done:
    sinew_texture_set_destroy(tex);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static void test_own(void) {
    for (size_t i = 0; i < sizeof own_sets / sizeof own_sets[0]; i++) run_set("", &own_sets[i]);
}

static void test_shared(void) {
    const char *shared = test_need_shared(8, "the SDL2 backend on the shared characters");
    if (!shared) return;
    char root[1024];
    snprintf(root, sizeof root, "%s/data/dragonbones/", shared);
    for (size_t i = 0; i < sizeof shared_sets / sizeof shared_sets[0]; i++) run_set(root, &shared_sets[i]);
}

typedef struct warn_log {
    int count;
    char last[256];
} warn_log;

static void on_warn(void *user, sinew_log_level level, const sinew_error *e) {
    warn_log *w = user;
    if (level == SINEW_LOG_WARNING) {
        w->count++;
        snprintf(w->last, sizeof w->last, "%s", e->message);
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
    sinew_sdl2_options o = {&counting, on_warn, &w};
    sinew_sdl2 *sb = NULL;
    CHECK(sinew_sdl2_create(ren, NULL, &o, &sb, NULL) == SINEW_OK);
    for (int m = 0; m < SINEW_BLEND_COUNT && sb; m++) {
        cmd.blend = (sinew_blend_mode)m;
        CHECK(sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK);
        CHECK(sinew_sdl2_draw(sb, &dl, NULL, NULL) == SINEW_OK); /* said once, not per draw */
    }
    /* the offset once, and every mode but normal, add and multiply once */
    CHECK(w.count == 1 + (SINEW_BLEND_COUNT - 3));
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

int main(void) {
    /* no display: SDL's offscreen video driver, with EGL on Mesa (llvmpipe) for its GL renderer */
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    RUN(test_warnings_and_errors);
    RUN(test_own);
    RUN(test_shared);
    for (int k = 0; k < 2; k++)
        printf("sdl2 (%s renderer): %d frames, worst PSNR %.2f dB against sinew's rasterizer\n", kinds[k],
               frames_compared[k], worst[k]);
    SDL_Quit();
    printf("sdl2: %lld bytes the backend allocated are still live\n", live_bytes);
    CHECK(live_bytes == 0);
    return test_summary();
}
