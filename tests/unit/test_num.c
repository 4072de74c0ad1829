/* src/base/num.c (numbers as text without the locale) and src/base/json_print.c against an
 * independent reference: glibc's strtod, strtof and printf in the "C" locale (this program never
 * calls setlocale), and cJSON's printer for the layout of JSON text. Random inputs come from a
 * fixed seed. tests/unit/test_locale.c runs the loaders and writers under other locales. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json_dom.h"
#include "base/json_print.h"
#include "base/num.h"
#include "testlib.h"

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static uint64_t below(uint64_t n) { return next_rand() % n; }

static int same_d(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
static int same_f(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* doubles of every kind: any bit pattern, integers, short decimals, floats, subnormals */
static double random_double(void) {
    uint64_t b;
    double d;
    switch (below(6)) {
    case 0:
        b = next_rand();
        memcpy(&d, &b, sizeof d);
        return d;
    case 1:
        return (double)(int64_t)below(2000001) - 1000000.0;
    case 2:
        return (double)below(100000000) / pow(10.0, (double)below(12));
    case 3: {
        uint32_t u = (uint32_t)next_rand();
        float f;
        memcpy(&f, &u, sizeof f);
        return (double)f;
    }
    case 4:
        b = (next_rand() & UINT64_C(0x800FFFFFFFFFFFFF)) | (below(4) << 52);
        memcpy(&d, &b, sizeof d);
        return d;
    default:
        return (double)below(1000) * pow(10.0, (double)((int)below(40) - 20));
    }
}

/* a decimal string: sign, 1-25 digits (sometimes up to 900), a point anywhere, an exponent */
static void random_decimal(char *s) {
    int n = 0;
    if (below(4) == 0)
        s[n++] = '-';
    else if (below(8) == 0)
        s[n++] = '+';
    int nd = 1 + (int)below(below(5) == 0 ? 900 : 25);
    int dot = (int)below((uint64_t)nd + 2) - 1;
    for (int i = 0; i < nd; i++) {
        if (i == dot)
            s[n++] = '.';
        s[n++] = below(5) == 0 ? '0' : (char)('0' + below(10));
    }
    if (below(2)) {
        s[n++] = below(2) ? 'e' : 'E';
        if (below(2))
            s[n++] = below(2) ? '-' : '+';
        n += sprintf(s + n, "%d", (int)below(below(3) ? 30 : 400));
    }
    if (below(10) == 0)
        s[n++] = 'z';
    s[n] = '\0';
}

static int bad_reads = 0;

static void check_read(const char *s) {
    char *e1, *e2;
    double x = strtod(s, &e1), y = sinew__strtod(s, &e2);
    float fx = strtof(s, NULL), fy = sinew__strtof(s, NULL);
    if (!same_d(x, y) || e1 != e2 || !same_f(fx, fy)) {
        if (bad_reads++ < 10)
            fprintf(stderr, "read %.80s: strtod %a (end %td), sinew %a (end %td); strtof %a, sinew %a\n", s, x, e1 - s,
                    y, e2 - s, (double)fx, (double)fy);
        test_checks_failed_++;
    }
}

