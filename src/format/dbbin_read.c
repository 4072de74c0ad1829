/*
 * Reading DragonBones binary (DBBin, format/dbbin.h).
 *
 * This first part checks a file's layout the way a reader must before it touches the arrays: the
 * tag, the header length, the JSON header, the twelve array offsets and lengths (inside the file,
 * aligned for their element type), and every offset the header gives into them (meshes, weights,
 * animations, timelines and their frames) with the counts stored there. Any inconsistency is an
 * error `at byte offset N`, never a read out of bounds.
 *
 * Building sinew's model from the arrays is not done yet: a well-formed file is refused with
 * SINEW_E_UNSUPPORTED saying so (docs/convert.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "format/dbbin.h"
#include "format/dragonbones_json.h"
#include "format/json_read.h"

enum { R_INT = 0, R_FLOAT, R_FRAME_INT, R_FRAME_FLOAT, R_FRAME, R_TIMELINE, R_COUNT };

static const char *const ARRAY_NAME[R_COUNT] = {"intArray",   "floatArray", "frameIntArray",
                                                "frameFloatArray", "frameArray", "timelineArray"};
static const unsigned ELEM[R_COUNT] = {2, 4, 2, 4, 2, 2};

typedef struct rctx {
    const unsigned char *b;
    size_t len;
    const char *file;
    sinew_error *err;
    size_t base;               /* file offset of the arrays */
    size_t start[R_COUNT];     /* file offsets */
    size_t count[R_COUNT];     /* elements */
} rctx;

static sinew_status bad(rctx *r, size_t offset, sinew_status code, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sinew_status st = sinew__fail_at(r->err, code, r->file, 0, 0, NULL, "%s at byte offset %zu", msg, offset);
    if (r->err && r->err->code == code && r->err->offset == 0) {
        r->err->offset = offset;
        snprintf(r->err->path, sizeof r->err->path, "byte %zu", offset);
    }
    return st;
}

