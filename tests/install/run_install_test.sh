#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, then builds programs against
# that prefix only: the C++ consumer with CMake (shared and static) and with
# pkg-config, and the C API test with the installed libvmaf.pc.
#   run_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

# Nothing of the source or build tree may be needed from here on.
for f in include/vmafpp/vmafpp.hpp include/vmafpp/scorer.hpp bin/vmafpp share/man/man1/vmafpp.1 \
         share/bash-completion/completions/vmafpp; do
  test -e "$prefix/$f" || { echo "missing after install: $f"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name vmafpp.pc -print -quit)")/..
test -e "$libdir/libvmafpp.a" || { echo "libvmafpp.a missing"; exit 1; }
# The Vulkan loader and FFmpeg's libraries are opened with dlopen when a run
# needs them: nothing installed may list them as a dependency, so vmafpp
# starts (and scores Y4M on the CPU) on a machine without them. The CUDA
# runtime is linked statically and loads the driver (libcuda) itself.
for f in "$prefix/bin/vmafpp" "$libdir"/libvmafpp.so "$libdir"/libvmaf.so; do
  [ -e "$f" ] || continue
  needed=$(readelf -d "$f" | grep NEEDED || true)
  if grep -E 'libvulkan|libav|libsw|libcuda' <<< "$needed"; then
    echo "$f links a library it should open with dlopen"; exit 1
  fi
done
if grep -rn '#include "\(engine\|base\|io\|model\|output\|dispatch\)/' "$prefix/include/vmafpp"; then
  echo "an installed header includes a private src/ header"; exit 1
fi

cmake -S "$src/tests/install/consumer" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake.log"
cmake --build "$work/cmake" > "$work/cmake-build.log"
shared=$("$work/cmake/consumer_shared")
static=$("$work/cmake/consumer_static")
echo "cmake shared: $shared"
echo "cmake static: $static"
# With VMAFPP_BUILD_SHARED=OFF vmafpp::vmafpp and -lvmafpp are the static library.
# (No `cmd | grep -q` under pipefail: grep quitting early can SIGPIPE cmd.)
deps=$(ldd "$work/cmake/consumer_shared")
if [ -e "$libdir/libvmafpp.so" ] && ! grep -q "$prefix.*libvmafpp.so" <<< "$deps"; then
  echo "consumer_shared does not use the installed libvmafpp.so"; exit 1
fi

# The shared library on a machine without the CUDA toolkit, Vulkan or
# nlohmann_json: a consumer configured with them hidden (FindCUDAToolkit also
# looks in /usr/local/cuda, so PATH alone cannot hide it) builds and runs.
# Only the static library may need them (vmafppConfig.cmake).
if [ -e "$libdir/libvmafpp.so" ]; then
  bare_path=$(tr : '\n' <<< "$PATH" | grep -v cuda | paste -sd: -)
  if ! env -u CUDAToolkit_ROOT -u CUDA_PATH -u CUDACXX PATH="$bare_path" \
      cmake -S "$src/tests/install/consumer" -B "$work/cmake-nocuda" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_STATIC=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON > "$work/cmake-nocuda.log" 2>&1; then
    cat "$work/cmake-nocuda.log"
    echo "the shared library's package needs the CUDA toolkit, Vulkan or nlohmann_json"; exit 1
  fi
  env PATH="$bare_path" cmake --build "$work/cmake-nocuda" > "$work/cmake-nocuda-build.log"
  nocuda=$("$work/cmake-nocuda/consumer_shared")
  echo "cmake shared, no CUDA toolkit: $nocuda"
  [ "$nocuda" = "$shared" ] || { echo "the consumer built without CUDA disagrees"; exit 1; }
fi

export PKG_CONFIG_PATH=$libdir/pkgconfig
pc_libs=--libs
[ -e "$libdir/libvmafpp.so" ] || pc_libs="--static --libs"
# -lvmafpp (the shared library) needs nothing of the CUDA toolkit.
if [ "$pc_libs" = --libs ] && grep -i cuda <<< "$(pkg-config --cflags --libs vmafpp)"; then
  echo "pkg-config --libs vmafpp names the CUDA toolkit"; exit 1
fi
c++ -O2 -o "$work/consumer_pc" "$src/tests/install/consumer/consumer.cpp" \
  $(pkg-config --cflags $pc_libs vmafpp) -Wl,-rpath,"$(pkg-config --variable=libdir vmafpp)"
viapc=$("$work/consumer_pc")
echo "pkg-config: $viapc"
[ "$shared" = "$static" ] && [ "$shared" = "$viapc" ] || { echo "the three consumers disagree"; exit 1; }

if [ -e "$libdir/pkgconfig/libvmaf.pc" ]; then
  [ "$(pkg-config --modversion libvmaf)" = 3.2.0 ] || { echo "libvmaf.pc: version is not 3.2.0"; exit 1; }
  # FFmpeg's configure: require_pkg_config libvmaf "libvmaf >= 2.0.0" libvmaf.h vmaf_init
  pkg-config --exists "libvmaf >= 2.0.0"
  cc -std=c11 -Wall -Wextra -Werror -O2 -o "$work/vmaf_capi_test" "$src/tests/capi/vmaf_capi_test.c" \
    $(pkg-config --cflags --libs libvmaf) -Wl,-rpath,"$(pkg-config --variable=libdir libvmaf)"
  # libvmaf_cuda.h as FFmpeg includes it (<libvmaf_cuda.h>) and as libvmaf's
  # own tests do (<libvmaf/libvmaf_cuda.h>); the CUDA test opens the driver
  # with dlopen, as libvmaf.so does.
  cc -std=c11 -Wall -Wextra -Werror -O2 -ffp-contract=off -o "$work/vmaf_cuda_capi_test" \
    "$src/tests/capi/vmaf_cuda_capi_test.c" $(pkg-config --cflags --libs libvmaf) -ldl \
    -Wl,-rpath,"$(pkg-config --variable=libdir libvmaf)"
  printf '#include <libvmaf/libvmaf_cuda.h>\nint main(void) { return vmaf_cuda_state_init(0, (VmafCudaConfiguration){0}) != 0; }\n' |
    cc -std=c11 -Wall -Werror -fsyntax-only -x c - $(pkg-config --cflags libvmaf)
  # Only the C API is exported.
  others=$(nm -D --defined-only "$libdir/libvmaf.so" | awk '{print $3}' | grep -v '^vmaf_' || true)
  if [ -n "$others" ]; then
    echo "libvmaf.so exports more than vmaf_*: $others"; exit 1
  fi
  echo "libvmaf.pc: built $work/vmaf_capi_test"
fi
site=$(find "$prefix" -path '*/site-packages/vmafpp' -type d -print -quit)
if [ -n "$site" ]; then
  # The installed Python package, away from the build tree.
  (cd "$work" && PYTHONPATH=$(dirname "$site") /usr/bin/python3 -c '
import numpy as np, vmafpp
assert vmafpp.__file__.startswith("'"$prefix"'"), vmafpp.__file__
a = np.arange(2 * 48 * 64, dtype=np.uint16).reshape(2, 48, 64) % 1024
r = vmafpp.score(a, a, bitdepth=10)
print("python:", vmafpp.version(), "vmaf", repr(r["pooled_metrics"]["vmaf"]["mean"]))')
fi
echo "install test: ok"
