// The motion kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. No motion kernel gains from the ICL extensions.
#include "dispatch/kernel_table.hpp"
#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

KernelsFor<MotionKernels>& motion_kernels_for =
    kernel_table<MotionKernels, motion_kernels_scalar, VMAFPP_X86_INIT(motion_init_avx2),
                 VMAFPP_X86_INIT(motion_init_avx512), nullptr, VMAFPP_ARM_INIT(motion_init_neon)>;

}  // namespace vmafpp::motion
