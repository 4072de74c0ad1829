/* MRTK input animations: golden bytes built here byte by byte, round trips, corruption, layout
 * detection, evaluation defaults, and the editing operations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/input.h"
#include "testlib.h"

/* ---- a byte-level writer, independent of the library ---------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

static void put8(bytes *b, uint8_t v) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = realloc(b->p, b->cap);
    }
    b->p[b->n++] = v;
}
static void put32(bytes *b, uint32_t v) {
    for (int i = 0; i < 4; i++)
        put8(b, (uint8_t)(v >> (8 * i)));
}
static void putf(bytes *b, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(b, u);
}
static void header(bytes *b, int minor) {
    static const uint8_t magic[8] = {0xc6, 0x42, 0x9e, 0x0f, 0x6e, 0xaf, 0x8f, 0x6a};
    for (int i = 0; i < 8; i++)
        put8(b, magic[i]);
    put32(b, 1);
    put32(b, (uint32_t)minor);
}

static sinew_input_animation *read_ok(const bytes *b) {
    sinew_input_animation *a = NULL;
    sinew_error err = {0};
    sinew_status st = sinew_input_read(b->p, b->n, "golden", NULL, &a, &err);
    if (st != SINEW_OK)
        fprintf(stderr, "read failed: %s [%s]\n", err.message, err.path);
    CHECK(st == SINEW_OK);
    return a;
}

static bool write_equals(const sinew_input_animation *a, int minor, int layout, const bytes *want) {
    sinew_input_write_options o = {minor, layout};
    uint8_t *data = NULL;
    size_t size = 0;
    if (sinew_input_write_memory(a, &o, &data, &size, NULL) != SINEW_OK)
        return false;
    bool same = size == want->n && memcmp(data, want->p, size) == 0;
    if (!same)
        fprintf(stderr, "  written %zu bytes, expected %zu\n", size, want->n);
    sinew_input_free_memory(a, data, size);
    return same;
}

static void test_golden_empty_v10(void) {
    bytes b = {0};
    header(&b, 0);
    for (int i = 0; i < 389; i++) {
        put32(&b, 8);
        put32(&b, 8);
        put32(&b, 0);
    }
    put32(&b, 0);
    CHECK(b.n == 4688);
    sinew_input_animation *a = read_ok(&b);
    if (a) {
        CHECK(a->version_minor == 0);
        CHECK(a->has_camera && a->has_hands && !a->has_eye_gaze);
        CHECK(sinew_input_key_count(a) == 0);
        CHECK(!a->markers_missing && a->trailing_bytes == 0);
        CHECK(write_equals(a, -1, -1, &b));
        sinew_input_destroy(a);
    }
    /* built from nothing */
    sinew_input_create(NULL, &a, NULL);
    CHECK(write_equals(a, 0, -1, &b));
    sinew_input_destroy(a);
    free(b.p);
}

static void test_golden_all_false_v11(void) {
    static const uint8_t want[23] = {0xc6, 0x42, 0x9e, 0x0f, 0x6e, 0xaf, 0x8f, 0x6a, 1, 0, 0, 0, 1, 0, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0};
    bytes b = {0};
    header(&b, 1);
    put8(&b, 0);
    put8(&b, 0);
    put8(&b, 0);
    put32(&b, 0);
    CHECK(b.n == 23 && memcmp(b.p, want, 23) == 0);
    sinew_input_animation *a = read_ok(&b);
    if (a) {
        CHECK(a->version_minor == 1 && a->layout == SINEW_INPUT_LAYOUT_MRTK);
        CHECK(!a->has_camera && !a->has_hands && !a->has_eye_gaze);
        CHECK(write_equals(a, -1, -1, &b));
        CHECK(write_equals(a, 1, SINEW_INPUT_LAYOUT_SPEC, &b)); /* nothing differs without float curves */
        sinew_input_frame f;
        sinew_input_eval(a, 1.0, &f);
        CHECK(f.camera.rotation[3] == 1.0f && f.camera.position[0] == 0.0f);
        CHECK(!f.hands[0].tracked && !f.hands[1].pinch);
        CHECK(f.hands[1].joints[5].rotation[3] == 1.0f);
        CHECK(f.gaze_direction[2] == 1.0f && f.gaze_origin[1] == 0.0f);
        CHECK(sinew_input_duration(a) == 0.0);
        sinew_input_destroy(a);
    }
    sinew_input_create(NULL, &a, NULL);
    CHECK(write_equals(a, -1, -1, &b));
    sinew_input_destroy(a);
    free(b.p);
}

