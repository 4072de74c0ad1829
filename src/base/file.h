/* Opening an input file (internal). */
#ifndef SINEW_BASE_FILE_H
#define SINEW_BASE_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "sinew/base.h"

/* Opens `path` for reading if it is a regular file and gives its size in bytes. Fails with
 * SINEW_E_IO and a message saying why: it cannot be opened (the system's reason), it is a folder,
 * it is not a regular file, or it cannot be sized. `err->file` borrows `path`. */
sinew_status sinew__open_input(const char *path, FILE **out, uint64_t *size, sinew_error *err);

/* Reads all of `path` (opened as sinew__open_input does) into a NUL-terminated buffer from
 * `allocator` (free it with sinew__free(allocator, *out, *len + 1)). Fails with SINEW_E_LIMIT past
 * `max_bytes` (the message names `limit_name` when not NULL), SINEW_E_NOMEM or SINEW_E_IO, saying
 * so in `err`. */
sinew_status sinew__read_whole(const char *path, const sinew_allocator *allocator, uint64_t max_bytes,
                               const char *limit_name, char **out, size_t *len, sinew_error *err);

#endif
