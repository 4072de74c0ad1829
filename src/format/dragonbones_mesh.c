/* DragonBones JSON: meshes (vertices, weights, shared meshes) and path geometry.
 * Part of the DragonBones JSON loader (format/dragonbones_json_internal.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "format/dragonbones_json_internal.h"

/* ---- meshes ----------------------------------------------------------------------------------- */

static sinew_affine affine_mul(sinew_affine p, sinew_affine q) {
    sinew_affine r;
    r.a = p.a * q.a + p.c * q.b;
    r.b = p.b * q.a + p.d * q.b;
    r.c = p.a * q.c + p.c * q.d;
    r.d = p.b * q.c + p.d * q.d;
    r.tx = p.a * q.tx + p.c * q.ty + p.tx;
    r.ty = p.b * q.tx + p.d * q.ty + p.ty;
    return r;
}

bool sinew__dbj_affine_invert(sinew_affine m, sinew_affine *out) {
    double det = (double)m.a * m.d - (double)m.b * m.c;
    if (!(fabs(det) > 1e-12) || !isfinite(det))
        return false;
    double ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det;
    out->a = (float)ia;
    out->b = (float)ib;
    out->c = (float)ic;
    out->d = (float)id;
    out->tx = (float)(-(ia * m.tx + ic * m.ty));
    out->ty = (float)(-(ib * m.tx + id * m.ty));
    return true;
}

static sinew_affine affine_identity(void) {
    sinew_affine m = {1, 0, 0, 1, 0, 0};
    return m;
}

/* [x, y, skX, skY, scX, scY] (degrees) -> matrix */
static sinew_affine affine_from_decomposed(const float *p) {
    double skx = p[2] * DEG2RAD, sky = p[3] * DEG2RAD;
    sinew_affine m;
    m.a = (float)(p[4] * cos(sky));
    m.b = (float)(p[4] * sin(sky));
    m.c = (float)(-p[5] * sin(skx));
    m.d = (float)(p[5] * cos(skx));
    m.tx = p[0];
    m.ty = p[1];
    return m;
}

enum {
    D_NAME, D_TYPE, D_PATH, D_TRANSFORM, D_PIVOT, D_UVS, D_TRIANGLES, D_VERTICES, D_WEIGHTS, D_SLOTPOSE,
    D_BONEPOSE, D_EDGES, D_USEREDGES, D_WIDTH, D_HEIGHT, D_ACTIONS, D_BONES, D_SUBTYPE, D_FILTER,
    D_INHERITDEFORM, D_SHARE, D_USERDATA, D_CLOSED, D_CONSTANTSPEED, D_VERTEXCOUNT, D_LENGTHS, D_COLOR,
    D_GLUEWEIGHTS, D_GLUEMESHES, D_MASK, D_MASKRANGE, D_SHAPE, D_COUNT
};
static const char *const display_keys[D_COUNT] = {
    "name", "type", "path", "transform", "pivot", "uvs", "triangles", "vertices", "weights", "slotPose",
    "bonePose", "edges", "userEdges", "width", "height", "actions", "bones", "subType", "filterType",
    "inheritDeform", "share", "userData", "closed", "constantSpeed", "vertexCount", "lengths", "color",
    "glueWeights", "glueMeshes", "mask", "maskRange", "shape"};
static const sinew_jkeys display_table = SINEW_JKEYS(display_keys, "display");

/* Reads an array of non-negative integers below `limit`. */
static sinew_status read_indices(db *d, const cJSON *first, uint32_t n, const char *key, uint32_t limit,
                                 uint32_t *dst, const char *what) {
    const float *packed = sinew__jis_floats(first) ? sinew__jfloats_at(first) : NULL;
    if (packed && n > (uint32_t)first->valueint)
        n = (uint32_t)first->valueint;
    uint32_t i = 0;
    for (const cJSON *e = first; e && i < n; e = packed ? e : e->next, i++) {
        bool num = packed || cJSON_IsNumber(e);
        double v = packed ? (double)packed[i] : num ? e->valuedouble : -1.0;
        bool whole = v >= 9007199254740992.0 || (v >= 0 && (double)(uint64_t)v == v); /* past 2^53 all are */
        if (!num || !whole) {
            sinew__jpush_key(d->c, key);
            sinew__jpush_index(d->c, i);
            return sinew__jfail(d->c, SINEW_E_TYPE, "'%s'[%u] must be a non-negative integer", key, i);
        }
        if (v >= (double)limit) {
            sinew__jpush_key(d->c, key);
            sinew__jpush_index(d->c, i);
            return sinew__jfail(d->c, SINEW_E_RANGE, "'%s'[%u] = %g is not below the %s (%u)", key, i, v, what, limit);
        }
        dst[i] = (uint32_t)v;
    }
    return SINEW_OK;
}

/* Per-vertex counts [n, bone, w, ...] walk exactly to the end of `w[0..wn)` over `vcount`
 * vertices; returns the influence count or UINT32_MAX. */
static uint32_t walk_counts(const float *w, uint32_t wn, uint32_t vcount, uint32_t bone_count) {
    uint32_t i = 0, inf = 0;
    for (uint32_t v = 0; v < vcount; v++) {
        if (i >= wn)
            return UINT32_MAX;
        float c = w[i];
        if (!(c >= 0.0f) || c != floorf(c) || c > (float)bone_count)
            return UINT32_MAX;
        uint32_t k = (uint32_t)c;
        if ((uint64_t)i + 1u + 2u * (uint64_t)k > wn)
            return UINT32_MAX;
        i += 1u + 2u * k;
        inf += k;
    }
    return i == wn ? inf : UINT32_MAX;
}

static sinew_status weight_bone(db *d, float v, uint32_t i, uint32_t *out) {
    uint32_t nb = d->arm->bone_count;
    if (!(v >= 0.0f && v < (float)nb) || (float)(uint32_t)v != v) {
        sinew__jpush_key(d->c, "weights");
        sinew__jpush_index(d->c, i);
        return sinew__jfail(d->c, SINEW_E_REFERENCE, "weights refer to bone %g, but the armature has %u bones", (double)v, nb);
    }
    *out = d->bone_of_file[(uint32_t)v];
    return SINEW_OK;
}

/* A mesh display's arrays, as the file gives them. */
typedef struct mesh_src {
    const cJSON *vfirst, *ufirst, *tfirst, *wfirst, *spfirst, *bpfirst, *efirst, *uefirst;
    uint32_t vn, un, tn, wn, spn, bpn, en, uen;
    bool layout2; /* 5.5's weights: `vertices` are the influences' local positions */
} mesh_src;

