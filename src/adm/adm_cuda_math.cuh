// Per-thread arithmetic of the CUDA twins of integer ADM's stages
// (adm_scalar.cpp), for nvcc and the host compiler alike
// (device/device_math.hpp). The layouts are those of the Vulkan shaders:
// bands [picture][a, h, v, d][bw * bh] int32, decoupled [r, a][h, v, d][n]
// int32, row sums [den, dlm, aim][h, v, d][region row] int64.
//
// The device has binary64, so the angle test and the gain product are the
// scalar's own float/double expressions; nvcc compiles them with
// --fmad=false (no contraction), and every conversion (int64 to float:
// cvt.rn; double to int64: cvt.rzi) rounds as the host's does.
#pragma once

#include <cstdint>

#include "adm/adm_gain_limit.hpp"
#include "device/device_math.hpp"

namespace vmafpp::adm::dev {

using vmafpp::dev::clamp64;
using vmafpp::dev::magnitude;
using vmafpp::dev::narrow16;
using vmafpp::dev::round_term;

// adm_kernels.hpp reflect_index(): -1 -> 1, n -> n - 1, n + 1 -> n - 2.
VMAFPP_HD int reflect(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - 1 - k : k); }

VMAFPP_HD std::int32_t dwt_lo(int k) {
    return k == 0 ? 15826 : (k == 1 ? 27411 : (k == 2 ? 7345 : -4240));
}
VMAFPP_HD std::int32_t dwt_hi(int k) {
    return k == 0 ? -4240 : (k == 1 ? -7345 : (k == 2 ? 27411 : -15826));
}

// One band sample (a, h, v, d) at (j, i) of one picture `src` (in_w x
// in_h, rows in_w apart) from the 4 x 4 samples around it, reflected.
// Scale 0 (T = uint8 / uint16): products and sums modulo 2^32, centred,
// >> bpc to int16, then the horizontal pass (sum + 2^15) >> 16 to int16.
// Scales 1-3 (T = int32, the previous a band): int64 sums, (sum + round)
// >> shift narrowed to int32, vertical shifts 0/16/16, horizontal 15/16/15.
template <class T>
VMAFPP_HD void dwt_sample(const T* src, int in_w, int in_h, int scale, int bpc, int i, int j,
                          std::int32_t out[4]) {
    std::int32_t lo[4], hi[4];
    for (int c = 0; c < 4; ++c) {
        const int x = reflect(2 * j - 1 + c, in_w);
        std::int64_t s[4];
        for (int k = 0; k < 4; ++k)
            s[k] = src[static_cast<std::int64_t>(reflect(2 * i - 1 + k, in_h)) * in_w + x];
        if (scale == 0) {
            const std::uint32_t half = 1u << (bpc - 1);
            const std::uint32_t centre = 46342u * half;
            std::uint32_t l = 0, h = 0;
            for (int k = 0; k < 4; ++k) {
                l += static_cast<std::uint32_t>(dwt_lo(k)) * static_cast<std::uint32_t>(s[k]);
                h += static_cast<std::uint32_t>(dwt_hi(k)) * static_cast<std::uint32_t>(s[k]);
            }
            l = l - centre + half;
            h = h + half;
            lo[c] = narrow16(static_cast<std::int32_t>(l) >> bpc);
            hi[c] = narrow16(static_cast<std::int32_t>(h) >> bpc);
        } else {
            const int vs = scale == 1 ? 0 : 16;
            std::int64_t l = 0, h = 0;
            for (int k = 0; k < 4; ++k) {
                l += dwt_lo(k) * s[k];
                h += dwt_hi(k) * s[k];
            }
            lo[c] = static_cast<std::int32_t>((l + round_term(vs)) >> vs);
            hi[c] = static_cast<std::int32_t>((h + round_term(vs)) >> vs);
        }
    }
    if (scale == 0) {
        std::int32_t sa = 0, sv = 0, sh = 0, sd = 0;
        for (int c = 0; c < 4; ++c) {
            sa += dwt_lo(c) * lo[c];
            sv += dwt_hi(c) * lo[c];
            sh += dwt_lo(c) * hi[c];
            sd += dwt_hi(c) * hi[c];
        }
        out[0] = narrow16((sa + 32768) >> 16);
        out[1] = narrow16((sh + 32768) >> 16);
        out[2] = narrow16((sv + 32768) >> 16);
        out[3] = narrow16((sd + 32768) >> 16);
        return;
    }
    const int hs = scale == 2 ? 16 : 15;
    const std::int64_t r = round_term(hs);
    std::int64_t sa = 0, sv = 0, sh = 0, sd = 0;
    for (int c = 0; c < 4; ++c) {
        sa += std::int64_t{dwt_lo(c)} * lo[c];
        sv += std::int64_t{dwt_hi(c)} * lo[c];
        sh += std::int64_t{dwt_lo(c)} * hi[c];
        sd += std::int64_t{dwt_hi(c)} * hi[c];
    }
    out[0] = static_cast<std::int32_t>((sa + r) >> hs);
    out[1] = static_cast<std::int32_t>((sh + r) >> hs);
    out[2] = static_cast<std::int32_t>((sv + r) >> hs);
    out[3] = static_cast<std::int32_t>((sd + r) >> hs);
}

