/* Mapping JSON paths back to byte offsets in the original text, and a cheap pre-scan of raw JSON
 * text (UTF-8 validity and nesting depth). cJSON keeps no positions, so errors found while
 * building the model are located afterwards by re-scanning the text along the error's path. */
#ifndef SINEW_FORMAT_JSON_LOCATE_H
#define SINEW_FORMAT_JSON_LOCATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One step of a JSON path: an object key (key != NULL) or an array index (key == NULL). */
typedef struct sinew_json_seg {
    const char *key;
    uint32_t index;
} sinew_json_seg;

/*
 * Finds the byte offset of the value at `segs[0..n)` in text[0..len). Returns how many segments
 * were resolved; `*offset` is the start of the deepest value reached (the whole document for 0).
 * A scanner, not a parser: it skips strings and nested values without building anything, and
 * stops gracefully on malformed text.
 */
size_t sinew__json_locate(const char *text, size_t len, const sinew_json_seg *segs, size_t n, size_t *offset);

/* Parses a path string such as `armature[0].bone[12].parent` into segments that point into a
 * copy kept in `buf` (size `buf_size`). Returns the segment count, or SIZE_MAX if it does not fit. */
size_t sinew__json_path_parse(const char *path, char *buf, size_t buf_size, sinew_json_seg *segs, size_t max);

/* Formats segments as a path string (`a[0].b`), truncating to fit. */
void sinew__json_path_format(const sinew_json_seg *segs, size_t n, char *out, size_t size);

/* Result of the pre-scan. */
typedef enum sinew_json_scan_result {
    SINEW_JSON_SCAN_OK = 0,
    SINEW_JSON_SCAN_BAD_UTF8,   /* invalid UTF-8 at *offset */
    SINEW_JSON_SCAN_TOO_DEEP    /* nesting exceeds max_depth at *offset */
} sinew_json_scan_result;

/* Validates UTF-8 over the whole text and checks that arrays/objects nest at most max_depth deep
 * (brackets inside strings are ignored). */
sinew_json_scan_result sinew__json_prescan(const char *text, size_t len, uint32_t max_depth, size_t *offset);

#endif
