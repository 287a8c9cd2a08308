// Runs feature extractors over a stream of frame pairs, optionally on worker
// threads, with results identical to a single thread.
#pragma once

#include <memory>
#include <vector>

#include "vmafpp/collector.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

struct PipelineOptions {
    // 0: everything on the calling thread. N >= 1: N workers score frames in
    // parallel while the calling thread reads and runs temporal extractors.
    unsigned threads = 0;
    // Non-temporal extractors score frames 0, n, 2n, ...; temporal ones see
    // every frame (libvmaf's --subsample).
    unsigned subsample = 1;
    // A frame-range run: the pipeline's frame 0 is frame `first_frame` of the
    // input (subsample counts from the input's frame 0), and non-temporal
    // extractors score only frames keep_begin .. keep_end - 1 of the
    // pipeline; the others are context for the temporal ones.
    unsigned first_frame = 0;
    unsigned keep_begin = 0;
    unsigned keep_end = 0xffffffffu;
    // Where every extractor of this pipeline runs (one scoring session's
    // choice), handed to each create().
    Compute compute;
};

// One thread (the caller) drives a pipeline: acquire(), submit(), finish()
// and frames_submitted() must not be called concurrently. The workers, their
// queue and its synchronisation are private to pipeline.cpp.
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
    // Waits for the frames still in flight (their values still reach `out`)
    // and joins the workers; errors they raise then are dropped.
    ~FramePipeline();
    FramePipeline(const FramePipeline&) = delete;
    FramePipeline& operator=(const FramePipeline&) = delete;

    // Pictures to read the next frame into. Blocks while the bounded number of
    // frames is in flight (memory does not grow with clip length). A slot that
    // is not submitted (end of input) may simply be dropped. Rethrows the
    // first error an extractor raised.
    std::unique_ptr<Slot> acquire();
    // Scores the slot as the next frame in order. Rethrows the first error an
    // extractor raised.
    void submit(std::unique_ptr<Slot> slot);
    // Waits for every frame and flushes temporal extractors. Rethrows the first
    // error an extractor raised.
    void finish();

    unsigned frames_submitted() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace vmafpp
