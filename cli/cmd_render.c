/* sinew render: draw an animation to PNG, a PNG sequence, a sprite sheet, GIF, WebP, MP4 or WebM.
 *
 * The pipeline: load the skeleton and its atlas, load the atlas pages, create an instance, play
 * the animation and step it at the sample rate. A first pass collects the bounds of every frame
 * (for the automatic framing), the second pass draws each frame into one framebuffer and hands
 * it to the exporter chosen from the output name. See docs/render-cli.md. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "render_frame.h"
#include "rig_inputs.h"
#include "rules.h"
#include "sinew/data.h"
#include "sinew/export.h"
#include "sinew/instance.h"
#include "sinew/render.h"

const char sinew_cmd_render_help[] =
    "render an animation to PNG, PNG sequence, sprite sheet, GIF, WebP, MP4 or WebM";

const cli_help sinew_cmd_render_usage = {
    "sinew render FILE --out OUT [options]",
    "Draws an animation with sinew's rasterizer. The output format comes from OUT:\n"
    "  x.png            one frame (--frame K, default 0)\n"
    "  dir/f_%04d.png   a PNG sequence (any pattern with one %d or %0Nd)\n"
    "  x.gif            animated GIF (one palette for all frames; --dither)\n"
    "  x.webp           animated WebP (lossless; --quality Q for lossy)\n"
    "  x.mp4 / x.webm   video through the ffmpeg program (H.264 yuv420p / VP9 with alpha)\n"
    "  --sheet          a sprite sheet: OUT.png plus its atlas OUT.json (OUT.tres for godot)\n"
    "FILE is a DragonBones skeleton (JSON 4.0, 4.5, 5.x) or a sinew XML rig.\n",
    "  --atlas TEX       texture atlas JSON (default: found next to FILE, e.g. X_tex.json)\n"
    "  --armature NAME   armature to draw (default: the main one, docs/cli.md);\n"
    "                    'all': every armature (put %r, its name, in OUT)\n"
    "  --animation NAME  animation to play (default: the armature's default animation); 'all':\n"
    "                    every animation, one output each (put %a, its name, in OUT)\n"
    "  --skin NAME       skin overlaid on the default skin (an XML rig: its armature NAME@SKIN)\n"
    "  --fps N           frames per second, (0, 1000] (default: the data's frame rate)\n"
    "  --loops N         plays of the animation, 1..10000 (default 1: a looping animation plays\n"
    "                    once through)\n"
    "  --cache-fps N     the official frame cache at N frames per second (poses snap to it)\n"
    "  --scale S         pixels per data unit, (0, 100] (default 1)\n"
    "  --size WxH        fixed output size; the animation is scaled to fit in it (default: the size\n"
    "                    of the bounds of every frame at --scale)\n"
    "  --crop            with --size: keep --scale and cut what does not fit (centred)\n"
    "  --origin X,Y      pixel of the armature origin with --size (default: centre the bounds)\n"
    "  --padding P       pixels around the fitted bounds, 0..4096 (default 4)\n"
    "  --background C    #rgb, #rrggbb, #rrggbbaa, black, white or transparent (default)\n"
    "  --frame K         the frame for a single .png (0-based)\n"
    "  --quality Q       0..100: lossy WebP quality, video CRF scale (GIF: libimagequant builds only)\n"
    "  --dither          dither GIF palettes\n"
    "  --quiet           no progress bar (it is only drawn when stderr is a terminal)\n"
    "sprite sheets (--sheet):\n"
    "  --sheet-format F  dragonbones (default), json-hash, json-array (TexturePacker: Phaser, Pixi,\n"
    "                    Cocos), godot (a SpriteFrames .tres)\n"
    "  --trim / --no-trim  frames cut to their visible pixels (default) or kept whole\n"
    "  --sheet-padding N pixels between frames and around the page, 0..1024 (default 1)\n"
    "  --extrude N       pixels of each frame's edge repeated around it, 0..1024 (default 0)\n"
    "  --pow2            page sides rounded up to powers of two\n"
    "  --max-size WxH    largest page; more pages (OUT-0.png, ...) when one is not enough\n"
    "  --premultiplied   page colours premultiplied by alpha\n",
    "  sinew render hero_ske.json --animation walk --out walk.gif\n"
    "  sinew render hero_ske.json --animation walk --out frames/walk_%04d.png\n"
    "  sinew render hero_ske.json --animation run --frame 3 --size 256x256 --out run3.png\n"
    "  sinew render hero_ske.json --animation walk --sheet --sheet-format json-hash --out walk\n"
    "  sinew render hero_ske.json --armature all --animation all --out gifs/%r-%a.gif\n",
    NULL};

typedef enum out_kind { OUT_PNG, OUT_SEQUENCE, OUT_SHEET, OUT_GIF, OUT_WEBP, OUT_MP4, OUT_WEBM } out_kind;

typedef struct render_opts {
    const char *file, *atlas, *armature, *animation, *skin, *out;
    double fps, cache_fps;
    long loops;
    float scale, padding;
    bool have_size, have_origin, have_frame, have_quality, sheet, dither, quiet, have_scale, crop;
    sinew_sheet_options sheet_opts;
    bool sheet_option_given;   /* a sheet-only option was given (an error without --sheet) */
    uint32_t width, height;
    float origin_x, origin_y;
    sinew_rgba8 background;
    long frame;
    int quality;
} render_opts;

