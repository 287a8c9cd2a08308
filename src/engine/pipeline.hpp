// Runs feature extractors over a stream of frame pairs, optionally on worker
// threads, with results identical to a single thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "vmafpp/collector.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

struct PipelineOptions {
    // 0: everything on the calling thread. N >= 1: N workers score frames in
    // parallel while the calling thread reads and runs temporal extractors.
    unsigned threads = 0;
    // Non-temporal extractors score frames 0, n, 2n, ...; temporal ones see
    // every frame (libvmaf's --subsample).
    unsigned subsample = 1;
};

class FramePipeline {
public:
    struct Slot {
        Picture ref;
        Picture dis;
        unsigned frame = 0;
    };

    // Creates every extractor once up front, so an unsupported geometry or
    // option fails here, before any frame is read.
    FramePipeline(std::vector<ExtractorSpec> extractors, const FrameGeometry& geometry,
                  const PipelineOptions& options, FeatureCollector& out);
    ~FramePipeline();
    FramePipeline(const FramePipeline&) = delete;
    FramePipeline& operator=(const FramePipeline&) = delete;

    // Pictures to read the next frame into. Blocks while the bounded number of
    // frames is in flight (memory does not grow with clip length). A slot that
    // is not submitted (end of input) may simply be dropped.
    std::unique_ptr<Slot> acquire();
    // Scores the slot as the next frame in order.
    void submit(std::unique_ptr<Slot> slot);
    // Waits for every frame and flushes temporal extractors. Rethrows the first
    // error an extractor raised.
    void finish();

    unsigned frames_submitted() const { return next_frame_; }

private:
    using Instances = std::vector<std::unique_ptr<FeatureExtractor>>;
    void run_stateless(Instances& instances, const Slot& slot);
    void worker_main(std::size_t worker);
    void rethrow_if_failed();
    void release(std::unique_ptr<Slot> slot);

    std::vector<ExtractorSpec> specs_;
    FrameGeometry geometry_;
    PipelineOptions options_;
    FeatureCollector& out_;

    std::vector<std::size_t> temporal_;   // indices into specs_
    std::vector<std::size_t> stateless_;  // indices into specs_
    std::vector<std::unique_ptr<FeatureExtractor>> temporal_instances_;
    std::vector<Instances> worker_instances_;  // [worker][k] for stateless_[k]

    unsigned next_frame_ = 0;
    bool finished_ = false;

    std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable slot_free_;
    std::deque<std::unique_ptr<Slot>> queue_;
    std::vector<std::unique_ptr<Slot>> free_slots_;
    unsigned slots_out_ = 0;  // acquired, not yet released
    unsigned max_slots_ = 1;
    unsigned pending_ = 0;    // submitted to workers, not yet scored
    bool stopping_ = false;
    std::exception_ptr error_;
    std::vector<std::thread> workers_;
};

}  // namespace vmafpp
