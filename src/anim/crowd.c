/*
 * Crowds: many instances advanced (and drawn) by one call, on several threads.
 *
 * Instances share only read-only data (the model, the atlas), so any split of them over threads
 * gives the results of one thread, bit for bit. The threads of sinew_crowd_update take blocks of
 * CROWD_BLOCK instances from one atomic counter (no lock: a slow or preempted thread simply takes
 * fewer blocks); sinew_crowd_update_part splits them into fixed parts for a caller's own threads.
 * A frame cache is written by the updates that use it, so those crowds stay on one thread.
 */
#include <stdint.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/error.h"

#if !defined(__wasi__) && !defined(__EMSCRIPTEN__) && !defined(_WIN32) && !defined(__STDC_NO_ATOMICS__)
#define SINEW_CROWD_THREADS 1
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#endif

#define CROWD_BLOCK 8       /* instances a thread takes at a time */
#define CROWD_MAX_THREADS 64

/* Advances instances [from, to) and, with `dls`, fills their draw lists: a NULL entry's list and a
 * list whose storage cannot be allocated are empty. Returns how many could not be allocated, the
 * first of them at *first_failed. */
static size_t crowd_range(sinew_instance *const *instances, size_t from, size_t to, double dt, sinew_drawlist *dls,
                          size_t *first_failed) {
    size_t failed = 0;
    for (size_t i = from; i < to; ++i) {
        sinew_instance *inst = instances[i];
        if (inst)
            sinew_instance_update(inst, dt);
        if (!dls)
            continue;
        if (inst && sinew_instance_reserve_drawlist(inst, NULL) == SINEW_OK) {
            sinew_instance_drawlist(inst, &dls[i]);
            continue;
        }
        memset(&dls[i], 0, sizeof dls[i]);
        if (inst && failed++ == 0)
            *first_failed = i;
    }
    return failed;
}

void sinew_crowd_update_part(sinew_instance *const *instances, size_t count, double dt, sinew_drawlist *drawlists,
                             uint32_t part, uint32_t parts) {
    if (!instances || parts == 0 || part >= parts)
        return;
    /* part p: [count * p / parts, count * (p + 1) / parts), without overflow */
    size_t q = count / parts, r = count % parts;
    size_t from = q * part + (part < r ? part : r);
    size_t to = from + q + (part < r ? 1 : 0);
    size_t first_failed;
    crowd_range(instances, from, to, dt, drawlists, &first_failed);
}

static bool uses_frame_cache(const sinew_instance *inst) {
    for (uint32_t i = 0; i < inst->arm_count; ++i)
        if (inst->arms[i].cache)
            return true;
    return false;
}

#ifdef SINEW_CROWD_THREADS
typedef struct crowd_job {
    sinew_instance *const *instances;
    size_t count;
    double dt;
    sinew_drawlist *drawlists;
    atomic_size_t next;
    atomic_size_t failed, first_failed; /* draw lists not allocated; the lowest index of them */
} crowd_job;

static void crowd_work(crowd_job *job) {
    for (;;) {
        size_t from = atomic_fetch_add_explicit(&job->next, CROWD_BLOCK, memory_order_relaxed);
        if (from >= job->count)
            return;
        size_t to = job->count - from < CROWD_BLOCK ? job->count : from + CROWD_BLOCK;
        size_t first = 0, failed = crowd_range(job->instances, from, to, job->dt, job->drawlists, &first);
        if (!failed)
            continue;
        atomic_fetch_add_explicit(&job->failed, failed, memory_order_relaxed);
        size_t seen = atomic_load_explicit(&job->first_failed, memory_order_relaxed);
        while (first < seen && !atomic_compare_exchange_weak_explicit(&job->first_failed, &seen, first,
                                                                      memory_order_relaxed, memory_order_relaxed)) {
        }
    }
}

static void *crowd_thread(void *arg) {
    crowd_work(arg);
    return NULL;
}
#endif

/* The error for draw lists that could not be allocated (their lists are empty). */
static sinew_status crowd_result(size_t failed, size_t first_failed, sinew_error *err) {
    if (!failed)
        return SINEW_OK;
    return sinew__fail(err, SINEW_E_NOMEM, NULL,
                       "out of memory for the draw lists of %zu instance%s, the first instance %zu: their lists "
                       "are empty",
                       failed, failed == 1 ? "" : "s", first_failed);
}

sinew_status sinew_crowd_update(sinew_instance *const *instances, size_t count, double dt, uint32_t threads,
                                sinew_drawlist *drawlists, sinew_error *err) {
    if (count == 0)
        return SINEW_OK;
    if (!instances)
        return sinew__fail(err, SINEW_E_ARG, NULL, "instances is NULL");
#ifdef SINEW_CROWD_THREADS
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (uint32_t)(n < CROWD_MAX_THREADS ? n : CROWD_MAX_THREADS) : 1;
    }
    if (threads > CROWD_MAX_THREADS)
        threads = CROWD_MAX_THREADS;
    size_t blocks = (count + CROWD_BLOCK - 1) / CROWD_BLOCK;
    if (threads > blocks)
        threads = (uint32_t)blocks;
    for (size_t i = 0; i < count && threads > 1; ++i)
        if (instances[i] && uses_frame_cache(instances[i]))
            threads = 1;
    if (threads > 1) {
        crowd_job job;
        job.instances = instances;
        job.count = count;
        job.dt = dt;
        job.drawlists = drawlists;
        atomic_init(&job.next, 0);
        atomic_init(&job.failed, 0);
        atomic_init(&job.first_failed, SIZE_MAX);
        pthread_t tid[CROWD_MAX_THREADS];
        uint32_t started = 0;
        for (uint32_t t = 1; t < threads; ++t)
            if (pthread_create(&tid[started], NULL, crowd_thread, &job) == 0)
                started++;
        crowd_work(&job);
        for (uint32_t t = 0; t < started; ++t)
            pthread_join(tid[t], NULL);
        return crowd_result(atomic_load(&job.failed), atomic_load(&job.first_failed), err);
    }
#else
    (void)threads;
    (void)uses_frame_cache;
#endif
    size_t first_failed = 0, failed = crowd_range(instances, 0, count, dt, drawlists, &first_failed);
    return crowd_result(failed, first_failed, err);
}