static void test_read_matches_libc(void) {
    static const char *const edge[] = {
        "0", "-0", "+0.0e-5", "1", "0.1", "1e23", "9007199254740993", "9007199254740992.5",
        "9007199254740993.0000000000000000000000000000001", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "4.9406564584124654e-324", "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "1e-400", "1.00000005960464477539062499",
        "1.000000059604644775390625", "1.00000005960464477539062501", "3.4028235677973366e38", "3.4028235677973367e38",
        "1.4012984643e-45", "7.006492321624085e-46", "7.006492321624086e-46", "123456789012345678901234567890e-40",
        "0.000000000000000000000000000000000000000000000000000000000000000000001", "nan", "-NaN", "nan(123abc)",
        "nan(", "inf", "-Infinity", "infinit", "  \t\n12.5e", "+.5", "-.e3", ".", "", "e5", "1e", "1e+", "-28.50",
        "10.5", " 7", "0x10"};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; ++i) {
        if (strcmp(edge[i], "0x10") == 0) {
            char *end;
            CHECK(sinew__strtod(edge[i], &end) == 0.0 && end == edge[i] + 1); /* hexadecimal is not read */
            continue;
        }
        check_read(edge[i]);
    }
    char buf[2000];
    for (int n = 0; n < 20000 && bad_reads < 10; ++n) {
        random_decimal(buf);
        check_read(buf);
        /* around the rounding boundaries: a double printed with 17 to 41 digits, and the exact
           midpoint between it and its successor */
        double d = random_double();
        if (!isfinite(d))
            continue;
        snprintf(buf, sizeof buf, "%.*e", 17 + (int)below(25), d);
        check_read(buf);
        double up = nextafter(d, INFINITY);
        if (isfinite(up)) {
            snprintf(buf, sizeof buf, "%.60Le", ((long double)d + (long double)up) / 2);
            check_read(buf);
        }
    }
    /* one long input: 5000 digits, exactly halfway unless the last one is non-zero */
    memset(buf, 0, sizeof buf);
    snprintf(buf, sizeof buf, "%.60Le", ((long double)1.0 + (long double)nextafter(1.0, 2.0)) / 2);
    char *big = malloc(6000);
    if (big) {
        size_t k = (size_t)(strchr(buf, 'e') - buf);
        memcpy(big, buf, k);
        memset(big + k, '0', 5000 - k);
        strcpy(big + 5000, "e0");
        check_read(big);
        big[4990] = '1';
        check_read(big);
        free(big);
    }
    CHECK(bad_reads == 0);
}

static int bad_prints = 0;

static void test_printf_matches_libc(void) {
    static const char convs[] = "feEgGF";
    static const char *const flags[] = {"", "-", "+", " ", "#", "0", "-+", "0+", "#0", " 0", "#-"};
    char a[2000], b[2000], fmt[64];
    for (int n = 0; n < 20000 && bad_prints < 10; ++n) {
        double d = random_double();
        if (below(40) == 0)
            d = below(2) ? NAN : -INFINITY;
        if (below(40) == 0)
            d = -0.0;
        char c = convs[below(6)];
        const char *f = flags[below(11)];
        int prec = (int)below(below(10) == 0 ? 60 : 18), width = (int)below(30);
        switch (below(4)) {
        case 0: snprintf(fmt, sizeof fmt, "%%%s%d.%d%c", f, width, prec, c); break;
        case 1: snprintf(fmt, sizeof fmt, "%%%s%c", f, c); break;
        case 2: snprintf(fmt, sizeof fmt, "%%%s.%d%c", f, prec, c); break;
        default: snprintf(fmt, sizeof fmt, "<%%%s*.*%c|%%s>", f, c); break;
        }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        int n1, n2;
        if (strchr(fmt, '*')) {
            n1 = snprintf(a, sizeof a, fmt, width - 15, prec, d, "x");
            n2 = sinew__snprintf(b, sizeof b, fmt, width - 15, prec, d, "x");
        } else {
            n1 = snprintf(a, sizeof a, fmt, d);
            n2 = sinew__snprintf(b, sizeof b, fmt, d);
        }
#pragma GCC diagnostic pop
        if (n1 != n2 || strcmp(a, b) != 0) {
            if (bad_prints++ < 10)
                fprintf(stderr, "printf %s of %a: libc \"%s\" (%d), sinew \"%s\" (%d)\n", fmt, d, a, n1, b, n2);
            test_checks_failed_++;
        }
    }
    /* truncation and the return value, and the conversions handed to libc */
    CHECK(sinew__snprintf(a, 6, "%.3f|%s", 3.14159, "abc") == 9 && strcmp(a, "3.142") == 0);
    CHECK(sinew__snprintf(NULL, 0, "%g", 1e300) == (int)strlen("1e+300"));
    sinew__snprintf(a, sizeof a, "%d %5.2s %-4u| %zu %llx %c %% %*d %lld %p", -7, "xyz", 3u, (size_t)42,
                    0xabcULL, 'q', 4, 9, LLONG_MIN, (void *)0);
    snprintf(b, sizeof b, "%d %5.2s %-4u| %zu %llx %c %% %*d %lld %p", -7, "xyz", 3u, (size_t)42, 0xabcULL, 'q', 4, 9,
             LLONG_MIN, (void *)0);
    CHECK_STR(a, b);
    /* a %f wider than any scratch buffer */
    char *wide1 = malloc(1200), *wide2 = malloc(1200);
    if (wide1 && wide2) {
        snprintf(wide1, 1200, "%.700f|", 1e300);
        sinew__snprintf(wide2, 1200, "%.700f|", 1e300);
        CHECK_STR(wide1, wide2);
    }
    free(wide1);
    free(wide2);
    CHECK(bad_prints == 0);
}

