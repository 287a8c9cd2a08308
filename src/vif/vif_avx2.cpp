// AVX2 twins of the VIF row kernels (this file alone is compiled with
// -mavx2 -mbmi2; -ffp-contract=off applies as everywhere, and no FMA
// intrinsic is used, so every double operation rounds where the scalar's
// does).
//
// Each kernel gives the scalar kernel's results bit for bit on any input the
// scalar defines: the integer sums wrap modulo 2^32 (or 2^64) exactly as the
// scalar's uint32 (uint64) accumulators do, for any uint16 filter taps and
// 1 <= taps <= 17, so nothing here assumes the libvmaf filters or realistic
// sample values. Widths that are not a multiple of the vector length finish
// with one more vector pass over a zero-filled copy of the remaining inputs
// (only the real outputs are stored, no input is read past the row's end), so
// the tail goes through the same arithmetic as the body.
//
// No standard-library template is used here: an out-of-line instance of one
// (a -O0 build) would be compiled for AVX2 and could be the copy the linker
// keeps for the baseline code too. Plain arrays and memcpy only.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "dispatch/x86_lanes.hpp"
#include "vif/vif_gain.hpp"
#include "vif/vif_kernels.hpp"
#include "vif/vif_tap_pairs.hpp"

namespace vmafpp::vif {

namespace {

constexpr int kMaxTaps = 2 * kMaxHalf + 1;

inline __m256i load8x32(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
inline void store8x32(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
inline __m128i load16x8(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

constexpr std::uint32_t round_for(int shift) { return shift == 0 ? 0u : (1u << (shift - 1)); }

// Adds c * v (16 x uint16 each, products exact in 32 bits) to two uint32
// accumulators in "unpack order": lo holds samples 0-3 and 8-11, hi holds
// 4-7 and 12-15 (undone by natural_order_*()).
inline void add_products_u16(__m256i c, __m256i v, __m256i& lo, __m256i& hi) {
    const __m256i p_lo = _mm256_mullo_epi16(c, v);
    const __m256i p_hi = _mm256_mulhi_epu16(c, v);
    lo = _mm256_add_epi32(lo, _mm256_unpacklo_epi16(p_lo, p_hi));
    hi = _mm256_add_epi32(hi, _mm256_unpackhi_epi16(p_lo, p_hi));
}
inline __m256i natural_order_first(__m256i lo, __m256i hi) {
    return _mm256_permute2x128_si256(lo, hi, 0x20);
}
inline __m256i natural_order_second(__m256i lo, __m256i hi) {
    return _mm256_permute2x128_si256(lo, hi, 0x31);
}

// Joins the low 32 bits of the 64-bit lanes of `even` (samples 0, 2, 4, 6)
// and of `odd` (samples 1, 3, 5, 7) into 8 x 32 bits in sample order.
inline __m256i join_low_halves(__m256i even, __m256i odd) {
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// Window p (y[2p, 2p + 16), p <= 8) of int16 at a 32-byte aligned y, from
// a = y[0, 16), b = y[16, 32) and mid = y[8, 24): vpalignr shifts within
// 128-bit lanes, and (mid, a) holds bytes [k, k + 16) of lane 0 and
// [16 + k, 32 + k) of lane 1 for k < 16, (b, mid) the same from byte 16 on.
template <int kP>
[[gnu::always_inline]] inline __m256i window_at(__m256i a, __m256i mid, __m256i b) {
    constexpr int k = 4 * kP;  // in bytes
    if constexpr (k == 0)
        return a;
    else if constexpr (k < 16)
        return _mm256_alignr_epi8(mid, a, k);
    else if constexpr (k == 16)
        return mid;
    else if constexpr (k < 32)
        return _mm256_alignr_epi8(b, mid, k - 16);
    else
        return b;
}

// Full 64-bit products of the uint32 lanes of a and b: even lanes, odd lanes.
inline __m256i mul_even_u32(__m256i a, __m256i b) { return _mm256_mul_epu32(a, b); }
inline __m256i mul_odd_u32(__m256i a, __m256i b) {
    return _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
}

// ---------------------------------------------------------------------------
// Vertical statistics, 8-bit samples: 16 columns per step.

struct RowsU8 {
    const std::uint8_t* const* ref;
    const std::uint8_t* const* dis;
};

inline void stat_vertical_u8_step(RowsU8 rows, std::ptrdiff_t j, const std::uint16_t* filter,
                                  int taps, std::uint32_t* mu1, std::uint32_t* mu2,
                                  std::uint32_t* xx, std::uint32_t* yy, std::uint32_t* xy) {
    __m256i mu1_lo = _mm256_setzero_si256(), mu1_hi = mu1_lo, mu2_lo = mu1_lo, mu2_hi = mu1_lo;
    __m256i xx_lo = mu1_lo, xx_hi = mu1_lo, yy_lo = mu1_lo, yy_hi = mu1_lo;
    __m256i xy_lo = mu1_lo, xy_hi = mu1_lo;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi16(static_cast<short>(filter[t]));
        const __m256i r = _mm256_cvtepu8_epi16(load16x8(rows.ref[t] + j));
        const __m256i d = _mm256_cvtepu8_epi16(load16x8(rows.dis[t] + j));
        // p * q <= 255 * 255 < 2^16: exact in a 16-bit lane, and c * (p * q)
        // is the scalar's (c * p) * q, both exact below 2^32.
        add_products_u16(c, r, mu1_lo, mu1_hi);
        add_products_u16(c, d, mu2_lo, mu2_hi);
        add_products_u16(c, _mm256_mullo_epi16(r, r), xx_lo, xx_hi);
        add_products_u16(c, _mm256_mullo_epi16(d, d), yy_lo, yy_hi);
        add_products_u16(c, _mm256_mullo_epi16(r, d), xy_lo, xy_hi);
    }
    // mu = (sum + 128) >> 8, wrapping like the scalar's uint32.
    const __m256i r128 = _mm256_set1_epi32(128);
    auto mean = [&](__m256i v) { return _mm256_srli_epi32(_mm256_add_epi32(v, r128), 8); };
    store8x32(mu1 + j, mean(natural_order_first(mu1_lo, mu1_hi)));
    store8x32(mu1 + j + 8, mean(natural_order_second(mu1_lo, mu1_hi)));
    store8x32(mu2 + j, mean(natural_order_first(mu2_lo, mu2_hi)));
    store8x32(mu2 + j + 8, mean(natural_order_second(mu2_lo, mu2_hi)));
    store8x32(xx + j, natural_order_first(xx_lo, xx_hi));
    store8x32(xx + j + 8, natural_order_second(xx_lo, xx_hi));
    store8x32(yy + j, natural_order_first(yy_lo, yy_hi));
    store8x32(yy + j + 8, natural_order_second(yy_lo, yy_hi));
    store8x32(xy + j, natural_order_first(xy_lo, xy_hi));
    store8x32(xy + j + 8, natural_order_second(xy_lo, xy_hi));
}

// The same sums with vpmaddwd on two rows at once, for filters whose taps
// are all below 32768 (vif_stats_avx512.cpp derives the identities): with
// a = p - 128 and b = q - 128 every factor fits int16, each pair sum of
// products fits int32, and in uint32 (modulo 2^32, like the scalar)
//   sum c p = sum c a + 128 C,  sum c p p = sum c a a + 256 sum c a + 16384 C,
//   sum c p q = sum c a b + 128 (sum c a + sum c b) + 16384 C  (C = sum c).
// pairs[k] holds (c_2k, c_2k+1) as two 16-bit halves; an odd tap count pairs
// the last row with itself and a zero coefficient.
inline __m256i centred16(const std::uint8_t* p) {
    return _mm256_sub_epi16(_mm256_cvtepu8_epi16(load16x8(p)), _mm256_set1_epi16(128));
}

inline void stat_vertical_u8_pairs_step(RowsU8 rows, std::ptrdiff_t j, const std::uint32_t* pairs,
                                        int taps, std::uint32_t taps_sum, std::uint32_t* mu1,
                                        std::uint32_t* mu2, std::uint32_t* xx, std::uint32_t* yy,
                                        std::uint32_t* xy) {
    __m256i m1_lo = _mm256_setzero_si256(), m1_hi = m1_lo, m2_lo = m1_lo, m2_hi = m1_lo;
    __m256i xx_lo = m1_lo, xx_hi = m1_lo, yy_lo = m1_lo, yy_hi = m1_lo, xy_lo = m1_lo,
            xy_hi = m1_lo;
    for (int t = 0; t < taps; t += 2) {
        const int u = t + 1 < taps ? t + 1 : t;
        const __m256i c = _mm256_set1_epi32(static_cast<int>(pairs[t / 2]));
        const __m256i r0 = centred16(rows.ref[t] + j), r1 = centred16(rows.ref[u] + j);
        const __m256i d0 = centred16(rows.dis[t] + j), d1 = centred16(rows.dis[u] + j);
        const __m256i a_lo = _mm256_unpacklo_epi16(r0, r1), a_hi = _mm256_unpackhi_epi16(r0, r1);
        const __m256i b_lo = _mm256_unpacklo_epi16(d0, d1), b_hi = _mm256_unpackhi_epi16(d0, d1);
        m1_lo = _mm256_add_epi32(m1_lo, _mm256_madd_epi16(a_lo, c));
        m1_hi = _mm256_add_epi32(m1_hi, _mm256_madd_epi16(a_hi, c));
        m2_lo = _mm256_add_epi32(m2_lo, _mm256_madd_epi16(b_lo, c));
        m2_hi = _mm256_add_epi32(m2_hi, _mm256_madd_epi16(b_hi, c));
        xx_lo = _mm256_add_epi32(xx_lo, _mm256_madd_epi16(_mm256_mullo_epi16(a_lo, a_lo), c));
        xx_hi = _mm256_add_epi32(xx_hi, _mm256_madd_epi16(_mm256_mullo_epi16(a_hi, a_hi), c));
        yy_lo = _mm256_add_epi32(yy_lo, _mm256_madd_epi16(_mm256_mullo_epi16(b_lo, b_lo), c));
        yy_hi = _mm256_add_epi32(yy_hi, _mm256_madd_epi16(_mm256_mullo_epi16(b_hi, b_hi), c));
        xy_lo = _mm256_add_epi32(xy_lo, _mm256_madd_epi16(_mm256_mullo_epi16(a_lo, b_lo), c));
        xy_hi = _mm256_add_epi32(xy_hi, _mm256_madd_epi16(_mm256_mullo_epi16(a_hi, b_hi), c));
    }
    const __m256i c128 = _mm256_set1_epi32(static_cast<int>(128u * taps_sum + 128u));
    const __m256i c16384 = _mm256_set1_epi32(static_cast<int>(16384u * taps_sum));
    auto mean = [&](__m256i s) { return _mm256_srli_epi32(_mm256_add_epi32(s, c128), 8); };
    auto square = [&](__m256i s2, __m256i s1) {
        return _mm256_add_epi32(_mm256_add_epi32(s2, _mm256_slli_epi32(s1, 8)), c16384);
    };
    auto cross = [&](__m256i x, __m256i s1, __m256i t1) {
        return _mm256_add_epi32(_mm256_add_epi32(x, _mm256_slli_epi32(_mm256_add_epi32(s1, t1), 7)),
                                c16384);
    };
    auto store = [&](std::uint32_t* dst, __m256i lo, __m256i hi) {
        store8x32(dst + j, natural_order_first(lo, hi));
        store8x32(dst + j + 8, natural_order_second(lo, hi));
    };
    store(mu1, mean(m1_lo), mean(m1_hi));
    store(mu2, mean(m2_lo), mean(m2_hi));
    store(xx, square(xx_lo, m1_lo), square(xx_hi, m1_hi));
    store(yy, square(yy_lo, m2_lo), square(yy_hi, m2_hi));
    store(xy, cross(xy_lo, m1_lo, m2_lo), cross(xy_hi, m1_hi, m2_hi));
}

template <class T>
inline void copy_first(T* dst, const T* src, int n) {
    std::memcpy(dst, src, n * sizeof(T));
}

// Output rows of kLanes samples for a tail step; copy_to() keeps the first n.
template <int kLanes>
struct TailStatOut {
    std::uint32_t mu1[kLanes] = {}, mu2[kLanes] = {}, xx[kLanes] = {}, yy[kLanes] = {},
                  xy[kLanes] = {};
    void copy_to(const VifStatRow& out, std::ptrdiff_t j, int n) const {
        copy_first(out.mu1 + j, mu1, n);
        copy_first(out.mu2 + j, mu2, n);
        copy_first(out.xx + j, xx, n);
        copy_first(out.yy + j, yy, n);
        copy_first(out.xy + j, xy, n);
    }
};

void stat_vertical_u8_avx2(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                           const std::uint16_t* filter, int taps, int w, const VifStatRow& out) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    auto step = [&](RowsU8 rows, std::ptrdiff_t j, std::uint32_t* mu1, std::uint32_t* mu2,
                    std::uint32_t* xx, std::uint32_t* yy, std::uint32_t* xy) {
        if (f.taps_below_2_15)
            stat_vertical_u8_pairs_step(rows, j, f.pairs, taps, f.sum, mu1, mu2, xx, yy, xy);
        else
            stat_vertical_u8_step(rows, j, filter, taps, mu1, mu2, xx, yy, xy);
    };
    std::ptrdiff_t j = 0;
    for (; j + 16 <= w; j += 16)
        step({ref_rows, dis_rows}, j, out.mu1, out.mu2, out.xx, out.yy, out.xy);
    if (j == w) return;
    const int n = static_cast<int>(w - j);
    const TailRows<std::uint8_t, 16, kMaxTaps> tail(ref_rows, dis_rows, taps, j, n);
    TailStatOut<16> o;
    step({tail.a_ptr, tail.b_ptr}, 0, o.mu1, o.mu2, o.xx, o.yy, o.xy);
    o.copy_to(out, j, n);
}

// ---------------------------------------------------------------------------
// Vertical statistics, 16-bit samples: 8 columns per step, moments in 64 bits.

struct RowsU16 {
    const std::uint16_t* const* ref;
    const std::uint16_t* const* dis;
};

inline void stat_vertical_u16_step(RowsU16 rows, std::ptrdiff_t j, const std::uint16_t* filter,
                                   int taps, __m128i shift_mu, __m256i round_mu, __m128i shift_sq,
                                   __m256i round_sq, std::uint32_t* mu1, std::uint32_t* mu2,
                                   std::uint32_t* xx, std::uint32_t* yy, std::uint32_t* xy) {
    __m256i m1 = _mm256_setzero_si256(), m2 = m1;
    __m256i xx_e = m1, xx_o = m1, yy_e = m1, yy_o = m1, xy_e = m1, xy_o = m1;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi32(filter[t]);
        const __m256i r = _mm256_cvtepu16_epi32(load16x8(rows.ref[t] + j));
        const __m256i d = _mm256_cvtepu16_epi32(load16x8(rows.dis[t] + j));
        // c * v < 2^32 (both below 2^16): exact in 32 bits.
        const __m256i cr = _mm256_mullo_epi32(c, r);
        const __m256i cd = _mm256_mullo_epi32(c, d);
        m1 = _mm256_add_epi32(m1, cr);
        m2 = _mm256_add_epi32(m2, cd);
        // (c * p) * q below 2^48: full 64-bit products, as the scalar's uint64.
        xx_e = _mm256_add_epi64(xx_e, mul_even_u32(cr, r));
        xx_o = _mm256_add_epi64(xx_o, mul_odd_u32(cr, r));
        yy_e = _mm256_add_epi64(yy_e, mul_even_u32(cd, d));
        yy_o = _mm256_add_epi64(yy_o, mul_odd_u32(cd, d));
        xy_e = _mm256_add_epi64(xy_e, mul_even_u32(cr, d));
        xy_o = _mm256_add_epi64(xy_o, mul_odd_u32(cr, d));
    }
    // The scalar casts the shifted mean to uint16.
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    auto mean = [&](__m256i v) {
        return _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(v, round_mu), shift_mu), low16);
    };
    auto moment = [&](__m256i e, __m256i o) {
        return join_low_halves(_mm256_srl_epi64(_mm256_add_epi64(e, round_sq), shift_sq),
                               _mm256_srl_epi64(_mm256_add_epi64(o, round_sq), shift_sq));
    };
    store8x32(mu1 + j, mean(m1));
    store8x32(mu2 + j, mean(m2));
    store8x32(xx + j, moment(xx_e, xx_o));
    store8x32(yy + j, moment(yy_e, yy_o));
    store8x32(xy + j, moment(xy_e, xy_o));
}

void stat_vertical_u16_avx2(const std::uint16_t* const* ref_rows,
                            const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                            int taps, int w, int shift_mu, int shift_sq, const VifStatRow& out) {
    const __m128i sh_mu = _mm_cvtsi32_si128(shift_mu);
    const __m128i sh_sq = _mm_cvtsi32_si128(shift_sq);
    const __m256i rnd_mu = _mm256_set1_epi32(static_cast<int>(round_for(shift_mu)));
    const __m256i rnd_sq = _mm256_set1_epi64x(round_for(shift_sq));
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8)
        stat_vertical_u16_step({ref_rows, dis_rows}, j, filter, taps, sh_mu, rnd_mu, sh_sq, rnd_sq,
                               out.mu1, out.mu2, out.xx, out.yy, out.xy);
    if (j == w) return;
    const int n = static_cast<int>(w - j);
    const TailRows<std::uint16_t, 8, kMaxTaps> tail(ref_rows, dis_rows, taps, j, n);
    TailStatOut<8> o;
    stat_vertical_u16_step({tail.a_ptr, tail.b_ptr}, 0, filter, taps, sh_mu, rnd_mu, sh_sq,
                           rnd_sq, o.mu1, o.mu2, o.xx, o.yy, o.xy);
    o.copy_to(out, j, n);
}