static uint32_t u32_at(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Element i of a 16-bit array (i < count checked by the caller). */
static int32_t i16(const rctx *r, int a, size_t i) {
    const unsigned char *p = r->b + r->start[a] + i * 2;
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

static uint32_t u16(const rctx *r, int a, size_t i) {
    const unsigned char *p = r->b + r->start[a] + i * 2;
    return (uint32_t)(p[0] | p[1] << 8);
}

/* [first, first + n) inside array a; else an error at the array's byte for `first`. */
static bool in_range(rctx *r, int a, double first, double n, const char *what) {
    if (first >= 0 && n >= 0 && first == floor(first) && n == floor(n) && first + n <= (double)r->count[a])
        return true;
    double at = first >= 0 && first <= (double)r->count[a] ? first : (double)r->count[a];
    bad(r, r->start[a] + (size_t)at * ELEM[a], SINEW_E_LAYOUT, "%s: entries %.0f..%.0f past the end of %s (%zu)",
        what, first, first + n, ARRAY_NAME[a], r->count[a]);
    return false;
}

static bool header_int(rctx *r, const cJSON *v, double *out, const char *what) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < 0 || v->valuedouble > 4294967295.0) {
        bad(r, 12, SINEW_E_LAYOUT, "DBBin header: %s is not an unsigned integer", what);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

static bool check_mesh(rctx *r, const cJSON *d) {
    double off;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
    const char *n = cJSON_IsString(name) ? name->valuestring : "";
    if (!header_int(r, cJSON_GetObjectItemCaseSensitive(d, "offset"), &off, "a mesh's offset") ||
        !in_range(r, R_INT, off, 4, "mesh"))
        return false;
    int32_t vc = i16(r, R_INT, (size_t)off), tc = i16(r, R_INT, (size_t)off + 1);
    int32_t fo = i16(r, R_INT, (size_t)off + 2), wo = i16(r, R_INT, (size_t)off + 3);
    if (vc < 0 || tc < 0 || fo < 0) {
        bad(r, r->start[R_INT] + (size_t)off * 2, SINEW_E_LAYOUT, "DBBin mesh \"%s\": negative counts", n);
        return false;
    }
    if (!in_range(r, R_INT, off + 4, (double)tc * 3, "mesh triangles") ||
        !in_range(r, R_FLOAT, fo, (double)vc * 4, "mesh vertices and uvs"))
        return false;
    for (size_t i = 0; i < (size_t)tc * 3; i++)
        if (i16(r, R_INT, (size_t)off + 4 + i) < 0 || i16(r, R_INT, (size_t)off + 4 + i) >= vc) {
            bad(r, r->start[R_INT] + ((size_t)off + 4 + i) * 2, SINEW_E_RANGE,
                "DBBin mesh \"%s\": a triangle index past its %d vertices", n, vc);
            return false;
        }
    if (wo < 0)
        return true;
    if (!in_range(r, R_INT, wo, 2, "mesh weights"))
        return false;
    int32_t nb = i16(r, R_INT, (size_t)wo), wf = i16(r, R_INT, (size_t)wo + 1);
    if (nb < 0 || wf < 0 || !in_range(r, R_INT, (double)wo + 2, (double)nb + vc, "mesh weight bones"))
        return false;
    size_t ib = (size_t)wo + 2 + (size_t)nb;
    double influences = 0;
    for (int32_t v = 0; v < vc; v++) {
        if (!in_range(r, R_INT, (double)ib, 1, "mesh weights"))
            return false;
        int32_t k = i16(r, R_INT, ib);
        if (k < 0 || k > nb || !in_range(r, R_INT, (double)ib + 1, k, "mesh weights")) {
            if (k < 0 || k > nb)
                bad(r, r->start[R_INT] + ib * 2, SINEW_E_LAYOUT, "DBBin mesh \"%s\": a vertex on %d of %d bones", n,
                    k, nb);
            return false;
        }
        for (int32_t j = 0; j < k; j++) {
            int32_t bi = i16(r, R_INT, ib + 1 + (size_t)j);
            if (bi < 0 || bi >= nb) {
                bad(r, r->start[R_INT] + (ib + 1 + (size_t)j) * 2, SINEW_E_RANGE,
                    "DBBin mesh \"%s\": a weight on bone %d of %d", n, bi, nb);
                return false;
            }
        }
        influences += k;
        ib += 1 + (size_t)k;
    }
    return in_range(r, R_FLOAT, wf, influences * 3, "mesh weights");
}

static bool check_timeline(rctx *r, double tl, const double aoff[3], const char *what) {
    if (!in_range(r, R_TIMELINE, tl, 5, what))
        return false;
    uint32_t keys = u16(r, R_TIMELINE, (size_t)tl + 2);
    if (!in_range(r, R_TIMELINE, tl + 5, keys, what))
        return false;
    for (uint32_t k = 0; k < keys; k++) {
        double f = aoff[2] + u16(r, R_TIMELINE, (size_t)tl + 5 + k);
        if (!in_range(r, R_FRAME, f, 2, what))
            return false;
    }
    return true;
}

static bool check_timeline_map(rctx *r, const cJSON *map, const double aoff[3], const char *what) {
    if (!map)
        return true;
    if (!cJSON_IsObject(map)) {
        bad(r, 12, SINEW_E_LAYOUT, "DBBin header: an animation's %s timelines are not an object", what);
        return false;
    }
    for (const cJSON *e = map->child; e; e = e->next) {
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) % 2) {
            bad(r, 12, SINEW_E_LAYOUT, "DBBin header: %s timelines of \"%s\" are not type/offset pairs", what,
                e->string);
            return false;
        }
        for (const cJSON *t = e->child; t && t->next; t = t->next->next) {
            double type, off;
            if (!header_int(r, t, &type, "a timeline type") || !header_int(r, t->next, &off, "a timeline offset") ||
                !check_timeline(r, off, aoff, what))
                return false;
        }
    }
    return true;
}

static bool check_animation(rctx *r, const cJSON *a) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(a, "offset");
    double aoff[3];
    if (!cJSON_IsArray(o) || cJSON_GetArraySize(o) != 3) {
        bad(r, 12, SINEW_E_LAYOUT, "DBBin header: an animation without its 3 array offsets");
        return false;
    }
    static const int arr[3] = {R_FRAME_INT, R_FRAME_FLOAT, R_FRAME};
    for (int i = 0; i < 3; i++)
        if (!header_int(r, cJSON_GetArrayItem(o, i), &aoff[i], "an animation offset") ||
            !in_range(r, arr[i], aoff[i], 0, "an animation"))
            return false;
    double tl;
    static const char *const single[] = {"action", "zOrder"};
    for (int i = 0; i < 2; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, single[i]);
        if (v && (!header_int(r, v, &tl, single[i]) || !check_timeline(r, tl, aoff, single[i])))
            return false;
    }
    static const char *const maps[] = {"bone", "surface", "slot", "constraint", "animation"};
    for (int i = 0; i < 5; i++)
        if (!check_timeline_map(r, cJSON_GetObjectItemCaseSensitive(a, maps[i]), aoff, maps[i]))
            return false;
    return true;
}

