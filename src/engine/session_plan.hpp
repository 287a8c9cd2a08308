// The two halves of a scoring session that score() (pull: it reads the
// inputs) and Scorer (push: the caller hands frames in) share, so both give
// the same extractors, the same key order and the same model scores.
#pragma once

#include <vector>

#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::detail {

struct RunPlan {
    std::vector<Model> models;
    std::vector<ExtractorSpec> specs;  // one per distinct extractor
    bool chroma = false;               // whether any extractor reads chroma
    bool reference = false;            // whether any extractor reads the reference
};

// Loads the models and turns their features and config.features into
// extractor specs; a config.features entry whose extractor refuses this
// geometry is left out with a warning (config.on_warning), as libvmaf leaves
// it out. Throws vmafpp::Error before any frame is read.
RunPlan plan_run(const ScoreConfig& config, const FrameGeometry& geometry, const Compute& compute);

// Appends every model's outputs for each scored frame of `run`, after every
// feature (the order libvmaf writes them).
void predict_models(ScoreRun& run);

}  // namespace vmafpp::detail