// ---------------------------------------------------------------------------
// Horizontal statistics on padded rows: 8 columns per step.

inline void stat_horizontal_step(const VifStatRow& in, std::ptrdiff_t j,
                                 const std::uint16_t* filter, int taps, std::int32_t* s1,
                                 std::int32_t* s2, std::int32_t* s12) {
    const int half = taps / 2;
    __m256i m1 = _mm256_setzero_si256(), m2 = m1;
    __m256i xx_e = m1, xx_o = m1, yy_e = m1, yy_o = m1, xy_e = m1, xy_o = m1;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi32(filter[t]);
        const std::ptrdiff_t o = j + t - half;
        // Means: uint32 products and sums, wrapping as the scalar's.
        m1 = _mm256_add_epi32(m1, _mm256_mullo_epi32(c, load8x32(in.mu1 + o)));
        m2 = _mm256_add_epi32(m2, _mm256_mullo_epi32(c, load8x32(in.mu2 + o)));
        // Moments: 64-bit sums of 32 x 16-bit products. c sits in every
        // 32-bit lane, so the even-lane multiply sees it in the odd lanes too.
        const __m256i x = load8x32(in.xx + o);
        const __m256i y = load8x32(in.yy + o);
        const __m256i z = load8x32(in.xy + o);
        xx_e = _mm256_add_epi64(xx_e, _mm256_mul_epu32(x, c));
        xx_o = _mm256_add_epi64(xx_o, _mm256_mul_epu32(_mm256_srli_epi64(x, 32), c));
        yy_e = _mm256_add_epi64(yy_e, _mm256_mul_epu32(y, c));
        yy_o = _mm256_add_epi64(yy_o, _mm256_mul_epu32(_mm256_srli_epi64(y, 32), c));
        xy_e = _mm256_add_epi64(xy_e, _mm256_mul_epu32(z, c));
        xy_o = _mm256_add_epi64(xy_o, _mm256_mul_epu32(_mm256_srli_epi64(z, 32), c));
    }
    // (a * b + 2^31) >> 32 of the uint32 means: a * b <= (2^32 - 1)^2, so the
    // 64-bit sum cannot carry out.
    const __m256i half32 = _mm256_set1_epi64x(0x80000000LL);
    auto product_q16 = [&](__m256i a, __m256i b) {
        const __m256i e = _mm256_add_epi64(mul_even_u32(a, b), half32);
        const __m256i o = _mm256_add_epi64(mul_odd_u32(a, b), half32);
        return join_low_halves(_mm256_srli_epi64(e, 32), _mm256_srli_epi64(o, 32));
    };
    // (sum + 2^15) >> 16, truncated to uint32 like the scalar's cast.
    const __m256i half16 = _mm256_set1_epi64x(32768);
    auto moment_q16 = [&](__m256i e, __m256i o) {
        return join_low_halves(_mm256_srli_epi64(_mm256_add_epi64(e, half16), 16),
                               _mm256_srli_epi64(_mm256_add_epi64(o, half16), 16));
    };
    // uint32 differences read as int32, as the scalar does.
    store8x32(s1 + j, _mm256_sub_epi32(moment_q16(xx_e, xx_o), product_q16(m1, m1)));
    store8x32(s2 + j, _mm256_sub_epi32(moment_q16(yy_e, yy_o), product_q16(m2, m2)));
    store8x32(s12 + j, _mm256_sub_epi32(moment_q16(xy_e, xy_o), product_q16(m1, m2)));
}

void stat_horizontal_general(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                             std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                             std::int32_t* sigma12) {
    const int half = taps / 2;
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8)
        stat_horizontal_step(in, j, filter, taps, sigma1_sq, sigma2_sq, sigma12);
    if (j == w) return;
    // The last columns read [j - half, w + half): copy them into zero-filled
    // rows wide enough for a whole step.
    const int n = static_cast<int>(w - j);
    constexpr int kLen = 8 + 2 * kMaxHalf;
    std::uint32_t rows[5][kLen] = {};
    const std::uint32_t* src[5] = {in.mu1, in.mu2, in.xx, in.yy, in.xy};
    for (int k = 0; k < 5; ++k) copy_first(rows[k], src[k] + j - half, n + 2 * half);
    const VifStatRow staged{rows[0] + half, rows[1] + half, rows[2] + half, rows[3] + half,
                            rows[4] + half};
    std::int32_t o1[8] = {}, o2[8] = {}, o12[8] = {};
    stat_horizontal_step(staged, 0, filter, taps, o1, o2, o12);
    copy_first(sigma1_sq + j, o1, n);
    copy_first(sigma2_sq + j, o2, n);
    copy_first(sigma12 + j, o12, n);
}

// The same statistics with vpmaddwd on 16-bit halves, for filters whose taps
// are all below 32768 and sum to at most 65536 (libvmaf's filters 0-2);
// vif_stats_avx512.cpp derives the method: with x = 2^16 h + l and C the
// sum of the taps, H = sum c h (modulo 2^32) and L = sum c l (exact, below
// 2^32) come from centred 16-bit samples, two taps per vpmaddwd, and
//   mean = (H << 16) + L,   moment = H + ((L + 2^15) >> 16)   (uint32).

constexpr int kHalvesChunk = 256;
// Outputs [0, n16) of a chunk read its split samples [0, n16 + 2 * pairs - 1).
constexpr int kHalvesLen = kHalvesChunk + 2 * kMaxHalf + 16;

struct HalvesRow {
    std::int16_t h[kHalvesLen];
    std::int16_t l[kHalvesLen];
};

inline bool halves_filter_fits(const std::uint16_t* filter, int taps, std::uint32_t* sum) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    *sum = f.sum;
    return f.taps_below_2_15 && f.sum <= 65536;
}

// 8 inputs src[i, i + 8), those at or past `valid` read as 0 (a masked load
// reads nothing there).
inline __m256i load8_masked(const std::uint32_t* src, int i, int valid) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(valid - i), lane);
    return _mm256_maskload_epi32(reinterpret_cast<const int*>(src + i), m);
}

// 16 values below 2^16 (as uint32) packed to 16 centred int16 in order.
inline __m256i centred_pack(__m256i a, __m256i b) {
    const __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), _MM_SHUFFLE(3, 1, 2, 0));
    return _mm256_xor_si256(p, _mm256_set1_epi16(static_cast<short>(0x8000)));
}

// Splits src[0, valid) into centred halves over [0, len) (len a multiple of
// 16). Without `high` only the low halves are written; the result says
// whether every input is below 2^16.
inline bool split_halves(const std::uint32_t* src, int valid, int len, bool high, HalvesRow& out) {
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    __m256i any = _mm256_setzero_si256();
    for (int i = 0; i < len; i += 16) {
        const __m256i a = load8_masked(src, i, valid);
        const __m256i b = load8_masked(src, i + 8, valid);
        store8x32(out.l + i, centred_pack(_mm256_and_si256(a, low16), _mm256_and_si256(b, low16)));
        const __m256i ah = _mm256_srli_epi32(a, 16), bh = _mm256_srli_epi32(b, 16);
        if (high)
            store8x32(out.h + i, centred_pack(ah, bh));
        else
            any = _mm256_or_si256(any, _mm256_or_si256(ah, bh));
    }
    return high || _mm256_testz_si256(any, any);
}

struct EvenOdd {
    __m256i even;  // outputs b, b + 2, ..., b + 14
    __m256i odd;   // outputs b + 1, ..., b + 15
};
inline EvenOdd filter_halves(const std::int16_t* y, const __m256i* cc, int pairs) {
    __m256i e = _mm256_setzero_si256(), o = e;
    for (int p = 0; p < pairs; ++p) {
        e = _mm256_add_epi32(e, _mm256_madd_epi16(load8x32(y + 2 * p), cc[p]));
        o = _mm256_add_epi32(o, _mm256_madd_epi16(load8x32(y + 2 * p + 1), cc[p]));
    }
    return {e, o};
}

// (a * b + 2^31) >> 32 per uint32 lane.
inline __m256i product_q16_u32(__m256i a, __m256i b) {
    const __m256i half32 = _mm256_set1_epi64x(0x80000000LL);
    const __m256i e = _mm256_add_epi64(mul_even_u32(a, b), half32);
    const __m256i o = _mm256_add_epi64(mul_odd_u32(a, b), half32);
    return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA);
}

