/*
 * Reading DragonBones binary (DBBin, format/dbbin.h).
 *
 * First the layout is checked the way a reader must before it touches the arrays: the tag, the
 * header length, the JSON header, the twelve array offsets and lengths (inside the file, aligned
 * for their element type), and every offset the header gives into them (meshes, weights,
 * animations, timelines and their frames) with the counts stored there. Any inconsistency is an
 * error `at byte offset N`, never a read out of bounds.
 *
 * Then the model is built: the header is a DragonBones JSON document without its array data, so
 * the reader puts that data back into the parsed header (mesh vertices, uvs, triangles, weights;
 * per animation its action frames and bone, slot, deform, IK, surface and zOrder timelines with
 * one key per binary key) and hands the document to the JSON model builder
 * (sinew__dragonbones_build) in its DBBin mode: each key carries the index of its values in a
 * float table, already as the model keeps them, rather than JSON values; a Bezier key carries the
 * binary's easing samples; rotations are the parser's unwrapped ones. So the binary plays with
 * exactly the numbers the official runtime plays it with, and everything else (names, bones,
 * slots, skins, actions, limits) is checked by the same code as the JSON.
 *
 * Weighted meshes' deform keys: the binary holds one offset per influence in that bone's space
 * (the parser's slotPose . delta mapped by the inverse bonePose); the model keeps one slot-space
 * delta per vertex and a 2x2 map per influence. sinew's writer keeps `slotPose` and `bonePose`
 * in the header, so the reader recovers each vertex's delta from its first influence and checks
 * that every other influence agrees; a binary without the poses is read when each vertex's
 * offsets are equal over its influences (then the identity map is exact), and refused otherwise.
 * What the reader cannot represent is refused with the byte offset (docs/convert.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
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
    if (nb < 0 || wf < 0) {
        bad(r, r->start[R_INT] + (size_t)wo * 2, SINEW_E_LAYOUT, "DBBin mesh \"%s\": negative weight counts", n);
        return false;
    }
    if (!in_range(r, R_INT, (double)wo + 2, (double)nb + vc, "mesh weight bones"))
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

/* ---- building the model ------------------------------------------------------------------------- */

/* Per-file state of the build: cJSON-shaped nodes in an arena (freed after the build) and the
 * float table the keys' values go to. */
typedef struct bctx {
    rctx *r;
    sinew_arena nodes;
    const sinew_allocator *allocator;
    float *vals;
    size_t nvals, cap;
    bool nomem;
    /* the armature being read */
    const cJSON *actions;      /* its `actions` (action frames index them) */
    uint32_t action_count;
    const cJSON *bones;        /* its `bone` list */
    int32_t bone_count;
    const cJSON *slots;
    const cJSON *arm;
    const cJSON **action_list;  /* B->actions' members, by index */
    const char **slot_names;   /* the armature's slots (header order) and, per slot, the most */
    uint32_t *slot_displays;   /* displays any skin gives it; slot_hash: name -> index + 1 */
    uint32_t *slot_hash, slot_count, slot_mask;
    struct bmesh *meshes;
    size_t mesh_count, mesh_cap;
    uint32_t display_max;      /* the slot being read: most displays a skin gives it */
    double frame_count;        /* the animation being read */
    double aoff[3];
} bctx;

/* A mesh display met in a skin: what a deform timeline needs. */
typedef struct bmesh {
    size_t offset;             /* its entry in intArray */
    const char *skin, *slot, *name;
    int32_t vertex_count;
    bool weighted;
    size_t weights;            /* intArray: the weight block */
    int32_t bone_count;
    double influences;
    const cJSON *slot_pose, *bone_pose; /* from the header (sinew's writer keeps them), or NULL */
} bmesh;

static cJSON *node(bctx *B, int type) {
    cJSON *n = sinew__arena_alloc(&B->nodes, sizeof *n);
    if (!n) {
        B->nomem = true;
        return NULL;
    }
    n->type = type; /* the arena gives zeroed memory */
    return n;
}

static cJSON *num_node(bctx *B, double v) {
    cJSON *n = node(B, cJSON_Number);
    if (n) {
        n->valuedouble = v;
        n->valueint = v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int)v;
    }
    return n;
}

static cJSON *str_node(bctx *B, const char *s) {
    cJSON *n = node(B, cJSON_String);
    if (n)
        n->valuestring = (char *)s;
    return n;
}

/* Appends `item` (may be NULL after a failed allocation) to an array or, under `key`, an object. */
static void put(cJSON *parent, const char *key, cJSON *item) {
    if (!parent || !item)
        return;
    item->string = (char *)key;
    if (!parent->child) {
        parent->child = item;
        item->prev = item;
    } else {
        cJSON *last = parent->child->prev;
        last->next = item;
        item->prev = last;
        parent->child->prev = item;
    }
    parent->valueint++;
}

/* Takes the member `key` out of an object; returns it (NULL if absent). */
static cJSON *take(cJSON *obj, const char *key) {
    for (cJSON *m = obj->child; m; m = m->next) {
        if (!m->string || strcmp(m->string, key) != 0)
            continue;
        if (m == obj->child) {
            obj->child = m->next;
            if (m->next)
                m->next->prev = m->prev;
        } else {
            m->prev->next = m->next;
            if (m->next)
                m->next->prev = m->prev;
            else
                obj->child->prev = m->prev;
        }
        m->next = m->prev = NULL;
        if (obj->valueint > 0)
            obj->valueint--;
        return m;
    }
    return NULL;
}

