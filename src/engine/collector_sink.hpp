// The FeatureSink the pipeline gives each extract()/flush() call: it writes
// into a FeatureCollector with the call's place in the key order (phase,
// frame, extractor rank, then the order of writes in the call).
#pragma once

#include <cstdint>
#include <string_view>

#include "vmafpp/collector.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::detail {

// The call frame of flush() calls: after every frame's.
inline constexpr std::uint32_t kFlushCall = 0xffffffffu;

class CollectorSink final : public FeatureSink {
public:
    // `phase` 0 puts the call's new keys before those of every phase-1
    // call of any frame.
    CollectorSink(FeatureCollector& owner, std::uint32_t call_frame, std::uint32_t extractor,
                  std::uint32_t phase = 1)
        : owner_(owner), phase_(phase), call_frame_(call_frame), extractor_(extractor) {}
    void append(std::string_view key, unsigned frame, double value) override;
    void add_aggregate_sums(std::string_view key, unsigned frame,
                            const AggregateSums& sums) override;

private:
    FeatureCollector& owner_;
    std::uint32_t phase_;
    std::uint32_t call_frame_;
    std::uint32_t extractor_;
    std::uint32_t sequence_ = 0;
};

}  // namespace vmafpp::detail
