// What ADM's SIMD twins (adm_kernels.hpp) share across instruction sets,
// written once without intrinsics. Everything sits in an anonymous
// namespace, so each ISA file compiles its own copy with its own flags
// (HACKING.md, "Where a loop lives").
#pragma once

#include <cstdint>

#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {
namespace {

// What both scales' decoupling reads besides the bands: the centre of
// libvmaf's division table (entry i is 2^30 / i with i's sign), cos^2(1
// degree) and the gain limit, the last two in every lane of Lanes::set(v)'s
// double vector.
template <class Lanes>
struct DecoupleConstantsOf {
    using D = decltype(Lanes::set(0.0));
    explicit DecoupleConstantsOf(double gain_limit)
        : div(div_lookup() + 32768),
          cos_sq(Lanes::set(static_cast<double>(cos_1deg_sq()))),
          gain(Lanes::set(gain_limit)) {}
    const std::int32_t* div;
    D cos_sq;
    D gain;
};

}  // namespace
}  // namespace vmafpp::adm
