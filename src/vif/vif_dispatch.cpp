// Which VIF kernel table runs: chosen from vmafpp::simd_level(), the same
// function that names the level in `vmafpp --version`.
#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

const VifKernels& vif_kernels_for(SimdLevel level) {
    switch (level) {
#if VMAFPP_X86_KERNELS
        case SimdLevel::avx2:
            return vif_kernels_avx2();
        case SimdLevel::avx512:
            return vif_kernels_avx512();
        case SimdLevel::avx512icl:
            return vif_kernels_avx512icl();
#endif
        default:
            break;
    }
    return vif_kernels_scalar();
}

}  // namespace vmafpp::vif