static sinew_status mesh_arrays(db *d, const cJSON *const *f, mesh_src *m) {
    const cJSON *bfirst;
    uint32_t bn;
    TRY(sinew__jarray(d->c, f[D_VERTICES], "vertices", &m->vfirst, &m->vn));
    TRY(sinew__jarray(d->c, f[D_UVS], "uvs", &m->ufirst, &m->un));
    TRY(sinew__jarray(d->c, f[D_TRIANGLES], "triangles", &m->tfirst, &m->tn));
    TRY(sinew__jarray(d->c, f[D_WEIGHTS], "weights", &m->wfirst, &m->wn));
    TRY(sinew__jarray(d->c, f[D_SLOTPOSE], "slotPose", &m->spfirst, &m->spn));
    TRY(sinew__jarray(d->c, f[D_BONEPOSE], "bonePose", &m->bpfirst, &m->bpn));
    TRY(sinew__jarray(d->c, f[D_EDGES], "edges", &m->efirst, &m->en));
    TRY(sinew__jarray(d->c, f[D_USEREDGES], "userEdges", &m->uefirst, &m->uen));
    TRY(sinew__jarray(d->c, f[D_BONES], "bones", &bfirst, &bn));
    m->layout2 = m->wn > 0 && m->bpn == 0 && f[D_BONES];
    return SINEW_OK;
}

/* Vertices, UVs, triangles, edges and size, checked against each other. */
static sinew_status mesh_geometry(db *d, const cJSON *const *f, const mesh_src *m, sinew_model_mesh *M) {
    bool layout2 = m->layout2;
    uint32_t vn = m->vn, un = m->un, tn = m->tn, en = m->en, uen = m->uen;
    /* The official parser reads both arrays' lengths unchecked: without them it cannot load the file */
    if (!f[D_TRIANGLES] || cJSON_IsNull(f[D_TRIANGLES]))
        return sinew__jfail(d->c, SINEW_E_LAYOUT, "the mesh has no 'triangles' (the official runtime cannot load it)");
    if (!layout2 && (!f[D_VERTICES] || cJSON_IsNull(f[D_VERTICES])))
        return sinew__jfail(d->c, SINEW_E_LAYOUT, "the mesh has no 'vertices' (the official runtime cannot load it)");
    if (un % 2u)
        return sinew__jfail_key(d->c, "uvs", SINEW_E_LAYOUT, "'uvs' has an odd number of values (%u)", un);
    uint32_t vcount = layout2 ? un / 2u : vn / 2u;
    if (!layout2 && vn % 2u)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT, "'vertices' has an odd number of values (%u)", vn);
    if (vcount > d->c->limits.max_vertices)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LIMIT, "%u vertices, more than the limit of %u (limits.max_vertices)",
                                vcount, d->c->limits.max_vertices);
    if (un != 2u * vcount)
        return sinew__jfail_key(d->c, "uvs", SINEW_E_LAYOUT, "'uvs' has %u values for %u vertices (expected %u)", un, vcount,
                                2u * vcount);
    if (tn % 3u)
        return sinew__jfail_key(d->c, "triangles", SINEW_E_LAYOUT, "'triangles' length %u is not a multiple of 3", tn);
    M->vertex_count = vcount;
    ALLOC(M->vertices, 2u * vcount);
    ALLOC(M->uvs, 2u * vcount);
    if (!layout2)
        TRY(sinew__jfloats(d->c, m->vfirst, "vertices", M->vertices, vn));
    TRY(sinew__jfloats(d->c, m->ufirst, "uvs", M->uvs, un));
    M->triangle_count = tn / 3u;
    ALLOC(M->triangles, tn);
    TRY(read_indices(d, m->tfirst, tn, "triangles", vcount, M->triangles, "vertex count"));
    M->edge_count = en / 2u;
    ALLOC(M->edges, en);
    TRY(read_indices(d, m->efirst, en, "edges", UINT32_MAX, M->edges, "limit"));
    M->user_edge_count = uen / 2u;
    ALLOC(M->user_edges, uen);
    TRY(read_indices(d, m->uefirst, uen, "userEdges", UINT32_MAX, M->user_edges, "limit"));
    TRY(sinew__jfloat(d->c, f[D_WIDTH], "width", 0.0f, &M->width));
    TRY(sinew__jfloat(d->c, f[D_HEIGHT], "height", 0.0f, &M->height));
    M->slot_pose = affine_identity();
    return SINEW_OK;
}

/* Which of the three weight layouts `w` is in (0: per vertex [count, bone, weight, ...] with
 * poses; 1: triples [vertex, bone, weight]; 2: per vertex, 5.5's local vertices), and the number
 * of influences. */
static sinew_status weight_layout(db *d, const mesh_src *m, const float *w, uint32_t vcount, uint8_t *layout,
                                  uint32_t *inf) {
    uint32_t wn = m->wn;
    *inf = walk_counts(w, wn, vcount, d->arm->bone_count);
    if (m->layout2) {
        if (*inf == UINT32_MAX)
            return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                    "mesh weights do not fit [count, bone, weight, ...] for %u vertices", vcount);
        if (m->vn != 2u * *inf)
            return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT,
                                    "'vertices' has %u values for %u influences (expected %u)", m->vn, *inf, 2u * *inf);
        *layout = 2;
        return SINEW_OK;
    }
    if (*inf != UINT32_MAX) {
        *layout = 0;
        return SINEW_OK;
    }
    /* triples [vertex, bone, weight] */
    bool ok = wn % 3u == 0;
    for (uint32_t i = 0; ok && i < wn; i += 3u)
        ok = w[i] >= 0.0f && w[i] == floorf(w[i]) && w[i] < (float)vcount;
    if (!ok)
        return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                "mesh weights fit neither layout: per-vertex [count, bone, weight, ...] over %u "
                                "vertices, nor triples [vertex, bone, weight]",
                                vcount);
    *layout = 1;
    *inf = wn / 3u;
    return SINEW_OK;
}

/* Each vertex's influences (bone and weight), grouped by vertex. */
static sinew_status read_influences(db *d, const float *w, uint32_t wn, uint8_t layout, sinew_model_mesh *M) {
    uint32_t vcount = M->vertex_count;
    if (layout == 0 || layout == 2) {
        uint32_t i = 0, k = 0;
        for (uint32_t v = 0; v < vcount; v++) {
            uint32_t c = (uint32_t)w[i++];
            M->vertex_first_influence[v] = k;
            for (uint32_t j = 0; j < c; j++, k++) {
                TRY(weight_bone(d, w[i], i, &M->influence_bone[k]));
                M->influence_weight[k] = w[i + 1u];
                i += 2u;
            }
        }
        M->vertex_first_influence[vcount] = k;
        return SINEW_OK;
    }
    uint32_t *cnt = M->vertex_first_influence;
    for (uint32_t i = 0; i < wn; i += 3u)
        cnt[(uint32_t)w[i] + 1u]++;
    for (uint32_t v = 0; v < vcount; v++)
        cnt[v + 1u] += cnt[v];
    uint32_t *fill = sinew__dbj_scratch_array(d, vcount + 1u, sizeof *fill);
    if (!fill)
        return SINEW_E_NOMEM;
    memcpy(fill, cnt, (vcount + 1u) * sizeof *fill);
    for (uint32_t i = 0; i < wn; i += 3u) {
        uint32_t k = fill[(uint32_t)w[i]]++;
        TRY(weight_bone(d, w[i + 1u], i + 1u, &M->influence_bone[k]));
        M->influence_weight[k] = w[i + 2u];
    }
    return SINEW_OK;
}

