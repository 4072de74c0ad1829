/**
 * sinew/sdl2.h - draw an instance's draw list with SDL2's renderer (libsinew-sdl2).
 *
 * Built when SDL2 (libsdl2-dev, 2.0.18 or newer for SDL_RenderGeometry) is present. It works with
 * any SDL_Renderer: a window's (GPU or software) or SDL_CreateSoftwareRenderer on a surface.
 *
 *     sinew_texture_set *pages;                 // sinew_texture_set_load(atlas page paths, ...)
 *     sinew_sdl2 *sb;
 *     if (sinew_sdl2_create(renderer, pages, NULL, &sb, &err) != SINEW_OK) { ...report err... }
 *     sinew_affine view = {1, 0, 0, 1, 320, 400};   // armature origin at pixel (320, 400)
 *     for (;;) {
 *         sinew_instance_update(hero, dt);
 *         sinew_drawlist dl;
 *         sinew_instance_drawlist(hero, &dl);
 *         SDL_RenderClear(renderer);
 *         sinew_sdl2_draw(sb, &dl, &view, &err);
 *         SDL_RenderPresent(renderer);
 *     }
 *     sinew_sdl2_destroy(sb);
 *
 * What SDL can and cannot do (docs/engines.md):
 * - colour: the transform's multipliers become the vertex colour; SDL has no colour offset, so
 *   offsets are dropped (said once through the log);
 * - blend modes: normal/layer, add and multiply map to SDL_BLENDMODE_BLEND, _ADD and _MUL;
 *   subtract, erase, alpha and screen to composed modes where the renderer takes them (SDL's GL
 *   and D3D renderers do, its software renderer not); the others, or a refused composed mode,
 *   are drawn as normal (said once per mode through the log);
 * - textures are uploaded with straight alpha (SDL's blend modes expect it) and sampled as the
 *   renderer's scale-mode hint says (nearest by default);
 * - region clamping: SDL samples the whole page, so a triangle whose UVs reach past its region's
 *   edge can show a neighbour's texels (sinew's rasterizer clamps to the region).
 */
#ifndef SINEW_SDL2_H
#define SINEW_SDL2_H

#include <SDL.h>

#include "sinew/base.h"
#include "sinew/drawlist.h"
#include "sinew/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A draw list renderer bound to one SDL_Renderer and one set of atlas pages (opaque). */
typedef struct sinew_sdl2 sinew_sdl2;

/** Options (zero-initialise; NULL = all defaults). */
typedef struct sinew_sdl2_options {
    const sinew_allocator *allocator; /**< NULL = libc */
    sinew_log_fn log;                 /**< warnings: what SDL cannot draw (once each); NULL = silent */
    void *log_user;
} sinew_sdl2_options;

/**
 * Uploads every page of `pages` as an SDL_Texture of `renderer` (the set may be freed afterwards).
 * `pages` may be NULL: everything is then drawn untextured. Fails with SINEW_E_RENDER (SDL's
 * message in err) when SDL cannot make a texture.
 */
SINEW_API sinew_status sinew_sdl2_create(SDL_Renderer *renderer, const sinew_texture_set *pages, const sinew_sdl2_options *opt,
                               sinew_sdl2 **out, sinew_error *err);
/** Frees the textures and the backend (NULL is fine). Destroy it before its SDL_Renderer. */
SINEW_API void sinew_sdl2_destroy(sinew_sdl2 *sb);

/**
 * Draws a draw list onto the renderer's current target, `view` mapping armature space to pixels
 * (NULL = identity). One SDL_RenderGeometry call per command. Grows its vertex buffer when a
 * list is larger than any before (the only allocation), fails with SINEW_E_NOMEM if it cannot and
 * SINEW_E_RENDER when SDL fails.
 */
SINEW_API sinew_status sinew_sdl2_draw(sinew_sdl2 *sb, const sinew_drawlist *list, const sinew_affine *view, sinew_error *err);

/** SDL_RenderGeometry calls made by the last sinew_sdl2_draw. */
SINEW_API uint32_t sinew_sdl2_draw_calls(const sinew_sdl2 *sb);

#ifdef __cplusplus
}
#endif
#endif
