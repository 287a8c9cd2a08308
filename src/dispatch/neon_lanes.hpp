// The plain lane operations of a generic twin's vector struct on AArch64
// (Advanced SIMD), as dispatch/x86_lanes.hpp's macros are on x86. Inside a
// struct, VMAFPP_NEON_FLOAT_LANES(fname) declares kLanes = 4 and the float
// vector F = float32x4_t with fname##set, load, store, add, sub, mul, div;
// VMAFPP_NEON_DOUBLE_LANES(dname) the double vector D = float64x2_t with
// dname##set, load, store, add, sub, mul, div, sqrt. Loads and stores need
// no alignment. Each is one IEEE operation (round to nearest; no fused
// multiply-add), rounded as the scalar's C expression is.
#pragma once

#include <arm_neon.h>

#define VMAFPP_NEON_BINARY(T, op, intrinsic) \
    static T op(T a, T b) { return intrinsic(a, b); }

#define VMAFPP_NEON_FLOAT_LANES(fname)                                                         \
    static constexpr int kLanes = 4;                                                           \
    using F = float32x4_t;                                                                     \
    static F fname##set(float v) { return vdupq_n_f32(v); }                                    \
    static F fname##load(const float* p) { return vld1q_f32(p); }                              \
    static void fname##store(float* p, F v) { vst1q_f32(p, v); }                               \
    VMAFPP_NEON_BINARY(F, fname##add, vaddq_f32) VMAFPP_NEON_BINARY(F, fname##sub, vsubq_f32)  \
    VMAFPP_NEON_BINARY(F, fname##mul, vmulq_f32) VMAFPP_NEON_BINARY(F, fname##div, vdivq_f32)

#define VMAFPP_NEON_DOUBLE_LANES(dname)                                                        \
    using D = float64x2_t;                                                                     \
    static D dname##set(double v) { return vdupq_n_f64(v); }                                   \
    static D dname##load(const double* p) { return vld1q_f64(p); }                             \
    static void dname##store(double* p, D v) { vst1q_f64(p, v); }                              \
    VMAFPP_NEON_BINARY(D, dname##add, vaddq_f64) VMAFPP_NEON_BINARY(D, dname##sub, vsubq_f64)  \
    VMAFPP_NEON_BINARY(D, dname##mul, vmulq_f64) VMAFPP_NEON_BINARY(D, dname##div, vdivq_f64)  \
    static D dname##sqrt(D a) { return vsqrtq_f64(a); }
