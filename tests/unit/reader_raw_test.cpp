// Raw planar YUV (libvmaf's -w -h -p -b): floor-sized chroma, every bit depth,
// odd sizes, and a partial last frame reported as an error naming that frame
// (libvmaf's CLI crashes there: issue 8).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/synthetic_video.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using test::Geometry;

RawFormat raw_format(const Geometry& g) { return RawFormat{g.width, g.height, g.bpc, g.format}; }

const char* format_name(PixelFormat f) {
    switch (f) {
        case PixelFormat::yuv400: return "400";
        case PixelFormat::yuv420: return "420";
        case PixelFormat::yuv422: return "422";
        default: return "444";
    }
}

class RawLayout
    : public ::testing::TestWithParam<std::tuple<PixelFormat, int, std::pair<int, int>>> {};

TEST_P(RawLayout, ReadsEverySampleWithFloorChroma) {
    const auto [format, bpc, size] = GetParam();
    const Geometry g{size.first, size.second, format, bpc};
    const auto path = test::write_file(std::string("raw_") + format_name(format) + "_" +
                                           std::to_string(bpc) + "_" + std::to_string(g.width) +
                                           "x" + std::to_string(g.height) + ".yuv",
                                       test::raw_file(g, 3));
    auto r = open_raw_yuv(path, raw_format(g));
    EXPECT_EQ(r->info().header, "");
    Picture pic;
    for (int f = 0; f < 3; ++f) {
        ASSERT_TRUE(r->read(pic)) << f;
        EXPECT_TRUE(test::picture_matches(pic, g, f));
    }
    EXPECT_FALSE(r->read(pic));
}

std::string layout_name(const ::testing::TestParamInfo<RawLayout::ParamType>& info) {
    const auto size = std::get<2>(info.param);
    return std::string("p") + format_name(std::get<0>(info.param)) + "_b" +
           std::to_string(std::get<1>(info.param)) + "_" + std::to_string(size.first) + "x" +
           std::to_string(size.second);
}

INSTANTIATE_TEST_SUITE_P(
    All, RawLayout,
    ::testing::Combine(::testing::Values(PixelFormat::yuv420, PixelFormat::yuv422,
                                         PixelFormat::yuv444, PixelFormat::yuv400),
                       ::testing::Values(8, 9, 10, 12, 16),
                       ::testing::Values(std::pair{4, 2}, std::pair{5, 3}, std::pair{1, 1},
                                         std::pair{333, 187})),
    layout_name);

// The size libvmaf's raw reader expects for a frame: luma plus two
// floor-sized chroma planes (its yuv_fetch_into_vmaf_picture reads pic->w[i]
// x pic->h[i] per plane).
TEST(Raw, FrameSizeIsLibvmafs) {
    const Geometry g{333, 187, PixelFormat::yuv420, 8};
    EXPECT_EQ(test::raw_file(g, 1).size(), std::size_t(333 * 187 + 2 * 166 * 93));
    const auto path = test::write_file("raw_size.yuv", test::raw_file(g, 2));
    auto r = open_raw_yuv(path, raw_format(g));
    Picture pic;
    EXPECT_TRUE(r->read(pic));
    EXPECT_TRUE(r->read(pic));
    EXPECT_FALSE(r->read(pic));
}

class RawTruncated : public ::testing::TestWithParam<std::tuple<PixelFormat, int, int>> {};

// A file whose size is not a whole number of frames fails on its last frame,
// wherever it is cut: in luma, in chroma, or after a single byte.
TEST_P(RawTruncated, LastFrameIsAnErrorNotADrop) {
    const auto [format, bpc, where] = GetParam();
    const Geometry g{333, 187, format, bpc};
    const std::string bytes = test::raw_file(g, 3);
    const std::size_t frame = bytes.size() / 3;
    const std::size_t luma = std::size_t(333 * 187 * (bpc > 8 ? 2 : 1));
    const std::size_t cut = where == 0 ? 1 : where == 1 ? 1000 : where == 2 ? luma + 1 : frame - 1;
    const std::size_t keep = 2 * frame + cut;
    const auto path = test::write_file("raw_truncated_" + std::to_string(keep) + ".yuv",
                                       bytes.substr(0, keep));
    auto r = open_raw_yuv(path, raw_format(g));
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::throws_error([&] { r->read(pic); }, path,
                                   "frame 2 is truncated: the file ends after " +
                                       std::to_string(cut) + " of its " + std::to_string(frame) +
                                       " bytes"));
}

