// The VIF kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp.
#include "dispatch/kernel_table.hpp"
#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

KernelsFor<VifKernels>& vif_kernels_for =
    kernel_table<VifKernels, vif_kernels_scalar, VMAFPP_X86_INIT(vif_init_avx2),
                 VMAFPP_X86_INIT(vif_init_avx512), VMAFPP_X86_INIT(vif_init_avx512icl),
                 VMAFPP_ARM_INIT(vif_init_neon)>;

}  // namespace vmafpp::vif
