// AVX-512 twins of the VIF statistics kernels (the vertical passes, the
// horizontal pass, the fused rows) and of the reduction's horizontal pass,
// compiled with the AVX-512 flags like vif_avx512.cpp, which puts them in
// the table. The contract is vif_avx2.cpp's: the scalar
// kernel's results bit for bit on any input the scalar defines.
//
// This file is compiled twice: on its own for the avx512 level, and through
// vif_stats_avx512icl.cpp with the ICL flags, where every multiply-add that
// feeds an accumulator becomes one VNNI vpdpwssd (madd_add below) and the
// exported kernels take the suffix _avx512icl. Nothing else differs, so the
// exactness arguments below hold for both.
//
// The 16-bit vertical pass uses vpmaddwd on 16-bit halves of the products
// (below); a twin with 64-bit lanes had measured slower than AVX2 on Zen 4.
//
// Tails use masked loads and stores: a masked-off element is neither read
// (no fault, even past the end of a row) nor written.
//
// No standard-library template is used here (see vif_avx2.cpp).
//
// GCC 12's AVX-512 headers warn about their own "undefined" vectors (GCC PR
// 105593; see vif_avx512.cpp), here for the 256-bit halves and narrowings.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstdint>

#include "vif/vif_kernels.hpp"
#include "vif/vif_tap_pairs.hpp"

#ifndef VMAFPP_VIF_STATS_SUFFIX
#define VMAFPP_VIF_STATS_SUFFIX _avx512
#define VMAFPP_VIF_STATS_LEVEL SimdLevel::avx512
#endif
#define VMAFPP_VIF_STATS_CAT2(name, suffix) name##suffix
#define VMAFPP_VIF_STATS_CAT(name, suffix) VMAFPP_VIF_STATS_CAT2(name, suffix)
#define VMAFPP_VIF_STATS_KERNEL(name) VMAFPP_VIF_STATS_CAT(name, VMAFPP_VIF_STATS_SUFFIX)
// The table whose separate kernels the fused one falls back to.
#define VMAFPP_VIF_STATS_TABLE() vif_kernels_for(VMAFPP_VIF_STATS_LEVEL)

namespace vmafpp::vif {

namespace {

constexpr int kMaxTaps = 2 * kMaxHalf + 1;

// acc + vpmaddwd(a, c) per int32 lane. vpmaddwd adds its two int16 x int16
// products modulo 2^32 (only (-32768)^2 + (-32768)^2 = 2^31 wraps), and
// vpdpwssd adds both products and acc modulo 2^32 without saturating: the
// same value, so the VNNI build returns exactly what the other one does.
inline __m512i madd_add(__m512i acc, __m512i a, __m512i c) {
#if defined(__AVX512VNNI__)
    return _mm512_dpwssd_epi32(acc, a, c);
#else
    return _mm512_add_epi32(acc, _mm512_madd_epi16(a, c));
#endif
}

// The first n bits set (n <= 64).
inline __mmask64 first_bits64(int n) { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }
inline __mmask16 first_bits16(int n) {
    return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << (n < 0 ? 0 : n)) - 1u);
}

// step(j, valid) over the columns [0, w), 32 at a time, the last step's
// lanes masked to the row.
template <class Step>
[[gnu::always_inline]] inline void for_columns32(int w, Step step) {
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32) step(j, ~__mmask32{0});
    if (j < w) step(j, static_cast<__mmask32>(first_bits64(static_cast<int>(w - j))));
}

// ---------------------------------------------------------------------------
// Vertical statistics, 8-bit samples.
//
// With a = p - 128 and b = q - 128 (|a|, |b| <= 128), every factor fits a
// signed 16-bit lane: a, a * a <= 16384, a * b in [-16256, 16384]. vpmaddwd
// then filters two rows at once: rows t and t+1 interleaved as 16-bit pairs,
// times the pair (c_t, c_t+1). That needs c < 32768 (a signed 16-bit
// coefficient); one product is then at most 32767 * 16384 < 2^29 and a pair
// sum below 2^30, so vpmaddwd is exact. The wanted sums follow in uint32
// arithmetic, which is arithmetic modulo 2^32 like the scalar's accumulators
// (C is the sum of the taps):
//   sum c p     = sum c a + 128 C
//   sum c p p   = sum c a a + 256 sum c a + 16384 C
//   sum c p q   = sum c a b + 128 (sum c a + sum c b) + 16384 C
// An odd tap count pairs the last row with itself and a zero coefficient.
//
// Two output rows per call (taps + 1 rows, the second row's coefficient
// pairs shifted by one, sharing the loads, unpacks and 16-bit products) was
// only 1.06x faster than two calls in a prototype: the multiply-adds, which
// are not shared, bound the loop.

struct RowsU8 {
    const std::uint8_t* const* ref;
    const std::uint8_t* const* dis;
};

// Rows t and u of 32 columns, minus 128, interleaved as int16 pairs: lo
// holds columns 0-7 and 16-23, hi columns 8-15 and 24-31 (vpunpck*bw pairs
// bytes within 128-bit lanes). p ^ 0x80 is p - 128 as a signed byte, so the
// centring and the interleave run on 32-byte vectors and one sign extension
// per half widens them; lanes past `valid` read nothing.
struct RowPair {
    __m512i lo, hi;
};
inline RowPair centred_pair(const std::uint8_t* p, const std::uint8_t* q, __mmask32 valid) {
    const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
    const __m256i x = _mm256_xor_si256(_mm256_maskz_loadu_epi8(valid, p), flip);
    const __m256i y = _mm256_xor_si256(_mm256_maskz_loadu_epi8(valid, q), flip);
    return {_mm512_cvtepi8_epi16(_mm256_unpacklo_epi8(x, y)),
            _mm512_cvtepi8_epi16(_mm256_unpackhi_epi8(x, y))};
}

// The five uint32 results of a 32-column step (mu1, mu2, xx, yy, xy), 16
// columns in lo and 16 in hi: in pair order from the 8-bit pass (lo holds
// columns 0-7 and 16-23), in unpack order from the 16-bit one.
struct VerticalSums {
    __m512i lo[5], hi[5];
};

// The scale's reduction (vif_subsample_vertical_u8), fused into the 8-bit
// vertical step: its rows start at an even offset into the statistics rows,
// so its tap pairs ride on the statistics' pairs first .. first + count - 1
// and reuse their centred samples. Its sums start at 128 C_r (C_r its tap
// sum, undoing the centring) plus the rounding, so (sum >> shift) & 0xFFFF
// is the scalar's uint16 output; c < 2^15 keeps vpmaddwd exact as above,
// and the sums wrap modulo 2^32 as the scalar's uint32 ones.
struct ReduceTaps {
    const std::uint32_t* pairs;
    int first;
    int count;
    __m512i start;
};
struct ReduceSums {
    __m512i ref_lo, ref_hi, dis_lo, dis_hi;  // pair order, as VerticalSums
};

// fn(k, c, a, b) for each tap pair k of the rows at column j: c the pair's
// taps (pairs[k]) in every lane, a and b the centred row pairs 2k, 2k + 1
// of ref and dis, loaded by `load` (for_each_tap_pair: an odd count pairs
// the last row with itself and a zero tap; kTaps as there).
template <int kTaps, class Rows, class Load, class Fn>
[[gnu::always_inline]] inline void for_tap_pairs(Rows rows, std::ptrdiff_t j,
                                                 const std::uint32_t* pairs, int taps, Load load,
                                                 Fn fn) {
    for_each_tap_pair<kTaps>(taps, [&](int t, int u) __attribute__((always_inline)) {
        fn(t / 2, _mm512_set1_epi32(static_cast<int>(pairs[t / 2])),
           load(rows.ref[t] + j, rows.ref[u] + j), load(rows.dis[t] + j, rows.dis[u] + j));
    });
}

