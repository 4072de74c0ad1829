/*
 * The DragonBones JSON writers (see dragonbones_write.h): the document, the armatures' setup
 * (bones, slots, skins, displays, IK and path constraints) and the JSON helpers, shared by the 4.5
 * writer (dragonbones_write45.c: 4.x combined frames) and the 5.5 writer (dragonbones_write55.c:
 * the model's channels as they are). docs/convert.md says which to pick.
 *
 * Numbers. The 4.5 writer rounds (9 significant digits, angles 7). The 5.5 writer writes every
 * number so that it reads back exactly as the model holds it, and as the source most likely wrote
 * it: a float as the shortest decimal giving that float, an angle as the degrees the official
 * parser turns into the model's radians (sinew__dbw_shortest), the setup transforms from the
 * doubles the official parser computed (bone setup_d).
 *
 * Rotations (4.5). The runtime unwraps keyframe angles while parsing (shortest path, or
 * `tweenRotate` extra turns). The writer first works out the path the source means (its own
 * unwrapping, or plain numbers for XML rigs), then picks each key's tweenRotate by replaying the
 * runtime's unwrapping on the exact numbers it writes, so that the runtime follows the same path.
 */
#include "base/atomic.h"
#include "format/dragonbones_write_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/json_dom.h"
#include "base/json_print.h"
#include "base/num.h"

static const double DB_PI = DBW_PI;

/* ---- the runtime's rotation unwrapping ------------------------------------------------------- */

double sinew__db_normalize_radian(double v) {
    v = fmod(v + DB_PI, DB_PI * 2.0);
    v += v > 0.0 ? -DB_PI : DB_PI;
    return v;
}

double sinew__db_unwrap_first(double deg) {
    return sinew__db_normalize_radian(deg * (DB_PI / 180.0));
}

/* One step of the official parser's unwrapping (ObjectDataParser._parseBoneAllFrame). */
static double unwrap_step(double prev, double deg, int32_t clockwise) {
    double rotation = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
    if (clockwise == 0)
        return prev + sinew__db_normalize_radian(rotation - prev);
    if (clockwise > 0 ? rotation >= prev : rotation <= prev)
        clockwise = clockwise > 0 ? clockwise - 1 : clockwise + 1;
    return prev + rotation - prev + DB_PI * 2.0 * clockwise;
}

int32_t sinew__db_tween_rotate_for(double *prev_unwrapped, double deg, double delta) {
    double prev = *prev_unwrapped, want = prev + delta;
    double best_u = unwrap_step(prev, deg, 0);
    int32_t best = 0;
    double best_err = fabs(best_u - want);
    /* Half a turn is where the shortest way flips with the last bit; take the explicit way. */
    double rotation0 = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
    if (fabs(sinew__db_normalize_radian(rotation0 - prev)) > DB_PI - 1e-4)
        best_err = INFINITY;
    if (best_err > 1e-6) {
        double rotation = sinew__db_normalize_radian(deg * (DB_PI / 180.0));
        double m = round((want - rotation) / (DB_PI * 2.0));
        for (int k = -1; k <= 2; k++) {
            double n = m + k;
            if (n == 0 || fabs(n) > 1e6)
                continue;
            double u = unwrap_step(prev, deg, (int32_t)n);
            if (fabs(u - want) < best_err) {
                best_err = fabs(u - want);
                best = (int32_t)n;
                best_u = u;
            }
        }
    }
    *prev_unwrapped = best_u;
    return best;
}

/* ---- JSON helpers ------------------------------------------------------------------------------ */

void dbw_warn(wctx *w, const char *fmt, ...) {
    w->warnings++;
    if (!w->o)
        return;
    va_list ap;
    va_start(ap, fmt);
    sinew__writer_warning(w->o->log, w->o->log_user, w->o->source_name, w->arm ? w->arm->name : NULL,
                          w->anim ? w->anim->name : NULL, fmt, ap);
    va_end(ap);
}

/* Rounds to `digits` significant digits (so 0.1f is written as 0.1). */
double dbw_sig(double v, int digits) {
    if (v == 0 || !isfinite(v))
        return v == 0 ? 0 : v;
    return sinew__num_round(v, digits);
}


/* ---- numbers that read back exactly ---------------------------------------------------------- */

double sinew__dbw_shortest(double approx, bool (*ok)(double candidate, const double *ctx), const double *ctx) {
    if (approx == 0 || !isfinite(approx))
        return approx;
    for (int digits = 1; digits <= 17; digits++) {
        double c = sinew__num_round(approx, digits);
        if (ok(c, ctx))
            return c;
    }
    return approx;
}

bool sinew__dbw_same_float(double c, const double *ctx) {
    return (float)c == (float)ctx[0];
}

static bool same_radians(double c, const double *ctx) {
    return c * DBW_DEG2RAD == ctx[0];
}

static bool same_normalized_radians(double c, const double *ctx) {
    return sinew__db_normalize_radian(c * DBW_DEG2RAD) == ctx[0];
}

double sinew__dbw_degrees(double rad, bool normalize) {
    double ctx[1] = {rad};
    return sinew__dbw_shortest(dbw_rad2deg(rad), normalize ? same_normalized_radians : same_radians, ctx);
}

/* skX of a transform whose skY was written as `sky`: the official reading gives skew
 * normalize(skX) - normalize(skY); ctx = {skew wanted, normalize(skY), float (1) or double (0)} */
bool sinew__dbw_same_skew(double c, const double *ctx) {
    double skew = sinew__db_normalize_radian(c * DBW_DEG2RAD) - ctx[1];
    if (ctx[2] != 0)
        return (float)skew == (float)ctx[0] || (float)sinew__db_normalize_radian(skew) == (float)ctx[0];
    return skew == ctx[0];
}

static bool same_float_normalized(double c, const double *ctx) {
    return (float)sinew__db_normalize_radian(c * DBW_DEG2RAD) == (float)ctx[0];
}

