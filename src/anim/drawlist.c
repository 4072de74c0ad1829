/*
 * The draw list: one command per visible display in draw order, child armatures flattened in
 * place (their colour multiplied by the parent slot's).
 *
 * Images (dragonbones-semantics §1/§9): pivot in pixels = pivot * W + frameX (W/H the untrimmed
 * frame size when the region is trimmed, else the display size, i.e. the stored size swapped when
 * rotated); the region's pixels are drawn with their top-left corner at (-pivotX, -pivotY) in slot
 * space, at the display size. A rotated region is stored turned by 90 degrees: display (u, v)
 * maps to page pixel (x + (1 - v) * w, y + u * h) with w/h the stored size (the same rule as mesh
 * UVs, §5). Meshes use their world vertices and region-relative UVs.
 */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "anim/shape_tess.h"
#include "base/alloc.h"
#include "base/error.h"

typedef struct dl_build {
    sinew_instance *inst;
    uint32_t nv, ni, nc;
} dl_build;

static sinew_color_transform color_concat(sinew_color_transform c, const sinew_color_transform *parent) {
    if (!parent)
        return c;
    sinew_color_transform r;
    r.a_mul = c.a_mul * parent->a_mul;
    r.r_mul = c.r_mul * parent->r_mul;
    r.g_mul = c.g_mul * parent->g_mul;
    r.b_mul = c.b_mul * parent->b_mul;
    r.a_add = c.a_add * parent->a_mul + parent->a_add;
    r.r_add = c.r_add * parent->r_mul + parent->r_add;
    r.g_add = c.g_add * parent->g_mul + parent->g_add;
    r.b_add = c.b_add * parent->b_mul + parent->b_add;
    return r;
}

void sinew__region_page_size(const struct sinew_atlas *atlas, const sinew_model_region *r, float *pw, float *ph) {
    *pw = 0.0f;
    *ph = 0.0f;
    if (r->page < atlas->page_count) {
        *pw = (float)atlas->pages[r->page].width;
        *ph = (float)atlas->pages[r->page].height;
    }
    if (*pw <= 0.0f || *ph <= 0.0f) {
        /* the atlas did not say: the extent of its regions on that page */
        for (uint32_t i = 0; i < atlas->region_count; ++i) {
            const sinew_model_region *q = &atlas->regions[i];
            if (q->page != r->page)
                continue;
            if (q->x + q->width > *pw)
                *pw = q->x + q->width;
            if (q->y + q->height > *ph)
                *ph = q->y + q->height;
        }
    }
    if (*pw <= 0.0f)
        *pw = 1.0f;
    if (*ph <= 0.0f)
        *ph = 1.0f;
}

float sinew__page_texture_scale(const struct sinew_atlas *atlas, const sinew_model_region *r) {
    float k = atlas && r->page < atlas->page_count ? atlas->pages[r->page].scale : 1.0f;
    return k > 0.0f ? 1.0f / k : 1.0f;
}

const sinew_model_region *sinew__slot_region(const sinew_instance *inst, const arm_inst *a, uint32_t s, float *pw,
                                             float *ph, float *tscale) {
    uint32_t disp = a->cur_display[s];
    if (disp == SINEW_INVALID_INDEX)
        return NULL;
    if (disp >= a->data->display_count) { /* a replacement brings its own region */
        const slot_rep *r = &a->rep[s];
        if (r->textured == REP_NONE)
            return NULL;
        *pw = r->page_w;
        *ph = r->page_h;
        *tscale = r->tscale;
        return &r->region;
    }
    uint32_t ri = inst->atlas ? a->display_region[disp] : SINEW_INVALID_INDEX;
    if (ri == SINEW_INVALID_INDEX)
        return NULL;
    const sinew_model_region *r = &inst->atlas->regions[ri];
    sinew__region_page_size(inst->atlas, r, pw, ph);
    *tscale = sinew__page_texture_scale(inst->atlas, r);
    return r;
}

