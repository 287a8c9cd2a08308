#include <vector>

#include "engine/builtin_features.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp {

const std::vector<FeatureInfo>& feature_registry() {
    static const std::vector<FeatureInfo> registry = [] {
        std::vector<FeatureInfo> r;
        r.push_back(integer_adm_info());
        r.push_back(integer_motion_info());
        r.push_back(integer_vif_info());
        r.push_back(float_adm_info());
        r.push_back(float_vif_info());
        r.push_back(float_motion_info());
        r.push_back(float_psnr_info());
        r.push_back(float_ansnr_info());
        r.push_back(float_moment_info());
        r.push_back(integer_psnr_info());
        return r;
    }();
    return registry;
}

const FeatureInfo* find_feature(std::string_view name) {
    for (const auto& f : feature_registry())
        if (f.name == name) return &f;
    return nullptr;
}

const FeatureInfo* find_feature_providing(std::string_view feature_name) {
    for (const auto& f : feature_registry())
        for (const auto& p : f.provided_features)
            if (p == feature_name || feature_alias(p) == feature_name) return &f;
    return nullptr;
}

}  // namespace vmafpp
