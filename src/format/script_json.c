/* Scenario scripts (include/sinew/script.h): the official oracle's scenario JSON ->
 * struct sinew_script, names checked against the data when it is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/json_read.h"
#include "model/model.h"
#include "sinew/script.h"

#define MAX_FRAMES 1000000.0
#define MAX_FPS 10000.0

struct sinew_script {
    sinew_arena arena;
    uint32_t count;
    sinew_scenario *scenarios;
};

/* "character" and "description" are for people (and sinew's tests): read, then ignored */
static const char *const root_keys[] = {"scenarios", "character", "description"};
static const sinew_jkeys root_table = SINEW_JKEYS(root_keys, "script");
static const char *const scen_keys[] = {"name", "armature", "fps", "frames", "commands"};
static const sinew_jkeys scen_table = SINEW_JKEYS(scen_keys, "scenario");
enum { C_T, C_OP, C_ANIM, C_FADE, C_PT, C_LAYER, C_GROUP, C_MODE, C_WEIGHT, C_TSCALE, C_UNIT, C_VALUE, C_N };
static const char *const cmd_keys[C_N] = {"t",     "op",          "animation", "fadeInTime", "playTimes", "layer",
                                          "group", "fadeOutMode", "weight",    "timeScale",  "unit",      "value"};
static const sinew_jkeys cmd_table = SINEW_JKEYS(cmd_keys, "command");

static const char *const op_names[] = {"play",        "fadeIn",    "gotoAndPlay", "gotoAndStop",
                                       "stop",        "timeScale", "stateWeight", "stateTimeScale"};
/* in the order of the values of sinew_fade_out_mode and sinew_goto_unit (sinew/instance.h, the
 * runtime's header, which the format layer does not include): a command holds the index, and
 * anim/script_run.c hands it to the runtime as the enum */
static const char *const mode_names[] = {"None", "SameLayer", "SameGroup", "SameLayerAndGroup", "All", "Single"};
enum { MODE_SAME_LAYER_AND_GROUP = 3, UNIT_TIME = 0 }; /* the defaults, as indices of these tables */
static const char *const unit_names[] = {"time", "frame", "progress"};

typedef struct sbuild {
    sinew_jctx *c;
    sinew_arena *arena;
    const struct sinew_data *data;
} sbuild;

static sinew_status sdup(sbuild *b, const char *s, const char **out) {
    char *p = sinew__arena_strdup(b->arena, s);
    if (!p)
        return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
    *out = p;
    return SINEW_OK;
}

/* Index of `s` in `names`, or -1. */
static int lookup(const char *s, const char *const *names, int n) {
    for (int i = 0; i < n; ++i)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* "one of 'a', 'b', ..." into buf. */
static const char *name_list(char *buf, size_t size, const char *const *names, size_t n, size_t stride) {
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used + 8 < size; ++i) {
        const char *nm = *(const char *const *)(const void *)((const char *)names + i * stride);
        int w = snprintf(buf + used, size - used, "%s'%s'", i ? ", " : "", nm ? nm : "");
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used >= size)
        memcpy(buf + size - 4, "...", 4);
    return n ? buf : "none";
}

static sinew_status enum_value(sbuild *b, const cJSON *v, const char *key, const char *const *names, int n,
                               int def, const char *what, int *out) {
    const char *s;
    TRY(sinew__jstr(b->c, v, key, NULL, &s));
    if (!s) {
        *out = def;
        return SINEW_OK;
    }
    *out = lookup(s, names, n);
    if (*out < 0) {
        char list[256];
        return sinew__jfail_key(b->c, key, SINEW_E_RANGE, "unknown %s '%s' (one of %s)", what, s,
                                name_list(list, sizeof list, names, (size_t)n, sizeof names[0]));
    }
    return SINEW_OK;
}

