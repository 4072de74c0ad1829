/* Atomic files: write to a temporary file in the target folder, then rename. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/atomic.h"
#include "sinew/atomic.h"

/* The folder of `path` ("." if none) into dir[0..cap), and its base name. False when the folder's
 * name does not fit (no system call could use it then either: cap is PATH_MAX + 1). */
static bool folder_of(const char *path, char *dir, size_t cap, const char **base) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        memcpy(dir, ".", 2);
        return true;
    }
    *base = slash + 1;
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1;  /* "/name" */
    if (n >= cap) return false;
    memcpy(dir, path, n);
    dir[n] = '\0';
    return true;
}

sinew_status sinew__check_folder(const char *path, sinew_error *err) {
    const char *base;
    char dir[PATH_MAX + 1];
    if (!folder_of(path, dir, sizeof dir, &base))
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write '%s': %s", path, strerror(ENAMETOOLONG));
    struct stat st;
    sinew_status rc = SINEW_OK;
    if (*base == '\0') {
        rc = sinew__fail_at(err, SINEW_E_ARG, path, 0, 0, NULL, "output path '%s' names a folder, not a file", path);
    } else if (stat(dir, &st) != 0) {
        rc = sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write '%s': folder '%s': %s", path, dir,
                            strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        rc = sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write '%s': '%s' is not a folder", path, dir);
    } else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        rc = sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write '%s': it is a folder", path);
    }
    return rc;
}

sinew_status sinew__check_not_input(const char *path, const char *const *inputs, uint32_t n, sinew_error *err) {
    struct stat out;
    bool exists = stat(path, &out) == 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!inputs || !inputs[i]) continue;
        struct stat in;
        bool same = strcmp(inputs[i], path) == 0;
        if (!same && exists && stat(inputs[i], &in) == 0) same = in.st_dev == out.st_dev && in.st_ino == out.st_ino;
        if (same)
            return sinew__fail_at(err, SINEW_E_ARG, path, 0, 0, NULL,
                                  "refusing to overwrite '%s': it is one of the inputs", path);
    }
    return SINEW_OK;
}

sinew_status sinew__tmp_open(const char *final_path, const sinew_allocator *allocator, sinew__tmpfile *t,
                             sinew_error *err) {
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    sinew_status st = sinew__check_folder(final_path, err);
    if (st) return st;
    const char *base;
    char dir[PATH_MAX + 1];
    (void)folder_of(final_path, dir, sizeof dir, &base);  /* fits: sinew__check_folder said so */
    size_t n = strlen(dir) + strlen(base) + 32;
    char *tmpl = sinew__alloc(allocator, n);
    if (!tmpl) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    snprintf(tmpl, n, "%s/.%s.tmp-XXXXXX", dir, base);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        st = sinew__fail_at(err, SINEW_E_IO, final_path, 0, 0, NULL, "cannot create a file next to '%s': %s",
                            final_path, strerror(errno));
        sinew__free(allocator, tmpl, n);
        return st;
    }
    (void)fchmod(fd, 0644);
    t->tmp_path = tmpl;
    t->tmp_size = n;
    t->name = final_path;
    size_t fn = strlen(final_path) + 1;
    if ((t->final_path = sinew__alloc(allocator, fn)) != NULL) {
        memcpy(t->final_path, final_path, fn);
        t->final_size = fn;
    }
    t->f = t->final_path ? fdopen(fd, "wb") : NULL;
    if (!t->f) {
        close(fd);
        sinew__tmp_discard(t);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    return SINEW_OK;
}

/* Frees the two names (the struct stays usable for nothing but memset). */
static void free_names(sinew__tmpfile *t) {
    sinew__free(t->allocator, t->tmp_path, t->tmp_size);
    sinew__free(t->allocator, t->final_path, t->final_size);
}

sinew_status sinew__tmp_close(sinew__tmpfile *t, sinew_error *err) {
    if (!t->f) return SINEW_OK;
    int bad = ferror(t->f) | fflush(t->f);
    if (!bad) bad = fsync(fileno(t->f));
    int e = errno;
    bad |= fclose(t->f);
    t->f = NULL;
    if (bad)
        return sinew__fail_at(err, SINEW_E_IO, t->name, 0, 0, NULL, "cannot write '%s': %s", t->final_path,
                              strerror(e ? e : EIO));
    return SINEW_OK;
}

sinew_status sinew__tmp_commit(sinew__tmpfile *t, sinew_error *err) {
    sinew_status st = sinew__tmp_close(t, err);
    if (st == SINEW_OK && rename(t->tmp_path, t->final_path) != 0)
        st = sinew__fail_at(err, SINEW_E_IO, t->name, 0, 0, NULL, "cannot rename onto '%s': %s", t->final_path,
                            strerror(errno));
    if (st) {
        sinew__tmp_discard(t);
        return st;
    }
    free_names(t);
    memset(t, 0, sizeof *t);
    return SINEW_OK;
}

void sinew__tmp_discard(sinew__tmpfile *t) {
    if (!t) return;
    if (t->f) fclose(t->f);
    if (t->tmp_path) unlink(t->tmp_path);
    free_names(t);
    memset(t, 0, sizeof *t);
}

sinew_status sinew__write_file_atomic(const char *path, const void *bytes, size_t len, const char *const *inputs,
                                      uint32_t input_count, const sinew_allocator *allocator, sinew_error *err) {
    sinew_status st = sinew__check_not_input(path, inputs, input_count, err);
    if (st)
        return st;
    sinew__tmpfile t;
    st = sinew__tmp_open(path, allocator, &t, err);
    if (st)
        return st;
    if (len && fwrite(bytes, 1, len, t.f) != len) {
        st = sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write '%s': %s", path, strerror(errno));
        sinew__tmp_discard(&t);
        return st;
    }
    return sinew__tmp_commit(&t, err);
}

/* ---- the public face, for front ends that stream into a FILE -------------------------------- */
/* sinew_atomic_open takes no allocator (include/sinew/atomic.h): its few bytes come from libc
 * (docs/architecture.md, "Memory"). */

struct sinew_atomic_file {
    sinew__tmpfile t;
};

sinew_status sinew_atomic_open(const char *path, const char *const *inputs, uint32_t input_count,
                               sinew_atomic_file **out, FILE **stream, sinew_error *err) {
    if (!path || !out || !stream)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *out = NULL;
    *stream = NULL;
    sinew_status st = sinew__check_not_input(path, inputs, input_count, err);
    if (st)
        return st;
    sinew_atomic_file *a = sinew__calloc(NULL, 1, sizeof *a);
    if (!a)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    st = sinew__tmp_open(path, NULL, &a->t, err);
    if (st) {
        sinew__free(NULL, a, sizeof *a);
        return st;
    }
    *out = a;
    *stream = a->t.f;
    return SINEW_OK;
}

sinew_status sinew_atomic_commit(sinew_atomic_file *a, sinew_error *err) {
    if (!a)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    sinew_status st = sinew__tmp_commit(&a->t, err);
    sinew__free(NULL, a, sizeof *a);
    return st;
}

void sinew_atomic_discard(sinew_atomic_file *a) {
    if (!a)
        return;
    sinew__tmp_discard(&a->t);
    sinew__free(NULL, a, sizeof *a);
}
