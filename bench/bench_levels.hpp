// The kernel levels a benchmark can compare on this machine: scalar always,
// AVX2 where the build has x86 kernels and the CPU has AVX2. `mask` is the
// cpu mask under which an extractor picks that level's tables.
#pragma once

#include <string>
#include <vector>

#include "motion/motion_kernels.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::bench {

template <class Table>
struct KernelLevel {
    std::string name;
    const Table* kernels;
    unsigned mask;
};

inline bool avx2_runs_here() { return (detected_cpu_flags() & kCpuAvx2) != 0; }
inline bool avx512_runs_here() {
    return (detected_cpu_flags() & (kCpuAvx2 | kCpuAvx512)) == (kCpuAvx2 | kCpuAvx512);
}
inline bool avx512icl_runs_here() {
    return avx512_runs_here() && (detected_cpu_flags() & kCpuAvx512Icl) != 0;
}

inline std::vector<KernelLevel<vif::VifKernels>> vif_levels() {
    std::vector<KernelLevel<vif::VifKernels>> out{{"scalar", &vif::vif_kernels_scalar(), 4294967295u}};
#if VMAFPP_X86_KERNELS
    if (avx2_runs_here()) out.push_back({"avx2", &vif::vif_kernels_avx2(), 48u});
    if (avx512_runs_here()) out.push_back({"avx512", &vif::vif_kernels_avx512(), 32u});
    if (avx512icl_runs_here()) out.push_back({"avx512icl", &vif::vif_kernels_avx512icl(), 0u});
#endif
    return out;
}

inline std::vector<KernelLevel<motion::MotionKernels>> motion_levels() {
    std::vector<KernelLevel<motion::MotionKernels>> out{
        {"scalar", &motion::motion_kernels_scalar(), 4294967295u}};
#if VMAFPP_X86_KERNELS
    if (avx2_runs_here()) out.push_back({"avx2", &motion::motion_kernels_avx2(), 48u});
    if (avx512_runs_here()) out.push_back({"avx512", &motion::motion_kernels_avx512(), 0u});
#endif
    return out;
}

}  // namespace vmafpp::bench
