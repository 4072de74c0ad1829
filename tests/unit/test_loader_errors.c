/* Every malformed fixture in tests/fixtures/errors/ (listed in manifest.txt) fails to load with the
 * expected status code, a message containing the expected text, and the expected line:column.
 * Also: the JSON path locator on its own, and unknown keys reaching the log callback. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/json_locate.h"
#include "sinew/data.h"
#include "testlib.h"

static sinew_status code_of(const char *name) {
    static const struct {
        const char *n;
        sinew_status c;
    } map[] = {{"PARSE", SINEW_E_PARSE},         {"TYPE", SINEW_E_TYPE},     {"MISSING", SINEW_E_MISSING},
               {"REFERENCE", SINEW_E_REFERENCE}, {"RANGE", SINEW_E_RANGE},   {"DUPLICATE", SINEW_E_DUPLICATE},
               {"LAYOUT", SINEW_E_LAYOUT},       {"VERSION", SINEW_E_VERSION}, {"LIMIT", SINEW_E_LIMIT},
               {"UNSUPPORTED", SINEW_E_UNSUPPORTED}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].n, name) == 0)
            return map[i].c;
    return SINEW_OK;
}

static int fixtures_checked = 0;

static void test_error_fixtures(void) {
    FILE *m = fopen("fixtures/errors/manifest.txt", "r");
    CHECK(m != NULL);
    if (!m)
        return;
    char line[1024];
    while (fgets(line, sizeof line, m)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *f[6];
        int n = 0;
        for (char *p = strtok(line, "\t"); p && n < 6; p = strtok(NULL, "\t"))
            f[n++] = p;
        CHECK(n == 6);
        if (n != 6)
            continue;
        char path[512];
        snprintf(path, sizeof path, "fixtures/errors/%s", f[0]);
        sinew_error err;
        memset(&err, 0, sizeof err);
        sinew_status st;
        if (strcmp(f[1], "atlas") == 0) {
            sinew_atlas *a = NULL;
            st = sinew_atlas_load_file(path, NULL, &a, &err);
            CHECK(a == NULL);
            sinew_atlas_destroy(a);
        } else {
            sinew_data *d = NULL;
            st = sinew_data_load_file(path, NULL, &d, &err);
            CHECK(d == NULL);
            sinew_data_destroy(d);
        }
        uint32_t want_line = (uint32_t)atoi(f[3]), want_col = (uint32_t)atoi(f[4]);
        bool ok = st == code_of(f[2]) && err.code == st && strstr(err.message, f[5]) && err.line == want_line &&
                  err.column == want_col && err.file && strcmp(err.file, path) == 0;
        if (!ok)
            fprintf(stderr, "%s: expected %s %u:%u '%s', got %s %u:%u '%s' [%s]\n", f[0], f[2], want_line, want_col, f[5],
                    sinew_status_str(st), err.line, err.column, err.message, err.path);
        CHECK(ok);
        fixtures_checked++;
    }
    fclose(m);
    /* every fixture of the folder was listed and checked (the manifest and its generator aside) */
    int files = 0;
    DIR *dir = opendir("fixtures/errors");
    CHECK(dir != NULL);
    for (struct dirent *e; dir && (e = readdir(dir)) != NULL;)
        if (e->d_name[0] != '.' && strcmp(e->d_name, "manifest.txt") != 0 && strcmp(e->d_name, "gen.py") != 0)
            files++;
    if (dir)
        closedir(dir);
    if (fixtures_checked != files)
        fprintf(stderr, "%d fixtures checked, %d files in fixtures/errors\n", fixtures_checked, files);
    CHECK(files > 0 && fixtures_checked == files);
}

static void test_locator(void) {
    const char *t = "{\"a\": [1, {\"b\": \"x\\\"]\", \"c\": [true, {\"d\": 5}]}], \"e\": {}}";
    sinew_json_seg segs[8];
    char buf[64];
    size_t off = 0;
    size_t n = sinew__json_path_parse("a[1].c[1].d", buf, sizeof buf, segs, 8);
    CHECK(n == 5);
    CHECK(sinew__json_locate(t, strlen(t), segs, n, &off) == 5);
    CHECK(t[off] == '5');
    n = sinew__json_path_parse("e", buf, sizeof buf, segs, 8);
    CHECK(sinew__json_locate(t, strlen(t), segs, n, &off) == 1);
    CHECK(t[off] == '{' && off == strlen(t) - 3);
    /* a missing key resolves as far as it can: the containing object */
    n = sinew__json_path_parse("a[1].zz", buf, sizeof buf, segs, 8);
    CHECK(sinew__json_locate(t, strlen(t), segs, n, &off) == 2);
    CHECK(t[off] == '{' && t[off + 2] == 'b');
    char out[64];
    sinew__json_path_format(segs, 3, out, sizeof out);
    CHECK_STR(out, "a[1].zz");
}

typedef struct warn_log {
    int count;
    char last_path[128];
    uint32_t line, column;
} warn_log;

static void on_log(void *user, sinew_log_level level, const sinew_error *where) {
    warn_log *w = user;
    if (level != SINEW_LOG_WARNING)
        return;
    w->count++;
    snprintf(w->last_path, sizeof w->last_path, "%s", where->path);
    w->line = where->line;
    w->column = where->column;
}

static void test_unknown_key_warning(void) {
    const char *txt = "{\"version\": \"5.5\", \"armature\": [{\"name\": \"a\",\n \"bone\": [{\"name\": \"r\", \"colour\": 1}]}]}";
    warn_log w;
    memset(&w, 0, sizeof w);
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.log = on_log;
    o.log_user = &w;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(txt, strlen(txt), "mem", &o, &d, &err) == SINEW_OK);
    CHECK(w.count == 1);
    CHECK_STR(w.last_path, "armature[0].bone[0].colour");
    CHECK(w.line == 2 && w.column == (uint32_t)(strstr(txt, ": 1}") + 2 - strchr(txt, '\n')));
    sinew_data_destroy(d);
}

static void test_limits(void) {
    const char *txt = "{\"version\": \"4.5\", \"armature\": [{\"name\": \"a\", \"bone\": [{\"name\": \"r\"}, {\"name\": \"s\"}]}]}";
    sinew_load_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_bones = 1;
    sinew_data *d = NULL;
    sinew_error err;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(txt, strlen(txt), "mem", &o, &d, &err) == SINEW_E_LIMIT);
    CHECK(strstr(err.message, "max_bones") != NULL);
    memset(&o, 0, sizeof o);
    o.limits.max_input_bytes = 10;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(txt, strlen(txt), "mem", &o, &d, &err) == SINEW_E_LIMIT);
    memset(&o, 0, sizeof o);
    o.limits.max_memory_bytes = 64;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(txt, strlen(txt), "mem", &o, &d, &err) == SINEW_E_LIMIT);
    CHECK(strstr(err.message, "max_memory_bytes") != NULL);
    CHECK(d == NULL);
    memset(&o, 0, sizeof o);
    o.limits.max_array_length = 1;
    memset(&err, 0, sizeof err);
    CHECK(sinew_data_load_buffer(txt, strlen(txt), "mem", &o, &d, &err) == SINEW_E_LIMIT);
    CHECK(strstr(err.message, "max_array_length") != NULL);
}

int main(void) {
    RUN(test_error_fixtures);
    RUN(test_locator);
    RUN(test_unknown_key_warning);
    RUN(test_limits);
    printf("%d error fixtures checked\n", fixtures_checked);
    return test_summary();
}
