/*
 * posecmp EXPECTED ACTUAL [--quiet] - compares two pose dumps of the official oracle's schema
 * (shared/tools/oracle), fast enough for the large dumps of the scenario tests.
 *
 * The checks are posediff.py's at its default tolerances (bone and slot matrices: positions 0.01,
 * axes 1e-4; mesh vertices 0.01; colours 1e-3, offsets scaled by 1/255; display index and draw
 * index exactly; nested child armature poses; bones and slots matched by name, animations by
 * name, samples by index) plus more: the events of each sample in the same order (type, name,
 * armature, animation, and the time within 1e-6 s); a child armature's animation; the name and type of the display each visible slot shows; each slot's
 * `visible` and `blendMode` exactly; no bone or slot in the actual pose that the expected one lacks
 * (the same counts: a by-name lookup alone lets an extra or a duplicated one pass); and, when both
 * dumps were made with an atlas, the pivot of each visible image (tolerance 0.01, as positions).
 * DragonBones 6.0 dumps (tools/oracle6) add, as tests/lib/posecmp.py compares them: a slot's
 * `mask` and `maskedBy` exactly (on both sides or on neither), vector-shape and path vertices
 * (`shape`, `path`) as mesh vertices (a slot showing a shape has no matrix compared), and, when
 * the expected sample has it, the constraint state (`constraints`, matched by type, name and bone;
 * tolerances in `state_fields`, times max(1, |expected|)).
 * One line per animation ("ok" or "FAIL" with its worst errors and the first mismatches), then
 * `posecmp: N passed, M failed`. Exit 0 only when all passed.
 *
 * A test tool (built with the tests, not installed); it shares no code with posediff.py.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_dom.h"
#include "../unit/read_file.h"

#define TOL_POS 0.01
#define TOL_AXIS 1e-4
#define TOL_COLOR 1e-3
#define MAX_PROBLEMS 4

typedef struct diff {
    double pos, axis, color, state; /* state: the worst constraint-state error over its tolerance */
    int problems;
    char text[MAX_PROBLEMS][256];
} diff;

static void problem(diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(diff *d, const char *fmt, ...) {
    if (d->problems < MAX_PROBLEMS) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->text[d->problems], sizeof d->text[0], fmt, ap);
        va_end(ap);
    }
    d->problems++;
}

/* The dumps run to hundreds of megabytes: sinew's arena reader (base/json_dom.h) parses them
 * several times faster than cJSON's node-per-malloc parse. */
static cJSON *load(const char *path, sinew_jdom *dom) {
    size_t len = 0, end = 0;
    char *text = test_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "posecmp: cannot read %s\n", path);
        return NULL;
    }
    cJSON *j = NULL;
    if (sinew__jdom_parse(dom, text, len, 512, &j, &end) != SINEW_JDOM_OK)
        fprintf(stderr, "posecmp: %s is not valid JSON (byte %zu)\n", path, end);
    free(text);
    return j;
}

/* |a - b| (infinite when either is missing or not a number, as posediff treats them) */
static double delta(const cJSON *a, const cJSON *b) {
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b))
        return INFINITY;
    double d = fabs(a->valuedouble - b->valuedouble);
    return d == d ? d : INFINITY;
}

static double num_or(const cJSON *o, const char *k, double def, bool *present) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (present)
        *present = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static const cJSON *by_name(const cJSON *arr, const char *name) {
    const cJSON *x;
    cJSON_ArrayForEach(x, arr) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(x, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return x;
    }
    return NULL;
}

static void cmp_matrix(diff *d, const char *where, const cJSON *e, const cJSON *a) {
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 6 || !cJSON_IsArray(e) || cJSON_GetArraySize(e) != 6) {
        problem(d, "%s: matrix missing", where);
        return;
    }
    const cJSON *x = e->child, *y = a->child;
    for (int i = 0; i < 6; ++i, x = x->next, y = y->next) {
        double v = delta(x, y);
        if (i < 4)
            d->axis = fmax(d->axis, v);
        else
            d->pos = fmax(d->pos, v);
    }
}

static const char *name_of(const cJSON *o) {
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");
    return cJSON_IsString(n) ? n->valuestring : "";
}

static int int_of(const cJSON *o, const char *k, int def) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? (int)v->valuedouble : def;
}

static const char *str_or(const cJSON *o, const char *k);

