// libvmaf 3.2.0's command-line presets (--aom_ctc, --nflx_ctc): the models
// and features each version adds, with their options and names, in the
// order libvmaf registers them (which is the order of the output's keys).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/export.hpp"

namespace vmafpp {

struct Preset {
    std::vector<std::string> models;    // "-m" strings: "version=vmaf_v0.6.1:name=vmaf"
    std::vector<std::string> features;  // "--feature" strings: "psnr=enable_apsnr=true:..."
    // aom_ctc v6.0 and later let libvmaf's CLI open a reference and a
    // distorted video of different bit depths. vmafpp refuses such a pair
    // whatever the preset: libvmaf then reads the lower-depth file as if it
    // had the higher depth, which scores bytes of the wrong frames.
    bool common_bitdepth = false;
};

// `family` is "aom_ctc" or "nflx_ctc"; `version` as libvmaf spells it
// ("v1.0" .. "v7.0" for aom_ctc, "v1.0" for nflx_ctc). Throws vmafpp::Error
// naming the versions there are.
VMAFPP_API Preset ctc_preset(std::string_view family, std::string_view version);

}  // namespace vmafpp
