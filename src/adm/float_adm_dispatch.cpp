// The float ADM kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. Only AArch64 has twins (NEON); x86 levels keep
// the scalar kernels (whose division is rcpss-based there, as libvmaf's).
#include "adm/float_adm_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp::float_adm {

KernelsFor<FloatAdmKernels>& float_adm_kernels_for =
    kernel_table<FloatAdmKernels, float_adm_kernels_scalar, nullptr, nullptr, nullptr,
                 VMAFPP_ARM_INIT(float_adm_init_neon)>;

}  // namespace vmafpp::float_adm
