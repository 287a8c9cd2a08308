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

#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

namespace {

inline __m256i load8x32(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
inline void store8x32(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
inline __m128i load16x8(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

// Two taps side by side for _mm256_madd_epi16: c_a in the low 16 bits.
inline __m256i tap_pair(std::uint16_t a, std::uint16_t b) {
    return _mm256_set1_epi32(static_cast<int>(std::uint32_t{a} | (std::uint32_t{b} << 16)));
}

// Copies columns [j, j + n) of every tap row into zero-filled rows of kLanes
// samples.
template <class T, int kLanes>
struct TailRows {
    TailRows(const T* const* prev_rows, const T* const* cur_rows, std::ptrdiff_t j, int n) {
        for (int k = 0; k < kTaps; ++k) {
            std::memcpy(prev[k], prev_rows[k] + j, n * sizeof(T));
            std::memcpy(cur[k], cur_rows[k] + j, n * sizeof(T));
            prev_ptr[k] = prev[k];
            cur_ptr[k] = cur[k];
        }
    }
    T prev[kTaps][kLanes] = {};
    T cur[kTaps][kLanes] = {};
    const T* prev_ptr[kTaps] = {};
    const T* cur_ptr[kTaps] = {};
};

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
    const __m256i c01 = tap_pair(kFilter[0], kFilter[1]);
    const __m256i c23 = tap_pair(kFilter[2], kFilter[3]);
    const __m256i c4 = tap_pair(kFilter[4], 0);
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

std::int32_t diff_vertical_u8_avx2(const std::uint8_t* const* prev_rows,
                                   const std::uint8_t* const* cur_rows, int w, std::int32_t* out) {
    __m256i any = _mm256_setzero_si256();
    std::ptrdiff_t j = 0;
    for (; j + 16 <= w; j += 16)
        any = _mm256_or_si256(any, diff_vertical_u8_step(prev_rows, cur_rows, j, out));
    std::int32_t result = or_lanes(any);
    if (j == w) return result;
    const int n = static_cast<int>(w - j);
    const TailRows<std::uint8_t, 16> tail(prev_rows, cur_rows, j, n);
    std::int32_t o[16] = {};
    diff_vertical_u8_step(tail.prev_ptr, tail.cur_ptr, 0, o);
    return result | keep_first(out + j, o, n);
}

// 8 columns of the high-bit-depth vertical pass. The scalar's 64-bit
// sum(c * (p - q)) is P - Q with P = sum(c * p) and Q = sum(c * q), each at
// most 65536 * 65535 (the taps sum to 65536): exact in uint32, and so is
// P + 2^(bpc-1). floor((P' - Q) / 2^bpc) then splits into the difference of
// the high parts minus a borrow from the low parts.
inline __m256i diff_vertical_u16_step(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, std::ptrdiff_t j,
                                      __m128i shift, __m256i round, __m256i low_mask,
                                      std::int32_t* out) {
    __m256i p = _mm256_setzero_si256(), q = p;
    for (int k = 0; k < kTaps; ++k) {
        const __m256i c = _mm256_set1_epi32(kFilter[k]);
        p = _mm256_add_epi32(
            p, _mm256_mullo_epi32(c, _mm256_cvtepu16_epi32(load16x8(prev_rows[k] + j))));
        q = _mm256_add_epi32(
            q, _mm256_mullo_epi32(c, _mm256_cvtepu16_epi32(load16x8(cur_rows[k] + j))));
    }
    p = _mm256_add_epi32(p, round);
    const __m256i high = _mm256_sub_epi32(_mm256_srl_epi32(p, shift), _mm256_srl_epi32(q, shift));
    // The low parts are below 2^bpc <= 2^16: a signed compare is an unsigned one.
    const __m256i borrow =
        _mm256_cmpgt_epi32(_mm256_and_si256(q, low_mask), _mm256_and_si256(p, low_mask));
    const __m256i v = _mm256_add_epi32(high, borrow);
    store8x32(out + j, v);
    return v;
}

std::int32_t diff_vertical_u16_avx2(const std::uint16_t* const* prev_rows,
                                    const std::uint16_t* const* cur_rows, int w, int bpc,
                                    std::int32_t* out) {
    const __m128i shift = _mm_cvtsi32_si128(bpc);
    const __m256i round = _mm256_set1_epi32(1 << (bpc - 1));
    const __m256i low_mask = _mm256_set1_epi32((1 << bpc) - 1);
    __m256i any = _mm256_setzero_si256();
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8)
        any = _mm256_or_si256(
            any, diff_vertical_u16_step(prev_rows, cur_rows, j, shift, round, low_mask, out));
    std::int32_t result = or_lanes(any);
    if (j == w) return result;
    const int n = static_cast<int>(w - j);
    const TailRows<std::uint16_t, 8> tail(prev_rows, cur_rows, j, n);
    std::int32_t o[8] = {};
    diff_vertical_u16_step(tail.prev_ptr, tail.cur_ptr, 0, shift, round, low_mask, o);
    return result | keep_first(out + j, o, n);
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

std::uint32_t abs_sum_horizontal_avx2(const std::int32_t* row, int w) {
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
// the horizontal pass on int16 pairs. See motion_avx512.cpp for the proofs:
// with |d| < 2^14 the symmetric pair sums (d0 + d4, d1 + d3) fit int16,
// int32 lane t takes column 2t or 2t + 1 from a blend of 16-bit lanes, and
// e = sum + 2^(s-1) + 2^(s+15) lies in [0, 2^(s+16)) exactly when
// y = (sum + 2^(s-1)) >> s lies in [-2^15, 2^15), bits s..s+15 of e then
// being y + 2^15.

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

// The last n < 16 columns from zero-filled copies: d is 0 past them.
template <class T>
inline void diff_tail(const T* p, const T* c, int j, int w, std::int16_t* d, T* keep,
                      __m256i& wide) {
    T pt[16] = {}, ct[16] = {};
    std::memcpy(pt, p + j, (w - j) * sizeof(T));
    std::memcpy(ct, c + j, (w - j) * sizeof(T));
    if (keep) std::memcpy(keep + j, ct, (w - j) * sizeof(T));
    store8x32(d + j, diff16(pt, ct, static_cast<T*>(nullptr), wide));
}

// d[j] = p[j] - c[j] for j < w, 0 from w up to w rounded up to 16.
template <class T>
inline void diff_row(const T* p, const T* c, int w, std::int16_t* d, T* keep, __m256i& wide) {
    int j = 0;
    for (; j + 16 <= w; j += 16)
        store8x32(d + j, diff16(p + j, c + j, keep ? keep + j : nullptr, wide));
    if (j < w) diff_tail(p, c, j, w, d, keep, wide);
}

// True when no 16-bit sample reached 2^14 (8-bit samples always).
inline bool narrow(__m256i wide) {
    return _mm256_testz_si256(wide, _mm256_set1_epi16(static_cast<short>(0xC000)));
}

struct VerticalShift {
    explicit VerticalShift(int s)
        : even(_mm_cvtsi32_si128(s)),
          odd(_mm_cvtsi32_si128(16 - s)),
          bias(_mm256_set1_epi32((1 << (s - 1)) + (1 << (s + 15)))),
          outside(_mm256_set1_epi32(static_cast<int>(~((1u << (s + 16)) - 1u)))) {}
    __m128i even, odd;  // bits s..s+15 to 0..15, to 16..31
    __m256i bias;
    __m256i outside;  // the bits that put y outside int16
};

inline void vertical_int16_step(const std::int16_t* const* d, std::ptrdiff_t j, std::int16_t* y,
                                const VerticalShift& sh, __m256i& bits, __m256i& any) {
    const __m256i d2 = load8x32(d[2] + j);
    const __m256i s04 = _mm256_add_epi16(load8x32(d[0] + j), load8x32(d[4] + j));
    const __m256i s13 = _mm256_add_epi16(load8x32(d[1] + j), load8x32(d[3] + j));
    // 0xAA: the high 16 bits of every int32 lane from the second operand.
    const __m256i even_pairs = _mm256_blend_epi16(s04, _mm256_slli_epi32(s13, 16), 0xAA);
    const __m256i odd_pairs = _mm256_blend_epi16(_mm256_srli_epi32(s04, 16), s13, 0xAA);
    const __m256i c01 = tap_pair(kFilter[0], kFilter[1]);
    const __m256i even =
        _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(even_pairs, c01), sh.bias),
                         _mm256_madd_epi16(d2, tap_pair(kFilter[2], 0)));
    const __m256i odd =
        _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(odd_pairs, c01), sh.bias),
                         _mm256_madd_epi16(d2, tap_pair(0, kFilter[2])));
    bits = _mm256_or_si256(bits, _mm256_or_si256(even, odd));
    const __m256i v = _mm256_xor_si256(
        _mm256_blend_epi16(_mm256_srl_epi32(even, sh.even), _mm256_sll_epi32(odd, sh.odd), 0xAA),
        _mm256_set1_epi16(static_cast<short>(0x8000)));
    any = _mm256_or_si256(any, v);
    store8x32(y + j, v);
}

// |(sum + 2^15) >> 16| of the 8 outputs whose first pair starts at s
// (int16 samples in [-2^15, 2^15): each pair's sum and the whole sum lie in
// [-2^31, 2^31 - 2^16], so int32 holds the scalar's int64 sum exactly).
inline __m256i abs_filtered_pairs(const std::int16_t* s) {
    __m256i acc = _mm256_set1_epi32(32768);
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s), tap_pair(kFilter[0], kFilter[1])));
    acc =
        _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s + 2), tap_pair(kFilter[2], kFilter[3])));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(load8x32(s + 4), tap_pair(kFilter[4], 0)));
    return _mm256_abs_epi32(_mm256_srai_epi32(acc, 16));
}

