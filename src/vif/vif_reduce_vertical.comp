// Device twin of vif_subsample_vertical_u8 / _u16: the vertical pass of the
// reduction from scale `scale` (filter scale + 1) at the even rows 2 * oi,
// uint32 sums, uint16((sum + round) >> shift).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "vif_common.glsl"
#include "vif_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
// Two planes of w * out_h: ref, dis.
layout(std430, binding = 1) writeonly buffer Conv { uint conv[]; };

layout(push_constant) uniform Push { VifReducePush p; };

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int oi = int(gl_WorkGroupID.y);
    if (x >= p.w) return;
    const int f = p.scale + 1;
    const int taps = kFilterTaps[f];
    const int half_taps = taps / 2;
    uint sr = 0u, sd = 0u;
    for (int t = 0; t < taps; ++t) {
        const int at = reflect(2 * oi - half_taps + t, p.h) * p.w + x;
        const uint c = filter_tap(f, t);
        sr += c * VIF_LOAD(src, p.kind, p.ref_base + at);
        sd += c * VIF_LOAD(src, p.kind, p.dis_base + at);
    }
    const uint round = p.shift == 0 ? 0u : (1u << (p.shift - 1));
    const int o = oi * p.w + x;
    conv[o] = ((sr + round) >> p.shift) & 0xffffu;
    conv[p.w * p.out_h + o] = ((sd + round) >> p.shift) & 0xffffu;
}
