/* sinew input ...: read, check, edit, convert and show MRTK input animations. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "rules.h"
#include "sinew/atomic.h"
#include "sinew/export.h"
#include "sinew/input.h"
#include "sinew/render.h"

const char sinew_cmd_input_help[] = "MRTK input animations: info, dump, eval, convert, edit, validate, render";

static const char usage_text[] =
    "usage: sinew input COMMAND FILE [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  info FILE [--json]                       version, layout, sections, duration, keys, markers\n"
    "  dump FILE [--format json|csv]            every curve and key (JSON schema: docs/input.md)\n"
    "  eval FILE (--time T | --times A:B:STEP) [--json]\n"
    "                                           poses at time T (or A, A+STEP, ... <= B)\n"
    "  convert IN OUT [--version 1.0|1.1] [--layout mrtk|spec]\n"
    "                                           binary <-> JSON by extension (.json = dump JSON)\n"
    "  edit IN OUT [--repair] [--trim A:B] [--shift S] [--resample HZ] [--simplify]\n"
    "              [--version 1.0|1.1] [--layout mrtk|spec]\n"
    "                                           applied in this order\n"
    "  validate FILE [--strict]                 structural errors exit 2; warnings are listed\n"
    "  render FILE --out OUT.(gif|webp|mp4|png pattern) [--view front|top|camera] [--fps N] [--size WxH]\n"
    "\n"
    "FILE may be a binary recording (.bin, any extension) or a dump (.json).\n"
    "'sinew input COMMAND --help' describes each command, with examples.\n"
    "\n"
    "examples:\n"
    "  sinew input info rec.bin\n"
    "  sinew input convert rec.bin rec.json\n"
    "\n"
    "exit codes: 0 ok, 1 usage (a bad option or value), 2 bad input (a file that does not load, an\n"
    "unknown name), 3 I/O (a missing file, a folder given as a file, no permission, a write\n"
    "that failed), 4 internal (out of memory)\n";

/* ---- helpers ------------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (m > n)
        return false;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

static bool is_json(const char *path) {
    return ends_with(path, ".json");
}

static int load(const char *path, sinew_input_animation **out) {
    sinew_error err = {0};
    sinew_status st = is_json(path) ? sinew_input_load_json_file(path, NULL, out, &err)
                                    : sinew_input_load_file(path, NULL, out, &err);
    if (st != SINEW_OK) {
        cli_print_error(path, &err);
        return cli_exit_code(st);
    }
    return SINEW_EXIT_OK;
}

static bool parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_range(const char *s, double *a, double *b) {
    const char *colon = strchr(s, ':');
    if (!colon)
        return false;
    char first[64];
    size_t n = (size_t)(colon - s);
    if (n == 0 || n >= sizeof first)
        return false;
    memcpy(first, s, n);
    first[n] = 0;
    return parse_double(first, a) && parse_double(colon + 1, b);
}

static void put_json_string(FILE *out, const char *s, uint32_t len) {
    fputc('"', out);
    for (uint32_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void put_f(FILE *out, float v) {
    char b[48];
    sinew_input_format_float(v, b, sizeof b);
    fputs(b, out);
}

/* Shortest text for a double that reads back the same. */
static void put_d(FILE *out, double v) {
    char b[64];
    for (int p = 6; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*g", p, v);
        if (strtod(b, NULL) == v)
            break;
    }
    fputs(b, out);
}

/* A time or duration for people: the recording's times are 32-bit floats, so the shortest digits
 * that give the same float back (2.1, not 2.0999999046325684); other values as put_d. */
static void put_seconds(FILE *out, double v) {
    float f = (float)v;
    if ((double)f != v || !isfinite(v)) {
        put_d(out, v);
        return;
    }
    char b[64];
    for (int p = 1; p <= 9; p++) {
        snprintf(b, sizeof b, "%.*g", p, v);
        if ((float)strtod(b, NULL) == f)
            break;
    }
    fputs(b, out);
}

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Writes JSON atomically next to `path`. */
static int save_json(const sinew_input_animation *a, const char *path) {
    sinew_error err = {0};
    sinew_atomic_file *af = NULL;
    FILE *f = NULL;
    sinew_status st = sinew_atomic_open(path, NULL, 0, &af, &f, &err);
    if (st == SINEW_OK) {
        st = sinew_input_write_json(a, f, &err);
        if (st == SINEW_OK)
            st = sinew_atomic_commit(af, &err);
        else
            sinew_atomic_discard(af);
    }
    if (st != SINEW_OK) {
        cli_print_error(path, &err);
        return cli_exit_code(st);
    }
    return SINEW_EXIT_OK;
}

