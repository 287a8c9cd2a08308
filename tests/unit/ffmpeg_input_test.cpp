// Compressed input through FFmpeg's libraries and --scale through
// libswscale. Each encode is made at test time by the ffmpeg CLI from a corpus
// clip; scoring it directly must give the same bits as decoding (or scaling)
// it with the ffmpeg CLI to Y4M and scoring that. Skipped with a message when
// the ffmpeg CLI is absent or vmafpp was built without FFmpeg.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/ffmpeg_reader.hpp"
#include "support/corpus.hpp"

namespace vmafpp {
namespace {

namespace fs = std::filesystem;

const std::string kCli = VMAFPP_CLI;
constexpr const char* kPair = "p01_astronaut_576x324_420p8_x264crf23";

std::string q(const fs::path& p) { return test::shell_quote(p); }

bool have_ffmpeg_cli() { return test::run_command("command -v ffmpeg") == 0; }

#define SKIP_WITHOUT_FFMPEG()                                                                   \
    do {                                                                                         \
        if (!io::ffmpeg_available()) GTEST_SKIP() << "vmafpp was built without FFmpeg";        \
        if (!have_ffmpeg_cli()) GTEST_SKIP() << "the ffmpeg CLI is not installed (apt-get install ffmpeg)"; \
    } while (0)

fs::path dir() {
    fs::path d = test::work_dir() / "ffmpeg_input";
    fs::create_directories(d);
    return d;
}

// `name` made once by `make` (a command writing to $OUT).
fs::path made(const std::string& name, const std::string& make) {
    return test::made_file(dir(), name, make);
}

// The first 8 frames of the corpus clip, 8-bit and as 10-bit 4:2:0.
fs::path source8() {
    return made("src8.y4m", "ffmpeg -nostdin -v error -i " + q(test::clip(kPair, "ref")) +
                                " -frames:v 8 -strict -1 -f yuv4mpegpipe \"$OUT\"");
}
fs::path source10() {
    return made("src10.y4m", "ffmpeg -nostdin -v error -i " + q(source8()) +
                                 " -pix_fmt yuv420p10le -strict -1 -f yuv4mpegpipe \"$OUT\"");
}

fs::path source444() {
    return made("src444.y4m", "ffmpeg -nostdin -v error -i " + q(source8()) +
                                  " -pix_fmt yuv444p -strict -1 -f yuv4mpegpipe \"$OUT\"");
}

nlohmann::json score(const std::string& args, const std::string& feed = "") {
    static int n = 0;
    const fs::path out = dir() / ("score" + std::to_string(::getpid()) + "_" + std::to_string(n++) + ".json");
    std::string log;
    const std::string cmd = (feed.empty() ? "" : feed + " | ") + kCli + " " + args +
                            " -q --feature psnr --json --precision max -o " + q(out);
    const int rc = test::run_command(cmd, &log);
    EXPECT_EQ(rc, 0) << cmd << "\n" << log;
    if (rc != 0) return {};
    std::ifstream in(out);
    return nlohmann::json::parse(in);
}

// Every per-frame and pooled value of two runs, bit for bit (17 digits);
// returns how many values were compared.
std::size_t expect_same_scores(const nlohmann::json& a, const nlohmann::json& b) {
    std::size_t n = 0;
    EXPECT_EQ(a["frames"].size(), b["frames"].size());
    EXPECT_FALSE(a["frames"].empty());
    for (std::size_t f = 0; f < std::min(a["frames"].size(), b["frames"].size()); ++f) {
        EXPECT_EQ(a["frames"][f]["metrics"], b["frames"][f]["metrics"]) << "frame " << f;
        n += a["frames"][f]["metrics"].size();
    }
    EXPECT_EQ(a["pooled_metrics"], b["pooled_metrics"]);
    n += 4 * a["pooled_metrics"].size();
    return n;
}

struct Encode {
    const char* name;
    const char* file;
    const char* args;  // ffmpeg encoder arguments
    int source;  // 8: 8-bit 4:2:0, 10: 10-bit 4:2:0, 444: 8-bit 4:4:4
};

void PrintTo(const Encode& e, std::ostream* os) { *os << e.name; }

class CompressedInput : public ::testing::TestWithParam<Encode> {};

// x.ext scored directly == ffmpeg -i x.ext -f yuv4mpegpipe (pixel format
// kept) scored, with the encode as distorted and as reference.
TEST_P(CompressedInput, EqualsTheY4mRouteBitForBit) {
    SKIP_WITHOUT_FFMPEG();
    const Encode& e = GetParam();
    const fs::path src = e.source == 10 ? source10() : e.source == 444 ? source444() : source8();
    const fs::path enc = made(e.file, "ffmpeg -nostdin -v error -i " + q(src) + " " + e.args + " \"$OUT\"");
    const std::string decode = "ffmpeg -nostdin -v error -i " + q(enc) + " -strict -1 -f yuv4mpegpipe -";
    const auto direct = score("-r " + q(src) + " -d " + q(enc));
    const auto piped = score("-r " + q(src) + " -d -", decode);
    const std::size_t n = expect_same_scores(direct, piped);
    EXPECT_EQ(direct["frames"].size(), 8u);
    const auto as_ref = score("-r " + q(enc) + " -d " + q(src));
    const auto as_ref_piped = score("-r - -d " + q(src), decode);
    std::cout << e.name << ": " << n + expect_same_scores(as_ref, as_ref_piped)
              << " values equal to the Y4M route\n";
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, CompressedInput,
    ::testing::Values(
        Encode{"H264_mp4", "h264.mp4", "-c:v libx264 -preset fast -crf 30", 8},
        Encode{"HEVC_mkv", "hevc.mkv", "-c:v libx265 -preset fast -crf 30 -x265-params log-level=none", 8},
        Encode{"VP9_webm", "vp9.webm", "-c:v libvpx-vp9 -b:v 300k -deadline realtime -cpu-used 8", 8},
        Encode{"AV1_ivf", "av1.ivf", "-c:v libaom-av1 -crf 40 -cpu-used 8 -row-mt 1", 8},
        Encode{"HEVC10_mkv", "hevc10.mkv",
               "-c:v libx265 -pix_fmt yuv420p10le -preset fast -crf 30 -x265-params log-level=none", 10},
        Encode{"H264_444_mkv", "h264_444.mkv", "-c:v libx264 -preset fast -crf 30", 444},
        Encode{"FFV1_444_mkv", "ffv1_444.mkv", "-c:v ffv1", 444}),
    [](const auto& info) { return std::string(info.param.name); });

// --scale ref on a smaller encode (384x216 against the 576x324 reference,
// the 720p-against-1080p case at test size) == ffmpeg -vf scale=576:324,
// for each scaler; --scale WxH scales both sides as ffmpeg would.
TEST(Scale, EqualsTheFfmpegScaleFilterBitForBit) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path src = source8();
    const fs::path small = made("small.mp4", "ffmpeg -nostdin -v error -i " + q(src) +
                                                 " -vf scale=384:216:flags=bicubic -c:v libx264 -crf 28 \"$OUT\"");
    std::size_t n = 0;
    for (const std::string scaler : {"bicubic", "bilinear", "lanczos", "spline", "neighbor"}) {
        SCOPED_TRACE(scaler);
        const auto ours = score("-r " + q(src) + " -d " + q(small) + " --scale ref --scaler " + scaler);
        const auto theirs = score("-r " + q(src) + " -d -", "ffmpeg -nostdin -v error -i " + q(small) +
                                                               " -vf scale=576:324:flags=" + scaler +
                                                               " -strict -1 -f yuv4mpegpipe -");
        n += expect_same_scores(ours, theirs);
    }
    // Both sides to a model's size; the 10-bit source too.
    const fs::path scaled_src = made("src_288.y4m", "ffmpeg -nostdin -v error -i " + q(source10()) +
                                                        " -vf scale=288:162:flags=bicubic -strict -1 -f yuv4mpegpipe \"$OUT\"");
    const fs::path ten = made("hevc10.mkv", "ffmpeg -nostdin -v error -i " + q(source10()) +
                                                " -c:v libx265 -pix_fmt yuv420p10le -preset fast -crf 30 "
                                                "-x265-params log-level=none \"$OUT\"");
    const auto both = score("-r " + q(source10()) + " -d " + q(ten) + " --scale 288x162");
    const auto both_ffmpeg = score("-r " + q(scaled_src) + " -d -", "ffmpeg -nostdin -v error -i " + q(ten) +
                                                                       " -vf scale=288:162:flags=bicubic -strict -1 -f yuv4mpegpipe -");
    n += expect_same_scores(both, both_ffmpeg);
    std::cout << n << " values equal to the ffmpeg scale filter route\n";
}

// Without --scale, unequal sizes are refused by a message naming --scale.
TEST(Scale, SizeMismatchNamesTheOption) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path small = made("small.mp4", "ffmpeg -nostdin -v error -i " + q(source8()) +
                                                 " -vf scale=384:216:flags=bicubic -c:v libx264 -crf 28 \"$OUT\"");
    std::string out;
    EXPECT_EQ(test::run_command(kCli + " -q -r " + q(source8()) + " -d " + q(small), &out), 1);
    EXPECT_NE(out.find("576x324, the distorted video 384x216 (--scale ref"), std::string::npos) << out;
    EXPECT_EQ(test::run_command(kCli + " -q -r " + q(source8()) + " -d " + q(small) + " --scale ref --scaler cubic", &out), 1);
    EXPECT_NE(out.find("--scaler: unknown scaler \"cubic\""), std::string::npos) << out;
    EXPECT_EQ(test::run_command(kCli + " -q -r " + q(source8()) + " -d " + q(small) + " --scale 12by7", &out), 1);
    EXPECT_NE(out.find("--scale: \"12by7\""), std::string::npos) << out;
}

