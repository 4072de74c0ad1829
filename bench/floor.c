/* bench/floor: what each phase of an armature update costs as a tight C loop over plain arrays of
 * the same size as a real rig, with nothing else going on: the "C floor" docs/performance.md
 * compares sinew's per-phase profile with (bench/profile.py runs it with a rig's counts).
 *
 *   bench_floor [--bones N] [--timelines N] [--keys N] [--ik N] [--slots N] [--vertices N]
 *         [--influences N] [--quads N] [--instances N] [--ticks T] [--runs R]
 *
 * Every kernel updates `instances` copies of its data per tick (so the working set grows like
 * the bench's) for `ticks` ticks, `runs` times; it prints the best run as ns per instance per tick
 * and per element. Kernels (each a floor, not a model of sinew's code):
 *   clock       dependent integer adds: the core clock in GHz (turns ns into cycles)
 *   timelines   per channel: advance a key cursor, p = (t - t0) / span, v = v0 + dv * p
 *   bones       per bone: sincosf(rotation), sincosf(rotation + skew) into a local 2x3 matrix,
 *               times the parent's world matrix (parents precede children)
 *   bones_1trig the same with one sincosf (no skew); bones_notrig with cached cos/sin
 *   ik          per two-bone constraint: lengths, law of cosines (acosf), 2 atan2f, 2 sincosf
 *   slots       per slot: its local 2x3 matrix times its bone's world matrix
 *   skinning    per influence: out[v] += M_bone * (w*x, w*y, w)
 *   drawlist    per quad: 4 corners through the slot matrix, 4 UVs, 6 indices
 */
#define _GNU_SOURCE /* sincosf */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint32_t rng = 12345u;
static uint32_t next_u32(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(next_u32() & 0xFFFFFF) / 16777216.0f; }

static volatile float sink; /* results are summed here so nothing is optimised away */

typedef struct cfg {
    long bones, timelines, keys, ik, slots, vertices, influences, quads, instances, ticks, runs;
} cfg;

/* ---- clock ----------------------------------------------------------------------------------- */

static double clock_ghz(void) {
#if defined(__GNUC__) && defined(__x86_64__)
    /* many short runs, keeping the fastest: a run the hypervisor or the other core's load slowed
       down is simply not the best one */
    double best = 1e30;
    const long n = 1000000;
    for (int r = 0; r < 50; ++r) {
        uint64_t x = 0;
        double t0 = now_ns();
        for (long i = 0; i < n; ++i)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                             : "+r"(x));
        double dt = now_ns() - t0;
        sink += (float)x;
        if (dt < best)
            best = dt;
    }
    return 10.0 * (double)n / best; /* 10 dependent 1-cycle adds per iteration */
#else
    return 0.0;
#endif
}

/* ---- kernels ---------------------------------------------------------------------------------- */

typedef struct timeline {
    float *times, *inv_span, *v0, *dv; /* keys + 1 times (the last = duration) */
    uint32_t cursor;
} timeline;

static double k_timelines(const cfg *c) {
    long nt = c->timelines * c->instances, nk = c->keys;
    if (nt == 0)
        return 0.0;
    timeline *tl = calloc((size_t)nt, sizeof *tl);
    float *out = calloc((size_t)nt, sizeof(float));
    float *mem = calloc((size_t)nt * (size_t)(4 * nk + 1), sizeof(float));
    double *time = calloc((size_t)c->instances, sizeof(double));
    const float duration = 2.0f;
    for (long i = 0; i < nt; ++i) {
        float *m = mem + (size_t)i * (size_t)(4 * nk + 1);
        tl[i].times = m;
        tl[i].inv_span = m + nk + 1;
        tl[i].v0 = m + 2 * nk + 1;
        tl[i].dv = m + 3 * nk + 1;
        for (long k = 0; k <= nk; ++k)
            m[k] = duration * (float)k / (float)nk;
        for (long k = 0; k < nk; ++k) {
            tl[i].inv_span[k] = 1.0f / (m[k + 1] - m[k]);
            tl[i].v0[k] = frand(-10, 10);
            tl[i].dv[k] = frand(-1, 1);
        }
    }
    for (long a = 0; a < c->instances; ++a)
        time[a] = fmod((double)a * 0.0371, (double)duration);
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long a = 0; a < c->instances; ++a) {
                double tm = time[a] + 1.0 / 60.0;
                if (tm >= duration)
                    tm -= duration;
                time[a] = tm;
                float ft = (float)tm;
                timeline *x = tl + a * c->timelines;
                float *o = out + a * c->timelines;
                for (long i = 0; i < c->timelines; ++i) {
                    uint32_t k = x[i].cursor;
                    if (ft < x[i].times[k])
                        k = 0; /* wrapped */
                    while (ft >= x[i].times[k + 1])
                        k++;
                    x[i].cursor = k;
                    o[i] = x[i].v0[k] + x[i].dv[k] * ((ft - x[i].times[k]) * x[i].inv_span[k]);
                }
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    for (long i = 0; i < nt; ++i)
        sink += out[i];
    free(tl);
    free(out);
    free(mem);
    free(time);
    return best / (double)(c->ticks * c->instances);
}

