/* sinew view: a preview window (SDL2 + the GL backend) that reloads the rig when it changes on
 * disk, and --screenshot, which draws render's frame through the same GL path (docs/view.md). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "rules.h"

const char sinew_cmd_view_help[] = "preview a rig in a window (reloads on save); --screenshot draws a frame with GL";

const cli_help sinew_cmd_view_usage = {
    "sinew view FILE [--atlas TEX] [--armature NAME] [--skin NAME] [--animation NAME] [--fade S]\n"
    "                  [--paused] [--show bones,wireframe,bounds] [--quit-after S] [--capture OUT.png]\n"
    "       sinew view FILE --screenshot OUT.png [--frame K] [render's options]",
    "Plays an animation in a window drawn by the GL backend (OpenGL 3.3), framed as render frames it\n"
    "(the bounds of the whole animation, kept while switching), and reloads the rig when\n"
    "it, its atlas or a page image changes on disk, keeping the animation and time; a broken file\n"
    "leaves the last good rig on screen and shows its file:line:col: error (also on stderr).\n"
    "Keys: Space pause, Left/Right step a frame, Up/Down speed x2 / /2, Tab / Shift+Tab cross-fade\n"
    "to the next / previous animation, A next armature, S next skin, Home restart, + / - or the\n"
    "wheel zoom, drag to pan, F or 0 fit the view to the animation again, B bones, W mesh wireframe,\n"
    "X the bounds of each\n"
    "slot and the boundingBox polygons,\n"
    "Escape or Q quit; a click names the slot under the mouse, the right button held makes the\n"
    "IK targets follow it. The bottom line shows file, armature, animation, frame, time, speed.\n"
    "--screenshot draws the frame `sinew render` would write for the same options through the GL\n"
    "path, offscreen, and exits; it takes render's framing options (--size, --scale, --origin,\n"
    "--padding, --background, --skin, --fps, --frame) with the same meaning.\n",
    "  --atlas TEX       texture atlas JSON (default: found next to FILE)\n"
    "  --armature NAME   the armature (default: the main one, else the first that has --animation)\n"
    "  --animation NAME  the animation (default: the armature's default animation)\n"
    "  --skin NAME       skin overlaid on the default skin (an XML rig: its armature NAME@SKIN)\n"
    "  --fade S          cross-fade time when switching animations, 0..10 s (default 0.2)\n"
    "  --paused          start paused\n"
    "  --show LIST       start with overlays on: bones, wireframe, bounds (keys B, W, X)\n"
    "  --quit-after S    close the window after S seconds (scripts, tests)\n"
    "  --capture OUT.png write the window's last frame to OUT.png when it closes\n"
    "  --screenshot OUT.png  draw one frame offscreen and exit (see above)\n",
    "  sinew view hero_ske.json --animation walk\n"
    "  sinew view pip.xml\n"
    "  sinew view hero_ske.json --animation walk --frame 6 --size 256x256 --screenshot walk6.png\n",
    "view exits 2 when there is no display to open a window on (use --screenshot, or xvfb-run).\n"};

#ifndef SINEW_HAVE_VIEW

int sinew_cmd_view(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            cli_help_print(&sinew_cmd_view_usage);
            return SINEW_EXIT_OK;
        }
    fprintf(stderr, "sinew view: this sinew was built without SDL2 and the GL backend "
                    "(apt-get install libsdl2-dev libgl-dev, then rebuild)\n");
    return SINEW_EXIT_INPUT;
}

#else

#include <SDL.h>
#ifdef SINEW_HAVE_TTF
#include <SDL_ttf.h>
#endif

#include "render_frame.h"
#include "rig_inputs.h"
#include "sinew/export.h"
#include "sinew/gl.h"
#include "sinew/instance.h"

/* ---- GL: the few calls the viewer makes itself --------------------------------------------- */

typedef struct gl_calls {
    void (*viewport)(int, int, int, int);
    void (*clear_color)(float, float, float, float);
    void (*clear)(unsigned);
    void (*read_pixels)(int, int, int, int, unsigned, unsigned, void *);
    void (*finish)(void);
} gl_calls;

static void *gl_proc(const char *name) { return SDL_GL_GetProcAddress(name); }

static bool load_calls(gl_calls *c) {
    void *p[5] = {gl_proc("glViewport"), gl_proc("glClearColor"), gl_proc("glClear"), gl_proc("glReadPixels"),
                  gl_proc("glFinish")};
    for (int i = 0; i < 5; i++)
        if (!p[i]) return false;
    memcpy(&c->viewport, &p[0], sizeof p[0]);
    memcpy(&c->clear_color, &p[1], sizeof p[1]);
    memcpy(&c->clear, &p[2], sizeof p[2]);
    memcpy(&c->read_pixels, &p[3], sizeof p[3]);
    memcpy(&c->finish, &p[4], sizeof p[4]);
    return true;
}

/* A hidden or shown window with a GL 3.3 core context. */
static SDL_Window *open_window(const char *title, int w, int h, bool hidden, SDL_GLContext *ctx) {
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_ALPHA_SIZE, 8); /* screenshots keep transparency */
    Uint32 flags = SDL_WINDOW_OPENGL | (hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    SDL_Window *win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    *ctx = win ? SDL_GL_CreateContext(win) : NULL;
    if (win && !*ctx) {
        SDL_DestroyWindow(win);
        win = NULL;
    }
    return win;
}

