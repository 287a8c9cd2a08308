// Y4M reader: every accepted chroma tag and bit depth at even and odd sizes,
// sample by sample, and every rejection with its one-line message.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/synthetic_video.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using test::Geometry;

struct TagCase {
    const char* tag;  // as written in the header, without the leading 'C'
    PixelFormat format;
    int bpc;
};

// libvmaf's CLI reads the first eleven; the rest it rejects or crashes on
// (corpus README "Facts"), vmafpp reads them too.
constexpr TagCase kTags[] = {
    {"420", PixelFormat::yuv420, 8},       {"420jpeg", PixelFormat::yuv420, 8},
    {"420mpeg2", PixelFormat::yuv420, 8},  {"420paldv", PixelFormat::yuv420, 8},
    {"420p10", PixelFormat::yuv420, 10},   {"420p12", PixelFormat::yuv420, 12},
    {"422p10", PixelFormat::yuv422, 10},   {"422p12", PixelFormat::yuv422, 12},
    {"444", PixelFormat::yuv444, 8},       {"444p10", PixelFormat::yuv444, 10},
    {"444p12", PixelFormat::yuv444, 12},
    {"422", PixelFormat::yuv422, 8},       {"mono", PixelFormat::yuv400, 8},
    {"420p16", PixelFormat::yuv420, 16},   {"444p16", PixelFormat::yuv444, 16},
    {"422p16", PixelFormat::yuv422, 16},   {"420p9", PixelFormat::yuv420, 9},
    {"444p14", PixelFormat::yuv444, 14},   {"mono10", PixelFormat::yuv400, 10},
    {"mono16", PixelFormat::yuv400, 16},
};

constexpr std::pair<int, int> kSizes[] = {{4, 2}, {5, 3}, {1, 1}, {7, 2}, {2, 5}};

class Y4mTag : public ::testing::TestWithParam<std::tuple<TagCase, std::pair<int, int>>> {};

TEST_P(Y4mTag, ReadsEverySample) {
    const auto [tc, size] = GetParam();
    const Geometry g{size.first, size.second, tc.format, tc.bpc};
    const std::string name = std::string("tag_") + tc.tag + "_" + std::to_string(g.width) + "x" +
                             std::to_string(g.height) + ".y4m";
    const auto path = test::write_file(name, test::y4m_file(g, 3, std::string("C") + tc.tag));
    auto r = open_y4m(path);
    EXPECT_EQ(r->info().width, g.width);
    EXPECT_EQ(r->info().height, g.height);
    EXPECT_EQ(r->info().bpc, g.bpc);
    EXPECT_EQ(r->info().format, g.format);
    Picture pic;
    for (int f = 0; f < 3; ++f) {
        ASSERT_TRUE(r->read(pic)) << f;
        EXPECT_TRUE(test::picture_matches(pic, g, f));
    }
    EXPECT_FALSE(r->read(pic));
    EXPECT_FALSE(r->read(pic));  // stays at the end
}

std::string tag_case_name(const ::testing::TestParamInfo<Y4mTag::ParamType>& info) {
    const TagCase& tc = std::get<0>(info.param);
    const auto size = std::get<1>(info.param);
    return std::string(tc.tag) + "_" + std::to_string(size.first) + "x" + std::to_string(size.second);
}

INSTANTIATE_TEST_SUITE_P(AllTags, Y4mTag,
                         ::testing::Combine(::testing::ValuesIn(kTags), ::testing::ValuesIn(kSizes)),
                         tag_case_name);

TEST(Y4m, NoChromaTagMeans420) {
    const Geometry g{6, 4, PixelFormat::yuv420, 8};
    const auto path = test::write_file("no_tag.y4m", test::y4m_file(g, 2, "XEXTRA=1"));
    auto r = open_y4m(path);
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 0));
}

TEST(Y4m, FrameLineParametersAndExtensionsAreIgnored) {
    const Geometry g{3, 3, PixelFormat::yuv444, 10};
    std::string bytes = "YUV4MPEG2 W3 H3 F30000:1001 I? A0:0 C444p10 XYSCSS=444P10 XCOLORRANGE=LIMITED\n";
    bytes += "FRAME Ip XFOO=1\n" + test::frame_payload(g, 0, true);
    bytes += "FRAME\n" + test::frame_payload(g, 1, true);
    const auto path = test::write_file("frame_params.y4m", bytes);
    auto r = open_y4m(path);
    EXPECT_EQ(r->info().header, bytes.substr(0, bytes.find('\n')));
    Picture pic;
    for (int f = 0; f < 2; ++f) {
        ASSERT_TRUE(r->read(pic));
        EXPECT_TRUE(test::picture_matches(pic, g, f));
    }
    EXPECT_FALSE(r->read(pic));
}

