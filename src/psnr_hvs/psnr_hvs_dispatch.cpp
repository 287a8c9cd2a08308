// The psnr_hvs kernel tables of every level (dispatch/kernel_table.hpp).
// AVX2 has a twin of the plane kernel; the AVX-512 levels inherit it.
#include "dispatch/kernel_table.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp {

const PsnrHvsKernels& psnr_hvs_kernels_for(SimdLevel level) {
    static const KernelTables<PsnrHvsKernels> tables(psnr_hvs_kernels_scalar(),
                                                     {VMAFPP_X86_INIT(psnr_hvs_init_avx2), nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp
