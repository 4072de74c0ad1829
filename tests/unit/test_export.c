/* Exporters: every output decodes back (libspng, giflib, libwebp, ffprobe) to the frames within the
 * codec's tolerance; writers are atomic and never overwrite an input.
 *
 * Atomicity note: tests run as root, where a chmod'ed read-only folder still accepts writes, so
 * the unwritable targets used here are a path whose parent is a regular file (ENOTDIR) and a
 * folder that does not exist (ENOENT); both fail for root too. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <dirent.h>
#include <gif_lib.h>
#include <spng.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <webp/demux.h>

#include "sinew/export.h"
#include "testlib.h"

static char dir[256];

static const char *path_in(const char *name) {
    static char buf[4][512];
    static int k = 0;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Number of entries in the test folder whose name contains `part`. */
static int count_files(const char *part) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, part)) n++;
    closedir(d);
    return n;
}

/* A frame: a disc moving right over a transparent background, a soft edge, an opaque bar. */
#define FW 80
#define FH 60
/* the GIF floors of a libimagequant build (SINEW_IMAGEQUANT=ON), measured as the default's */
#define GIF_FLOOR_IQ_PLAIN 44.5 /* (46.61) */
#define GIF_FLOOR_IQ_DITHER 42.5 /* (44.84) */
static void make_frame(uint8_t *rgba, int k) {
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            uint8_t *p = rgba + 4 * (y * FW + x);
            double dx = x + 0.5 - (20 + 4 * k), dy = y + 0.5 - 30, r = sqrt(dx * dx + dy * dy);
            if (r < 14) {
                p[0] = (uint8_t)(200 + 3 * k);
                p[1] = (uint8_t)(40 + 2 * x);
                p[2] = (uint8_t)(60 + y);
                p[3] = r > 12 ? 140 : 255;
            } else if (y >= 50) {
                p[0] = 30;
                p[1] = 90;
                p[2] = (uint8_t)(100 + x);
                p[3] = 255;
            } else {
                memset(p, 0, 4);
            }
        }
}

static uint8_t *decode_png(const char *path, uint32_t *w, uint32_t *h) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    spng_ctx *ctx = spng_ctx_new(0);
    spng_set_png_file(ctx, f);
    struct spng_ihdr ihdr;
    size_t size = 0;
    uint8_t *out = NULL;
    if (spng_get_ihdr(ctx, &ihdr) == 0 && spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size) == 0) {
        out = malloc(size);
        if (spng_decode_image(ctx, out, size, SPNG_FMT_RGBA8, 0) != 0) {
            free(out);
            out = NULL;
        }
        *w = ihdr.width;
        *h = ihdr.height;
    }
    spng_ctx_free(ctx);
    fclose(f);
    return out;
}

static sinew_export_options opts(const char *path) {
    sinew_export_options o;
    memset(&o, 0, sizeof o);
    o.path = path;
    o.width = FW;
    o.height = FH;
    o.fps = 10;
    return o;
}

static sinew_status export_frames(sinew_export_options *o, int n, sinew_error *err) {
    sinew_exporter *ex;
    sinew_status st = sinew_export_begin(o, &ex, err);
    if (st) return st;
    uint8_t frame[FW * FH * 4];
    for (int k = 0; k < n; k++) {
        make_frame(frame, k);
        if ((st = sinew_export_frame_rgba(ex, frame, 0, err)) != SINEW_OK) {
            sinew_export_abort(ex);
            return st;
        }
    }
    return sinew_export_end(ex, err);
}

static void test_format_for_path(void) {
    CHECK(sinew_export_format_for_path("a/b.PNG", false) == SINEW_EXPORT_PNG);
    CHECK(sinew_export_format_for_path("a/b.png", true) == SINEW_EXPORT_SHEET);
    CHECK(sinew_export_format_for_path("seq/%04d.png", false) == SINEW_EXPORT_PNG_SEQUENCE);
    CHECK(sinew_export_format_for_path("x.gif", false) == SINEW_EXPORT_GIF);
    CHECK(sinew_export_format_for_path("x.webp", false) == SINEW_EXPORT_WEBP);
    CHECK(sinew_export_format_for_path("x.mp4", false) == SINEW_EXPORT_MP4);
    CHECK(sinew_export_format_for_path("x.webm", false) == SINEW_EXPORT_WEBM);
    CHECK(sinew_export_format_for_path("x.bmp", false) == SINEW_EXPORT_AUTO);
    CHECK(sinew_export_format_for_path("x_%d_%d.png", false) == SINEW_EXPORT_PNG);  /* two conversions: not a pattern */
}

