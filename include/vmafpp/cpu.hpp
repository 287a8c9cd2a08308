// Instruction-set levels and libvmaf's --cpumask semantics.
#pragma once

#include <cstddef>

#include "vmafpp/export.hpp"

namespace vmafpp {

// Bits as libvmaf numbers them; a set bit in a mask DISABLES that level.
enum CpuFlag : unsigned {
    kCpuSse2 = 1u << 0,
    kCpuSsse3 = 1u << 1,
    kCpuSse41 = 1u << 2,
    kCpuAvx2 = 1u << 3,
    kCpuAvx512 = 1u << 4,
    kCpuAvx512Icl = 1u << 5,
};

// What this CPU (and OS, for the AVX state) supports, less the levels the
// VMAFPP_CPUMASK of the environment hides when the library loads: a masked
// process is the smaller CPU, kernel tables included.
VMAFPP_API unsigned detected_cpu_flags();

// detected_cpu_flags() & ~cpumask, further limited by the VMAFPP_CPUMASK
// environment variable if set (same meaning as --cpumask). Reads no state
// but the environment: each session passes its own mask.
VMAFPP_API unsigned cpu_flags(unsigned cpumask = 0);

// The instruction-set levels that have kernel tables, lowest first. Each
// level's table starts from the level below and replaces the kernels it has
// twins of (dav1d's init order); the AVX2 level needs AVX2 and BMI2
// (kCpuAvx2), AVX-512 also F, BW, DQ, CD and VL (kCpuAvx512), AVX-512 ICL
// (Ice Lake and Zen 4 onwards) also VNNI, VBMI, VBMI2, BITALG, VPOPCNTDQ and
// IFMA (kCpuAvx512Icl).
enum class SimdLevel { scalar, avx2, avx512, avx512icl };
inline constexpr SimdLevel kSimdLevels[] = {SimdLevel::scalar, SimdLevel::avx2,
                                            SimdLevel::avx512, SimdLevel::avx512icl};
inline constexpr std::size_t kSimdLevelCount = sizeof(kSimdLevels) / sizeof(kSimdLevels[0]);
constexpr std::size_t level_index(SimdLevel level) { return static_cast<std::size_t>(level); }

// The cpu flags a level needs (0 for scalar): the level runs only where
// cpu_flags() has all of them.
VMAFPP_API unsigned simd_level_flags(SimdLevel level);

// The best level with kernels that cpu_flags(cpumask) allows (scalar where
// the build has no x86 kernels). Masking AVX2 (bit 3) alone turns AVX-512
// off as well, and masking AVX-512 (bit 4) the ICL level, as in libvmaf.
VMAFPP_API SimdLevel simd_level(unsigned cpumask = 0);

// "scalar", "avx2", "avx512" or "avx512icl".
VMAFPP_API const char* simd_level_name(SimdLevel level);

}  // namespace vmafpp
