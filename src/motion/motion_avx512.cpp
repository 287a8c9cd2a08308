// AVX-512 twins of the motion kernels (this file alone is compiled with the
// AVX-512 F/BW/DQ/CD/VL flags). The same contract as motion_avx2.cpp: the
// scalar kernel's results bit for bit on any input. The last step of a row
// loads only the lanes inside the row (masked-off lanes are never read) and
// stores or adds only the real outputs.
//
// No standard-library template is used here (see motion_avx2.cpp).
//
// GCC 12's AVX-512 headers build their "undefined" vectors by
// self-initialisation (GCC PR 105593), which the uninitialised-use warnings
// report wherever such an intrinsic is inlined; they concern the header, so
// they are off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

namespace {

static_assert(kTaps == 5, "the vertical passes pair the taps as (0,1), (2,3), (4,-)");

// The first n of 16 (32) lanes, n <= 16 (32).
inline __mmask16 first_lanes16(int n) { return static_cast<__mmask16>((1u << n) - 1u); }
inline __mmask32 first_lanes32(int n) {
    return static_cast<__mmask32>(n >= 32 ? ~0u : (1u << n) - 1u);
}

// Two taps side by side for _mm512_madd_epi16: c_a in the low 16 bits.
inline __m512i tap_pair(std::uint16_t a, std::uint16_t b) {
    return _mm512_set1_epi32(static_cast<int>(std::uint32_t{a} | (std::uint32_t{b} << 16)));
}

// sum_k c_k * x_k for 32 columns of int16 x (one vector per tap row), as
// int32 in "unpack order" (lo: columns 0-3, 8-11, 16-19, 24-27; hi: the
// others). Every tap is below 2^15, so a signed multiply-add of a pair is
// exact whenever the pair's sum fits int32 (the callers' bounds).
inline void filter_columns(const __m512i x[kTaps], __m512i& lo, __m512i& hi) {
    const __m512i c01 = tap_pair(kFilter[0], kFilter[1]);
    const __m512i c23 = tap_pair(kFilter[2], kFilter[3]);
    const __m512i c4 = tap_pair(kFilter[4], 0);
    const __m512i zero = _mm512_setzero_si512();
    lo = _mm512_madd_epi16(_mm512_unpacklo_epi16(x[0], x[1]), c01);
    hi = _mm512_madd_epi16(_mm512_unpackhi_epi16(x[0], x[1]), c01);
    lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x[2], x[3]), c23));
    hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x[2], x[3]), c23));
    lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x[4], zero), c4));
    hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x[4], zero), c4));
}
// Columns 0-15 and 16-31 from unpack order.
inline __m512i natural_first(__m512i lo, __m512i hi) {
    return _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), hi);
}
inline __m512i natural_second(__m512i lo, __m512i hi) {
    return _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), hi);
}

// Stores 32 outputs (the lanes of m) and returns their OR in every lane.
inline __m512i store_outputs(std::int32_t* out, __mmask32 m, __m512i a, __m512i b) {
    const auto m0 = static_cast<__mmask16>(m);
    const auto m1 = static_cast<__mmask16>(m >> 16);
    _mm512_mask_storeu_epi32(out, m0, a);
    _mm512_mask_storeu_epi32(out + 16, m1, b);
    return _mm512_or_si512(_mm512_maskz_mov_epi32(m0, a), _mm512_maskz_mov_epi32(m1, b));
}

// ---------------------------------------------------------------------------
// 8-bit vertical pass, 32 columns per step: the differences fit int16 and
// |sum| <= 65536 * 255 is exact in int32, as in the scalar.

inline __m512i diff_vertical_u8_step(const std::uint8_t* const* prev_rows,
                                     const std::uint8_t* const* cur_rows, std::ptrdiff_t j,
                                     __mmask32 m, std::int32_t* out) {
    __m512i d[kTaps];
    for (int k = 0; k < kTaps; ++k)
        d[k] = _mm512_sub_epi16(_mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, prev_rows[k] + j)),
                                _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, cur_rows[k] + j)));
    __m512i lo, hi;
    filter_columns(d, lo, hi);
    // Arithmetic shift: floor, as the scalar's >> of a negative int32.
    const __m512i r128 = _mm512_set1_epi32(128);
    const __m512i a = _mm512_srai_epi32(_mm512_add_epi32(natural_first(lo, hi), r128), 8);
    const __m512i b = _mm512_srai_epi32(_mm512_add_epi32(natural_second(lo, hi), r128), 8);
    return store_outputs(out + j, m, a, b);
}