/* A colour multiplier m (the model's 0..1) as the percentage the loader reads back to m. */
static bool same_percent(double c, const double *ctx) {
    return (float)c * 0.01f == (float)ctx[0];
}

/* A curve whose official sampling (sample i at (i + 1) / (n + 1), bisection to 1e-4, y rounded to
 * 1e-4) gives the samples `s` (y x10000) exactly: a flat piece at each sample's height around its
 * position, joined by straight pieces. */
void sinew__dbw_sampled_curve_json(wctx *w, cJSON *a, const float *s, uint32_t n) {
    double h = 0.25 / (n + 1.0), px = 0, py = 0;
    for (uint32_t i = 0; i <= 2 * n; i++) {
        double x, y; /* the end of piece i: the flat piece of sample i / 2 starts or ends there */
        if (i == 2 * n) {
            x = 1;
            y = 1;
        } else {
            double t = (i / 2 + 1.0) / (n + 1.0);
            x = i % 2 ? t + h : t - h;
            y = s[i / 2] / 10000.0;
        }
        const double c[4] = {px + (x - px) / 3, py + (y - py) / 3, px + 2 * (x - px) / 3, py + 2 * (y - py) / 3};
        for (int k = 0; k < 4; k++)
            dbw_push_num(w, a, dbw_sig(c[k], 12));
        if (i < 2 * n) {
            dbw_push_num(w, a, dbw_sig(x, 12));
            dbw_push_num(w, a, y);
        }
        px = x;
        py = y;
    }
}

/* A float of the model: 9 significant digits (4.5), or the shortest decimal that reads back to the
 * same float (5.5: the number the source most likely wrote, so that the official parser, which
 * keeps doubles, reads what it read from the source). */
double dbw_fnum(const wctx *w, float v) {
    if (!w->exact || v == 0 || !isfinite(v))
        return dbw_sig((double)v, 9);
    double f = v;
    return sinew__dbw_shortest(f, sinew__dbw_same_float, &f);
}

cJSON *dbw_obj(wctx *w, cJSON *parent, const char *key) {
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        w->nomem = true;
        return NULL;
    }
    if (parent) {
        if (key)
            cJSON_AddItemToObject(parent, key, o);
        else
            cJSON_AddItemToArray(parent, o);
    }
    return o;
}

cJSON *dbw_arr(wctx *w, cJSON *parent, const char *key) {
    cJSON *a = cJSON_CreateArray();
    if (!a) {
        w->nomem = true;
        return NULL;
    }
    if (parent)
        cJSON_AddItemToObject(parent, key, a);
    return a;
}

void dbw_num(wctx *w, cJSON *o, const char *key, double v) {
    if (!o)
        return;
    if (!cJSON_AddNumberToObject(o, key, v))
        w->nomem = true;
}

void dbw_str(wctx *w, cJSON *o, const char *key, const char *v) {
    if (!o)
        return;
    if (!cJSON_AddStringToObject(o, key, v ? v : ""))
        w->nomem = true;
}

void dbw_push_num(wctx *w, cJSON *a, double v) {
    cJSON *n = cJSON_CreateNumber(v);
    if (!n || !a) {
        w->nomem = true;
        cJSON_Delete(n);
        return;
    }
    cJSON_AddItemToArray(a, n);
}

void dbw_user_data(wctx *w, cJSON *o, const char *text) {
    if (!text || !o)
        return;
    cJSON *u = sinew__jdom_parse_heap(text, strlen(text), 1000, NULL);
    if (u)
        cJSON_AddItemToObject(o, "userData", u);
}

double dbw_rad2deg(double r) {
    return r * (180.0 / DB_PI);
}

void dbw_transform_json(wctx *w, cJSON *parent, const sinew_transform *t, bool always) {
    bool identity = t->x == 0 && t->y == 0 && t->rotation == 0 && t->skew == 0 && t->scale_x == 1 && t->scale_y == 1;
    if (identity && !always)
        return;
    cJSON *o = dbw_obj(w, parent, "transform");
    if (t->x != 0)
        dbw_num(w, o, "x", dbw_fnum(w, t->x));
    if (t->y != 0)
        dbw_num(w, o, "y", dbw_fnum(w, t->y));
    if ((t->rotation != 0 || t->skew != 0) && w->exact) {
        double r = t->rotation;
        double sky = sinew__dbw_shortest(dbw_rad2deg(r), same_float_normalized, &r);
        double ctx[3] = {t->skew, sinew__db_normalize_radian(sky * DBW_DEG2RAD), 1};
        dbw_num(w, o, "skX", sinew__dbw_shortest(dbw_rad2deg((double)t->rotation + (double)t->skew), sinew__dbw_same_skew, ctx));
        dbw_num(w, o, "skY", sky);
    } else if (t->rotation != 0 || t->skew != 0) {
        dbw_num(w, o, "skX", dbw_sig(dbw_rad2deg((double)t->rotation + (double)t->skew), 7));
        dbw_num(w, o, "skY", dbw_sig(dbw_rad2deg((double)t->rotation), 7));
    }
    if (t->scale_x != 1)
        dbw_num(w, o, "scX", dbw_fnum(w, t->scale_x));
    if (t->scale_y != 1)
        dbw_num(w, o, "scY", dbw_fnum(w, t->scale_y));
}

/* A bone's setup transform from the official parser's doubles (5.5; bone setup_d): x, y and the
 * scales as they are, the angles as the degrees that give them back. */
static void setup_transform_json(wctx *w, cJSON *parent, const double *s) {
    cJSON *o = dbw_obj(w, parent, "transform");
    if (s[0] != 0)
        dbw_num(w, o, "x", s[0]);
    if (s[1] != 0)
        dbw_num(w, o, "y", s[1]);
    if (s[2] != 0 || s[3] != 0) {
        double sky = sinew__dbw_degrees(s[2], true);
        double ctx[3] = {s[3], sinew__db_normalize_radian(sky * DBW_DEG2RAD), 0};
        dbw_num(w, o, "skX", sinew__dbw_shortest(dbw_rad2deg(s[2] + s[3]), sinew__dbw_same_skew, ctx));
        dbw_num(w, o, "skY", sky);
    }
    if (s[4] != 1)
        dbw_num(w, o, "scX", s[4]);
    if (s[5] != 1)
        dbw_num(w, o, "scY", s[5]);
}

