
/*
 * DragonBones JSON (4.0, 4.5, 5.0-5.6) -> struct sinew_data.
 *
 * Parse with cJSON, build everything into the data's arena (counts are taken from the DOM before
 * each allocation), delete the DOM. Temporaries live in a scratch arena freed at the end. Errors
 * carry the JSON path of the offending value; json_read.c turns it into line:column on demand.
 * See docs/loader.md for the policies (layout detection, isGlobal, defaults).
 */
#include "format/dragonbones_json.h"
#include "format/dragonbones_json_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json_print.h"
#include "base/namemap.h"
#include "base/num.h"
#include "format/json_read.h"


void *sinew__dbj_scratch_array(db *d, size_t count, size_t size) {
    void *p = sinew__arena_array(&d->scratch, count ? count : 1, size);
    if (!p)
        sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    return p;
}

/* A name map (base/namemap.h) for n names in the scratch arena. */
/* The array `key` (sinew__jarray) with at most `limit` members: more is a limit error,
 * "N keys, more than the limit of L (limits.max_keys)". */
sinew_status sinew__dbj_limited_array(db *d, const cJSON *v, const char *key, uint32_t limit, const cJSON **first,
                                      uint32_t *n) {
    TRY(sinew__jarray(d->c, v, key, first, n));
    if (*n > limit)
        return sinew__jfail_key(d->c, key, SINEW_E_LIMIT, "%u %ss, more than the limit of %u (limits.max_%ss)", *n, key,
                                limit, key);
    return SINEW_OK;
}

sinew_status sinew__dbj_nm_init(db *d, sinew_namemap *m, uint32_t n) {
    if (sinew__namemap_init(m, &d->scratch, n))
        return SINEW_OK;
    sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    return SINEW_E_NOMEM;
}

/* ---- arena helpers ------------------------------------------------------------------------- */

void *sinew__dbj_alloc_array(db *d, size_t count, size_t size, bool *ok) {
    *ok = true;
    if (count == 0)
        return NULL;
    void *p = sinew__arena_array(d->arena, count, size);
    if (!p) {
        *ok = false;
        if (sinew__arena_over_limit(d->arena, count, size))
            sinew__jfail(d->c, SINEW_E_LIMIT, "the model needs more than %zu bytes (limits.max_memory_bytes)",
                         d->arena->limit);
        else
            sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    }
    return p;
}
sinew_status sinew__dbj_dup_str(db *d, const char *s, const char **out) {
    char *p = sinew__arena_strdup(d->arena, s ? s : "");
    if (!p)
        return sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    *out = p;
    return SINEW_OK;
}

sinew_status sinew__dbj_user_data(db *d, const cJSON *v, const char **out) {
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    size_t size;
    char *txt = sinew__json_print(v, false, d->arena->allocator, &size);
    if (!txt)
        return sinew__jfail_key(d->c, "userData", SINEW_E_NOMEM, "out of memory");
    sinew_status st = sinew__dbj_dup_str(d, txt, out);
    sinew__free(d->arena->allocator, txt, size);
    return st;
}

sinew_status sinew__dbj_push_action(db *d, const sinew_model_action *a) {
    if (d->action_count == d->action_cap) {
        uint32_t cap = d->action_cap ? d->action_cap * 2u : 64u;
        sinew_model_action *n = sinew__dbj_scratch_array(d, cap, sizeof *n);
        if (!n)
            return SINEW_E_NOMEM;
        if (d->action_count)
            memcpy(n, d->actions, d->action_count * sizeof *n);
        d->actions = n;
        d->action_cap = cap;
    }
    d->actions[d->action_count++] = *a;
    return SINEW_OK;
}

static sinew_status push_merge(db *d, const merge_rec *m) {
    if (d->merge_count == d->merge_cap) {
        uint32_t cap = d->merge_cap ? d->merge_cap * 2u : 32u;
        merge_rec *n = sinew__dbj_scratch_array(d, cap, sizeof *n);
        if (!n)
            return SINEW_E_NOMEM;
        if (d->merge_count)
            memcpy(n, d->merges, d->merge_count * sizeof *n);
        d->merges = n;
        d->merge_cap = cap;
    }
    d->merges[d->merge_count++] = *m;
    return SINEW_OK;
}

