/* sinew's JSON reader (src/base/json_dom.c) against independent references: numbers against
 * libc's strtod bit for bit, trees against cJSON's parser, error offsets hand-derived from the
 * strict grammar of RFC 8259, and the memory limit / allocator failure paths. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json_dom.h"
#include "counting_alloc.h"
#include "testlib.h"

static const char *shared(void) {
    const char *s = getenv("SHARED");
    return s ? s : "../../shared";
}

/* ---- numbers ----------------------------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int check_number(const char *s) {
    double want = strtod(s, NULL), got = sinew__jdom_number(s, strlen(s));
    if (!same_bits(want, got)) {
        fprintf(stderr, "number %s: strtod %.17g, sinew %.17g\n", s, want, got);
        return 0;
    }
    return 1;
}

static void test_numbers_match_strtod(void) {
    static const char *const edge[] = {
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "0.30000000000000004", "1e23", "1E23",
        "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995", "18446744073709551615",
        "18446744073709551616", "1234567890123456789", "12345678901234567890", "1.7976931348623157e308",
        "1.7976931348623159e308", "1e309", "-1e309", "4.9e-324", "5e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308", "1e-400", "1e22", "1e-22",
        "123456789e22", "0.000001", "100e-2", "3.14159265358979323846264338327950288", "1e+0", "1e-0", "0e999",
        "-0e-999", "8.98846567431158e307", "0.1e1", "7.038531e-26", "1448997445238699", "2.5", "-28.5"};
    int bad = 0;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; ++i)
        bad += !check_number(edge[i]);
    /* random decimals: 1-24 significant digits, a point anywhere, exponents from -340 to 320 */
    char buf[80];
    for (int n = 0; n < 300000 && bad < 10; ++n) {
        size_t k = 0;
        if (next_rand() & 1)
            buf[k++] = '-';
        int digits = 1 + (int)(next_rand() % 24);
        int frac = (int)(next_rand() % (uint64_t)(digits + 1)); /* digits after the point */
        if (frac == digits) {
            buf[k++] = '0';
        } else {
            buf[k++] = (char)('1' + next_rand() % 9); /* no leading zero */
            for (int d = 1; d < digits - frac; ++d)
                buf[k++] = (char)('0' + next_rand() % 10);
        }
        if (frac) {
            buf[k++] = '.';
            for (int d = 0; d < frac; ++d)
                buf[k++] = (char)('0' + next_rand() % 10);
        }
        if (next_rand() % 3) {
            int ex = (int)(next_rand() % 661) - 340;
            if (next_rand() % 2)
                ex = (int)(next_rand() % 45) - 22; /* the fast path's range */
            k += (size_t)snprintf(buf + k, sizeof buf - k, "e%d", ex);
        }
        buf[k] = '\0';
        bad += !check_number(buf);
    }
    CHECK(bad == 0);
}

/* ---- trees against cJSON ------------------------------------------------------------------------- */

static int same(const cJSON *a, const cJSON *b) {
    for (; a && b; a = a->next, b = b->next) {
        if ((a->type & 0xFF) != (b->type & 0xFF))
            return 0;
        if ((a->string == NULL) != (b->string == NULL) || (a->string && strcmp(a->string, b->string) != 0))
            return 0;
        if ((a->type & 0xFF) == cJSON_Number && (!same_bits(a->valuedouble, b->valuedouble) || a->valueint != b->valueint))
            return 0;
        if ((a->type & 0xFF) == cJSON_String && strcmp(a->valuestring, b->valuestring) != 0)
            return 0;
        if (((a->type & 0xFF) == cJSON_True || (a->type & 0xFF) == cJSON_False) && a->valueint != b->valueint)
            return 0;
        if ((a->type & 0xFF) == cJSON_Array || (a->type & 0xFF) == cJSON_Object) {
            if (!same(a->child, b->child))
                return 0;
            if (a->child) { /* cJSON's links: the first member's prev is the last one */
                const cJSON *last = a->child;
                while (last->next)
                    last = last->next;
                if (a->child->prev != last)
                    return 0;
            }
        }
    }
    return a == NULL && b == NULL;
}

static int compare_with_cjson(const char *text, size_t len) {
    sinew_jdom dom;
    memset(&dom, 0, sizeof dom);
    cJSON *root = NULL;
    size_t end = 0;
    sinew_jdom_status st = sinew__jdom_parse(&dom, text, len, 64, &root, &end);
    cJSON *ref = cJSON_ParseWithLength(text, len);
    int ok = st == SINEW_JDOM_OK && ref && same(root, ref);
    cJSON_Delete(ref);
    sinew__jdom_free(&dom);
    return ok;
}