/* slotPose: layout 0 a matrix [a b c d tx ty]; layout 1 decomposed [x y skX skY scX scY]. */
static sinew_status mesh_slot_pose(db *d, const mesh_src *m, uint8_t layout, sinew_model_mesh *M) {
    if (!m->spn)
        return SINEW_OK;
    float sp[6];
    if (m->spn != 6u)
        return sinew__jfail_key(d->c, "slotPose", SINEW_E_LAYOUT, "'slotPose' must have 6 numbers (has %u)", m->spn);
    TRY(sinew__jfloats(d->c, m->spfirst, "slotPose", sp, 6));
    if (layout == 0) {
        sinew_affine mat = {sp[0], sp[1], sp[2], sp[3], sp[4], sp[5]};
        M->slot_pose = mat;
    } else {
        M->slot_pose = affine_from_decomposed(sp);
    }
    return SINEW_OK;
}

/* bonePose: per entry a file bone and its pose (as slotPose), kept with its inverse; d->pose_of_bone
 * maps each model bone to its entry. */
static sinew_status mesh_bone_poses(db *d, const mesh_src *m, uint8_t layout, sinew_model_mesh *M, sinew_affine **inv_out) {
    uint32_t bpn = m->bpn, nbones = d->arm->bone_count;
    if (bpn % 7u)
        return sinew__jfail_key(d->c, "bonePose", SINEW_E_LAYOUT, "'bonePose' length %u is not a multiple of 7", bpn);
    uint32_t np = bpn / 7u;
    M->bone_pose_count = np;
    ALLOC(M->bone_pose_bone, np);
    ALLOC(M->bone_pose, np);
    float *bp = sinew__dbj_scratch_array(d, bpn ? bpn : 1u, sizeof *bp);
    sinew_affine *inv = sinew__dbj_scratch_array(d, np ? np : 1u, sizeof *inv);
    if (!bp || !inv)
        return SINEW_E_NOMEM;
    TRY(sinew__jfloats(d->c, m->bpfirst, "bonePose", bp, bpn));
    uint32_t *pob = d->pose_of_bone;
    for (uint32_t b = 0; b < nbones; b++)
        pob[b] = SINEW_INVALID_INDEX;
    for (uint32_t p = 0; p < np; p++) {
        uint32_t mb;
        float raw = bp[7u * p];
        if (!(raw >= 0.0f) || raw != floorf(raw) || raw >= (float)nbones) {
            sinew__jpush_key(d->c, "bonePose");
            sinew__jpush_index(d->c, 7u * p);
            return sinew__jfail(d->c, SINEW_E_REFERENCE, "bonePose refers to bone %g, but the armature has %u bones",
                                (double)raw, nbones);
        }
        mb = d->bone_of_file[(uint32_t)raw];
        M->bone_pose_bone[p] = mb;
        if (layout == 0) {
            sinew_affine mat = {bp[7u * p + 1u], bp[7u * p + 2u], bp[7u * p + 3u],
                                bp[7u * p + 4u], bp[7u * p + 5u], bp[7u * p + 6u]};
            M->bone_pose[p] = mat;
        } else {
            M->bone_pose[p] = affine_from_decomposed(&bp[7u * p + 1u]);
        }
        if (!sinew__dbj_affine_invert(M->bone_pose[p], &inv[p])) {
            sinew__jpush_key(d->c, "bonePose");
            sinew__jpush_index(d->c, 7u * p + 1u);
            return sinew__jfail(d->c, SINEW_E_RANGE, "bonePose of bone '%s' is not invertible", d->arm->bones[mb].name);
        }
        pob[mb] = p;
    }
    *inv_out = inv;
    return SINEW_OK;
}

/* Each influence's local position (the vertex through slotPose, into its bone's pose) and deform
 * map (the linear part of inverse(bonePose) . slotPose). */
static sinew_status bind_influences(db *d, sinew_model_mesh *M, const sinew_affine *inv) {
    uint32_t np = M->bone_pose_count;
    const uint32_t *pob = d->pose_of_bone;
    sinew_affine *lin_of = sinew__dbj_scratch_array(d, np ? np : 1u, sizeof *lin_of);
    if (!lin_of)
        return SINEW_E_NOMEM;
    sinew_affine S = M->slot_pose;
    for (uint32_t p = 0; p < np; p++) /* per pose: inverse(bonePose) . slotPose, its linear part the deform map */
        lin_of[p] = affine_mul(inv[p], S);
    for (uint32_t v = 0; v < M->vertex_count; v++) {
        float x = M->vertices[2u * v], y = M->vertices[2u * v + 1u];
        float sx = S.a * x + S.c * y + S.tx, sy = S.b * x + S.d * y + S.ty;
        for (uint32_t k = M->vertex_first_influence[v]; k < M->vertex_first_influence[v + 1u]; k++) {
            uint32_t p = pob[M->influence_bone[k]];
            if (p == SINEW_INVALID_INDEX)
                return sinew__jfail_key(d->c, "bonePose", SINEW_E_REFERENCE,
                                        "weights use bone '%s', which has no bonePose entry",
                                        d->arm->bones[M->influence_bone[k]].name);
            sinew_affine I = inv[p];
            M->influence_local[2u * k] = I.a * sx + I.c * sy + I.tx;
            M->influence_local[2u * k + 1u] = I.b * sx + I.d * sy + I.ty;
            const sinew_affine lin = lin_of[p];
            M->influence_deform[4u * k + 0u] = lin.a;
            M->influence_deform[4u * k + 1u] = lin.b;
            M->influence_deform[4u * k + 2u] = lin.c;
            M->influence_deform[4u * k + 3u] = lin.d;
        }
    }
    return SINEW_OK;
}

/* A mesh geometry's weights (none when `weights` is absent): its influences and their bind
 * positions, from the vertices already read into M. */
static sinew_status mesh_weights(db *d, const mesh_src *mp, sinew_model_mesh *M) {
    const mesh_src m = *mp;
    if (m.wn == 0)
        return SINEW_OK;
    uint32_t vcount = M->vertex_count;
    float *w = sinew__dbj_scratch_array(d, m.wn, sizeof *w);
    if (!w)
        return SINEW_E_NOMEM;
    TRY(sinew__jfloats(d->c, m.wfirst, "weights", w, m.wn));
    uint8_t layout = 0;
    uint32_t inf = 0;
    TRY(weight_layout(d, &m, w, vcount, &layout, &inf));
    M->weighted = true;
    M->weight_layout = layout;
    M->influence_count = inf;
    ALLOC(M->vertex_first_influence, vcount + 1u);
    ALLOC(M->influence_bone, inf);
    ALLOC(M->influence_weight, inf);
    ALLOC(M->influence_local, 2u * inf);
    ALLOC(M->influence_deform, 4u * inf);
    TRY(read_influences(d, w, m.wn, layout, M));
    if (layout == 2) {
        TRY(sinew__jfloats(d->c, m.vfirst, "vertices", M->influence_local, m.vn));
        for (uint32_t k = 0; k < inf; k++) {
            M->influence_deform[4u * k + 0u] = 1.0f;
            M->influence_deform[4u * k + 3u] = 1.0f;
        }
        return SINEW_OK;
    }
    TRY(mesh_slot_pose(d, &m, layout, M));
    sinew_affine *inv = NULL;
    TRY(mesh_bone_poses(d, &m, layout, M, &inv));
    return bind_influences(d, M, inv);
}