static void camera_only(bytes *b) {
    header(b, 1);
    put8(b, 1);
    put8(b, 0);
    put8(b, 0);
    for (int i = 0; i < 7; i++) {
        put32(b, 8);
        put32(b, 8);
        put32(b, 1);
        putf(b, 0.0f);
        putf(b, i == 6 ? 1.0f : 0.0f);
    }
    put32(b, 0);
}

static void test_golden_camera_only(void) {
    bytes b = {0};
    camera_only(&b);
    CHECK(b.n == 163);
    CHECK(b.p[b.n - 8] == 0x00 && b.p[b.n - 5] == 0x3f && b.p[b.n - 6] == 0x80); /* w = 1.0f */
    sinew_input_animation *a = read_ok(&b);
    if (a) {
        CHECK(a->has_camera && !a->has_hands && a->layout == SINEW_INPUT_LAYOUT_MRTK);
        CHECK(a->curves[6].key_count == 1 && a->curves[6].keys[0].value == 1.0f);
        CHECK(a->curves[0].keys[0].weighted_mode == 3 && a->curves[0].keys[0].in_weight == 0.0f);
        CHECK(write_equals(a, -1, -1, &b));
        sinew_input_destroy(a);
    }
    /* the same built through the API */
    sinew_input_create(NULL, &a, NULL);
    a->has_camera = true;
    for (uint32_t i = 0; i < 7; i++) {
        sinew_curve_key k = {0, i == 6 ? 1.0f : 0.0f, 0, 0, 0, 0, 3};
        sinew_input_set_curve(a, i, &k, 1, NULL);
    }
    CHECK(write_equals(a, 1, SINEW_INPUT_LAYOUT_MRTK, &b));
    sinew_input_destroy(a);
    free(b.p);
}

/* ---- a rich animation -------------------------------------------------------------------- */

static uint32_t seed = 99;
static float frand(void) {
    seed = seed * 1103515245u + 12345u;
    return (float)((seed >> 8) & 0xffff) / 65536.0f;
}

static sinew_input_animation *rich(bool full_keys) {
    sinew_input_animation *a;
    sinew_input_create(NULL, &a, NULL);
    a->has_camera = a->has_hands = a->has_eye_gaze = true;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (i % 5 == 3)
            continue; /* some curves stay empty */
        sinew_curve_key k[6];
        uint32_t n = 1 + i % 6;
        for (uint32_t j = 0; j < n; j++) {
            bool b = sinew_input_curve_is_bool(i);
            float v = b ? (float)(j % 2) : frand() * 2 - 1;
            sinew_curve_key key = {0.1f * (float)j + (float)(i % 3) * 0.01f, v, 0, 0, 0, b ? 1e6f : 0, 3};
            if (full_keys && !b) {
                key.in_tangent = frand();
                key.out_tangent = j == 2 ? INFINITY : frand();
                key.in_weight = frand();
                key.out_weight = frand();
                key.weighted_mode = (int32_t)(j % 4);
            }
            k[j] = key;
        }
        sinew_input_set_curve(a, i, k, n, NULL);
        a->curves[i].pre_wrap = (int32_t)(i % 9);
        a->curves[i].post_wrap = i == 20 ? -7 : 8;
    }
    sinew_input_add_marker(a, 0.25f, "start", 5, NULL);
    sinew_input_add_marker(a, 1.5f, "gr\xc3\xbc\xc3\x9f", 6, NULL);
    char longname[300];
    memset(longname, 'x', sizeof longname);
    sinew_input_add_marker(a, 2.0f, longname, sizeof longname, NULL); /* 2-byte length prefix */
    return a;
}

static void write_buf(const sinew_input_animation *a, int minor, int layout, bytes *out) {
    sinew_input_write_options o = {minor, layout};
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(sinew_input_write_memory(a, &o, &data, &size, NULL) == SINEW_OK);
    out->p = malloc(size ? size : 1);
    memcpy(out->p, data, size);
    out->n = size;
    sinew_input_free_memory(a, data, size);
}

