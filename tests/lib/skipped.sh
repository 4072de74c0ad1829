#!/bin/sh
# After a ctest run in BUILD (make test-fast, make test-asan): what was skipped for the lack of
# ../shared, test by test (the tests' own "SKIP: N what: reason" lines, which ctest shows only for
# failing tests), then one closing line with the counts of the run.
#   sh tests/lib/skipped.sh BUILD
log="${1:-build}/Testing/Temporary/LastTest.log"
[ -f "$log" ] || exit 0
awk '
/^[0-9]+\/[0-9]+ Test: / { name = $3 }
/^SKIP: / { sub(/^SKIP: /, ""); lines[++n] = "  " name ": " $0; checks += $1; if (!(name in hit)) { hit[name] = 1; tests++ } }
/^0 passed, 0 failed, [0-9]+ skipped$/ { whole[name] = 1 }
/^Test Passed\./ { if (name in whole) skipped++; else passed++ }
/^Test Failed/ { failed++ }
END {
    if (n) {
        print "Skipped without ../shared (docs/testkit.md; SINEW_REQUIRE_SHARED=1 makes this a failure):"
        for (i = 1; i <= n; i++) print lines[i]
    }
    printf "sinew tests: %d passed, %d failed, %d skipped", passed, failed, skipped
    if (n) printf "; %d checks or units in %d tests skipped without ../shared", checks, tests
    printf "\n"
}' "$log"
