/* The export front end (begin / frame / end), PNG encoding, single PNG and PNG sequences. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <spng.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/error.h"
#include "export/export_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Paths                                                                                           */

bool sinew__seq_pattern_ok(const char *p) {
    int conversions = 0;
    for (; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        if (*p == '0') p++;
        while (isdigit((unsigned char)*p)) p++;
        if (*p != 'd') return false;
        conversions++;
    }
    return conversions == 1;
}

bool sinew__seq_name(const char *pattern, uint32_t index, char *buf, size_t size) {
    size_t o = 0;
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') {
            if (o + 1 >= size) return false;
            buf[o++] = *p;
            continue;
        }
        p++;
        if (*p == '%') {
            if (o + 1 >= size) return false;
            buf[o++] = '%';
            continue;
        }
        bool zero = false;
        if (*p == '0') {
            zero = true;
            p++;
        }
        unsigned width = 0;
        while (isdigit((unsigned char)*p)) width = width * 10u + (unsigned)(*p++ - '0');
        if (width > 20) width = 20;
        char num[32];
        int n = snprintf(num, sizeof num, zero ? "%0*u" : "%*u", (int)width, index);
        if (n < 0 || o + (size_t)n >= size) return false;
        memcpy(buf + o, num, (size_t)n);
        o += (size_t)n;
    }
    if (o >= size) return false;
    buf[o] = '\0';
    return true;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

sinew_export_format sinew_export_format_for_path(const char *path, bool sheet) {
    if (!path) return SINEW_EXPORT_AUTO;
    if (strchr(path, '%') && sinew__seq_pattern_ok(path)) return SINEW_EXPORT_PNG_SEQUENCE;
    if (ends_with(path, ".png")) return sheet ? SINEW_EXPORT_SHEET : SINEW_EXPORT_PNG;
    if (ends_with(path, ".gif")) return SINEW_EXPORT_GIF;
    if (ends_with(path, ".webp")) return SINEW_EXPORT_WEBP;
    if (ends_with(path, ".mp4")) return SINEW_EXPORT_MP4;
    if (ends_with(path, ".webm")) return SINEW_EXPORT_WEBM;
    return SINEW_EXPORT_AUTO;
}

/* ---------------------------------------------------------------------------------------------- */
/* PNG                                                                                             */

static int png_write_cb(spng_ctx *ctx, void *user, void *data, size_t n) {
    (void)ctx;
    return fwrite(data, 1, n, (FILE *)user) == n ? 0 : SPNG_IO_ERROR;
}

sinew_status sinew__png_encode(FILE *f, const char *path, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, sinew_error *err) {
    if (!stride) stride = (size_t)w * 4u;
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (PNG encoder)");
    struct spng_ihdr ihdr = {0};
    ihdr.width = w;
    ihdr.height = h;
    ihdr.bit_depth = 8;
    ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    int rc = spng_set_png_stream(ctx, png_write_cb, f);
    if (!rc) rc = spng_set_ihdr(ctx, &ihdr);
    if (!rc) rc = spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, 6);
    if (!rc) rc = spng_encode_image(ctx, NULL, 0, SPNG_FMT_PNG, SPNG_ENCODE_PROGRESSIVE | SPNG_ENCODE_FINALIZE);
    for (uint32_t y = 0; !rc && y < h; y++) {
        rc = spng_encode_row(ctx, rgba + (size_t)y * stride, (size_t)w * 4u);
        if (rc == SPNG_EOI) rc = 0;
    }
    spng_ctx_free(ctx);
    if (rc)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot write PNG '%s': %s", path, spng_strerror(rc));
    return SINEW_OK;
}

sinew_status sinew_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                             size_t stride, const char *const *inputs, uint32_t input_count,
                             sinew_error *err) {
    if (!path || !rgba || !width || !height) return sinew__fail(err, SINEW_E_ARG, NULL, "png: bad argument");
    sinew_status st = sinew__check_not_input(path, inputs, input_count, err);
    if (st) return st;
    sinew__tmpfile t;
    if ((st = sinew__tmp_open(path, NULL, &t, err)) != SINEW_OK) return st;
    st = sinew__png_encode(t.f, path, rgba, width, height, stride, err);
    if (st) {
        sinew__tmp_discard(&t);
        return st;
    }
    return sinew__tmp_commit(&t, err);
}

static sinew_status png_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    if (ex->frames_added > 0)
        return sinew__fail(err, SINEW_E_ARG, NULL, "a single PNG takes one frame (use a %%04d pattern for a sequence)");
    sinew_status st = sinew__tmp_open(ex->o.path, ex->allocator, &ex->tmp, err);
    if (!st) st = sinew__png_encode(ex->tmp.f, ex->o.path, rgba, ex->o.width, ex->o.height, 0, err);
    if (st) sinew__tmp_discard(&ex->tmp);
    return st;
}

