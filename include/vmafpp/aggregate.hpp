// Integer sums of a whole-run value, as extractors write them and the
// collector and chunk files carry them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vmafpp {

// One frame's part of a value of the whole run (libvmaf's aggregate_metrics,
// e.g. psnr's apsnr_y) that is a function of integer sums over the frames
// (APSNR: a plane's SSE and pixel count). Sums add mod 2^64, so in any order
// and exactly: a frame-range run keeps its frames' totals, a chunk file
// carries them, and a merge adds them and finishes the value with the
// extractor's FeatureInfo::aggregate_from_sums, as a whole run does.
struct AggregateSums {
    std::string feature;               // the extractor (FeatureInfo::name)
    std::vector<std::uint64_t> fixed;  // parameters, equal in every frame (psnr: the peak's square)
    std::vector<std::uint64_t> totals;
};

}  // namespace vmafpp
