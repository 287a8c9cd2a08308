// AVX2 twins of the motion row kernels (this file alone is compiled with
// -mavx2 -mbmi2). Each returns the scalar kernel's integers bit for bit on
// any input the scalar defines; widths that are not a multiple of the vector
// length finish with one more vector pass over a zero-filled copy of the
// remaining inputs, so no input is read past the row's end. No
// standard-library template is used (see vif_avx2.cpp): plain arrays, memcpy.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dispatch/x86_lanes.hpp"
#include "motion/motion_frame_loop.hpp"
#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

namespace {

// The vector of the shared passes (motion_frame_loop.hpp) and the
// constants of the int16 vertical pass.
struct Lanes {
    VMAFPP_X86_INT_LANES(__m256i, _mm256, si256)
    using Vec = I;
    // 0xAA: the high 16 bits of every int32 lane from the second operand.
    static I blend_high16(I a, I b) { return _mm256_blend_epi16(a, b, 0xAA); }
    static I or3(I a, I b, I c) { return or_i(a, or_i(b, c)); }
};
using Shift = VerticalShift<Lanes>;

inline __m256i load8x32(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
inline void store8x32(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
inline __m128i load16x8(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

// Stores the first n of a tail step's outputs and returns their OR.
inline std::int32_t keep_first(std::int32_t* dst, const std::int32_t* src, int n) {
    std::memcpy(dst, src, n * sizeof(std::int32_t));
    std::int32_t any = 0;
    for (int k = 0; k < n; ++k) any |= src[k];
    return any;
}

// 16 columns of the 8-bit vertical pass. The differences fit int16 and the
// taps are below 2^15, so pairs of taps go through one signed multiply-add;
// |sum| <= 65536 * 255 is exact in int32, as in the scalar.
inline __m256i diff_vertical_u8_step(const std::uint8_t* const* prev_rows,
                                     const std::uint8_t* const* cur_rows, std::ptrdiff_t j,
                                     std::int32_t* out) {
    __m256i d[kTaps];
    for (int k = 0; k < kTaps; ++k)
        d[k] = _mm256_sub_epi16(_mm256_cvtepu8_epi16(load16x8(prev_rows[k] + j)),
                                _mm256_cvtepu8_epi16(load16x8(cur_rows[k] + j)));
    static_assert(kTaps == 5, "pairs the taps as (0,1), (2,3), (4,-)");
    const __m256i c01 = tap_pair<Lanes>(kFilter[0], kFilter[1]);
    const __m256i c23 = tap_pair<Lanes>(kFilter[2], kFilter[3]);
    const __m256i c4 = tap_pair<Lanes>(kFilter[4], 0);
    const __m256i zero = _mm256_setzero_si256();
    // lo: columns 0-3 and 8-11, hi: 4-7 and 12-15.
    __m256i lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(d[0], d[1]), c01);
    __m256i hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(d[0], d[1]), c01);
    lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(d[2], d[3]), c23));
    hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(d[2], d[3]), c23));
    lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(d[4], zero), c4));
    hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(d[4], zero), c4));
    // Arithmetic shift: floor, as the scalar's >> of a negative int32.
    const __m256i r128 = _mm256_set1_epi32(128);
    const __m256i a =
        _mm256_srai_epi32(_mm256_add_epi32(_mm256_permute2x128_si256(lo, hi, 0x20), r128), 8);
    const __m256i b =
        _mm256_srai_epi32(_mm256_add_epi32(_mm256_permute2x128_si256(lo, hi, 0x31), r128), 8);
    store8x32(out + j, a);
    store8x32(out + j + 8, b);
    return _mm256_or_si256(a, b);
}

std::int32_t or_lanes(__m256i v) {
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(x);
}

// The OR of a vertical pass's outputs over [0, w): step(prev_rows,
// cur_rows, j, out) writes the kLanes outputs from column j and returns
// them; the last n < kLanes columns run on zero-filled copies of their
// inputs, and only their n outputs are kept.
template <int kLanes, class T, class Step>
std::int32_t vertical_row(const T* const* prev_rows, const T* const* cur_rows, int w,
                          std::int32_t* out, Step step) {
    __m256i any = _mm256_setzero_si256();
    int j = 0;
    for (; j + kLanes <= w; j += kLanes)
        any = _mm256_or_si256(any, step(prev_rows, cur_rows, j, out));
    const std::int32_t result = or_lanes(any);
    if (j == w) return result;
    const int n = w - j;
    const TailRows<T, kLanes, kTaps> tail(prev_rows, cur_rows, kTaps, j, n);
    std::int32_t o[kLanes] = {};
    step(tail.a_ptr, tail.b_ptr, 0, o);
    return result | keep_first(out + j, o, n);
}

std::int32_t diff_vertical(const std::uint8_t* const* prev_rows,
                           const std::uint8_t* const* cur_rows, int w, int /*bpc*/,
                           std::int32_t* out) {
    return vertical_row<16>(prev_rows, cur_rows, w, out,
                            [](const std::uint8_t* const* p, const std::uint8_t* const* c,
                               std::ptrdiff_t j, std::int32_t* o) {
                                return diff_vertical_u8_step(p, c, j, o);
                            });
}