void sinew__image_pivot(const arm_inst *a, uint32_t s, const sinew_model_display *dd, const sinew_model_region *r,
                        float tscale, float *px, float *py) {
    float dw = r->rotated ? r->height : r->width, dh = r->rotated ? r->width : r->height;
    float fw = r->has_frame ? r->frame_width : dw;
    float fh = r->has_frame ? r->frame_height : dh;
    float sx = a->rep ? a->rep[s].pivot_shift[0] : 0.0f, sy = a->rep ? a->rep[s].pivot_shift[1] : 0.0f;
    /* a trimmed region's frameX/Y move the pivot in 5.x; the 6.0.2 runtime leaves them out (and its
       adapters draw the trimmed region from the frame's corner) */
    bool trim = r->has_frame && !a->data->v6;
    *px = (dd->pivot_x * fw + (trim ? r->frame_x : 0.0f)) * tscale + sx;
    *py = (dd->pivot_y * fh + (trim ? r->frame_y : 0.0f)) * tscale + sy;
}

/* Region-relative (u, v) -> page UV. */
static void region_uv(const sinew_model_region *r, float pw, float ph, float u, float v, float *out) {
    if (r->rotated) {
        out[0] = (r->x + (1.0f - v) * r->width) / pw;
        out[1] = (r->y + u * r->height) / ph;
    } else {
        out[0] = (r->x + u * r->width) / pw;
        out[1] = (r->y + v * r->height) / ph;
    }
}

void sinew__affine_concat(const float *p, const float *c, float *out) {
    if (!p) {
        memcpy(out, c, 6 * sizeof(float));
        return;
    }
    out[0] = p[0] * c[0] + p[2] * c[1];
    out[1] = p[1] * c[0] + p[3] * c[1];
    out[2] = p[0] * c[2] + p[2] * c[3];
    out[3] = p[1] * c[2] + p[3] * c[3];
    out[4] = p[0] * c[4] + p[2] * c[5] + p[4];
    out[5] = p[1] * c[4] + p[3] * c[5] + p[5];
}

/* ---- storage ----------------------------------------------------------------------------------- */

/* The draw list's arrays, made by the first draw list (an instance never drawn carries none): one
 * allocation holding the positions, UVs, indices, commands and the record of what each command
 * wrote (dl_entry); for 6.0 data also the shapes' tessellation scratch and the mask commands of
 * the slots (empty otherwise, so a 5.x instance's block is what it was). */
enum { WRITTEN = 0, NOT_DRAWN, FULL };
enum { DL_POS, DL_UV, DL_IDX, DL_CMD, DL_ENTRY, DL_TESS, DL_MASK, DL_MASK_FIRST, DL_PARTS };
static size_t dl_layout(const sinew_instance *inst, size_t off[DL_PARTS]) {
    bool v6 = inst->dl_mask_slots > 0;
    size_t sizes[DL_PARTS] = {(size_t)inst->dl_vertex_cap * 2 * sizeof(float),
                              (size_t)inst->dl_vertex_cap * 2 * sizeof(float),
                              (size_t)inst->dl_index_cap * sizeof(uint32_t),
                              (size_t)inst->dl_cmd_cap * sizeof(sinew_draw_cmd),
                              (size_t)inst->dl_cmd_cap * sizeof(dl_entry),
                              sinew__tess_scratch_bytes(inst->dl_shape_points, inst->dl_shape_contours, inst->dl_shape_ctrl),
                              (size_t)inst->dl_mask_slots * sizeof(uint32_t),
                              v6 ? (size_t)inst->arm_count * sizeof(uint32_t) : 0};
    size_t at = 0;
    for (int i = 0; i < DL_PARTS; ++i) {
        off[i] = at;
        at += (sizes[i] + 15u) & ~(size_t)15u;
    }
    return at;
}

size_t sinew__drawlist_bytes(const sinew_instance *inst) {
    size_t off[DL_PARTS];
    return inst->dl_block ? dl_layout(inst, off) : 0;
}

