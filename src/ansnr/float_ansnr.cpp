// libvmaf's "float_ansnr" extractor: SNR between the smoothed reference and
// the CSF-filtered distorted luma (float_ansnr), and the PSNR of that noise
// (float_anpsnr).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "ansnr/float_ansnr_kernels.hpp"
#include "base/c_macros.hpp"
#include "base/extractor_info.hpp"
#include "base/float_image.hpp"
#include "psnr/float_psnr_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

class FloatAnsnr final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const FrameGeometry& g = s.geometry;
        require_float_conversion("float_ansnr", g.bpc);
        // The 5x5 filter reflects two samples into the picture.
        if (g.width < 3 || g.height < 3)
            throw Error("float_ansnr needs a frame of at least 3x3 (got " +
                        std::to_string(g.width) + "x" + std::to_string(g.height) + ")");
    }

    explicit FloatAnsnr(const ExtractorSetup& s)
        : keys_(s.keys), w_(s.geometry.width), h_(s.geometry.height), bpc_(s.geometry.bpc),
          k_(float_psnr::psnr_constants(bpc_)), ref_(w_, h_), dis_(w_, h_), ref_f_(w_, h_),
          dis_f_(w_, h_),
          scratch_(static_cast<std::size_t>(float_ansnr::filter2d_scratch_size(5, w_))) {}

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        plane_to_float(ref.luma(), bpc_, -128.0f, ref_.data(), ref_.stride());
        plane_to_float(dis.luma(), bpc_, -128.0f, dis_.data(), dis_.stride());
        float_ansnr::filter2d(float_ansnr::kRefFilter, 3, ref_.data(), ref_.stride(),
                              ref_f_.data(), ref_f_.stride(), w_, h_,
                              scratch_.data());
        float_ansnr::filter2d(float_ansnr::kDisFilter, 5, dis_.data(), dis_.stride(),
                              dis_f_.data(), dis_f_.stride(), w_, h_,
                              scratch_.data());
        const auto sn = float_ansnr::signal_noise(ref_f_.data(), ref_f_.stride(), dis_f_.data(),
                                                  dis_f_.stride(), w_, h_);
        // libvmaf's C: a float quotient of the float sums, whose log10 is the
        // double one (C promotes the argument; C++'s std::log10(float) would
        // be log10f, which differs in the last float bits).
        const float ratio = sn.signal / sn.noise;
        const double ansnr =
            sn.noise == 0 ? k_.psnr_max : 10.0 * std::log10(static_cast<double>(ratio));
        const double noise = sn.noise;
        const double anpsnr =
            c_min(10 * std::log10(k_.peak * k_.peak * w_ * h_ / c_max(noise, 1e-10)), k_.psnr_max);
        sink.append(keys_[0], frame, ansnr);
        sink.append(keys_[1], frame, anpsnr);
    }

private:
    std::vector<std::string> keys_;  // float_ansnr, float_anpsnr
    int w_, h_, bpc_;
    float_psnr::PsnrConstants k_;
    FloatImage ref_, dis_, ref_f_, dis_f_;
    std::vector<float> scratch_;
};

}  // namespace

FeatureInfo float_ansnr_info() {
    return extractor_info<FloatAnsnr>("float_ansnr", {}, {{"float_ansnr", ""}, {"float_anpsnr", ""}});
}

}  // namespace vmafpp
