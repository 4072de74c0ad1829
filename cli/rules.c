#include "rules.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sinew/instance.h"
#include "sinew/render.h"

/* ---- numbers ----------------------------------------------------------------------------------- */

/* One bound per option name, whatever the command. `open_lo`: the lower bound itself is refused. */
typedef struct bound {
    const char *opt;
    double lo, hi;
    bool open_lo, whole;
    const char *text;
} bound;

static const bound bounds[] = {
    {"--fps", 0, 1000, true, false, "a number in (0, 1000]"},
    {"--cache-fps", 0, 1000, true, false, "a number in (0, 1000]"},
    {"--hz", 0, 1000, true, false, "a number in (0, 1000]"},
    {"--resample", 0, 1000, true, false, "a number in (0, 1000]"},
    {"--seconds", 0, 3600, true, false, "a number in (0, 3600]"},
    {"--scale", 0, 100, true, false, "a number in (0, 100]"},
    {"--padding", 0, 4096, false, false, "a number from 0 to 4096"},
    {"--frames", 1, 100000, false, true, "a whole number from 1 to 100000"},
    {"--frame", 0, 99999, false, true, "a whole number from 0 to 99999"},
    {"--loops", 1, 10000, false, true, "a whole number from 1 to 10000"},
    {"--instances", 1, 1000000, false, true, "a whole number from 1 to 1000000"},
    {"--ticks", 1, 100000000, false, true, "a whole number from 1 to 100000000"},
    {"--runs", 1, 1000, false, true, "a whole number from 1 to 1000"},
    {"--threads", 0, 64, false, true, "a whole number from 0 to 64"},
    {"--precision", 1, 17, false, true, "a whole number from 1 to 17"},
    {"--max-states", 1, 1024, false, true, "a whole number from 1 to 1024"},
    {"--quality", 0, 100, false, true, "a whole number from 0 to 100"},
    {"--sheet-padding", 0, 1024, false, true, "a whole number from 0 to 1024"},
    {"--extrude", 0, 1024, false, true, "a whole number from 0 to 1024"},
    {"--fade", 0, 10, false, false, "a number of seconds from 0 to 10"},
    {"--quit-after", 0, 86400, true, false, "a number of seconds in (0, 86400]"},
    {"--time", -1e9, 1e9, false, false, "a number of seconds"},
    {"--shift", -1e9, 1e9, false, false, "a number of seconds"},
};

static const bound *find_bound(const char *opt) {
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (strcmp(bounds[i].opt, opt) == 0)
            return &bounds[i];
    return NULL;
}

const char *cli_bound_text(const char *opt) {
    const bound *b = find_bound(opt);
    return b ? b->text : NULL;
}

static bool in_bound(const bound *b, double v) {
    if (!isfinite(v) || v > b->hi || v < b->lo || (b->open_lo && v == b->lo))
        return false;
    return !b->whole || v == floor(v);
}

int cli_number(const char *cmd, const char *opt, const char *text, double *out) {
    const bound *b = find_bound(opt);
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (!b || errno || end == text || *end || !in_bound(b, v))
        return cli_usage_error(cmd, "%s wants %s, not '%s'", opt, b ? b->text : "a number", text);
    *out = v;
    return 0;
}

int cli_whole(const char *cmd, const char *opt, const char *text, long *out) {
    const bound *b = find_bound(opt);
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!b || errno || end == text || *end || !in_bound(b, (double)v))
        return cli_usage_error(cmd, "%s wants %s, not '%s'", opt, b ? b->text : "a whole number", text);
    *out = v;
    return 0;
}

int cli_size(const char *cmd, const char *opt, const char *text, uint32_t *w, uint32_t *h) {
    const char *p = text;
    unsigned long v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        char *end = NULL;
        errno = 0;
        if (*p < '0' || *p > '9')
            break;
        v[k] = strtoul(p, &end, 10);
        if (errno || v[k] == 0 || v[k] > SINEW_MAX_IMAGE_SIDE) {
            v[k] = 0;
            break;
        }
        p = end;
        if (k == 0) {
            if (*p != 'x' && *p != 'X') {
                v[0] = 0;
                break;
            }
            p++;
        }
    }
    if (!v[0] || !v[1] || *p)
        return cli_usage_error(cmd, "%s wants WxH, each a whole number from 1 to %u, not '%s'", opt,
                               SINEW_MAX_IMAGE_SIDE, text);
    *w = (uint32_t)v[0];
    *h = (uint32_t)v[1];
    return 0;
}

/* ---- armature and animation -------------------------------------------------------------------- */

uint32_t cli_default_armature(const sinew_data *data, const char *animation) {
    uint32_t main_armature = sinew_data_default_armature(data);
    if (main_armature == SINEW_INVALID_INDEX || !animation ||
        sinew_data_find_animation(data, main_armature, animation) != SINEW_INVALID_INDEX)
        return main_armature;
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    for (uint32_t a = 0; a < di.armature_count; a++)
        if (sinew_data_find_animation(data, a, animation) != SINEW_INVALID_INDEX)
            return a;
    return SINEW_INVALID_INDEX;
}

void cli_note_armature(const sinew_data *data, const char *file, uint32_t armature) {
    sinew_data_info di;
    sinew_armature_info ai;
    sinew_data_get_info(data, &di);
    if (di.armature_count < 2 || !isatty(STDERR_FILENO) || sinew_data_get_armature_info(data, armature, &ai) != SINEW_OK)
        return;
    fprintf(stderr, "%s: armature '%s' (%u bones; the file has %u armatures: --armature NAME chooses)\n", file, ai.name,
            ai.bone_count, di.armature_count);
}