/* Reads the bottom-left w x h of the framebuffer as straight-alpha RGBA, top row first. */
static uint8_t *read_back(const gl_calls *gc, uint32_t w, uint32_t h) {
    size_t row = (size_t)w * 4;
    uint8_t *buf = malloc(row * h), *out = malloc(row * h);
    if (!buf || !out) {
        free(buf);
        free(out);
        return NULL;
    }
    gc->finish();
    gc->read_pixels(0, 0, (int)w, (int)h, 0x1908 /* GL_RGBA */, 0x1401 /* GL_UNSIGNED_BYTE */, buf);
    /* GL's rows run bottom-up: each one un-premultiplied into its place, top-down */
    for (uint32_t y = 0; y < h; y++) {
        sinew_framebuffer one = {w, 1, row, buf + (size_t)(h - 1 - y) * row, NULL};
        sinew_framebuffer_to_straight(&one, out + (size_t)y * row, row);
    }
    free(buf);
    return out;
}

static void clear_to(const gl_calls *gc, sinew_rgba8 bg) {
    float a = bg.a / 255.0f; /* premultiplied, as the backend draws */
    gc->clear_color(bg.r / 255.0f * a, bg.g / 255.0f * a, bg.b / 255.0f * a, a);
    gc->clear(0x00004000 /* GL_COLOR_BUFFER_BIT */);
}

/* ---- --screenshot ---------------------------------------------------------------------------- */

typedef struct shot {
    const char *out;
} shot;

static int draw_shot(void *user, const cli_rig *rig, const sinew_drawlist *dl, const sinew_framing *fr,
                     sinew_rgba8 background) {
    const shot *s = user;
    SDL_GLContext ctx = NULL;
    SDL_Window *win = open_window("sinew view --screenshot", (int)fr->width, (int)fr->height, true, &ctx);
    if (!win) {
        fprintf(stderr, "sinew view: no OpenGL 3.3 context for the screenshot: %s\n", SDL_GetError());
        return SINEW_EXIT_INPUT;
    }
    int rc = SINEW_EXIT_OK;
    gl_calls gc;
    sinew_gl *gl = NULL;
    sinew_error err = {0};
    if (!load_calls(&gc) || sinew_gl_create(gl_proc, rig->textures, NULL, &gl, &err) != SINEW_OK) {
        fprintf(stderr, "sinew view: the GL backend: %s\n", err.message[0] ? err.message : SDL_GetError());
        rc = SINEW_EXIT_INPUT;
    } else {
        gc.viewport(0, 0, (int)fr->width, (int)fr->height);
        clear_to(&gc, background);
        if (sinew_gl_draw(gl, dl, &fr->view, fr->width, fr->height, &err) != SINEW_OK) {
            fprintf(stderr, "sinew view: drawing: %s\n", err.message);
            rc = SINEW_EXIT_INTERNAL;
        } else {
            uint8_t *px = read_back(&gc, fr->width, fr->height);
            const char *inputs[CLI_MAX_PAGES + 2];
            uint32_t n = 0;
            inputs[n++] = rig->atlas_path;
            for (uint32_t p = 0; p < rig->page_count; p++)
                if (rig->page_paths[p])
                    inputs[n++] = rig->page_paths[p];
            if (!px) {
                rc = SINEW_EXIT_INTERNAL;
            } else if (sinew_png_write(s->out, px, fr->width, fr->height, (size_t)fr->width * 4, inputs, n, &err) !=
                       SINEW_OK) {
                cli_print_error(s->out, &err);
                rc = SINEW_EXIT_IO;
            }
            free(px);
        }
    }
    sinew_gl_destroy(gl);
    SDL_GL_DeleteContext(ctx);
    SDL_DestroyWindow(win);
    return rc;
}

static int screenshot(int argc, char **argv) {
    /* render's own parser and pipeline, with --screenshot as its --out */
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) return SINEW_EXIT_INTERNAL;
    shot s = {NULL};
    for (int i = 0; i < argc; i++) {
        args[i] = argv[i];
        if (strcmp(argv[i], "--screenshot") == 0) {
            args[i] = "--out";
            if (i + 1 < argc) s.out = argv[i + 1];
        }
    }
    if (!getenv("SDL_VIDEODRIVER")) setenv("SDL_VIDEODRIVER", "offscreen", 1); /* no display needed */
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "sinew view: SDL cannot start: %s\n", SDL_GetError());
        free(args);
        return SINEW_EXIT_INPUT;
    }
    int rc = cli_render_frame(argc, args, draw_shot, &s);
    SDL_Quit();
    free(args);
    return rc;
}

/* ---- the window ---------------------------------------------------------------------------- */

typedef struct file_stamp {
    long long sec, nsec, size, ino;
} file_stamp;

typedef struct viewer {
    const char *file, *atlas_arg, *armature, *skin, *animation, *capture;
    double fade, quit_after;
    bool paused;
    cli_rig rig;
    bool have_rig;
    sinew_instance *inst;
    uint32_t arm_index, anim_index, skin_index;
    char arm_name[256], anim_name[256], skin_name[256];
    double speed, zoom, pan_x, pan_y;
    bool show_bones, show_wire, show_bounds;
    char error[1600];        /* the last reload's error, shown until a good reload */
    file_stamp stamp[CLI_MAX_PAGES + 2];
    sinew_gl *gl, *overlay;  /* the rig's pages; the text line (page 0) and untextured overlays */
    gl_calls gc;
#ifdef SINEW_HAVE_TTF
    TTF_Font *font;
#endif
    char shown_text[2000];
    char picked[300];        /* the slot last clicked on */
    bool aiming;             /* right button held: IK targets follow the mouse */
} viewer;

