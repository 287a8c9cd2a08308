#!/usr/bin/env bash
# spirv-dis of every shader the library embeds (build/shaders/*.spv): none may
# declare OpCapability Float64 (the device twins compute libvmaf's doubles
# as exact integers or proven-equal binary32; see HACKING.md). Also fails
# when a module does not disassemble or there are fewer than MIN modules.
#   no_float64.sh SPIRV_DIS SHADER_DIR MIN
set -uo pipefail
dis=$1 dir=$2 min=$3
n=0 bad=0
for spv in "$dir"/*.spv; do
  [ -e "$spv" ] || continue
  text=$("$dis" "$spv" 2>&1) || { echo "FAIL: spirv-dis $spv: $text"; exit 1; }
  grep -q "OpCapability Shader" <<< "$text" || { echo "FAIL: $spv: no OpCapability Shader"; exit 1; }
  if grep -q "OpCapability Float64" <<< "$text"; then
    echo "FAIL: $(basename "$spv") declares OpCapability Float64"; bad=1
  fi
  n=$((n + 1))
done
[ $n -ge "$min" ] || { echo "FAIL: $n shaders in $dir, expected at least $min"; exit 1; }
[ $bad -eq 0 ] || exit 1
echo "PASS: $n shaders, none declares Float64"
