// NEON twins of float VIF's blurs (blur, blur_squared, blur_product,
// blur_decimate). Each pass keeps the scalar's order per output: the sum
// starts at 0 and adds f[k] * sample for k ascending, products and sums
// float (fmul by element, then fadd; never a fused multiply-add). The lanes
// hold neighbouring outputs (columns) of one pass, sixteen at a time in
// registers across all taps (the scalar's loops, vectorised by GCC, keep
// their partial sums in memory), then four; leftover columns run the
// scalar's arithmetic. The decimating horizontal pass takes every second
// sample with vld2q.
#include <arm_neon.h>

#include <cmath>
#include <cstddef>

#include "vif/float_vif_kernels.hpp"

namespace vmafpp::float_vif {

namespace {

// What the vertical pass filters: a picture, its square or the product of
// two; row(y) binds one (reflected) row, read four or sixteen samples at a
// time or one at a time.
struct Plain {
    const float* src;
    std::ptrdiff_t stride;
    struct Row {
        const float* p;
        float at(int x) const { return p[x]; }
        float32x4_t at4(int x) const { return vld1q_f32(p + x); }
        float32x4x4_t at16(int x) const { return vld1q_f32_x4(p + x); }
    };
    Row row(int y) const { return {src + y * stride}; }
};
struct Squared {
    const float* src;
    std::ptrdiff_t stride;
    struct Row {
        const float* p;
        float at(int x) const { return p[x] * p[x]; }
        float32x4_t at4(int x) const {
            const float32x4_t v = vld1q_f32(p + x);
            return vmulq_f32(v, v);
        }
        float32x4x4_t at16(int x) const {
            float32x4x4_t v = vld1q_f32_x4(p + x);
            for (float32x4_t& q : v.val) q = vmulq_f32(q, q);
            return v;
        }
    };
    Row row(int y) const { return {src + y * stride}; }
};
struct Product {
    const float* a;
    std::ptrdiff_t a_stride;
    const float* b;
    std::ptrdiff_t b_stride;
    struct Row {
        const float* pa;
        const float* pb;
        float at(int x) const { return pa[x] * pb[x]; }
        float32x4_t at4(int x) const { return vmulq_f32(vld1q_f32(pa + x), vld1q_f32(pb + x)); }
        float32x4x4_t at16(int x) const {
            float32x4x4_t va = vld1q_f32_x4(pa + x);
            const float32x4x4_t vb = vld1q_f32_x4(pb + x);
            for (int q = 0; q < 4; ++q) va.val[q] = vmulq_f32(va.val[q], vb.val[q]);
            return va;
        }
    };
    Row row(int y) const { return {a + y * a_stride, b + y * b_stride}; }
};

// acc + f * v, the product rounded before the sum (fmul by element, then fadd).
inline float32x4_t add_tap(float32x4_t acc, float32x4_t v, float f) {
    return vaddq_f32(acc, vmulq_n_f32(v, f));
}

// Vertical pass of output row i into out[0 .. w): per column, sum over taps k
// of f[k] * sample(reflected row i - r + k). Sixteen columns at a time in
// four accumulators, then four, then one.
template <class Sample>
void vertical_pass(const float* f, int fw, int i, int w, int h, float* out, const Sample& s) {
    const int r = fw / 2;
    typename Sample::Row rows[kMaxFilterWidth];
    for (int k = 0; k < fw; ++k) rows[k] = s.row(reflect(i - r + k, h));
    int j = 0;
    for (; j + 16 <= w; j += 16) {
        float32x4x4_t acc;
        for (float32x4_t& q : acc.val) q = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            const float32x4x4_t v = rows[k].at16(j);
            for (int q = 0; q < 4; ++q) acc.val[q] = add_tap(acc.val[q], v.val[q], f[k]);
        }
        vst1q_f32_x4(out + j, acc);
    }
    for (; j + 4 <= w; j += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, rows[k].at4(j), f[k]);
        vst1q_f32(out + j, acc);
    }
    for (; j < w; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * rows[k].at(j);
        out[j] = acc;
    }
}