// kTaps as for_tap_pairs'; kRedFirst and kRedCount the fused reduction's
// first pair and pair count when known at compile time (-1: read red).
template <int kTaps, bool kReduce, int kRedFirst = -1, int kRedCount = -1>
[[gnu::always_inline]] inline VerticalSums vertical_u8_sums(RowsU8 rows, std::ptrdiff_t j,
                                                            const std::uint32_t* pairs, int taps,
                                                            std::uint32_t taps_sum, __mmask32 valid,
                                                            const ReduceTaps* red = nullptr,
                                                            ReduceSums* rs = nullptr) {
    if constexpr (kReduce) *rs = {red->start, red->start, red->start, red->start};
    // The moments' constant 16384 C starts their accumulators (see above).
    const __m512i c16384 = _mm512_set1_epi32(static_cast<int>(16384u * taps_sum));
    __m512i m1_lo = _mm512_setzero_si512(), m1_hi = m1_lo, m2_lo = m1_lo, m2_hi = m1_lo;
    __m512i xx_lo = c16384, xx_hi = c16384, yy_lo = c16384, yy_hi = c16384, xy_lo = c16384,
            xy_hi = c16384;
    for_tap_pairs<kTaps>(
        rows, j, pairs, taps,
        [&](const std::uint8_t* p, const std::uint8_t* q) __attribute__((always_inline)) {
            return centred_pair(p, q, valid);
        },
        [&](int pair, __m512i c, RowPair a, RowPair b) __attribute__((always_inline)) {
            const __m512i a_lo = a.lo, a_hi = a.hi, b_lo = b.lo, b_hi = b.hi;
            m1_lo = madd_add(m1_lo, a_lo, c);
            m1_hi = madd_add(m1_hi, a_hi, c);
            m2_lo = madd_add(m2_lo, b_lo, c);
            m2_hi = madd_add(m2_hi, b_hi, c);
            xx_lo = madd_add(xx_lo, _mm512_mullo_epi16(a_lo, a_lo), c);
            xx_hi = madd_add(xx_hi, _mm512_mullo_epi16(a_hi, a_hi), c);
            yy_lo = madd_add(yy_lo, _mm512_mullo_epi16(b_lo, b_lo), c);
            yy_hi = madd_add(yy_hi, _mm512_mullo_epi16(b_hi, b_hi), c);
            xy_lo = madd_add(xy_lo, _mm512_mullo_epi16(a_lo, b_lo), c);
            xy_hi = madd_add(xy_hi, _mm512_mullo_epi16(a_hi, b_hi), c);
            if constexpr (kReduce) {
                const int k = pair - (kRedFirst >= 0 ? kRedFirst : red->first);
                if (k >= 0 && k < (kRedCount >= 0 ? kRedCount : red->count)) {
                    const __m512i rc = _mm512_set1_epi32(static_cast<int>(red->pairs[k]));
                    rs->ref_lo = madd_add(rs->ref_lo, a_lo, rc);
                    rs->ref_hi = madd_add(rs->ref_hi, a_hi, rc);
                    rs->dis_lo = madd_add(rs->dis_lo, b_lo, rc);
                    rs->dis_hi = madd_add(rs->dis_hi, b_hi, rc);
                }
            }
        });
    // 128 C and the mean's rounding 128 in one constant.
    const __m512i c128r = _mm512_set1_epi32(static_cast<int>(128u * taps_sum + 128u));
    auto mean = [&](__m512i s) { return _mm512_srli_epi32(_mm512_add_epi32(s, c128r), 8); };
    auto square = [&](__m512i s2, __m512i s1) {
        return _mm512_add_epi32(s2, _mm512_slli_epi32(s1, 8));
    };
    auto cross = [&](__m512i x, __m512i s1, __m512i t1) {
        return _mm512_add_epi32(x, _mm512_slli_epi32(_mm512_add_epi32(s1, t1), 7));
    };
    return {{mean(m1_lo), mean(m2_lo), square(xx_lo, m1_lo), square(yy_lo, m2_lo),
             cross(xy_lo, m1_lo, m2_lo)},
            {mean(m1_hi), mean(m2_hi), square(xx_hi, m1_hi), square(yy_hi, m2_hi),
             cross(xy_hi, m1_hi, m2_hi)}};
}

// 32 uint32 in pair order stored in column order; lanes past `valid` are not
// written.
inline void store_pair_order(__m512i lo, __m512i hi, __mmask32 valid, std::uint32_t* dst) {
    const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    const __m512i second =
        _mm512_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
    _mm512_mask_storeu_epi32(dst, static_cast<__mmask16>(valid),
                             _mm512_permutex2var_epi32(lo, first, hi));
    _mm512_mask_storeu_epi32(dst + 16, static_cast<__mmask16>(valid >> 16),
                             _mm512_permutex2var_epi32(lo, second, hi));
}

// One 32-column step stored as uint32 rows in column order.
inline void stat_vertical_u8_step(RowsU8 rows, std::ptrdiff_t j, const std::uint32_t* pairs,
                                  int taps, std::uint32_t taps_sum, __mmask32 valid,
                                  const VifStatRow& out) {
    const VerticalSums v = vertical_u8_sums<0, false>(rows, j, pairs, taps, taps_sum, valid);
    std::uint32_t* const dst[5] = {out.mu1, out.mu2, out.xx, out.yy, out.xy};
    for (int q = 0; q < 5; ++q) store_pair_order(v.lo[q], v.hi[q], valid, dst[q] + j);
}

void stat_vertical_u8_avx512(const std::uint8_t* const* ref_rows,
                             const std::uint8_t* const* dis_rows, const std::uint16_t* filter,
                             int taps, int w, const VifStatRow& out) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!f.taps_below_2_15) {
        // A coefficient vpmaddwd would read as negative: the general
        // (widening) kernel.
        vif_kernels_for(SimdLevel::avx2)
            .stat_vertical_u8(ref_rows, dis_rows, filter, taps, w, out);
        return;
    }
    for_columns32(w, [&](std::ptrdiff_t j, __mmask32 valid) {
        stat_vertical_u8_step({ref_rows, dis_rows}, j, f.pairs, taps, f.sum, valid, out);
    });
}

// ---------------------------------------------------------------------------
// Vertical statistics, 16-bit samples.
//
// With a = p - 32768 and b = q - 32768 (int16), vpmaddwd filters two rows at
// once as in the 8-bit pass, needing every c < 32768 and C = sum c <= 65536.
// The products a * a and a * b (|.| <= 2^30) do not fit 16 bits: each is
// split as 2^16 H + L, H its signed high half (mulhi), L its low half
// (mullo) stored centred as L - 32768. Every partial sum of c times an int16
// value lies in [-32768 C, 32767 C], inside int32 since C <= 65536, so each
// of sum c a, sum c H, sum c (L - 32768) is exact in an int32 lane. With
// A = sum c a, B = sum c b, and since p p = 2^16 (H + a + 2^14) + L and
// p q = 2^16 H + L + 2^15 (a + b) + 2^30:
//   P = sum c p   = A + 32768 C                      (uint32, exact)
//   U = sum c L   = sum c (L - 32768) + 32768 C      (uint32, <= 65535 C)
//   sum c p p     = 2^16 T + U,  T = sum c H + A + 2^14 C = sum c floor(p p / 2^16)
//                                  (uint32, <= 65535 C)
//   sum c p q     = 2^16 T + U + 2^15 (P + Q),  T = sum c H - 2^14 C (int32)
// Each needs only 32-bit lanes modulo 2^32 up to this point. Filters outside
// these bounds (libvmaf's filter 3) take the AVX2 kernel.

// The 32 columns of a step in order: unpacklo/hi interleave rows t and t+1
// per 128-bit lane, so "lo" holds columns 0-3, 8-11, 16-19, 24-27.
struct Columns {
    __m512i first;   // columns 0-15 from (lo, hi)
    __m512i second;  // columns 16-31
};
inline Columns column_order() {
    return {_mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23),
            _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31)};
}

// Sums of one product (a a, b b or a b) of a 32-column step, lo/hi halves.
struct ProductSums {
    __m512i high_lo, high_hi;  // sum c H
    __m512i low_lo, low_hi;    // sum c (L - 32768)
};

inline void add_product(ProductSums& s, __m512i x_lo, __m512i x_hi, __m512i y_lo, __m512i y_hi,
                        __m512i c) {
    const __m512i centre = _mm512_set1_epi16(static_cast<short>(0x8000));
    s.high_lo = madd_add(s.high_lo, _mm512_mulhi_epi16(x_lo, y_lo), c);
    s.high_hi = madd_add(s.high_hi, _mm512_mulhi_epi16(x_hi, y_hi), c);
    s.low_lo = madd_add(s.low_lo, _mm512_xor_si512(_mm512_mullo_epi16(x_lo, y_lo), centre), c);
    s.low_hi = madd_add(s.low_hi, _mm512_xor_si512(_mm512_mullo_epi16(x_hi, y_hi), centre), c);
}

