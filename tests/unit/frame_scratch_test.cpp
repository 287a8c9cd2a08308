// The per-frame scratch extractors of one worker share (base/frame_scratch.hpp):
// the pool's bookkeeping, and ADM, VIF and cambi giving the same values when
// they share one block, in either order, as each alone, with the block
// overwritten between their calls.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/frame_scratch.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {
namespace {

using detail::FrameScratch;

TEST(FrameScratch, APoolHoldsTheLargestNeedOfItsUsers) {
    FrameScratch a(1000), b(5000), c(3000);
    EXPECT_FALSE(a.shares_with(b));
    b.share(a);
    c.share(a);
    EXPECT_TRUE(a.shares_with(b));
    EXPECT_TRUE(c.shares_with(b));
    EXPECT_EQ(a.size(), 5000u);
    std::byte* block = a.get();
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(b.get(), block);
    EXPECT_EQ(c.get(), block);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % 64, 0u);
    std::memset(block, 0x5a, 5000);  // every byte is there
}

TEST(FrameScratch, AUserJoiningLaterGrowsTheBlock) {
    FrameScratch a(100), b(1 << 22);
    a.get();
    b.share(a);
    std::byte* block = a.get();
    EXPECT_EQ(b.get(), block);
    EXPECT_EQ(a.size(), std::size_t{1} << 22);
    std::memset(block, 0x5a, std::size_t{1} << 22);
}

TEST(FrameScratch, APoolWithOtherUsersDoesNotMove) {
    FrameScratch a(10), b(20), c(30);
    b.share(a);
    b.share(c);  // b's pool has a in it: b stays
    EXPECT_TRUE(b.shares_with(a));
    EXPECT_FALSE(b.shares_with(c));
    EXPECT_EQ(c.size(), 30u);
}

TEST(FrameScratch, NothingIsAllocatedBeforeTheFirstGet) {
    FrameScratch none;
    EXPECT_EQ(none.get(), nullptr);
}

Picture noise_picture(int w, int h, int bpc, std::uint32_t seed) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(0, (1 << bpc) - 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            // The left half a noisy ramp (flat and textured neighbourhoods for
            // VIF and ADM), the right half a slow staircase (bands for cambi).
            const int top = (1 << bpc) - 1;
            const int v = x < w / 2 ? ((x * 5 + y * 3) % (top + 1) + dist(rng)) / 2
                                    : (top / 4 + ((x + y) / 24 + (seed % 3)) * (top + 1) / 256) % (top + 1);
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

using Instances = std::vector<std::unique_ptr<FeatureExtractor>>;

// The instances of `features`, each meeting the ones before it as a
// pipeline worker's do.
Instances make_worker(const std::vector<std::string>& features, const FrameGeometry& geo,
                      bool meet) {
    Instances out;
    for (const std::string& f : features) {
        const FeatureInfo* info = find_feature(f);
        EXPECT_NE(info, nullptr) << f;
        auto made = info->create(OptionValues(info->options), geo);
        if (meet)
            for (auto& earlier : out) made->meet(*earlier);
        out.push_back(std::move(made));
    }
    return out;
}

detail::FrameScratch& scratch_of(FeatureExtractor& e) {
    auto* s = dynamic_cast<detail::SharesFrameScratch*>(&e);
    EXPECT_NE(s, nullptr);
    return s->frame_scratch();
}

// Every value of every instance over `frames` frames; with `poison`, the
// shared block is filled with `poison` before each extractor's call.
test::RecordingSink run_worker(Instances& worker, int w, int h, int bpc, int frames,
                               const int* poison) {
    test::RecordingSink sink;
    for (int f = 0; f < frames; ++f) {
        const Picture ref = noise_picture(w, h, bpc, 2 * f + 1);
        const Picture dis = noise_picture(w, h, bpc, 2 * f + 2);
        for (auto& e : worker) {
            if (poison) {
                FrameScratch& s = scratch_of(*e);
                std::memset(s.get(), *poison, s.size());
            }
            e->extract(ref, dis, static_cast<unsigned>(f), sink);
        }
    }
    for (auto& e : worker) e->flush(sink);
    return sink;
}

class SharedScratch : public ::testing::TestWithParam<int> {};

TEST_P(SharedScratch, ExtractorsSharingABlockGiveTheValuesOfEachAlone) {
    const int bpc = GetParam();
    const int w = 256, h = 224, frames = 3;  // cambi needs 216 in one side
    const FrameGeometry geo{w, h, bpc, PixelFormat::yuv420};
    const std::vector<std::string> order = {"adm", "vif", "cambi"};
    const std::vector<std::string> reversed = {"cambi", "vif", "adm"};

    Instances alone = make_worker(order, geo, false);
    EXPECT_FALSE(scratch_of(*alone[0]).shares_with(scratch_of(*alone[1])));
    const test::RecordingSink expected = run_worker(alone, w, h, bpc, frames, nullptr);
    ASSERT_FALSE(expected.values.empty());

    for (const auto& features : {order, reversed})
        for (int poison : {0x00, 0xa5, 0xff}) {
            Instances shared = make_worker(features, geo, true);
            for (std::size_t i = 1; i < shared.size(); ++i)
                ASSERT_TRUE(scratch_of(*shared[0]).shares_with(scratch_of(*shared[i])));
            const test::RecordingSink got = run_worker(shared, w, h, bpc, frames, &poison);
            ASSERT_EQ(got.values.size(), expected.values.size());
            for (const auto& [key, by_frame] : expected.values)
                for (const auto& [frame, value] : by_frame) {
                    const auto k = got.values.find(key);
                    ASSERT_NE(k, got.values.end()) << key;
                    // Bit for bit.
                    EXPECT_EQ(std::memcmp(&k->second.at(frame), &value, sizeof value), 0)
                        << key << " frame " << frame << " poison " << poison << ": "
                        << k->second.at(frame) << " vs " << value;
                }
        }
}

INSTANTIATE_TEST_SUITE_P(Depths, SharedScratch, ::testing::Values(8, 10));

}  // namespace
}  // namespace vmafpp
