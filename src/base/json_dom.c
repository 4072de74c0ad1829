/* sinew's JSON reader (json_dom.h): one pass over the text, an explicit stack instead of
 * recursion, nodes bumped out of large chunks, strings decoded into one block. */
#include "base/json_dom.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/num.h"

struct sinew_jdom_chunk {
    sinew_jdom_chunk *next;
    size_t bytes;                 /* the whole block, for the allocator's free */
    cJSON nodes[];
};

/* ---- memory -------------------------------------------------------------------------------- */

static void *dom_alloc(sinew_jdom *dom, size_t bytes, sinew_jdom_status *st) {
    if (dom->limit && (bytes > dom->limit || dom->bytes > dom->limit - bytes)) {
        *st = SINEW_JDOM_LIMIT;
        return NULL;
    }
    void *p = sinew__alloc(dom->allocator, bytes);
    if (!p) {
        *st = SINEW_JDOM_NOMEM;
        return NULL;
    }
    dom->bytes += bytes;
    return p;
}

void sinew__jdom_free(sinew_jdom *dom) {
    if (!dom)
        return;
    const sinew_allocator *a = sinew__allocator_or_default(dom->allocator);
    for (sinew_jdom_chunk *c = dom->chunks, *next; c; c = next) {
        next = c->next;
        sinew__free(a, c, c->bytes);
    }
    dom->chunks = NULL;
    if (dom->strings)
        sinew__free(a, dom->strings, dom->strings_size);
    dom->strings = NULL;
    dom->strings_size = 0;
    dom->bytes = 0;
}

typedef struct parser {
    sinew_jdom *dom;
    cJSON *node, *node_end;       /* free nodes of the newest chunk */
    size_t next_count;            /* nodes in the next chunk */
    char *out;                    /* where the next decoded string goes */
    const unsigned char *end;     /* end of the text */
    const unsigned char *err;     /* where parsing stopped (on failure) */
    sinew_jdom_status st;
} parser;

/* A new chunk of nodes: twice the last one, or what is left under the limit. */
static bool grow(parser *p) {
    size_t count = p->next_count;
    for (;;) {
        size_t bytes;
        if (sinew__mul_size(count, sizeof(cJSON), &bytes) && sinew__add_size(bytes, sizeof(sinew_jdom_chunk), &bytes)) {
            sinew_jdom_status st = SINEW_JDOM_OK;
            sinew_jdom_chunk *c = dom_alloc(p->dom, bytes, &st);
            if (c) {
                c->next = p->dom->chunks;
                c->bytes = bytes;
                p->dom->chunks = c;
                p->node = c->nodes;
                p->node_end = c->nodes + count;
                p->next_count = count <= SIZE_MAX / 2 ? count * 2 : count;
                return true;
            }
            if (st != SINEW_JDOM_LIMIT || count == 1) {
                p->st = st;
                return false;
            }
        }
        /* over the limit: the most nodes that still fit (at least one, which may fail again) */
        size_t left = p->dom->limit > p->dom->bytes + sizeof(sinew_jdom_chunk)
                          ? (p->dom->limit - p->dom->bytes - sizeof(sinew_jdom_chunk)) / sizeof(cJSON)
                          : 0;
        count = left && left < count ? left : 1;
    }
}

static inline cJSON *new_node(parser *p) {
    if (p->node == p->node_end && !grow(p))
        return NULL;
    cJSON *n = p->node++;
    n->next = NULL;
    n->prev = NULL;
    n->child = NULL;
    n->valuestring = NULL;
    n->valueint = 0;
    n->valuedouble = 0.0;
    n->string = NULL;
    return n;
}

/* ---- byte classes ---------------------------------------------------------------------------- */

/* 1: an ASCII byte a string holds as is (not a control character, quote or backslash) */
static const unsigned char plain_byte[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
    R16(0), R16(0),                                                  /* 0x00-0x1f */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,                   /* 0x20-0x2f: '"' */
    R16(1), R16(1),                                                  /* 0x30-0x4f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,                   /* 0x50-0x5f: '\\' */
    R16(1), R16(1),                                                  /* 0x60-0x7f */
    R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0)  /* 0x80-0xff */
