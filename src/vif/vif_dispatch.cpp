// The VIF kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp.
#include "dispatch/kernel_table.hpp"
#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

const VifKernels& vif_kernels_for(SimdLevel level) {
    return kernel_table<VifKernels, vif_kernels_scalar, VMAFPP_X86_INIT(vif_init_avx2),
                        VMAFPP_X86_INIT(vif_init_avx512), VMAFPP_X86_INIT(vif_init_avx512icl),
                        VMAFPP_ARM_INIT(vif_init_neon)>(level);
}

}  // namespace vmafpp::vif
