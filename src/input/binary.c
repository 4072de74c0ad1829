/* MRTK input animation binary reader and writer (versions 1.0 and 1.1, layouts MRTK and spec). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/file.h"
#include "base/num.h"
#include "input/input_internal.h"

_Static_assert(sizeof(sinew_curve_key) == 28, "sinew_curve_key must match the 28-byte disk key");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

static uint32_t rd_u32(const uint8_t *p) {
#if HOST_LE
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static int32_t rd_i32(const uint8_t *p) {
    uint32_t u = rd_u32(p);
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

static float rd_f32(const uint8_t *p) {
    uint32_t u = rd_u32(p);
    float v;
    memcpy(&v, &u, 4);
    return v;
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef struct reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
    const char *name;
    sinew_error *err;
    int32_t minor;
    sinew_input_layout layout;
    bool flags[3];
    sinew_input_animation *anim; /* NULL while scanning */
    /* results */
    bool markers_missing;
    size_t end;                  /* offset after the marker list */
} reader;

static sinew_status fail_at(reader *r, size_t offset, sinew_status code, const char *fmt, ...)
    SINEW_PRINTF(4, 5);

#include <stdarg.h>
static sinew_status fail_at(reader *r, size_t offset, sinew_status code, const char *fmt, ...) {
    if (r->err && r->err->code == SINEW_OK) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        sinew__vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        char where[64];
        snprintf(where, sizeof where, "byte %zu", offset);
        sinew__fail(r->err, code, where, "%s", msg);
        r->err->file = r->name;
        r->err->offset = offset;
    }
    return code;
}

static size_t remaining(const reader *r) {
    return r->size - r->pos;
}

static sinew_status need(reader *r, size_t n, const char *what, const char *curve) {
    if (remaining(r) >= n)
        return SINEW_OK;
    return fail_at(r, r->pos, SINEW_E_PARSE, "truncated: expected %s%s%s (%zu bytes) at byte %zu, but only %zu bytes remain",
                   what, curve ? " of " : "", curve ? curve : "", n, r->pos, remaining(r));
}

static sinew_status read_curve(reader *r, uint32_t index) {
    char path[64]; /* the curve's name, formatted only for an error */
    if (remaining(r) < 12)
        return need(r, 12, "curve header (pre-wrap, post-wrap, key count)",
                    sinew_input_curve_path(index, path, sizeof path));
    const uint8_t *p = r->data + r->pos;
    int32_t pre = rd_i32(p), post = rd_i32(p + 4), count = rd_i32(p + 8);
    if (count < 0)
        return fail_at(r, r->pos + 8, SINEW_E_PARSE, "negative key count %d for curve %s", count,
                       sinew_input_curve_path(index, path, sizeof path));
    r->pos += 12;
    bool is_bool = sinew_input_curve_is_bool(index);
    size_t key_size = (is_bool || (r->minor == 1 && r->layout == SINEW_INPUT_LAYOUT_MRTK)) ? 8 : 28;
    if ((size_t)count > remaining(r) / key_size && sinew_input_curve_path(index, path, sizeof path))
        return fail_at(r, r->pos - 4, SINEW_E_PARSE,
                       "truncated or corrupt: key count %d of curve %s needs %zu bytes of %zu-byte keys at byte %zu, but only %zu bytes remain",
                       count, path, (size_t)count * key_size, key_size, r->pos, remaining(r));
    const uint8_t *k = r->data + r->pos;
    r->pos += (size_t)count * key_size;
    if (!r->anim)
        return SINEW_OK;
    sinew_curve *c = &r->anim->curves[index];
    c->pre_wrap = pre;
    c->post_wrap = post;
    if (count == 0)
        return SINEW_OK;
    const sinew_allocator *al = r->anim->allocator;
    sinew_curve_key *keys = sinew__alloc(al, (size_t)count * sizeof *keys);
    if (!keys)
        return fail_at(r, r->pos, SINEW_E_NOMEM, "out of memory for %d keys of curve %s", count,
                       sinew_input_curve_path(index, path, sizeof path));
    uint32_t n = (uint32_t)count;
    if (key_size == 28) {
#if HOST_LE
        memcpy(keys, k, (size_t)n * 28);
#else
        for (uint32_t i = 0; i < n; i++, k += 28) {
            keys[i].time = rd_f32(k);
            keys[i].value = rd_f32(k + 4);
            keys[i].in_tangent = rd_f32(k + 8);
            keys[i].out_tangent = rd_f32(k + 12);
            keys[i].in_weight = rd_f32(k + 16);
            keys[i].out_weight = rd_f32(k + 20);
            keys[i].weighted_mode = rd_i32(k + 24);
        }
#endif
    } else if (is_bool) {
        for (uint32_t i = 0; i < n; i++, k += 8)
            keys[i] = sinew__input_bool_key(rd_f32(k), rd_f32(k + 4));
    } else {
        for (uint32_t i = 0; i < n; i++, k += 8)
            keys[i] = sinew__input_simple_key(rd_f32(k), rd_f32(k + 4));
    }
    sinew_error e2 = {0};
    if (sinew__input_take_keys(r->anim, index, keys, n, &e2) != SINEW_OK)
        return fail_at(r, r->pos, e2.code, "%s", e2.message);
    return SINEW_OK;
}

