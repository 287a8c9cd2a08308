#include "vmafpp/scorer.hpp"

#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "base/format_name.hpp"
#include "base/sample_range.hpp"
#include "engine/pipeline.hpp"
#include "engine/session_plan.hpp"

namespace vmafpp {
namespace {

const char* plane_name(std::size_t p) { return p == 0 ? "Y" : p == 1 ? "U" : "V"; }

std::string shape(long w, long h) { return std::to_string(w) + "x" + std::to_string(h); }

// The sizes a plane of a `n`-sample side may have when subsampled by `shift`:
// libvmaf's pictures floor (n >> 1), Y4M files ceil ((n + 1) >> 1).
long floor_size(int n, int shift) { return long(n) >> shift; }
long ceil_size(int n, int shift) { return (long(n) + (1L << shift) - 1) >> shift; }

// Throws unless `v` can be plane `p` of a picture of geometry `g`: its shape
// one the format allows, its rows as long as the samples they hold, its data
// there. Checked before a single sample is read, so a wrong plane can never
// make the copy (or an extractor reading a view) read past the caller's buffer.
void check_plane(const PlaneView& v, std::size_t p, const FrameGeometry& g, const char* which) {
    const ChromaShift s = p == 0 ? ChromaShift{} : chroma_shift(g.format);
    const long fw = floor_size(g.width, s.x), fh = floor_size(g.height, s.y);
    const long cw = ceil_size(g.width, s.x), ch = ceil_size(g.height, s.y);
    const bool fits = (v.width == fw || v.width == cw) && (v.height == fh || v.height == ch);
    if (!fits)
        throw Error(std::string(which) + " plane " + plane_name(p) + " is " + shape(v.width, v.height) +
                    ", but a " + shape(g.width, g.height) + " " + chroma_format_name(g.format) +
                    " picture's " + plane_name(p) + " plane is " + shape(fw, fh) +
                    (fw != cw || fh != ch ? " (or " + shape(cw, ch) + ")" : ""));
    if (!v.data && v.width > 0 && v.height > 0)
        throw Error(std::string(which) + " plane " + plane_name(p) + " has no data (a null pointer)");
    const long row_bytes = long(v.width) * (g.bpc > 8 ? 2 : 1);
    if (v.stride < row_bytes)
        throw Error(std::string(which) + " plane " + plane_name(p) + ": a stride of " +
                    std::to_string(v.stride) + " bytes is shorter than its rows of " +
                    std::to_string(row_bytes) + " bytes");
}

// Copies the part of `v` that `dst` holds (the floor size of a ceil plane).
void copy_plane(const PlaneView& v, Plane& dst) {
    const std::size_t row_bytes = std::size_t(dst.width()) * std::size_t(dst.bytes_per_sample());
    if (row_bytes == 0) return;  // a 1-sample side's floor chroma
    const auto* src = static_cast<const std::uint8_t*>(v.data);
    for (int y = 0; y < dst.height(); ++y)
        std::memcpy(dst.row<std::uint8_t>(y), src + std::ptrdiff_t(y) * v.stride, row_bytes);
}

}  // namespace

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
        // The readers' check (base/sample_range.hpp), on the caller's planes.
        for (int p = 0; p < (chroma_ ? 3 : 1); ++p) {
            if (!samples_fit(pic.planes[p], geometry_.bpc))
                throw Error(std::string(which) + " picture: a sample exceeds " +
                            std::to_string(geometry_.bpc) + " bits");
        }
    }

    void refuse_after_finish() const {
        if (finished_) throw Error("push after finish: the session is over");
    }

    void check_planes(std::span<const PlaneView> planes, const char* which) const {
        const std::size_t count = geometry_.format == PixelFormat::yuv400 ? 1 : 3;
        if (planes.size() == 1 && count == 3 && chroma_)
            throw Error(std::string(which) + ": the extractors read chroma: give Y, U and V planes, not Y alone");
        if (planes.size() != count && !(planes.size() == 1 && !chroma_))
            throw Error(std::string(which) + ": a " + chroma_format_name(geometry_.format) + " picture has " +
                        (count == 1 ? "1 plane (Y)" : "3 planes (Y, U, V)") + ", got " +
                        std::to_string(planes.size()));
        for (std::size_t p = 0; p < planes.size(); ++p) check_plane(planes[p], p, geometry_, which);
    }

    Picture picture_from(std::span<const PlaneView> planes, const char* which) const {
        check_planes(planes, which);
        Picture pic(geometry_.width, geometry_.height, geometry_.bpc, geometry_.format, chroma_);
        for (int p = 0; p < (pic.has_chroma() ? 3 : 1); ++p) copy_plane(planes[std::size_t(p)], pic.planes[p]);
        return pic;
    }

    // The session's picture over the caller's planes (the floor part of a
    // ceil chroma plane), as picture_from's but without the copy.
    Picture view_from(std::span<const PlaneView> planes, const char* which,
                      const std::shared_ptr<const void>& keep_alive) const {
        check_planes(planes, which);
        Picture pic;
        pic.width = geometry_.width;
        pic.height = geometry_.height;
        pic.bpc = geometry_.bpc;
        pic.format = geometry_.format;
        const int bps = geometry_.bpc > 8 ? 2 : 1;
        const ChromaShift s = chroma_shift(geometry_.format);
        pic.planes[0] = Plane::view(planes[0], geometry_.width, geometry_.height, bps, keep_alive);
        if (chroma_)
            for (std::size_t p = 1; p < 3; ++p)
                pic.planes[p] = Plane::view(planes[p], geometry_.width >> s.x,
                                            geometry_.height >> s.y, bps, keep_alive);
        return pic;
    }

    void push(Picture ref, Picture dis) {
        refuse_after_finish();
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

Picture Scorer::picture_from(std::span<const PlaneView> planes, const char* which) const {
    return impl_->picture_from(planes, which);
}

void Scorer::check_planes(std::span<const PlaneView> planes, const char* which) const {
    impl_->check_planes(planes, which);
}

Picture Scorer::view_from(std::span<const PlaneView> planes, const char* which,
                          std::shared_ptr<const void> keep_alive) const {
    return impl_->view_from(planes, which, keep_alive);
}

void Scorer::push(std::span<const PlaneView> ref, std::span<const PlaneView> dis,
                  std::shared_ptr<const void> keep_alive) {
    impl_->refuse_after_finish();
    Picture r = impl_->view_from(ref, "reference", keep_alive);  // the reference's error first
    impl_->push(std::move(r), impl_->view_from(dis, "distorted", keep_alive));
}

void Scorer::push(Picture ref, Picture dis) { impl_->push(std::move(ref), std::move(dis)); }
unsigned Scorer::frames() const { return impl_->run_.frames; }
ScoreRun Scorer::finish() { return impl_->finish(); }

}  // namespace vmafpp
