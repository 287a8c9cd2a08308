// Kernel of float motion (libvmaf's motion.c, vmaf_image_sad_c), declared once
// so that SIMD twins can be swapped in through FloatMotionKernels. A twin must
// return the scalar's bits. The blur float motion runs is float VIF's
// (float_vif_kernels.hpp), with its own table.
#pragma once

#include <cstddef>

#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::float_motion {

// Mean absolute difference of two w x h float pictures: per-row float sums of
// |a - b|, added row by row (float), divided by float(w * h).
//
// libvmaf adds the double fabs() of the float difference to a float row sum,
// i.e. rounds the sum to double, then to float. For one addition of two
// floats that double rounding always equals the direct float rounding (53 >=
// 2 * 24 + 2), so a plain float add is the same operation.
//
// Each row's sum is sequential (column 0 first), so a twin may not split a
// row across lanes; it may sum several rows at once, a row per lane.
float mean_abs_diff(const float* a, std::ptrdiff_t a_stride, const float* b,
                    std::ptrdiff_t b_stride, int w, int h);

struct FloatMotionKernels {
    decltype(&float_motion::mean_abs_diff) mean_abs_diff;
};
const FloatMotionKernels& float_motion_kernels_scalar();
// Each level's twins (kernel_table.hpp's ladder): float_motion_neon.cpp only;
// x86 runs the scalar kernel.
KernelInit<FloatMotionKernels> float_motion_init_neon;
// The table of `level` (a session's Compute::simd).
extern KernelsFor<FloatMotionKernels>& float_motion_kernels_for;

}  // namespace vmafpp::float_motion
