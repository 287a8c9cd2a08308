# Cross build for 64-bit ARM Linux (AArch64) with Debian's cross toolchain
# (g++-aarch64-linux-gnu, libc6-dev-arm64-cross) on any Debian host:
#
#   cmake -S . -B build-arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#
# Programs built for the target (the tests' programs, checkasm, the CLI the
# tests run) are run through qemu-user (package qemu-user), so ctest and
# gtest's test discovery work on the host. Libraries are looked for only in
# the target's sysroot (/usr/aarch64-linux-gnu) and the multiarch folders of
# arm64 packages; header-only and data packages (nlohmann-json, CLI11) come
# from the host's /usr/share, which the cross compiler searches as Debian's
# multiarch layout intends (its last include folder is /usr/include).
# What the sysroot lacks is left out by the project's own tests: FFmpeg and
# Vulkan (not found), CUDA, the Python module and the benchmarks (off when
# cross compiling unless asked for); GoogleTest is built from the sources
# libgtest-dev ships (/usr/src/googletest) when no arm64 one is installed.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(VMAFPP_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${VMAFPP_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${VMAFPP_CROSS_TRIPLE}-g++)

# The sysroot first; "/" lets find_package see the architecture-independent
# CMake packages in /usr/share/cmake and, with CMAKE_LIBRARY_ARCHITECTURE
# (aarch64-linux-gnu, from the compiler), arm64 multiarch libraries in
# /usr/lib/aarch64-linux-gnu, never the host's /usr/lib/x86_64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/${VMAFPP_CROSS_TRIPLE} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must describe the target, not the host: only arm64 .pc files.
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/${VMAFPP_CROSS_TRIPLE}/pkgconfig:/usr/${VMAFPP_CROSS_TRIPLE}/lib/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# add_test() and gtest_discover_tests() run target programs through this.
find_program(VMAFPP_QEMU_AARCH64 qemu-aarch64)
if(VMAFPP_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VMAFPP_QEMU_AARCH64} -L /usr/${VMAFPP_CROSS_TRIPLE})
endif()