/* ---- small parsers ----------------------------------------------------------------------- */

static bool parse_point(const char *s, float *x, float *y) {
    char *end = NULL;
    errno = 0;
    double a = strtod(s, &end);
    if (errno || end == s || *end != ',') return false;
    const char *p = end + 1;
    double b = strtod(p, &end);
    if (errno || end == p || *end || !isfinite(a) || !isfinite(b)) return false;
    if (fabs(a) > 1e7 || fabs(b) > 1e7) return false;
    *x = (float)a;
    *y = (float)b;
    return true;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (m > n) return false;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return false;
    }
    return true;
}

/* A sequence pattern has exactly one %d / %0Nd (N < 10) and no other conversion except %%, and %a /
 * %r (names, replaced before the exporter sees the path). Returns the count of %d, -1 when bad. */
static int sequence_pattern(const char *s) {
    int conversions = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        const char *q = p + 1;
        if (*q == 'a' || *q == 'r') { /* the animation / armature name (--animation all, --armature all) */
            p = q;
            continue;
        }
        if (*q == '0') {
            q++;
            if (*q < '1' || *q > '9') return -1;
            q++;
        }
        if (*q != 'd') return -1;
        conversions++;
        p = q;
    }
    return conversions;
}

/* ---- inputs are never overwritten: their paths go to the exporter ------------------------ */

typedef struct input_files {
    const char *path[66];
    uint32_t count;
} input_files;

static void inputs_add(input_files *in, const char *path) {
    if (in->count < 66 && path) in->path[in->count++] = path;
}

/* ---- progress ----------------------------------------------------------------------------- */

typedef struct progress {
    bool on;
    uint32_t total;
    const char *label;
} progress;

static void progress_show(const progress *p, uint32_t done) {
    if (!p->on || p->total == 0) return;
    enum { BAR = 30 };
    uint32_t fill = (uint32_t)((uint64_t)done * BAR / p->total);
    char bar[BAR + 1];
    for (uint32_t i = 0; i < BAR; i++) bar[i] = i < fill ? '#' : '.';
    bar[BAR] = '\0';
    fprintf(stderr, "\r%s [%s] %u/%u%s", p->label, bar, done, p->total, done == p->total ? ", writing..." : "");
    fflush(stderr);
}

/* The bar's last state, as a whole line: the next output (or the shell prompt) starts below it. */
static void progress_end(const progress *p, const char *out) {
    if (!p->on || p->total == 0) return;
    fprintf(stderr, "\r%s [%.*s] %u/%u: %s%12s\n", p->label, 30, "##############################", p->total, p->total,
            out, "");
    fflush(stderr);
}

static void progress_clear(const progress *p) {
    if (p->on) fprintf(stderr, "\r%*s\r", 79, "");
}

/* ---- option parsing ----------------------------------------------------------------------- */