static void test_png_single_and_sequence(void) {
    sinew_export_options o = opts(path_in("one.png"));
    sinew_error err = {0};
    CHECK(export_frames(&o, 1, &err) == SINEW_OK);
    uint32_t w = 0, h = 0;
    uint8_t *back = decode_png(o.path, &w, &h), frame[FW * FH * 4];
    make_frame(frame, 0);
    CHECK(back && w == FW && h == FH && memcmp(back, frame, sizeof frame) == 0);
    free(back);
    /* two frames into a single PNG is an error, and nothing is written */
    o.path = path_in("two.png");
    memset(&err, 0, sizeof err);
    CHECK(export_frames(&o, 2, &err) == SINEW_E_ARG);
    CHECK(access(o.path, F_OK) != 0);

    o.path = path_in("seq_%03d.png");
    memset(&err, 0, sizeof err);
    CHECK(export_frames(&o, 4, &err) == SINEW_OK);
    for (int k = 0; k < 4; k++) {
        char name[64];
        snprintf(name, sizeof name, "seq_%03d.png", k);
        back = decode_png(path_in(name), &w, &h);
        make_frame(frame, k);
        CHECK(back && memcmp(back, frame, sizeof frame) == 0);
        free(back);
    }
    CHECK(count_files("seq_") == 4);
    CHECK(count_files(".tmp-") == 0);
}

static void test_sheet(void) {
    sinew_export_options o = opts(path_in("sheet.png"));
    o.format = SINEW_EXPORT_SHEET;
    sinew_exporter *ex;
    CHECK(sinew_export_begin(&o, &ex, NULL) == SINEW_OK);
    const int seq[6] = {0, 1, 2, 1, 3, 0};  /* frames 1/3 and 0/5 are identical */
    uint8_t frame[FW * FH * 4];
    for (int k = 0; k < 6; k++) {
        make_frame(frame, seq[k]);
        CHECK(sinew_export_frame_rgba(ex, frame, 0, NULL) == SINEW_OK);
    }
    CHECK(sinew_export_end(ex, NULL) == SINEW_OK);
    uint32_t sw = 0, sh = 0;
    uint8_t *sheet = decode_png(o.path, &sw, &sh);
    CHECK(sheet != NULL);
    FILE *f = fopen(path_in("sheet.json"), "rb");
    CHECK(f != NULL);
    if (!sheet || !f) return;
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    CHECK(cJSON_GetObjectItem(root, "width")->valueint == (int)sw);
    CHECK_STR(cJSON_GetObjectItem(root, "imagePath")->valuestring, "sheet.png");
    cJSON *subs = cJSON_GetObjectItem(root, "SubTexture");
    CHECK(cJSON_GetArraySize(subs) == 6);
    int xs[6], ys[6];
    for (int k = 0; k < 6 && k < cJSON_GetArraySize(subs); k++) {
        cJSON *s = cJSON_GetArrayItem(subs, k);
        int x = cJSON_GetObjectItem(s, "x")->valueint, y = cJSON_GetObjectItem(s, "y")->valueint;
        int w = cJSON_GetObjectItem(s, "width")->valueint, h = cJSON_GetObjectItem(s, "height")->valueint;
        int fx = cJSON_GetObjectItem(s, "frameX")->valueint, fy = cJSON_GetObjectItem(s, "frameY")->valueint;
        CHECK(cJSON_GetObjectItem(s, "frameWidth")->valueint == FW);
        xs[k] = x;
        ys[k] = y;
        /* rebuild the frame from the sheet using the atlas semantics and compare */
        uint8_t rebuilt[FW * FH * 4];
        memset(rebuilt, 0, sizeof rebuilt);
        for (int j = 0; j < h; j++)
            memcpy(rebuilt + 4 * ((j - fy) * FW - fx), sheet + 4 * ((size_t)(y + j) * sw + (size_t)x), (size_t)w * 4);
        make_frame(frame, seq[k]);
        CHECK(memcmp(rebuilt, frame, sizeof frame) == 0);
    }
    CHECK(xs[1] == xs[3] && ys[1] == ys[3]);
    CHECK(xs[0] == xs[5] && ys[0] == ys[5]);
    CHECK(!(xs[1] == xs[2] && ys[1] == ys[2]));
    cJSON_Delete(root);
    free(sheet);
}

