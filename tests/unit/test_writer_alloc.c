/* The writers and converters under a counting allocator (docs/architecture.md "Memory"): every
 * block sinew_convert_dragonbones (4.5 and 5.5), sinew_convert_dbbin and sinew_convert_spine take
 * comes from the
 * load options' allocator and goes back to it, with the size it was allocated with. Then for
 * every N, allocation N fails: the conversion must end in SINEW_E_NOMEM with a message, give back
 * every byte and leave no temporary file behind; once no allocation fails it succeeds and writes
 * the same files as with libc. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sinew/convert.h"
#include "counting_alloc.h"
#include "read_file.h"
#include "testlib.h"

typedef enum { TO_DB45, TO_DB55, TO_DBBIN, TO_SPINE } target;

static const char *spine_atlas; /* the atlas sinew_convert_spine takes (NULL: the one beside the input) */

static const char *target_name(target t) {
    return t == TO_DB45 ? "DragonBones 4.5" : t == TO_DB55 ? "DragonBones 5.5" : t == TO_DBBIN ? "DBBin" : "Spine";
}

static sinew_status convert(target t, const char *input, const char *out, const sinew_allocator *a,
                            sinew_convert_result *r, sinew_error *err) {
    sinew_load_options lo;
    memset(&lo, 0, sizeof lo);
    lo.allocator = a;
    sinew_convert_options o;
    memset(&o, 0, sizeof o);
    o.load = &lo;
    o.atlas = t == TO_SPINE ? spine_atlas : NULL;
    memset(err, 0, sizeof *err);
    o.dragonbones_version = t == TO_DB55 ? "5.5" : NULL;
    if (t == TO_DB45 || t == TO_DB55)
        return sinew_convert_dragonbones(input, out, &o, r, err);
    if (t == TO_DBBIN)
        return sinew_convert_dbbin(input, out, &o, r, err);
    return sinew_convert_spine(input, out, &o, r, err);
}

/* Empties `dir`; returns how many of its entries were temporary files (".NAME.tmp-XXXXXX"). */
static int empty_dir(const char *dir) {
    int tmp = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    char path[2048];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (strstr(e->d_name, ".tmp-"))
            tmp++;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    return tmp;
}

