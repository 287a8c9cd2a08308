// Integer ADM (libvmaf 3.2.0 "adm"): the stage kernels, declared once so that
// SIMD twins can be swapped in through AdmKernels. Every kernel must give the
// same integers as the scalar one, bit for bit; no kernel uses floating point
// except decouple (libvmaf's float angle test and the double gain product).
//
// Conventions shared by every kernel:
// - strides and widths are in samples, never bytes;
// - a band is the output of one DWT level: scale 0 keeps h/v/d and its
//   approximation a (the next level's input) in int16, where every value
//   fits; scales 1-3 keep everything in int32;
// - h, v, d are passed as arrays of three pointers in that order (libvmaf's
//   "theta" 0, 1, 2); the CSF factor of d differs from that of h and v;
// - a Rect is a half-open region [x0, x1) x [y0, y1) of a band;
// - indices outside a band are reflected: -1 -> 1 and n -> n - 1 (the DWT
//   also needs n + 1 -> n - 2). See reflect_index().
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::adm {

inline constexpr int kScales = 4;

// Daubechies-2 analysis filters in Q15 (libvmaf's dwt2_db2_coeffs_lo/hi).
inline constexpr std::int32_t kDwtLo[4] = {15826, 27411, 7345, -4240};
inline constexpr std::int32_t kDwtHi[4] = {-4240, -7345, 27411, -15826};
// Sum of kDwtLo; the scale-0 vertical pass subtracts sum * 2^(bpc-1) to centre
// the samples on zero (kDwtHi sums to zero, so nothing is subtracted there).
inline constexpr std::int32_t kDwtLoSum = 46342;

struct Rect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    int width() const { return x1 - x0; }
    int height() const { return y1 - y0; }
};

// The smallest band any kernel accepts is 2x2, and the smallest DWT input is
// 3x3; for those every reflected index stays inside [0, n).
inline int reflect_index(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - 1 - k;
    return k;
}

// ---------------------------------------------------------------------------
// Stage 1: one level of the 2-D DWT of one picture.

// Scale 0 of `bpc`-bit samples (8-bit samples as uint8_t, 9..16-bit samples as
// uint16_t): rows [y0, y1) of the (w+1)/2 x (h+1)/2 bands of the w x h
// picture, band row i written at row i - y0 of each output (0 <= y0 <= y1 <=
// (h+1)/2). Row ranges let the caller keep only a strip of the bands.
// band_hvd may be nullptr: only band_a is written (rows whose h/v/d no
// pooling reads). `scratch` holds 4 * (w + 3) int16 values.
void dwt_s0_u8(const std::uint8_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
               std::int16_t* scratch, std::int16_t* band_a, std::int16_t* const band_hvd[3],
               std::ptrdiff_t band_stride);
void dwt_s0_u16(const std::uint16_t* src, std::ptrdiff_t src_stride, int w, int h, int bpc, int y0,
                int y1, std::int16_t* scratch, std::int16_t* band_a,
                std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride);
// Scales 1..3: input is the previous level's band_a (w x h); rows [y0, y1)
// of the bands, and band_hvd == nullptr, as for scale 0. `scratch` holds
// 4 * (w + 3) int32 values. src and the outputs must not overlap.
void dwt_s123(const std::int32_t* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0,
              int y1, std::int32_t* scratch, std::int32_t* band_a,
              std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride);
// Scale 1 of scale 0's int16 approximation: dwt_s123 with scale 1 of the
// same values widened to int32.
void dwt_s1(const std::int16_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
            std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
            std::ptrdiff_t band_stride);

// ---------------------------------------------------------------------------
// Stage 2: decouple the distorted bands into restored (r) and additive (a)
// parts, including libvmaf's 1-degree angle test and enhancement gain limit:
// where the angle test passes, r = min(trunc(fl(r * gain)), t) for r > 0 and
// max(trunc(fl(r * gain)), t) for r < 0 (see adm_gain_limit.hpp).

void decouple_s0(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                 std::ptrdiff_t stride, Rect region, double gain_limit,
                 std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]);
void decouple_s123(const std::int32_t* const ref_hvd[3], const std::int32_t* const dis_hvd[3],
                   std::ptrdiff_t stride, Rect region, double gain_limit,
                   std::int32_t* const r_hvd[3], std::int32_t* const a_hvd[3]);
