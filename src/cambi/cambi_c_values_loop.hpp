// The c-value loop of cambi (CValuesFn), written once and compiled once per
// instruction set: cambi_scalar.cpp and, through cambi_lanes_loop.hpp
// (install_lanes; CountLanes gives inc, dec and the scans), cambi_avx2.cpp,
// cambi_avx512.cpp and cambi_neon.cpp instantiate c_values_loop with their
// own `Isa` policy, which counts a range of histogram cells up or down and
// scores a row:
//   Isa::inc(row, n), Isa::dec(row, n)   row[0, n) += 1, -= 1 (n <= 255);
//                                        may read and write back unchanged
//                                        cells up to kHistogramPadding past
//                                        row + n
//   Isa::row(image, mask, w, s, hist, recip, out)
//                                        c_values_row's values (it may call
//                                        c_values_row for a tail); may read
//                                        (never write) histogram cells up to
//                                        kHistogramPadding past the last
//   Isa::sums(row, n, sums)              c_value_sums_scalar's result
//   Isa::kRowSums                        (optional) true where Isa::row
//                                        takes `sums` last and adds its row
//                                        to them itself, as Isa::sums would
//                                        (the values still in registers)
//   Isa::kScanLanes                      0, or the columns of a run scan
//                                        block (at most 32)
//   Isa::kRuns                           whether the Isa merges runs (with
//                                        true, kScanLanes > 0 and the three
//                                        below; with false every column is
//                                        counted on its own, the scalar's
//                                        reference order):
//   Isa::counted_runs(image, mask, x, base, size, events, cont)
//                                        for the kScanLanes columns from x:
//                                        bit i of events set where column
//                                        x + i has a histogram row, of cont
//                                        where it also has column x + i - 1's
//                                        (never for column 0)
//   Isa::moved_runs(old_image, old_mask, new_image, new_mask, x, base, size,
//                   out_events, out_cont, in_events, in_cont)
//                                        the same for the columns whose two
//                                        rows differ: of the old rows (out)
//                                        and of the new (in), cont where
//                                        column x + i - 1's rows differ too
//                                        and its old (new) row is the same
//   Isa::ramp_inc(row, n, t0, len, cap), Isa::ramp_dec(...)
//                                        row[i] += or -= min(t + 1, len - t,
//                                        cap) for i in [0, n), t = t0 + i
//                                        (every such t < len < 2^16; may
//                                        read and write back unchanged cells
//                                        up to kHistogramPadding past row + n)
//   Isa::kCompacts                       (optional) true where the Isa
//                                        scans and scores rows of compacts
//                                        (c_values_over_compacts; with
//                                        kRuns): each column's histogram row
//                                        as a 16-bit index, 0xffff for none,
//                                        made once per row by
//   Isa::compact_row(image, mask, w, base, size, out),
//                                        read by
//   Isa::counted_compacts(c, x, events, cont),
//   Isa::moved_compacts(old_c, new_c, x, out_events, out_cont, in_events,
//                       in_cont)         counted_runs' and moved_runs'
//                                        results from the rows' compacts,
//   Isa::row_compacts(c, w, s, hist, recip, out, sums)
//                                        c_values_row_compacts' values, its
//                                        row added to sums (as kRowSums)
// Integer counts are exact in any order, and the float c-values are the
// same source in every instance (-ffp-contract=off), so every instance
// returns the scalar's bits; the sums are integers (and a count), exact in
// any order.
//
// Everything sits in an anonymous namespace and every Isa type in its file's
// anonymous namespace: each instance has internal linkage, so the linker can
// never hand an AVX-512 instance to another caller. No standard-library
// template is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cambi/cambi_kernels.hpp"

namespace vmafpp::cambi {
namespace {

// The histograms: row (v - band_base) counts, for each column x, the masked
// pixels of value v in the columns [x - pad, x + pad] (clipped) of the
// picture rows currently in the window.
// A compact (Isa::kCompacts) that names no histogram row: outside the band
// or the mask (a band of at most 0xffff rows never holds it).
inline constexpr std::uint16_t kNoCompact = 0xffff;

template <class Isa>
struct Histograms {
    std::uint16_t* h;
    int w, pad, band_base, band_size;

