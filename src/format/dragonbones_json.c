/*
 * DragonBones JSON (4.0, 4.5, 5.0-5.6) -> struct sinew_data.
 *
 * Parse with cJSON, build everything into the data's arena (counts are taken from the DOM before
 * each allocation), delete the DOM. Temporaries live in a scratch arena freed at the end. Errors
 * carry the JSON path of the offending value; json_read.c turns it into line:column on demand.
 * See docs/loader.md for the policies (layout detection, isGlobal, defaults).
 */
#include "format/dragonbones_json.h"

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

#define PI_F 3.14159265358979323846
#define DEG2RAD (PI_F / 180.0)

#define TRY(x)                          \
    do {                                \
        sinew_status st_ = (x);         \
        if (st_ != SINEW_OK)            \
            return st_;                 \
    } while (0)

typedef struct pending_action {
    float pos;
    uint32_t seq;
    sinew_model_action action;
} pending_action;

/* One official action merge (see sinew_model_merge_unit) while an animation is built: `first`
 * and `count` index the pending actions (animation and bone frames) or d->actions (slot frames). */
typedef struct merge_rec {
    uint8_t source;
    float pos;
    uint32_t timeline, key;
    uint32_t first, count;
} merge_rec;

typedef struct db {
    sinew_jctx *c;
    sinew_arena *arena;
    sinew_arena scratch;
    struct sinew_data *data;
    sinew_namemap armature_names;
    /* the armature being built */
    sinew_model_armature *arm;
    sinew_namemap bones, slots, skins, iks;
    uint32_t *bone_of_file;        /* file index -> model index */
    uint32_t *slot_display_max;    /* per slot: most displays any skin gives it */
    uint32_t *pose_of_bone;        /* per mesh scratch: model bone -> bonePose entry */
    sinew_model_action *actions;   /* growable (scratch), copied to the arena at the end */
    uint32_t action_count, action_cap;
    pending_action *pending;       /* the animation's merged action frames, before sorting */
    uint32_t pending_count, pending_cap;
    merge_rec *merges;             /* the animation's action merges, in the order they happen */
    uint32_t merge_count, merge_cap;
    /* the animation being built */
    sinew_model_animation *anim;
    uint32_t keys_used, curves_used;
    /* what the official parser writes first into its int array (offset 0, which a shared mesh
     * reads, see SHARE below): nothing yet, the first armature's first mesh, or something else */
    enum { FIRST_NONE, FIRST_MESH, FIRST_OTHER } first_int;
    const cJSON *first_node;       /* the display that will be it, in file order (skins may be
                                      built in another order: the default one first) */
    const sinew_model_mesh *first_mesh;
    sinew_model_mesh **share_wait; /* shared meshes built before that display, filled after */
    uint32_t share_wait_count;
    bool warned_generic;           /* the 5.6 `timeline` arrays were reported */
} db;

static void *scratch_array(db *d, size_t count, size_t size) {
    void *p = sinew__arena_array(&d->scratch, count ? count : 1, size);
    if (!p)
        sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    return p;
}

/* A name map (base/namemap.h) for n names in the scratch arena. */
static sinew_status nm_init(db *d, sinew_namemap *m, uint32_t n) {
    if (sinew__namemap_init(m, &d->scratch, n))
        return SINEW_OK;
    sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    return SINEW_E_NOMEM;
}

/* ---- arena helpers ------------------------------------------------------------------------- */

