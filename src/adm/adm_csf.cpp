#include "adm/adm_csf.hpp"

#include <cmath>

namespace vmafpp::adm {

namespace {

constexpr double kPi = 3.14159265358979323846264338327;

// Watson et al. 1997, "Visibility of wavelet quantization noise": the luma
// row of Table IV (a, k, f0, g per orientation) and Table V (basis function
// amplitudes per level and orientation), as float like libvmaf.
constexpr float kWatsonA = 0.495f;
constexpr float kWatsonK = 0.466f;
constexpr float kWatsonF0 = 0.401f;
constexpr float kWatsonG[4] = {1.501f, 1.0f, 0.534f, 1.0f};
constexpr float kBasisAmplitude[6][4] = {
    {0.62171f, 0.67234f, 0.72709f, 0.67234f},
    {0.34537f, 0.41317f, 0.49428f, 0.41317f},
    {0.18004f, 0.22727f, 0.28688f, 0.22727f},
    {0.091401f, 0.11792f, 0.15214f, 0.11792f},
    {0.045943f, 0.059758f, 0.077727f, 0.059758f},
    {0.023013f, 0.030018f, 0.039156f, 0.030018f}};

// Display resolution in pixels per degree, computed in double, kept as float.
float pixels_per_degree(double norm_view_dist, int ref_display_height) {
    return static_cast<float>(norm_view_dist * ref_display_height * kPi / 180.0);
}

// Quantisation step Q of Watson's formula (9); theta 1 is h/v, 2 is d.
// Evaluation types as in libvmaf: k * temp * temp is a float product.
float watson_quant_step(int lambda, int theta, double norm_view_dist, int ref_display_height) {
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    const float temp = static_cast<float>(std::log10(
        std::pow(2.0, lambda + 1) * static_cast<double>(kWatsonF0) *
        static_cast<double>(kWatsonG[theta]) / static_cast<double>(r)));
    const float ktt = kWatsonK * temp * temp;
    return static_cast<float>(2.0 * static_cast<double>(kWatsonA) *
                              std::pow(10.0, static_cast<double>(ktt)) /
                              static_cast<double>(kBasisAmplitude[lambda][theta]));
}

// Barten's CSF as simplified in HDR-VDP-2 (Mantiuk et al. 2011).
constexpr float kBartenLumAnchors[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
constexpr float kBartenParams[6][5] = {
    {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
    {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
    {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
    {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f}};
constexpr float kBartenSa[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
constexpr float kBartenMtfA[4] = {0.424838596301290f, 0.572435103936480f,
                                  0.000167576239164937f, 0.00255872352306433f};
constexpr float kBartenMtfB[4] = {0.028f, 0.37f, 37.0f, 360.0f};
constexpr double kBartenLuminance = 100.0;  // cd/m^2, libvmaf's default

float lerp_float(float x0, float y0, float x1, float y1, float x) {
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float barten_rod_cone_sensitivity(float luminance) {
    const float drop = kBartenSa[1];
    const float slope = kBartenSa[2];
    const float low_slope = kBartenSa[3];
    return static_cast<float>(
        static_cast<double>(kBartenSa[0]) *
        std::pow(std::pow(static_cast<double>(drop / luminance), static_cast<double>(slope)) + 1,
                 static_cast<double>(-low_slope)));
}

float barten_mtf(float frequency) {
    float mtf = 0.0f;
    for (int i = 0; i <= 3; ++i) {
        const float bf = -kBartenMtfB[i] * frequency;
        mtf = static_cast<float>(static_cast<double>(mtf) +
                                 static_cast<double>(kBartenMtfA[i]) *
                                     std::exp(static_cast<double>(bf)));
    }
    return mtf;
}

float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double luminance,
                 double scale) {
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    const float freq = static_cast<float>(static_cast<double>(r) / std::pow(2, lambda + 1));

    double lum = luminance;
    const double lo = kBartenLumAnchors[0], hi = kBartenLumAnchors[5];
    lum = lum > hi ? hi : (lum < lo ? lo : lum);
    int left = 0, right = 0;
    for (int i = 0; i < 5; ++i) {
        if (lum >= kBartenLumAnchors[i] && lum <= kBartenLumAnchors[i + 1]) {
            left = i;
            right = i + 1;
            break;
        }
    }
    const float left_pos = static_cast<float>(std::log10(static_cast<double>(kBartenLumAnchors[left])));
    const float right_pos = static_cast<float>(std::log10(static_cast<double>(kBartenLumAnchors[right])));
    const float pos = static_cast<float>(std::log10(lum));
    float p[4];
    for (int k = 0; k < 4; ++k)
        p[k] = lerp_float(left_pos, kBartenParams[left][k + 1], right_pos,
                          kBartenParams[right][k + 1], pos);

    const float a = static_cast<float>(
        1.0f + std::pow(static_cast<double>(p[0] * freq), static_cast<double>(p[1])));
    const float f7 = freq / 7;
    const float b = static_cast<float>(
        1.0f / std::pow(1 - std::exp(-std::pow(static_cast<double>(f7), 2.0)),
                        static_cast<double>(p[2])));
    const float ab = a * b;
    const float csf = static_cast<float>(static_cast<double>(p[3]) /
                                         std::pow(static_cast<double>(ab), 0.5));
    const float product = csf * barten_mtf(freq) *
                          barten_rod_cone_sensitivity(static_cast<float>(luminance));
    return static_cast<float>(static_cast<double>(product) * scale);
}

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
            return {barten_csf(scale, p.norm_view_dist, p.ref_display_height, kBartenLuminance,
                               p.csf_scale),
                    barten_csf(scale, p.norm_view_dist, p.ref_display_height, kBartenLuminance,
                               p.csf_diag_scale)};
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
            return {1.0f / watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height),
                    1.0f / watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height)};
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
