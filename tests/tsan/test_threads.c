/* unit.threads: several threads load, play, render and convert at once, built with the library's
 * sources under ThreadSanitizer (tests/CMakeLists.txt): the libraries keep no state between calls
 * (docs/architecture.md "Memory"), so nothing may race. Each thread also checks that it computed
 * what one thread alone computes (the reference, made first in main): a race that TSan cannot see
 * (in an uninstrumented library) still shows as a different result.
 *
 * Per thread: load the skeleton and the atlas; play both animations of its own data and of one
 * data shared by every thread (read-only, as docs/architecture.md allows); draw each frame's draw
 * list with the software renderer; convert the skeleton to DragonBones 4.5, DBBin and Spine in a
 * folder of its own; read an MRTK input animation, write it as JSON and read that back.
 *
 * Then the crowd call, whose threads the library starts itself: sinew_crowd_update on THREADS
 * threads, and sinew_crowd_update_part on threads of this test's own, must draw what one update
 * and one draw list per instance on one thread draw (a NULL entry included). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sinew/convert.h"
#include "sinew/data.h"
#include "sinew/input.h"
#include "sinew/instance.h"
#include "sinew/render.h"
#include "testlib.h"

#define THREADS 4
#define FRAMES 24

static const char *const SKELETON = "fixtures/own/Pip_5.5/pip_ske.json";
static const char *const ATLAS = "fixtures/own/Pip_5.5/pip_tex.json";
static const char *const PAGE = "fixtures/own/Pip_5.5/pip_tex.png";
static const char *const INPUT_ANIM = "../examples/input/wave.bin";

/* What one run computes: checksums of its poses, pixels and files. */
typedef struct result {
    int failures;
    char what[200];        /* the first failure */
    uint64_t poses, pixels;
    uint64_t files[4];     /* 4.5 skeleton, DBBin, Spine skeleton, Spine atlas */
    uint64_t input_json;
} result;

typedef struct job {
    int index;
    const sinew_data *shared;
    result r;
} job;

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void failed(result *r, const char *step, const sinew_error *e) {
    if (r->failures++ == 0)
        snprintf(r->what, sizeof r->what, "%s: %.150s", step, e ? e->message : "");
}

static uint64_t file_hash(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uint64_t h = 1469598103934665603ull;
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv(h, buf, n);
    fclose(f);
    return h;
}

/* Plays `anim` for FRAMES frames, hashing every draw list and drawing every other one. */
static void play(result *r, const sinew_data *data, const sinew_atlas *atlas, const sinew_texture_set *tex,
                 sinew_renderer *rd, sinew_framebuffer *fb, const char *anim) {
    sinew_error err = {0};
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.atlas = atlas;
    sinew_instance *inst = NULL;
    if (sinew_instance_create(data, &io, &inst, &err) != SINEW_OK ||
        sinew_instance_play(inst, anim, 0, &err) != SINEW_OK) {
        failed(r, "play", &err);
        sinew_instance_destroy(inst);
        return;
    }
    sinew_framing fr;
    if (sinew_framing_fixed(fb->width, fb->height, 60.0f, 90.0f, 0.4f, &fr, &err) != SINEW_OK) {
        failed(r, "framing", &err);
        sinew_instance_destroy(inst);
        return;
    }
    for (int f = 0; f < FRAMES; f++) {
        sinew_instance_update(inst, 1.0 / 24.0);
        while (sinew_instance_poll_event(inst, NULL)) {
        }
        sinew_drawlist dl;
        sinew_instance_drawlist(inst, &dl);
        r->poses = fnv(r->poses, dl.positions, (size_t)dl.vertex_count * 2 * sizeof *dl.positions);
        r->poses = fnv(r->poses, dl.indices, (size_t)dl.index_count * sizeof *dl.indices);
        if (f % 2 == 0 && fb->pixels) {
            sinew_framebuffer_clear(fb, (sinew_rgba8){0, 0, 0, 0});
            if (sinew_renderer_draw(rd, &dl, tex, &fr.view, fb, &err) != SINEW_OK)
                failed(r, "draw", &err);
            r->pixels = fnv(r->pixels, fb->pixels, fb->stride * fb->height);
        }
    }
    sinew_instance_destroy(inst);
}

static void empty_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