static int parse_args(int argc, char **argv, render_opts *o) {
    const char *cmd = argv[0];
    int rc;
    memset(o, 0, sizeof *o);
    o->scale = 1.0f;
    o->padding = 4.0f;
    o->loops = 0; /* 0 = the default: one play */
    o->quality = -1;
    o->sheet_opts.padding = 1; /* the CLI's default gap between sheet frames */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_help_or_file(cmd, &sinew_cmd_render_usage, a, &o->file, &rc)) {
            if (rc) return rc;
            continue;
        }
        bool flag = true;
        if (strcmp(a, "--sheet") == 0) o->sheet = true;
        else if (strcmp(a, "--trim") == 0) o->sheet_opts.no_trim = false, o->sheet_option_given = true;
        else if (strcmp(a, "--no-trim") == 0) o->sheet_opts.no_trim = true, o->sheet_option_given = true;
        else if (strcmp(a, "--pow2") == 0) o->sheet_opts.pow2 = true, o->sheet_option_given = true;
        else if (strcmp(a, "--premultiplied") == 0) o->sheet_opts.premultiplied = true, o->sheet_option_given = true;
        else if (strcmp(a, "--dither") == 0) o->dither = true;
        else if (strcmp(a, "--crop") == 0) o->crop = true;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) o->quiet = true;
        else flag = false;
        if (flag) continue;
        if (i + 1 >= argc) return cli_usage_error(cmd, "%s needs a value", a);
        const char *v = argv[++i];
        if (strcmp(a, "--atlas") == 0) o->atlas = v;
        else if (strcmp(a, "--armature") == 0) o->armature = v;
        else if (strcmp(a, "--animation") == 0) o->animation = v;
        else if (strcmp(a, "--skin") == 0) o->skin = v;
        else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) o->out = v;
        else if (strcmp(a, "--fps") == 0) {
            if ((rc = cli_number(cmd, a, v, &o->fps))) return rc;
        } else if (strcmp(a, "--sheet-format") == 0) {
            o->sheet_option_given = true;
            if (strcmp(v, "dragonbones") == 0) o->sheet_opts.format = SINEW_SHEET_DRAGONBONES;
            else if (strcmp(v, "json-hash") == 0) o->sheet_opts.format = SINEW_SHEET_JSON_HASH;
            else if (strcmp(v, "json-array") == 0) o->sheet_opts.format = SINEW_SHEET_JSON_ARRAY;
            else if (strcmp(v, "godot") == 0) o->sheet_opts.format = SINEW_SHEET_GODOT;
            else return cli_usage_error(cmd, "--sheet-format wants dragonbones, json-hash, json-array or godot, not '%s'", v);
        } else if (strcmp(a, "--sheet-padding") == 0 || strcmp(a, "--extrude") == 0) {
            long n;
            if ((rc = cli_whole(cmd, a, v, &n))) return rc;
            if (a[2] == 's') o->sheet_opts.padding = (uint32_t)n;
            else o->sheet_opts.extrude = (uint32_t)n;
            o->sheet_option_given = true;
        } else if (strcmp(a, "--max-size") == 0) {
            if ((rc = cli_size(cmd, a, v, &o->sheet_opts.max_width, &o->sheet_opts.max_height))) return rc;
            o->sheet_option_given = true;
        } else if (strcmp(a, "--cache-fps") == 0) {
            if ((rc = cli_number(cmd, a, v, &o->cache_fps))) return rc;
        } else if (strcmp(a, "--loops") == 0) {
            if ((rc = cli_whole(cmd, a, v, &o->loops))) return rc;
        } else if (strcmp(a, "--scale") == 0) {
            double s;
            if ((rc = cli_number(cmd, a, v, &s))) return rc;
            o->scale = (float)s;
            o->have_scale = true;
        } else if (strcmp(a, "--padding") == 0) {
            double p;
            if ((rc = cli_number(cmd, a, v, &p))) return rc;
            o->padding = (float)p;
        } else if (strcmp(a, "--size") == 0) {
            if ((rc = cli_size(cmd, a, v, &o->width, &o->height))) return rc;
            o->have_size = true;
        } else if (strcmp(a, "--origin") == 0) {
            if (!parse_point(v, &o->origin_x, &o->origin_y))
                return cli_usage_error(cmd, "--origin wants X,Y in pixels, not '%s'", v);
            o->have_origin = true;
        } else if (strcmp(a, "--background") == 0) {
            if (!sinew_rgba8_parse(v, &o->background))
                return cli_usage_error(cmd, "--background: '%s' is not a colour (#rgb, #rrggbb, #rrggbbaa, a name)", v);
        } else if (strcmp(a, "--frame") == 0) {
            if ((rc = cli_whole(cmd, a, v, &o->frame))) return rc;
            o->have_frame = true;
        } else if (strcmp(a, "--quality") == 0) {
            long q;
            if ((rc = cli_whole(cmd, a, v, &q))) return rc;
            o->quality = (int)q;
            o->have_quality = true;
        } else return cli_unknown_option(cmd, a);
    }
    if (!o->file) return cli_usage_error(cmd, "no input file");
    if (!o->out) return cli_usage_error(cmd, "no output: give --out OUT");
    if (o->have_origin && !o->have_size) return cli_usage_error(cmd, "--origin needs --size");
    if (o->crop && !o->have_size) return cli_usage_error(cmd, "--crop needs --size");
    return 0;
}

static int output_kind(const render_opts *o, out_kind *kind) {
    const char *cmd = "render";
    int conv = sequence_pattern(o->out);
    if (conv < 0 || conv > 1)
        return cli_usage_error(cmd, "'%s': a sequence pattern needs exactly one %%d or %%0Nd", o->out);
    if (o->sheet) {
        if (conv) return cli_usage_error(cmd, "--sheet writes one image; '%s' is a sequence pattern", o->out);
        *kind = OUT_SHEET;
    } else if (conv == 1) {
        if (!ends_with(o->out, ".png")) return cli_usage_error(cmd, "a sequence pattern must end in .png: '%s'", o->out);
        *kind = OUT_SEQUENCE;
    } else if (ends_with(o->out, ".png")) *kind = OUT_PNG;
    else if (ends_with(o->out, ".gif")) *kind = OUT_GIF;
    else if (ends_with(o->out, ".webp")) *kind = OUT_WEBP;
    else if (ends_with(o->out, ".mp4")) *kind = OUT_MP4;
    else if (ends_with(o->out, ".webm")) *kind = OUT_WEBM;
    else
        return cli_usage_error(cmd, "cannot tell the format of '%s': use .png, a %%04d.png pattern, .gif, "
                                    ".webp, .mp4, .webm or --sheet",
                               o->out);
    if (o->have_frame && *kind != OUT_PNG)
        return cli_usage_error(cmd, "--frame selects the frame of a single .png output");
    if (o->dither && *kind != OUT_GIF) return cli_usage_error(cmd, "--dither applies to .gif output");
    if (o->sheet_option_given && *kind != OUT_SHEET)
        return cli_usage_error(cmd, "--sheet-format, --trim, --no-trim, --sheet-padding, --extrude, --pow2, --max-size "
                                    "and --premultiplied apply to --sheet output");
    return 0;
}

