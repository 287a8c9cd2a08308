// Output writers: libvmaf 3.2.0's JSON re-created byte for byte from the
// goldens, and the XML/CSV/SUB layouts of libvmaf's output.c on a small case.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "support/corpus.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/results.hpp"

namespace vmafpp {
namespace {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The golden's frames (keys in their written order) and aggregate metrics
// (apsnr_*, written by the CTC presets) into Results; null
// values become NaN (the pooled values are recomputed by the writer).
Results results_from_golden(const ordered_json& g, unsigned frame_count, unsigned subsample) {
    Results r;
    r.version = g["version"].get<std::string>();
    // libvmaf writes null for an infinite fps (a run too short to time).
    r.fps = g["fps"].is_null() ? std::numeric_limits<double>::infinity() : g["fps"].get<double>();
    r.frame_count = frame_count;
    r.subsample = subsample;
    for (const auto& frame : g["frames"]) {
        const unsigned n = frame["frameNum"].get<unsigned>();
        for (const auto& [key, value] : frame["metrics"].items())
            r.set(key, n, value.is_null() ? std::numeric_limits<double>::quiet_NaN()
                                          : value.get<double>());
    }
    if (g.contains("aggregate_metrics"))
        for (const auto& [key, value] : g["aggregate_metrics"].items())
            r.aggregate.emplace_back(key, value.get<double>());
    return r;
}

TEST(Output, JsonAtMaxPrecisionReproducesEveryGolden) {
    int files = 0;
    for (const auto& pair : test::corpus_pairs()) {
        const unsigned frames = test::manifest_entry(pair)["frames"].get<unsigned>();
        for (const auto& entry : fs::directory_iterator(test::corpus_dir() / "golden" / pair)) {
            if (entry.path().extension() != ".json") continue;
            const std::string name = entry.path().filename().string();
            SCOPED_TRACE(pair + "/" + name);
            const std::string text = read_text(entry.path());
            const ordered_json g = ordered_json::parse(text);
            const unsigned subsample = name == "subsample3.json" ? 3 : 1;
            unsigned frame_count = static_cast<unsigned>(g["frames"].size());
            if (subsample > 1) frame_count = frames;
            const Results r = results_from_golden(g, frame_count, subsample);
            const std::string out = render_results(r, OutputFormat::json, Precision::max());
            EXPECT_EQ(out, text);
            ++files;
        }
    }
    EXPECT_GE(files, 128);  // every golden JSON of the corpus
}

// Two metrics over three frames; "b" has no value on frame 1 and a NaN on
// frame 2.
Results small_results() {
    Results r;
    r.version = std::string("X");
    r.fps = 12.3456;
    r.width = 64;
    r.height = 48;
    r.frame_count = 3;
    r.set("a", 0, 0.5);
    r.set("b", 0, 1e-7);
    r.set("a", 1, 100.0);
    r.set("a", 2, -2.25);
    r.set("b", 2, std::numeric_limits<double>::quiet_NaN());
    return r;
}

TEST(Output, LegacyNumbersFollowLibvmafsLeadingZeroRule) {
    const auto p = Precision::legacy();
    EXPECT_EQ(format_number(0.5, p), "0.500000");
    EXPECT_EQ(format_number(100.0, p), "100.000000");
    EXPECT_EQ(format_number(-2.25, p), "-2.250000");
    EXPECT_EQ(format_number(0.0, p), "0.000000");
    // Six zeros after the point still print "%.6f", seven switch to "%.16f".
    EXPECT_EQ(format_number(0.0000012, p), "0.000001");
    EXPECT_EQ(format_number(0.00000012, p), "0.0000001200000000");
    EXPECT_EQ(format_number(12.00000001, p), "12.0000000100000008");
    EXPECT_EQ(format_number(1e-7, p), "0.0000001000000000");
    EXPECT_EQ(format_number(3e9, p), "3000000000.000000");
    EXPECT_EQ(format_number(0.1, Precision::max()), "0.10000000000000001");
    EXPECT_EQ(format_number(0.1, parse_precision("3")), "0.1");
    EXPECT_EQ(format_number(94.669892746847324, parse_precision("5")), "94.67");
}

TEST(Output, ParsesPrecisionAndFormat) {
    EXPECT_EQ(parse_precision("legacy").digits, 0);
    EXPECT_EQ(parse_precision("max").digits, 17);
    EXPECT_EQ(parse_precision("17").digits, 17);
    EXPECT_EQ(parse_precision("1").digits, 1);
    EXPECT_THROW(parse_precision("0"), Error);
    EXPECT_THROW(parse_precision("18"), Error);
    EXPECT_THROW(parse_precision("3x"), Error);
    EXPECT_THROW(parse_precision(""), Error);
    EXPECT_EQ(parse_output_format("xml"), OutputFormat::xml);
    EXPECT_EQ(parse_output_format("sub"), OutputFormat::sub);
    EXPECT_THROW(parse_output_format("yaml"), Error);
}

TEST(Output, XmlLayout) {
    Results r = small_results();
    r.frame_count = 2;  // pool frames 0 and 1: "b" lacks frame 1, so no pool
    r.aggregate.emplace_back("agg", 0.25);
    const std::string expected =
        "<VMAF version=\"X\">\n"
        "  <params qualityWidth=\"64\" qualityHeight=\"48\" />\n"
        "  <fyi fps=\"12.35\" />\n"
        "  <frames>\n"
        "    <frame frameNum=\"0\" a=\"0.500000\" b=\"0.0000001000000000\" />\n"
        "    <frame frameNum=\"1\" a=\"100.000000\" />\n"
        "    <frame frameNum=\"2\" a=\"-2.250000\" b=\"nan\" />\n"
        "  </frames>\n"
        "  <pooled_metrics>\n"
        "    <metric name=\"a\" min=\"0.500000\" max=\"100.000000\" mean=\"50.250000\" "
        "harmonic_mean=\"1.956098\" />\n"
        "    <metric name=\"b\" />\n"
        "  </pooled_metrics>\n"
        "  <aggregate_metrics agg=\"0.250000\" />\n"
        "</VMAF>\n";
    EXPECT_EQ(render_results(r, OutputFormat::xml, Precision::legacy()), expected);
}

TEST(Output, JsonLayoutWithNullAndMissingPool) {
    Results r = small_results();
    r.frame_count = 3;
    r.aggregate.emplace_back("agg", 0.25);
    r.aggregate.emplace_back("inf", std::numeric_limits<double>::infinity());
    // harmonic mean of a over 0.5, 100, -2.25: 3 / (1/1.5 + 1/101 + 1/-1.25) - 1
    const double hm = 3 / (((0. + 1. / 1.5) + 1. / 101.) + 1. / -1.25) - 1.0;
    char hm_text[64];
    std::snprintf(hm_text, sizeof hm_text, "%.6f", hm);
    const std::string expected =
        "{\n"
        "  \"version\": \"X\",\n"
        "  \"fps\": 12.35,\n"
        "  \"frames\": [\n"
        "    {\n"
        "      \"frameNum\": 0,\n"
        "      \"metrics\": {\n"
        "        \"a\": 0.500000,\n"
        "        \"b\": 0.0000001000000000\n"
        "      }\n"
        "    },\n"
        "    {\n"
        "      \"frameNum\": 1,\n"
        "      \"metrics\": {\n"
        "        \"a\": 100.000000\n"
        "      }\n"
        "    },\n"
        "    {\n"
        "      \"frameNum\": 2,\n"
        "      \"metrics\": {\n"
        "        \"a\": -2.250000,\n"
        "        \"b\": null      }\n"
        "    }\n"
        "  ],\n"
        "  \"pooled_metrics\": {\n"
        "    \"a\": {\n"
        "      \"min\": -2.250000,\n"
        "      \"max\": 100.000000,\n"
        "      \"mean\": 32.750000,\n"
        "      \"harmonic_mean\": " + std::string(hm_text) + "\n"
        "    },\n"
        "    \"b\": {\n"
        "    }\n"
        "  },\n"
        "  \"aggregate_metrics\": {\n"
        "    \"agg\": 0.250000,\n"
        "    \"inf\": null\n"
        "  }\n"
        "}\n";
    const std::string out = render_results(r, OutputFormat::json, Precision::legacy());
    EXPECT_EQ(out, expected);
    EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(Output, JsonNullPoolAndNonFiniteFps) {
    Results r;
    r.version = std::string("X");
    r.fps = std::numeric_limits<double>::infinity();
    r.frame_count = 1;
    r.set("c", 0, std::numeric_limits<double>::quiet_NaN());
    const std::string out = render_results(r, OutputFormat::json, Precision::max());
    EXPECT_NE(out.find("\"fps\": null,\n"), std::string::npos) << out;
    EXPECT_NE(out.find("      \"min\": null,\n      \"max\": null,\n      \"mean\": null,\n"
                       "      \"harmonic_mean\": null\n"),
              std::string::npos)
        << out;
    EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(Output, CsvLayoutKeepsColumns) {
    const std::string expected =
        "Frame,a,b,\n"
        "0,0.500000,0.0000001000000000,\n"
        "1,100.000000,,\n"
        "2,-2.250000,nan,\n";
    EXPECT_EQ(render_results(small_results(), OutputFormat::csv, Precision::legacy()), expected);
}

TEST(Output, SubLayout) {
    const std::string expected =
        "{0}{1}frame: 0|a: 0.5|b: 1e-07|\n"
        "{1}{2}frame: 1|a: 100|\n"
        "{2}{3}frame: 2|a: -2.25|b: nan|\n";
    EXPECT_EQ(render_results(small_results(), OutputFormat::sub, parse_precision("6")), expected);
}

TEST(Output, SubsampleSkipsFramesInEveryFormat) {
    Results r;
    r.version = std::string("X");
    r.frame_count = 5;
    r.subsample = 2;
    for (unsigned i = 0; i < 5; ++i) r.set("v", i, i);
    EXPECT_EQ(render_results(r, OutputFormat::sub, Precision::max()),
              "{0}{1}frame: 0|v: 0|\n{2}{3}frame: 2|v: 2|\n{4}{5}frame: 4|v: 4|\n");
    EXPECT_EQ(render_results(r, OutputFormat::csv, Precision::max()),
              "Frame,v,\n0,0,\n2,2,\n4,4,\n");
    const auto pooled = r.pooled(r.metrics[0]);
    ASSERT_TRUE(pooled);
    EXPECT_EQ(pooled->mean, 2.0);
    EXPECT_EQ(pooled->max, 4.0);
}

TEST(Output, SummaryLine) {
    Results r = small_results();
    EXPECT_EQ(summary_line(r, "a"),
              "a: mean 32.750000 (min -2.250000, max 100.000000, harmonic_mean " +
                  [] {
                      char b[64];
                      std::snprintf(b, sizeof b, "%.6f",
                                    3 / (((0. + 1. / 1.5) + 1. / 101.) + 1. / -1.25) - 1.0);
                      return std::string(b);
                  }() +
                  ")");
    EXPECT_EQ(summary_line(r, "b"), "b: no pooled value");
    EXPECT_EQ(summary_line(r, "zzz"), "zzz: no pooled value");
}

TEST(Pooling, HarmonicMeanAndNaNFirstFrame) {
    const std::vector<std::optional<double>> v = {0.0, 3.0};
    const auto p = pool(v, 2, 1);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->harmonic_mean, 2 / (1.0 + 0.25) - 1.0);
    EXPECT_EQ(p->min, 0.0);
    // A NaN on frame 0 stays the min and max, as libvmaf's comparisons do.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<std::optional<double>> w = {nan, 3.0};
    const auto q = pool(w, 2, 1);
    ASSERT_TRUE(q);
    EXPECT_TRUE(std::isnan(q->min));
    EXPECT_TRUE(std::isnan(q->max));
    EXPECT_FALSE(pool(w, 3, 1).has_value());  // frame 2 missing
    EXPECT_FALSE(pool(w, 0, 1).has_value());
}

}  // namespace
}  // namespace vmafpp
