// Integer VIF (libvmaf 3.2.0 "vif"): the row kernels, declared once so that
// SIMD twins can be swapped in through VifKernels. Every kernel must give the
// same integers as the scalar one, bit for bit; the only floating point lives
// in vif_accumulate (per-pixel doubles) and in the extractor's final division.
//
// "Any input" means: any samples (any 16-bit value whatever the bit depth),
// any uint16 filter coefficients with 1 <= taps <= 17, shifts for which the
// scalar's expression is defined, any uint32/int32 row values, and for
// vif_accumulate any gain_limit (the SIMD twin defers to the scalar code when
// |gain_limit| > 1024, where its double-exactness argument no longer holds).
// tests/checkasm/vif.cpp checks exactly this.
//
// Conventions shared by every kernel:
// - strides and widths are in samples, never bytes;
// - "rows" arguments are arrays of `taps` row pointers, already mirrored at the
//   picture's top and bottom edge (row -k is row k, row h-1+k is row h-1-k);
// - a "padded" row has kMaxHalf valid samples before index 0 and after index
//   w-1, filled by vif_mirror_pad() (sample -k is k, sample w-1+k is w-1-k).
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::vif {

// Half width of the widest filter (17 taps at scale 0).
inline constexpr int kMaxHalf = 8;
inline constexpr int kScales = 4;

// The four 1-D filters (Q16, each sums to 65536) and their widths. Scale s
// computes its statistics with filter s and is reduced to scale s+1 with
// filter s+1.
inline constexpr int kFilterTaps[kScales] = {17, 9, 5, 3};
inline constexpr std::uint16_t kFilter0[17] = {489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                               7455, 6547, 5274, 3896, 2640, 1640, 935,  489};
inline constexpr std::uint16_t kFilter1[9] = {1244,  3663, 7925, 12590, 14692,
                                              12590, 7925, 3663, 1244};
inline constexpr std::uint16_t kFilter2[5] = {3571, 16004, 26386, 16004, 3571};
inline constexpr std::uint16_t kFilter3[3] = {10904, 43728, 10904};
inline constexpr const std::uint16_t* kFilters[kScales] = {kFilter0, kFilter1, kFilter2, kFilter3};

// The integer sums one scale contributes; integer, so the order in which
// pixels are added does not matter (no sum can overflow int64: each term is
// below 2^32 and a picture has fewer than 2^31 pixels).
struct VifSums {
    std::int64_t num_log = 0;      // sum of log2 ratios, Q11
    std::int64_t den_log = 0;      // sum of log2(1 + sigma1_sq / nsq), Q11
    std::int64_t num_non_log = 0;  // sum of sigma2_sq where sigma1_sq < nsq
    std::int64_t den_non_log = 0;  // number of those pixels
};

// One row of vertically filtered moments. mu1/mu2 are the filtered means
// (Q16 of 8-bit samples, < 2^16); xx/yy/xy the filtered second moments,
// normalised to the 8-bit range (< 2^32).
struct VifStatRow {
    std::uint32_t* mu1;
    std::uint32_t* mu2;
    std::uint32_t* xx;
    std::uint32_t* yy;
    std::uint32_t* xy;
};

// Vertical pass of the statistics for 8-bit samples: mu = (sum + 128) >> 8,
// second moments unshifted (sum of c * p * p <= 65536 * 255^2 < 2^32).
void vif_stat_vertical_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                          const std::uint16_t* filter, int taps, int w, const VifStatRow& out);

// Vertical pass for 16-bit storage: mu = (sum + round) >> shift_mu, moments
// = (sum64 + round) >> shift_sq, where round = 1 << (shift - 1), or 0 for a
// zero shift. Scale 0 of a bpc-bit picture uses shift_mu = bpc and
// shift_sq = 2 * (bpc - 8); every later scale uses 16 and 16.
void vif_stat_vertical_u16(const std::uint16_t* const* ref_rows,
                           const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                           int taps, int w, int shift_mu, int shift_sq, const VifStatRow& out);

