/* libFuzzer target: the runtime end to end. The input is a rig (DragonBones JSON, DBBin or an XML
 * rig: whatever the loader recognises), optionally followed by "\0ATLAS\0" and a DragonBones atlas
 * JSON, optionally followed by "\0SCRIPT\0" and a script: bytes that drive an instance (play,
 * fade in with layers, groups and weights, stop, time scales, goto, updates with odd steps,
 * state weights, bone offsets, hit tests), build draw lists and rasterize them. Nothing may crash,
 * hang, leak or trip a sanitizer; every draw list must be well formed (indices inside its
 * vertices, commands inside its indices); a failed call must say why.
 * Seeds: fuzz/corpus/runtime (the repository's own fixtures, with scripts); XML image paths
 * resolve against fuzz/corpus/xml (run from the repository root). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/xml_rig.h"
#include "sinew/data.h"
#include "sinew/instance.h"
#include "sinew/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t atlas_mark[7] = {0, 'A', 'T', 'L', 'A', 'S', 0};
static const uint8_t script_mark[8] = {0, 'S', 'C', 'R', 'I', 'P', 'T', 0};

/* the first occurrence of m[0..mn) in d[0..n), or n */
static size_t find(const uint8_t *d, size_t n, const uint8_t *m, size_t mn) {
    for (size_t i = 0; i + mn <= n; ++i)
        if (memcmp(d + i, m, mn) == 0)
            return i;
    return n;
}

typedef struct script {
    const uint8_t *p;
    size_t n, at;
} script;

static uint8_t next(script *s) {
    return s->at < s->n ? s->p[s->at++] : 0;
}

/* steps, scales, times: ordinary values, the edges, and values no caller should pass */
static const double dts[16] = {0.0, 1.0 / 60, 1.0 / 30, 0.1, 0.25, 0.5, 1.0, 3.7, -0.05, 1e-6, 1e-300, 100.0, 1e9,
                               NAN, INFINITY, -INFINITY};
static const double scales[16] = {1.0, 0.0, 0.5, 2.0, -1.0, 10.0, 0.01, 1e6, -100.0, -1e9, 1e-300, 3.0, 0.25,
                                  NAN, INFINITY, -0.0};
static const double values[16] = {0.0, 0.1, 0.5, 1.0, 2.0, 7.0, 12.5, -1.0, 100.0, 1e6, 0.999, 1e-9, 1e300, NAN,
                                  INFINITY, -INFINITY};
static const float offsets[8] = {0.0f, 1.0f, -5.5f, 100.0f, 1e20f, -1e30f, NAN, INFINITY};

/* an animation name of armature `arm` (data index), sometimes none or one that does not exist */
static const char *anim_name(const sinew_data *d, uint32_t arm, uint8_t b) {
    if (b >= 240)
        return b & 1 ? NULL : "";
    if (b >= 230)
        return "no such animation";
    sinew_armature_info ai;
    if (sinew_data_get_armature_info(d, arm, &ai) != SINEW_OK || ai.animation_count == 0)
        return "idle";
    sinew_animation_info an;
    if (sinew_data_get_animation_info(d, arm, b % ai.animation_count, &an) != SINEW_OK)
        return NULL;
    return an.name;
}

static void fail(const char *what) {
    fprintf(stderr, "fuzz_runtime: %s\n", what);
    abort();
}

static void check_status(sinew_status st, const sinew_error *err) {
    if (st != SINEW_OK && !err->message[0]) {
        fprintf(stderr, "status %d\n", (int)st);
        fail("a call failed without saying why");
    }
}