static void *alloc_array(db *d, size_t count, size_t size, bool *ok) {
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

#define ALLOC(ptr, count)                                             \
    do {                                                              \
        bool ok_;                                                     \
        (ptr) = alloc_array(d, (size_t)(count), sizeof *(ptr), &ok_); \
        if (!ok_)                                                     \
            return d->c->err.code;                                    \
    } while (0)

static sinew_status dup_str(db *d, const char *s, const char **out) {
    char *p = sinew__arena_strdup(d->arena, s ? s : "");
    if (!p)
        return sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    *out = p;
    return SINEW_OK;
}

static sinew_status user_data(db *d, const cJSON *v, const char **out) {
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    size_t size;
    char *txt = sinew__json_print(v, false, d->arena->allocator, &size);
    if (!txt)
        return sinew__jfail_key(d->c, "userData", SINEW_E_NOMEM, "out of memory");
    sinew_status st = dup_str(d, txt, out);
    sinew__free(d->arena->allocator, txt, size);
    return st;
}

static sinew_status push_action(db *d, const sinew_model_action *a) {
    if (d->action_count == d->action_cap) {
        uint32_t cap = d->action_cap ? d->action_cap * 2u : 64u;
        sinew_model_action *n = scratch_array(d, cap, sizeof *n);
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
        merge_rec *n = scratch_array(d, cap, sizeof *n);
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
        pending_action *n = scratch_array(d, cap, sizeof *n);
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

static double normalize_rad(double r) {
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

static sinew_status parse_transform_d(db *d, const cJSON *v, sinew_transform *t, bool setup, double *exact);

static sinew_status parse_transform(db *d, const cJSON *v, sinew_transform *t, bool setup) {
    return parse_transform_d(d, v, t, setup, NULL);
}

/* `exact` (6 doubles, may be NULL) receives x y rotation skew scaleX scaleY exactly as the
 * official parser computes them in double. */
static sinew_status parse_transform_d(db *d, const cJSON *v, sinew_transform *t, bool setup, double *exact) {
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
        rot = normalize_rad(rot * DEG2RAD);
        skew = normalize_rad(skew * DEG2RAD);
    } else {
        rot = normalize_rad(sky * DEG2RAD);
        skew = normalize_rad(skx * DEG2RAD) - rot;
        if (setup)
            skew = normalize_rad(skew);
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

static sinew_status parse_color(db *d, const cJSON *v, const char *key, sinew_color_transform *col) {
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

static sinew_blend_mode blend_from_string(const char *s, bool *known) {
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
            TRY(dup_str(d, e->valuestring, &s[i]));
        }
        a->strings = s;
        a->string_count = n;
    }
    return SINEW_OK;
}

static sinew_status action_name(db *d, const cJSON *v, const char *key, const char **out) {
    const char *s;
    TRY(sinew__jstr(d->c, v, key, "", &s));
    return dup_str(d, s, out);
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
        TRY(dup_str(d, v->valuestring, &a.name));
        return push_action(d, &a);
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
        TRY(dup_str(d, n ? n->valuestring : "", &a.name));
        return push_action(d, &a);
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
    return push_action(d, &a);
}

/* An action list value under `key` (string, array, or a single object). */
static sinew_status parse_actions(db *d, const cJSON *v, const char *key, sinew_action_type def, uint32_t bone,
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
                    TRY(dup_str(d, e->valuestring, &a.name));
                    TRY(push_action(d, &a));
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
static sinew_status frame_actions(db *d, float pos, const cJSON *ev, const cJSON *snd, const cJSON *act,
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
        TRY(parse_actions(d, vals[k], names[k], kinds[k], bone, slot));
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

/* ---- bones ----------------------------------------------------------------------------------- */

enum { BONE_KEY_COUNT = 14 };
static const char *const bone_keys[BONE_KEY_COUNT] = {
    "name",   "parent",   "transform", "length", "inheritTranslation", "inheritRotation", "inheritScale",
    "inheritReflection", "userData", "type", "segmentX", "segmentY", "vertices", "alpha"};
static const sinew_jkeys bone_table = SINEW_JKEYS(bone_keys, "bone");

/* A bone's `type`: "bone" (or 0) and "surface" (or 1), as the official parser names them. */
static sinew_status bone_type(db *d, const cJSON *v, bool *surface) {
    *surface = false;
    if (!v || cJSON_IsNull(v))
        return SINEW_OK;
    if (cJSON_IsNumber(v)) {
        int64_t t;
        TRY(sinew__jint(d->c, v, "type", 0, 0, 1, &t));
        *surface = t == 1;
        return SINEW_OK;
    }
    const char *t;
    TRY(sinew__jstr(d->c, v, "type", "bone", &t));
    if (strcmp(t, "surface") == 0)
        *surface = true;
    else if (strcmp(t, "bone") != 0)
        return sinew__jfail_key(d->c, "type", SINEW_E_UNSUPPORTED, "unknown bone type '%s' (bone or surface)", t);
    return SINEW_OK;
}

/* A surface's lattice: segmentX x segmentY cells, (segmentX + 1) (segmentY + 1) points. The
 * official parser ignores a surface's transform, length and inherit flags (its setup is the
 * identity) and pads a short `vertices` with zeros; sinew does the same and warns. */
static sinew_status build_surface(db *d, const cJSON *const *f, sinew_model_bone *B) {
    int64_t sx, sy;
    if (!f[10] || !f[11])
        return sinew__jfail_key(d->c, "type", SINEW_E_MISSING, "surface '%s' has no '%s'", B->name,
                                f[10] ? "segmentY" : "segmentX");
    TRY(sinew__jint(d->c, f[10], "segmentX", 1, 1, 256, &sx));
    TRY(sinew__jint(d->c, f[11], "segmentY", 1, 1, 256, &sy));
    B->segment_x = (uint32_t)sx;
    B->segment_y = (uint32_t)sy;
    B->surface_value_count = 2u * (uint32_t)(sx + 1) * (uint32_t)(sy + 1);
    ALLOC(B->surface_vertices, B->surface_value_count);
    memset(B->surface_vertices, 0, B->surface_value_count * sizeof(double));
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, f[12], "vertices", &first, &n));
    /* every value checked (the error at its index, within float range as other vertices), read
       in double; the lattice takes as many as it has points for */
    double *all = scratch_array(d, n ? n : 1u, sizeof *all);
    if (!all)
        return SINEW_E_NOMEM;
    TRY(sinew__jdoubles(d->c, first, "vertices", all, n, (double)FLT_MAX));
    memcpy(B->surface_vertices, all, (n < B->surface_value_count ? n : B->surface_value_count) * sizeof(double));
    if (n != B->surface_value_count)
        sinew__jwarn(d->c, "vertices", SINEW_E_LAYOUT,
                     "surface '%s' has %u vertex values for %u lattice points (%u values); %s, as the official runtime does",
                     B->name, n, B->surface_value_count / 2u, B->surface_value_count,
                     n < B->surface_value_count ? "the rest are 0" : "the extra ones are ignored");
    B->setup.scale_x = B->setup.scale_y = 1.0f;
    B->setup_d[4] = B->setup_d[5] = 1.0;
    return SINEW_OK;
}

static sinew_status build_bones(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "bone", &first, &n));
    if (n > d->c->limits.max_bones)
        return sinew__jfail_key(d->c, "bone", SINEW_E_LIMIT, "%u bones, more than the limit of %u (limits.max_bones)", n,
                                d->c->limits.max_bones);
    TRY(nm_init(d, &d->bones, n));
    const cJSON **nodes = scratch_array(d, n, sizeof *nodes);
    const cJSON *(*fields)[BONE_KEY_COUNT] = scratch_array(d, n, sizeof *fields);
    const char **names = scratch_array(d, n, sizeof *names);
    uint32_t *parent = scratch_array(d, n, sizeof *parent);
    uint32_t *model = scratch_array(d, n, sizeof *model);
    uint32_t *stack = scratch_array(d, n, sizeof *stack);
    uint8_t *state = scratch_array(d, n, 1);
    if (!nodes || !fields || !names || !parent || !model || !stack || !state)
        return SINEW_E_NOMEM;
    sinew_namemap byname;
    TRY(nm_init(d, &byname, n));
    sinew__jpush_key(d->c, "bone");
    uint32_t i = 0;
    for (const cJSON *b = first; b; b = b->next, i++) {
        nodes[i] = b;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, b, &bone_table, fields[i]));
        if (!fields[i][0])
            return sinew__jfail_key(d->c, "name", SINEW_E_MISSING, "bone has no name");
        TRY(sinew__jstr(d->c, fields[i][0], "name", "", &names[i]));
        if (sinew__namemap_put(&byname, names[i], i) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "bone '%s' is defined twice", names[i]);
        sinew__jpop(d->c);
    }
    for (i = 0; i < n; i++) {
        const char *pn;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jstr(d->c, fields[i][1], "parent", "", &pn));
        parent[i] = SINEW_INVALID_INDEX;
        if (pn[0]) {
            parent[i] = sinew__namemap_get(&byname, pn);
            if (parent[i] == SINEW_INVALID_INDEX)
                return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "bone '%s': parent bone '%s' does not exist",
                                        names[i], pn);
        }
        sinew__jpop(d->c);
    }
    /* parent-first order, stable: a bone is placed right after its ancestors are */
    uint32_t placed = 0;
    for (i = 0; i < n; i++) {
        uint32_t top = 0, b = i;
        while (b != SINEW_INVALID_INDEX && state[b] != 2) {
            if (state[b] == 1) {
                sinew__jpush_index(d->c, b);
                return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "bone '%s' is its own ancestor (parent cycle)",
                                        names[b]);
            }
            state[b] = 1;
            stack[top++] = b;
            b = parent[b];
        }
        while (top) {
            uint32_t x = stack[--top];
            state[x] = 2;
            model[x] = placed++;
        }
    }
    A->bone_count = n;
    ALLOC(A->bones, n);
    d->bone_of_file = model;
    for (i = 0; i < n; i++) {
        sinew_model_bone *B = &A->bones[model[i]];
        const cJSON *const *f = fields[i];
        sinew__jpush_index(d->c, i);
        TRY(dup_str(d, names[i], &B->name));
        sinew__namemap_put(&d->bones, B->name, model[i]);
        B->parent = parent[i] == SINEW_INVALID_INDEX ? SINEW_INVALID_INDEX : model[parent[i]];
        B->file_index = i;
        TRY(bone_type(d, f[9], &B->is_surface));
        if (B->is_surface) {
            TRY(build_surface(d, f, B));
        } else {
            TRY(parse_transform_d(d, f[2], &B->setup, true, B->setup_d));
            TRY(sinew__jfloat(d->c, f[3], "length", 0.0f, &B->length));
            TRY(sinew__jbool(d->c, f[4], "inheritTranslation", true, &B->inherit_translation));
            TRY(sinew__jbool(d->c, f[5], "inheritRotation", true, &B->inherit_rotation));
            TRY(sinew__jbool(d->c, f[6], "inheritScale", true, &B->inherit_scale));
            TRY(sinew__jbool(d->c, f[7], "inheritReflection", true, &B->inherit_reflection));
        }
        B->has_setup_d = true;
        if (f[13]) /* 5.6 bone `alpha`: the official 5.7 runtime does not read it */
            TRY(sinew__jnum(d->c, f[13], "alpha", 1.0, &(double){0}));
        TRY(user_data(d, f[8], &B->user_data));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* ---- slots ----------------------------------------------------------------------------------- */

static const char *const slot_keys[] = {"name", "parent",   "displayIndex", "blendMode", "color", "z",
                                        "actions", "userData", "zOrder", "zIndex", "alpha"};
static const sinew_jkeys slot_table = SINEW_JKEYS(slot_keys, "slot");

static sinew_status build_slots(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "slot", &first, &n));
    if (n > d->c->limits.max_slots)
        return sinew__jfail_key(d->c, "slot", SINEW_E_LIMIT, "%u slots, more than the limit of %u (limits.max_slots)", n,
                                d->c->limits.max_slots);
    A->slot_count = n;
    ALLOC(A->slots, n);
    TRY(nm_init(d, &d->slots, n));
    /* slots are stored sorted by `z` (stable; default the array index) */
    int64_t *z = scratch_array(d, n, sizeof *z);
    uint32_t *order = scratch_array(d, n, sizeof *order);
    const cJSON **nodes = scratch_array(d, n, sizeof *nodes);
    if (!z || !order || !nodes)
        return SINEW_E_NOMEM;
    sinew__jpush_key(d->c, "slot");
    uint32_t i = 0;
    bool sorted = true;
    for (const cJSON *s = first; s; s = s->next, i++) {
        nodes[i] = s;
        order[i] = i;
        const cJSON *zv = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "z") : NULL;
        sinew__jpush_index(d->c, i);
        TRY(sinew__jint(d->c, zv, "z", (double)i, -2147483648.0, 2147483647.0, &z[i]));
        sinew__jpop(d->c);
        if (i && z[i] < z[i - 1])
            sorted = false;
    }
    if (!sorted) { /* insertion sort keeps it stable; slot counts are small */
        for (i = 1; i < n; i++) {
            uint32_t o = order[i], j = i;
            while (j > 0 && z[order[j - 1]] > z[o]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = o;
        }
    }
    for (uint32_t m = 0; m < n; m++) {
        uint32_t fi = order[m];
        sinew_model_slot *S = &A->slots[m];
        const cJSON *f[11];
        sinew__jpush_index(d->c, fi);
        TRY(sinew__jfields(d->c, nodes[fi], &slot_table, f));
        /* 5.6 slot `zIndex` and `alpha`: numbers the official 5.7 runtime does not read */
        TRY(sinew__jnum(d->c, f[9], "zIndex", 0.0, &(double){0}));
        TRY(sinew__jnum(d->c, f[10], "alpha", 1.0, &(double){0}));
        const char *name, *pn;
        if (!f[0])
            return sinew__jfail_key(d->c, "name", SINEW_E_MISSING, "slot has no name");
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        TRY(dup_str(d, name, &S->name));
        if (sinew__namemap_put(&d->slots, S->name, m) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "slot '%s' is defined twice", name);
        if (!f[1])
            return sinew__jfail_key(d->c, "parent", SINEW_E_MISSING, "slot '%s' has no parent bone", name);
        TRY(sinew__jstr(d->c, f[1], "parent", "", &pn));
        S->parent = sinew__namemap_get(&d->bones, pn);
        if (S->parent == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "parent", SINEW_E_REFERENCE, "slot '%s': parent bone '%s' does not exist", name, pn);
        int64_t di;
        TRY(sinew__jint(d->c, f[2], "displayIndex", 0, -1, 2147483647.0, &di));
        S->display_index = (int32_t)di;
        S->blend = SINEW_BLEND_NORMAL;
        if (cJSON_IsString(f[3])) {
            bool known;
            S->blend = blend_from_string(f[3]->valuestring, &known);
            if (!known)
                sinew__jwarn(d->c, "blendMode", SINEW_E_UNSUPPORTED, "unknown blend mode '%s' (using normal)",
                             f[3]->valuestring);
        } else if (f[3] && !cJSON_IsNull(f[3])) {
            int64_t bm;
            TRY(sinew__jint(d->c, f[3], "blendMode", 0, 0, SINEW_BLEND_COUNT - 1, &bm));
            S->blend = (sinew_blend_mode)bm;
        }
        TRY(parse_color(d, f[4], "color", &S->color));
        S->z = (int32_t)z[fi];
        uint32_t a0 = d->action_count;
        TRY(parse_actions(d, f[6], "actions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, m));
        S->first_action = a0;
        S->action_count = d->action_count - a0;
        TRY(user_data(d, f[7], &S->user_data));
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

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

static bool affine_invert(sinew_affine m, sinew_affine *out) {
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
    D_GLUEWEIGHTS, D_GLUEMESHES, D_COUNT
};
static const char *const display_keys[D_COUNT] = {
    "name", "type", "path", "transform", "pivot", "uvs", "triangles", "vertices", "weights", "slotPose",
    "bonePose", "edges", "userEdges", "width", "height", "actions", "bones", "subType", "filterType",
    "inheritDeform", "share", "userData", "closed", "constantSpeed", "vertexCount", "lengths", "color",
    "glueWeights", "glueMeshes"};
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

static sinew_status build_mesh(db *d, const cJSON *const *f, sinew_model_mesh *M) {
    const cJSON *vfirst, *ufirst, *tfirst, *wfirst, *spfirst, *bpfirst, *efirst, *uefirst, *bfirst;
    uint32_t vn, un, tn, wn, spn, bpn, en, uen, bn;
    TRY(sinew__jarray(d->c, f[D_VERTICES], "vertices", &vfirst, &vn));
    TRY(sinew__jarray(d->c, f[D_UVS], "uvs", &ufirst, &un));
    TRY(sinew__jarray(d->c, f[D_TRIANGLES], "triangles", &tfirst, &tn));
    TRY(sinew__jarray(d->c, f[D_WEIGHTS], "weights", &wfirst, &wn));
    TRY(sinew__jarray(d->c, f[D_SLOTPOSE], "slotPose", &spfirst, &spn));
    TRY(sinew__jarray(d->c, f[D_BONEPOSE], "bonePose", &bpfirst, &bpn));
    TRY(sinew__jarray(d->c, f[D_EDGES], "edges", &efirst, &en));
    TRY(sinew__jarray(d->c, f[D_USEREDGES], "userEdges", &uefirst, &uen));
    TRY(sinew__jarray(d->c, f[D_BONES], "bones", &bfirst, &bn));
    bool layout2 = wn > 0 && bpn == 0 && f[D_BONES];
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
        TRY(sinew__jfloats(d->c, vfirst, "vertices", M->vertices, vn));
    TRY(sinew__jfloats(d->c, ufirst, "uvs", M->uvs, un));
    M->triangle_count = tn / 3u;
    ALLOC(M->triangles, tn);
    TRY(read_indices(d, tfirst, tn, "triangles", vcount, M->triangles, "vertex count"));
    M->edge_count = en / 2u;
    ALLOC(M->edges, en);
    TRY(read_indices(d, efirst, en, "edges", UINT32_MAX, M->edges, "limit"));
    M->user_edge_count = uen / 2u;
    ALLOC(M->user_edges, uen);
    TRY(read_indices(d, uefirst, uen, "userEdges", UINT32_MAX, M->user_edges, "limit"));
    TRY(sinew__jfloat(d->c, f[D_WIDTH], "width", 0.0f, &M->width));
    TRY(sinew__jfloat(d->c, f[D_HEIGHT], "height", 0.0f, &M->height));
    M->slot_pose = affine_identity();
    if (wn == 0)
        return SINEW_OK;

    /* ---- weighted ---- */
    float *w = scratch_array(d, wn, sizeof *w);
    if (!w)
        return SINEW_E_NOMEM;
    TRY(sinew__jfloats(d->c, wfirst, "weights", w, wn));
    uint32_t nbones = d->arm->bone_count;
    uint32_t inf = walk_counts(w, wn, vcount, nbones);
    uint8_t layout;
    if (layout2) {
        if (inf == UINT32_MAX)
            return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                    "mesh weights do not fit [count, bone, weight, ...] for %u vertices", vcount);
        if (vn != 2u * inf)
            return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT,
                                    "'vertices' has %u values for %u influences (expected %u)", vn, inf, 2u * inf);
        layout = 2;
    } else if (inf != UINT32_MAX) {
        layout = 0;
    } else {
        /* triples [vertex, bone, weight] */
        bool ok = wn % 3u == 0;
        for (uint32_t i = 0; ok && i < wn; i += 3u)
            ok = w[i] >= 0.0f && w[i] == floorf(w[i]) && w[i] < (float)vcount;
        if (!ok)
            return sinew__jfail_key(d->c, "weights", SINEW_E_LAYOUT,
                                    "mesh weights fit neither layout: per-vertex [count, bone, weight, ...] over %u "
                                    "vertices, nor triples [vertex, bone, weight]",
                                    vcount);
        layout = 1;
        inf = wn / 3u;
    }
    M->weighted = true;
    M->weight_layout = layout;
    M->influence_count = inf;
    ALLOC(M->vertex_first_influence, vcount + 1u);
    ALLOC(M->influence_bone, inf);
    ALLOC(M->influence_weight, inf);
    ALLOC(M->influence_local, 2u * inf);
    ALLOC(M->influence_deform, 4u * inf);
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
    } else {
        uint32_t *cnt = M->vertex_first_influence;
        for (uint32_t i = 0; i < wn; i += 3u)
            cnt[(uint32_t)w[i] + 1u]++;
        for (uint32_t v = 0; v < vcount; v++)
            cnt[v + 1u] += cnt[v];
        uint32_t *fill = scratch_array(d, vcount + 1u, sizeof *fill);
        if (!fill)
            return SINEW_E_NOMEM;
        memcpy(fill, cnt, (vcount + 1u) * sizeof *fill);
        for (uint32_t i = 0; i < wn; i += 3u) {
            uint32_t k = fill[(uint32_t)w[i]]++;
            TRY(weight_bone(d, w[i + 1u], i + 1u, &M->influence_bone[k]));
            M->influence_weight[k] = w[i + 2u];
        }
    }
    if (layout == 2) {
        TRY(sinew__jfloats(d->c, vfirst, "vertices", M->influence_local, vn));
        for (uint32_t k = 0; k < inf; k++) {
            M->influence_deform[4u * k + 0u] = 1.0f;
            M->influence_deform[4u * k + 3u] = 1.0f;
        }
        return SINEW_OK;
    }
    /* poses: layout 0 matrices [a b c d tx ty]; layout 1 decomposed [x y skX skY scX scY] */
    if (spn) {
        float sp[6];
        if (spn != 6u)
            return sinew__jfail_key(d->c, "slotPose", SINEW_E_LAYOUT, "'slotPose' must have 6 numbers (has %u)", spn);
        TRY(sinew__jfloats(d->c, spfirst, "slotPose", sp, 6));
        if (layout == 0) {
            sinew_affine m = {sp[0], sp[1], sp[2], sp[3], sp[4], sp[5]};
            M->slot_pose = m;
        } else {
            M->slot_pose = affine_from_decomposed(sp);
        }
    }
    if (bpn % 7u)
        return sinew__jfail_key(d->c, "bonePose", SINEW_E_LAYOUT, "'bonePose' length %u is not a multiple of 7", bpn);
    uint32_t np = bpn / 7u;
    M->bone_pose_count = np;
    ALLOC(M->bone_pose_bone, np);
    ALLOC(M->bone_pose, np);
    float *bp = scratch_array(d, bpn ? bpn : 1u, sizeof *bp);
    sinew_affine *inv = scratch_array(d, np ? np : 1u, sizeof *inv);
    sinew_affine *lin_of = scratch_array(d, np ? np : 1u, sizeof *lin_of);
    if (!bp || !inv || !lin_of)
        return SINEW_E_NOMEM;
    TRY(sinew__jfloats(d->c, bpfirst, "bonePose", bp, bpn));
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
            sinew_affine m = {bp[7u * p + 1u], bp[7u * p + 2u], bp[7u * p + 3u],
                              bp[7u * p + 4u], bp[7u * p + 5u], bp[7u * p + 6u]};
            M->bone_pose[p] = m;
        } else {
            M->bone_pose[p] = affine_from_decomposed(&bp[7u * p + 1u]);
        }
        if (!affine_invert(M->bone_pose[p], &inv[p])) {
            sinew__jpush_key(d->c, "bonePose");
            sinew__jpush_index(d->c, 7u * p + 1u);
            return sinew__jfail(d->c, SINEW_E_RANGE, "bonePose of bone '%s' is not invertible", d->arm->bones[mb].name);
        }
        pob[mb] = p;
    }
    sinew_affine S = M->slot_pose;
    for (uint32_t p = 0; p < np; p++) /* per pose: inverse(bonePose) . slotPose, its linear part the deform map */
        lin_of[p] = affine_mul(inv[p], S);
    for (uint32_t v = 0; v < vcount; v++) {
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

/* ---- skins and displays ------------------------------------------------------------------ */

static const char *const skin_keys[] = {"name", "slot", "userData"};
static const sinew_jkeys skin_table = SINEW_JKEYS(skin_keys, "skin");
static const char *const skin_slot_keys[] = {"name", "display", "blendMode", "color", "displayIndex"};
static const sinew_jkeys skin_slot_table = SINEW_JKEYS(skin_slot_keys, "skin slot");
static const char *const pivot_keys[] = {"x", "y"};
static const sinew_jkeys pivot_table = SINEW_JKEYS(pivot_keys, "pivot");

/* A shared mesh's geometry: the mesh the official parser wrote first (see SHARE), unweighted. */
static void share_geometry(db *d, sinew_model_mesh *M) {
    M->vertex_count = d->first_mesh->vertex_count;
    M->vertices = d->first_mesh->vertices;
    M->uvs = d->first_mesh->uvs;
    M->triangle_count = d->first_mesh->triangle_count;
    M->triangles = d->first_mesh->triangles;
}

/* The display the official parser's first int array write comes from, among this armature's
 * skins in file order: the first mesh that is not shared, or a path (NULL and FIRST_OTHER), or
 * none (NULL). */
static void find_first_int(db *d, const cJSON *first) {
    for (const cJSON *s = first; s; s = s->next) {
        const cJSON *slots = cJSON_IsObject(s) ? cJSON_GetObjectItemCaseSensitive(s, "slot") : NULL;
        for (const cJSON *ss = cJSON_IsArray(slots) ? slots->child : NULL; ss; ss = ss->next) {
            const cJSON *ds = cJSON_IsObject(ss) ? cJSON_GetObjectItemCaseSensitive(ss, "display") : NULL;
            for (const cJSON *dd = cJSON_IsArray(ds) ? ds->child : NULL; dd; dd = dd->next) {
                const cJSON *t = cJSON_IsObject(dd) ? cJSON_GetObjectItemCaseSensitive(dd, "type") : NULL;
                bool mesh = (cJSON_IsString(t) && strcmp(t->valuestring, "mesh") == 0) ||
                            (cJSON_IsNumber(t) && t->valuedouble == 2.0);
                bool path = (cJSON_IsString(t) && strcmp(t->valuestring, "path") == 0) ||
                            (cJSON_IsNumber(t) && t->valuedouble == 4.0);
                if (mesh && !cJSON_GetObjectItemCaseSensitive(dd, "share")) {
                    d->first_node = dd;
                    return;
                }
                if (path) {
                    d->first_int = FIRST_OTHER;
                    return;
                }
            }
        }
    }
}

/* ---- path geometry ---------------------------------------------------------------------------- */

/* A PATH display: `vertexCount` points (three per anchor), `vertices` (2 per point, or 2 per
 * influence in bone space when `weights` are given, with `bones` listing the file bones the
 * weights name), `lengths` (the editor's cumulative curve lengths, which the official runtime
 * reads without `constantSpeed`; its parser fails without the key). */
static sinew_status build_path(db *d, const cJSON *const *f, sinew_model_path *P) {
    memset(P, 0, sizeof *P);
    TRY(sinew__jbool(d->c, f[D_CLOSED], "closed", false, &P->closed));
    TRY(sinew__jbool(d->c, f[D_CONSTANTSPEED], "constantSpeed", false, &P->constant_speed));
    int64_t vc;
    /* the official int array is 16-bit */
    TRY(sinew__jint(d->c, f[D_VERTEXCOUNT], "vertexCount", 0, 0, 32767, &vc));
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
    /* weighted: [count, file bone, weight, ...] per point; the bone must be one of `bones` */
    P->weighted = true;
    P->bone_count = bn;
    ALLOC(P->bones, bn);
    uint32_t *file_bone = scratch_array(d, bn, sizeof *file_bone);
    float *w = scratch_array(d, wn, sizeof *w);
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

static sinew_status build_display(db *d, const cJSON *v, sinew_model_display *D, uint32_t slot) {
    sinew_model_armature *A = d->arm;
    D->armature = SINEW_INVALID_INDEX;
    D->mesh = SINEW_INVALID_INDEX;
    D->path_data = SINEW_INVALID_INDEX;
    D->pivot_x = D->pivot_y = 0.5f;
    D->transform.scale_x = D->transform.scale_y = 1.0f;
    if (cJSON_IsNull(v)) { /* an empty entry: nothing is drawn */
        D->type = SINEW_DISPLAY_IMAGE;
        TRY(dup_str(d, "", &D->name));
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
        TRY(sinew__jint(d->c, f[D_TYPE], "type", 0, 0, 4, &t));
        static const sinew_display_type map[] = {SINEW_DISPLAY_IMAGE, SINEW_DISPLAY_ARMATURE, SINEW_DISPLAY_MESH,
                                                 SINEW_DISPLAY_BOUNDING_BOX, SINEW_DISPLAY_PATH};
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
        else
            sinew__jwarn(d->c, "type", SINEW_E_UNSUPPORTED, "unknown display type '%s' (treated as an image)", type);
    }
    TRY(dup_str(d, name, &D->name));
    if (path[0])
        TRY(dup_str(d, path, &D->path));
    else
        D->path = D->name;
    TRY(parse_transform(d, f[D_TRANSFORM], &D->transform, true));
    if (f[D_PIVOT] && !cJSON_IsNull(f[D_PIVOT])) {
        const cJSON *p[2];
        sinew__jpush_key(d->c, "pivot");
        TRY(sinew__jfields(d->c, f[D_PIVOT], &pivot_table, p));
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
        TRY(parse_actions(d, f[D_ACTIONS], "actions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, slot));
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
                share_geometry(d, M);
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
    case SINEW_DISPLAY_IMAGE:
        break;
    }
    return SINEW_OK;
}

static sinew_status build_skins(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "skin", &first, &n));
    /* count skin slots, displays and meshes */
    uint64_t nss = 0, nd = 0, nm = 0, np = 0;
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
    TRY(nm_init(d, &d->skins, n));
    if (d->first_int == FIRST_NONE)
        find_first_int(d, first);
    d->share_wait = scratch_array(d, nm, sizeof *d->share_wait);
    d->share_wait_count = 0;
    if (!d->share_wait)
        return SINEW_E_NOMEM;
    d->slot_display_max = scratch_array(d, A->slot_count, sizeof *d->slot_display_max);
    d->pose_of_bone = scratch_array(d, A->bone_count, sizeof *d->pose_of_bone);
    uint8_t *seen = scratch_array(d, A->slot_count, 1);
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
            TRY(sinew__jfields(d->c, s, &skin_table, f));
            const char *name;
            TRY(sinew__jstr(d->c, f[0], "name", "", &name));
            TRY(dup_str(d, name, &K->name));
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
                TRY(sinew__jfields(d->c, ss, &skin_slot_table, g));
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
        share_geometry(d, d->share_wait[k]);
    d->share_wait_count = 0;
    return SINEW_OK;
}

/* displayIndex must be -1 or name an existing display (0 is allowed for a slot without any). */
static bool display_index_ok(db *d, uint32_t slot, double di) {
    uint32_t max = d->slot_display_max ? d->slot_display_max[slot] : 0;
    return di >= -1.0 && (di < (double)max || (max == 0 && di == 0.0));
}

/* ---- IK ---------------------------------------------------------------------------------------- */

static const char *const ik_keys[] = {"name", "bone", "target", "bendPositive", "chain", "weight", "scale"};
static const sinew_jkeys ik_table = SINEW_JKEYS(ik_keys, "ik");

static sinew_status build_iks(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "ik", &first, &n));
    A->ik_count = n;
    ALLOC(A->iks, n);
    TRY(nm_init(d, &d->iks, n));
    sinew__jpush_key(d->c, "ik");
    uint32_t i = 0, kept = 0;
    for (const cJSON *v = first; v; v = v->next, i++) {
        const cJSON *f[7];
        sinew_model_ik *K = &A->iks[kept];
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, v, &ik_table, f));
        const char *name, *bone, *target;
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        if (!f[1] || !f[2]) {
            /* Real 4.5 exports contain constraints without a bone or target key; the official
             * parser drops them (it builds no constraint when either bone is missing). */
            sinew__jwarn(d->c, NULL, SINEW_E_MISSING, "IK constraint '%s' has no %s (ignored, as the official runtime does)",
                         name, f[1] ? "target" : "bone");
            sinew__jpop(d->c);
            continue;
        }
        TRY(dup_str(d, name, &K->name));
        TRY(sinew__jstr(d->c, f[1], "bone", "", &bone));
        TRY(sinew__jstr(d->c, f[2], "target", "", &target));
        K->bone = sinew__namemap_get(&d->bones, bone);
        if (K->bone == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "bone", SINEW_E_REFERENCE, "IK constraint '%s': bone '%s' does not exist", name, bone);
        K->target = sinew__namemap_get(&d->bones, target);
        if (K->target == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "target", SINEW_E_REFERENCE, "IK constraint '%s': target bone '%s' does not exist",
                                    name, target);
        TRY(sinew__jbool(d->c, f[3], "bendPositive", true, &K->bend_positive));
        int64_t chain;
        TRY(sinew__jint(d->c, f[4], "chain", 0, 0, 1000000, &chain));
        uint32_t parent = A->bones[K->bone].parent;
        if (chain > 0 && parent != SINEW_INVALID_INDEX) {
            K->chain = 1;
            K->root = parent;
        } else {
            K->chain = 0;
            K->root = K->bone;
        }
        TRY(sinew__jfloat(d->c, f[5], "weight", 1.0f, &K->weight));
        TRY(sinew__jbool(d->c, f[6], "scale", false, &K->scale));
        sinew__jpop(d->c);
        kept++;
    }
    sinew__jpop(d->c);
    A->ignored_ik_count = n - kept;
    A->ik_count = n = kept;
    /* IK names for timelines (first wins), then sort stably by root: the order they are solved */
    for (i = 1; i < n; i++) {
        sinew_model_ik k = A->iks[i];
        uint32_t j = i;
        while (j > 0 && A->iks[j - 1].root > k.root) {
            A->iks[j] = A->iks[j - 1];
            j--;
        }
        A->iks[j] = k;
    }
    for (i = 0; i < n; i++)
        sinew__namemap_put(&d->iks, A->iks[i].name, i);
    return SINEW_OK;
}