/* mesh, shape or path vertices: the same count, each within the position tolerance */
static void cmp_vertices(diff *d, const char *where, const char *what, const cJSON *e, const cJSON *a) {
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(e, "vertices"), *av = cJSON_GetObjectItemCaseSensitive(a, "vertices");
    if (!cJSON_IsArray(ev) || !cJSON_IsArray(av) || cJSON_GetArraySize(av) != cJSON_GetArraySize(ev)) {
        problem(d, "%s: %s vertices missing or of another length", where, what);
        return;
    }
    for (const cJSON *x = ev->child, *y = av->child; x && y; x = x->next, y = y->next)
        d->pos = fmax(d->pos, delta(x, y));
}

/* a 6.0 mask field (maskRange or mask slot name) present on both sides with the same value, or on neither */
static void cmp_mask_field(diff *d, const char *where, const char *key, const cJSON *e, const cJSON *a) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, key), *y = cJSON_GetObjectItemCaseSensitive(a, key);
    bool same = (!x && !y) || (x && y && cJSON_Compare(x, y, true));
    if (!same) {
        char *xs = x ? cJSON_PrintUnformatted(x) : NULL, *ys = y ? cJSON_PrintUnformatted(y) : NULL;
        problem(d, "%s: %s %s, expected %s", where, key, ys ? ys : "absent", xs ? xs : "absent");
        free(xs);
        free(ys);
    }
}

/* Image pivots are compared when both dumps were made with an atlas (the oracle writes them then;
 * sinew poses writes them only then). */
static bool pivots;

/* The actual pose lists no bone (or slot) the expected one lacks: the same count, every expected name
 * found (by the caller). */
static void cmp_count(diff *d, const char *where, const char *what, const cJSON *e, const cJSON *a) {
    int ne = cJSON_GetArraySize(e), na = cJSON_GetArraySize(a);
    if (ne != na)
        problem(d, "%s: %d %s, expected %d", where, na, what, ne);
}