// Decouple's constants, defined once in the baseline translation unit
// (adm_scalar.cpp) for the scalar and its twins (called once per kernel
// call): libvmaf's division table, 2^30 / i at [32768 + i] and its negation
// at [32768 - i] for i = 1..32768, 65537 entries (entry 32768 is 0), and
// libvmaf's float cos(1 degree)^2 (the product in double).
const std::int32_t* div_lookup();
float cos_1deg_sq();
// Whether gain is an integer g with |g| <= limit; then rst * gain, for
// |rst| * limit < 2^53, is exact in double, so trunc(fl(rst * gain)) is the
// integer product (the twins' integer gain paths).
bool integral_gain(double gain, double limit);

// ---------------------------------------------------------------------------
// Stage 3: contrast sensitivity weighting of one band, and the 1/30-weighted
// magnitude the masking threshold sums over the neighbours.
//
// Scale 0: csf = int16((rfactor * src + round) >> shift), with
// (shift, round) = (15, 16384) for h and v and (17, 65535) for d (libvmaf's
// rounding term for d is 2^16 - 1, not 2^16); flt = int16((4369 * |csf| +
// 2048) >> 12). 4369 is 2^17 / 30.
void csf_s0(const std::int16_t* src, std::ptrdiff_t stride, Rect region, std::uint16_t rfactor,
            int shift, std::int32_t round, std::int16_t* csf, std::int16_t* flt);
// The (shift, round) pairs of h, v and d above, which the scale-0 masking
// stage uses when it derives csf and flt from the masker band itself.
inline constexpr int kCsfShiftS0[3] = {15, 15, 17};
inline constexpr std::int32_t kCsfRoundS0[3] = {16384, 16384, 65535};
// Scales 1..3: csf = int32((src * rfactor + 2^27) >> 28) and
// flt = int32((143165577 * |csf| - 2^31) >> 32): libvmaf stores its rounding
// term 1u << 31 into an int32_t, which makes it -2^31 (so flt(0) = -1).
void csf_s123(const std::int32_t* src, std::ptrdiff_t stride, Rect region, std::uint32_t rfactor,
              std::int32_t* csf, std::int32_t* flt);

// ---------------------------------------------------------------------------
// Stage 4: contrast masking. For each sample of the region, the threshold T
// sums, over h, v and d, the flt values of the 8 neighbours and a centre tap
// derived from the csf value at the sample. The excess of the measured band
// x over T is cubed and summed per row.

// Threshold of row y, columns [x0, x1) of a w x h band; thr[i] is column
// x0 + i. Scale 0 centre tap: (8738 * |csf| + 2048) >> 12, kept in int32
// (libvmaf narrows it to int16, which wraps for |csf| >= 15360; see
// docs in adm_scalar.cpp). |T| <= 24 * 32768 + 3 * 69905 < 2^20.
void cm_threshold_row_s0(const std::int16_t* const csf_hvd[3], const std::int16_t* const flt_hvd[3],
                         std::ptrdiff_t stride, int w, int h, int y, int x0, int x1,
                         std::int32_t* thr);
// Scales 1..3 centre tap: (286331153 * |csf| - 2^31) >> 32 (same int32
// rounding term as csf_s123). Summed in int64, so T is exact.
void cm_threshold_row_s123(const std::int32_t* const csf_hvd[3],
                           const std::int32_t* const flt_hvd[3], std::ptrdiff_t stride, int w,
                           int h, int y, int x0, int x1, std::int64_t* thr);

// Parameters of the excess / cube stage of one orientation.
struct CubeShifts {
    int sub = 0;       // T is compared with |x| after scaling by 2^sub (scale 0)
    int sq = 0;        // e^2 is rounded down by 2^sq (round 2^(sq-1)) ...
    int cub = 0;       // ... and e^2 * e by 2^cub (round 2^(cub-1), 0 when cub == 0)
};

// Sum over n samples of the row of cube(excess), where
//   scale 0:    x = src * rfactor (exact in int32), e = clamp(|x| - T * 2^sub, 0, 2^31 - 1)
//   scales 1-3: x = int32((src * rfactor + 2^27) >> 28), e = clamp(|x| - T, 0, 2^31 - 1)
// computed exactly for every T (also T < 0 and T * 2^sub >= 2^31), then
//   e2 = int32((e * e + 2^(sq-1)) >> sq)     (libvmaf's int32 narrowing kept)
//   cube = (e2 * e + round_cub) >> cub        (int64, arithmetic shift)
std::int64_t cm_row_sum_s0(const std::int16_t* src, const std::int32_t* thr, int n,
                           std::uint16_t rfactor, CubeShifts shifts);
