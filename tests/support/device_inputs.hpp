// Generated inputs of the device-twin harnesses (vulkan_kernels_test.cpp,
// cuda_kernels_test.cpp): noise and hostile pictures, the seeds' pictures
// (research-1402 and -1413) and hostile ADM bands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "vmafpp/picture.hpp"

namespace vmafpp::devtest {

// Pictures for the harness: uniform noise, or hostile patterns that push
// every accumulator to its bound (all maximum against all zero, one-sample
// checkerboards of the extremes, an impulse on a flat field).
enum class Pattern { noise, max_vs_zero, checker, impulse };

inline std::vector<std::uint16_t> make_plane(Pattern pat, int w, int h, int bpc, bool second,
                                             std::mt19937& rng) {
    const std::uint16_t top = static_cast<std::uint16_t>((1u << bpc) - 1);
    std::vector<std::uint16_t> p(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::uint16_t v = 0;
            switch (pat) {
                case Pattern::noise:
                    v = static_cast<std::uint16_t>(rng() & top);
                    break;
                case Pattern::max_vs_zero:
                    v = second ? 0 : top;
                    break;
                case Pattern::checker:
                    v = ((x + y + second) & 1) ? top : 0;
                    break;
                case Pattern::impulse:
                    v = (x == w / 2 && y == h / 3) != second ? top : top / 2;
                    break;
            }
            p[static_cast<std::size_t>(y) * w + x] = v;
        }
    return p;
}

// The plane as the kernels read it: bytes for 8-bit, else uint16.
struct Samples {
    std::vector<std::uint8_t> u8;
    std::vector<std::uint16_t> u16;
    const void* data() const {
        return u8.empty() ? static_cast<const void*>(u16.data()) : u8.data();
    }
};
inline Samples as_samples(const std::vector<std::uint16_t>& p, int bpc) {
    Samples s;
    if (bpc == 8)
        s.u8.assign(p.begin(), p.end());
    else
        s.u16 = p;
    return s;
}

inline constexpr Pattern kPatterns[] = {Pattern::noise, Pattern::max_vs_zero, Pattern::checker,
                                        Pattern::impulse};

// The seeds' pictures (research-1402 and -1413) as reference / distorted
// luma: a flat reference against 3x3 patches of the extremes, one-pixel
// vertical stripes against the same stripes shifted on every third row,
// salt-and-pepper impulses on a gradient, 6x10 blocks against a horizontal
// blur of them, and a picture whose contrast the distorted copy doubles
// (the angle test passes and the gain limit acts).
enum class Trap { flat_patches, stripes, impulses, blocks, contrast };

inline std::uint16_t trap_sample(Trap trap, int x, int y, int w, int top, bool dis,
                                 std::mt19937& rng) {
    const int mid = top / 2;
    switch (trap) {
        case Trap::flat_patches: {
            // 8x8 patches of one-sample lines every fourth row, column or
            // both: the h and v bands reach 64 * top * 0.84 * 1.41 (about
            // 19300 at 8 bits), whose scale-0 csf (x 36453 / 2^15) passes
            // 15360, where an int16 centre tap would wrap (research-1402).
            if (!dis) return static_cast<std::uint16_t>(mid);
            const int kind = (x / 8 + y / 8) % 4;
            const bool on = kind == 0   ? y % 4 == 1
                            : kind == 1 ? x % 4 == 1
                            : kind == 2 ? (x % 4 == 1 || y % 4 == 1)
                                        : false;
            return static_cast<std::uint16_t>(kind == 3 ? mid : (on ? top : 0));
        }
        case Trap::stripes: {
            const int shift = dis && y % 3 == 0 ? 1 : 0;
            return static_cast<std::uint16_t>(((x + shift) & 1) ? top : 0);
        }
        case Trap::impulses: {
            const int g = static_cast<int>(static_cast<long long>(top) * x / (w - 1));
            if (dis && rng() % 7 == 0) return static_cast<std::uint16_t>(rng() & 1 ? top : 0);
            return static_cast<std::uint16_t>(g);
        }
        case Trap::blocks: {
            auto block = [&](int xx) { return ((xx / 6 + y / 10) & 1) ? top : top / 8; };
            if (!dis) return static_cast<std::uint16_t>(block(x));
            const int l = block(x > 0 ? x - 1 : 0), c = block(x), r = block(x + 1 < w ? x + 1 : x);
            return static_cast<std::uint16_t>((l + 2 * c + r) / 4);
        }
        case Trap::contrast: {
            const int v = mid + static_cast<int>((rng() % 64) - 32) * (top / 255);
            if (!dis) return static_cast<std::uint16_t>(v);
            return static_cast<std::uint16_t>(std::clamp(mid + 2 * (v - mid), 0, top));
        }
    }
    return 0;
}

inline Picture trap_picture(Trap trap, int w, int h, int bpc, bool dis, std::mt19937& rng) {
    Picture p(w, h, bpc, PixelFormat::yuv400);
    const int top = (1 << bpc) - 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint16_t v = trap_sample(trap, x, y, w, top, dis, rng);
            if (bpc > 8)
                p.planes[0].row<std::uint16_t>(y)[x] = v;
            else
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
        }
    return p;
}

