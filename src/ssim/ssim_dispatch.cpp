// The SSIM kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. There are no SIMD twins yet: every level gets
// the scalar table.
#include "dispatch/kernel_table.hpp"
#include "ssim/ssim_kernels.hpp"

namespace vmafpp::ssim {

const SsimKernels& ssim_kernels_for(SimdLevel level) {
    static const KernelTables<SsimKernels> tables(ssim_kernels_scalar(),
                                                  {nullptr, nullptr, nullptr});
    return tables[level];
}

}  // namespace vmafpp::ssim