/* Fills a stretch of the stack below this frame with 'X', so that a byte the formatter leaves
 * unwritten in a scratch buffer of its own shows as an 'X' rather than, by luck, as the right
 * digit (valgrind reports it as uninitialised in any case). */
static void __attribute__((noinline)) dirty_stack(void) {
    volatile char junk[8192];
    for (size_t i = 0; i < sizeof junk; ++i)
        junk[i] = 'X';
}

/* Formatting at its limits: a floating-point body of 798-802 bytes (the formatter's scratch
 * buffer is 800: a body that fills it exactly once lost its last byte), `*` precisions near
 * INT_MAX (the rounding position and the %g precision overflowed int) and a `*` width of INT_MIN
 * (its negation overflowed int). glibc is the reference where it can give one; it cannot print
 * precisions near INT_MAX (it asks for a buffer that large and fails with ENOMEM), so those are
 * C's rules written out: %g drops the trailing zeros, and an output longer than INT_MAX bytes
 * returns -1 (glibc's result for the INT_MIN widths). */
static void test_printf_limits(void) {
    /* the body is the precision and `extra` bytes: "0." for %f and %#g of 0.5 (its exponent is -1:
       the %f style), "5." and "e-01" for %e (the sign and '|' are outside the body) */
    static const struct {
        const char *fmt;
        int extra;
    } fmts[] = {{"%.*f", 2}, {"%.*e", 6}, {"%#.*g", 2}, {"%-+.*f|", 2}, {"%.*E", 6}};
    char *a = malloc(2000), *b = malloc(2000);
    if (!a || !b) {
        CHECK(a && b);
        free(a);
        free(b);
        return;
    }
    int bad = 0;
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; ++f) {
        for (int body = 796; body <= 804; ++body) {
            int prec = body - fmts[f].extra;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
            int n1 = snprintf(b, 2000, fmts[f].fmt, prec, 0.5);
            dirty_stack();
            int n2 = sinew__snprintf(a, 2000, fmts[f].fmt, prec, 0.5);
#pragma GCC diagnostic pop
            if (n1 != n2 || strcmp(a, b) != 0 || strlen(a) != (size_t)n2) {
                size_t at = 0;
                while (a[at] && a[at] == b[at])
                    at++;
                if (bad++ < 5)
                    fprintf(stderr, "printf %s with %d: libc %d bytes, sinew %d (strlen %zu): byte %zu is 0x%02x, "
                            "libc's '%c'\n", fmts[f].fmt, prec, n1, n2, strlen(a), at, (unsigned char)a[at], b[at]);
            }
        }
    }
    CHECK(bad == 0);
    /* (through volatile ints: gcc sees through constants and refuses outputs past INT_MAX) */
    volatile int big = INT_MAX, small = INT_MIN;
    /* %g at precision INT_MAX: the %f style (the exponent is below the precision), every digit of
       the exact value (glibc's %.100f), zeros dropped */
    static const double gs[] = {0.05, -1e-4, 0.0625};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; ++i) {
        snprintf(b, 2000, "%.100f", gs[i]);
        while (b[strlen(b) - 1] == '0')
            b[strlen(b) - 1] = '\0';
        CHECK(sinew__snprintf(a, 2000, "%.*g", big, gs[i]) == (int)strlen(b) && strcmp(a, b) == 0);
    }
    CHECK(sinew__snprintf(a, 64, "%.*g|", big, 1.5) == 4 && strcmp(a, "1.5|") == 0);
    snprintf(b, 2000, "%.0f", 1e300); /* the exact integer: %g of it at this precision is the same */
    CHECK(sinew__snprintf(a, 2000, "%.*g", big, 1e300) == (int)strlen(b) && strcmp(a, b) == 0);
    /* %e and %f at precision INT_MAX: longer than INT_MAX bytes, -1; the buffer holds their start */
    CHECK(sinew__snprintf(a, 64, "%.*e", big, 1.5) == -1 && strncmp(a, "1.50000000", 10) == 0 &&
          strlen(a) == 63 && strspn(a + 3, "0") == 60);
    snprintf(b, 2000, "%.0f.00000", 1e300);
    CHECK(sinew__snprintf(a, 2000, "%.*f", big, 1e300) == -1 && strncmp(a, b, strlen(b)) == 0);
    /* the longest output an int can count, and one byte more */
    CHECK(sinew__snprintf(a, 64, "%.*f", big - 2, 0.5) == INT_MAX && strncmp(a, "0.50000", 7) == 0);
    CHECK(sinew__snprintf(a, 64, "%.*f", big - 1, 0.5) == -1);
    CHECK(sinew__snprintf(NULL, 0, "%*.1f", big, 0.5) == INT_MAX);
    /* a `*` width of INT_MIN: left-justified in 2^31 bytes, longer than INT_MAX: -1 (as glibc) */
    CHECK(sinew__snprintf(a, 64, "%*f|", small, 1.5) == -1 && strncmp(a, "1.500000  ", 10) == 0);
    CHECK(sinew__snprintf(a, 64, "%*d|", small, 5) == -1 && strncmp(a, "5  ", 3) == 0);
    CHECK(sinew__snprintf(a, 64, "%*.*s|", small, 2, "xyz") == -1 && strncmp(a, "xy  ", 4) == 0);
    free(a);
    free(b);
}

