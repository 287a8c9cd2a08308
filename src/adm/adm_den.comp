// Device twin of den_accumulate_s0 / den_accumulate_s123 up to the row
// sums: one workgroup per row of the pooling region and orientation (z),
// |b|^3 (scale 0) or ((((b^2 + 2^sq) >> sq) * b) + round) >> cub (scales
// 1-3) in uint64 of the reference band, summed modulo 2^64 (order-free).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_common.glsl"
#include "adm_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Bands { int bands[]; };
layout(std430, binding = 1) buffer Rows { uint64_t rows[]; };

layout(push_constant) uniform Push { AdmPoolPush p; };

shared uint64_t partial[64];

void main() {
    const int y = p.y0 + int(gl_WorkGroupID.x);
    const int t = int(gl_WorkGroupID.z);
    const int n = p.w * p.h;
    const int b = (1 + t) * n + y * p.w;  // the reference picture's h, v, d
    uint64_t sum = 0ul;
    for (int x = p.x0 + int(gl_LocalInvocationID.x); x < p.x1; x += 64) {
        const uint64_t m = adm_magnitude(bands[b + x]);
        if (p.scale == 0)
            sum += m * m * m;
        else
            sum += ((((m * m + (uint64_t(1) << p.den_sq)) >> p.den_sq) * m) + uint64_t(adm_round_term(p.den_cub))) >> p.den_cub;
    }
    const uint lane = gl_LocalInvocationID.x;
    partial[lane] = sum;
    barrier();
    for (uint half_n = 32u; half_n > 0u; half_n >>= 1) {
        if (lane < half_n) partial[lane] += partial[lane + half_n];
        barrier();
    }
    if (lane == 0u) rows[t * (p.y1 - p.y0) + (y - p.y0)] = partial[0];
}
