/*
 * sinew_web.c - the WebAssembly exports behind the JavaScript API (web/src/sinew.mjs).
 *
 * Thin: every export calls the public C API (include/sinew/) and flattens what it returns into
 * words the JavaScript side reads through typed arrays. Pointers are wasm32 addresses (uint32).
 * Results that are more than a status go to fixed scratch records in this file (g_out, g_err, the
 * event buffer) whose addresses the JavaScript side asks for once; a record is overwritten by the
 * next call that fills it. Strings from JavaScript are UTF-8, NUL-terminated, allocated by the
 * caller with sw_alloc. Nothing here keeps global state between calls except those records.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "sinew/sinew.h"

#define EXPORT(name) __attribute__((export_name(#name)))

/* ---- scratch records --------------------------------------------------------------------- */

static sinew_error g_err;
/* 64 words of results (bone, slot, state, rect, hit): uint32, int32, float and double views */
static union {
    uint32_t u[64];
    int32_t i[64];
    float f[64];
    double d[32];
} g_out;

static void err_reset(void) { memset(&g_err, 0, sizeof g_err); }

EXPORT(sw_alloc) void *sw_alloc(size_t n) { return malloc(n ? n : 1); }
EXPORT(sw_free) void sw_free(void *p) { free(p); }
EXPORT(sw_out) void *sw_out(void) { return &g_out; }

/* The error record as words: code, file, line, column, path, message (char pointers), offset
 * (low, high). */
static uint32_t g_err_words[8];
EXPORT(sw_error) uint32_t *sw_error(void) {
    g_err_words[0] = (uint32_t)g_err.code;
    g_err_words[1] = (uint32_t)(uintptr_t)g_err.file;
    g_err_words[2] = g_err.line;
    g_err_words[3] = g_err.column;
    g_err_words[4] = (uint32_t)(uintptr_t)g_err.path;
    g_err_words[5] = (uint32_t)(uintptr_t)g_err.message;
    g_err_words[6] = (uint32_t)(g_err.offset & 0xffffffffu);
    g_err_words[7] = (uint32_t)(g_err.offset >> 32);
    return g_err_words;
}
EXPORT(sw_status_str) const char *sw_status_str(int code) { return sinew_status_str((sinew_status)code); }

/* Warnings of the last load: the messages, one per line, as "file:line:col: warning: message".
 * Each line whole, however long (the message and path are bounded by sinew_error's arrays); past
 * 1 MiB of them the rest are dropped. */
static char *g_warn;
static size_t g_warn_len, g_warn_cap;
static int warn_format(char *out, size_t cap, const sinew_error *w) {
    return snprintf(out, cap, "%s:%u:%u: warning: %s%s%s%s\n", w->file ? w->file : "", w->line, w->column, w->message,
                    w->path[0] ? " [" : "", w->path, w->path[0] ? "]" : "");
}
static void warn_log(void *user, sinew_log_level level, const sinew_error *w) {
    (void)user;
    if (level < SINEW_LOG_WARNING || g_warn_len > (1u << 20))
        return;
    int n = warn_format(NULL, 0, w);
    if (n <= 0)
        return;
    size_t len = (size_t)n;
    if (g_warn_len + len + 1 > g_warn_cap) {
        size_t cap = (g_warn_len + len + 1) * 2;
        char *p = realloc(g_warn, cap);
        if (!p)
            return;
        g_warn = p;
        g_warn_cap = cap;
    }
    warn_format(g_warn + g_warn_len, len + 1, w);
    g_warn_len += len;
}
EXPORT(sw_warnings) const char *sw_warnings(void) { return g_warn_len ? g_warn : ""; }
static sinew_load_options load_options(void) {
    g_warn_len = 0;
    if (g_warn)
        g_warn[0] = '\0';
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.log = warn_log;
    return o;
}

/* ---- data and atlases -------------------------------------------------------------------- */

EXPORT(sw_data_load) sinew_data *sw_data_load(const void *buf, size_t len, const char *name) {
    err_reset();
    sinew_load_options o = load_options();
    sinew_data *d = NULL;
    return sinew_data_load_buffer(buf, len, name, &o, &d, &g_err) == SINEW_OK ? d : NULL;
}
EXPORT(sw_data_load_file) sinew_data *sw_data_load_file(const char *path) {
    err_reset();
    sinew_load_options o = load_options();
    sinew_data *d = NULL;
    return sinew_data_load_file(path, &o, &d, &g_err) == SINEW_OK ? d : NULL;
}
EXPORT(sw_data_destroy) void sw_data_destroy(sinew_data *d) { sinew_data_destroy(d); }

