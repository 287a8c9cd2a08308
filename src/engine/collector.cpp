#include "vmafpp/collector.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <tuple>
#include <unordered_map>

#include "engine/collector_sink.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp {

// (phase, call frame, extractor rank, write sequence): a key's place.
using Order = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

struct FeatureCollector::State {
    struct Column {
        std::string key;
        Order order;
        std::vector<double> values;
        std::vector<std::uint8_t> present;
    };
    void put(std::string_view key, unsigned frame, double value, Order order);
    // Whether an extractor's frame `frame` is kept (keep_frames).
    bool keeps(unsigned frame) const { return frame >= keep_lead && frame - keep_lead < keep_count; }

    mutable std::mutex mutex;
    std::vector<Column> columns;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::pair<std::string, AggregateSums>> aggregates;
    unsigned frame_count = 0;
    unsigned keep_lead = 0;
    unsigned keep_count = 0xffffffffu;
};

FeatureCollector::FeatureCollector() : state_(std::make_unique<State>()) {}

FeatureCollector::~FeatureCollector() = default;

FeatureCollector::FeatureCollector(FeatureCollector&& other) : FeatureCollector() {
    std::swap(state_, other.state_);
}

FeatureCollector& FeatureCollector::operator=(FeatureCollector&& other) {
    if (this == &other) return *this;
    auto empty = std::make_unique<State>();
    state_ = std::exchange(other.state_, std::move(empty));
    return *this;
}

void detail::CollectorSink::append(std::string_view key, unsigned frame, double value) {
    const std::uint32_t sequence = sequence_++;
    FeatureCollector::State& s = *owner_.state_;
    if (!s.keeps(frame)) return;
    s.put(key, frame - s.keep_lead, value, {phase_, call_frame_, extractor_, sequence});
}

void FeatureCollector::keep_frames(unsigned lead, unsigned count) {
    state_->keep_lead = lead;
    state_->keep_count = count;
}

void detail::CollectorSink::add_aggregate_sums(std::string_view key, unsigned frame,
                                               const AggregateSums& sums) {
    FeatureCollector::State& s = *owner_.state_;
    if (!s.keeps(frame)) return;
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto& [k, total] : s.aggregates)
        if (k == key) {
            add_aggregate_totals(k, total, sums);
            return;
        }
    s.aggregates.emplace_back(std::string(key), sums);
}

void add_aggregate_totals(std::string_view key, AggregateSums& total, const AggregateSums& more) {
    if (more.feature != total.feature || more.fixed != total.fixed || more.totals.size() != total.totals.size())
        throw Error("aggregate " + std::string(key) + ": sums of another feature or with other parameters");
    for (std::size_t i = 0; i < total.totals.size(); ++i) total.totals[i] += more.totals[i];  // mod 2^64
}

double finish_aggregate(std::string_view key, const AggregateSums& total) {
    const FeatureInfo* info = find_feature(total.feature);
    if (!info || !info->aggregate_from_sums)
        throw Error("aggregate " + std::string(key) + ": feature \"" + total.feature +
                    "\" does not finish aggregates");
    return info->aggregate_from_sums(key, total);
}

std::vector<std::pair<std::string, double>> FeatureCollector::aggregates() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [key, total] : state_->aggregates)
        out.emplace_back(key, finish_aggregate(key, total));
    return out;
}

std::vector<std::pair<std::string, AggregateSums>> FeatureCollector::aggregate_sums() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->aggregates;
}

void FeatureCollector::append(std::string_view key, unsigned frame, double value) {
    state_->put(key, frame, value, {2, detail::kFlushCall, 0xffffffffu, 0});
}

void FeatureCollector::State::put(std::string_view key, unsigned frame, double value, Order order) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = index.find(std::string(key));
    Column* col;
    if (it == index.end()) {
        index.emplace(std::string(key), columns.size());
        columns.push_back(Column{std::string(key), order, {}, {}});
        col = &columns.back();
    } else {
        col = &columns[it->second];
        col->order = std::min(col->order, order);
    }
    if (frame >= col->values.size()) {
        col->values.resize(frame + 1, 0.0);
        col->present.resize(frame + 1, 0);
    }
    if (col->present[frame])
        throw Error("internal error: feature " + std::string(key) + " written twice for frame " +
                    std::to_string(frame));
    col->values[frame] = value;
    col->present[frame] = 1;
    frame_count = std::max(frame_count, frame + 1);
}

std::vector<std::string> FeatureCollector::keys() const {
    using Column = State::Column;
    std::lock_guard<std::mutex> lock(state_->mutex);
    std::vector<const Column*> cols;
    for (const auto& c : state_->columns) cols.push_back(&c);
    std::stable_sort(cols.begin(), cols.end(),
                     [](const Column* a, const Column* b) { return a->order < b->order; });
    std::vector<std::string> out;
    for (const Column* c : cols) out.push_back(c->key);
    return out;
}

std::optional<double> FeatureCollector::value(std::string_view key, unsigned frame) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto it = state_->index.find(std::string(key));
    if (it == state_->index.end()) return std::nullopt;
    const State::Column& c = state_->columns[it->second];
    if (frame >= c.values.size() || !c.present[frame]) return std::nullopt;
    return c.values[frame];
}

unsigned FeatureCollector::frame_count() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->frame_count;
}

}  // namespace vmafpp