typedef struct target {
    int32_t minor;  /* -1 keep */
    int32_t layout; /* -1 keep */
} target;

static int parse_version(const char *cmd, const char *s, int32_t *minor) {
    if (strcmp(s, "1.0") == 0)
        *minor = 0;
    else if (strcmp(s, "1.1") == 0)
        *minor = 1;
    else
        return cli_usage_error(cmd, "--version must be 1.0 or 1.1, not '%s'", s);
    return SINEW_EXIT_OK;
}

static int parse_layout(const char *cmd, const char *s, int32_t *layout) {
    if (strcmp(s, "mrtk") == 0)
        *layout = SINEW_INPUT_LAYOUT_MRTK;
    else if (strcmp(s, "spec") == 0)
        *layout = SINEW_INPUT_LAYOUT_SPEC;
    else
        return cli_usage_error(cmd, "--layout must be mrtk or spec, not '%s'", s);
    return SINEW_EXIT_OK;
}

/* Writes `a` to `path` (JSON or binary by extension) with the requested version/layout. */
static int save(sinew_input_animation *a, const char *in, const char *path, target t) {
    if (same_file(in, path)) {
        fprintf(stderr, "sinew input: refusing to overwrite the input file %s\n", path);
        return SINEW_EXIT_USAGE;
    }
    sinew_input_write_options o = {t.minor, t.layout};
    if (sinew_input_write_is_lossy(a, &o)) {
        int32_t minor = t.minor >= 0 ? t.minor : a->version_minor;
        fprintf(stderr, "%s: warning: %s\n", path,
                minor == 0 ? "version 1.0 has no eye gaze: the eye-gaze curves are dropped"
                           : "the MRTK 1.1 layout keeps only time and value: tangents and weights are dropped");
    }
    if (is_json(path)) {
        /* a dump says what the binary would be: apply the target version/layout to the model */
        if (t.minor == 0 && a->version_minor != 0) {
            for (uint32_t i = SINEW_INPUT_CURVE_GAZE; i < SINEW_INPUT_CURVE_COUNT; i++)
                sinew_input_set_curve(a, i, NULL, 0, NULL);
            a->has_camera = a->has_hands = true;
            a->has_eye_gaze = false;
        }
        if (t.minor >= 0)
            a->version_minor = t.minor;
        if (t.layout >= 0)
            a->layout = (sinew_input_layout)t.layout;
        if (a->version_minor == 0)
            a->layout = SINEW_INPUT_LAYOUT_MRTK;
        if (a->version_minor == 1 && a->layout == SINEW_INPUT_LAYOUT_MRTK) {
            /* what MRTK's reader would rebuild: tangents 0, weights 0, mode Both */
            for (uint32_t i = 0; i < SINEW_INPUT_CURVE_COUNT; i++) {
                if (sinew_input_curve_is_bool(i))
                    continue;
                sinew_curve *c = &a->curves[i];
                for (uint32_t k = 0; k < c->key_count; k++) {
                    sinew_curve_key key = {c->keys[k].time, c->keys[k].value, 0, 0, 0, 0, SINEW_WEIGHTED_BOTH};
                    c->keys[k] = key;
                }
                sinew_curve_prepare(c, a->allocator, NULL);
            }
        }
        return save_json(a, path);
    }
    sinew_error err = {0};
    sinew_status st = sinew_input_save_file(a, path, &o, &err);
    if (st != SINEW_OK) {
        cli_print_error(path, &err);
        return cli_exit_code(st);
    }
    return SINEW_EXIT_OK;
}

/* ---- info --------------------------------------------------------------------------------- */

static uint64_t keys_in(const sinew_input_animation *a, uint32_t from, uint32_t to) {
    uint64_t n = 0;
    for (uint32_t i = from; i < to; i++)
        if (sinew_input_curve_present(a, i))
            n += a->curves[i].key_count;
    return n;
}

