// The kernel contract of libvmaf's cambi (CAMBI banding detection,
// libvmaf/src/feature/cambi.c): the per-scale steps on 10-bit luma kept in
// one buffer and changed in place, as libvmaf does (a scale's picture is the
// top-left corner of the previous one's). Strides are in samples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::cambi {

// The side of the square window whose count of flat pixels decides the mask.
inline constexpr int kMaskFilterSize = 7;
inline constexpr int kScales = 5;
inline constexpr int kHistogramPadding = 64;

// libvmaf's reciprocal table (cambi.h): entry i is the float nearest to the
// 9-significant-digit decimal of 1/i, which is not 1.0f / i for 42 entries;
// entry 0 is 0. Its size bounds window_size^2 after the resolution scaling.
inline constexpr int kReciprocalCount = 4226;
const float* reciprocal_table();

// What the c-value of a pixel depends on besides the histograms (see
// c_values below); every luma value is 10-bit.
struct ContrastSetup {
    int num_diffs = 4;                  // 2^max_log_contrast
    const std::uint16_t* tvi = nullptr;  // [num_diffs]: highest value + num_diffs per diff
    const int* weights = nullptr;        // [num_diffs]: the contrast weights
    int vlt_luma = 0;                    // lowest visible luma (0: none)
    // The only values whose histogram rows are ever read: [band_base,
    // band_base + band_size), libvmaf's v_band; pixels outside are not counted.
    int band_base = 0;
    int band_size = 0;
};

// mask[y][x] = 1 where more than `threshold` pixels of the 7x7 window around
// (x, y), clipped to the picture, are "flat" (equal to their right and
// lower neighbours; the last column and row compare as equal), else 0.
// threshold is in [0, 0xffff] (mask_threshold's 16 bits).
using SpatialMaskFn = void (*)(const std::uint16_t* image, std::ptrdiff_t stride,
                               std::uint16_t* mask, int w, int h, int threshold,
                               std::uint32_t* scratch);
// The same mask decimated as DecimateFn would, for cambi's high-resolution
// speed-up (its first scale keeps only these): mask[y][x] = the spatial
// mask at (2x, 2y) for x < (w + 1) >> 1 and y < (h + 1) >> 1; what it
// leaves in the rest of the w x h mask is unspecified. Same arguments and
// scratch as SpatialMaskFn (the type below is shared).
// The scratch that SpatialMaskFn needs, in uint32_t, for width w.
inline std::size_t spatial_mask_scratch(int w) {
    return static_cast<std::size_t>(w) * (kMaskFilterSize + 2) + 2 * kMaskFilterSize;
}

// libvmaf's anti_dithering_filter in place: each sample of the w x h
// picture the mean of its 2x2 block, (a + b + c + d) >> 2, the last column
// (a + c) >> 1 with the sample below, the last row (a + b) >> 1 with the one
// to the right, the last sample kept (rows and columns ahead still unread).
void anti_dither(std::uint16_t* image, std::ptrdiff_t stride, int w, int h);

// The 10-bit picture of a scale from 8-bit luma of the same size (src rows
// src_stride bytes apart): image[y][x] = src[y][x] << 2, then, with
// dither, anti_dither. On samples 4a, 4b, 4c, 4d that is a + b + c + d
// inside, 2 (a + c) in the last column, 2 (a + b) in the last row and 4a in
// the corner (the shifts drop nothing), which the twins compute directly.
using LoadU8Fn = void (*)(const std::uint8_t* src, std::ptrdiff_t src_stride,
                          std::uint16_t* image, std::ptrdiff_t stride, int w, int h, bool dither);

// image[y][x] = image[2y][2x] for the w x h top-left corner, in place.
using DecimateFn = void (*)(std::uint16_t* image, std::ptrdiff_t stride, int w, int h);

// The 3x3 mode filter in place: the mode of three of each row (first and
// last column kept), then the mode of three of those down each column for
// rows 1..h-2 (first and last row kept); mode3 is the value two share, else
// the smallest. `buffer` holds 3 * w samples.
using FilterModeFn = void (*)(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                              std::uint16_t* buffer);

// What spatial_pooling needs to know of a scale's c-values, gathered while
// they are written (each row while it is in cache): how many are nonzero and
// their exact sum in units of 2^-24, while that sum is provably exact.
struct CValueSums {
    std::int64_t units = 0;    // sum of v * 2^24 over the nonzero v (while exact)
    std::int64_t nonzero = 0;  // how many v != 0 (NaN counts; -0 does not)
    bool exact = true;         // in_range and units < 2^53
    bool in_range = true;      // every nonzero v in [0.5, 65536)
};
inline constexpr std::int64_t kCValueUnitsLimit = std::int64_t{1} << 53;

