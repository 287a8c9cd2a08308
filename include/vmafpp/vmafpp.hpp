// vmafpp's high-level API: score a distorted video against its reference.
//
//   vmafpp::ScoreConfig cfg;                       // default model vmaf_v0.6.1
//   auto ref = vmafpp::open_video("ref.y4m");
//   auto dis = vmafpp::open_video("dis.y4m");
//   vmafpp::ScoreRun run = vmafpp::score(*ref, *dis, cfg);
//   double mean = run.pooled("vmaf")->mean;      // nullopt for a key the run lacks
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/collector.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/export.hpp"
#include "vmafpp/model.hpp"
#include "vmafpp/reader.hpp"
#include "vmafpp/results.hpp"

namespace vmafpp {

// vmafpp's version ("0.1.0"); Results::version of every run.
VMAFPP_API std::string version();

// Frames begin .. end - 1 of a pair (counted from 0, after the skips).
struct FrameRange {
    unsigned begin = 0;
    unsigned end = 0;
};

struct ScoreConfig {
    // No model and !no_prediction: vmaf_v0.6.1, as libvmaf's CLI.
    std::vector<ModelConfig> models;
    bool no_prediction = false;
    // libvmaf --feature strings: "name" or "name=opt=val:opt=val".
    std::vector<std::string> features;
    // Where to compute: backend, device, --cpumask and --gpumask. Belongs to
    // this session alone; other sessions may run with other choices.
    ComputeConfig compute;
    unsigned threads = 0;
    unsigned subsample = 1;
    unsigned frame_cnt = 0;  // 0: all frames
    unsigned frame_skip_ref = 0;
    unsigned frame_skip_dist = 0;
    // Score only these frames, each with the values a run over the whole
    // pair gives it: the run also reads the context frames its temporal
    // extractors need around the range (FeatureInfo::context; seeking to the
    // first by skipping). Not with frame_cnt; refused (vmafpp::Error) for an
    // extractor whose values depend on the whole run (psnr's enable_apsnr),
    // an empty range, or one that reaches past the end of the pair.
    std::optional<FrameRange> frame_range;
    // Called after each frame pair is handed to the pipeline.
    std::function<void(unsigned frames_read)> on_frame;
    // Non-fatal conditions worth telling a user (one line, no newline).
    std::function<void(const std::string&)> on_warning;
};

struct VMAFPP_API ScoreRun {
    FeatureCollector values;  // features and model outputs per frame
    std::vector<Model> models;
    unsigned frames = 0;      // frames read from each input
    unsigned width = 0, height = 0;
    unsigned subsample = 1;
    // The input frame number of values' frame 0 (frame_range's begin; 0 for
    // a whole run), and whether the pair has no frame after the last one
    // scored.
    unsigned first_frame = 0;
    bool ends_input = true;
    Compute compute;          // where this session's extractors ran
    double seconds = 0;       // wall-clock time of reading and scoring

    // Frames that have scores: 0, subsample, 2 * subsample, ...
    bool scored(unsigned frame) const { return (first_frame + frame) % subsample == 0; }
    // The writers' input: every key in collector order, fps from `seconds`.
    Results results() const;
    // libvmaf's pooling over the scored frames; nullopt when a scored frame
    // lacks the key.
    std::optional<Pooled> pooled(std::string_view key) const;
};

// Scores every frame pair. Throws vmafpp::Error for mismatched inputs (size,
// bit depth, chroma format, frame count), unreadable frames and bad options.
// Calls set_luma_only() on both readers: true unless an extractor reads chroma.
VMAFPP_API ScoreRun score(VideoReader& ref, VideoReader& dis, const ScoreConfig& config);

}  // namespace vmafpp