static cJSON *member(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* Reserves n values in the table; returns their index (SIZE_MAX when out of memory). */
static size_t vals(bctx *B, size_t n) {
    if (B->nvals + n > B->cap || !B->vals) {
        size_t cap = B->cap ? B->cap : 1024;
        while (cap < B->nvals + n)
            cap *= 2;
        float *p = sinew__realloc(B->allocator, B->vals, B->cap * sizeof *p, cap * sizeof *p);
        if (!p) {
            B->nomem = true;
            return SIZE_MAX;
        }
        B->vals = p;
        B->cap = cap;
    }
    size_t at = B->nvals;
    B->nvals += n;
    return at;
}

static float f32(const rctx *r, int a, size_t i) {
    const unsigned char *p = r->b + r->start[a] + i * 4;
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static size_t at_byte(const rctx *r, int a, size_t i) { return r->start[a] + i * ELEM[a]; }

/* Every float of the binary must be finite (NaN and infinities are refused where they are). */
static bool finite_floats(rctx *r) {
    static const int fa[2] = {R_FLOAT, R_FRAME_FLOAT};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < r->count[fa[k]]; i++)
            if (!isfinite(f32(r, fa[k], i))) {
                bad(r, at_byte(r, fa[k], i), SINEW_E_RANGE, "DBBin: %s[%zu] is not a finite number", ARRAY_NAME[fa[k]], i);
                return false;
            }
    return true;
}

/* An array node of n numbers of array a from index first (in range, checked by the caller). */
static cJSON *numbers(bctx *B, int a, size_t first, size_t n) {
    cJSON *arr = node(B, cJSON_Array);
    for (size_t i = 0; arr && i < n; i++) {
        double v = a == R_FLOAT || a == R_FRAME_FLOAT ? (double)f32(B->r, a, first + i) : (double)i16(B->r, a, first + i);
        put(arr, NULL, num_node(B, v)); /* floats are finite: build() checked them all */
    }
    return arr;
}

static bool add_mesh(bctx *B, const bmesh *m) {
    if (B->mesh_count == B->mesh_cap) {
        size_t cap = B->mesh_cap ? B->mesh_cap * 2 : 16;
        bmesh *p = sinew__realloc(B->allocator, B->meshes, B->mesh_cap * sizeof *p, cap * sizeof *p);
        if (!p) {
            B->nomem = true;
            return false;
        }
        B->meshes = p;
        B->mesh_cap = cap;
    }
    B->meshes[B->mesh_count++] = *m;
    return true;
}

static bool pose_numbers(const cJSON *a, size_t n) {
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) < n)
        return false;
    for (const cJSON *e = a->child; e; e = e->next)
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return false;
    return true;
}

/* Puts a mesh display's arrays back: vertices, uvs, triangles and (weighted) weights. */
static bool read_mesh(bctx *B, cJSON *d, const char *skin, const char *slot) {
    rctx *r = B->r;
    const cJSON *nm = member(d, "name");
    bmesh m;
    memset(&m, 0, sizeof m);
    m.skin = skin;
    m.slot = slot;
    m.name = cJSON_IsString(nm) ? nm->valuestring : "";
    cJSON *off = take(d, "offset");
    m.offset = (size_t)off->valuedouble; /* checked by check_mesh */
    if (member(d, "share") || member(d, "glueWeights") || member(d, "glueMeshes")) {
        bad(r, at_byte(r, R_INT, m.offset), SINEW_E_UNSUPPORTED, "DBBin mesh \"%s\": shared or glued meshes are not read",
            m.name);
        return false;
    }
    int32_t vc = i16(r, R_INT, m.offset), tc = i16(r, R_INT, m.offset + 1);
    size_t fo = (size_t)i16(r, R_INT, m.offset + 2);
    int32_t wo = i16(r, R_INT, m.offset + 3);
    m.vertex_count = vc;
    static const char *const drop[] = {"vertices", "uvs", "triangles", "weights", "bones"};
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
        take(d, drop[i]);
    put(d, "uvs", numbers(B, R_FLOAT, fo + (size_t)vc * 2, (size_t)vc * 2));
    put(d, "triangles", numbers(B, R_INT, m.offset + 4, (size_t)tc * 3));
    if (wo < 0) {
        put(d, "vertices", numbers(B, R_FLOAT, fo, (size_t)vc * 2));
        return !B->nomem && add_mesh(B, &m);
    }
    /* weighted (check_mesh checked the block): [bone count, float start, bones..., per vertex
       its count and list indices]; floatArray: weight, x, y per influence */
    m.weighted = true;
    m.weights = (size_t)wo;
    m.bone_count = i16(r, R_INT, (size_t)wo);
    size_t wf = (size_t)i16(r, R_INT, (size_t)wo + 1);
    size_t list = (size_t)wo + 2, ib = list + (size_t)m.bone_count;
    const cJSON *sp = member(d, "slotPose"), *bp = member(d, "bonePose");
    bool poses = sp && bp;
    if (poses) {
        if (!pose_numbers(sp, 6) || !pose_numbers(bp, (size_t)m.bone_count * 7)) {
            bad(r, at_byte(r, R_INT, m.offset), SINEW_E_LAYOUT,
                "DBBin mesh \"%s\": its header slotPose/bonePose do not fit its %d weight bones", m.name, m.bone_count);
            return false;
        }
        /* the header's bonePose entries are the weight block's bones, in order */
        const cJSON *e = bp->child;
        for (int32_t i = 0; i < m.bone_count; i++) {
            if (e->valuedouble != (double)i16(r, R_INT, list + (size_t)i)) {
                bad(r, at_byte(r, R_INT, list + (size_t)i), SINEW_E_LAYOUT,
                    "DBBin mesh \"%s\": weight bone %d is not the header's bonePose entry %d", m.name, i, i);
                return false;
            }
            for (int k = 0; k < 7; k++)
                e = e->next;
        }
        m.slot_pose = sp;
        m.bone_pose = bp;
    } else {
        take(d, "slotPose");
        take(d, "bonePose");
    }
    cJSON *w = node(B, cJSON_Array), *locals = poses ? NULL : node(B, cJSON_Array);
    size_t inf = 0;
    for (int32_t v = 0; v < vc; v++) {
        int32_t k = i16(r, R_INT, ib++);
        put(w, NULL, num_node(B, k));
        for (int32_t j = 0; j < k; j++, inf++) {
            int32_t bi = i16(r, R_INT, ib++);
            int32_t raw = i16(r, R_INT, list + (size_t)bi);
            if (raw < 0 || raw >= B->bone_count) {
                bad(r, at_byte(r, R_INT, list + (size_t)bi), SINEW_E_RANGE,
                    "DBBin mesh \"%s\": a weight on bone %d of the armature's %d", m.name, raw,
                    B->bone_count);
                return false;
            }
            put(w, NULL, num_node(B, raw));
            put(w, NULL, num_node(B, f32(r, R_FLOAT, wf + inf * 3)));
            if (locals) {
                put(locals, NULL, num_node(B, f32(r, R_FLOAT, wf + inf * 3 + 1)));
                put(locals, NULL, num_node(B, f32(r, R_FLOAT, wf + inf * 3 + 2)));
            }
        }
    }
    m.influences = (double)inf;
    put(d, "weights", w);
    if (poses) {
        put(d, "vertices", numbers(B, R_FLOAT, fo, (size_t)vc * 2));
    } else {
        /* no poses: the builder's per-influence layout (bind positions in bone space, exact) */
        put(d, "vertices", locals);
        cJSON *bl = node(B, cJSON_Array);
        for (int32_t i = 0; i < m.bone_count; i++)
            put(bl, NULL, num_node(B, i16(r, R_INT, list + (size_t)i)));
        put(d, "bones", bl);
    }
    return !B->nomem && add_mesh(B, &m);
}

