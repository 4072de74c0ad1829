/* A tiny test harness: CHECK records failures and goes on; the runner prints
 * "N passed, N failed" and exits non-zero on any failure.
 *
 *   static void test_arena(void) { CHECK(x == 1); CHECK_NEAR(a, b, 1e-6); }
 *   int main(void) { RUN(test_arena); return test_summary(); }
 */
#ifndef SINEW_TESTLIB_H
#define SINEW_TESTLIB_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_checks_failed_ = 0;
static int tests_passed_ = 0, tests_failed_ = 0;

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
        fn();                                                                            \
        if (test_checks_failed_ == before_) {                                            \
            tests_passed_++;                                                             \
        } else {                                                                         \
            tests_failed_++;                                                             \
            fprintf(stderr, "FAIL %s\n", #fn);                                           \
        }                                                                                \
    } while (0)

static inline int test_summary(void) {
    printf("%d passed, %d failed\n", tests_passed_, tests_failed_);
    return tests_failed_ ? 1 : 0;
}

#endif
