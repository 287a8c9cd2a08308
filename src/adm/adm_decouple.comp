// Device twin of decouple_s0 / decouple_s123 (adm_scalar.cpp) over a whole
// band: libvmaf's angle test, evaluated exactly without float64 (below),
// the Q15 ratio through the 2^30 / i division values, the restored value
// (k * o + 2^14) >> 15, the gain limit by adm_gain_limit_product() where the
// angle test passes, and r, a = d - r narrowed to the band's type.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_common.glsl"
#include "adm_shared.h"

layout(local_size_x = 64) in;
// [picture][a, h, v, d][n] from adm_dwt.
layout(std430, binding = 0) readonly buffer Bands { int bands[]; };
// [r, a][h, v, d][n].
layout(std430, binding = 1) writeonly buffer Decoupled { int dec[]; };

layout(push_constant) uniform Push { AdmDecouplePush p; };

// A non-negative value as m * 2^e, m < 2^54.
struct Scaled {
    uint64_t m;
    int e;
};

int bitlen64(uint64_t v) {
    const uint hi = uint(v >> 32), lo = uint(v);
    return hi != 0u ? 33 + findMSB(hi) : (lo != 0u ? 1 + findMSB(lo) : 0);
}

// v rounded to `bits` significant bits, to nearest, ties to even (what a
// conversion to float (24) or a double product (53) does).
Scaled round_to_bits(uint64_t v, int e, int bits) {
    const int len = bitlen64(v);
    if (len <= bits) return Scaled(v, e);
    const int k = len - bits;
    uint64_t m = v >> k;
    const uint64_t rem = v & ((uint64_t(1) << k) - 1ul);
    const uint64_t half_ulp = uint64_t(1) << (k - 1);
    if (rem > half_ulp || (rem == half_ulp && (m & 1ul) != 0ul)) m += 1ul;
    return Scaled(m, e + k);
}

// a * 2^ea >= b * 2^eb for a, b < 2^55.
bool at_least(Scaled a, Scaled b) {
    if (b.m == 0ul) return true;
    if (a.m == 0ul) return false;
    const int la = bitlen64(a.m) + a.e, lb = bitlen64(b.m) + b.e;
    if (la != lb) return la > lb;
    // Same top bit: align the one with the larger exponent (its shifted
    // value keeps the common bit length, below 2^55).
    if (a.e >= b.e) return (a.m << (a.e - b.e)) >= b.m;
    return a.m >= (b.m << (b.e - a.e));
}

// The scalar's angle test: with D, O, T the int64 sums converted to float,
// (D / 4096 >= 0) && (D/4096)^2 >= (double)cos_sq * (O/4096) * (T/4096) in
// double. D^2 is exact in double (48 bits); cos_sq * O is exact (48 bits);
// only the product with T rounds, to 53 bits. The common 2^-24 cancels.
//
// The squared magnitudes are sums modulo 2^64 and can be negative (two
// samples of -2^31 give 2^63, read as -2^63): a negative right-hand side
// (one of O, T negative) or a zero one makes the test pass for D >= 0.
bool angle_within_1deg(int64_t dot, int64_t o_mag_sq, int64_t t_mag_sq) {
    if (dot < 0) return false;
    if (o_mag_sq == 0 || t_mag_sq == 0 || ((o_mag_sq < 0) != (t_mag_sq < 0))) return true;
    const Scaled d = round_to_bits(uint64_t(dot), 0, 24);
    // |v| as uint64 (2^63 for -2^63); rounding is symmetric in the sign.
    const Scaled o = round_to_bits(o_mag_sq < 0 ? 0ul - uint64_t(o_mag_sq) : uint64_t(o_mag_sq), 0, 24);
    const Scaled t = round_to_bits(t_mag_sq < 0 ? 0ul - uint64_t(t_mag_sq) : uint64_t(t_mag_sq), 0, 24);
    const uint cb = p.cos_sq_bits;
    const Scaled c = Scaled(uint64_t((cb & 0x7fffffu) | 0x800000u), int((cb >> 23) & 0xffu) - 150);
    const Scaled lhs = Scaled(d.m * d.m, 2 * d.e);
    // c * o * t = x * t with x = c * o < 2^48, as a 96-bit product.
    const uint64_t x = c.m * o.m;
    const uint64_t x_lo = x & 0xfffffffful, x_hi = x >> 32;
    const uint64_t p_lo = x_lo * t.m;           // < 2^56
    const uint64_t p_hi = x_hi * t.m + (p_lo >> 32);  // the product >> 32, < 2^40
    const int e = c.e + o.e + t.e;
    Scaled rhs;
    if (p_hi == 0ul) {
        rhs = round_to_bits(p_lo, e, 53);
    } else {
        // The product is p_hi * 2^32 + low 32 bits: round to 53 bits from
        // the top, the dropped low word only deciding ties and above-half.
        const int len = bitlen64(p_hi) + 32;
        const int k = len - 53;  // bits dropped, <= 19 (length <= 72)
        const uint64_t low = p_lo & 0xfffffffful;
        if (k <= 0) {
            rhs = Scaled((p_hi << 32) | low, e);
        } else {
            const uint64_t whole = (p_hi << (32 - k)) | (low >> k);
            const uint64_t rem = low & ((uint64_t(1) << k) - 1ul);
            const uint64_t half_ulp = uint64_t(1) << (k - 1);
            uint64_t m = whole;
            if (rem > half_ulp || (rem == half_ulp && (m & 1ul) != 0ul)) m += 1ul;
            rhs = Scaled(m, e + k);
        }
    }
    return at_least(lhs, rhs);
}

