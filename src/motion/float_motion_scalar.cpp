#include "motion/float_motion_kernels.hpp"

#include <cmath>

namespace vmafpp::float_motion {

float mean_abs_diff(const float* a, std::ptrdiff_t a_stride, const float* b,
                    std::ptrdiff_t b_stride, int w, int h) {
    float sum = 0.0f;
    for (int i = 0; i < h; ++i) {
        const float* ra = a + i * a_stride;
        const float* rb = b + i * b_stride;
        float row = 0.0f;
        for (int j = 0; j < w; ++j) row += std::fabs(ra[j] - rb[j]);
        sum += row;
    }
    // The pixel count is an int converted to float (rounds above 2^24).
    return sum / static_cast<float>(w * h);
}

}  // namespace vmafpp::float_motion

namespace vmafpp::float_motion {

const FloatMotionKernels& float_motion_kernels_scalar() {
    static const FloatMotionKernels k{&mean_abs_diff};
    return k;
}

}  // namespace vmafpp::float_motion