static void convert_all(result *r) {
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/sinew-threads-XXXXXX");
    if (!mkdtemp(dir)) {
        failed(r, "mkdtemp", NULL);
        return;
    }
    sinew_convert_options o;
    memset(&o, 0, sizeof o);
    o.name = "pip";
    sinew_convert_result cr;
    sinew_error err = {0};
    if (sinew_convert_dragonbones(SKELETON, dir, &o, &cr, &err) != SINEW_OK)
        failed(r, "convert to DragonBones 4.5", &err);
    else
        r->files[0] = file_hash(cr.skeleton_path);
    if (sinew_convert_dbbin(SKELETON, dir, &o, &cr, &err) != SINEW_OK)
        failed(r, "convert to DBBin", &err);
    else
        r->files[1] = file_hash(cr.skeleton_path);
    if (sinew_convert_spine(SKELETON, dir, &o, &cr, &err) != SINEW_OK) {
        failed(r, "convert to Spine", &err);
    } else {
        r->files[2] = file_hash(cr.skeleton_path);
        r->files[3] = file_hash(cr.atlas_json_path);
    }
    empty_dir(dir);
    rmdir(dir);
}

static void input_roundtrip(result *r) {
    sinew_error err = {0};
    sinew_input_animation *a = NULL, *b = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = NULL;
    if (sinew_input_load_file(INPUT_ANIM, NULL, &a, &err) != SINEW_OK) {
        failed(r, "input load", &err);
        goto done;
    }
    m = open_memstream(&text, &len);
    if (!m || sinew_input_write_json(a, m, &err) != SINEW_OK) {
        failed(r, "input JSON", &err);
        goto done;
    }
    fclose(m);
    m = NULL;
    if (sinew_input_read_json(text, len, "wave.json", NULL, &b, &err) != SINEW_OK) {
        failed(r, "input JSON read back", &err);
        goto done;
    }
    r->input_json = fnv(1469598103934665603ull, text, len);
done:
    if (m)
        fclose(m);
    free(text);
    sinew_input_destroy(a);
    sinew_input_destroy(b);
}

static void run(job *j) {
    result *r = &j->r;
    memset(r, 0, sizeof *r);
    r->poses = r->pixels = 1469598103934665603ull;
    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_texture_set *tex = NULL;
    sinew_renderer *rd = NULL;
    sinew_framebuffer fb;
    memset(&fb, 0, sizeof fb);
    const char *pages[1] = {PAGE};
    if (sinew_data_load_file(SKELETON, NULL, &data, &err) != SINEW_OK ||
        sinew_atlas_load_file(ATLAS, NULL, &atlas, &err) != SINEW_OK ||
        sinew_texture_set_load(pages, 1, NULL, &tex, &err) != SINEW_OK ||
        sinew_renderer_create(NULL, &rd, &err) != SINEW_OK || sinew_framebuffer_init(&fb, 120, 100, NULL, &err)) {
        failed(r, "load", &err);
        goto done;
    }
    play(r, data, atlas, tex, rd, &fb, "idle");
    play(r, j->shared, atlas, tex, rd, &fb, "hop"); /* the data every thread shares */
    convert_all(r);
    input_roundtrip(r);
done:
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(rd);
    sinew_texture_set_destroy(tex);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static void *thread_main(void *p) {
    run(p);
    return NULL;
}

/* Runs fn(&jobs[i]) on THREADS threads at once (jobs: THREADS elements of `size` bytes) and joins
 * them; returns how many started (all of them, or the test fails). */
static int run_on_threads(void *(*fn)(void *), void *jobs, size_t size) {
    pthread_t th[THREADS];
    int started = 0;
    while (started < THREADS && pthread_create(&th[started], NULL, fn, (char *)jobs + (size_t)started * size) == 0)
        started++;
    CHECK(started == THREADS);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    return started;
}

static void test_threads_at_once(void) {
    sinew_error err = {0};
    sinew_data *shared = NULL;
    CHECK(sinew_data_load_file(SKELETON, NULL, &shared, &err) == SINEW_OK);
    if (!shared)
        return;
    job ref;
    memset(&ref, 0, sizeof ref);
    ref.shared = shared;
    run(&ref); /* one thread alone */
    if (ref.r.failures)
        fprintf(stderr, "reference: %d failures, first %s\n", ref.r.failures, ref.r.what);
    CHECK(ref.r.failures == 0);
    CHECK(ref.r.files[0] && ref.r.files[1] && ref.r.files[2] && ref.r.files[3] && ref.r.input_json);

    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].index = i;
        jobs[i].shared = shared;
    }
    int started = run_on_threads(thread_main, jobs, sizeof jobs[0]);
    int differ = 0;
    for (int i = 0; i < started; i++) {
        const result *r = &jobs[i].r;
        if (r->failures)
            fprintf(stderr, "thread %d: %d failures, first %s\n", i, r->failures, r->what);
        CHECK(r->failures == 0);
        bool same = r->poses == ref.r.poses && r->pixels == ref.r.pixels &&
                    memcmp(r->files, ref.r.files, sizeof r->files) == 0 && r->input_json == ref.r.input_json;
        if (!same) {
            differ++;
            fprintf(stderr, "thread %d computed other poses, pixels or files than one thread alone\n", i);
        }
    }
    CHECK(differ == 0);
    printf("%d threads loaded, played %d frames of 2 animations, drew, converted to 3 formats and read an "
           "input animation: all as one thread alone\n",
           started, FRAMES);
    sinew_data_destroy(shared);
}

