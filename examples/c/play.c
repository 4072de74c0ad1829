/* play: the README's "use it from C" example as a complete program.
 *
 *   play RIG [ATLAS] [ANIMATION] [FRAMES]
 *
 * Loads a rig (DragonBones JSON or an XML rig) and optionally its atlas, plays ANIMATION (default:
 * the armature's default animation) for FRAMES updates at 60 Hz, prints every event and, for the
 * last frame, the size of the draw list. Exit 0 on success, 2 on bad input. */
#include <stdio.h>
#include <stdlib.h>

#include <sinew/sinew.h> /* or just data.h + instance.h */

/* file:line:col: error: message [json.path], leaving out what is unknown (an I/O error has no line) */
static int fail(const char *what, const sinew_error *err) {
    fprintf(stderr, "%s", err->file ? err->file : what);
    if (err->line)
        fprintf(stderr, ":%u:%u", err->line, err->column);
    fprintf(stderr, ": error: %s", err->message);
    if (err->path[0])
        fprintf(stderr, " [%s]", err->path);
    fputc('\n', stderr);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: play RIG [ATLAS] [ANIMATION] [FRAMES]\n");
        return 1;
    }
    const char *anim = argc > 3 ? argv[3] : NULL;
    int frames = argc > 4 ? atoi(argv[4]) : 60;

    sinew_error err = {0};
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    if (sinew_data_load_file(argv[1], NULL, &data, &err) != SINEW_OK)
        return fail(argv[1], &err);
    if (argc > 2 && argv[2][0] && sinew_atlas_load_file(argv[2], NULL, &atlas, &err) != SINEW_OK) {
        sinew_data_destroy(data);
        return fail(argv[2], &err);
    }

    sinew_instance_options opt = {0};
    opt.atlas = atlas;
    sinew_instance *hero = NULL;
    int status = 0;
    if (sinew_instance_create(data, &opt, &hero, &err) != SINEW_OK ||
        (anim && sinew_instance_play(hero, anim, -1, &err) != SINEW_OK)) {
        status = fail(argv[1], &err);
        goto done;
    }

    sinew_drawlist dl = {0};
    for (int i = 0; i < frames; i++) {
        sinew_instance_update(hero, 1.0 / 60.0);
        sinew_event ev;
        while (sinew_instance_poll_event(hero, &ev))
            printf("frame %d: %s %s%s%s\n", i, sinew_event_type_name(ev.type), ev.animation ? ev.animation : "",
                   ev.name && ev.name[0] ? " " : "", ev.name ? ev.name : "");
        sinew_instance_drawlist(hero, &dl);
    }
    printf("draw list: %u commands, %u vertices, %u indices\n", dl.cmd_count, dl.vertex_count, dl.index_count);

done:
    sinew_instance_destroy(hero);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
    return status;
}
