// The ciede kernel tables of every level (dispatch/kernel_table.hpp): the
// AVX2, AVX-512 and NEON twins of the row share ciede_simd.hpp; the ICL
// level inherits AVX-512's.
#include "ciede/ciede_kernels.hpp"
#include "dispatch/kernel_table.hpp"

namespace vmafpp::ciede {

KernelsFor<CiedeKernels>& ciede_kernels_for =
    kernel_table<CiedeKernels, ciede_kernels_scalar, VMAFPP_X86_INIT(ciede_init_avx2),
                 VMAFPP_X86_INIT(ciede_init_avx512), nullptr, VMAFPP_ARM_INIT(ciede_init_neon)>;

}  // namespace vmafpp::ciede
