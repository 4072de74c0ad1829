/* sinew: the command-line front end. Dispatches to the subcommands in cli/cmd_*.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
