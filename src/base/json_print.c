/* The JSON writer (json_print.h): a growing buffer, the tree walked with an explicit stack. */
#include "base/json_print.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/num.h"

typedef struct buf {
    const sinew_allocator *a;
    char *p;
    size_t n, cap;
    bool nomem;
} buf;

static bool reserve(buf *b, size_t more) {
    if (b->nomem)
        return false;
    if (b->n + more + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more + 1) {
        if (cap > SIZE_MAX / 2) {
            b->nomem = true;
            return false;
        }
        cap *= 2;
    }
    char *p = sinew__realloc(b->a, b->p, b->cap, cap);
    if (!p) {
        b->nomem = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static void add(buf *b, const char *s, size_t n) {
    if (reserve(b, n)) {
        memcpy(b->p + b->n, s, n);
        b->n += n;
    }
}

static void add_c(buf *b, char c) {
    if (reserve(b, 1))
        b->p[b->n++] = c;
}

static void tabs(buf *b, size_t k) {
    if (reserve(b, k)) {
        memset(b->p + b->n, '\t', k);
        b->n += k;
    }
}

/* a string as cJSON escapes it: the two-character escapes, \u00XX for other bytes below 32 */
static void add_string(buf *b, const char *s) {
    add_c(b, '"');
    if (s) {
        for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
            const char *esc = NULL;
            switch (*p) {
            case '"': esc = "\\\""; break;
            case '\\': esc = "\\\\"; break;
            case '\b': esc = "\\b"; break;
            case '\f': esc = "\\f"; break;
            case '\n': esc = "\\n"; break;
            case '\r': esc = "\\r"; break;
            case '\t': esc = "\\t"; break;
            default: break;
            }
            if (esc) {
                add(b, esc, 2);
            } else if (*p < 32) {
                static const char hex[] = "0123456789abcdef";
                char u[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
                add(b, u, 6);
            } else {
                add_c(b, (char)*p);
            }
        }
    }
    add_c(b, '"');
}

/* a value that is not an array or object; false for a node without a valid type */
static bool add_scalar(buf *b, const cJSON *v) {
    switch (v->type & 0xFF) {
    case cJSON_NULL:
        add(b, "null", 4);
        return true;
    case cJSON_False:
        add(b, "false", 5);
        return true;
    case cJSON_True:
        add(b, "true", 4);
        return true;
    case cJSON_Number: {
        char t[SINEW_NUM_JSON_MAX];
        add(b, t, sinew__num_json(t, v->valuedouble));
        return true;
    }
    case cJSON_String:
        add_string(b, v->valuestring);
        return true;
    case cJSON_Raw:
        if (!v->valuestring)
            return false;
        add(b, v->valuestring, strlen(v->valuestring));
        return true;
    default:
        return false;
    }
}

/* after a member: cJSON writes ", " between array elements, ",\n" between object members */
static void separator(buf *b, bool in_object, bool more, bool formatted) {
    if (in_object) {
        if (more)
            add_c(b, ',');
        if (formatted)
            add_c(b, '\n');
    } else if (more) {
        add(b, ", ", formatted ? 2 : 1);
    }
}

char *sinew__json_print(const cJSON *item, bool formatted, const sinew_allocator *allocator, size_t *size) {
    *size = 0;
    if (!item)
        return NULL;
    buf b = {allocator, NULL, 0, 0, false};
    /* the open containers, innermost last (their depth is cJSON's indentation) */
    const cJSON **open = NULL;
    size_t depth = 0, cap = 0;
    const cJSON *v = item;
    bool ok = true;
    while (ok && !b.nomem) {
        /* write v: its key first inside an object */
        const cJSON *in = depth ? open[depth - 1] : NULL;
        bool in_object = in && (in->type & 0xFF) == cJSON_Object;
        if (in_object) {
            if (formatted)
                tabs(&b, depth);
            add_string(&b, v->string);
            add(&b, ":\t", formatted ? 2 : 1);
        }
        int t = v->type & 0xFF;
        if ((t == cJSON_Array || t == cJSON_Object) && v->child) {
            if (depth == cap) {
                size_t nc = cap ? cap * 2 : 16;
                const cJSON **no = sinew__realloc(allocator, open, cap * sizeof *no, nc * sizeof *no);
                if (!no) {
                    b.nomem = true;
                    break;
                }
                open = no;
                cap = nc;
            }
            open[depth++] = v;
            add_c(&b, t == cJSON_Array ? '[' : '{');
            if (t == cJSON_Object && formatted)
                add_c(&b, '\n');
            v = v->child;
            continue;
        }
        if (t == cJSON_Array) {
            add(&b, "[]", 2);
        } else if (t == cJSON_Object) {
            add_c(&b, '{');
            if (formatted) {
                add_c(&b, '\n');
                tabs(&b, depth);
            }
            add_c(&b, '}');
        } else {
            ok = add_scalar(&b, v);
        }
        /* v is done: move to its next sibling, closing every container that ends here */
        for (;;) {
            if (!depth) {
                v = NULL;
                break;
            }
            const cJSON *c = open[depth - 1];
            bool obj = (c->type & 0xFF) == cJSON_Object;
            separator(&b, obj, v->next != NULL, formatted);
            if (v->next) {
                v = v->next;
                break;
            }
            depth--;
            if (obj && formatted)
                tabs(&b, depth);
            add_c(&b, obj ? '}' : ']');
            v = c;
        }
        if (!v)
            break;
    }
    sinew__free(allocator, open, cap * sizeof *open);
    if (!ok || b.nomem || !reserve(&b, 0)) {
        sinew__free(allocator, b.p, b.cap);
        return NULL;
    }
    b.p[b.n] = '\0';
    *size = b.cap;
    return b.p;
}
