// An extractor's options declared once: each OptionSpec (name, alias, type,
// default, range, whether it suffixes keys, help) together with the field of
// the extractor's parameter struct it fills, as libvmaf's VmafOption ties a
// declaration to an offset in the extractor's state. The specs the registry
// lists and the values the extractor reads come from the same table, so a
// Params struct restates no default and there is no hand-written reader.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "vmafpp/options.hpp"

namespace vmafpp {

template <class Params>
class OptionTable {
public:
    // Option `spec`, read into the field `field` names: a data member
    // pointer (&Params::x) or a callable Params& -> T& (for a nested member
    // or an array element). T decides how the value is read: bool (any
    // non-zero), int, an enum (from the integer or a choice's index), double,
    // float (the double rounded once) or std::string (a text or choice
    // option's string). A spec whose type cannot fill T is a programming
    // error (std::logic_error when the table is built).
    template <class Field>
    OptionTable& add(OptionSpec spec, Field field) {
        using T = std::remove_cvref_t<decltype(std::invoke(field, std::declval<Params&>()))>;
        check_type<T>(spec);
        std::string name = spec.name;
        specs_.push_back(std::move(spec));
        fills_.push_back([field, name = std::move(name)](Params& p, const OptionValues& v) {
            std::invoke(field, p) = read_as<T>(v, name);
        });
        return *this;
    }

    // An option the Params do not hold (read by name where it is used, e.g.
    // by FeatureInfo::context, or libvmaf's options that change nothing).
    OptionTable& add(OptionSpec spec) {
        specs_.push_back(std::move(spec));
        return *this;
    }

    // Option `name` as another extractor's table declares it (a float
    // extractor's options that libvmaf declares word for word in its integer
    // twin), so the two cannot drift apart.
    template <class Field>
    OptionTable& add_shared(const std::vector<OptionSpec>& twin, std::string_view name,
                            Field field) {
        return add(shared_spec(twin, name), std::move(field));
    }
    OptionTable& add_shared(const std::vector<OptionSpec>& twin, std::string_view name) {
        return add(shared_spec(twin, name));
    }

    const std::vector<OptionSpec>& specs() const { return specs_; }

    // The Params of `values` (values of this table's specs): every bound
    // field set from its option; other fields value-initialised.
    Params read(const OptionValues& values) const {
        Params p{};
        for (const auto& fill : fills_) fill(p, values);
        return p;
    }

private:
    static OptionSpec shared_spec(const std::vector<OptionSpec>& twin, std::string_view name) {
        for (const OptionSpec& s : twin)
            if (s.name == name) return s;
        throw std::logic_error("OptionTable: the twin declares no option \"" + std::string(name) +
                               "\"");
    }

    template <class T>
    static void check_type(const OptionSpec& s) {
        using O = OptionType;
        bool ok = false;
        if constexpr (std::is_same_v<T, bool>)
            ok = s.type == O::boolean || (s.type == O::integer && s.min_value >= 0.0 &&
                                          s.max_value <= 1.0);
        else if constexpr (std::is_same_v<T, int> || std::is_enum_v<T>)
            ok = s.type == O::integer || s.type == O::choice;
        else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>)
            ok = s.type == O::number;
        else if constexpr (std::is_same_v<T, std::string>)
            ok = s.type == O::text || s.type == O::choice;
        else
            static_assert(sizeof(T) == 0, "OptionTable: no reader for this field type");
        if (!ok)
            throw std::logic_error("OptionTable: option \"" + s.name +
                                   "\" cannot fill a field of its declared type");
    }

    template <class T>
    static T read_as(const OptionValues& v, const std::string& name) {
        if constexpr (std::is_same_v<T, bool>)
            return v.flag(name);
        else if constexpr (std::is_same_v<T, int>)
            return v.integer(name);
        else if constexpr (std::is_enum_v<T>)
            return static_cast<T>(v.integer(name));
        else if constexpr (std::is_same_v<T, double>)
            return v.number(name);
        else if constexpr (std::is_same_v<T, float>)
            return static_cast<float>(v.number(name));
        else
            return v.text(name);
    }

    std::vector<OptionSpec> specs_;
    std::vector<std::function<void(Params&, const OptionValues&)>> fills_;
};

}  // namespace vmafpp
