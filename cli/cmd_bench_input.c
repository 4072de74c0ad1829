/* sinew bench-input: speed of the MRTK input animation reader, evaluator and writer. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rules.h"
#include "sinew/input.h"

const char sinew_cmd_bench_input_help[] =
    "benchmark MRTK input animations: load, cursor/random full-pose eval, write (60 s x 60 Hz v1.0)";

/* CPU time of this thread (user + system, page faults included): on a shared machine it is
 * much less disturbed by other processes than wall-clock time. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const cli_help sinew_cmd_bench_input_usage = {
    "sinew bench-input [--seconds S] [--hz HZ] [--runs N] [--keys mrtk|hermite|weighted]",
    "Builds a version 1.0 recording with all 389 curves keyed every frame (60 s x 60 Hz by\n"
    "default, about 39 MB), then times: load (from memory and from a file), full-pose evaluation\n"
    "with a cursor (playback) and at random times, and writing. Prints the median and best of N\n"
    "runs, measured as the thread's CPU time (less disturbed by other load than wall-clock time).\n",
    "  --seconds S       length of the recording, (0, 3600] (default 60)\n"
    "  --hz HZ           keys per second, (0, 1000] (default 60)\n"
    "  --runs N          timed runs, 1..1000 (default 5)\n"
    "  --keys K          mrtk (linear keys as MRTK records them, default), hermite (tangents),\n"
    "                    weighted (weighted tangents)\n",
    "  sinew bench-input\n"
    "  sinew bench-input --seconds 10 --keys weighted --runs 3\n",
    NULL};

int sinew_cmd_bench_input(int argc, char **argv) {
    double seconds = 60, hz = 60;
    int runs = 5, rc;
    const char *keys = "mrtk";
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            cli_help_print(&sinew_cmd_bench_input_usage);
            return SINEW_EXIT_OK;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            if ((rc = cli_number("bench-input", argv[i], argv[i + 1], &seconds)))
                return rc;
            i++;
        } else if (strcmp(argv[i], "--hz") == 0 && i + 1 < argc) {
            if ((rc = cli_number("bench-input", argv[i], argv[i + 1], &hz)))
                return rc;
            i++;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            long r;
            if ((rc = cli_whole("bench-input", argv[i], argv[i + 1], &r)))
                return rc;
            runs = (int)r;
            i++;
        } else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc) {
            keys = argv[++i];
        } else {
            return cli_unknown_option("bench-input", argv[i]);
        }
    }
    int mode = strcmp(keys, "mrtk") == 0 ? 0 : strcmp(keys, "hermite") == 0 ? 1 : strcmp(keys, "weighted") == 0 ? 2 : -1;
    if (mode < 0)
        return cli_usage_error("bench-input", "--keys must be mrtk, hermite or weighted");

    /* build the recording */
    uint32_t frames = (uint32_t)(seconds * hz);
    sinew_input_animation *a;
    sinew_error err = {0};
    if (sinew_input_create(NULL, &a, &err))
        return SINEW_EXIT_INTERNAL;
    a->version_minor = 0;
    a->has_camera = a->has_hands = true;
    sinew_curve_key *k = malloc((size_t)frames * sizeof *k);
    if (!k) {
        sinew_input_destroy(a);
        return SINEW_EXIT_INTERNAL;
    }
    for (uint32_t c = 0; c < SINEW_INPUT_CURVE_COUNT_V10; c++) {
        bool is_bool = sinew_input_curve_is_bool(c);
        for (uint32_t f = 0; f < frames; f++) {
            float t = (float)(f / hz);
            float v = is_bool ? (float)((f / 30) % 2) : (float)sin(0.7 * t + 0.1 * c) * 0.3f;
            sinew_curve_key key = {t, v, 0, 0, 0, is_bool ? 1e6f : 0, 3};
            if (!is_bool && mode == 1)
                key = (sinew_curve_key){t, v, 0.2f, 0.2f, 0, 0, 0};
            else if (!is_bool && mode == 2)
                key = (sinew_curve_key){t, v, 0.2f, 0.2f, 0.25f, 0.4f, 3};
            k[f] = key;
        }
        if (sinew_input_set_curve(a, c, k, frames, &err)) {
            free(k);
            sinew_input_destroy(a);
            return SINEW_EXIT_INTERNAL;
        }
    }
    free(k);

    double *tw = calloc((size_t)runs, sizeof(double)), *tm = calloc((size_t)runs, sizeof(double));
    double *tf = calloc((size_t)runs, sizeof(double)), *tc = calloc((size_t)runs, sizeof(double));
    double *tr = calloc((size_t)runs, sizeof(double));
    uint8_t *data = NULL;
    size_t size = 0;
    rc = SINEW_EXIT_OK;
    char path[] = "/tmp/sinew-bench-input-XXXXXX";
    int fd = mkstemp(path);
    if (!tw || !tm || !tf || !tc || !tr || fd < 0) {
        rc = SINEW_EXIT_INTERNAL;
        goto done;
    }
    close(fd);
    for (int r = 0; r < runs; r++) {
        if (data)
            sinew_input_free_memory(a, data, size);
        double t0 = now();
        if (sinew_input_write_memory(a, NULL, &data, &size, &err)) {
            rc = SINEW_EXIT_INTERNAL;
            goto done;
        }
        tw[r] = now() - t0;
    }
    if (sinew_input_save_file(a, path, NULL, &err)) {
        cli_print_error(path, &err);
        rc = SINEW_EXIT_IO;
        goto done;
    }
    sinew_input_animation *loaded = NULL;
    volatile double sink = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        if (sinew_input_read(data, size, "bench", NULL, &loaded, &err)) {
            rc = SINEW_EXIT_INTERNAL;
            goto done;
        }
        tm[r] = now() - t0;
        sinew_input_destroy(loaded);
        t0 = now();
        if (sinew_input_load_file(path, NULL, &loaded, &err)) {
            rc = SINEW_EXIT_IO;
            goto done;
        }
        tf[r] = now() - t0;
        if (r + 1 < runs)
            sinew_input_destroy(loaded);
    }
    /* full-pose evaluation: playback at the recording rate with a cursor, and at random times */
    sinew_input_cursor *cur = calloc(1, sizeof *cur);
    sinew_input_frame fr;
    double dur = sinew_input_duration(loaded);
    uint32_t samples = frames;
    for (int r = 0; r < runs && cur; r++) {
        memset(cur, 0, sizeof *cur);
        double t0 = now();
        for (uint32_t f = 0; f < samples; f++) {
            sinew_input_eval_cursor(loaded, cur, f / hz, &fr);
            sink += fr.hands[1].joints[26].position[0];
        }
        tc[r] = (now() - t0) / samples;
        uint32_t s = 12345;
        t0 = now();
        for (uint32_t f = 0; f < samples; f++) {
            s = s * 1664525u + 1013904223u;
            sinew_input_eval(loaded, dur * (s >> 8) / 16777216.0, &fr);
            sink += fr.camera.position[1];
        }
        tr[r] = (now() - t0) / samples;
    }
    free(cur);
    sinew_input_destroy(loaded);
    (void)sink;

    double mb = (double)size / 1e6;
    printf("bench-input: v1.0, %u curves x %u keys (%s keys), %.1f s at %.0f Hz, %.2f MB, %d runs, thread CPU time\n",
           SINEW_INPUT_CURVE_COUNT_V10, frames, keys, seconds, hz, mb, runs);
    double m;
    m = median(tm, runs);
    printf("  load (memory)      median %8.2f ms  best %8.2f ms  %6.2f GB/s   (target <= 60 ms)\n", m * 1e3,
           tm[0] * 1e3, (double)size / m / 1e9);
    m = median(tf, runs);
    printf("  load (file)        median %8.2f ms  best %8.2f ms  %6.2f GB/s\n", m * 1e3, tf[0] * 1e3,
           (double)size / m / 1e9);
    m = median(tc, runs);
    printf("  eval, cursor       median %8.3f us  best %8.3f us  per full pose (389 curves) (target <= 5 us)\n",
           m * 1e6, tc[0] * 1e6);
    m = median(tr, runs);
    printf("  eval, random time  median %8.3f us  best %8.3f us  per full pose\n", m * 1e6, tr[0] * 1e6);
    m = median(tw, runs);
    printf("  write (memory)     median %8.2f ms  best %8.2f ms  %6.2f GB/s\n", m * 1e3, tw[0] * 1e3,
           (double)size / m / 1e9);
done:
    unlink(path);
    if (data)
        sinew_input_free_memory(a, data, size);
    free(tw);
    free(tm);
    free(tf);
    free(tc);
    free(tr);
    sinew_input_destroy(a);
    return rc;
}