struct StatU16Params {
    __m128i shift_mu, shift_sq;
    __m512i round_mu, round_sq;  // round_sq as 8 x uint64
    bool shift16;                // shift_sq == 16 (every scale after 0)
    std::uint32_t taps_sum;
};

inline StatU16Params stat_u16_params(int shift_mu, int shift_sq, std::uint32_t taps_sum) {
    const auto round = [](int shift) { return shift == 0 ? 0u : (1u << (shift - 1)); };
    return {
        _mm_cvtsi32_si128(shift_mu),
        _mm_cvtsi32_si128(shift_sq),
        _mm512_set1_epi32(static_cast<int>(round(shift_mu))),
        _mm512_set1_epi64(static_cast<long long>(round(shift_sq))),
        shift_sq == 16,
        taps_sum,
    };
}

struct RowsU16 {
    const std::uint16_t* const* ref;
    const std::uint16_t* const* dis;
};

// Each moment is 2^16 T + U (+ 2^15 (P + Q) for the cross one) with uint32
// T and U as below, so the 64-bit sums are only formed here. For shift_sq 16
// the uint32 result is T + ((U + 2^15) >> 16) (modulo 2^32), U + 2^15 < 2^32
// since U <= 65535 C <= 2^32 - 2^16; no 64-bit lane is needed.
inline __m512i moment_u64(__m512i t, __m512i u, const StatU16Params& prm) {
    auto eight = [&](__m256i tv, __m256i uv) {
        const __m512i v = _mm512_add_epi64(_mm512_slli_epi64(_mm512_cvtepu32_epi64(tv), 16),
                                           _mm512_cvtepu32_epi64(uv));
        return _mm512_cvtepi64_epi32(
            _mm512_srl_epi64(_mm512_add_epi64(v, prm.round_sq), prm.shift_sq));
    };
    return _mm512_inserti64x4(
        _mm512_castsi256_si512(eight(_mm512_castsi512_si256(t), _mm512_castsi512_si256(u))),
        eight(_mm512_extracti64x4_epi64(t, 1), _mm512_extracti64x4_epi64(u, 1)), 1);
}
inline __m512i square_moment(__m512i t, __m512i u, const StatU16Params& prm) {
    if (prm.shift16)
        return _mm512_add_epi32(
            t, _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(32768)), 16));
    return moment_u64(t, u, prm);
}
// The cross moment: T here is sum c H - 2^14 C (any sign, used modulo 2^32),
// P = sum c p and Q = sum c q (uint32, exact). With 2^15 P = 2^16 (P >> 1)
// + 2^15 (P & 1), the shift-16 result is T + (P >> 1) + (Q >> 1) +
// ((U + 2^15 (1 + (P & 1) + (Q & 1))) >> 16), whose last sum may reach
// 2^32: it is taken as ((U >> 1) + 2^14 (1 + (P & 1) + (Q & 1))) >> 15,
// the same value (the added terms are even).
inline __m512i cross_moment(__m512i t, __m512i u, __m512i p, __m512i q, const StatU16Params& prm) {
    const __m512i one = _mm512_set1_epi32(1);
    if (prm.shift16) {
        const __m512i odd = _mm512_add_epi32(
            _mm512_add_epi32(_mm512_and_si512(p, one), _mm512_and_si512(q, one)), one);
        const __m512i carry = _mm512_srli_epi32(
            _mm512_add_epi32(_mm512_srli_epi32(u, 1), _mm512_slli_epi32(odd, 14)), 15);
        return _mm512_add_epi32(_mm512_add_epi32(t, carry),
                                _mm512_add_epi32(_mm512_srli_epi32(p, 1), _mm512_srli_epi32(q, 1)));
    }
    auto eight = [&](__m256i tv, __m256i uv, __m256i pv, __m256i qv) {
        const __m512i pq = _mm512_add_epi64(_mm512_cvtepu32_epi64(pv), _mm512_cvtepu32_epi64(qv));
        const __m512i v =
            _mm512_add_epi64(_mm512_add_epi64(_mm512_slli_epi64(_mm512_cvtepi32_epi64(tv), 16),
                                              _mm512_cvtepu32_epi64(uv)),
                             _mm512_slli_epi64(pq, 15));
        return _mm512_cvtepi64_epi32(
            _mm512_srl_epi64(_mm512_add_epi64(v, prm.round_sq), prm.shift_sq));
    };
    auto lo = [](__m512i v) { return _mm512_castsi512_si256(v); };
    auto hi = [](__m512i v) { return _mm512_extracti64x4_epi64(v, 1); };
    return _mm512_inserti64x4(_mm512_castsi256_si512(eight(lo(t), lo(u), lo(p), lo(q))),
                              eight(hi(t), hi(u), hi(p), hi(q)), 1);
}

// The five uint32 results of a 32-column step in unpack order (lo: columns
// 0-3, 8-11, 16-19, 24-27; hi the others). Every operation after the
// multiply-adds works lane by lane, so the order is only fixed when the
// caller stores. Forced inline: GCC 12 kept the step out of line (a call per
// 32 columns), which made scale 1 (9 taps, 960 columns) about twice as slow.
// kTaps as for_tap_pairs' (0: read `taps`).
template <int kTaps>
[[gnu::always_inline]] inline VerticalSums vertical_u16_sums(RowsU16 rows, std::ptrdiff_t j,
                                                             const std::uint32_t* pairs, int taps,
                                                             const StatU16Params& prm,
                                                             __mmask32 valid) {
    const __m512i centre = _mm512_set1_epi16(static_cast<short>(0x8000));
    __m512i a_lo_s = _mm512_setzero_si512(), a_hi_s = a_lo_s, b_lo_s = a_lo_s, b_hi_s = a_lo_s;
    ProductSums xx{a_lo_s, a_lo_s, a_lo_s, a_lo_s}, yy = xx, xy = xx;
    for_tap_pairs<kTaps>(
        rows, j, pairs, taps,
        [&](const std::uint16_t* p, const std::uint16_t* q) __attribute__((always_inline)) {
            const __m512i r0 = _mm512_xor_si512(_mm512_maskz_loadu_epi16(valid, p), centre);
            const __m512i r1 = _mm512_xor_si512(_mm512_maskz_loadu_epi16(valid, q), centre);
            return RowPair{_mm512_unpacklo_epi16(r0, r1), _mm512_unpackhi_epi16(r0, r1)};
        },
        [&](int, __m512i c, RowPair a, RowPair b) __attribute__((always_inline)) {
            a_lo_s = madd_add(a_lo_s, a.lo, c);
            a_hi_s = madd_add(a_hi_s, a.hi, c);
            b_lo_s = madd_add(b_lo_s, b.lo, c);
            b_hi_s = madd_add(b_hi_s, b.hi, c);
            add_product(xx, a.lo, a.hi, a.lo, a.hi, c);
            add_product(yy, b.lo, b.hi, b.lo, b.hi, c);
            add_product(xy, a.lo, a.hi, b.lo, b.hi, c);
        });
    const std::uint32_t c = prm.taps_sum;
    // 32768 C: P = A + 32768 C and U = sum c (L - 32768) + 32768 C.
    const __m512i c15 = _mm512_set1_epi32(static_cast<int>(32768u * c));
    // 2^14 C: T of a square is sum c H + A + 2^14 C, of the cross one sum c H - 2^14 C.
    const __m512i c14 = _mm512_set1_epi32(static_cast<int>(16384u * c));
    const __m512i low16 = _mm512_set1_epi32(0xFFFF);
    // The scalar's uint32 mean, rounded and shifted, cast to uint16.
    auto mean = [&](__m512i m) {
        return _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(m, prm.round_mu), prm.shift_mu),
                                low16);
    };
    auto moments = [&](__m512i sa, __m512i sb, __m512i xx_h, __m512i xx_l, __m512i yy_h,
                       __m512i yy_l, __m512i xy_h, __m512i xy_l, __m512i* dst) {
        const __m512i p = _mm512_add_epi32(sa, c15);
        const __m512i q = _mm512_add_epi32(sb, c15);
        auto t_square = [&](__m512i high, __m512i s1) {
            return _mm512_add_epi32(_mm512_add_epi32(high, s1), c14);
        };
        dst[0] = mean(p);
        dst[1] = mean(q);
        dst[2] = square_moment(t_square(xx_h, sa), _mm512_add_epi32(xx_l, c15), prm);
        dst[3] = square_moment(t_square(yy_h, sb), _mm512_add_epi32(yy_l, c15), prm);
        dst[4] = cross_moment(_mm512_sub_epi32(xy_h, c14), _mm512_add_epi32(xy_l, c15), p, q, prm);
    };
    VerticalSums v;
    moments(a_lo_s, b_lo_s, xx.high_lo, xx.low_lo, yy.high_lo, yy.low_lo, xy.high_lo, xy.low_lo,
            v.lo);
    moments(a_hi_s, b_hi_s, xx.high_hi, xx.low_hi, yy.high_hi, yy.low_hi, xy.high_hi, xy.low_hi,
            v.hi);
    return v;
}

