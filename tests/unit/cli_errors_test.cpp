// Bad invocations: each must end with exactly one line on stderr and a
// non-zero exit status, never a crash or a score.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/compute.hpp"

namespace vmafpp {
namespace {

namespace fs = std::filesystem;

// Several test processes start at once and each writes these files while
// listing its tests: write to a private name, then rename (atomic), so a
// reader never sees a half-written file. The content is deterministic.
void write_atomically(const fs::path& p, const std::string& data) {
    const fs::path tmp = p.string() + ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp, std::ios::binary) << data;
    fs::rename(tmp, p);
}

fs::path dir() {
    fs::path d = test::work_dir() / "cli_errors";
    fs::create_directories(d);
    return d;
}

bool g_materialise = false;  // false while listing tests: only compute paths

// A Y4M file of `frames` frames with a moving gradient; `cut` drops that many
// bytes from the end.
fs::path y4m(const std::string& name, int w, int h, const std::string& tag, int frames,
             std::size_t cut = 0) {
    const fs::path p = dir() / name;
    if (!g_materialise) return p;
    const int bps = tag.find("p1") != std::string::npos ? 2 : 1;
    const bool sub_x = tag.rfind("420", 0) == 0 || tag.rfind("422", 0) == 0;
    const bool sub_y = tag.rfind("420", 0) == 0;
    const int cw = sub_x ? (w + 1) / 2 : w, ch = sub_y ? (h + 1) / 2 : h;
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) +
                       " F25:1 Ip A1:1 C" + tag + "\n";
    for (int f = 0; f < frames; ++f) {
        data += "FRAME\n";
        const std::size_t n = (std::size_t(w) * h + 2 * std::size_t(cw) * ch) * bps;
        for (std::size_t i = 0; i < n; ++i) data.push_back(char((i * 7 + f * 3) % 200 + 16 * (bps == 1)) );
        if (bps == 2)
            for (std::size_t i = data.size() - n + 1; i < data.size(); i += 2) data[i] = 0;
    }
    data.resize(data.size() - cut);
    write_atomically(p, data);
    return p;
}

fs::path text_file(const std::string& name, const std::string& content) {
    const fs::path p = dir() / name;
    if (g_materialise) write_atomically(p, content);
    return p;
}

// A two-feature nu-SVR model of our own; `gamma` and the second slope vary.
std::string small_model(const std::string& gamma, const std::string& slope) {
    return R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale", )"
           R"("feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"], )"
           R"("slopes": [-0.5, )" + slope + R"(, 0.05], "intercepts": [0.2, -0.1, 0.0], )"
           R"("model": "svm_type nu_svr\nkernel_type rbf\ngamma )" + gamma +
           R"(\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n2.0 1:0.5 2:0.25 \n-1.0 1:0.75 2:0.125 \n"}})";
}

struct Case {
    std::string name;
    std::string args;
    std::string expect;  // a fragment the message must contain
};

