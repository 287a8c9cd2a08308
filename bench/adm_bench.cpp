// Integer ADM stages at 1920x1080 8-bit on generated content (a smooth
// pattern plus noise, distorted by more noise and a blur), one benchmark per
// stage of scale 0 (where most of the time goes), the scale-1 stages, and a
// whole frame through AdmEngine; each for the scalar set (/0), the AVX2 set
// (/1) and the AVX-512 set (/2), skipped where the CPU or build lacks them.
//
//   build/bench/vmafpp_bench --benchmark_filter=Adm --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_options.hpp"
#include "bench_levels.hpp"
#include "vmafpp/cpu.hpp"

namespace {

using namespace vmafpp;
using namespace vmafpp::adm;

constexpr int kW = 1920, kH = 1080;

// The kernel table of a benchmark's argument, an index into kSimdLevels
// (0 = scalar, 1 = AVX2, 2 = AVX-512), or nullptr (benchmark skipped).
const AdmKernels* kernels_for(benchmark::State& state) {
    const SimdLevel level = kSimdLevels[static_cast<std::size_t>(state.range(0))];
    if (bench::runs_here(level)) return &adm_kernels_for(level);
    state.SkipWithError("kernels of this level not available here");
    return nullptr;
}

Picture make_picture(unsigned seed, int noise, bool blur) {
    Picture p(kW, kH, 8, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    std::vector<int> row(kW);
    for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
            const double v = 128 + 50 * std::sin(x * 0.031 + y * 0.017) +
                             30 * std::cos(x * 0.11) * std::sin(y * 0.07);
            row[x] = static_cast<int>(v) + static_cast<int>(rng() % (2 * noise + 1)) - noise;
        }
        auto* out = p.planes[0].row<std::uint8_t>(y);
        for (int x = 0; x < kW; ++x) {
            int v = row[x];
            if (blur && x > 0 && x + 1 < kW) v = (row[x - 1] + 2 * row[x] + row[x + 1]) / 4;
            out[x] = static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
        }
    }
    return p;
}

// Scale-0 buffers filled by running the stages once, so each benchmark sees
// the data its stage sees in a real frame.
struct Scale0 {
    static constexpr int bw = kW / 2, bh = kH / 2;
    static constexpr std::ptrdiff_t stride = (bw + 15) / 16 * 16;
    Picture ref = make_picture(1, 6, false);
    Picture dis = make_picture(2, 14, true);
    std::vector<std::int16_t> scratch = std::vector<std::int16_t>(4 * (kW + 3));
    std::vector<std::int16_t> approx = std::vector<std::int16_t>(2 * stride * bh);
    std::vector<std::int16_t> bands = std::vector<std::int16_t>(18 * stride * bh);
    std::int16_t* ref_b[3];
    std::int16_t* dis_b[3];
    std::int16_t* r[3];
    std::int16_t* a[3];
    std::int16_t* c[3];
    std::int16_t* f[3];
    std::vector<std::int32_t> thr = std::vector<std::int32_t>(bw);
    Rect region{95, 53, bw - 95, bh - 53};  // (int)(960 * 0.1 - 0.5), (int)(540 * 0.1 - 0.5)
    Rect halo{94, 52, bw - 94, bh - 52};
    const std::uint16_t rf[3] = {36453, 36453, 49417};
    const int csf_shift[3] = {15, 15, 17};
    const std::int32_t csf_round[3] = {16384, 16384, 65535};
    const CubeShifts shifts[3] = {{10, 29, 6}, {10, 29, 6}, {12, 30, 7}};

    Scale0() {
        std::int16_t* p = bands.data();
        for (auto* set : {ref_b, dis_b, r, a, c, f})
            for (int t = 0; t < 3; ++t, p += stride * bh) set[t] = p;
        dwt(ref, approx.data(), ref_b);
        dwt(dis, approx.data() + stride * bh, dis_b);
        decouple_s0(ref_b, dis_b, stride, halo, 100.0, r, a);
        csf();
    }
    void dwt(const Picture& pic, std::int16_t* out_a, std::int16_t* const out[3]) {
        dwt_s0_u8(pic.luma().row<std::uint8_t>(0), pic.luma().stride(), kW, kH, 0, bh,
                  scratch.data(), out_a, out, stride);
    }
    void csf() {
        for (int t = 0; t < 3; ++t)
            csf_s0(a[t], stride, halo, rf[t], csf_shift[t], csf_round[t], c[t], f[t]);
    }
};

Scale0& scale0() {
    static Scale0 s;
    return s;
}