// Adds a row of n < 2^22 c-values to `sums`: nonzero counts every v != 0;
// once a nonzero v is outside [0.5, 65536) (NaN included) in_range and
// exact are false; once units reach kCValueUnitsLimit exact is false; units
// stop changing when exact is. Each v in range
// is a multiple of 2^-24 below 2^16, so v * 2^24 is an integer below 2^40,
// and a row adds below 2^62: units (below 2^53 before) cannot overflow.
using CValueSumsFn = void (*)(const float* row, int n, CValueSums& sums);
void c_value_sums_scalar(const float* row, int n, CValueSums& sums);

// Folds a row's results (its units, its nonzero count, whether all its
// nonzero values were in range) into `sums` as c_value_sums does.
inline void fold_c_value_sums(CValueSums& sums, std::int64_t units, std::int64_t nonzero,
                              bool in_range) {
    sums.nonzero += nonzero;
    if (!in_range) sums.in_range = sums.exact = false;
    if (!sums.exact) return;
    if (sums.units + units >= kCValueUnitsLimit) {
        sums.exact = false;
        return;
    }
    sums.units += units;
}

// The c-value of every pixel whose mask is set (others 0): with the
// histogram H[v][x] of masked pixels of value v in the window x 2*pad+1 rows
// around it (pad = window >> 1, clipped to the picture) and p0 = H[v0],
// the largest over d of weight[d] * p0 * p / (p0 + p) in float, p the larger
// of H[v0 + d + 1] and H[v0 - d - 1], for each d whose tvi allows v0. w and
// h must exceed pad. `histograms` holds c_values_cells(w, window, band_size)
// cells: band_size * w counts, kHistogramPadding cells past them (a SIMD
// twin may read and write back unchanged cells past the last row), then a
// twin's scratch rows. Every cell but the padding is 0 on entry and is 0
// again on return (every row counted leaves the window; a twin clears the
// scratch rows it wrote), so a buffer zeroed once serves every call of any
// w and window with the same band, though a wider call's counts lie where
// a narrower one's scratch rows were: clearing w * band_size counts at each
// scale of each frame cost more than the last rows' removal.
// `sums` is reset, then given every row as c_value_sums adds it.
using CValuesFn = void (*)(const std::uint16_t* image, const std::uint16_t* mask,
                           std::ptrdiff_t stride, int w, int h, int window,
                           const ContrastSetup& setup, float* c_values,
                           std::uint16_t* histograms, CValueSums& sums);

// The cells CValuesFn's `histograms` holds for width w: the counts, their
// padding and a ring of 2 pad + 2 scratch rows (pad = window >> 1: the rows
// of the window, the one entering and the one leaving), where a twin keeps
// each row's histogram rows from its entry to its exit (cambi_c_values_loop.hpp).
inline std::size_t c_values_cells(int w, int window, int band_size) {
    return static_cast<std::size_t>(band_size) * static_cast<std::size_t>(w) + kHistogramPadding +
           static_cast<std::size_t>(2 * (window >> 1) + 2) * static_cast<std::size_t>(w);
}

// libvmaf's spatial_pooling: the mean of the k = clip(int(topk * w * h), 1,
// w * h) largest of the w x h c-values, summed in double in the order its
// quick_select leaves them. spatial_pooling returns the same bits faster
// when it can prove the order does not matter, else calls the reference
// (pooling_quick_select); both reorder `c`. `scratch` is resized as needed.
// The first form takes the sums c_values gathered (the same as
// c_value_sums_scalar of each row of w); it reads `c` only when more than k
// values are nonzero or the sums are not exact.
double spatial_pooling(float* c, double topk, int w, int h, const CValueSums& sums,
                       std::vector<float>& scratch);
double spatial_pooling(float* c, double topk, int w, int h, std::vector<float>& scratch);
double pooling_quick_select(float* c, double topk, int w, int h);

struct CambiKernels {
    SpatialMaskFn spatial_mask = nullptr;
    DecimateFn decimate = nullptr;
    FilterModeFn filter_mode = nullptr;
    CValuesFn c_values = nullptr;
    CValueSumsFn c_value_sums = nullptr;
    LoadU8Fn load_u8 = nullptr;
    SpatialMaskFn spatial_mask_half = nullptr;
};

const CambiKernels& cambi_kernels_scalar();
// Each level's twins (cambi_<isa>.cpp; NEON on AArch64), put into the table
// of the level below.
KernelInit<CambiKernels> cambi_init_avx2, cambi_init_avx512, cambi_init_neon;
extern KernelsFor<CambiKernels>& cambi_kernels_for;

}  // namespace vmafpp::cambi
