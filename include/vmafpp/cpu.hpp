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

// The instruction-set levels that have kernel tables. A level's table may
// reuse the level below for a kernel it has no twin of (each table says
// which); the AVX-512 level needs F, BW, DQ, CD and VL (kCpuAvx512), the
// AVX-512 ICL level (Ice Lake and Zen 4 onwards) also VNNI, VBMI, VBMI2,
// BITALG, VPOPCNTDQ and IFMA (kCpuAvx512Icl).
enum class SimdLevel { scalar, avx2, avx512, avx512icl };

// The best level with kernels that cpu_flags() allows (scalar where the
// build has no x86 kernels). Every kernel table is chosen from this, so it
// is what runs.
SimdLevel simd_level();

// "avx512icl", "avx512", "avx2" or "scalar": the name of simd_level().
std::string simd_level_name();
const char* simd_level_name(SimdLevel level);

}  // namespace vmafpp
