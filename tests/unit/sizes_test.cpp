// Every picture size either scores (finite, deterministic values) or is
// refused with one clear error naming the minimum; never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "vmafpp/vmafpp.hpp"

namespace vmafpp {
namespace {

// Frames of a moving textured pattern, distorted by a per-pixel offset.
class SyntheticReader final : public VideoReader {
public:
    SyntheticReader(int w, int h, int frames, bool distorted) : frames_(frames), dis_(distorted) {
        info_.width = w;
        info_.height = h;
        info_.bpc = 8;
        info_.format = PixelFormat::yuv420;
    }
    const VideoInfo& info() const override { return info_; }
    bool read(Picture& pic) override {
        if (next_ == frames_) return false;
        pic = Picture(info_.width, info_.height, 8, info_.format);
        for (int p = 0; p < pic.plane_count(); ++p) {
            Plane& pl = pic.planes[p];
            for (int y = 0; y < pl.height(); ++y)
                for (int x = 0; x < pl.width(); ++x) {
                    int v = 16 + ((x * 37 + y * 11 + next_ * 5) * 2654435761u >> 24) % 200;
                    if (dis_) v = std::min(235, v + ((x + y) % 7) - 3 + 4);
                    pl.row<std::uint8_t>(y)[x] = std::uint8_t(v);
                }
        }
        ++next_;
        return true;
    }

private:
    VideoInfo info_;
    int frames_, next_ = 0;
    bool dis_;
};

struct Outcome {
    bool scored = false;
    double vmaf_mean = 0;
    std::string error;
};

// The default model and the float extractors, or only the extractor
// `only` (its key `key` pooled instead of vmaf).
Outcome score_size(int w, int h, unsigned threads, const char* only = nullptr,
                   const char* key = "vmaf") {
    SyntheticReader ref(w, h, 3, false), dis(w, h, 3, true);
    ScoreConfig cfg;
    cfg.threads = threads;
    cfg.features = {"float_adm", "float_vif", "float_motion", "float_psnr", "float_ansnr",
                    "float_moment"};
    if (only) {
        cfg.no_prediction = true;
        cfg.features = {only};
    }
    Outcome o;
    try {
        const ScoreRun run = score(ref, dis, cfg);
        o.scored = true;
        const auto pooled = run.pooled(key);
        if (!pooled) throw Error(std::string("no ") + key + " written");
        o.vmaf_mean = pooled->mean;
        for (const auto& key : run.values.keys())
            for (unsigned f = 0; f < run.frames; ++f) {
                const auto v = run.values.value(key, f);
                if (v && !std::isfinite(*v) && key.find("psnr") == std::string::npos &&
                    key.find("ansnr") == std::string::npos)
                    ADD_FAILURE() << w << "x" << h << " " << key << " frame " << f << " = " << *v;
            }
    } catch (const Error& e) {
        o.error = e.what();
    }
    return o;
}

class Size : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(Size, ScoresOrRefusesWithTheMinimum) {
    const auto [w, h] = GetParam();
    const Outcome a = score_size(w, h, 0);
    if (!a.scored) {
        EXPECT_NE(a.error.find("minimum"), std::string::npos) << w << "x" << h << ": " << a.error;
        EXPECT_EQ(a.error.find('\n'), std::string::npos) << a.error;
        EXPECT_LT(std::min(w, h), 33) << "refused a size libvmaf handles: " << a.error;
        return;
    }
    EXPECT_TRUE(std::isfinite(a.vmaf_mean)) << w << "x" << h;
    const Outcome b = score_size(w, h, 2);
    ASSERT_TRUE(b.scored) << b.error;
    EXPECT_EQ(a.vmaf_mean, b.vmaf_mean) << w << "x" << h << " differs with threads";
}

// SpEED decimates by 16 and needs one 5x5 block: 80x80 luma samples for
// speed_temporal, 80x80 chroma samples (160x160 4:2:0) for speed_chroma.
// libvmaf logs "image too small" and crashes below that.
TEST_P(Size, SpeedScoresOrRefusesWithTheMinimum) {
    const auto [w, h] = GetParam();
    struct Speed {
        const char* name;
        const char* key;
        int min;
    };
    for (const Speed s : {Speed{"speed_chroma", "speed_chroma_uv", 160},
                          Speed{"speed_temporal", "speed_temporal", 80}}) {
        SCOPED_TRACE(s.name);
        const Outcome a = score_size(w, h, 0, s.name, s.key);
        if (!a.scored) {
            EXPECT_NE(a.error.find("minimum"), std::string::npos) << w << "x" << h << ": " << a.error;
            EXPECT_NE(a.error.find("80x80"), std::string::npos) << a.error;
            EXPECT_EQ(a.error.find('\n'), std::string::npos) << a.error;
            EXPECT_LT(std::min(w, h), s.min) << "refused a size libvmaf handles: " << a.error;
            continue;
        }
        EXPECT_GE(std::min(w, h), s.min);
        EXPECT_TRUE(std::isfinite(a.vmaf_mean)) << w << "x" << h;
        const Outcome b = score_size(w, h, 2, s.name, s.key);
        ASSERT_TRUE(b.scored) << b.error;
        EXPECT_EQ(a.vmaf_mean, b.vmaf_mean) << w << "x" << h << " differs with threads";
    }
}

std::vector<std::pair<int, int>> sizes() {
    std::vector<std::pair<int, int>> out;
    for (int s = 1; s <= 64; ++s) out.push_back({s, s});
    for (int s = 1; s <= 64; s += 3) {
        out.push_back({s, 17});
        out.push_back({17, s});
        out.push_back({s, 40});
        out.push_back({40, s});
    }
    for (auto wh : {std::pair{333, 187}, {65, 33}, {33, 65}, {99, 17}, {17, 99}, {127, 45},
                    {79, 80}, {80, 79}, {80, 80}, {159, 160}, {160, 159}, {160, 160},
                    {161, 175}, {176, 144}})
        out.push_back(wh);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

INSTANTIATE_TEST_SUITE_P(All, Size, ::testing::ValuesIn(sizes()), [](const auto& info) {
    return std::to_string(info.param.first) + "x" + std::to_string(info.param.second);
});

}  // namespace
}  // namespace vmafpp

namespace vmafpp {
namespace {

// cambi (-n --feature cambi=full_ref=true): a finite score the same with 0
// and 2 threads, or a one-line refusal naming the minimum. libvmaf refuses
// pictures under 216 in both directions and reads outside the picture when
// the coarsest scale is not larger than half its window.
Outcome score_cambi(int w, int h, unsigned threads) {
    SyntheticReader ref(w, h, 3, false), dis(w, h, 3, true);
    ScoreConfig cfg;
    cfg.threads = threads;
    cfg.no_prediction = true;
    cfg.features = {"cambi=full_ref=true"};
    Outcome o;
    try {
        const ScoreRun run = score(ref, dis, cfg);
        o.scored = true;
        o.vmaf_mean = run.pooled("cambi")->mean;
        for (const auto& key : run.values.keys())
            for (unsigned f = 0; f < run.frames; ++f) {
                const auto v = run.values.value(key, f);
                if (!v || !std::isfinite(*v))
                    ADD_FAILURE() << w << "x" << h << " " << key << " frame " << f;
            }
    } catch (const Error& e) {
        o.error = e.what();
    }
    return o;
}

class CambiSize : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(CambiSize, ScoresOrRefusesWithTheMinimum) {
    const auto [w, h] = GetParam();
    const Outcome a = score_cambi(w, h, 0);
    if (!a.scored) {
        EXPECT_NE(a.error.find("minimum"), std::string::npos) << w << "x" << h << ": " << a.error;
        EXPECT_EQ(a.error.find('\n'), std::string::npos) << a.error;
        EXPECT_TRUE(std::max(w, h) < 216 || std::min(w, h) < 32)
            << "refused a size libvmaf handles: " << a.error;
        return;
    }
    EXPECT_TRUE(std::isfinite(a.vmaf_mean)) << w << "x" << h;
    const Outcome b = score_cambi(w, h, 2);
    ASSERT_TRUE(b.scored) << b.error;
    EXPECT_EQ(a.vmaf_mean, b.vmaf_mean) << w << "x" << h << " differs with threads";
}

std::vector<std::pair<int, int>> cambi_sizes() {
    std::vector<std::pair<int, int>> out = sizes();
    // Around the 216 minimum and the coarsest-scale limit, odd sizes.
    for (auto wh : {std::pair{215, 215}, {216, 1}, {1, 216}, {216, 17}, {17, 216}, {216, 31},
                    {217, 33}, {33, 217}, {333, 187}, {1023, 7}, {301, 65}})
        out.push_back(wh);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

INSTANTIATE_TEST_SUITE_P(All, CambiSize, ::testing::ValuesIn(cambi_sizes()), [](const auto& info) {
    return std::to_string(info.param.first) + "x" + std::to_string(info.param.second);
});

}  // namespace
}  // namespace vmafpp