static bool check_armature(rctx *r, const cJSON *arm) {
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(arm, "skin");
    for (const cJSON *s = cJSON_IsArray(skins) ? skins->child : NULL; s; s = s->next) {
        const cJSON *slots = cJSON_GetObjectItemCaseSensitive(s, "slot");
        for (const cJSON *sl = cJSON_IsArray(slots) ? slots->child : NULL; sl; sl = sl->next) {
            const cJSON *ds = cJSON_GetObjectItemCaseSensitive(sl, "display");
            for (const cJSON *d = cJSON_IsArray(ds) ? ds->child : NULL; d; d = d->next)
                if (cJSON_GetObjectItemCaseSensitive(d, "offset") && !check_mesh(r, d))
                    return false;
        }
    }
    const cJSON *anims = cJSON_GetObjectItemCaseSensitive(arm, "animation");
    for (const cJSON *a = cJSON_IsArray(anims) ? anims->child : NULL; a; a = a->next)
        if (!check_animation(r, a))
            return false;
    return true;
}

sinew_status sinew__dbbin_load(const void *buf, size_t len, const char *file, const sinew_load_options *opts,
                               struct sinew_data **out, sinew_error *err) {
    *out = NULL;
    rctx r;
    memset(&r, 0, sizeof r);
    r.b = buf;
    r.len = len;
    r.file = file;
    r.err = err;
    if (len < 12)
        return bad(&r, len, SINEW_E_PARSE, "truncated DBBin: %zu bytes, the header alone takes 12", len);
    if (memcmp(buf, SINEW_DBBIN_TAG, 4) != 0)
        return bad(&r, 0, SINEW_E_PARSE, "not DBBin (no DBDT tag)");
    uint32_t hl = u32_at(r.b + 8);
    if ((uint64_t)hl > (uint64_t)len - 12)
        return bad(&r, 8, SINEW_E_PARSE, "truncated DBBin: a header of %u bytes in a file of %zu", hl, len);
    r.base = 12 + (size_t)hl;
    sinew_jctx c;
    sinew__jctx_init(&c, (const char *)r.b + 12, hl, file, opts);
    cJSON *root = sinew__json_parse(&c);
    if (!root) {
        sinew_status code = c.err.code != SINEW_OK ? c.err.code : SINEW_E_PARSE;
        return bad(&r, 12 + (size_t)c.err.offset, code, "DBBin header: %s", c.err.message);
    }
    sinew_status st = SINEW_OK;
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(root, "offset");
    if (!cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 12) {
        st = bad(&r, 12, SINEW_E_LAYOUT, "DBBin header: no `offset` with the 12 array offsets and lengths");
        goto done;
    }
    const cJSON *v = offs->child;
    for (int i = 0; i < R_COUNT; i++, v = v->next->next) {
        double o, l;
        if (!header_int(&r, v, &o, "an array offset") || !header_int(&r, v->next, &l, "an array length")) {
            st = err ? err->code : SINEW_E_LAYOUT;
            goto done;
        }
        if (o + l > (double)(len - r.base)) {
            st = bad(&r, 12, SINEW_E_PARSE, "truncated DBBin: %s (%.0f bytes at %.0f) runs past the end of the file",
                     ARRAY_NAME[i], l, o);
            goto done;
        }
        r.start[i] = r.base + (size_t)o;
        if (r.start[i] % ELEM[i] || (size_t)l % ELEM[i]) {
            st = bad(&r, r.start[i], SINEW_E_LAYOUT, "misaligned DBBin: %s is not aligned to %u bytes", ARRAY_NAME[i],
                     ELEM[i]);
            goto done;
        }
        r.count[i] = (size_t)l / ELEM[i];
    }
    const cJSON *arms = cJSON_GetObjectItemCaseSensitive(root, "armature");
    uint32_t n_arm = 0;
    for (const cJSON *a = cJSON_IsArray(arms) ? arms->child : NULL; a; a = a->next, n_arm++)
        if (!check_armature(&r, a)) {
            st = err && err->code ? err->code : SINEW_E_LAYOUT;
            goto done;
        }
    st = sinew__fail_at(err, SINEW_E_UNSUPPORTED, file, 0, 0, NULL,
                        "reading DragonBones binary (DBBin) is not implemented yet: the layout is consistent (%u "
                        "armature(s)); load its DragonBones JSON source instead",
                        n_arm);
done:
    sinew__json_free(&c, root);
    return st;
}
