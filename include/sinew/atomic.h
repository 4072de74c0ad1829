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
 *
 * Modes: a new file gets what open(2) with O_CREAT and mode 0666 gives it: 0666 minus the umask
 * (or what the folder's default ACL says). The temporary file is created so (with open and
 * O_EXCL rather than mkstemp, whose mode is always 0600), and the kernel applies the umask:
 * sinew never reads the umask, since umask() sets it for every thread of the process. A file
 * that is replaced keeps its permission bits (mode & 0777; set-user-ID, set-group-ID and sticky
 * bits, ACLs and extended attributes are not carried over) and its owner and group where the
 * process may set them (root: both; others: a group they belong to). Its temporary file is 0600
 * until it gets them, so no one else can open it meanwhile. The mode is read when the file is
 * opened.
 *
 * Interruptions: sinew_atomic_cleanup removes every temporary file still open in the process,
 * from a signal handler (the sinew CLI calls it on SIGINT, SIGTERM and SIGHUP, then ends by the
 * signal).
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
/**
 * Removes every temporary file that sinew's writers have open in this process (sinew_atomic_open's,
 * and those of sinew_export_*, the converters and the other writers), from any thread. It is
 * async-signal-safe: for a handler of SIGINT, SIGTERM or SIGHUP that then ends the process, e.g.
 * by restoring the signal's default action and raising it again. An MP4/WebM export's ffmpeg,
 * which writes its file by name, is killed (SIGKILL) and waited for first. The writers whose
 * files it removed fail at their commit (their discard is harmless); it frees nothing. A set of
 * files being renamed into place (a PNG sequence, a sprite sheet) is renamed or put back whole
 * before it runs.
 */
SINEW_API void sinew_atomic_cleanup(void);

#ifdef __cplusplus
}
#endif
#endif