static void list_animations(const sinew_data *data, uint32_t a) {
    sinew_armature_info ai;
    if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
        return;
    if (ai.animation_count == 0)
        fputs("none", stderr);
    for (uint32_t k = 0; k < ai.animation_count; k++) {
        sinew_animation_info an;
        if (sinew_data_get_animation_info(data, a, k, &an) == SINEW_OK)
            fprintf(stderr, "%s'%s'", k ? ", " : "", an.name);
    }
}

int cli_unknown_animation(const sinew_data *data, const char *file, uint32_t armature, const char *animation) {
    sinew_armature_info ai;
    if (armature != SINEW_INVALID_INDEX && sinew_data_get_armature_info(data, armature, &ai) == SINEW_OK) {
        fprintf(stderr, "%s: error: armature '%s' has no animation named '%s' (animations: ", file, ai.name, animation);
        list_animations(data, armature);
        fputs(")\n", stderr);
        return SINEW_EXIT_INPUT;
    }
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    fprintf(stderr, "%s: error: no armature has an animation named '%s' (", file, animation);
    for (uint32_t a = 0; a < di.armature_count; a++) {
        if (sinew_data_get_armature_info(data, a, &ai) != SINEW_OK)
            continue;
        fprintf(stderr, "%sarmature '%s': ", a ? "; " : "", ai.name);
        list_animations(data, a);
    }
    fputs(")\n", stderr);
    return SINEW_EXIT_INPUT;
}

int cli_pick(const sinew_data *data, const char *file, const char *armature, const char *skin, const char *animation,
             bool need_animation, cli_choice *out) {
    memset(out, 0, sizeof *out);
    sinew_data_info di;
    sinew_data_get_info(data, &di);
    if (di.armature_count == 0) {
        fprintf(stderr, "%s: error: the file has no armature\n", file);
        return SINEW_EXIT_INPUT;
    }
    sinew_armature_info first;
    if (!armature) {
        uint32_t a = cli_default_armature(data, animation);
        if (a == SINEW_INVALID_INDEX)
            return cli_unknown_animation(data, file, SINEW_INVALID_INDEX, animation);
        if (sinew_data_get_armature_info(data, a, &first) == SINEW_OK)
            armature = first.name;
        if (!skin || !skin[0]) /* an XML rig's NAME@SKIN is chosen by the skin, after this */
            cli_note_armature(data, file, a);
    }
    sinew_error err = {0};
    if (sinew_data_resolve_skin(data, armature, skin, &out->armature, &out->skin_overlay, &err) != SINEW_OK) {
        cli_print_error(file, &err);
        return cli_exit_code(err.code);
    }
    sinew_data_get_armature_info(data, out->armature, &out->arm);
    out->animation = SINEW_INVALID_INDEX;
    if (animation) {
        out->animation = sinew_data_find_animation(data, out->armature, animation);
        if (out->animation == SINEW_INVALID_INDEX)
            return cli_unknown_animation(data, file, out->armature, animation);
    } else if (out->arm.animation_count) {
        out->animation = out->arm.default_animation != SINEW_INVALID_INDEX ? out->arm.default_animation : 0;
    }
    if (out->animation == SINEW_INVALID_INDEX) {
        if (need_animation) {
            fprintf(stderr, "%s: error: armature '%s' has no animation\n", file, out->arm.name);
            return SINEW_EXIT_INPUT;
        }
        return 0;
    }
    sinew_data_get_animation_info(data, out->armature, out->animation, &out->anim);
    return 0;
}

/* ---- files ------------------------------------------------------------------------------------------ */

int cli_out_folder(const char *cmd, const char *dir) {
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        fprintf(stderr, "sinew %s: error: --out '%s' exists and is not a folder\n", cmd, dir);
        return SINEW_EXIT_IO;
    }
    if (mkdir(dir, 0777) == 0)
        return 0;
    fprintf(stderr, "sinew %s: error: cannot create the folder '%s': %s%s\n", cmd, dir, strerror(errno),
            errno == ENOENT ? " (its parent folder does not exist)" : "");
    return SINEW_EXIT_IO;
}

/* ---- help ------------------------------------------------------------------------------------------- */

bool cli_help_or_file(const char *cmd, const cli_help *h, const char *a, const char **file, int *rc) {
    if (cli_is_help(a)) {
        cli_help_print(h);
        *rc = -1;
        return true;
    }
    if (a[0] != '-' || a[1] == '\0') {
        *rc = *file ? cli_usage_error(cmd, "more than one input file ('%s' and '%s')", *file, a) : 0;
        if (!*file)
            *file = a;
        return true;
    }
    return false;
}

void cli_help_print(const cli_help *h) {
    printf("usage: %s\n", h->synopsis);
    if (h->about)
        printf("\n%s", h->about);
    if (h->options)
        printf("\noptions:\n%s", h->options);
    if (h->examples)
        printf("\nexamples:\n%s", h->examples);
    printf("\nexit codes: 0 ok, 1 usage (a bad option or value), 2 bad input (a file that does not load, an\n"
           "unknown name), 3 I/O (a missing file, a folder given as a file, no permission, a write\n"
           "that failed), 4 internal (out of memory)\n");
    if (h->exit_note)
        printf("%s", h->exit_note);
}
