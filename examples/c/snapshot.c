/* snapshot.c - one frame of an animation to a PNG: the core (load, play), libsinew-render (draw)
 * and libsinew-export (write the PNG). Build against all three layers:
 *     cc snapshot.c $(pkg-config --cflags --libs sinew-export) -o snapshot
 *     ./snapshot demo_ske.json demo_tex.json walk 0.5 out.png
 */
#include <sinew/export.h> /* libsinew-export: sinew_png_write; render.h with it */
#include <sinew/render.h>
#include <sinew/sinew.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *file, const sinew_error *e) {
    if (e->line)
        fprintf(stderr, "%s:%u:%u: error: %s\n", file, e->line, e->column, e->message);
    else
        fprintf(stderr, "%s: error: %s\n", file, e->message);
    return e->code == SINEW_E_IO ? 3 : 2;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: snapshot SKELETON.json ATLAS.json ANIMATION SECONDS OUT.png\n");
        return 1;
    }
    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    if (sinew_data_load_file(argv[1], NULL, &data, &err) != SINEW_OK)
        return fail(argv[1], &err);
    if (sinew_atlas_load_file(argv[2], NULL, &atlas, &err) != SINEW_OK)
        return fail(argv[2], &err);
    sinew_instance_options io = {0};
    io.atlas = atlas;
    sinew_instance *inst = NULL;
    if (sinew_instance_create(data, &io, &inst, &err) != SINEW_OK ||
        sinew_instance_play(inst, argv[3], 0, &err) != SINEW_OK)
        return fail(argv[1], &err);
    for (double t = 0.0, end = atof(argv[4]); t < end; t += 1.0 / 60.0)
        sinew_instance_update(inst, 1.0 / 60.0);
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);

    /* the atlas pages, in order: draw commands name them by index */
    sinew_atlas_info ai;
    sinew_atlas_get_info(atlas, &ai);
    const char *paths[16];
    for (uint32_t p = 0; p < ai.page_count && p < 16; p++) {
        sinew_atlas_page_info pi;
        sinew_atlas_get_page_info(atlas, p, &pi);
        paths[p] = pi.resolved_path;
    }
    sinew_texture_set *tex = NULL;
    sinew_renderer *r = NULL;
    sinew_rect bounds;
    sinew_framing fr;
    sinew_framebuffer fb;
    if (sinew_texture_set_load(paths, ai.page_count < 16 ? ai.page_count : 16, NULL, &tex, &err) != SINEW_OK)
        return fail(argv[2], &err);
    if (!sinew_drawlist_bounds(&dl, &bounds, false) || sinew_framing_fit(bounds, 1.0f, 4.0f, &fr, &err) != SINEW_OK ||
        sinew_renderer_create(NULL, &r, &err) != SINEW_OK || sinew_framebuffer_init(&fb, fr.width, fr.height, NULL, &err))
        return fail(argv[1], &err);
    if (sinew_renderer_draw(r, &dl, tex, &fr.view, &fb, &err) != SINEW_OK)
        return fail(argv[1], &err);
    uint8_t *rgba = malloc((size_t)fb.width * fb.height * 4);
    sinew_framebuffer_to_straight(&fb, rgba, (size_t)fb.width * 4);
    const char *inputs[2] = {argv[1], argv[2]};
    int rc = sinew_png_write(argv[5], rgba, fb.width, fb.height, (size_t)fb.width * 4, inputs, 2, &err) == SINEW_OK
                 ? 0 : fail(argv[5], &err);
    if (rc == 0)
        printf("%s: %ux%u, %u draw commands\n", argv[5], fb.width, fb.height, dl.cmd_count);
    free(rgba);
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(r);
    sinew_texture_set_destroy(tex);
    sinew_instance_destroy(inst);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return rc;
}
