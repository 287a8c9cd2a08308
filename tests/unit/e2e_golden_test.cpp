// End to end: the CLI against libvmaf 3.2.0's golden outputs, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <string>

#include "support/corpus.hpp"

namespace vmafpp {
namespace {

using nlohmann::json;

// Runs the CLI on a corpus pair and returns its JSON output.
json run_cli(const std::string& pair, const std::string& extra, const std::string& tag) {
    const auto ref = test::clip(pair, "ref"), dis = test::clip(pair, "dis");
    const auto out = test::work_dir() / (pair + "." + tag + ".json");
    std::string log;
    const std::string cmd = std::string(VMAFPP_CLI) + " -r '" + ref.string() + "' -d '" +
                            dis.string() + "' -q --json --precision max -o '" + out.string() +
                            "' " + extra;
    const int rc = test::run_command(cmd, &log);
    EXPECT_EQ(rc, 0) << cmd << "\n" << log;
    std::ifstream in(out);
    if (!in) {
        ADD_FAILURE() << "no output from " << cmd << "\n" << log;
        return json::object();
    }
    return json::parse(in);
}

// Exact comparison: the goldens print %.17g, which round-trips a double, and
// nlohmann parses to the nearest double, so equal text means equal bits.
void expect_same_metrics(const json& got, const json& want, const std::string& what) {
    ASSERT_TRUE(got.contains("frames")) << what;
    ASSERT_EQ(got["frames"].size(), want["frames"].size()) << what;
    for (std::size_t i = 0; i < want["frames"].size(); ++i) {
        const json& w = want["frames"][i];
        const json& g = got["frames"][i];
        EXPECT_EQ(g["frameNum"], w["frameNum"]) << what;
        for (const auto& [key, value] : w["metrics"].items()) {
            ASSERT_TRUE(g["metrics"].contains(key)) << what << " frame " << i << " lacks " << key;
            if (value.is_null()) {
                EXPECT_TRUE(g["metrics"][key].is_null()) << what << " frame " << i << " " << key;
                continue;
            }
            EXPECT_EQ(g["metrics"][key].get<double>(), value.get<double>())
                << what << " frame " << i << " " << key;
        }
        EXPECT_EQ(g["metrics"].size(), w["metrics"].size()) << what << " frame " << i;
    }
    for (const auto& [key, pooled] : want["pooled_metrics"].items()) {
        ASSERT_TRUE(got["pooled_metrics"].contains(key)) << what << " pooled " << key;
        for (const auto& [method, value] : pooled.items()) {
            if (value.is_null()) continue;
            EXPECT_EQ(got["pooled_metrics"][key][method].get<double>(), value.get<double>())
                << what << " pooled " << key << " " << method;
        }
    }
}

std::vector<std::string> target_pairs() {
    std::vector<std::string> out;
    // p21 (18x18): libvmaf reads memory it never wrote; not a reference.
    for (const auto& p : test::corpus_pairs())
        if (p.rfind("p21_", 0) != 0) out.push_back(p);
    return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, DefaultModel) {
    expect_same_metrics(run_cli(GetParam(), "--threads 1", "default"),
                        test::golden(GetParam(), "default.json"), GetParam() + " default");
}

// With no worker threads every extractor runs on the reading thread, ADM,
// VIF and the others sharing one scratch block (base/frame_scratch.hpp).
TEST_P(Golden, DefaultModelWithoutWorkers) {
    expect_same_metrics(run_cli(GetParam(), "--threads 0", "default_t0"),
                        test::golden(GetParam(), "default.json"), GetParam() + " default --threads 0");
}

struct GoldenRun {
    const char* file;
    const char* args;
};

// Runs every case whose golden file exists for the pair; returns how many ran.
int expect_goldens(const std::string& pair, std::initializer_list<GoldenRun> cases) {
    int ran = 0;
    for (const GoldenRun& c : cases) {
        if (!test::has_golden(pair, c.file)) continue;
        ++ran;
        expect_same_metrics(run_cli(pair, c.args, c.file), test::golden(pair, c.file),
                            pair + " " + c.file);
    }
    return ran;
}

TEST_P(Golden, ExtraModels) {
    const int ran = expect_goldens(GetParam(), {
        {"model_vmaf_4k_v0.6.1.json", "-m version=vmaf_4k_v0.6.1"},
        {"model_vmaf_v0.6.1neg.json", "-m version=vmaf_v0.6.1neg"},
        {"model_vmaf_b_v0.6.3.json", "-m version=vmaf_b_v0.6.3"},
    });
    if (!ran) GTEST_SKIP() << "no extra-model golden for this pair";
}

TEST_P(Golden, FrameSelection) {
    const int ran = expect_goldens(GetParam(), {
        {"subsample3.json", "--subsample 3"},
        {"frame_cnt5.json", "--frame_cnt 5"},
        {"skip_ref2_dist1.json", "--frame_skip_ref 2 --frame_skip_dist 1"},
    });
    if (!ran) GTEST_SKIP() << "no frame-selection golden for this pair";
}

TEST_P(Golden, ThreadsGiveIdenticalOutput) {
    const json one = run_cli(GetParam(), "--threads 1", "t1");
    const json two = run_cli(GetParam(), "--threads 2", "t2");
    EXPECT_EQ(one["frames"], two["frames"]);
    EXPECT_EQ(one["pooled_metrics"], two["pooled_metrics"]);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Golden, ::testing::ValuesIn(target_pairs()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace vmafpp
