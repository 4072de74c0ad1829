/* libFuzzer target: the XML rig loader must never crash, hang or leak on any input; what it
 * accepts must also convert to DragonBones 4.5 JSON. Image paths resolve against fuzz/corpus/xml
 * (run from the repository root), so seeds may use the PNGs there. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/dragonbones_write.h"
#include "format/xml_rig.h"

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
        char *text = NULL;
        if (sinew__db_write_json(d, NULL, &text, NULL, NULL) == SINEW_OK)
            free(text);
        sinew_data_destroy(d);
    }
    return 0;
}
