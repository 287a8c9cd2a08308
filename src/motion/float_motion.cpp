// libvmaf's "float_motion" extractor: mean absolute difference between the
// blurred luma of consecutive reference frames. Temporal: motion2/motion3 of
// frame n need frame n+1, so they are written one call late (and by flush()).
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/c_macros.hpp"
#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "base/float_image.hpp"
#include "motion/float_motion_kernels.hpp"
#include "vif/float_vif_kernels.hpp"
#include "motion/motion_options.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

// libvmaf's motion blur filters (float literals of motion_tools.h).
constexpr float kFilter5[5] = {0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f,
                               0.054488685f};
constexpr float kFilter3[3] = {0.166378498f, 0.667243004f, 0.166378498f};
constexpr float kFilter5NoOp[5] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};

const std::vector<ProvidedFeature> kProvided = {
    {"VMAF_feature_motion_score", "motion"},
    {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_motion3_score", "motion3"},
};

// What a float_motion instance reads from its options (motion_table()).
struct MotionParams {
    bool debug;
    bool force_zero;
    double fps_weight;
    double blend_factor;
    double blend_offset;
    bool add_scale1;
    int filter_size;
    bool add_uv;
    double max_val;
};

// libvmaf's options, in its order, each with the field it fills; what
// libvmaf declares identically for integer motion comes from that table
// (debug but for its default, on here).
const OptionTable<MotionParams>& motion_table() {
    using T = OptionType;
    using P = MotionParams;
    static const OptionTable<MotionParams> table = [] {
        const std::vector<OptionSpec> twin = motion::integer_motion_options();
        OptionSpec debug = option_from(twin, "debug");
        debug.default_value = 1;
        OptionTable<MotionParams> t;
        t.add(debug, &P::debug)
            .add_shared(twin, "motion_force_zero", &P::force_zero)
            .add_shared(twin, "motion_fps_weight", &P::fps_weight)
            .add_shared(twin, "motion_blend_factor", &P::blend_factor)
            .add_shared(twin, "motion_blend_offset", &P::blend_offset)
            .add({"motion_add_scale1", "mdc", T::boolean, 0, 0, 1, true,
                  "add motion score from scale1"}, &P::add_scale1)
            .add({"motion_filter_size", "mfs", T::integer, 5, 0, 9, true, "filtering size"},
                 &P::filter_size)
            .add({"motion_add_uv", "mau", T::boolean, 0, 0, 1, true, "include U and V terms"},
                 &P::add_uv)
            .add_shared(twin, "motion_max_val", &P::max_val);
        return t;
    }();
    return table;
}

// libvmaf's motion_blend: score * f + (1 - f) * min(offset, score), double.
double motion_blend(double score, double factor, double offset) {
    return score * factor + (1 - factor) * c_min(offset, score);
}

// One plane's state: its float picture, a ring of the last three blurred
// pictures, and the half-size scratch of motion_add_scale1.
struct PlaneState {
    int w = 0, h = 0;
    FloatImage current;
    std::array<FloatImage, 3> blurred;
    FloatImage half_a, half_b;
};

class FloatMotion final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const FrameGeometry& g = s.geometry;
        const bool uv = motion_table().read(s.options).add_uv;
        if (uv && g.format == PixelFormat::yuv400)
            throw Error("float_motion: motion_add_uv needs chroma planes (got 4:0:0)");
        // The 5-tap blur reflects two samples into the picture: every plane it
        // runs on needs at least 3x3 samples.
        const ChromaShift cs = chroma_shift(g.format);
        const int min_w = uv ? g.width >> cs.x : g.width;
        const int min_h = uv ? g.height >> cs.y : g.height;
        if (min_w < 3 || min_h < 3)
            throw Error("float_motion needs planes of at least 3x3 samples (got " +
                        std::to_string(min_w) + "x" + std::to_string(min_h) + ")");
    }

    explicit FloatMotion(const ExtractorSetup& s)
        : p_(motion_table().read(s.options)), bpc_(s.geometry.bpc), keys_(s.keys),
          k_(&float_motion::float_motion_kernels_for(s.compute.simd)),
          vif_k_(&float_vif::float_vif_kernels_for(s.compute.simd)) {
        const FrameGeometry& g = s.geometry;
        if (p_.filter_size == 1) {
            filter_ = kFilter5NoOp;
            fw_ = 5;
        } else if (p_.filter_size == 3) {
            filter_ = kFilter3;
            fw_ = 3;
        } else {
            filter_ = kFilter5;
            fw_ = 5;
        }
        const ChromaShift cs = chroma_shift(g.format);
        const int n = p_.add_uv ? 3 : 1;
        int max_w = 0;
        for (int k = 0; k < n; ++k) {
            PlaneState& ps = planes_[k];
            ps.w = k == 0 ? g.width : g.width >> cs.x;
            ps.h = k == 0 ? g.height : g.height >> cs.y;
            ps.current = FloatImage(ps.w, ps.h);
            for (auto& b : ps.blurred) b = FloatImage(ps.w, ps.h);
            if (p_.add_scale1) {
                const int hw = static_cast<int>(ps.w * 0.5 + 0.5);
                const int hh = static_cast<int>(ps.h * 0.5 + 0.5);
                ps.half_a = FloatImage(hw, hh);
                ps.half_b = FloatImage(hw, hh);
            }
            max_w = ps.w > max_w ? ps.w : max_w;
        }
        plane_count_ = n;
        row_.assign(static_cast<std::size_t>(max_w + fw_), 0.0f);
    }

    void extract(const Picture& ref, const Picture& /*dis*/, unsigned frame,
                 FeatureSink& sink) override {
        seen_ = true;
        if (p_.force_zero) {
            sink.append(keys_[1], frame, 0.0);
            sink.append(keys_[2], frame, 0.0);
            if (p_.debug) sink.append(keys_[0], frame, 0.0);
            return;
        }
        index_ = frame;
        const unsigned cur = frame % 3;
        for (int k = 0; k < plane_count_; ++k) {
            PlaneState& ps = planes_[k];
            plane_to_float(ref.planes[k], bpc_, -128.0f, ps.current.data(), ps.current.stride());
            vif_k_->blur(filter_, fw_, ps.current.data(), ps.current.stride(),
                            ps.blurred[cur].data(), ps.blurred[cur].stride(), ps.w, ps.h,
                            row_.data());
        }
        if (frame == 0) {
            sink.append(keys_[1], frame, 0.0);
            if (p_.debug) sink.append(keys_[0], frame, 0.0);
            return;
        }
        const unsigned prev = (frame + 2) % 3;
        const unsigned prev2 = (frame + 1) % 3;
        const double score = sad_all_planes(prev, cur);
        if (p_.debug) sink.append(keys_[0], frame, c_min(score * p_.fps_weight, p_.max_val));
        score_ = score;
        if (frame == 1) {
            sink.append(keys_[2], 0, blended(score));
            return;
        }
        double score2 = sad_all_planes(prev, prev2);
        score2 = score2 < score ? score2 : score;
        sink.append(keys_[1], frame - 1, c_min(score2 * p_.fps_weight, p_.max_val));
        sink.append(keys_[2], frame - 1, blended(score2));
    }

    void flush(FeatureSink& sink) override {
        if (p_.force_zero || !seen_) return;
        if (index_ > 0) {
            sink.append(keys_[1], index_, c_min(score_ * p_.fps_weight, p_.max_val));
            sink.append(keys_[2], index_, blended(score_));
        } else {
            sink.append(keys_[2], 0, 0.0);
        }
    }