static const sinew_model_armature *find_armature(const struct sinew_data *d, const char *name) {
    if (!d || d->armature_count == 0)
        return NULL;
    if (!name)
        return &d->armatures[0];
    for (uint32_t i = 0; i < d->armature_count; ++i)
        if (d->armatures[i].name && strcmp(d->armatures[i].name, name) == 0)
            return &d->armatures[i];
    return NULL;
}

static bool has_animation(const sinew_model_armature *arm, const char *name) {
    for (uint32_t i = 0; i < arm->animation_count; ++i)
        if (arm->animations[i].name && strcmp(arm->animations[i].name, name) == 0)
            return true;
    return false;
}

static sinew_status build_command(sbuild *b, const cJSON *obj, const sinew_model_armature *arm,
                                  sinew_script_command *C) {
    const cJSON *f[C_N];
    TRY(sinew__jfields(b->c, obj, &cmd_table, f));
    memset(C, 0, sizeof *C);
    if (!f[C_T])
        return sinew__jfail_key(b->c, "t", SINEW_E_MISSING, "command has no time 't'");
    TRY(sinew__jnum(b->c, f[C_T], "t", 0.0, &C->t));
    if (!f[C_OP])
        return sinew__jfail_key(b->c, "op", SINEW_E_MISSING, "command has no 'op'");
    int op;
    TRY(enum_value(b, f[C_OP], "op", op_names, (int)(sizeof op_names / sizeof op_names[0]), 0, "op", &op));
    C->op = (sinew_script_op)op;
    const char *anim;
    TRY(sinew__jstr(b->c, f[C_ANIM], "animation", NULL, &anim));
    bool needs_anim = op == SINEW_OP_FADE_IN || op == SINEW_OP_GOTO_AND_PLAY || op == SINEW_OP_GOTO_AND_STOP ||
                      op == SINEW_OP_STATE_WEIGHT || op == SINEW_OP_STATE_TIME_SCALE;
    bool takes_anim = needs_anim || op == SINEW_OP_PLAY || op == SINEW_OP_STOP;
    if (needs_anim && !anim)
        return sinew__jfail_key(b->c, "animation", SINEW_E_MISSING, "'%s' needs an 'animation'", op_names[op]);
    if (anim && takes_anim) {
        if (arm && !has_animation(arm, anim)) {
            char list[256];
            const char *names[64];
            uint32_t n = arm->animation_count < 64 ? arm->animation_count : 64;
            for (uint32_t i = 0; i < n; ++i)
                names[i] = arm->animations[i].name;
            return sinew__jfail_key(b->c, "animation", SINEW_E_NOT_FOUND, "armature '%s' has no animation '%s' (have: %s)",
                                    arm->name ? arm->name : "", anim,
                                    name_list(list, sizeof list, names, n, sizeof names[0]));
        }
        TRY(sdup(b, anim, &C->animation));
    }
    TRY(sinew__jnum(b->c, f[C_FADE], "fadeInTime", -1.0, &C->fade_in_time));
    int64_t iv;
    TRY(sinew__jint(b->c, f[C_PT], "playTimes", -1.0, -1.0, 2147483647.0, &iv));
    C->play_times = (int32_t)iv;
    TRY(sinew__jint(b->c, f[C_LAYER], "layer", 0.0, -2147483648.0, 2147483647.0, &iv));
    C->layer = (int32_t)iv;
    const char *group;
    if (f[C_GROUP] && !cJSON_IsNull(f[C_GROUP])) {
        TRY(sinew__jstr(b->c, f[C_GROUP], "group", NULL, &group));
        TRY(sdup(b, group, &C->group));
    }
    TRY(enum_value(b, f[C_MODE], "fadeOutMode", mode_names, (int)(sizeof mode_names / sizeof mode_names[0]),
                   MODE_SAME_LAYER_AND_GROUP, "fadeOutMode", &C->fade_out_mode));
    C->has_weight = f[C_WEIGHT] != NULL;
    TRY(sinew__jnum(b->c, f[C_WEIGHT], "weight", 1.0, &C->weight));
    C->has_time_scale = f[C_TSCALE] != NULL;
    TRY(sinew__jnum(b->c, f[C_TSCALE], "timeScale", 1.0, &C->time_scale));
    TRY(enum_value(b, f[C_UNIT], "unit", unit_names, 3, UNIT_TIME, "unit", &C->unit));
    bool needs_value = op == SINEW_OP_TIME_SCALE || op == SINEW_OP_STATE_WEIGHT || op == SINEW_OP_STATE_TIME_SCALE;
    if (needs_value && !f[C_VALUE])
        return sinew__jfail_key(b->c, "value", SINEW_E_MISSING, "'%s' needs a 'value'", op_names[op]);
    TRY(sinew__jnum(b->c, f[C_VALUE], "value", 0.0, &C->value));
    return SINEW_OK;
}

