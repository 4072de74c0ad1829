/*
 * Instances: one allocation holding the top armature and every nested child armature (flattened,
 * depth-first), their poses, animation states, event queue and draw-list storage.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/runtime_internal.h"
#include "base/alloc.h"
#include "base/error.h"

#define MAX_ARMS 4096u

/* ---- layout ---------------------------------------------------------------------------------- */

typedef struct carver {
    char *base;
    size_t off;
    bool ok;
} carver;

static void *carve(carver *c, size_t count, size_t elem) {
    size_t bytes;
    if (!sinew__mul_size(count, elem, &bytes)) {
        c->ok = false;
        return NULL;
    }
    size_t off = (c->off + 15u) & ~(size_t)15u;
    if (off < c->off || !sinew__add_size(off, bytes, &c->off)) {
        c->ok = false;
        return NULL;
    }
    return c->base ? c->base + off : NULL;
}

static uint32_t count_arms(const struct sinew_data *data, uint32_t a, uint32_t depth, uint32_t *total) {
    if (*total >= MAX_ARMS)
        return *total;
    (*total)++;
    const sinew_model_armature *arm = &data->armatures[a];
    if (depth + 1 >= SINEW_MAX_DEPTH)
        return *total;
    for (uint32_t d = 0; d < arm->display_count; ++d)
        if (arm->displays[d].type == SINEW_DISPLAY_ARMATURE && arm->displays[d].armature < data->armature_count)
            count_arms(data, arm->displays[d].armature, depth + 1, total);
    return *total;
}

static uint32_t find_skin(const sinew_model_armature *arm, const char *name) {
    for (uint32_t i = 0; i < arm->skin_count; ++i)
        if (arm->skins[i].name && strcmp(arm->skins[i].name, name ? name : "") == 0)
            return i;
    return SINEW_INVALID_INDEX;
}

typedef struct layout_ctx {
    const struct sinew_data *data;
    carver *cv;
    uint32_t state_cap, state_reserve;
    arm_inst *arms;            /* NULL while planning */
    uint32_t next;
    uint32_t dl_vertices, dl_indices, dl_cmds;
    uint32_t dl_shape_points, dl_shape_contours, dl_shape_ctrl, dl_mask_slots; /* 6.0: the draw list's scratch */
} layout_ctx;

/* Whether the armature has actions besides its defaultActions (which run at creation) that may
 * start one of its own animations inside an update (frame actions without a child slot). */
static bool plays_itself(const sinew_model_armature *d) {
    for (uint32_t k = 0; k < d->action_count; ++k)
        if ((k < d->first_default_action || k - d->first_default_action >= d->default_action_count) &&
            ((d->actions[k].type == SINEW_ACTION_PLAY || d->actions[k].type == SINEW_ACTION_FADE_IN) &&
            d->actions[k].slot == SINEW_INVALID_INDEX))
            return true;
    return false;
}

/* An armature's share of the draw list: its vertices, indices and commands, and for 6.0 data the
 * largest shape's tessellation scratch and a mask entry per slot. */
static void layout_drawlist(layout_ctx *lc, const sinew_model_armature *d) {
    lc->dl_vertices += d->run_dl_vertices;
    lc->dl_indices += d->run_dl_indices;
    lc->dl_cmds += d->run_dl_cmds;
    if (d->run_shape_points > lc->dl_shape_points)
        lc->dl_shape_points = d->run_shape_points;
    if (d->run_shape_contours > lc->dl_shape_contours)
        lc->dl_shape_contours = d->run_shape_contours;
    if (d->run_shape_ctrl > lc->dl_shape_ctrl)
        lc->dl_shape_ctrl = d->run_shape_ctrl;
    if (d->v6)
        lc->dl_mask_slots += d->slot_count;
}

/* What a 6.0 armature adds: transform constraints' dirty flags, physics and path-constraint state,
 * the per-bone and per-slot frame-cache indices, masked_by and (with masks) the display container. */
static void layout_v6(carver *cv, arm_inst *a, const sinew_model_armature *d) {
    uint32_t nb = d->bone_count, ns = d->slot_count;
    a->tc_dirty = carve(cv, nb, 1);
    a->physics = carve(cv, d->physics_count, sizeof(physics_rt));
    a->path6 = carve(cv, d->path_constraint_count, sizeof(path_values6));
    a->bone_cfi = carve(cv, (size_t)nb + ns, sizeof(uint32_t));
    a->slot_cfi = a->bone_cfi ? a->bone_cfi + nb : NULL;
    a->masked_by = carve(cv, ns, sizeof(uint32_t));
    if (!d->run_has_masks)
        return;
    mask6_rt *m = carve(cv, 1, sizeof(mask6_rt));
    uint32_t *children = carve(cv, ns, sizeof(uint32_t)), *object = carve(cv, ns, sizeof(uint32_t));
    uint32_t *object_mask = carve(cv, (size_t)ns * 3, sizeof(uint32_t));
    double *range = carve(cv, ns, sizeof(double));
    uint8_t *flags = carve(cv, (size_t)ns * 3, 1);
    a->mask6 = m;
    if (m) {
        m->children = children;
        m->object = object;
        m->object_mask = object_mask;
        m->mask_range = range;
        m->mask_on = flags;
        m->zorder_dirty = flags + ns;
        m->mask_dirty = flags + 2 * (size_t)ns;
    }
}

