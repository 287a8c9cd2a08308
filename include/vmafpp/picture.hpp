// Planar pictures as every feature extractor sees them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vmafpp/export.hpp"

namespace vmafpp {

enum class PixelFormat : std::uint8_t { yuv400, yuv420, yuv422, yuv444 };

// Chroma plane size for a luma size. libvmaf's pictures use floor(w/2) while Y4M
// uses ceil(w/2); the reader decides which one a file carries (see io/).
struct ChromaShift {
    int x = 0;
    int y = 0;
};
VMAFPP_API ChromaShift chroma_shift(PixelFormat fmt);

// One plane of samples. 8-bit pictures store uint8_t samples, 9..16-bit pictures
// store uint16_t samples (native endian). Rows are `stride` bytes apart and
// every row starts on a 64-byte boundary so SIMD loads of a row never straddle
// a cache line at its start; the padding bytes after `width` are zero.
class VMAFPP_API Plane {
public:
    Plane() = default;
    Plane(int width, int height, int bytes_per_sample);
    Plane(const Plane& other);  // deep copy
    Plane& operator=(const Plane& other);
    Plane(Plane&&) noexcept = default;
    Plane& operator=(Plane&&) noexcept = default;

    int width() const { return width_; }
    int height() const { return height_; }
    std::ptrdiff_t stride() const { return stride_; }  // in bytes
    int bytes_per_sample() const { return bytes_per_sample_; }

    std::uint8_t* data() { return data_.get(); }
    const std::uint8_t* data() const { return data_.get(); }

    template <class T>
    T* row(int y) {
        return reinterpret_cast<T*>(data_.get() + y * stride_);
    }
    template <class T>
    const T* row(int y) const {
        return reinterpret_cast<const T*>(data_.get() + y * stride_);
    }

private:
    struct AlignedFree {
        void operator()(std::uint8_t* p) const;
    };
    int width_ = 0;
    int height_ = 0;
    int bytes_per_sample_ = 1;
    std::ptrdiff_t stride_ = 0;
    std::unique_ptr<std::uint8_t[], AlignedFree> data_;
};

// A reference or distorted picture: 1 (yuv400) or 3 planes of one bit depth.
// A picture read for extractors that all read luma only (the readers'
// set_luma_only()) has empty chroma planes (no storage, width and height 0)
// whatever its format, so no memory is spent on planes nobody reads.
struct VMAFPP_API Picture {
    Picture() = default;
    Picture(int width, int height, int bpc, PixelFormat fmt, bool with_chroma = true);

    int width = 0;
    int height = 0;
    int bpc = 8;  // bits per component, 8..16
    PixelFormat format = PixelFormat::yuv420;
    std::array<Plane, 3> planes;

    int plane_count() const { return format == PixelFormat::yuv400 ? 1 : 3; }
    // Whether planes[1] and [2] have storage: false for 4:0:0 and for a
    // picture read luma only (see above).
    bool has_chroma() const { return plane_count() == 3 && planes[1].data() != nullptr; }
    const Plane& luma() const { return planes[0]; }
};

}  // namespace vmafpp