static sinew_status read_markers(reader *r) {
    if (remaining(r) == 0) {
        r->markers_missing = true;
        r->end = r->pos;
        return SINEW_OK;
    }
    sinew_status st = need(r, 4, "marker count (Int32)", NULL);
    if (st)
        return st;
    int32_t count = rd_i32(r->data + r->pos);
    if (count < 0)
        return fail_at(r, r->pos, SINEW_E_PARSE, "negative marker count %d", count);
    r->pos += 4;
    if ((size_t)count > remaining(r) / 5)
        return fail_at(r, r->pos - 4, SINEW_E_PARSE,
                       "truncated or corrupt: marker count %d needs at least %zu bytes at byte %zu, but only %zu bytes remain",
                       count, (size_t)count * 5, r->pos, remaining(r));
    if (r->anim && count) {
        r->anim->markers = sinew__calloc(r->anim->allocator, (size_t)count, sizeof *r->anim->markers);
        if (!r->anim->markers)
            return fail_at(r, r->pos, SINEW_E_NOMEM, "out of memory for %d markers", count);
        r->anim->marker_count = (uint32_t)count;
    }
    for (int32_t i = 0; i < count; i++) {
        char what[64];
        snprintf(what, sizeof what, "time of marker %d (Float32)", i);
        if ((st = need(r, 4, what, NULL)))
            return st;
        float time = rd_f32(r->data + r->pos);
        r->pos += 4;
        size_t start = r->pos;
        uint32_t len = 0;
        int shift = 0;
        for (;;) {
            snprintf(what, sizeof what, "name length of marker %d (7-bit encoded)", i);
            if ((st = need(r, 1, what, NULL)))
                return st;
            uint8_t b = r->data[r->pos++];
            if (shift == 28 && b > 0x07)
                return fail_at(r, start, SINEW_E_PARSE, "bad name length of marker %d (7-bit encoded Int32 out of range)", i);
            len |= (uint32_t)(b & 0x7f) << shift;
            if (!(b & 0x80))
                break;
            shift += 7;
        }
        if (len > remaining(r))
            return fail_at(r, start, SINEW_E_PARSE,
                           "truncated: name of marker %d is %u bytes at byte %zu, but only %zu bytes remain", i, len,
                           r->pos, remaining(r));
        if (r->anim) {
            sinew_input_marker *m = &r->anim->markers[i];
            m->name = sinew__alloc(r->anim->allocator, (size_t)len + 1);
            if (!m->name)
                return fail_at(r, r->pos, SINEW_E_NOMEM, "out of memory for a marker name");
            memcpy(m->name, r->data + r->pos, len);
            m->name[len] = 0;
            m->name_length = len;
            m->time = time;
        }
        r->pos += len;
    }
    r->end = r->pos;
    return SINEW_OK;
}

static sinew_status walk(reader *r) {
    r->pos = r->minor == 1 ? 19 : 16;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (!sinew__input_curve_in_file(r->minor, r->flags[0], r->flags[1], r->flags[2], i))
            continue;
        sinew_status st = read_curve(r, i);
        if (st)
            return st;
    }
    return read_markers(r);
}