sinew_status sinew_instance_reserve_drawlist(sinew_instance *inst, sinew_error *err) {
    if (!inst)
        return sinew__fail(err, SINEW_E_ARG, NULL, "instance is NULL");
    if (inst->dl_block)
        return SINEW_OK;
    size_t off[DL_PARTS];
    size_t bytes = dl_layout(inst, off);
    char *block = sinew__alloc(inst->allocator, bytes ? bytes : 16);
    if (!block)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for the draw list (%zu bytes)", bytes);
    memset(block, 0, bytes);
    inst->dl_block = block;
    inst->dl_positions = (float *)(void *)(block + off[0]);
    inst->dl_uvs = (float *)(void *)(block + off[1]);
    inst->dl_indices = (uint32_t *)(void *)(block + off[2]);
    inst->dl_cmds = (sinew_draw_cmd *)(void *)(block + off[3]);
    inst->dl_entries = (dl_entry *)(void *)(block + off[4]);
    inst->dl_tess = inst->dl_shape_points ? block + off[DL_TESS] : NULL;
    inst->dl_mask_cmd = inst->dl_mask_slots ? (uint32_t *)(void *)(block + off[DL_MASK]) : NULL;
    inst->dl_mask_first = inst->dl_mask_slots ? (uint32_t *)(void *)(block + off[DL_MASK_FIRST]) : NULL;
    for (uint32_t ai = 0, at = 0; inst->dl_mask_first && ai < inst->arm_count; ++ai) {
        inst->dl_mask_first[ai] = at;
        if (inst->arms[ai].masked_by)
            at += inst->arms[ai].slot_count;
    }
    inst->dl_valid = 0;
    return SINEW_OK;
}

void sinew__drawlist_free(sinew_instance *inst) {
    size_t off[DL_PARTS];
    if (inst->dl_block)
        sinew__free(inst->allocator, inst->dl_block, dl_layout(inst, off));
    inst->dl_block = NULL;
}

/* ---- building ----------------------------------------------------------------------------------- */

/* A command's texture, region, counts, UVs and indices, written when the command at this place of
 * the list is not the one the last draw list wrote here (e): the same slot of the same armature
 * showing the same display from the same first vertex and index. Returns WRITTEN, NOT_DRAWN (a
 * missing texture is not drawn) or FULL. */
