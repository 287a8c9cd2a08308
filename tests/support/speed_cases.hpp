// SpEED twins against the scalar picture preparation, for every backend's
// test (vulkan_speed_test.cpp, cuda_speed_test.cpp): the prepared picture
// (blurred, decimated by 16, minus its local mean) and the entropies and
// variances fitted on it must have the scalar's bits, on generated planes:
// banding-prone ramps, flat planes, noise, blocks at 0 and at the largest
// sample (8, 10 and 16 bits), speed_temporal's differences, the models'
// bilinear prescales, nearest, bicubic and lanczos4 (up and down, to the
// option's limits 0.1 and 4), a kernel scale of 2, sizes from the smallest
// (80x80, or 20x20 prescaled by 4) through odd ones to 2160p.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "speed/speed_gsm.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_twin.hpp"

namespace vmafpp::devtest {

// A backend's twin for `gsm` (difference: speed_temporal's a - b).
using SpeedMaker =
    std::function<std::unique_ptr<speed::SpeedTwin>(const speed::Gsm& gsm, bool difference)>;

enum class SpeedPattern { ramp, flat, noise, extremes, mixed };

struct SpeedPlane {
    int w = 0, h = 0, bpc = 8;
    std::vector<std::uint8_t> bytes;  // rows w * (1 or 2) bytes apart
    std::ptrdiff_t stride() const { return static_cast<std::ptrdiff_t>(w) * (bpc > 8 ? 2 : 1); }
    void set(int x, int y, unsigned v) {
        if (bpc == 8)
            bytes[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(v);
        else
            reinterpret_cast<std::uint16_t*>(bytes.data())[static_cast<std::size_t>(y) * w + x] =
                static_cast<std::uint16_t>(v);
    }
};

inline SpeedPlane make_speed_plane(int w, int h, int bpc, SpeedPattern p, unsigned seed) {
    SpeedPlane out{w, h, bpc, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h * (bpc > 8 ? 2 : 1))};
    const unsigned max = (1u << bpc) - 1u;
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            unsigned v = 0;
            // A ramp of a few steps across the plane: wide flat bands.
            const unsigned ramp = static_cast<unsigned>(
                (static_cast<std::uint64_t>(x + 2 * y) * (max / 64 + 1)) / static_cast<unsigned>(w + 2 * h)) * 64u;
            switch (p) {
                case SpeedPattern::ramp: v = ramp > max ? max : ramp; break;
                case SpeedPattern::flat: v = max / 2 + 1; break;
                case SpeedPattern::noise: v = rng() % (max + 1); break;
                case SpeedPattern::extremes: v = ((x / 7) + (y / 5)) % 2 ? max : 0; break;
                case SpeedPattern::mixed:
                    v = x < w / 2 ? (ramp > max ? max : ramp) : ((y / 3) % 2 ? max : rng() % (max + 1));
                    break;
            }
            out.set(x, y, v);
        }
    return out;
}

struct SpeedCase {
    int w, h, bpc;
    SpeedPattern a, b;
    bool difference;
    double prescale = 1.0;
    speed::ScaleMethod method = speed::ScaleMethod::bilinear;
    float kernelscale = 1.0f;
};

