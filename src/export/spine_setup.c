/* Spine: the setup pose (bones, slots, IK constraints) and the skins with their attachments.
 * Part of the Spine writer (export/spine_internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/spine_internal.h"

/* ---- setup: bones, slots, IK ------------------------------------------------------------------ */

void sinew__sp_write_bones(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *bones = sinew__sp_add_arr(c, root, "bones");
    for (uint32_t i = 0; i < a->bone_count; ++i) {
        const sinew_model_bone *b = &a->bones[i];
        cJSON *o = sinew__sp_add_obj(c, bones, NULL);
        sinew__sp_str(c, o, "name", b->name);
        if (b->parent != SINEW_INVALID_INDEX)
            sinew__sp_str(c, o, "parent", a->bones[b->parent].name);
        double s[6];
        if (b->has_setup_d)
            memcpy(s, b->setup_d, sizeof s);
        else {
            s[0] = b->setup.x;
            s[1] = b->setup.y;
            s[2] = b->setup.rotation;
            s[3] = b->setup.skew;
            s[4] = b->setup.scale_x;
            s[5] = b->setup.scale_y;
        }
        if (b->length != 0.0f)
            sinew__sp_num(c, o, "length", b->length);
        if (c->bone_baked && c->bone_baked[i]) { /* the IK's solution in the setup pose */
            const double *l = c->bone_setup + 6 * (size_t)i;
            sinew__sp_num(c, o, "x", l[0]);
            sinew__sp_num(c, o, "y", l[1]);
            sinew__sp_num(c, o, "rotation", l[2]);
            sinew__sp_num(c, o, "scaleX", l[3]);
            sinew__sp_num(c, o, "scaleY", l[4]);
            sinew__sp_num(c, o, "shearY", l[5]);
            continue;
        }
        sinew__sp_num(c, o, "x", s[0]);
        sinew__sp_num(c, o, "y", -s[1]);
        sinew__sp_num(c, o, "rotation", -s[2] * RAD2DEG);
        if (s[4] != 1.0)
            sinew__sp_num(c, o, "scaleX", s[4]);
        if (s[5] != 1.0)
            sinew__sp_num(c, o, "scaleY", s[5]);
        if (s[3] != 0.0)
            sinew__sp_num(c, o, "shearY", -s[3] * RAD2DEG);
        const char *inh = sinew__sp_inherit_name(b);
        if (strcmp(inh, "normal") != 0)
            sinew__sp_str(c, o, "inherit", inh);
        if (!b->inherit_translation)
            sinew__sp_warn(c, "bone '%s': inheritTranslation false is not carried (Spine bones always inherit translation)",
                 b->name);
        if (b->is_surface)
            sinew__sp_warn(c, "bone '%s': surface written as a plain bone (Spine has no surfaces; what it deforms is placed "
                    "wrongly)",
                 b->name);
    }
}

static const char *blend_name(sp_ctx *c, const sinew_model_slot *s) {
    switch (s->blend) {
    case SINEW_BLEND_NORMAL:
        return NULL;
    case SINEW_BLEND_ADD:
        return "additive";
    case SINEW_BLEND_MULTIPLY:
        return "multiply";
    case SINEW_BLEND_SCREEN:
        return "screen";
    default:
        sinew__sp_warn(c, "slot '%s': blend mode '%s' written as normal (Spine has normal, additive, multiply, screen)",
             s->name, sinew_blend_mode_name(s->blend));
        return NULL;
    }
}

static int byte_of(double v) {
    if (!(v > 0.0))
        return 0;
    if (v >= 1.0)
        return 255;
    return (int)floor(v * 255.0 + 0.5);
}

void sinew__sp_color_hex(double r, double g, double b, double a, char out[9]) {
    snprintf(out, 9, "%02x%02x%02x%02x", byte_of(r), byte_of(g), byte_of(b), byte_of(a));
}

static bool color_has_offset(const sinew_color_transform *t) {
    return t->a_add != 0.0f || t->r_add != 0.0f || t->g_add != 0.0f || t->b_add != 0.0f;
}

