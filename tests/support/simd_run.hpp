// Every SIMD level this machine has, and run_pair at one of them, for golden
// tests that hold every level to libvmaf's values.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "support/feature_run.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::test {

// The levels this machine runs (scalar always).
inline std::vector<SimdLevel> machine_levels() {
    std::vector<SimdLevel> out;
    const unsigned have = detected_cpu_flags();
    for (SimdLevel l : kSimdLevels)
        if ((have & simd_level_flags(l)) == simd_level_flags(l)) out.push_back(l);
    return out;
}

// run_pair with the extractor's kernels taken from `level`.
inline RecordingSink run_pair_at(const std::string& pair, const std::string& feature,
                                 const std::vector<std::pair<std::string, std::string>>& set,
                                 SimdLevel level) {
    return run_pair(pair, feature, set, level);
}

}  // namespace vmafpp::test
