/* MRTK input animation: the dump JSON (writer and reader) and the CSV writer. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_dom.h"
#include "base/num.h"
#include "input/input_internal.h"

static const char *const pose_keys[7] = {"px", "py", "pz", "rx", "ry", "rz", "rw"};
static const char *const ray_keys[6] = {"ox", "oy", "oz", "dx", "dy", "dz"};
static const char *const hand_names[2] = {"left", "right"};

void sinew_input_format_float(float v, char *buf, size_t size) {
    if (isnan(v)) {
        snprintf(buf, size, "\"NaN\"");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, size, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        return;
    }
    for (int p = 6; p <= 9; p++) {
        sinew__snprintf(buf, size, "%.*g", p, (double)v);
        float back = sinew__strtof(buf, NULL);
        if (memcmp(&back, &v, sizeof v) == 0)
            return;
    }
}

/* ---- writer ------------------------------------------------------------------------------- */

static void put_float(FILE *out, float v) {
    char buf[48];
    sinew_input_format_float(v, buf, sizeof buf);
    fputs(buf, out);
}

static void put_string(FILE *out, const char *s, uint32_t len) {
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    uint32_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            fputc(c, out);
            i++;
        } else {
            /* copy a valid UTF-8 sequence; replace an invalid byte with U+FFFD */
            uint32_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            bool ok = n > 0 && i + n <= len;
            for (uint32_t k = 1; ok && k < n; k++)
                ok = (p[i + k] & 0xc0) == 0x80;
            if (ok && n == 3) {
                uint32_t cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);
                ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
            } else if (ok && n == 4) {
                uint32_t cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(p[i + 1] & 0x3f) << 12 |
                              (uint32_t)(p[i + 2] & 0x3f) << 6 | (p[i + 3] & 0x3f);
                ok = cp >= 0x10000 && cp <= 0x10ffff;
            }
            if (ok) {
                fwrite(p + i, 1, n, out);
                i += n;
            } else {
                fputs("\\ufffd", out);
                i++;
            }
        }
    }
    fputc('"', out);
}

static void put_curve(FILE *out, const sinew_curve *c, bool is_bool) {
    fprintf(out, "{\"preWrap\":%d,\"postWrap\":%d,\"keys\":[", c->pre_wrap, c->post_wrap);
    for (uint32_t k = 0; k < c->key_count; k++) {
        const sinew_curve_key *key = &c->keys[k];
        fputs(k ? ",[" : "[", out);
        put_float(out, key->time);
        fputc(',', out);
        put_float(out, key->value);
        if (!is_bool) {
            fputc(',', out);
            put_float(out, key->in_tangent);
            fputc(',', out);
            put_float(out, key->out_tangent);
            fputc(',', out);
            put_float(out, key->in_weight);
            fputc(',', out);
            put_float(out, key->out_weight);
            fprintf(out, ",%d", key->weighted_mode);
        }
        fputc(']', out);
    }
    fputs("]}", out);
}

static void put_group(FILE *out, const sinew_input_animation *a, uint32_t base, const char *const *names,
                      int n) {
    fputc('{', out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s\n\"%s\":", i ? "," : "", names[i]);
        put_curve(out, &a->curves[base + (uint32_t)i], false);
    }
    fputc('}', out);
}

