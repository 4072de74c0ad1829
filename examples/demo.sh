#!/bin/sh
# make demo: render the demo robot's walk cycle to demo.gif and demo.webp in the repository root.
# usage: sh examples/demo.sh [PATH_TO_SINEW]   (default build/sinew)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SINEW=${1:-$ROOT/build/sinew}
case $SINEW in /*) ;; *) SINEW=$(pwd)/$SINEW ;; esac
if [ ! -x "$SINEW" ]; then
    echo "demo.sh: $SINEW not found; run 'make' first" >&2
    exit 1
fi
SKE=$ROOT/examples/demo/demo_ske.json
TEX=$ROOT/examples/demo/demo_tex.json
# one pass of the 1-second walk cycle at the data's 24 fps (both files loop forever), at 1.25x.
# GIF alpha is one bit, so the GIF gets a light background to keep its anti-aliased edges;
# the WebP keeps full transparency.
"$SINEW" render "$SKE" --atlas "$TEX" --animation walk --scale 1.25 --padding 12 \
    --background '#eef3f7' --out "$ROOT/demo.gif"
"$SINEW" render "$SKE" --atlas "$TEX" --animation walk --scale 1.25 --padding 12 --out "$ROOT/demo.webp"
echo "wrote $ROOT/demo.gif and $ROOT/demo.webp"