TEST(Y4m, SkipThenRead) {
    const Geometry g{5, 3, PixelFormat::yuv420, 12};
    const auto path = test::write_file("skip.y4m", test::y4m_file(g, 4));
    auto r = open_y4m(path);
    Picture pic;
    EXPECT_EQ(r->skip(2), 2u);
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 2));
    EXPECT_EQ(r->skip(5), 1u);
    EXPECT_FALSE(r->read(pic));
}

TEST(Y4m, HeaderOnlyFileHasNoFrames) {
    const auto path = test::write_file("header_only.y4m", "YUV4MPEG2 W4 H2 C420jpeg\n");
    Picture pic;
    EXPECT_FALSE(open_y4m(path)->read(pic));
}

// ---- rejections: one line, the path, the problem ----

struct Rejection {
    const char* name;
    std::string bytes;
    const char* problem;
};

std::string payload(int w, int h, PixelFormat f, int bpc, int frame = 0) {
    return test::frame_payload(Geometry{w, h, f, bpc}, frame, true);
}

std::vector<Rejection> header_rejections() {
    const std::string frame = "FRAME\n" + payload(4, 2, PixelFormat::yuv420, 8);
    return {
        {"empty", "", "empty file"},
        {"signature", "YUV4MPEG W4 H2\n" + frame, "not a Y4M file"},
        {"signature_glued", "YUV4MPEG2W4 H2\n" + frame, "not a Y4M file"},
        {"riff", std::string("RIFF\0\0\0\0WAVE", 12), "not a Y4M file"},
        {"binary_no_newline", std::string(8192, '\x01'), "not a Y4M file"},
        {"signature_too_long", "YUV4MPEG2 " + std::string(5000, 'X') + "\n",
         "the Y4M header line is longer than 4096 bytes"},
        {"missing_w", "YUV4MPEG2 H2 C420\n" + frame, "no width"},
        {"missing_h", "YUV4MPEG2 W4 C420\n" + frame, "no height"},
        {"w_garbage", "YUV4MPEG2 W4a H2\n" + frame, "bad Y4M header field \"W4a\""},
        {"w_negative", "YUV4MPEG2 W-4 H2\n" + frame, "bad Y4M header field \"W-4\""},
        {"w_plus", "YUV4MPEG2 W+4 H2\n" + frame, "bad Y4M header field \"W+4\""},
        {"w_empty", "YUV4MPEG2 W H2\n" + frame, "bad Y4M header field \"W\""},
        {"h_overflow", "YUV4MPEG2 W4 H99999999999999999999\n" + frame, "bad Y4M header field"},
        {"w_zero", "YUV4MPEG2 W0 H2\n", "invalid picture size 0x2"},
        {"h_zero", "YUV4MPEG2 W4 H0\n", "invalid picture size 4x0"},
        {"w_huge", "YUV4MPEG2 W40000 H2\n", "too large"},
        {"pixels_huge", "YUV4MPEG2 W20000 H20000\n", "too large"},
        {"fps_garbage", "YUV4MPEG2 W4 H2 F25\n" + frame, "bad Y4M header field \"F25\""},
        {"aspect_garbage", "YUV4MPEG2 W4 H2 A1:x\n" + frame, "bad Y4M header field \"A1:x\""},
        {"chroma_411", "YUV4MPEG2 W4 H2 C411\n" + frame, "unsupported Y4M chroma tag \"C411\""},
        {"chroma_alpha", "YUV4MPEG2 W4 H2 C444alpha\n", "unsupported Y4M chroma tag"},
        {"chroma_p8", "YUV4MPEG2 W4 H2 C420p8\n", "unsupported Y4M chroma tag \"C420p8\""},
        {"chroma_p17", "YUV4MPEG2 W4 H2 C444p17\n", "unsupported Y4M chroma tag"},
        {"chroma_p010", "YUV4MPEG2 W4 H2 C420p010\n", "unsupported Y4M chroma tag"},
        {"chroma_mono8", "YUV4MPEG2 W4 H2 Cmono8\n", "unsupported Y4M chroma tag"},
        {"chroma_control", "YUV4MPEG2 W4 H2 C42\x01\r\n", "\"C42\\x01\\x0d\""},
        {"interlaced_top", "YUV4MPEG2 W4 H2 It C420\n" + frame, "interlaced Y4M (It)"},
        {"interlaced_bottom", "YUV4MPEG2 W4 H2 Ib\n" + frame, "interlaced Y4M (Ib)"},
        {"interlaced_mixed", "YUV4MPEG2 W4 H2 Im\n" + frame, "interlaced Y4M (Im)"},
        {"interlace_garbage", "YUV4MPEG2 W4 H2 Ix\n" + frame, "bad Y4M header field \"Ix\""},
    };
}

