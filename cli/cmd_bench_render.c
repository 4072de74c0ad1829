/* sinew bench-render: sinew's rasterizer against cairo on the same draw lists, in one run.
 *
 * The animation's frames are stepped once with the runtime and their draw lists copied; the timed
 * loops then only rasterize: sinew_renderer_draw for sinew, the reference renderer of cairo_ref.c
 * (each triangle a clipped, affine-mapped image) for cairo. A last, untimed pass draws every frame
 * both ways and reports the PSNR between them: the speed ratio is printed beside the measured
 * difference of the images, never beside a claim of equal quality. */
#define _POSIX_C_SOURCE 199309L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cairo_ref.h"
#include "cli.h"
#include "rules.h"
#include "rig_inputs.h"
#include "sinew/data.h"
#include "sinew/instance.h"
#include "sinew/render.h"

const char sinew_cmd_bench_render_help[] = "benchmark the rasterizer against cairo on an animation's draw lists";

const cli_help sinew_cmd_bench_render_usage = {
    "sinew bench-render FILE --animation NAME [--atlas TEX] [--armature NAME] [--skin NAME]\n"
    "                          [--size WxH] [--scale S] [--frames N] [--runs R] [--json]",
    "Steps the animation once with the runtime (at the data's frame rate, looping) and keeps the\n"
    "draw lists of N frames. Then, R times, draws every frame with sinew's rasterizer, with cairo\n"
    "drawing each triangle as a clipped, affine-mapped image with the triangles of one command\n"
    "added into a group (the same rules as sinew: no seams on shared edges), and with cairo drawing\n"
    "the triangles straight onto the target (faster, shows seams). Prints the best and the median\n"
    "ms per frame of each (thread CPU time), the ratios, and the PSNR of sinew's frames against\n"
    "each cairo's (measured in an untimed pass over every frame; per frame against the seamless one).\n"
    "Framing: the bounds of all frames at --scale S with 4 px of padding, or with --size WxH the\n"
    "bounds fitted and centred into WxH (--scale then multiplies the fit).\n",
    "  --animation NAME  the animation to draw\n"
    "  --armature NAME   the armature (default: the main one, else the first that has the animation)\n"
    "  --skin NAME       DragonBones: the skin overlaid on the default skin; an XML rig: the\n"
    "                    armature NAME@SKIN\n"
    "  --atlas TEX       texture atlas JSON (default: found next to FILE)\n"
    "  --size WxH        fit the frames into WxH\n"
    "  --scale S         pixels per data unit, (0, 100] (default 1)\n"
    "  --frames N        frames, 1..100000 (default: one pass of the animation)\n"
    "  --runs R          timed runs, 1..1000 (default 5)\n"
    "  --json            one JSON object instead of text\n",
    "  sinew bench-render hero_ske.json --animation walk\n"
    "  sinew bench-render hero_ske.json --animation walk --size 512x512 --runs 3 --json\n",
    NULL};

typedef struct bench_opts {
    const char *file, *atlas, *armature, *animation, *skin;
    bool have_size, json;
    uint32_t width, height;
    double scale;
    long frames, runs;
} bench_opts;

/* One frame's draw list, copied out of the instance. */
typedef struct frame_list {
    float *positions, *uvs;
    uint32_t *indices;
    sinew_draw_cmd *cmds;
    sinew_drawlist list;
} frame_list;

typedef struct bench {
    bench_opts o;
    cli_rig rig;               /* the rig, its atlas and texture pages */
    sinew_instance *inst;
    sinew_renderer *renderer;
    sinew_framebuffer fb;
    ref_cairo rc;
    cairo_surface_t *surface;
    cairo_t *cr;
    uint8_t *ref_pixels;
    frame_list *frames;
    uint32_t frame_count;
    const char *armature_name, *animation_name;
    const char *skin_overlay; /* sinew_instance_options.skin (owned by the data) */
    double fps;
} bench;

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int parse_args(int argc, char **argv, bench_opts *o) {
    const char *cmd = "bench-render";
    int rc;
    memset(o, 0, sizeof *o);
    o->scale = 1.0;
    o->runs = 5;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_help_or_file(cmd, &sinew_cmd_bench_render_usage, a, &o->file, &rc)) {
            if (rc) return rc;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = true;
            continue;
        }
        if (i + 1 >= argc) return cli_usage_error(cmd, "%s needs a value", a);
        const char *v = argv[++i];
        if (strcmp(a, "--atlas") == 0) o->atlas = v;
        else if (strcmp(a, "--armature") == 0) o->armature = v;
        else if (strcmp(a, "--animation") == 0) o->animation = v;
        else if (strcmp(a, "--skin") == 0) o->skin = v;
        else if (strcmp(a, "--size") == 0) {
            if ((rc = cli_size(cmd, a, v, &o->width, &o->height))) return rc;
            o->have_size = true;
        } else if (strcmp(a, "--scale") == 0) {
            if ((rc = cli_number(cmd, a, v, &o->scale))) return rc;
        } else if (strcmp(a, "--frames") == 0) {
            if ((rc = cli_whole(cmd, a, v, &o->frames))) return rc;
        } else if (strcmp(a, "--runs") == 0) {
            if ((rc = cli_whole(cmd, a, v, &o->runs))) return rc;
        } else return cli_unknown_option(cmd, a);
    }
    if (!o->file) return cli_usage_error(cmd, "no input file");
    if (!o->animation) return cli_usage_error(cmd, "missing --animation NAME");
    return 0;
}