/* ---- path constraints --------------------------------------------------------------------------- */

static const char *const pc_keys[] = {"name",       "target",  "targetDisplay", "bones",        "positionMode",
                                      "spacingMode", "rotateMode", "position",   "spacing",      "rotateOffset",
                                      "rotateMix",  "translateMix"};
static const sinew_jkeys pc_table = SINEW_JKEYS(pc_keys, "path constraint");

/* A mode name, compared case-insensitively as officially; an unknown one (or none) gives the
 * official default, with a warning for an unknown one. */
static sinew_status path_mode(db *d, const cJSON *v, const char *key, const char *const *names, uint32_t count,
                              uint8_t def, uint8_t *out) {
    const char *str;
    TRY(sinew__jstr(d->c, v, key, "", &str));
    *out = def;
    for (uint32_t i = 0; i < count; i++) {
        const char *a = str, *b = names[i];
        while (*a && *b && (*a >= 'A' && *a <= 'Z' ? *a + 32 : *a) == *b)
            a++, b++;
        if (!*a && !*b) {
            *out = (uint8_t)i;
            return SINEW_OK;
        }
    }
    if (str[0])
        sinew__jwarn(d->c, key, SINEW_E_UNSUPPORTED, "unknown %s '%s' (using '%s', as the official runtime does)", key,
                     str, names[def]);
    return SINEW_OK;
}

