// Scalar motion kernels: the reference every SIMD twin must equal.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "motion/motion_kernels.hpp"
#include "motion/motion_shared.h"

namespace vmafpp::motion {

namespace {

// The vertical pass of prev - cur over a row at either depth, in libvmaf's
// accumulator `Acc` (int32 for 8-bit samples: |sum| <= 65536 * 255; int64
// deeper: up to 65536 * 65535 in magnitude), rounded by `round`
// (motion_shared.h). Returns the OR of the outputs (0: the row adds 0).
template <class Acc, class T, class Round>
std::int32_t diff_vertical(const T* const* prev_rows, const T* const* cur_rows, int w,
                           std::int32_t* out, Round round) {
    std::int32_t any = 0;
    for (int j = 0; j < w; ++j) {
        Acc acc = 0;
        for (int k = 0; k < kTaps; ++k) {
            const std::int32_t diff = std::int32_t{prev_rows[k][j]} - std::int32_t{cur_rows[k][j]};
            acc += Acc{kFilter[k]} * diff;
        }
        out[j] = round(acc);
        any |= out[j];
    }
    return any;
}

}  // namespace

std::int32_t motion_diff_vertical_u8(const std::uint8_t* const* prev_rows,
                                     const std::uint8_t* const* cur_rows, int w,
                                     std::int32_t* out) {
    // >> of a negative int32 is an arithmetic shift (C++20): floor, as
    // libvmaf's compilers do.
    return diff_vertical<std::int32_t>(prev_rows, cur_rows, w, out,
                                       [](std::int32_t acc) { return motion_vertical_round_u8(acc); });
}

std::int32_t motion_diff_vertical_u16(const std::uint16_t* const* prev_rows,
                                      const std::uint16_t* const* cur_rows, int w, int bpc,
                                      std::int32_t* out) {
    return diff_vertical<std::int64_t>(
        prev_rows, cur_rows, w, out, [bpc](std::int64_t acc) { return motion_vertical_round(acc, bpc); });
}

std::uint32_t motion_abs_sum_horizontal(const std::int32_t* row, int w) {
    std::uint32_t sum = 0;
    for (int j = 0; j < w; ++j) {
        const std::int32_t* r = row + j - kRadius;
        // |row| < 2^16 and the taps sum to 65536: the sum needs 33 bits.
        std::int64_t acc = 0;
        for (int k = 0; k < kTaps; ++k) acc += std::int64_t{kFilter[k]} * r[k];
        sum += motion_abs_filtered(acc);
    }
    return sum;
}

void motion_mirror_pad(std::int32_t* row, int w) {
    for (int f = 1; f <= kRadius; ++f) {
        row[-f] = row[f];
        row[w - 1 + f] = row[w - 1 - f];
    }
}

namespace {

template <class T, class VerticalPass>
std::uint64_t sad_frame(const T* prev, std::ptrdiff_t prev_stride, const T* cur,
                        std::ptrdiff_t cur_stride, int w, int h, T* keep, std::int32_t* scratch,
                        VerticalPass vertical) {
    std::int32_t* row = scratch + kRadius;
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        if (keep) std::memcpy(keep + std::ptrdiff_t{i} * w, cur + i * cur_stride, w * sizeof(T));
        const T* prev_rows[kTaps];
        const T* cur_rows[kTaps];
        for (int k = 0; k < kTaps; ++k) {
            const int y = motion_tap_row(i, k, h);
            prev_rows[k] = prev + y * prev_stride;
            cur_rows[k] = cur + y * cur_stride;
        }
        // A zero row adds zero; libvmaf skips it too.
        if (!vertical(prev_rows, cur_rows, row)) continue;
        motion_mirror_pad(row, w);
        sad += motion_abs_sum_horizontal(row, w);
    }
    return sad;
}

}  // namespace

std::uint64_t motion_sad_u8(const std::uint8_t* prev, std::ptrdiff_t prev_stride,
                            const std::uint8_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                            std::uint8_t* keep, std::int32_t* scratch) {
    return sad_frame(prev, prev_stride, cur, cur_stride, w, h, keep, scratch,
                     [w](const std::uint8_t* const* p, const std::uint8_t* const* c,
                         std::int32_t* row) { return motion_diff_vertical_u8(p, c, w, row); });
}

std::uint64_t motion_sad_u16(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                             const std::uint16_t* cur, std::ptrdiff_t cur_stride, int w, int h,
                             int bpc, std::uint16_t* keep, std::int32_t* scratch) {
    return sad_frame(
        prev, prev_stride, cur, cur_stride, w, h, keep, scratch,
        [w, bpc](const std::uint16_t* const* p, const std::uint16_t* const* c, std::int32_t* row) {
            return motion_diff_vertical_u16(p, c, w, bpc, row);
        });
}

const MotionKernels& motion_kernels_scalar() {
    static constexpr MotionKernels kScalar{motion_sad_u8, motion_sad_u16};
    return kScalar;
}

}  // namespace vmafpp::motion
