// libvmaf's "float_adm" extractor: additive distortion measure on float luma.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "adm/adm_pooling.hpp"
#include "base/c_macros.hpp"
#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "base/float_image.hpp"
#include "adm/adm_options.hpp"
#include "csf/csf.hpp"
#include "adm/float_adm_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

using float_adm::Bands;
using float_adm::Region;

constexpr double kBorderFactor = 0.1;

// Each of the four levels needs bands of at least 2x2 (the 3x3 masking filter
// reflects row -1 onto row 1): ceil(n / 16) >= 2.
constexpr int kMinSize = 17;

// In libvmaf's write order; the debug values follow the scale scores.
std::vector<ProvidedFeature> adm_provided() {
    std::vector<ProvidedFeature> p = {
        {"VMAF_feature_adm2_score", "adm2"},
        {"VMAF_feature_aim_score", "aim"},
        {"VMAF_feature_adm3_score", "adm3"},
    };
    append_scale_features(p, 4, "VMAF_feature_adm_scale", "_score", "adm_scale");
    p.insert(p.end(), {{"adm_num", ""}, {"adm_den", ""}, {"adm_scale0", ""}});
    append_num_den_scales(p, 4, "adm");
    return p;
}

// What a float_adm instance reads from its options (adm_table()).
struct AdmParams {
    bool debug;
    double enhn_gain_limit;
    double norm_view_dist;
    double noise_weight;
    double csf_scale;
    double csf_diag_scale;
    int ref_display_height;
    int csf_mode;
    bool bypass_cm;
    bool adm3_apply_hm;
    double p_norm;
    double dlm_weight;
    double min_val;
    std::array<double, 4> f1;  // a fixed factor per scale, -1 = the CSF's
    std::array<double, 4> f2;
    int skip_aim_scale;
    bool skip_scale0;
};

// libvmaf's options, in its order, each with the field it fills; what
// libvmaf declares identically for integer ADM comes from that table.
const OptionTable<AdmParams>& adm_table() {
    using T = OptionType;
    using P = AdmParams;
    static const OptionTable<AdmParams> table = [] {
        const std::vector<OptionSpec> twin = adm::integer_adm_options();
        OptionTable<AdmParams> t;
        t.add_shared(twin, "debug", &P::debug)
            .add_shared(twin, "adm_enhn_gain_limit", &P::enhn_gain_limit)
            .add_shared(twin, "adm_norm_view_dist", &P::norm_view_dist)
            .add_shared(twin, "adm_noise_weight", &P::noise_weight)
            .add({"adm_csf_scale", "scf", T::number, 1.0, 0.0, 50.0, true,
                  "scale factor for the CSF"}, &P::csf_scale)
            .add({"adm_csf_diag_scale", "scfd", T::number, 1.0, 0.0, 50.0, true,
                  "scale factor for the CSF diag"}, &P::csf_diag_scale)
            .add({"adm_ref_display_height", "rdf", T::integer, 1080, 1, 4320, true,
                  "reference display height in pixels"}, &P::ref_display_height)
            .add({"adm_csf_mode", "csf", T::integer, 0, 0, 9, true,
                  "contrast sensitivity function"}, &P::csf_mode)
            .add({"adm_bypass_cm", "bcm", T::integer, 0, 0, 1, true,
                  "bypass contrast masking (CM)"}, &P::bypass_cm)
            .add({"adm_adm3_apply_hm", "aah", T::boolean, 0, 0, 1, true,
                  "apply harmonic mean to combine DLM and AIM"}, &P::adm3_apply_hm)
            .add({"adm_p_norm", "apn", T::number, 3.0, 1.0, 20.0, true,
                  "p-norm for energy vector"}, &P::p_norm)
            .add_shared(twin, "adm_dlm_weight", &P::dlm_weight)
            .add_shared(twin, "adm_min_val", &P::min_val);
        // adm_f1s0..3, then adm_f2s0..3.
        for (int f = 1; f <= 2; ++f)
            for (int s = 0; s < 4; ++s) {
                const std::string fs = "f" + std::to_string(f) + "s" + std::to_string(s);
                t.add({"adm_" + fs, fs, T::number, -1.0, -1.0, 10.0, true,
                       "factor" + std::to_string(f) + " scale" + std::to_string(s)},
                      [f, s](P& p) -> double& { return (f == 1 ? p.f1 : p.f2)[s]; });
            }
        t.add({"adm_skip_aim_scale", "sasc", T::integer, -1, 0, 3, true,
               "when set, skip AIM calculations for that scale"}, &P::skip_aim_scale)
            .add_shared(twin, "adm_skip_scale0", &P::skip_scale0);
        return t;
    }();
    return table;
}

// ---- Contrast sensitivity: one weight for the h/v bands, one for d --------

