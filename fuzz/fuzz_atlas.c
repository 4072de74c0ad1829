/* libFuzzer target: the texture atlas loader must never crash, hang or leak on any input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_memory_bytes = 64u << 20;
    sinew_atlas *a = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st = sinew_atlas_load_buffer(data, size, "fuzz", "dir", &o, &a, &err);
    if (st != SINEW_OK && (!err.message[0] || a))
        abort(); /* a failed load says why and leaves nothing */
    if (st == SINEW_OK) {
        sinew_atlas_info info;
        sinew_atlas_get_info(a, &info);
        if (info.region_count) {
            sinew_atlas_region_info r;
            sinew_atlas_get_region_info(a, 0, &r);
            sinew_atlas_find_region(a, r.name);
        }
        sinew_atlas_destroy(a);
    }
    return 0;
}
