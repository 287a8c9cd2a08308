// End to end, ADM only: the CLI's integer ADM output must be byte-identical
// at every dispatch level (--cpumask 4294967295 = scalar, 48 = AVX2 at most,
// default), on every corpus pair at the default gain limit and at 1.2 and 1.5
// (those also against libvmaf's scalar goldens), and on generated content at
// every width 17..260. On a CPU without AVX2 all levels run the scalar
// kernels and the comparison is trivially equal; the kernel harness
// (vmafpp_adm_checkasm) reports that as skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/simd_run.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp {
namespace {

using nlohmann::json;

const char* const kMasks[] = {"4294967295", "48", ""};

// The output text without its "fps" line (a timing, not a result).
std::string read_results(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::string line, out;
    while (std::getline(in, line))
        if (line.find("\"fps\":") == std::string::npos) out += line + "\n";
    return out;
}

// "" when equal, else the first differing line of each.
std::string first_difference(const std::string& a, const std::string& b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int n = 1;; ++n) {
        const bool ea = !std::getline(sa, la), eb = !std::getline(sb, lb);
        if (ea && eb) return "";
        if (ea != eb || la != lb)
            return "line " + std::to_string(n) + ": scalar '" + (ea ? "<end>" : la) + "' vs '" +
                   (eb ? "<end>" : lb) + "'";
    }
}

// The CLI's JSON text at one --cpumask ("" = default dispatch).
std::string run_cli(const std::string& ref, const std::string& dis, const std::string& args,
                    const std::string& mask, const std::string& tag) {
    const auto out = test::work_dir() / ("adm_simd." + tag + ".mask" + (mask.empty() ? "def" : mask) + ".json");
    std::string log;
    const std::string cmd = std::string(VMAFPP_CLI) + " -r '" + ref + "' -d '" + dis +
                            "' -q -n --json --precision max --threads 1 -o '" + out.string() + "' " +
                            args + (mask.empty() ? "" : " --cpumask " + mask);
    const int rc = test::run_command(cmd, &log);
    EXPECT_EQ(rc, 0) << cmd << "\n" << log;
    return read_results(out);
}

// Runs every level; expects identical text and returns the parsed output.
json run_all_levels(const std::string& ref, const std::string& dis, const std::string& args,
                    const std::string& tag) {
    const std::string scalar = run_cli(ref, dis, args, kMasks[0], tag);
    for (int m = 1; m < 3; ++m) {
        const std::string other = run_cli(ref, dis, args, kMasks[m], tag);
        EXPECT_EQ(first_difference(scalar, other), "") << tag << ": --cpumask " << kMasks[m] << " differs from the scalar path ("
                                 << args << ")";
    }
    return scalar.empty() ? json::object() : json::parse(scalar);
}

std::vector<std::string> target_pairs() {
    std::vector<std::string> out;
    for (const auto& p : test::corpus_pairs())
        if (p.rfind("p21_", 0) != 0) out.push_back(p);  // 18x18: not a target
    return out;
}

class AdmLevels : public ::testing::TestWithParam<std::string> {};

TEST_P(AdmLevels, IdenticalAtEveryLevelAndGainLimit) {
    const std::string pair = GetParam();
    const std::string ref = test::clip(pair, "ref").string(), dis = test::clip(pair, "dis").string();
    run_all_levels(ref, dis, "--feature adm", pair + ".egl100");
    for (const char* gain : {"1.2", "1.5"}) {
        const json got = run_all_levels(ref, dis, std::string("--feature 'adm=adm_enhn_gain_limit=") + gain + "'",
                                        pair + ".egl" + gain);
        const json want = test::golden(pair, std::string("gain_") + gain + ".json");
        ASSERT_TRUE(got.contains("frames"));
        ASSERT_EQ(got["frames"].size(), want["frames"].size());
        for (std::size_t i = 0; i < want["frames"].size(); ++i)
            for (const auto& [key, value] : want["frames"][i]["metrics"].items()) {
                ASSERT_TRUE(got["frames"][i]["metrics"].contains(key)) << pair << " " << key;
                EXPECT_EQ(got["frames"][i]["metrics"][key].get<double>(), value.get<double>())
                    << pair << " gain " << gain << " frame " << i << " " << key;
            }
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, AdmLevels, ::testing::ValuesIn(target_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

// Writes a 4:2:0 8-bit Y4M of `frames` frames: a textured ramp for the
// reference, a noisier, shifted copy for the distorted clip.
void write_y4m(const std::filesystem::path& path, int w, int h, int frames, bool distorted, unsigned seed) {
    std::ofstream out(path, std::ios::binary);
    out << "YUV4MPEG2 W" << w << " H" << h << " F25:1 Ip A1:1 C420jpeg\n";
    std::mt19937 rng(seed);
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    std::vector<unsigned char> y(static_cast<std::size_t>(w * h)), c(static_cast<std::size_t>(cw * ch), 128);
    for (int f = 0; f < frames; ++f) {
        for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) {
                int v = (i * 7 + j * 3 + f * 5) % 200 + ((i / 3 + j / 2) % 2) * 40 + static_cast<int>(rng() % 9);
                if (distorted) v += static_cast<int>(rng() % 31) - 15;
                y[static_cast<std::size_t>(j * w + i)] = static_cast<unsigned char>(std::clamp(v, 0, 255));
            }
        out << "FRAME\n";
        out.write(reinterpret_cast<const char*>(y.data()), static_cast<std::streamsize>(y.size()));
        out.write(reinterpret_cast<const char*>(c.data()), static_cast<std::streamsize>(c.size()));
        out.write(reinterpret_cast<const char*>(c.data()), static_cast<std::streamsize>(c.size()));
    }
}

// Every width 17..260 (17 is the smallest ADM accepts; all residues of the
// 8- and 16-sample blocks at every
// scale), 2 frames of height 40, gain limits 100 (even widths) and 1.2 (odd).
TEST(AdmLevels, WidthScanIdenticalAtEveryLevel) {
    // Without AVX2 (as VMAFPP_CPUMASK may show the CPU) every level is the
    // scalar code: nothing to compare.
    if (test::machine_levels().size() < 2) GTEST_SKIP() << "needs AVX2: every level here is the scalar code";
    std::filesystem::create_directories(test::work_dir());
    for (int w = 17; w <= 260; ++w) {
        const auto ref = test::work_dir() / ("adm_scan_ref_" + std::to_string(w) + ".y4m");
        const auto dis = test::work_dir() / ("adm_scan_dis_" + std::to_string(w) + ".y4m");
        write_y4m(ref, w, 40, 2, false, 1000u + static_cast<unsigned>(w));
        write_y4m(dis, w, 40, 2, true, 2000u + static_cast<unsigned>(w));
        const std::string args = w % 2 ? "--feature 'adm=adm_enhn_gain_limit=1.2'" : "--feature adm";
        run_all_levels(ref.string(), dis.string(), args, "scan" + std::to_string(w));
        std::filesystem::remove(ref);
        std::filesystem::remove(dis);
        if (HasFailure()) break;
    }
}

}  // namespace
}  // namespace vmafpp
