#include "vmafpp/options.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "vmafpp/error.hpp"

namespace vmafpp {

OptionValues::OptionValues(std::vector<OptionSpec> specs) : specs_(std::move(specs)) {
    values_.reserve(specs_.size());
    texts_.reserve(specs_.size());
    for (const auto& s : specs_) {
        values_.push_back(s.default_value);
        texts_.push_back(s.type == OptionType::text ? s.default_text : std::string());
    }
}

const OptionSpec& OptionValues::spec(std::string_view name) const {
    for (const auto& s : specs_)
        if (s.name == name) return s;
    throw Error("unknown option \"" + std::string(name) + "\"");
}

bool OptionValues::has(std::string_view name) const {
    return std::any_of(specs_.begin(), specs_.end(),
                       [&](const OptionSpec& s) { return s.name == name; });
}

namespace {

bool parse_bool(std::string_view v, bool& out) {
    if (v == "true" || v == "1") { out = true; return true; }
    if (v == "false" || v == "0") { out = false; return true; }
    return false;
}

// `parse` (strtod or strtol) on the whole of `v`: the value, or nothing for
// an empty string, trailing garbage or ERANGE.
template <class Parse>
auto parse_whole(std::string_view v, Parse parse) -> std::optional<decltype(parse("", nullptr))> {
    const std::string s(v);
    if (s.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const auto value = parse(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
    return value;
}

// A number; NaN and infinities are refused.
bool parse_number(std::string_view v, double& out) {
    const auto d = parse_whole(v, [](const char* s, char** end) { return std::strtod(s, end); });
    if (!d || !std::isfinite(*d)) return false;
    out = *d;
    return true;
}

// An integer in int's range.
bool parse_int(std::string_view v, double& out) {
    const auto l =
        parse_whole(v, [](const char* s, char** end) { return std::strtol(s, end, 10); });
    if (!l || *l < -2147483647L - 1 || *l > 2147483647L) return false;
    out = static_cast<double>(*l);
    return true;
}

std::string format_g(double v) {
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), "%g", v);
    return buf.data();
}

}  // namespace

void OptionValues::set(std::string_view name, std::string_view value) {
    const OptionSpec& s = spec(name);
    const std::size_t i = static_cast<std::size_t>(&s - specs_.data());
    double parsed = 0.0;
    bool ok = false;
    const char* expect = "";
    switch (s.type) {
        case OptionType::boolean: {
            bool b = false;
            ok = parse_bool(value, b);
            parsed = b ? 1.0 : 0.0;
            expect = "true or false";
            break;
        }
        case OptionType::integer:
            ok = parse_int(value, parsed);
            expect = "an integer";
            break;
        case OptionType::number:
            ok = parse_number(value, parsed);
            expect = "a finite number";
            break;
        case OptionType::choice: {
            const auto it = std::find(s.choices.begin(), s.choices.end(), value);
            ok = it != s.choices.end();
            parsed = static_cast<double>(it - s.choices.begin());
            if (!ok) {
                std::string list;
                for (const std::string& c : s.choices) list += (list.empty() ? "" : ", ") + c;
                throw Error("option " + s.name + ": \"" + std::string(value) + "\" is not one of " +
                            list);
            }
            break;
        }
        case OptionType::text:
            texts_[i] = std::string(value);
            return;
    }
    if (!ok)
        throw Error("option " + s.name + ": \"" + std::string(value) + "\" is not " + expect);
    if ((s.type == OptionType::integer || s.type == OptionType::number) &&
        (parsed < s.min_value || parsed > s.max_value))
        throw Error("option " + s.name + ": " + std::string(value) + " is outside [" +
                    format_g(s.min_value) + ", " + format_g(s.max_value) + "]");
    values_[i] = parsed;
}

double OptionValues::number(std::string_view name) const {
    const OptionSpec& s = spec(name);
    return values_[static_cast<std::size_t>(&s - specs_.data())];
}

int OptionValues::integer(std::string_view name) const {
    return static_cast<int>(number(name));
}

bool OptionValues::flag(std::string_view name) const { return number(name) != 0.0; }

bool OptionValues::is_default(std::string_view name) const {
    const OptionSpec& s = spec(name);
    const std::size_t i = static_cast<std::size_t>(&s - specs_.data());
    if (s.type == OptionType::text) return texts_[i] == s.default_text;
    return values_[i] == s.default_value;
}

const std::string& OptionValues::text(std::string_view name) const {
    const OptionSpec& s = spec(name);
    const std::size_t i = static_cast<std::size_t>(&s - specs_.data());
    if (s.type == OptionType::choice) return s.choices.at(static_cast<std::size_t>(values_[i]));
    if (s.type != OptionType::text)
        throw std::logic_error("option " + s.name + " is not a text option");
    return texts_[i];
}

bool OptionValues::same_value(const OptionValues& other, std::string_view name) const {
    const OptionSpec& s = spec(name);
    if (s.type == OptionType::text) return text(name) == other.text(name);
    return number(name) == other.number(name);
}

std::string OptionValues::key_suffix() const {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < specs_.size(); ++i)
        if (specs_[i].feature_param && !is_default(specs_[i].name)) order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return specs_[a].name < specs_[b].name; });
    std::string out;
    for (std::size_t i : order) {
        const OptionSpec& s = specs_[i];
        const std::string& tag = s.alias.empty() ? s.name : s.alias;
        switch (s.type) {
            case OptionType::boolean: out += "_" + tag; break;
            case OptionType::integer:
                out += "_" + tag + "_" + std::to_string(static_cast<int>(values_[i]));
                break;
            case OptionType::number: out += "_" + tag + "_" + format_g(values_[i]); break;
            case OptionType::choice:
                out += "_" + tag + "_" + s.choices.at(static_cast<std::size_t>(values_[i]));
                break;
            case OptionType::text: out += "_" + tag + "_" + texts_[i]; break;
        }
    }
    return out;
}

}  // namespace vmafpp
