// Runs one feature extractor over frames or over a corpus pair, collecting
// what it writes (for the feature tests).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp::test {

// Every value written, and the keys in the order they were first written.
class RecordingSink final : public FeatureSink {
public:
    RecordingSink() = default;
    RecordingSink(RecordingSink&& o) noexcept
        : values(std::move(o.values)), order(std::move(o.order)),
          duplicates(std::move(o.duplicates)) {}
    void append(std::string_view key, unsigned frame, double value) override {
        std::lock_guard<std::mutex> lock(mu_);
        auto [it, fresh] = values.try_emplace(std::string(key));
        if (fresh) order.emplace_back(key);
        const bool dup = !it->second.emplace(frame, value).second;
        if (dup) duplicates.push_back(std::string(key) + "@" + std::to_string(frame));
    }
    std::map<std::string, std::map<unsigned, double>> values;
    std::vector<std::string> order;
    std::vector<std::string> duplicates;

private:
    std::mutex mu_;
};

inline OptionValues options_for(const FeatureInfo& info,
                                const std::vector<std::pair<std::string, std::string>>& set) {
    OptionValues o(info.options);
    for (const auto& [k, v] : set) o.set(k, v);
    return o;
}

// Feeds every frame of the pair (reference and distorted Y4M) to one instance,
// in order, then flushes it.
inline RecordingSink run_pair(const std::string& pair, const std::string& feature,
                              const std::vector<std::pair<std::string, std::string>>& set = {}) {
    const FeatureInfo* info = find_feature(feature);
    if (!info) throw Error("no feature " + feature);
    auto ref = open_video(clip(pair, "ref").string());
    auto dis = open_video(clip(pair, "dis").string());
    const VideoInfo& vi = ref->info();
    auto fex = info->create(options_for(*info, set),
                            FrameGeometry{vi.width, vi.height, vi.bpc, vi.format});
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

// The pairs whose goldens are targets (p21 is not: libvmaf reads unwritten
// memory at 18x18).
inline std::vector<std::string> target_pairs() {
    std::vector<std::string> out;
    for (auto& p : corpus_pairs())
        if (p.rfind("p21_", 0) != 0) out.push_back(p);
    return out;
}

}  // namespace vmafpp::test
