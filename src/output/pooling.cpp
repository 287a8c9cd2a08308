#include "vmafpp/results.hpp"

namespace vmafpp {

// Summed in frame order in double; the harmonic mean is libvmaf's
// n / sum(1 / (s + 1)) - 1, which stays finite for scores of 0.
std::optional<Pooled> pool(std::span<const std::optional<double>> values,
                           unsigned frame_count, unsigned subsample, unsigned first_frame) {
    unsigned count = 0;
    double min = 0., max = 0., sum = 0., inverse_sum = 0.;
    for (unsigned i = 0; i < frame_count; ++i) {
        if (subsample > 1 && (first_frame + i) % subsample) continue;
        if (i >= values.size() || !values[i]) return std::nullopt;
        ++count;
        const double s = *values[i];
        sum += s;
        inverse_sum += 1. / (s + 1.);
        // Comparisons, not std::min: a NaN in frame 0 sticks, as in libvmaf.
        if (count == 1 || s < min) min = s;
        if (count == 1 || s > max) max = s;
    }
    if (count == 0) return std::nullopt;
    Pooled p;
    p.min = min;
    p.max = max;
    p.mean = sum / count;
    p.harmonic_mean = count / inverse_sum - 1.0;
    return p;
}

void Results::set(std::string_view key, unsigned frame, double value) {
    Metric* m = nullptr;
    for (auto& x : metrics)
        if (x.key == key) m = &x;
    if (!m) {
        metrics.push_back({std::string(key), {}});
        m = &metrics.back();
    }
    if (m->values.size() <= frame) m->values.resize(frame + 1);
    m->values[frame] = value;
}

const Results::Metric* Results::find(std::string_view key) const {
    for (const auto& x : metrics)
        if (x.key == key) return &x;
    return nullptr;
}

}  // namespace vmafpp