sinew_status sinew_input_write_json(const sinew_input_animation *a, FILE *out, sinew_error *err) {
    if (!a || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    fprintf(out, "{\"version\":\"%d.%d\",\"layout\":\"%s\",\"hasCamera\":%s,\"hasHands\":%s,\"hasEyeGaze\":%s,\n",
            a->version_major, a->version_minor, a->layout == SINEW_INPUT_LAYOUT_SPEC ? "spec" : "mrtk",
            a->has_camera ? "true" : "false", a->has_hands ? "true" : "false",
            a->has_eye_gaze ? "true" : "false");
    fputs("\"camera\":", out);
    if (a->has_camera)
        put_group(out, a, SINEW_INPUT_CURVE_CAMERA, pose_keys, 7);
    else
        fputs("null", out);
    fputs(",\n\"hands\":", out);
    if (a->has_hands) {
        fputc('{', out);
        for (int h = 0; h < 2; h++) {
            fprintf(out, "%s\n\"%s\":{\"tracked\":", h ? "," : "", hand_names[h]);
            put_curve(out, &a->curves[SINEW_INPUT_CURVE_TRACKED(h)], true);
            fputs(",\"pinch\":", out);
            put_curve(out, &a->curves[SINEW_INPUT_CURVE_PINCH(h)], true);
            fputs(",\"joints\":{", out);
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++) {
                fprintf(out, "%s\n\"%s\":", j ? "," : "", sinew_input_joint_name(j));
                put_group(out, a, SINEW_INPUT_CURVE_JOINT(h, j, 0), pose_keys, 7);
            }
            fputs("}}", out);
        }
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fputs(",\n\"eyeGaze\":", out);
    if (a->has_eye_gaze)
        put_group(out, a, SINEW_INPUT_CURVE_GAZE, ray_keys, 6);
    else
        fputs("null", out);
    fputs(",\n\"markers\":[", out);
    for (uint32_t i = 0; i < a->marker_count; i++) {
        fputs(i ? ",{\"time\":" : "{\"time\":", out);
        put_float(out, a->markers[i].time);
        fputs(",\"name\":", out);
        put_string(out, a->markers[i].name, a->markers[i].name_length);
        fputc('}', out);
    }
    fputs("]}\n", out);
    if (ferror(out))
        return sinew__fail(err, SINEW_E_IO, NULL, "write error");
    return SINEW_OK;
}

static void csv_curve(FILE *out, const sinew_curve *c, const char *section, const char *hand,
                      const char *joint, const char *channel, bool is_bool) {
    for (uint32_t k = 0; k < c->key_count; k++) {
        const sinew_curve_key *key = &c->keys[k];
        fprintf(out, "%s,%s,%s,%s,", section, hand, joint, channel);
        char b[48];
        sinew_input_format_float(key->time, b, sizeof b);
        fprintf(out, "%s,", b);
        sinew_input_format_float(key->value, b, sizeof b);
        fputs(b, out);
        if (is_bool) {
            fputs(",,,,,\n", out);
            continue;
        }
        const float f[4] = {key->in_tangent, key->out_tangent, key->in_weight, key->out_weight};
        for (int i = 0; i < 4; i++) {
            sinew_input_format_float(f[i], b, sizeof b);
            /* CSV: no quotes around NaN/Infinity */
            if (b[0] == '"') {
                size_t n = strlen(b);
                b[n - 1] = 0;
                fprintf(out, ",%s", b + 1);
            } else {
                fprintf(out, ",%s", b);
            }
        }
        fprintf(out, ",%d\n", key->weighted_mode);
    }
}

sinew_status sinew_input_write_csv(const sinew_input_animation *a, FILE *out, sinew_error *err) {
    if (!a || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    fputs("section,hand,joint,channel,time,value,inTangent,outTangent,inWeight,outWeight,weightedMode\n", out);
    if (a->has_camera)
        for (uint32_t i = 0; i < 7; i++)
            csv_curve(out, &a->curves[i], "camera", "", "", pose_keys[i], false);
    if (a->has_hands) {
        for (int h = 0; h < 2; h++) {
            csv_curve(out, &a->curves[SINEW_INPUT_CURVE_TRACKED(h)], "hands", hand_names[h], "", "tracked", true);
            csv_curve(out, &a->curves[SINEW_INPUT_CURVE_PINCH(h)], "hands", hand_names[h], "", "pinch", true);
        }
        for (int h = 0; h < 2; h++)
            for (uint32_t j = 0; j < SINEW_INPUT_JOINT_COUNT; j++)
                for (uint32_t ch = 0; ch < 7; ch++)
                    csv_curve(out, &a->curves[SINEW_INPUT_CURVE_JOINT(h, j, ch)], "hands", hand_names[h],
                              sinew_input_joint_name(j), pose_keys[ch], false);
    }
    if (a->has_eye_gaze)
        for (uint32_t i = 0; i < 6; i++)
            csv_curve(out, &a->curves[SINEW_INPUT_CURVE_GAZE + i], "eyeGaze", "", "", ray_keys[i], false);
    if (ferror(out))
        return sinew__fail(err, SINEW_E_IO, NULL, "write error");
    return SINEW_OK;
}

/* ---- reader ------------------------------------------------------------------------------- */

typedef struct jctx {
    const char *name;
    sinew_error *err;
    sinew_input_animation *anim;
} jctx;

static sinew_status jfail(jctx *c, sinew_status code, const char *path, const char *fmt, const char *detail) {
    if (c->err && c->err->code == SINEW_OK) {
        sinew__fail(c->err, code, path, fmt, detail ? detail : "");
        c->err->file = c->name;
    }
    return code;
}

static sinew_status get_float(jctx *c, const cJSON *v, const char *path, float *out) {
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (isfinite(d) && fabs(d) > 3.4028235677973366e38)
            return jfail(c, SINEW_E_RANGE, path, "number out of Float32 range%s", "");
        *out = (float)d;
        return SINEW_OK;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (strcmp(s, "NaN") == 0) {
            *out = NAN;
            return SINEW_OK;
        }
        if (strcmp(s, "Infinity") == 0) {
            *out = INFINITY;
            return SINEW_OK;
        }
        if (strcmp(s, "-Infinity") == 0) {
            *out = -INFINITY;
            return SINEW_OK;
        }
    }
    return jfail(c, SINEW_E_TYPE, path, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\")%s", "");
}

static sinew_status get_i32(jctx *c, const cJSON *v, const char *path, int32_t *out) {
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < -2147483648.0 ||
        v->valuedouble > 2147483647.0)
        return jfail(c, SINEW_E_TYPE, path, "expected an Int32%s", "");
    *out = (int32_t)v->valuedouble;
    return SINEW_OK;
}

