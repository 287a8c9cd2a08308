// What every feature folder's `FeatureInfo <name>_info()` would otherwise
// spell out again: the FeatureInfo around an extractor class (and a float
// extractor's bit-depth refusal), libvmaf's
// per-scale provided feature names, and the option specs that a float
// extractor shares with its integer twin.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/float_image.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp {

// A FeatureInfo whose make() builds an `Extractor` from the setup. When
// the class has `static void check(const ExtractorSetup&)`, make() calls it
// first: it throws vmafpp::Error for a geometry or options the extractor
// cannot score, before anything is allocated.
template <class Extractor>
FeatureInfo extractor_info(std::string name, std::vector<OptionSpec> options,
                           std::vector<ProvidedFeature> provided, bool temporal = false) {
    FeatureInfo info;
    info.name = std::move(name);
    info.options = std::move(options);
    info.provided = std::move(provided);
    info.temporal = temporal;
    info.make = [](const ExtractorSetup& setup) -> std::unique_ptr<FeatureExtractor> {
        if constexpr (requires { Extractor::check(setup); }) Extractor::check(setup);
        return std::make_unique<Extractor>(setup);
    };
    return info;
}

// extractor_info for an extractor of libvmaf's float pictures (picture_copy):
// make() first refuses the bit depths that conversion does not define
// (require_float_conversion, in the extractor's name), then runs the class's
// own check, if any.
template <class Extractor>
FeatureInfo float_extractor_info(std::string name, std::vector<OptionSpec> options,
                                 std::vector<ProvidedFeature> provided, bool temporal = false) {
    FeatureInfo info =
        extractor_info<Extractor>(name, std::move(options), std::move(provided), temporal);
    info.make = [name, make = std::move(info.make)](const ExtractorSetup& setup) {
        require_float_conversion(name, setup.geometry.bpc);
        return make(setup);
    };
    return info;
}

// Appends {name_prefix + s + name_suffix, alias_prefix + s} for each scale s
// (no alias when alias_prefix is empty).
inline void append_scale_features(std::vector<ProvidedFeature>& p, int scales,
                                  const std::string& name_prefix, const std::string& name_suffix,
                                  const std::string& alias_prefix = "") {
    for (int s = 0; s < scales; ++s) {
        const std::string n = std::to_string(s);
        p.push_back({name_prefix + n + name_suffix, alias_prefix.empty() ? "" : alias_prefix + n});
    }
}

// Appends the debug values <prefix>_num_scale<s>, <prefix>_den_scale<s> of
// each scale, in that order.
inline void append_num_den_scales(std::vector<ProvidedFeature>& p, int scales,
                                  const std::string& prefix) {
    for (int s = 0; s < scales; ++s) {
        p.push_back({prefix + "_num_scale" + std::to_string(s), ""});
        p.push_back({prefix + "_den_scale" + std::to_string(s), ""});
    }
}

// The spec called `name` in `specs`: for an option that libvmaf declares
// word for word (name, alias, type, default, range, help) in a float
// extractor and its integer twin, taken from the twin's table so that the
// two cannot drift apart. Throws std::logic_error when there is none.
inline OptionSpec option_from(const std::vector<OptionSpec>& specs, std::string_view name) {
    for (const OptionSpec& s : specs)
        if (s.name == name) return s;
    throw std::logic_error("option_from: no option \"" + std::string(name) + "\"");
}

}  // namespace vmafpp
