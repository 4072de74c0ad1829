/* The draw list rewrites a command's UVs, indices and region only when the command at its place
 * changed (drawlist.c): every frame, a draw list built that way must equal, bit for bit, one built
 * from nothing (the record of what each place holds cleared first) for the same pose. Through
 * display switches and draw-order changes of the animations, a cross-fade, a replacement by a
 * user region, its removal and a skin change. Rigs: the repository's own fixtures, untextured
 * (child armatures, draw-order quirks) and with their atlases (Pip: a mesh, a child armature, an
 * eye that blinks; the demo's Bolt: eyes and mouth that switch, a skin that retextures slots), so
 * that a stale UV shows in a bare clone too (untextured, every UV is 0); and with ../shared every
 * character with an atlas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "sinew/sinew.h"
#include "test_characters.h"
#include "testlib.h"

enum { TICKS = 300 };

static int same_list(const sinew_drawlist *a, const sinew_drawlist *b) {
    if (a->vertex_count != b->vertex_count || a->index_count != b->index_count || a->cmd_count != b->cmd_count)
        return 0;
    return memcmp(a->positions, b->positions, a->vertex_count * 2 * sizeof(float)) == 0 &&
           memcmp(a->uvs, b->uvs, a->vertex_count * 2 * sizeof(float)) == 0 &&
           memcmp(a->indices, b->indices, a->index_count * sizeof(uint32_t)) == 0 &&
           memcmp(a->cmds, b->cmds, a->cmd_count * sizeof(sinew_draw_cmd)) == 0;
}

/* The name of the first image slot in draw order (NULL if none). */
static const char *image_slot(sinew_instance *inst) {
    for (uint32_t k = 0; k < sinew_instance_slot_count(inst, 0); ++k) {
        sinew_slot_state ss;
        if (sinew_instance_slot(inst, 0, k, &ss) && ss.display_type == 0)
            return ss.name;
    }
    return NULL;
}

/* `skin`: the skin set at tick 260 (NULL: back to the default skin) */
static void cache_case(const char *skeleton, const char *atlas_path, const char *armature, const char *a0,
                       const char *a1, const char *skin, int *frames_checked) {
    sinew_data *data = NULL;
    sinew_atlas *atlas = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_file(skeleton, NULL, &data, &err) == SINEW_OK);
    if (!data)
        return;
    if (atlas_path)
        CHECK(sinew_atlas_load_file(atlas_path, NULL, &atlas, &err) == SINEW_OK);
    sinew_instance_options o;
    memset(&o, 0, sizeof o);
    o.armature = armature;
    o.atlas = atlas;
    sinew_instance *cached = NULL, *fresh = NULL;
    CHECK(sinew_instance_create(data, &o, &cached, NULL) == SINEW_OK);
    CHECK(sinew_instance_create(data, &o, &fresh, NULL) == SINEW_OK);
    if (!cached || !fresh)
        goto out;
    sinew_instance *both[2] = {cached, fresh};
    for (int k = 0; k < 2; ++k)
        CHECK(sinew_instance_play(both[k], a0, 0, NULL) == SINEW_OK);
    const char *slot = NULL;
    int differ = 0;
    for (int t = 0; t < TICKS; ++t) {
        for (int k = 0; k < 2; ++k) {
            sinew_instance *inst = both[k];
            if (t == 100 && a1) {
                sinew_fade_options fo = sinew_fade_defaults();
                fo.fade_in_time = 0.3;
                CHECK(sinew_instance_fade_in(inst, 0, a1, &fo, NULL) == SINEW_OK);
            }
            if (t == 150 && (slot = image_slot(inst)) != NULL) {
                sinew_user_region r = {90, 256, 128, 8, 16, 40, 30, 0.25f, 0.5f};
                CHECK(sinew_instance_replace_display_region(inst, 0, slot, &r, -1, NULL) == SINEW_OK);
            }
            if (t == 200 && slot) {
                sinew_user_region r = {91, 64, 64, 0, 0, 64, 64, 0.5f, 0.5f}; /* another texture, same slot */
                CHECK(sinew_instance_replace_display_region(inst, 0, slot, &r, -1, NULL) == SINEW_OK);
            }
            if (t == 230 && slot)
                CHECK(sinew_instance_replace_display(inst, 0, slot, NULL, NULL, -1, NULL) == SINEW_OK);
            if (t == 260)
                CHECK(sinew_instance_set_skin(inst, skin, NULL) == SINEW_OK);
            sinew_instance_update(inst, t % 5 == 2 ? 1.0 / 24 : 1.0 / 60);
        }
        sinew_drawlist dc, df;
        sinew_instance_drawlist(cached, &dc);
        fresh->dl_valid = 0; /* what each place of the list holds is forgotten: everything is written */
        sinew_instance_drawlist(fresh, &df);
        differ += !same_list(&dc, &df);
        ++*frames_checked;
    }
    CHECK(differ == 0);
    if (differ)
        fprintf(stderr, "%s %s/%s: %d of %d frames differ\n", skeleton, a0, a1 ? a1 : "", differ, TICKS);
out:
    sinew_instance_destroy(cached);
    sinew_instance_destroy(fresh);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(data);
}

static void test_cache_own_fixtures(void) {
    int frames = 0;
    cache_case("fixtures/oracle/slot_actions_ske.json", NULL, "hero", "swing", "wave", NULL, &frames);
    cache_case("fixtures/oracle/zorder_quirks_ske.json", NULL, "z", "collide", "past_end", NULL, &frames);
    cache_case("fixtures/own/Pip_5.5/pip_ske.json", "fixtures/own/Pip_5.5/pip_tex.json", "pip", "idle", "hop", NULL,
               &frames);
    cache_case("../examples/demo/demo_ske.json", "../examples/demo/demo_tex.json", "Bolt", "wave", "walk", "copper",
               &frames);
    CHECK(frames == 4 * TICKS);
}

static void test_cache_shared_characters(void) {
    const char *shared = test_need_shared(SHARED_CHARACTERS, "shared characters' draw lists");
    if (!shared)
        return;
    int frames = 0;
    for (int i = 0; i < SHARED_CHARACTERS; ++i) {
        const test_character *c = &shared_characters[i];
        char ske[1024], tex[1024];
        snprintf(ske, sizeof ske, "%s/data/dragonbones/%s/%s", shared, c->dir, c->skeleton);
        snprintf(tex, sizeof tex, "%s/data/dragonbones/%s/%s", shared, c->dir, c->atlas);
        cache_case(ske, tex, c->armature, c->anims[0], c->anims[1], NULL, &frames);
    }
    CHECK(frames == SHARED_CHARACTERS * TICKS);
}

int main(void) {
    RUN(test_cache_own_fixtures);
    RUN(test_cache_shared_characters);
    return test_summary();
}
