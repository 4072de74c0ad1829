/*
 * Reading DragonBones binary (DBBin, format/dbbin.h).
 *
 * The header is a DragonBones JSON document without its array data. The reader works in two
 * passes around the JSON model builder (sinew__dragonbones_build), which checks and builds
 * everything the header holds (names, bones, slots, skins, displays, IK, actions, animations'
 * names and lengths) with the same code as a JSON file:
 *
 * - The header pass, before the builder: the tag, the header length, the JSON header and the
 *   twelve array offsets and lengths (inside the file, aligned for their element type) are
 *   checked, then every offset the header gives into the arrays (meshes, weights, animations,
 *   timelines and their frames) with the counts stored there. A mesh display gets its arrays
 *   back as packed float arrays (SINEW_JSON_FLOATS, format/json_read.h), an animation its action
 *   frames; each animation's timeline maps come out of the header (the builder sees animations
 *   without timelines).
 * - The model pass (the builder's finish step, before the prepare pass): every timeline is read
 *   straight from the arrays into the model's keys and values: each key's values as the model
 *   keeps them, a Bezier key with the binary's own easing samples, rotations as the parser
 *   unwrapped them. So the binary plays with exactly the numbers the official runtime plays it
 *   with.
 *
 * Any inconsistency is an error `at byte offset N`, never a read out of bounds; a float is
 * checked finite where it is read.
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
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/namemap.h"
#include "format/dbbin.h"
#include "format/dragonbones_json.h"
#include "format/json_locate.h"
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

/* [first, first + n) inside array a, both whole numbers; else an error at the array's byte for
 * `first`. */
static bool in_range(rctx *r, int a, double first, double n, const char *what) {
    double count = (double)r->count[a];
    if (first >= 0 && n >= 0 && first <= count && n <= count && first + n <= count &&
        (double)(uint64_t)first == first && (double)(uint64_t)n == n)
        return true;
    double at = first >= 0 && first <= count ? first : count;
    bad(r, r->start[a] + (size_t)at * ELEM[a], SINEW_E_LAYOUT, "%s: entries %.0f..%.0f past the end of %s (%zu)",
        what, first, first + n, ARRAY_NAME[a], r->count[a]);
    return false;
}

static bool header_int(rctx *r, const cJSON *v, double *out, const char *what) {
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
    if (!(d >= 0 && d <= 4294967295.0) || (double)(uint32_t)d != d) {
        bad(r, 12, SINEW_E_LAYOUT, "DBBin header: %s is not an unsigned integer", what);
        return false;
    }
    *out = d;
    return true;
}

/* The members of a header array or object (json_dom.c counts them into valueint). */
static uint32_t members(const cJSON *v) {
    if (v->valueint > 0)
        return (uint32_t)v->valueint;
    uint32_t n = 0;
    for (const cJSON *e = v->child; e; e = e->next)
        n++;
    return n;
}

