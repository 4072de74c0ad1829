/* Internal allocation helpers: the replaceable allocator, overflow-checked sizes, and a bump arena. */
#ifndef SINEW_BASE_ALLOC_H
#define SINEW_BASE_ALLOC_H

#include "sinew/base.h"

/* The libc allocator, used wherever the caller passes NULL. */
const sinew_allocator *sinew__allocator_or_default(const sinew_allocator *a);

void *sinew__alloc(const sinew_allocator *a, size_t size);
void *sinew__calloc(const sinew_allocator *a, size_t count, size_t size);
void *sinew__realloc(const sinew_allocator *a, void *ptr, size_t old_size, size_t new_size);
void sinew__free(const sinew_allocator *a, void *ptr, size_t size);

/* out = a * b; returns false on overflow. */
bool sinew__mul_size(size_t a, size_t b, size_t *out);
/* out = a + b; returns false on overflow. */
bool sinew__add_size(size_t a, size_t b, size_t *out);

/*
 * A bump arena made of chunks from the allocator. Allocations are 16-byte aligned and zeroed.
 * Nothing is freed individually; sinew__arena_destroy frees every chunk.
 */
typedef struct sinew_arena_chunk sinew_arena_chunk;
typedef struct sinew_arena {
    const sinew_allocator *allocator;
    sinew_arena_chunk *head;
    size_t used;       /* bytes used in head */
    size_t capacity;   /* bytes available in head */
    size_t total;      /* bytes handed out over all chunks (statistics) */
    size_t limit;      /* 0 = unlimited; otherwise the most bytes the arena may hand out */
} sinew_arena;

void sinew__arena_init(sinew_arena *arena, const sinew_allocator *allocator, size_t limit);
/* A first chunk of `size` bytes (no-op once the arena has a chunk, or below the usual chunk size);
 * false when it cannot be had (the arena then grows chunk by chunk as usual). */
bool sinew__arena_reserve(sinew_arena *arena, size_t size);
void *sinew__arena_alloc(sinew_arena *arena, size_t size);
void *sinew__arena_array(sinew_arena *arena, size_t count, size_t elem_size);
/* The same without zeroing, for an array the caller fills whole at once. */
void *sinew__arena_array_uninit(sinew_arena *arena, size_t count, size_t elem_size);
/* After an arena allocation of count * elem_size bytes failed: true when it was refused for the
 * arena's limit (or the size overflows), false when the allocator ran out of memory. */
bool sinew__arena_over_limit(const sinew_arena *arena, size_t count, size_t elem_size);
char *sinew__arena_strdup(sinew_arena *arena, const char *s);
char *sinew__arena_strndup(sinew_arena *arena, const char *s, size_t len);
void sinew__arena_destroy(sinew_arena *arena);

#endif
