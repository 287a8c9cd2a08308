// Motion at 1920x1080 on generated content: the row kernel (vertical
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
};
const Frames& frames() {
    static const Frames f;
    return f;
}

void rows_at(const Plane& p, int i, std::array<const std::uint8_t*, 5>& out) {
    for (int k = 0; k < 5; ++k) {
        int y = i - 2 + k;
        if (y < 0) y = -y;
        if (y >= p.height()) y = 2 * (p.height() - 1) - y;
        out[k] = p.row<std::uint8_t>(y);
    }
}

// The row kernel over every row of a frame: vertical and horizontal pass and
// absolute sum.
void BM_MotionSadRow8(benchmark::State& state, const motion::MotionKernels* k) {
    const auto& f = frames();
    std::vector<std::int32_t> scratch(motion::motion_scratch_size(kWidth));
    std::array<const std::uint8_t*, 5> a{}, b{};
    for (auto _ : state) {
        std::uint64_t sad = 0;
        for (int i = 0; i < kHeight; ++i) {
            rows_at(f.prev.luma(), i, a);
            rows_at(f.cur.luma(), i, b);
            sad += k->sad_row_u8(a.data(), b.data(), kWidth, scratch.data());
        }
        benchmark::DoNotOptimize(sad);
    }
}

// One frame of the extractor (frame >= 1, so the SAD is computed; includes
// keeping a copy of the reference luma for the next frame).
void BM_MotionExtract(benchmark::State& state, unsigned mask) {
    const auto& f = frames();
    const FeatureInfo* info = find_feature("motion");
    set_cpu_mask(mask);
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{kWidth, kHeight, 8, PixelFormat::yuv420});
    set_cpu_mask(0);
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
    for (const auto& level : bench::motion_levels()) {
        const std::string n = "/" + level.name;
        benchmark::RegisterBenchmark(("BM_MotionSadRow8" + n).c_str(), BM_MotionSadRow8,
                                     level.kernels)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_MotionExtract" + n).c_str(), BM_MotionExtract, level.mask)
            ->Unit(benchmark::kMillisecond);
    }
    return 0;
}();
}  // namespace
}  // namespace vmafpp