static int write_command(dl_build *b, uint32_t ai, uint32_t s, uint32_t disp, uint32_t depth, dl_entry *e) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    const sinew_model_display *dd = sinew__arm_display(a, disp);
    float pw = 1.0f, ph = 1.0f, tscale = 1.0f;
    const sinew_model_region *r = sinew__slot_region(inst, a, s, &pw, &ph, &tscale);
    if (!r && inst->atlas)
        return NOT_DRAWN;
    const uint32_t v0 = b->nv, i0 = b->ni;
    uint32_t vc, ni;
    const sinew_model_mesh *mesh = NULL;
    if (dd->type == SINEW_DISPLAY_IMAGE) {
        vc = 4;
        ni = 6;
    } else {
        mesh = &a->data->meshes[a->cur_mesh[s]];
        vc = mesh->vertex_count;
        ni = 3 * mesh->triangle_count;
    }
    if (v0 + vc > inst->dl_vertex_cap || i0 + ni > inst->dl_index_cap)
        return FULL;
    sinew_draw_cmd *cmd = &inst->dl_cmds[b->nc];
    memset(cmd, 0, sizeof *cmd);
    cmd->page = r ? r->page : SINEW_INVALID_INDEX;
    cmd->blend = a->data->slots[s].blend;
    cmd->slot = s;
    cmd->depth = depth;
    cmd->armature = ai;
    cmd->first_vertex = v0;
    cmd->vertex_count = vc;
    cmd->first_index = i0;
    cmd->index_count = ni;
    if (r) {
        cmd->region[0] = r->x / pw;
        cmd->region[1] = r->y / ph;
        cmd->region[2] = (r->x + r->width) / pw;
        cmd->region[3] = (r->y + r->height) / ph;
    }
    float *uv = inst->dl_uvs + 2 * (size_t)v0;
    uint32_t *ix = inst->dl_indices + i0;
    if (!mesh) {
        float dw = 0.0f, dh = 0.0f, pivx = 0.0f, pivy = 0.0f;
        if (r) { /* the image's size in armature units: its pixels over the atlas's scale */
            dw = (r->rotated ? r->height : r->width) * tscale;
            dh = (r->rotated ? r->width : r->height) * tscale;
            sinew__image_pivot(a, s, dd, r, tscale, &pivx, &pivy);
        }
        /* the corners (0,0) (1,0) (1,1) (0,1) of the image, u along its width, v its height */
        e->corner[0] = -pivx + 0.0f * dw;
        e->corner[1] = -pivx + 1.0f * dw;
        e->corner[2] = -pivy + 0.0f * dh;
        e->corner[3] = -pivy + 1.0f * dh;
        if (r) {
            static const float cu[4] = {0, 1, 1, 0}, cvv[4] = {0, 0, 1, 1};
            for (int i = 0; i < 4; ++i)
                region_uv(r, pw, ph, cu[i], cvv[i], uv + 2 * i);
        } else {
            memset(uv, 0, 8 * sizeof(float));
        }
        ix[0] = v0;
        ix[1] = v0 + 1;
        ix[2] = v0 + 2;
        ix[3] = v0;
        ix[4] = v0 + 2;
        ix[5] = v0 + 3;
    } else {
        const float *mu = mesh->uvs;
        if (!r) {
            memset(uv, 0, (size_t)vc * 2 * sizeof(float));
        } else if (r->rotated) { /* region_uv's two cases, the branch taken out of the loop */
            for (uint32_t i = 0; i < vc; ++i) {
                uv[2 * i] = (r->x + (1.0f - mu[2 * i + 1]) * r->width) / pw;
                uv[2 * i + 1] = (r->y + mu[2 * i] * r->height) / ph;
            }
        } else {
            for (uint32_t i = 0; i < vc; ++i) {
                uv[2 * i] = (r->x + mu[2 * i] * r->width) / pw;
                uv[2 * i + 1] = (r->y + mu[2 * i + 1] * r->height) / ph;
            }
        }
        const uint32_t *tri = mesh->triangles;
        for (uint32_t i = 0; i < ni; ++i) /* each < vc (the loader checks); kept in range regardless */
            ix[i] = v0 + (tri[i] < vc ? tri[i] : 0);
    }
    e->arm = ai;
    e->slot = s;
    e->disp = disp;
    e->first_vertex = v0;
    e->first_index = i0;
    return WRITTEN;
}

/* The positions of an image's or mesh's command: the image's corners through its slot's matrix,
 * or the mesh's world vertices (through xf in a child armature). */
static void write_positions(dl_build *b, const arm_inst *a, uint32_t s, const sinew_model_display *dd,
                            const dl_entry *e, const sinew_draw_cmd *cmd, const float *xf) {
    float *pos = b->inst->dl_positions + 2 * (size_t)b->nv;
    if (dd->type == SINEW_DISPLAY_IMAGE) {
        /* corners (x0 y0) (x1 y0) (x1 y1) (x0 y1), each m0 x + m2 y + m4, m1 x + m3 y + m5 in that
         * order: the 8 products are shared between corners, the sums are the same sums */
        float cm[6];
        const float *m = a->slot_world + (size_t)s * 6;
        if (xf) {
            sinew__affine_concat(xf, m, cm);
            m = cm;
        }
        const float m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5];
        const float x0 = e->corner[0], x1 = e->corner[1], y0 = e->corner[2], y1 = e->corner[3];
        const float ax0 = m0 * x0, ax1 = m0 * x1, cy0 = m2 * y0, cy1 = m2 * y1;
        const float bx0 = m1 * x0, bx1 = m1 * x1, dy0 = m3 * y0, dy1 = m3 * y1;
        pos[0] = ax0 + cy0 + m4;
        pos[1] = bx0 + dy0 + m5;
        pos[2] = ax1 + cy0 + m4;
        pos[3] = bx1 + dy0 + m5;
        pos[4] = ax1 + cy1 + m4;
        pos[5] = bx1 + dy1 + m5;
        pos[6] = ax0 + cy1 + m4;
        pos[7] = bx0 + dy1 + m5;
        return;
    }
    uint32_t vc = cmd->vertex_count;
    const float *wv = a->mesh_out + sinew__deform_first(a, s);
    if (xf) {
        for (uint32_t i = 0; i < vc; ++i) {
            float x = wv[2 * i], y = wv[2 * i + 1];
            pos[2 * i] = xf[0] * x + xf[2] * y + xf[4];
            pos[2 * i + 1] = xf[1] * x + xf[3] * y + xf[5];
        }
    } else {
        memcpy(pos, wv, (size_t)vc * 2 * sizeof(float));
    }
}

