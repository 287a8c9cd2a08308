// The kernel contract of libvmaf's psnr_hvs (Xiph's PSNR-HVS-M in
// third_party/xiph/psnr_hvs.c): per plane, 8x8 blocks every 7 samples, each
// transformed by Daala's integer 8x8 DCT, masked by a contrast table and
// weighted by a contrast sensitivity table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vmafpp/cpu.hpp"

namespace vmafpp {

namespace psnr_hvs {

// The contrast sensitivity tables (float, as libvmaf rounds its double
// literals): luma, and the two chroma tables libvmaf uses for every chroma
// format (they were derived for 4:2:0).
using Table8x8 = float[8][8];
extern const Table8x8 kCsfLuma;
extern const Table8x8 kCsfCb;
extern const Table8x8 kCsfCr;

// Daala's 8-point forward integer DCT (od_bin_fdct8): lifting steps
// t += (u * c + 2^(s-1)) >> s on 32-bit integers, halvings rounded toward
// zero ((a + (a < 0)) >> 1). Reads x[0], x[stride], ..., x[7 * stride].
void fdct8(std::int32_t out[8], const std::int32_t* x, int stride);
// The 2-D transform of a row-major 8x8 block in place: fdct8 down every
// column into a scratch block (column i becomes scratch row i), then fdct8
// down every column of the scratch block into row i of `block`.
void fdct8x8(std::int32_t block[64]);

// The masking weight of each coefficient: float((c * k) * (c * k)) in
// double, k = 0.3885746225901003, c the float table entry.
void mask_table(const Table8x8& csf, Table8x8& mask);

}  // namespace psnr_hvs

// One plane's normalised error: the float sum, over every 8x8 block at
// (x, y) = (7i, 7j) with x <= w - 8 and y <= h - 8 (row-major order), of
// (err * csf)^2 for each coefficient (err the masked absolute DCT
// difference), divided by 64 * blocks and by (2^bpc - 1)^2, all in float
// as libvmaf computes it. Samples are uint8_t (bpc 8) or uint16_t (bpc
// 9..12); strides in bytes. w and h must be at least 8.
using PsnrHvsPlaneFn = float (*)(const std::uint8_t* ref, std::ptrdiff_t ref_stride,
                                 const std::uint8_t* dis, std::ptrdiff_t dis_stride, int w,
                                 int h, int bpc, const psnr_hvs::Table8x8& csf);

struct PsnrHvsKernels {
    PsnrHvsPlaneFn plane = nullptr;
};

const PsnrHvsKernels& psnr_hvs_kernels_scalar();
// The table for a SIMD level (the kernel-table ladder; no twins yet, so
// every level has the scalar kernel).
const PsnrHvsKernels& psnr_hvs_kernels_for(SimdLevel level);

}  // namespace vmafpp
