// The steps of integer motion's SAD that the scalar kernel
// (motion_kernels_scalar.cpp), the CUDA twin (motion_cuda_math.cuh) and the
// Vulkan shader (motion.comp) share: each is defined here once, in the
// subset of C++ that GLSL parses too (fixed-width integer types, T(x)
// conversions, no references, pointers or arrays), and included by all
// three (HACKING.md, "One arithmetic, one place"). The SIMD twins are other
// arithmetic for the same values; checkasm holds them to the scalar.
#ifndef VMAFPP_MOTION_SHARED_H
#define VMAFPP_MOTION_SHARED_H

#include "../device/shared_lang.h"
#ifdef __cplusplus
namespace vmafpp::motion {
#endif

// The shader's push constants (motion.comp; vk_twins.cpp fills them).
struct MotionPush {
    int32_t w;
    int32_t h;
    int32_t bpc;
    int32_t unused;
};

// The five taps of the blur, k = 0..4; they sum to 65536.
VMAFPP_HD int32_t motion_tap(int k) {
    return k == 0 || k == 4 ? 3571 : (k == 1 || k == 3 ? 16004 : 26386);
}

// The vertical pass's rounding of prev - cur: 8-bit samples sum in int32
// and keep 8 fractional bits off; deeper ones sum in int64 and drop bpc bits.
VMAFPP_HD int32_t motion_vertical_round_u8(int32_t acc) { return (acc + 128) >> 8; }
VMAFPP_HD int32_t motion_vertical_round(int64_t acc, int bpc) {
    return int32_t((acc + (int64_t(1) << (bpc - 1))) >> bpc);
}

// The SAD's finish at one sample: the horizontal pass's int64 sum rounded
// to int32 (Q16) and its magnitude, which the row adds in uint32 (wrapping:
// any order of the additions gives the scalar's row sum).
VMAFPP_HD uint32_t motion_abs_filtered(int64_t acc) {
    const int32_t v = int32_t((acc + 32768) >> 16);
    return v < 0 ? uint32_t(0) - uint32_t(v) : uint32_t(v);
}

#ifdef __cplusplus
}  // namespace vmafpp::motion
#endif
#endif