static bool constraint_name_taken(const sinew_model_armature *A, const char *name) {
    for (uint32_t i = 0; i < A->ik_count; i++)
        if (strcmp(A->iks[i].name, name) == 0)
            return true;
    for (uint32_t i = 0; i < A->path_constraint_count; i++)
        if (strcmp(A->path_constraints[i].name, name) == 0)
            return true;
    return false;
}

/* The armature's `path` list. The official parser drops a constraint whose slot, default-skin
 * display (a path) or every bone is missing, and one whose name an earlier constraint (IK or
 * path) already has; sinew drops the same ones with a warning. Bones it does not find are
 * skipped, as officially. */
static sinew_status build_path_constraints(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "path", &first, &n));
    ALLOC(A->path_constraints, n);
    A->path_constraint_count = 0;
    uint32_t def_skin = SINEW_INVALID_INDEX;
    for (uint32_t k = 0; k < A->skin_count && def_skin == SINEW_INVALID_INDEX; k++)
        if (strcmp(A->skins[k].name, "") == 0 || strcmp(A->skins[k].name, "default") == 0)
            def_skin = k;
    if (def_skin == SINEW_INVALID_INDEX && A->skin_count > 0)
        def_skin = 0;
    static const char *const position_names[] = {"fixed", "percent"};
    static const char *const spacing_names[] = {"length", "fixed", "percent"};
    static const char *const rotate_names[] = {"tangent", "chain", "chainscale"};
    sinew__jpush_key(d->c, "path");
    uint32_t i = 0;
    for (const cJSON *v = first; v; v = v->next, i++) {
        const cJSON *f[12];
        sinew_model_path_constraint *C = &A->path_constraints[A->path_constraint_count];
        memset(C, 0, sizeof *C);
        sinew__jpush_index(d->c, i);
        TRY(sinew__jfields(d->c, v, &pc_table, f));
        const char *name, *target, *tdisp;
        TRY(sinew__jstr(d->c, f[0], "name", "", &name));
        TRY(sinew__jstr(d->c, f[1], "target", "", &target));
        C->slot = sinew__namemap_get(&d->slots, target);
        if (C->slot == SINEW_INVALID_INDEX || def_skin == SINEW_INVALID_INDEX) {
            sinew__jwarn(d->c, f[1] ? "target" : NULL, SINEW_E_REFERENCE,
                         "path constraint '%s': %s (ignored, as the official runtime does)", name,
                         C->slot == SINEW_INVALID_INDEX ? "no such target slot" : "the armature has no skin");
            sinew__jpop(d->c);
            continue;
        }
        TRY(sinew__jstr(d->c, f[2], "targetDisplay", target, &tdisp));
        C->display = SINEW_INVALID_INDEX;
        const sinew_model_skin *K = &A->skins[def_skin];
        for (uint32_t j = 0; j < K->slot_count && C->display == SINEW_INVALID_INDEX; j++) {
            const sinew_model_skin_slot *ss = &A->skin_slots[K->first_slot + j];
            if (ss->slot != C->slot)
                continue;
            for (uint32_t x = 0; x < ss->display_count; x++)
                if (strcmp(A->displays[ss->first_display + x].name, tdisp) == 0) {
                    C->display = ss->first_display + x;
                    break;
                }
        }
        if (C->display == SINEW_INVALID_INDEX || A->displays[C->display].type != SINEW_DISPLAY_PATH ||
            A->displays[C->display].path_data >= A->path_count) {
            sinew__jwarn(d->c, f[2] ? "targetDisplay" : "target", SINEW_E_REFERENCE,
                         "path constraint '%s': slot '%s' has no path display '%s' in the default skin (ignored, as "
                         "the official runtime does)",
                         name, target, tdisp);
            sinew__jpop(d->c);
            continue;
        }
        C->path = A->displays[C->display].path_data;
        const cJSON *bfirst;
        uint32_t bn;
        TRY(sinew__jarray(d->c, f[3], "bones", &bfirst, &bn));
        ALLOC(C->bones, bn);
        uint32_t b = 0;
        for (const cJSON *e = bfirst; e; e = e->next, b++) {
            const char *bone;
            sinew__jpush_key(d->c, "bones");
            sinew__jpush_index(d->c, b);
            sinew_status st = cJSON_IsString(e) ? SINEW_OK : sinew__jfail(d->c, SINEW_E_TYPE, "'bones'[%u] must be a bone name", b);
            sinew__jpop(d->c);
            sinew__jpop(d->c);
            TRY(st);
            bone = e->valuestring;
            uint32_t mb = sinew__namemap_get(&d->bones, bone);
            if (mb == SINEW_INVALID_INDEX) {
                sinew__jpush_key(d->c, "bones");
                sinew__jwarn(d->c, NULL, SINEW_E_REFERENCE,
                             "path constraint '%s': bone '%s' does not exist (skipped, as the official runtime does)",
                             name, bone);
                sinew__jpop(d->c);
                continue;
            }
            C->bones[C->bone_count++] = mb;
        }
        if (C->bone_count == 0 || constraint_name_taken(A, name)) {
            sinew__jwarn(d->c, NULL, SINEW_E_REFERENCE, "path constraint '%s': %s (ignored, as the official runtime does)",
                         name, C->bone_count == 0 ? "no bone to constrain" : "an earlier constraint has this name");
            sinew__jpop(d->c);
            continue;
        }
        C->root = C->bones[0];
        TRY(dup_str(d, name, &C->name));
        if (f[2])
            TRY(dup_str(d, tdisp, &C->target_display));
        TRY(path_mode(d, f[4], "positionMode", position_names, 2, SINEW_PATH_POSITION_PERCENT, &C->position_mode));
        TRY(path_mode(d, f[5], "spacingMode", spacing_names, 3, SINEW_PATH_SPACING_LENGTH, &C->spacing_mode));
        TRY(path_mode(d, f[6], "rotateMode", rotate_names, 3, SINEW_PATH_ROTATE_TANGENT, &C->rotate_mode));
        TRY(sinew__jnum(d->c, f[7], "position", 0.0, &C->position));
        TRY(sinew__jnum(d->c, f[8], "spacing", 0.0, &C->spacing));
        TRY(sinew__jnum(d->c, f[9], "rotateOffset", 0.0, &C->rotate_offset));
        TRY(sinew__jnum(d->c, f[10], "rotateMix", 1.0, &C->rotate_mix));
        TRY(sinew__jnum(d->c, f[11], "translateMix", 1.0, &C->translate_mix));
        A->path_constraint_count++;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    A->ignored_path_constraint_count = n - A->path_constraint_count;
    return SINEW_OK;
}

/* ---- animations ------------------------------------------------------------------------------ */

enum {
    F_DURATION, F_TWEEN, F_CURVE, F_TWEENROTATE, F_CLOCKWISE, F_TRANSFORM, F_X, F_Y, F_ROTATE, F_SKEW,
    F_VALUE, F_DISPLAYINDEX, F_COLOR, F_OFFSET, F_VERTICES, F_WEIGHT, F_BENDPOSITIVE, F_ZORDER, F_Z,
    F_HIDE, F_VISIBLE, F_EVENT, F_SOUND, F_ACTION, F_ACTIONS, F_EVENTS, F_COUNT
};
static const char *const frame_keys[F_COUNT] = {
    "duration", "tweenEasing", "curve", "tweenRotate", "clockwise", "transform", "x", "y", "rotate", "skew",
    "value", "displayIndex", "color", "offset", "vertices", "weight", "bendPositive", "zOrder", "z",
    "hide", "visible", "event", "sound", "action", "actions", "events"};
static const sinew_jkeys frame_table = SINEW_JKEYS(frame_keys, "frame");

#define FB(x) (1u << (x))
#define F_COMMON (FB(F_DURATION) | FB(F_TWEEN) | FB(F_CURVE))
#define F_ACTS (FB(F_EVENT) | FB(F_SOUND) | FB(F_ACTION) | FB(F_ACTIONS) | FB(F_EVENTS))

typedef enum frame_kind {
    FK_ANIM, FK_BONE_ALL, FK_TRANSLATE, FK_ROTATE, FK_SCALE, FK_SLOT_DISPLAY, FK_SLOT_COLOR, FK_DISPLAY,
    FK_COLOR, FK_FFD, FK_IK, FK_ZORDER, FK_SURFACE
} frame_kind;

static const uint32_t frame_allowed[] = {
    [FK_ANIM] = F_COMMON | F_ACTS,
    [FK_BONE_ALL] = F_COMMON | FB(F_TWEENROTATE) | FB(F_TRANSFORM) | F_ACTS | FB(F_DISPLAYINDEX) | FB(F_Z),
    [FK_TRANSLATE] = F_COMMON | FB(F_X) | FB(F_Y),
    [FK_ROTATE] = F_COMMON | FB(F_ROTATE) | FB(F_SKEW) | FB(F_CLOCKWISE) | FB(F_TWEENROTATE),
    [FK_SCALE] = F_COMMON | FB(F_X) | FB(F_Y),
    [FK_SLOT_DISPLAY] = F_COMMON | FB(F_DISPLAYINDEX) | FB(F_COLOR) | FB(F_ZORDER) | FB(F_Z) | FB(F_HIDE) |
                        FB(F_VISIBLE) | F_ACTS,
    [FK_SLOT_COLOR] = F_COMMON | FB(F_DISPLAYINDEX) | FB(F_COLOR) | FB(F_ZORDER) | FB(F_Z) | FB(F_HIDE) |
                      FB(F_VISIBLE) | F_ACTS,
    [FK_DISPLAY] = F_COMMON | FB(F_VALUE) | FB(F_DISPLAYINDEX) | F_ACTS,
    [FK_COLOR] = F_COMMON | FB(F_VALUE) | FB(F_COLOR),
    [FK_FFD] = F_COMMON | FB(F_OFFSET) | FB(F_VERTICES),
    [FK_IK] = F_COMMON | FB(F_WEIGHT) | FB(F_BENDPOSITIVE),
    [FK_ZORDER] = F_COMMON | FB(F_ZORDER),
    [FK_SURFACE] = F_COMMON | FB(F_OFFSET) | FB(F_VERTICES),
};

static sinew_status frame_fields(db *d, const cJSON *v, frame_kind kind, bool quiet, const cJSON **f) {
    sinew_log_fn saved = d->c->log;
    d->c->log = NULL; /* unknown-key warnings are produced below, per kind */
    sinew_status st = sinew__jfields(d->c, v, &frame_table, f);
    d->c->log = saved;
    TRY(st);
    for (uint32_t i = 0; i < F_COUNT; i++)
        if (f[i] && !(frame_allowed[kind] & FB(i)))
            f[i] = NULL;
    if (saved && !quiet) {
        for (const cJSON *m = v->child; m; m = m->next) {
            uint32_t i = 0;
            while (i < F_COUNT && (!m->string || strcmp(m->string, frame_keys[i]) != 0))
                i++;
            if (i == F_COUNT || !(frame_allowed[kind] & FB(i)))
                sinew__jwarn(d->c, m->string ? m->string : "", SINEW_OK, "unknown key '%s' in frame (ignored)",
                             m->string ? m->string : "");
        }
    }
    return SINEW_OK;
}

