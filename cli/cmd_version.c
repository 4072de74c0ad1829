#include <stdio.h>

#include "cli.h"

const char sinew_cmd_version_help[] = "print the version of sinew";

int sinew_cmd_version(int argc, char **argv) {
    (void)argv;
    if (argc > 1 && !cli_is_help(argv[1]))
        return cli_usage_error("version", "takes no arguments");
    printf("sinew %s\n", SINEW_VERSION_STRING);
    return SINEW_EXIT_OK;
}
