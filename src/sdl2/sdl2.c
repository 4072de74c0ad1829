/* The SDL2 backend: a draw list through SDL_RenderGeometry (sinew/sdl2.h). */
#include "sinew/sdl2.h"

#include <string.h>

#include "base/alloc.h"
#include "base/error.h"

struct sinew_sdl2 {
    SDL_Renderer *renderer;
    const sinew_allocator *allocator;
    sinew_log_fn log;
    void *log_user;
    SDL_Texture **pages;
    uint32_t page_count;
    SDL_Vertex *vertices; /* one command's vertices, mapped to pixels */
    int *indices;         /* one command's indices, relative to its first vertex */
    size_t vertex_cap, index_cap;
    uint32_t draw_calls;
    bool warned_offset;
    bool warned_blend[SINEW_BLEND_COUNT];
    /* 6.0 masks: the clipped commands are drawn into `layer`, each mask's value into mask[0/1]
     * (ping-ponged along a chain of masks), the layer multiplied by it and composited. `holds`:
     * the mask command (1 + index) mask[last] holds; masks_off: this renderer cannot (said once) */
    SDL_Texture *layer, *mask[2];
    int tw, th, last;
    uint32_t holds;
    bool masks_off;
};

static void warn(sinew_sdl2 *sb, const char *fmt, const char *what) {
    if (!sb->log)
        return;
    sinew_error e;
    memset(&e, 0, sizeof e);
    e.code = SINEW_E_UNSUPPORTED;
    snprintf(e.message, sizeof e.message, fmt, what);
    sb->log(sb->log_user, SINEW_LOG_WARNING, &e);
}

/* A page as a straight-alpha ABGR8888 (RGBA bytes) texture: SDL's blend modes expect straight alpha. */
static SDL_Texture *upload(sinew_sdl2 *sb, const uint8_t *px, uint32_t w, uint32_t h, sinew_error *err) {
    SDL_Texture *t = SDL_CreateTexture(sb->renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, (int)w, (int)h);
    if (!t) {
        sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_CreateTexture %ux%u: %s", w, h, SDL_GetError());
        return NULL;
    }
    size_t row = (size_t)w * 4;
    uint8_t *straight = sinew__alloc(sb->allocator, row * h);
    if (!straight) {
        SDL_DestroyTexture(t);
        sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for a %ux%u page", w, h);
        return NULL;
    }
    /* the page seen as a framebuffer, only read */
    sinew_framebuffer page = {w, h, row, (uint8_t *)(uintptr_t)px, NULL};
    sinew_framebuffer_to_straight(&page, straight, row);
    int rc = SDL_UpdateTexture(t, NULL, straight, (int)row);
    sinew__free(sb->allocator, straight, row * h);
    if (rc != 0) {
        SDL_DestroyTexture(t);
        sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_UpdateTexture: %s", SDL_GetError());
        return NULL;
    }
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear);
    return t;
}

void sinew_sdl2_destroy(sinew_sdl2 *sb) {
    if (!sb)
        return;
    for (uint32_t p = 0; p < sb->page_count; p++)
        if (sb->pages[p])
            SDL_DestroyTexture(sb->pages[p]);
    sinew__free(sb->allocator, sb->pages, sb->page_count * sizeof *sb->pages);
    if (sb->layer)
        SDL_DestroyTexture(sb->layer);
    for (int i = 0; i < 2; i++)
        if (sb->mask[i])
            SDL_DestroyTexture(sb->mask[i]);
    sinew__free(sb->allocator, sb->vertices, sb->vertex_cap * sizeof *sb->vertices);
    sinew__free(sb->allocator, sb->indices, sb->index_cap * sizeof *sb->indices);
    sinew__free(sb->allocator, sb, sizeof *sb);
}

sinew_status sinew_sdl2_create(SDL_Renderer *renderer, const sinew_texture_set *pages, const sinew_sdl2_options *opt,
                               sinew_sdl2 **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "out is NULL");
    *out = NULL;
    if (!renderer)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no SDL_Renderer");
    const sinew_allocator *al = opt ? opt->allocator : NULL;
    sinew_sdl2 *sb = sinew__calloc(al, 1, sizeof *sb);
    if (!sb)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    sb->renderer = renderer;
    sb->allocator = al;
    sb->log = opt ? opt->log : NULL;
    sb->log_user = opt ? opt->log_user : NULL;
    uint32_t n = pages ? sinew_texture_set_page_count(pages) : 0;
    if (n) {
        sb->pages = sinew__calloc(al, n, sizeof *sb->pages);
        if (!sb->pages) {
            sinew__free(al, sb, sizeof *sb);
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        }
        sb->page_count = n;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t w = 0, h = 0;
            const uint8_t *px = NULL;
            sinew_texture_set_page(pages, p, &w, &h, &px);
            if (!(sb->pages[p] = upload(sb, px, w, h, err))) {
                sinew_sdl2_destroy(sb);
                return err ? err->code : SINEW_E_RENDER;
            }
        }
    }
    *out = sb;
    return SINEW_OK;
}

