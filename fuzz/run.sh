#!/bin/sh
# Runs one harness for a number of seconds:  fuzz/run.sh <y4m|raw|options|model|pipeline|ffmpeg> <seconds> [build-dir]
# The build dir (default build-fuzz) must have been configured with
# -DVMAFPP_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ (see fuzz/README.md). New
# inputs go to <build-dir>/fuzz-work/<name>, crashes to <build-dir>/fuzz-crash-<name>-*.
set -eu
name=$1
seconds=$2
build=${3:-build-fuzz}
here=$(cd "$(dirname "$0")" && pwd)
work="$build/fuzz-work/$name"
mkdir -p "$work"
dict=""
[ -f "$here/$name.dict" ] && dict="-dict=$here/$name.dict"
exec "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=2048 -timeout=10 $dict \
    -artifact_prefix="$build/fuzz-crash-$name-" "$work" "$here/corpus/$name"
