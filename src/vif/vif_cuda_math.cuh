// Per-thread arithmetic of the CUDA twins of integer VIF's statistics and
// reductions (vif_kernels_scalar.cpp), for nvcc and the host compiler alike
// (device/device_math.hpp). Each function gives one sample of one pass;
// the layouts are those of the Vulkan shaders (vif_*.comp).
#pragma once

#include <cstdint>

#include "device/device_math.hpp"
#include "vif/vif_shared.h"

namespace vmafpp::vif::dev {

// The four filters one after another (17 + 9 + 5 + 3 taps), filter f from
// filter_start(f) (vif_kernels.hpp kFilter0..3).
VMAFPP_HD std::uint32_t filter_tap(int f, int t) {
    constexpr std::uint16_t kAll[34] = {489,   935,   1640,  2640,  3896,  5274,  6547, 7455, 7784,
                                        7455,  6547,  5274,  3896,  2640,  1640,  935,  489,  1244,
                                        3663,  7925,  12590, 14692, 12590, 7925,  3663, 1244, 3571,
                                        16004, 26386, 16004, 3571,  10904, 43728, 10904};
    const int start = f == 0 ? 0 : (f == 1 ? 17 : (f == 2 ? 26 : 31));
    return kAll[start + t];
}
VMAFPP_HD int filter_taps(int f) { return f == 0 ? 17 : (f == 1 ? 9 : (f == 2 ? 5 : 3)); }

// Sample -k is k, sample n-1+k is n-1-k.
VMAFPP_HD int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// The vertical pass of the means and second moments at (x, i) of a w x h
// scale with filter `scale`: means in uint32, moments in uint64, then
// mu = uint16((sum + round) >> shift_mu), moment = uint32((sum + round) >>
// shift_sq) (vif_stat_vertical_u8 is this with 8 and 0). mom holds five
// planes of w * h: mu1, mu2, xx, yy, xy.
template <class T>
VMAFPP_HD void stat_vertical(const T* ref, const T* dis, int w, int h, int scale, int shift_mu,
                             int shift_sq, int x, int i, std::uint32_t* mom) {
    const int taps = filter_taps(scale), half = taps / 2;
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int t = 0; t < taps; ++t) {
        const std::int64_t at = static_cast<std::int64_t>(reflect(i - half + t, h)) * w + x;
        const std::uint32_t c = filter_tap(scale, t);
        const std::uint32_t rv = ref[at], dv = dis[at];
        const std::uint32_t cr = c * rv, cd = c * dv;
        mu1 += cr;
        mu2 += cd;
        xx += std::uint64_t{cr} * rv;
        yy += std::uint64_t{cd} * dv;
        xy += std::uint64_t{cr} * dv;
    }
    const std::uint32_t round_mu = shift_mu == 0 ? 0u : (1u << (shift_mu - 1));
    const std::uint64_t round_sq = shift_sq == 0 ? 0u : (std::uint64_t{1} << (shift_sq - 1));
    const std::int64_t n = static_cast<std::int64_t>(w) * h;
    const std::int64_t o = static_cast<std::int64_t>(i) * w + x;
    mom[o] = ((mu1 + round_mu) >> shift_mu) & 0xffffu;
    mom[n + o] = ((mu2 + round_mu) >> shift_mu) & 0xffffu;
    mom[2 * n + o] = static_cast<std::uint32_t>((xx + round_sq) >> shift_sq);
    mom[3 * n + o] = static_cast<std::uint32_t>((yy + round_sq) >> shift_sq);
    mom[4 * n + o] = static_cast<std::uint32_t>((xy + round_sq) >> shift_sq);
}

