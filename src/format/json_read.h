/* Shared plumbing for sinew's JSON readers (DragonBones skeletons and atlases): reading the input,
 * the parse (base/json_dom.c: cJSON-shaped nodes in one arena) with precise parse-error positions, a path stack for error locations, known-key
 * tables (unknown keys become warnings), and typed field getters that check types and finiteness.
 * Every error is located lazily (path -> byte offset -> line:column) only when it happens. */
#ifndef SINEW_FORMAT_JSON_READ_H
#define SINEW_FORMAT_JSON_READ_H

#include <cjson/cJSON.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/json_dom.h"
#include "format/json_locate.h"
#include "sinew/data.h"

#define SINEW_JSON_MAX_PATH 32

/* Returns the status of x from the calling function when it is not SINEW_OK (the readers' steps). */
#define TRY(x)                          \
    do {                                \
        sinew_status st_ = (x);         \
        if (st_ != SINEW_OK)            \
            return st_;                 \
    } while (0)

typedef struct sinew_jctx {
    const char *text;          /* the whole input (for locating errors) */
    size_t len;
    const char *file;          /* for messages; may be NULL */
    sinew_error err;           /* internal error (first error wins) */
    sinew_log_fn log;
    void *log_user;
    sinew_load_limits limits;
    const sinew_allocator *allocator;
    sinew_json_seg path[SINEW_JSON_MAX_PATH];
    uint32_t depth;            /* number of segments in use */
    uint32_t hidden;           /* pushes beyond SINEW_JSON_MAX_PATH (not recorded) */
    uint32_t warning_count;
    sinew_jdom dom;            /* the parsed document's memory (sinew__json_parse) */
} sinew_jctx;

void sinew__jctx_init(sinew_jctx *c, const char *text, size_t len, const char *file,
                      const sinew_load_options *opts);

static inline void sinew__jpush_key(sinew_jctx *c, const char *key) {
    if (c->depth < SINEW_JSON_MAX_PATH) {
        c->path[c->depth].key = key;
        c->path[c->depth].index = 0;
        c->depth++;
    } else {
        c->hidden++;
    }
}
static inline void sinew__jpush_index(sinew_jctx *c, uint32_t index) {
    if (c->depth < SINEW_JSON_MAX_PATH) {
        c->path[c->depth].key = NULL;
        c->path[c->depth].index = index;
        c->depth++;
    } else {
        c->hidden++;
    }
}
static inline void sinew__jpop(sinew_jctx *c) {
    if (c->hidden)
        c->hidden--;
    else if (c->depth)
        c->depth--;
}

/* Records an error at the current path (located in the text). Returns `code`. */
sinew_status sinew__jfail(sinew_jctx *c, sinew_status code, const char *fmt, ...) SINEW_PRINTF(3, 4);
/* The same at the current path + `key`. */
sinew_status sinew__jfail_key(sinew_jctx *c, const char *key, sinew_status code, const char *fmt, ...)
    SINEW_PRINTF(4, 5);
/* Records an error at a byte offset (parse errors, pre-scan errors). */
sinew_status sinew__jfail_offset(sinew_jctx *c, size_t offset, sinew_status code, const char *fmt, ...)
    SINEW_PRINTF(4, 5);
/* Sends a warning at the current path (+ `key` if not NULL) to the log callback, if any. */
void sinew__jwarn(sinew_jctx *c, const char *key, sinew_status code, const char *fmt, ...) SINEW_PRINTF(4, 5);

/* Reads a whole file with the context's allocator, honouring max_input_bytes.
 * *out must be freed with sinew__free(c->allocator, *out, *out_len + 1). NUL-terminated. */
sinew_status sinew__read_file(sinew_jctx *c, const char *path, char **out, size_t *out_len);

/* Parses c->text (after a UTF-8 BOM) into a tree of cJSON-shaped nodes owned by c->dom; free it
 * with sinew__json_free, never cJSON_Delete. On error returns NULL with c->err set: invalid UTF-8
 * or nesting deeper than limits.max_depth anywhere in the text first (the pre-scan of
 * json_locate.c, run only when the parse fails), else the first byte that is not JSON. The tree
 * is held to limits.max_memory_bytes, like the model. */
cJSON *sinew__json_parse(sinew_jctx *c);
/* Frees the tree of sinew__json_parse (NULL is fine). */
void sinew__json_free(sinew_jctx *c, cJSON *root);

/*
 * Known keys of one object kind. sinew__jfields walks `obj`'s members once, storing the member
 * for keys[i] in out[i] (first occurrence wins); members not in the table produce an
 * "unknown key" warning when a log callback is set. Fails if `obj` is not an object.
 */
typedef struct sinew_jkeys {
    const char *const *keys;
    uint32_t count;
    const char *what;          /* "bone", "slot", ... for messages */
} sinew_jkeys;
#define SINEW_JKEYS(arr, what) {arr, (uint32_t)(sizeof(arr) / sizeof((arr)[0])), what}

sinew_status sinew__jfields(sinew_jctx *c, const cJSON *obj, const sinew_jkeys *table, const cJSON **out);

/* Typed getters: `v` is the member (may be NULL = absent -> default). `key` names it in errors.
 * Numbers: JSON null and the string "NaN" mean absent; must be finite and fit a float. */
sinew_status sinew__jnum(sinew_jctx *c, const cJSON *v, const char *key, double def, double *out);
sinew_status sinew__jfloat(sinew_jctx *c, const cJSON *v, const char *key, float def, float *out);
/* An integer in [lo, hi]. */
sinew_status sinew__jint(sinew_jctx *c, const cJSON *v, const char *key, double def, double lo, double hi,
                         int64_t *out);
/* true/false, or a number (non-zero = true). */
sinew_status sinew__jbool(sinew_jctx *c, const cJSON *v, const char *key, bool def, bool *out);
/* A string (numbers are not accepted). *out borrows the DOM. */
sinew_status sinew__jstr(sinew_jctx *c, const cJSON *v, const char *key, const char *def, const char **out);
/*
 * A number array held as floats instead of members: the DBBin reader puts a binary's mesh arrays
 * back into its header this way (format/dbbin_read.c). Its type is cJSON_Array |
 * SINEW_JSON_FLOATS (cJSON_IsArray is true) and it has no children; valueint is the count and
 * valuestring points at the floats, all finite. sinew__jarray hands the node itself out as
 * `first`, which sinew__jfloats and sinew__jdoubles take, and sinew__jfloats_at reads.
 */
#define SINEW_JSON_FLOATS 0x1000
static inline bool sinew__jis_floats(const cJSON *v) { return v && (v->type & SINEW_JSON_FLOATS) != 0; }
static inline const float *sinew__jfloats_at(const cJSON *v) { return (const float *)(const void *)v->valuestring; }

/* An array (absent -> *n = 0, *first = NULL). Checks max_array_length. */
sinew_status sinew__jarray(sinew_jctx *c, const cJSON *v, const char *key, const cJSON **first, uint32_t *n);
/* An array of numbers copied into `dst` (must hold n floats), each finite and within float range. */
sinew_status sinew__jfloats(sinew_jctx *c, const cJSON *first, const char *key, float *dst, uint32_t n);
/* The same in double precision (values the official runtime keeps as JS numbers), each finite and
 * within [-bound, bound]. */
sinew_status sinew__jdoubles(sinew_jctx *c, const cJSON *first, const char *key, double *dst, uint32_t n,
                             double bound);

#endif
