// speed_shared.h's speed_divide_bits (the division speed_scale.comp does in
// integers, where Vulkan's OpFDiv may be 2.5 ULP off) against the CPU's
// binary32 division, which rounds to nearest even: random operands of every
// exponent, subnormals, exact quotients, halfway cases, the carry into the
// next binade, overflow and underflow, and denominators near 1 (lanczos_at's
// weight sums).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "speed/speed_shared.h"

namespace vmafpp {
namespace {

std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

float float_of(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

bool finite_nonzero(std::uint32_t b) {
    const std::uint32_t e = (b >> 23) & 0xffu;
    return e != 0xffu && (b & 0x7fffffffu) != 0;
}

// The first pair whose emulated quotient differs from the CPU's, as text.
::testing::AssertionResult divides_like_the_cpu(std::uint32_t n, std::uint32_t d) {
    const std::uint32_t want = bits_of(float_of(n) / float_of(d));
    const std::uint32_t got = speed::speed_divide_bits(n, d);
    if (want == got) return ::testing::AssertionSuccess();
    char text[160];
    std::snprintf(text, sizeof text, "%a / %a: %a (0x%08x), the CPU %a (0x%08x)",
                  static_cast<double>(float_of(n)), static_cast<double>(float_of(d)),
                  static_cast<double>(float_of(got)), got, static_cast<double>(float_of(want)), want);
    return ::testing::AssertionFailure() << text;
}

TEST(SpeedShared, DivisionOfRandomBitPatternsIsTheCpus) {
    std::mt19937 rng(20261207u);
    int checked = 0;
    while (checked < 2000000) {
        const std::uint32_t n = rng(), d = rng();
        if ((((n >> 23) & 0xffu) == 0xffu) || !finite_nonzero(d)) continue;
        ASSERT_TRUE(divides_like_the_cpu(n, d));
        ++checked;
    }
}

// Operands whose exponents are close (quotients near 1, as lanczos_at's)
// and whose mantissas have few bits (exact quotients and ties are common).
TEST(SpeedShared, DivisionNearOneAndOfShortMantissasIsTheCpus) {
    std::mt19937 rng(7u);
    for (int i = 0; i < 2000000; ++i) {
        const std::uint32_t en = 100u + rng() % 56u, ed = 120u + rng() % 16u;
        const std::uint32_t keep = rng() % 24u;  // mantissa bits kept
        const std::uint32_t mask = keep == 0 ? 0u : (0x7fffffu << (23u - (keep > 23u ? 23u : keep))) & 0x7fffffu;
        const std::uint32_t n = (rng() & 0x80000000u) | (en << 23) | (rng() & mask);
        const std::uint32_t d = (rng() & 0x80000000u) | (ed << 23) | (rng() & (i % 2 ? mask : 0x7fffffu));
        ASSERT_TRUE(divides_like_the_cpu(n, d));
    }
}

// Subnormal operands and quotients, rounding at every subnormal position,
// underflow to zero, overflow to infinity, zeros, the largest values.
TEST(SpeedShared, DivisionAtTheEdgesOfTheRangeIsTheCpus) {
    std::mt19937 rng(99u);
    for (int i = 0; i < 2000000; ++i) {
        // Numerators from the subnormals up; denominators that push the
        // quotient below 2^-126 or above 2^127.
        const std::uint32_t en = rng() % 40u, ed = (i % 3 == 0) ? rng() % 8u : 100u + rng() % 155u;
        const std::uint32_t n = (rng() & 0x80000000u) | (en << 23) | (rng() & 0x7fffffu);
        std::uint32_t d = (rng() & 0x80000000u) | (ed << 23) | (rng() & 0x7fffffu);
        if (!finite_nonzero(d)) d |= 1u;
        ASSERT_TRUE(divides_like_the_cpu(n, d));
        ASSERT_TRUE(divides_like_the_cpu(d, n | 1u));  // large quotients, overflow
    }
    const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.1f,
                              std::numeric_limits<float>::min(),
                              std::numeric_limits<float>::denorm_min(),
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::epsilon(),
                              float_of(0x007fffffu), float_of(0x00800001u), float_of(0x3f7fffffu),
                              float_of(0x3f800001u), float_of(0x7f7ffffeu)};
    for (float a : specials)
        for (float b : specials) {
            if (!finite_nonzero(bits_of(b))) continue;
            EXPECT_TRUE(divides_like_the_cpu(bits_of(a), bits_of(b)));
        }
    // Every quotient 2^k * (1 + j/8) by 1: exact ones from the largest down
    // through every subnormal position to the smallest.
    for (int k = -149; k <= 127; ++k)
        for (int j = 0; j < 8; ++j) {
            const float q = std::ldexp(1.0f + j / 8.0f, k);
            for (float by : {1.0f, 3.0f, 0.5f, 7.0f})
                EXPECT_TRUE(divides_like_the_cpu(bits_of(q), bits_of(by)));
        }
}

// Exact halfway quotients: a quotient of two binary32 values never lies
// exactly between two normal numbers, but it can between two subnormals.
// m * 2^(t - 149) / 2^(s + t) with m = k * 2^(s - 1), k odd, is a tie at
// the s-th bit below the smallest subnormal's unit: both ways of the
// ties-to-even rule (k = 1 or 3 mod 4), at every position s, from numerators
// that are subnormal (t = 0) up to ones far in the normal range (t < 128 - s).
TEST(SpeedShared, DivisionTiesOfSubnormalQuotientsRoundToEven) {
    std::mt19937 rng(5u);
    for (int i = 0; i < 400000; ++i) {
        const int s = 1 + static_cast<int>(rng() % 23u);
        const std::uint32_t k = (rng() % (1u << (24 - s))) | 1u;  // m = k 2^(s-1) < 2^23
        const int t = static_cast<int>(rng() % static_cast<std::uint32_t>(128 - s));  // 2^(s+t) finite
        const float n = std::ldexp(static_cast<float>(k << (s - 1)), t - 149);
        const float d = std::ldexp(1.0f, s + t);
        ASSERT_TRUE(divides_like_the_cpu(bits_of(i % 2 ? -n : n), bits_of(d)));
    }
}

}  // namespace
}  // namespace vmafpp