/* What tells a file changed: its modification time to the nanosecond, its size and its inode (an
 * editor that saves by renaming a new file over it gives a new one). Whole seconds were not
 * enough: a save in the second the file was last written went unseen. */
static file_stamp stamp_of(const char *path) {
    file_stamp f = {0, 0, 0, 0};
    struct stat st;
    if (path && path[0] && stat(path, &st) == 0) {
        f.sec = (long long)st.st_mtim.tv_sec;
        f.nsec = (long long)st.st_mtim.tv_nsec;
        f.size = (long long)st.st_size;
        f.ino = (long long)st.st_ino;
    }
    return f;
}

static void stamp_files(viewer *v, file_stamp *out) {
    static const file_stamp none = {0, 0, 0, 0};
    out[0] = stamp_of(v->file);
    out[1] = stamp_of(v->rig.atlas_path);
    for (uint32_t p = 0; p < CLI_MAX_PAGES; p++) out[2 + p] = p < v->rig.page_count ? stamp_of(v->rig.page_paths[p]) : none;
}

/* (Re)creates the instance on the chosen armature, skin and animation; plays it from `time`. */
static int start(viewer *v, double time) {
    sinew_instance_destroy(v->inst);
    v->inst = NULL;
    cli_choice c;
    int rc = cli_pick(v->rig.data, v->file, v->arm_name[0] ? v->arm_name : v->armature, v->skin_name[0] ? v->skin_name : v->skin,
                      v->anim_name[0] ? v->anim_name : v->animation, false, &c);
    if (rc) return rc;
    v->arm_index = c.armature;
    snprintf(v->arm_name, sizeof v->arm_name, "%s", c.arm.name);
    sinew_instance_options io = {0};
    io.armature = c.arm.name;
    io.skin = c.skin_overlay;
    io.atlas = v->rig.atlas;
    sinew_error err = {0};
    if (sinew_instance_create(v->rig.data, &io, &v->inst, &err) != SINEW_OK) return cli_input_error(v->file, &err);
    if (c.animation != SINEW_INVALID_INDEX) {
        v->anim_index = c.animation;
        snprintf(v->anim_name, sizeof v->anim_name, "%s", c.anim.name);
        sinew_instance_goto_and_play(v->inst, 0, c.anim.name, SINEW_GOTO_TIME, time, 0, &err);
    }
    sinew_instance_update(v->inst, 0.0);
    return 0;
}

/* The framing `render` computes, for the window: the bounds of every frame of the animation shown
 * (sampled at the armature's frame rate over one play, as render samples it), fitted into the area
 * above the status line with a margin. F (or 0) fits again; switching armature, animation or skin
 * keeps the view, so the rig does not jump. */
enum { STATUS_LINE = 28, FIT_MARGIN = 16 };

static bool shown_bounds(const viewer *v, sinew_rect *out) {
    cli_choice c;
    /* the names are valid here: start() chose them */
    if (cli_pick(v->rig.data, v->file, v->arm_name, v->skin_name[0] ? v->skin_name : NULL,
                 v->anim_name[0] ? v->anim_name : NULL, false, &c) != 0)
        return false;
    sinew_instance_options io = {0};
    io.armature = c.arm.name;
    io.skin = c.skin_overlay;
    io.atlas = v->rig.atlas;
    sinew_instance *inst = NULL;
    sinew_error err = {0};
    if (sinew_instance_create(v->rig.data, &io, &inst, &err) != SINEW_OK) return false;
    double fps = c.arm.frame_rate > 0 ? c.arm.frame_rate : 24.0;
    uint32_t samples = 1;
    if (c.animation != SINEW_INVALID_INDEX) {
        sinew_instance_play(inst, c.anim.name, 1, &err);
        double n = c.anim.duration_s * fps + 1.0;
        samples = n > 10000.0 ? 10000u : (uint32_t)n;
    }
    sinew_instance_update(inst, 0.0);
    bool any = false;
    for (uint32_t k = 0; k < samples; k++) {
        if (k) sinew_instance_update(inst, 1.0 / fps);
        sinew_event ev;
        while (sinew_instance_poll_event(inst, &ev)) {
        }
        sinew_drawlist dl;
        sinew_instance_drawlist(inst, &dl);
        if (sinew_drawlist_bounds(&dl, out, any)) any = true;
    }
    sinew_instance_destroy(inst);
    return any;
}

static void fit_view(viewer *v, int w, int h) {
    v->zoom = 1.0;
    v->pan_x = v->pan_y = 0.0;
    sinew_rect r;
    if (w <= 0 || h <= 0 || !shown_bounds(v, &r)) return;
    double aw = w - 2.0 * FIT_MARGIN, ah = h - STATUS_LINE - 2.0 * FIT_MARGIN;
    double bw = fmax(r.x1 - r.x0, 1e-3), bh = fmax(r.y1 - r.y0, 1e-3);
    if (aw < 1 || ah < 1) return;
    v->zoom = fmin(fmax(fmin(aw / bw, ah / bh), 1.0 / 256), 256.0);
    /* the view maps x to zoom * x + w / 2 + pan_x, y to zoom * y + 3h / 4 + pan_y */
    v->pan_x = -v->zoom * (r.x0 + r.x1) * 0.5;
    v->pan_y = (h - STATUS_LINE) * 0.5 - h * 3 / 4 - v->zoom * (r.y0 + r.y1) * 0.5;
}

