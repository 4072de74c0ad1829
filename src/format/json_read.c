#include "format/json_read.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/num.h"

/* cJSON's type tests, inline (the loaders call these for every value) */
static inline bool j_type(const cJSON *v, int type) { return v && (v->type & 0xFF) == type; }

void sinew_load_limits_resolve(const sinew_load_limits *in, sinew_load_limits *out) {
    sinew_load_limits z;
    memset(&z, 0, sizeof z);
    if (!in)
        in = &z;
    *out = *in;
    if (!out->max_input_bytes)
        out->max_input_bytes = (uint64_t)256 << 20;
    if (!out->max_memory_bytes)
        out->max_memory_bytes = (uint64_t)1 << 30;
    if (!out->max_depth)
        out->max_depth = 64;
    if (!out->max_array_length)
        out->max_array_length = 4000000;
    if (!out->max_armatures)
        out->max_armatures = 4096;
    if (!out->max_bones)
        out->max_bones = 65536;
    if (!out->max_slots)
        out->max_slots = 65536;
    if (!out->max_vertices)
        out->max_vertices = 1000000;
    if (!out->max_animation_frames)
        out->max_animation_frames = 1000000;
}

void sinew__jctx_init(sinew_jctx *c, const char *text, size_t len, const char *file,
                      const sinew_load_options *opts) {
    memset(c, 0, sizeof *c);
    c->text = text;
    c->len = len;
    c->file = file;
    c->allocator = sinew__allocator_or_default(opts ? opts->allocator : NULL);
    c->log = opts ? opts->log : NULL;
    c->log_user = opts ? opts->log_user : NULL;
    sinew_load_limits_resolve(opts ? &opts->limits : NULL, &c->limits);
}

/* Fills `e` with the location of the current path (+ optional key). */
static void locate_path(sinew_jctx *c, const char *key, sinew_error *e) {
    sinew_json_seg segs[SINEW_JSON_MAX_PATH + 1];
    size_t n = c->depth;
    memcpy(segs, c->path, n * sizeof segs[0]);
    if (key && c->hidden == 0) {
        segs[n].key = key;
        segs[n].index = 0;
        n++;
    }
    sinew__json_path_format(segs, n, e->path, sizeof e->path);
    e->file = c->file;
    if (c->text) {
        size_t off = 0;
        sinew__json_locate(c->text, c->len, segs, n, &off);
        e->offset = off;
        sinew__locate(c->text, c->len, off, &e->line, &e->column);
    }
}

static sinew_status vfail(sinew_jctx *c, const char *key, sinew_status code, const char *fmt, va_list ap) {
    if (c->err.code != SINEW_OK)
        return code;
    c->err.code = code;
    sinew__vformat(c->err.message, sizeof c->err.message, fmt, ap);
    locate_path(c, key, &c->err);
    return code;
}

sinew_status sinew__jfail(sinew_jctx *c, sinew_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(c, NULL, code, fmt, ap);
    va_end(ap);
    return code;
}

sinew_status sinew__jfail_key(sinew_jctx *c, const char *key, sinew_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(c, key, code, fmt, ap);
    va_end(ap);
    return code;
}

sinew_status sinew__jfail_offset(sinew_jctx *c, size_t offset, sinew_status code, const char *fmt, ...) {
    if (c->err.code != SINEW_OK)
        return code;
    va_list ap;
    va_start(ap, fmt);
    c->err.code = code;
    sinew__vformat(c->err.message, sizeof c->err.message, fmt, ap);
    va_end(ap);
    c->err.file = c->file;
    c->err.offset = offset;
    snprintf(c->err.path, sizeof c->err.path, "byte %zu", offset);
    if (c->text)
        sinew__locate(c->text, c->len, offset, &c->err.line, &c->err.column);
    return code;
}

void sinew__jwarn(sinew_jctx *c, const char *key, sinew_status code, const char *fmt, ...) {
    c->warning_count++;
    if (!c->log)
        return;
    sinew_error w;
    memset(&w, 0, sizeof w);
    w.code = code;
    va_list ap;
    va_start(ap, fmt);
    sinew__vformat(w.message, sizeof w.message, fmt, ap);
    va_end(ap);
    locate_path(c, key, &w);
    c->log(c->log_user, SINEW_LOG_WARNING, &w);
}

sinew_status sinew__read_file(sinew_jctx *c, const char *path, char **out, size_t *out_len) {
    return sinew__read_whole(path, c->allocator, c->limits.max_input_bytes, "limits.max_input_bytes", out, out_len,
                             &c->err);
}

