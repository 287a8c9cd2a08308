// Runs one feature extractor over a corpus pair at a chosen SIMD level, for
// golden tests that hold every level this machine has to libvmaf's values.
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
    const FeatureInfo* info = find_feature(feature);
    if (!info) throw Error("no feature " + feature);
    auto ref = open_video(clip(pair, "ref").string());
    auto dis = open_video(clip(pair, "dis").string());
    const VideoInfo& vi = ref->info();
    Compute c;
    c.simd = level;
    auto fex = info->create(options_for(*info, set),
                            FrameGeometry{vi.width, vi.height, vi.bpc, vi.format}, c);
    RecordingSink sink;
    Picture r, d;
    unsigned frame = 0;
    while (ref->read(r)) {
        if (!dis->read(d)) throw Error("distorted clip is shorter");
        fex->extract(r, d, frame++, sink);
    }
    fex->flush(sink);
    return sink;
}

}  // namespace vmafpp::test
