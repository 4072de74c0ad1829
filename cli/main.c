/* sinew: the command-line front end. Dispatches to the subcommands in cli/cmd_*.c. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sinew/atomic.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
    const cli_help *usage;
} command;

static const command commands[] = {
#define SINEW_CMD(fn, name) {name, sinew_cmd_##fn, sinew_cmd_##fn##_help, &sinew_cmd_##fn##_usage},
#include "commands.inc"
#undef SINEW_CMD
    {NULL, NULL, NULL, NULL}};

static void usage(FILE *out) {
    fprintf(out, "usage: sinew COMMAND [ARGS...]   (sinew COMMAND --help for details)\n\ncommands:\n");
    for (const command *c = commands; c->name; c++)
        fprintf(out, "  %-14s %s\n", c->name, c->help);
    fprintf(out, "\nexit codes: 0 ok, 1 usage, 2 bad input, 3 I/O, 4 internal\n");
}

/* SIGINT, SIGTERM, SIGHUP: sinew's temporary files are removed, then the signal's default action
 * ends the process, so the exit status still says which signal it was (async-signal-safe:
 * sinew_atomic_cleanup, signal and raise are). */
static void on_stop_signal(int sig) {
    sinew_atomic_cleanup();
    signal(sig, SIG_DFL);
    raise(sig); /* blocked in the handler: delivered, with the default action, when it returns */
}

static void clean_up_on_stop_signals(void) {
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 3; i++) sigaddset(&sa.sa_mask, sigs[i]); /* one handler at a time */
    for (size_t i = 0; i < 3; i++) {
        struct sigaction old;
        /* an ignored signal stays ignored (nohup, a background job of a non-interactive shell) */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return SINEW_EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return SINEW_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("sinew %s\n", SINEW_VERSION_STRING);
        return SINEW_EXIT_OK;
    }
    const char *names[64];
    size_t count = 0;
    for (const command *c = commands; c->name; c++) {
        if (count < 64) names[count++] = c->name;
        if (strcmp(c->name, argv[1]) != 0) continue;
        int n;
        char **args;
        int rc = cli_prepare_args(c->name, c->usage, argc - 1, argv + 1, &n, &args);
        if (rc) return rc;
        /* view leaves SIGINT and SIGTERM to SDL, which makes them a quit event (a window writes
         * nothing; --screenshot writes one PNG at its end) */
        if (strcmp(c->name, "view") != 0) clean_up_on_stop_signals();
        rc = c->run(n, args);
        free(args);
        cli_warnings_free();
        return rc;
    }
    const char *near = cli_suggest(argv[1], names, count);
    if (near)
        fprintf(stderr, "sinew: unknown command '%s' (did you mean '%s'?)\n", argv[1], near);
    else
        fprintf(stderr, "sinew: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return SINEW_EXIT_USAGE;
}