static bool read_skins(bctx *B, cJSON *arm) {
    const cJSON *skins = member(arm, "skin");
    for (cJSON *s = cJSON_IsArray(skins) ? skins->child : NULL; s; s = s->next) {
        const cJSON *sn = member(s, "name");
        const char *skin = cJSON_IsString(sn) ? sn->valuestring : "";
        const cJSON *slots = member(s, "slot");
        for (cJSON *sl = cJSON_IsArray(slots) ? slots->child : NULL; sl; sl = sl->next) {
            const cJSON *sln = member(sl, "name");
            const char *slot = cJSON_IsString(sln) ? sln->valuestring : "";
            const cJSON *ds = member(sl, "display");
            for (cJSON *d = cJSON_IsArray(ds) ? ds->child : NULL; d; d = d->next) {
                const cJSON *t = member(d, "type");
                if ((cJSON_IsString(t) && strcmp(t->valuestring, "path") == 0) ||
                    (cJSON_IsNumber(t) && t->valuedouble == 4)) {
                    bad(B->r, 12, SINEW_E_UNSUPPORTED, "DBBin: path displays are not read");
                    return false;
                }
                if (member(d, "offset") && !read_mesh(B, d, skin, slot))
                    return false;
            }
        }
    }
    return true;
}

/* ---- keys -------------------------------------------------------------------------------------- */

typedef struct tl_info {
    size_t tl;                 /* timelineArray index */
    uint32_t keys;
    uint32_t value_count;      /* timelineArray [3] */
    uint32_t value_start;      /* timelineArray [4] */
} tl_info;

static size_t key_frame(const bctx *B, const tl_info *t, uint32_t k) {
    return (size_t)B->aoff[2] + u16(B->r, R_TIMELINE, t->tl + 5 + k);
}

/* Checks the keys' starts (0, then increasing inside the animation) and gives key k's length on
 * the frame grid, as the official reader lays them. */
static bool key_spans(bctx *B, const tl_info *t, double *span, const char *what) {
    rctx *r = B->r;
    for (uint32_t k = 0; k < t->keys; k++) {
        size_t fo = key_frame(B, t, k);
        double s = i16(r, R_FRAME, fo);
        double next = k + 1 < t->keys ? i16(r, R_FRAME, key_frame(B, t, k + 1)) : B->frame_count;
        if ((k == 0 && s != 0) || (k + 1 < t->keys && !(s < next)) || (t->keys > 1 && s > B->frame_count)) {
            bad(r, at_byte(r, R_FRAME, fo), SINEW_E_LAYOUT,
                "DBBin %s: key %u starts at frame %.0f (keys must start at 0 and increase inside the animation's "
                "%.0f frames)",
                what, k, s, B->frame_count);
            return false;
        }
        span[k] = t->keys == 1 ? B->frame_count : next - s;
    }
    return true;
}

/* A tweened key: its frameArray entry [start, tween, strength | sample count, samples...]. */
static cJSON *tween_key(bctx *B, const tl_info *t, uint32_t k, double span, const char *what) {
    rctx *r = B->r;
    size_t fo = key_frame(B, t, k);
    cJSON *f = node(B, cJSON_Object);
    put(f, "duration", num_node(B, span));
    if (!in_range(r, R_FRAME, (double)fo, 2, what))
        return NULL;
    int32_t tw = i16(r, R_FRAME, fo + 1);
    if (tw == 0 || t->keys == 1)
        return f;
    if (tw == 1) {
        put(f, "tweenEasing", num_node(B, 0));
        return f;
    }
    if (tw < 0 || tw > 5 || !in_range(r, R_FRAME, (double)fo + 2, 1, what)) {
        if (tw < 0 || tw > 5)
            bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_UNSUPPORTED, "DBBin %s: tween type %d is not read", what, tw);
        return NULL;
    }
    int32_t v = i16(r, R_FRAME, fo + 2);
    if (tw == 2) {
        if (!in_range(r, R_FRAME, (double)fo + 3, v, what))
            return NULL;
        if ((double)v != span + 1) {
            bad(r, at_byte(r, R_FRAME, fo + 2), SINEW_E_LAYOUT,
                "DBBin %s: a curve of %d samples on a key of %.0f frames (needs %.0f)", what, v, span, span + 1);
            return NULL;
        }
        size_t at = vals(B, (size_t)v);
        if (at == SIZE_MAX)
            return NULL;
        for (int32_t i = 0; i < v; i++)
            B->vals[at + (size_t)i] = (float)i16(r, R_FRAME, fo + 3 + (size_t)i);
        put(f, "curve", num_node(B, v));
        put(f, SINEW_DBBIN_SAMPLES, num_node(B, (double)at));
        return f;
    }
    /* quad in (3), out (4), in-out (5) with the strength x100, as the tweenEasing the JSON
       builder reads back to the same strength */
    if (v < 0 || (tw == 4 && v > 100)) {
        bad(r, at_byte(r, R_FRAME, fo + 2), SINEW_E_UNSUPPORTED, "DBBin %s: tween %d with strength %d is not read",
            what, tw, v);
        return NULL;
    }
    double e = tw == 3 ? -v / 100.0 : tw == 4 ? v / 100.0 : 1.0 + (v + 0.25) / 100.0;
    put(f, "tweenEasing", num_node(B, e));
    return f;
}

