// libvmaf's "speed_chroma" (SpEED of the U and V planes) and
// "speed_temporal" (SpEED of the luma frame differences) extractors.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "base/float_image.hpp"
#include "vif/float_vif_kernels.hpp"
#include "speed/speed_gsm.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_twin.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

using namespace speed;  // the kernels (src/speed/speed_kernels.hpp)

using speed::Gsm;

// What a speed_chroma or speed_temporal instance reads from its options.
struct SpeedParams {
    speed::Params gsm;  // weight_var_mode stays 0 in speed_temporal, as libvmaf's
    double max_val;
    bool use_ref_diff;  // speed_temporal's
};

// The options both extractors declare (libvmaf's order), each with the field
// it fills; speed_chroma adds speed_weight_var_mode, speed_temporal
// speed_use_ref_diff.
OptionTable<SpeedParams> common_table() {
    using T = OptionType;
    OptionSpec method{"speed_prescale_method", "psm", T::choice, 0, 0, 0, true,
                      "scaling method for the frame, supported options: [nearest, bilinear, "
                      "bicubic, lanczos4]"};
    method.choices = {"nearest", "bilinear", "bicubic", "lanczos4"};
    OptionTable<SpeedParams> t;
    t.add({"speed_kernelscale", "ks", T::number, 1.0, 0.1, 4.0, true,
           "scaling factor for the gaussian kernel (2.0 means multiplying the standard "
           "deviation by 2 and enlarge the kernel size accordingly"},
          [](SpeedParams& p) -> auto& { return p.gsm.kernelscale; })
        .add({"speed_prescale", "ps", T::number, 1.0, 0.1, 4.0, true,
              "scaling factor for the frame (2.0 means making the image twice as large on each "
              "dimension)"},
             [](SpeedParams& p) -> auto& { return p.gsm.prescale; })
        .add(method, [](SpeedParams& p) -> auto& { return p.gsm.method; })
        .add({"speed_sigma_nn", "snn", T::number, 0.29, 0.1, 2.0, true,
              "standard deviation of neural noise"},
             [](SpeedParams& p) -> auto& { return p.gsm.sigma_nn; })
        .add({"speed_nn_floor", "nnf", T::number, 0.0, 0.0, 1.0, true,
              "neural noise floor, expressed in percentage of sigma_nn"},
             [](SpeedParams& p) -> auto& { return p.gsm.nn_floor; })
        .add({"speed_max_val", "mxv", T::number, 1000.0, 0.0, 1000.0, true,
              "maximum value allowed; larger values will be clipped to this value"},
             &SpeedParams::max_val);
    return t;
}

const OptionTable<SpeedParams>& chroma_table() {
    static const OptionTable<SpeedParams> table = common_table().add(
        {"speed_weight_var_mode", "wvm", OptionType::integer, 0, 0, 6, true,
         "different approaches to perform variance-absed weighting"},
        [](SpeedParams& p) -> auto& { return p.gsm.weight_var_mode; });
    return table;
}

