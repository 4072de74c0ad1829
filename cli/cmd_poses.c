/* sinew poses: dump sampled poses in the reference oracle's JSON schema (step mode). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rules.h"
#include "sinew/atomic.h"
#include "sinew/data.h"
#include "sinew/instance.h"
#include "sinew/script.h"

const char sinew_cmd_poses_help[] = "dump sampled poses as JSON (the reference oracle's schema)";

const cli_help sinew_cmd_poses_usage = {
    "sinew poses FILE [--atlas TEX] [--armature NAME|all] [--skin NAME] [--animation NAME|all]\n"
    "                   [--fps N] [--frames N] [--cache-fps N] [--precision N] [--random C|seed:N]\n"
    "                   [--mode step|seek] [--constraints] [--out FILE]\n"
    "       sinew poses FILE --script SCENARIOS.json [--atlas TEX] [--skin NAME] [--precision N]\n"
    "                   [--max-states N] [--states] [--cache-fps N] [--random C|seed:N] [--constraints]\n"
    "                   [--out FILE]",
    "Samples every chosen animation on a fresh instance: sample 0 after a zero-time update,\n"
    "then one sample per 1/fps step. Output: the official runtime oracle's pose-dump JSON\n"
    "(docs/cli.md), on stdout or in --out. FILE is a DragonBones skeleton or a sinew XML rig.\n",
    "  --atlas TEX       texture atlas JSON: image slots then get their \"pivot\" (where the image\n"
    "                    sits on the slot), as the oracle's dumps do with --atlas\n"
    "  --armature NAME   the armature, or 'all' (default: the main one, else the first that has\n"
    "                    --animation)\n"
    "  --animation NAME  the animation, or 'all' (default: all)\n"
    "  --skin NAME       DragonBones: the skin overlaid on the default skin (with --armature all:\n"
    "                    the armatures that have it); an XML rig: the armature NAME@SKIN\n"
    "  --fps N           samples per second, (0, 1000] (default: the armature's frame rate)\n"
    "  --frames N        samples, 1..100000 (default: round(duration * fps) + 1)\n"
    "  --cache-fps N     the official frame cache at N frames per second, shared by every\n"
    "                    instance of the run (poses match cacheFrameRate = N)\n"
    "  --precision N     significant digits of every number, 1..17 (default 17)\n"
    "  --random C|seed:N the random source of DragonBones 6.0 physics: every draw the constant C in\n"
    "                    [0, 1), or mulberry32 seeded with N for each instance (default 0.5), as\n"
    "                    tools/oracle6's --random\n"
    "  --mode seek       each sample a goto_and_stop at its time on one instance off the clock (no\n"
    "                    6.0 physics), as the oracles' --mode seek (default step: one update per sample)\n"
    "  --constraints     each sample's constraint state (IK weights, path values, 6.0 transform and\n"
    "                    physics constraints), as tools/oracle6's --constraints\n"
    "  --out FILE        write the dump to FILE (atomically) instead of stdout\n"
    "  --script S.json   run scripted scenarios (play, fadeIn, gotoAndPlay, gotoAndStop, stop,\n"
    "                    timeScale, stateWeight, stateTimeScale; the oracle's scenario format,\n"
    "                    docs/runtime.md): one animation entry per scenario, under its armature\n"
    "  --max-states N    with --script: the states an armature may hold, 1..1024 (default 16);\n"
    "                    going past it is reported\n"
    "  --states          with --script: each sample's animation states (name, layer, times,\n"
    "                    weight, fade)\n"
    "  --drawlist        each sample's draw list (not in the oracle schema): per command its slot,\n"
    "                    display, armature depth, blend mode, colour, world vertices and page UVs;\n"
    "                    6.0 masks, shape fills and strokes and clipped commands also their flags,\n"
    "                    shape path and mask command (needs --atlas)\n"
    "  --replace SLOT,SOURCE,DISPLAY[,INDEX[,ARMATURE]]\n"
    "                    after play, put the default skin's display DISPLAY of slot SOURCE into\n"
    "                    SLOT at INDEX (-1: the current one), as the official replaceSlotDisplay;\n"
    "                    SOURCE is a slot of ARMATURE when given, else of the played armature\n"
    "                    (repeatable, at most 8)\n",
    "  sinew poses hero_ske.json --animation walk --precision 6 --out walk.poses.json\n"
    "  sinew poses hero_ske.json --armature all --fps 60 --frames 120\n"
    "  sinew poses hero_ske.json --script fades.json --states --out fades.poses.json\n",
    NULL};

typedef struct out_ctx {
    FILE *f;
    int precision;
    const sinew_data *data;   /* for slot names (maskedBy) */
    bool constraints;         /* --constraints: each sample's constraint state */
} out_ctx;

static void put_num(out_ctx *o, double v) {
    if (!isfinite(v)) {
        fputs("null", o->f);
        return;
    }
    if (v == 0.0)
        v = 0.0; /* no -0 */
    char buf[40];
    snprintf(buf, sizeof buf, "%.*g", o->precision, v);
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    fputs(buf, o->f);
}

