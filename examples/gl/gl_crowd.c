/* gl_crowd: a DragonBones rig drawn with OpenGL 3.3 through libsinew-gl (SDL2 makes the window).
 *
 *   gl_crowd SKELETON.json ATLAS.json [COUNT] [--frames N]
 *
 * COUNT instances (default 6) in a row, out of step; Space cross-fades all of them to the next
 * animation (0.2 s), Escape quits. --frames N draws N frames, prints the draw calls and exits
 * (SDL_VIDEODRIVER=offscreen needs no display). Each instance is one draw list; runs of commands
 * that share a page and blend mode become one glDrawElements.
 * Build: cc gl_crowd.c $(pkg-config --cflags --libs sinew-gl sdl2) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <sinew/data.h>
#include <sinew/gl.h>
#include <sinew/instance.h>
#include <sinew/render.h>

enum { MAX_CROWD = 64, W = 960, H = 400 };

static int fail(const char *what, const sinew_error *e) {
    fprintf(stderr, "%s: error: %s\n", e->file ? e->file : what, e->message[0] ? e->message : SDL_GetError());
    return 2;
}

static void *load_gl(const char *name) { return SDL_GL_GetProcAddress(name); }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: gl_crowd SKELETON.json ATLAS.json [COUNT] [--frames N]\n");
        return 1;
    }
    int count = 6, frames = -1;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else count = atoi(argv[i]);
    }
    if (count < 1 || count > MAX_CROWD) count = 6;

    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_texture_set *pages = NULL;
    if (sinew_data_load_file(argv[1], NULL, &data, &err) != SINEW_OK) return fail(argv[1], &err);
    if (sinew_atlas_load_file(argv[2], NULL, &atlas, &err) != SINEW_OK) return fail(argv[2], &err);
    sinew_atlas_page_info page;
    sinew_atlas_get_page_info(atlas, 0, &page);
    if (sinew_texture_set_load(&page.resolved_path, 1, NULL, &pages, &err) != SINEW_OK) return fail(argv[2], &err);

    if (SDL_Init(SDL_INIT_VIDEO) != 0) return fail("SDL_Init", &err);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_Window *win = SDL_CreateWindow("sinew gl crowd", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, W, H,
                                       SDL_WINDOW_OPENGL | (frames >= 0 ? SDL_WINDOW_HIDDEN : 0));
    SDL_GLContext ctx = win ? SDL_GL_CreateContext(win) : NULL;
    if (!ctx) return fail("SDL", &err);
    SDL_GL_SetSwapInterval(1);
    void (*clear_color)(float, float, float, float), (*clear)(unsigned);
    memcpy(&clear_color, &(void *){SDL_GL_GetProcAddress("glClearColor")}, sizeof(void *));
    memcpy(&clear, &(void *){SDL_GL_GetProcAddress("glClear")}, sizeof(void *));

    sinew_gl *gl = NULL;
    if (sinew_gl_create(load_gl, pages, NULL, &gl, &err) != SINEW_OK) return fail("sinew_gl_create", &err);
    sinew_texture_set_destroy(pages); /* uploaded */

    sinew_armature_info arm;
    sinew_data_get_armature_info(data, 0, &arm);
    sinew_instance *crowd[MAX_CROWD];
    sinew_instance_options opt = {0};
    opt.atlas = atlas;
    for (int i = 0; i < count; i++) {
        if (sinew_instance_create(data, &opt, &crowd[i], &err) != SINEW_OK) return fail(argv[1], &err);
        sinew_instance_play(crowd[i], NULL, 0, &err); /* the default animation */
        sinew_instance_update(crowd[i], 0.37 * i);
    }
    uint32_t anim = 0;
    for (int frame = 0; frames < 0 || frame < frames; frame++) {
        SDL_Event ev;
        bool quit = false;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT || (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_ESCAPE)) quit = true;
            if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_SPACE && arm.animation_count > 0) {
                sinew_animation_info next;
                anim = (anim + 1) % arm.animation_count;
                sinew_data_get_animation_info(data, 0, anim, &next);
                sinew_fade_options fade = sinew_fade_defaults();
                fade.fade_in_time = 0.2;
                for (int i = 0; i < count; i++) sinew_instance_fade_in(crowd[i], 0, next.name, &fade, &err);
            }
        }
        if (quit) break;
        clear_color(0.16f, 0.17f, 0.2f, 1.0f);
        clear(0x00004000); /* GL_COLOR_BUFFER_BIT */
        uint32_t calls = 0;
        for (int i = 0; i < count; i++) {
            sinew_instance_update(crowd[i], 1.0 / 60.0);
            sinew_drawlist dl;
            sinew_instance_drawlist(crowd[i], &dl);
            sinew_affine view = {0.5f, 0, 0, 0.5f, W * ((float)i + 0.5f) / (float)count, 330};
            if (sinew_gl_draw(gl, &dl, &view, W, H, &err) != SINEW_OK) return fail("sinew_gl_draw", &err);
            calls += sinew_gl_draw_calls(gl);
        }
        SDL_GL_SwapWindow(win);
        if (frames >= 0 && frame == frames - 1) printf("frame %d: %d instances, %u draw calls\n", frame, count, calls);
    }
    sinew_gl_destroy(gl);
    SDL_GL_DeleteContext(ctx);
    SDL_DestroyWindow(win);
    SDL_Quit();
    for (int i = 0; i < count; i++) sinew_instance_destroy(crowd[i]);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return 0;
}