/* ---- the render -------------------------------------------------------------------------- */

typedef struct job {
    render_opts o;
    out_kind kind;
    cli_rig rig;               /* the rig, its atlas and texture pages */
    sinew_instance *inst;
    sinew_frame_cache *cache;  /* --cache-fps */
    sinew_renderer *renderer;
    sinew_framebuffer fb;
    char anim_name[512];
    uint32_t armature;
    const char *skin_overlay;  /* owned by data; NULL = the default skin only */
    double fps, duration;
    int32_t play_times;        /* what the instance is told: 0 = forever */
    uint32_t first, count;     /* frames written: [first, first + count) */
    uint32_t total;            /* frames of the whole render (framing covers them all) */
    uint32_t file_plays;       /* GIF/WebP: times the file plays, 0 = forever */
    input_files inputs;
    cli_frame_fn frame_fn;     /* cli_render_frame: the frame goes here instead of to a file */
    void *frame_user;
} job;

static void job_free(job *j) {
    sinew_framebuffer_free(&j->fb);
    sinew_renderer_destroy(j->renderer);
    sinew_instance_destroy(j->inst);
    sinew_frame_cache_destroy(j->cache);
    cli_rig_free(&j->rig);
}

static int fail_input(const char *file, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: error: ", file);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SINEW_EXIT_INPUT;
}

static int load_inputs(job *j) {
    int rc = cli_rig_load(&j->rig, j->o.file, j->o.atlas);
    /* whatever was loaded is released by job_free, whether or not loading finished */
    if (rc)
        return rc;
    inputs_add(&j->inputs, j->o.file);
    inputs_add(&j->inputs, j->rig.atlas_path);
    for (uint32_t p = 0; p < j->rig.page_count; p++)
        inputs_add(&j->inputs, j->rig.page_paths[p]);
    return 0;
}

static int choose_animation(job *j) {
    /* the armature, skin and animation, chosen as every command chooses them (cli/rules.h) */
    cli_choice c;
    int rc = cli_pick(j->rig.data, j->o.file, j->o.armature, j->o.skin, j->o.animation, true, &c);
    if (rc) return rc;
    j->armature = c.armature;
    j->skin_overlay = c.skin_overlay;
    sinew_armature_info ai = c.arm;
    sinew_animation_info an = c.anim;
    size_t n = strlen(an.name);
    if (n >= sizeof j->anim_name) return fail_input(j->o.file, "animation name too long");
    memcpy(j->anim_name, an.name, n + 1);

    j->fps = j->o.fps > 0.0 ? j->o.fps : (double)ai.frame_rate;
    if (!(j->fps > 0.0)) j->fps = 24.0;
    j->duration = (double)an.duration_s;
    if (!isfinite(j->duration) || j->duration < 0.0) j->duration = 0.0;

    /* By default one pass through the animation; --loops N renders N passes. A looping
     * animation's sample at the end of a pass equals the next pass's first one, so it is left out;
     * a finite animation ends on its final pose (one extra sample). GIF and WebP carry the rest:
     * a single rendered pass repeats as the data says (0 = forever, else playTimes times). */
    bool looping = an.play_times == 0;
    double passes = j->o.loops > 0 ? (double)j->o.loops : 1.0;
    double frames = j->duration * j->fps * passes;
    if (frames > 1e6) return fail_input(j->o.file, "the animation would need %.0f frames (limit 1000000)", frames);
    uint32_t n_frames = (uint32_t)llround(frames);
    if (looping && n_frames > 0) {
        j->play_times = 0;
    } else {
        n_frames += 1;
        j->play_times = (int32_t)passes;
    }
    if (j->o.loops > 0) j->file_plays = looping ? 0u : 1u;
    else j->file_plays = looping ? 0u : (uint32_t)(an.play_times > 0 ? an.play_times : 1);
    j->first = 0;
    j->count = n_frames;
    if (j->kind == OUT_PNG) {
        long k = j->o.have_frame ? j->o.frame : 0;
        if ((unsigned long)k >= n_frames)
            return cli_usage_error("render", "--frame %ld is out of range: '%s' has frames 0..%u at %g fps", k,
                                   j->anim_name, n_frames - 1, j->fps);
        j->first = (uint32_t)k;
        j->count = 1;
    }
    j->total = n_frames;
    return 0;
}