static sinew_status build_mesh(db *d, const cJSON *const *f, sinew_model_mesh *M) {
    mesh_src m;
    memset(&m, 0, sizeof m);
    TRY(mesh_arrays(d, f, &m));
    TRY(mesh_geometry(d, f, &m, M));
    return mesh_weights(d, &m, M);
}

/* ---- vector shapes (6.0) ------------------------------------------------------------------------ */

static const char *const shape_keys[] = {"vertices", "paths"};
static const sinew_jkeys shape_table = SINEW_JKEYS(shape_keys, "shape");
static const char *const shape_path_keys[] = {"indexes", "style"};
static const sinew_jkeys shape_path_table = SINEW_JKEYS(shape_path_keys, "shape path");
static const char *const style_keys[] = {"fill", "stroke"};
static const sinew_jkeys style_table = SINEW_JKEYS(style_keys, "shape style");
static const char *const paint_keys[] = {"color", "opacity", "width", "type"};
static const sinew_jkeys paint_table = SINEW_JKEYS(paint_keys, "fill or stroke");

/* A path's fill or stroke (`what`): colour, opacity and, for a stroke, width and type. */
static sinew_status shape_paint(db *d, const cJSON *v, const char *what, sinew_model_shape_path *P) {
    const cJSON *g[4];
    bool stroke = what[0] == 's';
    sinew__jpush_key(d->c, what);
    TRY(sinew__jfields(d->c, v, &paint_table, g));
    int64_t color;
    float opacity;
    TRY(sinew__jint(d->c, g[0], "color", 0, 0, 16777215.0, &color));
    TRY(sinew__jfloat(d->c, g[1], "opacity", stroke ? 0.0f : 1.0f, &opacity));
    if (stroke) {
        P->has_stroke = true;
        P->stroke_color = (uint32_t)color;
        P->stroke_opacity = opacity;
        TRY(sinew__jfloat(d->c, g[2], "width", 1.0f, &P->stroke_width));
        const char *type;
        TRY(sinew__jstr(d->c, g[3], "type", "", &type));
        if (g[3] && !cJSON_IsNull(g[3]))
            TRY(sinew__dbj_dup_str(d, type, &P->stroke_type));
    } else {
        P->has_fill = true;
        P->fill_color = (uint32_t)color;
        P->fill_opacity = opacity;
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* One entry of `shape.paths`: its point indices (appended to S->indexes at *used; one that names
 * no point is dropped with a warning: the official adapters would draw through undefined points)
 * and its style. */
static sinew_status shape_path(db *d, const cJSON *v, sinew_model_shape *S, uint32_t *used, sinew_model_shape_path *P) {
    const cJSON *g[2], *first;
    uint32_t n;
    TRY(sinew__jfields(d->c, v, &shape_path_table, g));
    TRY(sinew__jarray(d->c, g[0], "indexes", &first, &n));
    P->first_index = *used;
    P->stroke_width = 1.0f;
    uint32_t i = 0;
    for (const cJSON *e = first; e && i < n; e = e->next, i++) {
        double x = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
        if (!(x >= 0.0) || x != floor(x) || x >= (double)S->point_count) {
            sinew__jpush_key(d->c, "indexes");
            sinew__jpush_index(d->c, i);
            sinew__jwarn(d->c, NULL, SINEW_E_RANGE, "shape path index %g names no Bezier point (the shape has %u): "
                         "left out", cJSON_IsNumber(e) ? e->valuedouble : -1.0, S->point_count);
            sinew__jpop(d->c);
            sinew__jpop(d->c);
            continue;
        }
        S->indexes[(*used)++] = (uint32_t)x;
    }
    P->index_count = *used - P->first_index;
    if (g[1] && !cJSON_IsNull(g[1])) {
        const cJSON *h[2];
        sinew__jpush_key(d->c, "style");
        TRY(sinew__jfields(d->c, g[1], &style_table, h));
        if (h[0] && !cJSON_IsNull(h[0]))
            TRY(shape_paint(d, h[0], "fill", P));
        if (h[1] && !cJSON_IsNull(h[1]))
            TRY(shape_paint(d, h[1], "stroke", P));
        sinew__jpop(d->c);
    }
    return SINEW_OK;
}

/* A SHAPE display: `shape.vertices` (6 numbers per Bezier point: in-control, anchor, out-control)
 * become the geometry of a mesh without UVs or triangles, weighted by the display's own `weights`
 * and `slotPose`/`bonePose` as a mesh is; `shape.paths` the drawing. */
static sinew_status build_shape(db *d, const cJSON *const *f, sinew_model_display *D) {
    sinew_model_armature *A = d->arm;
    D->mesh = A->mesh_count++;
    D->shape = A->shape_count++;
    sinew_model_mesh *M = &A->meshes[D->mesh];
    sinew_model_shape *S = &A->shapes[D->shape];
    memset(M, 0, sizeof *M);
    memset(S, 0, sizeof *S);
    M->slot_pose = affine_identity();
    if (!f[D_SHAPE] || cJSON_IsNull(f[D_SHAPE])) {
        sinew__jwarn(d->c, NULL, SINEW_E_MISSING, "shape display '%s' has no 'shape': it draws nothing (the official "
                     "runtime warns \"Data error\")", D->name);
        return SINEW_OK;
    }
    const cJSON *g[2];
    mesh_src m;
    memset(&m, 0, sizeof m);
    sinew__jpush_key(d->c, "shape");
    TRY(sinew__jfields(d->c, f[D_SHAPE], &shape_table, g));
    TRY(sinew__jarray(d->c, g[0], "vertices", &m.vfirst, &m.vn));
    if (m.vn % 6u)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT,
                                "shape 'vertices' has %u values: 6 per Bezier point (in-control, anchor, out-control)",
                                m.vn);
    if (m.vn / 2u > d->c->limits.max_vertices)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LIMIT, "%u vertices, more than the limit of %u "
                                "(limits.max_vertices)", m.vn / 2u, d->c->limits.max_vertices);
    M->vertex_count = m.vn / 2u;
    S->point_count = m.vn / 6u;
    ALLOC(M->vertices, m.vn);
    TRY(sinew__jfloats(d->c, m.vfirst, "vertices", M->vertices, m.vn));
    const cJSON *pfirst;
    uint32_t pn, total = 0;
    TRY(sinew__jarray(d->c, g[1], "paths", &pfirst, &pn));
    for (const cJSON *p = pfirst; p; p = p->next) {
        const cJSON *ix = sinew__dbj_obj_get(p, "indexes");
        total += cJSON_IsArray(ix) ? (uint32_t)cJSON_GetArraySize(ix) : 0u;
    }
    S->path_count = pn;
    ALLOC(S->paths, pn);
    ALLOC(S->indexes, total);
    sinew__jpush_key(d->c, "paths");
    uint32_t i = 0, used = 0;
    for (const cJSON *p = pfirst; p; p = p->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(shape_path(d, p, S, &used, &S->paths[i]));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    sinew__jpop(d->c);
    S->index_count = used;
    /* the weights are the display's, as a mesh's */
    const cJSON *bfirst;
    uint32_t bn;
    TRY(sinew__jarray(d->c, f[D_WEIGHTS], "weights", &m.wfirst, &m.wn));
    TRY(sinew__jarray(d->c, f[D_SLOTPOSE], "slotPose", &m.spfirst, &m.spn));
    TRY(sinew__jarray(d->c, f[D_BONEPOSE], "bonePose", &m.bpfirst, &m.bpn));
    TRY(sinew__jarray(d->c, f[D_BONES], "bones", &bfirst, &bn));
    if (m.wn && m.bpn == 0)
        return sinew__jfail_key(d->c, "weights", SINEW_E_UNSUPPORTED,
                                "shape '%s' is weighted without 'bonePose': not supported (the official parser would "
                                "read its Bezier points as per-influence positions)", D->name);
    return mesh_weights(d, &m, M);
}

/* ---- path geometry ---------------------------------------------------------------------------- */

/* A weighted path given as meshes are (`vertices` 2 per point in slot space, `weights` per point,
 * `slotPose` and `bonePose`), as a 6.0 editor writes it: bound like a mesh, then held as a path
 * given with `bones` (vertices per influence in its bone's space; `bones` the bonePose entries),
 * keeping each influence's deform map for the path's deform timelines. */
static sinew_status posed_path(db *d, const cJSON *const *f, sinew_model_path *P) {
    mesh_src m;
    sinew_model_mesh M;
    memset(&m, 0, sizeof m);
    memset(&M, 0, sizeof M);
    if (P->value_count != 2u * P->vertex_count)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT, "path 'vertices' has %u values for %u points",
                                P->value_count, P->vertex_count);
    TRY(sinew__jarray(d->c, f[D_VERTICES], "vertices", &m.vfirst, &m.vn));
    TRY(sinew__jarray(d->c, f[D_WEIGHTS], "weights", &m.wfirst, &m.wn));
    TRY(sinew__jarray(d->c, f[D_SLOTPOSE], "slotPose", &m.spfirst, &m.spn));
    TRY(sinew__jarray(d->c, f[D_BONEPOSE], "bonePose", &m.bpfirst, &m.bpn));
    M.vertex_count = P->vertex_count;
    M.vertices = P->vertices;
    M.slot_pose = affine_identity();
    TRY(mesh_weights(d, &m, &M));
    if (M.weight_layout != 0)
        return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                "path weights do not fit [count, bone, weight, ...] for %u points", P->vertex_count);
    P->weighted = P->posed = true;
    P->bone_count = M.bone_pose_count;
    P->bones = M.bone_pose_bone;
    P->vertex_first_influence = M.vertex_first_influence;
    P->influence_count = M.influence_count;
    P->influence_weight = M.influence_weight;
    P->influence_deform = M.influence_deform;
    P->vertices = M.influence_local;
    P->value_count = 2u * M.influence_count;
    ALLOC(P->influence_bone, M.influence_count);
    for (uint32_t k = 0; k < M.influence_count; k++) /* the pose entry of each influence's bone */
        for (uint32_t b = 0; b < P->bone_count; b++)
            if (P->bones[b] == M.influence_bone[k]) {
                P->influence_bone[k] = b;
                break;
            }
    return SINEW_OK;
}