static uint32_t layout_arm(layout_ctx *lc, uint32_t data_index, uint32_t parent, uint32_t depth) {
    uint32_t me = lc->next++;
    const sinew_model_armature *d = &lc->data->armatures[data_index];
    carver *cv = lc->cv;
    arm_inst tmp;
    arm_inst *a = lc->arms ? &lc->arms[me] : &tmp;
    memset(a, 0, sizeof *a);
    a->data = d;
    a->data_index = data_index;
    a->parent_arm = parent;
    a->parent_slot = SINEW_INVALID_INDEX;
    a->depth = depth;
    uint32_t nb = d->bone_count, ns = d->slot_count, nk = d->ik_count;
    a->bone_count = nb;
    a->slot_count = ns;
    a->pose = carve(cv, (size_t)nb * 6, sizeof(double));
    a->world = carve(cv, (size_t)nb * 6, sizeof(double));
    a->world_f = carve(cv, (size_t)nb * 6, sizeof(float));
    a->local = carve(cv, (size_t)nb * 6, sizeof(double));
    a->local_ok = carve(cv, nb, 1);
    a->global = carve(cv, (size_t)nb * 6, sizeof(double));
    a->global_valid = carve(cv, nb, 1);
    a->computed = carve(cv, nb, 1);
    a->bone_dirty = carve(cv, nb, 1);
    a->bone_changed = carve(cv, nb, 1);
    a->blend = carve(cv, nb, sizeof(blend_state));
    if (d->surface_count) {
        a->slot_gxy = carve(cv, (size_t)ns * 4, sizeof(double));
        a->slot_gxy_new = carve(cv, ns, 1);
        a->surfaces = carve(cv, d->surface_count, sizeof(surface_rt));
        for (uint32_t b = 0; b < nb; ++b) {
            const sinew_model_bone *bd = &d->bones[b];
            if (!bd->is_surface)
                continue;
            /* the cache indices the official lookup uses reach 2 (S + 2 sx + 4 sy) + 1, S = sx (sy + 1) */
            uint32_t sx = bd->segment_x, sy = bd->segment_y, cells = 2u * (sx * (sy + 1u) + 2u * sx + 4u * sy) + 2u;
            double *deform = carve(cv, bd->surface_value_count, sizeof(double));
            double *verts = carve(cv, bd->surface_value_count, sizeof(double));
            double *cache = carve(cv, (size_t)cells * 7, sizeof(double));
            if (lc->arms) {
                surface_rt *sf = &a->surfaces[d->run_surface[b]];
                memset(sf, 0, sizeof *sf);
                sf->bone = b;
                sf->n = bd->surface_value_count;
                sf->deform = deform;
                sf->verts = verts;
                sf->cells = cache;
                sf->cell_count = cells;
                sf->dx = 400.0 / sx;
                sf->dy = 400.0 / sy;
                sf->k = -sf->dy / sf->dx;
                sf->kx = -sf->dy / 800.0;
                sf->ky = -800.0 / sf->dx;
            }
        }
    }
    a->ik_weight = carve(cv, nk, sizeof(float));
    a->ik_bend = carve(cv, nk, 1);
    a->paths = carve(cv, d->path_constraint_count, sizeof(path_inst));
    double *path_scratch = carve(cv, sinew__path_scratch_size(d), sizeof(double));
    if (a->paths && path_scratch)
        sinew__path_bind(a, path_scratch);
    a->display_index = carve(cv, ns, sizeof(int32_t));
    a->anim_display_index = carve(cv, ns, sizeof(int32_t));
    a->zorder = carve(cv, ns, sizeof(int32_t));
    a->z_index = d->v6 ? carve(cv, ns, sizeof(double)) : NULL;
    a->sort_key = d->v6 ? carve(cv, ns, sizeof(double)) : NULL;
    a->draw_order = carve(cv, ns, sizeof(uint32_t));
    a->color = carve(cv, ns, sizeof(sinew_color_transform));
    a->list_first = carve(cv, ns, sizeof(uint32_t));
    a->list_count = carve(cv, ns, sizeof(uint32_t));
    a->cur_display = carve(cv, ns, sizeof(uint32_t));
    a->slot_origin = carve(cv, ns, sizeof(uint32_t));
    if (d->v6)
        layout_v6(cv, a, d);
    a->cur_mesh = carve(cv, ns, sizeof(uint32_t));
    if (d->v6) { /* deforms per display frame (deform6.c) */
        a->frame_deform = carve(cv, d->run_frame_deform_floats, sizeof(float));
        a->deform_drawn = carve(cv, d->run_deform_floats, sizeof(float));
        a->frame_deform_on = carve(cv, d->display_count, 1);
        a->frame_shown = carve(cv, ns, sizeof(uint32_t));
        a->deform_blend = carve(cv, SLOT_BLEND_SPACES * (size_t)d->run_blend_keys, sizeof(blend_state));
    }
    a->deform_len = carve(cv, ns, sizeof(uint32_t));
    a->cur_child = carve(cv, ns, sizeof(uint32_t));
    a->display_dirty = carve(cv, ns, 1);
    a->deform_dirty = carve(cv, ns, 1);
    a->deform_nz = carve(cv, ns, 1);
    a->slot_changed = carve(cv, ns, 1);
    a->slot_world = carve(cv, (size_t)ns * 6, sizeof(float));
    a->slot_deform = d->run_slot_deform;
    layout_drawlist(lc, d);
    a->deform = carve(cv, d->run_deform_floats, sizeof(float));
    a->mesh_out = carve(cv, d->run_deform_floats, sizeof(float));
    a->display_child = carve(cv, d->display_count, sizeof(uint32_t));
    a->display_region = carve(cv, d->display_count, sizeof(uint32_t));
    uint32_t tl_cap = d->max_anim_timelines ? d->max_anim_timelines : 1;
    a->state_cap = lc->state_cap;
    a->tl_cap = tl_cap;
    a->states = carve(cv, lc->state_cap, sizeof(anim_state));
    /* an armature whose states may begin inside an update (a child armature, or one whose frames
     * play its own animations) holds storage for all of them from the start */
    a->state_held = parent != SINEW_INVALID_INDEX || plays_itself(d) ? lc->state_cap : lc->state_reserve;
    for (uint32_t i = 0; i < a->state_held; ++i) {
        tl_state *tls = carve(cv, 1, sinew__state_bytes(tl_cap, ns));
        if (lc->arms)
            a->states[i].tls = tls;
    }
    if (lc->arms)
        for (uint32_t i = 0; i < d->display_count; ++i)
            a->display_child[i] = SINEW_INVALID_INDEX;
    if (depth + 1 < SINEW_MAX_DEPTH) {
        for (uint32_t i = 0; i < d->display_count; ++i) {
            const sinew_model_display *dd = &d->displays[i];
            if (dd->type != SINEW_DISPLAY_ARMATURE || dd->armature >= lc->data->armature_count)
                continue;
            if (lc->next >= MAX_ARMS)
                break;
            uint32_t child = layout_arm(lc, dd->armature, me, depth + 1);
            if (lc->arms) {
                lc->arms[me].display_child[i] = child;
                /* the slot owning this display (first skin that lists it) */
                for (uint32_t k = 0; k < d->skin_slot_count; ++k) {
                    const sinew_model_skin_slot *ss = &d->skin_slots[k];
                    if (i >= ss->first_display && i < ss->first_display + ss->display_count) {
                        lc->arms[child].parent_slot = ss->slot;
                        break;
                    }
                }
            }
        }
    }
    return me;
}

/* ---- set-up ---------------------------------------------------------------------------------- */

static void apply_skin_lists(arm_inst *a) {
    const sinew_model_armature *d = a->data;
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        a->list_first[s] = 0;
        a->list_count[s] = 0;
    }
    uint32_t skins[2] = {a->default_skin, a->skin};
    for (int pass = 0; pass < 2; ++pass) {
        uint32_t sk = skins[pass];
        if (sk >= d->skin_count || (pass == 1 && sk == a->default_skin))
            continue;
        const sinew_model_skin *skin = &d->skins[sk];
        for (uint32_t k = 0; k < skin->slot_count; ++k) {
            uint32_t ssi = skin->first_slot + k;
            if (ssi >= d->skin_slot_count)
                break;
            const sinew_model_skin_slot *ss = &d->skin_slots[ssi];
            if (ss->slot >= a->slot_count)
                continue;
            a->list_first[ss->slot] = ss->first_display;
            a->list_count[ss->slot] = ss->display_count;
        }
    }
}

