/* sinew convert: a skeleton (DragonBones JSON or binary, or a sinew XML rig) -> DragonBones 4.5 or
 * 5.5, or a DragonBones JSON file -> DragonBones binary (DBBin) or Spine 4.2. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "rules.h"
#include "sinew/convert.h"

const char sinew_cmd_convert_help[] = "convert a skeleton or XML rig to DragonBones 4.5 or 5.5, DBBin or Spine 4.2";

const cli_help sinew_cmd_convert_usage = {
    "sinew convert INPUT --to dragonbones [--format 4.5|5.5] --out DIR [--name NAME] [--quiet]\n"
    "       sinew convert INPUT --to dbbin [--dbbin-format 1|2] --out DIR [--name NAME] [--quiet]\n"
    "       sinew convert INPUT --to spine [--spine-version 4.2] [--armature NAME] [--atlas TEX] --out DIR\n"
    "                     [--name NAME] [--quiet]",
    "INPUT is a DragonBones JSON file (4.0, 4.5, 5.x), a DBBin file or a sinew XML rig (docs/xml.md).\n"
    "Writes DIR/NAME_ske.json (DragonBones 4.5, or 5.5 with --format 5.5; one armature per skin for\n"
    "XML rigs) and its atlas,\n"
    "DIR/NAME_tex.json with the page images (an XML rig's images packed into one page), so that\n"
    "the converted skeleton renders as it is. NAME is INPUT's file name (X_ske.json -> X) unless\n"
    "--name says otherwise.\n"
    "4.5 is what every DragonBones runtime reads; 5.5 keeps the input's timelines as they are (split\n"
    "bone channels, clockwise, timeline scale/offset, events with user data), so that the official\n"
    "5.x runtimes play it exactly as the input (docs/convert.md). Constructs the version written can\n"
    "only approximate are named in warnings on stderr. Files are written atomically and an input is\n"
    "never overwritten.\n"
    "--to dbbin writes DIR/NAME_ske.dbbin, the DragonBones binary the official runtime reads, from\n"
    "a DragonBones JSON file, and the atlas beside it; what the binary cannot carry is refused\n"
    "(docs/convert.md). Format 2 (14 array offsets) is what the DragonBones 5.6 exporter writes,\n"
    "format 1 (12) the 5.0-5.5 ones; the official runtime reads both.\n"
    "--to spine writes one armature of a DragonBones JSON file as DIR/NAME.json (Spine 4.2) and\n"
    "DIR/NAME.atlas, with the atlas pages copied into DIR; what Spine cannot express is named in a\n"
    "warning and left out, or baked into keys where Spine would move a bone otherwise\n"
    "(docs/convert.md).\n",
    "  --to FORMAT       dragonbones (JSON 4.5), dbbin (DragonBones binary) or spine (Spine 4.2)\n"
    "  --format 4.5|5.5  --to dragonbones: the DragonBones version written (default 4.5; --version\n"
    "                    is the same option)\n"
    "  --dbbin-format F  --to dbbin: the binary's layout, 1 or 2 (default 2)\n"
    "  --spine-version V the Spine version written (only 4.2)\n"
    "  --armature NAME   --to spine: the armature written (default: the main one, docs/cli.md)\n"
    "  --atlas TEX       the DragonBones atlas JSON taken along (default: found beside INPUT)\n"
    "  --out DIR         the output folder (created when missing; its parent must exist)\n"
    "  --name NAME       the output base name (default: INPUT's file name without _ske.json)\n"
    "  --quiet           no approximation warnings\n",
    "  sinew convert cat.xml --to dragonbones --out out/\n"
    "  sinew convert hero.json --to dragonbones --out converted --name hero45\n"
    "  sinew convert hero_ske.json --to dragonbones --format 5.5 --out v55/\n"
    "  sinew convert hero_ske.json --to dbbin --dbbin-format 1 --out bin/\n"
    "  sinew convert hero_ske.json --to spine --out spine/\n",
    NULL};

int sinew_cmd_convert(int argc, char **argv) {
    const char *input = NULL, *to = NULL, *version = NULL, *out = NULL, *name = NULL;
    const char *spine_version = NULL, *armature = NULL, *atlas = NULL, *dbbin_format = NULL;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            cli_help_print(&sinew_cmd_convert_usage);
            return SINEW_EXIT_OK;
        }
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--to") == 0 && has_value)
            to = argv[++i];
        else if ((strcmp(a, "--format") == 0 || strcmp(a, "--version") == 0) && has_value)
            version = argv[++i];
        else if (strcmp(a, "--out") == 0 && has_value)
            out = argv[++i];
        else if (strcmp(a, "--name") == 0 && has_value)
            name = argv[++i];
        else if (strcmp(a, "--dbbin-format") == 0 && has_value)
            dbbin_format = argv[++i];
        else if (strcmp(a, "--spine-version") == 0 && has_value)
            spine_version = argv[++i];
        else if (strcmp(a, "--armature") == 0 && has_value)
            armature = argv[++i];
        else if (strcmp(a, "--atlas") == 0 && has_value)
            atlas = argv[++i];
        else if (strcmp(a, "--quiet") == 0)
            quiet = true;
        else if (a[0] == '-' && a[1])
            return cli_unknown_option("convert", a);
        else if (!input)
            input = a;
        else
            return cli_usage_error("convert", "more than one input: %s", a);
    }
    if (!input)
        return cli_usage_error("convert", "missing INPUT");
    if (!to)
        return cli_usage_error("convert", "missing --to (dragonbones, dbbin or spine)");
    bool dbbin = strcmp(to, "dbbin") == 0, spine = strcmp(to, "spine") == 0;
    if (strcmp(to, "dragonbones") != 0 && !dbbin && !spine)
        return cli_usage_error("convert", "--to %s: only 'dragonbones', 'dbbin' and 'spine' are supported", to);
    if (!spine && (spine_version || armature))
        return cli_usage_error("convert", "--spine-version and --armature go with --to spine");
    if (dbbin_format && !dbbin)
        return cli_usage_error("convert", "--dbbin-format goes with --to dbbin");
    if (dbbin_format && strcmp(dbbin_format, "1") != 0 && strcmp(dbbin_format, "2") != 0)
        return cli_usage_error("convert", "--dbbin-format %s: 1 or 2", dbbin_format);
    if (spine_version && strcmp(spine_version, "4.2") != 0)
        return cli_usage_error("convert", "--spine-version %s: only 4.2 is written", spine_version);
    if (version && strcmp(to, "dragonbones") != 0)
        return cli_usage_error("convert", "--format goes with --to dragonbones (dbbin: --dbbin-format)");
    if (version && strcmp(version, "4.5") != 0 && strcmp(version, "5.5") != 0)
        return cli_usage_error("convert", "--format %s: 4.5 or 5.5", version);
    if (!out)
        return cli_usage_error("convert", "missing --out DIR");

    int rc;
    struct stat before;
    bool made_folder = stat(out, &before) != 0; /* a folder made here is removed when nothing is written */
    rc = cli_out_folder("convert", out);
    if (rc)
        return rc;
    sinew_load_options lo = {0};
    lo.log = quiet ? NULL : cli_log;
    lo.log_user = (void *)input;
    sinew_convert_options co = {0};
    co.load = &lo;
    co.log = quiet ? NULL : cli_log;
    co.log_user = (void *)input;
    co.name = name;
    co.dragonbones_version = version;
    co.armature = armature;
    co.atlas = atlas;
    co.spine_version = spine_version;
    co.dbbin_format = dbbin_format ? (unsigned)(dbbin_format[0] - '0') : 0;
    sinew_convert_result res;
    sinew_error err = {0};
    sinew_status st = spine   ? sinew_convert_spine(input, out, &co, &res, &err)
                      : dbbin ? sinew_convert_dbbin(input, out, &co, &res, &err)
                              : sinew_convert_dragonbones(input, out, &co, &res, &err);
    if (st != SINEW_OK) {
        cli_print_error(input, &err);
        if (made_folder)
            rmdir(out); /* only when empty: a refused conversion leaves nothing behind */
        /* the options were checked above: an argument error here is an output that may not be
         * written (an input in its place), an I/O refusal like the others */
        return st == SINEW_E_ARG ? SINEW_EXIT_IO : cli_exit_code(st);
    }
    printf("%s\n", res.skeleton_path);
    if (res.atlas_json_path[0])
        printf("%s\n", res.atlas_json_path);
    if (res.atlas_png_path[0])
        printf("%s\n", res.atlas_png_path);
    if (res.warning_count && !quiet)
        fprintf(stderr, "sinew convert: %u construct(s) %s (see the warnings above)\n", res.warning_count,
                spine ? "not carried or approximated" : "approximated");
    return SINEW_EXIT_OK;
}
