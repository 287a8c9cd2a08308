// Instruction-set levels and libvmaf's --cpumask semantics.
#pragma once

#include <string>

namespace vmafpp {

// Bits as libvmaf numbers them; a set bit in the mask DISABLES that level.
enum CpuFlag : unsigned {
    kCpuSse2 = 1u << 0,
    kCpuSsse3 = 1u << 1,
    kCpuSse41 = 1u << 2,
    kCpuAvx2 = 1u << 3,
    kCpuAvx512 = 1u << 4,
    kCpuAvx512Icl = 1u << 5,
};

// What this CPU (and OS, for the AVX state) supports.
unsigned detected_cpu_flags();

// Restricts the levels kernels may use; call before creating any extractor
// (kernel tables are chosen once, when first needed). 4294967295 = scalar only.
void set_cpu_mask(unsigned mask);

// detected_cpu_flags() & ~mask, further limited by the VMAFPP_CPUMASK
// environment variable if set (same meaning as --cpumask).
unsigned cpu_flags();

// "avx512", "avx2" or "scalar": the best level kernels will use.
std::string simd_level_name();

}  // namespace vmafpp