static sinew_status read_curve(jctx *c, const cJSON *v, const char *path, uint32_t index) {
    bool is_bool = sinew_input_curve_is_bool(index);
    char p[160];
    if (!cJSON_IsObject(v))
        return jfail(c, SINEW_E_TYPE, path, "expected a curve object {\"preWrap\",\"postWrap\",\"keys\"}%s", "");
    sinew_curve *curve = &c->anim->curves[index];
    sinew_status st;
    for (const cJSON *m = v->child; m; m = m->next) {
        snprintf(p, sizeof p, "%s.%s", path, m->string);
        if (strcmp(m->string, "preWrap") == 0) {
            if ((st = get_i32(c, m, p, &curve->pre_wrap)))
                return st;
        } else if (strcmp(m->string, "postWrap") == 0) {
            if ((st = get_i32(c, m, p, &curve->post_wrap)))
                return st;
        } else if (strcmp(m->string, "keys") != 0) {
            return jfail(c, SINEW_E_TYPE, p, "unknown member \"%s\"", m->string);
        }
    }
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(v, "keys");
    snprintf(p, sizeof p, "%s.keys", path);
    if (!keys)
        return SINEW_OK;
    if (!cJSON_IsArray(keys))
        return jfail(c, SINEW_E_TYPE, p, "expected an array of keys%s", "");
    int n = cJSON_GetArraySize(keys);
    if (n <= 0)
        return SINEW_OK;
    sinew_curve_key *out = sinew__calloc(c->anim->allocator, (size_t)n, sizeof *out);
    if (!out)
        return jfail(c, SINEW_E_NOMEM, p, "out of memory%s", "");
    st = sinew__input_take_keys(c->anim, index, out, 0, c->err); /* owned by the curve from now on */
    c->anim->curves[index].key_count = (uint32_t)n;
    if (st)
        return st;
    int i = 0;
    for (const cJSON *k = keys->child; k; k = k->next, i++) {
        snprintf(p, sizeof p, "%s.keys[%d]", path, i);
        int len = cJSON_IsArray(k) ? cJSON_GetArraySize(k) : -1;
        if (len != 2 && (is_bool || len != 7))
            return jfail(c, SINEW_E_TYPE, p, is_bool ? "expected a key [time, value]%s"
                                                     : "expected a key [time, value, inTangent, outTangent, inWeight, outWeight, weightedMode] or [time, value]%s",
                         "");
        float f[6] = {0};
        int32_t mode = SINEW_WEIGHTED_BOTH;
        int e = 0;
        for (const cJSON *x = k->child; x; x = x->next, e++) {
            char pe[180];
            snprintf(pe, sizeof pe, "%s[%d]", p, e);
            st = e < 6 ? get_float(c, x, pe, &f[e]) : get_i32(c, x, pe, &mode);
            if (st)
                return st;
        }
        if (is_bool)
            out[i] = sinew__input_bool_key(f[0], f[1]);
        else if (len == 2)
            out[i] = sinew__input_simple_key(f[0], f[1]);
        else {
            sinew_curve_key key = {f[0], f[1], f[2], f[3], f[4], f[5], mode};
            out[i] = key;
        }
    }
    return sinew_curve_prepare(&c->anim->curves[index], c->anim->allocator, c->err);
}

static sinew_status read_group(jctx *c, const cJSON *v, const char *path, uint32_t base,
                               const char *const *names, int n) {
    if (!cJSON_IsObject(v))
        return jfail(c, SINEW_E_TYPE, path, "expected an object of curves%s", "");
    char p[160];
    for (const cJSON *m = v->child; m; m = m->next) {
        int i = 0;
        while (i < n && strcmp(names[i], m->string) != 0)
            i++;
        snprintf(p, sizeof p, "%s.%s", path, m->string);
        if (i == n)
            return jfail(c, SINEW_E_TYPE, p, "unknown channel \"%s\"", m->string);
        sinew_status st = read_curve(c, m, p, base + (uint32_t)i);
        if (st)
            return st;
    }
    return SINEW_OK;
}

