/* The rules every subcommand follows, written once (docs/cli.md "Rules every command follows"):
 * - numeric options: one bound per option name, whatever the command (cli_number);
 * - which armature and animation a command works on when the user does not say (cli_pick,
 *   cli_default_armature), and the wording of "unknown name" errors (cli_unknown_animation);
 * - output folders: `--out DIR` creates a missing folder, and a path that is not a folder is an
 *   error saying so (cli_out_folder);
 * - --help: synopsis, description, options, examples and the exit codes (cli_help_print). */
#ifndef SINEW_CLI_RULES_H
#define SINEW_CLI_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "sinew/data.h"

/* ---- numbers ----------------------------------------------------------------------------------- */

/* Parses the value of numeric option `opt` (e.g. "--fps") against its bound in the table of
 * cli/rules.c. On a bad value prints the usage error, naming the bound, and returns
 * SINEW_EXIT_USAGE; 0 on success. */
int cli_number(const char *cmd, const char *opt, const char *text, double *out);
/* The same for whole-number options (stored in a long). */
int cli_whole(const char *cmd, const char *opt, const char *text, long *out);
/* `--size WxH` / `--max-size WxH`: two whole numbers from 1 to SINEW_MAX_IMAGE_SIDE (16384). */
int cli_size(const char *cmd, const char *opt, const char *text, uint32_t *w, uint32_t *h);
/* The bound of `opt`, as printed in errors and help: "(0, 1000]", "1..10000". NULL if the option
 * has no entry (a programming error the test suite catches). */
const char *cli_bound_text(const char *opt);

/* ---- armature and animation -------------------------------------------------------------------- */

/* The armature a command uses when --armature is not given: the main one
 * (sinew_data_default_armature: the file's `stage`, else the largest armature no other uses as a
 * child) when it has `animation` (or none is asked), else the first armature that has it.
 * SINEW_INVALID_INDEX if the file has no armature, or when no armature has the animation
 * (cli_unknown_animation reports it). */
uint32_t cli_default_armature(const sinew_data *data, const char *animation);

/* On a terminal, when the file has several armatures: which one was chosen, on stderr. */
void cli_note_armature(const sinew_data *data, const char *file, uint32_t armature);

/* Prints the one "unknown animation" error and returns SINEW_EXIT_INPUT:
 *   FILE: error: armature 'A' has no animation named 'X' (animations: 'a', 'b')
 * or, with armature SINEW_INVALID_INDEX (no --armature, and no armature has it):
 *   FILE: error: no armature has an animation named 'X' (armature 'A': 'a', 'b'; armature 'B': 'c') */
int cli_unknown_animation(const sinew_data *data, const char *file, uint32_t armature, const char *animation);

/* One armature and one animation, chosen by the rules above. */
typedef struct cli_choice {
    uint32_t armature;
    const char *skin_overlay;   /* sinew_instance_options.skin (owned by the data) */
    sinew_armature_info arm;
    uint32_t animation;         /* SINEW_INVALID_INDEX when the armature has none and none was asked */
    sinew_animation_info anim;
} cli_choice;

/* Chooses for `--armature armature --skin skin --animation animation` (each may be NULL): the
 * armature given, else cli_default_armature (noted on a terminal); the skin as
 * sinew_data_resolve_skin resolves it; the animation given, else the armature's default one (its
 * defaultActions, else its first). `need_animation`: an armature without animations is an error.
 * Prints the error and returns its exit code; 0 on success. */
int cli_pick(const sinew_data *data, const char *file, const char *armature, const char *skin, const char *animation,
             bool need_animation, cli_choice *out);

/* ---- files ------------------------------------------------------------------------------------------ */

/* `--out DIR` for commands that write into a folder: creates DIR when it is missing (its parent
 * must exist), fails when DIR exists and is not a folder. Prints the error; returns 0 or
 * SINEW_EXIT_IO. */
int cli_out_folder(const char *cmd, const char *dir);

/* ---- help ------------------------------------------------------------------------------------------- */

typedef struct cli_help {
    const char *synopsis;   /* "sinew render FILE --out OUT [options]", lines after the first indented */
    const char *about;      /* what it does */
    const char *options;    /* "  --atlas TEX   ...\n" lines; NULL when the command has none */
    const char *examples;   /* command lines, one per line */
    const char *exit_note;  /* what this command adds to the common exit codes, or NULL */
} cli_help;

/* Prints the help to stdout: usage, about, options, examples, exit codes (the common ones, the
 * same text for every command). */
void cli_help_print(const cli_help *h);

/* For a command that takes one FILE among its options (render, bench-render), argument `a`:
 * -h/--help prints h (*rc = -1); an argument that is not an option ("-" alone is one) is the
 * file (*rc = 0), and a second such argument a usage error (*rc = its exit code). False, with *rc
 * untouched, when `a` is an option to read on. */
bool cli_help_or_file(const char *cmd, const cli_help *h, const char *a, const char **file, int *rc);

#endif