// ADM's own CSF (adm_csf_mode 2, float ADM only); Watson and Barten are the
// models integer ADM uses too (src/csf).
float adm_native_csf(int lambda, double norm_view_dist, int ref_display_height, int theta) {
    const float r = csf::pixels_per_degree(norm_view_dist, ref_display_height);
    float sf = static_cast<float>(r / std::pow(2.0, lambda + 1));
    if (theta == 45) sf = static_cast<float>(sf / 0.7);  // oblique effect
    return static_cast<float>((0.31 + 0.69 * sf) * std::exp(-0.29 * sf));
}

struct CsfFactors {
    float hv = 0.0f;
    float diag = 0.0f;
};

CsfFactors csf_factors(const AdmParams& p, int scale) {
    CsfFactors f;
    if (p.csf_mode == 1) {  // Barten
        f.hv = csf::barten_csf(scale, p.norm_view_dist, p.ref_display_height,
                               csf::kBartenLuminance, p.csf_scale, csf::AnchorLog::float_log10);
        f.diag = csf::barten_csf(scale, p.norm_view_dist, p.ref_display_height,
                                 csf::kBartenLuminance, p.csf_diag_scale,
                                 csf::AnchorLog::float_log10);
    } else if (p.csf_mode == 2) {  // ADM's own
        f.hv = adm_native_csf(scale, p.norm_view_dist, p.ref_display_height, 0);
        f.diag = adm_native_csf(scale, p.norm_view_dist, p.ref_display_height, 45);
    } else {  // Watson (0 and every other value)
        f.hv = 1.0f / csf::watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height);
        f.diag = 1.0f / csf::watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height);
    }
    if (p.f1[scale] >= 0) f.hv = static_cast<float>(p.f1[scale]);
    if (p.f2[scale] >= 0) f.diag = static_cast<float>(p.f2[scale]);
    return f;
}

// ---- The extractor --------------------------------------------------------

class FloatAdm final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const FrameGeometry& g = s.geometry;
        if (g.width < kMinSize || g.height < kMinSize)
            throw Error("float_adm needs a frame of at least " + std::to_string(kMinSize) + "x" +
                        std::to_string(kMinSize) + " (got " + std::to_string(g.width) + "x" +
                        std::to_string(g.height) + ")");
        require_float_conversion("float_adm", g.bpc);
    }

    explicit FloatAdm(const ExtractorSetup& s)
        : p_(adm_table().read(s.options)), w_(s.geometry.width), h_(s.geometry.height),
          bpc_(s.geometry.bpc), ref_(w_, h_), dis_(w_, h_), keys_(s.keys),
          k_(&float_adm::float_adm_kernels_for(s.compute.simd)) {
        const int bw = (w_ + 1) / 2;
        const int bh = (h_ + 1) / 2;
        band_stride_ = (bw + 15) / 16 * 16;
        const std::size_t one = static_cast<std::size_t>(band_stride_) * bh;
        // ref a/h/v/d, dis a/h/v/d, r h/v/d, a h/v/d, csf_a h/v/d, csf_f h/v/d.
        storage_.assign(one * 20, 0.0f);
        float* top = storage_.data();
        const auto take = [&] {
            float* b = top;
            top += one;
            return b;
        };
        for (Bands* b : {&ref_b_, &dis_b_}) {
            b->a = take();
            b->h = take();
            b->v = take();
            b->d = take();
        }
        for (Bands* b : {&r_b_, &a_b_, &csf_a_, &csf_f_}) {
            b->h = take();
            b->v = take();
            b->d = take();
        }
        tmp_lo_.assign(static_cast<std::size_t>(w_), 0.0f);
        tmp_hi_.assign(static_cast<std::size_t>(w_), 0.0f);
        for (auto& v : row_taps_) v.assign(static_cast<std::size_t>(bh), 0);
        for (auto& v : col_taps_) v.assign(static_cast<std::size_t>(bw), 0);
        for (int s = 0; s < 4; ++s) factors_[s] = csf_factors(p_, s);
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        plane_to_float(ref.luma(), bpc_, -128.0f, ref_.data(), ref_.stride());
        plane_to_float(dis.luma(), bpc_, -128.0f, dis_.data(), dis_.stride());
        const Scores s = compute();
        const double adm3 =
            p_.adm3_apply_hm
                ? c_max(2 * s.score * s.aim / (s.score + s.aim), p_.min_val)
                : c_max(s.score * p_.dlm_weight + (1 - s.aim) * (1 - p_.dlm_weight),
                        p_.min_val);
        sink.append(keys_[0], frame, s.score);
        sink.append(keys_[1], frame, s.aim);
        sink.append(keys_[2], frame, adm3);
        for (int k = 0; k < 4; ++k)
            sink.append(keys_[3 + k], frame, s.scale[2 * k] / s.scale[2 * k + 1]);
        if (!p_.debug) return;
        sink.append("adm", frame, s.score);
        sink.append(keys_[7], frame, s.num);
        sink.append(keys_[8], frame, s.den);
        for (int k = 0; k < 8; ++k) sink.append(keys_[10 + k], frame, s.scale[k]);
    }