static void bench_free(bench *b) {
    for (uint32_t k = 0; b->frames && k < b->frame_count; k++) {
        free(b->frames[k].positions);
        free(b->frames[k].uvs);
        free(b->frames[k].indices);
        free(b->frames[k].cmds);
    }
    free(b->frames);
    free(b->ref_pixels);
    if (b->cr) cairo_destroy(b->cr);
    if (b->surface) cairo_surface_destroy(b->surface);
    ref_cairo_free(&b->rc);
    sinew_framebuffer_free(&b->fb);
    sinew_renderer_destroy(b->renderer);
    sinew_instance_destroy(b->inst);
    cli_rig_free(&b->rig);
}


static int out_of_memory(void) {
    fprintf(stderr, "sinew bench-render: out of memory\n");
    return SINEW_EXIT_INTERNAL;
}

/* The skeleton, its atlas and the atlas pages. */
static int load_inputs(bench *b) {
    int rc = cli_rig_load(&b->rig, b->o.file, b->o.atlas);
    /* whatever was loaded is released by bench_free, whether or not loading finished */
    return rc;
}

/* The armature (given, or the first with the animation), the skin and the animation (cli/rules.h). */
static int choose(bench *b, uint32_t *armature, sinew_animation_info *anim) {
    cli_choice c;
    int rc = cli_pick(b->rig.data, b->o.file, b->o.armature, b->o.skin, b->o.animation, true, &c);
    if (rc) return rc;
    uint32_t ai = c.armature;
    sinew_armature_info info = c.arm;
    *anim = c.anim;
    *armature = ai;
    b->armature_name = info.name;
    b->skin_overlay = c.skin_overlay;
    b->animation_name = anim->name;
    b->fps = info.frame_rate > 0.0f ? (double)info.frame_rate : 24.0;
    return 0;
}

static bool copy_list(frame_list *f, const sinew_drawlist *dl) {
    size_t v = dl->vertex_count, i = dl->index_count, c = dl->cmd_count;
    f->positions = malloc(v ? v * 2 * sizeof(float) : 1);
    f->uvs = malloc(v ? v * 2 * sizeof(float) : 1);
    f->indices = malloc(i ? i * sizeof(uint32_t) : 1);
    f->cmds = malloc(c ? c * sizeof(sinew_draw_cmd) : 1);
    if (!f->positions || !f->uvs || !f->indices || !f->cmds) return false;
    if (v) {
        memcpy(f->positions, dl->positions, v * 2 * sizeof(float));
        memcpy(f->uvs, dl->uvs, v * 2 * sizeof(float));
    }
    if (i) memcpy(f->indices, dl->indices, i * sizeof(uint32_t));
    if (c) memcpy(f->cmds, dl->cmds, c * sizeof(sinew_draw_cmd));
    f->list = (sinew_drawlist){f->positions, f->uvs, f->indices, f->cmds, dl->vertex_count, dl->index_count,
                               dl->cmd_count};
    return true;
}

/* An instance of the armature playing the animation, at its start (sinew_instance_update(0)). */
static int start_instance(const bench *b, uint32_t armature, const sinew_animation_info *anim, sinew_instance **out) {
    sinew_error err = {0};
    sinew_armature_info info;
    sinew_data_get_armature_info(b->rig.data, armature, &info);
    sinew_instance_options io = {0};
    io.armature = info.name;
    io.skin = b->skin_overlay;
    io.atlas = b->rig.atlas;
    if (sinew_instance_create(b->rig.data, &io, out, &err) != SINEW_OK) return cli_input_error(b->o.file, &err);
    memset(&err, 0, sizeof err);
    if (sinew_instance_play(*out, anim->name, 0, &err) != SINEW_OK) return cli_input_error(b->o.file, &err);
    sinew_instance_update(*out, 0.0);
    return 0;
}