static void test_round_trips(void) {
    static const int cases[3][2] = {{0, 0}, {1, SINEW_INPUT_LAYOUT_MRTK}, {1, SINEW_INPUT_LAYOUT_SPEC}};
    for (int full = 0; full < 2; full++) {
        sinew_input_animation *a = rich(full);
        for (int c = 0; c < 3; c++) {
            bytes b1 = {0};
            write_buf(a, cases[c][0], cases[c][1], &b1);
            sinew_input_animation *r = read_ok(&b1);
            if (!r)
                continue;
            CHECK(r->version_minor == cases[c][0]);
            if (cases[c][0] == 1)
                CHECK((int)r->layout == cases[c][1]);
            CHECK(r->marker_count == 3 && r->markers[2].name_length == 300);
            CHECK(strcmp(r->markers[1].name, "gr\xc3\xbc\xc3\x9f") == 0);
            CHECK(r->curves[20].post_wrap == -7);
            CHECK(write_equals(r, -1, -1, &b1)); /* read then write: the same bytes */
            /* the same evaluation, where the written form keeps everything */
            bool lossless = !(cases[c][0] == 1 && cases[c][1] == SINEW_INPUT_LAYOUT_MRTK && full);
            if (lossless) {
                sinew_input_frame fa, fr;
                for (int s = 0; s < 20; s++) {
                    double t = s * 0.03;
                    /* zeroed: memcmp also sees the padding after each hand's two flags */
                    memset(&fa, 0, sizeof fa);
                    memset(&fr, 0, sizeof fr);
                    sinew_input_eval(a, t, &fa);
                    sinew_input_eval(r, t, &fr);
                    CHECK(memcmp(&fa.camera, &fr.camera, sizeof fa.camera) == 0);
                    CHECK(memcmp(&fa.hands, &fr.hands, sizeof fa.hands) == 0);
                    if (cases[c][0] == 1)
                        CHECK(memcmp(fa.gaze_direction, fr.gaze_direction, sizeof fa.gaze_direction) == 0);
                }
            }
            /* JSON -> binary -> JSON */
            FILE *j1 = tmpfile();
            CHECK(sinew_input_write_json(r, j1, NULL) == SINEW_OK);
            long len = ftell(j1);
            rewind(j1);
            char *text = malloc((size_t)len + 1);
            CHECK(fread(text, 1, (size_t)len, j1) == (size_t)len);
            fclose(j1);
            sinew_input_animation *fromj = NULL;
            sinew_error err = {0};
            CHECK(sinew_input_read_json(text, (size_t)len, "j", NULL, &fromj, &err) == SINEW_OK);
            if (fromj) {
                CHECK(write_equals(fromj, -1, -1, &b1));
                FILE *j2 = tmpfile();
                sinew_input_write_json(fromj, j2, NULL);
                long len2 = ftell(j2);
                rewind(j2);
                char *text2 = malloc((size_t)len2 + 1);
                CHECK(fread(text2, 1, (size_t)len2, j2) == (size_t)len2);
                fclose(j2);
                CHECK(len2 == len && memcmp(text, text2, (size_t)len) == 0);
                free(text2);
                sinew_input_destroy(fromj);
            } else {
                fprintf(stderr, "json: %s [%s]\n", err.message, err.path);
            }
            free(text);
            sinew_input_destroy(r);
            free(b1.p);
        }
        sinew_input_destroy(a);
    }
}

static void test_spec_layout_detected(void) {
    /* camera only, one full 28-byte key per curve: only the spec layout parses to the end */
    bytes b = {0};
    header(&b, 1);
    put8(&b, 1);
    put8(&b, 0);
    put8(&b, 0);
    for (int i = 0; i < 7; i++) {
        put32(&b, 8);
        put32(&b, 8);
        put32(&b, 1);
        putf(&b, 0.5f);
        putf(&b, (float)i);
        putf(&b, 1.0f);
        putf(&b, 2.0f);
        putf(&b, 0.25f);
        putf(&b, 0.75f);
        put32(&b, 2);
    }
    put32(&b, 0);
    CHECK(b.n == 19 + 7 * 40 + 4);
    sinew_input_animation *a = read_ok(&b);
    if (a) {
        CHECK(a->layout == SINEW_INPUT_LAYOUT_SPEC);
        CHECK(a->curves[3].keys[0].value == 3.0f && a->curves[3].keys[0].out_weight == 0.75f);
        CHECK(a->curves[3].keys[0].weighted_mode == 2);
        CHECK(write_equals(a, -1, -1, &b));
        CHECK(sinew_input_write_is_lossy(a, &(sinew_input_write_options){1, SINEW_INPUT_LAYOUT_MRTK}));
        sinew_input_destroy(a);
    }
    free(b.p);
}