/* the shortest %.{p}e that reads back (glibc), as digits without point or exponent */
static void shortest_digits(double d, char *out) {
    char s[64];
    for (int p = 1; p <= 17; ++p) {
        snprintf(s, sizeof s, "%.*e", p - 1, d);
        if (strtod(s, NULL) == d)
            break;
    }
    size_t k = 0;
    for (const char *q = s; *q && *q != 'e'; ++q)
        if (*q >= '0' && *q <= '9')
            out[k++] = *q;
    while (k > 1 && out[k - 1] == '0')
        k--;
    out[k] = '\0';
}

static void test_json_numbers(void) {
    char s[SINEW_NUM_JSON_MAX], want[64], a[64];
    int bad = 0;
    for (int n = 0; n < 20000 && bad < 10; ++n) {
        double d = random_double();
        if (!isfinite(d) || d == 0.0)
            continue;
        size_t len = sinew__num_json(s, d);
        int ok = len == strlen(s) && sinew__strtod(s, NULL) == d && strtod(s, NULL) == d;
        /* the same digits as the shortest %e of glibc */
        shortest_digits(d, want);
        char got[64];
        size_t k = 0;
        for (const char *q = s; *q && *q != 'e'; ++q)
            if (*q >= '1' && *q <= '9' ? 1 : (*q == '0' && k > 0))
                got[k++] = *q;
        while (k > 1 && got[k - 1] == '0')
            k--;
        got[k] = '\0';
        ok = ok && strcmp(got, want) == 0;
        /* cJSON's layout: "%1.15g" whenever that reads back exactly (normal numbers) */
        snprintf(a, sizeof a, "%1.15g", d);
        if (strtod(a, NULL) == d && fabs(d) >= DBL_MIN)
            ok = ok && strcmp(a, s) == 0;
        if (!ok && bad++ < 10)
            fprintf(stderr, "json number %a: sinew \"%s\", shortest digits %s, %%1.15g \"%s\"\n", d, s, want, a);
        /* rounding to significant digits */
        int digits = 1 + (int)below(17);
        snprintf(a, sizeof a, "%.*g", digits, d);
        double r = sinew__num_round(d, digits);
        if (!same_d(strtod(a, NULL), r) && bad++ < 10)
            fprintf(stderr, "round %a to %d digits: libc %s, sinew %a\n", d, digits, a, r);
    }
    CHECK(bad == 0);
    static const struct {
        double v;
        const char *text;
    } fixed[] = {{0.1, "0.1"},           {1e20, "1e+20"},    {-0.0, "-0"},       {0.0, "0"},
                 {1e-5, "1e-05"},        {123456.5, "123456.5"}, {1e15, "1e+15"}, {0.30000000000000004, "0.30000000000000004"},
                 {1e16 + 2, "10000000000000002"}, {NAN, "null"}, {-INFINITY, "null"}, {2.5e-7, "2.5e-07"},
                 {5e-324, "5e-324"}, {-28.5, "-28.5"}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) {
        sinew__num_json(s, fixed[i].v);
        CHECK_STR(s, fixed[i].text);
    }
}

