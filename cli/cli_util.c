#include "cli.h"

#include <stdarg.h>
#include <string.h>

static void print_diag(const char *kind, const char *fallback_file, const sinew_error *err) {
    const char *file = err->file ? err->file : fallback_file;
    if (file)
        fputs(file, stderr);
    if (file && err->line)
        fprintf(stderr, ":%u:%u", err->line, err->column);
    fprintf(stderr, "%s%s: %s", file ? ": " : "", kind, err->message[0] ? err->message : sinew_status_str(err->code));
    if (err->path[0])
        fprintf(stderr, " [%s]", err->path);
    fputc('\n', stderr);
}

void cli_print_error(const char *fallback_file, const sinew_error *err) {
    print_diag("error", fallback_file, err);
}

void cli_print_warning(const char *fallback_file, const sinew_error *err) {
    print_diag("warning", fallback_file, err);
}

void cli_log(void *user, sinew_log_level level, const sinew_error *where) {
    if (level == SINEW_LOG_INFO)
        return;
    print_diag(level == SINEW_LOG_ERROR ? "error" : "warning", (const char *)user, where);
}

int cli_exit_code(sinew_status st) {
    switch (st) {
    case SINEW_OK: return SINEW_EXIT_OK;
    case SINEW_E_ARG: return SINEW_EXIT_USAGE;
    case SINEW_E_IO: return SINEW_EXIT_IO;
    case SINEW_E_NOMEM: return SINEW_EXIT_INTERNAL;
    default: return SINEW_EXIT_INPUT;
    }
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "sinew %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(try 'sinew %s --help')\n", cmd);
    return SINEW_EXIT_USAGE;
}

bool cli_is_help(const char *arg) {
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
