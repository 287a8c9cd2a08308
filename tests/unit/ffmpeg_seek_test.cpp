// Frame ranges of compressed input (--frame_range, Dask chunks): a range run
// decodes from the keyframe before its first frame where the file proves that
// exact, and every frame it scores is the one a whole decode numbers so. For
// each encode, chunks of several sizes merged equal the whole run value for
// value (the default model, whose motion reads the frame before each chunk,
// and psnr); the closed-GOP encodes must really seek, the others (open GOP,
// variable frame rate, a container without the proof) may decode from the
// start but must still give the whole run's values.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "io/ffmpeg_reader.hpp"
#include "support/corpus.hpp"
#include "vmafpp/chunk.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {
namespace {

namespace fs = std::filesystem;

std::string q(const fs::path& p) { return test::shell_quote(p); }

fs::path dir() {
    fs::path d = test::work_dir() / "ffmpeg_seek";
    fs::create_directories(d);
    return d;
}

// `name` made once by `make` (a command writing to $OUT).
fs::path made(const std::string& name, const std::string& make) {
    return test::made_file(dir(), name, make);
}

// 60 frames of moving content at 192x108: three corpus pans one after another.
fs::path source() {
    const std::string a = q(test::clip("p01_astronaut_576x324_420p8_x264crf23", "ref"));
    const std::string b = q(test::clip("p02_coffee_576x324_420p8_x264crf35", "ref"));
    const std::string c = q(test::clip("p04_rocket_576x324_420p8_x265crf32", "ref"));
    return made("src.y4m", "ffmpeg -nostdin -v error -i " + a + " -i " + b + " -i " + c + " -i " + a +
                               " -i " + b + " -filter_complex '[0][1][2][3][4]concat=n=5,scale=192:108' "
                               "-frames:v 60 -strict -1 -f yuv4mpegpipe \"$OUT\"");
}

struct Encode {
    const char* name;
    const char* file;
    const char* args;    // ffmpeg arguments between the input and the output
    bool must_seek;      // a range far from the start begins at a keyframe > 0
};

void PrintTo(const Encode& e, std::ostream* os) { *os << e.name; }

ScoreConfig config() {
    ScoreConfig cfg;  // no model: vmaf_v0.6.1
    cfg.features = {"psnr"};
    return cfg;
}

ScoreRun run(const fs::path& ref, const fs::path& dis, std::optional<FrameRange> range,
             unsigned* began_at = nullptr) {
    auto r = open_video(ref.string());
    auto d = open_video(dis.string());
    ScoreConfig cfg = config();
    cfg.frame_range = range;
    ScoreRun out = score(*r, *d, cfg);
    if (began_at) *began_at = io::ffmpeg_decoding_began_at(*d);
    return out;
}

// The line where two outputs first differ, both versions.
std::string first_difference(const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool more_a = bool(std::getline(x, la)), more_b = bool(std::getline(y, lb));
        if (!more_a && !more_b) break;
        if (!more_a || !more_b || la != lb) {
            std::ostringstream out;
            out << "at line " << line << ": " << la << " vs " << lb;
            return out.str();
        }
    }
    return "none";
}

class CompressedSeek : public ::testing::TestWithParam<Encode> {};

TEST_P(CompressedSeek, ChunksEqualTheWholeRun) {
    if (!io::ffmpeg_available()) GTEST_SKIP() << "vmafpp was built without FFmpeg";
    if (test::run_command("command -v ffmpeg") != 0) GTEST_SKIP() << "the ffmpeg CLI is not installed";
    const Encode& e = GetParam();
    const fs::path src = source();
    const fs::path dis = made(e.file, "ffmpeg -nostdin -v error -i " + q(src) + " " + e.args + " \"$OUT\"");
    const ScoreRun whole = run(src, dis, std::nullopt);
    ASSERT_EQ(whole.frames, 60u);
    const Results expected = whole.results();
    unsigned seeks = 0;
    for (unsigned size : {7u, 13u, 25u}) {
        std::vector<Chunk> chunks;
        for (unsigned begin = 0; begin < whole.frames; begin += size) {
            unsigned began_at = 0;
            const ScoreRun part = run(src, dis, FrameRange{begin, std::min(whole.frames, begin + size)}, &began_at);
            // Decoding starts at or before the first frame read (motion's
            // context is the frame before the range).
            EXPECT_LE(began_at, begin) << "chunk at " << begin;
            seeks += began_at > 0;
            chunks.push_back(parse_chunk(render_chunk(make_chunk(part, "ref", "dis", "config")), "chunk"));
        }
        Results merged = merge_chunks(std::move(chunks));
        merged.fps = expected.fps;
        const std::string got = render_results(merged, OutputFormat::json, Precision::max());
        const std::string want = render_results(expected, OutputFormat::json, Precision::max());
        EXPECT_TRUE(got == want) << e.name << ", chunks of " << size << ": first difference "
                                 << first_difference(got, want);
    }
    if (e.must_seek) {
        EXPECT_GT(seeks, 10u) << "too few chunks decoded from a keyframe";
    }
    std::cout << e.name << ": " << seeks << " chunks began at a keyframe after frame 0\n";
}

INSTANTIATE_TEST_SUITE_P(
    Encodes, CompressedSeek,
    ::testing::Values(
        // Closed GOPs with B-frames (x264's default): a keyframe every 8 frames.
        Encode{"H264_mkv", "h264.mkv", "-c:v libx264 -preset fast -crf 30 -g 8 -bf 3", true},
        Encode{"H264_mp4", "h264.mp4", "-c:v libx264 -preset fast -crf 30 -g 8 -bf 3", true},
        // Keyframe interval 10 with scene-cut keyframes of its own.
        Encode{"HEVC_closed_mkv", "hevc_closed.mkv",
               "-c:v libx265 -preset fast -crf 30 -x265-params keyint=10:min-keyint=10:open-gop=0:log-level=none",
               true},
        // Open GOPs: a CRA's leading pictures show before it, so the seek
        // must go to an earlier, closed keyframe (here only frame 0).
        Encode{"HEVC_open_mkv", "hevc_open.mkv",
               "-c:v libx265 -preset fast -crf 30 -x265-params keyint=10:min-keyint=10:open-gop=1:log-level=none",
               false},
        Encode{"VP9_webm", "vp9.webm", "-c:v libvpx-vp9 -crf 40 -b:v 0 -g 9 -deadline realtime -cpu-used 8", true},
        // Variable frame rate (a 0.4 s gap after frame 30): frame numbers are
        // not times; the seek still keeps the whole decode's numbering.
        Encode{"H264_vfr_mkv", "h264_vfr.mkv",
               "-vf \"settb=1/1000,setpts='(N+gte(N\\,30)*10)*40'\" -fps_mode passthrough -c:v libx264 -preset fast "
               "-crf 30 -g 8",
               true},
        // Timestamps x264 leaves duplicated after an uneven gap: no proof
        // past the duplicate, those chunks decode from the start.
        Encode{"H264_duplicate_pts_mkv", "h264_dup.mkv",
               "-vf \"setpts='N/25/TB+if(gte(N,30),0.37/TB,0)'\" -fps_mode passthrough -c:v libx264 -preset fast -crf 30 -g 8",
               false},
        // MPEG-TS: no proof of one frame per packet, decodes from the start.
        Encode{"H264_ts", "h264.ts", "-c:v libx264 -preset fast -crf 30 -g 8", false}));

}  // namespace
}  // namespace vmafpp
