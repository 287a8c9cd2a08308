// Per-frame feature values, keyed by libvmaf's names.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "vmafpp/export.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

// `total` += `more`, totals mod 2^64; throws if they are sums of different
// features or parameters.
VMAFPP_API void add_aggregate_totals(std::string_view key, AggregateSums& total,
                                     const AggregateSums& more);
// The value of an aggregate from its totals (the extractor's
// aggregate_from_sums); throws if its feature has none.
VMAFPP_API double finish_aggregate(std::string_view key, const AggregateSums& total);

// Collects values written by extractors running on any thread. The order of
// keys is deterministic, whatever the worker scheduling: by the phase of the
// extract() call that first wrote the key, then its frame, then the
// extractor's rank, then the order of writes in that call; flush() calls come
// after every frame. The pipeline chooses phases and ranks so that this is
// libvmaf's order for the session's --threads (see FramePipeline).
class VMAFPP_API FeatureCollector {
public:
    // A FeatureSink for one extract()/flush() call of one extractor.
    class VMAFPP_API CallSink final : public FeatureSink {
    public:
        // `phase` 0 puts the call's new keys before those of every phase-1
        // call of any frame.
        CallSink(FeatureCollector& owner, std::uint32_t call_frame, std::uint32_t extractor,
                 std::uint32_t phase = 1)
            : owner_(owner), phase_(phase), call_frame_(call_frame), extractor_(extractor) {}
        void append(std::string_view key, unsigned frame, double value) override;
        void add_aggregate_sums(std::string_view key, unsigned frame, const AggregateSums& sums) override;

    private:
        FeatureCollector& owner_;
        std::uint32_t phase_;
        std::uint32_t call_frame_;
        std::uint32_t extractor_;
        std::uint32_t sequence_ = 0;
    };

    static constexpr std::uint32_t kFlushCall = 0xffffffffu;

    FeatureCollector() = default;
    // Moving is for handing finished results around, never while extractors
    // still write.
    FeatureCollector(FeatureCollector&& other) noexcept;
    FeatureCollector& operator=(FeatureCollector&& other) noexcept;

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
    using Order = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;
    struct Column {
        std::string key;
        Order order;
        std::vector<double> values;
        std::vector<std::uint8_t> present;
    };
    void put(std::string_view key, unsigned frame, double value, Order order);

    mutable std::mutex mutex_;
    std::vector<Column> columns_;
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<std::pair<std::string, AggregateSums>> aggregates_;
    unsigned frame_count_ = 0;
    unsigned keep_lead_ = 0;
    unsigned keep_count_ = 0xffffffffu;
};

}  // namespace vmafpp
