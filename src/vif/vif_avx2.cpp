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

#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

namespace {

constexpr int kMaxTaps = 2 * kMaxHalf + 1;
// sigma_nsq of the VIF model (noise variance 2) in Q16, as in the scalar.
constexpr std::int32_t kSigmaNsq = 65536 << 1;

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

// Copies columns [j, w) of every tap row into zero-filled rows of `kLanes`
// samples, so that one more vector step can run on them without reading past
// the real rows.
template <class T, int kLanes>
struct TailRows {
    TailRows(const T* const* ref_rows, const T* const* dis_rows, int taps, std::ptrdiff_t j,
             int n) {
        for (int t = 0; t < taps; ++t) {
            std::memcpy(ref[t], ref_rows[t] + j, n * sizeof(T));
            std::memcpy(dis[t], dis_rows[t] + j, n * sizeof(T));
            ref_ptr[t] = ref[t];
            dis_ptr[t] = dis[t];
        }
    }
    T ref[kMaxTaps][kLanes] = {};
    T dis[kMaxTaps][kLanes] = {};
    const T* ref_ptr[kMaxTaps] = {};
    const T* dis_ptr[kMaxTaps] = {};
};

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
    const TailRows<std::uint8_t, 16> tail(ref_rows, dis_rows, taps, j, n);
    TailStatOut<16> o;
    step({tail.ref_ptr, tail.dis_ptr}, 0, o.mu1, o.mu2, o.xx, o.yy, o.xy);
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
    const TailRows<std::uint16_t, 8> tail(ref_rows, dis_rows, taps, j, n);
    TailStatOut<8> o;
    stat_vertical_u16_step({tail.ref_ptr, tail.dis_ptr}, 0, filter, taps, sh_mu, rnd_mu, sh_sq,
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
            // uint32 differences read as int32, as the scalar's; even and
            // odd outputs interleaved back into column order.
            const int keep = n - b < 16 ? n - b : 16;
            auto sigma = [&](std::int32_t* dst, const EvenOdd& m, __m256i pe, __m256i po) {
                const __m256i e = _mm256_sub_epi32(m.even, pe);
                const __m256i o = _mm256_sub_epi32(m.odd, po);
                const __m256i lo = _mm256_unpacklo_epi32(e, o), hi = _mm256_unpackhi_epi32(e, o);
                alignas(32) std::int32_t v[16];
                std::int32_t* out = keep == 16 ? dst + j0 + b : v;
                store8x32(out, _mm256_permute2x128_si256(lo, hi, 0x20));
                store8x32(out + 8, _mm256_permute2x128_si256(lo, hi, 0x31));
                if (keep < 16) copy_first(dst + j0 + b, v, keep);
            };
            sigma(sigma1_sq, moment[0], product_q16_u32(mean[0].even, mean[0].even),
                  product_q16_u32(mean[0].odd, mean[0].odd));
            sigma(sigma2_sq, moment[1], product_q16_u32(mean[1].even, mean[1].even),
                  product_q16_u32(mean[1].odd, mean[1].odd));
            sigma(sigma12, moment[2], product_q16_u32(mean[0].even, mean[1].even),
                  product_q16_u32(mean[0].odd, mean[1].odd));
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
// (or, for nsq + sigma1_sq < 2^32, in a uint32). log2_q11(v) keeps v's 16
// leading bits as the table index and adds 2048 per dropped bit; for a double
// those bits are the implicit 1 and the 15 leading mantissa bits, and the
// number of dropped bits is the exponent minus 15.

// log2_q11 of 4 exact integer doubles in [2^15, 2^53) (64-bit lanes), as 4 x int32.
inline __m128i log2_q11_pd(const std::uint16_t* table, __m256d v) {
    const __m256i bits = _mm256_castpd_si256(v);
    const __m256i idx = _mm256_and_si256(_mm256_srli_epi64(bits, 37), _mm256_set1_epi64x(0x7FFF));
    const __m256i dropped =
        _mm256_sub_epi64(_mm256_srli_epi64(bits, 52), _mm256_set1_epi64x(1023 + 15));
    // The gather reads 32 bits at 2-byte steps: the table has one spare entry
    // past its end (vif_log2_table()); the upper 16 bits are dropped.
    const __m128i entry =
        _mm_and_si128(_mm256_i64gather_epi32(reinterpret_cast<const int*>(table), idx, 2),
                      _mm_set1_epi32(0xFFFF));
    // The 64-bit counts are small: take their low 32 bits in lane order.
    const __m256i packed =
        _mm256_permutevar8x32_epi32(dropped, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    return _mm_add_epi32(entry, _mm_slli_epi32(_mm256_castsi256_si128(packed), 11));
}

// log2_q11 of 8 uint32 in [2^15, 2^32). The float of v >> 8 (< 2^24, exact)
// has exponent bitlength(v) - 9; v keeps bitlength(v) - 16 dropped bits.
inline __m256i log2_q11_u32(const std::uint16_t* table, __m256i v) {
    const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 8));
    const __m256i dropped =
        _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f), 23), _mm256_set1_epi32(127 + 7));
    const __m256i idx = _mm256_sub_epi32(_mm256_srlv_epi32(v, dropped), _mm256_set1_epi32(32768));
    const __m256i entry =
        _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int*>(table), idx, 2),
                         _mm256_set1_epi32(0xFFFF));
    return _mm256_add_epi32(entry, _mm256_slli_epi32(dropped, 11));
}