void dbw_color_json(wctx *w, cJSON *parent, const char *key, const sinew_color_transform *c) {
    cJSON *o = dbw_obj(w, parent, key);
    const float mul[4] = {c->a_mul, c->r_mul, c->g_mul, c->b_mul};
    const float add[4] = {c->a_add, c->r_add, c->g_add, c->b_add};
    static const char *const mk[4] = {"aM", "rM", "gM", "bM"}, *const ak[4] = {"aO", "rO", "gO", "bO"};
    for (int i = 0; i < 4; i++)
        if (mul[i] != 1) {
            double m = mul[i];
            dbw_num(w, o, mk[i], w->exact ? sinew__dbw_shortest(m * 100.0, same_percent, &m) : dbw_sig(m * 100.0, 7));
        }
    for (int i = 0; i < 4; i++)
        if (add[i] != 0)
            dbw_num(w, o, ak[i], w->exact ? dbw_fnum(w, add[i]) : dbw_sig((double)add[i], 7));
}

bool dbw_color_identity(const sinew_color_transform *c) {
    return c->a_mul == 1 && c->r_mul == 1 && c->g_mul == 1 && c->b_mul == 1 && c->a_add == 0 && c->r_add == 0 &&
           c->g_add == 0 && c->b_add == 0;
}

/* 5.5: an action with what the official parser reads of it (its kind, name, bone and slot, user
 * data) and the playTimes sinew reads. `tagged`: its bone and slot are written (in a frame list of
 * the animation, where the parser tags nothing itself). */
void sinew__dbw_action_json(wctx *w, cJSON *list, const sinew_model_action *ac, bool tagged) {
    const sinew_model_armature *arm = w->arm;
    cJSON *o = dbw_obj(w, list, NULL);
    switch (ac->type) {
    case SINEW_ACTION_PLAY: dbw_str(w, o, "gotoAndPlay", ac->name); break;
    case SINEW_ACTION_STOP: dbw_str(w, o, "gotoAndStop", ac->name); break;
    case SINEW_ACTION_FADE_IN: dbw_str(w, o, "fadeIn", ac->name); break;
    default:
        dbw_str(w, o, "type", ac->type == SINEW_ACTION_SOUND ? "sound" : "frame");
        dbw_str(w, o, "name", ac->name);
        break;
    }
    if (tagged && ac->bone < arm->bone_count)
        dbw_str(w, o, "bone", arm->bones[ac->bone].name);
    if (tagged && ac->slot < arm->slot_count)
        dbw_str(w, o, "slot", arm->slots[ac->slot].name);
    if (ac->play_times >= 0)
        dbw_num(w, o, "playTimes", ac->play_times);
    if (ac->int_count) {
        cJSON *a = dbw_arr(w, o, "ints");
        for (uint32_t q = 0; q < ac->int_count; q++)
            dbw_push_num(w, a, ac->ints[q]);
    }
    if (ac->float_count) {
        cJSON *a = dbw_arr(w, o, "floats");
        for (uint32_t q = 0; q < ac->float_count; q++)
            dbw_push_num(w, a, dbw_fnum(w, ac->floats[q]));
    }
    if (ac->string_count) {
        cJSON *a = dbw_arr(w, o, "strings");
        for (uint32_t q = 0; q < ac->string_count && a; q++) {
            cJSON *s = cJSON_CreateString(ac->strings[q] ? ac->strings[q] : "");
            if (!s || !cJSON_AddItemToArray(a, s)) {
                cJSON_Delete(s);
                w->nomem = true;
            }
        }
    }
}

void dbw_actions_json(wctx *w, cJSON *parent, const char *key, uint32_t first, uint32_t count) {
    if (!count)
        return;
    cJSON *a = dbw_arr(w, parent, key);
    for (uint32_t i = 0; i < count; i++) {
        const sinew_model_action *ac = &w->arm->actions[first + i];
        if (w->exact) {
            sinew__dbw_action_json(w, a, ac, true);
            continue;
        }
        cJSON *o = dbw_obj(w, a, NULL);
        if (ac->type == SINEW_ACTION_PLAY) {
            dbw_str(w, o, "gotoAndPlay", ac->name);
        } else {
            dbw_str(w, o, "type", ac->type == SINEW_ACTION_STOP ? "stop" : ac->type == SINEW_ACTION_FADE_IN ? "fadeIn"
                                                                      : ac->type == SINEW_ACTION_SOUND ? "sound" : "frame");
            dbw_str(w, o, "name", ac->name);
        }
    }
}

cJSON *sinew__dbw_ffd_object(wctx *w, cJSON *out, const sinew_model_timeline *tl, bool default_skin) {
    const sinew_model_armature *arm = w->arm;
    if (tl->display >= arm->display_count || tl->target >= arm->slot_count)
        return NULL;
    cJSON *o = dbw_obj(w, out, NULL);
    dbw_str(w, o, "name", arm->displays[tl->display].name);
    dbw_str(w, o, "slot", arm->slots[tl->target].name);
    const char *skin = tl->skin < arm->skin_count ? arm->skins[tl->skin].name : "";
    if (default_skin || (skin && skin[0]))
        dbw_str(w, o, "skin", skin);
    return o;
}

static const char *blend_name(sinew_blend_mode m) {
    const char *name = sinew_blend_mode_name(m);
    return name ? name : "normal";
}

/* A path display's geometry (5.5 keys; the official parser reads them whatever the version).
 * Bones are written in model order, so `bones` and the weights name model indices. */
