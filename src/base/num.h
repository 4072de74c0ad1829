/* Numbers as text, the same in every locale (docs/architecture.md "Numbers and the locale").
 *
 * Every number the library reads from text or writes as text goes through this file: C's
 * strtod and printf follow LC_NUMERIC, which a host that calls setlocale(LC_ALL, "") sets to its
 * user's (a decimal comma in de_DE, a two-byte U+066B in ps_AF), and cJSON's number reader and
 * writer inherit that. These routines use no locale, no global state and no libc conversion of
 * floating point, so they are thread-safe and give the same bytes under glibc, musl and a wasm
 * libc:
 *  - reading: correctly rounded (round half to even), as strtod in the "C" locale;
 *  - writing: the exact decimal value of the double, rounded half to even at the requested digit,
 *    as glibc's printf in the "C" locale; the shortest text that reads back to the same double
 *    for JSON.
 * The message and output formatting of the library (sinew__vsnprintf) handles %f %e %g itself
 * and hands every other conversion to libc's snprintf. */
#ifndef SINEW_BASE_NUM_H
#define SINEW_BASE_NUM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* As strtod / strtof in the "C" locale: leading white space (" \t\n\v\f\r"), an optional sign,
 * decimal digits with an optional '.', an optional exponent; "inf", "infinity", "nan" and
 * "nan(chars)" in any case (the NaN has no payload). Hexadecimal floats are not read (the "0"
 * before the 'x' is).
 * *end (when end is not NULL) is set past the number, or to s when there is none. Out-of-range
 * values give +-HUGE_VAL or 0 as strtod does (errno is not a part of the contract). */
double sinew__strtod(const char *s, char **end);
float sinew__strtof(const char *s, char **end);

/* The decimal number [-] int[0..nint) . frac[0..nfrac) x 10^exp10 (digits only, already checked
 * by the caller's grammar), correctly rounded to a double. */
double sinew__num_decimal(bool neg, const char *int_digits, size_t nint, const char *frac_digits, size_t nfrac,
                          int64_t exp10);

/* `v` as sinew's JSON writer prints it: the fewest significant digits that read back to exactly
 * `v`, laid out as cJSON lays out %1.15g (or %1.17g past 15 digits): "0.1", "1e+20", "-0";
 * "null" for NaN and infinities. Writes a terminated string to out; returns its length. */
#define SINEW_NUM_JSON_MAX 32
size_t sinew__num_json(char out[SINEW_NUM_JSON_MAX], double v);

/* `v` rounded to `digits` significant decimal digits (1..17): the double that
 * printf("%.*g", digits, v) reads back as. Non-finite values and zero come back unchanged. */
double sinew__num_round(double v, int digits);

/* snprintf, vsnprintf and fprintf with %f %F %e %E %g %G (and %a %A, printed as %e %E) formatted
 * here, with every flag, width and precision; every other conversion goes to libc unchanged.
 * Return values as C's: -1 for an output longer than INT_MAX bytes (a width or precision may be
 * anything up to INT_MAX, and a `*` width INT_MIN). */
int sinew__vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) SINEW_PRINTF(3, 0);
int sinew__snprintf(char *buf, size_t size, const char *fmt, ...) SINEW_PRINTF(3, 4);
int sinew__vfprintf(FILE *f, const char *fmt, va_list ap) SINEW_PRINTF(2, 0);
int sinew__fprintf(FILE *f, const char *fmt, ...) SINEW_PRINTF(2, 3);

#endif
