// Scorer (push) against score() (pull): the same frames give the same keys in
// the same order and the same bits, at --threads 0 and 2; bad pictures are
// refused with vmafpp::Error.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace vmafpp
