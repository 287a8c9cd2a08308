// The feature registry: every extractor of engine/feature_list.hpp, and what
// FeatureInfo derives from its declaration (keys, lookups by provided name).
#include <string>
#include <vector>

#include "engine/feature_list.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"
#include "device/backend.hpp"

namespace vmafpp {

#define VMAFPP_DECLARE_FEATURE(factory) FeatureInfo factory();
VMAFPP_FEATURE_LIST(VMAFPP_DECLARE_FEATURE)
#undef VMAFPP_DECLARE_FEATURE

const std::vector<FeatureInfo>& feature_registry() {
#define VMAFPP_CALL_FEATURE(factory) factory(),
    static const std::vector<FeatureInfo> registry{VMAFPP_FEATURE_LIST(VMAFPP_CALL_FEATURE)};
#undef VMAFPP_CALL_FEATURE
    return registry;
}

const FeatureInfo* find_feature(std::string_view name) {
    for (const auto& f : feature_registry())
        if (f.name == name) return &f;
    return nullptr;
}

const FeatureInfo* find_feature_providing(std::string_view feature_name) {
    for (const auto& f : feature_registry())
        if (f.find_provided(feature_name)) return &f;
    return nullptr;
}

std::string feature_output_name(std::string_view feature_name) {
    if (const FeatureInfo* f = find_feature_providing(feature_name))
        return f->find_provided(feature_name)->output_name();
    return std::string(feature_name);
}

const ProvidedFeature* FeatureInfo::find_provided(std::string_view feature_name) const {
    for (const auto& p : provided)
        if (p.answers_to(feature_name)) return &p;
    return nullptr;
}

std::string FeatureInfo::key(const OptionValues& values, std::string_view feature_name) const {
    const ProvidedFeature* p = find_provided(feature_name);
    if (!p)
        throw Error("feature " + name + " does not provide \"" + std::string(feature_name) + "\"");
    return p->output_name() + values.key_suffix();
}

void FeatureSink::add_aggregate_sums(std::string_view key, unsigned /*frame*/, const AggregateSums& /*sums*/) {
    throw Error("internal error: aggregate " + std::string(key) + " written to a sink without aggregates");
}

std::unique_ptr<FeatureExtractor> FeatureInfo::create(const OptionValues& values,
                                                      const FrameGeometry& geometry,
                                                      const Compute& compute) const {
    device::place_on_cpu_or_refuse(compute, *this);
    ExtractorSetup setup{values, geometry, compute, {}};
    const std::string suffix = values.key_suffix();
    setup.keys.reserve(provided.size());
    for (const auto& p : provided) setup.keys.push_back(p.output_name() + suffix);
    return make(setup);
}

}  // namespace vmafpp