// Reflects the vertical result into the r pad samples on each side.
void pad_row(float* row, int w, int r) {
    float* mid = row + r;
    for (int m = 1; m <= r; ++m) {
        row[r - m] = mid[m];
        mid[w - 1 + m] = mid[w - 1 - m];
    }
}

// dst[o] = sum_k f[k] * row[o + k] for o < w.
void horizontal_pass(const float* f, int fw, const float* row, int w, float* dst) {
    int o = 0;
    for (; o + 16 <= w; o += 16) {
        float32x4x4_t acc;
        for (float32x4_t& q : acc.val) q = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            const float32x4x4_t v = vld1q_f32_x4(row + o + k);
            for (int q = 0; q < 4; ++q) acc.val[q] = add_tap(acc.val[q], v.val[q], f[k]);
        }
        vst1q_f32_x4(dst + o, acc);
    }
    for (; o + 4 <= w; o += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, vld1q_f32(row + o + k), f[k]);
        vst1q_f32(dst + o, acc);
    }
    for (; o < w; ++o) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * row[o + k];
        dst[o] = acc;
    }
}

// dst[o] = sum_k f[k] * row[2 * o + k] for o < n: vld2q takes the even
// samples (its odd ones, the last of them one past the kept samples, stay
// inside the padded row of n * 2 + fw - 1 or more).
void horizontal_pass_decimate(const float* f, int fw, const float* row, int n, float* dst) {
    int o = 0;
    for (; o + 8 <= n; o += 8) {
        float32x4_t lo = vdupq_n_f32(0.0f), hi = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            lo = add_tap(lo, vld2q_f32(row + 2 * o + k).val[0], f[k]);
            hi = add_tap(hi, vld2q_f32(row + 2 * o + 8 + k).val[0], f[k]);
        }
        vst1q_f32(dst + o, lo);
        vst1q_f32(dst + o + 4, hi);
    }
    for (; o + 4 <= n; o += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, vld2q_f32(row + 2 * o + k).val[0], f[k]);
        vst1q_f32(dst + o, acc);
    }
    for (; o < n; ++o) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * row[2 * o + k];
        dst[o] = acc;
    }
}

template <class Sample>
void separable(const float* f, int fw, float* dst, std::ptrdiff_t dst_stride, int w, int h,
               float* row, const Sample& s) {
    const int r = fw / 2;
    for (int i = 0; i < h; ++i) {
        vertical_pass(f, fw, i, w, h, row + r, s);
        pad_row(row, w, r);
        horizontal_pass(f, fw, row, w, dst + i * dst_stride);
    }
}

void blur_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
               std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Plain{src, src_stride});
}

void blur_squared_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                       float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Squared{src, src_stride});
}

void blur_product_neon(const float* f, int fw, const float* a, std::ptrdiff_t a_stride,
                       const float* b, std::ptrdiff_t b_stride, float* dst,
                       std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Product{a, a_stride, b, b_stride});
}

void blur_decimate_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                        float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    const int r = fw / 2;
    const Plain s{src, src_stride};
    for (int i = 0; i < h / 2; ++i) {
        vertical_pass(f, fw, 2 * i, w, h, row + r, s);
        pad_row(row, w, r);
        horizontal_pass_decimate(f, fw, row, w / 2, dst + i * dst_stride);
    }
}

// The statistic's per-sample terms, four samples at a time: the scalar's
// operations lane for lane (float, or double where the scalar widens), its
// ifs as selects on ordered compares (false for NaN, as C's < and >).
struct StatConstants {
    float32x4_t eps, zero, one, gain_limit, sigma_max_inv;
    float64x2_t one_d, sigma_nsq;
};

inline float32x4_t select(uint32x4_t mask, float32x4_t yes, float32x4_t no) {
    return vbslq_f32(mask, yes, no);
}