std::int32_t or_lanes(__m512i v) { return _mm512_reduce_or_epi32(v); }

std::int32_t diff_vertical_u8_avx512(const std::uint8_t* const* prev_rows,
                                     const std::uint8_t* const* cur_rows, int w,
                                     std::int32_t* out) {
    __m512i any = _mm512_setzero_si512();
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32)
        any =
            _mm512_or_si512(any, diff_vertical_u8_step(prev_rows, cur_rows, j, ~__mmask32{0}, out));
    if (j < w)
        any = _mm512_or_si512(any,
                              diff_vertical_u8_step(prev_rows, cur_rows, j,
                                                    first_lanes32(static_cast<int>(w - j)), out));
    return or_lanes(any);
}

// ---------------------------------------------------------------------------
// The fused frame (8-bit, and 9- to 14-bit samples below 2^14): every input
// row's difference prev - cur once, as int16, in a ring of kTaps rows; each
// output row's vertical pass from them to int16, then the horizontal pass on
// int16 pairs.

// d[j..j+32) = p - c of the lanes of m, 0 in the others; c also copied to
// keep unless it is null. `wide` collects the bits of the 16-bit samples
// (d is exact when none reaches 2^14).
inline void diff_step(const std::uint8_t* p, const std::uint8_t* c, std::ptrdiff_t j, __mmask32 m,
                      std::int16_t* d, std::uint8_t* keep, __m512i& /*wide*/) {
    const __m256i cv = _mm256_maskz_loadu_epi8(m, c + j);
    if (keep) _mm256_mask_storeu_epi8(keep + j, m, cv);
    _mm512_storeu_si512(d + j,
                        _mm512_sub_epi16(_mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, p + j)),
                                         _mm512_cvtepu8_epi16(cv)));
}
inline void diff_step(const std::uint16_t* p, const std::uint16_t* c, std::ptrdiff_t j, __mmask32 m,
                      std::int16_t* d, std::uint16_t* keep, __m512i& wide) {
    const __m512i pv = _mm512_maskz_loadu_epi16(m, p + j);
    const __m512i cv = _mm512_maskz_loadu_epi16(m, c + j);
    if (keep) _mm512_mask_storeu_epi16(keep + j, m, cv);
    wide = _mm512_ternarylogic_epi32(wide, pv, cv, 0xFE);  // wide | pv | cv
    _mm512_storeu_si512(d + j, _mm512_sub_epi16(pv, cv));
}

// d[j] = p[j] - c[j] for j < w, 0 from w up to w rounded up to 32.
template <class T>
inline void diff_row(const T* p, const T* c, int w, std::int16_t* d, T* keep, __m512i& wide) {
    int j = 0;
    for (; j + 32 <= w; j += 32) diff_step(p, c, j, ~__mmask32{0}, d, keep, wide);
    if (j < w) diff_step(p, c, j, first_lanes32(w - j), d, keep, wide);
}

// True when no 16-bit sample reached 2^14 (8-bit samples always).
inline bool narrow(__m512i wide) {
    return !_mm512_test_epi16_mask(wide, _mm512_set1_epi16(static_cast<short>(0xC000)));
}