static int cmd_info(int argc, char **argv) {
    const char *file = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_unknown_option("input info", argv[i]);
        else if (!file)
            file = argv[i];
        else
            return cli_usage_error("input info", "one FILE only");
    }
    if (!file)
        return cli_usage_error("input info", "missing FILE");
    sinew_input_animation *a;
    int rc = load(file, &a);
    if (rc)
        return rc;
    uint64_t cam = keys_in(a, 0, 7), eye = keys_in(a, SINEW_INPUT_CURVE_GAZE, SINEW_INPUT_CURVE_COUNT);
    uint64_t tr[2], pi[2], jo[2];
    for (int h = 0; h < 2; h++) {
        tr[h] = keys_in(a, SINEW_INPUT_CURVE_TRACKED(h), SINEW_INPUT_CURVE_TRACKED(h) + 1);
        pi[h] = keys_in(a, SINEW_INPUT_CURVE_PINCH(h), SINEW_INPUT_CURVE_PINCH(h) + 1);
        jo[h] = keys_in(a, SINEW_INPUT_CURVE_JOINT(h, 0, 0), SINEW_INPUT_CURVE_JOINT(h, 0, 0) + 189);
    }
    const char *layout = a->layout == SINEW_INPUT_LAYOUT_SPEC ? "spec" : "mrtk";
    double dur = sinew_input_duration(a);
    if (json) {
        printf("{\"file\":");
        put_json_string(stdout, file, (uint32_t)strlen(file));
        printf(",\"format\":\"%s\",\"version\":\"%d.%d\",\"layout\":\"%s\",\"size\":%llu,", is_json(file) ? "json" : "binary",
               a->version_major, a->version_minor, layout, (unsigned long long)a->file_size);
        printf("\"hasCamera\":%s,\"hasHands\":%s,\"hasEyeGaze\":%s,\"duration\":", a->has_camera ? "true" : "false",
               a->has_hands ? "true" : "false", a->has_eye_gaze ? "true" : "false");
        put_d(stdout, dur);
        printf(",\"keys\":{\"camera\":%llu", (unsigned long long)cam);
        for (int h = 0; h < 2; h++)
            printf(",\"%s\":{\"tracked\":%llu,\"pinch\":%llu,\"joints\":%llu}", h ? "right" : "left",
                   (unsigned long long)tr[h], (unsigned long long)pi[h], (unsigned long long)jo[h]);
        printf(",\"eyeGaze\":%llu,\"total\":%llu},\"markers\":[", (unsigned long long)eye,
               (unsigned long long)sinew_input_key_count(a));
        for (uint32_t i = 0; i < a->marker_count; i++) {
            printf(i ? ",{\"time\":" : "{\"time\":");
            put_f(stdout, a->markers[i].time);
            printf(",\"name\":");
            put_json_string(stdout, a->markers[i].name, a->markers[i].name_length);
            printf("}");
        }
        printf("],\"markersMissing\":%s,\"trailingBytes\":%llu}\n", a->markers_missing ? "true" : "false",
               (unsigned long long)a->trailing_bytes);
    } else {
        printf("%s: MRTK input animation %d.%d", file, a->version_major, a->version_minor);
        if (a->version_minor == 1)
            printf(" (%s layout)", layout);
        if (a->file_size)
            printf(", %llu bytes", (unsigned long long)a->file_size);
        printf("\n  sections:  camera %s, hands %s, eye gaze %s\n", a->has_camera ? "yes" : "no",
               a->has_hands ? "yes" : "no", a->has_eye_gaze ? "yes" : "no");
        printf("  duration:  ");
        put_seconds(stdout, dur);
        printf(" s\n  keys:      %llu in total\n", (unsigned long long)sinew_input_key_count(a));
        if (a->has_camera)
            printf("    camera      %llu\n", (unsigned long long)cam);
        if (a->has_hands)
            for (int h = 0; h < 2; h++)
                printf("    %-5s hand  tracked %llu, pinch %llu, joints %llu\n", h ? "right" : "left",
                       (unsigned long long)tr[h], (unsigned long long)pi[h], (unsigned long long)jo[h]);
        if (a->has_eye_gaze)
            printf("    eye gaze    %llu\n", (unsigned long long)eye);
        printf("  markers:   %u%s\n", a->marker_count, a->markers_missing ? " (marker list missing)" : "");
        for (uint32_t i = 0; i < a->marker_count; i++) {
            printf("    ");
            put_f(stdout, a->markers[i].time);
            printf(" s  ");
            put_json_string(stdout, a->markers[i].name, a->markers[i].name_length);
            printf("\n");
        }
        if (a->trailing_bytes)
            printf("  trailing:  %llu bytes after the marker list\n", (unsigned long long)a->trailing_bytes);
    }
    sinew_input_destroy(a);
    return SINEW_EXIT_OK;
}

/* ---- dump --------------------------------------------------------------------------------- */

