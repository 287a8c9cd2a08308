#include "engine/pipeline.hpp"

#include "vmafpp/error.hpp"

namespace vmafpp {

FramePipeline::FramePipeline(std::vector<ExtractorSpec> extractors, const FrameGeometry& geometry,
                             const PipelineOptions& options, FeatureCollector& out)
    : specs_(std::move(extractors)), geometry_(geometry), options_(options), out_(out) {
    if (options_.subsample == 0) options_.subsample = 1;
    for (std::size_t i = 0; i < specs_.size(); ++i)
        (specs_[i].info->temporal ? temporal_ : stateless_).push_back(i);

    for (std::size_t i : temporal_)
        temporal_instances_.push_back(specs_[i].info->create(specs_[i].options, geometry_));

    const std::size_t workers = options_.threads == 0 ? 1 : options_.threads;
    worker_instances_.resize(workers);
    // Worker 0's instances are made here so creation errors surface now; the
    // other workers make theirs on first use.
    for (std::size_t i : stateless_)
        worker_instances_[0].push_back(specs_[i].info->create(specs_[i].options, geometry_));

    // One frame per worker and one the reader fills: reading a frame takes a
    // small fraction of scoring one, so the next frame is queued long before
    // a worker frees its slot. The bound caps memory, and every picture slot
    // beyond it is first-touch cost (page zeroing) that a short run pays in
    // full.
    max_slots_ = options_.threads == 0 ? 1 : options_.threads + 1;
    for (unsigned w = 0; w < options_.threads; ++w)
        workers_.emplace_back([this, w] { worker_main(w); });
}

FramePipeline::~FramePipeline() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : workers_) t.join();
}

std::unique_ptr<FramePipeline::Slot> FramePipeline::acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    slot_free_.wait(lock, [&] { return slots_out_ < max_slots_ || error_; });
    if (error_) std::rethrow_exception(error_);
    ++slots_out_;
    if (!free_slots_.empty()) {
        auto s = std::move(free_slots_.back());
        free_slots_.pop_back();
        return s;
    }
    return std::make_unique<Slot>();
}

void FramePipeline::release(std::unique_ptr<Slot> slot) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        free_slots_.push_back(std::move(slot));
        --slots_out_;
    }
    slot_free_.notify_all();
}

void FramePipeline::run_stateless(Instances& instances, const Slot& slot) {
    if (slot.frame % options_.subsample != 0) return;
    if (instances.size() < stateless_.size()) {
        for (std::size_t k = instances.size(); k < stateless_.size(); ++k) {
            const ExtractorSpec& s = specs_[stateless_[k]];
            instances.push_back(s.info->create(s.options, geometry_));
        }
    }
    for (std::size_t k = 0; k < stateless_.size(); ++k) {
        // Temporal extractors rank first within a frame: libvmaf runs them on the
        // reading thread before it queues the frame for its workers.
        FeatureCollector::CallSink sink(out_, slot.frame, std::uint32_t(temporal_.size() + k));
        instances[k]->extract(slot.ref, slot.dis, slot.frame, sink);
    }
}

void FramePipeline::submit(std::unique_ptr<Slot> slot) {
    rethrow_if_failed();
    slot->frame = next_frame_++;
    for (std::size_t k = 0; k < temporal_.size(); ++k) {
        FeatureCollector::CallSink sink(out_, slot->frame, std::uint32_t(k));
        temporal_instances_[k]->extract(slot->ref, slot->dis, slot->frame, sink);
    }
    if (workers_.empty()) {
        run_stateless(worker_instances_[0], *slot);
        release(std::move(slot));
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(slot));
        ++pending_;
    }
    work_ready_.notify_one();
}

void FramePipeline::worker_main(std::size_t worker) {
    for (;;) {
        std::unique_ptr<Slot> slot;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;
            slot = std::move(queue_.front());
            queue_.pop_front();
        }
        try {
            if (!error_) run_stateless(worker_instances_[worker], *slot);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!error_) error_ = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            --pending_;
        }
        release(std::move(slot));
    }
}

void FramePipeline::rethrow_if_failed() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) std::rethrow_exception(error_);
}

void FramePipeline::finish() {
    if (finished_) return;
    finished_ = true;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        slot_free_.wait(lock, [&] { return pending_ == 0; });
        if (error_) std::rethrow_exception(error_);
    }
    for (std::size_t k = 0; k < temporal_.size(); ++k) {
        FeatureCollector::CallSink sink(out_, FeatureCollector::kFlushCall, std::uint32_t(k));
        temporal_instances_[k]->flush(sink);
    }
}

}  // namespace vmafpp