static sinew_status push_pending(db *d, float pos, const sinew_model_action *a) {
    if (d->pending_count == d->pending_cap) {
        uint32_t cap = d->pending_cap ? d->pending_cap * 2u : 32u;
        pending_action *n = sinew__dbj_scratch_array(d, cap, sizeof *n);
        if (!n)
            return SINEW_E_NOMEM;
        if (d->pending_count)
            memcpy(n, d->pending, d->pending_count * sizeof *n);
        d->pending = n;
        d->pending_cap = cap;
    }
    pending_action *p = &d->pending[d->pending_count];
    p->pos = pos;
    p->seq = d->pending_count;
    p->action = *a;
    d->pending_count++;
    return SINEW_OK;
}

/* ---- small value parsers ------------------------------------------------------------------ */

double sinew__dbj_normalize_rad(double r) {
    r = fmod(r + PI_F, 2.0 * PI_F);
    if (r < 0)
        r += 2.0 * PI_F;
    r -= PI_F;
    if (r <= -PI_F)
        r += 2.0 * PI_F;
    return r;
}

static const char *const transform_keys[] = {"x", "y", "skX", "skY", "scX", "scY", "rotate", "skew"};
static const sinew_jkeys transform_table = SINEW_JKEYS(transform_keys, "transform");

/*
 * {x, y, skX, skY, scX, scY} (degrees) or 5.x {rotate, skew}. rotation = skY, skew = skX - skY.
 * `setup`: skew normalised too; otherwise as the official parser keeps keyframes
 * (normalize(skX) - normalize(skY)).
 */
/* The official Transform.normalizeRadian. */
static double js_normalize_rad(double v) {
    v = fmod(v + PI_F, PI_F * 2.0);
    v += v > 0.0 ? -PI_F : PI_F;
    return v;
}


sinew_status sinew__dbj_parse_transform(db *d, const cJSON *v, sinew_transform *t, bool setup) {
    return sinew__dbj_parse_transform_d(d, v, t, setup, NULL);
}

/* `exact` (6 doubles, may be NULL) receives x y rotation skew scaleX scaleY exactly as the
 * official parser computes them in double. */
sinew_status sinew__dbj_parse_transform_d(db *d, const cJSON *v, sinew_transform *t, bool setup, double *exact) {
    t->x = t->y = t->rotation = t->skew = 0.0f;
    t->scale_x = t->scale_y = 1.0f;
    if (exact) {
        static const double identity[6] = {0, 0, 0, 0, 1, 1};
        memcpy(exact, identity, sizeof identity);
    }
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    const cJSON *f[8];
    sinew__jpush_key(d->c, "transform");
    TRY(sinew__jfields(d->c, v, &transform_table, f));
    double x, y, skx, sky, scx, scy, rot, skew;
    TRY(sinew__jnum(d->c, f[0], "x", 0, &x));
    TRY(sinew__jnum(d->c, f[1], "y", 0, &y));
    TRY(sinew__jnum(d->c, f[2], "skX", 0, &skx));
    TRY(sinew__jnum(d->c, f[3], "skY", 0, &sky));
    TRY(sinew__jnum(d->c, f[4], "scX", 1, &scx));
    TRY(sinew__jnum(d->c, f[5], "scY", 1, &scy));
    TRY(sinew__jnum(d->c, f[6], "rotate", 0, &rot));
    TRY(sinew__jnum(d->c, f[7], "skew", 0, &skew));
    if (exact) {
        exact[0] = x;
        exact[1] = y;
        exact[4] = scx;
        exact[5] = scy;
        if (f[6] || f[7]) {
            exact[2] = js_normalize_rad(rot * DEG2RAD);
            exact[3] = js_normalize_rad(skew * DEG2RAD);
        } else {
            exact[2] = js_normalize_rad(sky * DEG2RAD);
            exact[3] = js_normalize_rad(skx * DEG2RAD) - exact[2];
        }
    }
    if (f[6] || f[7]) {
        rot = sinew__dbj_normalize_rad(rot * DEG2RAD);
        skew = sinew__dbj_normalize_rad(skew * DEG2RAD);
    } else {
        rot = sinew__dbj_normalize_rad(sky * DEG2RAD);
        skew = sinew__dbj_normalize_rad(skx * DEG2RAD) - rot;
        if (setup)
            skew = sinew__dbj_normalize_rad(skew);
    }
    if (fabs(x) > FLT_MAX || fabs(y) > FLT_MAX || fabs(scx) > FLT_MAX || fabs(scy) > FLT_MAX)
        return sinew__jfail(d->c, SINEW_E_RANGE, "transform value out of range");
    t->x = (float)x;
    t->y = (float)y;
    t->rotation = (float)rot;
    t->skew = (float)skew;
    t->scale_x = (float)scx;
    t->scale_y = (float)scy;
    sinew__jpop(d->c);
    return SINEW_OK;
}

