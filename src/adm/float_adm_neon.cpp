// NEON twins of float ADM's DWT, decouple and CSF: four columns per vector,
// each sample's operations the scalar's, in its order (float, or double where
// the scalar widens; ifs as selects on ordered compares, false for NaN as in
// C; no fused multiply-add). Division is plain vdivq, as the scalar's
// divide() off x86. The DWT's horizontal pass takes the interior outputs'
// taps 2j-1 .. 2j+2 with vld2q; outputs near the edges read the tap arrays.
#include <arm_neon.h>

#include <cmath>
#include <cstddef>

#include "adm/float_adm_kernels.hpp"

namespace vmafpp::float_adm {

namespace {

// dwt_taps (float_adm_kernels.hpp) of four columns.
inline float32x4_t taps4(const float* k, float32x4_t s0, float32x4_t s1, float32x4_t s2,
                         float32x4_t s3) {
    float32x4_t acc = vaddq_f32(vdupq_n_f32(0.0f), vmulq_n_f32(s0, k[0]));
    acc = vaddq_f32(acc, vmulq_n_f32(s1, k[1]));
    acc = vaddq_f32(acc, vmulq_n_f32(s2, k[2]));
    return vaddq_f32(acc, vmulq_n_f32(s3, k[3]));
}

// The vertical pass of one output row into tmp (w floats).
void vertical(const float* k, const float* r0, const float* r1, const float* r2, const float* r3,
              int w, float* tmp) {
    int j = 0;
    for (; j + 4 <= w; j += 4)
        vst1q_f32(tmp + j, taps4(k, vld1q_f32(r0 + j), vld1q_f32(r1 + j), vld1q_f32(r2 + j),
                                 vld1q_f32(r3 + j)));
    for (; j < w; ++j) tmp[j] = dwt_taps(k, r0[j], r1[j], r2[j], r3[j]);
}

// The horizontal pass of a tmp row with filter k into out (out_w outputs).
void horizontal(const float* k, const float* tmp, int w, const int* const col_taps[4], int out_w,
                float* out) {
    // Outputs whose four taps 2j-1 .. 2j+2 lie inside the row: 1 <= j and
    // 2j + 2 <= w - 1; the vector loop needs four of them in a row.
    const int last = (w - 3) / 2;  // the last interior output
    int j = 0;
    const auto one = [&](int x) {
        out[x] = dwt_taps(k, tmp[col_taps[0][x]], tmp[col_taps[1][x]], tmp[col_taps[2][x]],
                       tmp[col_taps[3][x]]);
    };
    for (; j < out_w && j < 1; ++j) one(j);
    for (; j + 3 <= last && j + 4 <= out_w; j += 4) {
        const float32x4x2_t even = vld2q_f32(tmp + 2 * j - 1);  // 2j-1, 2j
        const float32x4x2_t odd = vld2q_f32(tmp + 2 * j + 1);   // 2j+1, 2j+2
        vst1q_f32(out + j, taps4(k, even.val[0], even.val[1], odd.val[0], odd.val[1]));
    }
    for (; j < out_w; ++j) one(j);
}

void dwt2_neon(const float* src, std::ptrdiff_t src_stride, int w, int h,
               const int* const row_taps[4], const int* const col_taps[4], const Bands& dst,
               std::ptrdiff_t dst_stride, float* tmp_lo, float* tmp_hi, bool lo_only) {
    const int out_w = (w + 1) / 2;
    dwt2_rows(src, src_stride, h, row_taps, [&](int i, const float* r0, const float* r1,
                                                const float* r2, const float* r3) {
        // Both vertical passes read the source rows before any output of
        // row i is written (src may alias dst.a).
        vertical(kLo, r0, r1, r2, r3, w, tmp_lo);
        if (!lo_only) vertical(kHi, r0, r1, r2, r3, w, tmp_hi);
        horizontal(kLo, tmp_lo, w, col_taps, out_w, dst.a + i * dst_stride);
        if (lo_only) return;
        horizontal(kHi, tmp_lo, w, col_taps, out_w, dst.v + i * dst_stride);
        horizontal(kLo, tmp_hi, w, col_taps, out_w, dst.h + i * dst_stride);
        horizontal(kHi, tmp_hi, w, col_taps, out_w, dst.d + i * dst_stride);
    });
}

inline float32x4_t select(uint32x4_t m, float32x4_t yes, float32x4_t no) {
    return vbslq_f32(m, yes, no);
}

// Where `when`, rst = (double(rst) * gain  cmp  double(t)) ? float(product) : t,
// with cmp < (above) or > (below): the scalar's two ifs.
inline float32x4_t limit_gain(float32x4_t rst, float32x4_t t, uint32x4_t when, double gain,
                              bool above) {
    const float64x2_t g = vdupq_n_f64(gain);
    const float64x2_t plo = vmulq_f64(vcvt_f64_f32(vget_low_f32(rst)), g);
    const float64x2_t phi = vmulq_f64(vcvt_high_f64_f32(rst), g);
    const float64x2_t tlo = vcvt_f64_f32(vget_low_f32(t)), thi = vcvt_high_f64_f32(t);
    const uint32x4_t keep =
        vcombine_u32(vmovn_u64(above ? vcltq_f64(plo, tlo) : vcgtq_f64(plo, tlo)),
                     vmovn_u64(above ? vcltq_f64(phi, thi) : vcgtq_f64(phi, thi)));
    const float32x4_t product = vcvt_high_f32_f64(vcvt_f32_f64(plo), phi);
    return select(when, select(keep, product, t), rst);
}

inline float32x4_t restore4(float32x4_t o, float32x4_t t, uint32x4_t angle, double gain) {
    const float32x4_t zero = vdupq_n_f32(0.0f), one = vdupq_n_f32(1.0f);
    float32x4_t k = vdivq_f32(t, vaddq_f32(o, vdupq_n_f32(1e-30f)));
    k = select(vcltq_f32(k, zero), zero, select(vcgtq_f32(k, one), one, k));
    float32x4_t rst = vmulq_f32(k, o);
    rst = limit_gain(rst, t, vandq_u32(angle, vcgtq_f32(rst, zero)), gain, true);
    return limit_gain(rst, t, vandq_u32(angle, vcltq_f32(rst, zero)), gain, false);
}

void decouple_neon(const Bands& ref, const Bands& dis, const Bands& r, const Bands& a,
                   std::ptrdiff_t stride, const Region& region, double enhn_gain_limit) {
    const float cos_1deg_sq =
        static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
    const int n = region.right - region.left;
    const int vec_end = region.left + n / 4 * 4;
    for (int i = region.top; i < region.bottom; ++i) {
        const std::ptrdiff_t row = i * stride;
        for (int j = region.left; j < vec_end; j += 4) {
            const std::ptrdiff_t k = row + j;
            const float32x4_t oh = vld1q_f32(ref.h + k), ov = vld1q_f32(ref.v + k),
                              od = vld1q_f32(ref.d + k);
            const float32x4_t th = vld1q_f32(dis.h + k), tv = vld1q_f32(dis.v + k),
                              td = vld1q_f32(dis.d + k);
            const float32x4_t ot_dp = vaddq_f32(vmulq_f32(oh, th), vmulq_f32(ov, tv));
            const float32x4_t o_mag_sq = vaddq_f32(vmulq_f32(oh, oh), vmulq_f32(ov, ov));
            const float32x4_t t_mag_sq = vaddq_f32(vmulq_f32(th, th), vmulq_f32(tv, tv));
            const uint32x4_t angle =
                vandq_u32(vcgeq_f32(ot_dp, vdupq_n_f32(0.0f)),
                          vcgeq_f32(vmulq_f32(ot_dp, ot_dp),
                                    vmulq_f32(vmulq_n_f32(o_mag_sq, cos_1deg_sq), t_mag_sq)));
            const float32x4_t rh = restore4(oh, th, angle, enhn_gain_limit);
            const float32x4_t rv = restore4(ov, tv, angle, enhn_gain_limit);
            const float32x4_t rd = restore4(od, td, angle, enhn_gain_limit);
            vst1q_f32(r.h + k, rh);
            vst1q_f32(r.v + k, rv);
            vst1q_f32(r.d + k, rd);
            vst1q_f32(a.h + k, vsubq_f32(th, rh));
            vst1q_f32(a.v + k, vsubq_f32(tv, rv));
            vst1q_f32(a.d + k, vsubq_f32(td, rd));
        }
    }
    // The last 0-3 columns of every row: the scalar kernel on that strip.
    if (vec_end < region.right) {
        Region rest = region;
        rest.left = vec_end;
        decouple(ref, dis, r, a, stride, rest, enhn_gain_limit);
    }
}

void csf_neon(const Bands& src, const Bands& out, const Bands& masked, std::ptrdiff_t stride,
              const Region& region, float factor1, float factor2) {
    const float64x2_t by30 = vdupq_n_f64(kOneBy30);
    csf_rows(src, out, masked, stride, region, factor1, factor2,
             [&](const float* s, float* o, float* m, float factor) {
                 int j = region.left;
                 for (; j + 4 <= region.right; j += 4) {
                     const float32x4_t val = vmulq_n_f32(vld1q_f32(s + j), factor);
                     vst1q_f32(o + j, val);
                     const float32x4_t mag = vabsq_f32(val);
                     const float64x2_t lo = vmulq_f64(by30, vcvt_f64_f32(vget_low_f32(mag)));
                     const float64x2_t hi = vmulq_f64(by30, vcvt_high_f64_f32(mag));
                     vst1q_f32(m + j, vcvt_high_f32_f64(vcvt_f32_f64(lo), hi));
                 }
                 csf_columns(s, o, m, factor, j, region.right);
             });
}

// Columns per chunk: the per-sample terms of a chunk are formed (four at a
// time) into arrays on the stack, then added to the row sums one by one.
constexpr int kChunk = 64;

// Sequential row sums of three term arrays of n samples (power_term each).
inline void add_terms(const float* th, const float* tv, const float* td, int n, double p_norm,
                      float* row_h, float* row_v, float* row_d) {
    for (int x = 0; x < n; ++x) {
        *row_h += power_term(th[x], p_norm);
        *row_v += power_term(tv[x], p_norm);
        *row_d += power_term(td[x], p_norm);
    }
}

float den_scale_neon(const Bands& ref, std::ptrdiff_t stride, const Region& inner, float factor1,
                     float factor2, double noise_weight, double p_norm) {
    float acc_h = 0.0f, acc_v = 0.0f, acc_d = 0.0f;
    float th[kChunk], tv[kChunk], td[kChunk];
    for (int i = inner.top; i < inner.bottom; ++i) {
        const float* r[3] = {ref.h + i * stride, ref.v + i * stride, ref.d + i * stride};
        float* t[3] = {th, tv, td};
        const float f[3] = {factor1, factor1, factor2};
        float row_h = 0.0f, row_v = 0.0f, row_d = 0.0f;
        for (int c = inner.left; c < inner.right; c += kChunk) {
            const int n = inner.right - c < kChunk ? inner.right - c : kChunk;
            for (int b = 0; b < 3; ++b) {
                int x = 0;
                for (; x + 4 <= n; x += 4)
                    vst1q_f32(t[b] + x, vabsq_f32(vmulq_n_f32(vld1q_f32(r[b] + c + x), f[b])));
                for (; x < n; ++x) t[b][x] = std::fabs(f[b] * r[b][c + x]);
            }
            add_terms(th, tv, td, n, p_norm, &row_h, &row_v, &row_d);
        }
        acc_h += row_h;
        acc_v += row_v;
        acc_d += row_d;
    }
    return pooled_bands(acc_h, acc_v, acc_d, inner, noise_weight, p_norm);
}

// band_threshold (float_adm_kernels.hpp) for columns j .. j+3, all inside
// the band (j >= 1, j + 4 <= w - 1).
inline float32x4_t band_threshold4(const float* up, const float* mid, const float* down,
                                   const float* centre, int j) {
    float32x4_t s = vaddq_f32(vdupq_n_f32(0.0f), vld1q_f32(up + j - 1));
    s = vaddq_f32(s, vld1q_f32(up + j));
    s = vaddq_f32(s, vld1q_f32(up + j + 1));
    s = vaddq_f32(s, vld1q_f32(mid + j - 1));
    const float32x4_t c = vabsq_f32(vld1q_f32(centre + j));
    const float64x2_t k = vdupq_n_f64(kOneBy15);
    const float64x2_t lo =
        vaddq_f64(vcvt_f64_f32(vget_low_f32(s)), vmulq_f64(k, vcvt_f64_f32(vget_low_f32(c))));
    const float64x2_t hi = vaddq_f64(vcvt_high_f64_f32(s), vmulq_f64(k, vcvt_high_f64_f32(c)));
    s = vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
    s = vaddq_f32(s, vld1q_f32(mid + j + 1));
    s = vaddq_f32(s, vld1q_f32(down + j - 1));
    s = vaddq_f32(s, vld1q_f32(down + j));
    return vaddq_f32(s, vld1q_f32(down + j + 1));
}

float contrast_masked_sum_neon(const Bands& x, const Bands& masker, const Bands& masker_flt,
                               std::ptrdiff_t stride, int w, int h, const Region& inner,
                               float factor1, float factor2, double noise_weight, bool bypass_cm,
                               double p_norm) {
    const float* const cb[3] = {masker.h, masker.v, masker.d};
    const float* const fb[3] = {masker_flt.h, masker_flt.v, masker_flt.d};
    const float factor[3] = {factor1, factor1, factor2};
    float acc_h = 0.0f, acc_v = 0.0f, acc_d = 0.0f;
    float terms[3][kChunk];
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (int i = inner.top; i < inner.bottom; ++i) {
        const int up = i == 0 ? 1 : i - 1;
        const int down = i == h - 1 ? h - 1 : i + 1;
        const float* xb[3] = {x.h + i * stride, x.v + i * stride, x.d + i * stride};
        float row_h = 0.0f, row_v = 0.0f, row_d = 0.0f;
        for (int c = inner.left; c < inner.right; c += kChunk) {
            const int n = inner.right - c < kChunk ? inner.right - c : kChunk;
            // Four columns at a time where none reflects (j >= 1 and
            // j + 4 <= w - 1), else one.
            for (int o = 0; o < n;) {
                const int j = c + o;
                if (o + 4 <= n && j >= 1 && j + 4 <= w - 1) {
                    float32x4_t thr = zero;
                    if (!bypass_cm)
                        for (int t = 0; t < 3; ++t)
                            thr = vaddq_f32(
                                thr, band_threshold4(fb[t] + up * stride, fb[t] + i * stride,
                                                     fb[t] + down * stride, cb[t] + i * stride, j));
                    for (int b = 0; b < 3; ++b) {
                        const float32x4_t e =
                            vsubq_f32(vabsq_f32(vmulq_n_f32(vld1q_f32(xb[b] + j), factor[b])), thr);
                        vst1q_f32(terms[b] + o, vbslq_f32(vcltq_f32(e, zero), zero, e));
                    }
                    o += 4;
                    continue;
                }
                const int jm = j == 0 ? 1 : j - 1;
                const int jp = j == w - 1 ? w - 1 : j + 1;
                float thr = 0.0f;
                if (!bypass_cm)
                    for (int t = 0; t < 3; ++t)
                        thr +=
                            band_threshold(fb[t] + up * stride, fb[t] + i * stride,
                                            fb[t] + down * stride, cb[t] + i * stride, jm, j, jp);
                for (int b = 0; b < 3; ++b) {
                    const float e = std::fabs(xb[b][j] * factor[b]) - thr;
                    terms[b][o] = e < 0.0f ? 0.0f : e;
                }
                ++o;
            }
            add_terms(terms[0], terms[1], terms[2], n, p_norm, &row_h, &row_v, &row_d);
        }
        acc_h += row_h;
        acc_v += row_v;
        acc_d += row_d;
    }
    return pooled_bands(acc_h, acc_v, acc_d, inner, noise_weight, p_norm);
}

}  // namespace

// Every float ADM kernel has a twin at this level (FloatAdmKernels order).
void float_adm_init_neon(FloatAdmKernels& k) {
    k = FloatAdmKernels{
        dwt2_neon,
        decouple_neon,
        csf_neon,
        den_scale_neon,
        contrast_masked_sum_neon,
    };
}

}  // namespace vmafpp::float_adm
