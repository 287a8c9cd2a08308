// SpEED (libvmaf's speed.c: speed_chroma, speed_temporal): the picture is
// blurred, decimated by 16 and made zero-mean locally; then a Gaussian scale
// mixture model is fitted to its 5x5 blocks (covariance of the 25 block
// positions, its eigenvalues, a linear solve per block) and the entropies of
// reference and distorted are compared block by block.
//
// Every function reproduces libvmaf's scalar C arithmetic (float vs double
// at each step, order of every sum), so results are bit-identical.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::speed {


constexpr int kBlock = 5;                    // block side
constexpr int kBlockElems = kBlock * kBlock;  // 25 positions in a block
constexpr int kScales = 4;                   // decimation by 2^4 = 16

// libvmaf's SpeedDimensions for a w x h plane and a prescale factor.
struct Dimensions {
    int width = 0, height = 0;         // the plane as given
    int scaled_w = 0, scaled_h = 0;    // (int)(n * prescale + 0.5)
    int op_w = 0, op_h = 0;            // scaled >> 4: the decimated picture
    int trunc_w = 0, trunc_h = 0;      // op rounded down to whole blocks
    int blocks_x = 0, blocks_y = 0;
    int sub_w = 0, sub_h = 0;          // trunc - 4: samples each covariance sums
    int blocks() const { return blocks_x * blocks_y; }
};
Dimensions dimensions(int w, int h, double prescale);


// The 25 means and the 25x25 covariance matrix of the block positions of a
// decimated picture `d` (stride in floats; sub_h + 4 rows of sub_w + 4
// samples, and 3 more readable floats after each row for the vector twins):
//   mean[r * 5 + c] = float sum, row-major, of d[r + i][c + j] over the
//     sub_w x sub_h window, divided (float) by its size;
//   cov[x][y] = (double sum, row-major, of (double(d at x) - mean_x) *
//     (double(d at y) - mean_y)) / size, narrowed to float; symmetric.
using SpeedCovarianceFn = void (*)(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h,
                                   float* mean, float* cov);

// The vertical pass of SpEED's antialias blur for columns [j0, j1), read in
// place from integer planes: mid[j] = float sum over taps k, from 0, k
// ascending, of f[k] * sample_k(j), where sample_k(j) is libvmaf's
// picture_copy float of a[k][j] (float(v) + -128 at 8 bits, float(v) /
// 2^(bpc-8) + -128 above), minus that of b[k][j] when b is not null (the
// temporal difference). a[k], b[k] point at the rows of tap k (uint8_t
// samples at bpc 8, uint16_t at 10, 12, 16).
using SpeedVerticalFn = void (*)(const float* f, int fw, const std::uint8_t* const* a,
                                 const std::uint8_t* const* b, int bpc, int j0, int j1,
                                 float* mid);

// dst (r x c) = x (r x m) * y (m x c), row-major, dst not overlapping x or
// y: each element 0.0f, then + x[i][k] * y[k][j] (float) for k ascending
// (est_params' QR solve: 49 products of 25 x 25 matrices per picture).
using SpeedMatmulFn = void (*)(float* dst, const float* x, const float* y, int r, int m, int c);

struct SpeedKernels {
    SpeedCovarianceFn covariance = nullptr;
    SpeedVerticalFn vertical = nullptr;
    SpeedMatmulFn matmul = nullptr;
};

const SpeedKernels& speed_kernels_scalar();
extern KernelsFor<SpeedKernels>& speed_kernels_for;
// AArch64: covariance and vertical (speed_neon.cpp); matmul at AVX2 (the
// AVX-512 table keeps AVX2's: eight lanes fit the 25 columns better); the
// x86 covariance is speed_simd.hpp's covariance_packed.
KernelInit<SpeedKernels> speed_init_avx2, speed_init_avx512, speed_init_neon;

}  // namespace vmafpp::speed