void sinew__tween_from_easing(double e, sinew_model_keyframe *k) {
    k->tween = SINEW_TWEEN_NONE;
    k->tween_easing = NAN;
    k->strength = 0.0f;
    if (isnan(e))
        return;
    k->tween_easing = (float)e;
    if (e == 0.0) {
        k->tween = SINEW_TWEEN_LINEAR;
    } else if (e < 0.0) {
        k->tween = SINEW_TWEEN_QUAD_IN;
        k->strength = (float)(round(-e * 100.0) / 100.0);
    } else if (e <= 1.0) {
        k->tween = SINEW_TWEEN_QUAD_OUT;
        k->strength = (float)(round(e * 100.0) / 100.0);
    } else {
        k->tween = SINEW_TWEEN_QUAD_IN_OUT;
        k->strength = (float)(round(e * 100.0 - 100.0) / 100.0);
    }
}

static sinew_status parse_tween(db *d, const cJSON *te, const cJSON *curve, sinew_model_keyframe *k) {
    sinew_model_animation *N = d->anim;
    double e;
    TRY(sinew__jnum(d->c, te, "tweenEasing", NAN, &e));
    sinew__tween_from_easing(cJSON_IsNumber(te) ? e : NAN, k);
    const cJSON *cf;
    uint32_t cn;
    TRY(sinew__jarray(d->c, curve, "curve", &cf, &cn));
    if (cn) {
        if (cn < 4u || (cn - 4u) % 6u != 0)
            return sinew__jfail_key(d->c, "curve", SINEW_E_LAYOUT,
                                    "'curve' must have 4 + 6k numbers ([x1, y1, x2, y2, ...]); it has %u", cn);
        if (d->curves_used + cn > N->curve_count)
            return sinew__jfail_key(d->c, "curve", SINEW_E_LAYOUT, "internal: curve pool overflow");
        TRY(sinew__jfloats(d->c, cf, "curve", N->curves + d->curves_used, cn));
        k->tween = SINEW_TWEEN_CURVE;
        k->curve_first = d->curves_used;
        k->curve_count = cn;
        d->curves_used += cn;
    }
    return SINEW_OK;
}

static uint64_t count_curves(const cJSON *frames) {
    uint64_t n = 0;
    for (const cJSON *f = frames->child; f; f = f->next) {
        const cJSON *c = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "curve") : NULL;
        if (cJSON_IsArray(c))
            n += (uint32_t)cJSON_GetArraySize(c);
    }
    return n;
}

typedef struct tl_spec {
    sinew_timeline_type type;
    frame_kind kind;
    uint32_t target, skin, display, mesh;
    uint32_t vpk;
    bool quiet;
} tl_spec;

