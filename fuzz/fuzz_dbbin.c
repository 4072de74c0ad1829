/* libFuzzer target: DragonBones binary (DBBin). An input that starts with '{' is a DragonBones JSON
 * document: the writer converts it and the reader reads the result into a model. Anything else
 * goes to the reader as a DBBin file (its tag forced): layout checks, then the full build. Neither
 * may crash, hang, leak or read out of bounds. A file the reader builds is written as DragonBones
 * 5.5 JSON, which must load again (write_check.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/dbbin.h"
#include "sinew/data.h"
#include "write_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_dbbin(const void *buf, size_t len) {
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_memory_bytes = 64u << 20;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st = sinew_data_load_buffer(buf, len, "fuzz.dbbin", &o, &d, &err);
    if (st != SINEW_OK && (!err.message[0] || d))
        abort(); /* a failed load says why and leaves nothing */
    if (st == SINEW_OK) {
        fuzz_write_db(d, 55, &o);
        sinew_data_destroy(d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20))
        return 0;
    if (size && data[0] == '{') {
        void *bin = NULL;
        size_t len = 0;
        sinew_error err;
        memset(&err, 0, sizeof err);
        unsigned format = 1 + (unsigned)(size & 1); /* both layouts */
        sinew_status st =
            sinew__dbbin_write((const char *)data, size, "fuzz.json", format, NULL, NULL, NULL, NULL, &bin, &len, &err);
        if (st != SINEW_OK && (!err.message[0] || bin))
            abort(); /* a failed conversion says why and leaves nothing */
        if (st == SINEW_OK) {
            read_dbbin(bin, len);
            free(bin);
        }
        return 0;
    }
    uint8_t *copy = malloc(size < 4 ? 4 : size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    memcpy(copy, "DBDT", size < 4 ? size : 4);
    read_dbbin(copy, size);
    free(copy);
    return 0;
}