static void reset_arm(arm_inst *a) {
    const sinew_model_armature *d = a->data;
    for (uint32_t b = 0; b < a->bone_count; ++b) {
        double *p = a->pose + (size_t)b * 6;
        p[0] = p[1] = p[2] = p[3] = 0.0;
        p[4] = p[5] = 1.0;
        memset(&a->blend[b], 0, sizeof(blend_state));
        a->bone_dirty[b] = 1;
        a->local_ok[b] = 0;
        a->global_valid[b] = 0;
        double *g = a->global + (size_t)b * 6;
        g[0] = g[1] = g[2] = g[3] = 0.0;
        g[4] = g[5] = 1.0;
    }
    for (uint32_t i = 0; i < d->surface_count; ++i) {
        surface_rt *sf = &a->surfaces[i];
        memset(sf->deform, 0, sf->n * sizeof(double));
        memset(sf->verts, 0, sf->n * sizeof(double));
        for (uint32_t c = 0; c < sf->cell_count; ++c)
            sf->cells[7 * (size_t)c] = -1.0;
    }
    for (uint32_t k = 0; k < d->ik_count; ++k) {
        a->ik_weight[k] = d->iks[k].weight;
        a->ik_bend[k] = d->iks[k].bend_positive;
    }
    sinew__path_reset(a);
    if (d->v6) {
        /* the official constraints as created: transform constraints dirty, physics awake and
           resetting at its first update, path values from the data */
        memset(a->tc_dirty, 1, a->bone_count);
        memset(a->bone_cfi, 0xff, ((size_t)a->bone_count + a->slot_count) * sizeof(uint32_t));
        for (uint32_t c = 0; c < d->physics_count; ++c) {
            memset(&a->physics[c], 0, sizeof(physics_rt));
            a->physics[c].reset = 1;
        }
        for (uint32_t c = 0; c < d->path_constraint_count; ++c) {
            const sinew_model_path_constraint *C = &d->path_constraints[c];
            path_values6 *pv = &a->path6[c];
            pv->position = C->position;
            pv->spacing = C->spacing;
            pv->rotate_weight = C->rotate_mix;
            pv->x_weight = C->x_weight;
            pv->y_weight = C->y_weight;
            pv->dirty = 0;
        }
    }
    a->default_skin = find_skin(d, "");
    if (a->default_skin == SINEW_INVALID_INDEX && d->skin_count > 0)
        a->default_skin = 0;
    if (d->v6)
        sinew__deform6_reset(a);
    apply_skin_lists(a);
    for (uint32_t s = 0; s < a->slot_count; ++s) {
        const sinew_model_slot *sd = &d->slots[s];
        a->display_index[s] = -1;
        a->anim_display_index[s] = -1;
        a->zorder[s] = (int32_t)s;
        a->draw_order[s] = s;
        a->color[s] = sd->color;
        a->cur_display[s] = SINEW_INVALID_INDEX;
        a->cur_mesh[s] = SINEW_INVALID_INDEX;
        if (a->masked_by)
            a->masked_by[s] = SINEW_INVALID_INDEX;
        a->cur_child[s] = SINEW_INVALID_INDEX;
        a->deform_len[s] = 0;
        a->display_dirty[s] = 0;
        if (a->slot_gxy) {
            memset(a->slot_gxy + 4 * (size_t)s, 0, 4 * sizeof(double));
            a->slot_gxy_new[s] = 0;
        }
        a->slot_origin[s] = SINEW_INVALID_INDEX;
        if (sinew__deform_cap(a, s))
            memset(a->deform + sinew__deform_first(a, s), 0, sinew__deform_cap(a, s) * sizeof(float));
        a->deform_nz[s] = 0;
        /* the official build: _setDisplayIndex(setup, true) */
        a->anim_display_index[s] = sd->display_index;
        a->display_index[s] = sinew__slot_display_clamp(a, s, sd->display_index);
        sinew__slot_update_display_data(a, s);
    }
    a->proxy_mask = SINEW_INVALID_INDEX;
    sinew__mask6_reset(a);
    a->state_count = 0;
    a->last_state = -1;
    a->action_count = 0;
    a->time_scale = 1.0;
    a->inherit_time_scale = 1.0;
    a->zorder_dirty = false;
    a->slots_dirty = false;
    a->zindex_dirty = false;
    for (uint32_t s = 0; a->z_index && s < a->slot_count; ++s) { /* 6.0: the first update sorts by zIndex */
        a->z_index[s] = d->slots[s].z_index;
        a->slots_dirty |= a->z_index[s] != 0.0;
    }
    a->lock_update = false;
}

static sinew_status not_found(sinew_error *err, const char *what, const char *name, const char *const *names,
                              uint32_t count) {
    char list[200];
    size_t used = 0;
    list[0] = 0;
    for (uint32_t i = 0; i < count && used + 4 < sizeof list; ++i) {
        int w = snprintf(list + used, sizeof list - used, "%s'%s'", i ? ", " : "", names[i] ? names[i] : "");
        if (w < 0)
            break;
        used += (size_t)w;
        if (used >= sizeof list) {
            used = sizeof list - 1;
            break;
        }
    }
    if (count == 0)
        snprintf(list, sizeof list, "none");
    return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "no %s '%s' (have: %s)", what, name ? name : "", list);
}

static sinew_status arm_names_error(const struct sinew_data *data, const char *name, sinew_error *err) {
    const char *names[64];
    uint32_t n = data->armature_count < 64 ? data->armature_count : 64;
    for (uint32_t i = 0; i < n; ++i)
        names[i] = data->armatures[i].name;
    return not_found(err, "armature", name, names, n);
}

static sinew_status skin_names_error(const sinew_model_armature *arm, const char *name, sinew_error *err) {
    const char *names[64];
    uint32_t n = arm->skin_count < 64 ? arm->skin_count : 64;
    for (uint32_t i = 0; i < n; ++i)
        names[i] = arm->skins[i].name;
    return not_found(err, "skin", name, names, n);
}

static sinew_status anim_names_error(const sinew_model_armature *arm, const char *name, sinew_error *err) {
    const char *names[64];
    uint32_t n = arm->animation_count < 64 ? arm->animation_count : 64;
    for (uint32_t i = 0; i < n; ++i)
        names[i] = arm->animations[i].name;
    return not_found(err, "animation", name, names, n);
}

static uint32_t find_armature(const struct sinew_data *data, const char *name, size_t len) {
    for (uint32_t i = 0; i < data->armature_count; ++i) {
        const char *n = data->armatures[i].name;
        if (n && strlen(n) == len && memcmp(n, name, len) == 0)
            return i;
    }
    return SINEW_INVALID_INDEX;
}

