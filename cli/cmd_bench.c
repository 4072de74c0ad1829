/* sinew bench: update speed of N instances playing one animation (mirrors shared/tools/bench-js). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "sinew/data.h"
#include "sinew/instance.h"

const char sinew_cmd_bench_help[] = "benchmark instance updates (ns per update, ns per bone)";

static const char usage_text[] =
    "usage: sinew bench FILE --animation NAME [--armature NAME] [--skin NAME] [--instances N]\n"
    "                   [--ticks T] [--runs R] [--json]\n"
    "Builds N instances playing NAME looping, out of phase (start at i*0.0371 s mod duration),\n"
    "warms up max(120, 20000/N) ticks, then times R runs of T ticks of update(1/60) each\n"
    "(timelines, bones, IK, slots and mesh world vertices). Prints min and median ns per\n"
    "instance update and ns per bone. Defaults: N=100, T=300, R=5. --skin: for DragonBones\n"
    "data the skin overlaid on the default skin; for an XML rig the armature NAME@SKIN.\n";

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool parse_count(const char *s, long lo, long hi, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int sinew_cmd_bench(int argc, char **argv) {
    const char *file = NULL, *anim = NULL, *armature = NULL, *skin = NULL;
    long n = 100, ticks = 300, runs = 5;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(usage_text, stdout);
            return SINEW_EXIT_OK;
        } else if (strcmp(a, "--animation") == 0 && v) {
            anim = argv[++i];
        } else if (strcmp(a, "--armature") == 0 && v) {
            armature = argv[++i];
        } else if (strcmp(a, "--skin") == 0 && v) {
            skin = argv[++i];
        } else if (strcmp(a, "--instances") == 0 && v) {
            if (!parse_count(argv[++i], 1, 1000000, &n))
                return cli_usage_error("bench", "--instances must be 1..1000000");
        } else if (strcmp(a, "--ticks") == 0 && v) {
            if (!parse_count(argv[++i], 1, 100000000, &ticks))
                return cli_usage_error("bench", "--ticks must be a positive integer");
        } else if (strcmp(a, "--runs") == 0 && v) {
            if (!parse_count(argv[++i], 1, 1000, &runs))
                return cli_usage_error("bench", "--runs must be 1..1000");
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("bench", "unknown option or missing value: %s", a);
        } else if (!file) {
            file = a;
        } else {
            return cli_usage_error("bench", "unexpected argument: %s", a);
        }
    }
    if (!file)
        return cli_usage_error("bench", "missing FILE");
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
    /* the load again, a few times, for a steadier figure (the first one is cold) */
    double load_min = load_ms;
    for (int k = 0; k < 20; ++k) {
        sinew_data *d2 = NULL;
        double t1 = now_ns();
        if (sinew_data_load_file(file, NULL, &d2, NULL) == SINEW_OK) {
            double ms = (now_ns() - t1) / 1e6;
            if (ms < load_min)
                load_min = ms;
        }
        sinew_data_destroy(d2);
    }
    uint32_t ai = 0;
    if (!armature) {
        /* the first armature that has the animation */
        sinew_data_info di;
        sinew_data_get_info(data, &di);
        for (uint32_t a = 0; a < di.armature_count; ++a)
            if (sinew_data_find_animation(data, a, anim) != SINEW_INVALID_INDEX) {
                ai = a;
                break;
            }
        sinew_armature_info first;
        if (sinew_data_armature_info(data, ai, &first) == SINEW_OK)
            armature = first.name;
    }
    const char *overlay = NULL;
    if (sinew_data_resolve_skin(data, armature, skin, &ai, &overlay, &err) != SINEW_OK) {
        cli_print_error(file, &err);
        sinew_data_destroy(data);
        return cli_exit_code(err.code);
    }
    sinew_armature_info info;
    sinew_data_armature_info(data, ai, &info);
    uint32_t an = sinew_data_find_animation(data, ai, anim);
    if (an == SINEW_INVALID_INDEX) {
        fprintf(stderr, "%s: error: armature '%s' has no animation '%s' (have:", file, info.name, anim);
        for (uint32_t k = 0; k < info.animation_count; ++k) {
            sinew_animation_info ni;
            if (sinew_data_animation_info(data, ai, k, &ni) == SINEW_OK)
                fprintf(stderr, " '%s'", ni.name);
        }
        fputs(")\n", stderr);
        sinew_data_destroy(data);
        return SINEW_EXIT_INPUT;
    }
    sinew_animation_info ni;
    sinew_data_animation_info(data, ai, an, &ni);
    double duration = (ni.frames >= 1.0f ? floor((double)ni.frames) : 1.0) / (double)info.frame_rate;
    sinew_instance **inst = calloc((size_t)n, sizeof *inst);
    double *run_ns = calloc((size_t)runs, sizeof *run_ns);
    if (!inst || !run_ns) {
        free(inst);
        free(run_ns);
        sinew_data_destroy(data);
        fprintf(stderr, "sinew bench: out of memory\n");
        return SINEW_EXIT_INTERNAL;
    }
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.armature = info.name;
    io.skin = overlay;
    int rc = SINEW_EXIT_OK;
    size_t mem = 0;
    for (long i = 0; i < n; ++i) {
        if (sinew_instance_create(data, &io, &inst[i], &err) != SINEW_OK) {
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
            for (long i = 0; i < n; ++i)
                sinew_instance_update(inst[i], dt);
        for (long r = 0; r < runs; ++r) {
            double s = now_ns();
            for (long t = 0; t < ticks; ++t)
                for (long i = 0; i < n; ++i) {
                    sinew_instance_update(inst[i], dt);
                    /* events are not needed: drop them as a game would consume them */
                    while (sinew_instance_poll_event(inst[i], NULL)) {
                    }
                }
            run_ns[r] = (now_ns() - s) / ((double)ticks * (double)n);
        }
        double sorted[1000];
        memcpy(sorted, run_ns, (size_t)runs * sizeof(double));
        qsort(sorted, (size_t)runs, sizeof(double), cmp_double);
        double mn = sorted[0];
        double med = runs % 2 ? sorted[runs / 2] : 0.5 * (sorted[runs / 2 - 1] + sorted[runs / 2]);
        uint32_t bones = info.bone_count;
        double per_bone = bones ? mn / bones : 0.0;
        if (json) {
            printf("{\"ns_per_update\":%.1f,\"ns_per_update_median\":%.1f,\"ns_per_bone\":%.2f,\"bones\":%u,"
                   "\"instances\":%ld,\"ticks\":%ld}\n",
                   mn, med, per_bone, bones, n, ticks);
        } else {
            printf("%s %s/%s: %ld instances, %ld runs x %ld ticks of update(1/60)\n", file, info.name, ni.name, n,
                   runs, ticks);
            printf("  ns per update: min %.1f, median %.1f\n", mn, med);
            printf("  ns per bone:   %.2f (%u bones)\n", per_bone, bones);
            printf("  instances at 60 fps on one core: ~%.0f\n", mn > 0 ? 16.6667e6 / mn : 0.0);
            printf("  memory per instance: %zu bytes\n", mem);
            printf("  load (parse + build): first %.3f ms, best of 20 %.3f ms\n", load_ms, load_min);
        }
    }
    for (long i = 0; i < n; ++i)
        sinew_instance_destroy(inst[i]);
    free(inst);
    free(run_ns);
    sinew_data_destroy(data);
    return rc;
}
