// The gain-limit product of integer ADM's decouple stage: the integer-only
// form against (int64_t)((double)rst * gain), and the min/max rule against
// libvmaf's MIN/MAX of a double converted to an integer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "adm/adm_gain_limit.hpp"

namespace vmafpp::adm {
namespace {

// VMAFPP_ADM_GAIN_TEST_SCALE (e.g. 0.05) shrinks the sweep for Debug and
// sanitizer builds; the default (1) covers more than 10 million pairs.
double sweep_scale() {
    const char* s = std::getenv("VMAFPP_ADM_GAIN_TEST_SCALE");
    if (!s) return 1.0;
    const double v = std::strtod(s, nullptr);
    return v > 0.0 && v <= 1.0 ? v : 1.0;
}

int scaled(int n) { return std::max(1, static_cast<int>(n * sweep_scale())); }

struct Sweep {
    std::uint64_t pairs = 0;
    std::uint64_t mismatches = 0;
    std::string first;
    void check(std::int32_t rst, double gain, const GainLimitFixed& f) {
        ++pairs;
        const std::int64_t want = gain_product_double(rst, gain);
        const std::int64_t got = gain_product_integer(rst, f);
        if (want != got && mismatches++ == 0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "rst=%d gain=%.17g double=%lld integer=%lld", rst, gain,
                          static_cast<long long>(want), static_cast<long long>(got));
            first = buf;
        }
    }
};

std::vector<double> special_limits() {
    std::vector<double> g = {1.0, 1.2, 1.5, 100.0, 0.25, 2097152.0 - 0.5};
    for (double c : {1.0, 64.0, 100.0}) {
        g.push_back(std::nextafter(c, 0.0));
        g.push_back(std::nextafter(c, 1e9));
    }
    for (int k : {1, 2, 4, 5, 7, 8, 100, 200, 299}) g.push_back(k / 3.0);
    return g;
}

// Samples of one limit: every value in a dense range around zero, both ends
// of the int32 range, the powers of two and their neighbours, random values.
void sweep_limit(double gain, Sweep& sweep, std::mt19937_64& rng) {
    const GainLimitFixed f = gain_limit_fixed(gain);
    const int dense = scaled(300000);
    for (int r = -dense; r <= dense; ++r) sweep.check(r, gain, f);
    const std::int32_t lo = std::numeric_limits<std::int32_t>::min();
    const std::int32_t hi = std::numeric_limits<std::int32_t>::max();
    for (int k = 0; k < scaled(4096); ++k) {
        sweep.check(lo + k, gain, f);
        sweep.check(hi - k, gain, f);
    }
    for (int b = 0; b < 31; ++b)
        for (int d = -2; d <= 2; ++d) {
            const std::int64_t v = (std::int64_t{1} << b) + d;
            if (v > hi) continue;
            sweep.check(static_cast<std::int32_t>(v), gain, f);
            sweep.check(static_cast<std::int32_t>(-v), gain, f);
        }
    std::uniform_int_distribution<std::int32_t> any(lo, hi);
    for (int k = 0; k < scaled(150000); ++k) sweep.check(any(rng), gain, f);
}

TEST(AdmGainLimit, IntegerProductEqualsTruncatedDoubleProduct) {
    Sweep sweep;
    std::mt19937_64 rng(20261001);
    for (double g : special_limits()) sweep_limit(g, sweep, rng);
    // Random limits in [1, 100): samples of picture magnitude and of any int32.
    std::uniform_real_distribution<double> limit(1.0, 100.0);
    std::uniform_int_distribution<std::int32_t> small(-40000, 40000);
    std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    for (int l = 0; l < scaled(1500); ++l) {
        const double g = limit(rng);
        const GainLimitFixed f = gain_limit_fixed(g);
        for (int k = 0; k < 2000; ++k) {
            sweep.check(small(rng), g, f);
            sweep.check(any(rng), g, f);
        }
    }
    EXPECT_EQ(sweep.mismatches, 0u) << "first: " << sweep.first;
    if (sweep_scale() == 1.0) {
        EXPECT_GE(sweep.pairs, 10'000'000u);
    }
    std::printf("gain-limit pairs compared: %llu\n", static_cast<unsigned long long>(sweep.pairs));
}

TEST(AdmGainLimit, DoubleRoundingIsVisible) {
    // fl(5 * 1.2) == 6 although 1.2 is stored below 1.2: a truncation of the
    // exact product would give 5.
    EXPECT_EQ(gain_product_double(5, 1.2), 6);
    EXPECT_EQ(gain_product_integer(5, gain_limit_fixed(1.2)), 6);
    EXPECT_EQ(gain_product_integer(-5, gain_limit_fixed(1.2)), -6);
    EXPECT_EQ(gain_product_integer(7, gain_limit_fixed(1.5)), 10);
    EXPECT_EQ(gain_product_integer(std::numeric_limits<std::int32_t>::min(), gain_limit_fixed(100.0)),
              -214748364800LL);
}

TEST(AdmGainLimit, FixedLimitIsExact) {
    for (double g : special_limits()) {
        const GainLimitFixed f = gain_limit_fixed(g);
        EXPECT_GE(f.m, std::uint64_t{1} << 52);
        EXPECT_LT(f.m, std::uint64_t{1} << 53);
        EXPECT_EQ(std::ldexp(static_cast<double>(f.m), -f.s), g);
    }
    EXPECT_THROW(gain_limit_fixed(0x1p21), std::exception);
    EXPECT_THROW(gain_limit_fixed(0.0), std::exception);
}

// libvmaf: rst = MIN(rst * gain, t) assigned to an integer (truncation). The
// kernels use min(trunc(fl(rst * gain)), t); both must agree for every t.
TEST(AdmGainLimit, TruncatedMinMaxEqualsLibvmafAssignment) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::int32_t> r(-40000, 40000);
    std::uniform_real_distribution<double> limit(1.0, 100.0);
    for (int k = 0; k < scaled(200000); ++k) {
        const std::int32_t rst = r(rng);
        const std::int32_t t = r(rng);
        const double g = k % 3 == 0 ? 1.2 : limit(rng);
        const double x = rst * g;
        if (rst > 0) {
            const auto libvmaf = static_cast<std::int64_t>(x < t ? x : static_cast<double>(t));
            EXPECT_EQ(std::min(gain_product_double(rst, g), std::int64_t{t}), libvmaf);
        } else if (rst < 0) {
            const auto libvmaf = static_cast<std::int64_t>(x > t ? x : static_cast<double>(t));
            EXPECT_EQ(std::max(gain_product_double(rst, g), std::int64_t{t}), libvmaf);
        }
    }
}

}  // namespace
}  // namespace vmafpp::adm
