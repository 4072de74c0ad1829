#!/bin/sh
# bench/run.sh SINEW: every benchmark of the project in one run, printing figures (make bench).
#   1. sinew bench: runtime updates, N = 100 instances (mecha_1502b walk, you_xin body idle)
#   2. bench-js (DragonBonesJS in node) on the same two, if node and $SHARED/tools/bench-js exist
#   3. sinew bench-render: sinew's rasterizer vs cairo on the draw lists of a few characters
#   4. bench_raster: a synthetic scene, sinew vs cairo
#   5. bench/gif_vs_ffmpeg.sh: sinew render x.gif vs PNG sequence + ffmpeg palettegen/paletteuse
#   6. sinew bench-input: MRTK input animations
# Figures are noisy on a busy machine; each tool prints its best and median of several runs.
set -u
SINEW=${1:?usage: bench/run.sh path/to/sinew}
SINEW=$(cd "$(dirname "$SINEW")" && pwd)/$(basename "$SINEW")
BUILD=$(dirname "$SINEW")
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${SHARED:-$(cd "$HERE/../.." && pwd)/shared}
export SHARED
DB=$SHARED/data/dragonbones
MECHA=$DB/mecha_1502b_5.5/mecha_1502b_ske.json
BODY=$DB/you_xin_body_5.5/body_ske.json
TMP=$(mktemp -d /tmp/sinew_bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
status=0

section() { printf '\n######## %s\n' "$1"; }
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

echo "sinew benchmarks: $(uname -srm), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

section "1. runtime: sinew bench, 100 instances"
"$SINEW" bench "$MECHA" --animation walk --instances 100 || status=1
"$SINEW" bench "$BODY" --animation idle --instances 100 || status=1
"$SINEW" bench "$MECHA" --animation walk --instances 100 --json >"$TMP/mecha.json" || status=1
"$SINEW" bench "$BODY" --animation idle --instances 100 --json >"$TMP/body.json" || status=1

section "2. DragonBonesJS (bench-js, node) on the same animations"
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && [ -f "$SHARED/tools/bench-js/bench.js" ]; then
  # bench.js reads its data from data/<name>_ske.json next to itself (a copy of the shared files)
  cp -r "$SHARED/tools/bench-js" "$TMP/bench-js" && chmod -R u+w "$TMP/bench-js"
  if (cd "$TMP/bench-js" && npm install --silent --no-audit --no-fund >"$TMP/npm.log" 2>&1); then
    for pair in "mecha_1502b walk mecha" "body idle body"; do
      set -- $pair
      (cd "$TMP/bench-js" && node bench.js "$1" "$2" --n=100 --json="$TMP/js_$3.json") || status=1
      if [ -f "$TMP/js_$3.json" ] && [ -s "$TMP/$3.json" ]; then
        python3 - "$TMP/js_$3.json" "$TMP/$3.json" "$1" "$2" <<'EOF'
import json, sys
js = json.load(open(sys.argv[1])); sw = json.load(open(sys.argv[2]))
r = [x for x in js["results"] if x["n"] == 100][0]
print(f"  {sys.argv[3]}/{sys.argv[4]} N=100: DragonBonesJS {r['min']:.0f} ns/update (median {r['med']:.0f}), "
      f"sinew {sw['ns_per_update']:.0f} (median {sw['ns_per_update_median']:.0f}): "
      f"sinew is {r['min'] / sw['ns_per_update']:.1f}x faster (best), {r['med'] / sw['ns_per_update_median']:.1f}x (median)")
EOF
      fi
    done
  else
    echo "  npm install failed (no network?), bench-js skipped:"; tail -3 "$TMP/npm.log" | sed 's/^/    /'
  fi
else
  echo "  node/npm or $SHARED/tools/bench-js not found: skipped"
fi

section "3. rasterizer vs cairo on the characters' draw lists: sinew bench-render"
"$SINEW" bench-render "$MECHA" --animation walk --runs 5 || status=1
"$SINEW" bench-render "$DB/dragon_boy_5.0/dragon_boy_ske.json" --animation walk --runs 5 || status=1
"$SINEW" bench-render "$DB/Ubbie_4.5/Ubbie.json" --animation walk --runs 3 || status=1
"$SINEW" bench-render "$BODY" --animation idle --frames 24 --runs 3 || status=1

section "4. rasterizer vs cairo on a synthetic scene: bench_raster"
if [ -x "$BUILD/bench/bench_raster" ]; then "$BUILD/bench/bench_raster" || status=1; else echo "  not built"; fi

section "5. GIF end to end: sinew render x.gif vs PNG sequence + ffmpeg palettegen/paletteuse"
bash "$HERE/gif_vs_ffmpeg.sh" "$SINEW" 3 || status=1

section "6. input animations: sinew bench-input"
"$SINEW" bench-input || status=1

echo
[ $status -eq 0 ] && echo "all benchmarks ran" || echo "some benchmark failed (see above)"
exit $status
