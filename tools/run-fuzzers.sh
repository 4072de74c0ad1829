#!/bin/sh
# Runs every fuzz target in BUILD for SECONDS each, seeded from fuzz/corpus/NAME/ when present.
# Exits non-zero if any target crashes.
build=$1; seconds=${2:-60}; here=$(cd "$(dirname "$0")/.." && pwd); status=0
for bin in "$build"/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  work="$build/corpus-$name"; mkdir -p "$work"
  seeds="$here/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] || seeds=""
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=0 \
       "$work" $seeds >"$build/$name.log" 2>&1; then
    echo "fuzz: $name FAILED (log: $build/$name.log)"; tail -40 "$build/$name.log"; status=1
  else
    echo "fuzz: $name ok ($(grep -c . "$build/$name.log") log lines)"
  fi
done
exit $status
