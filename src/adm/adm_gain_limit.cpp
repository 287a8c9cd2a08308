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

namespace {

// bitlen(x) <= bitlen(y) without a bit scan: bitlen(x) > bitlen(y) exactly
// when x's top bit is above every bit of y, i.e. y < x and y < (x ^ y).
bool bitlen_at_most(std::uint64_t x, std::uint64_t y) { return !(y < x && y < (x ^ y)); }

}  // namespace

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
std::int64_t gain_product_integer(std::int32_t rst, GainLimitFixed limit) {
    const std::uint64_t a = rst < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(
                                                             static_cast<std::int64_t>(rst))
                                    : static_cast<std::uint64_t>(rst);
    // P = hi * 2^32 + lo from two 64-bit products: a * m_lo < 2^31 * 2^32,
    // a * m_hi < 2^31 * 2^21.
    const std::uint64_t m_lo = limit.m & 0xffffffffu;
    const std::uint64_t m_hi = limit.m >> 32;
    const std::uint64_t p_lo = a * m_lo;
    const std::uint64_t lo = p_lo & 0xffffffffu;
    const std::uint64_t hi = a * m_hi + (p_lo >> 32);  // < 2^53

    const int s_hi = limit.s - 32;  // in [0, 30]
    const std::uint64_t n = hi >> s_hi;
    const std::uint64_t f = ((hi & ((std::uint64_t{1} << s_hi) - 1)) << 32) | lo;
    const std::uint64_t d = (std::uint64_t{1} << limit.s) - f;  // in [1, 2^s]
    std::uint64_t g;
    if (limit.s <= 54) {
        g = d << (54 - limit.s);  // <= 2^54
    } else {
        const int k = limit.s - 54;
        g = (d + ((std::uint64_t{1} << k) - 1)) >> k;  // ceil(d / 2^k) >= 1
    }
    const std::uint64_t t = bitlen_at_most(g - 1, n) ? n + 1 : n;
    const std::int64_t magnitude = static_cast<std::int64_t>(t);
    return rst < 0 ? -magnitude : magnitude;
}

}  // namespace vmafpp::adm