#undef R16
};

static inline bool is_ws(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
static inline bool is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }

static inline const unsigned char *skip_ws(const unsigned char *s, const unsigned char *e) {
    /* minified files have none: one test for the usual case */
    if (s < e && *s > ' ')
        return s;
    while (s < e && is_ws(*s))
        s++;
    return s;
}

/* Length of the valid UTF-8 sequence at s[0..n) (s[0] >= 0x80), 0 if invalid: the same rule as
 * the pre-scan of json_locate.c (no overlongs, surrogates or code points above U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))
            return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
            return 0;
        return 4;
    }
    return 0;
}

/* ---- strings --------------------------------------------------------------------------------- */

static int hex_value(unsigned char c) {
    if (is_digit(c))
        return c - '0';
    c = (unsigned char)(c | 0x20);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The 4 hex digits after "\u" at s (s points at the backslash). */
static bool read_u16(parser *p, const unsigned char *s, uint32_t *out) {
    uint32_t v = 0;
    for (int k = 2; k < 6; ++k) {
        if (s + k >= p->end) {
            p->err = p->end;
            return false;
        }
        int h = hex_value(s[k]);
        if (h < 0) {
            p->err = s + k;
            return false;
        }
        v = v << 4 | (uint32_t)h;
    }
    *out = v;
    return true;
}

/* A string starting at *ps (the opening quote), decoded into p->out. NULL on error (p->err). */
static const char *parse_string(parser *p, const unsigned char **ps) {
    const unsigned char *s = *ps + 1, *e = p->end;
    char *start = p->out, *o = start;
    for (;;) {
        while (s < e && plain_byte[*s])
            *o++ = (char)*s++;
        if (s >= e) {
            p->err = e;
            return NULL;
        }
        unsigned char c = *s;
        if (c == '"') {
            s++;
            break;
        }
        if (c >= 0x80) {
            size_t n = utf8_len(s, (size_t)(e - s));
            if (!n) {
                p->err = s;
                return NULL;
            }
            memcpy(o, s, n);
            o += n;
            s += n;
            continue;
        }
        if (c != '\\') { /* a raw control character */
            p->err = s;
            return NULL;
        }
        if (s + 1 >= e) {
            p->err = e;
            return NULL;
        }
        switch (s[1]) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            uint32_t cp;
            if (!read_u16(p, s, &cp))
                return NULL;
            if (cp >= 0xDC00 && cp <= 0xDFFF) { /* a low surrogate first */
                p->err = s;
                return NULL;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate: its low half must follow */
                const unsigned char *lo = s + 6;
                uint32_t low;
                if (lo >= e || (lo[0] == '\\' && lo + 1 >= e)) {
                    p->err = e;
                    return NULL;
                }
                if (lo[0] != '\\' || lo[1] != 'u') {
                    p->err = lo;
                    return NULL;
                }
                if (!read_u16(p, lo, &low))
                    return NULL;
                if (low < 0xDC00 || low > 0xDFFF) {
                    p->err = lo;
                    return NULL;
                }
                cp = 0x10000u + ((cp - 0xD800u) << 10) + (low - 0xDC00u);
                s += 6;
            }
            if (cp < 0x80) {
                *o++ = (char)cp;
            } else if (cp < 0x800) {
                *o++ = (char)(0xC0 | (cp >> 6));
                *o++ = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                *o++ = (char)(0xE0 | (cp >> 12));
                *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *o++ = (char)(0x80 | (cp & 0x3F));
            } else {
                *o++ = (char)(0xF0 | (cp >> 18));
                *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *o++ = (char)(0x80 | (cp & 0x3F));
            }
            s += 4; /* the 4 hex digits; the 2 of "\u" below */
            break;
        }
        default:
            p->err = s + 1;
            return NULL;
        }
        s += 2;
    }
    *o++ = '\0';
    p->out = o;
    *ps = s;
    return start;
}

/* ---- numbers --------------------------------------------------------------------------------- */

/* Exact powers of ten: every 10^k with k <= 22 is a double without rounding. */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if defined(__GNUC__)
#define JDOM_INLINE __attribute__((always_inline)) inline
#else
#define JDOM_INLINE inline
#endif

