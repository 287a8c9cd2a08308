#!/usr/bin/env bash
# Instructions retired per frame by the AArch64 CLI under qemu-user, at NEON
# and at scalar (--cpumask 1): no ARM hardware is needed, and the count does
# not depend on the host's speed or load (emulation time is no speed figure).
# bench/qemu_insn_count.c, built here with the host compiler, counts the
# guest instructions; a run of F2 frames less a run of F1 frames, over
# F2 - F1, leaves out start-up (model parsing, reading the header).
#
#   bench/arm64_insn_count.sh [BUILD]     (BUILD: an AArch64 build, default
#                                          build-arm64, with the CLI built)
# Prints one line per pair and feature set: scalar and NEON instructions per
# frame and their ratio. README's "ARM64" section quotes these.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-arm64}
work=$build/insn-count
mkdir -p "$work"
plugin=$work/libinsncount.so
cc -O2 -shared -fPIC -fvisibility=hidden -o "$plugin" bench/qemu_insn_count.c
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu -plugin "$plugin" -d plugin)

clip() {  # pair which -> path of the decompressed clip
  python3 -c "import sys; sys.path.insert(0, 'tests/support'); import corpus_clips; \
print(corpus_clips.clip('tests/corpus', '$work', '$1', '$2'))"
}

# insns PAIR FRAMES ARGS...: instructions of one single-threaded run.
insns() {
  local pair=$1 frames=$2; shift 2
  "${qemu[@]}" "$build/vmafpp" -r "$(clip "$pair" ref)" -d "$(clip "$pair" dis)" -q \
      --threads 0 --frame_cnt "$frames" -o /dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*insns \([0-9]*\).*/\1/p'
}

per_frame() {  # PAIR F1 F2 ARGS...
  local pair=$1 f1=$2 f2=$3; shift 3
  local a b
  a=$(insns "$pair" "$f1" "$@")
  b=$(insns "$pair" "$f2" "$@")
  echo $(( (b - a) / (f2 - f1) ))
}

report() {  # PAIR F1 F2 LABEL ARGS...
  local pair=$1 f1=$2 f2=$3 label=$4; shift 4
  local s n
  s=$(per_frame "$pair" "$f1" "$f2" --cpumask 1 "$@")
  n=$(per_frame "$pair" "$f1" "$f2" "$@")
  printf '%-40s %-14s scalar %12d  neon %12d  scalar/neon %.2f\n' "$pair" "$label" "$s" "$n" \
         "$(awk "BEGIN { print $s / $n }")"
}

for pair in p01_astronaut_576x324_420p8_x264crf23 p12_gravel_576x324_420p10_x265crf28; do
  report "$pair" 2 6 "vmaf (default)"
  report "$pair" 2 6 "vif" -n --feature vif
  report "$pair" 2 6 "adm" -n --feature adm
  report "$pair" 2 6 "motion" -n --feature motion
done
report p19_motorcycle_1920x1080_420p8_x264crf28 1 3 "vmaf (default)"
# The other features with NEON twins, on p01 (frames 4 less 2).
for feature in psnr_hvs float_ssim float_ms_ssim ciede cambi speed_chroma float_vif float_motion float_adm; do
  report p01_astronaut_576x324_420p8_x264crf23 2 4 "$feature" -n --feature "$feature"
done
