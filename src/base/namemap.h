/* Names to indices (internal): open addressing over an FNV-1a hash. The keys are borrowed, not
 * copied; the table lives in an arena. Used by the loaders to find bones, slots, skins and the
 * like by name. */
#ifndef SINEW_BASE_NAMEMAP_H
#define SINEW_BASE_NAMEMAP_H

#include "base/alloc.h"

typedef struct sinew_namemap {
    const char **keys;
    uint32_t *vals;
    uint32_t mask;
} sinew_namemap;

/* Room for n names, from `arena`; false when out of memory (or over the arena's limit). */
bool sinew__namemap_init(sinew_namemap *m, sinew_arena *arena, uint32_t n);
/* Inserts key -> val; returns the value already there if the key is present (not replaced: the
 * first of two of one name wins), else SINEW_INVALID_INDEX. */
uint32_t sinew__namemap_put(sinew_namemap *m, const char *key, uint32_t val);
/* The value of `key`, or SINEW_INVALID_INDEX (also for a map never initialised). */
uint32_t sinew__namemap_get(const sinew_namemap *m, const char *key);

#endif
