// NEON twins of ciede's delta E and Lab conversion: ciede_simd.hpp over two
// double lanes (one q register; the float lanes in a d register), run as
// four interleaved chains for delta E and two for the Lab conversion, as
// the x86 twins. AArch64's double and float vector arithmetic, square root
// and conversions are IEEE with round to nearest (FPCR's default), so each
// operation is the scalar's; no fused multiply-add is used.
#include <arm_neon.h>
#include <math.h>

#include <cstdint>

#include "ciede/ciede_kernels.hpp"
#include "ciede/ciede_simd.hpp"

namespace vmafpp::ciede {

namespace {

// Two doubles; a mask is a vector of all-ones or all-zeros lanes.
struct Neon {
    static constexpr int kLanes = 2;
    using D = float64x2_t;
    using M = uint64x2_t;

    static D set(double v) { return vdupq_n_f64(v); }
    static D load(const double* p) { return vld1q_f64(p); }
    static void store(double* p, D v) { vst1q_f64(p, v); }
    // The same two lanes as floats, for the scalar's float operations.
    using F = float32x2_t;
    static F fset(float v) { return vdup_n_f32(v); }
    static F fload(const float* p) { return vld1_f32(p); }
    static void fstore(float* p, F v) { vst1_f32(p, v); }
#define VMAFPP_CIEDE_NEON_BINARY(R, T, op, intrinsic) \
    static R op(T a, T b) { return intrinsic(a, b); }
    VMAFPP_CIEDE_NEON_BINARY(F, F, fadd, vadd_f32) VMAFPP_CIEDE_NEON_BINARY(F, F, fsub, vsub_f32)
    VMAFPP_CIEDE_NEON_BINARY(F, F, fmul, vmul_f32) VMAFPP_CIEDE_NEON_BINARY(F, F, fdiv, vdiv_f32)
    static D widen(F v) { return vcvt_f64_f32(v); }
    static F narrow(D v) { return vcvt_f32_f64(v); }
    // A float lane's all-ones or all-zeros, sign-extended to its double lane.
    static M fzero(F v) {
        return vreinterpretq_u64_s64(vmovl_s32(vreinterpret_s32_u32(vceqz_f32(v))));
    }
    // a == b of float lanes (false for NaN), sign-extended to the double lanes.
    static M feq(F a, F b) {
        return vreinterpretq_u64_s64(vmovl_s32(vreinterpret_s32_u32(vceq_f32(a, b))));
    }

    VMAFPP_CIEDE_NEON_BINARY(D, D, add, vaddq_f64) VMAFPP_CIEDE_NEON_BINARY(D, D, sub, vsubq_f64)
    VMAFPP_CIEDE_NEON_BINARY(D, D, mul, vmulq_f64) VMAFPP_CIEDE_NEON_BINARY(D, D, div, vdivq_f64)
    static D sqrt(D a) { return vsqrtq_f64(a); }
    static D neg(D a) { return vnegq_f64(a); }
    static D abs(D a) { return vabsq_f64(a); }
    static D copysign(D mag, D sign) {
        return vbslq_f64(vdupq_n_u64(0x8000000000000000ull), sign, mag);
    }
    // To the nearest integer, ties to even (_MM_FROUND_TO_NEAREST_INT).
    static D round(D a) { return vrndnq_f64(a); }

    // Ordered compares: false where either side is NaN.
    VMAFPP_CIEDE_NEON_BINARY(M, D, lt, vcltq_f64) VMAFPP_CIEDE_NEON_BINARY(M, D, le, vcleq_f64)
    VMAFPP_CIEDE_NEON_BINARY(M, D, gt, vcgtq_f64) VMAFPP_CIEDE_NEON_BINARY(M, D, eq, vceqq_f64)
    VMAFPP_CIEDE_NEON_BINARY(M, M, mask_and, vandq_u64)
    VMAFPP_CIEDE_NEON_BINARY(M, M, mask_or, vorrq_u64)
    VMAFPP_CIEDE_NEON_BINARY(M, M, mask_xor, veorq_u64)
#undef VMAFPP_CIEDE_NEON_BINARY
    // a b + c as a product and a sum (the x86 twins fuse it; here it stays
    // what it was measured as).
    static D fma(D a, D b, D c) { return vaddq_f64(vmulq_f64(a, b), c); }
    static unsigned bits(M m) {
        const uint64x2_t top = vshrq_n_u64(m, 63);
        return static_cast<unsigned>(vgetq_lane_u64(top, 0) | vgetq_lane_u64(top, 1) << 1);
    }
    // m ? a : b, lane by lane.
    static D select(M m, D a, D b) { return vbslq_f64(m, a, b); }
    // m ? a : +0.
    static D keep(M m, D a) { return vreinterpretq_f64_u64(vandq_u64(m, vreinterpretq_u64_f64(a))); }
    // m ? +0 : a.
    static D drop(M m, D a) { return vreinterpretq_f64_u64(vbicq_u64(vreinterpretq_u64_f64(a), m)); }
    // m ? -a : a (the sign bit flipped, as neg).
    static D flip(M m, D a) {
        const uint64x2_t sign = vandq_u64(m, vdupq_n_u64(0x8000000000000000ull));
        return vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(a), sign));
    }
    // The smaller and larger of two numbers (no NaN).
    static D min(D a, D b) { return vminq_f64(a, b); }
    static D max(D a, D b) { return vmaxq_f64(a, b); }

    // Lanes whose integer k (|k| < 2^31) has bit b set.
    static M bit(D k, int b) { return vtstq_s64(vcvtnq_s64_f64(k), vdupq_n_s64(b)); }
    // 2^k for an integer k in [-1022, 1023].
    static D exp2i(D k) {
        const int64x2_t e = vaddq_s64(vcvtnq_s64_f64(k), vdupq_n_s64(1023));
        return vreinterpretq_f64_s64(vshlq_n_s64(e, 52));
    }
    // x = 2^k m with m in [1, 2), for a positive normal x: the exponent
    // field e as the double 2^52 + e (its bits ORed into 2^52's), less
    // 2^52 + 1023.
    static void split(D x, D& m, D& k) {
        const uint64x2_t bits = vreinterpretq_u64_f64(x);
        const uint64x2_t mantissa = vandq_u64(bits, vdupq_n_u64(0x000FFFFFFFFFFFFFull));
        m = vreinterpretq_f64_u64(vorrq_u64(mantissa, vdupq_n_u64(0x3FF0000000000000ull)));
        const uint64x2_t e = vshrq_n_u64(bits, 52);
        const D biased = vreinterpretq_f64_u64(vorrq_u64(e, vdupq_n_u64(0x4330000000000000ull)));
        k = vsubq_f64(biased, vdupq_n_f64(0x1p52 + 1023.0));
    }
    // powf(x, 7.0f) of float lanes, by libm as the scalar calls it.
    static F powf7(F x) {
        float v[kLanes];
        vst1_f32(v, x);
        for (float& e : v) e = powf(e, 7.0f);
        return vld1_f32(v);
    }
};

}  // namespace

void ciede_init_neon(CiedeKernels& k) {
    ciede::simd::install_twins<Neon>(k);
}

}  // namespace vmafpp::ciede