static void test_missing_markers_and_trailing(void) {
    bytes b = {0};
    camera_only(&b);
    b.n -= 4; /* no marker list */
    sinew_input_animation *a = read_ok(&b);
    if (a) {
        CHECK(a->markers_missing && a->marker_count == 0);
        CHECK(sinew_input_validate(a, NULL, NULL, NULL) == 1);
        sinew_input_destroy(a);
    }
    b.n += 4;
    put8(&b, 0xAB);
    put8(&b, 0xCD);
    a = read_ok(&b);
    if (a) {
        CHECK(a->trailing_bytes == 2 && !a->markers_missing);
        CHECK(sinew_input_validate(a, NULL, NULL, NULL) == 1);
        sinew_input_destroy(a);
    }
    free(b.p);
}

static void expect_error(const uint8_t *p, size_t n, sinew_status code, uint64_t offset) {
    sinew_input_animation *a = NULL;
    sinew_error err = {0};
    sinew_status st = sinew_input_read(p, n, "bad.bin", NULL, &a, &err);
    CHECK(st == code);
    CHECK(a == NULL);
    CHECK(err.offset == offset);
    CHECK(err.message[0] != 0);
    CHECK(strncmp(err.path, "byte ", 5) == 0);
    if (st != code || err.offset != offset)
        fprintf(stderr, "  got %d at %llu: %s\n", st, (unsigned long long)err.offset, err.message);
    sinew_input_destroy(a);
}

static void test_truncation_every_point(void) {
    /* three small files; every prefix is an error except the one that stops right before the
     * marker list (a missing marker list is accepted) */
    for (int which = 0; which < 3; which++) {
        sinew_input_animation *src = rich(which == 2);
        if (which == 0) { /* camera + gaze only, 1.1 MRTK */
            src->has_hands = false;
            for (uint32_t i = 7; i < SINEW_INPUT_CURVE_GAZE; i++)
                sinew_input_set_curve(src, i, NULL, 0, NULL);
        }
        bytes b = {0};
        write_buf(src, which == 1 ? 0 : 1, which == 2 ? SINEW_INPUT_LAYOUT_SPEC : SINEW_INPUT_LAYOUT_MRTK, &b);
        size_t markers_at = b.n - (4 + 3 * 4 + (1 + 5) + (1 + 6) + (2 + 300));
        int failures = 0, accepted = 0;
        for (size_t len = 0; len < b.n; len++) {
            uint8_t *copy = malloc(len ? len : 1); /* exact size, so ASan sees any over-read */
            memcpy(copy, b.p, len);
            sinew_input_animation *a = NULL;
            sinew_error err = {0};
            sinew_status st = sinew_input_read(copy, len, "t", NULL, &a, &err);
            if (st == SINEW_OK) {
                accepted++;
                CHECK(len == markers_at);
                CHECK(a->markers_missing);
                sinew_input_destroy(a);
            } else {
                failures++;
                CHECK(a == NULL && err.offset <= len && err.message[0]);
            }
            free(copy);
        }
        CHECK(accepted == 1);
        CHECK(failures == (int)b.n - 1);
        sinew_input_destroy(src);
        free(b.p);
    }
}

static void test_huge_and_bad_counts(void) {
    bytes b = {0};
    camera_only(&b);
    uint8_t *p = malloc(b.n);
    memcpy(p, b.p, b.n);
    /* first curve's key count at 16 + 3 + 8 = 27 */
    p[27] = 0xff, p[28] = 0xff, p[29] = 0xff, p[30] = 0x7f;
    expect_error(p, b.n, SINEW_E_PARSE, 27);
    p[30] = 0xff; /* -1 */
    expect_error(p, b.n, SINEW_E_PARSE, 27);
    memcpy(p, b.p, b.n);
    /* marker count huge */
    p[b.n - 1] = 0x7f;
    expect_error(p, b.n, SINEW_E_PARSE, b.n - 4);
    memcpy(p, b.p, b.n);
    p[12] = 2; /* version 1.2 */
    expect_error(p, b.n, SINEW_E_VERSION, 8);
    memcpy(p, b.p, b.n);
    p[8] = 2; /* version 2.1 */
    expect_error(p, b.n, SINEW_E_VERSION, 8);
    memcpy(p, b.p, b.n);
    p[0] ^= 1;
    expect_error(p, b.n, SINEW_E_PARSE, 0);
    free(p);
    /* a marker whose name length is out of range / longer than the file */
    bytes m = {0};
    header(&m, 1);
    put8(&m, 0), put8(&m, 0), put8(&m, 0);
    put32(&m, 1);
    putf(&m, 1.0f);
    put8(&m, 0xff), put8(&m, 0xff), put8(&m, 0xff), put8(&m, 0xff), put8(&m, 0x0f);
    put8(&m, 'a');
    expect_error(m.p, m.n, SINEW_E_PARSE, 27);
    m.p[31] = 0x07; /* 2^31-1: valid encoding, but longer than the file */
    expect_error(m.p, m.n, SINEW_E_PARSE, 27);
    free(m.p);
    free(b.p);
}

