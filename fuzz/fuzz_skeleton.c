/* libFuzzer target: the DragonBones skeleton loader must never crash, hang or leak on any input,
 * and what it accepts (4.0-5.6 and DBBin: a 6.0 file is not converted) must write as DragonBones 5.5
 * JSON that loads again with the same armatures, bones, slots and animations (write_check.h).
 * Small limits keep each run fast; a log callback exercises the warning path. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/data.h"
#include "write_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *user, sinew_log_level level, const sinew_error *where) {
    (void)user;
    (void)level;
    (void)where;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.log = ignore;
    o.limits.max_memory_bytes = 64u << 20;
    o.limits.max_animation_frames = 100000;
    o.limits.max_vertices = 100000;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st = sinew_data_load_buffer(data, size, "fuzz", &o, &d, &err);
    if (st != SINEW_OK && (!err.message[0] || d))
        abort(); /* a failed load says why and leaves nothing */
    if (st == SINEW_OK) {
        sinew_data_info info;
        sinew_data_get_info(d, &info);
        for (uint32_t a = 0; a < info.armature_count; a++) {
            sinew_armature_info ai;
            sinew_data_get_armature_info(d, a, &ai);
        }
        if (!info.v6)
            fuzz_write_db(d, 55, &o);
        sinew_data_destroy(d);
    }
    return 0;
}
