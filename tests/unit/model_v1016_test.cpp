// The vmaf_v1.0.16 models (3d0h, hfr_3d0h, 3d0h_2160) against libvmaf
// 3.2.0's model goldens: every ADM and motion key (the models' adm_csf_mode=2,
// adm_min_val, motion_max_val, and the hfr model's five-frame window and
// moving average) bit for bit at every SIMD level, and the whole model
// (vmaf after score_transform, chroma correction and the _2160 clip at 110)
// through the CLI at every dispatch level once a `cambi` extractor is
// registered.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/backend_run.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "support/simd_run.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/model.hpp"

namespace vmafpp {
namespace {

using nlohmann::json;
using Opts = std::vector<std::pair<std::string, std::string>>;

struct Model {
    const char* version;
    Opts adm;
    const char* adm_suffix;
    Opts motion;
    const char* motion_suffix;
};

const Opts kAdm1080 = {{"adm_dlm_weight", "0.7"},    {"adm_enhn_gain_limit", "1"},
                       {"adm_noise_weight", "0.02"}, {"adm_norm_view_dist", "3"},
                       {"adm_ref_display_height", "1080"}, {"adm_min_val", "0.5"},
                       {"adm_csf_mode", "2"}};
const Opts kAdm2160 = {{"adm_dlm_weight", "0.7"},    {"adm_enhn_gain_limit", "1"},
                       {"adm_noise_weight", "0.02"}, {"adm_norm_view_dist", "3"},
                       {"adm_ref_display_height", "2160"}, {"adm_min_val", "0.5"},
                       {"adm_csf_mode", "2"}};

const std::vector<Model>& models() {
    static const std::vector<Model> m = {
        {"vmaf_v1.0.16_3d0h", kAdm1080, "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02",
         {{"motion_max_val", "18"}}, "_mmxv_18"},
        {"vmaf_v1.0.16_hfr_3d0h", kAdm1080, "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02",
         {{"motion_max_val", "18"}, {"motion_five_frame_window", "true"},
          {"motion_moving_average", "true"}},
         "_mffw_mmxv_18_mma"},
        {"vmaf_v1.0.16_3d0h_2160", kAdm2160, "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_rdh_2160",
         {{"motion_max_val", "18"}}, "_mmxv_18"},
    };
    return m;
}

std::string golden_file(const Model& m) { return std::string("model_") + m.version + ".json"; }

std::vector<std::string> with_suffix(const std::vector<std::string>& names, const std::string& s) {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back(n + s);
    return out;
}

class V1016Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(V1016Golden, AdmAndMotionKeysBitExactAtEveryLevel) {
    int compared = 0, files = 0;
    for (const Model& m : models()) {
        const std::string file = golden_file(m);
        if (!test::has_golden(GetParam(), file)) continue;
        ++files;
        const auto adm_keys = with_suffix({"integer_adm2", "integer_aim", "integer_adm3",
                                           "integer_adm_scale0", "integer_adm_scale1",
                                           "integer_adm_scale2", "integer_adm_scale3"},
                                          m.adm_suffix);
        const auto motion_keys = with_suffix({"VMAF_integer_feature_motion_sad_score",
                                              "integer_motion2", "integer_motion3"},
                                             m.motion_suffix);
        for (SimdLevel level : test::machine_levels()) {
            SCOPED_TRACE(file + " " + simd_level_name(level));
            compared += test::expect_golden_keys(test::run_pair_at(GetParam(), "adm", m.adm, level),
                                                 GetParam(), file, adm_keys);
            compared += test::expect_golden_keys(
                test::run_pair_at(GetParam(), "motion", m.motion, level), GetParam(), file,
                motion_keys);
        }
    }
    if (!files) GTEST_SKIP() << "no v1.0.16 model golden for this pair";
    RecordProperty("values_compared", compared);
}

// The model alone: each golden frame's feature values (cambi's included)
// through Model::predict give the golden vmaf bit for bit, which holds the
// models' score_transform, chroma correction and clip (0..110 for _2160) to
// libvmaf's without needing a cambi extractor.
TEST_P(V1016Golden, ModelPredictsGoldenVmafFromGoldenFeatures) {
    int compared = 0, files = 0;
    for (const Model& m : models()) {
        const std::string file = golden_file(m);
        if (!test::has_golden(GetParam(), file)) continue;
        ++files;
        ModelConfig cfg;
        cfg.version = m.version;
        const vmafpp::Model model = vmafpp::Model::load(cfg);
        const json g = test::golden(GetParam(), file);
        for (const auto& f : g["frames"]) {
            const json& metrics = f["metrics"];
            std::vector<double> values;
            for (const FeatureRequest& r : model.features()) {
                // Without a registered extractor the key is the feature name
                // ("Cambi_feature_cambi_score"); the golden's is its alias
                // ("cambi") with the options' suffix.
                std::string key = r.key;
                if (!metrics.contains(key)) {
                    std::string alias = r.feature_name;
                    if (const auto at = alias.find("_feature_"); at != std::string::npos)
                        alias = alias.substr(at + 9);
                    if (alias.size() > 6 && alias.ends_with("_score"))
                        alias.resize(alias.size() - 6);
                    for (const auto& [k, v] : metrics.items())
                        if (k.rfind(alias + "_", 0) == 0) key = k;
                }
                ASSERT_TRUE(metrics.contains(key)) << file << " lacks " << r.key;
                values.push_back(metrics[key].get<double>());
            }
            const auto out = model.predict(values);
            ASSERT_FALSE(out.empty());
            EXPECT_EQ(out[0].value, metrics["vmaf"].get<double>())
                << file << " frame " << f["frameNum"] << ": got " << test::g17(out[0].value)
                << " want " << test::g17(metrics["vmaf"].get<double>());
            ++compared;
        }
    }
    if (!files) GTEST_SKIP() << "no v1.0.16 model golden for this pair";
    RecordProperty("values_compared", compared);
}

// The whole model through the CLI at every dispatch level: scalar, AVX2 at
// most, AVX-512 without the ICL extensions and the best this CPU has (a
// level the CPU lacks runs as the best one below it).
TEST_P(V1016Golden, WholeModelThroughTheCli) {
    if (find_feature("cambi") == nullptr)
        GTEST_SKIP() << "no cambi extractor registered: the v1.0.16 models need "
                        "Cambi_feature_cambi_score (their other keys: "
                        "AdmAndMotionKeysBitExactAtEveryLevel, SpeedModelGolden)";
    int files = 0, compared = 0;
    for (const Model& m : models()) {
        const std::string file = golden_file(m);
        if (!test::has_golden(GetParam(), file)) continue;
        ++files;
        const json want = test::golden(GetParam(), file);
        for (const std::string mask : {"4294967295", "48", "32", ""}) {
            const std::string args = "--threads 1 -m version=" + std::string(m.version) +
                                     (mask.empty() ? "" : " --cpumask " + mask);
            compared += test::expect_same_json_values(
                test::cli_json(GetParam(), args, std::string(m.version) + ".mask" + mask), want,
                file + " --cpumask " + mask, /*same_key_count=*/true);
        }
    }
    if (!files) GTEST_SKIP() << "no v1.0.16 model golden for this pair";
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, V1016Golden, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace vmafpp