static const char *const color_keys[] = {"aM", "rM", "gM", "bM", "aO", "rO", "gO", "bO"};
static const sinew_jkeys color_table = SINEW_JKEYS(color_keys, "color");

static void color_identity(sinew_color_transform *col) {
    col->a_mul = col->r_mul = col->g_mul = col->b_mul = 1.0f;
    col->a_add = col->r_add = col->g_add = col->b_add = 0.0f;
}

sinew_status sinew__dbj_parse_color(db *d, const cJSON *v, const char *key, sinew_color_transform *col) {
    color_identity(col);
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    const cJSON *f[8];
    float m[8];
    sinew__jpush_key(d->c, key);
    TRY(sinew__jfields(d->c, v, &color_table, f));
    for (int i = 0; i < 8; i++)
        TRY(sinew__jfloat(d->c, f[i], color_keys[i], i < 4 ? 100.0f : 0.0f, &m[i]));
    col->a_mul = m[0] * 0.01f;
    col->r_mul = m[1] * 0.01f;
    col->g_mul = m[2] * 0.01f;
    col->b_mul = m[3] * 0.01f;
    col->a_add = m[4];
    col->r_add = m[5];
    col->g_add = m[6];
    col->b_add = m[7];
    sinew__jpop(d->c);
    return SINEW_OK;
}

sinew_blend_mode sinew__dbj_blend_from_string(const char *s, bool *known) {
    *known = true;
    for (unsigned i = 0; i < SINEW_BLEND_COUNT; i++) {
        const char *a = sinew_blend_mode_name((sinew_blend_mode)i), *b = s;
        while (*a && *b && *a == (*b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b)) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return (sinew_blend_mode)i;
    }
    *known = s[0] == '\0';
    return SINEW_BLEND_NORMAL;
}

/* ---- actions -------------------------------------------------------------------------------- */

static const char *const action_keys[] = {"gotoAndPlay", "gotoAndStop", "type",   "name",    "bone",
                                          "slot",        "ints",        "floats", "strings", "playTimes",
                                          "play",        "stop",        "fadeIn",     "offset"};
static const sinew_jkeys action_table = SINEW_JKEYS(action_keys, "action");

static sinew_status parse_user_values(db *d, const cJSON *const *f, sinew_model_action *a) {
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, f[6], "ints", &first, &n));
    if (n) {
        ALLOC(a->ints, n);
        a->int_count = n;
        uint32_t i = 0;
        for (const cJSON *e = first; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 2147483647.0)
                return sinew__jfail_key(d->c, "ints", SINEW_E_TYPE, "'ints' must hold integers");
            a->ints[i] = (int32_t)e->valuedouble;
        }
    }
    TRY(sinew__jarray(d->c, f[7], "floats", &first, &n));
    if (n) {
        ALLOC(a->floats, n);
        a->float_count = n;
        TRY(sinew__jfloats(d->c, first, "floats", a->floats, n));
    }
    TRY(sinew__jarray(d->c, f[8], "strings", &first, &n));
    if (n) {
        const char **s;
        ALLOC(s, n);
        uint32_t i = 0;
        for (const cJSON *e = first; e; e = e->next, i++) {
            if (!cJSON_IsString(e))
                return sinew__jfail_key(d->c, "strings", SINEW_E_TYPE, "'strings' must hold strings");
            TRY(sinew__dbj_dup_str(d, e->valuestring, &s[i]));
        }
        a->strings = s;
        a->string_count = n;
    }
    return SINEW_OK;
}

static sinew_status action_name(db *d, const cJSON *v, const char *key, const char **out) {
    const char *s;
    TRY(sinew__jstr(d->c, v, key, "", &s));
    return sinew__dbj_dup_str(d, s, out);
}

/* An action of kind `def` on `bone`/`slot` with nothing else set (play_times -1: the default). */
static sinew_model_action new_action(sinew_action_type def, uint32_t bone, uint32_t slot) {
    sinew_model_action a;
    memset(&a, 0, sizeof a);
    a.type = def;
    a.bone = bone;
    a.slot = slot;
    a.play_times = -1;
    return a;
}

