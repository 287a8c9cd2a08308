// libvmaf's "float_vif" extractor: visual information fidelity on float luma,
// four scales.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/c_macros.hpp"
#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "base/float_image.hpp"
#include "vif/float_vif_kernels.hpp"
#include "vif/vif_options.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

// The scale scores, then the debug values: vif, its num and den, and the
// num and den of every scale.
std::vector<ProvidedFeature> vif_provided() {
    std::vector<ProvidedFeature> p;
    append_scale_features(p, 4, "VMAF_feature_vif_scale", "_score", "vif_scale");
    p.insert(p.end(), {{"vif", ""}, {"vif_num", ""}, {"vif_den", ""}});
    append_num_den_scales(p, 4, "vif");
    return p;
}

// What a float_vif instance reads from its options (vif_table()).
struct VifParams {
    bool debug;
    double enhn_gain_limit;
    double kernelscale;
    double prescale;
    double min_val[4];  // [0] unused
    double sigma_nsq;
    bool skip_scale0;
};

// libvmaf's options, in its order, each with the field it fills; what
// libvmaf declares identically for integer VIF comes from that table.
const OptionTable<VifParams>& vif_table() {
    using T = OptionType;
    using P = VifParams;
    static const OptionTable<VifParams> table = [] {
        const std::vector<OptionSpec> twin = vif::integer_vif_options();
        OptionTable<VifParams> t;
        t.add_shared(twin, "debug", &P::debug)
            .add_shared(twin, "vif_enhn_gain_limit", &P::enhn_gain_limit)
            .add({"vif_kernelscale", "ks", T::number, 1.0, 0.1, 4.0, true,
                  "scaling factor for the gaussian kernel (2.0 means multiplying the standard "
                  "deviation by 2 and enlarge the kernel size accordingly"},
                 &P::kernelscale)
            .add({"vif_prescale", "ps", T::number, 1.0, 0.1, 4.0, true,
                  "scaling factor for the frame (2.0 means making the image twice as large on "
                  "each dimension); nearest-neighbour scaling"},
                 &P::prescale);
        for (int s = 1; s <= 3; ++s) {
            const std::string n = std::to_string(s);
            t.add({"vif_scale" + n + "_min_val", "s" + n + "miv", T::number, 0.0, 0.0, 1.0, true,
                   "minimum value allowed; smaller values will be set to this value"},
                  [s](P& p) -> double& { return p.min_val[s]; });
        }
        t.add({"vif_sigma_nsq", "snsq", T::number, 2.0, 0.0, 5.0, true, "neural noise variance"},
              &P::sigma_nsq)
            .add_shared(twin, "vif_skip_scale0", &P::skip_scale0);
        return t;
    }();
    return table;
}

struct Geometry {
    int scaled_w = 0;
    int scaled_h = 0;
};

// libvmaf's (int)(n * prescale + 0.5).
int prescaled(int n, double prescale) { return static_cast<int>(n * prescale + 0.5); }

// Every blur must see more samples than its radius in each dimension (the
// reflection would leave the picture otherwise): the pre-decimation blur of
// scale s runs on scale s-1's size, the scale's own blurs on its size.
std::string size_problem(int w, int h, float kernelscale) {
    for (int scale = 0; scale < 4; ++scale) {
        const int r = float_vif::filter_width(scale, kernelscale) / 2;
        if (scale > 0) {
            if (w <= r || h <= r) break;
            w /= 2;
            h /= 2;
        }
        if (w <= r || h <= r) {
            return "float_vif needs at least " + std::to_string(r + 1) + "x" +
                   std::to_string(r + 1) + " samples at scale " + std::to_string(scale) +
                   " (" + std::to_string(w) + "x" + std::to_string(h) + " there)";
        }
    }
    return {};
}