// 2^30 / |o| with o's sign (libvmaf's division table), 1 <= |o| <= 32768.
int64_t div_lookup(int o) {
    const int64_t r = int64_t((1 << 30) / int(abs(o)));
    return o < 0 ? -r : r;
}

int64_t ratio_q15_s0(int o, int t) {
    if (o == 0) return 32768;
    const int64_t q = (div_lookup(o) * t + 16384) >> 15;
    return clamp(q, int64_t(0), int64_t(32768));
}

int64_t ratio_q15_s123(int o, int t) {
    if (o == 0) return 32768;
    const uint mag = adm_magnitude(o);
    uint top = mag;
    int shift = 0;
    if (mag >= 32768u) {
        shift = findMSB(mag) - 14;  // 17 - countl_zero(mag)
        top = (mag + (1u << (shift - 1))) >> shift;
    }
    int64_t num = div_lookup(int(top)) * t;
    if (o < 0) num = -num;
    const int64_t q = (num + (int64_t(1) << (14 + shift))) >> (15 + shift);
    return clamp(q, int64_t(0), int64_t(32768));
}

void main() {
    const int i = int(gl_GlobalInvocationID.x);
    if (i >= p.n) return;
    const int n = p.n;
    // ref h, v, d at bands[n..3n], dis at bands[5n..7n].
    const int64_t oh = bands[n + i], ov = bands[2 * n + i];
    const int64_t th = bands[5 * n + i], tv = bands[6 * n + i];
    // Products and sums modulo 2^64, as the scalar's scales 1-3 (scale 0's
    // int16 operands never come near).
    const int64_t dot = oh * th + ov * tv;
    const int64_t o_sq = oh * oh + ov * ov;
    const int64_t t_sq = th * th + tv * tv;
    const bool angle = angle_within_1deg(dot, o_sq, t_sq);
    const uint64_t gain_m = (uint64_t(p.gain_m_hi) << 32) | p.gain_m_lo;
    for (int b = 0; b < 3; ++b) {
        const int o = bands[(1 + b) * n + i];
        const int d = bands[(5 + b) * n + i];
        const int64_t k = p.scale == 0 ? ratio_q15_s0(o, d) : ratio_q15_s123(o, d);
        int64_t rst = (k * o + 16384) >> 15;
        if (angle && k != 0 && o != 0) {
            const int64_t prod = adm_gain_limit_product(int(rst), gain_m, p.gain_s);
            rst = o > 0 ? min(prod, int64_t(d)) : max(prod, int64_t(d));
        }
        const int64_t a = int64_t(d) - rst;
        dec[b * n + i] = p.scale == 0 ? adm_int16(int(rst)) : int(rst);
        dec[(3 + b) * n + i] = p.scale == 0 ? adm_int16(int(a)) : int(a);
    }
}