static double current_time(const viewer *v) {
    sinew_state_info si;
    for (uint32_t i = sinew_instance_state_count(v->inst, 0); i-- > 0;)
        if (sinew_instance_state(v->inst, 0, i, &si) && strcmp(si.name, v->anim_name) == 0) return si.current_time;
    return 0.0;
}

/* Reloads when a file changed: a broken rig keeps the old one and shows the error. */
static void check_reload(viewer *v) {
    file_stamp now[CLI_MAX_PAGES + 2];
    stamp_files(v, now);
    if (memcmp(now, v->stamp, sizeof now) == 0) return;
    memcpy(v->stamp, now, sizeof now);
    /* the skeleton first, to show where it is broken */
    sinew_data *probe = NULL;
    sinew_error err = {0};
    if (sinew_data_load_file(v->file, NULL, &probe, &err) != SINEW_OK) {
        cli_print_error(v->file, &err);
        snprintf(v->error, sizeof v->error, "%s:%u:%u: error: %s", err.file ? err.file : v->file, err.line, err.column,
                 err.message);
        return;
    }
    sinew_data_destroy(probe);
    cli_rig fresh;
    memset(&fresh, 0, sizeof fresh);
    if (cli_rig_load(&fresh, v->file, v->atlas_arg) != 0) { /* printed to stderr */
        cli_rig_free(&fresh);
        snprintf(v->error, sizeof v->error, "%s: error: the atlas or a page image does not load (see stderr)", v->file);
        return;
    }
    double t = v->inst ? current_time(v) : 0.0;
    sinew_gl *gl = NULL;
    if (sinew_gl_create(gl_proc, fresh.textures, NULL, &gl, &err) != SINEW_OK) {
        cli_rig_free(&fresh);
        snprintf(v->error, sizeof v->error, "GL: %s", err.message);
        return;
    }
    sinew_instance_destroy(v->inst);
    v->inst = NULL;
    cli_rig_free(&v->rig);
    sinew_gl_destroy(v->gl);
    v->rig = fresh;
    v->gl = gl;
    stamp_files(v, v->stamp);
    if (start(v, t) != 0) { /* the armature or animation is gone: the defaults */
        v->arm_name[0] = v->anim_name[0] = v->skin_name[0] = '\0';
        start(v, 0.0);
    }
    v->error[0] = '\0';
    cli_warnings_flush();
    fprintf(stderr, "sinew view: reloaded %s\n", v->file);
}

/* A thin quad from a to b into an untextured overlay list. */
typedef struct overlay {
    float pos[2 * 4 * 4096];
    float uv[2 * 4 * 4096];
    uint32_t idx[6 * 4096];
    sinew_draw_cmd cmds[4];
    uint32_t quads, ncmd;
} overlay;

static void line(overlay *o, const sinew_affine *m, float ax, float ay, float bx, float by, float width) {
    if (o->quads >= 4096) return;
    float x0 = m->a * ax + m->c * ay + m->tx, y0 = m->b * ax + m->d * ay + m->ty;
    float x1 = m->a * bx + m->c * by + m->tx, y1 = m->b * bx + m->d * by + m->ty;
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    float *p = o->pos + 8 * o->quads;
    float q[8] = {x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny};
    memcpy(p, q, sizeof q);
    memset(o->uv + 8 * o->quads, 0, 8 * sizeof(float));
    uint32_t b = 4 * o->quads, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
    memcpy(o->idx + 6 * o->quads, t, sizeof t);
    o->quads++;
}

/* out = second ∘ first (first applied first). */
static void affine_then(const sinew_affine *first, const sinew_affine *second, sinew_affine *out) {
    const sinew_affine *p = second, *c = first;
    *out = (sinew_affine){p->a * c->a + p->c * c->b, p->b * c->a + p->d * c->b, p->a * c->c + p->c * c->d,
                          p->b * c->c + p->d * c->d, p->a * c->tx + p->c * c->ty + p->tx,
                          p->b * c->tx + p->d * c->ty + p->ty};
}

static void begin_cmd(overlay *o, float r, float g, float b) {
    sinew_draw_cmd *c = &o->cmds[o->ncmd++];
    memset(c, 0, sizeof *c);
    c->page = SINEW_INVALID_INDEX;
    c->color = (sinew_color_transform){0.9f, r, g, b, 0, 0, 0, 0};
    c->first_vertex = 4 * o->quads;
    c->first_index = 6 * o->quads;
}

static void end_cmd(overlay *o) {
    sinew_draw_cmd *c = &o->cmds[o->ncmd - 1];
    c->vertex_count = 4 * o->quads - c->first_vertex;
    c->index_count = 6 * o->quads - c->first_index;
}

