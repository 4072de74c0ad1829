/* Animated WebP through libwebp's animation encoder (lossless by default), keeping alpha. */
#include <math.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include "base/alloc.h"
#include "base/error.h"
#include "export/export_internal.h"

typedef struct webp_state {
    WebPAnimEncoder *enc;
    WebPConfig config;
} webp_state;

sinew_status sinew__webp_start(sinew_exporter *ex, sinew_error *err) {
    webp_state *s = sinew__calloc(ex->allocator, 1, sizeof *s);
    if (!s) return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    ex->state = s;
    WebPAnimEncoderOptions ao;
    if (!WebPAnimEncoderOptionsInit(&ao) || !WebPConfigInit(&s->config))
        return sinew__fail(err, SINEW_E_RENDER, NULL, "libwebp version mismatch");
    ao.anim_params.loop_count = (int)(ex->o.plays > 65535 ? 65535 : ex->o.plays);
    ao.anim_params.bgcolor = 0x00000000u;
    ao.allow_mixed = 0;
    s->config.lossless = ex->o.lossy ? 0 : 1;
    s->config.quality = ex->o.lossy ? (ex->o.quality > 0 ? ex->o.quality : 75.0f) : 75.0f;
    s->config.method = 4;
    s->config.exact = 0;
    if (!WebPValidateConfig(&s->config)) return sinew__fail(err, SINEW_E_ARG, NULL, "invalid WebP settings");
    s->enc = WebPAnimEncoderNew((int)ex->o.width, (int)ex->o.height, &ao);
    if (!s->enc) return sinew__fail(err, SINEW_E_NOMEM, NULL, "cannot create the WebP encoder");
    return SINEW_OK;
}

static int timestamp_ms(const sinew_exporter *ex, uint32_t frame) {
    return (int)lround(1000.0 * (double)frame / ex->o.fps);
}

static sinew_status webp_frame(sinew_exporter *ex, const uint8_t *rgba, sinew_error *err) {
    webp_state *s = ex->state;
    WebPPicture pic;
    if (!WebPPictureInit(&pic)) return sinew__fail(err, SINEW_E_RENDER, NULL, "libwebp version mismatch");
    pic.use_argb = 1;
    pic.width = (int)ex->o.width;
    pic.height = (int)ex->o.height;
    sinew_status st = SINEW_OK;
    if (!WebPPictureImportRGBA(&pic, rgba, (int)ex->o.width * 4)) {
        st = sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory (WebP frame)");
    } else if (!WebPAnimEncoderAdd(s->enc, &pic, timestamp_ms(ex, ex->frames_added), &s->config)) {
        st = sinew__fail(err, SINEW_E_RENDER, NULL, "WebP encoding failed on frame %u: %s", ex->frames_added,
                         WebPAnimEncoderGetError(s->enc));
    }
    WebPPictureFree(&pic);
    return st;
}

static void webp_abort(sinew_exporter *ex) {
    webp_state *s = ex->state;
    if (s) {
        if (s->enc) WebPAnimEncoderDelete(s->enc);
        sinew__free(ex->allocator, s, sizeof *s);
        ex->state = NULL;
    }
    sinew__tmp_discard(&ex->tmp);
}

static sinew_status webp_end(sinew_exporter *ex, sinew_error *err) {
    webp_state *s = ex->state;
    if (ex->frames_added == 0) return sinew__fail(err, SINEW_E_ARG, NULL, "no frame to write to '%s'", ex->o.path);
    WebPData data;
    WebPDataInit(&data);
    if (!WebPAnimEncoderAdd(s->enc, NULL, timestamp_ms(ex, ex->frames_added), NULL) ||
        !WebPAnimEncoderAssemble(s->enc, &data))
        return sinew__fail(err, SINEW_E_RENDER, NULL, "WebP assembly failed: %s", WebPAnimEncoderGetError(s->enc));
    sinew_status st = sinew__tmp_open(ex->o.path, ex->allocator, &ex->tmp, err);
    if (!st && fwrite(data.bytes, 1, data.size, ex->tmp.f) != data.size)
        st = sinew__fail_at(err, SINEW_E_IO, ex->o.path, 0, 0, NULL, "cannot write '%s'", ex->o.path);
    WebPDataClear(&data);
    if (!st) st = sinew__tmp_commit(&ex->tmp, err);
    webp_abort(ex);  /* frees the encoder; the committed file is no longer temporary */
    return st;
}

const sinew__backend sinew__webp_backend = {webp_frame, webp_end, webp_abort};
