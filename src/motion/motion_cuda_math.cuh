// Per-thread arithmetic of the CUDA twin of motion_sad_u8 / motion_sad_u16
// (motion_kernels_scalar.cpp), for nvcc and the host compiler alike
// (device/device_math.hpp). One call gives one output sample: the vertical
// pass of prev - cur at the five columns around it (mirrored), the
// horizontal pass and its absolute value. The kernel adds a row's values in
// uint32 (wrapping, associative: any order gives the scalar's row sum).
#pragma once

#include <cstdint>

#include "device/device_math.hpp"
#include "motion/motion_shared.h"

namespace vmafpp::motion::dev {

// Sample -k is k, sample n-1+k is n-1-k.
VMAFPP_HD int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// The vertical pass of prev - cur at column x of output row y: int32 sums
// and (acc + 128) >> 8 for 8-bit samples, int64 and >> bpc otherwise.
template <class T>
VMAFPP_HD std::int32_t vertical(const T* prev, const T* cur, int w, int h, int bpc, int x, int y) {
    if (sizeof(T) == 1) {
        std::int32_t acc = 0;
        for (int k = 0; k < 5; ++k) {
            const std::int64_t at = static_cast<std::int64_t>(mirror(y - 2 + k, h)) * w + x;
            acc +=
                motion_tap(k) * (static_cast<std::int32_t>(prev[at]) - static_cast<std::int32_t>(cur[at]));
        }
        return motion_vertical_round_u8(acc);
    }
    std::int64_t acc = 0;
    for (int k = 0; k < 5; ++k) {
        const std::int64_t at = static_cast<std::int64_t>(mirror(y - 2 + k, h)) * w + x;
        acc += std::int64_t{motion_tap(k)} *
               (static_cast<std::int64_t>(prev[at]) - static_cast<std::int64_t>(cur[at]));
    }
    return motion_vertical_round(acc, bpc);
}

// |horizontal pass| at (x, y), the value the scalar adds to row y's sum.
template <class T>
VMAFPP_HD std::uint32_t abs_filtered(const T* prev, const T* cur, int w, int h, int bpc, int x,
                                     int y) {
    std::int64_t acc = 0;
    for (int k = 0; k < 5; ++k)
        acc += std::int64_t{motion_tap(k)} * vertical(prev, cur, w, h, bpc, mirror(x - 2 + k, w), y);
    return motion_abs_filtered(acc);
}

}  // namespace vmafpp::motion::dev