static void draw_overlays(viewer *v, const sinew_drawlist *dl, const sinew_affine *view, int w, int h) {
    static overlay o;
    o.quads = o.ncmd = 0;
    const sinew_affine id = {1, 0, 0, 1, 0, 0};
    if (v->show_wire) {
        begin_cmd(&o, 0.3f, 0.9f, 1.0f);
        for (uint32_t c = 0; c < dl->cmd_count; c++)
            for (uint32_t i = 0; i + 2 < dl->cmds[c].index_count; i += 3)
                for (int e = 0; e < 3; e++) {
                    uint32_t a = dl->indices[dl->cmds[c].first_index + i + (uint32_t)e];
                    uint32_t b = dl->indices[dl->cmds[c].first_index + i + (uint32_t)(e + 1) % 3];
                    const float *pa = &dl->positions[2 * (size_t)a], *pb = &dl->positions[2 * (size_t)b];
                    sinew_affine m = *view;
                    line(&o, &m, pa[0], pa[1], pb[0], pb[1], 1.0f);
                }
        end_cmd(&o);
    }
    if (v->show_bounds) {
        begin_cmd(&o, 1.0f, 0.8f, 0.2f);
        for (uint32_t c = 0; c < dl->cmd_count; c++) {
            sinew_drawlist one = *dl;
            one.cmds = &dl->cmds[c];
            one.cmd_count = 1;
            sinew_rect r;
            if (!sinew_drawlist_bounds(&one, &r, false)) continue;
            line(&o, view, r.x0, r.y0, r.x1, r.y0, 1.0f);
            line(&o, view, r.x1, r.y0, r.x1, r.y1, 1.0f);
            line(&o, view, r.x1, r.y1, r.x0, r.y1, 1.0f);
            line(&o, view, r.x0, r.y1, r.x0, r.y0, 1.0f);
        }
        end_cmd(&o);
    }
    /* boundingBox polygons and bones of every armature drawn now, child armatures placed by their
     * parent slots */
    uint32_t narm = sinew_instance_armature_count(v->inst);
    if (v->show_bounds) {
        begin_cmd(&o, 0.4f, 1.0f, 0.4f);
        for (uint32_t a = 0; a < narm; a++) {
            sinew_affine place, m;
            if (!sinew_instance_armature_placement(v->inst, a, &place)) continue;
            affine_then(&place, view, &m);
            for (uint32_t sl = 0; sl < sinew_instance_slot_count(v->inst, a); sl++) {
                float xy[2 * 64];
                uint32_t n = sinew_instance_slot_bounding_box(v->inst, a, sl, xy, 64);
                for (uint32_t i = 0; i < n && i < 64; i++) {
                    uint32_t j = (i + 1) % (n < 64 ? n : 64);
                    line(&o, &m, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1], 1.5f);
                }
            }
        }
        end_cmd(&o);
    }
    if (v->show_bones) {
        begin_cmd(&o, 1.0f, 0.3f, 0.4f);
        for (uint32_t a = 0; a < narm; a++) {
            sinew_affine place, view_a;
            if (!sinew_instance_armature_placement(v->inst, a, &place)) continue;
            affine_then(&place, view, &view_a);
            uint32_t data_arm = a == 0 ? v->arm_index
                                       : sinew_data_find_armature(v->rig.data, sinew_instance_armature_name(v->inst, a));
            for (uint32_t b = 0; b < sinew_instance_bone_count(v->inst, a); b++) {
                const char *name;
                uint32_t parent;
                sinew_affine m;
                sinew_bone_info bi;
                if (!sinew_instance_bone(v->inst, a, b, &name, &parent, &m)) continue;
                float len = sinew_data_get_bone_info(v->rig.data, data_arm, b, &bi) == SINEW_OK && bi.length > 0 ? bi.length
                                                                                                              : 10.0f;
                /* the bone's axis from its origin, drawn in screen space */
                float ox = m.tx, oy = m.ty, ex = m.a * len + m.tx, ey = m.b * len + m.ty;
                line(&o, &view_a, ox, oy, ex, ey, a == 0 ? 2.0f : 1.5f);
            }
        }
        end_cmd(&o);
    }
    (void)id;
    if (o.ncmd == 0) return;
    sinew_drawlist ol = {o.pos, o.uv, o.idx, o.cmds, 4 * o.quads, 6 * o.quads, o.ncmd};
    sinew_error err = {0};
    sinew_affine screen = {1, 0, 0, 1, 0, 0};
    sinew_gl_draw(v->overlay, &ol, &screen, (uint32_t)w, (uint32_t)h, &err);
}

/* The status line (and the error), as a text page drawn at the bottom. */
static void draw_text(viewer *v, const char *text, int w, int h) {
#ifdef SINEW_HAVE_TTF
    if (!v->font || !text[0]) return;
    static uint32_t tw, th;
    if (strcmp(text, v->shown_text) != 0) {
        snprintf(v->shown_text, sizeof v->shown_text, "%s", text);
        SDL_Color white = {235, 235, 235, 255};
        SDL_Surface *s = TTF_RenderUTF8_Blended(v->font, text, white);
        SDL_Surface *rgba = s ? SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ABGR8888, 0) : NULL;
        if (rgba) {
            uint8_t *px = malloc((size_t)rgba->w * (size_t)rgba->h * 4);
            if (px) {
                for (int y = 0; y < rgba->h; y++)
                    for (int x = 0; x < rgba->w; x++) {
                        const uint8_t *q = (const uint8_t *)rgba->pixels + (size_t)y * (size_t)rgba->pitch + (size_t)x * 4;
                        uint8_t *d = px + ((size_t)y * (size_t)rgba->w + (size_t)x) * 4;
                        for (int c = 0; c < 3; c++) d[c] = (uint8_t)(q[c] * q[3] / 255);
                        d[3] = q[3];
                    }
                sinew_error err = {0};
                if (sinew_gl_set_page(v->overlay, 0, (uint32_t)rgba->w, (uint32_t)rgba->h, px, &err) == SINEW_OK) {
                    tw = (uint32_t)rgba->w;
                    th = (uint32_t)rgba->h;
                }
                free(px);
            }
        }
        SDL_FreeSurface(rgba);
        SDL_FreeSurface(s);
    }
    if (!tw) return;
    float x0 = 8, y0 = (float)h - (float)th - 6, x1 = x0 + (float)tw, y1 = y0 + (float)th;
    float pos[8] = {x0, y0, x1, y0, x1, y1, x0, y1}, uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    sinew_draw_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.page = 0;
    cmd.color = (sinew_color_transform){1, 1, v->error[0] ? 0.55f : 1, v->error[0] ? 0.5f : 1, 0, 0, 0, 0};
    cmd.region[2] = cmd.region[3] = 1;
    cmd.vertex_count = 4;
    cmd.index_count = 6;
    sinew_drawlist dl = {pos, uv, idx, &cmd, 4, 6, 1};
    sinew_error err = {0};
    sinew_gl_draw(v->overlay, &dl, NULL, (uint32_t)w, (uint32_t)h, &err);