/* One action object/array/string -> appended to d->actions. */
static sinew_status parse_one_action(db *d, const cJSON *v, sinew_action_type def, uint32_t bone, uint32_t slot) {
    sinew_model_action a = new_action(def, bone, slot);
    if (cJSON_IsString(v)) {
        TRY(sinew__dbj_dup_str(d, v->valuestring, &a.name));
        return sinew__dbj_push_action(d, &a);
    }
    if (cJSON_IsArray(v)) { /* seed form ["gotoAndPlay", "name"] */
        const cJSON *k = v->child, *n = k ? k->next : NULL;
        if (!cJSON_IsString(k))
            return sinew__jfail(d->c, SINEW_E_TYPE, "an action array must start with its kind (\"gotoAndPlay\", ...)");
        const char *kind = k->valuestring;
        if (strcmp(kind, "gotoAndPlay") == 0 || strcmp(kind, "play") == 0)
            a.type = SINEW_ACTION_PLAY;
        else if (strcmp(kind, "gotoAndStop") == 0 || strcmp(kind, "stop") == 0)
            a.type = SINEW_ACTION_STOP;
        else if (strcmp(kind, "fadeIn") == 0)
            a.type = SINEW_ACTION_FADE_IN;
        else {
            sinew__jwarn(d->c, NULL, SINEW_E_UNSUPPORTED, "action kind '%s' is not supported (ignored)", kind);
            return SINEW_OK;
        }
        if (n && !cJSON_IsString(n))
            return sinew__jfail(d->c, SINEW_E_TYPE, "an action's animation name must be a string");
        TRY(sinew__dbj_dup_str(d, n ? n->valuestring : "", &a.name));
        return sinew__dbj_push_action(d, &a);
    }
    const cJSON *f[14];
    TRY(sinew__jfields(d->c, v, &action_table, f));
    if (f[0]) {
        a.type = SINEW_ACTION_PLAY;
        TRY(action_name(d, f[0], "gotoAndPlay", &a.name));
    } else if (f[1]) {
        a.type = SINEW_ACTION_STOP;
        TRY(action_name(d, f[1], "gotoAndStop", &a.name));
    } else if (f[10]) {
        a.type = SINEW_ACTION_PLAY;
        TRY(action_name(d, f[10], "play", &a.name));
    } else if (f[11]) {
        a.type = SINEW_ACTION_STOP;
        TRY(action_name(d, f[11], "stop", &a.name));
    } else if (f[12]) {
        a.type = SINEW_ACTION_FADE_IN;
        TRY(action_name(d, f[12], "fadeIn", &a.name));
    } else if (f[2] || f[3]) {
        /* as the official parser: a string names the kind in any case (anything else plays); a
         * number is kept, and the runtime plays 0, sends 10 as a frame event and any other as a
         * sound event */
        if (cJSON_IsString(f[2])) {
            const char *t = f[2]->valuestring;
            if (strcasecmp(t, "frame") == 0)
                a.type = SINEW_ACTION_FRAME_EVENT;
            else if (strcasecmp(t, "sound") == 0)
                a.type = SINEW_ACTION_SOUND;
            else
                a.type = SINEW_ACTION_PLAY;
            if (strcasecmp(t, "play") != 0 && strcasecmp(t, "frame") != 0 && strcasecmp(t, "sound") != 0)
                sinew__jwarn(d->c, "type", SINEW_E_UNSUPPORTED,
                             "unknown action type '%s' (a play action, as the official runtime reads it)", t);
        } else if (f[2]) {
            int64_t t;
            TRY(sinew__jint(d->c, f[2], "type", 0, INT32_MIN, INT32_MAX, &t));
            a.type = t == 0 ? SINEW_ACTION_PLAY : t == 10 ? SINEW_ACTION_FRAME_EVENT : SINEW_ACTION_SOUND;
        }
        TRY(action_name(d, f[3], "name", &a.name));
    } else {
        sinew__jwarn(d->c, NULL, SINEW_E_UNSUPPORTED, "action without a kind or name (ignored)");
        return SINEW_OK;
    }
    if (f[4]) {
        const char *bn;
        TRY(sinew__jstr(d->c, f[4], "bone", "", &bn));
        a.bone = sinew__namemap_get(&d->bones, bn);
        if (a.bone == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "bone", SINEW_E_REFERENCE, "bone '%s' does not exist", bn);
    }
    if (f[5]) {
        const char *sn;
        TRY(sinew__jstr(d->c, f[5], "slot", "", &sn));
        a.slot = sinew__namemap_get(&d->slots, sn);
        if (a.slot == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "slot", SINEW_E_REFERENCE, "slot '%s' does not exist", sn);
    }
    if (f[9]) {
        int64_t pt;
        TRY(sinew__jint(d->c, f[9], "playTimes", -1, -1, 2147483647.0, &pt));
        a.play_times = (int32_t)pt;
    }
    TRY(parse_user_values(d, f, &a));
    return sinew__dbj_push_action(d, &a);
}