INSTANTIATE_TEST_SUITE_P(Cuts, RawTruncated,
                         ::testing::Combine(::testing::Values(PixelFormat::yuv420, PixelFormat::yuv444),
                                            ::testing::Values(8, 10),
                                            // 1 byte, mid-luma, just past luma, one short
                                            ::testing::Values(0, 1, 2, 3)));

TEST(Raw, EmptyFileHasNoFrames) {
    const auto path = test::write_file("raw_empty.yuv", "");
    Picture pic;
    EXPECT_FALSE(open_raw_yuv(path, RawFormat{4, 2, 8, PixelFormat::yuv420})->read(pic));
}

TEST(Raw, RejectsBadGeometry) {
    const auto path = test::write_file("raw_geometry.yuv", std::string(64, '\0'));
    auto open = [&](RawFormat f) { return [=] { open_raw_yuv(path, f); }; };
    EXPECT_TRUE(test::throws_error(open({0, 2, 8, PixelFormat::yuv420}), path, "invalid picture size 0x2"));
    EXPECT_TRUE(test::throws_error(open({4, -1, 8, PixelFormat::yuv420}), path, "invalid picture size 4x-1"));
    EXPECT_TRUE(test::throws_error(open({40000, 2, 8, PixelFormat::yuv420}), path, "too large"));
    EXPECT_TRUE(test::throws_error(open({30000, 30000, 8, PixelFormat::yuv420}), path, "too large"));
    EXPECT_TRUE(test::throws_error(open({4, 2, 7, PixelFormat::yuv420}), path, "unsupported bit depth 7"));
    EXPECT_TRUE(test::throws_error(open({4, 2, 17, PixelFormat::yuv420}), path, "unsupported bit depth 17"));
}

// Big-endian or wrong -b data shows as samples above the declared depth.
TEST(Raw, RejectsSamplesAboveBitDepth) {
    const Geometry g{4, 2, PixelFormat::yuv420, 10};
    std::string bytes = test::raw_file(g, 2);
    bytes[bytes.size() / 2 + 1] = '\x80';  // frame 1, first luma sample's high byte
    const auto path = test::write_file("raw_above.yuv", bytes);
    auto r = open_raw_yuv(path, raw_format(g));
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::throws_error([&] { r->read(pic); }, path,
                                   "frame 1: plane Y has samples above the 10-bit maximum 1023"));
}

// 16 bits use every value; nothing to reject.
TEST(Raw, SixteenBitsAcceptsFullRange) {
    const Geometry g{2, 2, PixelFormat::yuv444, 16};
    const auto path = test::write_file("raw_16_full.yuv", std::string(2 * 2 * 3 * 2, '\xff'));
    auto r = open_raw_yuv(path, raw_format(g));
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    EXPECT_EQ(pic.planes[2].row<std::uint16_t>(1)[1], 0xffff);
}

TEST(Raw, OpenVideoChoosesRawWhenASizeIsGiven) {
    const Geometry g{6, 4, PixelFormat::yuv422, 12};
    const auto raw_path = test::write_file("dispatch.yuv", test::raw_file(g, 1));
    auto r = open_video(raw_path, raw_format(g));
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 0));
    // No size: Y4M, so the raw bytes are not a Y4M file.
    EXPECT_TRUE(test::throws_error([&] { open_video(raw_path); }, raw_path, "not a Y4M file"));
    // Only one of -w/-h: raw with an invalid size, not a silent Y4M attempt.
    EXPECT_TRUE(test::throws_error([&] { open_video(raw_path, RawFormat{6, 0, 8, PixelFormat::yuv420}); },
                                   raw_path, "invalid picture size 6x0"));
}

}  // namespace
}  // namespace vmafpp
