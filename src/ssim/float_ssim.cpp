// libvmaf's "float_ssim" extractor: SSIM of the luma (scaled to the 8-bit
// range, no offset) with an 11-tap Gaussian window, after an optional box
// downscaling by an integer factor (0 = chosen from the resolution).
#include <memory>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "base/float_image.hpp"
#include "base/large_alloc.hpp"
#include "ssim/ssim_db.hpp"
#include "ssim/ssim_extractor.hpp"
#include "ssim/ssim_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

// IQA's _round: half away from zero, decided on the float's fraction.
int iqa_round(float a) {
    const int sign = a > 0.0f ? 1 : -1;
    const int t = static_cast<int>(a);
    return a - t >= 0.5 ? t + sign : t;
}

// The downscaling factor: the option, or max(1, round(min(w, h) / 256)).
int scale_factor(int option, int w, int h) {
    if (option > 0) return option;
    const int r = iqa_round(static_cast<float>(w < h ? w : h) / 256.0f);
    return r > 1 ? r : 1;
}

// libvmaf's options, each with the field it fills.
const OptionTable<ssim::SsimParams>& ssim_table() {
    static const OptionTable<ssim::SsimParams> table =
        ssim::lcs_db_table("write SSIM values as dB")
            .add({"scale", "", OptionType::integer, 0.0, 0.0, 10.0, false,
                  "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)"},
                 &ssim::SsimParams::scale);
    return table;
}

class FloatSsim final : public ssim::SsimExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const int w = s.geometry.width, h = s.geometry.height;
        const int f = scale_factor(ssim_table().read(s.options).scale, w, h);
        const int sw = f > 1 ? ssim::decimated_size(w, f) : w;
        const int sh = f > 1 ? ssim::decimated_size(h, f) : h;
        if (sw < ssim::kWindow || sh < ssim::kWindow)
            throw Error("float_ssim needs at least " + std::to_string(ssim::kWindow) + "x" +
                        std::to_string(ssim::kWindow) + " luma samples after its downscaling by " +
                        std::to_string(f) + " (got " + std::to_string(w) + "x" + std::to_string(h) +
                        ", scaled to " + std::to_string(sw) + "x" + std::to_string(sh) + ")");
    }

    explicit FloatSsim(const ExtractorSetup& s) : FloatSsim(s, ssim_table().read(s.options)) {}

    FloatSsim(const ExtractorSetup& s, const ssim::SsimParams& p)
        : SsimExtractor(s, p),
          w_(s.geometry.width),
          h_(s.geometry.height),
          factor_(scale_factor(p.scale, w_, h_)),
          scratch_(factor_ > 1 ? ssim::decimated_size(w_, factor_) : w_,
                   factor_ > 1 ? ssim::decimated_size(h_, factor_) : h_) {
        if (factor_ > 1) {
            box_.assign(static_cast<std::size_t>(factor_ * factor_),
                        1.0f / static_cast<float>(factor_ * factor_));
            // libvmaf decimates in place; where no output reads an earlier
            // one, decimating into a buffer of its own gives the same bits
            // and keeps the lumas whole for a later float_ms_ssim.
            if (ssim::reads_stay_ahead(w_, h_, factor_, factor_)) {
                const std::size_t n =
                    static_cast<std::size_t>(ssim::decimated_size(w_, factor_)) *
                    static_cast<std::size_t>(ssim::decimated_size(h_, factor_));
                small_ref_ = detail::make_large_array<float>(n);
                small_dis_ = detail::make_large_array<float>(n);
            }
        }
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        // The whole lumas stay readable until the next frame unless they
        // are decimated in place.
        const Frame lumas = convert(ref, dis, frame, decimates_apart());
        int w = w_, h = h_;
        const float *r_in = lumas.ref, *d_in = lumas.dis;
        if (factor_ > 1) {
            if (small_ref_) {
                k_.decimate(lumas.ref, w, h, factor_, box_.data(), factor_, small_ref_.get());
                k_.decimate(lumas.dis, w, h, factor_, box_.data(), factor_, small_dis_.get());
                r_in = small_ref_.get();
                d_in = small_dis_.get();
            } else {
                // In place, as libvmaf does (over its own lumas: meet()).
                k_.decimate(own_ref(), w, h, factor_, box_.data(), factor_, own_ref());
                k_.decimate(own_dis(), w, h, factor_, box_.data(), factor_, own_dis());
                r_in = own_ref();
                d_in = own_dis();
            }
            w = ssim::decimated_size(w, factor_);
            h = ssim::decimated_size(h, factor_);
        }
        const ssim::SsimResult r = ssim::ssim_pass(k_, r_in, d_in, w, h, scratch_);
        sink.append(keys_[0], frame, scored(r.ssim));
        if (enable_lcs_) {
            sink.append(keys_[1], frame, r.l);
            sink.append(keys_[2], frame, r.c);
            sink.append(keys_[3], frame, r.s);
        }
    }

    // A float_ms_ssim (or float_ssim) made earlier for this worker converts
    // the same lumas; read them unless they are to be decimated in place.
    void meet(FeatureExtractor& earlier) override {
        if (decimates_apart()) share_with(earlier);
    }

private:
    bool decimates_apart() const { return factor_ == 1 || small_ref_ != nullptr; }

    int w_, h_;
    int factor_;
    std::unique_ptr<float[], detail::LargeFree> small_ref_, small_dis_;  // decimated, if apart
    ssim::SsimScratch scratch_;
    std::vector<float> box_;  // factor x factor taps of 1 / factor^2
};

}  // namespace

FeatureInfo float_ssim_info() {
    // libvmaf lists one provided name; the l, c and s means follow it with
    // enable_lcs.
    return float_extractor_info<FloatSsim>(
        "float_ssim", ssim_table().specs(),
        {{"float_ssim", ""}, {"float_ssim_l", ""}, {"float_ssim_c", ""}, {"float_ssim_s", ""}});
}

}  // namespace vmafpp