static bool frame_values(bctx *B, cJSON *f, size_t at) {
    put(f, SINEW_DBBIN_VALUES, num_node(B, (double)at));
    return !B->nomem;
}

/* The timelineArray header at tl (check_timeline checked it and the key offsets). */
static tl_info tl_at(const bctx *B, double tl) {
    tl_info t;
    t.tl = (size_t)tl;
    t.keys = u16(B->r, R_TIMELINE, t.tl + 2);
    t.value_count = u16(B->r, R_TIMELINE, t.tl + 3);
    t.value_start = u16(B->r, R_TIMELINE, t.tl + 4);
    return t;
}

/* Scale and offset (x100 in the binary) onto the JSON timeline object. */
static bool scale_offset(bctx *B, cJSON *o, const tl_info *t) {
    if (u16(B->r, R_TIMELINE, t->tl) == 0) {
        bad(B->r, at_byte(B->r, R_TIMELINE, t->tl), SINEW_E_RANGE, "DBBin: a timeline of scale 0");
        return false;
    }
    if (member(o, "scale"))
        return true;
    put(o, "scale", num_node(B, u16(B->r, R_TIMELINE, t->tl) / 100.0));
    put(o, "offset", num_node(B, (double)(int16_t)u16(B->r, R_TIMELINE, t->tl + 1) / 100.0));
    return !B->nomem;
}

enum { V_FLOAT, V_COLOR, V_IK, V_DISPLAY, V_ZORDER, V_DEFORM };