static int start_instance(job *j) {
    sinew_error err = {0};
    sinew_instance_options io = {0};
    sinew_armature_info ai;
    sinew_data_get_armature_info(j->rig.data, j->armature, &ai);
    io.armature = ai.name;
    io.skin = j->skin_overlay;
    io.atlas = j->rig.atlas;
    if (!j->inst && j->o.cache_fps > 0.0 && !j->cache &&
        sinew_frame_cache_create(j->rig.data, j->o.cache_fps, NULL, &j->cache, &err) != SINEW_OK)
        return cli_input_error(j->o.file, &err);
    io.frame_cache = j->cache;
    if (!j->inst) {
        sinew_status st = sinew_instance_create(j->rig.data, &io, &j->inst, &err);
        if (st != SINEW_OK) return cli_input_error(j->o.file, &err);
    }
    memset(&err, 0, sizeof err);
    if (sinew_instance_play(j->inst, j->anim_name, j->play_times, &err) != SINEW_OK)
        return cli_input_error(j->o.file, &err);
    sinew_instance_update(j->inst, 0.0);
    return 0;
}

/* Steps the instance to frame k (frames are visited in increasing order). */
static void advance_to(job *j, uint32_t *at, uint32_t k) {
    while (*at < k) {
        sinew_instance_update(j->inst, 1.0 / j->fps);
        sinew_event ev;
        while (sinew_instance_poll_event(j->inst, &ev)) {
        }
        (*at)++;
    }
}

static int compute_framing(job *j, sinew_framing *fr) {
    sinew_error err = {0};
    sinew_rect bounds = sinew_rect_empty();
    bool any = false;
    if (!j->o.have_size || !j->o.have_origin) {
        int rc = start_instance(j);
        if (rc) return rc;
        /* the bounds of every frame, even for one --frame K: a single frame is framed exactly
         * as it is in the sequence, so frames rendered one by one line up */
        uint32_t at = 0;
        for (uint32_t k = 0; k < j->total; k++) {
            advance_to(j, &at, k);
            sinew_drawlist dl;
            sinew_instance_drawlist(j->inst, &dl);
            if (sinew_drawlist_bounds(&dl, &bounds, any)) any = true;
        }
        /* the frames are drawn by a fresh instance: replaying this one would start the parent's
         * animation again but leave its child armatures where the pass left them, so frame K
         * would depend on whether the bounds were measured (--origin) */
        sinew_instance_destroy(j->inst);
        j->inst = NULL;
    }
    sinew_status st;
    if (j->o.have_size) {
        float ox = j->o.origin_x, oy = j->o.origin_y;
        float scale = j->o.scale;
        if (any && !j->o.have_origin && !j->o.crop && !j->o.have_scale) {
            /* --size alone fits the whole animation into WxH (padding kept around it); --crop,
             * --scale or --origin keep the given scale and cut what does not fit */
            float bw = bounds.x1 - bounds.x0, bh = bounds.y1 - bounds.y0;
            float aw = (float)j->o.width - 2.0f * j->o.padding, ah = (float)j->o.height - 2.0f * j->o.padding;
            if (aw < 1.0f) aw = (float)j->o.width;
            if (ah < 1.0f) ah = (float)j->o.height;
            if (bw > 0.0f && bh > 0.0f) scale = fminf(aw / bw, ah / bh);
            if (scale > 100.0f) scale = 100.0f;
        }
        if (!j->o.have_origin) {
            if (any) {
                ox = (float)j->o.width * 0.5f - (bounds.x0 + bounds.x1) * 0.5f * scale;
                oy = (float)j->o.height * 0.5f - (bounds.y0 + bounds.y1) * 0.5f * scale;
            } else {
                ox = (float)j->o.width * 0.5f;
                oy = (float)j->o.height * 0.5f;
            }
        }
        st = sinew_framing_fixed(j->o.width, j->o.height, ox, oy, scale, fr, &err);
    } else {
        if (!any)
            return fail_input(j->o.file, "animation '%s' draws nothing (no textured display); give --size to "
                                         "render empty frames",
                              j->anim_name);
        st = sinew_framing_fit(bounds, j->o.scale, j->o.padding, fr, &err);
    }
    if (st != SINEW_OK) {
        cli_print_error(j->o.file, &err);
        return SINEW_EXIT_INPUT;
    }
    return 0;
}

static sinew_export_format export_format(out_kind k) {
    switch (k) {
    case OUT_PNG: return SINEW_EXPORT_PNG;
    case OUT_SEQUENCE: return SINEW_EXPORT_PNG_SEQUENCE;
    case OUT_SHEET: return SINEW_EXPORT_SHEET;
    case OUT_GIF: return SINEW_EXPORT_GIF;
    case OUT_WEBP: return SINEW_EXPORT_WEBP;
    case OUT_MP4: return SINEW_EXPORT_MP4;
    case OUT_WEBM: return SINEW_EXPORT_WEBM;
    }
    return SINEW_EXPORT_AUTO;
}

/* Output problems (a missing folder, an output that is one of the inputs, a failed write, ffmpeg
 * missing or failing; the exporter's message says which and how to fix it) are I/O: exit 3.
 * The options were validated before, so nothing here is a usage error. */
