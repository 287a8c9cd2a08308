// The psnr_hvs kernel tables of every level (dispatch/kernel_table.hpp).
// There are no SIMD twins yet: every level has the scalar kernel.
#include "dispatch/kernel_table.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp {

const PsnrHvsKernels& psnr_hvs_kernels_for(SimdLevel level) {
    static const KernelTables<PsnrHvsKernels> tables(psnr_hvs_kernels_scalar(),
                                                     {nullptr, nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp
