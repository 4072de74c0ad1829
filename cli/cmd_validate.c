/* sinew validate FILE...: load each skeleton or atlas file and report every problem found. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rules.h"
#include "sinew/data.h"

const char sinew_cmd_validate_help[] = "check skeleton and atlas files; print file:line:col: error: ...";

static const cli_help help = {
    "sinew validate [--quiet] FILE...",
    "Loads each file (a DragonBones skeleton, a sinew XML rig, or a texture atlas JSON, told\n"
    "apart by content) and prints each problem as  file:line:col: error: message [json.path]\n"
    "Warnings (unknown keys, ignored values) use the same form with 'warning:'.\n",
    "  --quiet, -q       no 'FILE: ok' line for each valid file\n",
    "  sinew validate hero_ske.json hero_tex.json\n"
    "  sinew validate --quiet rigs/*.json\n",
    "validate exits 2 when some file is invalid, 3 when some file could not be read (3 wins).\n"};

typedef struct counter {
    const char *file;
    unsigned warnings;
} counter;

static void count_log(void *user, sinew_log_level level, const sinew_error *where) {
    counter *c = user;
    if (level == SINEW_LOG_WARNING)
        c->warnings++;
    cli_log((void *)c->file, level, where);
}

/* An atlas JSON has a top-level "SubTexture" list and no "armature" list. */
static bool looks_like_atlas(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, "\"SubTexture\"") && !strstr(buf, "\"armature\"");
}

int sinew_cmd_validate(int argc, char **argv) {
    bool quiet = false;
    int files = 0, worst = SINEW_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            cli_help_print(&help);
            return SINEW_EXIT_OK;
        }
        if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
            quiet = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("validate", "unknown option '%s'", argv[i]);
        else
            files++;
    }
    if (!files)
        return cli_usage_error("validate", "no FILE given");
    for (int i = 1; i < argc; i++) {
        const char *file = argv[i];
        if (file[0] == '-' && file[1])
            continue;
        counter cnt = {file, 0};
        sinew_load_options opts;
        memset(&opts, 0, sizeof opts);
        opts.log = count_log;
        opts.log_user = &cnt;
        sinew_error err;
        memset(&err, 0, sizeof err);
        sinew_status st;
        if (looks_like_atlas(file)) {
            sinew_atlas *atlas = NULL;
            st = sinew_atlas_load_file(file, &opts, &atlas, &err);
            sinew_atlas_destroy(atlas);
        } else {
            sinew_data *data = NULL;
            st = sinew_data_load_file(file, &opts, &data, &err);
            sinew_data_destroy(data);
        }
        if (st != SINEW_OK) {
            cli_print_error(file, &err);
            int code = cli_exit_code(st);
            if (code == SINEW_EXIT_IO || worst == SINEW_EXIT_OK)
                worst = code == SINEW_EXIT_IO ? SINEW_EXIT_IO : SINEW_EXIT_INPUT;
        } else if (!quiet) {
            if (cnt.warnings)
                printf("%s: ok (%u warning%s)\n", file, cnt.warnings, cnt.warnings == 1 ? "" : "s");
            else
                printf("%s: ok\n", file);
        }
    }
    return worst;
}
