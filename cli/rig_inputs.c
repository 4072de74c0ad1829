#define _POSIX_C_SOURCE 200809L
#include "rig_inputs.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cli_input_error(const char *file, const sinew_error *err) {
    cli_print_error(file, err);
    /* docs/cli.md: an input that cannot be read (missing, a folder, no permission) is I/O */
    return err->code == SINEW_E_NOMEM ? SINEW_EXIT_INTERNAL : err->code == SINEW_E_IO ? SINEW_EXIT_IO : SINEW_EXIT_INPUT;
}

/* The skeleton's own `textureAtlas` (the 5.6 demos carry their atlas inside): loaded quietly,
 * false when the file has none. */
static bool embedded_atlas(cli_rig *r, const char *file) {
    size_t n = strlen(file);
    if (n >= sizeof r->atlas_path)
        return false;
    sinew_error err = {0};
    sinew_load_options lo = {0};
    if (sinew_atlas_load_file(file, &lo, &r->atlas, &err) != SINEW_OK)
        return false;
    memcpy(r->atlas_path, file, n + 1);
    return true;
}

int cli_rig_load(cli_rig *r, const char *file, const char *atlas) {
    memset(r, 0, sizeof *r);
    sinew_error err = {0};
    sinew_load_options lo = {0};
    lo.log = cli_log;
    lo.log_user = (void *)file;
    if (sinew_data_load_file(file, &lo, &r->data, &err) != SINEW_OK)
        return cli_input_error(file, &err);
    if (atlas) {
        size_t n = strlen(atlas);
        if (n >= sizeof r->atlas_path) {
            fprintf(stderr, "%s: error: path too long\n", atlas);
            return SINEW_EXIT_INPUT;
        }
        memcpy(r->atlas_path, atlas, n + 1);
    } else if (sinew_atlas_find_for(file, r->atlas_path, sizeof r->atlas_path) != SINEW_OK &&
               !embedded_atlas(r, file)) {
        /* no atlas JSON: displays that name whole images next to the rig (Live2D-style demos) */
        const char *slash = strrchr(file, '/');
        int n = slash ? snprintf(r->atlas_path, sizeof r->atlas_path, "%.*s", (int)(slash - file), file)
                      : snprintf(r->atlas_path, sizeof r->atlas_path, ".");
        memset(&err, 0, sizeof err);
        if (n <= 0 || (size_t)n >= sizeof r->atlas_path ||
            sinew_atlas_from_images(r->data, r->atlas_path, NULL, &r->atlas, &err) != SINEW_OK) {
            fprintf(stderr, "%s: error: no texture atlas found next to it (looked for X_tex.json, texture.json, "
                            "*_texture_*.json, and images named by its displays); give one with --atlas\n", file);
            return SINEW_EXIT_INPUT;
        }
    }
    lo.log_user = r->atlas_path;
    memset(&err, 0, sizeof err);
    if (!r->atlas && sinew_atlas_load_file(r->atlas_path, &lo, &r->atlas, &err) != SINEW_OK)
        return cli_input_error(r->atlas_path, &err);
    sinew_atlas_info ai;
    sinew_atlas_get_info(r->atlas, &ai);
    if (ai.page_count == 0 || ai.page_count > CLI_MAX_PAGES) {
        fprintf(stderr, "%s: error: the atlas has %u texture pages (1..%u supported)\n", r->atlas_path,
                ai.page_count, (unsigned)CLI_MAX_PAGES);
        return SINEW_EXIT_INPUT;
    }
    /* A page whose image is missing is left undrawn (a warning) when another page is there (the
     * 5.6 demo `shizuku` names a fifth page it does not ship); with none there, it is an error. */
    uint32_t found = 0;
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t p = 0; p < ai.page_count; p++) {
            sinew_atlas_page_info pi;
            if (sinew_atlas_get_page_info(r->atlas, p, &pi) != SINEW_OK || !pi.resolved_path) {
                fprintf(stderr, "%s: error: texture page %u has no image path\n", r->atlas_path, p);
                return SINEW_EXIT_INPUT;
            }
            struct stat sb;
            bool there = stat(pi.resolved_path, &sb) == 0;
            if (pass == 0) {
                found += there;
                r->page_paths[p] = there ? pi.resolved_path : NULL;
            } else if (!there) {
                char msg[1200];
                cli_page_missing_message(msg, sizeof msg, pi.image_path, pi.resolved_path);
                fprintf(stderr, "%s: %s: %s%s [imagePath]\n", r->atlas_path, found ? "warning" : "error", msg,
                        found ? "; what it maps is not drawn" : "");
                if (!found)
                    return SINEW_EXIT_INPUT;
            }
        }
    r->page_count = ai.page_count;
    memset(&err, 0, sizeof err);
    if (sinew_texture_set_load(r->page_paths, r->page_count, NULL, &r->textures, &err) != SINEW_OK)
        return cli_input_error(err.file ? err.file : r->atlas_path, &err);
    return 0;
}

void cli_rig_free(cli_rig *r) {
    sinew_texture_set_destroy(r->textures);
    sinew_atlas_destroy(r->atlas);
    sinew_data_destroy(r->data);
    memset(r, 0, sizeof *r);
}

void cli_page_missing_message(char *buf, size_t size, const char *image_path, const char *resolved) {
    snprintf(buf, size, "texture page '%s' not found (looked for %s)", image_path ? image_path : "", resolved);
}

int cli_check_pages(const char *atlas_path) {
    sinew_atlas *atlas = NULL;
    sinew_error err = {0};
    if (sinew_atlas_load_file(atlas_path, NULL, &atlas, &err) != SINEW_OK) {
        cli_print_error(atlas_path, &err);
        return cli_exit_code(err.code);
    }
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    int rc = 0;
    for (uint32_t p = 0; p < ai.page_count && !rc; p++) {
        sinew_atlas_page_info pi;
        struct stat sb;
        if (sinew_atlas_get_page_info(atlas, p, &pi) != SINEW_OK || !pi.resolved_path || stat(pi.resolved_path, &sb) == 0)
            continue;
        char msg[1200];
        cli_page_missing_message(msg, sizeof msg, pi.image_path, pi.resolved_path);
        cli_warnings_flush();
        fprintf(stderr, "%s: error: %s [imagePath]\n", atlas_path, msg);
        rc = SINEW_EXIT_INPUT;
    }
    sinew_atlas_destroy(atlas);
    return rc;
}