const OptionTable<SpeedParams>& temporal_table() {
    static const OptionTable<SpeedParams> table = common_table().add(
        {"speed_use_ref_diff", "urd", OptionType::boolean, 0, 0, 1, true,
         "debug mode: enable additional output"},
        &SpeedParams::use_ref_diff);
    return table;
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// What both extractors refuse: a depth libvmaf's float copy does not
// define, a kernel scale it rejects, and a plane whose decimated picture
// holds no 5x5 block (libvmaf logs "image too small" and then crashes).
void check_plane(const char* name, const speed::Params& o, int bpc, int w, int h,
                 const char* plane) {
    require_float_conversion(name, bpc);
    const double ks = o.kernelscale;
    if (!float_vif::valid_kernelscale(o.kernelscale))
        throw Error(std::string(name) + ": speed_kernelscale " + std::to_string(ks) +
                    " is not one of libvmaf's kernel scales");
    const double ps = o.prescale;
    const speed::Dimensions d = speed::dimensions(w, h, ps);
    if (speed::prescale_is_identity(ps) && (d.scaled_w != w || d.scaled_h != h))
        throw Error(std::string(name) + ": speed_prescale " + std::to_string(ps) +
                    " is within 1e-3 of 1, which libvmaf does not scale, yet it changes " +
                    size_text(w, h) + " to " + size_text(d.scaled_w, d.scaled_h));
    constexpr int kMin = speed::kBlock << speed::kScales;  // 80
    if (d.trunc_w == 0 || d.trunc_h == 0)
        throw Error(std::string(name) + " needs a " + plane + " of at least " +
                    size_text(kMin, kMin) +
                    " samples after speed_prescale (the minimum for one 5x5 block after "
                    "decimation by 16); got " +
                    size_text(w, h) +
                    (speed::prescale_is_identity(ps) ? "" : ", scaled to " +
                                                               size_text(d.scaled_w, d.scaled_h)));
}

class SpeedChroma final : public FeatureExtractor {
public:
    static int plane_w(const FrameGeometry& g) { return g.width >> chroma_shift(g.format).x; }
    static int plane_h(const FrameGeometry& g) { return g.height >> chroma_shift(g.format).y; }

    static void check(const ExtractorSetup& s) {
        if (s.geometry.format == PixelFormat::yuv400)
            throw Error("speed_chroma needs chroma planes; 4:0:0 has none");
        check_plane("speed_chroma", chroma_table().read(s.options).gsm, s.geometry.bpc, plane_w(s.geometry),
                    plane_h(s.geometry), "chroma plane");
    }

    explicit SpeedChroma(const ExtractorSetup& s) : SpeedChroma(s, chroma_table().read(s.options)) {}

    SpeedChroma(const ExtractorSetup& s, const SpeedParams& p)
        : keys_(s.keys), bpc_(s.geometry.bpc), max_val_(p.max_val),
          gsm_(speed::dimensions(plane_w(s.geometry), plane_h(s.geometry), p.gsm.prescale), p.gsm,
               speed_kernels_for(s.compute.simd)),
          twin_(speed::make_speed_twin(s.compute, gsm_, "speed_chroma")) {
        gsm_.prepare_with(twin_.get());
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        float score[2];
        bool singular[2];
        for (int c = 0; c < 2; ++c) singular[c] = channel(ref.planes[c + 1], dis.planes[c + 1], score[c]);
        // A flat plane has a singular covariance; libvmaf then takes the
        // other plane's score for the combination.
        float uv;
        if (singular[0] && !singular[1])
            uv = score[1];
        else if (singular[1] && !singular[0])
            uv = score[0];
        else
            uv = static_cast<float>((score[0] + score[1]) / 2.0);
        sink.append(keys_[0], frame, clip(score[0]));
        sink.append(keys_[1], frame, clip(score[1]));
        sink.append(keys_[2], frame, clip(uv));
    }

private:
    // libvmaf's MIN(float score, double max): the double of the smaller.
    double clip(float v) const { return v < max_val_ ? static_cast<double>(v) : max_val_; }

    Gsm::Samples samples(const Plane& p) const { return {p.data(), p.stride(), nullptr, 0, bpc_}; }

    // speed_extract_score of one plane pair; true when either was singular.
    bool channel(const Plane& r, const Plane& d, float& score) {
        gsm_.analyse(samples(r), ref_);
        gsm_.analyse(samples(d), dis_);
        score = ref_.singular != dis_.singular ? 0.0f : gsm_.score(ref_, dis_);
        return ref_.singular || dis_.singular;
    }

    std::vector<std::string> keys_;  // speed_chroma_u, _v, _uv
    int bpc_;
    double max_val_;
    Gsm gsm_;
    std::unique_ptr<speed::SpeedTwin> twin_;  // prepares gsm_'s pictures on the device
    speed::BlockStats ref_, dis_;
};

class SpeedTemporal final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        check_plane("speed_temporal", temporal_table().read(s.options).gsm, s.geometry.bpc, s.geometry.width,
                    s.geometry.height, "luma plane");
    }

    explicit SpeedTemporal(const ExtractorSetup& s)
        : SpeedTemporal(s, temporal_table().read(s.options)) {}

    SpeedTemporal(const ExtractorSetup& s, const SpeedParams& p)
        : key_(s.keys[0]), bpc_(s.geometry.bpc), ref_diff_(p.use_ref_diff),
          gsm_(speed::dimensions(s.geometry.width, s.geometry.height, p.gsm.prescale), p.gsm,
               speed_kernels_for(s.compute.simd)),
          twin_(speed::make_speed_twin(s.compute, gsm_, "speed_temporal")) {
        gsm_.prepare_with(twin_.get());
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const Plane& cur_ref = ref.planes[0];
        const Plane& cur_dis = dis.planes[0];
        if (started_) {
            // previous - current (the distorted difference takes the
            // reference's current frame with speed_use_ref_diff).
            const Plane& dis_now = ref_diff_ ? cur_ref : cur_dis;
            gsm_.analyse({prev_ref_.data(), prev_ref_.stride(), cur_ref.data(), cur_ref.stride(), bpc_},
                         ref_);
            gsm_.analyse({prev_dis_.data(), prev_dis_.stride(), dis_now.data(), dis_now.stride(), bpc_},
                         dis_);
            const float score = ref_.singular != dis_.singular ? 0.0f : gsm_.score(ref_, dis_);
            sink.append(key_, frame, score);
        } else {
            sink.append(key_, frame, 0.0);
            started_ = true;
        }
        keep(prev_ref_, cur_ref);
        keep(prev_dis_, cur_dis);
    }

