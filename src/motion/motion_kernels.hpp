// Integer motion (libvmaf 3.2.0 "motion"): the frame kernels, declared once
// so that SIMD twins can be swapped in through MotionKernels. A twin must give
// the same integers as the scalar kernel.
//
// The motion of frame n is the mean absolute value of the low-passed
// difference between reference frames n-1 (or n-2) and n. The difference is
// filtered (separable 5-tap, Q16), not the two frames separately, so the
// rounding happens once per pass on the difference.
//
// Conventions: widths and strides in samples; "rows" are arrays of kTaps row
// pointers already mirrored at the top and bottom edge (row -k is row k, row
// h-1+k is row h-1-k); a "padded" row has kRadius mirrored samples before
// index 0 and after index w-1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::motion {

inline constexpr int kTaps = 5;
inline constexpr int kRadius = kTaps / 2;
// Q16 taps, summing to 65536.
inline constexpr std::uint16_t kFilter[kTaps] = {3571, 16004, 26386, 16004, 3571};

// The SAD of a frame pair: for every output row, the vertical pass on
// prev - cur (rows mirrored at the top and bottom edge), the horizontal pass
// and the sum of absolute values in uint32 (wrapping, like libvmaf's per-row
// sum; a row whose vertical pass is zero adds 0), summed in uint64.
// Strides in samples. Unless `keep` is null, cur is also copied there, rows
// w samples apart (the extractor keeps it for the next frame; the copy
// rides on the reads of cur, it may not overlap prev or cur). `scratch`
// holds motion_scratch_size(w) int32 whose contents do not matter (the
// scalar keeps the padded vertical row there; a twin may keep anything).
// Needs w > kRadius and h > kRadius.
std::uint64_t motion_sad_u8(const std::uint8_t* prev, std::ptrdiff_t prev_stride,
                            const std::uint8_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                            std::uint8_t* keep, std::int32_t* scratch);
std::uint64_t motion_sad_u16(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                             const std::uint16_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                             int bpc, std::uint16_t* keep, std::int32_t* scratch);
// Room for the padded int32 row, or for an int16 row with padding and slack
// and five int16 rows, w rounded up to 32 samples, 64-byte aligned, and one
// more padded int16 row (motion_frame_loop.hpp's Scratch).
constexpr int motion_scratch_size(int w) { return 4 * ((w + 31) / 32 * 32) + 160; }

// Row k of the kTaps input rows of output row i, mirrored at the edges
// (row -k is row k, row h-1+k is row h-1-k).
constexpr int motion_tap_row(int i, int k, int h) {
    const int y = i - kRadius + k;
    return y < 0 ? -y : y >= h ? 2 * (h - 1) - y : y;
}

// The two passes of motion_sad_*, scalar (the twins have their own).
//
// Vertical pass on prev - cur for one output row:
// out[j] = (sum_k c_k * (prev_k[j] - cur_k[j]) + 2^(s-1)) >> s with s = 8 for
// 8-bit samples and s = bpc otherwise (arithmetic shift: floor). Returns the
// bitwise OR of the outputs, zero when the whole row is zero.
std::int32_t motion_diff_vertical_u8(const std::uint8_t* const* prev_rows,
                                     const std::uint8_t* const* cur_rows, int w, std::int32_t* out);
std::int32_t motion_diff_vertical_u16(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, int w, int bpc,
                                      std::int32_t* out);

// Horizontal pass on a padded row and sum of absolute values:
// sum_j |(sum_k c_k * row[j - 2 + k] + 2^15) >> 16|, accumulated in uint32
// (wrapping, like libvmaf's per-row sum).
std::uint32_t motion_abs_sum_horizontal(const std::int32_t* row, int w);

// Mirrors kRadius samples at both ends of a row (needs w > kRadius).
void motion_mirror_pad(std::int32_t* row, int w);

struct MotionKernels {
    decltype(&motion_sad_u8) sad_u8;
    decltype(&motion_sad_u16) sad_u16;
};
const MotionKernels& motion_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): motion_avx2.cpp,
// motion_avx512.cpp and motion_neon.cpp replace both kernels; the ICL level
// adds none.
KernelInit<MotionKernels> motion_init_avx2, motion_init_avx512, motion_init_neon;
// The table of `level` (a session's Compute::simd when extractors are
// created); call its kernels only where cpu_flags() allows that level.
extern KernelsFor<MotionKernels>& motion_kernels_for;

}  // namespace vmafpp::motion