static void cmp_pose(diff *d, const char *where, const cJSON *e, const cJSON *a) {
    char w[200];
    const cJSON *abones = cJSON_GetObjectItemCaseSensitive(a, "bones");
    cmp_count(d, where, "bones", cJSON_GetObjectItemCaseSensitive(e, "bones"), abones);
    cmp_count(d, where, "slots", cJSON_GetObjectItemCaseSensitive(e, "slots"), cJSON_GetObjectItemCaseSensitive(a, "slots"));
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(e, "bones")) {
        const cJSON *ab = by_name(abones, name_of(b));
        snprintf(w, sizeof w, "%s bone '%s'", where, name_of(b));
        if (!ab)
            problem(d, "%s missing", w);
        else
            cmp_matrix(d, w, cJSON_GetObjectItemCaseSensitive(b, "matrix"), cJSON_GetObjectItemCaseSensitive(ab, "matrix"));
    }
    const cJSON *aslots = cJSON_GetObjectItemCaseSensitive(a, "slots");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(e, "slots")) {
        const cJSON *t = by_name(aslots, name_of(s));
        snprintf(w, sizeof w, "%s slot '%s'", where, name_of(s));
        if (!t) {
            problem(d, "%s missing", w);
            continue;
        }
        int edi = int_of(s, "displayIndex", 0), adi = int_of(t, "displayIndex", -999);
        if (edi != adi)
            problem(d, "%s: displayIndex %d != %d", w, adi, edi);
        int edr = int_of(s, "drawIndex", -1), adr = int_of(t, "drawIndex", -999);
        if (edr != adr)
            problem(d, "%s: drawIndex %d != %d", w, adr, edr);
        const cJSON *ebm = cJSON_GetObjectItemCaseSensitive(s, "blendMode");
        if (cJSON_IsNumber(ebm) && int_of(t, "blendMode", -999) != (int)ebm->valuedouble)
            problem(d, "%s: blendMode %d != %d", w, int_of(t, "blendMode", -999), (int)ebm->valuedouble);
        const cJSON *evis = cJSON_GetObjectItemCaseSensitive(s, "visible"), *avis = cJSON_GetObjectItemCaseSensitive(t, "visible");
        if (cJSON_IsBool(evis) && (!cJSON_IsBool(avis) || cJSON_IsTrue(evis) != cJSON_IsTrue(avis)))
            problem(d, "%s: visible %s, expected %s", w, cJSON_IsBool(avis) ? (cJSON_IsTrue(avis) ? "true" : "false") : "missing",
                    cJSON_IsTrue(evis) ? "true" : "false");
        const cJSON *ec = cJSON_GetObjectItemCaseSensitive(s, "color"), *ac = cJSON_GetObjectItemCaseSensitive(t, "color");
        static const char *const mul[] = {"aM", "rM", "gM", "bM"}, *const off[] = {"aO", "rO", "gO", "bO"};
        for (int i = 0; i < 4; ++i) {
            bool p;
            double av = num_or(ac, mul[i], 0, &p);
            d->color = fmax(d->color, p ? fabs(num_or(ec, mul[i], 1, NULL) - av) : INFINITY);
            av = num_or(ac, off[i], 0, &p);
            d->color = fmax(d->color, p ? fabs(num_or(ec, off[i], 0, NULL) - av) / 255.0 : INFINITY);
        }
        cmp_mask_field(d, w, "mask", s, t);
        cmp_mask_field(d, w, "maskedBy", s, t);
        const cJSON *disp = cJSON_GetObjectItemCaseSensitive(s, "display");
        bool visible = edi >= 0 && cJSON_IsObject(disp);
        const cJSON *type = visible ? cJSON_GetObjectItemCaseSensitive(disp, "type") : NULL;
        bool is_mesh = cJSON_IsString(type) && (strcmp(type->valuestring, "mesh") == 0 || strcmp(type->valuestring, "shape") == 0);
        if (visible && !is_mesh)
            cmp_matrix(d, w, cJSON_GetObjectItemCaseSensitive(s, "matrix"), cJSON_GetObjectItemCaseSensitive(t, "matrix"));
        if (visible) { /* which display: its name and kind */
            const cJSON *tdisp = cJSON_GetObjectItemCaseSensitive(t, "display");
            if (!cJSON_IsObject(tdisp) || strcmp(name_of(disp), name_of(tdisp)) != 0 ||
                strcmp(str_or(disp, "type"), str_or(tdisp, "type")) != 0)
                problem(d, "%s: display '%s' (%s), expected '%s' (%s)", w, name_of(tdisp), str_or(tdisp, "type"),
                        name_of(disp), str_or(disp, "type"));
        }
        const cJSON *ep = cJSON_GetObjectItemCaseSensitive(s, "pivot");
        bool is_image = cJSON_IsString(type) && strcmp(type->valuestring, "image") == 0;
        if (visible && is_image && pivots && cJSON_IsArray(ep) && cJSON_GetArraySize(ep) == 2) {
            const cJSON *ap = cJSON_GetObjectItemCaseSensitive(t, "pivot");
            if (!cJSON_IsArray(ap) || cJSON_GetArraySize(ap) != 2)
                problem(d, "%s: pivot missing", w);
            else
                d->pos = fmax(d->pos, fmax(delta(ep->child, ap->child), delta(ep->child->next, ap->child->next)));
        }
        const cJSON *em = cJSON_GetObjectItemCaseSensitive(s, "mesh");
        if (visible && em)
            cmp_vertices(d, w, "mesh", em, cJSON_GetObjectItemCaseSensitive(t, "mesh"));
        static const char *const geo[] = {"shape", "path"}; /* 6.0: on both sides or on neither */
        for (int i = 0; visible && i < 2; ++i) {
            const cJSON *eg = cJSON_GetObjectItemCaseSensitive(s, geo[i]), *ag = cJSON_GetObjectItemCaseSensitive(t, geo[i]);
            if (eg || ag)
                cmp_vertices(d, w, geo[i], eg, ag);
        }
        const cJSON *eca = cJSON_GetObjectItemCaseSensitive(s, "childArmature");
        if (cJSON_IsObject(eca)) {
            const cJSON *aca = cJSON_GetObjectItemCaseSensitive(t, "childArmature");
            char cw[220];
            snprintf(cw, sizeof cw, "%s child", w);
            const cJSON *ean = cJSON_GetObjectItemCaseSensitive(eca, "animation");
            if (!cJSON_IsObject(aca)) {
                problem(d, "%s: child armature missing", w);
            } else {
                if (cJSON_IsString(ean) && strcmp(ean->valuestring, str_or(aca, "animation")) != 0)
                    problem(d, "%s: child armature plays '%s', expected '%s'", w, str_or(aca, "animation"), ean->valuestring);
                cmp_pose(d, cw, cJSON_GetObjectItemCaseSensitive(eca, "pose"), cJSON_GetObjectItemCaseSensitive(aca, "pose"));
            }
        }
    }
}