// The statistics of a block of 16 outputs from its filtered means and
// moments (even and odd outputs): sigma = moment - (mean * mean' + 2^31) >>
// 32, uint32 differences read as int32, as the scalar's, interleaved back
// into column order; the first n (all from 16 up) stored from index at.
[[gnu::always_inline]] inline void store_sigmas(const EvenOdd mean[2], const EvenOdd moment[3],
                                                std::ptrdiff_t at, int n, std::int32_t* sigma1_sq,
                                                std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    auto sigma = [&](std::int32_t* dst, const EvenOdd& m, __m256i pe, __m256i po) {
        const __m256i e = _mm256_sub_epi32(m.even, pe);
        const __m256i o = _mm256_sub_epi32(m.odd, po);
        const __m256i lo = _mm256_unpacklo_epi32(e, o), hi = _mm256_unpackhi_epi32(e, o);
        alignas(32) std::int32_t v[16];
        std::int32_t* out = n >= 16 ? dst + at : v;
        store8x32(out, _mm256_permute2x128_si256(lo, hi, 0x20));
        store8x32(out + 8, _mm256_permute2x128_si256(lo, hi, 0x31));
        if (n < 16) copy_first(dst + at, v, n);
    };
    sigma(sigma1_sq, moment[0], product_q16_u32(mean[0].even, mean[0].even),
          product_q16_u32(mean[0].odd, mean[0].odd));
    sigma(sigma2_sq, moment[1], product_q16_u32(mean[1].even, mean[1].even),
          product_q16_u32(mean[1].odd, mean[1].odd));
    sigma(sigma12, moment[2], product_q16_u32(mean[0].even, mean[1].even),
          product_q16_u32(mean[0].odd, mean[1].odd));
}

void stat_horizontal_halves(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                            std::uint32_t taps_sum, std::int32_t* sigma1_sq,
                            std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    const int half = taps / 2;
    const int pairs = (taps + 1) / 2;
    __m256i cc[(kMaxTaps + 1) / 2];
    for (int p = 0; p < pairs; ++p) {
        const std::uint32_t c0 = filter[2 * p];
        const std::uint32_t c1 = 2 * p + 1 < taps ? filter[2 * p + 1] : 0u;
        cc[p] = _mm256_set1_epi32(static_cast<int>(c0 | (c1 << 16)));
    }
    // 32768 C: the centring's correction of H and L, modulo 2^32.
    const __m256i bias = _mm256_set1_epi32(static_cast<int>(32768u * taps_sum));
    const __m256i round16 = _mm256_set1_epi32(32768);
    const std::uint32_t* src[5] = {in.mu1, in.mu2, in.xx, in.yy, in.xy};
    HalvesRow rows[5];
    for (std::ptrdiff_t j0 = 0; j0 < w; j0 += kHalvesChunk) {
        const int n = static_cast<int>(w - j0 < kHalvesChunk ? w - j0 : kHalvesChunk);
        const int n16 = (n + 15) & ~15;
        const int len = (n16 + 2 * pairs + 15) & ~15;
        const int valid = n + 2 * half;
        // Means below 2^16 (always, from the extractor) have H = 0.
        bool means_16bit = true;
        for (int k = 0; k < 2; ++k)
            means_16bit =
                split_halves(src[k] + j0 - half, valid, len, false, rows[k]) && means_16bit;
        if (!means_16bit)
            for (int k = 0; k < 2; ++k) split_halves(src[k] + j0 - half, valid, len, true, rows[k]);
        for (int k = 2; k < 5; ++k) split_halves(src[k] + j0 - half, valid, len, true, rows[k]);
        for (int b = 0; b < n16; b += 16) {
            EvenOdd mean[2], moment[3];
            for (int k = 0; k < 2; ++k) {
                const EvenOdd l = filter_halves(rows[k].l + b, cc, pairs);
                mean[k] = {_mm256_add_epi32(l.even, bias), _mm256_add_epi32(l.odd, bias)};
                if (!means_16bit) {
                    const EvenOdd h = filter_halves(rows[k].h + b, cc, pairs);
                    mean[k].even = _mm256_add_epi32(
                        mean[k].even, _mm256_slli_epi32(_mm256_add_epi32(h.even, bias), 16));
                    mean[k].odd = _mm256_add_epi32(
                        mean[k].odd, _mm256_slli_epi32(_mm256_add_epi32(h.odd, bias), 16));
                }
            }
            for (int k = 0; k < 3; ++k) {
                const EvenOdd l = filter_halves(rows[2 + k].l + b, cc, pairs);
                const EvenOdd h = filter_halves(rows[2 + k].h + b, cc, pairs);
                auto combine = [&](__m256i hs, __m256i ls) {
                    const __m256i low = _mm256_add_epi32(_mm256_add_epi32(ls, bias), round16);
                    return _mm256_add_epi32(_mm256_add_epi32(hs, bias), _mm256_srli_epi32(low, 16));
                };
                moment[k] = {combine(h.even, l.even), combine(h.odd, l.odd)};
            }
            store_sigmas(mean, moment, j0 + b, n - b, sigma1_sq, sigma2_sq, sigma12);
        }
    }
}

void stat_horizontal_avx2(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                          std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    std::uint32_t taps_sum = 0;
    if (halves_filter_fits(filter, taps, &taps_sum))
        stat_horizontal_halves(in, filter, taps, w, taps_sum, sigma1_sq, sigma2_sq, sigma12);
    else
        stat_horizontal_general(in, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
}

// ---------------------------------------------------------------------------
// Information terms.
//
// Every log2 argument is an integer in [2^17, 2^53), held exactly in a double
// (or, below 2^32, in a uint32: nsq + sigma1_sq). log2_q11(v) keeps v's 16
// leading bits as the table index and adds 2048 per dropped bit; for a
// double those bits are the implicit 1 and the 15 leading mantissa bits, and
// the number of dropped bits is the exponent minus 15.
//
// As in vif_avx512.cpp, every sum the kernel returns is a sum of such logs,
// so the table entries and the dropped bits are summed apart: the vector
// code adds the dropped-bit counts per lane and stores a step's table
// indices, and the next step sums their entries with scalar loads (which
// overlap with that step's vector work). A lane that takes no log has
// argument nsq = 2^17: index 0 and 2 dropped bits, for nsq + sigma1_sq
// taken off at the end (per lane looked up and not in the log branch). For
// numer1 and numer1_tmp a lane that needs no gain term gets sigma1_sq = 0,
// so its product g * g * 0 is 0 and numer1_tmp = numer1 bit for bit: their
// entries and dropped bits cancel with no mask.
//
// Why scalar loads and not vpgatherdd: on the 2-core Sapphire Rapids VM,
// three gathers a step ran the kernel in 3220 ns against 3470 for the scalar
// loads (checkasm --bench vif_accumulate_avx2, 1920 realistic columns,
// before the other changes of that commit), about 1% of VIF. But this is
// the AVX2 level, whose users are mostly on CPUs where a gather costs more
// than its eight loads: on AMD Zen 3 a ymm vpgatherdd is 39 uops, one per 8
// cycles (uops.info; Skylake: 5 uops, one per 5), against about 3 cycles
// for 8 scalar loads at 3 a cycle, and Intel's GDS ("Downfall") microcode
// slows every gather several-fold on Skylake to Tiger Lake. Re-measured
// after the other changes: 3320-3460 ns with the loads, 3100-3200 with
// gathers; a 1% gain of VIF on one machine does not pay for that risk.

struct LogParts {
    __m256i index;    // v's 16 leading bits - 2^15
    __m256i dropped;  // bits below them
};
// Of 8 uint32 in [2^15, 2^32). The float of v >> 8 (< 2^24, exact) has
// exponent bitlength(v) - 9; v keeps bitlength(v) - 16 dropped bits.
inline LogParts log_parts_u32(__m256i v) {
    const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 8));
    const __m256i dropped =
        _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f), 23), _mm256_set1_epi32(127 + 7));
    return {_mm256_sub_epi32(_mm256_srlv_epi32(v, dropped), _mm256_set1_epi32(32768)), dropped};
}

// Table indices of 8 lanes, each in [0, 2^15).
struct Indices8 {
    alignas(32) std::uint32_t v[8];
};

// Sum of the table entries of 8 indices, with scalar loads in two chains.
inline std::int64_t sum_entries8(const std::uint16_t* table, const std::uint32_t* idx) {
    std::int64_t a = 0, b = 0;
    for (int i = 0; i < 8; i += 2) {
        a += table[idx[i]];
        b += table[idx[i + 1]];
    }
    return a + b;
}

// Per 32-bit lane, a step adds at most 16 to dropped_den (its argument is
// below 2^32), 1 to non_log and at most 37 - 2 to dropped_num (numer1_tmp
// < 2^53 drops at most 37 bits, numer1 >= 2^17 at least 2; numer1_tmp >=
// numer1, so never below 0): flushed once kFlushSteps steps have passed (at
// most kFlushSteps + kChunkSteps - 1 steps) they stay far
// below 2^31.
struct AccumulateLanes {
    __m256i num_non_log = _mm256_setzero_si256();  // 4 x int64
    __m256i non_log = _mm256_setzero_si256();      // 8 x int32: minus the count
    __m256i dropped_den = _mm256_setzero_si256();  // 8 x int32, every lane looked up
    __m256i dropped_num = _mm256_setzero_si256();  // 8 x int32: numer1_tmp's minus numer1's
};
constexpr int kFlushSteps = 4096;

inline __m256i widen_lo(__m256i v) { return _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)); }
inline __m256i widen_hi(__m256i v) { return _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)); }
std::int64_t sum_i64(__m256i v) {
    alignas(32) std::int64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), v);
    return l[0] + l[1] + l[2] + l[3];
}
// Sums the lanes of v into *total and zeroes v.
inline void flush_i32(__m256i& v, std::int64_t* total) {
    *total += sum_i64(_mm256_add_epi64(widen_lo(v), widen_hi(v)));
    v = _mm256_setzero_si256();
}

struct AccumulateTotals {
    std::int64_t entries_den = 0, entries_num = 0, dropped_den = 0, dropped_num = 0;
    std::int64_t minus_non_log = 0;

    void flush(AccumulateLanes& acc) {
        flush_i32(acc.dropped_den, &dropped_den);
        flush_i32(acc.dropped_num, &dropped_num);
        flush_i32(acc.non_log, &minus_non_log);
    }
    void add_den(const std::uint16_t* table, const Indices8& den) {
        entries_den += sum_entries8(table, den.v);
    }
    void add_num(const std::uint16_t* table, const Indices8& n1, const Indices8& tmp) {
        entries_num += sum_entries8(table, tmp.v) - sum_entries8(table, n1.v);
    }
};

// vif_gain.hpp's lanes: 4 doubles.
struct GainLanes {
    VMAFPP_X86_DOUBLE_LANES(__m256d, _mm256, d)
    static D min(D a, D b) { return _mm256_min_pd(a, b); }
    static D max(D a, D b) { return _mm256_max_pd(a, b); }
    static D trunc(D a) { return _mm256_round_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
};

// 8 uint32 lanes as exact doubles, pixels 0, 1, 4, 5 (lo) and 2, 3, 6, 7
// (hi): the bits 0x43300000:v are the double 2^52 + v. Two shuffles and
// two subtractions where vcvtdq2pd took two uops a half and an extract.
struct DoubleHalves {
    __m256d lo, hi;
};
inline DoubleHalves to_doubles_u32(__m256i v) {
    const __m256i exponent = _mm256_set1_epi32(0x43300000);
    const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
    return {_mm256_sub_pd(_mm256_castsi256_pd(_mm256_unpacklo_epi32(v, exponent)), two52),
            _mm256_sub_pd(_mm256_castsi256_pd(_mm256_unpackhi_epi32(v, exponent)), two52)};
}

// The gain branch's doubles of 4 pixels (gain_numbers) as their bits
// 37..63 in the low dwords of the 64-bit lanes: 15 mantissa bits below
// the biased exponent.
struct GainHalf {
    __m256i numer1_top;
    __m256i tmp_top;
};
inline GainHalf gain_half(__m256d s1, __m256d s2, __m256d s12, __m256d gain_limit) {
    const GainNumbers<GainLanes> n = gain_numbers<GainLanes>(s1, s2, s12, gain_limit);
    return {_mm256_srli_epi64(_mm256_castpd_si256(n.numer1), 37),
            _mm256_srli_epi64(_mm256_castpd_si256(n.numer1_tmp), 37)};
}

// The low dwords of the 64-bit lanes of lo and hi, in pixel order 0-7 for
// to_doubles_u32's halves.
inline __m256i low_dwords(__m256i lo, __m256i hi) {
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi),
                                                 _MM_SHUFFLE(2, 0, 2, 0)));
}

