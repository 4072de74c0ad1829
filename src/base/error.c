#include "base/error.h"
#include "base/num.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *sinew_status_str(sinew_status code) {
    switch (code) {
    case SINEW_OK: return "ok";
    case SINEW_E_ARG: return "invalid argument";
    case SINEW_E_IO: return "I/O error";
    case SINEW_E_PARSE: return "parse error";
    case SINEW_E_TYPE: return "wrong type";
    case SINEW_E_MISSING: return "missing value";
    case SINEW_E_REFERENCE: return "bad reference";
    case SINEW_E_RANGE: return "value out of range";
    case SINEW_E_DUPLICATE: return "duplicate name";
    case SINEW_E_LAYOUT: return "inconsistent layout";
    case SINEW_E_VERSION: return "unsupported version";
    case SINEW_E_UNSUPPORTED: return "unsupported feature";
    case SINEW_E_LIMIT: return "limit exceeded";
    case SINEW_E_NOMEM: return "out of memory";
    case SINEW_E_NOT_FOUND: return "not found";
    case SINEW_E_RENDER: return "render error";
    case SINEW_E_EXTERNAL: return "external program error";
    }
    return "unknown status";
}

/* A message that did not fit ends in "..." after its last whole word (never inside a UTF-8
 * sequence), so the cut is visible. */
static void mark_cut(char *msg, size_t size) {
    size_t n = size - 4; /* room for "..." and the NUL */
    while (n > 0 && ((unsigned char)msg[n] & 0xC0) == 0x80) n--;
    size_t word = n;
    while (word > size / 2 && msg[word - 1] != ' ') word--;
    if (word > size / 2) n = word - 1;
    memcpy(msg + n, "...", 4);
}

void sinew__vformat(char *msg, size_t size, const char *fmt, va_list ap) {
    int n = sinew__vsnprintf(msg, size, fmt, ap);
    if (n > 0 && (size_t)n >= size && size > 8)
        mark_cut(msg, size);
}

static void vfill(sinew_error *err, sinew_status code, const char *path, const char *fmt, va_list ap) {
    err->code = code;
    int n = sinew__vsnprintf(err->message, sizeof err->message, fmt, ap);
    if (n > 0 && (size_t)n >= sizeof err->message)
        mark_cut(err->message, sizeof err->message);
    if (path) {
        snprintf(err->path, sizeof err->path, "%s", path);
    }
}

sinew_status sinew__fail(sinew_error *err, sinew_status code, const char *path, const char *fmt, ...) {
    if (err && err->code == SINEW_OK) {
        va_list ap;
        va_start(ap, fmt);
        vfill(err, code, path, fmt, ap);
        va_end(ap);
    }
    return code;
}

sinew_status sinew__fail_at(sinew_error *err, sinew_status code, const char *file, uint32_t line,
                            uint32_t column, const char *path, const char *fmt, ...) {
    if (err && err->code == SINEW_OK) {
        va_list ap;
        va_start(ap, fmt);
        vfill(err, code, path, fmt, ap);
        va_end(ap);
        err->file = file;
        err->line = line;
        err->column = column;
    }
    return code;
}

void sinew__error_prefix(sinew_error *err, const char *fmt, ...) {
    if (!err)
        return;
    char prefix[128];
    va_list ap;
    va_start(ap, fmt);
    sinew__vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    /* Build "prefix: message", truncating the tail if it does not fit. */
    char joined[sizeof err->message];
    size_t cap = sizeof joined - 1, n = 0;
    const char *parts[3] = {prefix, ": ", err->message};
    for (int i = 0; i < 3; i++) {
        size_t len = strlen(parts[i]);
        if (len > cap - n)
            len = cap - n;
        memcpy(joined + n, parts[i], len);
        n += len;
    }
    joined[n] = '\0';
    if (n == cap)
        mark_cut(joined, sizeof joined);
    memcpy(err->message, joined, strlen(joined) + 1);
}

void sinew__locate(const char *text, size_t len, size_t offset, uint32_t *line, uint32_t *column) {
    uint32_t l = 1, c = 1;
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

void sinew__writer_warning(sinew_log_fn log, void *user, const char *file, const char *armature,
                           const char *animation, const char *fmt, va_list ap) {
    if (!log)
        return;
    sinew_error e;
    memset(&e, 0, sizeof e);
    e.code = SINEW_E_UNSUPPORTED;
    e.file = file;
    int n = 0;
    if (armature)
        n = snprintf(e.message, sizeof e.message, "armature '%s'%s%s%s: ", armature, animation ? ", animation '" : "",
                     animation ? animation : "", animation ? "'" : "");
    if (n < 0 || (size_t)n >= sizeof e.message)
        n = 0;
    int m = sinew__vsnprintf(e.message + (size_t)n, sizeof e.message - (size_t)n, fmt, ap);
    if (m > 0 && (size_t)m >= sizeof e.message - (size_t)n)
        mark_cut(e.message, sizeof e.message);
    log(user, SINEW_LOG_WARNING, &e);
}

void sinew__error_detach(sinew_error *err, const char *keep1, const char *keep2) {
    if (!err || !err->file || err->file == keep1 || err->file == keep2)
        return;
    if (err->line)
        sinew__error_prefix(err, "%.400s:%u:%u", err->file, err->line, err->column);
    else if (!strstr(err->message, err->file))
        sinew__error_prefix(err, "%.400s", err->file);
    err->file = NULL;
    err->line = err->column = 0;
}
