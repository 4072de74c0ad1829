/* libFuzzer target: the XML rig loader must never crash, hang or leak on any input; what it
 * accepts must also convert to DragonBones 4.5 and 5.5 JSON, and the 5.5 text load again
 * (write_check.h). Image paths resolve against fuzz/corpus/xml (run from the repository root), so
 * seeds may use the PNGs there. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/xml_rig.h"
#include "write_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_memory_bytes = 64u << 20;
    o.limits.max_animation_frames = 10000;
    o.limits.max_bones = 512;
    struct sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st = sinew__xml_load_buffer(data, size, "fuzz", "fuzz/corpus/xml", &o, &d, &err);
    if (st != SINEW_OK && (!err.message[0] || d))
        abort(); /* a failed load says why and leaves nothing */
    if (st == SINEW_OK) {
        fuzz_write_db(d, 45, NULL);
        fuzz_write_db(d, 55, &o);
        sinew_data_destroy(d);
    }
    return 0;
}