private:
    struct Scores {
        double score = 1.0;
        double aim = 0.0;
        double num = 0.0;
        double den = 0.0;
        double scale[8] = {};
    };

    const int* const* taps(std::array<std::vector<int>, 4>& t, std::array<const int*, 4>& out) {
        for (int k = 0; k < 4; ++k) out[k] = t[k].data();
        return out.data();
    }

    Scores compute() {
        Scores out;
        int w = w_, h = h_;
        // Scale 0 reads the converted pictures, later scales the previous
        // level's approximation band (in place, see dwt2()).
        const float* cur_ref = ref_.data();
        const float* cur_dis = dis_.data();
        std::ptrdiff_t cur_stride = ref_.stride();
        double num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
        std::array<const int*, 4> rt{}, ct{};
        for (int scale = 0; scale < 4; ++scale) {
            float_adm::dwt_tap_indices(h, row_taps_[0].data(), row_taps_[1].data(),
                                       row_taps_[2].data(), row_taps_[3].data());
            float_adm::dwt_tap_indices(w, col_taps_[0].data(), col_taps_[1].data(),
                                       col_taps_[2].data(), col_taps_[3].data());
            const int* const* rows = taps(row_taps_, rt);
            const int* const* cols = taps(col_taps_, ct);
            const bool skip = scale == 0 && p_.skip_scale0;
            k_->dwt2(cur_ref, cur_stride, w, h, rows, cols, ref_b_, band_stride_, tmp_lo_.data(),
                     tmp_hi_.data(), skip);
            k_->dwt2(cur_dis, cur_stride, w, h, rows, cols, dis_b_, band_stride_, tmp_lo_.data(),
                     tmp_hi_.data(), skip);
            w = (w + 1) / 2;
            h = (h + 1) / 2;
            float num_scale = 0.0f, den_scale = 0.0f, aim_num_scale = 0.0f;
            if (skip) {
                den_scale = 1e-10f;  // libvmaf's guard against 0 / 0
            } else {
                score_scale(scale, w, h, num_scale, den_scale, aim_num_scale);
            }
            // Scale sums are float, the totals double, added in scale order.
            num += num_scale;
            den += den_scale;
            if (p_.skip_aim_scale != scale) {
                aim_den += den_scale;
                aim_num += aim_num_scale;
            }
            out.scale[2 * scale] = num_scale;
            out.scale[2 * scale + 1] = den_scale;
            cur_ref = ref_b_.a;
            cur_dis = dis_b_.a;
            cur_stride = band_stride_;
        }
        zero_tiny_num_den(num, den, w_, h_);
        if (den == 0.0) {
            // libvmaf leaves AIM unset here (an uninitialised read); vmafpp
            // reports 0, i.e. no additive impairment.
            out.score = 1.0;
            out.aim = 0.0;
        } else {
            out.aim = c_min(aim_num / aim_den, 1.0);
            out.score = num / den;
        }
        out.num = num;
        out.den = den;
        return out;
    }

    void score_scale(int scale, int w, int h, float& num_scale, float& den_scale,
                     float& aim_num_scale) {
        const Region outer = float_adm::filtered_region(w, h, kBorderFactor);
        const Region inner = float_adm::scored_region(w, h, kBorderFactor);
        const CsfFactors f = factors_[scale];
        k_->decouple(ref_b_, dis_b_, r_b_, a_b_, band_stride_, outer, p_.enhn_gain_limit);
        den_scale =
            k_->den_scale(ref_b_, band_stride_, inner, f.hv, f.diag, p_.noise_weight, p_.p_norm);
        // Detail loss: the restored bands masked by the additive impairment.
        k_->csf(a_b_, csf_a_, csf_f_, band_stride_, outer, f.hv, f.diag);
        num_scale = k_->contrast_masked_sum(r_b_, csf_a_, csf_f_, band_stride_, w, h, inner, f.hv,
                                            f.diag, p_.noise_weight, p_.bypass_cm, p_.p_norm);
        // Additive impairment masked by the restored bands, without noise floor.
        k_->csf(r_b_, csf_a_, csf_f_, band_stride_, outer, f.hv, f.diag);
        aim_num_scale = k_->contrast_masked_sum(a_b_, csf_a_, csf_f_, band_stride_, w, h, inner,
                                                f.hv, f.diag, 0.0, p_.bypass_cm, p_.p_norm);
    }

    AdmParams p_;
    int w_, h_, bpc_;
    FloatImage ref_, dis_;
    std::vector<std::string> keys_;
    const float_adm::FloatAdmKernels* k_;
    std::ptrdiff_t band_stride_ = 0;
    std::vector<float> storage_;
    Bands ref_b_, dis_b_, r_b_, a_b_, csf_a_, csf_f_;
    std::vector<float> tmp_lo_, tmp_hi_;
    std::array<std::vector<int>, 4> row_taps_, col_taps_;
    std::array<CsfFactors, 4> factors_{};
};

}  // namespace

FeatureInfo float_adm_info() {
    return extractor_info<FloatAdm>("float_adm", adm_table().specs(), adm_provided());
}

}  // namespace vmafpp