// 8 columns of the high-bit-depth vertical pass. The scalar's 64-bit
// sum(c * (p - q)) is P - Q with P = sum(c * p) and Q = sum(c * q), each at
// most 65536 * 65535 (the taps sum to 65536): exact in uint32, and so is
// P + 2^(bpc-1). floor((P' - Q) / 2^bpc) then splits into the difference of
// the high parts minus a borrow from the low parts.
inline __m256i diff_vertical_u16_step(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, std::ptrdiff_t j,
                                      const FloorShift<Lanes>& f,
                                      std::int32_t* out) {
    __m256i p = _mm256_setzero_si256(), q = p;
    for (int k = 0; k < kTaps; ++k) {
        const __m256i c = _mm256_set1_epi32(kFilter[k]);
        p = _mm256_add_epi32(
            p, _mm256_mullo_epi32(c, _mm256_cvtepu16_epi32(load16x8(prev_rows[k] + j))));
        q = _mm256_add_epi32(
            q, _mm256_mullo_epi32(c, _mm256_cvtepu16_epi32(load16x8(cur_rows[k] + j))));
    }
    p = _mm256_add_epi32(p, f.round);
    const __m256i high =
        _mm256_sub_epi32(_mm256_srl_epi32(p, f.shift), _mm256_srl_epi32(q, f.shift));
    // The low parts are below 2^bpc <= 2^16: a signed compare is an unsigned one.
    const __m256i borrow =
        _mm256_cmpgt_epi32(_mm256_and_si256(q, f.low_mask), _mm256_and_si256(p, f.low_mask));
    const __m256i v = _mm256_add_epi32(high, borrow);
    store8x32(out + j, v);
    return v;
}

std::int32_t diff_vertical(const std::uint16_t* const* prev_rows,
                           const std::uint16_t* const* cur_rows, int w, int bpc,
                           std::int32_t* out) {
    const FloorShift<Lanes> f(bpc);
    return vertical_row<8>(prev_rows, cur_rows, w, out,
                           [&](const std::uint16_t* const* p, const std::uint16_t* const* c,
                               std::ptrdiff_t j, std::int32_t* o) {
                               return diff_vertical_u16_step(p, c, j, f, o);
                           });
}

// |(sum(c * row[j - 2 + k]) + 2^15) >> 16| of 8 columns. The sums need 64
// bits (signed 32 x 16-bit products); truncating the shifted sum to int32
// keeps bits 16..47, the same for a logical as for an arithmetic shift.
inline __m256i abs_filtered_step(const std::int32_t* row, std::ptrdiff_t j) {
    __m256i even = _mm256_setzero_si256(), odd = even;
    for (int k = 0; k < kTaps; ++k) {
        const __m256i c = _mm256_set1_epi32(kFilter[k]);
        const __m256i r = load8x32(row + j - kRadius + k);
        even = _mm256_add_epi64(even, _mm256_mul_epi32(r, c));
        odd = _mm256_add_epi64(odd, _mm256_mul_epi32(_mm256_srli_epi64(r, 32), c));
    }
    const __m256i half = _mm256_set1_epi64x(32768);
    even = _mm256_srli_epi64(_mm256_add_epi64(even, half), 16);
    odd = _mm256_srli_epi64(_mm256_add_epi64(odd, half), 16);
    const __m256i val = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
    return _mm256_abs_epi32(val);
}

std::uint32_t sum_lanes(__m256i v) {
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(x));
}

// The same pass for 8-bit and for high-bit-depth rows.
template <class T>
std::uint32_t abs_sum_int32(const std::int32_t* row, int w) {
    // uint32 lanes: the scalar's uint32 sum wraps, and wrapping addition does
    // not depend on the order.
    __m256i sum = _mm256_setzero_si256();
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8) sum = _mm256_add_epi32(sum, abs_filtered_step(row, j));
    if (j < w) {
        // The last columns read row[j - 2, w + 2).
        const int n = static_cast<int>(w - j);
        std::int32_t staged[8 + 2 * kRadius] = {};
        std::memcpy(staged, row + j - kRadius, (n + 2 * kRadius) * sizeof(std::int32_t));
        const __m256i valid =
            _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        sum =
            _mm256_add_epi32(sum, _mm256_and_si256(abs_filtered_step(staged + kRadius, 0), valid));
    }
    return sum_lanes(sum);
}

// ---------------------------------------------------------------------------
// The fused frame (8-bit, and 9- to 14-bit samples below 2^14): every input
// row's difference prev - cur once, as int16, in a ring of kTaps rows; each
// output row's vertical pass from them to int16 (16 columns per step), then
// the horizontal pass on int16 pairs; the frame loop is
// motion_frame_loop.hpp's (sad_int16), which also proves the vertical
// pass's int16 form (VerticalShift).