struct AccumulateLanes {
    __m256i num_non_log = _mm256_setzero_si256();  // 4 x int64
    __m256i den_log = _mm256_setzero_si256();      // 8 x int32, flushed per block
    __m256i num_log = _mm256_setzero_si256();      // 4 x int64
    std::int64_t den_non_log = 0;
};

inline __m256i widen_lo(__m256i v) { return _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)); }
inline __m256i widen_hi(__m256i v) { return _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)); }

// The gain terms of 4 pixels (lanes of `need` set: the log branch with
// sigma12 > 0 and sigma2_sq > 0), in the scalar's double operations and order.
inline __m128i gain_terms(const std::uint16_t* table, __m128i s1, __m128i s2, __m128i s12,
                          __m128i need, __m256d gain_limit) {
    const __m256d eps = _mm256_set1_pd(65536 * 1.0e-10);
    const __m256d zero = _mm256_setzero_pd();
    const __m256d s1d = _mm256_cvtepi32_pd(s1);
    const __m256d s2d = _mm256_cvtepi32_pd(s2);
    const __m256d s12d = _mm256_cvtepi32_pd(s12);
    const __m256d g_raw = _mm256_div_pd(s12d, _mm256_add_pd(s1d, eps));
    const __m256d sv = _mm256_sub_pd(s2d, _mm256_mul_pd(g_raw, s12d));
    // sv > 0 ? (int32)sv : 0 as an integer-valued double (sv < 2^31); max
    // returns its second operand (+0) for sv <= 0 and for -0.
    const __m256d sv_sq =
        _mm256_round_pd(_mm256_max_pd(sv, zero), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    // min(a, b) is a < b ? a : b, the scalar's comparison.
    const __m256d g = _mm256_min_pd(g_raw, gain_limit);
    const __m256d numer1 = _mm256_add_pd(sv_sq, _mm256_set1_pd(static_cast<double>(kSigmaNsq)));
    // (int64)(g * g * s1) + numer1: with |g| <= 1024 the product is below
    // 2^51 and the sum below 2^52, so double holds both exactly.
    const __m256d product = _mm256_round_pd(_mm256_mul_pd(_mm256_mul_pd(g, g), s1d),
                                            _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d numer1_tmp = _mm256_add_pd(product, numer1);
    // Lanes not needed get a harmless argument so that no gather strays.
    const __m256d mask = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(need));
    const __m256d safe = _mm256_set1_pd(static_cast<double>(kSigmaNsq));
    const __m128i diff = _mm_sub_epi32(log2_q11_pd(table, _mm256_blendv_pd(safe, numer1_tmp, mask)),
                                       log2_q11_pd(table, _mm256_blendv_pd(safe, numer1, mask)));
    return _mm_and_si128(diff, need);
}

inline void accumulate_step(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                            const std::int32_t* sigma12, std::ptrdiff_t j, __m256i valid,
                            const std::uint16_t* table, __m256d gain_limit, AccumulateLanes& acc) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i nsq = _mm256_set1_epi32(kSigmaNsq);
    const __m256i s1 = load8x32(sigma1_sq + j);
    const __m256i s2 = _mm256_max_epi32(load8x32(sigma2_sq + j), zero);
    const __m256i s12 = load8x32(sigma12 + j);
    const __m256i low = _mm256_and_si256(_mm256_cmpgt_epi32(nsq, s1), valid);
    const __m256i in_log = _mm256_andnot_si256(low, valid);

    // sigma1_sq < nsq: sigma2_sq and a count.
    const __m256i s2_low = _mm256_and_si256(s2, low);
    acc.num_non_log =
        _mm256_add_epi64(acc.num_non_log, _mm256_add_epi64(widen_lo(s2_low), widen_hi(s2_low)));
    acc.den_non_log +=
        __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(low))));

    // Otherwise log2(nsq + sigma1_sq) - 17 (both Q11); nsq + s1 < 2^32.
    const __m256i v = _mm256_blendv_epi8(nsq, _mm256_add_epi32(nsq, s1), in_log);
    const __m256i den = _mm256_sub_epi32(log2_q11_u32(table, v), _mm256_set1_epi32(2048 * 17));
    acc.den_log = _mm256_add_epi32(acc.den_log, _mm256_and_si256(den, in_log));

    const __m256i need = _mm256_and_si256(
        in_log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
    const unsigned need_bits = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(need)));
    if (need_bits & 0x0F) {
        const __m128i t =
            gain_terms(table, _mm256_castsi256_si128(s1), _mm256_castsi256_si128(s2),
                       _mm256_castsi256_si128(s12), _mm256_castsi256_si128(need), gain_limit);
        acc.num_log = _mm256_add_epi64(acc.num_log, _mm256_cvtepi32_epi64(t));
    }
    if (need_bits & 0xF0) {
        const __m128i t = gain_terms(
            table, _mm256_extracti128_si256(s1, 1), _mm256_extracti128_si256(s2, 1),
            _mm256_extracti128_si256(s12, 1), _mm256_extracti128_si256(need, 1), gain_limit);
        acc.num_log = _mm256_add_epi64(acc.num_log, _mm256_cvtepi32_epi64(t));
    }
}

