/* crowd: a DragonBones rig on screen with SDL2 and libsinew-sdl2.
 *
 *   crowd SKELETON.json ATLAS.json [COUNT] [--frames N]
 *
 * Shows COUNT instances (default 6) in a row, each starting its animation at another time. Space
 * cross-fades every instance to the next animation (0.2 s), Escape quits. --frames N draws N
 * frames and exits (for scripts and tests; SDL_VIDEODRIVER=offscreen needs no display).
 * Build: cc crowd.c $(pkg-config --cflags --libs sinew-sdl2 sdl2) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <sinew/data.h>
#include <sinew/instance.h>
#include <sinew/render.h>
#include <sinew/sdl2.h>

enum { MAX_CROWD = 64 };

static int fail(const char *what, const sinew_error *e) {
    fprintf(stderr, "%s: error: %s\n", e->file ? e->file : what, e->message[0] ? e->message : SDL_GetError());
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: crowd SKELETON.json ATLAS.json [COUNT] [--frames N]\n");
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
    sinew_atlas_get_page_info(atlas, 0, &page); /* one page is enough for this example */
    if (sinew_texture_set_load(&page.resolved_path, 1, NULL, &pages, &err) != SINEW_OK) return fail(argv[2], &err);

    sinew_armature_info arm;
    sinew_data_get_armature_info(data, 0, &arm);
    sinew_instance *crowd[MAX_CROWD];
    sinew_instance_options opt = {0};
    opt.atlas = atlas;
    for (int i = 0; i < count; i++) {
        if (sinew_instance_create(data, &opt, &crowd[i], &err) != SINEW_OK) return fail(argv[1], &err);
        sinew_instance_play(crowd[i], NULL, 0, &err);        /* the default animation */
        sinew_instance_update(crowd[i], 0.37 * i);           /* out of step */
    }

    if (SDL_Init(SDL_INIT_VIDEO) != 0) return fail("SDL_Init", &err);
    SDL_Window *win = SDL_CreateWindow("sinew crowd", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 960, 400,
                                       frames >= 0 ? SDL_WINDOW_HIDDEN : 0);
    SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
    if (!ren) return fail("SDL", &err);
    sinew_sdl2 *sb = NULL;
    if (sinew_sdl2_create(ren, pages, NULL, &sb, &err) != SINEW_OK) return fail("sinew_sdl2_create", &err);
    sinew_texture_set_destroy(pages); /* uploaded: no longer needed */

    uint32_t anim = 0;
    Uint64 last = SDL_GetPerformanceCounter();
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
        Uint64 now = SDL_GetPerformanceCounter();
        double dt = frames >= 0 ? 1.0 / 60.0 : (double)(now - last) / (double)SDL_GetPerformanceFrequency();
        last = now;

        SDL_SetRenderDrawColor(ren, 40, 44, 52, 255);
        SDL_RenderClear(ren);
        uint32_t calls = 0;
        for (int i = 0; i < count; i++) {
            sinew_instance_update(crowd[i], dt);
            sinew_drawlist dl;
            sinew_instance_drawlist(crowd[i], &dl);
            float x = 960.0f * ((float)i + 0.5f) / (float)count;
            sinew_affine view = {0.5f, 0, 0, 0.5f, x, 330}; /* half size, feet on a line */
            if (sinew_sdl2_draw(sb, &dl, &view, &err) != SINEW_OK) return fail("sinew_sdl2_draw", &err);
            calls += sinew_sdl2_draw_calls(sb);
        }
        SDL_RenderPresent(ren);
        if (frames >= 0 && frame == frames - 1) printf("frame %d: %d instances, %u draw calls\n", frame, count, calls);
    }
    sinew_sdl2_destroy(sb);
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    for (int i = 0; i < count; i++) sinew_instance_destroy(crowd[i]);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return 0;
}
