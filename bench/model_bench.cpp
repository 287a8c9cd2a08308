#include <benchmark/benchmark.h>

#include <vector>

#include "vmafpp/model.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/results.hpp"

namespace {

const std::vector<double> kFrame = {0.99, 9.3, 0.79, 0.98, 0.99, 0.995};

void run_model(benchmark::State& state, const char* version) {
    vmafpp::ModelConfig cfg;
    cfg.version = version;
    const vmafpp::Model model = vmafpp::Model::load(cfg);
    for (auto _ : state) benchmark::DoNotOptimize(model.predict(kFrame));
}

void BM_PredictVmafV061(benchmark::State& state) { run_model(state, "vmaf_v0.6.1"); }
void BM_PredictBootstrapB063(benchmark::State& state) { run_model(state, "vmaf_b_v0.6.3"); }
BENCHMARK(BM_PredictVmafV061);
BENCHMARK(BM_PredictBootstrapB063);

void BM_LoadVmafV061(benchmark::State& state) {
    vmafpp::ModelConfig cfg;
    cfg.version = "vmaf_v0.6.1";
    for (auto _ : state) benchmark::DoNotOptimize(vmafpp::Model::load(cfg));
}
BENCHMARK(BM_LoadVmafV061);

void BM_WriteJson1000Frames(benchmark::State& state) {
    vmafpp::Results r;
    r.version = "bench";
    r.frame_count = 1000;
    for (unsigned i = 0; i < r.frame_count; ++i)
        for (int k = 0; k < 15; ++k) r.set("metric_" + std::to_string(k), i, 0.5 + i * 1e-3 + k);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            vmafpp::render_results(r, vmafpp::OutputFormat::json, vmafpp::Precision::max()));
}
BENCHMARK(BM_WriteJson1000Frames);

}  // namespace
