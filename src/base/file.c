#define _POSIX_C_SOURCE 200809L
#include "base/file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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