/* The digits d[0..n) (n <= 19) as an integer. */
static inline uint64_t digits_value(const unsigned char *d, size_t n, uint64_t w) {
    for (size_t i = 0; i < n; ++i)
        w = w * 10 + (uint64_t)(d[i] - '0');
    return w;
}

/* Scans the number at s (its first byte is '-' or a digit) by the JSON grammar and converts it.
 * Returns the end of the number, or NULL with p->err at the first byte that breaks the grammar. */
static JDOM_INLINE const unsigned char *parse_number(parser *p, const unsigned char *s, double *out) {
    const unsigned char *start = s, *e = p->end;
    bool neg = *s == '-';
    if (neg && ++s >= e) {
        p->err = e;
        return NULL;
    }
    const unsigned char *int_start = s;
    if (*s == '0') {
        s++;
    } else if (is_digit(*s)) {
        do
            s++;
        while (s < e && is_digit(*s));
    } else {
        p->err = s;
        return NULL;
    }
    const unsigned char *int_end = s, *frac_start = s, *frac_end = s;
    if (s < e && *s == '.') {
        if (++s >= e) {
            p->err = e;
            return NULL;
        }
        if (!is_digit(*s)) {
            p->err = s;
            return NULL;
        }
        frac_start = s;
        do
            s++;
        while (s < e && is_digit(*s));
        frac_end = s;
    }
    int64_t e10 = 0;
    if (s < e && (*s | 0x20) == 'e') {
        bool eneg = false;
        if (++s >= e) {
            p->err = e;
            return NULL;
        }
        if (*s == '+' || *s == '-') {
            eneg = *s == '-';
            if (++s >= e) {
                p->err = e;
                return NULL;
            }
        }
        if (!is_digit(*s)) {
            p->err = s;
            return NULL;
        }
        for (; s < e && is_digit(*s); ++s)
            if (e10 < 100000000)
                e10 = e10 * 10 + (*s - '0');
        if (eneg)
            e10 = -e10;
    }
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && FLT_RADIX == 2 && DBL_MANT_DIG == 53
    /* Clinger's fast path: with at most 19 digits the value is w * 10^e10 exactly; when w and
       10^|e10| are exact doubles, one correctly rounded multiply or divide gives the correctly
       rounded value, which is what strtod returns. */
    size_t nint = (size_t)(int_end - int_start), nfrac = (size_t)(frac_end - frac_start);
    if (nint + nfrac <= 19) {
        uint64_t w = digits_value(frac_start, nfrac, digits_value(int_start, nint, 0));
        int64_t x = e10 - (int64_t)nfrac;
        if (w <= (UINT64_C(1) << 53) && x >= -22 && x <= 22) {
            double d = (double)w;
            d = x < 0 ? d / pow10_exact[-x] : d * pow10_exact[x];
            *out = neg ? -d : d;
            return s;
        }
    }
#endif
    /* everything else: exactly, without strtod (which follows the locale: base/num.h) */
    *out = sinew__num_decimal(neg, (const char *)int_start, (size_t)(int_end - int_start), (const char *)frac_start,
                              (size_t)(frac_end - frac_start), e10);
    (void)start;
    return s;
}

double sinew__jdom_number(const char *s, size_t n) {
    parser p;
    memset(&p, 0, sizeof p);
    p.end = (const unsigned char *)s + n;
    double d = NAN;
    if (n == 0 || !parse_number(&p, (const unsigned char *)s, &d))
        return NAN;
    return d;
}

/* ---- the document ------------------------------------------------------------------------------ */

typedef struct level {
    cJSON *node;                  /* the array or object */
    cJSON *last;                  /* its last member so far */
    size_t count;                 /* its members so far */
} level;

/* Links `node` as the last member of L (with the pending member name, used once: NULL in an array). */
static inline void append_member(level *L, cJSON *node, const char **key) {
    if (L->last) {
        L->last->next = node;
        node->prev = L->last;
    } else {
        L->node->child = node;
    }
    L->last = node;
    L->count++;
    node->string = (char *)*key;
    *key = NULL;
}