// d[j..j+16) = p - c; c also copied to keep unless it is null. `wide`
// collects the bits of the 16-bit samples (d is exact when none reaches
// 2^14).
inline __m256i diff16(const std::uint8_t* p, const std::uint8_t* c, std::uint8_t* keep,
                      __m256i& /*wide*/) {
    const __m128i cv = load16x8(c);
    if (keep) _mm_storeu_si128(reinterpret_cast<__m128i*>(keep), cv);
    return _mm256_sub_epi16(_mm256_cvtepu8_epi16(load16x8(p)), _mm256_cvtepu8_epi16(cv));
}
inline __m256i diff16(const std::uint16_t* p, const std::uint16_t* c, std::uint16_t* keep,
                      __m256i& wide) {
    const __m256i pv = load8x32(p);
    const __m256i cv = load8x32(c);
    if (keep) store8x32(keep, cv);
    wide = _mm256_or_si256(wide, _mm256_or_si256(pv, cv));
    return _mm256_sub_epi16(pv, cv);
}

// d[j, j + 16) = p - c of the n <= 16 columns from j, 0 past them; c also
// copied to keep unless it is null. A partial step reads zero-filled copies
// of its columns, never past the row.
template <class T>
inline void diff_step(const T* p, const T* c, int j, int n, std::int16_t* d, T* keep,
                      __m256i& wide) {
    if (n == 16) {
        store8x32(d + j, diff16(p + j, c + j, keep ? keep + j : nullptr, wide));
        return;
    }
    T pt[16] = {}, ct[16] = {};
    std::memcpy(pt, p + j, n * sizeof(T));
    std::memcpy(ct, c + j, n * sizeof(T));
    if (keep) std::memcpy(keep + j, ct, n * sizeof(T));
    store8x32(d + j, diff16(pt, ct, static_cast<T*>(nullptr), wide));
}

// True when no 16-bit sample reached 2^14 (8-bit samples always).
inline bool narrow(__m256i wide) {
    return _mm256_testz_si256(wide, _mm256_set1_epi16(static_cast<short>(0xC000)));
}

// |(sum + 2^15) >> 16| of the 8 outputs whose first pair starts at s
// (int16 samples in [-2^15, 2^15): each pair's sum and the whole sum lie in
// [-2^31, 2^31 - 2^16], so int32 holds the scalar's int64 sum exactly).
inline __m256i abs_filtered_pairs(const std::int16_t* s) {
    __m256i acc = _mm256_set1_epi32(32768);
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s), tap_pair<Lanes>(kFilter[0], kFilter[1])));
    acc =
        _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s + 2), tap_pair<Lanes>(kFilter[2], kFilter[3])));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s + 4), tap_pair<Lanes>(kFilter[4], 0)));
    return _mm256_abs_epi32(_mm256_srai_epi32(acc, 16));
}

// The fused frame's passes for motion_frame_loop.hpp.
struct Avx2 : Lanes {
    using Shift = motion::Shift;
    static constexpr int kStep = 16;
    static Vec zero() { return _mm256_setzero_si256(); }
    static void store(std::int16_t* p, Vec v) { store8x32(p, v); }
    static Vec add(Vec a, Vec b) { return _mm256_add_epi32(a, b); }
    static Vec add_first(Vec a, int n, Vec b) {
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        return _mm256_add_epi32(a, _mm256_and_si256(b, _mm256_cmpgt_epi32(set_i32(n), lane)));
    }
    static std::uint32_t sum_lanes(Vec v) { return motion::sum_lanes(v); }
    template <class T>
    static void diff_step(const T* p, const T* c, int j, int n, std::int16_t* d, T* keep,
                          Vec& wide) {
        motion::diff_step(p, c, j, n, d, keep, wide);
    }
    static bool narrow(Vec wide) { return motion::narrow(wide); }
    static void vertical_step(const std::int16_t* const* d, int j, std::int16_t* y,
                              const Shift& sh, Vec& bits, Vec& any) {
        vertical_int16_lanes<Lanes>(d, j, y, sh, bits, any);
    }
    static bool fits(Vec bits, const Shift& sh) {
        return _mm256_testz_si256(bits, sh.outside);
    }
    static bool nonzero(Vec any) { return !_mm256_testz_si256(any, any); }
    static Vec abs_filtered_pairs(const std::int16_t* s) { return motion::abs_filtered_pairs(s); }
    static constexpr bool kWide = true;
    using WideShift = motion::WideShift<Lanes>;
    static void vertical_wide_step(const std::int16_t* const* d, int j, std::int16_t* a,
                                   std::int16_t* b, const WideShift& sh, Vec& bits, Vec& big) {
        vertical_wide_lanes<Lanes>(d, j, a, b, sh, bits, big);
    }
    static bool some_big(Vec big) { return !_mm256_testz_si256(big, _mm256_set1_epi16(static_cast<short>(0x8000))); }
    static bool fits_wide(Vec bits, const WideShift& sh) {
        return _mm256_testz_si256(bits, sh.outside);
    }
    static Vec abs_filtered_wide(const std::int16_t* a, const std::int16_t* b) {
        return abs_filtered_wide_lanes<Lanes>(a, b);
    }
};

}  // namespace

void motion_init_avx2(MotionKernels& k) { fill_kernels<Avx2>(k); }

}  // namespace vmafpp::motion