/* Builds the key list of one timeline: n values per key, of kind vk. */
static cJSON *keys(bctx *B, const tl_info *t, uint32_t n, int vk, const bmesh *mesh, const char *what) {
    rctx *r = B->r;
    if (t->keys == 0) {
        bad(r, at_byte(r, R_TIMELINE, t->tl + 2), SINEW_E_LAYOUT, "DBBin %s: a timeline without keys", what);
        return NULL;
    }
    double *span = sinew__alloc(B->allocator, t->keys * sizeof *span);
    if (!span) {
        B->nomem = true;
        return NULL;
    }
    cJSON *list = NULL;
    if (!key_spans(B, t, span, what))
        goto out;
    size_t base = 0;
    int fa = vk == V_COLOR || vk == V_IK ? R_FRAME_INT : R_FRAME_FLOAT;
    if (vk == V_FLOAT || vk == V_COLOR || vk == V_IK) {
        uint32_t want = vk == V_COLOR ? 1 : n;
        if (t->value_count != want) {
            bad(r, at_byte(r, R_TIMELINE, t->tl + 3), SINEW_E_LAYOUT, "DBBin %s: %u values per key (expected %u)", what,
                t->value_count, want);
            goto out;
        }
        base = (size_t)B->aoff[fa == R_FRAME_INT ? 0 : 1] + t->value_start;
        if (!in_range(r, fa, (double)base, (double)t->keys * want, what))
            goto out;
    } else if (vk == V_DEFORM) {
        /* the deform / surface header in frameIntArray: vertex offset, count, value count, 0,
           float start */
        size_t h = (size_t)B->aoff[0] + t->value_count;
        if (!in_range(r, R_FRAME_INT, (double)h, 5, what))
            goto out;
        int32_t count = i16(r, R_FRAME_INT, h + 2);
        if (count != (int32_t)n || i16(r, R_FRAME_INT, h + 1) != count) {
            bad(r, at_byte(r, R_FRAME_INT, h + 1), SINEW_E_LAYOUT, "DBBin %s: %d values per key (expected %u)", what,
                count, n);
            goto out;
        }
        base = (size_t)B->aoff[1] + (size_t)(uint16_t)i16(r, R_FRAME_INT, h + 4);
        if (!in_range(r, R_FRAME_FLOAT, (double)base, (double)t->keys * n, what))
            goto out;
    }
    list = node(B, cJSON_Array);
    for (uint32_t k = 0; list && k < t->keys; k++) {
        size_t fo = key_frame(B, t, k);
        cJSON *f;
        if (vk == V_DISPLAY || vk == V_ZORDER) {
            f = node(B, cJSON_Object);
            put(f, "duration", num_node(B, span[k]));
        } else {
            f = tween_key(B, t, k, span[k], what);
        }
        if (!f) {
            list = NULL;
            break;
        }
        size_t at = vals(B, vk == V_DEFORM && mesh && mesh->weighted ? (size_t)mesh->vertex_count * 2 : n);
        if (at == SIZE_MAX) {
            list = NULL;
            break;
        }
        float *v = B->vals + at;
        bool ok = true;
        switch (vk) {
        case V_FLOAT:
            for (uint32_t i = 0; i < n; i++)
                v[i] = f32(r, R_FRAME_FLOAT, base + (size_t)k * n + i);
            break;
        case V_COLOR: {
            int32_t co = i16(r, R_FRAME_INT, base + k);
            if (co < 0 || !in_range(r, R_INT, co, 8, what)) {
                if (co < 0)
                    bad(r, at_byte(r, R_FRAME_INT, base + k), SINEW_E_LAYOUT, "DBBin %s: a negative colour offset", what);
                ok = false;
                break;
            }
            for (int c = 0; c < 4; c++)
                v[c] = (float)(i16(r, R_INT, (size_t)co + (size_t)c) / 100.0);
            for (int c = 4; c < 8; c++)
                v[c] = (float)i16(r, R_INT, (size_t)co + (size_t)c);
            break;
        }
        case V_IK:
            v[0] = (float)(i16(r, R_FRAME_INT, base + (size_t)k * 2 + 1) / 100.0);
            v[1] = i16(r, R_FRAME_INT, base + (size_t)k * 2) ? 1.0f : 0.0f;
            break;
        case V_DISPLAY:
            if (!in_range(r, R_FRAME, (double)fo + 1, 1, what)) {
                ok = false;
                break;
            }
            v[0] = (float)i16(r, R_FRAME, fo + 1);
            /* the JSON builder's rule: -1 (hidden) or one of the slot's displays */
            if (!(v[0] >= -1 && (v[0] < (float)B->display_max || (B->display_max == 0 && v[0] == 0)))) {
                bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_RANGE, "DBBin %s: display index %.0f of %u displays", what,
                    (double)v[0], B->display_max);
                ok = false;
            }
            break;
        case V_ZORDER: {
            if (!in_range(r, R_FRAME, (double)fo + 1, 1, what)) {
                ok = false;
                break;
            }
            int32_t zn = i16(r, R_FRAME, fo + 1);
            for (uint32_t i = 0; i < n; i++)
                v[i] = (float)i;
            if (zn == 0)
                break;
            if ((uint32_t)zn != n || !in_range(r, R_FRAME, (double)fo + 2, n, what)) {
                if ((uint32_t)zn != n)
                    bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_LAYOUT, "DBBin %s: a draw order of %d slots (the armature has %u)",
                        what, zn, n);
                ok = false;
                break;
            }
            for (uint32_t i = 0; i < n; i++) {
                int32_t sl = i16(r, R_FRAME, fo + 2 + i);
                if (sl < 0 || (uint32_t)sl >= n) {
                    bad(r, at_byte(r, R_FRAME, fo + 2 + i), SINEW_E_RANGE, "DBBin %s: slot %d in a draw order of %u", what,
                        sl, n);
                    ok = false;
                    break;
                }
                v[i] = (float)sl;
            }
            break;
        }
        case V_DEFORM: {
            size_t q = base + (size_t)k * n;
            if (!mesh || !mesh->weighted) {
                for (uint32_t i = 0; i < n; i++)
                    v[i] = f32(r, R_FRAME_FLOAT, q + i);
                break;
            }
            /* per influence bone-space offsets -> one slot-space delta per vertex */
            size_t ib = mesh->weights + 2 + (size_t)mesh->bone_count;
            double sp[4] = {1, 0, 0, 1};
            if (mesh->slot_pose) {
                const cJSON *e = mesh->slot_pose->child;
                for (int i = 0; i < 4; i++, e = e->next)
                    sp[i] = e->valuedouble;
            }
            double det = sp[0] * sp[3] - sp[1] * sp[2];
            if (mesh->slot_pose && !(fabs(det) > 1e-12)) {
                bad(r, 12, SINEW_E_RANGE, "DBBin mesh \"%s\": its slotPose is not invertible", mesh->name);
                ok = false;
                break;
            }
            for (int32_t vi = 0; ok && vi < mesh->vertex_count; vi++) {
                int32_t kc = i16(r, R_INT, ib++);
                double dx = 0, dy = 0;
                for (int32_t j = 0; j < kc; j++, q += 2) {
                    int32_t bi = i16(r, R_INT, ib++);
                    double qx = f32(r, R_FRAME_FLOAT, q), qy = f32(r, R_FRAME_FLOAT, q + 1), x = qx, y = qy;
                    if (mesh->bone_pose) {
                        /* delta = inverse(slotPose.linear) . bonePose.linear . offset */
                        const cJSON *e = mesh->bone_pose->child;
                        for (int32_t s = 0; s < bi * 7 + 1; s++)
                            e = e->next;
                        double a = e->valuedouble, b = e->next->valuedouble, c = e->next->next->valuedouble,
                               dd = e->next->next->next->valuedouble;
                        double px = a * qx + c * qy, py = b * qx + dd * qy;
                        x = (sp[3] * px - sp[2] * py) / det;
                        y = (-sp[1] * px + sp[0] * py) / det;
                    }
                    if (j == 0) {
                        dx = x;
                        dy = y;
                    } else if (fabs(x - dx) > 1e-3 * (1 + fabs(dx)) || fabs(y - dy) > 1e-3 * (1 + fabs(dy))) {
                        bad(r, at_byte(r, R_FRAME_FLOAT, q), SINEW_E_UNSUPPORTED,
                            "DBBin deform of mesh \"%s\": vertex %d has offsets that differ between its bones, which "
                            "sinew's per-vertex deform cannot hold%s",
                            mesh->name, vi, mesh->bone_pose ? "" : " (the header has no slotPose/bonePose)");
                        ok = false;
                        break;
                    }
                }
                v[2 * vi] = (float)dx;
                v[2 * vi + 1] = (float)dy;
            }
            break;
        }
        }
        if (!ok || !frame_values(B, f, at)) {
            list = NULL;
            break;
        }
        put(list, NULL, f);
    }
out:
    sinew__free(B->allocator, span, t->keys * sizeof *span);
    return list;
}

/* ---- animations ---------------------------------------------------------------------------------- */

/* A new timeline object named `name` in `list` (each key of a header map is one target). */
static cJSON *named(bctx *B, cJSON *list, const char *name) {
    cJSON *o = node(B, cJSON_Object);
    put(o, "name", str_node(B, name));
    put(list, NULL, o);
    return o;
}

static const cJSON *find_named(const cJSON *list, const char *name) {
    for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next) {
        const cJSON *n = member(e, "name");
        if (strcmp(cJSON_IsString(n) ? n->valuestring : "", name) == 0)
            return e;
    }
    return NULL;
}