static bool reserve(sinew_sdl2 *sb, size_t vertices, size_t indices) {
    if (vertices > sb->vertex_cap) {
        size_t cap = vertices < 256 ? 256 : vertices;
        SDL_Vertex *v = sinew__realloc(sb->allocator, sb->vertices, sb->vertex_cap * sizeof *v, cap * sizeof *v);
        if (!v)
            return false;
        sb->vertices = v;
        sb->vertex_cap = cap;
    }
    if (indices > sb->index_cap) {
        size_t cap = indices < 768 ? 768 : indices;
        int *ix = sinew__realloc(sb->allocator, sb->indices, sb->index_cap * sizeof *ix, cap * sizeof *ix);
        if (!ix)
            return false;
        sb->indices = ix;
        sb->index_cap = cap;
    }
    return true;
}

/* The SDL blend mode nearest a DragonBones one, for straight-alpha sources: SDL's own for normal,
 * add and multiply; composed ones (which SDL's GL and D3D renderers take, its software renderer
 * not) for subtract, erase, alpha (exact) and screen (exact for opaque sources); normal for the
 * rest. */
static SDL_BlendMode blend_for(sinew_blend_mode m, bool *exact) {
    *exact = true;
    switch (m) {
    case SINEW_BLEND_NORMAL:
    case SINEW_BLEND_LAYER: return SDL_BLENDMODE_BLEND;
    case SINEW_BLEND_ADD: return SDL_BLENDMODE_ADD;
    case SINEW_BLEND_MULTIPLY: return SDL_BLENDMODE_MUL;
    case SINEW_BLEND_SCREEN: /* d + s (1 - d) */
        return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ONE_MINUS_DST_COLOR, SDL_BLENDFACTOR_ONE,
                                          SDL_BLENDOPERATION_ADD, SDL_BLENDFACTOR_ONE,
                                          SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD);
    case SINEW_BLEND_SUBTRACT: /* d - s as, alpha kept */
        return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_SRC_ALPHA, SDL_BLENDFACTOR_ONE,
                                          SDL_BLENDOPERATION_REV_SUBTRACT, SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_ONE,
                                          SDL_BLENDOPERATION_REV_SUBTRACT); /* SDL's GL renderer wants one operation */
    case SINEW_BLEND_ERASE: /* d (1 - as) */
        return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA,
                                          SDL_BLENDOPERATION_ADD, SDL_BLENDFACTOR_ZERO,
                                          SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD);
    case SINEW_BLEND_ALPHA: /* d as */
        return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
                                          SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_SRC_ALPHA, SDL_BLENDOPERATION_ADD);
    default: *exact = false; return SDL_BLENDMODE_BLEND;
    }
}

/* Sets the blend mode for the next draw, falling back to normal (said once per mode) when SDL
 * has none near it or the renderer refuses the composed one. */
static void set_blend(sinew_sdl2 *sb, SDL_Texture *tex, sinew_blend_mode m) {
    bool ok;
    SDL_BlendMode bm = blend_for(m, &ok);
    if (ok)
        ok = (tex ? SDL_SetTextureBlendMode(tex, bm) : SDL_SetRenderDrawBlendMode(sb->renderer, bm)) == 0;
    if (ok)
        return;
    if ((unsigned)m < SINEW_BLEND_COUNT && !sb->warned_blend[m]) {
        sb->warned_blend[m] = true;
        warn(sb, "SDL2 (this renderer) has no '%s' blend mode: drawn as normal", sinew_blend_mode_name(m));
    }
    if (tex)
        SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    else
        SDL_SetRenderDrawBlendMode(sb->renderer, SDL_BLENDMODE_BLEND);
}

static Uint8 unit8(float v) {
    return (Uint8)(!(v > 0.0f) ? 0u : v >= 1.0f ? 255u : (unsigned)(v * 255.0f + 0.5f)); /* (NaN: 0) */
}

/* One command through SDL_RenderGeometry; `as_mask`: its texels' alpha only, at full strength
 * (into a mask target). Returns SINEW_OK, or the error. */