class Y4mHeaderRejection : public ::testing::TestWithParam<Rejection> {};

TEST_P(Y4mHeaderRejection, OneLineErrorNamingPathAndProblem) {
    const auto& c = GetParam();
    const auto path = test::write_file(std::string("reject_") + c.name + ".y4m", c.bytes);
    EXPECT_TRUE(test::throws_error([&] { open_y4m(path); }, path, c.problem));
}

INSTANTIATE_TEST_SUITE_P(All, Y4mHeaderRejection, ::testing::ValuesIn(header_rejections()),
                         [](const auto& info) { return std::string(info.param.name); });

std::vector<Rejection> frame_rejections() {
    const std::string header = "YUV4MPEG2 W4 H2 C420jpeg\n";
    const std::string p0 = payload(4, 2, PixelFormat::yuv420, 8, 0);
    const std::string p1 = payload(4, 2, PixelFormat::yuv420, 8, 1);
    const std::string ten_bit = "YUV4MPEG2 W4 H2 C420p10\n";
    std::string too_big = payload(4, 2, PixelFormat::yuv420, 10, 1);
    too_big[too_big.size() - 3] = '\x04';  // a V sample of 1024 + low byte
    return {
        {"frame_missing", header + p0, "frame 0 does not start with a FRAME line"},
        {"frame_garbage", header + "FRAMX\n" + p0, "frame 0 does not start with a FRAME line (found \"FRAMX\""},
        {"frame_glued", header + "FRAMEX\n" + p0, "frame 0 does not start with a FRAME line"},
        {"frame_wrong_size", header + "FRAME\n" + p0 + "\x10" + "FRAME\n" + p1,
         "frame 1 does not start with a FRAME line"},
        {"frame_binary", header + "FRAME\n" + p0 + std::string(3000, '\x07'),
         "frame 1 does not start with a FRAME line (found \"\\x07\\x07"},
        {"truncated_last", header + "FRAME\n" + p0 + "FRAME\n" + p1.substr(0, 7),
         "frame 1 is truncated: the file ends after 7 of its 12 bytes"},
        {"truncated_after_frame_line", header + "FRAME\n" + p0 + "FRAME\n",
         "frame 1 is truncated: the file ends after 0 of its 12 bytes"},
        {"truncated_frame_line", header + "FRAME\n" + p0 + "FRA", "frame 1 does not start with a FRAME line"},
        {"truncated_frame_line_complete_word", header + "FRAME\n" + p0 + "FRAME",
         "frame 1 is truncated"},
        {"above_bit_depth", ten_bit + "FRAME\n" + payload(4, 2, PixelFormat::yuv420, 10, 0) + "FRAME\n" + too_big,
         "frame 1: plane V has samples above the 10-bit maximum 1023"},
    };
}

class Y4mFrameRejection : public ::testing::TestWithParam<Rejection> {};

TEST_P(Y4mFrameRejection, OneLineErrorNamingPathFrameAndProblem) {
    const auto& c = GetParam();
    const auto path = test::write_file(std::string("reject_") + c.name + ".y4m", c.bytes);
    auto r = open_y4m(path);
    EXPECT_TRUE(test::throws_error([&] {
        Picture pic;
        while (r->read(pic)) {}
    }, path, c.problem));
}

INSTANTIATE_TEST_SUITE_P(All, Y4mFrameRejection, ::testing::ValuesIn(frame_rejections()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Y4m, SkipReportsTruncationToo) {
    const Geometry g{4, 2, PixelFormat::yuv420, 8};
    const std::string bytes = test::y4m_file(g, 2);
    const auto path = test::write_file("skip_truncated.y4m", bytes.substr(0, bytes.size() - 1));
    auto r = open_y4m(path);
    EXPECT_TRUE(test::throws_error([&] { r->skip(2); }, path, "frame 1 is truncated"));
}

TEST(Y4m, MissingFileAndDirectory) {
    const std::string missing = (test::work_dir() / "reader" / "does_not_exist.y4m").string();
    EXPECT_TRUE(test::throws_error([&] { open_y4m(missing); }, missing, "cannot open"));
    const std::string dir = (test::work_dir() / "reader").string();
    std::filesystem::create_directories(dir);
    EXPECT_TRUE(test::throws_error([&] { open_y4m(dir); }, dir, "is a directory"));
}

}  // namespace
}  // namespace vmafpp