// One 32-column step stored as uint32 rows in column order.
[[gnu::always_inline]] inline void stat_vertical_u16_step(RowsU16 rows, std::ptrdiff_t j,
                                                          const std::uint32_t* pairs, int taps,
                                                          const StatU16Params& prm, __mmask32 valid,
                                                          const VifStatRow& out) {
    const VerticalSums v = vertical_u16_sums<0>(rows, j, pairs, taps, prm, valid);
    const Columns order = column_order();
    const __mmask16 k0 = static_cast<__mmask16>(valid);
    const __mmask16 k1 = static_cast<__mmask16>(valid >> 16);
    std::uint32_t* const dst[5] = {out.mu1, out.mu2, out.xx, out.yy, out.xy};
    for (int q = 0; q < 5; ++q) {
        _mm512_mask_storeu_epi32(dst[q] + j, k0,
                                 _mm512_permutex2var_epi32(v.lo[q], order.first, v.hi[q]));
        _mm512_mask_storeu_epi32(dst[q] + j + 16, k1,
                                 _mm512_permutex2var_epi32(v.lo[q], order.second, v.hi[q]));
    }
}

void stat_vertical_u16_avx512(const std::uint16_t* const* ref_rows,
                              const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                              int taps, int w, int shift_mu, int shift_sq, const VifStatRow& out) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!f.taps_below_2_15 || f.sum > 65536) {
        vif_kernels_for(SimdLevel::avx2)
            .stat_vertical_u16(ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq, out);
        return;
    }
    const StatU16Params prm = stat_u16_params(shift_mu, shift_sq, f.sum);
    for_columns32(w, [&](std::ptrdiff_t j, __mmask32 valid) {
        stat_vertical_u16_step({ref_rows, dis_rows}, j, f.pairs, taps, prm, valid, out);
    });
}

// ---------------------------------------------------------------------------
// Horizontal statistics with vpmaddwd.
//
// Each 32-bit input x is split into 16-bit halves, x = 2^16 h + l, stored
// centred (h - 32768, l - 32768 fit int16) in chunk buffers. Horizontally
// adjacent taps read adjacent samples, so one 32-bit lane of a load at y + o
// holds the pair (y[o + 2k], y[o + 2k + 1]): vpmaddwd with the coefficient
// pair (c_t, c_t+1) gives taps t, t+1 of output 2k. The odd outputs read the
// same pairs: output 2k + 1 is sum_j c_(j-1) y[2k + j], so the pair at o = 2p
// meets the coefficient pair (c_2p-1, c_2p) (see filter_pairs). With every
// c < 32768 a product is at most 2^30 in magnitude and a pair sum fits
// int32, so vpmaddwd is exact; taps outside [0, taps) are zero coefficients.
// With C = sum c:
//   H = sum c h = sum c (h - 32768) + 32768 C     (needed modulo 2^32)
//   L = sum c l = sum c (l - 32768) + 32768 C     (needed exactly)
// If C <= 65536, 0 <= L <= 65535 C < 2^32, so L modulo 2^32 is L itself.
// The scalar's values then follow in uint32 arithmetic:
//   mean   sum c x mod 2^32               = (H << 16) + L
//   moment ((sum c x + 2^15) >> 16) mod 2^32 = H + ((L + 2^15) >> 16)
// (2^16 H is a multiple of 2^16; L + 2^15 < 2^32 does not wrap). Filters
// outside these bounds (libvmaf's filter 3 has 43728) take the AVX2 kernel.

constexpr int kChunk = 256;
// A block's loads read its split samples [b, b + 64) (sample 0 is input
// -half); the split writes whole vectors of 32 up to len = n32 + 2 * pairs
// rounded up (pairs >= 1), so the loads of the last block stay below
// n32 + 32 <= len.
constexpr int kSplitLen = kChunk + 2 * kMaxHalf + 32;

// The horizontal pass's fast path: every tap below 2^15, a tap sum <= 65536.
inline bool pair_filter_fits(const VifFilterShape& f) {
    return f.taps_below_2_15 && f.sum <= 65536;
}

struct SplitRow {
    alignas(64) std::int16_t h[kSplitLen];
    alignas(64) std::int16_t l[kSplitLen];
};

// Centred 16-bit halves of 32 inputs src[i, i + 32) (those at or past
// `valid` read as 0): x ^ 0x80008000 centres both halves at once, then one
// permutation gathers the low halves and one the high halves.
inline __m512i load_centred(const std::uint32_t* src, int i, int valid) {
    const __m512i flip = _mm512_set1_epi32(static_cast<int>(0x80008000u));
    // Whole vectors, the common case, without a mask.
    const __m512i v = i + 16 <= valid ? _mm512_loadu_si512(src + i)
                                      : _mm512_maskz_loadu_epi32(first_bits16(valid - i), src + i);
    return _mm512_xor_si512(v, flip);
}
inline __m512i low_halves(__m512i a, __m512i b) {
    const __m512i idx =
        _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26,
                         24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    return _mm512_permutex2var_epi16(a, idx, b);
}
inline __m512i high_halves(__m512i a, __m512i b) {
    const __m512i idx =
        _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27,
                         25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(a, idx, b);
}

// Splits src[0, valid) into centred halves over [0, len) (len a multiple of
// 32). With `high` false only the low halves are written, and the result
// says whether every input is below 2^16 (its high half then is 0).
inline bool split_row(const std::uint32_t* src, int valid, int len, bool high, SplitRow& out) {
    const __m512i flip = _mm512_set1_epi32(static_cast<int>(0x80008000u));
    __m512i any = _mm512_setzero_si512();
    for (int i = 0; i < len; i += 32) {
        const __m512i a = load_centred(src, i, valid);
        const __m512i b = load_centred(src, i + 16, valid);
        _mm512_store_si512(out.l + i, low_halves(a, b));
        if (high) {
            _mm512_store_si512(out.h + i, high_halves(a, b));
        } else {
            // any |= (a ^ flip) | (b ^ flip), the uncentred inputs.
            any = _mm512_or_si512(any, _mm512_ternarylogic_epi32(a, b, flip, 0x7E));
        }
    }
    return high ||
           _mm512_test_epi32_mask(any, _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))) == 0;
}

// Centred filter sums of outputs b + 2k (even) and b + 2k + 1 (odd), each
// plus `start` (modulo 2^32): a constant the caller needs added anyway rides
// in the first multiply-add, which VNNI fuses with the add.
struct Parity {
    __m512i even;
    __m512i odd;
};
// Window p (dword lane k holds y[2k + 2p], y[2k + 2p + 1]) feeds both
// parities: the even outputs with (c_2p, c_2p+1), the odd ones with
// (c_2p-1, c_2p). Reading the odd outputs' taps from a load one sample
// further instead cost a cache-line-split load per pair.
// Measured, not kept (BM_VifExtract/avx512icl/8, CPU time): even windows
// from unaligned loads instead of valignd, 12.5 -> 13.0 ms; product_q16's
// shifts and blend as port-5 shuffles (vpshufd), no change (12.8 ms); the
// last window alone (32 bytes on) from an unaligned load, to take one
// valignd a row off port 5 (vpdpwssd zmm issues on ports 0 and 5 here, as
// vpaddd: equal throughput in a 16-chain loop), checkasm --bench
// vif_stat_row_u8_avx512icl 23.5 -> 23.5-24.1 us.
// The empty asm per window keeps the two running sums in registers: without
// it GCC reassociates the vpmaddwd level's products (no VNNI) into trees that
// spill (fused 8-bit row, 1920 columns, 17 taps: 10.2 -> 8.8 us; the VNNI
// level's chains are unchanged, 6.0 us).
inline Parity filter_pairs(const std::int16_t* y, const __m512i* even, const __m512i* odd,
                           int pairs, __m512i start) {
    // y is 64-byte aligned: every window comes from two aligned loads.
    const __m512i a0 = _mm512_load_si512(y);
    const __m512i a1 = _mm512_load_si512(y + 32);
    __m512i e = madd_add(start, a0, even[0]);
    __m512i o = madd_add(start, a0, odd[0]);
#define VMAFPP_PAIR(P)                                         \
    if (pairs > P) {                                           \
        const __m512i window = _mm512_alignr_epi32(a1, a0, P); \
        e = madd_add(e, window, even[P]);                      \
        o = madd_add(o, window, odd[P]);                       \
        __asm__("" : "+v"(e), "+v"(o));                        \
    }
    VMAFPP_PAIR(1)
    VMAFPP_PAIR(2)
    VMAFPP_PAIR(3)
    VMAFPP_PAIR(4)
    VMAFPP_PAIR(5)
    VMAFPP_PAIR(6)
    VMAFPP_PAIR(7)
    VMAFPP_PAIR(8)
#undef VMAFPP_PAIR
    return {e, o};
}

