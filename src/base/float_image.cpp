#include "base/float_image.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "vmafpp/error.hpp"

namespace vmafpp {

FloatImage::FloatImage(int width, int height) : width_(width), height_(height) {
    if (width <= 0 || height <= 0) throw Error("invalid float image size");
    constexpr std::ptrdiff_t kFloatsPerLine = 16;  // 64 bytes
    stride_ = (std::ptrdiff_t{width} + kFloatsPerLine - 1) / kFloatsPerLine * kFloatsPerLine;
    const std::size_t bytes = static_cast<std::size_t>(stride_ * height) * sizeof(float);
    data_ = detail::make_large_array<float>(bytes / sizeof(float));
    std::memset(data_.get(), 0, bytes);
}

bool float_conversion_supports(int bpc) { return bpc == 8 || bpc == 10 || bpc == 12 || bpc == 16; }

void require_float_conversion(std::string_view extractor, int bpc) {
    if (!float_conversion_supports(bpc))
        throw Error(std::string(extractor) + " supports 8, 10, 12 and 16 bits per component (got " +
                    std::to_string(bpc) + ")");
}

void plane_to_float(const Plane& plane, int bpc, float offset, float* dst,
                    std::ptrdiff_t dst_stride) {
    const int w = plane.width();
    const int h = plane.height();
    if (bpc == 8) {
        for (int y = 0; y < h; ++y) {
            const std::uint8_t* src = plane.row<std::uint8_t>(y);
            float* out = dst + y * dst_stride;
            for (int x = 0; x < w; ++x) out[x] = static_cast<float>(src[x]) + offset;
        }
        return;
    }
    // 10 -> 4, 12 -> 16, 16 -> 256: libvmaf divides by these float constants.
    const float scaler = static_cast<float>(1 << (bpc - 8));
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* src = plane.row<std::uint16_t>(y);
        float* out = dst + y * dst_stride;
        for (int x = 0; x < w; ++x) out[x] = static_cast<float>(src[x]) / scaler + offset;
    }
}

}  // namespace vmafpp
