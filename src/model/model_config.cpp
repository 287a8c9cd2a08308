#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/model_options.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/model.hpp"

namespace vmafpp {
namespace detail {

std::string normalized_number(double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(static_cast<float>(value)));
    return buf;
}

std::string normalize_option_value(std::string_view value) {
    const std::string s(value);
    // libvmaf's test: a float followed by nothing but white space.
    float ignored = 0.0f;
    char trailing = 0;
    if (std::sscanf(s.c_str(), "%f %c", &ignored, &trailing) != 1) return s;
    return normalized_number(static_cast<double>(std::strtof(s.c_str(), nullptr)));
}

}  // namespace detail

namespace {

std::string_view next_field(std::string_view& rest, char sep) {
    const auto pos = rest.find(sep);
    const std::string_view field = rest.substr(0, pos);
    rest = pos == std::string_view::npos ? std::string_view() : rest.substr(pos + 1);
    return field;
}

}  // namespace

ModelConfig parse_model_config(std::string_view spec) {
    ModelConfig cfg;
    std::string_view rest = spec;
    while (!rest.empty()) {
        std::string_view item = next_field(rest, ':');
        if (item.empty()) continue;
        const auto eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        const bool has_value = eq != std::string_view::npos;
        const std::string_view value = has_value ? item.substr(eq + 1) : std::string_view();
        auto flag = [&](bool& out) {
            if (!has_value || value == "true") out = true;
            else if (value == "false") out = false;
            else throw Error("model option " + std::string(key) + ": \"" + std::string(value) +
                             "\" is not true or false");
        };
        if (key == "disable_clip") {
            flag(cfg.disable_clip);
        } else if (key == "enable_transform") {
            flag(cfg.enable_transform);
        } else if (!has_value) {
            throw Error("model option \"" + std::string(item) + "\" needs a value (key=value)");
        } else if (key == "path") {
            cfg.path = value;
        } else if (key == "version") {
            cfg.version = value;
        } else if (key == "name") {
            if (value.empty()) throw Error("model option name: must not be empty");
            cfg.name = value;
        } else {
            const auto dot = key.find('.');
            if (dot == std::string_view::npos || dot == 0 || dot + 1 == key.size())
                throw Error("unknown model option \"" + std::string(key) +
                            "\" (expected path, version, name, disable_clip, enable_transform "
                            "or <extractor>.<option>)");
            cfg.overrides.push_back({std::string(key.substr(0, dot)),
                                     std::string(key.substr(dot + 1)), std::string(value)});
        }
    }
    if (cfg.version.empty() == cfg.path.empty())
        throw Error("model \"" + std::string(spec) + "\": give exactly one of version= or path=");
    return cfg;
}

}  // namespace vmafpp