// --find-offset: a distorted clip missing its first 3 frames is found 3
// frames early (score with --frame_skip_ref 3).
TEST(FindOffset, ReportsTheShift) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path src = source8();
    const fs::path late = made("late.mkv", "ffmpeg -nostdin -v error -i " + q(src) +
                                               " -vf trim=start_frame=3,setpts=PTS-STARTPTS -c:v libx264 -crf 20 \"$OUT\"");
    std::string out;
    ASSERT_EQ(test::run_command(kCli + " -r " + q(src) + " -d " + q(late) + " --find-offset 4", &out), 0) << out;
    EXPECT_NE(out.find("best offset: -3"), std::string::npos) << out;
    EXPECT_NE(out.find("--frame_skip_ref 3"), std::string::npos) << out;
    ASSERT_EQ(test::run_command(kCli + " -r " + q(late) + " -d " + q(src) + " --find-offset 4", &out), 0) << out;
    EXPECT_NE(out.find("best offset: +3"), std::string::npos) << out;
}

// Damaged input: one line naming the file, exit 1, never a crash.
TEST(CompressedInputErrors, OneLineNamingTheFile) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path src = source8();
    const fs::path mkv = made("whole.mkv", "ffmpeg -nostdin -v error -i " + q(test::clip(kPair, "ref")) +
                                               " -c:v libx264 -crf 28 \"$OUT\"");
    const fs::path mp4 = made("whole.mp4", "ffmpeg -nostdin -v error -i " + q(src) + " -c:v libx264 -crf 28 \"$OUT\"");
    auto cut = [&](const fs::path& from, const std::string& name, double keep) {
        return made(name, "head -c $(( $(stat -c %s " + q(from) + ") * " + std::to_string(int(keep * 100)) +
                              " / 100 )) " + q(from) + " > \"$OUT\"");
    };
    const fs::path audio = made("audio.m4a", "ffmpeg -nostdin -v error -f lavfi -i sine=duration=0.3 \"$OUT\"");
    // Matroska's codec id of the H.264 track renamed to one FFmpeg lacks.
    const fs::path unknown = made("unknown_codec.mkv",
                                  "sed 's|V_MPEG4/ISO/AVC|V_MPEG4/ISO/XYZ|' " + q(mkv) + " > \"$OUT\"");
    const fs::path garbage = made("garbage.mp4", "head -c 4096 /dev/urandom > \"$OUT\"");
    const fs::path folder = dir() / "a_folder.mp4";
    fs::create_directories(folder);
    struct Bad {
        fs::path file;
        std::string problem;
    };
    const std::vector<Bad> cases = {
        {cut(mkv, "cut80.mkv", 0.8), "a truncated file?"},
        {cut(mp4, "cut50.mp4", 0.5), "FFmpeg cannot open it"},
        {garbage, "FFmpeg cannot open it"},
        {audio, "no video stream"},
        {unknown, "no decoder for its video codec"},
        {folder, "is a directory"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file.string());
        std::string out;
        const int rc = test::run_command(kCli + " -q -r " + q(test::clip(kPair, "ref")) + " -d " + q(c.file), &out);
        EXPECT_EQ(rc, 1) << out;
        EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
        EXPECT_EQ(out.rfind("vmafpp: " + c.file.string() + ": ", 0) == 0 ||
                      out.rfind("vmafpp: " + c.file.string() + " ", 0) == 0,
                  true)
            << out;
        EXPECT_NE(out.find(c.problem), std::string::npos) << out;
    }
}

}  // namespace
}  // namespace vmafpp
