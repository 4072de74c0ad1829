/*
 * DragonBones binary data (DBBin, `NAME_ske.dbbin`), as the official runtime's BinaryDataParser
 * reads it (docs/convert.md, "DragonBones binary").
 *
 * Layout (little-endian):
 *   bytes 0..3   the tag "DBDT"
 *   bytes 4..7   a version word: the exporters write the bytes 0 0 0 F, F the format (1 or 2);
 *                the official reader ignores it, and so does sinew's
 *   bytes 8..11  uint32 N, the length of the JSON header
 *   12..12+N     the JSON header: the DragonBones JSON document with the arrays taken out (mesh
 *                displays carry `offset` into intArray; animations carry `offset`:
 *                [frameIntOffset, frameFloatOffset, frameOffset] and per target the timeline
 *                types and timelineArray offsets); its top-level `offset` gives byte offset and
 *                byte length of each array, relative to 12+N: 12 numbers for the six arrays
 *                (format 1, the DragonBones 5.0-5.5 exporters) or 14 (format 2, the 5.6
 *                exporter: a seventh array, the colour array, which that exporter leaves empty
 *                and the official 5.6 runtime does not read)
 *   12+N...      intArray (int16), floatArray (float32), frameIntArray (int16), frameFloatArray
 *                (float32), frameArray (int16), timelineArray (uint16), each starting on a 4-byte
 *                boundary of the file.
 *
 * The arrays hold exactly what the official JSON parser (ObjectDataParser) builds from the same
 * document, so the runtime sees the same data from either file. The runtime this matches (the
 * oracle's 5.6 line) keeps slot colours in intArray in both formats.
 */
#ifndef SINEW_FORMAT_DBBIN_H
#define SINEW_FORMAT_DBBIN_H

#include <stddef.h>

#include "sinew/data.h"

/* The 4-byte tag every DBBin file starts with. */
#define SINEW_DBBIN_TAG "DBDT"

/* The format sinew writes unless told otherwise: 2, the DragonBones 5.6 exporter's (the last
 * released one). */
#define SINEW_DBBIN_FORMAT_DEFAULT 2u

/*
 * Builds the DBBin bytes of a DragonBones JSON document (`text`, `len` bytes; `file` names it in
 * errors) in `format` 1 or 2 (0: SINEW_DBBIN_FORMAT_DEFAULT; anything else is SINEW_E_ARG); the
 * two differ only in the `offset` table and the version word. On success *out comes from
 * `allocator` (NULL = libc; the caller frees it with sinew__free(allocator, *out, *out_len)) and
 * *out_len is its size. Every buffer of the writer comes from `allocator`; the JSON tree it edits
 * is cJSON's (libc: docs/architecture.md "Memory"). Constructs the binary form cannot carry (path displays, shared or glued meshes, ...) fail with
 * SINEW_E_UNSUPPORTED naming the construct; nothing is returned then. What the binary leaves out
 * as the official parser does (action frames past the end of their animation) is a warning
 * through `log` (may be NULL); *warnings (may be NULL) counts them.
 */
sinew_status sinew__dbbin_write(const char *text, size_t len, const char *file, unsigned format,
                                const sinew_allocator *allocator, sinew_log_fn log, void *log_user,
                                uint32_t *warnings, void **out, size_t *out_len, sinew_error *err);

/*
 * The DBBin loader behind sinew_data_load_file / _buffer (chosen by the DBDT tag). It checks the
 * whole layout (errors `... at byte offset N`, never a read out of bounds), then builds the model
 * the JSON it came from gives (dbbin_read.c): the same poses. What it cannot represent (path
 * displays and constraints, shared meshes, isGlobal data, action frames out of order, weighted
 * deforms without the poses) fails with SINEW_E_UNSUPPORTED at a byte offset.
 */
struct sinew_data;
sinew_status sinew__dbbin_load(const void *buf, size_t len, const char *file, const sinew_load_options *opts,
                               struct sinew_data **out, sinew_error *err);

#endif