// The vertical pass of 32 columns from the kTaps difference rows,
// y = (sum + 2^(s-1)) >> s with s = 8 (8-bit) or bpc. The taps are
// symmetric: sum = c0 (d0 + d4) + c1 (d1 + d3) + c2 d2, with |d| < 2^14 the
// pair sums fit int16. Each int32 lane t takes column 2t (even) or 2t + 1
// (odd): its (d0 + d4, d1 + d3) pair is blended from the 16-bit lanes (no
// cross-lane shuffle), and c2 d2 comes from a multiply-add with a zero tap
// on the other column. |sum| < 65536 * 2^14 = 2^30 is exact in int32.
//
// e = sum + 2^(s-1) + 2^(s+15) is (y + 2^15) * 2^s + (e mod 2^s) with y
// floored, so y lies in [-2^15, 2^15) exactly when e lies in [0, 2^(s+16))
// (no bit from s + 16 up set, sign included; s <= 14 keeps |e| < 2^31), and
// then bits s..s+15 of e are y + 2^15, i.e. y as int16 with the top bit
// flipped.
struct VerticalShift {
    explicit VerticalShift(int s)
        : even(_mm_cvtsi32_si128(s)),
          odd(_mm_cvtsi32_si128(16 - s)),
          bias(_mm512_set1_epi32((1 << (s - 1)) + (1 << (s + 15)))),
          outside(_mm512_set1_epi32(static_cast<int>(~((1u << (s + 16)) - 1u)))) {}
    __m128i even, odd;  // bits s..s+15 to 0..15, to 16..31
    __m512i bias;
    __m512i outside;  // the bits that put y outside int16
};

inline void vertical_int16_step(const std::int16_t* const* d, std::ptrdiff_t j, std::int16_t* y,
                                const VerticalShift& sh, __m512i& bits, __m512i& any) {
    const __m512i d2 = _mm512_loadu_si512(d[2] + j);
    const __m512i s04 =
        _mm512_add_epi16(_mm512_loadu_si512(d[0] + j), _mm512_loadu_si512(d[4] + j));
    const __m512i s13 =
        _mm512_add_epi16(_mm512_loadu_si512(d[1] + j), _mm512_loadu_si512(d[3] + j));
    constexpr __mmask32 kHigh = 0xAAAAAAAAu;  // the high 16 bits of every int32 lane
    const __m512i even_pairs = _mm512_mask_blend_epi16(kHigh, s04, _mm512_slli_epi32(s13, 16));
    const __m512i odd_pairs = _mm512_mask_blend_epi16(kHigh, _mm512_srli_epi32(s04, 16), s13);
    const __m512i c01 = tap_pair(kFilter[0], kFilter[1]);
    const __m512i even =
        _mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(even_pairs, c01), sh.bias),
                         _mm512_madd_epi16(d2, tap_pair(kFilter[2], 0)));
    const __m512i odd =
        _mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(odd_pairs, c01), sh.bias),
                         _mm512_madd_epi16(d2, tap_pair(0, kFilter[2])));
    bits = _mm512_ternarylogic_epi32(bits, even, odd, 0xFE);  // bits | even | odd
    const __m512i v =
        _mm512_xor_si512(_mm512_mask_blend_epi16(kHigh, _mm512_srl_epi32(even, sh.even),
                                                 _mm512_sll_epi32(odd, sh.odd)),
                         _mm512_set1_epi16(static_cast<short>(0x8000)));
    any = _mm512_or_si512(any, v);
    _mm512_storeu_si512(y + j, v);
}

// ---------------------------------------------------------------------------
// High-bit-depth vertical pass, 32 columns per step. As in motion_avx2.cpp,
// the scalar's 64-bit sum(c * (p - q)) is P - Q with P = sum(c * p) and
// Q = sum(c * q), each at most 65536 * 65535 (exact in uint32), and
// floor((P + 2^(bpc-1) - Q) / 2^bpc) is the difference of the high parts
// minus a borrow from the low parts.
//
// P comes from signed multiply-adds of p - 2^15 (in [-2^15, 2^15)): with
// the taps summing to 2^16, P = sum(c * (p - 2^15)) + 2^31, the signed sum
// lying in [-2^31, 2^31) and each pair's sum too, so int32 holds both and
// the uint32 addition of 2^31 gives P exactly.

// P of 32 columns in unpack order, of the lanes of m (others: P of zeros).
inline void weighted_sum_u16(const std::uint16_t* const* rows, std::ptrdiff_t j, __mmask32 m,
                             __m512i& lo, __m512i& hi) {
    const __m512i bias = _mm512_set1_epi16(static_cast<short>(0x8000));
    __m512i x[kTaps];
    // p ^ 0x8000 read as int16 is p - 2^15.
    for (int k = 0; k < kTaps; ++k)
        x[k] = _mm512_xor_si512(_mm512_maskz_loadu_epi16(m, rows[k] + j), bias);
    filter_columns(x, lo, hi);
    const __m512i two31 = _mm512_set1_epi32(static_cast<int>(0x80000000u));
    lo = _mm512_add_epi32(lo, two31);
    hi = _mm512_add_epi32(hi, two31);
}