/* per bone: x, y, rotation, skew, scale_x, scale_y, plus cached cos/sin for the no-trig variant */
static double k_bones(const cfg *c, int trig) {
    long nb = c->bones, n = nb * c->instances;
    if (nb == 0)
        return 0.0;
    uint32_t *parent = calloc((size_t)nb, sizeof(uint32_t));
    float *local = calloc((size_t)n * 8, sizeof(float));
    float *world = calloc((size_t)n * 6, sizeof(float));
    for (long b = 0; b < nb; ++b)
        parent[b] = b ? next_u32() % (uint32_t)b : UINT32_MAX;
    for (long i = 0; i < n; ++i) {
        float *l = local + i * 8;
        l[0] = frand(-50, 50);
        l[1] = frand(-50, 50);
        l[2] = frand(-3, 3);
        l[3] = trig == 2 ? frand(-0.2f, 0.2f) : 0.0f;
        l[4] = frand(0.5f, 1.5f);
        l[5] = frand(0.5f, 1.5f);
        l[6] = cosf(l[2]);
        l[7] = sinf(l[2]);
    }
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long a = 0; a < c->instances; ++a) {
                float *L = local + a * nb * 8, *W = world + a * nb * 6;
                for (long b = 0; b < nb; ++b) {
                    float *l = L + b * 8, *w = W + b * 6;
                    l[2] += 0.01f; /* the rotation moves every tick */
                    float ca, sa, cb, sb;
                    if (trig == 0) {
                        ca = l[6];
                        sa = l[7];
                        cb = ca;
                        sb = sa;
                    } else {
                        sincosf(l[2], &sa, &ca);
                        if (trig == 2) {
                            sincosf(l[2] + l[3], &sb, &cb);
                        } else {
                            cb = ca;
                            sb = sa;
                        }
                    }
                    float la = ca * l[4], lb = sa * l[4], lc = -sb * l[5], ld = cb * l[5];
                    if (parent[b] == UINT32_MAX) {
                        w[0] = la, w[1] = lb, w[2] = lc, w[3] = ld, w[4] = l[0], w[5] = l[1];
                    } else {
                        const float *p = W + parent[b] * 6;
                        w[0] = p[0] * la + p[2] * lb;
                        w[1] = p[1] * la + p[3] * lb;
                        w[2] = p[0] * lc + p[2] * ld;
                        w[3] = p[1] * lc + p[3] * ld;
                        w[4] = p[0] * l[0] + p[2] * l[1] + p[4];
                        w[5] = p[1] * l[0] + p[3] * l[1] + p[5];
                    }
                }
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    for (long i = 0; i < n * 6; ++i)
        sink += world[i];
    free(parent);
    free(local);
    free(world);
    return best / (double)(c->ticks * c->instances);
}

static double k_ik(const cfg *c) {
    long n = c->ik * c->instances;
    if (n == 0)
        return 0.0;
    /* per constraint: parent bone origin, its length, the child's length, the target; out: 2 matrices */
    float *in = calloc((size_t)n * 6, sizeof(float)), *out = calloc((size_t)n * 12, sizeof(float));
    for (long i = 0; i < n; ++i) {
        float *v = in + i * 6;
        v[0] = frand(-10, 10), v[1] = frand(-10, 10), v[2] = frand(20, 40), v[3] = frand(20, 40);
        v[4] = frand(-60, 60), v[5] = frand(-60, 60);
    }
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long i = 0; i < n; ++i) {
                float *v = in + i * 6, *o = out + i * 12;
                v[4] += 0.05f; /* the target moves */
                float dx = v[4] - v[0], dy = v[5] - v[1], l1 = v[2], l2 = v[3];
                float d = sqrtf(dx * dx + dy * dy);
                float cosa = (l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d);
                cosa = cosa < -1.0f ? -1.0f : cosa > 1.0f ? 1.0f : cosa;
                float a1 = atan2f(dy, dx) - acosf(cosa);
                float s1, c1;
                sincosf(a1, &s1, &c1);
                float ex = v[0] + c1 * l1, ey = v[1] + s1 * l1;
                float a2 = atan2f(v[5] - ey, v[4] - ex);
                float s2, c2;
                sincosf(a2, &s2, &c2);
                o[0] = c1, o[1] = s1, o[2] = -s1, o[3] = c1, o[4] = v[0], o[5] = v[1];
                o[6] = c2, o[7] = s2, o[8] = -s2, o[9] = c2, o[10] = ex, o[11] = ey;
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    for (long i = 0; i < n * 12; ++i)
        sink += out[i];
    free(in);
    free(out);
    return best / (double)(c->ticks * c->instances);
}

