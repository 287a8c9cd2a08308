#!/usr/bin/env bash
# Scores generated pictures of the smallest sizes every extractor accepts
# under valgrind memcheck: any read of memory that was never written (libvmaf's
# ADM scales 1-3 do that at 24x24), any invalid access or leak fails. psnr
# reads chroma; the second run (the model's luma-only features) reads pictures
# without chroma planes, the chroma seeked over.
#   small_pictures.sh VMAFPP VMAFPP_SAMPLE WORKDIR WxH [cpumask]
set -euo pipefail
cli=$1 sample=$2 work=$3 size=$4 mask=${5:-0}
w=${size%x*} h=${size#*x}
mkdir -p "$work"
# Runs of one size with different masks may run at once (ctest -j): each has
# its own files.
tag="${size}_${mask}"
ref="$work/vg_${tag}_ref.y4m" dis="$work/vg_${tag}_dis.y4m"
"$sample" --width "$w" --height "$h" --frames 3 "$ref" "$dis"
features=(--feature adm=debug=true --feature vif=debug=true --feature motion=debug=true
          --feature float_adm --feature float_vif --feature float_motion --feature float_psnr
          --feature float_ansnr --feature float_moment --feature psnr)
valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
  "$cli" -r "$ref" -d "$dis" --cpumask "$mask" -q "${features[@]}" --json -o "$work/vg_${tag}.json"
grep -q '"vmaf"' "$work/vg_${tag}.json"
valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
  "$cli" -r "$ref" -d "$dis" --cpumask "$mask" -q --feature float_motion --feature float_psnr \
  --json -o "$work/vg_${tag}_luma.json"
grep -q '"vmaf"' "$work/vg_${tag}_luma.json"
