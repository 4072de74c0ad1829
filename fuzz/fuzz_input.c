/* libFuzzer target: the MRTK input animation reader (binary), and for what it accepts, the writer,
 * evaluation, validation and a byte-exact re-read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sinew_input_animation *a = NULL;
    sinew_error err = {0};
    if (sinew_input_read(data, size, "fuzz", NULL, &a, &err) != SINEW_OK) {
        if (a || !err.message[0])
            abort(); /* a failed read leaves nothing behind and says why */
        return 0;
    }
    sinew_input_frame f;
    double d = sinew_input_duration(a);
    sinew_input_eval(a, d * 0.5, &f);
    sinew_input_eval(a, -1.0, &f);
    (void)sinew_input_validate(a, "fuzz", NULL, NULL);
    uint8_t *out = NULL;
    size_t n = 0;
    if (sinew_input_write_memory(a, NULL, &out, &n, &err) == SINEW_OK) {
        /* writing what was read and reading it back gives the same bytes again */
        sinew_input_animation *b = NULL;
        if (sinew_input_read(out, n, "fuzz2", NULL, &b, &err) != SINEW_OK)
            abort();
        uint8_t *out2 = NULL;
        size_t n2 = 0;
        /* (a 1.1 file whose layout is ambiguous may legitimately be re-detected differently) */
        if (b->layout == a->layout &&
            (sinew_input_write_memory(b, NULL, &out2, &n2, &err) != SINEW_OK || n2 != n || memcmp(out, out2, n) != 0))
            abort();
        sinew_input_free_memory(b, out2, n2);
        sinew_input_destroy(b);
        sinew_input_free_memory(a, out, n);
    }
    sinew_input_destroy(a);
    return 0;
}