/* Decodes a GIF into full RGBA frames, applying disposal and transparency. */
static int decode_gif(const char *path, uint8_t frames[][FW * FH * 4], int max, int *delay_sum, int *loops) {
    int e = 0;
    GifFileType *g = DGifOpenFileName(path, &e);
    if (!g || DGifSlurp(g) != GIF_OK) return -1;
    uint8_t canvas[FW * FH * 4];
    memset(canvas, 0, sizeof canvas);
    *delay_sum = 0;
    *loops = -1;
    int n = 0;
    for (int i = 0; i < g->ImageCount && n < max; i++) {
        SavedImage *si = &g->SavedImages[i];
        GraphicsControlBlock gcb = {0, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(g, i, &gcb);
        for (int k = 0; k < si->ExtensionBlockCount; k++) {
            ExtensionBlock *b = &si->ExtensionBlocks[k];
            if (b->Function == APPLICATION_EXT_FUNC_CODE && b->ByteCount == 11 && !memcmp(b->Bytes, "NETSCAPE2.0", 11) &&
                k + 1 < si->ExtensionBlockCount)
                *loops = si->ExtensionBlocks[k + 1].Bytes[1] | (si->ExtensionBlocks[k + 1].Bytes[2] << 8);
        }
        ColorMapObject *map = si->ImageDesc.ColorMap ? si->ImageDesc.ColorMap : g->SColorMap;
        GifImageDesc *d = &si->ImageDesc;
        for (int y = 0; y < d->Height; y++)
            for (int x = 0; x < d->Width; x++) {
                int v = si->RasterBits[y * d->Width + x];
                if (v == gcb.TransparentColor) continue;
                uint8_t *p = canvas + 4 * ((d->Top + y) * FW + d->Left + x);
                p[0] = map->Colors[v].Red;
                p[1] = map->Colors[v].Green;
                p[2] = map->Colors[v].Blue;
                p[3] = 255;
            }
        memcpy(frames[n], canvas, sizeof canvas);
        /* a frame of d centiseconds stands for round(d * fps / 100) input frames (fps = 10) */
        int reps = (gcb.DelayTime + 5) / 10;
        for (int r = 1; r < reps && n + 1 < max; r++) {
            n++;
            memcpy(frames[n], canvas, sizeof canvas);
        }
        n++;
        *delay_sum += gcb.DelayTime;
        if (gcb.DisposalMode == DISPOSE_BACKGROUND)
            for (int y = 0; y < d->Height; y++) memset(canvas + 4 * ((d->Top + y) * FW + d->Left), 0, (size_t)d->Width * 4);
    }
    DGifCloseFile(g, &e);
    return n;
}

static double psnr_opaque(const uint8_t *a, const uint8_t *b, int *alpha_mismatch) {
    double se = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < FW * FH; i++) {
        bool ta = a[4 * i + 3] >= 128, tb = b[4 * i + 3] >= 128;
        if (ta != tb) (*alpha_mismatch)++;
        if (!ta || !tb) continue;
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - b[4 * i + (size_t)c];
            se += d * d;
            cnt++;
        }
    }
    return cnt && se > 0 ? 10 * log10(255.0 * 255.0 / (se / (double)cnt)) : 99.0;
}