/* The attachment key of display `idx` of slot `s` (NULL when the slot has no such display). */
const char *sinew__sp_att_key(const sp_ctx *c, uint32_t s, int32_t idx) {
    if (idx < 0 || (uint32_t)idx >= c->key_count[s])
        return NULL;
    return c->keys[c->key_first[s] + (uint32_t)idx];
}

bool sinew__sp_drawable(sinew_display_type t) {
    return t == SINEW_DISPLAY_IMAGE || t == SINEW_DISPLAY_MESH || t == SINEW_DISPLAY_BOUNDING_BOX;
}

/* The display of slot `s` at `idx` in the default skin (or the first skin listing the slot). */
const sinew_model_display *sinew__sp_skin_display(const sp_ctx *c, uint32_t s, int32_t idx) {
    const sinew_model_armature *a = c->arm;
    for (uint32_t k = 0; k < a->skin_count; ++k) {
        const sinew_model_skin *sk = &a->skins[k];
        for (uint32_t j = 0; j < sk->slot_count; ++j) {
            const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
            if (ss->slot != s)
                continue;
            if (idx < 0 || (uint32_t)idx >= ss->display_count)
                return NULL;
            return &a->displays[ss->first_display + (uint32_t)idx];
        }
    }
    return NULL;
}

void sinew__sp_write_slots(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *slots = sinew__sp_add_arr(c, root, "slots");
    for (uint32_t i = 0; i < a->slot_count; ++i) {
        const sinew_model_slot *s = &a->slots[i];
        cJSON *o = sinew__sp_add_obj(c, slots, NULL);
        sinew__sp_str(c, o, "name", s->name);
        if (s->parent < a->bone_count)
            sinew__sp_str(c, o, "bone", a->bones[s->parent].name);
        const sinew_color_transform *t = &s->color;
        if (t->r_mul != 1.0f || t->g_mul != 1.0f || t->b_mul != 1.0f || t->a_mul != 1.0f) {
            char hex[9];
            sinew__sp_color_hex(t->r_mul, t->g_mul, t->b_mul, t->a_mul, hex);
            sinew__sp_str(c, o, "color", hex);
        }
        if (color_has_offset(t))
            sinew__sp_warn(c, "slot '%s': colour offsets dropped (Spine slot colours only multiply)", s->name);
        const sinew_model_display *dd = sinew__sp_skin_display(c, i, s->display_index);
        const char *key = sinew__sp_att_key(c, i, s->display_index);
        if (dd && key && sinew__sp_drawable(dd->type))
            sinew__sp_str(c, o, "attachment", key);
        const char *bl = blend_name(c, s);
        if (bl)
            sinew__sp_str(c, o, "blend", bl);
    }
}

/* Whether bone b's local transform is not a similarity (a non-uniform scale or a skew): in its
 * setup (an == NULL) or by a key of animation an. */
bool sinew__sp_nonuniform_scale(const sinew_model_armature *a, uint32_t b, const sinew_model_animation *an) {
    const sinew_model_bone *bb = &a->bones[b];
    if (!an)
        return fabsf(bb->setup.scale_x - bb->setup.scale_y) > 1e-6f || fabsf(bb->setup.skew) > 1e-6f;
    for (uint32_t t = 0; t < an->timeline_count; ++t) {
        const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
        if (T->target != b)
            continue;
        int sc = T->type == SINEW_TL_BONE_ALL ? 4 : T->type == SINEW_TL_BONE_SCALE ? 0 : -1;
        int sk = T->type == SINEW_TL_BONE_ALL ? 3 : T->type == SINEW_TL_BONE_ROTATE ? 1 : -1;
        for (uint32_t k = 0; k < T->key_count; ++k) {
            const float *v = T->values + (size_t)k * T->values_per_key;
            if (sc >= 0 && fabsf(bb->setup.scale_x * v[sc] - bb->setup.scale_y * v[sc + 1]) > 1e-6f)
                return true;
            if (sk >= 0 && fabsf(v[sk]) > 1e-6f)
                return true;
        }
    }
    return false;
}