/* Doubles the stack of open containers (the first `small` one lives on the caller's stack);
 * false when memory runs out. */
static bool grow_stack(sinew_jdom *dom, level *small, level **stack, size_t *cap) {
    size_t ncap = *cap * 2, bytes;
    if (!sinew__mul_size(ncap, sizeof(level), &bytes))
        return false;
    level *ns = sinew__alloc(dom->allocator, bytes);
    if (!ns)
        return false;
    memcpy(ns, *stack, *cap * sizeof(level));
    if (*stack != small)
        sinew__free(dom->allocator, *stack, *cap * sizeof(level));
    *stack = ns;
    *cap = ncap;
    return true;
}

/* The literals true, false and null: the word, its node type and valueint as cJSON sets them. */
typedef struct literal {
    const char *word;
    size_t len;
    int type, valueint;
} literal;

/* The literal starting with byte c ('t', 'f' or 'n'). */
static inline const literal *literal_of(unsigned char c) {
    static const literal lits[3] = {{"true", 4, cJSON_True, 1}, {"false", 5, cJSON_False, 0}, {"null", 4, cJSON_NULL, 0}};
    return &lits[c == 't' ? 0 : c == 'f' ? 1 : 2];
}

/* A number node: the double, and valueint as cJSON sets it. */
static inline void set_number(cJSON *node, double d) {
    node->type = cJSON_Number;
    node->valuedouble = d;
    if (d >= INT_MAX)
        node->valueint = INT_MAX;
    else if (d <= (double)INT_MIN)
        node->valueint = INT_MIN;
    else
        node->valueint = (int)d;
}

/* A string, literal or number value at *ps into node; *ps moves past it. false: p->err is set. */
static bool parse_scalar(parser *p, const unsigned char **ps, cJSON *node) {
    const unsigned char *s = *ps, *e = p->end;
    if (*s == '"') {
        const char *str = parse_string(p, ps);
        if (!str)
            return false;
        node->type = cJSON_String;
        node->valuestring = (char *)str;
        return true;
    }
    if (*s == 't' || *s == 'f' || *s == 'n') {
        const literal *lit = literal_of(*s);
        size_t n = (size_t)(e - s);
        if (n < lit->len || memcmp(s, lit->word, lit->len) != 0) {
            /* a cut-off literal ("tr" at the end) is an early end; anything else is wrong where it starts */
            p->err = n < lit->len && memcmp(s, lit->word, n) == 0 ? e : s;
            return false;
        }
        node->type = lit->type;
        node->valueint = lit->valueint;
        *ps = s + lit->len;
        return true;
    }
    if (*s != '-' && !is_digit(*s)) {
        p->err = s;
        return false;
    }
    double d;
    const unsigned char *ne = parse_number(p, s, &d);
    if (!ne)
        return false;
    *ps = ne;
    set_number(node, d);
    return true;
}

/* A member's name and its ':' at *ps (whitespace before it skipped); *ps moves past the ':'.
   NULL: p->err is set. */
static const char *parse_key(parser *p, const unsigned char **ps) {
    const unsigned char *e = p->end;
    if (*ps >= e || **ps != '"') {
        p->err = *ps >= e ? e : *ps;
        return NULL;
    }
    const char *key = parse_string(p, ps);
    if (!key)
        return NULL;
    const unsigned char *s = skip_ws(*ps, e);
    if (s >= e || *s != ':') {
        p->err = s >= e ? e : s;
        return NULL;
    }
    *ps = s + 1;
    return key;
}

