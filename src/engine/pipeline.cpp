#include "engine/pipeline.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "device/backend.hpp"
#include "engine/collector_sink.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp {

namespace {
using Slot = FramePipeline::Slot;
using Instances = std::vector<std::unique_ptr<FeatureExtractor>>;
}  // namespace

// Who touches what:
// - the configuration (specs_ ... max_slots_) is fixed before the first worker
//   starts and only read afterwards, by every thread;
// - temporal_instances_, next_frame_ and finished_ belong to the calling thread;
// - worker_instances_[w] belongs to worker w (with no workers, [0] is the
//   calling thread's); worker 0's are created before any worker starts;
// - everything from mutex_ on is shared and read or written only under mutex_
//   (workers_ only by the constructor and destructor);
// - the FeatureCollector synchronises its own writes.
class FramePipeline::Impl {
public:
    Impl(std::vector<ExtractorSpec> extractors, const FrameGeometry& geometry,
         const PipelineOptions& options, FeatureCollector& out);
    ~Impl() { stop_workers(); }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    std::unique_ptr<Slot> acquire();
    void submit(std::unique_ptr<Slot> slot);
    void finish();
    unsigned frames_submitted() const { return next_frame_; }

private:
    void run_stateless(Instances& instances, const Slot& slot) const;
    // A worker's next non-temporal instance, introduced to the ones before it.
    void add_stateless_instance(Instances& instances) const;
    void worker_main(std::size_t worker);
    void stop_workers() noexcept;
    // Under mutex_: the slot goes back to the pool.
    void release_locked(std::unique_ptr<Slot> slot);
    // Under mutex_: whether putting frame next_frame_ into the device frame
    // store keeps every frame in flight (see the constructor).
    bool store_allows_next() const {
        if (store_slots_ == 0) return true;
        for (unsigned f : in_flight_)
            if (next_frame_ - f >= store_slots_) return false;
        return true;
    }

    std::vector<ExtractorSpec> specs_;
    FrameGeometry geometry_;
    PipelineOptions options_;
    FeatureCollector& out_;
    // libvmaf's key order, which depends on whether it has worker threads.
    // Without, it runs every extractor in registration order, frame by frame.
    // With, the reading thread runs the TEMPORAL-flagged extractors
    // (runs_first) of each frame before queueing the frame for a worker, which
    // runs the rest in registration order. The reading thread is ahead of the
    // workers (its picture pool holds several frames), so a key such an
    // extractor first writes at frame 1 (float_motion's motion3) still comes
    // before the workers' keys of frame 0: those calls get phase 0. Flush
    // keeps the registration order with the runs_first group first, as
    // libvmaf's threaded flush does.
    std::vector<std::uint32_t> rank_;  // per spec
    bool runs_first(std::size_t spec) const {
        return options_.threads > 0 && specs_[spec].info->runs_first;
    }
    std::uint32_t write_rank(std::size_t spec) const {
        return std::uint32_t(runs_first(spec) ? 0 : specs_.size()) + std::uint32_t(spec);
    }
    std::uint32_t phase(std::size_t spec) const { return runs_first(spec) ? 0 : 1; }
    std::vector<std::size_t> temporal_;   // indices into specs_
    std::vector<std::size_t> stateless_;  // indices into specs_
    unsigned max_slots_ = 1;
    // The device frame store's slots (0: no store): frame n overwrites
    // frame n - store_slots_.
    unsigned store_slots_ = 0;

    Instances temporal_instances_;
    unsigned next_frame_ = 0;
    bool finished_ = false;

    std::vector<Instances> worker_instances_;  // [worker][k] for stateless_[k]

    std::mutex mutex_;
    std::condition_variable work_ready_;  // queue_ has a frame, or stopping_
    std::condition_variable slot_free_;   // a slot came back (its frame is scored)
    std::deque<std::unique_ptr<Slot>> queue_;
    std::vector<std::unique_ptr<Slot>> free_slots_;
    unsigned slots_out_ = 0;  // acquired, not yet released
    std::vector<unsigned> in_flight_;  // frames submitted, not yet released
    unsigned pending_ = 0;    // queued for the workers, not yet scored
    bool stopping_ = false;
    std::exception_ptr error_;  // the first error an extractor raised
    std::vector<std::thread> workers_;
};