private:
    double blended(double score) const {
        return c_min(motion_blend(score * p_.fps_weight, p_.blend_factor, p_.blend_offset),
                     p_.max_val);
    }

    // Luma SAD, plus the chroma SADs with motion_add_uv (double adds, Y, U, V).
    double sad_all_planes(unsigned a, unsigned b) {
        double score = plane_sad(planes_[0], a, b);
        for (int k = 1; k < plane_count_; ++k) score += plane_sad(planes_[k], a, b);
        return score;
    }

    double plane_sad(PlaneState& ps, unsigned a, unsigned b) {
        const FloatImage& x = ps.blurred[a];
        const FloatImage& y = ps.blurred[b];
        float m = k_->mean_abs_diff(x.data(), x.stride(), y.data(), y.stride(), ps.w,
                                              ps.h);
        if (p_.add_scale1) {
            const int hw = ps.half_a.width(), hh = ps.half_a.height();
            float_vif::scale_bilinear(x.data(), x.stride(), ps.w, ps.h, ps.half_a.data(),
                                      ps.half_a.stride(), hw, hh);
            float_vif::scale_bilinear(y.data(), y.stride(), ps.w, ps.h, ps.half_b.data(),
                                      ps.half_b.stride(), hw, hh);
            m = m + k_->mean_abs_diff(ps.half_a.data(), ps.half_a.stride(),
                                                ps.half_b.data(), ps.half_b.stride(), hw, hh);
        }
        return m;
    }

    MotionParams p_;
    int bpc_;
    std::vector<std::string> keys_;
    const float_motion::FloatMotionKernels* k_;
    const float_vif::FloatVifKernels* vif_k_;
    const float* filter_ = kFilter5;
    int fw_ = 5;
    std::array<PlaneState, 3> planes_;
    int plane_count_ = 1;
    std::vector<float> row_;
    bool seen_ = false;
    unsigned index_ = 0;
    double score_ = 0.0;
};

}  // namespace

FeatureInfo float_motion_info() {
    FeatureInfo info = float_extractor_info<FloatMotion>("float_motion", motion_table().specs(),
                                                         kProvided, /*temporal=*/true);
    info.reads_chroma = [](const OptionValues& o) { return motion_table().read(o).add_uv; };
    info.runs_first = true;  // libvmaf flags float_motion TEMPORAL
    // motion2/motion3 of frame n are min(sad(n-1, n), sad(n, n+1)); the
    // special cases of frames 0 and 1 only reach a range that starts there.
    info.context = [](const OptionValues&) { return FrameContext{1, 1, false}; };
    return info;
}

}  // namespace vmafpp