static void put_str(out_ctx *o, const char *s) {
    if (!s) {
        fputs("null", o->f);
        return;
    }
    fputc('"', o->f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(o->f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(o->f, "\\u%04x", *p);
        else
            fputc(*p, o->f);
    }
    fputc('"', o->f);
}

static void put_matrix(out_ctx *o, const sinew_affine *m) {
    fputc('[', o->f);
    const float v[6] = {m->a, m->b, m->c, m->d, m->tx, m->ty};
    for (int i = 0; i < 6; ++i) {
        if (i)
            fputc(',', o->f);
        put_num(o, v[i]);
    }
    fputc(']', o->f);
}

/* ,"key":number */
static void put_member(out_ctx *o, const char *key, double v) {
    fprintf(o->f, ",\"%s\":", key);
    put_num(o, v);
}

/* A slot's colour transform: {"aM":..,"rM":..,"gM":..,"bM":..,"aO":..,"rO":..,"gO":..,"bO":..} */
static void put_color(out_ctx *o, const sinew_color_transform *c) {
    fputs("{\"aM\":", o->f);
    put_num(o, c->a_mul);
    put_member(o, "rM", c->r_mul);
    put_member(o, "gM", c->g_mul);
    put_member(o, "bM", c->b_mul);
    put_member(o, "aO", c->a_add);
    put_member(o, "rO", c->r_add);
    put_member(o, "gO", c->g_add);
    put_member(o, "bO", c->b_add);
    fputc('}', o->f);
}

static const char *display_type_name(int t) {
    static const char *const names[] = {"image", "armature", "mesh", "boundingBox", "path", "shape"};
    return t >= 0 && t < 6 ? names[t] : "image";
}

/* ,"KEY":{"weighted":..,"vertices":[...]} (n floats) */
static void put_vertices(out_ctx *o, const char *key, bool weighted, const float *v, uint32_t n) {
    fprintf(o->f, ",\"%s\":{\"weighted\":%s,\"vertices\":[", key, weighted ? "true" : "false");
    for (uint32_t i = 0; i < n; ++i) {
        if (i)
            fputc(',', o->f);
        put_num(o, v[i]);
    }
    fputs("]}", o->f);
}

static void put_pose(out_ctx *o, sinew_instance *inst, uint32_t ai, int depth);
static void put_constraints(out_ctx *o, sinew_instance *inst, uint32_t ai);

/* Prints "bones":[...],"slots":[...] */
static void put_pose_members(out_ctx *o, sinew_instance *inst, uint32_t ai, int depth) {
    FILE *f = o->f;
    fputs("\"bones\":[", f);
    uint32_t nb = sinew_instance_bone_count(inst, ai);
    for (uint32_t b = 0; b < nb; ++b) {
        const char *name = NULL;
        uint32_t parent = SINEW_INVALID_INDEX;
        sinew_affine m;
        sinew_instance_bone(inst, ai, b, &name, &parent, &m);
        const char *pname = NULL;
        if (parent != SINEW_INVALID_INDEX)
            sinew_instance_bone(inst, ai, parent, &pname, NULL, NULL);
        fputs(b ? ",{\"name\":" : "{\"name\":", f);
        put_str(o, name);
        fputs(",\"parent\":", f);
        put_str(o, pname);
        fputs(",\"matrix\":", f);
        put_matrix(o, &m);
        fputc('}', f);
    }
    fputs("],\"slots\":[", f);
    uint32_t ns = sinew_instance_slot_count(inst, ai);
    for (uint32_t k = 0; k < ns; ++k) {
        sinew_slot_state s;
        if (!sinew_instance_slot(inst, ai, k, &s))
            continue;
        const char *bname = NULL;
        sinew_instance_bone(inst, ai, s.parent, &bname, NULL, NULL);
        fputs(k ? ",{\"name\":" : "{\"name\":", f);
        put_str(o, s.name);
        fputs(",\"parent\":", f);
        put_str(o, bname);
        fprintf(f, ",\"displayIndex\":%d,\"display\":", (int)s.display_index);
        if (s.display_name) {
            fputs("{\"name\":", f);
            put_str(o, s.display_name);
            fputs(",\"path\":", f);
            put_str(o, s.display_path);
            fprintf(f, ",\"type\":\"%s\"}", display_type_name(s.display_type));
        } else {
            fputs("null", f);
        }
        fprintf(f, ",\"visible\":%s,\"zOrder\":%u,\"drawIndex\":%u,\"color\":", s.visible ? "true" : "false",
                s.draw_index, s.draw_index);
        put_color(o, &s.color);
        fprintf(f, ",\"blendMode\":%d,\"matrix\":", (int)s.blend);
        put_matrix(o, &s.world);
        if (s.has_pivot) {
            fputs(",\"pivot\":[", f);
            put_num(o, s.pivot_x);
            fputc(',', f);
            put_num(o, s.pivot_y);
            fputc(']', f);
        }
        if (s.mask) { /* 6.0 masks (tools/oracle6's schema) */
            fputs(",\"mask\":", f);
            put_num(o, s.mask_range);
        }
        if (s.masked_by != SINEW_INVALID_INDEX) {
            sinew_slot_info si;
            uint32_t da = sinew_data_find_armature(o->data, sinew_instance_armature_name(inst, ai));
            fputs(",\"maskedBy\":", f);
            put_str(o, sinew_data_get_slot_info(o->data, da, s.masked_by, &si) == SINEW_OK ? si.name : NULL);
        }
        static const char *const vertex_keys[6] = {NULL, NULL, "mesh", NULL, "path", "shape"};
        if (s.mesh_vertices && s.display_type >= 0 && s.display_type < 6 && vertex_keys[s.display_type])
            put_vertices(o, vertex_keys[s.display_type], s.mesh_weighted, s.mesh_vertices, 2 * s.mesh_vertex_count);
        if (s.child_armature != SINEW_INVALID_INDEX && depth < 8) {
            fputs(",\"childArmature\":{\"name\":", f);
            put_str(o, sinew_instance_armature_name(inst, s.child_armature));
            sinew_state_info si;
            fputs(",\"animation\":", f);
            uint32_t sc = sinew_instance_state_count(inst, s.child_armature);
            if (sc > 0 && sinew_instance_state(inst, s.child_armature, sc - 1, &si))
                put_str(o, si.name);
            else
                fputs("null", f);
            fputs(",\"pose\":", f);
            put_pose(o, inst, s.child_armature, depth + 1);
            fputc('}', f);
        }
        fputc('}', f);
    }
    fputs("]", f);
    if (o->constraints)
        put_constraints(o, inst, ai);
}

/* ,"constraints":[...]: each constraint's state (--constraints; tools/oracle6's schema) */
static void put_constraints(out_ctx *o, sinew_instance *inst, uint32_t ai) {
    FILE *f = o->f;
    fputs(",\"constraints\":[", f);
    uint32_t n = sinew_instance_constraint_count(inst, ai);
    for (uint32_t i = 0; i < n; ++i) {
        sinew_constraint_state c;
        if (!sinew_instance_constraint(inst, ai, i, &c))
            continue;
        static const char *const types[] = {"ik", "path", "transform", "physics"};
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        put_str(o, c.name);
        fprintf(f, ",\"type\":\"%s\"", types[c.type]);
        const char *bone = NULL, *target = NULL;
        sinew_instance_bone(inst, ai, c.bone, &bone, NULL, NULL);
        sinew_instance_bone(inst, ai, c.target, &target, NULL, NULL);
        if (c.type == SINEW_CONSTRAINT_IK) {
            put_member(o, "weight", c.weight);
            fprintf(f, ",\"bendPositive\":%s", c.bend_positive ? "true" : "false");
        } else if (c.type == SINEW_CONSTRAINT_PATH) {
            put_member(o, "position", c.position);
            put_member(o, "spacing", c.spacing);
            put_member(o, "rotateWeight", c.rotate_weight);
            put_member(o, "xWeight", c.x_weight);
            put_member(o, "yWeight", c.y_weight);
        } else {
            fputs(",\"bone\":", f);
            put_str(o, bone);
        }
        if (c.type == SINEW_CONSTRAINT_TRANSFORM) {
            fputs(",\"target\":", f);
            put_str(o, target);
        } else if (c.type == SINEW_CONSTRAINT_PHYSICS) {
            fprintf(f, ",\"sleeping\":%s,\"reset\":%s", c.sleeping ? "true" : "false", c.reset ? "true" : "false");
            const char *const keys[] = {"remaining",      "lastTime",     "xOffset",       "xVelocity", "yOffset",
                                        "yVelocity",      "rotateOffset", "rotateVelocity", "scaleOffset",
                                        "scaleVelocity"};
            const double vals[] = {c.remaining,      c.last_time,     c.x_offset,       c.x_velocity, c.y_offset,
                                   c.y_velocity,     c.rotate_offset, c.rotate_velocity, c.scale_offset,
                                   c.scale_velocity};
            for (int k = 0; k < 10; ++k)
                put_member(o, keys[k], vals[k]);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

static void put_pose(out_ctx *o, sinew_instance *inst, uint32_t ai, int depth) {
    fputc('{', o->f);
    put_pose_members(o, inst, ai, depth);
    fputc('}', o->f);
}

/* Events one update may queue before a dump reads them: a rig with many child armatures starts
 * each of them (fadeIn, fadeInComplete, start) in its first update. */
#define POSES_MAX_EVENTS 4096

static void warn_dropped_events(const char *file, const sinew_instance *inst, const char *what) {
    uint64_t n = sinew_instance_events_dropped(inst);
    if (n)
        fprintf(stderr, "%s: warning: '%s': %llu event(s) dropped, more than %d in one update\n", file, what,
                (unsigned long long)n, POSES_MAX_EVENTS);
}

static void put_events(out_ctx *o, sinew_instance *inst) {
    FILE *f = o->f;
    fputs("\"events\":[", f);
    sinew_event ev;
    bool first = true;
    while (sinew_instance_poll_event(inst, &ev)) {
        fputs(first ? "{\"type\":" : ",{\"type\":", f);
        first = false;
        put_str(o, sinew_event_type_name(ev.type));
        fputs(",\"name\":", f);
        put_str(o, ev.name);
        fputs(",\"armature\":", f);
        put_str(o, ev.armature);
        fputs(",\"animation\":", f);
        /* the reference reports "" when the state was recycled before delivery */
        put_str(o, ev.state_ended ? "" : ev.animation);
        put_member(o, "time", ev.time);
        if (ev.bone) {
            fputs(",\"bone\":", f);
            put_str(o, ev.bone);
        }
        if (ev.slot) {
            fputs(",\"slot\":", f);
            put_str(o, ev.slot);
        }
        fputc('}', f);
    }
    fputs("]", f);
}


typedef struct opts {
    const char *file, *atlas, *armature, *animation, *skin, *out, *script;
    double fps;
    long frames;
    int precision;
    uint32_t max_states;
    double cache_fps;
    sinew_frame_cache *cache; /* made from cache_fps once the data is loaded */
    bool states;
    bool drawlist;            /* --drawlist: each sample's draw list (not in the oracle schema) */
    bool constraints;         /* --constraints: each sample's constraint state (tools/oracle6's) */
    bool seek;                /* --mode seek: each sample a goto_and_stop off the clock (the oracles') */
    const char *random;       /* --random C|seed:N (6.0 physics; tools/oracle6's), NULL: 0.5 */
    sinew_random_kind random_kind;
    double random_constant;
    uint32_t random_seed;
    /* --replace SLOT,SOURCE,DISPLAY[,INDEX[,ARMATURE]] (sinew_instance_replace_display_from after
     * play) */
    struct replace_op {
        char slot[128], source[128], display[256], armature[128];
        int32_t index;
    } replace[8];
    uint32_t replace_count;
} opts;

/* "SLOT,SOURCE,DISPLAY[,INDEX[,ARMATURE]]" */
static bool parse_replace(const char *text, struct replace_op *r) {
    char buf[600];
    if (strlen(text) >= sizeof buf)
        return false;
    strcpy(buf, text);
    char *parts[5] = {NULL, NULL, NULL, NULL, NULL};
    int n = 0;
    for (char *p = buf; n < 5;) {
        parts[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    if (n < 3 || !parts[0][0] || !parts[1][0] || !parts[2][0] || strlen(parts[0]) >= sizeof r->slot ||
        strlen(parts[1]) >= sizeof r->source || strlen(parts[2]) >= sizeof r->display)
        return false;
    strcpy(r->slot, parts[0]);
    strcpy(r->source, parts[1]);
    strcpy(r->display, parts[2]);
    r->index = -1;
    r->armature[0] = '\0';
    if (n == 5) {
        if (!parts[4][0] || strlen(parts[4]) >= sizeof r->armature)
            return false;
        strcpy(r->armature, parts[4]);
    }
    if (n >= 4 && parts[3][0]) { /* empty: -1 */
        char *end = NULL;
        long v = strtol(parts[3], &end, 10);
        if (*end || v < -1 || v > 1000)
            return false;
        r->index = (int32_t)v;
    }
    return true;
}

/* The instance's random source from --random (the constant 0.5 without). */
static void set_random(const opts *op, sinew_instance_options *io) {
    io->random = op->random_kind;
    io->random_constant = op->random_constant;
    io->random_seed = op->random_seed;
}

/* --random C (a constant in [0, 1)) or seed:N (N in 0..4294967295), as tools/oracle6 takes it. */
static bool parse_random(const char *text, opts *op) {
    char *end = NULL;
    if (strncmp(text, "seed:", 5) == 0) {
        const char *d = text + 5;
        if (*d < '0' || *d > '9')
            return false;
        unsigned long long v = strtoull(d, &end, 10);
        if (*end || v > 4294967295ull)
            return false;
        op->random_kind = SINEW_RANDOM_SEED;
        op->random_seed = (uint32_t)v;
        return true;
    }
    double c = strtod(text, &end);
    if (end == text || *end || !(c >= 0.0 && c < 1.0))
        return false;
    op->random_kind = SINEW_RANDOM_CONSTANT;
    op->random_constant = c;
    return true;
}

static bool all_armatures(const opts *op) { return op->armature && strcmp(op->armature, "all") == 0; }

/* Whether armature `a` is dumped, and with which skin overlay. One named armature (or the first)
 * plus --skin goes through sinew_data_resolve_skin (an XML rig's skin is the armature NAME@SKIN);
 * with --armature all and --skin, the armatures the skin resolves to themselves. */
static bool arm_selected(const opts *op, const sinew_data *data, uint32_t a, const char **overlay) {
    *overlay = NULL;
    sinew_armature_info ai;
    if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
        return false;
    uint32_t target = SINEW_INVALID_INDEX;
    if (all_armatures(op)) {
        if (!op->skin)
            return true;
        return sinew_data_resolve_skin(data, ai.name, op->skin, &target, overlay, NULL) == SINEW_OK && target == a;
    }
    if (sinew_data_resolve_skin(data, op->armature, op->skin, &target, overlay, NULL) != SINEW_OK)
        return false;
    return target == a;
}

static void put_input(out_ctx *o, const opts *op, const sinew_data *data, const char *mode);

/* ,"KEY":[...]: the instance's draw list (--drawlist; not in the oracle schema): per command
 * the slot and display it draws, its armature depth, for a 6.0 armature's mask, shape or clipped
 * command its flags ("mask", "fill", "stroke"), shape path (part) and mask command (-1: none), the
 * blend mode, colour (r g b a multipliers, then r g b a offsets), the world vertices (x, y pairs,
 * armature space, y down) and the page UVs, back to front. */
static void put_drawlist(out_ctx *o, sinew_instance *inst, const char *key) {
    FILE *f = o->f;
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    fprintf(f, ",\"%s\":[", key);
    for (uint32_t i = 0; i < dl.cmd_count; ++i) {
        const sinew_draw_cmd *cmd = &dl.cmds[i];
        sinew_slot_state ss;
        memset(&ss, 0, sizeof ss);
        bool found = false;
        uint32_t n = sinew_instance_slot_count(inst, cmd->armature);
        for (uint32_t d = 0; d < n && !found; ++d)
            found = sinew_instance_slot(inst, cmd->armature, d, &ss) && ss.index == cmd->slot;
        fputs(i ? ",{\"slot\":" : "{\"slot\":", f);
        put_str(o, found ? ss.name : "");
        fputs(",\"display\":", f);
        put_str(o, found && ss.display_name ? ss.display_name : "");
        fprintf(f, ",\"depth\":%u,", cmd->depth);
        if (cmd->flags || cmd->mask) /* 6.0 only: a mask, a shape's fill or stroke, a clipped command */
            fprintf(f, "\"flags\":[%s%s%s],\"part\":%u,\"mask\":%d,", cmd->flags & SINEW_DRAW_MASK ? "\"mask\"" : "",
                    (cmd->flags & SINEW_DRAW_FILL) ? (cmd->flags & SINEW_DRAW_MASK ? ",\"fill\"" : "\"fill\"") : "",
                    (cmd->flags & SINEW_DRAW_STROKE) ? (cmd->flags & (SINEW_DRAW_MASK | SINEW_DRAW_FILL) ? ",\"stroke\"" : "\"stroke\"") : "",
                    cmd->part, cmd->mask ? (int)(cmd->mask - 1u) : -1);
        fputs("\"blend\":", f);
        put_str(o, sinew_blend_mode_name(cmd->blend) ? sinew_blend_mode_name(cmd->blend) : "");
        fputs(",\"color\":[", f);
        const float col[8] = {cmd->color.r_mul, cmd->color.g_mul, cmd->color.b_mul, cmd->color.a_mul,
                              cmd->color.r_add, cmd->color.g_add, cmd->color.b_add, cmd->color.a_add};
        for (int c = 0; c < 8; ++c) {
            if (c)
                fputc(',', f);
            put_num(o, col[c]);
        }
        fputs("],\"vertices\":[", f);
        for (uint32_t v = 0; v < 2 * cmd->vertex_count; ++v) {
            if (v)
                fputc(',', f);
            put_num(o, dl.positions[2 * (size_t)cmd->first_vertex + v]);
        }
        fputs("],\"uvs\":[", f);
        for (uint32_t v = 0; v < 2 * cmd->vertex_count; ++v) {
            if (v)
                fputc(',', f);
            put_num(o, dl.uvs[2 * (size_t)cmd->first_vertex + v]);
        }
        fputs("]}", f);
    }
    fputc(']', f);
}

static int run(const opts *op, FILE *f, const sinew_data *data, const sinew_atlas *atlas) {
    out_ctx o = {f, op->precision, data, op->constraints};
    put_input(&o, op, data, op->seek ? "seek" : "step");
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    bool first_arm = true;
    for (uint32_t a = 0; a < di.armature_count; ++a) {
        sinew_armature_info ai;
        if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
            continue;
        const char *overlay = NULL;
        if (!arm_selected(op, data, a, &overlay))
            continue;
        double fps = op->fps > 0.0 ? op->fps : (double)ai.frame_rate;
        double dt = 1.0 / fps;
        if (!first_arm)
            fputc(',', f);
        first_arm = false;
        fputs("{\"name\":", f);
        put_str(&o, ai.name);
        put_member(&o, "frameRate", ai.frame_rate);
        put_member(&o, "sampleRate", fps);
        sinew_instance_options io;
        memset(&io, 0, sizeof io);
        io.armature = ai.name;
        io.skin = overlay;
        io.atlas = atlas;
        io.frame_cache = op->cache;
        io.max_events = POSES_MAX_EVENTS;
        io.no_clock = op->seek; /* seeking: no armature on a clock (no 6.0 physics), as the oracles */
        set_random(op, &io);
        sinew_error err;
        memset(&err, 0, sizeof err);
        if (ai.animation_count == 0) {
            sinew_instance *inst = NULL;
            if (sinew_instance_create(data, &io, &inst, &err) != SINEW_OK) {
                cli_print_error(op->file, &err);
                return cli_exit_code(err.code);
            }
            sinew_instance_update(inst, 0.0);
            while (sinew_instance_poll_event(inst, NULL)) {
            }
            fputs(",\"setupPose\":", f);
            put_pose(&o, inst, 0, 0);
            if (op->drawlist)
                put_drawlist(&o, inst, "setupDrawlist");
            sinew_instance_destroy(inst);
        }
        fputs(",\"animations\":[", f);
        bool first_anim = true;
        for (uint32_t an = 0; an < ai.animation_count; ++an) {
            sinew_animation_info ni;
            if (sinew_data_get_animation_info(data, a, an, &ni) != SINEW_OK)
                continue;
            if (op->animation && strcmp(op->animation, "all") != 0 && strcmp(op->animation, ni.name) != 0)
                continue;
            /* the animation's whole frames as the runtime counts them (6.0: 0 allowed) */
            double frames_f = ni.frames >= 1.0f ? floor((double)ni.frames) : (di.v6 ? 0.0 : 1.0);
            double duration = frames_f / (double)ai.frame_rate;
            long frames = op->frames > 0 ? op->frames : (long)fmax(1.0, floor(duration * fps + 0.5)) + 1;
            sinew_instance *inst = NULL;
            if (sinew_instance_create(data, &io, &inst, &err) != SINEW_OK) {
                cli_print_error(op->file, &err);
                return cli_exit_code(err.code);
            }
            if (!op->seek && sinew_instance_play(inst, ni.name, -1, &err) != SINEW_OK) {
                cli_print_error(op->file, &err);
                sinew_instance_destroy(inst);
                return cli_exit_code(err.code);
            }
            for (uint32_t r = 0; r < op->replace_count; ++r) {
                const struct replace_op *ro = &op->replace[r];
                if (sinew_instance_replace_display_from(inst, 0, ro->slot, ro->armature[0] ? ro->armature : NULL,
                                                        ro->source, ro->display, ro->index, &err) != SINEW_OK) {
                    cli_print_error(op->file, &err);
                    sinew_instance_destroy(inst);
                    return cli_exit_code(err.code);
                }
            }
            if (!op->seek)
                sinew_instance_update(inst, 0.0);
            if (!first_anim)
                fputc(',', f);
            first_anim = false;
            fputs("{\"name\":", f);
            put_str(&o, ni.name);
            put_member(&o, "duration", duration);
            fprintf(f, ",\"frameCount\":%.0f,\"playTimes\":%d,\"samples\":[", frames_f, (int)ni.play_times);
            for (long k = 0; k < frames; ++k) {
                if (op->seek) { /* the oracles' seek mode: gotoAndStopByTime, a zero-time update, no events */
                    sinew_instance_goto_and_stop(inst, 0, ni.name, SINEW_GOTO_TIME, (double)k * dt, &err);
                    sinew_instance_update(inst, 0.0);
                    while (sinew_instance_poll_event(inst, NULL)) {
                    }
                } else if (k > 0) {
                    sinew_instance_update(inst, dt);
                }
                sinew_state_info si;
                memset(&si, 0, sizeof si);
                uint32_t sc = sinew_instance_state_count(inst, 0);
                for (uint32_t i = 0; i < sc; ++i) {
                    sinew_state_info t;
                    if (sinew_instance_state(inst, 0, i, &t) && strcmp(t.name, ni.name) == 0)
                        si = t;
                }
                fprintf(f, "%s{\"frame\":%ld,\"time\":", k ? "," : "", k);
                put_num(&o, (double)k * dt);
                put_member(&o, "stateTime", si.current_time);
                fprintf(f, ",\"playTimes\":%d,", (int)si.play_times);
                put_events(&o, inst);
                fputc(',', f);
                put_pose_members(&o, inst, 0, 0);
                if (op->drawlist)
                    put_drawlist(&o, inst, "drawlist");
                fputc('}', f);
            }
            fputs("]}", f);
            warn_dropped_events(op->file, inst, ni.name);
            sinew_instance_destroy(inst);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    return SINEW_EXIT_OK;
}

/* ,"states":[...]: the top armature's animation states (--states; not in the oracle schema). */
static void put_states(out_ctx *o, const sinew_instance *inst) {
    FILE *f = o->f;
    fputs(",\"states\":[", f);
    uint32_t n = sinew_instance_state_count(inst, 0);
    for (uint32_t i = 0; i < n; ++i) {
        sinew_state_info s;
        if (!sinew_instance_state(inst, 0, i, &s))
            continue;
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        put_str(o, s.name);
        fputs(",\"group\":", f);
        put_str(o, s.group);
        fprintf(f, ",\"layer\":%d,\"playTimes\":%d,\"currentPlayTimes\":%d,\"currentTime\":", (int)s.layer,
                (int)s.play_times, (int)s.current_play_times);
        put_num(o, s.current_time);
        put_member(o, "weight", s.weight);
        put_member(o, "fadeProgress", s.fade_progress);
        put_member(o, "timeScale", s.time_scale);
        fprintf(f, ",\"playing\":%s,\"completed\":%s,\"fadingIn\":%s,\"fadingOut\":%s}", s.playing ? "true" : "false",
                s.completed ? "true" : "false", s.fading_in ? "true" : "false", s.fading_out ? "true" : "false");
    }
    fputc(']', f);
}

/* The header shared by both dumps, up to the armature list. */
static void put_input(out_ctx *o, const opts *op, const sinew_data *data, const char *mode) {
    FILE *f = o->f;
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    const char *base = strrchr(op->file, '/');
    base = base ? base + 1 : op->file;
    fprintf(f, "{\"oracle\":{\"version\":1,\"runtime\":\"sinew\",\"runtimeVersion\":\"" SINEW_VERSION_STRING
               "\",\"yDown\":true,\"mode\":\"%s\",\"angleUnit\":\"radian\",\"matrix\":\"[a,b,c,d,tx,ty]: x' = "
               "a*x + c*y + tx, y' = b*x + d*y + ty\"",
            mode);
    if (di.v6) { /* what a 6.0 file plays as, and the random source (tools/oracle6's "random") */
        fputs(",\"plays\":\"DragonBones 6.0, as DragonBonesJS 6.0.2 (tools/oracle6)\",\"random\":", f);
        put_str(o, op->random ? op->random : "0.5");
    }
    fputs("},\"input\":{\"file\":", f);
    put_str(o, base);
    fputs(",\"atlas\":", f);
    if (op->atlas) {
        const char *ab = strrchr(op->atlas, '/');
        put_str(o, ab ? ab + 1 : op->atlas);
    } else {
        fputs("null", f);
    }
    fputs(",\"name\":", f);
    put_str(o, di.name);
    fputs(",\"version\":", f);
    put_str(o, di.version);
    fputs(",\"compatibleVersion\":", f);
    put_str(o, di.compatible_version ? di.compatible_version : "");
    put_member(o, "frameRate", di.frame_rate);
    fputs("},\"armatures\":[", f);
}

/* Runs one scenario the way the oracle's scenario.mjs does: the commands due at t <= 0, a
 * zero-time update and sample 0; then before each later sample k the commands with
 * t <= (k-1)/fps not issued yet, in t order, and one update of 1/fps. */
static int run_scenario(const opts *op, out_ctx *o, const sinew_data *data, const sinew_atlas *atlas,
                        const sinew_scenario *sc, uint32_t arm_index, bool first) {
    FILE *f = o->f;
    sinew_armature_info ai;
    sinew_data_get_armature_info(data, arm_index, &ai);
    uint32_t target = arm_index;
    const char *overlay = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    if (op->skin && sinew_data_resolve_skin(data, ai.name, op->skin, &target, &overlay, &err) != SINEW_OK) {
        cli_print_error(op->file, &err);
        return cli_exit_code(err.code);
    }
    sinew_armature_info ti;
    sinew_data_get_armature_info(data, target, &ti);
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = ti.name;
    io.skin = overlay;
    io.atlas = atlas;
    io.max_states = op->max_states;
    io.frame_cache = op->cache;
    io.max_events = POSES_MAX_EVENTS;
    set_random(op, &io);
    sinew_instance *inst = NULL;
    if (sinew_instance_create(data, &io, &inst, &err) != SINEW_OK) {
        cli_print_error(op->file, &err);
        return cli_exit_code(err.code);
    }
    double dt = 1.0 / sc->fps;
    uint32_t ci = 0;
    int rc = SINEW_EXIT_OK;
    /* issue(t): every command due at or before t (the oracle's 1e-9 slack) */
#define ISSUE_DUE(time)                                                                           \
    while (rc == SINEW_EXIT_OK && ci < sc->command_count && sc->commands[ci].t <= (time) + 1e-9) {   \
        if (sinew_script_issue(inst, &sc->commands[ci++], &err) != SINEW_OK) {                    \
            cli_print_error(op->script, &err);                                                    \
            rc = cli_exit_code(err.code);                                                         \
        }                                                                                         \
    }
    ISSUE_DUE(0.0);
    sinew_instance_update(inst, 0.0);
    if (!first)
        fputc(',', f);
    fputs("{\"name\":", f);
    put_str(o, sc->name);
    put_member(o, "duration", (double)sc->frames / sc->fps);
    fprintf(f, ",\"frameCount\":%u,\"playTimes\":0,\"samples\":[", sc->frames);
    for (uint32_t k = 0; k < sc->frames && rc == SINEW_EXIT_OK; ++k) {
        if (k > 0) {
            ISSUE_DUE((double)(k - 1) * dt);
            sinew_instance_update(inst, dt);
        }
        fprintf(f, "%s{\"frame\":%u,\"time\":", k ? "," : "", k);
        put_num(o, (double)k * dt);
        fputc(',', f);
        put_events(o, inst);
        if (op->states)
            put_states(o, inst);
        fputc(',', f);
        put_pose_members(o, inst, 0, 0);
        fputc('}', f);
    }
#undef ISSUE_DUE
    fputs("]}", f);
    warn_dropped_events(op->script, inst, sc->name);
    uint64_t dropped = sinew_instance_states_dropped(inst);
    if (dropped)
        fprintf(stderr, "%s: warning: scenario '%s': %llu animation state(s) dropped: an armature held its "
                        "limit of %u (--max-states) or could not allocate room for one more\n",
                op->script, sc->name, (unsigned long long)dropped, sinew_instance_max_states(inst));
    sinew_instance_destroy(inst);
    return rc;
}

static int run_script(const opts *op, FILE *f, const sinew_data *data, const sinew_atlas *atlas,
                      const sinew_script *script) {
    out_ctx o = {f, op->precision, data, op->constraints};
    put_input(&o, op, data, "scenario");
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    uint32_t n = sinew_script_count(script);
    /* armatures in the order they first appear, each with its scenarios (as scenario.mjs) */
    bool first_arm = true;
    for (uint32_t i = 0; i < n; ++i) {
        const sinew_scenario *sc = sinew_script_scenario(script, i);
        uint32_t a = sc->armature ? sinew_data_find_armature(data, sc->armature) : 0;
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; ++j) {
            const sinew_scenario *p = sinew_script_scenario(script, j);
            seen = (p->armature ? sinew_data_find_armature(data, p->armature) : 0) == a;
        }
        if (seen)
            continue;
        sinew_armature_info ai;
        if (a >= di.armature_count || sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
            continue;
        if (!first_arm)
            fputc(',', f);
        first_arm = false;
        fputs("{\"name\":", f);
        put_str(&o, ai.name);
        put_member(&o, "frameRate", ai.frame_rate);
        put_member(&o, "sampleRate", sc->fps);
        fputs(",\"animations\":[", f);
        bool first = true;
        for (uint32_t j = i; j < n; ++j) {
            const sinew_scenario *s = sinew_script_scenario(script, j);
            if ((s->armature ? sinew_data_find_armature(data, s->armature) : 0) != a)
                continue;
            int rc = run_scenario(op, &o, data, atlas, s, a, first);
            if (rc != SINEW_EXIT_OK)
                return rc;
            first = false;
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    return SINEW_EXIT_OK;
}

/* The load's warnings, kept until it is known whether the file is a 6.0 one: those are printed
 * (what the 6.0 runtime would make NaN, what sinew plays differently), a 5.x file's are not (its
 * dumps and messages stay as they were). */
typedef struct held_warnings {
    sinew_error *items;
    size_t count, cap;
} held_warnings;

static void hold_warning(void *user, sinew_log_level level, const sinew_error *where) {
    held_warnings *h = user;
    if (level != SINEW_LOG_WARNING || !where)
        return;
    if (h->count == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 16;
        sinew_error *more = realloc(h->items, cap * sizeof *more);
        if (!more)
            return;
        h->items = more;
        h->cap = cap;
    }
    h->items[h->count++] = *where;
}

int sinew_cmd_poses(int argc, char **argv) {
    opts op;
    memset(&op, 0, sizeof op);
    op.precision = 17;
    int rc;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            cli_help_print(&sinew_cmd_poses_usage);
            return SINEW_EXIT_OK;
        }
        bool has_val = i + 1 < argc;
        if (strcmp(a, "--atlas") == 0 && has_val)
            op.atlas = argv[++i];
        else if (strcmp(a, "--armature") == 0 && has_val)
            op.armature = argv[++i];
        else if (strcmp(a, "--animation") == 0 && has_val)
            op.animation = argv[++i];
        else if (strcmp(a, "--skin") == 0 && has_val)
            op.skin = argv[++i][0] ? argv[i] : NULL;
        else if (strcmp(a, "--out") == 0 && has_val)
            op.out = argv[++i];
        else if (strcmp(a, "--script") == 0 && has_val)
            op.script = argv[++i];
        else if (strcmp(a, "--replace") == 0 && has_val) {
            if (op.replace_count == 8 || !parse_replace(argv[++i], &op.replace[op.replace_count]))
                return cli_usage_error("poses", "--replace wants SLOT,SOURCE_SLOT,DISPLAY[,INDEX[,ARMATURE]] (at most 8)");
            op.replace_count++;
        } else if (strcmp(a, "--states") == 0)
            op.states = true;
        else if (strcmp(a, "--constraints") == 0)
            op.constraints = true;
        else if (strcmp(a, "--mode") == 0 && has_val) {
            const char *m = argv[++i];
            if (strcmp(m, "seek") != 0 && strcmp(m, "step") != 0)
                return cli_usage_error("poses", "--mode wants step or seek");
            op.seek = strcmp(m, "seek") == 0;
        }
        else if (strcmp(a, "--random") == 0 && has_val) {
            op.random = argv[++i];
            if (!parse_random(op.random, &op))
                return cli_usage_error("poses", "--random wants a constant in [0, 1) or seed:N (N 0..4294967295)");
        }
        else if (strcmp(a, "--drawlist") == 0)
            op.drawlist = true;
        else if (strcmp(a, "--cache-fps") == 0 && has_val) {
            if ((rc = cli_number("poses", a, argv[++i], &op.cache_fps)))
                return rc;
        } else if (strcmp(a, "--max-states") == 0 && has_val) {
            long v;
            if ((rc = cli_whole("poses", a, argv[++i], &v)))
                return rc;
            op.max_states = (uint32_t)v;
        } else if (strcmp(a, "--fps") == 0 && has_val) {
            if ((rc = cli_number("poses", a, argv[++i], &op.fps)))
                return rc;
        } else if (strcmp(a, "--frames") == 0 && has_val) {
            if ((rc = cli_whole("poses", a, argv[++i], &op.frames)))
                return rc;
        } else if (strcmp(a, "--precision") == 0 && has_val) {
            long p;
            if ((rc = cli_whole("poses", a, argv[++i], &p)))
                return rc;
            op.precision = (int)p;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("poses", a);
        } else if (!op.file) {
            op.file = a;
        } else {
            return cli_usage_error("poses", "unexpected argument: %s", a);
        }
    }
    if (!op.file)
        return cli_usage_error("poses", "missing FILE");
    if (op.drawlist && op.script)
        return cli_usage_error("poses", "--drawlist goes with the step mode, not --script");
    if (op.drawlist && !op.atlas)
        return cli_usage_error("poses", "--drawlist needs --atlas (images are sized by their regions)");
    if (op.script && (op.armature || op.animation || op.fps > 0.0 || op.frames > 0))
        return cli_usage_error("poses", "--script takes its armatures, animations, fps and frames from the script");
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *data = NULL;
    held_warnings held = {NULL, 0, 0};
    sinew_load_options load;
    memset(&load, 0, sizeof load);
    load.log = hold_warning;
    load.log_user = &held;
    sinew_status lst = sinew_data_load_file(op.file, &load, &data, &err);
    sinew_data_info li;
    if (lst == SINEW_OK)
        sinew_data_get_info(data, &li);
    if (lst == SINEW_OK && li.v6)
        for (size_t w = 0; w < held.count; ++w)
            cli_print_warning(op.file, &held.items[w]);
    free(held.items);
    if (lst != SINEW_OK) {
        cli_print_error(op.file, &err);
        return cli_exit_code(err.code);
    }
    sinew_atlas *atlas = NULL;
    if (op.atlas) {
        memset(&err, 0, sizeof err);
        if (sinew_atlas_load_file(op.atlas, NULL, &atlas, &err) != SINEW_OK) {
            cli_print_error(op.atlas, &err);
            sinew_data_destroy(data);
            return cli_exit_code(err.code);
        }
    }
    sinew_script *script = NULL;
    if (op.script) {
        sinew_load_options lo;
        memset(&lo, 0, sizeof lo);
        lo.log = cli_log;
        lo.log_user = (void *)op.script;
        memset(&err, 0, sizeof err);
        if (sinew_script_load_file(op.script, data, &lo, &script, &err) != SINEW_OK) {
            cli_print_error(op.script, &err);
            sinew_atlas_destroy(atlas);
            sinew_data_destroy(data);
            return cli_exit_code(err.code);
        }
    }
    /* names must exist */
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    rc = SINEW_EXIT_OK;
    bool one_animation = op.animation && strcmp(op.animation, "all") != 0;
    if (!op.armature && one_animation && !op.script) {
        /* the first armature that has the animation (cli/rules.h) */
        uint32_t a = cli_default_armature(data, op.animation);
        sinew_armature_info ai;
        if (a == SINEW_INVALID_INDEX)
            rc = cli_unknown_animation(data, op.file, SINEW_INVALID_INDEX, op.animation);
        else if (sinew_data_get_armature_info(data, a, &ai) == SINEW_OK)
            op.armature = ai.name;
    }
    if (rc != SINEW_EXIT_OK) {
    } else if (!all_armatures(&op)) {
        /* one armature: its name and the skin must exist (the error lists the names) */
        uint32_t target;
        const char *overlay;
        if (sinew_data_resolve_skin(data, op.armature, op.skin, &target, &overlay, &err) != SINEW_OK) {
            cli_print_error(op.file, &err);
            rc = cli_exit_code(err.code);
        }
    } else if (op.skin) {
        bool any = false;
        for (uint32_t a = 0; a < di.armature_count && !any; ++a) {
            const char *overlay;
            any = arm_selected(&op, data, a, &overlay);
        }
        if (!any) {
            fprintf(stderr, "%s: error: no armature has the skin '%s'\n", op.file, op.skin);
            rc = SINEW_EXIT_INPUT;
        }
    }
    if (rc == SINEW_EXIT_OK && one_animation) {
        bool found = false;
        for (uint32_t a = 0; a < di.armature_count && !found; ++a) {
            sinew_armature_info ai;
            const char *overlay;
            if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK || !arm_selected(&op, data, a, &overlay))
                continue;
            found = sinew_data_find_animation(data, a, op.animation) != SINEW_INVALID_INDEX;
            if (!found) {
                rc = cli_unknown_animation(data, op.file, a, op.animation);
                break;
            }
        }
    }
    if (rc == SINEW_EXIT_OK && op.cache_fps > 0.0 &&
        sinew_frame_cache_create(data, op.cache_fps, NULL, &op.cache, &err) != SINEW_OK) {
        cli_print_error(op.file, &err);
        rc = cli_exit_code(err.code);
    }
    if (rc == SINEW_EXIT_OK) {
        FILE *f = stdout;
        sinew_atomic_file *af = NULL;
        sinew_error werr = {0};
        if (op.out) {
            const char *inputs[2] = {op.file, op.atlas};
            if (sinew_atomic_open(op.out, inputs, op.atlas ? 2u : 1u, &af, &f, &werr) != SINEW_OK) {
                cli_print_error(op.out, &werr);
                rc = cli_exit_code(werr.code) == SINEW_EXIT_USAGE ? SINEW_EXIT_INPUT : SINEW_EXIT_IO;
            }
        }
        if (rc == SINEW_EXIT_OK) {
            static char buf[1 << 16];
            setvbuf(f, buf, _IOFBF, sizeof buf);
            rc = script ? run_script(&op, f, data, atlas, script) : run(&op, f, data, atlas);
            if (!af) {
                fflush(stdout);
            } else if (rc != SINEW_EXIT_OK) {
                sinew_atomic_discard(af);
            } else if (sinew_atomic_commit(af, &werr) != SINEW_OK) {
                cli_print_error(op.out, &werr);
                rc = SINEW_EXIT_IO;
            }
        }
    }
    sinew_frame_cache_destroy(op.cache);
    sinew_script_destroy(script);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return rc;
}
