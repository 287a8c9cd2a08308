// Scalar kernels of float ADM (libvmaf's float_adm / adm_tools.c).
//
// Every kernel reproduces libvmaf's scalar C arithmetic exactly: the same
// float/double types at every step and the same summation order, so that the
// result is bit-identical. Vector twins must keep that order per element (they
// may run several columns at once, never re-associate a sum).
#pragma once

#include <cmath>
#include <cstddef>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::float_adm {

// One decomposition level: approximation and horizontal, vertical, diagonal
// detail bands, all with the same stride (in floats). `a` may be null where a
// kernel does not use it.
struct Bands {
    float* a = nullptr;
    float* h = nullptr;
    float* v = nullptr;
    float* d = nullptr;
};

// Half-open rectangle [top, bottom) x [left, right) of a band.
struct Region {
    int top = 0;
    int bottom = 0;
    int left = 0;
    int right = 0;
};

// The part of a band that is scored: `border_factor` of each side is left out,
// libvmaf's (int)(n * border_factor - 0.5) truncated toward zero.
Region scored_region(int w, int h, double border_factor);
// The scored region grown by one sample on each side (the 3x3 masking filter
// reads it), clipped to the band; where decouple and CSF must be computed.
Region filtered_region(int w, int h, double border_factor);

// Source rows (or columns) of the 4-tap DWT for the n_out = (n + 1) / 2
// outputs of a dimension of n samples: taps 2i-1 .. 2i+2, reflected at the
// start (-1 -> 1) and at the end (n -> n-1, n+1 -> n-2).
void dwt_tap_indices(int n, int* tap0, int* tap1, int* tap2, int* tap3);

// One level of the Daubechies-2 DWT of a w x h image into bands of
// ((w+1)/2) x ((h+1)/2). Rows first (vertical filter into tmp_lo/tmp_hi of w
// floats), then columns; every tap sum is float, started at 0 and added in
// tap order. With lo_only only band a is produced (libvmaf's adm_dwt2_lo).
// src may alias dst.a: output row i is written after input rows >= i are
// read, and later output rows only read input rows above i (2i' - 1 >= i').
// col_taps must be dwt_tap_indices(w)'s (a twin may take the interior
// outputs' taps, 2j-1 .. 2j+2, from j); row_taps may be any rows.
void dwt2(const float* src, std::ptrdiff_t src_stride, int w, int h,
          const int* const row_taps[4], const int* const col_taps[4], const Bands& dst,
          std::ptrdiff_t dst_stride, float* tmp_lo, float* tmp_hi, bool lo_only);

// Splits the distorted detail bands into a restored part r (the reference
// scaled by a clamped gain, float) and an additive impairment a = dis - r, over
// `region`. The gain ratio uses libvmaf's division (see divide()).
void decouple(const Bands& ref, const Bands& dis, const Bands& r, const Bands& a,
              std::ptrdiff_t stride, const Region& region, double enhn_gain_limit);

// CSF weighting of the three detail bands of src over `region`:
// out = factor * src (float) and masked = float(0.0333333351 * |out|), where
// the constant is a double, as in libvmaf (band order h, v, d; factors
// {f1, f1, f2}).
void csf(const Bands& src, const Bands& out, const Bands& masked, std::ptrdiff_t stride,
         const Region& region, float factor1, float factor2);

// sum over the three bands of (sum |factor * ref|^p over `inner`)^(1/p) plus
// the noise floor; float throughout, rows summed separately then added.
float den_scale(const Bands& ref, std::ptrdiff_t stride, const Region& inner, float factor1,
                float factor2, double noise_weight, double p_norm);

// Contrast-masked p-norm of factor * x over `inner`: each sample loses the
// masking threshold of the masker (its CSF values `masker` and their filtered
// thirtieths `masker_flt`, summed over a 3x3 neighbourhood with the centre
// replaced by |masker| / 15), clipped at 0. w x h is the band size (for the
// reflection at its edges). bypass_cm uses a threshold of 0.
float contrast_masked_sum(const Bands& x, const Bands& masker, const Bands& masker_flt,
                          std::ptrdiff_t stride, int w, int h, const Region& inner,
                          float factor1, float factor2, double noise_weight, bool bypass_cm,
                          double p_norm);

// libvmaf's DIVS(n, d): on x86 n * refined reciprocal of d (rcpss plus one
// Newton step, in float); plain n / d elsewhere, as libvmaf without SSE2.
float divide(float n, float d);

// ---------------------------------------------------------------------------
// The arithmetic the scalar kernels and their twins share (each twin keeps
// these per-sample steps and adds its own vector forms beside them).

// db2 analysis filters; libvmaf stores the double literals in float arrays.
inline constexpr float kLo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f,
                                 -0.129409522550921f};
inline constexpr float kHi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f,
                                 -0.482962913144690f};

// One DWT tap sum: 0 + k0 * s0 + k1 * s1 + k2 * s2 + k3 * s3, float, in that
// order (libvmaf's accumulator).
inline float dwt_taps(const float* k, float s0, float s1, float s2, float s3) {
    float acc = 0.0f;
    acc += k[0] * s0;
    acc += k[1] * s1;
    acc += k[2] * s2;
    acc += k[3] * s3;
    return acc;
}