static sinew_status png_end(sinew_exporter *ex, sinew_error *err) {
    if (ex->frames_added == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    return sinew__tmp_commit(&ex->tmp, err);
}

static void png_abort(sinew_exporter *ex) { sinew__tmp_discard(&ex->tmp); }

const sinew__backend sinew__png_backend = {png_frame, png_end, png_abort};

/* Sequence: every frame goes to its own temporary file; at the end they are renamed as one set
 * (sinew__tmp_commit_set: a failure leaves the previous frames as they were). */
static sinew_status seq_frame_named(sinew_exporter *ex, const uint8_t *rgba, const char *name, sinew_error *err) {
    sinew_status st = sinew__check_not_input(name, ex->o.inputs, ex->o.input_count, err);
    if (st) return st;
    if (ex->frames_added >= ex->seq_cap) {
        uint32_t cap = ex->seq_cap ? ex->seq_cap * 2u : 64u;
        sinew__tmpfile *n = sinew__realloc(ex->allocator, ex->seq, ex->seq_cap * sizeof *n, cap * sizeof *n);
        if (!n) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        memset(n + ex->seq_cap, 0, (cap - ex->seq_cap) * sizeof *n);
        ex->seq = n;
        ex->seq_cap = cap;
    }
    sinew__tmpfile *t = &ex->seq[ex->frames_added];
    if ((st = sinew__tmp_open(name, ex->allocator, t, err)) != SINEW_OK) return st;
    t->name = ex->o.path; /* errors at the commit, after the caller's buffer is gone, name the pattern */
    st = sinew__png_encode(t->f, name, rgba, ex->o.width, ex->o.height, 0, err);
    if (!st) st = sinew__tmp_close(t, err);
    if (st) sinew__tmp_discard(t);
    return st;
}

static sinew_status seq_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    char name[4096];
    if (!sinew__seq_name(ex->o.path, ex->frames_added, name, sizeof name))
        return sinew__fail(err, SINEW_E_ARG, NULL, "output pattern '%s' is too long", ex->o.path);
    sinew_status st = seq_frame_named(ex, rgba, name, err);
    /* an error names its file by pointer: the pattern, not this function's buffer (the message
     * names the frame's file) */
    if (st && err && err->file == name) err->file = ex->o.path;
    return st;
}

static void seq_abort(sinew_exporter *ex) {
    for (uint32_t i = 0; i < ex->seq_cap; i++) sinew__tmp_discard(&ex->seq[i]);
}

static sinew_status seq_end(sinew_exporter *ex, sinew_error *err) {
    if (ex->frames_added == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    return sinew__tmp_commit_set(ex->seq, ex->frames_added, err);
}

const sinew__backend sinew__seq_backend = {seq_frame, seq_end, seq_abort};

/* ---------------------------------------------------------------------------------------------- */
/* Front end                                                                                       */

/* A frame past the memory budget: a page-aligned slice of an unlinked temporary file, mapped, so
 * the kernel can write it out instead of the process holding it (a long GIF of a big character
 * would otherwise need gigabytes). */
static uint8_t *spill_frame(sinew_exporter *ex, sinew_error *err) {
    sinew__frames *f = &ex->frames;
    if (f->spill_fd < 0) {
        const char *dir = getenv("TMPDIR");
        char tmpl[4096];
        snprintf(tmpl, sizeof tmpl, "%s/sinew-frames-XXXXXX", dir && dir[0] ? dir : "/tmp");
        int fd = mkstemp(tmpl);
        if (fd < 0) {
            sinew__fail(err, SINEW_E_IO, NULL, "cannot create a temporary file for frames (%s): %s", tmpl,
                        strerror(errno));
            return NULL;
        }
        unlink(tmpl);
        long page = sysconf(_SC_PAGESIZE);
        size_t pg = page > 0 ? (size_t)page : 4096u;
        f->spill_fd = fd;
        f->spill_stride = (ex->frame_bytes + pg - 1) / pg * pg;
    }
    size_t k = f->count - f->in_memory, end;
    if (!sinew__mul_size(k + 1, f->spill_stride, &end) || end > (size_t)INT64_MAX ||
        ftruncate(f->spill_fd, (off_t)end) != 0) {
        sinew__fail(err, SINEW_E_IO, NULL, "cannot grow the temporary frame file: %s", strerror(errno));
        return NULL;
    }
    void *p = mmap(NULL, ex->frame_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f->spill_fd,
                   (off_t)(end - f->spill_stride));
    if (p == MAP_FAILED) {
        sinew__fail(err, SINEW_E_IO, NULL, "cannot map a frame of the temporary frame file: %s", strerror(errno));
        return NULL;
    }
    return p;
}

sinew_status sinew__frames_push(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    sinew__frames *f = &ex->frames;
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2u : 32u;
        uint8_t **n = sinew__realloc(ex->allocator, f->data, f->cap * sizeof *n, cap * sizeof *n);
        if (!n) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (frame buffer)");
        f->data = n;
        f->cap = cap;
    }
    size_t budget = ex->o.frame_memory ? ex->o.frame_memory : (size_t)256 << 20;
    uint8_t *copy;
    if (f->count == f->in_memory && ((size_t)f->count + 1) * ex->frame_bytes <= budget) {
        copy = sinew__alloc(ex->allocator, ex->frame_bytes);
        if (!copy) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (frame %u)", f->count);
        f->in_memory++;
    } else {
        copy = spill_frame(ex, err);
        if (!copy) return err ? err->code : SINEW_E_IO;
    }
    memcpy(copy, rgba, ex->frame_bytes);
    f->data[f->count++] = copy;
    return SINEW_OK;
}

