// Per-frame cost of the float extractors at 1920x1080 8-bit 4:2:0 on
// generated content (a smooth gradient with noise; the distorted picture adds
// more noise). Run with --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true and read the medians.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

class NullSink final : public FeatureSink {
public:
    void append(std::string_view, unsigned, double value) override {
        benchmark::DoNotOptimize(value);
    }
};

Picture generated(int w, int h, unsigned seed, int noise_bits) {
    Picture p(w, h, 8, PixelFormat::yuv420);
    unsigned s = seed;
    for (int k = 0; k < p.plane_count(); ++k) {
        Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y) {
            std::uint8_t* row = pl.row<std::uint8_t>(y);
            for (int x = 0; x < pl.width(); ++x) {
                s = s * 1664525u + 1013904223u;
                const int base = 16 + ((x / 3 + y / 2) % 200);
                const int v = base + static_cast<int>(s >> (32 - noise_bits));
                row[x] = static_cast<std::uint8_t>(v > 255 ? 255 : v);
            }
        }
    }
    return p;
}

struct Frames {
    Picture ref0 = generated(1920, 1080, 1, 4);
    Picture ref1 = generated(1920, 1080, 2, 4);
    Picture dis = generated(1920, 1080, 3, 5);
};

const Frames& frames() {
    static const Frames f;
    return f;
}

void run(benchmark::State& state, const char* name) {
    const Frames& f = frames();
    const FeatureInfo* info = find_feature(name);
    auto fx = info->create(OptionValues(info->options),
                           FrameGeometry{1920, 1080, 8, PixelFormat::yuv420});
    NullSink sink;
    unsigned frame = 0;
    for (auto _ : state) {
        // Temporal extractors need consecutive frames that differ.
        fx->extract(frame % 2 ? f.ref1 : f.ref0, f.dis, frame, sink);
        ++frame;
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_FloatAdm(benchmark::State& s) { run(s, "float_adm"); }
void BM_FloatVif(benchmark::State& s) { run(s, "float_vif"); }
void BM_FloatMotion(benchmark::State& s) { run(s, "float_motion"); }
void BM_FloatPsnr(benchmark::State& s) { run(s, "float_psnr"); }
void BM_FloatAnsnr(benchmark::State& s) { run(s, "float_ansnr"); }
void BM_FloatMoment(benchmark::State& s) { run(s, "float_moment"); }

BENCHMARK(BM_FloatAdm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloatVif)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloatMotion)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloatPsnr)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloatAnsnr)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FloatMoment)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vmafpp
