// detail::allocate_large: alignment, size and the 2 MiB placement that lets
// the kernel back a buffer with huge pages.
#include "base/large_alloc.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "vmafpp/picture.hpp"

namespace {

using vmafpp::detail::allocate_large;
using vmafpp::detail::free_large;

constexpr std::size_t kHuge = std::size_t{2} << 20;

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(LargeAlloc, SmallBuffersKeepTheRequestedAlignment) {
    for (std::size_t align : {8u, 16u, 64u, 4096u}) {
        for (std::size_t bytes : {1u, 63u, 64u, 1000u, 100000u}) {
            void* p = allocate_large(bytes, align);
            ASSERT_NE(p, nullptr);
            EXPECT_EQ(address(p) % align, 0u) << bytes << " bytes, align " << align;
            std::memset(p, 0xA5, bytes);  // the whole size is ours (ASan checks)
            free_large(p);
        }
    }
}

// A buffer of 2 MiB or more starts on a huge-page boundary, so its whole
// 2 MiB extents can be huge pages; one just under 2 MiB (a 1080p 8-bit plane)
// is rounded up to one.
TEST(LargeAlloc, LargeBuffersStartOnAHugePage) {
    for (std::size_t bytes : {kHuge, kHuge + 1, std::size_t{1920 * 1080 + 64}, 3 * kHuge + 12345}) {
        void* p = allocate_large(bytes, 64);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(address(p) % kHuge, 0u) << bytes << " bytes";
        std::memset(p, 0x5A, bytes);
        free_large(p);
    }
    // A megabyte is not worth a huge page: the rounding would double it.
    void* p = allocate_large(std::size_t{1} << 20, 64);
    EXPECT_EQ(address(p) % 64, 0u);
    free_large(p);
}

TEST(LargeAlloc, VectorAllocatorHoldsItsElements) {
    std::vector<std::uint16_t, vmafpp::detail::LargeAllocator<std::uint16_t>> v(1600000, 7);
    EXPECT_EQ(address(v.data()) % kHuge, 0u);
    EXPECT_EQ(v.front(), 7);
    EXPECT_EQ(v.back(), 7);
    v.assign(10, 3);
    EXPECT_EQ(v[9], 3);
}

TEST(LargeAlloc, PlanesKeepTheirRowAlignmentAndZeroPadding) {
    const vmafpp::Plane p(1921, 1080, 1);  // over 2 MiB with its padding
    EXPECT_EQ(address(p.data()) % kHuge, 0u);
    EXPECT_EQ(p.stride() % 64, 0);
    for (int y = 0; y < p.height(); y += 97)
        for (std::ptrdiff_t x = 1921; x < p.stride(); ++x)
            ASSERT_EQ(p.row<std::uint8_t>(y)[x], 0) << "row " << y << " byte " << x;
}

}  // namespace
