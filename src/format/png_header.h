/* Reading a PNG's size from its header, without decoding pixels. */
#ifndef SINEW_FORMAT_PNG_HEADER_H
#define SINEW_FORMAT_PNG_HEADER_H

#include "sinew/base.h"

/* Reads width and height from the first 24 bytes of a PNG (the 8-byte signature, then the IHDR
 * chunk's length, type, width and height). Returns false when the bytes are not a PNG header or a
 * size is 0 or above 2^31 - 1. */
bool sinew__png_header_size(const unsigned char *bytes, size_t len, uint32_t *width, uint32_t *height);

/* Opens `path` and reads its PNG size. Returns SINEW_OK, SINEW_E_IO when the file cannot be
 * opened or read, SINEW_E_PARSE when it is not a PNG. */
sinew_status sinew__png_file_size(const char *path, uint32_t *width, uint32_t *height);

#endif