static void draw(sinew_instance *inst, sinew_renderer *r, sinew_framebuffer *fb, uint8_t how) {
    sinew_drawlist dl;
    sinew_instance_drawlist(inst, &dl);
    /* the draw list is well formed */
    uint32_t max_page = 0;
    for (uint32_t i = 0; i < dl.cmd_count; ++i) {
        const sinew_draw_cmd *c = &dl.cmds[i];
        if ((uint64_t)c->first_index + c->index_count > dl.index_count || c->index_count % 3 != 0)
            fail("a draw command outside its list's indices");
        if (c->page != SINEW_INVALID_INDEX && c->page + 1 > max_page)
            max_page = c->page + 1;
    }
    for (uint32_t i = 0; i < dl.index_count; ++i)
        if (dl.indices[i] >= dl.vertex_count)
            fail("an index past the list's vertices");
    /* pages of 4x4 texels for every page the list names (a few at most) */
    sinew_texture_set *tex = NULL;
    if (max_page && max_page <= 8) {
        uint8_t px[8][4 * 4 * 4];
        sinew_image_desc pages[8];
        for (uint32_t p = 0; p < max_page; ++p) {
            for (int k = 0; k < 64; ++k)
                px[p][k] = (uint8_t)(k * 37 + p * 11 + ((k & 3) == 3 ? 255 : 0));
            pages[p] = (sinew_image_desc){px[p], 4, 4, 0, false};
        }
        sinew_texture_set_from_rgba(pages, max_page, NULL, &tex, NULL);
    }
    /* a fixed view at some scale, or the view that fits the bounds */
    sinew_framing fr;
    sinew_error err = {0};
    sinew_rect b;
    static const float zoom[8] = {1.0f, 0.25f, 4.0f, 0.01f, 100.0f, 1e-6f, 1e6f, -1.0f};
    bool ok;
    if (how & 8) {
        ok = sinew_drawlist_bounds(&dl, &b, false) &&
             sinew_framing_fit(b, zoom[how & 7], 2.0f, &fr, &err) == SINEW_OK && fr.width <= 256 && fr.height <= 256;
    } else {
        ok = sinew_framing_fixed(48, 48, 24.0f, 24.0f, zoom[how & 7], &fr, &err) == SINEW_OK;
    }
    if (ok) {
        sinew_framebuffer_clear(fb, (sinew_rgba8){(uint8_t)(how * 3), 0, 0, (uint8_t)how});
        sinew_status st = sinew_renderer_draw(r, &dl, tex, &fr.view, fb, &err);
        check_status(st, &err);
    }
    sinew_texture_set_destroy(tex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20))
        return 0;
    size_t rig_end = find(data, size, atlas_mark, sizeof atlas_mark);
    size_t script_at = find(data, size, script_mark, sizeof script_mark);
    if (script_at < rig_end)
        rig_end = script_at;
    const uint8_t *atlas_text = NULL;
    size_t atlas_len = 0;
    if (rig_end < size && rig_end != script_at) {
        atlas_text = data + rig_end + sizeof atlas_mark;
        atlas_len = (script_at > rig_end + sizeof atlas_mark ? script_at : size) - (rig_end + sizeof atlas_mark);
    }
    static const uint8_t default_script[] = {0, 0, 6, 3, 9, 0, 6, 4, 9, 8};
    script s = {default_script, sizeof default_script, 0};
    if (script_at < size)
        s = (script){data + script_at + sizeof script_mark, size - script_at - sizeof script_mark, 0};

    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_memory_bytes = 64u << 20;
    o.limits.max_animation_frames = 20000;
    o.limits.max_vertices = 20000;
    o.limits.max_bones = 512;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    sinew_status st;
    if (sinew__xml_sniff(NULL, data, rig_end))
        st = sinew__xml_load_buffer(data, rig_end, "fuzz.xml", "fuzz/corpus/xml", &o, &d, &err);
    else
        st = sinew_data_load_buffer(data, rig_end, "fuzz", &o, &d, &err);
    check_status(st, &err);
    if (st != SINEW_OK)
        return 0;
    sinew_atlas *atlas = NULL;
    if (atlas_text)
        sinew_atlas_load_buffer(atlas_text, atlas_len, "fuzz_tex.json", "fuzz/corpus/runtime", &o, &atlas, NULL);

    sinew_data_info info;
    sinew_data_get_info(d, &info);
    sinew_instance_options io;
    memset(&io, 0, sizeof io);
    io.atlas = atlas;
    io.max_states = 1 + next(&s) % 8;
    io.run_default_actions = next(&s) & 1;
    sinew_armature_info top;
    uint32_t top_index = info.armature_count ? next(&s) % info.armature_count : 0;
    if (sinew_data_get_armature_info(d, top_index, &top) == SINEW_OK)
        io.armature = top.name;
    sinew_instance *inst = NULL;
    memset(&err, 0, sizeof err);
    st = sinew_instance_create(d, &io, &inst, &err);
    check_status(st, &err);
    sinew_renderer *r = NULL;
    sinew_framebuffer fb = {0};
    if (st == SINEW_OK && sinew_renderer_create(NULL, &r, NULL) == SINEW_OK &&
        sinew_framebuffer_init(&fb, 48, 48, NULL, NULL) == SINEW_OK) {
        uint32_t arms = sinew_instance_armature_count(inst);
        int draws = 0;
        for (int ops = 0; ops < 96 && s.at < s.n; ++ops) {
            uint8_t op = next(&s), a = next(&s), b = next(&s);
            uint32_t arm = arms ? a % arms : 0;
            /* the data index of that armature (child armatures have their own) */
            const char *arm_name = sinew_instance_armature_name(inst, arm);
            uint32_t data_arm = top_index;
            for (uint32_t k = 0; arm_name && k < info.armature_count; ++k) {
                sinew_armature_info ai;
                if (sinew_data_get_armature_info(d, k, &ai) == SINEW_OK && ai.name && strcmp(ai.name, arm_name) == 0)
                    data_arm = k;
            }
            const char *name = anim_name(d, data_arm, b);
            memset(&err, 0, sizeof err);
            switch (op % 13) {
            case 0:
                check_status(sinew_instance_play_on(inst, arm, name, (int32_t)(next(&s) % 4) - 1, &err), &err);
                break;
            case 1: {
                sinew_fade_options f = sinew_fade_defaults();
                uint8_t c = next(&s), e = next(&s);
                f.fade_in_time = values[c & 15] / 4;
                f.play_times = (int32_t)(c >> 4) % 4 - 1;
                f.layer = (int32_t)(e % 5) - 1;
                f.group = e & 8 ? "g" : NULL;
                f.fade_out_mode = (sinew_fade_out_mode)((e >> 4) % 7);
                f.weight = scales[next(&s) & 15];
                f.time_scale = e & 0x80 ? scales[e & 15] : -100.0;
                f.pause_fade_in = (c & 1) != 0;
                check_status(sinew_instance_fade_in(inst, arm, name, &f, &err), &err);
                break;
            }
            case 2:
                sinew_instance_stop(inst, arm, b & 1 ? NULL : name);
                break;
            case 3:
                sinew_instance_set_time_scale(inst, arm, scales[b & 15]);
                break;
            case 4:
                check_status(sinew_instance_goto_and_play(inst, arm, name, (sinew_goto_unit)(next(&s) % 4),
                                                          values[next(&s) & 15], (int32_t)(b % 3) - 1, &err),
                             &err);
                break;
            case 5:
                check_status(sinew_instance_goto_and_stop(inst, arm, name, (sinew_goto_unit)(next(&s) % 4),
                                                          values[next(&s) & 15], &err),
                             &err);
                break;
            case 6:
                sinew_instance_update(inst, dts[b & 15]);
                break;
            case 7:
                if (b & 1)
                    sinew_instance_state_set_weight(inst, arm, name, scales[next(&s) & 15]);
                else
                    sinew_instance_state_set_time_scale(inst, arm, name, scales[next(&s) & 15]);
                break;
            case 8: {
                sinew_event ev;
                while (sinew_instance_poll_event(inst, &ev)) {
                }
                uint32_t n = sinew_instance_state_count(inst, arm);
                for (uint32_t i = 0; i <= n; ++i) {
                    sinew_state_info si;
                    sinew_instance_state(inst, arm, i, &si);
                }
                break;
            }
            case 9:
                if (draws++ < 8)
                    draw(inst, r, &fb, b);
                break;
            case 10: {
                uint32_t nb = sinew_instance_bone_count(inst, arm);
                const char *bone = NULL;
                uint32_t parent;
                sinew_affine w;
                if (nb)
                    sinew_instance_bone(inst, arm, b % nb, &bone, &parent, &w);
                /* c: x (bits 0-2), y (3-5), follow instead (6), remove (7); e: rotation, skew;
                   f: scale x, scale y (each 1 + a quarter of an offset: up to 2.5e19) */
                uint8_t c = next(&s), e = next(&s), g = next(&s);
                sinew_bone_offset off = {offsets[c & 7],
                                         offsets[(c >> 3) & 7],
                                         offsets[e & 7] / 8,
                                         offsets[(e >> 3) & 7] / 8,
                                         1.0f + offsets[g & 7] / 4,
                                         1.0f + offsets[(g >> 3) & 7] / 4};
                if (bone && (c & 0x40))
                    check_status(sinew_instance_bone_follow(inst, arm, bone, off.x, off.y, &err), &err);
                else
                    check_status(sinew_instance_set_bone_offset(inst, arm, bone ? bone : "none", c & 0x80 ? NULL : &off,
                                                                &err),
                                 &err);
                break;
            }
            default: {
                sinew_rect bounds;
                sinew_instance_bounds(inst, &bounds);
                uint32_t ha, hs;
                sinew_instance_hit(inst, offsets[b & 7], (float)values[a & 15], &ha, &hs);
                sinew_segment_hit sh;
                sinew_instance_intersects_segment(inst, arm, -100.0f, (float)(b % 50), 100.0f, offsets[a & 7], &sh);
                break;
            }
            }
        }
        draw(inst, r, &fb, 0);
    }
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(r);
    sinew_instance_destroy(inst);
    sinew_atlas_destroy(atlas);
    sinew_data_destroy(d);
    return 0;
}
