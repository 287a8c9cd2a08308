// VIF stages at 1920x1080 on generated content: each kernel over a whole
// picture (scale 0 unless named), and the whole extractor, for every kernel
// level this machine runs (".../scalar", ".../avx2"). Compare medians:
//   vmafpp_bench --benchmark_filter=Vif --benchmark_repetitions=5
//                --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include "bench_content.hpp"
#include "bench_levels.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using bench::kHeight;
using bench::kWidth;
using vif::kMaxHalf;

struct Frame8 {
    Picture ref = bench::generated_picture(8, 1, 8);
    Picture dis = bench::generated_picture(8, 2, 24);
};
const Frame8& frame8() {
    static const Frame8 f;
    return f;
}

struct Rows {
    explicit Rows(int w) : len(static_cast<std::size_t>(w) + 2 * kMaxHalf), data(8 * len, 0) {}
    std::uint32_t* row(int k) { return data.data() + k * len + kMaxHalf; }
    std::size_t len;
    std::vector<std::uint32_t> data;
};

// Mirrored row pointers of output row i for a `taps`-tap filter.
template <class T>
void rows_at(const Plane& p, int i, int taps, std::array<const T*, 17>& out) {
    const int half = taps / 2;
    for (int t = 0; t < taps; ++t) {
        int y = i - half + t;
        if (y < 0) y = -y;
        if (y >= p.height()) y = 2 * (p.height() - 1) - y;
        out[t] = p.row<T>(y);
    }
}

void BM_VifStatVertical8(benchmark::State& state, const vif::VifKernels* k) {
    const auto& f = frame8();
    Rows rows(kWidth);
    const vif::VifStatRow out{rows.row(0), rows.row(1), rows.row(2), rows.row(3), rows.row(4)};
    std::array<const std::uint8_t*, 17> r{}, d{};
    for (auto _ : state) {
        for (int i = 0; i < kHeight; ++i) {
            rows_at(f.ref.luma(), i, 17, r);
            rows_at(f.dis.luma(), i, 17, d);
            k->stat_vertical_u8(r.data(), d.data(), vif::kFilter0, 17, kWidth, out);
        }
        benchmark::DoNotOptimize(rows.data.data());
    }
}

// Horizontal pass, or the per-pixel log/gain statistics, over every row of
// the picture, from inputs computed once beforehand (so the branch mix of
// the accumulation is the picture's).
void BM_VifStatHorizontalAndAccumulate(benchmark::State& state, const vif::VifKernels* k,
                                       bool horizontal, bool accumulate) {
    const auto& f = frame8();
    Rows rows(kWidth);
    const vif::VifStatRow in{rows.row(0), rows.row(1), rows.row(2), rows.row(3), rows.row(4)};
    std::vector<std::int32_t> sigma(3 * kWidth);
    // Vertically filter every row once, keep them all.
    std::vector<std::uint32_t> all(static_cast<std::size_t>(kHeight) * 5 * rows.len);
    std::array<const std::uint8_t*, 17> r{}, d{};
    for (int i = 0; i < kHeight; ++i) {
        rows_at(f.ref.luma(), i, 17, r);
        rows_at(f.dis.luma(), i, 17, d);
        vif::vif_stat_vertical_u8(r.data(), d.data(), vif::kFilter0, 17, kWidth, in);
        for (int c = 0; c < 5; ++c) vif::vif_mirror_pad(rows.row(c), kWidth, 8);
        std::copy(rows.data.begin(), rows.data.begin() + 5 * rows.len,
                  all.begin() + static_cast<std::ptrdiff_t>(i) * 5 * rows.len);
    }
    const std::uint16_t* log2 = vif::vif_log2_table();
    // For the accumulate-only variant: every row's sigmas, computed once.
    std::vector<std::int32_t> all_sigma;
    if (!horizontal) {
        all_sigma.resize(static_cast<std::size_t>(kHeight) * 3 * kWidth);
        for (int i = 0; i < kHeight; ++i) {
            std::uint32_t* base = all.data() + static_cast<std::size_t>(i) * 5 * rows.len + kMaxHalf;
            const vif::VifStatRow row{base, base + rows.len, base + 2 * rows.len,
                                      base + 3 * rows.len, base + 4 * rows.len};
            std::int32_t* s = all_sigma.data() + static_cast<std::size_t>(i) * 3 * kWidth;
            vif::vif_stat_horizontal(row, vif::kFilter0, 17, kWidth, s, s + kWidth, s + 2 * kWidth);
        }
    }
    for (auto _ : state) {
        vif::VifSums sums;
        for (int i = 0; i < kHeight; ++i) {
            std::int32_t* s = sigma.data();
            if (horizontal) {
                std::uint32_t* base = all.data() + static_cast<std::size_t>(i) * 5 * rows.len + kMaxHalf;
                const vif::VifStatRow row{base, base + rows.len, base + 2 * rows.len,
                                          base + 3 * rows.len, base + 4 * rows.len};
                k->stat_horizontal(row, vif::kFilter0, 17, kWidth, s, s + kWidth, s + 2 * kWidth);
            } else {
                s = all_sigma.data() + static_cast<std::size_t>(i) * 3 * kWidth;
            }
            if (accumulate) k->accumulate(s, s + kWidth, s + 2 * kWidth, kWidth, log2, 100.0, &sums);
        }
        benchmark::DoNotOptimize(sums);
        benchmark::DoNotOptimize(sigma.data());
    }
}