private:
    // Copies the plane into `dst`, reusing its storage (Plane's assignment
    // allocates afresh, and fresh pages cost more than the copy).
    static void keep(Plane& dst, const Plane& src) {
        if (dst.width() != src.width() || dst.height() != src.height() ||
            dst.bytes_per_sample() != src.bytes_per_sample())
            dst = Plane(src.width(), src.height(), src.bytes_per_sample());
        const std::size_t row = static_cast<std::size_t>(src.width()) * src.bytes_per_sample();
        for (int y = 0; y < src.height(); ++y)
            std::memcpy(dst.row<std::uint8_t>(y), src.row<std::uint8_t>(y), row);
    }

    std::string key_;
    int bpc_;
    bool ref_diff_;
    Gsm gsm_;
    std::unique_ptr<speed::SpeedTwin> twin_;
    Plane prev_ref_, prev_dis_;  // the previous frame's luma
    speed::BlockStats ref_, dis_;
    bool started_ = false;
};

}  // namespace

FeatureInfo speed_chroma_info() {
    FeatureInfo info = extractor_info<SpeedChroma>(
        "speed_chroma", chroma_table().specs(),
        {{"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
         {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
         {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"}});
    info.reads_chroma = [](const OptionValues&) { return true; };
    info.device_twins = {std::string(speed::SpeedTwin::kind)};
    return info;
}

FeatureInfo speed_temporal_info() {
    FeatureInfo info = extractor_info<SpeedTemporal>(
        "speed_temporal", temporal_table().specs(),
        {{"Speed_temporal_feature_speed_temporal_score", "speed_temporal"}}, /*temporal=*/true);
    info.runs_first = true;  // libvmaf flags speed_temporal TEMPORAL
    // The difference of the previous frame and this one; frame 0 scores 0.
    info.context = [](const OptionValues&) { return FrameContext{1, 0, false}; };
    info.device_twins = {std::string(speed::SpeedTwin::kind)};
    return info;
}

}  // namespace vmafpp
