// Per-frame values of a run and libvmaf's pooling of them; the input of the
// output writers (vmafpp/output.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmafpp/export.hpp"

namespace vmafpp {

struct Pooled {
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double harmonic_mean = 0.0;
};

// libvmaf's pooling over the frames 0..frame_count-1 that `subsample` keeps
// (every frame when subsample <= 1, else those with frame % subsample == 0).
// nullopt when no frame is kept or a kept frame has no value (libvmaf then
// leaves the pooled entry out). values[i] is input frame first_frame + i
// (a frame-range run's results).
VMAFPP_API std::optional<Pooled> pool(std::span<const std::optional<double>> values,
                           unsigned frame_count, unsigned subsample, unsigned first_frame = 0);

struct VMAFPP_API Results {
    struct Metric {
        std::string key;                            // output name, e.g. "integer_adm2"
        std::vector<std::optional<double>> values;  // by frame number
    };

    std::string version;  // written as the file's version
    double fps = 0.0;     // frames per second of the run (wall clock)
    unsigned width = 0;   // written by the XML writer only
    unsigned height = 0;
    unsigned subsample = 1;
    unsigned frame_count = 0;  // frames read; pooling covers 0..frame_count-1
    unsigned first_frame = 0;  // input frame of frame 0 (a frame-range run)
    // In order of first appearance, which is the order libvmaf writes.
    std::vector<Metric> metrics;
    std::vector<std::pair<std::string, double>> aggregate;

    // Stores a value, appending the metric when its key is new.
    void set(std::string_view key, unsigned frame, double value);
    const Metric* find(std::string_view key) const;
    std::optional<Pooled> pooled(const Metric& m) const {
        return pool(m.values, frame_count, subsample, first_frame);
    }
};

}  // namespace vmafpp
