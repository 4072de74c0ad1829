#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

static void *libc_alloc(void *ctx, size_t size) {
    (void)ctx;
    return malloc(size);
}

static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void libc_free(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    (void)size;
    free(ptr);
}

static const sinew_allocator libc_allocator = {libc_alloc, libc_realloc, libc_free, NULL};

const sinew_allocator *sinew__allocator_or_default(const sinew_allocator *a) {
    return (a && a->alloc && a->free) ? a : &libc_allocator;
}

void *sinew__alloc(const sinew_allocator *a, size_t size) {
    a = sinew__allocator_or_default(a);
    return a->alloc(a->ctx, size ? size : 1);
}

void *sinew__calloc(const sinew_allocator *a, size_t count, size_t size) {
    size_t total;
    if (!sinew__mul_size(count, size, &total))
        return NULL;
    void *p = sinew__alloc(a, total);
    if (p)
        memset(p, 0, total ? total : 1);
    return p;
}

void *sinew__realloc(const sinew_allocator *a, void *ptr, size_t old_size, size_t new_size) {
    a = sinew__allocator_or_default(a);
    if (!ptr)
        return sinew__alloc(a, new_size);
    /* a block asked for with size 0 was given 1 byte (sinew__alloc): its size is 1 */
    old_size = old_size ? old_size : 1;
    if (a->realloc)
        return a->realloc(a->ctx, ptr, old_size, new_size ? new_size : 1);
    void *p = sinew__alloc(a, new_size);
    if (!p)
        return NULL;
    memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    a->free(a->ctx, ptr, old_size);
    return p;
}

void sinew__free(const sinew_allocator *a, void *ptr, size_t size) {
    if (!ptr)
        return;
    a = sinew__allocator_or_default(a);
    a->free(a->ctx, ptr, size ? size : 1); /* as sinew__alloc gave it */
}

bool sinew__mul_size(size_t a, size_t b, size_t *out) {
    if (b && a > SIZE_MAX / b)
        return false;
    *out = a * b;
    return true;
}

bool sinew__add_size(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b)
        return false;
    *out = a + b;
    return true;
}

/* ---- arena ---------------------------------------------------------------- */

struct sinew_arena_chunk {
    sinew_arena_chunk *next;
    size_t size; /* size of the whole block, header included */
    /* the payload follows, 16-byte aligned */
};

#define ARENA_HEADER ((sizeof(sinew_arena_chunk) + 15u) & ~(size_t)15u)
#define ARENA_MIN_CHUNK ((size_t)64 * 1024)

void sinew__arena_init(sinew_arena *arena, const sinew_allocator *allocator, size_t limit) {
    memset(arena, 0, sizeof *arena);
    arena->allocator = sinew__allocator_or_default(allocator);
    arena->limit = limit;
}

/* A new head chunk with `payload` bytes free. */
static bool arena_push_chunk(sinew_arena *arena, size_t payload) {
    size_t block;
    if (!sinew__add_size(payload, ARENA_HEADER, &block))
        return false;
    sinew_arena_chunk *c = sinew__alloc(arena->allocator, block);
    if (!c)
        return false;
    c->next = arena->head;
    c->size = block;
    arena->head = c;
    arena->used = 0;
    arena->capacity = payload;
    return true;
}

bool sinew__arena_reserve(sinew_arena *arena, size_t size) {
    if (arena->head || size <= ARENA_MIN_CHUNK)
        return true;
    return arena_push_chunk(arena, size);
}

static void *arena_take(sinew_arena *arena, size_t size) {
    size_t rounded;
    if (!sinew__add_size(size, 15u, &rounded))
        return NULL;
    rounded &= ~(size_t)15u;
    if (rounded == 0)
        rounded = 16;
    if (arena->limit && (rounded > arena->limit || arena->total > arena->limit - rounded))
        return NULL;
    if ((!arena->head || arena->capacity - arena->used < rounded) &&
        !arena_push_chunk(arena, rounded > ARENA_MIN_CHUNK ? rounded : ARENA_MIN_CHUNK))
        return NULL;
    unsigned char *p = (unsigned char *)arena->head + ARENA_HEADER + arena->used;
    arena->used += rounded;
    arena->total += rounded;
    return p;
}

void *sinew__arena_alloc(sinew_arena *arena, size_t size) {
    void *p = arena_take(arena, size);
    if (p)
        memset(p, 0, (size + 15u) & ~(size_t)15u);
    return p;
}

void *sinew__arena_array(sinew_arena *arena, size_t count, size_t elem_size) {
    size_t total;
    if (!sinew__mul_size(count, elem_size, &total))
        return NULL;
    return sinew__arena_alloc(arena, total);
}

void *sinew__arena_array_uninit(sinew_arena *arena, size_t count, size_t elem_size) {
    size_t total;
    if (!sinew__mul_size(count, elem_size, &total))
        return NULL;
    return arena_take(arena, total);
}

bool sinew__arena_over_limit(const sinew_arena *arena, size_t count, size_t elem_size) {
    size_t bytes;
    if (!sinew__mul_size(count, elem_size, &bytes))
        return true;
    return arena->limit && bytes > arena->limit - (arena->total < arena->limit ? arena->total : arena->limit);
}

char *sinew__arena_strndup(sinew_arena *arena, const char *s, size_t len) {
    char *p = sinew__arena_alloc(arena, len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

char *sinew__arena_strdup(sinew_arena *arena, const char *s) {
    return sinew__arena_strndup(arena, s, strlen(s));
}

void sinew__arena_destroy(sinew_arena *arena) {
    sinew_arena_chunk *c = arena->head;
    while (c) {
        sinew_arena_chunk *next = c->next;
        sinew__free(arena->allocator, c, c->size);
        c = next;
    }
    arena->head = NULL;
    arena->used = arena->capacity = arena->total = 0;
}
