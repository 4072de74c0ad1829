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
    *px = (dd->pivot_x * fw + (r->has_frame ? r->frame_x : 0.0f)) * tscale + a->pivot_shift[2 * s];
    *py = (dd->pivot_y * fh + (r->has_frame ? r->frame_y : 0.0f)) * tscale + a->pivot_shift[2 * s + 1];
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

/* `xf`: the matrix from this armature's space to the top armature's (NULL for the top one): a
 * child armature's pose is in its own space, placed by its parent slot's world matrix. */
static void emit_arm(dl_build *b, uint32_t ai, const sinew_color_transform *parent_color, const float *xf,
                     uint32_t depth) {
    sinew_instance *inst = b->inst;
    const arm_inst *a = &inst->arms[ai];
    const sinew_model_armature *d = a->data;
    const struct sinew_atlas *atlas = inst->atlas;
    for (uint32_t k = 0; k < a->slot_count; ++k) {
        uint32_t s = a->draw_order[k];
        uint32_t disp = a->cur_display[s];
        if (disp == SINEW_INVALID_INDEX || a->display_index[s] < 0)
            continue;
        const sinew_model_display *dd = sinew__arm_display(a, disp);
        sinew_color_transform col = color_concat(a->color[s], parent_color);
        if (dd->type == SINEW_DISPLAY_ARMATURE) {
            if (a->cur_child[s] != SINEW_INVALID_INDEX) {
                float cm[6];
                sinew__affine_concat(xf, a->slot_world + (size_t)s * 6, cm);
                emit_arm(b, a->cur_child[s], &col, cm, depth + 1);
            }
            continue;
        }
        if (dd->type != SINEW_DISPLAY_IMAGE && dd->type != SINEW_DISPLAY_MESH)
            continue;
        float pw = 1.0f, ph = 1.0f, tscale = 1.0f;
        const sinew_model_region *r = sinew__slot_region(inst, a, s, &pw, &ph, &tscale);
        if (!r && atlas)
            continue; /* a missing texture is not drawn */
        if (b->nc >= inst->dl_cmd_cap)
            return;
        sinew_draw_cmd *cmd = &inst->dl_cmds[b->nc];
        memset(cmd, 0, sizeof *cmd);
        cmd->page = r ? r->page : SINEW_INVALID_INDEX;
        cmd->blend = a->blend_mode[s];
        cmd->color = col;
        cmd->slot = s;
        cmd->depth = depth;
        cmd->armature = ai;
        if (r) {
            float dw = r->rotated ? r->height : r->width, dh = r->rotated ? r->width : r->height;
            cmd->region[0] = r->x / pw;
            cmd->region[1] = r->y / ph;
            cmd->region[2] = (r->x + r->width) / pw;
            cmd->region[3] = (r->y + r->height) / ph;
            (void)dw;
            (void)dh;
        }
        uint32_t v0 = b->nv;
        if (dd->type == SINEW_DISPLAY_IMAGE) {
            if (b->nv + 4 > inst->dl_vertex_cap || b->ni + 6 > inst->dl_index_cap)
                return;
            float dw = 0.0f, dh = 0.0f, pivx = 0.0f, pivy = 0.0f;
            if (r) { /* the image's size in armature units: its pixels over the atlas's scale */
                dw = (r->rotated ? r->height : r->width) * tscale;
                dh = (r->rotated ? r->width : r->height) * tscale;
                sinew__image_pivot(a, s, dd, r, tscale, &pivx, &pivy);
            }
            float m[6];
            sinew__affine_concat(xf, a->slot_world + (size_t)s * 6, m);
            /* the corners (0,0) (1,0) (1,1) (0,1) of the image, u along its width, v its height */
            float x0 = -pivx + 0.0f * dw, x1 = -pivx + 1.0f * dw;
            float y0 = -pivy + 0.0f * dh, y1 = -pivy + 1.0f * dh;
            float *pos = inst->dl_positions + 2 * (size_t)v0, *uv = inst->dl_uvs + 2 * (size_t)v0;
            const float cx[4] = {x0, x1, x1, x0}, cy[4] = {y0, y0, y1, y1};
            for (int i = 0; i < 4; ++i) {
                pos[2 * i] = m[0] * cx[i] + m[2] * cy[i] + m[4];
                pos[2 * i + 1] = m[1] * cx[i] + m[3] * cy[i] + m[5];
            }
            if (r) {
                static const float cu[4] = {0, 1, 1, 0}, cvv[4] = {0, 0, 1, 1};
                for (int i = 0; i < 4; ++i)
                    region_uv(r, pw, ph, cu[i], cvv[i], uv + 2 * i);
            } else {
                memset(uv, 0, 8 * sizeof(float));
            }
            uint32_t *ix = inst->dl_indices + b->ni;
            cmd->first_index = b->ni;
            ix[0] = v0;
            ix[1] = v0 + 1;
            ix[2] = v0 + 2;
            ix[3] = v0;
            ix[4] = v0 + 2;
            ix[5] = v0 + 3;
            b->ni += 6;
            cmd->index_count = 6;
            cmd->vertex_count = 4;
            b->nv += 4;
        } else {
            if (a->cur_mesh[s] == SINEW_INVALID_INDEX)
                continue;
            const sinew_model_mesh *mesh = &d->meshes[a->cur_mesh[s]];
            uint32_t vc = mesh->vertex_count;
            if (b->nv + vc > inst->dl_vertex_cap || b->ni + 3 * mesh->triangle_count > inst->dl_index_cap)
                return;
            const float *wv = a->mesh_out + a->deform_first[s];
            memcpy(inst->dl_positions + 2 * (size_t)v0, wv, (size_t)vc * 2 * sizeof(float));
            if (xf) {
                for (uint32_t i = 0; i < vc; ++i) {
                    float *q = inst->dl_positions + 2 * (size_t)(v0 + i);
                    float x = q[0], y = q[1];
                    q[0] = xf[0] * x + xf[2] * y + xf[4];
                    q[1] = xf[1] * x + xf[3] * y + xf[5];
                }
            }
            float *uv = inst->dl_uvs + 2 * (size_t)v0;
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
            uint32_t ni = 3 * mesh->triangle_count;
            uint32_t *ix = inst->dl_indices + b->ni;
            const uint32_t *tri = mesh->triangles;
            cmd->first_index = b->ni;
            for (uint32_t i = 0; i < ni; ++i) /* each < vc (the loader checks); kept in range regardless */
                ix[i] = v0 + (tri[i] < vc ? tri[i] : 0);
            b->ni += ni;
            cmd->index_count = ni;
            cmd->vertex_count = vc;
            b->nv += vc;
        }
        cmd->first_vertex = v0;
        b->nc++;
    }
}

void sinew_instance_drawlist(sinew_instance *inst, sinew_drawlist *out) {
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!inst)
        return;
    dl_build b = {inst, 0, 0, 0};
    emit_arm(&b, 0, NULL, NULL, 0);
    out->positions = inst->dl_positions;
    out->uvs = inst->dl_uvs;
    out->indices = inst->dl_indices;
    out->cmds = inst->dl_cmds;
    out->vertex_count = b.nv;
    out->index_count = b.ni;
    out->cmd_count = b.nc;
}
