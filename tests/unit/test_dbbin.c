/* DragonBones binary (format/dbbin.h): the writer's layout on a fixture; the reader on that file
 * (the same model as the JSON), on every truncation of it and on every 16-bit element of its
 * arrays overwritten with a few bad values (an error naming a byte offset, never a read out of
 * bounds: run under ASan); every failing allocation of a load giving back every byte; and the
 * public sinew_convert_dbbin. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <cjson/cJSON.h>

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
    CHECK(sinew__dbbin_write(text, len, "pip", NULL, NULL, NULL, &bin, &bin_len, &err) == SINEW_OK);
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
    CHECK(sinew__dbbin_write(path_doc, strlen(path_doc), "p", NULL, NULL, NULL, &out, &out_len, &err) == SINEW_E_UNSUPPORTED);
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
}

/* The whole file reads into the model the JSON gives. */
static void test_read(void) {
    if (!bin)
        return;
    sinew_data *d = NULL, *j = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(bin, bin_len, "pip.dbbin", NULL, &d, &err) == SINEW_OK);
    CHECK(sinew_data_load_file("fixtures/own/Pip_5.5/pip_ske.json", NULL, &j, &err) == SINEW_OK);
    if (!d || !j) {
        fprintf(stderr, "%s\n", err.message);
        sinew_data_destroy(d);
        sinew_data_destroy(j);
        return;
    }
    sinew_armature_info a, b;
    CHECK(sinew_data_armature_info(d, 0, &a) == SINEW_OK && sinew_data_armature_info(j, 0, &b) == SINEW_OK);
    CHECK_STR(a.name, b.name);
    CHECK(a.bone_count == b.bone_count && a.slot_count == b.slot_count && a.mesh_count == b.mesh_count &&
          a.ik_count == b.ik_count && a.animation_count == b.animation_count && a.skin_count == b.skin_count);
    for (uint32_t i = 0; i < a.animation_count && i < b.animation_count; i++) {
        sinew_animation_info x, y;
        CHECK(sinew_data_animation_info(d, 0, i, &x) == SINEW_OK && sinew_data_animation_info(j, 0, i, &y) == SINEW_OK);
        CHECK_STR(x.name, y.name);
        CHECK(x.frames == y.frames && x.timeline_count == y.timeline_count && x.play_times == y.play_times);
    }
    sinew_data_destroy(d);
    sinew_data_destroy(j);
}

/* An armature without slots whose animation has a draw-order timeline: keys of no values (the
 * fuzzer's find: the value table was still empty). */
static void test_empty_values(void) {
    const char *doc = "{\"version\":\"5.5\",\"armature\":[{\"name\":\"a\",\"bone\":[{\"name\":\"r\"}],"
                      "\"animation\":[{\"name\":\"z\",\"duration\":2,\"zOrder\":{\"frame\":[{\"duration\":1},"
                      "{\"duration\":1}]}}]}]}";
    void *b = NULL;
    size_t n = 0;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew__dbbin_write(doc, strlen(doc), "z", NULL, NULL, NULL, &b, &n, &err) == SINEW_OK);
    sinew_data *d = NULL;
    memset(&err, 0, sizeof err);
    CHECK(b && sinew_data_load_buffer(b, n, "z.dbbin", NULL, &d, &err) == SINEW_OK);
    if (!d)
        fprintf(stderr, "%s\n", err.message);
    sinew_data_destroy(d);
    free(b);
}

/* A NaN or an infinity in floatArray (mesh vertices, uvs, weights) or frameFloatArray (key values)
 * is refused where it is read, with its byte offset. */
static void test_non_finite(void) {
    if (!bin)
        return;
    const unsigned char *b = bin;
    uint32_t hl = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    cJSON *h = cJSON_ParseWithLength((const char *)b + 12, hl);
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(h, "offset");
    CHECK(cJSON_GetArraySize(off) == 12);
    static const uint32_t odd[] = {0x7fc00000u, 0x7f800000u, 0xff800000u}; /* NaN, +inf, -inf */
    for (int arr = 1; arr <= 3 && off; arr += 2) { /* floatArray, frameFloatArray */
        size_t start = 12 + hl + (size_t)cJSON_GetArrayItem(off, 2 * arr)->valuedouble;
        size_t len = (size_t)cJSON_GetArrayItem(off, 2 * arr + 1)->valuedouble;
        CHECK(len >= 4);
        for (size_t k = 0; k < 3; k++) {
            unsigned char *m = malloc(bin_len);
            memcpy(m, bin, bin_len);
            for (size_t i = start; i + 4 <= start + len; i += 4)
                for (int q = 0; q < 4; q++)
                    m[i + (size_t)q] = (unsigned char)(odd[k] >> (8 * q));
            sinew_data *d = NULL;
            sinew_error err;
            memset(&err, 0, sizeof err);
            CHECK(sinew_data_load_buffer(m, bin_len, "nan.dbbin", NULL, &d, &err) == SINEW_E_RANGE);
            CHECK(d == NULL && strstr(err.message, "not a finite number") && strstr(err.message, "byte offset"));
            sinew_data_destroy(d);
            free(m);
        }
    }
    cJSON_Delete(h);
}

