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
#include "counting_alloc.h"
#include "read_file.h"
#include "testlib.h"

static void *bin;
static size_t bin_len;

static void test_write(void) {
    size_t len;
    char *text = test_read_file("fixtures/own/Pip_5.5/pip_ske.json", &len);
    CHECK(text != NULL);
    if (!text)
        return;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew__dbbin_write(text, len, "pip", 0, NULL, NULL, NULL, NULL, &bin, &bin_len, &err) == SINEW_OK);
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
    CHECK(sinew__dbbin_write(path_doc, strlen(path_doc), "p", 0, NULL, NULL, NULL, NULL, &out, &out_len, &err) == SINEW_E_UNSUPPORTED);
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

/* ---- the two layouts ------------------------------------------------------------------------- */

static uint32_t header_len(const unsigned char *b) {
    return (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
}

/* Where the header's top-level `offset` table is: the header offset of its '[' and of its ']'
 * (the writer puts the table last). */
static bool table_span(const unsigned char *b, size_t *open, size_t *close) {
    uint32_t hl = header_len(b);
    const char *h = (const char *)b + 12;
    size_t at = SIZE_MAX;
    for (size_t i = 0; i + 10 <= hl; i++)
        if (memcmp(h + i, "\"offset\":[", 10) == 0)
            at = i + 9; /* the last one */
    if (at == SIZE_MAX)
        return false;
    size_t end = at;
    while (end < hl && h[end] != ']')
        end++;
    *open = at;
    *close = end;
    return end < hl;
}

/* The binary `b` with its offset table's text replaced by `table` ("[...]"), the header padded
 * again; *table_at gets the file byte of the new table's '['. */
static unsigned char *with_table(const unsigned char *b, size_t len, const char *table, size_t *out_len,
                                 size_t *table_at) {
    size_t open, close;
    if (!table_span(b, &open, &close))
        return NULL;
    uint32_t hl = header_len(b);
    size_t head = open, tl = strlen(table);
    /* the header text after the table, without the old padding */
    const char *after = (const char *)b + 12 + close + 1;
    size_t after_len = hl - close - 1;
    while (after_len > 0 && after[after_len - 1] == ' ')
        after_len--;
    size_t nh = head + tl + after_len, pad = (4 - (12 + nh) % 4) % 4, arrays = len - 12 - hl;
    unsigned char *m = malloc(12 + nh + pad + arrays);
    memcpy(m, b, 8);
    uint32_t n = (uint32_t)(nh + pad);
    for (int i = 0; i < 4; i++)
        m[8 + i] = (unsigned char)(n >> (8 * i));
    memcpy(m + 12, b + 12, head);
    memcpy(m + 12 + head, table, tl);
    memcpy(m + 12 + head + tl, after, after_len);
    memset(m + 12 + nh, ' ', pad);
    memcpy(m + 12 + nh + pad, b + 12 + hl, arrays);
    *out_len = 12 + nh + pad + arrays;
    *table_at = 12 + head;
    return m;
}

/* The table's numbers (up to 16), as the writer wrote them. */
static int table_numbers(const unsigned char *b, double *v) {
    size_t open, close;
    if (!table_span(b, &open, &close))
        return -1;
    int n = 0;
    const char *p = (const char *)b + 12 + open + 1, *end = (const char *)b + 12 + close;
    while (p < end && n < 16) {
        char *q;
        v[n++] = strtod(p, &q);
        p = q + (*q == ',');
    }
    return n;
}

typedef struct warn_log {
    int count;
    sinew_error last;
} warn_log;

static void on_warning(void *user, sinew_log_level level, const sinew_error *where) {
    warn_log *w = user;
    if (level == SINEW_LOG_WARNING) {
        w->count++;
        w->last = *where;
    }
}

/* Loads m (len bytes): status, message, warnings. */
static sinew_status load_bin(const unsigned char *m, size_t len, sinew_error *err, warn_log *w) {
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.log = on_warning;
    o.log_user = w;
    memset(err, 0, sizeof *err);
    memset(w, 0, sizeof *w);
    sinew_data *d = NULL;
    sinew_status st = sinew_data_load_buffer(m, len, "t.dbbin", &o, &d, err);
    CHECK((st == SINEW_OK) == (d != NULL));
    sinew_data_destroy(d);
    return st;
}

/* "... at byte offset N" names exactly `at`. */
static bool names_byte(const sinew_error *err, size_t at) {
    char want[64];
    snprintf(want, sizeof want, "at byte offset %zu", at);
    return strstr(err->message, want) != NULL && err->offset == at;
}

/* Formats 1 and 2 of one document: the version word 0 0 0 F, 12 or 14 numbers (the seventh array
 * empty, after the sixth), the same arrays; both read; no other format is written. */
static void test_formats(void) {
    size_t len;
    char *text = test_read_file("fixtures/own/Pip_5.5/pip_ske.json", &len);
    CHECK(text != NULL);
    if (!text)
        return;
    void *b1 = NULL, *b2 = NULL, *b3 = NULL;
    size_t n1 = 0, n2 = 0, n3 = 0;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew__dbbin_write(text, len, "pip", 1, NULL, NULL, NULL, NULL, &b1, &n1, &err) == SINEW_OK);
    CHECK(sinew__dbbin_write(text, len, "pip", 2, NULL, NULL, NULL, NULL, &b2, &n2, &err) == SINEW_OK);
    CHECK(sinew__dbbin_write(text, len, "pip", 3, NULL, NULL, NULL, NULL, &b3, &n3, &err) == SINEW_E_ARG && b3 == NULL);
    free(text);
    if (!b1 || !b2) {
        free(b1);
        free(b2);
        return;
    }
    const unsigned char *p1 = b1, *p2 = b2;
    CHECK(memcmp(p1 + 4, "\0\0\0\1", 4) == 0 && memcmp(p2 + 4, "\0\0\0\2", 4) == 0);
    double t1[16], t2[16];
    CHECK(table_numbers(p1, t1) == 12 && table_numbers(p2, t2) == 14);
    CHECK(t2[12] == t2[10] + t2[11] && t2[13] == 0);
    CHECK(n1 - 12 - header_len(p1) == n2 - 12 - header_len(p2) &&
          memcmp(p1 + 12 + header_len(p1), p2 + 12 + header_len(p2), n1 - 12 - header_len(p1)) == 0);
    warn_log w;
    CHECK(load_bin(p1, n1, &err, &w) == SINEW_OK && w.count == 0);
    CHECK(load_bin(p2, n2, &err, &w) == SINEW_OK && w.count == 0);
    /* the version word is not read (as officially): the table tells the layout */
    unsigned char *m = malloc(n2);
    memcpy(m, p2, n2);
    memcpy(m + 4, "\5\5\0\0", 4);
    CHECK(load_bin(m, n2, &err, &w) == SINEW_OK);
    memcpy(m + 4, "\0\0\0\1", 4);
    CHECK(load_bin(m, n2, &err, &w) == SINEW_OK);
    free(m);
    free(b1);
    free(b2);
}

