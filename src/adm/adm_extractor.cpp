// The "adm" feature extractor (libvmaf 3.2.0's integer ADM): options, output
// keys in libvmaf's order, and one AdmEngine per instance.
#include <memory>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "base/extractor_info.hpp"
#include "adm/adm_options.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "adm/adm_twin.hpp"

namespace vmafpp {

namespace {

std::vector<OptionSpec> adm_options() {
    // name, alias, type, default, min, max, feature parameter, help
    return {
        {"debug", "", OptionType::boolean, 0.0, 0.0, 1.0, false,
         "debug mode: enable additional output"},
        {"adm_csf_scale", "scf", OptionType::number, 1.0, 0.0, 50.0, true,
         "scale coefficient for the horizontal & vertical direction terms of CSF"},
        {"adm_csf_diag_scale", "scfd", OptionType::number, 1.0, 0.0, 50.0, true,
         "scale coefficient for the diagonal direction term of CSF"},
        {"adm_dlm_weight", "dlmw", OptionType::number, 0.5, 0.0, 1.0, true,
         "linear weighting between DLM and AIM; 1 corresponds to DLM-only"},
        {"adm_enhn_gain_limit", "egl", OptionType::number, 100.0, 1.0, 100.0, true,
         "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is "
         "completely disabled"},
        {"adm_norm_view_dist", "nvd", OptionType::number, 3.0, 0.75, 24.0, true,
         "normalized viewing distance = viewing distance / ref display's physical height"},
        {"adm_ref_display_height", "rdh", OptionType::integer, 1080, 1, 4320, true,
         "reference display height in pixels"},
        {"adm_csf_mode", "csf", OptionType::integer, 0, 0, 3, true,
         "contrast sensitivity function"},
        {"adm_noise_weight", "nw", OptionType::number, 0.03125, 0.0, 1500.0, true,
         "noise weight"},
        {"adm_skip_aim", "", OptionType::boolean, 0.0, 0.0, 1.0, false,
         "skip the calculation of AIM", false},  // true is less complete
        {"adm_skip_scale0", "ssz", OptionType::boolean, 0.0, 0.0, 1.0, true,
         "skip the calculation of scale 0"},
        {"adm_min_val", "min", OptionType::number, 0.0, 0.0, 1.0, true,
         "minimum value allowed; lower values will be clipped to this value"},
    };
}

adm::AdmOptions engine_options(const OptionValues& v) {
    adm::AdmOptions o;
    o.gain_limit = v.number("adm_enhn_gain_limit");
    o.csf.mode = static_cast<adm::CsfMode>(v.integer("adm_csf_mode"));
    o.csf.norm_view_dist = v.number("adm_norm_view_dist");
    o.csf.ref_display_height = v.integer("adm_ref_display_height");
    o.csf.csf_scale = v.number("adm_csf_scale");
    o.csf.csf_diag_scale = v.number("adm_csf_diag_scale");
    o.noise_weight = v.number("adm_noise_weight");
    o.dlm_weight = v.number("adm_dlm_weight");
    o.min_val = v.number("adm_min_val");
    o.skip_aim = v.flag("adm_skip_aim");
    o.skip_scale0 = v.flag("adm_skip_scale0");
    return o;
}

// The provided features in libvmaf's write order: adm2, aim, adm3,
// scale0..3, then the debug values. extract() writes keys by these indices.
enum Out : std::size_t { kAdm2, kAim, kAdm3, kScale0, kDebugAdm = kScale0 + adm::kScales,
                         kNum, kDen, kNumScale0 };

std::vector<ProvidedFeature> adm_provided() {
    std::vector<ProvidedFeature> p = {
        {"VMAF_integer_feature_adm2_score", "integer_adm2"},
        {"VMAF_integer_feature_aim_score", "integer_aim"},
        {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    };
    append_scale_features(p, adm::kScales, "integer_adm_scale", "");
    p.insert(p.end(), {{"integer_adm", ""}, {"integer_adm_num", ""}, {"integer_adm_den", ""}});
    append_num_den_scales(p, adm::kScales, "integer_adm");
    return p;
}

class IntegerAdm final : public FeatureExtractor {
public:
    explicit IntegerAdm(const ExtractorSetup& setup)
        : engine_(setup.geometry.width, setup.geometry.height, setup.geometry.bpc,
                  engine_options(setup.options), adm::adm_kernels_for(setup.compute.simd)),
          debug_(setup.options.flag("debug")),
          keys_(setup.keys) {
        // The integer stages on the device; the engine folds and finalises.
        if (setup.compute.backend != Backend::cpu) {
            const adm::AdmOptions o = engine_options(setup.options);
            adm::AdmDeviceParams p[adm::kScales];
            for (int s = 0; s < adm::kScales; ++s) p[s] = engine_.device_params(s);
            device_ = device::make_twin<adm::AdmTwin>(setup.compute, setup.geometry.width,
                                                      setup.geometry.height, setup.geometry.bpc, p,
                                                      o.gain_limit, o.skip_scale0, o.skip_aim);
            // The session uploads each frame once (device::FrameStore).
            from_store_ = device_ && setup.compute.frames != nullptr;
        }
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const adm::AdmScores s = scores(ref.luma(), dis.luma(), frame);
        sink.append(keys_[kAdm2], frame, s.adm2);
        sink.append(keys_[kAim], frame, s.aim);
        sink.append(keys_[kAdm3], frame, s.adm3);
        for (int i = 0; i < adm::kScales; ++i) sink.append(keys_[kScale0 + i], frame, s.scale[i]);
        if (!debug_) return;
        sink.append(keys_[kDebugAdm], frame, s.adm2);
        sink.append(keys_[kNum], frame, s.num);
        sink.append(keys_[kDen], frame, s.den);
        for (int i = 0; i < adm::kScales; ++i) {
            sink.append(keys_[kNumScale0 + 2 * i], frame, s.num_scale[i]);
            sink.append(keys_[kNumScale0 + 2 * i + 1], frame, s.den_scale[i]);
        }
    }

private:
    adm::AdmScores scores(const Plane& ref, const Plane& dis, unsigned frame) {
        if (device_) {
            if (from_store_)
                device_->run_frame(frame);
            else
                device_->run(ref.row<std::uint8_t>(0), ref.stride(), dis.row<std::uint8_t>(0),
                             dis.stride());
            const std::int64_t* rows[adm::kScales];
            for (int s = 0; s < adm::kScales; ++s) rows[s] = device_->rows(s);
            return engine_.compute_from_rows(rows);
        }
        return engine_.compute(ref, dis);
    }

    adm::AdmEngine engine_;
    std::unique_ptr<adm::AdmTwin> device_;
    bool from_store_ = false;
    bool debug_;
    std::vector<std::string> keys_;
};

}  // namespace

std::vector<OptionSpec> adm::integer_adm_options() { return adm_options(); }

FeatureInfo integer_adm_info() {
    FeatureInfo info = extractor_info<IntegerAdm>("adm", adm_options(), adm_provided());
    info.device_twins = {std::string(adm::AdmTwin::kind)};
    return info;
}

}  // namespace vmafpp
