// Scorer (push) against score() (pull): the same frames give the same keys in
// the same order and the same bits, at --threads 0 and 2; bad pictures are
// refused with vmafpp::Error.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/scorer.hpp"

namespace vmafpp {
namespace {

ScoreConfig config_for(unsigned threads) {
    ScoreConfig cfg;
    cfg.threads = threads;
    cfg.features = {"psnr", "float_ssim"};
    return cfg;
}

ScoreRun push_all(const std::string& pair, const ScoreConfig& cfg) {
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    const VideoInfo& info = ref->info();
    Scorer s(cfg, {info.width, info.height, info.bpc, info.format});
    ref->set_luma_only(!s.reads_chroma());
    dis->set_luma_only(!s.reads_chroma());
    for (;;) {
        Picture r, d;
        if (!ref->read(r) || !dis->read(d)) break;
        s.push(std::move(r), std::move(d));
    }
    return s.finish();
}

void expect_same(const ScoreRun& a, const ScoreRun& b, int& compared) {
    ASSERT_EQ(a.frames, b.frames);
    ASSERT_EQ(a.values.keys(), b.values.keys());
    for (const auto& key : a.values.keys())
        for (unsigned f = 0; f < a.frames; ++f) {
            const auto x = a.values.value(key, f), y = b.values.value(key, f);
            ASSERT_EQ(x.has_value(), y.has_value()) << key << " frame " << f;
            if (x) {
                EXPECT_EQ(test::g17(*x), test::g17(*y)) << key << " frame " << f;
            }
            ++compared;
        }
}

TEST(Scorer, SameBitsAsScoreOnCorpusPairs) {
    int compared = 0;
    for (const char* pair : {"p08_brick_176x144_420p8_bilinear2x", "p15_chelsea_176x144_420p16_gblur",
                             "p12_gravel_576x324_420p10_x265crf28"})
        for (unsigned threads : {0u, 2u}) {
            const ScoreConfig cfg = config_for(threads);
            auto ref = open_video(test::clip(pair, "ref").string());
            auto dis = open_video(test::clip(pair, "dis").string());
            const ScoreRun pulled = score(*ref, *dis, cfg);
            expect_same(push_all(pair, cfg), pulled, compared);
        }
    EXPECT_GT(compared, 1000);
}

TEST(Scorer, RefusesBadPictures) {
    ScoreConfig cfg;
    Scorer s(cfg, {64, 48, 10, PixelFormat::yuv420});
    EXPECT_THROW(s.push(Picture(64, 40, 10, PixelFormat::yuv420), s.make_picture()), Error);
    EXPECT_THROW(s.push(s.make_picture(), Picture(64, 48, 8, PixelFormat::yuv420)), Error);
    EXPECT_THROW(s.push(Picture(), Picture()), Error);
    Picture hot = s.make_picture();
    hot.planes[0].row<std::uint16_t>(3)[5] = 1024;  // above 10 bits
    EXPECT_THROW(s.push(std::move(hot), s.make_picture()), Error);
    EXPECT_THROW(s.finish(), Error);  // nothing pushed
    EXPECT_THROW(s.push(s.make_picture(), s.make_picture()), Error);  // after finish
    EXPECT_THROW(Scorer(cfg, {0, 48, 8, PixelFormat::yuv420}), Error);
}

// Planes handed over by a caller (the Python module, the C API) are checked
// where they enter: every row names the plane and both shapes. Each row's
// planes are zeros in buffers exactly as large as the view says, so a plane
// the check let through with the session's larger shape would be read past
// its end (ASan's report; in the Release build, psnr from stray bytes).
struct ViewCase {
    const char* name;
    PixelFormat format;
    std::vector<std::array<int, 3>> planes;  // width, height, stride in samples
    const char* expect;
};

const ViewCase kViewCases[] = {
    {"ChromaOfA420PictureInA444Session", PixelFormat::yuv444, {{64, 48, 64}, {32, 24, 32}, {32, 24, 32}},
     "reference plane U is 32x24, but a 64x48 4:4:4 picture's U plane is 64x48"},
    {"ChromaOfA444PictureInA420Session", PixelFormat::yuv420, {{64, 48, 64}, {64, 48, 64}, {64, 48, 64}},
     "reference plane U is 64x48, but a 64x48 4:2:0 picture's U plane is 32x24"},
    {"SecondChromaPlaneWrong", PixelFormat::yuv422, {{64, 48, 64}, {32, 48, 32}, {32, 24, 32}},
     "reference plane V is 32x24, but a 64x48 4:2:2 picture's V plane is 32x48"},
    {"LumaTooNarrow", PixelFormat::yuv420, {{60, 48, 64}, {32, 24, 32}, {32, 24, 32}},
     "reference plane Y is 60x48, but a 64x48 4:2:0 picture's Y plane is 64x48"},
    {"StrideShorterThanARow", PixelFormat::yuv420, {{64, 48, 32}, {32, 24, 32}, {32, 24, 32}},
     "reference plane Y: a stride of 32 bytes is shorter than its rows of 64 bytes"},
    {"NegativeStride", PixelFormat::yuv420, {{64, 48, -64}, {32, 24, 32}, {32, 24, 32}},
     "a stride of -64 bytes"},
    {"NullData", PixelFormat::yuv420, {{64, 48, 64}, {32, 24, 32}, {32, 24, 0}},
     "reference plane V has no data"},
    {"LumaOnlyWhereChromaIsRead", PixelFormat::yuv420, {{64, 48, 64}},
     "the extractors read chroma: give Y, U and V planes"},
    {"ChromaForA400Session", PixelFormat::yuv400, {{64, 48, 64}, {64, 48, 64}, {64, 48, 64}},
     "a 4:0:0 picture has 1 plane (Y), got 3"},
    {"TwoPlanes", PixelFormat::yuv444, {{64, 48, 64}, {64, 48, 64}},
     "a 4:4:4 picture has 3 planes (Y, U, V), got 2"},
};

void PrintTo(const ViewCase& c, std::ostream* os) { *os << c.name; }

class ScorerViews : public ::testing::TestWithParam<ViewCase> {};

TEST_P(ScorerViews, RefusedWithTheShapes) {
    const ViewCase& c = GetParam();
    ScoreConfig cfg;
    cfg.no_prediction = true;
    cfg.features = {"psnr"};  // reads chroma
    Scorer s(cfg, {64, 48, 8, c.format});
    std::vector<std::vector<std::uint8_t>> buffers;
    std::vector<PlaneView> views;
    for (const auto& [w, h, stride] : c.planes) {
        buffers.emplace_back(std::size_t(std::abs(stride)) * std::size_t(h));
        // A stride of 0 stands for a null plane.
        views.push_back({stride == 0 ? nullptr : buffers.back().data(), w, h, stride});
    }
    try {
        s.push(views, views);
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
    EXPECT_EQ(s.frames(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Scorer, ScorerViews, ::testing::ValuesIn(kViewCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Views as callers hand them over (rows wider than the plane, Y4M's ceil
// chroma of an odd size) give the values of the same picture pushed whole.
TEST(Scorer, ViewsScoreAsPictures) {
    ScoreConfig cfg;
    cfg.no_prediction = true;
    cfg.features = {"psnr"};
    const int w = 33, h = 19, cw = 17, ch = 10;  // ceil chroma
    // The views are read in place: their buffers outlive the scorer.
    std::vector<std::uint8_t> buf[2][2][3];
    Scorer by_view(cfg, {w, h, 8, PixelFormat::yuv420});
    Scorer by_picture(cfg, {w, h, 8, PixelFormat::yuv420});
    for (int frame = 0; frame < 2; ++frame) {
        std::vector<PlaneView> views[2];
        Picture pics[2] = {by_picture.make_picture(), by_picture.make_picture()};
        for (int side = 0; side < 2; ++side)
            for (int p = 0; p < 3; ++p) {
                const int pw = p ? cw : w, ph = p ? ch : h, stride = pw + 7;
                buf[frame][side][p].resize(std::size_t(stride) * std::size_t(ph));
                for (int y = 0; y < ph; ++y)
                    for (int x = 0; x < pw; ++x) {
                        const auto v = std::uint8_t((x * 7 + y * 13 + p * 31 + side * (x ^ y) + frame) & 255);
                        buf[frame][side][p][std::size_t(y * stride + x)] = v;
                        if (x < pics[side].planes[p].width() && y < pics[side].planes[p].height())
                            pics[side].planes[p].row<std::uint8_t>(y)[x] = v;
                    }
                views[side].push_back({buf[frame][side][p].data(), pw, ph, stride});
            }
        by_view.push(views[0], views[1]);
        by_picture.push(std::move(pics[0]), std::move(pics[1]));
    }
    int compared = 0;
    expect_same(by_view.finish(), by_picture.finish(), compared);
    EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace vmafpp