#define CROWD 29 /* four blocks of 8, the last one short */

static uint64_t drawlist_hash(const sinew_drawlist *dl) {
    uint64_t h = fnv(1469598103934665603ull, &dl->cmd_count, sizeof dl->cmd_count);
    h = fnv(h, dl->positions, (size_t)dl->vertex_count * 2 * sizeof *dl->positions);
    h = fnv(h, dl->uvs, (size_t)dl->vertex_count * 2 * sizeof *dl->uvs);
    h = fnv(h, dl->indices, (size_t)dl->index_count * sizeof *dl->indices);
    return fnv(h, dl->cmds, (size_t)dl->cmd_count * sizeof *dl->cmds);
}

typedef struct part_job {
    sinew_instance **crowd;
    sinew_drawlist *dls;
    uint32_t part;
} part_job;

static void *crowd_part(void *p) {
    part_job *j = p;
    sinew_crowd_update_part(j->crowd, CROWD, 1.0 / 30.0, j->dls, j->part, THREADS);
    return NULL;
}

static void test_crowd_call(void) {
    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_instance *ref[CROWD] = {0}, *crowd[CROWD] = {0};
    if (sinew_data_load_file(SKELETON, NULL, &data, &err) != SINEW_OK ||
        sinew_atlas_load_file(ATLAS, NULL, &atlas, &err) != SINEW_OK) {
        fprintf(stderr, "crowd: %s\n", err.message);
        CHECK(0);
        goto done;
    }
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.atlas = atlas;
    for (int i = 0; i < CROWD; i++) {
        if (i == 11) /* a NULL entry */
            continue;
        CHECK(sinew_instance_create(data, &io, &ref[i], &err) == SINEW_OK);
        CHECK(sinew_instance_create(data, &io, &crowd[i], &err) == SINEW_OK);
        if (!ref[i] || !crowd[i])
            goto done;
        const char *anim = i % 3 ? "idle" : "hop";
        CHECK(sinew_instance_play(ref[i], anim, 0, &err) == SINEW_OK);
        CHECK(sinew_instance_play(crowd[i], anim, 0, &err) == SINEW_OK);
        sinew_instance_update(ref[i], 0.07 * i); /* out of step */
        sinew_instance_update(crowd[i], 0.07 * i);
    }
    int differ = 0;
    for (int f = 0; f < FRAMES; f++) {
        sinew_drawlist dls[CROWD], dl;
        if (f % 2 == 0) {
            CHECK(sinew_crowd_update(crowd, CROWD, 1.0 / 30.0, THREADS, dls, &err) == SINEW_OK);
        } else {
            part_job jobs[THREADS];
            for (uint32_t p = 0; p < THREADS; p++)
                jobs[p] = (part_job){crowd, dls, p};
            run_on_threads(crowd_part, jobs, sizeof jobs[0]);
        }
        for (int i = 0; i < CROWD; i++) {
            if (!ref[i]) {
                differ += dls[i].cmd_count != 0 || dls[i].positions != NULL;
                continue;
            }
            sinew_instance_update(ref[i], 1.0 / 30.0);
            sinew_instance_drawlist(ref[i], &dl);
            differ += drawlist_hash(&dl) != drawlist_hash(&dls[i]);
            while (sinew_instance_poll_event(ref[i], NULL)) {
            }
            while (sinew_instance_poll_event(crowd[i], NULL)) {
            }
        }
    }
    CHECK(differ == 0);
    printf("a crowd of %d instances (one NULL) on %d threads, %d frames: %d draw lists differ from one thread's\n",
           CROWD, THREADS, FRAMES, differ);
done:
    for (int i = 0; i < CROWD; i++) {
        sinew_instance_destroy(ref[i]);
        sinew_instance_destroy(crowd[i]);
    }
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

int main(void) {
    RUN(test_threads_at_once);
    RUN(test_crowd_call);
    return test_summary();
}
