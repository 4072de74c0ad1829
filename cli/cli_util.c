#include "cli.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* ---- diagnostics ---------------------------------------------------------------------------------- */

/* `file:line:col: KIND: message [path]` without the newline, in a malloc'd string (NULL when out
 * of memory). */
static char *format_diag(const char *kind, const char *fallback_file, const sinew_error *err) {
    const char *file = err->file ? err->file : fallback_file;
    char where[64] = "";
    if (file && err->line)
        snprintf(where, sizeof where, ":%u:%u", err->line, err->column);
    const char *msg = err->message[0] ? err->message : sinew_status_str(err->code);
    const char *fmt = err->path[0] ? "%s%s%s%s: %s [%s]" : "%s%s%s%s: %s%s";
    int n = snprintf(NULL, 0, fmt, file ? file : "", where, file ? ": " : "", kind, msg, err->path);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        snprintf(s, (size_t)n + 1, fmt, file ? file : "", where, file ? ": " : "", kind, msg, err->path);
    return s;
}

/* Warnings: printed at once with --verbose, dropped with --quiet, and by default gathered by kind
 * (the message with its quoted names and numbers left out) and printed at the next flush, one line
 * per kind: the first warning, with how many more there were. A line already printed is never
 * printed again. */
static cli_warn_mode warn_mode = CLI_WARN_COLLAPSE;

typedef struct warn_kind {
    char *signature; /* file + message with '...' and digits masked */
    char *first;     /* the first warning of the kind, formatted */
    uint32_t more;   /* warnings of the kind after the first */
} warn_kind;

static warn_kind *kinds;
static size_t kind_count, kind_cap;
static uint64_t *seen;       /* hashes of the lines taken (open addressing, 0 = empty) */
static size_t seen_count, seen_cap;

