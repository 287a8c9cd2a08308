// Device twin of vif_stat_horizontal (vif_kernels_scalar.cpp): the
// horizontal pass on the mirrored vertical sums, the Q32 mean products
// rounded back to Q16, and the variances and covariance as the int32
// reading of a uint32 difference.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "vif_common.glsl"
#include "vif_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Moments { uint mom[]; };
// From out_base: three planes of w * h, sigma1_sq, sigma2_sq, sigma12.
layout(std430, binding = 1) writeonly buffer Sigma { int sigma[]; };

layout(push_constant) uniform Push { VifSigmaPush p; };

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int i = int(gl_WorkGroupID.y);
    if (x >= p.w) return;
    const int taps = kFilterTaps[p.scale];
    const int half_taps = taps / 2;
    const int n = p.w * p.h;
    const int row = i * p.w;
    uint mu1 = 0u, mu2 = 0u;
    uint64_t xx = 0ul, yy = 0ul, xy = 0ul;
    for (int t = 0; t < taps; ++t) {
        const int at = row + reflect(x + t - half_taps, p.w);
        const uint c = filter_tap(p.scale, t);
        mu1 += c * mom[at];
        mu2 += c * mom[n + at];
        xx += uint64_t(c) * mom[2 * n + at];
        yy += uint64_t(c) * mom[3 * n + at];
        xy += uint64_t(c) * mom[4 * n + at];
    }
    const uint64_t m1 = mu1, m2 = mu2;
    const uint mu1_sq = uint((m1 * m1 + 0x80000000ul) >> 32);
    const uint mu2_sq = uint((m2 * m2 + 0x80000000ul) >> 32);
    const uint mu1_mu2 = uint((m1 * m2 + 0x80000000ul) >> 32);
    const uint xx_f = uint((xx + 32768ul) >> 16);
    const uint yy_f = uint((yy + 32768ul) >> 16);
    const uint xy_f = uint((xy + 32768ul) >> 16);
    const int o = p.out_base + row + x;
    sigma[o] = int(xx_f - mu1_sq);
    sigma[n + o] = int(yy_f - mu2_sq);
    sigma[2 * n + o] = int(xy_f - mu1_mu2);
}
