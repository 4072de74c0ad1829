/* sinew_instance_play_index (include/sinew/instance.h): play an animation by its index, the
 * number sinew_data_find_animation returns and sinew_data_get_animation_info takes. */
#include "anim/runtime_internal.h"
#include "base/error.h"

sinew_status sinew_instance_play_index(sinew_instance *inst, uint32_t ai, uint32_t animation, int32_t play_times,
                                       sinew_error *err) {
    if (!inst || ai >= inst->arm_count)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no armature %u in the instance", ai);
    const sinew_model_armature *d = inst->arms[ai].data;
    if (animation >= d->animation_count)
        return sinew__fail(err, SINEW_E_NOT_FOUND, NULL, "armature '%s' has %u animation%s: no animation %u",
                           d->name ? d->name : "", d->animation_count, d->animation_count == 1 ? "" : "s",
                           animation);
    /* what sinew_instance_play_on does once it has the index of the name */
    sinew__arm_fade_in(inst, ai, animation, 0.0, play_times, 0, NULL, SINEW_FADE_OUT_ALL, true, -100.0, 0.0, 1.0,
                       true);
    return SINEW_OK;
}