sinew_status sinew_data_resolve_skin(const struct sinew_data *data, const char *armature, const char *skin,
                                     uint32_t *armature_index, const char **skin_overlay, sinew_error *err) {
    if (armature_index)
        *armature_index = SINEW_INVALID_INDEX;
    if (skin_overlay)
        *skin_overlay = NULL;
    if (!data || !armature_index || !skin_overlay)
        return sinew__fail(err, SINEW_E_ARG, NULL, "data, armature_index and skin_overlay are required");
    if (data->armature_count == 0)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "the data has no armature");
    uint32_t ai = sinew_data_default_armature(data);
    if (armature) {
        ai = find_armature(data, armature, strlen(armature));
        if (ai == SINEW_INVALID_INDEX)
            return arm_names_error(data, armature, err);
    }
    const bool xml = data->source_format && strcmp(data->source_format, "xml") == 0;
    if (!skin || !skin[0]) {
        *armature_index = ai;
        return SINEW_OK;
    }
    const sinew_model_armature *arm = &data->armatures[ai];
    if (!xml) {
        uint32_t k = find_skin(arm, skin);
        if (k == SINEW_INVALID_INDEX)
            return skin_names_error(arm, skin, err);
        *armature_index = ai;
        *skin_overlay = arm->skins[k].name;
        return SINEW_OK;
    }
    /* XML rig: the base armature NAME, then NAME@skin */
    const char *base = arm->name ? arm->name : "";
    size_t base_len = strlen(base);
    const char *at = strchr(base, '@');
    if (at && find_armature(data, base, (size_t)(at - base)) != SINEW_INVALID_INDEX)
        base_len = (size_t)(at - base);
    const char *names[64];
    uint32_t n = 0;
    for (uint32_t i = 0; i < data->armature_count; ++i) {
        const char *nm = data->armatures[i].name;
        if (!nm || strncmp(nm, base, base_len) != 0 || nm[base_len] != '@')
            continue;
        if (strcmp(nm + base_len + 1, skin) == 0) {
            *armature_index = i;
            return SINEW_OK;
        }
        if (n < 64)
            names[n++] = nm + base_len + 1;
    }
    return not_found(err, "skin", skin, names, n);
}

sinew_status sinew_instance_create(const struct sinew_data *data, const sinew_instance_options *opt,
                                   sinew_instance **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "out is NULL");
    *out = NULL;
    if (!data)
        return sinew__fail(err, SINEW_E_ARG, NULL, "data is NULL");
    if (data->armature_count == 0)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "the data has no armature");
    uint32_t ai = sinew_data_default_armature(data);
    if (opt && opt->armature) {
        ai = SINEW_INVALID_INDEX;
        for (uint32_t i = 0; i < data->armature_count; ++i)
            if (data->armatures[i].name && strcmp(data->armatures[i].name, opt->armature) == 0) {
                ai = i;
                break;
            }
        if (ai == SINEW_INVALID_INDEX)
            return arm_names_error(data, opt->armature, err);
    }
    if (opt && opt->frame_cache && opt->frame_cache->data != data)
        return sinew__fail(err, SINEW_E_ARG, NULL, "the frame cache was made for other data");
    if (opt && (unsigned)opt->random > (unsigned)SINEW_RANDOM_CALLBACK)
        return sinew__fail(err, SINEW_E_ARG, NULL, "unknown random source %d", (int)opt->random);
    if (opt && opt->random == SINEW_RANDOM_CONSTANT && !(opt->random_constant >= 0.0 && opt->random_constant < 1.0))
        return sinew__fail(err, SINEW_E_ARG, NULL, "the random constant must be in [0, 1) (%g)", opt->random_constant);
    if (opt && opt->random == SINEW_RANDOM_CALLBACK && !opt->random_fn)
        return sinew__fail(err, SINEW_E_ARG, NULL, "SINEW_RANDOM_CALLBACK needs random_fn");
    const sinew_model_armature *top = &data->armatures[ai];
    uint32_t skin = SINEW_INVALID_INDEX;
    if (opt && opt->skin && opt->skin[0]) {
        skin = find_skin(top, opt->skin);
        if (skin == SINEW_INVALID_INDEX)
            return skin_names_error(top, opt->skin, err);
    }
    uint32_t total = 0;
    count_arms(data, ai, 0, &total);
    if (total >= MAX_ARMS)
        return sinew__fail(err, SINEW_E_LIMIT, NULL, "too many nested child armatures");

    for (int pass = 0; pass < 2; ++pass) {
        carver cv = {NULL, 0, true};
        sinew_instance *inst = NULL;
        const sinew_allocator *al = sinew__allocator_or_default(opt ? opt->allocator : NULL);
        carver *c = &cv;
        char *block = NULL;
        size_t size = 0;
        if (pass == 1) {
            size = (size_t)total;
            block = sinew__alloc(al, size);
            if (!block)
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (%zu bytes)", size);
            memset(block, 0, size);
            cv.base = block;
        }
        inst = carve(c, 1, sizeof(sinew_instance));
        uint32_t arm_total = 0;
        count_arms(data, ai, 0, &arm_total);
        arm_inst *arms = carve(c, arm_total, sizeof(arm_inst));
        uint32_t cap = opt && opt->max_states ? opt->max_states : SINEW_STATE_DEFAULT;
        if (cap > SINEW_STATE_MAX)
            cap = SINEW_STATE_MAX;
        uint32_t reserve = opt && opt->reserved_states ? opt->reserved_states : SINEW_STATE_RESERVE;
        if (reserve > cap)
            reserve = cap;
        layout_ctx lc = {data, c, cap, reserve, arms, 0, 0, 0, 0, 0, 0, 0, 0};
        layout_arm(&lc, ai, SINEW_INVALID_INDEX, 0);
        uint32_t ecap = opt && opt->max_events
                            ? opt->max_events
                            : SINEW_EVENT_CAP + SINEW_EVENT_CAP_CHILD * (lc.next > 1 ? lc.next - 1 : 0);
        if (ecap > SINEW_EVENT_MAX)
            ecap = SINEW_EVENT_MAX;
        event_rec *events = carve(c, ecap, sizeof(event_rec));
        uint32_t *clock = carve(c, lc.next, sizeof(uint32_t));
        if (!cv.ok || cv.off > UINT32_MAX)
            return sinew__fail(err, SINEW_E_LIMIT, NULL, "instance too large");
        if (pass == 0) {
            total = (uint32_t)cv.off;
            continue;
        }
        inst->data = data;
        inst->atlas = opt ? opt->atlas : NULL;
        inst->allocator = al;
        inst->size = size;
        inst->arm_count = lc.next;
        inst->arms = arms;
        inst->events = events;
        inst->event_cap = ecap;
        inst->clock = clock;
        inst->clock_count = 0;
        inst->dl_vertex_cap = lc.dl_vertices;
        inst->dl_index_cap = lc.dl_indices;
        inst->dl_cmd_cap = lc.dl_cmds;
        inst->no_clock = opt && opt->no_clock;
        inst->random_kind = (uint8_t)(opt ? opt->random : SINEW_RANDOM_DEFAULT);
        inst->random_constant = opt ? opt->random_constant : 0.5;
        inst->random_state = opt ? opt->random_seed : 0;
        inst->random_fn = opt ? opt->random_fn : NULL;
        inst->random_user = opt ? opt->random_user : NULL;
        inst->dl_shape_points = lc.dl_shape_points;
        inst->dl_shape_contours = lc.dl_shape_contours;
        inst->dl_shape_ctrl = lc.dl_shape_ctrl;
        inst->dl_mask_slots = lc.dl_mask_slots;
        sinew_frame_cache *fc = opt ? opt->frame_cache : NULL;
        for (uint32_t i = 0; i < inst->arm_count; ++i) {
            /* the atlas region of each display, looked up once for the draw list */
            const sinew_model_armature *d = arms[i].data;
            for (uint32_t k = 0; k < d->display_count; ++k) {
                const sinew_model_display *dd = &d->displays[k];
                arms[i].display_region[k] =
                    inst->atlas ? sinew__atlas_find_region(inst->atlas, dd->path ? dd->path : dd->name)
                                : SINEW_INVALID_INDEX;
            }
            arms[i].skin = i == 0 ? skin : SINEW_INVALID_INDEX;
            reset_arm(&arms[i]);
            arms[i].active = false;
            arms[i].cache = fc ? &fc->armatures[arms[i].data_index] : NULL;
            arms[i].cache_frame_index = -1;
        }
        /* The official build order: children first (setup pose), then the top armature; a
         * displayed child starts its default animation when its slot first shows it. */
        for (uint32_t i = inst->arm_count; i-- > 1;)
            sinew__arm_advance(inst, i, 0.0);
        sinew__arm_advance(inst, 0, 0.0);
        sinew__clock_add(inst, 0);
        if (opt && opt->run_default_actions) {
            const sinew_model_armature *d0 = inst->arms[0].data;
            for (uint32_t k = 0; k < d0->default_action_count; ++k) {
                const sinew_model_action *act = &d0->actions[d0->first_default_action + k];
                sinew_error ignored = {0};
                if (act->type == SINEW_ACTION_PLAY)
                    sinew_instance_play(inst, act->name, act->play_times, &ignored);
                else if (act->type == SINEW_ACTION_FADE_IN) {
                    sinew_fade_options f = sinew_fade_defaults();
                    f.play_times = act->play_times;
                    sinew_instance_fade_in(inst, 0, act->name, &f, &ignored);
                } else if (act->type == SINEW_ACTION_STOP)
                    sinew_instance_stop(inst, 0, act->name && act->name[0] ? act->name : NULL);
            }
        }
        *out = inst;
        return SINEW_OK;
    }
    return sinew__fail(err, SINEW_E_ARG, NULL, "unreachable");
}