static const char *str_or(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The constraint state fields (oracle6 --constraints) per constraint type: a tolerance (times
 * max(1, |expected|)), or 0 for an exact comparison. */
typedef struct state_field {
    const char *type, *field;
    double tol;
} state_field;
static const state_field state_fields[] = {
    {"ik", "weight", 1e-4},          {"ik", "bendPositive", 0},         {"path", "position", 1e-4},
    {"path", "spacing", 1e-4},       {"path", "rotateWeight", 1e-4},    {"path", "xWeight", 1e-4},
    {"path", "yWeight", 1e-4},       {"transform", "target", 0},        {"physics", "sleeping", 0},
    {"physics", "reset", 0},         {"physics", "remaining", 1e-6},    {"physics", "lastTime", 1e-6},
    {"physics", "xOffset", 0.01},    {"physics", "xVelocity", 0.01},    {"physics", "yOffset", 0.01},
    {"physics", "yVelocity", 0.01},  {"physics", "rotateOffset", 1e-4}, {"physics", "rotateVelocity", 1e-4},
    {"physics", "scaleOffset", 1e-4}, {"physics", "scaleVelocity", 1e-4},
};

static bool same_constraint(const cJSON *x, const cJSON *y) {
    return strcmp(str_or(x, "type"), str_or(y, "type")) == 0 && strcmp(name_of(x), name_of(y)) == 0 &&
           strcmp(str_or(x, "bone"), str_or(y, "bone")) == 0;
}

static void cmp_constraint(diff *d, const char *where, const cJSON *e, const cJSON *a) {
    for (size_t i = 0; i < sizeof state_fields / sizeof state_fields[0]; ++i) {
        const state_field *f = &state_fields[i];
        if (strcmp(str_or(e, "type"), f->type) != 0)
            continue;
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, f->field), *y = cJSON_GetObjectItemCaseSensitive(a, f->field);
        if (f->tol == 0 || !cJSON_IsNumber(x)) {
            if (!(x && y && cJSON_Compare(x, y, true)) && (x || y))
                problem(d, "%s: %s differs", where, f->field);
            continue;
        }
        double v = delta(x, y) / (f->tol * fmax(1.0, fabs(x->valuedouble)));
        d->state = fmax(d->state, v);
    }
}

/* Every expected constraint found once in the actual state (by type, name and bone), none extra. */
static void cmp_constraints(diff *d, int k, const cJSON *e, const cJSON *a) {
    if (!cJSON_IsArray(a)) {
        problem(d, "frame %d: constraint state missing", k);
        return;
    }
    int n = cJSON_GetArraySize(a), used_n = 0;
    bool *used = calloc((size_t)n + 1, sizeof *used);
    if (!used) {
        problem(d, "frame %d: out of memory", k);
        return;
    }
    const cJSON *x;
    cJSON_ArrayForEach(x, e) {
        char where[200];
        snprintf(where, sizeof where, "frame %d %s constraint '%s'%s%s", k, str_or(x, "type"), name_of(x),
                 *str_or(x, "bone") ? " on " : "", str_or(x, "bone"));
        int i = 0;
        const cJSON *y = a->child;
        for (; y; y = y->next, ++i)
            if (!used[i] && same_constraint(x, y))
                break;
        if (!y) {
            problem(d, "%s missing", where);
            continue;
        }
        used[i] = true;
        used_n++;
        cmp_constraint(d, where, x, y);
    }
    if (used_n != n)
        problem(d, "frame %d: %d constraints not in the expected state", k, n - used_n);
    free(used);
}

static bool same_event(const cJSON *x, const cJSON *y) {
    static const char *const keys[] = {"type", "name", "armature", "animation"};
    for (int i = 0; i < 4; ++i)
        if (strcmp(str_or(x, keys[i]), str_or(y, keys[i])) != 0)
            return false;
    return fabs(num_or(x, "time", 0, NULL) - num_or(y, "time", 0, NULL)) <= 1e-6;
}

