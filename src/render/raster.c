/*
 * The software rasterizer.
 *
 * Per draw command:
 *   1. Coverage. Every triangle (turned counter-clockwise) adds its three edges into a signed-area
 *      accumulation buffer over the command's pixel bounding box. A prefix sum along each row gives
 *      the exact area of each pixel covered by the union of the triangles (box filter). Edges that
 *      two triangles share cancel, so a mesh has no seams and no pixel is covered twice; folded
 *      meshes are clamped to full coverage.
 *   2. Ownership. Each covered pixel takes its texture mapping from one triangle: the one holding
 *      the pixel centre, or else any triangle touching the pixel square (edge pixels).
 *   3. Shading. Bilinear sample inside the atlas region (clamped to its edge texels), colour
 *      transform, times coverage, blended into the premultiplied framebuffer.
 * A mask command (6.0, SINEW_DRAW_MASK) is not shaded: its coverage times its texel's alpha (times
 * its own mask's value) goes into a plane of bytes over its box, and the commands it clips multiply
 * their coverage by that plane.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "render/texture_internal.h"
#include "sinew/render.h"

#define OWNER_NONE UINT32_MAX
/* Vertices further than this from the framebuffer origin (2^24 pixels: where floats stop resolving
   whole pixels) are not drawn; below it every product the coverage code forms is finite. */
#define VERTEX_LIMIT 16777216.0f

typedef struct tri_map {
    float ua, ub, uc;   /* texel x = ua * x + ub * y + uc (pixel-centre coordinates, local) */
    float va, vb, vc;
} tri_map;

/* A mask command's plane: its box in the framebuffer and where its bytes are in `planes`. */
typedef struct mask_rec {
    int32_t x0, y0, w, h;      /* w == 0: covers nothing */
    size_t off;
} mask_rec;

struct sinew_renderer {
    const sinew_allocator *allocator;
    sinew_log_fn log;
    void *log_user;
    uint32_t warned;      /* bit per blend mode already reported */
    float *xy;            /* vertices in pixel space */
    size_t xy_cap;        /* floats */
    float *acc;           /* coverage accumulation, rows of (bw + 2) cells, kept zeroed */
    size_t acc_cap;       /* floats */
    uint32_t *owner;      /* per pixel of the bounding box: triangle (local index) */
    size_t owner_cap;
    int32_t *row_lo, *row_hi;  /* per row of the box: first and last cell written */
    int32_t *rows;        /* storage of row_lo and row_hi */
    size_t rows_cap;      /* int32 elements in rows */
    tri_map *tris;
    size_t tris_cap;
    uint8_t *planes;      /* the masks' values, 0..255, each over its box */
    size_t planes_cap;
    mask_rec *masks;      /* per command of the list (masks only are set) */
    size_t masks_cap;
};

/* ---------------------------------------------------------------------------------------------- */
/* Scratch buffers                                                                                 */

static bool grow(const sinew_allocator *a, void **ptr, size_t *cap, size_t need, size_t elem, bool zero) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        if (n > SIZE_MAX / 2) return false;
        n *= 2;
    }
    size_t bytes;
    if (!sinew__mul_size(n, elem, &bytes)) return false;
    void *p = zero ? sinew__calloc(a, n, elem) : sinew__alloc(a, bytes);
    if (!p) return false;
    if (*ptr) sinew__free(a, *ptr, *cap * elem);
    *ptr = p;
    *cap = n;
    return true;
}

sinew_status sinew_renderer_create(const sinew_allocator *allocator, sinew_renderer **out,
                                   sinew_error *err) {
    if (!out) return sinew__fail(err, SINEW_E_ARG, NULL, "renderer: NULL argument");
    const sinew_allocator *a = sinew__allocator_or_default(allocator);
    sinew_renderer *r = sinew__calloc(a, 1, sizeof *r);
    if (!r) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (renderer)");
    r->allocator = a;
    *out = r;
    return SINEW_OK;
}

void sinew_renderer_destroy(sinew_renderer *r) {
    if (!r) return;
    const sinew_allocator *a = r->allocator;
    if (r->xy) sinew__free(a, r->xy, r->xy_cap * sizeof(float));
    if (r->acc) sinew__free(a, r->acc, r->acc_cap * sizeof(float));
    if (r->owner) sinew__free(a, r->owner, r->owner_cap * sizeof(uint32_t));
    if (r->rows) sinew__free(a, r->rows, r->rows_cap * sizeof(int32_t));
    if (r->tris) sinew__free(a, r->tris, r->tris_cap * sizeof(tri_map));
    if (r->planes) sinew__free(a, r->planes, r->planes_cap);
    if (r->masks) sinew__free(a, r->masks, r->masks_cap * sizeof(mask_rec));
    sinew__free(a, r, sizeof *r);
}

void sinew_renderer_set_log(sinew_renderer *r, sinew_log_fn log, void *user) {
    if (!r) return;
    r->log = log;
    r->log_user = user;
}

size_t sinew_renderer_scratch_bytes(const sinew_renderer *r) {
    if (!r) return 0;
    return r->xy_cap * sizeof(float) + r->acc_cap * sizeof(float) + r->owner_cap * sizeof(uint32_t) +
           r->rows_cap * sizeof(int32_t) + r->tris_cap * sizeof(tri_map) + r->planes_cap +
           r->masks_cap * sizeof(mask_rec);
}

