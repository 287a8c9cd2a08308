#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "vmafpp/error.hpp"
#include "engine/pipeline.hpp"

namespace vmafpp {
namespace {

// Writes the mean luma and, with a jittered delay, a second key, so a
// scheduling-dependent collector would reorder or lose values.
class MeanLuma final : public FeatureExtractor {
public:
    void extract(const Picture& ref, const Picture&, unsigned frame, FeatureSink& sink) override {
        double sum = 0;
        for (int y = 0; y < ref.height; ++y)
            for (int x = 0; x < ref.width; ++x) sum += ref.luma().row<std::uint8_t>(y)[x];
        std::this_thread::sleep_for(std::chrono::microseconds((frame * 7919) % 300));
        sink.append("mean_luma", frame, sum / (ref.width * ref.height));
        sink.append("frame_squared", frame, double(frame) * frame);
    }
};

// Temporal: difference to the previous frame's first sample, last one at flush.
class Delta final : public FeatureExtractor {
public:
    void extract(const Picture& ref, const Picture&, unsigned frame, FeatureSink& sink) override {
        const int v = ref.luma().row<std::uint8_t>(0)[0];
        if (frame > 0) sink.append("delta", frame - 1, v - prev_);
        prev_ = v;
        last_ = frame;
    }
    void flush(FeatureSink& sink) override { sink.append("delta", last_, 0); }

private:
    int prev_ = 0;
    unsigned last_ = 0;
};

FeatureInfo info(const char* name, bool temporal) {
    FeatureInfo f;
    f.name = name;
    f.temporal = temporal;
    f.create = [temporal](const OptionValues&, const FrameGeometry& g)
        -> std::unique_ptr<FeatureExtractor> {
        if (g.width < 4) throw Error("too small");
        if (temporal) return std::make_unique<Delta>();
        return std::make_unique<MeanLuma>();
    };
    return f;
}

struct Outcome {
    std::vector<std::string> keys;
    std::vector<std::vector<std::optional<double>>> values;
};

Outcome run(unsigned threads, unsigned subsample, unsigned frames) {
    static const FeatureInfo mean = info("mean", false), delta = info("delta", true);
    FeatureCollector c;
    FrameGeometry g{16, 8, 8, PixelFormat::yuv420};
    FramePipeline p({{&mean, {}}, {&delta, {}}}, g, {threads, subsample}, c);
    for (unsigned f = 0; f < frames; ++f) {
        auto slot = p.acquire();
        slot->ref = Picture(16, 8, 8, PixelFormat::yuv420);
        slot->dis = slot->ref;
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 16; ++x)
                slot->ref.planes[0].row<std::uint8_t>(y)[x] = std::uint8_t((f * 31 + x * y) & 255);
        p.submit(std::move(slot));
    }
    p.finish();
    Outcome r{c.keys(), {}};
    for (const auto& k : r.keys) {
        r.values.emplace_back();
        for (unsigned f = 0; f < c.frame_count(); ++f) r.values.back().push_back(c.value(k, f));
    }
    return r;
}

TEST(Pipeline, ThreadCountsGiveIdenticalResultsAndKeyOrder) {
    const Outcome base = run(0, 1, 40);
    ASSERT_EQ(base.keys, (std::vector<std::string>{"mean_luma", "frame_squared", "delta"}));
    for (unsigned t : {1u, 2u, 3u, 8u}) {
        const Outcome r = run(t, 1, 40);
        EXPECT_EQ(r.keys, base.keys) << t << " threads";
        EXPECT_EQ(r.values, base.values) << t << " threads";
    }
}

TEST(Pipeline, SubsampleSkipsStatelessButNotTemporal) {
    const Outcome r = run(2, 3, 10);
    ASSERT_EQ(r.keys.size(), 3u);
    for (unsigned f = 0; f < 10; ++f) {
        EXPECT_EQ(r.values[0][f].has_value(), f % 3 == 0) << f;  // mean_luma
        EXPECT_TRUE(r.values[2][f].has_value()) << f;             // delta
    }
}

TEST(Pipeline, CreationErrorsSurfaceBeforeAnyFrame) {
    static const FeatureInfo mean = info("mean", false);
    FeatureCollector c;
    EXPECT_THROW(FramePipeline({{&mean, {}}}, FrameGeometry{2, 2, 8, PixelFormat::yuv420}, {2, 1}, c),
                 Error);
}

}  // namespace
}  // namespace vmafpp