/* A parse error at `pos` (c->text offsets): "unexpected end of input" when only whitespace
 * follows, else the text near it. */
static void syntax_error(sinew_jctx *c, size_t pos) {
    if (pos > c->len)
        pos = c->len;
    size_t rest = pos;
    while (rest < c->len && (c->text[rest] == ' ' || c->text[rest] == '\n' || c->text[rest] == '\r' ||
                             c->text[rest] == '\t'))
        rest++;
    if (rest >= c->len)
        pos = c->len;
    if (pos >= c->len) {
        sinew__jfail_offset(c, pos, SINEW_E_PARSE, "invalid JSON: unexpected end of input");
        return;
    }
    char near[16];
    size_t k = 0;
    while (k < sizeof near - 1 && pos + k < c->len && (unsigned char)c->text[pos + k] >= 0x20 &&
           (unsigned char)c->text[pos + k] < 0x7f)
        near[k] = c->text[pos + k], k++;
    near[k] = '\0';
    sinew__jfail_offset(c, pos, SINEW_E_PARSE, "invalid JSON near '%s'", near);
}

cJSON *sinew__json_parse(sinew_jctx *c) {
    size_t off = 0;
    if ((uint64_t)c->len > c->limits.max_input_bytes) {
        sinew__jfail_offset(c, 0, SINEW_E_LIMIT, "input is %zu bytes, more than the limit of %llu (limits.max_input_bytes)",
                            c->len, (unsigned long long)c->limits.max_input_bytes);
        return NULL;
    }
    size_t start = 0;
    if (c->len >= 3 && (unsigned char)c->text[0] == 0xEF && (unsigned char)c->text[1] == 0xBB &&
        (unsigned char)c->text[2] == 0xBF)
        start = 3;
    sinew__jdom_free(&c->dom);
    memset(&c->dom, 0, sizeof c->dom);
    c->dom.allocator = c->allocator;
    c->dom.limit = (size_t)(c->limits.max_memory_bytes < SIZE_MAX ? c->limits.max_memory_bytes : SIZE_MAX);
    cJSON *root = NULL;
    size_t end = 0;
    sinew_jdom_status st = sinew__jdom_parse(&c->dom, c->text + start, c->len - start, c->limits.max_depth, &root, &end);
    end += start;
    if (st != SINEW_JDOM_OK) {
        sinew__jdom_free(&c->dom);
        /* Invalid UTF-8 and too deep nesting are reported first wherever they are (the parser
           stops at the first problem of any kind): the pre-scan finds them. */
        switch (sinew__json_prescan(c->text, c->len, c->limits.max_depth, &off)) {
        case SINEW_JSON_SCAN_BAD_UTF8:
            sinew__jfail_offset(c, off, SINEW_E_PARSE, "invalid UTF-8");
            return NULL;
        case SINEW_JSON_SCAN_TOO_DEEP:
            sinew__jfail_offset(c, off, SINEW_E_LIMIT, "nesting deeper than %u (limits.max_depth)", c->limits.max_depth);
            return NULL;
        case SINEW_JSON_SCAN_OK:
            break;
        }
        switch (st) {
        case SINEW_JDOM_TOO_DEEP:
            sinew__jfail_offset(c, end, SINEW_E_LIMIT, "nesting deeper than %u (limits.max_depth)", c->limits.max_depth);
            break;
        case SINEW_JDOM_LIMIT:
            sinew__jfail_offset(c, end, SINEW_E_LIMIT, "the JSON tree needs more than %llu bytes (limits.max_memory_bytes)",
                                (unsigned long long)c->limits.max_memory_bytes);
            break;
        case SINEW_JDOM_NOMEM:
            sinew__jfail_offset(c, end, SINEW_E_NOMEM, "out of memory");
            break;
        default:
            syntax_error(c, end);
            break;
        }
        return NULL;
    }
    /* trailing garbage after the value (NUL padding is allowed) */
    size_t pos = end;
    while (pos < c->len && (c->text[pos] == ' ' || c->text[pos] == '\n' || c->text[pos] == '\r' ||
                            c->text[pos] == '\t' || c->text[pos] == '\0'))
        pos++;
    if (pos < c->len) {
        sinew__jdom_free(&c->dom);
        sinew__jfail_offset(c, pos, SINEW_E_PARSE, "invalid JSON: trailing characters after the document");
        return NULL;
    }
    return root;
}

