// The feature registry: every extractor of engine/feature_list.hpp and those
// a caller registers, and what FeatureInfo derives from its declaration
// (keys, lookups by provided name).
#include <deque>
#include <mutex>
#include <shared_mutex>
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

namespace {

// The built-ins, then the registered extractors. A deque: the pointers
// find_feature() hands out (ExtractorSpec::info) stay valid while entries
// are appended; none is ever removed.
struct Registry {
    std::shared_mutex mutex;
    std::deque<FeatureInfo> features;
};

Registry& registry() {
#define VMAFPP_CALL_FEATURE(factory) factory(),
    static Registry r{{}, {VMAFPP_FEATURE_LIST(VMAFPP_CALL_FEATURE)}};
#undef VMAFPP_CALL_FEATURE
    return r;
}

const FeatureInfo* find_locked(const Registry& r, std::string_view name) {
    for (const auto& f : r.features)
        if (f.name == name) return &f;
    return nullptr;
}

const FeatureInfo* find_providing_locked(const Registry& r, std::string_view feature_name) {
    for (const auto& f : r.features)
        if (f.find_provided(feature_name)) return &f;
    return nullptr;
}

// Why `info` cannot join the registry (empty when it can).
std::string registration_problem(const Registry& r, const FeatureInfo& info) {
    if (info.name.empty()) return "an extractor needs a name";
    if (find_locked(r, info.name)) return "an extractor called \"" + info.name + "\" exists";
    if (!info.make) return "extractor " + info.name + " has no make()";
    if (info.provided.empty()) return "extractor " + info.name + " provides no feature";
    for (const ProvidedFeature& p : info.provided)
        for (const std::string& n : {p.name, p.alias})
            if (!n.empty())
                if (const FeatureInfo* other = find_providing_locked(r, n))
                    return "extractor " + info.name + ": feature \"" + n + "\" is " +
                           other->name + "'s";
    return {};
}

}  // namespace

std::vector<FeatureInfo> feature_registry() {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    return {r.features.begin(), r.features.end()};
}

const FeatureInfo& register_feature(FeatureInfo info) {
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    const std::string problem = registration_problem(r, info);
    if (!problem.empty()) throw Error("register_feature: " + problem);
    return r.features.emplace_back(std::move(info));
}

const FeatureInfo* find_feature(std::string_view name) {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    return find_locked(r, name);
}

const FeatureInfo* find_feature_providing(std::string_view feature_name) {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    return find_providing_locked(r, feature_name);
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