// (a * b + 2^31) >> 32 per uint32 lane.
inline __m512i product_q16(__m512i a, __m512i b) {
    const __m512i half32 = _mm512_set1_epi64(0x80000000LL);
    const __m512i e = _mm512_add_epi64(_mm512_mul_epu32(a, b), half32);
    const __m512i o = _mm512_add_epi64(
        _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)), half32);
    // Even lanes: the high half of e moved down; odd lanes: the high half of o.
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e, 32), o);
}

// The filter as the horizontal blocks use it.
struct HorizontalFilter {
    __m512i even[kMaxHalf + 1];  // tap pairs (c_2p, c_2p+1)
    __m512i odd[kMaxHalf + 1];   // tap pairs (c_2p-1, c_2p)
    int pairs;                   // taps / 2 + 1: both sets, zero-padded
    __m512i bias;                // 32768 C, the centring's correction of H and L (modulo 2^32)
    __m512i bias_round;          // bias + 2^15: L's correction plus the moment's rounding
};

inline HorizontalFilter horizontal_filter(const std::uint16_t* filter, int taps,
                                          std::uint32_t taps_sum) {
    HorizontalFilter hf;
    // An odd tap count needs (taps + 1) / 2 pairs in both sets; an even one
    // taps / 2 even pairs and one odd pair more, so the even set gets a zero
    // pair and both run the same count.
    hf.pairs = taps / 2 + 1;
    auto tap = [&](int t) { return t >= 0 && t < taps ? std::uint32_t{filter[t]} : 0u; };
    auto pair = [&](int t) {
        return _mm512_set1_epi32(static_cast<int>(tap(t) | (tap(t + 1) << 16)));
    };
    for (int p = 0; p < hf.pairs; ++p) {
        hf.even[p] = pair(2 * p);
        hf.odd[p] = pair(2 * p - 1);
    }
    hf.bias = _mm512_set1_epi32(static_cast<int>(32768u * taps_sum));
    hf.bias_round = _mm512_set1_epi32(static_cast<int>(32768u * taps_sum + 32768u));
    return hf;
}

// Outputs [0, n) (n <= 32) of a block from split inputs whose sample 0 is
// the block's first output's leftmost input (64-byte aligned): l[k] the
// centred low halves of mu1, mu2, xx, yy, xy, h[k] the high halves (of the
// means only read when means_16bit is false). kPairs > 0 is hf.pairs known
// at compile time: filter_pairs then unrolls without a test per pair.
template <int kPairs = 0>
[[gnu::always_inline]] inline void horizontal_block(const HorizontalFilter& hf,
                                                    const std::int16_t* const* l,
                                                    const std::int16_t* const* h, bool means_16bit,
                                                    int n, std::int32_t* sigma1_sq,
                                                    std::int32_t* sigma2_sq,
                                                    std::int32_t* sigma12) {
    const int pairs = kPairs > 0 ? kPairs : hf.pairs;
    Parity mean[2], moment[3];
    for (int k = 0; k < 2; ++k) {
        mean[k] = filter_pairs(l[k], hf.even, hf.odd, pairs, hf.bias);
        if (!means_16bit) {
            const Parity hp = filter_pairs(h[k], hf.even, hf.odd, pairs, hf.bias);
            mean[k].even = _mm512_add_epi32(mean[k].even, _mm512_slli_epi32(hp.even, 16));
            mean[k].odd = _mm512_add_epi32(mean[k].odd, _mm512_slli_epi32(hp.odd, 16));
        }
    }
    for (int k = 0; k < 3; ++k) {
        // H + ((L + 2^15) >> 16), each half with its correction included.
        const Parity lp = filter_pairs(l[2 + k], hf.even, hf.odd, pairs, hf.bias_round);
        const Parity hp = filter_pairs(h[2 + k], hf.even, hf.odd, pairs, hf.bias);
        moment[k] = {_mm512_add_epi32(hp.even, _mm512_srli_epi32(lp.even, 16)),
                     _mm512_add_epi32(hp.odd, _mm512_srli_epi32(lp.odd, 16))};
    }
    // uint32 differences read as int32, as the scalar's; even and odd
    // outputs interleaved back into column order.
    const __m512i first = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i second =
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const __mmask32 valid = static_cast<__mmask32>(first_bits64(n));
    auto sigma = [&](std::int32_t* dst, const Parity& m, __m512i pe, __m512i po) {
        const __m512i e = _mm512_sub_epi32(m.even, pe);
        const __m512i o = _mm512_sub_epi32(m.odd, po);
        _mm512_mask_storeu_epi32(dst, static_cast<__mmask16>(valid),
                                 _mm512_permutex2var_epi32(e, first, o));
        _mm512_mask_storeu_epi32(dst + 16, static_cast<__mmask16>(valid >> 16),
                                 _mm512_permutex2var_epi32(e, second, o));
    };
    sigma(sigma1_sq, moment[0], product_q16(mean[0].even, mean[0].even),
          product_q16(mean[0].odd, mean[0].odd));
    sigma(sigma2_sq, moment[1], product_q16(mean[1].even, mean[1].even),
          product_q16(mean[1].odd, mean[1].odd));
    sigma(sigma12, moment[2], product_q16(mean[0].even, mean[1].even),
          product_q16(mean[0].odd, mean[1].odd));
}

void stat_horizontal_avx512(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                            std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                            std::int32_t* sigma12) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!pair_filter_fits(f)) {
        vif_kernels_for(SimdLevel::avx2)
            .stat_horizontal(in, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
        return;
    }
    const std::uint32_t taps_sum = f.sum;
    const int half = taps / 2;
    const HorizontalFilter hf = horizontal_filter(filter, taps, taps_sum);
    const int pairs = hf.pairs;
    const std::uint32_t* src[5] = {in.mu1, in.mu2, in.xx, in.yy, in.xy};
    SplitRow rows[5];
    for (std::ptrdiff_t j0 = 0; j0 < w; j0 += kChunk) {
        const int n = static_cast<int>(w - j0 < kChunk ? w - j0 : kChunk);
        const int n32 = (n + 31) & ~31;
        const int len = (n32 + 2 * pairs + 31) & ~31;
        const int valid = n + 2 * half;
        // Means below 2^16 (always, from the extractor) have H = 0: their
        // high halves are only split when some mean is wider.
        bool means_16bit = true;
        for (int k = 0; k < 2; ++k)
            means_16bit = split_row(src[k] + j0 - half, valid, len, false, rows[k]) && means_16bit;
        if (!means_16bit)
            for (int k = 0; k < 2; ++k) split_row(src[k] + j0 - half, valid, len, true, rows[k]);
        for (int k = 2; k < 5; ++k) split_row(src[k] + j0 - half, valid, len, true, rows[k]);
        for (int b = 0; b < n32; b += 32) {
            const std::int16_t* l[5];
            const std::int16_t* h[5];
            for (int k = 0; k < 5; ++k) {
                l[k] = rows[k].l + b;
                h[k] = rows[k].h + b;
            }
            horizontal_block(hf, l, h, means_16bit, n - b, sigma1_sq + j0 + b, sigma2_sq + j0 + b,
                             sigma12 + j0 + b);
        }
    }
}

