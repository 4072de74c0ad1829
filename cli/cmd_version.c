#include <stdio.h>

#include "cli.h"
#include "sinew/export.h"

const char sinew_cmd_version_help[] = "print the version of sinew";

int sinew_cmd_version(int argc, char **argv) {
    (void)argv;
    if (argc > 1 && !cli_is_help(argv[1]))
        return cli_usage_error("version", "takes no arguments");
    printf("sinew %s\n", SINEW_VERSION_STRING);
    printf("GIF palettes: %s\n", sinew_gif_quantizer());
    return SINEW_EXIT_OK;
}
