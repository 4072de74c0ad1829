/* Atomic files (internal): write to a temporary file in the target folder, then rename. Every
 * writer in sinew goes through this, so an interrupted or failed write leaves no partial file. */
#ifndef SINEW_BASE_ATOMIC_H
#define SINEW_BASE_ATOMIC_H

#include <stdio.h>

#include "sinew/base.h"

/* The registry entry of a temporary file (atomic.c): it holds the temporary name. */
typedef struct sinew__tmpnode sinew__tmpnode;

/* A temporary file next to its final path; renamed into place by sinew__tmp_commit. */
typedef struct sinew__tmpfile {
    const sinew_allocator *allocator;  /* the final name and the node come from it (NULL = libc) */
    char *final_path;
    char *tmp_path;                    /* inside `node` */
    sinew__tmpnode *node;
    size_t final_size, node_size;      /* their allocation sizes */
    const char *name;  /* the caller's name for the file (borrowed, set by sinew__tmp_open): errors
                        * point at it, never at final_path, which is freed with the tmpfile */
    FILE *f;           /* open for writing, or NULL once closed */
    bool kept;         /* sinew__tmp_commit_set: tmp_path now names the replaced file's backup */
} sinew__tmpfile;

/* Creates `DIR/.NAME.tmp-XXXXXX` in the folder of `final_path`, with the mode open(2) gives a new
 * file with 0666 (0666 minus the umask, or the folder's default ACL); when `final_path` is a
 * regular file, with its permission bits, and its owner and group where the process may set them
 * (the temporary file is 0600 until then). Its names come from `allocator`. The name is in the
 * registry sinew_atomic_cleanup removes until it is committed or discarded. */
sinew_status sinew__tmp_open(const char *final_path, const sinew_allocator *allocator, sinew__tmpfile *t,
                             sinew_error *err);
/* Flushes, syncs, closes and renames onto the final path. On failure the temporary file is removed. */
sinew_status sinew__tmp_commit(sinew__tmpfile *t, sinew_error *err);
/* Commits n files as one set: every one is flushed, synced and closed before any is renamed, and
 * when a rename fails the files renamed before it are put back (the old file where there was one,
 * no file where there was none), so a failure leaves the old set whole. Each old file is kept
 * under a temporary name (a hard link, or the file moved aside where there are none) until all
 * renames are done. Every tmpfile is freed in every case. */
sinew_status sinew__tmp_commit_set(sinew__tmpfile *set, uint32_t n, sinew_error *err);
/* Closes (if open) and removes the temporary file; frees the names. Safe on a zeroed struct. */
void sinew__tmp_discard(sinew__tmpfile *t);
/* Closes the FILE (for writers that reopen the name, such as ffmpeg). */
sinew_status sinew__tmp_close(sinew__tmpfile *t, sinew_error *err);
/* The child process (pid > 0) that writes the temporary file by name, or none (0, once it has
 * been waited for): sinew_atomic_cleanup kills it (SIGKILL) and waits for it before removing the
 * file, which it could otherwise create again. */
void sinew__tmp_set_writer(sinew__tmpfile *t, int pid);

/* Fails with SINEW_E_ARG if `path` is (or is the same file as) one of `inputs`. */
sinew_status sinew__check_not_input(const char *path, const char *const *inputs, uint32_t n, sinew_error *err);
/* Fails with SINEW_E_IO naming the folder if the folder of `path` does not exist or is not a folder,
 * and when `path` itself is an existing folder (the rename at the end would fail). */
sinew_status sinew__check_folder(const char *path, sinew_error *err);

/* Writes `len` bytes to `path` atomically, refusing to write over any of `inputs`. */
sinew_status sinew__write_file_atomic(const char *path, const void *bytes, size_t len, const char *const *inputs,
                                      uint32_t input_count, const sinew_allocator *allocator, sinew_error *err);

#endif