/* zOrder frame -> draw order (slot indices back to front); `out` has slot_count entries. */
static sinew_status zorder_values(db *d, const cJSON *zo, float *out) {
    uint32_t n = d->arm->slot_count;
    const cJSON *first;
    uint32_t zn;
    TRY(sinew__jarray(d->c, zo, "zOrder", &first, &zn));
    for (uint32_t i = 0; i < n; i++)
        out[i] = (float)i;
    if (zn == 0)
        return SINEW_OK;
    if (zn % 2u)
        return sinew__jfail_key(d->c, "zOrder", SINEW_E_LAYOUT, "'zOrder' must hold [slot, offset] pairs (has %u numbers)", zn);
    int64_t *pairs = scratch_array(d, zn, sizeof *pairs);
    uint32_t *order = scratch_array(d, n ? n : 1u, sizeof *order);
    uint32_t *unchanged = scratch_array(d, n ? n : 1u, sizeof *unchanged);
    if (!pairs || !order || !unchanged)
        return SINEW_E_NOMEM;
    uint32_t i = 0;
    sinew__jpush_key(d->c, "zOrder");
    for (const cJSON *e = first; e; e = e->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(sinew__jint(d->c, e, NULL, 0, -2147483648.0, 2147483647.0, &pairs[i]));
        sinew__jpop(d->c);
    }
    for (i = 0; i < n; i++)
        order[i] = SINEW_INVALID_INDEX;
    uint32_t orig = 0, un = 0;
    for (i = 0; i < zn; i += 2u) {
        int64_t s = pairs[i], off = pairs[i + 1u];
        sinew__jpush_index(d->c, i);
        if (s < (int64_t)orig || s >= (int64_t)n)
            return sinew__jfail(d->c, SINEW_E_RANGE,
                                "zOrder slot index %lld is out of order or out of range (%u slots)", (long long)s, n);
        while (orig != (uint32_t)s)
            unchanged[un++] = orig++;
        int64_t pos = (int64_t)orig + off;
        /* Real exports (a 4.0 one among them) move slots past either end, or two slots onto one
         * place. The official parser then drops that move (or lets the later one win) and fills
         * the free places from the back with the unchanged slots, then with slot 0; do the same,
         * with a warning. */
        if (pos < 0 || pos >= (int64_t)n || order[pos] != SINEW_INVALID_INDEX)
            sinew__jwarn(d->c, NULL, SINEW_E_RANGE,
                         "zOrder moves slot %lld to position %lld, which is %s (handled as the official runtime does)",
                         (long long)s, (long long)pos, (pos < 0 || pos >= (int64_t)n) ? "out of range" : "already taken");
        if (pos >= 0 && pos < (int64_t)n)
            order[pos] = orig;
        orig++;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    while (orig < n)
        unchanged[un++] = orig++;
    for (i = n; i-- > 0;)
        out[i] = (float)(order[i] != SINEW_INVALID_INDEX ? order[i] : un > 0 ? unchanged[--un] : 0u);
    return SINEW_OK;
}

static sinew_status build_timeline(db *d, const cJSON *frames, const char *key, const tl_spec *sp,
                                   sinew_model_timeline *T) {
    sinew_model_animation *N = d->anim;
    sinew_model_armature *A = d->arm;
    uint32_t n = (uint32_t)cJSON_GetArraySize(frames);
    T->type = sp->type;
    T->target = sp->target;
    T->skin = sp->skin;
    T->display = sp->display;
    T->mesh = sp->mesh;
    T->values_per_key = sp->vpk;
    T->first_key = d->keys_used;
    T->key_count = n;
    if (d->keys_used + n > N->key_count)
        return sinew__jfail_key(d->c, key, SINEW_E_LAYOUT, "internal: key pool overflow");
    d->keys_used += n;
    size_t nvals;
    if (!sinew__mul_size(n, sp->vpk, &nvals))
        return sinew__jfail_key(d->c, key, SINEW_E_LIMIT, "timeline too large");
    ALLOC(T->values, nvals);
    double *rot_exact = NULL;
    if (sp->kind == FK_BONE_ALL || sp->kind == FK_ROTATE) {
        ALLOC(rot_exact, n);
        T->rotation_exact = rot_exact;
    }
    float pos = 0.0f;
    sinew__jpush_key(d->c, key);
    uint32_t i = 0;
    for (const cJSON *fr = frames->child; fr; fr = fr->next, i++) {
        sinew_model_keyframe *k = &N->keys[T->first_key + i];
        float *val = sp->vpk ? T->values + (size_t)i * sp->vpk : NULL; /* none: zOrder without slots */
        const cJSON *f[F_COUNT];
        sinew__jpush_index(d->c, i);
        TRY(frame_fields(d, fr, sp->kind, sp->quiet, f));
        double dur;
        TRY(sinew__jnum(d->c, f[F_DURATION], "duration", 1.0, &dur));
        if (dur < 0.0)
            return sinew__jfail_key(d->c, "duration", SINEW_E_RANGE, "'duration' must not be negative (%g)", dur);
        if ((double)pos + dur > (double)d->c->limits.max_animation_frames)
            return sinew__jfail_key(d->c, "duration", SINEW_E_LIMIT,
                                    "keyframes run past %u frames (limits.max_animation_frames)",
                                    d->c->limits.max_animation_frames);
        k->position = pos;
        k->duration = (float)dur;
        k->value = i * sp->vpk;
        k->hide = -1;
        k->first_action = 0;
        k->action_count = 0;
        if (sp->kind == FK_SLOT_DISPLAY || sp->kind == FK_DISPLAY || sp->kind == FK_ZORDER) {
            k->tween = SINEW_TWEEN_NONE;
            k->tween_easing = NAN;
            double te;
            TRY(sinew__jnum(d->c, f[F_TWEEN], "tweenEasing", NAN, &te));
            if (cJSON_IsNumber(f[F_TWEEN]))
                k->tween_easing = (float)te;
        } else {
            TRY(parse_tween(d, f[F_TWEEN], f[F_CURVE], k));
        }
        switch (sp->kind) {
        case FK_BONE_ALL: {
            sinew_transform t;
            double exact[6];
            TRY(parse_transform_d(d, f[F_TRANSFORM], &t, false, exact));
            rot_exact[i] = exact[2];
            val[0] = t.x;
            val[1] = t.y;
            val[2] = t.rotation;
            val[3] = t.skew;
            val[4] = t.scale_x;
            val[5] = t.scale_y;
            int64_t tr;
            TRY(sinew__jint(d->c, f[F_TWEENROTATE], "tweenRotate", 0, -1e6, 1e6, &tr));
            k->tween_rotate = (int32_t)tr;
            uint32_t first_pending = d->pending_count;
            TRY(frame_actions(d, pos, f[F_EVENT], f[F_SOUND], f[F_ACTION], f[F_EVENTS], f[F_ACTIONS], sp->target,
                              SINEW_INVALID_INDEX, NULL, (uint32_t)(T - d->arm->timelines), i));
            for (uint32_t q = first_pending; q < d->pending_count; q++)
                d->pending[q].action.from_bone_frame = 1;
            break;
        }
        case FK_TRANSLATE:
            TRY(sinew__jfloat(d->c, f[F_X], "x", 0.0f, &val[0]));
            TRY(sinew__jfloat(d->c, f[F_Y], "y", 0.0f, &val[1]));
            break;
        case FK_SCALE:
            TRY(sinew__jfloat(d->c, f[F_X], "x", 1.0f, &val[0]));
            TRY(sinew__jfloat(d->c, f[F_Y], "y", 1.0f, &val[1]));
            break;
        case FK_ROTATE: {
            double r, s;
            int64_t cw;
            TRY(sinew__jnum(d->c, f[F_ROTATE], "rotate", 0, &r));
            TRY(sinew__jnum(d->c, f[F_SKEW], "skew", 0, &s));
            rot_exact[i] = r * DEG2RAD; /* not normalised: the official rotateFrame parser takes it as is */
            val[0] = (float)rot_exact[i];
            val[1] = (float)(s * DEG2RAD);
            /* a rotateFrame's turns are `clockwise`; the official parser reads no `tweenRotate` here */
            TRY(sinew__jint(d->c, f[F_CLOCKWISE], "clockwise", 0, -1e6, 1e6, &cw));
            k->tween_rotate = (int32_t)cw;
            break;
        }
        case FK_SLOT_DISPLAY:
        case FK_DISPLAY: {
            int64_t di;
            const cJSON *dv = f[F_VALUE] ? f[F_VALUE] : f[F_DISPLAYINDEX];
            const char *dk = f[F_VALUE] ? "value" : "displayIndex";
            TRY(sinew__jint(d->c, dv, dk, 0, -1, 2147483647.0, &di));
            if (!display_index_ok(d, sp->target, (double)di))
                return sinew__jfail_key(d->c, dk, SINEW_E_RANGE, "display index %lld is out of range for slot '%s' (%u displays)",
                                        (long long)di, A->slots[sp->target].name, d->slot_display_max[sp->target]);
            val[0] = (float)di;
            if (sp->kind == FK_SLOT_DISPLAY) {
                bool hide;
                if (f[F_HIDE]) {
                    TRY(sinew__jbool(d->c, f[F_HIDE], "hide", false, &hide));
                    k->hide = hide ? 1 : 0;
                }
                const cJSON *zv = f[F_ZORDER] ? f[F_ZORDER] : f[F_Z];
                if (zv) {
                    int64_t z;
                    TRY(sinew__jint(d->c, zv, f[F_ZORDER] ? "zOrder" : "z", 0, -2147483648.0, 2147483647.0, &z));
                    k->has_z_order = true;
                    k->z_order = (int32_t)z;
                }
            }
            TRY(frame_actions(d, pos, f[F_EVENT], f[F_SOUND], f[F_ACTION], f[F_EVENTS], f[F_ACTIONS],
                              A->slots[sp->target].parent, sp->target, k, (uint32_t)(T - A->timelines), i));
            break;
        }
        case FK_SLOT_COLOR:
        case FK_COLOR: {
            sinew_color_transform col;
            const cJSON *cv = f[F_VALUE] ? f[F_VALUE] : f[F_COLOR];
            TRY(parse_color(d, cv, f[F_VALUE] ? "value" : "color", &col));
            val[0] = col.a_mul;
            val[1] = col.r_mul;
            val[2] = col.g_mul;
            val[3] = col.b_mul;
            val[4] = col.a_add;
            val[5] = col.r_add;
            val[6] = col.g_add;
            val[7] = col.b_add;
            break;
        }
        case FK_FFD: {
            int64_t off;
            const cJSON *vf;
            uint32_t vn;
            TRY(sinew__jint(d->c, f[F_OFFSET], "offset", 0, 0, 2147483647.0, &off));
            TRY(sinew__jarray(d->c, f[F_VERTICES], "vertices", &vf, &vn));
            if ((uint64_t)off + vn > sp->vpk)
                return sinew__jfail_key(d->c, "vertices", SINEW_E_LAYOUT,
                                        "ffd offset %lld + %u values does not fit the mesh (%u values)", (long long)off, vn,
                                        sp->vpk);
            TRY(sinew__jfloats(d->c, vf, "vertices", val + off, vn));
            break;
        }
        case FK_SURFACE: {
            /* the official parser places `vertices` at `offset` and drops what falls past the
               lattice (warned here) */
            int64_t off;
            const cJSON *vf;
            uint32_t vn;
            TRY(sinew__jint(d->c, f[F_OFFSET], "offset", 0, 0, 2147483647.0, &off));
            TRY(sinew__jarray(d->c, f[F_VERTICES], "vertices", &vf, &vn));
            uint32_t fit = (uint64_t)off >= sp->vpk ? 0u : (uint32_t)((uint64_t)off + vn > sp->vpk ? sp->vpk - off : vn);
            if (fit < vn)
                sinew__jwarn(d->c, "vertices", SINEW_E_LAYOUT,
                             "surface offset %lld + %u values runs past the lattice (%u values); the rest is ignored",
                             (long long)off, vn, sp->vpk);
            if (fit)
                TRY(sinew__jfloats(d->c, vf, "vertices", val + off, fit));
            break;
        }
        case FK_IK: {
            bool bp;
            TRY(sinew__jfloat(d->c, f[F_WEIGHT], "weight", 1.0f, &val[0]));
            TRY(sinew__jbool(d->c, f[F_BENDPOSITIVE], "bendPositive", true, &bp));
            val[1] = bp ? 1.0f : 0.0f;
            break;
        }
        case FK_ZORDER:
            TRY(zorder_values(d, f[F_ZORDER], val));
            break;
        case FK_ANIM:
            break;
        }
        pos += (float)dur;
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

enum { ANIM_KEY_COUNT = 18 };
static const char *const anim_keys[ANIM_KEY_COUNT] = {
    "name",   "duration", "playTimes", "fadeInTime", "scale",   "frame",    "bone", "slot",     "ffd",
    "ik",     "zOrder",   "userData",  "autoTween",  "tweenEasing", "surface", "timeline", "type", "blendType"};
static const sinew_jkeys anim_table = SINEW_JKEYS(anim_keys, "animation");
static const char *const bone_tl_keys[] = {"name", "scale", "offset", "frame", "translateFrame",
                                           "rotateFrame", "scaleFrame", "pX", "pY"};
static const sinew_jkeys bone_tl_table = SINEW_JKEYS(bone_tl_keys, "bone timeline");
static const char *const slot_tl_keys[] = {"name", "scale", "offset", "frame", "displayFrame", "colorFrame"};
static const sinew_jkeys slot_tl_table = SINEW_JKEYS(slot_tl_keys, "slot timeline");
static const char *const ffd_tl_keys[] = {"name", "skin", "slot", "displayIndex", "scale", "offset", "frame"};
static const sinew_jkeys ffd_tl_table = SINEW_JKEYS(ffd_tl_keys, "ffd timeline");
static const char *const surface_tl_keys[] = {"name", "scale", "offset", "frame"};
static const sinew_jkeys surface_tl_table = SINEW_JKEYS(surface_tl_keys, "surface timeline");
static const char *const ik_tl_keys[] = {"name", "scale", "offset", "frame"};
static const sinew_jkeys ik_tl_table = SINEW_JKEYS(ik_tl_keys, "ik timeline");
static const char *const zorder_keys[] = {"frame"};
static const sinew_jkeys zorder_table = SINEW_JKEYS(zorder_keys, "zOrder timeline");

static bool nonempty_array(const cJSON *v) {
    return cJSON_IsArray(v) && v->child;
}

static const cJSON *obj_get(const cJSON *o, const char *k) {
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* Counts the timelines, keys and curve numbers one animation will need. */
static void count_animation(const cJSON *an, uint32_t *tl, uint64_t *keys, uint64_t *curves) {
    *tl = 0;
    *keys = 0;
    *curves = 0;
    const cJSON *v;
#define COUNT_FRAMES(arr, with_curves)                        \
    do {                                                      \
        const cJSON *a_ = (arr);                              \
        if (nonempty_array(a_)) {                             \
            (*tl)++;                                          \
            *keys += (uint64_t)cJSON_GetArraySize(a_);        \
            if (with_curves)                                  \
                *curves += count_curves(a_);                       \
        }                                                     \
    } while (0)
    COUNT_FRAMES(obj_get(obj_get(an, "zOrder"), "frame"), 0);
    v = obj_get(an, "bone");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next) {
            COUNT_FRAMES(obj_get(t, "translateFrame"), 1);
            COUNT_FRAMES(obj_get(t, "rotateFrame"), 1);
            COUNT_FRAMES(obj_get(t, "scaleFrame"), 1);
            COUNT_FRAMES(obj_get(t, "frame"), 1);
        }
    v = obj_get(an, "slot");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next) {
            const cJSON *df = obj_get(t, "displayFrame"), *cf = obj_get(t, "colorFrame"), *fr = obj_get(t, "frame");
            COUNT_FRAMES(df ? df : fr, 0);
            COUNT_FRAMES(cf ? cf : fr, 1);
        }
    v = obj_get(an, "ffd");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(obj_get(t, "frame"), 1);
    v = obj_get(an, "surface");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(obj_get(t, "frame"), 1);
    v = obj_get(an, "ik");
    if (cJSON_IsArray(v))
        for (const cJSON *t = v->child; t; t = t->next)
            COUNT_FRAMES(obj_get(t, "frame"), 1);
#undef COUNT_FRAMES
}

static sinew_status tl_scale_offset(db *d, const cJSON *s, const cJSON *o, sinew_model_timeline *T) {
    TRY(sinew__jfloat(d->c, s, "scale", 1.0f, &T->scale));
    if (!(T->scale > 0.0f))
        return sinew__jfail_key(d->c, "scale", SINEW_E_RANGE, "timeline 'scale' must be positive (%g)", (double)T->scale);
    return sinew__jfloat(d->c, o, "offset", 0.0f, &T->offset);
}

/* Appends a timeline to the current animation: its scale and offset, then its keyframes (the
 * array `frames` under `key`). *out (optional) is the new timeline. */
static sinew_status add_timeline(db *d, const cJSON *scale, const cJSON *offset, const cJSON *frames, const char *key,
                                 const tl_spec *sp, sinew_model_timeline **out) {
    sinew_model_armature *A = d->arm;
    sinew_model_timeline *T = &A->timelines[A->timeline_count++];
    TRY(tl_scale_offset(d, scale, offset, T));
    TRY(build_timeline(d, frames, key, sp, T));
    if (out)
        *out = T;
    return SINEW_OK;
}

/* The bone, slot or IK constraint (`what`, from map `m`) that an animation's timeline names in its
 * "name" value `v`. */
static sinew_status timeline_target(db *d, const sinew_namemap *m, const cJSON *v, const char *anim, const char *what,
                                    uint32_t *out) {
    const char *n;
    TRY(sinew__jstr(d->c, v, "name", "", &n));
    *out = sinew__namemap_get(m, n);
    if (*out == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "animation '%s': %s '%s' does not exist", anim, what, n);
    return SINEW_OK;
}

/* Finds the mesh display an ffd timeline animates. */
static sinew_status ffd_target(db *d, const cJSON *const *f, tl_spec *sp) {
    sinew_model_armature *A = d->arm;
    const char *skin, *slot, *name;
    TRY(sinew__jstr(d->c, f[1], "skin", "", &skin));
    TRY(sinew__jstr(d->c, f[2], "slot", "", &slot));
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    bool by_index = !f[2];
    if (by_index) { /* DOC45 variant: name = slot, displayIndex selects the display */
        slot = name;
    }
    uint32_t k = sinew__namemap_get(&d->skins, skin);
    if (k == SINEW_INVALID_INDEX && strcmp(skin, "default") == 0)
        k = sinew__namemap_get(&d->skins, "");
    if (k == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, "skin", SINEW_E_REFERENCE, "ffd timeline: skin '%s' does not exist", skin);
    uint32_t s = sinew__namemap_get(&d->slots, slot);
    if (s == SINEW_INVALID_INDEX)
        return sinew__jfail_key(d->c, by_index ? "name" : "slot", SINEW_E_REFERENCE, "ffd timeline: slot '%s' does not exist",
                                slot);
    const sinew_model_skin *K = &A->skins[k];
    const sinew_model_skin_slot *KS = NULL;
    for (uint32_t i = 0; i < K->slot_count; i++)
        if (A->skin_slots[K->first_slot + i].slot == s)
            KS = &A->skin_slots[K->first_slot + i];
    if (!KS)
        return sinew__jfail_key(d->c, by_index ? "name" : "slot", SINEW_E_REFERENCE,
                                "ffd timeline: skin '%s' has no displays for slot '%s'", skin, slot);
    uint32_t di = SINEW_INVALID_INDEX;
    if (by_index) {
        int64_t x;
        TRY(sinew__jint(d->c, f[3], "displayIndex", 0, 0, 2147483647.0, &x));
        if ((uint64_t)x >= KS->display_count)
            return sinew__jfail_key(d->c, "displayIndex", SINEW_E_RANGE,
                                    "ffd timeline: display index %lld is out of range (slot '%s' has %u displays)",
                                    (long long)x, slot, KS->display_count);
        di = KS->first_display + (uint32_t)x;
    } else {
        for (uint32_t i = 0; i < KS->display_count && di == SINEW_INVALID_INDEX; i++)
            if (strcmp(A->displays[KS->first_display + i].name, name) == 0)
                di = KS->first_display + i;
        if (di == SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "ffd timeline: slot '%s' has no display '%s'", slot,
                                    name);
    }
    if (A->displays[di].type != SINEW_DISPLAY_MESH)
        return sinew__jfail_key(d->c, by_index ? "displayIndex" : "name", SINEW_E_REFERENCE,
                                "ffd timeline: display '%s' of slot '%s' is not a mesh", A->displays[di].name, slot);
    sp->target = s;
    sp->skin = k;
    sp->display = di;
    sp->mesh = A->displays[di].mesh;
    sp->vpk = 2u * A->meshes[sp->mesh].vertex_count;
    return SINEW_OK;
}

static int cmp_pending(const pending_action *a, const pending_action *b) {
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The animation's merge units (sinew_model_merge_unit) from d->merges; `final_of_seq` maps a
 * pending action's sequence number to its index in the armature's actions. */
static sinew_status finish_merges(db *d, const uint32_t *final_of_seq) {
    sinew_model_animation *N = d->anim;
    uint32_t n = d->merge_count, total = 0;
    d->merge_count = 0;
    if (n == 0)
        return SINEW_OK;
    for (uint32_t i = 0; i < n; ++i)
        total += d->merges[i].count;
    ALLOC(N->merge_units, n);
    if (total)
        ALLOC(N->merge_index, total);
    N->merge_unit_count = n;
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const merge_rec *m = &d->merges[i];
        sinew_model_merge_unit *u = &N->merge_units[i];
        u->source = m->source;
        u->position = m->pos;
        u->timeline = m->timeline;
        u->key = m->key;
        u->first = w;
        u->count = m->count;
        for (uint32_t k = 0; k < m->count; ++k)
            N->merge_index[w++] = m->source == 2 ? m->first + k : final_of_seq[m->first + k];
    }
    return SINEW_OK;
}

/* Sorts the pending actions by position (stable) and turns them into action frames. */
static sinew_status finish_action_frames(db *d) {
    sinew_model_animation *N = d->anim;
    uint32_t n = d->pending_count;
    if (n == 0)
        return finish_merges(d, NULL);
    pending_action *p = d->pending;
    /* insertion sort: nearly sorted in practice (frames come in time order per source) */
    for (uint32_t i = 1; i < n; i++) {
        pending_action x = p[i];
        uint32_t j = i;
        while (j > 0 && cmp_pending(&p[j - 1], &x) > 0) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
    uint32_t frames = 1;
    for (uint32_t i = 1; i < n; i++)
        if (p[i].pos != p[i - 1].pos)
            frames++;
    ALLOC(N->action_frames, frames);
    N->action_frame_count = frames;
    uint32_t *final_of_seq = scratch_array(d, n, sizeof *final_of_seq);
    if (!final_of_seq)
        return sinew__jfail(d->c, SINEW_E_NOMEM, "out of memory");
    uint32_t fi = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && p[i].pos != p[i - 1].pos)
            fi++;
        sinew_model_action_frame *F = &N->action_frames[fi];
        if (F->action_count == 0) {
            F->position = p[i].pos;
            F->first_action = d->action_count;
        }
        final_of_seq[p[i].seq] = d->action_count;
        TRY(push_action(d, &p[i].action));
        F->action_count++;
    }
    d->pending_count = 0;
    return finish_merges(d, final_of_seq);
}

static sinew_status build_animation(db *d, const cJSON *an, sinew_model_animation *N) {
    sinew_model_armature *A = d->arm;
    const cJSON *f[ANIM_KEY_COUNT];
    TRY(sinew__jfields(d->c, an, &anim_table, f));
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(dup_str(d, name, &N->name));
    double dur;
    TRY(sinew__jnum(d->c, f[1], "duration", 1.0, &dur));
    if (dur < 0.0)
        return sinew__jfail_key(d->c, "duration", SINEW_E_RANGE, "animation 'duration' must not be negative (%g)", dur);
    if (dur > (double)d->c->limits.max_animation_frames)
        return sinew__jfail_key(d->c, "duration", SINEW_E_LIMIT, "animation lasts %g frames, more than the limit of %u "
                                "(limits.max_animation_frames)", dur, d->c->limits.max_animation_frames);
    N->duration = (float)dur;
    int64_t pt;
    TRY(sinew__jint(d->c, f[2], "playTimes", 1, 0, 2147483647.0, &pt));
    N->play_times = (int32_t)pt;
    TRY(sinew__jnum(d->c, f[3], "fadeInTime", -1.0, &N->fade_in_time));
    TRY(sinew__jnum(d->c, f[4], "scale", 1.0, &N->scale));
    TRY(user_data(d, f[11], &N->user_data));
    N->auto_tween = -1;
    if (f[12]) {
        bool at;
        TRY(sinew__jbool(d->c, f[12], "autoTween", false, &at));
        N->auto_tween = at ? 1 : 0;
    }
    /* sizes */
    uint32_t ntl;
    uint64_t nkeys, ncurves;
    count_animation(an, &ntl, &nkeys, &ncurves);
    if (nkeys > UINT32_MAX / 4 || ncurves > UINT32_MAX / 4)
        return sinew__jfail(d->c, SINEW_E_LIMIT, "animation '%s' has too many keyframes", name);
    N->key_count = (uint32_t)nkeys;
    N->curve_count = (uint32_t)ncurves;
    ALLOC(N->keys, nkeys);
    ALLOC(N->curves, ncurves);
    N->first_timeline = A->timeline_count;
    d->anim = N;
    d->keys_used = 0;
    d->curves_used = 0;
    d->pending_count = 0;

    /* animation frames: events, sounds, actions */
    {
        const cJSON *first;
        uint32_t n;
        TRY(sinew__jarray(d->c, f[5], "frame", &first, &n));
        float pos = 0.0f;
        uint32_t i = 0;
        sinew__jpush_key(d->c, "frame");
        for (const cJSON *fr = first; fr; fr = fr->next, i++) {
            const cJSON *g[F_COUNT];
            sinew__jpush_index(d->c, i);
            TRY(frame_fields(d, fr, FK_ANIM, false, g));
            double fd;
            TRY(sinew__jnum(d->c, g[F_DURATION], "duration", 1.0, &fd));
            if (fd < 0.0)
                return sinew__jfail_key(d->c, "duration", SINEW_E_RANGE, "'duration' must not be negative (%g)", fd);
            if ((double)pos + fd > (double)d->c->limits.max_animation_frames)
                return sinew__jfail_key(d->c, "duration", SINEW_E_LIMIT,
                                        "frames run past %u frames (limits.max_animation_frames)",
                                        d->c->limits.max_animation_frames);
            TRY(frame_actions(d, pos, g[F_EVENT], g[F_SOUND], g[F_ACTION], g[F_EVENTS], g[F_ACTIONS], SINEW_INVALID_INDEX,
                              SINEW_INVALID_INDEX, NULL, SINEW_INVALID_INDEX, 0));
            pos += (float)fd;
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    /* zOrder */
    if (f[10] && !cJSON_IsNull(f[10])) {
        const cJSON *g[1];
        sinew__jpush_key(d->c, "zOrder");
        TRY(sinew__jfields(d->c, f[10], &zorder_table, g));
        const cJSON *first;
        uint32_t n;
        TRY(sinew__jarray(d->c, g[0], "frame", &first, &n));
        if (n) {
            tl_spec sp = {SINEW_TL_ZORDER, FK_ZORDER, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                          SINEW_INVALID_INDEX, A->slot_count, false};
            sinew_model_timeline *T = &A->timelines[A->timeline_count++];
            T->scale = 1.0f;
            TRY(build_timeline(d, g[0], "frame", &sp, T));
        }
        sinew__jpop(d->c);
    }
    /* bone timelines */
    {
        const cJSON *first;
        uint32_t n, i = 0;
        TRY(sinew__jarray(d->c, f[6], "bone", &first, &n));
        sinew__jpush_key(d->c, "bone");
        for (const cJSON *t = first; t; t = t->next, i++) {
            const cJSON *g[9];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, t, &bone_tl_table, g));
            uint32_t b;
            TRY(timeline_target(d, &d->bones, g[0], name, "bone", &b));
            static const char *const keys[] = {"translateFrame", "rotateFrame", "scaleFrame", "frame"};
            static const sinew_timeline_type types[] = {SINEW_TL_BONE_TRANSLATE, SINEW_TL_BONE_ROTATE,
                                                        SINEW_TL_BONE_SCALE, SINEW_TL_BONE_ALL};
            static const frame_kind kinds[] = {FK_TRANSLATE, FK_ROTATE, FK_SCALE, FK_BONE_ALL};
            static const uint32_t vpk[] = {2, 2, 2, 6};
            float px, py;
            TRY(sinew__jfloat(d->c, g[7], "pX", 0.0f, &px));
            TRY(sinew__jfloat(d->c, g[8], "pY", 0.0f, &py));
            for (int j = 0; j < 4; j++) {
                const cJSON *fr = j < 3 ? g[4 + j] : g[3];
                const cJSON *ff;
                uint32_t fn;
                TRY(sinew__jarray(d->c, fr, keys[j], &ff, &fn));
                if (!fn)
                    continue;
                tl_spec sp = {types[j], kinds[j], b, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                              vpk[j], false};
                sinew_model_timeline *T;
                TRY(add_timeline(d, g[1], g[2], fr, keys[j], &sp, &T));
                T->pivot_x = px;
                T->pivot_y = py;
            }
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    /* surface timelines (5.5) */
    {
        const cJSON *first;
        uint32_t n, i = 0;
        TRY(sinew__jarray(d->c, f[14], "surface", &first, &n));
        sinew__jpush_key(d->c, "surface");
        for (const cJSON *t = first; t; t = t->next, i++) {
            const cJSON *g[4];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, t, &surface_tl_table, g));
            uint32_t b;
            TRY(timeline_target(d, &d->bones, g[0], name, "surface", &b));
            if (!A->bones[b].is_surface)
                return sinew__jfail_key(d->c, "name", SINEW_E_REFERENCE, "animation '%s': bone '%s' is not a surface", name,
                                        A->bones[b].name);
            const cJSON *ff;
            uint32_t fn;
            TRY(sinew__jarray(d->c, g[3], "frame", &ff, &fn));
            if (fn) {
                tl_spec sp = {SINEW_TL_SURFACE, FK_SURFACE, b, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX,
                              SINEW_INVALID_INDEX, A->bones[b].surface_value_count, false};
                TRY(add_timeline(d, g[1], g[2], g[3], "frame", &sp, NULL));
            }
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    /* The 5.6 generic `timeline` arrays, animation `type` and `blendType`: the official runtime
     * (DragonBonesJS 5.7 as published, the reference) reads none of them, so they are not played
     * (docs/loader.md). */
    if (f[15] && !cJSON_IsNull(f[15])) {
        const cJSON *tf;
        uint32_t tn;
        TRY(sinew__jarray(d->c, f[15], "timeline", &tf, &tn));
        if (tn && !d->warned_generic) {
            d->warned_generic = true;
            sinew__jwarn(d->c, "timeline", SINEW_OK,
                         "5.6 generic 'timeline' arrays are not played, as the official runtime does not read them "
                         "(reported once per file)");
        }
    }
    {
        const char *ignored;
        TRY(sinew__jstr(d->c, f[16], "type", "", &ignored));
        TRY(sinew__jstr(d->c, f[17], "blendType", "", &ignored));
    }
    /* slot timelines */
    {
        const cJSON *first;
        uint32_t n, i = 0;
        TRY(sinew__jarray(d->c, f[7], "slot", &first, &n));
        sinew__jpush_key(d->c, "slot");
        for (const cJSON *t = first; t; t = t->next, i++) {
            const cJSON *g[6];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, t, &slot_tl_table, g));
            uint32_t s;
            TRY(timeline_target(d, &d->slots, g[0], name, "slot", &s));
            const cJSON *ff;
            uint32_t fn;
            /* display */
            const cJSON *dfr = g[4] ? g[4] : g[3];
            const char *dk = g[4] ? "displayFrame" : "frame";
            TRY(sinew__jarray(d->c, dfr, dk, &ff, &fn));
            if (fn) {
                tl_spec sp = {SINEW_TL_SLOT_DISPLAY, g[4] ? FK_DISPLAY : FK_SLOT_DISPLAY, s, SINEW_INVALID_INDEX,
                              SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 1, false};
                TRY(add_timeline(d, g[1], g[2], dfr, dk, &sp, NULL));
            }
            const cJSON *cfr = g[5] ? g[5] : g[3];
            const char *ck = g[5] ? "colorFrame" : "frame";
            TRY(sinew__jarray(d->c, cfr, ck, &ff, &fn));
            if (fn) {
                tl_spec sp = {SINEW_TL_SLOT_COLOR, g[5] ? FK_COLOR : FK_SLOT_COLOR, s, SINEW_INVALID_INDEX,
                              SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 8, !g[5]};
                TRY(add_timeline(d, g[1], g[2], cfr, ck, &sp, NULL));
            }
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    /* ffd timelines */
    {
        const cJSON *first;
        uint32_t n, i = 0;
        TRY(sinew__jarray(d->c, f[8], "ffd", &first, &n));
        sinew__jpush_key(d->c, "ffd");
        for (const cJSON *t = first; t; t = t->next, i++) {
            const cJSON *g[7];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, t, &ffd_tl_table, g));
            const cJSON *ff;
            uint32_t fn;
            TRY(sinew__jarray(d->c, g[6], "frame", &ff, &fn));
            tl_spec sp = {SINEW_TL_FFD, FK_FFD, 0, 0, 0, 0, 0, false};
            TRY(ffd_target(d, g, &sp));
            if (fn)
                TRY(add_timeline(d, g[4], g[5], g[6], "frame", &sp, NULL));
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    /* IK timelines */
    {
        const cJSON *first;
        uint32_t n, i = 0;
        TRY(sinew__jarray(d->c, f[9], "ik", &first, &n));
        sinew__jpush_key(d->c, "ik");
        for (const cJSON *t = first; t; t = t->next, i++) {
            const cJSON *g[4];
            sinew__jpush_index(d->c, i);
            TRY(sinew__jfields(d->c, t, &ik_tl_table, g));
            uint32_t k;
            TRY(timeline_target(d, &d->iks, g[0], name, "IK constraint", &k));
            const cJSON *ff;
            uint32_t fn;
            TRY(sinew__jarray(d->c, g[3], "frame", &ff, &fn));
            if (fn) {
                tl_spec sp = {SINEW_TL_IK, FK_IK, k, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX, 2, false};
                TRY(add_timeline(d, g[1], g[2], g[3], "frame", &sp, NULL));
            }
            sinew__jpop(d->c);
        }
        sinew__jpop(d->c);
    }
    N->timeline_count = A->timeline_count - N->first_timeline;
    N->key_count = d->keys_used;
    N->curve_count = d->curves_used;
    TRY(finish_action_frames(d));
    d->anim = NULL;
    return SINEW_OK;
}

static sinew_status build_animations(db *d, const cJSON *arr) {
    sinew_model_armature *A = d->arm;
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, arr, "animation", &first, &n));
    A->animation_count = n;
    ALLOC(A->animations, n);
    uint64_t total = 0;
    for (const cJSON *an = first; an; an = an->next) {
        uint32_t t;
        uint64_t k, c;
        count_animation(an, &t, &k, &c);
        total += t;
    }
    if (total > UINT32_MAX / 4)
        return sinew__jfail_key(d->c, "animation", SINEW_E_LIMIT, "too many timelines");
    ALLOC(A->timelines, total);
    A->timeline_count = 0;
    sinew_namemap names;
    TRY(nm_init(d, &names, n));
    sinew__jpush_key(d->c, "animation");
    uint32_t i = 0;
    for (const cJSON *an = first; an; an = an->next, i++) {
        sinew__jpush_index(d->c, i);
        TRY(build_animation(d, an, &A->animations[i]));
        if (sinew__namemap_put(&names, A->animations[i].name, i) != SINEW_INVALID_INDEX)
            return sinew__jfail_key(d->c, "name", SINEW_E_DUPLICATE, "animation '%s' is defined twice",
                                    A->animations[i].name);
        sinew__jpop(d->c);
    }
    sinew__jpop(d->c);
    return SINEW_OK;
}

/* ---- isGlobal: absolute -> local ----------------------------------------------------------- */

static sinew_affine transform_matrix(const sinew_transform *t) {
    sinew_affine m;
    double r = t->rotation, s = (double)t->rotation + t->skew;
    m.a = (float)(cos(r) * t->scale_x);
    m.b = (float)(sin(r) * t->scale_x);
    m.c = (float)(-sin(s) * t->scale_y);
    m.d = (float)(cos(s) * t->scale_y);
    m.tx = t->x;
    m.ty = t->y;
    return m;
}

/* Global transform of bone `b` in animation `N` at frame `t` as the file writes it (absolute
 * keyframes; the setup transform where the bone has no BONE_ALL timeline). Linear between keys. */
static sinew_transform global_at(const sinew_model_armature *A, const sinew_model_animation *N,
                                 const sinew_transform *setup_global, uint32_t b, float t) {
    sinew_transform g = setup_global[b];
    for (uint32_t i = 0; N && i < N->timeline_count; i++) {
        const sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
        if (T->type != SINEW_TL_BONE_ALL || T->target != b || T->key_count == 0)
            continue;
        const sinew_model_keyframe *K = &N->keys[T->first_key];
        uint32_t k = 0;
        while (k + 1 < T->key_count && K[k + 1].position <= t)
            k++;
        const float *v0 = T->values + (size_t)k * 6u;
        float p = 0.0f;
        const float *v1 = v0;
        if (k + 1 < T->key_count && K[k].tween != SINEW_TWEEN_NONE && K[k + 1].position > K[k].position) {
            v1 = T->values + (size_t)(k + 1) * 6u;
            p = (t - K[k].position) / (K[k + 1].position - K[k].position);
        }
        g.x = v0[0] + (v1[0] - v0[0]) * p;
        g.y = v0[1] + (v1[1] - v0[1]) * p;
        g.rotation = v0[2] + (float)normalize_rad(v1[2] - v0[2]) * p;
        g.skew = v0[3] + (v1[3] - v0[3]) * p;
        g.scale_x = v0[4] + (v1[4] - v0[4]) * p;
        g.scale_y = v0[5] + (v1[5] - v0[5]) * p;
        break;
    }
    return g;
}

/* Global transform -> local relative to a parent global transform (position through the inverse
 * parent matrix, rotation minus the parent rotation; skew and scale are kept). */
static void to_local(sinew_transform *t, const sinew_transform *parent) {
    sinew_affine inv;
    if (!affine_invert(transform_matrix(parent), &inv))
        return;
    float x = t->x, y = t->y;
    t->x = inv.a * x + inv.c * y + inv.tx;
    t->y = inv.b * x + inv.d * y + inv.ty;
    t->rotation = (float)normalize_rad((double)t->rotation - parent->rotation);
}

static sinew_status convert_global(db *d) {
    sinew_model_armature *A = d->arm;
    uint32_t nb = A->bone_count;
    sinew_transform *g = scratch_array(d, nb ? nb : 1u, sizeof *g);
    if (!g)
        return SINEW_E_NOMEM;
    for (uint32_t b = 0; b < nb; b++)
        g[b] = A->bones[b].setup;
    /* setup pose: every bone against its parent's (global) setup */
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t p = A->bones[b].parent;
        if (p != SINEW_INVALID_INDEX)
            to_local(&A->bones[b].setup, &g[p]);
        A->bones[b].has_setup_d = false; /* converted: the runtime widens `setup` */
    }
    /* keyframes: against the parent's global pose at that time, then relative to the local setup.
     * Work on copies so every parent is still global while its children are converted. */
    for (uint32_t ai = 0; ai < A->animation_count; ai++) {
        sinew_model_animation *N = &A->animations[ai];
        float **orig = scratch_array(d, N->timeline_count ? N->timeline_count : 1u, sizeof *orig);
        if (!orig)
            return SINEW_E_NOMEM;
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            orig[i] = scratch_array(d, (size_t)T->key_count * 6u, sizeof(float));
            if (!orig[i])
                return SINEW_E_NOMEM;
            memcpy(orig[i], T->values, (size_t)T->key_count * 6u * sizeof(float));
        }
        /* global_at reads T->values: point them at the originals while converting */
        float **conv = scratch_array(d, N->timeline_count ? N->timeline_count : 1u, sizeof *conv);
        if (!conv)
            return SINEW_E_NOMEM;
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            conv[i] = T->values;
            T->values = orig[i];
        }
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type != SINEW_TL_BONE_ALL)
                continue;
            const sinew_model_bone *B = &A->bones[T->target];
            for (uint32_t k = 0; k < T->key_count; k++) {
                const float *v = orig[i] + (size_t)k * 6u;
                sinew_transform t = {v[0], v[1], v[2], v[3], v[4], v[5]};
                if (B->parent != SINEW_INVALID_INDEX) {
                    sinew_transform pg = global_at(A, N, g, B->parent, N->keys[T->first_key + k].position);
                    to_local(&t, &pg);
                }
                float *o = conv[i] + (size_t)k * 6u;
                o[0] = t.x - B->setup.x;
                o[1] = t.y - B->setup.y;
                o[2] = (float)normalize_rad((double)t.rotation - B->setup.rotation);
                o[3] = t.skew - B->setup.skew;
                o[4] = B->setup.scale_x != 0.0f ? t.scale_x / B->setup.scale_x : 1.0f;
                o[5] = B->setup.scale_y != 0.0f ? t.scale_y / B->setup.scale_y : 1.0f;
            }
        }
        for (uint32_t i = 0; i < N->timeline_count; i++) {
            sinew_model_timeline *T = &A->timelines[N->first_timeline + i];
            if (T->type == SINEW_TL_BONE_ALL)
                T->values = conv[i];
        }
    }
    return SINEW_OK;
}

