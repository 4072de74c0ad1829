#define _POSIX_C_SOURCE 200809L
/*
 * sinew_convert_spine (include/sinew/convert.h): one armature of a DragonBones JSON file to a
 * Spine 4.2 skeleton (`NAME.json`) and a Spine atlas (`NAME.atlas`) over the DragonBones atlas
 * pages. docs/convert.md has the table of what maps to what and the warnings.
 *
 * Bones Spine would move otherwise (IK chains its solver places differently, inherit flags its
 * inherit modes do not reproduce) are baked: sinew plays the animation, and their local transforms
 * are written as keys (bake_setup, bake_animation).
 *
 * Coordinates. DragonBones is y-down, Spine y-up: every position is written with y negated and
 * every angle negated, which is the DragonBones pose seen through the mirror y -> -y (a Spine
 * runtime with `Skeleton.yDown` set shows it exactly as DragonBones does). A DragonBones local
 * transform (rotation r = skY, skew = skX - skY) has the x axis turned by r and the y axis by
 * r + skew; through the mirror that is Spine rotation -r, shearX 0, shearY -skew.
 *
 * Timelines. DragonBones keys sit on the integer frame grid the official parser builds (the
 * model's frame_start / frame_span); the last key tweens back to the first when the animation
 * loops. Spine interpolates each key linearly or holds it (stepped). A DragonBones `curve` is
 * played from easing samples joined by straight lines, so it is written as one linear Spine key
 * per sample: exact. A quad tweenEasing is sampled into linear keys dense enough that the
 * interpolation error stays under SAMPLE_TOL in the channel's own unit.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/atomic.h"
#include "base/error.h"
#include "base/json_print.h"
#include "base/num.h"
#include "export/export_internal.h"
#include "format/png_header.h"
#include "format/xml_rig.h"
#include "model/model.h"
#include "sinew/convert.h"
#include "sinew/data.h"
#include "sinew/instance.h"

#define SP_PI 3.141592653589793
#define RAD2DEG (180.0 / SP_PI)

typedef struct sp_ctx {
    const sinew_convert_options *o;
    const sinew_allocator *a;   /* the load options' allocator: every buffer but cJSON's tree */
    const char *input;
    const struct sinew_data *data;
    const sinew_model_armature *arm;
    const struct sinew_atlas *atlas;
    const sinew_model_animation *anim; /* for warnings */
    double time_scale;  /* the animation's `scale`: key times are multiplied by it */
    bool *ik_baked;     /* per IK: solved by sinew and written as keys instead (see bake_*) */
    bool *bone_baked;   /* per bone: in a baked IK chain */
    double *bone_setup; /* per baked bone: its Spine setup (x y rotation scaleX scaleY shearY) */
    uint32_t warnings;
    bool nomem;
    char **keys;        /* attachment key per display index of each slot (slot-major) */
    uint32_t *key_first; /* slot -> first entry in keys */
    uint32_t *key_count;
    uint32_t key_total;  /* entries of keys */
} sp_ctx;

SINEW_PRINTF(2, 3)
static void warn(sp_ctx *c, const char *fmt, ...) {
    c->warnings++;
    if (!c->o)
        return;
    va_list ap;
    va_start(ap, fmt);
    sinew__writer_warning(c->o->log, c->o->log_user, c->input, c->arm ? c->arm->name : "", c->anim ? c->anim->name : NULL,
                          fmt, ap);
    va_end(ap);
}

/* ---- cJSON helpers ---------------------------------------------------------------------------- */

static cJSON *add_obj(sp_ctx *c, cJSON *parent, const char *key) {
    cJSON *o = cJSON_CreateObject();
    if (!o || (key ? !cJSON_AddItemToObject(parent, key, o) : !cJSON_AddItemToArray(parent, o))) {
        cJSON_Delete(o);
        c->nomem = true;
        return NULL;
    }
    return o;
}

static cJSON *add_arr(sp_ctx *c, cJSON *parent, const char *key) {
    cJSON *o = cJSON_CreateArray();
    if (!o || !cJSON_AddItemToObject(parent, key, o)) {
        cJSON_Delete(o);
        c->nomem = true;
        return NULL;
    }
    return o;
}

/* Rounds away float noise: 7 significant digits is what the float model holds anyway, but the
 * positions are computed in double, so keep 10. */
static double tidy(double v) {
    if (v == 0.0 || !isfinite(v))
        return 0.0;
    return sinew__num_round(v, 10);
}

static void num(sp_ctx *c, cJSON *o, const char *key, double v) {
    if (!o)
        return;
    if (!cJSON_AddNumberToObject(o, key, tidy(v)))
        c->nomem = true;
}

/* Key times are written exactly (spine-core then keeps them as float32), stretched by the
 * animation's `scale` (the official runtime plays an animation at 1 / scale). */
static void num_time(sp_ctx *c, cJSON *o, double t) {
    if (!o || t == 0.0)
        return;
    t *= c->time_scale;
    if (!cJSON_AddNumberToObject(o, "time", t))
        c->nomem = true;
}

static void str(sp_ctx *c, cJSON *o, const char *key, const char *v) {
    if (!o)
        return;
    if (!cJSON_AddStringToObject(o, key, v))
        c->nomem = true;
}

static void push_num(sp_ctx *c, cJSON *a, double v) {
    if (!a)
        return;
    cJSON *n = cJSON_CreateNumber(tidy(v));
    if (!n || !cJSON_AddItemToArray(a, n)) {
        cJSON_Delete(n);
        c->nomem = true;
    }
}

/* ---- transforms ------------------------------------------------------------------------------- */

/* The DragonBones matrix of a decomposed transform: x' = a x + c y + tx, y' = b x + d y + ty. */
static void tf_mat(double r, double skew, double sx, double sy, double x, double y, double m[6]) {
    m[0] = cos(r) * sx;
    m[1] = sin(r) * sx;
    m[2] = -sin(r + skew) * sy;
    m[3] = cos(r + skew) * sy;
    m[4] = x;
    m[5] = y;
}

static void mat_apply(const double m[6], double x, double y, double *ox, double *oy) {
    *ox = m[0] * x + m[2] * y + m[4];
    *oy = m[1] * x + m[3] * y + m[5];
}

static void display_mat(const sinew_model_display *dd, double m[6]) {
    const sinew_transform *t = &dd->transform;
    tf_mat(t->rotation, t->skew, t->scale_x, t->scale_y, t->x, t->y, m);
}

static const char *inherit_name(const sinew_model_bone *b) {
    if (b->inherit_rotation && b->inherit_scale)
        return "normal";
    if (!b->inherit_rotation && !b->inherit_scale)
        return "onlyTranslation";
    if (!b->inherit_rotation)
        return "noRotationOrReflection";
    return b->inherit_reflection ? "noScale" : "noScaleOrReflection";
}

/* ---- atlas ----------------------------------------------------------------------------------- */

/* The texture key of an image or mesh display (its path, else its name). */
static const char *tex_key(const sinew_model_display *dd) { return dd->path ? dd->path : dd->name; }

static const sinew_model_region *region_of(const sp_ctx *c, const sinew_model_display *dd) {
    uint32_t ri = sinew__atlas_find_region(c->atlas, tex_key(dd));
    return ri == SINEW_INVALID_INDEX ? NULL : &c->atlas->regions[ri];
}

static float texture_scale(const sp_ctx *c, const sinew_model_region *r) {
    float k = r->page < c->atlas->page_count ? c->atlas->pages[r->page].scale : 1.0f;
    return k > 0.0f ? 1.0f / k : 1.0f;
}

/* ---- setup: bones, slots, IK ------------------------------------------------------------------ */

