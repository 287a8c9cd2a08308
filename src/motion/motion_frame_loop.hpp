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

// The int16 vertical pass of one vector of columns from j (the Isa's
// vertical_step on x86): the pair sums blended into (d0 + d4, d1 + d3) per
// int32 lane, c0 and c1 by one multiply-add, c2 d2 by another with a zero
// tap on the other column, y's bits gathered by the two shifts.
template <class Lanes>
inline void vertical_int16_lanes(const std::int16_t* const* d, std::ptrdiff_t j, std::int16_t* y,
                                 const VerticalShift<Lanes>& sh, typename Lanes::I& bits,
                                 typename Lanes::I& any) {
    using L = Lanes;
    using I = typename L::I;
    const I d2 = L::load_i(d[2] + j);
    const I s04 = L::add_i16(L::load_i(d[0] + j), L::load_i(d[4] + j));
    const I s13 = L::add_i16(L::load_i(d[1] + j), L::load_i(d[3] + j));
    const I even_pairs = L::blend_high16(s04, L::shl_i32(s13, 16));
    const I odd_pairs = L::blend_high16(L::shr_i32(s04, 16), s13);
    const I c01 = tap_pair<L>(kFilter[0], kFilter[1]);
    const I even = L::add_i32(L::add_i32(L::madd_i16(even_pairs, c01), sh.bias),
                              L::madd_i16(d2, tap_pair<L>(kFilter[2], 0)));
    const I odd = L::add_i32(L::add_i32(L::madd_i16(odd_pairs, c01), sh.bias),
                             L::madd_i16(d2, tap_pair<L>(0, kFilter[2])));
    bits = L::or3(bits, even, odd);
    const I v = L::xor_i(L::blend_high16(L::shr_i32_by(even, sh.even), L::shl_i32_by(odd, sh.odd)),
                         L::set_i16(static_cast<std::int16_t>(0x8000)));
    any = L::or_i(any, v);
    L::store_i(y + j, v);
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
    bool narrow_rows[kTaps] = {};  // by ring slot: |d| < 2^14 in that row
    for (int r = 0; r < kRadius; ++r) {
        Vec wide = Isa::zero();
        diff_row<Isa>(prev + r * prev_stride, cur + r * cur_stride, w, s.diff(r),
                      keep_row(keep, r, w), wide);
        narrow_rows[r % kTaps] = Isa::narrow(wide);
    }
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        const std::int16_t* d[kTaps];
        for (int k = 0; k < kTaps; ++k) d[k] = s.diff(motion_tap_row(i, k, h));
        Vec bits = Isa::zero(), any = bits;
        // Whole vectors: the difference rows are zero past w, so are those y.
        if (i + kRadius < h) {
            // Row i + 2's difference in the same pass, step by step before the
            // vertical step that reads it (its loads then overlap the work).
            const int r = i + kRadius;
            const T* p = prev + r * prev_stride;
            const T* c = cur + r * cur_stride;
            T* kr = keep_row(keep, r, w);
            std::int16_t* dr = s.diff(r);
            Vec wide = Isa::zero();
            int j = 0;
            for (; j + kStep <= w; j += kStep) {
                Isa::diff_step(p, c, j, kStep, dr, kr, wide);
                Isa::vertical_step(d, j, s.y, sh, bits, any);
            }
            if (j < w) {
                Isa::diff_step(p, c, j, w - j, dr, kr, wide);
                Isa::vertical_step(d, j, s.y, sh, bits, any);
            }
            narrow_rows[r % kTaps] = Isa::narrow(wide);
        } else {
            for (int j = 0; j < w; j += kStep) Isa::vertical_step(d, j, s.y, sh, bits, any);
        }
        bool exact = Isa::fits(bits, sh);
        for (int k = 0; k < kTaps; ++k)
            exact = exact && narrow_rows[motion_tap_row(i, k, h) % kTaps];
        if (!exact) {
            // Some sample too wide or some y outside int16: the int32 row and
            // the general pass.
            const TapRows<T> t(prev, prev_stride, cur, cur_stride, i, h);
            sad += general_row(t.prev_rows, t.cur_rows, w, bpc, s.row);
            continue;
        }
        // A zero row adds zero; libvmaf skips it too.
        if (!Isa::nonzero(any)) continue;
        for (int f = 1; f <= kRadius; ++f) {
            copy_int16(s.y, -f, f);
            copy_int16(s.y, w - 1 + f, w - 1 - f);
        }
        for (int z = 0; z < 64; z += kStep) Isa::store(s.y + w + kRadius + z, Isa::zero());
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
