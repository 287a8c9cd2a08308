// cambi's integer kernels written once over a vector of 16-bit lanes (as
// cambi_c_values_loop.hpp writes the c-value loop once): the histogram
// range counts of that loop, the mode filter's mode3, the spatial mask,
// the decimation and the conversion of 8-bit luma. Each ISA file
// (cambi_avx2.cpp, cambi_avx512.cpp, cambi_neon.cpp) instantiates them with
// its own lane struct `U` from its own anonymous namespace:
//   U::kLanes                 16-bit lanes in a vector (at most 32)
//   U::V                      the vector; a lane mask is a V of all-ones or
//                             all-zeros lanes
//   U::load(p), U::store(p, v)        kLanes samples, unaligned
//   U::set(x), U::add, U::sub         wrapping 16-bit arithmetic
//   U::eq(a, b), U::min(a, b)         equality mask, unsigned minimum
//   U::gt(a, b)                       a > b mask, for lanes below 0x8000
//   U::band(a, b), U::bor(a, b)       bitwise and, or
//   U::select(m, a, b)                m ? a : b, lane by lane
//   U::widen(p)                       kLanes bytes, zero-extended
//   U::evens(p)                       p[0], p[2], ..., p[2 kLanes - 2]
//                                     (may read p[2 kLanes - 1])
//   U::bits(m)                        bit i set where lane i of mask m is
// Integers only, every value below 2^16 where the scalar's is (the bounds
// are given at each kernel), so every instance returns the scalar's values.
// Tails past the last whole vector take the scalar's steps.
//
// Everything sits in an anonymous namespace (HACKING.md, "Where a loop
// lives"): each instance has internal linkage and its ISA file's flags.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_c_values_loop.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_mode_loop.hpp"

namespace vmafpp::cambi {
namespace {

// 32 ones then 32 zeros: kLanes loaded from kOnesThenZeros + 32 - n have
// their first n lanes 1 and the others 0 (0 <= n <= kLanes <= 32).
alignas(64) constexpr std::uint16_t kOnesThenZeros[64] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

// 0, 1, ..., 31: a vector's lane numbers.
alignas(64) constexpr std::uint16_t kIota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

// The c-value loop's Isa policy but for its row and sums
// (cambi_c_values_loop.hpp): the histogram range counts (inc, dec) and
// the scans of kLanes columns. An ISA's Isa struct derives from
// CountLanes<U> and adds row and sums.
template <class U>
struct CountLanes {
    using V = typename U::V;
    static constexpr int kScanLanes = U::kLanes;
    static constexpr std::uint32_t kAll =
        U::kLanes == 32 ? 0xffffffffu : (std::uint32_t{1} << U::kLanes) - 1;