static double k_slots(const cfg *c) {
    long ns = c->slots * c->instances, nb = c->bones ? c->bones : 1;
    if (ns == 0)
        return 0.0;
    uint32_t *bone = calloc((size_t)c->slots, sizeof(uint32_t));
    float *local = calloc((size_t)ns * 6, sizeof(float)), *world = calloc((size_t)ns * 6, sizeof(float));
    float *bw = calloc((size_t)(nb * c->instances) * 6, sizeof(float));
    for (long s = 0; s < c->slots; ++s)
        bone[s] = next_u32() % (uint32_t)nb;
    for (long i = 0; i < ns * 6; ++i)
        local[i] = frand(-2, 2);
    for (long i = 0; i < nb * c->instances * 6; ++i)
        bw[i] = frand(-2, 2);
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long a = 0; a < c->instances; ++a) {
                float *B = bw + a * nb * 6;
                for (long s = 0; s < c->slots; ++s) {
                    const float *l = local + (a * c->slots + s) * 6, *p = B + bone[s] * 6;
                    float *w = world + (a * c->slots + s) * 6;
                    w[0] = p[0] * l[0] + p[2] * l[1];
                    w[1] = p[1] * l[0] + p[3] * l[1];
                    w[2] = p[0] * l[2] + p[2] * l[3];
                    w[3] = p[1] * l[2] + p[3] * l[3];
                    w[4] = p[0] * l[4] + p[2] * l[5] + p[4];
                    w[5] = p[1] * l[4] + p[3] * l[5] + p[5];
                }
                B[4] += 0.01f; /* the bones move */
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    for (long i = 0; i < ns * 6; ++i)
        sink += world[i];
    free(bone);
    free(local);
    free(world);
    free(bw);
    return best / (double)(c->ticks * c->instances);
}

typedef struct influence {
    uint32_t vertex, bone;
    float wx, wy, w;
} influence;

static double k_skinning(const cfg *c) {
    long nv = c->vertices, ni = c->influences, nb = c->bones ? c->bones : 1;
    if (nv == 0 || ni == 0)
        return 0.0;
    influence *inf = calloc((size_t)ni, sizeof *inf);
    float *out = calloc((size_t)(nv * c->instances) * 2, sizeof(float));
    float *bw = calloc((size_t)(nb * c->instances) * 6, sizeof(float));
    /* influences grouped by vertex, as a mesh's weights are: each vertex gets 1 or more */
    for (long i = 0; i < ni; ++i) {
        inf[i].vertex = (uint32_t)(i * nv / ni);
        inf[i].bone = next_u32() % (uint32_t)nb;
        inf[i].w = frand(0, 1);
        inf[i].wx = inf[i].w * frand(-50, 50);
        inf[i].wy = inf[i].w * frand(-50, 50);
    }
    for (long i = 0; i < nb * c->instances * 6; ++i)
        bw[i] = frand(-2, 2);
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long a = 0; a < c->instances; ++a) {
                float *o = out + a * nv * 2;
                float *B = bw + a * nb * 6;
                memset(o, 0, (size_t)nv * 2 * sizeof(float));
                for (long i = 0; i < ni; ++i) {
                    const influence *q = &inf[i];
                    const float *m = B + q->bone * 6;
                    o[2 * q->vertex] += m[0] * q->wx + m[2] * q->wy + m[4] * q->w;
                    o[2 * q->vertex + 1] += m[1] * q->wx + m[3] * q->wy + m[5] * q->w;
                }
                B[4] += 0.01f;
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    for (long i = 0; i < nv * c->instances * 2; ++i)
        sink += out[i];
    free(inf);
    free(out);
    free(bw);
    return best / (double)(c->ticks * c->instances);
}

