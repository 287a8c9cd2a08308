// Chooses the ADM kernel set from vmafpp::simd_level() (itself from
// cpu_flags(): --cpumask / VMAFPP_CPUMASK), like every other kernel table.
#include "adm/adm_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::adm {

#if VMAFPP_X86_KERNELS
const AdmKernels* avx2_kernels_impl();  // adm_avx2.cpp (compiled with -mavx2)
#endif

const AdmKernels* avx2_kernels() {
#if VMAFPP_X86_KERNELS
    return avx2_kernels_impl();
#else
    return nullptr;
#endif
}

const AdmKernels& dispatched_kernels() {
    if (simd_level() == SimdLevel::avx2 && avx2_kernels() != nullptr) return *avx2_kernels();
    return scalar_kernels();
}

}  // namespace vmafpp::adm
