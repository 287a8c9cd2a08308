// Motion at 1920x1080 on generated content: the frame kernel (vertical
// difference filter, horizontal filter, absolute sum) and the whole extractor,
// for every kernel level this machine runs (".../scalar", ".../avx2").
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include "bench_content.hpp"
#include "bench_levels.hpp"
#include "motion/motion_kernels.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using bench::kHeight;
using bench::kWidth;

struct Frames {
    Picture prev = bench::generated_picture(8, 3, 8);
    Picture cur = bench::generated_picture(8, 4, 8);
    Picture prev10 = bench::generated_picture(10, 3, 8);
    Picture cur10 = bench::generated_picture(10, 4, 8);
};
const Frames& frames() {
    static const Frames f;
    return f;
}

// The frame kernel: vertical and horizontal pass, absolute sum, and the
// copy of the current frame the extractor keeps.
void BM_MotionSad8(benchmark::State& state, const motion::MotionKernels* k) {
    const auto& f = frames();
    std::vector<std::int32_t> scratch(motion::motion_scratch_size(kWidth));
    std::vector<std::uint8_t> keep(static_cast<std::size_t>(kWidth) * kHeight);
    const Plane& p = f.prev.luma();
    const Plane& c = f.cur.luma();
    for (auto _ : state) {
        const std::uint64_t sad =
            k->sad_u8(p.row<std::uint8_t>(0), p.stride(), c.row<std::uint8_t>(0), c.stride(),
                      kWidth, kHeight, keep.data(), scratch.data());
        benchmark::DoNotOptimize(sad);
    }
}

// The same at 10 bits.
void BM_MotionSad10(benchmark::State& state, const motion::MotionKernels* k) {
    const auto& f = frames();
    std::vector<std::int32_t> scratch(motion::motion_scratch_size(kWidth));
    std::vector<std::uint16_t> keep(static_cast<std::size_t>(kWidth) * kHeight);
    const Plane& p = f.prev10.luma();
    const Plane& c = f.cur10.luma();
    for (auto _ : state) {
        const std::uint64_t sad =
            k->sad_u16(p.row<std::uint16_t>(0), p.stride() / 2, c.row<std::uint16_t>(0),
                       c.stride() / 2, kWidth, kHeight, 10, keep.data(), scratch.data());
        benchmark::DoNotOptimize(sad);
    }
}

// One frame of the extractor (frame >= 1, so the SAD is computed; includes
// keeping a copy of the reference luma for the next frame).
void BM_MotionExtract(benchmark::State& state, Compute compute) {
    const auto& f = frames();
    const FeatureInfo* info = find_feature("motion");
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{kWidth, kHeight, 8, PixelFormat::yuv420}, compute);
    struct NullSink final : FeatureSink {
        void append(std::string_view, unsigned, double v) override { benchmark::DoNotOptimize(v); }
    } sink;
    unsigned frame = 0;
    for (auto _ : state) {
        fex->extract((frame & 1) ? f.cur : f.prev, f.cur, frame, sink);
        ++frame;
    }
}
const int registered = [] {
    for (const auto& level : bench::kernel_levels(&motion::motion_kernels_for)) {
        const std::string n = "/" + level.name;
        benchmark::RegisterBenchmark(("BM_MotionSad8" + n).c_str(), BM_MotionSad8, level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_MotionSad10" + n).c_str(), BM_MotionSad10, level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_MotionExtract" + n).c_str(), BM_MotionExtract, level.compute)
            ->Unit(benchmark::kMillisecond);
    }
    return 0;
}();
}  // namespace
}  // namespace vmafpp
