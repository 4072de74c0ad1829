/* sinew_script_issue: one scenario command -> the instance API (include/sinew/script.h). */
#include <math.h>

#include "anim/runtime_internal.h"
#include "base/error.h"
#include "sinew/script.h"

/* format/script_json.c reads fadeOutMode and unit by name into the index of its tables, in the
 * order of these values (it does not include the runtime's header) */
_Static_assert(SINEW_FADE_OUT_NONE == 0 && SINEW_FADE_OUT_SAME_LAYER_AND_GROUP == 3 && SINEW_FADE_OUT_SINGLE == 5 &&
                   SINEW_GOTO_TIME == 0 && SINEW_GOTO_PROGRESS == 2,
               "the scenario tables of format/script_json.c follow sinew_fade_out_mode and sinew_goto_unit");

sinew_status sinew_script_issue(sinew_instance *inst, const sinew_script_command *c, sinew_error *err) {
    if (!inst || !c)
        return sinew__fail(err, SINEW_E_ARG, NULL, "instance and command are required");
    switch (c->op) {
    case SINEW_OP_PLAY:
        return sinew_instance_play(inst, c->animation, c->play_times, err);
    case SINEW_OP_FADE_IN: {
        uint32_t an = c->animation ? sinew__find_animation(inst->arms[0].data, c->animation) : SINEW_INVALID_INDEX;
        if (an == SINEW_INVALID_INDEX) {
            sinew_fade_options o = sinew_fade_defaults();
            return sinew_instance_fade_in(inst, 0, c->animation, &o, err); /* reports the names */
        }
        double fade = isfinite(c->fade_in_time) ? c->fade_in_time : -1.0;
        int32_t idx = sinew__arm_fade_in(inst, 0, an, fade, c->play_times, c->layer, c->group, c->fade_out_mode,
                                         true, -100.0, 0.0, 1.0, true);
        /* The official scenario sets these on the state fadeIn returns, after the zero-time
         * update a fade-in of no fade time has run (so that update used weight 1). */
        if (idx >= 0) {
            anim_state *st = &inst->arms[0].states[idx];
            if (c->has_weight && isfinite(c->weight))
                st->weight = c->weight;
            if (c->has_time_scale && isfinite(c->time_scale))
                st->time_scale = c->time_scale;
        }
        return SINEW_OK;
    }
    case SINEW_OP_GOTO_AND_PLAY:
        return sinew_instance_goto_and_play(inst, 0, c->animation, (sinew_goto_unit)c->unit, c->value, c->play_times,
                                            err);
    case SINEW_OP_GOTO_AND_STOP:
        return sinew_instance_goto_and_stop(inst, 0, c->animation, (sinew_goto_unit)c->unit, c->value, err);
    case SINEW_OP_STOP:
        sinew_instance_stop(inst, 0, c->animation);
        return SINEW_OK;
    case SINEW_OP_TIME_SCALE:
        sinew_instance_set_time_scale(inst, 0, c->value);
        return SINEW_OK;
    case SINEW_OP_STATE_WEIGHT:
        sinew_instance_state_set_weight(inst, 0, c->animation, c->value);
        return SINEW_OK;
    case SINEW_OP_STATE_TIME_SCALE:
        sinew_instance_state_set_time_scale(inst, 0, c->animation, c->value);
        return SINEW_OK;
    }
    return sinew__fail(err, SINEW_E_ARG, NULL, "unknown script op %d", (int)c->op);
}