    // The histogram row of a masked pixel in the band, else nullptr.
    std::uint16_t* row_of(std::uint16_t mask, std::uint16_t v) const {
        if (!mask) return nullptr;
        const unsigned compact = static_cast<std::uint16_t>(v - band_base);
        if (compact >= static_cast<unsigned>(band_size)) return nullptr;
        return h + static_cast<std::ptrdiff_t>(compact) * w;
    }
    int left(int x) const { return x - pad > 0 ? x - pad : 0; }
    int right(int x) const { return x + pad + 1 < w ? x + pad + 1 : w; }

    // Whether Isa's scans apply: they compare 16-bit compacts, which match
    // row_of's test for every band size up to 0xffff (a compact in the band
    // is then at most 0xfffe, so 0xffff can mark "none").
    bool scans() const { return Isa::kScanLanes > 0 && band_size >= 1 && band_size <= 0xffff; }

    // A run of columns [start, start + len) whose pixels share one
    // histogram row, updated at once: cell c gains |[c - pad, c + pad] ^
    // [start, start + len)|, the sum of the columns' ranges. With t = c -
    // (start - pad) that is min(t + 1, len + 2 pad - t, len, 2 pad + 1)
    // (the four pairs of ends of the two intervals) for the cells
    // [start - pad, start + len + pad), clipped to the row. Columns with
    // equal values are the rule in the masked (flat) areas, and updating
    // a run once replaces len overlapping updates, each of which would
    // load cells the previous one stored a lane further on (a store that
    // cannot forward to the load).
    struct Run {
        std::uint16_t* row = nullptr;
        int start = 0, len = 0;
    };
    // A run's update is made in pieces of at most kMaxRun columns, which
    // keeps t below 2^16.
    static constexpr int kMaxRun = 256;
    template <bool kUp>
    void flush_piece(std::uint16_t* row, int start, int len) const {
        const int l = left(start), n = right(start + len - 1) - l;
        if (len == 1) {
            if (kUp)
                Isa::inc(row + l, n);
            else
                Isa::dec(row + l, n);
            return;
        }
        const int t0 = l - (start - pad), span = len + 2 * pad;
        const int cap = len < 2 * pad + 1 ? len : 2 * pad + 1;
        if (kUp)
            Isa::ramp_inc(row + l, n, t0, span, cap);
        else
            Isa::ramp_dec(row + l, n, t0, span, cap);
    }
    template <bool kUp>
    void flush(Run& r) const {
        if (!r.row) return;
        int start = r.start, len = r.len;
        for (; len > kMaxRun; start += kMaxRun, len -= kMaxRun) flush_piece<kUp>(r.row, start, kMaxRun);
        flush_piece<kUp>(r.row, start, len);
        r.row = nullptr;
    }
    // Column x of histogram row `row` (or none) into run r, flushing r
    // when x does not extend it.
    template <bool kUp>
    void extend(Run& r, std::uint16_t* row, int x) const {
        if (!row) return;
        if (row == r.row && x == r.start + r.len) {
            ++r.len;
            return;
        }
        flush<kUp>(r);
        r = Run{row, x, 1};
    }
    // The runs of a block of kScanLanes columns from x: bit i of `events`
    // set where column x + i is updated, of `cont` where it is updated in
    // the same histogram row as column x + i - 1, which is updated too
    // (cont is within events; bit 0 refers to column x - 1). A run open in
    // r that ends at x - 1 goes on over the leading cont bits; each other
    // run starts at an event bit without cont and takes the cont bits that
    // follow. A run that reaches the block's end stays open in r.
    template <bool kUp, class RowAt>
    void block_runs(Run& r, int x, std::uint32_t events, std::uint32_t cont, RowAt row_at) const {
        constexpr int N = Isa::kScanLanes;
        const std::uint64_t c = cont;
        if (r.row) {
            const int lead = __builtin_ctzll(~c);  // bit N of ~c is set
            if (lead > 0 && r.start + r.len == x) {
                r.len += lead;
                if (lead == N) return;
            }
            flush<kUp>(r);
        }
        for (std::uint32_t starts = events & ~cont; starts; starts &= starts - 1) {
            const int i = __builtin_ctz(starts);
            const int len = 1 + __builtin_ctzll(~(c >> (i + 1)));
            r = Run{row_at(x + i), x + i, len};
            if (i + len < N) flush<kUp>(r);
        }
    }