static void path_json(wctx *w, cJSON *o, const sinew_model_path *p) {
    if (p->closed)
        cJSON_AddTrueToObject(o, "closed");
    if (p->constant_speed)
        cJSON_AddTrueToObject(o, "constantSpeed");
    dbw_num(w, o, "vertexCount", p->vertex_count);
    cJSON *l = dbw_arr(w, o, "lengths");
    for (uint32_t i = 0; i < p->length_count; i++)
        dbw_push_num(w, l, p->lengths[i]);
    cJSON *v = dbw_arr(w, o, "vertices");
    for (uint32_t i = 0; i < p->value_count; i++)
        dbw_push_num(w, v, dbw_fnum(w, p->vertices[i]));
    if (!p->weighted)
        return;
    cJSON *b = dbw_arr(w, o, "bones");
    for (uint32_t i = 0; i < p->bone_count; i++)
        dbw_push_num(w, b, p->bones[i]);
    cJSON *wt = dbw_arr(w, o, "weights");
    for (uint32_t i = 0; i < p->vertex_count; i++) {
        uint32_t f0 = p->vertex_first_influence[i], f1 = p->vertex_first_influence[i + 1];
        dbw_push_num(w, wt, f1 - f0);
        for (uint32_t f = f0; f < f1; f++) {
            dbw_push_num(w, wt, p->bones[p->influence_bone[f]]);
            dbw_push_num(w, wt, dbw_fnum(w, p->influence_weight[f]));
        }
    }
}

static void path_constraints_json(wctx *w, cJSON *a, const sinew_model_armature *arm) {
    static const char *const position_names[] = {"fixed", "percent"};
    static const char *const spacing_names[] = {"length", "fixed", "percent"};
    static const char *const rotate_names[] = {"tangent", "chain", "chainScale"};
    cJSON *list = dbw_arr(w, a, "path");
    for (uint32_t i = 0; i < arm->path_constraint_count; i++) {
        const sinew_model_path_constraint *c = &arm->path_constraints[i];
        cJSON *o = dbw_obj(w, list, NULL);
        dbw_str(w, o, "name", c->name);
        dbw_str(w, o, "target", arm->slots[c->slot].name);
        dbw_str(w, o, "targetDisplay", arm->displays[c->display].name);
        cJSON *b = dbw_arr(w, o, "bones");
        for (uint32_t k = 0; k < c->bone_count; k++)
            if (b && !cJSON_AddItemToArray(b, cJSON_CreateString(arm->bones[c->bones[k]].name)))
                w->nomem = true;
        dbw_str(w, o, "positionMode", position_names[c->position_mode <= 1 ? c->position_mode : 1]);
        dbw_str(w, o, "spacingMode", spacing_names[c->spacing_mode <= 2 ? c->spacing_mode : 0]);
        dbw_str(w, o, "rotateMode", rotate_names[c->rotate_mode <= 2 ? c->rotate_mode : 0]);
        dbw_num(w, o, "position", c->position);
        dbw_num(w, o, "spacing", c->spacing);
        dbw_num(w, o, "rotateOffset", c->rotate_offset);
        dbw_num(w, o, "rotateMix", c->rotate_mix);
        dbw_num(w, o, "translateMix", c->translate_mix);
    }
}

/* ---- weighted meshes without bonePose ---------------------------------------------------------- */

/* 5.5 per-influence weights and the DBBin exporters' meshes keep each influence's bind position in
 * its bone's space and no bind pose; the official JSON parser needs slotPose and bonePose. The
 * exporters bind at the setup pose: with each bone's setup world matrix as its bonePose (and the
 * armature as the slot) every influence of a vertex must give the same armature-space point, and
 * every deform key's per-influence offsets must follow from one slot-space delta. When they do
 * (within 1e-3), the 5.5 writer writes the mesh so (w->rebind[mesh].ok), which the official parser
 * reads back to the same bone-space positions and offsets; otherwise it writes the 4.5 writer's
 * approximation, with its warning. */

static void mat_mul(const double *p, const double *c, double *out) {
    double r[6] = {p[0] * c[0] + p[2] * c[1], p[1] * c[0] + p[3] * c[1], p[0] * c[2] + p[2] * c[3],
                   p[1] * c[2] + p[3] * c[3], p[0] * c[4] + p[2] * c[5] + p[4], p[1] * c[4] + p[3] * c[5] + p[5]};
    memcpy(out, r, sizeof r);
}

/* The bones' setup world matrices, parent before child (plain composition: a bone's inherit flags
 * or surface parent make the fit checks below fail, and the mesh falls back). */
static void setup_world(const sinew_model_armature *arm, double *world) {
    for (uint32_t b = 0; b < arm->bone_count; b++) {
        const sinew_model_bone *B = &arm->bones[b];
        double s[6] = {B->setup.x, B->setup.y, B->setup.rotation, B->setup.skew, B->setup.scale_x, B->setup.scale_y};
        if (B->has_setup_d)
            memcpy(s, B->setup_d, sizeof s);
        double l[6] = {cos(s[2]) * s[4], sin(s[2]) * s[4], -sin(s[2] + s[3]) * s[5], cos(s[2] + s[3]) * s[5], s[0], s[1]};
        if (B->is_surface)
            memcpy(l, (double[6]){1, 0, 0, 1, 0, 0}, sizeof l);
        if (B->parent < b)
            mat_mul(world + 6 * (size_t)B->parent, l, world + 6 * (size_t)b);
        else
            memcpy(world + 6 * (size_t)b, l, sizeof l);
    }
}

/* Vertex v of a per-influence mesh in armature space: its influences' bind positions through their
 * bones' setup matrices, weighted (so that the bind pose itself is exact); *spread: how far the
 * influences lie from it. */
