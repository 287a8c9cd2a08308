// Kernels of libvmaf's float_ssim and float_ms_ssim (its copy of the IQA
// library: the separable 1-D convolution path, the symmetric-boundary
// decimation and the default-argument SSIM statistics).
//
// Images are compact: a w x h image is w * h floats, row after row (libvmaf
// copies its pictures into such buffers before scoring). Every kernel keeps
// libvmaf's scalar C arithmetic: which products are float and which sums are
// double, and the order of every sum. A vector twin may compute several
// outputs at once but must keep each output's order of operations.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

#include "base/large_alloc.hpp"
#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::ssim {

// The SSIM window: an 11-tap Gaussian applied along rows, then columns. Its
// taps sum to about 1 and libvmaf treats the window as normalised, so no
// rescaling follows. Written as one half, centre last; the window mirrors it.
constexpr int kWindow = 11;
constexpr float kGaussianHalf[kWindow / 2 + 1] = {0.001028f, 0.007599f, 0.036001f,
                                                  0.109361f, 0.213006f, 0.266012f};

// MS-SSIM's low-pass filter before each 2x decimation: the 9 x 9 table of the
// 9/7 biorthogonal wavelet, applied as one 2-D kernel (not separably).
// Written as its upper-left 5 x 5 quarter, centre last in each row and
// column; the table mirrors it about its middle row and column.
constexpr int kLowPassTaps = 9;
constexpr float kLowPassQuarter[5][5] = {
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f},
    {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f},
};

constexpr int mirrored_tap(int i, int n) { return i < n - 1 - i ? i : n - 1 - i; }

inline constexpr std::array<float, kWindow> kGaussianTaps = [] {
    std::array<float, kWindow> t{};
    for (int i = 0; i < kWindow; ++i) t[i] = kGaussianHalf[mirrored_tap(i, kWindow)];
    return t;
}();

// Row-major, kLowPassTaps x kLowPassTaps.
inline constexpr std::array<float, kLowPassTaps* kLowPassTaps> kLowPass = [] {
    std::array<float, kLowPassTaps * kLowPassTaps> t{};
    for (int v = 0; v < kLowPassTaps; ++v)
        for (int u = 0; u < kLowPassTaps; ++u)
            t[v * kLowPassTaps + u] =
                kLowPassQuarter[mirrored_tap(v, kLowPassTaps)][mirrored_tap(u, kLowPassTaps)];
    return t;
}();

// Valid-region separable filter of an odd number of taps n (IQA's convolve
// with IQA_CONVOLVE_1D): the output is (w - n + 1) x (h - n + 1), sample
// (x, y) being the filter centred on input (x + n/2, y + n/2).
// Horizontal pass over every input row: for each output column a double sum,
// starting at 0, of float(src * tap) for taps 0..n-1 left to right, stored
// as float in `cache` ((w - n + 1) * h floats). Vertical pass: the same over
// the cache's column, top to bottom, stored as float in dst. dst may be src
// (the cache is complete before dst is written). Requires w >= n, h >= n.
using ConvolveFn = void (*)(const float* src, int w, int h, const float* taps, int n, float* dst,
                            float* cache);

// Samples ref^2, cmp^2 and ref * cmp (each product in float) of n samples.
using ProductsFn = void (*)(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
                            float* both);

// The four sums over the filtered statistics, each a double accumulated in
// sample order.
struct SsimSums {
    double ssim = 0.0;  // l * c * s, multiplied left to right
    double l = 0.0;
    double c = 0.0;
    double s = 0.0;
};

// IQA's default stabilizers (K1 = 0.01, K2 = 0.03, dynamic range L = 255),
// computed in float as IQA does: C1 = (K1 * L)^2, C2 = (K2 * L)^2, C3 = C2 / 2.
constexpr float kStabilizerC1 = (0.01f * 255) * (0.01f * 255);
constexpr float kStabilizerC2 = (0.03f * 255) * (0.03f * 255);
constexpr float kStabilizerC3 = kStabilizerC2 / 2.0f;

// SSIM's per-sample statistic over n samples (C1, C2, C3 as above). Per sample, all float unless
// stated: var_r = max(0, ref_sq - mu_r * mu_r) (as libvmaf's MAX(0.0, x),
// so NaN passes), var_c likewise, cov = both - mu_r * mu_c,
// sd = float(sqrt(double(var_r * var_c))),
// l = (2.0 * mu_r * mu_c + C1) / (mu_r^2 + mu_c^2 + C1) (double numerator,
//     float denominator),
// c = (2.0 * sd + C2) / (var_r + var_c + C2) (same),
// s = (cov' + C3) / (sd + C3) in float, where cov' is 0 when cov < 0 and
//     sd <= 0 (identical flat windows) and cov otherwise.
using StatsFn = SsimSums (*)(const float* mu_r, const float* mu_c, const float* ref_sq,
                             const float* cmp_sq, const float* both, int n);

