// libvmaf 3.2.0's float_adm, float_vif and float_motion against the corpus
// goldens (features_float.json), float_ansnr, float_psnr and float_moment
// against features_float_extra.json, and the integer psnr against
// features_other.json, bit for bit.
#include <gtest/gtest.h>


#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/collector_sink.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "support/golden_cpu.hpp"
#include "vmafpp/collector.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using test::g17;

// Runs the named extractors (default options) over a whole corpus pair in
// frame order, one instance each, as a single-threaded pipeline would.
std::unique_ptr<FeatureCollector> run_pair(const std::string& pair,
                                           const std::vector<std::string>& names) {
    auto ref = open_y4m(test::clip(pair, "ref").string());
    auto dis = open_y4m(test::clip(pair, "dis").string());
    const VideoInfo& info = ref->info();
    FrameGeometry g{info.width, info.height, info.bpc, info.format};
    std::vector<std::unique_ptr<FeatureExtractor>> fx;
    for (const auto& n : names) {
        const FeatureInfo* fi = find_feature(n);
        if (!fi) throw Error("no feature " + n);
        fx.push_back(fi->create(OptionValues(fi->options), g));
    }
    auto owned = std::make_unique<FeatureCollector>();
    FeatureCollector& c = *owned;
    Picture r, d;
    unsigned frame = 0;
    while (ref->read(r)) {
        if (!dis->read(d)) throw Error("distorted clip is shorter");
        for (std::uint32_t k = 0; k < fx.size(); ++k) {
            detail::CollectorSink sink(c, frame, k);
            fx[k]->extract(r, d, frame, sink);
        }
        ++frame;
    }
    for (std::uint32_t k = 0; k < fx.size(); ++k) {
        detail::CollectorSink sink(c, detail::kFlushCall, k);
        fx[k]->flush(sink);
    }
    return owned;
}

// Every value of every frame of the golden file, compared as doubles.
void expect_golden(const std::string& pair, const std::string& file,
                   const FeatureCollector& c, const std::vector<std::string>& only_keys = {}) {
    const auto golden = test::golden(pair, file);
    const auto& frames = golden["frames"];
    ASSERT_EQ(c.frame_count(), frames.size());
    int compared = 0;
    for (const auto& f : frames) {
        const unsigned n = f["frameNum"];
        for (const auto& [key, value] : f["metrics"].items()) {
            if (!only_keys.empty() &&
                std::find(only_keys.begin(), only_keys.end(), key) == only_keys.end())
                continue;
            const auto got = c.value(key, n);
            ASSERT_TRUE(got.has_value()) << key << " frame " << n;
            const double want = value.get<double>();
            EXPECT_EQ(*got, want) << key << " frame " << n << ": got " << g17(*got)
                                  << " want " << g17(want);
            ++compared;
        }
    }
    EXPECT_GT(compared, 0);
}

using test::target_pairs;

class FloatGolden : public ::testing::TestWithParam<std::string> {};

// VIF and motion against features_float.json; float ADM's keys against the
// golden made on a CPU with this one's rcpss table (support/golden_cpu.hpp).
TEST_P(FloatGolden, FeaturesFloatJsonBitExact) {
    const auto c = run_pair(GetParam(), {"float_adm", "float_vif", "float_motion"});
    expect_golden(GetParam(), "features_float.json", *c,
                  {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "motion", "motion2",
                   "motion3"});
    const std::string adm_file = test::float_adm_golden_file();
    if (adm_file.empty())
        GTEST_SKIP() << "float ADM keys not compared: this CPU's rcpss is neither the AMD nor "
                        "the Intel golden machine's (libvmaf's float ADM is CPU-dependent); "
                        "VIF and motion matched";
    expect_golden(GetParam(), adm_file, *c, test::float_adm_keys());
}

INSTANTIATE_TEST_SUITE_P(Corpus, FloatGolden, ::testing::ValuesIn(target_pairs()));

// float_ansnr, float_psnr and float_moment against features_float_extra.json
// (libvmaf's -n --feature float_ansnr --feature float_psnr --feature
// float_moment).
class FloatExtraGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatExtraGolden, FeaturesFloatExtraJsonBitExact) {
    if (!test::has_golden(GetParam(), "features_float_extra.json"))
        GTEST_SKIP() << "no features_float_extra.json for " << GetParam();
    const auto c = run_pair(GetParam(), {"float_ansnr", "float_psnr", "float_moment"});
    expect_golden(GetParam(), "features_float_extra.json", *c);
}

INSTANTIATE_TEST_SUITE_P(Corpus, FloatExtraGolden, ::testing::ValuesIn(target_pairs()));

// The integer "psnr" extractor against features_other.json (psnr_y/cb/cr of
// the same run; the other features of that file belong to other extractors).
class PsnrGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PsnrGolden, PsnrKeysOfFeaturesOtherJsonBitExact) {
    const auto c = run_pair(GetParam(), {"psnr"});
    expect_golden(GetParam(), "features_other.json", *c, {"psnr_y", "psnr_cb", "psnr_cr"});
}

INSTANTIATE_TEST_SUITE_P(Corpus, PsnrGolden, ::testing::ValuesIn(target_pairs()));

}  // namespace
}  // namespace vmafpp
