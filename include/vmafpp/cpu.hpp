// Instruction-set levels and libvmaf's --cpumask semantics.
#pragma once

#include <cstddef>

#include "vmafpp/export.hpp"

namespace vmafpp {

// Bits as libvmaf numbers them; a set bit in a mask DISABLES that level.
// libvmaf numbers each architecture's flags from bit 0 (src/x86/cpu.h,
// src/arm/cpu.h), so a bit means what it means on the machine that runs:
// bit 0 is SSE2 on x86-64 and NEON on AArch64 (--cpumask 1 there is the
// scalar code). The next AArch64 level (SVE2) will take bit 1.
enum CpuFlag : unsigned {
    // x86-64
    kCpuSse2 = 1u << 0,
    kCpuSsse3 = 1u << 1,
    kCpuSse41 = 1u << 2,
    kCpuAvx2 = 1u << 3,
    kCpuAvx512 = 1u << 4,
    kCpuAvx512Icl = 1u << 5,
    // AArch64: Advanced SIMD (HWCAP_ASIMD; every ARMv8-A CPU Linux runs on).
    kCpuNeon = 1u << 0,
};

// What this CPU (and OS, for the AVX state) supports, less the levels the
// VMAFPP_CPUMASK of the environment hides when the library loads: a masked
// process is the smaller CPU, kernel tables included.
VMAFPP_API unsigned detected_cpu_flags();

// detected_cpu_flags() & ~cpumask, further limited by the VMAFPP_CPUMASK
// environment variable if set (same meaning as --cpumask). Reads no state
// but the environment: each session passes its own mask.
VMAFPP_API unsigned cpu_flags(unsigned cpumask = 0);

// Every instruction-set level of every architecture. x86-64: the AVX2
// level needs AVX2 and BMI2 (kCpuAvx2), AVX-512 also F, BW, DQ, CD and VL
// (kCpuAvx512), AVX-512 ICL (Ice Lake and Zen 4 onwards) also VNNI, VBMI,
// VBMI2, BITALG, VPOPCNTDQ and IFMA (kCpuAvx512Icl). AArch64: NEON
// (Advanced SIMD, kCpuNeon). New levels are appended (SVE2 next), so the
// values of the existing ones never change.
enum class SimdLevel { scalar, avx2, avx512, avx512icl, neon };
inline constexpr std::size_t kSimdLevelKinds = 5;  // the enumerators above

// The levels that have kernel tables on this build's architecture, lowest
// first. Each level's table starts from the level below in this list and
// replaces the kernels it has twins of (dav1d's init order).
#if defined(__x86_64__)
inline constexpr SimdLevel kSimdLevels[] = {SimdLevel::scalar, SimdLevel::avx2,
                                            SimdLevel::avx512, SimdLevel::avx512icl};
#elif defined(__aarch64__)
inline constexpr SimdLevel kSimdLevels[] = {SimdLevel::scalar, SimdLevel::neon};
#else
inline constexpr SimdLevel kSimdLevels[] = {SimdLevel::scalar};
#endif
inline constexpr std::size_t kSimdLevelCount = sizeof(kSimdLevels) / sizeof(kSimdLevels[0]);

// The position of `level` in kSimdLevels; 0 (scalar) for a level of
// another architecture, which simd_level() never returns.
constexpr std::size_t level_index(SimdLevel level) {
    for (std::size_t i = 0; i < kSimdLevelCount; ++i)
        if (kSimdLevels[i] == level) return i;
    return 0;
}

// The cpu flags a level needs (0 for scalar): the level runs only where
// cpu_flags() has all of them.
VMAFPP_API unsigned simd_level_flags(SimdLevel level);

// The best level of kSimdLevels that cpu_flags(cpumask) allows (scalar
// where the build has no SIMD kernels). Masking AVX2 (bit 3) alone turns
// AVX-512 off as well, and masking AVX-512 (bit 4) the ICL level, as in
// libvmaf; on AArch64 masking NEON (bit 0) leaves the scalar code.
VMAFPP_API SimdLevel simd_level(unsigned cpumask = 0);

// "scalar", "avx2", "avx512", "avx512icl" or "neon".
VMAFPP_API const char* simd_level_name(SimdLevel level);

}  // namespace vmafpp
