#include "vmafpp/picture.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

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
    if (!other.data()) {
        *this = Plane();
        return *this;
    }
    Plane copy(other.width_, other.height_, other.bytes_per_sample_);
    const std::size_t row_bytes = static_cast<std::size_t>(other.width_) * other.bytes_per_sample_;
    for (int y = 0; y < other.height_; ++y)
        std::memcpy(copy.row<std::uint8_t>(y), other.row<std::uint8_t>(y), row_bytes);
    *this = std::move(copy);
    return *this;
}

Plane::Plane(Plane&& other) noexcept { *this = std::move(other); }

// A moved-from plane is empty (a view's pointer does not stay behind).
Plane& Plane::operator=(Plane&& other) noexcept {
    if (this == &other) return *this;
    width_ = std::exchange(other.width_, 0);
    height_ = std::exchange(other.height_, 0);
    bytes_per_sample_ = std::exchange(other.bytes_per_sample_, 1);
    stride_ = std::exchange(other.stride_, 0);
    data_ = std::move(other.data_);
    view_ = std::exchange(other.view_, nullptr);
    keep_alive_ = std::move(other.keep_alive_);
    return *this;
}

Plane::~Plane() = default;

Plane Plane::view(const PlaneView& v, int width, int height, int bytes_per_sample,
                  std::shared_ptr<const void> keep_alive) {
    if (width < 0 || height < 0 || (bytes_per_sample != 1 && bytes_per_sample != 2) ||
        v.width < width || v.height < height || v.stride < std::ptrdiff_t{width} * bytes_per_sample ||
        (!v.data && width > 0 && height > 0))
        throw Error("invalid plane view");
    if (width == 0 || height == 0) return Plane(width, height, bytes_per_sample);  // no samples
    Plane p;
    p.width_ = width;
    p.height_ = height;
    p.bytes_per_sample_ = bytes_per_sample;
    p.stride_ = v.stride;
    // Never written through (see the header): the const is the caller's.
    p.view_ = static_cast<std::uint8_t*>(const_cast<void*>(v.data));
    p.keep_alive_ = std::move(keep_alive);
    return p;
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
