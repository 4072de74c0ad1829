/**
 * sinew/atomic.h - atomic output files.
 *
 * Every file sinew writes goes to a temporary file in the target folder and is renamed into
 * place only when complete, so an interrupted or failed write leaves nothing behind and never a
 * half-written file. These functions are API: they give front ends (the sinew CLI among them) the
 * same guarantee for their own streams:
 *
 *     sinew_atomic_file *af; FILE *f;
 *     if (sinew_atomic_open("poses.json", inputs, 1, &af, &f, &err) != SINEW_OK) { ...report... }
 *     fprintf(f, "...");
 *     if (ok) sinew_atomic_commit(af, &err); else sinew_atomic_discard(af);
 */
#ifndef SINEW_ATOMIC_H
#define SINEW_ATOMIC_H

#include <stdio.h>

#include "sinew/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sinew_atomic_file sinew_atomic_file;

/**
 * Opens a temporary file next to `path` for writing (`*stream`). Fails with SINEW_E_ARG if
 * `path` is one of `inputs` (by name or by identity), SINEW_E_IO if its folder is missing.
 */
SINEW_API sinew_status sinew_atomic_open(const char *path, const char *const *inputs, uint32_t input_count,
                               sinew_atomic_file **out, FILE **stream, sinew_error *err);
/** Flushes, closes and renames the file onto its path; frees `f` in every case. */
SINEW_API sinew_status sinew_atomic_commit(sinew_atomic_file *f, sinew_error *err);
/** Closes and removes the temporary file; frees `f`. NULL is fine. */
SINEW_API void sinew_atomic_discard(sinew_atomic_file *f);

#ifdef __cplusplus
}
#endif
#endif