// Horizontal pass of the statistics on padded rows: the local variances and
// covariance, Q16 in 8-bit units, as int32 (two's complement reinterpretation
// of a uint32 difference, as libvmaf does).
void vif_stat_horizontal(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                         std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12);

struct VifKernels;

// The statistics of one 8-bit output row in one call: vif_stat_vertical_u8
// into five rows of `scratch`, vif_mirror_pad of each, vif_stat_horizontal.
// Fused so that a SIMD twin can write the vertical sums in the form its
// horizontal pass reads (16-bit halves) instead of uint32 rows it would
// split again; `scratch` is vif_stat_row_scratch(w) uint32 of any
// content and alignment, which each kernel lays out as it needs. Needs
// w > taps / 2 (the mirror's condition).
//
// With `reduce` (else null) the call also does vif_subsample_vertical_u8
// of the same width on the statistics rows from offset = taps / 2 -
// reduce->taps / 2 on (the extractor's scale-0 rows: the reduction's rows
// of an even output row are the middle of the statistics rows), so that a
// SIMD twin can reuse the samples it has loaded. Needs offset >= 0 and
// offset + reduce->taps <= taps.
struct VifRowReduce {
    const std::uint16_t* filter;
    int taps;
    int shift;
    std::uint32_t* ref_out;
    std::uint32_t* dis_out;
};
void vif_stat_row_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                     const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                     std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                     const VifRowReduce* reduce);
// The same for 16-bit samples (every scale after 0, and scale 0 of a
// deeper picture), with vif_stat_vertical_u16's shifts. Same scratch and
// width condition.
void vif_stat_row_u16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                      const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                      std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                      std::int32_t* sigma12);
// The scratch either fused row needs at width w, in uint32: five rows of
// 16-bit halves (two per uint32) with room for the filter's mirror, whole
// 64-byte vectors past the end and 64-byte alignment.
std::size_t vif_stat_row_scratch(int w);
// Number of int16 per half row in that scratch (a multiple of 32).
inline std::size_t vif_stat_row_half_len(int w) {
    return ((static_cast<std::size_t>(w) + 2 * kMaxHalf + 31) & ~std::size_t{31}) + 64;
}
// vif_stat_row_u8 with the separate kernels of `kernels` (the scalar
// definition, and the levels without a fused twin).
void vif_stat_row_u8_by(const VifKernels& kernels, const std::uint8_t* const* ref_rows,
                        const std::uint8_t* const* dis_rows, const std::uint16_t* filter, int taps,
                        int w, std::uint32_t* scratch, std::int32_t* sigma1_sq,
                        std::int32_t* sigma2_sq, std::int32_t* sigma12,
                        const VifRowReduce* reduce);
void vif_stat_row_u16_by(const VifKernels& kernels, const std::uint16_t* const* ref_rows,
                         const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                         int taps, int w, int shift_mu, int shift_sq, std::uint32_t* scratch,
                         std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12);

// Adds one row's information terms to *sums. log2_q11 is vif_log2_table().
void vif_accumulate(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                    const std::int32_t* sigma12, int w, const std::uint16_t* log2_q11,
                    double gain_limit, VifSums* sums);

// Vertical pass of the reduction filter: out = (uint16)((sum + round) >> shift).
// Scale 0 -> 1 uses shift = bpc; every later reduction uses 16.
void vif_subsample_vertical_u8(const std::uint8_t* const* ref_rows,
                               const std::uint8_t* const* dis_rows, const std::uint16_t* filter,
                               int taps, int w, int shift, std::uint32_t* ref_out,
                               std::uint32_t* dis_out);
void vif_subsample_vertical_u16(const std::uint16_t* const* ref_rows,
                                const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                                int taps, int w, int shift, std::uint32_t* ref_out,
                                std::uint32_t* dis_out);

// Horizontal pass of the reduction filter, evaluated only at the even columns
// that survive decimation: out[j] = (uint16)((sum around in[2j] + 2^15) >> 16)
// for j < out_w. Inputs are padded rows.
void vif_subsample_horizontal(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                              const std::uint16_t* filter, int taps, int out_w,
                              std::uint16_t* ref_out, std::uint16_t* dis_out);

