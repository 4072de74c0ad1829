/* The official adapters' mask rule, for the tests of the renderers until the runtime fills
 * arm_inst.masked_by itself (it is the runtime's: docs/dragonbones-6.0.md section 7): in draw order,
 * each slot showing a mask display (an image or shape with `mask` and `maskRange` > 0) clips the
 * next ceil(maskRange) slots, a later mask taking over. Call it after each update. */
#ifndef SINEW_TEST_MASK_RULE_H
#define SINEW_TEST_MASK_RULE_H

#include <math.h>

#include "anim/runtime_internal.h"

static inline void test_set_masks(sinew_instance *inst) {
    for (uint32_t ai = 0; inst && ai < inst->arm_count; ai++) {
        arm_inst *a = &inst->arms[ai];
        if (!a->masked_by) continue;
        for (uint32_t s = 0; s < a->slot_count; s++) a->masked_by[s] = SINEW_INVALID_INDEX;
        for (uint32_t k = 0; k < a->slot_count; k++) {
            uint32_t s = a->draw_order[k], disp = a->cur_display[s];
            if (disp == SINEW_INVALID_INDEX || a->display_index[s] < 0) continue;
            const sinew_model_display *dd = sinew__arm_display(a, disp);
            if ((dd->type != SINEW_DISPLAY_IMAGE && dd->type != SINEW_DISPLAY_SHAPE) || !dd->mask || !(dd->mask_range > 0))
                continue;
            for (uint32_t i = 1; i <= (uint32_t)ceil(dd->mask_range) && k + i < a->slot_count; i++)
                a->masked_by[a->draw_order[k + i]] = s;
        }
    }
}

#endif