std::vector<Case> cases() {
    const std::string good = y4m("good.y4m", 64, 64, "420jpeg", 3).string();
    const std::string q = " -q -o " + (dir() / "out.xml").string();
    auto rd = [&](const std::string& r, const std::string& d) { return "-r " + r + " -d " + d; };
    return {
        {"MissingReference", rd((dir() / "nope.y4m").string(), good), "nope.y4m"},
        {"MissingDistortedFlag", "-r " + good, "--distorted"},
        {"SizeMismatch", rd(good, y4m("small.y4m", 48, 64, "420jpeg", 3).string()), "differ"},
        {"ChromaMismatch", rd(good, y4m("c444.y4m", 64, 64, "444", 3).string()), "differ"},
        {"BitDepthMismatch", rd(good, y4m("p10.y4m", 64, 64, "420p10", 3).string()), "differ"},
        {"BadY4mHeader", rd(good, text_file("bad.y4m", "YUV4MPEG2 Wabc H64\n").string()), "bad Y4M header"},
        {"NotY4m", rd(text_file("garbage.y4m", "hello world\n").string(), good), "not a Y4M"},
        {"EmptyFile", rd(text_file("empty.y4m", "").string(), good), "not a Y4M"},
        {"UnknownChromaTag", rd(good, y4m("alpha.y4m", 64, 64, "444alpha", 1).string()), "chroma tag"},
        {"TruncatedFrame", rd(good, y4m("trunc.y4m", 64, 64, "420jpeg", 3, 100).string()), "truncated"},
        {"DistortedHasNoFrames", rd(good, text_file("header_only.y4m", "YUV4MPEG2 W64 H64 C420jpeg\n").string()),
         "the distorted video has no frames"},
        {"UnknownFeature", rd(good, good) + " --feature nosuch", "unknown feature"},
        {"UnknownFeatureOption", rd(good, good) + " --feature adm=nosuch=1", "unknown option"},
        {"BadOptionValue", rd(good, good) + " --feature adm=adm_enhn_gain_limit=abc", "not a finite number"},
        {"OptionOutOfRange", rd(good, good) + " --feature adm=adm_enhn_gain_limit=-5", "outside"},
        {"MissingModel", rd(good, good) + " -m version=vmaf_v9", "vmaf_v9"},
        {"MissingModelFile", rd(good, good) + " -m path=" + (dir() / "none.json").string(), "none.json"},
        {"UnreadableModelJson", rd(good, good) + " -m path=" + text_file("m.json", "{\"model_dict\": [").string(), "m.json"},
        {"ModelOverflowsToNaN", rd(good, good) + " -m path=" + text_file("nan.json", small_model("-1e300", "1.0")).string(), "not a number"},
        {"ModelWithInfinity", rd(good, good) + " -m path=" + text_file("inf.json", small_model("0.05", "1e999")).string(), "inf.json"},
        {"RawWidthZero", rd(good, good) + " -w 0 -h 64 -p 420 -b 8", "width"},
        {"RawMissingPixelFormat", rd(good, good) + " -w 64 -h 64 -b 8", "--pixel_format"},
        {"RawBadPixelFormat", rd(good, good) + " -w 64 -h 64 -p 411 -b 8", "411"},
        {"RawFileNotWholeFrames", rd(text_file("odd.yuv", std::string(6144 + 5, 'x')).string(),
                                     text_file("odd2.yuv", std::string(6144 + 5, 'x')).string()) +
                                      " -w 64 -h 64 -p 420 -b 8", "truncated"},
        // A Y4M file read as raw YUV would score its header as pixels.
        {"Y4mWithRawFlags", rd(good, good) + " -w 64 -h 64 -p 420 -b 8", "a Y4M file, which -w/-h/-p/-b"},
        {"UnknownFlag", rd(good, good) + " --bogus", "bogus"},
        {"NonNumericThreads", rd(good, good) + " --threads many", "threads"},
        {"BadPrecision", rd(good, good) + " --precision 99", "precision"},
        // --device_only refuses instead of scoring on the CPU (the refusal of
        // a feature without a twin needs a device: VulkanCli, CudaCli).
        {"DeviceOnlyOnTheCpuBackend", rd(good, good) + " --device_only",
         "--device_only needs a device backend"},
        {"DeviceOnlyWithGpumask", rd(good, good) + " --backend " +
         std::string(backend_name(built_backends().back())) + " --device_only --gpumask 1",
         built_backends().size() > 1 ? "keeps every extractor on the CPU" : "needs a device backend"},
    };
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class CliError : public ::testing::TestWithParam<Case> {};

TEST_P(CliError, OneLineAndNonZeroExit) {
    const Case& c = GetParam();
    static const bool inputs_written = [] {
        g_materialise = true;
        cases();
        return true;
    }();
    ASSERT_TRUE(inputs_written);
    std::string out;
    const std::string q = " -q -o " + (dir() / (c.name + ".xml")).string();
    const int rc = test::run_command(std::string(VMAFPP_CLI) + " " + c.args + q, &out);
    EXPECT_NE(rc, 0) << out;
    EXPECT_LT(rc, 128) << "killed by a signal: " << out;
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n') << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
    EXPECT_NE(out.find(c.expect), std::string::npos) << "message lacks \"" << c.expect << "\": " << out;
    EXPECT_FALSE(fs::exists(dir() / (c.name + ".xml"))) << "an output file was written";
}

INSTANTIATE_TEST_SUITE_P(Cli, CliError, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// `vmafpp merge` on hostile chunk files: the same one line and non-zero exit,
// at once (a device or fifo is never read, a huge file never loaded: before
// the limit, /dev/zero grew merge to 16 GB in a minute). The args are given
// to `vmafpp merge`, followed by -o and --json.
std::vector<Case> merge_cases() {
    const std::string good = y4m("good.y4m", 64, 64, "420jpeg", 3).string();
    const fs::path chunk = dir() / "chunk.json";
    const fs::path fifo = dir() / "chunk.fifo";
    const fs::path sparse = dir() / "huge_chunk.json";
    if (g_materialise) {
        test::run_command(std::string(VMAFPP_CLI) + " -q -r " + good + " -d " + good +
                          " --frame_range 0:3 --chunk_out " + chunk.string());
        fs::remove(fifo);
        ::mkfifo(fifo.c_str(), 0600);  // no writer: reading it would wait forever
        { std::ofstream(sparse, std::ios::binary); }
        fs::resize_file(sparse, std::uintmax_t{1} << 30);  // sparse: costs no disk
    }
    return {
        {"DevZero", "/dev/zero", "chunk file /dev/zero is not a regular file"},
        {"Fifo", fifo.string(), "chunk file " + fifo.string() + " is not a regular file"},
        {"Directory", dir().string(), "chunk file " + dir().string() + " is a directory"},
        {"OverTheLimit", sparse.string(), "is 1024 MiB, over the 256 MiB limit for a chunk"},
        {"Missing", (dir() / "no_chunk.json").string(), "cannot open chunk file"},
        {"NotJson", text_file("garbage_chunk.json", "hello").string(), "garbage_chunk.json"},
        {"GoodThenDevZero", chunk.string() + " /dev/zero", "/dev/zero is not a regular file"},
    };
}

class MergeError : public ::testing::TestWithParam<Case> {};

TEST_P(MergeError, OneLineAndNonZeroExit) {
    const Case& c = GetParam();
    static const bool inputs_written = [] {
        g_materialise = true;
        merge_cases();
        return true;
    }();
    ASSERT_TRUE(inputs_written);
    const fs::path out = dir() / ("merge_" + c.name + ".json");
    std::string got;
    const auto t0 = std::chrono::steady_clock::now();
    // timeout: a merge that reads a fifo or a device would never end.
    const int rc = test::run_command("timeout 60 " + std::string(VMAFPP_CLI) + " merge " + c.args +
                                         " -o " + out.string() + " --json",
                                     &got);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    EXPECT_NE(rc, 0) << got;
    EXPECT_LT(rc, 124) << "timed out or killed by a signal: " << got;
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got.back(), '\n') << got;
    EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 1) << got;
    EXPECT_NE(got.find(c.expect), std::string::npos) << "message lacks \"" << c.expect << "\": " << got;
    EXPECT_FALSE(fs::exists(out)) << "an output file was written";
}

INSTANTIATE_TEST_SUITE_P(Merge, MergeError, ::testing::ValuesIn(merge_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace vmafpp