    void add_column(const std::uint16_t* image, const std::uint16_t* mask, int x) const {
        if (std::uint16_t* r = row_of(mask[x], image[x])) Isa::inc(r + left(x), right(x) - left(x));
    }
    void remove_column(const std::uint16_t* image, const std::uint16_t* mask, int x) const {
        if (std::uint16_t* r = row_of(mask[x], image[x])) Isa::dec(r + left(x), right(x) - left(x));
    }
    void slide_column(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                      const std::uint16_t* new_image, const std::uint16_t* new_mask, int x) const {
        std::uint16_t* out = row_of(old_mask[x], old_image[x]);
        std::uint16_t* in = row_of(new_mask[x], new_image[x]);
        if (out == in) return;
        const int l = left(x), n = right(x) - l;
        if (out) Isa::dec(out + l, n);
        if (in) Isa::inc(in + l, n);
    }

    // Isa::kCompacts' rows: each column's histogram row as its compact,
    // row_of's uint16(v - band_base), or kNoRow. They are row_of's answers
    // where compacts_apply (a band in 16 bits: kNoRow is never in it).
    static constexpr std::uint16_t kNoRow = kNoCompact;
    bool compacts_apply() const { return scans() && band_base + band_size <= 0x10000; }
    std::uint16_t* row_of_compact(std::uint16_t c) const {
        return c == kNoRow ? nullptr : h + static_cast<std::ptrdiff_t>(c) * w;
    }
    // count_row and slide over rows of compacts (Isa::counted_compacts,
    // Isa::moved_compacts: the scans without the compacts' making).
    template <bool kUp>
    void count_compacts(const std::uint16_t* c) const {
        auto row_at = [&](int i) { return row_of_compact(c[i]); };
        Run r;
        int x = 0;
        for (; x + Isa::kScanLanes <= w; x += Isa::kScanLanes) {
            std::uint32_t events, cont;
            Isa::counted_compacts(c, x, events, cont);
            block_runs<kUp>(r, x, events, cont, row_at);
        }
        for (; x < w; ++x) extend<kUp>(r, row_at(x), x);
        flush<kUp>(r);
    }
    void slide_compacts(const std::uint16_t* old_c, const std::uint16_t* new_c) const {
        Run out, in;
        int x = 0;
        for (; x + Isa::kScanLanes <= w; x += Isa::kScanLanes) {
            std::uint32_t out_events, out_cont, in_events, in_cont;
            Isa::moved_compacts(old_c, new_c, x, out_events, out_cont, in_events, in_cont);
            block_runs<false>(out, x, out_events, out_cont, [&](int i) { return row_of_compact(old_c[i]); });
            block_runs<true>(in, x, in_events, in_cont, [&](int i) { return row_of_compact(new_c[i]); });
        }
        for (; x < w; ++x) {
            if (old_c[x] == new_c[x]) continue;
            extend<false>(out, row_of_compact(old_c[x]), x);
            extend<true>(in, row_of_compact(new_c[x]), x);
        }
        flush<false>(out);
        flush<true>(in);
    }