// ---------------------------------------------------------------------------
// Fused statistics rows (vif_stat_row_u8, vif_stat_row_u16).
//
// The vertical step's five uint32 results go straight into full-row arrays
// of centred 16-bit halves (x ^ 0x80008000, then the low and the high half
// of each, exactly what split_row makes of the uint32 row), whose index 0 is
// column -half; the mirror is copied inside those arrays and the horizontal
// blocks read them. The values are split_row's, so the horizontal pass's
// argument holds unchanged. The fast path needs what both passes' fast
// paths need: every tap below 2^15 and a tap sum C <= 65536; the means are
// then below 2^16 (8-bit: (65536 * 255 + 128) >> 8 = 65280; 16-bit: cast to
// uint16 as the scalar's), so their high halves (0) are neither stored nor
// read.

// Word indices of the low halves of 32 columns held in pair order (the 8-bit
// pass), in column order: column 16g + r is dword 8g + r of lo (r < 8) or
// 8g + r - 8 of hi; the high halves are the next words.
inline __m512i pair_word_order() {
    // _mm512_set_epi16 lists element 31 first.
    return _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 30, 28, 26, 24, 22, 20, 18, 16, 46, 44,
                            42, 40, 38, 36, 34, 32, 14, 12, 10, 8, 6, 4, 2, 0);
}
// The same for unpack order (the 16-bit pass): column 8g + r is dword 4g + r
// of lo (r < 4) or 4g + r - 4 of hi.
inline __m512i unpack_word_order() {
    return _mm512_set_epi16(62, 60, 58, 56, 30, 28, 26, 24, 54, 52, 50, 48, 22, 20, 18, 16, 46, 44,
                            42, 40, 14, 12, 10, 8, 38, 36, 34, 32, 6, 4, 2, 0);
}

struct HalfRows {
    std::int16_t* l[5];
    std::int16_t* h[5];  // of the moments only
};

// Every block of a fused row (libvmaf's scale-0 filter has 9 tap pairs).
template <int kPairs>
void horizontal_blocks(const HorizontalFilter& hf, const HalfRows& rows, int w,
                       std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    for (int b = 0; b < w; b += 32) {
        const std::int16_t* l[5];
        const std::int16_t* h[5];
        for (int k = 0; k < 5; ++k) {
            l[k] = rows.l[k] + b;
            h[k] = rows.h[k] + b;
        }
        horizontal_block<kPairs>(hf, l, h, true, w - b, sigma1_sq + b, sigma2_sq + b, sigma12 + b);
    }
}

