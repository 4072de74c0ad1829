#include <stdio.h>

#include "cli.h"
#include "sinew/export.h"

const char sinew_cmd_version_help[] = "print the version of sinew";

int sinew_cmd_version(int argc, char **argv) {
    if (argc > 1 && cli_is_help(argv[1])) {
        fputs("usage: sinew version   (or sinew --version)\n"
              "Prints sinew's version and the GIF quantizer this build uses, with its licence\n"
              "(docs/licensing.md).\n"
              "exit codes: 0 ok, 1 usage\n",
              stdout);
        return SINEW_EXIT_OK;
    }
    if (argc > 1)
        return cli_usage_error("version", "takes no arguments");
    printf("sinew %s\n", SINEW_VERSION_STRING);
    printf("GIF palettes: %s\n", sinew_gif_quantizer());
    return SINEW_EXIT_OK;
}
