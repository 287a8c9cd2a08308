// The backend seam: the compute choice belongs to one scoring session and
// reaches every extractor's create(); nothing process-wide is changed, so
// sessions with different choices can run side by side.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/pipeline.hpp"
#include "support/corpus.hpp"
#include "support/score_runs.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

constexpr unsigned kScalarMask = 4294967295u;

TEST(ComputeSeam, ResolveTakesTheLevelFromTheSessionMask) {
    ComputeConfig c;
    c.cpumask = kScalarMask;
    EXPECT_EQ(resolve_compute(c).simd, SimdLevel::scalar);
    EXPECT_EQ(resolve_compute(c).backend, Backend::cpu);
    c.cpumask = 0;
    EXPECT_EQ(resolve_compute(c).simd, simd_level(0));
    // A non-zero gpumask keeps everything on the CPU, as in libvmaf.
    c.gpumask = 1;
    EXPECT_EQ(resolve_compute(c).backend, Backend::cpu);
}

TEST(ComputeSeam, BackendsByName) {
    EXPECT_EQ(parse_backend("cpu"), Backend::cpu);
    EXPECT_THROW(parse_backend("opencl"), Error);
    const auto built = built_backends();
    ASSERT_FALSE(built.empty());
    EXPECT_EQ(built.front(), Backend::cpu);
    for (Backend b : {Backend::vulkan, Backend::cuda}) {
        const bool is_built = std::find(built.begin(), built.end(), b) != built.end();
        if (is_built) continue;
        // A backend this build lacks is refused with a message naming it.
        try {
            parse_backend(backend_name(b));
            ADD_FAILURE() << backend_name(b) << " accepted but not built";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("not built"), std::string::npos) << e.what();
        }
        ComputeConfig c;
        c.backend = b;
        EXPECT_THROW(resolve_compute(c), Error);
    }
}

// An extractor that records the SIMD level its create() was given.
FeatureInfo recording_info(std::atomic<int>* seen) {
    struct Nop final : FeatureExtractor {
        void extract(const Picture&, const Picture&, unsigned, FeatureSink&) override {}
    };
    FeatureInfo f;
    f.name = "recording";
    f.make = [seen](const ExtractorSetup& s) -> std::unique_ptr<FeatureExtractor> {
        seen->store(static_cast<int>(s.compute.simd));
        return std::make_unique<Nop>();
    };
    return f;
}

// Two pipelines built at the same time on two threads, each with its own
// level: each extractor is created with its own pipeline's.
TEST(ComputeSeam, EachPipelineHandsItsOwnComputeToCreate) {
    const FrameGeometry g{16, 16, 8, PixelFormat::yuv420};
    std::atomic<int> seen_a{-1}, seen_b{-1};
    const FeatureInfo a = recording_info(&seen_a), b = recording_info(&seen_b);
    auto build = [&g](const FeatureInfo& info, SimdLevel level, unsigned threads) {
        FeatureCollector out;
        PipelineOptions o;
        o.threads = threads;
        o.compute.simd = level;
        FramePipeline p({ExtractorSpec{&info, OptionValues(info.options)}}, g, o, out);
        p.finish();
    };
    std::thread ta([&] { build(a, SimdLevel::scalar, 2); });
    std::thread tb([&] { build(b, SimdLevel::avx512icl, 1); });
    ta.join();
    tb.join();
    EXPECT_EQ(seen_a.load(), static_cast<int>(SimdLevel::scalar));
    EXPECT_EQ(seen_b.load(), static_cast<int>(SimdLevel::avx512icl));
}

ScoreRun score_pair(const std::string& pair, unsigned cpumask, unsigned threads) {
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    ScoreConfig cfg;
    cfg.compute.cpumask = cpumask;
    cfg.threads = threads;
    cfg.features = {"float_adm", "float_vif", "float_motion", "float_psnr", "float_ansnr",
                    "float_moment", "psnr"};
    return score(*ref, *dis, cfg);
}

// Two sessions in one process, at the same time on two threads, one at the
// scalar level and one at the best level this CPU has (default model plus
// every float feature): each reports its own level and gives the numbers it
// gives alone, which are the same numbers.
TEST(ComputeSeam, TwoSessionsOnTwoThreads) {
    const std::string pair = "p08_brick_176x144_420p8_bilinear2x";
    // Same thread counts as below: libvmaf's key order (which vmafpp keeps)
    // differs between no worker threads and some.
    const ScoreRun alone_scalar = score_pair(pair, kScalarMask, 2);
    const ScoreRun alone_best = score_pair(pair, 0, 1);
    ASSERT_EQ(alone_scalar.compute.simd, SimdLevel::scalar);
    ASSERT_EQ(alone_best.compute.simd, simd_level(0));
    if (simd_level(0) == SimdLevel::scalar)
        GTEST_LOG_(INFO) << "this machine runs no SIMD level: both sessions are scalar";

    std::unique_ptr<ScoreRun> a, b;
    std::thread ta([&] { a = std::make_unique<ScoreRun>(score_pair(pair, kScalarMask, 2)); });
    std::thread tb([&] { b = std::make_unique<ScoreRun>(score_pair(pair, 0, 1)); });
    ta.join();
    tb.join();
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->compute.simd, SimdLevel::scalar);
    EXPECT_EQ(b->compute.simd, simd_level(0));
    test::expect_same_run(alone_scalar, *a, "scalar session beside another");
    test::expect_same_run(alone_best, *b, "best-level session beside another");
    test::expect_same_run(*a, *b, "scalar against best level");
    EXPECT_GT(a->values.keys().size(), 20u);
}

}  // namespace
}  // namespace vmafpp
