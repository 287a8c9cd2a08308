// The kernel contract of libvmaf's psnr_hvs (Xiph's PSNR-HVS-M in
// third_party/xiph/psnr_hvs.c): per plane, 8x8 blocks every 7 samples, each
// transformed by Daala's integer 8x8 DCT, masked by a contrast table and
// weighted by a contrast sensitivity table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::psnr_hvs {


// The contrast sensitivity tables (float, as libvmaf rounds its double
// literals): luma, and the two chroma tables libvmaf uses for every chroma
// format (they were derived for 4:2:0).
using Table8x8 = float[8][8];
extern const Table8x8 kCsfLuma;
extern const Table8x8 kCsfCb;
extern const Table8x8 kCsfCr;

// Daala's 8-point DCT as a sequence of butterflies and lifting steps on
// t[0..7] (inputs in sample order; outputs in coefficient order), written
// once for every lane type: `Ops` gives half(a) = (a + (a < 0)) >> 1 and
// lift(u, c, s) = (u * c + 2^(s-1)) >> s for its type T (int32 for the
// scalar, eight int32 lanes for a twin, each lane one block).
template <class Ops, class T>
inline void fdct8_lifting(T t[8]) {
    // Inputs in the order the butterflies pair them.
    T t0 = t[0], t4 = t[1], t2 = t[2], t6 = t[3], t7 = t[4], t3 = t[5], t5 = t[6], t1 = t[7];

    // Sum/difference butterflies.
    t1 = t0 - t1;
    const T t1h = Ops::half(t1);
    t0 = t0 - t1h;
    t4 = t4 + t5;
    const T t4h = Ops::half(t4);
    t5 = t5 - t4h;
    t3 = t2 - t3;
    t2 = t2 - Ops::half(t3);
    t6 = t6 + t7;
    const T t6h = Ops::half(t6);
    t7 = t6h - t7;

    // Even half: a 4-point DCT (a 2-point DCT and a 2-point DST).
    t0 = t0 + t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    t0 = t0 - Ops::lift(t4, 13573, 15);
    t4 = t4 + Ops::lift(t0, 11585, 14);
    t0 = t0 - Ops::lift(t4, 13573, 15);
    t6 = t6 - Ops::lift(t2, 21895, 15);
    t2 = t2 + Ops::lift(t6, 15137, 14);
    t6 = t6 - Ops::lift(t2, 21895, 15);

    // Odd half: a 4-point DST.
    t3 = t3 + Ops::lift(t5, 19195, 15);
    t5 = t5 + Ops::lift(t3, 11585, 14);
    t3 = t3 - Ops::lift(t5, 7489, 13);
    t7 = Ops::half(t5) - t7;
    t5 = t5 - t7;
    t3 = t1h - t3;
    t1 = t1 - t3;
    t7 = t7 + Ops::lift(t1, 3227, 15);
    t1 = t1 - Ops::lift(t7, 6393, 15);
    t7 = t7 + Ops::lift(t1, 3227, 15);
    t5 = t5 + Ops::lift(t3, 2485, 13);
    t3 = t3 - Ops::lift(t5, 18205, 15);
    t5 = t5 + Ops::lift(t3, 2485, 13);

    t[0] = t0;
    t[1] = t1;
    t[2] = t2;
    t[3] = t3;
    t[4] = t4;
    t[5] = t5;
    t[6] = t6;
    t[7] = t7;
}

struct ScalarDctOps {
    static std::int32_t half(std::int32_t a) { return (a + (a < 0 ? 1 : 0)) >> 1; }
    // The product is formed in 64 bits; for samples of up to 12 bits it fits
    // 32 bits, as libvmaf's int arithmetic assumes (and a twin may).
    static std::int32_t lift(std::int32_t u, std::int32_t c, int s) {
        return static_cast<std::int32_t>(
            (static_cast<std::int64_t>(u) * c + (std::int64_t{1} << (s - 1))) >> s);
    }
};

// The 2-D transform of a row-major 8x8 block in place with fdct8_lifting's
// Ops: the 1-D transform down every column into a scratch block (column i
// becomes scratch row i), then down every column of the scratch block into
// row i of `block`. (checkasm's psnr_hvs module runs it with Ops that
// watch the lifts.)
template <class Ops>
inline void fdct8x8_lifting(std::int32_t block[64]) {
    std::int32_t scratch[64];
    for (int pass = 0; pass < 2; ++pass) {
        const std::int32_t* in = pass == 0 ? block : scratch;
        std::int32_t* out = pass == 0 ? scratch : block;
        for (int i = 0; i < 8; ++i) {
            std::int32_t t[8];
            for (int k = 0; k < 8; ++k) t[k] = in[k * 8 + i];
            fdct8_lifting<Ops>(t);
            for (int k = 0; k < 8; ++k) out[8 * i + k] = t[k];
        }
    }
}
// fdct8x8_lifting with the scalar's Ops.
void fdct8x8(std::int32_t block[64]);

// The masking weight of each coefficient: float((c * k) * (c * k)) in
// double, k = 0.3885746225901003, c the float table entry.
void mask_table(const Table8x8& csf, Table8x8& mask);

// Blocks start every kStep samples in each direction.
constexpr int kStep = 7;

// The scalar error of the 8x8 block at (x, y) (samples of bit depth bpc),
// added to `sum` coefficient by coefficient in row-major order, as the plane
// loop adds it: a twin finishes rows with it.
void add_block_error(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                     std::ptrdiff_t dis_stride, int x, int y, int bpc, const Table8x8& mask,
                     const Table8x8& csf, float& sum);

// The plane's value from the error sum of `blocks` blocks.
float normalised_error(float sum, int blocks, int bpc);


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
// The table for a SIMD level (the kernel-table ladder): AVX2 and AVX-512
// have twins of `plane` (psnr_hvs_simd.hpp); the ICL level inherits
// AVX-512's.
extern KernelsFor<PsnrHvsKernels>& psnr_hvs_kernels_for;
// AArch64: four blocks per vector (psnr_hvs_neon.cpp).
KernelInit<PsnrHvsKernels> psnr_hvs_init_avx2, psnr_hvs_init_avx512, psnr_hvs_init_neon;

}  // namespace vmafpp::psnr_hvs
