/* sinew bench: update speed of N instances playing one animation (mirrors shared/tools/bench-js),
 * or with --load the parse + build time of a rig already in memory (mirrors bench-cpp load). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "rules.h"
#include "sinew/data.h"
#include "sinew/instance.h"

const char sinew_cmd_bench_help[] = "benchmark instance updates (ns per update) or loading (--load)";

const cli_help sinew_cmd_bench_usage = {
    "sinew bench FILE --animation NAME [--armature NAME] [--skin NAME] [--instances N]\n"
    "                   [--ticks T] [--runs R] [--drawlist [--atlas TEX]] [--cache-fps N]\n"
    "                   [--threads N] [--json]\n"
    "       sinew bench FILE --load [--atlas TEX | --no-atlas] [--runs R] [--json]",
    "Builds N instances playing NAME looping, out of phase (start at i*0.0371 s mod duration),\n"
    "warms up max(120, 20000/N) ticks, then times R runs of T ticks of update(1/60) each\n"
    "(timelines, bones, IK, slots and mesh world vertices). Prints min and median ns per\n"
    "instance update and ns per bone.\n"
    "With --load: reads FILE and its atlas into memory once, then times R loads of both from\n"
    "memory (parse + build, as bench-cpp's load times parseDragonBonesData +\n"
    "parseTextureAtlasData). Prints min and median ms, and the memory the loaded data holds.\n",
    "  --animation NAME  the animation the instances play\n"
    "  --armature NAME   the armature (default: the main one, else the first that has the animation)\n"
    "  --skin NAME       DragonBones: the skin overlaid on the default skin; an XML rig: the\n"
    "                    armature NAME@SKIN\n"
    "  --instances N     instances, 1..1000000 (default 100)\n"
    "  --ticks T         updates per run, 1..100000000 (default 300)\n"
    "  --runs R          timed runs, 1..1000 (default 5; with --load 20)\n"
    "  --drawlist        build each instance's draw list after each update, with the atlas\n"
    "                    (--atlas, else the one found beside FILE), timed with it\n"
    "  --cache-fps N     the instances share one frame cache at N frames per second (the\n"
    "                    official cacheFrameRate; JSON adds cache_fps and cache_memory)\n"
    "  --threads N       advance the instances with one sinew_crowd_update call per tick on N\n"
    "                    threads, 1..64 (0 = one per core); JSON adds threads. Without it, one\n"
    "                    sinew_instance_update call per instance\n"
    "  --load            time loading instead of updating\n"
    "  --atlas TEX       the atlas for --drawlist or --load (default: found beside FILE)\n"
    "  --no-atlas        --load: the skeleton alone\n"
    "  --json            one JSON object instead of text\n",
    "  sinew bench hero_ske.json --animation walk\n"
    "  sinew bench hero_ske.json --animation walk --instances 1000 --ticks 100 --json\n"
    "  sinew bench hero_ske.json --load --runs 50\n",
    NULL};

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* min and median of v[0..n) (v is sorted in place; the median of an even count is the mean of
   the two middle values) */
static void min_median(double *v, long n, double *mn, double *med) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    *mn = v[0];
    *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- --load ---------------------------------------------------------------------------------- */

/* A sinew allocator over libc that counts the bytes live and their peak. */
typedef struct counting {
    size_t live, peak;
} counting;