static void test_gif(void) {
    static uint8_t frames[32][FW * FH * 4];
    const char *q = sinew_gif_quantizer();
#ifdef SINEW_HAVE_IMAGEQUANT
    CHECK(strcmp(q, "libimagequant (GPL-3.0-or-later)") == 0);
#else
    CHECK(strcmp(q, "sinew (MIT)") == 0);
#endif
    for (int dither = -1; dither <= 1; dither += 2) {
        sinew_export_options o = opts(path_in(dither < 0 ? "anim_nodither.gif" : "anim.gif"));
        o.plays = 0;
        o.dither = dither;
        sinew_error err = {0};
        /* frames 0..7, then frame 7 held for 3 more frames: those merge into one longer delay */
        sinew_exporter *ex;
        CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
        uint8_t frame[FW * FH * 4];
        int src[11] = {0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7};
        for (int k = 0; k < 11; k++) {
            make_frame(frame, src[k]);
            CHECK(sinew_export_frame_rgba(ex, frame, 0, &err) == SINEW_OK);
        }
        CHECK(sinew_export_end(ex, &err) == SINEW_OK);
        int delay = 0, loops = 0;
        int n = decode_gif(o.path, frames, 32, &delay, &loops);
        CHECK(n == 11);
        CHECK(delay == 110);  /* 11 frames at 10 fps */
        CHECK(loops == 0);    /* forever */
        double worst = 99.0;
        for (int k = 0; k < n && k < 11; k++) {
            int mism = 0;
            make_frame(frame, src[k]);
            double p = psnr_opaque(frames[k], frame, &mism);
            CHECK(mism == 0);
            if (p < worst) worst = p;
        }
        /* floors within 3 dB under what each quantizer measured when set (in brackets) */
#ifdef SINEW_HAVE_IMAGEQUANT
        double floor_db = dither < 0 ? GIF_FLOOR_IQ_PLAIN : GIF_FLOOR_IQ_DITHER;
#else
        double floor_db = dither < 0 ? 45.0 /* (47.01) */ : 43.0 /* (45.08) */;
#endif
        printf("gif (%s): worst frame PSNR %.2f dB (floor %.1f)\n", dither < 0 ? "no dithering" : "dithered", worst,
               floor_db);
        CHECK(worst >= floor_db);
    }
    /* play twice: NETSCAPE repeat count 1 */
    sinew_export_options o = opts(path_in("twice.gif"));
    o.plays = 2;
    CHECK(export_frames(&o, 3, NULL) == SINEW_OK);
    int delay = 0, loops = 0;
    CHECK(decode_gif(o.path, frames, 32, &delay, &loops) == 3);
    CHECK(loops == 1);
    CHECK(count_files(".tmp-") == 0);
}

/* GIF and sprite sheets keep every frame: past `frame_memory` they go to a mapped temporary file.
 * The files must be byte-identical whichever way the frames were kept. */
static bool same_file_bytes(const char *a, const char *b) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            same = false;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

static void test_frames_past_memory_budget(void) {
    const char *names[3][2] = {{"mem.gif", "mem.png"}, {"spill_all.gif", "spill_all.png"},
                               {"spill_some.gif", "spill_some.png"}};
    size_t budgets[3] = {0, 1, (size_t)FW * FH * 4 * 3}; /* default, every frame spilled, 3 in memory */
    for (int v = 0; v < 3; v++) {
        sinew_export_options o = opts(path_in(names[v][0]));
        o.frame_memory = budgets[v];
        CHECK(export_frames(&o, 9, NULL) == SINEW_OK);
        sinew_export_options sh = opts(path_in(names[v][1]));
        sh.format = SINEW_EXPORT_SHEET;
        sh.frame_memory = budgets[v];
        CHECK(export_frames(&sh, 9, NULL) == SINEW_OK);
    }
    for (int v = 1; v < 3; v++) {
        char a[4096], b[4096];
        snprintf(a, sizeof a, "%s", path_in(names[0][0]));
        snprintf(b, sizeof b, "%s", path_in(names[v][0]));
        CHECK(same_file_bytes(a, b));
        snprintf(a, sizeof a, "%s", path_in(names[0][1]));
        snprintf(b, sizeof b, "%s", path_in(names[v][1]));
        CHECK(same_file_bytes(a, b));
    }
    static uint8_t frames[32][FW * FH * 4];
    int delay = 0, loops = 0;
    CHECK(decode_gif(path_in("spill_all.gif"), frames, 32, &delay, &loops) == 9);
}