/* ---- 6.0 vector shapes ------------------------------------------------------------------------- */

/* A shape display the slot shows, with its control points: `base` (6 floats per point) plus `def`
 * (NULL, or the slot's deform of the same layout), in the space `m` maps to the top armature's
 * (slot space for a shape on a plain bone, placed by the slot's matrix; the armature's space for
 * a weighted one, or one on a surface, whose points the pose placed already). NULL when the slot
 * shows no drawable shape. */
typedef struct shape_src {
    const sinew_model_shape *shape;
    const float *base, *def;
    float m[6];
} shape_src;

static bool shape_source(const arm_inst *a, uint32_t s, const float *xf, shape_src *src) {
    uint32_t disp = a->cur_display[s];
    if (disp == SINEW_INVALID_INDEX || a->cur_mesh[s] == SINEW_INVALID_INDEX)
        return false;
    const sinew_model_display *dd = sinew__arm_display(a, disp);
    if (dd->type != SINEW_DISPLAY_SHAPE || dd->shape >= a->data->shape_count)
        return false;
    const sinew_model_mesh *mesh = &a->data->meshes[a->cur_mesh[s]];
    src->shape = &a->data->shapes[dd->shape];
    if (mesh->vertex_count < 3 * src->shape->point_count || 2 * mesh->vertex_count > sinew__deform_cap(a, s))
        return false;
    uint32_t bone = a->data->slots[s].parent;
    bool placed = mesh->weighted || (bone < a->bone_count && a->data->bones[bone].is_surface);
    static const float identity[6] = {1, 0, 0, 1, 0, 0};
    if (placed) {
        src->base = a->mesh_out + sinew__deform_first(a, s);
        src->def = NULL;
        memcpy(src->m, xf ? xf : identity, sizeof src->m);
    } else {
        src->base = mesh->vertices;
        src->def = a->deform + sinew__deform_first(a, s);
        sinew__affine_concat(xf, a->slot_world + (size_t)s * 6, src->m);
    }
    return true;
}

/* The control points of src in one array (the flattening reads 6 floats per point): the deform
 * added into `out` when there is one, else `base` itself. */
static const float *shape_points(const shape_src *src, float *out) {
    if (!src->def)
        return src->base;
    for (uint32_t i = 0; i < 6 * src->shape->point_count; ++i)
        out[i] = src->base[i] + src->def[i];
    return out;
}

/* One command of a shape at the end of the list (its fields but the counts; WRITTEN or FULL). */
static sinew_draw_cmd *shape_command(dl_build *b, uint32_t ai, uint32_t s, uint32_t depth, uint32_t mask) {
    sinew_instance *inst = b->inst;
    if (b->nc >= inst->dl_cmd_cap)
        return NULL;
    sinew_draw_cmd *cmd = &inst->dl_cmds[b->nc];
    memset(cmd, 0, sizeof *cmd);
    cmd->page = SINEW_INVALID_INDEX;
    cmd->blend = inst->arms[ai].data->slots[s].blend;
    cmd->slot = s;
    cmd->depth = depth;
    cmd->armature = ai;
    cmd->mask = mask;
    cmd->first_vertex = b->nv;
    cmd->first_index = b->ni;
    inst->dl_entries[b->nc].arm = SINEW_INVALID_INDEX; /* nothing the next list can keep */
    return cmd;
}