static void *count_alloc(void *ctx, size_t size) {
    counting *c = ctx;
    void *p = malloc(size ? size : 1);
    if (p) {
        c->live += size;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    counting *c = ctx;
    void *p = realloc(ptr, new_size ? new_size : 1);
    if (p) {
        c->live = c->live - old_size + new_size;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size) {
    counting *c = ctx;
    if (ptr)
        c->live -= size;
    free(ptr);
}

/* Reads a whole file into malloc'd memory (*len bytes, NUL-terminated). */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            size_t nc = cap ? 2 * cap : 131072;
            char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, 65536, f);
        n += got;
        if (got < 65536)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int bench_load(const char *file, const char *atlas_arg, bool no_atlas, long runs, bool json) {
    size_t ske_len = 0, tex_len = 0;
    char *ske = slurp(file, &ske_len);
    if (!ske) {
        fprintf(stderr, "%s: error: cannot read the file\n", file);
        return SINEW_EXIT_IO;
    }
    char tex_path[4096] = "";
    if (atlas_arg) {
        snprintf(tex_path, sizeof tex_path, "%s", atlas_arg);
    } else if (!no_atlas && sinew_atlas_find_for(file, tex_path, sizeof tex_path) != SINEW_OK) {
        tex_path[0] = '\0';
    }
    /* an XML rig is its own atlas: nothing more to load */
    if (strcmp(tex_path, file) == 0)
        tex_path[0] = '\0';
    char *tex = NULL;
    if (tex_path[0] && !(tex = slurp(tex_path, &tex_len))) {
        fprintf(stderr, "%s: error: cannot read the atlas\n", tex_path);
        free(ske);
        return SINEW_EXIT_IO;
    }
    char tex_dir[4096] = "";
    if (tex) {
        snprintf(tex_dir, sizeof tex_dir, "%s", tex_path);
        char *slash = strrchr(tex_dir, '/');
        if (slash)
            *slash = '\0';
        else
            tex_dir[0] = '\0';
    }
    /* one counted load: the memory the data holds, and the peak while loading (through sinew's
       allocator: the model, its scratch and the JSON tree when that uses it) */
    counting cnt = {0, 0};
    sinew_allocator calloc_ = {count_alloc, count_realloc, count_free, &cnt};
    sinew_load_options lo;
    memset(&lo, 0, sizeof lo);
    lo.allocator = &calloc_;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *data = NULL;
    if (sinew_data_load_buffer(ske, ske_len, file, &lo, &data, &err) != SINEW_OK) {
        cli_print_error(file, &err);
        free(ske);
        free(tex);
        return cli_exit_code(err.code);
    }
    size_t data_bytes = cnt.live, peak_bytes = cnt.peak;
    sinew_data_destroy(data);
    if (tex) {
        sinew_atlas *at = NULL;
        if (sinew_atlas_load_buffer(tex, tex_len, tex_path, tex_dir, NULL, &at, &err) != SINEW_OK) {
            cli_print_error(tex_path, &err);
            free(ske);
            free(tex);
            return cli_exit_code(err.code);
        }
        sinew_atlas_destroy(at);
    }
    double *all = calloc((size_t)runs, sizeof(double)), *sk = calloc((size_t)runs, sizeof(double));
    if (!all || !sk) {
        free(all);
        free(sk);
        free(ske);
        free(tex);
        fprintf(stderr, "sinew bench: out of memory\n");
        return SINEW_EXIT_INTERNAL;
    }
    int rc = SINEW_EXIT_OK;
    for (long r = 0; r < runs && rc == SINEW_EXIT_OK; ++r) {
        sinew_atlas *at = NULL;
        data = NULL;
        double t0 = now_ns();
        sinew_status st = sinew_data_load_buffer(ske, ske_len, file, NULL, &data, NULL);
        double t1 = now_ns();
        if (st == SINEW_OK && tex)
            st = sinew_atlas_load_buffer(tex, tex_len, tex_path, tex_dir, NULL, &at, NULL);
        double t2 = now_ns();
        if (st != SINEW_OK) {
            fprintf(stderr, "%s: error: a later load failed (%s)\n", file, sinew_status_str(st));
            rc = SINEW_EXIT_INTERNAL;
        }
        sk[r] = (t1 - t0) / 1e6;
        all[r] = (t2 - t0) / 1e6;
        sinew_data_destroy(data);
        sinew_atlas_destroy(at);
    }
    if (rc == SINEW_EXIT_OK) {
        double mn, med, smn, smed;
        min_median(all, runs, &mn, &med);
        min_median(sk, runs, &smn, &smed);
        if (json) {
            printf("{\"ms_min\":%.4f,\"ms_median\":%.4f,\"ske_ms_min\":%.4f,\"ske_ms_median\":%.4f,\"runs\":%ld,"
                   "\"ske_bytes\":%zu,\"atlas_bytes\":%zu,\"data_bytes\":%zu,\"peak_bytes\":%zu}\n",
                   mn, med, smn, smed, runs, ske_len, tex ? tex_len : 0, data_bytes, peak_bytes);
        } else {
            printf("%s (%zu bytes)%s%s: %ld loads from memory (parse + build)\n", file, ske_len,
                   tex ? " + " : "", tex ? tex_path : "", runs);
            printf("  skeleton + atlas: min %.3f ms, median %.3f ms\n", mn, med);
            printf("  skeleton alone:   min %.3f ms, median %.3f ms (%.0f MB/s at min)\n", smn, smed,
                   smn > 0 ? (double)ske_len / (smn * 1e3) : 0.0);
            printf("  loaded data: %zu bytes (%.2f x the JSON); peak while loading %zu bytes\n", data_bytes,
                   ske_len ? (double)data_bytes / (double)ske_len : 0.0, peak_bytes);
        }
    }
    free(all);
    free(sk);
    free(ske);
    free(tex);
    return rc;
}

/* ---- updates --------------------------------------------------------------------------------- */

int sinew_cmd_bench(int argc, char **argv) {
    const char *file = NULL, *anim = NULL, *armature = NULL, *skin = NULL, *atlas = NULL;
    long n = 100, ticks = 300, runs = -1;
    int rc;
    bool json = false, load = false, no_atlas = false, drawlist = false;
    double cache_fps = 0.0;
    long threads = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (cli_is_help(a)) {
            cli_help_print(&sinew_cmd_bench_usage);
            return SINEW_EXIT_OK;
        } else if (strcmp(a, "--animation") == 0 && v) {
            anim = argv[++i];
        } else if (strcmp(a, "--armature") == 0 && v) {
            armature = argv[++i];
        } else if (strcmp(a, "--skin") == 0 && v) {
            skin = argv[++i];
        } else if (strcmp(a, "--atlas") == 0 && v) {
            atlas = argv[++i];
        } else if (strcmp(a, "--no-atlas") == 0) {
            no_atlas = true;
        } else if (strcmp(a, "--instances") == 0 && v) {
            if ((rc = cli_whole("bench", a, argv[++i], &n)))
                return rc;
        } else if (strcmp(a, "--ticks") == 0 && v) {
            if ((rc = cli_whole("bench", a, argv[++i], &ticks)))
                return rc;
        } else if (strcmp(a, "--runs") == 0 && v) {
            if ((rc = cli_whole("bench", a, argv[++i], &runs)))
                return rc;
        } else if (strcmp(a, "--load") == 0) {
            load = true;
        } else if (strcmp(a, "--cache-fps") == 0 && v) {
            if ((rc = cli_number("bench", a, argv[++i], &cache_fps)))
                return rc;
        } else if (strcmp(a, "--threads") == 0 && v) {
            if ((rc = cli_whole("bench", a, argv[++i], &threads)))
                return rc;
        } else if (strcmp(a, "--drawlist") == 0) {
            drawlist = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("bench", a);
        } else if (!file) {
            file = a;
        } else {
            return cli_usage_error("bench", "unexpected argument: %s", a);
        }
    }
    if (!file)
        return cli_usage_error("bench", "missing FILE");
    if (load) {
        if (anim || armature || skin)
            return cli_usage_error("bench", "--load takes no --animation, --armature or --skin");
        if (atlas && no_atlas)
            return cli_usage_error("bench", "--atlas and --no-atlas exclude each other");
        if (drawlist || threads >= 0)
            return cli_usage_error("bench", "--drawlist and --threads do not go with --load");
        return bench_load(file, atlas, no_atlas, runs > 0 ? runs : 20, json);
    }
    if (no_atlas || (atlas && !drawlist))
        return cli_usage_error("bench", "--atlas goes with --load or --drawlist, --no-atlas with --load");
    if (runs < 0)
        runs = 5;
    if (!anim)
        return cli_usage_error("bench", "missing --animation NAME");
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *data = NULL;
    double t0 = now_ns();
    if (sinew_data_load_file(file, NULL, &data, &err) != SINEW_OK) {
        cli_print_error(file, &err);
        return cli_exit_code(err.code);
    }
    double load_ms = (now_ns() - t0) / 1e6;
    sinew_atlas *at = NULL;
    if (drawlist) {
        char found[4096];
        const char *tex = atlas;
        if (!tex && sinew_atlas_find_for(file, found, sizeof found) == SINEW_OK)
            tex = found;
        if (tex && sinew_atlas_load_file(tex, NULL, &at, &err) != SINEW_OK) {
            cli_print_error(tex, &err);
            sinew_data_destroy(data);
            return cli_exit_code(err.code);
        }
    }
    /* the armature, skin and animation, chosen as every command chooses them (cli/rules.h) */
    cli_choice pick;
    int prc = cli_pick(data, file, armature, skin, anim, true, &pick);
    if (prc) {
        sinew_atlas_destroy(at);
        sinew_data_destroy(data);
        return prc;
    }
    uint32_t ai = pick.armature, an = pick.animation;
    const char *overlay = pick.skin_overlay;
    sinew_armature_info info = pick.arm;
    sinew_animation_info ni;
    sinew_data_get_animation_info(data, ai, an, &ni);
    double duration = (ni.frames >= 1.0f ? floor((double)ni.frames) : 1.0) / (double)info.frame_rate;
    sinew_instance **inst = calloc((size_t)n, sizeof *inst);
    double *run_ns = calloc((size_t)runs, sizeof *run_ns);
    sinew_drawlist *dls = calloc((size_t)n, sizeof *dls);
    if (!inst || !run_ns || !dls) {
        free(inst);
        free(run_ns);
        free(dls);
        sinew_data_destroy(data);
        fprintf(stderr, "sinew bench: out of memory\n");
        return SINEW_EXIT_INTERNAL;
    }
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = info.name;
    io.skin = overlay;
    io.atlas = at;
    rc = SINEW_EXIT_OK;
    size_t mem = 0;
    sinew_frame_cache *cache = NULL;
    if (cache_fps > 0.0 && sinew_frame_cache_create(data, cache_fps, NULL, &cache, &err) != SINEW_OK) {
        cli_print_error(file, &err);
        rc = cli_exit_code(err.code);
        n = 0;
    }
    io.frame_cache = cache;
    for (long i = 0; i < n; ++i) {
        if (sinew_instance_create(data, &io, &inst[i], &err) != SINEW_OK) {
            cli_print_error(file, &err);
            rc = cli_exit_code(err.code);
            break;
        }
        if (drawlist && sinew_instance_reserve_drawlist(inst[i], &err) != SINEW_OK) {
            cli_print_error(file, &err);
            rc = cli_exit_code(err.code);
            break;
        }
        mem = sinew_instance_memory(inst[i]);
        double start = fmod((double)i * 0.0371, duration);
        sinew_instance_goto_and_play(inst[i], 0, ni.name, SINEW_GOTO_TIME, start, 0, NULL);
    }
    if (rc == SINEW_EXIT_OK) {
        const double dt = 1.0 / 60.0;
        long warm = 20000 / n > 120 ? 20000 / n : 120;
        for (long t = 0; t < warm; ++t)
            for (long i = 0; i < n; ++i) {
                sinew_instance_update(inst[i], dt);
                while (sinew_instance_poll_event(inst[i], NULL)) {
                }
            }
        unsigned long long events = 0, dl_vertices = 0;
        for (long r = 0; r < runs; ++r) {
            double s = now_ns();
            for (long t = 0; t < ticks && threads >= 0; ++t) {
                sinew_crowd_update(inst, (size_t)n, dt, (uint32_t)threads, drawlist ? dls : NULL, NULL);
                for (long i = 0; i < n; ++i) {
                    if (drawlist)
                        dl_vertices += dls[i].vertex_count;
                    while (sinew_instance_poll_event(inst[i], NULL))
                        events++;
                }
            }
            for (long t = 0; t < ticks && threads < 0; ++t)
                for (long i = 0; i < n; ++i) {
                    sinew_instance_update(inst[i], dt);
                    if (drawlist) {
                        sinew_drawlist dl;
                        sinew_instance_drawlist(inst[i], &dl);
                        dl_vertices += dl.vertex_count;
                    }
                    /* events are not needed: drop them as a game would consume them (they are
                       made whether or not anyone listens; counted for bench-compare) */
                    while (sinew_instance_poll_event(inst[i], NULL))
                        events++;
                }
            run_ns[r] = (now_ns() - s) / ((double)ticks * (double)n);
        }
        /* what an instance holds once it has run (with the draw list's storage if it drew) */
        mem = sinew_instance_memory(inst[n - 1]);
        double mn, med;
        min_median(run_ns, runs, &mn, &med);
        double ev_per_update = (double)events / ((double)runs * (double)ticks * (double)n);
        double dl_per_update = (double)dl_vertices / ((double)runs * (double)ticks * (double)n);
        uint32_t bones = info.bone_count;
        double per_bone = bones ? mn / bones : 0.0;
        if (json) {
            printf("{\"ns_per_update\":%.1f,\"ns_per_update_median\":%.1f,\"ns_per_bone\":%.2f,\"bones\":%u,"
                   "\"slots\":%u,\"instances\":%ld,\"ticks\":%ld,\"runs\":%ld,\"events_per_update\":%.4f,"
                   "\"memory_per_instance\":%zu,\"drawlist_vertices\":%.1f",
                   mn, med, per_bone, bones, info.slot_count, n, ticks, runs, ev_per_update, mem,
                   drawlist ? dl_per_update : 0.0);
            if (cache)
                printf(",\"cache_fps\":%g,\"cache_memory\":%zu", cache_fps, sinew_frame_cache_memory(cache));
            if (threads >= 0)
                printf(",\"threads\":%ld", threads);
            printf("}\n");
        } else {
            printf("%s %s/%s: %ld instances, %ld runs x %ld ticks of update(1/60)%s\n", file, info.name, ni.name,
                   n, runs, ticks, drawlist ? " + draw list" : "");
            printf("  ns per update: min %.1f, median %.1f\n", mn, med);
            printf("  ns per bone:   %.2f (%u bones)\n", per_bone, bones);
            if (threads >= 0)
                printf("  instances at 60 fps with sinew_crowd_update on %ld thread(s)%s: ~%.0f\n", threads,
                       threads == 0 ? " (one per core)" : "", mn > 0 ? 16.6667e6 / mn : 0.0);
            else
                printf("  instances at 60 fps on one core: ~%.0f\n", mn > 0 ? 16.6667e6 / mn : 0.0);
            printf("  memory per instance: %zu bytes\n", mem);
            printf("  events made per update: %.4f (polled and dropped)\n", ev_per_update);
            if (drawlist)
                printf("  each update also built the draw list: %.1f vertices\n", dl_per_update);
            if (cache)
                printf("  frame cache at %g fps: %zu bytes, %u cache frames filled\n", cache_fps,
                       sinew_frame_cache_memory(cache), sinew_frame_cache_filled(cache));
            printf("  load (parse + build, from the file): %.3f ms (sinew bench FILE --load for a steady figure)\n",
                   load_ms);
        }
    }
    for (long i = 0; i < n; ++i)
        sinew_instance_destroy(inst[i]);
    sinew_frame_cache_destroy(cache);
    free(inst);
    free(run_ns);
    free(dls);
    sinew_atlas_destroy(at);
    sinew_data_destroy(data);
    return rc;
}