sinew_status sinew_input_read(const void *data, size_t size, const char *name,
                              const sinew_allocator *allocator, sinew_input_animation **out,
                              sinew_error *err) {
    if (!out || (!data && size))
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *out = NULL;
    reader r = {0};
    r.data = data;
    r.size = size;
    r.name = name;
    r.err = err;
    sinew_status st;
    if ((st = need(&r, 8, "magic number (Int64)", NULL)))
        return st;
    uint64_t magic = (uint64_t)rd_u32(r.data) | (uint64_t)rd_u32(r.data + 4) << 32;
    if (magic != SINEW_INPUT_MAGIC)
        return fail_at(&r, 0, SINEW_E_PARSE,
                       "not an MRTK input animation: magic is 0x%016llx, expected 0x6a8faf6e0f9e42c6",
                       (unsigned long long)magic);
    r.pos = 8;
    if ((st = need(&r, 8, "version (major, minor Int32)", NULL)))
        return st;
    int32_t major = rd_i32(r.data + 8), minor = rd_i32(r.data + 12);
    if (major != 1 || (minor != 0 && minor != 1))
        return fail_at(&r, 8, SINEW_E_VERSION, "unsupported version %d.%d (sinew reads 1.0 and 1.1)", major,
                       minor);
    r.minor = minor;
    r.pos = 16;
    if (minor == 1) {
        if ((st = need(&r, 3, "section flags (camera, hands, eye gaze: 3 Booleans)", NULL)))
            return st;
        for (int i = 0; i < 3; i++)
            r.flags[i] = r.data[16 + i] != 0;
    } else {
        r.flags[0] = r.flags[1] = true;
        r.flags[2] = false;
    }

    /* Scan without allocating to pick the layout and validate every count. */
    sinew_input_layout layout = SINEW_INPUT_LAYOUT_MRTK;
    if (minor == 1) {
        sinew_error em = {0}, es = {0};
        reader rm = r, rs = r;
        rm.err = &em;
        rm.layout = SINEW_INPUT_LAYOUT_MRTK;
        rs.err = &es;
        rs.layout = SINEW_INPUT_LAYOUT_SPEC;
        sinew_status sm = walk(&rm), ss = walk(&rs);
        bool exact_m = sm == SINEW_OK && rm.end == size, exact_s = ss == SINEW_OK && rs.end == size;
        if (exact_m)
            layout = SINEW_INPUT_LAYOUT_MRTK;
        else if (exact_s)
            layout = SINEW_INPUT_LAYOUT_SPEC;
        else if (sm == SINEW_OK)
            layout = SINEW_INPUT_LAYOUT_MRTK;
        else if (ss == SINEW_OK)
            layout = SINEW_INPUT_LAYOUT_SPEC;
        else {
            const sinew_error *pick = es.offset > em.offset ? &es : &em;
            if (err && err->code == SINEW_OK) {
                *err = *pick;
                char msg[sizeof err->message];
                snprintf(msg, sizeof msg, "%.*s (reading the %s 1.1 layout)", (int)(sizeof msg - 40), pick->message,
                         pick == &es ? "spec" : "MRTK");
                memcpy(err->message, msg, sizeof msg);
            }
            return pick->code;
        }
    } else {
        reader rs = r;
        if ((st = walk(&rs)))
            return st;
    }
    r.layout = layout;

    sinew_input_animation *anim;
    if ((st = sinew_input_create(allocator, &anim, err)))
        return st;
    anim->version_major = 1;
    anim->version_minor = minor;
    anim->layout = layout;
    anim->has_camera = r.flags[0];
    anim->has_hands = r.flags[1];
    anim->has_eye_gaze = r.flags[2];
    r.anim = anim;
    if ((st = walk(&r))) {
        sinew_input_destroy(anim);
        return st;
    }
    anim->markers_missing = r.markers_missing;
    anim->trailing_bytes = (uint64_t)(size - r.end);
    anim->file_size = (uint64_t)size;
    *out = anim;
    return SINEW_OK;
}

sinew_status sinew__input_read_file(const char *path, const sinew_allocator *allocator, uint8_t **data,
                                    size_t *size, sinew_error *err) {
    char *text = NULL;
    sinew_status st = sinew__read_whole(path, allocator, SINEW_INPUT_MAX_FILE_BYTES, NULL, &text, size, err);
    *data = (uint8_t *)text;
    return st;
}

