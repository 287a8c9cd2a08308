#include "vmafpp/picture.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "base/large_alloc.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp {

namespace {
constexpr std::ptrdiff_t kRowAlign = 64;
// Extra bytes after the last row so a kernel may load one full vector past the
// end of any row without leaving the allocation.
constexpr std::ptrdiff_t kTailPad = 64;
}  // namespace

ChromaShift chroma_shift(PixelFormat fmt) {
    switch (fmt) {
        case PixelFormat::yuv420:
            return {1, 1};
        case PixelFormat::yuv422:
            return {1, 0};
        default:
            return {0, 0};
    }
}

void Plane::AlignedFree::operator()(std::uint8_t* p) const { detail::free_large(p); }

Plane::Plane(int width, int height, int bytes_per_sample)
    : width_(width), height_(height), bytes_per_sample_(bytes_per_sample) {
    if (width < 0 || height < 0 || (bytes_per_sample != 1 && bytes_per_sample != 2))
        throw Error("invalid plane geometry");
    const std::ptrdiff_t row_bytes = std::ptrdiff_t{width} * bytes_per_sample;
    stride_ = (row_bytes + kRowAlign - 1) / kRowAlign * kRowAlign;
    if (stride_ == 0) stride_ = kRowAlign;
    const std::size_t bytes = static_cast<std::size_t>(stride_ * height + kTailPad);
    void* p = detail::allocate_large(bytes, kRowAlign);
    std::memset(p, 0, bytes);
    data_.reset(static_cast<std::uint8_t*>(p));
}

Plane::Plane(const Plane& other) : Plane() { *this = other; }

Plane& Plane::operator=(const Plane& other) {
    if (this == &other) return *this;
    if (!other.data_) {
        *this = Plane();
        return *this;
    }
    Plane copy(other.width_, other.height_, other.bytes_per_sample_);
    std::memcpy(copy.data_.get(), other.data_.get(),
                static_cast<std::size_t>(other.stride_ * other.height_));
    *this = std::move(copy);
    return *this;
}

Picture::Picture(int w, int h, int bits, PixelFormat fmt, bool with_chroma)
    : width(w), height(h), bpc(bits), format(fmt) {
    const int bps = bits > 8 ? 2 : 1;
    planes[0] = Plane(w, h, bps);
    if (fmt == PixelFormat::yuv400 || !with_chroma) return;
    // libvmaf's chroma planes are floor(w / 2) x floor(h / 2) for subsampled
    // formats; the readers map ceil-sized file planes onto these.
    const ChromaShift s = chroma_shift(fmt);
    planes[1] = Plane(w >> s.x, h >> s.y, bps);
    planes[2] = Plane(w >> s.x, h >> s.y, bps);
}

}  // namespace vmafpp
