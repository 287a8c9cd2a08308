#!/usr/bin/env bash
# vmafpp --backend B --self-test passes with the embedded shaders and fails,
# naming each twin, when wrong modules replace some of them (Vulkan's
# VMAFPP_VULKAN_SHADER_DIR; with no PLANTED_TWIN only the passing run).
#   self_test.sh CLI BACKEND PLANTED_DIR [PLANTED_TWIN...]
set -uo pipefail
cli=$1 backend=$2 planted=$3
shift 3
out=$("$cli" --backend "$backend" --self-test 2>&1); rc=$?
echo "$out"
if [ $rc -ne 0 ] && grep -q "no .*device\|no Vulkan\|no CUDA" <<< "$out"; then
  echo "SKIP: no $backend device"; exit 77
fi
[ $rc -eq 0 ] || { echo "FAIL: --self-test exited $rc with the embedded shaders"; exit 1; }
twins=(motion vif adm)
[ "$backend" = vulkan ] && twins+=(cambi speed_chroma speed_temporal "model vmaf_v1.0.16_3d0h"
  speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic
  speed_temporal=speed_prescale=0.7:speed_prescale_method=lanczos4)
for t in "${twins[@]}"; do
  grep -q "^$backend $t: ok" <<< "$out" || { echo "FAIL: no ok line for $t"; exit 1; }
done
grep -q "^$backend self-test: passed" <<< "$out" || { echo "FAIL: no summary line"; exit 1; }
[ $# -gt 0 ] || { echo "PASS"; exit 0; }
# The planted modules: each twin that reads one fails, the run exits 1.
out=$(VMAFPP_VULKAN_SHADER_DIR=$planted "$cli" --backend "$backend" --self-test 2>&1); rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "FAIL: --self-test exited $rc with planted wrong shaders"; exit 1; }
for twin in "$@"; do
  grep -q "^$backend $twin: MISMATCH" <<< "$out" || { echo "FAIL: the planted $twin shader was not named"; exit 1; }
done
grep -q "^$backend self-test: FAILED" <<< "$out" || { echo "FAIL: no FAILED summary"; exit 1; }
# Before a scoring run a failing self-test stops it: nothing is scored.
out=$(VMAFPP_VULKAN_SHADER_DIR=$planted "$cli" --backend "$backend" --self-test -r /nonexistent -d /nonexistent 2>&1); rc=$?
[ $rc -eq 1 ] && ! grep -q nonexistent <<< "$out" || { echo "FAIL: a scoring run went on after a failed self-test: $out"; exit 1; }
echo "PASS"
