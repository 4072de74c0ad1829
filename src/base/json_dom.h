/* sinew's JSON reader: a strict RFC 8259 parser that builds the whole document in one pass into
 * nodes shaped like cJSON's (struct cJSON: type flags, child/next/prev links, valuestring,
 * valuedouble, valueint, string for member keys), all held in one arena from sinew's allocator.
 * The loaders walk these nodes with cJSON's read-only accessors (cJSON_IsNumber, ->child, ...);
 * they are freed with the arena, never with cJSON_Delete. The writer is base/json_print.c.
 *
 * Why (docs/performance.md "Load"): cJSON mallocs every node and parses every number with
 * strtod through a locale lookup; on a number-heavy rig that was two thirds of the load. And
 * cJSON's numbers follow the process locale (docs/architecture.md "Numbers and the locale").
 * Numbers here are bit-identical to strtod's in the "C" locale, in every locale (a correctly
 * rounded exact fast path for up to 19 significant digits and |exponent| <= 22, base/num.c
 * otherwise). */
#ifndef SINEW_BASE_JSON_DOM_H
#define SINEW_BASE_JSON_DOM_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

typedef struct sinew_jdom_chunk sinew_jdom_chunk;

/* The memory of one parsed document. Zero-initialise, set `allocator` (NULL = libc) and `limit`
 * (0 = none: the most bytes the tree may take), parse, then sinew__jdom_free. */
typedef struct sinew_jdom {
    const sinew_allocator *allocator;
    size_t limit;
    size_t bytes;                 /* taken from the allocator so far */
    sinew_jdom_chunk *chunks;     /* node chunks, newest first */
    char *strings;                /* every decoded string, back to back (len + 1 bytes) */
    size_t strings_size;
} sinew_jdom;

typedef enum sinew_jdom_status {
    SINEW_JDOM_OK = 0,
    SINEW_JDOM_SYNTAX,            /* not JSON (includes invalid UTF-8 inside a string) */
    SINEW_JDOM_TOO_DEEP,          /* arrays/objects nest deeper than max_depth */
    SINEW_JDOM_LIMIT,             /* the tree would take more than `limit` bytes */
    SINEW_JDOM_NOMEM              /* the allocator failed */
} sinew_jdom_status;

/*
 * Parses one JSON value starting at text[0] (leading whitespace allowed) out of text[0..len);
 * `text` needs no terminator. On success *root is the value and *end the offset just past it
 * (the caller checks what follows). On failure *root is NULL and *end is the offset of the first
 * byte that cannot continue a valid document (len when the input ends too early); whatever was
 * built stays in `dom` until sinew__jdom_free.
 * Whitespace is space, tab, LF and CR only. Strings must be valid UTF-8 (no overlongs,
 * surrogates or code points above U+10FFFF) without raw control characters; \u escapes must pair
 * surrogates. `\u0000` ends the C string early, as in cJSON.
 * Beyond cJSON's fields: an array or object holds its member count in `valueint` (cJSON leaves
 * 0 there and never reads it for them), so readers need not walk the list to count.
 */
sinew_jdom_status sinew__jdom_parse(sinew_jdom *dom, const char *text, size_t len, uint32_t max_depth,
                                    cJSON **root, size_t *end);

/* Frees every node and string of `dom` (safe on a zeroed or already freed dom). */
void sinew__jdom_free(sinew_jdom *dom);

/* The number at s[0..n) as strtod would read it in the "C" locale; NaN when s[0..n) does not
 * start with a JSON number. Exposed for the tests and the fuzzer. */
double sinew__jdom_number(const char *s, size_t n);

/* Parses text[0..len) (one JSON value, white space around it) into a tree of cJSON's own nodes,
 * which cJSON_Delete frees: for the writers that edit a tree. NULL when the text is not JSON or
 * memory runs out, with *error_offset (when not NULL) at the first byte that is not JSON. */
cJSON *sinew__jdom_parse_heap(const char *text, size_t len, uint32_t max_depth, size_t *error_offset);

#endif