/* ---- evaluation ---------------------------------------------------------------------------- */

static void test_eval_normalises(void) {
    sinew_input_animation *a;
    sinew_input_create(NULL, &a, NULL);
    a->has_camera = a->has_hands = a->has_eye_gaze = true;
    sinew_curve_key two[2] = {{0, 0, 0, 0, 0, 0, 3}, {2, 4, 0, 0, 0, 0, 3}}; /* linear 0 -> 4 */
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_CAMERA + SINEW_INPUT_RW, two, 2, NULL);
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_CAMERA + SINEW_INPUT_PX, two, 2, NULL);
    sinew_curve_key g = {0, 3, 0, 0, 0, 0, 3};
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_GAZE + SINEW_INPUT_DX, &g, 1, NULL);
    g.value = 4;
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_GAZE + SINEW_INPUT_DY, &g, 1, NULL);
    sinew_curve_key tr[2] = {{0.5f, 1, 0, 0, 0, 1e6f, 3}, {1.5f, 0, 0, 0, 0, 1e6f, 3}};
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_TRACKED(1), tr, 2, NULL);
    sinew_input_frame f;
    sinew_input_eval(a, 1.0, &f);
    CHECK_NEAR(f.camera.position[0], 2.0, 1e-6);
    CHECK(f.camera.rotation[3] == 1.0f); /* (0,0,0,2) normalised */
    CHECK_NEAR(f.gaze_direction[0], 0.6, 1e-6);
    CHECK_NEAR(f.gaze_direction[1], 0.8, 1e-6);
    CHECK(f.hands[1].tracked && !f.hands[0].tracked);
    CHECK(f.hands[0].joints[3].rotation[3] == 1.0f); /* empty curves: identity */
    sinew_input_eval(a, 0.0, &f);
    CHECK(f.camera.rotation[3] == 1.0f && f.camera.rotation[0] == 0.0f); /* all zero: identity */
    sinew_input_eval(a, 1.5, &f);
    CHECK(!f.hands[1].tracked);
    CHECK(sinew_input_duration(a) == 2.0);
    /* cursor playback equals random access */
    sinew_input_cursor cur;
    memset(&cur, 0, sizeof cur);
    sinew_input_frame f2;
    for (int i = 0; i <= 150; i++) {
        sinew_input_eval_cursor(a, &cur, i / 60.0, &f);
        sinew_input_eval(a, i / 60.0, &f2);
        CHECK(memcmp(&f.camera, &f2.camera, sizeof f.camera) == 0 && f.hands[1].tracked == f2.hands[1].tracked);
    }
    sinew_input_destroy(a);
}

/* ---- editing ------------------------------------------------------------------------------- */

static double max_diff(const sinew_input_animation *a, const sinew_input_animation *b, double t0, double t1,
                       double offset) {
    double worst = 0;
    for (int s = 0; s <= 400; s++) {
        double t = t0 + (t1 - t0) * (s + 0.37) / 401.0; /* not exactly on key times */
        for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
            double x = sinew_curve_eval(&a->curves[i], t), y = sinew_curve_eval(&b->curves[i], t - offset);
            double d = fabs(x - y);
            if (!(d <= worst))
                worst = d;
        }
    }
    return worst;
}

static sinew_input_animation *clone(const sinew_input_animation *a) {
    bytes b = {0};
    write_buf(a, 1, SINEW_INPUT_LAYOUT_SPEC, &b);
    sinew_input_animation *r = read_ok(&b);
    free(b.p);
    return r;
}

