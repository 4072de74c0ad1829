/* Internal helpers shared by the input animation reader, writer, JSON and editing code. */
#ifndef SINEW_INPUT_INTERNAL_H
#define SINEW_INPUT_INTERNAL_H

/* The largest recording file read (a 60 s x 60 Hz recording with every curve keyed is 39 MB). */
#define SINEW_INPUT_MAX_FILE_BYTES (1ull << 30)

#include "base/alloc.h"
#include "base/error.h"
#include "sinew/input.h"

/* The key MRTK's reader rebuilds from an 8-byte boolean key. */
sinew_curve_key sinew__input_bool_key(float time, float value);
/* The key MRTK's reader rebuilds from an 8-byte "simple" float key (linear). */
sinew_curve_key sinew__input_simple_key(float time, float value);

/* Frees every curve and marker; the animation itself stays (flags/version kept). */
void sinew__input_clear(sinew_input_animation *anim);

/* Takes ownership of keys[0..count) (allocated with the animation's allocator) for curve index. */
sinew_status sinew__input_take_keys(sinew_input_animation *anim, uint32_t index, sinew_curve_key *keys,
                                    uint32_t count, sinew_error *err);

/* True if curve `index` exists in a file of this version/flags. */
bool sinew__input_curve_in_file(int32_t minor, bool cam, bool hands, bool eye, uint32_t index);

/* Reads a whole file into a buffer from the allocator (errors name the path); free it with
 * sinew__free(allocator, *data, *size + 1). */
sinew_status sinew__input_read_file(const char *path, const sinew_allocator *allocator, uint8_t **data,
                                    size_t *size, sinew_error *err);

#endif
