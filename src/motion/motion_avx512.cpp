// AVX-512 twins of the motion kernels (this file alone is compiled with the
// AVX-512 F/BW/DQ/CD/VL flags). The same contract as motion_avx2.cpp: the
// scalar kernel's results bit for bit on any input. Kernels without an
// AVX-512 twin are the AVX2 ones.
//
// No standard-library template is used here (see motion_avx2.cpp).
#include <immintrin.h>

#include <cstdint>

#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

const MotionKernels& motion_kernels_avx512() {
    static const MotionKernels k = [] {
        MotionKernels t = motion_kernels_avx2();
        return t;
    }();
    return k;
}

}  // namespace vmafpp::motion