static double k_drawlist(const cfg *c) {
    long nq = c->quads * c->instances;
    if (nq == 0)
        return 0.0;
    float *quad = calloc((size_t)c->quads * 8, sizeof(float)); /* corners + UVs of each region */
    float *mat = calloc((size_t)nq * 6, sizeof(float));
    float *pos = calloc((size_t)c->quads * 8, sizeof(float)), *uv = calloc((size_t)c->quads * 8, sizeof(float));
    uint16_t *idx = calloc((size_t)c->quads * 6, sizeof(uint16_t));
    for (long i = 0; i < c->quads * 8; ++i)
        quad[i] = frand(-30, 30);
    for (long i = 0; i < nq * 6; ++i)
        mat[i] = frand(-2, 2);
    double best = 1e30;
    for (long r = 0; r < c->runs; ++r) {
        double t0 = now_ns();
        for (long t = 0; t < c->ticks; ++t)
            for (long a = 0; a < c->instances; ++a) {
                for (long q = 0; q < c->quads; ++q) {
                    const float *m = mat + (a * c->quads + q) * 6, *s = quad + q * 8;
                    float *p = pos + q * 8, *u = uv + q * 8;
                    for (int k = 0; k < 4; ++k) {
                        float x = s[2 * (k & 1)], y = s[1 + 2 * (k >> 1)];
                        p[2 * k] = m[0] * x + m[2] * y + m[4];
                        p[2 * k + 1] = m[1] * x + m[3] * y + m[5];
                        u[2 * k] = s[4 + (k & 1)];
                        u[2 * k + 1] = s[6 + (k >> 1)];
                    }
                    uint16_t v0 = (uint16_t)(q * 4);
                    uint16_t *ix = idx + q * 6;
                    ix[0] = v0, ix[1] = (uint16_t)(v0 + 1), ix[2] = (uint16_t)(v0 + 2);
                    ix[3] = (uint16_t)(v0 + 2), ix[4] = (uint16_t)(v0 + 1), ix[5] = (uint16_t)(v0 + 3);
                }
                sink += pos[0] + uv[0] + (float)idx[5];
            }
        double dt = now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    free(quad);
    free(mat);
    free(pos);
    free(uv);
    free(idx);
    return best / (double)(c->ticks * c->instances);
}

/* ---- main --------------------------------------------------------------------------------------- */

static void row(const char *name, double ns, long count, const char *unit, double ghz) {
    printf("%-12s %10.1f ns  %10.1f cycles  %6ld %-11s %8.2f ns each\n", name, ns, ns * ghz, count, unit,
           count ? ns / (double)count : 0.0);
}

int main(int argc, char **argv) {
    cfg c = {70, 240, 8, 4, 96, 330, 558, 89, 100, 300, 5};
    struct {
        const char *name;
        long *v;
    } opts[] = {{"--bones", &c.bones},       {"--timelines", &c.timelines}, {"--keys", &c.keys},
                {"--ik", &c.ik},             {"--slots", &c.slots},         {"--vertices", &c.vertices},
                {"--influences", &c.influences}, {"--quads", &c.quads},     {"--instances", &c.instances},
                {"--ticks", &c.ticks},       {"--runs", &c.runs}};
    for (int i = 1; i < argc; ++i) {
        size_t k = 0;
        for (; k < sizeof opts / sizeof opts[0]; ++k)
            if (strcmp(argv[i], opts[k].name) == 0 && i + 1 < argc) {
                char *end;
                long v = strtol(argv[++i], &end, 10);
                if (*end || v < 0 || v > 100000000) {
                    fprintf(stderr, "floor: bad value for %s\n", opts[k].name);
                    return 1;
                }
                *opts[k].v = v;
                break;
            }
        if (k == sizeof opts / sizeof opts[0]) {
            fprintf(stderr, "usage: floor [--bones N] [--timelines N] [--keys N] [--ik N] [--slots N] "
                            "[--vertices N] [--influences N] [--quads N] [--instances N] [--ticks T] [--runs R]\n");
            return 1;
        }
    }
    if (c.instances < 1 || c.ticks < 1 || c.runs < 1 || c.keys < 1) {
        fprintf(stderr, "floor: --instances, --ticks, --runs and --keys must be at least 1\n");
        return 1;
    }
    double ghz = clock_ghz();
    printf("C floor per armature update (best of %ld runs, %ld instances x %ld ticks); core clock %.2f GHz "
           "(dependent adds)\n",
           c.runs, c.instances, c.ticks, ghz);
    row("timelines", k_timelines(&c), c.timelines, "channels", ghz);
    row("bones", k_bones(&c, 2), c.bones, "bones", ghz);
    row("bones_1trig", k_bones(&c, 1), c.bones, "bones", ghz);
    row("bones_notrig", k_bones(&c, 0), c.bones, "bones", ghz);
    row("ik", k_ik(&c), c.ik, "constraints", ghz);
    row("slots", k_slots(&c), c.slots, "slots", ghz);
    row("skinning", k_skinning(&c), c.influences, "influences", ghz);
    row("drawlist", k_drawlist(&c), c.quads, "quads", ghz);
    return 0;
}
