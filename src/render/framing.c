/* Framing: draw-list bounds and the view transform for an output size. */
#include <math.h>

#include "base/error.h"
#include "sinew/render.h"

sinew_rect sinew_rect_empty(void) { return (sinew_rect){INFINITY, INFINITY, -INFINITY, -INFINITY}; }

bool sinew_rect_is_empty(sinew_rect r) { return !(r.x0 <= r.x1) || !(r.y0 <= r.y1); }

sinew_rect sinew_rect_union(sinew_rect a, sinew_rect b) {
    if (sinew_rect_is_empty(a)) return b;
    if (sinew_rect_is_empty(b)) return a;
    return (sinew_rect){fminf(a.x0, b.x0), fminf(a.y0, b.y0), fmaxf(a.x1, b.x1), fmaxf(a.y1, b.y1)};
}

bool sinew_drawlist_bounds(const sinew_drawlist *list, sinew_rect *bounds, bool accumulate) {
    if (!list || !bounds || !list->positions || !list->indices || !list->cmds) return false;
    sinew_rect r = sinew_rect_empty();
    for (uint32_t i = 0; i < list->cmd_count; i++) {
        const sinew_draw_cmd *c = &list->cmds[i];
        if (c->first_index > list->index_count || c->index_count > list->index_count - c->first_index ||
            (c->flags & SINEW_DRAW_MASK)) continue; /* a mask is not drawn */
        for (uint32_t k = 0; k < c->index_count; k++) {
            uint32_t v = list->indices[c->first_index + k];
            if (v >= list->vertex_count) continue;
            float x = list->positions[2 * v], y = list->positions[2 * v + 1];
            if (!isfinite(x) || !isfinite(y)) continue;
            r.x0 = fminf(r.x0, x);
            r.y0 = fminf(r.y0, y);
            r.x1 = fmaxf(r.x1, x);
            r.y1 = fmaxf(r.y1, y);
        }
    }
    if (sinew_rect_is_empty(r)) return false;
    *bounds = accumulate ? sinew_rect_union(*bounds, r) : r;
    return true;
}

static bool valid_scale(float s) { return isfinite(s) && s > 0.0f; }

sinew_status sinew_framing_fit(sinew_rect b, float scale, float padding, sinew_framing *out, sinew_error *err) {
    if (!out) return sinew__fail(err, SINEW_E_ARG, NULL, "framing: NULL argument");
    if (!valid_scale(scale)) return sinew__fail(err, SINEW_E_RANGE, NULL, "scale must be a positive number");
    if (!isfinite(padding) || padding < 0.0f || padding > (float)SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "padding must be between 0 and %u", SINEW_MAX_IMAGE_SIDE);
    if (sinew_rect_is_empty(b) || !isfinite(b.x0) || !isfinite(b.x1) || !isfinite(b.y0) || !isfinite(b.y1))
        return sinew__fail(err, SINEW_E_RANGE, NULL, "nothing to frame: the animation draws nothing");
    double x0 = floor((double)b.x0 * scale), y0 = floor((double)b.y0 * scale);
    double x1 = ceil((double)b.x1 * scale), y1 = ceil((double)b.y1 * scale);
    double pad = ceil((double)padding);
    double w = x1 - x0 + 2.0 * pad, h = y1 - y0 + 2.0 * pad;
    if (w < 1.0) w = 1.0;
    if (h < 1.0) h = 1.0;
    if (w > SINEW_MAX_IMAGE_SIDE || h > SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "output size %.0fx%.0f exceeds %u pixels per side", w, h,
                           SINEW_MAX_IMAGE_SIDE);
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    out->view = (sinew_affine){scale, 0.0f, 0.0f, scale, (float)(pad - x0), (float)(pad - y0)};
    return SINEW_OK;
}

sinew_status sinew_framing_fixed(uint32_t width, uint32_t height, float origin_x, float origin_y, float scale,
                                 sinew_framing *out, sinew_error *err) {
    if (!out) return sinew__fail(err, SINEW_E_ARG, NULL, "framing: NULL argument");
    if (!valid_scale(scale)) return sinew__fail(err, SINEW_E_RANGE, NULL, "scale must be a positive number");
    if (width == 0 || height == 0 || width > SINEW_MAX_IMAGE_SIDE || height > SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "size %ux%u is out of range (1..%u)", width, height,
                           SINEW_MAX_IMAGE_SIDE);
    if (!isfinite(origin_x) || !isfinite(origin_y)) return sinew__fail(err, SINEW_E_RANGE, NULL, "origin must be finite");
    out->width = width;
    out->height = height;
    out->view = (sinew_affine){scale, 0.0f, 0.0f, scale, origin_x, origin_y};
    return SINEW_OK;
}
