/* Internal pieces of the exporters: atomic files, PNG encoding, per-format back ends. */
#ifndef SINEW_EXPORT_INTERNAL_H
#define SINEW_EXPORT_INTERNAL_H

#include <stdio.h>

#include "sinew/export.h"

/* A temporary file next to its final path; renamed into place by sinew__tmp_commit. */
typedef struct sinew__tmpfile {
    char *final_path;
    char *tmp_path;
    FILE *f;           /* open for writing, or NULL once closed */
} sinew__tmpfile;

/* Creates `DIR/.NAME.tmp-XXXXXX` in the folder of `final_path` (mode 0644). */
sinew_status sinew__tmp_open(const char *final_path, sinew__tmpfile *t, sinew_error *err);
/* Flushes, closes and renames onto the final path. On failure the temporary file is removed. */
sinew_status sinew__tmp_commit(sinew__tmpfile *t, sinew_error *err);
/* Closes (if open) and removes the temporary file; frees the names. Safe on a zeroed struct. */
void sinew__tmp_discard(sinew__tmpfile *t);
/* Closes the FILE (for writers that reopen the name, such as ffmpeg). */
sinew_status sinew__tmp_close(sinew__tmpfile *t, sinew_error *err);

/* Fails with SINEW_E_ARG if `path` is (or is the same file as) one of `inputs`. */
sinew_status sinew__check_not_input(const char *path, const char *const *inputs, uint32_t n, sinew_error *err);
/* Fails with SINEW_E_IO naming the folder if the folder of `path` does not exist or is not a folder. */
sinew_status sinew__check_folder(const char *path, sinew_error *err);

/* Encodes straight RGBA8 as PNG into an open FILE. */
sinew_status sinew__png_encode(FILE *f, const char *path, const uint8_t *rgba, uint32_t w, uint32_t h,
                               size_t stride, sinew_error *err);

/* Back ends: each gets the straight-alpha frames through these hooks. */
typedef struct sinew__backend {
    sinew_status (*frame)(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err);
    sinew_status (*end)(sinew_exporter *ex, sinew_error *err);   /* encode + commit */
    void (*abort)(sinew_exporter *ex);                           /* remove temporaries */
} sinew__backend;

/* Buffered frames (GIF, sheet). */
typedef struct sinew__frames {
    uint8_t **data;   /* each width * height * 4 straight RGBA */
    uint32_t count, cap;
} sinew__frames;

struct sinew_exporter {
    sinew_export_options o;
    const sinew_allocator *allocator;
    const sinew__backend *backend;
    uint32_t frames_added;
    size_t frame_bytes;
    uint8_t *scratch;          /* one straight frame */
    sinew__frames frames;
    sinew__tmpfile tmp, tmp2;  /* main output, and the sheet JSON */
    sinew__tmpfile *seq;       /* PNG sequence: one per frame */
    uint32_t seq_cap;
    void *state;               /* back-end state (WebP encoder, ffmpeg process) */
};

sinew_status sinew__frames_push(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err);

extern const sinew__backend sinew__png_backend;
extern const sinew__backend sinew__seq_backend;
extern const sinew__backend sinew__sheet_backend;
extern const sinew__backend sinew__gif_backend;
extern const sinew__backend sinew__webp_backend;
extern const sinew__backend sinew__video_backend;

/* Starts ffmpeg for MP4/WebM (called from sinew_export_begin). */
sinew_status sinew__video_start(sinew_exporter *ex, sinew_error *err);
sinew_status sinew__webp_start(sinew_exporter *ex, sinew_error *err);

/* Formats frame `index` of a sequence pattern into buf; false if it does not fit. */
bool sinew__seq_name(const char *pattern, uint32_t index, char *buf, size_t size);
/* True if the pattern holds exactly one %d / %0Nd conversion and otherwise only %% escapes. */
bool sinew__seq_pattern_ok(const char *pattern);

#endif
