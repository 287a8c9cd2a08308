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

// A caller's plane, not owned: samples are uint8_t for 8-bit pictures and
// native-endian uint16_t above; row y starts `stride` bytes after row y - 1.
struct PlaneView {
    const void* data = nullptr;
    int width = 0;
    int height = 0;
    std::ptrdiff_t stride = 0;  // in bytes
};

// One plane of samples. 8-bit pictures store uint8_t samples, 9..16-bit pictures
// store uint16_t samples (native endian). Rows are `stride` bytes apart and
// every row starts on a 64-byte boundary so SIMD loads of a row never straddle
// a cache line at its start; the padding bytes after `width` are zero.
// A view (Plane::view) reads a caller's samples where they are instead: its
// rows start wherever the caller's do and what follows a row's `width`
// samples is the caller's; extractors read only the samples of a row.
class VMAFPP_API Plane {
public:
    Plane() = default;
    Plane(int width, int height, int bytes_per_sample);
    Plane(const Plane& other);  // deep copy (of a view too: an owned plane)
    Plane& operator=(const Plane& other);
    Plane(Plane&& other) noexcept;
    Plane& operator=(Plane&& other) noexcept;
    ~Plane();

    // A plane that reads the first `width` x `height` samples of `view`
    // (whose width and height may be larger) without copying them.
    // `keep_alive` (may be null) is held until the view and every plane it
    // is moved to are destroyed: the caller's samples must stay readable and
    // unchanged until then. A view is for reading: nothing may write
    // through data() or row(). Throws vmafpp::Error when the view is smaller
    // than width x height, its stride shorter than a row, or its data null.
    static Plane view(const PlaneView& view, int width, int height, int bytes_per_sample,
                      std::shared_ptr<const void> keep_alive = nullptr);
    // Whether this plane is a view of a caller's samples.
    bool is_view() const { return view_ != nullptr; }

    int width() const { return width_; }
    int height() const { return height_; }
    std::ptrdiff_t stride() const { return stride_; }  // in bytes
    int bytes_per_sample() const { return bytes_per_sample_; }

    std::uint8_t* data() { return view_ ? view_ : data_.get(); }
    const std::uint8_t* data() const { return view_ ? view_ : data_.get(); }

    template <class T>
    T* row(int y) {
        return reinterpret_cast<T*>(data() + y * stride_);
    }
    template <class T>
    const T* row(int y) const {
        return reinterpret_cast<const T*>(data() + y * stride_);
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
    std::uint8_t* view_ = nullptr;          // a view's samples (not owned)
    std::shared_ptr<const void> keep_alive_;  // what keeps them alive
};

// A reference or distorted picture: 1 (yuv400) or 3 planes of one bit depth.
// A picture read for extractors that all read luma only (the readers'
// set_luma_only()) has empty chroma planes (no storage, width and height 0)
// whatever its format, so no memory is spent on planes nobody reads.
// The size, bit depth and chroma format of a session's pictures.
struct FrameGeometry {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
};

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
