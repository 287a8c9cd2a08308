// Scalar VIF kernels: the reference every SIMD twin must equal bit for bit.
//
// The loops run tap-outer / column-inner over blocks of columns so that the
// compiler can vectorise them; integer sums are exact (or wrap modulo 2^32
// exactly as libvmaf's uint32 accumulators would), so this order gives the
// same integers as libvmaf's column-outer loops.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "vif/vif_kernels.hpp"
#include "vif/vif_shared.h"

namespace vmafpp::vif {

namespace {

// Columns per block: the block's accumulators stay in L1 while every tap
// streams over them.
constexpr int kBlock = 256;

constexpr std::uint32_t round_for(int shift) { return shift == 0 ? 0u : (1u << (shift - 1)); }

// The blocks of kBlock columns of [0, w), tap-outer / column-inner: for
// each block of n columns from j0, the accumulators `sums` (arrays of
// kBlock) are zeroed for its n columns, add(t, j0, n) runs for every tap t,
// then finish(j0, n).
template <class Add, class Finish, class... Sums>
void filter_blocks(int w, int taps, Add add, Finish finish, Sums&... sums) {
    for (int j0 = 0; j0 < w; j0 += kBlock) {
        const int n = std::min(kBlock, w - j0);
        (std::fill_n(sums.begin(), n, typename Sums::value_type{0}), ...);
        for (int t = 0; t < taps; ++t) add(t, j0, n);
        finish(j0, n);
    }
}

// filter_blocks for a vertical pass: add(c, r, d, n) with tap t's
// coefficient and its ref and dis rows from the block's first column.
template <class T, class Add, class Finish, class... Sums>
void vertical_blocks(const T* const* ref_rows, const T* const* dis_rows,
                     const std::uint16_t* filter, int taps, int w, Add add, Finish finish,
                     Sums&... sums) {
    filter_blocks(
        w, taps,
        [&](int t, int j0, int n) {
            add(std::uint32_t{filter[t]}, ref_rows[t] + j0, dis_rows[t] + j0, n);
        },
        finish, sums...);
}

// The vertical statistics of blocks of columns: means in uint32 (c * v <
// 2^16 * 2^16 fits; the means sum to at most 65536 * 65535, the taps summing
// to 65536) and moments in Moment, uint32 for 8-bit samples (the sum of
// c * p * q <= 65536 * 255 * 255 < 2^32, as libvmaf's 8-bit path keeps it)
// and uint64 otherwise (c * v * v can reach 2^48: 64-bit as in libvmaf).
// finish(j0, n, mu1, mu2, xx, yy, xy) writes the n columns of a block.
template <class Moment, class T, class Finish>
void stat_vertical(const T* const* ref_rows, const T* const* dis_rows, const std::uint16_t* filter,
                   int taps, int w, Finish finish) {
    std::array<std::uint32_t, kBlock> mu1, mu2;
    std::array<Moment, kBlock> xx, yy, xy;
    vertical_blocks(
        ref_rows, dis_rows, filter, taps, w,
        [&](std::uint32_t c, const T* r, const T* d, int n) {
            for (int j = 0; j < n; ++j) {
                const std::uint32_t rv = r[j];
                const std::uint32_t dv = d[j];
                const std::uint32_t cr = c * rv;
                const std::uint32_t cd = c * dv;
                mu1[j] += cr;
                mu2[j] += cd;
                xx[j] += static_cast<Moment>(cr) * rv;
                yy[j] += static_cast<Moment>(cd) * dv;
                xy[j] += static_cast<Moment>(cr) * dv;
            }
        },
        [&](int j0, int n) { finish(j0, n, mu1, mu2, xx, yy, xy); }, mu1, mu2, xx, yy, xy);
}

template <class T>
void subsample_vertical(const T* const* ref_rows, const T* const* dis_rows,
                        const std::uint16_t* filter, int taps, int w, int shift,
                        std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const std::uint32_t round = round_for(shift);
    std::array<std::uint32_t, kBlock> sr, sd;
    vertical_blocks(
        ref_rows, dis_rows, filter, taps, w,
        [&](std::uint32_t c, const T* r, const T* d, int n) {
            // At most 65536 * 65535 + 2^15 after rounding: uint32 is enough.
            for (int j = 0; j < n; ++j) {
                sr[j] += c * static_cast<std::uint32_t>(r[j]);
                sd[j] += c * static_cast<std::uint32_t>(d[j]);
            }
        },
        [&](int j0, int n) {
            for (int j = 0; j < n; ++j) {
                ref_out[j0 + j] = static_cast<std::uint16_t>((sr[j] + round) >> shift);
                dis_out[j0 + j] = static_cast<std::uint16_t>((sd[j] + round) >> shift);
            }
        },
        sr, sd);
}

}  // namespace

void vif_stat_vertical_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                          const std::uint16_t* filter, int taps, int w, const VifStatRow& out) {
    stat_vertical<std::uint32_t>(ref_rows, dis_rows, filter, taps, w,
                                 [&](int j0, int n, const auto& mu1, const auto& mu2,
                                     const auto& xx, const auto& yy, const auto& xy) {
                                     for (int j = 0; j < n; ++j) {
                                         out.mu1[j0 + j] = (mu1[j] + 128) >> 8;
                                         out.mu2[j0 + j] = (mu2[j] + 128) >> 8;
                                         out.xx[j0 + j] = xx[j];
                                         out.yy[j0 + j] = yy[j];
                                         out.xy[j0 + j] = xy[j];
                                     }
                                 });
}

