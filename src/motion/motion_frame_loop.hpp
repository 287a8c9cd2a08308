// The frame loops of the SIMD motion kernels, written once and compiled once
// per instruction set: motion_avx2.cpp, motion_avx512.cpp and motion_neon.cpp
// each include this header and instantiate the loops with their own `Isa` policy (vector
// type, step width, row passes), so each loop is the same source but each
// instance is that file's code, built with that file's -m flags.
//
// Everything here sits in an anonymous namespace, and every Isa type lives in
// its file's anonymous namespace too: each instance has internal linkage, so
// the linker can never keep an AVX-512 instance for the AVX2 or the baseline
// caller (as it could for an ordinary inline function or template, whose
// copies it takes to be interchangeable). For the same reason no
// standard-library template is used.
//
// An Isa policy provides (every pass's exactness argument is in the ISA file
// beside it, or below for what the loops share; the loops only decide which
// rows go through which pass):
//   Vec, kStep                 the vector type and its int16 lanes, the
//                              columns of one step of the fused frame
//   Shift                      the int16 vertical pass's constants
//                              (VerticalShift of the ISA's Lanes on x86)
//   zero(), store(p, v), add(a, b), add_first(a, n, b), sum_lanes(v)
//                              int32 lanes: a + b in every lane, in the first
//                              n lanes only; the uint32 sum of the lanes
//   diff_step(p, c, j, n, d, keep, wide)
//                              d[j, j + kStep) = p - c of the n <= kStep
//                              columns from j, 0 past them (never reading
//                              past the row); keep gets cur's n columns
//                              unless it is null; `wide` collects the
//                              samples' bits
//   narrow(wide)               no 16-bit sample reached 2^14
//   vertical_step(d, j, y, sh, bits, any)
//                              kStep columns of the int16 vertical pass
//   fits(bits, sh)             every y of the row lies in int16
//   nonzero(any)               some y of the row is not zero
//   abs_filtered_pairs(s)      |(sum + 2^15) >> 16| of the kStep / 2 outputs
//                              of one parity whose first tap pair is s[0, 1]
//   kWide                      whether the Isa has the wide tier below (a
//                              row whose y leaves int16 but stays within 17
//                              bits); with it:
//   WideShift, vertical_wide_step(d, j, a, b, sh, bits, big),
//   fits_wide(bits, sh), abs_filtered_wide(a, b)
//                              the same passes on y = 2a + b (see
//                              WideShift)
//   some_big(big)              some int16 lane of big has bit 15 set
// and the ISA file defines the general path's diff_vertical and
// abs_sum_int32 declared below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {
namespace {

// Row r of the kept copy of cur (none when keep is null).
template <class T>
inline T* keep_row(T* keep, int r, int w) {
    return keep ? keep + std::ptrdiff_t{r} * w : nullptr;
}

// y[to] = y[from] for the int16 row kept in the int32 scratch (memcpy, not
// an int16 store, into int32 storage).
inline void copy_int16(std::int16_t* y, int to, int from) {
    std::memcpy(y + to, y + from, sizeof(std::int16_t));
}

// The scratch, 64-byte aligned: the int32 row (padded) or the int16 row y
// (y[-32, w + 98)), then the ring of difference rows, wp samples apart,
// then the wide tier's second int16 row b (b[-32, w + 98)); the wide tier
// keeps its a in y. motion_scratch_size(w) holds them: b ends 4 wp + 129
// int32 after the aligned base, at most 15 int32 after the scratch's start.
struct Scratch {
    Scratch(std::int32_t* scratch, int w)
        : wp((w + 31) / 32 * 32),
          base(reinterpret_cast<std::int32_t*>((reinterpret_cast<std::uintptr_t>(scratch) + 63) &
                                               ~std::uintptr_t{63})),
          row(base + kRadius),
          y(reinterpret_cast<std::int16_t*>(base) + 32),
          ring(reinterpret_cast<std::int16_t*>(base + wp + 64)),
          b(ring + kTaps * std::ptrdiff_t{wp} + 32) {}
    std::int16_t* diff(int r) const { return ring + (r % kTaps) * std::ptrdiff_t{wp}; }
    int wp;
    std::int32_t* base;
    std::int32_t* row;
    std::int16_t* y;
    std::int16_t* ring;
    std::int16_t* b;
};

// The kTaps input rows of output row i, mirrored at the edges.
template <class T>
struct TapRows {
    TapRows(const T* prev, std::ptrdiff_t prev_stride, const T* cur, std::ptrdiff_t cur_stride,
            int i, int h) {
        for (int k = 0; k < kTaps; ++k) {
            prev_rows[k] = prev + motion_tap_row(i, k, h) * prev_stride;
            cur_rows[k] = cur + motion_tap_row(i, k, h) * cur_stride;
        }
    }
    const T* prev_rows[kTaps];
    const T* cur_rows[kTaps];
};

// d[j] = p[j] - c[j] for j < w, 0 from w up to w rounded up to kStep.
template <class Isa, class T>
inline void diff_row(const T* p, const T* c, int w, std::int16_t* d, T* keep,
                     typename Isa::Vec& wide) {
    int j = 0;
    for (; j + Isa::kStep <= w; j += Isa::kStep) Isa::diff_step(p, c, j, Isa::kStep, d, keep, wide);
    if (j < w) Isa::diff_step(p, c, j, w - j, d, keep, wide);
}

// The constants of the int16 vertical pass y = (sum + 2^(s-1)) >> s with
// s = 8 (8-bit samples) or bpc <= 14. The taps are symmetric:
// sum = c0 (d0 + d4) + c1 (d1 + d3) + c2 d2, and with |d| < 2^14 the pair
// sums fit int16. Each int32 lane t takes column 2t (even) or 2t + 1 (odd):
// its (d0 + d4, d1 + d3) pair is blended from the 16-bit lanes (no
// cross-lane shuffle), and c2 d2 comes from a multiply-add with a zero tap
// on the other column. |sum| < 65536 * 2^14 = 2^30 is exact in int32.
//
// e = sum + 2^(s-1) + 2^(s+15) is (y + 2^15) * 2^s + (e mod 2^s) with y
// floored, so y lies in [-2^15, 2^15) exactly when e lies in [0, 2^(s+16))
// (no bit from s + 16 up set, sign included; s <= 14 keeps |e| < 2^31), and
// then bits s..s+15 of e are y + 2^15, i.e. y as int16 with the top bit
// flipped.
// Lanes (the ISA file's, declared before its passes): dispatch/x86_lanes.hpp's
// VMAFPP_X86_INT_LANES (I, set_i32, ...) and what differs between widths:
// blend_high16(a, b) (the low 16 bits of every int32 lane from a, the high
// ones from b) and or3(a, b, c). (The x86 forms below; NEON's are in its
// file.)
#if defined(__x86_64__) || defined(__i386__)
template <class Lanes>
struct VerticalShift {
    explicit VerticalShift(int s)
        : even(_mm_cvtsi32_si128(s)),
          odd(_mm_cvtsi32_si128(16 - s)),
          bias(Lanes::set_i32((1 << (s - 1)) + (1 << (s + 15)))),
          outside(Lanes::set_i32(static_cast<int>(~((1u << (s + 16)) - 1u)))) {}
    __m128i even, odd;  // bits s..s+15 to 0..15, to 16..31
    typename Lanes::I bias;
    typename Lanes::I outside;  // the bits that put y outside int16
};

// The constants of the high-bit-depth vertical pass, whose outputs are
// floor((P + 2^(bpc-1) - Q) / 2^bpc) (see the ISA files): the shift count,
// the rounding term and the mask of the low bpc bits.
template <class Lanes>
struct FloorShift {
    explicit FloorShift(int bpc)
        : shift(_mm_cvtsi32_si128(bpc)),
          round(Lanes::set_i32(1 << (bpc - 1))),
          low_mask(Lanes::set_i32((1 << bpc) - 1)) {}
    __m128i shift;
    typename Lanes::I round;
    typename Lanes::I low_mask;
};

// Two taps side by side for madd_i16: c_a in the low 16 bits.
template <class Lanes>
inline typename Lanes::I tap_pair(std::uint16_t a, std::uint16_t b) {
    return Lanes::set_i32(static_cast<int>(std::uint32_t{a} | (std::uint32_t{b} << 16)));
}

// The int16 vertical pass's int32 sums of one vector of columns from j,
// plus `bias`: the even columns' in `even`, the odd ones' in `odd`. The
// pair sums are blended into (d0 + d4, d1 + d3) per int32 lane, c0 and c1
// taken by one multiply-add, c2 d2 by another with a zero tap on the other
// column.
template <class Lanes>
inline void vertical_sums_lanes(const std::int16_t* const* d, std::ptrdiff_t j,
                                typename Lanes::I bias, typename Lanes::I& even,
                                typename Lanes::I& odd) {
    using L = Lanes;
    using I = typename L::I;
    const I d2 = L::load_i(d[2] + j);
    const I s04 = L::add_i16(L::load_i(d[0] + j), L::load_i(d[4] + j));
    const I s13 = L::add_i16(L::load_i(d[1] + j), L::load_i(d[3] + j));
    const I even_pairs = L::blend_high16(s04, L::shl_i32(s13, 16));
    const I odd_pairs = L::blend_high16(L::shr_i32(s04, 16), s13);
    const I c01 = tap_pair<L>(kFilter[0], kFilter[1]);
    even = L::add_i32(L::add_i32(L::madd_i16(even_pairs, c01), bias),
                      L::madd_i16(d2, tap_pair<L>(kFilter[2], 0)));
    odd = L::add_i32(L::add_i32(L::madd_i16(odd_pairs, c01), bias),
                     L::madd_i16(d2, tap_pair<L>(0, kFilter[2])));
}

// The int16 vertical pass of one vector of columns from j (the Isa's
// vertical_step on x86): the sums (vertical_sums_lanes), y's bits gathered
// by the two shifts.
template <class Lanes>
inline void vertical_int16_lanes(const std::int16_t* const* d, std::ptrdiff_t j, std::int16_t* y,
                                 const VerticalShift<Lanes>& sh, typename Lanes::I& bits,
                                 typename Lanes::I& any) {
    using L = Lanes;
    using I = typename L::I;
    I even, odd;
    vertical_sums_lanes<L>(d, j, sh.bias, even, odd);
    bits = L::or3(bits, even, odd);
    const I v = L::xor_i(L::blend_high16(L::shr_i32_by(even, sh.even), L::shl_i32_by(odd, sh.odd)),
                         L::set_i16(static_cast<std::int16_t>(0x8000)));
    any = L::or_i(any, v);
    L::store_i(y + j, v);
}

// The wide tier: a row whose y leaves int16 (natural pictures with fast
// motion: y is 256 times the blurred 8-bit difference, up to +-65280, and
// most rows of such frames have some |y| >= 2^15) but lies in
// [-2^16, 2^16) keeps y as two int16 rows, y = 2a + b with a = floor(y / 2)
// in [-2^15, 2^15) and b = y & 1. The horizontal sum
// S = sum_k c_k y_k = 2A + B, A = sum_k c_k a_k, B = sum_k c_k b_k, takes a
// multiply-add per tap pair on each row, as the int16 pass does:
// |A| <= 2^16 * 2^15 and B in [0, 2^16] are exact in int32, and
// floor((S + 2^15) / 2^16) = floor((A + floor((B + 2^15) / 2)) / 2^15)
// (2A is even, so dropping B + 2^15's low bit crosses no multiple of 2^16),
// A + floor((B + 2^15) / 2) <= 2^31 - 2^16 + 49152 fitting int32. This
// replaces the general path's 64-bit products for those rows (measured on
// p19x5, 8-bit 1080p at AVX2: 85% of the rows took the general path).
//
// The vertical pass is the int16 one with e = sum + 2^(s-1) + 2^(s+16):
// y lies in [-2^16, 2^16) exactly when e lies in [0, 2^(s+17)) (e < 2^31
// for s <= 14 and |sum| < 2^30), and then a + 2^15 is bits s+1..s+16 of e
// and b is bit s.
template <class Lanes>
struct WideShift {
    explicit WideShift(int s)
        : a_even(_mm_cvtsi32_si128(s + 1)),
          a_odd(_mm_cvtsi32_si128(15 - s)),
          b_even(_mm_cvtsi32_si128(s)),
          b_odd(_mm_cvtsi32_si128(16 - s)),
          bias(Lanes::set_i32((1 << (s - 1)) + (1 << (s + 16)))),
          outside(Lanes::set_i32(static_cast<int>(~((1u << (s + 17)) - 1u)))) {}
    __m128i a_even, a_odd;  // bits s+1..s+16 to 0..15, to 16..31
    __m128i b_even, b_odd;  // bit s to 0, to 16
    typename Lanes::I bias;
    typename Lanes::I outside;  // the bits that put y outside 17 bits
};

// One vector of columns from j of the wide vertical pass: a (biased by
// 2^15, flipped back) into a[j], b into b[j]; `bits` collects e and `big`
// a + 2^14 as int16, whose bit 15 is set where a lies outside
// [-2^14, 2^14), i.e. y outside int16 (the loop's choice of pass).
template <class Lanes>
inline void vertical_wide_lanes(const std::int16_t* const* d, std::ptrdiff_t j, std::int16_t* a,
                                std::int16_t* b, const WideShift<Lanes>& sh,
                                typename Lanes::I& bits, typename Lanes::I& big) {
    using L = Lanes;
    using I = typename L::I;
    I even, odd;
    vertical_sums_lanes<L>(d, j, sh.bias, even, odd);
    bits = L::or3(bits, even, odd);
    const I av = L::xor_i(
        L::blend_high16(L::shr_i32_by(even, sh.a_even), L::shl_i32_by(odd, sh.a_odd)),
        L::set_i16(static_cast<std::int16_t>(0x8000)));
    big = L::or_i(big, L::add_i16(av, L::set_i16(0x4000)));
    L::store_i(a + j, av);
    L::store_i(b + j, L::and_i(L::blend_high16(L::shr_i32_by(even, sh.b_even),
                                               L::shl_i32_by(odd, sh.b_odd)),
                               L::set_i16(1)));
}

// |(S + 2^15) >> 16| of the outputs of one parity whose first tap pairs are
// a[0, 1] and b[0, 1] (the wide tier's horizontal pass; see WideShift).
template <class Lanes>
inline typename Lanes::I abs_filtered_wide_lanes(const std::int16_t* a, const std::int16_t* b) {
    using L = Lanes;
    using I = typename L::I;
    const I c01 = tap_pair<L>(kFilter[0], kFilter[1]);
    const I c23 = tap_pair<L>(kFilter[2], kFilter[3]);
    const I c4 = tap_pair<L>(kFilter[4], 0);
    const I sa = L::add_i32(L::add_i32(L::madd_i16(L::load_i(a), c01), L::madd_i16(L::load_i(a + 2), c23)),
                            L::madd_i16(L::load_i(a + 4), c4));
    const I sb = L::add_i32(L::add_i32(L::madd_i16(L::load_i(b), c01), L::madd_i16(L::load_i(b + 2), c23)),
                            L::add_i32(L::madd_i16(L::load_i(b + 4), c4), L::set_i32(32768)));
    return L::abs_i32(L::sar_i32(L::add_i32(sa, L::sar_i32(sb, 1)), 15));
}
#endif

// |(sum + 2^15) >> 16| summed into the uint32 lanes of `sum` over the
// outputs [0, n) of an int16 row y padded by kRadius samples and readable up
// to 64 samples past its end; samples in [-2^15, 2^15) (see the Isa's
// abs_filtered_pairs). Wrapping addition does not depend on the order, nor
// on the outputs' order: outputs k + 2i (even lanes) and k + 1 + 2i (odd
// lanes), output j's first pair being y[j - 2], y[j - 1].
template <class Isa>
inline typename Isa::Vec abs_sum_pairs(const std::int16_t* y, int n, typename Isa::Vec sum) {
    int k = 0;
    for (; k + Isa::kStep <= n; k += Isa::kStep) {
        sum = Isa::add(sum, Isa::abs_filtered_pairs(y + k - kRadius));
        sum = Isa::add(sum, Isa::abs_filtered_pairs(y + k + 1 - kRadius));
    }
    if (k < n) {
        // Lanes past the last output are not added.
        const int left = n - k;
        sum = Isa::add_first(sum, (left + 1) / 2, Isa::abs_filtered_pairs(y + k - kRadius));
        sum = Isa::add_first(sum, left / 2, Isa::abs_filtered_pairs(y + k + 1 - kRadius));
    }
    return sum;
}

// abs_sum_pairs of the wide tier's rows a and b (both padded, readable as y).
template <class Isa>
inline typename Isa::Vec abs_sum_pairs_wide(const std::int16_t* a, const std::int16_t* b, int n,
                                            typename Isa::Vec sum) {
    int k = 0;
    for (; k + Isa::kStep <= n; k += Isa::kStep) {
        sum = Isa::add(sum, Isa::abs_filtered_wide(a + k - kRadius, b + k - kRadius));
        sum = Isa::add(sum, Isa::abs_filtered_wide(a + k + 1 - kRadius, b + k + 1 - kRadius));
    }
    if (k < n) {
        const int left = n - k;
        sum = Isa::add_first(sum, (left + 1) / 2,
                             Isa::abs_filtered_wide(a + k - kRadius, b + k - kRadius));
        sum = Isa::add_first(sum, left / 2,
                             Isa::abs_filtered_wide(a + k + 1 - kRadius, b + k + 1 - kRadius));
    }
    return sum;
}

// Mirrors kRadius samples at both ends of an int16 row kept in the scratch
// and zeroes the 64 after them (what the horizontal passes read).
template <class Isa>
inline void pad_int16(std::int16_t* y, int w) {
    for (int f = 1; f <= kRadius; ++f) {
        copy_int16(y, -f, f);
        copy_int16(y, w - 1 + f, w - 1 - f);
    }
    for (int z = 0; z < 64; z += Isa::kStep) Isa::store(y + w + kRadius + z, Isa::zero());
}

// The wide tier's sum of the rows a (in y) and b its vertical pass wrote.
template <class Isa>
inline std::uint64_t wide_sum(int w, const Scratch& s) {
    pad_int16<Isa>(s.y, w);
    pad_int16<Isa>(s.b, w);
    return Isa::sum_lanes(abs_sum_pairs_wide<Isa>(s.y, s.b, w, Isa::zero()));
}

// The wide tier of output row i (rows d, all narrow) after its int16 pass
// failed: false when some y leaves [-2^16, 2^16) (the general path then);
// else adds its sum to sad.
template <class Isa>
inline bool wide_row(const std::int16_t* const* d, int w, const Scratch& s,
                     const typename Isa::WideShift& sh, std::uint64_t& sad) {
    typename Isa::Vec bits = Isa::zero(), big = bits;
    for (int j = 0; j < w; j += Isa::kStep) Isa::vertical_wide_step(d, j, s.y, s.b, sh, bits, big);
    if (!Isa::fits_wide(bits, sh)) return false;
    sad += wide_sum<Isa>(w, s);
    return true;
}

// The general path's passes, defined by the ISA file: the vertical pass of
// an output row to int32 (bpc is unused for 8-bit samples), returning the OR
// of its outputs, and the horizontal sum of the row it wrote, mirrored.
std::int32_t diff_vertical(const std::uint8_t* const* prev_rows,
                           const std::uint8_t* const* cur_rows, int w, int bpc,
                           std::int32_t* out);
std::int32_t diff_vertical(const std::uint16_t* const* prev_rows,
                           const std::uint16_t* const* cur_rows, int w, int bpc,
                           std::int32_t* out);
template <class T>
std::uint32_t abs_sum_int32(const std::int32_t* row, int w);

// The general path of an output row: its vertical pass to int32 in `row`
// (kRadius samples of room before and after), mirrored, and the horizontal
// sum. A zero row adds zero; libvmaf skips it too.
template <class T>
inline std::uint32_t general_row(const T* const* prev_rows, const T* const* cur_rows, int w,
                                 int bpc, std::int32_t* row) {
    if (!diff_vertical(prev_rows, cur_rows, w, bpc, row)) return 0;
    motion_mirror_pad(row, w);
    return abs_sum_int32<T>(row, w);
}

// The fused frame (8-bit, and 9- to 14-bit samples below 2^14): every input
// row's difference prev - cur once, as int16, in a ring of kTaps rows; each
// output row's vertical pass from them to int16, then the horizontal pass
// on int16 pairs, with y = (sum + 2^(shift-1)) >> shift; shift <= 14. A row
// with a sample too wide or some y outside int16 takes the general path.
template <class Isa, class T>
std::uint64_t sad_int16(const T* prev, std::ptrdiff_t prev_stride, const T* cur,
                        std::ptrdiff_t cur_stride, int w, int h, int bpc, int shift, T* keep,
                        std::int32_t* scratch) {
    using Vec = typename Isa::Vec;
    constexpr int kStep = Isa::kStep;
    const Scratch s(scratch, w);
    const typename Isa::Shift sh(shift);
    const typename Isa::WideShift shw(shift);
    bool narrow_rows[kTaps] = {};  // by ring slot: |d| < 2^14 in that row
    for (int r = 0; r < kRadius; ++r) {
        Vec wide = Isa::zero();
        diff_row<Isa>(prev + r * prev_stride, cur + r * cur_stride, w, s.diff(r),
                      keep_row(keep, r, w), wide);
        narrow_rows[r % kTaps] = Isa::narrow(wide);
    }
    // The vertical pass of output row i, step(j) for each vector of columns
    // (whole vectors: the difference rows are zero past w, so are those
    // outputs), with row i + 2's difference made in the same pass, step by
    // step before the vertical step that reads it (its loads then overlap
    // the work); then whether all kTaps rows of row i are narrow.
    auto vertical_pass = [&](int i, auto step) {
        if (i + kRadius < h) {
            const int r = i + kRadius;
            const T* p = prev + r * prev_stride;
            const T* c = cur + r * cur_stride;
            T* kr = keep_row(keep, r, w);
            std::int16_t* dr = s.diff(r);
            Vec wide = Isa::zero();
            int j = 0;
            for (; j + kStep <= w; j += kStep) {
                Isa::diff_step(p, c, j, kStep, dr, kr, wide);
                step(j);
            }
            if (j < w) {
                Isa::diff_step(p, c, j, w - j, dr, kr, wide);
                step(j);
            }
            narrow_rows[r % kTaps] = Isa::narrow(wide);
        } else {
            for (int j = 0; j < w; j += kStep) step(j);
        }
        bool narrow_taps = true;
        for (int k = 0; k < kTaps; ++k)
            narrow_taps = narrow_taps && narrow_rows[motion_tap_row(i, k, h) % kTaps];
        return narrow_taps;
    };
    auto general = [&](int i) {
        const TapRows<T> t(prev, prev_stride, cur, cur_stride, i, h);
        return general_row(t.prev_rows, t.cur_rows, w, bpc, s.row);
    };
    // Whether the last row took the wide tier: rows of fast motion come in
    // runs, and the next one then goes straight to the wide pass (a row
    // whose y would have fitted int16 gets the same sum from it) instead of
    // failing the int16 one first; a row whose a all lie in [-2^14, 2^14)
    // (y in int16) goes back.
    bool wide_mode = false;
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        const std::int16_t* d[kTaps];
        for (int k = 0; k < kTaps; ++k) d[k] = s.diff(motion_tap_row(i, k, h));
        if constexpr (Isa::kWide) {
            if (wide_mode) {
                Vec bits = Isa::zero(), big = bits;
                const bool narrow_taps = vertical_pass(i, [&](int j) {
                    Isa::vertical_wide_step(d, j, s.y, s.b, shw, bits, big);
                });
                if (!narrow_taps || !Isa::fits_wide(bits, shw)) {
                    sad += general(i);
                    continue;
                }
                wide_mode = Isa::some_big(big);
                sad += wide_sum<Isa>(w, s);
                continue;
            }
        }
        Vec bits = Isa::zero(), any = bits;
        const bool narrow_taps =
            vertical_pass(i, [&](int j) { Isa::vertical_step(d, j, s.y, sh, bits, any); });
        if (!narrow_taps || !Isa::fits(bits, sh)) {
            // Some y outside int16 (and no sample too wide): the wide tier,
            // which redoes the vertical pass from the ring.
            if constexpr (Isa::kWide) {
                if (narrow_taps && wide_row<Isa>(d, w, s, shw, sad)) {
                    wide_mode = true;
                    continue;
                }
            }
            // Some sample too wide or some y outside 17 bits: the int32 row
            // and the general pass.
            sad += general(i);
            continue;
        }
        // A zero row adds zero; libvmaf skips it too.
        if (!Isa::nonzero(any)) continue;
        pad_int16<Isa>(s.y, w);
        sad += Isa::sum_lanes(abs_sum_pairs<Isa>(s.y, w, Isa::zero()));
    }
    return sad;
}

