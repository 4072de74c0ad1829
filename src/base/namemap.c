#include "base/namemap.h"

#include <string.h>

static uint32_t hash_str(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

bool sinew__namemap_init(sinew_namemap *m, sinew_arena *arena, uint32_t n) {
    uint32_t cap = 8;
    while (cap < 2u * (uint64_t)n)
        cap *= 2u;
    m->keys = sinew__arena_array(arena, cap, sizeof *m->keys);
    m->vals = sinew__arena_array(arena, cap, sizeof *m->vals);
    m->mask = cap - 1u;
    return m->keys && m->vals;
}

uint32_t sinew__namemap_put(sinew_namemap *m, const char *key, uint32_t val) {
    uint32_t i = hash_str(key) & m->mask;
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0)
            return m->vals[i];
        i = (i + 1u) & m->mask;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    return SINEW_INVALID_INDEX;
}

uint32_t sinew__namemap_get(const sinew_namemap *m, const char *key) {
    if (!m->keys)
        return SINEW_INVALID_INDEX;
    uint32_t i = hash_str(key) & m->mask;
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0)
            return m->vals[i];
        i = (i + 1u) & m->mask;
    }
    return SINEW_INVALID_INDEX;
}