// The gain terms of 8 pixels whose s1 lanes are sigma1_sq where the pixel
// needs them (the log branch with sigma12 > 0 and sigma2_sq > 0) and 0
// elsewhere: the doubles 4 lanes at a time, the indices of numer1 and
// numer1_tmp stored, their dropped bits summed. A lane with s1 = 0 has
// numer1_tmp = numer1 (module comment): its entries and dropped bits
// cancel. Its other doubles are finite: s2 and s12 are read as uint32
// (in a needed lane both are positive, so that is their value), g_raw =
// s12 / eps >= 0 and g <= gain limit, so g * g is finite and the product
// exactly 0; g_raw * s12 >= 0 keeps sv below s2.
inline void gain_terms(__m256i s1, __m256i s2, __m256i s12, __m256d gain_limit,
                       AccumulateLanes& acc, Indices8& n1_idx, Indices8& tmp_idx) {
    const DoubleHalves d1 = to_doubles_u32(s1), d2 = to_doubles_u32(s2),
                       d12 = to_doubles_u32(s12);
    const GainHalf lo = gain_half(d1.lo, d2.lo, d12.lo, gain_limit);
    const GainHalf hi = gain_half(d1.hi, d2.hi, d12.hi, gain_limit);
    const __m256i n1 = low_dwords(lo.numer1_top, hi.numer1_top);
    const __m256i tmp = low_dwords(lo.tmp_top, hi.tmp_top);
    const __m256i mantissa = _mm256_set1_epi32(0x7FFF);
    _mm256_store_si256(reinterpret_cast<__m256i*>(n1_idx.v), _mm256_and_si256(n1, mantissa));
    _mm256_store_si256(reinterpret_cast<__m256i*>(tmp_idx.v), _mm256_and_si256(tmp, mantissa));
    // The biased exponents' difference is the dropped bits' (the sign bits
    // are 0).
    acc.dropped_num = _mm256_add_epi32(
        acc.dropped_num, _mm256_sub_epi32(_mm256_srli_epi32(tmp, 15), _mm256_srli_epi32(n1, 15)));
}

// The steps of a chunk that need gain terms, queued by log_step: s1 (0
// in the lanes that need none), s2 and s12 of each, in step order.
constexpr int kChunkSteps = 128;
struct GainQueue {
    __m256i s[kChunkSteps][3];
};

// The first pass over a step: the non-log sums, the denominator's log
// parts, and the step queued at q.s[count] (always written; the return
// value says whether it needs gain terms, so the caller keeps it).
inline bool log_step(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                     const std::int32_t* sigma12, __m256i valid, AccumulateLanes& acc,
                     Indices8& den_idx, __m256i* queued) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i nsq = _mm256_set1_epi32(kSigmaNsq);
    const __m256i s1 = load8x32(sigma1_sq);
    const __m256i s2 = _mm256_max_epi32(load8x32(sigma2_sq), zero);
    const __m256i s12 = load8x32(sigma12);
    const __m256i low = _mm256_and_si256(_mm256_cmpgt_epi32(nsq, s1), valid);
    const __m256i in_log = _mm256_andnot_si256(low, valid);

    // sigma1_sq < nsq: sigma2_sq (>= 0, so zero-extended) and a count.
    const __m256i s2_low = _mm256_and_si256(s2, low);
    acc.num_non_log = _mm256_add_epi64(
        acc.num_non_log,
        _mm256_add_epi64(_mm256_unpacklo_epi32(s2_low, zero), _mm256_unpackhi_epi32(s2_low, zero)));
    acc.non_log = _mm256_add_epi32(acc.non_log, low);

    // Otherwise log2(nsq + sigma1_sq) (nsq + s1 < 2^32), nsq elsewhere.
    const LogParts den = log_parts_u32(_mm256_add_epi32(nsq, _mm256_and_si256(s1, in_log)));
    _mm256_store_si256(reinterpret_cast<__m256i*>(den_idx.v), den.index);
    acc.dropped_den = _mm256_add_epi32(acc.dropped_den, den.dropped);

    const __m256i need = _mm256_and_si256(
        in_log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
    _mm256_store_si256(queued, _mm256_and_si256(s1, need));
    _mm256_store_si256(queued + 1, s2);
    _mm256_store_si256(queued + 2, s12);
    return !_mm256_testz_si256(need, need);
}

// The second pass: the gain terms of the queued steps, their table entries
// summed one step behind.
inline void gain_pass(const GainQueue& q, int count, __m256d gain_limit,
                      const std::uint16_t* table, AccumulateLanes& acc, AccumulateTotals& tot) {
    Indices8 n1[2], tmp[2];
    for (int k = 0; k < count; ++k) {
        gain_terms(q.s[k][0], q.s[k][1], q.s[k][2], gain_limit, acc, n1[k & 1], tmp[k & 1]);
        if (k > 0) tot.add_num(table, n1[(k - 1) & 1], tmp[(k - 1) & 1]);
    }
    if (count > 0) tot.add_num(table, n1[(count - 1) & 1], tmp[(count - 1) & 1]);
}

// Steps [0, steps) of 8 columns from the row's column j (steps <=
// kChunkSteps, all valid): the first pass over all, then the gain terms of
// those that need them. Queueing them, rather than branching to them step
// by step, keeps the loops free of a branch taken in an unpredictable ~45%
// of the steps of a picture like the 30-frame 1080p clip (76% of the lanes
// of those steps need the terms, so queueing lanes rather than steps would
// save little). The gain terms computed in every step, with neither branch
// nor queue, took VIF from 0.673 to 0.702 s CPU (an earlier measurement).
inline void accumulate_chunk(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                             const std::int32_t* sigma12, int steps, __m256d gain_limit,
                             const std::uint16_t* table, GainQueue& q, AccumulateLanes& acc,
                             AccumulateTotals& tot) {
    const __m256i all = _mm256_set1_epi32(-1);
    Indices8 den[2];
    int count = 0;
    for (int k = 0; k < steps; ++k) {
        const std::ptrdiff_t j = 8 * std::ptrdiff_t{k};
        count += log_step(sigma1_sq + j, sigma2_sq + j, sigma12 + j, all, acc, den[k & 1],
                          q.s[count]);
        if (k > 0) tot.add_den(table, den[(k - 1) & 1]);
    }
    if (steps > 0) tot.add_den(table, den[(steps - 1) & 1]);
    gain_pass(q, count, gain_limit, table, acc, tot);
}

void accumulate_avx2(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                     const std::int32_t* sigma12, int w, const std::uint16_t* log2_q11_table,
                     double gain_limit, VifSums* sums) {
    // Beyond |g| <= 1024 the gain product may not be exact in a double: the
    // scalar's int64 arithmetic is the reference there (and never reached
    // from the extractor, whose limit is at most 100).
    if (!(std::fabs(gain_limit) <= 1024.0)) {
        vif_accumulate(sigma1_sq, sigma2_sq, sigma12, w, log2_q11_table, gain_limit, sums);
        return;
    }
    const __m256d gl = _mm256_set1_pd(gain_limit);
    AccumulateLanes acc;
    AccumulateTotals tot;
    GainQueue q;
    const int whole_steps = w / 8;
    int since_flush = 0;
    for (int k0 = 0; k0 < whole_steps; k0 += kChunkSteps) {
        const int steps = whole_steps - k0 < kChunkSteps ? whole_steps - k0 : kChunkSteps;
        const std::ptrdiff_t j = 8 * std::ptrdiff_t{k0};
        accumulate_chunk(sigma1_sq + j, sigma2_sq + j, sigma12 + j, steps, gl, log2_q11_table, q,
                         acc, tot);
        since_flush += steps;
        if (since_flush >= kFlushSteps) {
            tot.flush(acc);
            since_flush = 0;
        }
    }
    std::int64_t lookups = 8 * std::int64_t{whole_steps};
    const std::ptrdiff_t j = 8 * std::ptrdiff_t{whole_steps};
    if (j < w) {
        // The last columns, copied after zeros' room: lanes past w are
        // invalid (no log, no non-log pixel).
        const int n = static_cast<int>(w - j);
        std::int32_t a[8] = {}, b[8] = {}, c[8] = {};
        copy_first(a, sigma1_sq + j, n);
        copy_first(b, sigma2_sq + j, n);
        copy_first(c, sigma12 + j, n);
        const __m256i valid =
            _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        Indices8 den;
        const int count = log_step(a, b, c, valid, acc, den, q.s[0]) ? 1 : 0;
        tot.add_den(log2_q11_table, den);
        gain_pass(q, count, gl, log2_q11_table, acc, tot);
        lookups += 8;
    }
    tot.flush(acc);
    // log2_q11 = entry + 2048 * dropped. Every looked-up lane that takes no
    // log (non-log pixels, lanes past w) read entry 0 and 2 dropped bits.
    const std::int64_t non_log = -tot.minus_non_log;
    const std::int64_t log_pixels = std::int64_t{w} - non_log;
    const std::int64_t nsq_lanes = lookups - log_pixels;
    sums->num_log += tot.entries_num + 2048 * tot.dropped_num;
    sums->den_log += tot.entries_den - std::int64_t{log2_q11_table[0]} * nsq_lanes +
                     2048 * (tot.dropped_den - 2 * nsq_lanes) - 2048 * 17 * log_pixels;
    sums->num_non_log += sum_i64(acc.num_non_log);
    sums->den_non_log += non_log;
}

// ---------------------------------------------------------------------------
// Reduction filter, vertical pass: 8 columns per step.

template <class T>
inline __m256i widen8(const T* p) {
    if constexpr (sizeof(T) == 1)
        return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
    else
        return _mm256_cvtepu16_epi32(load16x8(p));
}

template <class T>
inline void subsample_vertical_step(const T* const* ref_rows, const T* const* dis_rows,
                                    std::ptrdiff_t j, const std::uint16_t* filter, int taps,
                                    __m128i shift, __m256i round, std::uint32_t* ref_out,
                                    std::uint32_t* dis_out) {
    __m256i sr = _mm256_setzero_si256(), sd = sr;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi32(filter[t]);
        sr = _mm256_add_epi32(sr, _mm256_mullo_epi32(c, widen8(ref_rows[t] + j)));
        sd = _mm256_add_epi32(sd, _mm256_mullo_epi32(c, widen8(dis_rows[t] + j)));
    }
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    store8x32(ref_out + j,
              _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(sr, round), shift), low16));
    store8x32(dis_out + j,
              _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(sd, round), shift), low16));
}

// 16-bit samples, 16 columns a step: each c * v (< 2^32) from vpmullw and
// vpmulhuw (add_products_u16), for any uint16 tap, where the 8-column step
// above spends a two-uop vpmulld and a widening per tap and image.
inline void subsample_vertical_u16_step(const std::uint16_t* const* ref_rows,
                                        const std::uint16_t* const* dis_rows, std::ptrdiff_t j,
                                        const std::uint16_t* filter, int taps, __m128i shift,
                                        __m256i round, std::uint32_t* ref_out,
                                        std::uint32_t* dis_out) {
    __m256i r_lo = _mm256_setzero_si256(), r_hi = r_lo, d_lo = r_lo, d_hi = r_lo;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi16(static_cast<short>(filter[t]));
        add_products_u16(c, load8x32(ref_rows[t] + j), r_lo, r_hi);
        add_products_u16(c, load8x32(dis_rows[t] + j), d_lo, d_hi);
    }
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    auto out = [&](__m256i v) {
        return _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(v, round), shift), low16);
    };
    store8x32(ref_out + j, out(natural_order_first(r_lo, r_hi)));
    store8x32(ref_out + j + 8, out(natural_order_second(r_lo, r_hi)));
    store8x32(dis_out + j, out(natural_order_first(d_lo, d_hi)));
    store8x32(dis_out + j + 8, out(natural_order_second(d_lo, d_hi)));
}

template <class T>
void subsample_vertical_avx2(const T* const* ref_rows, const T* const* dis_rows,
                             const std::uint16_t* filter, int taps, int w, int shift,
                             std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m256i rnd = _mm256_set1_epi32(static_cast<int>(round_for(shift)));
    // Whole steps of kLanes columns, then the last columns through TailRows.
    auto columns = [&]<int kLanes>(auto step) {
        std::ptrdiff_t j = 0;
        for (; j + kLanes <= w; j += kLanes)
            step(ref_rows, dis_rows, j, filter, taps, sh, rnd, ref_out, dis_out);
        if (j == w) return;
        const int n = static_cast<int>(w - j);
        const TailRows<T, kLanes, kMaxTaps> tail(ref_rows, dis_rows, taps, j, n);
        std::uint32_t r[kLanes] = {}, d[kLanes] = {};
        step(tail.a_ptr, tail.b_ptr, 0, filter, taps, sh, rnd, r, d);
        copy_first(ref_out + j, r, n);
        copy_first(dis_out + j, d, n);
    };
    // 16-bit samples: 16 columns a step (vpmullw / vpmulhuw); 8-bit: 8.
    if constexpr (sizeof(T) == 2)
        columns.template operator()<16>([](auto... a) { subsample_vertical_u16_step(a...); });
    else
        columns.template operator()<8>([](auto... a) { subsample_vertical_step(a...); });
}

