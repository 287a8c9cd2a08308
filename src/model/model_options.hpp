// How libvmaf turns model and command-line option values into strings.
#pragma once

#include <string>
#include <string_view>

namespace vmafpp::detail {

// A model file's numeric option value as libvmaf's dictionary stores it:
// rounded to float, then printed with "%g" (so 0.06 stays "0.06" and 1.0
// becomes "1").
std::string normalized_number(double value);

// A command-line option value: numeric strings are normalised as above,
// anything else ("true", "bilinear") is kept.
std::string normalize_option_value(std::string_view value);

}  // namespace vmafpp::detail
