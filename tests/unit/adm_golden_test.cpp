// Integer ADM against libvmaf 3.2.0's goldens: every integer_adm* and
// integer_aim value of default.json, gain_1.2.json and gain_1.5.json, bit for
// bit, on every corpus pair except p21 (below libvmaf's well-defined size).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

struct AdmRecording final : FeatureSink {
    std::map<std::string, std::map<unsigned, double>> values;
    std::vector<std::string> order;  // keys in first-write order
    void append(std::string_view key, unsigned frame, double value) override {
        const std::string k(key);
        if (!values.count(k)) order.push_back(k);
        values[k][frame] = value;
    }
};

// Runs the "adm" extractor over a corpus pair (luma only, so the Y4M is what
// libvmaf read even for the pairs it was given as raw YUV).
AdmRecording run_adm_on_pair(const std::string& pair,
                             const std::vector<std::pair<std::string, std::string>>& options) {
    const FeatureInfo* info = find_feature("adm");
    if (!info) throw std::runtime_error("adm is not registered");
    OptionValues opts(info->options);
    for (const auto& [k, v] : options) opts.set(k, v);
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    const VideoInfo& vi = ref->info();
    const FrameGeometry geo{vi.width, vi.height, vi.bpc, vi.format};
    auto fex = info->create(opts, geo);
    AdmRecording rec;
    Picture r, d;
    for (unsigned frame = 0; ref->read(r) && dis->read(d); ++frame)
        fex->extract(r, d, frame, rec);
    return rec;
}

std::vector<std::string> adm_target_pairs() {
    std::vector<std::string> out;
    for (const auto& p : test::corpus_pairs())
        if (p.rfind("p21_", 0) != 0) out.push_back(p);
    return out;
}

struct GoldenCase {
    std::string file;    // golden file name
    std::string gain;    // adm_enhn_gain_limit, empty for the default
    std::string suffix;  // key suffix libvmaf wrote
};

const GoldenCase kCases[] = {
    {"default.json", "", ""},
    {"gain_1.2.json", "1.2", "_egl_1.2"},
    {"gain_1.5.json", "1.5", "_egl_1.5"},
};

const char* const kAdmKeys[] = {"integer_adm2",       "integer_aim",        "integer_adm3",
                                "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
                                "integer_adm_scale3"};

class AdmGolden : public ::testing::TestWithParam<std::tuple<int, std::string>> {};

TEST_P(AdmGolden, BitExact) {
    const GoldenCase& c = kCases[std::get<0>(GetParam())];
    const std::string& pair = std::get<1>(GetParam());
    std::vector<std::pair<std::string, std::string>> options;
    if (!c.gain.empty()) options.emplace_back("adm_enhn_gain_limit", c.gain);
    const AdmRecording got = run_adm_on_pair(pair, options);

    std::vector<std::string> expected_order;
    for (const char* k : kAdmKeys) expected_order.push_back(k + c.suffix);
    EXPECT_EQ(got.order, expected_order);

    const auto golden = test::golden(pair, c.file);
    const auto& frames = golden["frames"];
    ASSERT_GT(frames.size(), 0u);
    for (const auto& key : expected_order) {
        const auto it = got.values.find(key);
        ASSERT_NE(it, got.values.end()) << key;
        EXPECT_EQ(it->second.size(), frames.size()) << key;
        for (const auto& f : frames) {
            const unsigned n = f["frameNum"].get<unsigned>();
            const auto v = it->second.find(n);
            ASSERT_NE(v, it->second.end()) << key << " frame " << n;
            EXPECT_EQ(v->second, f["metrics"][key].get<double>())
                << pair << " " << c.file << " " << key << " frame " << n;
        }
    }
}

std::string adm_golden_name(const ::testing::TestParamInfo<AdmGolden::ParamType>& info) {
    static const char* const kNames[] = {"default", "gain_1_2", "gain_1_5"};
    return std::string(kNames[std::get<0>(info.param)]) + "_" + std::get<1>(info.param).substr(0, 3);
}

INSTANTIATE_TEST_SUITE_P(Corpus, AdmGolden,
                         ::testing::Combine(::testing::Range(0, 3),
                                            ::testing::ValuesIn(adm_target_pairs())),
                         adm_golden_name);

}  // namespace
}  // namespace vmafpp
