/* Atomic files: write to a temporary file in the target folder, then rename. Every temporary
 * file is in a registry while it exists, so that a signal handler can remove them all
 * (sinew_atomic_cleanup); a set of files is renamed into place only once every one is written,
 * and put back as it was when a rename fails (sinew__tmp_commit_set). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
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

/* ---- the registry of temporary files ------------------------------------------------------- */
/* A doubly linked list of the temporary names that exist. It is changed only with every signal
 * blocked in the changing thread and `reg_busy` held, so sinew_atomic_cleanup, which takes
 * `reg_busy` too, never runs inside a change on its own thread and waits for one on another
 * thread (a few system calls). `reg_mutex` lets the changing threads sleep rather than spin. */

struct sinew__tmpnode {
    sinew__tmpnode *prev, *next;
    pid_t writer; /* sinew__tmp_set_writer */
    char path[];  /* the temporary name (the tmpfile's tmp_path) */
};

static pthread_mutex_t reg_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_flag reg_busy = ATOMIC_FLAG_INIT;
static sinew__tmpnode *reg_head;

static void reg_lock(sigset_t *saved) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, saved);
    pthread_mutex_lock(&reg_mutex);
    while (atomic_flag_test_and_set_explicit(&reg_busy, memory_order_acquire)) {
        /* only sinew_atomic_cleanup, on another thread, holds it without the mutex */
    }
}