static int cmd_dump(int argc, char **argv) {
    const char *file = NULL, *format = "json";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            format = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0)
            format = argv[i] + 9;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_unknown_option("input dump", argv[i]);
        else if (!file)
            file = argv[i];
        else
            return cli_usage_error("input dump", "one FILE only");
    }
    if (!file)
        return cli_usage_error("input dump", "missing FILE");
    if (strcmp(format, "json") != 0 && strcmp(format, "csv") != 0)
        return cli_usage_error("input dump", "--format must be json or csv");
    sinew_input_animation *a;
    int rc = load(file, &a);
    if (rc)
        return rc;
    sinew_error err = {0};
    sinew_status st = strcmp(format, "csv") == 0 ? sinew_input_write_csv(a, stdout, &err)
                                                 : sinew_input_write_json(a, stdout, &err);
    sinew_input_destroy(a);
    if (st != SINEW_OK || fflush(stdout) != 0) {
        fprintf(stderr, "sinew input dump: write error\n");
        return SINEW_EXIT_IO;
    }
    return SINEW_EXIT_OK;
}

/* ---- eval --------------------------------------------------------------------------------- */

static void put_vec(FILE *out, const float *v, int n) {
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        put_f(out, v[i]);
    }
    fputc(']', out);
}

static void put_pose_json(FILE *out, const sinew_input_pose *p) {
    fputs("{\"position\":", out);
    put_vec(out, p->position, 3);
    fputs(",\"rotation\":", out);
    put_vec(out, p->rotation, 4);
    fputc('}', out);
}

static void frame_json(FILE *out, const sinew_input_frame *f) {
    fputs("{\"time\":", out);
    put_d(out, f->time);
    fputs(",\"camera\":", out);
    put_pose_json(out, &f->camera);
    fputs(",\"hands\":{", out);
    for (int h = 0; h < 2; h++) {
        fprintf(out, "%s\"%s\":{\"tracked\":%s,\"pinch\":%s,\"joints\":{", h ? "," : "", h ? "right" : "left",
                f->hands[h].tracked ? "true" : "false", f->hands[h].pinch ? "true" : "false");
        for (uint32_t j = 1; j < SINEW_INPUT_JOINT_COUNT; j++) {
            fprintf(out, "%s\"%s\":", j > 1 ? "," : "", sinew_input_joint_name(j));
            put_pose_json(out, &f->hands[h].joints[j]);
        }
        fputs("}}", out);
    }
    fputs("},\"eyeGaze\":{\"origin\":", out);
    put_vec(out, f->gaze_origin, 3);
    fputs(",\"direction\":", out);
    put_vec(out, f->gaze_direction, 3);
    fputs("}}", out);
}

static void put_pose_text(FILE *out, const char *label, const sinew_input_pose *p) {
    fprintf(out, "  %-22s position ", label);
    for (int i = 0; i < 3; i++) {
        put_f(out, p->position[i]);
        if (i < 2)
            fputc(' ', out);
    }
    fputs("  rotation ", out);
    for (int i = 0; i < 4; i++) {
        put_f(out, p->rotation[i]);
        if (i < 3)
            fputc(' ', out);
    }
    fputc('\n', out);
}

static void frame_text(FILE *out, const sinew_input_frame *f, const sinew_input_animation *a) {
    fputs("time ", out);
    put_d(out, f->time);
    fputc('\n', out);
    put_pose_text(out, a->has_camera ? "camera" : "camera (default)", &f->camera);
    for (int h = 0; h < 2; h++) {
        fprintf(out, "  %s hand: tracked %s, pinch %s%s\n", h ? "right" : "left", f->hands[h].tracked ? "yes" : "no",
                f->hands[h].pinch ? "yes" : "no", a->has_hands ? "" : " (no hand data)");
        if (!a->has_hands)
            continue;
        for (uint32_t j = 1; j < SINEW_INPUT_JOINT_COUNT; j++)
            put_pose_text(out, sinew_input_joint_name(j), &f->hands[h].joints[j]);
    }
    fputs("  eye gaze origin ", out);
    put_vec(out, f->gaze_origin, 3);
    fputs(" direction ", out);
    put_vec(out, f->gaze_direction, 3);
    fputs(a->has_eye_gaze ? "\n" : " (default)\n", out);
}