sinew_jdom_status sinew__jdom_parse(sinew_jdom *dom, const char *text, size_t len, uint32_t max_depth,
                                    cJSON **root, size_t *end) {
    parser p;
    memset(&p, 0, sizeof p);
    p.dom = dom;
    p.end = (const unsigned char *)text + len;
    /* about one node per 6 bytes of a typical rig (numbers and short keys), at most 64 MB of
       nodes at first (a huge input does not take its whole budget up front); doubled as needed */
    p.next_count = len / 6 + 16;
    if (p.next_count > ((size_t)1 << 20))
        p.next_count = (size_t)1 << 20;
    *root = NULL;
    *end = 0;
    const unsigned char *t = (const unsigned char *)text, *s = t, *e = p.end;
    sinew_jdom_status st = SINEW_JDOM_OK;
    /* every decoded string with its terminator fits in the text's length (the quotes pay for
       the terminator; escapes only shrink) */
    if (len > 0 && !dom->strings) {
        dom->strings = dom_alloc(dom, len + 1, &st);
        if (!dom->strings) {
            *end = 0;
            return st;
        }
        dom->strings_size = len + 1;
    }
    p.out = dom->strings;

    level small[64];
    level *stack = small;
    size_t cap = sizeof small / sizeof small[0], depth = 0;
    const char *key = NULL;       /* the member name for the next value */
    cJSON *top = NULL, *node;

value:
    s = skip_ws(s, e);
    if (s >= e) {
        p.err = e;
        goto fail;
    }
    node = new_node(&p);
    if (!node) {
        p.err = s;
        goto fail;
    }
    if (depth)
        append_member(&stack[depth - 1], node, &key);
    else
        top = node;
    switch (*s) {
    case '{':
    case '[': {
        bool obj = *s == '{';
        node->type = obj ? cJSON_Object : cJSON_Array;
        if (depth >= max_depth) {
            p.st = SINEW_JDOM_TOO_DEEP;
            p.err = s;
            goto fail;
        }
        if (depth == cap && !grow_stack(dom, small, &stack, &cap)) {
            p.st = SINEW_JDOM_NOMEM;
            p.err = s;
            goto fail;
        }
        stack[depth].node = node;
        stack[depth].last = NULL;
        stack[depth].count = 0;
        depth++;
        s = skip_ws(s + 1, e);
        if (s < e && *s == (obj ? '}' : ']')) {
            s++;
            depth--;
            goto after;
        }
        if (obj)
            goto member;
        goto value;
    }
    default:
        if (!parse_scalar(&p, &s, node))
            goto fail;
        goto after;
    }

member:
    key = parse_key(&p, &s);
    if (!key)
        goto fail;
    goto value;

after:
    /* a value ended at s; close the containers it ends */
    while (depth) {
        level *L = &stack[depth - 1];
        s = skip_ws(s, e);
        if (s >= e) {
            p.err = e;
            goto fail;
        }
        bool obj = (L->node->type & 0xFF) == cJSON_Object;
        if (*s == ',') {
            s = skip_ws(s + 1, e);
            if (obj)
                goto member;
            goto value;
        }
        if (*s != (obj ? '}' : ']')) {
            p.err = s;
            goto fail;
        }
        s++;
        /* cJSON's convention: the first member's prev is the last member */
        L->node->child->prev = L->last;
        L->node->valueint = L->count < INT_MAX ? (int)L->count : INT_MAX;
        depth--;
    }
    /* the empty container case lands here too (its depth-- was done before the jump) */
    if (stack != small)
        sinew__free(dom->allocator, stack, cap * sizeof(level));
    *root = top;
    *end = (size_t)(s - t);
    return SINEW_JDOM_OK;

fail:
    if (stack != small)
        sinew__free(dom->allocator, stack, cap * sizeof(level));
    *end = (size_t)((p.err ? p.err : s) - t);
    return p.st != SINEW_JDOM_OK ? p.st : SINEW_JDOM_SYNTAX;
}

cJSON *sinew__jdom_parse_heap(const char *text, size_t len, uint32_t max_depth, size_t *error_offset) {
    sinew_jdom dom;
    memset(&dom, 0, sizeof dom);
    cJSON *root = NULL, *copy = NULL;
    size_t end = 0;
    if (sinew__jdom_parse(&dom, text, len, max_depth, &root, &end) == SINEW_JDOM_OK) {
        while (end < len && (text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r'))
            end++;
        if (end == len) {
            /* cJSON_Duplicate copies the fields (no number text): the numbers stay exact; its
               recursion is as deep as max_depth */
            copy = cJSON_Duplicate(root, true);
        }
    }
    sinew__jdom_free(&dom);
    if (error_offset)
        *error_offset = end;
    return copy;
}
