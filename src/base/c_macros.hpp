// libvmaf's MIN/MAX macros, whose choice differs from std::min/std::max when
// an argument is NaN: MIN(x, y) is x < y ? x : y, so a NaN x yields y.
#pragma once

namespace vmafpp {

inline double c_min(double x, double y) { return x < y ? x : y; }
inline double c_max(double x, double y) { return x > y ? x : y; }

}  // namespace vmafpp