// Interleaving the passes by strips of 512 columns (the horizontal blocks
// reading a strip's half rows right after the vertical pass wrote them, in
// L1 where whole 2160p rows, 77 KiB of half rows, are not) measured no
// faster at 1080p or 2160p (whole run, CPU time): L2 serves the whole rows.
//
// One fused row: `sums(j, valid)` is a 32-column step's VerticalSums, whose
// lane order `low_words` maps to column order. The caller has checked the
// fast path's conditions (pair_filter_fits); the means are below 2^16.
template <class Sums>
[[gnu::always_inline]] inline void fused_row(Sums sums, __m512i low_words,
                                             const std::uint16_t* filter, int taps,
                                             std::uint32_t taps_sum, int w, std::uint32_t* scratch,
                                             std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                                             std::int32_t* sigma12) {
    const int half = taps / 2;
    const std::size_t len = vif_stat_row_half_len(w);
    // 64-byte alignment for the horizontal blocks' aligned loads; the
    // scratch has 16 uint32 to spare for it.
    auto* base = reinterpret_cast<std::int16_t*>((reinterpret_cast<std::uintptr_t>(scratch) + 63) &
                                                 ~std::uintptr_t{63});
    HalfRows rows;
    for (int k = 0; k < 5; ++k) {
        rows.l[k] = base + (2 * k) * len;
        rows.h[k] = base + (2 * k + 1) * len;
    }
    const __m512i flip = _mm512_set1_epi32(static_cast<int>(0x80008000u));
    const __m512i high_words = _mm512_add_epi16(low_words, _mm512_set1_epi16(1));
    auto store = [&](std::ptrdiff_t j, __mmask32 valid) {
        const VerticalSums v = sums(j, valid);
        for (int q = 0; q < 5; ++q) {
            const __m512i lo = _mm512_xor_si512(v.lo[q], flip);
            const __m512i hi = _mm512_xor_si512(v.hi[q], flip);
            _mm512_mask_storeu_epi16(rows.l[q] + half + j, valid,
                                     _mm512_permutex2var_epi16(lo, low_words, hi));
            if (q >= 2)
                _mm512_mask_storeu_epi16(rows.h[q] + half + j, valid,
                                         _mm512_permutex2var_epi16(lo, high_words, hi));
        }
    };
    for_columns32(w, store);

    // The mirror (sample -k is k, w-1+k is w-1-k), and zeros past it, which
    // the last block's loads read into lanes it does not store.
    const std::size_t end = static_cast<std::size_t>(w) + 2 * half;
    auto pad = [&](std::int16_t* a) {
        std::int16_t* p = a + half;
        for (int k = 1; k <= half; ++k) {
            p[-k] = p[k];
            p[w - 1 + k] = p[w - 1 - k];
        }
        for (std::size_t i = end; i < len; ++i) a[i] = 0;
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

// The fused 8-bit row for a filter that fits (pair_filter_fits), with the
// reduction in its vertical step where `red` is given, else none (the
// caller reduces apart). kTaps, kRedFirst and kRedCount: the tap count and
// the reduction's first pair and pair count when known at compile time (0
// and -1 read the arguments).
template <int kTaps, int kRedFirst = -1, int kRedCount = -1>
void stat_row_u8_fits(RowsU8 rows, const std::uint16_t* filter, int taps, const VifFilterShape& f,
                      int w, std::uint32_t* scratch, std::int32_t* sigma1_sq,
                      std::int32_t* sigma2_sq, std::int32_t* sigma12, const VifRowReduce* reduce,
                      const ReduceTaps* red) {
    if (red) {
        const __m128i shift = _mm_cvtsi32_si128(reduce->shift);
        const __m512i low16 = _mm512_set1_epi32(0xFFFF);
        auto out = [&](__m512i v) { return _mm512_and_si512(_mm512_srl_epi32(v, shift), low16); };
        fused_row(
            [&](std::ptrdiff_t j, __mmask32 valid) {
                ReduceSums rs;
                const VerticalSums v = vertical_u8_sums<kTaps, true, kRedFirst, kRedCount>(
                    rows, j, f.pairs, taps, f.sum, valid, red, &rs);
                store_pair_order(out(rs.ref_lo), out(rs.ref_hi), valid, reduce->ref_out + j);
                store_pair_order(out(rs.dis_lo), out(rs.dis_hi), valid, reduce->dis_out + j);
                return v;
            },
            pair_word_order(), filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
        return;
    }
    fused_row(
        [&](std::ptrdiff_t j, __mmask32 valid) {
            return vertical_u8_sums<kTaps, false>(rows, j, f.pairs, taps, f.sum, valid);
        },
        pair_word_order(), filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
}

void stat_row_u8_avx512(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                        const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                        std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                        const VifRowReduce* reduce) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!pair_filter_fits(f)) {
        vif_stat_row_u8_by(VMAFPP_VIF_STATS_TABLE(), ref_rows, dis_rows, filter, taps, w, scratch,
                           sigma1_sq, sigma2_sq, sigma12, reduce);
        return;
    }
    const RowsU8 rows{ref_rows, dis_rows};
    const int offset = reduce ? taps / 2 - reduce->taps / 2 : 0;
    const VifFilterShape rf = reduce ? vif_filter_shape(reduce->filter, reduce->taps) : f;
    // The fused reduction needs its pairs on the statistics' pairs (an even
    // offset), signed taps and a shift the scalar defines on uint32.
    const bool fuse = reduce && offset % 2 == 0 && rf.taps_below_2_15 && reduce->shift < 32;
    const std::uint32_t shift = reduce ? static_cast<std::uint32_t>(reduce->shift) : 0u;
    const std::uint32_t round = shift == 0 || shift >= 32 ? 0u : 1u << (shift - 1);
    const ReduceTaps red{rf.pairs, offset / 2, reduce ? (reduce->taps + 1) / 2 : 0,
                         _mm512_set1_epi32(static_cast<int>(128u * rf.sum + round))};
    const ReduceTaps* r = fuse ? &red : nullptr;
    // The extractor's scale 0: 17 taps, reduced on even rows by 9 taps
    // (pairs 2 to 6 of the 9).
    if (taps == 17 && !r)
        stat_row_u8_fits<17>(rows, filter, taps, f, w, scratch, sigma1_sq, sigma2_sq, sigma12,
                             reduce, r);
    else if (taps == 17 && red.first == 2 && red.count == 5)
        stat_row_u8_fits<17, 2, 5>(rows, filter, taps, f, w, scratch, sigma1_sq, sigma2_sq,
                                   sigma12, reduce, r);
    else
        stat_row_u8_fits<0>(rows, filter, taps, f, w, scratch, sigma1_sq, sigma2_sq, sigma12,
                            reduce, r);
    if (reduce && !fuse)
        VMAFPP_VIF_STATS_TABLE().subsample_vertical_u8(
            ref_rows + offset, dis_rows + offset, reduce->filter, reduce->taps, w, reduce->shift,
            reduce->ref_out, reduce->dis_out);
}

// The fused 16-bit row for a filter that fits, kTaps as for_tap_pairs'.
template <int kTaps>
void stat_row_u16_fits(RowsU16 rows, const std::uint16_t* filter, int taps,
                       const VifFilterShape& f, int w, const StatU16Params& prm,
                       std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                       std::int32_t* sigma12) {
    fused_row(
        [&](std::ptrdiff_t j, __mmask32 valid) {
            return vertical_u16_sums<kTaps>(rows, j, f.pairs, taps, prm, valid);
        },
        unpack_word_order(), filter, taps, f.sum, w, scratch, sigma1_sq, sigma2_sq, sigma12);
}

// The 16-bit row: the vertical pass's conditions (every tap below 2^15, a
// tap sum C <= 65536) are the horizontal pass's, and its means are cast to
// 16 bits, so the 8-bit row's layout and argument carry over.
void stat_row_u16_avx512(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                         const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                         std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                         std::int32_t* sigma12) {
    const VifFilterShape f = vif_filter_shape(filter, taps);
    if (!pair_filter_fits(f)) {
        vif_stat_row_u16_by(VMAFPP_VIF_STATS_TABLE(), ref_rows, dis_rows, filter, taps, w, shift_mu,
                            shift_sq, scratch, sigma1_sq, sigma2_sq, sigma12);
        return;
    }
    const StatU16Params prm = stat_u16_params(shift_mu, shift_sq, f.sum);
    // Scales 1, 2, 3 of the extractor (and scale 0 of a deeper picture).
    switch (taps) {
        case 17:
            stat_row_u16_fits<17>({ref_rows, dis_rows}, filter, taps, f, w, prm, scratch,
                                  sigma1_sq, sigma2_sq, sigma12);
            break;
        case 9:
            stat_row_u16_fits<9>({ref_rows, dis_rows}, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        case 5:
            stat_row_u16_fits<5>({ref_rows, dis_rows}, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        case 3:
            stat_row_u16_fits<3>({ref_rows, dis_rows}, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
            break;
        default:
            stat_row_u16_fits<0>({ref_rows, dis_rows}, filter, taps, f, w, prm, scratch, sigma1_sq,
                                 sigma2_sq, sigma12);
    }
}

// ---------------------------------------------------------------------------
// Reduction filter, horizontal pass at the even columns: 16 outputs per step.
//
// Loading 16 consecutive uint32 from in[2j + t - half] puts the samples of
// outputs j..j+7 in the low halves of the 64-bit lanes, where the 32 x 32
// -> 64-bit multiply reads them; the low 32 bits of the 64-bit sums are the
// scalar's wrapping uint32 sums (carries only move upwards).

// Word 1 (bits 16..31) of every 64-bit lane of a, then of b.
inline __m256i words1_of_qwords(__m512i a, __m512i b) {
    const __m512i pick =
        _mm512_setr_epi32(1 | 5 << 16, 9 | 13 << 16, 17 | 21 << 16, 25 | 29 << 16, 33 | 37 << 16,
                          41 | 45 << 16, 49 | 53 << 16, 57 | 61 << 16, 0, 0, 0, 0, 0, 0, 0, 0);
    return _mm512_castsi512_si256(_mm512_permutex2var_epi16(a, pick, b));
}

// m_lo, m_hi: the input lanes a step may read, of in[o, o + 16) and
// in[o + 16, o + 32); m_out: the outputs it stores.
inline void subsample_horizontal_step(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                                      std::ptrdiff_t j, const std::uint16_t* filter, int taps,
                                      __mmask16 m_lo, __mmask16 m_hi, __mmask16 m_out,
                                      std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const int half = taps / 2;
    __m512i r0 = _mm512_setzero_si512(), r1 = r0, d0 = r0, d1 = r0;
    for (int t = 0; t < taps; ++t) {
        const __m512i c = _mm512_set1_epi32(filter[t]);
        const std::ptrdiff_t o = 2 * j + t - half;
        r0 = _mm512_add_epi64(r0, _mm512_mul_epu32(_mm512_maskz_loadu_epi32(m_lo, ref_in + o), c));
        r1 = _mm512_add_epi64(r1,
                              _mm512_mul_epu32(_mm512_maskz_loadu_epi32(m_hi, ref_in + o + 16), c));
        d0 = _mm512_add_epi64(d0, _mm512_mul_epu32(_mm512_maskz_loadu_epi32(m_lo, dis_in + o), c));
        d1 = _mm512_add_epi64(d1,
                              _mm512_mul_epu32(_mm512_maskz_loadu_epi32(m_hi, dis_in + o + 16), c));
    }
    // (sum + 2^15) >> 16 cast to uint16: bits 16..31 of the rounded sum.
    const __m512i rnd = _mm512_set1_epi64(32768);
    _mm256_mask_storeu_epi16(
        ref_out + j, m_out, words1_of_qwords(_mm512_add_epi64(r0, rnd), _mm512_add_epi64(r1, rnd)));
    _mm256_mask_storeu_epi16(
        dis_out + j, m_out, words1_of_qwords(_mm512_add_epi64(d0, rnd), _mm512_add_epi64(d1, rnd)));
}

void subsample_horizontal_general(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                                  const std::uint16_t* filter, int taps, int out_w,
                                  std::uint16_t* ref_out, std::uint16_t* dis_out) {
    // A full step reads in[2j - half, 2j - half + 32 + taps - 1); the row
    // ends at in[2 * (out_w - 1) + half], so full steps stop one early and
    // the last (1..16 outputs) reads only in[.., 2 * (out_w - 1) + half].
    std::ptrdiff_t j = 0;
    for (; j + 16 < out_w; j += 16)
        subsample_horizontal_step(ref_in, dis_in, j, filter, taps, 0xFFFF, 0xFFFF, 0xFFFF, ref_out,
                                  dis_out);
    const int n = static_cast<int>(out_w - j);
    if (n <= 0) return;
    const int lanes = 2 * n - 1;  // inputs per tap up to the last output's sample
    subsample_horizontal_step(
        ref_in, dis_in, j, filter, taps, first_bits16(lanes < 16 ? lanes : 16),
        first_bits16(lanes > 16 ? lanes - 16 : 0), first_bits16(n), ref_out, dis_out);
}

// Taps below 2^15 and samples below 2^16 (the extractor's reductions to
// scales 1 and 2): the samples of a block of outputs are staged as int16
// v - 2^15, and a 32-lane load at 2j - half + t then holds, in its 32-bit
// lane k, the pair (t, t + 1) of output j + k, so a signed multiply-add
// takes two taps of 16 outputs at once. As in the vertical pass, a pair's
// sum is below 2^31 in magnitude and 2^15 * (sum of the taps) is added back
// modulo 2^32.
constexpr int kPairBlock = 256;  // outputs per staged block
// Staged samples: a block's 2 * 256 - 1 + 2 * half, rounded up to whole
// vectors, plus what the last 16 outputs' loads reach (the zero tap's
// partner and lanes past the block's end, whose sums are not stored).
constexpr int kStageLen = 2 * kPairBlock + 2 * kMaxHalf + 64;

// Stages in[0, len) as int16 v - 2^15; false if a sample is 2^16 or more.
// (Measured, not kept: staging 32 samples a step by one vpermt2w of the low
// words of two vectors, and narrowing 32 outputs by one vpermt2w of two
// accumulators' high words, instead of vpmovdw per 16: checkasm --bench
// vif_subsample_horizontal_avx512icl 3.38-3.61 -> 3.30-3.71 us, VIF 0.392
// -> 0.396 s CPU (30 frames 1080p, eight alternations): no gain.)
inline bool stage_biased(const std::uint32_t* in, int len, std::int16_t* dst) {
    const __m256i bias = _mm256_set1_epi16(static_cast<short>(0x8000));
    __m512i any = _mm512_setzero_si512();
    for (int i = 0; i < len; i += 16) {
        const __m512i v = _mm512_maskz_loadu_epi32(
            i + 16 <= len ? __mmask16{0xFFFF} : first_bits16(len - i), in + i);
        any = _mm512_or_si512(any, v);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                            _mm256_xor_si256(_mm512_cvtepi32_epi16(v), bias));
    }
    return _mm512_test_epi32_mask(any, _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))) == 0;
}

// 16 outputs from staged samples s (at the first output's 2j - half, 64-byte
// aligned): (sum + 2^15) >> 16 cast to uint16, offset = 2^15 * (sum of taps)
// + 2^15; pairs[p] is (c_2p, c_2p+1) (VifFilterShape::pairs). Tap pair p reads the
// window whose dword lane k holds s[2k + 2p], s[2k + 2p + 1]: the two aligned
// vectors shifted by p dwords (p <= 8 stays inside them), not a load that
// splits a cache line.
// kCount > 0 is the tap pair count known when compiling (the extractor's
// 5 and 3, as vif_avx2.cpp's pair_block<count>), which drops the test per
// window; 0 reads `count`.
template <int kCount>
[[gnu::always_inline]] inline __m256i pair_outputs(const std::int16_t* s, const __m512i* pairs,
                                                   int count, __m512i offset) {
    if constexpr (kCount > 0) count = kCount;
    const __m512i a0 = _mm512_load_si512(s);
    const __m512i a1 = _mm512_load_si512(s + 32);
    __m512i acc = madd_add(offset, a0, pairs[0]);
#define VMAFPP_WINDOW(P) \
    if (count > P)       \
        acc = madd_add(acc, _mm512_alignr_epi32(a1, a0, P), pairs[P]);
    VMAFPP_WINDOW(1)
    VMAFPP_WINDOW(2)
    VMAFPP_WINDOW(3)
    VMAFPP_WINDOW(4)
    VMAFPP_WINDOW(5)
    VMAFPP_WINDOW(6)
    VMAFPP_WINDOW(7)
    VMAFPP_WINDOW(8)
#undef VMAFPP_WINDOW
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(acc, 16));
}

// The outputs [0, n) of one staged block.
template <int kCount>
void pair_block(const std::int16_t* ref_s, const std::int16_t* dis_s, const __m512i* pairs,
                int count, __m512i offset, int n, std::uint16_t* ref_out, std::uint16_t* dis_out) {
    for (int k = 0; k < n; k += 16) {
        const __mmask16 m = k + 16 <= n ? __mmask16{0xFFFF} : first_bits16(n - k);
        _mm256_mask_storeu_epi16(ref_out + k, m,
                                 pair_outputs<kCount>(ref_s + 2 * k, pairs, count, offset));
        _mm256_mask_storeu_epi16(dis_out + k, m,
                                 pair_outputs<kCount>(dis_s + 2 * k, pairs, count, offset));
    }
}

void subsample_horizontal_pairs(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                                 const std::uint16_t* filter, int taps, int out_w,
                                 std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const VifFilterShape shape = vif_filter_shape(filter, taps);
    const std::uint32_t tap_sum = shape.sum;
    const bool small_taps = shape.taps_below_2_15;
    if (!small_taps) {
        subsample_horizontal_general(ref_in, dis_in, filter, taps, out_w, ref_out, dis_out);
        return;
    }
    const int half = taps / 2;
    const __m512i offset = _mm512_set1_epi32(static_cast<int>((tap_sum << 15) + 32768u));
    const int count = (taps + 1) / 2;
    __m512i pairs[kMaxHalf + 1];
    for (int p = 0; p < count; ++p) pairs[p] = _mm512_set1_epi32(static_cast<int>(shape.pairs[p]));
    alignas(64) std::int16_t ref_s[kStageLen] = {};
    alignas(64) std::int16_t dis_s[kStageLen] = {};
    for (std::ptrdiff_t j0 = 0; j0 < out_w; j0 += kPairBlock) {
        const int n = static_cast<int>(out_w - j0 < kPairBlock ? out_w - j0 : kPairBlock);
        // Outputs [j0, j0 + n) read in[2 * j0 - half, 2 * (j0 + n - 1) + half].
        const int len = 2 * n - 1 + 2 * half;
        const bool ref_small = stage_biased(ref_in + 2 * j0 - half, len, ref_s);
        const bool dis_small = stage_biased(dis_in + 2 * j0 - half, len, dis_s);
        if (!ref_small || !dis_small) {
            subsample_horizontal_general(ref_in + 2 * j0, dis_in + 2 * j0, filter, taps, n,
                                         ref_out + j0, dis_out + j0);
            continue;
        }
        // The extractor's reductions: 9 taps (5 pairs), 5 taps (3 pairs).
        if (count == 5)
            pair_block<5>(ref_s, dis_s, pairs, count, offset, n, ref_out + j0, dis_out + j0);
        else if (count == 3)
            pair_block<3>(ref_s, dis_s, pairs, count, offset, n, ref_out + j0, dis_out + j0);
        else
            pair_block<0>(ref_s, dis_s, pairs, count, offset, n, ref_out + j0, dis_out + j0);
    }
}

}  // namespace