static sinew_status read_hand(jctx *c, const cJSON *v, const char *path, int h) {
    if (!cJSON_IsObject(v))
        return jfail(c, SINEW_E_TYPE, path, "expected a hand object {\"tracked\",\"pinch\",\"joints\"}%s", "");
    char p[160];
    sinew_status st;
    for (const cJSON *m = v->child; m; m = m->next) {
        snprintf(p, sizeof p, "%s.%s", path, m->string);
        if (strcmp(m->string, "tracked") == 0) {
            st = read_curve(c, m, p, SINEW_INPUT_CURVE_TRACKED(h));
        } else if (strcmp(m->string, "pinch") == 0) {
            st = read_curve(c, m, p, SINEW_INPUT_CURVE_PINCH(h));
        } else if (strcmp(m->string, "joints") == 0) {
            if (!cJSON_IsObject(m))
                return jfail(c, SINEW_E_TYPE, p, "expected an object of joints%s", "");
            st = SINEW_OK;
            for (const cJSON *j = m->child; j && !st; j = j->next) {
                char pj[200];
                snprintf(pj, sizeof pj, "%s.%s", p, j->string);
                uint32_t ji = sinew_input_joint_index(j->string);
                if (ji == SINEW_INVALID_INDEX)
                    return jfail(c, SINEW_E_TYPE, pj, "unknown joint \"%s\" (MRTK 2.x joint names)", j->string);
                st = read_group(c, j, pj, SINEW_INPUT_CURVE_JOINT(h, ji, 0), pose_keys, 7);
            }
        } else {
            return jfail(c, SINEW_E_TYPE, p, "unknown member \"%s\"", m->string);
        }
        if (st)
            return st;
    }
    return SINEW_OK;
}

static sinew_status get_flag(jctx *c, const cJSON *root, const char *key, const cJSON *section, bool *out) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, key);
    bool present = section && !cJSON_IsNull(section);
    if (!f) {
        *out = present;
        return SINEW_OK;
    }
    if (!cJSON_IsBool(f))
        return jfail(c, SINEW_E_TYPE, key, "expected true or false%s", "");
    *out = cJSON_IsTrue(f);
    if (present && !*out)
        return jfail(c, SINEW_E_LAYOUT, key, "the section is given but %s is false", key);
    return SINEW_OK;
}

