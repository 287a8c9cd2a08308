// The presets of libvmaf 3.2.0's tools/cli_parse.c, version by version: each
// AOM version starts from the one before it, as libvmaf's functions call
// their predecessor.
#include "vmafpp/presets.hpp"

#include <string>

#include "vmafpp/error.hpp"

namespace vmafpp {

namespace {

// The feature's extractor name: what libvmaf's CHECKED_REPLACE matches.
std::string_view extractor_name(std::string_view feature) {
    return feature.substr(0, feature.find('='));
}

// libvmaf's CHECKED_REPLACE: the first feature of the same extractor is
// replaced in place; none, and the feature is appended.
void replace_feature(std::vector<std::string>& features, const std::string& feature) {
    for (auto& f : features)
        if (extractor_name(f) == extractor_name(feature)) {
            f = feature;
            return;
        }
    features.push_back(feature);
}

// v1.0 .. v7.0 as the number 1 .. 7; 0 when it is not one of them.
int aom_version(std::string_view v) {
    static constexpr std::string_view kVersions[] = {"v1.0", "v2.0", "v3.0", "v4.0",
                                                     "v5.0", "v6.0", "v7.0"};
    for (int i = 0; i < 7; ++i)
        if (v == kVersions[i]) return i + 1;
    return 0;
}

Preset aom_ctc(int version) {
    Preset p;
    p.models = {"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"};
    p.features = {"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede",
                  "float_ssim=enable_db=true:clip_db=true",
                  "float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs"};
    // v2.0 adds nothing; v3.0 adds cambi; v4.0 and v5.0 nothing.
    if (version >= 3) p.features.push_back("cambi");
    if (version >= 6) p.common_bitdepth = true;
    if (version >= 7) replace_feature(p.features, "float_ssim=scale=1:enable_db=true:clip_db=true");
    return p;
}

Preset nflx_ctc_v1() {
    Preset p;
    p.models = {"version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"};
    p.features = {"psnr=enable_chroma=true:enable_apsnr=true",
                  "float_ssim=enable_db=true:clip_db=true", "cambi"};
    return p;
}

}  // namespace

Preset ctc_preset(std::string_view family, std::string_view version) {
    if (family == "aom_ctc") {
        if (version == "proposed") throw Error("--aom_ctc proposed is deprecated (libvmaf too)");
        if (const int v = aom_version(version)) return aom_ctc(v);
        throw Error("--aom_ctc: unknown version \"" + std::string(version) + "\" (v1.0 .. v7.0)");
    }
    if (family == "nflx_ctc") {
        if (version == "v1.0") return nflx_ctc_v1();
        throw Error("--nflx_ctc: unknown version \"" + std::string(version) + "\" (v1.0)");
    }
    throw Error("unknown preset family \"" + std::string(family) + "\" (aom_ctc, nflx_ctc)");
}

}  // namespace vmafpp
