/* A tiny test harness: CHECK records failures and goes on; the runner prints
 * "N passed, N failed" (", N skipped" when some were) and exits non-zero on any failure.
 *
 *   static void test_arena(void) { CHECK(x == 1); CHECK_NEAR(a, b, 1e-6); }
 *   int main(void) { RUN(test_arena); return test_summary(); }
 *
 * Tests that read ../shared (the real characters) start with
 *
 *   const char *shared = test_need_shared(9, "shared DragonBones files");
 *   if (!shared) return;
 *
 * Without the folder that test is counted as skipped, with one line saying what and why; when
 * every test of the program was skipped it exits 77, which ctest reports as "skipped". With
 * SINEW_REQUIRE_SHARED=1 (.ci/run) a missing ../shared is a failure instead.
 */
#ifndef SINEW_TESTLIB_H
#define SINEW_TESTLIB_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int test_checks_failed_ = 0;
static int tests_passed_ = 0, tests_failed_ = 0, tests_skipped_ = 0;
static int test_skipped_now_ = 0;
static int test_checks_in_runs_ = 0; /* failed checks made inside RUN(); the rest were outside any */

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            test_checks_failed_++;                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
        }                                                                                \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                            \
    do {                                                                                 \
        double a_ = (double)(a), b_ = (double)(b);                                       \
        if (!(fabs(a_ - b_) <= (tol))) {                                                 \
            test_checks_failed_++;                                                       \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %s = %.9g (tol %g)\n", __FILE__, \
                    __LINE__, #a, a_, #b, b_, (double)(tol));                             \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *a_ = (a), *b_ = (b);                                                 \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                         \
            test_checks_failed_++;                                                       \
            fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__,             \
                    a_ ? a_ : "(null)", b_ ? b_ : "(null)");                             \
        }                                                                                \
    } while (0)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        int before_ = test_checks_failed_;                                               \
        test_skipped_now_ = 0;                                                           \
        fn();                                                                            \
        test_checks_in_runs_ += test_checks_failed_ - before_;                           \
        if (test_checks_failed_ != before_) {                                            \
            tests_failed_++;                                                             \
            fprintf(stderr, "FAIL %s\n", #fn);                                           \
        } else if (test_skipped_now_) {                                                  \
            tests_skipped_++;                                                            \
        } else {                                                                         \
            tests_passed_++;                                                             \
        }                                                                                \
    } while (0)

/* The shared folder ($SHARED, else ../../shared from tests/), or NULL when it does not exist. */
static inline const char *test_shared_dir(void) {
    const char *s = getenv("SHARED");
    if (!s || !*s)
        s = "../../shared";
    struct stat st;
    return stat(s, &st) == 0 && S_ISDIR(st.st_mode) ? s : NULL;
}

/* The shared folder for a test that needs it; NULL (the test is skipped, or failed under
 * SINEW_REQUIRE_SHARED=1) when it is missing. `count` and `what` say what was not run. */
static inline const char *test_need_shared(int count, const char *what) {
    const char *s = test_shared_dir();
    if (s)
        return s;
    const char *req = getenv("SINEW_REQUIRE_SHARED");
    const char *env = getenv("SHARED");
    if (req && *req && strcmp(req, "0") != 0) {
        test_checks_failed_++;
        fprintf(stderr, "FAIL: %d %s: ../shared not found (%s), and SINEW_REQUIRE_SHARED=1 requires it\n", count, what,
                env && *env ? env : "../../shared");
        return NULL;
    }
    test_skipped_now_ = 1;
    printf("SKIP: %d %s: ../shared not found (%s)\n", count, what, env && *env ? env : "../../shared");
    return NULL;
}

/* Skips the running test function for a reason other than ../shared (a tool `make deps` installs
 * that is missing here): `count` and `what` say what was not run. Counted as skipped, never as
 * passed; a failure under SINEW_REQUIRE_SHARED=1, which asks for every check. */
static inline void test_skip(int count, const char *what, const char *reason) {
    const char *req = getenv("SINEW_REQUIRE_SHARED");
    if (req && *req && strcmp(req, "0") != 0) {
        test_checks_failed_++;
        fprintf(stderr, "FAIL: %d %s: %s, and SINEW_REQUIRE_SHARED=1 requires it\n", count, what, reason);
        return;
    }
    test_skipped_now_ = 1;
    printf("SKIP: %d %s: %s\n", count, what, reason);
}

static inline int test_summary(void) {
    /* a check that failed outside any RUN() (in main, say) fails the program too */
    int outside = test_checks_failed_ - test_checks_in_runs_;
    if (outside) {
        tests_failed_++;
        fprintf(stderr, "FAIL %d check%s outside a test function\n", outside, outside == 1 ? "" : "s");
    }
    if (tests_skipped_)
        printf("%d passed, %d failed, %d skipped\n", tests_passed_, tests_failed_, tests_skipped_);
    else
        printf("%d passed, %d failed\n", tests_passed_, tests_failed_);
    if (tests_failed_)
        return 1;
    return tests_skipped_ && !tests_passed_ ? 77 : 0;
}

#endif
