// The "adm" feature extractor (libvmaf 3.2.0's integer ADM): options, output
// keys in libvmaf's order, and one AdmEngine per instance.
#include <memory>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "base/extractor_info.hpp"
#include "base/frame_scratch.hpp"
#include "base/option_table.hpp"
#include "adm/adm_options.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "adm/adm_twin.hpp"

namespace vmafpp {

namespace {

// What an "adm" instance reads from its options: the engine's and debug.
struct AdmParams {
    adm::AdmOptions engine;
    bool debug;
};

// libvmaf's options, in its order, each with the field it fills.
const OptionTable<AdmParams>& adm_table() {
    using T = OptionType;
    using P = AdmParams;
    static const OptionTable<AdmParams> table = OptionTable<AdmParams>{}
        .add({"debug", "", T::boolean, 0.0, 0.0, 1.0, false,
              "debug mode: enable additional output"}, &P::debug)
        .add({"adm_csf_scale", "scf", T::number, 1.0, 0.0, 50.0, true,
              "scale coefficient for the horizontal & vertical direction terms of CSF"},
             [](P& p) -> auto& { return p.engine.csf.csf_scale; })
        .add({"adm_csf_diag_scale", "scfd", T::number, 1.0, 0.0, 50.0, true,
              "scale coefficient for the diagonal direction term of CSF"},
             [](P& p) -> auto& { return p.engine.csf.csf_diag_scale; })
        .add({"adm_dlm_weight", "dlmw", T::number, 0.5, 0.0, 1.0, true,
              "linear weighting between DLM and AIM; 1 corresponds to DLM-only"},
             [](P& p) -> auto& { return p.engine.dlm_weight; })
        .add({"adm_enhn_gain_limit", "egl", T::number, 100.0, 1.0, 100.0, true,
              "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is "
              "completely disabled"},
             [](P& p) -> auto& { return p.engine.gain_limit; })
        .add({"adm_norm_view_dist", "nvd", T::number, 3.0, 0.75, 24.0, true,
              "normalized viewing distance = viewing distance / ref display's physical height"},
             [](P& p) -> auto& { return p.engine.csf.norm_view_dist; })
        .add({"adm_ref_display_height", "rdh", T::integer, 1080, 1, 4320, true,
              "reference display height in pixels"},
             [](P& p) -> auto& { return p.engine.csf.ref_display_height; })
        .add({"adm_csf_mode", "csf", T::integer, 0, 0, 3, true, "contrast sensitivity function"},
             [](P& p) -> auto& { return p.engine.csf.mode; })
        .add({"adm_noise_weight", "nw", T::number, 0.03125, 0.0, 1500.0, true, "noise weight"},
             [](P& p) -> auto& { return p.engine.noise_weight; })
        .add({"adm_skip_aim", "", T::boolean, 0.0, 0.0, 1.0, false, "skip the calculation of AIM",
              false},  // true is less complete
             [](P& p) -> auto& { return p.engine.skip_aim; })
        .add({"adm_skip_scale0", "ssz", T::boolean, 0.0, 0.0, 1.0, true,
              "skip the calculation of scale 0"},
             [](P& p) -> auto& { return p.engine.skip_scale0; })
        .add({"adm_min_val", "min", T::number, 0.0, 0.0, 1.0, true,
              "minimum value allowed; lower values will be clipped to this value"},
             [](P& p) -> auto& { return p.engine.min_val; });
    return table;
}

adm::AdmOptions engine_options(const OptionValues& v) { return adm_table().read(v).engine; }

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

class IntegerAdm final : public FeatureExtractor, public detail::SharesFrameScratch {
public:
    explicit IntegerAdm(const ExtractorSetup& setup)
        : engine_(setup.geometry.width, setup.geometry.height, setup.geometry.bpc,
                  engine_options(setup.options), adm::adm_kernels_for(setup.compute.simd)),
          debug_(adm_table().read(setup.options).debug),
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

    // The engine's working memory, shared with the earlier extractors of
    // this worker (base/frame_scratch.hpp); a device twin's engine uses none.
    void meet(FeatureExtractor& earlier) override {
        if (!device_) share_frame_scratch(earlier);
    }
    detail::FrameScratch& frame_scratch() override { return engine_.frame_scratch(); }

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

std::vector<OptionSpec> adm::integer_adm_options() { return adm_table().specs(); }

adm::AdmOptions adm::default_adm_options() { return engine_options(OptionValues(adm_table().specs())); }

FeatureInfo integer_adm_info() {
    FeatureInfo info = extractor_info<IntegerAdm>("adm", adm_table().specs(), adm_provided());
    info.device_twins = {std::string(adm::AdmTwin::kind)};
    return info;
}

}  // namespace vmafpp