/* DragonBones' inheritScale false adds the parent's world rotation (the angle of its x axis) to
 * the bone's, inheritRotation false subtracts it; Spine's noScale and noRotationOrReflection follow
 * the parent's transformed axes instead. The two agree while every bone above is a similarity. */
void sinew__sp_warn_inherit(sp_ctx *c, const sinew_model_animation *an) {
    const sinew_model_armature *a = c->arm;
    for (uint32_t i = 0; i < a->bone_count; ++i) {
        const char *mode = sinew__sp_inherit_name(&a->bones[i]);
        if (strcmp(mode, "normal") == 0 || strcmp(mode, "onlyTranslation") == 0 || (c->bone_baked && c->bone_baked[i]))
            continue;
        for (uint32_t p = a->bones[i].parent; p != SINEW_INVALID_INDEX; p = a->bones[p].parent)
            if (sinew__sp_nonuniform_scale(a, p, an) && (an == NULL || !sinew__sp_nonuniform_scale(a, p, NULL))) {
                sinew__sp_warn(c, "bone '%s': its inherit mode (%s) under the non-uniform scale or skew of bone '%s' "
                        "follows the parent's axes in Spine, its rotation in DragonBones; the bone may turn "
                        "differently",
                     a->bones[i].name, mode, a->bones[p].name);
                break;
            }
    }
}

/* Spine's IK solver works from the chain's local scales, DragonBones' from world positions: under
 * a non-uniform scale of the two-bone chain's root or above the chain they place it differently.
 * Warns (armature-wide for the setup pose, else per animation). */
void sinew__sp_warn_ik_scale(sp_ctx *c, const sinew_model_animation *an) {
    const sinew_model_armature *a = c->arm;
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (c->ik_baked && c->ik_baked[i])
            continue;
        uint32_t first = k->root != k->bone ? k->root : a->bones[k->root].parent;
        for (uint32_t p = first; p != SINEW_INVALID_INDEX; p = a->bones[p].parent)
            if (sinew__sp_nonuniform_scale(a, p, an) && (an == NULL || !sinew__sp_nonuniform_scale(a, p, NULL))) {
                sinew__sp_warn(c, "IK '%s': under the non-uniform scale or skew of bone '%s' Spine's IK solver places the chain "
                        "differently from DragonBones'",
                     k->name, a->bones[p].name);
                break;
            }
    }
}

void sinew__sp_write_ik(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    if (!a->ik_count)
        return;
    cJSON *ik = sinew__sp_add_arr(c, root, "ik");
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (c->ik_baked && c->ik_baked[i])
            continue;
        cJSON *o = sinew__sp_add_obj(c, ik, NULL);
        sinew__sp_str(c, o, "name", k->name);
        sinew__sp_num(c, o, "order", i);
        cJSON *bones = sinew__sp_add_arr(c, o, "bones");
        if (k->chain >= 1 && a->bones[k->bone].parent != SINEW_INVALID_INDEX) {
            cJSON *n = cJSON_CreateString(a->bones[a->bones[k->bone].parent].name);
            if (!n || !cJSON_AddItemToArray(bones, n))
                c->nomem = true;
        }
        cJSON *n = cJSON_CreateString(a->bones[k->bone].name);
        if (!n || !cJSON_AddItemToArray(bones, n))
            c->nomem = true;
        sinew__sp_str(c, o, "target", a->bones[k->target].name);
        if (k->weight != 1.0f)
            sinew__sp_num(c, o, "mix", k->weight);
        /* the mirror turns a clockwise bend into a counter-clockwise one */
        if (k->bend_positive)
            cJSON_AddFalseToObject(o, "bendPositive");
        if (k->scale)
            sinew__sp_warn(c, "IK '%s': 'scale' is not carried", k->name);
        if (k->chain >= 1 && k->root != k->bone) { /* only when baking failed */
            const sinew_model_bone *rb = &a->bones[k->root], *bb = &a->bones[k->bone];
            const sinew_model_bone *off = strcmp(sinew__sp_inherit_name(rb), "normal") != 0 ? rb
                                          : strcmp(sinew__sp_inherit_name(bb), "normal") != 0 ? bb : NULL;
            if (off)
                sinew__sp_warn(c, "IK '%s': Spine applies a two-bone IK only to bones that inherit rotation and scale (bone "
                        "'%s' does not): the constraint has no effect in Spine",
                     k->name, off->name);
        }
    }
    if (a->path_constraint_count)
        sinew__sp_warn(c, "%u path constraint(s) dropped (not carried to Spine)", a->path_constraint_count);
    sinew__sp_warn_ik_scale(c, NULL);
    sinew__sp_warn_inherit(c, NULL);
}

