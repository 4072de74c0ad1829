#!/usr/bin/env bash
# gif_vs_ffmpeg.sh: end-to-end GIF export, sinew against "the blog's way", in one run.
#
#   bench/gif_vs_ffmpeg.sh SINEW [RUNS] [SKELETON ARMATURE ANIMATION]...
#
#   sinew:     sinew render FILE --out x.gif
#   the blog:  sinew render FILE --out seq/%04d.png
#              ffmpeg -i seq/%04d.png -vf palettegen pal.png
#              ffmpeg -i seq/%04d.png -i pal.png -lavfi paletteuse y.gif
#
# Both paths run RUNS times (default 3), alternating, and the best and median wall-clock times are
# printed with the speed-up, the file sizes, and the PSNR of each GIF against the PNG frames
# (bench/gif_psnr, next to the CLI in the build: RGB over the pixels opaque in both, the share of
# pixels whose opaque/transparent state differs, and both composited over white).
# Without SKELETON triples it uses three shared characters from $SHARED (default ../shared).
set -u
SINEW=${1:?usage: gif_vs_ffmpeg.sh SINEW [RUNS] [SKELETON ARMATURE ANIMATION]...}
shift
RUNS=3
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then RUNS=$1; shift; fi
SINEW=$(cd "$(dirname "$SINEW")" && pwd)/$(basename "$SINEW")
BUILD=$(dirname "$SINEW")
GIF_PSNR=$BUILD/bench/gif_psnr
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${SHARED:-$(cd "$HERE/../.." && pwd)/shared}
DB=$SHARED/data/dragonbones

command -v ffmpeg >/dev/null || { echo "gif_vs_ffmpeg: ffmpeg is not installed (apt-get install ffmpeg)"; exit 1; }
[ -x "$GIF_PSNR" ] || { echo "gif_vs_ffmpeg: $GIF_PSNR not built (cmake --build $BUILD --target gif_psnr)"; exit 1; }

