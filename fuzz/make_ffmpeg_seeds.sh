#!/bin/sh
# Writes fuzz/corpus/ffmpeg: 3-frame 32x32 encodes of ffmpeg's test pattern in
# the containers and codecs vmafpp reads through FFmpeg, plus truncated and
# damaged copies (a corrupt-container corpus). Needs the ffmpeg CLI.
set -eu
out=$(cd "$(dirname "$0")" && pwd)/corpus/ffmpeg
mkdir -p "$out"
src="-f lavfi -i testsrc=size=32x32:rate=25 -frames:v 3"
enc() { ffmpeg -nostdin -v error -y $src "$@"; }
enc -c:v libx264 -preset ultrafast "$out/h264.mp4"
enc -c:v libx264 -preset ultrafast "$out/h264.mkv"
enc -c:v libx265 -preset ultrafast -x265-params log-level=none "$out/hevc.mkv"
enc -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le -x265-params log-level=none "$out/hevc10.mkv"
enc -c:v libvpx-vp9 -deadline realtime "$out/vp9.webm"
enc -c:v libaom-av1 -cpu-used 8 "$out/av1.ivf"
enc -c:v ffv1 -pix_fmt yuv444p "$out/ffv1_444.mkv"
enc -c:v mpeg2video "$out/mpeg2.ts"
enc -c:v prores_ks "$out/prores.mov"
for f in h264.mp4 h264.mkv vp9.webm av1.ivf mpeg2.ts; do
  n=$(stat -c %s "$out/$f")
  head -c $((n / 2)) "$out/$f" > "$out/cut_$f"
  # Bytes 40..71 of the second half overwritten: a damaged payload.
  python3 - "$out/$f" "$out/damaged_$f" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(d) // 2 + 40, min(len(d), len(d) // 2 + 72)):
    d[i] = (d[i] * 7 + 91) & 0xFF
open(sys.argv[2], "wb").write(bytes(d))
PY
done