// The horizontal pass at (x, i) on the mirrored vertical sums, the Q32 mean
// products rounded back to Q16, and sigma1_sq, sigma2_sq, sigma12 as the
// int32 reading of a uint32 difference, into three planes of w * h.
VMAFPP_HD void stat_horizontal(const std::uint32_t* mom, int w, int h, int scale, int x, int i,
                               std::int32_t* sigma) {
    const int taps = filter_taps(scale), half = taps / 2;
    const std::int64_t n = static_cast<std::int64_t>(w) * h;
    const std::int64_t row = static_cast<std::int64_t>(i) * w;
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int t = 0; t < taps; ++t) {
        const std::int64_t at = row + reflect(x + t - half, w);
        const std::uint32_t c = filter_tap(scale, t);
        mu1 += c * mom[at];
        mu2 += c * mom[n + at];
        xx += std::uint64_t{c} * mom[2 * n + at];
        yy += std::uint64_t{c} * mom[3 * n + at];
        xy += std::uint64_t{c} * mom[4 * n + at];
    }
    const std::uint64_t m1 = mu1, m2 = mu2;
    const auto mu1_sq = static_cast<std::uint32_t>((m1 * m1 + 0x80000000u) >> 32);
    const auto mu2_sq = static_cast<std::uint32_t>((m2 * m2 + 0x80000000u) >> 32);
    const auto mu1_mu2 = static_cast<std::uint32_t>((m1 * m2 + 0x80000000u) >> 32);
    const auto xx_f = static_cast<std::uint32_t>((xx + 32768u) >> 16);
    const auto yy_f = static_cast<std::uint32_t>((yy + 32768u) >> 16);
    const auto xy_f = static_cast<std::uint32_t>((xy + 32768u) >> 16);
    const std::int64_t o = row + x;
    sigma[o] = static_cast<std::int32_t>(xx_f - mu1_sq);
    sigma[n + o] = static_cast<std::int32_t>(yy_f - mu2_sq);
    sigma[2 * n + o] = static_cast<std::int32_t>(xy_f - mu1_mu2);
}

// The vertical pass of the reduction from scale `scale` (filter scale + 1)
// at the even row 2 * oi, column x: uint32 sums, uint16((sum + round) >>
// shift). conv holds two planes of w * out_h: ref, dis.
template <class T>
VMAFPP_HD void reduce_vertical(const T* ref, const T* dis, int w, int h, int scale, int shift,
                               int out_h, int x, int oi, std::uint32_t* conv) {
    const int f = scale + 1, taps = filter_taps(f), half = taps / 2;
    std::uint32_t sr = 0, sd = 0;
    for (int t = 0; t < taps; ++t) {
        const std::int64_t at = static_cast<std::int64_t>(reflect(2 * oi - half + t, h)) * w + x;
        const std::uint32_t c = filter_tap(f, t);
        sr += c * static_cast<std::uint32_t>(ref[at]);
        sd += c * static_cast<std::uint32_t>(dis[at]);
    }
    const std::uint32_t round = shift == 0 ? 0u : (1u << (shift - 1));
    const std::int64_t o = static_cast<std::int64_t>(oi) * w + x;
    conv[o] = ((sr + round) >> shift) & 0xffffu;
    conv[static_cast<std::int64_t>(w) * out_h + o] = ((sd + round) >> shift) & 0xffffu;
}

// The horizontal pass of the reduction at the even column 2 * j of the
// mirrored vertical rows: uint16((sum + 2^15) >> 16), the samples of scale
// `scale` + 1, into two planes of out_w * out_h (ref, dis).
VMAFPP_HD void reduce_horizontal(const std::uint32_t* conv, int w, int out_w, int out_h, int scale,
                                 int j, int oi, std::uint16_t* dst) {
    const int f = scale + 1, taps = filter_taps(f), half = taps / 2;
    const std::int64_t n = static_cast<std::int64_t>(w) * out_h;
    const std::int64_t row = static_cast<std::int64_t>(oi) * w;
    std::uint32_t sr = 0, sd = 0;
    for (int t = 0; t < taps; ++t) {
        const std::int64_t at = row + reflect(2 * j - half + t, w);
        const std::uint32_t c = filter_tap(f, t);
        sr += c * conv[at];
        sd += c * conv[n + at];
    }
    const std::int64_t o = static_cast<std::int64_t>(oi) * out_w + j;
    dst[o] = static_cast<std::uint16_t>((sr + 32768u) >> 16);
    dst[static_cast<std::int64_t>(out_w) * out_h + o] =
        static_cast<std::uint16_t>((sd + 32768u) >> 16);
}

// vif_accumulate's step of one sample is vif_shared.h's
// vif_accumulate_sample, the scalar's own.

}  // namespace vmafpp::vif::dev