static sinew_status draw_one(sinew_sdl2 *sb, const sinew_drawlist *list, uint32_t c, const sinew_affine *m, bool as_mask,
                             sinew_error *err) {
    const sinew_draw_cmd *cmd = &list->cmds[c];
    if (!reserve(sb, cmd->vertex_count, cmd->index_count))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for %u vertices", cmd->vertex_count);
    const sinew_color_transform *ct = &cmd->color;
    if (!as_mask && !sb->warned_offset && (ct->r_add != 0.0f || ct->g_add != 0.0f || ct->b_add != 0.0f || ct->a_add != 0.0f)) {
        sb->warned_offset = true;
        warn(sb, "%s", "SDL2 cannot add a colour offset: offsets are dropped");
    }
    SDL_Color col = {unit8(ct->r_mul), unit8(ct->g_mul), unit8(ct->b_mul), unit8(ct->a_mul)};
    if (as_mask)
        col = (SDL_Color){255, 255, 255, 255};
    if (col.a == 0)
        return SINEW_OK;
    SDL_Texture *tex = cmd->page < sb->page_count ? sb->pages[cmd->page] : NULL;
    for (uint32_t i = 0; i < cmd->vertex_count; i++) {
        const float *p = &list->positions[2 * (size_t)(cmd->first_vertex + i)];
        const float *uv = &list->uvs[2 * (size_t)(cmd->first_vertex + i)];
        SDL_Vertex *v = &sb->vertices[i];
        v->position.x = m->a * p[0] + m->c * p[1] + m->tx;
        v->position.y = m->b * p[0] + m->d * p[1] + m->ty;
        v->color = col;
        v->tex_coord.x = uv[0];
        v->tex_coord.y = uv[1];
    }
    for (uint32_t i = 0; i < cmd->index_count; i++) {
        uint32_t ix = list->indices[cmd->first_index + i];
        if (ix < cmd->first_vertex || ix - cmd->first_vertex >= cmd->vertex_count)
            return sinew__fail(err, SINEW_E_ARG, NULL, "command %u: index %u outside its vertices", c, ix);
        sb->indices[i] = (int)(ix - cmd->first_vertex);
    }
    set_blend(sb, tex, as_mask ? SINEW_BLEND_NORMAL : cmd->blend);
    if (SDL_RenderGeometry(sb->renderer, tex, sb->vertices, (int)cmd->vertex_count, sb->indices,
                           (int)cmd->index_count) != 0)
        return sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_RenderGeometry: %s", SDL_GetError());
    if (!as_mask)
        sb->draw_calls++;
    return SINEW_OK;
}

/* ---- masks (6.0) ------------------------------------------------------------------------------ */

/* d = d x the source's alpha (colour and alpha): a mask applied to what is under it */
static SDL_BlendMode keep_by_alpha(void) {
    return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
                                      SDL_BLENDFACTOR_ZERO, SDL_BLENDFACTOR_SRC_ALPHA, SDL_BLENDOPERATION_ADD);
}

/* premultiplied over: a layer composited onto the target */
static SDL_BlendMode premultiplied_over(void) {
    return SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
                                      SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD);
}

/* The layer and mask targets at the current target's size; false (said once) when the renderer
 * has no render targets or refuses the composed blend modes. */
static bool mask_targets(sinew_sdl2 *sb, int w, int h) {
    if (sb->masks_off)
        return false;
    if (sb->layer && sb->tw == w && sb->th == h)
        return true;
    SDL_Texture **t[3] = {&sb->layer, &sb->mask[0], &sb->mask[1]};
    bool ok = SDL_RenderTargetSupported(sb->renderer) == SDL_TRUE;
    for (int i = 0; i < 3; i++) {
        if (*t[i])
            SDL_DestroyTexture(*t[i]);
        *t[i] = ok ? SDL_CreateTexture(sb->renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_TARGET, w, h) : NULL;
        ok = ok && *t[i] && SDL_SetTextureBlendMode(*t[i], i ? keep_by_alpha() : premultiplied_over()) == 0;
    }
    if (!ok) {
        sb->masks_off = true;
        warn(sb, "%s", "this SDL renderer cannot draw masks (it needs render targets and composed blend modes): "
                       "masked displays are drawn unclipped");
        return false;
    }
    sb->tw = w;
    sb->th = h;
    sb->holds = 0;
    return true;
}

/* Makes a mask target hold the value of mask command `m` (1 + its index): its chain from the
 * outermost mask in, each drawn into a cleared target (alpha only) and multiplied by the one
 * before. Returns the target; the render target is left on it. */
