// Chooses the ADM kernel set by cpu_flags() (--cpumask / VMAFPP_CPUMASK).
#include "adm/adm_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::adm {

#if VMAFPP_ADM_AVX2
const AdmKernels* avx2_kernels_impl();  // adm_avx2.cpp (compiled with -mavx2)
#endif

const AdmKernels* avx2_kernels() {
#if VMAFPP_ADM_AVX2
    return avx2_kernels_impl();
#else
    return nullptr;
#endif
}

const AdmKernels& dispatched_kernels() {
    if ((cpu_flags() & kCpuAvx2) && avx2_kernels() != nullptr) return *avx2_kernels();
    return scalar_kernels();
}

}  // namespace vmafpp::adm
