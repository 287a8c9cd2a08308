#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
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
    f.make = [temporal](const ExtractorSetup& s) -> std::unique_ptr<FeatureExtractor> {
        if (s.geometry.width < 4) throw Error("too small");
        if (temporal) return std::make_unique<Delta>();
        return std::make_unique<MeanLuma>();
    };
    return f;
}

PipelineOptions options(unsigned threads, unsigned subsample = 1) {
    PipelineOptions o;
    o.threads = threads;
    o.subsample = subsample;
    return o;
}

struct Outcome {
    std::vector<std::string> keys;
    std::vector<std::vector<std::optional<double>>> values;
};

Outcome run(unsigned threads, unsigned subsample, unsigned frames) {
    static const FeatureInfo mean = info("mean", false), delta = info("delta", true);
    FeatureCollector c;
    FrameGeometry g{16, 8, 8, PixelFormat::yuv420};
    FramePipeline p({{&mean, {}}, {&delta, {}}}, g, options(threads, subsample), c);
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

// Throws on frames in [from, to); writes "ok" on the others.
class FailOn final : public FeatureExtractor {
public:
    FailOn(unsigned from, unsigned to) : from_(from), to_(to) {}
    void extract(const Picture&, const Picture&, unsigned frame, FeatureSink& sink) override {
        std::this_thread::sleep_for(std::chrono::microseconds((frame * 7919) % 300));
        if (frame >= from_ && frame < to_) throw Error("failed at frame " + std::to_string(frame));
        sink.append("ok", frame, frame);
    }

private:
    unsigned from_, to_;
};

FeatureInfo failing(unsigned from, unsigned to) {
    FeatureInfo f;
    f.name = "failing";
    f.make = [from, to](const ExtractorSetup&) -> std::unique_ptr<FeatureExtractor> {
        return std::make_unique<FailOn>(from, to);
    };
    return f;
}

// Feeds `frames` frames and finishes; returns the message of the Error that
// acquire(), submit() or finish() threw, or "" if none did.
std::string run_failing(const FeatureInfo& f, unsigned threads, unsigned frames) {
    FeatureCollector c;
    FramePipeline p({{&f, {}}}, FrameGeometry{16, 8, 8, PixelFormat::yuv420}, options(threads), c);
    try {
        for (unsigned i = 0; i < frames; ++i) {
            auto slot = p.acquire();
            slot->ref = Picture(16, 8, 8, PixelFormat::yuv420);
            slot->dis = slot->ref;
            p.submit(std::move(slot));
        }
        p.finish();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Pipeline, WorkerErrorReachesTheCaller) {
    // One failing frame: wherever it surfaces, it is that frame's error.
    static const FeatureInfo one = failing(3, 4);
    for (unsigned t : {0u, 1u, 2u, 4u, 8u})
        EXPECT_EQ(run_failing(one, t, 12), "failed at frame 3") << t << " threads";
    // The failing frame is the last one: only finish() can report it.
    static const FeatureInfo last = failing(11, 12);
    for (unsigned t : {0u, 1u, 2u, 4u, 8u})
        EXPECT_EQ(run_failing(last, t, 12), "failed at frame 11") << t << " threads";
}

TEST(Pipeline, ManyWorkersFailingAtOnce) {
    // Every frame from 5 on fails, so workers throw while others still score:
    // the first error wins and the pipeline neither hangs nor loses it.
    static const FeatureInfo many = failing(5, 1000);
    EXPECT_EQ(run_failing(many, 0, 40), "failed at frame 5");
    for (unsigned t : {1u, 2u, 4u, 8u}) {
        for (int rep = 0; rep < 5; ++rep) {
            const std::string m = run_failing(many, t, 40);
            EXPECT_EQ(m.rfind("failed at frame ", 0), 0u) << t << " threads: " << m;
        }
    }
}

TEST(Pipeline, DestroyedWithFramesInFlight) {
    // An abandoned run (the caller threw between submit() and finish()) must
    // join its workers and free every slot.
    static const FeatureInfo mean = info("mean", false), delta = info("delta", true);
    for (unsigned t : {1u, 2u, 4u, 8u}) {
        FeatureCollector c;
        {
            FramePipeline p({{&mean, {}}, {&delta, {}}}, FrameGeometry{16, 8, 8, PixelFormat::yuv420},
                            options(t), c);
            for (unsigned f = 0; f < 2 * t + 1; ++f) {
                auto slot = p.acquire();
                slot->ref = Picture(16, 8, 8, PixelFormat::yuv420);
                slot->dis = slot->ref;
                p.submit(std::move(slot));
            }
            EXPECT_EQ(p.frames_submitted(), 2 * t + 1);
        }
        EXPECT_LE(c.frame_count(), 2 * t + 1);
    }
}

TEST(Pipeline, CreationErrorsSurfaceBeforeAnyFrame) {
    static const FeatureInfo mean = info("mean", false);
    FeatureCollector c;
    EXPECT_THROW(FramePipeline({{&mean, {}}}, FrameGeometry{2, 2, 8, PixelFormat::yuv420}, options(2), c),
                 Error);
}

}  // namespace
}  // namespace vmafpp
