// What SpEED's scalar (speed_gsm.cpp), its CUDA twin (speed_cuda_math.cuh)
// and its Vulkan shaders (speed_*.comp) share, defined once (HACKING.md,
// "One arithmetic, one place"), in the subset of C++ that GLSL parses too
// (device/shared_lang.h): the push constants of speed_scale.comp and the
// correctly rounded binary32 division lanczos_at's value / weight_sum needs.
#ifndef VMAFPP_SPEED_SHARED_H
#define VMAFPP_SPEED_SHARED_H

#include "../device/shared_lang.h"
#ifdef __cplusplus
namespace vmafpp::speed {
#endif

// speed_scale.comp: the bicubic (taps 4) or lanczos4 (taps 9, divide 1)
// prescale of the w x h float picture to sw x sh.
struct SpeedScalePush {
    int32_t w;
    int32_t h;
    int32_t sw;
    int32_t sh;
    int32_t taps;
    int32_t divide;
    int32_t unused0;
    int32_t unused1;
};

// The binary32 quotient n / d rounded to nearest, ties to even (what the
// scalar's float division gives), from the operands' bits, in 32-bit
// integers only: Vulkan allows OpFDiv 2.5 ULP of error, so a shader may not
// divide floats and expect the scalar's bits. Needs n finite and d finite
// and non-zero (lanczos_at's weight_sum is a sum of 81 products of weights
// whose one-dimensional sums are about 1).
//
// Why it is exact. Each operand is m * 2^(e - 150) with m < 2^24 an
// integer (a subnormal has e = 1, no hidden bit); both m are shifted left
// until bit 23 is set (the exponent lowered as much), so n / d = (mn / md)
// * 2^(en - ed) with mn / md in (1/2, 2); if mn < md, mn doubles and the
// exponent drops by one, so mn / md is in [1, 2). Restoring long division
// then gives the 25 leading bits q of mn / md (q in [2^24, 2^25): the
// integer bit and 24 fraction bits) and the remainder r < md: q and r are
// exact (r < 2 md < 2^25 fits every step), and n / d = (q + r / md) *
// 2^(e - 24) exactly, e = en - ed (after the adjustment). The result keeps
// 24 significant bits when it is normal (drop 1 bit of q) and fewer when it
// is subnormal (its last bit weighs 2^-149: drop -149 - (e - 24) bits);
// the dropped bits compared with half of the last kept bit, with r != 0 as
// the sticky bit below them, decide the rounding exactly as IEEE 754 does.
// A carry out of the 24 bits moves into the exponent field by the addition
// (the hidden bit sits at the field's lowest bit), which is also how the
// largest subnormal rounds up to the smallest normal; past the largest
// finite value the result is infinity, as the division's. Checked against
// the CPU's division on millions of operands, subnormal, tie and carry
// cases included (tests/unit/speed_shared_test.cpp, SpeedShared.*).
VMAFPP_HD uint32_t speed_divide_bits(uint32_t n, uint32_t d) {
    const uint32_t neg = (n ^ d) & 0x80000000u;
    int32_t en = int32_t((n >> 23) & 0xffu);
    int32_t ed = int32_t((d >> 23) & 0xffu);
    uint32_t mn = n & 0x7fffffu;
    uint32_t md = d & 0x7fffffu;
    if (mn == 0u && en == 0) return neg;  // a zero numerator
    if (en == 0) en = 1; else mn |= 0x800000u;
    if (ed == 0) ed = 1; else md |= 0x800000u;
    while (mn < 0x800000u) { mn <<= 1; en -= 1; }
    while (md < 0x800000u) { md <<= 1; ed -= 1; }
    int32_t e = en - ed;  // n / d = (mn / md) * 2^e
    if (mn < md) { mn <<= 1; e -= 1; }
    // q: 25 bits of mn / md in [1, 2); r: the remainder, r < md.
    uint32_t q = 0u;
    uint32_t r = mn;
    for (int32_t i = 0; i < 25; ++i) {
        q <<= 1;
        if (r >= md) { r -= md; q |= 1u; }
        r <<= 1;
    }
    const bool sticky = r != 0u;
    // n / d = q * 2^(e - 24) (plus the sticky part); the binary32 exponent
    // of the result is e, normal when e >= -126.
    int32_t drop = 1;
    if (e < -126) drop = 1 + (-126 - e);
    if (drop > 26) drop = 26;  // everything below half the smallest subnormal
    const uint32_t kept = q >> uint32_t(drop);
    const uint32_t rest = q & ((1u << uint32_t(drop)) - 1u);
    const uint32_t halfway = 1u << uint32_t(drop - 1);
    const bool up = rest > halfway || (rest == halfway && (sticky || (kept & 1u) != 0u));
    const uint32_t rounded = kept + (up ? 1u : 0u);
    if (e < -126) return neg | rounded;  // subnormal (or 2^-126 after a carry)
    if (e > 127) return neg | 0x7f800000u;
    const uint32_t bits = (uint32_t(e + 126) << 23) + rounded;
    return neg | (bits >= 0x7f800000u ? 0x7f800000u : bits);
}

#ifdef __cplusplus
}  // namespace vmafpp::speed
#endif

#endif