/* A copy of the binary with the first byte after `key` in its header set to `c` (same length: the
 * layout stays valid), loaded: the status, and the message in msg. */
static sinew_status load_edited(const char *key, char c, char *msg, size_t msg_len) {
    const unsigned char *b = bin;
    uint32_t hl = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    unsigned char *m = malloc(bin_len);
    memcpy(m, bin, bin_len);
    const char *h = (const char *)m + 12, *at = NULL;
    for (size_t i = 0; i + strlen(key) <= hl && !at; i++)
        if (memcmp(h + i, key, strlen(key)) == 0)
            at = h + i + strlen(key);
    CHECK(at != NULL);
    if (at)
        m[at - (const char *)m] = (unsigned char)c;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st = sinew_data_load_buffer(m, bin_len, "edited.dbbin", NULL, &d, &err);
    CHECK((st == SINEW_OK) == (d != NULL));
    size_t len = strlen(err.message);
    if (len >= msg_len) len = msg_len - 1;
    memcpy(msg, err.message, len);
    msg[len] = '\0';
    sinew_data_destroy(d);
    free(m);
    return st;
}

/* A timeline naming a bone or slot the armature does not have is an error naming its byte in
 * timelineArray; a timeline type the reader does not know, too. */
static void test_timeline_targets(void) {
    if (!bin)
        return;
    char msg[512];
    CHECK(load_edited("\"bone\":{\"", 'Z', msg, sizeof msg) == SINEW_E_REFERENCE);
    CHECK(strstr(msg, "names no such bone") && strstr(msg, "byte offset"));
    CHECK(load_edited("\"slot\":{\"", 'Z', msg, sizeof msg) == SINEW_E_REFERENCE);
    CHECK(strstr(msg, "names no such slot") && strstr(msg, "byte offset"));
    /* the first bone timeline's type 11 -> 19 */
    CHECK(load_edited("\"bone\":{\"body\":[1", '9', msg, sizeof msg) == SINEW_E_UNSUPPORTED);
    CHECK(strstr(msg, "timeline type 19 is not read") && strstr(msg, "byte offset"));
}

/* Every 16-bit element of the arrays of the binary of `json` overwritten with bad values: a model
 * or an error, never a crash or a read out of bounds (ASan); an error names a byte. */
static void corrupt(const char *json) {
    size_t len, blen = 0;
    char *text = slurp(json, &len);
    void *bb = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(text && sinew__dbbin_write(text, len, json, NULL, NULL, NULL, &bb, &blen, &err) == SINEW_OK);
    free(text);
    if (!bb)
        return;
    const unsigned char *b = bb;
    uint32_t hl = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    static const uint16_t bad_values[] = {0x7fff, 0x8000, 0xffff, 0x0000, 0x0101};
    unsigned char *m = malloc(blen);
    long no_byte = 0, loaded = 0, failed = 0;
    for (size_t at = 12 + hl; m && at + 2 <= blen; at += 2) {
        for (size_t v = 0; v < sizeof bad_values / sizeof bad_values[0]; v++) {
            memcpy(m, bb, blen);
            m[at] = (unsigned char)(bad_values[v] & 0xff);
            m[at + 1] = (unsigned char)(bad_values[v] >> 8);
            sinew_data *d = NULL;
            memset(&err, 0, sizeof err);
            sinew_status st = sinew_data_load_buffer(m, blen, "bad.dbbin", NULL, &d, &err);
            if (st == SINEW_OK) {
                loaded++;
                CHECK(d != NULL);
            } else {
                failed++;
                CHECK(d == NULL);
                if (!strstr(err.message, "byte offset") && no_byte++ < 5)
                    fprintf(stderr, "%s: byte %zu = %04x: status %d: %s [%s]\n", json, at, bad_values[v], (int)st,
                            err.message, err.path);
            }
            sinew_data_destroy(d);
        }
    }
    free(m);
    free(bb);
    CHECK(failed > 0 && loaded > 0);
    CHECK(no_byte == 0);
}

static void test_corruptions(void) {
    static const char *const files[] = {"fixtures/own/Pip_5.5/pip_ske.json",      "fixtures/own/Pip_4.0/pip.json",
                                        "../examples/demo/demo_ske.json",         "fixtures/oracle/surface_ske.json",
                                        "fixtures/oracle/zorder_quirks_ske.json", "fixtures/oracle/slot_actions_ske.json",
                                        "fixtures/oracle/ik_weight_ske.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        corrupt(files[i]);
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
        CHECK(st == SINEW_E_NOMEM || st == SINEW_OK);
        CHECK((st == SINEW_OK) == (d != NULL));
        sinew_data_destroy(d);
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
    RUN(test_read);
    RUN(test_empty_values);
    RUN(test_non_finite);
    RUN(test_timeline_targets);
    RUN(test_corruptions);
    RUN(test_alloc_failures);
    free(bin);
    return test_summary();
}
