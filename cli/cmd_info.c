/* sinew info FILE [--atlas TEX] [--json] [--time]: a summary of a skeleton file (and its atlas). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "cli.h"
#include "rules.h"
#include "sinew/data.h"

const char sinew_cmd_info_help[] = "summarise a skeleton file: armatures, bones, slots, skins, animations";

static const char *plural(uint32_t n) { return n == 1 ? "" : "s"; }

const cli_help sinew_cmd_info_usage = {
    "sinew info FILE [--atlas TEX] [--json] [--time]",
    "Loads a DragonBones skeleton (JSON 4.0, 4.5, 5.0-5.6) or a sinew XML rig and prints a\n"
    "summary: armatures, bones, slots, skins, IK, meshes, animations, and the atlas pages. The\n"
    "atlas is found next to the skeleton (X_ske.json -> X_tex.json, texture.json,\n"
    "*_texture_*.json) unless --atlas names one.\n",
    "  --atlas TEX       the texture atlas JSON\n"
    "  --json            machine-readable output:\n"
    "                    {\"format\",\"version\",\"name\",\"frameRate\",\"armatures\":[{\"name\",\"type\",\n"
    "                    \"frameRate\",\"bones\",\"surfaces\",\"pathConstraints\",\"slots\",\"skins\":[names],\"defaultActions\":\n"
    "                    [{\"type\",\"name\"}],\"userData\":(as in the file, or null),\n"
    "                    \"canvas\":{\"x\",\"y\",\"width\",\"height\"[,\"color\"]} or null,\"ik\",\"meshes\",\n"
    "                    \"animations\":[{\"name\",\"frames\",\"duration\",\"playTimes\"}]}]}\n"
    "                    (frames in frames, duration in seconds)\n"
    "  --time            also load the file 21 times and print the load time (parse + build)\n"
    "                    to stderr\n",
    "  sinew info hero_ske.json\n"
    "  sinew info hero_ske.json --json\n"
    "  sinew info pip.xml --time\n",
    NULL};

static void json_string(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        default:
            if (*p < 0x20)
                printf("\\u%04x", *p);
            else
                putchar(*p);
        }
    }
    putchar('"');
}

static void json_number(double v) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.9g", v);
    fputs(buf, stdout);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_json(const sinew_data *data) {
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    printf("{\"format\":");
    json_string(di.format);
    printf(",\"version\":");
    json_string(di.version);
    printf(",\"name\":");
    json_string(di.name);
    printf(",\"frameRate\":");
    json_number(di.frame_rate);
    printf(",\"plays\":\"%s\",\"armatures\":[", di.v6 ? "6.0" : "5.x");
    for (uint32_t a = 0; a < di.armature_count; a++) {
        sinew_armature_info ai;
        sinew_data_get_armature_info(data, a, &ai);
        printf("%s{\"name\":", a ? "," : "");
        json_string(ai.name);
        printf(",\"type\":");
        json_string(ai.type);
        printf(",\"frameRate\":");
        json_number(ai.frame_rate);
        printf(",\"bones\":%u,\"surfaces\":%u,\"pathConstraints\":%u,\"slots\":%u,\"skins\":[", ai.bone_count,
               ai.surface_count, ai.path_constraint_count, ai.slot_count);
        for (uint32_t s = 0; s < ai.skin_count; s++) {
            sinew_skin_info si;
            sinew_data_get_skin_info(data, a, s, &si);
            if (s)
                putchar(',');
            json_string(si.name);
        }
        printf("],\"defaultActions\":[");
        for (uint32_t k = 0; k < sinew_data_default_action_count(data, a); k++) {
            sinew_action_info act;
            sinew_data_default_action(data, a, k, &act);
            printf("%s{\"type\":", k ? "," : "");
            json_string(act.type);
            printf(",\"name\":");
            json_string(act.name);
            putchar('}');
        }
        /* the armature's userData as it is in the file, and the editor's canvas */
        printf("],\"userData\":%s,\"canvas\":", ai.user_data ? ai.user_data : "null");
        if (ai.has_canvas) {
            printf("{\"x\":");
            json_number(ai.canvas_x);
            printf(",\"y\":");
            json_number(ai.canvas_y);
            printf(",\"width\":");
            json_number(ai.canvas_width);
            printf(",\"height\":");
            json_number(ai.canvas_height);
            if (ai.canvas_background)
                printf(",\"color\":%u", ai.canvas_color);
            putchar('}');
        } else {
            printf("null");
        }
        /* "ik" counts the constraints the file declares, dropped ones included (see docs/cli.md) */
        printf(",\"ik\":%u,\"meshes\":%u,", ai.ik_count + ai.ignored_ik_count, ai.mesh_count);
        /* 6.0: constraints as kept (dropped ones under "ignoredConstraints"), shapes and masks */
        printf("\"transformConstraints\":%u,\"physicsConstraints\":%u,\"ignoredConstraints\":%u,\"shapes\":%u,"
               "\"masks\":%u,\"animations\":[",
               ai.transform_constraint_count, ai.physics_count, ai.ignored_constraint_count, ai.shape_count,
               ai.mask_count);
        for (uint32_t n = 0; n < ai.animation_count; n++) {
            sinew_animation_info ni;
            sinew_data_get_animation_info(data, a, n, &ni);
            printf("%s{\"name\":", n ? "," : "");
            json_string(ni.name);
            printf(",\"frames\":");
            json_number(ni.frames);
            printf(",\"duration\":");
            json_number(ni.duration_s);
            printf(",\"playTimes\":%d}", ni.play_times);
        }
        printf("]}");
    }
    printf("]}\n");
}