static void free_exporter(sinew_exporter *ex) {
    const sinew_allocator *a = ex->allocator;
    for (uint32_t i = 0; i < ex->frames.count; i++) {
        if (i < ex->frames.in_memory)
            sinew__free(a, ex->frames.data[i], ex->frame_bytes);
        else
            munmap(ex->frames.data[i], ex->frame_bytes);
    }
    if (ex->frames.spill_fd >= 0) close(ex->frames.spill_fd);
    if (ex->frames.data) sinew__free(a, ex->frames.data, ex->frames.cap * sizeof *ex->frames.data);
    if (ex->seq) sinew__free(a, ex->seq, ex->seq_cap * sizeof *ex->seq);
    if (ex->scratch) sinew__free(a, ex->scratch, ex->frame_bytes);
    sinew__free(a, ex, sizeof *ex);
}

/* The backend of a format, or NULL (with the error filled) when the options cannot be written. */
static const sinew__backend *pick_backend(const sinew_export_options *o, sinew_export_format *fmt_out, sinew_error *err) {
    sinew_export_format fmt = o->format ? o->format : sinew_export_format_for_path(o->path, false);
    *fmt_out = fmt;
    switch (fmt) {
    case SINEW_EXPORT_PNG: return &sinew__png_backend;
    case SINEW_EXPORT_PNG_SEQUENCE:
        if (!sinew__seq_pattern_ok(o->path)) {
            sinew__fail(err, SINEW_E_ARG, NULL, "output pattern '%s' needs exactly one %%d or %%0Nd", o->path);
            return NULL;
        }
        return &sinew__seq_backend;
    case SINEW_EXPORT_SHEET: return &sinew__sheet_backend;
    case SINEW_EXPORT_GIF: return &sinew__gif_backend;
    case SINEW_EXPORT_WEBP: return &sinew__webp_backend;
    case SINEW_EXPORT_MP4:
    case SINEW_EXPORT_WEBM: return &sinew__video_backend;
    case SINEW_EXPORT_AUTO:
    default:
        sinew__fail_at(err, SINEW_E_ARG, o->path, 0, 0, NULL,
                       "cannot tell the output format of '%s' (use .png, %%04d.png, .gif, .webp, .mp4 or .webm)",
                       o->path);
        return NULL;
    }
}

/* One file the export will write: not an input, its folder exists, not a folder itself. */
static sinew_status check_output(const sinew_export_options *o, const char *path, sinew_error *err) {
    sinew_status st = sinew__check_not_input(path, o->inputs, o->input_count, err);
    if (!st) st = sinew__check_folder(path, err);
    /* the error names the caller's path (`path` may be a local buffer of the caller here) */
    if (st && err && err->file == path) err->file = o->path;
    return st;
}

sinew_status sinew_export_check(const sinew_export_options *o, sinew_error *err) {
    if (!o || !o->path || !*o->path) return sinew__fail(err, SINEW_E_ARG, NULL, "export: no output path");
    sinew_export_format fmt;
    if (!pick_backend(o, &fmt, err)) return err ? err->code : SINEW_E_ARG;
    if (fmt == SINEW_EXPORT_PNG_SEQUENCE) {
        char first[4096];
        if (!sinew__seq_name(o->path, 0, first, sizeof first))
            return sinew__fail(err, SINEW_E_ARG, NULL, "output pattern '%s' is too long", o->path);
        return check_output(o, first, err);
    }
    sinew_status st = check_output(o, o->path, err);
    if (st || fmt != SINEW_EXPORT_SHEET) return st;
    /* the sheet's atlas: sheet_json, else the page's name with .json (.tres for Godot) */
    if (o->sheet_json) return check_output(o, o->sheet_json, err);
    char json[4096];
    size_t n = strlen(o->path);
    if (ends_with(o->path, ".png")) n -= 4;
    const char *ext = o->sheet.format == SINEW_SHEET_GODOT ? ".tres" : ".json";
    if (n + strlen(ext) + 1 > sizeof json) return sinew__fail(err, SINEW_E_ARG, NULL, "output path '%s' is too long", o->path);
    memcpy(json, o->path, n);
    memcpy(json + n, ext, strlen(ext) + 1);
    return check_output(o, json, err);
}