static int output_error(const char *path, const sinew_error *err) {
    cli_print_error(path, err);
    /* a limit of the output (a sheet frame larger than --max-size) is not an I/O failure */
    return err->code == SINEW_E_NOMEM ? SINEW_EXIT_INTERNAL : err->code == SINEW_E_LIMIT ? SINEW_EXIT_INPUT : SINEW_EXIT_IO;
}

/* What the exporter is told (frame size from the framing; NULL before it is known). */
static void export_options(const job *j, const sinew_framing *fr, const char *out_path, const char *sheet_json,
                           sinew_export_options *eo) {
    memset(eo, 0, sizeof *eo);
    eo->format = export_format(j->kind);
    eo->path = out_path;
    eo->width = fr ? fr->width : 0;
    eo->height = fr ? fr->height : 0;
    eo->fps = j->fps;
    eo->plays = j->file_plays;
    if (j->o.have_quality) {
        eo->quality = j->o.quality > 0 ? (float)j->o.quality : 1.0f;
        eo->lossy = j->kind == OUT_WEBP;
    }
    eo->dither = j->o.dither ? 1 : -1;
    eo->video_background = j->o.background;
    eo->sheet_json = sheet_json;
    eo->sheet = j->o.sheet_opts;
    eo->inputs = j->inputs.path;
    eo->input_count = j->inputs.count;
    eo->log = cli_log;
    eo->log_user = (void *)out_path;
}

static int render_frames(job *j, const sinew_framing *fr, const char *out_path, const char *sheet_json) {
    sinew_error err = {0};
    sinew_status st = sinew_renderer_create(NULL, &j->renderer, &err);
    if (st == SINEW_OK) st = sinew_framebuffer_init(&j->fb, fr->width, fr->height, NULL, &err);
    if (st != SINEW_OK) {
        cli_print_error(j->o.file, &err);
        return SINEW_EXIT_INTERNAL;
    }
    sinew_renderer_set_log(j->renderer, cli_log, (void *)j->o.file);

    sinew_export_options eo;
    export_options(j, fr, out_path, sheet_json, &eo);
    sinew_exporter *ex = NULL;
    st = sinew_export_begin(&eo, &ex, &err);
    if (st != SINEW_OK) return output_error(out_path, &err);

    int rc = start_instance(j);
    if (rc) {
        sinew_export_abort(ex);
        return rc;
    }
    progress pr = {!j->o.quiet && isatty(STDERR_FILENO), j->count, "rendering"};
    cli_warnings_flush(); /* the load's warnings above the bar, not inside it */
    uint32_t at = 0;
    for (uint32_t i = 0; i < j->count; i++) {
        advance_to(j, &at, j->first + i);
        sinew_drawlist dl;
        sinew_instance_drawlist(j->inst, &dl);
        sinew_framebuffer_clear(&j->fb, j->o.background);
        memset(&err, 0, sizeof err);
        st = sinew_renderer_draw(j->renderer, &dl, j->rig.textures, &fr->view, &j->fb, &err);
        if (st != SINEW_OK) {
            progress_clear(&pr);
            sinew_export_abort(ex);
            cli_print_error(j->o.file, &err);
            return SINEW_EXIT_INTERNAL;
        }
        st = sinew_export_frame(ex, &j->fb, &err);
        if (st != SINEW_OK) {
            progress_clear(&pr);
            sinew_export_abort(ex);
            return output_error(out_path, &err);
        }
        progress_show(&pr, i + 1);
    }
    memset(&err, 0, sizeof err);
    st = sinew_export_end(ex, &err);
    if (st != SINEW_OK) {
        progress_clear(&pr);
        return output_error(out_path, &err);
    }
    progress_end(&pr, out_path);
    return 0;
}

/* Copies PATTERN to OUT with %a / %r replaced by the animation / armature name (characters that
 * do not belong in a file name, such as '/', become '_'); other % sequences are kept. */
static bool expand_names(const char *pattern, const char *armature, const char *animation, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = pattern; *p; p++) {
        const char *name = NULL;
        if (p[0] == '%' && p[1] == '%') {
            if (n + 2 >= size) return false;
            out[n++] = *p++;
            out[n++] = *p;
            continue;
        }
        if (p[0] == '%' && (p[1] == 'a' || p[1] == 'r')) name = p[1] == 'a' ? animation : armature;
        if (!name) {
            if (n + 1 >= size) return false;
            out[n++] = *p;
            continue;
        }
        for (const char *c = name; *c; c++) {
            if (n + 1 >= size) return false;
            bool bad = *c == '/' || *c == '\\' || *c == '%' || *c == ':' || (unsigned char)*c < 32;
            out[n++] = bad ? '_' : *c;
        }
        p++;
    }
    out[n] = '\0';
    return true;
}

static bool has_name_field(const char *pattern, char which) {
    for (const char *p = pattern; *p; p++)
        if (p[0] == '%') {
            if (p[1] == which) return true;
            if (p[1]) p++;
        }
    return false;
}

