/* A counting allocator for the allocation tests (docs/architecture.md "Memory"): counts the
 * allocations asked for, fails the one numbered fail_at, and keeps the blocks and bytes still
 * live. Each block carries its size in front, so a free or realloc with another size than the
 * block's is counted in bad_sizes.
 *
 *   for (long n = 0; ...; n++) {
 *       counting c = {.fail_at = n};
 *       sinew_allocator a = counting_allocator(&c, false);
 *       ... load with &a, destroy ...
 *       if (counting_leaked(&c)) ...
 *   }
 */
#ifndef SINEW_COUNTING_ALLOC_H
#define SINEW_COUNTING_ALLOC_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/base.h"

typedef struct counting {
    long allocs, fail_at; /* allocations and reallocations asked for; fail the one with this 0-based number, -1 never */
    long live_blocks;
    size_t live_bytes; /* by the sizes the caller gave: a wrong size at a free also shows here */
    long bad_sizes;    /* frees or reallocs whose size is not the block's */
} counting;

#define COUNTING_HDR 16 /* keeps the 16-byte alignment sinew asks for */

/* Under ASan the size in front is poisoned while the block is out, so a write or read just before
 * a block is still reported as with a plain malloc. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define COUNTING_HIDE_(p) ASAN_POISON_MEMORY_REGION((p), COUNTING_HDR)
#define COUNTING_SHOW_(p) ASAN_UNPOISON_MEMORY_REGION((p), COUNTING_HDR)
#else
#define COUNTING_HIDE_(p) ((void)(p))
#define COUNTING_SHOW_(p) ((void)(p))
#endif

static inline void *counting_alloc_(void *ctx, size_t size) {
    counting *c = ctx;
    if (c->allocs++ == c->fail_at)
        return NULL;
    unsigned char *p = malloc(size + COUNTING_HDR);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    COUNTING_HIDE_(p);
    c->live_blocks++;
    c->live_bytes += size;
    return p + COUNTING_HDR;
}

/* The block in front of ptr, its size in front checked against the caller's. */
static inline unsigned char *counting_block_(counting *c, void *ptr, size_t size) {
    unsigned char *p = (unsigned char *)ptr - COUNTING_HDR;
    COUNTING_SHOW_(p);
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size)
        c->bad_sizes++;
    return p;
}

static inline void counting_free_(void *ctx, void *ptr, size_t size) {
    counting *c = ctx;
    if (!ptr)
        return;
    unsigned char *p = counting_block_(c, ptr, size);
    c->live_blocks--;
    c->live_bytes -= size;
    free(p);
}

static inline void *counting_realloc_(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    counting *c = ctx;
    if (c->allocs++ == c->fail_at)
        return NULL;
    unsigned char *p = counting_block_(c, ptr, old_size);
    unsigned char *q = realloc(p, new_size + COUNTING_HDR);
    if (!q) {
        COUNTING_HIDE_(p);
        return NULL;
    }
    memcpy(q, &new_size, sizeof new_size);
    COUNTING_HIDE_(q);
    c->live_bytes = c->live_bytes - old_size + new_size;
    return q + COUNTING_HDR;
}

/* The allocator over c; without realloc sinew emulates it with alloc+copy+free. */
static inline sinew_allocator counting_allocator(counting *c, bool with_realloc) {
    sinew_allocator a = {counting_alloc_, with_realloc ? counting_realloc_ : NULL, counting_free_, c};
    return a;
}

/* Some block or byte was not given back. */
static inline bool counting_leaked(const counting *c) {
    return c->live_blocks != 0 || c->live_bytes != 0;
}

#endif
