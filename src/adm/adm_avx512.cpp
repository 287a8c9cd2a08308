// AVX-512 twins of the integer ADM kernels (this file alone is compiled with
// the AVX-512 F/BW/DQ/CD/VL flags). The same contract as adm_avx2.cpp: each
// kernel returns the scalar kernel's values bit for bit on any input the
// scalar defines. Kernels without an AVX-512 twin are the AVX2 ones.
//
// No standard-library template is used here (see adm_avx2.cpp).
#include <immintrin.h>

#include <cstdint>

#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {

const AdmKernels* avx2_kernels_impl();

const AdmKernels* avx512_kernels_impl() {
    static const AdmKernels k = [] {
        AdmKernels t = *avx2_kernels_impl();
        return t;
    }();
    return &k;
}

}  // namespace vmafpp::adm