FramePipeline::Impl::Impl(std::vector<ExtractorSpec> extractors, const FrameGeometry& geometry,
                          const PipelineOptions& options, FeatureCollector& out)
    : specs_(std::move(extractors)), geometry_(geometry), options_(options), out_(out) {
    if (options_.subsample == 0) options_.subsample = 1;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        (specs_[i].info->temporal ? temporal_ : stateless_).push_back(i);
        rank_.push_back(write_rank(i));
    }

    // One frame per worker and one the reader fills: reading a frame takes a
    // small fraction of scoring one, so the next frame is queued long before
    // a worker frees its slot. The bound caps memory, and every picture slot
    // beyond it is first-touch cost (page zeroing) that a short run pays in
    // full.
    max_slots_ = options_.threads == 0 ? 1 : options_.threads + 1;

    // A device session uploads each frame's lumas once, on this thread in
    // submit(), for every twin of the session; with worker threads the
    // upload of frame n + 1 overlaps the compute of n. When frame n is put
    // (overwriting frame n - S of an S-slot store), the frames still read
    // are the others in flight and motion's history (n - 2 at most, read on
    // this thread), so S >= 3 and n - S below every frame in flight keep
    // each frame until it is done. Workers finish out of order: one may
    // still score frame m while the others free their slots for frames
    // m + 1, m + 2, ..., so the slot count alone does not bound n - m, and
    // acquire() waits until n - m < S (store_allows_next).
    if (options_.compute.backend != Backend::cpu && !options_.compute.frames) {
        bool twins = false;
        for (const ExtractorSpec& s : specs_) twins = twins || device::runs_on_device(options_.compute, *s.info);
        if (twins) {
            store_slots_ = max_slots_ + 2;
            options_.compute.frames =
                device::make_frame_store(options_.compute, geometry_, store_slots_);
        }
    }

    for (std::size_t i : temporal_)
        temporal_instances_.push_back(specs_[i].info->create(specs_[i].options, geometry_, options_.compute));

    const std::size_t workers = options_.threads == 0 ? 1 : options_.threads;
    worker_instances_.resize(workers);
    // Worker 0's instances are made here so creation errors surface now; the
    // other workers make theirs on first use.
    while (worker_instances_[0].size() < stateless_.size())
        add_stateless_instance(worker_instances_[0]);

    // Returning a slot never allocates, so a worker cannot fail after scoring.
    free_slots_.reserve(max_slots_);
    in_flight_.reserve(max_slots_);
    try {
        workers_.reserve(options_.threads);
        for (unsigned w = 0; w < options_.threads; ++w)
            workers_.emplace_back([this, w] { worker_main(w); });
    } catch (...) {
        stop_workers();  // a thread that did start must be joined
        throw;
    }
}

void FramePipeline::Impl::stop_workers() noexcept {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
}

std::unique_ptr<Slot> FramePipeline::Impl::acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    slot_free_.wait(lock, [&] { return (slots_out_ < max_slots_ && store_allows_next()) || error_; });
    if (error_) std::rethrow_exception(error_);
    ++slots_out_;
    if (!free_slots_.empty()) {
        auto s = std::move(free_slots_.back());
        free_slots_.pop_back();
        return s;
    }
    lock.unlock();
    return std::make_unique<Slot>();
}

// Whether a picture reads a caller's planes (Scorer::view_from).
static bool is_view(const Picture& p) {
    for (const Plane& plane : p.planes)
        if (plane.is_view()) return true;
    return false;
}

void FramePipeline::Impl::release_locked(std::unique_ptr<Slot> slot) {
    // The caller's planes are let go (and what keeps them alive with them)
    // as soon as the frame is scored, not when the slot is next used.
    if (is_view(slot->ref)) slot->ref = Picture();
    if (is_view(slot->dis)) slot->dis = Picture();
    for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it)
        if (*it == slot->frame) {
            in_flight_.erase(it);
            break;
        }
    free_slots_.push_back(std::move(slot));
    --slots_out_;
}

