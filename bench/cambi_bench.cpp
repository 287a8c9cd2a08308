// CAMBI at 1920x1080 on generated content: the whole extractor (one frame,
// default options, and with full_ref) and its kernels one by one on the
// first scale's 10-bit picture, for every kernel level this machine runs
// (".../scalar", ".../avx2", ...). The kernel timings say where a frame's
// time goes; the pooling and the conversion to 10 bits are in the
// extractor's time only.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_content.hpp"
#include "bench_levels.hpp"
#include "cambi/cambi_kernels.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using bench::kHeight;
using bench::kWidth;

struct Frames {
    Picture ref = bench::generated_picture(8, 3, 8);
    Picture dis = bench::generated_picture(8, 4, 8);
};
const Frames& frames() {
    static const Frames f;
    return f;
}

struct NullSink final : FeatureSink {
    void append(std::string_view, unsigned, double v) override { benchmark::DoNotOptimize(v); }
};

void BM_CambiExtract(benchmark::State& state, Compute compute, bool full_ref) {
    const FeatureInfo* info = find_feature("cambi");
    OptionValues o(info->options);
    if (full_ref) o.set("full_ref", "true");
    auto fex = info->create(o, FrameGeometry{kWidth, kHeight, 8, PixelFormat::yuv420}, compute);
    NullSink sink;
    unsigned frame = 0;
    for (auto _ : state) fex->extract(frames().ref, frames().dis, frame++, sink);
}

// The 10-bit picture of the extractor's first scale (8-bit samples << 2),
// its mask and a contrast setup as the defaults give (tvi of 1886 at 0.019,
// approximated by the middle of the range: the loop's work does not depend
// on the exact thresholds).
struct Scale0 {
    std::ptrdiff_t stride = kWidth;
    std::vector<std::uint16_t> image, mask;
    std::vector<std::uint16_t> tvi{520, 620, 700, 760};
    int weights[4] = {1, 2, 3, 4};
    cambi::ContrastSetup setup;
    Scale0() {
        const Plane& l = frames().dis.luma();
        image.resize(static_cast<std::size_t>(kWidth) * kHeight);
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x)
                image[static_cast<std::size_t>(y) * kWidth + x] =
                    static_cast<std::uint16_t>(l.row<std::uint8_t>(y)[x] << 2);
        mask.resize(image.size());
        std::vector<std::uint32_t> scratch(cambi::spatial_mask_scratch(kWidth));
        cambi::cambi_kernels_scalar().spatial_mask(image.data(), stride, mask.data(), kWidth,
                                                   kHeight, 21, scratch.data());
        setup.num_diffs = 4;
        setup.tvi = tvi.data();
        setup.weights = weights;
        setup.band_base = 0;
        setup.band_size = tvi.back() + 1;
    }
};
const Scale0& scale0() {
    static const Scale0 s;
    return s;
}

void BM_CambiCValues(benchmark::State& state, const cambi::CambiKernels* k) {
    const Scale0& s = scale0();
    std::vector<float> c(s.image.size());
    std::vector<std::uint16_t> hist(cambi::c_values_cells(kWidth, 33, s.setup.band_size));
    for (auto _ : state) {
        // The 1080p window: 65 * (1920 + 1080) / 375 >> 4 | 1 = 33.
        cambi::CValueSums sums;
        k->c_values(s.image.data(), s.mask.data(), s.stride, kWidth, kHeight, 33, s.setup,
                    c.data(), hist.data(), sums);
        benchmark::DoNotOptimize(c.data());
    }
}

void BM_CambiFilterMode(benchmark::State& state, const cambi::CambiKernels* k) {
    std::vector<std::uint16_t> image = scale0().image;
    std::vector<std::uint16_t> buffer(static_cast<std::size_t>(3) * kWidth);
    for (auto _ : state) {
        k->filter_mode(image.data(), kWidth, kWidth, kHeight, buffer.data());
        benchmark::DoNotOptimize(image.data());
    }
}

void BM_CambiSpatialMask(benchmark::State& state, const cambi::CambiKernels* k) {
    const Scale0& s = scale0();
    std::vector<std::uint16_t> mask(s.image.size());
    std::vector<std::uint32_t> scratch(cambi::spatial_mask_scratch(kWidth));
    for (auto _ : state) {
        k->spatial_mask(s.image.data(), s.stride, mask.data(), kWidth, kHeight, 21,
                        scratch.data());
        benchmark::DoNotOptimize(mask.data());
    }
}

void BM_CambiPooling(benchmark::State& state) {
    const Scale0& s = scale0();
    std::vector<float> c(s.image.size()), work;
    std::vector<std::uint16_t> hist(cambi::c_values_cells(kWidth, 33, s.setup.band_size));
    cambi::CValueSums sums;
    cambi::cambi_kernels_scalar().c_values(s.image.data(), s.mask.data(), s.stride, kWidth,
                                           kHeight, 33, s.setup, c.data(), hist.data(), sums);
    std::vector<float> scratch;
    for (auto _ : state) {
        work = c;
        benchmark::DoNotOptimize(cambi::spatial_pooling(work.data(), 0.6, kWidth, kHeight, scratch));
    }
}

const int registered = [] {
    benchmark::RegisterBenchmark("BM_CambiPooling", BM_CambiPooling)->Unit(benchmark::kMillisecond);
    for (const auto& level : bench::kernel_levels(&cambi::cambi_kernels_for)) {
        const std::string n = "/" + level.name;
        benchmark::RegisterBenchmark(("BM_CambiCValues" + n).c_str(), BM_CambiCValues,
                                     level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_CambiFilterMode" + n).c_str(), BM_CambiFilterMode,
                                     level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_CambiSpatialMask" + n).c_str(), BM_CambiSpatialMask,
                                     level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_CambiExtract" + n).c_str(), BM_CambiExtract,
                                     level.compute, false)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_CambiExtractFullRef" + n).c_str(), BM_CambiExtract,
                                     level.compute, true)
            ->Unit(benchmark::kMillisecond);
    }
    return 0;
}();

}  // namespace
}  // namespace vmafpp