static void rebind_vertex(const double *world, const sinew_model_mesh *m, uint32_t v, double out[2], double *spread) {
    uint32_t f0 = m->vertex_first_influence[v], f1 = m->vertex_first_influence[v + 1];
    double x = 0, y = 0, wsum = 0;
    for (uint32_t f = f0; f < f1; f++) {
        const double *W = world + 6 * (size_t)m->influence_bone[f];
        double lx = m->influence_local[2 * f], ly = m->influence_local[2 * f + 1], wt = m->influence_weight[f];
        x += wt * (W[0] * lx + W[2] * ly + W[4]);
        y += wt * (W[1] * lx + W[3] * ly + W[5]);
        wsum += wt;
    }
    if (wsum != 0) {
        x /= wsum;
        y /= wsum;
    } else if (f0 < f1) {
        const double *W = world + 6 * (size_t)m->influence_bone[f0];
        x = W[0] * m->influence_local[2 * f0] + W[2] * m->influence_local[2 * f0 + 1] + W[4];
        y = W[1] * m->influence_local[2 * f0] + W[3] * m->influence_local[2 * f0 + 1] + W[5];
    }
    *spread = 0;
    for (uint32_t f = f0; f < f1; f++) {
        const double *W = world + 6 * (size_t)m->influence_bone[f];
        double lx = m->influence_local[2 * f], ly = m->influence_local[2 * f + 1];
        *spread = fmax(*spread, hypot(W[0] * lx + W[2] * ly + W[4] - x, W[1] * lx + W[3] * ly + W[5] - y));
    }
    out[0] = x;
    out[1] = y;
}

void sinew__dbw_rebind_delta(const wctx *w, uint32_t mesh, uint32_t v, const float d[2], double out[2]) {
    out[0] = d[0];
    out[1] = d[1];
    const sinew_model_mesh *m = mesh < w->arm->mesh_count ? &w->arm->meshes[mesh] : NULL;
    if (!m || !w->rebind || !w->rebind[mesh].ok || m->vertex_first_influence[v] == m->vertex_first_influence[v + 1])
        return;
    const double *W = w->world + 6 * (size_t)m->influence_bone[m->vertex_first_influence[v]];
    out[0] = W[0] * d[0] + W[2] * d[1];
    out[1] = W[1] * d[0] + W[3] * d[1];
}

/* Whether every deform key of mesh `mi` (in every animation) gives each influence the offset the
 * official parser computes from the one slot-space delta written. */
static bool rebind_deforms_fit(const wctx *w, uint32_t mi) {
    const sinew_model_armature *arm = w->arm;
    const sinew_model_mesh *m = &arm->meshes[mi];
    for (uint32_t t = 0; t < arm->timeline_count; t++) {
        const sinew_model_timeline *tl = &arm->timelines[t];
        if (tl->type != SINEW_TL_FFD || tl->mesh != mi)
            continue;
        for (uint32_t k = 0; k < tl->key_count; k++)
            for (uint32_t v = 0; v < m->vertex_count; v++) {
                const float *dv = tl->values + (size_t)k * tl->values_per_key + 2 * (size_t)v;
                double D[2];
                sinew__dbw_rebind_delta(w, mi, v, dv, D);
                for (uint32_t f = m->vertex_first_influence[v]; f < m->vertex_first_influence[v + 1]; f++) {
                    const double *W = w->world + 6 * (size_t)m->influence_bone[f];
                    double det = W[0] * W[3] - W[1] * W[2];
                    if (det == 0 || !isfinite(det))
                        return false;
                    double ox = (W[3] * D[0] - W[2] * D[1]) / det, oy = (-W[1] * D[0] + W[0] * D[1]) / det;
                    const float *M = m->influence_deform + 4 * (size_t)f;
                    double mx = M ? M[0] * dv[0] + M[2] * dv[1] : dv[0], my = M ? M[1] * dv[0] + M[3] * dv[1] : dv[1];
                    if (hypot(ox - mx, oy - my) > 1e-3)
                        return false;
                }
            }
    }
    return true;
}

/* 5.5: the setup world matrices and, per mesh, whether its bind pose can be rebuilt. */
static void rebind_armature(wctx *w) {
    const sinew_model_armature *arm = w->arm;
    w->world_size = sizeof(double) * 6 * (arm->bone_count ? arm->bone_count : 1);
    w->rebind_size = sizeof(dbw_rebind) * (arm->mesh_count ? arm->mesh_count : 1);
    w->world = sinew__alloc(w->a, w->world_size);
    w->rebind = sinew__calloc(w->a, 1, w->rebind_size);
    if (!w->world || !w->rebind) {
        w->nomem = true;
        return;
    }
    setup_world(arm, w->world);
    for (uint32_t mi = 0; mi < arm->mesh_count; mi++) {
        const sinew_model_mesh *m = &arm->meshes[mi];
        if (!m->weighted || m->weight_layout != 2)
            continue;
        bool ok = true;
        for (uint32_t v = 0; v < m->vertex_count && ok; v++) {
            double p[2], spread;
            rebind_vertex(w->world, m, v, p, &spread);
            ok = spread <= 1e-3 && isfinite(p[0]) && isfinite(p[1]);
        }
        w->rebind[mi].ok = ok;
        if (ok)
            w->rebind[mi].ok = rebind_deforms_fit(w, mi);
    }
}

static void rebind_free(wctx *w) {
    sinew__free(w->a, w->world, w->world_size);
    sinew__free(w->a, w->rebind, w->rebind_size);
    w->world = NULL;
    w->rebind = NULL;
}

/* The weights, slotPose and bonePose of a rebuilt mesh: every influence, the armature as the slot,
 * each bone used at its setup matrix. */