#else
    (void)v, (void)text, (void)w, (void)h;
#endif
}

static void switch_animation(viewer *v, int step) {
    sinew_armature_info ai;
    sinew_data_get_armature_info(v->rig.data, v->arm_index, &ai);
    if (ai.animation_count == 0) return;
    v->anim_index = (v->anim_index + ai.animation_count + (uint32_t)(step < 0 ? -1 : 1)) % ai.animation_count;
    sinew_animation_info an;
    sinew_data_get_animation_info(v->rig.data, v->arm_index, v->anim_index, &an);
    snprintf(v->anim_name, sizeof v->anim_name, "%s", an.name);
    sinew_fade_options f = sinew_fade_defaults();
    f.fade_in_time = v->fade;
    f.play_times = 0;
    sinew_error err = {0};
    sinew_instance_fade_in(v->inst, 0, an.name, &f, &err);
}

/* Window pixels -> armature space, the inverse of the view the frame is drawn with. */
static void to_armature(const viewer *v, SDL_Window *win, int mx, int my, float *x, float *y) {
    int w = 0, h = 0, ww = 0, wh = 0;
    SDL_GL_GetDrawableSize(win, &w, &h);
    SDL_GetWindowSize(win, &ww, &wh);
    double sx = ww ? (double)w / ww : 1.0, sy = wh ? (double)h / wh : 1.0; /* high-DPI drawables */
    *x = (float)((mx * sx - (w / 2 + v->pan_x)) / v->zoom);
    *y = (float)((my * sy - (h * 3 / 4 + v->pan_y)) / v->zoom);
}

/* A click: the slot under the mouse goes to the status line. */
static void pick(viewer *v, SDL_Window *win, int mx, int my) {
    float x, y;
    to_armature(v, win, mx, my, &x, &y);
    uint32_t arm = 0, slot = 0;
    sinew_slot_info si;
    if (sinew_instance_hit(v->inst, x, y, &arm, &slot) &&
        sinew_data_get_slot_info(v->rig.data, sinew_data_find_armature(v->rig.data, sinew_instance_armature_name(v->inst, arm)),
                             slot, &si) == SINEW_OK)
        snprintf(v->picked, sizeof v->picked, "  |  slot %s (%s)", si.name, sinew_instance_armature_name(v->inst, arm));
    else
        v->picked[0] = '\0';
}

/* The target bone of every IK constraint of the armature shown, handed to `fn`. */
static void each_ik_target(viewer *v, void (*fn)(viewer *, const char *, float, float), float x, float y) {
    sinew_armature_info ai;
    sinew_data_get_armature_info(v->rig.data, v->arm_index, &ai);
    for (uint32_t k = 0; k < ai.ik_count; k++) {
        sinew_ik_info ik;
        sinew_bone_info target;
        if (sinew_data_get_ik_info(v->rig.data, v->arm_index, k, &ik) == SINEW_OK &&
            sinew_data_get_bone_info(v->rig.data, v->arm_index, ik.target, &target) == SINEW_OK)
            fn(v, target.name, x, y);
    }
}

static void follow(viewer *v, const char *bone, float x, float y) {
    sinew_error err = {0};
    sinew_instance_bone_follow(v->inst, 0, bone, x, y, &err);
}

static void let_go(viewer *v, const char *bone, float x, float y) {
    (void)x, (void)y;
    sinew_error err = {0};
    sinew_instance_set_bone_offset(v->inst, 0, bone, NULL, &err);
}

/* Right button held: every IK target of the armature follows the mouse. */
static void aim(viewer *v, SDL_Window *win) {
    int mx = 0, my = 0;
    SDL_GetMouseState(&mx, &my);
    float x, y;
    to_armature(v, win, mx, my, &x, &y);
    each_ik_target(v, follow, x, y);
}

/* The right button released: the IK targets go back to their animation. */
static void release_aim(viewer *v) {
    each_ik_target(v, let_go, 0, 0);
}

