/* libFuzzer target: src/base/num.c against glibc in the "C" locale (this program never calls
 * setlocale). The input as text must read as strtod and strtof read it (value bits and end; of a
 * NaN only NaN and sign, as glibc keeps digits of "nan(digits)" as a payload), hex floats aside,
 * which sinew does not read; its first 8 bytes as a double, with a conversion,
 * flags, width and precision from the next bytes, must print as glibc's snprintf prints them;
 * sinew's JSON text of that double must read back to it and never be longer than needed. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    if (!strpbrk(s, "xX")) {
        char *e1, *e2;
        double a = strtod(s, &e1), b = sinew__strtod(s, &e2);
        bool same = isnan(a) ? isnan(b) && signbit(a) == signbit(b) : memcmp(&a, &b, sizeof a) == 0;
        if (!same || e1 != e2) {
            fprintf(stderr, "strtod %a end %td, sinew %a end %td\n", a, e1 - s, b, e2 - s);
            abort();
        }
        float fa = strtof(s, &e1), fb = sinew__strtof(s, &e2);
        same = isnan(fa) ? isnan(fb) && signbit(fa) == signbit(fb) : memcmp(&fa, &fb, sizeof fa) == 0;
        if (!same || e1 != e2) {
            fprintf(stderr, "strtof %a, sinew %a\n", (double)fa, (double)fb);
            abort();
        }
    }
    free(s);
    if (size < 11)
        return 0;
    double v;
    memcpy(&v, data, sizeof v);
    static const char conv[] = "feEgGF";
    static const char *const flags[8] = {"", "-", "+", " ", "#", "0", "+#0", "- "};
    char fmt[32], x[1200], y[1200];
    snprintf(fmt, sizeof fmt, "%%%s%u.%u%c", flags[data[8] & 7], (unsigned)(data[8] >> 3) % 40,
             (unsigned)data[9] % 120, conv[data[10] % 6]);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int n1 = snprintf(x, sizeof x, fmt, v), n2 = sinew__snprintf(y, sizeof y, fmt, v);
#pragma GCC diagnostic pop
    if (n1 != n2 || strcmp(x, y) != 0) {
        fprintf(stderr, "%s of %a: glibc \"%s\", sinew \"%s\"\n", fmt, v, x, y);
        abort();
    }
    char j[SINEW_NUM_JSON_MAX];
    size_t len = sinew__num_json(j, v);
    if (len != strlen(j) || len >= SINEW_NUM_JSON_MAX)
        abort();
    if (isfinite(v)) {
        double back = strtod(j, NULL);
        if (back != v) {
            fprintf(stderr, "json %a -> %s -> %a\n", v, j, back);
            abort();
        }
        /* no shorter %.{p}e reads back */
        for (int p = 1; v != 0.0 && p < 17; ++p) {
            char t[40];
            snprintf(t, sizeof t, "%.*e", p - 1, v);
            if (strtod(t, NULL) == v) {
                /* the JSON text has p significant digits (plus zeros a fixed layout needs) */
                char sig[40];
                size_t k = 0;
                for (const char *q = j; *q && *q != 'e'; ++q)
                    if ((*q >= '1' && *q <= '9') || (*q == '0' && k))
                        sig[k++] = *q;
                while (k > 1 && sig[k - 1] == '0')
                    k--;
                if (k > (size_t)p) {
                    fprintf(stderr, "json %a: %s has more than %d digits\n", v, j, p);
                    abort();
                }
                break;
            }
        }
    }
    return 0;
}
