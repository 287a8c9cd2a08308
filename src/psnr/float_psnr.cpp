// libvmaf's "float_psnr" extractor: luma PSNR of the float pictures (scaled to
// the 8-bit range), capped per bit depth.
#include <memory>
#include <string>

#include "base/extractor_info.hpp"
#include "base/float_image.hpp"
#include "psnr/float_psnr_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

class FloatPsnr final : public FeatureExtractor {
public:
    explicit FloatPsnr(const ExtractorSetup& s)
        : key_(s.keys[0]), w_(s.geometry.width), h_(s.geometry.height), bpc_(s.geometry.bpc),
          k_(float_psnr::psnr_constants(bpc_)), ref_(w_, h_), dis_(w_, h_) {}

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        plane_to_float(ref.luma(), bpc_, 0.0f, ref_.data(), ref_.stride());
        plane_to_float(dis.luma(), bpc_, 0.0f, dis_.data(), dis_.stride());
        const double sum = float_psnr::squared_error_sum(ref_.data(), ref_.stride(), dis_.data(),
                                                         dis_.stride(), w_, h_);
        sink.append(key_, frame, float_psnr::psnr_from_sum(sum, w_, h_, k_.peak, k_.psnr_max));
    }

private:
    std::string key_;
    int w_, h_, bpc_;
    float_psnr::PsnrConstants k_;
    FloatImage ref_, dis_;
};

}  // namespace

FeatureInfo float_psnr_info() {
    return float_extractor_info<FloatPsnr>("float_psnr", {}, {{"float_psnr", ""}});
}

}  // namespace vmafpp