static void test_webp(void) {
    for (int lossy = 0; lossy <= 1; lossy++) {
        sinew_export_options o = opts(path_in(lossy ? "lossy.webp" : "anim.webp"));
        o.lossy = lossy;
        o.quality = 90;
        CHECK(export_frames(&o, 5, NULL) == SINEW_OK);
        FILE *f = fopen(o.path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        WebPData data = {buf, n};
        WebPAnimDecoderOptions dopt;
        WebPAnimDecoderOptionsInit(&dopt);
        dopt.color_mode = MODE_RGBA;
        WebPAnimDecoder *dec = WebPAnimDecoderNew(&data, &dopt);
        CHECK(dec != NULL);
        if (!dec) continue;
        WebPAnimInfo info;
        WebPAnimDecoderGetInfo(dec, &info);
        CHECK(info.frame_count == 5 && info.canvas_width == FW && info.canvas_height == FH);
        int k = 0;
        uint8_t *px;
        int ts;
        while (WebPAnimDecoderHasMoreFrames(dec) && WebPAnimDecoderGetNext(dec, &px, &ts)) {
            uint8_t frame[FW * FH * 4];
            make_frame(frame, k);
            CHECK(ts == (k + 1) * 100);
            double se = 0;
            int alpha_bad = 0;
            for (size_t i = 0; i < FW * FH; i++) {
                int da = abs((int)px[4 * i + 3] - frame[4 * i + 3]);
                if (da > (lossy ? 24 : 0)) alpha_bad++;
                for (int c = 0; c < 3; c++) {
                    /* compare premultiplied: colour under zero alpha is free */
                    size_t j = 4 * i + (size_t)c;
                    double d = (px[j] * px[4 * i + 3] - frame[j] * frame[4 * i + 3]) / 255.0;
                    se += d * d;
                }
            }
            double psnr = se > 0 ? 10 * log10(255.0 * 255.0 / (se / (FW * FH * 3))) : 99;
            printf("webp (%s) frame %d: PSNR %.2f dB\n", lossy ? "lossy" : "lossless", k, psnr);
            CHECK(alpha_bad == 0);
            /* lossless is exact; lossy at quality 90 measured 42.78..43.24 dB when the floor was set */
            CHECK(lossy ? psnr >= 40.5 : psnr == 99.0);
            k++;
        }
        CHECK(k == 5);
        WebPAnimDecoderDelete(dec);
    }
}

static bool have_ffmpeg(void) { return system("ffmpeg -version >/dev/null 2>&1") == 0 && system("ffprobe -version >/dev/null 2>&1") == 0; }

static void probe(const char *path, char *out, size_t size) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
             "stream=codec_name,width,height,nb_read_frames:format=duration -of default=nw=1 '%s' 2>&1",
             path);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, size - 1, p) : 0;
    out[n] = '\0';
    if (p) pclose(p);
}

static void test_video(void) {
    if (!have_ffmpeg()) {
        test_skip(2, "video exports (MP4, WebM)", "ffmpeg/ffprobe not installed (`make deps`)");
        return;
    }
    char info[1024];
    sinew_export_options o = opts(path_in("anim.mp4"));
    o.fps = 10;
    sinew_error err = {0};
    CHECK(export_frames(&o, 12, &err) == SINEW_OK);
    probe(o.path, info, sizeof info);
    CHECK(strstr(info, "codec_name=h264") != NULL);
    CHECK(strstr(info, "width=80") != NULL && strstr(info, "height=60") != NULL);
    CHECK(strstr(info, "nb_read_frames=12") != NULL);
    const char *d = strstr(info, "duration=");
    CHECK(d && fabs(atof(d + 9) - 1.2) < 0.05);

    o.path = path_in("anim.webm");
    CHECK(export_frames(&o, 6, &err) == SINEW_OK);
    probe(o.path, info, sizeof info);
    CHECK(strstr(info, "codec_name=vp9") != NULL);
    CHECK(strstr(info, "nb_read_frames=6") != NULL);
    CHECK(count_files(".tmp-") == 0);
}

