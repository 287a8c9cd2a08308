// What float VIF's bilinear scaler and SpEED's bicubic and Lanczos scalers
// (libvmaf's vif_scale_frame_*_s) share: the mirror at the picture's edges
// and the loop that samples the source at each output sample's centre.
#pragma once

#include <cstddef>

namespace vmafpp::float_vif {

// libvmaf's mirror() on floats (reflect about the first and last sample).
inline float mirror_f(float i, float left, float right) {
    return i < left ? -i : (i > right ? 2 * right - i : i);
}

// dst (dst_w x dst_h) from src (src_w x src_h, another size): each output
// sample is at(src, src_stride, src_w, src_h, x, y) at the source point of
// its centre, (i + 0.5) * ratio - 0.5, formed in double from the float ratio
// and narrowed to float.
template <class At>
void resample(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h, float* dst,
              std::ptrdiff_t dst_stride, int dst_w, int dst_h, At at) {
    const float ratio_x = static_cast<float>(src_w) / dst_w;
    const float ratio_y = static_cast<float>(src_h) / dst_h;
    for (int y = 0; y < dst_h; ++y) {
        const float sy = static_cast<float>((y + 0.5) * ratio_y - 0.5);
        for (int x = 0; x < dst_w; ++x) {
            const float sx = static_cast<float>((x + 0.5) * ratio_x - 0.5);
            dst[y * dst_stride + x] = at(src, src_stride, src_w, src_h, sx, sy);
        }
    }
}

}  // namespace vmafpp::float_vif