static int cmd_eval(int argc, char **argv) {
    const char *file = NULL, *time_s = NULL, *times_s = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            time_s = argv[++i];
        else if (strcmp(argv[i], "--times") == 0 && i + 1 < argc)
            times_s = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9'))
            return cli_unknown_option("input eval", argv[i]);
        else if (!file)
            file = argv[i];
        else
            return cli_usage_error("input eval", "one FILE only");
    }
    if (!file)
        return cli_usage_error("input eval", "missing FILE");
    if (!time_s == !times_s)
        return cli_usage_error("input eval", "give exactly one of --time T or --times A:B:STEP");
    double t0 = 0, t1 = 0, step = 1;
    if (time_s) {
        int rc = cli_number("input eval", "--time", time_s, &t0);
        if (rc)
            return rc;
        t1 = t0;
    } else {
        const char *last = strrchr(times_s, ':');
        char range[128];
        size_t n = last ? (size_t)(last - times_s) : 0;
        if (!last || n >= sizeof range)
            return cli_usage_error("input eval", "--times needs A:B:STEP");
        memcpy(range, times_s, n);
        range[n] = 0;
        if (!parse_range(range, &t0, &t1) || !parse_double(last + 1, &step) || step <= 0 || t1 < t0)
            return cli_usage_error("input eval", "--times needs A:B:STEP with A <= B and STEP > 0");
        if ((t1 - t0) / step > 1e7)
            return cli_usage_error("input eval", "--times would give more than 10 million samples");
    }
    sinew_input_animation *a;
    int rc = load(file, &a);
    if (rc)
        return rc;
    sinew_input_cursor *cur = calloc(1, sizeof *cur);
    if (!cur) {
        sinew_input_destroy(a);
        return SINEW_EXIT_INTERNAL;
    }
    sinew_input_frame f;
    if (time_s) {
        sinew_input_eval(a, t0, &f);
        if (json)
            frame_json(stdout, &f), fputc('\n', stdout);
        else
            frame_text(stdout, &f, a);
    } else {
        uint64_t count = (uint64_t)floor((t1 - t0) / step + 1e-9) + 1;
        if (json)
            fputs("[", stdout);
        for (uint64_t i = 0; i < count; i++) {
            double t = t0 + (double)i * step;
            sinew_input_eval_cursor(a, cur, t, &f);
            if (json) {
                fputs(i ? ",\n" : "\n", stdout);
                frame_json(stdout, &f);
            } else {
                frame_text(stdout, &f, a);
            }
        }
        if (json)
            fputs("\n]\n", stdout);
    }
    free(cur);
    sinew_input_destroy(a);
    return fflush(stdout) == 0 ? SINEW_EXIT_OK : SINEW_EXIT_IO;
}

/* ---- convert / edit ------------------------------------------------------------------------ */

static int cmd_convert_edit(int argc, char **argv, bool edit) {
    const char *cmd = edit ? "input edit" : "input convert";
    const char *in = NULL, *out = NULL;
    target t = {-1, -1};
    bool repair = false, simplify = false, has_trim = false, has_shift = false, has_rate = false;
    double trim0 = 0, trim1 = 0, shift = 0, rate = 0;
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(o, "--version") == 0 && more) {
            if ((rc = parse_version(cmd, argv[++i], &t.minor)))
                return rc;
        } else if (strcmp(o, "--layout") == 0 && more) {
            if ((rc = parse_layout(cmd, argv[++i], &t.layout)))
                return rc;
        } else if (edit && strcmp(o, "--trim") == 0 && more) {
            if (!parse_range(argv[++i], &trim0, &trim1) || trim1 < trim0)
                return cli_usage_error(cmd, "--trim needs A:B with A <= B, not '%s'", argv[i]);
            has_trim = true;
        } else if (edit && strcmp(o, "--shift") == 0 && more) {
            if ((rc = cli_number(cmd, o, argv[++i], &shift)))
                return rc;
            has_shift = true;
        } else if (edit && strcmp(o, "--resample") == 0 && more) {
            if ((rc = cli_number(cmd, o, argv[++i], &rate)))
                return rc;
            has_rate = true;
        } else if (edit && strcmp(o, "--simplify") == 0) {
            simplify = true;
        } else if (edit && strcmp(o, "--repair") == 0) {
            repair = true;
        } else if (o[0] == '-' && o[1]) {
            return cli_unknown_option(cmd, o);
        } else if (!in) {
            in = o;
        } else if (!out) {
            out = o;
        } else {
            return cli_usage_error(cmd, "takes IN and OUT");
        }
    }
    if (!in || !out)
        return cli_usage_error(cmd, "takes IN and OUT");
    if (t.layout >= 0 && t.minor == 0)
        return cli_usage_error(cmd, "--layout only applies to version 1.1");
    sinew_input_animation *a;
    if ((rc = load(in, &a)))
        return rc;
    uint64_t before = sinew_input_key_count(a);
    sinew_error err = {0};
    sinew_status st = SINEW_OK;
    uint32_t repaired = 0;
    uint64_t removed = 0;
    if (repair)
        st = sinew_input_repair_rotation_w(a, &repaired, &err);
    if (!st && has_trim) {
        /* a range that holds no key would give an empty recording: refused, naming the span */
        double t0 = sinew_input_start_time(a), t1 = sinew_input_duration(a);
        if (trim0 > t1 || trim1 < t0) {
            sinew_input_destroy(a);
            fprintf(stderr, "%s: error: --trim %g:%g is outside the recording, which spans %g to %g s\n", in, trim0,
                    trim1, t0, t1);
            return SINEW_EXIT_INPUT;
        }
        st = sinew_input_trim(a, trim0, trim1, true, &err);
    }
    if (!st && has_shift)
        st = sinew_input_shift(a, shift, &err);
    if (!st && has_rate)
        st = sinew_input_resample(a, rate, &err);
    if (!st && simplify)
        st = sinew_input_simplify(a, NULL, &removed, &err);
    if (st) {
        cli_print_error(in, &err);
        sinew_input_destroy(a);
        return cli_exit_code(st);
    }
    rc = save(a, in, out, t);
    if (!rc && edit) {
        printf("%s: %llu keys (was %llu), duration ", out, (unsigned long long)sinew_input_key_count(a),
               (unsigned long long)before);
        put_seconds(stdout, sinew_input_duration(a));
        printf(" s");
        if (repair)
            printf(", %u RotationW curve(s) rebuilt", repaired);
        if (simplify)
            printf(", %llu key(s) removed by simplify", (unsigned long long)removed);
        printf("\n");
    }
    sinew_input_destroy(a);
    return rc;
}