static sinew_input_animation *smooth_anim(void) {
    /* every flavour of segment, keys every 0.1 s up to 0.5 s */
    sinew_input_animation *a = rich(true);
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        sinew_curve *c = &a->curves[i];
        for (uint32_t k = 0; k < c->key_count; k++) {
            if (sinew_input_curve_is_bool(i))
                continue;
            c->keys[k].weighted_mode = (int32_t)((i + k) % 4);
            if (i % 7 == 0) /* some linear MRTK curves */
                c->keys[k].weighted_mode = 3, c->keys[k].in_weight = c->keys[k].out_weight = 0;
        }
        sinew_curve_prepare(c, NULL, NULL);
    }
    return a;
}

static void test_trim(void) {
    sinew_input_animation *a = smooth_anim();
    sinew_input_animation *t = clone(a);
    CHECK(sinew_input_trim(t, 0.13, 0.37, false, NULL) == SINEW_OK);
    double d = max_diff(a, t, 0.13, 0.37, 0);
    CHECK(d < 2e-5);
    if (!(d < 2e-5))
        fprintf(stderr, "  trim max diff %g\n", d);
    CHECK(sinew_input_duration(t) <= 0.37 + 1e-6);
    CHECK(t->marker_count == 1 && t->markers[0].time == 0.25f);
    sinew_input_destroy(t);
    /* rebased, and a range inside a single segment */
    t = clone(a);
    CHECK(sinew_input_trim(t, 0.21, 0.29, true, NULL) == SINEW_OK);
    d = max_diff(a, t, 0.21, 0.29, 0.21);
    CHECK(d < 2e-5);
    if (!(d < 2e-5))
        fprintf(stderr, "  trim rebased max diff %g\n", d);
    CHECK(fabs(sinew_input_start_time(t)) < 1e-6);
    sinew_input_destroy(t);
    sinew_input_destroy(a);
}

static void test_shift_resample(void) {
    sinew_input_animation *a = smooth_anim();
    sinew_input_animation *t = clone(a);
    CHECK(sinew_input_shift(t, 1.25, NULL) == SINEW_OK);
    CHECK(max_diff(a, t, -0.2, 0.8, -1.25) < 1e-5);
    CHECK(t->markers[0].time == 1.5f);
    sinew_input_destroy(t);
    t = clone(a);
    CHECK(sinew_input_resample(t, 100, NULL) == SINEW_OK);
    /* a curve with keys from 0.02 to 0.52 gets 51 keys at 100 Hz; each on the original curve */
    const sinew_curve *c = &t->curves[SINEW_INPUT_CURVE_JOINT(0, 1, 2)]; /* index 11+7+2 = 20: 3 keys */
    const sinew_curve *o = &a->curves[SINEW_INPUT_CURVE_JOINT(0, 1, 2)];
    double span = o->eval_keys[o->eval_count - 1].time - o->eval_keys[0].time;
    CHECK(c->key_count == (uint32_t)floor(span * 100 + 1e-6) + 1 + (fmod(span * 100, 1) > 1e-3));
    for (uint32_t k = 0; k < c->key_count; k++)
        CHECK_NEAR(c->keys[k].value, sinew_curve_eval(o, c->keys[k].time), 1e-6);
    sinew_input_destroy(t);
    sinew_input_destroy(a);
}

static void test_simplify(void) {
    sinew_input_animation *a;
    sinew_input_create(NULL, &a, NULL);
    a->has_hands = true;
    /* wrist moves on a straight line for 1 s, then turns a corner: 121 keys per channel */
    sinew_curve_key px[121], py[121], pz[121], rw[121];
    for (int i = 0; i <= 120; i++) {
        float t = (float)i / 60.0f;
        float x = i <= 60 ? t : 1.0f, y = i <= 60 ? 0.0f : t - 1.0f;
        sinew_curve_key k = {t, x, 0, 0, 0, 0, 3};
        px[i] = k;
        k.value = y;
        py[i] = k;
        k.value = 0.0005f * (float)(i % 2); /* jitter under the 1 mm threshold */
        pz[i] = k;
        k.value = 1;
        rw[i] = k;
    }
    uint32_t b = SINEW_INPUT_CURVE_JOINT(0, 1, 0);
    sinew_input_set_curve(a, b + 0, px, 121, NULL);
    sinew_input_set_curve(a, b + 1, py, 121, NULL);
    sinew_input_set_curve(a, b + 2, pz, 121, NULL);
    sinew_input_set_curve(a, b + 6, rw, 121, NULL);
    uint64_t removed = 0;
    CHECK(sinew_input_simplify(a, NULL, &removed, NULL) == SINEW_OK);
    CHECK(a->curves[b].key_count == 3); /* start, corner, end */
    CHECK(a->curves[b].keys[1].time == px[60].time);
    CHECK(a->curves[b + 6].key_count == 2);
    CHECK(removed == 4 * 121 - 3 * 3 - 2);
    /* every original sample is within the threshold */
    for (int i = 0; i <= 120; i++) {
        double dx = sinew_curve_eval(&a->curves[b], px[i].time) - px[i].value;
        double dy = sinew_curve_eval(&a->curves[b + 1], px[i].time) - py[i].value;
        double dz = sinew_curve_eval(&a->curves[b + 2], px[i].time) - pz[i].value;
        CHECK(sqrt(dx * dx + dy * dy + dz * dz) <= 0.001 + 1e-7);
    }
    sinew_input_destroy(a);
}

