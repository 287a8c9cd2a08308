// Device twin of cm_accumulate_s0 / cm_accumulate_s123 (adm_scalar.cpp) up
// to the row sums: one workgroup per row y of the pooling region and per
// pass (z = 0: DLM, x = r masked by a; z = 1: AIM, x = a masked by r). Each
// invocation takes columns of the row: the threshold T of the column (csf
// and flt of the masker's 3 x 3 neighbours in h, v and d, derived on the
// fly, reflected as the scalar reflects them), then for each orientation
// the excess clamp(|x| - T * 2^sub, 0, INT32_MAX) exactly (int64), its
// int32-narrowed square and the cube. The row's cubes are summed modulo
// 2^64 (a tree of wrapping int64 additions: exact and order-independent);
// the host folds the rows as the scalar does.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_common.glsl"
#include "adm_shared.h"

layout(local_size_x = 64) in;
// [r, a][h, v, d][w * h] from adm_decouple.
layout(std430, binding = 0) readonly buffer Decoupled { int dec[]; };
// [den, dlm, aim][h, v, d][region rows], int64 row sums.
layout(std430, binding = 1) buffer Rows { int64_t rows[]; };

layout(push_constant) uniform Push { AdmPoolPush p; };

shared int64_t partial[3][64];

// (csf, flt) of masker sample v of orientation t.
ivec2 csf_flt(int v, int t) {
    if (p.scale == 0) {
        const int shift = t == 2 ? 17 : 15;
        const int round = t == 2 ? 65535 : 16384;
        const int c = adm_int16((int(p.rfactor[t]) * v + round) >> shift);
        return ivec2(c, adm_int16((4369 * abs(c) + 2048) >> 12));
    }
    const int c = int((int64_t(v) * int64_t(p.rfactor[t]) + (int64_t(1) << 27)) >> 28);
    const int f = int((143165577l * int64_t(adm_magnitude(c)) - (int64_t(1) << 31)) >> 32);
    return ivec2(c, f);
}

int64_t centre_tap(int c) {
    if (p.scale == 0) return int64_t((8738 * abs(c) + 2048) >> 12);
    return int64_t(int((286331153l * int64_t(adm_magnitude(c)) - (int64_t(1) << 31)) >> 32));
}

void main() {
    const int y = p.y0 + int(gl_WorkGroupID.x);
    const int pass_ = int(gl_WorkGroupID.z);
    const int n = p.w * p.h;
    const int x_base = pass_ == 0 ? 0 : 3 * n;  // the measured band
    const int m_base = pass_ == 0 ? 3 * n : 0;  // its masker
    const int ya = adm_reflect(y - 1, p.h), yb = adm_reflect(y + 1, p.h);
    int64_t sum[3] = int64_t[](0, 0, 0);
    for (int x = p.x0 + int(gl_LocalInvocationID.x); x < p.x1; x += 64) {
        const int xl = x == 0 ? 1 : x - 1;
        const int xr = x == p.w - 1 ? p.w - 1 : x + 1;
        int64_t thr = 0;
        for (int t = 0; t < 3; ++t) {
            const int b = m_base + t * n;
            int64_t ring = 0;
            ring += csf_flt(dec[b + ya * p.w + xl], t).y;
            ring += csf_flt(dec[b + ya * p.w + x], t).y;
            ring += csf_flt(dec[b + ya * p.w + xr], t).y;
            ring += csf_flt(dec[b + y * p.w + xl], t).y;
            ring += csf_flt(dec[b + y * p.w + xr], t).y;
            ring += csf_flt(dec[b + yb * p.w + xl], t).y;
            ring += csf_flt(dec[b + yb * p.w + x], t).y;
            ring += csf_flt(dec[b + yb * p.w + xr], t).y;
            thr += ring + centre_tap(csf_flt(dec[b + y * p.w + x], t).x);
        }
        for (int t = 0; t < 3; ++t) {
            const int v = dec[x_base + t * n + y * p.w + x];
            int64_t e;
            if (p.scale == 0) {
                const int64_t m = int64_t(abs(v * int(p.rfactor[t])));
                e = m - thr * (int64_t(1) << p.sub[t]);
            } else {
                const int xv = int((int64_t(v) * int64_t(p.rfactor[t]) + (int64_t(1) << 27)) >> 28);
                e = int64_t(adm_magnitude(xv)) - thr;
            }
            e = clamp(e, int64_t(0), int64_t(2147483647));
            const int e2 = int((e * e + adm_round_term(p.sq[t])) >> p.sq[t]);
            sum[t] += (int64_t(e2) * e + adm_round_term(p.cub[t])) >> p.cub[t];
        }
    }
    const uint lane = gl_LocalInvocationID.x;
    for (int t = 0; t < 3; ++t) partial[t][lane] = sum[t];
    barrier();
    for (uint half_n = 32u; half_n > 0u; half_n >>= 1) {
        if (lane < half_n)
            for (int t = 0; t < 3; ++t) partial[t][lane] += partial[t][lane + half_n];
        barrier();
    }
    if (lane == 0u) {
        const int rh = p.y1 - p.y0;
        for (int t = 0; t < 3; ++t) rows[((1 + pass_) * 3 + t) * rh + (y - p.y0)] = partial[t][0];
    }
}
