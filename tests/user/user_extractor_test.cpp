// A caller's own extractor, defined here with the public headers alone:
// register_feature() adds it, and from then on the library finds it as it
// finds a built-in (find_feature, the feature list, --feature strings in a
// score() session, the key suffix of its options). Its own binary: the
// registry is process-wide, and vmafpp_tests' loops over every registered
// extractor (and the CLI runs they make) must see the built-ins alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

namespace {

using namespace vmafpp;

// Mean absolute luma difference of 8-bit pictures, times option "gain".
class MeanAbsDiff final : public FeatureExtractor {
public:
    explicit MeanAbsDiff(const ExtractorSetup& s)
        : gain_(s.options.number("gain")), key_(s.keys[0]) {
        if (s.geometry.bpc != 8) throw Error("mean_abs_diff: 8-bit input only");
    }
    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        sink.append(key_, frame, gain_ * mean_abs_diff(ref.luma(), dis.luma()));
    }
    static double mean_abs_diff(const Plane& a, const Plane& b) {
        std::uint64_t sum = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                sum += static_cast<std::uint64_t>(
                    std::abs(int(a.row<std::uint8_t>(y)[x]) - int(b.row<std::uint8_t>(y)[x])));
        return static_cast<double>(sum) / (static_cast<double>(a.width()) * a.height());
    }

private:
    double gain_;
    std::string key_;
};

FeatureInfo mean_abs_diff_info() {
    FeatureInfo info;
    info.name = "mean_abs_diff";
    info.options = {{"gain", "g", OptionType::number, 1.0, 0.0, 100.0, true, "multiplier"}};
    info.provided = {{"user_feature_mean_abs_diff_score", "mean_abs_diff"}};
    info.make = [](const ExtractorSetup& s) -> std::unique_ptr<FeatureExtractor> {
        return std::make_unique<MeanAbsDiff>(s);
    };
    return info;
}

// Registered once for the whole binary, as a caller would at start-up.
const FeatureInfo& registered() {
    static const FeatureInfo& info = register_feature(mean_abs_diff_info());
    return info;
}

TEST(UserExtractor, RegisteredIsFound) {
    const FeatureInfo& info = registered();
    EXPECT_EQ(find_feature("mean_abs_diff"), &info);
    EXPECT_EQ(find_feature_providing("user_feature_mean_abs_diff_score"), &info);
    EXPECT_EQ(feature_output_name("user_feature_mean_abs_diff_score"), "mean_abs_diff");
    const std::vector<FeatureInfo> all = feature_registry();
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.back().name, "mean_abs_diff");  // after the built-ins
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const FeatureInfo& f) { return f.name == "adm"; }));
    const ExtractorSpec spec = parse_feature_spec("mean_abs_diff=gain=2");
    EXPECT_EQ(spec.info, &info);
    EXPECT_EQ(spec.options.number("gain"), 2.0);
}

TEST(UserExtractor, RefusedRegistrations) {
    registered();
    EXPECT_THROW(register_feature(mean_abs_diff_info()), Error);  // the name is taken
    FeatureInfo clash = mean_abs_diff_info();
    clash.name = "clash";
    clash.provided = {{"integer_adm2", ""}};  // adm's alias
    EXPECT_THROW(register_feature(clash), Error);
    FeatureInfo no_make = mean_abs_diff_info();
    no_make.name = "no_make";
    no_make.provided = {{"no_make_score", ""}};
    no_make.make = nullptr;
    EXPECT_THROW(register_feature(no_make), Error);
    FeatureInfo unnamed = mean_abs_diff_info();
    unnamed.name = "";
    EXPECT_THROW(register_feature(unnamed), Error);
    EXPECT_EQ(find_feature("clash"), nullptr);
    EXPECT_EQ(find_feature("no_make"), nullptr);
}

// A session scores it like a built-in, beside one, at 0 and 2 threads, and
// writes the values the extractor's definition gives on the clip (computed
// here from the decoded pictures), under the key its option suffixes.
TEST(UserExtractor, ScoredInASession) {
    registered();
    const std::string pair = test::corpus_pairs().front();
    const std::string ref_path = test::clip(pair, "ref").string();
    const std::string dis_path = test::clip(pair, "dis").string();
    std::vector<double> expected;
    {
        auto ref = open_video(ref_path);
        auto dis = open_video(dis_path);
        Picture r, d;
        while (ref->read(r) && dis->read(d))
            expected.push_back(2.5 * MeanAbsDiff::mean_abs_diff(r.luma(), d.luma()));
    }
    ASSERT_GT(expected.size(), 1u);
    ASSERT_GT(*std::max_element(expected.begin(), expected.end()), 0.0);
    for (const unsigned threads : {0u, 2u}) {
        auto ref = open_video(ref_path);
        auto dis = open_video(dis_path);
        ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.threads = threads;
        cfg.features = {"psnr", "mean_abs_diff=gain=2.5"};
        const ScoreRun run = score(*ref, *dis, cfg);
        ASSERT_EQ(run.frames, expected.size());
        const std::vector<std::string> keys = run.values.keys();
        EXPECT_NE(std::find(keys.begin(), keys.end(), "psnr_y"), keys.end());
        for (unsigned f = 0; f < run.frames; ++f) {
            const auto v = run.values.value("mean_abs_diff_g_2.5", f);
            ASSERT_TRUE(v.has_value()) << "frame " << f << ", threads " << threads;
            EXPECT_EQ(*v, expected[f]) << "frame " << f << ", threads " << threads;
        }
    }
}

}  // namespace