/* ---- skins and attachments -------------------------------------------------------------------- */

/* Page-space UVs written as Spine region UVs: a DragonBones region stored rotated is turned
 * clockwise, Spine's `rotate: 90` counter-clockwise, so the region-relative (u, v) is flipped. */
static void push_uv(sp_ctx *c, cJSON *uvs, const sinew_model_region *r, double u, double v) {
    if (r->rotated) {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    sinew__sp_push_num(c, uvs, u);
    sinew__sp_push_num(c, uvs, v);
}

static void push_triangles(sp_ctx *c, cJSON *o, const uint32_t *tri, uint32_t n) {
    cJSON *t = sinew__sp_add_arr(c, o, "triangles");
    for (uint32_t i = 0; i < n; ++i)
        sinew__sp_push_num(c, t, tri[i]);
}

/* Pushes the `count` points xy of display dd (in its own space) to arr in the slot's space, y up as
 * in Spine. */
static void push_display_points(sp_ctx *c, cJSON *arr, const sinew_model_display *dd, const float *xy, uint32_t count) {
    double m[6];
    sinew__sp_display_mat(dd, m);
    for (uint32_t i = 0; i < count; ++i) {
        double x, y;
        sinew__sp_mat_apply(m, xy[2 * i], xy[2 * i + 1], &x, &y);
        sinew__sp_push_num(c, arr, x);
        sinew__sp_push_num(c, arr, -y);
    }
}

/* An image: a Spine region attachment centred on the drawn (trimmed) rectangle, or a 4-vertex
 * mesh when the display transform has a skew (region attachments cannot shear). */
static void write_image(sp_ctx *c, cJSON *slot_obj, const char *key, uint32_t s, const sinew_model_display *dd) {
    const sinew_model_region *r = sinew__sp_region_of(c, dd);
    if (!r) {
        sinew__sp_warn(c, "slot '%s': image '%s' has no region in the atlas; dropped", c->arm->slots[s].name, sinew__sp_tex_key(dd));
        return;
    }
    double ts = sinew__sp_texture_scale(c, r);
    double dw = (r->rotated ? r->height : r->width) * ts, dh = (r->rotated ? r->width : r->height) * ts;
    double fw = r->has_frame ? r->frame_width : (r->rotated ? r->height : r->width);
    double fh = r->has_frame ? r->frame_height : (r->rotated ? r->width : r->height);
    double pvx = (dd->pivot_x * fw + (r->has_frame ? r->frame_x : 0.0)) * ts;
    double pvy = (dd->pivot_y * fh + (r->has_frame ? r->frame_y : 0.0)) * ts;
    double m[6];
    sinew__sp_display_mat(dd, m);
    cJSON *o = sinew__sp_add_obj(c, slot_obj, key);
    if (strcmp(key, sinew__sp_tex_key(dd)) != 0)
        sinew__sp_str(c, o, "path", sinew__sp_tex_key(dd));
    if (fabs(dd->transform.skew) < 1e-7) {
        double cx, cy;
        sinew__sp_mat_apply(m, -pvx + dw * 0.5, -pvy + dh * 0.5, &cx, &cy);
        sinew__sp_num(c, o, "x", cx);
        sinew__sp_num(c, o, "y", -cy);
        double rot = -dd->transform.rotation * RAD2DEG;
        if (r->rotated)
            rot += 180.0; /* see push_uv: the content is stored the other way round */
        sinew__sp_num(c, o, "rotation", rot);
        if (dd->transform.scale_x != 1.0f)
            sinew__sp_num(c, o, "scaleX", dd->transform.scale_x);
        if (dd->transform.scale_y != 1.0f)
            sinew__sp_num(c, o, "scaleY", dd->transform.scale_y);
        sinew__sp_num(c, o, "width", dw);
        sinew__sp_num(c, o, "height", dh);
        return;
    }
    sinew__sp_str(c, o, "type", "mesh");
    cJSON *uvs = sinew__sp_add_arr(c, o, "uvs");
    cJSON *verts = sinew__sp_add_arr(c, o, "vertices");
    static const double cu[4] = {0, 1, 1, 0}, cv[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; ++i) {
        double x, y;
        sinew__sp_mat_apply(m, -pvx + cu[i] * dw, -pvy + cv[i] * dh, &x, &y);
        sinew__sp_push_num(c, verts, x);
        sinew__sp_push_num(c, verts, -y);
        push_uv(c, uvs, r, cu[i], cv[i]);
    }
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    push_triangles(c, o, quad, 6);
    sinew__sp_num(c, o, "hull", 4);
}

static void write_mesh(sp_ctx *c, cJSON *slot_obj, const char *key, uint32_t s, const sinew_model_display *dd) {
    const sinew_model_region *r = sinew__sp_region_of(c, dd);
    if (!r) {
        sinew__sp_warn(c, "slot '%s': mesh '%s' has no region in the atlas; dropped", c->arm->slots[s].name, sinew__sp_tex_key(dd));
        return;
    }
    if (dd->mesh >= c->arm->mesh_count)
        return;
    const sinew_model_mesh *me = &c->arm->meshes[dd->mesh];
    cJSON *o = sinew__sp_add_obj(c, slot_obj, key);
    sinew__sp_str(c, o, "type", "mesh");
    if (strcmp(key, sinew__sp_tex_key(dd)) != 0)
        sinew__sp_str(c, o, "path", sinew__sp_tex_key(dd));
    cJSON *uvs = sinew__sp_add_arr(c, o, "uvs");
    for (uint32_t i = 0; i < me->vertex_count; ++i)
        push_uv(c, uvs, r, me->uvs[2 * i], me->uvs[2 * i + 1]);
    push_triangles(c, o, me->triangles, 3 * me->triangle_count);
    cJSON *verts = sinew__sp_add_arr(c, o, "vertices");
    if (!me->weighted) {
        push_display_points(c, verts, dd, me->vertices, me->vertex_count);
    } else {
        for (uint32_t i = 0; i < me->vertex_count; ++i) {
            uint32_t f = me->vertex_first_influence[i], l = me->vertex_first_influence[i + 1];
            sinew__sp_push_num(c, verts, l - f);
            for (uint32_t k = f; k < l; ++k) {
                sinew__sp_push_num(c, verts, me->influence_bone[k]);
                sinew__sp_push_num(c, verts, me->influence_local[2 * k]);
                sinew__sp_push_num(c, verts, -me->influence_local[2 * k + 1]);
                sinew__sp_push_num(c, verts, me->influence_weight[k]);
            }
        }
    }
    sinew__sp_num(c, o, "hull", me->vertex_count);
    if (me->width > 0.0f && me->height > 0.0f) {
        sinew__sp_num(c, o, "width", me->width);
        sinew__sp_num(c, o, "height", me->height);
    }
}

static void write_bbox(sp_ctx *c, cJSON *slot_obj, const char *key, const sinew_model_display *dd) {
    cJSON *o = sinew__sp_add_obj(c, slot_obj, key);
    sinew__sp_str(c, o, "type", "boundingbox");
    sinew__sp_num(c, o, "vertexCount", dd->bbox_vertex_count);
    push_display_points(c, sinew__sp_add_arr(c, o, "vertices"), dd, dd->bbox_vertices, dd->bbox_vertex_count);
}

/* Attachment keys: per slot, display index i is keyed by the name of the display at i in the
 * first skin that lists the slot (the default skin first); a name met twice gets "#i". Spine's
 * attachment timeline names keys, DragonBones' display timeline indices, so every skin uses the
 * same key for the same index. */
bool sinew__sp_build_keys(sp_ctx *c) {
    const sinew_model_armature *a = c->arm;
    c->key_first = sinew__calloc(c->a, a->slot_count + 1, sizeof *c->key_first);
    c->key_count = sinew__calloc(c->a, a->slot_count + 1, sizeof *c->key_count);
    if (!c->key_first || !c->key_count)
        return false;
    uint32_t total = 0;
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        uint32_t n = 0;
        for (uint32_t j = 0; j < a->skin_slot_count; ++j)
            if (a->skin_slots[j].slot == s && a->skin_slots[j].display_count > n)
                n = a->skin_slots[j].display_count;
        c->key_first[s] = total;
        c->key_count[s] = n;
        total += n;
    }
    c->keys = sinew__calloc(c->a, total + 1, sizeof *c->keys);
    if (!c->keys)
        return false;
    c->key_total = total;
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        for (uint32_t i = 0; i < c->key_count[s]; ++i) {
            const char *nm = NULL;
            for (uint32_t k = 0; k < a->skin_count && !nm; ++k) {
                const sinew_model_skin *sk = &a->skins[k];
                for (uint32_t j = 0; j < sk->slot_count; ++j) {
                    const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
                    if (ss->slot == s && i < ss->display_count) {
                        nm = a->displays[ss->first_display + i].name;
                        break;
                    }
                }
            }
            char buf[512];
            snprintf(buf, sizeof buf, "%s", nm && nm[0] ? nm : "display");
            for (uint32_t p = 0; p < i; ++p)
                if (strcmp(c->keys[c->key_first[s] + p], buf) == 0) {
                    snprintf(buf, sizeof buf, "%s#%u", nm && nm[0] ? nm : "display", i);
                    break;
                }
            size_t len = strlen(buf) + 1;
            if ((c->keys[c->key_first[s] + i] = sinew__alloc(c->a, len)) != NULL)
                memcpy(c->keys[c->key_first[s] + i], buf, len);
            if (!c->keys[c->key_first[s] + i])
                return false;
        }
    }
    return true;
}

