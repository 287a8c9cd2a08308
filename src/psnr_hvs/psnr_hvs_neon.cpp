// NEON twin of psnr_hvs's plane kernel: psnr_hvs_simd.hpp over four int32
// and float lanes (one q register each), one 8x8 block per lane. AArch64's
// Advanced SIMD float arithmetic is IEEE (round to nearest, no flush to zero
// under Linux's default FPCR), so each lane repeats the scalar's operations
// bit for bit; no fused multiply-add is used.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "dispatch/neon_lanes.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "psnr_hvs/psnr_hvs_simd.hpp"

namespace vmafpp::psnr_hvs {

namespace {

struct Neon {
    VMAFPP_NEON_FLOAT_LANES()
    using I = int32x4_t;
    static I set_i32(std::int32_t v) { return vdupq_n_s32(v); }
    static I load_i(const std::int32_t* p) { return vld1q_s32(p); }
    VMAFPP_NEON_BINARY(I, add_i32, vaddq_s32) VMAFPP_NEON_BINARY(I, sub_i32, vsubq_s32)
    VMAFPP_NEON_BINARY(I, mullo_i32, vmulq_s32)
    // A shift by a register count (negative: an arithmetic right shift), n
    // known at run time.
    static I sar_i32(I a, int n) { return vshlq_s32(a, vdupq_n_s32(-n)); }
    static I abs_i32(I a) { return vabsq_s32(a); }
    static F to_float(I a) { return vcvtq_f32_s32(a); }
    // Ordered compares (false for NaN), as _CMP_GT_OQ and _CMP_LT_OQ.
    using M = uint32x4_t;
    static M gt(F a, F b) { return vcgtq_f32(a, b); }
    static M lt(F a, F b) { return vcltq_f32(a, b); }
    static F select(M m, F a, F b) { return vbslq_f32(m, a, b); }
    static F zero_where(M m, F a) {
        return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(a), m));
    }
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