static bool same_file_text(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    char *x = test_read_file(a, &na), *y = test_read_file(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static char out_dir[256], ref_dir[256];

/* One conversion with libc into ref_dir, for the comparison at the end. */
static void reference(target t, const char *input, sinew_convert_result *ref) {
    empty_dir(ref_dir);
    sinew_error err;
    sinew_status st = convert(t, input, ref_dir, NULL, ref, &err);
    if (st != SINEW_OK)
        fprintf(stderr, "%s -> %s: %s\n", input, target_name(t), err.message);
    CHECK(st == SINEW_OK);
}

static void fail_every(target t, const char *input) {
    sinew_convert_result ref;
    reference(t, input, &ref);
    long leaks = 0, wrong = 0, tmp_left = 0, bad_sizes = 0, runs = 0, first_leak = -1, first_wrong = -1, optional = 0;
    char wrong_msg[200] = "";
    bool done = false;
    long counted = 0;
    for (long n = 0; n < 200000 && !done; n++) {
        counting c = {.fail_at = n};
        sinew_allocator a = counting_allocator(&c, true);
        sinew_convert_result r;
        sinew_error err;
        sinew_status st = convert(t, input, out_dir, &a, &r, &err);
        runs++;
        if (counting_leaked(&c)) {
            if (leaks++ == 0)
                first_leak = n;
        }
        bad_sizes += c.bad_sizes;
        if (st == SINEW_OK) {
            /* it succeeded because there was no allocation number n, or because that one was the
               DBBin reader's optional scratch reservation (a load goes on without it) */
            done = c.allocs <= n;
            optional += !done;
            counted = c.allocs;
            /* the same files as with libc */
            CHECK(same_file_text(r.skeleton_path, ref.skeleton_path));
            if (ref.atlas_json_path[0])
                CHECK(same_file_text(r.atlas_json_path, ref.atlas_json_path));
            if (ref.atlas_png_path[0])
                CHECK(same_file_text(r.atlas_png_path, ref.atlas_png_path));
        } else if (st != SINEW_E_NOMEM || err.code != SINEW_E_NOMEM || !err.message[0]) {
            if (wrong++ == 0) {
                first_wrong = n;
                snprintf(wrong_msg, sizeof wrong_msg, "%s '%.150s'", sinew_status_str(st), err.message);
            }
            if (n == 0)
                break;
        }
        tmp_left += empty_dir(out_dir);
    }
    printf("%s -> %s: %ld allocations counted, %ld conversions", input, target_name(t), counted, runs);
    if (leaks)
        printf(", %ld leaked (first: failing allocation %ld)", leaks, first_leak);
    if (wrong)
        printf(", %ld did not report out-of-memory (first: failing allocation %ld gave %s)", wrong, first_wrong,
               wrong_msg);
    if (tmp_left)
        printf(", %ld temporary files left", tmp_left);
    if (bad_sizes)
        printf(", %ld frees with a wrong size", bad_sizes);
    if (optional)
        printf(", %ld succeeded with an optional allocation failed", optional);
    if (!done)
        printf(", the conversion never succeeded");
    printf("\n");
    CHECK(optional <= (strstr(input, ".dbbin") ? 1 : 0));
    CHECK(counted > 0);
    CHECK(leaks == 0);
    CHECK(wrong == 0);
    CHECK(tmp_left == 0);
    CHECK(bad_sizes == 0);
    CHECK(done);
}

static void test_db45(void) {
    fail_every(TO_DB45, "fixtures/own/Pip_5.5/pip_ske.json");
    fail_every(TO_DB45, "fixtures/own/Pip_xml/pip.xml"); /* packs the rig's images into an atlas */
}

/* 4.x frame lists split into channels; a binary's per-influence meshes rebuilt at the setup pose and
 * its curves' samples; an XML rotation's end-of-loop key */
static void test_db55(void) {
    fail_every(TO_DB55, "fixtures/own/Pip_4.0/pip.json");
    fail_every(TO_DB55, "fixtures/dbbin/skin_exporter_ske.dbbin");
    fail_every(TO_DB55, "fixtures/xml/rigs/tween.xml");
}

static void test_dbbin(void) { fail_every(TO_DBBIN, "fixtures/own/Pip_5.5/pip_ske.json"); }

/* Pip bakes IK chains and an inherit mode, so the instance the baking runs counts too;
 * timeline_clocks bakes under timeline scales and offsets (the sample times), zorder_out plays its
 * zOrder keys that move slots out of range. */
static void test_spine(void) {
    fail_every(TO_SPINE, "fixtures/own/Pip_5.5/pip_ske.json");
    spine_atlas = "fixtures/own/Pip_4.5/pip_tex.json";
    fail_every(TO_SPINE, "fixtures/spine/timeline_clocks_ske.json");
    spine_atlas = "fixtures/own/Pip_4.0/texture.json";
    fail_every(TO_SPINE, "fixtures/spine/zorder_out_ske.json");
    spine_atlas = NULL;
}

int main(void) {
    snprintf(out_dir, sizeof out_dir, "/tmp/sinew-writer-alloc-XXXXXX");
    snprintf(ref_dir, sizeof ref_dir, "/tmp/sinew-writer-ref-XXXXXX");
    if (!mkdtemp(out_dir) || !mkdtemp(ref_dir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_db45);
    RUN(test_db55);
    RUN(test_dbbin);
    RUN(test_spine);
    empty_dir(out_dir);
    empty_dir(ref_dir);
    rmdir(out_dir);
    rmdir(ref_dir);
    return test_summary();
}
