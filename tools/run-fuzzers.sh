#!/bin/sh
# Runs every fuzz target in BUILD for SECONDS each; prints each target's executions and fails if any
# target fails.
#   tools/run-fuzzers.sh BUILD SECONDS [--seeds-only]
# The targets are built with ASan + UBSan and -fno-sanitize-recover=all (CMakeLists.txt), so a
# sanitizer report of any kind ends the run like a crash; so do a leak, an input that runs longer
# than 25 s, and more than 2 GB of memory. The input that failed is saved as BUILD/crash-*,
# leak-*, timeout-* or oom-* (reproduce: BUILD/fuzz_NAME FILE, from the repository root).
#   make fuzz (SECONDS = FUZZ_SECONDS, default 60): from the seeds in fuzz/corpus/NAME plus the
#     corpus earlier runs grew in BUILD/corpus-NAME, which this run grows further.
#   --seeds-only (make test, FUZZ_SMOKE_SECONDS): from the seeds alone, in an emptied scratch
#     folder, so the run is the same on every machine and every regression seed is replayed.
build=${1:?usage: run-fuzzers.sh BUILD SECONDS [--seeds-only]}; seconds=${2:-60}; mode=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd) || exit 1
cd "$here" || exit 1 # the XML targets resolve image paths against fuzz/corpus/xml
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0; found=0; total_runs=0
for bin in "$build"/fuzz_*; do
  [ -x "$bin" ] && [ -f "$bin" ] || continue
  found=$((found + 1))
  name=$(basename "$bin")
  seeds="$here/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] || seeds=""
  work="$build/corpus-$name"
  if [ "$mode" = "--seeds-only" ]; then
    work="$build/scratch-$name"; rm -rf "$work"
  fi
  mkdir -p "$work"
  log="$build/$name.log"
  if "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 \
       -artifact_prefix="$build/" "$work" $seeds >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    total_runs=$((total_runs + ${runs:-0}))
    echo "fuzz: $name ok: ${runs:-?} executions in ${seconds}s ($(ls "$work" | wc -l) inputs in $(basename "$work"))"
  else
    echo "fuzz: $name FAILED (log: $log)"
    grep -E "ERROR|runtime error|SUMMARY|Test unit written|artifact_prefix" "$log" | head -20
    tail -40 "$log"
    status=1
  fi
  [ "$mode" = "--seeds-only" ] && rm -rf "$work"
done
if [ "$found" = 0 ]; then
  echo "fuzz: no fuzz targets in $build" >&2
  exit 1
fi
echo "fuzz: $found targets, $total_runs executions"
exit $status