if [ $# -eq 0 ]; then
  set -- "$DB/mecha_1502b_5.5/mecha_1502b_ske.json" mecha_1502b walk \
         "$DB/dragon_boy_5.0/dragon_boy_ske.json" DragonBoy walk \
         "$DB/Ubbie_4.5/Ubbie.json" ubbie walk
fi
if [ $(( $# % 3 )) -ne 0 ]; then echo "gif_vs_ffmpeg: give SKELETON ARMATURE ANIMATION triples"; exit 1; fi

TMP=$(mktemp -d /tmp/sinew_gif_vs_ffmpeg.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# best and median of the numbers on stdin
stats() { sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%6d / %6d", v[1], m}'; }
best() { sort -n | head -1; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'; }
fail=0

while [ $# -ge 3 ]; do
  FILE=$1 ARM=$2 ANIM=$3
  shift 3
  # the armature's frame rate, for ffmpeg's -framerate (sinew uses it by default)
  FPS=$("$SINEW" info "$FILE" 2>/dev/null | sed -n "s/^armature \"$ARM\" (.*, \([0-9.]*\) fps).*/\1/p" | head -1)
  FPS=${FPS:-24}
  W=$TMP/work
  : >"$TMP/t_sinew"; : >"$TMP/t_seq"; : >"$TMP/t_pal"; : >"$TMP/t_use"; : >"$TMP/t_blog"
  ok=1
  for ((r = 0; r < RUNS; r++)); do
    rm -rf "$W"; mkdir -p "$W/seq"
    t0=$(now_ms)
    "$SINEW" render "$FILE" --armature "$ARM" --animation "$ANIM" --out "$W/sinew.gif" --quiet || ok=0
    t1=$(now_ms)
    "$SINEW" render "$FILE" --armature "$ARM" --animation "$ANIM" --out "$W/seq/%04d.png" --quiet || ok=0
    t2=$(now_ms)
    ffmpeg -v error -framerate "$FPS" -start_number 0 -i "$W/seq/%04d.png" -vf palettegen -y "$W/pal.png" || ok=0
    t3=$(now_ms)
    ffmpeg -v error -framerate "$FPS" -start_number 0 -i "$W/seq/%04d.png" -i "$W/pal.png" -lavfi paletteuse \
      -y "$W/ffmpeg.gif" || ok=0
    t4=$(now_ms)
    echo $((t1 - t0)) >>"$TMP/t_sinew"; echo $((t2 - t1)) >>"$TMP/t_seq"; echo $((t3 - t2)) >>"$TMP/t_pal"
    echo $((t4 - t3)) >>"$TMP/t_use"; echo $((t4 - t1)) >>"$TMP/t_blog"
  done
  rel=${FILE#"$DB/"}
  if [ $ok -ne 1 ]; then echo "== $rel $ARM/$ANIM: FAILED"; fail=1; continue; fi
  frames=$(ls "$W/seq" | wc -l)
  size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x "$W/sinew.gif")
  echo "== $rel $ARM/$ANIM: $frames frames, $size px, $FPS fps; $RUNS runs, wall ms best / median"
  printf "  sinew render --out x.gif           %s\n" "$(stats <"$TMP/t_sinew")"
  printf "  blog: sinew render --out seq/%%04d.png %s\n" "$(stats <"$TMP/t_seq")"
  printf "        ffmpeg palettegen            %s\n" "$(stats <"$TMP/t_pal")"
  printf "        ffmpeg paletteuse            %s\n" "$(stats <"$TMP/t_use")"
  printf "        total                        %s\n" "$(stats <"$TMP/t_blog")"
  sb=$(best <"$TMP/t_sinew"); bb=$(best <"$TMP/t_blog"); sm=$(median <"$TMP/t_sinew"); bm=$(median <"$TMP/t_blog")
  awk -v sb="$sb" -v bb="$bb" -v sm="$sm" -v bm="$bm" \
    'BEGIN {printf "  speed-up (blog / sinew)            %.2fx best, %.2fx median\n", bb / (sb > 0 ? sb : 1), bm / (sm > 0 ? sm : 1)}'
  s1=$(stat -c %s "$W/sinew.gif"); s2=$(stat -c %s "$W/ffmpeg.gif")
  awk -v a="$s1" -v b="$s2" 'BEGIN {printf "  size      sinew %9d B   ffmpeg %9d B   sinew/ffmpeg %.3f\n", a, b, a / b}'
  q1=$("$GIF_PSNR" "$W/sinew.gif" "$W/seq/%04d.png" "$FPS") || { echo "  gif_psnr failed on sinew.gif"; fail=1; continue; }
  q2=$("$GIF_PSNR" "$W/ffmpeg.gif" "$W/seq/%04d.png" "$FPS") || { echo "  gif_psnr failed on ffmpeg.gif"; fail=1; continue; }
  # fields: frames N images M rgb_psnr A mask_mismatch P white_psnr B
  read -r _ _ _ i1 _ r1 _ m1 _ w1 <<<"$q1"; read -r _ _ _ i2 _ r2 _ m2 _ w2 <<<"$q2"
  awk -v a="$r1" -v b="$r2" 'BEGIN {printf "  PSNR RGB (opaque in both)  sinew %6.2f dB   ffmpeg %6.2f dB   sinew - ffmpeg %+.2f dB\n", a, b, a - b}'
  awk -v a="$w1" -v b="$w2" 'BEGIN {printf "  PSNR over white            sinew %6.2f dB   ffmpeg %6.2f dB   sinew - ffmpeg %+.2f dB\n", a, b, a - b}'
  printf "  alpha mask mismatch        sinew %6s %%    ffmpeg %6s %%    (GIF images: sinew %s, ffmpeg %s)\n" "$m1" "$m2" "$i1" "$i2"
done
exit $fail
