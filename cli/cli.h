/* Shared CLI conventions. Each subcommand lives in cli/cmd_NAME.c and defines
 *     int sinew_cmd_NAME(int argc, char **argv);       argv[0] is the command name
 *     extern const char sinew_cmd_NAME_help[];          one line for `sinew --help`
 * The build generates the dispatch table from the file names (NAME "a_b" is command "a-b"). */
#ifndef SINEW_CLI_H
#define SINEW_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "sinew/base.h"

typedef struct cli_help cli_help; /* rules.h */

/* Prototypes of every subcommand (the table is generated from cli/cmd_*.c file names); each also
 * defines its --help text, sinew_cmd_NAME_usage (main.c reads its options: --opt=value, "did you
 * mean"). */
#define SINEW_CMD(fn, name)                    \
    int sinew_cmd_##fn(int argc, char **argv); \
    extern const char sinew_cmd_##fn##_help[]; \
    extern const cli_help sinew_cmd_##fn##_usage;
#include "commands.inc"
#undef SINEW_CMD

/* Stable exit codes (docs/cli.md). */
enum {
    SINEW_EXIT_OK = 0,
    SINEW_EXIT_USAGE = 1,
    SINEW_EXIT_INPUT = 2,
    SINEW_EXIT_IO = 3,
    SINEW_EXIT_INTERNAL = 4
};

/* Prints `file:line:col: error: message [path]` (parts that are unknown are left out) to stderr,
 * after the warnings still held back. `fallback_file` names the file when err->file is NULL. */
void cli_print_error(const char *fallback_file, const sinew_error *err);
/* The same for a warning, as the warning mode says (docs/cli.md "Diagnostics"): by default held
 * back and collapsed by kind (one line per kind at the next cli_warnings_flush: the first, and how
 * many more), every one at once with --verbose, none with --quiet. A line already printed is not
 * printed again. */
void cli_print_warning(const char *fallback_file, const sinew_error *err);
/* A sinew_log_fn that prints warnings and errors in that form; `user` is the file name. */
void cli_log(void *user, sinew_log_level level, const sinew_error *where);

typedef enum cli_warn_mode { CLI_WARN_COLLAPSE = 0, CLI_WARN_VERBOSE, CLI_WARN_QUIET } cli_warn_mode;
void cli_set_warnings(cli_warn_mode mode);
cli_warn_mode cli_warnings(void);
/* Prints the warnings held back, one line per kind. main() calls it when a command ends; errors
 * and usage errors call it first; long-running commands call it when a step is done. */
void cli_warnings_flush(void);
/* Flushes and frees what the warning log holds (at exit). */
void cli_warnings_free(void);

/* What every command's arguments go through before the command sees them (main.c, and `input`
 * for its subcommands): `--opt=value` becomes `--opt value` for an option of `h` that takes a
 * value (and is an error for one that does not); `--verbose` and `--quiet`/`-q` set the warning
 * mode (--quiet is passed on to a command whose help lists it). The new argv is malloc'd (free it);
 * its strings are argv's. Returns 0 or the exit code of a usage error it printed. */
int cli_prepare_args(const char *cmd, const cli_help *h, int argc, char **argv, int *out_argc, char ***out_argv);
/* "unknown option 'X'" with "did you mean 'Y'?" from the options of the current command's help;
 * returns SINEW_EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *arg);
/* The name of `names` nearest to `word` (a small edit distance, or a prefix), or NULL. */
const char *cli_suggest(const char *word, const char *const *names, size_t count);

/* Maps a status to an exit code: IO -> 3, NOMEM -> 4, ARG -> 1, everything else -> 2. */
int cli_exit_code(sinew_status st);

/* Prints `sinew NAME: message` for usage errors and returns SINEW_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* True if argv[i] is -h or --help. */
bool cli_is_help(const char *arg);

#endif
