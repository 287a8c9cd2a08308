# The optional CUDA backend (src/cuda): VMAFPP_WITH_CUDA defaults to ON when
# a working nvcc is found (on PATH, $CUDACXX or /usr/local/cuda/bin). The
# runtime is linked statically (CUDA::cudart_static), so the library and the
# CLI start on machines without a GPU driver; libcuda.so is loaded by cudart
# on the first CUDA call, and a missing driver becomes a one-line error.
# Sanitizer and fuzzer builds leave it off (nvcc does not take their flags),
# and so do cross builds.
include(CheckLanguage)
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(VMAFPP_NVCC nvcc PATHS /usr/local/cuda/bin)
  if(VMAFPP_NVCC)
    set(ENV{CUDACXX} ${VMAFPP_NVCC})
  endif()
endif()
set(vmafpp_cuda_default OFF)
# A cross build leaves it off too: the host's nvcc builds for the host.
if(NOT VMAFPP_SANITIZE AND NOT VMAFPP_FUZZ AND NOT CMAKE_CROSSCOMPILING)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND AND TARGET CUDA::cudart_static)
      set(vmafpp_cuda_default ON)
    endif()
  endif()
endif()
option(VMAFPP_WITH_CUDA "Build the CUDA compute backend (needs nvcc and the CUDA toolkit)"
       ${vmafpp_cuda_default})
if(VMAFPP_WITH_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "VMAFPP_WITH_CUDA needs nvcc (set CMAKE_CUDA_COMPILER) "
                        "or pass -DVMAFPP_WITH_CUDA=OFF")
  endif()
  # Ampere (A100) and Hopper (H100, H200); PTX of sm_90 for later GPUs.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90")
  endif()
  # The runtime is linked explicitly below (PUBLIC, for libvmafpp.a's users).
  set(CMAKE_CUDA_RUNTIME_LIBRARY None)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # The library is C++20 (its CUDA sources too); CMake 3.25 does not know
  # nvcc's flag for it.
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  message(STATUS "vmafpp: CUDA backend built (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
                 "architectures ${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "vmafpp: CUDA backend not built (VMAFPP_WITH_CUDA is OFF; it needs nvcc)")
endif()
