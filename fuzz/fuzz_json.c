/* libFuzzer target: sinew's JSON reader (src/base/json_dom.c) must never crash, hang or leak,
 * and must agree with cJSON: whatever it accepts, cJSON accepts too and reads into the same tree
 * (types, member names, strings, numbers bit for bit, valueint). cJSON accepts more (leading
 * zeros, "1.", control bytes as whitespace, raw control characters in strings, invalid UTF-8),
 * so only that direction is checked; the one thing cJSON refuses that JSON allows is a number
 * longer than 63 bytes (its fixed buffer), which is skipped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json_dom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const cJSON *a, const cJSON *b) {
    for (; a && b; a = a->next, b = b->next) {
        if ((a->type & 0xFF) != (b->type & 0xFF))
            return 0;
        if ((a->string == NULL) != (b->string == NULL) || (a->string && strcmp(a->string, b->string) != 0))
            return 0;
        switch (a->type & 0xFF) {
        case cJSON_Number:
            if (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0 || a->valueint != b->valueint)
                return 0;
            break;
        case cJSON_String:
            if (strcmp(a->valuestring, b->valuestring) != 0)
                return 0;
            break;
        case cJSON_True:
        case cJSON_False:
            if (a->valueint != b->valueint)
                return 0;
            break;
        case cJSON_Array:
        case cJSON_Object:
            if (!same(a->child, b->child))
                return 0;
            /* the first member's prev is the last one, as cJSON links them */
            if (a->child && (!a->child->prev || a->child->prev->next != NULL))
                return 0;
            break;
        default:
            break;
        }
    }
    return a == NULL && b == NULL;
}

/* a run of more than 63 bytes that cJSON would copy into its number buffer */
static int has_long_number(const uint8_t *d, size_t n) {
    size_t run = 0;
    for (size_t i = 0; i < n; ++i) {
        uint8_t c = d[i];
        run = ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') ? run + 1 : 0;
        if (run > 63)
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    sinew_jdom dom;
    memset(&dom, 0, sizeof dom);
    dom.limit = (size_t)64 << 20;
    cJSON *root = NULL;
    size_t end = 0;
    sinew_jdom_status st = sinew__jdom_parse(&dom, (const char *)data, size, 64, &root, &end);
    if (end > size)
        abort();
    if (st == SINEW_JDOM_OK) {
        if (!root)
            abort();
        cJSON *ref = cJSON_ParseWithLength((const char *)data, end);
        if (!ref) {
            if (!has_long_number(data, end)) {
                fprintf(stderr, "sinew accepts what cJSON rejects\n");
                abort();
            }
        } else {
            if (!same(root, ref)) {
                fprintf(stderr, "sinew and cJSON read different trees\n");
                abort();
            }
            cJSON_Delete(ref);
        }
    } else if (root) {
        abort();
    }
    sinew__jdom_free(&dom);
    return 0;
}