static sinew_status mask_value(sinew_sdl2 *sb, const sinew_drawlist *list, uint32_t m, const sinew_affine *v, int *k,
                               sinew_error *err) {
    if (sb->holds == m) {
        *k = sb->last;
        return SINEW_OK;
    }
    int at = -1;
    for (uint32_t done = 0; done != m;) {
        uint32_t next = m;
        while (list->cmds[next - 1u].mask != done)
            next = list->cmds[next - 1u].mask;
        int to = at == 0 ? 1 : 0;
        SDL_SetRenderTarget(sb->renderer, sb->mask[to]);
        SDL_SetRenderDrawBlendMode(sb->renderer, SDL_BLENDMODE_NONE);
        SDL_SetRenderDrawColor(sb->renderer, 0, 0, 0, 0);
        SDL_RenderClear(sb->renderer);
        sinew_status st = draw_one(sb, list, next - 1u, v, true, err);
        if (st != SINEW_OK)
            return st;
        if (at >= 0 && SDL_RenderCopy(sb->renderer, sb->mask[at], NULL, NULL) != 0)
            return sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_RenderCopy: %s", SDL_GetError());
        at = to;
        done = next;
    }
    sb->holds = m;
    sb->last = *k = at;
    return SINEW_OK;
}

/* Command c drawn into the layer, clipped by its mask's value and composited onto `target`. One
 * command at a time: each clipped display is its own masked object officially, so two that overlap
 * under a half-transparent mask let the one below show through (a layer holding both would not). */
static sinew_status draw_masked(sinew_sdl2 *sb, const sinew_drawlist *list, uint32_t c, const sinew_affine *v,
                                SDL_Texture *target, sinew_error *err) {
    int k = 0;
    sinew_status st = mask_value(sb, list, list->cmds[c].mask, v, &k, err);
    SDL_SetRenderTarget(sb->renderer, sb->layer);
    SDL_SetRenderDrawBlendMode(sb->renderer, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(sb->renderer, 0, 0, 0, 0);
    SDL_RenderClear(sb->renderer);
    if (st == SINEW_OK)
        st = draw_one(sb, list, c, v, false, err);
    if (st == SINEW_OK && SDL_RenderCopy(sb->renderer, sb->mask[k], NULL, NULL) != 0)
        st = sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_RenderCopy: %s", SDL_GetError());
    SDL_SetRenderTarget(sb->renderer, target);
    if (st == SINEW_OK && SDL_RenderCopy(sb->renderer, sb->layer, NULL, NULL) != 0)
        st = sinew__fail(err, SINEW_E_RENDER, NULL, "SDL_RenderCopy: %s", SDL_GetError());
    return st;
}

sinew_status sinew_sdl2_draw(sinew_sdl2 *sb, const sinew_drawlist *list, const sinew_affine *view, sinew_error *err) {
    if (!sb || !list)
        return sinew__fail(err, SINEW_E_ARG, NULL, "NULL backend or draw list");
    const sinew_affine id = {1, 0, 0, 1, 0, 0};
    const sinew_affine *m = view ? view : &id;
    sb->draw_calls = 0;
    sb->holds = 0;
    SDL_Texture *target = SDL_GetRenderTarget(sb->renderer);
    int w = 0, h = 0;
    if (target)
        SDL_QueryTexture(target, NULL, NULL, &w, &h);
    else
        SDL_GetRendererOutputSize(sb->renderer, &w, &h);
    for (uint32_t c = 0; c < list->cmd_count;) {
        const sinew_draw_cmd *cmd = &list->cmds[c];
        if (cmd->mask && (cmd->mask - 1u >= c || !(list->cmds[cmd->mask - 1u].flags & SINEW_DRAW_MASK)))
            return sinew__fail(err, SINEW_E_ARG, NULL, "command %u: mask %u is not an earlier mask command", c,
                               cmd->mask - 1u);
        sinew_status st = SINEW_OK;
        bool plain = !(cmd->flags & SINEW_DRAW_MASK); /* a mask is not drawn: its value is, when needed */
        if (plain && cmd->mask && w > 0 && h > 0 && mask_targets(sb, w, h))
            st = draw_masked(sb, list, c, m, target, err);
        else if (plain && cmd->index_count && cmd->vertex_count)
            st = draw_one(sb, list, c, m, false, err);
        if (st != SINEW_OK)
            return st;
        c++;
    }
    return SINEW_OK;
}

uint32_t sinew_sdl2_draw_calls(const sinew_sdl2 *sb) {
    return sb ? sb->draw_calls : 0;
}