/* Closes a shape command that the sink filled: kept when it has triangles. */
static void shape_close(dl_build *b, sinew_draw_cmd *cmd, const tess_sink *sk) {
    cmd->vertex_count = sk->nv - cmd->first_vertex;
    cmd->index_count = sk->ni - cmd->first_index;
    if (!cmd->index_count)
        return;
    memset(b->inst->dl_uvs + 2 * (size_t)cmd->first_vertex, 0, (size_t)cmd->vertex_count * 2 * sizeof(float));
    b->nv = sk->nv;
    b->ni = sk->ni;
    b->nc++;
}

/* The colour of a fill or stroke: the style's colour and opacity through the slot's transform (a
 * white texel through the command's transform gives exactly that). */
static sinew_color_transform style_color(sinew_color_transform c, uint32_t rgb, float opacity) {
    c.r_mul *= (float)((rgb >> 16) & 255u) / 255.0f;
    c.g_mul *= (float)((rgb >> 8) & 255u) / 255.0f;
    c.b_mul *= (float)(rgb & 255u) / 255.0f;
    c.a_mul *= opacity;
    return c;
}

/* A shape: per styled path, its stroke then its fill as commands of their own (a path without a
 * style lends its outline to the next styled one, as the official adapter's Graphics path goes on
 * until a stroke or fill takes it); or, as a mask, all of them as one command. Returns 1 + the mask
 * command's index (0 when none was made). */
static uint32_t emit_shape(dl_build *b, uint32_t ai, uint32_t s, uint32_t depth, uint32_t mask, bool is_mask,
                           const sinew_color_transform *col, const float *xf) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    shape_src src;
    if (!inst->dl_tess || !shape_source(a, s, xf, &src))
        return 0;
    tess_scratch t;
    sinew__tess_scratch_bind(&t, inst->dl_tess, inst->dl_shape_points, inst->dl_shape_contours, inst->dl_shape_ctrl);
    if (src.def && src.shape->point_count > t.ctrl_cap)
        return 0;
    const float *pts = shape_points(&src, t.ctrl);
    const sinew_model_shape *sh = src.shape;
    tess_sink sk = {inst->dl_positions, inst->dl_indices, b->nv, b->ni, inst->dl_vertex_cap, inst->dl_index_cap};
    sinew_draw_cmd *mc = is_mask ? shape_command(b, ai, s, depth, mask) : NULL;
    if (is_mask && !mc)
        return 0;
    uint32_t first = 0;
    for (uint32_t p = 0; p < sh->path_count; ++p) {
        const sinew_model_shape_path *path = &sh->paths[p];
        if (!path->index_count || (!path->has_fill && !path->has_stroke))
            continue;
        uint32_t from = first;
        first = p + 1;
        if (!sinew__tess_flatten(&t, pts, sh, from, p, src.m))
            continue;
        for (int pass = 0; pass < 2; ++pass) { /* the stroke, then the fill over it */
            bool fill = pass == 1;
            if (!(fill ? path->has_fill : path->has_stroke))
                continue;
            sinew_color_transform c = fill ? style_color(*col, path->fill_color, path->fill_opacity)
                                           : style_color(*col, path->stroke_color, path->stroke_opacity);
            if (!mc && !(c.a_mul + c.a_add / 255.0f > 0.0f))
                continue; /* nothing to see (a stroke's opacity defaults to 0) */
            sinew_draw_cmd *cmd = mc ? mc : shape_command(b, ai, s, depth, mask);
            if (!cmd)
                return 0;
            if (fill)
                sinew__tess_fill(&t, &sk);
            else
                sinew__tess_stroke(&t, path->stroke_width, src.m, &sk);
            if (mc)
                continue;
            cmd->color = c;
            cmd->flags = fill ? SINEW_DRAW_FILL : SINEW_DRAW_STROKE;
            cmd->part = p;
            shape_close(b, cmd, &sk);
        }
    }
    if (!mc)
        return 0;
    mc->color = *col;
    mc->flags = SINEW_DRAW_MASK | SINEW_DRAW_FILL | SINEW_DRAW_STROKE;
    uint32_t at = b->nc;
    shape_close(b, mc, &sk);
    return b->nc > at ? at + 1 : 0;
}

