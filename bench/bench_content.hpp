// Generated 1920x1080 test content shared by the feature benchmarks: a smooth
// pattern with noise as the reference, a noisier copy as the distorted
// picture (deterministic: fixed seeds).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "vmafpp/picture.hpp"

namespace vmafpp::bench {

inline constexpr int kWidth = 1920;
inline constexpr int kHeight = 1080;

inline Picture generated_picture(int bpc, std::uint32_t seed, int noise) {
    Picture p(kWidth, kHeight, bpc, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> n(-noise, noise);
    const int top = (1 << bpc) - 1;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const int base = ((x * 3 + y * 5) % 256 + (x / 37 + y / 23) % 64) << (bpc - 8);
            const int v = std::clamp(base + (n(rng) << (bpc - 8)), 0, top);
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

}  // namespace vmafpp::bench