// motion_sad_u8 through the fused frame.
template <class Isa>
std::uint64_t sad_u8(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                     std::ptrdiff_t cur_stride, int w, int h, std::uint8_t* keep,
                     std::int32_t* scratch) {
    return sad_int16<Isa>(prev, prev_stride, cur, cur_stride, w, h, 8, 8, keep, scratch);
}

// motion_sad_u16: 9..14 bits through the fused frame (rows with wider
// samples take the general path); else row by row on the general path.
template <class Isa>
std::uint64_t sad_u16(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                      const std::uint16_t* cur, std::ptrdiff_t cur_stride, int w, int h, int bpc,
                      std::uint16_t* keep, std::int32_t* scratch) {
    if (bpc >= 9 && bpc <= 14)
        return sad_int16<Isa>(prev, prev_stride, cur, cur_stride, w, h, bpc, bpc, keep, scratch);
    std::int32_t* row = scratch + kRadius;
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        if (keep)
            std::memcpy(keep + std::ptrdiff_t{i} * w, cur + i * cur_stride,
                        w * sizeof(std::uint16_t));
        const TapRows<std::uint16_t> t(prev, prev_stride, cur, cur_stride, i, h);
        sad += general_row(t.prev_rows, t.cur_rows, w, bpc, row);
    }
    return sad;
}

// The table of a twin: both kernels through this header's loops.
template <class Isa>
void fill_kernels(MotionKernels& k) {
    k.sad_u8 = &sad_u8<Isa>;
    k.sad_u16 = &sad_u16<Isa>;
}

}  // namespace
}  // namespace vmafpp::motion
