// The SpEED kernel tables of every level (dispatch/kernel_table.hpp):
// AVX2, AVX-512 and NEON twins of the covariance and vertical kernels.
#include "dispatch/kernel_table.hpp"
#include "speed/speed_kernels.hpp"

namespace vmafpp::speed {

KernelsFor<SpeedKernels>& speed_kernels_for =
    kernel_table<SpeedKernels, speed_kernels_scalar, VMAFPP_X86_INIT(speed_init_avx2),
                 VMAFPP_X86_INIT(speed_init_avx512), nullptr, VMAFPP_ARM_INIT(speed_init_neon)>;

}  // namespace vmafpp::speed
