// AVX-512 twins of the VIF row kernels (this file alone is compiled with the
// AVX-512 F/BW/DQ/CD/VL flags). The same contract as vif_avx2.cpp: the
// scalar kernel's results bit for bit on any input the scalar defines.
// Kernels without an AVX-512 twin are the AVX2 ones.
//
// No standard-library template is used here (see vif_avx2.cpp).
#include <immintrin.h>

#include <cstdint>

#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

const VifKernels& vif_kernels_avx512() {
    static const VifKernels k = [] {
        VifKernels t = vif_kernels_avx2();
        t.stat_vertical_u8 = vif_stat_vertical_u8_avx512;
        t.stat_horizontal = vif_stat_horizontal_avx512;
        return t;
    }();
    return k;
}

}  // namespace vmafpp::vif
