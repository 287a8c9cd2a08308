// Scalar kernels of float VIF (libvmaf's float_vif / vif_tools.c), also used by
// float_motion, whose blur is the same separable filter.
//
// Every kernel reproduces libvmaf's scalar C arithmetic exactly (float vs
// double at each step, summation order), so results are bit-identical. Vector
// twins may process several columns at once but must keep each element's
// order of operations.
#pragma once

#include <cstddef>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::float_vif {

// Largest filter libvmaf builds (scale 0 at kernel scale 4: 69 taps).
constexpr int kMaxFilterWidth = 128;

// libvmaf accepts only a fixed list of kernel scales (within 1e-3).
bool valid_kernelscale(float kernelscale);
// Taps of the Gaussian of a scale: (2^(4-scale) + 1) * kernelscale rounded up
// to odd, at least 3.
int filter_width(int scale, float kernelscale);
// The normalised Gaussian of that width with sigma = width / 5 (float).
void gaussian_filter(float* out, int scale, float kernelscale);
// libvmaf's get_1d_gaussian_kernel: the normalised Gaussian of `size` taps
// and standard deviation `stdev` (float; SpEED's anti-alias filter too).
void gaussian(float* out, int size, float stdev);

// Reflection used by the blur at both ends of a dimension of n samples:
// -k -> k and n-1+k -> n-1-k (the edge sample is not repeated).
inline int reflect(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 2 : k); }

// Scratch for the separable blur: one row of w + 2 * radius floats.
// Separable blur of a w x h image with a filter of `fw` (odd) taps: vertical
// pass into one row, then horizontal; every sum is float, starts at 0 and adds
// the taps in order. w and h must be larger than fw / 2.
void blur(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
          std::ptrdiff_t dst_stride, int w, int h, float* row);
// Same filter applied to src^2 (each sample squared in float before the
// vertical tap).
void blur_squared(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                  float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row);
// Same filter applied to a * b.
void blur_product(const float* f, int fw, const float* a, std::ptrdiff_t a_stride,
                  const float* b, std::ptrdiff_t b_stride, float* dst,
                  std::ptrdiff_t dst_stride, int w, int h, float* row);
// blur() followed by keeping every second row and column from (0, 0), i.e.
// libvmaf's filter then vif_dec2; only the kept samples are computed (they are
// the same floats). dst is (w / 2) x (h / 2) and must not overlap src.
void blur_decimate(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                   float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row);

struct VifSums {
    float num = 0.0f;
    float den = 0.0f;
};
// The VIF information statistic ('matching_matlab' variant) summed over a
// w x h scale: per-row float sums added row by row. mu1/mu2 are the blurred
// pictures, xx/yy/xy the blurred squares and product; scratch holds 2 * w
// floats.
VifSums statistic(const float* mu1, const float* mu2, const float* xx, const float* yy,
                  const float* xy, std::ptrdiff_t stride, int w, int h,
                  double enhn_gain_limit, double sigma_nsq, float* scratch);

// libvmaf's fast log2 (VIF_OPT_FAST_LOG2): exponent plus a degree-8
// polynomial of the mantissa, float Horner.
float log2_approx(float x);

// libvmaf's nearest-neighbour frame scaling (vif_prescale_method=nearest).
void scale_nearest(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h,
                   float* dst, std::ptrdiff_t dst_stride, int dst_w, int dst_h);
// libvmaf's bilinear frame scaling (used by float_motion's motion_add_scale1).
void scale_bilinear(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h,
                    float* dst, std::ptrdiff_t dst_stride, int dst_w, int dst_h);

// The blur and statistic kernels, swappable through FloatVifKernels (float_vif and
// float_motion call them through the table of their session's level). A twin
// returns the scalar's bits: it may run several columns (outputs) at once,
// each output's taps added in order from 0, products and sums float, no fused
// multiply-add; the statistic's row sums stay sequential (column 0 first).
struct FloatVifKernels {
    decltype(&float_vif::blur) blur;
    decltype(&float_vif::blur_squared) blur_squared;
    decltype(&float_vif::blur_product) blur_product;
    decltype(&float_vif::blur_decimate) blur_decimate;
    decltype(&float_vif::statistic) statistic;
};
const FloatVifKernels& float_vif_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): float_vif_neon.cpp only;
// x86 runs the scalar kernels.
KernelInit<FloatVifKernels> float_vif_init_neon;
// The table of `level` (a session's Compute::simd).
extern KernelsFor<FloatVifKernels>& float_vif_kernels_for;

}  // namespace vmafpp::float_vif
