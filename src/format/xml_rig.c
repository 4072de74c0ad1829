/*
 * The sinew XML rig loader. Three passes:
 *   1. expat reads the document into plain records (bones, joints, setters, frames, ...), keeping
 *      each element's line:column;
 *   2. names are resolved and checked (bone maps, setter targets, images and their PNG sizes);
 *   3. one armature is built for the document as written and one per skin.
 * The geometry and time rules are those of docs/xml.md.
 */
#include "format/xml_rig.h"

#include <ctype.h>
#include <errno.h>
#include <expat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/num.h"
#include "format/dragonbones_write.h"
#include "format/png_header.h"

#define XR_MAX_DEPTH 64u

/* ---- records -------------------------------------------------------------------------------- */

enum { AL_START = 0, AL_CENTER = 1, AL_END = 2 }; /* left/top, center, right/bottom */

enum {
    TW_NONE = 0, TW_LINEAR, TW_EASE_IN, TW_EASE_OUT, TW_EASE_IN_OUT
};

enum { P_PX, P_PY, P_ROT, P_IMAGE, P_VISIBLE, P_JX, P_JY, P_HALIGN, P_VALIGN };

typedef struct xr_loc {
    uint32_t line, col;
} xr_loc;

typedef struct xr_joint {
    const char *name;
    double x, y;
    uint8_t ha, va;
    xr_loc loc;
} xr_joint;

typedef struct xr_bone {
    const char *name, *image_attr;
    xr_loc loc, map_loc;
    double rotation;
    bool visible, has_w, has_h, has_map;
    int32_t z;
    double w, h;
    uint32_t first_joint, joint_count;
    const char *from, *to;
    /* resolved */
    int32_t image;
    uint32_t parent, parent_joint, from_joint; /* parent_joint / from_joint index into joints */
    uint32_t model, first_child, next_sibling, last_child;
} xr_bone;

typedef struct xr_setter {
    const char *subject, *target, *name, *content;
    xr_loc loc;
    /* resolved */
    uint8_t prop;
    uint32_t bone, joint;
    double num;
    int32_t image;
} xr_setter;

typedef struct xr_frame {
    uint32_t duration;
    uint8_t tween;
    uint32_t first_setter, setter_count;
    xr_loc loc;
} xr_frame;

typedef struct xr_anim {
    const char *name;
    int32_t play_times;
    uint32_t first_frame, frame_count;
    xr_loc loc;
} xr_anim;

typedef struct xr_skin {
    const char *name;
    uint32_t first_setter, setter_count;
    xr_loc loc;
} xr_skin;

typedef struct xr_image {
    const char *path;     /* as written (leading "./" removed) */
    const char *key;      /* texture key: path without ".png" */
    const char *resolved; /* joined to the base folder */
    uint32_t w, h;
} xr_image;

typedef struct xr_vec {
    void *p;
    uint32_t n, cap;
} xr_vec;

enum {
    E_NONE = 0, E_PROJECT, E_BONES, E_SKINS, E_ANIMS, E_BONE, E_JOINT, E_MAP, E_SKIN, E_SKIN_SETTERS,
    E_ANIM, E_FRAMES, E_FRAME, E_FRAME_SETTERS, E_SETTER, E_COUNT
};

static const char *const element_names[E_COUNT] = {
    "", "project", "project.bones", "project.skins", "project.animations", "bone", "joint",
    "bone.map", "skin", "skin.setters", "animation", "animation.frames", "frame", "frame.setters",
    "setter"};

typedef struct xr_ctx {
    const sinew_allocator *alloc;
    sinew_log_fn log;
    void *log_user;
    const char *file;
    const char *base_dir;
    sinew_load_limits limits;
    XML_Parser parser;
    sinew_error *err;
    sinew_status st;
    sinew_arena tmp;

    uint8_t stack[XR_MAX_DEPTH];
    uint32_t depth, skip;

    bool has_project, has_bones_el;
    xr_loc project_loc;
    const char *name;
    double frame_rate, px, py, width, height;
    bool has_width, has_height;

    xr_vec bones, joints, setters, frames, anims, skins, images;
    uint32_t root;
} xr_ctx;

/* ---- small helpers -------------------------------------------------------------------------- */

static void *vec_push(xr_ctx *c, xr_vec *v, size_t elem) {
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? v->cap * 2u : 16u;
        size_t bytes, old;
        if (cap < v->cap || !sinew__mul_size(cap, elem, &bytes)) {
            c->st = sinew__fail(c->err, SINEW_E_LIMIT, NULL, "too many elements");
            return NULL;
        }
        old = (size_t)v->cap * elem;
        void *p = sinew__realloc(c->alloc, v->p, old, bytes);
        if (!p) {
            c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory");
            return NULL;
        }
        v->p = p;
        v->cap = cap;
    }
    void *slot = (char *)v->p + (size_t)v->n * elem;
    memset(slot, 0, elem);
    v->n++;
    return slot;
}

static void vec_free(xr_ctx *c, xr_vec *v, size_t elem) {
    sinew__free(c->alloc, v->p, (size_t)v->cap * elem);
    v->p = NULL;
    v->n = v->cap = 0;
}

#define BONES(c) ((xr_bone *)(c)->bones.p)
#define JOINTS(c) ((xr_joint *)(c)->joints.p)
#define SETTERS(c) ((xr_setter *)(c)->setters.p)
#define FRAMES(c) ((xr_frame *)(c)->frames.p)
#define ANIMS(c) ((xr_anim *)(c)->anims.p)
#define SKINS(c) ((xr_skin *)(c)->skins.p)
#define IMAGES(c) ((xr_image *)(c)->images.p)

static xr_loc here(xr_ctx *c) {
    xr_loc l;
    l.line = (uint32_t)XML_GetCurrentLineNumber(c->parser);
    l.col = (uint32_t)XML_GetCurrentColumnNumber(c->parser) + 1u;
    return l;
}

SINEW_PRINTF(4, 5)
static sinew_status fail_at(xr_ctx *c, xr_loc loc, sinew_status code, const char *fmt, ...) {
    if (c->st == SINEW_OK && c->err && c->err->code == SINEW_OK) {
        va_list ap;
        va_start(ap, fmt);
        sinew__vformat(c->err->message, sizeof c->err->message, fmt, ap);
        va_end(ap);
        c->err->code = code;
        c->err->file = c->file;
        c->err->line = loc.line;
        c->err->column = loc.col;
    }
    if (c->st == SINEW_OK)
        c->st = code;
    if (c->parser)
        XML_StopParser(c->parser, XML_FALSE);
    return code;
}

SINEW_PRINTF(4, 5)
static void warn_at(xr_ctx *c, xr_loc loc, sinew_status code, const char *fmt, ...) {
    if (!c->log)
        return;
    sinew_error w;
    memset(&w, 0, sizeof w);
    va_list ap;
    va_start(ap, fmt);
    sinew__vformat(w.message, sizeof w.message, fmt, ap);
    va_end(ap);
    w.code = code;
    w.file = c->file;
    w.line = loc.line;
    w.column = loc.col;
    c->log(c->log_user, SINEW_LOG_WARNING, &w);
}

static const char *dup(xr_ctx *c, const char *s) {
    char *d = sinew__arena_strdup(&c->tmp, s);
    if (!d && c->st == SINEW_OK)
        c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory");
    return d;
}

