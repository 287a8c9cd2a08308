// Working buffers of a megabyte or more: frame-sized planes, ADM's bands,
// motion's history. They are allocated once per extractor or picture and
// touched on every frame, so they are placed where the kernel may back them
// with 2 MiB pages (transparent huge pages, asked for with madvise): a 1080p
// plane then costs one page fault instead of 512 on its first frame, and one
// TLB entry instead of 512 on every pass after.
//
// A buffer of B bytes takes huge pages for its whole 2 MiB extents only: it
// starts on a 2 MiB boundary when B >= 2 MiB, and B is rounded up to the
// next 2 MiB when that adds at most a quarter of a huge page (1080p's
// 1920 x 1080 bytes become one page). Smaller buffers are plain aligned
// allocations. Where the system refuses huge pages the advice is ignored.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace vmafpp::detail {

// At least `align`-aligned storage of `bytes` bytes (align: a power of two
// up to 4096), uninitialised; released with free_large(). Throws
// std::bad_alloc.
void* allocate_large(std::size_t bytes, std::size_t align);
void free_large(void* p) noexcept;

struct LargeFree {
    void operator()(void* p) const noexcept { free_large(p); }
};

// std::vector's allocator for such buffers.
template <class T>
struct LargeAllocator {
    using value_type = T;
    LargeAllocator() = default;
    template <class U>
    LargeAllocator(const LargeAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(allocate_large(n * sizeof(T), alignof(T) < 64 ? 64 : alignof(T)));
    }
    void deallocate(T* p, std::size_t) noexcept { free_large(p); }
    template <class U>
    bool operator==(const LargeAllocator<U>&) const noexcept {
        return true;
    }
};

// An uninitialised array of n T (T trivially constructible).
template <class T>
std::unique_ptr<T[], LargeFree> make_large_array(std::size_t n) {
    return std::unique_ptr<T[], LargeFree>(LargeAllocator<T>().allocate(n));
}

}  // namespace vmafpp::detail