EXPORT(sw_atlas_load) sinew_atlas *sw_atlas_load(const void *buf, size_t len, const char *name, const char *dir) {
    err_reset();
    sinew_load_options o = load_options();
    sinew_atlas *a = NULL;
    return sinew_atlas_load_buffer(buf, len, name, dir, &o, &a, &g_err) == SINEW_OK ? a : NULL;
}
EXPORT(sw_atlas_load_file) sinew_atlas *sw_atlas_load_file(const char *path) {
    err_reset();
    sinew_load_options o = load_options();
    sinew_atlas *a = NULL;
    return sinew_atlas_load_file(path, &o, &a, &g_err) == SINEW_OK ? a : NULL;
}
EXPORT(sw_atlas_from_images) sinew_atlas *sw_atlas_from_images(const sinew_data *d, const char *dir) {
    err_reset();
    sinew_atlas *a = NULL;
    return sinew_atlas_from_images(d, dir, NULL, &a, &g_err) == SINEW_OK ? a : NULL;
}
EXPORT(sw_atlas_destroy) void sw_atlas_destroy(sinew_atlas *a) { sinew_atlas_destroy(a); }

/* The atlas for a skeleton path, as `sinew render` finds it (a path into g_path, or NULL). */
static char g_path[4096];
EXPORT(sw_atlas_find_for) const char *sw_atlas_find_for(const char *skeleton) {
    return sinew_atlas_find_for(skeleton, g_path, sizeof g_path) == SINEW_OK ? g_path : NULL;
}

static const char *or_null(const char *s) { return s && s[0] ? s : NULL; }

static cJSON *str_or_null(const char *s) { return s ? cJSON_CreateString(s) : cJSON_CreateNull(); }

