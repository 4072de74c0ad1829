/* DragonBones binary (format/dbbin.h): the writer's layout on a fixture, the reader's layout
 * checks on every truncation of that file (an error naming a byte offset, never a read out of
 * bounds: run under ASan), every failing allocation of a load giving back every byte, and the
 * public sinew_convert_dbbin. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "format/dbbin.h"
#include "sinew/convert.h"
#include "sinew/data.h"
#include "testlib.h"

typedef struct counting {
    long allocs, fail_at;
    long live_blocks;
    size_t live_bytes;
} counting;

static void *c_alloc(void *ctx, size_t size) {
    counting *c = ctx;
    if (c->allocs++ == c->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p) {
        c->live_blocks++;
        c->live_bytes += size;
    }
    return p;
}

static void c_free(void *ctx, void *p, size_t size) {
    counting *c = ctx;
    if (!p)
        return;
    c->live_blocks--;
    c->live_bytes -= size;
    free(p);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        b[n] = '\0';
    *len = (size_t)n;
    return b;
}

static void *bin;
static size_t bin_len;

static void test_write(void) {
    size_t len;
    char *text = slurp("fixtures/own/Pip_5.5/pip_ske.json", &len);
    CHECK(text != NULL);
    if (!text)
        return;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew__dbbin_write(text, len, "pip", &bin, &bin_len, &err) == SINEW_OK);
    free(text);
    if (!bin)
        return;
    const unsigned char *b = bin;
    CHECK(bin_len > 12 && memcmp(b, "DBDT", 4) == 0);
    uint32_t hl = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    CHECK((12 + hl) % 4 == 0 && 12 + hl <= bin_len && b[12] == '{');
    /* A path display is refused by name, and nothing is returned. */
    const char *path_doc = "{\"version\":\"5.5\",\"armature\":[{\"name\":\"a\",\"bone\":[{\"name\":\"r\"}],"
                           "\"slot\":[{\"name\":\"s\",\"parent\":\"r\"}],\"skin\":[{\"slot\":[{\"name\":\"s\","
                           "\"display\":[{\"type\":\"path\",\"name\":\"p\"}]}]}]}]}";
    void *out = NULL;
    size_t out_len = 0;
    memset(&err, 0, sizeof err);
    CHECK(sinew__dbbin_write(path_doc, strlen(path_doc), "p", &out, &out_len, &err) == SINEW_E_UNSUPPORTED);
    CHECK(out == NULL && strstr(err.message, "path display") != NULL);
}

static void test_truncations(void) {
    if (!bin)
        return;
    long wrong = 0;
    for (size_t n = 0; n < bin_len; n++) {
        unsigned char *cut = malloc(n ? n : 1);
        memcpy(cut, bin, n);
        sinew_data *d = NULL;
        sinew_error err;
        memset(&err, 0, sizeof err);
        sinew_status st = sinew_data_load_buffer(cut, n, "cut.dbbin", NULL, &d, &err);
        /* Below 4 bytes it is no DBBin; past them every cut is a layout error at a byte. */
        if (n >= 4 && (st == SINEW_OK || st == SINEW_E_UNSUPPORTED || !strstr(err.message, "at byte offset"))) {
            if (wrong++ == 0)
                fprintf(stderr, "cut at %zu: status %d: %s\n", n, (int)st, err.message);
        }
        CHECK(d == NULL);
        sinew_data_destroy(d);
        free(cut);
    }
    CHECK(wrong == 0);
    /* The whole file: consistent, and refused (not read yet). */
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(bin, bin_len, "pip.dbbin", NULL, &d, &err) == SINEW_E_UNSUPPORTED);
    CHECK(d == NULL && strstr(err.message, "not implemented yet") != NULL);
}

static void test_alloc_failures(void) {
    if (!bin)
        return;
    long leaks = 0;
    bool done = false;
    for (long n = 0; n < 100000 && !done; n++) {
        counting c = {0, n, 0, 0};
        sinew_allocator a = {c_alloc, NULL, c_free, &c};
        sinew_load_options o;
        memset(&o, 0, sizeof o);
        o.allocator = &a;
        sinew_data *d = NULL;
        sinew_error err;
        memset(&err, 0, sizeof err);
        sinew_status st = sinew_data_load_buffer(bin, bin_len, "pip.dbbin", &o, &d, &err);
        CHECK(d == NULL);
        CHECK(st == SINEW_E_NOMEM || st == SINEW_E_UNSUPPORTED);
        if (c.live_blocks || c.live_bytes)
            leaks++;
        done = st != SINEW_E_NOMEM;
    }
    CHECK(done);
    CHECK(leaks == 0);
}

/* The public entry point: writes DIR/NAME_ske.dbbin, refuses an XML rig and writes nothing. */
static void test_convert_api(void) {
    char dir[] = "/tmp/sinew_dbbin_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    sinew_convert_options o;
    memset(&o, 0, sizeof o);
    o.name = "pip55";
    sinew_convert_result r;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_convert_dbbin("fixtures/own/Pip_5.5/pip_ske.json", dir, &o, &r, &err) == SINEW_OK);
    char want[1100];
    snprintf(want, sizeof want, "%s/pip55_ske.dbbin", dir);
    CHECK_STR(r.skeleton_path, want);
    CHECK(access(want, F_OK) == 0);
    memset(&err, 0, sizeof err);
    CHECK(sinew_convert_dbbin("fixtures/own/Pip_xml/pip.xml", dir, &o, &r, &err) == SINEW_E_UNSUPPORTED);
    CHECK(r.skeleton_path[0] == '\0' && strstr(err.message, "DragonBones JSON only") != NULL);
    unlink(want);
    rmdir(dir);
}

int main(void) {
    RUN(test_write);
    RUN(test_convert_api);
    RUN(test_truncations);
    RUN(test_alloc_failures);
    free(bin);
    return test_summary();
}