void VMAFPP_VIF_STATS_KERNEL(vif_stat_vertical_u8)(const std::uint8_t* const* ref_rows,
                                                   const std::uint8_t* const* dis_rows,
                                                   const std::uint16_t* filter, int taps, int w,
                                                   const VifStatRow& out) {
    stat_vertical_u8_avx512(ref_rows, dis_rows, filter, taps, w, out);
}
void VMAFPP_VIF_STATS_KERNEL(vif_stat_row_u8)(const std::uint8_t* const* ref_rows,
                                              const std::uint8_t* const* dis_rows,
                                              const std::uint16_t* filter, int taps, int w,
                                              std::uint32_t* scratch, std::int32_t* sigma1_sq,
                                              std::int32_t* sigma2_sq, std::int32_t* sigma12,
                                              const VifRowReduce* reduce) {
    stat_row_u8_avx512(ref_rows, dis_rows, filter, taps, w, scratch, sigma1_sq, sigma2_sq, sigma12,
                       reduce);
}
void VMAFPP_VIF_STATS_KERNEL(vif_stat_row_u16)(const std::uint16_t* const* ref_rows,
                                               const std::uint16_t* const* dis_rows,
                                               const std::uint16_t* filter, int taps, int w,
                                               int shift_mu, int shift_sq, std::uint32_t* scratch,
                                               std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                                               std::int32_t* sigma12) {
    stat_row_u16_avx512(ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq, scratch, sigma1_sq,
                        sigma2_sq, sigma12);
}
void VMAFPP_VIF_STATS_KERNEL(vif_stat_vertical_u16)(const std::uint16_t* const* ref_rows,
                                                    const std::uint16_t* const* dis_rows,
                                                    const std::uint16_t* filter, int taps, int w,
                                                    int shift_mu, int shift_sq,
                                                    const VifStatRow& out) {
    stat_vertical_u16_avx512(ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq, out);
}
void VMAFPP_VIF_STATS_KERNEL(vif_subsample_horizontal)(const std::uint32_t* ref_in,
                                                       const std::uint32_t* dis_in,
                                                       const std::uint16_t* filter, int taps,
                                                       int out_w, std::uint16_t* ref_out,
                                                       std::uint16_t* dis_out) {
    subsample_horizontal_pairs(ref_in, dis_in, filter, taps, out_w, ref_out, dis_out);
}
void VMAFPP_VIF_STATS_KERNEL(vif_stat_horizontal)(const VifStatRow& in, const std::uint16_t* filter,
                                                  int taps, int w, std::int32_t* sigma1_sq,
                                                  std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    stat_horizontal_avx512(in, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
}

}  // namespace vmafpp::vif