/* ---- validate ------------------------------------------------------------------------------ */

static int cmd_validate(int argc, char **argv) {
    const char *file = NULL;
    bool strict = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_unknown_option("input validate", argv[i]);
        else if (!file)
            file = argv[i];
        else
            return cli_usage_error("input validate", "one FILE only");
    }
    if (!file)
        return cli_usage_error("input validate", "missing FILE");
    sinew_input_animation *a;
    int rc = load(file, &a);
    if (rc)
        return rc;
    uint32_t n = sinew_input_validate(a, file, cli_log, (void *)file);
    printf("%s: ok, MRTK input animation %d.%d, %u warning%s\n", file, a->version_major, a->version_minor, n,
           n == 1 ? "" : "s");
    sinew_input_destroy(a);
    return (strict && n) ? SINEW_EXIT_INPUT : SINEW_EXIT_OK;
}

/* ---- render ---------------------------------------------------------------------------------- */

static int cmd_render(int argc, char **argv) {
    const char *cmd = "input render";
    const char *file = NULL, *outp = NULL, *view_s = "front";
    double fps = 30, at = 0;
    bool one_time = false;
    uint32_t w = 640, h = 480;
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(o, "--out") == 0 && more) {
            outp = argv[++i];
        } else if (strcmp(o, "--view") == 0 && more) {
            view_s = argv[++i];
        } else if (strcmp(o, "--fps") == 0 && more) {
            if ((rc = cli_number(cmd, o, argv[++i], &fps)))
                return rc;
        } else if (strcmp(o, "--time") == 0 && more) {
            if ((rc = cli_number(cmd, o, argv[++i], &at)))
                return rc;
            one_time = true;
        } else if (strcmp(o, "--size") == 0 && more) {
            if ((rc = cli_size(cmd, o, argv[++i], &w, &h)))
                return rc;
        } else if (o[0] == '-' && o[1]) {
            return cli_unknown_option(cmd, o);
        } else if (!file) {
            file = o;
        } else {
            return cli_usage_error(cmd, "one FILE only");
        }
    }
    if (!file || !outp)
        return cli_usage_error(cmd, "needs FILE and --out OUT");
    sinew_input_view_kind kind;
    if (strcmp(view_s, "front") == 0)
        kind = SINEW_INPUT_VIEW_FRONT;
    else if (strcmp(view_s, "top") == 0)
        kind = SINEW_INPUT_VIEW_TOP;
    else if (strcmp(view_s, "camera") == 0)
        kind = SINEW_INPUT_VIEW_CAMERA;
    else
        return cli_usage_error(cmd, "--view must be front, top or camera");
    sinew_export_format fmt = sinew_export_format_for_path(outp, false);
    if (fmt == SINEW_EXPORT_AUTO)
        return cli_usage_error(cmd, "--out must end in .gif, .webp, .mp4, .webm or .png (a %%04d pattern for frames)");
    sinew_input_animation *a;
    rc = load(file, &a);
    if (rc)
        return rc;
    double t0 = sinew_input_start_time(a), t1 = sinew_input_duration(a);
    uint32_t frames = one_time ? 1 : (uint32_t)fmin(floor((t1 - t0) * fps + 1e-9) + 1, 1e6);
    if (fmt == SINEW_EXPORT_PNG && frames > 1) {
        sinew_input_destroy(a);
        return cli_usage_error(cmd, "a single .png holds one frame: use --time T, or a pattern like out_%%04d.png");
    }
    if (one_time)
        t0 = at;
    sinew_input_view view;
    sinew_input_view_fit(a, kind, w, h, &view);
    sinew_error err = {0};
    sinew_input_scene *scene = NULL;
    sinew_renderer *r = NULL;
    sinew_framebuffer fb;
    memset(&fb, 0, sizeof fb);
    sinew_exporter *ex = NULL;
    sinew_input_cursor *cur = calloc(1, sizeof *cur);
    const char *inputs[1] = {file};
    sinew_export_options eo;
    memset(&eo, 0, sizeof eo);
    eo.path = outp;
    eo.width = w;
    eo.height = h;
    eo.fps = fps;
    eo.inputs = inputs;
    eo.input_count = 1;
    eo.video_background = (sinew_rgba8){32, 32, 36, 255};
    sinew_status st = cur ? SINEW_OK : SINEW_E_NOMEM;
    if (!st)
        st = sinew_input_scene_create(NULL, &scene, &err);
    if (!st)
        st = sinew_renderer_create(NULL, &r, &err);
    if (!st)
        st = sinew_framebuffer_init(&fb, w, h, NULL, &err);
    if (!st)
        st = sinew_export_begin(&eo, &ex, &err);
    for (uint32_t i = 0; !st && i < frames; i++) {
        sinew_input_frame f;
        sinew_input_eval_cursor(a, cur, t0 + i / fps, &f);
        sinew_drawlist dl;
        st = sinew_input_build_drawlist(scene, &f, &view, &dl, &err);
        if (st)
            break;
        sinew_framebuffer_clear(&fb, (sinew_rgba8){32, 32, 36, 255});
        st = sinew_renderer_draw(r, &dl, NULL, NULL, &fb, &err);
        if (!st)
            st = sinew_export_frame(ex, &fb, &err);
    }
    if (ex) {
        if (st)
            sinew_export_abort(ex);
        else
            st = sinew_export_end(ex, &err);
    }
    if (st) {
        cli_print_error(outp, &err);
        rc = cli_exit_code(st);
    } else {
        printf("%s: %u frame%s, %ux%u, %s view\n", outp, frames, frames == 1 ? "" : "s", w, h, view_s);
    }
    sinew_framebuffer_free(&fb);
    sinew_renderer_destroy(r);
    sinew_input_scene_destroy(scene);
    free(cur);
    sinew_input_destroy(a);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

