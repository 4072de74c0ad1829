/**
 * sinew/base.h - status codes, the error struct, the allocator and the log callback.
 *
 * Every fallible sinew function returns a sinew_status (SINEW_OK == 0) and takes an optional
 * `sinew_error *err` as its last parameter. The error is plain data owned by the caller: nothing
 * in it needs freeing. The first error wins: inner code fills it, outer code may only prepend.
 *
 *     sinew_error err = {0};
 *     if (sinew_data_load_file("hero_ske.json", NULL, &data, &err) != SINEW_OK)
 *         fprintf(stderr, "%s:%u:%u: error: %s [%s]\n", err.file, err.line, err.column,
 *                 err.message, err.path);
 */
#ifndef SINEW_BASE_H
#define SINEW_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * SINEW_API marks every function of the public API, and nothing else: the libraries are built with
 * hidden visibility (-fvisibility=hidden), so a function without it is internal to its library
 * (docs/architecture.md "Exported symbols"). abi/libNAME.symbols lists what each library exports.
 */
#if defined(__GNUC__) || defined(__clang__)
#define SINEW_API __attribute__((visibility("default")))
#else
#define SINEW_API
#endif

#define SINEW_VERSION_MAJOR 0
#define SINEW_VERSION_MINOR 1
#define SINEW_VERSION_PATCH 0
#define SINEW_VERSION_STRING "0.1.0"

/** Marks "no such object" wherever a sub-object is referred to by index. */
#define SINEW_INVALID_INDEX UINT32_MAX

/** Status codes, grouped by kind. 0 is success. */
typedef enum sinew_status {
    SINEW_OK = 0,
    SINEW_E_ARG = 1,          /**< a bad argument from the caller (NULL, out of range) */
    SINEW_E_IO = 10,          /**< a file could not be opened, read or written */
    SINEW_E_PARSE = 20,       /**< the input is not well-formed (JSON, XML, PNG, binary) */
    SINEW_E_TYPE = 21,        /**< a value has the wrong type */
    SINEW_E_MISSING = 22,     /**< a required value is absent */
    SINEW_E_REFERENCE = 23,   /**< a name or index refers to nothing, or to a cycle */
    SINEW_E_RANGE = 24,       /**< a number is out of range or not finite */
    SINEW_E_DUPLICATE = 25,   /**< a name is defined twice */
    SINEW_E_LAYOUT = 26,      /**< array lengths or structure do not fit together */
    SINEW_E_VERSION = 30,     /**< an unsupported format version */
    SINEW_E_UNSUPPORTED = 31, /**< a feature sinew does not support */
    SINEW_E_LIMIT = 40,       /**< an input exceeds a configured limit */
    SINEW_E_NOMEM = 50,       /**< an allocation failed */
    SINEW_E_NOT_FOUND = 60,   /**< a named armature/animation/skin does not exist */
    SINEW_E_RENDER = 70,      /**< rendering or encoding failed */
    SINEW_E_EXTERNAL = 80     /**< an external program (ffmpeg) is missing or failed */
} sinew_status;

/** A static, human-readable name for a status code. Never NULL. */
SINEW_API const char *sinew_status_str(sinew_status code);

/** Bytes of sinew_error.message, its terminating NUL included. */
#define SINEW_ERROR_MESSAGE_SIZE 1024

/**
 * Where and why something failed. Owned by the caller; nothing to free.
 * `file` is borrowed, not copied: it is the path the caller passed (so it lives as long as that),
 * or NULL when sinew built the path itself (the message then names the file). An error kept
 * longer than the caller's path must copy `file` (docs/errors.md).
 * line/column are 1-based; 0 means unknown. `path` is a JSON-style path such as
 * `armature[0].bone[12].parent`, or a byte offset description for binary input ("" if none).
 * `message` is a complete sentence: sinew keeps every message within the buffer (lists of names
 * are bounded, "... and N more"), so nothing is allocated for errors and nothing needs freeing.
 * Should a message ever not fit (two very long file names in one message), it ends in "..."
 * at a character boundary instead of a cut word (docs/errors.md).
 */
typedef struct sinew_error {
    sinew_status code;
    const char *file;
    uint32_t line;
    uint32_t column;
    uint64_t offset;      /**< byte offset into the input, when known */
    char path[128];
    char message[SINEW_ERROR_MESSAGE_SIZE];
} sinew_error;

/**
 * A replaceable allocator. All functions receive `ctx`. `free` and `realloc` get the size of the
 * block, so arenas and pools can be plugged in. A NULL `sinew_allocator *` anywhere means libc.
 * `alloc` returns memory aligned to at least 16 bytes or NULL; `realloc` may be NULL, in which
 * case sinew emulates it with alloc+copy+free.
 */
typedef struct sinew_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} sinew_allocator;

typedef enum sinew_log_level {
    SINEW_LOG_INFO = 0,
    SINEW_LOG_WARNING = 1,
    SINEW_LOG_ERROR = 2
} sinew_log_level;

/**
 * Optional diagnostics callback (warnings such as an unknown key). `where` carries the same
 * location fields as an error (its `code` says what kind of warning). Without a callback sinew is
 * silent.
 */
typedef void (*sinew_log_fn)(void *user, sinew_log_level level, const sinew_error *where);

/** 2D affine matrix in the DragonBones convention: x' = a*x + c*y + tx, y' = b*x + d*y + ty. */
typedef struct sinew_affine {
    float a, b, c, d, tx, ty;
} sinew_affine;

/** An axis-aligned rectangle; empty when x0 > x1 or y0 > y1. */
typedef struct sinew_rect {
    float x0, y0, x1, y1;
} sinew_rect;

/** A colour transform: out = channel * mul + add. Multipliers in 0..1, offsets in -255..255. */
typedef struct sinew_color_transform {
    float a_mul, r_mul, g_mul, b_mul;
    float a_add, r_add, g_add, b_add;
} sinew_color_transform;

#ifdef __cplusplus
}
#endif
#endif