/* The action timeline -> the animation's `frame` list, each key with its actions. */
static bool action_frames(bctx *B, cJSON *anim, double tl) {
    rctx *r = B->r;
    tl_info t = tl_at(B, tl);
    cJSON *list = node(B, cJSON_Array);
    double prev = -1;
    for (uint32_t k = 0; list && k < t.keys; k++) {
        size_t fo = key_frame(B, &t, k);
        double s = t.keys == 1 ? 0 : i16(r, R_FRAME, fo);
        double next = k + 1 < t.keys ? i16(r, R_FRAME, key_frame(B, &t, k + 1)) : B->frame_count;
        if (!(s > prev) || (k == 0 && s != 0) || s > B->frame_count) {
            /* the official merge can leave action frames out of order; the model rebuilds the
               order from positions, so only an ordered list is read */
            bad(r, at_byte(r, R_FRAME, fo), SINEW_E_UNSUPPORTED,
                "DBBin: action frame %u starts at frame %.0f, out of order (not read)", k, s);
            return false;
        }
        prev = s;
        if (!in_range(r, R_FRAME, (double)fo + 1, 1, "action frame"))
            return false;
        int32_t n = i16(r, R_FRAME, fo + 1);
        if (n < 0) {
            bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_LAYOUT, "DBBin: action frame %u has %d actions", k, n);
            return false;
        }
        if (!in_range(r, R_FRAME, (double)fo + 2, n, "action frame"))
            return false;
        cJSON *f = node(B, cJSON_Object);
        put(f, "duration", num_node(B, k + 1 < t.keys ? next - s : 0));
        if (n > 0) {
            cJSON *acts = node(B, cJSON_Array);
            for (int32_t i = 0; i < n; i++) {
                int32_t ai = i16(r, R_FRAME, fo + 2 + (size_t)i);
                if (ai < 0 || (uint32_t)ai >= B->action_count) {
                    bad(r, at_byte(r, R_FRAME, fo + 2 + (size_t)i), SINEW_E_RANGE,
                        "DBBin: action frame %u names action %d of the armature's %u", k, ai, B->action_count);
                    return false;
                }
                const cJSON *a = B->action_list[ai];
                cJSON *c = node(B, a->type);
                if (c) { /* a second parent for the same members (read-only) */
                    c->child = a->child;
                    c->valueint = a->valueint;
                    c->valuestring = a->valuestring;
                    c->valuedouble = a->valuedouble;
                }
                put(acts, NULL, c);
            }
            put(f, "actions", acts);
        }
        put(list, NULL, f);
    }
    put(anim, "frame", list);
    return !B->nomem;
}

static uint32_t hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot named `name`, or UINT32_MAX. */
static uint32_t slot_index(const bctx *B, const char *name) {
    if (!B->slot_hash)
        return UINT32_MAX;
    for (uint32_t i = hash(name) & B->slot_mask;; i = (i + 1) & B->slot_mask) {
        uint32_t v = B->slot_hash[i];
        if (v == 0)
            return UINT32_MAX;
        if (strcmp(B->slot_names[v - 1], name) == 0)
            return v - 1;
    }
}

static void free_tables(bctx *B) {
    size_t cap = (size_t)B->slot_mask + 1, ns = B->slot_count ? B->slot_count : 1,
           na = B->action_count ? B->action_count : 1; /* the sizes index_armature allocated */
    sinew__free(B->allocator, B->slot_names, ns * sizeof *B->slot_names);
    sinew__free(B->allocator, B->slot_displays, ns * sizeof *B->slot_displays);
    sinew__free(B->allocator, B->slot_hash, cap * sizeof *B->slot_hash);
    sinew__free(B->allocator, B->action_list, na * sizeof *B->action_list);
    B->slot_names = NULL;
    B->slot_displays = NULL;
    B->slot_hash = NULL;
    B->action_list = NULL;
    B->slot_count = B->slot_mask = 0;
}

/* Per armature: its slots by name with the most displays any skin gives each, its bone count and
 * its actions by index. */
static bool index_armature(bctx *B) {
    uint32_t n = 0, cap = 16;
    for (const cJSON *e = cJSON_IsArray(B->slots) ? B->slots->child : NULL; e; e = e->next)
        n++;
    while (cap < 2 * (uint64_t)n)
        cap *= 2;
    B->bone_count = 0;
    for (const cJSON *e = cJSON_IsArray(B->bones) ? B->bones->child : NULL; e; e = e->next)
        B->bone_count++;
    uint32_t na = 0;
    for (const cJSON *e = cJSON_IsArray(B->actions) ? B->actions->child : NULL; e; e = e->next)
        na++;
    B->slot_count = n;
    B->slot_mask = cap - 1;
    B->action_count = na;
    B->slot_names = sinew__calloc(B->allocator, n ? n : 1, sizeof *B->slot_names);
    B->slot_displays = sinew__calloc(B->allocator, n ? n : 1, sizeof *B->slot_displays);
    B->slot_hash = sinew__calloc(B->allocator, cap, sizeof *B->slot_hash);
    B->action_list = sinew__calloc(B->allocator, na ? na : 1, sizeof *B->action_list);
    if (!B->slot_names || !B->slot_displays || !B->slot_hash || !B->action_list) {
        B->nomem = true;
        return false;
    }
    uint32_t i = 0;
    for (const cJSON *e = cJSON_IsArray(B->actions) ? B->actions->child : NULL; e; e = e->next)
        B->action_list[i++] = e;
    i = 0;
    for (const cJSON *e = cJSON_IsArray(B->slots) ? B->slots->child : NULL; e; e = e->next, i++) {
        const cJSON *nm = member(e, "name");
        B->slot_names[i] = cJSON_IsString(nm) ? nm->valuestring : "";
        if (slot_index(B, B->slot_names[i]) != UINT32_MAX)
            continue; /* a second slot of that name: the first is the one found */
        uint32_t h = hash(B->slot_names[i]) & B->slot_mask;
        while (B->slot_hash[h])
            h = (h + 1) & B->slot_mask;
        B->slot_hash[h] = i + 1;
    }
    const cJSON *skins = member(B->arm, "skin");
    for (const cJSON *sk = cJSON_IsArray(skins) ? skins->child : NULL; sk; sk = sk->next) {
        const cJSON *sl = member(sk, "slot");
        for (const cJSON *e = cJSON_IsArray(sl) ? sl->child : NULL; e; e = e->next) {
            const cJSON *nm = member(e, "name"), *ds = member(e, "display");
            uint32_t k = slot_index(B, cJSON_IsString(nm) ? nm->valuestring : "");
            uint32_t c = cJSON_IsArray(ds) ? (uint32_t)cJSON_GetArraySize(ds) : 0;
            if (k != UINT32_MAX && c > B->slot_displays[k])
                B->slot_displays[k] = c;
        }
    }
    return true;
}

