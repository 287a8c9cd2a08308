// VMAF models: libvmaf's JSON model files (single nu-SVR models and bootstrap
// collections) and the per-frame score they predict from feature values.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmafpp/export.hpp"

namespace vmafpp {

// One `-m` argument: which model and how to use it.
struct ModelConfig {
    // Exactly one of the two: an embedded model ("vmaf_v0.6.1") or a file.
    std::string version;
    std::string path;
    // Name of the main output key; bootstrap members are "<name>_0001", ...
    std::string name = "vmaf";
    bool disable_clip = false;
    // Applies the model's score_transform even when it says enabled=false.
    bool enable_transform = false;
    // "<extractor>.<option>=<value>": changes an option of every feature the
    // model takes from that extractor (libvmaf's feature overload).
    struct FeatureOverride {
        std::string extractor;
        std::string option;
        std::string value;
    };
    std::vector<FeatureOverride> overrides;

    // The label libvmaf prints for the model: its version, else its path.
    const std::string& label() const { return version.empty() ? path : version; }
};

// Parses libvmaf's colon-separated model string, e.g.
// "version=vmaf_v0.6.1:name=foo:disable_clip:adm.adm_enhn_gain_limit=1.2".
// Throws vmafpp::Error on a malformed string.
VMAFPP_API ModelConfig parse_model_config(std::string_view spec);

// One feature value a model needs per frame.
struct FeatureRequest {
    // libvmaf's provided feature name, e.g. "VMAF_integer_feature_adm2_score".
    std::string feature_name;
    // Registered extractor providing it ("adm"); empty when none is registered.
    std::string extractor;
    // Options for that extractor, as "name", "value" strings. Numbers are
    // normalised the way libvmaf's dictionary does it (float, then "%g").
    std::vector<std::pair<std::string, std::string>> options;
    // The key its value is stored under, e.g. "integer_adm2_egl_1". Without
    // a registered extractor the suffix cannot be known: alias only.
    std::string key;
};

struct ScoreOutput {
    std::string name;  // "vmaf", "vmaf_0001", "vmaf_bagging", ...
    double value = 0.0;
};

namespace detail {
struct ModelData;
}

class VMAFPP_API Model {
public:
    // Loads an embedded model (config.version) or a file (config.path).
    // Throws vmafpp::Error with a one-line message when the model is missing,
    // unreadable, malformed or contains non-finite numbers.
    static Model load(const ModelConfig& config);
    // Parses model JSON text; `source` names it in error messages.
    static Model parse(std::string_view json_text, const ModelConfig& config,
                       std::string_view source = "model");

    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;
    ~Model();

    const std::string& name() const;
    const std::string& label() const;  // as ModelConfig::label()
    bool is_collection() const;

    // Every feature the model (and, for a collection, each member) reads,
    // without duplicates, in order of first use.
    const std::vector<FeatureRequest>& features() const;

    // Output names predict() returns, in the order libvmaf writes them:
    // "<name>", then for a bootstrap collection "<name>_0001".."<name>_NNNN",
    // "<name>_bagging", "<name>_stddev", "<name>_ci_p95_lo", "<name>_ci_p95_hi".
    std::vector<std::string> output_names() const;

    // One frame's scores from its feature values; `values` is in features()
    // order.
    std::vector<ScoreOutput> predict(std::span<const double> values) const;
    // Same, looking each value up by its FeatureRequest::key.
    std::vector<ScoreOutput> predict(
        const std::function<double(std::string_view key)>& feature_value) const;

private:
    explicit Model(std::unique_ptr<detail::ModelData> data);
    std::unique_ptr<detail::ModelData> data_;
};

// Names accepted as ModelConfig::version (the embedded *.json files).
VMAFPP_API std::vector<std::string> builtin_model_versions();

}  // namespace vmafpp