static const char *attr(const char **atts, const char *name) {
    for (size_t i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

/* Warns about attributes not in `known` (a NULL-terminated list). */
static void check_attrs(xr_ctx *c, xr_loc loc, const char *el, const char **atts, const char *const *known) {
    for (size_t i = 0; atts[i]; i += 2) {
        bool ok = strncmp(atts[i], "xmlns", 5) == 0;
        for (size_t k = 0; !ok && known[k]; k++)
            ok = strcmp(atts[i], known[k]) == 0;
        if (!ok)
            warn_at(c, loc, SINEW_E_UNSUPPORTED, "unknown attribute '%s' on <%s> ignored", atts[i], el);
    }
}

/* XML white space (the C locale's isspace would follow LC_CTYPE) */
static bool xml_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool parse_double(const char *s, double *out) {
    while (xml_space((unsigned char)*s))
        s++;
    if (!*s)
        return false;
    char *end;
    double v = sinew__strtod(s, &end);
    while (xml_space((unsigned char)*end))
        end++;
    if (*end || !isfinite(v))
        return false;
    /* No hex floats, infinities or NaN spelled out. */
    for (const char *p = s; p < end; p++)
        if (*p == 'x' || *p == 'X' || *p == 'n' || *p == 'N' || *p == 'i' || *p == 'I')
            return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    while (xml_space((unsigned char)*s))
        s++;
    if (!*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (xml_space((unsigned char)*end))
        end++;
    if (*end || errno == ERANGE || v < lo || v > hi)
        return false;
    *out = (int64_t)v;
    return true;
}

/* Number attributes: absent -> default; bad -> error. */
static bool num_attr(xr_ctx *c, xr_loc loc, const char *el, const char **atts, const char *name, double def,
                     double *out) {
    const char *v = attr(atts, name);
    if (!v) {
        *out = def;
        return true;
    }
    if (!parse_double(v, out)) {
        fail_at(c, loc, SINEW_E_TYPE, "attribute '%s' of <%s>: '%s' is not a number", name, el, v);
        return false;
    }
    return true;
}

static bool int_attr(xr_ctx *c, xr_loc loc, const char *el, const char **atts, const char *name, int64_t def,
                     int64_t lo, int64_t hi, const char *what, int64_t *out) {
    const char *v = attr(atts, name);
    if (!v) {
        *out = def;
        return true;
    }
    if (!parse_int(v, lo, hi, out)) {
        fail_at(c, loc, SINEW_E_TYPE, "attribute '%s' of <%s>: '%s' is not %s", name, el, v, what);
        return false;
    }
    return true;
}

static int parse_bool(const char *s) {
    if (strcmp(s, "true") == 0)
        return 1;
    if (strcmp(s, "false") == 0)
        return 0;
    return -1;
}

static int parse_align(const char *s, bool horizontal) {
    if (strcmp(s, "center") == 0)
        return AL_CENTER;
    if (strcmp(s, horizontal ? "left" : "top") == 0)
        return AL_START;
    if (strcmp(s, horizontal ? "right" : "bottom") == 0)
        return AL_END;
    return -1;
}

static int parse_tween(const char *s) {
    static const char *const names[] = {"none", "linear", "easeIn", "easeOut", "easeInOut"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static const char *required(xr_ctx *c, xr_loc loc, const char *el, const char **atts, const char *name) {
    const char *v = attr(atts, name);
    if (!v)
        fail_at(c, loc, SINEW_E_MISSING, "<%s> is missing the required attribute '%s'", el, name);
    return v;
}

/* ---- expat handlers ------------------------------------------------------------------------- */

static int element_id(const char *name) {
    for (int i = 1; i < E_COUNT; i++)
        if (strcmp(name, element_names[i]) == 0)
            return i;
    return E_NONE;
}

static int required_parent(int id) {
    switch (id) {
    case E_PROJECT: return E_NONE;
    case E_BONES: case E_SKINS: case E_ANIMS: return E_PROJECT;
    case E_BONE: return E_BONES;
    case E_JOINT: case E_MAP: return E_BONE;
    case E_SKIN: return E_SKINS;
    case E_SKIN_SETTERS: return E_SKIN;
    case E_ANIM: return E_ANIMS;
    case E_FRAMES: return E_ANIM;
    case E_FRAME: return E_FRAMES;
    case E_FRAME_SETTERS: return E_FRAME;
    default: return -1;
    }
}

static void start_project(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"name", "frameRate", "x", "y", "width", "height", NULL};
    check_attrs(c, loc, "project", atts, known);
    c->has_project = true;
    c->project_loc = loc;
    const char *name = required(c, loc, "project", atts, "name");
    if (!name)
        return;
    c->name = dup(c, name);
    if (!num_attr(c, loc, "project", atts, "frameRate", 24, &c->frame_rate) ||
        !num_attr(c, loc, "project", atts, "x", 0, &c->px) || !num_attr(c, loc, "project", atts, "y", 0, &c->py))
        return;
    if (!(c->frame_rate > 0) || c->frame_rate > 1000) {
        fail_at(c, loc, SINEW_E_RANGE, "attribute 'frameRate' of <project> must be > 0 and <= 1000");
        return;
    }
    c->has_width = attr(atts, "width") != NULL;
    c->has_height = attr(atts, "height") != NULL;
    if (!num_attr(c, loc, "project", atts, "width", 0, &c->width) ||
        !num_attr(c, loc, "project", atts, "height", 0, &c->height))
        return;
    if (c->width < 0 || c->height < 0)
        fail_at(c, loc, SINEW_E_RANGE, "the canvas size of <project> must not be negative");
}

static void start_bone(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"name", "image", "rotation", "visible", "z", "width", "height", NULL};
    check_attrs(c, loc, "bone", atts, known);
    const char *name = required(c, loc, "bone", atts, "name");
    if (!name)
        return;
    if (c->bones.n >= c->limits.max_bones) {
        fail_at(c, loc, SINEW_E_LIMIT, "more than %u bones (max_bones)", c->limits.max_bones);
        return;
    }
    xr_bone *b = vec_push(c, &c->bones, sizeof *b);
    if (!b)
        return;
    b->name = dup(c, name);
    b->loc = loc;
    b->first_joint = c->joints.n;
    b->parent = b->parent_joint = b->from_joint = SINEW_INVALID_INDEX;
    b->first_child = b->next_sibling = b->last_child = SINEW_INVALID_INDEX;
    b->image = -1;
    const char *img = attr(atts, "image");
    b->image_attr = img ? dup(c, img) : NULL;
    b->visible = true;
    const char *vis = attr(atts, "visible");
    if (vis) {
        int v = parse_bool(vis);
        if (v < 0) {
            fail_at(c, loc, SINEW_E_TYPE, "attribute 'visible' of <bone>: '%s' is not true or false", vis);
            return;
        }
        b->visible = v == 1;
    }
    int64_t z;
    if (!num_attr(c, loc, "bone", atts, "rotation", 0, &b->rotation) ||
        !int_attr(c, loc, "bone", atts, "z", 0, INT32_MIN, INT32_MAX, "an integer", &z))
        return;
    b->z = (int32_t)z;
    b->has_w = attr(atts, "width") != NULL;
    b->has_h = attr(atts, "height") != NULL;
    if (!num_attr(c, loc, "bone", atts, "width", 0, &b->w) || !num_attr(c, loc, "bone", atts, "height", 0, &b->h))
        return;
    if (b->w < 0 || b->h < 0)
        fail_at(c, loc, SINEW_E_RANGE, "the size of bone '%s' must not be negative", name);
}

static void start_joint(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"name", "x", "y", "halign", "valign", NULL};
    check_attrs(c, loc, "joint", atts, known);
    const char *name = required(c, loc, "joint", atts, "name");
    if (!name)
        return;
    xr_joint *j = vec_push(c, &c->joints, sizeof *j);
    if (!j)
        return;
    j->name = dup(c, name);
    j->loc = loc;
    if (!num_attr(c, loc, "joint", atts, "x", 0, &j->x) || !num_attr(c, loc, "joint", atts, "y", 0, &j->y))
        return;
    const char *ha = attr(atts, "halign"), *va = attr(atts, "valign");
    int h = ha ? parse_align(ha, true) : AL_START, v = va ? parse_align(va, false) : AL_START;
    if (h < 0) {
        fail_at(c, loc, SINEW_E_TYPE, "attribute 'halign' of <joint>: '%s' is not left, center or right", ha);
        return;
    }
    if (v < 0) {
        fail_at(c, loc, SINEW_E_TYPE, "attribute 'valign' of <joint>: '%s' is not top, center or bottom", va);
        return;
    }
    j->ha = (uint8_t)h;
    j->va = (uint8_t)v;
}

static void start_map(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"from", "to", NULL};
    check_attrs(c, loc, "bone.map", atts, known);
    xr_bone *b = &BONES(c)[c->bones.n - 1];
    if (b->has_map) {
        fail_at(c, loc, SINEW_E_DUPLICATE, "bone '%s' has more than one <bone.map>", b->name);
        return;
    }
    b->has_map = true;
    b->map_loc = loc;
    const char *from = attr(atts, "from"), *to = attr(atts, "to");
    b->from = from ? dup(c, from) : NULL;
    b->to = to ? dup(c, to) : NULL;
}

static void start_setter(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"subject", "target", "name", "content", NULL};
    check_attrs(c, loc, "setter", atts, known);
    const char *subject = required(c, loc, "setter", atts, "subject");
    const char *name = subject ? required(c, loc, "setter", atts, "name") : NULL;
    const char *content = name ? required(c, loc, "setter", atts, "content") : NULL;
    if (!content)
        return;
    xr_setter *s = vec_push(c, &c->setters, sizeof *s);
    if (!s)
        return;
    const char *target = attr(atts, "target");
    s->subject = dup(c, subject);
    s->name = dup(c, name);
    s->content = dup(c, content);
    s->target = target ? dup(c, target) : NULL;
    s->loc = loc;
}

static void start_skin(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"name", NULL};
    check_attrs(c, loc, "skin", atts, known);
    const char *name = required(c, loc, "skin", atts, "name");
    if (!name)
        return;
    if (!*name) {
        fail_at(c, loc, SINEW_E_RANGE, "a skin name must not be empty");
        return;
    }
    xr_skin *s = vec_push(c, &c->skins, sizeof *s);
    if (!s)
        return;
    s->name = dup(c, name);
    s->loc = loc;
    s->first_setter = c->setters.n;
}

static void start_anim(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"name", "playTimes", NULL};
    check_attrs(c, loc, "animation", atts, known);
    const char *name = required(c, loc, "animation", atts, "name");
    if (!name)
        return;
    int64_t pt;
    if (!int_attr(c, loc, "animation", atts, "playTimes", 0, 0, INT32_MAX, "an integer >= 0", &pt))
        return;
    xr_anim *a = vec_push(c, &c->anims, sizeof *a);
    if (!a)
        return;
    a->name = dup(c, name);
    a->loc = loc;
    a->play_times = (int32_t)pt;
    a->first_frame = c->frames.n;
}

