// The statistics people compute by hand over a metric's per-frame values:
// libvmaf's four poolings plus spread, percentiles, a threshold count and the
// worst frames. Used by --stats, --report, `vmafpp report` and `vmafpp batch`.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/results.hpp"

namespace vmafpp::report {

// One metric's written values: the frames libvmaf writes (kept by subsample,
// holding a finite value), in frame order.
struct Series {
    std::string key;
    bool is_model = false;          // a model's score (the threshold applies)
    std::vector<unsigned> frames;   // frame numbers, ascending
    std::vector<double> values;     // values[i] is frames[i]'s
};

struct FrameValue {
    unsigned frame = 0;
    double value = 0.0;
};

struct Stats {
    std::size_t count = 0;
    double mean = 0, harmonic_mean = 0, min = 0, max = 0, stddev = 0;
    double p1 = 0, p5 = 0, p10 = 0, p50 = 0;
    std::optional<std::size_t> below;  // frames under the threshold (model scores only)
    std::vector<FrameValue> worst;     // the worst frames first
};

// The percentiles the tables show, in their order.
inline constexpr double kPercentiles[] = {1, 5, 10, 50};

// numpy.percentile(values, p) with its default method ('linear'), to the bit:
// index (n - 1) * (p / 100), and numpy's lerp (from the upper neighbour when
// the weight is 0.5 or more). `sorted` ascending, not empty.
double percentile_linear(std::span<const double> sorted, double p);

// Whether a lower value is the worse one: true for scores (VMAF, PSNR, SSIM,
// ...), false for the features that grow with impairment or motion (cambi,
// motion, adm's aim).
bool lower_is_worse(std::string_view key);

// Everything above for one series (not empty). mean and harmonic mean are
// libvmaf's (summed in frame order; n / sum(1 / (v + 1)) - 1); stddev is the
// population one (numpy.std's default, ddof 0). `threshold` counts the frames
// strictly below it when the series is a model's score. `worst` holds up to
// `worst_count` frames, the worst first, ties by frame number.
Stats compute_stats(const Series& s, double threshold, std::size_t worst_count);

// The written frames of each metric of `r` (see Series); `model_keys` marks
// the model scores. Metrics with no finite value are left out.
std::vector<Series> series_of(const Results& r, const std::vector<std::string>& model_keys);

// Whether `key` names a model's score in a file that does not say: libvmaf
// writes models under "vmaf" or their version ("vmaf_neg", "vmaf_b_v0.6.3",
// "vmaf_4k_v0.6.1_bagging"); its features never start with lower-case "vmaf".
bool looks_like_model_key(std::string_view key);

}  // namespace vmafpp::report
