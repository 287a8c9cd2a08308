#include "report/stats.hpp"

#include <algorithm>
#include <cmath>

namespace vmafpp::report {

double percentile_linear(std::span<const double> sorted, double p) {
    const std::size_t n = sorted.size();
    const double q = p / 100.0;  // numpy.percentile divides first
    const double index = double(n - 1) * q;
    // numpy clips the neighbours to the ends of the array.
    const double below = std::floor(index);
    std::size_t lo = below < 0 ? 0 : std::size_t(below);
    std::size_t hi = lo + 1;
    if (index >= double(n - 1)) lo = hi = n - 1;
    const double t = index - double(lo);
    const double a = sorted[lo], b = sorted[hi];
    const double diff = b - a;
    // numpy's _lerp: a + diff * t, or b - diff * (1 - t) when t >= 0.5, so that
    // the end a weight is near is the one returned exactly.
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

bool lower_is_worse(std::string_view key) {
    for (std::string_view rising : {"cambi", "motion", "aim"})
        if (key.find(rising) != std::string_view::npos) return false;
    return true;
}

bool looks_like_model_key(std::string_view key) { return key.substr(0, 4) == "vmaf"; }

namespace {

std::vector<FrameValue> worst_frames(const Series& s, std::size_t count) {
    std::vector<FrameValue> all(s.values.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = {s.frames[i], s.values[i]};
    const bool low = lower_is_worse(s.key);
    auto worse = [low](const FrameValue& a, const FrameValue& b) {
        if (a.value != b.value) return low ? a.value < b.value : a.value > b.value;
        return a.frame < b.frame;
    };
    count = std::min(count, all.size());
    std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(count), all.end(), worse);
    all.resize(count);
    return all;
}

}  // namespace

Stats compute_stats(const Series& s, double threshold, std::size_t worst_count) {
    Stats st;
    const std::size_t n = s.values.size();
    st.count = n;
    if (n == 0) return st;
    double sum = 0, inverse_sum = 0;
    st.min = st.max = s.values[0];
    for (double v : s.values) {
        sum += v;
        inverse_sum += 1. / (v + 1.);
        st.min = std::min(st.min, v);
        st.max = std::max(st.max, v);
    }
    st.mean = sum / double(n);
    st.harmonic_mean = double(n) / inverse_sum - 1.0;
    double squares = 0;  // two passes: no cancellation of large means
    for (double v : s.values) squares += (v - st.mean) * (v - st.mean);
    st.stddev = std::sqrt(squares / double(n));
    std::vector<double> sorted = s.values;
    std::sort(sorted.begin(), sorted.end());
    st.p1 = percentile_linear(sorted, kPercentiles[0]);
    st.p5 = percentile_linear(sorted, kPercentiles[1]);
    st.p10 = percentile_linear(sorted, kPercentiles[2]);
    st.p50 = percentile_linear(sorted, kPercentiles[3]);
    if (s.is_model)
        st.below = std::size_t(std::count_if(sorted.begin(), sorted.end(),
                                             [&](double v) { return v < threshold; }));
    st.worst = worst_frames(s, worst_count);
    return st;
}

std::vector<Series> series_of(const Results& r, const std::vector<std::string>& model_keys) {
    std::vector<Series> out;
    for (const auto& m : r.metrics) {
        Series s;
        s.key = m.key;
        s.is_model = std::find(model_keys.begin(), model_keys.end(), m.key) != model_keys.end();
        for (std::size_t i = 0; i < m.values.size(); ++i) {
            // The writers' rule: subsample keeps frames i % subsample == 0.
            if (r.subsample > 1 && i % r.subsample) continue;
            if (!m.values[i] || !std::isfinite(*m.values[i])) continue;
            s.frames.push_back(unsigned(i));
            s.values.push_back(*m.values[i]);
        }
        if (!s.values.empty()) out.push_back(std::move(s));
    }
    return out;
}

}  // namespace vmafpp::report