std::int64_t sum_i64(__m256i v) {
    alignas(32) std::int64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), v);
    return l[0] + l[1] + l[2] + l[3];
}
std::int64_t sum_i32(__m256i v) { return sum_i64(_mm256_add_epi64(widen_lo(v), widen_hi(v))); }

// Per 32-bit lane, den_log adds at most 30720 per step (log2 of a value below
// 2^32 is below 32 * 2048, minus 17 * 2048): flushing every 4096 steps keeps
// it far below 2^31.
constexpr int kDenFlushSteps = 4096;

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
    const __m256i all = _mm256_set1_epi32(-1);
    AccumulateLanes acc;
    std::int64_t den_log = 0;
    std::ptrdiff_t j = 0;
    int steps = 0;
    for (; j + 8 <= w; j += 8) {
        accumulate_step(sigma1_sq, sigma2_sq, sigma12, j, all, log2_q11_table, gl, acc);
        if (++steps == kDenFlushSteps) {
            den_log += sum_i32(acc.den_log);
            acc.den_log = _mm256_setzero_si256();
            steps = 0;
        }
    }
    if (j < w) {
        const int n = static_cast<int>(w - j);
        std::int32_t a[8] = {}, b[8] = {}, c[8] = {};
        copy_first(a, sigma1_sq + j, n);
        copy_first(b, sigma2_sq + j, n);
        copy_first(c, sigma12 + j, n);
        const __m256i valid =
            _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        accumulate_step(a, b, c, 0, valid, log2_q11_table, gl, acc);
    }
    den_log += sum_i32(acc.den_log);
    sums->num_log += sum_i64(acc.num_log);
    sums->den_log += den_log;
    sums->num_non_log += sum_i64(acc.num_non_log);
    sums->den_non_log += acc.den_non_log;
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

template <class T>
void subsample_vertical_avx2(const T* const* ref_rows, const T* const* dis_rows,
                             const std::uint16_t* filter, int taps, int w, int shift,
                             std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m256i rnd = _mm256_set1_epi32(static_cast<int>(round_for(shift)));
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8)
        subsample_vertical_step(ref_rows, dis_rows, j, filter, taps, sh, rnd, ref_out, dis_out);
    if (j == w) return;
    const int n = static_cast<int>(w - j);
    const TailRows<T, 8> tail(ref_rows, dis_rows, taps, j, n);
    std::uint32_t r[8] = {}, d[8] = {};
    subsample_vertical_step(tail.ref_ptr, tail.dis_ptr, 0, filter, taps, sh, rnd, r, d);
    copy_first(ref_out + j, r, n);
    copy_first(dis_out + j, d, n);
}

void subsample_vertical_u8_avx2(const std::uint8_t* const* ref_rows,
                                const std::uint8_t* const* dis_rows, const std::uint16_t* filter,
                                int taps, int w, int shift, std::uint32_t* ref_out,
                                std::uint32_t* dis_out) {
    subsample_vertical_avx2(ref_rows, dis_rows, filter, taps, w, shift, ref_out, dis_out);
}
void subsample_vertical_u16_avx2(const std::uint16_t* const* ref_rows,
                                 const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                                 int taps, int w, int shift, std::uint32_t* ref_out,
                                 std::uint32_t* dis_out) {
    subsample_vertical_avx2(ref_rows, dis_rows, filter, taps, w, shift, ref_out, dis_out);
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

void subsample_horizontal_avx2(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
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

void stat_row_u8_avx2(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                      const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                      std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                      const VifRowReduce* reduce) {
    vif_stat_row_u8_by(vif_kernels_for(SimdLevel::avx2), ref_rows, dis_rows, filter, taps, w,
                       scratch, sigma1_sq, sigma2_sq, sigma12, reduce);
}

void stat_row_u16_avx2(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                       const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                       std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                       std::int32_t* sigma12) {
    vif_stat_row_u16_by(vif_kernels_for(SimdLevel::avx2), ref_rows, dis_rows, filter, taps, w,
                        shift_mu, shift_sq, scratch, sigma1_sq, sigma2_sq, sigma12);
}

}  // namespace

// Every VIF kernel has a twin at this level (VifKernels order).
void vif_init_avx2(VifKernels& k) {
    k = VifKernels{
        stat_vertical_u8_avx2,
        stat_vertical_u16_avx2,
        stat_horizontal_avx2,
        stat_row_u8_avx2,
        stat_row_u16_avx2,
        accumulate_avx2,
        subsample_vertical_u8_avx2,
        subsample_vertical_u16_avx2,
        subsample_horizontal_avx2,
    };
}

}  // namespace vmafpp::vif