static uint64_t hash_text(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

/* True the first time `line` is seen (by its 64-bit hash). */
static bool first_time(const char *line) {
    if ((seen_count + 1) * 2 > seen_cap) {
        size_t cap = seen_cap ? seen_cap * 2 : 256;
        uint64_t *n = calloc(cap, sizeof *n);
        if (!n) return true;
        for (size_t i = 0; i < seen_cap; i++)
            if (seen[i]) {
                size_t j = (size_t)seen[i] & (cap - 1);
                while (n[j]) j = (j + 1) & (cap - 1);
                n[j] = seen[i];
            }
        free(seen);
        seen = n;
        seen_cap = cap;
    }
    uint64_t h = hash_text(line);
    size_t j = (size_t)h & (seen_cap - 1);
    while (seen[j]) {
        if (seen[j] == h) return false;
        j = (j + 1) & (seen_cap - 1);
    }
    seen[j] = h;
    seen_count++;
    return true;
}

static char *signature(const char *file, const char *msg) {
    size_t fl = file ? strlen(file) : 0, ml = strlen(msg);
    char *s = malloc(fl + ml + 2);
    if (!s) return NULL;
    if (fl) memcpy(s, file, fl);
    s[fl] = '\n';
    char *o = s + fl + 1;
    bool quoted = false;
    for (const char *p = msg; *p; p++) {
        if (*p == '\'') {
            quoted = !quoted;
            *o++ = '\'';
        } else if (quoted) {
            continue;
        } else if (*p >= '0' && *p <= '9') {
            if (o[-1] != '#') *o++ = '#';
        } else if (*p == '.' && o[-1] == '#' && p[1] >= '0' && p[1] <= '9') {
            continue;
        } else if (*p == '-' && p[1] >= '0' && p[1] <= '9') {
            continue;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return s;
}

void cli_set_warnings(cli_warn_mode mode) { warn_mode = mode; }

cli_warn_mode cli_warnings(void) { return warn_mode; }

void cli_warnings_flush(void) {
    for (size_t i = 0; i < kind_count; i++) {
        warn_kind *k = &kinds[i];
        if (k->more)
            fprintf(stderr, "%s (and %u more like it; --verbose lists them all)\n", k->first, k->more);
        else
            fprintf(stderr, "%s\n", k->first);
        free(k->first);
        free(k->signature);
    }
    kind_count = 0;
    fflush(stderr);
}

void cli_warnings_free(void) {
    cli_warnings_flush();
    free(kinds);
    free(seen);
    kinds = NULL;
    seen = NULL;
    kind_cap = seen_cap = seen_count = 0;
}

void cli_print_warning(const char *fallback_file, const sinew_error *err) {
    if (warn_mode == CLI_WARN_QUIET) return;
    char *line = format_diag("warning", fallback_file, err);
    if (!line) return;
    if (!first_time(line)) {
        free(line);
        return;
    }
    if (warn_mode == CLI_WARN_VERBOSE) {
        fprintf(stderr, "%s\n", line);
        free(line);
        return;
    }
    char *sig = signature(err->file ? err->file : fallback_file,
                          err->message[0] ? err->message : sinew_status_str(err->code));
    for (size_t i = 0; sig && i < kind_count; i++)
        if (strcmp(kinds[i].signature, sig) == 0) {
            kinds[i].more++;
            free(sig);
            free(line);
            return;
        }
    if (!sig || (kind_count == kind_cap && !(kinds = realloc(kinds, (kind_cap = kind_cap ? kind_cap * 2 : 16) * sizeof *kinds)))) {
        fprintf(stderr, "%s\n", line); /* out of memory: print it as it comes */
        free(sig);
        free(line);
        kind_count = kind_cap = 0;
        return;
    }
    kinds[kind_count++] = (warn_kind){sig, line, 0};
}

void cli_print_error(const char *fallback_file, const sinew_error *err) {
    cli_warnings_flush(); /* the warnings that led here come first */
    char *line = format_diag("error", fallback_file, err);
    if (line) fprintf(stderr, "%s\n", line);
    free(line);
}

void cli_log(void *user, sinew_log_level level, const sinew_error *where) {
    if (level == SINEW_LOG_INFO)
        return;
    if (level == SINEW_LOG_ERROR)
        cli_print_error((const char *)user, where);
    else
        cli_print_warning((const char *)user, where);
}

int cli_exit_code(sinew_status st) {
    switch (st) {
    case SINEW_OK: return SINEW_EXIT_OK;
    case SINEW_E_ARG: return SINEW_EXIT_USAGE;
    case SINEW_E_IO: return SINEW_EXIT_IO;
    case SINEW_E_NOMEM: return SINEW_EXIT_INTERNAL;
    default: return SINEW_EXIT_INPUT;
    }
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    cli_warnings_flush();
    fprintf(stderr, "sinew %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(try 'sinew %s --help')\n", cmd);
    return SINEW_EXIT_USAGE;
}

bool cli_is_help(const char *arg) {
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* ---- options: --opt=value, --quiet / --verbose, "did you mean" ---------------------------------- */

/* The options of a command's help text: each line of `options` that starts with "-" names one or
 * more options ("--trim / --no-trim", "--quiet, -q"); one followed by a metavar (a word with a
 * capital letter or a digit: N, TEX, WxH, OUT.png, 4.5) takes a value. */
typedef struct opt_entry {
    char name[40];
    bool takes_value;
} opt_entry;

enum { MAX_OPTS = 96 };

static const opt_entry *find_opt(const opt_entry *opts, size_t n, const char *name, size_t len) {
    for (size_t i = 0; i < n; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0) return &opts[i];
    return NULL;
}

static size_t help_options(const cli_help *h, opt_entry *out) {
    size_t n = 0;
    if (!h || !h->options) return 0;
    for (const char *line = h->options; *line;) {
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        const char *p = line;
        while (p < end && *p == ' ') p++;
        size_t first_of_line = n;
        while (p < end && *p == '-' && n < MAX_OPTS) {
            const char *q = p;
            while (q < end && *q != ' ' && *q != ',') q++;
            size_t len = (size_t)(q - p);
            if (len >= sizeof out[n].name) break;
            memcpy(out[n].name, p, len);
            out[n].name[len] = '\0';
            out[n].takes_value = false;
            n++;
            if (q < end && *q == ',') q++;
            while (q < end && *q == ' ') q++;
            if (q < end && *q == '/') { /* "--trim / --no-trim" */
                q++;
                while (q < end && *q == ' ') q++;
                p = q;
                continue;
            }
            if (q < end && *q == '-') { /* "--quiet, -q" */
                p = q;
                continue;
            }
            /* a metavar? (a capital or a digit, or a word one space after the name and two before
             * the description: "--for render  what ...") */
            const char *w = q;
            bool meta = false;
            while (w < end && *w != ' ') {
                if ((*w >= 'A' && *w <= 'Z') || (*w >= '0' && *w <= '9')) meta = true;
                w++;
            }
            if (q > p && q[-1] == ' ' && (q - 1 == p || q[-2] != ' ') && w + 1 < end && w[0] == ' ' && w[1] == ' ')
                meta = true;
            if (meta && q < end)
                for (size_t k = first_of_line; k < n; k++) out[k].takes_value = true;
            break;
        }
        line = *end ? end + 1 : end;
    }
    /* the synopsis names options too ("--out OUT", "[--name NAME]") */
    const char *p = h->synopsis;
    while (p && *p && n < MAX_OPTS) {
        while (*p == ' ' || *p == '\n' || *p == '[' || *p == '(' || *p == '|') p++;
        const char *q = p;
        while (*q && *q != ' ' && *q != '\n' && *q != ']' && *q != ')' && *q != '|') q++;
        size_t len = (size_t)(q - p);
        if (len > 2 && p[0] == '-' && p[1] == '-' && len < sizeof out[n].name && !find_opt(out, n, p, len)) {
            memcpy(out[n].name, p, len);
            out[n].name[len] = '\0';
            const char *w = q;
            while (*w == ' ') w++;
            bool meta = false;
            for (const char *c = w; *c && *c != ' ' && *c != '\n' && *c != ']' && *c != '-'; c++)
                if ((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) meta = true;
            out[n++].takes_value = meta && *w != '-';
        }
        if (q == p) q++;
        p = q;
    }
    return n;
}

/* Edit distance (insert, delete, substitute, swap of neighbours) of two short strings. */
static size_t distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

const char *cli_suggest(const char *word, const char *const *names, size_t count) {
    const char *best = NULL;
    size_t best_d = 99, len = strlen(word);
    for (size_t i = 0; i < count; i++) {
        size_t d = distance(word, names[i]);
        /* a prefix counts as close: --anim for --animation */
        if (len >= 4 && strncmp(word, names[i], len) == 0) d = 1;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    return best_d <= limit ? best : NULL;
}

static const cli_help *current_help;

int cli_unknown_option(const char *cmd, const char *arg) {
    opt_entry opts[MAX_OPTS];
    size_t n = help_options(current_help, opts);
    const char *names[MAX_OPTS];
    for (size_t i = 0; i < n; i++) names[i] = opts[i].name;
    char word[64];
    size_t len = strcspn(arg, "=");
    if (len >= sizeof word) len = sizeof word - 1;
    memcpy(word, arg, len);
    word[len] = '\0';
    const opt_entry *known = find_opt(opts, n, word, strlen(word));
    if (known && known->takes_value && !strchr(arg, '=')) return cli_usage_error(cmd, "%s needs a value", arg);
    const char *s = word[0] == '-' ? cli_suggest(word, names, n) : NULL;
    if (s) return cli_usage_error(cmd, "unknown option '%s' (did you mean '%s'?)", arg, s);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int cli_prepare_args(const char *cmd, const cli_help *h, int argc, char **argv, int *out_argc, char ***out_argv) {
    current_help = h;
    opt_entry opts[MAX_OPTS];
    size_t n = help_options(h, opts);
    bool knows_quiet = find_opt(opts, n, "--quiet", 7) != NULL;
    /* at most one more argument per "--opt=value" */
    char **out = malloc(((size_t)argc * 2 + 1) * sizeof *out);
    if (!out) {
        fputs("sinew: out of memory\n", stderr);
        return SINEW_EXIT_INTERNAL;
    }
    int k = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (i == 0 || a[0] != '-' || a[1] == '\0' || cli_is_help(a)) {
            out[k++] = a;
            continue;
        }
        if (strcmp(a, "--verbose") == 0) { /* every command: warnings one by one */
            cli_set_warnings(CLI_WARN_VERBOSE);
            continue;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) { /* every command: no warnings */
            cli_set_warnings(CLI_WARN_QUIET);
            if (knows_quiet) out[k++] = a; /* and what the command itself makes of it */
            continue;
        }
        char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        const opt_entry *o = find_opt(opts, n, a, eq ? (size_t)(eq - a) : strlen(a));
        if (eq && o) {
            if (!o->takes_value) {
                free(out);
                return cli_usage_error(cmd, "%s takes no value ('%s')", o->name, a);
            }
            /* "--opt=value" is "--opt" "value": the name is cut off in place */
            *eq = '\0';
            out[k++] = a;
            out[k++] = eq + 1;
            continue;
        }
        out[k++] = a;
        if (o && o->takes_value && i + 1 < argc) out[k++] = argv[++i]; /* a value is never an option */
    }
    out[k] = NULL;
    *out_argc = k;
    *out_argv = out;
    return 0;
}