/* ---- armatures and the file ------------------------------------------------------------------ */

static const char *const armature_keys[] = {"name", "type",  "frameRate", "userData", "defaultActions", "bone",
                                            "slot", "skin",  "ik",        "animation", "aabb",           "canvas",
                                            "actions", "path"};
static const sinew_jkeys armature_table = SINEW_JKEYS(armature_keys, "armature");
static const char *const aabb_keys[] = {"x", "y", "width", "height"};
static const sinew_jkeys aabb_table = SINEW_JKEYS(aabb_keys, "aabb");
static const char *const canvas_keys[] = {"x", "y", "width", "height", "color"};
static const sinew_jkeys canvas_table = SINEW_JKEYS(canvas_keys, "canvas");

static sinew_status build_armature(db *d, const cJSON *v, sinew_model_armature *A, bool is_global) {
    const cJSON *f[14];
    memset(&d->bones, 0, sizeof d->bones);
    memset(&d->slots, 0, sizeof d->slots);
    memset(&d->skins, 0, sizeof d->skins);
    memset(&d->iks, 0, sizeof d->iks);
    d->arm = A;
    d->action_count = 0;
    d->slot_display_max = NULL;
    TRY(sinew__jfields(d->c, v, &armature_table, f));
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(dup_str(d, name, &A->name));
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
    TRY(user_data(d, f[3], &A->user_data));
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
    TRY(build_bones(d, f[5]));
    TRY(build_slots(d, f[6]));
    TRY(build_skins(d, f[7]));
    sinew__jpush_key(d->c, "slot");
    for (uint32_t s = 0; s < A->slot_count; s++) {
        if (!display_index_ok(d, s, A->slots[s].display_index)) {
            sinew__jpush_index(d->c, s); /* slots are stored in file order unless `z` reorders them */
            return sinew__jfail_key(d->c, "displayIndex", SINEW_E_RANGE,
                                    "slot '%s': displayIndex %d is out of range (%u displays)", A->slots[s].name,
                                    A->slots[s].display_index, d->slot_display_max[s]);
        }
    }
    sinew__jpop(d->c);
    TRY(build_iks(d, f[8]));
    TRY(build_path_constraints(d, f[13]));
    TRY(build_animations(d, f[9]));
    /* default actions */
    uint32_t a0 = d->action_count;
    TRY(parse_actions(d, f[4], "defaultActions", SINEW_ACTION_PLAY, SINEW_INVALID_INDEX, SINEW_INVALID_INDEX));
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
        TRY(convert_global(d));
    return SINEW_OK;
}