/* ---- the list ---------------------------------------------------------------------------------- */

/* Whether a display masks the display objects after its slot's (6.0 armatures: `mask` and a
 * positive `maskRange` on an image or shape). */
static bool is_mask_display(const arm_inst *a, const sinew_model_display *dd) {
    return a->masked_by && (dd->type == SINEW_DISPLAY_IMAGE || dd->type == SINEW_DISPLAY_SHAPE) && dd->mask &&
           dd->mask_range > 0;
}

/* The mask clipping slot s's commands (as sinew_draw_cmd.mask: 1 + the command's index, 0 none):
 * the command of the slot masking it (arm_inst.masked_by, when that slot made a mask command
 * earlier in this list), else the one clipping its armature. */
static uint32_t slot_mask(const sinew_instance *inst, const arm_inst *a, uint32_t ai, uint32_t s, uint32_t outer) {
    if (!a->masked_by || !inst->dl_mask_cmd || a->masked_by[s] >= a->slot_count)
        return outer;
    uint32_t m = inst->dl_mask_cmd[inst->dl_mask_first[ai] + a->masked_by[s]];
    return m ? m : outer;
}

/* An image's or mesh's command: what changes from frame to frame (the colour, the mask and the
 * positions) is written every time, the rest only when the command differs from the one the last
 * list had at its place. Returns WRITTEN, NOT_DRAWN or FULL. */
static int emit_display(dl_build *b, uint32_t ai, uint32_t s, uint32_t disp, uint32_t depth, uint32_t mask,
                        bool is_mask, const sinew_color_transform *col, const float *xf) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    if (b->nc >= inst->dl_cmd_cap)
        return FULL;
    dl_entry *e = &inst->dl_entries[b->nc];
    bool same = b->nc < inst->dl_valid && e->arm == ai && e->slot == s && e->disp == disp &&
                e->first_vertex == b->nv && e->first_index == b->ni;
    if (!same) {
        int w = write_command(b, ai, s, disp, depth, e);
        if (w != WRITTEN)
            return w;
    }
    sinew_draw_cmd *cmd = &inst->dl_cmds[b->nc];
    cmd->color = *col;
    cmd->mask = mask;
    cmd->flags = is_mask ? SINEW_DRAW_MASK : 0u;
    write_positions(b, a, s, sinew__arm_display(a, disp), e, cmd, xf);
    b->nv += cmd->vertex_count;
    b->ni += cmd->index_count;
    b->nc++;
    return WRITTEN;
}

/* `xf`: the matrix from this armature's space to the top armature's (NULL for the top one): a
 * child armature's pose is in its own space, placed by its parent slot's world matrix. `outer`:
 * the mask clipping the parent slot (as sinew_draw_cmd.mask). */
static void emit_arm(dl_build *b, uint32_t ai, const sinew_color_transform *parent_color, const float *xf,
                     uint32_t depth, uint32_t outer) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    uint32_t *mask_cmd = a->masked_by && inst->dl_mask_cmd ? inst->dl_mask_cmd + inst->dl_mask_first[ai] : NULL;
    for (uint32_t s = 0; mask_cmd && s < a->slot_count; ++s)
        mask_cmd[s] = 0;
    for (uint32_t k = 0; k < a->slot_count; ++k) {
        uint32_t s = a->draw_order[k];
        uint32_t disp = a->cur_display[s];
        if (disp == SINEW_INVALID_INDEX || a->display_index[s] < 0)
            continue;
        const sinew_model_display *dd = sinew__arm_display(a, disp);
        uint32_t mask = slot_mask(inst, a, ai, s, outer);
        sinew_color_transform col = color_concat(a->color[s], parent_color);
        if (dd->type == SINEW_DISPLAY_ARMATURE) {
            if (a->cur_child[s] != SINEW_INVALID_INDEX) {
                float cm[6];
                sinew__affine_concat(xf, a->slot_world + (size_t)s * 6, cm);
                emit_arm(b, a->cur_child[s], &col, cm, depth + 1, mask);
            }
            continue;
        }
        bool is_mask = is_mask_display(a, dd);
        if (dd->type == SINEW_DISPLAY_SHAPE) {
            uint32_t m = emit_shape(b, ai, s, depth, mask, is_mask, &col, xf);
            if (is_mask && mask_cmd)
                mask_cmd[s] = m;
            continue;
        }
        if (dd->type != SINEW_DISPLAY_IMAGE && (dd->type != SINEW_DISPLAY_MESH || a->cur_mesh[s] == SINEW_INVALID_INDEX))
            continue;
        int w = emit_display(b, ai, s, disp, depth, mask, is_mask, &col, xf);
        if (w == FULL)
            return;
        if (w == WRITTEN && is_mask && mask_cmd)
            mask_cmd[s] = b->nc; /* 1 + its index */
    }
}

