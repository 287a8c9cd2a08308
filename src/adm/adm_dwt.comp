// Device twin of dwt_s0_u8 / dwt_s0_u16 / dwt_s1 / dwt_s123 (adm_scalar.cpp):
// one band sample (all four bands a, h, v, d) of one picture (z = picture)
// from the 4 x 4 source samples around it, reflected at the edges.
// Scale 0: products and sums modulo 2^32, centred, >> bpc to int16, then
// the horizontal pass (sum + 2^15) >> 16 to int16. Scales 1-3: int64 sums,
// (sum + round) >> shift narrowed to int32, vertical shifts 0/16/16 and
// horizontal 15/16/15.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_common.glsl"
#include "adm_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
// [picture][a, h, v, d][out_h * out_w], int32.
layout(std430, binding = 1) writeonly buffer Bands { int bands[]; };

layout(push_constant) uniform Push { AdmDwtPush p; };

const int kLo[4] = int[](15826, 27411, 7345, -4240);
const int kHi[4] = int[](-4240, -7345, 27411, -15826);
const int kVShift[3] = int[](0, 16, 16);
const int kHShift[3] = int[](15, 16, 15);

void main() {
    const int j = int(gl_GlobalInvocationID.x);
    const int i = int(gl_WorkGroupID.y);
    const int pic = int(gl_WorkGroupID.z);
    if (j >= p.out_w) return;
    const int base = pic == 0 ? p.base0 : p.base1;
    // The vertical pass at the four columns 2j - 1 .. 2j + 2.
    int lo[4], hi[4];
    for (int c = 0; c < 4; ++c) {
        const int x = adm_reflect(2 * j - 1 + c, p.in_w);
        int s[4];
        for (int k = 0; k < 4; ++k) s[k] = ADM_LOAD(src, p.kind, base + adm_reflect(2 * i - 1 + k, p.in_h) * p.in_w + x);
        if (p.scale == 0) {
            const uint half_range = 1u << (p.bpc - 1);
            const uint centre = 46342u * half_range;
            uint l = 0u, h = 0u;
            for (int k = 0; k < 4; ++k) {
                l += uint(kLo[k] * s[k]);
                h += uint(kHi[k] * s[k]);
            }
            l = l - centre + half_range;
            h = h + half_range;
            lo[c] = adm_int16(int(l) >> p.bpc);
            hi[c] = adm_int16(int(h) >> p.bpc);
        } else {
            const int vs = kVShift[p.scale - 1];
            int64_t l = 0, h = 0;
            for (int k = 0; k < 4; ++k) {
                l += int64_t(kLo[k]) * s[k];
                h += int64_t(kHi[k]) * s[k];
            }
            lo[c] = int((l + adm_round_term(vs)) >> vs);
            hi[c] = int((h + adm_round_term(vs)) >> vs);
        }
    }
    int a, bh, bv, bd;
    if (p.scale == 0) {
        int sa = 0, sv = 0, sh = 0, sd = 0;
        for (int c = 0; c < 4; ++c) {
            sa += kLo[c] * lo[c];
            sv += kHi[c] * lo[c];
            sh += kLo[c] * hi[c];
            sd += kHi[c] * hi[c];
        }
        a = adm_int16((sa + 32768) >> 16);
        bv = adm_int16((sv + 32768) >> 16);
        bh = adm_int16((sh + 32768) >> 16);
        bd = adm_int16((sd + 32768) >> 16);
    } else {
        const int hs = kHShift[p.scale - 1];
        const int64_t r = adm_round_term(hs);
        int64_t sa = 0, sv = 0, sh = 0, sd = 0;
        for (int c = 0; c < 4; ++c) {
            sa += int64_t(kLo[c]) * lo[c];
            sv += int64_t(kHi[c]) * lo[c];
            sh += int64_t(kLo[c]) * hi[c];
            sd += int64_t(kHi[c]) * hi[c];
        }
        a = int((sa + r) >> hs);
        bv = int((sv + r) >> hs);
        bh = int((sh + r) >> hs);
        bd = int((sd + r) >> hs);
    }
    const int n = p.out_w * p.out_h;
    const int o = pic * 4 * n + i * p.out_w + j;
    bands[o] = a;
    bands[o + n] = bh;
    bands[o + 2 * n] = bv;
    bands[o + 3 * n] = bd;
}
