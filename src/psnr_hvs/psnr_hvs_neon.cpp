// NEON twin of psnr_hvs's plane kernel: psnr_hvs_simd.hpp over four int32
// and float lanes (one q register each), one 8x8 block per lane. AArch64's
// Advanced SIMD float arithmetic is IEEE (round to nearest, no flush to zero
// under Linux's default FPCR), so each lane repeats the scalar's operations
// bit for bit; no fused multiply-add is used.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "psnr_hvs/psnr_hvs_simd.hpp"

namespace vmafpp::psnr_hvs {

namespace {

struct Neon {
    static constexpr int kLanes = 4;

    // Four int32 lanes with the operators fdct8_lifting uses.
    struct I {
        int32x4_t v;
        friend I operator+(I a, I b) { return {vaddq_s32(a.v, b.v)}; }
        friend I operator-(I a, I b) { return {vsubq_s32(a.v, b.v)}; }
    };
    struct Dct {
        // (a + (a < 0)) >> 1: a - (a >> 31) adds one to a negative a.
        static I half(I a) { return {vshrq_n_s32(vsubq_s32(a.v, vshrq_n_s32(a.v, 31)), 1)}; }
        // 32-bit products, as the AVX2 twin's (psnr_hvs_avx2_lanes.hpp says
        // why they fit); the shift by a register count (negative: an
        // arithmetic right shift) takes s at run time.
        static I lift(I u, std::int32_t c, int s) {
            const int32x4_t p =
                vaddq_s32(vmulq_s32(u.v, vdupq_n_s32(c)), vdupq_n_s32(1 << (s - 1)));
            return {vshlq_s32(p, vdupq_n_s32(-s))};
        }
    };
    using F = float32x4_t;
    using M = uint32x4_t;

    static I load_i32(const std::int32_t* p) { return {vld1q_s32(p)}; }
    static F to_float(I a) { return vcvtq_f32_s32(a.v); }
    static F set(float v) { return vdupq_n_f32(v); }
    static F add(F a, F b) { return vaddq_f32(a, b); }
    static F sub(F a, F b) { return vsubq_f32(a, b); }
    static F mul(F a, F b) { return vmulq_f32(a, b); }
    static F div(F a, F b) { return vdivq_f32(a, b); }
    // Ordered compares (false for NaN), as _CMP_GT_OQ and _CMP_LT_OQ.
    static M gt(F a, F b) { return vcgtq_f32(a, b); }
    static M lt(F a, F b) { return vcltq_f32(a, b); }
    static F select(M m, F a, F b) { return vbslq_f32(m, a, b); }
    static F zero_where(M m, F a) {
        return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(a), m));
    }
    static I abs_diff(I a, I b) { return {vabsq_s32(vsubq_s32(a.v, b.v))}; }
    static I square(I a) { return {vmulq_s32(a.v, a.v)}; }
    static void store(float* p, F v) { vst1q_f32(p, v); }
    // float(sqrt(double(x)) / 32): dividing by 32 is exact in double, one
    // rounding to float follows.
    static F sqrt_div32(F x) {
        const float64x2_t k32 = vdupq_n_f64(32.0);
        const float64x2_t lo = vsqrtq_f64(vcvt_f64_f32(vget_low_f32(x)));
        const float64x2_t hi = vsqrtq_f64(vcvt_high_f64_f32(x));
        return vcvt_high_f32_f64(vcvt_f32_f64(vdivq_f64(lo, k32)), vdivq_f64(hi, k32));
    }
};

float plane_neon(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                 std::ptrdiff_t dis_stride, int w, int h, int bpc, const psnr_hvs::Table8x8& csf) {
    using psnr_hvs::simd::plane;
    return bpc > 8
               ? plane<Neon, Neon, std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf)
               : plane<Neon, Neon, std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf);
}

}  // namespace

void psnr_hvs_init_neon(PsnrHvsKernels& k) { k.plane = plane_neon; }

}  // namespace vmafpp::psnr_hvs
