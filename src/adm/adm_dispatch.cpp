// Chooses the ADM kernel set from vmafpp::simd_level() (itself from
// cpu_flags(): --cpumask / VMAFPP_CPUMASK), like every other kernel table.
#include "adm/adm_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::adm {

#if VMAFPP_X86_KERNELS
const AdmKernels* avx2_kernels_impl();    // adm_avx2.cpp (compiled with -mavx2)
const AdmKernels* avx512_kernels_impl();  // adm_avx512.cpp (compiled with -mavx512*)
#endif

const AdmKernels* avx2_kernels() {
#if VMAFPP_X86_KERNELS
    return avx2_kernels_impl();
#else
    return nullptr;
#endif
}

const AdmKernels* avx512_kernels() {
#if VMAFPP_X86_KERNELS
    return avx512_kernels_impl();
#else
    return nullptr;
#endif
}

const AdmKernels& dispatched_kernels() {
    switch (simd_level()) {
        // No ADM kernel uses the ICL extensions yet.
        case SimdLevel::avx512:
        case SimdLevel::avx512icl:
            if (avx512_kernels() != nullptr) return *avx512_kernels();
            break;
        case SimdLevel::avx2:
            if (avx2_kernels() != nullptr) return *avx2_kernels();
            break;
        case SimdLevel::scalar: break;
    }
    return scalar_kernels();
}

}  // namespace vmafpp::adm