/* `sinew input SUB --help`: each subcommand's own help. */

static const struct sub_help_entry {
    const char *name;
    cli_help help;
} sub_helps[] = {
    {"info", {"sinew input info FILE [--json]",
              "Prints the version, layout, sections, duration, key count and markers of a recording.\n"
              "FILE may be a binary recording (.bin, any extension) or a dump (.json).\n",
              "  --json            one JSON object\n",
              "  sinew input info rec.bin\n  sinew input info rec.bin --json\n", NULL}},
    {"dump", {"sinew input dump FILE [--format json|csv]",
              "Prints every curve and key: the dump JSON (schema: docs/input.md) or one CSV row per key.\n"
              "FILE may be a binary recording (.bin, any extension) or a dump (.json).\n",
              "  --format F        json (default) or csv\n",
              "  sinew input dump rec.bin > rec.json\n  sinew input dump rec.bin --format csv > keys.csv\n", NULL}},
    {"eval", {"sinew input eval FILE (--time T | --times A:B:STEP) [--json]",
              "Evaluates the whole pose (camera, both hands, eye gaze) at time T, or at A, A+STEP, ...\n"
              "up to B. FILE may be a binary recording (.bin, any extension) or a dump (.json).\n",
              "  --time T          one time, in seconds\n"
              "  --times A:B:STEP  times from A to B (A <= B, STEP > 0; at most 10 million)\n"
              "  --json            JSON instead of text\n",
              "  sinew input eval rec.bin --time 1.5\n  sinew input eval rec.bin --times 0:2:0.5 --json\n", NULL}},
    {"convert", {"sinew input convert IN OUT [--version 1.0|1.1] [--layout mrtk|spec]",
                 "Binary <-> dump JSON, by the extension of OUT (.json = dump JSON). OUT is written\n"
                 "atomically and is never IN.\n",
                 "  --version V       1.0 or 1.1 (default: IN's); 1.0 has no eye gaze\n"
                 "  --layout L        for 1.1: mrtk (what MRTK writes, default for IN's) or spec\n",
                 "  sinew input convert rec.bin rec.json\n  sinew input convert rec.json rec-1.0.bin --version 1.0\n",
                 NULL}},
    {"edit", {"sinew input edit IN OUT [--repair] [--trim A:B] [--shift S] [--resample HZ] [--simplify]\n"
              "              [--version 1.0|1.1] [--layout mrtk|spec]",
              "Edits a recording; the edits apply in the order of the options below.\n",
              "  --repair          rebuild RotationW where MRTK 2.5+ lost it\n"
              "  --trim A:B        keep the keys from A to B seconds (A <= B)\n"
              "  --shift S         move every key by S seconds\n"
              "  --resample HZ     re-key float curves at HZ, (0, 1000]\n"
              "  --simplify        remove keys within MRTK's tolerances\n"
              "  --version V       1.0 or 1.1 (default: IN's)\n"
              "  --layout L        for 1.1: mrtk or spec\n",
              "  sinew input edit rec.bin short.bin --trim 1:3 --shift -1\n"
              "  sinew input edit rec.bin small.bin --resample 30 --simplify\n", NULL}},
    {"validate", {"sinew input validate FILE [--strict]",
                  "Structural errors exit 2; warnings (unsorted keys, non-finite values, unknown wrap\n"
                  "modes, ...) are listed. FILE may be a binary recording or a dump (.json).\n",
                  "  --strict          warnings exit 2 too\n",
                  "  sinew input validate rec.bin\n  sinew input validate rec.bin --strict\n", NULL}},
    {"render", {"sinew input render FILE --out OUT [--view front|top|camera] [--fps N] [--size WxH]\n"
                "                         [--time T]",
                "Draws the hands, camera and gaze ray: OUT .gif, .webp, .mp4, .webm, or a .png pattern\n"
                "(out_%04d.png); a single .png with --time T. FILE may be a binary recording or a dump.\n",
                "  --out OUT         the output (its format from the extension)\n"
                "  --view V          front (default), top, or camera (through the recorded camera)\n"
                "  --fps N           frames per second, (0, 1000] (default 30)\n"
                "  --size WxH        image size (default 640x480)\n"
                "  --time T          one frame at T seconds\n",
                "  sinew input render rec.bin --out rec.gif\n"
                "  sinew input render rec.bin --view camera --time 1 --out at1s.png\n", NULL}},
};