/* Format 2's offset table, broken: each an error at the byte of what is wrong. */
static void test_format2_errors(void) {
    if (!bin)
        return;
    const unsigned char *b = bin;
    double t[16];
    CHECK(table_numbers(b, t) == 14);
    size_t base = 12 + header_len(b), end = (size_t)(t[10] + t[11]), tail = bin_len - base;
    char table[400];
    int k = 0;
    /* the first 12 numbers as written */
    for (int i = 0; i < 12; i++)
        k += snprintf(table + k, sizeof table - (size_t)k, "%s%.0f", i ? "," : "[", t[i]);
    struct {
        const char *what, *extra;  /* the numbers after the first 12 */
        sinew_status st;
        const char *message;
        int at;                    /* -1: the table's '['; 12, 13: that entry; 100: the file byte of the array */
    } cases[] = {
        {"13 numbers", ",%zu]", SINEW_E_LAYOUT, "has 13 numbers, not 12 (format 1) or 14 (format 2)", -1},
        {"16 numbers", ",%zu,0,0,0]", SINEW_E_LAYOUT, "has 16 numbers", -1},
        {"a colour array past the end", ",%zu,8]", SINEW_E_PARSE, "the colour array (8 bytes at", 12},
        {"a colour array at -2", ",-2,0]", SINEW_E_LAYOUT, "the offset of the colour array is not an unsigned integer", 12},
        {"a colour array 1.5 long", ",%zu,1.5]", SINEW_E_LAYOUT, "the length of the colour array is not an unsigned integer", 13},
        {"a colour array of text", ",%zu,\"8\"]", SINEW_E_LAYOUT, "the length of the colour array is not an unsigned integer", 13},
        {"a misaligned colour array", ",%zu,2]", SINEW_E_LAYOUT, "misaligned DBBin: the colour array is not aligned to 2 bytes", 100},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char full[600];
        char extra[64];
        size_t at_value = c == 2 ? tail : c == 6 ? end - 3 : end;
        snprintf(extra, sizeof extra, cases[c].extra, at_value);
        snprintf(full, sizeof full, "%s%s", table, extra);
        size_t n = 0, table_at = 0;
        unsigned char *m = with_table(b, bin_len, full, &n, &table_at);
        CHECK(m != NULL);
        if (!m)
            continue;
        /* the file byte the error must name */
        size_t want = table_at;
        if (cases[c].at >= 0 && cases[c].at < 100) {
            const char *p = (const char *)m + table_at + 1;
            for (int i = 0; i < cases[c].at; i++)
                p = strchr(p, ',') + 1;
            want = (size_t)(p - (const char *)m);
        } else if (cases[c].at == 100) {
            want = 12 + header_len(m) + at_value;
        }
        sinew_error err;
        warn_log w;
        sinew_status st = load_bin(m, n, &err, &w);
        if (st != cases[c].st || !strstr(err.message, cases[c].message) || !names_byte(&err, want))
            fprintf(stderr, "%s: status %d, byte %zu wanted: %s\n", cases[c].what, (int)st, want, err.message);
        CHECK(st == cases[c].st);
        CHECK(strstr(err.message, cases[c].message) != NULL);
        CHECK(names_byte(&err, want));
        free(m);
    }
}

