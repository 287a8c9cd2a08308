// Helpers shared by the harnesses.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

#include "vmafpp/picture.hpp"

namespace vmafpp::fuzz {

// An in-memory file holding `data`, so the fd code path of ByteSource (read,
// readv, refills) runs on exactly the bytes the memory path sees.
class MemFile {
public:
    MemFile(const std::uint8_t* data, std::size_t size) {
        fd_ = memfd_create("vmafpp-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) std::abort();
        std::size_t done = 0;
        while (done < size) {
            const ssize_t k = ::write(fd_, data + done, size - done);
            if (k <= 0) std::abort();
            done += std::size_t(k);
        }
    }
    ~MemFile() { ::close(fd_); }
    MemFile(const MemFile&) = delete;
    MemFile& operator=(const MemFile&) = delete;
    // A path that opens the file from its start.
    std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

private:
    int fd_ = -1;
};

// Crashes (a finding) when a sample exceeds the picture's bit depth: the
// readers promise never to hand such a picture to the kernels.
inline void check_sample_range(const Picture& pic) {
    if (pic.bpc == 8) return;
    const unsigned limit = (1u << pic.bpc) - 1;
    for (int p = 0; p < pic.plane_count(); ++p) {
        const Plane& pl = pic.planes[p];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x)
                if (pl.row<std::uint16_t>(y)[x] > limit) std::abort();
    }
}

// Crashes when two pictures differ in geometry or any sample.
inline void check_same(const Picture& a, const Picture& b) {
    if (a.width != b.width || a.height != b.height || a.bpc != b.bpc || a.format != b.format)
        std::abort();
    for (int p = 0; p < a.plane_count(); ++p) {
        const Plane& pa = a.planes[p];
        const Plane& pb = b.planes[p];
        if (pa.width() != pb.width() || pa.height() != pb.height()) std::abort();
        const std::size_t row = std::size_t(pa.width()) * std::size_t(pa.bytes_per_sample());
        for (int y = 0; y < pa.height(); ++y)
            if (std::memcmp(pa.row<std::uint8_t>(y), pb.row<std::uint8_t>(y), row) != 0) std::abort();
    }
}

}  // namespace vmafpp::fuzz