void vif_stat_vertical_u16(const std::uint16_t* const* ref_rows,
                           const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                           int taps, int w, int shift_mu, int shift_sq, const VifStatRow& out) {
    const std::uint32_t round_mu = round_for(shift_mu);
    const std::uint64_t round_sq = round_for(shift_sq);
    stat_vertical<std::uint64_t>(
        ref_rows, dis_rows, filter, taps, w,
        [&](int j0, int n, const auto& mu1, const auto& mu2, const auto& xx, const auto& yy,
            const auto& xy) {
            for (int j = 0; j < n; ++j) {
                // The uint16 casts are libvmaf's; the shifted values already fit.
                out.mu1[j0 + j] = static_cast<std::uint16_t>((mu1[j] + round_mu) >> shift_mu);
                out.mu2[j0 + j] = static_cast<std::uint16_t>((mu2[j] + round_mu) >> shift_mu);
                out.xx[j0 + j] = static_cast<std::uint32_t>((xx[j] + round_sq) >> shift_sq);
                out.yy[j0 + j] = static_cast<std::uint32_t>((yy[j] + round_sq) >> shift_sq);
                out.xy[j0 + j] = static_cast<std::uint32_t>((xy[j] + round_sq) >> shift_sq);
            }
        });
}

void vif_stat_horizontal(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                         std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    const int half = taps / 2;
    std::array<std::uint32_t, kBlock> mu1, mu2;
    std::array<std::uint64_t, kBlock> xx, yy, xy;
    filter_blocks(
        w, taps,
        [&](int t, int j0, int n) {
            const std::uint32_t c = filter[t];
            const std::ptrdiff_t o = j0 + t - half;
            // Means: c * mu < 2^16 * 2^16, summed to at most 65536 * 65535
            // (uint32, as libvmaf). Moments are < 2^32, so their sums need 64 bits.
            for (int j = 0; j < n; ++j) {
                mu1[j] += c * in.mu1[o + j];
                mu2[j] += c * in.mu2[o + j];
                xx[j] += static_cast<std::uint64_t>(c) * in.xx[o + j];
                yy[j] += static_cast<std::uint64_t>(c) * in.yy[o + j];
                xy[j] += static_cast<std::uint64_t>(c) * in.xy[o + j];
            }
        },
        [&](int j0, int n) {
            for (int j = 0; j < n; ++j) {
                // Products of the Q32 means, rounded back to Q16.
                const std::uint64_t m1 = mu1[j];
                const std::uint64_t m2 = mu2[j];
                const auto mu1_sq = static_cast<std::uint32_t>((m1 * m1 + 0x80000000u) >> 32);
                const auto mu2_sq = static_cast<std::uint32_t>((m2 * m2 + 0x80000000u) >> 32);
                const auto mu1_mu2 = static_cast<std::uint32_t>((m1 * m2 + 0x80000000u) >> 32);
                const auto xx_f = static_cast<std::uint32_t>((xx[j] + 32768u) >> 16);
                const auto yy_f = static_cast<std::uint32_t>((yy[j] + 32768u) >> 16);
                const auto xy_f = static_cast<std::uint32_t>((xy[j] + 32768u) >> 16);
                // libvmaf subtracts in uint32 and reads the result as int32
                // (modular since C++20), so rounding can make a variance negative.
                sigma1_sq[j0 + j] = static_cast<std::int32_t>(xx_f - mu1_sq);
                sigma2_sq[j0 + j] = static_cast<std::int32_t>(yy_f - mu2_sq);
                sigma12[j0 + j] = static_cast<std::int32_t>(xy_f - mu1_mu2);
            }
        },
        mu1, mu2, xx, yy, xy);
}