static bool grow_rows(sinew_renderer *r, size_t rows) {
    if (!grow(r->allocator, (void **)&r->rows, &r->rows_cap, rows * 2u, sizeof(int32_t), false)) return false;
    r->row_lo = r->rows;
    r->row_hi = r->rows + rows;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Coverage accumulation                                                                           */

/*
 * One row's piece of an edge: within this row the edge covers a height `d` (signed by its
 * direction) and runs from x = lo to x = hi (sorted). The coverage it adds to pixel cell c is
 * d * (G(c + 1) - G(c)), where G is the integral of the fraction of the row height for which the
 * edge lies left of X. Cells right of the span receive the full d. The buffer holds differences
 * between neighbouring cells, so a prefix sum along the row restores the coverage.
 */
static inline float span_integral(float X, float lo, float hi, float inv_w) {
    if (X <= lo) return 0.0f;
    if (X >= hi) return 0.5f * (hi - lo) + (X - hi);
    float t = X - lo;
    return 0.5f * t * t * inv_w;
}

static void acc_span(float *row, int32_t w, float lo, float hi, float d, int32_t *row_lo, int32_t *row_hi) {
    if (hi - lo < 1e-5f) {
        float m = 0.5f * (lo + hi);
        lo = hi = m;
    }
    float inv_w = hi > lo ? 1.0f / (hi - lo) : 0.0f;
    float flo = floorf(lo), fhi = floorf(hi);
    /* clamp far-away cells to just outside the box: everything left of the box behaves like
       column 0, everything right of it is never read */
    int32_t cs = flo < -1.0f ? -1 : (flo > (float)w ? w : (int32_t)flo);
    int32_t ce = fhi < -1.0f ? -1 : (fhi > (float)w ? w : (int32_t)fhi);
    float prev = 0.0f;
    int32_t c = cs < 0 ? 0 : cs;
    int32_t first = c;
    for (; c <= ce && c <= w; c++) {
        float X = (float)c;
        float cov = d * (span_integral(X + 1.0f, lo, hi, inv_w) - span_integral(X, lo, hi, inv_w));
        row[c] += cov - prev;
        prev = cov;
    }
    int32_t last = c - 1;
    if (c <= w + 1) {
        row[c] += d - prev;
        last = c;
    }
    if (first < *row_lo) *row_lo = first;
    if (last > *row_hi) *row_hi = last;
}

static void acc_edge(sinew_renderer *r, int32_t bw, int32_t bh, float x0, float y0, float x1, float y1) {
    if (y0 == y1) return;
    float dir = 1.0f;
    if (y0 > y1) {
        float t = x0; x0 = x1; x1 = t;
        t = y0; y0 = y1; y1 = t;
        dir = -1.0f;
    }
    float ys = y0 > 0.0f ? y0 : 0.0f;
    float ye = y1 < (float)bh ? y1 : (float)bh;
    if (ys >= ye) return;
    float dxdy = (x1 - x0) / (y1 - y0);
    /* an edge all but horizontal (its height below 1e-30: the slope overflows) lies in one row:
       its whole x range there, never inf * 0 */
    bool sloped = isfinite(dxdy);
    int32_t r0 = (int32_t)floorf(ys), r1 = (int32_t)ceilf(ye);
    if (r1 > bh) r1 = bh;
    size_t stride = (size_t)bw + 2u;
    for (int32_t row = r0; row < r1; row++) {
        float ya = (float)row > ys ? (float)row : ys;
        float yb = (float)(row + 1) < ye ? (float)(row + 1) : ye;
        if (yb <= ya) continue;
        float xa = sloped ? x0 + (ya - y0) * dxdy : x0, xb = sloped ? x0 + (yb - y0) * dxdy : x1;
        float lo = xa < xb ? xa : xb, hi = xa < xb ? xb : xa;
        acc_span(r->acc + (size_t)row * stride, bw, lo, hi, (yb - ya) * dir, &r->row_lo[row],
                 &r->row_hi[row]);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Pixel arithmetic (premultiplied RGBA8)                                                          */

static inline uint32_t div255(uint32_t x) {
    x += 128u;
    return (x + (x >> 8)) >> 8;
}

static inline uint32_t lerp_pairs(uint32_t a, uint32_t b, uint32_t f) {
    /* two 8-bit lanes in bits 0..7 and 16..23; f in 0..256 */
    uint32_t v = a * (256u - f) + b * f;
    return (v >> 8) & 0x00ff00ffu;
}

static inline uint32_t bilerp(uint32_t t00, uint32_t t01, uint32_t t10, uint32_t t11, uint32_t fx, uint32_t fy) {
    uint32_t rb0 = lerp_pairs(t00 & 0x00ff00ffu, t01 & 0x00ff00ffu, fx);
    uint32_t ag0 = lerp_pairs((t00 >> 8) & 0x00ff00ffu, (t01 >> 8) & 0x00ff00ffu, fx);
    uint32_t rb1 = lerp_pairs(t10 & 0x00ff00ffu, t11 & 0x00ff00ffu, fx);
    uint32_t ag1 = lerp_pairs((t10 >> 8) & 0x00ff00ffu, (t11 >> 8) & 0x00ff00ffu, fx);
    return lerp_pairs(rb0, rb1, fy) | (lerp_pairs(ag0, ag1, fy) << 8);
}

typedef struct sampler {
    const uint32_t *texels;
    int32_t width;
    float lo_x, hi_x, lo_y, hi_y;   /* clamp range in texel-centre coordinates */
    int32_t hi_xi, hi_yi;
} sampler;

static inline uint32_t sample(const sampler *s, float x, float y) {
    x = !(x >= s->lo_x) ? s->lo_x : (x > s->hi_x ? s->hi_x : x); /* (NaN to the low edge) */
    y = !(y >= s->lo_y) ? s->lo_y : (y > s->hi_y ? s->hi_y : y);
    int32_t ix = (int32_t)x, iy = (int32_t)y;  /* x, y >= 0 here */
    uint32_t fx = (uint32_t)((x - (float)ix) * 256.0f + 0.5f);
    uint32_t fy = (uint32_t)((y - (float)iy) * 256.0f + 0.5f);
    int32_t ix1 = ix < s->hi_xi ? ix + 1 : ix;
    int32_t iy1 = iy < s->hi_yi ? iy + 1 : iy;
    const uint32_t *r0 = s->texels + (size_t)iy * (size_t)s->width;
    const uint32_t *r1 = s->texels + (size_t)iy1 * (size_t)s->width;
    return bilerp(r0[ix], r0[ix1], r1[ix], r1[ix1], fx, fy);
}

typedef enum blend_kind {
    BK_NORMAL, BK_ADD, BK_MULTIPLY, BK_SCREEN, BK_DARKEN, BK_LIGHTEN, BK_DIFFERENCE, BK_OVERLAY, BK_HARDLIGHT,
    BK_SUBTRACT, BK_ERASE, BK_ALPHA, BK_INVERT
} blend_kind;

/* The W3C hard-light term of one premultiplied channel (s, sa over d, da), in 255 * 255 units. */
static inline uint32_t hardlight_term(uint32_t s, uint32_t sa, uint32_t d, uint32_t da) {
    if (2u * s <= sa) return 2u * s * d;
    uint32_t both = sa * da, back = 2u * (da - d) * (sa - s);
    return both > back ? both - back : 0u;
}

static inline void blend_px(uint8_t *d, const uint32_t s[4], blend_kind bk) {
    uint32_t sa = s[3];
    switch (bk) {
    case BK_NORMAL: {
        uint32_t k = 255u - sa;
        for (int i = 0; i < 4; i++) d[i] = (uint8_t)(s[i] + div255(d[i] * k));
        break;
    }
    case BK_ADD:
        for (int i = 0; i < 4; i++) {
            uint32_t v = s[i] + d[i];
            d[i] = (uint8_t)(v > 255u ? 255u : v);
        }
        break;
    case BK_SCREEN:
        for (int i = 0; i < 4; i++) d[i] = (uint8_t)(s[i] + d[i] - div255(s[i] * d[i]));
        break;
    case BK_MULTIPLY:
    case BK_DARKEN:
    case BK_LIGHTEN:
    case BK_DIFFERENCE:
    case BK_OVERLAY:
    case BK_HARDLIGHT: {
        /* separable W3C modes: s(1 - da) + d(1 - sa) + the mode's term over both, alpha as over */
        uint32_t da = d[3];
        for (int i = 0; i < 3; i++) {
            uint32_t sc = s[i] > sa ? sa : s[i], dc = d[i] > da ? da : d[i];
            uint32_t x = sc * da, y = dc * sa, term;
            switch (bk) {
            case BK_MULTIPLY: term = sc * dc; break;
            case BK_DARKEN: term = x < y ? x : y; break;
            case BK_LIGHTEN: term = x > y ? x : y; break;
            case BK_DIFFERENCE: term = x > y ? x - y : y - x; break; /* |s da - d sa| */
            case BK_OVERLAY: term = hardlight_term(dc, da, sc, sa); break;
            default: term = hardlight_term(sc, sa, dc, da); break;
            }
            uint32_t v = div255(sc * (255u - da) + dc * (255u - sa) + term);
            d[i] = (uint8_t)(v > 255u ? 255u : v);
        }
        d[3] = (uint8_t)(sa + da - div255(sa * da));
        break;
    }
    case BK_SUBTRACT: /* the background less the source, alpha kept */
        for (int i = 0; i < 3; i++) d[i] = (uint8_t)(d[i] > s[i] ? d[i] - s[i] : 0u);
        break;
    case BK_ERASE: /* the background cleared where the source covers */
        for (int i = 0; i < 4; i++) d[i] = (uint8_t)div255(d[i] * (255u - sa));
        break;
    case BK_ALPHA: /* the background kept by the source's alpha (a mask) */
        for (int i = 0; i < 4; i++) d[i] = (uint8_t)div255(d[i] * sa);
        break;
    case BK_INVERT: /* the background's colour inverted where the source covers, alpha kept */
        for (int i = 0; i < 3; i++) {
            uint32_t dc = d[i] > d[3] ? d[3] : d[i];
            d[i] = (uint8_t)div255((d[3] - dc) * sa + dc * (255u - sa));
        }
        break;
    }
}

/* Packed fast path (normal blend, one multiplier for all channels): lanes are paired as in bilerp,
   so it does not depend on byte order; the alpha byte is read through a byte pointer. */
static inline uint32_t scale_packed(uint32_t p, uint32_t k) {
    uint32_t rb = (((p & 0x00ff00ffu) * k) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((p >> 8) & 0x00ff00ffu) * k) & 0xff00ff00u;
    return rb | ag;
}

static inline uint32_t alpha_of(uint32_t p) {
    uint8_t b[4];
    memcpy(b, &p, 4);
    return b[3];
}

static inline uint32_t over_packed(uint32_t s, uint32_t d) {
    uint32_t k = 255u - alpha_of(s);
    uint32_t rb = (d & 0x00ff00ffu) * k + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
    uint32_t ag = ((d >> 8) & 0x00ff00ffu) * k + 0x00800080u;
    ag = ((ag + ((ag >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
    return s + (rb | (ag << 8));
}

/* ---------------------------------------------------------------------------------------------- */
/* Framebuffer                                                                                     */

sinew_status sinew_framebuffer_init(sinew_framebuffer *fb, uint32_t width, uint32_t height,
                                    const sinew_allocator *allocator, sinew_error *err) {
    if (!fb) return sinew__fail(err, SINEW_E_ARG, NULL, "framebuffer: NULL argument");
    memset(fb, 0, sizeof *fb);
    if (width == 0 || height == 0 || width > SINEW_MAX_IMAGE_SIDE || height > SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "framebuffer size %ux%u is out of range (1..%u)",
                           width, height, SINEW_MAX_IMAGE_SIDE);
    const sinew_allocator *a = sinew__allocator_or_default(allocator);
    fb->pixels = sinew__calloc(a, (size_t)width * height, 4u);
    if (!fb->pixels) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (framebuffer)");
    fb->width = width;
    fb->height = height;
    fb->stride = (size_t)width * 4u;
    fb->allocator_ = a;
    return SINEW_OK;
}

void sinew_framebuffer_free(sinew_framebuffer *fb) {
    if (!fb || !fb->pixels) return;
    sinew__free(fb->allocator_, fb->pixels, fb->stride * fb->height);
    memset(fb, 0, sizeof *fb);
}

void sinew_framebuffer_clear(sinew_framebuffer *fb, sinew_rgba8 c) {
    if (!fb || !fb->pixels) return;
    uint8_t px[4] = {(uint8_t)div255((uint32_t)c.r * c.a), (uint8_t)div255((uint32_t)c.g * c.a),
                     (uint8_t)div255((uint32_t)c.b * c.a), c.a};
    for (uint32_t y = 0; y < fb->height; y++) {
        uint8_t *row = fb->pixels + y * fb->stride;
        if (px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 0) {
            memset(row, 0, (size_t)fb->width * 4u);
            continue;
        }
        for (uint32_t x = 0; x < fb->width; x++) memcpy(row + x * 4u, px, 4);
    }
}

void sinew_framebuffer_to_straight(const sinew_framebuffer *fb, uint8_t *out, size_t out_stride) {
    if (!fb || !fb->pixels || !out) return;
    if (!out_stride) out_stride = (size_t)fb->width * 4u;
    for (uint32_t y = 0; y < fb->height; y++) {
        const uint8_t *s = fb->pixels + y * fb->stride;
        uint8_t *d = out + y * out_stride;
        for (uint32_t x = 0; x < fb->width; x++, s += 4, d += 4) {
            uint32_t a = s[3];
            if (a == 255) {
                memcpy(d, s, 4);
            } else if (a == 0) {
                memset(d, 0, 4);
            } else {
                for (int i = 0; i < 3; i++) {
                    uint32_t v = (s[i] * 255u + a / 2u) / a;
                    d[i] = (uint8_t)(v > 255u ? 255u : v);
                }
                d[3] = (uint8_t)a;
            }
        }
    }
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool sinew_rgba8_parse(const char *text, sinew_rgba8 *out) {
    if (!text || !out) return false;
    if (strcmp(text, "transparent") == 0) { *out = (sinew_rgba8){0, 0, 0, 0}; return true; }
    if (strcmp(text, "black") == 0) { *out = (sinew_rgba8){0, 0, 0, 255}; return true; }
    if (strcmp(text, "white") == 0) { *out = (sinew_rgba8){255, 255, 255, 255}; return true; }
    if (*text == '#') text++;
    size_t n = strlen(text);
    int v[8];
    if (n != 3 && n != 6 && n != 8) return false;
    for (size_t i = 0; i < n; i++)
        if ((v[i] = hexval(text[i])) < 0) return false;
    if (n == 3) {
        *out = (sinew_rgba8){(uint8_t)(v[0] * 17), (uint8_t)(v[1] * 17), (uint8_t)(v[2] * 17), 255};
    } else {
        out->r = (uint8_t)(v[0] * 16 + v[1]);
        out->g = (uint8_t)(v[2] * 16 + v[3]);
        out->b = (uint8_t)(v[4] * 16 + v[5]);
        out->a = n == 8 ? (uint8_t)(v[6] * 16 + v[7]) : 255;
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Drawing                                                                                         */

static blend_kind blend_for(sinew_renderer *r, sinew_blend_mode mode) {
    switch (mode) {
    case SINEW_BLEND_NORMAL: return BK_NORMAL;
    case SINEW_BLEND_LAYER: return BK_NORMAL; /* a layer of its own, composited normally */
    case SINEW_BLEND_ADD: return BK_ADD;
    case SINEW_BLEND_MULTIPLY: return BK_MULTIPLY;
    case SINEW_BLEND_SCREEN: return BK_SCREEN;
    case SINEW_BLEND_DARKEN: return BK_DARKEN;
    case SINEW_BLEND_LIGHTEN: return BK_LIGHTEN;
    case SINEW_BLEND_DIFFERENCE: return BK_DIFFERENCE;
    case SINEW_BLEND_OVERLAY: return BK_OVERLAY;
    case SINEW_BLEND_HARDLIGHT: return BK_HARDLIGHT;
    case SINEW_BLEND_SUBTRACT: return BK_SUBTRACT;
    case SINEW_BLEND_ERASE: return BK_ERASE;
    case SINEW_BLEND_ALPHA: return BK_ALPHA;
    case SINEW_BLEND_INVERT: return BK_INVERT;
    default: break;
    }
    uint32_t bit = (unsigned)mode < 32u ? 1u << (unsigned)mode : 0x80000000u;
    if (r->log && !(r->warned & bit)) {
        sinew_error w = {0};
        w.code = SINEW_E_UNSUPPORTED;
        const char *name = sinew_blend_mode_name(mode);
        snprintf(w.message, sizeof w.message, "blend mode '%s' is not supported by the rasterizer; drawn as normal",
                 name ? name : "?");
        r->log(r->log_user, SINEW_LOG_WARNING, &w);
    }
    r->warned |= bit;
    return BK_NORMAL;
}

static inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

/* Shading constants of one command. */
typedef struct shade {
    bool textured, simple;
    uint32_t mul[4];      /* simple path: premultiplied multipliers 0..256 (r, g, b, a) */
    float fmul[4], fadd[4];  /* general path: straight multipliers and offsets (0..1 units) */
    blend_kind bk;
} shade;

static inline void shade_px(const shade *sh, uint32_t texel, uint32_t icov, uint32_t out[4]) {
    uint8_t t[4];
    memcpy(t, &texel, 4);
    if (sh->simple) {
        for (int i = 0; i < 4; i++) out[i] = (t[i] * sh->mul[i] * icov + 32768u) >> 16;
        return;
    }
    float a = (float)t[3] * (1.0f / 255.0f);
    float oa = clamp01(a * sh->fmul[3] + sh->fadd[3]);
    float k = oa * (float)icov * (255.0f / 256.0f);
    for (int i = 0; i < 3; i++) {
        float straight = a > 0.0f ? (float)t[i] * (1.0f / 255.0f) / a : 0.0f;
        float v = clamp01(straight * sh->fmul[i] + sh->fadd[i]);
        out[i] = (uint32_t)(v * k + 0.5f);
    }
    out[3] = (uint32_t)(k + 0.5f);
    for (int i = 0; i < 3; i++)
        if (out[i] > out[3]) out[i] = out[3];
}

static void setup_shade(sinew_renderer *r, const sinew_draw_cmd *cmd, bool textured, shade *sh) {
    const sinew_color_transform *c = &cmd->color;
    float m[4] = {c->r_mul, c->g_mul, c->b_mul, c->a_mul};
    float a[4] = {c->r_add, c->g_add, c->b_add, c->a_add};
    sh->textured = textured;
    sh->bk = blend_for(r, cmd->blend);
    bool simple = true;
    for (int i = 0; i < 4; i++) {
        if (!isfinite(m[i])) m[i] = 1.0f;
        if (!isfinite(a[i])) a[i] = 0.0f;
        sh->fmul[i] = m[i];
        sh->fadd[i] = a[i] / 255.0f;
        if (a[i] != 0.0f || m[i] < 0.0f || m[i] > 1.0f) simple = false;
    }
    sh->simple = simple;
    if (simple) {
        for (int i = 0; i < 3; i++) sh->mul[i] = (uint32_t)(m[i] * m[3] * 256.0f + 0.5f);
        sh->mul[3] = (uint32_t)(m[3] * 256.0f + 0.5f);
    }
}

static bool setup_sampler(const sinew_texture_set *tex, const sinew_draw_cmd *cmd, sampler *s) {
    const sinew__page *p = &tex->pages[cmd->page];
    float W = (float)p->width, H = (float)p->height;
    float u0 = cmd->region[0], v0 = cmd->region[1], u1 = cmd->region[2], v1 = cmd->region[3];
    int32_t x0 = 0, y0 = 0, x1 = (int32_t)p->width - 1, y1 = (int32_t)p->height - 1;
    if (isfinite(u0) && isfinite(v0) && isfinite(u1) && isfinite(v1) && u1 > u0 && v1 > v0) {
        float fx0 = roundf(u0 * W), fx1 = roundf(u1 * W) - 1.0f;
        float fy0 = roundf(v0 * H), fy1 = roundf(v1 * H) - 1.0f;
        if (fx1 < fx0) fx1 = fx0;
        if (fy1 < fy0) fy1 = fy0;
        if (fx0 > (float)x0) x0 = fx0 > (float)x1 ? x1 : (int32_t)fx0;
        if (fy0 > (float)y0) y0 = fy0 > (float)y1 ? y1 : (int32_t)fy0;
        if (fx1 < (float)x1) x1 = fx1 < (float)x0 ? x0 : (int32_t)fx1;
        if (fy1 < (float)y1) y1 = fy1 < (float)y0 ? y0 : (int32_t)fy1;
    }
    s->texels = p->texels;
    s->width = (int32_t)p->width;
    s->lo_x = (float)x0;
    s->hi_x = (float)x1;
    s->lo_y = (float)y0;
    s->hi_y = (float)y1;
    s->hi_xi = x1;
    s->hi_yi = y1;
    return true;
}

static sinew_status validate(const sinew_drawlist *list, const sinew_texture_set *tex, sinew_error *err) {
    if (list->cmd_count && !list->cmds) return sinew__fail(err, SINEW_E_ARG, NULL, "draw list: no commands array");
    if (list->index_count && !list->indices) return sinew__fail(err, SINEW_E_ARG, NULL, "draw list: no indices");
    if (list->vertex_count && !list->positions) return sinew__fail(err, SINEW_E_ARG, NULL, "draw list: no positions");
    for (uint32_t i = 0; i < list->cmd_count; i++) {
        const sinew_draw_cmd *c = &list->cmds[i];
        if (c->index_count % 3u != 0 || c->first_index > list->index_count ||
            c->index_count > list->index_count - c->first_index)
            return sinew__fail(err, SINEW_E_RANGE, NULL, "draw command %u: index range out of bounds", i);
        if (c->page != SINEW_INVALID_INDEX) {
            if (!tex || c->page >= tex->count)
                return sinew__fail(err, SINEW_E_RANGE, NULL, "draw command %u: texture page %u does not exist", i, c->page);
            if (!list->uvs) return sinew__fail(err, SINEW_E_ARG, NULL, "draw list: no uvs");
        }
        if (c->mask && (c->mask - 1u >= i || !(list->cmds[c->mask - 1u].flags & SINEW_DRAW_MASK)))
            return sinew__fail(err, SINEW_E_RANGE, NULL, "draw command %u: mask %u is not an earlier mask command", i,
                               c->mask - 1u);
        for (uint32_t k = 0; k < c->index_count; k++)
            if (list->indices[c->first_index + k] >= list->vertex_count)
                return sinew__fail(err, SINEW_E_RANGE, NULL, "draw command %u: vertex index %u out of range", i,
                                   list->indices[c->first_index + k]);
    }
    return SINEW_OK;
}

/* The pixels a command can touch: its finite vertices' bounding box clipped to the framebuffer;
 * false when nothing of it is inside. */
typedef struct cmd_box {
    int32_t x0, y0;            /* the box's top-left pixel in the framebuffer */
    int32_t w, h;
} cmd_box;

static bool command_box(const float *xy, const uint32_t *idx, uint32_t index_count, const sinew_framebuffer *fb,
                        cmd_box *box) {
    float minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    for (uint32_t k = 0; k < index_count; k++) {
        const float *p = xy + 2u * idx[k];
        if (!isfinite(p[0]) || !isfinite(p[1])) continue;
        if (p[0] < minx) minx = p[0];
        if (p[0] > maxx) maxx = p[0];
        if (p[1] < miny) miny = p[1];
        if (p[1] > maxy) maxy = p[1];
    }
    if (!(minx <= maxx)) return false;
    float fw = (float)fb->width, fh = (float)fb->height;
    if (maxx <= 0.0f || maxy <= 0.0f || minx >= fw || miny >= fh) return false;
    int32_t bx0 = minx <= 0.0f ? 0 : (int32_t)floorf(minx);
    int32_t by0 = miny <= 0.0f ? 0 : (int32_t)floorf(miny);
    int32_t bx1 = maxx >= fw ? (int32_t)fb->width : (int32_t)ceilf(maxx);
    int32_t by1 = maxy >= fh ? (int32_t)fb->height : (int32_t)ceilf(maxy);
    box->x0 = bx0;
    box->y0 = by0;
    box->w = bx1 - bx0;
    box->h = by1 - by0;
    return box->w > 0 && box->h > 0;
}

/* Scratch for a box of bw x bh pixels and ntri triangles, rows emptied. */
static bool command_scratch(sinew_renderer *r, int32_t bw, int32_t bh, uint32_t ntri) {
    size_t cells = (size_t)(bw + 2) * (size_t)bh, pixels = (size_t)bw * (size_t)bh;
    if (!grow(r->allocator, (void **)&r->acc, &r->acc_cap, cells, sizeof(float), true) ||
        !grow(r->allocator, (void **)&r->owner, &r->owner_cap, pixels, sizeof(uint32_t), false) ||
        !grow_rows(r, (size_t)bh) ||
        !grow(r->allocator, (void **)&r->tris, &r->tris_cap, ntri, sizeof(tri_map), false))
        return false;
    for (int32_t y = 0; y < bh; y++) {
        r->row_lo[y] = INT32_MAX;
        r->row_hi[y] = -1;
    }
    return true;
}

/* 1. Coverage: every triangle's signed edges accumulated (turned one way, so shared edges
 * cancel), and for a textured command its texel coordinates as a function of pixel-centre
 * position (tris[t].ua NaN marks a skipped triangle). */
static void cover_triangles(sinew_renderer *r, const sinew_drawlist *list, const uint32_t *idx, uint32_t ntri,
                            bool textured, float tw, float th, float ox, float oy, int32_t bw, int32_t bh) {
    const float *xy = r->xy;
    for (uint32_t t = 0; t < ntri; t++) {
        uint32_t i0 = idx[3 * t], i1 = idx[3 * t + 1], i2 = idx[3 * t + 2];
        float x0 = xy[2 * i0] - ox, y0 = xy[2 * i0 + 1] - oy;
        float x1 = xy[2 * i1] - ox, y1 = xy[2 * i1 + 1] - oy;
        float x2 = xy[2 * i2] - ox, y2 = xy[2 * i2 + 1] - oy;
        float area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
        tri_map *m = &r->tris[t];
        if (!isfinite(area) || fabsf(area) < 1e-9f) {
            m->ua = NAN;  /* marks a skipped triangle */
            continue;
        }
        if (area < 0.0f) {  /* turn every triangle the same way so shared edges cancel */
            uint32_t ti = i1; i1 = i2; i2 = ti;
            float tf = x1; x1 = x2; x2 = tf;
            tf = y1; y1 = y2; y2 = tf;
            area = -area;
        }
        acc_edge(r, bw, bh, x0, y0, x1, y1);
        acc_edge(r, bw, bh, x1, y1, x2, y2);
        acc_edge(r, bw, bh, x2, y2, x0, y0);
        if (textured) {
            /* texel-centre coordinates as a function of pixel-centre position */
            float q0 = list->uvs[2 * i0] * tw - 0.5f, q1 = list->uvs[2 * i1] * tw - 0.5f, q2 = list->uvs[2 * i2] * tw - 0.5f;
            float s0 = list->uvs[2 * i0 + 1] * th - 0.5f, s1 = list->uvs[2 * i1 + 1] * th - 0.5f,
                  s2 = list->uvs[2 * i2 + 1] * th - 0.5f;
            float inv = 1.0f / area;
            float dx1 = x1 - x0, dy1 = y1 - y0, dx2 = x2 - x0, dy2 = y2 - y0;
            m->ua = ((q1 - q0) * dy2 - (q2 - q0) * dy1) * inv;
            m->ub = ((q2 - q0) * dx1 - (q1 - q0) * dx2) * inv;
            m->uc = q0 - m->ua * x0 - m->ub * y0;
            m->va = ((s1 - s0) * dy2 - (s2 - s0) * dy1) * inv;
            m->vb = ((s2 - s0) * dx1 - (s1 - s0) * dx2) * inv;
            m->vc = s0 - m->va * x0 - m->vb * y0;
            if (!isfinite(m->ua + m->ub + m->uc + m->va + m->vb + m->vc)) {
                m->ua = m->ub = m->va = m->vb = 0.0f;
                m->uc = q0;
                m->vc = s0;
            }
        } else {
            m->ua = 0.0f;
        }
    }
}

/* 2. Ownership (only textured commands need it): each pixel takes the texel mapping of the
 * triangle whose inside holds its centre, else of the first one that touches it. */
static void assign_owners(sinew_renderer *r, const uint32_t *idx, uint32_t ntri, float ox, float oy, int32_t bw,
                          int32_t bh) {
    const float *xy = r->xy;
    for (int32_t y = 0; y < bh; y++) {
        int32_t lo = r->row_lo[y], hi = r->row_hi[y] < bw - 1 ? r->row_hi[y] : bw - 1;
        uint32_t *o = r->owner + (size_t)y * (size_t)bw;
        for (int32_t x = lo; x <= hi; x++) o[x] = OWNER_NONE;
    }
    for (uint32_t t = 0; t < ntri; t++) {
        if (isnan(r->tris[t].ua)) continue;
        uint32_t i0 = idx[3 * t], i1 = idx[3 * t + 1], i2 = idx[3 * t + 2];
        float px[3] = {xy[2 * i0] - ox, xy[2 * i1] - ox, xy[2 * i2] - ox};
        float py[3] = {xy[2 * i0 + 1] - oy, xy[2 * i1 + 1] - oy, xy[2 * i2 + 1] - oy};
        float area = (px[1] - px[0]) * (py[2] - py[0]) - (py[1] - py[0]) * (px[2] - px[0]);
        if (area < 0.0f) {
            float tf = px[1]; px[1] = px[2]; px[2] = tf;
            tf = py[1]; py[1] = py[2]; py[2] = tf;
        }
        float A[3], B[3], C[3], M[3];
        for (int e = 0; e < 3; e++) {
            int n = e == 2 ? 0 : e + 1;
            A[e] = -(py[n] - py[e]);
            B[e] = px[n] - px[e];
            C[e] = -(A[e] * px[e] + B[e] * py[e]);
            M[e] = 0.5f * (fabsf(A[e]) + fabsf(B[e]));
        }
        float tminy = fminf(py[0], fminf(py[1], py[2])), tmaxy = fmaxf(py[0], fmaxf(py[1], py[2]));
        int32_t ry0 = (int32_t)floorf(tminy) - 1, ry1 = (int32_t)ceilf(tmaxy) + 1;
        if (ry0 < 0) ry0 = 0;
        if (ry1 > bh) ry1 = bh;
        for (int32_t y = ry0; y < ry1; y++) {
            if (r->row_hi[y] < r->row_lo[y]) continue;
            float yc = (float)y + 0.5f;
            float xl = -1e30f, xr = 1e30f;
            bool empty = false;
            for (int e = 0; e < 3; e++) {
                float rhs = -M[e] - B[e] * yc - C[e];  /* need A * xc >= rhs */
                if (A[e] > 0.0f) xl = fmaxf(xl, rhs / A[e]);
                else if (A[e] < 0.0f) xr = fminf(xr, rhs / A[e]);
                else if (rhs > 0.0f) empty = true;
            }
            if (empty || xl > xr) continue;
            float cl = ceilf(xl - 0.5f), cr = floorf(xr - 0.5f);
            int32_t lo = r->row_lo[y], hi = r->row_hi[y] < bw - 1 ? r->row_hi[y] : bw - 1;
            int32_t x0 = cl > (float)lo ? (cl > (float)hi ? hi + 1 : (int32_t)cl) : lo;
            int32_t x1 = cr < (float)hi ? (cr < (float)lo ? lo - 1 : (int32_t)cr) : hi;
            uint32_t *o = r->owner + (size_t)y * (size_t)bw;
            for (int32_t x = x0; x <= x1; x++) {
                float xc = (float)x + 0.5f;
                bool inside = A[0] * xc + B[0] * yc + C[0] >= 0.0f && A[1] * xc + B[1] * yc + C[1] >= 0.0f &&
                              A[2] * xc + B[2] * yc + C[2] >= 0.0f;
                if (inside || o[x] == OWNER_NONE) o[x] = t;
            }
        }
    }
}

/* 3. Shading: each row's running coverage, the owner's texel, the colour transform and the blend
 * into the framebuffer; the accumulator is left zeroed for the next command. */
/* The row of a mask's plane at framebuffer row fy, and the box's columns it spans ([*x0, *x1],
 * box-relative); NULL where the mask covers nothing. */
static const uint8_t *mask_row(const sinew_renderer *r, const mask_rec *mk, const cmd_box *box, int32_t fy, int32_t *x0,
                               int32_t *x1) {
    if (!mk->w || fy < mk->y0 || fy >= mk->y0 + mk->h) return NULL;
    *x0 = mk->x0 - box->x0;
    *x1 = *x0 + mk->w - 1;
    return r->planes + mk->off + (size_t)(fy - mk->y0) * (size_t)mk->w;
}

static void shade_rows(sinew_renderer *r, const sinew_draw_cmd *cmd, bool textured, const sampler *smp,
                       const cmd_box *box, const mask_rec *mk, sinew_framebuffer *fb) {
    int32_t bw = box->w, bh = box->h, bx0 = box->x0, by0 = box->y0;
    shade sh;
    setup_shade(r, cmd, textured, &sh);
    bool fast = sh.simple && sh.bk == BK_NORMAL && sh.mul[0] == sh.mul[3] && sh.mul[1] == sh.mul[3] &&
                sh.mul[2] == sh.mul[3];
    size_t stride = (size_t)bw + 2u;
    for (int32_t y = 0; y < bh; y++) {
        int32_t lo = r->row_lo[y], hi = r->row_hi[y];
        if (hi < lo) continue;
        float *acc = r->acc + (size_t)y * stride;
        const uint32_t *o = r->owner + (size_t)y * (size_t)bw;
        uint8_t *dst = fb->pixels + (size_t)(y + by0) * fb->stride + (size_t)bx0 * 4u;
        float yc = (float)y + 0.5f;
        float sum = 0.0f;
        int32_t end = hi < bw - 1 ? hi : bw - 1;
        int32_t mx0 = 0, mx1 = -1;
        const uint8_t *mrow = mk ? mask_row(r, mk, box, y + by0, &mx0, &mx1) : NULL;
        for (int32_t x = lo; x <= end; x++) {
            sum += acc[x];
            acc[x] = 0.0f;
            float cov = fabsf(sum);
            uint32_t icov = !(cov < 1.0f) ? 256u : (uint32_t)(cov * 256.0f + 0.5f);
            if (mk) { /* clipped: the coverage times the mask's value */
                icov = mrow && x >= mx0 && x <= mx1 ? (icov * mrow[x - mx0] + 127u) / 255u : 0u;
            }
            if (icov == 0) continue;
            uint32_t texel = 0xffffffffu;
            if (textured) {
                uint32_t t = o[x];
                if (t == OWNER_NONE) continue;
                const tri_map *m = &r->tris[t];
                float xc = (float)x + 0.5f;
                texel = sample(smp, m->ua * xc + m->ub * yc + m->uc, m->va * xc + m->vb * yc + m->vc);
            }
            if (fast) {
                if (texel == 0) continue;
                uint32_t k = (sh.mul[3] * icov + 128u) >> 8;
                uint32_t sp = k >= 256u ? texel : scale_packed(texel, k);
                uint32_t d32;
                if (alpha_of(sp) == 255u) {
                    d32 = sp;
                } else {
                    memcpy(&d32, dst + (size_t)x * 4u, 4);
                    d32 = over_packed(sp, d32);
                }
                memcpy(dst + (size_t)x * 4u, &d32, 4);
                continue;
            }
            uint32_t s[4];
            shade_px(&sh, texel, icov, s);
            blend_px(dst + (size_t)x * 4u, s, sh.bk);
        }
        for (int32_t x = end + 1; x <= hi; x++) acc[x] = 0.0f;
    }
}

/* A mask command's plane: its coverage, times its texel's alpha when textured (its colour does not
 * count), times the value of the mask clipping it; the accumulator is left zeroed. */
static void plane_rows(sinew_renderer *r, bool textured, const sampler *smp, const cmd_box *box, const mask_rec *me,
                       const mask_rec *outer) {
    int32_t bw = box->w, bh = box->h;
    size_t stride = (size_t)bw + 2u;
    uint8_t *plane = r->planes + me->off;
    memset(plane, 0, (size_t)bw * (size_t)bh);
    for (int32_t y = 0; y < bh; y++) {
        int32_t lo = r->row_lo[y], hi = r->row_hi[y];
        if (hi < lo) continue;
        float *acc = r->acc + (size_t)y * stride;
        const uint32_t *o = r->owner + (size_t)y * (size_t)bw;
        float yc = (float)y + 0.5f, sum = 0.0f;
        int32_t end = hi < bw - 1 ? hi : bw - 1, mx0 = 0, mx1 = -1;
        const uint8_t *mrow = outer ? mask_row(r, outer, box, y + box->y0, &mx0, &mx1) : NULL;
        for (int32_t x = lo; x <= end; x++) {
            sum += acc[x];
            acc[x] = 0.0f;
            float cov = fabsf(sum);
            uint32_t v = !(cov < 1.0f) ? 255u : (uint32_t)(cov * 255.0f + 0.5f);
            if (textured && v) {
                uint32_t t = o[x];
                float xc = (float)x + 0.5f;
                const tri_map *m = t == OWNER_NONE ? NULL : &r->tris[t];
                v = m ? div255(v * alpha_of(sample(smp, m->ua * xc + m->ub * yc + m->uc, m->va * xc + m->vb * yc + m->vc)))
                      : 0u;
            }
            if (outer) v = mrow && x >= mx0 && x <= mx1 ? div255(v * mrow[x - mx0]) : 0u;
            plane[(size_t)y * (size_t)bw + (size_t)x] = (uint8_t)v;
        }
        for (int32_t x = end + 1; x <= hi; x++) acc[x] = 0.0f;
    }
}

static sinew_status draw_cmd(sinew_renderer *r, const sinew_drawlist *list, uint32_t ci, const sinew_texture_set *tex,
                             sinew_framebuffer *fb, sinew_error *err) {
    const sinew_draw_cmd *cmd = &list->cmds[ci];
    const uint32_t *idx = list->indices + cmd->first_index;
    uint32_t ntri = cmd->index_count / 3u;
    bool is_mask = (cmd->flags & SINEW_DRAW_MASK) != 0;
    const mask_rec *outer = cmd->mask ? &r->masks[cmd->mask - 1u] : NULL;
    if (ntri == 0 || (outer && !outer->w)) return SINEW_OK;
    cmd_box box = {0};
    if (is_mask) {
        box = (cmd_box){r->masks[ci].x0, r->masks[ci].y0, r->masks[ci].w, r->masks[ci].h};
        if (!box.w) return SINEW_OK;
    } else if (!command_box(r->xy, idx, cmd->index_count, fb, &box)) {
        return SINEW_OK;
    }
    if (!command_scratch(r, box.w, box.h, ntri))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (rasterizer scratch)");
    bool textured = cmd->page != SINEW_INVALID_INDEX;
    sampler smp = {0};
    float tw = 0.0f, th = 0.0f;
    if (textured) {
        setup_sampler(tex, cmd, &smp);
        tw = (float)tex->pages[cmd->page].width;
        th = (float)tex->pages[cmd->page].height;
    }
    float ox = (float)box.x0, oy = (float)box.y0;
    cover_triangles(r, list, idx, ntri, textured, tw, th, ox, oy, box.w, box.h);
    if (textured) assign_owners(r, idx, ntri, ox, oy, box.w, box.h);
    if (is_mask)
        plane_rows(r, textured, &smp, &box, &r->masks[ci], outer);
    else
        shade_rows(r, cmd, textured, &smp, &box, outer, fb);
    return SINEW_OK;
}

/* Each mask command's box and the room for its plane, before anything is drawn. */
static sinew_status plan_masks(sinew_renderer *r, const sinew_drawlist *list, const sinew_framebuffer *fb,
                               sinew_error *err) {
    size_t total = 0;
    bool any = false;
    for (uint32_t i = 0; i < list->cmd_count && !any; i++) any = (list->cmds[i].flags & SINEW_DRAW_MASK) != 0;
    if (!any) return SINEW_OK;
    if (!grow(r->allocator, (void **)&r->masks, &r->masks_cap, list->cmd_count, sizeof(mask_rec), false))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (rasterizer masks)");
    for (uint32_t i = 0; i < list->cmd_count; i++) {
        const sinew_draw_cmd *c = &list->cmds[i];
        mask_rec *m = &r->masks[i];
        memset(m, 0, sizeof *m);
        cmd_box box;
        if (!(c->flags & SINEW_DRAW_MASK) || c->index_count < 3 ||
            !command_box(r->xy, list->indices + c->first_index, c->index_count, fb, &box))
            continue;
        *m = (mask_rec){box.x0, box.y0, box.w, box.h, total};
        total += (size_t)box.w * (size_t)box.h;
    }
    if (total && !grow(r->allocator, (void **)&r->planes, &r->planes_cap, total, 1, false))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (rasterizer masks)");
    return SINEW_OK;
}

sinew_status sinew_renderer_draw(sinew_renderer *r, const sinew_drawlist *list,
                                 const sinew_texture_set *textures, const sinew_affine *view,
                                 sinew_framebuffer *fb, sinew_error *err) {
    if (!r || !list || !fb || !fb->pixels) return sinew__fail(err, SINEW_E_ARG, NULL, "render: NULL argument");
    sinew_status st = validate(list, textures, err);
    if (st) return st;
    sinew_affine v = view ? *view : (sinew_affine){1, 0, 0, 1, 0, 0};
    size_t nf;
    if (!sinew__mul_size(list->vertex_count, 2u, &nf) ||
        !grow(r->allocator, (void **)&r->xy, &r->xy_cap, nf ? nf : 1u, sizeof(float), false))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (rasterizer vertices)");
    /* A vertex that is not finite, or lies further than VERTEX_LIMIT pixels from the origin,
       becomes NaN: the triangles that use it are not drawn (sinew/render.h). Everything the
       coverage code computes from the others stays finite. */
    for (uint32_t i = 0; i < list->vertex_count; i++) {
        float x = list->positions[2 * i], y = list->positions[2 * i + 1];
        float px = v.a * x + v.c * y + v.tx, py = v.b * x + v.d * y + v.ty;
        if (!(fabsf(px) <= VERTEX_LIMIT && fabsf(py) <= VERTEX_LIMIT))
            px = py = NAN;
        r->xy[2 * i] = px;
        r->xy[2 * i + 1] = py;
    }
    if ((st = plan_masks(r, list, fb, err)) != SINEW_OK) return st;
    for (uint32_t i = 0; i < list->cmd_count; i++) {
        st = draw_cmd(r, list, i, textures, fb, err);
        if (st) return st;
    }
    return SINEW_OK;
}
