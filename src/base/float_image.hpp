// Float images as libvmaf's float feature extractors see them.
#pragma once

#include <cstddef>
#include <string_view>
#include <cstdint>
#include <memory>

#include "base/large_alloc.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {

// A zero-initialised float buffer of `height` rows of `stride` floats each.
// Rows start on 64-byte boundaries (stride is a multiple of 16 floats) so a
// vector kernel can load whole registers from the start of any row; the tail
// of each row beyond the used width stays addressable.
class FloatImage {
public:
    FloatImage() = default;
    FloatImage(int width, int height);

    int width() const { return width_; }
    int height() const { return height_; }
    std::ptrdiff_t stride() const { return stride_; }  // in floats

    float* data() { return data_.get(); }
    const float* data() const { return data_.get(); }
    float* row(int y) { return data_.get() + y * stride_; }
    const float* row(int y) const { return data_.get() + y * stride_; }

private:
    int width_ = 0;
    int height_ = 0;
    std::ptrdiff_t stride_ = 0;
    std::unique_ptr<float[], detail::LargeFree> data_;
};

// True for the bit depths whose conversion libvmaf defines for its float
// extractors (picture_copy: 8, 10, 12 and 16 bits). Any other depth makes
// libvmaf read 16-bit samples as bytes, which is not a result worth copying.
bool float_conversion_supports(int bpc);
// Throws vmafpp::Error "<extractor> supports 8, 10, 12 and 16 bits per
// component (got <bpc>)" unless float_conversion_supports(bpc).
void require_float_conversion(std::string_view extractor, int bpc);

// libvmaf's picture_copy: sample -> float(sample) / 2^(bpc-8) + offset, all in
// float. Dividing by a power of two is exact, so the only rounding is the
// final add. `offset` is -128 for ADM/VIF/motion/ANSNR and 0 for PSNR/moment.
void plane_to_float(const Plane& plane, int bpc, float offset, float* dst,
                    std::ptrdiff_t dst_stride);

}  // namespace vmafpp
