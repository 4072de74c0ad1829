/* Reading a whole file, for the unit tests and the test tools (tests/tools/posecmp.c). */
#ifndef SINEW_TEST_READ_FILE_H
#define SINEW_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file, NUL-terminated, in a malloc'd buffer (free it); its length in *len. NULL when it
 * cannot be read. */
static inline char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        *len = (size_t)n;
    }
    return b;
}

#endif
