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
#include <string.h>

#include "anim/runtime_internal.h"
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
    *px = (dd->pivot_x * fw + (r->has_frame ? r->frame_x : 0.0f)) * tscale + sx;
    *py = (dd->pivot_y * fh + (r->has_frame ? r->frame_y : 0.0f)) * tscale + sy;
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
 * wrote (dl_entry). */
enum { WRITTEN = 0, NOT_DRAWN, FULL };
static size_t dl_layout(const sinew_instance *inst, size_t off[5]) {
    size_t sizes[5] = {(size_t)inst->dl_vertex_cap * 2 * sizeof(float), (size_t)inst->dl_vertex_cap * 2 * sizeof(float),
                       (size_t)inst->dl_index_cap * sizeof(uint32_t), (size_t)inst->dl_cmd_cap * sizeof(sinew_draw_cmd),
                       (size_t)inst->dl_cmd_cap * sizeof(dl_entry)};
    size_t at = 0;
    for (int i = 0; i < 5; ++i) {
        off[i] = at;
        at += (sizes[i] + 15u) & ~(size_t)15u;
    }
    return at;
}

size_t sinew__drawlist_bytes(const sinew_instance *inst) {
    size_t off[5];
    return inst->dl_block ? dl_layout(inst, off) : 0;
}

sinew_status sinew_instance_reserve_drawlist(sinew_instance *inst, sinew_error *err) {
    if (!inst)
        return sinew__fail(err, SINEW_E_ARG, NULL, "instance is NULL");
    if (inst->dl_block)
        return SINEW_OK;
    size_t off[5];
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
    inst->dl_valid = 0;
    return SINEW_OK;
}

void sinew__drawlist_free(sinew_instance *inst) {
    size_t off[5];
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

/* `xf`: the matrix from this armature's space to the top armature's (NULL for the top one): a
 * child armature's pose is in its own space, placed by its parent slot's world matrix. Per
 * command, what changes from frame to frame (the colour and the positions) is written every time;
 * the rest only when the command differs from the one the last list had at its place. */
static void emit_arm(dl_build *b, uint32_t ai, const sinew_color_transform *parent_color, const float *xf,
                     uint32_t depth) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    for (uint32_t k = 0; k < a->slot_count; ++k) {
        uint32_t s = a->draw_order[k];
        uint32_t disp = a->cur_display[s];
        if (disp == SINEW_INVALID_INDEX || a->display_index[s] < 0)
            continue;
        const sinew_model_display *dd = sinew__arm_display(a, disp);
        if (dd->type == SINEW_DISPLAY_ARMATURE) {
            if (a->cur_child[s] != SINEW_INVALID_INDEX) {
                sinew_color_transform col = color_concat(a->color[s], parent_color);
                float cm[6];
                sinew__affine_concat(xf, a->slot_world + (size_t)s * 6, cm);
                emit_arm(b, a->cur_child[s], &col, cm, depth + 1);
            }
            continue;
        }
        if (dd->type != SINEW_DISPLAY_IMAGE && (dd->type != SINEW_DISPLAY_MESH || a->cur_mesh[s] == SINEW_INVALID_INDEX))
            continue;
        if (b->nc >= inst->dl_cmd_cap)
            return;
        dl_entry *e = &inst->dl_entries[b->nc];
        bool same = b->nc < inst->dl_valid && e->arm == ai && e->slot == s && e->disp == disp &&
                    e->first_vertex == b->nv && e->first_index == b->ni;
        if (!same) {
            int w = write_command(b, ai, s, disp, depth, e);
            if (w == FULL)
                return;
            if (w == NOT_DRAWN)
                continue;
        }
        sinew_draw_cmd *cmd = &inst->dl_cmds[b->nc];
        cmd->color = color_concat(a->color[s], parent_color);
        float *pos = inst->dl_positions + 2 * (size_t)b->nv;
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
        } else {
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
        b->nv += cmd->vertex_count;
        b->ni += cmd->index_count;
        b->nc++;
    }
}

void sinew_instance_drawlist(sinew_instance *inst, sinew_drawlist *out) {
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!inst || (!inst->dl_block && sinew_instance_reserve_drawlist(inst, NULL) != SINEW_OK))
        return;
    dl_build b = {inst, 0, 0, 0};
    emit_arm(&b, 0, NULL, NULL, 0);
    inst->dl_valid = b.nc; /* the entries past the list may no longer hold what they say */
    out->positions = inst->dl_positions;
    out->uvs = inst->dl_uvs;
    out->indices = inst->dl_indices;
    out->cmds = inst->dl_cmds;
    out->vertex_count = b.nv;
    out->index_count = b.ni;
    out->cmd_count = b.nc;
}
