// Scalar kernel of float motion (libvmaf's motion.c, vmaf_image_sad_c).
#pragma once

#include <cstddef>

namespace vmafpp::float_motion {

// Mean absolute difference of two w x h float pictures: per-row float sums of
// |a - b|, added row by row (float), divided by float(w * h).
//
// libvmaf adds the double fabs() of the float difference to a float row sum,
// i.e. rounds the sum to double, then to float. For one addition of two
// floats that double rounding always equals the direct float rounding (53 >=
// 2 * 24 + 2), so a plain float add is the same operation.
float mean_abs_diff(const float* a, std::ptrdiff_t a_stride, const float* b,
                    std::ptrdiff_t b_stride, int w, int h);

}  // namespace vmafpp::float_motion
