#include "vmafpp/scorer.hpp"

#include <chrono>
#include <optional>
#include <string>

#include "engine/pipeline.hpp"
#include "engine/session_plan.hpp"

namespace vmafpp {

class Scorer::Impl {
public:
    Impl(const ScoreConfig& config, const FrameGeometry& geometry)
        : t0_(std::chrono::steady_clock::now()), geometry_(geometry), on_frame_(config.on_frame) {
        if (geometry.width <= 0 || geometry.height <= 0 || geometry.bpc < 8 || geometry.bpc > 16)
            throw Error("invalid picture geometry " + std::to_string(geometry.width) + "x" +
                        std::to_string(geometry.height) + " " + std::to_string(geometry.bpc) +
                        "-bit");
        run_.compute = resolve_compute(config.compute);
        run_.subsample = config.subsample == 0 ? 1 : config.subsample;
        run_.width = unsigned(geometry.width);
        run_.height = unsigned(geometry.height);
        detail::RunPlan plan = detail::plan_run(config, geometry, run_.compute);
        run_.models = std::move(plan.models);
        chroma_ = plan.chroma && geometry.format != PixelFormat::yuv400;
        PipelineOptions popts;
        popts.threads = config.threads;
        popts.subsample = run_.subsample;
        popts.compute = run_.compute;
        pipeline_.emplace(std::move(plan.specs), geometry, popts, run_.values);
    }

    void check(const Picture& pic, const char* which) const {
        const int bps = geometry_.bpc > 8 ? 2 : 1;
        auto plane_ok = [&](const Plane& p, int w, int h) {
            return p.data() && p.width() == w && p.height() == h && p.bytes_per_sample() == bps;
        };
        const ChromaShift s = chroma_shift(geometry_.format);
        bool ok = pic.width == geometry_.width && pic.height == geometry_.height &&
                  pic.bpc == geometry_.bpc && pic.format == geometry_.format &&
                  plane_ok(pic.planes[0], geometry_.width, geometry_.height);
        if (ok && chroma_)
            for (int p = 1; p < 3; ++p)
                ok = ok && plane_ok(pic.planes[p], geometry_.width >> s.x, geometry_.height >> s.y);
        if (!ok)
            throw Error(std::string(which) + " picture " + std::to_string(pic.width) + "x" +
                        std::to_string(pic.height) + " " + std::to_string(pic.bpc) +
                        "-bit does not match the session's " + std::to_string(geometry_.width) +
                        "x" + std::to_string(geometry_.height) + " " +
                        std::to_string(geometry_.bpc) + "-bit" +
                        (chroma_ ? " with chroma" : ""));
        if (geometry_.bpc == 8 || geometry_.bpc == 16) return;
        // A sample above the bit depth would break the integer kernels' range
        // proofs, as for the readers (io/planar_reader.cpp).
        for (int p = 0; p < (chroma_ ? 3 : 1); ++p) {
            const Plane& pl = pic.planes[p];
            std::uint16_t any = 0;
            for (int y = 0; y < pl.height(); ++y) {
                const std::uint16_t* row = pl.row<std::uint16_t>(y);
                for (int x = 0; x < pl.width(); ++x) any |= row[x];
            }
            if (any >> geometry_.bpc)
                throw Error(std::string(which) + " picture: a sample exceeds " +
                            std::to_string(geometry_.bpc) + " bits");
        }
    }

    void push(Picture ref, Picture dis) {
        if (finished_) throw Error("push after finish: the session is over");
        check(ref, "reference");
        check(dis, "distorted");
        auto slot = pipeline_->acquire();
        slot->ref = std::move(ref);
        slot->dis = std::move(dis);
        pipeline_->submit(std::move(slot));
        ++run_.frames;
        if (on_frame_) on_frame_(run_.frames);
    }

    ScoreRun finish() {
        if (finished_) throw Error("finish called twice");
        finished_ = true;
        if (run_.frames == 0) throw Error("no frames to score: no picture was pushed");
        pipeline_->finish();
        pipeline_.reset();
        detail::predict_models(run_);
        run_.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        return std::move(run_);
    }

    std::chrono::steady_clock::time_point t0_;
    FrameGeometry geometry_;
    std::function<void(unsigned)> on_frame_;
    bool chroma_ = false;
    bool finished_ = false;
    ScoreRun run_;
    std::optional<FramePipeline> pipeline_;  // after run_: it writes into run_.values
};

Scorer::Scorer(const ScoreConfig& config, const FrameGeometry& geometry)
    : impl_(std::make_unique<Impl>(config, geometry)) {}
Scorer::~Scorer() = default;

const FrameGeometry& Scorer::geometry() const { return impl_->geometry_; }
bool Scorer::reads_chroma() const { return impl_->chroma_; }

Picture Scorer::make_picture() const {
    const FrameGeometry& g = impl_->geometry_;
    return Picture(g.width, g.height, g.bpc, g.format, impl_->chroma_);
}

void Scorer::push(Picture ref, Picture dis) { impl_->push(std::move(ref), std::move(dis)); }
unsigned Scorer::frames() const { return impl_->run_.frames; }
ScoreRun Scorer::finish() { return impl_->finish(); }

}  // namespace vmafpp