static sinew_status read_root(jctx *c, const cJSON *root) {
    if (!cJSON_IsObject(root))
        return jfail(c, SINEW_E_TYPE, "$", "expected an object%s", "");
    static const char *const known[] = {"version", "layout", "hasCamera", "hasHands", "hasEyeGaze",
                                        "camera", "hands", "eyeGaze", "markers"};
    for (const cJSON *m = root->child; m; m = m->next) {
        size_t i = 0;
        while (i < sizeof known / sizeof *known && strcmp(known[i], m->string) != 0)
            i++;
        if (i == sizeof known / sizeof *known)
            return jfail(c, SINEW_E_TYPE, m->string, "unknown member \"%s\"", m->string);
    }
    sinew_input_animation *a = c->anim;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsString(v))
        return jfail(c, SINEW_E_MISSING, "version", "expected \"version\": \"1.0\" or \"1.1\"%s", "");
    if (strcmp(v->valuestring, "1.0") == 0)
        a->version_minor = 0;
    else if (strcmp(v->valuestring, "1.1") == 0)
        a->version_minor = 1;
    else
        return jfail(c, SINEW_E_VERSION, "version", "unsupported version \"%s\" (1.0 or 1.1)", v->valuestring);
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(root, "layout");
    if (l) {
        if (cJSON_IsString(l) && strcmp(l->valuestring, "mrtk") == 0)
            a->layout = SINEW_INPUT_LAYOUT_MRTK;
        else if (cJSON_IsString(l) && strcmp(l->valuestring, "spec") == 0)
            a->layout = SINEW_INPUT_LAYOUT_SPEC;
        else
            return jfail(c, SINEW_E_TYPE, "layout", "expected \"mrtk\" or \"spec\"%s", "");
    }
    const cJSON *cam = cJSON_GetObjectItemCaseSensitive(root, "camera");
    const cJSON *hands = cJSON_GetObjectItemCaseSensitive(root, "hands");
    const cJSON *eye = cJSON_GetObjectItemCaseSensitive(root, "eyeGaze");
    sinew_status st;
    if ((st = get_flag(c, root, "hasCamera", cam, &a->has_camera)) ||
        (st = get_flag(c, root, "hasHands", hands, &a->has_hands)) ||
        (st = get_flag(c, root, "hasEyeGaze", eye, &a->has_eye_gaze)))
        return st;
    if (cam && !cJSON_IsNull(cam) && (st = read_group(c, cam, "camera", SINEW_INPUT_CURVE_CAMERA, pose_keys, 7)))
        return st;
    if (hands && !cJSON_IsNull(hands)) {
        if (!cJSON_IsObject(hands))
            return jfail(c, SINEW_E_TYPE, "hands", "expected {\"left\": HAND, \"right\": HAND}%s", "");
        for (const cJSON *m = hands->child; m; m = m->next) {
            char p[64];
            snprintf(p, sizeof p, "hands.%s", m->string);
            int h = strcmp(m->string, "left") == 0 ? 0 : strcmp(m->string, "right") == 0 ? 1 : -1;
            if (h < 0)
                return jfail(c, SINEW_E_TYPE, p, "unknown hand \"%s\" (left or right)", m->string);
            if ((st = read_hand(c, m, p, h)))
                return st;
        }
    }
    if (eye && !cJSON_IsNull(eye) && (st = read_group(c, eye, "eyeGaze", SINEW_INPUT_CURVE_GAZE, ray_keys, 6)))
        return st;
    const cJSON *markers = cJSON_GetObjectItemCaseSensitive(root, "markers");
    if (markers && !cJSON_IsNull(markers)) {
        if (!cJSON_IsArray(markers))
            return jfail(c, SINEW_E_TYPE, "markers", "expected an array of {\"time\", \"name\"}%s", "");
        int i = 0;
        for (const cJSON *m = markers->child; m; m = m->next, i++) {
            char p[64];
            snprintf(p, sizeof p, "markers[%d]", i);
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "time");
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "name");
            if (!cJSON_IsObject(m) || !t || !cJSON_IsString(n))
                return jfail(c, SINEW_E_TYPE, p, "expected {\"time\": number, \"name\": string}%s", "");
            float time;
            char pt[80];
            snprintf(pt, sizeof pt, "%s.time", p);
            if ((st = get_float(c, t, pt, &time)))
                return st;
            size_t len = strlen(n->valuestring);
            if (len > INT32_MAX)
                return jfail(c, SINEW_E_RANGE, p, "marker name too long%s", "");
            if ((st = sinew_input_add_marker(a, time, n->valuestring, (uint32_t)len, c->err)))
                return st;
        }
    }
    return SINEW_OK;
}

sinew_status sinew_input_read_json(const char *text, size_t length, const char *name,
                                   const sinew_allocator *allocator, sinew_input_animation **out,
                                   sinew_error *err) {
    if (!out || (!text && length))
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    *out = NULL;
    /* sinew's JSON reader (its numbers do not follow the locale: base/num.h); trailing bytes
       after the document are ignored, as they always were */
    sinew_jdom dom;
    memset(&dom, 0, sizeof dom);
    dom.allocator = allocator;
    cJSON *root = NULL;
    size_t off = 0;
    if (sinew__jdom_parse(&dom, text ? text : "", length, 1000, &root, &off) != SINEW_JDOM_OK) {
        sinew__jdom_free(&dom);
        uint32_t line, col;
        sinew__locate(text ? text : "", length, off, &line, &col);
        return sinew__fail_at(err, SINEW_E_PARSE, name, line, col, NULL, "invalid JSON");
    }
    sinew_input_animation *a;
    sinew_status st = sinew_input_create(allocator, &a, err);
    if (st) {
        sinew__jdom_free(&dom);
        return st;
    }
    jctx c = {name, err, a};
    st = read_root(&c, root);
    sinew__jdom_free(&dom);
    if (st) {
        sinew_input_destroy(a);
        return st;
    }
    *out = a;
    return SINEW_OK;
}

sinew_status sinew_input_load_json_file(const char *path, const sinew_allocator *allocator,
                                        sinew_input_animation **out, sinew_error *err) {
    uint8_t *data;
    size_t size;
    sinew_status st = sinew__input_read_file(path, allocator, &data, &size, err);
    if (st)
        return st;
    st = sinew_input_read_json((const char *)data, size, path, allocator, out, err);
    sinew__free(allocator, data, size + 1);
    return st;
}
