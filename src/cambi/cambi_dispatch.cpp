// The cambi kernel tables of every level (dispatch/kernel_table.hpp). No
// cambi kernel gains from the ICL extensions; NEON (AArch64) twins every
// kernel, as AVX2 does.
#include "cambi/cambi_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp::cambi {

KernelsFor<CambiKernels>& cambi_kernels_for =
    kernel_table<CambiKernels, cambi_kernels_scalar, VMAFPP_X86_INIT(cambi_init_avx2),
                 VMAFPP_X86_INIT(cambi_init_avx512), nullptr, VMAFPP_ARM_INIT(cambi_init_neon)>;

}  // namespace vmafpp::cambi