// ---------------------------------------------------------------------------
// Reduction filter, horizontal pass at the even columns: 8 outputs per step.

// in[2j + d] for 8 consecutive j, from two loads of 8 consecutive samples.
inline __m256i even_samples(const std::uint32_t* p) {
    const __m256 a = _mm256_castsi256_ps(load8x32(p));
    const __m256 b = _mm256_castsi256_ps(load8x32(p + 8));
    // Per 128-bit half: a0 a2 b0 b2 | a4 a6 b4 b6; then reorder the 64-bit pairs.
    const __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(e), _MM_SHUFFLE(3, 1, 2, 0));
}

inline void subsample_horizontal_step(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                                      std::ptrdiff_t j, const std::uint16_t* filter, int taps,
                                      std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const int half = taps / 2;
    __m256i sr = _mm256_setzero_si256(), sd = sr;
    for (int t = 0; t < taps; ++t) {
        const __m256i c = _mm256_set1_epi32(filter[t]);
        const std::ptrdiff_t o = 2 * j + t - half;
        sr = _mm256_add_epi32(sr, _mm256_mullo_epi32(c, even_samples(ref_in + o)));
        sd = _mm256_add_epi32(sd, _mm256_mullo_epi32(c, even_samples(dis_in + o)));
    }
    // (sum + 2^15) >> 16 wrapping in uint32, then the scalar's uint16 cast.
    const __m256i rnd = _mm256_set1_epi32(32768);
    const __m256i r = _mm256_srli_epi32(_mm256_add_epi32(sr, rnd), 16);
    const __m256i d = _mm256_srli_epi32(_mm256_add_epi32(sd, rnd), 16);
    // The values are below 2^16: an unsigned pack keeps them as they are.
    const __m256i packed =
        _mm256_permute4x64_epi64(_mm256_packus_epi32(r, d), _MM_SHUFFLE(3, 1, 2, 0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ref_out + j), _mm256_castsi256_si128(packed));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dis_out + j), _mm256_extracti128_si256(packed, 1));
}

void subsample_horizontal_general(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                                  const std::uint16_t* filter, int taps, int out_w,
                                  std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const int half = taps / 2;
    // A step at j loads in[2j - half, 2j - half + 16 + taps - 1); the row
    // ends at in[2 * (out_w - 1) + half], so full steps stop one early.
    std::ptrdiff_t j = 0;
    for (; j + 8 < out_w; j += 8)
        subsample_horizontal_step(ref_in, dis_in, j, filter, taps, ref_out, dis_out);
    const int n = static_cast<int>(out_w - j);
    if (n <= 0) return;
    constexpr int kLen = 16 + 2 * kMaxHalf + 1;
    std::uint32_t r[kLen] = {}, d[kLen] = {};
    const int len = 2 * (n - 1) + 2 * half + 1;
    copy_first(r, ref_in + 2 * j - half, len);
    copy_first(d, dis_in + 2 * j - half, len);
    std::uint16_t ro[8] = {}, dout[8] = {};
    subsample_horizontal_step(r + half, d + half, 0, filter, taps, ro, dout);
    copy_first(ref_out + j, ro, n);
    copy_first(dis_out + j, dout, n);
}

// Taps below 2^15 and samples below 2^16 (the extractor's reductions), as
// vif_avx512.cpp does it: a block's samples are staged as int16 v - 2^15,
// whose dword lane k of the window at 2k + 2p (from the block's first
// output's sample 2j - half) holds the pair (2p, 2p + 1) of output j + k,
// so one vpmaddwd takes two taps of 8 outputs. A pair's sum is below 2^31
// in magnitude (two products of |v - 2^15| <= 2^15 and a tap < 2^15), and
// 2^15 * (sum of the taps) comes back modulo 2^32, where the scalar's uint32
// sum wraps too. The general path costs 9 x 32-bit multiplies (2 uops each)
// and two shuffles per tap; this one 5 multiply-adds for 9 taps.
constexpr int kPairBlock = 256;  // outputs per staged block
// A block's 2 * 256 - 1 + 2 * half staged samples, rounded up to whole
// vectors, and the last step's two loads of 16 past its first output.
constexpr int kStageLen = 2 * kPairBlock + 2 * kMaxHalf + 32;

// Stages in[0, len) as int16 v - 2^15; false if a sample is 2^16 or more
// (vpackusdw would saturate it).
inline bool stage_biased(const std::uint32_t* in, int len, std::int16_t* dst) {
    __m256i any = _mm256_setzero_si256();
    for (int i = 0; i < len; i += 16) {
        const __m256i a = i + 8 <= len ? load8x32(in + i) : load8_masked(in, i, len);
        const __m256i b = i + 16 <= len ? load8x32(in + i + 8) : load8_masked(in, i + 8, len);
        any = _mm256_or_si256(any, _mm256_or_si256(a, b));
        store8x32(dst + i, centred_pack(a, b));
    }
    return _mm256_testz_si256(any, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u)));
}

template <int kP, int kCount>
[[gnu::always_inline]] inline void add_pair_windows(__m256i a, __m256i mid, __m256i b,
                                                    const __m256i* pairs, __m256i& acc) {
    if constexpr (kP < kCount) {
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(window_at<kP>(a, mid, b), pairs[kP]));
        add_pair_windows<kP + 1, kCount>(a, mid, b, pairs, acc);
    }
}

// (sum + 2^15) >> 16 of 8 outputs from staged samples s (32-byte aligned,
// at the first output's 2j - half); offset = 2^15 * (sum of taps) + 2^15.
// The shifted sums are below 2^16: the scalar's uint16 cast keeps them.
template <int kCount>
[[gnu::always_inline]] inline __m256i pair_outputs(const std::int16_t* s, const __m256i* pairs,
                                                   __m256i offset) {
    const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(s));
    const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(s + 16));
    const __m256i mid = _mm256_permute2x128_si256(a, b, 0x21);
    __m256i acc = offset;
    add_pair_windows<0, kCount>(a, mid, b, pairs, acc);
    return _mm256_srli_epi32(acc, 16);
}

// The outputs [0, n) of one staged block (kCount tap pairs).
template <int kCount>
void pair_block(const std::int16_t* ref_s, const std::int16_t* dis_s, const __m256i* pairs,
                __m256i offset, int n, std::uint16_t* ref_out, std::uint16_t* dis_out) {
    for (int k = 0; k < n; k += 8) {
        const __m256i r = pair_outputs<kCount>(ref_s + 2 * k, pairs, offset);
        const __m256i d = pair_outputs<kCount>(dis_s + 2 * k, pairs, offset);
        // Values below 2^16: an unsigned pack keeps them.
        const __m256i packed =
            _mm256_permute4x64_epi64(_mm256_packus_epi32(r, d), _MM_SHUFFLE(3, 1, 2, 0));
        alignas(16) std::uint16_t ro[8], dout[8];
        const bool whole = k + 8 <= n;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(whole ? ref_out + k : ro),
                         _mm256_castsi256_si128(packed));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(whole ? dis_out + k : dout),
                         _mm256_extracti128_si256(packed, 1));
        if (!whole) {
            copy_first(ref_out + k, ro, n - k);
            copy_first(dis_out + k, dout, n - k);
        }
    }
}

// pair_block<count> for a run-time count of tap pairs, 1 to kMaxHalf + 1.
template <int kCount = 1>
void pair_block_of(int count, const std::int16_t* ref_s, const std::int16_t* dis_s,
                   const __m256i* pairs, __m256i offset, int n, std::uint16_t* ref_out,
                   std::uint16_t* dis_out) {
    if constexpr (kCount < kMaxHalf + 1)
        if (count > kCount)
            return pair_block_of<kCount + 1>(count, ref_s, dis_s, pairs, offset, n, ref_out,
                                             dis_out);
    pair_block<kCount>(ref_s, dis_s, pairs, offset, n, ref_out, dis_out);
}

void subsample_horizontal_avx2(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                               const std::uint16_t* filter, int taps, int out_w,
                               std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const VifFilterShape shape = vif_filter_shape(filter, taps);
    if (!shape.taps_below_2_15) {
        subsample_horizontal_general(ref_in, dis_in, filter, taps, out_w, ref_out, dis_out);
        return;
    }
    const int half = taps / 2;
    const int count = (taps + 1) / 2;
    __m256i pairs[kMaxHalf + 1];
    for (int p = 0; p < count; ++p) pairs[p] = _mm256_set1_epi32(static_cast<int>(shape.pairs[p]));
    const __m256i offset = _mm256_set1_epi32(static_cast<int>((shape.sum << 15) + 32768u));
    alignas(64) std::int16_t ref_s[kStageLen] = {};
    alignas(64) std::int16_t dis_s[kStageLen] = {};
    for (std::ptrdiff_t j0 = 0; j0 < out_w; j0 += kPairBlock) {
        const int n = static_cast<int>(out_w - j0 < kPairBlock ? out_w - j0 : kPairBlock);
        // Outputs [j0, j0 + n) read in[2 * j0 - half, 2 * (j0 + n - 1) + half].
        const int len = 2 * n - 1 + 2 * half;
        const bool ref_small = stage_biased(ref_in + 2 * j0 - half, len, ref_s);
        const bool dis_small = stage_biased(dis_in + 2 * j0 - half, len, dis_s);
        std::uint16_t* ro = ref_out + j0;
        std::uint16_t* dout = dis_out + j0;
        if (!ref_small || !dis_small) {
            subsample_horizontal_general(ref_in + 2 * j0, dis_in + 2 * j0, filter, taps, n, ro,
                                         dout);
            continue;
        }
        pair_block_of(count, ref_s, dis_s, pairs, offset, n, ro, dout);
    }
}

// ---------------------------------------------------------------------------
// Fused statistics rows (vif_stat_row_u8, vif_stat_row_u16), the AVX2 form
// of vif_stats_avx512.cpp's: the vertical step's five uint32 results go
// straight into full-row arrays of centred 16-bit halves (x ^ 0x80008000,
// then the low and the high half, what split_halves makes of a uint32 row),
// whose index 0 is column -half; the mirror is copied inside those arrays
// and the horizontal blocks read them. No uint32 row is stored, padded and
// split again. The fast path needs every tap below 2^15 and a tap sum
// C <= 65536 (pair_filter_fits), which both passes' vpmaddwd arguments
// need; the means are then below 2^16 (8-bit: (65536 * 255 + 128) >> 8 =
// 65280; 16-bit: cast to uint16 as the scalar's), so their high halves (0)
// are neither stored nor read.

inline bool pair_filter_fits(const VifFilterShape& f) {
    return f.taps_below_2_15 && f.sum <= 65536;
}

// Five uint32 results of an 8-column step, in column order. Eight columns,
// not sixteen: the 8-bit step keeps 5 accumulators (7 with the fused
// reduction) and the 16-bit one 8, which fit AVX2's 16 registers with the
// operands; sixteen columns (two of each) spilled to the stack every tap
// pair.
struct VerticalSums {
    __m256i v[5];
};

// The scale's reduction fused into the 8-bit vertical step (as in
// vif_stats_avx512.cpp): its rows start at an even offset into the
// statistics rows, so its tap pairs ride on the statistics' pairs first ..
// first + count - 1 and reuse their centred samples. Its sums start at
// 128 C_r (undoing the centring) plus the rounding, so (sum >> shift) &
// 0xFFFF is the scalar's uint16 output; c < 2^15 keeps vpmaddwd exact (a
// pair sum of 32767 * 128 products is below 2^24), and the sums wrap
// modulo 2^32 as the scalar's uint32 ones.
struct ReduceTaps {
    const std::uint32_t* pairs;
    int first;
    int count;
    __m256i start;
};
struct ReduceSums {
    __m256i ref, dis;
};

// Rows p and q of 8 columns minus 128, interleaved as int16 pairs in column
// order (dword k holds column k of both): p ^ 0x80 is p - 128 as a signed
// byte, interleaved bytewise and sign-extended once.
// (Each row pair is prepared again by every output row that reads it, 9 of
// them; keeping prepared pairs across rows would need per-frame state in
// the kernel contract. Its upper bound, measured by replacing this with one
// plain 32-byte load (wrong values, timing only): -n --feature vif at AVX2
// on the 30-frame 1080p clip 0.645 -> 0.625 s CPU, about 2% of the default
// model before a cache's own loads and bookkeeping: not pursued. Nor two
// output rows a call, each centred pair and its three products shared, the
// second row taking the taps shifted by one as the horizontal pass's odd
// outputs do: in a standalone test of the 17-tap vertical sums (no
// reduction, 1920 columns, this VM) 10.0 us a pair of rows against 8.5 for
// two single rows, its ten running sums spilling.)
inline __m256i centred_pair(const std::uint8_t* p, const std::uint8_t* q) {
    const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    const __m128i y = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q));
    return _mm256_cvtepi8_epi16(
        _mm_xor_si128(_mm_unpacklo_epi8(x, y), _mm_set1_epi8(static_cast<char>(0x80))));
}