/* Frame k of the animation: one step past frame k - 1 (events dropped). */
static void step_frame(const bench *b, sinew_instance *inst, long k) {
    if (k > 0) sinew_instance_update(inst, 1.0 / b->fps);
    while (sinew_instance_poll_event(inst, NULL)) {
    }
}

/* Steps the animation (looping) and copies the draw list of every frame; unites their bounds. */
static int capture(bench *b, uint32_t armature, const sinew_animation_info *anim, sinew_rect *bounds, bool *any) {
    int rc = start_instance(b, armature, anim, &b->inst);
    if (rc) return rc;
    double d = (double)anim->duration_s;
    long n = b->o.frames;
    if (n == 0) {
        double f = isfinite(d) && d > 0.0 ? d * b->fps : 1.0;
        n = f > 10000.0 ? 10000 : (long)llround(f);
        if (n < 1) n = 1;
    }
    b->frames = calloc((size_t)n, sizeof *b->frames);
    if (!b->frames) return out_of_memory();
    *bounds = sinew_rect_empty();
    *any = false;
    for (long k = 0; k < n; k++) {
        step_frame(b, b->inst, k);
        sinew_drawlist dl;
        sinew_instance_drawlist(b->inst, &dl);
        b->frame_count = (uint32_t)k + 1;
        if (!copy_list(&b->frames[k], &dl)) return out_of_memory();
        if (sinew_drawlist_bounds(&dl, bounds, *any)) *any = true;
    }
    return 0;
}

static int make_framing(bench *b, sinew_rect bounds, sinew_framing *fr) {
    sinew_error err = {0};
    sinew_status st;
    const float pad = 4.0f;
    if (b->o.have_size) {
        double bw = (double)bounds.x1 - bounds.x0, bh = (double)bounds.y1 - bounds.y0;
        double aw = (double)b->o.width - 2.0 * pad, ah = (double)b->o.height - 2.0 * pad;
        if (aw < 1.0) aw = 1.0;
        if (ah < 1.0) ah = 1.0;
        double s = 1.0;
        if (bw > 0.0 && bh > 0.0) s = fmin(aw / bw, ah / bh);
        else if (bw > 0.0) s = aw / bw;
        else if (bh > 0.0) s = ah / bh;
        s *= b->o.scale;
        float ox = (float)((double)b->o.width * 0.5 - ((double)bounds.x0 + bounds.x1) * 0.5 * s);
        float oy = (float)((double)b->o.height * 0.5 - ((double)bounds.y0 + bounds.y1) * 0.5 * s);
        st = sinew_framing_fixed(b->o.width, b->o.height, ox, oy, (float)s, fr, &err);
    } else {
        st = sinew_framing_fit(bounds, (float)b->o.scale, pad, fr, &err);
    }
    if (st != SINEW_OK) {
        cli_print_error(b->o.file, &err);
        return SINEW_EXIT_INPUT;
    }
    return 0;
}