// dwt2's output rows in order: fn(i, r0, r1, r2, r3) with the four source
// rows of output row i (row_taps).
template <class Fn>
inline void dwt2_rows(const float* src, std::ptrdiff_t src_stride, int h,
                      const int* const row_taps[4], Fn fn) {
    for (int i = 0; i < (h + 1) / 2; ++i)
        fn(i, src + row_taps[0][i] * src_stride, src + row_taps[1][i] * src_stride,
           src + row_taps[2][i] * src_stride, src + row_taps[3][i] * src_stride);
}

// libvmaf's FLOAT_ONE_BY_30 / FLOAT_ONE_BY_15 are unsuffixed, i.e. doubles:
// the products with them are formed in double and rounded once to float.
inline constexpr double kOneBy30 = 0.0333333351;
inline constexpr double kOneBy15 = 0.0666666701;

// csf's rows: fn(s, o, m, factor) for each band (h, v, d) and each row of
// `region`, s, o and m pointing at that row of src, out and masked.
template <class Fn>
inline void csf_rows(const Bands& src, const Bands& out, const Bands& masked,
                     std::ptrdiff_t stride, const Region& region, float factor1, float factor2,
                     Fn fn) {
    const float* const s[3] = {src.h, src.v, src.d};
    float* const o[3] = {out.h, out.v, out.d};
    float* const m[3] = {masked.h, masked.v, masked.d};
    const float factor[3] = {factor1, factor1, factor2};
    for (int t = 0; t < 3; ++t)
        for (int i = region.top; i < region.bottom; ++i) {
            const std::ptrdiff_t row = i * stride;
            fn(s[t] + row, o[t] + row, m[t] + row, factor[t]);
        }
}

// csf of columns [j0, j1) of one row: o = factor * s, m = float(1/30 * |o|)
// (the product in double).
inline void csf_columns(const float* s, float* o, float* m, float factor, int j0, int j1) {
    for (int j = j0; j < j1; ++j) {
        const float val = factor * s[j];
        o[j] = val;
        m[j] = static_cast<float>(kOneBy30 * static_cast<double>(std::fabs(val)));
    }
}

// x^p with libvmaf's special case: p == 3 multiplies (x*x)*x in float, any
// other p calls powf with p narrowed to float.
inline float power_term(float x, double p_norm) {
    return p_norm == 3.0 ? x * x * x : std::pow(x, static_cast<float>(p_norm));
}

// powf(w * h * weight, 1 / p): the count is an int product, times a double
// weight, narrowed to float for powf; the exponent is the double 1.0 / p
// narrowed to float.
inline float noise_floor(int w, int h, double weight, double p_norm) {
    return std::pow(static_cast<float>((w * h) * weight), static_cast<float>(1.0 / p_norm));
}

inline float pnorm_root(float sum, double p_norm) {
    return std::pow(sum, static_cast<float>(1.0 / p_norm));
}

// The p-norm pooling of den_scale and contrast_masked_sum: each band's sum
// to the power 1/p plus the noise floor of `inner`, added h + v + d.
inline float pooled_bands(float acc_h, float acc_v, float acc_d, const Region& inner,
                          double noise_weight, double p_norm) {
    const float noise =
        noise_floor(inner.right - inner.left, inner.bottom - inner.top, noise_weight, p_norm);
    const float h = pnorm_root(acc_h, p_norm) + noise;
    const float v = pnorm_root(acc_v, p_norm) + noise;
    const float d = pnorm_root(acc_d, p_norm) + noise;
    return h + v + d;
}

// 3x3 masking sum of one band around column j of row `mid`: float, row by row
// left to right, the centre replaced by the double product |c| * (1/15)
// rounded to float. jm and jp are the reflected neighbour columns.
inline float band_threshold(const float* up, const float* mid, const float* down,
                            const float* centre, int jm, int j, int jp) {
    float s = 0.0f;
    s += up[jm];
    s += up[j];
    s += up[jp];
    s += mid[jm];
    s = static_cast<float>(static_cast<double>(s) +
                           kOneBy15 * static_cast<double>(std::fabs(centre[j])));
    s += mid[jp];
    s += down[jm];
    s += down[j];
    s += down[jp];
    return s;
}

// The kernels swappable through FloatAdmKernels (float_adm calls them through
// its session level's table). A twin returns the scalar's bits: it may run
// several columns at once, keeping each sample's operations and their order,
// no fused multiply-add; the p-norm sums (den_scale, contrast_masked_sum)
// add their rows' terms in column order, as the scalar.
struct FloatAdmKernels {
    decltype(&float_adm::dwt2) dwt2;
    decltype(&float_adm::decouple) decouple;
    decltype(&float_adm::csf) csf;
    decltype(&float_adm::den_scale) den_scale;
    decltype(&float_adm::contrast_masked_sum) contrast_masked_sum;
};
const FloatAdmKernels& float_adm_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): float_adm_neon.cpp only
// (which divides plainly, as the scalar does off x86); x86 runs the scalar.
KernelInit<FloatAdmKernels> float_adm_init_neon;
// The table of `level` (a session's Compute::simd).
extern KernelsFor<FloatAdmKernels>& float_adm_kernels_for;

}  // namespace vmafpp::float_adm
