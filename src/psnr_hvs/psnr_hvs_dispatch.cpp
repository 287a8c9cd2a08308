// The psnr_hvs kernel tables of every level (dispatch/kernel_table.hpp).
// AVX2, AVX-512 and NEON have twins of the plane kernel; ICL inherits
// AVX-512's.
#include "dispatch/kernel_table.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp::psnr_hvs {

KernelsFor<PsnrHvsKernels>& psnr_hvs_kernels_for =
    kernel_table<PsnrHvsKernels, psnr_hvs_kernels_scalar, VMAFPP_X86_INIT(psnr_hvs_init_avx2),
                 VMAFPP_X86_INIT(psnr_hvs_init_avx512), nullptr,
                 VMAFPP_ARM_INIT(psnr_hvs_init_neon)>;

}  // namespace vmafpp::psnr_hvs
