// Runs one feature extractor over frames or over a corpus pair, collecting
// what it writes (for the feature tests).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp::test {

// Every value written, and the keys in the order they were first written.
class RecordingSink final : public FeatureSink {
public:
    RecordingSink() = default;
    RecordingSink(RecordingSink&& o) noexcept
        : values(std::move(o.values)), order(std::move(o.order)),
          duplicates(std::move(o.duplicates)) {}
    void append(std::string_view key, unsigned frame, double value) override {
        std::lock_guard<std::mutex> lock(mu_);
        auto [it, fresh] = values.try_emplace(std::string(key));
        if (fresh) order.emplace_back(key);
        const bool dup = !it->second.emplace(frame, value).second;
        if (dup) duplicates.push_back(std::string(key) + "@" + std::to_string(frame));
    }
    std::map<std::string, std::map<unsigned, double>> values;
    std::vector<std::string> order;
    std::vector<std::string> duplicates;

private:
    std::mutex mu_;
};

inline OptionValues options_for(const FeatureInfo& info,
                                const std::vector<std::pair<std::string, std::string>>& set) {
    OptionValues o(info.options);
    for (const auto& [k, v] : set) o.set(k, v);
    return o;
}

// Feeds every frame of the pair (reference and distorted Y4M) to one instance,
// in order, then flushes it; on `backend`'s twins where given.
inline RecordingSink run_pair(const std::string& pair, const std::string& feature,
                              const std::vector<std::pair<std::string, std::string>>& set = {},
                              std::optional<SimdLevel> level = std::nullopt,
                              std::optional<Backend> backend = std::nullopt) {
    const FeatureInfo* info = find_feature(feature);
    if (!info) throw Error("no feature " + feature);
    auto ref = open_video(clip(pair, "ref").string());
    auto dis = open_video(clip(pair, "dis").string());
    const VideoInfo& vi = ref->info();
    Compute compute = Compute::best_cpu();
    if (level) compute.simd = *level;
    if (backend) compute.backend = *backend;
    auto fex = info->create(options_for(*info, set),
                            FrameGeometry{vi.width, vi.height, vi.bpc, vi.format}, compute);
    RecordingSink sink;
    Picture r, d;
    unsigned frame = 0;
    while (ref->read(r)) {
        if (!dis->read(d)) throw Error("distorted clip is shorter");
        fex->extract(r, d, frame++, sink);
    }
    fex->flush(sink);
    return sink;
}

// The pairs whose goldens are targets (p21 is not: libvmaf reads unwritten
// memory at 18x18).
inline std::vector<std::string> target_pairs() {
    std::vector<std::string> out;
    for (auto& p : corpus_pairs())
        if (p.rfind("p21_", 0) != 0) out.push_back(p);
    return out;
}

// Every plane full of uniform noise over the bpc range (a fixed LCG from
// `seed`), for extractor tests outside the corpus.
inline Picture noise_picture(int w, int h, int bpc, PixelFormat fmt, unsigned seed) {
    Picture p(w, h, bpc, fmt);
    unsigned s = seed;
    const unsigned mask = (1u << bpc) - 1;
    for (int k = 0; k < p.plane_count(); ++k) {
        Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x) {
                s = s * 1664525u + 1013904223u;
                const unsigned v = (s >> 8) & mask;
                if (bpc > 8)
                    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
                else
                    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            }
    }
    return p;
}

// create() must refuse geometry `g` with a one-line vmafpp::Error that
// contains `needle`.
inline void expect_refused(const FeatureInfo& info, const OptionValues& o, const FrameGeometry& g,
                           const std::string& needle) {
    try {
        info.create(o, g);
        ADD_FAILURE() << info.name << " accepted " << g.width << "x" << g.height << " bpc " << g.bpc;
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

// "%.17g": every bit of a double, for failure messages.
inline std::string g17(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// The target pairs whose golden `file` has `key` (libvmaf could not score
// some pairs with some extractors; their goldens lack its keys).
inline std::vector<std::string> pairs_with_key(const std::string& file, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& p : target_pairs())
        if (has_golden(p, file) && golden(p, file)["frames"][0]["metrics"].contains(key))
            out.push_back(p);
    return out;
}

// Every frame's `keys` of the golden `file` against what `got` holds, bit for
// bit; libvmaf writes a non-finite value (log10 of 0 for identical planes) as
// null, which must be +inf here. Returns how many values were compared.
inline int expect_golden_keys(const RecordingSink& got, const std::string& pair,
                              const std::string& file, const std::vector<std::string>& keys) {
    const auto g = golden(pair, file);
    int compared = 0;
    for (const auto& key : keys) {
        const auto k = got.values.find(key);
        if (k == got.values.end()) {
            ADD_FAILURE() << pair << ": " << key << " not written";
            continue;
        }
        EXPECT_EQ(k->second.size(), g["frames"].size()) << key;
        for (const auto& f : g["frames"]) {
            const unsigned n = f["frameNum"];
            const auto& want = f["metrics"][key];
            const auto v = k->second.find(n);
            if (v == k->second.end()) {
                ADD_FAILURE() << key << " frame " << n << " not written";
                continue;
            }
            if (want.is_null())
                EXPECT_TRUE(std::isinf(v->second) && v->second > 0)
                    << key << " frame " << n << ": got " << g17(v->second) << " want null (+inf)";
            else
                EXPECT_EQ(v->second, want.get<double>()) << key << " frame " << n << ": got "
                                                         << g17(v->second) << " want "
                                                         << g17(want.get<double>());
            ++compared;
        }
    }
    return compared;
}

}  // namespace vmafpp::test