/* An action list value under `key` (string, array, or a single object). */
sinew_status sinew__dbj_parse_actions(db *d, const cJSON *v, const char *key, sinew_action_type def, uint32_t bone,
                                  uint32_t slot) {
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    sinew__jpush_key(d->c, key);
    if (cJSON_IsArray(v)) {
        /* a seed-style single action ["gotoAndPlay", "x"] vs a list of actions */
        if (v->child && cJSON_IsString(v->child) && v->child->next && cJSON_IsString(v->child->next) &&
            !v->child->next->next && def == SINEW_ACTION_PLAY) {
            TRY(parse_one_action(d, v, def, bone, slot));
        } else {
            uint32_t i = 0;
            for (const cJSON *e = v->child; e; e = e->next, i++) {
                sinew__jpush_index(d->c, i);
                if (def != SINEW_ACTION_PLAY && cJSON_IsString(e)) {
                    sinew_model_action a = new_action(def, bone, slot);
                    TRY(sinew__dbj_dup_str(d, e->valuestring, &a.name));
                    TRY(sinew__dbj_push_action(d, &a));
                } else {
                    TRY(parse_one_action(d, e, def, bone, slot));
                }
                sinew__jpop(d->c);
            }
        }
    } else if (cJSON_IsString(v) || cJSON_IsObject(v)) {
        TRY(parse_one_action(d, v, def, bone, slot));
    } else {
        return sinew__jfail(d->c, SINEW_E_TYPE, "'%s' must be a string, an object or an array", key);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* event / sound / action / events / actions of a frame, merged into the animation's action
 * frames at `pos`. If `keep` is non-NULL the actions also stay in d->actions for the keyframe.
 * Each key present is one official merge (recorded even when it yields no action: the official
 * parser then still adds a frame); `tl`/`key` name the keyframe of a bone or slot timeline. */
sinew_status sinew__dbj_frame_actions(db *d, float pos, const cJSON *ev, const cJSON *snd, const cJSON *act,
                                  const cJSON *evs, const cJSON *acts, uint32_t bone, uint32_t slot,
                                  sinew_model_keyframe *keep, uint32_t tl, uint32_t key) {
    uint32_t first = d->action_count;
    const cJSON *vals[5] = {ev, snd, act, evs, acts};
    static const char *const names[5] = {"event", "sound", "action", "events", "actions"};
    static const sinew_action_type kinds[5] = {SINEW_ACTION_FRAME_EVENT, SINEW_ACTION_SOUND, SINEW_ACTION_PLAY,
                                               SINEW_ACTION_FRAME_EVENT, SINEW_ACTION_PLAY};
    for (int k = 0; k < 5; ++k) {
        if (!vals[k])
            continue;
        uint32_t before = d->action_count;
        TRY(sinew__dbj_parse_actions(d, vals[k], names[k], kinds[k], bone, slot));
        merge_rec m = {(uint8_t)(keep ? 2 : tl != SINEW_INVALID_INDEX ? 1 : 0), pos, tl, key,
                       keep ? before : d->pending_count + (before - first), d->action_count - before};
        TRY(push_merge(d, &m));
    }
    for (uint32_t i = first; i < d->action_count; i++)
        TRY(push_pending(d, pos, &d->actions[i]));
    if (keep) {
        keep->first_action = first;
        keep->action_count = d->action_count - first;
    } else {
        d->action_count = first;
    }
    return SINEW_OK;
}

/* ---- armatures and the file ------------------------------------------------------------------ */

static const char *const armature_keys[] = {"name", "type",  "frameRate", "userData", "defaultActions", "bone",
                                            "slot", "skin",  "ik",        "animation", "aabb",           "canvas",
                                            "actions", "path", "transform", "physics"};
static const sinew_jkeys armature_table = SINEW_JKEYS(armature_keys, "armature");
static const char *const aabb_keys[] = {"x", "y", "width", "height"};
static const sinew_jkeys aabb_table = SINEW_JKEYS(aabb_keys, "aabb");
static const char *const canvas_keys[] = {"x", "y", "width", "height", "color"};
static const sinew_jkeys canvas_table = SINEW_JKEYS(canvas_keys, "canvas");

static sinew_status build_armature(db *d, const cJSON *v, sinew_model_armature *A, bool is_global) {
    const cJSON *f[16];
    memset(&d->bones, 0, sizeof d->bones);
    memset(&d->slots, 0, sizeof d->slots);
    memset(&d->skins, 0, sizeof d->skins);
    memset(&d->iks, 0, sizeof d->iks);
    d->arm = A;
    A->v6 = d->data->v6;
    d->action_count = 0;
    d->slot_display_max = NULL;
    TRY(sinew__jfields(d->c, v, &armature_table, f));
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(sinew__dbj_dup_str(d, name, &A->name));
    const char *type = "Armature";
    if (cJSON_IsNumber(f[1])) {
        int64_t t;
        TRY(sinew__jint(d->c, f[1], "type", 0, 0, 2, &t));
        type = t == 1 ? "MovieClip" : t == 2 ? "Stage" : "Armature";
    } else if (f[1]) {
        const char *ts;
        TRY(sinew__jstr(d->c, f[1], "type", "Armature", &ts));
        char low[16];
        size_t i = 0;
        for (; ts[i] && i < sizeof low - 1; i++)
            low[i] = (char)(ts[i] >= 'A' && ts[i] <= 'Z' ? ts[i] + 32 : ts[i]);
        low[i] = '\0';
        if (strcmp(low, "movieclip") == 0)
            type = "MovieClip";
        else if (strcmp(low, "stage") == 0)
            type = "Stage";
        else if (strcmp(low, "armature") != 0)
            sinew__jwarn(d->c, "type", SINEW_E_UNSUPPORTED, "unknown armature type '%s' (using Armature)", ts);
    }
    A->type = type;
    float fr;
    TRY(sinew__jfloat(d->c, f[2], "frameRate", d->data->frame_rate, &fr));
    if (fr < 0.0f)
        return sinew__jfail_key(d->c, "frameRate", SINEW_E_RANGE, "'frameRate' must not be negative");
    A->frame_rate = fr == 0.0f ? 24.0f : fr;
    TRY(sinew__dbj_user_data(d, f[3], &A->user_data));
    if (f[10] && !cJSON_IsNull(f[10])) {
        const cJSON *g[4];
        sinew__jpush_key(d->c, "aabb");
        TRY(sinew__jfields(d->c, f[10], &aabb_table, g));
        TRY(sinew__jfloat(d->c, g[0], "x", 0, &A->aabb.a));
        TRY(sinew__jfloat(d->c, g[1], "y", 0, &A->aabb.b));
        TRY(sinew__jfloat(d->c, g[2], "width", 0, &A->aabb.c));
        TRY(sinew__jfloat(d->c, g[3], "height", 0, &A->aabb.d));
        A->has_aabb = true;
        sinew__jpop(d->c);
    }
    if (f[11] && !cJSON_IsNull(f[11])) { /* the editor's stage: kept and shown, not drawn */
        const cJSON *g[5];
        sinew__jpush_key(d->c, "canvas");
        TRY(sinew__jfields(d->c, f[11], &canvas_table, g));
        TRY(sinew__jfloat(d->c, g[0], "x", 0, &A->canvas_x));
        TRY(sinew__jfloat(d->c, g[1], "y", 0, &A->canvas_y));
        TRY(sinew__jfloat(d->c, g[2], "width", 0, &A->canvas_width));
        TRY(sinew__jfloat(d->c, g[3], "height", 0, &A->canvas_height));
        int64_t color;
        TRY(sinew__jint(d->c, g[4], "color", 0, 0, 0xffffff, &color));
        A->canvas_color = (uint32_t)color;
        A->canvas_background = g[4] != NULL;
        A->has_canvas = true;
        sinew__jpop(d->c);
    }
    TRY(sinew__dbj_build_bones(d, f[5]));
    TRY(sinew__dbj_build_slots(d, f[6]));
    TRY(sinew__dbj_build_skins(d, f[7]));
    sinew__jpush_key(d->c, "slot");
    for (uint32_t s = 0; s < A->slot_count; s++) {
        if (!sinew__dbj_display_index_ok(d, s, A->slots[s].display_index)) {
            sinew__jpush_index(d->c, s); /* slots are stored in file order unless `z` reorders them */
            return sinew__jfail_key(d->c, "displayIndex", SINEW_E_RANGE,
                                    "slot '%s': displayIndex %d is out of range (%u displays)", A->slots[s].name,
                                    A->slots[s].display_index, d->slot_display_max[s]);
        }
    }
    sinew__jpop(d->c);
    TRY(sinew__dbj_build_iks(d, f[8]));
    TRY(sinew__dbj_build_v6_constraints(d, f[14], f[15]));
    TRY(sinew__dbj_build_path_constraints(d, f[13]));
    TRY(sinew__dbj_build_animations(d, f[9]));
    /* default actions */
    uint32_t a0 = d->action_count;
    TRY(sinew__dbj_parse_actions(d, f[4], "defaultActions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX));
    A->first_default_action = a0;
    A->default_action_count = d->action_count - a0;
    A->default_animation = A->animation_count ? 0 : SINEW_INVALID_INDEX;
    for (uint32_t i = a0; i < d->action_count; i++) {
        if (d->actions[i].type != SINEW_ACTION_PLAY)
            continue;
        for (uint32_t j = 0; j < A->animation_count; j++)
            if (strcmp(A->animations[j].name, d->actions[i].name) == 0)
                A->default_animation = j;
    }
    if (f[12])
        sinew__jwarn(d->c, "actions", SINEW_E_UNSUPPORTED, "armature-level 'actions' are ignored");
    A->action_count = d->action_count;
    ALLOC(A->actions, d->action_count);
    if (d->action_count)
        memcpy(A->actions, d->actions, d->action_count * sizeof *A->actions);
    if (is_global)
        TRY(sinew__dbj_convert_global(d));
    return SINEW_OK;
}

static const char *const top_keys[] = {"name",     "version",  "compatibleVersion", "frameRate", "isGlobal",
                                       "armature", "userData", "textureAtlas",      "stage"};
static const sinew_jkeys top_table = SINEW_JKEYS(top_keys, "document");

static bool version_supported(const char *v) {
    static const char *const ok[] = {"4.0", "4.5", "5.0", "5.5", "5.6", "6.0"};
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(v, ok[i]) == 0)
            return true;
    return false;
}

static sinew_status version_string(db *d, const cJSON *v, const char *key, const char **out) {
    char buf[32];
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    if (cJSON_IsNumber(v)) {
        if (!isfinite(v->valuedouble))
            return sinew__jfail_key(d->c, key, SINEW_E_RANGE, "'%s' is not a finite number", key);
        sinew__snprintf(buf, sizeof buf, "%.1f", v->valuedouble);
        return sinew__dbj_dup_str(d, buf, out);
    }
    if (!cJSON_IsString(v))
        return sinew__jfail_key(d->c, key, SINEW_E_TYPE, "'%s' must be a string", key);
    return sinew__dbj_dup_str(d, v->valuestring, out);
}

static sinew_status build_file(db *d, const cJSON *root) {
    struct sinew_data *D = d->data;
    const cJSON *f[9];
    TRY(sinew__jfields(d->c, root, &top_table, f));
    if (!f[1])
        return sinew__jfail(d->c, SINEW_E_MISSING, "no 'version': not a DragonBones skeleton");
    TRY(version_string(d, f[1], "version", &D->version));
    TRY(version_string(d, f[2], "compatibleVersion", &D->compatible_version));
    if (!version_supported(D->version) && !(D->compatible_version && version_supported(D->compatible_version)))
        return sinew__jfail_key(d->c, "version", SINEW_E_VERSION,
                                "unsupported version '%s' (sinew reads 4.0, 4.5, 5.0, 5.5, 5.6 and 6.0)", D->version);
    /* A 6.0 file plays as the official 6.0.2 runtime plays it, a 4.0-5.6 file as 5.x (docs/loader.md) */
    D->v6 = strcmp(D->version, "6.0") == 0 || (D->compatible_version && strcmp(D->compatible_version, "6.0") == 0);
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(sinew__dbj_dup_str(d, name, &D->name));
    TRY(sinew__jfloat(d->c, f[3], "frameRate", 24.0f, &D->frame_rate));
    if (D->frame_rate < 0.0f)
        return sinew__jfail_key(d->c, "frameRate", SINEW_E_RANGE, "'frameRate' must not be negative");
    /* isGlobal: only an explicit 1 means absolute data (docs/loader.md) */
    if (f[4]) {
        bool g;
        TRY(sinew__jbool(d->c, f[4], "isGlobal", false, &g));
        D->is_global = g;
    }
    TRY(sinew__dbj_user_data(d, f[6], &D->user_data));
    if (f[8] && !cJSON_IsNull(f[8])) { /* the armature the editor shows (sinew_data_default_armature) */
        const char *stage;
        TRY(sinew__jstr(d->c, f[8], "stage", "", &stage));
        if (stage[0])
            TRY(sinew__dbj_dup_str(d, stage, &D->stage));
    }
    D->source_format = "dragonbones";
    const cJSON *first;
    uint32_t n;
    TRY(sinew__dbj_limited_array(d, f[5], "armature", d->c->limits.max_armatures, &first, &n));
    D->armature_count = n;
    ALLOC(D->armatures, n);
    TRY(sinew__dbj_nm_init(d, &d->armature_names, n));
    uint32_t i = 0;
    for (const cJSON *a = first; a; a = a->next, i++) {
        const cJSON *nv = sinew__dbj_obj_get(a, "name");
        if (cJSON_IsString(nv) && sinew__namemap_put(&d->armature_names, nv->valuestring, i) != SINEW_INVALID_INDEX) {
            sinew__jpush_key(d->c, "armature");
            sinew__jpush_index(d->c, i);
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "armature '%s' is defined twice", nv->valuestring);
        }
    }
    sinew__jpush_key(d->c, "armature");
    i = 0;
    for (const cJSON *a = first; a; a = a->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(build_armature(d, a, &D->armatures[i], D->is_global));
        if (d->first_int == FIRST_NONE) /* the first armature's colour frames, if any, came first */
            d->first_int = FIRST_OTHER;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

sinew_status sinew__dragonbones_build(sinew_jctx *c, const cJSON *root, const sinew_build_finish *finish,
                                      struct sinew_data **out) {
    *out = NULL;
    sinew_status st = SINEW_OK;
    sinew_arena arena;
    db d;
    memset(&d, 0, sizeof d);
    sinew__arena_init(&arena, c->allocator, (size_t)(c->limits.max_memory_bytes < SIZE_MAX ? c->limits.max_memory_bytes : SIZE_MAX));
    sinew__arena_init(&d.scratch, c->allocator, (size_t)(c->limits.max_memory_bytes < SIZE_MAX ? c->limits.max_memory_bytes : SIZE_MAX));
    d.c = c;
    d.arena = &arena;
    bool ok;
    d.data = sinew__dbj_alloc_array(&d, 1, sizeof *d.data, &ok);
    if (!ok) {
        st = c->err.code;
        goto done;
    }
    st = build_file(&d, root);
    if (st == SINEW_OK && c->err.code == SINEW_OK) {
        d.data->arena = arena; /* the data now owns its own arena */
        if (finish)
            st = finish->fn(finish->ctx, d.data);
        if (st == SINEW_OK)
            st = sinew__model_prepare(d.data, &c->err);
        if (st == SINEW_OK) {
            *out = d.data;
        } else {
            if (!c->err.file)
                c->err.file = c->file;
            arena = d.data->arena;
        }
    } else if (st == SINEW_OK) {
        st = c->err.code;
    }
done:
    sinew__arena_destroy(&d.scratch);
    if (!*out)
        sinew__arena_destroy(&arena);
    if (st != SINEW_OK && c->err.code == SINEW_OK)
        sinew__jfail(c, st, "%s", sinew_status_str(st));
    return st;
}

sinew_status sinew__dragonbones_load(const char *text, size_t len, const char *file,
                                     const sinew_load_options *opts, struct sinew_data **out, sinew_error *err) {
    sinew_jctx c;
    sinew__jctx_init(&c, text, len, file, opts);
    *out = NULL;
    sinew_status st;
    cJSON *root = sinew__json_parse(&c);
    if (!root)
        st = c.err.code;
    else
        st = sinew__dragonbones_build(&c, root, NULL, out);
    if (root)
        sinew__json_free(&c, root);
    if (st != SINEW_OK && c.err.code == SINEW_OK)
        sinew__jfail(&c, st, "%s", sinew_status_str(st));
    if (err && st != SINEW_OK && err->code == SINEW_OK)
        *err = c.err;
    return st;
}
