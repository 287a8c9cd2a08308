// score(): how requests for the same extractor from models and --feature are
// combined into extractor instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/synthetic_video.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {
namespace {

ScoreRun run_with(const std::vector<std::string>& features, bool model) {
    const test::Geometry g{64, 48, PixelFormat::yuv420, 8};
    const std::string ref_file = test::y4m_file(g, 2);
    // The distorted luma: every 5th sample of each frame inverted.
    std::string dis_file = ref_file;
    const std::size_t header = ref_file.find('\n') + 1, frame_bytes = 6 + 64 * 48 * 3 / 2;
    for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t i = 0; i < 64 * 48; i += 5) {
            char& c = dis_file[header + f * frame_bytes + 6 + i];
            c = static_cast<char>(255 - static_cast<unsigned char>(c));
        }
    auto ref = open_video(test::write_file("session_merge_ref.y4m", ref_file));
    auto dis = open_video(test::write_file("session_merge_dis.y4m", dis_file));
    ScoreConfig cfg;
    cfg.no_prediction = !model;
    cfg.features = features;
    return score(*ref, *dis, cfg);
}

std::vector<std::string> keys_of(const std::vector<std::string>& features, bool model) {
    return run_with(features, model).values.keys();
}

bool has(const std::vector<std::string>& keys, const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
}

// The model's adm and --feature adm=debug=true compute the same values under
// the same keys: one instance serves both and writes the debug keys too
// (two instances would write integer_adm2 twice).
TEST(SessionMerge, ModelFeaturePlusDebugRequestIsOneInstanceWithDebugKeys) {
    const auto keys = keys_of({"adm=debug=true"}, true);
    EXPECT_TRUE(has(keys, "integer_adm2"));
    EXPECT_TRUE(has(keys, "integer_adm_num_scale0"));
    EXPECT_TRUE(has(keys, "vmaf"));
    EXPECT_EQ(std::count(keys.begin(), keys.end(), "integer_adm2"), 1);
}

// adm_skip_aim writes 0 for AIM: merged with a request that wants AIM, the
// one instance computes it.
TEST(SessionMerge, SkipAimYieldsToARequestThatWantsAim) {
    const double full = *run_with({"adm"}, false).values.value("integer_aim", 1);
    const double skipped = *run_with({"adm=adm_skip_aim=true"}, false).values.value("integer_aim", 1);
    const double merged =
        *run_with({"adm=adm_skip_aim=true", "adm"}, false).values.value("integer_aim", 1);
    EXPECT_NE(skipped, full);
    EXPECT_EQ(merged, full);
}

// A feature parameter changes the values, hence the keys: two instances.
TEST(SessionMerge, DifferentFeatureParametersStayTwoInstances) {
    const auto keys = keys_of({"adm", "adm=adm_enhn_gain_limit=1.2"}, false);
    EXPECT_TRUE(has(keys, "integer_adm2"));
    EXPECT_TRUE(has(keys, "integer_adm2_egl_1.2"));
}

// Two models that write the same name, or a model named like a feature key,
// would write one key twice: a one-line error before any frame is read.
ScoreConfig with_models(const std::vector<std::string>& models, std::vector<std::string> features) {
    ScoreConfig cfg;
    for (const auto& m : models) cfg.models.push_back(parse_model_config(m));
    cfg.features = std::move(features);
    return cfg;
}

void expect_refused(const ScoreConfig& cfg, const std::string& fragment) {
    const test::Geometry g{64, 48, PixelFormat::yuv420, 8};
    auto ref = open_video(test::write_file("session_names_ref.y4m", test::y4m_file(g, 2)));
    auto dis = open_video(test::write_file("session_names_dis.y4m", test::y4m_file(g, 2)));
    try {
        score(*ref, *dis, cfg);
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

TEST(SessionNames, TwoModelsWithOneNameAreRefused) {
    expect_refused(with_models({"version=vmaf_v0.6.1", "version=vmaf_v0.6.1"}, {}),
                   "unique name");
    expect_refused(with_models({"version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg"}, {}),
                   "\"vmaf\"");
}

TEST(SessionNames, AModelNamedLikeAFeatureKeyIsRefused) {
    expect_refused(with_models({"version=vmaf_v0.6.1:name=psnr_y"}, {"psnr"}), "feature psnr");
    expect_refused(with_models({"version=vmaf_v0.6.1:name=integer_adm2"}, {}), "feature adm");
}

}  // namespace
}  // namespace vmafpp
