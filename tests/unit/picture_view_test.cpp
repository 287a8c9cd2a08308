// Pictures that read a caller's planes in place (Plane::view, Scorer's
// view_from and push of PlaneViews): every extractor, at every SIMD level
// this CPU runs, gives the bits of the same frames pushed as the library's
// own pictures, though the caller's rows start at odd addresses, are
// followed by garbage, and the last one ends at an unreadable page (a read
// past a plane is a crash here, not a stray value). The keep_alive a push
// hands over is let go once the frame is scored.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/scorer.hpp"

namespace vmafpp {
namespace {

// A copy of plane `p` in its own mapping: rows `stride` bytes apart (not a
// multiple of 64, odd for 8-bit samples), bytes 0xa5 after each row, the
// last row's last sample right before a PROT_NONE page.
class GuardedPlane {
public:
    explicit GuardedPlane(const Plane& p) {
        const std::size_t row = std::size_t(p.width()) * std::size_t(p.bytes_per_sample());
        stride_ = std::ptrdiff_t(row) + (p.bytes_per_sample() == 1 ? 3 : 6);
        const std::size_t used = std::size_t(stride_) * std::size_t(p.height() - 1) + row;
        const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
        const std::size_t pages = (used + page - 1) / page;
        size_ = (pages + 1) * page;
        void* m = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
        map_ = static_cast<std::uint8_t*>(m);
        std::memset(map_, 0xa5, pages * page);
        if (mprotect(map_ + pages * page, page, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
        data_ = map_ + pages * page - used;
        for (int y = 0; y < p.height(); ++y)
            std::memcpy(data_ + std::ptrdiff_t(y) * stride_, p.row<std::uint8_t>(y), row);
        view_ = {data_, p.width(), p.height(), stride_};
    }
    ~GuardedPlane() { munmap(map_, size_); }
    GuardedPlane(const GuardedPlane&) = delete;
    GuardedPlane& operator=(const GuardedPlane&) = delete;
    const PlaneView& view() const { return view_; }

private:
    std::uint8_t* map_ = nullptr;
    std::size_t size_ = 0;
    std::uint8_t* data_ = nullptr;
    std::ptrdiff_t stride_ = 0;
    PlaneView view_;
};

// Every extractor that scores `geometry` with its default options.
std::vector<std::string> every_feature(const FrameGeometry& geometry) {
    std::vector<std::string> out;
    for (const FeatureInfo& f : feature_registry()) {
        try {
            (void)f.create(OptionValues(f.options), geometry);
        } catch (const Error&) {
            continue;
        }
        out.push_back(f.name);
    }
    return out;
}

void expect_same_bits(const ScoreRun& a, const ScoreRun& b, int& compared) {
    ASSERT_EQ(a.frames, b.frames);
    ASSERT_EQ(a.values.keys(), b.values.keys());
    for (const auto& key : a.values.keys())
        for (unsigned f = 0; f < a.frames; ++f) {
            const auto x = a.values.value(key, f), y = b.values.value(key, f);
            ASSERT_EQ(x.has_value(), y.has_value()) << key << " frame " << f;
            if (x) {
                EXPECT_EQ(test::g17(*x), test::g17(*y)) << key << " frame " << f;
                ++compared;
            }
        }
}

// cpumask values that select each level, lowest first.
struct LevelMask {
    SimdLevel level;
    unsigned mask;
};
constexpr LevelMask kLevelMasks[] = {{SimdLevel::scalar, kCpuAvx2},
                                     {SimdLevel::avx2, kCpuAvx512},
                                     {SimdLevel::avx512, kCpuAvx512Icl},
                                     {SimdLevel::avx512icl, 0}};

void views_score_as_pictures(const std::string& pair, unsigned frames) {
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    const VideoInfo info = ref->info();
    const FrameGeometry g{info.width, info.height, info.bpc, info.format};
    std::vector<Picture> refs, diss;
    for (unsigned n = 0; n < frames; ++n) {
        Picture r, d;
        ASSERT_TRUE(ref->read(r) && dis->read(d));
        refs.push_back(std::move(r));
        diss.push_back(std::move(d));
    }
    // Copies in guarded mappings, kept for every session below.
    std::vector<std::unique_ptr<GuardedPlane>> guarded;
    std::vector<std::vector<PlaneView>> ref_views(frames), dis_views(frames);
    for (unsigned n = 0; n < frames; ++n)
        for (int p = 0; p < refs[n].plane_count(); ++p) {
            guarded.push_back(std::make_unique<GuardedPlane>(refs[n].planes[p]));
            ref_views[n].push_back(guarded.back()->view());
            guarded.push_back(std::make_unique<GuardedPlane>(diss[n].planes[p]));
            dis_views[n].push_back(guarded.back()->view());
        }
    ScoreConfig cfg;
    cfg.no_prediction = true;
    cfg.features = every_feature(g);
    ASSERT_GE(cfg.features.size(), 10u) << pair;
    int compared = 0;
    for (const LevelMask& lm : kLevelMasks) {
        if (simd_level(lm.mask) != lm.level) {
            std::printf("%s: this CPU does not run level %s\n", pair.c_str(), simd_level_name(lm.level));
            continue;
        }
        for (const unsigned threads : {0u, 2u}) {
            cfg.compute.cpumask = lm.mask;
            cfg.threads = threads;
            Scorer by_view(cfg, g), by_picture(cfg, g);
            for (unsigned n = 0; n < frames; ++n) {
                by_view.push(ref_views[n], dis_views[n]);
                by_picture.push(Picture(refs[n]), Picture(diss[n]));
            }
            SCOPED_TRACE(std::string(simd_level_name(lm.level)) + ", threads " + std::to_string(threads));
            expect_same_bits(by_view.finish(), by_picture.finish(), compared);
        }
    }
    EXPECT_GT(compared, 100) << pair;
}

TEST(PictureView, EveryExtractorReadsViewsAsPictures8Bit) {
    views_score_as_pictures("p08_brick_176x144_420p8_bilinear2x", 3);
}

TEST(PictureView, EveryExtractorReadsViewsAsPicturesHighBitDepth) {
    views_score_as_pictures("p15_chelsea_176x144_420p16_gblur", 3);
}

// What a push hands over is held until its frame is scored, then let go
// (at 2 threads: before finish() returns at the latest).
TEST(PictureView, KeepAliveLetGoOnceScored) {
    ScoreConfig cfg;
    cfg.no_prediction = true;
    cfg.features = {"psnr", "float_ssim"};
    for (const unsigned threads : {0u, 2u}) {
        cfg.threads = threads;
        Scorer s(cfg, {64, 48, 8, PixelFormat::yuv420});
        std::vector<std::weak_ptr<const void>> held;
        for (int n = 0; n < 4; ++n) {
            auto planes = std::make_shared<std::vector<std::uint8_t>>(64 * 48 + 2 * 32 * 24, std::uint8_t(n));
            const std::uint8_t* d = planes->data();
            const PlaneView v[3] = {{d, 64, 48, 64}, {d + 64 * 48, 32, 24, 32}, {d + 64 * 48 + 32 * 24, 32, 24, 32}};
            held.push_back(planes);
            s.push(v, v, std::move(planes));
            if (threads == 0) {
                EXPECT_TRUE(held.back().expired()) << "frame " << n << " scored in push()";
            }
        }
        const ScoreRun run = s.finish();
        EXPECT_EQ(run.frames, 4u);
        for (const auto& w : held) EXPECT_TRUE(w.expired());
    }
}

// A view reads in place; copying one makes an owned plane of the same samples.
TEST(PictureView, PlaneViewReadsInPlace) {
    std::vector<std::uint16_t> samples(10 * 4);
    for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::uint16_t(i * 3);
    const Plane v = Plane::view({samples.data(), 10, 4, 20}, 9, 4, 2);
    EXPECT_TRUE(v.is_view());
    EXPECT_EQ(v.row<std::uint16_t>(2), samples.data() + 20);
    const Plane copy = v;
    EXPECT_FALSE(copy.is_view());
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 9; ++x) EXPECT_EQ(copy.row<std::uint16_t>(y)[x], samples[std::size_t(y * 10 + x)]);
    Plane moved = Plane::view({samples.data(), 10, 4, 20}, 9, 4, 2);
    Plane to = std::move(moved);
    EXPECT_FALSE(moved.is_view());
    EXPECT_EQ(moved.data(), nullptr);
    EXPECT_EQ(to.data(), reinterpret_cast<const std::uint8_t*>(samples.data()));
    EXPECT_THROW(Plane::view({samples.data(), 10, 4, 20}, 11, 4, 2), Error);  // wider than the view
    EXPECT_THROW(Plane::view({samples.data(), 10, 4, 10}, 10, 4, 2), Error);  // stride < row
    EXPECT_THROW(Plane::view({nullptr, 10, 4, 20}, 10, 4, 2), Error);
}

}  // namespace
}  // namespace vmafpp
