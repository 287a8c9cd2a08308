// Device twin of vif_stat_vertical_u8 / _u16 (vif_kernels_scalar.cpp): the
// vertical pass of the means and second moments at one sample of scale
// `scale`, with that scale's filter. Means in uint32, moments in uint64,
// then mu = uint16((sum + round) >> shift_mu) and moment =
// uint32((sum + round) >> shift_sq); the 8-bit kernel's forms are these with
// shift_mu = 8, shift_sq = 0 (nothing overflows or is cut for 8-bit samples).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "vif_common.glsl"
#include "vif_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
// Five planes of w * h: mu1, mu2, xx, yy, xy.
layout(std430, binding = 1) writeonly buffer Moments { uint mom[]; };

layout(push_constant) uniform Push { VifStatPush p; };

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int i = int(gl_WorkGroupID.y);
    if (x >= p.w) return;
    const int taps = kFilterTaps[p.scale];
    const int half_taps = taps / 2;
    uint mu1 = 0u, mu2 = 0u;
    uint64_t xx = 0ul, yy = 0ul, xy = 0ul;
    for (int t = 0; t < taps; ++t) {
        const int at = reflect(i - half_taps + t, p.h) * p.w + x;
        const uint c = filter_tap(p.scale, t);
        const uint rv = VIF_LOAD(src, p.kind, p.ref_base + at);
        const uint dv = VIF_LOAD(src, p.kind, p.dis_base + at);
        const uint cr = c * rv;
        const uint cd = c * dv;
        mu1 += cr;
        mu2 += cd;
        xx += uint64_t(cr) * rv;
        yy += uint64_t(cd) * dv;
        xy += uint64_t(cr) * dv;
    }
    const uint round_mu = p.shift_mu == 0 ? 0u : (1u << (p.shift_mu - 1));
    const uint64_t round_sq = p.shift_sq == 0 ? 0ul : (uint64_t(1) << (p.shift_sq - 1));
    const int n = p.w * p.h;
    const int o = i * p.w + x;
    mom[o] = ((mu1 + round_mu) >> p.shift_mu) & 0xffffu;
    mom[n + o] = ((mu2 + round_mu) >> p.shift_mu) & 0xffffu;
    mom[2 * n + o] = uint((xx + round_sq) >> p.shift_sq);
    mom[3 * n + o] = uint((yy + round_sq) >> p.shift_sq);
    mom[4 * n + o] = uint((xy + round_sq) >> p.shift_sq);
}
