/* JSON text from a tree of cJSON nodes (cJSON's own or json_dom.c's), laid out byte for byte as
 * cJSON_Print / cJSON_PrintUnformatted lay it out, with the numbers of base/num.c instead of
 * cJSON's (which follow the process locale: docs/architecture.md "Numbers and the locale"). */
#ifndef SINEW_BASE_JSON_PRINT_H
#define SINEW_BASE_JSON_PRINT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "sinew/base.h"

/* The text of `item` (formatted: tabs and new lines as cJSON_Print; otherwise compact), from
 * `allocator` (NULL = libc): free it with sinew__free(allocator, text, *size), *size being the
 * block's size (not the text's length). NULL (and *size 0) when memory runs out or a node has no
 * valid type. Numbers: the shortest text that reads back to the same double (sinew__num_json),
 * "null" for NaN and the infinities as cJSON. */
char *sinew__json_print(const cJSON *item, bool formatted, const sinew_allocator *allocator, size_t *size);

#endif