static void start_frame(xr_ctx *c, xr_loc loc, const char **atts) {
    static const char *const known[] = {"duration", "tween", NULL};
    check_attrs(c, loc, "frame", atts, known);
    int64_t d;
    if (!int_attr(c, loc, "frame", atts, "duration", 1, 1, c->limits.max_animation_frames,
                  "an integer >= 1", &d))
        return;
    const char *tw = attr(atts, "tween");
    int t = tw ? parse_tween(tw) : TW_NONE;
    if (t < 0) {
        fail_at(c, loc, SINEW_E_TYPE,
                "attribute 'tween' of <frame>: '%s' is not none, linear, easeIn, easeOut or easeInOut", tw);
        return;
    }
    xr_frame *f = vec_push(c, &c->frames, sizeof *f);
    if (!f)
        return;
    f->duration = (uint32_t)d;
    f->tween = (uint8_t)t;
    f->loc = loc;
    f->first_setter = c->setters.n;
}

static void XMLCALL on_start(void *user, const XML_Char *el, const XML_Char **atts) {
    xr_ctx *c = user;
    if (c->st != SINEW_OK)
        return;
    xr_loc loc = here(c);
    if (c->skip) {
        c->skip++;
        return;
    }
    int id = element_id(el);
    int parent = c->depth ? c->stack[c->depth - 1] : E_NONE;
    if (id == E_NONE) {
        if (c->depth == 0) {
            fail_at(c, loc, SINEW_E_PARSE, "the root element must be <project>, not <%s>", el);
            return;
        }
        warn_at(c, loc, SINEW_E_UNSUPPORTED, "unknown element <%s> ignored", el);
        c->skip = 1;
        return;
    }
    bool placed = id == E_SETTER ? (parent == E_SKIN_SETTERS || parent == E_FRAME_SETTERS)
                                 : required_parent(id) == parent;
    if (!placed) {
        if (c->depth == 0)
            fail_at(c, loc, SINEW_E_PARSE, "the root element must be <project>, not <%s>", el);
        else
            fail_at(c, loc, SINEW_E_PARSE, "<%s> is not allowed inside <%s>", el, element_names[parent]);
        return;
    }
    if (c->depth >= XR_MAX_DEPTH) {
        fail_at(c, loc, SINEW_E_LIMIT, "elements nested too deeply");
        return;
    }
    static const char *const none[] = {NULL};
    switch (id) {
    case E_PROJECT: start_project(c, loc, atts); break;
    case E_BONES: c->has_bones_el = true; check_attrs(c, loc, el, atts, none); break;
    case E_BONE: start_bone(c, loc, atts); break;
    case E_JOINT: start_joint(c, loc, atts); break;
    case E_MAP: start_map(c, loc, atts); break;
    case E_SKIN: start_skin(c, loc, atts); break;
    case E_ANIM: start_anim(c, loc, atts); break;
    case E_FRAME: start_frame(c, loc, atts); break;
    case E_SETTER: start_setter(c, loc, atts); break;
    default: check_attrs(c, loc, el, atts, none); break;
    }
    c->stack[c->depth++] = (uint8_t)id;
}

static void XMLCALL on_end(void *user, const XML_Char *el) {
    xr_ctx *c = user;
    (void)el;
    if (c->st != SINEW_OK)
        return;
    if (c->skip) {
        c->skip--;
        return;
    }
    if (!c->depth)
        return;
    int id = c->stack[--c->depth];
    switch (id) {
    case E_BONE: {
        xr_bone *b = &BONES(c)[c->bones.n - 1];
        b->joint_count = c->joints.n - b->first_joint;
        break;
    }
    case E_SKIN: {
        xr_skin *s = &SKINS(c)[c->skins.n - 1];
        s->setter_count = c->setters.n - s->first_setter;
        break;
    }
    case E_FRAME: {
        xr_frame *f = &FRAMES(c)[c->frames.n - 1];
        f->setter_count = c->setters.n - f->first_setter;
        break;
    }
    case E_ANIM: {
        xr_anim *a = &ANIMS(c)[c->anims.n - 1];
        a->frame_count = c->frames.n - a->first_frame;
        if (a->frame_count == 0)
            fail_at(c, a->loc, SINEW_E_MISSING, "animation '%s' has no <frame>", a->name);
        break;
    }
    default: break;
    }
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len) {
    xr_ctx *c = user;
    if (c->st != SINEW_OK || c->skip)
        return;
    for (int i = 0; i < len; i++)
        if (!xml_space((unsigned char)s[i])) {
            warn_at(c, here(c), SINEW_E_UNSUPPORTED, "text content ignored");
            return;
        }
}

static void XMLCALL on_doctype(void *user, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal) {
    xr_ctx *c = user;
    (void)name, (void)sysid, (void)pubid, (void)has_internal;
    fail_at(c, here(c), SINEW_E_UNSUPPORTED, "DOCTYPE declarations are not supported");
}

/* ---- resolving ------------------------------------------------------------------------------ */

