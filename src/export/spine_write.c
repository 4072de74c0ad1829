
#define _POSIX_C_SOURCE 200809L
/*
 * sinew_convert_spine (include/sinew/convert.h): one armature of a DragonBones JSON file to a
 * Spine 4.2 skeleton (`NAME.json`) and a Spine atlas (`NAME.atlas`) over the DragonBones atlas
 * pages. docs/convert.md has the table of what maps to what and the warnings.
 *
 * Bones Spine would move otherwise (IK chains its solver places differently, inherit flags its
 * inherit modes do not reproduce) are baked: sinew plays the animation, and their local transforms
 * are written as keys (sinew__sp_bake_setup, sinew__sp_bake_animation).
 *
 * Coordinates. DragonBones is y-down, Spine y-up: every position is written with y negated and
 * every angle negated, which is the DragonBones pose seen through the mirror y -> -y (a Spine
 * runtime with `Skeleton.yDown` set shows it exactly as DragonBones does). A DragonBones local
 * transform (rotation r = skY, skew = skX - skY) has the x axis turned by r and the y axis by
 * r + skew; through the mirror that is Spine rotation -r, shearX 0, shearY -skew.
 *
 * Timelines. DragonBones keys sit on the integer frame grid the official parser builds (the
 * model's frame_start / frame_span); the last key tweens back to the first when the animation
 * sinew__sp_loops. Spine interpolates each key linearly or holds it (stepped). A DragonBones `curve` is
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
#include "export/spine_internal.h"
#include "format/png_header.h"
#include "format/xml_rig.h"
#include "model/model.h"
#include "sinew/convert.h"
#include "sinew/data.h"
#include "sinew/instance.h"


SINEW_PRINTF(2, 3)
void sinew__sp_warn(sp_ctx *c, const char *fmt, ...) {
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

cJSON *sinew__sp_add_obj(sp_ctx *c, cJSON *parent, const char *key) {
    cJSON *o = cJSON_CreateObject();
    if (!o || (key ? !cJSON_AddItemToObject(parent, key, o) : !cJSON_AddItemToArray(parent, o))) {
        cJSON_Delete(o);
        c->nomem = true;
        return NULL;
    }
    return o;
}

cJSON *sinew__sp_add_arr(sp_ctx *c, cJSON *parent, const char *key) {
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

void sinew__sp_num(sp_ctx *c, cJSON *o, const char *key, double v) {
    if (!o)
        return;
    if (!cJSON_AddNumberToObject(o, key, tidy(v)))
        c->nomem = true;
}

/* Key times are written exactly (spine-core then keeps them as float32), stretched by the
 * animation's `scale` (the official runtime plays an animation at 1 / scale). */
void sinew__sp_num_time(sp_ctx *c, cJSON *o, double t) {
    if (!o || t == 0.0)
        return;
    t *= c->time_scale;
    if (!cJSON_AddNumberToObject(o, "time", t))
        c->nomem = true;
}

void sinew__sp_str(sp_ctx *c, cJSON *o, const char *key, const char *v) {
    if (!o)
        return;
    if (!cJSON_AddStringToObject(o, key, v))
        c->nomem = true;
}

