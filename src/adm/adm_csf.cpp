#include "adm/adm_csf.hpp"

#include <cmath>

#include "csf/csf.hpp"

namespace vmafpp::adm {

namespace {

// Blended Barten/Watson tables: [0] = h/v, [1] = d; columns are scales 0..3.
struct BlendTable {
    int height;
    double dist;
    float legacy[2][4];
    float mae[2][4];
};
constexpr BlendTable kBlendTables[] = {
    {1080, 3.0,
     {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}},
     {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {1080, 5.0,
     {{0.004212f, 0.014809f, 0.029642f, 0.047464f}, {0.000984f, 0.005852f, 0.0146f, 0.027574f}},
     {{0.004052f, 0.013939f, 0.026298f, 0.038833f}, {0.000927f, 0.005544f, 0.013415f, 0.024515f}}},
    // 2160 at 1.5 H has the pixels per degree of 1080 at 3 H.
    {2160, 1.5,
     {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}},
     {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {2160, 3.0,
     {{0.00226f, 0.01183f, 0.025026f, 0.04295f}, {0.000479f, 0.004302f, 0.011778f, 0.023918f}},
     {{0.002166f, 0.011249f, 0.022606f, 0.035930f}, {0.000447f, 0.004097f, 0.010921f, 0.021430f}}},
    {2160, 5.0,
     {{0.000092f, 0.004212f, 0.014809f, 0.029642f}, {0.000050f, 0.000984f, 0.005852f, 0.0146f}},
     {{0.000077f, 0.004052f, 0.013939f, 0.026298f}, {0.000045f, 0.000927f, 0.005544f, 0.013415f}}},
    {720, 3.0,
     {{0.018715f, 0.035637f, 0.052798f, 0.061509f}, {0.007999f, 0.018396f, 0.031851f, 0.037718f}},
     {{0.017329f, 0.030870f, 0.042134f, 0.047410f}, {0.007509f, 0.016707f, 0.028072f, 0.032722f}}},
    {720, 5.0,
     {{0.010144f, 0.022561f, 0.040309f, 0.05672f}, {0.003463f, 0.010282f, 0.021839f, 0.034641f}},
     {{0.009689f, 0.020577f, 0.034162f, 0.044523f}, {0.003302f, 0.009579f, 0.019661f, 0.030318f}}},
    {480, 3.0,
     {{0.027961f, 0.045875f, 0.060275f, 0.056234f}, {0.013572f, 0.026277f, 0.036959f, 0.034511f}},
     {{0.024969f, 0.037825f, 0.046676f, 0.043974f}, {0.012511f, 0.023424f, 0.032139f, 0.030166f}}},
    {480, 5.0,
     {{0.016781f, 0.032822f, 0.05032f, 0.061594f}, {0.00691f, 0.016545f, 0.029917f, 0.037777f}},
     {{0.015665f, 0.028766f, 0.040612f, 0.047483f}, {0.006514f, 0.015107f, 0.026476f, 0.032776f}}},
};

const BlendTable* find_blend_table(double norm_view_dist, int ref_display_height) {
    for (const auto& t : kBlendTables)
        if (t.height == ref_display_height && t.dist == norm_view_dist) return &t;
    return nullptr;
}

}  // namespace

bool blend_table_exists(double norm_view_dist, int ref_display_height) {
    return find_blend_table(norm_view_dist, ref_display_height) != nullptr;
}

CsfFactors csf_factors(const CsfParams& p, int scale) {
    switch (p.mode) {
        case CsfMode::barten:
            return {csf::barten_csf(scale, p.norm_view_dist, p.ref_display_height,
                                    csf::kBartenLuminance, p.csf_scale),
                    csf::barten_csf(scale, p.norm_view_dist, p.ref_display_height,
                                    csf::kBartenLuminance, p.csf_diag_scale)};
        case CsfMode::barten_watson_blend:
        case CsfMode::barten_watson_blend_mae: {
            // The extractor refuses conditions without a table (libvmaf
            // returns -EINVAL as a float factor there and scores NaN).
            const BlendTable* t = find_blend_table(p.norm_view_dist, p.ref_display_height);
            if (!t) return {0.0f, 0.0f};
            const auto& m = p.mode == CsfMode::barten_watson_blend ? t->legacy : t->mae;
            return {m[0][scale], m[1][scale]};
        }
        case CsfMode::watson97:
        default:
            return {1.0f / csf::watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height),
                    1.0f / csf::watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height)};
    }
}

std::uint16_t to_u16_like_x86(double v) {
    // cvttsd2si to a 32-bit register; out of range (or NaN) gives INT32_MIN,
    // whose low 16 bits are 0.
    if (!(v > -2147483649.0 && v < 2147483648.0)) return 0;
    return static_cast<std::uint16_t>(static_cast<std::int32_t>(v));
}

std::uint32_t to_u32_like_x86(double v) {
    // cvttsd2si to a 64-bit register; invalid gives INT64_MIN (low bits 0).
    if (!(v >= -0x1p63 && v < 0x1p63)) return 0;
    return static_cast<std::uint32_t>(static_cast<std::int64_t>(v));
}

void fixed_factors_s0(const CsfParams& p, std::uint16_t out[3]) {
    if (std::fabs(p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8 &&
        p.mode == CsfMode::watson97) {
        out[0] = 36453;
        out[1] = 36453;
        out[2] = 49417;
        return;
    }
    const CsfFactors f = csf_factors(p, 0);
    out[0] = to_u16_like_x86(static_cast<double>(f.hv) * std::pow(2, 21));
    out[1] = out[0];
    out[2] = to_u16_like_x86(static_cast<double>(f.d) * std::pow(2, 23));
}

void fixed_factors_s123(const CsfParams& p, int scale, std::uint32_t out[3]) {
    const CsfFactors f = csf_factors(p, scale);
    out[0] = to_u32_like_x86(static_cast<double>(f.hv) * std::pow(2, 32));
    out[1] = out[0];
    out[2] = to_u32_like_x86(static_cast<double>(f.d) * std::pow(2, 32));
}

}  // namespace vmafpp::adm
