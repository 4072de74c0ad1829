#include "format/png_header.h"

#include <stdio.h>
#include <string.h>

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

bool sinew__png_header_size(const unsigned char *bytes, size_t len, uint32_t *width, uint32_t *height) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (len < 24 || memcmp(bytes, signature, 8) != 0)
        return false;
    if (be32(bytes + 8) != 13 || memcmp(bytes + 12, "IHDR", 4) != 0)
        return false;
    uint32_t w = be32(bytes + 16), h = be32(bytes + 20);
    if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu)
        return false;
    *width = w;
    *height = h;
    return true;
}

sinew_status sinew__png_file_size(const char *path, uint32_t *width, uint32_t *height) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return SINEW_E_IO;
    unsigned char head[24];
    size_t got = fread(head, 1, sizeof head, f);
    int read_error = ferror(f);
    fclose(f);
    if (read_error)
        return SINEW_E_IO;
    return sinew__png_header_size(head, got, width, height) ? SINEW_OK : SINEW_E_PARSE;
}
