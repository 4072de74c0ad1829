/* Internal error helpers. */
#ifndef SINEW_BASE_ERROR_H
#define SINEW_BASE_ERROR_H

#include <stdarg.h>

#include "sinew/base.h"

#if defined(__GNUC__)
#define SINEW_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SINEW_PRINTF(f, a)
#endif

/*
 * Fills err (if non-NULL and still empty: the first error wins) and returns code.
 * `path` may be NULL. Line/column/offset are left as they are (0 = unknown) for the caller to set.
 */
sinew_status sinew__fail(sinew_error *err, sinew_status code, const char *path, const char *fmt, ...)
    SINEW_PRINTF(4, 5);

/* Like sinew__fail, but also records file, line and column. */
sinew_status sinew__fail_at(sinew_error *err, sinew_status code, const char *file, uint32_t line,
                            uint32_t column, const char *path, const char *fmt, ...) SINEW_PRINTF(7, 8);

/* Prepends "context: " to an existing message (outer layers add context, never replace). */
void sinew__error_prefix(sinew_error *err, const char *fmt, ...) SINEW_PRINTF(2, 3);

/*
 * A writer's warning about what it approximates or leaves out: through `log` (nothing when NULL)
 * at SINEW_LOG_WARNING, code SINEW_E_UNSUPPORTED, the message prefixed "armature 'A', animation
 * 'X': " (without the animation when it is NULL, without both when the armature is NULL).
 */
void sinew__writer_warning(sinew_log_fn log, void *user, const char *file, const char *armature,
                           const char *animation, const char *fmt, va_list ap) SINEW_PRINTF(6, 0);

/* vsnprintf into a message buffer; a message that does not fit ends in "..." after its last whole
 * word instead of being cut mid-word (sinew_error.message). */
void sinew__vformat(char *msg, size_t size, const char *fmt, va_list ap) SINEW_PRINTF(3, 0);

/* For an error about to outlive the string err->file points at (a path the callee built or
 * freed): the file (and line:col) move into the message and err->file becomes NULL, unless it is
 * `keep1` or `keep2` (the caller's own strings). */
void sinew__error_detach(sinew_error *err, const char *keep1, const char *keep2);

/* Computes 1-based line and column of byte `offset` in text[0..len). Columns count bytes. */
void sinew__locate(const char *text, size_t len, size_t offset, uint32_t *line, uint32_t *column);

#endif
