// Device twin of vif_subsample_horizontal: the horizontal pass of the
// reduction at the even columns of the mirrored vertical rows, uint32
// sums, uint16((sum + 2^15) >> 16): the samples of scale `scale` + 1.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "vif_common.glsl"
#include "vif_shared.h"

layout(local_size_x = 64) in;
// Two planes of w * out_h (vif_reduce_vertical).
layout(std430, binding = 0) readonly buffer Conv { uint conv[]; };
// Two planes of out_w * out_h: ref, dis (one sample per word).
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Push { VifReduceRowPush p; };

void main() {
    const int j = int(gl_GlobalInvocationID.x);
    const int oi = int(gl_WorkGroupID.y);
    if (j >= p.out_w) return;
    const int f = p.scale + 1;
    const int taps = kFilterTaps[f];
    const int half_taps = taps / 2;
    const int n = p.w * p.out_h;
    const int row = oi * p.w;
    uint sr = 0u, sd = 0u;
    for (int t = 0; t < taps; ++t) {
        const int at = row + reflect(2 * j - half_taps + t, p.w);
        const uint c = filter_tap(f, t);
        sr += c * conv[at];
        sd += c * conv[n + at];
    }
    const int o = oi * p.out_w + j;
    dst[o] = ((sr + 32768u) >> 16) & 0xffffu;
    dst[p.out_w * p.out_h + o] = ((sd + 32768u) >> 16) & 0xffffu;
}