void sinew_instance_destroy(sinew_instance *inst) {
    if (!inst)
        return;
    for (uint32_t i = 0; i < inst->arm_count; ++i) {
        arm_inst *a = &inst->arms[i];
        if (a->rep)
            sinew__free(inst->allocator, a->rep, a->slot_count * sizeof(slot_rep));
        if (a->offset)
            sinew__free(inst->allocator, a->offset, sinew__offset_bytes(a));
        for (uint32_t k = 0; k < a->state_held; ++k)
            if (sinew__state_storage_grown(inst, a->states[k].tls))
                sinew__free(inst->allocator, a->states[k].tls, sinew__arm_state_bytes(a));
    }
    sinew__drawlist_free(inst);
    sinew__free(inst->allocator, inst, inst->size);
}

size_t sinew_instance_memory(const sinew_instance *inst) {
    if (!inst)
        return 0;
    size_t n = inst->size;
    for (uint32_t i = 0; i < inst->arm_count; ++i) {
        const arm_inst *a = &inst->arms[i];
        if (a->rep)
            n += a->slot_count * sizeof(slot_rep);
        if (a->offset)
            n += sinew__offset_bytes(a);
        for (uint32_t k = 0; k < a->state_held; ++k)
            if (sinew__state_storage_grown(inst, a->states[k].tls))
                n += sinew__arm_state_bytes(a);
    }
    return n + sinew__drawlist_bytes(inst);
}

sinew_status sinew_instance_set_skin(sinew_instance *inst, const char *skin, sinew_error *err) {
    if (!inst)
        return sinew__fail(err, SINEW_E_ARG, NULL, "instance is NULL");
    arm_inst *a = &inst->arms[0];
    uint32_t sk = SINEW_INVALID_INDEX;
    if (skin && skin[0]) {
        sk = find_skin(a->data, skin);
        if (sk == SINEW_INVALID_INDEX)
            return skin_names_error(a->data, skin, err);
    }
    a->skin = sk;
    apply_skin_lists(a);
    for (uint32_t s = 0; s < a->slot_count; ++s)
        sinew__slot_update_display_data(a, s);
    if (a->data->v6)
        sinew__deform6_forget_unlisted(a);
    return SINEW_OK;
}

/* ---- update ---------------------------------------------------------------------------------- */

/* ---- the official state pool, as far as undelivered events see it ---------------------------- */

void sinew__state_buffered(sinew_instance *inst, uint32_t serial) {
    if (inst->buffered_count == SINEW_RECYCLE_CAP) {
        memmove(inst->buffered, inst->buffered + 1, (SINEW_RECYCLE_CAP - 1) * sizeof *inst->buffered);
        inst->buffered_count--;
    }
    inst->buffered[inst->buffered_count++] = serial;
}

void sinew__state_recycled(sinew_instance *inst, uint32_t serial) {
    for (uint32_t k = inst->event_count - inst->ev_unsealed; k < inst->event_count; ++k) {
        uint32_t slot = (inst->event_head + k) % inst->event_cap;
        if (inst->events[slot].serial == serial)
            inst->events[slot].state_ended = 1;
    }
    if (inst->recycled_count == SINEW_RECYCLE_CAP) {
        memmove(inst->recycled, inst->recycled + 1, (SINEW_RECYCLE_CAP - 1) * sizeof *inst->recycled);
        inst->recycled_count--;
    }
    inst->recycled[inst->recycled_count++] = serial;
}

void sinew__state_reused(sinew_instance *inst, uint32_t ai, const anim_state *st) {
    if (inst->recycled_count == 0)
        return;
    uint32_t old = inst->recycled[--inst->recycled_count];
    for (uint32_t k = inst->event_count - inst->ev_unsealed; k < inst->event_count; ++k) {
        uint32_t slot = (inst->event_head + k) % inst->event_cap;
        event_rec *e = &inst->events[slot];
        if (e->serial != old)
            continue;
        e->serial = st->serial;
        e->state_arm = (uint16_t)ai;
        e->state_ended = 0;
        e->animation = st->anim && st->anim->name ? st->anim->name : "";
    }
}

