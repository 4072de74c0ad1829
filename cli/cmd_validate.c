#define _POSIX_C_SOURCE 200809L
/* sinew validate FILE...: load each skeleton or atlas file and report every problem found, including
 * what a render would trip over: the atlas pages (present, decodable, of the size the atlas says),
 * every display's region, mesh UVs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "rig_inputs.h"
#include "rules.h"
#include "sinew/data.h"
#include "sinew/render.h"

const char sinew_cmd_validate_help[] = "check skeleton and atlas files; print file:line:col: error: ...";

const cli_help sinew_cmd_validate_usage = {
    "sinew validate [--atlas TEX] [--for render] [--json] [--quiet] FILE...",
    "Loads each file (a DragonBones skeleton, a sinew XML rig, or a texture atlas JSON, told\n"
    "apart by content) and checks what rendering it needs: a skeleton against its atlas (--atlas,\n"
    "else the one found beside it) - every image and mesh display's region is in the atlas, mesh\n"
    "UVs lie in [0, 1] (warnings: such files still render) - and an atlas's page images - they\n"
    "exist and decode (errors), and have the size the atlas says (a warning). A skeleton without\n"
    "any atlas (render exits 2 on it) is a warning, an error with --for render. Each problem prints\n"
    "as  file:line:col: error: message [json.path]  (warnings with 'warning:'), line and column\n"
    "when they are known.\n",
    "  --atlas TEX       the atlas to check skeletons against (default: found beside each)\n"
    "  --json            the diagnostics as one JSON object on stdout:\n"
    "                    {\"files\": [{\"file\", \"ok\", \"errors\", \"warnings\"}], \"diagnostics\":\n"
    "                    [{\"file\", \"line\", \"col\", \"path\", \"severity\", \"code\", \"message\"}]}\n"
    "                    (line and col 0 when unknown; code is a stable word such as\n"
    "                    \"reference\" or \"page-missing\")\n"
    "  --for render      what `sinew render` needs (an atlas) is an error, not a warning\n"
    "  --quiet, -q       no 'FILE: ok' line for each valid file, and no warnings\n",
    "  sinew validate hero_ske.json hero_tex.json\n"
    "  sinew validate --json hero_ske.json\n"
    "  sinew validate --quiet --atlas shared_tex.json a_ske.json b_ske.json\n",
    "validate exits 2 when some file has an error, 3 when some file could not be read (3 wins);\n"
    "warnings alone exit 0.\n"};

/* ---- diagnostics ----------------------------------------------------------------------------- */

typedef struct diag {
    char *file, *path, *message;
    const char *severity, *code;
    uint32_t line, col;
} diag;

typedef struct sink {
    bool json;
    bool for_render;        /* --for render: what render needs is an error */
    diag *list;
    size_t count, cap;
    const char *file;       /* the file being checked (the fallback for messages without one) */
    uint32_t errors, warnings;
} sink;

static const char *code_word(sinew_status st) {
    switch (st) {
    case SINEW_E_IO: return "io";
    case SINEW_E_PARSE: return "parse";
    case SINEW_E_TYPE: return "type";
    case SINEW_E_MISSING: return "missing";
    case SINEW_E_REFERENCE: return "reference";
    case SINEW_E_RANGE: return "range";
    case SINEW_E_DUPLICATE: return "duplicate";
    case SINEW_E_LAYOUT: return "layout";
    case SINEW_E_VERSION: return "version";
    case SINEW_E_UNSUPPORTED: return "unsupported";
    case SINEW_E_LIMIT: return "limit";
    case SINEW_E_NOMEM: return "memory";
    case SINEW_E_NOT_FOUND: return "not-found";
    case SINEW_E_RENDER: return "render";
    default: return "other";
    }
}

static char *dup_or_empty(const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) {
        fputs("sinew validate: out of memory\n", stderr);
        exit(SINEW_EXIT_INTERNAL);
    }
    return d;
}

/* Records (--json) or prints one diagnostic. `code` overrides the status word when given. */
static void emit(sink *k, bool error, const sinew_error *e, const char *code) {
    if (error)
        k->errors++;
    else
        k->warnings++;
    if (!k->json) {
        if (error)
            cli_print_error(k->file, e);
        else
            cli_print_warning(k->file, e);
        return;
    }
    if (k->count == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        diag *l = realloc(k->list, cap * sizeof *l);
        if (!l) {
            fputs("sinew validate: out of memory\n", stderr);
            exit(SINEW_EXIT_INTERNAL);
        }
        k->list = l;
        k->cap = cap;
    }
    diag *d = &k->list[k->count++];
    d->file = dup_or_empty(e->file ? e->file : k->file);
    d->path = dup_or_empty(e->path);
    d->message = dup_or_empty(e->message[0] ? e->message : sinew_status_str(e->code));
    d->severity = error ? "error" : "warning";
    d->code = code ? code : code_word(e->code);
    d->line = e->line;
    d->col = e->column;
}