    // The counts are integers updated by +1 and -1 (mod 2^16), so the
    // columns may be visited in any order and any column whose update is
    // nothing may be skipped; the runs (kRuns) rely on it.
    // f(x) for every column of the row.
    template <class F>
    void every_column(F f) const {
        for (int x = 0; x < w; ++x) f(x);
    }
    template <bool kUp>
    void count_row(const std::uint16_t* image, const std::uint16_t* mask) const {
        if constexpr (Isa::kRuns) {
            Run r;
            int x = 0;
            if (scans())
                for (; x + Isa::kScanLanes <= w; x += Isa::kScanLanes) {
                    std::uint32_t events, cont;
                    Isa::counted_runs(image, mask, x, band_base, band_size, events, cont);
                    block_runs<kUp>(r, x, events, cont, [&](int i) { return row_of(mask[i], image[i]); });
                }
            for (; x < w; ++x) extend<kUp>(r, row_of(mask[x], image[x]), x);
            flush<kUp>(r);
        } else if (kUp) {
            every_column([&](int x) { add_column(image, mask, x); });
        } else {
            every_column([&](int x) { remove_column(image, mask, x); });
        }
    }
    void add_row(const std::uint16_t* image, const std::uint16_t* mask) const {
        count_row<true>(image, mask);
    }
    void remove_row(const std::uint16_t* image, const std::uint16_t* mask) const {
        count_row<false>(image, mask);
    }
    // remove_row(old) then add_row(new), skipping a column whose two pixels
    // cancel.
    void slide(const std::uint16_t* old_image, const std::uint16_t* old_mask,
               const std::uint16_t* new_image, const std::uint16_t* new_mask) const {
        if constexpr (Isa::kRuns) {
            // The leaving and the entering pixels make runs of their own.
            Run out, in;
            int x = 0;
            if (scans())
                for (; x + Isa::kScanLanes <= w; x += Isa::kScanLanes) {
                    std::uint32_t out_events, out_cont, in_events, in_cont;
                    Isa::moved_runs(old_image, old_mask, new_image, new_mask, x, band_base, band_size,
                                    out_events, out_cont, in_events, in_cont);
                    block_runs<false>(out, x, out_events, out_cont,
                                      [&](int i) { return row_of(old_mask[i], old_image[i]); });
                    block_runs<true>(in, x, in_events, in_cont,
                                     [&](int i) { return row_of(new_mask[i], new_image[i]); });
                }
            for (; x < w; ++x) {
                std::uint16_t* o = row_of(old_mask[x], old_image[x]);
                std::uint16_t* i = row_of(new_mask[x], new_image[x]);
                if (o == i) continue;
                extend<false>(out, o, x);
                extend<true>(in, i, x);
            }
            flush<false>(out);
            flush<true>(in);
        } else {
            every_column([&](int x) { slide_column(old_image, old_mask, new_image, new_mask, x); });
        }
    }
};

// c_value_sums_scalar's steps on row[i, n), into its running values (the
// scalar's whole row, the twins' last n % lanes values): each nonzero v
// counts; one outside [0.5, 65536) (NaN included) clears in_range, one
// inside adds v * 2^24, exact in double and an integer below 2^40.
inline void c_value_sums_steps(const float* row, int i, int n, std::int64_t& units,
                               std::int64_t& nonzero, bool& in_range) {
    for (; i < n; ++i) {
        const float v = row[i];
        if (v == 0.0f) continue;
        ++nonzero;
        if (!(v >= 0.5f) || !(v < 65536.0f))
            in_range = false;
        else
            units += static_cast<std::int64_t>(static_cast<double>(v) * 16777216.0);
    }
}

// libvmaf's c_value_pixel: v is the 10-bit value plus num_diffs.
inline float c_value_pixel(const std::uint16_t* hist, int w, int x, int v, const ContrastSetup& s,
                           const float* recip) {
    const int compact = v - (s.band_base + s.num_diffs);
    if (static_cast<unsigned>(compact) >= static_cast<unsigned>(s.band_size)) return 0.0f;
    const std::uint16_t p0 = hist[compact * w + x];
    float c = 0.0f;
    for (int d = 0; d < s.num_diffs; ++d) {
        if (v > s.tvi[d] || v + d + 1 <= s.vlt_luma) continue;
        const int up = compact + d + 1, down = compact - d - 1;
        const std::uint16_t p1 = hist[up * w + x];
        const std::uint16_t p2 = down >= 0 ? hist[down * w + x] : 0;
        const std::uint16_t p = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(s.weights[d] * p0 * p) * recip[p + p0];
        if (val > c) c = val;
    }
    return c;
}

// The c-values of pixels [x0, w) of a row.
inline void c_values_row(const std::uint16_t* image, const std::uint16_t* mask, int w,
                         const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                         float* out, int x0 = 0) {
    for (int x = x0; x < w; ++x)
        out[x] = mask[x] ? c_value_pixel(hist, w, x, image[x] + s.num_diffs, s, recip) : 0.0f;
}

// c_values_row over a row of compacts (kNoCompact: no c-value),
// from x0: c_value_pixel's compact is the row's where compacts_apply.
inline void c_values_row_compacts(const std::uint16_t* c, int w, const ContrastSetup& s,
                                  const std::uint16_t* hist, const float* recip, float* out, int x0) {
    for (int x = x0; x < w; ++x)
        out[x] = c[x] == kNoCompact ? 0.0f : c_value_pixel(hist, w, x, c[x] + s.band_base + s.num_diffs, s, recip);
}

// c_values_loop with Isa::kCompacts where compacts_apply: each row's
// compacts made once, as it enters (Isa::compact_row), into the ring of
// 2 pad + 2 rows past the histograms' padding (c_values_cells), and read
// from there by its entry, its c-values (Isa::row_compacts, which adds its
// row to the sums) and its exit, where the other path makes them from the
// image and mask at each of the three. Row r's slot is r % (2 pad + 2):
// rows y - pad - 1 (leaving) to y + pad (entering) are in use at row y.
// The slots written are cleared at the end (CValuesFn: a later, wider
// call counts there).
template <class Isa>
void c_values_over_compacts(const Histograms<Isa>& hist, const std::uint16_t* image,
                            const std::uint16_t* mask, std::ptrdiff_t stride, int h,
                            const ContrastSetup& s, float* c_values, CValueSums& sums) {
    const int w = hist.w, pad = hist.pad, ring = 2 * pad + 2;
    const float* recip = reciprocal_table();
    std::uint16_t* rows = hist.h + static_cast<std::ptrdiff_t>(hist.band_size) * w + kHistogramPadding;
    auto slot = [&](int y) { return rows + static_cast<std::ptrdiff_t>(y % ring) * w; };
    auto make = [&](int y) {
        Isa::compact_row(image + y * stride, mask + y * stride, w, hist.band_base, hist.band_size, slot(y));
        return slot(y);
    };
    for (int y = 0; y < pad; ++y) hist.template count_compacts<true>(make(y));
    for (int y = 0; y < h; ++y) {
        const int in = y + pad, out = y - pad - 1;
        if (in < h && out >= 0)
            hist.slide_compacts(slot(out), make(in));
        else if (in < h)
            hist.template count_compacts<true>(make(in));
        else if (out >= 0)
            hist.template count_compacts<false>(slot(out));
        Isa::row_compacts(slot(y), w, s, hist.h, recip, c_values + static_cast<std::ptrdiff_t>(y) * w, sums);
    }
    for (int y = h - pad - 1; y < h; ++y) hist.template count_compacts<false>(slot(y));
    std::memset(rows, 0, static_cast<std::size_t>(h < ring ? h : ring) * static_cast<std::size_t>(w) *
                             sizeof(std::uint16_t));
}

// libvmaf's calculate_c_values: rows [0, pad) enter first; then row y + pad
// enters the window when row y is scored, and row y - pad - 1 leaves. The
// histograms are 0 on entry (CValuesFn), and the rows still in the window
// after the last row, [h - pad - 1, h) (h > pad), leave at the end, which
// makes every count 0 again (integers mod 2^16, each row counted up once
// and down once).
template <class Isa>
void c_values_loop(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                   int w, int h, int window, const ContrastSetup& s, float* c_values,
                   std::uint16_t* histograms, CValueSums& sums) {
    sums = CValueSums{};
    const int pad = window >> 1;
    const float* recip = reciprocal_table();
    const Histograms<Isa> hist{histograms, w, pad, s.band_base, s.band_size};
    if constexpr (requires { requires Isa::kCompacts; }) {
        if (hist.compacts_apply()) {
            c_values_over_compacts(hist, image, mask, stride, h, s, c_values, sums);
            return;
        }
    }
    for (int y = 0; y < pad; ++y) hist.add_row(image + y * stride, mask + y * stride);
    for (int y = 0; y < h; ++y) {
        const int in = y + pad, out = y - pad - 1;
        if (in < h && out >= 0)
            hist.slide(image + out * stride, mask + out * stride, image + in * stride,
                       mask + in * stride);
        else if (in < h)
            hist.add_row(image + in * stride, mask + in * stride);
        else if (out >= 0)
            hist.remove_row(image + out * stride, mask + out * stride);
        float* row = c_values + static_cast<std::ptrdiff_t>(y) * w;
        if constexpr (requires { requires Isa::kRowSums; }) {
            Isa::row(image + y * stride, mask + y * stride, w, s, histograms, recip, row, sums);
        } else {
            Isa::row(image + y * stride, mask + y * stride, w, s, histograms, recip, row);
            Isa::sums(row, w, sums);
        }
    }
    for (int y = h - pad - 1; y < h; ++y) hist.remove_row(image + y * stride, mask + y * stride);
}

}  // namespace
}  // namespace vmafpp::cambi
