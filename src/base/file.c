#define _POSIX_C_SOURCE 200809L
#include "base/file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/error.h"

sinew_status sinew__open_input(const char *path, FILE **out, uint64_t *size, sinew_error *err) {
    *out = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0) {
        int e = errno;
        fclose(f);
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot read: %s", strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        fclose(f);
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot read: %s",
                              S_ISDIR(sb.st_mode) ? "it is a folder, not a file" : "not a regular file");
    }
    *out = f;
    *size = (uint64_t)sb.st_size;
    return SINEW_OK;
}

sinew_status sinew__read_whole(const char *path, const sinew_allocator *allocator, uint64_t max_bytes,
                               const char *limit_name, char **out, size_t *len, sinew_error *err) {
    *out = NULL;
    *len = 0;
    FILE *f = NULL;
    uint64_t size = 0;
    sinew_status st = sinew__open_input(path, &f, &size, err);
    if (st != SINEW_OK)
        return st;
    if (size > max_bytes || size >= SIZE_MAX) {
        fclose(f);
        return sinew__fail_at(err, SINEW_E_LIMIT, path, 0, 0, NULL, "input is %llu bytes, more than the limit of %llu%s%s%s",
                              (unsigned long long)size, (unsigned long long)max_bytes, limit_name ? " (" : "",
                              limit_name ? limit_name : "", limit_name ? ")" : "");
    }
    size_t n = (size_t)size;
    char *buf = sinew__alloc(allocator, n + 1);
    if (!buf) {
        fclose(f);
        return sinew__fail_at(err, SINEW_E_NOMEM, path, 0, 0, NULL, "out of memory reading %zu bytes", n);
    }
    size_t got = n ? fread(buf, 1, n, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (got != n || bad) {
        sinew__free(allocator, buf, n + 1);
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "read error");
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return SINEW_OK;
}