static int cmp_command(const void *pa, const void *pb) {
    const sinew_script_command *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    /* stable: equal times keep the file order */
    return a->index < b->index ? -1 : a->index > b->index;
}

static sinew_status build_scenario(sbuild *b, const cJSON *obj, uint32_t index, sinew_scenario *S) {
    const cJSON *f[5];
    TRY(sinew__jfields(b->c, obj, &scen_table, f));
    memset(S, 0, sizeof *S);
    const char *name;
    char fallback[32];
    snprintf(fallback, sizeof fallback, "scenario%u", index);
    TRY(sinew__jstr(b->c, f[0], "name", fallback, &name));
    TRY(sdup(b, name, &S->name));
    const char *arm_name;
    TRY(sinew__jstr(b->c, f[1], "armature", NULL, &arm_name));
    const sinew_model_armature *arm = find_armature(b->data, arm_name);
    if (b->data && !arm) {
        char list[256];
        const char *names[64];
        uint32_t n = b->data->armature_count < 64 ? b->data->armature_count : 64;
        for (uint32_t i = 0; i < n; ++i)
            names[i] = b->data->armatures[i].name;
        return sinew__jfail_key(b->c, "armature", SINEW_E_NOT_FOUND, "no armature '%s' (have: %s)",
                                arm_name ? arm_name : "", name_list(list, sizeof list, names, n, sizeof names[0]));
    }
    if (arm_name)
        TRY(sdup(b, arm_name, &S->armature));
    double def_fps = arm && arm->frame_rate > 0.0f ? (double)arm->frame_rate : 0.0;
    TRY(sinew__jnum(b->c, f[2], "fps", def_fps, &S->fps));
    if (!f[2] && !(S->fps > 0.0))
        return sinew__jfail_key(b->c, "fps", SINEW_E_MISSING, "scenario '%s' has no 'fps'", S->name);
    if (!(S->fps > 0.0) || S->fps > MAX_FPS)
        return sinew__jfail_key(b->c, "fps", SINEW_E_RANGE, "'fps' must be > 0 and at most %g", MAX_FPS);
    if (!f[3])
        return sinew__jfail_key(b->c, "frames", SINEW_E_MISSING, "scenario '%s' has no 'frames'", S->name);
    int64_t frames;
    TRY(sinew__jint(b->c, f[3], "frames", 0.0, 1.0, MAX_FRAMES, &frames));
    S->frames = (uint32_t)frames;
    const cJSON *first;
    uint32_t n;
    if (!f[4])
        return sinew__jfail_key(b->c, "commands", SINEW_E_MISSING, "scenario '%s' has no 'commands'", S->name);
    TRY(sinew__jarray(b->c, f[4], "commands", &first, &n));
    sinew_script_command *cmds = NULL;
    if (n) {
        cmds = sinew__arena_array(b->arena, n, sizeof *cmds);
        if (!cmds)
            return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
    }
    sinew__jpush_key(b->c, "commands");
    uint32_t i = 0;
    for (const cJSON *c = first; c; c = c->next, ++i) {
        sinew__jpush_index(b->c, i);
        TRY(build_command(b, c, arm, &cmds[i]));
        cmds[i].index = i;
        sinew__jpop(b->c);
    }
    sinew__jpop(b->c);
    if (n > 1)
        qsort(cmds, n, sizeof *cmds, cmp_command);
    S->commands = cmds;
    S->command_count = n;
    return SINEW_OK;
}