/* Everything the JavaScript side lists about a data set, as JSON text (free with sw_free). */
EXPORT(sw_data_describe) char *sw_data_describe(const sinew_data *d) {
    sinew_data_info di;
    sinew_data_get_info(d, &di);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", di.format);
    cJSON_AddStringToObject(root, "name", di.name ? di.name : "");
    cJSON_AddStringToObject(root, "version", di.version ? di.version : "");
    cJSON_AddItemToObject(root, "compatibleVersion", str_or_null(di.compatible_version));
    cJSON_AddBoolToObject(root, "isGlobal", di.is_global);
    cJSON_AddNumberToObject(root, "frameRate", di.frame_rate);
    cJSON_AddNumberToObject(root, "defaultArmature", sinew_data_default_armature(d));
    cJSON *arms = cJSON_AddArrayToObject(root, "armatures");
    for (uint32_t a = 0; a < di.armature_count; a++) {
        sinew_armature_info ai;
        if (sinew_data_get_armature_info(d, a, &ai) != SINEW_OK)
            continue;
        cJSON *arm = cJSON_CreateObject();
        cJSON_AddItemToArray(arms, arm);
        cJSON_AddStringToObject(arm, "name", ai.name);
        cJSON_AddStringToObject(arm, "type", ai.type ? ai.type : "Armature");
        cJSON_AddNumberToObject(arm, "frameRate", ai.frame_rate);
        cJSON_AddItemToObject(arm, "defaultAnimation",
                              ai.default_animation == SINEW_INVALID_INDEX ? cJSON_CreateNull()
                                                                          : cJSON_CreateNumber(ai.default_animation));
        cJSON *bones = cJSON_AddArrayToObject(arm, "bones");
        for (uint32_t b = 0; b < ai.bone_count; b++) {
            sinew_bone_info bi;
            if (sinew_data_get_bone_info(d, a, b, &bi) != SINEW_OK)
                continue;
            cJSON *bo = cJSON_CreateObject();
            cJSON_AddStringToObject(bo, "name", bi.name);
            cJSON_AddNumberToObject(bo, "parent", bi.parent == SINEW_INVALID_INDEX ? -1.0 : (double)bi.parent);
            cJSON_AddNumberToObject(bo, "length", bi.length);
            cJSON_AddItemToArray(bones, bo);
        }
        cJSON *slots = cJSON_AddArrayToObject(arm, "slots");
        for (uint32_t s = 0; s < ai.slot_count; s++) {
            sinew_slot_info si;
            if (sinew_data_get_slot_info(d, a, s, &si) == SINEW_OK)
                cJSON_AddItemToArray(slots, cJSON_CreateString(si.name));
        }
        cJSON *skins = cJSON_AddArrayToObject(arm, "skins");
        for (uint32_t s = 0; s < ai.skin_count; s++) {
            sinew_skin_info si;
            if (sinew_data_get_skin_info(d, a, s, &si) == SINEW_OK)
                cJSON_AddItemToArray(skins, cJSON_CreateString(si.name));
        }
        cJSON *anims = cJSON_AddArrayToObject(arm, "animations");
        for (uint32_t n = 0; n < ai.animation_count; n++) {
            sinew_animation_info ni;
            if (sinew_data_get_animation_info(d, a, n, &ni) != SINEW_OK)
                continue;
            cJSON *an = cJSON_CreateObject();
            cJSON_AddStringToObject(an, "name", ni.name);
            cJSON_AddNumberToObject(an, "frames", ni.frames);
            cJSON_AddNumberToObject(an, "duration", ni.duration_s);
            cJSON_AddNumberToObject(an, "playTimes", ni.play_times);
            cJSON_AddNumberToObject(an, "fadeInTime", ni.fade_in_time_s);
            cJSON_AddItemToArray(anims, an);
        }
        cJSON_AddItemToObject(arm, "userData", str_or_null(ai.user_data));
        if (ai.has_canvas) {
            cJSON *cv = cJSON_AddObjectToObject(arm, "canvas");
            cJSON_AddNumberToObject(cv, "x", ai.canvas_x);
            cJSON_AddNumberToObject(cv, "y", ai.canvas_y);
            cJSON_AddNumberToObject(cv, "width", ai.canvas_width);
            cJSON_AddNumberToObject(cv, "height", ai.canvas_height);
            if (ai.canvas_background)
                cJSON_AddNumberToObject(cv, "color", ai.canvas_color);
        } else {
            cJSON_AddItemToObject(arm, "canvas", cJSON_CreateNull());
        }
    }
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

EXPORT(sw_atlas_describe) char *sw_atlas_describe(const sinew_atlas *a) {
    sinew_atlas_info info;
    sinew_atlas_get_info(a, &info);
    cJSON *root = cJSON_CreateObject();
    cJSON *pages = cJSON_AddArrayToObject(root, "pages");
    for (uint32_t p = 0; p < info.page_count; p++) {
        sinew_atlas_page_info pi;
        if (sinew_atlas_get_page_info(a, p, &pi) != SINEW_OK)
            continue;
        cJSON *pg = cJSON_CreateObject();
        cJSON_AddStringToObject(pg, "name", pi.name ? pi.name : "");
        cJSON_AddStringToObject(pg, "imagePath", pi.image_path ? pi.image_path : "");
        cJSON_AddStringToObject(pg, "resolvedPath", pi.resolved_path ? pi.resolved_path : "");
        cJSON_AddNumberToObject(pg, "width", pi.width);
        cJSON_AddNumberToObject(pg, "height", pi.height);
        cJSON_AddNumberToObject(pg, "scale", pi.scale);
        cJSON_AddItemToArray(pages, pg);
    }
    cJSON_AddNumberToObject(root, "regionCount", info.region_count);
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

/* The warnings `sinew validate` gives a skeleton against its atlas; returns their count, the
 * text in sw_warnings(). */
EXPORT(sw_data_check_atlas) uint32_t sw_data_check_atlas(const sinew_data *d, const sinew_atlas *a, const char *file) {
    load_options();
    return sinew_data_check_atlas(d, a, file, warn_log, NULL);
}

/* sinew_data_resolve_skin: g_out.u[0] the armature index, u[1] the skin overlay (or 0). */
EXPORT(sw_resolve_skin) int sw_resolve_skin(const sinew_data *d, const char *armature, const char *skin) {
    err_reset();
    uint32_t index = 0;
    const char *overlay = NULL;
    sinew_status st = sinew_data_resolve_skin(d, armature, or_null(skin), &index, &overlay, &g_err);
    g_out.u[0] = index;
    g_out.u[1] = (uint32_t)(uintptr_t)overlay;
    return (int)st;
}

/* ---- events -------------------------------------------------------------------------------- */

/* One event as 10 doubles: instance, type, name, armature, animation (0 when its state had ended,
 * as the official runtime reports ""), bone, slot, armature index, time, 0. The strings point
 * into the data. */
#define EVENT_WORDS 10
static double *g_events;
static uint32_t g_event_count, g_event_cap;
static uint64_t g_events_lost;

static void on_event(void *user, const sinew_instance *inst, const sinew_event *ev) {
    (void)user;
    if (g_event_count == g_event_cap) {
        uint32_t cap = g_event_cap ? g_event_cap * 2 : 256;
        double *p = cap <= (1u << 20) ? realloc(g_events, (size_t)cap * EVENT_WORDS * sizeof *p) : NULL;
        if (!p) {
            g_events_lost++;
            return;
        }
        g_events = p;
        g_event_cap = cap;
    }
    double *r = g_events + (size_t)g_event_count++ * EVENT_WORDS;
    r[0] = (double)(uintptr_t)inst;
    r[1] = (double)ev->type;
    r[2] = (double)(uintptr_t)ev->name;
    r[3] = (double)(uintptr_t)ev->armature;
    r[4] = ev->state_ended ? 0.0 : (double)(uintptr_t)ev->animation;
    r[5] = (double)(uintptr_t)ev->bone;
    r[6] = (double)(uintptr_t)ev->slot;
    r[7] = (double)ev->armature_index;
    r[8] = ev->time;
    r[9] = 0.0;
}
static void drop_event(void *user, const sinew_instance *inst, const sinew_event *ev) {
    (void)user;
    (void)inst;
    (void)ev;
}
EXPORT(sw_events) double *sw_events(void) { return g_events; }
EXPORT(sw_event_count) uint32_t sw_event_count(void) { return g_event_count; }
EXPORT(sw_events_clear) void sw_events_clear(void) { g_event_count = 0; }
EXPORT(sw_events_lost) double sw_events_lost(void) { return (double)g_events_lost; }
/* Whether an instance's events are recorded for its listeners (else dropped at once). */
EXPORT(sw_listen) void sw_listen(sinew_instance *inst, int on) {
    sinew_instance_set_event_callback(inst, on ? on_event : drop_event, NULL);
}

/* ---- instances --------------------------------------------------------------------------- */

/* A frame cache (the official cacheFrameRate) shared by the instances created with it. */
EXPORT(sw_frame_cache_create) sinew_frame_cache *sw_frame_cache_create(const sinew_data *d, double fps) {
    err_reset();
    sinew_frame_cache *c = NULL;
    return sinew_frame_cache_create(d, fps, NULL, &c, &g_err) == SINEW_OK ? c : NULL;
}
EXPORT(sw_frame_cache_destroy) void sw_frame_cache_destroy(sinew_frame_cache *c) { sinew_frame_cache_destroy(c); }

EXPORT(sw_instance_create)
sinew_instance *sw_instance_create(const sinew_data *d, const char *armature, const char *skin, const sinew_atlas *atlas,
                                   uint32_t max_states, int default_actions, sinew_frame_cache *cache) {
    err_reset();
    uint32_t index = 0;
    const char *overlay = NULL;
    if (sinew_data_resolve_skin(d, or_null(armature), or_null(skin), &index, &overlay, &g_err) != SINEW_OK)
        return NULL;
    sinew_armature_info ai;
    sinew_data_get_armature_info(d, index, &ai);
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.armature = ai.name;
    o.skin = overlay;
    o.atlas = atlas;
    o.max_states = max_states;
    o.run_default_actions = default_actions != 0;
    o.frame_cache = cache;
    sinew_instance *inst = NULL;
    if (sinew_instance_create(d, &o, &inst, &g_err) != SINEW_OK)
        return NULL;
    sinew_instance_set_event_callback(inst, drop_event, NULL);
    return inst;
}
EXPORT(sw_instance_destroy) void sw_instance_destroy(sinew_instance *inst) { sinew_instance_destroy(inst); }
EXPORT(sw_instance_memory) uint32_t sw_instance_memory(const sinew_instance *inst) {
    return (uint32_t)sinew_instance_memory(inst);
}
EXPORT(sw_update) void sw_update(sinew_instance *inst, double dt) { sinew_instance_update(inst, dt); }
/* One call for a crowd: `n` instance pointers at `list`. */
EXPORT(sw_update_many) void sw_update_many(sinew_instance *const *list, uint32_t n, double dt) {
    for (uint32_t i = 0; i < n; i++)
        sinew_instance_update(list[i], dt);
}
/* The same, building each one's draw list after its update (for renderers that draw them all);
 * returns the vertices drawn in all. */
EXPORT(sw_update_drawlist_many) uint32_t sw_update_drawlist_many(sinew_instance *const *list, uint32_t n, double dt) {
    uint32_t vertices = 0;
    for (uint32_t i = 0; i < n; i++) {
        sinew_instance_update(list[i], dt);
        sinew_drawlist dl;
        sinew_instance_drawlist(list[i], &dl);
        vertices += dl.vertex_count;
    }
    return vertices;
}

EXPORT(sw_play) int sw_play(sinew_instance *inst, uint32_t arm, const char *anim, int32_t play_times) {
    err_reset();
    return (int)sinew_instance_play_on(inst, arm, or_null(anim), play_times, &g_err);
}
EXPORT(sw_fade_in)
int sw_fade_in(sinew_instance *inst, uint32_t arm, const char *anim, double fade_in_time, int32_t play_times,
               int32_t layer, const char *group, int fade_out_mode, double weight, double time_scale, int pause_fade_in) {
    err_reset();
    sinew_fade_options o = sinew_fade_defaults();
    o.fade_in_time = fade_in_time;
    o.play_times = play_times;
    o.layer = layer;
    o.group = or_null(group);
    o.fade_out_mode = (sinew_fade_out_mode)fade_out_mode;
    o.weight = weight;
    o.time_scale = time_scale;
    o.pause_fade_in = pause_fade_in != 0;
    return (int)sinew_instance_fade_in(inst, arm, anim, &o, &g_err);
}
EXPORT(sw_goto_and_play)
int sw_goto_and_play(sinew_instance *inst, uint32_t arm, const char *anim, int unit, double value, int32_t play_times) {
    err_reset();
    return (int)sinew_instance_goto_and_play(inst, arm, anim, (sinew_goto_unit)unit, value, play_times, &g_err);
}
EXPORT(sw_goto_and_stop) int sw_goto_and_stop(sinew_instance *inst, uint32_t arm, const char *anim, int unit, double value) {
    err_reset();
    return (int)sinew_instance_goto_and_stop(inst, arm, anim, (sinew_goto_unit)unit, value, &g_err);
}
EXPORT(sw_stop) void sw_stop(sinew_instance *inst, uint32_t arm, const char *anim) {
    sinew_instance_stop(inst, arm, or_null(anim));
}
EXPORT(sw_set_time_scale) void sw_set_time_scale(sinew_instance *inst, uint32_t arm, double scale) {
    sinew_instance_set_time_scale(inst, arm, scale);
}
EXPORT(sw_set_skin) int sw_set_skin(sinew_instance *inst, const char *skin) {
    err_reset();
    return (int)sinew_instance_set_skin(inst, or_null(skin), &g_err);
}
EXPORT(sw_set_slot_skin) int sw_set_slot_skin(sinew_instance *inst, uint32_t arm, const char *slot, const char *skin) {
    err_reset();
    return (int)sinew_instance_set_slot_skin(inst, arm, slot, skin, &g_err);
}

/* State i of an armature into g_out.d: layer, playTimes, currentPlayTimes, currentTime, duration,
 * weight, fadeProgress, timeScale, flags (playing 1, completed 2, fadingIn 4, fadingOut 8), name,
 * group (pointers). Returns 0 when out of range. */
EXPORT(sw_state_count) uint32_t sw_state_count(const sinew_instance *inst, uint32_t arm) {
    return sinew_instance_state_count(inst, arm);
}
EXPORT(sw_state) int sw_state(const sinew_instance *inst, uint32_t arm, uint32_t i) {
    sinew_state_info s;
    if (!sinew_instance_state(inst, arm, i, &s))
        return 0;
    double *o = g_out.d;
    o[0] = s.layer;
    o[1] = s.play_times;
    o[2] = s.current_play_times;
    o[3] = s.current_time;
    o[4] = s.duration;
    o[5] = s.weight;
    o[6] = s.fade_progress;
    o[7] = s.time_scale;
    o[8] = (s.playing ? 1 : 0) | (s.completed ? 2 : 0) | (s.fading_in ? 4 : 0) | (s.fading_out ? 8 : 0);
    o[9] = (double)(uintptr_t)s.name;
    o[10] = (double)(uintptr_t)s.group;
    return 1;
}
EXPORT(sw_state_set_time_scale) int sw_state_set_time_scale(sinew_instance *inst, uint32_t arm, const char *anim, double v) {
    return sinew_instance_state_set_time_scale(inst, arm, anim, v);
}
EXPORT(sw_state_set_weight) int sw_state_set_weight(sinew_instance *inst, uint32_t arm, const char *anim, double v) {
    return sinew_instance_state_set_weight(inst, arm, anim, v);
}

/* ---- pose -------------------------------------------------------------------------------- */

EXPORT(sw_armature_count) uint32_t sw_armature_count(const sinew_instance *inst) {
    return sinew_instance_armature_count(inst);
}
EXPORT(sw_armature_name) const char *sw_armature_name(const sinew_instance *inst, uint32_t arm) {
    return sinew_instance_armature_name(inst, arm);
}
/* Whether armature `arm` is drawn now; its matrix to the top armature in g_out.f[0..5]. */
EXPORT(sw_armature_placement) int sw_armature_placement(const sinew_instance *inst, uint32_t arm) {
    sinew_affine m = {1, 0, 0, 1, 0, 0};
    bool shown = sinew_instance_armature_placement(inst, arm, &m);
    float *f = g_out.f;
    f[0] = m.a, f[1] = m.b, f[2] = m.c, f[3] = m.d, f[4] = m.tx, f[5] = m.ty;
    return shown;
}
EXPORT(sw_bone_count) uint32_t sw_bone_count(const sinew_instance *inst, uint32_t arm) {
    return sinew_instance_bone_count(inst, arm);
}
/* Bone b into g_out: u[0] name, i[1] parent (-1 for a root), f[2..7] world matrix a b c d tx ty. */
EXPORT(sw_bone) int sw_bone(const sinew_instance *inst, uint32_t arm, uint32_t b) {
    const char *name = NULL;
    uint32_t parent = SINEW_INVALID_INDEX;
    sinew_affine m;
    if (!sinew_instance_bone(inst, arm, b, &name, &parent, &m))
        return 0;
    g_out.u[0] = (uint32_t)(uintptr_t)name;
    g_out.i[1] = parent == SINEW_INVALID_INDEX ? -1 : (int32_t)parent;
    float *f = g_out.f + 2;
    f[0] = m.a, f[1] = m.b, f[2] = m.c, f[3] = m.d, f[4] = m.tx, f[5] = m.ty;
    return 1;
}
/* Every bone's world matrix, 6 floats each, into `out` (room for sw_bone_count * 6). */
EXPORT(sw_bone_matrices) void sw_bone_matrices(const sinew_instance *inst, uint32_t arm, float *out) {
    uint32_t n = sinew_instance_bone_count(inst, arm);
    for (uint32_t b = 0; b < n; b++) {
        sinew_affine m;
        if (!sinew_instance_bone(inst, arm, b, NULL, NULL, &m))
            m = (sinew_affine){1, 0, 0, 1, 0, 0};
        float *f = out + 6 * (size_t)b;
        f[0] = m.a, f[1] = m.b, f[2] = m.c, f[3] = m.d, f[4] = m.tx, f[5] = m.ty;
    }
}
EXPORT(sw_slot_count) uint32_t sw_slot_count(const sinew_instance *inst, uint32_t arm) {
    return sinew_instance_slot_count(inst, arm);
}
/* The slot at draw position k into g_out: u[0] name, u[1] index, u[2] parent bone, i[3] display
 * index, u[4] display name, u[5] display path, i[6] display type, u[7] visible, u[8] draw index,
 * f[9..16] colour (aM rM gM bM aO rO gO bO), u[17] blend, f[18..23] world matrix, u[24] mesh
 * vertices, u[25] mesh vertex count, u[26] mesh weighted, i[27] child armature (-1 none),
 * u[28] has pivot, f[29..30] pivot. */
EXPORT(sw_slot) int sw_slot(sinew_instance *inst, uint32_t arm, uint32_t k) {
    sinew_slot_state s;
    if (!sinew_instance_slot(inst, arm, k, &s))
        return 0;
    uint32_t *u = g_out.u;
    float *f = g_out.f;
    u[0] = (uint32_t)(uintptr_t)s.name;
    u[1] = s.index;
    u[2] = s.parent;
    g_out.i[3] = s.display_index;
    u[4] = (uint32_t)(uintptr_t)s.display_name;
    u[5] = (uint32_t)(uintptr_t)s.display_path;
    g_out.i[6] = s.display_type;
    u[7] = s.visible;
    u[8] = s.draw_index;
    f[9] = s.color.a_mul, f[10] = s.color.r_mul, f[11] = s.color.g_mul, f[12] = s.color.b_mul;
    f[13] = s.color.a_add, f[14] = s.color.r_add, f[15] = s.color.g_add, f[16] = s.color.b_add;
    u[17] = (uint32_t)s.blend;
    f[18] = s.world.a, f[19] = s.world.b, f[20] = s.world.c, f[21] = s.world.d, f[22] = s.world.tx,
    f[23] = s.world.ty;
    u[24] = (uint32_t)(uintptr_t)s.mesh_vertices;
    u[25] = s.mesh_vertex_count;
    u[26] = s.mesh_weighted;
    g_out.i[27] = s.child_armature == SINEW_INVALID_INDEX ? -1 : (int32_t)s.child_armature;
    u[28] = s.has_pivot;
    f[29] = s.pivot_x, f[30] = s.pivot_y;
    return 1;
}

/* ---- draw list and control --------------------------------------------------------------- */

/* The draw list, as words: positions, uvs, indices, cmds (pointers), vertex, index and command
 * counts, the size of one sinew_draw_cmd. Building it may grow the memory (a first draw list
 * allocates its buffers). */
static uint32_t g_drawlist[8];
EXPORT(sw_drawlist) uint32_t *sw_drawlist(sinew_instance *inst) {
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    uint32_t *w = g_drawlist;
    w[0] = (uint32_t)(uintptr_t)dl.positions;
    w[1] = (uint32_t)(uintptr_t)dl.uvs;
    w[2] = (uint32_t)(uintptr_t)dl.indices;
    w[3] = (uint32_t)(uintptr_t)dl.cmds;
    w[4] = dl.vertex_count;
    w[5] = dl.index_count;
    w[6] = dl.cmd_count;
    w[7] = (uint32_t)sizeof(sinew_draw_cmd);
    return w;
}
/* The layout of one sinew_draw_cmd, as words: its size and the offsets of page, blend, color,
 * region, first_vertex, vertex_count, first_index, index_count, slot, depth, armature. */
static const uint32_t g_drawcmd_layout[12] = {
    sizeof(sinew_draw_cmd),
    offsetof(sinew_draw_cmd, page),
    offsetof(sinew_draw_cmd, blend),
    offsetof(sinew_draw_cmd, color),
    offsetof(sinew_draw_cmd, region),
    offsetof(sinew_draw_cmd, first_vertex),
    offsetof(sinew_draw_cmd, vertex_count),
    offsetof(sinew_draw_cmd, first_index),
    offsetof(sinew_draw_cmd, index_count),
    offsetof(sinew_draw_cmd, slot),
    offsetof(sinew_draw_cmd, depth),
    offsetof(sinew_draw_cmd, armature),
};
EXPORT(sw_drawlist_layout) const uint32_t *sw_drawlist_layout(void) { return g_drawcmd_layout; }

/* Bounds of the current pose into g_out.f[0..3] (x0 y0 x1 y1); 0 when it draws nothing. */
EXPORT(sw_bounds) int sw_bounds(sinew_instance *inst) {
    sinew_rect r;
    if (!sinew_instance_bounds(inst, &r))
        return 0;
    g_out.f[0] = r.x0, g_out.f[1] = r.y0, g_out.f[2] = r.x1, g_out.f[3] = r.y1;
    return 1;
}
/* The topmost slot drawn at (x, y): g_out.u[0] armature, u[1] slot; 0 when none. */
EXPORT(sw_hit) int sw_hit(sinew_instance *inst, float x, float y) {
    uint32_t a = 0, s = 0;
    if (!sinew_instance_hit(inst, x, y, &a, &s))
        return 0;
    g_out.u[0] = a;
    g_out.u[1] = s;
    return 1;
}
EXPORT(sw_slot_contains_point) int sw_slot_contains_point(const sinew_instance *inst, uint32_t arm, uint32_t slot, float x,
                                                          float y) {
    return sinew_instance_slot_contains_point(inst, arm, slot, x, y);
}
/* A slot's boundingBox outline into `xy` (cap points); returns the point count. */
EXPORT(sw_slot_bounding_box) uint32_t sw_slot_bounding_box(const sinew_instance *inst, uint32_t arm, uint32_t slot, float *xy,
                                                           uint32_t cap) {
    return sinew_instance_slot_bounding_box(inst, arm, slot, xy, cap);
}
/* Armature.intersectsSegment: g_out.u[0..1] slots, f[2..7] ax ay bx by normal_a normal_b. */
EXPORT(sw_intersects_segment) int sw_intersects_segment(const sinew_instance *inst, uint32_t arm, float xa, float ya, float xb,
                                                        float yb) {
    sinew_segment_hit h;
    if (!sinew_instance_intersects_segment(inst, arm, xa, ya, xb, yb, &h))
        return 0;
    g_out.u[0] = h.slot_a, g_out.u[1] = h.slot_b;
    g_out.f[2] = h.ax, g_out.f[3] = h.ay, g_out.f[4] = h.bx, g_out.f[5] = h.by;
    g_out.f[6] = h.normal_a, g_out.f[7] = h.normal_b;
    return 1;
}
EXPORT(sw_set_bone_offset)
int sw_set_bone_offset(sinew_instance *inst, uint32_t arm, const char *bone, int clear, float x, float y, float rotation,
                       float skew, float scale_x, float scale_y) {
    err_reset();
    sinew_bone_offset o = {x, y, rotation, skew, scale_x, scale_y};
    return (int)sinew_instance_set_bone_offset(inst, arm, bone, clear ? NULL : &o, &g_err);
}
EXPORT(sw_bone_follow) int sw_bone_follow(sinew_instance *inst, uint32_t arm, const char *bone, float x, float y) {
    err_reset();
    return (int)sinew_instance_bone_follow(inst, arm, bone, x, y, &g_err);
}
EXPORT(sw_replace_display)
int sw_replace_display(sinew_instance *inst, uint32_t arm, const char *slot, const char *source_armature,
                       const char *source_slot, const char *display, int32_t index) {
    err_reset();
    return (int)sinew_instance_replace_display_from(inst, arm, slot, or_null(source_armature), or_null(source_slot),
                                                    display, index, &g_err);
}
EXPORT(sw_replace_display_region)
int sw_replace_display_region(sinew_instance *inst, uint32_t arm, const char *slot, uint32_t page, uint32_t page_width,
                              uint32_t page_height, float x, float y, float w, float h, float pivot_x, float pivot_y,
                              int32_t index) {
    err_reset();
    sinew_user_region r = {page, page_width, page_height, x, y, w, h, pivot_x, pivot_y};
    return (int)sinew_instance_replace_display_region(inst, arm, slot, &r, index, &g_err);
}

/* ---- scenario scripts -------------------------------------------------------------------- */

EXPORT(sw_script_load) sinew_script *sw_script_load(const void *buf, size_t len, const char *name, const sinew_data *d) {
    err_reset();
    sinew_load_options o = load_options();
    sinew_script *s = NULL;
    return sinew_script_load_buffer(buf, len, name, d, &o, &s, &g_err) == SINEW_OK ? s : NULL;
}
EXPORT(sw_script_destroy) void sw_script_destroy(sinew_script *s) { sinew_script_destroy(s); }
EXPORT(sw_script_count) uint32_t sw_script_count(const sinew_script *s) { return sinew_script_count(s); }
/* Scenario i into g_out.d: name, armature (pointers, 0 = none), fps, frames, command count. */
EXPORT(sw_script_scenario) int sw_script_scenario(const sinew_script *s, uint32_t i) {
    const sinew_scenario *sc = sinew_script_scenario(s, i);
    if (!sc)
        return 0;
    g_out.d[0] = (double)(uintptr_t)sc->name;
    g_out.d[1] = (double)(uintptr_t)sc->armature;
    g_out.d[2] = sc->fps;
    g_out.d[3] = sc->frames;
    g_out.d[4] = sc->command_count;
    return 1;
}
EXPORT(sw_script_command_time) double sw_script_command_time(const sinew_script *s, uint32_t i, uint32_t c) {
    const sinew_scenario *sc = sinew_script_scenario(s, i);
    return sc && c < sc->command_count ? sc->commands[c].t : 0.0;
}
EXPORT(sw_script_issue) int sw_script_issue(sinew_instance *inst, const sinew_script *s, uint32_t i, uint32_t c) {
    err_reset();
    const sinew_scenario *sc = sinew_script_scenario(s, i);
    if (!sc || c >= sc->command_count)
        return (int)SINEW_E_ARG;
    return (int)sinew_script_issue(inst, &sc->commands[c], &g_err);
}

/* ---- names ------------------------------------------------------------------------------- */

EXPORT(sw_event_type_name) const char *sw_event_type_name(int t) { return sinew_event_type_name((sinew_event_type)t); }
EXPORT(sw_blend_mode_name) const char *sw_blend_mode_name(int m) {
    const char *s = sinew_blend_mode_name((sinew_blend_mode)m);
    return s ? s : "";
}
EXPORT(sw_version) const char *sw_version(void) { return SINEW_VERSION_STRING; }