// Scale 0 -> 1 reduction (vertical at even rows, horizontal at even columns).
void BM_VifSubsample0To1(benchmark::State& state, const vif::VifKernels* k) {
    const auto& f = frame8();
    Rows rows(kWidth);
    std::vector<std::uint16_t> out_ref(static_cast<std::size_t>(kWidth / 2) * (kHeight / 2));
    std::vector<std::uint16_t> out_dis(out_ref.size());
    std::array<const std::uint8_t*, 17> r{}, d{};
    for (auto _ : state) {
        for (int oi = 0; oi < kHeight / 2; ++oi) {
            rows_at(f.ref.luma(), 2 * oi, 9, r);
            rows_at(f.dis.luma(), 2 * oi, 9, d);
            k->subsample_vertical_u8(r.data(), d.data(), vif::kFilter1, 9, kWidth, 8,
                                     rows.row(0), rows.row(1));
            vif::vif_mirror_pad(rows.row(0), kWidth, 4);
            vif::vif_mirror_pad(rows.row(1), kWidth, 4);
            const std::size_t o = static_cast<std::size_t>(oi) * (kWidth / 2);
            k->subsample_horizontal(rows.row(0), rows.row(1), vif::kFilter1, 9, kWidth / 2,
                                    out_ref.data() + o, out_dis.data() + o);
        }
        benchmark::DoNotOptimize(out_ref.data());
    }
}

// The whole extractor, created at the level (the table is chosen at
// creation).
void BM_VifExtract(benchmark::State& state, Compute compute, int bpc) {
    const Picture ref = bench::generated_picture(bpc, 1, 8);
    const Picture dis = bench::generated_picture(bpc, 2, 24);
    const FeatureInfo* info = find_feature("vif");
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{kWidth, kHeight, bpc, PixelFormat::yuv420}, compute);
    struct NullSink final : FeatureSink {
        void append(std::string_view, unsigned, double v) override { benchmark::DoNotOptimize(v); }
    } sink;
    for (auto _ : state) fex->extract(ref, dis, 0, sink);
}
const int registered = [] {
    for (const auto& level : bench::kernel_levels(&vif::vif_kernels_for)) {
        const vif::VifKernels* k = level.kernels;
        const std::string n = "/" + level.name;
        benchmark::RegisterBenchmark(("BM_VifStatVertical8" + n).c_str(), BM_VifStatVertical8, k)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_VifStatHorizontal" + n).c_str(),
                                     BM_VifStatHorizontalAndAccumulate, k, true, false)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_VifAccumulate" + n).c_str(),
                                     BM_VifStatHorizontalAndAccumulate, k, false, true)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_VifSubsample0To1" + n).c_str(), BM_VifSubsample0To1, k)
            ->Unit(benchmark::kMillisecond);
        for (int bpc : {8, 10})
            benchmark::RegisterBenchmark(("BM_VifExtract" + n + "/" + std::to_string(bpc)).c_str(),
                                         BM_VifExtract, level.compute, bpc)
                ->Unit(benchmark::kMillisecond);
    }
    return 0;
}();
}  // namespace
}  // namespace vmafpp