    // kLanes columns' histogram rows as 16-bit compacts, 0xffff for none:
    // row_of's uint16(v - base) < size, unsigned (c <= size - 1 as
    // min(c, size - 1) == c, with 1 <= size <= 0xffff, so a compact in the
    // band is at most 0xfffe). c | m with m all ones where the mask is 0 or
    // c is out of the band (eq(in_band, 0) is its negation): or and compare
    // only, no select (a blend takes several uops at AVX2).
    static V compacts(const std::uint16_t* image, const std::uint16_t* mask, int base, int size) {
        const V zero = U::set(0);
        const V c = U::sub(U::load(image), U::set(static_cast<std::uint16_t>(base)));
        const V in_band = U::eq(U::min(c, U::set(static_cast<std::uint16_t>(size - 1))), c);
        return U::bor(U::bor(c, U::eq(in_band, zero)), U::eq(U::load(mask), zero));
    }
    // The compacts of the columns before x's kLanes (none for column -1).
    static V compacts_before(const std::uint16_t* image, const std::uint16_t* mask, int x, int base,
                             int size) {
        return x > 0 ? compacts(image + x - 1, mask + x - 1, base, size) : U::set(0xffff);
    }
    // The scans of c_values_loop's runs (see its contract). A column of
    // compact c continues the run of column x - 1 where their compacts are
    // equal (and not none; for moved_runs, where both columns moved).
    // A block without events needs no compacts of the columns before (the
    // rule in unchanged areas), and the masks are combined as vectors
    // before they become bits (U::bits is the costly step at NEON).
    static void counted_runs(const std::uint16_t* image, const std::uint16_t* mask, int x, int base,
                             int size, std::uint32_t& events, std::uint32_t& cont) {
        counted(compacts(image + x, mask + x, base, size),
                [&] { return compacts_before(image, mask, x, base, size); }, events, cont);
    }
    static void moved_runs(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                           const std::uint16_t* new_image, const std::uint16_t* new_mask, int x, int base,
                           int size, std::uint32_t& out_events, std::uint32_t& out_cont,
                           std::uint32_t& in_events, std::uint32_t& in_cont) {
        moved(compacts(old_image + x, old_mask + x, base, size), compacts(new_image + x, new_mask + x, base, size),
              [&] { return compacts_before(old_image, old_mask, x, base, size); },
              [&] { return compacts_before(new_image, new_mask, x, base, size); }, out_events, out_cont,
              in_events, in_cont);
    }
    // The same scans over rows of compacts made once (compact_row), for
    // c_values_loop's kCompacts path: a load each where the scans above
    // make them from image and mask.
    static void compact_row(const std::uint16_t* image, const std::uint16_t* mask, int w, int base, int size,
                            std::uint16_t* out) {
        int x = 0;
        for (; x + U::kLanes <= w; x += U::kLanes) U::store(out + x, compacts(image + x, mask + x, base, size));
        for (; x < w; ++x) {
            const std::uint16_t c = static_cast<std::uint16_t>(image[x] - base);
            out[x] = mask[x] && c < static_cast<unsigned>(size) ? c : 0xffff;
        }
    }
    static V before(const std::uint16_t* c, int x) { return x > 0 ? U::load(c + x - 1) : U::set(0xffff); }
    static void counted_compacts(const std::uint16_t* c, int x, std::uint32_t& events, std::uint32_t& cont) {
        counted(U::load(c + x), [&] { return before(c, x); }, events, cont);
    }
    static void moved_compacts(const std::uint16_t* old_c, const std::uint16_t* new_c, int x,
                               std::uint32_t& out_events, std::uint32_t& out_cont, std::uint32_t& in_events,
                               std::uint32_t& in_cont) {
        moved(U::load(old_c + x), U::load(new_c + x), [&] { return before(old_c, x); },
              [&] { return before(new_c, x); }, out_events, out_cont, in_events, in_cont);
    }
    // The scans of a block from its compacts (c; o and n, old and new) and
    // the compacts of the columns before it, made only when needed.
    template <class Before>
    static void counted(V c, Before c_before, std::uint32_t& events, std::uint32_t& cont) {
        events = ~U::bits(U::eq(c, U::set(0xffff))) & kAll;
        cont = 0;
        if (events) cont = U::bits(U::eq(c, c_before())) & events;
    }
    template <class OldBefore, class NewBefore>
    static void moved(V o, V n, OldBefore old_before, NewBefore new_before, std::uint32_t& out_events,
                      std::uint32_t& out_cont, std::uint32_t& in_events, std::uint32_t& in_cont) {
        const V none = U::set(0xffff), zero = U::set(0);
        const V still = U::eq(o, n);
        out_events = out_cont = in_events = in_cont = 0;
        // A block whose columns all keep their rows (none in both counts as
        // kept) has no event: the rule, decided with one mask.
        if (U::bits(still) == kAll) return;
        out_events = ~U::bits(U::bor(still, U::eq(o, none))) & kAll;
        in_events = ~U::bits(U::bor(still, U::eq(n, none))) & kAll;
        if (!(out_events | in_events)) return;
        const V o_before = old_before();
        const V n_before = new_before();
        // Column x + i - 1 moved and has the same old (new) row.
        const V moved_before = U::eq(U::eq(o_before, n_before), zero);
        out_cont = U::bits(U::band(moved_before, U::eq(o, o_before))) & out_events;
        in_cont = U::bits(U::band(moved_before, U::eq(n, n_before))) & in_events;
    }