static uint32_t find_bone(xr_ctx *c, const char *name) {
    for (uint32_t i = 0; i < c->bones.n; i++)
        if (strcmp(BONES(c)[i].name, name) == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

static uint32_t find_joint(xr_ctx *c, uint32_t bone, const char *name) {
    const xr_bone *b = &BONES(c)[bone];
    for (uint32_t i = 0; i < b->joint_count; i++)
        if (strcmp(JOINTS(c)[b->first_joint + i].name, name) == 0)
            return b->first_joint + i;
    return SINEW_INVALID_INDEX;
}

/* "bone.joint": the bone name is everything before the last '.'. */
static bool resolve_joint_ref(xr_ctx *c, xr_loc loc, const char *what, const char *ref, uint32_t *bone,
                              uint32_t *joint) {
    const char *dot = strrchr(ref, '.');
    if (!dot || dot == ref || !dot[1]) {
        fail_at(c, loc, SINEW_E_REFERENCE, "%s '%s' is not of the form bone.joint", what, ref);
        return false;
    }
    size_t n = (size_t)(dot - ref);
    char *bname = sinew__arena_strndup(&c->tmp, ref, n);
    if (!bname) {
        c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory");
        return false;
    }
    *bone = find_bone(c, bname);
    if (*bone == SINEW_INVALID_INDEX) {
        fail_at(c, loc, SINEW_E_REFERENCE, "%s '%s': there is no bone '%s'", what, ref, bname);
        return false;
    }
    *joint = find_joint(c, *bone, dot + 1);
    if (*joint == SINEW_INVALID_INDEX) {
        fail_at(c, loc, SINEW_E_REFERENCE, "%s '%s': bone '%s' has no joint '%s'", what, ref, bname, dot + 1);
        return false;
    }
    return true;
}

static int32_t find_or_add_image(xr_ctx *c, xr_loc loc, const char *path) {
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    if (!*path)
        return -1;
    for (uint32_t i = 0; i < c->images.n; i++)
        if (strcmp(IMAGES(c)[i].path, path) == 0)
            return (int32_t)i;
    size_t plen = strlen(path), blen = c->base_dir ? strlen(c->base_dir) : 0;
    char *resolved;
    if (path[0] == '/' || blen == 0) {
        resolved = sinew__arena_strdup(&c->tmp, path);
    } else {
        resolved = sinew__arena_alloc(&c->tmp, blen + plen + 2);
        if (resolved) {
            memcpy(resolved, c->base_dir, blen);
            size_t at = blen;
            if (c->base_dir[blen - 1] != '/')
                resolved[at++] = '/';
            memcpy(resolved + at, path, plen + 1);
        }
    }
    char *key = sinew__arena_strdup(&c->tmp, path);
    if (!resolved || !key) {
        c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory");
        return -2;
    }
    size_t klen = strlen(key);
    if (klen > 4 && (strcmp(key + klen - 4, ".png") == 0 || strcmp(key + klen - 4, ".PNG") == 0))
        key[klen - 4] = '\0';
    uint32_t w, h;
    sinew_status st = sinew__png_file_size(resolved, &w, &h);
    if (st == SINEW_E_IO) {
        fail_at(c, loc, SINEW_E_REFERENCE, "image '%s' not found (looked for %s)", path, resolved);
        return -2;
    }
    if (st != SINEW_OK) {
        fail_at(c, loc, SINEW_E_PARSE, "image '%s' is not a PNG file", path);
        return -2;
    }
    for (uint32_t i = 0; i < c->images.n; i++)
        if (strcmp(IMAGES(c)[i].key, key) == 0) {
            fail_at(c, loc, SINEW_E_DUPLICATE, "images '%s' and '%s' would share the texture name '%s'",
                    IMAGES(c)[i].path, path, key);
            return -2;
        }
    xr_image *im = vec_push(c, &c->images, sizeof *im);
    if (!im)
        return -2;
    im->path = dup(c, path);
    im->key = key;
    im->resolved = resolved;
    im->w = w;
    im->h = h;
    return (int32_t)(c->images.n - 1);
}

static bool resolve_setter(xr_ctx *c, xr_setter *s) {
    bool is_project = strcmp(s->subject, "project") == 0, is_bone = strcmp(s->subject, "bone") == 0,
         is_joint = strcmp(s->subject, "joint") == 0;
    if (!is_project && !is_bone && !is_joint) {
        fail_at(c, s->loc, SINEW_E_TYPE, "setter subject '%s' is not project, bone or joint", s->subject);
        return false;
    }
    if (!is_project && !s->target) {
        fail_at(c, s->loc, SINEW_E_MISSING, "<setter> is missing the required attribute 'target'");
        return false;
    }
    s->bone = s->joint = SINEW_INVALID_INDEX;
    if (is_project) {
        if (s->target)
            warn_at(c, s->loc, SINEW_E_UNSUPPORTED, "attribute 'target' of a project setter ignored");
        if (strcmp(s->name, "x") == 0)
            s->prop = P_PX;
        else if (strcmp(s->name, "y") == 0)
            s->prop = P_PY;
        else {
            fail_at(c, s->loc, SINEW_E_TYPE, "project setter name '%s' is not x or y", s->name);
            return false;
        }
    } else if (is_bone) {
        s->bone = find_bone(c, s->target);
        if (s->bone == SINEW_INVALID_INDEX) {
            fail_at(c, s->loc, SINEW_E_REFERENCE, "setter target: there is no bone '%s'", s->target);
            return false;
        }
        if (strcmp(s->name, "rotation") == 0)
            s->prop = P_ROT;
        else if (strcmp(s->name, "image") == 0)
            s->prop = P_IMAGE;
        else if (strcmp(s->name, "visible") == 0)
            s->prop = P_VISIBLE;
        else {
            fail_at(c, s->loc, SINEW_E_TYPE, "bone setter name '%s' is not rotation, image or visible", s->name);
            return false;
        }
    } else {
        if (!resolve_joint_ref(c, s->loc, "setter target", s->target, &s->bone, &s->joint))
            return false;
        if (strcmp(s->name, "x") == 0)
            s->prop = P_JX;
        else if (strcmp(s->name, "y") == 0)
            s->prop = P_JY;
        else if (strcmp(s->name, "halign") == 0)
            s->prop = P_HALIGN;
        else if (strcmp(s->name, "valign") == 0)
            s->prop = P_VALIGN;
        else {
            fail_at(c, s->loc, SINEW_E_TYPE, "joint setter name '%s' is not x, y, halign or valign", s->name);
            return false;
        }
    }
    switch (s->prop) {
    case P_IMAGE:
        s->image = find_or_add_image(c, s->loc, s->content);
        return s->image >= -1;
    case P_VISIBLE: {
        int v = parse_bool(s->content);
        if (v < 0) {
            fail_at(c, s->loc, SINEW_E_TYPE, "setter content '%s' is not true or false", s->content);
            return false;
        }
        s->num = v;
        return true;
    }
    case P_HALIGN:
    case P_VALIGN: {
        int v = parse_align(s->content, s->prop == P_HALIGN);
        if (v < 0) {
            fail_at(c, s->loc, SINEW_E_TYPE, "setter content '%s' is not %s", s->content,
                    s->prop == P_HALIGN ? "left, center or right" : "top, center or bottom");
            return false;
        }
        s->num = v;
        return true;
    }
    default:
        if (!parse_double(s->content, &s->num)) {
            fail_at(c, s->loc, SINEW_E_TYPE, "setter content '%s' is not a number", s->content);
            return false;
        }
        return true;
    }
}

static bool resolve(xr_ctx *c) {
    if (!c->has_project) /* expat rejects empty documents; this is defensive */
        return fail_at(c, c->project_loc, SINEW_E_MISSING, "no <project> element") == SINEW_OK;
    if (!c->has_bones_el)
        return fail_at(c, c->project_loc, SINEW_E_MISSING, "<project> has no <project.bones>") == SINEW_OK;
    if (c->bones.n == 0)
        return fail_at(c, c->project_loc, SINEW_E_MISSING, "<project.bones> has no <bone>") == SINEW_OK;
    xr_bone *bones = BONES(c);
    /* Unique names. */
    for (uint32_t i = 0; i < c->bones.n; i++) {
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(bones[k].name, bones[i].name) == 0)
                return fail_at(c, bones[i].loc, SINEW_E_DUPLICATE, "duplicate bone name '%s' (first at line %u)",
                               bones[i].name, bones[k].loc.line) == SINEW_OK;
        for (uint32_t j = 1; j < bones[i].joint_count; j++) {
            const xr_joint *jj = &JOINTS(c)[bones[i].first_joint + j];
            for (uint32_t k = 0; k < j; k++)
                if (strcmp(JOINTS(c)[bones[i].first_joint + k].name, jj->name) == 0)
                    return fail_at(c, jj->loc, SINEW_E_DUPLICATE, "bone '%s' has two joints named '%s'",
                                   bones[i].name, jj->name) == SINEW_OK;
        }
    }
    for (uint32_t i = 0; i < c->skins.n; i++)
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(SKINS(c)[k].name, SKINS(c)[i].name) == 0)
                return fail_at(c, SKINS(c)[i].loc, SINEW_E_DUPLICATE, "duplicate skin name '%s'",
                               SKINS(c)[i].name) == SINEW_OK;
    for (uint32_t i = 0; i < c->anims.n; i++)
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(ANIMS(c)[k].name, ANIMS(c)[i].name) == 0)
                return fail_at(c, ANIMS(c)[i].loc, SINEW_E_DUPLICATE, "duplicate animation name '%s'",
                               ANIMS(c)[i].name) == SINEW_OK;
    /* Maps. */
    c->root = SINEW_INVALID_INDEX;
    for (uint32_t i = 0; i < c->bones.n; i++) {
        xr_bone *b = &bones[i];
        xr_loc mloc = b->has_map ? b->map_loc : b->loc;
        if (b->from) {
            b->from_joint = find_joint(c, i, b->from);
            if (b->from_joint == SINEW_INVALID_INDEX)
                return fail_at(c, mloc, SINEW_E_REFERENCE, "bone.map from '%s': bone '%s' has no joint '%s'",
                               b->from, b->name, b->from) == SINEW_OK;
        }
        if (b->to) {
            if (!b->from)
                return fail_at(c, mloc, SINEW_E_MISSING,
                               "<bone.map> with 'to' is missing the required attribute 'from'") == SINEW_OK;
            if (!resolve_joint_ref(c, mloc, "bone.map to", b->to, &b->parent, &b->parent_joint))
                return false;
            if (b->parent == i)
                return fail_at(c, mloc, SINEW_E_REFERENCE, "bone '%s' is mapped onto itself", b->name) == SINEW_OK;
        } else {
            if (c->root != SINEW_INVALID_INDEX)
                return fail_at(c, b->has_map ? b->map_loc : b->loc, SINEW_E_REFERENCE,
                               "more than one root bone: '%s' and '%s' (only the root may lack a map with 'to')",
                               bones[c->root].name, b->name) == SINEW_OK;
            c->root = i;
        }
    }
    if (c->root == SINEW_INVALID_INDEX)
        return fail_at(c, bones[0].map_loc, SINEW_E_REFERENCE, "the bone maps form a cycle: there is no root bone") ==
               SINEW_OK;
    /* Children lists (document order), then a depth-first walk from the root. */
    for (uint32_t i = 0; i < c->bones.n; i++) {
        if (bones[i].parent == SINEW_INVALID_INDEX)
            continue;
        xr_bone *p = &bones[bones[i].parent];
        if (p->first_child == SINEW_INVALID_INDEX)
            p->first_child = i;
        else
            bones[p->last_child].next_sibling = i;
        p->last_child = i;
    }
    for (uint32_t i = 0; i < c->bones.n; i++)
        bones[i].model = SINEW_INVALID_INDEX;
    uint32_t *stack = sinew__arena_array(&c->tmp, c->bones.n, sizeof *stack);
    if (!stack)
        return (c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory")) == SINEW_OK;
    uint32_t sp = 0, next = 0;
    stack[sp++] = c->root;
    while (sp) {
        uint32_t b = stack[--sp];
        bones[b].model = next++;
        /* push children in reverse document order so the first child is visited first */
        uint32_t count = 0;
        for (uint32_t ch = bones[b].first_child; ch != SINEW_INVALID_INDEX; ch = bones[ch].next_sibling)
            count++;
        uint32_t at = sp + count;
        for (uint32_t ch = bones[b].first_child; ch != SINEW_INVALID_INDEX; ch = bones[ch].next_sibling)
            stack[--at] = ch;
        sp += count;
    }
    for (uint32_t i = 0; i < c->bones.n; i++)
        if (bones[i].model == SINEW_INVALID_INDEX)
            return fail_at(c, bones[i].map_loc, SINEW_E_REFERENCE, "the bone maps form a cycle through bone '%s'",
                           bones[i].name) == SINEW_OK;
    /* Images and setters. */
    for (uint32_t i = 0; i < c->bones.n; i++) {
        if (bones[i].image_attr) {
            bones[i].image = find_or_add_image(c, bones[i].loc, bones[i].image_attr);
            if (bones[i].image < -1)
                return false;
        }
    }
    for (uint32_t i = 0; i < c->setters.n; i++)
        if (!resolve_setter(c, &SETTERS(c)[i]))
            return false;
    uint64_t total = 0;
    for (uint32_t a = 0; a < c->anims.n; a++) {
        uint64_t d = 0;
        for (uint32_t f = 0; f < ANIMS(c)[a].frame_count; f++)
            d += FRAMES(c)[ANIMS(c)[a].first_frame + f].duration;
        if (d > c->limits.max_animation_frames)
            return fail_at(c, ANIMS(c)[a].loc, SINEW_E_LIMIT, "animation '%s' is longer than %u frames",
                           ANIMS(c)[a].name, c->limits.max_animation_frames) == SINEW_OK;
        total += (uint64_t)ANIMS(c)[a].frame_count;
    }
    (void)total;
    return true;
}