void vif_accumulate(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                    const std::int32_t* sigma12, int w, const std::uint16_t* log2_q11_table,
                    double gain_limit, VifSums* sums) {
    // The step is shared with the CUDA twin (vif_shared.h).
    std::int64_t acc[4] = {0, 0, 0, 0};
    for (int j = 0; j < w; ++j)
        vif_accumulate_sample(sigma1_sq[j], sigma2_sq[j], sigma12[j], log2_q11_table, gain_limit,
                              acc);
    sums->num_log += acc[0];
    sums->den_log += acc[1];
    sums->num_non_log += acc[2];
    sums->den_non_log += acc[3];
}

void vif_subsample_vertical_u8(const std::uint8_t* const* ref_rows,
                               const std::uint8_t* const* dis_rows, const std::uint16_t* filter,
                               int taps, int w, int shift, std::uint32_t* ref_out,
                               std::uint32_t* dis_out) {
    subsample_vertical(ref_rows, dis_rows, filter, taps, w, shift, ref_out, dis_out);
}

void vif_subsample_vertical_u16(const std::uint16_t* const* ref_rows,
                                const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                                int taps, int w, int shift, std::uint32_t* ref_out,
                                std::uint32_t* dis_out) {
    subsample_vertical(ref_rows, dis_rows, filter, taps, w, shift, ref_out, dis_out);
}

void vif_subsample_horizontal(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                              const std::uint16_t* filter, int taps, int out_w,
                              std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const int half = taps / 2;
    for (int j = 0; j < out_w; ++j) {
        const std::uint32_t* r = ref_in + 2 * std::ptrdiff_t{j} - half;
        const std::uint32_t* d = dis_in + 2 * std::ptrdiff_t{j} - half;
        std::uint32_t sr = 0, sd = 0;
        // Inputs are < 2^16 and the taps sum to 65536: no uint32 overflow.
        for (int t = 0; t < taps; ++t) {
            sr += filter[t] * r[t];
            sd += filter[t] * d[t];
        }
        ref_out[j] = static_cast<std::uint16_t>((sr + 32768u) >> 16);
        dis_out[j] = static_cast<std::uint16_t>((sd + 32768u) >> 16);
    }
}

namespace {

VifFilterShape shape_of(const std::uint16_t* filter, int taps) {
    VifFilterShape f{};
    f.taps_below_2_15 = true;
    for (int t = 0; t < taps; ++t) {
        f.sum += filter[t];
        f.taps_below_2_15 = f.taps_below_2_15 && filter[t] < 32768;
        f.pairs[t / 2] |= static_cast<std::uint32_t>(filter[t]) << (16 * (t & 1));
    }
    return f;
}

}  // namespace

VifFilterShape vif_filter_shape(const std::uint16_t* filter, int taps) {
    // The extractor passes libvmaf's four constant filters to every kernel
    // call (several per row): their shapes are made once.
    static const std::array<VifFilterShape, kScales> kShapes = [] {
        std::array<VifFilterShape, kScales> s{};
        for (int k = 0; k < kScales; ++k) s[k] = shape_of(kFilters[k], kFilterTaps[k]);
        return s;
    }();
    for (int k = 0; k < kScales; ++k)
        if (filter == kFilters[k] && taps == kFilterTaps[k]) return kShapes[k];
    return shape_of(filter, taps);
}

std::size_t vif_stat_row_scratch(int w) {
    // Five quantities, two halves each, plus 64 bytes to align the start;
    // at least the scalar's five uint32 rows of w + 2 kMaxHalf.
    return 5 * vif_stat_row_half_len(w) + 16;
}

