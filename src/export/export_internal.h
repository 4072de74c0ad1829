/* Internal pieces of the exporters: atomic files, PNG encoding, per-format back ends. */
#ifndef SINEW_EXPORT_INTERNAL_H
#define SINEW_EXPORT_INTERNAL_H

#include <stdio.h>

#include "base/atomic.h"
#include "sinew/export.h"

struct sinew_data;
struct sinew_convert_options;
/* convert_files.c: the base name a converted skeleton is written under (NAME_ske.json,
 * NAME_ske.dbbin, NAME.json for Spine): the --name option, else the input's file name without
 * `_ske.json`/`_ske.dbbin`/`.json`/`.dbbin`/`.xml`, else the data's name; path separators and control
 * characters become '_'. */
void sinew__convert_name(const struct sinew_data *data, const struct sinew_convert_options *opts, const char *input,
                         char *name, size_t size);

struct sinew_load_options;
struct sinew_convert_result;
/* convert_files.c: the atlas of a DragonBones input (`atlas`, else the one found beside `input`)
 * copied into out_dir as NAME_tex.json with its pages (by the names the atlas gives them), so that
 * the converted skeleton renders with no option; nothing when no atlas is found. A page image that
 * is not there is a warning through `log` (the files only name it), as in the Spine writer. */
/* convert_v6.c: SINEW_E_UNSUPPORTED for a DragonBones 6.0 file, naming its 6.0 constructs and the
 * target format (`target`, e.g. "DBBin"); SINEW_OK for any other file */
sinew_status sinew__convert_refuse_v6(const struct sinew_data *data, const char *input, const char *target,
                                      sinew_error *err);
sinew_status sinew__convert_copy_atlas(const char *input, const char *atlas, const char *out_dir, const char *name,
                                       const struct sinew_load_options *lopts, sinew_log_fn log, void *log_user,
                                       struct sinew_convert_result *res, sinew_error *err);

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
    uint32_t in_memory;  /* frames [0, in_memory) come from the allocator, the rest are mapped */
    int spill_fd;        /* the unlinked temporary file behind mapped frames, or -1 */
    size_t spill_stride; /* frame size rounded up to the page size */
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
