#include "adm/adm_gain_limit.hpp"

#include <bit>
#include <cmath>

#include "vmafpp/error.hpp"

namespace vmafpp::adm {

GainLimitFixed gain_limit_fixed(double gain) {
    // s in [32, 62]: N = P >> s is then taken from the high word alone and
    // 2^s fits in uint64 (see gain_product_integer).
    if (!(gain >= 0x1p-10 && gain < 0x1p21))
        throw Error("adm: the integer gain-limit product needs 2^-10 <= limit < 2^21");
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(gain);
    const int biased_exponent = static_cast<int>(bits >> 52);  // sign bit is 0
    GainLimitFixed f;
    f.m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
    // gain = m * 2^(biased_exponent - 1023 - 52)
    f.s = 1075 - biased_exponent;
    return f;
}

// Let a = |rst| <= 2^31 and P = a * m < 2^84 the exact product scaled by 2^s,
// N = P >> s its integer part and F = P mod 2^s its fraction. fl() moves the
// exact value x = P / 2^s by at most half an ulp, and x is in [N, N + 1) where
// both ends are doubles, so trunc(fl(x)) is N or N + 1. With b = bitlen(N)
// the ulp of x is 2^(b - 53) (x < 2^38, far below 2^53), hence the product
// rounds to N + 1 exactly when
//     D = 2^s - F <= 2^(s + b - 54)
// (a tie rounds to N + 1: N + 1 is an even multiple of the ulp for b < 53).
// Scaling by 2^(54 - s): G = D * 2^(54 - s) <= 2^b, i.e. bitlen(G - 1) <= b.
// For s > 54 the scaling divides; ceil keeps the comparison with the integer
// 2^b exact. An integral limit has F = 0, so D = 2^s and it never rounds up.
// (adm_gain_limit_product in adm_shared.h computes this, with the
// bitlen(G - 1) <= b test as adm_bitlen_at_most(G - 1, N).)

}  // namespace vmafpp::adm