/* The most displays any skin gives the slot `name`. */
static uint32_t display_max(const bctx *B, const char *name) {
    uint32_t i = slot_index(B, name);
    return i == UINT32_MAX ? 0 : B->slot_displays[i];
}

static bool read_animation(bctx *B, cJSON *a) {
    rctx *r = B->r;
    const cJSON *o = member(a, "offset");
    for (int i = 0; i < 3; i++)
        B->aoff[i] = cJSON_GetArrayItem(o, i)->valuedouble; /* checked by check_animation */
    const cJSON *dur = member(a, "duration");
    double fc = cJSON_IsNumber(dur) ? dur->valuedouble : 1;
    if (!(fc == floor(fc)) || fc > 32767) {
        bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: an animation of %g frames (not a whole number below 32768)", fc);
        return false;
    }
    B->frame_count = fc > 1 ? fc : 1;
    cJSON *action = take(a, "action"), *zorder = take(a, "zOrder"), *bone = take(a, "bone"),
          *surface = take(a, "surface"), *slot = take(a, "slot"), *constraint = take(a, "constraint");
    static const char *const drop[] = {"offset", "animation", "frame", "ffd", "ik", "timeline"};
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
        take(a, drop[i]);
    if (action && !action_frames(B, a, action->valuedouble))
        return false;
    if (zorder) {
        tl_info t = tl_at(B, zorder->valuedouble);
        cJSON *z = node(B, cJSON_Object);
        put(z, "frame", keys(B, &t, B->slot_count, V_ZORDER, NULL, "zOrder timeline"));
        if (!member(z, "frame"))
            return false;
        put(a, "zOrder", z);
    }
    cJSON *bones = node(B, cJSON_Array), *surfaces = node(B, cJSON_Array), *slots = node(B, cJSON_Array),
          *ffds = node(B, cJSON_Array), *iks = node(B, cJSON_Array);
    if (B->nomem)
        return false;
    char what[300];
    for (cJSON *g = bone ? bone->child : NULL; g; g = g->next) {
        snprintf(what, sizeof what, "bone timeline \"%.200s\"", g->string);
        cJSON *o2 = named(B, bones, g->string);
        for (cJSON *e = g->child; o2 && e && e->next; e = e->next->next) {
            int type = (int)e->valuedouble;
            tl_info t = tl_at(B, e->next->valuedouble);
            static const char *const key[] = {"frame", "translateFrame", "rotateFrame", "scaleFrame"};
            if (type < 10 || type > 13) {
                bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_UNSUPPORTED, "DBBin %s: timeline type %d is not read", what,
                    type);
                return false;
            }
            cJSON *l = keys(B, &t, type == 10 ? 6 : 2, V_FLOAT, NULL, what);
            if (!l)
                return false;
            if (!scale_offset(B, o2, &t))
                return false;
            put(o2, key[type - 10], l);
        }
    }
    for (cJSON *g = surface ? surface->child : NULL; g; g = g->next) {
        snprintf(what, sizeof what, "surface timeline \"%.200s\"", g->string);
        const cJSON *b = find_named(B->bones, g->string);
        double sx = b && cJSON_IsNumber(member(b, "segmentX")) ? member(b, "segmentX")->valuedouble : 0;
        double sy = b && cJSON_IsNumber(member(b, "segmentY")) ? member(b, "segmentY")->valuedouble : 0;
        double n = (sx + 1) * (sy + 1) * 2;
        if (!b || !(n >= 2 && n < 1e6 && n == floor(n))) {
            bad(r, 12, SINEW_E_LAYOUT, "DBBin %s: no surface of that name with a lattice", what);
            return false;
        }
        cJSON *o2 = named(B, surfaces, g->string);
        for (cJSON *e = g->child; o2 && e && e->next; e = e->next->next) {
            tl_info t = tl_at(B, e->next->valuedouble);
            if ((int)e->valuedouble != 50) {
                bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_UNSUPPORTED, "DBBin %s: timeline type %d is not read", what,
                    (int)e->valuedouble);
                return false;
            }
            cJSON *l = keys(B, &t, (uint32_t)n, V_DEFORM, NULL, what);
            if (!l)
                return false;
            if (!scale_offset(B, o2, &t))
                return false;
            put(o2, "frame", l);
        }
    }
    for (cJSON *g = slot ? slot->child : NULL; g; g = g->next) {
        snprintf(what, sizeof what, "slot timeline \"%.200s\"", g->string);
        cJSON *o2 = NULL;
        for (cJSON *e = g->child; e && e->next; e = e->next->next) {
            int type = (int)e->valuedouble;
            tl_info t = tl_at(B, e->next->valuedouble);
            if (type == 20 || type == 21) {
                if (!o2 && !(o2 = named(B, slots, g->string)))
                    return false;
                B->display_max = display_max(B, g->string);
                cJSON *l = keys(B, &t, type == 20 ? 1 : 8, type == 20 ? V_DISPLAY : V_COLOR, NULL, what);
                if (!l)
                    return false;
                if (!scale_offset(B, o2, &t))
                return false;
                put(o2, type == 20 ? "displayFrame" : "colorFrame", l);
            } else if (type == 22) {
                size_t h = (size_t)B->aoff[0] + t.value_count;
                if (!in_range(r, R_FRAME_INT, (double)h, 5, what))
                    return false;
                size_t mo = (size_t)(uint16_t)i16(r, R_FRAME_INT, h);
                const bmesh *m = NULL;
                for (size_t i = 0; i < B->mesh_count && !m; i++)
                    if (B->meshes[i].offset == mo && strcmp(B->meshes[i].slot, g->string) == 0)
                        m = &B->meshes[i];
                if (!m) {
                    bad(r, at_byte(r, R_FRAME_INT, h), SINEW_E_REFERENCE,
                        "DBBin %s: a deform timeline on intArray %zu, not a mesh of this slot", what, mo);
                    return false;
                }
                uint32_t n = m->weighted ? (uint32_t)(m->influences * 2) : (uint32_t)m->vertex_count * 2;
                cJSON *l = keys(B, &t, n, V_DEFORM, m, what), *fo = node(B, cJSON_Object);
                if (!l || !fo)
                    return false;
                put(fo, "name", str_node(B, m->name));
                put(fo, "skin", str_node(B, m->skin));
                put(fo, "slot", str_node(B, m->slot));
                if (!scale_offset(B, fo, &t))
                    return false;
                put(fo, "frame", l);
                put(ffds, NULL, fo);
            } else {
                bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_UNSUPPORTED, "DBBin %s: timeline type %d is not read", what,
                    type);
                return false;
            }
        }
    }
    for (cJSON *g = constraint ? constraint->child : NULL; g; g = g->next) {
        snprintf(what, sizeof what, "IK timeline \"%.200s\"", g->string);
        cJSON *o2 = named(B, iks, g->string);
        for (cJSON *e = g->child; o2 && e && e->next; e = e->next->next) {
            tl_info t = tl_at(B, e->next->valuedouble);
            if ((int)e->valuedouble != 30) {
                bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_UNSUPPORTED, "DBBin %s: timeline type %d is not read", what,
                    (int)e->valuedouble);
                return false;
            }
            cJSON *l = keys(B, &t, 2, V_IK, NULL, what);
            if (!l)
                return false;
            if (!scale_offset(B, o2, &t))
                return false;
            put(o2, "frame", l);
        }
    }
    put(a, "bone", bones);
    put(a, "surface", surfaces);
    put(a, "slot", slots);
    put(a, "ffd", ffds);
    put(a, "ik", iks);
    return !B->nomem;
}