void sinew__sp_push_num(sp_ctx *c, cJSON *a, double v) {
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

void sinew__sp_mat_apply(const double m[6], double x, double y, double *ox, double *oy) {
    *ox = m[0] * x + m[2] * y + m[4];
    *oy = m[1] * x + m[3] * y + m[5];
}

void sinew__sp_display_mat(const sinew_model_display *dd, double m[6]) {
    const sinew_transform *t = &dd->transform;
    tf_mat(t->rotation, t->skew, t->scale_x, t->scale_y, t->x, t->y, m);
}

const char *sinew__sp_inherit_name(const sinew_model_bone *b) {
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
const char *sinew__sp_tex_key(const sinew_model_display *dd) { return dd->path ? dd->path : dd->name; }

const sinew_model_region *sinew__sp_region_of(const sp_ctx *c, const sinew_model_display *dd) {
    uint32_t ri = sinew__atlas_find_region(c->atlas, sinew__sp_tex_key(dd));
    return ri == SINEW_INVALID_INDEX ? NULL : &c->atlas->regions[ri];
}

float sinew__sp_texture_scale(const sp_ctx *c, const sinew_model_region *r) {
    float k = r->page < c->atlas->page_count ? c->atlas->pages[r->page].scale : 1.0f;
    return k > 0.0f ? 1.0f / k : 1.0f;
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

/* The armature written: opts->armature, else the data's default one. */
static sinew_status choose_armature(const struct sinew_data *data, const char *input, const sinew_convert_options *opts,
                                    uint32_t *out, sinew_error *err) {
    uint32_t ai = sinew_data_default_armature(data);
    if (opts && opts->armature) {
        ai = SINEW_INVALID_INDEX;
        for (uint32_t i = 0; i < data->armature_count; ++i)
            if (strcmp(data->armatures[i].name, opts->armature) == 0)
                ai = i;
        if (ai == SINEW_INVALID_INDEX) { /* the error lists the armatures that exist */
            const char *overlay = NULL;
            sinew_status st = sinew_data_resolve_skin(data, opts->armature, NULL, &ai, &overlay, err);
            if (err && !err->file)
                err->file = input;
            return st ? st : SINEW_E_NOT_FOUND;
        }
    }
    if (ai == SINEW_INVALID_INDEX)
        return sinew__fail_at(err, SINEW_E_NOT_FOUND, input, 0, 0, NULL, "the file has no armature");
    *out = ai;
    return SINEW_OK;
}

/* The atlas: opts->atlas, else the one beside the input. */
static sinew_status find_atlas(const char *input, const sinew_convert_options *opts, char *path, size_t size,
                               sinew_error *err) {
    if (opts && opts->atlas) {
        snprintf(path, size, "%s", opts->atlas);
        return SINEW_OK;
    }
    if (sinew_atlas_find_for(input, path, size) != SINEW_OK)
        return sinew__fail_at(err, SINEW_E_NOT_FOUND, input, 0, 0, NULL,
                              "no texture atlas found beside the skeleton (Spine attachments need the regions; "
                              "give one with --atlas)");
    return SINEW_OK;
}

/* One warning naming the armatures other than `ai`, which are not written. */
static void warn_other_armatures(sp_ctx *c, uint32_t ai) {
    const struct sinew_data *data = c->data;
    if (data->armature_count <= 1)
        return;
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
    sinew__sp_warn(c, "the other armatures (%s) are not written (a Spine skeleton holds one armature; choose another "
                      "with --armature)",
                   names);
}

/* The files: the pages used (copied; a missing one is a warning), then the .atlas and the skeleton.
 * Nothing is written when the skeleton or the atlas would replace an input. */
static sinew_status write_files(sp_ctx *c, const char *out_dir, const char *name, const char *atlas_path,
                                const bool *page_used, const sbuf *ab, const char *text, sinew_convert_result *res,
                                sinew_error *err) {
    const char *input = c->input;
    const sinew_convert_options *opts = c->o;
    const struct sinew_atlas *atlas = c->atlas;
    const char *inputs[2] = {input, atlas_path};
    join(res->skeleton_path, sizeof res->skeleton_path, out_dir, name, ".json");
    join(res->atlas_json_path, sizeof res->atlas_json_path, out_dir, name, ".atlas");
    sinew_status st = sinew__check_not_input(res->skeleton_path, inputs, 2, err);
    if (st == SINEW_OK)
        st = sinew__check_not_input(res->atlas_json_path, inputs, 2, err);
    /* pages first, so a skeleton never refers to a page that failed to copy (a missing image is a
       warning: the atlas and the skeleton are written without it) */
    for (uint32_t p = 0; p < atlas->page_count && st == SINEW_OK; ++p) {
        if (!page_used[p])
            continue;
        const sinew_model_page *pg = &atlas->pages[p];
        const char *from = sinew__sp_page_image(pg);
        char to[1024];
        join(to, sizeof to, out_dir, sinew__sp_base_name(pg->image_path ? pg->image_path : pg->name), "");
        if (!from || sinew__sp_same_file(from, to))
            continue;
        if (sinew__sp_page_missing(pg)) { /* the atlas and the skeleton are still written */
            sinew__sp_warn(c, "atlas page '%s': image '%s' not found, not copied (the .atlas names it as '%s': put it "
                              "beside the .atlas)",
                           pg->name, from, sinew__sp_base_name(pg->image_path ? pg->image_path : pg->name));
            continue;
        }
        st = sinew__sp_copy_file(c->a, from, to, inputs, 2, err);
        if (st != SINEW_OK) /* `to` ends with this block */
            sinew__error_detach(err, input, opts ? opts->atlas : NULL);
        if (st == SINEW_OK && !res->atlas_png_path[0])
            snprintf(res->atlas_png_path, sizeof res->atlas_png_path, "%s", to);
    }
    if (st == SINEW_OK)
        st = sinew__write_file_atomic(res->atlas_json_path, ab->p ? ab->p : "", ab->n, inputs, 2, c->a, err);
    if (st == SINEW_OK)
        st = sinew__write_file_atomic(res->skeleton_path, text, strlen(text), inputs, 2, c->a, err);
    if (st != SINEW_OK) {
        sinew__error_detach(err, input, opts ? opts->atlas : NULL); /* emptied here */
        res->skeleton_path[0] = res->atlas_json_path[0] = res->atlas_png_path[0] = '\0';
    }
    return st;
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
    if ((st = sinew__convert_refuse_v6(data, input, "Spine", err)) != SINEW_OK) {
        sinew_data_destroy(data);
        return st;
    }
    res->armature_count = data->armature_count;
    uint32_t ai = SINEW_INVALID_INDEX;
    char atlas_path[1024];
    if ((st = choose_armature(data, input, opts, &ai, err)) != SINEW_OK ||
        (st = find_atlas(input, opts, atlas_path, sizeof atlas_path, err)) != SINEW_OK) {
        sinew_data_destroy(data);
        return st;
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
    if (!(opts && opts->armature)) /* none when the caller chose the armature */
        warn_other_armatures(&c, ai);
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    size_t text_size = 0;
    bool *page_used = sinew__calloc(c.a, (size_t)atlas->page_count + 1, sizeof *page_used);
    if (!root || !page_used || !sinew__sp_build_keys(&c)) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    cJSON *sk = sinew__sp_add_obj(&c, root, "skeleton");
    sinew__sp_str(&c, sk, "spine", "4.2.0");
    sinew__sp_num(&c, sk, "fps", c.arm->frame_rate);
    sinew__sp_bake_setup(&c);
    if (c.nomem) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    sinew__sp_write_bones(&c, root);
    sinew__sp_write_slots(&c, root);
    sinew__sp_write_ik(&c, root);
    sinew__sp_write_skins(&c, root);
    sinew__sp_write_animations(&c, root);
    if (c.nomem || !(text = sinew__json_print(root, false, c.a, &text_size))) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < atlas->region_count; ++i)
        if (atlas->regions[i].page < atlas->page_count)
            page_used[atlas->regions[i].page] = true;
    sbuf ab = {c.a, NULL, 0, 0, false};
    st = sinew__sp_write_atlas_text(&c, page_used, &ab, err);
    if (st == SINEW_OK)
        st = write_files(&c, out_dir, name, atlas_path, page_used, &ab, text, res, err);
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