/* Marks undelivered events whose state is gone (see sinew_event.state_ended). */
static void mark_ended(sinew_instance *inst) {
    for (uint32_t k = inst->event_count - inst->ev_unsealed; k < inst->event_count; ++k) {
        uint32_t slot = (inst->event_head + k) % inst->event_cap;
        event_rec *e = &inst->events[slot];
        if (e->serial == 0)
            continue;
        const arm_inst *a = &inst->arms[e->state_arm];
        bool alive = false;
        for (uint32_t i = 0; i < a->state_count && !alive; ++i)
            alive = a->states[i].serial == e->serial;
        if (!alive)
            e->state_ended = 1;
    }
}

static void zero_advance(sinew_instance *inst, uint32_t ai) {
    sinew__arm_advance(inst, ai, 0.0);
    arm_inst *a = &inst->arms[ai];
    for (uint32_t i = 0; i < a->slot_count; ++i) {
        uint32_t child = a->cur_child[a->draw_order[i]];
        if (child != SINEW_INVALID_INDEX)
            zero_advance(inst, child);
    }
}

void sinew_instance_update(sinew_instance *inst, double dt) {
    if (!inst || inst->updating)
        return;
    if (!isfinite(dt))
        dt = 0.0;
    if (dt > 3600.0)
        dt = 3600.0;
    if (dt < -3600.0)
        dt = -3600.0;
    inst->updating = true;
    /* Events are delivered at the end of an update. Like the official runtime, which recycles
     * removed states at the start of a clock tick, an event still undelivered then whose state is
     * gone is marked; a zero step stands for a direct zero-time update followed by a flush. */
    if (dt != 0.0) {
        /* the tick begins by returning the states removed since the last one to the pool */
        mark_ended(inst);
        for (uint32_t i = 0; i < inst->buffered_count; ++i)
            sinew__state_recycled(inst, inst->buffered[i]);
        inst->buffered_count = 0;
        /* the official WorldClock: in the order armatures joined it; one that joins during this
         * update (a child shown now) waits for the next; removed ones leave a hole until the end */
        /* the official WorldClock's time, which 6.0 physics reads, advances before its armatures */
        inst->clock_time += fabs(dt);
        inst->clock_pos = 0;
        inst->clock_end = inst->clock_count;
        while (inst->clock_pos < inst->clock_end) {
            uint32_t a = inst->clock[inst->clock_pos++];
            if (a != SINEW_INVALID_INDEX)
                sinew__arm_advance(inst, a, dt);
        }
        uint32_t w = 0;
        for (uint32_t i = 0; i < inst->clock_count; ++i)
            if (inst->clock[i] != SINEW_INVALID_INDEX)
                inst->clock[w++] = inst->clock[i];
        inst->clock_count = w;
        inst->clock_pos = inst->clock_end = 0;
    } else {
        /* a zero step (the oracle's advanceTime(0) of the armature and, recursively, of the child
         * armatures its slots show, in draw order) */
        zero_advance(inst, 0);
    }
    if (dt == 0.0)
        mark_ended(inst);
    inst->ev_unsealed = 0;
    inst->recycled_count = 0; /* what is left in the pool has no undelivered event any more */
    inst->updating = false;
    if (inst->event_fn) {
        sinew_event ev;
        while (sinew_instance_poll_event(inst, &ev))
            inst->event_fn(inst->event_user, inst, &ev);
    }
}

/* ---- animation control ---------------------------------------------------------------------- */

static arm_inst *arm_at(sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? &inst->arms[ai] : NULL;
}

sinew_fade_options sinew_fade_defaults(void) {
    sinew_fade_options o;
    memset(&o, 0, sizeof o);
    o.fade_in_time = -1.0;
    o.play_times = -1;
    o.layer = 0;
    o.group = NULL;
    o.fade_out_mode = SINEW_FADE_OUT_SAME_LAYER_AND_GROUP;
    o.weight = 1.0;
    o.time_scale = -100.0;
    o.pause_fade_in = true;
    return o;
}

static sinew_status lookup_anim(sinew_instance *inst, uint32_t ai, const char *anim, uint32_t *out,
                                sinew_error *err) {
    arm_inst *a = arm_at(inst, ai);
    if (!a)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no armature %u in the instance", ai);
    *out = sinew__find_animation(a->data, anim);
    if (*out == SINEW_INVALID_INDEX)
        return anim_names_error(a->data, anim, err);
    return SINEW_OK;
}

sinew_status sinew_instance_play_on(sinew_instance *inst, uint32_t ai, const char *anim,
                                    int32_t play_times, sinew_error *err) {
    if (!anim || !anim[0]) {
        if (!arm_at(inst, ai))
            return sinew__fail(err, SINEW_E_ARG, NULL, "no armature %u in the instance", ai);
        sinew__arm_play_last(inst, ai, play_times);
        return SINEW_OK;
    }
    uint32_t an;
    sinew_status st = lookup_anim(inst, ai, anim, &an, err);
    if (st != SINEW_OK)
        return st;
    sinew__arm_fade_in(inst, ai, an, 0.0, play_times, 0, NULL, SINEW_FADE_OUT_ALL, true, -100.0, 0.0,
                       1.0, true);
    return SINEW_OK;
}

sinew_status sinew_instance_play(sinew_instance *inst, const char *anim, int32_t play_times,
                                 sinew_error *err) {
    return sinew_instance_play_on(inst, 0, anim, play_times, err);
}

sinew_status sinew_instance_fade_in(sinew_instance *inst, uint32_t ai, const char *anim,
                                    const sinew_fade_options *opt, sinew_error *err) {
    uint32_t an;
    sinew_status st = lookup_anim(inst, ai, anim, &an, err);
    if (st != SINEW_OK)
        return st;
    sinew_fade_options o = opt ? *opt : sinew_fade_defaults();
    if (!isfinite(o.fade_in_time))
        o.fade_in_time = -1.0;
    /* an infinite scale would make the fade-in's zero-time update (0 x inf) a NaN playhead */
    if (isnan(o.time_scale) || o.time_scale == INFINITY)
        return sinew__fail(err, SINEW_E_ARG, NULL, "fade-in of '%s': time_scale must be a finite number (<= -100: "
                           "the animation's own)", anim);
    if (!isfinite(o.weight))
        return sinew__fail(err, SINEW_E_ARG, NULL, "fade-in of '%s': weight must be a finite number", anim);
    sinew__arm_fade_in(inst, ai, an, o.fade_in_time, o.play_times, o.layer, o.group, (int)o.fade_out_mode,
                       true, o.time_scale, 0.0, o.weight, o.pause_fade_in);
    return SINEW_OK;
}