void sinew__sp_write_skins(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *skins = sinew__sp_add_arr(c, root, "skins");
    for (uint32_t k = 0; k < a->skin_count; ++k) {
        const sinew_model_skin *sk = &a->skins[k];
        cJSON *so = sinew__sp_add_obj(c, skins, NULL);
        sinew__sp_str(c, so, "name", sk->name[0] ? sk->name : "default");
        cJSON *atts = sinew__sp_add_obj(c, so, "attachments");
        for (uint32_t j = 0; j < sk->slot_count; ++j) {
            const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
            const char *slot_name = a->slots[ss->slot].name;
            cJSON *slot_obj = NULL;
            for (uint32_t i = 0; i < ss->display_count; ++i) {
                const sinew_model_display *dd = &a->displays[ss->first_display + i];
                const char *key = sinew__sp_att_key(c, ss->slot, (int32_t)i);
                if (!key)
                    continue;
                if (!sinew__sp_drawable(dd->type)) {
                    sinew__sp_warn(c, "slot '%s': %s display '%s' dropped (not carried to Spine)", slot_name,
                         dd->type == SINEW_DISPLAY_ARMATURE ? "child armature" : "path", dd->name);
                    continue;
                }
                if (!slot_obj && !(slot_obj = sinew__sp_add_obj(c, atts, slot_name)))
                    return;
                if (dd->type == SINEW_DISPLAY_IMAGE)
                    write_image(c, slot_obj, key, ss->slot, dd);
                else if (dd->type == SINEW_DISPLAY_MESH)
                    write_mesh(c, slot_obj, key, ss->slot, dd);
                else
                    write_bbox(c, slot_obj, key, dd);
            }
        }
    }
}