static void print_text(const char *file, const sinew_data *data, const char *atlas_path, const sinew_atlas *atlas) {
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    if (strcmp(di.format, "xml") == 0)
        printf("%s: XML rig", file);
    else
        printf("%s: DragonBones %s", file, di.version);
    if (di.compatible_version)
        printf(" (compatible %s)", di.compatible_version);
    printf(", name \"%s\", %g fps, %u armature%s%s\n", di.name, (double)di.frame_rate, di.armature_count,
           di.armature_count == 1 ? "" : "s", di.is_global ? ", isGlobal (converted to local)" : "");
    if (atlas) {
        sinew_atlas_info ai;
        sinew_atlas_page_info pi;
        memset(&pi, 0, sizeof pi);
        sinew_atlas_get_info(atlas, &ai);
        if (sinew_atlas_get_page_info(atlas, 0, &pi) != SINEW_OK) /* an atlas without a page */
            pi.image_path = "(none)";
        printf("atlas: %s: %u region%s, page %s", atlas_path, ai.region_count, ai.region_count == 1 ? "" : "s",
               pi.image_path ? pi.image_path : "(none)");
        if (pi.width && pi.height)
            printf(" %ux%u", pi.width, pi.height);
        if (pi.scale != 1.0f && pi.scale != 0.0f)
            printf(" scale %g", (double)pi.scale);
        if (pi.resolved_path && access(pi.resolved_path, R_OK) != 0)
            printf(" (the image is missing: %s)", pi.resolved_path);
        printf("\n");
    } else {
        printf("atlas: none found\n");
    }
    for (uint32_t a = 0; a < di.armature_count; a++) {
        sinew_armature_info ai;
        sinew_data_get_armature_info(data, a, &ai);
        printf("armature \"%s\" (%s, %g fps): %u bone%s, %u slot%s, %u IK", ai.name, ai.type, (double)ai.frame_rate,
               ai.bone_count, plural(ai.bone_count), ai.slot_count, plural(ai.slot_count),
               ai.ik_count + ai.ignored_ik_count);
        if (ai.ignored_ik_count)
            printf(" (%u ignored)", ai.ignored_ik_count);
        if (ai.surface_count)
            printf(", %u surface%s", ai.surface_count, plural(ai.surface_count));
        if (ai.path_constraint_count)
            printf(", %u path constraint%s", ai.path_constraint_count, plural(ai.path_constraint_count));
        if (ai.transform_constraint_count)
            printf(", %u transform constraint%s", ai.transform_constraint_count, plural(ai.transform_constraint_count));
        if (ai.physics_count)
            printf(", %u physics constraint%s", ai.physics_count, plural(ai.physics_count));
        if (ai.ignored_constraint_count)
            printf(" (%u constraint%s ignored)", ai.ignored_constraint_count, plural(ai.ignored_constraint_count));
        printf(", %u mesh%s", ai.mesh_count, ai.mesh_count == 1 ? "" : "es");
        if (ai.shape_count)
            printf(", %u shape%s", ai.shape_count, plural(ai.shape_count));
        if (ai.mask_count)
            printf(", %u mask%s", ai.mask_count, plural(ai.mask_count));
        printf(", %u display%s\n", ai.display_count, plural(ai.display_count));
        printf("  skins:");
        for (uint32_t s = 0; s < ai.skin_count; s++) {
            sinew_skin_info si;
            sinew_data_get_skin_info(data, a, s, &si);
            printf(" \"%s\" (%u slot%s)", si.name, si.slot_count, plural(si.slot_count));
        }
        printf("%s\n", ai.skin_count ? "" : " none");
        uint32_t nact = sinew_data_default_action_count(data, a);
        if (nact) {
            printf("  default actions:");
            for (uint32_t k = 0; k < nact; k++) {
                sinew_action_info act;
                sinew_data_default_action(data, a, k, &act);
                printf(" %s \"%s\"", act.type, act.name);
            }
            printf("\n");
        }
        if (ai.has_canvas) {
            printf("  canvas: %g x %g at (%g, %g)", (double)ai.canvas_width, (double)ai.canvas_height,
                   (double)ai.canvas_x, (double)ai.canvas_y);
            if (ai.canvas_background)
                printf(", background #%06x", ai.canvas_color);
            printf("\n");
        }
        if (ai.user_data)
            printf("  userData: %s\n", ai.user_data);
        for (uint32_t n = 0; n < ai.animation_count; n++) {
            sinew_animation_info ni;
            sinew_data_get_animation_info(data, a, n, &ni);
            printf("  animation \"%s\": %g frame%s (%.3f s), ", ni.name, (double)ni.frames, ni.frames == 1.0f ? "" : "s",
                   (double)ni.duration_s);
            if (ni.play_times == 0)
                printf("loops forever");
            else
                printf("plays %d time%s", ni.play_times, ni.play_times == 1 ? "" : "s");
            printf("%s\n", n == ai.default_animation ? " [default]" : "");
        }
    }
}