static int window(viewer *v) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "sinew view: no display: SDL cannot start its video (%s); use --screenshot, or xvfb-run\n",
                SDL_GetError());
        return SINEW_EXIT_INPUT;
    }
    const char *driver = SDL_GetCurrentVideoDriver();
    if (!getenv("SDL_VIDEODRIVER") && driver && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0)) {
        /* SDL falls back to a driver that shows nothing: there is no display */
        fprintf(stderr, "sinew view: no display (no X11 or Wayland; DISPLAY is %s): use --screenshot, or xvfb-run\n",
                getenv("DISPLAY") ? getenv("DISPLAY") : "not set");
        SDL_Quit();
        return SINEW_EXIT_INPUT;
    }
    SDL_GLContext ctx = NULL;
    char title[512];
    snprintf(title, sizeof title, "sinew view %s", v->file);
    SDL_Window *win = open_window(title, 960, 720, false, &ctx);
    if (!win) {
        fprintf(stderr, "sinew view: no window with OpenGL 3.3: %s (no display? use --screenshot, or xvfb-run)\n",
                SDL_GetError());
        SDL_Quit();
        return SINEW_EXIT_INPUT;
    }
    SDL_GL_SetSwapInterval(1);
    sinew_error err = {0};
    int rc = SINEW_EXIT_OK;
    if (!load_calls(&v->gc) || sinew_gl_create(gl_proc, v->rig.textures, NULL, &v->gl, &err) != SINEW_OK ||
        sinew_gl_create(gl_proc, NULL, NULL, &v->overlay, &err) != SINEW_OK) {
        fprintf(stderr, "sinew view: the GL backend: %s\n", err.message[0] ? err.message : SDL_GetError());
        rc = SINEW_EXIT_INPUT;
        goto done;
    }
#ifdef SINEW_HAVE_TTF
    if (TTF_Init() == 0) {
        static const char *const fonts[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
        for (size_t i = 0; i < 2 && !v->font; i++) v->font = TTF_OpenFont(fonts[i], 14);
    }
    if (!v->font) fprintf(stderr, "sinew view: no font (apt-get install fonts-dejavu-core): no status line\n");
#endif
    stamp_files(v, v->stamp);
    {
        int fw = 0, fh = 0;
        SDL_GL_GetDrawableSize(win, &fw, &fh);
        fit_view(v, fw, fh);
    }
    cli_warnings_flush();
    Uint64 start_ticks = SDL_GetTicks64(), last = SDL_GetPerformanceCounter(), last_check = 0;
    bool dragging = false, shown = false;
    for (;;) {
        SDL_Event ev;
        bool quit = false;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT) quit = true;
            else if (ev.type == SDL_MOUSEBUTTONDOWN && ev.button.button == SDL_BUTTON_RIGHT) v->aiming = true;
            else if (ev.type == SDL_MOUSEBUTTONUP && ev.button.button == SDL_BUTTON_RIGHT) {
                v->aiming = false;
                release_aim(v);
            }
            else if (ev.type == SDL_MOUSEBUTTONDOWN) {
                dragging = true;
                pick(v, win, ev.button.x, ev.button.y);
            } else if (ev.type == SDL_MOUSEBUTTONUP) dragging = false;
            else if (ev.type == SDL_MOUSEMOTION && dragging) v->pan_x += ev.motion.xrel, v->pan_y += ev.motion.yrel;
            else if (ev.type == SDL_MOUSEWHEEL) v->zoom *= ev.wheel.y > 0 ? 1.1 : 1.0 / 1.1;
            else if (ev.type == SDL_KEYDOWN) {
                SDL_Keycode k = ev.key.keysym.sym;
                bool shift = (ev.key.keysym.mod & KMOD_SHIFT) != 0;
                sinew_armature_info ai;
                sinew_data_get_armature_info(v->rig.data, v->arm_index, &ai);
                double step = ai.frame_rate > 0 ? 1.0 / ai.frame_rate : 1.0 / 24;
                if (k == SDLK_ESCAPE || k == SDLK_q) quit = true;
                else if (k == SDLK_SPACE) v->paused = !v->paused;
                else if (k == SDLK_RIGHT) v->paused = true, sinew_instance_update(v->inst, step);
                else if (k == SDLK_LEFT) v->paused = true, start(v, fmax(0.0, current_time(v) - step));
                else if (k == SDLK_UP) v->speed = fmin(v->speed * 2, 16);
                else if (k == SDLK_DOWN) v->speed = fmax(v->speed / 2, 1.0 / 16);
                else if (k == SDLK_TAB) switch_animation(v, shift ? -1 : 1);
                else if (k == SDLK_HOME) start(v, 0.0);
                else if (k == SDLK_PLUS || k == SDLK_EQUALS || k == SDLK_KP_PLUS) v->zoom *= 1.25;
                else if (k == SDLK_MINUS || k == SDLK_KP_MINUS) v->zoom /= 1.25;
                else if (k == SDLK_0 || k == SDLK_f) {
                    int fw = 0, fh = 0;
                    SDL_GL_GetDrawableSize(win, &fw, &fh);
                    fit_view(v, fw, fh);
                }
                else if (k == SDLK_b) v->show_bones = !v->show_bones;
                else if (k == SDLK_w) v->show_wire = !v->show_wire;
                else if (k == SDLK_x) v->show_bounds = !v->show_bounds;
                else if (k == SDLK_a) {
                    sinew_data_info di;
                    sinew_data_get_info(v->rig.data, &di);
                    sinew_armature_info next;
                    if (sinew_data_get_armature_info(v->rig.data, (v->arm_index + 1) % di.armature_count, &next) == SINEW_OK) {
                        snprintf(v->arm_name, sizeof v->arm_name, "%s", next.name);
                        v->anim_name[0] = v->skin_name[0] = '\0';
                        start(v, 0.0);
                    }
                } else if (k == SDLK_s && ai.skin_count > 1) {
                    v->skin_index = (v->skin_index + 1) % ai.skin_count;
                    sinew_skin_info si;
                    sinew_data_get_skin_info(v->rig.data, v->arm_index, v->skin_index, &si);
                    sinew_instance_set_skin(v->inst, si.name, &err);
                    snprintf(v->skin_name, sizeof v->skin_name, "%s", si.name);
                }
            }
        }
        Uint64 now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)SDL_GetPerformanceFrequency();
        last = now;
        if (v->quit_after > 0 && (double)(SDL_GetTicks64() - start_ticks) / 1000.0 >= v->quit_after) quit = true;
        if (SDL_GetTicks64() - last_check >= 250) {
            last_check = SDL_GetTicks64();
            check_reload(v);
        }
        if (v->aiming) aim(v, win);
        if (!v->paused) sinew_instance_update(v->inst, dt * v->speed);
        int w = 0, h = 0;
        SDL_GL_GetDrawableSize(win, &w, &h);
        v->gc.viewport(0, 0, w, h);
        clear_to(&v->gc, (sinew_rgba8){40, 44, 52, 255});
        sinew_drawlist dl;
        sinew_instance_drawlist(v->inst, &dl);
        sinew_affine view = {(float)v->zoom, 0, 0, (float)v->zoom, (float)(w / 2 + v->pan_x),
                             (float)(h * 3 / 4 + v->pan_y)};
        if (w > 0 && h > 0) {
            sinew_gl_draw(v->gl, &dl, &view, (uint32_t)w, (uint32_t)h, &err);
            draw_overlays(v, &dl, &view, w, h);
            char text[2000];
            sinew_armature_info ai;
            sinew_data_get_armature_info(v->rig.data, v->arm_index, &ai);
            double t = current_time(v);
            if (v->error[0])
                snprintf(text, sizeof text, "%s", v->error);
            else
                snprintf(text, sizeof text, "%.400s  |  %s  |  %s  |  frame %ld  %.3f s  |  x%g%s%s", v->file, v->arm_name,
                         v->anim_name[0] ? v->anim_name : "(no animation)", lround(t * ai.frame_rate), t, v->speed,
                         v->paused ? "  paused" : "", v->picked);
            draw_text(v, text, w, h);
        }
        if (quit) {
            if (v->capture && w > 0 && h > 0) {
                uint8_t *px = read_back(&v->gc, (uint32_t)w, (uint32_t)h);
                if (!px || sinew_png_write(v->capture, px, (uint32_t)w, (uint32_t)h, (size_t)w * 4, NULL, 0, &err) != SINEW_OK) {
                    cli_print_error(v->capture, &err);
                    rc = SINEW_EXIT_IO;
                }
                free(px);
            }
            break;
        }
        SDL_GL_SwapWindow(win);
        if (!shown) { /* the first frame is up: edits from now on are reloaded */
            shown = true;
            fprintf(stderr, "sinew view: showing %s; saving it (or its atlas or pages) reloads it\n", v->file);
        }
    }
