#include "csf/csf.hpp"

#include <cmath>

namespace vmafpp::csf {

namespace {

// The same double as M_PI and std::numbers::pi.
constexpr double kPi = 3.14159265358979323846264338327;

// Watson et al. 1997: the luma row of Table IV (a, k, f0, g per orientation)
// and Table V (basis function amplitudes per level and orientation), as
// float like libvmaf.
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

// Barten (HDR-VDP-2): luminance anchors, the parameters at each anchor, the
// rod/cone sensitivity and the optical MTF.
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

float anchor_position(int i, AnchorLog how) {
    if (how == AnchorLog::float_log10) return std::log10(kBartenLumAnchors[i]);  // log10f
    return static_cast<float>(std::log10(static_cast<double>(kBartenLumAnchors[i])));
}

}  // namespace

float pixels_per_degree(double norm_view_dist, int ref_display_height) {
    return static_cast<float>(norm_view_dist * ref_display_height * kPi / 180.0);
}

// Evaluation types as in libvmaf: k * temp * temp is a float product, the
// rest double.
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

float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double luminance,
                 double scale, AnchorLog anchor_log) {
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
    const float left_pos = anchor_position(left, anchor_log);
    const float right_pos = anchor_position(right, anchor_log);
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

}  // namespace vmafpp::csf