void sinew__json_free(sinew_jctx *c, cJSON *root) {
    (void)root;
    sinew__jdom_free(&c->dom);
}

sinew_status sinew__jfields(sinew_jctx *c, const cJSON *obj, const sinew_jkeys *table, const cJSON **out) {
    memset(out, 0, table->count * sizeof out[0]);
    if (!j_type(obj, cJSON_Object))
        return sinew__jfail(c, SINEW_E_TYPE, "%s must be an object", table->what);
    for (const cJSON *m = obj->child; m; m = m->next) {
        const char *k = m->string;
        uint32_t i = 0;
        if (k) {
            for (; i < table->count; i++)
                if (k[0] == table->keys[i][0] && strcmp(k, table->keys[i]) == 0)
                    break;
        } else {
            i = table->count;
        }
        if (i < table->count) {
            if (!out[i])
                out[i] = m;
        } else if (c->log) {
            sinew__jwarn(c, k ? k : "", SINEW_OK, "unknown key '%s' in %s (ignored)", k ? k : "", table->what);
        }
    }
    return SINEW_OK;
}

/* A number, or a string holding nothing but a number: real exports write some numbers as strings
 * ("-28.50"), and the official runtime coerces them. Returns false for anything else. */
static inline bool number_value(const cJSON *v, double *out) {
    if (j_type(v, cJSON_Number)) {
        *out = v->valuedouble;
        return true;
    }
    if (!j_type(v, cJSON_String) || !v->valuestring[0])
        return false;
    char *end;
    double d = sinew__strtod(v->valuestring, &end);
    while (*end == ' ')
        end++;
    if (*end != '\0' || end == v->valuestring || v->valuestring[0] == ' ')
        return false;
    *out = d;
    return true;
}

sinew_status sinew__jnum(sinew_jctx *c, const cJSON *v, const char *key, double def, double *out) {
    if (!v || j_type(v, cJSON_NULL) || (j_type(v, cJSON_String) && strcmp(v->valuestring, "NaN") == 0)) {
        *out = def;
        return SINEW_OK;
    }
    double d;
    if (!number_value(v, &d))
        return sinew__jfail_key(c, key, SINEW_E_TYPE, "'%s' must be a number", key);
    if (!isfinite(d))
        return sinew__jfail_key(c, key, SINEW_E_RANGE, "'%s' is not a finite number", key);
    *out = d;
    return SINEW_OK;
}

sinew_status sinew__jfloat(sinew_jctx *c, const cJSON *v, const char *key, float def, float *out) {
    double d;
    sinew_status st = sinew__jnum(c, v, key, (double)def, &d);
    if (st)
        return st;
    if (d > (double)FLT_MAX || d < -(double)FLT_MAX)
        return sinew__jfail_key(c, key, SINEW_E_RANGE, "'%s' is out of range (%g)", key, d);
    *out = (float)d;
    return SINEW_OK;
}

sinew_status sinew__jint(sinew_jctx *c, const cJSON *v, const char *key, double def, double lo, double hi,
                         int64_t *out) {
    double d;
    sinew_status st = sinew__jnum(c, v, key, def, &d);
    if (st)
        return st;
    if (d != floor(d))
        return sinew__jfail_key(c, key, SINEW_E_TYPE, "'%s' must be an integer (got %g)", key, d);
    if (d < lo || d > hi)
        return sinew__jfail_key(c, key, SINEW_E_RANGE, "'%s' = %g is out of range [%g, %g]", key, d, lo, hi);
    *out = (int64_t)d;
    return SINEW_OK;
}

sinew_status sinew__jbool(sinew_jctx *c, const cJSON *v, const char *key, bool def, bool *out) {
    if (!v || j_type(v, cJSON_NULL)) {
        *out = def;
        return SINEW_OK;
    }
    if (j_type(v, cJSON_True) || j_type(v, cJSON_False)) {
        *out = j_type(v, cJSON_True);
        return SINEW_OK;
    }
    if (j_type(v, cJSON_Number) && isfinite(v->valuedouble)) {
        *out = v->valuedouble != 0.0;
        return SINEW_OK;
    }
    if (j_type(v, cJSON_String)) { /* exporters write "true"/"false" too; read them as the runtime does */
        static const char *const falsy[] = {"0", "NaN", "", "false", "null", "undefined"};
        *out = true;
        for (unsigned i = 0; i < sizeof falsy / sizeof falsy[0]; i++)
            if (strcmp(v->valuestring, falsy[i]) == 0)
                *out = false;
        return SINEW_OK;
    }
    return sinew__jfail_key(c, key, SINEW_E_TYPE, "'%s' must be true or false", key);
}