sinew_status sinew_input_load_file(const char *path, const sinew_allocator *allocator,
                                   sinew_input_animation **out, sinew_error *err) {
    if (!path || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *out = NULL;
    uint8_t *data;
    size_t size;
    sinew_status st = sinew__input_read_file(path, allocator, &data, &size, err);
    if (st)
        return st;
    st = sinew_input_read(data, size, path, allocator, out, err);
    sinew__free(allocator, data, size + 1);
    return st;
}

/* ---- writing ------------------------------------------------------------------------------ */

sinew_input_write_options sinew_input_write_defaults(void) {
    sinew_input_write_options o = {-1, -1};
    return o;
}

static sinew_status resolve(const sinew_input_animation *a, const sinew_input_write_options *o,
                            int32_t *minor, sinew_input_layout *layout, sinew_error *err) {
    *minor = (o && o->version_minor >= 0) ? o->version_minor : a->version_minor;
    int32_t l = (o && o->layout >= 0) ? o->layout : (int32_t)a->layout;
    if (*minor != 0 && *minor != 1)
        return sinew__fail(err, SINEW_E_ARG, NULL, "cannot write version 1.%d (only 1.0 and 1.1)", *minor);
    if (l != SINEW_INPUT_LAYOUT_MRTK && l != SINEW_INPUT_LAYOUT_SPEC)
        return sinew__fail(err, SINEW_E_ARG, NULL, "unknown layout %d", l);
    *layout = (sinew_input_layout)l;
    return SINEW_OK;
}

static bool written(const sinew_input_animation *a, int32_t minor, uint32_t i) {
    return sinew__input_curve_in_file(minor, a->has_camera, a->has_hands, a->has_eye_gaze, i);
}

/* Keys written for curve i: none if its section is absent (1.0 writes empty curves then). */
static uint32_t written_keys(const sinew_input_animation *a, uint32_t i) {
    return sinew_input_curve_present(a, i) ? a->curves[i].key_count : 0;
}

static size_t key_bytes(int32_t minor, sinew_input_layout layout, uint32_t i) {
    if (sinew_input_curve_is_bool(i))
        return 8;
    return (minor == 1 && layout == SINEW_INPUT_LAYOUT_MRTK) ? 8 : 28;
}

static size_t leb_size(uint32_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

sinew_status sinew_input_write_size(const sinew_input_animation *anim,
                                    const sinew_input_write_options *options, size_t *size,
                                    sinew_error *err) {
    int32_t minor;
    sinew_input_layout layout;
    sinew_status st = resolve(anim, options, &minor, &layout, err);
    if (st)
        return st;
    size_t n = minor == 1 ? 19 : 16;
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (!written(anim, minor, i))
            continue;
        n += 12 + (size_t)written_keys(anim, i) * key_bytes(minor, layout, i);
    }
    n += 4;
    for (uint32_t i = 0; i < anim->marker_count; i++) {
        if (anim->markers[i].name_length > INT32_MAX)
            return sinew__fail(err, SINEW_E_RANGE, NULL, "marker %u name too long", i);
        n += 4 + leb_size(anim->markers[i].name_length) + anim->markers[i].name_length;
    }
    if (anim->marker_count > INT32_MAX)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "too many markers");
    *size = n;
    return SINEW_OK;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v) {
#if HOST_LE
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
#endif
    return p + 4;
}

static uint8_t *put_i32(uint8_t *p, int32_t v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return put_u32(p, u);
}

static uint8_t *put_f32(uint8_t *p, float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return put_u32(p, u);
}

