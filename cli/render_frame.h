/* One frame of `sinew render`, handed to a caller instead of a file: `sinew view --screenshot`
 * draws it through the GL backend, so the same command line gives the same picture as
 * `sinew render` (the same options, framing, sampling and frame). */
#ifndef SINEW_CLI_RENDER_FRAME_H
#define SINEW_CLI_RENDER_FRAME_H

#include "rig_inputs.h"
#include "sinew/drawlist.h"
#include "sinew/render.h"

/* Called once with the frame's draw list, its framing and the background; returns an exit code. */
typedef int (*cli_frame_fn)(void *user, const cli_rig *rig, const sinew_drawlist *dl, const sinew_framing *fr,
                            sinew_rgba8 background);

/* Parses ARGV as `sinew render` does (the output must be a single .png; argv[0] names the command
 * in messages), chooses, frames and steps exactly as render does, and calls FN with frame
 * --frame K (default 0) instead of writing it. Returns render's exit code, or FN's. */
int cli_render_frame(int argc, char **argv, cli_frame_fn fn, void *user);

#endif