static void event_text(const cJSON *evs, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs) {
        int n = snprintf(buf + used, size - used, "%s%s:%s/%s", used ? " " : "", str_or(e, "type"), str_or(e, "armature"),
                         str_or(e, "animation"));
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

static void cmp_events(diff *d, int k, const cJSON *e, const cJSON *a) {
    const cJSON *ee = cJSON_GetObjectItemCaseSensitive(e, "events"), *ae = cJSON_GetObjectItemCaseSensitive(a, "events");
    bool same = cJSON_GetArraySize(ee) == cJSON_GetArraySize(ae);
    for (const cJSON *x = ee ? ee->child : NULL, *y = ae ? ae->child : NULL; same && x && y; x = x->next, y = y->next)
        same = same_event(x, y);
    if (!same) {
        char eb[600], ab[600];
        event_text(ee, eb, sizeof eb);
        event_text(ae, ab, sizeof ab);
        problem(d, "frame %d: events [%s] != expected [%s]", k, ab, eb);
    }
}

int main(int argc, char **argv) {
    const char *files[2] = {NULL, NULL};
    bool quiet = false;
    int nf = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quiet") == 0)
            quiet = true;
        else if (nf < 2)
            files[nf++] = argv[i];
    }
    if (nf != 2) {
        fprintf(stderr, "usage: posecmp EXPECTED ACTUAL [--quiet]\n");
        return 2;
    }
    sinew_jdom edom, adom;
    memset(&edom, 0, sizeof edom);
    memset(&adom, 0, sizeof adom);
    cJSON *e = load(files[0], &edom), *a = e ? load(files[1], &adom) : NULL;
    if (!e || !a) {
        sinew__jdom_free(&edom);
        sinew__jdom_free(&adom);
        return 2;
    }
    const cJSON *ein = cJSON_GetObjectItemCaseSensitive(e, "input"), *ain = cJSON_GetObjectItemCaseSensitive(a, "input");
    pivots = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ein, "atlas")) &&
             cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ain, "atlas"));
    int passed = 0, failed = 0;
    const cJSON *aarms = cJSON_GetObjectItemCaseSensitive(a, "armatures");
    const cJSON *arm;
    cJSON_ArrayForEach(arm, cJSON_GetObjectItemCaseSensitive(e, "armatures")) {
        const cJSON *aa = by_name(aarms, name_of(arm));
        const cJSON *an;
        cJSON_ArrayForEach(an, cJSON_GetObjectItemCaseSensitive(arm, "animations")) {
            diff d;
            memset(&d, 0, sizeof d);
            const cJSON *got = aa ? by_name(cJSON_GetObjectItemCaseSensitive(aa, "animations"), name_of(an)) : NULL;
            if (!got) {
                problem(&d, "animation missing from the actual dump");
            } else {
                const cJSON *es = cJSON_GetObjectItemCaseSensitive(an, "samples");
                const cJSON *gs = cJSON_GetObjectItemCaseSensitive(got, "samples");
                if (cJSON_GetArraySize(es) != cJSON_GetArraySize(gs))
                    problem(&d, "%d samples, expected %d", cJSON_GetArraySize(gs), cJSON_GetArraySize(es));
                int k = 0;
                for (const cJSON *x = es ? es->child : NULL, *y = gs ? gs->child : NULL; x && y;
                     x = x->next, y = y->next, ++k) {
                    char where[32];
                    snprintf(where, sizeof where, "frame %d", k);
                    cmp_pose(&d, where, x, y);
                    const cJSON *ec = cJSON_GetObjectItemCaseSensitive(x, "constraints");
                    if (ec)
                        cmp_constraints(&d, k, ec, cJSON_GetObjectItemCaseSensitive(y, "constraints"));
                    cmp_events(&d, k, x, y);
                }
            }
            bool ok = d.problems == 0 && d.pos <= TOL_POS && d.axis <= TOL_AXIS && d.color <= TOL_COLOR && d.state <= 1.0;
            passed += ok;
            failed += !ok;
            if (!ok || !quiet) {
                printf("%s %s/%s: pos %.3g axis %.3g color %.3g", ok ? "ok  " : "FAIL", name_of(arm), name_of(an), d.pos,
                       d.axis, d.color);
                if (d.state > 0)
                    printf(" state %.3g (times its tolerance)", d.state);
                printf("\n");
                for (int i = 0; i < d.problems && i < MAX_PROBLEMS; ++i)
                    printf("       %s\n", d.text[i]);
                if (d.problems > MAX_PROBLEMS)
                    printf("       ... %d more\n", d.problems - MAX_PROBLEMS);
            }
        }
    }
    printf("posecmp: %d passed, %d failed\n", passed, failed);
    sinew__jdom_free(&edom);
    sinew__jdom_free(&adom);
    return failed == 0 && passed > 0 ? 0 : 1;
}