/* A non-empty seventh array: read as the official runtime reads it (not at all), with a warning at
 * its byte; the model is the one without it. */
static void test_colour_array(void) {
    if (!bin)
        return;
    const unsigned char *b = bin;
    double t[16];
    CHECK(table_numbers(b, t) == 14);
    size_t end = (size_t)(t[10] + t[11]);
    char table[400];
    int k = 0;
    for (int i = 0; i < 12; i++)
        k += snprintf(table + k, sizeof table - (size_t)k, "%s%.0f", i ? "," : "[", t[i]);
    snprintf(table + k, sizeof table - (size_t)k, ",%zu,16]", end);
    size_t n = 0, table_at = 0;
    unsigned char *m = with_table(b, bin_len, table, &n, &table_at);
    CHECK(m != NULL);
    if (!m)
        return;
    unsigned char *g = realloc(m, n + 16); /* 8 int16 values after the arrays */
    CHECK(g != NULL);
    if (!g) {
        free(m);
        return;
    }
    memset(g + n, 0x7f, 16);
    sinew_error err;
    warn_log w;
    CHECK(load_bin(g, n + 16, &err, &w) == SINEW_OK);
    size_t at = 12 + header_len(g) + end;
    CHECK(w.count == 1 && strstr(w.last.message, "the colour array (16 bytes) is not read") && names_byte(&w.last, at));
    free(g);
}

/* The 5.6 exporter keeps in a deform timeline's keys only the values that change (count, value
 * count, value offset, the start of the others in frameIntArray): bad ones are errors at their
 * byte in frameIntArray. */