inline __m512i floor_shifted_difference(__m512i p, __m512i q, __m128i shift, __m512i round,
                                        __m512i low_mask) {
    p = _mm512_add_epi32(p, round);
    const __m512i high = _mm512_sub_epi32(_mm512_srl_epi32(p, shift), _mm512_srl_epi32(q, shift));
    // The low parts are below 2^bpc <= 2^16: an unsigned compare of them.
    const __mmask16 borrow =
        _mm512_cmpgt_epu32_mask(_mm512_and_si512(q, low_mask), _mm512_and_si512(p, low_mask));
    return _mm512_mask_sub_epi32(high, borrow, high, _mm512_set1_epi32(1));
}

inline __m512i diff_vertical_u16_step(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, std::ptrdiff_t j,
                                      __mmask32 m, __m128i shift, __m512i round, __m512i low_mask,
                                      std::int32_t* out) {
    __m512i p_lo, p_hi, q_lo, q_hi;
    weighted_sum_u16(prev_rows, j, m, p_lo, p_hi);
    weighted_sum_u16(cur_rows, j, m, q_lo, q_hi);
    const __m512i a = floor_shifted_difference(natural_first(p_lo, p_hi), natural_first(q_lo, q_hi),
                                               shift, round, low_mask);
    const __m512i b = floor_shifted_difference(natural_second(p_lo, p_hi),
                                               natural_second(q_lo, q_hi), shift, round, low_mask);
    return store_outputs(out + j, m, a, b);
}

std::int32_t diff_vertical_u16_avx512(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, int w, int bpc,
                                      std::int32_t* out) {
    const __m128i shift = _mm_cvtsi32_si128(bpc);
    const __m512i round = _mm512_set1_epi32(1 << (bpc - 1));
    const __m512i low_mask = _mm512_set1_epi32((1 << bpc) - 1);
    __m512i any = _mm512_setzero_si512();
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32)
        any = _mm512_or_si512(any, diff_vertical_u16_step(prev_rows, cur_rows, j, ~__mmask32{0},
                                                          shift, round, low_mask, out));
    if (j < w)
        any = _mm512_or_si512(any, diff_vertical_u16_step(prev_rows, cur_rows, j,
                                                          first_lanes32(static_cast<int>(w - j)),
                                                          shift, round, low_mask, out));
    return or_lanes(any);
}

// ---------------------------------------------------------------------------
// Horizontal pass and absolute sum, 16 columns per step: the sums of signed
// 32 x 16-bit products need 64 bits; truncating the shifted sum to int32
// keeps bits 16..47, the same for a logical as for an arithmetic shift.

inline __m512i abs_filtered_step(const std::int32_t* row, std::ptrdiff_t j, __mmask16 m) {
    __m512i even = _mm512_setzero_si512(), odd = even;
    for (int k = 0; k < kTaps; ++k) {
        const __m512i c = _mm512_set1_epi32(kFilter[k]);
        const __m512i r = _mm512_maskz_loadu_epi32(m, row + j - kRadius + k);
        even = _mm512_add_epi64(even, _mm512_mul_epi32(r, c));
        odd = _mm512_add_epi64(odd, _mm512_mul_epi32(_mm512_srli_epi64(r, 32), c));
    }
    const __m512i half = _mm512_set1_epi64(32768);
    even = _mm512_srli_epi64(_mm512_add_epi64(even, half), 16);
    odd = _mm512_slli_epi64(_mm512_add_epi64(odd, half), 16);  // bits 16..47 to 32..63
    return _mm512_abs_epi32(_mm512_mask_blend_epi32(0xAAAA, even, odd));
}

// The general path over outputs [0, w) of row (any int32 samples).
__m512i abs_sum_general(const std::int32_t* row, int w) {
    __m512i sum = _mm512_setzero_si512();
    std::ptrdiff_t j = 0;
    for (; j + 16 <= w; j += 16) sum = _mm512_add_epi32(sum, abs_filtered_step(row, j, 0xFFFF));
    if (j < w) {
        // Output i of the last step reads row[j + i - 2, j + i + 2]; lanes
        // past the row's last output are neither read (masked loads, each
        // tap's lane i is its row[j + i - 2 + k]) nor added.
        const __mmask16 m = first_lanes16(static_cast<int>(w - j));
        sum = _mm512_mask_add_epi32(sum, m, sum, abs_filtered_step(row, j, m));
    }
    return sum;
}

