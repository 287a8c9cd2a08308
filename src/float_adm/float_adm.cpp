// libvmaf's "float_adm" extractor: additive distortion measure on float luma.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/c_macros.hpp"
#include "base/float_image.hpp"
#include "float_adm/float_adm_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

using float_adm::Bands;
using float_adm::Region;

constexpr double kBorderFactor = 0.1;
constexpr double kLuminanceLevel = 100.0;  // cd/m^2, fixed in libvmaf

// Each of the four levels needs bands of at least 2x2 (the 3x3 masking filter
// reflects row -1 onto row 1): ceil(n / 16) >= 2.
constexpr int kMinSize = 17;

std::vector<OptionSpec> adm_options() {
    using T = OptionType;
    return {
        {"debug", "", T::boolean, 0, 0, 1, false, "debug mode: enable additional output"},
        {"adm_enhn_gain_limit", "egl", T::number, 100.0, 1.0, 100.0, true,
         "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is "
         "completely disabled"},
        {"adm_norm_view_dist", "nvd", T::number, 3.0, 0.75, 24.0, true,
         "normalized viewing distance = viewing distance / ref display's physical height"},
        {"adm_noise_weight", "nw", T::number, 0.03125, 0.0, 1500.0, true, "noise weight"},
        {"adm_csf_scale", "scf", T::number, 1.0, 0.0, 50.0, true, "scale factor for the CSF"},
        {"adm_csf_diag_scale", "scfd", T::number, 1.0, 0.0, 50.0, true,
         "scale factor for the CSF diag"},
        {"adm_ref_display_height", "rdf", T::integer, 1080, 1, 4320, true,
         "reference display height in pixels"},
        {"adm_csf_mode", "csf", T::integer, 0, 0, 9, true, "contrast sensitivity function"},
        {"adm_bypass_cm", "bcm", T::integer, 0, 0, 1, true, "bypass contrast masking (CM)"},
        {"adm_adm3_apply_hm", "aah", T::boolean, 0, 0, 1, true,
         "apply harmonic mean to combine DLM and AIM"},
        {"adm_p_norm", "apn", T::number, 3.0, 1.0, 20.0, true, "p-norm for energy vector"},
        {"adm_dlm_weight", "dlmw", T::number, 0.5, 0.0, 1.0, true,
         "linear weighting between DLM and AIM; 1 corresponds to DLM-only"},
        {"adm_min_val", "min", T::number, 0.0, 0.0, 1.0, true,
         "minimum value allowed; lower values will be clipped to this value"},
        {"adm_f1s0", "f1s0", T::number, -1.0, -1.0, 10.0, true, "factor1 scale0"},
        {"adm_f1s1", "f1s1", T::number, -1.0, -1.0, 10.0, true, "factor1 scale1"},
        {"adm_f1s2", "f1s2", T::number, -1.0, -1.0, 10.0, true, "factor1 scale2"},
        {"adm_f1s3", "f1s3", T::number, -1.0, -1.0, 10.0, true, "factor1 scale3"},
        {"adm_f2s0", "f2s0", T::number, -1.0, -1.0, 10.0, true, "factor2 scale0"},
        {"adm_f2s1", "f2s1", T::number, -1.0, -1.0, 10.0, true, "factor2 scale1"},
        {"adm_f2s2", "f2s2", T::number, -1.0, -1.0, 10.0, true, "factor2 scale2"},
        {"adm_f2s3", "f2s3", T::number, -1.0, -1.0, 10.0, true, "factor2 scale3"},
        {"adm_skip_aim_scale", "sasc", T::integer, -1, 0, 3, true,
         "when set, skip AIM calculations for that scale"},
        {"adm_skip_scale0", "ssz", T::boolean, 0, 0, 1, true, "skip the calculation of scale 0"},
    };
}