static void test_deform_range_errors(void) {
    if (!bin)
        return;
    const unsigned char *b = bin;
    uint32_t hl = header_len(b);
    cJSON *h = cJSON_ParseWithLength((const char *)b + 12, hl);
    double t[16];
    CHECK(h && table_numbers(b, t) == 14);
    /* the first deform timeline (type 22) of the first armature's animations */
    const cJSON *anims = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(h, "armature"), 0), "animation");
    size_t tl = SIZE_MAX, fi0 = 0;
    for (const cJSON *a = anims ? anims->child : NULL; a && tl == SIZE_MAX; a = a->next) {
        const cJSON *slots = cJSON_GetObjectItemCaseSensitive(a, "slot");
        for (const cJSON *s = slots ? slots->child : NULL; s && tl == SIZE_MAX; s = s->next)
            for (const cJSON *e = s->child; e && e->next; e = e->next->next)
                if (e->valuedouble == 22) {
                    tl = (size_t)e->next->valuedouble;
                    fi0 = (size_t)cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(a, "offset"), 0)->valuedouble;
                    break;
                }
    }
    cJSON_Delete(h);
    CHECK(tl != SIZE_MAX);
    if (tl == SIZE_MAX)
        return;
    size_t base = 12 + hl;
    const unsigned char *ta = b + base + (size_t)t[10], *fia = b + base + (size_t)t[4];
    size_t hd = fi0 + (size_t)(ta[2 * (tl + 3)] | ta[2 * (tl + 3) + 1] << 8); /* the header in frameIntArray */
    int16_t count = (int16_t)(fia[2 * (hd + 1)] | fia[2 * (hd + 1) + 1] << 8);
    CHECK(count > 2 && (int16_t)(fia[2 * (hd + 2)] | fia[2 * (hd + 2) + 1] << 8) == count);
    struct {
        int16_t vc, vo, fo;
        size_t field;
        const char *message;
    } cases[] = {
        {count, 1, 0, 2, "keys with values 1.."},        /* value offset + count past the count */
        {-1, 0, 0, 2, "keys with values 0..-2"},          /* a negative value count */
        {(int16_t)(count - 2), 0, -100, 4, "the values its keys leave out start before frameFloatArray"},
        {(int16_t)(count - 2), 0, 32000, 4, "past the end of frameFloatArray"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned char *m = malloc(bin_len);
        memcpy(m, bin, bin_len);
        unsigned char *f = m + base + (size_t)t[4] + 2 * hd;
        f[4] = (unsigned char)cases[c].vc, f[5] = (unsigned char)((uint16_t)cases[c].vc >> 8);
        f[6] = (unsigned char)cases[c].vo, f[7] = (unsigned char)((uint16_t)cases[c].vo >> 8);
        if (cases[c].field == 4) {
            f[8] = (unsigned char)cases[c].fo, f[9] = (unsigned char)((uint16_t)cases[c].fo >> 8);
        }
        sinew_error err;
        warn_log w;
        sinew_status st = load_bin(m, bin_len, &err, &w);
        size_t want = base + (size_t)t[4] + 2 * (hd + cases[c].field);
        bool byte_ok = cases[c].field == 4 && c == 3 ? strstr(err.message, "byte offset") != NULL : names_byte(&err, want);
        if (st != SINEW_E_LAYOUT || !strstr(err.message, cases[c].message) || !byte_ok)
            fprintf(stderr, "deform case %zu: status %d, byte %zu wanted: %s\n", c, (int)st, want, err.message);
        CHECK(st == SINEW_E_LAYOUT && strstr(err.message, cases[c].message) != NULL && byte_ok);
        free(m);
    }
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
    CHECK(sinew_data_get_armature_info(d, 0, &a) == SINEW_OK && sinew_data_get_armature_info(j, 0, &b) == SINEW_OK);
    CHECK_STR(a.name, b.name);
    CHECK(a.bone_count == b.bone_count && a.slot_count == b.slot_count && a.mesh_count == b.mesh_count &&
          a.ik_count == b.ik_count && a.animation_count == b.animation_count && a.skin_count == b.skin_count);
    for (uint32_t i = 0; i < a.animation_count && i < b.animation_count; i++) {
        sinew_animation_info x, y;
        CHECK(sinew_data_get_animation_info(d, 0, i, &x) == SINEW_OK && sinew_data_get_animation_info(j, 0, i, &y) == SINEW_OK);
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
    CHECK(sinew__dbbin_write(doc, strlen(doc), "z", 0, NULL, NULL, NULL, NULL, &b, &n, &err) == SINEW_OK);
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
    CHECK(cJSON_GetArraySize(off) == 14); /* format 2, the default */
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
    char *text = test_read_file(json, &len);
    void *bb = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(text && sinew__dbbin_write(text, len, json, 0, NULL, NULL, NULL, NULL, &bb, &blen, &err) == SINEW_OK);
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
    long leaks = 0, runs = 0;
    bool done = false;
    for (long n = 0; n < 100000 && !done; n++) {
        counting c = {.fail_at = n};
        sinew_allocator a = counting_allocator(&c, false);
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
        if (counting_leaked(&c))
            leaks++;
        /* on until a load where no allocation failed: one that fails only the load's optional
           scratch reservation (allocation 2) still succeeds, and the allocations after it must be
           failed too */
        done = st != SINEW_E_NOMEM && (st != SINEW_OK || c.allocs <= n);
        runs++;
    }
    printf("pip.dbbin: %ld allocation-failure loads, %ld leaked\n", runs, leaks);
    CHECK(done);
    CHECK(leaks == 0);
    CHECK(runs > 3); /* more than the first allocations were failed */
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
    RUN(test_formats);
    RUN(test_format2_errors);
    RUN(test_colour_array);
    RUN(test_deform_range_errors);
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