sinew_status sinew__jstr(sinew_jctx *c, const cJSON *v, const char *key, const char *def, const char **out) {
    if (!v || j_type(v, cJSON_NULL)) {
        *out = def;
        return SINEW_OK;
    }
    if (!j_type(v, cJSON_String))
        return sinew__jfail_key(c, key, SINEW_E_TYPE, "'%s' must be a string", key);
    *out = v->valuestring;
    return SINEW_OK;
}

sinew_status sinew__jarray(sinew_jctx *c, const cJSON *v, const char *key, const cJSON **first, uint32_t *n) {
    *first = NULL;
    *n = 0;
    if (!v || j_type(v, cJSON_NULL))
        return SINEW_OK;
    if (!j_type(v, cJSON_Array))
        return sinew__jfail_key(c, key, SINEW_E_TYPE, "'%s' must be an array", key);
    /* json_dom.c counted the members into valueint (so did the DBBin reader for its floats); a
       tree from elsewhere is counted here */
    uint32_t count = v->valueint > 0 ? (uint32_t)v->valueint : 0;
    if (count == 0 && !sinew__jis_floats(v))
        for (const cJSON *e = v->child; e && count <= c->limits.max_array_length; e = e->next)
            count++;
    if (count > c->limits.max_array_length)
        return sinew__jfail_key(c, key, SINEW_E_LIMIT, "'%s' has more than %u elements (limits.max_array_length)",
                                key, c->limits.max_array_length);
    *first = sinew__jis_floats(v) ? (count ? v : NULL) : v->child;
    *n = count;
    return SINEW_OK;
}

/* Element i of a number array: a finite number within [-bound, bound], else the error at key[i]. */
static sinew_status jelement(sinew_jctx *c, const cJSON *e, const char *key, uint32_t i, double bound, double *out) {
    double d = 0.0;
    if (number_value(e, &d) && isfinite(d) && d <= bound && d >= -bound) {
        *out = d;
        return SINEW_OK;
    }
    sinew__jpush_key(c, key);
    sinew__jpush_index(c, i);
    sinew_status st = sinew__jfail(c, number_value(e, &d) ? SINEW_E_RANGE : SINEW_E_TYPE,
                                   "'%s'[%u] must be a finite number", key, i);
    sinew__jpop(c);
    sinew__jpop(c);
    return st;
}

sinew_status sinew__jfloats(sinew_jctx *c, const cJSON *first, const char *key, float *dst, uint32_t n) {
    if (sinew__jis_floats(first)) { /* finite floats: nothing to check */
        memcpy(dst, sinew__jfloats_at(first), (size_t)(n < (uint32_t)first->valueint ? n : (uint32_t)first->valueint) * sizeof *dst);
        return SINEW_OK;
    }
    const cJSON *e = first;
    for (uint32_t i = 0; i < n && e; i++, e = e->next) {
        double d;
        sinew_status st = jelement(c, e, key, i, (double)FLT_MAX, &d);
        if (st != SINEW_OK)
            return st;
        dst[i] = (float)d;
    }
    return SINEW_OK;
}

sinew_status sinew__jdoubles(sinew_jctx *c, const cJSON *first, const char *key, double *dst, uint32_t n,
                             double bound) {
    if (sinew__jis_floats(first)) {
        const float *f = sinew__jfloats_at(first);
        for (uint32_t i = 0; i < n && i < (uint32_t)first->valueint; i++) {
            if (!(f[i] <= bound && f[i] >= -bound)) {
                sinew__jpush_key(c, key);
                sinew__jpush_index(c, i);
                sinew_status st = sinew__jfail(c, SINEW_E_RANGE, "'%s'[%u] must be a finite number", key, i);
                sinew__jpop(c);
                sinew__jpop(c);
                return st;
            }
            dst[i] = f[i];
        }
        return SINEW_OK;
    }
    const cJSON *e = first;
    for (uint32_t i = 0; i < n && e; i++, e = e->next) {
        sinew_status st = jelement(c, e, key, i, bound, &dst[i]);
        if (st != SINEW_OK)
            return st;
    }
    return SINEW_OK;
}