int sinew_cmd_info(int argc, char **argv) {
    const char *file = NULL, *atlas_arg = NULL;
    bool json = false, timing = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            cli_help_print(&sinew_cmd_info_usage);
            return SINEW_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--time") == 0) {
            timing = true;
        } else if (strcmp(argv[i], "--atlas") == 0) {
            if (++i >= argc)
                return cli_usage_error("info", "--atlas needs a file");
            atlas_arg = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_unknown_option("info", argv[i]);
        } else if (file) {
            return cli_usage_error("info", "takes one FILE");
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return cli_usage_error("info", "no FILE given");

    sinew_load_options opts;
    memset(&opts, 0, sizeof opts);
    opts.log = cli_log;
    opts.log_user = (void *)file;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_data *data = NULL;
    double t0 = now_ms();
    sinew_status st = sinew_data_load_file(file, &opts, &data, &err);
    double first_ms = now_ms() - t0;
    if (st != SINEW_OK) {
        cli_print_error(file, &err);
        return cli_exit_code(st);
    }
    if (timing) {
        enum { RUNS = 20 };
        double t[RUNS];
        sinew_load_options quiet;
        memset(&quiet, 0, sizeof quiet);
        for (int r = 0; r < RUNS; r++) {
            sinew_data *d2 = NULL;
            double s = now_ms();
            sinew_data_load_file(file, &quiet, &d2, NULL);
            t[r] = now_ms() - s;
            sinew_data_destroy(d2);
        }
        qsort(t, RUNS, sizeof t[0], cmp_double);
        fprintf(stderr, "%s: load (read + parse + build + prepare): first %.3f ms, min %.3f ms, median %.3f ms over %d runs\n",
                file, first_ms, t[0], (t[RUNS / 2 - 1] + t[RUNS / 2]) / 2, RUNS);
    }

    char found[4096];
    const char *atlas_path = atlas_arg;
    if (!atlas_path && sinew_atlas_find_for(file, found, sizeof found) == SINEW_OK)
        atlas_path = found;
    sinew_atlas *atlas = NULL;
    if (atlas_path) {
        sinew_error aerr;
        memset(&aerr, 0, sizeof aerr);
        opts.log_user = (void *)atlas_path;
        st = sinew_atlas_load_file(atlas_path, &opts, &atlas, &aerr);
        if (st != SINEW_OK) {
            cli_print_error(atlas_path, &aerr);
            sinew_data_destroy(data);
            return cli_exit_code(st);
        }
    }
    if (json)
        print_json(data);
    else
        print_text(file, data, atlas_path, atlas);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return SINEW_EXIT_OK;
}