// 1 + num / (den + sigma_nsq) (or 1 + num / sigma_nsq without den) in double,
// rounded to float: two double lanes per half.
inline float32x4_t one_plus_ratio_d(float32x4_t num, const float32x4_t* den,
                                    const StatConstants& c) {
    float64x2_t lo = vcvt_f64_f32(vget_low_f32(num)), hi = vcvt_high_f64_f32(num);
    float64x2_t dlo = c.sigma_nsq, dhi = c.sigma_nsq;
    if (den != nullptr) {
        dlo = vaddq_f64(vcvt_f64_f32(vget_low_f32(*den)), c.sigma_nsq);
        dhi = vaddq_f64(vcvt_high_f64_f32(*den), c.sigma_nsq);
    }
    lo = vaddq_f64(c.one_d, vdivq_f64(lo, dlo));
    hi = vaddq_f64(c.one_d, vdivq_f64(hi, dhi));
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}

// log2_approx of four floats.
inline float32x4_t log2_approx4(float32x4_t x) {
    static constexpr float kPoly[9] = {
        -0.012671635276421f, 0.064841182402670f,  -0.157048836463065f,
        0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
        -0.721314327952201f, 1.442694803896991f,  0.0f};
    const uint32x4_t bits = vreinterpretq_u32_f32(x);
    const uint32x4_t exponent = vshrq_n_u32(vandq_u32(bits, vdupq_n_u32(0x7F800000u)), 23);
    const float32x4_t mantissa = vreinterpretq_f32_u32(
        vorrq_u32(vandq_u32(bits, vdupq_n_u32(0x007FFFFFu)), vdupq_n_u32(0x3F800000u)));
    const float32x4_t t = vsubq_f32(mantissa, vdupq_n_f32(1.0f));
    float32x4_t p = vdupq_n_f32(0.0f);
    for (float k : kPoly) p = vaddq_f32(vmulq_f32(p, t), vdupq_n_f32(k));
    const float32x4_t e =
        vcvtq_f32_s32(vsubq_s32(vreinterpretq_s32_u32(exponent), vdupq_n_s32(127)));
    const float32x4_t v = vaddq_f32(e, p);
    const float32x4_t nan = vreinterpretq_f32_u32(vdupq_n_u32(0x7FC00000u));
    const float32x4_t ninf = vreinterpretq_f32_u32(vdupq_n_u32(0xFF800000u));
    const float32x4_t zero = vdupq_n_f32(0.0f);
    return select(vceqq_f32(x, zero), ninf, select(vcltq_f32(x, zero), nan, v));
}

// The num and den terms of four samples (what the scalar's third loop adds).
inline void stat_terms(float32x4_t m1, float32x4_t m2, float32x4_t xx, float32x4_t yy,
                       float32x4_t xy, const StatConstants& c, double sigma_nsq,
                       float32x4_t* num_out, float32x4_t* den_out) {
    float32x4_t s1 = vsubq_f32(xx, vmulq_f32(m1, m1));
    float32x4_t s2 = vsubq_f32(yy, vmulq_f32(m2, m2));
    const float32x4_t s12 = vsubq_f32(xy, vmulq_f32(m1, m2));
    s1 = select(vcgtq_f32(s1, c.zero), s1, c.zero);
    s2 = select(vcgtq_f32(s2, c.zero), s2, c.zero);
    float32x4_t g = vdivq_f32(s12, vaddq_f32(s1, c.eps));
    float32x4_t sv_sq = vsubq_f32(s2, vmulq_f32(g, s12));
    const uint32x4_t s1_tiny = vcltq_f32(s1, c.eps);
    g = select(s1_tiny, c.zero, g);
    sv_sq = select(s1_tiny, s2, sv_sq);
    const float32x4_t s1z = select(s1_tiny, c.zero, s1);
    const uint32x4_t s2_tiny = vcltq_f32(s2, c.eps);
    g = select(s2_tiny, c.zero, g);
    sv_sq = select(s2_tiny, c.zero, sv_sq);
    const uint32x4_t g_negative = vcltq_f32(g, c.zero);
    sv_sq = select(g_negative, s2, sv_sq);
    g = select(g_negative, c.zero, g);
    sv_sq = select(vcgtq_f32(sv_sq, c.eps), sv_sq, c.eps);
    g = select(vcltq_f32(g, c.gain_limit), g, c.gain_limit);
    const float32x4_t num_log =
        log2_approx4(one_plus_ratio_d(vmulq_f32(vmulq_f32(g, g), s1z), &sv_sq, c));
    const float32x4_t den_log = log2_approx4(one_plus_ratio_d(s1z, nullptr, c));
    // s1 < sigma_nsq compares the float widened to double.
    const float64x2_t snsq = vdupq_n_f64(sigma_nsq);
    const uint32x4_t low_variance =
        vcombine_u32(vmovn_u64(vcltq_f64(vcvt_f64_f32(vget_low_f32(s1z)), snsq)),
                     vmovn_u64(vcltq_f64(vcvt_high_f64_f32(s1z), snsq)));
    float32x4_t num = select(vcltq_f32(s12, c.zero), c.zero, num_log);
    num = select(low_variance, vsubq_f32(c.one, vmulq_f32(s2, c.sigma_max_inv)), num);
    *num_out = num;
    *den_out = select(low_variance, c.one, den_log);
}

