#include <gtest/gtest.h>

#include "vmafpp/error.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp {
namespace {

OptionValues adm_like() {
    OptionSpec egl{"adm_enhn_gain_limit", "egl", OptionType::number, 100.0, 1.0, 100.0, true, ""};
    OptionSpec csf{"adm_csf_mode", "csf", OptionType::integer, 0, 0, 9, true, ""};
    OptionSpec dbg{"debug", "", OptionType::boolean, 0, 0, 1, false, ""};
    return OptionValues({egl, csf, dbg});
}

TEST(Options, DefaultsGiveNoSuffix) { EXPECT_EQ(adm_like().key_suffix(), ""); }

TEST(Options, SuffixUsesPercentGAndAlphabeticalOrder) {
    auto o = adm_like();
    o.set("adm_enhn_gain_limit", "1.20");
    o.set("adm_csf_mode", "3");
    EXPECT_EQ(o.key_suffix(), "_csf_3_egl_1.2");
}

TEST(Options, RejectsUnknownBadAndOutOfRange) {
    auto o = adm_like();
    EXPECT_THROW(o.set("nope", "1"), Error);
    EXPECT_THROW(o.set("adm_enhn_gain_limit", "abc"), Error);
    EXPECT_THROW(o.set("adm_enhn_gain_limit", "0.5"), Error);
    EXPECT_THROW(o.set("adm_csf_mode", "1.5"), Error);
    EXPECT_THROW(o.set("debug", "yes"), Error);
}

}  // namespace
}  // namespace vmafpp