    // row[0, n) +/- 1 in whole vectors, then one vector whose lanes past n
    // add or subtract 0 (the cells there are read and written back
    // unchanged: kHistogramPadding).
    template <bool kUp>
    static V step(V a, V b) {
        return kUp ? U::add(a, b) : U::sub(a, b);
    }
    template <bool kUp>
    static void count(std::uint16_t* row, int n) {
        const V one = U::set(1);
        int i = 0;
        for (; i + U::kLanes <= n; i += U::kLanes)
            U::store(row + i, step<kUp>(U::load(row + i), one));
        if (i < n)
            U::store(row + i, step<kUp>(U::load(row + i), U::load(kOnesThenZeros + 32 - (n - i))));
    }
    static void inc(std::uint16_t* row, int n) { count<true>(row, n); }
    static void dec(std::uint16_t* row, int n) { count<false>(row, n); }

    // A run's update (c_values_loop's Histograms::flush): row[i] +/-
    // min(t + 1, len - t, cap), t = t0 + i. Every t of [0, n) is below
    // len < 2^16, so t + 1 and len - t are in [1, len] and the unsigned
    // minimum is the count; the lanes past n add or subtract 0.
    static constexpr bool kRuns = true;
    template <bool kUp>
    static void ramp(std::uint16_t* row, int n, int t0, int len, int cap) {
        const V one = U::set(1), lanes = U::set(U::kLanes);
        const V ends = U::set(static_cast<std::uint16_t>(len)), top = U::set(static_cast<std::uint16_t>(cap));
        V t = U::add(U::set(static_cast<std::uint16_t>(t0)), U::load(kIota));
        auto count_at = [&](V tt) { return U::min(U::min(U::add(tt, one), U::sub(ends, tt)), top); };
        int i = 0;
        for (; i + U::kLanes <= n; i += U::kLanes, t = U::add(t, lanes))
            U::store(row + i, step<kUp>(U::load(row + i), count_at(t)));
        if (i < n) {
            // The ones-then-zeros lanes made all-ones-then-zeros.
            const V live = U::sub(U::set(0), U::load(kOnesThenZeros + 32 - (n - i)));
            U::store(row + i, step<kUp>(U::load(row + i), U::band(count_at(t), live)));
        }
    }
    static void ramp_inc(std::uint16_t* row, int n, int t0, int len, int cap) {
        ramp<true>(row, n, t0, len, cap);
    }
    static void ramp_dec(std::uint16_t* row, int n, int t0, int len, int cap) {
        ramp<false>(row, n, t0, len, cap);
    }
};

// mode3 of kLanes columns for filter_mode_loop: the smallest, replaced by b
// where b == c, then by a where a equals b or c (the order of mode3's tests).
template <class U>
struct ModeLanes {
    static constexpr int kLanes = U::kLanes;
    static void mode3(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b,
                      const std::uint16_t* c) {
        const typename U::V va = U::load(a), vb = U::load(b), vc = U::load(c);
        const typename U::V a_shared = U::bor(U::eq(va, vb), U::eq(va, vc));
        typename U::V r = U::min(U::min(va, vb), vc);
        r = U::select(U::eq(vb, vc), vb, r);
        r = U::select(a_shared, va, r);
        U::store(out, r);
    }
};

// The cells spatial_mask_cells counts in, as 16-bit lanes of U: a
// policy C gives Cell (the count's type), kLanes, kMaxThreshold (the
// largest threshold its compare takes), V, set, load, store, add, sub, band,
// gt (a signed compare below kMaxThreshold + 1), flags(row, below, x) (the
// kLanes 0/1 flags from x: a sample equal to its right and lower
// neighbours) and store_mask(out, m) (kLanes 0/1 cells as uint16 mask
// values). An ISA file may count in narrower cells (cambi_avx2.cpp: bytes).
template <class U>
struct WordCells {
    using Cell = std::uint16_t;
    using V = typename U::V;
    static constexpr int kLanes = U::kLanes;
    static constexpr int kMaxThreshold = 0x7fff;
    static V set(int x) { return U::set(static_cast<std::uint16_t>(x)); }
    static V load(const Cell* p) { return U::load(p); }
    static void store(Cell* p, V v) { U::store(p, v); }
    static V add(V a, V b) { return U::add(a, b); }
    static V sub(V a, V b) { return U::sub(a, b); }
    static V band(V a, V b) { return U::band(a, b); }
    static V gt(V a, V b) { return U::gt(a, b); }
    static V flags(const std::uint16_t* row, const std::uint16_t* below, int x) {
        const V v = U::load(row + x);
        return U::band(U::band(U::eq(v, U::load(row + x + 1)), U::eq(v, U::load(below + x))), U::set(1));
    }
    static void store_mask(std::uint16_t* out, V m) { U::store(out, m); }
};

// SpatialMaskFn in C's cells (kLanes columns a step): flags are 0/1, column
// sums over at most 7 rows at most 7, box sums at most 49, so nothing wraps
// a byte, and `sum > threshold` with the threshold clamped to
// C::kMaxThreshold (no sum reaches it, >= 127) is C::gt's signed compare.
// The scratch (9w + 14 uint32) holds, as cells, the padded column sums (3
// zeros, w sums, 3 zeros) and a ring of 8 flag rows of w.
//
// kHalf: the mask decimated (cambi_kernels.hpp's spatial_mask_half): the
// column sums still follow every row, but only even rows sum their boxes,
// and C::store_mask_half(out, m) keeps the even columns' kLanes / 2 cells.
template <class C, bool kHalf = false>
void spatial_mask_cells(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                        int w, int h, int threshold, std::uint32_t* scratch) {
    using Cell = typename C::Cell;
    using V = typename C::V;
    constexpr int N = C::kLanes;
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    auto* padded = reinterpret_cast<Cell*>(scratch);
    Cell* cols = padded + pad;
    Cell* flat = padded + w + 2 * pad;
    for (int i = 0; i < w + 2 * pad; ++i) padded[i] = 0;
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    const V one = C::set(1);
    // Row y's flags into `in` and cols += in - leaving (leaving may be
    // null). Vectors while row[x + N] exists.
    auto update = [&](int y, Cell* in, const Cell* leaving) {
        const std::uint16_t* row = image + y * stride;
        const std::uint16_t* below = y == h - 1 ? row : row + stride;
        int x = 0;
        for (; x + N < w; x += N) {
            const V f = C::flags(row, below, x);
            C::store(in + x, f);
            V c = C::add(C::load(cols + x), f);
            if (leaving) c = C::sub(c, C::load(leaving + x));
            C::store(cols + x, c);
        }
        for (; x < w; ++x) {
            const std::uint16_t right = x < w - 1 ? row[x + 1] : row[x];
            in[x] = (row[x] == right) & (row[x] == below[x]) ? 1 : 0;
            cols[x] = static_cast<Cell>(cols[x] + in[x] - (leaving ? leaving[x] : 0));
        }
    };
    for (int y = 0; y < pad && y < h; ++y) update(y, flat_of(y), nullptr);
    const int t = static_cast<unsigned>(threshold) > unsigned{C::kMaxThreshold} ? C::kMaxThreshold
                                                                                 : threshold;
    const V tv = C::set(t);
    for (int y = 0; y < h; ++y) {
        const Cell* leaving = y - pad - 1 >= 0 ? flat_of(y - pad - 1) : nullptr;
        if (y + pad < h) {
            update(y + pad, flat_of(y + pad), leaving);
        } else if (leaving) {
            int x = 0;
            for (; x + N <= w; x += N) C::store(cols + x, C::sub(C::load(cols + x), C::load(leaving + x)));
            for (; x < w; ++x) cols[x] = static_cast<Cell>(cols[x] - leaving[x]);
        }
        if (kHalf && y % 2 != 0) continue;
        // Output x sums padded[x .. x + 6]: a vector reads up to
        // padded[x + N + 5] <= padded[w + 5], the last zero.
        std::uint16_t* out = mask + (kHalf ? y / 2 : y) * stride;
        int x = 0;
        for (; x + N <= w; x += N) {
            const Cell* p = padded + x;
            V sum = C::load(p);
            for (int k = 1; k < kMaskFilterSize; ++k) sum = C::add(sum, C::load(p + k));
            if constexpr (kHalf)
                C::store_mask_half(out + x / 2, C::band(C::gt(sum, tv), one));
            else
                C::store_mask(out + x, C::band(C::gt(sum, tv), one));
        }
        // (N is even: the tail's first column is even too.)
        for (; x < w; x += kHalf ? 2 : 1) {
            const Cell* p = padded + x;
            const int sum = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
            out[kHalf ? x / 2 : x] = sum > t ? 1 : 0;
        }
    }
}

// DecimateFn, kLanes outputs from 2 kLanes inputs: row y is written only
// after rows 0 .. 2y - 1 were read, and within row 0 output x reads 2x >= x,
// so reading a vector's inputs before storing it changes nothing. Vectors
// while x + kLanes < w: the inputs end at 2x + 2 kLanes - 1 <= 2w - 3,
// inside the previous scale's row (at least 2w - 1 wide).
template <class U>
void decimate_lanes(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    for (int y = 0; y < h; ++y) {
        std::uint16_t* out = image + y * stride;
        const std::uint16_t* in = image + 2 * y * stride;
        int x = 0;
        for (; x + U::kLanes < w; x += U::kLanes) U::store(out + x, U::evens(in + 2 * x));
        for (; x < w; ++x) out[x] = in[2 * x];
    }
}

// LoadU8Fn's values directly: with dither, a + b + c + d inside (at most
// 4 * 255, no wrap), 2 (a + c) in the last column, 2 (a + b) in the last
// row, 4a in the corner; else a << 2 (a + a + a + a). Row y reads only
// source rows y and y + 1, so rows are independent. Vectors while
// x + kLanes < w (a[x + kLanes] exists; with no dither while
// x + kLanes <= w), the rest one sample at a time.
template <class U>
void load_u8_lanes(const std::uint8_t* src, std::ptrdiff_t src_stride, std::uint16_t* image,
                   std::ptrdiff_t stride, int w, int h, bool dither) {
    using V = typename U::V;
    constexpr int N = U::kLanes;
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* a = src + y * src_stride;
        std::uint16_t* out = image + y * stride;
        int x = 0;
        if (!dither) {
            for (; x + N <= w; x += N) {
                const V v = U::widen(a + x);
                const V twice = U::add(v, v);
                U::store(out + x, U::add(twice, twice));
            }
            for (; x < w; ++x) out[x] = static_cast<std::uint16_t>(a[x] << 2);
            continue;
        }
        // The last row pairs each sample with itself below.
        const std::uint8_t* b = y + 1 < h ? a + src_stride : a;
        for (; x + N < w; x += N)
            U::store(out + x, U::add(U::add(U::widen(a + x), U::widen(a + x + 1)),
                                     U::add(U::widen(b + x), U::widen(b + x + 1))));
        for (; x < w - 1; ++x) out[x] = static_cast<std::uint16_t>(a[x] + a[x + 1] + b[x] + b[x + 1]);
        out[w - 1] = static_cast<std::uint16_t>(2 * (a[w - 1] + b[w - 1]));
    }
}

// spatial_mask_half as the whole mask then its decimation (an ISA whose
// cells keep no even columns in one step; AVX2's byte cells do).
template <class U>
void spatial_mask_half_lanes(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                             int w, int h, int threshold, std::uint32_t* scratch) {
    spatial_mask_cells<WordCells<U>>(image, stride, mask, w, h, threshold, scratch);
    decimate_lanes<U>(mask, stride, (w + 1) >> 1, (h + 1) >> 1);
}

// A level's table: the kernels above over U and the c-value loop over Isa
// (an ISA's CountLanes<U> with its scans, row and sums).
template <class U, class Isa>
void install_lanes(CambiKernels& k) {
    k.load_u8 = &load_u8_lanes<U>;
    k.spatial_mask = &spatial_mask_cells<WordCells<U>>;
    k.spatial_mask_half = &spatial_mask_half_lanes<U>;
    k.decimate = &decimate_lanes<U>;
    k.c_values = &c_values_loop<Isa>;
    k.c_value_sums = &Isa::sums;
    k.filter_mode = &filter_mode_loop<ModeLanes<U>>;
}

}  // namespace
}  // namespace vmafpp::cambi