static void test_missing_ffmpeg(void) {
    sinew_export_options o = opts(path_in("none.mp4"));
    o.ffmpeg = "/nonexistent/bin/ffmpeg";
    sinew_exporter *ex = NULL;
    sinew_error err = {0};
    CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_E_EXTERNAL);
    CHECK(strstr(err.message, "apt-get install ffmpeg") != NULL);
    CHECK(access(o.path, F_OK) != 0);
    CHECK(count_files(".tmp-") == 0);
}

static void test_atomic_failures(void) {
    /* a path whose parent is a regular file: fails even for root */
    FILE *f = fopen(path_in("plainfile"), "wb");
    fputs("x", f);
    fclose(f);
    const char *targets[] = {"plainfile/out.gif", "no_such_folder/out.webp", "plainfile/seq_%02d.png"};
    for (int i = 0; i < 3; i++) {
        sinew_export_options o = opts(path_in(targets[i]));
        sinew_error err = {0};
        CHECK(export_frames(&o, 2, &err) == SINEW_E_IO);
        CHECK(strstr(err.message, "cannot write") != NULL);
        CHECK(err.file && strstr(err.file, targets[i]) != NULL);
    }
    CHECK(count_files("out.") == 0);
    CHECK(count_files(".tmp-") == 0);

    /* an export that fails at the end (no frames) and one that is aborted leave nothing */
    sinew_export_options o = opts(path_in("empty.gif"));
    sinew_exporter *ex;
    CHECK(sinew_export_begin(&o, &ex, NULL) == SINEW_OK);
    CHECK(sinew_export_end(ex, NULL) == SINEW_E_ARG);
    o.path = path_in("aborted_%02d.png");
    CHECK(sinew_export_begin(&o, &ex, NULL) == SINEW_OK);
    uint8_t frame[FW * FH * 4];
    make_frame(frame, 0);
    CHECK(sinew_export_frame_rgba(ex, frame, 0, NULL) == SINEW_OK);
    CHECK(sinew_export_frame_rgba(ex, frame, 0, NULL) == SINEW_OK);
    sinew_export_abort(ex);
    CHECK(count_files("empty") == 0 && count_files("aborted") == 0 && count_files(".tmp-") == 0);

    /* never overwrite an input (same name, or another name for the same file) */
    const char *in = path_in("input.png");
    f = fopen(in, "wb");
    fputs("original", f);
    fclose(f);
    char alias[600];
    snprintf(alias, sizeof alias, "%s/./input.png", dir);
    const char *inputs[1] = {in};
    for (int i = 0; i < 2; i++) {
        o = opts(i == 0 ? in : alias);
        o.inputs = inputs;
        o.input_count = 1;
        sinew_error err = {0};
        CHECK(export_frames(&o, 1, &err) == SINEW_E_ARG);
        CHECK(strstr(err.message, "input") != NULL);
    }
    char back[16] = {0};
    f = fopen(in, "rb");
    CHECK(f && fread(back, 1, sizeof back - 1, f) == 8);
    if (f) fclose(f);
    CHECK_STR(back, "original");
}

/* The output turns into a folder while the frames are written (a race, or a folder made by
 * hand): the rename at the end fails, and the error must name the output through a pointer that
 * is still valid (it pointed at the temporary file's freed name before: ASan reports the read
 * below as a use after free). For every output kind. */