static void rebind_weights_json(wctx *w, cJSON *o, const sinew_model_mesh *m) {
    const sinew_model_armature *arm = w->arm;
    cJSON *wt = dbw_arr(w, o, "weights");
    size_t used_size = sizeof(uint8_t) * (arm->bone_count ? arm->bone_count : 1);
    uint8_t *used = sinew__calloc(w->a, 1, used_size);
    if (!used) {
        w->nomem = true;
        return;
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        uint32_t f0 = m->vertex_first_influence[i], f1 = m->vertex_first_influence[i + 1];
        dbw_push_num(w, wt, f1 - f0);
        for (uint32_t f = f0; f < f1; f++) {
            dbw_push_num(w, wt, m->influence_bone[f]);
            dbw_push_num(w, wt, dbw_fnum(w, m->influence_weight[f]));
            used[m->influence_bone[f]] = 1;
        }
    }
    cJSON *sp = dbw_arr(w, o, "slotPose");
    for (int i = 0; i < 6; i++)
        dbw_push_num(w, sp, i == 0 || i == 3);
    cJSON *bp = dbw_arr(w, o, "bonePose");
    for (uint32_t b = 0; b < arm->bone_count; b++) {
        if (!used[b])
            continue;
        dbw_push_num(w, bp, b);
        for (int k = 0; k < 6; k++)
            dbw_push_num(w, bp, w->world[6 * (size_t)b + (size_t)k]);
    }
    sinew__free(w->a, used, used_size);
}

/* The approximation of a per-influence mesh (4.5, or a 5.5 mesh whose bind pose does not fit the
 * setup pose): each vertex bound to its first influence only, at identity poses. */
static void first_influence_weights_json(wctx *w, cJSON *o, const sinew_model_mesh *m) {
    const sinew_model_armature *arm = w->arm;
    cJSON *wt = dbw_arr(w, o, "weights");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        uint32_t f0 = m->vertex_first_influence[i], f1 = m->vertex_first_influence[i + 1];
        dbw_push_num(w, wt, f0 < f1);
        if (f0 < f1) {
            dbw_push_num(w, wt, m->influence_bone[f0]);
            dbw_push_num(w, wt, 1.0);
        }
    }
    cJSON *spj = dbw_arr(w, o, "slotPose");
    for (int i = 0; i < 6; i++)
        dbw_push_num(w, spj, i == 0 || i == 3);
    cJSON *bp = dbw_arr(w, o, "bonePose");
    /* identity bone poses: the first influence's local position is the vertex */
    size_t used_count = arm->bone_count ? arm->bone_count : 1;
    uint32_t *used = sinew__calloc(w->a, used_count, sizeof *used);
    if (!used) {
        w->nomem = true;
        return;
    }
    for (uint32_t i = 0; i < m->vertex_count; i++)
        if (m->vertex_first_influence[i] < m->vertex_first_influence[i + 1])
            used[m->influence_bone[m->vertex_first_influence[i]]] = 1;
    for (uint32_t b = 0; b < arm->bone_count; b++)
        if (used[b]) {
            const double id[7] = {b, 1, 0, 0, 1, 0, 0};
            for (int i = 0; i < 7; i++)
                dbw_push_num(w, bp, id[i]);
        }
    sinew__free(w->a, used, used_count * sizeof *used);
}

static void mesh_json(wctx *w, cJSON *o, const sinew_model_display *d) {
    const sinew_model_armature *arm = w->arm;
    const sinew_model_mesh *m = &arm->meshes[d->mesh];
    cJSON *v = dbw_arr(w, o, "vertices"), *uv = dbw_arr(w, o, "uvs"), *tr = dbw_arr(w, o, "triangles");
    bool layout2 = m->weighted && m->weight_layout == 2;
    bool rebound = layout2 && w->rebind && w->rebind[d->mesh].ok;
    if (layout2 && !rebound)
        dbw_warn(w, "mesh '%s' has 5.5 per-influence weights without bonePose; its bind pose is rebuilt from the "
                "first influence of each vertex (approximation)", d->name);
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        double p[2] = {m->vertices[2 * i], m->vertices[2 * i + 1]}, spread;
        if (rebound) {
            rebind_vertex(w->world, m, i, p, &spread);
        } else if (layout2 && m->vertex_first_influence[i] < m->vertex_first_influence[i + 1]) {
            uint32_t f = m->vertex_first_influence[i];
            p[0] = m->influence_local[2 * f];
            p[1] = m->influence_local[2 * f + 1];
        }
        for (int k = 0; k < 2; k++)
            dbw_push_num(w, v, rebound ? p[k] : w->exact ? dbw_fnum(w, (float)p[k]) : dbw_sig(p[k], 9));
        dbw_push_num(w, uv, dbw_fnum(w, m->uvs[2 * i]));
        dbw_push_num(w, uv, dbw_fnum(w, m->uvs[2 * i + 1]));
    }
    for (uint32_t i = 0; i < m->triangle_count * 3u; i++)
        dbw_push_num(w, tr, m->triangles[i]);
    if (m->edge_count) {
        cJSON *e = dbw_arr(w, o, "edges");
        for (uint32_t i = 0; i < m->edge_count * 2u; i++)
            dbw_push_num(w, e, m->edges[i]);
    }
    if (m->user_edge_count) {
        cJSON *e = dbw_arr(w, o, "userEdges");
        for (uint32_t i = 0; i < m->user_edge_count * 2u; i++)
            dbw_push_num(w, e, m->user_edges[i]);
    }
    if (m->width > 0)
        dbw_num(w, o, "width", dbw_fnum(w, m->width));
    if (m->height > 0)
        dbw_num(w, o, "height", dbw_fnum(w, m->height));
    if (!m->weighted)
        return;
    if (rebound) {
        rebind_weights_json(w, o, m);
        return;
    }
    if (layout2) {
        first_influence_weights_json(w, o, m);
        return;
    }
    cJSON *wt = dbw_arr(w, o, "weights");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        uint32_t f0 = m->vertex_first_influence[i], f1 = m->vertex_first_influence[i + 1];
        dbw_push_num(w, wt, f1 - f0);
        for (uint32_t f = f0; f < f1; f++) {
            dbw_push_num(w, wt, m->influence_bone[f]);
            dbw_push_num(w, wt, dbw_fnum(w, m->influence_weight[f]));
        }
    }
    const sinew_affine sp = m->slot_pose;
    cJSON *spj = dbw_arr(w, o, "slotPose");
    const float spv[6] = {sp.a, sp.b, sp.c, sp.d, sp.tx, sp.ty};
    for (int i = 0; i < 6; i++)
        dbw_push_num(w, spj, dbw_fnum(w, spv[i]));
    cJSON *bp = dbw_arr(w, o, "bonePose");
    for (uint32_t i = 0; i < m->bone_pose_count; i++) {
        const sinew_affine *a = &m->bone_pose[i];
        const float bv[6] = {a->a, a->b, a->c, a->d, a->tx, a->ty};
        dbw_push_num(w, bp, m->bone_pose_bone[i]);
        for (int k = 0; k < 6; k++)
            dbw_push_num(w, bp, dbw_fnum(w, bv[k]));
    }
}