static double goto_position(const arm_inst *a, uint32_t an, sinew_goto_unit unit, double value) {
    const sinew_model_animation *anim = &a->data->animations[an];
    double dur = (double)anim->frame_count / (double)a->data->frame_rate;
    if (!isfinite(value))
        value = 0.0;
    switch (unit) {
    case SINEW_GOTO_FRAME:
        return anim->frame_count > 0 ? dur * value / (double)anim->frame_count : 0.0; /* 6.0: may be 0 */
    case SINEW_GOTO_PROGRESS:
        return dur * (value > 0.0 ? value : 0.0);
    default:
        return value;
    }
}

sinew_status sinew_instance_goto_and_play(sinew_instance *inst, uint32_t ai, const char *anim,
                                          sinew_goto_unit unit, double value, int32_t play_times,
                                          sinew_error *err) {
    uint32_t an;
    sinew_status st = lookup_anim(inst, ai, anim, &an, err);
    if (st != SINEW_OK)
        return st;
    double pos = goto_position(&inst->arms[ai], an, unit, value);
    sinew__arm_fade_in(inst, ai, an, 0.0, play_times, 0, NULL, SINEW_FADE_OUT_ALL, true, -100.0, pos,
                       1.0, true);
    return SINEW_OK;
}

sinew_status sinew_instance_goto_and_stop(sinew_instance *inst, uint32_t ai, const char *anim,
                                          sinew_goto_unit unit, double value, sinew_error *err) {
    uint32_t an;
    sinew_status st = lookup_anim(inst, ai, anim, &an, err);
    if (st != SINEW_OK)
        return st;
    double pos = goto_position(&inst->arms[ai], an, unit, value);
    int32_t idx = sinew__arm_fade_in(inst, ai, an, 0.0, 1, 0, NULL, SINEW_FADE_OUT_ALL, true, -100.0,
                                     pos, 1.0, true);
    if (idx >= 0)
        inst->arms[ai].states[idx].playhead_state &= 1;
    return SINEW_OK;
}

static anim_state *state_by_name(sinew_instance *inst, uint32_t ai, const char *anim);

void sinew_instance_stop(sinew_instance *inst, uint32_t ai, const char *anim) {
    arm_inst *a = arm_at(inst, ai);
    if (!a)
        return;
    if (anim) { /* the official stop(name) stops getState(name): the newest state of that name */
        anim_state *st = state_by_name(inst, ai, anim);
        if (st)
            st->playhead_state &= 1;
        return;
    }
    for (uint32_t i = 0; i < a->state_count; ++i)
        a->states[i].playhead_state &= 1;
}

void sinew_instance_set_time_scale(sinew_instance *inst, uint32_t ai, double scale) {
    arm_inst *a = arm_at(inst, ai);
    if (a && isfinite(scale))
        a->time_scale = scale;
}

uint32_t sinew_instance_state_count(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? inst->arms[ai].state_count : 0;
}

bool sinew_instance_state(const sinew_instance *inst, uint32_t ai, uint32_t i, sinew_state_info *out) {
    if (!inst || ai >= inst->arm_count || i >= inst->arms[ai].state_count || !out)
        return false;
    const anim_state *st = &inst->arms[ai].states[i];
    out->name = st->anim->name;
    out->group = st->group;
    out->layer = st->layer;
    out->play_times = st->play_times;
    out->current_play_times = st->action_tl.current_play_times < 0 ? 0 : st->action_tl.current_play_times;
    out->current_time = st->action_tl.current_time < 0.0 ? 0.0 : st->action_tl.current_time;
    out->duration = st->duration;
    out->weight = st->weight;
    out->fade_progress = st->fade_progress;
    out->time_scale = st->time_scale;
    out->completed = st->action_tl.play_state > 0;
    out->playing = (st->playhead_state & 2) != 0 && st->action_tl.play_state <= 0;
    out->fading_in = st->fade_state < 0;
    out->fading_out = st->fade_state > 0;
    return true;
}

static anim_state *state_by_name(sinew_instance *inst, uint32_t ai, const char *anim) {
    arm_inst *a = arm_at(inst, ai);
    if (!a || !anim)
        return NULL;
    for (uint32_t i = a->state_count; i-- > 0;)
        if (strcmp(a->states[i].anim->name, anim) == 0)
            return &a->states[i];
    return NULL;
}

bool sinew_instance_state_set_time_scale(sinew_instance *inst, uint32_t ai, const char *anim, double scale) {
    anim_state *st = state_by_name(inst, ai, anim);
    if (!st || !isfinite(scale))
        return false;
    st->time_scale = scale;
    return true;
}

bool sinew_instance_state_set_weight(sinew_instance *inst, uint32_t ai, const char *anim, double weight) {
    anim_state *st = state_by_name(inst, ai, anim);
    if (!st || !isfinite(weight))
        return false;
    sinew__state_set_weight(&inst->arms[ai], st, weight);
    return true;
}

/* ---- events ---------------------------------------------------------------------------------- */

const char *sinew_event_type_name(sinew_event_type type) {
    static const char *const names[] = {"start",          "loopComplete", "complete",
                                        "fadeIn",         "fadeInComplete", "fadeOut",
                                        "fadeOutComplete", "frameEvent",   "soundEvent"};
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "unknown";
}

void sinew_instance_set_event_callback(sinew_instance *inst, sinew_event_fn fn, void *user) {
    if (!inst)
        return;
    inst->event_fn = fn;
    inst->event_user = user;
}

bool sinew_instance_poll_event(sinew_instance *inst, sinew_event *out) {
    if (!inst || inst->event_count == 0)
        return false;
    if (out) {
        const event_rec *e = &inst->events[inst->event_head];
        const arm_inst *arm = &inst->arms[e->arm];
        const sinew_model_action *action = e->action;
        memset(out, 0, sizeof *out);
        out->type = (sinew_event_type)e->type;
        out->name = "";
        out->armature = arm->data->name ? arm->data->name : "";
        out->animation = e->animation ? e->animation : "";
        out->armature_index = e->arm;
        out->time = e->time;
        out->state_ended = e->state_ended != 0;
        if (action) {
            out->name = action->name ? action->name : "";
            if (action->bone < arm->data->bone_count)
                out->bone = arm->data->bones[action->bone].name;
            if (action->slot < arm->data->slot_count)
                out->slot = arm->data->slots[action->slot].name;
            out->ints = action->ints;
            out->floats = action->floats;
            out->strings = action->strings;
            out->int_count = action->int_count;
            out->float_count = action->float_count;
            out->string_count = action->string_count;
        }
    }
    inst->event_head = (inst->event_head + 1) % inst->event_cap;
    inst->event_count--;
    if (inst->ev_unsealed > inst->event_count)
        inst->ev_unsealed = inst->event_count;
    return true;
}

uint64_t sinew_instance_events_dropped(const sinew_instance *inst) { return inst ? inst->events_dropped : 0; }

