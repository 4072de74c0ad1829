#include <stdio.h>

#include "cli.h"
#include "rules.h"
#include "sinew/export.h"

const char sinew_cmd_version_help[] = "print the version of sinew";

const cli_help sinew_cmd_version_usage = {
    "sinew version   (or sinew --version)",
    "Prints sinew's version and the GIF quantizer this build uses, with its licence\n"
    "(docs/licensing.md).\n",
    NULL, "  sinew version\n  sinew --version\n", NULL};

int sinew_cmd_version(int argc, char **argv) {
    if (argc > 1 && cli_is_help(argv[1])) {
        cli_help_print(&sinew_cmd_version_usage);
        return SINEW_EXIT_OK;
    }
    if (argc > 1)
        return cli_usage_error("version", "takes no arguments");
    printf("sinew %s\n", SINEW_VERSION_STRING);
    printf("GIF palettes: %s\n", sinew_gif_quantizer());
    return SINEW_EXIT_OK;
}