static void sink_log(void *user, sinew_log_level level, const sinew_error *where) {
    if (level == SINEW_LOG_INFO)
        return;
    emit(user, level == SINEW_LOG_ERROR, where, NULL);
}

/* A problem of our own (no sinew_error from the library). */
static void problem(sink *k, bool error, const char *file, const char *path, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void problem(sink *k, bool error, const char *file, const char *path, const char *code, const char *fmt, ...) {
    sinew_error e;
    memset(&e, 0, sizeof e);
    e.file = file;
    if (path)
        snprintf(e.path, sizeof e.path, "%s", path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    emit(k, error, &e, code);
}

static void json_str(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

/* ---- checks ------------------------------------------------------------------------------------ */

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

/* The page images: present, decodable, and of the size the atlas says. */
static void check_pages(sink *k, const char *atlas_file, const sinew_atlas *atlas) {
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    for (uint32_t p = 0; p < ai.page_count; p++) {
        sinew_atlas_page_info pi;
        if (sinew_atlas_get_page_info(atlas, p, &pi) != SINEW_OK)
            continue;
        const char *paths[1] = {pi.resolved_path};
        sinew_texture_set *tex = NULL;
        sinew_error err = {0};
        sinew_status st = sinew_texture_set_load(paths, 1, NULL, &tex, &err);
        struct stat sb;
        if (stat(pi.resolved_path, &sb) != 0) {
            char msg[1200];
            cli_page_missing_message(msg, sizeof msg, pi.image_path, pi.resolved_path);
            problem(k, true, atlas_file, "imagePath", "page-missing", "%s", msg);
            continue;
        }
        if (st == SINEW_E_IO) {
            problem(k, true, atlas_file, "imagePath", "page-missing", "the page image '%s' cannot be read (%s)",
                    pi.resolved_path, err.message);
            continue;
        }
        if (st != SINEW_OK) {
            problem(k, true, atlas_file, "imagePath", "page-decode", "the page image '%s' does not decode: %s",
                    pi.resolved_path, err.message);
            continue;
        }
        uint32_t w = 0, h = 0;
        sinew_texture_set_page(tex, 0, &w, &h, NULL);
        sinew_texture_set_destroy(tex);
        /* width/height come from the JSON when it gives them (else from the image itself) */
        if (pi.width && pi.height && (pi.width != w || pi.height != h))
            problem(k, false, atlas_file, "width", "page-size",
                    "the atlas says its page is %ux%u, the image '%s' is %ux%u (regions are placed by the atlas's size)",
                    pi.width, pi.height, pi.resolved_path, w, h);
    }
}

/* Loads FILE (and checks it); returns 0, or the exit code of a file that failed to load. */
static int check_file(sink *k, const char *file, const char *atlas_arg) {
    sinew_load_options opts;
    memset(&opts, 0, sizeof opts);
    opts.log = sink_log;
    opts.log_user = k;
    sinew_error err = {0};
    sinew_status st;
    if (looks_like_atlas(file)) {
        sinew_atlas *atlas = NULL;
        st = sinew_atlas_load_file(file, &opts, &atlas, &err);
        if (st == SINEW_OK)
            check_pages(k, file, atlas);
        sinew_atlas_destroy(atlas);
    } else {
        sinew_data *data = NULL;
        st = sinew_data_load_file(file, &opts, &data, &err);
        sinew_data_info di;
        if (st == SINEW_OK)
            sinew_data_get_info(data, &di);
        if (st == SINEW_OK && strcmp(di.format, "dragonbones") == 0) {
            char found[4096];
            const char *tex = atlas_arg;
            if (!tex && sinew_atlas_find_for(file, found, sizeof found) == SINEW_OK)
                tex = found;
            sinew_atlas *atlas = NULL;
            sinew_error aerr = {0};
            if (!tex) {
                /* as render looks for it: the skeleton's own textureAtlas, else images named by its
                 * displays next to it; without one, render exits 2 */
                sinew_load_options quiet;
                memset(&quiet, 0, sizeof quiet);
                sinew_atlas *own = NULL;
                bool have = sinew_atlas_load_file(file, &quiet, &own, NULL) == SINEW_OK;
                if (have)
                    check_pages(k, file, own);
                sinew_atlas_destroy(own);
                own = NULL;
                if (!have) {
                    const char *slash = strrchr(file, '/');
                    char dir[4096];
                    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
                    have = sinew_atlas_from_images(data, dir, NULL, &own, NULL) == SINEW_OK;
                    sinew_atlas_destroy(own);
                }
                if (!have)
                    problem(k, k->for_render, file, NULL, "atlas-missing",
                            "no texture atlas found next to it (looked for X_tex.json, texture.json, *_texture_*.json "
                            "and images named by its displays): `sinew render` needs one (give it with --atlas)");
            }
            if (tex) {
                const char *saved = k->file;
                k->file = tex;
                if (sinew_atlas_load_file(tex, &opts, &atlas, &aerr) != SINEW_OK)
                    emit(k, true, &aerr, NULL);
                else
                    check_pages(k, tex, atlas);
                k->file = saved;
            }
            if (atlas)
                sinew_data_check_atlas(data, atlas, file, sink_log, k);
            sinew_atlas_destroy(atlas);
        }
        sinew_data_destroy(data);
    }
    if (st != SINEW_OK) {
        emit(k, true, &err, NULL);
        return cli_exit_code(st) == SINEW_EXIT_IO ? SINEW_EXIT_IO : SINEW_EXIT_INPUT;
    }
    return 0;
}

int sinew_cmd_validate(int argc, char **argv) {
    bool quiet = false, json = false, for_render = false;
    const char *atlas = NULL;
    int files = 0, worst = SINEW_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            cli_help_print(&sinew_cmd_validate_usage);
            return SINEW_EXIT_OK;
        }
        if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0)
            quiet = true;
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--for") == 0 && i + 1 < argc) {
            if (strcmp(argv[++i], "render") != 0)
                return cli_usage_error("validate", "--for wants 'render', not '%s'", argv[i]);
            for_render = true;
        }
        else if (strcmp(argv[i], "--atlas") == 0 && i + 1 < argc)
            atlas = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_unknown_option("validate", argv[i]);
        else
            files++;
    }
    if (!files)
        return cli_usage_error("validate", "no FILE given");
    sink k;
    memset(&k, 0, sizeof k);
    k.json = json;
    k.for_render = for_render;
    size_t nfiles = 0;
    struct file_result {
        const char *file;
        uint32_t errors, warnings;
        int rc;
    } *results = calloc((size_t)files, sizeof *results);
    if (!results)
        return SINEW_EXIT_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *file = argv[i];
        if (strcmp(file, "--atlas") == 0 || strcmp(file, "--for") == 0) {
            i++;
            continue;
        }
        if (file[0] == '-' && file[1])
            continue;
        uint32_t e0 = k.errors, w0 = k.warnings;
        k.file = file;
        int rc = check_file(&k, file, atlas);
        uint32_t errors = k.errors - e0, warnings = k.warnings - w0;
        if (rc == SINEW_EXIT_IO || (errors && worst == SINEW_EXIT_OK))
            worst = rc == SINEW_EXIT_IO ? SINEW_EXIT_IO : SINEW_EXIT_INPUT;
        results[nfiles++] = (struct file_result){file, errors, warnings, rc};
        cli_warnings_flush(); /* this file's warnings, collapsed, before its ok line */
        if (!json && !quiet && errors == 0) {
            if (warnings)
                printf("%s: ok (%u warning%s)\n", file, warnings, warnings == 1 ? "" : "s");
            else
                printf("%s: ok\n", file);
        }
    }
    if (json) {
        fputs("{\"files\": [", stdout);
        for (size_t i = 0; i < nfiles; i++) {
            fputs(i ? ", {\"file\": " : "{\"file\": ", stdout);
            json_str(results[i].file);
            printf(", \"ok\": %s, \"errors\": %u, \"warnings\": %u}", results[i].errors ? "false" : "true",
                   results[i].errors, results[i].warnings);
        }
        fputs("], \"diagnostics\": [", stdout);
        for (size_t i = 0; i < k.count; i++) {
            const diag *d = &k.list[i];
            fputs(i ? ",\n  {\"file\": " : "\n  {\"file\": ", stdout);
            json_str(d->file);
            printf(", \"line\": %u, \"col\": %u, \"path\": ", d->line, d->col);
            json_str(d->path);
            printf(", \"severity\": \"%s\", \"code\": \"%s\", \"message\": ", d->severity, d->code);
            json_str(d->message);
            putchar('}');
        }
        fputs("]}\n", stdout);
    }
    for (size_t i = 0; i < k.count; i++) {
        free(k.list[i].file);
        free(k.list[i].path);
        free(k.list[i].message);
    }
    free(k.list);
    free(results);
    return worst;
}