class FloatVif final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const VifParams p = vif_table().read(s.options);
        const float ks = static_cast<float>(p.kernelscale);
        if (!float_vif::valid_kernelscale(ks))
            throw Error("float_vif: vif_kernelscale " + std::to_string(p.kernelscale) +
                        " is not one of libvmaf's kernel scales");
        require_float_conversion("float_vif", s.geometry.bpc);
        const double ps = p.prescale;
        const std::string problem =
            size_problem(prescaled(s.geometry.width, ps), prescaled(s.geometry.height, ps), ks);
        if (!problem.empty()) throw Error(problem);
    }

    explicit FloatVif(const ExtractorSetup& s)
        : p_(vif_table().read(s.options)), w_(s.geometry.width), h_(s.geometry.height),
          bpc_(s.geometry.bpc), sw_(prescaled(w_, p_.prescale)), sh_(prescaled(h_, p_.prescale)),
          prescaling_(sw_ != w_ || sh_ != h_), ref_(w_, h_), dis_(w_, h_), keys_(s.keys),
          k_(&float_vif::float_vif_kernels_for(s.compute.simd)) {
        if (prescaling_) {
            ref_s_ = FloatImage(sw_, sh_);
            dis_s_ = FloatImage(sw_, sh_);
        }
        const float ks = static_cast<float>(p_.kernelscale);
        for (int s = 0; s < 4; ++s) {
            fw_[s] = float_vif::filter_width(s, ks);
            float_vif::gaussian_filter(filters_[s].data(), s, ks);
        }
        // Decimated pictures of scales 1..3 alternate between two buffers so
        // that a scale never overwrites the picture it is computed from.
        const int hw = sw_ / 2 > 0 ? sw_ / 2 : 1;
        const int hh = sh_ / 2 > 0 ? sh_ / 2 : 1;
        for (int k = 0; k < 2; ++k) {
            ref_dec_[k] = FloatImage(hw, hh);
            dis_dec_[k] = FloatImage(hw, hh);
        }
        for (FloatImage* b : {&mu1_, &mu2_, &xx_, &yy_, &xy_}) *b = FloatImage(sw_, sh_);
        row_.assign(static_cast<std::size_t>(sw_ + float_vif::kMaxFilterWidth), 0.0f);
        stat_scratch_.assign(2 * static_cast<std::size_t>(sw_), 0.0f);
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        plane_to_float(ref.luma(), bpc_, -128.0f, ref_.data(), ref_.stride());
        plane_to_float(dis.luma(), bpc_, -128.0f, dis_.data(), dis_.stride());
        if (prescaling_) {
            float_vif::scale_nearest(ref_.data(), ref_.stride(), w_, h_, ref_s_.data(),
                                     ref_s_.stride(), sw_, sh_);
            float_vif::scale_nearest(dis_.data(), dis_.stride(), w_, h_, dis_s_.data(),
                                     dis_s_.stride(), sw_, sh_);
        }
        double scores[8] = {};
        compute(scores);
        const int start = p_.skip_scale0 ? 1 : 0;
        double num = 0.0, den = 0.0;
        for (int s = start; s < 4; ++s) {
            num += scores[2 * s];
            den += scores[2 * s + 1];
        }
        sink.append(keys_[0], frame, p_.skip_scale0 ? 0.0 : scores[0] / scores[1]);
        for (int s = 1; s < 4; ++s)
            sink.append(keys_[s], frame, c_max(scores[2 * s] / scores[2 * s + 1], p_.min_val[s]));
        if (!p_.debug) return;
        sink.append(keys_[4], frame, den == 0.0 ? 1.0 : num / den);
        sink.append(keys_[5], frame, num);
        sink.append(keys_[6], frame, den);
        for (int k = 0; k < 8; ++k) {
            double v = scores[k];
            if (p_.skip_scale0 && k < 2) v = k == 0 ? 0.0 : -1.0;  // libvmaf's placeholders
            sink.append(keys_[7 + k], frame, v);
        }
    }

private:
    void compute(double* scores) {
        // At the native size libvmaf's scaling is a plain copy: read the
        // converted pictures directly.
        const FloatImage& r0 = prescaling_ ? ref_s_ : ref_;
        const FloatImage& d0 = prescaling_ ? dis_s_ : dis_;
        const float* cur_ref = r0.data();
        const float* cur_dis = d0.data();
        std::ptrdiff_t cur_stride = r0.stride();
        int w = sw_, h = sh_;
        const int start = p_.skip_scale0 ? 1 : 0;
        for (int scale = start; scale < 4; ++scale) {
            const float* f = filters_[scale].data();
            const int fw = fw_[scale];
            if (scale > 0) {
                FloatImage& rd = ref_dec_[scale % 2];
                FloatImage& dd = dis_dec_[scale % 2];
                k_->blur_decimate(f, fw, cur_ref, cur_stride, rd.data(), rd.stride(), w, h,
                                         row_.data());
                k_->blur_decimate(f, fw, cur_dis, cur_stride, dd.data(), dd.stride(), w, h,
                                         row_.data());
                w /= 2;
                h /= 2;
                cur_ref = rd.data();
                cur_dis = dd.data();
                cur_stride = rd.stride();
            }
            const std::ptrdiff_t bs = mu1_.stride();
            k_->blur(f, fw, cur_ref, cur_stride, mu1_.data(), bs, w, h, row_.data());
            k_->blur(f, fw, cur_dis, cur_stride, mu2_.data(), bs, w, h, row_.data());
            k_->blur_squared(f, fw, cur_ref, cur_stride, xx_.data(), bs, w, h, row_.data());
            k_->blur_squared(f, fw, cur_dis, cur_stride, yy_.data(), bs, w, h, row_.data());
            k_->blur_product(f, fw, cur_ref, cur_stride, cur_dis, cur_stride, xy_.data(), bs,
                                    w, h, row_.data());
            const float_vif::VifSums s =
                k_->statistic(mu1_.data(), mu2_.data(), xx_.data(), yy_.data(), xy_.data(),
                                     bs, w, h, p_.enhn_gain_limit, p_.sigma_nsq,
                                     stat_scratch_.data());
            scores[2 * scale] = s.num;
            scores[2 * scale + 1] = s.den;
        }
    }

    VifParams p_;
    int w_, h_, bpc_, sw_, sh_;
    bool prescaling_;
    FloatImage ref_, dis_, ref_s_, dis_s_;
    FloatImage ref_dec_[2], dis_dec_[2];
    FloatImage mu1_, mu2_, xx_, yy_, xy_;
    std::vector<std::string> keys_;
    std::array<std::array<float, float_vif::kMaxFilterWidth>, 4> filters_{};
    std::array<int, 4> fw_{};
    std::vector<float> row_;
    std::vector<float> stat_scratch_;
    const float_vif::FloatVifKernels* k_;
};

}  // namespace

FeatureInfo float_vif_info() {
    return extractor_info<FloatVif>("float_vif", vif_table().specs(), vif_provided());
}

}  // namespace vmafpp