// Samples in [-2^15, 2^15) (what pictures give): staged as int16, a 32-lane
// load at element e holds in 32-bit lane k the pair (e + 2k, e + 2k + 1), so
// one signed multiply-add takes two taps of 16 outputs of one parity. Each
// pair's sum and the whole sum lie in [-2^31, 2^31 - 2^16] (taps below 2^15
// summing to 2^16), so int32 holds the scalar's int64 sum exactly, and
// + 2^15 does not overflow either.
constexpr int kStageBlock = 512;  // outputs per staged block
// A block's samples row[j0 - 2, j0 + n + 2), whole vectors of them, and what
// the last outputs' loads reach (the zero tap's partner, lanes past the end).
constexpr int kStageLen = kStageBlock + 2 * kRadius + 64;

// Stages row[0, len) as int16; false if a sample is outside [-2^15, 2^15).
inline bool stage_int16(const std::int32_t* row, int len, std::int16_t* dst) {
    const __m512i half_range = _mm512_set1_epi32(32768);
    __m512i shifted = _mm512_setzero_si512();
    for (int i = 0; i < len; i += 16) {
        const __mmask16 m = i + 16 <= len ? __mmask16{0xFFFF} : first_lanes16(len - i);
        const __m512i v = _mm512_maskz_loadu_epi32(m, row + i);
        // v + 2^15 is below 2^16 (as uint32) exactly for v in range.
        shifted = _mm512_or_si512(shifted, _mm512_add_epi32(v, half_range));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm512_cvtepi32_epi16(v));
    }
    return _mm512_test_epi32_mask(shifted, _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))) == 0;
}

// |(sum + 2^15) >> 16| of the 16 outputs whose first pair starts at s.
inline __m512i abs_filtered_pairs(const std::int16_t* s) {
    __m512i acc = _mm512_set1_epi32(32768);
    acc = _mm512_add_epi32(
        acc, _mm512_madd_epi16(_mm512_loadu_si512(s), tap_pair(kFilter[0], kFilter[1])));
    acc = _mm512_add_epi32(
        acc, _mm512_madd_epi16(_mm512_loadu_si512(s + 2), tap_pair(kFilter[2], kFilter[3])));
    acc = _mm512_add_epi32(acc,
                           _mm512_madd_epi16(_mm512_loadu_si512(s + 4), tap_pair(kFilter[4], 0)));
    return _mm512_abs_epi32(_mm512_srai_epi32(acc, 16));
}

// The uint32 sum of the lanes, wrapping (GCC's _mm512_reduce_add_epi32
// adds as signed int, where wrapping is undefined).
std::uint32_t sum_lanes(__m512i v) {
    const __m256i x = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i y = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    y = _mm_add_epi32(y, _mm_shuffle_epi32(y, _MM_SHUFFLE(1, 0, 3, 2)));
    y = _mm_add_epi32(y, _mm_shuffle_epi32(y, _MM_SHUFFLE(2, 3, 0, 1)));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(y));
}

// |(sum + 2^15) >> 16| summed over the outputs [0, n) of an int16 row
// padded by kRadius samples, readable up to 64 samples past its end.
inline __m512i abs_sum_int16(const std::int16_t* y, int n, __m512i sum) {
    // Outputs k + 2i (even lanes) and k + 1 + 2i (odd lanes): output j's
    // first pair is y[j - 2], y[j - 1].
    int k = 0;
    for (; k + 32 <= n; k += 32) {
        sum = _mm512_add_epi32(sum, abs_filtered_pairs(y + k - kRadius));
        sum = _mm512_add_epi32(sum, abs_filtered_pairs(y + k + 1 - kRadius));
    }
    if (k < n) {
        const int left = n - k;
        sum = _mm512_mask_add_epi32(sum, first_lanes16((left + 1) / 2), sum,
                                    abs_filtered_pairs(y + k - kRadius));
        sum = _mm512_mask_add_epi32(sum, first_lanes16(left / 2), sum,
                                    abs_filtered_pairs(y + k + 1 - kRadius));
    }
    return sum;
}

