// Scalar kernels of libvmaf's float_moment (moment.c).
#pragma once

#include <cstddef>

namespace vmafpp::float_moment {

// Mean of the samples: floats accumulated in one double, row-major, divided
// by w * h.
double first_moment(const float* p, std::ptrdiff_t stride, int w, int h);
// Mean of the squares: each square in float, accumulated in one double.
double second_moment(const float* p, std::ptrdiff_t stride, int w, int h);

}  // namespace vmafpp::float_moment