namespace {

// A fused row's scratch as the separate kernels use it: five uint32 rows of
// w + 2 kMaxHalf, the mirror's room on either side.
VifStatRow scratch_rows(std::uint32_t* scratch, int w) {
    const std::size_t len = static_cast<std::size_t>(w) + 2 * kMaxHalf;
    return {scratch + kMaxHalf, scratch + len + kMaxHalf, scratch + 2 * len + kMaxHalf,
            scratch + 3 * len + kMaxHalf, scratch + 4 * len + kMaxHalf};
}

// The rest of a row once its vertical pass has filled `row`: the mirror of
// each of the five rows, then the horizontal pass.
void mirror_and_filter(const VifKernels& kernels, const VifStatRow& row,
                       const std::uint16_t* filter, int taps, int w, std::int32_t* sigma1_sq,
                       std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    for (std::uint32_t* r : {row.mu1, row.mu2, row.xx, row.yy, row.xy})
        vif_mirror_pad(r, w, taps / 2);
    kernels.stat_horizontal(row, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
}

}  // namespace

void vif_stat_row_u8_by(const VifKernels& kernels, const std::uint8_t* const* ref_rows,
                        const std::uint8_t* const* dis_rows, const std::uint16_t* filter, int taps,
                        int w, std::uint32_t* scratch, std::int32_t* sigma1_sq,
                        std::int32_t* sigma2_sq, std::int32_t* sigma12,
                        const VifRowReduce* reduce) {
    const VifStatRow row = scratch_rows(scratch, w);
    kernels.stat_vertical_u8(ref_rows, dis_rows, filter, taps, w, row);
    mirror_and_filter(kernels, row, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
    if (reduce) {
        const int offset = taps / 2 - reduce->taps / 2;
        kernels.subsample_vertical_u8(ref_rows + offset, dis_rows + offset, reduce->filter,
                                      reduce->taps, w, reduce->shift, reduce->ref_out,
                                      reduce->dis_out);
    }
}

void vif_stat_row_u16_by(const VifKernels& kernels, const std::uint16_t* const* ref_rows,
                         const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                         int taps, int w, int shift_mu, int shift_sq, std::uint32_t* scratch,
                         std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    const VifStatRow row = scratch_rows(scratch, w);
    kernels.stat_vertical_u16(ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq, row);
    mirror_and_filter(kernels, row, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
}

void vif_stat_row_u16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                      const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                      std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                      std::int32_t* sigma12) {
    vif_stat_row_u16_by(vif_kernels_scalar(), ref_rows, dis_rows, filter, taps, w, shift_mu,
                        shift_sq, scratch, sigma1_sq, sigma2_sq, sigma12);
}

void vif_stat_row_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                     const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                     std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                     const VifRowReduce* reduce) {
    vif_stat_row_u8_by(vif_kernels_scalar(), ref_rows, dis_rows, filter, taps, w, scratch,
                       sigma1_sq, sigma2_sq, sigma12, reduce);
}

void vif_mirror_pad(std::uint32_t* row, int w, int half) {
    for (int f = 1; f <= half; ++f) {
        row[-f] = row[f];
        row[w - 1 + f] = row[w - 1 - f];
    }
}

const VifKernels& vif_kernels_scalar() {
    static constexpr VifKernels kScalar{
        vif_stat_vertical_u8,
        vif_stat_vertical_u16,
        vif_stat_horizontal,
        vif_stat_row_u8,
        vif_stat_row_u16,
        vif_accumulate,
        vif_subsample_vertical_u8,
        vif_subsample_vertical_u16,
        vif_subsample_horizontal,
    };
    return kScalar;
}

const std::uint16_t* vif_log2_table() {
    // One spare entry (0) past the end: a SIMD gather reads 32 bits at an
    // entry's address and keeps the low 16, so the last entry needs 2 more
    // readable bytes.
    static const std::array<std::uint16_t, 32769> table = [] {
        std::array<std::uint16_t, 32769> t{};
        for (std::uint32_t v = 32768; v < 65536; ++v) {
            // Single-precision log2 scaled in float (exact: 2048 is a power of
            // two), rounded half away from zero in double, as libvmaf does.
            const float l = std::log2(static_cast<float>(v)) * 2048.0f;
            t[v - 32768] = static_cast<std::uint16_t>(std::round(static_cast<double>(l)));
        }
        return t;
    }();
    return table.data();
}

}  // namespace vmafpp::vif