void BM_AdmDwtS0(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        k->dwt_s0_u8(s.dis.luma().row<std::uint8_t>(0), s.dis.luma().stride(), kW, kH, 0, s.bh,
                     s.scratch.data(),
                     s.approx.data() + s.stride * s.bh, s.dis_b, s.stride);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmDwtS0)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmDecoupleS0(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        k->decouple_s0(s.ref_b, s.dis_b, s.stride, s.halo, 100.0, s.r, s.a);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmDecoupleS0)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmDecoupleS0Gain12(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        k->decouple_s0(s.ref_b, s.dis_b, s.stride, s.halo, 1.2, s.r, s.a);
        benchmark::ClobberMemory();
    }
    k->decouple_s0(s.ref_b, s.dis_b, s.stride, s.halo, 100.0, s.r, s.a);
}
BENCHMARK(BM_AdmDecoupleS0Gain12)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmCsfS0(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        for (int t = 0; t < 3; ++t)
            k->csf_s0(s.a[t], s.stride, s.halo, s.rf[t], s.csf_shift[t], s.csf_round[t], s.c[t], s.f[t]);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmCsfS0)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmMaskingS0(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        std::int64_t acc[3] = {0, 0, 0};
        k->cm_accumulate_s0(s.r, s.a, s.stride, s.bw, s.bh, s.region, s.rf, s.shifts, 10,
                            s.thr.data(), acc);
        benchmark::DoNotOptimize(acc);
    }
}
BENCHMARK(BM_AdmMaskingS0)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmPoolingS0(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        std::uint64_t acc[3] = {0, 0, 0};
        k->den_accumulate_s0(s.ref_b, s.stride, s.region, 0, acc);
        benchmark::DoNotOptimize(acc);
    }
}
BENCHMARK(BM_AdmPoolingS0)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// Scale 1: the DWT of the scale-0 approximation, then CSF and masking on its
// bands (the same data a frame sees).
struct Scale1 {
    int bw, bh;
    std::ptrdiff_t stride;
    std::vector<std::int32_t> scratch, out, bands, dis_out, decoupled;
    std::int32_t* hvd[3];
    std::int32_t* dis_hvd[3];
    std::int32_t* r[3];
    std::int32_t* a[3];
    std::int32_t* c[3];
    std::int32_t* f[3];
    std::vector<std::int64_t> thr;
    Rect region, halo;
    const std::uint32_t rf[3] = {1200000000u, 1200000000u, 900000000u};
    explicit Scale1(Scale0& s)
        : bw((s.bw + 1) / 2),
          bh((s.bh + 1) / 2),
          stride(s.stride),
          scratch(4 * (s.bw + 3)),
          out(static_cast<std::size_t>(4 * stride * bh)),
          bands(static_cast<std::size_t>(6 * stride * bh)),
          dis_out(out.size()),
          decoupled(static_cast<std::size_t>(6 * stride * bh)),
          thr(static_cast<std::size_t>(bw)) {
        for (int t = 0; t < 3; ++t) {
            dis_hvd[t] = dis_out.data() + (t + 1) * stride * bh;
            r[t] = decoupled.data() + t * stride * bh;
            a[t] = decoupled.data() + (t + 3) * stride * bh;
            hvd[t] = out.data() + (t + 1) * stride * bh;
            c[t] = bands.data() + t * stride * bh;
            f[t] = bands.data() + (t + 3) * stride * bh;
        }
        const int left = static_cast<int>(bw * 0.1 - 0.5), top = static_cast<int>(bh * 0.1 - 0.5);
        region = {left, top, bw - left, bh - top};
        halo = {left - 1, top - 1, bw - left + 1, bh - top + 1};
        const int bh1 = (s.bh + 1) / 2;
        dwt_s1(s.approx.data(), s.stride, s.bw, s.bh, 0, bh1, scratch.data(), out.data(), hvd,
               stride);
        dwt_s1(s.approx.data() + s.stride * s.bh, s.stride, s.bw, s.bh, 0, bh1, scratch.data(),
               dis_out.data(), dis_hvd, stride);
        for (int t = 0; t < 3; ++t) csf_s123(hvd[t], stride, halo, rf[t], c[t], f[t]);
    }
};

Scale1& scale1() {
    static Scale1 s(scale0());
    return s;
}

void BM_AdmDwtS1(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    const int bh1 = (s.bh + 1) / 2;
    std::vector<std::int32_t> scratch(4 * (s.bw + 3)), out(4 * s.stride * bh1);
    std::int32_t* hvd[3] = {out.data() + s.stride * bh1, out.data() + 2 * s.stride * bh1,
                            out.data() + 3 * s.stride * bh1};
    for (auto _ : state) {
        k->dwt_s1(s.approx.data(), s.stride, s.bw, s.bh, 0, bh1, scratch.data(), out.data(), hvd,
                  s.stride);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmDwtS1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmDecoupleS1(benchmark::State& state) {
    Scale1& s = scale1();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        k->decouple_s123(s.hvd, s.dis_hvd, s.stride, s.halo, 100.0, s.r, s.a);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmDecoupleS1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmPoolingS1(benchmark::State& state) {
    Scale1& s = scale1();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        std::uint64_t acc[3] = {0, 0, 0};
        k->den_accumulate_s123(s.hvd, s.stride, s.region, 31, 9, 9, acc);
        benchmark::DoNotOptimize(acc);
    }
}
BENCHMARK(BM_AdmPoolingS1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmCsfS1(benchmark::State& state) {
    Scale1& s = scale1();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    for (auto _ : state) {
        for (int t = 0; t < 3; ++t) k->csf_s123(s.hvd[t], s.stride, s.halo, s.rf[t], s.c[t], s.f[t]);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_AdmCsfS1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmMaskingS1(benchmark::State& state) {
    Scale1& s = scale1();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    const CubeShifts shifts{0, 30, 9};
    for (auto _ : state) {
        std::int64_t acc[3] = {0, 0, 0};
        k->cm_accumulate_s123(s.hvd, s.hvd, s.stride, s.bw, s.bh, s.region, s.rf, shifts, 9,
                              s.thr.data(), acc);
        benchmark::DoNotOptimize(acc);
    }
}
BENCHMARK(BM_AdmMaskingS1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_AdmFrame(benchmark::State& state) {
    Scale0& s = scale0();
    const AdmKernels* k = kernels_for(state);
    if (!k) return;
    AdmEngine engine(kW, kH, 8, default_adm_options(), *k);
    for (auto _ : state) {
        const AdmScores r = engine.compute(s.ref.luma(), s.dis.luma());
        benchmark::DoNotOptimize(r.adm2);
    }
}
BENCHMARK(BM_AdmFrame)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