/* ---- poses ---------------------------------------------------------------------------------- */

typedef struct xr_state {
    double px, py;
    double *rot;
    int32_t *image;
    uint8_t *visible;
    double *jx, *jy;
    uint8_t *ha, *va;
} xr_state;

static bool state_init(xr_ctx *c, xr_state *s) {
    uint32_t nb = c->bones.n, nj = c->joints.n ? c->joints.n : 1;
    s->rot = sinew__arena_array(&c->tmp, nb, sizeof *s->rot);
    s->image = sinew__arena_array(&c->tmp, nb, sizeof *s->image);
    s->visible = sinew__arena_array(&c->tmp, nb, 1);
    s->jx = sinew__arena_array(&c->tmp, nj, sizeof *s->jx);
    s->jy = sinew__arena_array(&c->tmp, nj, sizeof *s->jy);
    s->ha = sinew__arena_array(&c->tmp, nj, 1);
    s->va = sinew__arena_array(&c->tmp, nj, 1);
    if (!s->rot || !s->image || !s->visible || !s->jx || !s->jy || !s->ha || !s->va) {
        c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory (XML rig poses)");
        return false;
    }
    return true;
}

static void state_copy(const xr_ctx *c, xr_state *dst, const xr_state *src) {
    uint32_t nb = c->bones.n, nj = c->joints.n;
    dst->px = src->px;
    dst->py = src->py;
    memcpy(dst->rot, src->rot, nb * sizeof *dst->rot);
    memcpy(dst->image, src->image, nb * sizeof *dst->image);
    memcpy(dst->visible, src->visible, nb);
    if (nj) {
        memcpy(dst->jx, src->jx, nj * sizeof *dst->jx);
        memcpy(dst->jy, src->jy, nj * sizeof *dst->jy);
        memcpy(dst->ha, src->ha, nj);
        memcpy(dst->va, src->va, nj);
    }
}

static void state_document(const xr_ctx *c, xr_state *s) {
    s->px = c->px;
    s->py = c->py;
    for (uint32_t i = 0; i < c->bones.n; i++) {
        const xr_bone *b = &BONES(c)[i];
        s->rot[i] = b->rotation;
        s->image[i] = b->image;
        s->visible[i] = b->visible;
    }
    for (uint32_t j = 0; j < c->joints.n; j++) {
        const xr_joint *jt = &JOINTS(c)[j];
        s->jx[j] = jt->x;
        s->jy[j] = jt->y;
        s->ha[j] = jt->ha;
        s->va[j] = jt->va;
    }
}

static void state_apply(const xr_ctx *c, xr_state *s, uint32_t first, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        const xr_setter *st = &SETTERS(c)[first + i];
        switch (st->prop) {
        case P_PX: s->px = st->num; break;
        case P_PY: s->py = st->num; break;
        case P_ROT: s->rot[st->bone] = st->num; break;
        case P_IMAGE: s->image[st->bone] = st->image; break;
        case P_VISIBLE: s->visible[st->bone] = (uint8_t)st->num; break;
        case P_JX: s->jx[st->joint] = st->num; break;
        case P_JY: s->jy[st->joint] = st->num; break;
        case P_HALIGN: s->ha[st->joint] = (uint8_t)st->num; break;
        case P_VALIGN: s->va[st->joint] = (uint8_t)st->num; break;
        default: break;
        }
    }
}

/* The size bone b uses when it shows image `image` (-1 = none). */
static void bone_size(const xr_ctx *c, uint32_t b, int32_t image, double *w, double *h) {
    const xr_bone *bone = &BONES(c)[b];
    *w = image >= 0 ? IMAGES(c)[image].w : 0;
    *h = image >= 0 ? IMAGES(c)[image].h : 0;
    if (bone->has_w)
        *w = bone->w;
    if (bone->has_h)
        *h = bone->h;
}

static void joint_pos(const xr_state *s, uint32_t j, double w, double h, double *x, double *y) {
    double jx = s->jx[j], jy = s->jy[j];
    *x = s->ha[j] == AL_START ? jx : s->ha[j] == AL_CENTER ? w / 2 + jx : w - jx;
    *y = s->va[j] == AL_START ? jy : s->va[j] == AL_CENTER ? h / 2 + jy : h - jy;
}

/* Bone b's pivot (image space) when it shows `image` in state s. */
static void pivot(const xr_ctx *c, const xr_state *s, uint32_t b, int32_t image, double *x, double *y) {
    double w, h;
    bone_size(c, b, image, &w, &h);
    if (BONES(c)[b].from_joint == SINEW_INVALID_INDEX) {
        *x = w / 2;
        *y = h / 2;
    } else {
        joint_pos(s, BONES(c)[b].from_joint, w, h, x, y);
    }
}

/* Local translation of bone b (in its parent's bone space) in state s. */
static void local_translation(const xr_ctx *c, const xr_state *s, uint32_t b, double *x, double *y) {
    const xr_bone *bone = &BONES(c)[b];
    if (bone->parent == SINEW_INVALID_INDEX) {
        *x = s->px;
        *y = s->py;
        return;
    }
    double w, h, kx, ky, px, py;
    uint32_t p = bone->parent;
    bone_size(c, p, s->image[p], &w, &h);
    joint_pos(s, bone->parent_joint, w, h, &kx, &ky);
    pivot(c, s, p, s->image[p], &px, &py);
    *x = kx - px;
    *y = ky - py;
}

/* ---- building the model ---------------------------------------------------------------------- */

static const double XR_DEG = 3.14159265358979323846 / 180.0;

typedef struct xr_build {
    xr_state setup, frame;
    uint32_t *slot_of_model;  /* model slot index -> document bone */
    uint32_t *doc_of_model;   /* model bone index -> document bone */
    uint32_t *display_first;  /* per document bone: first display (model index) */
    uint32_t *display_count;
    int32_t *display_image;   /* per model display: image index */
} xr_build;

static int32_t display_index_of(const xr_build *bd, uint32_t b, int32_t image, bool visible) {
    if (!visible || image < 0)
        return -1;
    for (uint32_t d = 0; d < bd->display_count[b]; d++)
        if (bd->display_image[bd->display_first[b] + d] == image)
            return (int32_t)d;
    return -1;
}

static sinew_status fail_nomem(xr_ctx *c) {
    return c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory (XML rig model)");
}

static void fill_key(sinew_model_keyframe *k, float position, float duration, uint8_t xml_tween, bool tweens,
                     uint32_t value) {
    memset(k, 0, sizeof *k);
    k->position = position;
    k->duration = duration;
    k->value = value;
    k->tween_easing = NAN;
    k->tween = SINEW_TWEEN_NONE;
    k->hide = -1;
    if (!tweens)
        return;
    switch (xml_tween) {
    case TW_LINEAR: k->tween = SINEW_TWEEN_LINEAR; k->tween_easing = 0; break;
    case TW_EASE_IN: k->tween = SINEW_TWEEN_QUAD_IN; k->tween_easing = -1; k->strength = 1; break;
    case TW_EASE_OUT: k->tween = SINEW_TWEEN_QUAD_OUT; k->tween_easing = 1; k->strength = 1; break;
    case TW_EASE_IN_OUT: k->tween = SINEW_TWEEN_QUAD_IN_OUT; k->tween_easing = 2; k->strength = 1; break;
    default: break;
    }
}