/* A sheet's --out with an extension that is not the page's or the atlas's (sh.gif, sh.webp). */
static bool sheet_other_extension(const char *out) {
    const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
    if (!dot || (slash && dot < slash) || dot == out || (slash && dot == slash + 1)) return false;
    return !ends_with(out, ".png") && !ends_with(out, ".json");
}

/* One render of the chosen armature and animation to OUT (a pattern with %a / %r expanded). */
static int render_one(job *j) {
    char expanded[4096];
    if (!expand_names(j->o.out, j->o.armature ? j->o.armature : "", j->o.animation ? j->o.animation : "", expanded,
                      sizeof expanded))
        return cli_usage_error("render", "--out is too long once names are put in: '%s'", j->o.out);
    /* --sheet OUT writes OUT.png and OUT.json (OUT may already end in .png or .json) */
    char sheet_png[4096];
    const char *out_path = expanded;
    if (j->kind == OUT_SHEET) {
        size_t n = strlen(expanded);
        if (ends_with(expanded, ".png") || ends_with(expanded, ".json")) n -= ends_with(expanded, ".png") ? 4 : 5;
        else if (sheet_other_extension(expanded))
            return cli_usage_error("render",
                                   "--sheet writes a PNG page and its atlas (OUT.png and OUT.json): --out '%s' would give "
                                   "'%s.png'; give --out without the extension or with .png",
                                   expanded, expanded);
        if (n == 0 || n + 6 > sizeof sheet_png) return cli_usage_error("render", "bad --out for --sheet: '%s'", expanded);
        memcpy(sheet_png, expanded, n);
        memcpy(sheet_png + n, ".png", 5);
        out_path = sheet_png; /* the exporter names the atlas after the page: OUT.json, OUT.tres, OUT-N.json */
    }
    if (!j->frame_fn) {
        /* the output is checked before anything is rendered: a folder in its place, a missing
         * folder, an input as the output */
        sinew_export_options eo;
        export_options(j, NULL, out_path, NULL, &eo);
        sinew_error err = {0};
        if (sinew_export_check(&eo, &err) != SINEW_OK) return output_error(out_path, &err);
    }
    int rc = choose_animation(j);
    sinew_framing fr;
    if (!rc) rc = compute_framing(j, &fr);
    if (!rc && j->frame_fn) {
        /* the same instance state the PNG writer would see at frame `first` */
        rc = start_instance(j);
        uint32_t at = 0;
        if (!rc) {
            advance_to(j, &at, j->first);
            sinew_drawlist dl;
            sinew_instance_drawlist(j->inst, &dl);
            rc = j->frame_fn(j->frame_user, &j->rig, &dl, &fr, j->o.background);
        }
        return rc;
    }
    if (!rc) rc = render_frames(j, &fr, out_path, NULL);
    return rc;
}

/* Ends what one render made (the instance, its cache, the renderer and framebuffer), keeping the
 * rig for the next. */
static void job_reset(job *j) {
    sinew_framebuffer_free(&j->fb);
    memset(&j->fb, 0, sizeof j->fb);
    sinew_renderer_destroy(j->renderer);
    j->renderer = NULL;
    sinew_instance_destroy(j->inst);
    j->inst = NULL;
    sinew_frame_cache_destroy(j->cache);
    j->cache = NULL;
}

/* --armature all / --animation all: every armature (that has the animation, when one is named) and
 * every animation, each to OUT with its names put in; the paths written are printed. */