// In libvmaf's write order; the debug values follow the scale scores.
std::vector<ProvidedFeature> adm_provided() {
    std::vector<ProvidedFeature> p = {
        {"VMAF_feature_adm2_score", "adm2"},
        {"VMAF_feature_aim_score", "aim"},
        {"VMAF_feature_adm3_score", "adm3"},
    };
    for (int s = 0; s < 4; ++s)
        p.push_back({"VMAF_feature_adm_scale" + std::to_string(s) + "_score",
                     "adm_scale" + std::to_string(s)});
    p.push_back({"adm_num", ""});
    p.push_back({"adm_den", ""});
    p.push_back({"adm_scale0", ""});
    for (int s = 0; s < 4; ++s) {
        p.push_back({"adm_num_scale" + std::to_string(s), ""});
        p.push_back({"adm_den_scale" + std::to_string(s), ""});
    }
    return p;
}

struct AdmParams {
    bool debug = false;
    double enhn_gain_limit = 100.0;
    double norm_view_dist = 3.0;
    double noise_weight = 0.03125;
    double csf_scale = 1.0;
    double csf_diag_scale = 1.0;
    int ref_display_height = 1080;
    int csf_mode = 0;
    bool bypass_cm = false;
    bool adm3_apply_hm = false;
    double p_norm = 3.0;
    double dlm_weight = 0.5;
    double min_val = 0.0;
    std::array<double, 4> f1{-1, -1, -1, -1};
    std::array<double, 4> f2{-1, -1, -1, -1};
    int skip_aim_scale = -1;
    bool skip_scale0 = false;
};

AdmParams read_params(const OptionValues& o) {
    AdmParams p;
    p.debug = o.flag("debug");
    p.enhn_gain_limit = o.number("adm_enhn_gain_limit");
    p.norm_view_dist = o.number("adm_norm_view_dist");
    p.noise_weight = o.number("adm_noise_weight");
    p.csf_scale = o.number("adm_csf_scale");
    p.csf_diag_scale = o.number("adm_csf_diag_scale");
    p.ref_display_height = o.integer("adm_ref_display_height");
    p.csf_mode = o.integer("adm_csf_mode");
    p.bypass_cm = o.integer("adm_bypass_cm") != 0;
    p.adm3_apply_hm = o.flag("adm_adm3_apply_hm");
    p.p_norm = o.number("adm_p_norm");
    p.dlm_weight = o.number("adm_dlm_weight");
    p.min_val = o.number("adm_min_val");
    for (int s = 0; s < 4; ++s) {
        p.f1[s] = o.number("adm_f1s" + std::to_string(s));
        p.f2[s] = o.number("adm_f2s" + std::to_string(s));
    }
    p.skip_aim_scale = o.integer("adm_skip_aim_scale");
    p.skip_scale0 = o.flag("adm_skip_scale0");
    return p;
}

// ---- Contrast sensitivity: one weight for the h/v bands, one for d --------

// Display resolution in pixels per degree, double product narrowed to float.
float pixels_per_degree(double norm_view_dist, int ref_display_height) {
    return static_cast<float>(norm_view_dist * ref_display_height * M_PI / 180.0);
}

// Watson et al. 1997, "Visibility of wavelet quantization noise": threshold
// model of the luma channel (7-9 biorthogonal basis), formula (9) and Table V.
float watson_quant_step(int lambda, int theta, double norm_view_dist, int ref_display_height) {
    constexpr float a = 0.495f, k = 0.466f, f0 = 0.401f;
    constexpr float g[4] = {1.501f, 1.0f, 0.534f, 1.0f};
    constexpr float amplitude[6][4] = {
        {0.62171f, 0.67234f, 0.72709f, 0.67234f},
        {0.34537f, 0.41317f, 0.49428f, 0.41317f},
        {0.18004f, 0.22727f, 0.28688f, 0.22727f},
        {0.091401f, 0.11792f, 0.15214f, 0.11792f},
        {0.045943f, 0.059758f, 0.077727f, 0.059758f},
        {0.023013f, 0.030018f, 0.039156f, 0.030018f},
    };
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    const float temp = static_cast<float>(std::log10(std::pow(2.0, lambda + 1) *
                                                     static_cast<double>(f0) * g[theta] / r));
    // k * temp * temp is a float product; the rest is double.
    return static_cast<float>(2.0 * a * std::pow(10.0, static_cast<double>(k * temp * temp)) /
                              amplitude[lambda][theta]);
}

