/* The frame cache (include/sinew/instance.h, sinew_frame_cache): the official runtime's
 * cacheFrameRate. Per armature and animation of the data, the bones' world matrices and decomposed
 * transforms at each cache frame, filled by the first instance that computes that frame and read
 * back by every instance after it. The rules of when an armature reads, writes or skips its update
 * are in animation.c (state_advance, sinew__arm_advance); the copying is in pose.c. */
#include <math.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/alloc.h"
#include "base/error.h"

/* the official AnimationData.cacheFrames: its rate, and one frame more than the duration holds */
static void anim_frames(const sinew_model_armature *arm, const sinew_model_animation *an, double fps,
                        uint32_t *rate, uint32_t *frames) {
    double r = ceil(fps * an->scale);
    if (!(r >= 1.0))
        r = 1.0;
    if (r > 1e6)
        r = 1e6;
    double seconds = (double)an->frame_count / (double)arm->frame_rate;
    double n = ceil(r * seconds) + 1.0;
    *rate = (uint32_t)r;
    *frames = n < 1e7 ? (uint32_t)n : 10000000u;
}

sinew_status sinew_frame_cache_create(const struct sinew_data *data, double fps, const sinew_allocator *allocator,
                                      sinew_frame_cache **out, sinew_error *err) {
    if (out)
        *out = NULL;
    if (!data || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "data and out are required");
    if (!(fps > 0.0) || fps > 1000.0)
        return sinew__fail(err, SINEW_E_ARG, NULL, "cache frame rate %g is outside (0, 1000]", fps);
    /* one block: the header, the armatures, the animations, the filled flags, the frames */
    uint64_t anims = 0, flags = 0, values = 0, src = 0;
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        const sinew_model_armature *arm = &data->armatures[a];
        for (uint32_t k = 0; k < arm->animation_count; ++k) {
            uint32_t rate, frames;
            anim_frames(arm, &arm->animations[k], fps, &rate, &frames);
            anims++;
            flags += frames;
            values += (uint64_t)frames * arm->bone_count * SINEW_CACHE_BONE_VALUES;
            if (arm->v6) { /* the per-bone and per-slot indices, the slot matrices */
                src += (uint64_t)frames * ((uint64_t)arm->bone_count + arm->slot_count);
                values += (uint64_t)frames * arm->slot_count * 6;
            }
        }
    }
    uint64_t size = sizeof(sinew_frame_cache) + data->armature_count * sizeof(sinew_cache_armature) +
                    anims * sizeof(sinew_cache_animation) + values * sizeof(double) + src * sizeof(uint32_t) + flags;
    if (size > ((uint64_t)1 << 34))
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "the frame cache would take %llu bytes",
                           (unsigned long long)size);
    const sinew_allocator *al = allocator;
    unsigned char *block = sinew__alloc(al, (size_t)size);
    if (!block)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (%llu bytes)", (unsigned long long)size);
    memset(block, 0, (size_t)size);
    sinew_frame_cache *c = (sinew_frame_cache *)(void *)block;
    size_t off = sizeof *c;
    c->data = data;
    c->fps = fps;
    c->allocator = al;
    c->size = (size_t)size;
    c->armatures = (sinew_cache_armature *)(void *)(block + off);
    off += data->armature_count * sizeof(sinew_cache_armature);
    sinew_cache_animation *an = (sinew_cache_animation *)(void *)(block + off);
    off += anims * sizeof(sinew_cache_animation);
    double *vals = (double *)(void *)(block + off);
    off += values * sizeof(double);
    uint32_t *srcs = (uint32_t *)(void *)(block + off);
    off += src * sizeof(uint32_t);
    memset(srcs, 0xff, src * sizeof(uint32_t)); /* SINEW_INVALID_INDEX: nothing stored */
    uint8_t *fl = block + off;
    for (uint32_t a = 0; a < data->armature_count; ++a) {
        const sinew_model_armature *arm = &data->armatures[a];
        c->armatures[a].animations = an;
        for (uint32_t k = 0; k < arm->animation_count; ++k, ++an) {
            anim_frames(arm, &arm->animations[k], fps, &an->rate, &an->frames);
            an->filled = fl;
            an->values = vals;
            fl += an->frames;
            vals += (size_t)an->frames * arm->bone_count * SINEW_CACHE_BONE_VALUES;
            if (arm->v6) {
                an->src = srcs;
                srcs += (size_t)an->frames * (arm->bone_count + arm->slot_count);
                an->slot_values = vals;
                vals += (size_t)an->frames * arm->slot_count * 6;
            }
        }
    }
    *out = c;
    return SINEW_OK;
}

void sinew_frame_cache_destroy(sinew_frame_cache *cache) {
    if (cache)
        sinew__free(cache->allocator, cache, cache->size);
}

size_t sinew_frame_cache_memory(const sinew_frame_cache *cache) {
    return cache ? cache->size : 0;
}

uint32_t sinew_frame_cache_filled(const sinew_frame_cache *cache) {
    if (!cache)
        return 0;
    uint32_t n = 0;
    for (uint32_t a = 0; a < cache->data->armature_count; ++a)
        for (uint32_t k = 0; k < cache->data->armatures[a].animation_count; ++k) {
            const sinew_cache_animation *an = &cache->armatures[a].animations[k];
            for (uint32_t f = 0; f < an->frames; ++f)
                n += an->filled[f];
        }
    return n;
}
