# The shell tests' tally (tests/cli/NAME.sh; testkit.py is the Python one, docs/testkit.md):
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib/testkit.sh"
#   check && ok || bad "what went wrong"
#   skip N WHAT REASON     checks that cannot run in this build, counted and said
#   summary                the closing line; its status is the test's (last command of the script)
pass=0; fail=0; skipped=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
# skip N WHAT REASON: a failure instead under SINEW_REQUIRE_SHARED=1, which asks for every check
skip() {
  if [ -n "${SINEW_REQUIRE_SHARED:-}" ] && [ "${SINEW_REQUIRE_SHARED}" != 0 ]; then
    bad "$1 $2: $3, and SINEW_REQUIRE_SHARED=1 requires it"
  else
    skipped=$((skipped+$1)); echo "SKIP: $1 $2: $3"
  fi
}
summary() {
  if [ $skipped -gt 0 ]; then echo "$pass passed, $fail failed, $skipped skipped"; else echo "$pass passed, $fail failed"; fi
  [ $fail = 0 ]
}
