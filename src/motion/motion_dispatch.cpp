// Which motion kernel table runs: chosen from vmafpp::simd_level(), the same
// function that names the level in `vmafpp --version`.
#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

const MotionKernels& motion_kernels_for(SimdLevel level) {
    switch (level) {
#if VMAFPP_X86_KERNELS
        case SimdLevel::avx2: return motion_kernels_avx2();
        // No motion kernel gains from the ICL extensions.
        case SimdLevel::avx512:
        case SimdLevel::avx512icl: return motion_kernels_avx512();
#endif
        default: break;
    }
    return motion_kernels_scalar();
}

}  // namespace vmafpp::motion