done:
#ifdef SINEW_HAVE_TTF
    if (v->font) TTF_CloseFont(v->font);
    TTF_Quit();
#endif
    sinew_gl_destroy(v->gl);
    sinew_gl_destroy(v->overlay);
    SDL_GL_DeleteContext(ctx);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return rc;
}

int sinew_cmd_view(int argc, char **argv) {
    viewer v;
    memset(&v, 0, sizeof v);
    v.fade = 0.2;
    v.speed = 1.0;
    v.zoom = 1.0;
    bool want_shot = false;
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            cli_help_print(&sinew_cmd_view_usage);
            return SINEW_EXIT_OK;
        }
        if (strcmp(a, "--screenshot") == 0) want_shot = true;
    }
    if (want_shot) return screenshot(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(a, "--atlas") == 0 && more) v.atlas_arg = argv[++i];
        else if (strcmp(a, "--armature") == 0 && more) v.armature = argv[++i];
        else if (strcmp(a, "--skin") == 0 && more) v.skin = argv[++i];
        else if (strcmp(a, "--animation") == 0 && more) v.animation = argv[++i];
        else if (strcmp(a, "--capture") == 0 && more) v.capture = argv[++i];
        else if (strcmp(a, "--paused") == 0) v.paused = true;
        else if (strcmp(a, "--show") == 0 && more) {
            const char *list = argv[++i];
            v.show_bones = strstr(list, "bones") != NULL;
            v.show_wire = strstr(list, "wireframe") != NULL;
            v.show_bounds = strstr(list, "bounds") != NULL;
            if (!v.show_bones && !v.show_wire && !v.show_bounds)
                return cli_usage_error("view", "--show wants bones, wireframe and/or bounds (comma-separated), not '%s'", list);
        }
        else if (strcmp(a, "--fade") == 0 && more) {
            if ((rc = cli_number("view", a, argv[++i], &v.fade))) return rc;
        } else if (strcmp(a, "--quit-after") == 0 && more) {
            if ((rc = cli_number("view", a, argv[++i], &v.quit_after))) return rc;
        } else if (a[0] == '-' && a[1]) return cli_unknown_option("view", a);
        else if (!v.file) v.file = a;
        else return cli_usage_error("view", "more than one input file ('%s' and '%s')", v.file, a);
    }
    if (!v.file) return cli_usage_error("view", "no input file");
    rc = cli_rig_load(&v.rig, v.file, v.atlas_arg);
    if (!rc) rc = start(&v, 0.0);
    if (!rc) rc = window(&v);
    sinew_instance_destroy(v.inst);
    cli_rig_free(&v.rig);
    return rc;
}

#endif