static void cairo_clear(cairo_t *cr) {
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

/* One pass over every frame; returns ms per frame (thread CPU time). mode 0 = sinew,
 * 1 = cairo seamless, 2 = cairo plain. */
static double timed_pass(bench *b, const sinew_framing *fr, int mode) {
    double t0 = cpu_ms();
    for (uint32_t k = 0; k < b->frame_count; k++) {
        const sinew_drawlist *l = &b->frames[k].list;
        if (mode == 0) {
            sinew_framebuffer_clear(&b->fb, (sinew_rgba8){0, 0, 0, 0});
            sinew_renderer_draw(b->renderer, l, b->rig.textures, &fr->view, &b->fb, NULL);
        } else {
            cairo_clear(b->cr);
            ref_cairo_draw(&b->rc, b->cr, l, &fr->view, mode == 1);
            cairo_surface_flush(b->surface);
        }
    }
    return (cpu_ms() - t0) / (double)b->frame_count;
}

/* Whether a frame has 6.0 vector shapes (which the cairo reference draws from their outlines). */
static bool has_shapes(const sinew_drawlist *l) {
    for (uint32_t c = 0; c < l->cmd_count; c++)
        if (l->cmds[c].flags & (SINEW_DRAW_FILL | SINEW_DRAW_STROKE)) return true;
    return false;
}

/* The seamless cairo reference of frame k into b->ref_pixels. Vector shapes are drawn from their
 * outlines, which only the instance has: `live` is an instance stepped to frame k (NULL when the
 * frame has none), which draws its own list the same as the copy. */
static void reference(bench *b, const sinew_framing *fr, uint32_t k, sinew_instance *live) {
    cairo_clear(b->cr);
    if (live) {
        sinew_drawlist dl;
        sinew_instance_drawlist(live, &dl);
        ref_cairo_draw_shapes(&b->rc, b->cr, &dl, &fr->view, true, live);
    } else {
        ref_cairo_draw(&b->rc, b->cr, &b->frames[k].list, &fr->view, true);
    }
    ref_surface_to_rgba(b->surface, b->ref_pixels);
}

static void stats(double *v, long n, double *best, double *median) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *best = v[0];
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void json_string(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

int sinew_cmd_bench_render(int argc, char **argv) {
    bench b;
    memset(&b, 0, sizeof b);
    int rc = parse_args(argc, argv, &b.o);
    if (rc < 0) return SINEW_EXIT_OK;
    if (rc) return rc;

    uint32_t armature = 0;
    sinew_animation_info anim;
    sinew_rect bounds;
    bool any = false;
    sinew_framing fr;
    rc = load_inputs(&b);
    if (!rc) rc = choose(&b, &armature, &anim);
    if (!rc) rc = capture(&b, armature, &anim, &bounds, &any);
    if (!rc && !any) {
        fprintf(stderr, "%s: error: animation '%s' draws nothing (no textured display)\n", b.o.file,
                b.animation_name);
        rc = SINEW_EXIT_INPUT;
    }
    if (!rc) rc = make_framing(&b, bounds, &fr);
    if (rc) {
        bench_free(&b);
        return rc;
    }

    sinew_error err = {0};
    if (sinew_renderer_create(NULL, &b.renderer, &err) != SINEW_OK ||
        sinew_framebuffer_init(&b.fb, fr.width, fr.height, NULL, &err) != SINEW_OK) {
        cli_print_error(b.o.file, &err);
        bench_free(&b);
        return SINEW_EXIT_INTERNAL;
    }
    sinew_renderer_set_log(b.renderer, cli_log, (void *)b.o.file);
    size_t px_bytes = (size_t)fr.width * fr.height * 4;
    b.surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)fr.width, (int)fr.height);
    b.ref_pixels = malloc(px_bytes);
    if (ref_cairo_init(&b.rc, b.rig.textures) != 0 || cairo_surface_status(b.surface) != CAIRO_STATUS_SUCCESS ||
        !b.ref_pixels || cairo_status(b.cr = cairo_create(b.surface)) != CAIRO_STATUS_SUCCESS) {
        bench_free(&b);
        return out_of_memory();
    }

    /* the work per frame */
    uint64_t cmds = 0, tris = 0;
    for (uint32_t k = 0; k < b.frame_count; k++) {
        cmds += b.frames[k].list.cmd_count;
        tris += b.frames[k].list.index_count / 3;
    }

    /* warm-up (sinew's scratch buffers grow, caches fill), then the runs interleaved so that any
     * change in the machine's load hits all three alike */
    for (int m = 0; m < 3; m++) timed_pass(&b, &fr, m);
    long runs = b.o.runs;
    double *ms = malloc((size_t)runs * 3 * sizeof(double));
    double *psnr = malloc((size_t)b.frame_count * sizeof(double));
    if (!ms || !psnr) {
        free(ms);
        free(psnr);
        bench_free(&b);
        return out_of_memory();
    }
    for (long r = 0; r < runs; r++)
        for (int m = 0; m < 3; m++) ms[(size_t)m * (size_t)runs + (size_t)r] = timed_pass(&b, &fr, m);
    double best[3], median[3];
    for (int m = 0; m < 3; m++) stats(ms + (size_t)m * (size_t)runs, runs, &best[m], &median[m]);

    /* quality: every frame drawn the three ways (untimed); sinew's image against each cairo one
       (with 6.0 vector shapes, the seamless reference draws them from their outlines: the frames
       are stepped again for it) */
    double psnr_min = 1e9, psnr_sum = 0, plain_min = 1e9, plain_sum = 0;
    bool shapes = false;
    for (uint32_t k = 0; k < b.frame_count && !shapes; k++) shapes = has_shapes(&b.frames[k].list);
    sinew_instance *live = NULL;
    if (shapes && (rc = start_instance(&b, armature, &anim, &live)) != 0) {
        free(ms);
        free(psnr);
        bench_free(&b);
        return rc;
    }
    for (uint32_t k = 0; k < b.frame_count; k++) {
        const sinew_drawlist *l = &b.frames[k].list;
        sinew_framebuffer_clear(&b.fb, (sinew_rgba8){0, 0, 0, 0});
        sinew_renderer_draw(b.renderer, l, b.rig.textures, &fr.view, &b.fb, NULL);
        if (live) step_frame(&b, live, k);
        reference(&b, &fr, k, live);
        psnr[k] = ref_psnr(b.fb.pixels, b.ref_pixels, px_bytes);
        psnr_sum += psnr[k];
        if (psnr[k] < psnr_min) psnr_min = psnr[k];
        cairo_clear(b.cr);
        ref_cairo_draw(&b.rc, b.cr, l, &fr.view, false);
        ref_surface_to_rgba(b.surface, b.ref_pixels);
        double p = ref_psnr(b.fb.pixels, b.ref_pixels, px_bytes);
        plain_sum += p;
        if (p < plain_min) plain_min = p;
    }
    sinew_instance_destroy(live);
    double psnr_mean = psnr_sum / (double)b.frame_count, plain_mean = plain_sum / (double)b.frame_count;
    double per_cmds = (double)cmds / (double)b.frame_count, per_tris = (double)tris / (double)b.frame_count;

    if (b.o.json) {
        printf("{\"file\":");
        json_string(b.o.file);
        printf(",\"armature\":");
        json_string(b.armature_name);
        printf(",\"animation\":");
        json_string(b.animation_name);
        printf(",\"width\":%u,\"height\":%u,\"frames\":%u,\"runs\":%ld,\"commands_per_frame\":%.1f,"
               "\"triangles_per_frame\":%.1f,",
               fr.width, fr.height, b.frame_count, runs, per_cmds, per_tris);
        printf("\"sinew_ms\":%.4f,\"sinew_ms_median\":%.4f,\"cairo_ms\":%.4f,\"cairo_ms_median\":%.4f,"
               "\"cairo_plain_ms\":%.4f,\"cairo_plain_ms_median\":%.4f,\"ratio\":%.3f,\"ratio_plain\":%.3f,",
               best[0], median[0], best[1], median[1], best[2], median[2], best[1] / best[0], best[2] / best[0]);
        printf("\"psnr_plain_min\":%.3f,\"psnr_plain_mean\":%.3f,", plain_min, plain_mean);
        printf("\"psnr_min\":%.3f,\"psnr_mean\":%.3f,\"psnr\":[", psnr_min, psnr_mean);
        for (uint32_t k = 0; k < b.frame_count; k++) printf("%s%.2f", k ? "," : "", psnr[k]);
        printf("]}\n");
    } else {
        printf("%s %s/%s: %u frame%s at %g fps, %ux%u px, %.1f commands and %.1f triangles per frame\n", b.o.file,
               b.armature_name, b.animation_name, b.frame_count, b.frame_count == 1 ? "" : "s", b.fps, fr.width, fr.height, per_cmds, per_tris);
        printf("  %ld runs, ms per frame (thread CPU time), best / median:\n", runs);
        printf("  sinew rasterizer   %8.3f / %8.3f\n", best[0], median[0]);
        printf("  cairo (seamless)   %8.3f / %8.3f   cairo/sinew %.2fx  (sinew's frames against these: PSNR min %.2f dB, "
               "mean %.2f dB)\n",
               best[1], median[1], best[1] / best[0], psnr_min, psnr_mean);
        printf("  cairo (plain)      %8.3f / %8.3f   cairo/sinew %.2fx  (triangles straight onto the target; sinew's "
               "frames against these: PSNR min %.2f dB, mean %.2f dB)\n",
               best[2], median[2], best[2] / best[0], plain_min, plain_mean);
        printf("  PSNR sinew vs cairo (seamless): min %.2f dB, mean %.2f dB; per frame:", psnr_min, psnr_mean);
        for (uint32_t k = 0; k < b.frame_count; k++) printf("%s%.1f", k % 16 ? " " : "\n   ", psnr[k]);
        putchar('\n');
    }
    free(ms);
    free(psnr);
    bench_free(&b);
    return SINEW_EXIT_OK;
}
