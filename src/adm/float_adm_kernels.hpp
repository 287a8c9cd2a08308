// Scalar kernels of float ADM (libvmaf's float_adm / adm_tools.c).
//
// Every kernel reproduces libvmaf's scalar C arithmetic exactly: the same
// float/double types at every step and the same summation order, so that the
// result is bit-identical. Vector twins must keep that order per element (they
// may run several columns at once, never re-associate a sum).
#pragma once

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
