// NEON twins of the SSIM kernels (ssim_kernels.hpp): the convolution, the
// statistics, the fused pass and the decimation (any factor) of
// ssim_pass_rows.hpp on four samples at a time, floats in one q register
// and their doubles in two. As the x86 twins, lanes hold different outputs,
// never parts of one sum: each output's products are float, widened exactly
// to double and added in tap order, the sum rounded to float once (fcvtn
// rounds to nearest, as a C cast). No fused multiply-add is used.
#include <arm_neon.h>

#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

// Two double registers hold the four lanes of one float register.
struct D4 {
    float64x2_t lo, hi;
};

struct Neon {
    static constexpr int kLanes = 4;
    using F = float32x4_t;
    using D = D4;
    static F load(const float* p) { return vld1q_f32(p); }
    static void store(float* p, F v) { vst1q_f32(p, v); }
    static F set(float v) { return vdupq_n_f32(v); }
    static F add(F a, F b) { return vaddq_f32(a, b); }
    static F sub(F a, F b) { return vsubq_f32(a, b); }
    static F mul(F a, F b) { return vmulq_f32(a, b); }
    static F div(F a, F b) { return vdivq_f32(a, b); }
    static D widen(F v) { return {vcvt_f64_f32(vget_low_f32(v)), vcvt_high_f64_f32(v)}; }
    static F narrow(D v) { return vcvt_high_f32_f64(vcvt_f32_f64(v.lo), v.hi); }
    static D dset(double v) { return {vdupq_n_f64(v), vdupq_n_f64(v)}; }
    static D dadd(D a, D b) { return {vaddq_f64(a.lo, b.lo), vaddq_f64(a.hi, b.hi)}; }
    static D dmul(D a, D b) { return {vmulq_f64(a.lo, b.lo), vmulq_f64(a.hi, b.hi)}; }
    static D ddiv(D a, D b) { return {vdivq_f64(a.lo, b.lo), vdivq_f64(a.hi, b.hi)}; }
    static D dsqrt(D v) { return {vsqrtq_f64(v.lo), vsqrtq_f64(v.hi)}; }
    static void dstore(double* p, D v) {
        vst1q_f64(p, v.lo);
        vst1q_f64(p + 2, v.hi);
    }
    static D dloadu(const double* p) { return {vld1q_f64(p), vld1q_f64(p + 2)}; }
    static F fsqrt(F v) { return vsqrtq_f32(v); }
    // Ordered compares: false for NaN, which is kept.
    static F zero_if_negative(F v) {
        return vreinterpretq_f32_u32(
            vbicq_u32(vreinterpretq_u32_f32(v), vcltq_f32(v, vdupq_n_f32(0.0f))));
    }
    static F zero_if_negative_and_flat(F cov, F sd) {
        const uint32x4_t flat =
            vandq_u32(vcltq_f32(cov, vdupq_n_f32(0.0f)), vcleq_f32(sd, vdupq_n_f32(0.0f)));
        return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(cov), flat));
    }
};

}  // namespace

void ssim_init_neon(SsimKernels& k) { install_twins<Neon>(k); }

}  // namespace vmafpp::ssim
