// The shared contrast sensitivity models (src/csf) that integer and float
// ADM both use.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "adm/adm_csf.hpp"
#include "adm/adm_options.hpp"
#include "csf/csf.hpp"

namespace vmafpp {
namespace {

std::uint32_t bits(float f) {
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// libvmaf hard-codes integer ADM's scale-0 factors for 3 H at 1080 lines,
// and they are not what its own Watson tables give there: the exception in
// fixed_factors_s0 must stay, and the tables must keep giving these values.
TEST(Csf, DefaultScale0FactorsAreLibvmafsConstantsNotTheTables) {
    const float hv = 1.0f / csf::watson_quant_step(0, 1, 3.0, 1080);
    const float d = 1.0f / csf::watson_quant_step(0, 2, 3.0, 1080);
    EXPECT_EQ(adm::to_u16_like_x86(static_cast<double>(hv) * std::pow(2, 21)), 36451);
    EXPECT_EQ(adm::to_u16_like_x86(static_cast<double>(d) * std::pow(2, 23)), 49414);
    std::uint16_t s0[3] = {};
    adm::fixed_factors_s0(adm::default_adm_options().csf, s0);
    EXPECT_EQ(s0[0], 36453);
    EXPECT_EQ(s0[1], 36453);
    EXPECT_EQ(s0[2], 49417);
}

TEST(Csf, PixelsPerDegreeIsTheNarrowedDoubleProduct) {
    EXPECT_EQ(bits(csf::pixels_per_degree(3.0, 1080)),
              bits(static_cast<float>(3.0 * 1080 * 3.14159265358979323846 / 180.0)));
    // 2160 lines at 1.5 H see the pixels per degree of 1080 at 3 H.
    EXPECT_EQ(bits(csf::pixels_per_degree(1.5, 2160)), bits(csf::pixels_per_degree(3.0, 1080)));
}

// Float ADM's log10f of the luminance anchors and libvmaf's narrowed double
// log10 agree at the luminance both extractors use, for every scale and
// weight. They are kept apart because they do not agree everywhere: with
// glibc they part in the last bit at the 0.02 cd/m^2 anchor.
TEST(Csf, BartenAnchorLogsAgreeAtTheFixedLuminance) {
    for (const double nvd : {0.75, 1.5, 3.0, 5.0, 24.0})
        for (const int height : {480, 720, 1080, 2160, 4320})
            for (int lambda = 0; lambda < 4; ++lambda)
                for (const double scale : {0.0, 1.0, 2.5, 50.0})
                    EXPECT_EQ(bits(csf::barten_csf(lambda, nvd, height, csf::kBartenLuminance,
                                                   scale, csf::AnchorLog::double_log10)),
                              bits(csf::barten_csf(lambda, nvd, height, csf::kBartenLuminance,
                                                   scale, csf::AnchorLog::float_log10)))
                        << nvd << " " << height << " " << lambda << " " << scale;
}

TEST(Csf, IntegerAdmFactorsComeFromTheSharedModels) {
    adm::CsfParams p = adm::default_adm_options().csf;
    for (int s = 0; s < 4; ++s) {
        const adm::CsfFactors w = adm::csf_factors(p, s);
        EXPECT_EQ(bits(w.hv), bits(1.0f / csf::watson_quant_step(s, 1, 3.0, 1080)));
        EXPECT_EQ(bits(w.d), bits(1.0f / csf::watson_quant_step(s, 2, 3.0, 1080)));
    }
    p.mode = adm::CsfMode::barten;
    p.csf_diag_scale = 2.0;
    for (int s = 0; s < 4; ++s) {
        const adm::CsfFactors b = adm::csf_factors(p, s);
        EXPECT_EQ(bits(b.hv), bits(csf::barten_csf(s, 3.0, 1080, csf::kBartenLuminance, 1.0)));
        EXPECT_EQ(bits(b.d), bits(csf::barten_csf(s, 3.0, 1080, csf::kBartenLuminance, 2.0)));
    }
}

}  // namespace
}  // namespace vmafpp
