/* The runtime's pass over a freshly loaded model (see sinew__model_prepare in model/model.h). */
#include "model/model.h"

sinew_status sinew__model_prepare(struct sinew_data *data, sinew_error *err) {
    /* Nothing is derived yet: the runtime fills this in as it needs precomputed tables. */
    (void)data;
    (void)err;
    return SINEW_OK;
}