/* A PATH display: `vertexCount` points (three per anchor), `vertices` (2 per point, or 2 per
 * influence in bone space when `weights` are given, with `bones` listing the file bones the
 * weights name), `lengths` (the editor's cumulative curve lengths, which the official runtime
 * reads without `constantSpeed`; its parser fails without the key). */
static sinew_status build_path(db *d, const cJSON *const *f, sinew_model_path *P) {
    memset(P, 0, sizeof *P);
    TRY(sinew__jbool(d->c, f[D_CLOSED], "closed", false, &P->closed));
    TRY(sinew__jbool(d->c, f[D_CONSTANTSPEED], "constantSpeed", false, &P->constant_speed));
    int64_t vc;
    /* the official int array is 16-bit. The official parser does not read `vertexCount`: it counts
       two numbers of `vertices` a point, which holds where they are points (no `weights`, or
       weights with `bonePose`); sinew takes that count when the key is absent */
    double vdef = 0.0;
    if (!f[D_VERTEXCOUNT] && cJSON_IsArray(f[D_VERTICES]) && (!f[D_WEIGHTS] || f[D_BONEPOSE]))
        vdef = floor((double)cJSON_GetArraySize(f[D_VERTICES]) / 2.0);
    TRY(sinew__jint(d->c, f[D_VERTEXCOUNT], "vertexCount", vdef, 0, 32767, &vc));
    if (vc % 3 != 0 || vc < (P->closed ? 3 : 6))
        return sinew__jfail_key(d->c, "vertexCount", SINEW_E_LAYOUT,
                                "path 'vertexCount' %d must be a multiple of 3 (in-control, anchor, out-control) "
                                "and give at least %s",
                                (int)vc, P->closed ? "one anchor" : "two anchors");
    P->vertex_count = (uint32_t)vc;
    uint32_t curves = P->vertex_count / 3u - (P->closed ? 0u : 1u);
    const cJSON *vfirst, *lfirst, *wfirst, *bfirst;
    uint32_t vn, ln, wn, bn;
    if (!f[D_VERTICES])
        return sinew__jfail(d->c, SINEW_E_MISSING, "path display has no 'vertices'");
    if (!f[D_LENGTHS])
        return sinew__jfail(d->c, SINEW_E_MISSING, "path display has no 'lengths'");
    TRY(sinew__jarray(d->c, f[D_VERTICES], "vertices", &vfirst, &vn));
    TRY(sinew__jarray(d->c, f[D_LENGTHS], "lengths", &lfirst, &ln));
    TRY(sinew__jarray(d->c, f[D_WEIGHTS], "weights", &wfirst, &wn));
    TRY(sinew__jarray(d->c, f[D_BONES], "bones", &bfirst, &bn));
    if (!P->constant_speed && ln < curves)
        return sinew__jfail_key(d->c, "lengths", SINEW_E_LAYOUT, "path 'lengths' has %u values for %u curves", ln,
                                curves);
    P->length_count = ln;
    ALLOC(P->lengths, ln);
    TRY(sinew__jdoubles(d->c, lfirst, "lengths", P->lengths, ln, DBL_MAX));
    P->value_count = vn;
    ALLOC(P->vertices, vn);
    TRY(sinew__jfloats(d->c, vfirst, "vertices", P->vertices, vn));
    if (!f[D_WEIGHTS]) {
        if (vn != 2u * P->vertex_count)
            return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT, "path 'vertices' has %u values for %u points", vn,
                                    P->vertex_count);
        return SINEW_OK;
    }
    if (f[D_BONEPOSE] && !cJSON_IsNull(f[D_BONEPOSE]))
        return posed_path(d, f, P);
    /* weighted: [count, file bone, weight, ...] per point; the bone must be one of `bones` */
    if (d->arm->v6 && !d->warned_v6_path_layout) {
        d->warned_v6_path_layout = true;
        sinew__jwarn(d->c, "weights", SINEW_E_UNSUPPORTED,
                     "a weighted path without 'bonePose' (the 5.5 layout): the 6.0 runtime cannot load it (its parser "
                     "counts the vertices as points and fails, or misreads the weights); sinew plays it as the 5.5 "
                     "layout says (reported once per file)");
    }
    P->weighted = true;
    P->bone_count = bn;
    ALLOC(P->bones, bn);
    uint32_t *file_bone = sinew__dbj_scratch_array(d, bn, sizeof *file_bone);
    float *w = sinew__dbj_scratch_array(d, wn, sizeof *w);
    if (!file_bone || !w)
        return SINEW_E_NOMEM;
    {
        uint32_t i = 0;
        for (const cJSON *e = bfirst; e && i < bn; e = e->next, i++) {
            double fb = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
            if (!(fb >= 0.0) || fb != floor(fb) || fb >= (double)d->arm->bone_count) {
                sinew__jpush_key(d->c, "bones");
                sinew__jpush_index(d->c, i);
                return sinew__jfail(d->c, SINEW_E_REFERENCE,
                                    "path 'bones'[%u] must be the index of one of the armature's %u bones", i,
                                    d->arm->bone_count);
            }
            file_bone[i] = (uint32_t)fb;
            P->bones[i] = d->bone_of_file[file_bone[i]];
        }
    }
    TRY(sinew__jfloats(d->c, wfirst, "weights", w, wn));
    uint32_t inf = walk_counts(w, wn, P->vertex_count, UINT32_MAX / 4u);
    if (inf == UINT32_MAX)
        return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                "path weights do not fit [count, bone, weight, ...] for %u points", P->vertex_count);
    if (vn != 2u * inf)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT, "path 'vertices' has %u values for %u influences", vn,
                                inf);
    P->influence_count = inf;
    ALLOC(P->vertex_first_influence, P->vertex_count + 1u);
    ALLOC(P->influence_bone, inf);
    ALLOC(P->influence_weight, inf);
    uint32_t at = 0, k = 0;
    for (uint32_t v = 0; v < P->vertex_count; v++) {
        uint32_t c = (uint32_t)w[at++];
        P->vertex_first_influence[v] = k;
        for (uint32_t j = 0; j < c; j++, k++, at += 2u) {
            uint32_t slot = UINT32_MAX;
            for (uint32_t b = 0; b < bn; b++)
                if ((float)file_bone[b] == w[at]) {
                    slot = b;
                    break;
                }
            if (slot == UINT32_MAX) { /* the official runtime would fail on this bone when it plays */
                sinew__jpush_key(d->c, "weights");
                sinew__jpush_index(d->c, at);
                return sinew__jfail(d->c, SINEW_E_REFERENCE, "path weights name bone %g, which is not in its 'bones'",
                                    (double)w[at]);
            }
            P->influence_bone[k] = slot;
            P->influence_weight[k] = w[at + 1u];
        }
    }
    P->vertex_first_influence[P->vertex_count] = k;
    return SINEW_OK;
}