// y[to] = y[from] for the int16 row kept in the int32 scratch (memcpy, not
// an int16 store, into int32 storage).
inline void copy_int16(std::int16_t* y, int to, int from) {
    std::memcpy(y + to, y + from, sizeof(std::int16_t));
}

// The uint32 sum of the horizontal pass over the padded int16 row y (64
// zero samples past its padding).
inline std::uint32_t abs_sum_int16(const std::int16_t* y, int w) {
    // Outputs j + 2i and j + 1 + 2i; output j's first pair is y[j - 2].
    __m256i sum = _mm256_setzero_si256();
    int j = 0;
    for (; j + 16 <= w; j += 16) {
        sum = _mm256_add_epi32(sum, abs_filtered_pairs(y + j - kRadius));
        sum = _mm256_add_epi32(sum, abs_filtered_pairs(y + j + 1 - kRadius));
    }
    if (j < w) {
        // Lanes past the last output are not added.
        const int left = w - j;
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i even = _mm256_cmpgt_epi32(_mm256_set1_epi32((left + 1) / 2), lane);
        const __m256i odd = _mm256_cmpgt_epi32(_mm256_set1_epi32(left / 2), lane);
        sum = _mm256_add_epi32(sum, _mm256_and_si256(abs_filtered_pairs(y + j - kRadius), even));
        sum = _mm256_add_epi32(sum, _mm256_and_si256(abs_filtered_pairs(y + j + 1 - kRadius), odd));
    }
    return sum_lanes(sum);
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

// The int32 row of an output row and its horizontal sum (the general path).
inline std::uint32_t general_row(const std::uint8_t* const* prev_rows,
                                 const std::uint8_t* const* cur_rows, int w, int /*bpc*/,
                                 std::int32_t* row) {
    if (!diff_vertical_u8_avx2(prev_rows, cur_rows, w, row)) return 0;
    motion_mirror_pad(row, w);
    return abs_sum_horizontal_avx2(row, w);
}
inline std::uint32_t general_row(const std::uint16_t* const* prev_rows,
                                 const std::uint16_t* const* cur_rows, int w, int bpc,
                                 std::int32_t* row) {
    if (!diff_vertical_u16_avx2(prev_rows, cur_rows, w, bpc, row)) return 0;
    motion_mirror_pad(row, w);
    return abs_sum_horizontal_avx2(row, w);
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
        __m256i wide = _mm256_setzero_si256();
        diff_row(prev + r * prev_stride, cur + r * cur_stride, w, s.diff(r), keep_row(keep, r, w),
                 wide);
        narrow_rows[r % kTaps] = narrow(wide);
    }
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        const std::int16_t* d[kTaps];
        for (int k = 0; k < kTaps; ++k) d[k] = s.diff(motion_tap_row(i, k, h));
        __m256i bits = _mm256_setzero_si256(), any = bits;
        // Whole vectors: the difference rows are zero past w, so are those y.
        if (i + kRadius < h) {
            // Row i + 2's difference in the same pass, step by step before the
            // vertical step that reads it (its loads then overlap the work).
            const int r = i + kRadius;
            const T* p = prev + r * prev_stride;
            const T* c = cur + r * cur_stride;
            T* kr = keep_row(keep, r, w);
            std::int16_t* dr = s.diff(r);
            __m256i wide = _mm256_setzero_si256();
            int j = 0;
            for (; j + 16 <= w; j += 16) {
                store8x32(dr + j, diff16(p + j, c + j, kr ? kr + j : nullptr, wide));
                vertical_int16_step(d, j, s.y, sh, bits, any);
            }
            if (j < w) {
                diff_tail(p, c, j, w, dr, kr, wide);
                vertical_int16_step(d, j, s.y, sh, bits, any);
            }
            narrow_rows[r % kTaps] = narrow(wide);
        } else {
            for (std::ptrdiff_t j = 0; j < w; j += 16)
                vertical_int16_step(d, j, s.y, sh, bits, any);
        }
        bool exact = _mm256_testz_si256(bits, sh.outside);
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
        if (_mm256_testz_si256(any, any)) continue;
        for (int f = 1; f <= kRadius; ++f) {
            copy_int16(s.y, -f, f);
            copy_int16(s.y, w - 1 + f, w - 1 - f);
        }
        for (int z = 0; z < 64; z += 16) store8x32(s.y + w + kRadius + z, _mm256_setzero_si256());
        sad += abs_sum_int16(s.y, w);
    }
    return sad;
}

std::uint64_t sad_u8_avx2(const std::uint8_t* prev, std::ptrdiff_t prev_stride,
                          const std::uint8_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                          std::uint8_t* keep, std::int32_t* scratch) {
    return sad_int16(prev, prev_stride, cur, cur_stride, w, h, 8, 8, keep, scratch);
}

std::uint64_t sad_u16_avx2(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
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

const MotionKernels& motion_kernels_avx2() {
    static constexpr MotionKernels kAvx2{sad_u8_avx2, sad_u16_avx2};
    return kAvx2;
}

}  // namespace vmafpp::motion