static void test_trees_match_cjson(void) {
    static const char *const docs[] = {
        "{}", "[]", "0", "\"\"", "true", "  [ 1 , 2 ,\n\t3 ]  ", "{\"a\":{\"b\":[[],{}]},\"a\":null}",
        "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"}",
        "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]", "[1e10, -1e10, 2147483647, 2147483648, -2147483649, 0.5, -0.5]",
        "{\"frame\":[{\"duration\":2,\"tweenEasing\":0,\"curve\":[0.25,0,0.75,1]}]}", "[\"a\\u0000b\"]"};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; ++i) {
        int ok = compare_with_cjson(docs[i], strlen(docs[i]));
        if (!ok)
            fprintf(stderr, "differs from cJSON: %s\n", docs[i]);
        CHECK(ok);
    }
    /* the shared rigs and atlases, when ../shared is there */
    static const char *const files[] = {
        "you_xin_body_5.5/body_ske.json", "mecha_1502b_5.5/mecha_1502b_ske.json", "ZOrder16_4.5/16_ske.json",
        "CoreElement_4.5/CoreElement.json", "ReplaceSkinMan_4.0/man.json", "Ubbie_4.5/Ubbie.json",
        "you_xin_body_5.5/body_tex.json"};
    int seen = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/data/dragonbones/%s", shared(), files[i]);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        seen++;
        int ok = compare_with_cjson(buf, n);
        if (!ok)
            fprintf(stderr, "differs from cJSON: %s\n", path);
        CHECK(ok);
    }
    if (!seen)
        printf("(no %s/data/dragonbones: the shared rigs were not compared)\n", shared());
}

/* ---- errors --------------------------------------------------------------------------------------- */