/* A boundingBox: its subType ("rectangle" or 0, "ellipse" or 1, "polygon" or 2; a rectangle when
 * absent, as officially), a polygon's `vertices`, a rectangle's or an ellipse's `width` and
 * `height` (centred on the slot's origin), the editor's `color`. A rectangle also gets its four
 * corners as a polygon (the hit tests share the polygon code). */
static sinew_status build_bounding_box(db *d, const cJSON *const *f, sinew_model_display *D) {
    D->bbox_shape = SINEW_BBOX_RECTANGLE;
    if (cJSON_IsString(f[D_SUBTYPE])) {
        const char *t = f[D_SUBTYPE]->valuestring;
        if (strcmp(t, "rectangle") == 0)
            D->bbox_shape = SINEW_BBOX_RECTANGLE;
        else if (strcmp(t, "ellipse") == 0)
            D->bbox_shape = SINEW_BBOX_ELLIPSE;
        else if (strcmp(t, "polygon") == 0)
            D->bbox_shape = SINEW_BBOX_POLYGON;
        else
            return sinew__jfail_key(d->c, "subType", SINEW_E_UNSUPPORTED,
                                    "unknown boundingBox subType '%s' (rectangle, ellipse or polygon)", t);
    } else if (f[D_SUBTYPE] && !cJSON_IsNull(f[D_SUBTYPE])) {
        int64_t t;
        TRY(sinew__jint(d->c, f[D_SUBTYPE], "subType", 0, 0, 2, &t));
        D->bbox_shape = (uint8_t)t;
    }
    int64_t color;
    TRY(sinew__jint(d->c, f[D_COLOR], "color", 0, 0, 16777215.0, &color));
    D->bbox_color = (uint32_t)color;
    if (D->bbox_shape != SINEW_BBOX_POLYGON) {
        TRY(sinew__jfloat(d->c, f[D_WIDTH], "width", 0.0f, &D->bbox_width));
        TRY(sinew__jfloat(d->c, f[D_HEIGHT], "height", 0.0f, &D->bbox_height));
        if (f[D_VERTICES] && !cJSON_IsNull(f[D_VERTICES]))
            sinew__jwarn(d->c, "vertices", SINEW_OK,
                         "boundingBox '%s' is a %s (%s): its 'vertices' are ignored, as officially", D->name,
                         D->bbox_shape == SINEW_BBOX_ELLIPSE ? "ellipse" : "rectangle",
                         f[D_SUBTYPE] ? "its subType" : "no subType");
        if (D->bbox_shape == SINEW_BBOX_RECTANGLE) {
            float w = D->bbox_width * 0.5f, h = D->bbox_height * 0.5f;
            ALLOC(D->bbox_vertices, 8);
            const float corners[8] = {-w, -h, w, -h, w, h, -w, h};
            memcpy(D->bbox_vertices, corners, sizeof corners);
            D->bbox_vertex_count = 4;
        }
        return SINEW_OK;
    }
    if (!f[D_VERTICES]) {
        /* as officially: the polygon stays empty (nothing hits it), with the runtime's own warning
           (a DBBin's polygons are like this: the official binary parser reads no vertices) */
        sinew__jwarn(d->c, NULL, SINEW_OK,
                     "boundingBox '%s' is a polygon without 'vertices': left empty, as the official runtime does "
                     "(it warns \"Data error. Please reexport DragonBones Data\")",
                     D->name);
        return SINEW_OK;
    }
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, f[D_VERTICES], "vertices", &first, &n));
    if (n % 2u)
        return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT, "bounding box 'vertices' has an odd count (%u)", n);
    D->bbox_vertex_count = n / 2u;
    ALLOC(D->bbox_vertices, n);
    TRY(sinew__jfloats(d->c, first, "vertices", D->bbox_vertices, n));
    return SINEW_OK;
}

/* 6.0 `mask` and `maskRange`: read on image and shape displays of a 6.0 file, as officially; a 5.x
 * file plays as 5.x, without masks (said once). */
