/* Numbers as text without the C locale (base/num.h): decimal to binary and back, exact.
 *
 * Reading: the decimal digits D and exponent E (value D x 10^E) become a binary significand q
 * with at least 62 significant bits, a binary exponent and a sticky bit (whether anything below
 * q is non-zero); one rounding step then gives the double or float. q comes from 64/128-bit
 * integer arithmetic when D has at most 19 digits and |E| <= 27 (every number of ordinary data),
 * otherwise from a big integer: D x 5^E, or the quotient D x 2^s / 5^-E bit by bit.
 * Writing: the double m x 2^e is exactly the decimal m x 2^e (e >= 0) or (m x 5^-e) x 10^e
 * (e < 0); those digits are rounded half to even at the requested place, as glibc's printf does.
 */
#include "base/num.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- big integers: little-endian 32-bit limbs, fixed capacity -------------------------------
 * The largest values: a 800-digit input scaled by 2^66 (about 2730 bits), 5^1124 (2610 bits),
 * and a double's exact expansion m x 5^1074 (2547 bits). */
#define BIG_LIMBS 100

typedef struct big {
    uint32_t n; /* limbs in use; the top one is non-zero (0 = the value zero) */
    uint32_t d[BIG_LIMBS];
} big;

static void big_set64(big *b, uint64_t v) {
    b->n = 0;
    while (v) {
        b->d[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

/* b = b * m + add */
static void big_muladd(big *b, uint32_t m, uint32_t add) {
    uint64_t carry = add;
    for (uint32_t i = 0; i < b->n; ++i) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BIG_LIMBS)
        b->d[b->n++] = (uint32_t)carry;
}

/* b *= 5^k */
static void big_mulpow5(big *b, uint32_t k) {
    for (; k >= 13; k -= 13)
        big_muladd(b, 1220703125u, 0); /* 5^13 */
    static const uint32_t p5[13] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625};
    if (k)
        big_muladd(b, p5[k], 0);
}

static void big_shl(big *b, uint32_t bits) {
    if (!b->n || !bits)
        return;
    uint32_t w = bits / 32, s = bits % 32;
    uint32_t n = b->n + w + 1;
    if (n > BIG_LIMBS)
        n = BIG_LIMBS; /* never reached within the bounds above */
    for (uint32_t i = n; i-- > 0;) {
        uint64_t hi = i >= w && i - w < b->n ? b->d[i - w] : 0;
        uint64_t lo = s && i >= w + 1 && i - w - 1 < b->n ? b->d[i - w - 1] : 0;
        b->d[i] = (uint32_t)((hi << s) | (s ? lo >> (32 - s) : 0));
    }
    b->n = n;
    while (b->n && !b->d[b->n - 1])
        b->n--;
}

static void big_shr1(big *b) {
    for (uint32_t i = 0; i < b->n; ++i)
        b->d[i] = (b->d[i] >> 1) | (i + 1 < b->n ? b->d[i + 1] << 31 : 0);
    while (b->n && !b->d[b->n - 1])
        b->n--;
}

static uint32_t big_bits(const big *b) {
    if (!b->n)
        return 0;
    uint32_t top = b->d[b->n - 1], k = 0;
    while (top) {
        k++;
        top >>= 1;
    }
    return (b->n - 1) * 32 + k;
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (uint32_t i = a->n; i-- > 0;)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* a -= b (a >= b) */
static void big_sub(big *a, const big *b) {
    uint64_t borrow = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        uint64_t t = (uint64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        a->d[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
    while (a->n && !a->d[a->n - 1])
        a->n--;
}

/* b /= m, returns the remainder */
static uint32_t big_divsmall(big *b, uint32_t m) {
    uint64_t r = 0;
    for (uint32_t i = b->n; i-- > 0;) {
        uint64_t t = (r << 32) | b->d[i];
        b->d[i] = (uint32_t)(t / m);
        r = t % m;
    }
    while (b->n && !b->d[b->n - 1])
        b->n--;
    return (uint32_t)r;
}

/* The top 64 bits of b (b != 0) and whether any bit below them is set; *shift = bits dropped. */
static uint64_t big_top64(const big *b, int *shift, bool *sticky) {
    uint32_t nb = big_bits(b);
    uint64_t q = 0;
    *sticky = false;
    *shift = nb > 64 ? (int)(nb - 64) : 0;
    for (uint32_t bit = nb; bit-- > (uint32_t)*shift;)
        q = (q << 1) | ((b->d[bit / 32] >> (bit % 32)) & 1u);
    for (uint32_t bit = 0; bit < (uint32_t)*shift && !*sticky; ++bit)
        *sticky = (b->d[bit / 32] >> (bit % 32)) & 1u;
    return q;
}

/* ---- rounding to binary ------------------------------------------------------------------- */

static int bitlen64(uint64_t v) {
    int k = 0;
    while (v) {
        k++;
        v >>= 1;
    }
    return k;
}

/* The double (single: the float) nearest to (q + f) x 2^e2, f in [0, 1) and f > 0 exactly when
 * sticky, ties to even. q has at least mantissa + 2 significant bits, or sticky is false. */
static double round_binary(uint64_t q, int64_t e2, bool sticky, bool neg, bool single) {
    const int mbits = single ? FLT_MANT_DIG : DBL_MANT_DIG;
    const int64_t min_lsb = single ? FLT_MIN_EXP - FLT_MANT_DIG : DBL_MIN_EXP - DBL_MANT_DIG; /* -149, -1074 */
    const int64_t max_exp = single ? FLT_MAX_EXP : DBL_MAX_EXP;                              /* 128, 1024 */
    double zero = neg ? -0.0 : 0.0;
    if (!q)
        return zero;
    int len = bitlen64(q);
    if (e2 + len > max_exp + 1)
        return neg ? -HUGE_VAL : HUGE_VAL;
    int64_t shift = len - mbits; /* bits of q below the mantissa */
    if (e2 + shift < min_lsb)
        shift = min_lsb - e2; /* subnormal: the mantissa's last bit is fixed */
    uint64_t m;
    if (shift <= 0) {
        m = q << -shift; /* exact (only when q is short and sticky false) */
    } else if (shift > 64) {
        return zero; /* below half the smallest subnormal */
    } else {
        m = shift == 64 ? 0 : q >> shift;
        bool half = (q >> (shift - 1)) & 1u;
        bool rest = sticky || (shift > 1 && (q & ((UINT64_C(1) << (shift - 1)) - 1)) != 0);
        if (half && (rest || (m & 1u)))
            m++;
    }
    double v = ldexp((double)m, (int)(e2 + shift)); /* exact: m <= 2^mbits fits, as does the result */
    if (single) {
        if (v > (double)FLT_MAX)
            return neg ? -HUGE_VAL : HUGE_VAL;
    } else if (isinf(v)) {
        return neg ? -HUGE_VAL : HUGE_VAL;
    }
    return neg ? -v : v;
}

/* ---- decimal to binary -------------------------------------------------------------------- */

/* The decimal digits of a number, possibly in two runs (the integer and fraction parts), without
 * copying. */
typedef struct digits {
    const char *a;
    size_t na;
    const char *b;
    size_t nb;
} dspan;

static char digit_at(const dspan *d, size_t i) {
    return i < d->na ? d->a[i] : d->b[i - d->na];
}

#define MAX_DIGITS 800 /* beyond this, one sticky digit stands for the rest (see decimal_value) */

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;

/* w x 10^e10 (w != 0, |e10| <= 27) as q, binary exponent and sticky. */
static void small_decimal(uint64_t w, int e10, uint64_t *q, int64_t *e2, bool *sticky) {
    static const uint64_t p5[28] = {1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
                                    1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull,
                                    6103515625ull, 30517578125ull, 152587890625ull, 762939453125ull,
                                    3814697265625ull, 19073486328125ull, 95367431640625ull, 476837158203125ull,
                                    2384185791015625ull, 11920928955078125ull, 59604644775390625ull,
                                    298023223876953125ull, 1490116119384765625ull, 7450580596923828125ull};
    u128 v;
    bool st = false;
    if (e10 >= 0) {
        v = (u128)w * p5[e10]; /* < 2^64 * 2^63 */
        *e2 = e10;
    } else {
        int s = 127 - bitlen64(w);
        u128 n = (u128)w << s, d = p5[-e10];
        v = n / d;
        st = n % d != 0;
        *e2 = (int64_t)e10 - s;
    }
    int len = 0;
    for (u128 t = v; t; t >>= 1)
        len++;
    if (len > 64) {
        int drop = len - 64;
        st = st || (v & (((u128)1 << drop) - 1)) != 0;
        v >>= drop;
        *e2 += drop;
    }
    *q = (uint64_t)v;
    *sticky = st;
}
#endif

/* D x 10^e10 where D is the digits d[0..n) (no leading zero, n <= MAX_DIGITS + 1), by big
 * integers. */
static double big_decimal(const dspan *d, size_t n, int64_t e10, bool neg, bool single) {
    big D;
    D.n = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t chunk = 0, mul = 1;
        for (int k = 0; k < 9 && i < n; ++k, ++i) {
            chunk = chunk * 10 + (uint32_t)(digit_at(d, i) - '0');
            mul *= 10;
        }
        if (!D.n) {
            big_set64(&D, chunk);
        } else {
            big_muladd(&D, mul, chunk);
        }
    }
    if (!D.n)
        return neg ? -0.0 : 0.0;
    uint64_t q;
    int64_t e2;
    bool sticky;
    if (e10 >= 0) {
        big_mulpow5(&D, (uint32_t)e10);
        int shift;
        q = big_top64(&D, &shift, &sticky);
        e2 = e10 + shift;
    } else {
        /* q = floor(D x 2^s / 5^k) in [2^62, 2^64), the rest into sticky */
        uint32_t k = (uint32_t)-e10;
        big B;
        big_set64(&B, 1);
        big_mulpow5(&B, k);
        int64_t s = 63 + (int64_t)big_bits(&B) - (int64_t)big_bits(&D);
        if (s > 0)
            big_shl(&D, (uint32_t)s);
        else
            big_shl(&B, (uint32_t)-s);
        big T = B;
        big_shl(&T, 63);
        q = 0;
        for (int bit = 63; bit >= 0; --bit) {
            if (big_cmp(&D, &T) >= 0) {
                big_sub(&D, &T);
                q |= UINT64_C(1) << bit;
            }
            big_shr1(&T);
        }
        sticky = D.n != 0;
        e2 = -(int64_t)k - s;
    }
    return round_binary(q, e2, sticky, neg, single);
}

/* The value of the digits (leading zeros allowed) x 10^e10, correctly rounded. */
static double decimal_value(const dspan *in, int64_t e10, bool neg, bool single) {
    dspan d = *in;
    size_t n = d.na + d.nb;
    size_t lead = 0;
    while (lead < n && digit_at(&d, lead) == '0')
        lead++;
    if (lead == n)
        return neg ? -0.0 : 0.0;
    /* drop the leading zeros from the runs */
    if (lead >= d.na) {
        d.b += lead - d.na;
        d.nb -= lead - d.na;
        d.na = 0;
    } else {
        d.a += lead;
        d.na -= lead;
    }
    n -= lead;
    while (n > 1 && digit_at(&d, n - 1) == '0') { /* trailing zeros into the exponent */
        n--;
        e10++;
    }
    if (n > d.na)
        d.nb = n - d.na;
    else
        d.na = n, d.nb = 0;
    /* value in [10^(n + e10 - 1), 10^(n + e10)) */
    int64_t mag = (int64_t)n + e10;
    if (mag > (single ? 40 : 310))
        return neg ? -HUGE_VAL : HUGE_VAL;
    if (mag < (single ? -46 : -324))
        return neg ? -0.0 : 0.0;
    if (n <= 19) {
        uint64_t w = 0;
        for (size_t i = 0; i < n; ++i)
            w = w * 10 + (uint64_t)(digit_at(&d, i) - '0');
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && DBL_MANT_DIG == 53
        /* Clinger's fast path: w and 10^|e10| are exact doubles, so one correctly rounded
           multiply or divide is the correctly rounded value */
        if (!single && w <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
            static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                           1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
            double v = e10 < 0 ? (double)w / p10[-e10] : (double)w * p10[e10];
            return neg ? -v : v;
        }
#endif
#if defined(__SIZEOF_INT128__)
        if (e10 >= -27 && e10 <= 27) {
            uint64_t q;
            int64_t e2;
            bool sticky;
            small_decimal(w, (int)e10, &q, &e2, &sticky);
            return round_binary(q, e2, sticky, neg, single);
        }
#endif
        return big_decimal(&d, n, e10, neg, single);
    }
#if defined(__SIZEOF_INT128__)
    /* a long input: its first 19 digits and the next value up give the same result -> done */
    if (e10 + (int64_t)n - 19 >= -27 && e10 + (int64_t)n - 19 <= 27) {
        uint64_t w = 0;
        for (size_t i = 0; i < 19; ++i)
            w = w * 10 + (uint64_t)(digit_at(&d, i) - '0');
        if (w < UINT64_MAX) {
            int e = (int)(e10 + (int64_t)n - 19);
            uint64_t q0, q1;
            int64_t a0, a1;
            bool s0, s1;
            small_decimal(w, e, &q0, &a0, &s0);
            small_decimal(w + 1, e, &q1, &a1, &s1);
            double lo = round_binary(q0, a0, true, neg, single), hi = round_binary(q1, a1, s1, neg, single);
            if (lo == hi)
                return lo;
        }
    }
#endif
    if (n > MAX_DIGITS) {
        /* A halfway point between two doubles has at most 767 significant digits, so digits past
           MAX_DIGITS only tell whether the value is above the truncation: one non-zero digit
           says the same. */
        bool more = false;
        for (size_t i = MAX_DIGITS; i < n && !more; ++i)
            more = digit_at(&d, i) != '0';
        e10 += (int64_t)(n - MAX_DIGITS);
        n = MAX_DIGITS;
        if (more) {
            char buf[MAX_DIGITS + 1];
            for (size_t i = 0; i < n; ++i)
                buf[i] = digit_at(&d, i);
            buf[n] = '1';
            dspan t = {buf, n + 1, NULL, 0};
            return big_decimal(&t, n + 1, e10 - 1, neg, single);
        }
    }
    return big_decimal(&d, n, e10, neg, single);
}

double sinew__num_decimal(bool neg, const char *int_digits, size_t nint, const char *frac_digits, size_t nfrac,
                          int64_t exp10) {
    dspan d = {int_digits, nint, frac_digits, nfrac};
    return decimal_value(&d, exp10 - (int64_t)nfrac, neg, false);
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* case-insensitive prefix match of an ASCII word */
static bool word(const char *s, const char *w) {
    for (; *w; ++s, ++w)
        if ((*s | 0x20) != *w)
            return false;
    return true;
}

static double parse(const char *s, char **end, bool single) {
    const char *p = s;
    while (is_space(*p))
        p++;
    bool neg = false;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (word(p, "inf")) {
        p += word(p, "infinity") ? 8 : 3;
        if (end)
            *end = (char *)(uintptr_t)p;
        return neg ? -HUGE_VAL : HUGE_VAL;
    }
    if (word(p, "nan")) {
        p += 3;
        if (*p == '(') {
            const char *q = p + 1;
            while (is_digit(*q) || ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z') || *q == '_')
                q++;
            if (*q == ')')
                p = q + 1;
        }
        if (end)
            *end = (char *)(uintptr_t)p;
        return neg ? -NAN : NAN;
    }
    const char *ip = p;
    while (is_digit(*p))
        p++;
    size_t ni = (size_t)(p - ip);
    const char *fp = p;
    size_t nf = 0;
    if (*p == '.') {
        fp = ++p;
        while (is_digit(*p))
            p++;
        nf = (size_t)(p - fp);
    }
    if (ni + nf == 0) {
        if (end)
            *end = (char *)(uintptr_t)s;
        return 0.0;
    }
    int64_t e10 = 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        bool eneg = false;
        if (*q == '+' || *q == '-')
            eneg = *q++ == '-';
        if (is_digit(*q)) {
            for (; is_digit(*q); ++q)
                if (e10 < 100000000)
                    e10 = e10 * 10 + (*q - '0');
            p = q;
            if (eneg)
                e10 = -e10;
        }
    }
    if (end)
        *end = (char *)(uintptr_t)p;
    dspan d = {ip, ni, fp, nf};
    return decimal_value(&d, e10 - (int64_t)nf, neg, single);
}

double sinew__strtod(const char *s, char **end) {
    return parse(s, end, false);
}

float sinew__strtof(const char *s, char **end) {
    return (float)parse(s, end, true); /* exact: the value is already a float */
}

/* ---- binary to decimal -------------------------------------------------------------------- */

/* The digits of a finite, non-zero |v|: d[0..n), value = 0.d x 10^x. Room for 780 digits. */
typedef struct decimal {
    char d[780];
    int n;
    int x;
} decimal;

static void exact_decimal(double v, decimal *out) {
    int e2;
    double fr = frexp(fabs(v), &e2); /* |v| = fr x 2^e2, fr in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(fr, DBL_MANT_DIG);
    e2 -= DBL_MANT_DIG;
    while (!(m & 1u)) {
        m >>= 1;
        e2++;
    }
    big N;
    big_set64(&N, m);
    int e10 = 0;
    if (e2 >= 0) {
        big_shl(&N, (uint32_t)e2);
    } else {
        big_mulpow5(&N, (uint32_t)-e2); /* m / 2^k = m x 5^k / 10^k */
        e10 = e2;
    }
    /* nine digits at a time, least significant first, into the end of a scratch buffer */
    char tmp[sizeof out->d + 9];
    size_t at = sizeof tmp;
    while (N.n) {
        uint32_t r = big_divsmall(&N, 1000000000u);
        for (int k = 0; k < 9; ++k) {
            tmp[--at] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    while (tmp[at] == '0')
        at++;
    int n = (int)(sizeof tmp - at);
    out->x = n + e10;
    while (n > 1 && tmp[at + (size_t)n - 1] == '0')
        n--;
    memcpy(out->d, tmp + at, (size_t)n);
    out->n = n;
}

/* Keeps `keep` digits (may be <= 0: everything rounds away or up to one digit), rounding half to
 * even. A result of zero has n = 0. */
static void round_decimal(decimal *r, int keep) {
    if (keep >= r->n)
        return;
    bool up;
    if (keep < 0) {
        up = false;
    } else {
        char c = r->d[keep];
        if (c != '5') {
            up = c > '5';
        } else {
            bool rest = false;
            for (int i = keep + 1; i < r->n && !rest; ++i)
                rest = r->d[i] != '0';
            up = rest || (keep > 0 && ((r->d[keep - 1] - '0') & 1));
        }
    }
    r->n = keep < 0 ? 0 : keep;
    if (up) {
        int i = r->n;
        while (i > 0 && r->d[i - 1] == '9')
            i--;
        if (i == 0) {
            r->d[0] = '1';
            r->n = 1;
            r->x++;
        } else {
            r->d[i - 1]++;
            r->n = i;
        }
    }
    while (r->n > 0 && r->d[r->n - 1] == '0')
        r->n--;
}

static double decimal_read(const decimal *r) {
    if (!r->n)
        return 0.0;
    dspan d = {r->d, (size_t)r->n, NULL, 0};
    return decimal_value(&d, r->x - r->n, false, false);
}

double sinew__num_round(double v, int digits) {
    if (v == 0.0 || !isfinite(v))
        return v;
    if (digits < 1)
        digits = 1;
    decimal r;
    exact_decimal(v, &r);
    round_decimal(&r, digits);
    double a = decimal_read(&r);
    return v < 0 ? -a : a;
}

/* Appends to a bounded buffer, counting what would have been written. The count stops at
 * OUT_MAX (INT_MAX + 1, the first length C's printf cannot return: the result is then -1) and
 * nothing more is written, so it never wraps, not even with a 32-bit size_t. */
typedef struct out {
    char *buf;
    size_t size, len;
} out;

#define OUT_MAX ((size_t)INT_MAX + 1)

static void put(out *o, char c) {
    if (o->len >= OUT_MAX)
        return;
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void puts_n(out *o, const char *s, size_t n) {
    for (size_t i = 0; i < n; ++i)
        put(o, s[i]);
}

/* n copies of c, in time bounded by the buffer, not by n (a width or precision may be INT_MAX) */
static void put_rep(out *o, char c, int64_t n) {
    if (n <= 0 || o->len >= OUT_MAX)
        return;
    size_t k = (uint64_t)n < OUT_MAX - o->len ? (size_t)n : OUT_MAX - o->len;
    if (o->len + 1 < o->size) {
        size_t room = o->size - 1 - o->len;
        memset(o->buf + o->len, c, k < room ? k : room);
    }
    o->len += k;
}

/* libc wrote (or would have written) n bytes at the end of o: counted as put would count them */
static void advance(out *o, size_t n) {
    o->len = n < OUT_MAX - o->len ? o->len + n : OUT_MAX;
}

static void terminate(out *o) {
    if (o->size)
        o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

/* digit i of r, zero past its end (and before its start) */
static char dig(const decimal *r, long i) {
    return i >= 0 && i < r->n ? r->d[i] : '0';
}

static void put_exponent(out *o, int e, bool upper) {
    put(o, upper ? 'E' : 'e');
    put(o, e < 0 ? '-' : '+');
    unsigned u = (unsigned)(e < 0 ? -e : e);
    char t[8];
    int k = 0;
    do {
        t[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (k < 2)
        t[k++] = '0';
    while (k)
        put(o, t[--k]);
}

/* a digit position or count as round_decimal's int: anything past INT_MAX keeps every digit */
static int keep_digits(int64_t k) {
    return k > INT_MAX ? INT_MAX : (int)k;
}

/* digits first..first+n-1 of r: those it has, then zeros (n may be up to about INT_MAX) */
static void put_digits(out *o, const decimal *r, int64_t first, int64_t n) {
    int64_t have = r->n - first; /* digits of r from `first` on (r->n <= 1200, first >= -1200) */
    if (have > n)
        have = n;
    for (int64_t i = 0; i < have; ++i)
        put(o, dig(r, (long)(first + i)));
    put_rep(o, '0', have > 0 ? n - have : n);
}

/* the body of a finite number (no sign) by printf's rules for conv e, f or g; prec >= 0 (up to
 * INT_MAX, and %g's %f style adds up to 4 to it) */
static void float_body(out *o, double v, char conv, int64_t prec, bool alt, bool upper) {
    decimal r;
    if (v == 0.0) {
        r.n = 0;
        r.x = 1;
    } else {
        exact_decimal(v, &r);
    }
    bool strip = false;
    if (conv == 'g') {
        int64_t p = prec == 0 ? 1 : prec;
        round_decimal(&r, keep_digits(p));
        int X = r.n ? r.x - 1 : 0;
        if (p > X && X >= -4) {
            conv = 'f';
            prec = p - 1 - X;
        } else {
            conv = 'e';
            prec = p - 1;
        }
        strip = !alt;
    }
    if (conv == 'e') {
        round_decimal(&r, keep_digits(prec + 1));
        int X = r.n ? r.x - 1 : 0;
        int64_t last = prec; /* index of the last digit printed */
        if (strip) { /* r has no digit past r.n - 1: zeros from there on go at once */
            if (last > r.n)
                last = r.n;
            while (last > 0 && dig(&r, (long)last) == '0')
                last--;
        }
        put(o, dig(&r, 0));
        if (last > 0 || alt)
            put(o, '.');
        put_digits(o, &r, 1, last);
        put_exponent(o, X, upper);
        return;
    }
    if (r.n)
        round_decimal(&r, keep_digits(r.x + prec));
    long ipart = r.n ? r.x : 1; /* integer digits printed (r.x <= 309) */
    if (ipart <= 0)
        put(o, '0');
    else
        for (long i = 0; i < ipart; ++i)
            put(o, r.n ? dig(&r, i) : '0');
    long first = r.n ? r.x : 1; /* index of the first fraction digit */
    int64_t frac = prec;
    if (strip) {
        if (frac > (int64_t)r.n - first) /* past r's last digit: zeros */
            frac = (int64_t)r.n - first > 0 ? (int64_t)r.n - first : 0;
        while (frac > 0 && dig(&r, (long)(first + frac - 1)) == '0')
            frac--;
    }
    if (frac > 0 || alt)
        put(o, '.');
    put_digits(o, &r, first, frac);
}

/* one floating-point conversion with its flags, width and precision */
static void fmt_float(out *o, double v, char conv, const char *flags, int64_t width, int prec) {
    bool left = strchr(flags, '-') != NULL, plus = strchr(flags, '+') != NULL, space = strchr(flags, ' ') != NULL,
         alt = strchr(flags, '#') != NULL, zero = strchr(flags, '0') != NULL;
    bool upper = conv == 'E' || conv == 'F' || conv == 'G' || conv == 'A';
    char lower = (char)(conv | 0x20);
    if (lower == 'a')
        lower = 'e';
    if (prec < 0)
        prec = 6;
    char sign = signbit(v) ? '-' : plus ? '+' : space ? ' ' : 0;
    /* the body into a scratch buffer first (its length decides the padding) */
    char body[800];
    out b = {body, sizeof body, 0};
    if (isnan(v) || isinf(v)) {
        puts_n(&b, isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3);
        zero = false;
    } else {
        float_body(&b, fabs(v), lower, prec, alt, upper);
    }
    int64_t len = (int64_t)b.len + (sign ? 1 : 0);
    int64_t pad = width > len ? width - len : 0;
    if (!left && !(zero && pad))
        put_rep(o, ' ', pad);
    if (sign)
        put(o, sign);
    if (!left && zero)
        put_rep(o, '0', pad);
    if (b.len < sizeof body) { /* put wrote all of it (it never writes the buffer's last byte) */
        puts_n(o, body, b.len);
    } else {
        /* a %f of a huge value with a huge precision: again, straight into the output */
        float_body(o, fabs(v), lower, prec, alt, upper);
    }
    if (left)
        put_rep(o, ' ', pad);
}

size_t sinew__num_json(char out_[SINEW_NUM_JSON_MAX], double v) {
    out o = {out_, SINEW_NUM_JSON_MAX, 0};
    if (!isfinite(v)) {
        puts_n(&o, "null", 4);
        terminate(&o);
        return o.len;
    }
    if (v == 0.0) {
        puts_n(&o, signbit(v) ? "-0" : "0", signbit(v) ? 2 : 1);
        terminate(&o);
        return o.len;
    }
    decimal exact, r;
    exact_decimal(v, &exact);
    double a = fabs(v);
    /* The fewest digits p whose rounding reads back. For a normal double, when 15 digits read
       back, so do p <= 15 and the 15-digit rounding is the p-digit one with zeros after (decimals
       of 15 digits lie 1e-15 apart relative to the value, 10 half-ulps): try 15, 16, 17. A
       subnormal has fewer bits: try from 1. */
    int p = a >= DBL_MIN ? 15 : 1;
    for (; p < 17; ++p) {
        r = exact;
        round_decimal(&r, p);
        if (decimal_read(&r) == a)
            break;
    }
    if (p == 17) {
        r = exact;
        round_decimal(&r, 17);
    }
    /* cJSON prints "%1.15g" and falls back to "%1.17g": the same layout, shortest digits */
    int style = r.n <= 15 ? 15 : 17;
    int X = r.x - 1;
    if (v < 0)
        put(&o, '-');
    if (X < -4 || X >= style) {
        put(&o, r.d[0]);
        if (r.n > 1) {
            put(&o, '.');
            puts_n(&o, r.d + 1, (size_t)r.n - 1);
        }
        put_exponent(&o, X, false);
    } else if (X < 0) {
        put(&o, '0');
        put(&o, '.');
        put_rep(&o, '0', -X - 1);
        puts_n(&o, r.d, (size_t)r.n);
    } else {
        for (int i = 0; i <= X; ++i)
            put(&o, dig(&r, i));
        if (r.n > X + 1) {
            put(&o, '.');
            puts_n(&o, r.d + X + 1, (size_t)(r.n - X - 1));
        }
    }
    terminate(&o);
    return o.len;
}

/* ---- printf ------------------------------------------------------------------------------- */

/* One conversion specification after its '%': flags, width, precision, length and conversion. */
typedef struct conv_spec {
    char flags[8];
    size_t nf;
    int64_t width;     /* -1: not given; 2^31 for a `*` width of INT_MIN */
    int prec;          /* -1: not given */
    char len[3];
    char conv;         /* '\0': the format ended inside the specification */
} conv_spec;

/* Reads the specification at *pp (just after the '%'), taking `*` widths and precisions from ap;
 * *pp ends after the conversion character. */
static void parse_spec(const char **pp, const char *spec, va_list *ap, conv_spec *c) {
    const char *p = *pp;
    memset(c, 0, sizeof *c);
    while (*p && strchr("-+ #0'", *p)) {
        if (c->nf < sizeof c->flags - 1)
            c->flags[c->nf++] = *p;
        p++;
    }
    c->flags[c->nf] = '\0';
    c->width = -1;
    c->prec = -1;
    if (*p == '*') {
        c->width = va_arg(*ap, int);
        if (c->width < 0) { /* a left-justified field: '-' and the width's magnitude */
            c->width = -c->width;
            if (c->nf < sizeof c->flags - 1)
                c->flags[c->nf++] = '-', c->flags[c->nf] = '\0';
        }
        p++;
    } else {
        for (c->width = 0; is_digit(*p); ++p)
            c->width = c->width < 100000 ? c->width * 10 + (*p - '0') : c->width;
        if (p == spec + 1 + c->nf)
            c->width = -1;
    }
    if (*p == '.') {
        p++;
        if (*p == '*') {
            c->prec = va_arg(*ap, int);
            if (c->prec < 0) /* as if not given */
                c->prec = -1;
            p++;
        } else {
            for (c->prec = 0; is_digit(*p); ++p)
                c->prec = c->prec < 100000 ? c->prec * 10 + (*p - '0') : c->prec;
        }
    }
    if (*p == 'h' || *p == 'l') {
        c->len[0] = *p++;
        if (*p == c->len[0])
            c->len[1] = *p++;
    } else if (*p == 'j' || *p == 'z' || *p == 't' || *p == 'L') {
        c->len[0] = *p++;
    }
    c->conv = *p;
    if (*p)
        p++;
    *pp = p;
}

/* Any conversion but the floating ones: libc, one conversion at a time (width and precision
 * already read, passed as `*`). %n and unknown conversions are printed as written (spec..end).
 * A width past INT_MAX (from a `*` of INT_MIN, left-justified) is not libc's: its spaces are
 * put here after the conversion. libc's -1 (an output past INT_MAX) makes the result -1. */
static void libc_one(out *o, const conv_spec *c, va_list *ap, const char *spec, const char *end) {
    char one[32];
    size_t k = 0;
    int64_t wide = c->width > INT_MAX ? c->width : 0;
    int width = wide ? -1 : (int)c->width, prec = c->prec;
    const char *len = c->len;
    one[k++] = '%';
    for (size_t i = 0; i < c->nf; ++i)
        if (c->flags[i] != '\'')
            one[k++] = c->flags[i];
    if (width >= 0)
        one[k++] = '*';
    if (prec >= 0) {
        one[k++] = '.';
        one[k++] = '*';
    }
    for (int i = 0; len[i]; ++i)
        one[k++] = len[i];
    one[k++] = c->conv;
    one[k] = '\0';
    char *dst = o->len < o->size ? o->buf + o->len : NULL;
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int w = width < 0 ? 0 : width, pr = prec < 0 ? 0 : prec;
    int n = 0;
#define SINEW_ONE(T)                                                                                                   \
    do {                                                                                                               \
        T arg_ = va_arg(*ap, T);                                                                                       \
        if (width >= 0 && prec >= 0)                                                                                   \
            n = snprintf(dst, room, one, w, pr, arg_);                                                                 \
        else if (width >= 0)                                                                                           \
            n = snprintf(dst, room, one, w, arg_);                                                                     \
        else if (prec >= 0)                                                                                            \
            n = snprintf(dst, room, one, pr, arg_);                                                                    \
        else                                                                                                           \
            n = snprintf(dst, room, one, arg_);                                                                        \
    } while (0)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    switch (c->conv) {
    case 'd':
    case 'i':
        if (len[0] == 'l' && len[1] == 'l')
            SINEW_ONE(long long);
        else if (len[0] == 'l')
            SINEW_ONE(long);
        else if (len[0] == 'j')
            SINEW_ONE(intmax_t);
        else if (len[0] == 'z' || len[0] == 't')
            SINEW_ONE(ptrdiff_t);
        else
            SINEW_ONE(int);
        break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        if (len[0] == 'l' && len[1] == 'l')
            SINEW_ONE(unsigned long long);
        else if (len[0] == 'l')
            SINEW_ONE(unsigned long);
        else if (len[0] == 'j')
            SINEW_ONE(uintmax_t);
        else if (len[0] == 'z' || len[0] == 't')
            SINEW_ONE(size_t);
        else
            SINEW_ONE(unsigned);
        break;
    case 'c':
        SINEW_ONE(int);
        break;
    case 's':
        SINEW_ONE(const char *);
        break;
    case 'p':
        SINEW_ONE(void *);
        break;
    default: /* %n and unknown conversions: not used by sinew; printed as written */
        puts_n(o, spec, (size_t)(end - spec));
        return;
    }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#undef SINEW_ONE
    if (n < 0) {
        o->len = OUT_MAX;
        return;
    }
    advance(o, (size_t)n);
    put_rep(o, ' ', wide - n);
}

int sinew__vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
    out o = {buf, size, 0};
    const char *p = fmt;
    va_list args;
    va_copy(args, ap);
    while (*p) {
        if (*p != '%') {
            put(&o, *p++);
            continue;
        }
        const char *spec = p++;
        conv_spec c;
        parse_spec(&p, spec, &args, &c);
        if (!c.conv)
            break;
        if (c.conv == '%') {
            put(&o, '%');
            continue;
        }
        if (strchr("fFeEgGaA", c.conv)) {
            double v = c.len[0] == 'L' ? (double)va_arg(args, long double) : va_arg(args, double);
            fmt_float(&o, v, c.conv, c.flags, c.width, c.prec);
            continue;
        }
        libc_one(&o, &c, &args, spec, p);
    }
    va_end(args);
    terminate(&o);
    return o.len > INT_MAX ? -1 : (int)o.len;
}

int sinew__snprintf(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = sinew__vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int sinew__vfprintf(FILE *f, const char *fmt, va_list ap) {
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = sinew__vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(again);
        return n;
    }
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) {
            va_end(again);
            return -1;
        }
        sinew__vsnprintf(text, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    size_t w = fwrite(text, 1, (size_t)n, f);
    if (text != small)
        free(text);
    return w == (size_t)n ? n : -1;
}

int sinew__fprintf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = sinew__vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}
