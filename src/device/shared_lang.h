// What a header shared by the host, CUDA and GLSL (src/<feature>/
// <feature>_shared.h) needs to be read by all three: compiled as C++ (g++ or
// nvcc) its functions are VMAFPP_HD (device/device_math.hpp); included by a
// shader (glslc, GL_GOOGLE_include_directive) they are plain GLSL
// functions. A shared header keeps to the subset both languages parse:
// fixed-width integer types (the shader enables
// GL_EXT_shader_explicit_arithmetic_types_int32 and _int64), T(x)
// conversions, no references, pointers or overloads on argument type; its
// push-constant structs (a shader declares `layout(push_constant) uniform
// Push { MotionPush p; };`) hold 32- and 64-bit scalars and arrays of them
// only, so the C++ layout and the shader's std430 one agree, and
// vk::check_interface (vk_spirv.cpp) compares every pipeline's block size
// and bindings with the shader's SPIR-V when the pipeline is made.
#ifndef VMAFPP_SHARED_LANG_H
#define VMAFPP_SHARED_LANG_H

#ifdef __cplusplus
#include <cstdint>

#include "device/device_math.hpp"
#else
#define VMAFPP_HD
#endif

#endif
