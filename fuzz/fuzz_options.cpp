// The option parsers on arbitrary lines: OptionValues::set ("name=value")
// against a spec list like integer ADM's, parse_feature_spec (--feature
// "name=opt=val:opt=val") and parse_model_config (-m "version=...:..."). Only
// vmafpp::Error may escape a parser (anything else aborts the run as a
// finding); accepted values must lie in their range; key() never throws.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "vmafpp/error.hpp"
#include "vmafpp/model.hpp"
#include "vmafpp/options.hpp"
#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

using namespace vmafpp;

namespace {

OptionValues adm_like_options() {
    return OptionValues({
        {"debug", "", OptionType::boolean, 0, 0, 1, false, ""},
        {"adm_enhn_gain_limit", "egl", OptionType::number, 100.0, 1.0, 100.0, true, ""},
        {"adm_norm_view_dist", "nvd", OptionType::number, 3.0, 0.75, 24.0, true, ""},
        {"adm_ref_display_height", "rdh", OptionType::integer, 1080, 1, 4320, true, ""},
        {"adm_csf_mode", "csf", OptionType::integer, 0, 0, 9, true, ""},
        {"adm_skip_scale0", "ssz", OptionType::boolean, 0, 0, 1, true, ""},
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    OptionValues o = adm_like_options();
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // Each rejected line costs a few exceptions (slow under ASan); a few
    // dozen lines per input keep the run fast and cover any interplay.
    for (int lines = 0; lines < 32 && !text.empty(); ++lines) {
        const auto nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (line.empty()) continue;
        try {
            (void)parse_feature_spec(line);
        } catch (const Error& e) {
            if (std::string_view(e.what()).empty()) std::abort();
        }
        try {
            (void)parse_model_config(line);
        } catch (const Error& e) {
            if (std::string_view(e.what()).empty()) std::abort();
        }
        const auto eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view name = line.substr(0, eq);
        try {
            o.set(name, line.substr(eq + 1));
            const double v = o.number(name);
            for (const auto& s : o.specs())
                if (s.name == name && s.type != OptionType::boolean &&
                    !(v >= s.min_value && v <= s.max_value))
                    std::abort();
        } catch (const Error& e) {
            if (std::string_view(e.what()).empty()) std::abort();
        }
    }
    (void)o.key_suffix();
    return 0;
}