/* a random tree of cJSON nodes: numbers cJSON prints exactly, strings with escapes */
static cJSON *random_tree(int depth) {
    uint64_t k = depth > 5 ? below(5) : below(7);
    switch (k) {
    case 0: return cJSON_CreateNull();
    case 1: return cJSON_CreateBool(below(2) != 0);
    case 2: {
        double d;
        char t[64];
        do {
            d = random_double();
            snprintf(t, sizeof t, "%1.15g", d);
        } while (!isfinite(d) || strtod(t, NULL) != d || (d != 0.0 && fabs(d) < DBL_MIN));
        return cJSON_CreateNumber(d);
    }
    case 3: {
        char t[40];
        size_t n = below(12);
        for (size_t i = 0; i < n; ++i) {
            static const char pick[] = "ab\"\\/\b\f\n\r\t\x01\x1f\x7f\xc3\xa9 ";
            t[i] = pick[below(sizeof pick - 1)];
        }
        t[n] = '\0';
        return cJSON_CreateString(t);
    }
    case 4: return cJSON_CreateRaw("[1, 2]");
    case 5: {
        cJSON *a = cJSON_CreateArray();
        for (uint64_t i = below(4); i > 0; --i)
            cJSON_AddItemToArray(a, random_tree(depth + 1));
        return a;
    }
    default: {
        cJSON *o = cJSON_CreateObject();
        for (uint64_t i = below(4); i > 0; --i) {
            char key[8];
            snprintf(key, sizeof key, below(6) ? "k%u" : "\t\"%u", (unsigned)i);
            cJSON_AddItemToObject(o, key, random_tree(depth + 1));
        }
        return o;
    }
    }
}

static void test_json_print_layout(void) {
    int bad = 0;
    for (int n = 0; n < 3000 && bad < 5; ++n) {
        cJSON *t = random_tree(0);
        for (int formatted = 0; formatted < 2; ++formatted) {
            char *want = formatted ? cJSON_Print(t) : cJSON_PrintUnformatted(t);
            char *got = sinew__json_print(t, formatted != 0, NULL, &(size_t){0});
            if (!want || !got || strcmp(want, got) != 0) {
                if (bad++ < 5)
                    fprintf(stderr, "json print (formatted %d):\ncJSON: %s\nsinew: %s\n", formatted, want ? want : "-",
                            got ? got : "-");
            }
            cJSON_free(want);
            free(got);
        }
        cJSON_Delete(t);
    }
    CHECK(bad == 0);
    /* where cJSON's 15 digits lose the double, sinew's text keeps it */
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(0.1 + 0.2));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(1.0 / 3.0));
    char *s = sinew__json_print(a, false, NULL, &(size_t){0});
    CHECK_STR(s, "[0.30000000000000004,0.3333333333333333]");
    free(s);
    cJSON_Delete(a);
}

static void test_parse_heap(void) {
    const char *t = " {\"a\": [1.5, -2e-3, \"x\\u00e9\"], \"b\": {\"c\": 0.30000000000000004}} \n";
    size_t off = 99;
    cJSON *r = sinew__jdom_parse_heap(t, strlen(t), 16, &off);
    CHECK(r != NULL && off == strlen(t));
    if (r) {
        cJSON *c = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "b"), "c");
        CHECK(c && c->valuedouble == 0.30000000000000004);
        /* the tree is cJSON's own: it can be edited and deleted */
        cJSON_AddItemToObject(r, "d", cJSON_CreateNumber(2.25));
        cJSON_DeleteItemFromObjectCaseSensitive(r, "a");
        char *s = sinew__json_print(r, false, NULL, &(size_t){0});
        CHECK_STR(s, "{\"b\":{\"c\":0.30000000000000004},\"d\":2.25}");
        free(s);
        cJSON_Delete(r);
    }
    const char *junk = "{\"a\":1} x";
    CHECK(sinew__jdom_parse_heap(junk, strlen(junk), 16, &off) == NULL && off == 8);
    const char *deep = "[[[[1]]]]";
    CHECK(sinew__jdom_parse_heap(deep, strlen(deep), 3, &off) == NULL);
}

int main(void) {
    RUN(test_read_matches_libc);
    RUN(test_printf_matches_libc);
    RUN(test_printf_limits);
    RUN(test_json_numbers);
    RUN(test_json_print_layout);
    RUN(test_parse_heap);
    return test_summary();
}
