// NEON twins of SpEED's covariance and vertical-blur kernels, speed_simd.hpp
// over eight float lanes in two q registers (AArch64 Advanced SIMD: IEEE
// float and double arithmetic, round to nearest; no fused multiply-add is
// used, so every operation rounds where the scalar's does).
//
// Two doubles per register, so a block row's five offsets take three
// registers (columns 0-1, 2-3 and 4-5; lane 5 is computed and dropped); the
// means take a float register for columns 0-3 and a half register for 4-5.
// Covariance loads reach column j + 5, the vertical pass's j + 7, within the
// contract's slack after each row.
#include <arm_neon.h>

#include <cstdint>

#include "dispatch/neon_lanes.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_simd.hpp"

namespace vmafpp::speed {

namespace {

// speed_simd.hpp's vector: eight floats as two q registers (columns j to
// j + 3 and j + 4 to j + 7), so that each tap feeds two independent sums.
struct Neon {
    static constexpr int kLanes = 8;
    struct F {
        float32x4_t lo, hi;
    };
    static F set(float v) { return {vdupq_n_f32(v), vdupq_n_f32(v)}; }
    static F zero() { return set(0.0f); }
    static F add(F a, F b) { return {vaddq_f32(a.lo, b.lo), vaddq_f32(a.hi, b.hi)}; }
    static F sub(F a, F b) { return {vsubq_f32(a.lo, b.lo), vsubq_f32(a.hi, b.hi)}; }
    static F mul(F a, F b) { return {vmulq_f32(a.lo, b.lo), vmulq_f32(a.hi, b.hi)}; }
    static void store(float* p, F v) {
        vst1q_f32(p, v.lo);
        vst1q_f32(p + 4, v.hi);
    }
    static float first(F v) { return vgetq_lane_f32(v.lo, 0); }
    template <bool kWide>
    static F samples(const std::uint8_t* p, int j) {
        uint16x8_t w;
        if constexpr (kWide)
            w = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p) + j);
        else
            w = vmovl_u8(vld1_u8(p + j));
        return {vcvtq_f32_u32(vmovl_u16(vget_low_u16(w))), vcvtq_f32_u32(vmovl_high_u16(w))};
    }

    struct M {
        float32x4_t lo;
        float32x2_t hi;
    };
    static M mzero() { return {vdupq_n_f32(0.0f), vdup_n_f32(0.0f)}; }
    static M madd(M m, const float* p) {
        return {vaddq_f32(m.lo, vld1q_f32(p)), vadd_f32(m.hi, vld1_f32(p + 4))};
    }
    static void mstore(float* lanes, M m) {
        vst1q_f32(lanes, m.lo);
        vst1_f32(lanes + 4, m.hi);
    }

    VMAFPP_NEON_DOUBLE_LANES(d)
    static constexpr int kDoubleLanes = 2, kRowRegs = 3;
    static D row_doubles(const float* p, int q) { return vcvt_f64_f32(vld1_f32(p + 2 * q)); }
};

}  // namespace

void speed_init_neon(SpeedKernels& k) { fill_kernels<Neon>(k); }

}  // namespace vmafpp::speed
