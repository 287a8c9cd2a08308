// Per-frame feature values, keyed by libvmaf's names.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmafpp/export.hpp"
#include "vmafpp/aggregate.hpp"

namespace vmafpp {

// `total` += `more`, totals mod 2^64; throws if they are sums of different
// features or parameters.
VMAFPP_API void add_aggregate_totals(std::string_view key, AggregateSums& total,
                                     const AggregateSums& more);
// The value of an aggregate from its totals (the extractor's
// aggregate_from_sums); throws if its feature has none.
VMAFPP_API double finish_aggregate(std::string_view key, const AggregateSums& total);

namespace detail {
class CollectorSink;  // the extractors' FeatureSink (src/engine/collector_sink.hpp)
}  // namespace detail

// Collects values written by extractors running on any thread. The order of
// keys is deterministic, whatever the worker scheduling: by the phase of the
// extract() call that first wrote the key, then its frame, then the
// extractor's rank, then the order of writes in that call; flush() calls come
// after every frame. The pipeline chooses phases and ranks so that this is
// libvmaf's order for the session's --threads (see FramePipeline).
class VMAFPP_API FeatureCollector {
public:
    FeatureCollector();
    ~FeatureCollector();
    // Moving is for handing finished results around, never while extractors
    // still write; the moved-from collector is empty.
    FeatureCollector(FeatureCollector&& other);
    FeatureCollector& operator=(FeatureCollector&& other);

    // A frame-range run: extractors' values of frames lead .. lead + count - 1
    // are kept, as frames 0 .. count - 1; those of the context frames around
    // them are dropped (so they take no part in the key order either). Call
    // before any value is written.
    void keep_frames(unsigned lead, unsigned count);

    // Values written from outside any extractor (model scores): ordered after
    // every feature, in the order of their first append.
    void append(std::string_view key, unsigned frame, double value);

    // Keys in their deterministic order.
    std::vector<std::string> keys() const;
    // Aggregates in the order first added (libvmaf's), finished from the kept
    // frames' totals by their extractors' aggregate_from_sums.
    std::vector<std::pair<std::string, double>> aggregates() const;
    // Their totals over the kept frames (what a chunk file carries).
    std::vector<std::pair<std::string, AggregateSums>> aggregate_sums() const;
    std::optional<double> value(std::string_view key, unsigned frame) const;
    // One past the highest frame index written.
    unsigned frame_count() const;

private:
    friend class detail::CollectorSink;
    struct State;  // the columns, their order and a mutex (src/engine/collector.cpp)
    std::unique_ptr<State> state_;
};

}  // namespace vmafpp