static sinew_status display_mask(db *d, const cJSON *const *f, sinew_model_display *D) {
    if (!f[D_MASK] && !f[D_MASKRANGE])
        return SINEW_OK;
    if (!d->arm->v6) {
        if (!d->warned_v6_keys)
            sinew__jwarn(d->c, f[D_MASK] ? "mask" : "maskRange", SINEW_E_UNSUPPORTED,
                         "masks are DragonBones 6.0 data: a %s file plays as 5.x, without them (reported once per "
                         "file)", d->data->version);
        d->warned_v6_keys = true;
        return SINEW_OK;
    }
    if (D->type != SINEW_DISPLAY_IMAGE && D->type != SINEW_DISPLAY_SHAPE)
        return SINEW_OK; /* not read on other displays */
    TRY(sinew__jbool(d->c, f[D_MASK], "mask", false, &D->mask));
    TRY(sinew__jnum(d->c, f[D_MASKRANGE], "maskRange", 0.0, &D->mask_range));
    if (D->mask && D->mask_range > 1e6)
        sinew__jwarn(d->c, "maskRange", SINEW_E_RANGE,
                     "maskRange %g: the official 6.0 adapters take that many steps each time they assign the mask "
                     "(they hang on a huge one); sinew stops at the last display of the armature (docs/runtime.md)",
                     D->mask_range);
    return SINEW_OK;
}

