// The gain branch of vif_accumulate on double lanes, shared by the x86
// accumulate twins (vif_avx2.cpp, vif_avx512.cpp), each with its own lanes
// struct L: L::D, dset, dadd, dsub, dmul, ddiv (dispatch/x86_lanes.hpp's
// double lanes) and min(a, b), max(a, b) (the minpd/maxpd rule: the second
// operand where the compare fails) and trunc (round toward zero). In an
// anonymous namespace, so that no instance is shared between files built
// for different instruction sets. nsq is kSigmaNsq (vif_shared.h).
#pragma once

#include "vif/vif_shared.h"

namespace vmafpp::vif {
namespace {

template <class L>
struct GainNumbers {
    typename L::D numer1;
    typename L::D numer1_tmp;
};

// The gain branch's two numbers of a vector of pixels whose statistics are
// s1, s2 and s12 (integer-valued doubles), in the scalar's operations and
// order: numer1 = sv_sq + nsq (sv_sq an integer-valued double below 2^31,
// so numer1 < 2^31 + 2^17 is the scalar's uint32 exactly) and numer1_tmp.
// Lanes that need no gain term get values of no meaning but finite (every
// divisor is an integer plus eps, every factor bounded).
template <class L>
[[gnu::always_inline]] inline GainNumbers<L> gain_numbers(typename L::D s1, typename L::D s2,
                                                          typename L::D s12,
                                                          typename L::D gain_limit) {
    using D = typename L::D;
    const D g_raw = L::ddiv(s12, L::dadd(s1, L::dset(65536 * 1.0e-10)));
    const D sv = L::dsub(s2, L::dmul(g_raw, s12));
    // sv > 0 ? (int32)sv : 0 as an integer-valued double (in a needed lane
    // g_raw * s12 > 0, so sv < s2 < 2^31); max returns its second operand
    // (+0) for sv <= 0 and for -0.
    const D sv_sq = L::trunc(L::max(sv, L::dset(0.0)));
    // min(a, b) is a < b ? a : b, the scalar's comparison.
    const D g = L::min(g_raw, gain_limit);
    // (int64)(g * g * s1) + numer1: with |g| <= 1024 (the accumulate's
    // condition for its vector path) the product is below 2^51 and the sum
    // below 2^52, so double holds both exactly.
    const D product = L::trunc(L::dmul(L::dmul(g, g), s1));
    const D numer1 = L::dadd(sv_sq, L::dset(static_cast<double>(kSigmaNsq)));
    return {numer1, L::dadd(product, numer1)};
}

}  // namespace
}  // namespace vmafpp::vif