VifSums statistic_neon(const float* mu1, const float* mu2, const float* xx, const float* yy,
                       const float* xy, std::ptrdiff_t stride, int w, int h, double enhn_gain_limit,
                       double sigma_nsq, float* scratch) {
    // The scalar's constants, formed as it forms them.
    const float sigma_max_inv =
        static_cast<float>(std::pow(static_cast<float>(sigma_nsq), 2.0f) / (255.0 * 255.0));
    const StatConstants c{
        vdupq_n_f32(1.0e-10f),      vdupq_n_f32(0.0f),
        vdupq_n_f32(1.0f),          vdupq_n_f32(static_cast<float>(enhn_gain_limit)),
        vdupq_n_f32(sigma_max_inv), vdupq_n_f64(1.0),
        vdupq_n_f64(sigma_nsq)};
    float* num_row = scratch;
    float* den_row = scratch + w;
    VifSums sums;
    for (int i = 0; i < h; ++i) {
        const std::ptrdiff_t row = i * stride;
        int j = 0;
        for (; j + 4 <= w; j += 4) {
            float32x4_t num, den;
            stat_terms(vld1q_f32(mu1 + row + j), vld1q_f32(mu2 + row + j), vld1q_f32(xx + row + j),
                       vld1q_f32(yy + row + j), vld1q_f32(xy + row + j), c, sigma_nsq, &num, &den);
            vst1q_f32(num_row + j, num);
            vst1q_f32(den_row + j, den);
        }
        if (j < w) {
            // The last 1-3 samples through the same lanes, copied out so that
            // no load reads past the row.
            float in[5][4] = {};
            const float* src[5] = {mu1, mu2, xx, yy, xy};
            for (int q = 0; q < 5; ++q)
                for (int x = j; x < w; ++x) in[q][x - j] = src[q][row + x];
            float32x4_t num, den;
            stat_terms(vld1q_f32(in[0]), vld1q_f32(in[1]), vld1q_f32(in[2]), vld1q_f32(in[3]),
                       vld1q_f32(in[4]), c, sigma_nsq, &num, &den);
            float n4[4], d4[4];
            vst1q_f32(n4, num);
            vst1q_f32(d4, den);
            for (int x = j; x < w; ++x) {
                num_row[x] = n4[x - j];
                den_row[x] = d4[x - j];
            }
        }
        // The row sums in column order, as the scalar's.
        float row_num = 0.0f, row_den = 0.0f;
        for (int x = 0; x < w; ++x) {
            row_num += num_row[x];
            row_den += den_row[x];
        }
        sums.num += row_num;
        sums.den += row_den;
    }
    return sums;
}

}  // namespace

// Every float VIF kernel has a twin at this level (FloatVifKernels order).
void float_vif_init_neon(FloatVifKernels& k) {
    k = FloatVifKernels{
        blur_neon,
        blur_squared_neon,
        blur_product_neon,
        blur_decimate_neon,
        statistic_neon,
    };
}

}  // namespace vmafpp::float_vif