static void test_repair(void) {
    sinew_input_animation *a;
    sinew_input_create(NULL, &a, NULL);
    a->has_camera = true;
    /* rotation about Y by angle 0..90 degrees; MRTK kept only the first W */
    sinew_curve_key ry[31], zero[31], rw;
    for (int i = 0; i <= 30; i++) {
        double ang = (3.14159265358979 / 2) * i / 30.0;
        sinew_curve_key k = {(float)i / 30.0f, (float)sin(ang / 2), 0, 0, 0, 0, 3};
        ry[i] = k;
        k.value = 0;
        zero[i] = k;
    }
    rw = (sinew_curve_key){0, 1, 0, 0, 0, 0, 3};
    sinew_input_set_curve(a, 3, zero, 31, NULL);
    sinew_input_set_curve(a, 4, ry, 31, NULL);
    sinew_input_set_curve(a, 5, zero, 31, NULL);
    sinew_input_set_curve(a, 6, &rw, 1, NULL);
    uint32_t n = 0;
    CHECK(sinew_input_repair_rotation_w(a, &n, NULL) == SINEW_OK);
    CHECK(n == 1);
    CHECK(a->curves[6].key_count == 31);
    for (int i = 0; i <= 30; i++) {
        double ang = (3.14159265358979 / 2) * i / 30.0;
        CHECK_NEAR(a->curves[6].keys[i].value, cos(ang / 2), 1e-6);
    }
    /* nothing to do the second time */
    CHECK(sinew_input_repair_rotation_w(a, &n, NULL) == SINEW_OK && n == 0);
    sinew_input_destroy(a);
}

static void count_log(void *user, sinew_log_level level, const sinew_error *where) {
    (void)where;
    if (level == SINEW_LOG_WARNING)
        (*(int *)user)++;
}

static void test_validate(void) {
    sinew_input_animation *a;
    sinew_input_create(NULL, &a, NULL);
    CHECK(sinew_input_validate(a, NULL, NULL, NULL) == 0);
    a->has_hands = true;
    sinew_curve_key k[3] = {{1, 0, 0, 0, 0, 0, 3}, {0, 0, 0, 0, 0, 0, 3}, {2, NAN, 0, 0, 0, 0, 3}};
    sinew_input_set_curve(a, SINEW_INPUT_CURVE_JOINT(1, 4, 0), k, 3, NULL); /* unsorted + NaN */
    a->curves[SINEW_INPUT_CURVE_JOINT(0, 0, 0)].pre_wrap = 5;                /* unknown wrap */
    int logged = 0;
    uint32_t n = sinew_input_validate(a, "x", count_log, &logged);
    CHECK(n == 4); /* unsorted, non-finite, unknown wrap, right hand never tracked */
    CHECK(logged == 4);
    sinew_input_destroy(a);
}

int main(void) {
    RUN(test_golden_empty_v10);
    RUN(test_golden_all_false_v11);
    RUN(test_golden_camera_only);
    RUN(test_round_trips);
    RUN(test_spec_layout_detected);
    RUN(test_missing_markers_and_trailing);
    RUN(test_truncation_every_point);
    RUN(test_huge_and_bad_counts);
    RUN(test_eval_normalises);
    RUN(test_trim);
    RUN(test_shift_resample);
    RUN(test_simplify);
    RUN(test_repair);
    RUN(test_validate);
    return test_summary();
}