static void display_json(wctx *w, cJSON *out, const sinew_model_display *d) {
    const sinew_model_armature *arm = w->arm;
    cJSON *o = dbw_obj(w, out, NULL);
    dbw_str(w, o, "name", d->name);
    static const char *const types[] = {"image", "armature", "mesh", "boundingBox", "path"};
    dbw_str(w, o, "type", types[d->type <= SINEW_DISPLAY_PATH ? d->type : 0]);
    if (d->path && d->name && strcmp(d->path, d->name) != 0)
        dbw_str(w, o, "path", d->path);
    dbw_transform_json(w, o, &d->transform, d->type == SINEW_DISPLAY_IMAGE);
    if (d->type == SINEW_DISPLAY_IMAGE && (d->pivot_x != 0.5f || d->pivot_y != 0.5f)) {
        cJSON *p = dbw_obj(w, o, "pivot");
        dbw_num(w, p, "x", dbw_fnum(w, d->pivot_x));
        dbw_num(w, p, "y", dbw_fnum(w, d->pivot_y));
    }
    if (d->type == SINEW_DISPLAY_ARMATURE)
        dbw_actions_json(w, o, "actions", d->first_action, d->action_count);
    if (d->type == SINEW_DISPLAY_BOUNDING_BOX && d->bbox_color)
        dbw_num(w, o, "color", (double)d->bbox_color);
    if (d->type == SINEW_DISPLAY_BOUNDING_BOX && d->bbox_shape != SINEW_BBOX_POLYGON) {
        dbw_str(w, o, "subType", d->bbox_shape == SINEW_BBOX_ELLIPSE ? "ellipse" : "rectangle");
        dbw_num(w, o, "width", dbw_fnum(w, d->bbox_width));
        dbw_num(w, o, "height", dbw_fnum(w, d->bbox_height));
    } else if (d->type == SINEW_DISPLAY_BOUNDING_BOX) {
        dbw_str(w, o, "subType", "polygon");
        cJSON *v = dbw_arr(w, o, "vertices");
        for (uint32_t i = 0; i < d->bbox_vertex_count * 2u; i++)
            dbw_push_num(w, v, dbw_fnum(w, d->bbox_vertices[i]));
    }
    if (d->type == SINEW_DISPLAY_PATH && d->path_data < arm->path_count)
        path_json(w, o, &arm->paths[d->path_data]);
    if (d->type == SINEW_DISPLAY_MESH && d->mesh < arm->mesh_count)
        mesh_json(w, o, d);
}