void sinew_instance_drawlist(sinew_instance *inst, sinew_drawlist *out) {
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!inst || (!inst->dl_block && sinew_instance_reserve_drawlist(inst, NULL) != SINEW_OK))
        return;
    dl_build b = {inst, 0, 0, 0};
    emit_arm(&b, 0, NULL, NULL, 0, 0);
    inst->dl_valid = b.nc; /* the entries past the list may no longer hold what they say */
    out->positions = inst->dl_positions;
    out->uvs = inst->dl_uvs;
    out->indices = inst->dl_indices;
    out->cmds = inst->dl_cmds;
    out->vertex_count = b.nv;
    out->index_count = b.ni;
    out->cmd_count = b.nc;
}

/* ---- a shape's outline, for renderers with a vector API ----------------------------------------- */

bool sinew_instance_shape(const sinew_instance *inst, uint32_t ai, uint32_t slot, sinew_shape_info *info, float *points,
                          uint32_t capacity) {
    if (!inst || ai >= inst->arm_count || slot >= inst->arms[ai].slot_count || inst->arms[ai].display_index[slot] < 0)
        return false;
    const arm_inst *a = &inst->arms[ai];
    sinew_affine top;
    if (!sinew_instance_armature_placement(inst, ai, &top))
        return false;
    const float xf[6] = {top.a, top.b, top.c, top.d, top.tx, top.ty};
    shape_src src;
    if (!shape_source(a, slot, ai ? xf : NULL, &src))
        return false;
    const sinew_model_display *dd = sinew__arm_display(a, a->cur_display[slot]);
    if (info) {
        info->point_count = src.shape->point_count;
        info->path_count = src.shape->path_count;
        info->matrix = (sinew_affine){src.m[0], src.m[1], src.m[2], src.m[3], src.m[4], src.m[5]};
        info->mask = is_mask_display(a, dd);
        info->mask_range = dd->mask_range;
    }
    if (points && capacity >= 6 * src.shape->point_count) {
        const float *p = shape_points(&src, points);
        if (p != points)
            memcpy(points, p, 6 * (size_t)src.shape->point_count * sizeof(float));
    }
    return true;
}

bool sinew_instance_shape_path(const sinew_instance *inst, uint32_t ai, uint32_t slot, uint32_t path,
                               sinew_shape_path *out) {
    if (!inst || ai >= inst->arm_count || slot >= inst->arms[ai].slot_count || !out ||
        inst->arms[ai].display_index[slot] < 0)
        return false;
    shape_src src;
    if (!shape_source(&inst->arms[ai], slot, NULL, &src) || path >= src.shape->path_count)
        return false;
    const sinew_model_shape_path *p = &src.shape->paths[path];
    out->indexes = src.shape->indexes + p->first_index;
    out->index_count = p->index_count;
    out->fill = p->has_fill;
    out->stroke = p->has_stroke;
    out->fill_color = p->fill_color;
    out->fill_opacity = p->fill_opacity;
    out->stroke_color = p->stroke_color;
    out->stroke_opacity = p->stroke_opacity;
    out->stroke_width = p->stroke_width;
    return true;
}
