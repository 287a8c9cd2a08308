// AVX-512 twins of the motion kernels (this file alone is compiled with the
// AVX-512 F/BW/DQ/CD/VL flags). The same contract as motion_avx2.cpp: the
// scalar kernel's results bit for bit on any input. The last step of a row
// loads only the lanes inside the row (masked-off lanes are never read) and
// stores or adds only the real outputs.
//
// No standard-library template is used here (see motion_avx2.cpp).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dispatch/x86_lanes.hpp"
#include "motion/motion_frame_loop.hpp"
#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

namespace {

static_assert(kTaps == 5, "the vertical passes pair the taps as (0,1), (2,3), (4,-)");

// The first n of 16 (32) lanes, n <= 16 (32).
inline __mmask16 first_lanes16(int n) { return static_cast<__mmask16>((1u << n) - 1u); }
inline __mmask32 first_lanes32(int n) {
    return static_cast<__mmask32>(n >= 32 ? ~0u : (1u << n) - 1u);
}

// The vector of the shared passes (motion_frame_loop.hpp) and the
// constants of the int16 vertical pass.
struct Lanes {
    VMAFPP_X86_INT_LANES(__m512i, _mm512, si512)
    using Vec = I;
    // 0xAAAAAAAA: the high 16 bits of every int32 lane from the second operand.
    static I blend_high16(I a, I b) { return _mm512_mask_blend_epi16(0xAAAAAAAAu, a, b); }
    static I or3(I a, I b, I c) { return _mm512_ternarylogic_epi32(a, b, c, 0xFE); }
};
using Shift = VerticalShift<Lanes>;

// sum_k c_k * x_k for 32 columns of int16 x (one vector per tap row), as
// int32 in "unpack order" (lo: columns 0-3, 8-11, 16-19, 24-27; hi: the
// others). Every tap is below 2^15, so a signed multiply-add of a pair is
// exact whenever the pair's sum fits int32 (the callers' bounds).
inline void filter_columns(const __m512i x[kTaps], __m512i& lo, __m512i& hi) {
    const __m512i c01 = tap_pair<Lanes>(kFilter[0], kFilter[1]);
    const __m512i c23 = tap_pair<Lanes>(kFilter[2], kFilter[3]);
    const __m512i c4 = tap_pair<Lanes>(kFilter[4], 0);
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

// The OR of a vertical pass's outputs over [0, w): step(j, m) for the
// lanes m of the 32 columns from j.
template <class Step>
std::int32_t vertical_row(int w, Step step) {
    __m512i any = _mm512_setzero_si512();
    int j = 0;
    for (; j + 32 <= w; j += 32) any = _mm512_or_si512(any, step(j, ~__mmask32{0}));
    if (j < w) any = _mm512_or_si512(any, step(j, first_lanes32(w - j)));
    return or_lanes(any);
}

std::int32_t diff_vertical(const std::uint8_t* const* prev_rows,
                           const std::uint8_t* const* cur_rows, int w, int /*bpc*/,
                           std::int32_t* out) {
    return vertical_row(w, [&](int j, __mmask32 m) {
        return diff_vertical_u8_step(prev_rows, cur_rows, j, m, out);
    });
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

// True when no 16-bit sample reached 2^14 (8-bit samples always).
inline bool narrow(__m512i wide) {
    return !_mm512_test_epi16_mask(wide, _mm512_set1_epi16(static_cast<short>(0xC000)));
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

inline __m512i floor_shifted_difference(__m512i p, __m512i q, const FloorShift<Lanes>& f) {
    p = _mm512_add_epi32(p, f.round);
    const __m512i high =
        _mm512_sub_epi32(_mm512_srl_epi32(p, f.shift), _mm512_srl_epi32(q, f.shift));
    // The low parts are below 2^bpc <= 2^16: an unsigned compare of them.
    const __mmask16 borrow =
        _mm512_cmpgt_epu32_mask(_mm512_and_si512(q, f.low_mask), _mm512_and_si512(p, f.low_mask));
    return _mm512_mask_sub_epi32(high, borrow, high, _mm512_set1_epi32(1));
}

inline __m512i diff_vertical_u16_step(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, std::ptrdiff_t j,
                                      __mmask32 m, const FloorShift<Lanes>& f,
                                      std::int32_t* out) {
    __m512i p_lo, p_hi, q_lo, q_hi;
    weighted_sum_u16(prev_rows, j, m, p_lo, p_hi);
    weighted_sum_u16(cur_rows, j, m, q_lo, q_hi);
    const __m512i a =
        floor_shifted_difference(natural_first(p_lo, p_hi), natural_first(q_lo, q_hi), f);
    const __m512i b =
        floor_shifted_difference(natural_second(p_lo, p_hi), natural_second(q_lo, q_hi), f);
    return store_outputs(out + j, m, a, b);
}

std::int32_t diff_vertical(const std::uint16_t* const* prev_rows,
                           const std::uint16_t* const* cur_rows, int w, int bpc,
                           std::int32_t* out) {
    const FloorShift<Lanes> f(bpc);
    return vertical_row(w, [&](int j, __mmask32 m) {
        return diff_vertical_u16_step(prev_rows, cur_rows, j, m, f, out);
    });
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
        acc, _mm512_madd_epi16(_mm512_loadu_si512(s), tap_pair<Lanes>(kFilter[0], kFilter[1])));
    acc = _mm512_add_epi32(
        acc, _mm512_madd_epi16(_mm512_loadu_si512(s + 2), tap_pair<Lanes>(kFilter[2], kFilter[3])));
    acc = _mm512_add_epi32(acc,
                           _mm512_madd_epi16(_mm512_loadu_si512(s + 4), tap_pair<Lanes>(kFilter[4], 0)));
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

// The fused frame's passes for motion_frame_loop.hpp. Partial steps are
// masked: lanes past the row are neither read nor stored (d is 0 there).
struct Avx512 : Lanes {
    using Shift = motion::Shift;
    static constexpr int kStep = 32;
    static Vec add(Vec a, Vec b) { return _mm512_add_epi32(a, b); }
    static Vec add_first(Vec a, int n, Vec b) {
        return _mm512_mask_add_epi32(a, first_lanes16(n), a, b);
    }
    static Vec abs_filtered_pairs(const std::int16_t* s) { return motion::abs_filtered_pairs(s); }
    static std::uint32_t sum_lanes(Vec v) { return motion::sum_lanes(v); }
    static Vec zero() { return _mm512_setzero_si512(); }
    static void store(std::int16_t* p, Vec v) { _mm512_storeu_si512(p, v); }
    template <class T>
    static void diff_step(const T* p, const T* c, int j, int n, std::int16_t* d, T* keep,
                          Vec& wide) {
        motion::diff_step(p, c, j, first_lanes32(n), d, keep, wide);
    }
    static void vertical_step(const std::int16_t* const* d, int j, std::int16_t* y,
                              const Shift& sh, Vec& bits, Vec& any) {
        vertical_int16_lanes<Lanes>(d, j, y, sh, bits, any);
    }
    static bool narrow(Vec wide) { return motion::narrow(wide); }
    static bool fits(Vec bits, const Shift& sh) {
        return !_mm512_test_epi32_mask(bits, sh.outside);
    }
    static bool nonzero(Vec any) { return _mm512_test_epi16_mask(any, any); }
    static constexpr bool kWide = true;
    using WideShift = motion::WideShift<Lanes>;
    static void vertical_wide_step(const std::int16_t* const* d, int j, std::int16_t* a,
                                   std::int16_t* b, const WideShift& sh, Vec& bits, Vec& big) {
        vertical_wide_lanes<Lanes>(d, j, a, b, sh, bits, big);
    }
    static bool some_big(Vec big) { return _mm512_test_epi16_mask(big, _mm512_set1_epi16(static_cast<short>(0x8000))) != 0; }
    static bool fits_wide(Vec bits, const WideShift& sh) {
        return !_mm512_test_epi32_mask(bits, sh.outside);
    }
    static Vec abs_filtered_wide(const std::int16_t* a, const std::int16_t* b) {
        return abs_filtered_wide_lanes<Lanes>(a, b);
    }
};

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
        sum = abs_sum_pairs<Avx512>(staged + kRadius, n, sum);
    }
    return sum_lanes(sum);
}

// 8-bit rows reach the general path only where some value lies outside
// int16, so they take the general pass; high-bit-depth rows (also those of
// samples too wide for the fused frame) stage blocks as int16 where they fit.
template <class T>
std::uint32_t abs_sum_int32(const std::int32_t* row, int w) {
    if constexpr (sizeof(T) == 1) return sum_lanes(abs_sum_general(row, w));
    return abs_sum_horizontal_avx512(row, w);
}

}  // namespace

void motion_init_avx512(MotionKernels& k) { fill_kernels<Avx512>(k); }

}  // namespace vmafpp::motion