static void test_rename_fails_at_end(void) {
    const char *names[] = {"late.png", "late_%02d.png", "late_sheet.png", "late.gif", "late.webp", "late.mp4",
                           "late.webm"};
    const char *folders[] = {"late.png", "late_00.png", "late_sheet.png", "late.gif", "late.webp", "late.mp4",
                             "late.webm"};
    bool ffmpeg = have_ffmpeg();
    for (int i = 0; i < 7; i++) {
        if (i >= 5 && !ffmpeg) continue;
        char path[600], folder[600];
        snprintf(path, sizeof path, "%s", path_in(names[i]));
        snprintf(folder, sizeof folder, "%s", path_in(folders[i]));
        sinew_export_options o = opts(path);
        if (i == 2) o.format = SINEW_EXPORT_SHEET;
        sinew_exporter *ex = NULL;
        sinew_error err = {0};
        CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
        if (!ex) continue;
        uint8_t frame[FW * FH * 4];
        for (int k = 0; k < (i == 0 ? 1 : 3); k++) {
            make_frame(frame, k);
            CHECK(sinew_export_frame_rgba(ex, frame, 0, &err) == SINEW_OK);
        }
        CHECK(mkdir(folder, 0755) == 0);
        CHECK(sinew_export_end(ex, &err) == SINEW_E_IO);
        CHECK(err.file != NULL);
        if (err.file) CHECK_STR(err.file, path); /* the caller's own string, still readable */
        CHECK(strstr(err.message, folders[i]) != NULL);
        rmdir(folder);
        /* and sinew_export_check refuses the folder before anything is rendered */
        CHECK(mkdir(folder, 0755) == 0);
        memset(&err, 0, sizeof err);
        CHECK(sinew_export_check(&o, &err) == SINEW_E_IO);
        CHECK(strstr(err.message, "is a folder") != NULL);
        if (err.file) CHECK_STR(err.file, path);
        rmdir(folder);
    }
    CHECK(count_files("late") == 0);
    CHECK(count_files(".tmp-") == 0);
}

/* The bytes of a file (malloc'd, *n its size), or NULL. */
static uint8_t *file_contents(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0, r;
    uint8_t *b = malloc(cap);
    while (b && (r = fread(b + len, 1, cap - len, f)) > 0)
        if ((len += r) == cap) b = realloc(b, cap *= 2);
    fclose(f);
    *n = len;
    return b;
}

/* The files of the test folder whose names start with `prefix`, with their bytes. */
typedef struct file_set {
    int n;
    char name[64][256];
    uint8_t *bytes[64];
    size_t size[64];
} file_set;

static void read_set(const char *prefix, file_set *s) {
    memset(s, 0, sizeof *s);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && s->n < 64)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(s->name[s->n], sizeof s->name[0], "%s", e->d_name);
            s->bytes[s->n] = file_contents(path_in(e->d_name), &s->size[s->n]);
            s->n++;
        }
    if (d) closedir(d);
}

/* True when every file of `a` is still there with the same bytes, and nothing else starts with `prefix`. */
static bool set_unchanged(const file_set *a, const char *prefix) {
    file_set b;
    read_set(prefix, &b);
    bool same = a->n == b.n;
    if (!same) printf("  %d files start with %s, %d before\n", b.n, prefix, a->n);
    for (int i = 0; i < a->n && same; i++) {
        size_t n = 0;
        uint8_t *now = file_contents(path_in(a->name[i]), &n);
        same = now && a->bytes[i] && n == a->size[i] && memcmp(now, a->bytes[i], n) == 0;
        if (!same) printf("  %s changed (%zu -> %zu bytes)\n", a->name[i], a->size[i], n);
        free(now);
    }
    for (int i = 0; i < b.n; i++) free(b.bytes[i]);
    return same;
}

static void free_set(file_set *s) {
    for (int i = 0; i < s->n; i++) free(s->bytes[i]);
}

/* A frame with one 3x3 dot in colour `k` (a sheet of many tiny pages, and a big atlas). */
static void dot_frame(uint8_t *rgba, int k) {
    memset(rgba, 0, FW * FH * 4);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++) {
            uint8_t *p = rgba + 4 * ((10 + y) * FW + 10 + x + k % 40);
            p[0] = (uint8_t)(k * 5);
            p[1] = (uint8_t)(255 - k);
            p[2] = (uint8_t)(k * 3);
            p[3] = 255;
        }
}

