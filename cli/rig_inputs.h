/* Loading what the drawing commands (render, bench-render) need: the rig, its texture atlas
 * (given or found next to the rig) and the atlas's texture pages, with the same checks and
 * messages everywhere. */
#ifndef SINEW_CLI_RIG_INPUTS_H
#define SINEW_CLI_RIG_INPUTS_H

#include "sinew/data.h"
#include "sinew/render.h"

#define CLI_MAX_PAGES 64

typedef struct cli_rig {
    sinew_data *data;
    sinew_atlas *atlas;
    sinew_texture_set *textures;
    char atlas_path[4096];
    uint32_t page_count;
    const char *page_paths[CLI_MAX_PAGES]; /* resolved image paths (owned by atlas) */
} cli_rig;

/* Loads FILE, its atlas (`atlas` or, when NULL, the one found next to FILE) and the texture pages.
 * Prints `file: error: ...` on failure and returns the exit code (2 bad input, 4 out of memory);
 * 0 on success. cli_rig_free releases whatever was loaded, in either case. */
int cli_rig_load(cli_rig *r, const char *file, const char *atlas);
void cli_rig_free(cli_rig *r);

/* Prints a library error and returns the exit code for an input problem (2, or 4 for NOMEM). */
int cli_input_error(const char *file, const sinew_error *err);

/* The one wording of a missing page image, in every command (exit 2, bad input):
 *   ATLAS: error: texture page 'NAME' not found (looked for PATH) [imagePath] */
void cli_page_missing_message(char *buf, size_t size, const char *image_path, const char *resolved);
/* Loads the atlas ATLAS_PATH and checks that its page images exist: prints the error above (or
 * the atlas's load error) and returns its exit code; 0 when all are there. */
int cli_check_pages(const char *atlas_path);

#endif
