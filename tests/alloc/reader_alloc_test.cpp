// The readers allocate nothing per frame once the first frame is read: this
// binary replaces the global operator new to count allocations, which is why
// it is not part of vmafpp_tests (the replacement is program-wide).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "support/synthetic_video.hpp"
#include "vmafpp/reader.hpp"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace vmafpp {
namespace {

using test::Geometry;

// Reads every frame; returns the allocations made after the first frame.
long allocations_after_first_frame(VideoReader& r, int expected_frames,
                                   const std::uint8_t** luma_data) {
    Picture pic;
    EXPECT_TRUE(r.read(pic));
    *luma_data = pic.planes[0].data();
    const long before = g_allocations.load();
    int frames = 1;
    while (r.read(pic)) {
        ++frames;
        EXPECT_EQ(pic.planes[0].data(), *luma_data);  // planes (aligned_alloc) reused
    }
    EXPECT_EQ(frames, expected_frames);
    return g_allocations.load() - before;
}

class NoAllocationPerFrame : public ::testing::TestWithParam<Geometry> {};

TEST_P(NoAllocationPerFrame, Y4m) {
    const Geometry g = GetParam();
    const auto path = test::write_file("alloc_" + std::to_string(g.width) + "_" + std::to_string(g.bpc) + ".y4m",
                                       test::y4m_file(g, 100));
    auto r = open_y4m(path);
    const std::uint8_t* luma = nullptr;
    EXPECT_EQ(allocations_after_first_frame(*r, 100, &luma), 0);
}

TEST_P(NoAllocationPerFrame, Raw) {
    const Geometry g = GetParam();
    const auto path = test::write_file("alloc_" + std::to_string(g.width) + "_" + std::to_string(g.bpc) + ".yuv",
                                       test::raw_file(g, 100));
    auto r = open_raw_yuv(path, RawFormat{g.width, g.height, g.bpc, g.format});
    const std::uint8_t* luma = nullptr;
    EXPECT_EQ(allocations_after_first_frame(*r, 100, &luma), 0);
}

// Even sizes (direct row reads), odd 4:2:0 (scratch rows for ceil chroma),
// high bit depth (range check), and a frame larger than the source buffer.
INSTANTIATE_TEST_SUITE_P(Geometries, NoAllocationPerFrame,
                         ::testing::Values(Geometry{64, 36, PixelFormat::yuv420, 8},
                                           Geometry{33, 19, PixelFormat::yuv420, 8},
                                           Geometry{31, 7, PixelFormat::yuv422, 10},
                                           Geometry{200, 120, PixelFormat::yuv444, 12}));

// The counter sees allocations at all (a test that cannot fail proves nothing).
TEST(AllocationCounter, CountsStringGrowth) {
    const long before = g_allocations.load();
    std::string s(1000, 'x');
    EXPECT_GT(g_allocations.load(), before);
}

}  // namespace
}  // namespace vmafpp