/* A set of files (a PNG sequence, a sprite sheet of several pages) whose writing fails midway
 * leaves the previous set whole: nothing is renamed until every file of the set is written.
 * Sequence: the 4th name turns into a folder after the frames are written, so its rename fails;
 * the names before it had been renamed over the old frames. Sheet: the atlas is the largest file
 * and the file size limit (RLIMIT_FSIZE) lies between it and the pages, so writing the atlas fails
 * with EFBIG after the pages had been renamed over the old ones. */
static void test_failed_set_keeps_old_set(void) {
    sinew_export_options o = opts(path_in("keep_%02d.png"));
    sinew_error err = {0};
    CHECK(export_frames(&o, 2, &err) == SINEW_OK);
    file_set old;
    read_set("keep_", &old);
    CHECK(old.n == 2);
    sinew_exporter *ex = NULL;
    CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
    uint8_t frame[FW * FH * 4];
    for (int k = 0; ex && k < 4; k++) {
        make_frame(frame, k + 7);
        CHECK(sinew_export_frame_rgba(ex, frame, 0, &err) == SINEW_OK);
    }
    CHECK(mkdir(path_in("keep_03.png"), 0755) == 0);
    if (ex) CHECK(sinew_export_end(ex, &err) == SINEW_E_IO);
    CHECK(rmdir(path_in("keep_03.png")) == 0);
    CHECK(set_unchanged(&old, "keep_")); /* keep_02.png, new, is gone again too */
    CHECK(count_files(".tmp-") == 0);
    free_set(&old);

    o = opts(path_in("dots.png"));
    o.format = SINEW_EXPORT_SHEET;
    o.sheet.format = SINEW_SHEET_JSON_HASH;
    o.sheet.max_width = o.sheet.max_height = 16;
    for (int pass = 0; pass < 2; pass++) {
        struct rlimit lim, small;
        CHECK(getrlimit(RLIMIT_FSIZE, &lim) == 0);
        small = lim;
        small.rlim_cur = 3000; /* measured: 2 pages of 100 bytes at most, the atlas 8286 bytes */
        if (pass == 1) {
            signal(SIGXFSZ, SIG_IGN);
            CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
        }
        ex = NULL;
        memset(&err, 0, sizeof err);
        CHECK(sinew_export_begin(&o, &ex, &err) == SINEW_OK);
        for (int k = 0; ex && k < 40; k++) {
            dot_frame(frame, k + 40 * pass);
            CHECK(sinew_export_frame_rgba(ex, frame, 0, &err) == SINEW_OK);
        }
        if (ex) CHECK(sinew_export_end(ex, &err) == (pass == 0 ? SINEW_OK : SINEW_E_IO));
        if (pass == 1) {
            CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
            signal(SIGXFSZ, SIG_DFL);
            printf("the sheet failed as meant: %s\n", err.message);
            CHECK(strstr(err.message, "dots.json") != NULL);
            CHECK(set_unchanged(&old, "dots"));
            free_set(&old);
            break;
        }
        read_set("dots", &old);
        /* the premise: several pages, each under the limit, and an atlas over it */
        size_t pages_max = 0, atlas = 0;
        for (int i = 0; i < old.n; i++)
            if (strstr(old.name[i], ".json")) atlas = old.size[i];
            else if (old.size[i] > pages_max) pages_max = old.size[i];
        printf("sheet set: %d files, pages up to %zu bytes, atlas %zu bytes\n", old.n, pages_max, atlas);
        CHECK(old.n >= 3 && pages_max < small.rlim_cur && atlas > small.rlim_cur);
    }
    CHECK(count_files(".tmp-") == 0);
}

static void cleanup(void) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' || strstr(e->d_name, ".tmp-")) unlink(path_in(e->d_name));
    closedir(d);
    rmdir(dir);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/sinew_export_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    RUN(test_format_for_path);
    RUN(test_png_single_and_sequence);
    RUN(test_sheet);
    RUN(test_gif);
    RUN(test_frames_past_memory_budget);
    RUN(test_webp);
    RUN(test_video);
    RUN(test_missing_ffmpeg);
    RUN(test_atomic_failures);
    RUN(test_rename_fails_at_end);
    RUN(test_failed_set_keeps_old_set);
    cleanup();
    return test_summary();
}
