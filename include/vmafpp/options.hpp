// Typed options of a feature extractor, parsed from "name=value" strings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/export.hpp"

namespace vmafpp {

// `choice`: one of the spec's `choices` strings (libvmaf's string options
// with a fixed set of values, e.g. speed_prescale_method); its value is the
// index into `choices`, so values compare as numbers do.
// `text`: a string kept as given (libvmaf's free string options: cambi's
// eotf, heatmaps_path); its default is OptionSpec::default_text.
enum class OptionType { boolean, integer, number, choice, text };

struct OptionSpec {
    std::string name;   // e.g. "adm_enhn_gain_limit"
    std::string alias;  // e.g. "egl"; used in the key suffix
    OptionType type = OptionType::number;
    double default_value = 0.0;
    double min_value = 0.0;
    double max_value = 0.0;
    // A feature parameter changes the values an extractor computes, so a
    // non-default value is appended to every key it writes (libvmaf's
    // VMAF_OPT_FLAG_FEATURE_PARAM).
    bool feature_param = true;
    std::string help;
    // For a boolean that is not a feature parameter: whether `true` gives the
    // more complete output (debug adds keys) or the less complete one
    // (adm_skip_aim writes 0 for AIM). Two requests of one extractor that
    // differ only in such options are served by one instance with the more
    // complete setting of each.
    bool true_is_more_complete = true;
    // The strings a `choice` option accepts; default_value indexes the default.
    std::vector<std::string> choices = {};
    std::string default_text = "";  // the default of a text option
};

// The values of one extractor instance: defaults from its specs, overridden by
// set(). Unknown names and values out of range throw vmafpp::Error.
class VMAFPP_API OptionValues {
public:
    OptionValues() = default;
    explicit OptionValues(std::vector<OptionSpec> specs);

    void set(std::string_view name, std::string_view value);
    bool has(std::string_view name) const;

    double number(std::string_view name) const;
    int integer(std::string_view name) const;
    bool flag(std::string_view name) const;
    bool is_default(std::string_view name) const;
    // The string of a `choice` or `text` option (std::logic_error for
    // another type).
    const std::string& text(std::string_view name) const;
    // Whether option `name` has the same value here and in `other` (of the
    // same specs): what the session compares to share one instance.
    bool same_value(const OptionValues& other, std::string_view name) const;

    const std::vector<OptionSpec>& specs() const { return specs_; }

    // libvmaf's suffix for non-default feature parameters, options in
    // alphabetical order of their names: "_<alias>_<%g value>" for numbers,
    // "_<alias>_<text>" for text, "_<alias>" for booleans. Empty when every parameter has its default.
    std::string key_suffix() const;

private:
    const OptionSpec& spec(std::string_view name) const;
    std::vector<OptionSpec> specs_;
    std::vector<double> values_;
    std::vector<std::string> texts_;  // text options' values ("" for others)
};

}  // namespace vmafpp
