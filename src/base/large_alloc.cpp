#include "base/large_alloc.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vmafpp::detail {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

void* allocate_large(std::size_t bytes, std::size_t align) {
    if (bytes == 0) bytes = 1;
    std::size_t len = round_up(bytes, kPage);
    if (len % kHugePage >= kHugePage - kHugePage / 4) len = round_up(len, kHugePage);
    // posix_memalign: unlike aligned_alloc, any size for any alignment.
    void* p = nullptr;
    if (len < kHugePage) {
        if (::posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align, bytes) != 0)
            throw std::bad_alloc();
        return p;
    }
    if (::posix_memalign(&p, kHugePage, len) != 0) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: a kernel without transparent huge pages refuses it.
    (void)::madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void free_large(void* p) noexcept { std::free(p); }

}  // namespace vmafpp::detail