sinew_status sinew_input_write_memory(const sinew_input_animation *anim,
                                      const sinew_input_write_options *options, uint8_t **data,
                                      size_t *size, sinew_error *err) {
    if (!anim || !data || !size)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *data = NULL;
    *size = 0;
    int32_t minor;
    sinew_input_layout layout;
    size_t total;
    sinew_status st = resolve(anim, options, &minor, &layout, err);
    if (st || (st = sinew_input_write_size(anim, options, &total, err)))
        return st;
    uint8_t *buf = sinew__alloc(anim->allocator, total);
    if (!buf)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for %zu bytes", total);
    uint8_t *p = buf;
    p = put_u32(p, (uint32_t)(SINEW_INPUT_MAGIC & 0xffffffffu));
    p = put_u32(p, (uint32_t)(SINEW_INPUT_MAGIC >> 32));
    p = put_i32(p, 1);
    p = put_i32(p, minor);
    if (minor == 1) {
        *p++ = anim->has_camera ? 1 : 0;
        *p++ = anim->has_hands ? 1 : 0;
        *p++ = anim->has_eye_gaze ? 1 : 0;
    }
    for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
        if (!written(anim, minor, i))
            continue;
        const sinew_curve *c = &anim->curves[i];
        uint32_t n = written_keys(anim, i);
        p = put_i32(p, c->pre_wrap);
        p = put_i32(p, c->post_wrap);
        p = put_i32(p, (int32_t)n);
        size_t kb = key_bytes(minor, layout, i);
        if (kb == 28) {
#if HOST_LE
            if (n)
                memcpy(p, c->keys, (size_t)n * 28);
            p += (size_t)n * 28;
#else
            for (uint32_t k = 0; k < n; k++) {
                const sinew_curve_key *key = &c->keys[k];
                p = put_f32(p, key->time);
                p = put_f32(p, key->value);
                p = put_f32(p, key->in_tangent);
                p = put_f32(p, key->out_tangent);
                p = put_f32(p, key->in_weight);
                p = put_f32(p, key->out_weight);
                p = put_i32(p, key->weighted_mode);
            }
#endif
        } else {
            for (uint32_t k = 0; k < n; k++) {
                p = put_f32(p, c->keys[k].time);
                p = put_f32(p, c->keys[k].value);
            }
        }
    }
    p = put_i32(p, (int32_t)anim->marker_count);
    for (uint32_t i = 0; i < anim->marker_count; i++) {
        const sinew_input_marker *m = &anim->markers[i];
        p = put_f32(p, m->time);
        uint32_t v = m->name_length;
        while (v >= 0x80) {
            *p++ = (uint8_t)(v | 0x80);
            v >>= 7;
        }
        *p++ = (uint8_t)v;
        if (m->name_length)
            memcpy(p, m->name, m->name_length);
        p += m->name_length;
    }
    if ((size_t)(p - buf) != total) {
        sinew__free(anim->allocator, buf, total);
        return sinew__fail(err, SINEW_E_ARG, NULL, "internal: writer size mismatch");
    }
    *data = buf;
    *size = total;
    return SINEW_OK;
}

void sinew_input_free_memory(const sinew_input_animation *anim, uint8_t *data, size_t size) {
    sinew__free(anim ? anim->allocator : NULL, data, size);
}

sinew_status sinew_input_save_file(const sinew_input_animation *anim, const char *path,
                                   const sinew_input_write_options *options, sinew_error *err) {
    if (!anim || !path)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    uint8_t *data;
    size_t size;
    sinew_status st = sinew_input_write_memory(anim, options, &data, &size, err);
    if (st)
        return st;
    st = sinew__write_file_atomic(path, data, size, NULL, 0, anim->allocator, err);
    sinew_input_free_memory(anim, data, size);
    return st;
}

bool sinew_input_write_is_lossy(const sinew_input_animation *anim,
                                const sinew_input_write_options *options) {
    int32_t minor;
    sinew_input_layout layout;
    if (resolve(anim, options, &minor, &layout, NULL) != SINEW_OK)
        return false;
    if (minor == 0 && anim->has_eye_gaze) {
        for (uint32_t i = SINEW_INPUT_CURVE_GAZE; i < SINEW_INPUT_CURVE_COUNT; i++)
            if (anim->curves[i].key_count)
                return true;
    }
    if (minor == 1 && layout == SINEW_INPUT_LAYOUT_MRTK) {
        for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
            if (sinew_input_curve_is_bool(i) || !sinew_input_curve_present(anim, i))
                continue;
            const sinew_curve *c = &anim->curves[i];
            for (uint32_t k = 0; k < c->key_count; k++) {
                sinew_curve_key d = sinew__input_simple_key(c->keys[k].time, c->keys[k].value);
                if (memcmp(&d, &c->keys[k], sizeof d) != 0)
                    return true;
            }
        }
    }
    return false;
}
