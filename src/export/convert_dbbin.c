#define _POSIX_C_SOURCE 200809L
/*
 * sinew_convert_dbbin (include/sinew/convert.h): a DragonBones JSON file to DragonBones binary
 * (`NAME_ske.dbbin`, format/dbbin.h). The input is loaded first, so a file sinew refuses is
 * never converted; the binary is then built from the JSON document itself, as the official
 * parser reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/atomic.h"
#include "base/error.h"
#include "export/export_internal.h"
#include "format/dbbin.h"
#include "format/xml_rig.h"
#include "model/model.h"
#include "sinew/convert.h"
#include "sinew/data.h"

/* Reads all of `path` into a NUL-terminated buffer of *out_size bytes from `a`. */
static sinew_status slurp(const char *path, const sinew_allocator *a, char **out, size_t *out_len, size_t *out_size,
                          sinew_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 65536;
            char *p = sinew__realloc(a, buf, buf ? cap + 1 : 0, nc + 1);
            if (!p) {
                sinew__free(a, buf, cap + 1);
                fclose(f);
                return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
            }
            buf = p;
            cap = nc;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        sinew__free(a, buf, cap + 1);
        return sinew__fail_at(err, SINEW_E_IO, path, 0, 0, NULL, "read error");
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    *out_size = cap + 1;
    return SINEW_OK;
}

sinew_status sinew_convert_dbbin(const char *input, const char *out_dir, const sinew_convert_options *opts,
                                 sinew_convert_result *result, sinew_error *err) {
    sinew_convert_result local;
    sinew_convert_result *res = result ? result : &local;
    memset(res, 0, sizeof *res);
    if (!input || !out_dir)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_convert_dbbin: NULL argument");
    struct stat st_dir;
    if (stat(out_dir, &st_dir) != 0 || !S_ISDIR(st_dir.st_mode))
        return sinew__fail_at(err, SINEW_E_IO, out_dir, 0, 0, NULL, "not a folder");
    if (opts && opts->dbbin_format > 2)
        return sinew__fail(err, SINEW_E_ARG, NULL, "sinew_convert_dbbin: DBBin format %u (1 or 2 are written)",
                           opts->dbbin_format);
    if (sinew__xml_sniff(input, NULL, 0))
        return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, NULL,
                              "DBBin is written from DragonBones JSON only (convert the XML rig to DragonBones "
                              "first)");
    const sinew_allocator *a = opts && opts->load ? opts->load->allocator : NULL;
    char *text = NULL;
    size_t len = 0, text_size = 0;
    sinew_status st = slurp(input, a, &text, &len, &text_size, err);
    if (st != SINEW_OK)
        return st;
    if (len >= 4 && memcmp(text, SINEW_DBBIN_TAG, 4) == 0) {
        sinew__free(a, text, text_size);
        return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, NULL, "the input is DBBin already");
    }
    if (sinew__xml_sniff(NULL, (const unsigned char *)text, len < 256 ? len : 256)) {
        sinew__free(a, text, text_size);
        return sinew__fail_at(err, SINEW_E_UNSUPPORTED, input, 0, 0, NULL,
                              "DBBin is written from DragonBones JSON only (convert the XML rig to DragonBones "
                              "first)");
    }
    struct sinew_data *data = NULL;
    st = sinew_data_load_buffer(text, len, input, opts ? opts->load : NULL, &data, err);
    if (st != SINEW_OK) {
        sinew__free(a, text, text_size);
        return st;
    }
    char name[256];
    sinew__convert_name(data, opts, input, name, sizeof name);
    res->armature_count = data->armature_count;
    st = sinew__convert_refuse_v6(data, input, "DBBin", err);
    sinew_data_destroy(data);
    if (st != SINEW_OK) {
        sinew__free(a, text, text_size);
        return st;
    }
    void *bin = NULL;
    size_t bin_len = 0;
    st = sinew__dbbin_write(text, len, input, opts ? opts->dbbin_format : 0, a, opts ? opts->log : NULL,
                            opts ? opts->log_user : NULL, &res->warning_count, &bin, &bin_len, err);
    sinew__free(a, text, text_size);
    if (st != SINEW_OK)
        return st;
    snprintf(res->skeleton_path, sizeof res->skeleton_path, "%s%s%s_ske.dbbin", out_dir,
             out_dir[0] && out_dir[strlen(out_dir) - 1] != '/' ? "/" : "", name);
    const char *inputs[1] = {input};
    st = sinew__write_file_atomic(res->skeleton_path, bin, bin_len, inputs, 1, a, err);
    sinew__free(a, bin, bin_len);
    if (st != SINEW_OK) {
        if (err && err->file == res->skeleton_path)
            err->file = NULL; /* emptied below; the message names the file */
        res->skeleton_path[0] = '\0';
        return st;
    }
    /* the atlas it renders with, beside it */
    return sinew__convert_copy_atlas(input, opts ? opts->atlas : NULL, out_dir, name, opts ? opts->load : NULL,
                                     opts ? opts->log : NULL, opts ? opts->log_user : NULL, res, err);
}