static bool check_mesh(rctx *r, const cJSON *d) {
    double off;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
    const char *n = cJSON_IsString(name) ? name->valuestring : "";
    if (!header_int(r, cJSON_GetObjectItemCaseSensitive(d, "offset"), &off, "a mesh's offset") ||
        !in_range(r, R_INT, off, 4, "mesh"))
        return false;
    int32_t vc = i16(r, R_INT, (size_t)off), tc = i16(r, R_INT, (size_t)off + 1);
    /* the float offsets are int16 that wrap past 32767; the official runtime adds 65536 when
       negative (a weight offset below 0 means no weights) */
    int32_t fo = (int32_t)u16(r, R_INT, (size_t)off + 2), wo = i16(r, R_INT, (size_t)off + 3);
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
    int32_t nb = i16(r, R_INT, (size_t)wo), wf = (int32_t)u16(r, R_INT, (size_t)wo + 1);
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
    /* tl and aoff[2] are whole numbers (header_int), aoff[2] inside frameArray */
    size_t t = (size_t)tl, nt = r->count[R_TIMELINE];
    if (tl > (double)nt || t + 5 > nt)
        return in_range(r, R_TIMELINE, tl, 5, what);
    uint32_t keys = u16(r, R_TIMELINE, t + 2);
    if (t + 5 + keys > nt)
        return in_range(r, R_TIMELINE, tl + 5, keys, what);
    size_t base = (size_t)aoff[2];
    for (uint32_t k = 0; k < keys; k++) {
        size_t f = base + u16(r, R_TIMELINE, t + 5 + k);
        if (f + 2 > r->count[R_FRAME])
            return in_range(r, R_FRAME, (double)f, 2, what);
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
        if (!cJSON_IsArray(e) || members(e) % 2) {
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

/* ---- building the model ------------------------------------------------------------------------- */

/* A mesh display met in a skin: where the model will have it, and what a deform timeline needs. */
typedef struct bmesh {
    size_t offset;             /* its entry in intArray */
    const char *slot, *name;
    uint32_t skin_entry;       /* header positions: the skin in the file's list, */
    uint32_t slot_entry;       /* the slot entry in that skin, */
    uint32_t display_entry;    /* the display in that entry (the model keeps all three orders) */
    int32_t vertex_count;
    bool weighted;
    size_t weights;            /* intArray: the weight block */
    int32_t bone_count;
    double influences;
    const cJSON *slot_pose, *bone_pose; /* from the header (sinew's writer keeps them), or NULL */
    double *pose_map;          /* with the poses: per weight bone the 2x2 map from its deform
                                  offsets to slot-space deltas (deform_weighted makes it) */
    double *inf_map;           /* without them: per influence the 2x2 map from its vertex's
                                  first influence's offsets to its own (fit_maps makes it) */
} bmesh;

/* An animation's timeline maps, taken out of the header before the JSON builder sees it and read
 * into the model after it has built the rest. */
typedef struct banim {
    const cJSON *zorder, *bone, *surface, *slot, *constraint;
    double aoff[3];            /* its offsets into frameIntArray, frameFloatArray, frameArray */
    double frame_count;        /* max(1, duration) */
} banim;

/* An armature's meshes and animations, in bctx.meshes and bctx.anims. */
typedef struct barm {
    size_t first_mesh, mesh_count, first_anim, anim_count;
} barm;

/* One timeline of an animation, in the order the model keeps them (see timeline_order). */
typedef struct tlref {
    const cJSON *entry;        /* the header map entry (its key names the target); NULL for zOrder */
    int type;                  /* the binary's timeline type (0 for zOrder) */
    size_t tl;                 /* timelineArray index */
} tlref;

typedef struct bctx {
    rctx *r;
    const sinew_allocator *allocator;
    bool nomem;
    /* the header pass: cJSON-shaped nodes in an arena (freed after the build) */
    sinew_arena nodes;
    const cJSON *actions;      /* the armature's `actions` (action frames index them) */
    uint32_t action_count;
    const cJSON **action_list; /* their members, by index */
    int32_t bone_count;        /* the armature's header bones */
    bmesh *meshes;
    size_t mesh_count, mesh_cap;
    banim *anims;
    size_t anim_count, anim_cap;
    barm *arms;
    size_t arm_count, arm_cap;
    /* the model pass (finish) */
    sinew_arena *arena;        /* the model's */
    sinew_model_armature *A;
    const barm *ba;            /* the armature being read */
    sinew_model_animation *N;
    const banim *an;
    size_t frame_base;         /* an->aoff[2]: its keys' offsets count from there */
    sinew_namemap bone_names, slot_names, ik_names; /* the armature's, in `nodes` */
    uint32_t *display_max;     /* per model slot: the most displays a skin gives it (in `nodes`) */
    uint32_t keys_used, curves_used;
    tlref *tls;
    size_t tl_count, tl_cap;
    double *span;
    size_t span_cap;
    const char *what_kind, *what_name; /* the timeline being read, for messages (what()) */
    char what_buf[300];
} bctx;

/* Grows *p (of *cap elements of `size`) to hold `need`; false when out of memory. */
static bool grow(bctx *B, void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = sinew__realloc(B->allocator, *p, *cap * size, n * size);
    if (!q) {
        B->nomem = true;
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

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

/* Takes member m out of object o. */
static void unlink_member(cJSON *o, cJSON *m) {
    if (m == o->child) {
        o->child = m->next;
        if (m->next)
            m->next->prev = m->prev;
    } else {
        m->prev->next = m->next;
        if (m->next)
            m->next->prev = m->prev;
        else
            o->child->prev = m->prev;
    }
    m->next = m->prev = NULL;
    if (o->valueint > 0)
        o->valueint--;
}

/* Takes the member `key` out of an object; returns it (NULL if absent). */
static cJSON *take(cJSON *obj, const char *key) {
    for (cJSON *m = obj->child; m; m = m->next)
        if (m->string && strcmp(m->string, key) == 0) {
            unlink_member(obj, m);
            return m;
        }
    return NULL;
}

static cJSON *member(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

static float f32(const rctx *r, int a, size_t i) {
    const unsigned char *p = r->b + r->start[a] + i * 4;
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static size_t at_byte(const rctx *r, int a, size_t i) { return r->start[a] + i * ELEM[a]; }

static bool not_finite(rctx *r, int a, size_t i) {
    bad(r, at_byte(r, a, i), SINEW_E_RANGE, "DBBin: %s[%zu] is not a finite number", ARRAY_NAME[a], i);
    return false;
}

/* Element i of float array a, which must be finite (NaN and infinities are refused where they
 * are read): false with the error at its byte otherwise. */
static inline bool fin(rctx *r, int a, size_t i, float *out) {
    float f = f32(r, a, i);
    *out = f;
    return isfinite(f) || not_finite(r, a, i);
}

/* A packed number array (SINEW_JSON_FLOATS, format/json_read.h) of n floats, which *out points at
 * for the caller to fill (NULL with the node when out of memory). */
static cJSON *float_node(bctx *B, size_t n, float **out) {
    cJSON *a = node(B, cJSON_Array | SINEW_JSON_FLOATS);
    float *f = n ? sinew__arena_array(&B->nodes, n, sizeof *f) : NULL;
    if (!a || (n && !f) || n > INT32_MAX) {
        B->nomem = true;
        *out = NULL;
        return NULL;
    }
    a->valueint = (int)n;
    a->valuestring = (char *)(void *)f;
    *out = f;
    return a;
}

/* A packed array of n numbers of array a from index first (in range, checked by the caller); NULL
 * after an error. */
static cJSON *numbers(bctx *B, int a, size_t first, size_t n) {
    float *f;
    cJSON *arr = float_node(B, n, &f);
    if (!f)
        return n ? NULL : arr;
    if (a == R_FLOAT || a == R_FRAME_FLOAT) {
        for (size_t i = 0; i < n; i++)
            if (!fin(B->r, a, first + i, &f[i]))
                return NULL;
    } else {
        for (size_t i = 0; i < n; i++)
            f[i] = (float)i16(B->r, a, first + i);
    }
    return arr;
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
static bool read_mesh(bctx *B, cJSON *d, bmesh *m) {
    rctx *r = B->r;
    const cJSON *nm = member(d, "name");
    m->name = cJSON_IsString(nm) ? nm->valuestring : "";
    cJSON *off = take(d, "offset");
    m->offset = (size_t)off->valuedouble; /* checked by check_mesh */
    if (member(d, "share") || member(d, "glueWeights") || member(d, "glueMeshes")) {
        bad(r, at_byte(r, R_INT, m->offset), SINEW_E_UNSUPPORTED, "DBBin mesh \"%s\": shared or glued meshes are not read",
            m->name);
        return false;
    }
    int32_t vc = i16(r, R_INT, m->offset), tc = i16(r, R_INT, m->offset + 1);
    size_t fo = u16(r, R_INT, m->offset + 2); /* wrapped as officially (check_mesh) */
    int32_t wo = i16(r, R_INT, m->offset + 3);
    m->vertex_count = vc;
    static const char *const drop[] = {"vertices", "uvs", "triangles", "weights", "bones"};
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
        take(d, drop[i]);
    cJSON *uvs = numbers(B, R_FLOAT, fo + (size_t)vc * 2, (size_t)vc * 2);
    cJSON *tri = uvs ? numbers(B, R_INT, m->offset + 4, (size_t)tc * 3) : NULL;
    cJSON *vert = tri ? numbers(B, R_FLOAT, fo, (size_t)vc * 2) : NULL;
    if (!vert)
        return false;
    put(d, "uvs", uvs);
    put(d, "triangles", tri);
    if (wo < 0) {
        put(d, "vertices", vert);
        return !B->nomem;
    }
    /* weighted (check_mesh checked the block): [bone count, float start, bones..., per vertex
       its count and list indices]; floatArray: weight, x, y per influence */
    m->weighted = true;
    m->weights = (size_t)wo;
    m->bone_count = i16(r, R_INT, (size_t)wo);
    size_t wf = u16(r, R_INT, (size_t)wo + 1);
    size_t list = (size_t)wo + 2, ib = list + (size_t)m->bone_count;
    const cJSON *sp = member(d, "slotPose"), *bp = member(d, "bonePose");
    bool poses = sp && bp;
    if (poses) {
        if (!pose_numbers(sp, 6) || !pose_numbers(bp, (size_t)m->bone_count * 7)) {
            bad(r, at_byte(r, R_INT, m->offset), SINEW_E_LAYOUT,
                "DBBin mesh \"%s\": its header slotPose/bonePose do not fit its %d weight bones", m->name, m->bone_count);
            return false;
        }
        /* the header's bonePose entries are the weight block's bones, in order */
        const cJSON *e = bp->child;
        for (int32_t i = 0; i < m->bone_count; i++) {
            if (e->valuedouble != (double)i16(r, R_INT, list + (size_t)i)) {
                bad(r, at_byte(r, R_INT, list + (size_t)i), SINEW_E_LAYOUT,
                    "DBBin mesh \"%s\": weight bone %d is not the header's bonePose entry %d", m->name, i, i);
                return false;
            }
            for (int k = 0; k < 7; k++)
                e = e->next;
        }
        m->slot_pose = sp;
        m->bone_pose = bp;
    } else {
        take(d, "slotPose");
        take(d, "bonePose");
    }
    size_t inf = 0;
    for (int32_t v = 0, at = 0; v < vc; v++) { /* the influences (check_mesh walked the block) */
        int32_t k = i16(r, R_INT, ib + (size_t)at);
        inf += (size_t)k;
        at += 1 + k;
    }
    /* weights [count, bone, weight, ...] per vertex; without poses, the bind positions in bone
       space per influence (the builder's layout 2, exact) */
    float *w, *locals = NULL;
    cJSON *wn = float_node(B, (size_t)vc + 2 * inf, &w), *ln = poses ? NULL : float_node(B, 2 * inf, &locals);
    if (!w || (!poses && !locals))
        return false;
    inf = 0;
    for (int32_t v = 0; v < vc; v++) {
        int32_t k = i16(r, R_INT, ib++);
        *w++ = (float)k;
        for (int32_t j = 0; j < k; j++, inf++) {
            int32_t bi = i16(r, R_INT, ib++);
            int32_t raw = i16(r, R_INT, list + (size_t)bi);
            if (raw < 0 || raw >= B->bone_count) {
                bad(r, at_byte(r, R_INT, list + (size_t)bi), SINEW_E_RANGE,
                    "DBBin mesh \"%s\": a weight on bone %d of the armature's %d", m->name, raw,
                    B->bone_count);
                return false;
            }
            *w++ = (float)raw;
            if (!fin(r, R_FLOAT, wf + inf * 3, w++) ||
                (locals && (!fin(r, R_FLOAT, wf + inf * 3 + 1, locals) || !fin(r, R_FLOAT, wf + inf * 3 + 2, locals + 1))))
                return false;
            if (locals)
                locals += 2;
        }
    }
    m->influences = (double)inf;
    put(d, "weights", wn);
    if (poses) {
        put(d, "vertices", vert);
    } else {
        put(d, "vertices", ln);
        put(d, "bones", numbers(B, R_INT, list, (size_t)m->bone_count));
    }
    return !B->nomem;
}

/* A mesh display's `type`, as the JSON builder tells it: "mesh" or 2. */
static bool is_mesh(const cJSON *t) {
    return cJSON_IsNumber(t) ? t->valuedouble == 2 : cJSON_IsString(t) && strcmp(t->valuestring, "mesh") == 0;
}

static bool read_skins(bctx *B, cJSON *arm) {
    const cJSON *skins = member(arm, "skin");
    uint32_t si = 0;
    for (cJSON *s = cJSON_IsArray(skins) ? skins->child : NULL; s; s = s->next, si++) {
        const cJSON *slots = member(s, "slot");
        uint32_t sj = 0;
        for (cJSON *sl = cJSON_IsArray(slots) ? slots->child : NULL; sl; sl = sl->next, sj++) {
            const cJSON *sln = member(sl, "name");
            const cJSON *ds = member(sl, "display");
            uint32_t dk = 0;
            for (cJSON *d = cJSON_IsArray(ds) ? ds->child : NULL; d; d = d->next, dk++) {
                const cJSON *t = member(d, "type");
                if ((cJSON_IsString(t) && strcmp(t->valuestring, "path") == 0) ||
                    (cJSON_IsNumber(t) && t->valuedouble == 4)) {
                    bad(B->r, 12, SINEW_E_UNSUPPORTED, "DBBin: path displays are not read");
                    return false;
                }
                /* the official parser reads `offset` on mesh displays only (and paths, above); a
                   bounding box's (the 5.0 exporter writes one on polygons) is not read, and the
                   polygon stays without vertices, as the builder then warns */
                if (!is_mesh(t)) {
                    take(d, "offset");
                    continue;
                }
                if (!member(d, "offset"))
                    continue;
                if (!grow(B, (void **)&B->meshes, &B->mesh_cap, B->mesh_count + 1, sizeof *B->meshes))
                    return false;
                bmesh *m = &B->meshes[B->mesh_count];
                memset(m, 0, sizeof *m);
                m->slot = cJSON_IsString(sln) ? sln->valuestring : "";
                m->skin_entry = si;
                m->slot_entry = sj;
                m->display_entry = dk;
                if (!check_mesh(B->r, d) || !read_mesh(B, d, m))
                    return false;
                B->mesh_count++;
            }
        }
    }
    return true;
}

/* The action timeline -> the animation's `frame` list, each key with its actions (the JSON
 * builder merges them as it does a JSON file's). */
static bool action_frames(bctx *B, cJSON *anim, double tl, const banim *an) {
    rctx *r = B->r;
    size_t t = (size_t)tl;
    uint32_t keys = u16(r, R_TIMELINE, t + 2);
    cJSON *list = node(B, cJSON_Array);
    double prev = -1;
    for (uint32_t k = 0; list && k < keys; k++) {
        size_t fo = (size_t)an->aoff[2] + u16(r, R_TIMELINE, t + 5 + k);
        double s = keys == 1 ? 0 : i16(r, R_FRAME, fo);
        double next = k + 1 < keys ? i16(r, R_FRAME, (size_t)an->aoff[2] + u16(r, R_TIMELINE, t + 6 + k)) : an->frame_count;
        if (!(s > prev) || (k == 0 && s != 0) || s > an->frame_count) {
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
        put(f, "duration", num_node(B, k + 1 < keys ? next - s : 0));
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

/* The header pass over an animation, in one walk over its members: its offsets, action and
 * zOrder timelines and timeline maps are checked against the arrays; its action frames go back
 * into the header; its timeline maps come out (banim) for the model pass, and so does every
 * other timeline key, which the JSON builder must not read. */
static bool header_animation(bctx *B, cJSON *a) {
    rctx *r = B->r;
    if (!grow(B, (void **)&B->anims, &B->anim_cap, B->anim_count + 1, sizeof *B->anims))
        return false;
    banim *an = &B->anims[B->anim_count++];
    memset(an, 0, sizeof *an);
    const cJSON *offset = NULL, *dur = NULL, *action = NULL, *zorder = NULL, *child_map = NULL;
    for (cJSON *m = a->child, *next; m; m = next) {
        next = m->next;
        const char *k = m->string ? m->string : "";
        const cJSON **into = NULL;
        bool drop = false;
        switch (k[0]) {
        case 'a':
            into = strcmp(k, "action") == 0 ? &action : strcmp(k, "animation") == 0 ? &child_map : NULL;
            break;
        case 'b':
            into = strcmp(k, "bone") == 0 ? &an->bone : NULL;
            break;
        case 'c':
            into = strcmp(k, "constraint") == 0 ? &an->constraint : NULL;
            break;
        case 'd':
            if (strcmp(k, "duration") == 0)
                dur = m;
            break;
        case 'f':
            drop = strcmp(k, "frame") == 0 || strcmp(k, "ffd") == 0;
            break;
        case 'i':
            drop = strcmp(k, "ik") == 0;
            break;
        case 'o':
            into = strcmp(k, "offset") == 0 ? &offset : NULL;
            break;
        case 's':
            into = strcmp(k, "slot") == 0 ? &an->slot : strcmp(k, "surface") == 0 ? &an->surface : NULL;
            break;
        case 't':
            drop = strcmp(k, "timeline") == 0;
            break;
        case 'z':
            into = strcmp(k, "zOrder") == 0 ? &zorder : NULL;
            break;
        }
        if (into)
            *into = m;
        if (into || drop)
            unlink_member(a, m);
    }
    if (!cJSON_IsArray(offset) || members(offset) != 3) {
        bad(r, 12, SINEW_E_LAYOUT, "DBBin header: an animation without its 3 array offsets");
        return false;
    }
    static const int arr[3] = {R_FRAME_INT, R_FRAME_FLOAT, R_FRAME};
    const cJSON *o = offset->child;
    for (int i = 0; i < 3; i++, o = o->next)
        if (!header_int(r, o, &an->aoff[i], "an animation offset") ||
            !in_range(r, arr[i], an->aoff[i], 0, "an animation"))
            return false;
    double fc = cJSON_IsNumber(dur) ? dur->valuedouble : 1;
    if (!(fc == floor(fc)) || fc > 32767) {
        bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: an animation of %g frames (not a whole number below 32768)", fc);
        return false;
    }
    an->frame_count = fc > 1 ? fc : 1;
    double tl;
    if ((action && (!header_int(r, action, &tl, "action") || !check_timeline(r, tl, an->aoff, "action"))) ||
        (zorder && (!header_int(r, zorder, &tl, "zOrder") || !check_timeline(r, tl, an->aoff, "zOrder"))))
        return false;
    an->zorder = zorder;
    if (!check_timeline_map(r, an->bone, an->aoff, "bone") || !check_timeline_map(r, an->surface, an->aoff, "surface") ||
        !check_timeline_map(r, an->slot, an->aoff, "slot") ||
        !check_timeline_map(r, an->constraint, an->aoff, "constraint") ||
        !check_timeline_map(r, child_map, an->aoff, "animation"))
        return false;
    return !action || action_frames(B, a, action->valuedouble, an);
}

static bool header_armature(bctx *B, cJSON *arm) {
    rctx *r = B->r;
    if (member(arm, "path")) {
        bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: path constraints are not read");
        return false;
    }
    if (!grow(B, (void **)&B->arms, &B->arm_cap, B->arm_count + 1, sizeof *B->arms))
        return false;
    barm *ba = &B->arms[B->arm_count++];
    ba->first_mesh = B->mesh_count;
    ba->first_anim = B->anim_count;
    B->actions = take(arm, "actions");
    if (!cJSON_IsArray(B->actions))
        B->actions = NULL;
    /* its bone count (mesh weights name bones) and its actions by index (action frames name them) */
    const cJSON *bones = member(arm, "bone");
    B->bone_count = cJSON_IsArray(bones) ? cJSON_GetArraySize(bones) : 0;
    uint32_t na = 0;
    for (const cJSON *e = B->actions ? B->actions->child : NULL; e; e = e->next)
        na++;
    sinew__free(B->allocator, B->action_list, (B->action_count ? B->action_count : 1) * sizeof *B->action_list);
    B->action_count = na;
    B->action_list = sinew__calloc(B->allocator, na ? na : 1, sizeof *B->action_list);
    if (!B->action_list) {
        B->action_count = 0;
        B->nomem = true;
        return false;
    }
    na = 0;
    for (const cJSON *e = B->actions ? B->actions->child : NULL; e; e = e->next)
        B->action_list[na++] = e;
    if (!read_skins(B, arm))
        return false;
    const cJSON *anims = member(arm, "animation");
    for (cJSON *a = cJSON_IsArray(anims) ? anims->child : NULL; a; a = a->next)
        if (!header_animation(B, a))
            return false;
    ba->mesh_count = B->mesh_count - ba->first_mesh;
    ba->anim_count = B->anim_count - ba->first_anim;
    return true;
}

/* ---- the model pass: timelines straight from the arrays --------------------------------------- */

static const char *what(bctx *B) {
    snprintf(B->what_buf, sizeof B->what_buf, "%s%s%.200s%s", B->what_kind, B->what_name ? " \"" : "",
             B->what_name ? B->what_name : "", B->what_name ? "\"" : "");
    return B->what_buf;
}

/* [first, first + n) inside array a, for the timeline being read. */
static bool in_range_tl(bctx *B, int a, double first, double n) {
    if (first >= 0 && n >= 0 && first + n <= (double)B->r->count[a])
        return true;
    return in_range(B->r, a, first, n, what(B));
}

/* n elements of `size` in the model's arena, zeroed or not (NULL for n = 0; *ok false on
 * failure). */
static void *model_array(bctx *B, size_t n, size_t size, bool zero, bool *ok) {
    *ok = true;
    if (n == 0)
        return NULL;
    void *p = zero ? sinew__arena_array(B->arena, n, size) : sinew__arena_array_uninit(B->arena, n, size);
    if (!p) {
        *ok = false;
        if (sinew__arena_over_limit(B->arena, n, size))
            sinew__fail_at(B->r->err, SINEW_E_LIMIT, B->r->file, 0, 0, NULL,
                           "the model needs more than %zu bytes (limits.max_memory_bytes)", B->arena->limit);
        else
            B->nomem = true;
    }
    return p;
}

typedef struct tl_info {
    size_t tl;                 /* timelineArray index */
    uint32_t keys;
    uint32_t value_count;      /* timelineArray [3] */
    uint32_t value_start;      /* timelineArray [4] */
} tl_info;

/* The timelineArray header at tl (check_timeline checked it and the key offsets). */
static tl_info tl_at(const bctx *B, size_t tl) {
    tl_info t;
    t.tl = tl;
    t.keys = u16(B->r, R_TIMELINE, tl + 2);
    t.value_count = u16(B->r, R_TIMELINE, tl + 3);
    t.value_start = u16(B->r, R_TIMELINE, tl + 4);
    return t;
}

static size_t key_frame(const bctx *B, const tl_info *t, uint32_t k) {
    return B->frame_base + u16(B->r, R_TIMELINE, t->tl + 5 + k);
}

/* Checks the keys' starts (0, then increasing inside the animation) and gives key k's length on
 * the frame grid, as the official reader lays them. */
static bool key_spans(bctx *B, const tl_info *t, double *span) {
    rctx *r = B->r;
    double fc = B->an->frame_count;
    uint32_t n = t->keys;
    double s = i16(r, R_FRAME, key_frame(B, t, 0));
    for (uint32_t k = 0; k < n; k++) {
        double next = k + 1 < n ? i16(r, R_FRAME, key_frame(B, t, k + 1)) : fc;
        if ((k == 0 && s != 0) || (k + 1 < n && !(s < next)) || (n > 1 && s > fc)) {
            bad(r, at_byte(r, R_FRAME, key_frame(B, t, k)), SINEW_E_LAYOUT,
                "DBBin %s: key %u starts at frame %.0f (keys must start at 0 and increase inside the animation's "
                "%.0f frames)",
                what(B), k, s, fc);
            return false;
        }
        span[k] = n == 1 ? fc : next - s;
        s = next;
    }
    return true;
}

/* A tweened key's tween from its frameArray entry [start, tween, strength | sample count,
 * samples...]: none, linear, the binary's own easing samples, or quad in/out/in-out with the
 * strength x100 (read back through the tweenEasing it stands for, as a JSON key is). */
static bool key_tween(bctx *B, const tl_info *t, size_t fo, double span, sinew_model_keyframe *key) {
    rctx *r = B->r; /* [fo, fo + 2) is inside frameArray (check_timeline) */
    int32_t tw = i16(r, R_FRAME, fo + 1);
    if (tw == 0 || t->keys == 1 || tw == 1) {
        sinew__tween_from_easing(tw == 1 && t->keys > 1 ? 0.0 : NAN, key);
        return true;
    }
    if (tw < 0 || tw > 5 || !in_range_tl(B, R_FRAME, (double)fo + 2, 1)) {
        if (tw < 0 || tw > 5)
            bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_UNSUPPORTED, "DBBin %s: tween type %d is not read", what(B), tw);
        return false;
    }
    int32_t v = i16(r, R_FRAME, fo + 2);
    if (tw == 2) {
        if (!in_range_tl(B, R_FRAME, (double)fo + 3, v))
            return false;
        if ((double)v != span + 1) {
            bad(r, at_byte(r, R_FRAME, fo + 2), SINEW_E_LAYOUT,
                "DBBin %s: a curve of %d samples on a key of %.0f frames (needs %.0f)", what(B), v, span, span + 1);
            return false;
        }
        sinew_model_animation *N = B->N;
        if (B->curves_used + (uint32_t)v > N->curve_count) { /* counted by count_animation */
            bad(r, at_byte(r, R_FRAME, fo + 2), SINEW_E_LAYOUT, "DBBin %s: internal: curve pool overflow", what(B));
            return false;
        }
        float *c = N->curves + B->curves_used;
        for (int32_t i = 0; i < v; i++)
            c[i] = (float)i16(r, R_FRAME, fo + 3 + (size_t)i);
        sinew__tween_from_easing(NAN, key);
        key->tween = SINEW_TWEEN_CURVE;
        key->curve_sampled = 1;
        key->curve_first = B->curves_used;
        key->curve_count = (uint32_t)v;
        B->curves_used += (uint32_t)v;
        return true;
    }
    if (v < 0 || (tw == 4 && v > 100)) {
        bad(r, at_byte(r, R_FRAME, fo + 2), SINEW_E_UNSUPPORTED, "DBBin %s: tween %d with strength %d is not read",
            what(B), tw, v);
        return false;
    }
    sinew__tween_from_easing(tw == 3 ? -v / 100.0 : tw == 4 ? v / 100.0 : 1.0 + (v + 0.25) / 100.0, key);
    return true;
}

enum { V_FLOAT, V_COLOR, V_IK, V_DISPLAY, V_ZORDER, V_DEFORM };

/* Where a deform (or surface) timeline's values are in frameFloatArray. Its header in
 * frameIntArray says: `count` values, of which the keys hold `vc` from value `vo` on (from the
 * timeline's value start, `vc` per key); the others, the same in every key, are at `cbase`:
 * values 0..vo-1 there, then values vo+vc.. from cbase+vo on (the official DeformTimelineState
 * reads them so). The JSON parser writes all values into the keys (vo 0, vc = count); the 5.5/5.6
 * exporters keep only the range that changes. */
typedef struct deform_src {
    size_t kbase, vo, vc;
    ptrdiff_t cbase;
} deform_src;

/* The frameFloatArray index of value i of key k (read_timeline checked both blocks). */
static size_t deform_at(const deform_src *D, size_t k, size_t i) {
    if (i < D->vo)
        return (size_t)D->cbase + i;
    if (i < D->vo + D->vc)
        return D->kbase + k * D->vc + (i - D->vo);
    return (size_t)D->cbase + i - D->vc;
}

/* The deform_src of a deform (or surface) timeline t of animation an, n values per key, from its
 * header in frameIntArray. `report`: an error at the byte of what is wrong; else false quietly
 * (fit_maps looks at a mesh's timelines before read_timeline reads, and reports on, each). */
static bool deform_header(bctx *B, const banim *an, const tl_info *t, uint32_t n, deform_src *D, bool report) {
    rctx *r = B->r;
    size_t h = (size_t)an->aoff[0] + t->value_count;
    if (h + 5 > r->count[R_FRAME_INT])
        return report && in_range_tl(B, R_FRAME_INT, (double)h, 5);
    int32_t count = i16(r, R_FRAME_INT, h + 1), vc = i16(r, R_FRAME_INT, h + 2), vo = i16(r, R_FRAME_INT, h + 3);
    if (count != (int32_t)n) {
        if (report)
            bad(r, at_byte(r, R_FRAME_INT, h + 1), SINEW_E_LAYOUT, "DBBin %s: %d values per key (expected %u)",
                what(B), count, n);
        return false;
    }
    if (vc < 0 || vo < 0 || vo + vc > count) {
        if (report)
            bad(r, at_byte(r, R_FRAME_INT, h + 2), SINEW_E_LAYOUT, "DBBin %s: keys with values %d..%d of %d", what(B),
                vo, vo + vc - 1, count);
        return false;
    }
    *D = (deform_src){(size_t)an->aoff[1] + t->value_start, (size_t)vo, (size_t)vc,
                      (ptrdiff_t)an->aoff[1] + i16(r, R_FRAME_INT, h + 4)};
    if (D->kbase + (size_t)t->keys * D->vc > r->count[R_FRAME_FLOAT])
        return report && in_range_tl(B, R_FRAME_FLOAT, (double)D->kbase, (double)t->keys * vc);
    if (vc < count && D->cbase < 0) {
        if (report)
            bad(r, at_byte(r, R_FRAME_INT, h + 4), SINEW_E_LAYOUT,
                "DBBin %s: the values its keys leave out start before frameFloatArray", what(B));
        return false;
    }
    if (vc < count && (size_t)D->cbase + (size_t)(count - vc) > r->count[R_FRAME_FLOAT])
        return report && in_range_tl(B, R_FRAME_FLOAT, (double)D->cbase, (double)(count - vc));
    return true;
}

/* Without the header's poses (another tool's binary: the official exporters keep none), the
 * offsets of a vertex's influences are one slot-space delta mapped into each bone's space by a
 * 2x2 map nobody wrote down. sinew's model keeps one delta per vertex and a map per influence,
 * and plays the same offsets with any maps that give them, as every step between them (tweens,
 * fades, layers) is linear: the delta is the first influence's offsets (map: the identity), and
 * every other influence's map is fitted over every key of every deform timeline of the mesh in
 * the armature: the identity when it gives them, else the least-squares map from the first
 * influence's offsets (exact when these span the plane, the rank-one map when they lie on a
 * line). deform_weighted then checks every key against the maps. The maps go into the model
 * mesh `M` (influence_deform). */
static bool fit_maps(bctx *B, bmesh *mesh, sinew_model_mesh *M) {
    rctx *r = B->r;
    size_t ni = (size_t)mesh->influences, nv = (size_t)mesh->vertex_count;
    /* per vertex: sum of d0 d0^T (xx, xy, yy); per influence: sum of d d0^T (4), the largest
       |d - d0| (is the identity enough?) */
    double *S = sinew__arena_array(&B->nodes, 3 * nv + 1, sizeof *S);
    double *C = sinew__arena_array(&B->nodes, 5 * ni + 1, sizeof *C);
    mesh->inf_map = sinew__arena_array(&B->nodes, 4 * ni + 1, sizeof *mesh->inf_map);
    if (!S || !C || !mesh->inf_map || M->influence_count != ni) {
        if (M->influence_count == ni)
            B->nomem = true;
        else
            bad(B->r, at_byte(B->r, R_INT, mesh->offset), SINEW_E_LAYOUT, "DBBin mesh \"%s\": internal: %u influences "
                "in the model, %zu in the binary", mesh->name, M->influence_count, ni);
        return false;
    }
    for (size_t a = 0; a < B->ba->anim_count; a++) {
        const banim *an = &B->anims[B->ba->first_anim + a];
        const cJSON *g = an->slot ? member(an->slot, mesh->slot) : NULL;
        for (const cJSON *e = g ? g->child : NULL; e && e->next; e = e->next->next) {
            deform_src D;
            tl_info t = tl_at(B, (size_t)e->next->valuedouble); /* checked by check_timeline_map */
            if (e->valuedouble != 22 || !deform_header(B, an, &t, (uint32_t)(2 * ni), &D, false) ||
                u16(r, R_FRAME_INT, (size_t)an->aoff[0] + t.value_count) != mesh->offset)
                continue; /* not this mesh's, or read_timeline reports it */
            for (uint32_t k = 0; k < t.keys; k++) {
                size_t ib = mesh->weights + 2 + (size_t)mesh->bone_count, q = 0, inf = 0;
                for (size_t v = 0; v < nv; v++) {
                    int32_t kc = i16(r, R_INT, ib);
                    ib += 1 + (size_t)kc;
                    float fx0, fy0;
                    if (!fin(r, R_FRAME_FLOAT, deform_at(&D, k, q), &fx0) || !fin(r, R_FRAME_FLOAT, deform_at(&D, k, q + 1), &fy0))
                        return false;
                    double x0 = fx0, y0 = fy0;
                    S[3 * v] += x0 * x0;
                    S[3 * v + 1] += x0 * y0;
                    S[3 * v + 2] += y0 * y0;
                    for (int32_t j = 0; j < kc; j++, q += 2, inf++) {
                        float fx, fy;
                        if (!fin(r, R_FRAME_FLOAT, deform_at(&D, k, q), &fx) || !fin(r, R_FRAME_FLOAT, deform_at(&D, k, q + 1), &fy))
                            return false;
                        double x = fx, y = fy;
                        double *c = C + 5 * inf;
                        c[0] += x * x0; /* row x: (x x0, x y0); row y: (y x0, y y0) */
                        c[1] += x * y0;
                        c[2] += y * x0;
                        c[3] += y * y0;
                        double dev = fmax(fabs(x - x0) / (1 + fabs(x0)), fabs(y - y0) / (1 + fabs(y0)));
                        c[4] = fmax(c[4], dev);
                    }
                }
            }
        }
    }
    const uint32_t *first = M->vertex_first_influence;
    for (size_t v = 0; v < nv; v++) {
        const double *sv = S + 3 * v;
        double det = sv[0] * sv[2] - sv[1] * sv[1], tr = sv[0] + sv[2];
        for (uint32_t i = first[v]; i < first[v + 1]; i++) {
            const double *c = C + 5 * (size_t)i;
            double *m = mesh->inf_map + 4 * (size_t)i; /* row-major: x from (x0, y0), y from (x0, y0) */
            if (i == first[v] || c[4] <= 1e-6 || !(tr > 0)) {
                m[0] = m[3] = 1; /* the identity (a vertex without offsets: deform_weighted checks) */
                m[1] = m[2] = 0;
            } else if (det > 1e-9 * sv[0] * sv[2]) { /* C S^-1 */
                m[0] = (c[0] * sv[2] - c[1] * sv[1]) / det;
                m[1] = (c[1] * sv[0] - c[0] * sv[1]) / det;
                m[2] = (c[2] * sv[2] - c[3] * sv[1]) / det;
                m[3] = (c[3] * sv[0] - c[2] * sv[1]) / det;
            } else { /* the offsets on one line u: C / tr = w u^T */
                for (int q = 0; q < 4; q++)
                    m[q] = c[q] / tr;
            }
            float *f = M->influence_deform + 4 * (size_t)i; /* [a b c d]: x = a dx + c dy, y = b dx + d dy */
            f[0] = (float)m[0];
            f[1] = (float)m[2];
            f[2] = (float)m[1];
            f[3] = (float)m[3];
        }
    }
    return true;
}

/* Weighted mesh deform: per influence bone-space offsets -> one delta per vertex (values from D,
 * key k). With the header's poses the delta is in slot space: the binary holds
 * inverse(bonePose.linear) . slotPose.linear . delta per influence, so delta = P . offset with P =
 * inverse(slotPose.linear) . bonePose.linear, per weight bone. Without them it is the first
 * influence's offsets and the others are its image through fit_maps's maps. Every influence of a
 * vertex must agree. */
static bool deform_weighted(bctx *B, bmesh *mesh, sinew_model_mesh *M, const deform_src *D, size_t k, float *v) {
    rctx *r = B->r;
    if (!mesh->bone_pose && !mesh->inf_map && !fit_maps(B, mesh, M))
        return false;
    if (mesh->bone_pose && !mesh->pose_map) {
        double sp[4];
        const cJSON *e = mesh->slot_pose->child;
        for (int i = 0; i < 4; i++, e = e->next)
            sp[i] = e->valuedouble;
        double det = sp[0] * sp[3] - sp[1] * sp[2];
        if (!(fabs(det) > 1e-12)) {
            bad(r, 12, SINEW_E_RANGE, "DBBin mesh \"%s\": its slotPose is not invertible", mesh->name);
            return false;
        }
        mesh->pose_map = sinew__arena_array(&B->nodes, (size_t)mesh->bone_count * 4 + 1, sizeof *mesh->pose_map);
        if (!mesh->pose_map) {
            B->nomem = true;
            return false;
        }
        e = mesh->bone_pose->child; /* [bone, a, b, c, d, tx, ty] per weight bone (read_mesh checked) */
        for (int32_t b = 0; b < mesh->bone_count; b++) {
            double p[4];
            e = e->next;
            for (int i = 0; i < 4; i++, e = e->next)
                p[i] = e->valuedouble;
            e = e->next->next;
            double *m = mesh->pose_map + 4 * b;
            m[0] = (sp[3] * p[0] - sp[2] * p[1]) / det; /* x from offset x */
            m[1] = (sp[3] * p[2] - sp[2] * p[3]) / det; /* x from offset y */
            m[2] = (sp[0] * p[1] - sp[1] * p[0]) / det; /* y from offset x */
            m[3] = (sp[0] * p[3] - sp[1] * p[2]) / det; /* y from offset y */
        }
    }
    size_t ib = mesh->weights + 2 + (size_t)mesh->bone_count, q = 0, inf = 0;
    for (int32_t vi = 0; vi < mesh->vertex_count; vi++) {
        int32_t kc = i16(r, R_INT, ib++);
        double dx = 0, dy = 0;
        for (int32_t j = 0; j < kc; j++, q += 2, inf++) {
            int32_t bi = i16(r, R_INT, ib++);
            float fx, fy;
            if (!fin(r, R_FRAME_FLOAT, deform_at(D, k, q), &fx) || !fin(r, R_FRAME_FLOAT, deform_at(D, k, q + 1), &fy))
                return false;
            double qx = fx, qy = fy, x = qx, y = qy, ex = dx, ey = dy;
            if (mesh->pose_map) { /* this influence's offsets to slot space: the same delta */
                const double *m = mesh->pose_map + 4 * bi;
                x = m[0] * qx + m[1] * qy;
                y = m[2] * qx + m[3] * qy;
            } else if (j > 0) { /* the first influence's offsets to this one's: these offsets */
                const double *m = mesh->inf_map + 4 * inf;
                ex = m[0] * dx + m[1] * dy;
                ey = m[2] * dx + m[3] * dy;
            }
            if (j == 0) {
                dx = x;
                dy = y;
            } else if (fabs(x - ex) > 1e-3 * (1 + fabs(ex)) || fabs(y - ey) > 1e-3 * (1 + fabs(ey))) {
                bad(r, at_byte(r, R_FRAME_FLOAT, deform_at(D, k, q)), SINEW_E_UNSUPPORTED,
                    "DBBin deform of mesh \"%s\": vertex %d has offsets that differ between its bones in a way "
                    "sinew's per-vertex deform cannot hold%s",
                    mesh->name, vi, mesh->bone_pose ? "" : " (the header has no slotPose/bonePose)");
                return false;
            }
        }
        v[2 * vi] = (float)dx;
        v[2 * vi + 1] = (float)dy;
    }
    return true;
}

/* Reads one timeline into T (whose type, target, skin, display, mesh and values_per_key the caller
 * set): its scale and offset (`own_scale`; else 1 and 0), its keys at the animation's next free
 * key, n values per key of kind vk in the binary. */
static bool read_timeline(bctx *B, const tl_info *t, uint32_t n, int vk, bmesh *mesh, bool own_scale,
                          sinew_model_timeline *T) {
    rctx *r = B->r;
    sinew_model_animation *N = B->N;
    if (t->keys == 0) {
        bad(r, at_byte(r, R_TIMELINE, t->tl + 2), SINEW_E_LAYOUT, "DBBin %s: a timeline without keys", what(B));
        return false;
    }
    T->scale = 1.0f;
    if (own_scale) {
        uint32_t sc = u16(r, R_TIMELINE, t->tl);
        if (sc == 0) {
            bad(r, at_byte(r, R_TIMELINE, t->tl), SINEW_E_RANGE, "DBBin: a timeline of scale 0");
            return false;
        }
        T->scale = (float)(sc / 100.0);
        T->offset = (float)((int16_t)u16(r, R_TIMELINE, t->tl + 1) / 100.0);
    }
    if (!grow(B, (void **)&B->span, &B->span_cap, t->keys, sizeof *B->span) || !key_spans(B, t, B->span))
        return false;
    size_t base = 0;
    deform_src D = {0, 0, 0, 0};
    int fa = vk == V_COLOR || vk == V_IK ? R_FRAME_INT : R_FRAME_FLOAT;
    if (vk == V_FLOAT || vk == V_COLOR || vk == V_IK) {
        uint32_t want = vk == V_COLOR ? 1 : n;
        if (t->value_count != want) {
            bad(r, at_byte(r, R_TIMELINE, t->tl + 3), SINEW_E_LAYOUT, "DBBin %s: %u values per key (expected %u)", what(B),
                t->value_count, want);
            return false;
        }
        base = (size_t)B->an->aoff[fa == R_FRAME_INT ? 0 : 1] + t->value_start;
        if (!in_range_tl(B, fa, (double)base, (double)t->keys * want))
            return false;
    } else if (vk == V_DEFORM && !deform_header(B, B->an, t, n, &D, true)) {
        return false;
    }
    if (B->keys_used + t->keys > N->key_count) { /* counted by count_animation */
        bad(r, at_byte(r, R_TIMELINE, t->tl + 2), SINEW_E_LAYOUT, "DBBin %s: internal: key pool overflow", what(B));
        return false;
    }
    uint32_t vpk = T->values_per_key;
    bool ok;
    T->values = model_array(B, (size_t)t->keys * vpk, sizeof *T->values, false, &ok); /* written whole below */
    if (!ok)
        return false;
    T->first_key = B->keys_used;
    T->key_count = t->keys;
    T->rotation_unwrapped = true; /* the binary's rotations are the parser's, unwrapped */
    B->keys_used += t->keys;
    sinew_model_keyframe *K = N->keys + T->first_key;
    float pos = 0.0f;
    for (uint32_t k = 0; k < t->keys; k++) {
        sinew_model_keyframe *key = &K[k];
        size_t fo = key_frame(B, t, k);
        *key = (sinew_model_keyframe){.position = pos, .duration = (float)B->span[k], .value = k * vpk, .hide = -1};
        pos += (float)B->span[k];
        if (vk == V_DISPLAY || vk == V_ZORDER)
            sinew__tween_from_easing(NAN, key);
        else if (!key_tween(B, t, fo, B->span[k], key))
            return false;
        float *v = T->values + (size_t)k * vpk;
        switch (vk) {
        case V_FLOAT:
            for (uint32_t i = 0; i < n; i++)
                if (!fin(r, R_FRAME_FLOAT, base + (size_t)k * n + i, &v[i]))
                    return false;
            break;
        case V_COLOR: {
            /* an int16 that wraps past 32767: the official colour timeline adds 65536 */
            int32_t co = (int32_t)u16(r, R_FRAME_INT, base + k);
            if (!in_range_tl(B, R_INT, co, 8))
                return false;
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
        case V_DISPLAY: { /* [fo, fo + 2) is inside frameArray (check_timeline) */
            v[0] = (float)i16(r, R_FRAME, fo + 1);
            /* -1 (hidden) or one of the slot's displays (0 for a slot without any), as for JSON */
            uint32_t max = B->display_max[T->target];
            if (!(v[0] >= -1 && (v[0] < (float)max || (max == 0 && v[0] == 0)))) {
                bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_RANGE, "DBBin %s: display index %.0f of %u displays",
                    what(B), (double)v[0], max);
                return false;
            }
            break;
        }
        case V_ZORDER: {
            int32_t zn = i16(r, R_FRAME, fo + 1);
            for (uint32_t i = 0; i < n; i++)
                v[i] = (float)i;
            if (zn == 0)
                break;
            if ((uint32_t)zn != n || !in_range_tl(B, R_FRAME, (double)fo + 2, n)) {
                if ((uint32_t)zn != n)
                    bad(r, at_byte(r, R_FRAME, fo + 1), SINEW_E_LAYOUT,
                        "DBBin %s: a draw order of %d slots (the armature has %u)", what(B), zn, n);
                return false;
            }
            for (uint32_t i = 0; i < n; i++) {
                int32_t sl = i16(r, R_FRAME, fo + 2 + i);
                if (sl < 0 || (uint32_t)sl >= n) {
                    bad(r, at_byte(r, R_FRAME, fo + 2 + i), SINEW_E_RANGE, "DBBin %s: slot %d in a draw order of %u",
                        what(B), sl, n);
                    return false;
                }
                v[i] = (float)sl;
            }
            break;
        }
        case V_DEFORM: {
            if (mesh && mesh->weighted) {
                if (!deform_weighted(B, mesh, &B->A->meshes[T->mesh], &D, k, v))
                    return false;
            } else {
                for (uint32_t i = 0; i < n; i++)
                    if (!fin(r, R_FRAME_FLOAT, deform_at(&D, k, i), &v[i]))
                        return false;
            }
            break;
        }
        }
    }
    return true;
}

/* Appends a timeline reference; false when out of memory. */
static inline bool push_tl(bctx *B, const cJSON *entry, int type, double off) {
    if (B->tl_count == B->tl_cap && !grow(B, (void **)&B->tls, &B->tl_cap, B->tl_count + 1, sizeof *B->tls))
        return false;
    B->tls[B->tl_count++] = (tlref){entry, type, (size_t)off};
    return true;
}

static bool unknown_type(bctx *B, const char *kind, const cJSON *g, int type, double off) {
    B->what_kind = kind;
    B->what_name = g->string;
    bad(B->r, at_byte(B->r, R_TIMELINE, (size_t)off), SINEW_E_UNSUPPORTED, "DBBin %s: timeline type %d is not read",
        what(B), type);
    return false;
}

/* The animation's timelines in the order the JSON builder keeps a JSON file's: the zOrder
 * timeline; per bone translate, rotate, scale and 4.x all-in-one; surfaces; per slot display and
 * colour; deforms; IK. (The maps hold type/offset pairs, check_timeline_map checked them.) */
static bool timeline_order(bctx *B, const banim *an) {
    B->tl_count = 0;
    if (an->zorder && !push_tl(B, NULL, 0, an->zorder->valuedouble))
        return false;
    static const int bone_types[] = {11, 12, 13, 10};
    for (const cJSON *g = an->bone ? an->bone->child : NULL; g; g = g->next) {
        for (const cJSON *e = g->child; e && e->next; e = e->next->next)
            if (e->valuedouble < 10 || e->valuedouble > 13)
                return unknown_type(B, "bone timeline", g, (int)e->valuedouble, e->next->valuedouble);
        for (int i = 0; i < 4; i++)
            for (const cJSON *e = g->child; e && e->next; e = e->next->next)
                if (e->valuedouble == bone_types[i] && !push_tl(B, g, bone_types[i], e->next->valuedouble))
                    return false;
    }
    for (const cJSON *g = an->surface ? an->surface->child : NULL; g; g = g->next)
        for (const cJSON *e = g->child; e && e->next; e = e->next->next)
            if (e->valuedouble != 50)
                return unknown_type(B, "surface timeline", g, (int)e->valuedouble, e->next->valuedouble);
            else if (!push_tl(B, g, 50, e->next->valuedouble))
                return false;
    size_t deforms = 0;
    for (const cJSON *g = an->slot ? an->slot->child : NULL; g; g = g->next) {
        for (const cJSON *e = g->child; e && e->next; e = e->next->next)
            if (e->valuedouble < 20 || e->valuedouble > 22)
                return unknown_type(B, "slot timeline", g, (int)e->valuedouble, e->next->valuedouble);
            else if (e->valuedouble == 22)
                deforms++;
        for (int type = 20; type <= 21; type++)
            for (const cJSON *e = g->child; e && e->next; e = e->next->next)
                if (e->valuedouble == type && !push_tl(B, g, type, e->next->valuedouble))
                    return false;
    }
    for (const cJSON *g = deforms && an->slot ? an->slot->child : NULL; g; g = g->next)
        for (const cJSON *e = g->child; e && e->next; e = e->next->next)
            if (e->valuedouble == 22 && !push_tl(B, g, 22, e->next->valuedouble))
                return false;
    for (const cJSON *g = an->constraint ? an->constraint->child : NULL; g; g = g->next)
        for (const cJSON *e = g->child; e && e->next; e = e->next->next)
            if (e->valuedouble != 30)
                return unknown_type(B, "IK timeline", g, (int)e->valuedouble, e->next->valuedouble);
            else if (!push_tl(B, g, 30, e->next->valuedouble))
                return false;
    return true;
}

/* The mesh a deform timeline of slot `slot` names by its intArray offset, and where the model
 * has it. */
static bool deform_target(bctx *B, const barm *ba, const char *slot, size_t mo, bmesh **out,
                          sinew_model_timeline *T) {
    sinew_model_armature *A = B->A;
    bmesh *m = NULL;
    for (size_t i = ba->first_mesh; i < ba->first_mesh + ba->mesh_count && !m; i++)
        if (B->meshes[i].offset == mo && strcmp(B->meshes[i].slot, slot) == 0)
            m = &B->meshes[i];
    uint32_t skin = SINEW_INVALID_INDEX;
    for (uint32_t k = 0; m && k < A->skin_count && skin == SINEW_INVALID_INDEX; k++)
        if (A->skins[k].source_index == m->skin_entry)
            skin = k;
    if (!m || skin == SINEW_INVALID_INDEX || m->slot_entry >= A->skins[skin].slot_count)
        return false;
    const sinew_model_skin_slot *KS = &A->skin_slots[A->skins[skin].first_slot + m->slot_entry];
    if (m->display_entry >= KS->display_count)
        return false;
    uint32_t di = KS->first_display + m->display_entry;
    if (A->displays[di].type != SINEW_DISPLAY_MESH)
        return false;
    T->target = KS->slot;
    T->skin = skin;
    T->display = di;
    T->mesh = A->displays[di].mesh;
    T->values_per_key = 2u * A->meshes[T->mesh].vertex_count;
    *out = m;
    return true;
}

/* Counts the keys and curve samples of the animation's timelines (B->tls) for its pools. */
static void count_animation(bctx *B, uint64_t *keys, uint64_t *curves) {
    rctx *r = B->r;
    *keys = *curves = 0;
    for (size_t i = 0; i < B->tl_count; i++) {
        tl_info t = tl_at(B, B->tls[i].tl);
        *keys += t.keys;
        if (t.keys < 2 || B->tls[i].type == 0 || B->tls[i].type == 20)
            continue;
        for (uint32_t k = 0; k < t.keys; k++) {
            size_t fo = key_frame(B, &t, k);
            if (fo + 2 < r->count[R_FRAME] && i16(r, R_FRAME, fo + 1) == 2 && i16(r, R_FRAME, fo + 2) > 0)
                *curves += (uint64_t)i16(r, R_FRAME, fo + 2);
        }
    }
}

static bool read_animation_timelines(bctx *B, const barm *ba, const banim *an, sinew_model_animation *N) {
    rctx *r = B->r;
    sinew_model_armature *A = B->A;
    B->an = an;
    B->frame_base = (size_t)an->aoff[2];
    B->N = N;
    if (!timeline_order(B, an))
        return false;
    uint64_t nkeys, ncurves;
    count_animation(B, &nkeys, &ncurves);
    bool ok1, ok2;
    N->keys = model_array(B, (size_t)nkeys, sizeof *N->keys, false, &ok1); /* read_timeline sets each */
    N->curves = ok1 ? model_array(B, (size_t)ncurves, sizeof *N->curves, true, &ok2) : NULL;
    if (!ok1 || !ok2)
        return false;
    N->key_count = (uint32_t)nkeys;
    N->curve_count = (uint32_t)ncurves;
    N->first_timeline = A->timeline_count;
    B->keys_used = B->curves_used = 0;
    const cJSON *last_entry = NULL; /* an entry's timelines come together: its target is looked up once */
    uint32_t last_target = SINEW_INVALID_INDEX;
    for (size_t i = 0; i < B->tl_count; i++) {
        const tlref *ref = &B->tls[i];
        tl_info t = tl_at(B, ref->tl);
        sinew_model_timeline *T = &A->timelines[A->timeline_count++];
        *T = (sinew_model_timeline){.target = SINEW_INVALID_INDEX, .skin = SINEW_INVALID_INDEX,
                                    .display = SINEW_INVALID_INDEX, .mesh = SINEW_INVALID_INDEX};
        const char *name = ref->entry ? ref->entry->string : NULL;
        B->what_name = name;
        bmesh *mesh = NULL;
        uint32_t n;
        int vk;
        bool own_scale = true;
        switch (ref->type) {
        case 0:
            B->what_kind = "zOrder timeline";
            T->type = SINEW_TL_ZORDER;
            n = T->values_per_key = A->slot_count;
            vk = V_ZORDER;
            own_scale = false; /* as for JSON: a zOrder timeline plays at scale 1 */
            break;
        case 10: case 11: case 12: case 13:
            B->what_kind = "bone timeline";
            T->target = ref->entry == last_entry ? last_target : sinew__namemap_get(&B->bone_names, name);
            if (T->target == SINEW_INVALID_INDEX)
                goto no_target;
            T->type = ref->type == 10 ? SINEW_TL_BONE_ALL
                      : ref->type == 11 ? SINEW_TL_BONE_TRANSLATE
                      : ref->type == 12 ? SINEW_TL_BONE_ROTATE
                                        : SINEW_TL_BONE_SCALE;
            n = T->values_per_key = ref->type == 10 ? 6 : 2;
            vk = V_FLOAT;
            break;
        case 50:
            B->what_kind = "surface timeline";
            T->target = sinew__namemap_get(&B->bone_names, name);
            if (T->target == SINEW_INVALID_INDEX || !A->bones[T->target].is_surface) {
                bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_REFERENCE, "DBBin %s: no surface of that name", what(B));
                return false;
            }
            T->type = SINEW_TL_SURFACE;
            n = T->values_per_key = A->bones[T->target].surface_value_count;
            vk = V_DEFORM;
            break;
        case 20: case 21:
            B->what_kind = "slot timeline";
            T->target = ref->entry == last_entry ? last_target : sinew__namemap_get(&B->slot_names, name);
            if (T->target == SINEW_INVALID_INDEX)
                goto no_target;
            T->type = ref->type == 20 ? SINEW_TL_SLOT_DISPLAY : SINEW_TL_SLOT_COLOR;
            n = T->values_per_key = ref->type == 20 ? 1 : 8;
            vk = ref->type == 20 ? V_DISPLAY : V_COLOR;
            break;
        case 22: {
            B->what_kind = "slot timeline";
            size_t h = (size_t)an->aoff[0] + t.value_count;
            if (!in_range_tl(B, R_FRAME_INT, (double)h, 5))
                return false;
            size_t mo = (size_t)(uint16_t)i16(r, R_FRAME_INT, h);
            T->type = SINEW_TL_FFD;
            if (!deform_target(B, ba, name, mo, &mesh, T)) {
                bad(r, at_byte(r, R_FRAME_INT, h), SINEW_E_REFERENCE,
                    "DBBin %s: a deform timeline on intArray %zu, not a mesh of this slot", what(B), mo);
                return false;
            }
            n = mesh->weighted ? (uint32_t)(mesh->influences * 2) : (uint32_t)mesh->vertex_count * 2;
            vk = V_DEFORM;
            break;
        }
        default: /* 30 (timeline_order let nothing else through) */
            B->what_kind = "IK timeline";
            T->target = sinew__namemap_get(&B->ik_names, name);
            if (T->target == SINEW_INVALID_INDEX)
                goto no_target;
            T->type = SINEW_TL_IK;
            n = T->values_per_key = 2;
            vk = V_IK;
            break;
        }
        if (!read_timeline(B, &t, n, vk, mesh, own_scale, T))
            return false;
        last_entry = ref->type >= 10 && ref->type <= 21 ? ref->entry : NULL;
        last_target = T->target;
        continue;
    no_target:
        bad(r, at_byte(r, R_TIMELINE, t.tl), SINEW_E_REFERENCE, "DBBin %s: animation \"%s\" names no such %s", what(B),
            N->name, ref->type == 30 ? "IK constraint" : ref->type >= 20 ? "slot" : "bone");
        return false;
    }
    N->timeline_count = A->timeline_count - N->first_timeline;
    N->key_count = B->keys_used;
    N->curve_count = B->curves_used;
    return true;
}

static bool read_armature_timelines(bctx *B, const barm *ba, sinew_model_armature *A) {
    B->A = A;
    B->ba = ba;
    if (ba->anim_count != A->animation_count) {
        bad(B->r, 12, SINEW_E_LAYOUT, "DBBin: internal: %zu animations in the header, %u in the model",
            ba->anim_count, A->animation_count);
        return false;
    }
    size_t total = 0;
    for (size_t i = 0; i < ba->anim_count; i++) {
        const banim *an = &B->anims[ba->first_anim + i];
        total += an->zorder ? 1 : 0;
        const cJSON *maps[] = {an->bone, an->surface, an->slot, an->constraint};
        for (int m = 0; m < 4; m++)
            for (const cJSON *g = maps[m] ? maps[m]->child : NULL; g; g = g->next)
                total += members(g) / 2;
    }
    bool ok;
    A->timelines = model_array(B, total, sizeof *A->timelines, false, &ok); /* each set when read */
    if (!ok)
        return false;
    A->timeline_count = 0;
    /* the model's bones, slots and IK constraints by name (the first of two of one name) */
    B->display_max = sinew__arena_array(&B->nodes, A->slot_count ? A->slot_count : 1, sizeof *B->display_max);
    if (!B->display_max || !sinew__namemap_init(&B->bone_names, &B->nodes, A->bone_count) ||
        !sinew__namemap_init(&B->slot_names, &B->nodes, A->slot_count) ||
        !sinew__namemap_init(&B->ik_names, &B->nodes, A->ik_count)) {
        B->nomem = true;
        return false;
    }
    for (uint32_t i = 0; i < A->bone_count; i++)
        sinew__namemap_put(&B->bone_names, A->bones[i].name, i);
    for (uint32_t i = 0; i < A->slot_count; i++)
        sinew__namemap_put(&B->slot_names, A->slots[i].name, i);
    for (uint32_t i = 0; i < A->ik_count; i++)
        sinew__namemap_put(&B->ik_names, A->iks[i].name, i);
    for (uint32_t i = 0; i < A->skin_slot_count; i++) {
        const sinew_model_skin_slot *KS = &A->skin_slots[i];
        if (KS->display_count > B->display_max[KS->slot])
            B->display_max[KS->slot] = KS->display_count;
    }
    for (size_t i = 0; i < ba->anim_count; i++)
        if (!read_animation_timelines(B, ba, &B->anims[ba->first_anim + i], &A->animations[i]))
            return false;
    return true;
}

/* The JSON builder's finish step: every armature's timelines into the model. */
static sinew_status finish(void *ctx, struct sinew_data *data) {
    bctx *B = ctx;
    rctx *r = B->r;
    B->arena = &data->arena;
    if (B->arm_count != data->armature_count)
        return bad(r, 12, SINEW_E_LAYOUT, "DBBin: internal: %zu armatures in the header, %u in the model", B->arm_count,
                   data->armature_count);
    for (size_t i = 0; i < B->arm_count; i++) {
        if (!read_armature_timelines(B, &B->arms[i], &data->armatures[i])) {
            if (B->nomem)
                return sinew__fail_at(r->err, SINEW_E_NOMEM, r->file, 0, 0, NULL, "out of memory");
            return r->err && r->err->code ? r->err->code : SINEW_E_LAYOUT;
        }
    }
    return SINEW_OK;
}

static sinew_status build(rctx *r, sinew_jctx *c, cJSON *root, struct sinew_data **out) {
    bctx B;
    memset(&B, 0, sizeof B);
    B.r = r;
    B.allocator = c->allocator;
    size_t limit = (size_t)(c->limits.max_memory_bytes < SIZE_MAX ? c->limits.max_memory_bytes : SIZE_MAX);
    sinew__arena_init(&B.nodes, c->allocator, limit);
    /* The load's scratch (nodes, packed arrays) in one first chunk sized from the file, 16 bytes
       per file byte (the shared characters use 1 to 3; pages never used are never touched): one
       large block that glibc maps and unmaps, which raises its mmap and trim thresholds above what
       a load uses, as the JSON reader's DOM does. Without it the model's 64 KB chunks at the top
       of the heap went back to the kernel after every load and were faulted in again on the next
       (about 30% of a load in `sinew bench --load`; with 8 bytes per file byte, still 80 page
       faults a load on mecha_1502b). */
    size_t want = r->len <= SIZE_MAX / 16 ? r->len * 16 : SIZE_MAX;
    (void)sinew__arena_reserve(&B.nodes, limit && want > limit ? limit : want);
    sinew_status st = SINEW_OK;
    const cJSON *g = member(root, "isGlobal");
    if (cJSON_IsNumber(g) && g->valuedouble != 0) {
        st = bad(r, 12, SINEW_E_UNSUPPORTED, "DBBin: isGlobal data is not read");
        goto done;
    }
    take(root, "offset");
    const cJSON *arms = member(root, "armature");
    for (cJSON *a = cJSON_IsArray(arms) ? arms->child : NULL; a; a = a->next)
        if (!header_armature(&B, a)) {
            st = B.nomem ? sinew__fail_at(r->err, SINEW_E_NOMEM, r->file, 0, 0, NULL, "out of memory")
                         : (r->err && r->err->code ? r->err->code : SINEW_E_LAYOUT);
            goto done;
        }
    if (B.nomem) {
        st = sinew__fail_at(r->err, SINEW_E_NOMEM, r->file, 0, 0, NULL, "out of memory");
        goto done;
    }
    sinew_build_finish fin = {finish, &B};
    st = sinew__dragonbones_build(c, root, &fin, out);
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
    sinew__free(B.allocator, B.action_list, (B.action_count ? B.action_count : 1) * sizeof *B.action_list);
    sinew__free(B.allocator, B.meshes, B.mesh_cap * sizeof *B.meshes);
    sinew__free(B.allocator, B.anims, B.anim_cap * sizeof *B.anims);
    sinew__free(B.allocator, B.arms, B.arm_cap * sizeof *B.arms);
    sinew__free(B.allocator, B.tls, B.tl_cap * sizeof *B.tls);
    sinew__free(B.allocator, B.span, B.span_cap * sizeof *B.span);
    sinew__arena_destroy(&B.nodes);
    return st;
}

/* Warnings the JSON builder gives on the header: located at the header's byte in the file, as the
 * reader's errors are, instead of the header text's line and column. */
typedef struct warn_at {
    sinew_log_fn log;
    void *user;
} warn_at;

static void header_warning(void *user, sinew_log_level level, const sinew_error *where) {
    const warn_at *w = user;
    sinew_error e = *where;
    if (e.line > 0) {
        size_t n = strlen(e.message);
        snprintf(e.message + n, sizeof e.message - n, " at byte offset %llu", (unsigned long long)(12 + e.offset));
        e.offset += 12;
        e.line = e.column = 0;
    }
    w->log(w->user, level, &e);
}

/* The file byte of entry i of the header's `offset` table (of the table itself for i < 0). */
static size_t table_byte(const sinew_jctx *c, int i) {
    sinew_json_seg segs[2] = {{"offset", 0}, {NULL, i < 0 ? 0 : (uint32_t)i}};
    size_t off = 0;
    sinew__json_locate(c->text, c->len, segs, i < 0 ? 1 : 2, &off);
    return 12 + off;
}

/* The header's `offset` table: byte offset and byte length of each array, relative to the end of
 * the header. 12 numbers (format 1, the DragonBones 5.0-5.5 exporters) give the six arrays; 14
 * (format 2, the 5.6 exporter) add a seventh, the colour array, which the official 5.6 runtime
 * never reads (slot colours stay in intArray; the exporter leaves it empty). The version word
 * (bytes 4..7) is not read, as officially: the table's length tells the layout. */
static sinew_status read_table(rctx *r, const sinew_jctx *c, const cJSON *root) {
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(root, "offset");
    int n = cJSON_IsArray(offs) ? cJSON_GetArraySize(offs) : -1;
    if (n < 0)
        return bad(r, 12, SINEW_E_LAYOUT, "DBBin header: no `offset` with the array offsets and lengths");
    if (n != 12 && n != 14)
        return bad(r, table_byte(c, -1), SINEW_E_LAYOUT,
                   "DBBin header: `offset` has %d numbers, not 12 (format 1) or 14 (format 2)", n);
    const cJSON *v = offs->child;
    for (int i = 0; i < n / 2; i++, v = v->next->next) {
        double o, l;
        const char *name = i < R_COUNT ? ARRAY_NAME[i] : "the colour array";
        unsigned elem = i < R_COUNT ? ELEM[i] : 2;
        for (int k = 0; k < 2; k++) {
            const cJSON *e = k ? v->next : v;
            double d = cJSON_IsNumber(e) ? e->valuedouble : -1;
            if (!(d >= 0 && d <= 4294967295.0) || (double)(uint32_t)d != d)
                return bad(r, table_byte(c, 2 * i + k), SINEW_E_LAYOUT,
                           "DBBin header: the %s of %s is not an unsigned integer", k ? "length" : "offset", name);
            *(k ? &l : &o) = d;
        }
        if (o + l > (double)(r->len - r->base))
            return bad(r, table_byte(c, 2 * i), SINEW_E_PARSE,
                       "truncated DBBin: %s (%.0f bytes at %.0f) runs past the end of the file", name, l, o);
        size_t start = r->base + (size_t)o;
        if (start % elem || (size_t)l % elem)
            return bad(r, start, SINEW_E_LAYOUT, "misaligned DBBin: %s is not aligned to %u bytes", name, elem);
        if (i < R_COUNT) {
            r->start[i] = start;
            r->count[i] = (size_t)l / elem;
        } else if (l > 0 && c->log) {
            /* sinew plays what the official runtime plays: DragonBonesJS 5.7 would take colours
               from here, the 5.6 line sinew matches does not */
            sinew_error w;
            memset(&w, 0, sizeof w);
            w.file = r->file;
            w.offset = start;
            snprintf(w.path, sizeof w.path, "byte %zu", start);
            snprintf(w.message, sizeof w.message,
                     "DBBin format 2: the colour array (%.0f bytes) is not read, as the official runtime does not "
                     "read it (slot colours come from intArray) at byte offset %zu",
                     l, start);
            c->log(c->log_user, SINEW_LOG_WARNING, &w);
        }
    }
    return SINEW_OK;
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
    warn_at wa = {c.log, c.log_user};
    if (c.log) {
        c.log = header_warning;
        c.log_user = &wa;
    }
    cJSON *root = sinew__json_parse(&c);
    if (!root) {
        sinew_status code = c.err.code != SINEW_OK ? c.err.code : SINEW_E_PARSE;
        return bad(&r, 12 + (size_t)c.err.offset, code, "DBBin header: %s", c.err.message);
    }
    sinew_status st = read_table(&r, &c, root);
    if (st == SINEW_OK)
        st = build(&r, &c, root, out);
    sinew__json_free(&c, root);
    return st;
}