inline std::string describe(const SpeedCase& c) {
    return std::to_string(c.w) + "x" + std::to_string(c.h) + " " + std::to_string(c.bpc) + "-bit" +
           (c.difference ? " difference" : "") + " prescale " + std::to_string(c.prescale) +
           " method " + std::to_string(static_cast<int>(c.method)) + " ks " +
           std::to_string(c.kernelscale) + " patterns " + std::to_string(static_cast<int>(c.a)) +
           "/" + std::to_string(static_cast<int>(c.b));
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The first difference between the scalar's and the twin's analyse(), or "".
inline std::string compare_speed(const SpeedCase& c, const SpeedMaker& make) {
    speed::Params p;
    p.kernelscale = c.kernelscale;
    p.prescale = c.prescale;
    p.method = c.method;
    p.sigma_nn = 0.19f;
    const speed::Dimensions d = speed::dimensions(c.w, c.h, c.prescale);
    speed::Gsm cpu(d, p, speed::speed_kernels_scalar());
    speed::Gsm dev(d, p, speed::speed_kernels_scalar());
    auto twin = make(dev, c.difference);
    dev.prepare_with(twin.get());
    const SpeedPlane a = make_speed_plane(c.w, c.h, c.bpc, c.a, 11u + c.w);
    const SpeedPlane b = make_speed_plane(c.w, c.h, c.bpc, c.b, 29u + c.h);
    const speed::Gsm::Samples s{a.bytes.data(), a.stride(), c.difference ? b.bytes.data() : nullptr,
                                b.stride(), c.bpc};
    speed::BlockStats sc, sd;
    cpu.analyse(s, sc);
    dev.analyse(s, sd);
    for (int y = 0; y < d.op_h; ++y)
        for (int x = 0; x < d.op_w; ++x) {
            const float u = cpu.prepared().row(y)[x], v = dev.prepared().row(y)[x];
            if (!same_bits(u, v))
                return "prepared (" + std::to_string(x) + ", " + std::to_string(y) + "): device " +
                       std::to_string(v) + ", scalar " + std::to_string(u);
        }
    if (sc.singular != sd.singular) return "singular differs";
    for (std::size_t i = 0; i < sc.entropy.size(); ++i)
        if (!same_bits(sc.entropy[i], sd.entropy[i]) || !same_bits(sc.variance[i], sd.variance[i]))
            return "block " + std::to_string(i) + " entropy/variance differs";
    return "";
}




// Every depth and pattern, the smallest size, odd sizes, 1080p's chroma.
inline std::vector<SpeedCase> speed_plane_cases() {
    using P = SpeedPattern;
    std::vector<SpeedCase> cases;
    for (int bpc : {8, 10, 16})
        for (P pat : {P::ramp, P::flat, P::noise, P::extremes, P::mixed})
            cases.push_back({97, 163, bpc, pat, pat, false});
    cases.push_back({80, 80, 8, P::mixed, P::mixed, false});     // the smallest
    cases.push_back({95, 81, 12, P::noise, P::noise, false});   // op 5x5, odd
    cases.push_back({960, 540, 10, P::mixed, P::mixed, false});  // 1080p's chroma
    return cases;
}

inline std::vector<SpeedCase> speed_temporal_cases() {
    using P = SpeedPattern;
    return {
        {97, 163, 8, P::ramp, P::noise, true},
        {97, 163, 10, P::extremes, P::ramp, true},
        {161, 83, 16, P::extremes, P::noise, true},
        {97, 163, 10, P::flat, P::flat, true},  // a zero difference: singular
        {1920, 1080, 8, P::mixed, P::noise, true},
    };
}

inline std::vector<SpeedCase> speed_prescale_cases() {
    using P = SpeedPattern;
    using M = speed::ScaleMethod;
    return {
        {320, 270, 8, P::mixed, P::mixed, false, 0.5, M::bilinear},  // 3d0h_2160
        {301, 237, 10, P::mixed, P::noise, true, 0.6, M::bilinear},  // 5d0h
        {301, 237, 16, P::extremes, P::extremes, false, 0.6, M::nearest},
        {97, 90, 8, P::noise, P::ramp, true, 1.5, M::bilinear},      // an upscale
        {97, 90, 10, P::ramp, P::ramp, false, 1.25, M::nearest},
        {200, 180, 8, P::mixed, P::mixed, false, 1.0, M::bilinear, 2.0f},  // kernel scale 2
    };
}

// The bicubic and lanczos4 prescales (speed_scale.comp, kernel_sample):
// the smallest plane an accepted prescale takes (20x20 by 4, to 80x80),
// the option's smallest factor (0.1), odd sizes and factors, one dimension
// left at its size (1.002), 8-, 10-, 12- and 16-bit extremes, noise (whose
// lanczos4 sums cancel most), differences.
inline std::vector<SpeedCase> speed_kernel_prescale_cases() {
    using P = SpeedPattern;
    using M = speed::ScaleMethod;
    std::vector<SpeedCase> cases;
    for (M m : {M::bicubic, M::lanczos4}) {
        cases.push_back({20, 20, 8, P::extremes, P::extremes, false, 4.0, m});  // the smallest
        cases.push_back({21, 23, 16, P::extremes, P::noise, true, 4.0, m});
        cases.push_back({97, 90, 10, P::noise, P::ramp, true, 1.5, m});
        cases.push_back({81, 41, 12, P::noise, P::mixed, false, 2.0, m});
        cases.push_back({301, 237, 8, P::mixed, P::noise, false, 0.6, m});
        cases.push_back({301, 237, 16, P::extremes, P::mixed, true, 0.6, m});
        cases.push_back({100, 300, 10, P::mixed, P::noise, false, 1.002, m});  // 100 x 301
        cases.push_back({803, 801, 16, P::noise, P::extremes, m == M::bicubic, 0.1, m});
    }
    cases.push_back({320, 270, 10, P::flat, P::flat, false, 0.5, M::lanczos4});  // flat: singular
    return cases;
}

// The largest pictures the models score.
inline std::vector<SpeedCase> speed_ultra_hd_cases() {
    using P = SpeedPattern;
    using M = speed::ScaleMethod;
    return {
        {3840, 2160, 10, P::mixed, P::noise, true},
        {1920, 1080, 10, P::mixed, P::mixed, false, 0.5, M::bilinear},
        {1920, 1080, 16, P::noise, P::mixed, true, 0.5, M::lanczos4},
    };
}

}  // namespace vmafpp::devtest
