#include "vmafpp/cpu.hpp"

#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace vmafpp {
namespace {

#if defined(__x86_64__) || defined(__i386__)
unsigned long long xgetbv0() {
    unsigned eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<unsigned long long>(edx) << 32) | eax;
}

unsigned detect() {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    unsigned flags = 0;
    if (d & bit_SSE2) flags |= kCpuSse2;
    if (c & bit_SSSE3) flags |= kCpuSsse3;
    if (c & bit_SSE4_1) flags |= kCpuSse41;
    const bool osxsave = (c & bit_OSXSAVE) != 0;
    if (!osxsave) return flags;
    const unsigned long long xcr0 = xgetbv0();
    // The OS must save YMM (bits 1-2) for AVX2 and opmask/ZMM (bits 5-7) too
    // for AVX-512, or using them corrupts state on a context switch.
    const bool ymm = (xcr0 & 0x6) == 0x6;
    const bool zmm = (xcr0 & 0xe6) == 0xe6;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return flags;
    if (ymm && (b & bit_AVX2) && (b & bit_BMI2)) flags |= kCpuAvx2;
    // The AVX-512 kernels need F, BW, DQ, CD and VL (Skylake-X and later).
    const unsigned skx = bit_AVX512F | bit_AVX512BW | bit_AVX512DQ | bit_AVX512CD | bit_AVX512VL;
    if (zmm && (flags & kCpuAvx2) && (b & skx) == skx) {
        flags |= kCpuAvx512;
        const unsigned icl = bit_AVX512VBMI2 | bit_AVX512VNNI | bit_AVX512BITALG | bit_AVX512VPOPCNTDQ;
        if ((c & icl) == icl && (b & bit_AVX512IFMA) && (c & bit_AVX512VBMI))
            flags |= kCpuAvx512Icl;
    }
    return flags;
}
#elif defined(__aarch64__) && defined(__linux__)
// The kernel's hardware capabilities (getauxval, as libvmaf's arm/cpu.c
// and dav1d do): no instruction is tried. HWCAP_ASIMD is Advanced SIMD;
// SVE2 will be HWCAP2_SVE2 in AT_HWCAP2.
unsigned detect() {
    constexpr unsigned long kHwcapAsimd = 1ul << 1;  // HWCAP_ASIMD, asm/hwcap.h
    const unsigned long hwcap = getauxval(AT_HWCAP);
    return (hwcap & kHwcapAsimd) ? kCpuNeon : 0u;
}
#elif defined(__aarch64__)
// AArch64 outside Linux: Advanced SIMD is part of the ARMv8-A base.
unsigned detect() { return kCpuNeon; }
#else
unsigned detect() { return 0; }
#endif

unsigned env_mask() {
    const char* v = std::getenv("VMAFPP_CPUMASK");
    if (!v || !*v) return 0;
    return static_cast<unsigned>(std::strtoul(v, nullptr, 0));
}

}  // namespace

// The CPU as this process sees it: what cpuid and the OS allow, less the
// VMAFPP_CPUMASK of the environment the process started with, so that a
// masked run (tests, the CLI, checkasm) is the run of a smaller CPU: the
// kernel tables of a masked level are the level below's, as on a CPU without
// it. A mask set later (setenv) only lowers cpu_flags(), not the tables.
unsigned detected_cpu_flags() {
    static const unsigned flags = detect() & ~env_mask();
    return flags;
}

namespace {
// Read when the library loads (before main() in a program linked with it,
// at import in Python), while the environment is the one the process started
// with; otherwise the first caller (a test that sets VMAFPP_CPUMASK for a
// while) would decide.
[[maybe_unused]] const unsigned g_flags_at_start = detected_cpu_flags();
}  // namespace

unsigned cpu_flags(unsigned cpumask) { return detected_cpu_flags() & ~cpumask & ~env_mask(); }

// The flags of another architecture's level are those of its own bits
// (kCpuNeon is bit 0, as kCpuSse2): only the levels of kSimdLevels are ever
// asked about by the dispatch.
unsigned simd_level_flags(SimdLevel level) {
    switch (level) {
        case SimdLevel::avx2: return kCpuAvx2;
        case SimdLevel::avx512: return kCpuAvx2 | kCpuAvx512;
        case SimdLevel::avx512icl: return kCpuAvx2 | kCpuAvx512 | kCpuAvx512Icl;
        case SimdLevel::neon: return kCpuNeon;
        case SimdLevel::scalar: break;
    }
    return 0;
}

SimdLevel simd_level(unsigned cpumask) {
    SimdLevel best = SimdLevel::scalar;
#if VMAFPP_X86_KERNELS || VMAFPP_ARM_KERNELS
    // A level runs only when every level below it is allowed too (each
    // level's flags include the ones below), so masking AVX2 alone turns
    // AVX-512 off as well, as in libvmaf.
    const unsigned flags = cpu_flags(cpumask);
    for (SimdLevel level : kSimdLevels)
        if ((flags & simd_level_flags(level)) == simd_level_flags(level)) best = level;
#else
    (void)cpumask;
#endif
    return best;
}

const char* simd_level_name(SimdLevel level) {
    switch (level) {
        case SimdLevel::avx2: return "avx2";
        case SimdLevel::avx512: return "avx512";
        case SimdLevel::avx512icl: return "avx512icl";
        case SimdLevel::neon: return "neon";
        case SimdLevel::scalar: break;
    }
    return "scalar";
}

}  // namespace vmafpp