static void write_bones(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *bones = add_arr(c, root, "bones");
    for (uint32_t i = 0; i < a->bone_count; ++i) {
        const sinew_model_bone *b = &a->bones[i];
        cJSON *o = add_obj(c, bones, NULL);
        str(c, o, "name", b->name);
        if (b->parent != SINEW_INVALID_INDEX)
            str(c, o, "parent", a->bones[b->parent].name);
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
            num(c, o, "length", b->length);
        if (c->bone_baked && c->bone_baked[i]) { /* the IK's solution in the setup pose */
            const double *l = c->bone_setup + 6 * (size_t)i;
            num(c, o, "x", l[0]);
            num(c, o, "y", l[1]);
            num(c, o, "rotation", l[2]);
            num(c, o, "scaleX", l[3]);
            num(c, o, "scaleY", l[4]);
            num(c, o, "shearY", l[5]);
            continue;
        }
        num(c, o, "x", s[0]);
        num(c, o, "y", -s[1]);
        num(c, o, "rotation", -s[2] * RAD2DEG);
        if (s[4] != 1.0)
            num(c, o, "scaleX", s[4]);
        if (s[5] != 1.0)
            num(c, o, "scaleY", s[5]);
        if (s[3] != 0.0)
            num(c, o, "shearY", -s[3] * RAD2DEG);
        const char *inh = inherit_name(b);
        if (strcmp(inh, "normal") != 0)
            str(c, o, "inherit", inh);
        if (!b->inherit_translation)
            warn(c, "bone '%s': inheritTranslation false is not carried (Spine bones always inherit translation)",
                 b->name);
        if (b->is_surface)
            warn(c, "bone '%s': surface written as a plain bone (Spine has no surfaces; what it deforms is placed "
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
        warn(c, "slot '%s': blend mode '%s' written as normal (Spine has normal, additive, multiply, screen)",
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

static void color_hex(double r, double g, double b, double a, char out[9]) {
    snprintf(out, 9, "%02x%02x%02x%02x", byte_of(r), byte_of(g), byte_of(b), byte_of(a));
}

static bool color_has_offset(const sinew_color_transform *t) {
    return t->a_add != 0.0f || t->r_add != 0.0f || t->g_add != 0.0f || t->b_add != 0.0f;
}

/* The attachment key of display `idx` of slot `s` (NULL when the slot has no such display). */
static const char *att_key(const sp_ctx *c, uint32_t s, int32_t idx) {
    if (idx < 0 || (uint32_t)idx >= c->key_count[s])
        return NULL;
    return c->keys[c->key_first[s] + (uint32_t)idx];
}

static bool drawable(sinew_display_type t) {
    return t == SINEW_DISPLAY_IMAGE || t == SINEW_DISPLAY_MESH || t == SINEW_DISPLAY_BOUNDING_BOX;
}

/* The display of slot `s` at `idx` in the default skin (or the first skin listing the slot). */
static const sinew_model_display *skin_display(const sp_ctx *c, uint32_t s, int32_t idx) {
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

static void write_slots(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *slots = add_arr(c, root, "slots");
    for (uint32_t i = 0; i < a->slot_count; ++i) {
        const sinew_model_slot *s = &a->slots[i];
        cJSON *o = add_obj(c, slots, NULL);
        str(c, o, "name", s->name);
        if (s->parent < a->bone_count)
            str(c, o, "bone", a->bones[s->parent].name);
        const sinew_color_transform *t = &s->color;
        if (t->r_mul != 1.0f || t->g_mul != 1.0f || t->b_mul != 1.0f || t->a_mul != 1.0f) {
            char hex[9];
            color_hex(t->r_mul, t->g_mul, t->b_mul, t->a_mul, hex);
            str(c, o, "color", hex);
        }
        if (color_has_offset(t))
            warn(c, "slot '%s': colour offsets dropped (Spine slot colours only multiply)", s->name);
        const sinew_model_display *dd = skin_display(c, i, s->display_index);
        const char *key = att_key(c, i, s->display_index);
        if (dd && key && drawable(dd->type))
            str(c, o, "attachment", key);
        const char *bl = blend_name(c, s);
        if (bl)
            str(c, o, "blend", bl);
    }
}

/* Whether bone b's local transform is not a similarity (a non-uniform scale or a skew): in its
 * setup (an == NULL) or by a key of animation an. */
static bool nonuniform_scale(const sinew_model_armature *a, uint32_t b, const sinew_model_animation *an) {
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
static void warn_inherit(sp_ctx *c, const sinew_model_animation *an) {
    const sinew_model_armature *a = c->arm;
    for (uint32_t i = 0; i < a->bone_count; ++i) {
        const char *mode = inherit_name(&a->bones[i]);
        if (strcmp(mode, "normal") == 0 || strcmp(mode, "onlyTranslation") == 0 || (c->bone_baked && c->bone_baked[i]))
            continue;
        for (uint32_t p = a->bones[i].parent; p != SINEW_INVALID_INDEX; p = a->bones[p].parent)
            if (nonuniform_scale(a, p, an) && (an == NULL || !nonuniform_scale(a, p, NULL))) {
                warn(c, "bone '%s': its inherit mode (%s) under the non-uniform scale or skew of bone '%s' "
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
static void warn_ik_scale(sp_ctx *c, const sinew_model_animation *an) {
    const sinew_model_armature *a = c->arm;
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (c->ik_baked && c->ik_baked[i])
            continue;
        uint32_t first = k->root != k->bone ? k->root : a->bones[k->root].parent;
        for (uint32_t p = first; p != SINEW_INVALID_INDEX; p = a->bones[p].parent)
            if (nonuniform_scale(a, p, an) && (an == NULL || !nonuniform_scale(a, p, NULL))) {
                warn(c, "IK '%s': under the non-uniform scale or skew of bone '%s' Spine's IK solver places the chain "
                        "differently from DragonBones'",
                     k->name, a->bones[p].name);
                break;
            }
    }
}

static void write_ik(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    if (!a->ik_count)
        return;
    cJSON *ik = add_arr(c, root, "ik");
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (c->ik_baked && c->ik_baked[i])
            continue;
        cJSON *o = add_obj(c, ik, NULL);
        str(c, o, "name", k->name);
        num(c, o, "order", i);
        cJSON *bones = add_arr(c, o, "bones");
        if (k->chain >= 1 && a->bones[k->bone].parent != SINEW_INVALID_INDEX) {
            cJSON *n = cJSON_CreateString(a->bones[a->bones[k->bone].parent].name);
            if (!n || !cJSON_AddItemToArray(bones, n))
                c->nomem = true;
        }
        cJSON *n = cJSON_CreateString(a->bones[k->bone].name);
        if (!n || !cJSON_AddItemToArray(bones, n))
            c->nomem = true;
        str(c, o, "target", a->bones[k->target].name);
        if (k->weight != 1.0f)
            num(c, o, "mix", k->weight);
        /* the mirror turns a clockwise bend into a counter-clockwise one */
        if (k->bend_positive)
            cJSON_AddFalseToObject(o, "bendPositive");
        if (k->scale)
            warn(c, "IK '%s': 'scale' is not carried", k->name);
        if (k->chain >= 1 && k->root != k->bone) { /* only when baking failed */
            const sinew_model_bone *rb = &a->bones[k->root], *bb = &a->bones[k->bone];
            const sinew_model_bone *off = strcmp(inherit_name(rb), "normal") != 0 ? rb
                                          : strcmp(inherit_name(bb), "normal") != 0 ? bb : NULL;
            if (off)
                warn(c, "IK '%s': Spine applies a two-bone IK only to bones that inherit rotation and scale (bone "
                        "'%s' does not): the constraint has no effect in Spine",
                     k->name, off->name);
        }
    }
    if (a->path_constraint_count)
        warn(c, "%u path constraint(s) dropped (not carried to Spine)", a->path_constraint_count);
    warn_ik_scale(c, NULL);
    warn_inherit(c, NULL);
}

/* ---- skins and attachments -------------------------------------------------------------------- */

/* Page-space UVs written as Spine region UVs: a DragonBones region stored rotated is turned
 * clockwise, Spine's `rotate: 90` counter-clockwise, so the region-relative (u, v) is flipped. */
static void push_uv(sp_ctx *c, cJSON *uvs, const sinew_model_region *r, double u, double v) {
    if (r->rotated) {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    push_num(c, uvs, u);
    push_num(c, uvs, v);
}

static void push_triangles(sp_ctx *c, cJSON *o, const uint32_t *tri, uint32_t n) {
    cJSON *t = add_arr(c, o, "triangles");
    for (uint32_t i = 0; i < n; ++i)
        push_num(c, t, tri[i]);
}

/* An image: a Spine region attachment centred on the drawn (trimmed) rectangle, or a 4-vertex
 * mesh when the display transform has a skew (region attachments cannot shear). */
static void write_image(sp_ctx *c, cJSON *slot_obj, const char *key, uint32_t s, const sinew_model_display *dd) {
    const sinew_model_region *r = region_of(c, dd);
    if (!r) {
        warn(c, "slot '%s': image '%s' has no region in the atlas; dropped", c->arm->slots[s].name, tex_key(dd));
        return;
    }
    double ts = texture_scale(c, r);
    double dw = (r->rotated ? r->height : r->width) * ts, dh = (r->rotated ? r->width : r->height) * ts;
    double fw = r->has_frame ? r->frame_width : (r->rotated ? r->height : r->width);
    double fh = r->has_frame ? r->frame_height : (r->rotated ? r->width : r->height);
    double pvx = (dd->pivot_x * fw + (r->has_frame ? r->frame_x : 0.0)) * ts;
    double pvy = (dd->pivot_y * fh + (r->has_frame ? r->frame_y : 0.0)) * ts;
    double m[6];
    display_mat(dd, m);
    cJSON *o = add_obj(c, slot_obj, key);
    if (strcmp(key, tex_key(dd)) != 0)
        str(c, o, "path", tex_key(dd));
    if (fabs(dd->transform.skew) < 1e-7) {
        double cx, cy;
        mat_apply(m, -pvx + dw * 0.5, -pvy + dh * 0.5, &cx, &cy);
        num(c, o, "x", cx);
        num(c, o, "y", -cy);
        double rot = -dd->transform.rotation * RAD2DEG;
        if (r->rotated)
            rot += 180.0; /* see push_uv: the content is stored the other way round */
        num(c, o, "rotation", rot);
        if (dd->transform.scale_x != 1.0f)
            num(c, o, "scaleX", dd->transform.scale_x);
        if (dd->transform.scale_y != 1.0f)
            num(c, o, "scaleY", dd->transform.scale_y);
        num(c, o, "width", dw);
        num(c, o, "height", dh);
        return;
    }
    str(c, o, "type", "mesh");
    cJSON *uvs = add_arr(c, o, "uvs");
    cJSON *verts = add_arr(c, o, "vertices");
    static const double cu[4] = {0, 1, 1, 0}, cv[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; ++i) {
        double x, y;
        mat_apply(m, -pvx + cu[i] * dw, -pvy + cv[i] * dh, &x, &y);
        push_num(c, verts, x);
        push_num(c, verts, -y);
        push_uv(c, uvs, r, cu[i], cv[i]);
    }
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    push_triangles(c, o, quad, 6);
    num(c, o, "hull", 4);
}

static void write_mesh(sp_ctx *c, cJSON *slot_obj, const char *key, uint32_t s, const sinew_model_display *dd) {
    const sinew_model_region *r = region_of(c, dd);
    if (!r) {
        warn(c, "slot '%s': mesh '%s' has no region in the atlas; dropped", c->arm->slots[s].name, tex_key(dd));
        return;
    }
    if (dd->mesh >= c->arm->mesh_count)
        return;
    const sinew_model_mesh *me = &c->arm->meshes[dd->mesh];
    cJSON *o = add_obj(c, slot_obj, key);
    str(c, o, "type", "mesh");
    if (strcmp(key, tex_key(dd)) != 0)
        str(c, o, "path", tex_key(dd));
    cJSON *uvs = add_arr(c, o, "uvs");
    for (uint32_t i = 0; i < me->vertex_count; ++i)
        push_uv(c, uvs, r, me->uvs[2 * i], me->uvs[2 * i + 1]);
    push_triangles(c, o, me->triangles, 3 * me->triangle_count);
    cJSON *verts = add_arr(c, o, "vertices");
    if (!me->weighted) {
        double m[6];
        display_mat(dd, m);
        for (uint32_t i = 0; i < me->vertex_count; ++i) {
            double x, y;
            mat_apply(m, me->vertices[2 * i], me->vertices[2 * i + 1], &x, &y);
            push_num(c, verts, x);
            push_num(c, verts, -y);
        }
    } else {
        for (uint32_t i = 0; i < me->vertex_count; ++i) {
            uint32_t f = me->vertex_first_influence[i], l = me->vertex_first_influence[i + 1];
            push_num(c, verts, l - f);
            for (uint32_t k = f; k < l; ++k) {
                push_num(c, verts, me->influence_bone[k]);
                push_num(c, verts, me->influence_local[2 * k]);
                push_num(c, verts, -me->influence_local[2 * k + 1]);
                push_num(c, verts, me->influence_weight[k]);
            }
        }
    }
    num(c, o, "hull", me->vertex_count);
    if (me->width > 0.0f && me->height > 0.0f) {
        num(c, o, "width", me->width);
        num(c, o, "height", me->height);
    }
}

static void write_bbox(sp_ctx *c, cJSON *slot_obj, const char *key, const sinew_model_display *dd) {
    cJSON *o = add_obj(c, slot_obj, key);
    str(c, o, "type", "boundingbox");
    num(c, o, "vertexCount", dd->bbox_vertex_count);
    cJSON *verts = add_arr(c, o, "vertices");
    double m[6];
    display_mat(dd, m);
    for (uint32_t i = 0; i < dd->bbox_vertex_count; ++i) {
        double x, y;
        mat_apply(m, dd->bbox_vertices[2 * i], dd->bbox_vertices[2 * i + 1], &x, &y);
        push_num(c, verts, x);
        push_num(c, verts, -y);
    }
}

/* Attachment keys: per slot, display index i is keyed by the name of the display at i in the
 * first skin that lists the slot (the default skin first); a name met twice gets "#i". Spine's
 * attachment timeline names keys, DragonBones' display timeline indices, so every skin uses the
 * same key for the same index. */
static bool build_keys(sp_ctx *c) {
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

static void write_skins(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *skins = add_arr(c, root, "skins");
    for (uint32_t k = 0; k < a->skin_count; ++k) {
        const sinew_model_skin *sk = &a->skins[k];
        cJSON *so = add_obj(c, skins, NULL);
        str(c, so, "name", sk->name[0] ? sk->name : "default");
        cJSON *atts = add_obj(c, so, "attachments");
        for (uint32_t j = 0; j < sk->slot_count; ++j) {
            const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
            const char *slot_name = a->slots[ss->slot].name;
            cJSON *slot_obj = NULL;
            for (uint32_t i = 0; i < ss->display_count; ++i) {
                const sinew_model_display *dd = &a->displays[ss->first_display + i];
                const char *key = att_key(c, ss->slot, (int32_t)i);
                if (!key)
                    continue;
                if (!drawable(dd->type)) {
                    warn(c, "slot '%s': %s display '%s' dropped (not carried to Spine)", slot_name,
                         dd->type == SINEW_DISPLAY_ARMATURE ? "child armature" : "path", dd->name);
                    continue;
                }
                if (!slot_obj && !(slot_obj = add_obj(c, atts, slot_name)))
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

/* ---- timelines -------------------------------------------------------------------------------- */

#define SAMPLE_TOL_UNITS 0.005 /* positions (px) and deform offsets */
#define SAMPLE_TOL_DEG 0.001  /* angles */
#define SAMPLE_TOL_SCALE 0.00005
#define SAMPLE_MAX 2048        /* sub-keys per tween at most */

/* A channel: how a Spine timeline's values come from a DragonBones timeline's key values. */
typedef struct channel {
    uint32_t n;                                          /* Spine values per key */
    void (*map)(const struct channel *ch, const float *raw, double *out);
    uint32_t idx[2];                                     /* raw value indices used by map */
    bool wrap_normalize;                                 /* rotation: last -> first takes the short way */
    double tol;
    const sinew_model_mesh *mesh;                        /* deform */
    const double *dm;                                    /* deform: display matrix (unweighted) */
    bool step;                                           /* every key holds (display timelines) */
} channel;

static void map_translate(const channel *ch, const float *raw, double *out) {
    out[0] = raw[ch->idx[0]];
    out[1] = -(double)raw[ch->idx[1]];
}
static void map_rotate(const channel *ch, const float *raw, double *out) {
    out[0] = -(double)raw[ch->idx[0]] * RAD2DEG;
}
static void map_shear(const channel *ch, const float *raw, double *out) {
    out[0] = 0.0;
    out[1] = -(double)raw[ch->idx[0]] * RAD2DEG;
}
static void map_scale(const channel *ch, const float *raw, double *out) {
    out[0] = raw[ch->idx[0]];
    out[1] = raw[ch->idx[1]];
}
static void map_ik(const channel *ch, const float *raw, double *out) {
    (void)ch;
    out[0] = raw[0] * 0.01;
    out[1] = raw[1];
}
static void map_color(const channel *ch, const float *raw, double *out) {
    (void)ch;
    for (int i = 0; i < 4; ++i)
        out[i] = raw[i] * 0.01; /* a r g b multipliers */
}
/* FFD: slot-space offsets per vertex -> Spine offsets (bone space per vertex, or per influence
 * for a weighted mesh). */
static void map_deform(const channel *ch, const float *raw, double *out) {
    const sinew_model_mesh *me = ch->mesh;
    if (!me->weighted) {
        const double *m = ch->dm;
        for (uint32_t i = 0; i < me->vertex_count; ++i) {
            double dx = raw[2 * i], dy = raw[2 * i + 1];
            out[2 * i] = m[0] * dx + m[2] * dy;
            out[2 * i + 1] = -(m[1] * dx + m[3] * dy);
        }
        return;
    }
    for (uint32_t v = 0; v < me->vertex_count; ++v) {
        double dx = raw[2 * v], dy = raw[2 * v + 1];
        for (uint32_t k = me->vertex_first_influence[v]; k < me->vertex_first_influence[v + 1]; ++k) {
            const float *d = me->influence_deform ? me->influence_deform + 4 * (size_t)k : NULL;
            double bx = d ? d[0] * dx + d[2] * dy : dx, by = d ? d[1] * dx + d[3] * dy : dy;
            out[2 * k] = bx;
            out[2 * k + 1] = -by;
        }
    }
}

/* One Spine key: its time, whether it holds, and its values (at vals + i * n). */
typedef struct keylist {
    uint32_t count, cap, n;
    double *t;
    bool *stepped;
    double *vals;
} keylist;

/* Frees the three arrays of `cap` keys of n values each. */
static void kl_free_arrays(sp_ctx *c, double *t, bool *stepped, double *vals, uint32_t cap, uint32_t n) {
    sinew__free(c->a, t, cap * sizeof *t);
    sinew__free(c->a, stepped, cap * sizeof *stepped);
    sinew__free(c->a, vals, (size_t)cap * n * sizeof *vals);
}

static bool kl_push(sp_ctx *c, keylist *kl, double t, bool stepped, const double *v) {
    if (kl->count == kl->cap) { /* all three arrays grow, or none */
        uint32_t nc = kl->cap ? kl->cap * 2 : 16;
        double *nt = sinew__realloc(c->a, NULL, 0, nc * sizeof *nt);
        bool *ns = sinew__realloc(c->a, NULL, 0, nc * sizeof *ns);
        double *nv = sinew__realloc(c->a, NULL, 0, (size_t)nc * kl->n * sizeof *nv);
        if (!nt || !ns || !nv) {
            kl_free_arrays(c, nt, ns, nv, nc, kl->n);
            return false;
        }
        if (kl->count) {
            memcpy(nt, kl->t, kl->count * sizeof *nt);
            memcpy(ns, kl->stepped, kl->count * sizeof *ns);
            memcpy(nv, kl->vals, (size_t)kl->count * kl->n * sizeof *nv);
        }
        kl_free_arrays(c, kl->t, kl->stepped, kl->vals, kl->cap, kl->n);
        kl->t = nt;
        kl->stepped = ns;
        kl->vals = nv;
        kl->cap = nc;
    }
    kl->t[kl->count] = t;
    kl->stepped[kl->count] = stepped;
    memcpy(kl->vals + (size_t)kl->count * kl->n, v, kl->n * sizeof *v);
    kl->count++;
    return true;
}

static void kl_free(sp_ctx *c, keylist *kl) {
    kl_free_arrays(c, kl->t, kl->stepped, kl->vals, kl->cap, kl->n);
    memset(kl, 0, sizeof *kl);
}

static double quad_strength(const sinew_model_keyframe *k) {
    double te = k->tween_easing;
    if (!isfinite(te))
        return k->strength;
    /* the official parser: strength = round(+-tweenEasing * 100) / 100 per tween kind */
    switch (k->tween) {
    case SINEW_TWEEN_QUAD_IN:
        return floor(-te * 100.0 + 0.5) * 0.01;
    case SINEW_TWEEN_QUAD_OUT:
        return floor(te * 100.0 + 0.5) * 0.01;
    case SINEW_TWEEN_QUAD_IN_OUT:
        return floor(te * 100.0 - 100.0 + 0.5) * 0.01;
    default:
        return 0.0;
    }
}

static double quad_ease(int type, double p, double e) {
    double v = p;
    if (type == SINEW_TWEEN_QUAD_IN)
        v = p * p;
    else if (type == SINEW_TWEEN_QUAD_OUT)
        v = 1.0 - (1.0 - p) * (1.0 - p);
    else if (type == SINEW_TWEEN_QUAD_IN_OUT)
        v = 0.5 * (1.0 - cos(p * SP_PI));
    return (v - p) * e + p;
}

static bool loops(const sinew_model_animation *an) { return an->play_times != 1; }

/* Builds the Spine keys of DragonBones timeline T through channel ch, on the timeline's own clock. */
static bool build_local_keys(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl) {
    const sinew_model_animation *an = c->anim;
    double fr = c->arm->frame_rate;
    uint32_t G = T->grid_key_count;
    kl->n = ch->n;
    if (G == 0 || !T->run_values)
        return true;
    const sinew_model_keyframe *keys = an->keys + T->first_key;
    uint32_t vpk = T->values_per_key;
    size_t v0_count = (size_t)ch->n * 3 + 1;
    double *v0 = sinew__calloc(c->a, v0_count, sizeof *v0);
    if (!v0)
        return false;
    double *v1 = v0 + ch->n, *vv = v1 + ch->n;
    double end_t = an->frame_count / fr;
    bool ok = true;
    for (uint32_t k = 0; k < G && ok; ++k) {
        const sinew_model_keyframe *kf = &keys[k];
        double t0 = kf->frame_start / fr;
        bool last = k == G - 1;
        double t1 = last ? end_t : keys[k + 1].frame_start / fr;
        ch->map(ch, T->run_values + (size_t)k * vpk, v0);
        uint8_t type = kf->frame_span > 0 && !ch->step ? kf->tween : SINEW_TWEEN_NONE;
        if (type == SINEW_TWEEN_CURVE && kf->sample_count == 0)
            type = SINEW_TWEEN_LINEAR;
        if (last && (G == 1 || !loops(an)))
            type = SINEW_TWEEN_NONE;
        if (type != SINEW_TWEEN_NONE) {
            ch->map(ch, T->run_values + (size_t)(last ? 0 : k + 1) * vpk, v1);
            if (last && ch->wrap_normalize) {
                double d = (v1[0] - v0[0]) / RAD2DEG;
                d = fmod(d + SP_PI, SP_PI * 2.0);
                d += d > 0.0 ? -SP_PI : SP_PI;
                v1[0] = v0[0] + d * RAD2DEG;
            }
        }
        if (type == SINEW_TWEEN_NONE || type == SINEW_TWEEN_LINEAR) {
            ok = kl_push(c, kl, t0, type == SINEW_TWEEN_NONE, v0);
        } else if (type == SINEW_TWEEN_CURVE) {
            const float *smp = an->samples + kf->sample_first;
            uint32_t segs = kf->sample_count + 1;
            for (uint32_t i = 0; i < segs && ok; ++i) {
                double e = i == 0 ? 0.0 : smp[i - 1] * 0.0001;
                for (uint32_t j = 0; j < ch->n; ++j)
                    vv[j] = v0[j] + (v1[j] - v0[j]) * e;
                ok = kl_push(c, kl, t0 + (t1 - t0) * i / segs, false, vv);
            }
        } else {
            /* linear pieces over [0, 1]: the error of a piece of width h is at most
               |f''| h^2 / 8 times the value change */
            double e = quad_strength(kf), dmax = 0.0;
            for (uint32_t j = 0; j < ch->n; ++j)
                dmax = fmax(dmax, fabs(v1[j] - v0[j]));
            double curv = (type == SINEW_TWEEN_QUAD_IN_OUT ? SP_PI * SP_PI * 0.5 : 2.0) * fabs(e);
            double need = sqrt(curv * dmax / (8.0 * ch->tol));
            uint32_t span = kf->frame_span ? kf->frame_span : 1;
            uint32_t steps = span;
            while (steps < need && steps < SAMPLE_MAX)
                steps += span;
            for (uint32_t i = 0; i < steps && ok; ++i) {
                double p = (double)i / steps, q = quad_ease(type, p, e);
                for (uint32_t j = 0; j < ch->n; ++j)
                    vv[j] = v0[j] + (v1[j] - v0[j]) * q;
                ok = kl_push(c, kl, t0 + (t1 - t0) * p, false, vv);
            }
        }
        if (ok && last && t1 > t0) /* close at the animation's end so Spine's duration matches */
            ok = kl_push(c, kl, t1, true, type == SINEW_TWEEN_NONE ? v0 : v1);
    }
    sinew__free(c->a, v0, v0_count * sizeof *v0);
    return ok;
}

static void kl_simplify(keylist *kl);

/* The value of a key list at time x (keys are linear or hold). */
static void kl_eval(const keylist *kl, double x, double *out, bool *stepped) {
    uint32_t i = 0;
    while (i + 1 < kl->count && kl->t[i + 1] <= x)
        i++;
    const double *a = kl->vals + (size_t)i * kl->n;
    *stepped = kl->stepped[i];
    if (i + 1 >= kl->count || kl->stepped[i] || kl->t[i + 1] <= kl->t[i] || x <= kl->t[i]) {
        memcpy(out, a, kl->n * sizeof *out);
        return;
    }
    const double *b = a + kl->n;
    double p = (x - kl->t[i]) / (kl->t[i + 1] - kl->t[i]);
    for (uint32_t j = 0; j < kl->n; ++j)
        out[j] = a[j] + (b[j] - a[j]) * p;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/*
 * Builds the Spine keys of DragonBones timeline T through channel ch, on the animation's clock. A
 * timeline with a scale s or an offset o runs on its own clock: at animation time t it is at
 * (t * 100 / round(100 s) + round(100 o) / 100 * D) wrapped into the animation's duration D (held
 * at the end once a finite playTimes is over), as the official runtime computes it. The keys on
 * that clock are mapped back: each key at every time the timeline passes it, plus a key at every
 * wrap (its last value, then its first at the same time).
 */
static bool build_keys_for(sp_ctx *c, const sinew_model_timeline *T, const channel *ch, keylist *kl) {
    keylist loc;
    memset(&loc, 0, sizeof loc);
    if (!build_local_keys(c, T, ch, &loc)) {
        kl_free(c, &loc);
        return false;
    }
    const sinew_model_animation *an = c->anim;
    double s100 = floor((double)T->scale * 100.0 + 0.5);
    double ts = s100 != 0.0 ? 100.0 / s100 : 1.0, off = floor((double)T->offset * 100.0 + 0.5) * 0.01;
    if (T->grid_key_count <= 1 || loc.count == 0 || (ts == 1.0 && off == 0.0)) {
        *kl = loc;
        kl_simplify(kl);
        return true;
    }
    kl->n = ch->n;
    double D = an->frame_count / (double)c->arm->frame_rate;
    if (loops(an) && ts != floor(ts))
        warn(c, "a timeline's scale %g does not repeat with the animation: Spine repeats its first play",
             (double)T->scale);
    /* the animation times where something happens on the timeline's clock */
    size_t cap = 16, n = 0;
    double *bp = sinew__alloc(c->a, cap * sizeof *bp);
    size_t v_count = (size_t)kl->n * 2 + 1;
    double *v = sinew__calloc(c->a, v_count, sizeof *v);
    bool ok = bp && v;
    double t_end = D, clamp = INFINITY;
    if (an->play_times > 0)
        clamp = (an->play_times * D - off * D) / ts;
    double first_cycle = floor(off), last_cycle = floor((D * ts + off * D) / D) + 1;
    for (double m = first_cycle; ok && m <= last_cycle; m += 1.0) {
        for (uint32_t k = 0; ok && k <= loc.count; ++k) {
            double tau = k < loc.count ? loc.t[k] : D; /* k == count: the wrap */
            double t = (tau + m * D - off * D) / ts;
            if (!(t > 0.0 && t < t_end && t < clamp))
                continue;
            if (n == cap) {
                double *nb = sinew__realloc(c->a, bp, cap * sizeof *bp, cap * 2 * sizeof *bp);
                if (!nb) {
                    ok = false;
                    break;
                }
                bp = nb;
                cap *= 2;
            }
            bp[n++] = t;
        }
    }
    if (ok)
        qsort(bp, n, sizeof *bp, cmp_double);
    bool st;
    /* t = 0 */
    if (ok) {
        double tau = fmod(off * D, D);
        kl_eval(&loc, tau, v, &st);
        ok = kl_push(c, kl, 0.0, st, v);
    }
    for (size_t i = 0; ok && i < n; ++i) {
        if (i > 0 && bp[i] == bp[i - 1])
            continue;
        double raw = bp[i] * ts + off * D, cyc = floor(raw / D), tau = raw - cyc * D;
        if (tau < 1e-9 * D || D - tau < 1e-9 * D) { /* a wrap: the end value, then the start */
            kl_eval(&loc, D, v, &st);
            ok = kl_push(c, kl, bp[i], true, v);
            kl_eval(&loc, 0.0, v, &st);
            if (ok)
                ok = kl_push(c, kl, bp[i], st, v);
        } else {
            kl_eval(&loc, tau, v, &st);
            ok = kl_push(c, kl, bp[i], st, v);
        }
    }
    if (ok && clamp < t_end) { /* the plays are over: held at the end */
        kl_eval(&loc, D, v, &st);
        ok = kl_push(c, kl, clamp, true, v) && kl_push(c, kl, t_end, true, v);
    } else if (ok) {
        double raw = t_end * ts + off * D, tau = raw - floor(raw / D) * D;
        kl_eval(&loc, tau, v, &st);
        ok = kl_push(c, kl, t_end, true, v);
    }
    sinew__free(c->a, bp, cap * sizeof *bp);
    sinew__free(c->a, v, v_count * sizeof *v);
    kl_free(c, &loc);
    if (ok)
        kl_simplify(kl);
    return ok;
}

/* Drops keys that lie on the straight line between their neighbours (a linear tween sampled
 * into linear keys, a held value): the motion is the same, the file smaller. */
static void kl_simplify(keylist *kl) {
    if (kl->count < 3)
        return;
    uint32_t w = 1, n = kl->n;
    for (uint32_t i = 1; i + 1 < kl->count; ++i) {
        uint32_t p = w - 1; /* the last key kept */
        bool drop = !kl->stepped[p] && !kl->stepped[i] && kl->t[p] < kl->t[i] && kl->t[i] < kl->t[i + 1];
        for (uint32_t j = 0; drop && j < n; ++j) {
            double a = kl->vals[(size_t)p * n + j], b = kl->vals[(size_t)(i + 1) * n + j];
            double v = a + (b - a) * (kl->t[i] - kl->t[p]) / (kl->t[i + 1] - kl->t[p]);
            drop = fabs(v - kl->vals[(size_t)i * n + j]) <= 1e-9 * (1.0 + fabs(v));
        }
        if (drop)
            continue;
        kl->t[w] = kl->t[i];
        kl->stepped[w] = kl->stepped[i];
        memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)i * n, n * sizeof *kl->vals);
        w++;
    }
    kl->t[w] = kl->t[kl->count - 1];
    kl->stepped[w] = kl->stepped[kl->count - 1];
    memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)(kl->count - 1) * n, n * sizeof *kl->vals);
    kl->count = w + 1;
}

/* Keeps the fewest keys of a linear key list such that every dropped key lies within tol of the
 * straight line between the keys kept around it (a sampled curve thinned where it is straight). */
static void kl_thin(keylist *kl, double tol) {
    if (kl->count < 3)
        return;
    uint32_t n = kl->n, w = 1, anchor = 0;
    for (uint32_t end = 2; end < kl->count; ++end) {
        bool fits = !kl->stepped[anchor];
        for (uint32_t i = anchor + 1; fits && i < end; ++i) {
            double f = (kl->t[i] - kl->t[anchor]) / (kl->t[end] - kl->t[anchor]);
            for (uint32_t j = 0; fits && j < n; ++j) {
                double a = kl->vals[(size_t)anchor * n + j], b = kl->vals[(size_t)end * n + j];
                fits = fabs(a + (b - a) * f - kl->vals[(size_t)i * n + j]) <= tol;
            }
        }
        if (fits)
            continue;
        /* end - 1 is kept and becomes the anchor; kept keys are packed at the front (w never
           passes the anchor, and only keys from the anchor on are read again) */
        anchor = end - 1;
        kl->t[w] = kl->t[anchor];
        kl->stepped[w] = kl->stepped[anchor];
        memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)anchor * n, n * sizeof *kl->vals);
        w++;
    }
    uint32_t last = kl->count - 1;
    kl->t[w] = kl->t[last];
    kl->stepped[w] = kl->stepped[last];
    memmove(kl->vals + (size_t)w * n, kl->vals + (size_t)last * n, n * sizeof *kl->vals);
    kl->count = w + 1;
}

static bool kl_constant(const keylist *kl, const double *ident) {
    for (uint32_t k = 0; k < kl->count; ++k)
        for (uint32_t j = 0; j < kl->n; ++j)
            if (fabs(kl->vals[(size_t)k * kl->n + j] - ident[j]) > 1e-9)
                return false;
    return true;
}

/* Writes keys as a Spine timeline array: names[j] names value j (NULL: "value"). */
static void write_kl(sp_ctx *c, cJSON *parent, const char *tl_name, const keylist *kl, const char *const *names) {
    cJSON *arr = add_arr(c, parent, tl_name);
    for (uint32_t k = 0; k < kl->count; ++k) {
        cJSON *o = add_obj(c, arr, NULL);
        num_time(c, o, kl->t[k]);
        for (uint32_t j = 0; j < kl->n; ++j)
            num(c, o, names[j], kl->vals[(size_t)k * kl->n + j]);
        if (kl->stepped[k] && k + 1 < kl->count)
            str(c, o, "curve", "stepped");
    }
}

/* Writes bone timeline T's channels; one that stays at its identity is left out, except the first
 * when keep_first is set (see end_keys). */
static void bone_timeline(sp_ctx *c, cJSON *bones_obj, const sinew_model_timeline *T, bool keep_first) {
    const sinew_model_bone *b = &c->arm->bones[T->target];
    cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones_obj, b->name);
    if (!bo && !(bo = add_obj(c, bones_obj, b->name)))
        return;
    bool all = T->type == SINEW_TL_BONE_ALL;
    channel chs[4];
    const char *tl_names[4];
    static const char *const xy[2] = {"x", "y"}, *const val[1] = {"value"};
    const char *const *vnames[4];
    double ident[4][2] = {{0, 0}, {0, 0}, {1, 1}, {0, 0}};
    int nch = 0;
    memset(chs, 0, sizeof chs);
    if (all || T->type == SINEW_TL_BONE_TRANSLATE) {
        chs[nch] = (channel){2, map_translate, {0, 1}, false, SAMPLE_TOL_UNITS, NULL, NULL, false};
        tl_names[nch] = "translate";
        vnames[nch++] = xy;
    }
    if (all || T->type == SINEW_TL_BONE_ROTATE) {
        uint32_t r = all ? 2 : 0;
        chs[nch] = (channel){1, map_rotate, {r, 0}, !all && !T->rotation_plain, SAMPLE_TOL_DEG, NULL, NULL, false};
        tl_names[nch] = "rotate";
        vnames[nch++] = val;
        chs[nch] = (channel){2, map_shear, {r + 1, 0}, false, SAMPLE_TOL_DEG, NULL, NULL, false};
        tl_names[nch] = "shear";
        vnames[nch++] = xy;
    }
    if (all || T->type == SINEW_TL_BONE_SCALE) {
        uint32_t s = all ? 4 : 0;
        chs[nch] = (channel){2, map_scale, {s, s + 1}, false, SAMPLE_TOL_SCALE, NULL, NULL, false};
        tl_names[nch] = "scale";
        vnames[nch++] = xy;
    }
    for (int i = 0; i < nch; ++i) {
        keylist kl;
        memset(&kl, 0, sizeof kl);
        if (!build_keys_for(c, T, &chs[i], &kl)) {
            c->nomem = true;
            kl_free(c, &kl);
            return;
        }
        int id = strcmp(tl_names[i], "scale") == 0 ? 2 : strcmp(tl_names[i], "shear") == 0 ? 3 : 0;
        /* a channel that stays at its identity is left out */
        bool keep = kl.count > 0 && ((keep_first && i == 0) || !kl_constant(&kl, ident[id]));
        if (keep && !cJSON_GetObjectItemCaseSensitive(bo, tl_names[i]))
            write_kl(c, bo, tl_names[i], &kl, vnames[i]);
        kl_free(c, &kl);
    }
}

static void slot_color_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T) {
    const sinew_model_slot *s = &c->arm->slots[T->target];
    channel ch = {4, map_color, {0, 0}, false, 0.001, NULL, NULL, false};
    keylist kl;
    memset(&kl, 0, sizeof kl);
    if (!build_keys_for(c, T, &ch, &kl)) {
        c->nomem = true;
        kl_free(c, &kl);
        return;
    }
    bool offsets = false;
    for (uint32_t k = 0; k < T->grid_key_count && T->run_values; ++k)
        for (int i = 4; i < 8; ++i)
            if (T->run_values[(size_t)k * 8 + (uint32_t)i] != 0.0f)
                offsets = true;
    if (offsets)
        warn(c, "slot '%s': colour offsets in the colour timeline dropped (Spine colours only multiply)", s->name);
    cJSON *so = cJSON_GetObjectItemCaseSensitive(slots_obj, s->name);
    if (!so && !(so = add_obj(c, slots_obj, s->name))) {
        kl_free(c, &kl);
        return;
    }
    cJSON *arr = add_arr(c, so, "rgba");
    for (uint32_t k = 0; k < kl.count; ++k) {
        cJSON *o = add_obj(c, arr, NULL);
        num_time(c, o, kl.t[k]);
        const double *v = kl.vals + (size_t)k * 4;
        char hex[9];
        color_hex(v[1], v[2], v[3], v[0], hex);
        str(c, o, "color", hex);
        if (kl.stepped[k] && k + 1 < kl.count)
            str(c, o, "curve", "stepped");
    }
    kl_free(c, &kl);
}

static void map_display(const channel *ch, const float *raw, double *out) {
    (void)ch;
    out[0] = raw[0];
}

static void slot_display_timeline(sp_ctx *c, cJSON *slots_obj, const sinew_model_timeline *T) {
    const sinew_model_slot *s = &c->arm->slots[T->target];
    channel ch = {1, map_display, {0, 0}, false, 1.0, NULL, NULL, true};
    keylist kl;
    memset(&kl, 0, sizeof kl);
    if (!build_keys_for(c, T, &ch, &kl)) {
        c->nomem = true;
        kl_free(c, &kl);
        return;
    }
    if (!kl.count) {
        kl_free(c, &kl);
        return;
    }
    cJSON *so = cJSON_GetObjectItemCaseSensitive(slots_obj, s->name);
    if (!so && !(so = add_obj(c, slots_obj, s->name))) {
        kl_free(c, &kl);
        return;
    }
    cJSON *arr = add_arr(c, so, "attachment");
    for (uint32_t k = 0; k < kl.count; ++k) {
        if (k + 1 < kl.count && kl.t[k + 1] == kl.t[k])
            continue; /* a wrap: the later key of the two wins */
        cJSON *o = add_obj(c, arr, NULL);
        num_time(c, o, kl.t[k]);
        int32_t idx = (int32_t)kl.vals[k];
        const sinew_model_display *dd = skin_display(c, T->target, idx);
        const char *key = att_key(c, T->target, idx);
        if (dd && key && drawable(dd->type))
            str(c, o, "name", key);
        else if (o && !cJSON_AddNullToObject(o, "name"))
            c->nomem = true;
    }
    kl_free(c, &kl);
}

static void ik_timeline(sp_ctx *c, cJSON *ik_obj, const sinew_model_timeline *T) {
    const sinew_model_ik *k = &c->arm->iks[T->target];
    channel ch = {2, map_ik, {0, 0}, false, 0.0001, NULL, NULL, false};
    keylist kl;
    memset(&kl, 0, sizeof kl);
    if (!build_keys_for(c, T, &ch, &kl)) {
        c->nomem = true;
        kl_free(c, &kl);
        return;
    }
    cJSON *arr = add_arr(c, ik_obj, k->name);
    for (uint32_t i = 0; i < kl.count; ++i) {
        cJSON *o = add_obj(c, arr, NULL);
        num_time(c, o, kl.t[i]);
        num(c, o, "mix", kl.vals[2 * i]);
        if (kl.vals[2 * i + 1] != 0.0 && o)
            cJSON_AddFalseToObject(o, "bendPositive");
        if (kl.stepped[i] && i + 1 < kl.count)
            str(c, o, "curve", "stepped");
    }
    kl_free(c, &kl);
}

static void deform_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T) {
    const sinew_model_armature *a = c->arm;
    if (T->mesh >= a->mesh_count || T->display >= a->display_count || T->skin >= a->skin_count)
        return;
    const sinew_model_mesh *me = &a->meshes[T->mesh];
    const sinew_model_display *dd = &a->displays[T->display];
    /* the key of this display in its slot */
    const sinew_model_skin *sk = &a->skins[T->skin];
    const char *key = NULL;
    for (uint32_t j = 0; j < sk->slot_count && !key; ++j) {
        const sinew_model_skin_slot *ss = &a->skin_slots[sk->first_slot + j];
        if (ss->slot == T->target && T->display >= ss->first_display &&
            T->display < ss->first_display + ss->display_count)
            key = att_key(c, T->target, (int32_t)(T->display - ss->first_display));
    }
    if (!key)
        return;
    double m[6];
    display_mat(dd, m);
    channel ch = {me->weighted ? 2 * me->influence_count : 2 * me->vertex_count, map_deform, {0, 0}, false,
                  SAMPLE_TOL_UNITS, me, m, false};
    keylist kl;
    memset(&kl, 0, sizeof kl);
    if (!build_keys_for(c, T, &ch, &kl)) {
        c->nomem = true;
        kl_free(c, &kl);
        return;
    }
    cJSON *atts = cJSON_GetObjectItemCaseSensitive(anim_obj, "attachments");
    if (!atts && !(atts = add_obj(c, anim_obj, "attachments")))
        goto done;
    const char *skin_name = sk->name[0] ? sk->name : "default";
    cJSON *so = cJSON_GetObjectItemCaseSensitive(atts, skin_name);
    if (!so && !(so = add_obj(c, atts, skin_name)))
        goto done;
    const char *slot_name = a->slots[T->target].name;
    cJSON *slo = cJSON_GetObjectItemCaseSensitive(so, slot_name);
    if (!slo && !(slo = add_obj(c, so, slot_name)))
        goto done;
    cJSON *ao = add_obj(c, slo, key);
    cJSON *arr = add_arr(c, ao, "deform");
    for (uint32_t k = 0; k < kl.count; ++k) {
        cJSON *o = add_obj(c, arr, NULL);
        num_time(c, o, kl.t[k]);
        const double *v = kl.vals + (size_t)k * kl.n;
        uint32_t first = 0, lastp = kl.n;
        while (first < kl.n && v[first] == 0.0)
            first++;
        while (lastp > first && v[lastp - 1] == 0.0)
            lastp--;
        if (lastp > first) {
            if (first)
                num(c, o, "offset", first);
            cJSON *va = add_arr(c, o, "vertices");
            for (uint32_t i = first; i < lastp; ++i)
                push_num(c, va, v[i]);
        }
        if (kl.stepped[k] && k + 1 < kl.count)
            str(c, o, "curve", "stepped");
    }
done:
    kl_free(c, &kl);
}

static void zorder_timeline(sp_ctx *c, cJSON *anim_obj, const sinew_model_timeline *T) {
    const sinew_model_armature *a = c->arm;
    if (!T->grid_key_count || T->values_per_key != a->slot_count)
        return;
    const float *vals = T->run_values ? T->run_values : T->values;
    cJSON *arr = add_arr(c, anim_obj, "drawOrder");
    const sinew_model_keyframe *keys = c->anim->keys + T->first_key;
    for (uint32_t k = 0; k < T->grid_key_count; ++k) {
        cJSON *o = add_obj(c, arr, NULL);
        double t = keys[k].frame_start / (double)a->frame_rate;
        num_time(c, o, t);
        const float *order = vals + (size_t)k * a->slot_count;
        cJSON *offs = NULL;
        /* Spine reads the offsets in setup order: slot s moves to position pos */
        for (uint32_t s = 0; s < a->slot_count; ++s) {
            uint32_t pos = 0;
            while (pos < a->slot_count && (uint32_t)order[pos] != s)
                pos++;
            if (pos == a->slot_count || pos == s)
                continue;
            if (!offs && !(offs = add_arr(c, o, "offsets")))
                return;
            cJSON *e = add_obj(c, offs, NULL);
            str(c, e, "slot", a->slots[s].name);
            num(c, e, "offset", (double)pos - (double)s);
        }
    }
}

static void events_of(sp_ctx *c, cJSON *anim_obj, cJSON *events_decl) {
    const sinew_model_animation *an = c->anim;
    const sinew_model_armature *a = c->arm;
    cJSON *arr = NULL;
    /* the action frames as the official parser merges them (it drops some the file holds, such
       as a bone-frame event inside an animation frame); its list may be out of order, Spine's
       must not: visited by position, stably */
    uint32_t nf = an->run_action_frame_count;
    uint32_t *order = sinew__alloc(c->a, ((size_t)nf + 1) * sizeof *order);
    if (!order) {
        c->nomem = true;
        return;
    }
    for (uint32_t f = 0; f < nf; ++f) {
        uint32_t j = f;
        while (j > 0 && an->run_action_frames[order[j - 1]].position > an->run_action_frames[f].position) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = f;
    }
    for (uint32_t fi = 0; fi < nf; ++fi) {
        const sinew_model_action_frame *af = &an->run_action_frames[order[fi]];
        for (uint32_t i = 0; i < af->action_count; ++i) {
            const sinew_model_action *ac = &a->actions[an->run_action_index[af->first_action + i]];
            if (ac->type != SINEW_ACTION_FRAME_EVENT && ac->type != SINEW_ACTION_SOUND) {
                warn(c, "action '%s' at frame %g dropped (Spine events cannot play animations)", ac->name,
                     af->position);
                continue;
            }
            const char *nm = ac->name && ac->name[0] ? ac->name : "event";
            if (!cJSON_GetObjectItemCaseSensitive(events_decl, nm)) {
                cJSON *d = add_obj(c, events_decl, nm);
                if (ac->type == SINEW_ACTION_SOUND)
                    str(c, d, "audio", nm);
            }
            if (!arr && !(arr = add_arr(c, anim_obj, "events")))
                break;
            cJSON *o = add_obj(c, arr, NULL);
            double t = af->position / (double)a->frame_rate;
            num_time(c, o, t);
            str(c, o, "name", nm);
            if (ac->int_count)
                num(c, o, "int", ac->ints[0]);
            if (ac->float_count)
                num(c, o, "float", ac->floats[0]);
            if (ac->string_count)
                str(c, o, "string", ac->strings[0]);
            if (ac->int_count > 1 || ac->float_count > 1 || ac->string_count > 1)
                warn(c, "event '%s': only the first int, float and string of its data are carried", nm);
        }
    }
    sinew__free(c->a, order, ((size_t)nf + 1) * sizeof *order);
}

/* ---- IK chains Spine's solver cannot reproduce: baked ---------------------------------------- */

#define BAKE_PER_FRAME 32 /* samples per frame of a baked bone, thinned where straight within: */
#define BAKE_TOL_UNITS 0.002
#define BAKE_TOL_DEG 0.0005
#define BAKE_TOL_SCALE 0.00002

/* Whether Spine's IK solver places constraint k as DragonBones' does: not for a two-bone chain on
 * bones that do not inherit rotation and scale (spine-core's apply2 skips them), nor under a
 * non-uniform scale or skew of the chain's root or any bone above it (Spine solves from the local
 * scales, DragonBones from world positions), in the setup pose or in an animation. */
static bool ik_exact(const sp_ctx *c, const sinew_model_ik *k) {
    const sinew_model_armature *a = c->arm;
    if (k->root != k->bone && (strcmp(inherit_name(&a->bones[k->root]), "normal") != 0 ||
                               strcmp(inherit_name(&a->bones[k->bone]), "normal") != 0))
        return false;
    uint32_t first = k->root != k->bone ? k->root : a->bones[k->root].parent;
    for (uint32_t p = first; p != SINEW_INVALID_INDEX; p = a->bones[p].parent) {
        if (nonuniform_scale(a, p, NULL))
            return false;
        for (uint32_t n = 0; n < a->animation_count; ++n)
            if (nonuniform_scale(a, p, &a->animations[n]))
                return false;
    }
    return true;
}

/* Spine's local transform (x y rotation scaleX scaleY shearY, y up, degrees) of a bone whose
 * DragonBones world matrix is w under a parent world pw (NULL: a root): pw^-1 w seen through the
 * mirror, with rotation and shearY unwrapped towards prev (NULL: none). */
static void spine_local(const sinew_affine *pw, const sinew_affine *w, const double *prev, double out[6]) {
    double l[6] = {w->a, w->b, w->c, w->d, w->tx, w->ty};
    if (pw) {
        double det = (double)pw->a * pw->d - (double)pw->b * pw->c;
        if (det == 0.0)
            det = 1e-12;
        double ia = pw->d / det, ib = -pw->b / det, ic = -pw->c / det, id = pw->a / det;
        double itx = -(ia * pw->tx + ic * pw->ty), ity = -(ib * pw->tx + id * pw->ty);
        l[0] = ia * w->a + ic * w->b;
        l[1] = ib * w->a + id * w->b;
        l[2] = ia * w->c + ic * w->d;
        l[3] = ib * w->c + id * w->d;
        l[4] = ia * w->tx + ic * w->ty + itx;
        l[5] = ib * w->tx + id * w->ty + ity;
    }
    /* mirrored: x axis (a, -b), y axis (-c, d) */
    double rot = atan2(-l[1], l[0]) * RAD2DEG;
    double ya = atan2(l[3], -l[2]) * RAD2DEG;
    out[0] = l[4];
    out[1] = -l[5];
    out[3] = hypot(l[0], l[1]);
    out[4] = hypot(l[2], l[3]);
    double shear = ya - 90.0 - rot;
    shear -= 360.0 * floor((shear + 180.0) / 360.0);
    if (prev) {
        rot += 360.0 * floor((prev[2] - rot) / 360.0 + 0.5);
        shear += 360.0 * floor((prev[5] - shear) / 360.0 + 0.5);
    }
    out[2] = rot;
    out[5] = shear;
}

static bool bake_world(sinew_instance *inst, uint32_t b, const sinew_model_armature *a, const double *prev,
                       double out[6]) {
    sinew_affine w, pw;
    const char *nm;
    uint32_t parent;
    if (!sinew_instance_bone(inst, 0, b, &nm, &parent, &w))
        return false;
    bool root = a->bones[b].parent == SINEW_INVALID_INDEX;
    if (!root && !sinew_instance_bone(inst, 0, a->bones[b].parent, &nm, &parent, &pw))
        return false;
    spine_local(root ? NULL : &pw, &w, prev, out);
    return true;
}

/* The bone above b (or NULL) under whose non-uniform scale or skew Spine's inherit mode of b turns
 * b otherwise than DragonBones' (see warn_inherit), in the setup pose or any animation. */
static const sinew_model_bone *inherit_inexact(const sinew_model_armature *a, uint32_t b) {
    const char *mode = inherit_name(&a->bones[b]);
    if (strcmp(mode, "normal") == 0 || strcmp(mode, "onlyTranslation") == 0)
        return NULL;
    for (uint32_t p = a->bones[b].parent; p != SINEW_INVALID_INDEX; p = a->bones[p].parent) {
        if (nonuniform_scale(a, p, NULL))
            return &a->bones[p];
        for (uint32_t n = 0; n < a->animation_count; ++n)
            if (nonuniform_scale(a, p, &a->animations[n]))
                return &a->bones[p];
    }
    return NULL;
}

/* Decides which bones are baked and computes their setup: the bones of IK chains Spine's solver
 * would place otherwise, bones whose inherit flags Spine cannot reproduce (inheritTranslation
 * false; inheritScale or inheritRotation false under a non-uniform scale or skew), and the chains
 * of IK constraints on baked bones. Their setup is the pose sinew computes as the official
 * runtime does (IK solved). */
static void bake_setup(sp_ctx *c) {
    const sinew_model_armature *a = c->arm;
    c->ik_baked = sinew__calloc(c->a, a->ik_count + 1, sizeof *c->ik_baked);
    c->bone_baked = sinew__calloc(c->a, a->bone_count + 1, sizeof *c->bone_baked);
    c->bone_setup = sinew__calloc(c->a, 6 * (size_t)a->bone_count + 1, sizeof *c->bone_setup);
    if (!c->ik_baked || !c->bone_baked || !c->bone_setup) {
        c->nomem = true;
        return;
    }
    bool any = false;
    size_t by_inherit_size = ((size_t)a->bone_count + 1) * sizeof(bool);
    bool *by_inherit = sinew__calloc(c->a, 1, by_inherit_size);
    if (!by_inherit) {
        c->nomem = true;
        return;
    }
    for (uint32_t b = 0; b < a->bone_count; ++b)
        if (!a->bones[b].is_surface && (!a->bones[b].inherit_translation || inherit_inexact(a, b)))
            c->bone_baked[b] = by_inherit[b] = any = true;
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        const sinew_model_ik *k = &a->iks[i];
        if (!ik_exact(c, k) || c->bone_baked[k->bone] || c->bone_baked[k->root]) {
            c->ik_baked[i] = any = true;
            c->bone_baked[k->bone] = c->bone_baked[k->root] = true;
        }
    }
    if (!any) {
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = a->name;
    io.allocator = c->a;
    sinew_instance *inst = NULL;
    sinew_error e;
    memset(&e, 0, sizeof e);
    bool ok = sinew_instance_create(c->data, &io, &inst, &e) == SINEW_OK;
    if (ok) {
        sinew_instance_update(inst, 0.0);
        while (sinew_instance_poll_event(inst, NULL)) {
        }
        for (uint32_t b = 0; b < a->bone_count && ok; ++b)
            if (c->bone_baked[b])
                ok = bake_world(inst, b, a, NULL, c->bone_setup + 6 * (size_t)b);
    }
    sinew_instance_destroy(inst);
    if (!ok && e.code == SINEW_E_NOMEM) { /* out of memory is an error, not a pose to keep */
        c->nomem = true;
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    if (!ok) { /* keep the bones as they are; warn_ik_scale and warn_inherit name them */
        memset(c->ik_baked, 0, (a->ik_count + 1) * sizeof *c->ik_baked);
        memset(c->bone_baked, 0, (a->bone_count + 1) * sizeof *c->bone_baked);
        sinew__free(c->a, by_inherit, by_inherit_size);
        return;
    }
    for (uint32_t b = 0; b < a->bone_count; ++b) {
        if (!by_inherit[b])
            continue;
        const sinew_model_bone *p = inherit_inexact(a, b);
        if (!a->bones[b].inherit_translation)
            warn(c, "bone '%s': inheritTranslation false has no Spine equivalent: baked into keys (%d per frame, "
                    "written with inherit normal)",
                 a->bones[b].name, BAKE_PER_FRAME);
        else
            warn(c, "bone '%s': its inherit mode (%s) under the non-uniform scale or skew of bone '%s' turns it "
                    "otherwise in Spine: baked into keys (%d per frame, written with inherit normal)",
                 a->bones[b].name, inherit_name(&a->bones[b]), p ? p->name : "", BAKE_PER_FRAME);
    }
    sinew__free(c->a, by_inherit, by_inherit_size);
    for (uint32_t i = 0; i < a->ik_count; ++i) {
        if (!c->ik_baked[i])
            continue;
        const sinew_model_ik *k = &a->iks[i];
        if (k->root != k->bone)
            warn(c, "IK '%s': Spine's solver would place this chain differently (non-uniform scale or skew above "
                    "it, or bones that do not inherit rotation and scale): baked into keys of bones '%s' and '%s' "
                    "(%d per frame, the constraint is not written)",
                 k->name, a->bones[k->root].name, a->bones[k->bone].name, BAKE_PER_FRAME);
        else
            warn(c, "IK '%s': Spine's solver would place this bone differently (non-uniform scale or skew above "
                    "it): baked into keys of bone '%s' (%d per frame, the constraint is not written)",
                 k->name, a->bones[k->bone].name, BAKE_PER_FRAME);
    }
}

/* Writes the baked bones' keys of animation an: sinew plays it as `sinew poses` does (the
 * official runtime's way) and each baked bone's local transform is read every 1 / BAKE_PER_FRAME
 * frame, as linear keys relative to the baked setup. */
static void bake_animation(sp_ctx *c, cJSON *anim_obj) {
    const sinew_model_armature *a = c->arm;
    const sinew_model_animation *an = c->anim;
    uint32_t nb = 0;
    for (uint32_t b = 0; b < a->bone_count; ++b)
        nb += c->bone_baked[b];
    if (!nb)
        return;
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = a->name;
    io.allocator = c->a;
    sinew_instance *inst = NULL;
    sinew_error e;
    memset(&e, 0, sizeof e);
    if (sinew_instance_create(c->data, &io, &inst, &e) != SINEW_OK ||
        sinew_instance_play(inst, an->name, -1, &e) != SINEW_OK) {
        sinew_instance_destroy(inst);
        if (e.code == SINEW_E_NOMEM) {
            c->nomem = true;
            return;
        }
        warn(c, "IK chains could not be baked (%s); their bones keep the setup pose", e.message);
        return;
    }
    uint32_t steps = an->frame_count * BAKE_PER_FRAME;
    double dt = 1.0 / (a->frame_rate * BAKE_PER_FRAME);
    size_t kls_count = (size_t)a->bone_count * 4 + 1, prev_count = 6 * (size_t)a->bone_count + 1;
    keylist *kls = sinew__calloc(c->a, kls_count, sizeof *kls);
    double *prev = sinew__calloc(c->a, prev_count, sizeof *prev);
    bool ok = kls && prev;
    for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
        kls[4 * b].n = 2;
        kls[4 * b + 1].n = 1;
        kls[4 * b + 2].n = 2;
        kls[4 * b + 3].n = 2;
        memcpy(prev + 6 * (size_t)b, c->bone_setup + 6 * (size_t)b, 6 * sizeof *prev);
    }
    for (uint32_t k = 0; ok && k <= steps; ++k) {
        sinew_instance_update(inst, k ? dt * c->time_scale : 0.0);
        while (sinew_instance_poll_event(inst, NULL)) {
        }
        double t = k * dt;
        for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
            if (!c->bone_baked[b])
                continue;
            double l[6];
            const double *su = c->bone_setup + 6 * (size_t)b;
            ok = bake_world(inst, b, a, prev + 6 * (size_t)b, l);
            memcpy(prev + 6 * (size_t)b, l, sizeof l);
            double tr[2] = {l[0] - su[0], l[1] - su[1]}, ro[1] = {l[2] - su[2]};
            double sc[2] = {su[3] != 0.0 ? l[3] / su[3] : 1.0, su[4] != 0.0 ? l[4] / su[4] : 1.0};
            double sh[2] = {0.0, l[5] - su[5]};
            ok = ok && kl_push(c, &kls[4 * b], t, false, tr) && kl_push(c, &kls[4 * b + 1], t, false, ro) &&
                 kl_push(c, &kls[4 * b + 2], t, false, sc) && kl_push(c, &kls[4 * b + 3], t, false, sh);
        }
    }
    sinew_instance_destroy(inst);
    cJSON *bones = NULL;
    static const char *const xy[2] = {"x", "y"}, *const val[1] = {"value"};
    static const char *const tl[4] = {"translate", "rotate", "scale", "shear"};
    for (uint32_t b = 0; ok && b < a->bone_count; ++b) {
        if (!c->bone_baked[b])
            continue;
        if (!bones && !(bones = cJSON_GetObjectItemCaseSensitive(anim_obj, "bones")) &&
            !(bones = add_obj(c, anim_obj, "bones")))
            break;
        cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones, a->bones[b].name);
        if (!bo && !(bo = add_obj(c, bones, a->bones[b].name)))
            break;
        static const double tol[4] = {BAKE_TOL_UNITS, BAKE_TOL_DEG, BAKE_TOL_SCALE, BAKE_TOL_DEG};
        for (int i = 0; i < 4; ++i) {
            kl_thin(&kls[4 * b + (uint32_t)i], tol[i]);
            write_kl(c, bo, tl[i], &kls[4 * b + (uint32_t)i], i == 1 ? val : xy);
        }
    }
    if (!ok)
        c->nomem = true;
    for (uint32_t i = 0; kls && i < 4 * a->bone_count; ++i)
        kl_free(c, &kls[i]);
    sinew__free(c->a, kls, kls_count * sizeof *kls);
    sinew__free(c->a, prev, prev_count * sizeof *prev);
}

/* The latest key time in a written animation (spine-core's duration of it). */
static double last_key(const cJSON *o) {
    double t = 0.0;
    for (const cJSON *ch = o ? o->child : NULL; ch; ch = ch->next) {
        if (cJSON_IsNumber(ch) && ch->string && strcmp(ch->string, "time") == 0)
            t = fmax(t, ch->valuedouble);
        else if (cJSON_IsObject(ch) || cJSON_IsArray(ch))
            t = fmax(t, last_key(ch));
    }
    return t;
}

/* Spine's duration of an animation is its last key's time, DragonBones' the animation's own: every
 * timeline written ends with a key at the end (build_local_keys), but a bone timeline that stays at
 * its identity is left out, and an animation may have nothing else. Then the first such timeline is
 * written after all (DragonBones' timeline holds the bone at its setup pose too); without one the
 * Spine animation ends at its last key, with a warning. */
static void end_keys(sp_ctx *c, cJSON *anim_obj) {
    const sinew_model_armature *a = c->arm;
    const sinew_model_animation *an = c->anim;
    double want = an->frame_count / (double)a->frame_rate * c->time_scale, have = last_key(anim_obj);
    if (have >= want * (1.0 - 1e-9))
        return;
    for (uint32_t t = 0; t < an->timeline_count; ++t) {
        const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
        bool bone = T->type == SINEW_TL_BONE_ALL || T->type == SINEW_TL_BONE_TRANSLATE ||
                    T->type == SINEW_TL_BONE_ROTATE || T->type == SINEW_TL_BONE_SCALE;
        if (!bone || c->bone_baked[T->target] || T->grid_key_count == 0)
            continue;
        cJSON *bones = cJSON_GetObjectItemCaseSensitive(anim_obj, "bones");
        if (!bones && !(bones = add_obj(c, anim_obj, "bones")))
            return;
        cJSON *bo = cJSON_GetObjectItemCaseSensitive(bones, a->bones[T->target].name);
        const char *first = T->type == SINEW_TL_BONE_ROTATE ? "rotate" : T->type == SINEW_TL_BONE_SCALE ? "scale"
                                                                                                        : "translate";
        if (bo && cJSON_GetObjectItemCaseSensitive(bo, first))
            continue;
        bone_timeline(c, bones, T, true);
        if (last_key(anim_obj) >= want * (1.0 - 1e-9))
            return;
    }
    warn(c, "nothing is keyed up to the animation's end: the Spine animation lasts %g s, the DragonBones one %g s",
         have, want);
}

static void write_animations(sp_ctx *c, cJSON *root) {
    const sinew_model_armature *a = c->arm;
    cJSON *events_decl = add_obj(c, root, "events");
    cJSON *anims = add_obj(c, root, "animations");
    for (uint32_t i = 0; i < a->animation_count && !c->nomem; ++i) {
        const sinew_model_animation *an = &a->animations[i];
        c->anim = an;
        cJSON *ao = add_obj(c, anims, an->name);
        if (!ao)
            break;
        c->time_scale = an->scale > 0.0 ? an->scale : 1.0;
        warn_ik_scale(c, an);
        warn_inherit(c, an);
        if (an->play_times > 1)
            warn(c, "playTimes %d written as a loop (Spine animations loop or play once)", (int)an->play_times);
        cJSON *bones = NULL, *slots = NULL, *ik = NULL;
        for (uint32_t t = 0; t < an->timeline_count; ++t) {
            const sinew_model_timeline *T = &a->timelines[an->first_timeline + t];
            if (T->type == SINEW_TL_ZORDER && (T->scale != 1.0f || T->offset != 0.0f))
                warn(c, "the zOrder timeline's scale %g / offset %g not carried (written on the animation's clock)",
                     (double)T->scale, (double)T->offset);
            switch (T->type) {
            case SINEW_TL_BONE_ALL:
            case SINEW_TL_BONE_TRANSLATE:
            case SINEW_TL_BONE_ROTATE:
            case SINEW_TL_BONE_SCALE:
                if (c->bone_baked[T->target])
                    break; /* baked below */
                if (!bones && !(bones = add_obj(c, ao, "bones")))
                    break;
                bone_timeline(c, bones, T, false);
                break;
            case SINEW_TL_SLOT_DISPLAY:
                if (!slots && !(slots = add_obj(c, ao, "slots")))
                    break;
                slot_display_timeline(c, slots, T);
                break;
            case SINEW_TL_SLOT_COLOR:
                if (!slots && !(slots = add_obj(c, ao, "slots")))
                    break;
                slot_color_timeline(c, slots, T);
                break;
            case SINEW_TL_FFD:
                deform_timeline(c, ao, T);
                break;
            case SINEW_TL_IK:
                if (c->ik_baked[T->target])
                    break;
                if (!ik && !(ik = add_obj(c, ao, "ik")))
                    break;
                ik_timeline(c, ik, T);
                break;
            case SINEW_TL_ZORDER:
                zorder_timeline(c, ao, T);
                break;
            case SINEW_TL_SURFACE:
                warn(c, "surface timeline dropped (Spine has no surfaces)");
                break;
            }
        }
        bake_animation(c, ao);
        events_of(c, ao, events_decl);
        end_keys(c, ao);
    }
    c->anim = NULL;
}

/* ---- the atlas file ----------------------------------------------------------------------------- */

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The page's image file (NULL: none named), and whether it is missing (no file at that path). */
static const char *page_image(const sinew_model_page *pg) {
    return pg->resolved_path ? pg->resolved_path : pg->image_path;
}

static bool page_missing(const sinew_model_page *pg) {
    struct stat st;
    const char *path = page_image(pg);
    return !path || (stat(path, &st) != 0 && errno == ENOENT);
}

/* The page size the Spine atlas states (its region UVs are bounds over it): the atlas JSON's, else
 * the image's. A page whose image is missing and whose atlas gives no size gets the extent of its
 * regions, with a warning (the export goes on without the image: see write_atlas_text). */
static sinew_status page_size(sp_ctx *c, uint32_t p, uint32_t *w, uint32_t *h, sinew_error *err) {
    const sinew_model_page *pg = &c->atlas->pages[p];
    if (pg->width && pg->height) {
        *w = pg->width;
        *h = pg->height;
        return SINEW_OK;
    }
    const char *path = page_image(pg);
    if (page_missing(pg)) {
        double ew = 1.0, eh = 1.0;
        for (uint32_t i = 0; i < c->atlas->region_count; ++i) {
            const sinew_model_region *r = &c->atlas->regions[i];
            if (r->page == p) {
                ew = fmax(ew, ceil((double)r->x + r->width));
                eh = fmax(eh, ceil((double)r->y + r->height));
            }
        }
        *w = ew < 1e9 ? (uint32_t)ew : 1000000000u;
        *h = eh < 1e9 ? (uint32_t)eh : 1000000000u;
        warn(c, "atlas page '%s': no size in the atlas and no image to read it from: written as %u x %u, the extent "
                "of its regions (its UVs are right only if that is the image's size)",
             pg->name, *w, *h);
        return SINEW_OK;
    }
    if (sinew__png_file_size(path, w, h) != SINEW_OK)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL,
                              "cannot read the page image's size (the Spine atlas needs it)");
    return SINEW_OK;
}

typedef struct sbuf {
    const sinew_allocator *a;
    char *p;
    size_t n, cap;
    bool bad;
} sbuf;

SINEW_PRINTF(2, 3)
static void sb_printf(sbuf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = sinew__vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = true;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 4096) + (size_t)k;
        char *np = sinew__realloc(b->a, b->p, b->cap, nc);
        if (!np) {
            b->bad = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

/* Spine's atlas reader takes integers only. Region names with a line break cannot be written. */
static bool atlas_int(float v) { return v == floorf(v) && fabsf(v) < 1e9f; }

static sinew_status write_atlas_text(sp_ctx *c, const bool *page_used, sbuf *b, sinew_error *err) {
    const struct sinew_atlas *at = c->atlas;
    for (uint32_t p = 0; p < at->page_count; ++p) {
        if (!page_used[p])
            continue;
        const sinew_model_page *pg = &at->pages[p];
        uint32_t w = 0, h = 0;
        sinew_status st = page_size(c, p, &w, &h, err);
        if (st != SINEW_OK)
            return st;
        sb_printf(b, "%s%s\nsize: %u, %u\nfilter: Linear, Linear\n", b->n ? "\n" : "",
                  base_name(pg->image_path ? pg->image_path : pg->name), w, h);
        for (uint32_t i = 0; i < at->region_count; ++i) {
            const sinew_model_region *r = &at->regions[i];
            if (r->page != p)
                continue;
            if (strpbrk(r->name, "\r\n") || r->name[0] == ' ') {
                warn(c, "region '%s': its name cannot be written in a Spine atlas; dropped", r->name);
                continue;
            }
            if (!atlas_int(r->x) || !atlas_int(r->y) || !atlas_int(r->width) || !atlas_int(r->height))
                warn(c, "region '%s': fractional bounds rounded (Spine atlases hold integers)", r->name);
            /* bounds: the size as displayed (Spine's convention for rotated regions) */
            float dw = r->rotated ? r->height : r->width, dh = r->rotated ? r->width : r->height;
            sb_printf(b, "%s\nbounds: %.0f, %.0f, %.0f, %.0f\n", r->name, (double)r->x, (double)r->y, (double)dw,
                      (double)dh);
            if (r->rotated)
                sb_printf(b, "rotate: 90\n");
        }
    }
    if (b->bad)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    return SINEW_OK;
}

static sinew_status copy_file(const sinew_allocator *a, const char *from, const char *to, const char *const *inputs,
                              uint32_t n, sinew_error *err) {
    FILE *f = fopen(from, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, from, 0, 0, NULL, "cannot open: %s", strerror(errno));
    sbuf b = {a, NULL, 0, 0, false};
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.n + r > b.cap) {
            size_t nc = (b.cap ? b.cap * 2 : 65536) + r;
            char *np = sinew__realloc(a, b.p, b.cap, nc);
            if (!np) {
                sinew__free(a, b.p, b.cap);
                fclose(f);
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            }
            b.p = np;
            b.cap = nc;
        }
        memcpy(b.p + b.n, chunk, r);
        b.n += r;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        sinew__free(a, b.p, b.cap);
        return sinew__fail_at(err, SINEW_E_IO, from, 0, 0, NULL, "read error");
    }
    sinew_status st = sinew__write_file_atomic(to, b.p ? b.p : "", b.n, inputs, n, a, err);
    sinew__free(a, b.p, b.cap);
    return st;
}

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* ---- the conversion ---------------------------------------------------------------------------- */

static void join(char *out, size_t size, const char *dir, const char *name, const char *suffix) {
    size_t dl = strlen(dir);
    snprintf(out, size, "%s%s%s%s", dir, dl && dir[dl - 1] != '/' ? "/" : "", name, suffix);
}

static void free_keys(sp_ctx *c) {
    if (c->keys && c->key_first && c->key_count)
        for (uint32_t s = 0; s < c->arm->slot_count; ++s)
            for (uint32_t i = 0; i < c->key_count[s]; ++i)
                if (c->keys[c->key_first[s] + i])
                    sinew__free(c->a, c->keys[c->key_first[s] + i], strlen(c->keys[c->key_first[s] + i]) + 1);
    sinew__free(c->a, c->keys, ((size_t)c->key_total + 1) * sizeof *c->keys);
    sinew__free(c->a, c->key_first, ((size_t)c->arm->slot_count + 1) * sizeof *c->key_first);
    sinew__free(c->a, c->key_count, ((size_t)c->arm->slot_count + 1) * sizeof *c->key_count);
    c->keys = NULL;
    c->key_first = c->key_count = NULL;
}

sinew_status sinew_convert_spine(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                 sinew_convert_result *result, sinew_error *err) {
    sinew_convert_result local;
    sinew_convert_result *res = result ? result : &local;
    memset(res, 0, sizeof *res);
    if (!input || !out_dir)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_convert_spine: NULL argument");
    struct stat st_dir;
    if (stat(out_dir, &st_dir) != 0 || !S_ISDIR(st_dir.st_mode))
        return sinew__fail_at(err, SINEW_E_IO, out_dir, 0, 0, NULL, "not a folder");
    if (opts && opts->spine_version && strcmp(opts->spine_version, "4.2") != 0)
        return sinew__fail(err, SINEW_E_UNSUPPORTED, NULL, "Spine version %s: only 4.2 is written",
                           opts->spine_version);
    if (sinew__xml_sniff(input, NULL, 0))
        return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, NULL,
                              "Spine is written from DragonBones JSON only (convert the XML rig to DragonBones "
                              "first)");
    const sinew_load_options *lopts = opts ? opts->load : NULL;
    struct sinew_data *data = NULL;
    sinew_status st = sinew_data_load_file(input, lopts, &data, err);
    if (st != SINEW_OK)
        return st;
    if (strcmp(data->source_format ? data->source_format : "", "dragonbones") != 0) {
        sinew_data_destroy(data);
        return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, NULL,
                              "Spine is written from DragonBones JSON only (convert the XML rig to DragonBones "
                              "first)");
    }
    res->armature_count = data->armature_count;
    uint32_t ai = sinew_data_default_armature(data);
    if (opts && opts->armature) {
        ai = SINEW_INVALID_INDEX;
        for (uint32_t i = 0; i < data->armature_count; ++i)
            if (strcmp(data->armatures[i].name, opts->armature) == 0)
                ai = i;
        if (ai == SINEW_INVALID_INDEX) { /* the error lists the armatures that exist */
            const char *overlay = NULL;
            st = sinew_data_resolve_skin(data, opts->armature, NULL, &ai, &overlay, err);
            if (err && !err->file)
                err->file = input;
            sinew_data_destroy(data);
            return st ? st : SINEW_E_NOT_FOUND;
        }
    }
    if (ai == SINEW_INVALID_INDEX) {
        sinew_data_destroy(data);
        return sinew__fail_at(err, SINEW_E_NOT_FOUND, input, 0, 0, NULL, "the file has no armature");
    }
    char atlas_path[1024];
    if (opts && opts->atlas)
        snprintf(atlas_path, sizeof atlas_path, "%s", opts->atlas);
    else if (sinew_atlas_find_for(input, atlas_path, sizeof atlas_path) != SINEW_OK) {
        sinew_data_destroy(data);
        return sinew__fail_at(err, SINEW_E_NOT_FOUND, input, 0, 0, NULL,
                              "no texture atlas found beside the skeleton (Spine attachments need the regions; "
                              "give one with --atlas)");
    }
    struct sinew_atlas *atlas = NULL;
    st = sinew_atlas_load_file(atlas_path, lopts, &atlas, err);
    if (st != SINEW_OK) {
        sinew__error_detach(err, input, opts ? opts->atlas : NULL); /* atlas_path is this function's */
        sinew_data_destroy(data);
        return st;
    }
    char name[256];
    sinew__convert_name(data, opts, input, name, sizeof name);

    sp_ctx c;
    memset(&c, 0, sizeof c);
    c.o = opts;
    c.a = lopts ? lopts->allocator : NULL;
    c.input = input;
    c.data = data;
    c.arm = &data->armatures[ai];
    c.atlas = atlas;
    c.time_scale = 1.0;
    /* the other armatures: one warning, and none when the caller chose the armature */
    if (!(opts && opts->armature) && data->armature_count > 1) {
        char names[512];
        size_t n = 0;
        uint32_t listed = 0;
        names[0] = '\0';
        for (uint32_t i = 0; i < data->armature_count; ++i) {
            if (i == ai)
                continue;
            int w = snprintf(names + n, sizeof names - n, "%s'%s'", listed ? ", " : "", data->armatures[i].name);
            if (w < 0 || (size_t)w >= sizeof names - n - 24) {
                names[n] = '\0';
                snprintf(names + n, sizeof names - n, " and %u more", data->armature_count - 1 - listed);
                break;
            }
            n += (size_t)w;
            listed++;
        }
        warn(&c, "the other armatures (%s) are not written (a Spine skeleton holds one armature; choose another "
                 "with --armature)",
             names);
    }
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    size_t text_size = 0;
    bool *page_used = sinew__calloc(c.a, (size_t)atlas->page_count + 1, sizeof *page_used);
    if (!root || !page_used || !build_keys(&c)) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    cJSON *sk = add_obj(&c, root, "skeleton");
    str(&c, sk, "spine", "4.2.0");
    num(&c, sk, "fps", c.arm->frame_rate);
    bake_setup(&c);
    if (c.nomem) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    write_bones(&c, root);
    write_slots(&c, root);
    write_ik(&c, root);
    write_skins(&c, root);
    write_animations(&c, root);
    if (c.nomem || !(text = sinew__json_print(root, false, c.a, &text_size))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < atlas->region_count; ++i)
        if (atlas->regions[i].page < atlas->page_count)
            page_used[atlas->regions[i].page] = true;
    sbuf ab = {c.a, NULL, 0, 0, false};
    st = write_atlas_text(&c, page_used, &ab, err);
    if (st == SINEW_OK) {
        const char *inputs[2] = {input, atlas_path};
        join(res->skeleton_path, sizeof res->skeleton_path, out_dir, name, ".json");
        join(res->atlas_json_path, sizeof res->atlas_json_path, out_dir, name, ".atlas");
        /* nothing is written when the skeleton or the atlas would replace an input */
        st = sinew__check_not_input(res->skeleton_path, inputs, 2, err);
        if (st == SINEW_OK)
            st = sinew__check_not_input(res->atlas_json_path, inputs, 2, err);
        /* pages first, so a skeleton never refers to a page that failed to copy (a missing image is a
           warning: the atlas and the skeleton are written without it) */
        for (uint32_t p = 0; p < atlas->page_count && st == SINEW_OK; ++p) {
            if (!page_used[p])
                continue;
            const sinew_model_page *pg = &atlas->pages[p];
            const char *from = page_image(pg);
            char to[1024];
            join(to, sizeof to, out_dir, base_name(pg->image_path ? pg->image_path : pg->name), "");
            if (!from || same_file(from, to))
                continue;
            if (page_missing(pg)) { /* the atlas and the skeleton are still written */
                warn(&c, "atlas page '%s': image '%s' not found, not copied (the .atlas names it as '%s': put it "
                         "beside the .atlas)",
                     pg->name, from, base_name(pg->image_path ? pg->image_path : pg->name));
                continue;
            }
            st = copy_file(c.a, from, to, inputs, 2, err);
            if (st != SINEW_OK) /* `to` ends with this block */
                sinew__error_detach(err, input, opts ? opts->atlas : NULL);
            if (st == SINEW_OK && !res->atlas_png_path[0])
                snprintf(res->atlas_png_path, sizeof res->atlas_png_path, "%s", to);
        }
        if (st == SINEW_OK)
            st = sinew__write_file_atomic(res->atlas_json_path, ab.p ? ab.p : "", ab.n, inputs, 2, c.a, err);
        if (st == SINEW_OK)
            st = sinew__write_file_atomic(res->skeleton_path, text, strlen(text), inputs, 2, c.a, err);
        if (st != SINEW_OK) {
            sinew__error_detach(err, input, opts ? opts->atlas : NULL); /* emptied here */
            res->skeleton_path[0] = res->atlas_json_path[0] = res->atlas_png_path[0] = '\0';
        }
    }
    sinew__free(c.a, ab.p, ab.cap);
out:
    if (st != SINEW_OK) /* an error naming atlas_path, a page or an output: those go away here */
        sinew__error_detach(err, input, opts ? opts->atlas : NULL);
    res->warning_count = c.warnings;
    sinew__free(c.a, text, text_size);
    sinew__free(c.a, page_used, ((size_t)atlas->page_count + 1) * sizeof *page_used);
    cJSON_Delete(root);
    free_keys(&c);
    sinew__free(c.a, c.ik_baked, ((size_t)c.arm->ik_count + 1) * sizeof *c.ik_baked);
    sinew__free(c.a, c.bone_baked, ((size_t)c.arm->bone_count + 1) * sizeof *c.bone_baked);
    sinew__free(c.a, c.bone_setup, (6 * (size_t)c.arm->bone_count + 1) * sizeof *c.bone_setup);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return st;
}