// Mirrors `half` samples at both ends of a row of width w (needs w > half).
void vif_mirror_pad(std::uint32_t* row, int w, int half);

// What the SIMD twins' multiply-add (vpmaddwd) paths need to know about a
// filter: its tap sum, whether every tap is below 2^15 (vpmaddwd reads taps
// as signed), and the taps packed in pairs, c[2k] in the low and c[2k+1] in
// the high 16 bits (an odd count pairs the last tap with 0). No member
// initialisers: the struct stays trivial, so no inline constructor of it is
// compiled with one ISA's flags and shared with another's.
struct VifFilterShape {
    std::uint32_t sum;
    bool taps_below_2_15;
    std::uint32_t pairs[kMaxHalf + 1];
};
// Defined in the baseline translation unit; called once per kernel call.
VifFilterShape vif_filter_shape(const std::uint16_t* filter, int taps);

// The kernels of one instruction set.
struct VifKernels {
    decltype(&vif_stat_vertical_u8) stat_vertical_u8;
    decltype(&vif_stat_vertical_u16) stat_vertical_u16;
    decltype(&vif_stat_horizontal) stat_horizontal;
    decltype(&vif_stat_row_u8) stat_row_u8;
    decltype(&vif_stat_row_u16) stat_row_u16;
    decltype(&vif_accumulate) accumulate;
    decltype(&vif_subsample_vertical_u8) subsample_vertical_u8;
    decltype(&vif_subsample_vertical_u16) subsample_vertical_u16;
    decltype(&vif_subsample_horizontal) subsample_horizontal;
};
const VifKernels& vif_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): vif_avx2.cpp replaces every
// kernel; vif_avx512.cpp every kernel again, the statistics ones from
// vif_stats_avx512.cpp, as is the reduction's horizontal pass; vif_avx512icl
// replaces those with the same source built with VNNI (vif_stats_avx512icl.cpp).
// vif_neon.cpp: every kernel (the fused rows through the separate NEON
// kernels).
KernelInit<VifKernels> vif_init_avx2, vif_init_avx512, vif_init_avx512icl, vif_init_neon;
// vif_stats_avx512.cpp and vif_stats_avx512icl.cpp: the statistics kernels.
decltype(vif_stat_vertical_u8) vif_stat_vertical_u8_avx512;
decltype(vif_stat_vertical_u16) vif_stat_vertical_u16_avx512;
decltype(vif_stat_horizontal) vif_stat_horizontal_avx512;
decltype(vif_stat_row_u8) vif_stat_row_u8_avx512;
decltype(vif_stat_row_u16) vif_stat_row_u16_avx512;
decltype(vif_stat_vertical_u8) vif_stat_vertical_u8_avx512icl;
decltype(vif_stat_vertical_u16) vif_stat_vertical_u16_avx512icl;
decltype(vif_stat_horizontal) vif_stat_horizontal_avx512icl;
decltype(vif_stat_row_u8) vif_stat_row_u8_avx512icl;
decltype(vif_stat_row_u16) vif_stat_row_u16_avx512icl;
// The reduction's horizontal pass of both files (vpdpwssd at avx512icl).
decltype(vif_subsample_horizontal) vif_subsample_horizontal_avx512;
decltype(vif_subsample_horizontal) vif_subsample_horizontal_avx512icl;
// The table of `level` (a session's Compute::simd when extractors are
// created); call its kernels only where cpu_flags() allows that level.
extern KernelsFor<VifKernels>& vif_kernels_for;

// log2(v) in Q11 for v in [32768, 65535], indexed by v - 32768: the value
// libvmaf tabulates, (uint16)round(log2f((float)v) * 2048). Entry 32768 is a
// spare 0 that keeps 32-bit gathers of the last entry in bounds.
const std::uint16_t* vif_log2_table();

}  // namespace vmafpp::vif