sinew_status sinew_export_begin(const sinew_export_options *o, sinew_exporter **out, sinew_error *err) {
    if (!o || !out || !o->path || !*o->path) return sinew__fail(err, SINEW_E_ARG, NULL, "export: no output path");
    *out = NULL;
    if (!o->width || !o->height || o->width > SINEW_MAX_IMAGE_SIDE || o->height > SINEW_MAX_IMAGE_SIDE)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "export: frame size %ux%u is out of range", o->width, o->height);
    if (o->fps < 0 || o->fps > 1000 || o->fps != o->fps)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "export: fps must be between 0 and 1000");
    if (o->quality < 0 || o->quality > 100)
        return sinew__fail(err, SINEW_E_RANGE, NULL, "export: quality must be between 1 and 100");
    sinew_export_format fmt;
    const sinew__backend *be = pick_backend(o, &fmt, err);
    if (!be) return err ? err->code : SINEW_E_ARG;
    sinew_status st = sinew_export_check(o, err);
    if (st) return st;
    const sinew_allocator *a = sinew__allocator_or_default(o->allocator);
    sinew_exporter *ex = sinew__calloc(a, 1, sizeof *ex);
    if (!ex) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    ex->o = *o;
    ex->o.format = fmt;
    if (ex->o.fps == 0) ex->o.fps = 24;
    ex->allocator = a;
    ex->frames.spill_fd = -1;
    ex->backend = be;
    ex->frame_bytes = (size_t)o->width * o->height * 4u;
    ex->scratch = sinew__alloc(a, ex->frame_bytes);
    if (!ex->scratch) {
        free_exporter(ex);
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    }
    st = SINEW_OK;
    if (fmt == SINEW_EXPORT_MP4 || fmt == SINEW_EXPORT_WEBM) st = sinew__video_start(ex, err);
    if (fmt == SINEW_EXPORT_WEBP) st = sinew__webp_start(ex, err);
    if (st) {
        be->abort(ex);
        free_exporter(ex);
        return st;
    }
    *out = ex;
    return SINEW_OK;
}

sinew_status sinew_export_frame_rgba(sinew_exporter *ex, const uint8_t *rgba, size_t stride, sinew_error *err) {
    if (!ex || !rgba) return sinew__fail(err, SINEW_E_ARG, NULL, "export: NULL argument");
    size_t row = (size_t)ex->o.width * 4u;
    const uint8_t *data = rgba;
    if (stride && stride != row) {
        for (uint32_t y = 0; y < ex->o.height; y++) memcpy(ex->scratch + y * row, rgba + y * stride, row);
        data = ex->scratch;
    }
    sinew_status st = ex->backend->frame(ex, data, err);
    if (st == SINEW_OK) ex->frames_added++;
    return st;
}

sinew_status sinew_export_frame(sinew_exporter *ex, const sinew_framebuffer *fb, sinew_error *err) {
    if (!ex || !fb || !fb->pixels) return sinew__fail(err, SINEW_E_ARG, NULL, "export: NULL argument");
    if (fb->width != ex->o.width || fb->height != ex->o.height)
        return sinew__fail(err, SINEW_E_ARG, NULL, "export: frame is %ux%u, expected %ux%u", fb->width, fb->height,
                           ex->o.width, ex->o.height);
    sinew_framebuffer_to_straight(fb, ex->scratch, 0);
    sinew_status st = ex->backend->frame(ex, ex->scratch, err);
    if (st == SINEW_OK) ex->frames_added++;
    return st;
}

sinew_status sinew_export_end(sinew_exporter *ex, sinew_error *err) {
    if (!ex) return sinew__fail(err, SINEW_E_ARG, NULL, "export: NULL argument");
    sinew_status st = ex->backend->end(ex, err);
    if (st) ex->backend->abort(ex);
    free_exporter(ex);
    return st;
}

void sinew_export_abort(sinew_exporter *ex) {
    if (!ex) return;
    ex->backend->abort(ex);
    free_exporter(ex);
}

uint32_t sinew_export_frame_count(const sinew_exporter *ex) { return ex ? ex->frames_added : 0; }
