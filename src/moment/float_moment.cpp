// libvmaf's "float_moment" extractor: first and second moments of the
// reference and distorted luma (scaled to the 8-bit range, no offset).
#include <memory>
#include <string>

#include "base/extractor_info.hpp"
#include "base/float_image.hpp"
#include "moment/float_moment_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

class FloatMoment final : public FeatureExtractor {
public:
    explicit FloatMoment(const ExtractorSetup& s)
        : keys_(s.keys), w_(s.geometry.width), h_(s.geometry.height), bpc_(s.geometry.bpc),
          ref_(w_, h_), dis_(w_, h_) {}

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        plane_to_float(ref.luma(), bpc_, 0.0f, ref_.data(), ref_.stride());
        plane_to_float(dis.luma(), bpc_, 0.0f, dis_.data(), dis_.stride());
        using namespace float_moment;
        sink.append(keys_[1], frame, first_moment(ref_.data(), ref_.stride(), w_, h_));
        sink.append(keys_[2], frame, first_moment(dis_.data(), dis_.stride(), w_, h_));
        sink.append(keys_[3], frame, second_moment(ref_.data(), ref_.stride(), w_, h_));
        sink.append(keys_[4], frame, second_moment(dis_.data(), dis_.stride(), w_, h_));
    }

private:
    std::vector<std::string> keys_;  // in float_moment_info()'s provided order
    int w_, h_, bpc_;
    FloatImage ref_, dis_;
};

}  // namespace

FeatureInfo float_moment_info() {
    // libvmaf lists one provided name; the four values below are what it writes.
    return float_extractor_info<FloatMoment>("float_moment", {},
                                             {{"float_moment", ""},
                                              {"float_moment_ref1st", ""},
                                              {"float_moment_dis1st", ""},
                                              {"float_moment_ref2nd", ""},
                                              {"float_moment_dis2nd", ""}});
}

}  // namespace vmafpp