static int render_all(job *j, bool all_armatures, bool all_animations) {
    sinew_data_info di;
    sinew_data_get_info(j->rig.data, &di);
    const char *only = all_animations ? NULL : j->o.animation;
    uint32_t done = 0;
    uint32_t main_armature = j->o.armature ? sinew_data_find_armature(j->rig.data, j->o.armature)
                                           : cli_default_armature(j->rig.data, NULL);
    if (!all_armatures && !j->o.armature) cli_note_armature(j->rig.data, j->o.file, main_armature);
    /* before anything is rendered: no two renders may write the same file */
    typedef struct planned {
        char path[4096];
        const char *armature, *animation;
    } planned;
    planned *plan = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    for (uint32_t a = 0; a < di.armature_count && !rc; a++) {
        sinew_armature_info ai;
        if (sinew_data_get_armature_info(j->rig.data, a, &ai) != SINEW_OK) continue;
        if (!all_armatures && a != main_armature) continue;
        for (uint32_t k = 0; k < ai.animation_count && !rc; k++) {
            sinew_animation_info an;
            if (sinew_data_get_animation_info(j->rig.data, a, k, &an) != SINEW_OK) continue;
            if (only && strcmp(only, an.name) != 0) continue;
            if (count == cap) {
                planned *n = realloc(plan, (cap = cap ? cap * 2 : 16) * sizeof *plan);
                if (!n) {
                    free(plan);
                    return SINEW_EXIT_INTERNAL;
                }
                plan = n;
            }
            planned *p = &plan[count];
            if (!expand_names(j->o.out, ai.name, an.name, p->path, sizeof p->path)) {
                rc = cli_usage_error("render", "--out is too long once names are put in: '%s'", j->o.out);
                break;
            }
            p->armature = ai.name;
            p->animation = an.name;
            for (size_t q = 0; q < count && !rc; q++) {
                if (strcmp(plan[q].path, p->path) != 0) continue;
                bool same_armature = strcmp(plan[q].armature, p->armature) == 0;
                bool same_animation = strcmp(plan[q].animation, p->animation) == 0;
                const char *field = !same_armature && !has_name_field(j->o.out, 'r')   ? "%r (the armature's name)"
                                    : !same_animation && !has_name_field(j->o.out, 'a') ? "%a (the animation's name)"
                                                                                         : NULL;
                if (field)
                    rc = cli_usage_error("render",
                                         "--out '%s' would write '%s' for both %s/%s and %s/%s (the second would replace "
                                         "the first): put %s in it",
                                         j->o.out, p->path, plan[q].armature, plan[q].animation, p->armature,
                                         p->animation, field);
                else
                    rc = cli_usage_error("render",
                                         "--out '%s' would write '%s' for both %s/%s and %s/%s: their names differ only "
                                         "in characters a file name cannot hold ('/', '\\', ':', '%%' become '_')",
                                         j->o.out, p->path, plan[q].armature, plan[q].animation, p->armature,
                                         p->animation);
            }
            count++;
        }
    }
    free(plan);
    if (rc) return rc;
    for (uint32_t a = 0; a < di.armature_count; a++) {
        sinew_armature_info ai;
        if (sinew_data_get_armature_info(j->rig.data, a, &ai) != SINEW_OK) continue;
        if (!all_armatures && a != main_armature) continue;
        for (uint32_t k = 0; k < ai.animation_count; k++) {
            sinew_animation_info an;
            if (sinew_data_get_animation_info(j->rig.data, a, k, &an) != SINEW_OK) continue;
            if (only && strcmp(only, an.name) != 0) continue;
            j->o.armature = ai.name;
            j->o.animation = an.name;
            rc = render_one(j);
            job_reset(j);
            if (rc) return rc;
            char path[4096];
            if (expand_names(j->o.out, ai.name, an.name, path, sizeof path)) printf("%s\n", path);
            done++;
        }
    }
    if (done == 0 && only) return cli_unknown_animation(j->rig.data, j->o.file, SINEW_INVALID_INDEX, only);
    if (done == 0) return fail_input(j->o.file, "no armature has an animation");
    return 0;
}

int cli_render_frame(int argc, char **argv, cli_frame_fn fn, void *user) {
    job j;
    memset(&j, 0, sizeof j);
    int rc = parse_args(argc, argv, &j.o);
    if (rc) return rc < 0 ? SINEW_EXIT_OK : rc;
    rc = output_kind(&j.o, &j.kind);
    if (rc) return rc;
    if (j.kind != OUT_PNG) return cli_usage_error(argv[0], "the output must be one .png: '%s'", j.o.out);
    if ((j.o.armature && strcmp(j.o.armature, "all") == 0) || (j.o.animation && strcmp(j.o.animation, "all") == 0))
        return cli_usage_error(argv[0], "'all' renders many frames; name the armature and animation");
    j.frame_fn = fn;
    j.frame_user = user;
    rc = load_inputs(&j);
    if (!rc) rc = render_one(&j);
    job_free(&j);
    return rc;
}

int sinew_cmd_render(int argc, char **argv) {
    job j;
    memset(&j, 0, sizeof j);
    int rc = parse_args(argc, argv, &j.o);
    if (rc < 0) return SINEW_EXIT_OK; /* --help */
    if (rc) return rc;
    rc = output_kind(&j.o, &j.kind);
    if (rc) return rc;
    if (j.o.have_quality && j.kind != OUT_WEBP && j.kind != OUT_GIF)
        return cli_usage_error("render", "--quality applies to .webp (lossy) and .gif output");
    bool all_armatures = j.o.armature && strcmp(j.o.armature, "all") == 0;
    bool all_animations = j.o.animation && strcmp(j.o.animation, "all") == 0;
    if (all_animations && !has_name_field(j.o.out, 'a'))
        return cli_usage_error("render", "--animation all writes one output per animation: put %%a (its name) in --out");
    if (all_armatures && !has_name_field(j.o.out, 'r'))
        return cli_usage_error("render", "--armature all writes one output per armature: put %%r (its name) in --out");
    if (!all_armatures && !all_animations && (has_name_field(j.o.out, 'a') || has_name_field(j.o.out, 'r')))
        return cli_usage_error("render", "%%a and %%r in --out go with --animation all and --armature all");
    /* --armature all alone renders every animation of every armature: render_all refuses an OUT
     * that would give two of them one name (without %a), before anything is rendered */
    if (all_armatures && !j.o.animation) all_animations = true;

    rc = load_inputs(&j);
    if (!rc && (all_armatures || all_animations)) {
        if (all_armatures) j.o.armature = NULL;
        rc = render_all(&j, all_armatures, all_animations);
    } else if (!rc) {
        rc = render_one(&j);
    }
    job_free(&j);
    return rc;
}