static void armature_json(wctx *w, cJSON *out, const sinew_model_armature *arm) {
    w->arm = arm;
    if (w->exact)
        rebind_armature(w);
    cJSON *a = dbw_obj(w, out, NULL);
    dbw_str(w, a, "name", arm->name);
    dbw_str(w, a, "type", arm->type ? arm->type : "Armature");
    dbw_num(w, a, "frameRate", dbw_fnum(w, arm->frame_rate));
    dbw_user_data(w, a, arm->user_data);
    if (arm->has_aabb) {
        cJSON *bb = dbw_obj(w, a, "aabb");
        dbw_num(w, bb, "x", dbw_fnum(w, arm->aabb.a));
        dbw_num(w, bb, "y", dbw_fnum(w, arm->aabb.b));
        dbw_num(w, bb, "width", dbw_fnum(w, arm->aabb.c));
        dbw_num(w, bb, "height", dbw_fnum(w, arm->aabb.d));
    }
    if (arm->has_canvas) {
        cJSON *cv = dbw_obj(w, a, "canvas");
        dbw_num(w, cv, "x", dbw_fnum(w, arm->canvas_x));
        dbw_num(w, cv, "y", dbw_fnum(w, arm->canvas_y));
        dbw_num(w, cv, "width", dbw_fnum(w, arm->canvas_width));
        dbw_num(w, cv, "height", dbw_fnum(w, arm->canvas_height));
        if (arm->canvas_background)
            dbw_num(w, cv, "color", (double)arm->canvas_color);
    }
    if (arm->default_action_count)
        dbw_actions_json(w, a, "defaultActions", arm->first_default_action, arm->default_action_count);
    cJSON *bones = dbw_arr(w, a, "bone");
    for (uint32_t b = 0; b < arm->bone_count; b++) {
        const sinew_model_bone *mb = &arm->bones[b];
        cJSON *o = dbw_obj(w, bones, NULL);
        dbw_str(w, o, "name", mb->name);
        if (mb->parent != SINEW_INVALID_INDEX && mb->parent < arm->bone_count)
            dbw_str(w, o, "parent", arm->bones[mb->parent].name);
        if (mb->is_surface) {
            dbw_str(w, o, "type", "surface");
            dbw_num(w, o, "segmentX", mb->segment_x);
            dbw_num(w, o, "segmentY", mb->segment_y);
            cJSON *v = dbw_arr(w, o, "vertices");
            for (uint32_t i = 0; i < mb->surface_value_count; i++)
                dbw_push_num(w, v, w->exact ? mb->surface_vertices[i] : dbw_sig(mb->surface_vertices[i], 15));
            dbw_user_data(w, o, mb->user_data);
            continue;
        }
        if (mb->length != 0)
            dbw_num(w, o, "length", dbw_fnum(w, mb->length));
        if (w->exact && mb->has_setup_d)
            setup_transform_json(w, o, mb->setup_d);
        else
            dbw_transform_json(w, o, &mb->setup, true);
        if (!mb->inherit_translation)
            dbw_num(w, o, "inheritTranslation", 0);
        if (!mb->inherit_rotation)
            dbw_num(w, o, "inheritRotation", 0);
        if (!mb->inherit_scale)
            dbw_num(w, o, "inheritScale", 0);
        if (!mb->inherit_reflection)
            dbw_num(w, o, "inheritReflection", 0);
        dbw_user_data(w, o, mb->user_data);
    }
    cJSON *slots = dbw_arr(w, a, "slot");
    for (uint32_t s = 0; s < arm->slot_count; s++) {
        const sinew_model_slot *sl = &arm->slots[s];
        cJSON *o = dbw_obj(w, slots, NULL);
        dbw_str(w, o, "name", sl->name);
        dbw_str(w, o, "parent", sl->parent < arm->bone_count ? arm->bones[sl->parent].name : "");
        dbw_num(w, o, "displayIndex", sl->display_index);
        dbw_num(w, o, "z", s);
        if (sl->blend != SINEW_BLEND_NORMAL)
            dbw_str(w, o, "blendMode", blend_name(sl->blend));
        if (!dbw_color_identity(&sl->color))
            dbw_color_json(w, o, "color", &sl->color);
        dbw_actions_json(w, o, "actions", sl->first_action, sl->action_count);
        dbw_user_data(w, o, sl->user_data);
    }
    cJSON *skins = dbw_arr(w, a, "skin");
    for (uint32_t k = 0; k < arm->skin_count; k++) {
        const sinew_model_skin *sk = &arm->skins[k];
        cJSON *o = dbw_obj(w, skins, NULL);
        dbw_str(w, o, "name", sk->name);
        cJSON *ss = dbw_arr(w, o, "slot");
        for (uint32_t i = 0; i < sk->slot_count; i++) {
            const sinew_model_skin_slot *kss = &arm->skin_slots[sk->first_slot + i];
            if (kss->slot >= arm->slot_count)
                continue;
            cJSON *so = dbw_obj(w, ss, NULL);
            dbw_str(w, so, "name", arm->slots[kss->slot].name);
            cJSON *ds = dbw_arr(w, so, "display");
            for (uint32_t d = 0; d < kss->display_count; d++)
                display_json(w, ds, &arm->displays[kss->first_display + d]);
        }
    }
    if (arm->ik_count) {
        cJSON *iks = dbw_arr(w, a, "ik");
        for (uint32_t i = 0; i < arm->ik_count; i++) {
            const sinew_model_ik *ik = &arm->iks[i];
            cJSON *o = dbw_obj(w, iks, NULL);
            dbw_str(w, o, "name", ik->name);
            dbw_str(w, o, "bone", arm->bones[ik->bone].name);
            dbw_str(w, o, "target", arm->bones[ik->target].name);
            dbw_num(w, o, "chain", ik->chain);
            if (!ik->bend_positive)
                cJSON_AddFalseToObject(o, "bendPositive");
            if (ik->weight != 1)
                dbw_num(w, o, "weight", dbw_fnum(w, ik->weight));
            if (ik->scale)
                cJSON_AddTrueToObject(o, "scale");
        }
    }
    if (arm->path_constraint_count)
        path_constraints_json(w, a, arm);
    cJSON *anims = dbw_arr(w, a, "animation");
    for (uint32_t i = 0; i < arm->animation_count; i++) {
        if (w->exact)
            sinew__dbw55_animation(w, anims, &arm->animations[i]);
        else
            sinew__dbw45_animation(w, anims, &arm->animations[i]);
    }
    rebind_free(w);
    w->arm = NULL;
}

sinew_status sinew__db_write_json(const struct sinew_data *data, const sinew_db_write_options *opts, char **out_text,
                                  size_t *out_size, sinew_error *err) {
    if (!data || !out_text)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew__db_write_json: NULL argument");
    *out_text = NULL;
    if (out_size)
        *out_size = 0;
    sinew_db_write_options none;
    memset(&none, 0, sizeof none);
    wctx w;
    memset(&w, 0, sizeof w);
    w.o = opts ? opts : &none;
    w.a = w.o->allocator;
    w.data = data;
    w.err = err;
    if (w.o->format != 0 && w.o->format != 45 && w.o->format != 55)
        return sinew__fail(err, SINEW_E_ARG, NULL, "DragonBones format %u: 45 (4.5) or 55 (5.5)", w.o->format);
    w.exact = w.o->format == 55;
    cJSON *root = dbw_obj(&w, NULL, NULL);
    dbw_str(&w, root, "name", data->name ? data->name : "");
    dbw_str(&w, root, "version", w.exact ? "5.5" : "4.5");
    if (w.exact) /* as the 5.5 exporters write it (the 5.6 one: version 5.6, compatibleVersion 5.5) */
        dbw_str(&w, root, "compatibleVersion", "5.5");
    dbw_num(&w, root, "frameRate", dbw_fnum(&w, data->frame_rate > 0 ? data->frame_rate : 24));
    if (!w.exact)
        dbw_num(&w, root, "isGlobal", 0);
    else if (data->stage)
        dbw_str(&w, root, "stage", data->stage);
    dbw_user_data(&w, root, data->user_data);
    cJSON *arms = dbw_arr(&w, root, "armature");
    for (uint32_t i = 0; i < data->armature_count && !w.nomem; i++)
        armature_json(&w, arms, &data->armatures[i]);
    if (w.o->warning_count)
        *w.o->warning_count = w.warnings;
    size_t size = 0;
    char *text = w.nomem ? NULL : sinew__json_print(root, true, w.a, &size);
    cJSON_Delete(root);
    if (!text)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory writing DragonBones JSON");
    *out_text = text;
    if (out_size)
        *out_size = size;
    return SINEW_OK;
}