// Rows p and q of 8 columns minus 32768 (x ^ 0x8000), interleaved as int16
// pairs in column order.
inline __m256i centred_pair(const std::uint16_t* p, const std::uint16_t* q) {
    const __m128i x = load16x8(p), y = load16x8(q);
    const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(x, y)),
                                              _mm_unpackhi_epi16(x, y), 1);
    return _mm256_xor_si256(v, _mm256_set1_epi16(static_cast<short>(0x8000)));
}

// fn(k, c, a, b) for each tap pair k of the rows at column j: c the pair's
// taps (pairs[k]) in every lane, a and b the centred pairs of rows 2k and
// 2k + 1 of ref and dis (for_each_tap_pair: an odd count pairs the last row
// with itself and a zero tap; kTaps as there).
template <int kTaps, class Rows, class Fn>
[[gnu::always_inline]] inline void for_tap_pairs(Rows rows, std::ptrdiff_t j,
                                                 const std::uint32_t* pairs, int taps, Fn fn) {
    for_each_tap_pair<kTaps>(taps, [&](int t, int u) __attribute__((always_inline)) {
        fn(t / 2, _mm256_set1_epi32(static_cast<int>(pairs[t / 2])),
           centred_pair(rows.ref[t] + j, rows.ref[u] + j),
           centred_pair(rows.dis[t] + j, rows.dis[u] + j));
    });
}

// The 8-bit vertical sums with vpmaddwd (stat_vertical_u8_pairs_step's
// identities): a = p - 128 and b = q - 128 are int16 and so are a a, b b
// (<= 16384) and a b (in [-16256, 16384]); a product with a tap below 2^15
// is below 2^29 in magnitude and a pair sum below 2^30, exact in int32.
// The 8-bit sums' constants of a filter whose taps sum to C, made once a
// row: set from C inside the step, they cost a scalar multiply and two
// shuffles a step (the compiler reloads C, as any vector store may alias
// it).
struct U8SumConsts {
    __m256i moment_start;  // 16384 C
    __m256i mean_round;    // 128 C and the mean's rounding 128
};
inline U8SumConsts u8_sum_consts(std::uint32_t taps_sum) {
    return {_mm256_set1_epi32(static_cast<int>(16384u * taps_sum)),
            _mm256_set1_epi32(static_cast<int>(128u * taps_sum + 128u))};
}

template <int kTaps, bool kReduce, int kRedFirst = -1, int kRedCount = -1>
[[gnu::always_inline]] inline VerticalSums vertical_u8_sums(RowsU8 rows, std::ptrdiff_t j,
                                                            const std::uint32_t* pairs, int taps,
                                                            const U8SumConsts& sc,
                                                            const ReduceTaps* red,
                                                            ReduceSums* rs) {
    if constexpr (kReduce) *rs = {red->start, red->start};
    // The moments' constant 16384 C starts their accumulators.
    const __m256i c16384 = sc.moment_start;
    __m256i m1 = _mm256_setzero_si256(), m2 = m1, xx = c16384, yy = c16384, xy = c16384;
    // (Forced inline: GCC otherwise leaves the whole fused row's sums call
    // out of line.)
    for_tap_pairs<kTaps>(rows, j, pairs, taps,
                  [&](int pair, __m256i c, __m256i a, __m256i b) __attribute__((always_inline)) {
        m1 = _mm256_add_epi32(m1, _mm256_madd_epi16(a, c));
        m2 = _mm256_add_epi32(m2, _mm256_madd_epi16(b, c));
        xx = _mm256_add_epi32(xx, _mm256_madd_epi16(_mm256_mullo_epi16(a, a), c));
        yy = _mm256_add_epi32(yy, _mm256_madd_epi16(_mm256_mullo_epi16(b, b), c));
        xy = _mm256_add_epi32(xy, _mm256_madd_epi16(_mm256_mullo_epi16(a, b), c));
        if constexpr (kReduce) {
            // The five running sums stay in registers pair by pair: with the
            // reduction's two more, GCC otherwise schedules the unrolled
            // pairs' products ahead and spills them (0.4 us of 13.9 per
            // 1920-column row with the reduction; none gained without it).
            __asm__("" : "+x"(m1), "+x"(m2), "+x"(xx), "+x"(yy), "+x"(xy));
            // The reduction's pairs, known when compiling where the
            // template says so (the extractor's 2 and 5).
            const int k = pair - (kRedFirst >= 0 ? kRedFirst : red->first);
            if (k >= 0 && k < (kRedCount >= 0 ? kRedCount : red->count)) {
                const __m256i rc = _mm256_set1_epi32(static_cast<int>(red->pairs[k]));
                rs->ref = _mm256_add_epi32(rs->ref, _mm256_madd_epi16(a, rc));
                rs->dis = _mm256_add_epi32(rs->dis, _mm256_madd_epi16(b, rc));
            }
            // And the reduction's two sums (callgrind of the fused rows with
            // the reduction, 4 frames 1080p: 180.5 -> 176.9 M).
            __asm__("" : "+x"(rs->ref), "+x"(rs->dis));
        }
    });
    // 128 C and the mean's rounding 128 in one constant.
    const __m256i c128r = sc.mean_round;
    auto mean = [&](__m256i s) { return _mm256_srli_epi32(_mm256_add_epi32(s, c128r), 8); };
    return {{mean(m1), mean(m2), _mm256_add_epi32(xx, _mm256_slli_epi32(m1, 8)),
             _mm256_add_epi32(yy, _mm256_slli_epi32(m2, 8)),
             _mm256_add_epi32(xy, _mm256_slli_epi32(_mm256_add_epi32(m1, m2), 7))}};
}

// The 16-bit vertical sums with vpmaddwd, vif_stats_avx512.cpp's method
// (derived there): a = p - 32768 and b = q - 32768 are int16; the products
// a a, b b, a b are split as 2^16 H + L (H = mulhi, L = mullo stored as
// L - 32768), and every partial sum of c times an int16 lies in
// [-32768 C, 32767 C], inside int32 for C <= 65536. With A = sum c a,
// B = sum c b:
//   P = A + 32768 C,  U = sum c (L - 32768) + 32768 C (exact, <= 65535 C),
//   sum c p p = 2^16 T + U,  T = sum c H + A + 2^14 C,
//   sum c p q = 2^16 T + U + 2^15 (P + Q),  T = sum c H - 2^14 C.
struct StatU16Params {
    __m128i shift_mu, shift_sq;
    __m256i round_mu, round_sq;  // round_sq as 4 x uint64
    bool shift16;                // shift_sq == 16 (every scale after 0)
    // 32768 C and 16384 C, made once a row (as U8SumConsts).
    __m256i c15, c14;
};

inline StatU16Params stat_u16_params(int shift_mu, int shift_sq, std::uint32_t taps_sum) {
    return {
        _mm_cvtsi32_si128(shift_mu),
        _mm_cvtsi32_si128(shift_sq),
        _mm256_set1_epi32(static_cast<int>(round_for(shift_mu))),
        _mm256_set1_epi64x(static_cast<long long>(round_for(shift_sq))),
        shift_sq == 16,
        _mm256_set1_epi32(static_cast<int>(32768u * taps_sum)),
        _mm256_set1_epi32(static_cast<int>(16384u * taps_sum)),
    };
}

struct ProductSums {
    __m256i high;  // sum c H
    __m256i low;   // sum c (L - 32768)
};

inline void add_product(ProductSums& s, __m256i x, __m256i y, __m256i c) {
    const __m256i centre = _mm256_set1_epi16(static_cast<short>(0x8000));
    s.high = _mm256_add_epi32(s.high, _mm256_madd_epi16(_mm256_mulhi_epi16(x, y), c));
    s.low = _mm256_add_epi32(
        s.low, _mm256_madd_epi16(_mm256_xor_si256(_mm256_mullo_epi16(x, y), centre), c));
}

// 8 lanes of (2^16 T + U + extra) as 64-bit values, rounded and shifted by
// the scalar's shift_sq, low 32 bits kept; T is read as int32 when
// kSignedT, else as uint32, U as uint32, and with kExtra extra = 2^15 (P + Q)
// of uint32 P and Q (the cross moment). 64-bit lanes only here, where the
// sum can exceed 32 bits (scale 0 of a deeper picture).
template <bool kSignedT, bool kExtra>
inline __m256i moment_u64(__m256i t, __m256i u, __m256i p, __m256i q, const StatU16Params& prm) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i t_high = kSignedT ? _mm256_srai_epi32(t, 31) : zero;
    // Lanes 0, 1, 4, 5 (lo) and 2, 3, 6, 7 (hi) widened to 64 bits.
    auto part = [&](bool lo) {
        auto widen = [&](__m256i v, __m256i high) {
            return lo ? _mm256_unpacklo_epi32(v, high) : _mm256_unpackhi_epi32(v, high);
        };
        __m256i v = _mm256_add_epi64(_mm256_slli_epi64(widen(t, t_high), 16), widen(u, zero));
        if constexpr (kExtra)
            v = _mm256_add_epi64(
                v, _mm256_slli_epi64(_mm256_add_epi64(widen(p, zero), widen(q, zero)), 15));
        return _mm256_srl_epi64(_mm256_add_epi64(v, prm.round_sq), prm.shift_sq);
    };
    const __m256 lo = _mm256_castsi256_ps(part(true));
    const __m256 hi = _mm256_castsi256_ps(part(false));
    return _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

// For shift_sq 16 the square moment is T + ((U + 2^15) >> 16) modulo 2^32
// (U + 2^15 < 2^32 since U <= 65535 C <= 2^32 - 2^16).
inline __m256i square_moment(__m256i t, __m256i u, const StatU16Params& prm) {
    if (prm.shift16)
        return _mm256_add_epi32(
            t, _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(32768)), 16));
    return moment_u64<false, false>(t, u, t, u, prm);
}
// The cross moment at shift 16: with 2^15 P = 2^16 (P >> 1) + 2^15 (P & 1),
// it is T + (P >> 1) + (Q >> 1) + ((U + 2^15 (1 + (P & 1) + (Q & 1))) >> 16),
// whose last sum may reach 2^32: taken as ((U >> 1) + 2^14 (1 + (P & 1) +
// (Q & 1))) >> 15, the same value (the added terms are even).
inline __m256i cross_moment(__m256i t, __m256i u, __m256i p, __m256i q, const StatU16Params& prm) {
    if (prm.shift16) {
        const __m256i one = _mm256_set1_epi32(1);
        const __m256i odd = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_and_si256(p, one), _mm256_and_si256(q, one)), one);
        const __m256i carry = _mm256_srli_epi32(
            _mm256_add_epi32(_mm256_srli_epi32(u, 1), _mm256_slli_epi32(odd, 14)), 15);
        return _mm256_add_epi32(_mm256_add_epi32(t, carry),
                                _mm256_add_epi32(_mm256_srli_epi32(p, 1), _mm256_srli_epi32(q, 1)));
    }
    return moment_u64<true, true>(t, u, p, q, prm);
}

template <int kTaps>
[[gnu::always_inline]] inline VerticalSums vertical_u16_sums(RowsU16 rows, std::ptrdiff_t j,
                                                             const std::uint32_t* pairs, int taps,
                                                             const StatU16Params& prm) {
    __m256i sa = _mm256_setzero_si256(), sb = sa;
    ProductSums xx{sa, sa}, yy = xx, xy = xx;
    for_tap_pairs<kTaps>(rows, j, pairs, taps,
                  [&](int, __m256i c, __m256i a, __m256i b) __attribute__((always_inline)) {
        sa = _mm256_add_epi32(sa, _mm256_madd_epi16(a, c));
        sb = _mm256_add_epi32(sb, _mm256_madd_epi16(b, c));
        add_product(xx, a, a, c);
        add_product(yy, b, b, c);
        add_product(xy, a, b, c);
        // The eight running sums stay in registers pair by pair (as
        // vertical_u8_sums'): GCC otherwise spilled some every pair;
        // callgrind of vif_stat_row_u16_avx2, 4 frames 1080p: 92.2 -> 83.9 M.
        __asm__("" : "+x"(sa), "+x"(sb), "+x"(xx.high), "+x"(xx.low), "+x"(yy.high), "+x"(yy.low),
                "+x"(xy.high), "+x"(xy.low));
    });
    const __m256i c15 = prm.c15;
    const __m256i c14 = prm.c14;
    // The scalar's uint32 mean, rounded and shifted, cast to uint16.
    auto mean = [&](__m256i m) {
        return _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(m, prm.round_mu), prm.shift_mu),
                                _mm256_set1_epi32(0xFFFF));
    };
    const __m256i p = _mm256_add_epi32(sa, c15);
    const __m256i q = _mm256_add_epi32(sb, c15);
    auto t_square = [&](__m256i high, __m256i s1) {
        return _mm256_add_epi32(_mm256_add_epi32(high, s1), c14);
    };
    return {{mean(p), mean(q),
             square_moment(t_square(xx.high, sa), _mm256_add_epi32(xx.low, c15), prm),
             square_moment(t_square(yy.high, sb), _mm256_add_epi32(yy.low, c15), prm),
             cross_moment(_mm256_sub_epi32(xy.high, c14), _mm256_add_epi32(xy.low, c15), p, q,
                          prm)}};
}

