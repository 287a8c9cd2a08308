// The ADM kernel tables of every level, built by the one ladder of
// dispatch/kernel_table.hpp. No ADM kernel uses the ICL extensions yet.
#include "adm/adm_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp::adm {

KernelsFor<AdmKernels>& adm_kernels_for =
    kernel_table<AdmKernels, adm_kernels_scalar, VMAFPP_X86_INIT(adm_init_avx2),
                 VMAFPP_X86_INIT(adm_init_avx512), nullptr, VMAFPP_ARM_INIT(adm_init_neon)>;

}  // namespace vmafpp::adm