static void sub_help(const char *sub) {
    for (size_t i = 0; i < sizeof sub_helps / sizeof sub_helps[0]; i++)
        if (strcmp(sub_helps[i].name, sub) == 0) {
            cli_help_print(&sub_helps[i].help);
            return;
        }
    fputs(usage_text, stdout);
}

const cli_help sinew_cmd_input_usage = {"sinew input COMMAND FILE [OPTIONS]", NULL, NULL, NULL, NULL};

static int run_sub(const char *sub, int argc, char **argv) {
    if (strcmp(sub, "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(sub, "dump") == 0)
        return cmd_dump(argc, argv);
    if (strcmp(sub, "eval") == 0)
        return cmd_eval(argc, argv);
    if (strcmp(sub, "convert") == 0)
        return cmd_convert_edit(argc, argv, false);
    if (strcmp(sub, "edit") == 0)
        return cmd_convert_edit(argc, argv, true);
    if (strcmp(sub, "validate") == 0)
        return cmd_validate(argc, argv);
    return cmd_render(argc, argv);
}

int sinew_cmd_input(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return SINEW_EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        fputs(usage_text, stdout);
        return SINEW_EXIT_OK;
    }
    const char *sub = argv[1];
    const cli_help *h = NULL;
    const char *names[sizeof sub_helps / sizeof sub_helps[0]];
    for (size_t i = 0; i < sizeof sub_helps / sizeof sub_helps[0]; i++) {
        names[i] = sub_helps[i].name;
        if (strcmp(sub_helps[i].name, sub) == 0)
            h = &sub_helps[i].help;
    }
    if (!h) {
        const char *near = cli_suggest(sub, names, sizeof names / sizeof names[0]);
        if (near)
            fprintf(stderr, "sinew input: unknown command '%s' (did you mean '%s'?)\n", sub, near);
        else
            fprintf(stderr, "sinew input: unknown command '%s'\n", sub);
        fputs(usage_text, stderr);
        return SINEW_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            sub_help(sub);
            return SINEW_EXIT_OK;
        }
    }
    char cmd[32];
    snprintf(cmd, sizeof cmd, "input %s", sub);
    int n;
    char **args;
    int rc = cli_prepare_args(cmd, h, argc - 1, argv + 1, &n, &args);
    if (rc)
        return rc;
    rc = run_sub(sub, n, args);
    free(args);
    return rc;
}