// libvmaf's angle test in its own float/double mix: each int64 to float,
// then / 4096.0 in double, the products left to right in double.
VMAFPP_HD bool angle_within_1deg(std::int64_t dot, std::int64_t o_mag_sq, std::int64_t t_mag_sq,
                                 float cos_sq) {
    const double d = static_cast<double>(static_cast<float>(dot)) / 4096.0;
    const double o = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
    const double t = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
    return (d >= 0.0) && (d * d >= static_cast<double>(cos_sq) * o * t);
}

// 2^30 / |o| with o's sign (libvmaf's division table), 1 <= |o| <= 32768.
VMAFPP_HD std::int64_t div_lookup(std::int32_t o) {
    const std::int64_t r = (std::int32_t{1} << 30) / static_cast<std::int32_t>(magnitude(o));
    return o < 0 ? -r : r;
}

// k = clamp(t / o, 0, 1) in Q15; scale 0 (o int16).
VMAFPP_HD std::int64_t ratio_q15_s0(std::int32_t o, std::int32_t t) {
    if (o == 0) return 32768;
    return clamp64((div_lookup(o) * t + 16384) >> 15, 0, 32768);
}

// Scales 1-3: |o| >= 2^15 is first reduced to its top 15 bits, rounded.
VMAFPP_HD std::int64_t ratio_q15_s123(std::int32_t o, std::int32_t t) {
    if (o == 0) return 32768;
    const std::uint32_t mag = magnitude(o);
    std::uint32_t top = mag;
    int shift = 0;
    if (mag >= 32768u) {
        shift = 17 - vmafpp::dev::count_leading_zeros(mag);
        top = (mag + (1u << (shift - 1))) >> shift;
    }
    std::int64_t num = div_lookup(static_cast<std::int32_t>(top)) * t;
    if (o < 0) num = -num;
    return clamp64((num + (std::int64_t{1} << (14 + shift))) >> (15 + shift), 0, 32768);
}

// The decoupling of sample i of a scale's bands (n samples per band): the
// angle test on ref (h, v) and dis (h, v), then per orientation the Q15
// ratio, the restored value (k * o + 2^14) >> 15, the gain limit where the
// angle test passes, and r, a = d - r narrowed to the band's type (int16 at
// scale 0, int32 after), into dec[r, a][h, v, d][n].
VMAFPP_HD void decouple_sample(const std::int32_t* bands, std::int64_t n, int scale, std::int64_t i,
                               double gain, float cos_sq, std::int32_t* dec) {
    using vmafpp::dev::add_wrapping;
    using vmafpp::dev::mul_wrapping;
    const std::int64_t oh = bands[n + i], ov = bands[2 * n + i];
    const std::int64_t th = bands[5 * n + i], tv = bands[6 * n + i];
    // Products and sums modulo 2^64, as the scalar's scales 1-3 (scale 0's
    // int16 operands never come near).
    const std::int64_t dot = add_wrapping(mul_wrapping(oh, th), mul_wrapping(ov, tv));
    const std::int64_t o_sq = add_wrapping(mul_wrapping(oh, oh), mul_wrapping(ov, ov));
    const std::int64_t t_sq = add_wrapping(mul_wrapping(th, th), mul_wrapping(tv, tv));
    const bool angle = angle_within_1deg(dot, o_sq, t_sq, cos_sq);
    for (int b = 0; b < 3; ++b) {
        const std::int32_t o = bands[(1 + b) * n + i];
        const std::int32_t d = bands[(5 + b) * n + i];
        const std::int64_t k = scale == 0 ? ratio_q15_s0(o, d) : ratio_q15_s123(o, d);
        std::int64_t rst = (k * o + 16384) >> 15;
        if (angle && k != 0 && o != 0) {
            const std::int64_t p = gain_product_double(static_cast<std::int32_t>(rst), gain);
            rst = o > 0 ? vmafpp::dev::min64(p, d) : vmafpp::dev::max64(p, d);
        }
        const std::int64_t a = std::int64_t{d} - rst;
        dec[b * n + i] = scale == 0 ? narrow16(rst) : static_cast<std::int32_t>(rst);
        dec[(3 + b) * n + i] = scale == 0 ? narrow16(a) : static_cast<std::int32_t>(a);
    }
}

// The parameters of one scale's masking and denominator: the push
// constants of the Vulkan shaders (adm_shared.h), filled by adm::pool_push.
using PoolParams = AdmPoolPush;

