// The SSIM kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp.
#include "dispatch/kernel_table.hpp"
#include "ssim/ssim_kernels.hpp"

namespace vmafpp::ssim {

KernelsFor<SsimKernels>& ssim_kernels_for =
    kernel_table<SsimKernels, ssim_kernels_scalar, VMAFPP_X86_INIT(ssim_init_avx2),
                 VMAFPP_X86_INIT(ssim_init_avx512), nullptr, VMAFPP_ARM_INIT(ssim_init_neon)>;

}  // namespace vmafpp::ssim
