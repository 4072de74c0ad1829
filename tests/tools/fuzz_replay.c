/* Replays a fuzz target's corpus without libFuzzer: links with fuzz/fuzz_NAME.c and calls its
 * LLVMFuzzerTestOneInput on every file of the folders given (ctest fuzz.NAME runs each target on
 * fuzz/corpus/NAME). In the ASan+UBSan test build every seed, the regression seeds (regress_*)
 * among them, then runs under GCC's sanitizers too, where clang and libFuzzer are not needed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
    size_t runs = 0;
    for (int i = 1; i < argc; ++i) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "fuzz_replay: cannot open %s\n", argv[i]);
            return 1;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                char **nn = realloc(names, cap * sizeof *nn);
                if (!nn)
                    return 1;
                names = nn;
            }
            names[n++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, n, sizeof *names, by_name);
        for (size_t k = 0; k < n; ++k) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            struct stat st;
            FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
            if (f) {
                uint8_t *buf = malloc((size_t)st.st_size + 1);
                size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
                fclose(f);
                if (buf) {
                    LLVMFuzzerTestOneInput(buf, got);
                    runs++;
                }
                free(buf);
            }
            free(names[k]);
        }
        free(names);
    }
    printf("fuzz_replay: %zu inputs, 1 passed, 0 failed\n", runs);
    return runs ? 0 : 1;
}
