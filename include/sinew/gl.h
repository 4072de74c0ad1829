/**
 * sinew/gl.h - draw lists with OpenGL 3.3 core or OpenGL ES 3.0 (libsinew-gl).
 *
 * Built when the GL headers are present (libgl-dev). The library links no GL library: the caller
 * makes a context current and hands over its function loader (SDL_GL_GetProcAddress,
 * eglGetProcAddress, glfwGetProcAddress, ...), so it works with whatever created the context.
 *
 *     sinew_gl *gl;
 *     sinew_gl_options o = {0};
 *     if (sinew_gl_create((sinew_gl_loader)SDL_GL_GetProcAddress, pages, &o, &gl, &err)) { ... }
 *     for (;;) {
 *         glClear(GL_COLOR_BUFFER_BIT);
 *         sinew_gl_draw(gl, &dl, &view, width, height, &err);   // draw list -> current framebuffer
 *         SDL_GL_SwapWindow(window);
 *     }
 *     sinew_gl_destroy(gl);                                      // with the context still current
 *
 * Per frame it fills one vertex buffer with every command's vertices (position, UV, colour
 * multiplier and offset) and draws runs of commands that share a page and a blend mode with one
 * glDrawElements each (sinew_gl_draw_calls tells how many). Pages are premultiplied; the
 * fragment shader applies the DragonBones colour transform to the straight colour and writes
 * premultiplied colour. Blend modes (docs/engines.md): normal, layer, add, multiply (exact over
 * opaque pixels), screen, subtract, erase and alpha are drawn with the GPU's blend functions;
 * darken, lighten, difference, hardlight, overlay and invert need the destination colour in the
 * shader and are drawn as normal, said once through the log.
 */
#ifndef SINEW_GL_H
#define SINEW_GL_H

#include "sinew/base.h"
#include "sinew/drawlist.h"
#include "sinew/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A GL function loader: the address of the named function of the current context, or NULL. */
typedef void *(*sinew_gl_loader)(const char *name);

/** A draw list renderer on one GL context (opaque). */
typedef struct sinew_gl sinew_gl;

/** Options (zero-initialise; NULL = all defaults). */
typedef struct sinew_gl_options {
    const sinew_allocator *allocator; /**< NULL = libc */
    sinew_log_fn log;                 /**< warnings: blend modes drawn as normal (once each) */
    void *log_user;
    bool gles;                        /**< the context is OpenGL ES 3.0 (GLSL ES 3.00 shaders) */
} sinew_gl_options;

/**
 * Compiles the shaders and uploads every page of `pages` (may be NULL: untextured) in the
 * context current on this thread. Fails with SINEW_E_RENDER and GL's message when a function is
 * missing or a shader does not compile.
 */
SINEW_API sinew_status sinew_gl_create(sinew_gl_loader loader, const sinew_texture_set *pages, const sinew_gl_options *opt,
                             sinew_gl **out, sinew_error *err);
/** Frees the GL objects (the context must be current) and the renderer. NULL is fine. */
SINEW_API void sinew_gl_destroy(sinew_gl *gl);

/**
 * Draws a draw list into the currently bound framebuffer, whose viewport is set to
 * `width` x `height` pixels; `view` maps armature space to pixels, y down (NULL = identity).
 * Leaves GL blending enabled and the renderer's program, buffers and texture bound.
 */
SINEW_API sinew_status sinew_gl_draw(sinew_gl *gl, const sinew_drawlist *list, const sinew_affine *view, uint32_t width,
                           uint32_t height, sinew_error *err);

/**
 * Replaces page `page` (or adds it, when it is the next index) with `width` x `height` premultiplied
 * RGBA8 pixels: for pages made at run time (a text line, a dynamic atlas). Fails with SINEW_E_ARG for
 * an index past the next one, SINEW_E_NOMEM or SINEW_E_RENDER.
 */
SINEW_API sinew_status sinew_gl_set_page(sinew_gl *gl, uint32_t page, uint32_t width, uint32_t height, const uint8_t *pixels,
                               sinew_error *err);

/** glDrawElements calls made by the last sinew_gl_draw (one per run of page and blend mode). */
SINEW_API uint32_t sinew_gl_draw_calls(const sinew_gl *gl);

#ifdef __cplusplus
}
#endif
#endif
