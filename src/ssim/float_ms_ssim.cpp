// libvmaf's "float_ms_ssim" extractor: Wang's multi-scale SSIM of the luma
// (scaled to the 8-bit range, no offset) over five scales, each the previous
// one low-passed (9/7 wavelet table) and decimated by 2.
#include <array>
#include <cmath>
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

constexpr int kScales = 5;
// The exponents of each scale's luminance, contrast and structure means
// (float, as libvmaf declares them; contrast and structure share theirs).
constexpr float kAlpha[kScales] = {0.0f, 0.0f, 0.0f, 0.0f, 0.1333f};
constexpr float kBetaGamma[kScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

// libvmaf's size check: every scale, halved by truncation, must hold the
// 11-tap window (both dimensions at least 11 * 2^4 = 176).
bool scales_fit(int w, int h) {
    for (int i = 0; i < kScales; ++i) {
        if (w < ssim::kWindow || h < ssim::kWindow) return false;
        w /= 2;
        h /= 2;
    }
    return true;
}

// libvmaf's options, each with the field it fills.
const OptionTable<ssim::SsimParams>& ms_ssim_table() {
    static const OptionTable<ssim::SsimParams> table =
        ssim::lcs_db_table("write MS-SSIM values as dB");
    return table;
}

class FloatMsSsim final : public ssim::SsimExtractor {
public:
    static void check(const ExtractorSetup& s) {
        if (!scales_fit(s.geometry.width, s.geometry.height))
            throw Error(
                "float_ms_ssim needs at least 176x176 luma samples (5 scales of an "
                "11x11 window; got " +
                std::to_string(s.geometry.width) + "x" + std::to_string(s.geometry.height) + ")");
    }

    explicit FloatMsSsim(const ExtractorSetup& s) : FloatMsSsim(s, ms_ssim_table().read(s.options)) {}

    FloatMsSsim(const ExtractorSetup& s, const ssim::SsimParams& p)
        : SsimExtractor(s, p), scratch_(s.geometry.width, s.geometry.height) {
        int w = s.geometry.width, h = s.geometry.height;
        for (int i = 0; i < kScales; ++i) {
            w_[i] = w;
            h_[i] = h;
            if (i > 0) {
                const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
                ref_[i] = detail::make_large_array<float>(n);
                dis_[i] = detail::make_large_array<float>(n);
            }
            w = ssim::decimated_size(w, 2);
            h = ssim::decimated_size(h, 2);
        }
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const float* ref_at[kScales];
        const float* dis_at[kScales];
        const Frame lumas = convert(ref, dis, frame, true);  // scale 0 is only read
        ref_at[0] = lumas.ref;
        dis_at[0] = lumas.dis;
        for (int i = 1; i < kScales; ++i) {
            k_.decimate(ref_at[i - 1], w_[i - 1], h_[i - 1], 2, ssim::kLowPass.data(),
                        ssim::kLowPassTaps, ref_[i].get());
            k_.decimate(dis_at[i - 1], w_[i - 1], h_[i - 1], 2, ssim::kLowPass.data(),
                        ssim::kLowPassTaps, dis_[i].get());
            ref_at[i] = ref_[i].get();
            dis_at[i] = dis_[i].get();
        }
        double msssim = 1.0;
        std::array<ssim::SsimResult, kScales> r;
        for (int i = 0; i < kScales; ++i) {
            r[i] = ssim::ssim_pass(k_, ref_at[i], dis_at[i], w_[i], h_[i], scratch_);
            // C's pow of floats: the double one.
            const double weighted =
                std::pow(static_cast<double>(r[i].l), static_cast<double>(kAlpha[i])) *
                std::pow(static_cast<double>(r[i].c), static_cast<double>(kBetaGamma[i])) *
                std::pow(static_cast<double>(r[i].s), static_cast<double>(kBetaGamma[i]));
            msssim *= weighted;
        }
        sink.append(keys_[0], frame, scored(msssim));
        if (!enable_lcs_) return;
        for (int i = 0; i < kScales; ++i) sink.append(keys_[1 + i], frame, r[i].l);
        for (int i = 0; i < kScales; ++i) sink.append(keys_[1 + kScales + i], frame, r[i].c);
        for (int i = 0; i < kScales; ++i) sink.append(keys_[1 + 2 * kScales + i], frame, r[i].s);
    }

    // A float_ssim made earlier for this worker converts the same lumas (and
    // keeps them whole when it decimates apart).
    void meet(FeatureExtractor& earlier) override { share_with(earlier); }

private:
    ssim::SsimScratch scratch_;  // sized for scale 0, reused by every scale
    int w_[kScales], h_[kScales];
    // Compact scales 1 .. kScales - 1 (scale 0 is FloatLumas').
    std::unique_ptr<float[], detail::LargeFree> ref_[kScales], dis_[kScales];
};

}  // namespace

FeatureInfo float_ms_ssim_info() {
    // libvmaf lists one provided name; with enable_lcs the l, c and s means
    // of every scale follow it, all l first, then all c, then all s.
    std::vector<ProvidedFeature> provided = {{"float_ms_ssim", ""}};
    for (const char* part : {"l", "c", "s"})
        for (int i = 0; i < kScales; ++i)
            provided.push_back(
                {"float_ms_ssim_" + std::string(part) + "_scale" + std::to_string(i), ""});
    return float_extractor_info<FloatMsSsim>(
        "float_ms_ssim", ms_ssim_table().specs(), std::move(provided));
}

}  // namespace vmafpp