float adm_native_csf(int lambda, double norm_view_dist, int ref_display_height, int theta) {
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    float sf = static_cast<float>(r / std::pow(2.0, lambda + 1));
    if (theta == 45) sf = static_cast<float>(sf / 0.7);  // oblique effect
    return static_cast<float>((0.31 + 0.69 * sf) * std::exp(-0.29 * sf));
}

// Barten's CSF (as in HDR-VDP) at luminance `lum`, interpolated between
// parameter anchors in log10 luminance; float where libvmaf keeps floats.
float linear_interpolate(float x0, float y0, float x1, float y1, float x) {
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double lum,
                 double scale) {
    constexpr float anchors[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
    constexpr float params[6][5] = {
        {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
        {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
        {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
        {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
        {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
        {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f},
    };
    constexpr float sa[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
    constexpr float mtf_a[4] = {0.424838596301290f, 0.572435103936480f,
                                0.000167576239164937f, 0.00255872352306433f};
    constexpr float mtf_b[4] = {0.028f, 0.37f, 37.0f, 360.0f};

    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    const float sf = static_cast<float>(r / std::pow(2.0, lambda + 1));
    const double clamped =
        lum > anchors[5] ? double{anchors[5]} : (lum < anchors[0] ? double{anchors[0]} : lum);
    int li = 0, ri = 0;
    for (int i = 0; i < 5; ++i) {
        if (clamped >= anchors[i] && clamped <= anchors[i + 1]) {
            li = i;
            ri = i + 1;
            break;
        }
    }
    const float lpos = static_cast<float>(std::log10(anchors[li]));
    const float rpos = static_cast<float>(std::log10(anchors[ri]));
    const float pos = static_cast<float>(std::log10(clamped));
    float p[4];
    for (int k = 0; k < 4; ++k)
        p[k] = linear_interpolate(lpos, params[li][k + 1], rpos, params[ri][k + 1], pos);
    const float a = static_cast<float>(1.0f + std::pow(static_cast<double>(p[0] * sf), p[1]));
    const float b = static_cast<float>(
        1.0f / std::pow(1 - std::exp(-std::pow(static_cast<double>(sf / 7), 2)), p[2]));
    const float csf = static_cast<float>(p[3] / std::pow(static_cast<double>(a * b), 0.5));
    float mtf = 0.0f;
    for (int i = 0; i < 4; ++i)
        mtf = static_cast<float>(mtf + mtf_a[i] * std::exp(static_cast<double>(-mtf_b[i] * sf)));
    const float lumf = static_cast<float>(lum);
    const float rod_cone = static_cast<float>(
        sa[0] * std::pow(std::pow(static_cast<double>(sa[1] / lumf), sa[2]) + 1,
                         static_cast<double>(-sa[3])));
    return static_cast<float>(csf * mtf * rod_cone * scale);
}

struct CsfFactors {
    float hv = 0.0f;
    float diag = 0.0f;
};

CsfFactors csf_factors(const AdmParams& p, int scale) {
    CsfFactors f;
    if (p.csf_mode == 1) {  // Barten
        f.hv = barten_csf(scale, p.norm_view_dist, p.ref_display_height, kLuminanceLevel,
                          p.csf_scale);
        f.diag = barten_csf(scale, p.norm_view_dist, p.ref_display_height, kLuminanceLevel,
                            p.csf_diag_scale);
    } else if (p.csf_mode == 2) {  // ADM's own
        f.hv = adm_native_csf(scale, p.norm_view_dist, p.ref_display_height, 0);
        f.diag = adm_native_csf(scale, p.norm_view_dist, p.ref_display_height, 45);
    } else {  // Watson (0 and every other value)
        f.hv = 1.0f / watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height);
        f.diag = 1.0f / watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height);
    }
    if (p.f1[scale] >= 0) f.hv = static_cast<float>(p.f1[scale]);
    if (p.f2[scale] >= 0) f.diag = static_cast<float>(p.f2[scale]);
    return f;
}

// ---- The extractor --------------------------------------------------------

class FloatAdm final : public FeatureExtractor {
public:
    FloatAdm(const OptionValues& options, const FrameGeometry& g, std::vector<std::string> keys)
        : p_(read_params(options)), w_(g.width), h_(g.height), bpc_(g.bpc),
          ref_(g.width, g.height), dis_(g.width, g.height), keys_(std::move(keys)) {
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
            float_adm::dwt2(cur_ref, cur_stride, w, h, rows, cols, ref_b_, band_stride_,
                            tmp_lo_.data(), tmp_hi_.data(), skip);
            float_adm::dwt2(cur_dis, cur_stride, w, h, rows, cols, dis_b_, band_stride_,
                            tmp_lo_.data(), tmp_hi_.data(), skip);
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
        const double numden_limit = 1e-10 * (w_ * h_) / (1920.0 * 1080.0);
        num = num < numden_limit ? 0 : num;
        den = den < numden_limit ? 0 : den;
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
        float_adm::decouple(ref_b_, dis_b_, r_b_, a_b_, band_stride_, outer, p_.enhn_gain_limit);
        den_scale = float_adm::den_scale(ref_b_, band_stride_, inner, f.hv, f.diag,
                                         p_.noise_weight, p_.p_norm);
        // Detail loss: the restored bands masked by the additive impairment.
        float_adm::csf(a_b_, csf_a_, csf_f_, band_stride_, outer, f.hv, f.diag);
        num_scale = float_adm::contrast_masked_sum(r_b_, csf_a_, csf_f_, band_stride_, w, h,
                                                   inner, f.hv, f.diag, p_.noise_weight,
                                                   p_.bypass_cm, p_.p_norm);
        // Additive impairment masked by the restored bands, without noise floor.
        float_adm::csf(r_b_, csf_a_, csf_f_, band_stride_, outer, f.hv, f.diag);
        aim_num_scale = float_adm::contrast_masked_sum(a_b_, csf_a_, csf_f_, band_stride_, w, h,
                                                       inner, f.hv, f.diag, 0.0, p_.bypass_cm,
                                                       p_.p_norm);
    }

    AdmParams p_;
    int w_, h_, bpc_;
    FloatImage ref_, dis_;
    std::vector<std::string> keys_;
    std::ptrdiff_t band_stride_ = 0;
    std::vector<float> storage_;
    Bands ref_b_, dis_b_, r_b_, a_b_, csf_a_, csf_f_;
    std::vector<float> tmp_lo_, tmp_hi_;
    std::array<std::vector<int>, 4> row_taps_, col_taps_;
    std::array<CsfFactors, 4> factors_{};
};

}  // namespace

FeatureInfo float_adm_info() {
    FeatureInfo info;
    info.name = "float_adm";
    info.options = adm_options();
    info.provided = adm_provided();
    info.temporal = false;
    info.make = [](const ExtractorSetup& s) -> std::unique_ptr<FeatureExtractor> {
        const OptionValues& o = s.options;
        const FrameGeometry& g = s.geometry;
        if (g.width < kMinSize || g.height < kMinSize)
            throw Error("float_adm needs a frame of at least " + std::to_string(kMinSize) + "x" +
                        std::to_string(kMinSize) + " (got " + std::to_string(g.width) + "x" +
                        std::to_string(g.height) + ")");
        require_float_conversion("float_adm", g.bpc);
        return std::make_unique<FloatAdm>(o, g, s.keys);
    };
    return info;
}

}  // namespace vmafpp