/* Builds animation `ai` into `out` for the armature whose setup state is bd->setup. */
static sinew_status build_animation(xr_ctx *c, struct sinew_data *data, sinew_model_armature *arm, xr_build *bd,
                                    uint32_t ai, sinew_model_animation *out, uint32_t *timeline_at) {
    const xr_anim *an = &ANIMS(c)[ai];
    uint32_t nb = c->bones.n, nf = an->frame_count;
    size_t cells;
    if (!sinew__mul_size(nb, nf, &cells))
        return fail_nomem(c);
    double *rot = sinew__arena_array(&c->tmp, cells, sizeof *rot);
    double *tx = sinew__arena_array(&c->tmp, cells, sizeof *tx);
    double *ty = sinew__arena_array(&c->tmp, cells, sizeof *ty);
    int32_t *disp = sinew__arena_array(&c->tmp, cells, sizeof *disp);
    if (!rot || !tx || !ty || !disp)
        return fail_nomem(c);
    float position = 0;
    for (uint32_t f = 0; f < nf; f++) {
        const xr_frame *fr = &FRAMES(c)[an->first_frame + f];
        state_copy(c, &bd->frame, &bd->setup);
        state_apply(c, &bd->frame, fr->first_setter, fr->setter_count);
        for (uint32_t b = 0; b < nb; b++) {
            size_t i = (size_t)f * nb + b;
            double sx, sy, x, y;
            local_translation(c, &bd->setup, b, &sx, &sy);
            local_translation(c, &bd->frame, b, &x, &y);
            rot[i] = (bd->frame.rot[b] - bd->setup.rot[b]) * XR_DEG;
            tx[i] = x - sx;
            ty[i] = y - sy;
            disp[i] = display_index_of(bd, b, bd->frame.image[b], bd->frame.visible[b]);
            /* The image sits at the pivot its display was built with (the setup joints); a frame
             * that moves the bone's own 'from' joint cannot move the image with it. */
            if (disp[i] >= 0 && BONES(c)[b].from_joint != SINEW_INVALID_INDEX) {
                double p0x, p0y, p1x, p1y;
                pivot(c, &bd->setup, b, bd->frame.image[b], &p0x, &p0y);
                pivot(c, &bd->frame, b, bd->frame.image[b], &p1x, &p1y);
                if (fabs(p0x - p1x) > 1e-9 || fabs(p0y - p1y) > 1e-9)
                    warn_at(c, fr->loc, SINEW_E_UNSUPPORTED,
                            "armature '%s', animation '%s': this frame moves the 'from' joint of bone '%s'; "
                            "its image keeps the setup pivot (approximation)",
                            arm->name, an->name, BONES(c)[b].name);
            }
        }
        position += (float)fr->duration;
    }
    /* Which timelines are needed. */
    uint32_t tl_count = 0, key_total = 0;
    bool *need = sinew__arena_array(&c->tmp, (size_t)nb * 3u, sizeof *need);
    if (!need)
        return fail_nomem(c);
    for (uint32_t b = 0; b < nb; b++) {
        int32_t setup_disp = display_index_of(bd, b, bd->setup.image[b], bd->setup.visible[b]);
        for (uint32_t f = 0; f < nf; f++) {
            size_t i = (size_t)f * nb + b;
            if (tx[i] != 0 || ty[i] != 0)
                need[b * 3] = true;
            if (rot[i] != 0)
                need[b * 3 + 1] = true;
            if (disp[i] != setup_disp)
                need[b * 3 + 2] = true;
        }
        for (int k = 0; k < 3; k++)
            if (need[b * 3 + (uint32_t)k]) {
                tl_count++;
                key_total += nf;
            }
    }
    memset(out, 0, sizeof *out);
    out->name = sinew__arena_strdup(&data->arena, an->name);
    out->duration = position;
    out->play_times = an->play_times;
    out->fade_in_time = -1;
    out->scale = 1;
    out->auto_tween = -1;
    out->first_timeline = *timeline_at;
    out->timeline_count = tl_count;
    out->key_count = key_total;
    out->keys = sinew__arena_array(&data->arena, key_total ? key_total : 1, sizeof *out->keys);
    if (!out->name || !out->keys)
        return fail_nomem(c);
    uint32_t key_at = 0;
    /* Bones in model order, then slots in draw order. */
    for (uint32_t kind = 0; kind < 3; kind++) {
        for (uint32_t m = 0; m < nb; m++) {
            uint32_t b = kind < 2 ? bd->doc_of_model[m] : bd->slot_of_model[m];
            if (!need[b * 3 + kind])
                continue;
            sinew_model_timeline *tl = &arm->timelines[(*timeline_at)++];
            memset(tl, 0, sizeof *tl);
            tl->type = kind == 0 ? SINEW_TL_BONE_TRANSLATE : kind == 1 ? SINEW_TL_BONE_ROTATE : SINEW_TL_SLOT_DISPLAY;
            tl->target = m;
            tl->skin = tl->display = tl->mesh = SINEW_INVALID_INDEX;
            tl->scale = 1;
            tl->offset = 0;
            tl->first_key = key_at;
            tl->key_count = nf;
            tl->values_per_key = kind == 2 ? 1 : 2;
            tl->rotation_plain = kind == 1;
            tl->values = sinew__arena_array(&data->arena, (size_t)nf * tl->values_per_key, sizeof(float));
            if (!tl->values)
                return fail_nomem(c);
            float pos = 0;
            double prev_u = 0;
            for (uint32_t f = 0; f < nf; f++) {
                const xr_frame *fr = &FRAMES(c)[an->first_frame + f];
                size_t i = (size_t)f * nb + b;
                /* Joint-driven translations step; project x/y (the root) and rotations tween. */
                bool tweens = kind == 1 || (kind == 0 && BONES(c)[b].parent == SINEW_INVALID_INDEX);
                sinew_model_keyframe *k = &out->keys[key_at++];
                fill_key(k, pos, (float)fr->duration, fr->tween, tweens, f * tl->values_per_key);
                if (kind == 0) {
                    tl->values[f * 2] = (float)tx[i];
                    tl->values[f * 2 + 1] = (float)ty[i];
                } else if (kind == 1) {
                    tl->values[f * 2] = (float)rot[i];
                    tl->values[f * 2 + 1] = 0;
                    /* tweenRotate on the previous key so that DragonBones' unwrapping follows the
                     * plain numbers (see sinew__db_tween_rotate_for). */
                    double deg = (double)tl->values[f * 2] / XR_DEG;
                    if (f == 0) {
                        prev_u = sinew__db_unwrap_first(deg);
                    } else {
                        double delta = (double)tl->values[f * 2] - (double)tl->values[(f - 1) * 2];
                        out->keys[key_at - 2].tween_rotate = sinew__db_tween_rotate_for(&prev_u, deg, delta);
                    }
                } else {
                    tl->values[f] = (float)disp[i];
                }
                pos += (float)fr->duration;
            }
        }
    }
    return SINEW_OK;
}

/* The armature's name (NAME, or NAME@SKIN for a skin), type, frame rate and size. */
static void xml_armature_header(xr_ctx *c, struct sinew_data *data, int32_t skin, sinew_model_armature *arm) {
    memset(arm, 0, sizeof *arm);
    if (skin < 0) {
        arm->name = sinew__arena_strdup(&data->arena, c->name);
    } else {
        size_t n1 = strlen(c->name), n2 = strlen(SKINS(c)[skin].name);
        char *nm = sinew__arena_alloc(&data->arena, n1 + n2 + 2);
        if (nm) {
            memcpy(nm, c->name, n1);
            nm[n1] = '@';
            memcpy(nm + n1 + 1, SKINS(c)[skin].name, n2 + 1);
        }
        arm->name = nm;
    }
    arm->type = "Armature";
    arm->frame_rate = (float)c->frame_rate;
    arm->default_animation = c->anims.n ? 0 : SINEW_INVALID_INDEX;
    if (c->has_width || c->has_height) {
        arm->has_aabb = true;
        arm->aabb.a = 0;
        arm->aabb.b = 0;
        arm->aabb.c = (float)c->width;
        arm->aabb.d = (float)c->height;
    }
}

/* Bones: the setup pose's local translation and rotation, in document order. */
static sinew_status xml_bones(xr_ctx *c, struct sinew_data *data, xr_build *bd, sinew_model_armature *arm) {
    uint32_t nb = c->bones.n;
    for (uint32_t b = 0; b < nb; b++) {
        const xr_bone *xb = &BONES(c)[b];
        sinew_model_bone *mb = &arm->bones[xb->model];
        double x, y;
        local_translation(c, &bd->setup, b, &x, &y);
        mb->name = sinew__arena_strdup(&data->arena, xb->name);
        if (!mb->name)
            return fail_nomem(c);
        mb->parent = xb->parent == SINEW_INVALID_INDEX ? SINEW_INVALID_INDEX : BONES(c)[xb->parent].model;
        mb->file_index = xb->model;
        bd->doc_of_model[xb->model] = b;
        mb->setup.x = (float)x;
        mb->setup.y = (float)y;
        mb->setup.rotation = (float)sinew__db_normalize_radian(bd->setup.rot[b] * XR_DEG);
        mb->setup.skew = 0;
        mb->setup.scale_x = mb->setup.scale_y = 1;
        mb->inherit_translation = mb->inherit_rotation = mb->inherit_scale = mb->inherit_reflection = true;
    }

    return SINEW_OK;
}