static bool read_armature(bctx *B, cJSON *arm) {
    rctx *r = B->r;
    B->mesh_count = 0;
    B->arm = arm;
    B->bones = member(arm, "bone");
    B->slots = member(arm, "slot");
    if (member(arm, "path")) {
        bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: path constraints are not read");
        return false;
    }
    B->actions = take(arm, "actions");
    if (!cJSON_IsArray(B->actions))
        B->actions = NULL;
    free_tables(B);
    if (!index_armature(B) || !read_skins(B, arm))
        return false;
    const cJSON *anims = member(arm, "animation");
    for (cJSON *a = cJSON_IsArray(anims) ? anims->child : NULL; a; a = a->next)
        if (!read_animation(B, a))
            return false;
    return true;
}

static sinew_status build(rctx *r, sinew_jctx *c, cJSON *root, struct sinew_data **out) {
    bctx B;
    memset(&B, 0, sizeof B);
    B.r = r;
    B.allocator = c->allocator;
    size_t limit = (size_t)(c->limits.max_memory_bytes < SIZE_MAX ? c->limits.max_memory_bytes : SIZE_MAX);
    sinew__arena_init(&B.nodes, c->allocator, limit);
    /* The nodes in one first chunk sized from the file (they take 5 to 11 bytes per file byte
       on the shared characters; pages of the chunk never used are never touched):
       one large block that glibc maps and unmaps, which raises its trim threshold, as the JSON
       reader's first chunk does; in 64 KB chunks, the memory went back to the kernel after every
       load and was faulted in again on the next (about 200 page faults a load). */
    size_t want = r->len <= SIZE_MAX / 16 ? r->len * 16 : SIZE_MAX;
    (void)sinew__arena_reserve(&B.nodes, limit && want > limit ? limit : want);
    sinew_status st = SINEW_OK;
    const cJSON *g = member(root, "isGlobal");
    if (cJSON_IsNumber(g) && g->valuedouble != 0) {
        st = bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: isGlobal data is not read");
        goto done;
    }
    if (!finite_floats(r)) {
        st = SINEW_E_RANGE;
        goto done;
    }
    take(root, "offset");
    const cJSON *arms = member(root, "armature");
    for (cJSON *a = cJSON_IsArray(arms) ? arms->child : NULL; a; a = a->next)
        if (!read_armature(&B, a)) {
            st = B.nomem ? sinew__fail_at(r->err, SINEW_E_NOMEM, r->file, 0, 0, NULL, "out of memory")
                         : (r->err && r->err->code ? r->err->code : SINEW_E_LAYOUT);
            goto done;
        }
    if (B.nomem) {
        st = sinew__fail_at(r->err, SINEW_E_NOMEM, r->file, 0, 0, NULL, "out of memory");
        goto done;
    }
    st = sinew__dragonbones_build(c, root, B.vals, B.nvals, out);
    if (st != SINEW_OK && r->err && r->err->code == SINEW_OK) {
        /* the builder located the error in the header text (its JSON path, or the nearest part of
           it the header holds): give the file's byte offset instead of a line and column */
        *r->err = c->err;
        if (c->err.line > 0) {
            uint64_t at = 12 + c->err.offset;
            size_t n = strlen(r->err->message);
            snprintf(r->err->message + n, sizeof r->err->message - n, " at byte offset %llu", (unsigned long long)at);
            r->err->offset = at;
            r->err->line = r->err->column = 0;
        }
    }
done:
    free_tables(&B);
    sinew__free(B.allocator, B.vals, B.cap * sizeof *B.vals);
    sinew__free(B.allocator, B.meshes, B.mesh_cap * sizeof *B.meshes);
    sinew__arena_destroy(&B.nodes);
    return st;
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
    for (const cJSON *a = cJSON_IsArray(arms) ? arms->child : NULL; a; a = a->next)
        if (!check_armature(&r, a)) {
            st = err && err->code ? err->code : SINEW_E_LAYOUT;
            if (err && !err->message[0]) /* every failure names its byte; this is a safety net */
                bad(&r, 12, st, "inconsistent DBBin");
            goto done;
        }
    st = build(&r, &c, root, out);
done:
    sinew__json_free(&c, root);
    return st;
}
