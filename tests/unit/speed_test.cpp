// libvmaf 3.2.0's speed_chroma and speed_temporal extractors: every value of
// features_speed.json bit for bit at every SIMD level this machine has, the
// speed_chroma keys of the v1.0.16 model goldens (their options, including
// speed_prescale=0.5 with bilinear scaling), and the refusals.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "support/simd_run.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using Opts = std::vector<std::pair<std::string, std::string>>;

const std::vector<std::string> kChromaKeys = {"speed_chroma_u", "speed_chroma_v",
                                              "speed_chroma_uv"};

using test::machine_levels;

test::RecordingSink run_at(const std::string& pair, const std::string& feature, const Opts& set,
                           SimdLevel level) {
    return test::run_pair_at(pair, feature, set, level);
}

std::vector<std::string> speed_pairs() {
    std::vector<std::string> out;
    for (const auto& p : test::target_pairs())
        if (test::has_golden(p, "features_speed.json")) out.push_back(p);
    return out;
}

class SpeedGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(SpeedGolden, ChromaKeysOfFeaturesSpeedJsonBitExactAtEveryLevel) {
    int compared = 0;
    for (SimdLevel level : machine_levels()) {
        SCOPED_TRACE(simd_level_name(level));
        const auto sink = run_at(GetParam(), "speed_chroma", {}, level);
        EXPECT_EQ(sink.order, kChromaKeys);
        compared += test::expect_golden_keys(sink, GetParam(), "features_speed.json", kChromaKeys);
    }
    RecordProperty("values_compared", compared);
}

TEST_P(SpeedGolden, TemporalKeyOfFeaturesSpeedJsonBitExactAtEveryLevel) {
    int compared = 0;
    for (SimdLevel level : machine_levels()) {
        SCOPED_TRACE(simd_level_name(level));
        const auto sink = run_at(GetParam(), "speed_temporal", {}, level);
        compared +=
            test::expect_golden_keys(sink, GetParam(), "features_speed.json", {"speed_temporal"});
    }
    RecordProperty("values_compared", compared);
}

// Through the CLI, as libvmaf's golden was made, at every dispatch level
// (--cpumask 4294967295 = scalar, 48 = AVX2 at most, default): every
// per-frame and pooled value of features_speed.json, bit for bit.
TEST_P(SpeedGolden, FeaturesSpeedJsonThroughTheCliAtEveryMask) {
    using nlohmann::json;
    const json want = test::golden(GetParam(), "features_speed.json");
    int compared = 0;
    for (const char* mask : {"4294967295", "48", ""}) {
        SCOPED_TRACE(std::string("--cpumask ") + mask);
        const auto out = test::work_dir() / (GetParam() + ".speed.mask" + mask + ".json");
        const std::string cmd =
            std::string(VMAFPP_CLI) + " -r '" + test::clip(GetParam(), "ref").string() + "' -d '" +
            test::clip(GetParam(), "dis").string() +
            "' -q --json --precision max --threads 1 -n --feature speed_chroma --feature "
            "speed_temporal -o '" + out.string() + "'" +
            (*mask ? std::string(" --cpumask ") + mask : std::string());
        std::string log;
        ASSERT_EQ(test::run_command(cmd, &log), 0) << cmd << "\n" << log;
        std::ifstream in(out);
        const json got = json::parse(in);
        ASSERT_EQ(got["frames"].size(), want["frames"].size());
        for (std::size_t i = 0; i < want["frames"].size(); ++i) {
            const json& w = want["frames"][i]["metrics"];
            const json& g = got["frames"][i]["metrics"];
            EXPECT_EQ(g.size(), w.size()) << "frame " << i;
            for (const auto& [key, value] : w.items()) {
                ASSERT_TRUE(g.contains(key)) << "frame " << i << " lacks " << key;
                EXPECT_EQ(g[key].get<double>(), value.get<double>()) << "frame " << i << " " << key;
                ++compared;
            }
        }
        for (const auto& [key, pooled] : want["pooled_metrics"].items())
            for (const auto& [method, value] : pooled.items()) {
                EXPECT_EQ(got["pooled_metrics"][key][method].get<double>(), value.get<double>())
                    << "pooled " << key << " " << method;
                ++compared;
            }
    }
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, SpeedGolden, ::testing::ValuesIn(speed_pairs()),
                         [](const auto& info) { return info.param; });

// The v1.0.16 models' speed_chroma options and the keys they write.
struct ModelRun {
    const char* file;
    Opts opts;
    const char* suffix;
};

const std::vector<ModelRun>& model_runs() {
    static const std::vector<ModelRun> runs = {
        {"model_vmaf_v1.0.16_3d0h.json",
         {{"speed_kernelscale", "1"}, {"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"},
          {"speed_weight_var_mode", "5"}, {"speed_max_val", "45"}},
         "_mxv_45_nnf_0.1_snn_0.19_wvm_5"},
        {"model_vmaf_v1.0.16_hfr_3d0h.json",
         {{"speed_kernelscale", "1"}, {"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"},
          {"speed_weight_var_mode", "5"}, {"speed_max_val", "45"}},
         "_mxv_45_nnf_0.1_snn_0.19_wvm_5"},
        {"model_vmaf_v1.0.16_3d0h_2160.json",
         {{"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"}, {"speed_weight_var_mode", "5"},
          {"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"},
          {"speed_max_val", "45"}},
         "_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5"},
    };
    return runs;
}

class SpeedModelGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(SpeedModelGolden, ChromaKeysOfV1016ModelGoldensBitExactAtEveryLevel) {
    int compared = 0, files = 0;
    for (const ModelRun& run : model_runs()) {
        if (!test::has_golden(GetParam(), run.file)) continue;
        ++files;
        std::vector<std::string> keys;
        for (const auto& k : kChromaKeys) keys.push_back(k + run.suffix);
        for (SimdLevel level : machine_levels()) {
            SCOPED_TRACE(std::string(run.file) + " " + simd_level_name(level));
            const auto sink = run_at(GetParam(), "speed_chroma", run.opts, level);
            compared += test::expect_golden_keys(sink, GetParam(), run.file, keys);
        }
    }
    if (!files) GTEST_SKIP() << "no v1.0.16 model golden for this pair";
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, SpeedModelGolden, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param; });

TEST(Speed, RegisteredWithLibvmafNames) {
    const FeatureInfo* chroma = find_feature("speed_chroma");
    ASSERT_NE(chroma, nullptr);
    ASSERT_EQ(chroma->provided.size(), 3u);
    for (std::size_t i = 0; i < kChromaKeys.size(); ++i)
        EXPECT_EQ(chroma->provided[i].output_name(), kChromaKeys[i]);
    EXPECT_EQ(find_feature_providing("Speed_chroma_feature_speed_chroma_uv_score"), chroma);
    EXPECT_TRUE(chroma->reads_chroma(OptionValues(chroma->options)));
    EXPECT_FALSE(chroma->temporal);
    const FeatureInfo* temporal = find_feature("speed_temporal");
    ASSERT_NE(temporal, nullptr);
    EXPECT_TRUE(temporal->temporal);
    EXPECT_EQ(temporal->provided.at(0).output_name(), "speed_temporal");
}

TEST(Speed, PrescaleMethodIsAChoiceNamedInTheKey) {
    const FeatureInfo* info = find_feature("speed_chroma");
    OptionValues o(info->options);
    EXPECT_EQ(o.text("speed_prescale_method"), "nearest");
    EXPECT_EQ(o.key_suffix(), "");
    o.set("speed_prescale_method", "lanczos4");
    EXPECT_EQ(o.key_suffix(), "_psm_lanczos4");
    EXPECT_THROW(o.set("speed_prescale_method", "area"), Error);
}

// libvmaf logs "image too small" and crashes when the decimated plane has no
// 5x5 block: 80x80 samples after prescaling, i.e. a 160x160 4:2:0 frame.
TEST(Speed, RefusesPlanesWithoutABlockNamingTheMinimum) {
    const FeatureInfo* chroma = find_feature("speed_chroma");
    const FeatureInfo* temporal = find_feature("speed_temporal");
    const OptionValues oc(chroma->options), ot(temporal->options);
    test::expect_refused(*chroma, oc, FrameGeometry{176, 144, 8, PixelFormat::yuv420}, "80x80");
    test::expect_refused(*chroma, oc, FrameGeometry{158, 400, 8, PixelFormat::yuv420}, "80x80");
    test::expect_refused(*temporal, ot, FrameGeometry{79, 200, 8, PixelFormat::yuv420}, "80x80");
    test::expect_refused(*chroma, oc, FrameGeometry{400, 400, 8, PixelFormat::yuv400}, "4:0:0");
    test::expect_refused(*chroma, oc, FrameGeometry{400, 400, 9, PixelFormat::yuv420}, "bits");
    EXPECT_NO_THROW(chroma->create(oc, FrameGeometry{160, 160, 8, PixelFormat::yuv420}));
    EXPECT_NO_THROW(temporal->create(ot, FrameGeometry{80, 80, 8, PixelFormat::yuv420}));
    OptionValues half(chroma->options);
    half.set("speed_prescale", "0.5");
    test::expect_refused(*chroma, half, FrameGeometry{316, 316, 8, PixelFormat::yuv420}, "80x80");
    EXPECT_NO_THROW(chroma->create(half, FrameGeometry{318, 318, 8, PixelFormat::yuv420}));
}

// Every prescale method and kernel scale runs and writes finite values
// (no golden: libvmaf's goldens cover nearest at 1 and bilinear at 0.5).
TEST(Speed, EveryPrescaleMethodScores) {
    const FeatureInfo* info = find_feature("speed_chroma");
    const Picture a = test::noise_picture(200, 180, 8, PixelFormat::yuv444, 1);
    const Picture b = test::noise_picture(200, 180, 8, PixelFormat::yuv444, 2);
    for (const char* m : {"nearest", "bilinear", "bicubic", "lanczos4"})
        for (const char* ps : {"0.5", "1.5"}) {
            auto fex = info->create(test::options_for(*info, {{"speed_prescale_method", m},
                                                              {"speed_prescale", ps}}),
                                    FrameGeometry{200, 180, 8, PixelFormat::yuv444});
            test::RecordingSink sink;
            fex->extract(a, b, 0, sink);
            for (const auto& [key, frames] : sink.values)
                EXPECT_TRUE(std::isfinite(frames.at(0))) << m << " " << ps << " " << key;
        }
}

}  // namespace
}  // namespace vmafpp