// Hostile bands for the ADM stages after the DWT (research-1402 and -1413):
// dense fills of either sign and non-negative ones over the band type's
// whole range, one full-range event among zeros, 3x4 blocks of the
// extremes, h = v = -32768 in the distorted bands (the angle test's int32
// wrap), and distorted = 2 x reference (the angle test passes, the gain
// limit acts) and = reference x 0.8.
enum class BandFill { dense, positive, event, blocks, min_hv, doubled, shrunk };

inline void fill_bands(BandFill fill, int scale, int bw, int bh, std::mt19937_64& rng,
                       std::vector<std::int32_t> (&ref)[3], std::vector<std::int32_t> (&dis)[3]) {
    const std::int64_t lo = scale == 0 ? -32768 : INT32_MIN, hi = scale == 0 ? 32767 : INT32_MAX;
    const std::size_t n = static_cast<std::size_t>(bw) * bh;
    auto any = [&](std::int64_t a, std::int64_t b) {
        return static_cast<std::int32_t>(
            a + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(b - a + 1)));
    };
    const std::int64_t typical = scale == 0 ? 4000 : (std::int64_t{1} << 24);
    for (int t = 0; t < 3; ++t) {
        ref[t].assign(n, 0);
        dis[t].assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            switch (fill) {
                case BandFill::dense:
                    ref[t][i] = any(lo, hi);
                    dis[t][i] = any(lo, hi);
                    break;
                case BandFill::positive:
                    ref[t][i] = any(0, hi);
                    dis[t][i] = any(0, hi);
                    break;
                case BandFill::event:
                    break;
                case BandFill::blocks:
                case BandFill::min_hv:
                    ref[t][i] = any(-typical, typical);
                    dis[t][i] = any(-typical, typical);
                    break;
                case BandFill::doubled:
                case BandFill::shrunk:
                    ref[t][i] = any(-typical, typical);
                    dis[t][i] = static_cast<std::int32_t>(std::clamp<std::int64_t>(
                        fill == BandFill::doubled ? 2 * std::int64_t{ref[t][i]} + any(-3, 3)
                                                  : ref[t][i] * 4 / 5,
                        lo, hi));
                    break;
            }
        }
    }
    const std::size_t at = rng() % n;
    switch (fill) {
        case BandFill::event:
            (rng() & 1 ? ref : dis)[rng() % 3][at] = static_cast<std::int32_t>(rng() & 1 ? lo : hi);
            break;
        case BandFill::blocks:
            for (int x0 = 0; x0 < bw; x0 += 5)
                for (int y = 0; y < std::min(bh, 4); ++y)
                    for (int x = x0; x < std::min(bw, x0 + 3); ++x)
                        dis[(x0 / 5) % 3][static_cast<std::size_t>(y) * bw + x] =
                            static_cast<std::int32_t>((x0 / 5) & 1 ? lo : hi);
            break;
        case BandFill::min_hv:
            for (std::size_t i = 0; i < n; i += 3)
                dis[0][i] = dis[1][i] = static_cast<std::int32_t>(lo);
            break;
        default:
            break;
    }
}

}  // namespace vmafpp::devtest