// The horizontal pass on the half rows: 16 outputs per block, the 8 even
// ones (b, b + 2, ..., b + 14) and the 8 odd ones. Window p (dword lane k
// holds y[2k + 2p], y[2k + 2p + 1], y[0] the block's first output's
// leftmost input) feeds the even outputs with the tap pair (c_2p, c_2p+1)
// and the odd ones with (c_2p-1, c_2p): one load per pair for both. With
// every c < 2^15 a product is below 2^30 in magnitude and a pair sum fits
// int32. With C = sum c, each centred filter sum plus 32768 C is H = sum c h
// (modulo 2^32) or L = sum c l (exact: 0 <= L <= 65535 C < 2^32), and
//   mean = (H << 16) + L = L (means below 2^16, H = 0),
//   moment = H + ((L + 2^15) >> 16)   (uint32).
struct HorizontalFilter {
    __m256i even[kMaxHalf + 1];  // tap pairs (c_2p, c_2p+1)
    __m256i odd[kMaxHalf + 1];   // tap pairs (c_2p-1, c_2p)
    int pairs;                   // taps / 2 + 1: both sets, zero-padded
    __m256i bias;                // 32768 C
    __m256i bias_round;          // 32768 C + 2^15
};

inline HorizontalFilter horizontal_filter(const std::uint16_t* filter, int taps,
                                          std::uint32_t taps_sum) {
    HorizontalFilter hf;
    hf.pairs = taps / 2 + 1;
    auto tap = [&](int t) { return t >= 0 && t < taps ? std::uint32_t{filter[t]} : 0u; };
    auto pair = [&](int t) {
        return _mm256_set1_epi32(static_cast<int>(tap(t) | (tap(t + 1) << 16)));
    };
    for (int p = 0; p < hf.pairs; ++p) {
        hf.even[p] = pair(2 * p);
        hf.odd[p] = pair(2 * p - 1);
    }
    hf.bias = _mm256_set1_epi32(static_cast<int>(32768u * taps_sum));
    hf.bias_round = _mm256_set1_epi32(static_cast<int>(32768u * taps_sum + 32768u));
    return hf;
}

// Two rows' windows p = kP .. kPairs - 1 (window_at) into their even and
// odd sums, each window's tap pairs loaded once for both rows.
template <int kP, int kPairs>
[[gnu::always_inline]] inline void add_windows2(const __m256i (&a)[2], const __m256i (&mid)[2],
                                                const __m256i (&b)[2], const HorizontalFilter& hf,
                                                __m256i (&e)[2], __m256i (&o)[2]) {
    if constexpr (kP < kPairs) {
        const __m256i ce = hf.even[kP], co = hf.odd[kP];
        for (int r = 0; r < 2; ++r) {
            const __m256i window = window_at<kP>(a[r], mid[r], b[r]);
            e[r] = _mm256_add_epi32(e[r], _mm256_madd_epi16(window, ce));
            o[r] = _mm256_add_epi32(o[r], _mm256_madd_epi16(window, co));
        }
        // The running sums stay in registers: without this empty asm GCC
        // reassociates a block's products into trees whose partial sums
        // and tap copies spill to the stack (1920 columns, 17 taps: 12.5 ->
        // 11.8 us per row, one row at a time).
        __asm__("" : "+x"(e[0]), "+x"(o[0]), "+x"(e[1]), "+x"(o[1]));
        add_windows2<kP + 1, kPairs>(a, mid, b, hf, e, o);
    }
}

// Even and odd filter sums of a block of two rows y[0] and y[1], each plus
// its start (modulo 2^32). With kPairs known (at most 9: windows up to
// y[32)), the windows come from two aligned loads (y is 32-byte aligned:
// the half rows are, and a block starts 16 int16 after the last) and
// in-register shifts, and two rows share each tap pair's loads: the pass
// is bound by the load ports as much as by the vector ALUs. Measured on
// the 2-core Sapphire Rapids VM, whole VIF at --cpumask 48 on the 30-frame
// 1080p clip: one row at a time with unaligned loads in the blocks that
// start a 64-byte line (none split), 0.641 s CPU; the same with window
// shifts in every block, 0.630; two rows a window, 0.622. Not kept: a second
// copy of every half row, 32 bytes off, so that every block reads
// unaligned windows inside one line (no shift at all): 0.72 (more loads,
// twice the stores); two rows a window with unaligned window loads in the
// blocks that start a line: 0.642 against 0.630 for the shifts.
template <int kPairs>
[[gnu::always_inline]] inline void filter_windows2(const std::int16_t* y0, const std::int16_t* y1,
                                                   const HorizontalFilter& hf, __m256i start0,
                                                   __m256i start1, EvenOdd& out0, EvenOdd& out1) {
    if constexpr (kPairs > 0) {
        static_assert(kPairs <= kMaxHalf + 1);
        const std::int16_t* y[2] = {y0, y1};
        __m256i a[2], b[2], mid[2];
        for (int r = 0; r < 2; ++r) {
            a[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(y[r]));
            b[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(y[r] + 16));
            mid[r] = _mm256_permute2x128_si256(a[r], b[r], 0x21);
        }
        __m256i e[2] = {start0, start1}, o[2] = {start0, start1};
        add_windows2<0, kPairs>(a, mid, b, hf, e, o);
        out0 = {e[0], o[0]};
        out1 = {e[1], o[1]};
    } else {
        const std::int16_t* y[2] = {y0, y1};
        EvenOdd* out[2] = {&out0, &out1};
        const __m256i start[2] = {start0, start1};
        for (int r = 0; r < 2; ++r) {
            __m256i e = start[r], o = start[r];
            for (int p = 0; p < hf.pairs; ++p) {
                const __m256i window = load8x32(y[r] + 2 * p);
                e = _mm256_add_epi32(e, _mm256_madd_epi16(window, hf.even[p]));
                o = _mm256_add_epi32(o, _mm256_madd_epi16(window, hf.odd[p]));
            }
            *out[r] = {e, o};
        }
    }
}

struct HalfRows {
    std::int16_t* l[5];
    std::int16_t* h[5];  // of the moments only
};

template <int kPairs>
[[gnu::always_inline]] inline void horizontal_block(const HorizontalFilter& hf, const HalfRows& rows,
                                                    int b, int n, std::int32_t* sigma1_sq,
                                                    std::int32_t* sigma2_sq,
                                                    std::int32_t* sigma12) {
    EvenOdd mean[2], moment[3];
    filter_windows2<kPairs>(rows.l[0] + b, rows.l[1] + b, hf, hf.bias, hf.bias, mean[0], mean[1]);
    // (Unrolled: callgrind of horizontal_blocks<9>, 4 frames 1080p, 296.4 ->
    // 282.9 M; user+sys CPU of VIF on the 30-frame clip 0.645 -> 0.635 s.)
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k) {
        EvenOdd lp, hp;
        filter_windows2<kPairs>(rows.l[2 + k] + b, rows.h[2 + k] + b, hf, hf.bias_round, hf.bias,
                                lp, hp);
        moment[k] = {_mm256_add_epi32(hp.even, _mm256_srli_epi32(lp.even, 16)),
                     _mm256_add_epi32(hp.odd, _mm256_srli_epi32(lp.odd, 16))};
    }
    store_sigmas(mean, moment, b, n, sigma1_sq, sigma2_sq, sigma12);
}

template <int kPairs>
void horizontal_blocks(const HorizontalFilter& filter, const HalfRows& half_rows, int w,
                       std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    // Local copies: the sigma stores (through may_alias vector types) could
    // write the caller's filter and rows, so GCC copied the taps to the
    // stack again in every block.
    const HorizontalFilter hf = filter;
    const HalfRows rows = half_rows;
    for (int b = 0; b < w; b += 16)
        horizontal_block<kPairs>(hf, rows, b, w - b, sigma1_sq, sigma2_sq, sigma12);
}

// Stores a step's sums (8 columns) as centred halves: within each 128-bit
// lane vpshufb gathers the low words into the low 64 bits and the high
// words into the high 64 bits, and vpermq puts the four low-word groups
// first.
inline void store_halves(const VerticalSums& v, const HalfRows& rows, std::ptrdiff_t at) {
    const __m256i flip = _mm256_set1_epi32(static_cast<int>(0x80008000u));
    const __m256i words = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0,
                                           1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    for (int q = 0; q < 5; ++q) {
        const __m256i x = _mm256_permute4x64_epi64(
            _mm256_shuffle_epi8(_mm256_xor_si256(v.v[q], flip), words), _MM_SHUFFLE(3, 1, 2, 0));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(rows.l[q] + at), _mm256_castsi256_si128(x));
        if (q >= 2)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(rows.h[q] + at),
                             _mm256_extracti128_si256(x, 1));
    }
}

// One fused row: `sums(ref, dis, j, col)` is the VerticalSums of the 8
// columns from col, read at index j of the row pointers (the real rows with
// j = col, or a zero-filled copy of the last columns with j = 0, so no read
// passes a row's end). A tail step stores whole vectors
// past w: the scratch's half rows have room for them, and the mirror and
// the zero fill below overwrite what lies past column w - 1.
template <class T, class Sums>
[[gnu::always_inline]] inline void fused_row(Sums sums, const T* const* ref_rows,
                                             const T* const* dis_rows, const std::uint16_t* filter,
                                             int taps, std::uint32_t taps_sum, int w,
                                             std::uint32_t* scratch, std::int32_t* sigma1_sq,
                                             std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    const int half = taps / 2;
    // (At 1920 columns the half rows lie 4096 bytes apart, so a column of
    // all eight falls in one L1 set; a stride of an odd number of lines
    // measured the same, 0.627 s CPU either way for VIF on the 30-frame
    // 1080p clip.)
    const std::size_t len = vif_stat_row_half_len(w);
    auto* base = reinterpret_cast<std::int16_t*>((reinterpret_cast<std::uintptr_t>(scratch) + 63) &
                                                 ~std::uintptr_t{63});
    HalfRows rows;
    for (int k = 0; k < 5; ++k) {
        rows.l[k] = base + (2 * k) * len;
        rows.h[k] = base + (2 * k + 1) * len;
    }
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8) store_halves(sums(ref_rows, dis_rows, j, j), rows, half + j);
    if (j < w) {
        const int n = static_cast<int>(w - j);
        const TailRows<T, 8, kMaxTaps> tail(ref_rows, dis_rows, taps, j, n);
        store_halves(sums(tail.a_ptr, tail.b_ptr, 0, j), rows, half + j);
    }
    // The mirror (sample -k is k, w-1+k is w-1-k), and zeros past it, which
    // the last block's loads read into lanes it does not store.
    const std::size_t end = static_cast<std::size_t>(w) + 2 * half;
    auto pad = [&](std::int16_t* a) {
        std::int16_t* p = a + half;
        for (int k = 1; k <= half; ++k) {
            p[-k] = p[k];
            p[w - 1 + k] = p[w - 1 - k];
        }
        std::memset(a + end, 0, (len - end) * sizeof(std::int16_t));
    };
    for (int k = 0; k < 5; ++k) {
        pad(rows.l[k]);
        if (k >= 2) pad(rows.h[k]);
    }
    // libvmaf's filters 0, 1 and 2 have 9, 5 and 3 tap pairs.
    const HorizontalFilter hf = horizontal_filter(filter, taps, taps_sum);
    if (hf.pairs == 9)
        horizontal_blocks<9>(hf, rows, w, sigma1_sq, sigma2_sq, sigma12);
    else if (hf.pairs == 5)
        horizontal_blocks<5>(hf, rows, w, sigma1_sq, sigma2_sq, sigma12);
    else if (hf.pairs == 3)
        horizontal_blocks<3>(hf, rows, w, sigma1_sq, sigma2_sq, sigma12);
    else
        horizontal_blocks<0>(hf, rows, w, sigma1_sq, sigma2_sq, sigma12);
}

// 8 uint32 stored, n of them.
inline void store_first(__m256i v, std::uint32_t* dst, int n) {
    if (n >= 8) {
        store8x32(dst, v);
        return;
    }
    alignas(32) std::uint32_t t[8];
    store8x32(t, v);
    copy_first(dst, t, n);
}

