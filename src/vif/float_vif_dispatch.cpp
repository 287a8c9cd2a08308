// The float VIF blur tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. Only AArch64 has twins (NEON); x86 levels keep
// the scalar kernels.
#include "dispatch/kernel_table.hpp"
#include "vif/float_vif_kernels.hpp"

namespace vmafpp::float_vif {

KernelsFor<FloatVifKernels>& float_vif_kernels_for =
    kernel_table<FloatVifKernels, float_vif_kernels_scalar, nullptr, nullptr, nullptr,
                 VMAFPP_ARM_INIT(float_vif_init_neon)>;

}  // namespace vmafpp::float_vif
