// Contrast sensitivity factors of integer ADM: the float "rfactor" per scale
// and orientation class (h/v or d), computed with libvmaf's float/double mix
// so the values, and the fixed-point factors derived from them, are the same
// bit for bit. The Watson and Barten models themselves are in src/csf,
// shared with float ADM.
#pragma once

#include <cstdint>
#include <optional>

namespace vmafpp::adm {

enum class CsfMode : int {
    watson97 = 0,
    barten = 1,
    barten_watson_blend = 2,
    barten_watson_blend_mae = 3,
};

// The viewing options (defaults: integer ADM's option table,
// adm::default_adm_options()).
struct CsfParams {
    CsfMode mode;
    double norm_view_dist;
    int ref_display_height;
    double csf_scale;       // Barten only
    double csf_diag_scale;  // Barten only
};

// Whether the blend modes have a table for this viewing condition.
bool blend_table_exists(double norm_view_dist, int ref_display_height);

// {factor for h and v, factor for d} at `scale` (0..3).
struct CsfFactors {
    float hv = 0.0f;
    float d = 0.0f;
};
CsfFactors csf_factors(const CsfParams& p, int scale);

// Fixed-point factors. Scale 0: Q21 for h/v and Q23 for d as uint16, with
// libvmaf's hard-coded {36453, 36453, 49417} for the default Watson
// condition. Scales 1-3: Q32 as uint32.
void fixed_factors_s0(const CsfParams& p, std::uint16_t out[3]);
void fixed_factors_s123(const CsfParams& p, int scale, std::uint32_t out[3]);

// libvmaf converts these doubles with plain C casts, undefined when out of
// range; these give what gcc on x86-64 gives (cvttsd2si to int32, resp.
// int64, then the low bits; 0 when the conversion is invalid).
std::uint16_t to_u16_like_x86(double v);
std::uint32_t to_u32_like_x86(double v);

}  // namespace vmafpp::adm