/* Display lists: the distinct images each bone ever shows, in order of first appearance. */
static sinew_status xml_displays(xr_ctx *c, struct sinew_data *data, xr_build *bd, sinew_model_armature *arm) {
    uint32_t nb = c->bones.n;
    int32_t *seen = sinew__arena_array(&c->tmp, (size_t)nb * (c->images.n + 1u), sizeof *seen);
    int32_t *order = sinew__arena_array(&c->tmp, (size_t)nb * (c->images.n + 1u), sizeof *order);
    if (!seen || !order)
        return fail_nomem(c);
    uint32_t total_displays = 0;
    uint32_t ni = c->images.n + 1u;
    for (uint32_t b = 0; b < nb; b++) {
        int32_t im = bd->setup.image[b];
        if (im >= 0 && !seen[b * ni + (uint32_t)im]) {
            seen[b * ni + (uint32_t)im] = 1;
            order[b * ni + bd->display_count[b]++] = im;
        }
    }
    for (uint32_t a = 0; a < c->anims.n; a++)
        for (uint32_t f = 0; f < ANIMS(c)[a].frame_count; f++) {
            const xr_frame *fr = &FRAMES(c)[ANIMS(c)[a].first_frame + f];
            for (uint32_t s = 0; s < fr->setter_count; s++) {
                const xr_setter *st = &SETTERS(c)[fr->first_setter + s];
                if (st->prop != P_IMAGE || st->image < 0)
                    continue;
                uint32_t cell = st->bone * ni + (uint32_t)st->image;
                if (!seen[cell]) {
                    seen[cell] = 1;
                    order[st->bone * ni + bd->display_count[st->bone]++] = st->image;
                }
            }
        }
    for (uint32_t b = 0; b < nb; b++) {
        bd->display_first[b] = total_displays;
        total_displays += bd->display_count[b];
    }
    arm->display_count = total_displays;
    arm->displays = sinew__arena_array(&data->arena, total_displays ? total_displays : 1, sizeof *arm->displays);
    bd->display_image = sinew__arena_array(&c->tmp, total_displays ? total_displays : 1, sizeof *bd->display_image);
    if (!arm->displays || !bd->display_image)
        return fail_nomem(c);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t d = 0; d < bd->display_count[b]; d++) {
            int32_t im = order[b * ni + d];
            uint32_t at = bd->display_first[b] + d;
            bd->display_image[at] = im;
            sinew_model_display *dp = &arm->displays[at];
            double w, h, px, py;
            bone_size(c, b, im, &w, &h);
            pivot(c, &bd->setup, b, im, &px, &py);
            dp->type = SINEW_DISPLAY_IMAGE;
            dp->name = dp->path = sinew__arena_strdup(&data->arena, IMAGES(c)[im].key);
            if (!dp->name)
                return fail_nomem(c);
            dp->transform.x = (float)(w / 2 - px);
            dp->transform.y = (float)(h / 2 - py);
            dp->transform.scale_x = dp->transform.scale_y = 1;
            dp->pivot_x = dp->pivot_y = 0.5f;
            dp->armature = dp->mesh = SINEW_INVALID_INDEX;
        }

    return SINEW_OK;
}

/* Slots: draw order by z, then document order (a stable insertion sort); one display list each,
 * in the one skin. */
static void xml_slots(xr_ctx *c, xr_build *bd, sinew_model_armature *arm) {
    uint32_t nb = c->bones.n;
    uint32_t *sorted = bd->slot_of_model;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t at = b;
        while (at > 0 && BONES(c)[sorted[at - 1]].z > BONES(c)[b].z) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = b;
    }
    for (uint32_t s = 0; s < nb; s++) {
        uint32_t b = sorted[s];
        sinew_model_slot *sl = &arm->slots[s];
        sl->name = arm->bones[BONES(c)[b].model].name;
        sl->parent = BONES(c)[b].model;
        sl->display_index = display_index_of(bd, b, bd->setup.image[b], bd->setup.visible[b]);
        sl->blend = SINEW_BLEND_NORMAL;
        sl->color.a_mul = sl->color.r_mul = sl->color.g_mul = sl->color.b_mul = 1;
        sl->z = (int32_t)s;
        arm->skin_slots[s].slot = s;
        arm->skin_slots[s].first_display = bd->display_first[b];
        arm->skin_slots[s].display_count = bd->display_count[b];
    }
    arm->skins[0].name = "";
    arm->skins[0].source_index = SINEW_INVALID_INDEX;
    arm->skins[0].first_slot = 0;
    arm->skins[0].slot_count = nb;

}

/* Animations: every XML animation, its timelines in one array for the armature. */
static sinew_status xml_animations(xr_ctx *c, struct sinew_data *data, xr_build *bd, sinew_model_armature *arm) {
    uint32_t nb = c->bones.n;
    arm->animation_count = c->anims.n;
    if (c->anims.n) {
        size_t tl_max;
        if (!sinew__mul_size((size_t)nb * 3u, c->anims.n, &tl_max) || tl_max > UINT32_MAX)
            return c->st = sinew__fail(c->err, SINEW_E_LIMIT, NULL, "too many timelines");
        arm->animations = sinew__arena_array(&data->arena, c->anims.n, sizeof *arm->animations);
        arm->timelines = sinew__arena_array(&data->arena, tl_max, sizeof *arm->timelines);
        if (!arm->animations || !arm->timelines)
            return fail_nomem(c);
        uint32_t tl_at = 0;
        for (uint32_t a = 0; a < c->anims.n; a++)
            if (build_animation(c, data, arm, bd, a, &arm->animations[a], &tl_at) != SINEW_OK)
                return c->st ? c->st : SINEW_E_NOMEM;
        arm->timeline_count = tl_at;
    }
    return SINEW_OK;
}

static sinew_status build_armature(xr_ctx *c, struct sinew_data *data, int32_t skin, sinew_model_armature *arm) {
    uint32_t nb = c->bones.n;
    xr_build bd;
    memset(&bd, 0, sizeof bd);
    if (!state_init(c, &bd.setup) || !state_init(c, &bd.frame))
        return c->st;
    state_document(c, &bd.setup);
    if (skin >= 0)
        state_apply(c, &bd.setup, SKINS(c)[skin].first_setter, SKINS(c)[skin].setter_count);

    xml_armature_header(c, data, skin, arm);
    arm->bone_count = arm->slot_count = arm->skin_slot_count = nb;
    arm->skin_count = 1;
    arm->bones = sinew__arena_array(&data->arena, nb, sizeof *arm->bones);
    arm->slots = sinew__arena_array(&data->arena, nb, sizeof *arm->slots);
    arm->skins = sinew__arena_array(&data->arena, 1, sizeof *arm->skins);
    arm->skin_slots = sinew__arena_array(&data->arena, nb, sizeof *arm->skin_slots);
    bd.slot_of_model = sinew__arena_array(&c->tmp, nb, sizeof *bd.slot_of_model);
    bd.doc_of_model = sinew__arena_array(&c->tmp, nb, sizeof *bd.doc_of_model);
    bd.display_first = sinew__arena_array(&c->tmp, nb, sizeof *bd.display_first);
    bd.display_count = sinew__arena_array(&c->tmp, nb, sizeof *bd.display_count);
    if (!arm->name || !arm->bones || !arm->slots || !arm->skins || !arm->skin_slots || !bd.slot_of_model ||
        !bd.doc_of_model || !bd.display_first || !bd.display_count)
        return fail_nomem(c);

    sinew_status st;
    if ((st = xml_bones(c, data, &bd, arm)) != SINEW_OK || (st = xml_displays(c, data, &bd, arm)) != SINEW_OK)
        return st;
    xml_slots(c, &bd, arm);
    return xml_animations(c, data, &bd, arm);
}

/* ---- entry points ---------------------------------------------------------------------------- */

static void resolve_limits(const sinew_load_options *opts, sinew_load_limits *l) {
    memset(l, 0, sizeof *l);
    if (opts)
        *l = opts->limits;
    if (!l->max_input_bytes)
        l->max_input_bytes = 256u << 20;
    if (!l->max_memory_bytes)
        l->max_memory_bytes = 1ull << 30;
    if (!l->max_bones)
        l->max_bones = 65536;
    if (!l->max_animation_frames)
        l->max_animation_frames = 1000000;
}

static void ctx_free(xr_ctx *c) {
    vec_free(c, &c->bones, sizeof(xr_bone));
    vec_free(c, &c->joints, sizeof(xr_joint));
    vec_free(c, &c->setters, sizeof(xr_setter));
    vec_free(c, &c->frames, sizeof(xr_frame));
    vec_free(c, &c->anims, sizeof(xr_anim));
    vec_free(c, &c->skins, sizeof(xr_skin));
    vec_free(c, &c->images, sizeof(xr_image));
    sinew__arena_destroy(&c->tmp);
}

/* Parses and resolves; on success the records in `c` are ready. */
static sinew_status parse_document(xr_ctx *c, const void *buf, size_t len) {
    if (len > c->limits.max_input_bytes)
        return c->st = sinew__fail_at(c->err, SINEW_E_LIMIT, c->file, 0, 0, NULL,
                                      "input is larger than %llu bytes (max_input_bytes)",
                                      (unsigned long long)c->limits.max_input_bytes);
    if (len > INT32_MAX)
        return c->st = sinew__fail_at(c->err, SINEW_E_LIMIT, c->file, 0, 0, NULL, "input too large");
    c->parser = XML_ParserCreate("UTF-8");
    if (!c->parser)
        return c->st = sinew__fail(c->err, SINEW_E_NOMEM, NULL, "out of memory (expat)");
    XML_SetUserData(c->parser, c);
    XML_SetElementHandler(c->parser, on_start, on_end);
    XML_SetCharacterDataHandler(c->parser, on_text);
    XML_SetStartDoctypeDeclHandler(c->parser, on_doctype);
    enum XML_Status xs = XML_Parse(c->parser, buf, (int)len, XML_TRUE);
    if (xs == XML_STATUS_ERROR && c->st == SINEW_OK) {
        xr_loc loc = here(c);
        fail_at(c, loc, SINEW_E_PARSE, "malformed XML: %s", XML_ErrorString(XML_GetErrorCode(c->parser)));
    }
    XML_ParserFree(c->parser);
    c->parser = NULL;
    if (c->st != SINEW_OK)
        return c->st;
    if (!resolve(c))
        return c->st ? c->st : SINEW_E_PARSE;
    return c->st;
}

static void ctx_init(xr_ctx *c, const char *name, const char *base_dir, const sinew_load_options *opts,
                     sinew_error *err) {
    memset(c, 0, sizeof *c);
    c->alloc = sinew__allocator_or_default(opts ? opts->allocator : NULL);
    c->log = opts ? opts->log : NULL;
    c->log_user = opts ? opts->log_user : NULL;
    c->file = name;
    c->base_dir = base_dir;
    c->err = err;
    resolve_limits(opts, &c->limits);
    sinew__arena_init(&c->tmp, c->alloc, (size_t)c->limits.max_memory_bytes);
}