static void test_errors(void) {
    static const struct {
        const char *text;
        sinew_jdom_status st;
        size_t offset;           /* where the grammar stops: the offending byte, or the length */
    } cases[] = {
        {"", SINEW_JDOM_SYNTAX, 0},          {"   ", SINEW_JDOM_SYNTAX, 3},
        {"[1,]", SINEW_JDOM_SYNTAX, 3},      {"{\"a\" 1}", SINEW_JDOM_SYNTAX, 5},
        {"{1:2}", SINEW_JDOM_SYNTAX, 1},     {"{\"a\":1,}", SINEW_JDOM_SYNTAX, 7},
        {"[01]", SINEW_JDOM_SYNTAX, 2},      {"[1.]", SINEW_JDOM_SYNTAX, 3},
        {"[-.5]", SINEW_JDOM_SYNTAX, 2},     {"[.5]", SINEW_JDOM_SYNTAX, 1},
        {"[+1]", SINEW_JDOM_SYNTAX, 1},      {"[1e]", SINEW_JDOM_SYNTAX, 3},
        {"[1e+]", SINEW_JDOM_SYNTAX, 4},     {"[-]", SINEW_JDOM_SYNTAX, 2},
        {"[0x10]", SINEW_JDOM_SYNTAX, 2},    {"[NaN]", SINEW_JDOM_SYNTAX, 1},
        {"[tru]", SINEW_JDOM_SYNTAX, 1},     {"[tr", SINEW_JDOM_SYNTAX, 3},
        {"[true1]", SINEW_JDOM_SYNTAX, 5},   {"[1 2]", SINEW_JDOM_SYNTAX, 3},
        {"\x01[1]", SINEW_JDOM_SYNTAX, 0},   {"[1,\x0c 2]", SINEW_JDOM_SYNTAX, 3},
        {"[\"a\x01\"]", SINEW_JDOM_SYNTAX, 3}, {"[\"\\x\"]", SINEW_JDOM_SYNTAX, 3},
        {"[\"\\u12\"]", SINEW_JDOM_SYNTAX, 6}, {"[\"\\udc00\"]", SINEW_JDOM_SYNTAX, 2},
        {"[\"\\ud800\"]", SINEW_JDOM_SYNTAX, 8}, {"[\"\\ud800\\u0041\"]", SINEW_JDOM_SYNTAX, 8},
        {"[\"\xc3\x28\"]", SINEW_JDOM_SYNTAX, 2}, {"[\"\xed\xa0\x80\"]", SINEW_JDOM_SYNTAX, 2},
        {"[\"abc", SINEW_JDOM_SYNTAX, 5},    {"{\"a\":[1,2", SINEW_JDOM_SYNTAX, 9},
        {"[[[[1]]]]", SINEW_JDOM_TOO_DEEP, 3}, {"[[[1]]]", SINEW_JDOM_OK, 7},
        {"[1] x", SINEW_JDOM_OK, 3},         {" 7 ", SINEW_JDOM_OK, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sinew_jdom dom;
        memset(&dom, 0, sizeof dom);
        cJSON *root = NULL;
        size_t end = 99;
        sinew_jdom_status st = sinew__jdom_parse(&dom, cases[i].text, strlen(cases[i].text), 3, &root, &end);
        if (st != cases[i].st || end != cases[i].offset)
            fprintf(stderr, "case %zu '%s': status %d at %zu, expected %d at %zu\n", i, cases[i].text, (int)st, end,
                    (int)cases[i].st, cases[i].offset);
        CHECK(st == cases[i].st && end == cases[i].offset);
        CHECK((root != NULL) == (st == SINEW_JDOM_OK));
        sinew__jdom_free(&dom);
    }
}

/* ---- memory -------------------------------------------------------------------------------------- */

static void test_memory(void) {
    /* deep enough for the stack to grow past its first 64 levels, long enough for several chunks */
    static char text[200000];
    size_t k = 0;
    for (int i = 0; i < 100; ++i)
        text[k++] = '[';
    for (int i = 0; i < 30000; ++i) {
        memcpy(text + k, "1.5,", 4);
        k += 4;
    }
    text[k++] = '0';
    for (int i = 0; i < 100; ++i)
        text[k++] = ']';
    int nomem = 0;
    for (long n = 0; n < 1000; ++n) {
        counting c = {.fail_at = n};
        sinew_allocator a = counting_allocator(&c, false);
        sinew_jdom dom;
        memset(&dom, 0, sizeof dom);
        dom.allocator = &a;
        cJSON *root = NULL;
        size_t end = 0;
        sinew_jdom_status st = sinew__jdom_parse(&dom, text, k, 1000, &root, &end);
        sinew__jdom_free(&dom);
        CHECK(!counting_leaked(&c));
        if (st == SINEW_JDOM_OK) {
            CHECK(end == k && root && c.allocs <= n);
            break;
        }
        CHECK(st == SINEW_JDOM_NOMEM);
        nomem++;
    }
    CHECK(nomem >= 3); /* the strings, a node chunk or more, and the stack */
    /* the limit: a tree that cannot fit fails with LIMIT, one that fits parses */
    sinew_jdom dom;
    memset(&dom, 0, sizeof dom);
    dom.limit = 100000;
    cJSON *root = NULL;
    size_t end = 0;
    CHECK(sinew__jdom_parse(&dom, text, k, 1000, &root, &end) == SINEW_JDOM_LIMIT && !root);
    CHECK(dom.bytes <= 100000);
    sinew__jdom_free(&dom);
    memset(&dom, 0, sizeof dom);
    dom.limit = 4u << 20;
    CHECK(sinew__jdom_parse(&dom, text, k, 1000, &root, &end) == SINEW_JDOM_OK && root);
    CHECK(dom.bytes <= (4u << 20));
    /* the cJSON conventions the loaders rely on */
    const cJSON *arr = root;
    for (int i = 0; i < 99; ++i)
        arr = arr->child;
    CHECK(cJSON_GetArraySize(arr) == 30001 && arr->child->prev && arr->child->prev->next == NULL);
    CHECK(cJSON_IsNumber(arr->child) && arr->child->valuedouble == 1.5 && arr->child->valueint == 1);
    sinew__jdom_free(&dom);
    memset(&dom, 0, sizeof dom);
    const char *t = "{\"big\":1e10,\"small\":-1e10,\"t\":true,\"f\":false,\"n\":null,\"s\":\"x\"}";
    CHECK(sinew__jdom_parse(&dom, t, strlen(t), 8, &root, &end) == SINEW_JDOM_OK);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "big")->valueint == INT_MAX);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "small")->valueint == INT_MIN);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "t")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "f")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "n")));
    CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "s")), "x");
    char *printed = cJSON_PrintUnformatted(root);
    CHECK_STR(printed, "{\"big\":10000000000,\"small\":-10000000000,\"t\":true,\"f\":false,\"n\":null,\"s\":\"x\"}");
    cJSON_free(printed);
    sinew__jdom_free(&dom);
}

int main(void) {
    RUN(test_numbers_match_strtod);
    RUN(test_trees_match_cjson);
    RUN(test_errors);
    RUN(test_memory);
    return test_summary();
}
