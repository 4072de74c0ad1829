/* MP4 (H.264 yuv420p) and WebM (VP9 with alpha) by piping raw RGBA frames to the ffmpeg program. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/num.h"
#include "export/export_internal.h"

extern char **environ;

typedef struct video_state {
    pid_t pid;
    int in_fd;      /* our end of ffmpeg's stdin (a socket, so a dead ffmpeg gives EPIPE, not SIGPIPE) */
    int err_fd;     /* ffmpeg's stderr */
    uint8_t *rgba;  /* composited frame for MP4 */
} video_state;

static void video_kill(sinew_exporter *ex, video_state *s) {
    if (s->in_fd >= 0) close(s->in_fd);
    s->in_fd = -1;
    if (s->pid > 0) {
        int status;
        kill(s->pid, SIGTERM);
        waitpid(s->pid, &status, 0);
        sinew__tmp_set_writer(&ex->tmp, 0);
        s->pid = 0;
    }
    if (s->err_fd >= 0) close(s->err_fd);
    s->err_fd = -1;
}

static void video_abort(sinew_exporter *ex) {
    video_state *s = ex->state;
    if (s) {
        video_kill(ex, s);
        if (s->rgba) sinew__free(ex->allocator, s->rgba, ex->frame_bytes);
        sinew__free(ex->allocator, s, sizeof *s);
        ex->state = NULL;
    }
    sinew__tmp_discard(&ex->tmp);
}

sinew_status sinew__video_start(sinew_exporter *ex, sinew_error *err) {
    bool webm = ex->o.format == SINEW_EXPORT_WEBM;
    video_state *s = sinew__calloc(ex->allocator, 1, sizeof *s);
    if (!s) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    s->in_fd = s->err_fd = -1;
    ex->state = s;
    if (!webm && !(s->rgba = sinew__alloc(ex->allocator, ex->frame_bytes)))
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    /* reserve the temporary name; ffmpeg writes it */
    sinew_status st = sinew__tmp_open(ex->o.path, ex->allocator, &ex->tmp, err);
    if (!st) st = sinew__tmp_close(&ex->tmp, err);
    if (st) return st;

    char size[32], rate[32];
    snprintf(size, sizeof size, "%ux%u", ex->o.width, ex->o.height);
    sinew__snprintf(rate, sizeof rate, "%.9g", ex->o.fps);
    const char *prog = ex->o.ffmpeg ? ex->o.ffmpeg : "ffmpeg";
    const char *argv_mp4[] = {prog, "-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba",
                              "-s", size, "-framerate", rate, "-i", "pipe:0", "-an",
                              "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                              "-movflags", "+faststart", "-f", "mp4", "-y", ex->tmp.tmp_path, NULL};
    const char *argv_webm[] = {prog, "-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba",
                               "-s", size, "-framerate", rate, "-i", "pipe:0", "-an",
                               "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0", "-c:v", "libvpx-vp9",
                               "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "30", "-auto-alt-ref", "0",
                               "-f", "webm", "-y", ex->tmp.tmp_path, NULL};
    int sv[2] = {-1, -1}, ep[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(ep, O_CLOEXEC) != 0) {
        int e = errno;
        if (sv[0] >= 0) { close(sv[0]); close(sv[1]); }
        return sinew__fail(err, SINEW_E_IO, NULL, "cannot start ffmpeg: %s", strerror(e));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawnp(&s->pid, prog, &fa, NULL, (char *const *)(webm ? argv_webm : argv_mp4), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    close(ep[1]);
    s->in_fd = sv[0];
    s->err_fd = ep[0];
    /* ffmpeg writes the temporary file by name: sinew_atomic_cleanup stops it before removing it */
    if (rc == 0) sinew__tmp_set_writer(&ex->tmp, s->pid);
    if (rc != 0) {
        s->pid = 0;
        if (rc == ENOENT)
            return sinew__fail(err, SINEW_E_EXTERNAL, NULL,
                               "%s output needs the ffmpeg program, which was not found ('%s'); install it with: "
                               "apt-get install ffmpeg",
                               webm ? "WebM" : "MP4", prog);
        return sinew__fail(err, SINEW_E_EXTERNAL, NULL, "cannot start '%s': %s", prog, strerror(rc));
    }
    return SINEW_OK;
}

static void read_stderr(video_state *s, char *buf, size_t size) {
    size_t o = 0;
    ssize_t n;
    while (s->err_fd >= 0 && o + 1 < size && (n = read(s->err_fd, buf + o, size - 1 - o)) > 0) o += (size_t)n;
    buf[o] = '\0';
    while (o > 0 && (buf[o - 1] == '\n' || buf[o - 1] == '\r')) buf[--o] = '\0';
    char *nl;
    while ((nl = strchr(buf, '\n')) != NULL) *nl = ' ';
}

static sinew_status finish(sinew_exporter *ex, sinew_error *err) {
    video_state *s = ex->state;
    if (s->in_fd >= 0) close(s->in_fd);
    s->in_fd = -1;
    char msg[200];
    read_stderr(s, msg, sizeof msg);
    int status = 0;
    if (s->pid > 0) waitpid(s->pid, &status, 0);
    sinew__tmp_set_writer(&ex->tmp, 0);
    s->pid = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            return sinew__fail(err, SINEW_E_EXTERNAL, NULL, "ffmpeg could not be run; install it with: apt-get install ffmpeg");
        return sinew__fail(err, SINEW_E_EXTERNAL, NULL, "ffmpeg failed writing '%s': %s", ex->o.path,
                           msg[0] ? msg : "no message");
    }
    return SINEW_OK;
}

static sinew_status video_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    video_state *s = ex->state;
    const uint8_t *data = rgba;
    if (ex->o.format == SINEW_EXPORT_MP4) {
        /* no alpha in yuv420p: composite over the background colour */
        sinew_rgba8 bg = ex->o.video_background;
        if (bg.a == 0) bg = (sinew_rgba8){0, 0, 0, 255};
        const uint8_t *p = rgba;
        uint8_t *d = s->rgba;
        for (size_t i = 0; i < (size_t)ex->o.width * ex->o.height; i++, p += 4, d += 4) {
            uint32_t a = p[3];
            d[0] = (uint8_t)((p[0] * a + bg.r * (255u - a) + 127u) / 255u);
            d[1] = (uint8_t)((p[1] * a + bg.g * (255u - a) + 127u) / 255u);
            d[2] = (uint8_t)((p[2] * a + bg.b * (255u - a) + 127u) / 255u);
            d[3] = 255;
        }
        data = s->rgba;
    }
    size_t left = ex->frame_bytes;
    while (left > 0) {
        ssize_t n = send(s->in_fd, data, left, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            sinew_status st = finish(ex, err);
            if (st) return st;
            return sinew__fail(err, SINEW_E_EXTERNAL, NULL, "ffmpeg stopped reading frames");
        }
        data += n;
        left -= (size_t)n;
    }
    return SINEW_OK;
}

static sinew_status video_end(sinew_exporter *ex, sinew_error *err) {
    if (ex->frames_added == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    sinew_status st = finish(ex, err);
    if (!st) st = sinew__tmp_commit(&ex->tmp, err);
    video_abort(ex);
    return st;
}

const sinew__backend sinew__video_backend = {video_frame, video_end, video_abort};
