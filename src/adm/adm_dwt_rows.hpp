// The DWT's row loop, written once: the scalar kernels (adm_scalar.cpp) and
// the SIMD twins (adm_avx2.cpp, adm_avx512.cpp) run every DWT level through
// dwt_rows(), which picks each band row's four source rows and output rows;
// the kernels supply only the vertical and horizontal passes of one row.
// Scale 0's SIMD twins also share its scratch layout (dwt_s0_rows).
//
// Each ISA file is compiled with its own -m flags, and an inline function or
// template instance with external linkage could be merged across them (the
// linker keeps one copy, perhaps the AVX-512 one, for every caller). So
// everything here sits in an anonymous namespace: every file that includes
// the header gets its own copy, compiled with that file's flags, and the
// passes it instantiates the loops with are its own lambdas besides. No
// standard-library template is used.
#pragma once

#include <cstddef>
#include <cstdint>

#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {
namespace {

// A row of n values stored from index 1 of `row` gets the reflected values
// the horizontal pass reads: index -1 (value 1), n (n - 1) and n + 1 (n - 2).
template <class T>
inline void pad_row(T* row, int n) {
    row[0] = row[2];
    row[1 + n] = row[n];
    row[2 + n] = row[n - 1];
}

// Band rows [y0, y1) of one DWT level of the w x h source (the bands' row i
// written at row i - y0): for each, vertical(rows, i, high) with the four
// source rows 2i - 1 .. 2i + 2, reflected at the edges (reflect_index),
// computes the low-pass row, and the high-pass one when `high`, into the
// kernel's scratch; then horizontal(a, bh, bv, bd) writes the output row
// (bh = bv = bd = nullptr where band_hvd is: an approximation-only row).
template <class T, class B, class Vertical, class Horizontal>
inline void dwt_rows(const T* src, std::ptrdiff_t src_stride, int h, int y0, int y1, B* band_a,
                     B* const band_hvd[3], std::ptrdiff_t band_stride, Vertical vertical,
                     Horizontal horizontal) {
    for (int i = y0; i < y1; ++i) {
        const T* rows[4];
        for (int k = 0; k < 4; ++k) rows[k] = src + reflect_index(2 * i - 1 + k, h) * src_stride;
        vertical(rows, i, band_hvd != nullptr);
        const std::ptrdiff_t at = (i - y0) * band_stride;
        if (band_hvd)
            horizontal(band_a + at, band_hvd[0] + at, band_hvd[1] + at, band_hvd[2] + at);
        else
            horizontal(band_a + at, nullptr, nullptr, nullptr);
    }
}

// Scale 0 of the SIMD twins: the int16 vertical-pass rows lo and hi, w + 3
// values each with value k at [1 + k], in `scratch`. vertical(rows, i, lo,
// hi) writes lo (and hi unless it is null, for an approximation-only row)
// from index 0; dwt_s0_rows pads them, and horizontal(lo, hi, out_w, a, bh,
// bv, bd) reads the padded rows (hi null with bh, bv, bd).
template <class T, class Vertical, class Horizontal>
inline void dwt_s0_rows(const T* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
                        std::int16_t* scratch, std::int16_t* band_a,
                        std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride,
                        Vertical vertical, Horizontal horizontal) {
    const int out_w = (w + 1) / 2;
    std::int16_t* lo = scratch;
    std::int16_t* hi = lo + (w + 3);
    dwt_rows(
        src, src_stride, h, y0, y1, band_a, band_hvd, band_stride,
        [&](const T* const rows[4], int i, bool high) {
            vertical(rows, i, lo + 1, high ? hi + 1 : nullptr);
            pad_row(lo, w);
            if (high) pad_row(hi, w);
        },
        [&](std::int16_t* a, std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
            horizontal(lo, bh ? hi : nullptr, out_w, a, bh, bv, bd);
        });
}

}  // namespace
}  // namespace vmafpp::adm