static sinew_status build_display(db *d, const cJSON *v, sinew_model_display *D, uint32_t slot) {
    sinew_model_armature *A = d->arm;
    D->armature = SINEW_INVALID_INDEX;
    D->mesh = SINEW_INVALID_INDEX;
    D->path_data = SINEW_INVALID_INDEX;
    D->shape = SINEW_INVALID_INDEX;
    D->pivot_x = D->pivot_y = 0.5f;
    D->transform.scale_x = D->transform.scale_y = 1.0f;
    if (cJSON_IsNull(v)) { /* an empty entry: nothing is drawn */
        D->type = SINEW_DISPLAY_IMAGE;
        TRY(sinew__dbj_dup_str(d, "", &D->name));
        D->path = D->name;
        return SINEW_OK;
    }
    const cJSON *f[D_COUNT];
    TRY(sinew__jfields(d->c, v, &display_table, f));
    const char *name, *path, *type = "image";
    TRY(sinew__jstr(d->c, f[D_NAME], "name", "", &name));
    TRY(sinew__jstr(d->c, f[D_PATH], "path", "", &path));
    D->type = SINEW_DISPLAY_IMAGE;
    if (cJSON_IsNumber(f[D_TYPE])) {
        int64_t t;
        TRY(sinew__jint(d->c, f[D_TYPE], "type", 0, 0, 5, &t));
        static const sinew_display_type map[] = {SINEW_DISPLAY_IMAGE, SINEW_DISPLAY_ARMATURE, SINEW_DISPLAY_MESH,
                                                 SINEW_DISPLAY_BOUNDING_BOX, SINEW_DISPLAY_PATH, SINEW_DISPLAY_SHAPE};
        D->type = map[t];
    } else {
        TRY(sinew__jstr(d->c, f[D_TYPE], "type", "image", &type));
        if (strcmp(type, "image") == 0)
            D->type = SINEW_DISPLAY_IMAGE;
        else if (strcmp(type, "armature") == 0)
            D->type = SINEW_DISPLAY_ARMATURE;
        else if (strcmp(type, "mesh") == 0)
            D->type = SINEW_DISPLAY_MESH;
        else if (strcmp(type, "boundingBox") == 0)
            D->type = SINEW_DISPLAY_BOUNDING_BOX;
        else if (strcmp(type, "path") == 0)
            D->type = SINEW_DISPLAY_PATH;
        else if (strcmp(type, "shape") == 0)
            D->type = SINEW_DISPLAY_SHAPE;
        else
            sinew__jwarn(d->c, "type", SINEW_E_UNSUPPORTED, "unknown display type '%s' (treated as an image)", type);
    }
    TRY(sinew__dbj_dup_str(d, name, &D->name));
    if (path[0])
        TRY(sinew__dbj_dup_str(d, path, &D->path));
    else
        D->path = D->name;
    TRY(sinew__dbj_parse_transform(d, f[D_TRANSFORM], &D->transform, true));
    if (f[D_PIVOT] && !cJSON_IsNull(f[D_PIVOT])) {
        const cJSON *p[2];
        sinew__jpush_key(d->c, "pivot");
        TRY(sinew__jfields(d->c, f[D_PIVOT], &sinew__dbj_pivot_table, p));
        TRY(sinew__jfloat(d->c, p[0], "x", 0.0f, &D->pivot_x));
        TRY(sinew__jfloat(d->c, p[1], "y", 0.0f, &D->pivot_y));
        sinew__jpop(d->c);
    }
    switch (D->type) {
    case SINEW_DISPLAY_ARMATURE: {
        D->armature = sinew__namemap_get(&d->armature_names, D->path);
        if (D->armature == SINEW_INVALID_INDEX)
            sinew__jwarn(d->c, NULL, SINEW_E_REFERENCE, "child armature '%s' is not in this file (display stays empty)",
                         D->path);
        uint32_t a0 = d->action_count;
        TRY(sinew__dbj_parse_actions(d, f[D_ACTIONS], "actions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, slot));
        D->first_action = a0;
        D->action_count = d->action_count - a0;
        break;
    }
    case SINEW_DISPLAY_MESH:
        D->mesh = A->mesh_count++;
        if (f[D_GLUEWEIGHTS] || f[D_GLUEMESHES]) /* 5.5 glue meshes: the official parser reads past them */
            sinew__jwarn(d->c, f[D_GLUEWEIGHTS] ? "glueWeights" : "glueMeshes", SINEW_E_UNSUPPORTED,
                         "glue mesh data ('glueWeights', 'glueMeshes') is not played: the official runtime "
                         "ignores it too");
        if (f[D_SHARE]) {
            /* SHARE. The official parser (5.6/5.7) links a shared mesh by looking its source up
             * in slot "" of the skin, which never exists, so the link never happens and the mesh
             * keeps its geometry offset 0: the first thing the parser wrote into its int array,
             * which is the first armature's first mesh when that armature has one. The shared
             * mesh shows that geometry, unweighted, in its own slot (checked against the official
             * runtime: tests/fixtures/oracle/share_ske.json). `inheritDeform` is read and unused,
             * as officially. */
            sinew_model_mesh *M = &A->meshes[D->mesh];
            memset(M, 0, sizeof *M);
            if (d->first_int == FIRST_MESH)
                sinew__dbj_share_geometry(d, M);
            else if (d->first_int == FIRST_NONE && d->first_node)
                d->share_wait[d->share_wait_count++] = M; /* that mesh is built later */
            else
                return sinew__jfail_key(d->c, "share", SINEW_E_UNSUPPORTED,
                                        "a shared mesh here would show data the official runtime reads from its "
                                        "first int array entry, which is not a mesh (not supported)");
            break;
        }
        TRY(build_mesh(d, f, &A->meshes[D->mesh]));
        if (d->first_int == FIRST_NONE && v == d->first_node) {
            d->first_int = FIRST_MESH;
            d->first_mesh = &A->meshes[D->mesh];
        }
        break;
    case SINEW_DISPLAY_BOUNDING_BOX:
        TRY(build_bounding_box(d, f, D));
        break;
    case SINEW_DISPLAY_PATH:
        D->path_data = A->path_count++;
        TRY(build_path(d, f, &A->paths[D->path_data]));
        break;
    case SINEW_DISPLAY_SHAPE:
        TRY(build_shape(d, f, D));
        break;
    case SINEW_DISPLAY_IMAGE:
        break;
    }
    return display_mask(d, f, D);
}

sinew_status sinew__dbj_build_skins(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "skin", &first, &n));
    /* count skin slots, displays and meshes */
    uint64_t nss = 0, nd = 0, nm = 0, np = 0, nsh = 0;
    for (const cJSON *s = first; s; s = s->next) {
        const cJSON *slots = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "slot") : NULL;
        if (!cJSON_IsArray(slots))
            continue;
        for (const cJSON *ss = slots->child; ss; ss = ss->next) {
            nss++;
            const cJSON *ds = cJSON_IsObject(ss) ? cJSON_GetObjectItemCaseSensitive(ss, "display") : NULL;
            if (!cJSON_IsArray(ds))
                continue;
            for (const cJSON *dd = ds->child; dd; dd = dd->next) {
                nd++;
                const cJSON *t = cJSON_IsObject(dd) ? cJSON_GetObjectItemCaseSensitive(dd, "type") : NULL;
                if ((cJSON_IsString(t) && strcmp(t->valuestring, "mesh") == 0) ||
                    (cJSON_IsNumber(t) && t->valuedouble == 2.0))
                    nm++;
                if ((cJSON_IsString(t) && strcmp(t->valuestring, "path") == 0) ||
                    (cJSON_IsNumber(t) && t->valuedouble == 4.0))
                    np++;
                if ((cJSON_IsString(t) && strcmp(t->valuestring, "shape") == 0) ||
                    (cJSON_IsNumber(t) && t->valuedouble == 5.0)) {
                    nm++; /* its geometry */
                    nsh++;
                }
            }
        }
    }
    if (nss > UINT32_MAX / 2 || nd > UINT32_MAX / 2)
        return sinew__jfail_key(d->c, "skin", SINEW_E_LIMIT, "too many skin entries");
    A->skin_count = n;
    ALLOC(A->skins, n);
    ALLOC(A->skin_slots, nss);
    ALLOC(A->displays, nd);
    ALLOC(A->meshes, nm);
    A->mesh_count = 0;
    ALLOC(A->paths, np);
    A->path_count = 0;
    ALLOC(A->shapes, nsh);
    A->shape_count = 0;
    TRY(sinew__dbj_nm_init(d, &d->skins, n));
    if (d->first_int == FIRST_NONE)
        sinew__dbj_find_first_int(d, first);
    d->share_wait = sinew__dbj_scratch_array(d, nm, sizeof *d->share_wait);
    d->share_wait_count = 0;
    if (!d->share_wait)
        return SINEW_E_NOMEM;
    d->slot_display_max = sinew__dbj_scratch_array(d, A->slot_count, sizeof *d->slot_display_max);
    d->pose_of_bone = sinew__dbj_scratch_array(d, A->bone_count, sizeof *d->pose_of_bone);
    uint8_t *seen = sinew__dbj_scratch_array(d, A->slot_count, 1);
    if (!d->slot_display_max || !d->pose_of_bone || !seen)
        return SINEW_E_NOMEM;
    /* the default skin ("") goes first */
    uint32_t def = SINEW_INVALID_INDEX, i = 0;
    for (const cJSON *s = first; s; s = s->next, i++) {
        const cJSON *nv = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "name") : NULL;
        if (!nv || cJSON_IsNull(nv) || (cJSON_IsString(nv) && nv->valuestring[0] == '\0')) {
            def = i;
            break;
        }
    }
    sinew__jpush_key(d->c, "skin");
    uint32_t out = 0, ss_used = 0, d_used = 0;
    for (uint32_t pass = 0; pass < 2; pass++) {
        i = 0;
        for (const cJSON *s = first; s; s = s->next, i++) {
            if ((pass == 0) != (i == def))
                continue;
            sinew_model_skin *K = &A->skins[out];
            K->source_index = i;
            const cJSON *f[3];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, s, &sinew__dbj_skin_table, f));
            const char *name;
            TRY(sinew__jstr(d->c, f[0], "name", "", &name));
            TRY(sinew__dbj_dup_str(d, name, &K->name));
            if (sinew__namemap_put(&d->skins, K->name, out) != SINEW_INVALID_INDEX)
                return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "skin '%s' is defined twice", name);
            const cJSON *sfirst;
            uint32_t sn;
            TRY(sinew__jarray(d->c, f[1], "slot", &sfirst, &sn));
            memset(seen, 0, A->slot_count);
            K->first_slot = ss_used;
            sinew__jpush_key(d->c, "slot");
            uint32_t j = 0;
            for (const cJSON *ss = sfirst; ss; ss = ss->next, j++) {
                const cJSON *g[5];
                sinew__jpush_index(d->c, j);
                TRY(sinew__jfields(d->c, ss, &sinew__dbj_skin_slot_table, g));
                const char *sname;
                TRY(sinew__jstr(d->c, g[0], "name", "", &sname));
                uint32_t slot = sinew__namemap_get(&d->slots, sname);
                if (slot == SINEW_INVALID_INDEX)
                    return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "skin '%s': slot '%s' does not exist", name,
                                            sname);
                if (seen[slot])
                    return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "skin '%s' lists slot '%s' twice", name, sname);
                seen[slot] = 1;
                sinew_model_skin_slot *KS = &A->skin_slots[ss_used++];
                KS->slot = slot;
                KS->first_display = d_used;
                const cJSON *dfirst;
                uint32_t dn;
                TRY(sinew__jarray(d->c, g[1], "display", &dfirst, &dn));
                sinew__jpush_key(d->c, "display");
                uint32_t k = 0;
                for (const cJSON *dd = dfirst; dd; dd = dd->next, k++) {
                    sinew__jpush_index(d->c, k);
                    TRY(build_display(d, dd, &A->displays[d_used++], slot));
                    sinew__jpop(d->c);
                }
                sinew__jpop(d->c);
                KS->display_count = dn;
                if (dn > d->slot_display_max[slot])
                    d->slot_display_max[slot] = dn;
                sinew__jpop(d->c);
            }
            sinew__jpop(d->c);
            K->slot_count = ss_used - K->first_slot;
            sinew__jpop(d->c);
            out++;
        }
    }
    sinew__jpop(d->c);
    A->skin_slot_count = ss_used;
    A->display_count = d_used;
    for (uint32_t k = 0; k < d->share_wait_count; ++k) /* first_node was built: a mesh */
        sinew__dbj_share_geometry(d, d->share_wait[k]);
    d->share_wait_count = 0;
    return SINEW_OK;
}

/* displayIndex must be -1 or name an existing display (0 is allowed for a slot without any). */
bool sinew__dbj_display_index_ok(db *d, uint32_t slot, double di) {
    uint32_t max = d->slot_display_max ? d->slot_display_max[slot] : 0;
    return di >= -1.0 && (di < (double)max || (max == 0 && di == 0.0));
}