uint64_t sinew_instance_states_dropped(const sinew_instance *inst) { return inst ? inst->states_dropped : 0; }

uint32_t sinew_instance_max_states(const sinew_instance *inst) {
    return inst && inst->arm_count ? inst->arms[0].state_cap : 0;
}

/* ---- pose queries ---------------------------------------------------------------------------- */

uint32_t sinew_instance_armature_count(const sinew_instance *inst) { return inst ? inst->arm_count : 0; }

const char *sinew_instance_armature_name(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? inst->arms[ai].data->name : NULL;
}

/* Armature ai's matrix into the top armature's space, composed top-down as the draw list composes
 * it (so the two agree to the bit); false when a parent slot does not show it now. */
static bool placement(const sinew_instance *inst, uint32_t ai, uint32_t depth, float *m) {
    if (ai == 0) {
        static const float id[6] = {1, 0, 0, 1, 0, 0};
        memcpy(m, id, sizeof id);
        return true;
    }
    const arm_inst *c = &inst->arms[ai];
    if (c->parent_arm >= inst->arm_count || depth > inst->arm_count)
        return false;
    const arm_inst *p = &inst->arms[c->parent_arm];
    if (c->parent_slot >= p->slot_count || p->cur_child[c->parent_slot] != ai || p->display_index[c->parent_slot] < 0)
        return false; /* not shown by its parent now */
    float pm[6];
    if (!placement(inst, c->parent_arm, depth + 1, pm))
        return false;
    sinew__affine_concat(c->parent_arm == 0 ? NULL : pm, p->slot_world + (size_t)c->parent_slot * 6, m);
    return true;
}

bool sinew_instance_armature_placement(const sinew_instance *inst, uint32_t ai, sinew_affine *to_top) {
    float m[6];
    if (!inst || ai >= inst->arm_count || !placement(inst, ai, 0, m))
        return false;
    if (to_top)
        *to_top = (sinew_affine){m[0], m[1], m[2], m[3], m[4], m[5]};
    return true;
}

uint32_t sinew_instance_bone_count(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? inst->arms[ai].bone_count : 0;
}

bool sinew_instance_bone(const sinew_instance *inst, uint32_t ai, uint32_t bone, const char **name,
                         uint32_t *parent, sinew_affine *world) {
    if (!inst || ai >= inst->arm_count || bone >= inst->arms[ai].bone_count)
        return false;
    const arm_inst *a = &inst->arms[ai];
    if (name)
        *name = a->data->bones[bone].name;
    if (parent)
        *parent = a->data->bones[bone].parent;
    if (world) {
        const double *m = a->world + (size_t)bone * 6;
        world->a = (float)m[0];
        world->b = (float)m[1];
        world->c = (float)m[2];
        world->d = (float)m[3];
        world->tx = (float)m[4];
        world->ty = (float)m[5];
    }
    return true;
}

uint32_t sinew_instance_slot_count(const sinew_instance *inst, uint32_t ai) {
    return inst && ai < inst->arm_count ? inst->arms[ai].slot_count : 0;
}

bool sinew_instance_slot(sinew_instance *inst, uint32_t ai, uint32_t draw_index, sinew_slot_state *out) {
    if (!inst || ai >= inst->arm_count || draw_index >= inst->arms[ai].slot_count || !out)
        return false;
    arm_inst *a = &inst->arms[ai];
    uint32_t s = a->draw_order[draw_index];
    const sinew_model_slot *sd = &a->data->slots[s];
    memset(out, 0, sizeof *out);
    out->name = sd->name;
    out->index = s;
    out->parent = sd->parent;
    out->display_index = a->display_index[s];
    uint32_t disp = a->cur_display[s];
    const sinew_model_display *dd = disp != SINEW_INVALID_INDEX ? sinew__arm_display(a, disp) : NULL;
    out->display_name = dd ? dd->name : NULL;
    out->display_path = dd ? dd->path : NULL;
    out->display_type = dd ? (int)dd->type : -1;
    out->visible = true;
    out->draw_index = draw_index;
    out->color = a->color[s];
    out->blend = sd->blend;
    if (a->slot_gxy_new && a->slot_gxy_new[s]) {
        /* a read takes the slot's new place over, as the official Slot.updateGlobalTransform does;
         * a surface parent chooses the slot's cell by it (pose.c) */
        a->slot_gxy_new[s] = 0;
        a->slot_gxy[4 * (size_t)s] = a->slot_gxy[4 * (size_t)s + 2];
        a->slot_gxy[4 * (size_t)s + 1] = a->slot_gxy[4 * (size_t)s + 3];
    }
    if (a->slot_changed[s] == SLOT_UNREAD) /* read: its matrix stays as it is now (pose.c) */
        a->slot_changed[s] = 0;
    const float *m = a->slot_world + (size_t)s * 6;
    out->world.a = m[0];
    out->world.b = m[1];
    out->world.c = m[2];
    out->world.d = m[3];
    out->world.tx = m[4];
    out->world.ty = m[5];
    if (a->cur_mesh[s] != SINEW_INVALID_INDEX) {
        out->mesh_vertices = a->mesh_out + sinew__deform_first(a, s);
        out->mesh_vertex_count = a->data->meshes[a->cur_mesh[s]].vertex_count;
        out->mesh_weighted = a->data->meshes[a->cur_mesh[s]].weighted;
    }
    out->masked_by = a->masked_by ? a->masked_by[s] : SINEW_INVALID_INDEX;
    if (a->mask6 && a->mask6->mask_on[s] && a->mask6->mask_range[s] > 0.0) {
        out->mask = true;
        out->mask_range = a->mask6->mask_range[s];
    }
    if (dd && dd->type == SINEW_DISPLAY_PATH && a->data->v6 && dd->path_data < a->data->path_count) {
        /* 6.0: the path's points as its constraint places them, into the slot's vertex storage */
        const sinew_model_path *P = &a->data->paths[dd->path_data];
        float *out_v = a->mesh_out + sinew__deform_first(a, s);
        if (sinew__path6_points(a, s, dd, out_v, sinew__deform_cap(a, s))) {
            out->mesh_vertices = out_v;
            out->mesh_vertex_count = P->vertex_count;
            out->mesh_weighted = P->weighted;
        }
    }
    out->child_armature = a->cur_child[s];
    float pw, ph, tscale = 1.0f;
    const sinew_model_region *r =
        dd && dd->type == SINEW_DISPLAY_IMAGE ? sinew__slot_region(inst, a, s, &pw, &ph, &tscale) : NULL;
    if (r)
        sinew__image_pivot(a, s, dd, r, tscale, &out->pivot_x, &out->pivot_y);
    out->has_pivot = r || (dd && dd->type == SINEW_DISPLAY_IMAGE && inst->atlas); /* (0, 0) without a texture */
    return true;
}
