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
    double pos, axis, color;
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
        const cJSON *disp = cJSON_GetObjectItemCaseSensitive(s, "display");
        bool visible = edi >= 0 && cJSON_IsObject(disp);
        const cJSON *type = visible ? cJSON_GetObjectItemCaseSensitive(disp, "type") : NULL;
        bool is_mesh = cJSON_IsString(type) && strcmp(type->valuestring, "mesh") == 0;
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
        if (visible && em) {
            const cJSON *ev = cJSON_GetObjectItemCaseSensitive(em, "vertices");
            const cJSON *av = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "mesh"), "vertices");
            if (!cJSON_IsArray(av) || cJSON_GetArraySize(av) != cJSON_GetArraySize(ev)) {
                problem(d, "%s: mesh vertices missing or of another length", w);
            } else {
                for (const cJSON *x = ev->child, *y = av->child; x && y; x = x->next, y = y->next)
                    d->pos = fmax(d->pos, delta(x, y));
            }
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
                    cmp_events(&d, k, x, y);
                }
            }
            bool ok = d.problems == 0 && d.pos <= TOL_POS && d.axis <= TOL_AXIS && d.color <= TOL_COLOR;
            passed += ok;
            failed += !ok;
            if (!ok || !quiet) {
                printf("%s %s/%s: pos %.3g axis %.3g color %.3g\n", ok ? "ok  " : "FAIL", name_of(arm), name_of(an), d.pos,
                       d.axis, d.color);
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