std::uint32_t abs_sum_horizontal_avx512(const std::int32_t* row, int w) {
    // uint32 lanes: the scalar's uint32 sum wraps, and wrapping addition does
    // not depend on the order (nor on the outputs' order).
    __m512i sum = _mm512_setzero_si512();
    alignas(64) std::int16_t staged[kStageLen] = {};
    for (std::ptrdiff_t j0 = 0; j0 < w; j0 += kStageBlock) {
        const int n = static_cast<int>(w - j0 < kStageBlock ? w - j0 : kStageBlock);
        if (!stage_int16(row + j0 - kRadius, n + 2 * kRadius, staged)) {
            sum = _mm512_add_epi32(sum, abs_sum_general(row + j0, n));
            continue;
        }
        sum = abs_sum_int16(staged + kRadius, n, sum);
    }
    return sum_lanes(sum);
}

// y[to] = y[from] for the int16 row kept in the int32 scratch (memcpy, not
// an int16 store, into int32 storage).
inline void copy_int16(std::int16_t* y, int to, int from) {
    std::memcpy(y + to, y + from, sizeof(std::int16_t));
}

// Row r of the kept copy of cur (none when keep is null).
template <class T>
inline T* keep_row(T* keep, int r, int w) {
    return keep ? keep + std::ptrdiff_t{r} * w : nullptr;
}

// The scratch, 64-byte aligned: the int32 row (padded) or the int16 row y
// (y[-32, w + 98)), then the ring of difference rows, wp samples apart.
struct Scratch {
    Scratch(std::int32_t* scratch, int w)
        : wp((w + 31) / 32 * 32),
          base(reinterpret_cast<std::int32_t*>((reinterpret_cast<std::uintptr_t>(scratch) + 63) &
                                               ~std::uintptr_t{63})),
          row(base + kRadius),
          y(reinterpret_cast<std::int16_t*>(base) + 32),
          ring(reinterpret_cast<std::int16_t*>(base + wp + 64)) {}
    std::int16_t* diff(int r) const { return ring + (r % kTaps) * std::ptrdiff_t{wp}; }
    int wp;
    std::int32_t* base;
    std::int32_t* row;
    std::int16_t* y;
    std::int16_t* ring;
};

// The int32 row of output row i and its horizontal sum (the general path).
inline std::uint32_t general_row(const std::uint8_t* const* prev_rows,
                                 const std::uint8_t* const* cur_rows, int w, int /*bpc*/,
                                 std::int32_t* row) {
    if (!diff_vertical_u8_avx512(prev_rows, cur_rows, w, row)) return 0;
    motion_mirror_pad(row, w);
    return sum_lanes(abs_sum_general(row, w));
}
inline std::uint32_t general_row(const std::uint16_t* const* prev_rows,
                                 const std::uint16_t* const* cur_rows, int w, int bpc,
                                 std::int32_t* row) {
    if (!diff_vertical_u16_avx512(prev_rows, cur_rows, w, bpc, row)) return 0;
    motion_mirror_pad(row, w);
    return abs_sum_horizontal_avx512(row, w);
}

