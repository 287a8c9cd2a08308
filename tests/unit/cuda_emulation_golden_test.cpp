// The libvmaf goldens of SpEED and CAMBI through the CUDA twins' grid
// emulation (support/cuda_grid_emulation.hpp's emulation_backend: the
// per-thread functions of speed_cuda_math.cuh and cambi_cuda_math.cuh over
// the twins' grids on the host), every corpus pair that has them:
// features_speed.json (speed_chroma, speed_temporal), features_other.json's
// cambi and cambi_opts.json, bit for bit. No GPU needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/cuda_grid_emulation.hpp"
#include "support/feature_run.hpp"

namespace vmafpp {
namespace {

class CudaEmulationGolden : public ::testing::TestWithParam<std::string> {};

// Whether the pair's golden `file` has `key` (libvmaf could not score some
// pairs with some extractors).
bool golden_has(const std::string& pair, const std::string& file, const std::string& key) {
    return test::has_golden(pair, file) && test::golden(pair, file)["frames"][0]["metrics"].contains(key);
}

TEST_P(CudaEmulationGolden, SpeedAndCambiGoldensBitExact) {
    const std::string& pair = GetParam();
    const Backend emu = devtest::emulation_backend();
    int compared = 0;
    if (golden_has(pair, "features_speed.json", "speed_chroma_u")) {
        const auto sink = test::run_pair(pair, "speed_chroma", {}, std::nullopt, emu);
        compared += test::expect_golden_keys(sink, pair, "features_speed.json",
                                             {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"});
    }
    if (golden_has(pair, "features_speed.json", "speed_temporal")) {
        const auto sink = test::run_pair(pair, "speed_temporal", {}, std::nullopt, emu);
        compared += test::expect_golden_keys(sink, pair, "features_speed.json", {"speed_temporal"});
    }
    if (golden_has(pair, "features_other.json", "cambi")) {
        const auto sink = test::run_pair(pair, "cambi", {}, std::nullopt, emu);
        compared += test::expect_golden_keys(sink, pair, "features_other.json", {"cambi"});
    }
    const std::string opts_key = "cambi_mlc_3_topk_0.2_tvit_0.012_ws_45";
    if (golden_has(pair, "cambi_opts.json", opts_key)) {
        const auto sink = test::run_pair(pair, "cambi",
                                         {{"full_ref", "true"},
                                          {"topk", "0.2"},
                                          {"window_size", "45"},
                                          {"tvi_threshold", "0.012"},
                                          {"max_log_contrast", "3"}},
                                         std::nullopt, emu);
        compared += test::expect_golden_keys(sink, pair, "cambi_opts.json",
                                             {opts_key, "cambi_source", "cambi_full_reference"});
    }
    if (compared == 0) GTEST_SKIP() << "neither SpEED nor CAMBI has a golden for this pair";
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CudaEmulationGolden, ::testing::ValuesIn(test::target_pairs()));

}  // namespace
}  // namespace vmafpp