static const char *const top_keys[] = {"name",     "version",  "compatibleVersion", "frameRate", "isGlobal",
                                       "armature", "userData", "textureAtlas",      "stage"};
static const sinew_jkeys top_table = SINEW_JKEYS(top_keys, "document");

static bool version_supported(const char *v) {
    static const char *const ok[] = {"4.0", "4.5", "5.0", "5.5", "5.6"};
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
        return dup_str(d, buf, out);
    }
    if (!cJSON_IsString(v))
        return sinew__jfail_key(d->c, key, SINEW_E_TYPE, "'%s' must be a string", key);
    return dup_str(d, v->valuestring, out);
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
                                "unsupported version '%s' (sinew reads 4.0, 4.5, 5.0, 5.5 and 5.6)", D->version);
    const char *name;
    TRY(sinew__jstr(d->c, f[0], "name", "", &name));
    TRY(dup_str(d, name, &D->name));
    TRY(sinew__jfloat(d->c, f[3], "frameRate", 24.0f, &D->frame_rate));
    if (D->frame_rate < 0.0f)
        return sinew__jfail_key(d->c, "frameRate", SINEW_E_RANGE, "'frameRate' must not be negative");
    /* isGlobal: only an explicit 1 means absolute data (docs/loader.md) */
    if (f[4]) {
        bool g;
        TRY(sinew__jbool(d->c, f[4], "isGlobal", false, &g));
        D->is_global = g;
    }
    TRY(user_data(d, f[6], &D->user_data));
    if (f[8] && !cJSON_IsNull(f[8])) { /* the armature the editor shows (sinew_data_default_armature) */
        const char *stage;
        TRY(sinew__jstr(d->c, f[8], "stage", "", &stage));
        if (stage[0])
            TRY(dup_str(d, stage, &D->stage));
    }
    D->source_format = "dragonbones";
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(d->c, f[5], "armature", &first, &n));
    if (n > d->c->limits.max_armatures)
        return sinew__jfail_key(d->c, "armature", SINEW_E_LIMIT, "%u armatures, more than the limit of %u (limits.max_armatures)",
                                n, d->c->limits.max_armatures);
    D->armature_count = n;
    ALLOC(D->armatures, n);
    TRY(nm_init(d, &d->armature_names, n));
    uint32_t i = 0;
    for (const cJSON *a = first; a; a = a->next, i++) {
        const cJSON *nv = obj_get(a, "name");
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
    d.data = alloc_array(&d, 1, sizeof *d.data, &ok);
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
