// NEON twins of the SSIM kernels (ssim_kernels.hpp): convolve here, the
// statistics, the fused pass and the decimation (any factor) from
// ssim_pass_rows.hpp on four samples at a time, floats in one q register
// and their doubles in two. As the x86 twins, lanes hold different outputs,
// never parts of one sum: each output's products are float, widened exactly
// to double and added in tap order, the sum rounded to float once (fcvtn
// rounds to nearest, as a C cast). No fused multiply-add is used.
#include <arm_neon.h>

#include <cstddef>

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

SsimSums stats_neon(const float* mu_r, const float* mu_c, const float* ref_sq, const float* cmp_sq,
                    const float* both, int n) {
    return stats_rows<Neon>(mu_r, mu_c, ref_sq, cmp_sq, both, n);
}

SsimSums pass_neon(const float* ref, const float* cmp, int w, int h, SsimScratch& scratch) {
    return fused_pass<Neon>(ref, cmp, w, h, scratch);
}

// Sums of 8 adjacent outputs: four double registers, two per float vector.
struct Sum8 {
    float64x2_t d[4] = {vdupq_n_f64(0.0), vdupq_n_f64(0.0), vdupq_n_f64(0.0), vdupq_n_f64(0.0)};

    // sum += double(float(samples * tap)) in each lane.
    void add(float32x4_t a, float32x4_t b, float32x4_t tap) {
        const float32x4_t pa = vmulq_f32(a, tap), pb = vmulq_f32(b, tap);
        d[0] = vaddq_f64(d[0], vcvt_f64_f32(vget_low_f32(pa)));
        d[1] = vaddq_f64(d[1], vcvt_high_f64_f32(pa));
        d[2] = vaddq_f64(d[2], vcvt_f64_f32(vget_low_f32(pb)));
        d[3] = vaddq_f64(d[3], vcvt_high_f64_f32(pb));
    }
    void store(float* out) const {
        vst1q_f32(out, vcvt_high_f32_f64(vcvt_f32_f64(d[0]), d[1]));
        vst1q_f32(out + 4, vcvt_high_f32_f64(vcvt_f32_f64(d[2]), d[3]));
    }
};

// One output of the scalar formula, for the columns a vector does not fill.
float tap_sum(const float* in, std::ptrdiff_t step, const float* taps, int n) {
    double sum = 0.0;
    for (int k = 0; k < n; ++k) sum += in[k * step] * taps[k];
    return static_cast<float>(sum);
}

void convolve_neon(const float* src, int w, int h, const float* taps, int n, float* dst,
                   float* cache) {
    const int ow = w - n + 1;
    const int oh = h - n + 1;
    for (int y = 0; y < h; ++y) {
        const float* in = src + static_cast<std::ptrdiff_t>(y) * w;
        float* out = cache + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + 8 <= ow; x += 8) {
            Sum8 s;
            // in[x + k + 7] <= in[ow - 1 + n - 1] = in[w - 1]: inside the row.
            for (int k = 0; k < n; ++k)
                s.add(vld1q_f32(in + x + k), vld1q_f32(in + x + k + 4), vdupq_n_f32(taps[k]));
            s.store(out + x);
        }
        for (; x < ow; ++x) out[x] = tap_sum(in + x, 1, taps, n);
    }
    // The vertical pass reads only the cache, so dst may be src.
    for (int y = 0; y < oh; ++y) {
        const float* col = cache + static_cast<std::ptrdiff_t>(y) * ow;
        float* out = dst + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + 8 <= ow; x += 8) {
            Sum8 s;
            for (int k = 0; k < n; ++k) {
                const float* row = col + static_cast<std::ptrdiff_t>(k) * ow + x;
                s.add(vld1q_f32(row), vld1q_f32(row + 4), vdupq_n_f32(taps[k]));
            }
            s.store(out + x);
        }
        for (; x < ow; ++x) out[x] = tap_sum(col + x, ow, taps, n);
    }
}

// MS-SSIM's low-pass (factor 2) and float_ssim's in-place box, through
// ssim_pass_rows.hpp's phased rows; an in-place call whose outputs could
// read earlier ones goes to the scalar.
void decimate_neon(const float* src, int w, int h, int factor, const float* kernel, int kw,
                   float* dst) {
    decimate_rows<Neon>(src, w, h, factor, kernel, kw, dst);
}

}  // namespace

void ssim_init_neon(SsimKernels& k) {
    k.convolve = convolve_neon;
    k.stats = stats_neon;
    k.decimate = decimate_neon;
    k.pass = pass_neon;
}

}  // namespace vmafpp::ssim