// csf of masker sample v of orientation t, and its 1/30-weighted magnitude.
VMAFPP_HD void csf_flt(const PoolParams& p, std::int32_t v, int t, std::int64_t* csf,
                       std::int64_t* flt) {
    if (p.scale == 0) {
        const int shift = t == 2 ? 17 : 15;
        const std::int32_t round = t == 2 ? 65535 : 16384;
        const std::int32_t c =
            narrow16((static_cast<std::int32_t>(p.rfactor[t]) * v + round) >> shift);
        *csf = c;
        *flt = narrow16((4369 * (c < 0 ? -c : c) + 2048) >> 12);
        return;
    }
    const auto c =
        static_cast<std::int32_t>((std::int64_t{v} * p.rfactor[t] + (std::int64_t{1} << 27)) >> 28);
    *csf = c;
    *flt = static_cast<std::int32_t>(
        (143165577 * std::int64_t{magnitude(c)} - (std::int64_t{1} << 31)) >> 32);
}

// The centre tap of the threshold from the csf value: scale 0 in int32
// (libvmaf's int16 narrowing removed, research-1402), scales 1-3 with the
// int32 rounding term -2^31.
VMAFPP_HD std::int64_t centre_tap(const PoolParams& p, std::int64_t c) {
    if (p.scale == 0) return (8738 * static_cast<std::int32_t>(c < 0 ? -c : c) + 2048) >> 12;
    return static_cast<std::int32_t>(
        (286331153 * std::int64_t{magnitude(static_cast<std::int32_t>(c))} -
         (std::int64_t{1} << 31)) >>
        32);
}

// The masking of column x of row y for pass 0 (DLM: r measured, a masks)
// or 1 (AIM: a measured, r masks): the threshold T from the masker's 3 x 3
// neighbourhoods in h, v and d, then per orientation the exact excess
// clamp(|x| - T * 2^sub, 0, INT32_MAX) (scale 0) or clamp(|x| - T, 0,
// INT32_MAX) (scales 1-3), its int32-narrowed square and the cube, into
// cube[h, v, d]. dec is [r, a][h, v, d][w * h].
VMAFPP_HD void cm_cubes(const PoolParams& p, const std::int32_t* dec, int pass, int x, int y,
                        std::int64_t cube[3]) {
    const std::int64_t n = static_cast<std::int64_t>(p.w) * p.h;
    const std::int32_t* measured = dec + (pass == 0 ? 0 : 3 * n);
    const std::int32_t* masker = dec + (pass == 0 ? 3 * n : 0);
    const std::int64_t ya = static_cast<std::int64_t>(reflect(y - 1, p.h)) * p.w;
    const std::int64_t yc = static_cast<std::int64_t>(y) * p.w;
    const std::int64_t yb = static_cast<std::int64_t>(reflect(y + 1, p.h)) * p.w;
    const int xl = x == 0 ? 1 : x - 1;
    const int xr = x == p.w - 1 ? p.w - 1 : x + 1;
    std::int64_t thr = 0;
    for (int t = 0; t < 3; ++t) {
        const std::int32_t* m = masker + t * n;
        const std::int64_t at[8] = {ya + xl, ya + x,  ya + xr, yc + xl,
                                    yc + xr, yb + xl, yb + x,  yb + xr};
        std::int64_t c = 0, f = 0, ring = 0;
        for (int k = 0; k < 8; ++k) {
            csf_flt(p, m[at[k]], t, &c, &f);
            ring += f;
        }
        csf_flt(p, m[yc + x], t, &c, &f);
        thr += ring + centre_tap(p, c);
    }
    for (int t = 0; t < 3; ++t) {
        const std::int32_t v = measured[t * n + yc + x];
        std::int64_t e;
        if (p.scale == 0) {
            // |v * rfactor| <= 32768 * 65535: exact in int32.
            const std::int32_t xv = v * static_cast<std::int32_t>(p.rfactor[t]);
            e = std::int64_t{xv < 0 ? -xv : xv} - thr * (std::int64_t{1} << p.sub[t]);
        } else {
            const auto xv = static_cast<std::int32_t>(
                (std::int64_t{v} * p.rfactor[t] + (std::int64_t{1} << 27)) >> 28);
            e = std::int64_t{magnitude(xv)} - thr;
        }
        e = clamp64(e, 0, 2147483647);
        const auto e2 = static_cast<std::int32_t>((e * e + round_term(p.sq[t])) >> p.sq[t]);
        cube[t] = (std::int64_t{e2} * e + round_term(p.cub[t])) >> p.cub[t];
    }
}

// The denominator term of column x of row y, orientation t, of the
// reference band: |b|^3 (scale 0), ((((b^2 + 2^sq) >> sq) * b) + round) >>
// cub (scales 1-3), in uint64.
VMAFPP_HD std::uint64_t den_cube(const PoolParams& p, const std::int32_t* bands, int t, int x,
                                 int y) {
    const std::int64_t n = static_cast<std::int64_t>(p.w) * p.h;
    const std::uint64_t m = magnitude(bands[(1 + t) * n + static_cast<std::int64_t>(y) * p.w + x]);
    if (p.scale == 0) return m * m * m;
    return ((((m * m + (std::uint64_t{1} << p.den_sq)) >> p.den_sq) * m) +
            static_cast<std::uint64_t>(round_term(p.den_cub))) >>
           p.den_cub;
}

}  // namespace vmafpp::adm::dev
