// Per-thread arithmetic of the CUDA twin of motion_sad_u8 / motion_sad_u16
// (motion_kernels_scalar.cpp), for nvcc and the host compiler alike
// (device/device_math.hpp). One call gives one output sample: the vertical
// pass of prev - cur at the five columns around it (mirrored), the
// horizontal pass and its absolute value. The kernel adds a row's values in
// uint32 (wrapping, associative: any order gives the scalar's row sum).
#pragma once

#include <cstdint>

#include "device/device_math.hpp"

namespace vmafpp::motion::dev {

// Sample -k is k, sample n-1+k is n-1-k.
VMAFPP_HD int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

VMAFPP_HD std::int32_t tap(int k) {
    return k == 0 || k == 4 ? 3571 : (k == 1 || k == 3 ? 16004 : 26386);
}

// The vertical pass of prev - cur at column x of output row y: int32 sums
// and (acc + 128) >> 8 for 8-bit samples, int64 and >> bpc otherwise.
template <class T>
VMAFPP_HD std::int32_t vertical(const T* prev, const T* cur, int w, int h, int bpc, int x, int y) {
    if (sizeof(T) == 1) {
        std::int32_t acc = 0;
        for (int k = 0; k < 5; ++k) {
            const std::int64_t at = static_cast<std::int64_t>(mirror(y - 2 + k, h)) * w + x;
            acc +=
                tap(k) * (static_cast<std::int32_t>(prev[at]) - static_cast<std::int32_t>(cur[at]));
        }
        return (acc + 128) >> 8;
    }
    std::int64_t acc = 0;
    for (int k = 0; k < 5; ++k) {
        const std::int64_t at = static_cast<std::int64_t>(mirror(y - 2 + k, h)) * w + x;
        acc += std::int64_t{tap(k)} *
               (static_cast<std::int64_t>(prev[at]) - static_cast<std::int64_t>(cur[at]));
    }
    return static_cast<std::int32_t>((acc + (std::int64_t{1} << (bpc - 1))) >> bpc);
}

// |horizontal pass| at (x, y), the value the scalar adds to row y's sum.
template <class T>
VMAFPP_HD std::uint32_t abs_filtered(const T* prev, const T* cur, int w, int h, int bpc, int x,
                                     int y) {
    std::int64_t acc = 0;
    for (int k = 0; k < 5; ++k)
        acc += std::int64_t{tap(k)} * vertical(prev, cur, w, h, bpc, mirror(x - 2 + k, w), y);
    const std::int32_t v = static_cast<std::int32_t>((acc + 32768) >> 16);
    return vmafpp::dev::magnitude(v);
}

}  // namespace vmafpp::motion::dev