static void reg_unlock(const sigset_t *saved) {
    atomic_flag_clear_explicit(&reg_busy, memory_order_release);
    pthread_mutex_unlock(&reg_mutex);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static void reg_insert(sinew__tmpnode *n) {
    n->prev = NULL;
    n->next = reg_head;
    if (reg_head) reg_head->prev = n;
    reg_head = n;
}

static void reg_remove(sinew__tmpnode *n) {
    if (n->prev) n->prev->next = n->next;
    else reg_head = n->next;
    if (n->next) n->next->prev = n->prev;
}

void sinew_atomic_cleanup(void) {
    while (atomic_flag_test_and_set_explicit(&reg_busy, memory_order_acquire)) {
        /* a change on another thread: it ends after a few system calls (three a file of a set) */
    }
    for (const sinew__tmpnode *n = reg_head; n; n = n->next) {
        if (n->writer > 0) {
            kill(n->writer, SIGKILL);
            waitpid(n->writer, NULL, 0);
        }
        unlink(n->path);
    }
    atomic_flag_clear_explicit(&reg_busy, memory_order_release);
}

void sinew__tmp_set_writer(sinew__tmpfile *t, int pid) {
    if (!t->node) return;
    sigset_t saved;
    reg_lock(&saved);
    t->node->writer = (pid_t)pid;
    reg_unlock(&saved);
}

/* ---- temporary names ------------------------------------------------------------------------ */

/* Six characters for the end of a temporary name: a per-process counter, the clock and the
 * process id, mixed. They need not be unpredictable (open's O_EXCL makes a taken name a retry,
 * never a shared file), only unlikely to repeat. */
static void fill_name(char *x) {
    static atomic_uint_fast64_t counter;
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull;
    v ^= (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ ((uint64_t)getpid() << 12);
    v = (v ^ (v >> 31)) * 0xBF58476D1CE4E5B9ull;
    v = (v ^ (v >> 27)) * 0x94D049BB133111EBull;
    v ^= v >> 31;
    for (int i = 0; i < 6; i++, v /= 62) x[i] = digits[v % 62];
}

/* Creates a new file at `name`, whose last six characters are replaced until the name is free
 * (as mkstemp does, but with `mode`, from which the kernel takes the umask or the folder's
 * default ACL: mkstemp's mode is always 0600). The descriptor, or -1 with errno set. */
static int create_unique(char *name, size_t len, mode_t mode) {
    for (int tries = 0; tries < 100; tries++) {
        fill_name(name + len - 6);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1; /* errno is EEXIST */
}

/* The replaced file's owner and group (each where the process may set it: root both, others a
 * group they are in) and its permission bits onto the new file. */
static void keep_owner_and_mode(int fd, const struct stat *old) {
    if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0) {
        /* the new file keeps the process's group */
    }
    if (fchmod(fd, old->st_mode & 0777) != 0) {
        /* it keeps 0600 minus the umask: never more open than the old file */
    }
}

/* ---- one temporary file --------------------------------------------------------------------- */

sinew_status sinew__tmp_open(const char *final_path, const sinew_allocator *allocator, sinew__tmpfile *t,
                             sinew_error *err) {
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    sinew_status st = sinew__check_folder(final_path, err);
    if (st) return st;
    const char *base;
    char dir[PATH_MAX + 1];
    (void)folder_of(final_path, dir, sizeof dir, &base);  /* fits: sinew__check_folder said so */
    size_t n = strlen(dir) + strlen(base) + 32, size = sizeof(sinew__tmpnode) + n;
    sinew__tmpnode *node = sinew__alloc(allocator, size);
    if (!node) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    int len = snprintf(node->path, n, "%s/.%s.tmp-XXXXXX", dir, base);
    /* a file replaced keeps its mode: its temporary starts as 0600 (minus the umask), so no one
     * else can open it before it has the old file's mode; a new file gets open's 0666 minus the
     * umask from the start */
    struct stat old;
    bool replacing = stat(final_path, &old) == 0 && S_ISREG(old.st_mode);
    sigset_t saved;
    reg_lock(&saved);
    int fd = create_unique(node->path, (size_t)len, replacing ? (mode_t)0600 : (mode_t)0666);
    int e = errno;
    if (fd >= 0) {
        node->writer = 0;
        reg_insert(node);
    }
    reg_unlock(&saved);
    if (fd < 0) {
        st = sinew__fail_at(err, SINEW_E_IO, final_path, 0, 0, NULL, "cannot create a file next to '%s': %s",
                            final_path, strerror(e));
        sinew__free(allocator, node, size);
        return st;
    }
    if (replacing) keep_owner_and_mode(fd, &old);
    t->node = node;
    t->tmp_path = node->path;
    t->node_size = size;
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

/* Takes the node out of the registry (removing its file first when `remove_file`), frees it and
 * the final name, and zeroes the struct. */
static void forget(sinew__tmpfile *t, bool remove_file) {
    if (t->node) {
        sigset_t saved;
        reg_lock(&saved);
        if (remove_file && t->tmp_path[0]) unlink(t->tmp_path);
        reg_remove(t->node);
        reg_unlock(&saved);
        sinew__free(t->allocator, t->node, t->node_size);
    }
    sinew__free(t->allocator, t->final_path, t->final_size);
    memset(t, 0, sizeof *t);
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

static sinew_status rename_failed(const sinew__tmpfile *t, int e, sinew_error *err) {
    return sinew__fail_at(err, SINEW_E_IO, t->name, 0, 0, NULL, "cannot rename onto '%s': %s", t->final_path,
                          strerror(e));
}

sinew_status sinew__tmp_commit(sinew__tmpfile *t, sinew_error *err) {
    sinew_status st = sinew__tmp_close(t, err);
    if (st == SINEW_OK) {
        sigset_t saved;
        reg_lock(&saved); /* a signal handler sees the temporary name or none */
        int e = rename(t->tmp_path, t->final_path) == 0 ? 0 : errno;
        if (!e) t->tmp_path[0] = '\0';
        reg_unlock(&saved);
        if (e) st = rename_failed(t, e, err);
    }
    forget(t, st != SINEW_OK);
    return st;
}

void sinew__tmp_discard(sinew__tmpfile *t) {
    if (!t) return;
    if (t->f) fclose(t->f);
    t->f = NULL;
    forget(t, true);
}

/* ---- a set of temporary files ---------------------------------------------------------------- */

/* Keeps the file at t's final name (if there is one, and not a folder) under a new temporary
 * name in `backup`, which takes the place of t's own once t is renamed: a second hard link to
 * it, or, where the file system has no hard links (FAT, some network file systems), the file
 * itself moved aside (`*moved`). 0, or errno. */
static int keep_old(const sinew__tmpfile *t, char *backup, bool *kept, bool *moved) {
    struct stat st;
    *kept = *moved = false;
    if (lstat(t->final_path, &st) != 0 || S_ISDIR(st.st_mode)) return 0;
    size_t len = strlen(t->tmp_path);
    if (len > PATH_MAX) return ENAMETOOLONG;
    memcpy(backup, t->tmp_path, len + 1);
    int e = EEXIST;
    for (int tries = 0; tries < 100 && e == EEXIST; tries++) {
        fill_name(backup + len - 6);
        e = link(t->final_path, backup) == 0 ? 0 : errno;
    }
    if (e && e != EEXIST) {
        int fd = create_unique(backup, len, 0600); /* a free name, which the rename replaces */
        e = fd < 0 ? errno : 0;
        if (fd >= 0) close(fd);
        if (!e && rename(t->final_path, backup) != 0) {
            e = errno;
            unlink(backup);
        }
        *moved = e == 0;
    }
    *kept = e == 0;
    return e;
}

/* Renames every file of the set onto its final name, keeping each old file (keep_old) until all
 * are in place, then removes the old ones; when one fails, the ones before it are put back (a new
 * name that had no old file is removed). Runs with the registry locked: a signal handler sees the
 * set before or after, and the backups are in the registry under their tmpfile's node. */
static sinew_status rename_all(sinew__tmpfile *set, uint32_t n, sinew_error *err) {
    char backup[PATH_MAX + 1];
    uint32_t i;
    int e = 0;
    for (i = 0; i < n; i++) {
        sinew__tmpfile *t = &set[i];
        bool kept, moved;
        if ((e = keep_old(t, backup, &kept, &moved)) != 0) break;
        if (rename(t->tmp_path, t->final_path) != 0) {
            e = errno;
            if (moved) rename(backup, t->final_path);
            else if (kept) unlink(backup);
            break;
        }
        t->kept = kept;
        memcpy(t->tmp_path, kept ? backup : "", kept ? strlen(backup) + 1 : 1);
    }
    if (e) {
        sinew_status st = rename_failed(&set[i], e, err);
        while (i-- > 0) {
            sinew__tmpfile *t = &set[i];
            if (t->kept) rename(t->tmp_path, t->final_path); /* should that fail, the old file stays under tmp_path */
            else unlink(t->final_path);
            t->tmp_path[0] = '\0';
        }
        return st;
    }
    for (i = 0; i < n; i++) {
        if (set[i].kept) unlink(set[i].tmp_path);
        set[i].tmp_path[0] = '\0';
    }
    return SINEW_OK;
}

sinew_status sinew__tmp_commit_set(sinew__tmpfile *set, uint32_t n, sinew_error *err) {
    sinew_status st = SINEW_OK;
    for (uint32_t i = 0; i < n && st == SINEW_OK; i++) st = sinew__tmp_close(&set[i], err);
    if (st == SINEW_OK) {
        sigset_t saved;
        reg_lock(&saved);
        st = rename_all(set, n, err);
        reg_unlock(&saved);
    }
    for (uint32_t i = 0; i < n; i++) forget(&set[i], true);
    return st;
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