// The fused frame with y = (sum + 2^(shift-1)) >> shift; shift <= 14.
template <class T>
std::uint64_t sad_int16(const T* prev, std::ptrdiff_t prev_stride, const T* cur,
                        std::ptrdiff_t cur_stride, int w, int h, int bpc, int shift, T* keep,
                        std::int32_t* scratch) {
    const Scratch s(scratch, w);
    const VerticalShift sh(shift);
    bool narrow_rows[kTaps] = {};  // by ring slot: |d| < 2^14 in that row
    for (int r = 0; r < kRadius; ++r) {
        __m512i wide = _mm512_setzero_si512();
        diff_row(prev + r * prev_stride, cur + r * cur_stride, w, s.diff(r), keep_row(keep, r, w),
                 wide);
        narrow_rows[r % kTaps] = narrow(wide);
    }
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        const std::int16_t* d[kTaps];
        for (int k = 0; k < kTaps; ++k) d[k] = s.diff(motion_tap_row(i, k, h));
        __m512i bits = _mm512_setzero_si512(), any = bits;
        // Whole vectors: the difference rows are zero past w, so are those y.
        if (i + kRadius < h) {
            // Row i + 2's difference in the same pass, step by step before the
            // vertical step that reads it (its loads then overlap the work).
            const int r = i + kRadius;
            const T* p = prev + r * prev_stride;
            const T* c = cur + r * cur_stride;
            T* kr = keep_row(keep, r, w);
            std::int16_t* dr = s.diff(r);
            __m512i wide = _mm512_setzero_si512();
            std::ptrdiff_t j = 0;
            for (; j + 32 <= w; j += 32) {
                diff_step(p, c, j, ~__mmask32{0}, dr, kr, wide);
                vertical_int16_step(d, j, s.y, sh, bits, any);
            }
            if (j < w) {
                diff_step(p, c, j, first_lanes32(static_cast<int>(w - j)), dr, kr, wide);
                vertical_int16_step(d, j, s.y, sh, bits, any);
            }
            narrow_rows[r % kTaps] = narrow(wide);
        } else {
            for (std::ptrdiff_t j = 0; j < w; j += 32)
                vertical_int16_step(d, j, s.y, sh, bits, any);
        }
        bool exact = !_mm512_test_epi32_mask(bits, sh.outside);
        for (int k = 0; k < kTaps; ++k)
            exact = exact && narrow_rows[motion_tap_row(i, k, h) % kTaps];
        if (!exact) {
            // Some sample too wide or some y outside int16: the int32 row and
            // the general pass.
            const T* prev_rows[kTaps];
            const T* cur_rows[kTaps];
            for (int k = 0; k < kTaps; ++k) {
                prev_rows[k] = prev + motion_tap_row(i, k, h) * prev_stride;
                cur_rows[k] = cur + motion_tap_row(i, k, h) * cur_stride;
            }
            sad += general_row(prev_rows, cur_rows, w, bpc, s.row);
            continue;
        }
        // A zero row adds zero; libvmaf skips it too.
        if (!_mm512_test_epi16_mask(any, any)) continue;
        for (int f = 1; f <= kRadius; ++f) {
            copy_int16(s.y, -f, f);
            copy_int16(s.y, w - 1 + f, w - 1 - f);
        }
        _mm512_storeu_si512(s.y + w + kRadius, _mm512_setzero_si512());
        _mm512_storeu_si512(s.y + w + kRadius + 32, _mm512_setzero_si512());
        // Samples in [-2^15, 2^15): abs_filtered_pairs is exact.
        sad += sum_lanes(abs_sum_int16(s.y, w, _mm512_setzero_si512()));
    }
    return sad;
}

std::uint64_t sad_u8_avx512(const std::uint8_t* prev, std::ptrdiff_t prev_stride,
                            const std::uint8_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                            std::uint8_t* keep, std::int32_t* scratch) {
    return sad_int16(prev, prev_stride, cur, cur_stride, w, h, 8, 8, keep, scratch);
}

std::uint64_t sad_u16_avx512(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                             const std::uint16_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                             int bpc, std::uint16_t* keep, std::int32_t* scratch) {
    // 9..14 bits: the fused frame (rows with wider samples take the general
    // path); else row by row.
    if (bpc >= 9 && bpc <= 14)
        return sad_int16(prev, prev_stride, cur, cur_stride, w, h, bpc, bpc, keep, scratch);
    std::int32_t* row = scratch + kRadius;
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        if (keep)
            std::memcpy(keep + std::ptrdiff_t{i} * w, cur + i * cur_stride,
                        w * sizeof(std::uint16_t));
        const std::uint16_t* prev_rows[kTaps];
        const std::uint16_t* cur_rows[kTaps];
        for (int k = 0; k < kTaps; ++k) {
            prev_rows[k] = prev + motion_tap_row(i, k, h) * prev_stride;
            cur_rows[k] = cur + motion_tap_row(i, k, h) * cur_stride;
        }
        sad += general_row(prev_rows, cur_rows, w, bpc, row);
    }
    return sad;
}

}  // namespace

const MotionKernels& motion_kernels_avx512() {
    static constexpr MotionKernels kAvx512{sad_u8_avx512, sad_u16_avx512};
    return kAvx512;
}

}  // namespace vmafpp::motion