sinew_status sinew__xml_load_buffer(const void *buf, size_t len, const char *name, const char *base_dir,
                                    const sinew_load_options *opts, struct sinew_data **out, sinew_error *err) {
    if (!out || (!buf && len))
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew__xml_load_buffer: NULL argument");
    *out = NULL;
    xr_ctx c;
    ctx_init(&c, name, base_dir, opts, err);
    if (parse_document(&c, buf ? buf : "", len) != SINEW_OK) {
        sinew_status st = c.st;
        ctx_free(&c);
        return st;
    }
    /* The data struct lives in its own arena (sinew_data_destroy frees the arena only). */
    sinew_arena arena;
    sinew__arena_init(&arena, c.alloc, (size_t)c.limits.max_memory_bytes);
    struct sinew_data *data = sinew__arena_alloc(&arena, sizeof *data);
    if (!data) {
        sinew__arena_destroy(&arena);
        ctx_free(&c);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    data->arena = arena;
    data->name = sinew__arena_strdup(&data->arena, c.name);
    data->version = "xml";
    data->source_format = "xml";
    data->frame_rate = (float)c.frame_rate;
    data->armature_count = 1u + c.skins.n;
    data->armatures = sinew__arena_array(&data->arena, data->armature_count, sizeof *data->armatures);
    sinew_status st = (data->name && data->armatures) ? SINEW_OK : fail_nomem(&c);
    for (uint32_t a = 0; st == SINEW_OK && a < data->armature_count; a++)
        st = build_armature(&c, data, (int32_t)a - 1, &data->armatures[a]);
    if (st == SINEW_OK)
        st = sinew__model_prepare(data, err);
    ctx_free(&c);
    if (st != SINEW_OK) {
        arena = data->arena;
        sinew__arena_destroy(&arena);
        return st;
    }
    *out = data;
    return SINEW_OK;
}

/* Reads a whole file (with the input limit). */
static sinew_status read_file(const char *path, const sinew_allocator *alloc, uint64_t limit, char **out,
                              size_t *out_len, size_t *out_cap, sinew_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = sinew__alloc(alloc, cap);
    sinew_status st = buf ? SINEW_OK : SINEW_E_NOMEM;
    while (st == SINEW_OK) {
        if (len == cap) {
            if ((uint64_t)cap * 2 > limit + 1) {
                if (cap > limit) {
                    st = sinew__fail_at(err, SINEW_E_LIMIT, path, 0, 0, NULL,
                                        "input is larger than %llu bytes (max_input_bytes)",
                                        (unsigned long long)limit);
                    break;
                }
            }
            char *nb = sinew__realloc(alloc, buf, cap, cap * 2);
            if (!nb) {
                st = SINEW_E_NOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                st = sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "read error");
            break;
        }
        if (len > limit) {
            st = sinew__fail_at(err, SINEW_E_LIMIT, path, 0, 0, NULL, "input is larger than %llu bytes (max_input_bytes)",
                                (unsigned long long)limit);
            break;
        }
    }
    fclose(f);
    if (st == SINEW_E_NOMEM)
        sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory reading %s", path);
    if (st != SINEW_OK) {
        sinew__free(alloc, buf, cap);
        return st;
    }
    *out = buf;
    *out_len = len;
    *out_cap = cap;
    return SINEW_OK;
}

/* The folder part of `path` ("" when none), allocated with `alloc` (size strlen + 1). */
static char *dir_of(const sinew_allocator *alloc, const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (slash && n == 0)
        n = 1; /* "/file.xml" -> "/" */
    char *d = sinew__alloc(alloc, n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* Reads a rig file and its folder, both allocated with `alloc`: the caller frees *buf (*cap
 * bytes) and *dir (strlen + 1). On failure nothing is left allocated. */
static sinew_status read_rig(const char *path, const sinew_allocator *alloc, uint64_t limit, char **buf, size_t *len,
                             size_t *cap, char **dir, sinew_error *err) {
    sinew_status st = read_file(path, alloc, limit, buf, len, cap, err);
    if (st != SINEW_OK)
        return st;
    *dir = dir_of(alloc, path);
    if (!*dir) {
        sinew__free(alloc, *buf, *cap);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    return SINEW_OK;
}

sinew_status sinew__xml_load_file(const char *path, const sinew_load_options *opts, struct sinew_data **out,
                                  sinew_error *err) {
    if (!path || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew__xml_load_file: NULL argument");
    *out = NULL;
    sinew_load_limits lim;
    resolve_limits(opts, &lim);
    const sinew_allocator *alloc = sinew__allocator_or_default(opts ? opts->allocator : NULL);
    char *buf = NULL, *dir = NULL;
    size_t len = 0, cap = 0;
    sinew_status st = read_rig(path, alloc, lim.max_input_bytes, &buf, &len, &cap, &dir, err);
    if (st != SINEW_OK)
        return st;
    st = sinew__xml_load_buffer(buf, len, path, dir, opts, out, err);
    sinew__free(alloc, dir, strlen(dir) + 1);
    sinew__free(alloc, buf, cap);
    return st;
}

bool sinew__xml_sniff(const char *path, const void *buf, size_t len) {
    if (path) {
        size_t n = strlen(path);
        if (n >= 4 && path[n - 4] == '.' && tolower((unsigned char)path[n - 3]) == 'x' &&
            tolower((unsigned char)path[n - 2]) == 'm' && tolower((unsigned char)path[n - 1]) == 'l')
            return true;
    }
    const unsigned char *p = buf;
    size_t i = 0;
    if (p && len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
        i = 3; /* UTF-8 byte order mark */
    for (; p && i < len; i++) {
        if (xml_space(p[i]))
            continue;
        return p[i] == '<';
    }
    return false;
}

static int cmp_region(const void *a, const void *b) {
    return strcmp(((const sinew_model_region *)a)->name, ((const sinew_model_region *)b)->name);
}

sinew_status sinew__xml_load_atlas_file(const char *path, const sinew_load_options *opts, struct sinew_atlas **out,
                                        sinew_error *err) {
    if (!path || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew__xml_load_atlas_file: NULL argument");
    *out = NULL;
    xr_ctx c;
    const sinew_allocator *alloc = sinew__allocator_or_default(opts ? opts->allocator : NULL);
    sinew_load_limits lim;
    resolve_limits(opts, &lim);
    char *buf = NULL, *dir = NULL;
    size_t len = 0, cap = 0;
    sinew_status st = read_rig(path, alloc, lim.max_input_bytes, &buf, &len, &cap, &dir, err);
    if (st != SINEW_OK)
        return st;
    sinew_load_options quiet;
    memset(&quiet, 0, sizeof quiet);
    if (opts)
        quiet = *opts;
    quiet.log = NULL; /* the skeleton load already reported the warnings */
    ctx_init(&c, path, dir, &quiet, err);
    st = parse_document(&c, buf, len);
    struct sinew_atlas *atlas = NULL;
    if (st == SINEW_OK) {
        sinew_arena arena;
        sinew__arena_init(&arena, alloc, (size_t)lim.max_memory_bytes);
        atlas = sinew__arena_alloc(&arena, sizeof *atlas);
        if (!atlas) {
            sinew__arena_destroy(&arena);
            st = fail_nomem(&c);
        } else {
            atlas->arena = arena;
            uint32_t n = c.images.n;
            atlas->page_count = atlas->region_count = n;
            atlas->pages = sinew__arena_array(&atlas->arena, n ? n : 1, sizeof *atlas->pages);
            atlas->regions = sinew__arena_array(&atlas->arena, n ? n : 1, sizeof *atlas->regions);
            if (!atlas->pages || !atlas->regions)
                st = fail_nomem(&c);
            for (uint32_t i = 0; st == SINEW_OK && i < n; i++) {
                const xr_image *im = &IMAGES(&c)[i];
                sinew_model_page *pg = &atlas->pages[i];
                sinew_model_region *rg = &atlas->regions[i];
                pg->name = sinew__arena_strdup(&atlas->arena, im->key);
                pg->image_path = sinew__arena_strdup(&atlas->arena, im->path);
                pg->resolved_path = sinew__arena_strdup(&atlas->arena, im->resolved);
                pg->width = im->w;
                pg->height = im->h;
                pg->scale = 1;
                rg->name = pg->name;
                rg->page = i;
                rg->x = rg->y = 0;
                rg->width = (float)im->w;
                rg->height = (float)im->h;
                if (!pg->name || !pg->image_path || !pg->resolved_path)
                    st = fail_nomem(&c);
            }
            if (st == SINEW_OK && n > 1)
                qsort(atlas->regions, n, sizeof *atlas->regions, cmp_region);
        }
    }
    ctx_free(&c);
    sinew__free(alloc, dir, strlen(dir) + 1);
    sinew__free(alloc, buf, cap);
    if (st != SINEW_OK) {
        if (atlas) {
            sinew_arena arena = atlas->arena;
            sinew__arena_destroy(&arena);
        }
        return st;
    }
    *out = atlas;
    return SINEW_OK;
}
