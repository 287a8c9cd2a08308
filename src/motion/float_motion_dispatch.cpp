// The float motion kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. Only AArch64 has a twin (NEON); x86 levels keep
// the scalar kernel.
#include "dispatch/kernel_table.hpp"
#include "motion/float_motion_kernels.hpp"

namespace vmafpp::float_motion {

KernelsFor<FloatMotionKernels>& float_motion_kernels_for =
    kernel_table<FloatMotionKernels, float_motion_kernels_scalar, nullptr, nullptr, nullptr,
                 VMAFPP_ARM_INIT(float_motion_init_neon)>;

}  // namespace vmafpp::float_motion