void FramePipeline::Impl::add_stateless_instance(Instances& instances) const {
    const ExtractorSpec& s = specs_[stateless_[instances.size()]];
    std::unique_ptr<FeatureExtractor> made = s.info->create(s.options, geometry_, options_.compute);
    for (auto& earlier : instances) made->meet(*earlier);
    instances.push_back(std::move(made));
}

void FramePipeline::Impl::run_stateless(Instances& instances, const Slot& slot) const {
    if (slot.frame < options_.keep_begin || slot.frame >= options_.keep_end) return;
    if ((options_.first_frame + slot.frame) % options_.subsample != 0) return;
    while (instances.size() < stateless_.size()) add_stateless_instance(instances);
    for (std::size_t k = 0; k < stateless_.size(); ++k) {
        detail::CollectorSink sink(out_, slot.frame, rank_[stateless_[k]], phase(stateless_[k]));
        instances[k]->extract(slot.ref, slot.dis, slot.frame, sink);
    }
}

void FramePipeline::Impl::submit(std::unique_ptr<Slot> slot) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error_) std::rethrow_exception(error_);
    }
    slot->frame = next_frame_++;
    {
        // At most max_slots_ entries (reserved): this never allocates.
        std::lock_guard<std::mutex> lock(mutex_);
        in_flight_.push_back(slot->frame);
    }
    try {
        if (options_.compute.frames) options_.compute.frames->put(slot->frame, slot->ref, slot->dis);
        for (std::size_t k = 0; k < temporal_.size(); ++k) {
            detail::CollectorSink sink(out_, slot->frame, rank_[temporal_[k]],
                                       phase(temporal_[k]));
            temporal_instances_[k]->extract(slot->ref, slot->dis, slot->frame, sink);
        }
        if (workers_.empty()) run_stateless(worker_instances_[0], *slot);
    } catch (...) {
        // Recorded, so that a later acquire() or finish() reports it too
        // instead of waiting for a slot that never comes back.
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        release_locked(std::move(slot));
        throw;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (workers_.empty()) {
        release_locked(std::move(slot));
        return;
    }
    queue_.push_back(std::move(slot));
    ++pending_;
    lock.unlock();
    work_ready_.notify_one();
}

void FramePipeline::Impl::worker_main(std::size_t worker) {
    Instances& instances = worker_instances_[worker];
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and every queued frame is done
        std::unique_ptr<Slot> slot = std::move(queue_.front());
        queue_.pop_front();
        // Read while holding the lock: another worker may be recording its
        // error right now. After an error the remaining frames are skipped.
        const bool failed = error_ != nullptr;
        lock.unlock();

        std::exception_ptr error;
        if (!failed) {
            try {
                run_stateless(instances, *slot);
            } catch (...) {
                error = std::current_exception();
            }
        }

        lock.lock();
        if (error && !error_) error_ = std::move(error);
        release_locked(std::move(slot));
        --pending_;
        lock.unlock();
        slot_free_.notify_all();
        lock.lock();
    }
}

void FramePipeline::Impl::finish() {
    if (finished_) return;
    finished_ = true;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        slot_free_.wait(lock, [&] { return pending_ == 0; });
        if (error_) std::rethrow_exception(error_);
    }
    for (std::size_t k = 0; k < temporal_.size(); ++k) {
        detail::CollectorSink sink(out_, detail::kFlushCall, rank_[temporal_[k]]);
        temporal_instances_[k]->flush(sink);
    }
}

FramePipeline::FramePipeline(std::vector<ExtractorSpec> extractors, const FrameGeometry& geometry,
                             const PipelineOptions& options, FeatureCollector& out)
    : impl_(std::make_unique<Impl>(std::move(extractors), geometry, options, out)) {}

FramePipeline::~FramePipeline() = default;

std::unique_ptr<FramePipeline::Slot> FramePipeline::acquire() { return impl_->acquire(); }

void FramePipeline::submit(std::unique_ptr<Slot> slot) { impl_->submit(std::move(slot)); }

void FramePipeline::finish() { impl_->finish(); }

unsigned FramePipeline::frames_submitted() const { return impl_->frames_submitted(); }

}  // namespace vmafpp
