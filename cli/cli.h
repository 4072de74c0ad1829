/* Shared CLI conventions. Each subcommand lives in cli/cmd_NAME.c and defines
 *     int sinew_cmd_NAME(int argc, char **argv);       argv[0] is the command name
 *     extern const char sinew_cmd_NAME_help[];          one line for `sinew --help`
 * The build generates the dispatch table from the file names (NAME "a_b" is command "a-b"). */
#ifndef SINEW_CLI_H
#define SINEW_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "sinew/base.h"

/* Prototypes of every subcommand (the table is generated from cli/cmd_*.c file names). */
#define SINEW_CMD(fn, name)                    \
    int sinew_cmd_##fn(int argc, char **argv); \
    extern const char sinew_cmd_##fn##_help[];
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

/* Prints `file:line:col: error: message [path]` (parts that are unknown are left out) to stderr.
 * `fallback_file` names the file when err->file is NULL. */
void cli_print_error(const char *fallback_file, const sinew_error *err);
/* The same for a warning. */
void cli_print_warning(const char *fallback_file, const sinew_error *err);
/* A sinew_log_fn that prints warnings and errors in that form; `user` is the file name. */
void cli_log(void *user, sinew_log_level level, const sinew_error *where);

/* Maps a status to an exit code: IO -> 3, NOMEM -> 4, ARG -> 1, everything else -> 2. */
int cli_exit_code(sinew_status st);

/* Prints `sinew NAME: message` for usage errors and returns SINEW_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* True if argv[i] is -h or --help. */
bool cli_is_help(const char *arg);

#endif