// Decimation by `factor` with a kw x kw 2-D kernel (IQA's decimate and
// filter_pixel, kernel scale 1): the output is sw x sh with
// sw = w / factor + (w & 1) (and sh alike; that is IQA's formula, even for
// odd factors), output (x, y) being the kernel applied around input
// (x * factor, y * factor): taps from -kw/2 to kw/2 - (kw even), row by
// row, each float(sample * tap) added to a double that starts at 0, stored
// as float. Where the kernel would leave the image (the sample is within
// kw/2 of an edge, or beyond it) samples are mirrored: -1 - i and
// 2 * w - 1 - i, once: w and h must be at least kw (the extractors' are:
// float_ssim's box is `factor` wide and leaves at least 11 samples,
// float_ms_ssim's 9-tap low-pass runs on 11 samples or more). dst may be src: outputs are written in row order as they
// are computed, and later outputs read what was written (libvmaf's
// in-place decimation of float_ssim).
using DecimateFn = void (*)(const float* src, int w, int h, int factor, const float* kernel, int kw,
                            float* dst);

// Scratch of one pass over at most w x h samples: five images and the
// convolution cache of the scalar composition, and the SIMD passes' ring of
// filtered rows (kRingRows rows of up to w floats, rounded up to 16).
class SsimScratch {
public:
    static constexpr int kRingRows = 5 * kWindow;

    SsimScratch() = default;
    SsimScratch(int w, int h)
        : n_(static_cast<std::size_t>(w) * static_cast<std::size_t>(h)),
          buf_(detail::make_large_array<float>(6 * n_)),
          ring_(new float[static_cast<std::size_t>(kRingRows) * ((w + 15) / 16 * 16)]()),
          ring_at_(ring_.get()) {}
    float* mu_r() { return buf_.get(); }
    float* mu_c() { return buf_.get() + n_; }
    float* ref_sq() { return buf_.get() + 2 * n_; }
    float* cmp_sq() { return buf_.get() + 3 * n_; }
    float* both() { return buf_.get() + 4 * n_; }
    float* cache() { return buf_.get() + 5 * n_; }
    // A plain pointer: the SIMD files read it without instantiating
    // standard-library templates (HACKING.md, kernel tables).
    float* ring() { return ring_at_; }

private:
    std::size_t n_ = 0;
    std::unique_ptr<float[], detail::LargeFree> buf_;
    std::unique_ptr<float[]> ring_;
    float* ring_at_ = nullptr;
};

// One SSIM pass's four sums over a compact w x h pair (w, h >= kWindow):
// the statistics of ref and cmp filtered by the window (mu_r, mu_c), of
// their products filtered likewise, as the scalar table's pass composes them
// from convolve, products and stats; a twin must give the same bits.
using PassFn = SsimSums (*)(const float* ref, const float* cmp, int w, int h,
                            SsimScratch& scratch);

struct SsimKernels {
    ConvolveFn convolve;
    ProductsFn products;
    StatsFn stats;
    DecimateFn decimate;
    PassFn pass;
};

const SsimKernels& ssim_kernels_scalar();
// The table for a SIMD level (dispatch/kernel_table.hpp): AVX2, AVX-512 and
// NEON (AArch64) each have twins of convolve, stats, decimate and pass, all
// from ssim_pass_rows.hpp (install_twins); the ICL level inherits AVX-512's
// table.
extern KernelsFor<SsimKernels>& ssim_kernels_for;
KernelInit<SsimKernels> ssim_init_avx2, ssim_init_avx512, ssim_init_neon;

// The output size of DecimateFn along one dimension.
constexpr int decimated_size(int n, int factor) { return n / factor + (n & 1); }

// Whether an in-place DecimateFn call's outputs never read a position an
// earlier output has written: then decimating out of place gives the same
// bits (and a twin may decimate in place from its copies of the rows).
// Output (ox, oy), written at oy * sw + ox, reads nothing below
// minrow(oy) * w + mincol(ox), the first row and column its mirrored taps
// reach (every row is read at every column), so it suffices that
// minrow(oy) * w + g >= oy * sw for every oy, with g the least
// mincol(ox) - ox. It holds for float_ssim's box of any factor >= 2.
bool reads_stay_ahead(int w, int h, int factor, int kw);

// One SSIM pass over a compact w x h pair (IQA's _iqa_ssim with default
// arguments, w, h >= kWindow).
struct SsimResult {
    float ssim;     // the mean of l * c * s
    float l, c, s;  // the means of each component
};

SsimResult ssim_pass(const SsimKernels& k, const float* ref, const float* cmp, int w, int h,
                     SsimScratch& scratch);

}  // namespace vmafpp::ssim