std::int64_t cm_row_sum_s123(const std::int32_t* src, const std::int64_t* thr, int n,
                             std::uint32_t rfactor, CubeShifts shifts);

// The whole masking stage of one scale over `region` of a w x h band: row
// sums are folded into acc[theta] as acc += (row + 2^(row_shift-1)) >>
// row_shift. `thr_scratch` holds region.width() values.
//
// Scale 0 takes the masker band m itself (not its csf / flt bands): csf and
// flt are csf_s0(m[t], rfactor[t], kCsfShiftS0[t], kCsfRoundS0[t]) at every
// sample the threshold reads, computed inside the kernel, so that the six
// int16 bands are never written to memory and read back.
void cm_accumulate_s0(const std::int16_t* const x_hvd[3], const std::int16_t* const masker_hvd[3],
                      std::ptrdiff_t stride, int w, int h, Rect region,
                      const std::uint16_t rfactor[3], const CubeShifts shifts[3], int row_shift,
                      std::int32_t* thr_scratch, std::int64_t acc[3]);
// Scales 1..3 likewise: csf and flt are csf_s123(m[t], rfactor[t]).
void cm_accumulate_s123(const std::int32_t* const x_hvd[3], const std::int32_t* const masker_hvd[3],
                        std::ptrdiff_t stride, int w, int h, Rect region,
                        const std::uint32_t rfactor[3], CubeShifts shifts, int row_shift,
                        std::int64_t* thr_scratch, std::int64_t acc[3]);

// ---------------------------------------------------------------------------
// Stage 5: pooling of the reference (the denominator): sums of |band|^3 over
// the region, per row folded as acc += (row + round) >> row_shift.
// Scale 0: |b|^3 exactly in uint64 (|b| <= 32768, so a row of < 2^18
// samples cannot overflow).
void den_accumulate_s0(const std::int16_t* const band_hvd[3], std::ptrdiff_t stride,
                       Rect region, int row_shift, std::uint64_t acc[3]);
// Scales 1..3: cube = ((((b^2 + 2^sq) >> sq) * b) + 2^(cub-1)) >> cub in
// uint64 with b = |band| (note libvmaf's square rounding term is 2^sq).
void den_accumulate_s123(const std::int32_t* const band_hvd[3], std::ptrdiff_t stride,
                         Rect region, int sq, int cub, int row_shift, std::uint64_t acc[3]);

// ---------------------------------------------------------------------------
// Function pointer types of the stages, for dispatch tables.
using DwtS0U8Fn = decltype(&dwt_s0_u8);
using DwtS0U16Fn = decltype(&dwt_s0_u16);
using DwtS123Fn = decltype(&dwt_s123);
using DwtS1Fn = decltype(&dwt_s1);
using DecoupleS0Fn = decltype(&decouple_s0);
using DecoupleS123Fn = decltype(&decouple_s123);
using CsfS0Fn = decltype(&csf_s0);
using CsfS123Fn = decltype(&csf_s123);
using CmAccumulateS0Fn = decltype(&cm_accumulate_s0);
using CmAccumulateS123Fn = decltype(&cm_accumulate_s123);
using DenAccumulateS0Fn = decltype(&den_accumulate_s0);
using DenAccumulateS123Fn = decltype(&den_accumulate_s123);

// A set of kernels; the scalar set is the reference.
struct AdmKernels {
    DwtS0U8Fn dwt_s0_u8;
    DwtS0U16Fn dwt_s0_u16;
    DwtS123Fn dwt_s123;
    DwtS1Fn dwt_s1;
    DecoupleS0Fn decouple_s0;
    DecoupleS123Fn decouple_s123;
    CsfS0Fn csf_s0;
    CsfS123Fn csf_s123;
    CmAccumulateS0Fn cm_accumulate_s0;
    CmAccumulateS123Fn cm_accumulate_s123;
    DenAccumulateS0Fn den_accumulate_s0;
    DenAccumulateS123Fn den_accumulate_s123;
};

const AdmKernels& adm_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): adm_avx2.cpp and
// adm_avx512.cpp assign the kernels they have twins of, adm_neon.cpp every
// kernel; the ICL level adds none.
KernelInit<AdmKernels> adm_init_avx2, adm_init_avx512, adm_init_neon;
// The table of `level` (a session's Compute::simd when extractors are
// created); call its kernels only where cpu_flags() allows that level.
extern KernelsFor<AdmKernels>& adm_kernels_for;

}  // namespace vmafpp::adm
