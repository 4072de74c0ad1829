#include "testlib.h"

#include "base/alloc.h"
#include "base/error.h"

static void test_arena_alignment_and_zero(void) {
    sinew_arena arena;
    sinew__arena_init(&arena, NULL, 0);
    for (int i = 1; i < 2000; i += 37) {
        unsigned char *p = sinew__arena_alloc(&arena, (size_t)i);
        CHECK(p != NULL);
        CHECK(((uintptr_t)p & 15u) == 0);
        int zero = 1;
        for (int k = 0; k < i; k++)
            zero &= p[k] == 0;
        CHECK(zero);
        memset(p, 0xAB, (size_t)i);
    }
    /* a block larger than a chunk gets a chunk of its own */
    CHECK(sinew__arena_alloc(&arena, 1u << 20) != NULL);
    sinew__arena_destroy(&arena);
}

static void test_arena_limit(void) {
    sinew_arena arena;
    sinew__arena_init(&arena, NULL, 1000);
    CHECK(sinew__arena_alloc(&arena, 900) != NULL);
    CHECK(sinew__arena_alloc(&arena, 200) == NULL);
    sinew__arena_destroy(&arena);
}

static void test_size_overflow(void) {
    size_t out = 0;
    CHECK(!sinew__mul_size(SIZE_MAX / 2, 3, &out));
    CHECK(sinew__mul_size(1000, 1000, &out) && out == 1000000);
    CHECK(!sinew__add_size(SIZE_MAX, 1, &out));
}

static void test_first_error_wins(void) {
    sinew_error err = {0};
    CHECK(sinew__fail(&err, SINEW_E_RANGE, "a.b", "inner %d", 1) == SINEW_E_RANGE);
    sinew__fail(&err, SINEW_E_PARSE, "x", "outer");
    CHECK(err.code == SINEW_E_RANGE);
    CHECK_STR(err.message, "inner 1");
    CHECK_STR(err.path, "a.b");
    sinew__error_prefix(&err, "animation '%s'", "walk");
    CHECK_STR(err.message, "animation 'walk': inner 1");
    CHECK(sinew__fail(NULL, SINEW_E_IO, NULL, "no err struct") == SINEW_E_IO);
}

static void test_locate(void) {
    const char *text = "ab\ncd\n\nef";
    uint32_t line, col;
    sinew__locate(text, strlen(text), 0, &line, &col);
    CHECK(line == 1 && col == 1);
    sinew__locate(text, strlen(text), 4, &line, &col);
    CHECK(line == 2 && col == 2);
    sinew__locate(text, strlen(text), 8, &line, &col);
    CHECK(line == 4 && col == 2);
}

int main(void) {
    RUN(test_arena_alignment_and_zero);
    RUN(test_arena_limit);
    RUN(test_size_overflow);
    RUN(test_first_error_wins);
    RUN(test_locate);
    return test_summary();
}