static sinew_status build_script(sbuild *b, const cJSON *root, struct sinew_script *out) {
    const cJSON *f[sizeof root_keys / sizeof root_keys[0]];
    TRY(sinew__jfields(b->c, root, &root_table, f));
    if (!f[0])
        return sinew__jfail(b->c, SINEW_E_MISSING, "no 'scenarios' list: not a scenario script");
    const cJSON *first;
    uint32_t n;
    TRY(sinew__jarray(b->c, f[0], "scenarios", &first, &n));
    if (n) {
        out->scenarios = sinew__arena_array(b->arena, n, sizeof *out->scenarios);
        if (!out->scenarios)
            return sinew__jfail(b->c, SINEW_E_NOMEM, "out of memory");
    }
    out->count = n;
    sinew__jpush_key(b->c, "scenarios");
    uint32_t i = 0;
    for (const cJSON *s = first; s; s = s->next, ++i) {
        sinew__jpush_index(b->c, i);
        TRY(build_scenario(b, s, i, &out->scenarios[i]));
        sinew__jpop(b->c);
    }
    sinew__jpop(b->c);
    return SINEW_OK;
}

sinew_status sinew_script_load_buffer(const void *buf, size_t len, const char *name, const struct sinew_data *data,
                                      const sinew_load_options *opts, sinew_script **out, sinew_error *err) {
    if (out)
        *out = NULL;
    if (!out || (!buf && len))
        return sinew__fail(err, SINEW_E_ARG, NULL, "buf and out are required");
    sinew_jctx c;
    sinew__jctx_init(&c, buf, len, name, opts);
    sinew_arena arena;
    sinew__arena_init(&arena, c.allocator,
                      (size_t)(c.limits.max_memory_bytes < SIZE_MAX ? c.limits.max_memory_bytes : SIZE_MAX));
    sinew_status st;
    cJSON *root = sinew__json_parse(&c);
    if (!root) {
        st = c.err.code;
    } else {
        sbuild b = {&c, &arena, data};
        struct sinew_script *s = sinew__arena_alloc(&arena, sizeof *s);
        if (!s) {
            st = sinew__jfail(&c, SINEW_E_NOMEM, "out of memory");
        } else {
            memset(s, 0, sizeof *s);
            st = build_script(&b, root, s);
        }
        sinew__json_free(&c, root);
        if (st == SINEW_OK) {
            s->arena = arena;
            *out = s;
            return SINEW_OK;
        }
    }
    sinew__arena_destroy(&arena);
    if (err)
        *err = c.err;
    return st;
}

sinew_status sinew_script_load_file(const char *path, const struct sinew_data *data, const sinew_load_options *opts,
                                    sinew_script **out, sinew_error *err) {
    if (out)
        *out = NULL;
    if (!path || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "path and out are required");
    sinew_jctx c;
    sinew__jctx_init(&c, NULL, 0, path, opts);
    char *text = NULL;
    size_t len = 0;
    if (sinew__read_file(&c, path, &text, &len) != SINEW_OK) {
        if (err)
            *err = c.err;
        return c.err.code;
    }
    sinew_status st = sinew_script_load_buffer(text, len, path, data, opts, out, err);
    sinew__free(c.allocator, text, len + 1);
    return st;
}

void sinew_script_destroy(sinew_script *script) {
    if (!script)
        return;
    sinew_arena arena = script->arena;
    sinew__arena_destroy(&arena);
}

uint32_t sinew_script_count(const sinew_script *script) { return script ? script->count : 0; }

const sinew_scenario *sinew_script_scenario(const sinew_script *script, uint32_t i) {
    return script && i < script->count ? &script->scenarios[i] : NULL;
}
