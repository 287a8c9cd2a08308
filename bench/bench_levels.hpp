// The kernel levels a benchmark can compare on this machine: every level of
// vmafpp::kSimdLevels (the list dispatch and checkasm use) that the CPU runs,
// each with a feature's table at that level and the Compute an extractor is
// created with to use it.
#pragma once

#include <string>
#include <vector>

#include "vmafpp/compute.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::bench {

template <class Table>
struct KernelLevel {
    std::string name;
    const Table* kernels;
    Compute compute;  // the CPU backend at this level
};

inline bool runs_here(SimdLevel level) {
    return (detected_cpu_flags() & simd_level_flags(level)) == simd_level_flags(level);
}

template <class Table>
std::vector<KernelLevel<Table>> kernel_levels(const Table& (*kernels_for)(SimdLevel)) {
    std::vector<KernelLevel<Table>> out;
    for (SimdLevel level : kSimdLevels) {
        if (level != SimdLevel::scalar && !runs_here(level)) continue;
        Compute c;
        c.simd = level;
        out.push_back({simd_level_name(level), &kernels_for(level), c});
    }
    return out;
}

}  // namespace vmafpp::bench
