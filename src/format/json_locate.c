#include "format/json_locate.h"

#include <stdio.h>
#include <string.h>

/* ---- scanner primitives ------------------------------------------------------------------- */

static size_t skip_ws(const char *t, size_t len, size_t i) {
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* t[i] == '"': returns the index just past the closing quote (or len). */
static size_t skip_string(const char *t, size_t len, size_t i) {
    i++;
    while (i < len) {
        char ch = t[i];
        if (ch == '\\') {
            i += 2;
            continue;
        }
        i++;
        if (ch == '"')
            return i;
    }
    return len;
}

/* Skips one value starting at t[i] (after whitespace); returns the index just past it. */
static size_t skip_value(const char *t, size_t len, size_t i) {
    i = skip_ws(t, len, i);
    if (i >= len)
        return len;
    if (t[i] == '"')
        return skip_string(t, len, i);
    if (t[i] == '{' || t[i] == '[') {
        size_t depth = 0;
        while (i < len) {
            char ch = t[i];
            if (ch == '"') {
                i = skip_string(t, len, i);
                continue;
            }
            if (ch == '{' || ch == '[') {
                depth++;
            } else if (ch == '}' || ch == ']') {
                depth--;
                if (depth == 0)
                    return i + 1;
            }
            i++;
        }
        return len;
    }
    /* scalar: up to a delimiter */
    while (i < len && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n' &&
           t[i] != '\r' && t[i] != '\t')
        i++;
    return i;
}

/* Compares the raw key text between quotes (t[start..end)) with `key` (no escape decoding). */
static bool key_equals(const char *t, size_t start, size_t end, const char *key) {
    size_t n = strlen(key);
    return end - start == n && memcmp(t + start, key, n) == 0;
}

/* Steps over the member or element value at *j and the comma after it: false when no comma
 * follows (the end of the object or array, or broken text). */
static bool next_item(const char *text, size_t len, size_t *j) {
    size_t k = skip_ws(text, len, skip_value(text, len, *j));
    if (k < len && text[k] == ',') {
        *j = skip_ws(text, len, k + 1);
        return true;
    }
    *j = k;
    return false;
}

size_t sinew__json_locate(const char *text, size_t len, const sinew_json_seg *segs, size_t n, size_t *offset) {
    size_t i = skip_ws(text, len, 0);
    /* skip a UTF-8 byte order mark */
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        i = skip_ws(text, len, 3);
    *offset = i;
    size_t resolved = 0;
    for (size_t s = 0; s < n; s++) {
        if (i >= len)
            break;
        if (segs[s].key) {
            if (text[i] != '{')
                break;
            size_t j = skip_ws(text, len, i + 1);
            bool found = false;
            while (j < len && text[j] == '"') {
                size_t kend = skip_string(text, len, j);
                bool match = kend >= j + 2 && key_equals(text, j + 1, kend - 1, segs[s].key);
                j = skip_ws(text, len, kend);
                if (j >= len || text[j] != ':')
                    break;
                j = skip_ws(text, len, j + 1);
                if (match) {
                    i = j;
                    found = true;
                    break;
                }
                if (!next_item(text, len, &j))
                    break;
            }
            if (!found)
                break;
        } else {
            if (text[i] != '[')
                break;
            size_t j = skip_ws(text, len, i + 1);
            uint32_t k = 0;
            bool found = false;
            while (j < len && text[j] != ']') {
                if (k == segs[s].index) {
                    i = j;
                    found = true;
                    break;
                }
                if (!next_item(text, len, &j))
                    break;
                k++;
            }
            if (!found)
                break;
        }
        *offset = i;
        resolved++;
    }
    return resolved;
}

/* ---- path strings ------------------------------------------------------------------------- */

size_t sinew__json_path_parse(const char *path, char *buf, size_t buf_size, sinew_json_seg *segs, size_t max) {
    size_t n = 0, b = 0;
    const char *p = path;
    while (*p) {
        if (*p == '.') {
            p++;
            continue;
        }
        if (n >= max)
            return SIZE_MAX;
        if (*p == '[') {
            uint32_t v = 0;
            p++;
            while (*p >= '0' && *p <= '9') {
                v = v * 10u + (uint32_t)(*p - '0');
                p++;
            }
            if (*p == ']')
                p++;
            segs[n].key = NULL;
            segs[n].index = v;
            n++;
            continue;
        }
        size_t start = b;
        while (*p && *p != '.' && *p != '[') {
            if (b + 1 >= buf_size)
                return SIZE_MAX;
            buf[b++] = *p++;
        }
        if (b + 1 > buf_size)
            return SIZE_MAX;
        buf[b++] = '\0';
        segs[n].key = buf + start;
        segs[n].index = 0;
        n++;
    }
    return n;
}

void sinew__json_path_format(const sinew_json_seg *segs, size_t n, char *out, size_t size) {
    size_t used = 0;
    if (size == 0)
        return;
    out[0] = '\0';
    for (size_t i = 0; i < n && used + 1 < size; i++) {
        int w;
        if (segs[i].key)
            w = snprintf(out + used, size - used, "%s%s", i ? "." : "", segs[i].key);
        else
            w = snprintf(out + used, size - used, "[%u]", segs[i].index);
        if (w < 0)
            break;
        used += (size_t)w;
        if (used >= size) {
            out[size - 1] = '\0';
            break;
        }
    }
}

/* ---- pre-scan ------------------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if invalid (overlongs, surrogates and
 * code points above U+10FFFF are invalid). */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return (n >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if (c == 0xE0 && s[1] < 0xA0)
            return 0; /* overlong */
        if (c == 0xED && s[1] >= 0xA0)
            return 0; /* surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && s[1] < 0x90)
            return 0;
        if (c == 0xF4 && s[1] >= 0x90)
            return 0;
        return 4;
    }
    return 0;
}

/* Byte classes for the pre-scan: outside strings only quotes, brackets and non-ASCII bytes matter,
 * inside strings only quotes, backslashes and non-ASCII bytes. */
enum { C_PLAIN = 0, C_QUOTE, C_ESCAPE, C_OPEN, C_CLOSE, C_HIGH };

sinew_json_scan_result sinew__json_prescan(const char *text, size_t len, uint32_t max_depth, size_t *offset) {
    static const unsigned char outside[128] = {['"'] = C_QUOTE, ['['] = C_OPEN, ['{'] = C_OPEN,
                                               [']'] = C_CLOSE, ['}'] = C_CLOSE};
    static const unsigned char inside[128] = {['"'] = C_QUOTE, ['\\'] = C_ESCAPE};
    const unsigned char *t = (const unsigned char *)text;
    uint32_t depth = 0;
    size_t i = 0;
    for (;;) {
        /* outside a string */
        while (i < len && t[i] < 0x80 && outside[t[i]] == C_PLAIN)
            i++;
        if (i >= len)
            break;
        unsigned char k = t[i] >= 0x80 ? C_HIGH : outside[t[i]];
        if (k == C_OPEN) {
            if (++depth > max_depth) {
                *offset = i;
                return SINEW_JSON_SCAN_TOO_DEEP;
            }
            i++;
            continue;
        }
        if (k == C_CLOSE) {
            if (depth)
                depth--;
            i++;
            continue;
        }
        if (k == C_HIGH) {
            size_t n = utf8_seq(t + i, len - i);
            if (n == 0) {
                *offset = i;
                return SINEW_JSON_SCAN_BAD_UTF8;
            }
            i += n;
            continue;
        }
        /* a string */
        i++;
        for (;;) {
            while (i < len && t[i] < 0x80 && inside[t[i]] == C_PLAIN)
                i++;
            if (i >= len)
                break;
            k = t[i] >= 0x80 ? C_HIGH : inside[t[i]];
            if (k == C_QUOTE) {
                i++;
                break;
            }
            if (k == C_ESCAPE) {
                i++;
                if (i < len && t[i] < 0x80)
                    i++;
                continue;
            }
            size_t n = utf8_seq(t + i, len - i);
            if (n == 0) {
                *offset = i;
                return SINEW_JSON_SCAN_BAD_UTF8;
            }
            i += n;
        }
    }
    *offset = len;
    return SINEW_JSON_SCAN_OK;
}
