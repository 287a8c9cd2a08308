#include "vmafpp/collector.hpp"

#include <algorithm>

#include "vmafpp/error.hpp"

namespace vmafpp {

FeatureCollector::FeatureCollector(FeatureCollector&& other) noexcept {
    *this = std::move(other);
}

FeatureCollector& FeatureCollector::operator=(FeatureCollector&& other) noexcept {
    if (this == &other) return *this;
    std::scoped_lock lock(mutex_, other.mutex_);
    columns_ = std::move(other.columns_);
    index_ = std::move(other.index_);
    aggregates_ = std::move(other.aggregates_);
    frame_count_ = other.frame_count_;
    keep_lead_ = other.keep_lead_;
    keep_count_ = other.keep_count_;
    return *this;
}

void FeatureCollector::CallSink::append(std::string_view key, unsigned frame, double value) {
    const std::uint32_t sequence = sequence_++;
    if (frame < owner_.keep_lead_ || frame - owner_.keep_lead_ >= owner_.keep_count_) return;
    owner_.put(key, frame - owner_.keep_lead_, value, {phase_, call_frame_, extractor_, sequence});
}

void FeatureCollector::keep_frames(unsigned lead, unsigned count) {
    keep_lead_ = lead;
    keep_count_ = count;
}

void FeatureCollector::CallSink::add_aggregate_sums(std::string_view key, unsigned frame,
                                                    const AggregateSums& sums) {
    if (frame < owner_.keep_lead_ || frame - owner_.keep_lead_ >= owner_.keep_count_) return;
    std::lock_guard<std::mutex> lock(owner_.mutex_);
    for (auto& [k, total] : owner_.aggregates_)
        if (k == key) {
            add_aggregate_totals(k, total, sums);
            return;
        }
    owner_.aggregates_.emplace_back(std::string(key), sums);
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
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [key, total] : aggregates_) out.emplace_back(key, finish_aggregate(key, total));
    return out;
}

std::vector<std::pair<std::string, AggregateSums>> FeatureCollector::aggregate_sums() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return aggregates_;
}

void FeatureCollector::append(std::string_view key, unsigned frame, double value) {
    put(key, frame, value, {2, kFlushCall, 0xffffffffu, 0});
}

void FeatureCollector::put(std::string_view key, unsigned frame, double value, Order order) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(std::string(key));
    Column* col;
    if (it == index_.end()) {
        index_.emplace(std::string(key), columns_.size());
        columns_.push_back(Column{std::string(key), order, {}, {}});
        col = &columns_.back();
    } else {
        col = &columns_[it->second];
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
    frame_count_ = std::max(frame_count_, frame + 1);
}

std::vector<std::string> FeatureCollector::keys() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<const Column*> cols;
    for (const auto& c : columns_) cols.push_back(&c);
    std::stable_sort(cols.begin(), cols.end(),
                     [](const Column* a, const Column* b) { return a->order < b->order; });
    std::vector<std::string> out;
    for (const Column* c : cols) out.push_back(c->key);
    return out;
}

std::optional<double> FeatureCollector::value(std::string_view key, unsigned frame) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(std::string(key));
    if (it == index_.end()) return std::nullopt;
    const Column& c = columns_[it->second];
    if (frame >= c.values.size() || !c.present[frame]) return std::nullopt;
    return c.values[frame];
}

unsigned FeatureCollector::frame_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return frame_count_;
}

}  // namespace vmafpp