// The 8-bit vertical sums of a symmetric 17-tap filter (c_t = c_16-t),
// with its rows folded before the multiplies: rows 2g, 2g + 1 (X) and their
// mirrors 16 - 2g, 15 - 2g (Y) share the tap pair (c_2g, c_2g+1), so one
// vpmaddwd of X + Y takes four taps of a mean, and one of X X + Y Y (or
// X X' + Y Y') four of a moment, where the unfolded sums take two. Bounds
// (a = p - 128 in [-128, 127]): X + Y in [-256, 254]; a a <= 16384, so
// X X + Y Y is in [0, 32768] and X X' + Y Y' in [-32512, 32768]; both less
// 256 fit int16 (computed modulo 2^16, exact where the result fits). The
// offset comes back as 256 (c_0 + ... + c_7) = 128 (C - c_8) per moment,
// modulo 2^32 as the scalar's uint32 sums wrap. The centre row 8 is paired
// with itself and the taps (c_8, 0). A pair sum stays below 2^31 in
// magnitude (c < 2^15 and |v| <= 2^15).
//
// Only the rows without the fused reduction take it (1920 columns: 11.7 ->
// 11.4 us per row); with the reduction folded the same way (its symmetric 9
// taps on groups 2, 3 and the centre) the row took 12.4-12.8 us instead of
// the unfolded 11.8, so those rows stay unfolded.
struct FoldTaps {
    __m256i pair[4];       // (c_2g, c_2g+1)
    __m256i centre;        // (c_8, 0)
    __m256i moment_start;  // 16384 C + 128 (C - c_8)
};

inline bool symmetric(const std::uint16_t* filter, int taps) {
    for (int t = 0; t < taps / 2; ++t)
        if (filter[t] != filter[taps - 1 - t]) return false;
    return true;
}

inline FoldTaps fold_taps(const std::uint16_t* filter, std::uint32_t taps_sum) {
    FoldTaps ft;
    auto pair = [](std::uint32_t lo, std::uint32_t hi) {
        return _mm256_set1_epi32(static_cast<int>(lo | (hi << 16)));
    };
    for (int g = 0; g < 4; ++g) ft.pair[g] = pair(filter[2 * g], filter[2 * g + 1]);
    ft.centre = pair(filter[8], 0);
    ft.moment_start =
        _mm256_set1_epi32(static_cast<int>(16384u * taps_sum + 128u * (taps_sum - filter[8])));
    return ft;
}

template <int kG>
[[gnu::always_inline]] inline void add_folded_group(RowsU8 rows, std::ptrdiff_t j,
                                                    const FoldTaps& ft, __m256i* s) {
    const __m256i off = _mm256_set1_epi16(-256);
    const __m256i x = centred_pair(rows.ref[2 * kG] + j, rows.ref[2 * kG + 1] + j);
    const __m256i y = centred_pair(rows.ref[16 - 2 * kG] + j, rows.ref[15 - 2 * kG] + j);
    const __m256i xd = centred_pair(rows.dis[2 * kG] + j, rows.dis[2 * kG + 1] + j);
    const __m256i yd = centred_pair(rows.dis[16 - 2 * kG] + j, rows.dis[15 - 2 * kG] + j);
    const __m256i c = ft.pair[kG];
    const __m256i fr = _mm256_add_epi16(x, y), fd = _mm256_add_epi16(xd, yd);
    auto folded = [&](__m256i p, __m256i q, __m256i u, __m256i v) {
        return _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(p, q), off),
                                _mm256_mullo_epi16(u, v));
    };
    s[0] = _mm256_add_epi32(s[0], _mm256_madd_epi16(fr, c));
    s[1] = _mm256_add_epi32(s[1], _mm256_madd_epi16(fd, c));
    s[2] = _mm256_add_epi32(s[2], _mm256_madd_epi16(folded(x, x, y, y), c));
    s[3] = _mm256_add_epi32(s[3], _mm256_madd_epi16(folded(xd, xd, yd, yd), c));
    s[4] = _mm256_add_epi32(s[4], _mm256_madd_epi16(folded(x, xd, y, yd), c));
    // The sums stay in registers group by group (as vertical_u8_sums').
    __asm__("" : "+x"(s[0]), "+x"(s[1]), "+x"(s[2]), "+x"(s[3]), "+x"(s[4]));
}

[[gnu::always_inline]] inline VerticalSums folded_u8_sums(RowsU8 rows, std::ptrdiff_t j,
                                                          const FoldTaps& ft,
                                                          const U8SumConsts& sc) {
    // The centre row first: it starts the sums.
    const __m256i x = centred_pair(rows.ref[8] + j, rows.ref[8] + j);
    const __m256i xd = centred_pair(rows.dis[8] + j, rows.dis[8] + j);
    const __m256i c = ft.centre;
    __m256i s[5] = {
        _mm256_madd_epi16(x, c),
        _mm256_madd_epi16(xd, c),
        _mm256_add_epi32(ft.moment_start, _mm256_madd_epi16(_mm256_mullo_epi16(x, x), c)),
        _mm256_add_epi32(ft.moment_start, _mm256_madd_epi16(_mm256_mullo_epi16(xd, xd), c)),
        _mm256_add_epi32(ft.moment_start, _mm256_madd_epi16(_mm256_mullo_epi16(x, xd), c)),
    };
    add_folded_group<0>(rows, j, ft, s);
    add_folded_group<1>(rows, j, ft, s);
    add_folded_group<2>(rows, j, ft, s);
    add_folded_group<3>(rows, j, ft, s);
    // As vertical_u8_sums: 128 C and the mean's rounding; the moments'
    // 256 sum c a terms.
    const __m256i c128r = sc.mean_round;
    auto mean = [&](__m256i v) { return _mm256_srli_epi32(_mm256_add_epi32(v, c128r), 8); };
    return {{mean(s[0]), mean(s[1]), _mm256_add_epi32(s[2], _mm256_slli_epi32(s[0], 8)),
             _mm256_add_epi32(s[3], _mm256_slli_epi32(s[1], 8)),
             _mm256_add_epi32(s[4], _mm256_slli_epi32(_mm256_add_epi32(s[0], s[1]), 7))}};
}

// The fused 8-bit row for a filter whose shape fits (pair_filter_fits):
// with the reduction in its vertical step where `red` is given, else none
// (the caller reduces apart). kTaps, kRedFirst and kRedCount: the tap count
// and the reduction's first pair and pair count when known at compile time
// (0 and -1 read the arguments).
// With kFold (kTaps 17, a symmetric filter, no fused reduction) the sums
// are folded_u8_sums'.
template <int kTaps, int kRedFirst = -1, int kRedCount = -1, bool kFold = false>
void stat_row_u8_fits(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                      const std::uint16_t* filter, int taps, const VifFilterShape& f, int w,
                      std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                      std::int32_t* sigma12, const VifRowReduce* reduce, const ReduceTaps* red) {
    static_assert(!kFold || (kTaps == 17 && kRedFirst < 0));
    const FoldTaps ft = kFold ? fold_taps(filter, f.sum) : FoldTaps{};
    const U8SumConsts sc = u8_sum_consts(f.sum);
    if (red) {
        const __m128i shift = _mm_cvtsi32_si128(reduce->shift);
        const __m256i low16 = _mm256_set1_epi32(0xFFFF);
        auto out = [&](__m256i v) { return _mm256_and_si256(_mm256_srl_epi32(v, shift), low16); };
        fused_row<std::uint8_t>(
            [&](const std::uint8_t* const* r, const std::uint8_t* const* d, std::ptrdiff_t j,
                std::ptrdiff_t col) {
                ReduceSums rs;
                const VerticalSums v = vertical_u8_sums<kTaps, true, kRedFirst, kRedCount>(
                    {r, d}, j, f.pairs, taps, sc, red, &rs);
                const int n = static_cast<int>(w - col < 8 ? w - col : 8);
                store_first(out(rs.ref), reduce->ref_out + col, n);
                store_first(out(rs.dis), reduce->dis_out + col, n);
                return v;
            },
            ref_rows, dis_rows, filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
        return;
    }
    // (Forced inline: GCC left this lambda out of line, a call per 8 columns
    // returning its five sums through memory; callgrind of the folded rows,
    // 4 frames 1080p at AVX2: 158.8 -> 146.3 M instructions.)
    fused_row<std::uint8_t>(
        [&](const std::uint8_t* const* r, const std::uint8_t* const* d, std::ptrdiff_t j,
            std::ptrdiff_t) __attribute__((always_inline)) {
            if constexpr (kFold)
                return folded_u8_sums({r, d}, j, ft, sc);
            else
                return vertical_u8_sums<kTaps, false>({r, d}, j, f.pairs, taps, sc, nullptr,
                                                      nullptr);
        },
        ref_rows, dis_rows, filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
}

void vif_stat_row_u8_avx2(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                          const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                          std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                          const VifRowReduce* reduce) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!pair_filter_fits(f)) {
        vif_stat_row_u8_by(vif_kernels_for(SimdLevel::avx2), ref_rows, dis_rows, filter, taps, w,
                           scratch, sigma1_sq, sigma2_sq, sigma12, reduce);
        return;
    }
    const int offset = reduce ? taps / 2 - reduce->taps / 2 : 0;
    const VifFilterShape rf = reduce ? vif_filter_shape(reduce->filter, reduce->taps) : f;
    // The fused reduction needs its pairs on the statistics' pairs (an even
    // offset), signed taps and a shift the scalar defines on uint32.
    const bool fuse = reduce && offset % 2 == 0 && rf.taps_below_2_15 && reduce->shift < 32;
    const ReduceTaps red{
        rf.pairs, offset / 2, reduce ? (reduce->taps + 1) / 2 : 0,
        _mm256_set1_epi32(static_cast<int>(128u * rf.sum + round_for(reduce ? reduce->shift : 0)))};
    const ReduceTaps* r = fuse ? &red : nullptr;
    // The extractor's scale 0: 17 taps (libvmaf's filter 0 is symmetric:
    // folded on the rows it does not reduce), reduced on even rows by 9 taps
    // (pairs 2 to 6 of the 9).
    if (taps == 17 && !r && symmetric(filter, taps))
        stat_row_u8_fits<17, -1, -1, true>(ref_rows, dis_rows, filter, taps, f, w, scratch,
                                           sigma1_sq, sigma2_sq, sigma12, reduce, r);
    else if (taps == 17 && !r)
        stat_row_u8_fits<17>(ref_rows, dis_rows, filter, taps, f, w, scratch, sigma1_sq, sigma2_sq,
                             sigma12, reduce, r);
    else if (taps == 17 && red.first == 2 && red.count == 5)
        stat_row_u8_fits<17, 2, 5>(ref_rows, dis_rows, filter, taps, f, w, scratch, sigma1_sq,
                                   sigma2_sq, sigma12, reduce, r);
    else
        stat_row_u8_fits<0>(ref_rows, dis_rows, filter, taps, f, w, scratch, sigma1_sq, sigma2_sq,
                            sigma12, reduce, r);
    if (reduce && !fuse)
        subsample_vertical_avx2(ref_rows + offset, dis_rows + offset, reduce->filter,
                                   reduce->taps, w, reduce->shift, reduce->ref_out,
                                   reduce->dis_out);
}

// The fused 16-bit row for a filter that fits, kTaps as stat_row_u8_fits'.
template <int kTaps>
void stat_row_u16_fits(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                       const std::uint16_t* filter, int taps, const VifFilterShape& f, int w,
                       const StatU16Params& prm, std::uint32_t* scratch, std::int32_t* sigma1_sq,
                       std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    fused_row<std::uint16_t>(
        [&](const std::uint16_t* const* r, const std::uint16_t* const* d, std::ptrdiff_t j,
            std::ptrdiff_t) {
            return vertical_u16_sums<kTaps>({r, d}, j, f.pairs, taps, prm);
        },
        ref_rows, dis_rows, filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
}

void vif_stat_row_u16_avx2(const std::uint16_t* const* ref_rows,
                           const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                           int taps, int w, int shift_mu, int shift_sq, std::uint32_t* scratch,
                           std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                           std::int32_t* sigma12) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!pair_filter_fits(f)) {
        vif_stat_row_u16_by(vif_kernels_for(SimdLevel::avx2), ref_rows, dis_rows, filter, taps, w,
                            shift_mu, shift_sq, scratch, sigma1_sq, sigma2_sq, sigma12);
        return;
    }
    const StatU16Params prm = stat_u16_params(shift_mu, shift_sq, f.sum);
    // Scales 1, 2, 3 of the extractor (and scale 0 of a deeper picture).
    switch (taps) {
        case 17:
            stat_row_u16_fits<17>(ref_rows, dis_rows, filter, taps, f, w, prm, scratch, sigma1_sq,
                                  sigma2_sq, sigma12);
            break;
        case 9:
            stat_row_u16_fits<9>(ref_rows, dis_rows, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        case 5:
            stat_row_u16_fits<5>(ref_rows, dis_rows, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        case 3:
            stat_row_u16_fits<3>(ref_rows, dis_rows, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        default:
            stat_row_u16_fits<0>(ref_rows, dis_rows, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
    }
}

}  // namespace

// Every VIF kernel has a twin at this level (VifKernels order).
void vif_init_avx2(VifKernels& k) {
    k = VifKernels{
        stat_vertical_u8_avx2,
        stat_vertical_u16_avx2,
        stat_horizontal_avx2,
        vif_stat_row_u8_avx2,
        vif_stat_row_u16_avx2,
        accumulate_avx2,
        subsample_vertical_avx2<std::uint8_t>,
        subsample_vertical_avx2<std::uint16_t>,
        subsample_horizontal_avx2,
    };
}

}  // namespace vmafpp::vif
